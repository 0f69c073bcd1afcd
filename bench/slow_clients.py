"""Slow clients: connections that send their headers a byte a second, against gunicorn
started as ``make run`` starts it, while a phone makes ordinary requests.

    python bench/slow_clients.py [--slow 16,40] [--requests 6] [--timeout 5] [--workers N]

A table's phones reach the server over Wi-Fi with no proxy in front, so one misbehaving
device (or someone at the café) holding connections open must not stop the others.
For each number of slow connections, prints how many of the ordinary requests (a static
file, then the home page) timed out and the slowest answer. The guard a player would
notice: no ordinary request times out. A benchmark reports; it does not fail.
"""

from __future__ import annotations

import argparse
import http.client
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from scorekeeper.cli import APP, default_workers, gunicorn_args

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def ask(port: int, path: str, timeout: float) -> float | None:
    """Seconds one ordinary request took, or ``None`` when it timed out."""
    start = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        conn.getresponse().read()
    except OSError:
        return None
    finally:
        conn.close()
    return time.monotonic() - start


def trickle(port: int, stop: threading.Event) -> None:
    """One slow client: a request line, then a header a byte a second, never ending."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            while not stop.wait(1):
                sock.sendall(b"x")
    except OSError:
        return


def run(slow: int, opts: argparse.Namespace) -> tuple[int, float]:
    """(timed-out requests, slowest answer in seconds) with ``slow`` slow clients."""
    port = free_port()
    with tempfile.TemporaryDirectory() as instance:
        env = {**os.environ, "SCOREKEEPER_INSTANCE_PATH": instance, "PYTHONPATH": str(ROOT)}
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn",
             *gunicorn_args("127.0.0.1", port, opts.workers, app=APP, access_log=False)],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        stop = threading.Event()
        try:
            deadline = time.monotonic() + 60
            while ask(port, "/static/style.css", 1) is None:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("server did not start")
                time.sleep(0.2)
            ask(port, "/", 30)  # every worker's first page is slower: not what is measured
            clients = [threading.Thread(target=trickle, args=(port, stop), daemon=True)
                       for _ in range(slow)]
            for client in clients:
                client.start()
            time.sleep(3)  # every slow client connected and trickling
            took = [ask(port, path, opts.timeout)
                    for _ in range(opts.requests // 2) for path in ("/static/style.css", "/")]
        finally:
            stop.set()
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
    answered = [t for t in took if t is not None]
    return len(took) - len(answered), max(answered, default=0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slow", default="16,40", help="numbers of slow clients, comma-separated")
    parser.add_argument("--requests", type=int, default=6)
    parser.add_argument("--timeout", type=float, default=5.0)
    parser.add_argument("--workers", type=int, default=default_workers())
    opts = parser.parse_args()
    print(f"slow clients against gunicorn ({opts.workers} workers as make run starts them)")
    for slow in (int(n) for n in opts.slow.split(",")):
        timed_out, slowest = run(slow, opts)
        verdict = "met" if timed_out == 0 else "missed"
        print(f"  {slow:4d} slow clients: {timed_out} of {opts.requests} ordinary requests "
              f"timed out ({opts.timeout:g} s), slowest answer {slowest:.2f} s: {verdict}")


if __name__ == "__main__":
    main()
