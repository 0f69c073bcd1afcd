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

from . import games, gin, remi  # noqa: E402,F401 - the routes register themselves on bp
