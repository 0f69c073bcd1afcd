"""A Remi game sheet: running totals, the next dealer, the end (RULES.md §7)."""

from __future__ import annotations

import pytest

from scorekeeper.scoring.remi import (
    RemiDeal,
    RemiError,
    RemiPlayerInput,
    next_remi_dealer,
    play_remi_game,
    settle_remi_deal,
)
from scorekeeper.scoring.rules import PRESETS

REMI = PRESETS["remi"]  # target 500
FOUR = ["Ann", "Bob", "Cy", "Di"]


@pytest.mark.parametrize(
    ("rule", "totals", "previous", "dealer"),
    [
        ("the lowest running total deals", [200, -10, 15, -60], 0, 3),
        ("totals may be negative; lowest still deals", [-5, -10, 15, -5], 3, 1),
        ("a tie goes to the tied player nearest the dealer's left", [-20, 40, -20, 10], 1, 2),
        ("... counting round the table", [-20, 40, -20, 10], 3, 0),
        ("the previous dealer, if tied, comes last", [-20, 40, 10, -20], 3, 0),
        ("he deals again only when he alone is lowest", [0, 40, 10, -20], 3, 3),
        ("all tied at the start: the dealer's left", [0, 0, 0, 0], 2, 3),
        ("two players", [5, 5], 1, 0),
    ],
)
def test_next_dealer(rule: str, totals: list[int], previous: int, dealer: int) -> None:
    assert next_remi_dealer(totals, previous) == dealer, rule


def test_four_player_dealer_rotation() -> None:
    deals = [
        RemiDeal((200, -10, 15, -60), went_out=0),  # §8's deal: Di lowest
        RemiDeal((-20, -10, 10, 40), went_out=3),  # Bob and Di tie on -20: Bob, left of Di
        RemiDeal((-30, 50, -45, 5)),  # Cy lowest on -20
        RemiDeal((-165, 10, 20, 0), went_out=1),  # Ann and Di tie on -15: Di, left of Cy
    ]
    game = play_remi_game(REMI, FOUR, 0, deals)
    assert [row.dealer for row in game.rows] == [0, 3, 1, 2]
    assert [row.totals for row in game.rows] == [
        (200, -10, 15, -60),
        (180, -20, 25, -20),
        (150, 30, -20, -15),
        (-15, 40, 0, -15),
    ]
    assert game.next_dealer == 3
    assert (game.finished, game.winners) == (False, ())
    assert str(game.rows[1].explanation[0]) == (
        "Bob, Di tie for the lowest total, −20; Bob sits nearest the left of Di and deals next."
    )
    assert str(game.rows[2].explanation[0]) == "Cy has the lowest total, −20, and deals next."


def test_a_settled_deal_feeds_the_sheet() -> None:
    result = settle_remi_deal(
        REMI,
        [
            RemiPlayerInput("Ann", hand="2H 3H 4H 5H KC KD KS", went_out=True, final_discard="AD"),
            RemiPlayerInput("Bob", hand="QC JD JC 6C 5C 4C 3C"),
        ],
    )
    game = play_remi_game(REMI, ["Ann", "Bob"], 0, [RemiDeal(result.scores, result.went_out)])
    assert game.totals == (200, -10)
    assert game.next_dealer == 1


def test_the_game_ends_in_the_deal_that_reaches_the_target() -> None:
    deals = [RemiDeal((200, -10)), RemiDeal((200, 40)), RemiDeal((150, 20))]
    game = play_remi_game(REMI, ["Ann", "Bob"], 1, deals)
    assert game.totals == (550, 50)
    assert (game.finished, game.winners, game.next_dealer) == (True, (0,), None)
    assert [str(step) for step in game.rows[-1].explanation] == [
        "Ann reached the target of 500.",
        "Ann wins with 550.",
    ]


@pytest.mark.parametrize(
    ("rule", "last", "winners"),
    [
        ("two reach the target: the higher total wins", (100, 200), (1,)),
        ("two reach it with equal totals: they share the win", (100, 150), (0, 1)),
    ],
)
def test_several_reach_the_target(
    rule: str, last: tuple[int, int], winners: tuple[int, ...]
) -> None:
    game = play_remi_game(REMI, ["Ann", "Bob"], 0, [RemiDeal((400, 350)), RemiDeal(last)])
    assert game.finished and game.winners == winners, rule


def test_a_deal_after_the_end_is_an_error() -> None:
    deals = [RemiDeal((500, 0)), RemiDeal((50, 0)), RemiDeal((50, 0))]
    with pytest.raises(RemiError) as caught:
        play_remi_game(REMI, ["Ann", "Bob"], 0, deals)
    assert caught.value.problems == [
        ("deals.1", "the game ended after deal 1"),
        ("deals.2", "the game ended after deal 1"),
    ]


def test_a_number_of_deals_ends_the_game_instead_of_the_target() -> None:
    rules = REMI.replace(deals=3)
    deals = [RemiDeal((600, 0, 0)), RemiDeal((-300, 100, 0)), RemiDeal((-300, 50, 60))]
    game = play_remi_game(rules, ["Ann", "Bob", "Cy"], 0, deals)
    assert [row.totals for row in game.rows][-1] == (0, 150, 60)
    assert (game.finished, game.winners, game.next_dealer) == (True, (1,), None)
    assert str(game.rows[-1].explanation[0]) == "All 3 deals are played."
    unfinished = play_remi_game(rules, ["Ann", "Bob", "Cy"], 0, deals[:2])
    assert (unfinished.finished, unfinished.next_dealer) == (False, 2)


def test_a_tie_after_the_last_deal_is_a_shared_win() -> None:
    game = play_remi_game(REMI.replace(deals=1), ["Ann", "Bob", "Cy"], 0, [RemiDeal((40, 40, -5))])
    assert game.winners == (0, 1)
    assert str(game.explanation[-1]) == "Ann, Bob share the win with 40."


@pytest.mark.parametrize(
    ("players", "first_dealer", "deals", "where", "message"),
    [
        (["Ann"], 0, [], "players", "Remi is for 2 to 4 players, not 1"),
        (["Ann", "Bob"], 2, [], "first_dealer", "the first dealer must be one of the players"),
        (["Ann", "Ann"], 0, [], "players.1", "two players are named Ann"),
        (["Ann", " "], 0, [], "players.1", "every player needs a name"),
        (
            ["Ann", "Bob"],
            0,
            [RemiDeal((5,))],
            "deals.0.scores",
            "2 scores are needed, one per player",
        ),
        (
            ["Ann", "Bob"],
            0,
            [RemiDeal((5, 12))],
            "deals.0.scores.1",
            "Remi scores are multiples of 5",
        ),
        (
            ["Ann", "Bob"],
            0,
            [RemiDeal((5, 10), went_out=2)],
            "deals.0.went_out",
            "who went out must be one of the players",
        ),
    ],
)
def test_bad_sheets_are_reported(
    players: list[str], first_dealer: int, deals: list[RemiDeal], where: str, message: str
) -> None:
    with pytest.raises(RemiError) as caught:
        play_remi_game(REMI, players, first_dealer, deals)
    assert (where, message) in caught.value.problems


def test_an_empty_sheet_waits_for_the_first_dealer() -> None:
    game = play_remi_game(REMI, FOUR, 2, [])
    assert (game.rows, game.totals, game.next_dealer, game.finished) == ((), (0, 0, 0, 0), 2, False)
