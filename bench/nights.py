"""A club night of 160 players (80 tables) on one server, started as ``make run`` starts it.

    python bench/nights.py [--players 160] [--boards 80] [--bursts 5] [--gap 3]
                           [--interval 1.0] [--workers N] [--threads 8] [--pg URL]

A round-robin night is started and its first round paired over the API (80 games).
Then, ``--bursts`` times, all 80 tables save a hand in the same moment (a barrier),
while ``--boards`` boards and one organiser's page follow the night as the pages do
(``static/live.js``: ``/n/<id>/live`` with ``If-None-Match`` every interval, the page
fetched again on a 200).

Reports, against the guards of docs/performance.md (a benchmark reports; it does not
fail): each save's answer (p50/p95/max, and how many were refused), the delay from a
save's answer to every board showing that table's new hand (p95 ≤ 2 s), and the
organiser's page (p95 ≤ 1 s).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from live import api, percentile, request, reset_postgres, start_server

from scorekeeper.cli import APP, default_workers

HAND = json.dumps({"outcome": "knock", "knocker": 0, "knocker_deadwood": 5,
                   "defender_deadwood": 6})
RULES = {"preset": "classic", "target": 10000}  # no table's game ends during the bench
TABLE_ROW = re.compile(rb'id="bt-1-(\d+)"[^>]*data-hands="(\d+)"')


class Run:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.saves: list[float] = []
        self.refused = 0
        self.saved_at: dict[tuple[int, int], float] = {}  # (table, hands) -> answered
        self.seen_at: dict[tuple[int, int, int], float] = {}  # + board
        self.organiser: list[float] = []
        self.board_pages: list[float] = []
        self.errors: dict[str, int] = {}

    def error(self, kind: str) -> None:
        with self.lock:
            self.errors[kind] = self.errors.get(kind, 0) + 1


def board(port: int, n: int, night: str, opts: argparse.Namespace, stop: threading.Event,
          run: Run) -> None:
    """One board: a conditional poll every interval, the board fetched again on a 200;
    the time each table's hand count is first seen."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    version = ""
    while not stop.wait(opts.interval):
        try:
            status, data = request(conn, "GET", f"/n/{night}/live",
                                   headers={"If-None-Match": f'"{version}"'})
            if status == 304:
                continue
            version = json.loads(data)["version"]
            start = time.perf_counter()
            status, page = request(conn, "GET", f"/n/{night}/board",
                                   headers={"X-Scorekeeper-Live": "1"})
            now = time.perf_counter()
        except (OSError, http.client.HTTPException) as exc:
            run.error(f"board {type(exc).__name__}")
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            continue
        if status != 200:
            run.error(f"board HTTP {status}")
            continue
        with run.lock:
            run.board_pages.append(now - start)
            for table, hands in TABLE_ROW.findall(page):
                key = (int(table), int(hands), n)
                run.seen_at.setdefault(key, now)
    conn.close()


def organiser(port: int, night: dict[str, Any], opts: argparse.Namespace,
              stop: threading.Event, run: Run) -> None:
    """The organiser's phone: its page, drawn afresh every interval."""
    path = night["organiser_url"].split(str(port), 1)[1]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path)  # the organiser's link: its answer sets the session cookie
    response = conn.getresponse()
    response.read()
    cookie = (response.getheader("Set-Cookie") or "").split(";", 1)[0]
    while not stop.wait(opts.interval):
        start = time.perf_counter()
        try:
            status, _page = request(conn, "GET", f"/n/{night['id']}", headers={"Cookie": cookie})
        except (OSError, http.client.HTTPException) as exc:
            run.error(f"organiser {type(exc).__name__}")
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            continue
        if status != 200:
            run.error(f"organiser HTTP {status}")
            continue
        with run.lock:
            run.organiser.append(time.perf_counter() - start)
    conn.close()


def table(port: int, number: int, game: str, secret: str, bursts: int, gap: float,
          barrier: threading.Barrier, run: Run) -> None:
    """One table: a hand at every burst, at the same moment as every other table, each
    on a new connection (the server closes an idle one after two seconds)."""
    for i in range(bursts):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.connect()
        barrier.wait()
        headers = {"Content-Type": "application/json", "X-Edit-Secret": secret,
                   "Idempotency-Key": f"{game}-{i}", "X-Confirm": "repeat"}  # the same hand, meant
        start = time.perf_counter()
        try:
            status, _data = request(conn, "POST", f"/api/v1/games/{game}/hands", HAND, headers)
        except (OSError, http.client.HTTPException) as exc:
            run.error(f"save {type(exc).__name__}")
            continue
        done = time.perf_counter()
        with run.lock:
            if status != 201:
                run.refused += 1
                continue
            run.saves.append(done - start)
            run.saved_at[(number, i + 1)] = done
        conn.close()
        time.sleep(gap)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=160)
    parser.add_argument("--boards", type=int, default=80)
    parser.add_argument("--bursts", type=int, default=5)
    parser.add_argument("--gap", type=float, default=3.0, help="seconds between bursts")
    parser.add_argument("--interval", type=float, default=1.0, help="live.js's poll interval")
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--pg", help="a PostgreSQL URL to run against instead of SQLite")
    opts = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        url = opts.pg or f"sqlite:///{tmp}/nights.sqlite"
        if opts.pg:
            reset_postgres(opts.pg)
        server, port = start_server(APP, url, opts)
        try:
            players = [f"Player {n:03d}" for n in range(1, opts.players + 1)]
            night = api(port, "POST", "/api/v1/nights",
                        {"players": players, "rules": RULES, "format": "round_robin"})
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            status, data = request(conn, "POST", f"/api/v1/nights/{night['id']}/rounds", "",
                                   {"X-Edit-Secret": night["organiser_secret"]})
            conn.close()
            assert status == 201, (status, data)
            # Each table saves with its own game's edit secret, as its phone does.
            tables = json.loads(data)["tables"]
            for t in tables:
                t["secret"] = t["edit_url"].rsplit("key=", 1)[1]
            run = Run()
            stop = threading.Event()
            followers = [threading.Thread(target=board, args=(port, n, night["id"], opts, stop,
                                                              run), daemon=True)
                         for n in range(opts.boards)]
            followers.append(threading.Thread(target=organiser, args=(port, night, opts, stop,
                                                                      run), daemon=True))
            for thread in followers:
                thread.start()
            time.sleep(2)  # every board has drawn the night once
            barrier = threading.Barrier(len(tables))
            savers = [threading.Thread(target=table, args=(port, t["table"], t["game"],
                                                           t["secret"],
                                                           opts.bursts, opts.gap, barrier, run))
                      for t in tables]
            for thread in savers:
                thread.start()
            for thread in savers:
                thread.join()
            time.sleep(4)  # the last burst reaches every board
            stop.set()
            for thread in followers:
                thread.join(timeout=10)
        finally:
            server.terminate()
            server.wait()
    report(opts, len(tables), run)


def report(opts: argparse.Namespace, tables: int, run: Run) -> None:
    delays, missed = [], 0
    for (number, hands), saved in run.saved_at.items():
        for n in range(opts.boards):
            seen = run.seen_at.get((number, hands, n))
            if seen is None:
                missed += 1
                continue
            delays.append(max(seen - saved, 0.0))
    db = "PostgreSQL" if opts.pg else "SQLite"
    print(f"\nnights: {opts.players} players, {tables} tables saving together "
          f"{opts.bursts} times, {opts.boards} boards and an organiser's page polling every "
          f"{opts.interval:g} s; gunicorn {opts.workers} asgi workers × {opts.threads} "
          f"threads on {db}; {os.cpu_count()} CPUs")
    print(f"  saves: {len(run.saves)} answered, {run.refused} refused; "
          f"p50 {percentile(run.saves, 0.5) * 1000:.0f} ms, "
          f"p95 {percentile(run.saves, 0.95) * 1000:.0f} ms, "
          f"max {max(run.saves, default=float('nan')) * 1000:.0f} ms  (guard: p95 ≤ 1 s)")
    print(f"  board up to date after a save: p50 {percentile(delays, 0.5):.2f} s, "
          f"p95 {percentile(delays, 0.95):.2f} s, {missed} never seen  (guard: p95 ≤ 2 s)")
    print(f"  a board page: p50 {percentile(run.board_pages, 0.5) * 1000:.0f} ms, "
          f"p95 {percentile(run.board_pages, 0.95) * 1000:.0f} ms")
    print(f"  organiser's page: p50 {percentile(run.organiser, 0.5) * 1000:.0f} ms, "
          f"p95 {percentile(run.organiser, 0.95) * 1000:.0f} ms  (guard: p95 ≤ 1 s)")
    if run.errors:
        print(f"  errors: {run.errors}")


if __name__ == "__main__":
    main()
