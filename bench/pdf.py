"""How long a printed score sheet takes, against a one-line WeasyPrint document.

Builds gin games of 10, 40 and 200 hands through the service layer on a temporary
SQLite database, fetches each sheet's PDF through the app (replay, template and
WeasyPrint: what a player waits for), and times a one-line document in the same run
as the reference. Prints medians, ratios, and the cost of each further hand; and the
Python calls each document makes, which unlike its CPU time do not move with the
machine (C work, Pango's and HarfBuzz's, is not in them).

    .venv/bin/python bench/pdf.py [--runs 7]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask import Flask

from scorekeeper import create_app

SIZES = (10, 40, 200)
AIM_40 = 5.0  # a 40-hand sheet should cost at most this many one-line documents


def hand(number: int, last: int) -> dict[str, Any]:
    """The ``number``-th hand of a long game: knocks, gins, undercuts, a dead hand in ten.

    Seat 0 wins most odd hands and seat 1 the even ones, seat 0 by more, and seat 0
    wins the last one: the game ends there when the target is seat 0's final total.
    """
    if number == last:
        return quick("knock", 0, 2, 20)
    if number % 10 == 0:
        return quick("dead", None, 0, 0)
    knocker = 0 if number % 2 else 1
    if number % 7 == 0:
        return quick("gin", knocker, 0, 4 + number % 9)
    if number % 5 == 0 and knocker == 1:  # an undercut: seat 0 defends and wins
        return quick("knock", 1, 6, 6)
    return quick("knock", knocker, 2, 6 + number % 11 + (3 if knocker == 0 else 0))


def quick(outcome: str, knocker: int | None, k: int, d: int) -> dict[str, Any]:
    """A hand entered in quick mode, as the sheet's form stores it."""
    return {"mode": "quick", "outcome": outcome, "knocker": knocker,
            "knocker_deadwood": k, "defender_deadwood": d, "upcard": None}


def build_game(app: Flask, hands: int) -> str:
    """A finished russian-rules game of ``hands`` hands (the last one ends it)."""
    # Imported once the app exists, as the app itself does.
    from scorekeeper.db import get_session
    from scorekeeper.games import service
    from scorekeeper.models import Game
    from scorekeeper.scoring import PRESETS
    from scorekeeper.sheets import gin_sheet

    with app.test_request_context(method="POST"):  # a GET's session is read-only
        db = get_session()
        rules = dataclasses.replace(PRESETS["russian"], target=10_000)
        game = Game(variant="gin", players=["Ann", "Пётр"], rules=rules.to_dict(),
                    setup={"dealer": 0}, version=0)
        db.add(game)
        for number in range(1, hands + 1):
            service.add_hand(db, game, hand(number, hands), token=None, version=None, by="bench",
                             finished=lambda g: False)
        totals = gin_sheet(game).game.totals
        game.rules = dataclasses.replace(rules, target=totals[0]).to_dict()
        db.commit()
        played = gin_sheet(game).game
        assert played.finished and not played.ignored, "the game must end on its last hand"
        return game.id


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


def main() -> None:
    """Time the sheets and the reference; print figures, ratios and the growth."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    runs = parser.parse_args().runs

    import weasyprint

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite"})
        client = app.test_client()
        games = {size: build_game(app, size) for size in SIZES}

        def one_line() -> bytes:
            pdf: bytes = weasyprint.HTML(string="<p>Scorekeeper</p>").write_pdf()
            return pdf

        def sheet(game_id: str) -> Callable[[], bytes]:
            def fetch() -> bytes:
                response = client.get(f"/g/{game_id}/sheet.pdf")
                assert response.status_code == 200, response.status_code
                data: bytes = response.data
                return data
            return fetch

        actions: dict[Any, Callable[[], object]] = {"one-line": one_line}
        actions.update({size: sheet(games[size]) for size in SIZES})
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
    verdict = "ok" if timings[40] / reference <= AIM_40 else "OVER"
    ratio_40 = timings[40] / reference
    print(f"  40-hand sheet vs one-line: {ratio_40:.2f}× (aim ≤ {AIM_40}×: {verdict})")
    # On a machine shared with others the medians of two identical documents moved by
    # a tenth; the fastest runs, which others' work can only slow down, moved less.
    best = min(times[40]) / min(times["one-line"])
    print(f"  the same, fastest run of each: {best:.2f}× (for comparing noisy machines)")


if __name__ == "__main__":
    main()
