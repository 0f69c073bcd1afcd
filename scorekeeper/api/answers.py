"""The JSON API's answer bodies, each described once: the types the views build their
answers as, from which the OpenAPI document (``api/openapi.py``) generates the answers'
schemas. A game's document is typed where it is built (``services/documents.py``,
``variants/answers.py``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, Required

from pydantic import Field
from typing_extensions import TypedDict  # pydantic reads this one on Python 3.11

from ..jsonbody import CanonicalCard, Explanation
from ..services.documents import CurrencyCode, Money, Payment
from ..variants import VARIANTS

TOKEN = "^[A-Za-z0-9_-]{1,64}$"
Uri = Annotated[str, Field(json_schema_extra={"format": "uri"})]
Count = Annotated[int, Field(ge=0)]
Meld = Annotated[list[CanonicalCard], Field(description="A meld's cards.")]


class Problem(TypedDict):
    where: Annotated[str, Field(description="What the message is about: a path into the body, "
                                "a header, `request` or `game`.")]
    message: Annotated[str, Field(description="What is wrong, in English.")]


class Errors(TypedDict):
    """Why the request was refused: every problem found at once."""

    errors: Annotated[list[Problem], Field(min_length=1)]


# --- the engine ---------------------------------------------------------------------


class Arrangement(TypedDict):
    """The best melds of 10 cards, or of 11 after the best discard."""

    melds: list[Meld]
    deadwood: list[CanonicalCard]
    deadwood_points: Annotated[Count, Field(description="The deadwood's count.")]
    gin: Annotated[bool, Field(description="No deadwood.")]
    discard: NotRequired[Annotated[CanonicalCard | None, Field(
        description="11 cards: the best discard; melds and deadwood are after it.")]]
    big_gin: NotRequired[Annotated[bool, Field(description="11 cards: all eleven melded.")]]


class KnockerResult(TypedDict):
    melds: list[Meld]
    deadwood: list[CanonicalCard]
    deadwood_points: Count


class LayoffResult(TypedDict):
    card: CanonicalCard
    meld: Annotated[Count, Field(description="0-based index into `knocker.melds`.")]


class DefenderResult(TypedDict):
    melds: list[Meld]
    layoffs: list[LayoffResult]
    deadwood: list[CanonicalCard]
    deadwood_points: Count


class SettledHand(TypedDict):
    """One hand scored; a layoff's `meld` indexes `knocker.melds`."""

    outcome: Annotated[str, Field(json_schema_extra={
        "enum": ["knock", "undercut", "gin", "big_gin", "tie"]})]
    winner: Annotated[str | None, Field(description="Who scores; null for a tie.",
                                        json_schema_extra={"enum": ["knocker", "defender",
                                                                    None]})]
    points: Annotated[Count, Field(description="The points the winner scores.")]
    knocker: KnockerResult
    defender: DefenderResult
    explanation: Explanation


class RemiPlayerResult(TypedDict):
    name: Annotated[str, Field(description="The player's name.")]
    combinations: list[list[CanonicalCard]]
    unmatched: list[CanonicalCard]
    points: Annotated[int, Field(description="The deal's score.")]
    plus: Annotated[int, Field(description="Points on the table.")]
    minus: Annotated[int, Field(description="Points left in hand.")]
    closing_bonus: Annotated[int, Field(description="The bonus for going out.")]


class RemiDeal(TypedDict):
    """One Remi deal scored (rule card `/rules/remi`)."""

    players: list[RemiPlayerResult]
    explanation: Explanation


class KeptRuling(TypedDict):
    """A kept ruling: what was decided, never scored again."""

    id: Annotated[str, Field(pattern=TOKEN, description="The ruling's id.")]
    url: Annotated[Uri, Field(description="Its read-only page (`<url>.pdf` prints it).")]


# --- games and groups ---------------------------------------------------------------


class Created(TypedDict):
    """What was created, with its edit secret and links."""

    id: Annotated[str, Field(pattern=TOKEN, description="Its id.")]
    edit_secret: Annotated[str, Field(description="The secret that lets you change it "
                                      "(`X-Edit-Secret`).")]
    view_url: Annotated[Uri, Field(description="Its page, to read.")]
    edit_url: Annotated[Uri, Field(description="Its page with the secret: whoever opens it "
                                   "may edit.")]


class AddedHandNumber(TypedDict):
    hand: Annotated[int, Field(ge=1, description="The hand's number.")]


class DeletionEntry(TypedDict):
    change: Annotated[int, Field(description="The deletion's entry in the game's history: "
                                 "`POST /games/{game_id}/changes/{change}/restore` puts the "
                                 "hand back.")]


class GroupGame(TypedDict):
    id: Annotated[str, Field(description="The game's id.")]
    variant: Annotated[str, Field(json_schema_extra={"enum": list(VARIANTS)})]
    created_at: Annotated[str, Field(json_schema_extra={"format": "date-time"})]
    finished: bool
    winner: Annotated[str | None, Field(description="The winner's name, when there is one.")]
    winners: list[str]
    finals: Annotated[dict[str, int], Field(description="Each player's final score, by name.")]
    stake: Money | None
    currency: CurrencyCode | None
    payments: list[Payment]


class Rating(TypedDict, total=False):
    """A player's skill rating (openskill's Plackett–Luce model), to two places."""

    rating: Required[Annotated[float | None, Field(
        description="The conservative skill rating, mu − 3 sigma, two places; null for a "
        "player not rated yet.")]]
    rating_mu: Annotated[float, Field(description="The most likely skill.")]
    rating_sigma: Annotated[float, Field(description="How uncertain the skill still is.")]
    rated_games: Annotated[Count, Field(description="Games counted for the rating.")]
    rating_provisional: Annotated[bool, Field(description="Fewer than 5 rated games.")]


class Standing(Rating):
    """One player's figures over the group's finished games."""

    name: Annotated[str, Field(description="The player's name.")]
    games: Count
    wins: Count
    finals: Annotated[int, Field(description="Final scores added up.")]
    margins: Annotated[int, Field(description="Margins added up.")]
    hands: Count
    hands_won: Count
    gins: Count
    big_gins: Count
    undercuts: Count
    undercuts_suffered: Count
    knocks: Count
    dead_hands: Count
    boxes: Count
    shutouts_given: Count
    shutouts_suffered: Count
    longest_streak: Count
    biggest_hand: int | None
    balance: Money


class HeadToHead(TypedDict):
    players: Annotated[list[str], Field(min_length=2, max_length=2)]
    games: Count
    wins: Annotated[list[Count], Field(min_length=2, max_length=2)]
    net: Annotated[int, Field(description="The first player's finals less the second's.")]


# A payment recorded as made ("from" is a Python word: the functional form).
RecordedPayment = TypedDict("RecordedPayment", {
    "id": Annotated[int, Field(description="The payment's id, for `PATCH` and `DELETE`.")],
    "from": str,
    "to": str,
    "amount": Money,
    "currency": CurrencyCode | None,
    "date": Annotated[str, Field(json_schema_extra={"format": "date"})],
})


class GroupChange(TypedDict):
    """One change to a group's payments."""

    id: Annotated[int, Field(description="The entry's id (a deletion's restores it).")]
    action: Annotated[str, Field(json_schema_extra={
        "enum": ["record", "edit", "delete", "restore", "settle"]})]
    at: Annotated[str, Field(json_schema_extra={"format": "date-time"})]
    by: Annotated[str, Field(description="How the change was made: `edit link`, `PIN`, "
                             "`API`.")]
    before: Annotated[dict[str, Any] | None, Field(
        description="The payment before (`edit`, `delete`); a restore's names the entry it "
        "took back (`{\"restores\": position}`).")]
    after: Annotated[dict[str, Any] | None, Field(
        description="The payment after (`record`, `edit`, `restore`); a settling up's lists "
        "them (`{\"payments\": [...]}`).")]
    restorable: Annotated[bool, Field(description="A deletion that can still be restored.")]


class Group(TypedDict):
    """A group of regular players: its games, standings and money."""

    id: Annotated[str, Field(description="The group's id.")]
    name: Annotated[str, Field(description="The group's name.")]
    players: list[str]
    stake: Annotated[Money | None, Field(description="The stake per point its games take, "
                                         "if any.")]
    currency: CurrencyCode | None
    rating_kinds: Annotated[list[str], Field(description="The kinds of game the ratings "
                                             "count.")]
    games: Annotated[list[GroupGame], Field(description="The group's games, newest first.")]
    standings: list[Standing]
    head_to_head: list[HeadToHead]
    balances: Annotated[dict[str, Money], Field(description="What each player is up (or "
                                                "down), by name.")]
    balance_currency: CurrencyCode | None
    settle_up: Annotated[list[Payment], Field(description="The fewest payments that settle "
                                              "the balances.")]
    payments: Annotated[list[RecordedPayment], Field(description="Payments recorded as made.")]
    version: Annotated[int, Field(ge=0, description="Moves with every change to the payments; "
                                  "a change may name it (`version`).")]
    history: Annotated[list[GroupChange], Field(description="Every change to the payments, "
                                                "oldest first.")]


class RatedGame(TypedDict):
    game: Annotated[str, Field(description="A rated game's id.")]
    rating: float


class WinRateAfter(TypedDict):
    game: Annotated[str, Field(description="A game's id.")]
    win_rate: Annotated[float, Field(ge=0, le=1)]


class MeldLaid(TypedDict):
    cards: Annotated[str, Field(description="The meld's cards.")]
    times: Annotated[int, Field(ge=1)]


class Opponent(TypedDict):
    opponent: str
    games: Count
    wins: Count
    losses: Count
    net: Annotated[int, Field(description="This player's finals less the opponent's.")]


class Player(Rating):
    """One player across a group's finished games."""

    name: Annotated[str, Field(description="The player's name.")]
    best_rating: float
    rating_history: Annotated[list[RatedGame], Field(
        description="The rating after each rated game, oldest first.")]
    games: Annotated[Count, Field(description="Finished games counted.")]
    wins: Count
    win_rate: Annotated[float | None, Field(description="Games won out of games played, "
                                            "0 to 1.")]
    win_rate_history: list[WinRateAfter]
    longest_streak: Count
    figures: Annotated[dict[str, int], Field(
        description="Every counted figure by name (`gins`, `big_gins`, `undercuts_made`, "
        "`undercuts_suffered`, `shutouts_given`, `gin_missed`: knocks whose cards held a "
        "gin…).")]
    average_won_hand: Annotated[float | None, Field(
        description="Points of a won hand, on average.")]
    average_knock_deadwood: Annotated[float | None, Field(
        description="Deadwood when knocking (hands entered with cards).")]
    average_caught_deadwood: Annotated[float | None, Field(
        description="The defender's deadwood when this player knocked (hands entered with "
        "cards).")]
    layoffs_per_hand: Annotated[float | None, Field(
        description="Cards laid off per hand defended (with cards).")]
    melds: Annotated[list[MeldLaid], Field(description="The melds laid most.")]
    against: list[Opponent]
    money_won: Money
    money_lost: Money
    balance: Money
    balance_currency: CurrencyCode | None
    game_ids: Annotated[list[str], Field(description="The player's games, newest first.")]


class GroupChangeMade(TypedDict, total=False):
    """What a change to a group's payments adds to the group: `payment` is the payment
    recorded, corrected or restored, `recorded` those a settling up recorded."""

    payment: RecordedPayment
    recorded: list[RecordedPayment]


# --- club nights --------------------------------------------------------------------


class CreatedNight(TypedDict):
    """A new night: its organiser's secret and pages."""

    id: Annotated[str, Field(description="The night's id.")]
    organiser_secret: Annotated[str, Field(
        description="The secret that runs the night (`X-Edit-Secret`); it is accepted "
        "wherever a table's own edit secret is.")]
    organiser_url: Annotated[Uri, Field(description="The organiser's page with the secret.")]
    board_url: Annotated[Uri, Field(description="The board for a TV or projector.")]


Side = Literal["a", "b"]


class NightResult(TypedDict):
    """A table's result as it counts."""

    points_a: Annotated[int, Field(description="The first's final.")]
    points_b: Annotated[int, Field(description="The second's final.")]
    winner: Annotated[Side | None, Field(description="Who won.")]
    shutout: Annotated[bool, Field(description="Won with the loser scoring nothing.")]
    forfeit: Annotated[Side | None, Field(description="Who forfeited.")]


class NightTable(TypedDict, total=False):
    """One table of a round."""

    table: Required[Annotated[int, Field(ge=1, description="The table's number (1 is the "
                                         "top table).")]]
    players: Required[Annotated[list[str], Field(description="The two entrants, first "
                                                 "seated first.")]]
    game: Required[Annotated[str | None, Field(description="The table's game "
                                               "(`GET /games/{game_id}`).")]]
    state: Required[Annotated[Literal["missing", "playing", "finished", "confirmed"], Field(
        description="`missing`: no hand yet; `playing`; `finished`: over, waiting for the "
        "other player's confirmation; `confirmed`: it counts.")]]
    seats: Annotated[list[str], Field(description="The game's players in their seats.")]
    hands: Annotated[Count, Field(description="Hands played.")]
    scores: list[int] | None
    result: NightResult | None
    rulings: Annotated[list[Uri], Field(description="The rulings kept about the game's hands "
                                        "(the checker opened from one of them), oldest "
                                        "first: each ruling's page.")]
    edit_url: Annotated[Uri, Field(description="The game's page with its edit secret (only "
                                   "with the organiser's secret).")]


class NightRound(TypedDict):
    number: Annotated[int, Field(ge=1, description="The round's number.")]
    tables: list[NightTable]
    byes: Annotated[list[str], Field(description="Entrants sitting this round out.")]


class NightStanding(TypedDict, total=False):
    player: Required[Annotated[str, Field(description="The entrant.")]]
    rank: Required[Annotated[int, Field(description="Rank; tied entrants share one.")]]
    points: Required[Annotated[int, Field(description="Match points: 2 a win or bye, "
                                          "1 a draw.")]]
    wins: Required[int]
    played: int
    draws: int
    losses: int
    byes: int
    games_won: Annotated[int, Field(description="Games won at the table (a forfeit is "
                                    "not one).")]
    shutouts: Annotated[int, Field(description="Games won with the loser scoring nothing.")]
    point_difference: Annotated[int, Field(description="Own finals less the opponents', "
                                           "summed.")]


class Night(TypedDict, total=False):
    """A club night: its rounds, tables and standings."""

    id: Required[Annotated[str, Field(description="The night's id.")]]
    rounds: Required[list[NightRound]]
    standings: Required[list[NightStanding]]
    name: str
    variant: Annotated[str, Field(description="The game at every table.")]
    format: str
    planned_rounds: Annotated[int | None, Field(
        description="How many rounds the night has: the organiser's number, or the "
        "format's; a round robin's are the rounds made and those still to come with the "
        "entrants present now, at most the organiser's number.")]
    deals: Annotated[int | None, Field(description="Deals a table, or `null`: to the target.")]
    order: Annotated[list[str], Field(description="The tie-breaks in order.")]
    players: list[str]
    board_url: Uri


class Confirmed(TypedDict):
    """A table's result confirmed."""

    confirmed: Annotated[bool, Field(description="The table's result counts.")]
    counted: Annotated[bool, Field(description="`true` if this request confirmed it, `false` "
                                   "if it was confirmed already (twice counts once).")]
    result: NotRequired[NightResult | None]

