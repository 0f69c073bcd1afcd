"""Club night pairings: round robin, Swiss, king of the hill, and the board."""

from __future__ import annotations

import doctest
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.nights import pairing
from scorekeeper.nights.pairing import (
    FORMATS,
    NightError,
    Result,
    Round,
    Standing,
    Table,
    next_round,
    rounds_needed,
    standings,
)


def names(n: int) -> list[str]:
    return [f"P{i:03}" for i in range(1, n + 1)]


def seated(rnd: Round) -> list[str]:
    return [x for t in rnd.tables for x in (t.a, t.b)] + list(rnd.byes)


def test_docstring_examples() -> None:
    failed, tried = doctest.testmod(pairing)
    assert tried > 0 and failed == 0


# Validation ------------------------------------------------------------------------


@pytest.mark.parametrize("format", FORMATS)
@pytest.mark.parametrize(
    ("entrants", "message"),
    [
        ([], "at least 2 entrants, not 0"),
        (["Ann"], "at least 2 entrants, not 1"),
        (["Ann", "Bob", "Ann"], "entered more than once: Ann"),
        (["Ann", " "], "an entrant's name is blank"),
    ],
)
def test_bad_entrants_are_refused(format: str, entrants: list[str], message: str) -> None:
    with pytest.raises(NightError, match=message):
        next_round(format, entrants, [], [])


def test_every_problem_is_named_at_once() -> None:
    with pytest.raises(NightError) as caught:
        next_round("swiss", ["Ann", "Ann", ""], [], [])
    assert caught.value.problems == ("an entrant's name is blank", "entered more than once: Ann")


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown format 'ladder': choose one of round_robin"):
        next_round("ladder", ["Ann", "Bob"], [], [])
    with pytest.raises(ValueError, match="unknown format"):
        rounds_needed("ladder", 4)


def test_a_result_naming_a_stranger_is_refused() -> None:
    result = Result(1, 1, "Ann", "Zed", 100, 50, "Ann")
    with pytest.raises(NightError, match="round 1, table 1: not entered: Zed"):
        standings(["Ann", "Bob"], [result], [])


def test_unknown_tie_break_is_refused() -> None:
    with pytest.raises(NightError, match="unknown tie-break 'rating'"):
        standings(["Ann", "Bob"], [], [], order=("match_points", "rating"))


@pytest.mark.parametrize(
    ("format", "n", "rounds"),
    [
        ("round_robin", 2, 1),
        ("round_robin", 3, 3),
        ("round_robin", 8, 7),
        ("round_robin", 9, 9),
        ("swiss", 2, 1),
        ("swiss", 8, 3),
        ("swiss", 9, 4),
        ("swiss", 160, 8),
        ("king_of_the_hill", 12, None),
    ],
)
def test_rounds_needed(format: str, n: int, rounds: int | None) -> None:
    assert rounds_needed(format, n) == rounds


# Round robin -----------------------------------------------------------------------


def round_robin(entrants: list[str]) -> list[Round]:
    rounds: list[Round] = []
    while (rnd := next_round("round_robin", entrants, rounds, [])) is not None:
        rounds.append(rnd)
    return rounds


@given(st.integers(2, 20))
def test_round_robin_everyone_meets_everyone_once(n: int) -> None:
    entrants = names(n)
    rounds = round_robin(entrants)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))
    meetings = Counter(frozenset((t.a, t.b)) for r in rounds for t in r.tables)
    assert set(meetings) == {frozenset(pair) for pair in combinations(entrants, 2)}
    assert set(meetings.values()) == {1}
    for r in rounds:
        assert sorted(seated(r)) == entrants  # everyone once a round
        assert [t.number for t in r.tables] == list(range(1, n // 2 + 1))
        assert len(r.byes) == n % 2
    byes = Counter(x for r in rounds for x in r.byes)
    assert byes == (Counter(entrants) if n % 2 else Counter())


@given(st.integers(2, 20), st.data())
def test_round_robin_round_depends_only_on_entrants_and_number(n: int, data: st.DataObject) -> None:
    entrants = names(n)
    rounds = round_robin(entrants)
    k = data.draw(st.integers(0, len(rounds) - 1))
    anything = [Round(i + 1, (), ()) for i in range(k)]
    assert next_round("round_robin", entrants, anything, []) == rounds[k]


def test_round_robin_by_hand() -> None:
    # Five entrants and an empty seat: A keeps the first seat, the others turn.
    # Round 1: A B C D E _ -> A-_ (A sits out), B-E, C-D.
    # Round 2: A _ B C D E -> A-E (E takes seat a on even rounds), _-D, B-C.
    entrants = ["A", "B", "C", "D", "E"]
    rounds = round_robin(entrants)
    assert rounds[0] == Round(1, (Table(1, "B", "E"), Table(2, "C", "D")), ("A",))
    assert rounds[1] == Round(2, (Table(1, "E", "A"), Table(2, "B", "C")), ("D",))
    assert len(rounds) == 5
    assert next_round("round_robin", entrants, rounds, []) is None


# Standings -------------------------------------------------------------------------

# Seven entrants, three rounds (an odd number, so one sits out each round).
SEVEN = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus"]
SEVEN_ROUNDS = [
    Round(1, (Table(1, "Bob", "Cy"), Table(2, "Di", "Gus"), Table(3, "Fay", "Ann")), ("Eve",)),
    Round(2, (Table(1, "Cy", "Di"), Table(2, "Bob", "Ann"), Table(3, "Eve", "Gus")), ("Fay",)),
    Round(3, (Table(1, "Cy", "Eve"), Table(2, "Bob", "Fay"), Table(3, "Ann", "Gus")), ("Di",)),
]
SEVEN_RESULTS = [
    Result(1, 1, "Bob", "Cy", 130, 130, None),  # a draw
    Result(1, 2, "Di", "Gus", 220, 100, "Di"),
    Result(1, 3, "Fay", "Ann", 150, 0, "Fay", shutout=True),
    Result(2, 1, "Cy", "Di", 160, 100, "Cy"),
    Result(2, 2, "Bob", "Ann", 160, 100, "Bob"),
    Result(2, 3, "Eve", "Gus", 150, 0, "Eve", shutout=True),
    Result(3, 1, "Cy", "Eve", 90, 90, None),
    Result(3, 2, "Bob", "Fay", 110, 110, None),
    Result(3, 3, "Ann", "Gus", 0, 0, "Ann", forfeit=True),  # Gus went home
]
# Worked out on paper (match points: win 2, draw 1, bye 2; a forfeit is no game won
# and its scores count for nothing):
#        played W D L byes  mp  won  shutouts  diff   for
#  Ann   3      1 0 2 0     2   0    0         -150-60 = -210     0+100+0 = 100
#  Bob   3      1 2 0 0     4   1    0         0+60+0 = +60       130+160+110 = 400
#  Cy    3      1 2 0 0     4   1    0         0+60+0 = +60       130+160+90 = 380
#  Di    2      1 0 1 1     4   1    0         +120-60 = +60      220+100 = 320
#  Eve   2      1 1 0 1     5   1    1         +150+0 = +150      150+90 = 240
#  Fay   2      1 1 0 1     5   1    1         +150+0 = +150      150+110 = 260
#  Gus   3      0 0 3 0     0   0    0         -120-150 = -270    100+0 = 100
# Eve and Fay: tied on match points, games won, shutouts and difference, and they
# never met (head to head 0 each): they share rank 1, Eve first by seed.
# Bob, Cy, Di: tied on 4, 1, 0, +60; between them Bob drew Cy (Bob 1, Cy 1) and Cy
# beat Di (Cy 2, Di 0): head to head Cy 3, Bob 1, Di 0 -> ranks 3, 4, 5.
# Ann 6, Gus 7.
SEVEN_BOARD = [
    Standing("Eve", 1, 2, 1, 1, 0, 1, 5, 1, 1, 150, 240),
    Standing("Fay", 1, 2, 1, 1, 0, 1, 5, 1, 1, 150, 260),
    Standing("Cy", 3, 3, 1, 2, 0, 0, 4, 1, 0, 60, 380),
    Standing("Bob", 4, 3, 1, 2, 0, 0, 4, 1, 0, 60, 400),
    Standing("Di", 5, 2, 1, 0, 1, 1, 4, 1, 0, 60, 320),
    Standing("Ann", 6, 3, 1, 0, 2, 0, 2, 0, 0, -210, 100),
    Standing("Gus", 7, 3, 0, 0, 3, 0, 0, 0, 0, -270, 100),
]


def test_standings_by_hand() -> None:
    assert standings(SEVEN, SEVEN_RESULTS, SEVEN_ROUNDS) == SEVEN_BOARD


def test_standings_without_head_to_head_share_the_rank() -> None:
    order = ("match_points", "games_won", "shutouts", "point_difference")
    board = standings(SEVEN, SEVEN_RESULTS, SEVEN_ROUNDS, order)
    # Bob, Cy and Di stay tied on every key left: all three third, in seed order.
    assert [(s.rank, s.entrant) for s in board] == [
        (1, "Eve"),
        (1, "Fay"),
        (3, "Bob"),
        (3, "Cy"),
        (3, "Di"),
        (6, "Ann"),
        (7, "Gus"),
    ]


def test_head_to_head_first() -> None:
    # Match points, then head to head: Eve and Fay never met (0 each); Bob, Cy, Di as
    # above; nothing else separates Eve and Fay.
    board = standings(SEVEN, SEVEN_RESULTS, SEVEN_ROUNDS, ("match_points", "head_to_head"))
    assert [(s.rank, s.entrant) for s in board] == [
        (1, "Eve"),
        (1, "Fay"),
        (3, "Cy"),
        (4, "Bob"),
        (5, "Di"),
        (6, "Ann"),
        (7, "Gus"),
    ]


def test_games_won_before_match_points() -> None:
    # An organiser's order: games won first. Bob, Cy, Di, Eve, Fay won 1 each, split by
    # match points (5, 5, then 4, 4, 4); Ann's forfeit win is no game won, so she is on 0
    # with Gus, ahead of him on match points (2 to 0).
    board = standings(SEVEN, SEVEN_RESULTS, SEVEN_ROUNDS, ("games_won", "match_points"))
    assert [(s.rank, s.entrant) for s in board] == [
        (1, "Eve"),
        (1, "Fay"),
        (3, "Bob"),
        (3, "Cy"),
        (3, "Di"),
        (6, "Ann"),
        (7, "Gus"),
    ]


def test_no_results_yet_everyone_shares_first() -> None:
    board = standings(["Ann", "Bob", "Cy"], [], [])
    assert [(s.rank, s.entrant, s.match_points) for s in board] == [
        (1, "Ann", 0),
        (1, "Bob", 0),
        (1, "Cy", 0),
    ]
