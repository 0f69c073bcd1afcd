"""Load: hands entered through the API against the production server (gunicorn) on
SQLite and on PostgreSQL, compared with a bare Flask route served the same way.

    python bench/load.py [--seconds 10] [--clients 8] [--games 200] [--threads 8] [--workers 2]
                         [--pg postgresql+psycopg://postgres@127.0.0.1:5432/scorekeeper_bench]
                         [--profile]   # py-spy/cProfile hints for where the time goes

Prints throughput, p50/p99 latency, errors, lost hands (checked in the database after
the run) and the ratio of a hand submission's p50 to the bare route's p50.
Targets on a 2-core machine: ≥ 300 hands/s, p99 < 100 ms, no errors, no lost hands.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
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


def server_args(port: int, workers: int, threads: int, app: str) -> list[str]:
    """The production server as ``make run`` starts it (gunicorn, threaded workers)."""
    return [sys.executable, "-m", "gunicorn", f"--bind=127.0.0.1:{port}",
            f"--workers={workers}", f"--threads={threads}", "--worker-class=gthread",
            "--log-level=warning", app]


@dataclass
class Result:
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    acked: dict[str, tuple[str, int]] = field(default_factory=dict)  # key → (game, hand)
    lock: threading.Lock = field(default_factory=threading.Lock)


def client_loop(port: int, work: Any, stop: threading.Event, result: Result) -> None:
    """One phone on a kept-alive connection, sending requests until told to stop."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    latencies: list[float] = []
    i = 0
    while not stop.is_set():
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
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
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
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    return result, time.perf_counter() - start


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


def bench_hands(name: str, url: str, workers: int, opts: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    server = start_server(server_args(port, workers, opts.threads, "scorekeeper:create_app()"),
                          {"SCOREKEEPER_DATABASE_URL": url}, port)
    try:
        games = []
        for _ in range(opts.games):
            status, created = api(port, "POST", "/api/v1/games",
                                  {"players": ["Ann", "Bob"], "rules": RULES})
            assert status == 201, created
            games.append(created)
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

        result, elapsed = run_clients(port, opts.clients, opts.seconds, make_work)
    finally:
        server.terminate()
        server.wait()
    lost, extra = lost_hands(url, result)
    return {"name": name, "workers": workers, "requests": len(result.latencies),
            "rate": len(result.acked) / elapsed,
            "p50": percentile(result.latencies, 0.5), "p99": percentile(result.latencies, 0.99),
            "errors": sum(result.errors.values()), "error_kinds": result.errors,
            "lost": lost, "unacknowledged_stored": extra}


def bench_bare(workers: int, opts: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    server = start_server(server_args(port, workers, opts.threads, "load:bare_app()"),
                          {"PYTHONPATH": str(ROOT / "bench")}, port)
    try:
        def make_work(_n: int, _result: Result) -> Any:
            def work(_i: int) -> tuple[str, str, str, dict[str, str], Any]:
                return ("POST", "/bare", "{}", {"Content-Type": "application/json"},
                        lambda status, _data: None if status == 200 else f"HTTP {status}")
            return work

        result, elapsed = run_clients(port, opts.clients, min(opts.seconds, 5), make_work)
    finally:
        server.terminate()
        server.wait()
    return {"name": f"bare route ×{workers}", "requests": len(result.latencies),
            "rate": len(result.latencies) / elapsed, "p50": percentile(result.latencies, 0.5),
            "p99": percentile(result.latencies, 0.99), "errors": sum(result.errors.values())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2,
                        help="gunicorn worker processes, as make run starts (WORKERS=2)")
    parser.add_argument("--pg", default=os.environ.get(
        "SCOREKEEPER_BENCH_DATABASE_URL",
        "postgresql+psycopg://postgres@127.0.0.1:5432/scorekeeper_bench"))
    parser.add_argument("--skip-pg", action="store_true")
    opts = parser.parse_args()

    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = f"sqlite:///{tmp}/bench.sqlite"
        runs.append((bench_bare(opts.workers, opts),
                     bench_hands("SQLite", sqlite, opts.workers, opts)))
    if not opts.skip_pg:
        try:
            reset_postgres(opts.pg)
        except Exception as exc:  # no PostgreSQL here: say so, go on
            print(f"PostgreSQL skipped: {exc}")
        else:
            runs.append((bench_bare(opts.workers, opts),
                         bench_hands("PostgreSQL", opts.pg, opts.workers, opts)))

    print(f"\nload: {opts.clients} client threads, gunicorn gthread --threads={opts.threads}, "
          f"{opts.games} games, {opts.seconds:g} s per database, {os.cpu_count()} CPUs")
    print(f"{'':22} {'hands/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6} {'lost':>5} "
          f"{'p50/bare':>8}")
    ok = True
    for bare, run in runs:
        print(f"{bare['name']:22} {bare['rate']:8.0f} {bare['p50'] * 1000:7.1f} "
              f"{bare['p99'] * 1000:7.1f} {bare['errors']:6d} {'':>5} {1:8.1f}")
        ratio = run["p50"] / bare["p50"]
        label = f"hands, {run['name']} ×{run['workers']}"
        print(f"{label:22} {run['rate']:8.0f} {run['p50'] * 1000:7.1f} "
              f"{run['p99'] * 1000:7.1f} {run['errors']:6d} {run['lost']:5d} {ratio:8.1f}")
        if run["error_kinds"]:
            print(f"  errors: {run['error_kinds']}")
        if run["unacknowledged_stored"]:
            print(f"  stored without an acknowledgement: {run['unacknowledged_stored']}")
        met = (run["rate"] >= 300 and run["p99"] < 0.1 and not run["errors"]
               and not run["lost"])
        ok = ok and met
        print(f"  target (≥ 300/s, p99 < 100 ms, no errors, none lost): "
              f"{'met' if met else 'MISSED'}")
    if not ok:
        print("  (a benchmark reports; it does not fail the build)")


if __name__ == "__main__":
    main()
