"""The live sheet: open pages of a game learn of another phone's change within a second.

``static/live.js`` asks ``GET /g/<id>/live`` every second with ``If-None-Match`` set to
the version its page was drawn from. The view reads ``games.version`` through the
request's session (a GET's is the reader's: on SQLite it reads without waiting for the
writer's turn) and, while nothing changed, answers an empty 304. When the version moved
on, the 200 says so (with a sentence for the player) and the script fetches the page
again (header ``X-Scorekeeper-Live``) and swaps its ``data-live-region`` parts. Nothing
is held open and nothing lives in one process, so any number of workers and machines
on one database serve it; ``bench/live.py`` measures it with 200 watching phones.
"""

from __future__ import annotations

from flask import abort, jsonify, request
from flask_babel import gettext as _
from sqlalchemy import select
from werkzeug.wrappers import Response

from ..db import get_session
from ..models import Change, Game
from . import bp

CACHE_CONTROL = "private, no-cache"  # a cache may keep an answer but must ask first
VARY = "Cookie, Accept-Language"  # the 200's sentence is in the reader's language


@bp.get("/g/<game_id>/live")
def live(game_id: str) -> Response:
    """The game's version as an ETag: 304 while unchanged, else 200 with what changed."""
    version = get_session().scalar(select(Game.version).where(Game.id == game_id))
    if version is None:
        abort(404)
    etag = str(version)
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        response = jsonify(
            version=version,
            changed=_changed(game_id),
            kept=_("What you typed is kept; check the sheet before you save."),
        )
    response.set_etag(etag)
    response.headers["Cache-Control"] = CACHE_CONTROL
    response.headers["Vary"] = VARY
    return response


def _changed(game_id: str) -> str:
    """What the latest change to the hands was, as the history words it."""
    change = get_session().scalars(
        select(Change)
        .where(Change.game_id == game_id, Change.hand_number.is_not(None))
        .order_by(Change.id.desc())
        .limit(1)
    ).first()
    if change is None:
        alone: str = _("The sheet changed on another phone.")
        return alone
    n = change.hand_number
    words = {
        "add": _("hand %(n)s added", n=n),
        "edit": _("hand %(n)s changed", n=n),
        "delete": _("hand %(n)s deleted", n=n),
        "undo": _("hand %(n)s undone", n=n),
        "restore": _("hand %(n)s restored", n=n),
    }
    what = words.get(change.action, words["edit"])
    sentence: str = _("The sheet changed on another phone: %(what)s.", what=what)
    return sentence
