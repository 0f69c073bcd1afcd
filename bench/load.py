"""Load: hands entered through the API against the production server (gunicorn) on
SQLite and on PostgreSQL, compared with a bare Flask route served the same way; then
hands entered while other phones print PDFs and load sheets.

    python bench/load.py [--seconds 10] [--rounds 4] [--clients 8] [--games 200] [--threads 8]
                         [--workers N]
                         [--pg postgresql+psycopg://postgres@127.0.0.1:5432/scorekeeper_bench]
                         [--phones 2] [--printers 2] [--viewers 2] [--viewer-pause 0.5]
                         [--print-seconds 8]
                         [--only hands|printing]

Prints, for the bare route and for hands on each database: a single phone's p50 (one
request at a time, no queue), then with ``--clients`` phones at once the throughput,
p50/p99 latency, errors, lost hands (checked in the database after the run), the ratio
of a hand's p50 to the bare route's, and the server's CPU time per request (gunicorn's
processes; on PostgreSQL the database server's processes too, read from /proc, and
their part printed apart). The
bare route and the hands take turns, ``--rounds`` times per database, and the ratios
are each round's against its own bare route: their median and range.
Targets on a 2-core machine: ≥ 300 hands/s, p99 < 100 ms, no errors, no lost hands;
aim (issue 13): a hand's p50 ≤ 3× the bare route's.

Printing: ``--phones`` phones enter hands (with a short pause between hands, as a
table does), alone ("quiet") and while ``--printers`` phones download a 40-hand
sheet's PDF over and over and ``--viewers`` phones load its page; the two phases
alternate twice. Prints a hand's p50/p95 in each. Aim: p95 while printing ≤ 4× quiet.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HAND = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 5, "defender_deadwood": 6}
RULES = {"preset": "classic", "target": 10000}  # a long game: no hand is refused as late


def bare_app() -> Any:
    """The reference point: a Flask route that does nothing."""
    from flask import Flask

    app = Flask("bare")

    @app.post("/bare")
    def bare() -> dict[str, bool]:
        return {"ok": True}

    return app


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(args: list[str], env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(args, cwd=ROOT, env={**os.environ, **env},
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            if process.poll() is not None:
                raise SystemExit(f"server exited: {' '.join(args)}") from None
            time.sleep(0.05)
    process.kill()
    raise SystemExit("server did not start")


@contextmanager
def serving(app: str, env: dict[str, str], workers: int, threads: int
            ) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """gunicorn serving ``app`` on a free port, as ``make run`` starts it: (port, process),
    stopped on the way out."""
    port = free_port()
    server = start_server(server_args(port, workers, threads, app), env, port)
    try:
        yield port, server
    finally:
        server.terminate()
        server.wait()


def server_args(port: int, workers: int, threads: int, app: str) -> list[str]:
    """The production server as ``make run`` starts it (gunicorn, threaded workers, its
    hooks), without the access log."""
    from scorekeeper.cli import gunicorn_args  # not at the top: see main()

    return [sys.executable, "-m", "gunicorn",
            *gunicorn_args("127.0.0.1", port, workers, threads=threads, app=app,
                           access_log=False)]


@dataclass
class Result:
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    acked: dict[str, tuple[str, int]] = field(default_factory=dict)  # key → (game, hand)
    lock: threading.Lock = field(default_factory=threading.Lock)


# A phone's connection is kept alive for this many requests, then opened again.
# gunicorn gives a connection to one worker for its whole life: eight connections
# kept for the whole run all land on one worker by chance about every other run,
# which halves the throughput (its threads share one core) and made the bare route's
# figures jump between two values. Re-opened connections spread as real phones' do.
RECONNECT_EVERY = 25


def client_loop(port: int, work: Any, stop: threading.Event, result: Result,
                pause: float = 0.0) -> None:
    """One phone on a kept-alive connection, sending requests until told to stop."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    latencies: list[float] = []
    i = 0
    while not stop.wait(pause) if pause else not stop.is_set():
        if i and i % RECONNECT_EVERY == 0:
            conn.close()
        method, path, body, headers, on_reply = work(i)
        start = time.perf_counter()
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as exc:
            with result.lock:
                result.errors[type(exc).__name__] = result.errors.get(type(exc).__name__, 0) + 1
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            continue
        latencies.append(time.perf_counter() - start)
        error = on_reply(response.status, data)
        if error:
            with result.lock:
                result.errors[error] = result.errors.get(error, 0) + 1
        i += 1
    conn.close()
    with result.lock:
        result.latencies.extend(latencies)


def run_clients(port: int, clients: int, seconds: float, make_work: Any) -> tuple[Result, float]:
    result, stop = Result(), threading.Event()
    threads = [threading.Thread(target=client_loop, args=(port, make_work(n, result), stop, result))
               for n in range(clients)]
    return result, run_threads(threads, stop, seconds)


CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (Linux only)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()


def server_pids(root: int, workers: int) -> list[int]:
    """gunicorn's master and its workers.

    Waits (up to 30 s) until all ``workers`` are there: the master listens before it
    forks them, and a worker counted late has its CPU time left out (once the bare
    route's, which then measured 0)."""
    deadline = time.monotonic() + 30
    while True:
        pids = [root]
        for entry in Path("/proc").iterdir():
            fields = _stat(int(entry.name)) if entry.name.isdigit() else None
            if fields is not None and int(fields[1]) == root:
                pids.append(int(entry.name))
        if len(pids) > workers or time.monotonic() > deadline:
            return pids
        time.sleep(0.05)


def postgres_pids() -> list[int]:
    """Every PostgreSQL process there is now. Listed again at each reading: the app's
    pool starts backends during a run, as its phones need more connections (9 → 23
    processes with four workers), and a list made once at the start left them out."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() == "postgres":
                pids.append(int(entry.name))
        except OSError:  # the process ended meanwhile
            continue
    return pids


@dataclass
class Server:
    """The processes whose CPU time a request costs: gunicorn's, and on PostgreSQL the
    database server's (its backends do a hand's SQL on the same cores)."""
    pids: list[int]
    database: bool

    def cpu(self) -> tuple[float, float]:
        """CPU seconds used so far by gunicorn's processes, and by the database
        server's processes there are now together with those that have ended (their
        master counts the backends it has reaped as its children's time)."""
        app = sum(_cpu_seconds(pid, children=False) for pid in self.pids)
        database = (sum(_cpu_seconds(pid, children=True) for pid in postgres_pids())
                    if self.database else 0.0)
        return app, database


def _cpu_seconds(pid: int, *, children: bool) -> float:
    """User plus system CPU time a process has used (and with ``children``, its children
    it has waited for); 0 for a process that is gone."""
    fields = _stat(pid)
    if fields is None:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    if children:
        ticks += int(fields[13]) + int(fields[14])  # cutime, cstime
    return ticks / CLOCK_TICKS


@dataclass
class Round:
    """One measured run of clients: what they saw, how long it took, and the server's
    CPU seconds per answered request, all of it and the database server's part."""
    result: Result
    elapsed: float
    cpu: float
    database_cpu: float


def measured(port: int, clients: int, seconds: float, make_work: Any, server: Server) -> Round:
    """``run_clients``, and the server's CPU seconds per answered request."""
    app_before, database_before = server.cpu()
    result, elapsed = run_clients(port, clients, seconds, make_work)
    app_after, database_after = server.cpu()
    database = database_after - database_before
    requests = max(1, len(result.latencies))
    return Round(result, elapsed, (app_after - app_before + database) / requests,
                 database / requests)


def run_threads(threads: list[threading.Thread], stop: threading.Event, seconds: float) -> float:
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def api(port: int, method: str, path: str, body: Any = None,
        headers: dict[str, str] | None = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers={"Content-Type": "application/json", **(headers or {})})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


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


def lost_hands(url: str, result: Result) -> tuple[int, int]:
    """(acknowledged hands missing from the database, hands stored without an ack)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.connect() as conn:
        stored = {(g, k): n for g, k, n in conn.execute(text(
            "SELECT s.game_id, s.key, h.number FROM submissions s JOIN hands h "
            "ON h.game_id = s.game_id AND h.number = s.hand_number"))}
        hands = conn.execute(text("SELECT count(*) FROM hands")).scalar() or 0
        gaps = conn.execute(text(
            "SELECT count(*) FROM (SELECT game_id FROM hands GROUP BY game_id "
            "HAVING max(number) <> count(*)) d")).scalar() or 0
    engine.dispose()
    missing = sum(1 for key, (game, number) in result.acked.items()
                  if stored.get((game, key)) != number)
    return missing + gaps, hands - len(result.acked)


def hand_work(games: list[dict[str, Any]]) -> Any:
    """Phones entering hands into ``games``, each request with its own key."""
    payload = json.dumps(HAND)

    def make_work(n: int, result: Result) -> Any:
        def work(i: int) -> tuple[str, str, str, dict[str, str], Any]:
            game = games[(n * 7919 + i) % len(games)]
            key = f"c{n}-{i}"

            def on_reply(status: int, data: bytes) -> str | None:
                if status != 201:
                    return f"HTTP {status}"
                with result.lock:
                    result.acked[key] = (game["id"], json.loads(data)["hand"])
                return None

            headers = {"Content-Type": "application/json", "X-Edit-Secret": game["edit_secret"],
                       "Idempotency-Key": key}
            return "POST", f"/api/v1/games/{game['id']}/hands", payload, headers, on_reply
        return work
    return make_work


def reader_work(path: str, kind: str) -> Any:
    """Phones fetching ``path`` (a PDF or a page) over and over."""
    def make_work(_n: int, _result: Result) -> Any:
        def work(_i: int) -> tuple[str, str, None, dict[str, str], Any]:
            def on_reply(status: int, data: bytes) -> str | None:
                ok = status == 200 and (kind != "pdf" or data.startswith(b"%PDF"))
                return None if ok else f"{kind}: HTTP {status}"
            return "GET", path, None, {}, on_reply
        return work
    return make_work


def bench_printing(name: str, url: str, workers: int, opts: argparse.Namespace) -> dict[str, Any]:
    """A hand's latency with the server quiet, and while phones print and load sheets."""
    from scorekeeper.cli import APP

    with serving(APP, {"SCOREKEEPER_DATABASE_URL": url}, workers,
                 opts.threads) as (port, _server):
        games = []
        for _ in range(8):
            status, created = api(port, "POST", "/api/v1/games",
                                  {"players": ["Ann", "Bob"], "rules": RULES})
            assert status == 201, created
            games.append(created)
        printed = games.pop()  # a 40-hand sheet, printed over and over
        for _ in range(40):
            status, _answer = api(port, "POST", f"/api/v1/games/{printed['id']}/hands", HAND,
                                  {"X-Edit-Secret": printed["edit_secret"]})
            assert status == 201, _answer
        make_hands = hand_work(games)
        quiet: list[float] = []
        busy: list[float] = []
        counts = {"pdf": 0, "page": 0}
        errors: dict[str, int] = {}
        for phase in range(4):  # quiet, printing, quiet, printing
            printing = phase % 2 == 1
            stop, hands = threading.Event(), Result()
            threads = [threading.Thread(target=client_loop, args=(
                port, make_hands(phase * 100 + n, hands), stop, hands, opts.pause))
                for n in range(opts.phones)]
            groups = [("hands", hands)]
            for kind, count, path in (("pdf", opts.printers, f"/g/{printed['id']}/sheet.pdf"),
                                      ("page", opts.viewers, f"/g/{printed['id']}")):
                if not printing:
                    continue
                group, make = Result(), reader_work(path, kind)
                groups.append((kind, group))
                pause = opts.viewer_pause if kind == "page" else 0.0
                threads += [threading.Thread(target=client_loop, args=(
                    port, make(n, group), stop, group, pause)) for n in range(count)]
            run_threads(threads, stop, opts.print_seconds / 2)
            (busy if printing else quiet).extend(hands.latencies)
            for kind, group in groups:
                if kind in counts:
                    counts[kind] += len(group.latencies)
                for error, n in group.errors.items():
                    errors[error] = errors.get(error, 0) + n
    return {"name": name, "workers": workers, "quiet": quiet, "busy": busy,
            "counts": counts, "errors": errors, "seconds": opts.print_seconds}


ONE_PHONE_SECONDS = 2.0  # one phone alone first: a hand's latency with no queue at all


def bare_work(_n: int, _result: Result) -> Any:
    """Phones posting to the bare route."""
    def work(_i: int) -> tuple[str, str, str, dict[str, str], Any]:
        return ("POST", "/bare", "{}", {"Content-Type": "application/json"},
                lambda status, _data: None if status == 200 else f"HTTP {status}")
    return work


def bench_against_bare(name: str, url: str, workers: int, opts: argparse.Namespace
                       ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Hands on ``url`` and the bare route, each served by its own gunicorn, taking turns.

    Both servers stay up; ``--rounds`` times over, the clients load the bare route and
    then the app for ``--seconds / --rounds`` each, so that a machine that slows down
    or speeds up during the run (other work on it) moves both alike. Each round gives a
    ratio of the two; their median is reported beside the pooled figures. (One block
    of the bare route and then one of the hands gave p50 ratios a third apart from
    one run to the next.)"""
    from scorekeeper.cli import APP

    with ExitStack() as servers:
        bare_port, bare = servers.enter_context(serving(
            "load:bare_app()", {"PYTHONPATH": str(ROOT / "bench")}, workers, opts.threads))
        app_port, app = servers.enter_context(serving(
            APP, {"SCOREKEEPER_DATABASE_URL": url}, workers,
            opts.threads))
        games = []
        for _ in range(opts.games):
            status, created = api(app_port, "POST", "/api/v1/games",
                                  {"players": ["Ann", "Bob"], "rules": RULES})
            assert status == 201, created
            games.append(created)
        make_hands = hand_work(games)
        bare_server = Server(server_pids(bare.pid, workers), database=False)
        app_server = Server(server_pids(app.pid, workers), database=not url.startswith("sqlite"))
        bare_alone = measured(bare_port, 1, ONE_PHONE_SECONDS, bare_work, bare_server).result
        alone = measured(app_port, 1, ONE_PHONE_SECONDS, make_hands, app_server).result
        seconds = opts.seconds / opts.rounds
        bare_rounds, rounds = [], []
        for r in range(opts.rounds):
            bare_rounds.append(measured(bare_port, opts.clients, seconds, bare_work, bare_server))
            first = 1 + r * opts.clients  # every round's phones use keys of their own
            rounds.append(measured(app_port, opts.clients, seconds,
                                   lambda n, res, first=first: make_hands(first + n, res),
                                   app_server))
    pooled_bare = pooled(bare_rounds)
    pooled_hands = pooled(rounds)
    hands = {"name": name, "workers": workers, **pooled_hands,
             "one_p50": percentile(alone.latencies, 0.5)}
    acked = dict(alone.acked)
    errors = dict(alone.errors)
    for measured_round in rounds:
        acked.update(measured_round.result.acked)
        for kind, count in measured_round.result.errors.items():
            errors[kind] = errors.get(kind, 0) + count
    hands["rate"] = (sum(len(r.result.acked) for r in rounds)
                     / sum(r.elapsed for r in rounds))
    lost, extra = lost_hands(url, Result(acked=acked))
    hands.update(errors=sum(errors.values()), error_kinds=errors, lost=lost,
                 unacknowledged_stored=extra)
    # Each round's hands against the same round's bare route.
    pairs = list(zip(rounds, bare_rounds, strict=True))
    hands["p50_ratios"] = [percentile(h.result.latencies, 0.5) / percentile(b.result.latencies, 0.5)
                           for h, b in pairs]
    hands["cpu_ratios"] = [h.cpu / b.cpu for h, b in pairs]
    bare_figures = {"name": f"bare route ×{workers}", **pooled_bare,
                    "one_p50": percentile(bare_alone.latencies, 0.5),
                    "errors": sum(sum(r.result.errors.values()) for r in bare_rounds)}
    return bare_figures, hands


def pooled(rounds: list[Round]) -> dict[str, Any]:
    """Latencies of every round together; requests a second and CPU per request overall
    (and the database server's part of it)."""
    latencies = [t for r in rounds for t in r.result.latencies]
    requests = sum(len(r.result.latencies) for r in rounds)
    elapsed = sum(r.elapsed for r in rounds)
    cpu = sum(r.cpu * len(r.result.latencies) for r in rounds)
    database_cpu = sum(r.database_cpu * len(r.result.latencies) for r in rounds)
    return {"requests": requests, "rate": requests / elapsed,
            "p50": percentile(latencies, 0.5), "p99": percentile(latencies, 0.99),
            "cpu": cpu / max(1, requests), "database_cpu": database_cpu / max(1, requests)}


def main() -> None:
    # Here, not at the top: gunicorn imports this module for the bare route, which
    # should carry nothing of the app.
    from scorekeeper.cli import default_workers

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rounds", type=int, default=4,
                        help="turns of the bare route and the hands (each --seconds/--rounds)")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help="gunicorn worker processes (default: as make run starts)")
    parser.add_argument("--pg", default=os.environ.get(
        "SCOREKEEPER_BENCH_DATABASE_URL",
        "postgresql+psycopg://postgres@127.0.0.1:5432/scorekeeper_bench"))
    parser.add_argument("--skip-pg", action="store_true")
    parser.add_argument("--phones", type=int, default=2, help="phones entering hands (printing)")
    parser.add_argument("--pause", type=float, default=0.02, help="seconds between their hands")
    parser.add_argument("--printers", type=int, default=2, help="phones printing the sheet PDF")
    parser.add_argument("--viewers", type=int, default=2, help="phones loading the sheet page")
    parser.add_argument("--viewer-pause", type=float, default=0.5,
                        help="seconds between a viewer's loads (a phone left on the sheet)")
    parser.add_argument("--print-seconds", type=float, default=8,
                        help="per database: half quiet, half printing, alternated")
    parser.add_argument("--only", choices=("hands", "printing"))
    opts = parser.parse_args()
    if opts.only != "printing":
        bench_load(opts)
    if opts.only != "hands":
        print_while_printing(opts)


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


def print_while_printing(opts: argparse.Namespace) -> None:
    """Run the printing case on each database and print a hand's p50/p95 in both phases."""
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, url in databases(opts, tmp):
            runs.append(bench_printing(name, url, opts.workers, opts))
    print(f"\nhands while printing: {opts.phones} phones entering hands ({opts.pause * 1000:g} ms "
          f"apart), {opts.printers} printing a 40-hand sheet PDF non-stop, {opts.viewers} loading "
          f"its page every {opts.viewer_pause:g} s; {opts.print_seconds:g} s per database, "
          f"phases alternated")
    print(f"{'':22} {'quiet p50':>9} {'p95':>6} {'printing p50':>12} {'p95':>6} "
          f"{'p95 ×':>6} {'PDFs/s':>6} {'pages/s':>7}")
    for run in runs:
        q50, q95 = percentile(run["quiet"], 0.5), percentile(run["quiet"], 0.95)
        b50, b95 = percentile(run["busy"], 0.5), percentile(run["busy"], 0.95)
        half = run["seconds"] / 2
        label = f"hands, {run['name']} ×{run['workers']}"
        print(f"{label:22} {q50 * 1000:9.1f} {q95 * 1000:6.1f} {b50 * 1000:12.1f} "
              f"{b95 * 1000:6.1f} {b95 / q95:6.1f} {run['counts']['pdf'] / half:6.1f} "
              f"{run['counts']['page'] / half:7.1f}")
        if run["errors"]:
            print(f"  errors: {run['errors']}")
        print(f"  aim (p95 while printing ≤ 4× quiet): {'met' if b95 <= 4 * q95 else 'MISSED'}")


def bench_load(opts: argparse.Namespace) -> None:
    """Hands as fast as the clients can send them, and the bare route, per database."""

    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, url in databases(opts, tmp):
            runs.append(bench_against_bare(name, url, opts.workers, opts))

    print(f"\nload: {opts.clients} client threads, gunicorn gthread --threads={opts.threads}, "
          f"{opts.games} games, {opts.seconds:g} s per database in {opts.rounds} rounds "
          f"(the bare route and the hands taking turns), {os.cpu_count()} CPUs")
    print("  CPU ms/req: the server's CPU time per answered request (gunicorn's processes,"
          " and on PostgreSQL the database server's too, its backends started meanwhile"
          " included)")
    print("  one phone: p50 of requests sent one at a time by a single phone (no queue)")
    print("  p50/bare, CPU/bare: the median of the rounds' ratios [lowest–highest]")
    print(f"{'':22} {'one phone':>9} {'×bare':>5} {'req/s':>6} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'errors':>6} {'lost':>5} {'p50/bare':>15} {'CPU ms/req':>10} {'CPU/bare':>15}")
    ok = True
    for bare, run in runs:
        print(f"{bare['name']:22} {bare['one_p50'] * 1000:9.2f} {1:5.1f} {bare['rate']:6.0f} "
              f"{bare['p50'] * 1000:7.1f} {bare['p99'] * 1000:7.1f} {bare['errors']:6d} "
              f"{'':>5} {1:15.1f} {bare['cpu'] * 1000:10.2f} {1:15.1f}")
        label = f"hands, {run['name']} ×{run['workers']}"
        print(f"{label:22} {run['one_p50'] * 1000:9.2f} {run['one_p50'] / bare['one_p50']:5.1f} "
              f"{run['rate']:6.0f} {run['p50'] * 1000:7.1f} {run['p99'] * 1000:7.1f} "
              f"{run['errors']:6d} {run['lost']:5d} {spread(run['p50_ratios']):>15} "
              f"{run['cpu'] * 1000:10.2f} {spread(run['cpu_ratios']):>15}")
        if run["database_cpu"]:
            share = run["database_cpu"] / run["cpu"]
            print(f"  of its CPU ms/req, the database server's: {run['database_cpu'] * 1000:.2f}"
                  f" ({share:.0%}); gunicorn's: {(run['cpu'] - run['database_cpu']) * 1000:.2f}"
                  f" ({(run['cpu'] - run['database_cpu']) / bare['cpu']:.1f}× the bare route's)")
        if run["error_kinds"]:
            print(f"  errors: {run['error_kinds']}")
        if run["unacknowledged_stored"]:
            print(f"  stored without an acknowledgement: {run['unacknowledged_stored']}")
        met = (run["rate"] >= 300 and run["p99"] < 0.1 and not run["errors"]
               and not run["lost"])
        ok = ok and met
        print(f"  target (≥ 300/s, p99 < 100 ms, no errors, none lost): "
              f"{'met' if met else 'MISSED'}")
        aim = statistics.median(run["p50_ratios"]) <= 3
        print(f"  aim (a hand's p50 ≤ 3× the bare route's): {'met' if aim else 'MISSED'}")
    if not ok:
        print("  (a benchmark reports; it does not fail the build)")


def spread(ratios: list[float]) -> str:
    """The median of ``ratios`` and their range, as "4.2× [3.9–4.6]".

    >>> spread([4.0, 3.5, 5.0])
    '4.0× [3.5–5.0]'
    """
    return f"{statistics.median(ratios):.1f}× [{min(ratios):.1f}–{max(ratios):.1f}]"


if __name__ == "__main__":
    main()
