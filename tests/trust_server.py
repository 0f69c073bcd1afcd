"""Real servers for the trust tests: waitress in a child process (in a thread it is
tests/live.py), and a small HTTP client (standard library only) that keeps one
browser's cookies."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Reply:
    """What came back: status, headers (lower-case names) and the body."""

    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Browser:
    """One phone: its own cookies, a fresh connection per request (like a real race)."""

    base: str
    cookies: dict[str, str] = field(default_factory=dict)
    timeout: float = 30

    def request(self, method: str, path: str, *, body: bytes | None = None,
                headers: Mapping[str, str] | None = None) -> Reply:
        url = urllib.parse.urlsplit(self.base)
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=self.timeout)
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            data = response.read()
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    self.cookies[key.strip()] = rest.split(";", 1)[0]
            return Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, data)
        finally:
            conn.close()

    def get(self, path: str) -> Reply:
        return self.request("GET", path)

    def post_form(self, path: str, data: Mapping[str, Any]) -> Reply:
        body = urllib.parse.urlencode({k: str(v) for k, v in data.items()}).encode()
        return self.request("POST", path, body=body,
                            headers={"Content-Type": "application/x-www-form-urlencoded"})

    def post_json(self, path: str, data: Any, headers: Mapping[str, str] | None = None) -> Reply:
        return self.request("POST", path, body=json.dumps(data).encode(),
                            headers={"Content-Type": "application/json", **(headers or {})})


def hidden_fields(page: str) -> dict[str, str]:
    """The hidden inputs of a page (CSRF token, form token, version)."""
    found = {}
    for tag in re.findall(r"<input[^>]*type=\"hidden\"[^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name:
            found[name.group(1)] = value.group(1) if value else ""
    return found


def create_game(browser: Browser, **body: Any) -> dict[str, Any]:
    """A game through the API: ``{"id", "edit_secret", "view_url", "edit_url"}``."""
    reply = browser.post_json("/api/v1/games", {"players": ["Ann", "Bob"], **body})
    assert reply.status == 201, reply.text
    created: dict[str, Any] = reply.json()
    return created


def open_edit_link(browser: Browser, edit_url: str) -> None:
    """Open the creator's edit link so this browser's session may edit the game."""
    url = urllib.parse.urlsplit(edit_url)
    reply = browser.get(f"{url.path}?{url.query}")
    assert reply.status == 302, reply.text


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ChildServer:
    """The production server in a child process: ``python -m waitress --call``."""

    def __init__(self, database_url: str, port: int | None = None, threads: int = 8) -> None:
        self.database_url = database_url
        self.port = port or free_port()
        self.threads = threads
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20) -> None:
        env = {**os.environ, "SCOREKEEPER_DATABASE_URL": self.database_url}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "waitress", "--host=127.0.0.1", f"--port={self.port}",
             f"--threads={self.threads}", "--call", "scorekeeper:create_app"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"the server exited: {err}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        self.kill()
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """SIGKILL: no chance to finish requests, close files or roll back."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        if self.process is not None:
            self.process.wait(timeout=10)
            if self.process.stderr:
                self.process.stderr.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process is not None and self.process.stderr:
            self.process.stderr.close()


class ServeProcess:
    """``scorekeeper serve`` as ``make run`` starts it (migrations, then gunicorn's
    master and ``workers`` workers) in a process group of its own, on ``database_url``."""

    def __init__(self, database_url: str, folder: Path, workers: int = 1,
                 env: Mapping[str, str] | None = None) -> None:
        self.database_url = database_url
        self.folder = folder
        self.workers = workers
        self.env = dict(env or {})
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log = folder / "server.log"  # standard error: gunicorn's error log
        self.access_log = folder / "access.log"  # standard output

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> None:
        """Start it and wait until it answers a static file."""
        env = {**os.environ, "SCOREKEEPER_DATABASE_URL": self.database_url,
               "XDG_RUNTIME_DIR": str(self.folder), **self.env}  # gunicorn's control socket
        with self.log.open("ab") as err, self.access_log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "scorekeeper", "--instance",
                 str(self.folder / "instance"), "serve", "--host=127.0.0.1",
                 f"--port={self.port}", f"--workers={self.workers}"],
                cwd=self.folder, env=env, stdout=out, stderr=err,
                start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            try:
                Browser(self.base, timeout=30).get("/static/style.css")
                return
            except OSError:
                assert self.process.poll() is None, self.log.read_text()
                assert time.monotonic() < deadline, "the server did not answer in time"
                time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL to the master and every worker at once: nothing is finished, closed
        or rolled back."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        """SIGTERM (SIGKILL if that takes more than 30 s)."""
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()


T = TypeVar("T")


def at_once(calls: list[Callable[[], T]]) -> list[T]:
    """Run the calls in threads released together."""
    gate = threading.Barrier(len(calls))

    def run(call: Callable[[], T]) -> T:
        gate.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))
