"""Every kind of game the app keeps score of, by name (``Game.variant``)."""

from __future__ import annotations

from flask import abort

from ..charts.race import Race
from ..models import Game, GameData
from .base import Sheet, Variant
from .gin import GinVariant, OklahomaVariant
from .hollywood import HollywoodVariant
from .partnership import PartnershipVariant
from .remi import RemiVariant
from .three_hand import ThreeHandVariant

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        GinVariant(),
        OklahomaVariant(),
        HollywoodVariant(),
        ThreeHandVariant(),
        PartnershipVariant(),
        RemiVariant(),
    )
}


def variant_for(game: GameData) -> Variant:
    """The variant a stored game is played under."""
    variant = VARIANTS.get(game.variant)
    if variant is None:
        abort(404)
    return variant


def game_races(game: Game, sheet: Sheet) -> tuple[Race, ...]:
    """The races a stored game's kind draws from its replayed sheet (``Variant.races``)
    that have run at least one hand (a template global: ``_race.html``)."""
    return tuple(race for race in variant_for(game).races(sheet) if race.hands)


__all__ = ["VARIANTS", "Sheet", "Variant", "game_races", "variant_for"]
