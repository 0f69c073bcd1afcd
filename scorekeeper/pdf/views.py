"""Print routes: a game's score sheet as PDF, and blank pads to play without a phone."""

from __future__ import annotations

from flask import abort, render_template, request
from flask_babel import gettext as _
from sqlalchemy.orm import selectinload
from werkzeug.wrappers import Response

from ..db import get_session, release_session
from ..models import Game
from ..printing.options import PAD_PRESETS, PAPER, PadForm, SheetOptions, problems
from ..printing.render import pdf_response, render_pdf
from ..scoring import PRESETS
from ..services.summaries import payments_of, record_of
from ..variants import VARIANTS, variant_for
from ..variants.window import SHEET_PAGE, Window
from . import bp


@bp.get("/g/<game_id>/sheet.pdf")
def game_sheet(game_id: str) -> Response | tuple[str, int]:
    """The game's score sheet as a PDF (``?size=a4|letter``, ``?appendix=1``, ``?large=1``
    for large print); watchers too. A long game prints a page of its sheet at a time,
    the latest first (``?page=``, as on the sheet): typesetting grows with the lines."""
    game = get_session().get(Game, game_id, options=[selectinload(Game.hands)])
    if game is None:
        abort(404)
    options = SheetOptions(request.args)
    if not options.validate():
        return _bad_link(problems(options))
    variant = variant_for(game)
    sheet = variant.sheet(game)
    payments = payments_of(game, record_of(game, sheet))
    release_session()  # everything is loaded: typesetting takes no connection
    body = render_pdf(
        variant.pdf_template,
        game=game,
        variant=variant,
        sheet=sheet,
        payments=payments,
        paper=options.page,
        zoom=options.zoom,
        appendix=options.with_appendix,
        window=Window.of(len(game.hands), request.args.get("page"), size=SHEET_PAGE),
    )
    return pdf_response(body, f"score-sheet-{game.id[:8]}.pdf")


@bp.get("/pads")
def pads() -> str:
    """Choose a blank pad: the kind of game, rows, rules, paper and (optionally) names."""
    return _pads_page(PadForm())


@bp.get("/pads/pad.pdf")
@bp.get("/pads/<variant_name>.pdf")
def pad_pdf(variant_name: str | None = None) -> Response | tuple[str, int]:
    """A blank pad for one kind of game (``?game=`` or in the path) with the rules on top."""
    variant = VARIANTS.get(variant_name or request.args.get("game", "gin"))
    if variant is None:
        abort(404)
    form = PadForm(request.args)
    preset = form.preset.data or variant.default_preset
    if form.validate() and preset not in variant.presets:
        form.preset.errors = [
            _(
                "%(game)s is not played with these rules. Choose the usual rules or one of: "
                "%(presets)s.",
                game=variant.label,
                presets=", ".join(str(PAD_PRESETS[name]) for name in variant.presets),
            )
        ]
    if form.errors:
        return _pads_page(form, variant.name), 400
    body = render_pdf(
        variant.pad_template,
        variant=variant,
        rules=variant.rules_for(PRESETS[preset]),
        preset_name=PAD_PRESETS[preset],
        players=form.players(),
        rows=form.rows.data,
        paper=PAPER[form.size.data],
    )
    return pdf_response(body, f"{variant.name}-pad-{form.rows.data}-rows.pdf")


def _pads_page(form: PadForm, game: str | None = None) -> str:
    """The pad form; each preset says which games it fits (the page's script hides the
    others when a game is chosen)."""
    variants = {name: v for name, v in VARIANTS.items() if name != "oklahoma"}
    fits = {
        preset: " ".join(name for name, v in variants.items() if preset in v.presets)
        for preset in PAD_PRESETS
    }
    return render_template(
        "pdf/pads.html",
        form=form,
        variants=variants,
        chosen=game or request.args.get("game", "gin"),
        fits=fits,
    )


def _bad_link(messages: list[str], code: int = 400) -> tuple[str, int]:
    return render_template("error.html", code=code, message=" ".join(messages)), code
