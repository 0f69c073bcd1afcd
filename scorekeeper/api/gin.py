"""``/api/v1/gin/arrange`` and ``/api/v1/gin/settle``: the gin engine as JSON.

Layoffs name the knocker's meld by a **0-based** index into ``knocker.melds`` (the
declared melds, or the ``knocker.melds`` of the response when none were declared).
Explanations are English sentences.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ..hands.inputs import SettleArgs
from ..jsonbody import (
    ApiError,
    card_from_json,
    card_json,
    cards_from_json,
    cards_json,
    explanation_json,
    fail,
    meld_json,
    problems_at,
    rules_from_json,
)
from ..scoring.arrange import best_arrangement
from ..scoring.cards import Card, CardError
from ..scoring.errors import HandError
from ..scoring.layoffs import Layoff
from ..scoring.rules import Rules
from ..scoring.settle import HandResult, settle_gin_hand
from . import answers, bodies, bp

T = TypeVar("T")


@bp.post("/gin/arrange")
def arrange() -> answers.Arrangement:
    """The best melds and deadwood of 10 cards, or the best discard of 11."""
    body = bodies.read(bodies.ArrangeRequest)
    rules = rules_from_json(body.get("rules"))
    cards = cards_from_json(body.get("cards"), "cards")
    if len(cards) not in (10, 11):
        fail("cards", f"give 10 or 11 cards, not {len(cards)}")
    try:
        arrangement = best_arrangement(cards, rules)
    except CardError as exc:
        raise ApiError([("cards", message) for message in exc.problems]) from None
    out: answers.Arrangement = {
        "melds": [meld_json(m) for m in arrangement.melds],
        "deadwood": cards_json(arrangement.deadwood),
        "deadwood_points": arrangement.deadwood_points,
        "gin": arrangement.gin,
    }
    if len(cards) == 11:
        out["discard"] = card_json(arrangement.discard) if arrangement.discard else None
        out["big_gin"] = arrangement.big_gin
    return out


@bp.post("/gin/settle")
def settle() -> answers.SettledHand:
    """Score one hand from both players' cards, with optional declared melds and layoffs."""
    rules, inputs = settle_inputs(bodies.read(bodies.SettleRequest, settle_inputs))
    return result_json(settle_hand(rules, inputs))


def settle_hand(rules: Rules, inputs: SettleArgs) -> HandResult:
    """``settle_gin_hand`` on a body's inputs; its problems are the API's 422."""
    try:
        return settle_gin_hand(rules, **inputs)
    except HandError as exc:
        raise problems_at(exc.problems) from None


def settle_inputs(body: dict[str, Any]) -> tuple[Rules, SettleArgs]:
    """The rules and ``settle_gin_hand`` arguments of a ``/gin/settle`` body, its shape
    read by its type (``bodies.SettleRequest``): the rules and the cards are read here,
    every problem in them raised at once as ``ApiError``.

    ``bodies.read`` also reads a body its type refused, to name the problems of its
    other fields too: a part of the wrong shape is left to the type's problem."""
    problems: list[tuple[str, str]] = []
    rules = _collect(problems, lambda: rules_from_json(body.get("rules")))
    upcard = body.get("upcard")
    knocker, defender = body.get("knocker", {}), body.get("defender", {})
    knocker_cards = _collect(
        problems, lambda: cards_from_json(knocker.get("cards"), "knocker.cards"))
    defender_cards = _collect(
        problems, lambda: cards_from_json(defender.get("cards"), "defender.cards"))
    knocker_melds = _collect(problems, lambda: _melds(knocker.get("melds"), "knocker.melds"))
    defender_melds = _collect(problems, lambda: _melds(defender.get("melds"), "defender.melds"))
    layoffs = _collect(
        problems, lambda: _layoffs(defender.get("layoffs"), "defender.layoffs"))
    card = _collect(problems, lambda: None if upcard is None else card_from_json(upcard, "upcard"))
    if problems or rules is None or knocker_cards is None or defender_cards is None:
        raise ApiError(problems)
    return rules, {
        "knocker_cards": knocker_cards,
        "defender_cards": defender_cards,
        "knocker_melds": knocker_melds,
        "defender_melds": defender_melds,
        "layoffs": layoffs,
        "upcard": card,
    }


def _collect(problems: list[tuple[str, str]], read: Callable[[], T]) -> T | None:
    """``read()``, or ``None`` with its problems added: every mistake is reported at once.
    A part of the wrong shape (a body its type refused) adds none: the type named it."""
    try:
        return read()
    except ApiError as exc:
        problems.extend(exc.problems)
    except (LookupError, TypeError, AttributeError):
        pass
    return None


def _melds(value: list[Any] | None, where: str) -> list[list[Card]] | None:
    return None if value is None else _each(value, where, cards_from_json)


def _layoffs(value: list[Any] | None, where: str) -> list[Layoff] | None:
    return None if value is None else _each(value, where, _layoff)


def _layoff(value: dict[str, Any], where: str) -> Layoff:
    """A declared layoff: its card read here; its meld a 0-based index (by its type)."""
    return Layoff(card_from_json(value.get("card"), f"{where}.card"), value["meld"])


def _each(items: list[Any], where: str, read: Callable[[Any, str], T]) -> list[T]:
    """``read`` every item at ``where[i]``, reporting the problems of all of them."""
    problems: list[tuple[str, str]] = []
    out: list[T] = []
    for i, item in enumerate(items):
        try:
            out.append(read(item, f"{where}[{i}]"))
        except ApiError as exc:
            problems.extend(exc.problems)
    if problems:
        raise ApiError(problems)
    return out


def result_json(result: HandResult) -> answers.SettledHand:
    """A settled hand as the API returns it (also used by the games API)."""
    knocker, defender = result.knocker, result.defender
    return {
        "outcome": result.outcome.value,
        "winner": result.winner.value if result.winner is not None else None,
        "points": result.points,
        "knocker": {
            "melds": [meld_json(m) for m in knocker.melds],
            "deadwood": cards_json(knocker.deadwood),
            "deadwood_points": knocker.deadwood_points,
        },
        "defender": {
            "melds": [meld_json(m) for m in defender.melds],
            "layoffs": [
                {"card": card_json(lo.card), "meld": lo.meld} for lo in defender.layoffs
            ],
            "deadwood": cards_json(defender.deadwood),
            "deadwood_points": defender.deadwood_points,
        },
        "explanation": explanation_json(result.explanation),
    }
