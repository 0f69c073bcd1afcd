"""``/api/v1/remi/settle``: one Indonesian Remi deal scored as JSON (/rules/remi).

Rules default to the ``remi`` preset (also when an object of settings names no
preset). ``where`` paths index lists in brackets: ``players[1].table[0]``.
Explanations are English sentences.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from ..jsonbody import (
    ApiError,
    card_from_json,
    cards_from_json,
    cards_json,
    explanation_json,
    rules_from_json,
)
from ..scoring.cards import Card
from ..scoring.remi import (
    RemiError,
    RemiPlayerInput,
    RemiPlayerResult,
    RemiResult,
    settle_remi_deal,
)
from ..scoring.rules import Rules
from . import answers, bodies, bp

MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_COMBINATIONS = 16  # more than one player ever holds cards
MAX_NAME = 40

T = TypeVar("T")
Problems = list[tuple[str, str]]


@bp.post("/remi/settle")
def remi_settle() -> answers.RemiDeal:
    """Score one Remi deal from every player's table combinations, hand and final discard."""
    rules, players = remi_inputs(bodies.read(bodies.RemiSettleRequest, remi_inputs))
    result = settle_deal(rules, players)
    return {
        "players": [_player_json(player) for player in result.players],
        "explanation": explanation_json(result.explanation),
    }


def remi_inputs(body: dict[str, Any]) -> tuple[Rules, list[RemiPlayerInput]]:
    """The rules and players of a ``/remi/settle`` body, its shape read by its type
    (``bodies.RemiSettleRequest``): the rules and the cards are read here, every problem
    raised at once."""
    problems: Problems = []
    rules = _collect(problems, lambda: _rules(body.get("rules")))
    players = _collect(problems, lambda: _players(body.get("players", [])))
    if problems or rules is None or players is None:
        raise ApiError(problems)
    return rules, players


def settle_deal(rules: Rules, players: list[RemiPlayerInput]) -> RemiResult:
    """``settle_remi_deal``; its problems are the API's 422 at the body's paths."""
    try:
        return settle_remi_deal(rules, players)
    except RemiError as exc:
        raise ApiError([(_bracketed(where), message) for where, message in exc.problems]) from None


def _collect(problems: Problems, read: Callable[[], T]) -> T | None:
    """``read()``, or ``None`` with its problems added: every mistake is reported at once.
    A part of the wrong shape (a body its type refused) adds none: the type named it."""
    try:
        return read()
    except ApiError as exc:
        problems.extend(exc.problems)
    except (LookupError, TypeError, AttributeError):
        pass
    return None


def _rules(value: Any) -> Rules:
    if value is None:
        value = "remi"
    elif isinstance(value, dict) and "preset" not in value:
        value = {"preset": "remi", **value}
    return rules_from_json(value)


def _players(entries: list[dict[str, Any]]) -> list[RemiPlayerInput]:
    problems: Problems = []
    players = [
        _collect(problems, partial(_player, entry, f"players[{i}]"))
        for i, entry in enumerate(entries)
    ]
    if problems:
        raise ApiError(problems)
    return [player for player in players if player is not None]


def _player(entry: dict[str, Any], at: str) -> RemiPlayerInput:
    problems: Problems = []
    table = _collect(problems, lambda: _table(entry.get("table"), f"{at}.table"))
    hand = _collect(problems, lambda: _hand(entry.get("hand"), f"{at}.hand"))
    discard = entry.get("final_discard")
    final = _collect(
        problems,
        lambda: None if discard is None else card_from_json(discard, f"{at}.final_discard"),
    )
    if problems or table is None or hand is None:
        raise ApiError(problems)
    return RemiPlayerInput(entry["name"], table, hand, entry.get("went_out", False), final)


def _table(groups: list[Any] | None, at: str) -> list[list[Card]]:
    if groups is None:
        return []
    problems: Problems = []
    table = [
        _collect(problems, partial(cards_from_json, group, f"{at}[{j}]"))
        for j, group in enumerate(groups)
    ]
    if problems:
        raise ApiError(problems)
    return [group for group in table if group is not None]


def _hand(value: Any, at: str) -> list[Card]:
    return [] if value is None else cards_from_json(value, at)


_SEAT = re.compile(r"\.(\d+)(?=\.|$)")


def _bracketed(where: str) -> str:
    """The engine's ``players.1.table.0`` as the API writes it, ``players[1].table[0]``."""
    return _SEAT.sub(r"[\1]", where)


def _player_json(player: RemiPlayerResult) -> answers.RemiPlayerResult:
    return {
        "name": player.name,
        "combinations": [cards_json(c.cards) for c in player.combinations],
        "unmatched": cards_json(player.unmatched),
        "points": player.points,
        "plus": player.plus,
        "minus": player.minus,
        "closing_bonus": player.closing_bonus,
    }
