"""Rule card pages and their print: thin views over ``content``."""

from __future__ import annotations

from flask import abort, render_template, request
from sqlalchemy import select
from werkzeug.wrappers import Response

from ..db import get_session, release_session
from ..models import Game, Group
from ..printing.options import PAPER, SheetOptions, problems
from ..printing.render import pdf_response, render_pdf
from ..rulebook.content import CARDS, RuleCard, game_card, preset_card, title_of
from ..scoring.rules import Rules
from ..services.games import load
from . import bp


def _card(name: str) -> RuleCard:
    if name not in CARDS:
        abort(404)
    return preset_card(name)


def _game_card(game_id: str) -> tuple[RuleCard, object]:
    game, variant = load(game_id)
    return game_card(variant.name, Rules.from_dict(game.rules)), game


def _paper() -> str | tuple[str, int]:
    options = SheetOptions(request.args)
    if not options.validate():
        message = " ".join(problems(options))
        return render_template("error.html", code=400, message=message), 400
    return PAPER[options.size.data]


@bp.get("/rules")
def index() -> str:
    """Every rule card: the presets of gin and the other kinds of game."""
    return render_template("rulecards/index.html",
                           cards=[(name, title_of(name)) for name in CARDS])


@bp.get("/rules/<name>")
def card(name: str) -> str:
    """One preset's or kind of game's rules, each with its anchor and a worked example."""
    return render_template("rulecards/card.html", card=_card(name), game=None)


@bp.get("/rules/<name>.pdf")
def card_pdf(name: str) -> Response | tuple[str, int]:
    """The rule card on one page (``?size=a4|letter``), to lay on the table."""
    rule_card = _card(name)
    paper = _paper()
    if isinstance(paper, tuple):
        return paper
    body = render_pdf("rulecards/pdf/rule_card.html", card=rule_card, game=None, paper=paper)
    return pdf_response(body, f"rules-{name}.pdf")


@bp.get("/g/<game_id>/rules")
def game_rules(game_id: str) -> str:
    """A game's frozen rules, marking where they differ from the preset."""
    rule_card, game = _game_card(game_id)
    return render_template("rulecards/card.html", card=rule_card, game=game)


@bp.get("/g/<game_id>/rules.pdf")
def game_rules_pdf(game_id: str) -> Response | tuple[str, int]:
    """A game's own rule card on one page (``?size=a4|letter``)."""
    rule_card, game = _game_card(game_id)
    paper = _paper()
    if isinstance(paper, tuple):
        return paper
    release_session()
    body = render_pdf("rulecards/pdf/rule_card.html", card=rule_card, game=game, paper=paper)
    return pdf_response(body, f"rules-{game_id[:8]}.pdf")


@bp.get("/groups/<group_id>/rules")
def group_rules(group_id: str) -> str:
    """A group's usual rules: those its latest game was played with, shown like a game's."""
    db = get_session()
    group = db.get(Group, group_id)
    if group is None:
        abort(404)
    latest = db.scalars(
        select(Game).where(Game.group_id == group.id)
        .order_by(Game.created_at.desc(), Game.id).limit(1)
    ).first()
    if latest is None:
        return render_template("rulecards/group.html", group=group, card=None, game=None)
    rule_card, game = _game_card(latest.id)
    return render_template("rulecards/group.html", group=group, card=rule_card, game=game)
