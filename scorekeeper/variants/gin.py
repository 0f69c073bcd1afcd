"""Two-player gin rummy (/rules/classic) and Oklahoma gin (/rules/oklahoma): one hand per row."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, TypeVar, cast

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField
from wtforms.validators import InputRequired

from ..charts.race import Race, race_of
from ..hands.bodies import CardHand, GinHandBody, QuickHand, check_gin_hand
from ..hands.entry import (
    QUICK_FIELDS,
    card_inputs,
    fill_cards,
    fill_quick,
    quick_inputs,
    seat_choices,
    show_problems,
)
from ..hands.fields import GinCardsForm, QuickHandForm
from ..hands.inputs import ScoredHand, score_hand
from ..hands.stored import (
    CardsGinHand,
    GinHand,
    StoredHand,
    StoredLayoff,
    cards_hand,
    dead_hand,
    gin_hand,
    quick_hand,
)
from ..jsonbody import (
    card_from_json,
    cards_from_json,
    cards_json,
    explanation_json,
    fail,
    index_from_json,
    problems_at,
)
from ..models import Game, GameData, new_token
from ..scoring import HandError, Rules
from ..scoring.game import Row, Settlement
from . import answers
from .base import Sheet, Variant, sheet_as
from .replay import GinSheet, game_rules, gin_hand_scored, gin_sheet

QUICK_BODY = ("outcome", "knocker", "knocker_deadwood", "defender_deadwood", "upcard")
# A hand entered with cards: its stored fields, where ``hand_inputs`` reads them.
CARD_BODY = {
    "knocker": ("knocker", "seat"),
    "knocker_cards": ("knocker", "cards"),
    "knocker_melds": ("knocker", "melds"),
    "defender_cards": ("defender", "cards"),
    "defender_melds": ("defender", "melds"),
    "layoffs": ("defender", "layoffs"),
}

OPTIONAL = ("melds", "layoffs")  # of a card body: left out, the engine finds the best
F = TypeVar("F", bound=FlaskForm)


class CardHandForm(GinCardsForm):
    """A hand entered card by card, with who knocked and the form's version and token."""

    knocker = RadioField(_l("Who knocked"), choices=[], validators=[InputRequired()])
    version = HiddenField()
    token = HiddenField()


def prepare(form: F, game: Game, labels: list[str] | None = None) -> F:
    """Fill a hand form's seat choices, version and token."""
    form.knocker.choices = seat_choices(labels or game.players)
    if getattr(form, "outcome", None) is not None and game_rules(game).big_gin_bonus is None:
        form.outcome.choices = [
            c for c in form.outcome.choices if getattr(c, "value", None) != "big_gin"
        ]
    if form.version.data in (None, ""):
        form.version.data = str(game.version)
    if not form.token.data:
        form.token.data = new_token()
    return form


class GinVariant(Variant):
    """Two-player gin: the classic sheet."""

    name: ClassVar[str] = "gin"
    label: ClassVar[Any] = _l("Gin rummy (two players)")
    short_label: ClassVar[Any] = _l("Gin rummy")
    sheet_template = "games/gin/sheet.html"
    quick_template = "games/gin/quick_fields.html"
    card_template = "games/gin/card_fields.html"
    hand_template = "games/gin/hand.html"
    pdf_template = "pdf/sheet.html"
    pad_template = "pdf/pad.html"
    hand_word = _l("Hand")
    hand_noun = _l("hand")
    card_intro = _l(
        "Type the cards in any notation (7H, 10♦, q♠) or tap them. Melds and layoffs are "
        "optional: left out, the app finds the best ones."
    )

    def rematch_setup(self, game: Game, sheet: Sheet) -> dict[str, Any]:
        """The loser of the game deals first."""
        winner = sheet_as(sheet, GinSheet).game.winner
        if winner is None:
            return dict(game.setup)
        return {"dealer": 1 - winner}

    def score_one(
        self, game: GameData, rules: Rules, number: int, inputs: Mapping[str, Any]
    ) -> ScoredHand:
        """A gin hand scored (every kind of gin keeps its hands so)."""
        return gin_hand_scored(rules, inputs)

    def sheet_from(self, game: GameData, rules: Rules, scored: Sequence[ScoredHand]) -> Sheet:
        """The gin sheet (``replay.gin_sheet``); subclasses play their own."""
        return gin_sheet(game, rules, scored)

    def scored_hands(self, sheet: Sheet) -> tuple[ScoredHand, ...]:
        """The sheet's hands, scored."""
        return sheet_as(sheet, GinSheet).hands

    def races(self, sheet: Sheet) -> tuple[Race, ...]:
        """Both totals after every counted hand; a hand's box marks who won it."""
        played = sheet_as(sheet, GinSheet)
        rows = [(r.number, r.totals, (r.box,)) for r in played.game.rows if not r.after_end]
        return (race_of(played.players, rows, target=played.rules.target),)

    def check(self, game: GameData, inputs: StoredHand) -> None:
        """Score the inputs once; the engine raises ``HandError`` when they are wrong."""
        score_hand(game_rules(game), gin_hand(inputs))

    def quick_form(self, game: Game, sheet: Sheet, number: int | None = None) -> QuickHandForm:
        """Outcome, who went out, two deadwood counts (and the upcard in Oklahoma)."""
        form: QuickHandForm = prepare(QuickHandForm(), game)
        return form

    def quick_inputs(self, form: FlaskForm, game: Game, sheet: Sheet) -> GinHand | None:
        """Stored inputs from the quick form, checked by the engine."""
        inputs = quick_inputs(form) if form.validate_on_submit() else None
        if inputs is None:
            return None
        try:
            self.check(game, inputs)
        except HandError as exc:
            show_problems(form, exc.problems, QUICK_FIELDS)
            return None
        return inputs

    def fill_quick(self, form: FlaskForm, inputs: StoredHand) -> None:
        """Prefill from a stored hand."""
        fill_quick(form, gin_hand(inputs))

    def card_form(self, game: Game, sheet: Sheet, number: int | None = None) -> CardHandForm:
        """Both hands' cards, optional melds and layoffs, who knocked."""
        form: CardHandForm = prepare(CardHandForm(), game)
        return form

    def card_inputs(self, form: FlaskForm, game: Game, sheet: Sheet) -> GinHand | None:
        """Stored inputs from the card form, checked and explained by the engine."""
        if not form.validate_on_submit():
            return None
        try:
            inputs = card_inputs(int(form.knocker.data), form.engine_kwargs())
            self.check(game, inputs)
        except HandError as exc:
            form.show_problems(exc)
            return None
        return inputs

    def fill_cards(self, form: FlaskForm, inputs: StoredHand) -> None:
        """Prefill from a stored hand (a quick hand starts with empty cards)."""
        fill_cards(form, gin_hand(inputs))

    def api_inputs(self, body: dict[str, Any], game: GameData) -> GinHand:
        """Quick totals or cards, as docs/api.md and the OpenAPI document describe: the
        body's shape read by its type (``hands.bodies``), then its cards and seat."""
        inputs = hand_inputs(check_gin_hand(body), len(game.players))
        try:
            self.check(game, inputs)
        except HandError as exc:
            raise problems_at(exc.problems) from None
        return inputs

    def stored_body(self, inputs: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        """A gin hand's API body (``hand_body``)."""
        return hand_body(inputs)

    def sheet_json(self, game: GameData, sheet: Sheet, *, hands: bool = True) -> answers.SheetJson:
        """Hands with their results, totals, boxes, needs, settlement."""
        replayed = sheet_as(sheet, GinSheet)
        played = replayed.game
        document: answers.GinGame = {
            "totals": list(played.totals),
            "boxes": list(played.boxes),
            "needs": list(played.needs),
            "next_dealer": played.next_dealer,
            "finished": played.finished,
            "winner": played.winner,
            "settlement": settlement_json(played.settlement),
        }
        if not hands:
            return document
        rows = [hand_json(i + 1, h, played.rows[i]) for i, h in enumerate(replayed.hands)]
        return {"hands": rows, **document}


class OklahomaVariant(GinVariant):
    """Oklahoma gin: the upcard sets each hand's knock limit; spades double."""

    name: ClassVar[str] = "oklahoma"
    label: ClassVar[Any] = _l("Oklahoma gin")
    short_label: ClassVar[Any] = _l("Oklahoma gin")
    presets: ClassVar[tuple[str, ...]] = ("oklahoma", "classic", "russian", "pagat", "modern")
    default_preset: ClassVar[str] = "oklahoma"

    def rules_for(self, rules: Rules) -> Rules:
        """Oklahoma is always on in an Oklahoma game."""
        return rules if rules.oklahoma else rules.replace(oklahoma=True)


def hand_json(number: int, scored: ScoredHand, row: Row) -> answers.GinHand:
    """One gin hand: its inputs and what the engine made of it."""
    return {
        "number": number,
        "inputs": dict(scored.inputs),
        "dealer": row.dealer,
        "outcome": row.hand.outcome.value,
        "winner": row.hand.winner,
        "points": row.hand.points,
        "doubled": row.hand.doubled,
        "box": row.box,
        "totals": list(row.totals),
        "after_end": row.after_end,
        "explanation": explanation_json(scored.result.explanation),
    }


def settlement_json(settlement: Settlement | None) -> answers.Settlement | None:
    """A game's final settlement (/rules/classic#game-bonus), or ``None`` while it goes on."""
    if settlement is None:
        return None
    return {
        "winner": settlement.winner,
        "shutout": settlement.shutout,
        "lines": [
            {"seat": line.seat, "amount": line.amount, "text": str(line.step)}
            for line in settlement.lines
        ],
        "finals": list(settlement.finals),
        "margin": settlement.margin,
        "explanation": explanation_json(settlement.explanation),
    }


def hand_inputs(body: GinHandBody, seats: int, where: str = "") -> GinHand:
    """The stored hand of a gin hand's body, its shape read (``hands.bodies``); refused
    (``ApiError``, paths prefixed with ``where``) where the shape cannot tell: a card that
    is none, a seat not at this table."""
    upcard = body.get("upcard")
    upcard_text = str(card_from_json(upcard, f"{where}upcard")) if upcard is not None else None
    if "defender" in body:
        return _card_inputs(cast(CardHand, body), seats, upcard_text, where)
    if body["outcome"] == "dead":
        return dead_hand(upcard_text)
    quick = cast(QuickHand, body)
    return quick_hand(
        quick["outcome"],
        index_from_json(quick["knocker"], f"{where}knocker", seats),
        quick.get("knocker_deadwood", 0),
        quick["defender_deadwood"],
        upcard_text,
    )


def hand_body(
    inputs: Mapping[str, Any], where: str = ""
) -> tuple[dict[str, Any], dict[str, str]]:
    """The API body ``hand_inputs`` reads into these stored inputs, and where the body's
    fields named otherwise are stored (``where`` prefixes both paths)."""
    mode = inputs.get("mode")
    # No upcard (nor, with cards, declared melds or layoffs) is stored as null and sent
    # by leaving the field out.
    if mode == "quick":
        return {key: inputs[key] for key in QUICK_BODY
                if key in inputs and not (key == "upcard" and inputs[key] is None)}, {}
    if mode != "cards":
        fail(f"{where}mode", "a hand is entered quick or with cards")
    body: dict[str, Any] = {"knocker": {}, "defender": {}}
    if inputs.get("upcard") is not None:
        body["upcard"] = inputs["upcard"]
    for stored, (part, key) in CARD_BODY.items():
        if not (key in OPTIONAL and inputs.get(stored) is None):
            body[part][key] = inputs.get(stored)
    fields = {f"{where}{part}.{key}": f"{where}{stored}"
              for stored, (part, key) in CARD_BODY.items()}
    return body, fields


def _card_inputs(
    body: CardHand, seats: int, upcard: str | None, where: str
) -> CardsGinHand:
    knocker, defender = body["knocker"], body["defender"]

    def melds(value: list[Any] | None, at: str) -> list[list[str]] | None:
        if value is None:
            return None
        return [cards_json(cards_from_json(m, f"{at}[{i}]")) for i, m in enumerate(value)]

    layoffs: list[StoredLayoff] | None = None
    if defender.get("layoffs") is not None:
        at = f"{where}defender.layoffs"
        layoffs = [
            {"card": str(card_from_json(item["card"], f"{at}[{i}].card")), "meld": item["meld"]}
            for i, item in enumerate(defender.get("layoffs") or [])
        ]
    return cards_hand(
        index_from_json(knocker["seat"], f"{where}knocker.seat", seats),
        cards_json(cards_from_json(knocker["cards"], f"{where}knocker.cards")),
        melds(knocker.get("melds"), f"{where}knocker.melds"),
        cards_json(cards_from_json(defender["cards"], f"{where}defender.cards")),
        melds(defender.get("melds"), f"{where}defender.melds"),
        layoffs,
        upcard,
    )
