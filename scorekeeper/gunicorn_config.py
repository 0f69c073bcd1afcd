"""gunicorn's hooks for ``scorekeeper serve`` (``--config=python:scorekeeper.gunicorn_config``),
and what its workers serve.

gunicorn reads this module in its master process for its settings, so it imports
nothing of the app: the logger that hides edit secrets, the master's open-file limit,
the workers' start. Each worker then builds the app through ``threaded``: gunicorn's
asgi worker reads every connection on its event loop, and a request reaches the
app, on one of the worker's threads, only once it has come in whole (docs/deploy.md).
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import logging
import re
import resource
import sys
import tempfile
import threading
from collections.abc import Awaitable, Callable, Iterable, Iterator, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import IO, Any
from urllib.parse import unquote_to_bytes

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

# A request body is kept in memory up to this size, in a temporary file beyond (an
# import of a large backup).
SPOOL = 1024 * 1024
# An answer's first bytes that a thread collects before the event loop sends them:
# a page, a PDF, a stylesheet whole; a larger answer (an export) follows in pieces.
BUFFERED = 4 * 1024 * 1024
# The open-file limit the master raises its soft limit towards (never past the hard
# one): each connection, slow or not, is one open file of a worker.
OPEN_FILES = 65536
# The environ key of the event set once a request's client has gone (the app reads it:
# printing/render.py, which names it too).
CLIENT_GONE = "scorekeeper.client_gone"

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


class ThreadedWSGI:
    """A WSGI app served as an ASGI app by gunicorn's asgi worker: each request is
    read whole on the worker's event loop, then run on one of ``threads`` threads of
    the worker, which also collect its answer; the event loop sends it.

    A client that sends slowly only holds its connection on the event loop; no
    thread waits for it. One that leaves before its body is in, or stops sending it
    for gunicorn's ``timeout``, never reaches the app: it is answered 408; a body over
    ``most_body`` bytes (the largest the app takes) is answered 413. A thread
    hands its request back once, with the answer's first ``BUFFERED`` bytes, so that a
    save does not wait on the event loop between its pieces while a print holds the
    interpreter; a longer answer follows a piece at a time.
    """

    def __init__(self, app: Callable[..., Iterable[bytes]], threads: int,
                 most_body: int) -> None:
        self.app = app
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="app")
        self.most_body = most_body  # a longer body is refused (413) before the app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive,
                       send: Send) -> None:
        if scope["type"] == "lifespan":  # nothing to do at the worker's start or end
            while True:
                kind = (await receive())["type"].removeprefix("lifespan.")
                await send({"type": f"lifespan.{kind}.complete"})
                if kind == "shutdown":
                    return
        if scope["type"] != "http":  # a websocket: not served
            return
        loop = asyncio.get_running_loop()
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if declared.isdigit() and int(declared) > self.most_body:
            await refuse(send, 413, b"Content Too Large")
            return
        with tempfile.SpooledTemporaryFile(max_size=SPOOL) as body:
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    # http.disconnect: the client left (then gunicorn drops what is
                    # sent), or sent nothing more for gunicorn's ``timeout``.
                    await refuse(send, 408, b"Request Timeout")
                    return
                body.write(message.get("body", b""))
                if body.tell() > self.most_body:  # a chunked body
                    await refuse(send, 413, b"Content Too Large")
                    return
                if not message.get("more_body", False):
                    break
            body.seek(0)
            environ = wsgi_environ(scope, body)
            # Set once the client closes its connection: the app can leave work nobody
            # will receive (a PDF not typeset for a client that gave up waiting).
            gone = environ[CLIENT_GONE] = threading.Event()
            watch = asyncio.ensure_future(_watch_for_disconnect(receive, gone))
            answer = _Answer(self.app, environ)
            try:
                await self._run(loop, answer, send)
            finally:
                watch.cancel()

    async def _run(self, loop: asyncio.AbstractEventLoop, answer: _Answer, send: Send) -> None:
        """Run the app on a thread and send its answer."""
        await loop.run_in_executor(self.pool, answer.start)
        await send({"type": "http.response.start", "status": answer.status,
                    "headers": answer.headers})
        try:
            while answer.more:
                await send({"type": "http.response.body", "body": answer.take(),
                            "more_body": True})
                await loop.run_in_executor(self.pool, answer.next)
            await send({"type": "http.response.body", "body": answer.take()})
        finally:
            if answer.open:
                await loop.run_in_executor(self.pool, answer.close)


async def _watch_for_disconnect(receive: Receive, gone: threading.Event) -> None:
    """Set ``gone`` when the client closes its connection: once a request's body is in,
    gunicorn's ``receive`` answers only that (``http.disconnect``)."""
    while (await receive())["type"] != "http.disconnect":
        pass
    gone.set()


async def refuse(send: Send, status: int, reason: bytes) -> None:
    """Answer ``status`` with its ``reason`` as the text, and close the connection."""
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": reason})


class _Answer:
    """One request's run of the WSGI app, on a thread of the pool: ``start`` calls
    the app and collects its first ``BUFFERED`` bytes, ``next`` the next piece."""

    def __init__(self, app: Callable[..., Iterable[bytes]], environ: dict[str, Any]) -> None:
        self.app, self.environ = app, environ
        self.status = 500
        self.headers: list[tuple[bytes, bytes]] = []
        self.pieces: list[bytes] = []
        self.more = False  # the app has more to give after ``pieces``
        self.open = False  # the app's iterable is not closed yet
        self.sent = False  # the status and headers have left
        self._iterator: Iterator[bytes] = iter(())
        self._iterable: Iterable[bytes] = ()

    def start_response(self, status: str, headers: list[tuple[str, str]],
                       exc_info: Any = None) -> Callable[[bytes], None]:
        if exc_info is not None and self.sent:
            raise exc_info[1].with_traceback(exc_info[2])
        self.status = int(status.split(" ", 1)[0])
        self.headers = [(name.lower().encode("latin-1"), value.encode("latin-1"))
                        for name, value in headers]
        return self.pieces.append

    def start(self) -> None:
        self._iterable = self.app(self.environ, self.start_response)
        self.open = True
        try:
            self._iterator = iter(self._iterable)
            self.next(BUFFERED)
        except BaseException:
            self.close()
            raise
        self.sent = True

    def next(self, enough: int = 1) -> None:
        """Collect pieces of the answer until there are ``enough`` bytes, or none is
        left (then close the app's iterable)."""
        held = sum(len(piece) for piece in self.pieces)
        for piece in self._iterator:
            self.pieces.append(piece)
            held += len(piece)
            if held >= enough:
                self.more = True
                return
        self.more = False
        self.close()

    def take(self) -> bytes:
        taken = b"".join(self.pieces)
        self.pieces.clear()
        return taken

    def close(self) -> None:
        if self.open:
            self.open = False
            close = getattr(self._iterable, "close", None)
            if close is not None:
                close()


def wsgi_environ(scope: MutableMapping[str, Any], body: IO[bytes]) -> dict[str, Any]:
    """The WSGI environ (PEP 3333) of an ASGI HTTP request whose whole body is
    ``body``: the path percent-decoded into bytes shown as Latin-1, as gunicorn's
    own workers give it."""
    raw_path = scope.get("raw_path") or scope["path"].encode("utf-8")
    server_name, server_port = scope.get("server") or ("localhost", 80)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": scope.get("root_path", "").encode("utf-8").decode("latin-1"),
        "PATH_INFO": unquote_to_bytes(raw_path).decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": str(server_name),
        "SERVER_PORT": str(server_port),
        "SERVER_PROTOCOL": f"HTTP/{scope['http_version']}",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.input_terminated": True,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if scope.get("client"):
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = scope["client"][0], str(scope["client"][1])
    for name, value in scope["headers"]:
        key = name.decode("latin-1").upper().replace("-", "_")
        if key not in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            key = f"HTTP_{key}"
        text = value.decode("latin-1")
        environ[key] = f"{environ[key]},{text}" if key in environ else text
    return environ


def threaded(app: str, threads: int, most_body: int) -> ThreadedWSGI:
    """The WSGI app named by ``app`` (``module:name`` or ``module:factory()``, as
    gunicorn names one), served on ``threads`` threads by ``ThreadedWSGI``, which
    refuses a body over ``most_body`` bytes."""
    module, _, name = app.partition(":")
    found = getattr(importlib.import_module(module), name.removesuffix("()"))
    return ThreadedWSGI(found() if name.endswith("()") else found, threads, most_body)
