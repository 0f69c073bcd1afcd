"""Load: the guards on saving a hand, against the production server (gunicorn started
as ``make run`` starts it: asgi workers running the app on threads, its hooks) on
SQLite and on PostgreSQL.

    python bench/load.py [--only printing|writers|kills] [--skip-pg] [--workers N]
                         [--threads 8] [--pg postgresql+psycopg://postgres@127.0.0.1:5432/...]
                         [--phones 2] [--pause 0.02] [--printers 2] [--prints 7]
                         [--print-seconds 8]
                         [--clients 8] [--games 200] [--seconds 6] [--rounds 3]
                         [--writers 8] [--kill-games 16] [--kills 3] [--acks-between 40]

Each database gets a new gunicorn (an empty SQLite file in a temporary instance
folder; the PostgreSQL database emptied first; the limit on new games per client off,
as the bench makes every game from one address) and the three parts run against it in
turn. Every hand is the same quick knock (one point to the first seat) sent to
``POST /api/v1/games/<id>/hands`` with its own ``Idempotency-Key``; all traffic goes
to 127.0.0.1. Each guard prints its figure, its limit and "met" or "missed"; a
benchmark reports, it never fails the build.

1. printing — "a save never waits for a print". One print's time alone: the median
   of ``--prints`` downloads, one at a time, of a 40-hand sheet's PDF
   (``/g/<id>/sheet.pdf``), after three prints per worker (a worker's first print
   loads its fonts). Then ``--phones`` phones
   enter hands ``--pause`` seconds apart, first with the server otherwise quiet, then
   while ``--printers`` phones download the sheet non-stop. Guard: a hand's p95 while
   printing ≤ half of one print's time.
2. writers — "eight phones saving at once". ``--clients`` phones send hands as fast
   as they are answered into ``--games`` games, taking turns ``--rounds`` times with
   the same phones fetching a static file (``/static/style.css``) from the same
   server. Guard: no error; in the database afterwards every acknowledged hand is
   stored under the number it was given, with no hand doubled and no gap; and a
   hand's p50 within 10× the static file's (the median of the rounds' ratios, each
   round against its own static turn; their range is printed beside it).
3. kills — "workers killed with SIGKILL under eight writers". ``--writers`` phones
   send hands into ``--kill-games`` games; a request that gets no answer (or a 409 or
   a 5xx) is sent again with the same key, as a phone does, until it is answered.
   ``--kills`` times, once ``--acks-between`` more hands have been acknowledged,
   every gunicorn worker process is sent SIGKILL (the master starts new ones).
   Guard: every hand acknowledged (201, or 200 for a retried key) is stored exactly
   once, under the number it was given; no key produced two hands (no hand without
   its key, no number used twice), no gap, the history has one entry per hand, each
   game's totals (read back through the API) count its acknowledged hands, and on
   SQLite the file passes ``PRAGMA integrity_check``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HAND = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 5, "defender_deadwood": 6}
RULES = {"preset": "classic", "target": 10000}  # a long game: no hand is refused as late
STATIC = "/static/style.css"  # the reference point: a file served by the same server
SHEET_HANDS = 40
PRINT_SHARE = 0.5  # guard 1: a hand's p95 while printing ≤ this share of one print
STATIC_TIMES = 10  # guard 2: a hand's p50 ≤ this many times a static file's
DRAIN_SECONDS = 30  # guard 3: how long a phone keeps retrying its last hand after the run

# A phone's connection is kept alive for this many requests, then opened again:
# gunicorn gives a connection to one worker for its whole life, and connections kept
# for a whole run can all land on one worker by chance. Re-opened connections spread
# over the workers as real phones' do.
RECONNECT_EVERY = 25


# --- the server ------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Server:
    """A running gunicorn: its port, its master process, how many workers it keeps."""
    port: int
    process: subprocess.Popen[bytes]
    workers: int

    def worker_pids(self) -> list[int]:
        """The master's children now (Linux /proc)."""
        pids = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # ended meanwhile
                continue
            if int(stat[stat.rindex(")") + 2:].split()[1]) == self.process.pid:
                pids.append(int(entry.name))
        return pids

    def wait_ready(self, timeout: float = 60) -> None:
        """Until every worker is there and answers: a static file fetched on fresh
        connections (each taken by whichever worker accepts it)."""
        deadline = time.monotonic() + timeout
        while len(self.worker_pids()) < self.workers:
            if self.process.poll() is not None:
                raise SystemExit("gunicorn exited")
            if time.monotonic() > deadline:
                raise SystemExit("gunicorn's workers did not start")
            time.sleep(0.05)
        for _ in range(4 * self.workers):
            status, _body = get(self.port, STATIC)
            assert status == 200, status


def gunicorn_command(port: int, workers: int, threads: int) -> list[str]:
    """The production server as ``make run`` starts it, without the access log."""
    from scorekeeper.cli import APP, gunicorn_args

    return [sys.executable, "-m", "gunicorn",
            *gunicorn_args("127.0.0.1", port, workers, threads=threads, app=APP,
                           access_log=False)]


@contextmanager
def serving(url: str, instance: str, workers: int, threads: int) -> Iterator[Server]:
    """gunicorn serving the app on ``url`` from a free port, stopped on the way out."""
    port = free_port()
    env = {**os.environ, "SCOREKEEPER_DATABASE_URL": url, "SCOREKEEPER_INSTANCE_PATH": instance,
           # one client makes every game here: the limit on new games is for strangers
           "SCOREKEEPER_RATELIMIT_ENABLED": "0"}
    process = subprocess.Popen(gunicorn_command(port, workers, threads), cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("gunicorn did not start") from None
                time.sleep(0.05)
        server = Server(port, process, workers)
        server.wait_ready()
        yield server
    finally:
        process.terminate()
        process.wait()


# --- requests --------------------------------------------------------------------------

def get(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def api(port: int, method: str, path: str, body: Any = None,
        headers: dict[str, str] | None = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers={"Content-Type": "application/json", **(headers or {})})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


def new_games(port: int, count: int) -> list[dict[str, Any]]:
    games = []
    for _ in range(count):
        status, created = api(port, "POST", "/api/v1/games",
                              {"players": ["Ann", "Bob"], "rules": RULES})
        assert status == 201, created
        games.append(created)
    return games


def hand_request(game: dict[str, Any], key: str) -> tuple[str, str, str, dict[str, str]]:
    headers = {"Content-Type": "application/json", "X-Edit-Secret": game["edit_secret"],
               "Idempotency-Key": key, "X-Confirm": "repeat"}  # the same hand, meant
    return "POST", f"/api/v1/games/{game['id']}/hands", json.dumps(HAND), headers


@dataclass
class Tally:
    """What a group of phones saw: latencies of answered requests, errors by kind, and
    for hands each answered key's (game, status, hand number)."""
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    answered: dict[str, tuple[str, int, int]] = field(default_factory=dict)
    retries: int = 0
    given_up: dict[str, str] = field(default_factory=dict)  # key → game
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, kind: str) -> None:
        with self.lock:
            self.errors[kind] += 1


Reply = Callable[[int, bytes], str | None]  # an answer's status and body → an error, or None
Work = Callable[[int], tuple[str, str, str | None, dict[str, str], Reply]]


def phone(port: int, work: Work, stop: threading.Event, tally: Tally, pause: float) -> None:
    """One phone sending ``work(0)``, ``work(1)``, … until told to stop, ``pause``
    seconds apart; a request that gets no answer is an error (not sent again)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    latencies: list[float] = []
    i = 0
    while not (stop.wait(pause) if pause else stop.is_set()):
        if i and i % RECONNECT_EVERY == 0:
            conn.close()
        method, path, body, headers, on_reply = work(i)
        i += 1
        start = time.perf_counter()
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as exc:
            tally.error(type(exc).__name__)
            conn.close()
            continue
        latencies.append(time.perf_counter() - start)
        error = on_reply(response.status, data)
        if error:
            tally.error(error)
    conn.close()
    with tally.lock:
        tally.latencies.extend(latencies)


def hands_into(games: list[dict[str, Any]], tally: Tally, prefix: str, n: int) -> Work:
    """Phone ``n``'s hands, spread over ``games``, each with a key of its own."""
    def work(i: int) -> tuple[str, str, str | None, dict[str, str], Reply]:
        game = games[(n * 7919 + i) % len(games)]
        key = f"{prefix}{n}-{i}"

        def on_reply(status: int, data: bytes) -> str | None:
            if status not in (200, 201):
                return f"HTTP {status}"
            with tally.lock:
                tally.answered[key] = (game["id"], status, json.loads(data)["hand"])
            return None
        return (*hand_request(game, key), on_reply)
    return work


def fetches(path: str, pdf: bool = False) -> Work:
    """A phone fetching ``path`` over and over."""
    def on_reply(status: int, data: bytes) -> str | None:
        ok = status == 200 and (not pdf or data.startswith(b"%PDF"))
        return None if ok else f"{path}: HTTP {status}"

    def work(_i: int) -> tuple[str, str, str | None, dict[str, str], Reply]:
        return "GET", path, None, {}, on_reply
    return work


def run_phones(port: int, groups: list[tuple[list[Work], Tally, float]], seconds: float) -> float:
    """Every group's phones (works, their tally, the pause between requests) at once
    for ``seconds``; the time they took, stopping included."""
    stop = threading.Event()
    threads = [threading.Thread(target=phone, args=(port, work, stop, tally, pause))
               for works, tally, pause in groups for work in works]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank below).

    >>> percentile([0.4, 0.1, 0.3, 0.2], 0.5)
    0.3
    """
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- the database ----------------------------------------------------------------------

def reset_postgres(url: str) -> None:
    """Create the bench database if needed and empty it."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    target = make_url(url)
    admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        exists = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"),
                              {"n": target.database}).scalar()
        if not exists:
            conn.execute(text(f'CREATE DATABASE "{target.database}"'))
    admin.dispose()
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


@dataclass
class Stored:
    """The hands of some games as the database holds them, against what the phones
    were told. Every count but ``hands`` and ``keys`` should be 0."""
    hands: int = 0  # hands stored
    keys: int = 0  # keys answered 200/201
    lost: int = 0  # acknowledged keys not stored under the number they were given
    gaps: int = 0  # numbers missing from a game's 1..n
    twice: int = 0  # hand numbers used twice in a game
    keyless: int = 0  # hands no key points at (a key that made a second hand)
    unanswered: int = 0  # keys stored whose phone was never answered
    history: int = 0  # hands without their history entry, or entries without a hand
    totals: int = 0  # games whose totals (from the API) are not their acknowledged hands
    integrity: str = "ok"  # SQLite's PRAGMA integrity_check

    def sound(self) -> bool:
        return (not (self.lost or self.gaps or self.twice or self.keyless or self.unanswered
                     or self.history or self.totals) and self.integrity == "ok")

    def __str__(self) -> str:
        return (f"{self.hands} hands stored for {self.keys} acknowledged; lost {self.lost}, "
                f"gaps {self.gaps}, numbers used twice {self.twice}, hands without their key "
                f"{self.keyless}, stored unanswered {self.unanswered}, history off by "
                f"{self.history}, totals wrong in {self.totals} games"
                + ("" if self.integrity == "ok" else f", integrity: {self.integrity}"))


def stored(url: str, port: int, games: list[dict[str, Any]], tally: Tally) -> Stored:
    """Read the games' hands, keys and history back (through the app's models) and
    their totals through the API, and compare them with what the phones were told."""
    from sqlalchemy import create_engine, func, select, text

    from scorekeeper.models import Change, Hand, Submission

    ids = [g["id"] for g in games]
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            numbers = [(g, n) for g, n in conn.execute(
                select(Hand.game_id, Hand.number).where(Hand.game_id.in_(ids)))]
            keys = {(g, k): n for g, k, n in conn.execute(
                select(Submission.game_id, Submission.key, Submission.hand_number)
                .where(Submission.game_id.in_(ids)))}
            added = conn.execute(select(func.count()).select_from(Change).where(
                Change.game_id.in_(ids), Change.action == "add")).scalar_one()
            integrity = (str(conn.execute(text("PRAGMA integrity_check")).scalar())
                         if conn.dialect.name == "sqlite" else "ok")
    finally:
        engine.dispose()
    per_game: dict[str, list[int]] = {}
    for game_id, number in numbers:
        per_game.setdefault(game_id, []).append(number)
    result = Stored(hands=len(numbers), keys=len(tally.answered), integrity=integrity,
                    history=abs(added - len(numbers)))
    for hands in per_game.values():
        result.twice += len(hands) - len(set(hands))
        result.gaps += len(set(range(1, max(hands) + 1)) - set(hands))
    result.lost = sum(1 for key, (game_id, _status, number) in tally.answered.items()
                      if keys.get((game_id, key)) != number)
    claimed = {(g, n) for (g, _k), n in keys.items()}
    result.keyless = sum(1 for pair in set(numbers) if pair not in claimed)
    result.unanswered = sum(1 for (_g, key) in keys if key not in tally.answered)
    acknowledged = Counter(game_id for game_id, _status, _number in tally.answered.values())
    for game in games:
        status, sheet = api(port, "GET", f"/api/v1/games/{game['id']}")
        if status != 200 or sheet["totals"] != [acknowledged[game["id"]], 0]:
            result.totals += 1
    return result


# --- the guards ------------------------------------------------------------------------

def verdict(met: bool) -> str:
    return "met" if met else "missed"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def guard_printing(server: Server, opts: argparse.Namespace) -> tuple[str, bool]:
    """A hand's p95 while phones print a 40-hand sheet, against one print alone."""
    port = server.port
    sheet, *games = new_games(port, 8)
    for _ in range(SHEET_HANDS):
        status, answer = api(port, "POST", f"/api/v1/games/{sheet['id']}/hands", HAND,
                             {"X-Edit-Secret": sheet["edit_secret"], "X-Confirm": "repeat"})
        assert status == 201, answer
    path = f"/g/{sheet['id']}/sheet.pdf"
    for _ in range(3 * server.workers):  # a worker's first print loads its fonts
        status, _pdf = get(port, path)
        assert status == 200, status
    alone = []
    for _ in range(opts.prints):
        start = time.perf_counter()
        status, pdf = get(port, path)
        alone.append(time.perf_counter() - start)
        assert status == 200 and pdf.startswith(b"%PDF"), status
    one_print = statistics.median(alone)

    half = opts.print_seconds / 2
    quiet = Tally()
    run_phones(port, [([hands_into(games, quiet, "q", n) for n in range(opts.phones)],
                       quiet, opts.pause)], half)
    busy, printed = Tally(), Tally()
    elapsed = run_phones(port, [
        ([hands_into(games, busy, "b", n) for n in range(opts.phones)], busy, opts.pause),
        ([fetches(path, pdf=True)] * opts.printers, printed, 0.0)], half)
    p95, limit = percentile(busy.latencies, 0.95), PRINT_SHARE * one_print
    errors = quiet.errors + busy.errors + printed.errors
    met = p95 <= limit and not errors
    line = (f"one print alone {ms(one_print)} (median of {opts.prints}); hands quiet "
            f"p50 {ms(percentile(quiet.latencies, 0.5))} "
            f"p95 {ms(percentile(quiet.latencies, 0.95))}"
            f"; while printing p50 {ms(percentile(busy.latencies, 0.5))} "
            f"({len(busy.latencies)} hands, {len(printed.latencies) / elapsed:.1f} PDFs/s)\n"
            f"    figure: p95 while printing {ms(p95)}; limit: ≤ {PRINT_SHARE:g} × one print "
            f"= {ms(limit)}{'; errors: ' + str(dict(errors)) if errors else ''}: {verdict(met)}")
    return line, met


def guard_writers(server: Server, url: str, opts: argparse.Namespace) -> tuple[str, bool]:
    """Eight phones saving at once, taking turns with the same phones on a static file."""
    port = server.port
    games = new_games(port, opts.games)
    hands, static = Tally(), Tally()
    seconds = opts.seconds / opts.rounds
    ratios, elapsed = [], 0.0
    for r in range(opts.rounds):
        turn_static, turn_hands = Tally(), Tally()
        run_phones(port, [([fetches(STATIC)] * opts.clients, turn_static, 0.0)], seconds)
        elapsed += run_phones(port, [([hands_into(games, turn_hands, f"w{r}-", n)
                                       for n in range(opts.clients)], turn_hands, 0.0)], seconds)
        ratios.append(percentile(turn_hands.latencies, 0.5)
                      / percentile(turn_static.latencies, 0.5))
        for whole, turn in ((hands, turn_hands), (static, turn_static)):
            whole.latencies += turn.latencies
            whole.errors += turn.errors
            whole.answered |= turn.answered
    check = stored(url, port, games, hands)
    ratio = statistics.median(ratios)
    errors = hands.errors + static.errors
    met = not errors and check.sound() and ratio <= STATIC_TIMES
    rate = len(hands.latencies) / elapsed
    line = (f"{len(hands.latencies)} hands in {elapsed:.1f} s ({rate:.0f}/s)"
            f", p50 {ms(percentile(hands.latencies, 0.5))} p99 "
            f"{ms(percentile(hands.latencies, 0.99))}; static file p50 "
            f"{ms(percentile(static.latencies, 0.5))}\n"
            f"    database: {check}\n"
            f"    figure: errors {sum(errors.values())}"
            f"{' ' + str(dict(errors)) if errors else ''}, lost or doubled "
            f"{check.lost + check.gaps + check.twice + check.keyless + check.unanswered}, "
            f"hand p50 = {ratio:.1f}× the static file's [{min(ratios):.1f}–{max(ratios):.1f}]"
            f"; limit: no error, none lost or doubled, ≤ {STATIC_TIMES}×: {verdict(met)}")
    return line, met


def retrying_phone(port: int, games: list[dict[str, Any]], n: int, stop: threading.Event,
                   stopped_at: list[float], tally: Tally) -> None:
    """Hands with keys of their own; a hand not answered 200/201 (no answer, a 409, a
    5xx) is sent again with the same key until it is. After ``stop`` the last hand is
    still retried for up to ``DRAIN_SECONDS``."""
    conn: http.client.HTTPConnection | None = None
    i = 0
    while not stop.is_set():
        game, key = games[(n + i) % len(games)], f"k{n}-{i}"
        i += 1
        method, path, body, headers = hand_request(game, key)
        while True:
            if conn is None:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            try:
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                data = response.read()
            except (OSError, http.client.HTTPException) as exc:
                tally.error(f"no answer ({type(exc).__name__})")
                conn.close()
                conn = None
            else:
                if response.status in (200, 201):
                    with tally.lock:
                        tally.answered[key] = (game["id"], response.status,
                                               json.loads(data)["hand"])
                    break
                tally.error(f"HTTP {response.status}")
                if response.status != 409 and response.status < 500:
                    break  # refused for good: a bug in the bench or the app
            if stop.is_set() and time.monotonic() > stopped_at[0] + DRAIN_SECONDS:
                with tally.lock:
                    tally.given_up[key] = game["id"]
                break
            with tally.lock:
                tally.retries += 1
            time.sleep(0.05)
    if conn is not None:
        conn.close()


def guard_kills(server: Server, url: str, opts: argparse.Namespace) -> tuple[str, bool]:
    """Writers with Idempotency-Keys while every worker is SIGKILLed, ``--kills`` times."""
    games = new_games(server.port, opts.kill_games)
    tally, stop, stopped_at = Tally(), threading.Event(), [0.0]
    threads = [threading.Thread(target=retrying_phone,
                                args=(server.port, games, n, stop, stopped_at, tally))
               for n in range(opts.writers)]
    for thread in threads:
        thread.start()
    killed = 0
    start = time.monotonic()
    for kill in range(opts.kills + 1):  # acks, kill, acks, kill, …, acks
        goal = len(tally.answered) + opts.acks_between
        deadline = time.monotonic() + 30
        while len(tally.answered) < goal and time.monotonic() < deadline:
            time.sleep(0.01)
        if kill == opts.kills:
            break
        for pid in server.worker_pids():
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except ProcessLookupError:
                pass
    stopped_at[0] = time.monotonic()
    stop.set()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - start
    server.wait_ready()
    check = stored(url, server.port, games, tally)
    statuses = Counter(status for _g, status, _n in tally.answered.values())
    met = check.sound() and not tally.given_up
    line = (f"{opts.kills} kills ({killed} workers) in {elapsed:.1f} s; answered: "
            f"{statuses[201]} × 201, {statuses[200]} × 200 (a retried key saved before); "
            f"{tally.retries} retries; on the way: {dict(tally.errors) or 'nothing'}"
            f"{'; given up: ' + str(len(tally.given_up)) if tally.given_up else ''}\n"
            f"    figure: {check}\n"
            f"    limit: every acknowledged hand stored once, none doubled, every hand "
            f"answered in the end: {verdict(met)}")
    return line, met


# --- the run ---------------------------------------------------------------------------

PARTS = ("printing", "writers", "kills")
TITLES = {
    "printing": "1. a save never waits for a print",
    "writers": "2. eight phones saving at once",
    "kills": "3. workers killed with SIGKILL under eight writers",
}


def databases(opts: argparse.Namespace, tmp: str) -> list[tuple[str, str]]:
    """(name, URL) of each database to run on: a new SQLite file, the PostgreSQL one."""
    found = [("SQLite", f"sqlite:///{tmp}/bench.sqlite")]
    if not opts.skip_pg:
        try:
            reset_postgres(opts.pg)
        except Exception as exc:  # no PostgreSQL here: say so, go on
            print(f"PostgreSQL skipped: {exc}")
        else:
            found.append(("PostgreSQL", opts.pg))
    return found


def machine() -> str:
    """Cores, CPU model and memory (Linux), for the record beside the figures."""
    model, memory = "?", "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 1024 ** 2:.1f} GiB RAM"
                break
    except OSError:
        pass
    return f"{len(os.sched_getaffinity(0))} CPUs ({model}), {memory}"


def main() -> None:
    from scorekeeper.cli import default_workers

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=PARTS, help="run one part only")
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help="gunicorn worker processes (default: as make run starts)")
    parser.add_argument("--threads", type=int, default=8, help="threads per worker")
    parser.add_argument("--pg", default=os.environ.get(
        "SCOREKEEPER_BENCH_DATABASE_URL",
        "postgresql+psycopg://postgres@127.0.0.1:5432/scorekeeper_bench"))
    parser.add_argument("--skip-pg", action="store_true")
    printing = parser.add_argument_group("1. printing")
    printing.add_argument("--phones", type=int, default=2, help="phones entering hands")
    printing.add_argument("--pause", type=float, default=0.02, help="seconds between their hands")
    printing.add_argument("--printers", type=int, default=2, help="phones printing non-stop")
    printing.add_argument("--prints", type=int, default=7, help="prints timed alone")
    printing.add_argument("--print-seconds", type=float, default=8,
                          help="half quiet, half printing")
    writers = parser.add_argument_group("2. writers")
    writers.add_argument("--clients", type=int, default=8, help="phones saving at once")
    writers.add_argument("--games", type=int, default=200)
    writers.add_argument("--seconds", type=float, default=6, help="of hands (as long of static)")
    writers.add_argument("--rounds", type=int, default=3, help="turns of static and hands")
    kills = parser.add_argument_group("3. kills")
    kills.add_argument("--writers", type=int, default=8, help="phones saving with retries")
    kills.add_argument("--kill-games", type=int, default=16)
    kills.add_argument("--kills", type=int, default=3, help="times every worker is killed")
    kills.add_argument("--acks-between", type=int, default=40,
                       help="hands acknowledged before each kill and after the last")
    opts = parser.parse_args()
    parts = [opts.only] if opts.only else list(PARTS)

    print(f"load: gunicorn ×{opts.workers} asgi workers of {opts.threads} threads; "
          f"{machine()}")
    results: dict[str, list[tuple[str, str, bool]]] = {part: [] for part in parts}
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        for name, url in databases(opts, tmp):
            instance = Path(tmp, name)
            instance.mkdir()
            with serving(url, str(instance), opts.workers, opts.threads) as server:
                for part in parts:
                    if part == "printing":
                        line, met = guard_printing(server, opts)
                    elif part == "writers":
                        line, met = guard_writers(server, url, opts)
                    else:
                        line, met = guard_kills(server, url, opts)
                    results[part].append((name, line, met))
    for part in parts:
        print(f"\n{TITLES[part]}")
        for name, line, _met in results[part]:
            print(f"  {name}: {line}")
    missed = [part for part in parts for _n, _l, met in results[part] if not met]
    print(f"\n{len(missed) or 'no'} guard{'s' if len(missed) != 1 else ''} missed "
          f"({time.monotonic() - started:.0f} s); a benchmark reports, it does not fail the build")


if __name__ == "__main__":
    main()
