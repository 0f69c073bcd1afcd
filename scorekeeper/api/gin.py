"""``/api/v1/gin/arrange`` and ``/api/v1/gin/settle``: the gin engine as JSON.

Layoffs name the knocker's meld by a **0-based** index into ``knocker.melds`` (the
declared melds, or the ``knocker.melds`` of the response when none were declared).
Explanations are English sentences.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ..jsonbody import (
    ApiError,
    card_from_json,
    card_json,
    cards_from_json,
    cards_json,
    explanation_json,
    fail,
    index_from_json,
    list_at,
    meld_json,
    object_at,
    problems_at,
    rules_from_json,
)
from ..scoring.arrange import best_arrangement
from ..scoring.cards import Card, CardError
from ..scoring.errors import HandError
from ..scoring.layoffs import Layoff
from ..scoring.rules import Rules
from ..scoring.settle import HandResult, settle_gin_hand
from . import bodies, bp

T = TypeVar("T")

MAX_MELDS = 11  # more melds than cards in a hand is never right


@bp.post("/gin/arrange")
def arrange() -> dict[str, Any]:
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
    out: dict[str, Any] = {
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
def settle() -> dict[str, Any]:
    """Score one hand from both players' cards, with optional declared melds and layoffs."""
    rules, inputs = settle_inputs(bodies.read(bodies.SettleRequest, settle_inputs))
    return result_json(settle_hand(rules, inputs))


def settle_hand(rules: Rules, inputs: dict[str, Any]) -> HandResult:
    """``settle_gin_hand`` on a body's inputs; its problems are the API's 422."""
    try:
        return settle_gin_hand(rules, **inputs)
    except HandError as exc:
        raise problems_at(exc.problems) from None


def settle_inputs(body: dict[str, Any]) -> tuple[Rules, dict[str, Any]]:
    """The rules and ``settle_gin_hand`` arguments of a ``/gin/settle`` body; every
    problem in it is raised at once as ``ApiError``."""
    problems: list[tuple[str, str]] = []
    rules = _collect(problems, lambda: rules_from_json(body.get("rules")))
    knocker = _collect(problems, lambda: object_at(body.get("knocker"), "knocker")) or {}
    defender = _collect(problems, lambda: object_at(body.get("defender"), "defender")) or {}
    upcard = body.get("upcard")
    inputs: dict[str, Any] = {
        "knocker_cards": _collect(
            problems, lambda: cards_from_json(knocker.get("cards"), "knocker.cards")
        ),
        "defender_cards": _collect(
            problems, lambda: cards_from_json(defender.get("cards"), "defender.cards")
        ),
        "knocker_melds": _collect(
            problems, lambda: _melds(knocker.get("melds"), "knocker.melds")
        ),
        "defender_melds": _collect(
            problems, lambda: _melds(defender.get("melds"), "defender.melds")
        ),
        "layoffs": _collect(
            problems, lambda: _layoffs(defender.get("layoffs"), "defender.layoffs")
        ),
        "upcard": _collect(
            problems, lambda: None if upcard is None else card_from_json(upcard, "upcard")
        ),
    }
    if problems or rules is None:
        raise ApiError(problems)
    return rules, inputs


def _collect(problems: list[tuple[str, str]], read: Callable[[], T]) -> T | None:
    """``read()``, or ``None`` with its problems added: every mistake is reported at once."""
    try:
        return read()
    except ApiError as exc:
        problems.extend(exc.problems)
        return None


def _melds(value: Any, where: str) -> list[list[Card]] | None:
    if value is None:
        return None
    melds = list_at(value, where, limit=MAX_MELDS)
    return _each(melds, where, cards_from_json)


def _layoffs(value: Any, where: str) -> list[Layoff] | None:
    if value is None:
        return None
    return _each(list_at(value, where, limit=MAX_MELDS), where, _layoff)


def _layoff(value: Any, where: str) -> Layoff:
    item = object_at(value, where)
    problems: list[tuple[str, str]] = []
    card = _collect(problems, lambda: card_from_json(item.get("card"), f"{where}.card"))
    meld = _collect(
        problems, lambda: index_from_json(item.get("meld"), f"{where}.meld", MAX_MELDS)
    )
    if problems or card is None or meld is None:
        raise ApiError(problems)
    return Layoff(card, meld)


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


def result_json(result: HandResult) -> dict[str, Any]:
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
