"""Games: the score sheet, hand entry, corrections and history."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("games", __name__)

from . import views  # noqa: E402,F401 - the routes register themselves on bp
