"""Melds (RULES.md §2.1): sets of 3–4 of a rank; runs of 3+ of one suit, ace low only."""

from __future__ import annotations

import pytest

from scorekeeper.scoring import Meld, MeldError, MeldKind, is_meld, parse_cards


@pytest.mark.parametrize(
    ("cards", "kind"),
    [
        ("AS 2S 3S", MeldKind.RUN),  # ace low
        ("3S AS 2S", MeldKind.RUN),  # any order
        ("JH QH KH", MeldKind.RUN),
        ("5D 6D 7D 8D 9D", MeldKind.RUN),  # seed 000: 5-card combinations are accepted
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC", MeldKind.RUN),
        ("7S 7H 7D", MeldKind.SET),
        ("7S 7H 7D 7C", MeldKind.SET),
        ("AS AH AC", MeldKind.SET),
    ],
)
def test_legal_melds(cards: str, kind: MeldKind) -> None:
    assert is_meld(cards)
    assert Meld.of(cards).kind is kind


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        ("QS KS AS", "Q♠ K♠ A♠ is not a run: ace is low only"),
        ("KS AS 2S", "K♠ A♠ 2♠ is not a run: ace is low only"),
        ("5S 6S 8S", "5♠ 6♠ 8♠ is not a run: 7♠ is missing"),
        ("4H 8H 5H", "4♥ 8♥ 5♥ is not a run: 6♥ 7♥ are missing"),
        ("5S 6H 7S", "5♠ 6♥ 7♠ is not a run: a run needs cards of one suit"),
        ("7S 7H 8D", "7♠ 7♥ 8♦ is not a meld: a set needs 3 or 4 cards of one rank"),
        ("7S 7H", "7♠ 7♥ is not a meld: a meld needs at least 3 cards"),
        ("7S 7S 7H", "7♠ 7♠ 7♥ is not a meld: a card is entered twice"),
    ],
)
def test_illegal_melds_say_why(cards: str, reason: str) -> None:
    assert not is_meld(cards)
    with pytest.raises(MeldError) as caught:
        Meld.of(cards)
    assert str(caught.value) == reason
    assert isinstance(caught.value, ValueError)


def test_meld_order_points_and_symbols() -> None:
    run = Meld.of("7S 5S 6S")
    assert run.cards == tuple(parse_cards("5S 6S 7S"))
    assert (run.points, run.symbols, str(run)) == (18, "5♠6♠7♠", "5S 6S 7S")
    assert (run.low, run.high) == tuple(parse_cards("5S 7S"))
    trio = Meld.of("KC KS KD")
    assert trio.symbols == "K♠K♦K♣" and trio.points == 30 and len(trio) == 3


def test_melds_compare_by_cards() -> None:
    assert Meld.of("5S 6S 7S") == Meld.of("7S 6S 5S")
    assert hash(Meld.of("5S 6S 7S")) == hash(Meld.of("6S 5S 7S"))
