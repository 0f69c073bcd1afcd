"""Two-player game sheets: RULES.md §2.4 (game, boxes, bonuses, shutout), §2.5 (dealer)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.scoring.game import (
    GameError,
    play_gin_game,
    settle_game,
)
from scorekeeper.scoring.outcome import HandScore, Outcome
from scorekeeper.scoring.rules import PRESETS, Rules, Shutout

A, B = 0, 1
PLAYERS = ["Ann", "Bob"]
RUSSIAN = PRESETS["russian"]


def won(seat: int, points: int, outcome: Outcome = Outcome.KNOCK) -> HandScore:
    return HandScore(outcome, seat, points)


DEAD = HandScore(Outcome.DEAD, None, 0)
TIE = HandScore(Outcome.TIE, None, 0)

# RULES.md §8: "A wins hands worth 15, 55, 33 (3 boxes, 103 points), B wins 47, 28"
RUSSIAN_GAME = [won(A, 15), won(B, 47), won(A, 55), won(B, 28), won(A, 33)]
# RULES.md §8: "A wins 4 hands, 103 points, B nothing"
SHUTOUT_GAME = [won(A, 15), won(A, 25), won(A, 30), won(A, 33, Outcome.GIN)]


def test_russian_game_end_a_278_b_125_margin_153() -> None:
    game = play_gin_game(RUSSIAN, PLAYERS, A, RUSSIAN_GAME)
    assert game.finished and game.winner == A
    assert game.totals == (103, 75) and game.boxes == (3, 2)
    assert game.settlement is not None
    assert game.settlement.finals == (278, 125)
    assert game.settlement.margin == 153
    assert not game.settlement.shutout
    assert [str(step) for step in game.settlement.explanation] == [
        "Ann reached 103 of 100 first.",
        "Ann: 103 + 100 game bonus + 3 × 25 boxes = 278",
        "Bob: 75 + 2 × 25 boxes = 125",
        "Ann wins by 153 (278 − 125).",
    ]


def test_settlement_lines_follow_the_rule_order_game_bonus_shutout_boxes() -> None:
    game = play_gin_game(RUSSIAN, PLAYERS, A, RUSSIAN_GAME)
    assert game.settlement is not None
    lines = [(line.seat, str(line.step), line.amount) for line in game.settlement.lines]
    assert lines == [
        (A, "Game bonus to Ann: +100", 100),
        (A, "Ann's boxes: 3 × 25 = +75", 75),
        (B, "Bob's boxes: 2 × 25 = +50", 50),
    ]


@pytest.mark.parametrize(
    ("rules", "final", "arithmetic"),
    [
        pytest.param(
            RUSSIAN,
            506,
            "Ann: (103 + 100 game bonus) × 2 + 4 × 25 boxes = 506",
            id="russian: (103 + 100) × 2 + 4×25 = 506",
        ),
        pytest.param(
            RUSSIAN.replace(shutout="double_all"),
            606,
            "Ann: (103 + 100 game bonus + 4 × 25 boxes) × 2 = 606",
            id="double_all: (103 + 100 + 100) × 2 = 606",
        ),
        pytest.param(
            PRESETS["pagat"],
            383,
            "Ann: 103 + 100 game bonus + 100 shutout bonus + 4 × 20 boxes = 383",
            id="pagat: 103 + 100 + 100 + 4×20 = 383",
        ),
        pytest.param(
            RUSSIAN.replace(shutout="none"),
            303,
            "Ann: 103 + 100 game bonus + 4 × 25 boxes = 303",
            id="shutout none: no extra",
        ),
    ],
)
def test_shutout_when_the_loser_won_no_hand(rules: Rules, final: int, arithmetic: str) -> None:
    game = play_gin_game(rules, PLAYERS, A, SHUTOUT_GAME)
    assert game.settlement is not None
    assert game.settlement.finals == (final, 0)
    assert game.settlement.margin == final
    assert game.settlement.shutout is (rules.shutout is not Shutout.NONE)
    assert arithmetic in [str(step) for step in game.settlement.explanation]
    assert sum(line.amount for line in game.settlement.lines) == final - 103


def test_a_dead_hand_or_zero_tie_does_not_spare_the_loser_a_shutout() -> None:
    # "Dead hands and 0–0 ties give no box": B still won no hand.
    game = play_gin_game(RUSSIAN, PLAYERS, A, [DEAD, TIE, *SHUTOUT_GAME])
    assert game.boxes == (4, 0)
    assert game.settlement is not None and game.settlement.finals == (506, 0)


def test_an_undercut_that_crosses_the_target_ends_the_game() -> None:
    # "The player who crossed the target wins, whoever was knocking."
    hands = [won(B, 90), won(A, 20), won(B, 27, Outcome.UNDERCUT)]
    game = play_gin_game(RUSSIAN, PLAYERS, A, hands)
    assert game.finished and game.winner == B
    assert game.rows[-1].ends_game and game.rows[-1].box == B
    assert game.settlement is not None
    assert game.settlement.finals == (20 + 25, 117 + 100 + 2 * 25)


def test_box_bonuses_do_not_count_toward_the_target() -> None:
    # "Box bonuses do not count toward the target": 4 boxes and 96 points is not a win.
    game = play_gin_game(RUSSIAN, PLAYERS, A, [won(A, 24)] * 4)
    assert not game.finished and game.winner is None and game.settlement is None
    assert game.needs == (4, 100)


def test_reaching_the_target_exactly_ends_the_game() -> None:
    game = play_gin_game(RUSSIAN, PLAYERS, A, [won(A, 60), won(A, 40)])
    assert game.finished and game.needs == (0, 100)


def test_dead_hand_and_tie_count_zero_and_give_no_box() -> None:
    game = play_gin_game(RUSSIAN, PLAYERS, A, [won(A, 10), DEAD, TIE])
    assert [row.points for row in game.rows] == [(10, 0), (0, 0), (0, 0)]
    assert [row.box for row in game.rows] == [A, None, None]
    assert game.boxes == (1, 0)


@pytest.mark.parametrize(
    ("next_dealer", "hands", "dealers", "after"),
    [
        pytest.param(
            "winner", [won(B, 5), won(A, 5), won(A, 5)], [A, B, A], A, id="winner deals next"
        ),
        pytest.param(
            "loser", [won(B, 5), won(A, 5), won(A, 5)], [A, A, B], B, id="loser deals next"
        ),
        pytest.param(
            "alternate", [won(B, 5), won(A, 5), won(A, 5)], [A, B, A], B, id="deal alternates"
        ),
        pytest.param(
            "winner",
            [won(B, 5), DEAD, DEAD],
            [A, B, B],
            B,
            id="winner: a dead hand keeps the same dealer",
        ),
        pytest.param(
            "loser", [won(B, 5), DEAD], [A, A], A, id="loser: a dead hand keeps the same dealer"
        ),
        pytest.param(
            "alternate",
            [DEAD, DEAD, won(A, 5)],
            [A, A, A],
            B,
            id="alternate: a dead hand keeps the same dealer",
        ),
        pytest.param("winner", [TIE], [A], A, id="winner: a tie has no winner, same dealer"),
        pytest.param("alternate", [TIE], [A], B, id="alternate: a tie is not dead, deal passes"),
    ],
)
def test_dealer_rotation(
    next_dealer: str, hands: list[HandScore], dealers: list[int], after: int
) -> None:
    game = play_gin_game(RUSSIAN.replace(next_dealer=next_dealer), PLAYERS, A, hands)
    assert [row.dealer for row in game.rows] == dealers
    assert game.next_dealer == after


def test_hands_after_the_end_are_listed_but_do_not_count() -> None:
    game = play_gin_game(RUSSIAN, PLAYERS, A, [*RUSSIAN_GAME, won(B, 40), DEAD])
    assert game.ignored == (6, 7)
    assert [row.after_end for row in game.rows] == [False] * 5 + [True, True]
    assert [row.ends_game for row in game.rows] == [False] * 4 + [True, False, False]
    assert game.rows[5].points == (0, 0) and game.rows[5].box is None
    assert game.rows[5].totals == (103, 75)
    assert game.totals == (103, 75) and game.boxes == (3, 2)
    assert game.settlement is not None and game.settlement.finals == (278, 125)
    assert game.next_dealer == A  # from the last counted hand, for the next game


def test_a_correction_can_end_the_game_earlier() -> None:
    corrected = [won(A, 100, Outcome.GIN), *RUSSIAN_GAME[1:]]
    game = play_gin_game(RUSSIAN, PLAYERS, A, corrected)
    assert game.winner == A and game.ignored == (2, 3, 4, 5)
    assert game.totals == (100, 0)


def test_classic_has_no_bonuses_and_explains_the_plain_total() -> None:
    game = play_gin_game(PRESETS["classic"], PLAYERS, B, [won(A, 60), won(B, 30), won(A, 45)])
    assert game.settlement is not None
    assert game.settlement.finals == (105, 30) and game.settlement.lines == ()
    assert "Ann: 105" in [str(step) for step in game.settlement.explanation]


def test_oklahoma_points_already_doubled_boxes_are_not() -> None:
    spade = HandScore(Outcome.GIN, A, 2 * (12 + 25), doubled=True)
    game = play_gin_game(PRESETS["oklahoma"], PLAYERS, A, [spade])
    assert game.totals == (74, 0) and game.boxes == (1, 0)
    assert game.needs == (76, 150)


def test_explanation_templates_are_not_preformatted() -> None:
    game = play_gin_game(RUSSIAN, PLAYERS, A, SHUTOUT_GAME)
    assert game.settlement is not None
    for step in game.settlement.explanation:
        assert not any(ch.isdigit() for ch in step.template.replace("× 2", ""))
    for line in game.settlement.lines:
        assert not any(ch.isdigit() for ch in line.step.template.replace("× 2", ""))


def test_every_problem_is_reported_at_once() -> None:
    bad = [won(2, 10), HandScore(Outcome.DEAD, A, 5), won(A, -3)]
    with pytest.raises(GameError) as caught:
        play_gin_game(RUSSIAN, PLAYERS, 5, bad)
    assert [where for where, _ in caught.value.problems] == [
        "dealer",
        "hands[0].winner",
        "hands[1].winner",
        "hands[1].points",
        "hands[2].points",
    ]
    assert isinstance(caught.value, ValueError)


def test_a_gin_game_has_two_players() -> None:
    with pytest.raises(GameError, match="exactly two players"):
        play_gin_game(RUSSIAN, ["Ann", "Bob", "Cid"], A, [])


def test_an_empty_sheet() -> None:
    game = play_gin_game(RUSSIAN, PLAYERS, B, [])
    assert game.rows == () and game.totals == (0, 0) and game.next_dealer == B
    assert game.needs == (100, 100) and not game.finished


# -- properties ---------------------------------------------------------------------------

hand_scores = st.one_of(
    st.builds(
        HandScore,
        st.sampled_from([Outcome.KNOCK, Outcome.UNDERCUT, Outcome.GIN]),
        st.sampled_from([A, B]),
        st.integers(0, 60),
    ),
    st.just(DEAD),
    st.just(TIE),
)
rule_sets = st.builds(
    lambda preset, shutout, target, flat: dataclasses.replace(
        PRESETS[preset], shutout=shutout, target=target, shutout_bonus=flat
    ),
    st.sampled_from(["classic", "russian", "pagat", "modern"]),
    st.sampled_from(list(Shutout)),
    st.integers(1, 250),
    st.integers(0, 200),
)


@given(rule_sets, st.lists(hand_scores, max_size=40), st.sampled_from([A, B]))
def test_totals_are_the_sum_of_row_points_and_one_box_per_won_hand(
    rules: Rules, hands: list[HandScore], dealer: int
) -> None:
    game = play_gin_game(rules, PLAYERS, dealer, hands)
    counted = [row for row in game.rows if not row.after_end]
    for seat in (A, B):
        assert game.totals[seat] == sum(row.points[seat] for row in counted)
        assert game.boxes[seat] == sum(row.box == seat for row in counted)
    assert sum(game.boxes) == sum(row.hand.won for row in counted)
    assert sum(row.ends_game for row in game.rows) == int(game.finished)
    assert all(max(row.totals) < rules.target for row in counted if not row.ends_game)


@given(rule_sets, st.lists(hand_scores, max_size=40))
def test_settlement_matches_a_direct_recomputation(rules: Rules, hands: list[HandScore]) -> None:
    game = play_gin_game(rules, PLAYERS, A, hands)
    if game.settlement is None:
        assert game.winner is None and max(game.totals) < rules.target
        return
    w = game.winner
    assert w is not None
    loser = 1 - w
    base, boxes = game.totals[w] + rules.game_bonus, game.boxes[w] * rules.box_bonus
    shutout = game.boxes[loser] == 0
    expected = {
        Shutout.NONE: base + boxes,
        Shutout.DOUBLE: 2 * base + boxes,
        Shutout.DOUBLE_ALL: 2 * (base + boxes),
        Shutout.FLAT: base + rules.shutout_bonus + boxes,
    }[rules.shutout if shutout else Shutout.NONE]
    finals = [0, 0]
    finals[w], finals[loser] = expected, game.totals[loser] + game.boxes[loser] * rules.box_bonus
    assert game.settlement.finals == tuple(finals)
    assert game.settlement.margin == finals[w] - finals[loser]
    assert game.needs[w] == 0


def test_settle_game_with_three_players_shutout_needs_every_other_player_without_a_box() -> None:
    one_won = settle_game(RUSSIAN, ["X", "Y", "Z"], [100, 12, 0], [3, 1, 0], 0)
    none_won = settle_game(RUSSIAN, ["X", "Y", "Z"], [100, 0, 0], [3, 0, 0], 0)
    assert not one_won.shutout and one_won.finals == (275, 37, 0)
    assert one_won.margin == 275 - 37
    assert none_won.shutout and none_won.finals == ((100 + 100) * 2 + 75, 0, 0)
