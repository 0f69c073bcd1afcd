"""Live sheet: N phones watching games while a few tables save hands, against gunicorn
started as ``make run`` starts it.

    python bench/live.py [--phones 200] [--per-game 4] [--tables 4] [--pace 0.5]
                         [--seconds 7] [--rounds 2] [--interval 1.0] [--workers N] [--threads 8]
                         [--pg postgresql+psycopg://...]

Every phone does what the pages do (static/live.js): it asks ``/g/<id>/live`` with
``If-None-Match`` one interval after its last answer; on a 200 it fetches the sheet
again.

The tables save hands with nobody watching, then with the phones watching, twice over.
Prints the delay from a save's answer to each watcher having the new sheet (p50/p95,
and per save the slowest of its watchers), the hand submissions' p50/p99 without and
with watchers, the polls' cost, and errors. The guard a player would notice: every
watcher has the new sheet within 2 s (p95). A benchmark reports; it does not fail.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorekeeper.cli import APP, default_workers, gunicorn_args

ROOT = Path(__file__).resolve().parent.parent
RULES = {"preset": "classic", "target": 10000}  # long games: no hand is refused as late
HAND = json.dumps({"outcome": "knock", "knocker": 0, "knocker_deadwood": 5, "defender_deadwood": 6})
LIVE_HEADER = "X-Scorekeeper-Live"
CONTENT_LENGTH = re.compile(rb"(?i)\r\ncontent-length: *(\d+)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(
    app: str, url: str, opts: argparse.Namespace
) -> tuple[subprocess.Popen[bytes], int]:
    """gunicorn as ``make run`` starts it, on a free port."""
    port = free_port()
    args = [sys.executable, "-m", "gunicorn",
            *gunicorn_args("127.0.0.1", port, opts.workers, threads=opts.threads, app=app,
                           access_log=False)]
    # The benchmark creates a game for every four phones: past the per-client limit.
    env = {**os.environ, "SCOREKEEPER_DATABASE_URL": url, "PYTHONPATH": str(ROOT),
           "SCOREKEEPER_RATELIMIT_ENABLED": "0"}
    process = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process, port
        except OSError:
            if process.poll() is not None:
                raise SystemExit(f"server exited: {' '.join(args)}") from None
            time.sleep(0.05)
    process.kill()
    raise SystemExit("server did not start")


@dataclass
class Run:
    """What one phase measured; every list is appended to under ``lock``."""

    saves: list[float] = field(default_factory=list)  # hand submission latencies
    saved_at: dict[tuple[str, int], float] = field(default_factory=dict)  # (game, version)
    seen_at: dict[tuple[str, int, int], float] = field(default_factory=dict)  # + watcher
    polls: list[float] = field(default_factory=list)
    pages: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    stuck: int = 0  # tables still waiting for a save's answer 5 s after the end
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, kind: str) -> None:
        with self.lock:
            self.errors[kind] = self.errors.get(kind, 0) + 1


def request(conn: http.client.HTTPConnection, method: str, path: str, body: str | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """One request; like a browser, once more on a new connection when the server had
    closed the kept-alive one (gunicorn closes them after 2 s idle)."""
    for attempt in (1, 2):
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, response.read()
        except (ConnectionResetError, BrokenPipeError, http.client.RemoteDisconnected):
            conn.close()
            if attempt == 2 or method != "GET":
                raise
    raise AssertionError("not reached")


def table(port: int, game: dict[str, Any], pace: float, stop: threading.Event, run: Run) -> None:
    """One table saving a hand every ``pace`` seconds (± 20 %)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    i = 0
    while not stop.wait(pace * random.uniform(0.8, 1.2)):
        headers = {"Content-Type": "application/json", "X-Edit-Secret": game["edit_secret"],
                   "Idempotency-Key": f"{game['id']}-{i}-{random.random()}",
                   "X-Confirm": "repeat"}  # the same hand again, meant
        start = time.perf_counter()
        try:
            status, data = request(conn, "POST", f"/api/v1/games/{game['id']}/hands", HAND,
                                   headers)
        except (OSError, http.client.HTTPException) as exc:
            run.error(f"save {type(exc).__name__}")
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            continue
        done = time.perf_counter()
        if status != 201:
            run.error(f"save HTTP {status}")
            continue
        with run.lock:
            run.saves.append(done - start)
            run.saved_at[(game["id"], json.loads(data)["version"])] = done
        i += 1
    conn.close()


class Phone:
    """A kept-alive HTTP/1.1 connection, read with asyncio (cheaper than http.client,
    so that 200 phones cost the server's machine little of its CPU)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def get(self, path: str, headers: str = "") -> tuple[int, bytes]:
        for attempt in (1, 2):
            if self.streams is None:
                self.streams = await asyncio.open_connection("127.0.0.1", self.port)
            reader, writer = self.streams
            try:
                writer.write(f"GET {path} HTTP/1.1\r\nHost: phone\r\n{headers}\r\n".encode())
                head = await reader.readuntil(b"\r\n\r\n")
                if not head:
                    raise ConnectionResetError
                status = int(head[9:12])
                match = CONTENT_LENGTH.search(head)
                body = await reader.readexactly(int(match[1])) if match else b""
                return status, body
            except (OSError, asyncio.IncompleteReadError):
                # Like a browser: once more on a new connection when the server had
                # closed the kept-alive one (gunicorn closes them after 2 s idle).
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("not reached")

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


async def watch(port: int, n: int, game: dict[str, Any], opts: argparse.Namespace,
                until: float, run: dict[str, Any]) -> None:
    """One phone following a game as live.js does."""
    phone = Phone(port)
    version = game["version"]
    page = f"/g/{game['id']}"
    await asyncio.sleep(random.uniform(0, opts.interval))  # pages opened at different times
    while time.perf_counter() < until:
        start = time.perf_counter()
        try:
            status, data = await phone.get(f"{page}/live", f'If-None-Match: "{version}"\r\n')
            polled = time.perf_counter()
            if status == 200:
                new = json.loads(data)["version"]
                status, _html = await phone.get(page, f"{LIVE_HEADER}: 1\r\n")
                seen = time.perf_counter()
                if status != 200:
                    run["errors"].append(f"page HTTP {status}")
                    continue
                run["pages"].append(seen - polled)
                for v in range(version + 1, new + 1):
                    run["seen_at"].append((game["id"], v, n, seen))
                version = new
            elif status != 304:
                run["errors"].append(f"live HTTP {status}")
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            run["errors"].append(f"live {type(exc).__name__}")
            await asyncio.sleep(opts.interval)
            continue
        run["polls"].append(polled - start)
        await asyncio.sleep(opts.interval)
    phone.close()


def watchers(port: int, games: list[dict[str, Any]], opts: argparse.Namespace, until: float,
             results: Any) -> None:
    """All the phones, in a process of their own (its own GIL: the tables' timings
    in the main process are not held up by the phones' Python)."""
    run: dict[str, Any] = {"polls": [], "pages": [], "seen_at": [], "errors": []}

    async def main() -> None:
        tasks = [asyncio.create_task(watch(port, n, games[n // opts.per_game], opts, until, run))
                 for n in range(opts.phones)]
        # Requests still unanswered at the end are abandoned, not waited for.
        await asyncio.wait(tasks, timeout=max(0.0, until - time.perf_counter()) + 2)

    asyncio.run(main())
    results.put(run)


def phase(port: int, games: list[dict[str, Any]], opts: argparse.Namespace,
          watching: bool) -> tuple[Run, float]:
    run, stop = Run(), threading.Event()
    start = time.perf_counter()
    if watching:
        # perf_counter is the system's monotonic clock: the same in both processes.
        results: Any = multiprocessing.Queue()
        phones = multiprocessing.Process(
            target=watchers, args=(port, games, opts, start + opts.seconds, results))
        phones.start()
    # Daemons: a request the server never answers must not keep the benchmark
    # waiting; the tables still waiting are counted.
    tables = [threading.Thread(target=table, args=(port, g, opts.pace, stop, run), daemon=True)
              for g in games[:opts.tables]]
    for thread in tables:
        thread.start()
    time.sleep(opts.seconds)
    stop.set()
    elapsed = time.perf_counter() - start
    if watching:
        found = results.get()
        phones.join()
        run.polls, run.pages = found["polls"], found["pages"]
        run.seen_at = {(g, v, n): t for g, v, n, t in found["seen_at"]}
        for kind in found["errors"]:
            run.error(kind)
    deadline = time.monotonic() + 5
    for thread in tables:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))
    run.stuck = sum(thread.is_alive() for thread in tables)
    return run, elapsed


def api(port: int, method: str, path: str, body: Any = None) -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        status, data = request(conn, method, path, json.dumps(body),
                               {"Content-Type": "application/json"})
        assert status in (200, 201), (status, data)
        return json.loads(data)
    finally:
        conn.close()


def reset_postgres(url: str) -> None:
    """Empty the bench database (it must exist)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def delays(run: Run, opts: argparse.Namespace, games: list[dict[str, Any]]) -> dict[str, Any]:
    """Save → watcher delays; a save in the last 3 s may not have been seen yet."""
    each, slowest, missed = [], [], 0
    end = max(run.saved_at.values(), default=0) - 3
    watchers_of: dict[str, list[int]] = defaultdict(list)
    for n in range(opts.phones):
        watchers_of[games[n // opts.per_game]["id"]].append(n)
    for (game_id, version), saved in run.saved_at.items():
        if saved > end:
            continue
        late = []
        for n in watchers_of[game_id]:
            seen = run.seen_at.get((game_id, version, n))
            if seen is None:
                missed += 1
                continue
            late.append(seen - saved)
        each += late
        if late:
            slowest.append(max(late))
    return {"each": each, "slowest": slowest, "missed": missed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phones", type=int, default=200)
    parser.add_argument("--per-game", type=int, default=4, help="phones watching each game")
    parser.add_argument("--tables", type=int, default=4, help="games saving hands")
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between a table's hands")
    parser.add_argument("--seconds", type=float, default=7, help="length of each phase")
    parser.add_argument("--rounds", type=int, default=2, help="unwatched + watched phases")
    parser.add_argument("--interval", type=float, default=1.0, help="live.js's poll interval")
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help="gunicorn worker processes (default: as make run starts)")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--pg", help="a PostgreSQL URL to run against instead of SQLite")
    opts = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        url = opts.pg or f"sqlite:///{tmp}/live.sqlite"
        if opts.pg:
            reset_postgres(opts.pg)
        server, port = start_server(APP, url, opts)
        try:
            count = max(opts.tables, -(-opts.phones // opts.per_game))
            games = [api(port, "POST", "/api/v1/games", {"players": ["Ann", "Bob"], "rules": RULES})
                     for _ in range(count)]
            # Rounds of (nobody watching, everybody watching): alternating spreads any
            # drift in the machine's speed over both.
            quiet, busy = Run(), Run()
            found: dict[str, Any] = {"each": [], "slowest": [], "missed": 0}
            elapsed = 0.0
            for _ in range(opts.rounds):
                merge(quiet, phase(port, games, opts, watching=False)[0])
                for game in games:
                    game["version"] = api(port, "GET", f"/api/v1/games/{game['id']}")["version"]
                run, seconds = phase(port, games, opts, watching=True)
                merge(busy, run)
                elapsed += seconds
                for key, value in delays(run, opts, games).items():
                    found[key] += value
        finally:
            server.terminate()
            server.wait()

    report(opts, games, quiet, busy, found, elapsed)


def merge(into: Run, run: Run) -> None:
    into.saves += run.saves
    into.polls += run.polls
    into.pages += run.pages
    into.stuck += run.stuck
    for kind, n in run.errors.items():
        into.errors[kind] = into.errors.get(kind, 0) + n


def ms(values: list[float], q: float) -> str:
    return f"{percentile(values, q) * 1000:.0f} ms"


def report(opts: argparse.Namespace, games: list[dict[str, Any]], quiet: Run, busy: Run,
           found: dict[str, Any], elapsed: float) -> None:
    db = "PostgreSQL" if opts.pg else "SQLite"
    how = f"conditional polling every {opts.interval:g} s (ETag/304)"
    print(f"\nlive: {opts.phones} phones ({opts.per_game} a game, {len(games)} games), "
          f"{opts.tables} tables saving a hand every {opts.pace:g} s, {how}; gunicorn "
          f"{opts.workers} workers × {opts.threads} threads on {db}; "
          f"{opts.rounds} rounds of {opts.seconds:g} s unwatched + {opts.seconds:g} s watched; "
          f"{os.cpu_count()} CPUs")
    for label, run in (("without watchers", quiet), ("with watchers", busy)):
        print(f"  hands {label + ':':<17} {len(run.saves)}, p50 {ms(run.saves, .5)}, "
              f"p95 {ms(run.saves, .95)}, p99 {ms(run.saves, .99)}")
    ratio = percentile(busy.saves, .99) / percentile(quiet.saves, .99)
    print(f"  hand p99 with / without watchers: {ratio:.1f}×")
    print(f"  polls: {len(busy.polls)} ({len(busy.polls) / elapsed:.0f}/s), "
          f"p50 {ms(busy.polls, .5)}, p99 {ms(busy.polls, .99)}; sheet fetches after a "
          f"change: {len(busy.pages)}, p50 {ms(busy.pages, .5)}, p99 {ms(busy.pages, .99)}")
    each, slowest = found["each"], found["slowest"]
    print(f"  save → a watcher has the new sheet: p50 {percentile(each, .5):.2f} s, "
          f"p95 {percentile(each, .95):.2f} s ({len(each)} deliveries)")
    print(f"  save → every watcher has it:        p50 {percentile(slowest, .5):.2f} s, "
          f"p95 {percentile(slowest, .95):.2f} s (aim p95 ≤ 2 s)")
    if busy.stuck or quiet.stuck:
        print(f"  tables still waiting for a save's answer 5 s after the end: {busy.stuck}")
    if found["missed"]:
        print(f"  deliveries missing at the end: {found['missed']}")
    errors = {**{f"quiet {k}": v for k, v in quiet.errors.items()}, **busy.errors}
    print(f"  errors: {errors or 'none'}")

if __name__ == "__main__":
    main()
