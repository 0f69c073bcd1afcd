"""Clients that ask for a large export and read none of it, against gunicorn started as
``make run`` starts it (one worker), and what that costs the worker's memory.

    python bench/unread_answers.py [--clients 16] [--hands 1000] [--timeout 5]

Imports a game of ``--hands`` quick hands (its export is several megabytes), then opens
``--clients`` connections that each ask for the export with a small receive buffer and
never read. Prints the export's size and the worker's resident memory (VmRSS) before,
a few seconds after the requests (while the answers wait), and once gunicorn's
``--timeout`` (the deadline for an unread answer) has passed: the cost per connection
while it waits and after it is dropped. A benchmark reports; it does not fail.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

from scorekeeper import limits
from scorekeeper.cli import gunicorn_args

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.trust_server import Browser, free_port  # noqa: E402


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise LookupError("VmRSS")


def worker_of(master: int) -> int:
    (child,) = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return int(child)


def game_file(hands: int) -> bytes:
    """A gin game of ``hands`` knocks of 1 against 2, each seat in turn (1 point each)."""
    quick = [{"inputs": {"mode": "quick", "outcome": "knock", "knocker": i % 2,
                         "knocker_deadwood": 1, "defender_deadwood": 2}}
             for i in range(hands)]
    return json.dumps({"format": "scorekeeper-export", "format_version": 1,
                       "variant": "gin", "players": ["Ann", "Bob"],
                       "rules": {"preset": "classic", "target": 10000},
                       "setup": {"dealer": 0}, "hands": quick}).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--hands", type=int, default=limits.MOST_HANDS)
    parser.add_argument("--timeout", type=int, default=5)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_RUNTIME_DIR": folder,
               "SCOREKEEPER_INSTANCE_PATH": folder, "SCOREKEEPER_RATELIMIT_ENABLED": "0",
               "GUNICORN_CMD_ARGS": f"--timeout={opts.timeout}"}
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn",
             *gunicorn_args("127.0.0.1", port, 1, access_log=False)],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        try:
            run(port, process.pid, opts)
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)


def run(port: int, master: int, opts: argparse.Namespace) -> None:
    phone = Browser(f"http://127.0.0.1:{port}", timeout=300)
    deadline = time.monotonic() + 60
    while True:
        try:
            phone.get("/static/style.css")
            break
        except OSError:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
    upload = game_file(opts.hands)
    boundary = "b"
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="g.json"\r\nContent-Type: application/json\r\n\r\n').encode()
    body += upload + f"\r\n--{boundary}--\r\n".encode()
    form = phone.get("/import").text
    token = form.split('name="csrf_token" type="hidden" value="', 1)[1].split('"', 1)[0]
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'
            f"{token}\r\n").encode() + body
    made = phone.request("POST", "/import", body=body, headers={
        "Content-Type": f"multipart/form-data; boundary={boundary}"})
    location = urllib.parse.urlsplit(made.headers["location"]).path
    game = location.rsplit("/", 1)[1]
    size = len(phone.get(f"/g/{game}/export.json").body)
    worker = worker_of(master)
    time.sleep(1)
    before = rss_kib(worker)
    socks = []
    for _ in range(opts.clients):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port))
        sock.sendall(f"GET /g/{game}/export.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        socks.append(sock)
    # Every second until the deadline has passed for every client (the last export may
    # take a while to be made): the highest resident memory, and the last.
    seen = []
    for _ in range(opts.timeout + 25):
        time.sleep(1)
        seen.append(rss_kib(worker))
    for sock in socks:
        sock.close()
    n = opts.clients
    print(f"export {size / 1e6:.1f} MB; {n} clients reading nothing; worker RSS "
          f"{before / 1024:.0f} MiB before, at most {max(seen) / 1024:.0f} MiB "
          f"(+{(max(seen) - before) / n / 1024:.1f} MiB a client), "
          f"{seen[-1] / 1024:.0f} MiB once the {opts.timeout} s deadline has passed "
          "(the answers dropped; Python keeps what they held for reuse)")


if __name__ == "__main__":
    main()
