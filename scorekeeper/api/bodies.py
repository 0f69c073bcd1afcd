"""The JSON API's request bodies, each described once: a pydantic type that checks a
body's shape (which fields, their JSON types, lengths, ranges and choices) and from
which the OpenAPI document (``api/openapi.py``) takes that body's schema.

Pydantic's own JSON Schema (``TypeAdapter.json_schema``) feeds a document assembled in
code, rather than a framework (flask-openapi3, spectree) that would take the routes
over: the views stay Flask views, the answers keep their ``{"errors": [...]}`` shape,
and the engine's checks (cards dealt, melds valid, a seat of this game) stay where
they are, after the shape. The bodies are ``TypedDict`` types: a field left out is
absent (never ``null`` unless the field says so), as the readers behind them expect.

A field's check raises the API's own message (``"must be a whole number"``); pydantic's
errors of structure (a missing field, a list too long) are worded the same way by
``problems``. ``where`` is the field's path, ``defender.layoffs[1].meld``.

A hand's bodies, the pieces every body is made of (a card, a whole number, a list) and
the reading itself (``check``) live in ``hands/bodies.py``, below the variants, which
read a hand's body through them (the API's and a backup's alike).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, Field, PlainValidator, TypeAdapter, WithJsonSchema, WrapValidator
from pydantic.json_schema import JsonSchemaMode
from pydantic_core.core_schema import ValidatorFunctionWrapHandler
from typing_extensions import TypedDict  # pydantic reads this one on Python 3.11

# A hand's bodies and the pieces every body is made of (``hands/bodies.py``).
from ..hands.bodies import (
    CARD_SCHEMA,
    CARDS_SCHEMA,
    MAX_MELDS,
    SEAT_MAX,
    SHARED_MARK,
    Card,
    CardHand,
    Cards,
    DeadHand,
    Layoff,
    PartnershipDeal,
    QuickHand,
    RemiCardDeal,
    RemiQuickDeal,
    adapter,
    checked,
    choice,
    flag,
    integral,
    listed,
    refuse,
    shared,
    text,
    whole,
    within,
)
from ..hands.bodies import check as check  # the API's other bodies are read with it too
from ..hands.bodies import check_hand as check_hand  # a hand's body, by its game's kind
from ..jsonbody import json_object
from ..limits import ROSTER_MAX
from ..names import GROUP_NAME_MAX, NAME_MAX
from ..scoring.rules import PRESETS, RANGES, NextDealer, OklahomaAce, Shutout
from ..scoring.stakes import StakeError, parse_stake
from ..variants import VARIANTS

Schema = dict[str, Any]

MAX_COMBINATIONS = 16  # /remi/settle: more than one player ever holds
TOKEN_PATTERN = "^[A-Za-z0-9_-]{1,64}$"


# --- cards, rules, money ----------------------------------------------------------------


def _rules(value: Any) -> Any:
    """A preset's name or an object of settings; the settings themselves are checked
    by the engine (``scoring/rules.py``), as the pages' are, at ``rules.<setting>``."""
    if not isinstance(value, str | dict):
        raise refuse("must be a preset name or an object of settings")
    if isinstance(value, dict):
        return {name: integral(setting) for name, setting in value.items()}
    return value


Rules = Annotated[Any, checked(_rules, Any), shared("Rules")]


def ranged(name: str, description: str | None = None) -> Any:
    """The range of a setting, as the engine checks it (``scoring.rules.RANGES``)."""
    low, high = RANGES[name]
    return Field(ge=low, le=high, description=description)



def one_of(choices: Any) -> Any:
    """The document's list of an enumeration's values."""
    return Field(json_schema_extra={"enum": [c.value for c in choices]})


class RuleSettings(TypedDict, total=False):
    """Settings by their snake_case names (the rule cards at `/rules` show each); any
    left out keep the preset's value. An unknown setting is refused."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]

    preset: Annotated[str, Field(description="The preset the settings "
                                                     "change."), shared("Preset")]
    knock_limit: Annotated[int, ranged("knock_limit", "The most deadwood one may "
                                      "knock with.")]
    gin_bonus: Annotated[int, ranged("gin_bonus", "Bonus for gin.")]
    big_gin_bonus: Annotated[Annotated[int, ranged("big_gin_bonus")] | None,
                             Field(description="Bonus for big gin; null: big gin is not "
                                   "played.")]
    undercut_bonus: Annotated[int, ranged("undercut_bonus", "Bonus for an undercut.")]
    tie_is_undercut: Annotated[bool, Field(description="Whether equal deadwood is an "
                                           "undercut.")]
    target: Annotated[int, ranged("target", "The score that ends the game.")]
    game_bonus: Annotated[int, ranged("game_bonus", "Bonus for winning the game.")]
    box_bonus: Annotated[int, ranged("box_bonus", "Bonus for each hand won (box).")]
    shutout: Annotated[str, one_of(Shutout),
                       Field(description="What a shutout adds at the end of the game.")]
    shutout_bonus: Annotated[int, ranged("shutout_bonus", "The flat bonus of shutout `flat`.")]
    next_dealer: Annotated[str, one_of(NextDealer),
                           Field(description="Who deals the next hand.")]
    oklahoma: Annotated[bool, Field(description="Oklahoma gin: the upcard sets the knock "
                                    "limit.")]
    oklahoma_ace: Annotated[str, one_of(OklahomaAce),
                            Field(description="What an ace upcard means in Oklahoma.")]
    spade_doubles: Annotated[bool, Field(description="Oklahoma: a spade upcard doubles the "
                                         "hand.")]
    sets_need_sequence: Annotated[bool, Field(description="Remi: a set counts only beside "
                                              "a sequence.")]
    deals: Annotated[Annotated[int, ranged("deals")] | None,
                     Field(description="End after this many deals; null: at the target. "
                           "Remi: instead of the target. The gin kinds: at the target or "
                           "after these deals, whichever comes first; the side ahead wins, "
                           "level is a drawn game (a dead hand counts as a deal; Hollywood "
                           "counts the hands of the match).")]
    hollywood_fourth: Annotated[bool, Field(description="Hollywood: a fourth column opens "
                                            "when the first closes.")]


RULES_SCHEMA: Schema = {
    "description": "A preset name, or an object of settings on top of a preset. Left "
    "out: the variant's own preset (`classic` for gin; `remi` for `/remi/settle`).",
    "oneOf": [{"$ref": "#/components/schemas/Preset"},
              {"$ref": "#/components/schemas/RuleSettings"}],
}
PRESET_SCHEMA: Schema = {"type": "string", "enum": list(PRESETS),
                         "description": "A preset's name."}

# The stake per point: more than 0, at most 1000000, at most 6 decimals, as text.
STAKE_PATTERN = (r"^0*([1-9][0-9]{0,5}(\.[0-9]{1,6})?|1000000(\.0{1,6})?|\.([1-9][0-9]{0,5}|"
                 r"0[1-9][0-9]{0,4}|00[1-9][0-9]{0,3}|000[1-9][0-9]{0,2}|0000[1-9][0-9]?|"
                 r"00000[1-9]))$")


def _stake(value: Any) -> str:
    if value is None:
        raise refuse("must be a string; leave it out for none")
    if not isinstance(value, str):
        raise refuse("a stake is a decimal number as text, like 0.01")
    try:
        parse_stake(value)
    except StakeError as exc:
        raise refuse(str(exc)) from None
    if re.fullmatch(STAKE_PATTERN, value) is None:
        raise refuse("a stake is a decimal number, like 0.01")
    return value


Stake = Annotated[str, checked(_stake, Annotated[str, Field(pattern=STAKE_PATTERN)]),
                  Field(description="The stake per point as a decimal string: more than 0, "
                        "at most 1000000, at most 6 decimals. Money is never a JSON number.",
                        examples=["0.01"])]


def _currency(value: Any) -> str:
    if value is None:
        raise refuse("must be a string; leave it out for none")
    if not isinstance(value, str) or re.fullmatch("[A-Za-z]{3}", value) is None:
        raise refuse("a currency is a three-letter code, like EUR")
    return value


Currency = Annotated[str, checked(_currency, Annotated[str, Field(pattern="^[A-Za-z]{3}$")]),
                     Field(description="An ISO 4217 currency code, any case; a stake needs "
                           "one (a game in a group may take the group's).", examples=["EUR"])]


# Something to read, and no NUL (PostgreSQL's text cannot hold it).
NAME_PATTERN = r"^[^\x00]*[^\s\x00][^\x00]*$"


def _player_name(most: int) -> PlainValidator:
    def check(value: Any) -> str:
        if not isinstance(value, str) or not value.strip():
            raise refuse("every player needs a name")
        if len(value) > most:
            raise refuse(f"a name has at most {most} characters")
        if "\x00" in value:
            raise refuse("a name cannot hold U+0000")
        return value

    return checked(check, Annotated[str, Field(pattern=NAME_PATTERN, max_length=most)])


PlayerName = Annotated[str, _player_name(NAME_MAX),
                       Field(description="A player's name (spaces around it are dropped).")]
GroupVersion = Annotated[
    int, whole(0, wrong="must be the group's version, as GET /api/v1/groups/<id> says it"),
    Field(description="The group's `version` as read: a change made since (another client's, "
          "or this request sent before) makes it a 409."),
]

# --- the engine's bodies ---------------------------------------------------------------


class ArrangeRequest(TypedDict):
    cards: Annotated[Cards, Field(description="10 or 11 cards.")]
    rules: NotRequired[Rules]


class KnockerCards(TypedDict):
    """The knocker's cards, and optionally the melds they declare."""

    cards: Cards
    melds: NotRequired[Annotated[list[Cards], listed(MAX_MELDS), within(MAX_MELDS),
                                 Field(description="Declared melds (optional).")]]


class DefenderCards(TypedDict):
    """The defender's cards, and optionally their melds and layoffs."""

    cards: Cards
    melds: NotRequired[Annotated[list[Cards], listed(MAX_MELDS), within(MAX_MELDS),
                                 Field(description="Declared melds (optional).")]]
    layoffs: NotRequired[Annotated[list[Layoff], listed(MAX_MELDS), within(MAX_MELDS),
                                   Field(description="Declared layoffs (optional).")]]


class SettleRequest(TypedDict):
    """Declared melds and layoffs are checked and scored as declared. Left out, the
    knocker gets their minimum-deadwood arrangement that leaves the defender the most
    deadwood, and the defender the lowest deadwood their own melds and chained layoffs
    reach together."""

    rules: NotRequired[Rules]
    upcard: NotRequired[Annotated[Card, Field(description="Oklahoma: the upcard.")]]
    knocker: KnockerCards
    defender: DefenderCards


class RemiPlayer(TypedDict):
    name: Annotated[str, text(NAME_MAX), Field(description="The player's name.")]
    table: NotRequired[Annotated[list[Cards], listed(MAX_COMBINATIONS),
                                 within(MAX_COMBINATIONS),
                                 Field(description="The combinations laid on the table.")]]
    hand: NotRequired[Annotated[Cards, Field(description="The cards still in hand.")]]
    went_out: NotRequired[Annotated[bool, flag(), Field(description="Whether this player went "
                                                  "out.")]]
    final_discard: NotRequired[Annotated[Card, Field(description="The card they went "
                                                     "out with.")]]


def _remi_count(value: Any, items: ValidatorFunctionWrapHandler) -> Any:
    if not isinstance(value, list):
        raise refuse("must be a list")
    if not 2 <= len(value) <= 4:
        raise refuse(f"Remi is for 2 to 4 players, not {len(value)}")
    return items(value)


class RemiSettleRequest(TypedDict):
    rules: NotRequired[Rules]
    players: Annotated[list[RemiPlayer], WrapValidator(_remi_count), within(4, 2)]


class GinRuling(SettleRequest):
    kind: NotRequired[Literal["gin"]]


class RemiRuling(RemiSettleRequest):
    kind: Literal["remi"]


# --- games and their hands ------------------------------------------------------------


def _seat_number(value: Any) -> int:
    value = integral(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise refuse("must be a seat number")
    if not 0 <= value <= SEAT_MAX:
        raise refuse(f"must be between 0 and {SEAT_MAX}")
    return value


def _captain(value: Any) -> int | None:
    return None if value is None else _seat_number(value)


SeatNumber = Annotated[int, checked(_seat_number, Annotated[int, Field(ge=0, le=SEAT_MAX)])]


def _player_counts() -> list[Schema]:
    """How many players each variant takes, as the document's constraints on a new game."""
    by_count: dict[tuple[int, ...], list[str]] = {}
    for name, variant in VARIANTS.items():
        by_count.setdefault(variant.player_counts, []).append(name)
    return [
        {
            "properties": {
                "variant": {"enum": names},
                "players": {"minItems": min(counts), "maxItems": max(counts)},
            },
            **({} if "gin" in names else {"required": ["variant"]}),
        }
        for counts, names in by_count.items()
    ]


MOST_PLAYERS = max(max(v.player_counts) for v in VARIANTS.values())


class NewGame(TypedDict):
    """Without a stake, the game takes its group's stake and currency."""

    __pydantic_config__ = ConfigDict(  # type: ignore[misc]
        json_schema_extra={"anyOf": _player_counts(),
                           "dependentRequired": {"currency": ["stake"]}})

    variant: NotRequired[Annotated[
        str, choice(tuple(VARIANTS), f"must be one of {', '.join(VARIANTS)}"),
        Field(description="The kind of game (default `gin`).")]]
    rules: NotRequired[Rules]
    players: Annotated[
        list[PlayerName], listed(MOST_PLAYERS), within(MOST_PLAYERS, 2),
        Field(description="2 players (gin, Oklahoma, Hollywood), 3 (three-hand), 4 "
              "(partnership) or 2 to 4 (Remi), all different.",
              json_schema_extra={"uniqueItems": True})]
    dealer: NotRequired[Annotated[SeatNumber, Field(description="The first dealer's seat "
                                                    "(default 0).")]]
    captain: NotRequired[Annotated[
        Annotated[int, checked(_captain, Annotated[int, Field(ge=0, le=SEAT_MAX)] | None)],
        Field(description="Three-hand gin: the first captain's seat; null: none.")]]
    group: NotRequired[Annotated[str, text(64, wrong="must be a group's id"),
                                 Field(description="The id of the group the game counts "
                                       "for; the group's edit secret goes in "
                                       "`X-Edit-Secret`.")]]
    stake: NotRequired[Stake]
    currency: NotRequired[Currency]


# --- groups and their money -------------------------------------------------------------


def _group_name(value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > GROUP_NAME_MAX:
        raise refuse(f"a group needs a name of at most {GROUP_NAME_MAX} characters")
    if "\x00" in value:
        raise refuse("a name cannot hold U+0000")
    return value


class NewGroup(TypedDict):
    __pydantic_config__ = ConfigDict(  # type: ignore[misc]
        json_schema_extra={"dependentRequired": {"stake": ["currency"]}})

    name: Annotated[str, checked(_group_name, Annotated[str, Field(pattern=NAME_PATTERN)]),
                    Field(description="The group's name.")]
    players: Annotated[list[PlayerName], listed(ROSTER_MAX, 1),
                       Field(description="The regular players, all different.",
                             json_schema_extra={"minItems": 1, "maxItems": ROSTER_MAX,
                                                "uniqueItems": True})]
    stake: NotRequired[Stake]
    currency: NotRequired[Currency]


AMOUNT_PATTERN = r"^\s*[0-9]+([.,][0-9]+)?\s*$"


def _amount(value: Any) -> Any:
    if not isinstance(value, str) or re.fullmatch(AMOUNT_PATTERN, value) is None:
        raise refuse("an amount is a number, like 2.50")
    return value


Amount = Annotated[str, checked(_amount, Annotated[str, Field(pattern=AMOUNT_PATTERN)]),
                   Field(examples=["2.50"])]
Day = Annotated[str, checked(lambda v: v if isinstance(v, str) else _no_date(), str),
                WithJsonSchema({"type": "string", "format": "date"})]


def _no_date() -> str:
    raise refuse("must be a date, like 2026-12-01")


class NewPayment(TypedDict):
    from_: Annotated[str, text(), Field(alias="from", description="Who paid: a player of the "
                                   "group.")]
    to: Annotated[str, text(), Field(description="Whom: another player of the group.")]
    amount: Annotated[Amount, Field(description="How much, in the group's balance "
                                    "currency, no finer than its minor unit; at most "
                                    "1000000.")]
    date: NotRequired[Annotated[Day, Field(description="The day it was paid, today or "
                                           "before; today when left out.")]]
    version: NotRequired[GroupVersion]


class PaymentCorrection(TypedDict, total=False):
    """What to change of a payment; what is left out stays."""

    from_: Annotated[str, text(), Field(alias="from", description="Who paid.")]
    to: Annotated[str, text(), Field(description="Whom.")]
    amount: Annotated[Amount, Field(description="How much, in the payment's currency.")]
    date: Annotated[Day, Field(description="The day it was paid.")]
    version: GroupVersion


class SettleUp(TypedDict):
    version: GroupVersion


class Version(TypedDict, total=False):
    version: GroupVersion


GameVersionNumber = Annotated[
    int, whole(0, wrong="must be the game's version, as GET /api/v1/games/<id> says it"),
    Field(description="The game's `version` as read: a change made since (another client's, "
          "or this request sent before) makes it a 409."),
]


class GameVersion(TypedDict, total=False):
    version: GameVersionNumber


# --- club nights ------------------------------------------------------------------------

NIGHT_ENTRANTS = 400
NIGHT_VARIANTS = ("gin", "oklahoma", "hollywood", "partnership")
NIGHT_FORMATS = ("round_robin", "swiss", "king_of_the_hill")
TIE_BREAKS = ("match_points", "games_won", "shutouts", "point_difference", "head_to_head")


def _entrant(value: Any) -> Any:
    """A player's name, or (a partnership night) a team: a list of its two players."""
    if isinstance(value, list):
        if len(value) != 2:
            raise refuse("a team is a list of its two players")
        return [_player_name(NAME_MAX).func(name) for name in value]  # type: ignore[call-arg]
    return _player_name(NAME_MAX).func(value)  # type: ignore[call-arg]


Entrant = Annotated[
    Any,
    checked(_entrant, Annotated[str, Field(pattern=NAME_PATTERN, max_length=NAME_MAX)]
            | Annotated[list[Annotated[str, Field(pattern=NAME_PATTERN, max_length=NAME_MAX)]],
                        Field(min_length=2, max_length=2)]),
    Field(description="A player's name; on a partnership night a team, the list of its two "
          "players."),
]


class NewNight(TypedDict):
    """A club night: the entrants present, the game at every table, the format."""

    __pydantic_config__ = ConfigDict(  # type: ignore[misc]
        json_schema_extra={"dependentRequired": {"currency": ["stake"]}})

    players: Annotated[
        list[Entrant], listed(NIGHT_ENTRANTS, 2), within(NIGHT_ENTRANTS, 2),
        Field(description="The entrants present, in seed order, all different.")]
    variant: NotRequired[Annotated[
        str, choice(NIGHT_VARIANTS, f"must be one of {', '.join(NIGHT_VARIANTS)}"),
        Field(description="The game at every table (default `gin`); `partnership`: "
              "teams of two.")]]
    rules: NotRequired[Rules]
    format: NotRequired[Annotated[
        str, choice(NIGHT_FORMATS, f"must be one of {', '.join(NIGHT_FORMATS)}"),
        Field(description="`round_robin` (default): everyone meets everyone, a bye a round "
              "for an odd number; `swiss`: players on equal standing meet, no rematch while "
              "avoidable; `king_of_the_hill`: winners move up a table, losers down.")]]
    rounds: NotRequired[Annotated[int, whole(1, 50), Field(
        description="How many rounds (Swiss and king of the hill need it; a round robin "
        "plays every round by default).")]]
    deals: NotRequired[Annotated[int, whole(1, 100), Field(
        description="A fixed number of deals a table (tournament play against the clock): "
        "each table's game ends after them if nobody reached the target first; the side "
        "ahead wins, level is a draw. Hollywood counts the hands of the match, partnership "
        "gin its deals. Set as each game's rule `deals`.")]]
    order: NotRequired[Annotated[
        list[Annotated[str, choice(TIE_BREAKS, f"must be one of {', '.join(TIE_BREAKS)}")]],
        listed(len(TIE_BREAKS), 1), within(len(TIE_BREAKS), 1),
        Field(description="The standings' order (default: match points, games won, "
              "shutouts, point difference, head-to-head), each once.",
              json_schema_extra={"uniqueItems": True})]]
    group: NotRequired[Annotated[str, text(64, wrong="must be a group's id"),
                                 Field(description="The group whose standings, head-to-head "
                                       "and stakes the night's games count for; its edit "
                                       "secret goes in `X-Edit-Secret`.")]]
    stake: NotRequired[Stake]
    currency: NotRequired[Currency]


class NextRound(TypedDict, total=False):
    carry: Annotated[bool, flag(), Field(
        description="Start the round while tables of the current one still play: they play "
        "on and count once confirmed, and their entrants are left out of the round (no "
        "bye). On a king of the hill night they keep their place on the hill: their "
        "result, once confirmed, moves them up or down for the round after.")]


# --- reading a body ---------------------------------------------------------------------

# Every body by the name the document gives its schema.
BODIES: dict[str, Any] = {
    "ArrangeRequest": ArrangeRequest,
    "SettleRequest": SettleRequest,
    "RemiSettleRequest": RemiSettleRequest,
    "GinRuling": GinRuling,
    "RemiRuling": RemiRuling,
    "NewGame": NewGame,
    "QuickHand": QuickHand,
    "DeadHand": DeadHand,
    "CardHand": CardHand,
    "PartnershipDeal": PartnershipDeal,
    "RemiQuickDeal": RemiQuickDeal,
    "RemiCardDeal": RemiCardDeal,
    "NewGroup": NewGroup,
    "NewPayment": NewPayment,
    "PaymentCorrection": PaymentCorrection,
    "SettleUp": SettleUp,
    "Version": Version,
    "GameVersion": GameVersion,
    "NewNight": NewNight,
    "NextRound": NextRound,
}
# The shared types a body refers to by name, with their schemas.
SHARED: dict[str, Schema] = {
    "Card": CARD_SCHEMA,
    "Cards": CARDS_SCHEMA,
    "Rules": RULES_SCHEMA,
    "Preset": PRESET_SCHEMA,
}
ADAPTERS: dict[Any, TypeAdapter[Any]] = {body: adapter(body) for body in BODIES.values()}
ADAPTERS[RuleSettings] = adapter(RuleSettings)


def read(shape: Any, also: Callable[[dict[str, Any]], object] | None = None) -> dict[str, Any]:
    """The request's JSON object, refused (422, every problem at its field) unless it has
    the ``shape`` (``check``)."""
    return check(json_object(), shape, also)


def schemas() -> dict[str, Schema]:
    """Every body's JSON Schema and the shared ones, by name, for ``components.schemas``."""
    return {**SHARED, **generated({**BODIES, "RuleSettings": RuleSettings})}


def generated(types: dict[str, Any], mode: JsonSchemaMode = "validation") -> dict[str, Schema]:
    """The JSON Schema of each of ``types`` by its name, and of the types they hold by
    theirs (pydantic's ``$defs``), as ``components.schemas`` lists them."""
    found: dict[str, Schema] = {}
    for name, kind in types.items():
        adapter = ADAPTERS.get(kind) or TypeAdapter(kind)
        schema = adapter.json_schema(by_alias=True, mode=mode,
                                     ref_template="#/components/schemas/{model}")
        for inner, definition in schema.pop("$defs", {}).items():
            found.setdefault(inner, _plain(definition))
        found[name] = _plain(schema)
    return found


def _plain(schema: Any) -> Any:
    """A schema without pydantic's titles (each field's name again)."""
    if isinstance(schema, dict) and SHARED_MARK in schema:
        rest = {key: item for key, item in schema.items() if key != SHARED_MARK}
        return {"$ref": f"#/components/schemas/{schema[SHARED_MARK]}", **_plain(rest)}
    if isinstance(schema, dict):
        return {
            key: ({name: _plain(value) for name, value in item.items()} if key == "properties"
                  else _plain(item))
            for key, item in schema.items()
            if key not in ("title", "description")
        } | ({"description": " ".join(schema["description"].split())}
             if isinstance(schema.get("description"), str) else {})
    if isinstance(schema, list):
        return [_plain(item) for item in schema]
    return schema
