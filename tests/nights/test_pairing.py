"""Club night pairings: round robin, Swiss, king of the hill, and the board."""

from __future__ import annotations

import doctest
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.scoring import pairing
from scorekeeper.scoring.pairing import (
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


@given(st.integers(2, 20))
def test_an_unchanged_field_plays_the_circle(n: int) -> None:
    # Nobody late, nobody away: round k is the circle method's round k, exactly.
    entrants = names(n)
    rounds = round_robin(entrants)
    assert rounds == [pairing.round_robin_round(entrants, k) for k in range(1, len(rounds) + 1)]
    assert [pairing.rounds_left(entrants, rounds[:k]) for k in range(len(rounds) + 1)] == list(
        range(len(rounds), -1, -1))


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


# Random nights ---------------------------------------------------------------------


@st.composite
def outcomes(draw: st.DrawFn, rnd: Round) -> list[Result]:
    """A result for every table of ``rnd``: a win either way, a draw or a forfeit."""
    results = []
    for t in rnd.tables:
        kind = draw(st.sampled_from(["a", "b", "draw", "forfeit a", "forfeit b"]))
        points_a, points_b = draw(st.integers(0, 250)), draw(st.integers(0, 250))
        if kind == "draw":
            results.append(Result(rnd.number, t.number, t.a, t.b, points_a, points_a, None))
        elif kind.startswith("forfeit"):
            winner = t.a if kind.endswith("a") else t.b
            results.append(Result(rnd.number, t.number, t.a, t.b, 0, 0, winner, forfeit=True))
        else:
            winner = t.a if kind == "a" else t.b
            win, lose = max(points_a, points_b) + 1, min(points_a, points_b)
            scores = (win, lose) if winner == t.a else (lose, win)
            results.append(
                Result(rnd.number, t.number, t.a, t.b, *scores, winner, shutout=lose == 0)
            )
    return results


def fewest_rematches(people: list[str], met: set[frozenset[str]], may_sit_out: list[str]) -> int:
    """Brute force: the fewest rematches of any pairing of ``people``, the bye (odd
    count) going to one of ``may_sit_out``."""

    def pairings(left: tuple[str, ...]) -> int:
        if not left:
            return 0
        first, rest = left[0], left[1:]
        return min(
            (frozenset((first, other)) in met) + pairings(rest[:i] + rest[i + 1 :])
            for i, other in enumerate(rest)
        )

    if len(people) % 2 == 0:
        return pairings(tuple(people))
    return min(pairings(tuple(p for p in people if p != bye)) for bye in may_sit_out)


def sat_out_least(entrants: list[str], played: list[Round]) -> list[str]:
    counts = Counter(x for r in played for x in r.byes)
    fewest = min(counts[x] for x in entrants)
    return [x for x in entrants if counts[x] == fewest]


def meetings(rounds: list[Round]) -> set[frozenset[str]]:
    return {frozenset((t.a, t.b)) for r in rounds for t in r.tables}


def rematches(rnd: Round, met: set[frozenset[str]]) -> int:
    return sum(frozenset((t.a, t.b)) in met for t in rnd.tables)


# Swiss -----------------------------------------------------------------------------


def test_swiss_round_one_top_half_against_bottom_half() -> None:
    rnd = next_round("swiss", names(8), [], [])
    assert rnd == Round(
        1,
        (
            Table(1, "P001", "P005"),
            Table(2, "P002", "P006"),
            Table(3, "P003", "P007"),
            Table(4, "P004", "P008"),
        ),
        (),
    )
    # Seven: the lowest seed sits out, the other six split in halves.
    rnd = next_round("swiss", names(7), [], [])
    assert rnd == Round(
        1,
        (Table(1, "P001", "P004"), Table(2, "P002", "P005"), Table(3, "P003", "P006")),
        ("P007",),
    )


def test_swiss_round_two_pairs_within_score_groups() -> None:
    # Seeds 1-4 each won 150-100 (no other tie-break parts them): winners 1 2 3 4 on 2
    # points pair top half against bottom half, 1-3 and 2-4; the losers 5 6 7 8 likewise.
    entrants = names(8)
    first = next_round("swiss", entrants, [], [])
    assert first is not None
    results = [Result(1, t.number, t.a, t.b, 150, 100, t.a) for t in first.tables]
    second = next_round("swiss", entrants, [first], results)
    assert second is not None
    assert [(t.number, t.a, t.b) for t in second.tables] == [
        (1, "P001", "P003"),
        (2, "P002", "P004"),
        (3, "P005", "P007"),
        (4, "P006", "P008"),
    ]


def test_swiss_floats_down_from_an_odd_group() -> None:
    # Six: 1-4, 2-5, 3-6; seeds 1 and 2 win 150-100, 3-6 is a draw. Board: 1, 2 on 2
    # points (tied on everything, seed order), 3, 6 on 1, then 4, 5 on 0. 1-2 at table 1.
    # 3's group is 3 and 6, who have met: 3 floats down to the top of the next group (4,
    # who has not met 3), and 6 meets 5.
    entrants = names(6)
    first = next_round("swiss", entrants, [], [])
    assert first is not None
    results = [
        Result(1, 1, "P001", "P004", 150, 100, "P001"),
        Result(1, 2, "P002", "P005", 150, 100, "P002"),
        Result(1, 3, "P003", "P006", 120, 120, None),
    ]
    second = next_round("swiss", entrants, [first], results)
    assert second is not None
    assert [(t.a, t.b) for t in second.tables] == [
        ("P001", "P002"),
        ("P003", "P004"),
        ("P006", "P005"),
    ]


@given(st.integers(2, 10), st.data())
def test_swiss_avoids_every_avoidable_rematch(n: int, data: st.DataObject) -> None:
    # Any history at all (random pairings, random results), then the next Swiss round:
    # it has no more rematches than the best pairing a brute force finds.
    entrants = names(n)
    played: list[Round] = []
    results: list[Result] = []
    for number in range(1, data.draw(st.integers(0, n + 1)) + 1):
        order = data.draw(st.permutations(entrants))
        byes = tuple(order[n - 1 :]) if n % 2 else ()
        tables = tuple(Table(i // 2 + 1, order[i], order[i + 1]) for i in range(0, n - 1, 2))
        played.append(Round(number, tables, byes))
        results += data.draw(outcomes(played[-1]))
    rnd = next_round("swiss", entrants, played, results)
    assert rnd is not None
    assert sorted(seated(rnd)) == entrants
    assert [t.number for t in rnd.tables] == list(range(1, n // 2 + 1))
    may_sit_out = sat_out_least(entrants, played)
    assert set(rnd.byes) <= set(may_sit_out)
    met = meetings(played)
    assert rematches(rnd, met) == fewest_rematches(entrants, met, may_sit_out)


@given(st.integers(2, 24), st.data())
def test_swiss_nights(n: int, data: st.DataObject) -> None:
    # Swiss rounds after Swiss rounds: everyone once a round, nobody sits out twice
    # while someone has not sat out, the top of the board at table 1, and (small
    # nights) no rematch a brute force could avoid.
    entrants = names(n)
    played: list[Round] = []
    results: list[Result] = []
    for _ in range(data.draw(st.integers(1, n + 2))):
        rnd = next_round("swiss", entrants, played, results)
        assert rnd is not None
        assert rnd.number == len(played) + 1
        assert sorted(seated(rnd)) == entrants
        assert len(rnd.byes) == n % 2
        assert set(rnd.byes) <= set(sat_out_least(entrants, played))
        board = [s.entrant for s in standings(entrants, results, played)]
        tops = [board.index(t.a) for t in rnd.tables]
        assert tops == sorted(tops)
        assert all(board.index(t.a) < board.index(t.b) for t in rnd.tables)
        if n <= 10:
            met = meetings(played)
            best = fewest_rematches(entrants, met, sat_out_least(entrants, played))
            assert rematches(rnd, met) == best
        played.append(rnd)
        results += data.draw(outcomes(rnd))


def test_swiss_for_160_entrants() -> None:
    import random

    rng = random.Random(160)
    entrants = names(160)
    played: list[Round] = []
    results: list[Result] = []
    for _ in range(7):
        rnd = next_round("swiss", entrants, played, results)
        assert rnd is not None
        assert sorted(seated(rnd)) == entrants
        assert rematches(rnd, meetings(played)) == 0
        played.append(rnd)
        for t in rnd.tables:
            winner = rng.choice([t.a, t.b, None])
            score = rng.randrange(0, 100)
            points = (150, score) if winner == t.a else (score, 150) if winner else (90, 90)
            results.append(Result(rnd.number, t.number, t.a, t.b, *points, winner))
    assert len(played) == 7


# King of the hill ------------------------------------------------------------------


def test_king_of_the_hill_round_one_in_seed_order() -> None:
    teams = ["Ann & Bob", "Cy & Di", "Eve & Fay", "Gus & Hal", "Ivy & Jo"]
    rnd = next_round("king_of_the_hill", teams, [], [])
    assert rnd == Round(
        1, (Table(1, "Ann & Bob", "Cy & Di"), Table(2, "Eve & Fay", "Gus & Hal")), ("Ivy & Jo",)
    )


def test_king_of_the_hill_movement() -> None:
    entrants = list("ABCDEFGH")
    first = next_round("king_of_the_hill", entrants, [], [])
    assert first is not None
    assert [(t.a, t.b) for t in first.tables] == [("A", "B"), ("C", "D"), ("E", "F"), ("G", "H")]
    results = [
        Result(1, 1, "A", "B", 150, 90, "A"),
        Result(1, 2, "C", "D", 0, 0, "D", forfeit=True),
        Result(1, 3, "E", "F", 100, 100, None),
        Result(1, 4, "G", "H", 150, 0, "G", shutout=True),
    ]
    # A won table 1 and stays; D won table 2 (by forfeit) and goes up to table 1.
    # B lost table 1 and goes down to 2. C lost table 2 and would go down to 3, but E
    # and F drew and keep table 3, so C stays at 2; G won table 4 and would go up to 3,
    # so G stays at 4, with H, the bottom table's loser.
    second = next_round("king_of_the_hill", entrants, [first], results)
    assert second == Round(
        2, (Table(1, "A", "D"), Table(2, "B", "C"), Table(3, "E", "F"), Table(4, "G", "H")), ()
    )
    results = [
        Result(2, 1, "A", "D", 90, 150, "D"),
        Result(2, 2, "B", "C", 150, 20, "B"),
        Result(2, 3, "E", "F", 60, 150, "F"),
        Result(2, 4, "G", "H", 150, 70, "G"),
    ]
    # D stays at 1 and B comes up; A goes down to 2 and F comes up; C goes down to 3 and
    # G comes up; E goes down to 4 and H stays.
    third = next_round("king_of_the_hill", entrants, [first, second], results)
    assert third == Round(
        3, (Table(1, "D", "B"), Table(2, "A", "F"), Table(3, "C", "G"), Table(4, "E", "H")), ()
    )


def test_king_of_the_hill_byes_by_hand() -> None:
    entrants = list("ABCDE")
    played: list[Round] = []
    first = next_round("king_of_the_hill", entrants, played, [])
    assert first == Round(1, (Table(1, "A", "B"), Table(2, "C", "D")), ("E",))
    played.append(first)
    # B wins table 1, C wins table 2: B C | A D, then E back at the bottom: B C A D E.
    # The lowest placed who has not sat out is D.
    results = [Result(1, 1, "A", "B", 40, 150, "B"), Result(1, 2, "C", "D", 150, 80, "C")]
    second = next_round("king_of_the_hill", entrants, played, results)
    assert second == Round(2, (Table(1, "B", "C"), Table(2, "A", "E")), ("D",))
    played.append(second)
    # B wins table 1, E wins table 2: B E | C A, D back: B E C A D; A sits out.
    results += [Result(2, 1, "B", "C", 150, 10, "B"), Result(2, 2, "A", "E", 30, 150, "E")]
    third = next_round("king_of_the_hill", entrants, played, results)
    assert third == Round(3, (Table(1, "B", "E"), Table(2, "C", "D")), ("A",))


def test_king_of_the_hill_needs_every_result() -> None:
    entrants = list("ABCD")
    first = next_round("king_of_the_hill", entrants, [], [])
    assert first is not None
    with pytest.raises(NightError, match="round 1, table 2 has no result yet"):
        next_round("king_of_the_hill", entrants, [first], [Result(1, 1, "A", "B", 1, 0, "A")])


@given(st.integers(2, 15), st.data())
def test_king_of_the_hill_byes_rotate(n: int, data: st.DataObject) -> None:
    # Over each n rounds of an odd night everyone sits out exactly once, and whoever
    # sat out comes back at the bottom table.
    entrants = names(n)
    played: list[Round] = []
    results: list[Result] = []
    for _ in range(2 * n):
        rnd = next_round("king_of_the_hill", entrants, played, results)
        assert rnd is not None
        assert sorted(seated(rnd)) == entrants
        assert [t.number for t in rnd.tables] == list(range(1, n // 2 + 1))
        if played and played[-1].byes and n > 1:
            (back,) = played[-1].byes
            assert back in (rnd.tables[-1].a, rnd.tables[-1].b)
        played.append(rnd)
        results += data.draw(outcomes(rnd))
    byes = [x for r in played for x in r.byes]
    if n % 2:
        assert sorted(byes[:n]) == entrants
        assert sorted(byes[n:]) == entrants
    else:
        assert byes == []


# Round robin after the field changes ------------------------------------------------


def largest_fresh_pairing(people: list[str], met: set[frozenset[str]]) -> int:
    """Brute force: the most tables of pairs who have not met that ``people`` can fill."""
    if len(people) < 2:
        return 0
    first, rest = people[0], people[1:]
    best = largest_fresh_pairing(rest, met)  # ``first`` sits out
    for i, other in enumerate(rest):
        if frozenset((first, other)) not in met:
            best = max(best, 1 + largest_fresh_pairing(rest[:i] + rest[i + 1:], met))
    return best


def fewest_byes_left_over(people: list[str], met: set[frozenset[str]], tables: int,
                          byes: Counter[str]) -> int:
    """Brute force: of every way to seat ``tables`` fresh tables, the fewest byes already
    had, summed over those it leaves sitting out."""
    best: list[int] = []

    def seat(left: list[str], made: int, out: int) -> None:
        if made == tables:
            best.append(out + sum(byes[x] for x in left))
            return
        if len(left) < 2 * (tables - made):
            return
        first, rest = left[0], left[1:]
        seat(rest, made, out + byes[first])
        for i, other in enumerate(rest):
            if frozenset((first, other)) not in met:
                seat(rest[:i] + rest[i + 1:], made + 1, out)

    seat(people, 0, 0)
    return min(best)


@given(st.integers(2, 8), st.data())
def test_round_robin_with_late_arrivals_and_absences(n: int, data: st.DataObject) -> None:
    # A night that starts with some of the entrants; before each round others may
    # arrive, be away or come back, or still be playing a carried table. Every round
    # seats as many tables of pairs who have not met as a brute force can find (no
    # rematch ever, since a table without one is always there to be left empty), the
    # bye goes to those who have sat out least, and the night ends exactly when no two
    # present have still to meet.
    everyone = names(n)
    entrants = everyone[: data.draw(st.integers(2, n))]
    played: list[Round] = []
    for _ in range(3 * n):
        while len(entrants) < n and data.draw(st.booleans()):
            entrants.append(everyone[len(entrants)])  # a late arrival
        absent = set(data.draw(st.lists(st.sampled_from(entrants), unique=True,
                                        max_size=len(entrants) // 2)))
        present = [x for x in entrants if x not in absent]
        met = meetings(played)
        rnd = next_round("round_robin", entrants, played, [], absent)
        most = largest_fresh_pairing(present, met)
        if most == 0:
            assert rnd is None
            if not absent:
                break
            continue
        assert rnd is not None
        assert rnd.number == len(played) + 1
        assert rematches(rnd, met) == 0
        assert len(rnd.tables) == most
        assert [t.number for t in rnd.tables] == list(range(1, most + 1))
        assert sorted(seated(rnd)) == sorted(present)  # the others sit out
        byes = Counter(x for r in played for x in r.byes)
        if absent or not pairing._on_the_circle(entrants, played):
            assert sum(byes[x] for x in rnd.byes) == fewest_byes_left_over(
                present, met, most, byes)
        played.append(rnd)
    meets = Counter(frozenset((t.a, t.b)) for r in played for t in r.tables)
    assert set(meets.values()) <= {1}


@given(st.integers(3, 10), st.data())
def test_rounds_left_is_what_the_night_plays(n: int, data: st.DataObject) -> None:
    # A late arrival at a random round, someone away: the rounds the night still has
    # are the rounds it then plays, and at its end every pair present has met once.
    entrants = names(n)
    late = entrants.pop()
    played = round_robin(entrants)[: data.draw(st.integers(0, n))]
    entrants.append(late)
    away = set(data.draw(st.lists(st.sampled_from(entrants), unique=True, max_size=1)))
    left, made = pairing.rounds_left(entrants, played, away), len(played)
    while (rnd := next_round("round_robin", entrants, played, [], away)) is not None:
        played.append(rnd)
    assert len(played) - made == left
    assert pairing.rounds_left(entrants, played, away) == 0
    present = [x for x in entrants if x not in away]
    meets = Counter(frozenset((t.a, t.b)) for r in played for t in r.tables)
    assert set(meets.values()) == {1}
    assert {frozenset(p) for p in combinations(present, 2)} <= set(meets)


def test_round_robin_late_arrival_by_hand() -> None:
    # Ann, Bob, Cy, Di play the circle's round 1: Ann–Di, Bob–Cy. Ed arrives.
    # Still to meet: Ann–Bob, Ann–Cy, Bob–Di, Cy–Di and Ed with all four: 8 pairs, at
    # most 2 tables a round, so at least 4 more rounds. Round 2: all five sat out
    # nothing; Ann, Bob, Cy, Di each have 3 still to meet, Ed 4: the lowest seed of
    # the four, Di, sits out. Ed (most to meet) first: Ed–Ann leaves Bob–Cy, who met;
    # Ed–Bob leaves Ann–Cy. Tables in seed order: Ann–Cy, Bob–Ed.
    entrants = ["Ann", "Bob", "Cy", "Di"]
    first = next_round("round_robin", entrants, [], [])
    assert first == Round(1, (Table(1, "Ann", "Di"), Table(2, "Bob", "Cy")), ())
    entrants.append("Ed")
    second = next_round("round_robin", entrants, [first], [])
    assert second == Round(2, (Table(1, "Ann", "Cy"), Table(2, "Bob", "Ed")), ("Di",))
    # Round 3: left to meet Ann–Bob, Ann–Ed, Bob–Di, Cy–Di, Cy–Ed, Di–Ed. Byes: Di 1,
    # the others 0; still to meet: Ann 2, Bob 2, Cy 2, Di 3, Ed 3, so of Ann, Bob, Cy
    # the lowest seed, Cy, sits out: Ann, Bob, Di, Ed still fill two tables (Ann–Bob,
    # Di–Ed). Di and Ed have most to meet: Di first (the higher seed), against Ed (3)
    # before Bob (2): Di–Ed leaves Ann–Bob, who have not met.
    third = next_round("round_robin", entrants, [first, second], [])
    assert third == Round(3, (Table(1, "Ann", "Bob"), Table(2, "Di", "Ed")), ("Cy",))
    # Left: Ann–Ed, Bob–Di, Cy–Di, Cy–Ed. Round 4: Ann, Bob, Ed have sat out least;
    # Ann and Bob have one still to meet, Ed two: Bob (the lower seed) sits out, and
    # Ann–Ed, Cy–Di play. Round 5: Ann, who alone has not sat out and has nobody left,
    # sits out; Bob–Di, Cy–Ed. Five rounds and one bye each for the four who played
    # round 1, as a night of five would have had.
    assert pairing.rounds_left(entrants, [first, second, third]) == 2
    fourth = next_round("round_robin", entrants, [first, second, third], [])
    assert fourth == Round(4, (Table(1, "Ann", "Ed"), Table(2, "Cy", "Di")), ("Bob",))
    fifth = next_round("round_robin", entrants, [first, second, third, fourth], [])
    assert fifth == Round(5, (Table(1, "Bob", "Di"), Table(2, "Cy", "Ed")), ("Ann",))
    rounds = [first, second, third]
    while (rnd := next_round("round_robin", entrants, rounds, [])) is not None:
        rounds.append(rnd)
    assert len(rounds) == 5
    assert meetings(rounds) == {frozenset(p) for p in combinations(entrants, 2)}


def test_round_robin_away_entrant_is_not_paired() -> None:
    # Cy is away from round 1: Ann, Bob, Di are paired; Cy has no bye (no points).
    entrants = ["Ann", "Bob", "Cy", "Di"]
    rnd = next_round("round_robin", entrants, [], [], absent={"Cy"})
    assert rnd is not None and "Cy" not in seated(rnd)
    assert len(rnd.tables) == 1 and len(rnd.byes) == 1
    assert pairing.rounds_left(entrants, [rnd], away={"Cy"}) == 2
    with pytest.raises(NightError, match="absent but not entered: Zed"):
        next_round("round_robin", entrants, [], [], absent={"Zed"})


# King of the hill with late tables carried over --------------------------------------

HILL = list("ABCDEFGH")
HILL_1 = Round(1, (Table(1, "A", "B"), Table(2, "C", "D"), Table(3, "E", "F"),
                   Table(4, "G", "H")), ())
HILL_1_RESULTS = [
    Result(1, 1, "A", "B", 150, 90, "A"),
    Result(1, 3, "E", "F", 150, 40, "E"),
    Result(1, 4, "G", "H", 150, 60, "G"),
]  # table 2 (C–D) plays on


def test_king_of_the_hill_carried_table_sits_out() -> None:
    # C and D are still at table 2: left out of round 2, no bye. The others move as
    # usual (bottom table 4): A won 1 and stays; B lost 1, goes to 2; E won 3, goes to
    # 2; G won 4, goes to 3; F lost 3 and H lost 4: both to 4. Ordered by the table they
    # go to, then the one they come from: A | B E | G | F H -> A–B, E–G, F–H.
    second = next_round("king_of_the_hill", HILL, [HILL_1], HILL_1_RESULTS, absent={"C", "D"})
    assert second == Round(
        2, (Table(1, "A", "B"), Table(2, "E", "G"), Table(3, "F", "H")), ())
    # Without C and D left out, their table's missing result is still refused.
    with pytest.raises(NightError, match="round 1, table 2 has no result yet"):
        next_round("king_of_the_hill", HILL, [HILL_1], HILL_1_RESULTS)


def test_king_of_the_hill_carried_result_moves_them_the_round_after() -> None:
    second = Round(2, (Table(1, "A", "B"), Table(2, "E", "G"), Table(3, "F", "H")), ())
    results = [
        *HILL_1_RESULTS,
        Result(1, 2, "C", "D", 150, 70, "C"),  # confirmed late: C beat D at table 2
        Result(2, 1, "A", "B", 80, 150, "B"),
        Result(2, 2, "E", "G", 150, 30, "E"),
        Result(2, 3, "F", "H", 100, 100, None),
    ]
    # C won table 2 of round 1 (4 tables): goes to 1. D lost it: goes to 3.
    # Round 2 (3 tables): B won 1, stays at 1; A lost 1, goes to 2; E won 2, goes to 1;
    # G lost 2, goes to 3; F and H drew at 3 and stay.
    # Table 1: B (from 1), C (from 2, round 1), E (from 2, round 2); table 2: A;
    # table 3: D (from 2), G (from 2, round 2), F, H (from 3). Two by two:
    third = next_round("king_of_the_hill", HILL, [HILL_1, second], results)
    assert third == Round(
        3, (Table(1, "B", "C"), Table(2, "E", "A"), Table(3, "D", "G"), Table(4, "F", "H")), ())


def test_king_of_the_hill_carried_over_two_rounds() -> None:
    # C–D still plays when round 3 is made: they keep their place and sit out again.
    # Round 2 as above; from it: B 1 (won 1), E 1 (won 2), A 2 (lost 1), G 3 (lost 2),
    # F 3, H 3 (drew 3): B E | A G | F H.
    second = Round(2, (Table(1, "A", "B"), Table(2, "E", "G"), Table(3, "F", "H")), ())
    results = [
        *HILL_1_RESULTS,
        Result(2, 1, "A", "B", 80, 150, "B"),
        Result(2, 2, "E", "G", 150, 30, "E"),
        Result(2, 3, "F", "H", 100, 100, None),
    ]
    third = next_round("king_of_the_hill", HILL, [HILL_1, second], results, absent={"C", "D"})
    assert third == Round(3, (Table(1, "B", "E"), Table(2, "A", "G"), Table(3, "F", "H")), ())


def test_king_of_the_hill_late_arrival_starts_at_the_bottom() -> None:
    # Five with E sitting out round 1; F arrives. Round 1: A beat B, D beat C.
    # A 1 | B, D 1... : A stays 1 (from 1); D goes to 1 (from 2); B goes to 2 (from 1);
    # C stays 2 (bottom); then E back from the bye, then the newcomer F.
    first = next_round("king_of_the_hill", list("ABCDE"), [], [])
    assert first == Round(1, (Table(1, "A", "B"), Table(2, "C", "D")), ("E",))
    results = [Result(1, 1, "A", "B", 150, 10, "A"), Result(1, 2, "C", "D", 20, 150, "D")]
    second = next_round("king_of_the_hill", list("ABCDEF"), [first], results)
    assert second == Round(
        2, (Table(1, "A", "D"), Table(2, "B", "C"), Table(3, "E", "F")), ())


def test_too_few_free_to_pair() -> None:
    with pytest.raises(NightError, match="1 entrants are free to play"):
        next_round("king_of_the_hill", list("ABC"), [], [], absent={"A", "B"})


def test_swiss_leaves_out_a_carried_table() -> None:
    # Six entrants, round 1 (1–4, 2–5, 3–6); 3–6 still plays. Round 2 seats the other
    # four only: 1 and 2 won (2 points) and meet; 4 and 5 lost and meet.
    entrants = names(6)
    first = next_round("swiss", entrants, [], [])
    assert first is not None
    results = [Result(1, 1, "P001", "P004", 150, 100, "P001"),
               Result(1, 2, "P002", "P005", 150, 100, "P002")]
    second = next_round("swiss", entrants, [first], results, absent={"P003", "P006"})
    assert second == Round(2, (Table(1, "P001", "P002"), Table(2, "P004", "P005")), ())
