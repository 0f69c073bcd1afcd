"""Reading JSON API bodies: the request's object, cards and rules, and the 422 errors.

Every problem is reported as ``{"where": "<field path>", "message": "..."}``; bodies
that are not JSON, have the wrong shape or hold wrongly typed values are a 422, never a
500. ``where`` is a dotted path into the request body (``defender.layoffs[1].meld``).
The API blueprint (``api/__init__.py``) turns an ``ApiError`` into that answer; the
variants raise it when they read a hand's body, so it lives below both.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, NoReturn

from flask import request
from pydantic import Field
from typing_extensions import TypedDict  # pydantic reads this one on Python 3.11

from .scoring.cards import Card, CardError, parse_cards
from .scoring.explain import Step
from .scoring.melds import Meld
from .scoring.rules import Rules, RulesError, rules_from_spec

# More strings than any deal holds (a string may carry several cards): refuse early.
MAX_CARD_ITEMS = 60
MAX_CARD_TEXT = 400


class ApiError(Exception):
    """A request the API refuses: ``problems`` are (where, message) pairs."""

    def __init__(self, problems: Sequence[tuple[str, str]], status: int = 422) -> None:
        self.problems = list(problems)
        self.status = status
        super().__init__("; ".join(f"{where}: {message}" for where, message in self.problems))


def fail(where: str, message: str) -> NoReturn:
    """Refuse the request with one problem at ``where``."""
    raise ApiError([(where, message)])


def _reject_constant(name: str) -> NoReturn:
    """``NaN`` and ``Infinity`` are not JSON: the body is refused."""
    raise ValueError(f"{name} is not allowed in JSON")


def json_object() -> dict[str, Any]:
    """The request's JSON body, which must be an object; otherwise ``ApiError``."""
    if not request.is_json:
        fail("request", "send a JSON body with Content-Type: application/json")
    data = request.get_data(cache=True)
    try:  # bytes in UTF-8, -16 or -32, as ``json.loads`` reads them
        text = data.decode(json.detect_encoding(data), "surrogatepass")
        body = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError included
        fail("request", "the body is not valid JSON")
    if not isinstance(body, dict):
        fail("request", "the body must be a JSON object")
    if _may_hold_surrogates(text):
        _refuse_what_is_not_text(body, "")
    return body


# A lone surrogate comes either as itself (bytes passed through "surrogatepass") or
# as an escape \uD800-\uDFFF; a body with neither holds none, and is not walked.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _may_hold_surrogates(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return _SURROGATE_ESCAPE.search(text) is not None


def _refuse_what_is_not_text(value: Any, where: str) -> None:
    """Refuse (422, at its field) a string that is not valid Unicode: a lone
    surrogate cannot be stored (UTF-8 has no bytes for it, PostgreSQL refuses it)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            point = next(ord(ch) for ch in value if 0xD800 <= ord(ch) <= 0xDFFF)
            fail(where or "request", f"is not valid Unicode text (a lone U+{point:04X})")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _refuse_what_is_not_text(item, f"{where}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            at = f"{where}.{key}" if where else str(key)
            _refuse_what_is_not_text(key, where)
            _refuse_what_is_not_text(item, at)


def list_at(value: Any, where: str, *, limit: int = MAX_CARD_ITEMS) -> list[Any]:
    """``value`` as a JSON array of at most ``limit`` items."""
    if not isinstance(value, list):
        fail(where, "must be a list")
    if len(value) > limit:
        fail(where, f"must have at most {limit} items")
    return value


def cards_from_json(value: Any, where: str) -> list[Card]:
    """Cards from one string or a list of strings, in any notation: rank then suit, in
    letters or symbols."""
    if value is None:
        fail(where, "this field is required")
    if not isinstance(value, str | list):
        fail(where, 'must be cards: one string like "7H 8H 9H" or a list of strings')
    pieces = [value] if isinstance(value, str) else list_at(value, where)
    problems: list[tuple[str, str]] = []
    for i, piece in enumerate(pieces):
        at = where if isinstance(value, str) else f"{where}[{i}]"
        if not isinstance(piece, str):
            problems.append((at, 'must be a card as a string, like "7H" or "10♦"'))
        elif len(piece) > MAX_CARD_TEXT:
            problems.append((at, "is too long to be cards"))
    if problems:
        raise ApiError(problems)
    try:
        return parse_cards(pieces)
    except CardError as exc:
        raise ApiError([(where, message) for message in exc.problems]) from None


def card_from_json(value: Any, where: str) -> Card:
    """Exactly one card, as a string."""
    if not isinstance(value, str):
        fail(where, 'must be a card as a string, like "7H" or "10♦"')
    cards = cards_from_json(value, where)
    if len(cards) != 1:
        fail(where, "must be exactly one card")
    return cards[0]


def index_from_json(value: Any, where: str, count: int) -> int:
    """A 0-based index into a list of ``count`` items."""
    if isinstance(value, bool) or not isinstance(value, int):
        fail(where, "must be a whole number")
    if not 0 <= value < count:
        if count == 0:
            fail(where, "there is nothing to refer to")
        fail(where, f"must be between 0 and {count - 1}")
    return value


def rules_from_json(value: Any, where: str = "rules") -> Rules:
    """Rules from a preset name or ``{"preset": name, "<setting>": value}`` (missing: classic)."""
    if value is not None and not isinstance(value, str | dict):
        fail(where, "must be a preset name or an object of settings")
    try:
        return rules_from_spec(value)
    except RulesError as exc:
        problems = exc.problems
    if isinstance(value, str):  # the name itself is wrong: point at "rules", not inside it
        raise ApiError([(where, message) for _, message in problems]) from None
    raise ApiError([(_inside(where, at), message) for at, message in problems]) from None


def _inside(where: str, at: str) -> str:
    return where if at == where else f"{where}.{at}"


CanonicalCard = Annotated[str, Field(
    pattern="^[A2-9TJQK][SHDC]$", examples=["TD"],
    description="A card in canonical notation: rank then suit, `T` for ten.")]


class ExplanationStep(TypedDict):
    """One step of a scoring explanation."""

    text: Annotated[str, Field(description="One step of the scoring, as an English sentence.")]
    rule: Annotated[str, Field(description="The rule it applied: an anchor of the rule cards, "
                               "as in `/rules/russian#undercut` (empty for a step that applies "
                               "none).")]


Explanation = Annotated[list[ExplanationStep], Field(
    description="The scoring step by step, each step with the rule it applied.")]


def card_json(card: Card) -> str:
    """A card in canonical notation (``TD``)."""
    return str(card)


def cards_json(cards: Sequence[Card]) -> list[CanonicalCard]:
    """Cards in canonical notation."""
    return [str(card) for card in cards]


def explanation_json(steps: Iterable[Step]) -> list[ExplanationStep]:
    """An explanation as the API gives it: each step's English sentence and the anchor of
    the rule it applied (``/rules/<card>#<rule>``)."""
    return [{"text": str(step), "rule": step.rule} for step in steps]


def meld_json(meld: Meld) -> list[CanonicalCard]:
    """A meld as its cards in canonical notation."""
    return cards_json(meld.cards)


def problems_at(problems: Sequence[Any], prefix: Mapping[str, str] | None = None) -> ApiError:
    """An ``ApiError`` from engine problems: (where, message) tuples or ``.where/.message``."""
    pairs: list[tuple[str, str]] = []
    for problem in problems:
        where, message = (
            (problem.where, problem.message) if hasattr(problem, "where") else problem
        )
        pairs.append(((prefix or {}).get(where, where), str(message)))
    return ApiError(pairs)
