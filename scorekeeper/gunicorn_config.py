"""gunicorn's hooks for ``scorekeeper serve`` (``--config=python:scorekeeper.gunicorn_config``),
and what its workers serve.

gunicorn reads this module in its master process for its settings, so it imports
nothing of the app: the logger that hides edit secrets, the master's open-file limit,
the workers' start. Each worker then builds the app through ``threaded``: gunicorn's
asgi worker reads every connection on its event loop, and a request reaches the
app, on a thread of its own, only once it has come in whole (docs/deploy.md).
"""

from __future__ import annotations

import gc
import importlib
import logging
import re
import resource
import tempfile
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[..., Awaitable[None]]  # (scope, receive, send), as a2wsgi types them

# A request body is kept in memory up to this size, in a temporary file beyond (an
# import of a large backup), and handed to the app in pieces of CHUNK.
SPOOL = 1024 * 1024
CHUNK = 64 * 1024
# The open-file limit the master raises its soft limit towards (never past the hard
# one): each connection, slow or not, is one open file of a worker.
OPEN_FILES = 65536

# An edit link's secret: "key=" (or "key%3D") and what follows up to a space, "&" or a
# quote. "/g/<id>%3Fkey=<secret>" reaches the access log as a path, and a request line
# gunicorn cannot parse (a raw "é" or a tab in it) reaches the error log whole when a
# threaded worker serves (the asgi worker answers it 400 and logs nothing).
_SECRET = re.compile(r"(?i)(?:(?<![a-z0-9_])|(?<=%3f)|(?<=%26))(key(?:=|%3d))[^ &\"']*")


def without_secrets(text: str) -> str:
    """``text`` with every edit secret in it hidden.

    >>> without_secrets("Invalid Request Line 'GET /g/x?key=s\\xe9cr\\tet HTTP/1.1'")
    "Invalid Request Line 'GET /g/x?key=[hidden] HTTP/1.1'"
    >>> without_secrets("GET /g/x%3Fkey%3Dsecret HTTP/1.1 monkey=1")
    'GET /g/x%3Fkey%3D[hidden] HTTP/1.1 monkey=1'
    """
    return _SECRET.sub(r"\1[hidden]", text)


class _HideSecrets(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = without_secrets(record.getMessage()), ()
        return True


class SecretsHiddenLogger(Logger):
    """gunicorn's logger, with edit secrets hidden from its error and access logs."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            log.addFilter(_HideSecrets())


logger_class = "scorekeeper.gunicorn_config.SecretsHiddenLogger"


def post_worker_init(worker: Any) -> None:
    """Once a worker has built the app: collect what building it left over, then keep
    every object alive now out of the garbage collector's full passes (``gc.freeze``).

    The built app is about 165,000 objects (Flask, SQLAlchemy, Jinja, Babel, the
    rules), nearly all alive for as long as the worker. Python's full collection
    walks every one of them: 130–160 ms here with one thread, 160–430 ms in a
    worker whose other threads were saving hands (PostgreSQL, ``bench/load.py``),
    and for that time no thread of the worker runs. Frozen, they are never walked
    again; a full collection walks the few thousand objects made since.
    """
    gc.collect()
    gc.freeze()
    worker.log.info("built app frozen out of garbage collection: %d objects",
                    gc.get_freeze_count())


def on_starting(server: Any) -> None:
    """Before the workers start: raise this process's soft limit on open files to
    its hard one (at most ``OPEN_FILES``); the workers inherit it.

    A connection costs a worker one open file and a few kilobytes, not a thread, for
    as long as its client takes to send the request; many desktops start programs
    with a soft limit of 1024, which a few hundred slow clients per worker would
    reach. Where the limit cannot be raised, it stays as it was.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = OPEN_FILES if hard == resource.RLIM_INFINITY else min(hard, OPEN_FILES)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError) as error:
            server.log.warning("open-file limit stays at %d: %s", soft, error)


class WholeRequest:
    """ASGI middleware: a request's whole body is read, on the event loop, before the
    app is called; the app then reads it from memory (or a temporary file past
    ``SPOOL``), never from the client.

    A client that sends slowly only holds its connection on the event loop; no
    thread of the app waits for it. One that leaves before its body is in, or stops
    sending it, never reaches the app: it is answered 408.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive,
                       send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        with tempfile.SpooledTemporaryFile(max_size=SPOOL) as body:
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    # http.disconnect: the client left (then gunicorn drops what is
                    # sent), or sent nothing more for gunicorn's ``timeout``.
                    await send({"type": "http.response.start", "status": 408,
                                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                            (b"connection", b"close")]})
                    await send({"type": "http.response.body", "body": b"Request Timeout"})
                    return
                body.write(message.get("body", b""))
                if not message.get("more_body", False):
                    break
            size = body.tell()
            body.seek(0)
            told_all = False

            async def replay() -> Message:
                nonlocal told_all
                if told_all:  # the body is all read: what comes next (a disconnect)
                    return await receive()
                chunk = body.read(CHUNK)
                told_all = body.tell() >= size
                return {"type": "http.request", "body": chunk, "more_body": not told_all}

            await self.app(scope, replay, send)


def threaded(app: str, threads: int) -> ASGIApp:
    """The WSGI app named by ``app`` (``module:name`` or ``module:factory()``, as
    gunicorn names one), served by ``threads`` threads behind ``WholeRequest``.

    a2wsgi's ``WSGIMiddleware`` runs each request in a pool of ``threads`` threads of
    this worker, so a print and a save run side by side as they did on gunicorn's
    gthread worker; its pool is shared by every connection of the worker.
    """
    from a2wsgi import WSGIMiddleware

    module, _, name = app.partition(":")
    found = getattr(importlib.import_module(module), name.removesuffix("()"))
    wsgi = found() if name.endswith("()") else found
    return WholeRequest(WSGIMiddleware(wsgi, workers=threads))
