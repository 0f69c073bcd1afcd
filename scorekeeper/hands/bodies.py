"""A hand's JSON body, as the API and a backup's import read it: pydantic types that
check a body's shape (which fields, their JSON types, lengths, ranges and choices) in
the API's own words, the pieces the API's other bodies (``api/bodies.py``) are made
of, and the reading of a body into the API's 422 problems.

The variants read a body of these shapes into a stored hand (``hands/stored.py``),
checking only what the shape cannot say (cards forming a legal deal, a seat of this
game); the OpenAPI document takes the bodies' schemas from these same types.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal, NotRequired, cast

from pydantic import (
    Field,
    PlainValidator,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
    WrapValidator,
)
from pydantic_core import PydanticCustomError
from pydantic_core.core_schema import ValidatorFunctionWrapHandler
from typing_extensions import TypedDict  # pydantic reads this one on Python 3.11

from ..jsonbody import MAX_CARD_ITEMS, MAX_CARD_TEXT, ApiError

Schema = dict[str, Any]

SEAT_MAX = 3  # a table has at most four seats
MAX_MELDS = 11  # /gin/settle: more melds than cards in a hand is never right
HAND_MELDS = 8  # a hand added to a game
DEAL_COMBINATIONS = 8  # a Remi deal added to a game
DEADWOOD_MAX = 100
QUICK_OUTCOMES = ("knock", "gin", "big_gin")
CARD_WORDS = 'must be a card as a string, like "7H" or "10♦"'


def refuse(message: str) -> PydanticCustomError:
    """A field's problem in the API's words."""
    return PydanticCustomError("refused", message)


SHARED_MARK = "x-shared"  # pydantic's own $ref is to its $defs: set by ``_plain``


def shared(name: str) -> WithJsonSchema:
    """A type the document names once, under ``components.schemas``."""
    return WithJsonSchema({SHARED_MARK: name})


def checked(check: Callable[[Any], Any], schema: Any) -> PlainValidator:
    """A value checked by ``check``; the document shows ``schema``'s JSON Schema."""
    return PlainValidator(check, json_schema_input_type=schema)


# --- plain values ---------------------------------------------------------------------


def whole(low: int | None = None, high: int | None = None, *,
          wrong: str = "must be a whole number") -> PlainValidator:
    """A whole JSON number (``2`` or ``2.0``: JSON Schema's integer; never ``true``)
    between ``low`` and ``high``."""
    def check(value: Any) -> int:
        value = integral(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise refuse(wrong)
        if (low is not None and value < low) or (high is not None and value > high):
            if high is None:
                raise refuse(f"must be {low} or more")
            raise refuse(f"must be between {low} and {high}")
        return value

    return checked(check, Annotated[int, Field(ge=low, le=high)])


def integral(value: Any) -> Any:
    """``2.0`` as ``2``: JSON has one kind of number, and JSON Schema counts a number with
    no fraction as an integer; anything else as it is."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def flag() -> PlainValidator:
    """``true`` or ``false``."""
    def check(value: Any) -> bool:
        if not isinstance(value, bool):
            raise refuse("must be true or false")
        return value

    return checked(check, bool)


def text(most: int | None = None, *, wrong: str = "must be a string",
         too_long: str | None = None, **schema: Any) -> PlainValidator:
    """A JSON string of at most ``most`` characters."""
    def check(value: Any) -> str:
        if not isinstance(value, str):
            raise refuse(wrong)
        if most is not None and len(value) > most:
            raise refuse(too_long or f"must be at most {most} characters")
        return value

    return checked(check, Annotated[str, Field(max_length=most, **schema)])


def choice(values: Sequence[str], wrong: str) -> PlainValidator:
    """One of ``values``."""
    def check(value: Any) -> str:
        if not isinstance(value, str) or value not in values:
            raise refuse(wrong)
        return value

    return checked(check, Literal[tuple(values)])


def listed(most: int, least: int = 0, *, wrong: str | None = None) -> WrapValidator:
    """A JSON array of ``least`` to ``most`` items, each checked by the list's item type."""
    def check(value: Any, items: ValidatorFunctionWrapHandler) -> Any:
        if not isinstance(value, list):
            raise refuse("must be a list")
        if len(value) > most:
            raise refuse(wrong or f"must have at most {most} items")
        if len(value) < least:
            raise refuse(wrong or f"must have at least {least} items")
        return items(value)

    return WrapValidator(check)


def within(most: int, least: int = 0) -> Any:
    """The document's side of ``listed``: how many items the array holds."""
    return Field(json_schema_extra={"maxItems": most, **({"minItems": least} if least else {})})


# --- cards --------------------------------------------------------------------------------


def _card(value: Any) -> str:
    if not isinstance(value, str):
        raise refuse(CARD_WORDS)
    if len(value) > MAX_CARD_TEXT:
        raise refuse("is too long to be cards")
    return value


CardText = Annotated[str, checked(_card, str)]
CARD_SCHEMA: Schema = {
    "type": "string",
    "description": "One card: rank (A, 2–10 or T, J, Q, K) then suit (S, H, D, C or "
    "♠ ♥ ♦ ♣), in any case.",
    "minLength": 1, "maxLength": MAX_CARD_TEXT, "examples": ["7H", "10♦", "q♠"],
}
Card = Annotated[str, checked(_card, str), shared("Card")]


def _cards(value: Any, items: ValidatorFunctionWrapHandler) -> Any:
    if isinstance(value, str):
        return _card(value)
    if not isinstance(value, list):
        raise refuse('must be cards: one string like "7H 8H 9H" or a list of strings')
    if len(value) > MAX_CARD_ITEMS:
        raise refuse(f"must have at most {MAX_CARD_ITEMS} items")
    return items(value)


Cards = Annotated[list[CardText], WrapValidator(_cards), shared("Cards")]
CARDS_SCHEMA: Schema = {
    "description": "Cards as one string (separated by spaces or commas) or as a list of "
    "strings, in any notation: rank then suit, in letters or symbols.",
    "oneOf": [
        {"type": "string", "maxLength": MAX_CARD_TEXT, "examples": ["7H 8H 9H"]},
        {"type": "array", "items": {"type": "string", "maxLength": MAX_CARD_TEXT},
         "maxItems": MAX_CARD_ITEMS, "examples": [["7H", "8H"]]},
    ],
}


# --- a hand and a deal ---------------------------------------------------------------------

Seat = Annotated[int, whole(0, SEAT_MAX)]


class Layoff(TypedDict):
    card: Card
    meld: Annotated[int, whole(0, MAX_MELDS - 1), Field(description="0-based index into the "
                                                   "knocker's melds.")]



Knocker = Annotated[
    int | str,
    checked(lambda value: value if value in ("box", "captain") else _seat(value),
            Seat | Literal["box", "captain"]),
    Field(description='Who went out: a seat; in three-hand gin a role, 0 or `"box"`, 1 or '
          '`"captain"`.'),
]


def _seat(value: Any) -> int:
    seat: int = SEAT_CHECK.func(value)  # type: ignore[call-arg]
    return seat


SEAT_CHECK = whole(0, SEAT_MAX)
Deadwood = Annotated[int, whole(0, DEADWOOD_MAX)]


class QuickHand(TypedDict):
    """A gin hand by its totals (gin, Oklahoma, Hollywood, three-hand): an undercut or a
    tie follows from the deadwood."""

    outcome: Annotated[str, choice(QUICK_OUTCOMES, "must be one of knock, gin, big_gin, dead")]
    knocker: Knocker
    knocker_deadwood: NotRequired[Annotated[Deadwood, Field(description="The knocker's "
                                                           "deadwood (default 0).")]]
    defender_deadwood: Annotated[Deadwood, Field(description="The defender's deadwood "
                                                 "after layoffs.")]
    upcard: NotRequired[Annotated[Card, Field(description="Oklahoma: the upcard.")]]


class DeadHand(TypedDict):
    """A hand nobody won: the stock ran out."""

    outcome: Annotated[str, choice(("dead",), "must be one of knock, gin, big_gin, dead")]
    upcard: NotRequired[Annotated[Card, Field(description="Oklahoma: the upcard.")]]


class SeatedKnocker(TypedDict):
    """The knocker's seat, cards and optionally declared melds."""

    seat: Annotated[Knocker, Field(description="Who knocked: a seat; in three-hand gin a "
                                   "role.")]
    cards: Cards
    melds: NotRequired[Annotated[list[Cards], listed(HAND_MELDS), within(HAND_MELDS),
                                 Field(description="Declared melds (optional).")]]


class HandDefender(TypedDict):
    """The defender's cards, and optionally their melds and layoffs."""

    cards: Cards
    melds: NotRequired[Annotated[list[Cards], listed(HAND_MELDS), within(HAND_MELDS),
                                 Field(description="Declared melds (optional).")]]
    layoffs: NotRequired[Annotated[list[Layoff], listed(MAX_MELDS), within(MAX_MELDS),
                                   Field(description="Declared layoffs (optional).")]]


class CardHand(TypedDict):
    """A gin hand by both players' cards, as `/gin/settle` takes them."""

    knocker: SeatedKnocker
    defender: HandDefender
    upcard: NotRequired[Annotated[Card, Field(description="Oklahoma: the upcard.")]]


class PartnershipDeal(TypedDict):
    """A partnership deal: the hands of both tables."""

    tables: Annotated[list[Any], listed(2, 2, wrong="a deal is two hands: seat 0's table, "
                                        "then seat 2's"),
                      Field(description="Seat 0's table, then seat 2's; the knocker is 0 or "
                            "1 within each table's pair.",
                            json_schema_extra={"minItems": 2, "maxItems": 2, "items": {
                                "anyOf": [{SHARED_MARK: "QuickHand"}, {SHARED_MARK: "DeadHand"},
                                          {SHARED_MARK: "CardHand"}]}})]


def _whole_or_none(value: Any) -> int | None:
    """A whole number, or null for none (a deal nobody went out of has no discard)."""
    if value is None:
        return None
    value = integral(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise refuse("must be a whole number")
    return value


WhoWentOut = Annotated[
    int | None,
    checked(lambda value: None if value is None else _seat(value), Seat | None),
    Field(description="Who went out; null: nobody."),
]


class RemiQuickEntry(TypedDict, total=False):
    plus: Annotated[int, whole(), Field(description="Points on the table (default 0).")]
    minus: Annotated[int, whole(), Field(description="Points left in hand (default 0).")]


class RemiQuickDeal(TypedDict):
    """A Remi deal by each player's plus and minus."""

    mode: NotRequired[Annotated[str, choice(("quick",), "must be quick or cards")]]
    went_out: NotRequired[WhoWentOut]
    discard_value: NotRequired[Annotated[int | None, checked(_whole_or_none, int | None),
                                         Field(description="The final discard's value: 5, "
                                               "10 or 15; null: none.")]]
    final_discard: NotRequired[Annotated[Card, Field(description="Or the final discard "
                                                     "itself.")]]
    players: Annotated[list[RemiQuickEntry], listed(4), within(4, 2),
                       Field(description="One entry per seat, in seat order.")]


class RemiCardEntry(TypedDict, total=False):
    table: Annotated[list[Cards], listed(DEAL_COMBINATIONS), within(DEAL_COMBINATIONS),
                     Field(description="Combinations on the table.")]
    hand: Annotated[Cards, Field(description="Cards left in hand.")]


class RemiCardDeal(TypedDict):
    """A Remi deal by each player's cards."""

    mode: NotRequired[Annotated[str, choice(("cards",), "must be quick or cards")]]
    went_out: NotRequired[WhoWentOut]
    final_discard: NotRequired[Annotated[Card, Field(description="The card they went "
                                                     "out with.")]]
    players: Annotated[list[RemiCardEntry], listed(4), within(4, 2),
                       Field(description="One entry per seat, in seat order.")]


# --- reading a body ---------------------------------------------------------------------

ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def adapter(shape: Any) -> TypeAdapter[Any]:
    """The pydantic reader of a body's ``shape``, made once."""
    if shape not in ADAPTERS:
        ADAPTERS[shape] = TypeAdapter(shape)
    return ADAPTERS[shape]


def problems(error: ValidationError) -> list[tuple[str, str]]:
    """Pydantic's errors as the API's (where, message) pairs."""
    found = []
    for item in error.errors(include_url=False):
        where = path(item["loc"])
        kind, ctx = item["type"], item.get("ctx") or {}
        if kind == "refused":
            message = item["msg"]
        elif kind == "missing":
            message = "this field is required"
        elif kind in ("dict_type", "model_type", "typed_dict_type"):
            message = "must be an object"
        elif kind == "list_type":
            message = "must be a list"
        elif kind == "literal_error":
            message = f"must be {ctx.get('expected', 'another value')}".replace("'", "")
        else:
            message = item["msg"]
        found.append((where, message))
    return found


def path(loc: Sequence[int | str]) -> str:
    """A field's path as the API writes it: ``defender.layoffs[1].meld``."""
    where = ""
    for part in loc:
        if isinstance(part, int):
            where += f"[{part}]"
        else:
            where += f".{part}" if where else str(part)
    return where or "request"


def check(body: dict[str, Any], shape: Any,
          also: Callable[[dict[str, Any]], object] | None = None) -> dict[str, Any]:
    """``body`` as read by its ``shape`` (a body's type, ``api/bodies.BODIES``): the
    fields it names, whole numbers as ``int``; otherwise ``ApiError``.

    ``also`` reads the body for the engine: when the shape is wrong, the engine's
    problems at other fields (a card that is none, an unknown preset) are named too, so
    that every mistake is reported at once."""
    try:
        read_body: dict[str, Any] = adapter(shape).validate_python(body)
    except ValidationError as exc:
        found = problems(exc)
        if also is not None:
            try:
                also(body)
            except ApiError as more:
                found = _together(found, more.problems, body)
        raise ApiError(found) from None
    # A field whose JSON name is a Python word (``from``) is read as ``from_``.
    return {key.removesuffix("_"): value for key, value in read_body.items()}


def _together(shape: list[tuple[str, str]], engine: Sequence[tuple[str, str]],
              body: Any = None) -> list[tuple[str, str]]:
    """The shape's problems and the engine's, in the engine's order (the body's); where
    both name a field, or one a field inside the other, the shape's are kept. A shape's
    problem at no field the engine named goes before the first of those that comes after
    it in ``body``."""
    def near(one: str, other: str) -> bool:
        return one == other or one.startswith((f"{other}.", f"{other}[")) or other.startswith(
            (f"{one}.", f"{one}["))

    out: list[tuple[str, str]] = []
    left = list(shape)
    for where, message in engine:
        mine = [problem for problem in left if near(problem[0], where)]
        if not mine and not any(near(w, where) for w, _ in shape):
            out.append((where, message))
        out += mine
        left = [problem for problem in left if problem not in mine]
    named = list(out)
    for problem in left:  # in the shape's order, each after those put before it
        at = _position(body, problem[0])
        after = next((p for p in named if _position(body, p[0]) > at), None)
        out.insert(len(out) if after is None else out.index(after), problem)
    return out


_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _position(body: Any, where: str) -> tuple[int, ...]:
    """Where the field ``where`` (``defender.layoffs[1].card``) is in ``body``: the place of
    each key in its object (a missing one after the others), each index in its list."""
    found: list[int] = []
    node = body
    for key, index in _PART.findall(where):
        if index:
            found.append(int(index))
            node = node[int(index)] if isinstance(node, list) and int(index) < len(node) else None
        elif isinstance(node, dict):
            keys = list(node)
            found.append(keys.index(key) if key in node else len(keys))
            node = node.get(key)
        else:
            found.append(0)
            node = None
    return tuple(found)


# --- a hand's body, by the game's variant -----------------------------------------------


def gin_hand_shape(body: Any) -> Any:
    """The shape of gin hand a body is: cards when its knocker is an object, a dead hand
    by its outcome, else quick totals."""
    if isinstance(body, dict) and isinstance(body.get("knocker"), dict):
        return CardHand
    if isinstance(body, dict) and body.get("outcome") == "dead":
        return DeadHand
    return QuickHand


def remi_deal_shape(body: dict[str, Any]) -> Any:
    """Quick totals or cards: as ``mode`` says, else quick when an entry has a plus or
    a minus."""
    mode = body.get("mode")
    if mode is None:
        entries = body.get("players")
        quick = isinstance(entries, list) and any(
            isinstance(e, dict) and ("plus" in e or "minus" in e) for e in entries)
        return RemiQuickDeal if quick else RemiCardDeal
    return RemiCardDeal if mode == "cards" else RemiQuickDeal


GinHandBody = QuickHand | DeadHand | CardHand
RemiDealBody = RemiQuickDeal | RemiCardDeal


class DealBody(TypedDict):
    """A partnership deal's body once read: each table's gin hand body."""

    tables: list[GinHandBody]


def check_gin_hand(body: dict[str, Any]) -> GinHandBody:
    """``body`` read as a gin hand of its shape (``gin_hand_shape``)."""
    return cast(GinHandBody, check(body, gin_hand_shape(body)))


def check_remi_deal(body: dict[str, Any]) -> RemiDealBody:
    """``body`` read as a Remi deal of its shape (``remi_deal_shape``)."""
    return cast(RemiDealBody, check(body, remi_deal_shape(body)))


def check_deal(body: dict[str, Any]) -> DealBody:
    """``body`` read as a partnership deal: two tables, each a gin hand of its shape."""
    check(body, PartnershipDeal)
    found: list[tuple[str, str]] = []
    tables = []
    for i, table in enumerate(body["tables"]):
        if not isinstance(table, dict):
            found.append((f"tables[{i}]", "must be an object"))
            continue
        try:
            tables.append(check_gin_hand(table))
        except ApiError as exc:
            found.extend((f"tables[{i}].{where}", message) for where, message in exc.problems)
    if found:
        raise ApiError(found)
    return {"tables": tables}


def check_hand(variant: str, body: dict[str, Any]) -> GinHandBody | DealBody | RemiDealBody:
    """``body`` as read by the shape of a hand (a deal) of the ``variant``'s games."""
    if variant == "remi":
        return check_remi_deal(body)
    if variant == "partnership":
        return check_deal(body)
    return check_gin_hand(body)
