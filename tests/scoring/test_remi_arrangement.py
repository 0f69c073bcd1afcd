"""The best Remi arrangement against a brute force over every partition of the hand."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.scoring.cards import DECK, Card, Rank, parse_cards
from scorekeeper.scoring.remi_combinations import (
    Combination,
    CombinationKind,
    arrange_remi,
    combination_from_cards,
    combination_problem,
    remi_points,
)
from scorekeeper.scoring.rules import PRESETS

STRICT = PRESETS["remi"]
LENIENT = STRICT.replace(sets_need_sequence=False)

# A crowded corner of the pack, so that random hands often hold combinations.
DENSE = [c for c in DECK if c.rank in (Rank.ACE, 4, 5, 6, 7, Rank.JACK, Rank.QUEEN, Rank.KING)]
TABLES = ["", "2C 3C 4C", "KS KH KD", "8D 8H 8C", "JH QH KH"]


def partitions(items: Sequence[Card]) -> Iterator[list[list[Card]]]:
    """Every way to split ``items`` into blocks."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def is_sequence(block: Sequence[Card]) -> bool:
    return len({card.rank for card in block}) > 1


def brute_force(hand: Sequence[Card], table: Sequence[Combination], strict: bool) -> int:
    """The best score over every partition of the hand: valid blocks count +, the rest −;
    sets only beside a sequence. Each block is judged once (a hand of 8 has 4,140
    partitions but only 255 blocks), then every partition is scored from those."""
    table_cards = [card for combo in table for card in combo.cards]
    table_sequence = any(c.kind == CombinationKind.SEQUENCE for c in table)
    judged: dict[frozenset[Card], tuple[bool, bool, int]] = {}

    def judge(block: list[Card]) -> tuple[bool, bool, int]:
        key = frozenset(block)
        if key not in judged:
            judged[key] = (combination_problem(block) is None, is_sequence(block),
                           remi_points(block))
        return judged[key]

    best = None
    for partition in partitions(list(hand)):
        valid = [verdict for verdict in map(judge, partition) if verdict[0]]
        sequence = any(seq for _ok, seq, _points in valid) or table_sequence
        plus = sum(points for _ok, seq, points in valid if sequence or not strict or seq)
        if sequence or not strict:
            plus += remi_points(table_cards)
        score = 2 * plus - remi_points(hand) - remi_points(table_cards)
        best = score if best is None else max(best, score)
    assert best is not None
    return best


def hands(pool: Sequence[Card]) -> st.SearchStrategy[list[Card]]:
    return st.lists(st.sampled_from(pool), unique=True, max_size=8)


@settings(max_examples=150, deadline=None)
@given(
    hand=st.one_of(hands(DENSE), hands(DECK)),
    table_text=st.sampled_from(TABLES),
    strict=st.booleans(),
)
def test_best_arrangement_matches_brute_force(
    hand: list[Card], table_text: str, strict: bool
) -> None:
    table_cards = parse_cards(table_text) if table_text else []
    hand = [card for card in hand if card not in table_cards][:8]
    table = [combination_from_cards(table_cards, on_table=True)] if table_cards else []
    arranged = arrange_remi(hand, STRICT if strict else LENIENT, table)
    assert arranged.points == brute_force(hand, table, strict)
    # The arrangement itself is consistent with its score and the rules.
    shown = [card for combo in arranged.combinations for card in combo.cards]
    assert sorted(shown + list(arranged.unmatched)) == sorted(hand + table_cards)
    assert all(combination_problem(combo.cards) is None for combo in arranged.combinations)
    if strict and not arranged.has_sequence:
        assert arranged.combinations == ()
    assert arranged.points == arranged.plus - arranged.minus


@pytest.mark.parametrize(
    ("hand", "best"),
    [
        ("4C 5C 6C 7C 8C 9C TC 7S 7H 7D", 50),  # the long run, or a run plus the four 7s
        ("2S 3S 4S 5S 5H 5D 6S 7S 8S", 45),  # 2-4♠, 5♠5♥5♦, 6-8♠ rather than 2-8♠
    ],
)
def test_long_hands_are_arranged_exactly(hand: str, best: int) -> None:
    assert arrange_remi(parse_cards(hand), STRICT).points == best


def test_a_large_hand_is_quick() -> None:
    # 16 cards thick with runs and sets still arrange at once (memoised search).
    hand = parse_cards("4S 5S 6S 7S 4H 5H 6H 7H 4D 5D 6D 7D 4C 5C 6C 7C")
    assert arrange_remi(hand, STRICT).points == 80
