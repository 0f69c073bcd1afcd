"""How long a printed score sheet takes, against a one-line WeasyPrint document.

Builds gin games of 10, 40 and 200 hands through the JSON API on a temporary SQLite
database, fetches each sheet's PDF through the app (replay, template and WeasyPrint:
what a player waits for), and times a one-line document in the same run as the
reference. Prints medians, ratios, and the cost of each further hand; and the Python
calls each document makes, which unlike its CPU time do not move with the machine (C
work, Pango's and HarfBuzz's, is not in them).

With ``--instructions`` it also counts the machine instructions of the one-line
document and of the 40-hand sheet under valgrind's callgrind, C work included: a
count that stays put however busy the machine is. Each is the count of a process that
makes ``--documents`` of them after two to warm up, less that of one that makes none,
divided by ``--documents``: two to three minutes on two cores, the four processes two
at a time.

    .venv/bin/python bench/pdf.py [--runs 7] [--instructions [--documents 16]]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app

SIZES = (10, 40, 200)


def hand(number: int, last: int) -> dict[str, Any]:
    """The ``number``-th hand of a long game: knocks, gins, undercuts, a dead hand in ten.

    Seat 0 wins most odd hands and seat 1 the even ones, seat 0 by more, and seat 0
    wins the last one: the game ends there when the target is seat 0's final total.
    """
    if number == last:
        return quick("knock", 0, 2, 20)
    if number % 10 == 0:
        return {"outcome": "dead"}
    knocker = 0 if number % 2 else 1
    if number % 7 == 0:
        return quick("gin", knocker, 0, 4 + number % 9)
    if number % 5 == 0 and knocker == 1:  # an undercut: seat 0 defends and wins
        return quick("knock", 1, 6, 6)
    return quick("knock", knocker, 2, 6 + number % 11 + (3 if knocker == 0 else 0))


def quick(outcome: str, knocker: int, k: int, d: int) -> dict[str, Any]:
    """A hand entered in quick mode, as ``POST /api/v1/games/<id>/hands`` takes it."""
    return {"outcome": outcome, "knocker": knocker, "knocker_deadwood": k,
            "defender_deadwood": d}


def new_game(client: FlaskClient, hands: int, target: int) -> tuple[str, int]:
    """A russian-rules gin game to ``target`` of ``hands`` hands, through the JSON API:
    its id and seat 0's final total."""
    created = client.post("/api/v1/games", json={
        "variant": "gin", "players": ["Ann", "Пётр"], "dealer": 0,
        "rules": {"preset": "russian", "target": target}})
    assert created.status_code == 201, created.get_json()
    game_id, secret = created.get_json()["id"], created.get_json()["edit_secret"]
    for number in range(1, hands + 1):
        saved = client.post(f"/api/v1/games/{game_id}/hands", json=hand(number, hands),
                            headers={"X-Edit-Secret": secret, "Idempotency-Key": str(number)})
        assert saved.status_code == 201, saved.get_json()
    game = client.get(f"/api/v1/games/{game_id}").get_json()
    return game_id, game["hands"][-1]["totals"][0]


def build_game(app: Flask, hands: int) -> str:
    """A finished game of ``hands`` hands, the last one ending it: played once to a
    target out of reach to learn seat 0's final total, then again to that target."""
    client = app.test_client()
    _unfinished, total = new_game(client, hands, 10_000)
    game_id, _total = new_game(client, hands, total)
    assert client.get(f"/api/v1/games/{game_id}").get_json()["hands"][-1]["totals"][0] == total
    return game_id


def cpu_seconds(actions: dict[Any, Callable[[], object]], runs: int) -> dict[Any, list[float]]:
    """CPU times of each action over ``runs`` rounds, after one warm-up round.

    The actions take turns within each round (reference, 10, 40, 200 hands, again…):
    a machine that slows down or speeds up during the run moves every figure alike,
    where one block of runs after another moved the ratios by a fifth either way.
    """
    for action in actions.values():
        action()
    times: dict[Any, list[float]] = {key: [] for key in actions}
    for _ in range(runs):
        for key, action in actions.items():
            start = time.process_time()
            action()
            times[key].append(time.process_time() - start)
    return times


def python_calls(action: Callable[[], object]) -> int:
    """How many Python function calls one more run of ``action`` makes (cProfile): a
    count that does not move with the machine's speed or load, unlike its CPU time."""
    import cProfile
    import pstats

    action()
    profile = cProfile.Profile()
    profile.enable()
    action()
    profile.disable()
    calls: int = pstats.Stats(profile).total_calls  # type: ignore[attr-defined]
    return calls


def one_line() -> bytes:
    """The reference: a one-line document, straight through WeasyPrint."""
    import weasyprint

    pdf: bytes = weasyprint.HTML(string="<p>Scorekeeper</p>").write_pdf()
    return pdf


def sheet(app: Flask, game_id: str) -> Callable[[], bytes]:
    """Fetching a game's sheet PDF through the app, as a phone does."""
    client = app.test_client()

    def fetch() -> bytes:
        response = client.get(f"/g/{game_id}/sheet.pdf")
        assert response.status_code == 200, response.status_code
        data: bytes = response.data
        return data

    return fetch


def main() -> None:
    """Time the sheets and the reference, and count their instructions if asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--instructions", action="store_true",
                        help="also count instructions under callgrind (valgrind)")
    parser.add_argument("--documents", type=int, default=16,
                        help="documents per counted process (--instructions)")
    parser.add_argument("--make", metavar="DOCUMENT", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.make:  # a counted process (``count_instructions``)
        make_documents(opts.make, opts.documents)
        return
    time_documents(opts.runs)
    if opts.instructions:
        print_instructions(opts.documents)


def time_documents(runs: int) -> None:
    """Time the sheets and the reference in turns; print figures, ratios, growth."""
    import weasyprint

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite"})
        games = {size: build_game(app, size) for size in SIZES}
        actions: dict[Any, Callable[[], object]] = {"one-line": one_line}
        actions.update({size: sheet(app, games[size]) for size in SIZES})
        times = cpu_seconds(actions, runs)
        calls = {key: python_calls(action) for key, action in actions.items()}
        timings = {key: statistics.median(found) for key, found in times.items()}
        reference = timings["one-line"]
        app.extensions["scorekeeper.engine"].dispose()

    print(f"PDF score sheets, WeasyPrint {weasyprint.__version__}, median of {runs} runs")
    print(f"  one-line document  {reference * 1000:8.1f} ms   1.00×"
          f"   {calls['one-line'] / 1000:6.1f} k Python calls")
    for size in SIZES:
        ratio = timings[size] / reference
        print(f"  {size:3d}-hand sheet     {timings[size] * 1000:8.1f} ms  {ratio:5.2f}×"
              f"   {calls[size] / 1000:6.1f} k ({calls[size] / calls['one-line']:.1f}×)")
    low, mid, high = (timings[size] for size in SIZES)
    first = (mid - low) / (SIZES[1] - SIZES[0])
    second = (high - mid) / (SIZES[2] - SIZES[1])
    print(f"  per hand: {first * 1000:.2f} ms (10→40), {second * 1000:.2f} ms (40→200);"
          f" ratio {second / first:.2f} (1.00 = linear)")
    print(f"  40-hand sheet vs one-line: {timings[40] / reference:.2f}×")
    # On a machine shared with others the medians of two identical documents moved by
    # a tenth; the fastest runs, which others' work can only slow down, moved less.
    best = min(times[40]) / min(times["one-line"])
    print(f"  the same, fastest run of each: {best:.2f}× (for comparing noisy machines)")


# What callgrind prints of a whole process at its end: "==123== Collected : 4567".
COLLECTED = re.compile(r"^==\d+== Collected : (\d+)$", re.M)
WARM_UP = 2  # documents made before the counted ones, in both processes


def make_documents(document: str, count: int) -> None:
    """A counted process: build what ``document`` ("one-line", or a sheet's number of
    hands) needs, make ``WARM_UP`` of it, then ``count`` more."""
    with tempfile.TemporaryDirectory() as tmp:
        if document == "one-line":
            action: Callable[[], object] = one_line
        else:
            app = create_app({"SECRET_KEY": "bench",
                              "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite"})
            action = sheet(app, build_game(app, int(document)))
        for _ in range(WARM_UP + count):
            action()


def count_instructions(document: str, count: int) -> int:
    """The instructions a process making ``count`` of ``document`` (after the warm-up)
    runs under callgrind, start to end. The hash seed is fixed: Python's hashing of
    names moves a process's count by a few in ten thousand otherwise."""
    env = os.environ | {"PYTHONHASHSEED": "0"}
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, __file__, "--make", document, "--documents", str(count)],
        env=env, capture_output=True, text=True, check=True)
    found = COLLECTED.search(done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count:\n{done.stderr[-2000:]}")
    return int(found[1])


def print_instructions(documents: int) -> None:
    """The one-line document's and the 40-hand sheet's instructions, and their ratio."""
    if shutil.which("valgrind") is None:
        print("instructions: valgrind is not installed (apt-get install valgrind)")
        return
    kinds = ("one-line", "40")
    runs = [(kind, count) for kind in kinds for count in (0, documents)]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        totals = dict(zip(runs, pool.map(lambda run: count_instructions(*run), runs),
                          strict=True))
    each = {kind: (totals[kind, documents] - totals[kind, 0]) / documents for kind in kinds}
    ratio = each["40"] / each["one-line"]
    print(f"instructions (callgrind, {documents} documents a process less none, after "
          f"{WARM_UP} to warm up):")
    print(f"  one-line document  {each['one-line'] / 1e6:8.1f} M")
    print(f"   40-hand sheet     {each['40'] / 1e6:8.1f} M  {ratio:5.2f}×")


if __name__ == "__main__":
    main()
