"""Best arrangements: least deadwood for 10 cards, best discard and big gin for 11."""

from __future__ import annotations

import pytest
from gin_brute import is_meld as brute_is_meld
from gin_brute import min_deadwood, min_deadwood_after_discard
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.scoring import (
    DECK,
    PRESETS,
    Arrangement,
    Card,
    CardError,
    all_best_arrangements,
    best_arrangement,
    parse_cards,
)
from scorekeeper.scoring.arrange import least_deadwood

# Meld-rich pools: few suits and adjacent ranks, so melds overlap and choices matter.
RICH = [c for c in DECK if c.suit.value in "SHD" and 4 <= c.rank <= 9]
NARROW = [c for c in DECK if c.suit.value in "SH" and c.rank <= 8]


def hands(size: int) -> st.SearchStrategy[list[Card]]:
    pool = st.sampled_from([list(DECK), RICH, NARROW])
    return pool.flatmap(lambda cards: st.permutations(cards)).map(lambda cards: cards[:size])


def assert_legal(arrangement: Arrangement, cards: list[Card]) -> None:
    placed = [c for meld in arrangement.melds for c in meld.cards] + list(arrangement.deadwood)
    if arrangement.discard is not None:
        placed.append(arrangement.discard)
    assert sorted(placed) == sorted(cards)  # every card exactly once
    assert all(brute_is_meld(meld.cards) for meld in arrangement.melds)
    assert arrangement.deadwood_points == sum(c.gin_value for c in arrangement.deadwood)


@pytest.mark.parametrize(
    ("cards", "melds", "deadwood", "points"),
    [
        ("5S 6S 7S 8S KH KD KC 2D 3C 9H", ["5♠6♠7♠8♠", "K♥K♦K♣"], "2D 3C 9H", 14),
        ("AS 2S 3S 4H 5D 7C 9C JH QD KS", ["A♠2♠3♠"], "4H 5D 7C 9C JH QD KS", 55),
        ("2H 3H 4H 5H 6H 7H 8H 9H TH JH", ["2♥3♥4♥5♥6♥7♥8♥9♥10♥J♥"], "", 0),
        # 7♠ fits the run and the set: the set of 7s and 5♠6♠ loose leaves 11; the
        # run 5♠6♠7♠ and 7♥7♦ loose leaves 14. The engine finds the 11.
        ("5S 6S 7S 7H 7D KC QC 2C 3C 4C", ["2♣3♣4♣", "7♠7♥7♦"], "5S 6S QC KC", 31),
        ("QS KS AS QH KH AH 4D 5D 6D 7D", ["4♦5♦6♦7♦"], "AS AH QS QH KS KH", 42),
    ],
)
def test_best_arrangement_examples(
    cards: str, melds: list[str], deadwood: str, points: int
) -> None:
    arrangement = best_arrangement(cards)
    assert [m.symbols for m in arrangement.melds] == melds
    assert arrangement.deadwood == tuple(parse_cards(deadwood))
    assert arrangement.deadwood_points == points
    assert arrangement.discard is None
    assert arrangement.gin is (points == 0)


def test_eleven_cards_take_the_best_discard() -> None:
    arrangement = best_arrangement("5S 6S 7S 8S KH KD KC 2D 3C 9H 4S")
    assert str(arrangement.discard) == "9H"
    assert arrangement.deadwood_points == 5
    assert [m.symbols for m in arrangement.melds] == ["4♠5♠6♠7♠8♠", "K♥K♦K♣"]


def test_eleven_cards_discard_the_highest_of_equal_values() -> None:
    # Ten, jack, queen and king are all worth 10: throw the king.
    arrangement = best_arrangement("AS 2S 3S 4H 4D 4C 7C 8C 9C TH KD")
    assert str(arrangement.discard) == "KD" and arrangement.deadwood == (Card.parse("TH"),)


def test_eleven_cards_may_break_a_four_to_go_gin() -> None:
    arrangement = best_arrangement("AS 2S 3S 4S 5H 5D 5C 9H 9D 9C 9S", PRESETS["classic"])
    assert arrangement.gin and arrangement.discard is not None and not arrangement.big_gin
    assert_legal(arrangement, parse_cards("AS 2S 3S 4S 5H 5D 5C 9H 9D 9C 9S"))


@pytest.mark.parametrize(
    ("rules", "big_gin"),
    [(None, True), (PRESETS["modern"], True), (PRESETS["classic"], False)],
)
def test_big_gin_only_when_played(rules: object, big_gin: bool) -> None:
    cards = "AS 2S 3S 4S 5H 5D 5C 9H 9D 9C 9S"
    arrangement = best_arrangement(cards, rules)  # type: ignore[arg-type]
    assert arrangement.big_gin is big_gin
    assert arrangement.gin
    assert (arrangement.discard is None) is big_gin


def test_duplicate_cards_are_refused() -> None:
    with pytest.raises(CardError, match="7♥ is entered twice"):
        best_arrangement("7H 7H 8H")


def test_sets_or_runs_both_found() -> None:
    layouts = all_best_arrangements("5S 5H 5D 6S 6H 6D 7S 7H 7D AC")
    kinds = [{m.kind for m in layout.melds} for layout in layouts]
    assert len(layouts) == 2
    assert sorted(kind.pop().value for kind in kinds if len(kind) == 1) == ["run", "set"]
    assert all(layout.deadwood_points == 1 for layout in layouts)


def test_results_are_deterministic() -> None:
    cards = "5S 5H 5D 6S 6H 6D 7S 7H 7D AC"
    assert best_arrangement(cards) == best_arrangement(list(reversed(parse_cards(cards))))


@settings(max_examples=150, deadline=None)
@given(hands(10))
def test_ten_cards_match_brute_force(cards: list[Card]) -> None:
    arrangement = best_arrangement(cards)
    assert arrangement.deadwood_points == min_deadwood(cards) == least_deadwood(cards)
    assert_legal(arrangement, cards)


@settings(max_examples=80, deadline=None)
@given(hands(11))
def test_eleven_cards_match_brute_force(cards: list[Card]) -> None:
    arrangement = best_arrangement(cards, PRESETS["classic"])  # no big gin: always a discard
    assert arrangement.discard is not None
    assert arrangement.deadwood_points == min_deadwood_after_discard(cards)
    assert_legal(arrangement, cards)
    played = best_arrangement(cards)  # big gin detectable
    assert played.big_gin is (min_deadwood(cards) == 0)
    assert_legal(played, cards)


@settings(max_examples=80, deadline=None)
@given(hands(10))
def test_every_best_arrangement_is_best_and_distinct(cards: list[Card]) -> None:
    layouts = all_best_arrangements(cards)
    assert layouts[0] == best_arrangement(cards)
    best = min_deadwood(cards)
    for layout in layouts:
        assert layout.deadwood_points == best
        assert_legal(layout, cards)
    assert len({layout.melds for layout in layouts}) == len(layouts)


def test_a_long_run_is_one_layout() -> None:
    layouts = all_best_arrangements("2H 3H 4H 5H 6H 7H 8H 9H TH JH")
    assert [[m.symbols for m in layout.melds] for layout in layouts] == [["2♥3♥4♥5♥6♥7♥8♥9♥10♥J♥"]]
