"""Every kind of game the app keeps score of, by name (``Game.variant``)."""

from __future__ import annotations

from flask import abort

from ..models import Game
from .base import Variant
from .gin import GinVariant, OklahomaVariant
from .hollywood import HollywoodVariant
from .partnership import PartnershipVariant
from .remi import RemiVariant
from .threehand import ThreeHandVariant

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


def variant_for(game: Game) -> Variant:
    """The variant a stored game is played under."""
    variant = VARIANTS.get(game.variant)
    if variant is None:
        abort(404)
    return variant


__all__ = ["VARIANTS", "Variant", "variant_for"]
