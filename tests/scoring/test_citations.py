"""Every explanation step names the rule it applied (``scoring/citations.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scorekeeper.scoring import PRESETS, settle_gin_hand
from scorekeeper.scoring.citations import RULE_OF
from scorekeeper.scoring.game import _WINNER_FINALS, play_gin_game
from scorekeeper.scoring.outcome import HandScore, Outcome
from scorekeeper.scoring.remi import _COMBINATION_TEMPLATES, RemiPlayerInput, settle_remi_deal
from scorekeeper.scoring.settle import score_quick_hand

SCORING = Path(__file__).resolve().parents[2] / "scorekeeper" / "scoring"
# The anchors of the rule cards (rulebook/content.py).
ANCHORS = {
    "melds", "knock", "upcard", "layoffs", "gin", "big-gin", "undercut", "tie", "dead-hand",
    "target", "deals", "boxes", "game-bonus", "shutout", "teams", "sequences", "sets", "going-out",
    "remi-scoring", "remi-end",
}


def step_templates() -> list[str]:
    """Every template written out as ``Step(N_("..."), ...)`` in the engine."""
    found = []
    for path in sorted(SCORING.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Step" \
                    and node.args and isinstance(node.args[0], ast.Call) \
                    and getattr(node.args[0].func, "id", None) == "N_":
                found.append(node.args[0].args[0].value)
    return found


def test_every_step_template_cites_a_rule_of_the_cards() -> None:
    templates = [*step_templates(), *_WINNER_FINALS.values(), *_COMBINATION_TEMPLATES.values()]
    assert len(templates) > 40
    assert [t for t in templates if t not in RULE_OF] == []
    assert set(RULE_OF.values()) <= ANCHORS


@pytest.mark.parametrize(
    ("outcome", "knocker", "defender", "rules"),
    [("knock", 5, 9, ["knock", "knock"]), ("knock", 8, 5, ["knock", "undercut"]),
     ("gin", 0, 12, ["knock", "gin"]), ("knock", 0, 12, ["gin", "knock", "gin"]),
     ("dead", 0, 0, ["dead-hand"])],
)
def test_quick_hands_cite_their_rules(
    outcome: str, knocker: int, defender: int, rules: list[str]
) -> None:
    result = score_quick_hand(PRESETS["russian"], outcome, knocker, defender)
    assert [step.rule for step in result.explanation] == rules


def test_a_hand_with_cards_and_a_game_end_cite_theirs() -> None:
    result = settle_gin_hand(PRESETS["russian"], "KS KH KD 5S 6S 7S 9C TC JC JD",
                             "8S 9S 7C 8C 2S 2H 2D 2C AC 8D")
    assert [step.rule for step in result.explanation] == [
        "melds", "layoffs", "layoffs", "melds", "melds", "undercut"]
    hands = [HandScore(Outcome.KNOCK, 0, points) for points in (20, 30, 25, 28)]
    game = play_gin_game(PRESETS["russian"], ["A", "B"], 0, hands)
    assert game.settlement is not None
    assert [step.rule for step in game.settlement.explanation] == [
        "target", "shutout", "shutout", "boxes", "game-bonus"]
    deal = settle_remi_deal(PRESETS["remi"], [
        RemiPlayerInput("A", (), "2H 3H 4H 5H KC KD KS", True, "AD"),
        RemiPlayerInput("C", ("7S 8S 9S",), "9D 9C 9H AS")])
    assert [step.rule for step in deal.explanation] == [
        "going-out", "sequences", "sets", "going-out", "remi-scoring",
        "sequences", "sets", "remi-scoring", "remi-scoring"]
