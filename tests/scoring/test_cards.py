"""Cards and their notations (RULES.md §1)."""

from __future__ import annotations

import pytest

from scorekeeper.scoring import DECK, Card, CardError, Rank, Suit, check_distinct, parse_cards
from scorekeeper.scoring.cards import find_duplicates, read_cards


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("TD", "TD"),
        ("td", "TD"),
        ("10♦", "TD"),
        ("10d", "TD"),
        ("10♢", "TD"),
        ("q♠", "QS"),
        ("Q♤", "QS"),
        ("7H", "7H"),
        ("7♥", "7H"),
        ("7♡", "7H"),
        ("7♥\ufe0f", "7H"),  # the emoji variation selector some phones add
        ("as", "AS"),
        ("K♣", "KC"),
        ("k♧", "KC"),
        (" 2c ", "2C"),
    ],
)
def test_one_card_in_any_notation(text: str, canonical: str) -> None:
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize(
    "text",
    ["7H 8H 9H", "7h,8h,9h", "7h, 8h ,9h", "7♥ 8♥ 9♥", ["7H", "8H", "9H"], ["7h 8h", "9h"]],
)
def test_several_cards_with_any_separator(text: str | list[str]) -> None:
    assert [str(c) for c in parse_cards(text)] == ["7H", "8H", "9H"]


def test_card_objects_pass_through() -> None:
    cards = [Card.parse("7H"), Card.parse("8H")]
    assert parse_cards(cards) == cards
    assert parse_cards([cards[0], "8h 9h"]) == [*cards, Card.parse("9H")]


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        ("1X", ["'1X' is not a card"]),
        ("7h 11h 8h", ["'11h' is not a card"]),
        ("AA 7h ZZ", ["'AA' is not a card", "'ZZ' is not a card"]),  # every bad token at once
        ("1s", ["'1s' is not a card"]),  # an ace is A, never 1
        ("7", ["'7' is not a card"]),
        ("7hh", ["'7hh' is not a card"]),
    ],
)
def test_bad_tokens_are_named(text: str, problems: list[str]) -> None:
    with pytest.raises(CardError) as caught:
        parse_cards(text)
    assert caught.value.problems == problems
    assert isinstance(caught.value, ValueError)
    assert read_cards(text)[1] == problems


def test_lenient_read_keeps_good_cards() -> None:
    assert read_cards("7h zz 8h") == ([Card.parse("7H"), Card.parse("8H")], ["'zz' is not a card"])


def test_empty_text_is_no_cards() -> None:
    assert parse_cards("") == []
    assert parse_cards(" , ") == []


@pytest.mark.parametrize("card", DECK, ids=str)
def test_notations_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(card.symbols) == card
    assert eval(repr(card)) == card  # the repr pastes back
    assert Card.from_index(card.index) == card


def test_deck_and_indexes() -> None:
    assert len(DECK) == len(set(DECK)) == 52
    assert sorted(c.index for c in DECK) == list(range(52))
    assert Card.parse("AS").index == 0 and Card.parse("KC").index == 51
    with pytest.raises(ValueError):
        Card.from_index(52)


@pytest.mark.parametrize(
    ("card", "gin", "remi"),
    [("AS", 1, 15), ("2H", 2, 5), ("9D", 9, 5), ("TC", 10, 5), ("JS", 10, 10), ("KH", 10, 10)],
)
def test_values(card: str, gin: int, remi: int) -> None:
    assert Card.parse(card).gin_value == gin
    assert Card.parse(card).remi_value == remi


def test_suits_and_ranks() -> None:
    assert [s.symbol for s in Suit] == ["♠", "♥", "♦", "♣"]
    assert [s.red for s in Suit] == [False, True, True, False]
    assert "".join(r.char for r in Rank) == "A23456789TJQK"
    assert Rank.TEN.label == "10" and Rank.QUEEN.label == "Q"
    assert Card.parse("TD").symbols == "10♦"


def test_card_order_is_rank_then_suit_letter() -> None:
    assert sorted(parse_cards("KS 2H 2C AS")) == parse_cards("AS 2C 2H KS")


def test_find_duplicates() -> None:
    assert find_duplicates(parse_cards("7H 8H 7H 7H 8H")) == parse_cards("7H 8H")


@pytest.mark.parametrize(
    ("groups", "expected"),
    [
        (
            {"knocker.cards": "7H 8H", "defender.cards": "9H 7H"},
            [("defender.cards", "7♥ is in both hands")],
        ),
        (
            {"knocker.cards": "7H 7H 8H"},
            [("knocker.cards", "7♥ is entered twice in the knocker's hand")],
        ),
        (
            {"defender.cards": "2C 2C"},
            [("defender.cards", "2♣ is entered twice in the defender's hand")],
        ),
        (
            {"knocker.cards": "7H 8H", "discard": "8H"},
            [("discard", "8♥ is in knocker.cards and discard")],
        ),
        ({"knocker.cards": "7H 8H", "defender.cards": "9H"}, []),
    ],
)
def test_check_distinct_names_the_card(
    groups: dict[str, str], expected: list[tuple[str, str]]
) -> None:
    assert check_distinct({k: parse_cards(v) for k, v in groups.items()}) == expected
