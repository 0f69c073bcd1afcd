"""Benchmark of the gin engine against rlcard (pure Python) and OpenSpiel (C++).

Run ``python bench/engine.py`` (``make bench``); ``--quick`` for a short run. Hands
are seeded, so every run times the same work:

* 10 cards: ``best_arrangement`` vs rlcard ``get_best_meld_clusters``
  (target: at least 2× rlcard) and OpenSpiel ``min_deadwood``;
* 11 cards, exact best discard: ``best_arrangement`` vs OpenSpiel ``min_deadwood``
  over the 11 possible discards (target: at least as fast);
* ``settle_gin_hand`` latency (p50, p99) on dealt hands the knocker may knock with.

Each figure is the best of several rounds, the engines interleaved, because the
machine is shared. A missing reference package is reported and skipped. Every engine's
deadwood is cross-checked on every hand, so the race is between equal answers.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from importlib import import_module
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.scoring import DECK, PRESETS, Card, best_arrangement, settle_gin_hand

SEED = 20240601
CLASSIC = PRESETS["classic"]  # no big gin: 11 cards always give the exact best discard
# Meld-rich hands: three suits, ranks 4–9, so melds overlap and choices matter.
RICH_POOL = [c for c in DECK if c.suit.value in "SHD" and 4 <= c.rank <= 9]


def deal(rng: random.Random, size: int, count: int, pool: Sequence[Card]) -> list[list[Card]]:
    return [rng.sample(list(pool), size) for _ in range(count)]


def job(solve: Callable[[Any], object], hands: Sequence[Any]) -> Callable[[], object]:
    """One timed pass: ``solve`` every hand."""
    return lambda: [solve(hand) for hand in hands]


def rates(runs: dict[str, Callable[[], object]], count: int, rounds: int) -> dict[str, float]:
    """Hands per second of each run: its best time over ``rounds``, the runs interleaved
    round by round so that a busy moment on a shared machine hits them all alike."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for engine, run in runs.items():
            start = time.perf_counter()
            run()
            best[engine] = min(best[engine], time.perf_counter() - start)
    return {engine: count / seconds for engine, seconds in best.items()}


# --- reference engines (optional) ---------------------------------------------------------


def load_rlcard() -> tuple[Callable[[list[Any]], Any], Callable[[Card], Any]] | None:
    try:
        melding = import_module("rlcard.games.gin_rummy.utils.melding")
        utils = import_module("rlcard.games.gin_rummy.utils.utils")
    except ImportError as exc:
        print(f"rlcard: skipped ({exc})")
        return None
    # rlcard numbers its cards like Card.index (suit-major S H D C, ace low).
    return melding.get_best_meld_clusters, lambda card: utils.get_card(card.index)


def rlcard_deadwood(clusters: list[list[list[Any]]], hand: list[Any]) -> int:
    utils = import_module("rlcard.games.gin_rummy.utils.utils")
    if not clusters:
        return sum(utils.get_deadwood_value(c) for c in hand)
    return int(utils.get_deadwood_count(hand, clusters[0]))


def load_open_spiel() -> Any | None:
    try:
        pyspiel = import_module("pyspiel")
    except ImportError as exc:
        print(f"open_spiel: skipped ({exc})")
        return None
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


_SPIEL_SUIT = {"S": 0, "C": 1, "D": 2, "H": 3}  # OpenSpiel's suit order: s c d h


def spiel_ints(hand: Sequence[Card]) -> list[int]:
    return [_SPIEL_SUIT[c.suit.value] * 13 + c.rank - 1 for c in hand]


def spiel_best_discard(utils: Any, hand: list[int]) -> int:
    return int(min(utils.min_deadwood(hand[:i] + hand[i + 1 :]) for i in range(len(hand))))


# --- the benchmark ---------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands and rounds")
    args = parser.parse_args()
    count, rounds = (600, 2) if args.quick else (4000, 5)

    rng = random.Random(SEED)
    sets = {
        "10 random": deal(rng, 10, count, DECK),
        "10 meld-rich": deal(rng, 10, count, RICH_POOL),
        "11 random": deal(rng, 11, count, DECK),
        "11 meld-rich": deal(rng, 11, count, RICH_POOL),
    }
    rl = load_rlcard()
    spiel = load_open_spiel()
    print(f"{count} hands a set, best of {rounds} rounds; Python {sys.version.split()[0]}\n")

    ours: dict[str, float] = {}
    theirs: dict[str, dict[str, float]] = {"rlcard": {}, "open_spiel": {}}
    for name, hands in sets.items():
        eleven = name.startswith("11")
        rules = CLASSIC if eleven else None
        runs = {"ours": job(partial(best_arrangement, rules=rules), hands)}
        expected = [best_arrangement(h, rules).deadwood_points for h in hands]
        if rl is not None and not eleven:
            clusters, to_rl = rl
            rl_hands = [[to_rl(c) for c in h] for h in hands]
            runs["rlcard"] = job(clusters, rl_hands)
            got = [rlcard_deadwood(clusters(h), h) for h in rl_hands]
            assert got == expected, "rlcard disagrees on a hand's deadwood"
        if spiel is not None:
            ints = [spiel_ints(h) for h in hands]
            solve = spiel.min_deadwood
            if eleven:
                solve = partial(spiel_best_discard, spiel)
            runs["open_spiel"] = job(solve, ints)
            assert [solve(h) for h in ints] == expected, "open_spiel disagrees on a deadwood"
        measured = rates(runs, count, rounds)
        ours[name] = measured.pop("ours")
        for engine, value in measured.items():
            theirs[engine][name] = value

    print_table(ours, theirs)
    latency(rng, 400 if args.quick else 2000)


def print_table(ours: dict[str, float], theirs: dict[str, dict[str, float]]) -> None:
    header = f"{'hands/s':<14}{'ours':>10}{'rlcard':>10}{'ratio':>8}{'open_spiel':>12}{'ratio':>8}"
    print(header)
    print("-" * len(header))
    for name, mine in ours.items():
        cells = [f"{name:<14}{mine:>10,.0f}"]
        for engine, width in (("rlcard", 10), ("open_spiel", 12)):
            other = theirs[engine].get(name)
            cells.append(
                f"{other:>{width},.0f}{mine / other:>7.2f}×" if other else f"{'—':>{width}}{'':>8}"
            )
        print("".join(cells))
    print()
    checks = [
        ("10-card throughput ≥ 2× rlcard", "rlcard", ("10 random", "10 meld-rich"), 2.0),
        ("exact 11-card throughput ≥ open_spiel", "open_spiel", ("11 random", "11 meld-rich"), 1.0),
    ]
    for label, engine, names, target in checks:
        ratios = [ours[n] / theirs[engine][n] for n in names if n in theirs[engine]]
        if not ratios:
            print(f"target {label}: not measured ({engine} missing)")
            continue
        verdict = "met" if min(ratios) >= target else "MISSED"
        print(f"target {label}: {verdict} (worst ratio {min(ratios):.2f}×)")


def latency(rng: random.Random, count: int) -> None:
    """``settle_gin_hand`` time on dealt hands where the knocker may knock."""
    deals: list[tuple[list[Card], list[Card]]] = []
    while len(deals) < count:
        pool = RICH_POOL + rng.sample([c for c in DECK if c not in RICH_POOL], 10)
        cards = rng.sample(pool, 20)
        if best_arrangement(cards[:10]).deadwood_points <= CLASSIC.knock_limit:
            deals.append((cards[:10], cards[10:]))
    times: list[float] = []
    for knocker, defender in deals:
        start = time.perf_counter()
        settle_gin_hand(CLASSIC, knocker, defender)
        times.append(time.perf_counter() - start)
    times.sort()
    p50 = statistics.median(times) * 1e6
    p99 = times[int(len(times) * 0.99) - 1] * 1e6
    print(f"\nsettle_gin_hand over {count} knockable deals: p50 {p50:,.0f} µs, p99 {p99:,.0f} µs")


if __name__ == "__main__":
    main()
