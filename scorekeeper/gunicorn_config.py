"""gunicorn's hooks for ``scorekeeper serve`` (``--config=python:scorekeeper.gunicorn_config``),
and what its workers serve.

gunicorn reads this module in its master process for its settings, so it imports
nothing of the app: the logger that hides edit secrets and tells a client that left
from a server error, the master's open-file limit, the workers' start and their
replacement, no control socket. Each worker then builds the app through ``threaded``:
gunicorn's asgi worker reads every connection on its event loop, and a request reaches
the app, on one of the worker's threads, only once it has come in whole (docs/deploy.md).
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
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import IO, Any
from urllib.parse import unquote_to_bytes

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

# A request body is kept in memory up to this size, in a temporary file beyond (a
# hand's form is a few hundred bytes; a large import file goes to disk): three hundred
# connections each sending a body at once hold at most 300 × 64 KiB.
SPOOL = 64 * 1024
# An answer's first bytes that a thread collects before the event loop sends them:
# a page, a PDF, a stylesheet whole; a larger answer (an export) follows in pieces.
BUFFERED = 4 * 1024 * 1024
# What the event loop hands gunicorn at a time: a client that reads nothing holds at
# most this much (and gunicorn's 64 KiB of write buffer) in the worker's memory.
PIECE = 64 * 1024
# How long a client may go without reading any of its answer, or sending any of its
# body, before it is dropped: gunicorn's ``timeout`` (30 s unless set), which each
# worker gives the app in ``post_worker_init``.
DEADLINE = 30.0
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


_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\\]")
GONE = "499"  # the status logged for a client that left before its answer was out


def printable(text: str) -> str:
    r"""``text`` as one piece of a log line, a terminal unharmed: every control
    character written ``\xNN``, and a backslash ``\\`` so that no escape can be typed
    (gunicorn itself writes a quote ``\"``).

    >>> print(printable('/g/x\n127.0.0.1 "GET /admin" \x1b[31m \\x0a'))
    /g/x\x0a127.0.0.1 "GET /admin" \x1b[31m \\x0a
    """
    return _UNPRINTABLE.sub(
        lambda found: "\\\\" if found[0] == "\\" else f"\\x{ord(found[0]):02x}", text)


def client_left(resp: Any, method: str | None) -> bool:
    """Whether gunicorn's record of an answer ``resp`` says its client left before
    the answer was out: gunicorn's own 500, with no headers and no byte, stands in for
    an answer the app never got to start (``ThreadedWSGI`` answers every request it
    gets, so that happens only when nobody is there to take it), and an answer sent
    short of its ``Content-Length``."""
    headers = {str(_text(name)).lower(): _text(value) for name, value in resp.headers or ()}
    if str(resp.status) == "500" and not headers and not resp.sent:
        return True
    declared = headers.get("content-length", "")
    return (method != "HEAD" and str(resp.status) not in ("204", "304")
            and declared.isdigit() and (resp.sent or 0) < int(declared))


def _text(value: str | bytes) -> str:
    """A header's name or value as gunicorn keeps it (bytes from the app, or text)."""
    return value.decode("latin-1") if isinstance(value, bytes) else value


class SecretsHiddenLogger(Logger):
    """gunicorn's logger, with edit secrets hidden from its error and access logs, a
    request's fields in its access log escaped (``printable``: a path holding a line
    break or a terminal's escape writes no line of its own and no colour), and a client
    that left before its answer was out logged as ``GONE``, never as a server error."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            log.addFilter(_HideSecrets())

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        found: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        if client_left(resp, environ.get("REQUEST_METHOD")):
            found["s"] = GONE
        return {key: printable(value) if isinstance(value, str) else value
                for key, value in found.items()}


logger_class = "scorekeeper.gunicorn_config.SecretsHiddenLogger"

# A worker is replaced after this many requests, each after a different number
# (gunicorn adds 0 to ``max_requests_jitter`` at random), so that what a worker's memory
# grew to under load goes back to the system, and never all workers at once.
max_requests = 5000
max_requests_jitter = 500
# gunicorn's control socket (``gunicornc``) is one path per user by default, which a
# second server of the same user takes over: none is opened.
control_socket_disable = True


def post_worker_init(worker: Any) -> None:
    """Once a worker has built the app: collect what building it left over, then keep
    every object alive now out of the garbage collector's full passes (``gc.freeze``).

    The built app is about 165,000 objects (Flask, SQLAlchemy, Jinja, Babel, the
    rules), nearly all alive for as long as the worker. Python's full collection
    walks every one of them: 130–160 ms here with one thread, 160–430 ms in a
    worker whose other threads were saving hands (PostgreSQL, ``bench/load.py``),
    and for that time no thread of the worker runs. Frozen, they are never walked
    again; a full collection walks the few thousand objects made since.

    Then the app learns gunicorn's ``timeout``: the time a client may take to read
    any of its answer (``ThreadedWSGI.deadline``), as it may to send any of its body.
    """
    gc.collect()
    gc.freeze()
    worker.log.info("built app frozen out of garbage collection: %d objects",
                    gc.get_freeze_count())
    app = getattr(worker, "asgi", None)
    if isinstance(app, ThreadedWSGI) and worker.cfg.timeout > 0:
        app.deadline = float(worker.cfg.timeout)


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
    for gunicorn's ``timeout``, never reaches the app: it is answered 408. A body is
    refused (413) before any of it is read when its ``Content-Length`` is over its
    address's limit (``larger``, else ``most_body``), and a body without a length
    (chunked) is refused (411): a body's length is known before it is read. An HTTP/1.1
    request without one ``Host`` is answered 400, as HTTP/1.1 says.

    A thread hands its request back once, with the answer's first ``BUFFERED`` bytes, so
    that a save does not wait on the event loop between its pieces while a print holds
    the interpreter; a longer answer follows a piece at a time. The event loop hands
    them to gunicorn ``PIECE`` bytes at a time; a client that reads none of them for
    ``deadline`` seconds is dropped, and what was left of its answer with it.
    """

    def __init__(self, app: Callable[..., Iterable[bytes]], threads: int, most_body: int,
                 larger: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="app")
        self.most_body = most_body  # a longer body is refused (413) before the app
        self.larger = dict(larger or {})  # path: the longest body it takes, if longer
        self.deadline = DEADLINE

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
        most_body = self.larger.get(scope["path"], self.most_body)
        refused = refusal(scope["http_version"], scope["headers"], most_body)
        if refused is not None:
            await refuse(send, *refused)
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
                if body.tell() > most_body:  # longer than its Content-Length said
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
            try:
                await self.answer(_Answer(self.app, environ), send)
            finally:
                watch.cancel()

    async def answer(self, answer: _Answer, send: Send) -> None:
        """Run the app on a thread of the pool, then send its answer: ``PIECE`` bytes
        at a time, each within ``deadline`` seconds, or the client is dropped."""
        loop = asyncio.get_running_loop()
        try:
            try:
                await loop.run_in_executor(self.pool, answer.start)
            except Exception:  # Flask answers its own errors: this is a bug below it
                logging.getLogger("gunicorn.error").exception("the app failed")
                await refuse(send, 500, b"Internal Server Error")
                return
            await asyncio.wait_for(send({"type": "http.response.start",
                                         "status": answer.status,
                                         "headers": answer.headers}), self.deadline)
            while True:
                held = answer.take()
                for at in range(0, len(held), PIECE):
                    await asyncio.wait_for(send({
                        "type": "http.response.body", "body": held[at:at + PIECE],
                        "more_body": True}), self.deadline)
                del held
                if not answer.more:
                    break
                await loop.run_in_executor(self.pool, answer.next)
            await asyncio.wait_for(send({"type": "http.response.body", "body": b""}),
                                   self.deadline)
        except TimeoutError:
            # The client reads nothing: what is left of its answer is let go, and
            # gunicorn closes the connection. An answer of a said length ends here
            # (short of it, which is how the client learns it was cut); one without
            # never ends, and gunicorn says so in its error log.
            logging.getLogger("gunicorn.error").warning(
                "%s %s: the client read none of its answer for %g s; dropped",
                answer.environ["REQUEST_METHOD"],
                printable(answer.environ["PATH_INFO"].encode("latin-1").decode("utf-8", "replace")),
                self.deadline)
            if any(name == b"content-length" for name, _value in answer.headers):
                await send({"type": "http.response.body", "body": b""})
        finally:
            if answer.open:
                await loop.run_in_executor(self.pool, answer.close)


def refusal(version: str, headers: list[tuple[bytes, bytes]],
            most_body: int) -> tuple[int, bytes] | None:
    """The status and text a request is refused with from its headers alone, or
    ``None`` when its body may be read: HTTP/1.1 wants one ``Host`` (RFC 9112, 3.2);
    a body's length is said before it is read, and is at most ``most_body``.

    >>> refusal("1.1", [(b"host", b"x"), (b"content-length", b"20")], 10)
    (413, b'Content Too Large')
    >>> refusal("1.1", [], 10), refusal("1.0", [], 10)
    ((400, b'Bad Request: HTTP/1.1 needs one Host header'), None)
    """
    names = [name.lower() for name, _value in headers]
    hosts = names.count(b"host")
    if hosts > 1 or (hosts == 0 and version == "1.1"):
        return 400, b"Bad Request: HTTP/1.1 needs one Host header"
    if b"transfer-encoding" in names:
        return 411, b"Length Required"
    declared = dict(headers).get(b"content-length", b"0")
    if declared.isdigit() and int(declared) > most_body:
        return 413, b"Content Too Large"
    return None


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


def threaded(app: str, threads: int, most_body: int,
             larger: Mapping[str, int] | None = None) -> ThreadedWSGI:
    """The WSGI app named by ``app`` (``module:name`` or ``module:factory()``, as
    gunicorn names one), served on ``threads`` threads by ``ThreadedWSGI``, which
    refuses a body over ``most_body`` bytes, or over ``larger[path]`` for a path that
    takes a longer one."""
    module, _, name = app.partition(":")
    found = getattr(importlib.import_module(module), name.removesuffix("()"))
    return ThreadedWSGI(found() if name.endswith("()") else found, threads, most_body,
                        larger)
