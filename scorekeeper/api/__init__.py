"""The JSON API (``/api/v1``): the same engine results as the pages, as JSON.

Requests carry no CSRF token (no cookies authorise anything here: editing a game
needs its ``X-Edit-Secret`` header). Errors are HTTP 422
``{"errors": [{"where": ..., "message": ...}]}``, never a 500.
"""

from __future__ import annotations

from flask import Blueprint

from ..security import csrf

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)
# The route modules (games, gin, remi) register themselves on ``bp`` when the app
# factory imports them; importing them here would tie this package's helpers
# (``errors``, used by the variants) to the variants in a circle.
