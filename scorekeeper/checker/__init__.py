"""The dispute settler: one hand entered card by card, scored step by step (``/check``)."""

from __future__ import annotations

from flask import Blueprint

from ..hands.fields import explain, picker_rows

bp = Blueprint("checker", __name__)
# The hand partials are shared with the game pages, so their helpers are app-wide.
bp.add_app_template_global(explain, "explain")
bp.add_app_template_global(picker_rows, "picker_rows")

from . import views  # noqa: E402,F401 - the routes register themselves on bp
