"""What a ruling keeps, and how it is read back without scoring anything again.

A ruling stores the hands as a ``/gin/settle`` (or ``/remi/settle``) body in canonical
notation, the full settings, and the verdict: the result's values and each explanation
step as its template and values, so the step is worded again in any reader's language
but always says what it said the day it was made. The stamp of the scoring code is
kept with it.

>>> step = Step("Defender lays off {cards} on {meld}.", {"cards": [Card.parse("8S")],
...             "meld": Message("{first} and {second}", first="A", second="B")})
>>> str(step_from_json(step_json(step)))
'Defender lays off 8♠ on A and B.'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..hands.inputs import SettleArgs
from ..jsonbody import cards_json
from ..models import Game, Hand, Ruling
from ..scoring.cards import Card, parse_cards
from ..scoring.citations import outcome_rule
from ..scoring.explain import Message, Step, describe
from ..scoring.remi import RemiPlayerInput, RemiResult
from ..scoring.rules import Rules
from ..scoring.settle import HandResult
from ..security import is_token
from .night_access import keeps_score_of
from .scoring_stamp import SCORING_STAMP


@dataclass(frozen=True)
class KeptCards:
    """A group of cards read back from a ruling (a meld, a combination): shown like one."""

    cards: tuple[Card, ...]

    @property
    def symbols(self) -> str:
        """The cards by their symbols."""
        return " ".join(card.symbols for card in self.cards)


@dataclass(frozen=True)
class KeptGroups:
    """Several groups of cards as one value (melds in a sentence): cards kept together
    left to right in a Persian line, the groups apart."""

    groups: tuple[KeptCards, ...]

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card of every group."""
        return tuple(card for group in self.groups for card in group.cards)

    @property
    def symbols(self) -> str:
        """The groups by their symbols, a wider gap between them."""
        return " · ".join(group.symbols for group in self.groups)


def plain_step(step: Step) -> Step:
    """``step`` with its lists of melds as one value, for a sentence in plain text."""
    params = {
        key: KeptGroups(tuple(value))
        if isinstance(value, list) and value and all(isinstance(v, KeptCards) for v in value)
        else value
        for key, value in step.params.items()
    }
    return Step(step.template, params)


def _cards_of(value: Any) -> Sequence[Card] | None:
    if isinstance(value, Card):
        return None
    cards = getattr(value, "cards", value)
    if isinstance(cards, Sequence) and not isinstance(cards, str) and cards and all(
        isinstance(card, Card) for card in cards
    ):
        return cards
    return None


def value_json(value: Any) -> Any:
    """One step value as JSON: numbers and text as they are, cards by their codes, a
    nested message as a step."""
    if isinstance(value, bool | int):
        return value
    if isinstance(value, Message):
        return {"message": step_json(value.step)}
    if isinstance(value, str):
        return value
    if isinstance(value, Card):
        return {"card": str(value)}
    cards = _cards_of(value)
    if cards is not None:
        return {"cards": cards_json(cards)}
    if isinstance(value, Sequence) and value and all(_cards_of(v) is not None for v in value):
        return {"groups": [cards_json(_cards_of(v) or ()) for v in value]}
    return describe(value)


def value_from_json(value: Any) -> Any:
    """A stored step value, ready for ``Step.render`` (cards as cards again)."""
    if isinstance(value, dict):
        if "message" in value:
            step = step_from_json(value["message"])
            return Message(step.template, **step.params)
        if "card" in value:
            return Card.parse(value["card"])
        if "cards" in value:
            return KeptCards(tuple(Card.parse(code) for code in value["cards"]))
        if "groups" in value:
            return [KeptCards(tuple(Card.parse(c) for c in codes)) for codes in value["groups"]]
    return value


def step_json(step: Step) -> dict[str, Any]:
    """An explanation step as its English template and values."""
    return {"template": step.template,
            "params": {key: value_json(value) for key, value in step.params.items()}}


def step_from_json(data: Mapping[str, Any]) -> Step:
    """A stored step, to be worded in the reader's language."""
    params = {key: value_from_json(value) for key, value in data.get("params", {}).items()}
    return Step(str(data["template"]), params)


def gin_verdict(result: HandResult) -> dict[str, Any]:
    """What a settled gin hand said."""
    knocker, defender = result.knocker, result.defender
    return {
        "outcome": result.outcome.value,
        "winner": result.winner.value if result.winner is not None else None,
        "points": result.points,
        "knock_limit": result.knock_limit,
        "doubled": result.doubled,
        "knocker": {
            "melds": [cards_json(m.cards) for m in knocker.melds],
            "deadwood": cards_json(knocker.deadwood),
            "deadwood_points": knocker.deadwood_points,
            "discard": str(knocker.discard) if knocker.discard else None,
        },
        "defender": {
            "melds": [cards_json(m.cards) for m in defender.melds],
            "layoffs": [{"card": str(lo.card), "meld": lo.meld} for lo in defender.layoffs],
            "deadwood": cards_json(defender.deadwood),
            "deadwood_points": defender.deadwood_points,
        },
        "explanation": [step_json(step) for step in result.explanation],
    }


def remi_verdict(result: RemiResult) -> dict[str, Any]:
    """What a settled Remi deal said."""
    return {
        "players": [
            {
                "name": player.name,
                "combinations": [cards_json(c.cards) for c in player.combinations],
                "unmatched": cards_json(player.unmatched),
                "points": player.points,
                "plus": player.plus,
                "minus": player.minus,
                "closing_bonus": player.closing_bonus,
            }
            for player in result.players
        ],
        "explanation": [step_json(step) for step in result.explanation],
    }


def gin_hands(rules: Rules, inputs: SettleArgs) -> dict[str, Any]:
    """The hands as entered (``settle_gin_hand``'s keyword arguments, parsed), as a
    ``/gin/settle`` body in canonical notation."""

    def melds(value: list[list[Card]] | None) -> list[list[str]] | None:
        return None if value is None else [cards_json(m) for m in value]

    layoffs = inputs.get("layoffs")
    upcard = inputs.get("upcard")
    return {
        "rules": rules.to_dict(),
        "upcard": str(upcard) if upcard is not None else None,
        "knocker": {"cards": cards_json(inputs["knocker_cards"]),
                    "melds": melds(inputs.get("knocker_melds"))},
        "defender": {
            "cards": cards_json(inputs["defender_cards"]),
            "melds": melds(inputs.get("defender_melds")),
            "layoffs": None if layoffs is None
            else [{"card": str(lo.card), "meld": lo.meld} for lo in layoffs],
        },
    }


def keep_gin(rules: Rules, inputs: SettleArgs, result: HandResult) -> Ruling:
    """A new ruling of a settled gin hand (the caller adds and commits it)."""
    return Ruling(kind="gin", rules=rules.to_dict(), hands=gin_hands(rules, inputs),
                  verdict=gin_verdict(result), stamp=SCORING_STAMP)


def remi_hands(rules: Rules, players: Sequence[RemiPlayerInput]) -> dict[str, Any]:
    """A Remi deal as entered, as a ``/remi/settle`` body in canonical notation (call it
    once the engine has read every card)."""

    def codes(text: Any) -> list[str]:
        return cards_json(parse_cards(text))

    return {
        "kind": "remi",
        "rules": rules.to_dict(),
        "players": [
            {
                "name": player.name,
                "table": [codes(group) for group in player.table],
                "hand": codes(player.hand),
                "went_out": player.went_out,
                "final_discard": None if player.final_discard is None
                else codes([player.final_discard])[0],
            }
            for player in players
        ],
    }


def keep_remi(rules: Rules, players: Sequence[RemiPlayerInput], result: RemiResult) -> Ruling:
    """A new ruling of a settled Remi deal (the caller adds and commits it)."""
    return Ruling(kind="remi", rules=rules.to_dict(), hands=remi_hands(rules, players),
                  verdict=remi_verdict(result), stamp=SCORING_STAMP)


def rule_anchor(ruling: Ruling) -> str:
    """The rule a ruling turned on: its outcome's (``citations.outcome_rule``); a Remi
    deal's is the scoring of a deal."""
    if ruling.kind == "remi":
        return "remi-scoring"
    verdict = ruling.verdict
    return outcome_rule(verdict["outcome"], verdict["knocker"]["deadwood_points"],
                        verdict["defender"]["deadwood_points"])


# --- rulings about a game's hands ---------------------------------------------------------


@dataclass(frozen=True)
class HandAbout:
    """The game and hand (its number) a checker was opened from: what a ruling kept
    there is about."""

    game: Game
    hand: int


def hand_about(db: Session, game_id: Any, hand: Any) -> HandAbout | None:
    """The game ``game_id`` and its hand ``hand`` (text from a link or a form), if that
    game exists, has that hand and this browser may change the game (or runs its
    night); ``None`` otherwise: a ruling about nothing, which anyone may keep, where
    only the table's scorer or organiser attaches one to a game's hand."""
    if not is_token(game_id):
        return None
    text = str(hand or "")
    if not text.isascii() or not text.isdigit() or len(text) > 6:
        return None
    number = int(text)
    game = db.get(Game, game_id)
    if game is None or number < 1 or not keeps_score_of(game):
        return None
    hands = db.scalar(select(func.count()).select_from(Hand).where(Hand.game_id == game.id))
    return HandAbout(game, number) if number <= (hands or 0) else None


def about(ruling: Ruling, found: HandAbout | None) -> Ruling:
    """``ruling``, recorded as kept about ``found``'s game and hand (if any)."""
    if found is not None:
        ruling.game_id, ruling.hand = found.game.id, found.hand
    return ruling


def kept_about(db: Session, game_ids: Iterable[str | None]) -> dict[str, list[Ruling]]:
    """The rulings kept about each of these games' hands, by game, oldest first (one
    query, whatever the number of games)."""
    ids = sorted({gid for gid in game_ids if gid})
    if not ids:
        return {}
    found: dict[str, list[Ruling]] = {}
    rows = db.scalars(
        select(Ruling).where(Ruling.game_id.in_(ids)).order_by(Ruling.created_at, Ruling.id)
    )
    for ruling in rows:
        found.setdefault(str(ruling.game_id), []).append(ruling)
    return found
