"""Layoffs (RULES.md §2.2): declared ones checked, the defender's best play found."""

from __future__ import annotations

import pytest
from gin_brute import can_lay_all, defender_min_deadwood
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.scoring import (
    DECK,
    Card,
    Layoff,
    Meld,
    best_arrangement,
    check_layoffs,
    defender_best,
    parse_cards,
)

RUN = Meld.of("5S 6S 7S")
TRIO = Meld.of("KS KH KD")
FOUR = Meld.of("9S 9H 9D 9C")
KNOCKER = [RUN, TRIO, FOUR, Meld.of("2H 3H 4H")]


def lay(*pairs: tuple[str, int]) -> list[Layoff]:
    return [Layoff(Card.parse(card), meld) for card, meld in pairs]


@pytest.mark.parametrize(
    ("layoffs", "problems"),
    [
        (lay(("8S", 0)), []),
        (lay(("4S", 0)), []),  # either end
        (lay(("8S", 0), ("9S", 0)), []),  # chaining
        (lay(("9S", 0), ("8S", 0)), []),  # declared in any order
        (lay(("3S", 0), ("4S", 0), ("8S", 0)), []),  # both ends at once
        (lay(("KC", 1)), []),  # the 4th card of a set
        (lay(("AH", 3), ("5H", 3)), []),
        (lay(("9S", 0)), ["9♠ does not fit on 5♠6♠7♠"]),  # 8♠ missing: no gap-jumping
        (lay(("8H", 0)), ["8♥ does not fit on 5♠6♠7♠"]),
        (lay(("KC", 0)), ["K♣ does not fit on 5♠6♠7♠"]),
        (lay(("QS", 1)), ["Q♠ does not fit on K♠K♥K♦"]),
        (lay(("KC", 1), ("KC", 1)), ["K♣ is laid off twice"]),
        (
            lay(("8S", 5)),
            ["8♠ cannot be laid off on meld 5: the knocker has 4 melds, numbered from 0"],
        ),
        (lay(("9S", 0), ("QS", 1)), ["9♠ does not fit on 5♠6♠7♠", "Q♠ does not fit on K♠K♥K♦"]),
    ],
)
def test_check_layoffs(layoffs: list[Layoff], problems: list[str]) -> None:
    assert check_layoffs(KNOCKER, layoffs) == problems


def test_nothing_fits_a_set_of_four() -> None:
    assert check_layoffs([FOUR], lay(("9S", 0))) == ["9♠ does not fit on 9♠9♥9♦9♣"]


def test_rules_example_7_defender_play() -> None:
    # RULES.md §8 example 7: the defender lays off 8♠ 9♠ and 8♣ 7♣, melds the 2s.
    knocker = [Meld.of("KS KH KD"), Meld.of("5S 6S 7S"), Meld.of("9C TC JC")]
    play = defender_best(knocker, parse_cards("8S 9S 7C 8C 2S 2H 2D 2C AC 8D"))
    assert play.layoffs == tuple(lay(("8S", 1), ("9S", 1), ("8C", 2), ("7C", 2)))
    assert [m.symbols for m in play.melds] == ["2♠2♥2♦2♣"]
    assert play.deadwood == tuple(parse_cards("AC 8D"))
    assert play.deadwood_points == 9


def test_defender_breaks_his_own_meld_to_lay_off() -> None:
    # Melding 8♠ 8♣ 8♦ leaves 9♠ 7♣ (16); laying 8♠ 9♠ and 8♣ 7♣ off leaves 8♦ (8).
    # Junk 2♣ 3♦ 4♥ K♣ Q♦ (29) stays either way.
    knocker = [RUN, Meld.of("9C TC JC")]
    cards = parse_cards("8S 8C 8D 9S 7C 2C 3D 4H KC QD")
    play = defender_best(knocker, cards)
    assert play.layoffs == tuple(lay(("8S", 0), ("9S", 0), ("8C", 1), ("7C", 1)))
    assert play.melds == ()
    assert play.deadwood_points == 8 + 29
    expected = defender_min_deadwood([frozenset(m.cards) for m in knocker], cards)
    assert play.deadwood_points == expected


def test_a_chain_that_is_also_his_own_run_is_melded() -> None:
    play = defender_best([RUN], parse_cards("8S 9S TS 2C 3D 4H KC QD AH 2D"))
    assert [m.symbols for m in play.melds] == ["8♠9♠10♠"] and play.layoffs == ()


def test_no_layoffs_when_the_knocker_has_no_melds_given() -> None:
    play = defender_best([], parse_cards("8S 9S TS 2C 3D 4H 5C 6D 7H KC"))
    assert play.layoffs == () and [m.symbols for m in play.melds] == ["8♠9♠10♠"]


# Meld-rich cards around a few ranks, so that layoffs and own melds compete.
POOL = [c for c in DECK if c.suit.value in "SHD" and 3 <= c.rank <= 10]


@settings(max_examples=100, deadline=None)
@given(st.permutations(POOL))
def test_defender_best_matches_brute_force(cards: list[Card]) -> None:
    knocker = best_arrangement(cards[:10])
    defender = cards[10:20]
    play = defender_best(knocker.melds, defender)
    expected = defender_min_deadwood([frozenset(m.cards) for m in knocker.melds], defender)
    assert play.deadwood_points == expected
    placed = [c for m in play.melds for c in m.cards] + [lo.card for lo in play.layoffs]
    assert sorted(placed + list(play.deadwood)) == sorted(defender)
    assert check_layoffs(knocker.melds, list(play.layoffs)) == []


@settings(max_examples=100, deadline=None)
@given(
    st.permutations(POOL), st.lists(st.integers(0, 3), min_size=10, max_size=10), st.integers(1, 4)
)
def test_check_layoffs_matches_laying_one_by_one(
    cards: list[Card], targets: list[int], count: int
) -> None:
    knocker = best_arrangement(cards[:10]).melds
    if not knocker:
        return
    layoffs = [
        Layoff(card, t % len(knocker)) for card, t in zip(cards[10:20], targets, strict=True)
    ][:count]
    valid = can_lay_all(
        [frozenset(m.cards) for m in knocker], [(lo.card, lo.meld) for lo in layoffs]
    )
    assert (check_layoffs(knocker, layoffs) == []) is valid
