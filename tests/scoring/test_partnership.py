"""Partnership gin: two teams, two hands a deal, the net scores (RULES.md §6)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.scoring.game import GameError
from scorekeeper.scoring.outcome import HandScore, Outcome
from scorekeeper.scoring.partnership import TEAMS, pairing, play_partnership, team_of
from scorekeeper.scoring.rules import PRESETS, Rules

ANN, BOB, CID, DAN = 0, 1, 2, 3  # Ann & Cid are team 0, Bob & Dan team 1
PLAYERS = ["Ann", "Bob", "Cid", "Dan"]
# RULES.md §6: "Target 125, game bonus 100, box bonus 25, shutout as in §2.4"
RULES = PRESETS["russian"].replace(target=125)
DEAD = HandScore(Outcome.DEAD, None, 0)


def won(seat: int, points: int, outcome: Outcome = Outcome.KNOCK) -> HandScore:
    return HandScore(outcome, seat, points)


def test_teams_are_partners_across_the_table() -> None:
    assert TEAMS == ((ANN, CID), (BOB, DAN))
    assert [team_of(seat) for seat in range(4)] == [0, 1, 0, 1]


@pytest.mark.parametrize(
    ("deal", "tables"),
    [
        pytest.param(1, ((ANN, BOB), (CID, DAN)), id="deal 1: Ann v Bob, Cid v Dan"),
        pytest.param(2, ((ANN, DAN), (CID, BOB)), id="deal 2: opponents alternate"),
        pytest.param(3, ((ANN, BOB), (CID, DAN)), id="deal 3: back to the first pairing"),
    ],
)
def test_partners_stay_opponents_alternate_each_deal(
    deal: int, tables: tuple[tuple[int, int], tuple[int, int]]
) -> None:
    assert pairing(deal) == tables


@pytest.mark.parametrize(
    ("hands", "points", "box", "explanation"),
    [
        pytest.param(
            (won(ANN, 20), won(CID, 15)),
            (35, 0),
            0,
            "Ann & Cid won both hands: 20 + 15 = 35",
            id="both won → sum",
        ),
        pytest.param(
            (won(ANN, 20), won(DAN, 30, Outcome.GIN)),
            (0, 10),
            1,
            "Bob & Dan won by 10: 30 − 20",
            id="one each → the larger minus the smaller goes to that team",
        ),
        pytest.param(
            (won(BOB, 12, Outcome.UNDERCUT), DEAD),
            (0, 12),
            1,
            "Bob & Dan won one hand, the other scored nothing: 12",
            id="a dead hand counts 0",
        ),
        pytest.param(
            (won(ANN, 10), won(DAN, 10)),
            (0, 0),
            None,
            "Level deal: no points, no box.",
            id="a level deal gives no box",
        ),
        pytest.param((DEAD, DEAD), (0, 0), None, "Level deal: no points, no box.", id="both dead"),
    ],
)
def test_the_team_result_of_a_deal_is_the_net_of_its_two_hands(
    hands: tuple[HandScore, HandScore], points: tuple[int, int], box: int | None, explanation: str
) -> None:
    deal = play_partnership(RULES, PLAYERS, [hands]).deals[0]
    assert deal.points == points and deal.box == box
    assert str(deal.explanation) == explanation


def test_gin_and_undercut_bonuses_belong_to_the_individual_hand() -> None:
    # Ann gins against Bob's 12 (12 + 25 = 37); Dan undercuts Cid by 3 (3 + 25 = 28).
    deal = play_partnership(
        RULES, PLAYERS, [(won(ANN, 37, Outcome.GIN), won(DAN, 28, Outcome.UNDERCUT))]
    ).deals[0]
    assert deal.hand_points == ((37, 0), (0, 28))
    assert deal.points == (9, 0) and deal.box == 0


def test_a_game_to_125_settles_with_game_and_box_bonuses() -> None:
    deals = [
        (won(ANN, 40), won(CID, 20)),  # team 0 +60
        (won(DAN, 35), won(CID, 5)),  # deal 2: Ann v Dan, Cid v Bob → team 1 +30
        (won(BOB, 10), won(CID, 80)),  # team 0 +70 → 130
    ]
    game = play_partnership(RULES, PLAYERS, deals)
    assert game.finished and game.winner == 0
    assert game.totals == (130, 30) and game.boxes == (2, 1)
    assert game.settlement is not None
    assert game.settlement.finals == (130 + 100 + 2 * 25, 30 + 25)
    assert game.settlement.margin == 280 - 55
    assert "Ann & Cid: 130 + 100 game bonus + 2 × 25 boxes = 280" in [
        str(step) for step in game.settlement.explanation
    ]


def test_shutout_is_a_team_that_won_no_deal_even_if_it_won_a_hand() -> None:
    deals = [(won(ANN, 50), won(DAN, 10)), (won(ANN, 50), won(CID, 10)), (won(ANN, 30), DEAD)]
    game = play_partnership(RULES, PLAYERS, deals)
    assert game.totals == (130, 0) and game.boxes == (3, 0)
    assert game.settlement is not None and game.settlement.shutout
    assert game.settlement.finals == ((130 + 100) * 2 + 3 * 25, 0)


def test_deals_after_the_end_are_listed_not_counted() -> None:
    deals = [(won(ANN, 100), won(CID, 30)), (won(DAN, 10), won(BOB, 10))]
    game = play_partnership(RULES, PLAYERS, deals)
    assert game.ignored == (2,) and game.deals[1].after_end
    assert game.totals == (130, 0) and game.deals[1].points == (0, 0)


def test_the_sheet_shows_the_next_pairing() -> None:
    game = play_partnership(RULES, PLAYERS, [(DEAD, DEAD)])
    assert game.next_pairing == ((ANN, DAN), (CID, BOB))
    assert game.needs == (125, 125) and not game.finished


def test_a_hand_must_be_won_by_a_player_at_that_table() -> None:
    # Deal 2 pairs Ann with Dan and Cid with Bob.
    deals = [(DEAD, DEAD), (won(BOB, 10), won(DAN, 5))]
    with pytest.raises(GameError) as caught:
        play_partnership(RULES, PLAYERS, deals)
    assert [where for where, _ in caught.value.problems] == [
        "deals[1][0].winner",
        "deals[1][1].winner",
    ]


def test_four_players() -> None:
    with pytest.raises(GameError, match="four players"):
        play_partnership(RULES, PLAYERS[:3], [])


@st.composite
def deal_lists(draw: st.DrawFn) -> list[tuple[HandScore, HandScore]]:
    deals = []
    for number in range(1, draw(st.integers(0, 25)) + 1):
        tables = pairing(number)
        hands = tuple(
            draw(st.one_of(st.just(DEAD), st.builds(won, st.sampled_from(t), st.integers(0, 60))))
            for t in tables
        )
        deals.append((hands[0], hands[1]))
    return deals


@given(deal_lists(), st.sampled_from(["classic", "russian", "pagat", "modern"]))
def test_team_totals_are_the_positive_nets_and_one_box_a_won_deal(
    deals: list[tuple[HandScore, HandScore]], preset: str
) -> None:
    rules: Rules = PRESETS[preset].replace(target=125)
    game = play_partnership(rules, PLAYERS, deals)
    counted = [deal for deal in game.deals if not deal.after_end]
    for team in (0, 1):
        assert game.totals[team] == sum(deal.points[team] for deal in counted)
        assert game.boxes[team] == sum(deal.box == team for deal in counted)
    for deal in counted:
        net = sum(t[0] - t[1] for t in deal.hand_points)
        assert deal.points == (max(net, 0), max(-net, 0))
        assert (deal.box is None) is (net == 0)
    if game.settlement is not None:
        assert game.winner is not None
        assert game.settlement.finals[1 - game.winner] == (
            game.totals[1 - game.winner] + game.boxes[1 - game.winner] * rules.box_bonus
        )
