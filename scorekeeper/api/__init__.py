"""The JSON API (``/api/v1``): the same engine results as the pages, as JSON.

Requests carry no CSRF token (no cookies authorise anything here: editing a game
needs its ``X-Edit-Secret`` header). Errors are HTTP 422
``{"errors": [{"where": ..., "message": ...}]}``, never a 500.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify
from flask.blueprints import BlueprintSetupState

from ..jsonbody import ApiError
from ..security import csrf

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)
# The route modules (games, gin, remi) register themselves on ``bp`` when the app
# factory imports them.


def _handle_api_error(exc: ApiError) -> tuple[Response, int]:
    errors = [{"where": where, "message": message} for where, message in exc.problems]
    return jsonify(errors=errors), exc.status


bp.register_error_handler(ApiError, _handle_api_error)


def _register_docs(state: BlueprintSetupState) -> None:
    """The page made from this API's OpenAPI document, ``/api/docs``: outside
    ``/api/v1``, so on a blueprint of its own, registered with this one."""
    from .docs import bp as docs

    state.app.register_blueprint(docs)


bp.record_once(_register_docs)

from . import openapi  # noqa: E402, F401 - GET /openapi.json registers on bp
