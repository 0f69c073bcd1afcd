"""Keeping a ruling from ``/check`` or ``/remi/check``, and reading and printing one
(never changing it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import abort, make_response, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from markupsafe import Markup
from werkzeug.wrappers import Response

from .. import limits
from ..charts import qr
from ..db import get_session, release_session
from ..hands.check_form import CheckForm
from ..hands.fields import show_html
from ..hands.remi_check_form import RemiCheckForm
from ..i18n import written
from ..lan import phone_url
from ..models import Ruling
from ..printing.options import PAPER, SheetOptions, problems
from ..printing.render import pdf_response, render_pdf
from ..rulebook.content import card_name_for, preset_card
from ..scoring.cards import Card
from ..scoring.explain import Step
from ..scoring.rules import Rules
from ..services.rulings import (
    KeptCards,
    KeptGroups,
    about,
    hand_about,
    keep_gin,
    keep_remi,
    plain_step,
    rule_anchor,
    step_from_json,
)
from . import bp


def _gin() -> tuple[CheckForm, Ruling | None]:
    form = CheckForm()
    rules = form.rules() if form.validate_on_submit() else None
    result = form.settle() if rules is not None else None
    if rules is None or result is None:
        return form, None
    return form, keep_gin(rules, form.engine_kwargs(), result)


def _remi() -> tuple[RemiCheckForm, Ruling | None]:
    form = RemiCheckForm()
    result = form.settle() if form.validate_on_submit() else None
    if result is None:
        return form, None
    return form, keep_remi(form.deal_rules(), form.deal(), result)


# What each page's "Keep this ruling" posts (its ``kind``): how its form is settled
# again, and the page that shows the form back when it is refused.
_KEEPERS: dict[str, tuple[Callable[[], tuple[FlaskForm, Ruling | None]], str]] = {
    "gin": (_gin, "checker/check.html"),
    "remi": (_remi, "remi/check.html"),
}


@bp.post("/rulings")
@limits.rulings
def keep() -> Response | tuple[str, int]:
    """Keep what ``/check`` or ``/remi/check`` settled: score it again from the form it
    posted and store it; a form it refuses comes back as typed, with its problems. A
    checker opened from a game's hand posts the game and hand too: the ruling is kept
    as that hand's (linked from the game's sheet and its night)."""
    settle, template = _KEEPERS.get(request.form.get("kind", "gin"), _KEEPERS["gin"])
    db = get_session()
    found = hand_about(db, request.form.get("game"), request.form.get("hand"))
    form, ruling = settle()
    if ruling is None:
        return render_template(template, form=form, result=None, about=found), 422
    about(ruling, found)
    db.add(ruling)
    db.commit()
    return redirect(url_for("rulings.page", ruling_id=ruling.id), code=303)


def _load(ruling_id: str) -> Ruling:
    ruling = get_session().get(Ruling, ruling_id)
    if ruling is None:
        abort(404)
    return ruling


def _link(ruling: Ruling) -> str:
    """The ruling's link as another phone at the table opens it."""
    return phone_url(url_for("rulings.page", ruling_id=ruling.id, _external=True))


def _context(ruling: Ruling) -> dict[str, object]:
    rules = Rules.from_dict(ruling.rules)
    kind = "remi" if ruling.kind == "remi" else ("oklahoma" if rules.oklahoma else "gin")
    url = _link(ruling)
    card = preset_card(card_name_for(kind, rules))
    anchor = rule_anchor(ruling)
    return {
        "ruling": ruling,
        "rules": rules,
        "sheet": {"rules": rules},
        "steps": [step_from_json(step) for step in ruling.verdict["explanation"]],
        "card": card,
        "anchor": anchor,
        "rule_title": next((rule.title for rule in card.items if rule.anchor == anchor), ""),
        "url": url,
        "qr_svg": Markup(qr.svg(url).decode()),
        "say_step": _say_step,
    }


def _say_step(step: Step) -> Markup:
    """A step for print: WeasyPrint follows ``dir`` but not the isolating characters, so
    every group of cards is an element of its own, left to right in a Persian line, and
    so is every sum ("50 − 0 + 150 = 200")."""

    def show(value: Any) -> Markup:
        if isinstance(value, KeptGroups):
            return Markup(" · ").join(show(group) for group in value.groups)
        if isinstance(value, Card | KeptCards):
            return Markup('<span dir="ltr">{}</span>').format(show_html(value))
        return show_html(value)

    return written(plain_step(step), show)


@bp.get("/rulings/<ruling_id>")
def page(ruling_id: str) -> str:
    """A kept ruling, read-only: the hands, the rules, the verdict and its steps."""
    return render_template("rulings/ruling.html", **_context(_load(ruling_id)))


@bp.get("/rulings/<ruling_id>.pdf")
def pdf(ruling_id: str) -> Response | tuple[str, int]:
    """A kept ruling printed (``?size=a4|letter``)."""
    ruling = _load(ruling_id)
    options = SheetOptions(request.args)
    if not options.validate():
        return render_template("error.html", code=400, message=" ".join(problems(options))), 400
    context = _context(ruling)
    release_session()
    body = render_pdf("rulings/pdf/ruling.html", paper=PAPER[options.size.data], **context)
    return pdf_response(body, f"ruling-{ruling.id[:8]}.pdf")


@bp.get("/rulings/<ruling_id>/qr.svg")
def qr_code(ruling_id: str) -> Response:
    """The ruling's link as a QR code, for the other phone."""
    response = make_response(qr.svg(_link(_load(ruling_id))))
    response.mimetype = "image/svg+xml"
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response
