"""A fixed number of deals (``rules.deals``, /rules/<kind>#deals): tournament play against
the clock. The game ends at the target or after the last counted deal, whichever comes
first; the side ahead on hand points then wins and settles as at the target; level is a
drawn game, settled without any bonus. Every number below is worked out by hand."""

from __future__ import annotations

from scorekeeper.scoring.game import leader, play_gin_game
from scorekeeper.scoring.hollywood import play_hollywood
from scorekeeper.scoring.outcome import HandScore, Outcome
from scorekeeper.scoring.partnership import play_partnership
from scorekeeper.scoring.rules import PRESETS
from scorekeeper.scoring.three_hand import Role, play_three_hand

A, B = 0, 1
# Russian: gin 25, undercut 25, target 100, game bonus 100, box bonus 25, shutout doubles.
RUSSIAN = PRESETS["russian"]
DEAD = HandScore(Outcome.DEAD, None, 0)


def won(seat: int, points: int, outcome: Outcome = Outcome.KNOCK) -> HandScore:
    return HandScore(outcome, seat, points)


# --- two-player gin ----------------------------------------------------------------------

FOUR = [won(A, 20), won(B, 15), DEAD, won(A, 10)]


def test_gin_goes_on_until_the_last_deal() -> None:
    game = play_gin_game(RUSSIAN.replace(deals=4), ["Ann", "Bob"], A, FOUR[:3])
    assert not game.finished and game.settlement is None and game.winner is None
    assert game.deals_left == 1  # a dead hand is a deal played


def test_gin_ends_after_four_deals_the_player_ahead_wins_with_the_bonuses() -> None:
    game = play_gin_game(RUSSIAN.replace(deals=4), ["Ann", "Bob"], A, FOUR)
    assert game.finished and game.winner == A and game.deals_left == 0
    assert game.totals == (30, 15) and game.boxes == (2, 1)
    assert [row.ends_game for row in game.rows] == [False, False, False, True]
    s = game.settlement
    assert s is not None and s.winner == A and not s.shutout
    # Ann: 30 + 100 game bonus + 2 × 25 boxes = 180; Bob: 15 + 1 × 25 = 40.
    assert s.finals == (180, 40) and s.margin == 140
    assert str(s.explanation[0]) == (
        "Deal 4 was the last: Ann is ahead, 30 to 15, and wins the game."
    )


def test_gin_a_hand_after_the_last_deal_is_kept_but_not_counted() -> None:
    game = play_gin_game(RUSSIAN.replace(deals=4), ["Ann", "Bob"], A, [*FOUR, won(B, 90)])
    assert game.ignored == (5,) and game.rows[4].after_end
    assert game.totals == (30, 15) and game.settlement is not None
    assert game.settlement.finals == (180, 40)


def test_gin_shutout_at_the_last_deal_doubles() -> None:
    game = play_gin_game(RUSSIAN.replace(deals=2), ["Ann", "Bob"], A, [won(A, 20), won(A, 30)])
    s = game.settlement
    assert s is not None and s.winner == A and s.shutout
    # (50 + 100) × 2 + 2 × 25 = 350; Bob won no hand: 0.
    assert s.finals == (350, 0) and s.margin == 350


def test_gin_level_after_the_last_deal_is_a_drawn_game_without_bonuses() -> None:
    game = play_gin_game(RUSSIAN.replace(deals=3), ["Ann", "Bob"], A,
                         [won(A, 20), won(B, 20), DEAD])
    assert game.finished and game.winner is None
    s = game.settlement
    assert s is not None and s.winner is None and not s.shutout
    # Boxes 1 each, but a drawn game adds no game, box or shutout bonus.
    assert s.lines == () and s.finals == (20, 20) and s.margin == 0
    assert [str(step) for step in s.explanation] == [
        "Deal 3 was the last and the scores are level at 20: a drawn game, without bonuses."
    ]


def test_gin_the_target_still_ends_the_game_before_the_last_deal() -> None:
    game = play_gin_game(RUSSIAN.replace(deals=10), ["Ann", "Bob"], A,
                         [won(A, 60), won(A, 45), won(B, 5)])
    assert game.finished and game.winner == A and game.ignored == (3,)
    s = game.settlement
    assert s is not None and str(s.explanation[0]) == "Ann reached 105 of 100 first."
    # Shutout: (105 + 100) × 2 + 2 × 25 = 460.
    assert s.finals == (460, 0)


def test_gin_without_bonuses_the_behind_player_keeps_his_points() -> None:
    game = play_gin_game(PRESETS["classic"].replace(deals=2), ["Ann", "Bob"], B,
                         [won(A, 20), won(B, 25, Outcome.UNDERCUT)])
    assert game.winner == B and game.settlement is not None
    assert game.settlement.finals == (20, 25) and game.settlement.margin == 5


def test_oklahoma_rules_end_after_their_deals_too() -> None:
    rules = PRESETS["oklahoma"].replace(deals=1)  # modern values: game 100, box 25
    game = play_gin_game(rules, ["Ann", "Bob"], A, [won(B, 40, Outcome.GIN)])
    assert game.finished and game.winner == B and game.settlement is not None
    # double_all shutout: (40 + 100 + 1 × 25) × 2 = 330.
    assert game.settlement.finals == (0, 330)


def test_the_leader_is_the_one_strictly_ahead() -> None:
    assert leader([40, 35]) == 0
    assert leader([35, 40]) == 1
    assert leader([40, 40]) is None
    assert leader([10, 25, 25]) is None


# --- Hollywood: the deals are the hands of the match ------------------------------------------


def test_hollywood_ends_after_three_hands_every_open_column_settles() -> None:
    hands = [won(A, 20), won(B, 15), won(A, 30)]
    match = play_hollywood(RUSSIAN.replace(deals=3), ["A", "B"], A, hands)
    assert match.finished and match.deals_left == 0
    # Hand 1 (A's first win) into game 1, hand 2 (B's first) into game 1, hand 3 into 1 and 2.
    assert [row.columns for row in match.rows] == [(1,), (1,), (1, 2)]
    assert match.rows[2].closes == (1, 2, 3)
    one, two, three = match.columns
    assert one.totals == (50, 15) and one.winner == A and one.closed
    # Game 1: A 50 + 100 + 2 × 25 = 200; B 15 + 1 × 25 = 40.
    assert one.settlement is not None and one.settlement.finals == (200, 40)
    # Game 2: A 30, B nothing: shutout, (30 + 100) × 2 + 1 × 25 = 285.
    assert two.settlement is not None and two.settlement.finals == (285, 0)
    assert two.settlement.shutout
    # Game 3 got no hand: level at 0, a drawn game.
    assert three.closed and three.winner is None
    assert three.settlement is not None and three.settlement.finals == (0, 0)


def test_hollywood_a_hand_after_the_last_deal_is_not_counted() -> None:
    hands = [won(A, 20), won(B, 15), won(A, 30), won(B, 70)]
    match = play_hollywood(RUSSIAN.replace(deals=3), ["A", "B"], A, hands)
    assert match.ignored == (4,) and match.rows[3].after_end
    assert match.columns[0].totals == (50, 15)


def test_hollywood_level_everywhere_is_a_drawn_match() -> None:
    match = play_hollywood(RUSSIAN.replace(deals=2), ["A", "B"], A, [won(A, 20), won(B, 20)])
    assert match.finished
    assert [c.winner for c in match.columns] == [None, None, None]
    assert [c.settlement.finals for c in match.columns if c.settlement] == [
        (20, 20), (0, 0), (0, 0)
    ]


def test_hollywood_no_fourth_column_opens_at_the_last_deal() -> None:
    rules = RUSSIAN.replace(deals=1, hollywood_fourth=True)
    match = play_hollywood(rules, ["A", "B"], A, [won(A, 100)])
    one, two, three, four = match.columns
    # Game 1 closes at the target: (100 + 100) × 2 + 1 × 25 = 425.
    assert one.settlement is not None and one.settlement.finals == (425, 0)
    assert two.winner is None and two.closed and three.closed
    assert four.opened_after is None and four.settlement is None


# --- partnership: the deals are the team deals ------------------------------------------------

ANN, BOB, CID, DAN = 0, 1, 2, 3
TEAMS = ["Ann", "Bob", "Cid", "Dan"]
PARTNERSHIP = PRESETS["partnership"]  # target 125, game bonus 100, box 25, shutout doubles


def test_partnership_ends_after_two_deals_the_team_ahead_wins() -> None:
    deals = [
        (won(ANN, 20), won(DAN, 5)),  # deal 1, Ann v Bob and Cid v Dan: net 15 to Ann & Cid
        (won(DAN, 30), won(CID, 10)),  # deal 2, Ann v Dan and Cid v Bob: net 20 to Bob & Dan
    ]
    game = play_partnership(PARTNERSHIP.replace(deals=2), TEAMS, deals)
    assert game.finished and game.winner == 1 and game.totals == (15, 20)
    assert game.boxes == (1, 1)
    s = game.settlement
    # Bob & Dan: 20 + 100 + 25 = 145; Ann & Cid: 15 + 25 = 40.
    assert s is not None and s.finals == (40, 145) and s.margin == 105
    assert str(s.explanation[0]) == (
        "Deal 2 was the last: Bob & Dan are ahead, 20 to 15, and win the game."
    )


def test_partnership_a_deal_after_the_last_is_not_counted() -> None:
    deals = [(won(ANN, 20), won(DAN, 5)), (won(ANN, 50), won(CID, 50))]
    game = play_partnership(PARTNERSHIP.replace(deals=1), TEAMS, deals)
    assert game.ignored == (2,) and game.deals[1].after_end and game.totals == (15, 0)
    # Ann & Cid shut Bob & Dan out: (15 + 100) × 2 + 25 = 255.
    assert game.settlement is not None and game.settlement.finals == (255, 0)


def test_partnership_level_after_the_last_deal_is_drawn() -> None:
    game = play_partnership(PARTNERSHIP.replace(deals=1), TEAMS, [(DEAD, DEAD)])
    assert game.finished and game.winner is None
    assert game.settlement is not None and game.settlement.finals == (0, 0)


# --- three-hand gin ----------------------------------------------------------------------------

X, Y, Z = 0, 1, 2


def test_three_hand_ends_after_two_hands() -> None:
    # Y (captain) wins 16: Y box, Z captain. Z (captain) wins 10.
    hands = [won(Role.CAPTAIN, 16), won(Role.CAPTAIN, 10)]
    game = play_three_hand(PRESETS["three_hand"].replace(deals=2), ["X", "Y", "Z"], X, Y, hands)
    assert game.finished and game.winner == Y
    assert game.settlement is not None and game.settlement.finals == (0, 16, 10)
    assert game.settlement.margin == 6


def test_three_hand_shared_lead_is_drawn() -> None:
    hands = [won(Role.CAPTAIN, 16), won(Role.CAPTAIN, 16)]
    game = play_three_hand(PRESETS["three_hand"].replace(deals=2), ["X", "Y", "Z"], X, Y, hands)
    assert game.finished and game.winner is None
    assert game.settlement is not None and game.settlement.finals == (0, 16, 16)
