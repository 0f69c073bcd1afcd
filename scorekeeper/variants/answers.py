"""The derived part of a game's JSON document, each variant's ``sheet_json``, as types:
what the builders return and what the API's OpenAPI document (``api/openapi.py``)
generates their schemas from (pydantic's JSON Schema of these ``TypedDict`` types).

A key left out of a row (``NotRequired``) is absent from some answers; ``X | None`` is a
key always present that may be ``null``.
"""

from __future__ import annotations

from typing import Annotated, Any, NotRequired

from pydantic import Field
from typing_extensions import TypedDict  # pydantic reads this one on Python 3.11

from ..jsonbody import CanonicalCard, Explanation
from ..scoring.outcome import Outcome

Seat = Annotated[int, Field(ge=0, description="A seat: 0 for the first player named, 1 for "
                            "the second, and so on.")]
OptionalSeat = Annotated[Annotated[int, Field(ge=0)] | None,
                         Field(description="A seat, or null for none.")]
Team = Annotated[Annotated[int, Field(ge=0)] | None, Field(description="A team, or null.")]
Seats = Annotated[list[int], Field(description="Points, one entry per seat (or team).")]
Boxes = Annotated[list[int], Field(description="Hands won, one entry per seat (or team).")]
Needs = Annotated[list[int], Field(description="Points still needed to reach the target.")]
Inputs = Annotated[dict[str, Any], Field(description="The hand as it was entered and stored.")]
OutcomeName = Annotated[str, Field(json_schema_extra={"enum": [o.value for o in Outcome]})]
AfterEnd = Annotated[bool, Field(description="Entered after the game had ended: it does not "
                                 "count.")]
HandNumber = Annotated[int, Field(ge=1, description="The hand's number, from 1.")]


class SettlementLine(TypedDict):
    seat: Seat
    amount: Annotated[int, Field(description="Points added.")]
    text: Annotated[str, Field(description="What for.")]


class Settlement(TypedDict):
    """The final settlement of a finished game (rule card `/rules/classic#game-bonus`)."""

    winner: Annotated[Annotated[int, Field(ge=0)] | None,
                      Field(description="The winner's seat (or team); null for a drawn game, "
                            "level after the last of a fixed number of deals "
                            "(`/rules/classic#deals`): no bonuses, margin 0.")]
    shutout: Annotated[bool, Field(description="Whether the loser won no hand.")]
    lines: list[SettlementLine]
    finals: Seats
    margin: Annotated[int, Field(description="The winner's final less the runner-up's.")]
    explanation: Explanation


# --- gin and Oklahoma gin -------------------------------------------------------------


class GinHand(TypedDict):
    number: HandNumber
    inputs: Inputs
    dealer: Seat
    outcome: OutcomeName
    winner: OptionalSeat
    points: Annotated[int, Field(description="Points the winner scored.")]
    doubled: Annotated[bool, Field(description="Oklahoma: doubled by a spade upcard.")]
    box: OptionalSeat
    totals: Seats
    after_end: AfterEnd
    explanation: Explanation


class GinGame(TypedDict):
    """Gin and Oklahoma gin: one hand per row."""

    hands: NotRequired[Annotated[list[GinHand], Field(description="Every hand; left out of "
                                                      "the answer to adding one.")]]
    totals: Seats
    boxes: Boxes
    needs: Needs
    next_dealer: Seat
    finished: Annotated[bool, Field(description="Whether the game is over.")]
    winner: OptionalSeat
    settlement: Settlement | None


# --- Hollywood ------------------------------------------------------------------------


class HollywoodHand(TypedDict):
    number: HandNumber
    inputs: Inputs
    dealer: Seat
    outcome: OutcomeName
    winner: OptionalSeat
    points: Annotated[int, Field(description="Points the winner scored.")]
    doubled: Annotated[bool, Field(description="Doubled by a spade upcard.")]
    columns: Annotated[list[int], Field(description="The columns the points went into.")]
    closes: Annotated[list[int], Field(description="The columns this hand closed.")]
    after_end: AfterEnd
    explanation: Explanation


class ColumnHand(TypedDict):
    hand: HandNumber
    points: Seats
    totals: Seats
    box: OptionalSeat


class ColumnHead(TypedDict):
    number: Annotated[int, Field(ge=1, description="The column, from 1.")]
    open: Annotated[bool, Field(description="Open and not yet closed.")]
    opened_after: Annotated[Annotated[int, Field(ge=0)] | None,
                            Field(description="The hand after which it opened (0: from the "
                                  "start); null: not yet.")]
    closed: Annotated[bool, Field(description="Its game is over.")]
    winner: OptionalSeat
    totals: Seats
    boxes: Boxes
    needs: Needs


class HollywoodColumn(ColumnHead):
    hands: NotRequired[Annotated[list[ColumnHand], Field(description="Left out of the answer "
                                                         "to adding a hand.")]]
    settlement: Settlement | None


class HollywoodMatch(TypedDict):
    finals: Seats
    leader: OptionalSeat


class HollywoodGame(TypedDict):
    """Hollywood gin: three games (columns) at once."""

    hands: NotRequired[Annotated[list[HollywoodHand], Field(description="Every hand; left "
                                                            "out of the answer to adding one.")]]
    columns: list[HollywoodColumn]
    next_dealer: Seat
    finished: Annotated[bool, Field(description="Whether the match is over.")]
    ignored: Annotated[list[int], Field(description="Hands entered after the match ended.")]
    match: HollywoodMatch


# --- three-hand gin -------------------------------------------------------------------


class Roles(TypedDict):
    """Which seat has which role."""

    box: Seat
    captain: Seat
    out: Seat


RoleName = Annotated[str | None, Field(json_schema_extra={"enum": ["box", "captain", None]})]


class ThreeHandHand(TypedDict):
    number: HandNumber
    inputs: Inputs
    roles: Roles
    dealer: Seat
    knocker_seat: OptionalSeat
    outcome: OutcomeName
    winner_role: RoleName
    winner: OptionalSeat
    points: Seats
    totals: Seats
    next_roles: Roles
    after_end: AfterEnd
    explanation: Explanation


class ThreeHandGame(TypedDict):
    """Three-hand gin: the box plays the captain, the third sits out."""

    hands: NotRequired[Annotated[list[ThreeHandHand], Field(description="Every hand; left "
                                                            "out of the answer to adding one.")]]
    totals: Seats
    boxes: Boxes
    needs: Needs
    next_roles: Roles
    next_dealer: Seat
    finished: Annotated[bool, Field(description="Whether the game is over.")]
    winner: OptionalSeat
    settlement: Settlement | None


# --- partnership gin ------------------------------------------------------------------


class PartnershipTable(TypedDict):
    players: Annotated[list[Seat], Field(description="The two seats who played it.")]
    outcome: OutcomeName
    winner: OptionalSeat
    points: int
    team_points: Annotated[list[int], Field(description="What each team scored.")]
    explanation: Explanation


Pairing = Annotated[list[list[Seat]], Field(description="Who plays whom, table by table.")]


class PartnershipGameDeal(TypedDict):
    number: Annotated[int, Field(ge=1, description="The deal's number.")]
    inputs: Annotated[dict[str, Any], Field(description="The deal as entered.")]
    pairing: Pairing
    tables: list[PartnershipTable]
    points: Annotated[list[int], Field(description="Each team's net for the deal.")]
    box: Annotated[Team, Field(description="The team that won the deal.")]
    totals: list[int]
    after_end: AfterEnd
    explanation: Annotated[str, Field(description="The deal's net, in words.")]


class PartnershipGame(TypedDict):
    """Partnership gin: two teams, two tables a deal."""

    teams: Annotated[list[list[Seat]], Field(description="Each team's seats.")]
    team_names: list[str]
    hands: NotRequired[Annotated[list[PartnershipGameDeal], Field(description="Every deal; left "
                                                              "out of the answer to adding one.")]]
    totals: Annotated[list[int], Field(description="Each team's total.")]
    boxes: Annotated[list[int], Field(description="Deals won.")]
    needs: Needs
    next_pairing: Annotated[Pairing, Field(description="Who plays whom in the next deal.")]
    finished: Annotated[bool, Field(description="Whether the game is over.")]
    winner: Annotated[Team, Field(description="The winning team.")]
    settlement: Settlement | None


# --- Remi -----------------------------------------------------------------------------


Combinations = list[list[CanonicalCard]]


class RemiDealPlayer(TypedDict):
    points: int
    plus: int
    minus: int
    closing_bonus: int
    combinations: NotRequired[Combinations]
    void_sets: NotRequired[Combinations]
    unmatched: NotRequired[list[CanonicalCard]]


class RemiGameDeal(TypedDict):
    number: Annotated[int, Field(ge=1, description="The deal's number.")]
    inputs: Annotated[dict[str, Any], Field(description="The deal as entered.")]
    mode: Annotated[str, Field(json_schema_extra={"enum": ["quick", "cards"]})]
    went_out: OptionalSeat
    dealer: OptionalSeat
    scores: Seats
    totals: Seats | None
    after_end: AfterEnd
    players: list[RemiDealPlayer]
    explanation: Explanation


class RemiGame(TypedDict):
    """Indonesian Remi: 2 to 4 players, one row a deal."""

    hands: NotRequired[Annotated[list[RemiGameDeal], Field(description="Every deal; left out of "
                                                       "the answer to adding one.")]]
    totals: Seats
    next_dealer: OptionalSeat
    finished: Annotated[bool, Field(description="Whether the game is over.")]
    winners: Annotated[list[Seat], Field(description="More than one when tied.")]
    target: Annotated[int | None, Field(description="The target; null when the game lasts a "
                                        "number of deals.")]
    deals_left: Annotated[Annotated[int, Field(ge=0)] | None,
                          Field(description="Deals still to play, when it lasts a number.")]


# Every variant's document, the return of ``Variant.sheet_json``.
SheetJson = GinGame | HollywoodGame | ThreeHandGame | PartnershipGame | RemiGame
