"""Settling a gin hand from the cards (RULES.md §2.2–§2.3, §3, §8)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from gin_brute import all_melds, defender_min_deadwood, min_deadwood, min_deadwood_after_discard
from gin_brute import is_meld as brute_is_meld
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.scoring import (
    DECK,
    PRESETS,
    Card,
    HandError,
    HandResult,
    Layoff,
    Meld,
    MeldKind,
    Outcome,
    Problem,
    Side,
    Step,
    check_layoffs,
    parse_cards,
    settle_gin_hand,
)

CLASSIC, RUSSIAN, MODERN = PRESETS["classic"], PRESETS["russian"], PRESETS["modern"]
DEFENDER = "4H 5H 6H 8S 8H 8C TD JD QD 9C"  # 9 deadwood, nothing to lay off on BASE

# Knocker melds used by most examples: A♠2♠3♠, 7♥7♦7♣, J♣Q♣K♣ (+ one deadwood card).
BASE = "AS 2S 3S 7H 7D 7C JC QC KC"

# RULES.md §8 single hands, dealt as cards. (case, knocker, defender, outcome, winner,
# classic points, russian/modern points)
SECTION_8 = [
    (
        "1: knock 5 vs 9 (seed 000)",
        BASE + " 5D",
        "4H 5H 6H 8S 8H 8D TD JD QD 9C",
        Outcome.KNOCK,
        Side.KNOCKER,
        4,
        4,
    ),
    # The defender's 7♠ would fit the knocker's 7s, but nothing is laid off against gin.
    (
        "2: gin vs 12 (seed 000: 0 to 32)",
        BASE + " 4S",
        "8S 8H 8D 8C 9H TH JH QH 5C 7S",
        Outcome.GIN,
        Side.KNOCKER,
        32,
        37,
    ),
    (
        "3: knock 8 vs 5",
        BASE + " 8D",
        "4H 5H 6H 8S 8H 8C 9D TD JD 5C",
        Outcome.UNDERCUT,
        Side.DEFENDER,
        13,
        28,
    ),
    (
        "4: knock 6 vs 6",
        BASE + " 6D",
        "4H 5H 6H 8S 8H 8C 9D TD JD 6C",
        Outcome.UNDERCUT,
        Side.DEFENDER,
        10,
        25,
    ),
    (
        "5: gin vs 0",
        BASE + " 4S",
        "4H 5H 6H 8S 8H 8C 9D TD JD QD",
        Outcome.GIN,
        Side.KNOCKER,
        20,
        25,
    ),
    (
        "6: knock 1, lay off a 4, keep 4 (seed 000)",
        "5S 6S 7S 9H 9D 9C JD QD KD AC",
        "4S 2H 2D 3C 4C 5C TH JH QH KH",
        Outcome.KNOCK,
        Side.KNOCKER,
        3,
        3,
    ),
    (
        "7: RULES.md example 7",
        "KS KH KD 5S 6S 7S 9C TC JC JD",
        "8S 9S 7C 8C 2S 2H 2D 2C AC 8D",
        Outcome.UNDERCUT,
        Side.DEFENDER,
        11,
        26,
    ),
]


@pytest.mark.parametrize("preset", ["classic", "russian", "modern"])
@pytest.mark.parametrize(
    ("case", "knocker", "defender", "outcome", "winner", "classic", "russian"),
    SECTION_8,
    ids=[case[0].split(":")[0] for case in SECTION_8],
)
def test_rules_section_8(
    preset: str,
    case: str,
    knocker: str,
    defender: str,
    outcome: Outcome,
    winner: Side,
    classic: int,
    russian: int,
) -> None:
    result = settle_gin_hand(PRESETS[preset], knocker, defender)
    assert (result.outcome, result.winner) == (outcome, winner)
    assert result.points == (classic if preset == "classic" else russian)
    assert not result.doubled and result.knock_limit == 10


def test_example_7_layout() -> None:
    result = settle_gin_hand(
        CLASSIC, "KS KH KD 5S 6S 7S 9C TC JC JD", "8S 9S 7C 8C 2S 2H 2D 2C AC 8D"
    )
    assert (result.knocker.deadwood_points, result.defender.deadwood_points) == (10, 9)
    spade_run = result.knocker.melds.index(Meld.of("5S 6S 7S"))
    club_run = result.knocker.melds.index(Meld.of("9C TC JC"))
    laid = {(str(lo.card), lo.meld) for lo in result.defender.layoffs}
    assert laid == {("8S", spade_run), ("9S", spade_run), ("8C", club_run), ("7C", club_run)}
    assert result.defender.melds == (Meld.of("2S 2H 2D 2C"),)
    assert result.defender.deadwood == tuple(parse_cards("AC 8D"))
    assert [str(s) for s in result.explanation][-1] == "Deadwood 9 ≤ 10: undercut, 1 + 10 = 11."


def test_seed_000_undercut_after_laying_off() -> None:
    # Seed 000: the defender lays off his only unmatched card, a 2, and undercuts.
    result = settle_gin_hand(
        CLASSIC, "3S 4S 5S 7H 7D 7C JC QC KC AD", "2S 8S 8H 8D 9D TD JD 4H 5H 6H"
    )
    assert result.defender.layoffs == (Layoff(Card.parse("2S"), 0),)
    assert (result.outcome, result.winner, result.points) == (Outcome.UNDERCUT, Side.DEFENDER, 11)


def test_tie_is_not_an_undercut_when_switched_off() -> None:
    rules = CLASSIC.replace(tie_is_undercut=False)
    result = settle_gin_hand(rules, BASE + " 6D", "4H 5H 6H 8S 8H 8C 9D TD JD 6C")
    assert (result.outcome, result.winner, result.points) == (Outcome.TIE, None, 0)
    assert str(result.explanation[-1]) == "Deadwood 6 = 6: a tie, nobody scores."
    assert result.score(0, 1).winner is None


def test_gin_is_never_undercut() -> None:
    result = settle_gin_hand(CLASSIC, BASE + " 4S", "4H 5H 6H 8S 8H 8C 9D TD JD QD")
    assert result.defender.deadwood_points == 0 and result.winner is Side.KNOCKER


# --- the knocker's layout ---------------------------------------------------------------

TRIPLES = "5S 5H 5D 6S 6H 6D 7S 7H 7D AC"


def test_knocker_lays_sets_when_runs_would_take_layoffs() -> None:
    # As runs, 4♠ 8♥ 4♦ would go on 5-6-7♠ / 5-6-7♥ / 5-6-7♦; as sets nothing fits.
    result = settle_gin_hand(MODERN, TRIPLES, "4S 8H 4D KC QD JH 9S 2C 3H TD")
    assert {m.kind for m in result.knocker.melds} == {MeldKind.SET}
    assert result.defender.layoffs == ()
    assert result.defender.deadwood_points == 4 + 8 + 4 + 10 + 10 + 10 + 9 + 2 + 3 + 10
    assert "2 ways" in str(result.explanation[1])


def test_knocker_lays_runs_when_sets_would_take_layoffs() -> None:
    # As sets, 5♣ and 7♣ would be the 4th cards; as runs nothing fits.
    result = settle_gin_hand(MODERN, TRIPLES, "5C 7C KC QD JH 9S 2C 3H TD 2H")
    assert {m.kind for m in result.knocker.melds} == {MeldKind.RUN}
    assert result.defender.layoffs == ()


def test_declared_runs_take_the_layoffs() -> None:
    runs = ["5S 6S 7S", "5H 6H 7H", "5D 6D 7D"]
    result = settle_gin_hand(MODERN, TRIPLES, "4S 8H 4D KC QD JH 9S 2C 3H TD", knocker_melds=runs)
    assert {str(lo.card) for lo in result.defender.layoffs} == {"4S", "8H", "4D"}
    assert result.defender.deadwood_points == 10 + 10 + 10 + 9 + 2 + 3 + 10


def test_declared_melds_leave_the_rest_as_deadwood() -> None:
    # Laid as 2♠3♠4♠ the ace is deadwood: no gin, though A♠-4♠ would have been.
    knocker = "AS 2S 3S 4S 7H 7D 7C JC QC KC"
    result = settle_gin_hand(
        CLASSIC, knocker, DEFENDER, knocker_melds=["2S 3S 4S", "7H 7D 7C", "JC QC KC"]
    )
    assert result.knocker.deadwood == (Card.parse("AS"),)
    assert (result.outcome, result.points) == (Outcome.KNOCK, 9 - 1)
    assert settle_gin_hand(CLASSIC, knocker, DEFENDER).outcome is Outcome.GIN


def test_eleven_cards_best_discard_is_explained() -> None:
    result = settle_gin_hand(CLASSIC, BASE + " 5D KD", "4H 5H 6H 8S 8H 8D TD JD QD 9C")
    assert result.knocker.discard == Card.parse("KD")
    assert result.knocker.deadwood_points == 5
    assert str(result.explanation[0]) == (
        "The knocker held 11 cards; discarding K♦ leaves the least deadwood."
    )


def test_big_gin_when_played() -> None:
    eleven = "AS 2S 3S 4S 7H 7D 7C JC QC KC TC"
    defender = "4H 5H 6H 8S 8H 8D TD JD QD 9C"
    result = settle_gin_hand(MODERN, eleven, defender)
    assert (result.outcome, result.points) == (Outcome.BIG_GIN, 9 + 31)
    assert result.knocker.discard is None and result.defender.layoffs == ()
    classic = settle_gin_hand(CLASSIC, eleven, defender)  # no big gin: discard, then gin
    assert classic.outcome is Outcome.GIN and classic.knocker.discard is not None
    assert classic.points == 9 + 20


def test_score_gives_seats() -> None:
    result = settle_gin_hand(CLASSIC, BASE + " 8D", "4H 5H 6H 8S 8H 8C 9D TD JD 5C")
    score = result.score(knocker_seat=1, defender_seat=0)
    assert (score.outcome, score.winner, score.points, score.doubled) == (
        Outcome.UNDERCUT,
        0,
        13,
        False,
    )


# --- declared defender play ---------------------------------------------------------------

EX7_KNOCKER = ["KS KH KD", "5S 6S 7S", "9C TC JC"]
EX7_DEFENDER = "8S 9S 7C 8C 2S 2H 2D 2C AC 8D"


def test_declared_layoffs_and_melds() -> None:
    result = settle_gin_hand(
        CLASSIC,
        "KS KH KD 5S 6S 7S 9C TC JC JD",
        EX7_DEFENDER,
        knocker_melds=EX7_KNOCKER,
        defender_melds=["2S 2H 2D 2C"],
        layoffs=[("9S", 1), Layoff(Card.parse("8S"), 1), {"card": "7c", "meld": 2}, ("8C", 2)],
    )
    assert result.defender.deadwood_points == 9 and result.points == 11


def test_declared_melds_without_layoffs_keep_the_rest() -> None:
    result = settle_gin_hand(
        CLASSIC,
        "KS KH KD 5S 6S 7S 9C TC JC JD",
        EX7_DEFENDER,
        knocker_melds=EX7_KNOCKER,
        defender_melds=["2S 2H 2D 2C"],
    )
    assert result.defender.layoffs == ()
    assert result.defender.deadwood_points == 8 + 9 + 7 + 8 + 1 + 8
    assert result.outcome is Outcome.KNOCK


# --- validation: every problem at once ---------------------------------------------------


def problems_of(**kwargs: object) -> list[Problem]:
    rules = kwargs.pop("rules", CLASSIC)
    with pytest.raises(HandError) as caught:
        settle_gin_hand(rules, **kwargs)  # type: ignore[arg-type]
    assert isinstance(caught.value, ValueError)
    return caught.value.problems


def test_many_problems_are_reported_together() -> None:
    found = problems_of(
        knocker_cards="AS 2S 3S 7H 7D 7C JC QC KC 1X",
        defender_cards="4H 5H 6H 8S 8H 8D TD JD 7H",
        upcard="ZZ",
    )
    assert found == [
        Problem("knocker.cards", "'1X' is not a card"),
        Problem("upcard", "'ZZ' is not a card"),
        Problem("defender.cards", "the defender must hold 10 cards, not 9"),
        Problem("defender.cards", "7♥ is in both hands"),
    ]


def test_card_counts() -> None:
    found = problems_of(knocker_cards=BASE, defender_cards="4H 5H 6H 8S 8H 8D TD JD QD 9C 2D")
    assert found == [
        Problem("knocker.cards", "the knocker must hold 10 cards (11 before the discard), not 9"),
        Problem("defender.cards", "the defender must hold 10 cards, not 11"),
    ]


def test_a_card_twice_in_one_hand() -> None:
    found = problems_of(knocker_cards=BASE + " 7H", defender_cards="4H 5H 6H 8S 8H 8D TD JD QD 9C")
    assert found == [Problem("knocker.cards", "7♥ is entered twice in the knocker's hand")]


def test_the_upcard_may_be_in_a_hand() -> None:
    """The upcard is the first discard: the player who took it holds it at the end. The
    defender holds the upcard 9♣ (knock limit 9) as his deadwood, 9; the knocker has 5♦."""
    result = settle_gin_hand(PRESETS["oklahoma"], BASE + " 5D",
                             "4H 5H 6H 8S 8H 8D TD JD QD 9C", upcard="9C")
    assert (result.outcome, result.winner, result.points) == (Outcome.KNOCK, Side.KNOCKER, 4)


def test_declared_melds_and_layoffs_are_checked() -> None:
    found = problems_of(
        knocker_cards="KS KH KD 5S 6S 7S 9C TC JC JD",
        defender_cards=EX7_DEFENDER,
        knocker_melds=["KS KH KD", "5S 6S 7S", "9C TC JC"],
        defender_melds=["2S 2H 2D 2C", "AC 2C 3C", "8S 8D 8H"],
        layoffs=[("9S", 1), ("8C", 0), ("QH", 2)],
    )
    assert found == [
        Problem("defender.melds", "2♣ is in two melds"),
        Problem("defender.melds", "3♣ is not in the defender's hand"),
        Problem("defender.melds", "8♥ is not in the defender's hand"),
        Problem("defender.layoffs", "Q♥ is not in the defender's hand"),
        Problem("defender.layoffs", "9♠ does not fit on 5♠6♠7♠"),
        Problem("defender.layoffs", "8♣ does not fit on K♠K♥K♦"),
    ]


def test_bad_declared_knocker_melds() -> None:
    found = problems_of(
        knocker_cards="KS KH KD 5S 6S 7S 9C TC JC JD",
        defender_cards=EX7_DEFENDER,
        knocker_melds=["KS KH KD", "5S 6S 8S", "QS KS AS", "9C TC"],
    )
    assert found == [
        Problem("knocker.melds", "5♠ 6♠ 8♠ is not a run: 7♠ is missing"),
        Problem("knocker.melds", "Q♠ K♠ A♠ is not a run: ace is low only"),
        Problem("knocker.melds", "9♣ 10♣ is not a meld: a meld needs at least 3 cards"),
    ]


def test_no_layoffs_against_gin() -> None:
    found = problems_of(
        knocker_cards=BASE + " 4S",
        defender_cards="8S 8H 8D 8C 9H TH JH QH 5C 7S",
        layoffs=[("7S", 1)],
    )
    assert found == [Problem("defender.layoffs", "nothing may be laid off against gin")]


def test_knock_over_the_limit() -> None:
    found = problems_of(
        knocker_cards=BASE + " KD",
        defender_cards="4H 5H 6H 8S 8H 8D TD JD QD 9C",
        rules=CLASSIC.replace(knock_limit=7),
    )
    assert found == [Problem("knocker", "a knock needs 7 or less, this hand has 10")]
    found = problems_of(
        knocker_cards="AS 2S 3S 7H 7D 7C JC QC 9H 5D",
        defender_cards="4H 5H 6H 8S 8H 8D TD JD QD 9C",
    )
    assert found == [Problem("knocker", "a knock needs 10 or less, this hand has 34")]


def test_all_eleven_melded_without_big_gin() -> None:
    found = problems_of(
        knocker_cards="AS 2S 3S 4S 7H 7D 7C JC QC KC TC",
        defender_cards="4H 5H 6H 8S 8H 8D TD JD QD 9C",
        knocker_melds=["AS 2S 3S 4S", "7H 7D 7C", "TC JC QC KC"],
    )
    assert [p.where for p in found] == ["knocker.melds"]
    assert "big gin is not played" in found[0].message


# --- Oklahoma (RULES.md §3) ---------------------------------------------------------------

OKLAHOMA = PRESETS["oklahoma"]


@pytest.mark.parametrize(
    ("upcard", "deadwood", "limit", "message"),
    [
        ("7S", "8D", 7, "a knock needs 7 or less (the upcard is 7♠), this hand has 8"),
        ("3D", "4D", 3, "a knock needs 3 or less (the upcard is 3♦), this hand has 4"),
        ("AH", "2D", 0, "the upcard A♥ is an ace: only gin may go down, this hand has 2"),
        ("KD", None, 10, None),
        ("TH", None, 10, None),
        ("6S", "6D", 6, None),
    ],
)
def test_oklahoma_upcard_sets_the_limit(
    upcard: str, deadwood: str | None, limit: int, message: str | None
) -> None:
    knocker = BASE + " " + (deadwood or "9D")
    if message is None:
        assert settle_gin_hand(OKLAHOMA, knocker, DEFENDER, upcard=upcard).knock_limit == limit
    else:
        found = problems_of(
            rules=OKLAHOMA, knocker_cards=knocker, defender_cards=DEFENDER, upcard=upcard
        )
        assert found == [Problem("knocker", message)]


def test_oklahoma_ace_can_mean_one() -> None:
    rules = OKLAHOMA.replace(oklahoma_ace="one")
    assert settle_gin_hand(rules, BASE + " AD", DEFENDER, upcard="AH").knock_limit == 1
    found = problems_of(
        rules=rules, knocker_cards=BASE + " 2D", defender_cards=DEFENDER, upcard="AH"
    )
    assert found == [
        Problem("knocker", "a knock needs 1 or less (the upcard is A♥), this hand has 2")
    ]


def test_oklahoma_gin_on_an_ace() -> None:
    result = settle_gin_hand(OKLAHOMA, BASE + " 4S", DEFENDER, upcard="AH")
    assert result.outcome is Outcome.GIN and result.knock_limit == 0


def test_oklahoma_needs_the_upcard() -> None:
    found = problems_of(rules=OKLAHOMA, knocker_cards=BASE + " 5D", defender_cards=DEFENDER)
    assert found == [Problem("upcard", "Oklahoma gin needs the upcard: it sets the knock limit")]


@pytest.mark.parametrize(
    ("knocker", "upcard", "points", "doubled"),
    [
        (BASE + " 4S", "9S", (5 + 25) * 2, True),  # gin bonus doubled too
        (BASE + " 8D", "9S", (3 + 25) * 2, True),  # undercut bonus doubled too (8 vs 5)
        (BASE + " 4S", "9H", 5 + 25, False),
    ],
)
def test_spade_upcard_doubles_everything(
    knocker: str, upcard: str, points: int, doubled: bool
) -> None:
    defender = (
        "4H 5H 6H 8S 8H 8C 9D TD JD 5C" if "8D" in knocker else "4H 5H 6H 8S 8H 8D TD JD QD 5C"
    )
    result = settle_gin_hand(OKLAHOMA, knocker, defender, upcard=upcard)
    assert (result.points, result.doubled) == (points, doubled)
    assert result.score(0, 1).doubled is doubled
    if doubled:
        half = points // 2
        assert str(result.explanation[-1]) == (
            f"Spade upcard: everything in this hand is doubled, {half} × 2 = {points}."
        )


def test_spades_do_not_double_when_switched_off() -> None:
    rules = OKLAHOMA.replace(spade_doubles=False)
    result = settle_gin_hand(rules, BASE + " 4S", "4H 5H 6H 8S 8H 8D TD JD QD 5C", upcard="9S")
    assert (result.points, result.doubled) == (30, False)


# --- explanations ---------------------------------------------------------------------------


def test_explanation_keeps_values_out_of_templates() -> None:
    result = settle_gin_hand(
        OKLAHOMA, "KS KH KD 5S 6S 7S 9C TC JC JD", "8S 9S 7C 8C 2S 2H 2D 2C AC 8D", upcard="JS"
    )
    assert [str(step) for step in result.explanation] == [
        "Oklahoma: the upcard J♠ sets the knock limit to 10.",
        "Knocker melds 5♠6♠7♠ 9♣10♣J♣ K♠K♥K♦; deadwood J♦ = 10.",
        "Defender lays off 8♠ 9♠ on 5♠6♠7♠.",
        "Defender lays off 8♣ 7♣ on 9♣10♣J♣.",
        "Defender melds 2♠2♥2♦2♣.",
        "Defender's deadwood A♣ 8♦ = 9.",
        "Deadwood 9 ≤ 10: undercut, 1 + 25 = 26.",
        "Spade upcard: everything in this hand is doubled, 26 × 2 = 52.",
    ]
    for step in result.explanation:
        assert isinstance(step, Step)
        assert not any(symbol in step.template for symbol in "♠♥♦♣")
        # Another language rewords the template and keeps the values.
        assert step.render(lambda t: "«" + t + "»").startswith("«")


# --- properties -----------------------------------------------------------------------------


def _run_from(start: Card, length: int, free: set[Card]) -> list[Card] | None:
    cards = [c for c in DECK if c.suit == start.suit and 0 <= c.rank - start.rank < length]
    return cards if len(cards) == length and all(c in free for c in cards) else None


def _set_of(start: Card, size: int, order: list[Card], free: set[Card]) -> list[Card] | None:
    same = [c for c in order if c.rank == start.rank and c in free]
    return same[:size] if start in same and len(same) >= size else None


def _meld_first(
    draw: st.DrawFn, order: list[Card], free: set[Card], size: int, budget: int
) -> list[Card]:
    """``size`` cards from ``free``: a few melds, then the lowest cards within ``budget``."""
    meld_cards = draw(st.sampled_from([6, 6, 7, 7, 8, 9, size]))
    hand: list[Card] = []
    for start in order:
        room = size - len(hand)
        if len(hand) >= meld_cards or room < 3:
            break
        if start not in free:
            continue
        if draw(st.booleans()):
            meld = _run_from(start, draw(st.integers(3, min(room, 6))), free)
        else:
            meld = _set_of(start, draw(st.integers(3, min(room, 4))), order, free)
        if meld:
            hand += meld
            free -= set(meld)
    for card in sorted((c for c in order if c in free), key=lambda c: min(c.rank, 10)):
        if len(hand) == size:
            break
        if min(card.rank, 10) <= budget:
            hand.append(card)
            free.discard(card)
            budget -= min(card.rank, 10)
    return hand


@st.composite
def knockable_deals(draw: st.DrawFn) -> tuple[list[Card], list[Card]]:
    """A knocker of 10 or 11 cards built meld first, then deadwood within the knock limit,
    and a defender who often holds cards that lay off on the knocker's melds, and
    sometimes melds of his own (so undercuts happen).

    Every example is a legal knock (or gin, or big gin), so every example reaches the
    optimality and layoff checks instead of being refused.
    """
    order = draw(st.permutations(DECK))
    free = set(order)
    knocker = _meld_first(draw, order, free, draw(st.sampled_from([10, 10, 10, 11])), 10)
    assume(len(knocker) in (10, 11))
    # Cards that would extend one of the knocker's runs or sets: layoff candidates.
    groups = _groups(knocker)
    fits = [c for c in order if c in free and any(brute_is_meld([*group, c]) for group in groups)]
    defender = fits[: draw(st.integers(0, min(4, len(fits))))]
    free -= set(defender)
    if draw(st.booleans()):
        defender += _meld_first(draw, order, free, 10 - len(defender), 12)
    defender += [c for c in order if c in free][: 10 - len(defender)]
    return knocker, defender


def _groups(cards: list[Card]) -> list[list[Card]]:
    """Every meld among ``cards`` (for finding layoff candidates)."""
    return [sorted(m) for m in all_melds(cards)]


@settings(max_examples=60, deadline=None)
@given(knockable_deals())
def test_settled_layouts_are_legal_and_optimal(deal: tuple[list[Card], list[Card]]) -> None:
    knocker, defender = deal
    rules = MODERN  # big gin is played, so an 11-card hand that all melds is big gin
    result = settle_gin_hand(rules, knocker, defender)
    expected = (
        min_deadwood(knocker)
        if len(knocker) == 10
        else (0 if min_deadwood(knocker) == 0 else min_deadwood_after_discard(knocker))
    )
    assert result.knocker.deadwood_points == expected
    kept = [c for c in knocker if c != result.knocker.discard]
    placed = [c for m in result.knocker.melds for c in m.cards] + list(result.knocker.deadwood)
    assert sorted(placed) == sorted(kept)
    assert all(brute_is_meld(m.cards) for m in result.knocker.melds + result.defender.melds)
    gin = result.knocker.deadwood_points == 0
    assert (result.outcome is Outcome.BIG_GIN) == (
        gin and len(knocker) == 11 and result.knocker.discard is None
    )
    against = [] if gin else [frozenset(m.cards) for m in result.knocker.melds]
    assert result.defender.deadwood_points == defender_min_deadwood(against, defender)
    assert check_layoffs(result.knocker.melds, list(result.defender.layoffs)) == []
    placed = [c for m in result.defender.melds for c in m.cards]
    placed += [lo.card for lo in result.defender.layoffs] + list(result.defender.deadwood)
    assert sorted(placed) == sorted(defender)
    assert isinstance(result, HandResult) and dataclasses.is_dataclass(result)


def test_the_generated_deals_reach_every_outcome() -> None:
    """The property above is only worth something if its deals reach knocks, undercuts,
    gins, big gins and layoffs, not mostly refusals: count what a fixed run reaches."""
    reached: Counter[str] = Counter()

    @settings(max_examples=100, deadline=None, derandomize=True, database=None)
    @given(knockable_deals())
    def record(deal: tuple[list[Card], list[Card]]) -> None:
        result = settle_gin_hand(MODERN, *deal)
        reached[result.outcome.value] += 1
        reached["layoffs"] += bool(result.defender.layoffs)

    record()
    assert {"knock", "undercut", "gin", "big_gin", "layoffs"} <= {
        k for k, n in reached.items() if n
    }, reached
