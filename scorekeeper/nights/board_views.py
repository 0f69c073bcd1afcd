"""The board on the wall and the organiser's page, following every save.

``GET /n/<id>/live`` answers the night's live version (``service.live_version``: the
night's own version and the sum of its games' versions, one query) as an ETag: an
empty 304 while nothing changed, as ``/g/<id>/live`` does for one game, so the same
``static/live.js`` follows a night: when the version moved on it fetches the page again
and swaps its ``data-live-region`` parts. Eighty boards asking every second cost eighty
small queries a second; the board itself, drawn once for a version and a language in
each process, is served to every board that asks for it after the same save.
"""

from __future__ import annotations

import threading
import time

from flask import abort, jsonify, render_template, request
from flask_babel import get_locale
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ..db import get_session
from ..services import nights as service
from ..services.night_view import night_view
from . import bp
from .views import load

CACHE_CONTROL = "private, no-cache"
# Standings rows a board shows at once before it pages through them (board.js may
# show fewer when the screen is smaller).
BOARD_ROWS = 16

# The board as this process last drew it, per night and language: (when, version,
# HTML). A board asking for a newer version within ``REDRAW`` seconds of the last
# drawing gets that one, which names its own version (live.js asks from there): when
# eighty tables save in the same second, each process draws the board at most twice a
# second however many versions go by, and every board is at most ``REDRAW`` behind.
REDRAW = 0.5
_BOARDS: dict[tuple[str, str], tuple[float, str, str]] = {}
_BOARDS_LOCK = threading.Lock()
_BOARDS_MOST = 200


@bp.get("/n/<night_id>/live")
def live(night_id: str) -> Response:
    """The night's version as an ETag: 304 while unchanged, else 200."""
    version = service.live_version(get_session(), night_id)
    if version is None:
        abort(404)
    if request.if_none_match.contains(version):
        response = Response(status=304)
    else:
        response = jsonify(version=version, changed=_("The night moved on."), kept="")
    response.set_etag(version)
    response.headers["Cache-Control"] = CACHE_CONTROL
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


@bp.get("/n/<night_id>/board")
def board(night_id: str) -> Response:
    """The board for a TV or projector: this round's tables, the standings, paged."""
    night = load(night_id)
    version = service.live_version(get_session(), night.id) or ""
    key = (night.id, str(get_locale()))
    now = time.monotonic()
    with _BOARDS_LOCK:
        kept = _BOARDS.get(key)
    if kept is not None and (kept[1] == version or now - kept[0] < REDRAW):
        body = kept[2]
    else:
        shown = night_view(get_session(), night, rounds="live")
        body = render_template("nights/board.html", night=night, shown=shown,
                               version=version, rows=BOARD_ROWS)
        with _BOARDS_LOCK:
            if len(_BOARDS) > _BOARDS_MOST:
                _BOARDS.clear()
            _BOARDS[key] = (now, version, body)
    response = Response(body, mimetype="text/html")
    response.headers["Cache-Control"] = CACHE_CONTROL
    return response
