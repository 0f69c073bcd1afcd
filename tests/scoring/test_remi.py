"""Indonesian Remi deals, as RULES.md §7 and the examples of §8 and seed 002 score them."""

from __future__ import annotations

import pytest

from scorekeeper.scoring.cards import Card, parse_cards
from scorekeeper.scoring.remi import (
    CombinationKind,
    RemiError,
    RemiPlayerInput,
    RemiResult,
    score_remi_quick,
    settle_remi_deal,
)
from scorekeeper.scoring.rules import PRESETS, Rules

STRICT = PRESETS["remi"]
LENIENT = STRICT.replace(sets_need_sequence=False)


def settle(*players: RemiPlayerInput, rules: Rules = STRICT) -> RemiResult:
    return settle_remi_deal(rules, players)


def shown(
    name: str,
    hand: str = "",
    table: tuple[str, ...] = (),
    went_out: bool = False,
    final_discard: str | None = None,
) -> RemiPlayerInput:
    return RemiPlayerInput(name, table, hand, went_out, final_discard)


BOB_SEED = shown("Bob", "QC JD JC 6C 5C 4C 3C")
ANN_OUT = shown("Ann", "2H 3H 4H 5H KC KD KS", went_out=True, final_discard="AD")
CY = shown("Cy", "9D 9C 9H AS", table=("7S 8S 9S",))
DI = shown("Di", "QS QH QD 2S 6H 8D AH")
# A 7-card hand that clashes with none of the above (nor with the hands tested below).
ZED = shown("Zed", "2D 3D 4D TD TC 8C 7C")


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def problems(*players: RemiPlayerInput, rules: Rules = STRICT) -> list[tuple[str, str]]:
    with pytest.raises(RemiError) as caught:
        settle_remi_deal(rules, players)
    return caught.value.problems


# --- RULES §7/§8 and seed 002, player by player ------------------------------------------


@pytest.mark.parametrize(
    ("rule", "player", "rules", "points"),
    [
        ("seed 002: Q♣ J♦ J♣ 6♣ 5♣ 4♣ 3♣ scores +20 − 30", BOB_SEED, STRICT, -10),
        ("§8: A goes out, 2♥–5♥ K♣K♦K♠, discards A♦: 20 + 30 + 150", ANN_OUT, STRICT, 200),
        ("§8: C 7♠8♠9♠ on the table, 9♦9♣9♥ A♠ in hand: 15 + 15 − 15", CY, STRICT, 15),
        ("§8: D Q♠Q♥Q♦ 2♠ 6♥ 8♦ A♥, no sequence, strict", DI, STRICT, -60),
        ("§8: D the same, lenient: +30 − 30", DI, LENIENT, 0),
    ],
)
def test_rules_examples(rule: str, player: RemiPlayerInput, rules: Rules, points: int) -> None:
    assert settle(player, ZED, rules=rules).players[0].points == points, rule


def test_the_four_player_deal_of_section_8() -> None:
    result = settle(ANN_OUT, BOB_SEED, CY, DI)
    assert result.scores == (200, -10, 15, -60)
    assert result.went_out == 0
    ann, bob, cy, di = result.players
    assert [c.cards for c in ann.combinations] == [cards("2H 3H 4H 5H"), cards("KS KD KC")]
    assert ann.unmatched == ()
    assert (ann.plus, ann.minus, ann.closing_bonus, ann.final_discard) == (
        50,
        0,
        150,
        cards("AD")[0],
    )
    assert [c.cards for c in bob.combinations] == [cards("3C 4C 5C 6C")]
    assert bob.unmatched == cards("QC JD JC")
    assert [(c.kind, c.on_table) for c in cy.combinations] == [
        (CombinationKind.SEQUENCE, True),
        (CombinationKind.SET, False),
    ]
    assert cy.unmatched == cards("AS")
    assert di.combinations == ()
    assert [v.cards for v in di.void_sets] == [cards("QS QH QD")]
    assert set(di.unmatched) == set(cards("QS QH QD 2S 6H 8D AH"))


@pytest.mark.parametrize(
    ("discard", "bonus"),
    [("7D", 50), ("JH", 100), ("AD", 150)],
)
def test_going_out_adds_ten_times_the_final_discard(discard: str, bonus: int) -> None:
    out = shown("Ann", "2H 3H 4H 5H KC KD KS", went_out=True, final_discard=discard)
    ann = settle(out, BOB_SEED).players[0]
    assert (ann.closing_bonus, ann.points) == (bonus, 20 + 30 + bonus)


def test_stock_exhausted_nobody_gets_a_closing_bonus() -> None:
    result = settle(BOB_SEED, DI)
    assert result.went_out is None
    assert all(p.closing_bonus == 0 for p in result.players)
    assert "nobody gets the closing bonus" in str(result.explanation[0])


# --- sequence first --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "player", "strict", "lenient"),
    [
        (
            "a set without a sequence counts against him",
            shown("P", "5S 5H 5D 9C KH 2C 7H"),
            -40,
            -10,
        ),
        (
            "a set on the table without a sequence too",
            shown("P", "9C 2C 7H KH", ("5S 5H 5D",)),
            -40,
            -10,
        ),
        (
            "a sequence in hand makes the table set count",
            shown("P", "2C 3C 4C 9H", ("5S 5H 5D",)),
            25,
            25,
        ),
        (
            "a sequence on the table makes the hand set count",
            shown("P", "5S 5H 5D 9H", ("2C 3C 4C",)),
            25,
            25,
        ),
        (
            "a sequence worth forming even though it breaks a set",
            shown("P", "6S 6H 6D 6C 4S 5S 9H"),
            25,
            25,
        ),
        (
            "breaking four of a kind for a sequence: 4♠5♠6♠ + 6♥6♦6♣, 7♦ left",
            shown("P", "6S 6H 6D 6C 4S 5S 7D"),
            25,
            25,
        ),
    ],
)
def test_sets_need_a_sequence(
    rule: str, player: RemiPlayerInput, strict: int, lenient: int
) -> None:
    assert settle(player, ZED).players[0].points == strict, rule
    assert settle(player, ZED, rules=LENIENT).players[0].points == lenient, rule


def test_best_arrangement_prefers_the_higher_valued_combination() -> None:
    # 7♥ 8♥ 9♥ 10♥ (20) or 9♥ 9♠ 9♦ with 7♥ 8♥ 10♥ left: the run is worth more.
    player = settle(shown("P", "7H 8H 9H TH 9S 9C 2C"), ZED).players[0]
    assert [c.cards for c in player.combinations] == [cards("7H 8H 9H TH")]
    assert player.points == 20 - 10 - 5


# --- declared combinations are checked ---------------------------------------------------


@pytest.mark.parametrize(
    ("combination", "reason"),
    [
        ("AH 2H 3H", "aces are never in a sequence"),
        ("QH KH AH", "aces are never in a sequence"),
        ("TH JH QH", "numerals and pictures never mix"),
        ("9H TH JH", "numerals and pictures never mix"),
        ("5H 6H 8H", "7 missing"),
        ("5H 6S 7H", "neither a set (ranks differ) nor a sequence (suits differ)"),
        ("5H 6H", "at least 3 cards"),
        ("KH KD", "at least 3 cards"),
    ],
)
def test_invalid_table_combinations_say_why(combination: str, reason: str) -> None:
    found = problems(shown("P", "2C 3C 4C 8D 9S", (combination,)), ZED)
    assert len(found) == 1
    assert found[0][0] == "players.0.table.0"
    assert reason in found[0][1]


@pytest.mark.parametrize(
    "combination",
    ["2H 3H 4H", "8S 9S TS", "4D 2D 3D 5D 6D", "JC QC KC", "AH AD AS", "KH KD KC KS", "7H 7D 7C"],
)
def test_valid_table_combinations(combination: str) -> None:
    p = shown("P", "9C 5S JD QH", (combination,))
    player = settle(p, shown("Q", "8C 2S 3S 4S TC TH 6C"), rules=LENIENT).players[0]
    assert [sorted(c.cards) for c in player.combinations] == [sorted(cards(combination))]


def test_every_problem_is_reported_at_once() -> None:
    found = problems(
        shown("Ann", "7H 8H 9H", ("AH 2H 3H",), went_out=True),
        shown("Bob", "7H XX", went_out=True, final_discard="2C"),
        shown("", "", ("TH JH QH",), final_discard="3C"),
    )
    assert ("players.1.hand", "'XX' is not a card") in found
    assert ("players.0.table.0", "aces are never in a sequence (A♥ 2♥ 3♥)") in found
    assert ("players.2.table.0", next(m for w, m in found if w == "players.2.table.0")) in found
    assert ("players.0.final_discard", "Ann went out: name the final discard") in found
    assert ("players.2.final_discard", "only the player who went out has a final discard") in found
    assert ("players.2.name", "every player needs a name") in found
    assert ("players", "only one player can go out; Ann and Bob are marked") in found


def test_a_card_held_twice_is_named() -> None:
    found = problems(
        shown("Ann", "7H 8H 9H 2C KS KD QS"), shown("Bob", "7H 2S 9D JC", ("2C 3C 4C",))
    )
    assert found == [
        ("players.1.table.0", "2♣ is held by Ann and Bob"),
        ("players.1.hand", "7♥ is held by Ann and Bob"),
    ]


def test_a_card_entered_twice_by_one_player() -> None:
    found = problems(shown("Ann", "7H 8H 9H 9H KS KD QS"), shown("Bob", "2S 3D 5C 8C TD JD AH"))
    assert found == [("players.0.hand", "9♥ is entered twice for Ann")]


@pytest.mark.parametrize(
    ("players", "where", "message"),
    [
        ((shown("Ann", "2S 3S 4S"),), "players", "Remi is for 2 to 4 players, not 1"),
        (
            tuple(shown(f"P{i}", f"{i}S") for i in range(2, 7)),
            "players",
            "Remi is for 2 to 4 players, not 5",
        ),
        ((shown("Ann"), shown("Bob", "2S")), "players.0", "Ann has no cards"),
        (
            (
                shown("Ann", " ".join(f"{r}{s}" for r in "23456" for s in "SHDC")),
                shown("Bob", "AS"),
            ),
            "players.0",
            "20 cards is too many for one player",
        ),
    ],
)
def test_player_counts(players: tuple[RemiPlayerInput, ...], where: str, message: str) -> None:
    assert (where, message) in problems(*players)


def test_the_player_who_went_out_has_every_card_in_a_combination() -> None:
    found = problems(
        shown("Ann", "2H 3H 4H 5H KC KD 9S", went_out=True, final_discard="AD"), BOB_SEED
    )
    assert found == [
        (
            "players.0.hand",
            "Ann went out, so every card but the final discard must be in a combination "
            "that counts; K♣ K♦ 9♠ cannot be",
        )
    ]


def test_going_out_on_sets_alone_is_impossible_with_sequence_first() -> None:
    out = shown("Ann", "KC KD KS 7C 7D 7H 7S", went_out=True, final_discard="2D")
    assert problems(out, BOB_SEED)[0][0] == "players.0.hand"
    assert settle(out, BOB_SEED, rules=LENIENT).players[0].points == 30 + 20 + 50


def test_eight_cards_are_accepted() -> None:
    # Taking the 2nd or 3rd discard brings the cards above it (seed 002): hands grow.
    player = shown("Ann", "2H 3H 4H 5H 6H 7H 8H 9H")
    assert settle(player, BOB_SEED).players[0].points == 40


@pytest.mark.parametrize(
    ("player", "where", "message"),
    [
        (
            shown("Ann", "2H 3H 4H", ("KC KD KS",)),
            "players.0.hand",
            "Ann holds at least 7 cards at the end of a deal (table and hand); cards entered: 6",
        ),
        (
            shown("Ann", "2H 3H 4H KC KD KS", went_out=True, final_discard="AD"),
            "players.0.hand",
            "Ann went out, so they hold at least 7 cards besides the final discard "
            "(table and hand); cards entered: 6",
        ),
    ],
)
def test_fewer_than_seven_cards_are_refused(
    player: RemiPlayerInput, where: str, message: str
) -> None:
    # RULES §7: 7 are dealt and every turn ends with a discard, so nobody holds fewer than 7.
    assert problems(player, BOB_SEED) == [(where, message)]


def test_seven_cards_besides_the_final_discard_are_accepted() -> None:
    assert settle(ANN_OUT, BOB_SEED).scores == (200, -10)


def test_cards_may_be_card_objects_or_symbols() -> None:
    player = RemiPlayerInput("Ann", table=[cards("7S 8S 9S")], hand=["9♦ 9♣", "9♥", "K♥"])
    assert settle(player, BOB_SEED).players[0].points == 30 - 10


def test_the_explanation_walks_through_each_player() -> None:
    result = settle(ANN_OUT, DI)
    lines = [str(step) for step in result.explanation]
    assert lines == [
        "Ann went out.",
        "Ann: 2♥ 3♥ 4♥ 5♥ in hand is a sequence, +20.",
        "Ann: K♠ K♦ K♣ in hand is a set, +30.",
        "Ann went out discarding A♦: 10 × 15 = +150.",
        "Ann scores 50 − 0 + 150 = 200.",
        "Di has no sequence, so the set Q♠ Q♥ Q♦ does not count.",
        "Di: Q♠ Q♥ Q♦ 2♠ 6♥ 8♦ A♥ in no combination, −60.",
        "Di scores 0 − 60 = −60.",
    ]
    step = result.players[1].explanation[0]
    assert "{cards}" in step.template and step.params["cards"] == cards("QS QH QD")


def test_two_players_with_one_name() -> None:
    first, second = "2S 4S 6S 8S TS QS AS", "3S 5S 7S 9S JS KS AH"
    assert problems(shown("Ann", first), shown("Ann", second)) == [
        ("players.1.name", "two players are named Ann")
    ]


# --- quick mode: typed totals ------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "plus", "minus", "went_out", "discard", "points"),
    [
        ("seed 002: +20 − 30", 20, 30, False, None, -10),
        ("§8 A: 20 + 30, out on an ace: + 150", 50, 0, True, 15, 200),
        ("§8 C: 15 + 15 − 15", 30, 15, False, None, 15),
        ("§8 D strict: nothing counts", 0, 60, False, None, -60),
        ("out on a picture: + 100", 45, 0, True, 10, 145),
        ("out on a numeral: + 50", 15, 0, True, 5, 65),
    ],
)
def test_quick_scores(
    rule: str, plus: int, minus: int, went_out: bool, discard: int | None, points: int
) -> None:
    assert score_remi_quick(plus, minus, went_out, discard).points == points, rule


@pytest.mark.parametrize(
    ("plus", "minus", "went_out", "discard", "where", "message"),
    [
        (-5, 0, False, None, "plus", "must be a whole number, 0 or more"),
        (0, -5, False, None, "minus", "must be a whole number, 0 or more"),
        (22, 0, False, None, "plus", "cards are worth 5, 10 or 15, so this is a multiple of 5"),
        (0, 7, False, None, "minus", "cards are worth 5, 10 or 15, so this is a multiple of 5"),
        (10, 0, False, None, "plus", "a combination has 3 or more cards, so plus is 0 or 15+"),
        (50, 0, True, None, "discard_value", "the final discard is worth 5, 10 or 15"),
        (50, 0, True, 20, "discard_value", "the final discard is worth 5, 10 or 15"),
        (50, 0, False, 15, "discard_value", "only the player who went out has a final discard"),
        (50, 10, True, 15, "minus", "a player who went out has every card in a combination"),
        (0, 0, True, 15, "plus", "a player who went out has at least one combination"),
    ],
)
def test_quick_mode_checks_the_totals(
    plus: int, minus: int, went_out: bool, discard: int | None, where: str, message: str
) -> None:
    with pytest.raises(RemiError) as caught:
        score_remi_quick(plus, minus, went_out, discard)
    assert (where, message) in caught.value.problems


def test_quick_mode_one_mistake_one_message() -> None:
    # His 50 typed as minus breaks "no minus" and "a combination": one message.
    with pytest.raises(RemiError) as caught:
        score_remi_quick(0, 50, True, 15)
    assert caught.value.problems == [
        ("minus", "a player who went out has every card in a combination")
    ]


def test_quick_mode_explains() -> None:
    score = score_remi_quick(50, 0, went_out=True, discard_value=15)
    assert [str(step) for step in score.explanation] == [
        "50 − 0 = 50.",
        "Went out: 10 × 15 = +150, 200 in all.",
    ]
    assert (score.plus, score.minus, score.closing_bonus) == (50, 0, 150)
