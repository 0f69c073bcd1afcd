"""A game's JSON document: what ``GET /api/v1/games/<id>`` answers and what an export
holds for each game (the API and the backup both read it from here)."""

from __future__ import annotations

from typing import Any

from ..models import GameData
from ..names import game_short_names
from ..variants import variant_for
from .summaries import payments_of


def game_json(game: GameData, *, hands: bool = True) -> dict[str, Any]:
    """The whole game as JSON (also the export format); ``hands=False`` leaves out the
    per-hand list (the answer to adding a hand carries the new totals, not the history)."""
    variant = variant_for(game)
    played = variant.sheet(game)
    money: dict[str, Any] = {}
    if game.stake is not None:
        money = {"stake": game.stake, "currency": game.currency}
        if played.finished:
            money["payments"] = [
                {"from": p.payer, "to": p.payee, "amount": str(p.amount), "currency": game.currency}
                for p in payments_of(game)
            ]
    return {
        "id": game.id,
        "variant": game.variant,
        "players": list(game.players),
        "short_names": game_short_names(game),
        "rules": dict(game.rules),
        "setup": dict(game.setup),
        "version": game.version,
        "created_at": game.created_at.isoformat(),
        **variant.sheet_json(game, played, hands=hands),
        **money,
    }
