"""The largest game does not make another table wait, against gunicorn as ``make run``
starts it.

    python bench/big.py [--clients 8] [--seconds 20] [--hands 1000] [--workers N]
                        [--threads 8] [--pg postgresql+psycopg://...]

A game as large as a game may be (``limits.MOST_HANDS`` hands, each typed card by card
with melds and a layoff, the heaviest gin hand) is built through the API. Then:

1. **Saves do not grow with the game.** Hands are saved one at a time, in turn, to a
   game of 10 hands and to the large one (its last 50 hands), half through the API
   (``POST /api/v1/games/<id>/hands``, cards) and half through the sheet's form (``POST
   /g/<id>/hands``, quick, the sheet opened before each, untimed): p50 and p95 of each.
2. **Others do not wait.** ``--clients`` clients ask, as fast as they are answered, for
   the large game's sheet (latest page and an older one), history, JSON, CSV and PDF,
   while a phone at another table opens its sheet and saves a hand every 0.5 s: the
   phone's page and save p95 (the guard: ≤ 1 s each), and the clients' answers.

A benchmark reports; it does not fail.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.trust_server

from live import api, percentile, request, reset_postgres, start_server

from scorekeeper.cli import APP, default_workers
from scorekeeper.limits import MOST_HANDS
from tests.trust_server import Browser, hidden_fields

RULES = {"preset": "classic", "target": 10000}  # nobody reaches it: every hand counts
QUICK = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 5, "defender_deadwood": 6}
# A knock with every card typed: nine hearts in a run against two melds and three
# layoffs on the run; 2 against 3, a point to the knocker (no game ends in 1,000).
CARDS = {"knocker": {"seat": 0, "cards": "AH 2H 3H 4H 5H 6H 7H 8H 9H 2C",
                     "melds": ["AH 2H 3H 4H 5H 6H 7H 8H 9H"]},
         "defender": {"cards": "TH JH QH 3C 4C 5C KD KS KC 3D",
                      "melds": ["3C 4C 5C", "KD KS KC"],
                      "layoffs": [{"card": card, "meld": 0} for card in ("TH", "JH", "QH")]}}
TIMED_SAVES = 50


def ready(port: int) -> None:
    """Wait for every worker to have built the app (a loaded machine takes a while)."""
    for _ in range(16):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        request(conn, "GET", "/")
        conn.close()


def new_game(port: int) -> dict[str, Any]:
    game: dict[str, Any] = api(port, "POST", "/api/v1/games",
                               {"players": ["Ann", "Bob"], "rules": RULES})
    return game


def save(conn: http.client.HTTPConnection, game: dict[str, Any], body: dict[str, Any]) -> float:
    """Save one hand through the API; its time in seconds."""
    # Every hand is the same hand: each is meant (no "repeats the last one" question).
    headers = {"Content-Type": "application/json", "X-Edit-Secret": game["edit_secret"],
               "X-Confirm": "repeat"}
    start = time.perf_counter()
    status, data = request(conn, "POST", f"/api/v1/games/{game['id']}/hands", json.dumps(body),
                           headers)
    took = time.perf_counter() - start
    if status != 201:
        raise SystemExit(f"save refused: {status} {data[:300]!r}")
    return took


def fill(port: int, game: dict[str, Any], hands: int, body: dict[str, Any]) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    for _ in range(hands):
        save(conn, game, body)
    conn.close()


def editor(port: int, game: dict[str, Any]) -> Browser:
    """A phone that opened the game's edit link: it may save through the sheet's form."""
    phone = Browser(f"http://127.0.0.1:{port}", timeout=120)
    opened = phone.get(f"/g/{game['id']}?key={game['edit_secret']}")
    if opened.status != 302:
        raise SystemExit(f"the edit link answered {opened.status}")
    return phone


def page_save(phone: Browser, game: dict[str, Any]) -> float:
    """Save one hand through the sheet's quick form, the sheet opened first (untimed);
    the time of the form's POST (its answer redirects to the sheet)."""
    fields = hidden_fields(phone.get(f"/g/{game['id']}").text)
    form = {"csrf_token": fields["csrf_token"], "version": fields["version"],
            "token": fields["token"], "confirm": "repeat",
            **{k: str(v) for k, v in QUICK.items()}}
    start = time.perf_counter()
    reply = phone.post_form(f"/g/{game['id']}/hands", form)
    took = time.perf_counter() - start
    if reply.status != 302:
        raise SystemExit(f"page save refused: {reply.status} {reply.text[:300]!r}")
    return took


def timed_saves(port: int, small: dict[str, Any], large: dict[str, Any]) -> dict[str, list[float]]:
    """``TIMED_SAVES`` saves to each game, in turn: every other one through the API,
    the rest through the sheet's form; each on a new connection, as the form's are."""
    phones = {"small": editor(port, small), "large": editor(port, large)}
    took: dict[str, list[float]] = {"api small": [], "api large": [], "page small": [],
                                    "page large": []}
    for n in range(TIMED_SAVES):
        for size, game in (("small", small), ("large", large)):
            if n % 2:
                took[f"page {size}"].append(page_save(phones[size], game))
            else:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                took[f"api {size}"].append(save(conn, game, CARDS))
                conn.close()
    return took


def asker(port: int, game: dict[str, Any], stop: threading.Event,
          answers: dict[str, list[float]], errors: list[str], lock: threading.Lock,
          offset: int) -> None:
    """One client asking for the large game's pages, one after another."""
    gid = game["id"]
    paths = [f"/g/{gid}", f"/g/{gid}/history", f"/api/v1/games/{gid}", f"/g/{gid}/sheet.pdf",
             f"/g/{gid}?page=5", f"/g/{gid}/hands.csv", f"/g/{gid}/history?page=10"]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    i = offset
    while not stop.is_set():
        path = paths[i % len(paths)]
        i += 1
        start = time.perf_counter()
        try:
            status, _data = request(conn, "GET", path)
        except (OSError, http.client.HTTPException) as exc:
            with lock:
                errors.append(f"{path}: {type(exc).__name__}")
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            continue
        took = time.perf_counter() - start
        kind = path.replace(gid, "<id>")
        with lock:
            if status != 200:
                errors.append(f"{path}: HTTP {status}")
            answers.setdefault(kind, []).append(took)
    conn.close()


def phone(port: int, game: dict[str, Any], stop: threading.Event,
          seen: dict[str, list[float]], errors: list[str]) -> None:
    """Another table's phone: its sheet, then a hand, every 0.5 s."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    while not stop.wait(0.5):
        start = time.perf_counter()
        status, _data = request(conn, "GET", f"/g/{game['id']}")
        seen["page"].append(time.perf_counter() - start)
        if status != 200:
            errors.append(f"phone page: HTTP {status}")
        seen["save"].append(save(conn, game, QUICK))
    conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--hands", type=int, default=MOST_HANDS,
                        help="hands of the large game at the end")
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--pg", help="a PostgreSQL URL to run against instead of SQLite")
    opts = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        url = opts.pg or f"sqlite:///{tmp}/big.sqlite"
        if opts.pg:
            reset_postgres(opts.pg)
        server, port = start_server(APP, url, opts)
        try:
            ready(port)
            small, large, other = new_game(port), new_game(port), new_game(port)
            built = time.perf_counter()
            fill(port, small, 10, CARDS)
            fill(port, other, 20, QUICK)
            fill(port, large, opts.hands - TIMED_SAVES, CARDS)
            built = time.perf_counter() - built
            saves = timed_saves(port, small, large)

            stop, lock = threading.Event(), threading.Lock()
            answers: dict[str, list[float]] = {}
            errors: list[str] = []
            seen: dict[str, list[float]] = {"page": [], "save": []}
            threads = [threading.Thread(target=asker, args=(port, large, stop, answers, errors,
                                                            lock, n))
                       for n in range(opts.clients)]
            threads.append(threading.Thread(target=phone, args=(port, other, stop, seen, errors)))
            for thread in threads:
                thread.start()
            time.sleep(opts.seconds)
            stop.set()
            for thread in threads:
                thread.join(300)
        finally:
            server.terminate()
            server.wait()

    def ms(values: list[float], q: float) -> str:
        return f"{percentile(values, q) * 1000:.0f} ms"

    db = "PostgreSQL" if opts.pg else "SQLite"
    load = os.getloadavg()
    print(f"\nbig: a game of {opts.hands} hands typed with cards (built in {built:.0f} s); "
          f"gunicorn {opts.workers} workers × {opts.threads} threads on {db}; {os.cpu_count()} "
          f"CPUs, load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} at the end")
    print(f"  saves, {TIMED_SAVES} to each game in turn, to a game of 10 hands and to the large "
          f"one (hands {opts.hands - TIMED_SAVES + 1}–{opts.hands}):")
    for way in ("api", "page"):
        small_took, large_took = saves[f"{way} small"], saves[f"{way} large"]
        print(f"    {way:<4} 10 hands p50 {ms(small_took, .5)}, p95 {ms(small_took, .95)}; "
              f"large p50 {ms(large_took, .5)}, p95 {ms(large_took, .95)}")
    print(f"  {opts.clients} clients asking for the large game for {opts.seconds:g} s:")
    for kind, took in sorted(answers.items()):
        print(f"    {kind:<22} {len(took):>4} answers, p50 {ms(took, .5)}, p95 {ms(took, .95)}, "
              f"max {ms(took, 1)}")
    page, saved = seen["page"], seen["save"]
    met = percentile(page, .95) <= 1 and percentile(saved, .95) <= 1
    print(f"  another table's phone: page p95 {ms(page, .95)} (max {ms(page, 1)}, "
          f"{len(page)}), save p95 {ms(saved, .95)} (max {ms(saved, 1)}, {len(saved)}); "
          f"aim ≤ 1 s each: {'met' if met else 'missed'}")
    more = f" (+{len(errors) - 10})" if len(errors) > 10 else ""
    print(f"  errors: {errors[:10] or 'none'}{more}")


if __name__ == "__main__":
    main()
