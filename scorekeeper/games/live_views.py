"""The live sheet: open pages of a game learn of another phone's change within a second.

``static/live.js`` asks ``GET /g/<id>/live`` every second with ``If-None-Match`` set to
the version its page was drawn from. The answer is one indexed read of ``games.version``
and, while nothing changed, an empty 304. When the version moved on, the 200 says so
(with a sentence for the player) and the script fetches the page again (header
``X-Scorekeeper-Live``) and swaps its ``data-live-region`` parts. Nothing is held
open and nothing lives in one process, so any number of workers and machines on one
database serve it; the README's "Live sheet" section has the measurements behind it.

The 304s are nearly all of the traffic (200 watching phones: 200 a second), so they
are answered below Flask (``_answer_unchanged``), and on SQLite by a plain read that
skips the turn every other request takes at the database file (``db.py``): in WAL mode
a reader neither waits for the writer nor holds it up.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Callable, Iterable
from typing import Any, cast

from flask import Flask, abort, current_app, jsonify, request
from flask.blueprints import BlueprintSetupState
from flask_babel import gettext as _
from sqlalchemy import Engine, event, select
from werkzeug.wrappers import Response

from ..db import get_session
from ..models import Change, Game
from ..security import GAME_ID, HEADERS
from . import bp

# The header live.js sends when it fetches a page again in the background.
LIVE_HEADER = "X-Scorekeeper-Live"
LIVE_PATH = re.compile(r"/g/(?P<game_id>[^/]+)/live")
CACHE_CONTROL = "private, no-cache"  # a cache may keep an answer but must ask first
VARY = "Cookie, Accept-Language"  # the 200's sentence is in the reader's language
READER = "scorekeeper.live_reader"


class _Connection:
    """One thread's connection for reading versions, and whether it has been closed."""

    __slots__ = ("closed", "conn", "in_use")

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.in_use = threading.Lock()
        self.closed = False

    def close(self) -> None:
        self.closed = True
        self.conn.close()


def version_reader(engine: Engine) -> Callable[[str], int | None]:
    """A function reading a game's version (``None``: no such game), for any thread.

    Each thread keeps a connection of its own in autocommit mode, so a poll is one
    round trip to the database: no pool checkout, ping, BEGIN or ROLLBACK around it,
    and (SQLite) none of the turn-taking of ``db.py``.
    """
    database = engine.url.database
    if engine.dialect.name == "sqlite" and database and database != ":memory:":
        path = database

        def connect() -> Any:
            return sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)

        query = "SELECT version FROM games WHERE id = ?"
    elif engine.dialect.driver == "psycopg":
        import psycopg

        conninfo = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

        def connect() -> Any:
            return psycopg.connect(conninfo, autocommit=True)

        query = "SELECT version FROM games WHERE id = %s"
    else:

        def read_pooled(game_id: str) -> int | None:
            with engine.connect() as conn:
                version = conn.execute(select(Game.version).where(Game.id == game_id)).scalar()
            return None if version is None else int(version)

        return read_pooled
    local = threading.local()
    # Every connection opened. Each has a lock held while a read is on it, so the
    # disposing thread closes it only between two reads (closing an sqlite3 connection
    # while another thread reads on it crashes the process), and marks it closed, so
    # the next read on that thread opens a new one instead of failing.
    opened: list[_Connection] = []
    lock = threading.Lock()

    @event.listens_for(engine, "engine_disposed")
    def _close_all(_engine: Engine) -> None:
        with lock:
            for entry in opened:
                with entry.in_use:
                    entry.close()
            opened.clear()

    def read(game_id: str) -> int | None:
        failed = False
        while True:
            entry: _Connection | None = getattr(local, "entry", None)
            if entry is None or entry.closed:
                entry = local.entry = _Connection(connect())
                with lock:
                    opened.append(entry)
            error: Exception | None = None
            with entry.in_use:
                if entry.closed:  # the disposal closed it just now: not a failure
                    continue
                try:
                    row = entry.conn.execute(query, (game_id,)).fetchone()
                except Exception as exc:
                    entry.close()
                    error = exc
            if error is None:
                return None if row is None else int(row[0])
            # A connection the server closed (a restart): once more on a new one.
            with lock:  # taken with in_use let go, as the disposal takes them in turn
                if entry in opened:
                    opened.remove(entry)
            if failed:
                raise error
            failed = True

    return read


@bp.record_once
def _answer_unchanged(state: BlueprintSetupState) -> None:
    """Put the 304 in front of the app: no request context, session or template."""
    app = cast(Flask, state.app)
    read = version_reader(app.extensions["scorekeeper.engine"])
    app.extensions[READER] = read
    inner = app.wsgi_app
    headers = [*HEADERS.items(), ("Cache-Control", CACHE_CONTROL), ("Vary", VARY)]

    def wsgi(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        asked = environ.get("HTTP_IF_NONE_MATCH")
        if asked and environ.get("REQUEST_METHOD") == "GET":
            match = LIVE_PATH.fullmatch(environ.get("PATH_INFO", ""))
            if match and GAME_ID.fullmatch(match["game_id"]):
                version = read(match["game_id"])
                if version is not None and asked == f'"{version}"':
                    start_response("304 NOT MODIFIED", [*headers, ("ETag", asked)])
                    return []
        return inner(environ, start_response)

    app.wsgi_app = wsgi  # type: ignore[method-assign]


@bp.app_template_global()
def live_fetch() -> bool:
    """Whether this request is live.js fetching the page again: such a fetch must not
    touch the session (a flash message or a PIN granted meanwhile would be lost)."""
    return request.headers.get(LIVE_HEADER) == "1"


@bp.get("/g/<game_id>/live")
def live(game_id: str) -> Response:
    """The game's version as an ETag: 304 while unchanged, else 200 with what changed."""
    version = current_app.extensions[READER](game_id)
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
