"""A group page over 500 games: warm within 1 s (and against one game's page).

Builds a group with 500 finished games of 30 hands each (gin, Oklahoma, Hollywood,
three-hand, partnership and Remi in turn, hands varied so that no two games replay
alike) straight through the models, then times through the app (test client, no
network): one game's sheet, the group page and ``GET /api/v1/groups/<id>``, first on
the first view ever (every game replayed through scoring/ and its summary stored),
then warm (every game's summary read back from the database, as in any process).
SQLite by default; ``--database URL`` for PostgreSQL (the database is emptied first).

    .venv/bin/python bench/stats.py [--games 500] [--runs 5] [--database URL]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask import Flask

from scorekeeper import create_app

HANDS = 30
KINDS = ("gin", "oklahoma", "hollywood", "three_hand", "partnership", "remi")
PLAYERS = ["Ann", "Bob", "Cid", "Dan", "Eve", "Пётр"]
GUARD = 1.0  # seconds: the warm group page and JSON


def quick(
    knocker: int | None, k: int, d: int, outcome: str = "knock", up: str | None = None
) -> dict[str, Any]:
    return {"mode": "quick", "outcome": outcome, "knocker": knocker,
            "knocker_deadwood": k, "defender_deadwood": d, "upcard": up}


def gin_hands(g: int, upcard: str | None = None) -> list[dict[str, Any]]:
    """Seat 0 wins the odd hands (and the last) by more, seat 1 the even ones; a gin in
    seven, an undercut by seat 0 in eleven, a dead hand in thirteen."""
    hands = []
    for i in range(1, HANDS + 1):
        d = 2 + (g * 7 + i * 3) % 9
        if i == HANDS or i % 2:
            gin = i % 7 == 0
            hands.append(quick(0, 0, d, "gin", upcard) if gin else quick(0, 1, d + 1, up=upcard))
        elif i % 13 == 0:
            hands.append(quick(None, 0, 0, "dead", upcard))
        elif i % 11 == 0:
            hands.append(quick(1, 5, 5, up=upcard))  # seat 0 undercuts
        else:
            hands.append(quick(1, 2, 2 + d // 3, up=upcard))
    return hands


def three_hand_hands(g: int) -> list[dict[str, Any]]:
    """The box wins every hand (and so stays in the box)."""
    return [quick(0, 1, 2 + (g + i) % 12) for i in range(1, HANDS + 1)]


def partnership_deals(g: int) -> list[dict[str, Any]]:
    """Seat 0's side wins table one by more than the other side wins table two."""
    deals = []
    for i in range(1, HANDS + 1):
        big, small = 8 + (g + i) % 9, 1 + (g * 3 + i) % 5
        deals.append({"mode": "deal", "tables": [quick(0, 1, big + 1), quick(1, 1, small + 1)]})
    return deals


def remi_deals(g: int, seats: int) -> list[dict[str, Any]]:
    from scorekeeper.variants.remi import deal_inputs

    deals = []
    for i in range(1, HANDS + 1):
        out = (g + i) % seats
        body = {"went_out": out, "discard_value": (5, 10, 15)[(g + i) % 3], "players": [
            {"plus": _plus(g + i + s, s == out), "minus": 0 if s == out else 5 * ((i + s) % 5)}
            for s in range(seats)]}
        deals.append(deal_inputs(body, seats))
    return deals


def hands_for(kind: str, g: int, seats: int) -> list[dict[str, Any]]:
    """The stored inputs of game number ``g`` of ``kind``."""
    if kind in ("gin", "oklahoma"):
        return gin_hands(g, "KH" if kind == "oklahoma" else None)
    if kind == "hollywood":
        return [quick(0, 1, 2 + (g + i) % 9) for i in range(HANDS)]
    if kind == "three_hand":
        return three_hand_hands(g)
    if kind == "partnership":
        return partnership_deals(g)
    return remi_deals(g, seats)


def _plus(n: int, out: bool) -> int:
    """Cards in combinations: none, or 15 and more (3 cards at least)."""
    return 0 if n % 4 == 0 and not out else 15 + 5 * (n % 5)


def build_group(app: Flask, games: int) -> tuple[str, str]:
    """The group (its id) and the id of one of its gin games."""
    from scorekeeper.db import get_session
    from scorekeeper.models import Game, Group, Hand, new_token
    from scorekeeper.scoring import PRESETS
    from scorekeeper.variants import VARIANTS

    with app.app_context():  # outside a request: the writer's session
        db = get_session()
        group = Group(name="Club", players=list(PLAYERS), stake="0.01", currency="EUR")
        db.add(group)
        db.flush()
        start = datetime.now(UTC) - timedelta(days=games)
        one_gin = ""
        for g in range(games):
            kind = KINDS[g % len(KINDS)]
            seats = {"three_hand": 3, "partnership": 4, "remi": 2 + g % 3}.get(kind, 2)
            names = [PLAYERS[(g + s) % len(PLAYERS)] for s in range(seats)]
            rules = {"gin": "classic", "oklahoma": "oklahoma", "hollywood": "russian",
                     "three_hand": "three_hand", "partnership": "partnership", "remi": "remi"}
            base = PRESETS[rules[kind]].replace(target=10_000)
            if kind == "remi":
                base = base.replace(deals=HANDS)
            hands = hands_for(kind, g, seats)
            setup = {"box": 0, "captain": 1} if kind == "three_hand" else {"dealer": 0}
            game = Game(id=new_token(), variant=kind, players=names, rules=base.to_dict(),
                        setup=setup, group_id=group.id, stake="0.01", currency="EUR",
                        created_at=start + timedelta(days=g), version=HANDS)
            game.hands = [Hand(number=n, inputs=h) for n, h in enumerate(hands, start=1)]
            if kind != "remi":
                game.rules = base.replace(target=_target(VARIANTS[kind], game)).to_dict()
            assert VARIANTS[kind].sheet(game).finished, (kind, g)
            db.add(game)
            if kind == "gin" and not one_gin:
                one_gin = game.id
        db.commit()
        return group.id, one_gin


def _target(variant: Any, game: Any) -> int:
    """The target that ends the game on its last hand: the leader's total then (for
    Hollywood, the third column's)."""
    sheet = variant.sheet(game).game
    if game.variant == "hollywood":
        return int(sheet.columns[2].totals[0])
    return int(max(sheet.totals))


def interleaved(fetches: dict[str, Callable[[], Any]], runs: int) -> dict[str, float]:
    """Median time of each fetch, taken in turns so that a busy moment of the machine
    falls on all of them alike."""
    times: dict[str, list[float]] = {name: [] for name in fetches}
    for _ in range(runs):
        for name, fetch in fetches.items():
            start = time.perf_counter()
            response = fetch()
            times[name].append(time.perf_counter() - start)
            assert response.status_code == 200, (name, response.status_code)
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--database", help="a SQLAlchemy URL (emptied first); default SQLite")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database or f"sqlite:///{tmp}/bench.sqlite"
        if args.database:
            from tests.conftest import reset_postgres

            reset_postgres(url)
        app = create_app({"DATABASE_URL": url, "SECRET_KEY": "bench", "TESTING": True})
        started = time.perf_counter()
        group, game = build_group(app, args.games)
        print(f"{args.games} games × {HANDS} hands built in {time.perf_counter() - started:.1f} s"
              f" ({'PostgreSQL' if args.database else 'SQLite'})")
        client = app.test_client()
        client.get(f"/g/{game}")  # templates compiled, engine warmed: not what a page costs
        start = time.perf_counter()
        assert client.get(f"/groups/{group}").status_code == 200
        cold = time.perf_counter() - start
        medians = interleaved(
            {
                "one": lambda: client.get(f"/g/{game}"),
                "page": lambda: client.get(f"/groups/{group}"),
                "data": lambda: client.get(f"/api/v1/groups/{group}"),
                "player": lambda: client.get(f"/groups/{group}/players/Ann"),
                "gin": lambda: client.get(f"/groups/{group}/players/Ann?kind=gin"),
            },
            args.runs,
        )
        one, page, data, player, gin = (
            medians[k] for k in ("one", "page", "data", "player", "gin")
        )
        print(f"one game's page (30 hands):   {one * 1000:7.1f} ms")
        print(f"group page, first ever view:  {cold * 1000:7.1f} ms  {cold / one:5.1f}×")
        print(f"group page, warm:             {page * 1000:7.1f} ms  {page / one:5.1f}×")
        print(f"group JSON, warm:             {data * 1000:7.1f} ms  {data / one:5.1f}×")
        print(f"a player's page, warm:        {player * 1000:7.1f} ms  {player / one:5.1f}×")
        print(f"  the same, gin games only:   {gin * 1000:7.1f} ms  {gin / one:5.1f}×")
        verdict = "meets" if max(page, data, player) <= GUARD else "MISSES"
        print(f"{verdict} the guard: warm group page, its JSON and a player's page"
              f" within {GUARD:g} s")
        app.extensions["scorekeeper.engine"].dispose()


if __name__ == "__main__":
    main()
