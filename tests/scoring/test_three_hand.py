"""Three-hand gin: box, captain, sitting out (RULES.md §5, seed 001)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.scoring.game import GameError
from scorekeeper.scoring.outcome import HandScore, Outcome
from scorekeeper.scoring.rules import PRESETS, Rules
from scorekeeper.scoring.three_hand import Role, Roles, play_three_hand

X, Y, Z = 0, 1, 2
PLAYERS = ["X", "Y", "Z"]
# RULES.md §5: "gin 25 — 'some say 20' — undercut 10, tie = undercut"; no box/game bonus.
THREE_HAND = Rules(gin_bonus=25, undercut_bonus=10)
DEAD = HandScore(Outcome.DEAD, None, 0)

# RULES.md §8 three-hand example, roles X box / Y captain / Z out.
EXAMPLE = [
    HandScore(Outcome.KNOCK, Role.CAPTAIN, 20 - 4),  # "Y knocks 4 vs X 20 → Y +16"
    HandScore(Outcome.GIN, Role.BOX, 30 + 25),  # "Y gins vs Z 30 → Y +55"
    HandScore(Outcome.UNDERCUT, Role.CAPTAIN, 7 - 5 + 10),  # "Y knocks 7, X has 5 → X +12"
    DEAD,  # "Dead hand → roles unchanged"
]


def test_rules_example_totals_x_12_y_71_z_0() -> None:
    game = play_three_hand(THREE_HAND, PLAYERS, X, Y, EXAMPLE)
    assert game.totals == (12, 71, 0)
    assert [row.winner for row in game.rows] == [Y, Y, X, None]
    assert not game.finished and game.needs == (88, 29, 100)


@pytest.mark.parametrize(
    ("hand", "played", "next_roles"),
    [
        pytest.param(1, Roles(X, Y, Z), Roles(Y, Z, X), id="box loses: Y box / Z captain / X out"),
        pytest.param(2, Roles(Y, Z, X), Roles(Y, X, Z), id="box wins: Y / X / Z"),
        pytest.param(3, Roles(Y, X, Z), Roles(X, Z, Y), id="box loses: X / Z / Y"),
        pytest.param(4, Roles(X, Z, Y), Roles(X, Z, Y), id="dead hand: roles unchanged"),
    ],
)
def test_rules_example_role_changes(hand: int, played: Roles, next_roles: Roles) -> None:
    row = play_three_hand(THREE_HAND, PLAYERS, X, Y, EXAMPLE).rows[hand - 1]
    assert row.roles == played and row.next_roles == next_roles


def test_the_box_deals_every_hand_and_the_next_roles_are_shown() -> None:
    game = play_three_hand(THREE_HAND, PLAYERS, X, Y, EXAMPLE)
    assert [row.roles.box for row in game.rows] == [X, Y, Y, X]
    assert game.roles == Roles(box=X, captain=Z, out=Y) and game.next_dealer == X


def test_the_sitter_never_scores() -> None:
    game = play_three_hand(THREE_HAND, PLAYERS, X, Y, EXAMPLE)
    for row in game.rows:
        assert row.points[row.roles.out] == 0


def test_first_individual_to_the_target_wins() -> None:
    # After the example X is in the box (12 points): his gin for 90 takes him to 102.
    game = play_three_hand(THREE_HAND, PLAYERS, X, Y, [*EXAMPLE, HandScore(Outcome.GIN, 0, 90)])
    assert game.finished and game.winner == X and game.totals == (102, 71, 0)
    assert game.settlement is not None and game.settlement.finals == (102, 71, 0)


def test_game_and_box_bonuses_only_if_set() -> None:
    rules = PRESETS["russian"]
    hands = [*EXAMPLE, HandScore(Outcome.GIN, Role.BOX, 90)]
    game = play_three_hand(rules, PLAYERS, X, Y, hands)
    assert game.boxes == (2, 2, 0)
    assert game.settlement is not None
    assert game.settlement.finals == (102 + 100 + 2 * 25, 71 + 2 * 25, 0)
    assert game.settlement.margin == 252 - 121 and not game.settlement.shutout


def test_shutout_when_neither_other_player_won_a_hand() -> None:
    hands = [HandScore(Outcome.KNOCK, Role.BOX, 50)] * 2  # X stays in the box throughout
    game = play_three_hand(PRESETS["russian"], PLAYERS, X, Y, hands)
    assert game.settlement is not None and game.settlement.shutout
    assert game.settlement.finals == ((100 + 100) * 2 + 2 * 25, 0, 0)


def test_hands_after_the_end_are_ignored() -> None:
    hands = [HandScore(Outcome.GIN, Role.BOX, 100), HandScore(Outcome.KNOCK, Role.CAPTAIN, 9)]
    game = play_three_hand(THREE_HAND, PLAYERS, Z, X, hands)
    assert game.winner == Z and game.ignored == (2,)
    assert game.rows[1].after_end and game.rows[1].points == (0, 0, 0)
    assert game.roles == Roles(Z, Y, X)


def test_a_tie_nobody_won_keeps_the_roles() -> None:
    rules = Rules(tie_is_undercut=False)
    game = play_three_hand(rules, PLAYERS, X, Y, [HandScore(Outcome.TIE, None, 0)])
    assert game.roles == Roles(X, Y, Z) and game.totals == (0, 0, 0)


def test_problems_are_reported_together() -> None:
    with pytest.raises(GameError) as caught:
        play_three_hand(THREE_HAND, PLAYERS, X, X, [HandScore(Outcome.KNOCK, Role.OUT, 5)])
    assert [where for where, _ in caught.value.problems] == ["captain", "hands[0].winner"]


hands_strategy = st.lists(
    st.one_of(
        st.builds(
            HandScore,
            st.sampled_from([Outcome.KNOCK, Outcome.GIN, Outcome.UNDERCUT]),
            st.sampled_from([Role.BOX, Role.CAPTAIN]),
            st.integers(0, 60),
        ),
        st.just(DEAD),
    ),
    max_size=40,
)


@given(hands_strategy, st.permutations([X, Y, Z]))
def test_roles_stay_a_permutation_and_totals_add_up(
    hands: list[HandScore], draw: list[int]
) -> None:
    game = play_three_hand(PRESETS["russian"], PLAYERS, draw[0], draw[1], hands)
    for row in game.rows:
        assert sorted((row.roles.box, row.roles.captain, row.roles.out)) == [X, Y, Z]
    for seat in (X, Y, Z):
        assert game.totals[seat] == sum(row.points[seat] for row in game.rows)
        assert game.boxes[seat] == sum(row.winner == seat for row in game.rows)
    for before, after in zip(game.rows, game.rows[1:], strict=False):
        assert after.roles == before.next_roles
