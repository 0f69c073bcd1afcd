"""Quick mode: scoring typed deadwood totals (the score sheet without cards)."""

from __future__ import annotations

import pytest

from scorekeeper.scoring import PRESETS, HandError, Outcome, Problem, Side, score_quick_hand

# RULES.md §8 single hands as typed totals: (case, outcome typed, K, D, result outcome,
# winner, classic points, russian/modern points).
SECTION_8 = [
    ("1: knock 5 vs 9", "knock", 5, 9, Outcome.KNOCK, Side.KNOCKER, 4, 4),
    ("2: gin vs 12", "gin", 0, 12, Outcome.GIN, Side.KNOCKER, 32, 37),
    ("3: knock 8 vs 5", "knock", 8, 5, Outcome.UNDERCUT, Side.DEFENDER, 13, 28),
    ("4: knock 6 vs 6", "knock", 6, 6, Outcome.UNDERCUT, Side.DEFENDER, 10, 25),
    ("5: gin vs 0", "gin", 0, 0, Outcome.GIN, Side.KNOCKER, 20, 25),
    ("6: knock 1, defender keeps 4", "knock", 1, 4, Outcome.KNOCK, Side.KNOCKER, 3, 3),
    ("7: knock 10, defender keeps 9", "knock", 10, 9, Outcome.UNDERCUT, Side.DEFENDER, 11, 26),
]


@pytest.mark.parametrize("preset", ["classic", "russian", "modern"])
@pytest.mark.parametrize(
    ("case", "typed", "knocker", "defender", "outcome", "winner", "classic", "russian"),
    SECTION_8,
    ids=[case[0].split(":")[0] for case in SECTION_8],
)
def test_rules_section_8(
    preset: str,
    case: str,
    typed: str,
    knocker: int,
    defender: int,
    outcome: Outcome,
    winner: Side,
    classic: int,
    russian: int,
) -> None:
    result = score_quick_hand(PRESETS[preset], typed, knocker, defender)
    assert (result.outcome, result.winner) == (outcome, winner)
    assert result.points == (classic if preset == "classic" else russian)
    assert (result.knocker.deadwood_points, result.defender.deadwood_points) == (knocker, defender)


def test_big_gin() -> None:
    result = score_quick_hand(PRESETS["modern"], Outcome.BIG_GIN, 0, 12)
    assert (result.outcome, result.points) == (Outcome.BIG_GIN, 12 + 31)


def test_dead_hand_scores_nothing() -> None:
    result = score_quick_hand(PRESETS["classic"], "dead", None, None)
    assert (result.outcome, result.winner, result.points) == (Outcome.DEAD, None, 0)
    assert result.score(0, 1).winner is None
    assert "nobody scores" in str(result.explanation[0])


def test_a_knock_with_no_deadwood_is_gin() -> None:
    result = score_quick_hand(PRESETS["classic"], "knock", 0, 7)
    assert (result.outcome, result.points) == (Outcome.GIN, 27)
    assert str(result.explanation[0]) == "A knock with no deadwood is gin."


def test_tie_when_ties_are_not_undercuts() -> None:
    rules = PRESETS["classic"].replace(tie_is_undercut=False)
    result = score_quick_hand(rules, "knock", 6, 6)
    assert (result.outcome, result.winner, result.points) == (Outcome.TIE, None, 0)


def test_oklahoma_spade_doubles() -> None:
    result = score_quick_hand(PRESETS["oklahoma"], "gin", 0, 12, upcard="5S")
    assert (result.points, result.doubled, result.knock_limit) == ((12 + 25) * 2, True, 5)
    assert result.score(1, 0).winner == 1


def problems_of(rules: str = "classic", **kwargs: object) -> list[Problem]:
    with pytest.raises(HandError) as caught:
        score_quick_hand(PRESETS[rules], **kwargs)  # type: ignore[arg-type]
    return caught.value.problems


@pytest.mark.parametrize(
    ("rules", "kwargs", "expected"),
    [
        (
            "classic",
            {"outcome": "knock", "knocker_deadwood": -1, "defender_deadwood": 250},
            [
                Problem("knocker_deadwood", "deadwood cannot be negative (−1)"),
                Problem("defender_deadwood", "ten cards hold at most 100 deadwood, not 250"),
            ],
        ),
        (
            "classic",
            {"outcome": "gin", "knocker_deadwood": 3, "defender_deadwood": 5},
            [Problem("knocker_deadwood", "gin means the knocker has no deadwood, not 3")],
        ),
        (
            "classic",
            {"outcome": "big_gin", "knocker_deadwood": 0, "defender_deadwood": 5},
            [Problem("outcome", "big gin is not played under these rules")],
        ),
        (
            "classic",
            {"outcome": "knock", "knocker_deadwood": 14, "defender_deadwood": 20},
            [Problem("knocker_deadwood", "a knock needs 10 or less, this hand has 14")],
        ),
        (
            "classic",
            {"outcome": "undercut", "knocker_deadwood": 4, "defender_deadwood": 2},
            [
                Problem(
                    "outcome",
                    "the outcome must be knock, gin, big gin or dead "
                    "(an undercut or a tie follows from the deadwood)",
                )
            ],
        ),
        (
            "classic",
            {"outcome": "knock", "knocker_deadwood": "7", "defender_deadwood": True},
            [
                Problem("knocker_deadwood", "'7' is not a whole number"),
                Problem("defender_deadwood", "True is not a whole number"),
            ],
        ),
        (
            "oklahoma",
            {"outcome": "knock", "knocker_deadwood": 4, "defender_deadwood": 20},
            [Problem("upcard", "Oklahoma gin needs the upcard: it sets the knock limit")],
        ),
        (
            "oklahoma",
            {"outcome": "knock", "knocker_deadwood": 4, "defender_deadwood": 20, "upcard": "3H"},
            [
                Problem(
                    "knocker_deadwood",
                    "a knock needs 3 or less (the upcard is 3♥), this hand has 4",
                )
            ],
        ),
        (
            "oklahoma",
            {"outcome": "knock", "knocker_deadwood": 1, "defender_deadwood": 20, "upcard": "AH"},
            [
                Problem(
                    "knocker_deadwood",
                    "the upcard A♥ is an ace: only gin may go down, this hand has 1",
                )
            ],
        ),
        (
            "oklahoma",
            {"outcome": "knock", "knocker_deadwood": 1, "defender_deadwood": 20, "upcard": "1H"},
            [Problem("upcard", "'1H' is not a card")],
        ),
    ],
)
def test_problems(rules: str, kwargs: dict[str, object], expected: list[Problem]) -> None:
    assert problems_of(rules, **kwargs) == expected
