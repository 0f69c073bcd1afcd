"""Hollywood gin: three game columns from one series of hands (RULES.md §4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.scoring.game import GameError
from scorekeeper.scoring.hollywood import play_hollywood
from scorekeeper.scoring.outcome import HandScore, Outcome
from scorekeeper.scoring.rules import PRESETS, Rules

A, B = 0, 1
PLAYERS = ["A", "B"]
# RULES.md §8: "target 100, game 100, box 25" — the russian preset (shutout: double).
RUSSIAN = PRESETS["russian"]
DEAD = HandScore(Outcome.DEAD, None, 0)


def won(seat: int, points: int) -> HandScore:
    return HandScore(Outcome.KNOCK, seat, points)


# RULES.md §8: "A +20, B +15, A +30, A +40, B +35, A +25, A +10, A +30"
EXAMPLE = [
    won(A, 20),
    won(B, 15),
    won(A, 30),
    won(A, 40),
    won(B, 35),
    won(A, 25),
    won(A, 10),
    won(A, 30),
]


def test_rules_example_columns_each_hand_goes_into() -> None:
    match = play_hollywood(RUSSIAN, PLAYERS, A, EXAMPLE)
    assert [row.columns for row in match.rows] == [
        (1,),  # A's 1st win: game 1
        (1,),  # B's 1st win: game 1
        (1, 2),  # A's 2nd win: games 1–2
        (1, 2, 3),  # A's 3rd win onward: all three
        (1, 2),  # B's 2nd win
        (1, 2, 3),  # closes column 1
        (2, 3),  # closes column 2
        (3,),  # closes column 3
    ]
    assert [row.closes for row in match.rows][5:] == [(1,), (2,), (3,)]
    assert match.finished and match.ignored == ()


def test_rules_example_column_1_closes_a_115_50_settles_a_315_b_100() -> None:
    column = play_hollywood(RUSSIAN, PLAYERS, A, EXAMPLE).columns[0]
    assert column.closed and column.winner == A
    assert column.totals == (115, 50) and column.boxes == (4, 2)
    assert column.settlement is not None and column.settlement.finals == (315, 100)
    assert [row.number for row in column.rows] == [1, 2, 3, 4, 5, 6]


def test_rules_example_column_2_closes_a_105_35_settles_a_305_b_60() -> None:
    column = play_hollywood(RUSSIAN, PLAYERS, A, EXAMPLE).columns[1]
    assert column.totals == (105, 35) and column.boxes == (4, 1)
    assert column.settlement is not None and column.settlement.finals == (305, 60)
    assert [row.number for row in column.rows] == [3, 4, 5, 6, 7]


@pytest.mark.parametrize(
    ("shutout", "final"),
    [
        pytest.param("double", (105 + 100) * 2 + 4 * 25, id="russian double: (105+100)×2+4×25=510"),
        pytest.param("double_all", (105 + 100 + 4 * 25) * 2, id="double_all: 610"),
        pytest.param("flat", 105 + 100 + 100 + 4 * 25, id="flat: 405"),
        pytest.param("none", 105 + 100 + 4 * 25, id="none: 305"),
    ],
)
def test_rules_example_column_3_closes_a_105_0_b_shut_out(shutout: str, final: int) -> None:
    column = play_hollywood(RUSSIAN.replace(shutout=shutout), PLAYERS, A, EXAMPLE).columns[2]
    assert column.totals == (105, 0) and column.boxes == (4, 0)
    assert column.settlement is not None
    assert column.settlement.shutout is (shutout != "none")
    assert column.settlement.finals == (final, 0)


def test_russian_column_3_is_510() -> None:
    column = play_hollywood(RUSSIAN, PLAYERS, A, EXAMPLE).columns[2]
    assert column.settlement is not None and column.settlement.finals == (510, 0)
    assert "A: (105 + 100 game bonus) × 2 + 4 × 25 boxes = 510" in [
        str(step) for step in column.settlement.explanation
    ]


def test_a_player_with_no_score_when_a_column_closes_starts_in_the_next_open_column() -> None:
    # A wins column 1 alone (B never scores there); B's first win then goes to column 2.
    hands = [won(A, 60), won(A, 50), won(B, 10)]
    match = play_hollywood(RUSSIAN, PLAYERS, A, hands)
    assert [row.columns for row in match.rows] == [(1,), (1, 2), (2,)]
    assert match.columns[0].closed and match.columns[1].totals == (50, 10)


def test_optional_fourth_column_opens_when_column_1_closes() -> None:
    rules = RUSSIAN.replace(hollywood_fourth=True)
    match = play_hollywood(rules, PLAYERS, A, EXAMPLE)
    fourth = match.columns[3]
    assert fourth.opened_after == 6  # the hand that closed column 1
    assert [row.columns for row in match.rows][5:] == [(1, 2, 3), (2, 3, 4), (3, 4)]
    assert fourth.totals == (40, 0) and not fourth.closed
    assert not match.finished  # every column, the 4th included, must close


def test_fourth_column_waits_unopened_before_column_1_closes() -> None:
    match = play_hollywood(RUSSIAN.replace(hollywood_fourth=True), PLAYERS, A, EXAMPLE[:3])
    assert match.columns[3].opened_after is None and match.columns[3].rows == ()


def test_dead_hands_go_nowhere_and_keep_the_dealer() -> None:
    match = play_hollywood(RUSSIAN, PLAYERS, B, [DEAD, won(A, 10)])
    assert [(row.dealer, row.columns) for row in match.rows] == [(B, ()), (B, (1,))]
    assert match.next_dealer == A


def test_hands_after_the_match_are_listed_but_not_counted() -> None:
    match = play_hollywood(RUSSIAN, PLAYERS, A, [*EXAMPLE, won(B, 50)])
    assert match.ignored == (9,) and match.rows[-1].after_end
    assert match.rows[-1].columns == ()
    assert [column.totals for column in match.columns] == [(115, 50), (105, 35), (105, 0)]


def test_bad_hands_are_reported_together() -> None:
    with pytest.raises(GameError) as caught:
        play_hollywood(RUSSIAN, PLAYERS, 3, [won(7, 5), HandScore(Outcome.TIE, None, 4)])
    assert [where for where, _ in caught.value.problems] == [
        "dealer",
        "hands[0].winner",
        "hands[1].points",
    ]


hands_strategy = st.lists(
    st.one_of(st.builds(won, st.sampled_from([A, B]), st.integers(0, 60)), st.just(DEAD)),
    max_size=40,
)


@given(hands_strategy, st.booleans())
def test_each_column_is_the_sum_of_its_own_hands(hands: list[HandScore], fourth: bool) -> None:
    rules: Rules = RUSSIAN.replace(hollywood_fourth=fourth)
    match = play_hollywood(rules, PLAYERS, A, hands)
    for column in match.columns:
        for seat in (A, B):
            assert column.totals[seat] == sum(row.points[seat] for row in column.rows)
            assert column.boxes[seat] == sum(row.box == seat for row in column.rows)
        assert column.closed is (column.settlement is not None)
        entered = [row.number for row in match.rows if column.number in row.columns]
        assert entered == [row.number for row in column.rows]
        assert [row.ends_game for row in column.rows].count(True) == int(column.closed)
        assert not column.rows or column.rows[-1].ends_game is column.closed
    firsts = [
        next(row.number for row in column.rows if row.box == seat)
        for column in match.columns
        for seat in (A, B)
        if column.boxes[seat]
    ]
    assert len(firsts) == len(set(firsts))  # a hand opens a player's score in one column at most
    for row in match.rows:
        assert bool(row.columns) is (row.hand.won and not row.after_end)
