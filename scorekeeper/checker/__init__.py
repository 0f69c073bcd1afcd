"""The dispute settler: one hand entered card by card, scored step by step (``/check``)."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("checker", __name__)

from . import views  # noqa: E402,F401 - the routes register themselves on bp
