"""How much one game may hold, and how fast one client may create games and groups,
and import files (Flask-Limiter).

**Sizes.** A game holds at most ``MOST_HANDS`` hands (deals) and its history at most
``MOST_CHANGES`` entries; saving past either is refused (``services.games``), so every
game an export can write is one an import reads back: both importers take a game of
``MOST_HANDS`` hands and ``MOST_CHANGES`` changes, and ``/import`` files of up to
``IMPORT_BYTES`` — the most such a game's export can weigh, from the most one hand and
one history entry can take in it (``EXPORT_HAND_BYTES``, ``EXPORT_CHANGE_BYTES``,
which ``tests/test_trust_backup.py`` measures on the heaviest hand of every kind).

**Rates.** Creating needs no account, so without a limit one client could fill the database (a
thousand games in a few seconds; one import file makes thousands). Each client (its
address, ``request.remote_addr``) may create ``RATELIMIT_CREATE`` things — games and
groups, through the API and the forms together — keep ``RATELIMIT_RULINGS`` rulings
(``POST /api/v1/rulings`` and the checkers' "Keep this ruling" together) and import
``RATELIMIT_IMPORT`` files; only what was created counts (a form sent back with a
mistake costs nothing). Past the limit the answer is 429 with ``Retry-After`` (seconds),
in the API's ``{"errors": [...]}`` shape under ``/api/``.

Settings (``config.py`` or the environment): ``SCOREKEEPER_RATELIMIT_CREATE``,
``SCOREKEEPER_RATELIMIT_RULINGS`` and ``SCOREKEEPER_RATELIMIT_IMPORT`` in
Flask-Limiter's notation (``"30 per minute"``, ``"10 per hour;50 per day"``),
``SCOREKEEPER_RATELIMIT_ENABLED=0`` to switch the limits off. The counts are kept in
each worker process's memory (``memory://``): with four gunicorn workers a client may
get up to four times the limit, and a restart forgets them; ``RATELIMIT_STORAGE_URI``
names a shared store (Redis, Memcached, MongoDB) where that matters. Behind a reverse
proxy, set ``SCOREKEEPER_PROXIES`` to the number of proxies, so each client is counted
by the address the proxy forwards (``X-Forwarded-For``) rather than by the proxy's own.
"""

from __future__ import annotations

import math
import time
from typing import Any

from flask import Flask, current_app
from flask_babel import gettext as _
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from werkzeug.wrappers import Response

# The longest real games run to a few hundred hands; a game's every view, its print and
# its export grow with its hands, so the limit is one no real game meets, not one that
# lets a single game weigh on everyone. A game stored before the limit came down to this
# keeps every hand: it opens, prints and exports as before, and takes no new hand.
MOST_HANDS = 1_000
ROSTER_MAX = 30  # players of a group
MOST_CHANGES = 2 * MOST_HANDS  # a hand entered, and on average one correction of it
# The most one hand (deal) takes in an export (``indent=1``), and one history entry (a
# correction: the hand before and after), with 40-letter Cyrillic names: a Remi deal of
# four players with every card typed is about 6.8 kB, a correction of a partnership deal
# of two hands with every card about 3.5 kB.
EXPORT_HAND_BYTES = 10_000
EXPORT_CHANGE_BYTES = 4_500
IMPORT_BYTES = 64 * 1024 + MOST_HANDS * EXPORT_HAND_BYTES + MOST_CHANGES * EXPORT_CHANGE_BYTES
# Every other request's body: a hand with every card typed is a few hundred bytes.
# (``MAX_CONTENT_LENGTH``; ``scorekeeper serve`` refuses a longer body before reading it.)
MOST_BODY = 1024 * 1024
# The addresses that take a longer body, and how long: only the import's form.
LARGE_BODIES = {"/import": IMPORT_BYTES}

DEFAULTS = {
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_CREATE": "30 per minute;300 per day",
    "RATELIMIT_IMPORT": "10 per hour",
    "RATELIMIT_RULINGS": "30 per minute;300 per day",
}

limiter = Limiter(key_func=get_remote_address)


def _created(response: Response) -> bool:
    """Only an answer that created something counts: 201, or a form's redirect."""
    return response.status_code < 400


def _create_limit() -> str:
    return str(current_app.config["RATELIMIT_CREATE"])


def _import_limit() -> str:
    return str(current_app.config["RATELIMIT_IMPORT"])


def _rulings_limit() -> str:
    return str(current_app.config["RATELIMIT_RULINGS"])


# Decorators for the views: games and groups share one count, imports have their own,
# and kept rulings theirs (the API and the checkers' "Keep this ruling" together).
create = limiter.shared_limit(_create_limit, scope="create", methods=["POST"],
                              deduct_when=_created)
imports = limiter.shared_limit(_import_limit, scope="import", methods=["POST"],
                               deduct_when=_created)
rulings = limiter.shared_limit(_rulings_limit, scope="rulings", methods=["POST"],
                               deduct_when=_created)


def init_app(app: Flask) -> None:
    """The limits on ``app`` (from its config), and the 429 answer."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    limiter.init_app(app)
    app.register_error_handler(RateLimitExceeded, _too_many)


def _too_many(exc: RateLimitExceeded) -> Any:
    """429 with ``Retry-After``: the error page, or the API's errors."""
    from .security import error_answer

    limit = limiter.current_limit
    wait = 60
    if limit is not None:  # until the window ends (its reset time is rounded up a second)
        window = limit.limit.get_expiry()
        wait = max(1, min(window, math.ceil(limit.reset_at - time.time())))
    body, status = error_answer(
        429,
        _("Too many new games, rulings or imports from this device. Try again in "
          "%(seconds)s seconds.", seconds=wait),
    )
    return body, status, {"Retry-After": str(wait)}
