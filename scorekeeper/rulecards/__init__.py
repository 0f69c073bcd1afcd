"""Rule cards: every preset and kind of game written down for players (``/rules``),
and a game's own frozen rules (``/g/<id>/rules``), on screen and printed."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("rulecards", __name__)

from . import views  # noqa: E402,F401 - the routes register themselves on bp
