"""A game's JSON document: what ``GET /api/v1/games/<id>`` answers and what an export
holds for each game (the API and the backup both read it from here).

The document is the fields every game has (``GameHead``, the money of ``GameMoney``) and
its variant's own (``variants/answers.py``); the API's OpenAPI document generates their
schemas from these types."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field
from typing_extensions import TypedDict  # pydantic reads this one on Python 3.11

from ..models import GameData
from ..names import game_short_names
from ..variants import Sheet, variant_for
from .summaries import payments_of, record_of

MONEY_PATTERN = r"^-?[0-9]+(\.[0-9]+)?$"
Money = Annotated[str, Field(pattern=MONEY_PATTERN, examples=["1.53"], description="An "
                             "amount of money as a decimal string, never a JSON number.")]
CurrencyCode = Annotated[str, Field(pattern="^[A-Z]{3}$", examples=["EUR"],
                                    description="A three-letter currency code.")]
# Money owed at the end of a game with a stake ("from" is a Python word: the functional form).
Payment = TypedDict("Payment", {
    "from": Annotated[str, Field(description="Who pays.")],
    "to": Annotated[str, Field(description="Who is paid.")],
    "amount": Money,
    "currency": Annotated[CurrencyCode | None, Field(description="The currency, if any.")],
})


class GameHead(TypedDict):
    """What every game's document holds, whatever its variant."""

    id: Annotated[str, Field(description="The game's id.")]
    variant: str
    players: list[str]
    short_names: Annotated[list[str], Field(
        description="Each player's short form, seat by seat, as the sheet's narrow columns "
        "show it: the first word of the name, told apart from another player's, or what the "
        "game's editor wrote.")]
    # Every setting, by the names of the request's ``RuleSettings`` (api/openapi.py).
    rules: Annotated[dict[str, Any], Field(description="The game's rules, every setting.")]
    setup: Annotated[dict[str, int], Field(description="Who dealt (or had which role) "
                                           "first.")]
    version: Annotated[int, Field(ge=0, description="Goes up by one with every change.")]
    created_at: Annotated[str, Field(json_schema_extra={"format": "date-time"},
                                     description="When the game was created.")]


class GameMoney(TypedDict, total=False):
    """A game with a stake: the stake, and who pays whom once it is finished."""

    stake: Annotated[Money, Field(description="The stake per point.")]
    currency: CurrencyCode | None
    payments: Annotated[list[Payment], Field(description="Who pays whom (a finished game "
                                             "only).")]


def game_json(game: GameData, *, hands: bool = True, sheet: Sheet | None = None) -> dict[str, Any]:
    """The whole game as JSON (also the export format); ``hands=False`` leaves out the
    per-hand list (the answer to adding a hand carries the new totals, not the history).
    ``sheet``: the game replayed, when the caller has it (else it is replayed here); the
    payments are counted from it too."""
    variant = variant_for(game)
    played = variant.sheet(game) if sheet is None else sheet
    money: GameMoney = {}
    if game.stake is not None:
        money = {"stake": game.stake, "currency": game.currency}
        if played.finished:
            money["payments"] = [
                {"from": p.payer, "to": p.payee, "amount": str(p.amount), "currency": game.currency}
                for p in payments_of(game, record_of(game, played))
            ]
    head: GameHead = {
        "id": game.id,
        "variant": game.variant,
        "players": list(game.players),
        "short_names": game_short_names(game),
        "rules": dict(game.rules),
        "setup": dict(game.setup),
        "version": game.version,
        "created_at": game.created_at.isoformat(),
    }
    return {**head, **variant.sheet_json(game, played, hands=hands), **money}
