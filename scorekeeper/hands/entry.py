"""From a hand form to stored inputs, and back, with the engine's problems at the fields."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import cast

from flask_babel import gettext as _
from flask_wtf import FlaskForm
from wtforms import SelectChoice

from ..i18n import render_message
from ..scoring import Card, Problem
from .fields import QuickHandForm
from .inputs import SettleArgs, canonical_cards
from .stored import CardsGinHand, DeadHand, GinHand, QuickGinHand, cards_hand, dead_hand, quick_hand


def seat_choices(players: Iterable[str]) -> list[SelectChoice]:
    """Radio choices naming each player by seat."""
    return [SelectChoice(str(i), name) for i, name in enumerate(players)]


def quick_inputs(form: QuickHandForm) -> QuickGinHand | DeadHand | None:
    """Stored inputs from a quick form, or ``None`` after marking what is missing."""
    outcome = form.outcome.data
    if outcome == "dead":
        return dead_hand(_upcard(form))
    missing = False
    if form.knocker.data in (None, "", "None"):
        form.knocker.errors = [_("Choose who went out.")]
        missing = True
    defender = form.defender_deadwood.data
    if defender is None and not form.defender_deadwood.errors:
        form.defender_deadwood.errors = [_("Enter the defender's deadwood after layoffs.")]
        missing = True
    if (
        outcome == "knock"
        and form.knocker_deadwood.data is None
        and not form.knocker_deadwood.errors
    ):
        form.knocker_deadwood.errors = [_("Enter the knocker's deadwood.")]
        missing = True
    if missing or defender is None:
        return None
    return quick_hand(
        outcome,
        int(form.knocker.data),
        form.knocker_deadwood.data or 0,
        defender,
        _upcard(form),
    )


def _upcard(form: QuickHandForm) -> str | None:
    """The upcard as stored (``7S``), checked to be one card by its field."""
    return str(form.upcard.card) if form.upcard.card is not None else None


def fill_quick(form: QuickHandForm, inputs: GinHand) -> None:
    """Prefill a quick form from stored inputs (editing a hand)."""
    knocker = inputs.get("knocker")
    form.knocker.data = str(knocker) if knocker is not None else None
    if inputs.get("mode") == "cards":
        form.outcome.data = "knock"
        form.knocker_deadwood.data = form.defender_deadwood.data = None
    else:
        quick = cast(QuickGinHand | DeadHand, inputs)
        form.outcome.data = quick.get("outcome") or "knock"
        form.knocker_deadwood.data = quick.get("knocker_deadwood")
        form.defender_deadwood.data = quick.get("defender_deadwood")
    form.upcard.data = inputs.get("upcard") or ""


def fill_cards(form: FlaskForm, inputs: GinHand) -> None:
    """Prefill a card form from stored inputs (a quick hand starts with empty cards)."""
    knocker = inputs.get("knocker")
    form.knocker.data = str(knocker) if knocker is not None else None
    if inputs.get("mode") != "cards":
        return
    cards = cast(CardsGinHand, inputs)
    form.knocker_cards.data = " ".join(cards.get("knocker_cards") or [])
    form.defender_cards.data = " ".join(cards.get("defender_cards") or [])
    form.knocker_melds.data = "\n".join(" ".join(m) for m in cards.get("knocker_melds") or [])
    form.defender_melds.data = "\n".join(" ".join(m) for m in cards.get("defender_melds") or [])
    form.layoffs.data = " ".join(
        f"{lay['card']}>{int(lay['meld']) + 1}" for lay in cards.get("layoffs") or []
    )
    form.upcard.data = cards.get("upcard") or ""


def card_inputs(knocker: int, kwargs: SettleArgs) -> CardsGinHand:
    """Stored inputs from the engine arguments a card form produced."""

    def melds(value: list[list[Card]] | None) -> list[list[str]] | None:
        return None if value is None else [canonical_cards(m) for m in value]

    layoffs = kwargs.get("layoffs")
    upcard = kwargs.get("upcard")
    return cards_hand(
        knocker,
        canonical_cards(kwargs["knocker_cards"]),
        melds(kwargs.get("knocker_melds")),
        canonical_cards(kwargs["defender_cards"]),
        melds(kwargs.get("defender_melds")),
        None if layoffs is None else [{"card": str(lay.card), "meld": lay.meld} for lay in layoffs],
        str(upcard) if upcard is not None else None,
    )


def show_problems(
    form: FlaskForm, problems: Iterable[Problem | tuple[str, object]], fields: Mapping[str, str]
) -> None:
    """Put each engine problem at the field its ``where`` names (else at the form)."""
    form_errors: list[str] = list(getattr(form, "form_errors", []))
    for problem in problems:
        where, message = _where_message(problem)
        name = fields.get(where) or fields.get(where.split(".")[0])
        field = getattr(form, name, None) if name else None
        if field is not None:
            field.errors = [*list(field.errors), message]
        else:
            form_errors.append(message)
    form.form_errors = form_errors


def _where_message(problem: Problem | tuple[str, object]) -> tuple[str, str]:
    if isinstance(problem, tuple):
        return str(problem[0]), render_message(problem[1])
    return str(problem.where), render_message(problem.message)


QUICK_FIELDS = {
    "knocker_deadwood": "knocker_deadwood",
    "defender_deadwood": "defender_deadwood",
    "outcome": "outcome",
    "upcard": "upcard",
    "knocker": "knocker_deadwood",
}
