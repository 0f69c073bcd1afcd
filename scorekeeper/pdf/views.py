"""Print routes: a game's score sheet as PDF, and blank pads to play without a phone."""

from __future__ import annotations

from flask import abort, render_template, request
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ..db import get_session
from ..models import Game
from ..scoring import PRESETS
from ..sheets import TWO_PLAYER_VARIANTS, gin_sheet
from . import bp
from .forms import PAD_PRESETS, PAPER, PadForm, SheetOptions, problems
from .render import pdf_response, render_pdf


@bp.get("/g/<game_id>/sheet.pdf")
def game_sheet(game_id: str) -> Response | tuple[str, int]:
    """The game's score sheet as a PDF (``?size=a4|letter``, ``?appendix=1``); watchers too."""
    game = get_session().get(Game, game_id)
    if game is None:
        abort(404)
    options = SheetOptions(request.args)
    if not options.validate():
        return _bad_link(problems(options))
    if game.variant not in TWO_PLAYER_VARIANTS:
        return _bad_link([_("This game's sheet cannot be printed yet.")], 404)
    body = render_pdf(
        "pdf/sheet.html",
        game=game,
        sheet=gin_sheet(game),
        paper=PAPER[options.size.data],
        appendix=options.with_appendix,
    )
    return pdf_response(body, f"score-sheet-{game.id[:8]}.pdf")


@bp.get("/pads")
def pads() -> str:
    """Choose a blank pad: rows, rules, paper and (optionally) names."""
    return render_template("pdf/pads.html", form=PadForm())


@bp.get("/pads/gin.pdf")
def pad_pdf() -> Response | tuple[str, int]:
    """A blank two-player gin pad with the chosen rules printed at the top."""
    form = PadForm(request.args)
    if not form.validate():
        return render_template("pdf/pads.html", form=form), 400
    body = render_pdf(
        "pdf/pad.html",
        rules=PRESETS[form.preset.data],
        preset_label=PAD_PRESETS[form.preset.data],
        players=form.players(),
        rows=form.rows.data,
        paper=PAPER[form.size.data],
    )
    return pdf_response(body, f"gin-pad-{form.rows.data}-rows.pdf")


def _bad_link(messages: list[str], code: int = 400) -> tuple[str, int]:
    return render_template("error.html", code=code, message=" ".join(messages)), code
