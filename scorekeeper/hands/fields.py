"""Form pieces for entering a hand, shared by the checkers and every kind of game.

They sit below the variants and the pages: the card fields (gin and Remi), the gin
card form, and ``HandMeta``/``QuickHandForm``, what every game's hand form builds on.

Each field keeps exactly what the player typed (``field.data`` is the text) and shows a
parse error next to itself; the parsed value is ``field.cards`` / ``.melds`` /
``.layoffs`` / ``.card`` after validation. ``GinCardsForm.engine_kwargs()`` turns a
valid form into ``settle_gin_hand`` keyword arguments, and ``show_problems`` puts the
engine's complaints back at the fields they are about.

Layoffs are typed ``8S>2 9S>2`` or ``8♠ on 2``: the card, then the number of the
knocker's meld as numbered on the page (1 = their first declared meld).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from flask import Flask
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from markupsafe import Markup, escape
from wtforms import (
    Field,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
    StringField,
    TextAreaField,
)
from wtforms.validators import InputRequired, NumberRange, Optional, StopValidation

from ..forms import TypedNumber
from ..i18n import render_message, translate, written
from ..models import new_token
from ..names import isolated
from ..scoring.cards import DECK, Card, CardError, parse_cards
from ..scoring.errors import HandError
from ..scoring.explain import Step, describe, step_of
from ..scoring.layoffs import Layoff
from .inputs import SettleArgs

MAX_TEXT = 300  # ten cards in the longest notation and some separators fit easily

_MELD_SEPARATORS = re.compile(r"[\n;|]+")
_LIST_SEPARATORS = re.compile(r"[\s,;]+")
# "8S>2", "8♠ > 2", "8S -> 2", "8♠ on 2", "8S→2": a card, an arrow or "on", a number.
_ARROW = re.compile(r"\s*(?:->|=>|>|→|\bonto\b|\bon\b)\s*", re.IGNORECASE)
# Remi: who went out is a seat, or nobody when the stock ran out; combinations are
# separated like melds.
STOCK_RAN_OUT = "none"
_GROUP_SEPARATORS = re.compile(r"[\n;|]+")


class WholeNumberField(TypedNumber, IntegerField):
    """A whole number, as ``IntegerField``, typed in any script's digits
    (``forms.TypedNumber``), that survives any length of digits.

    WTForms' ``NumberRange`` checks a value with ``math.isnan``, which turns it into a
    float: a 400-digit number typed into a score field raised ``OverflowError`` (a 500
    page instead of "must be between 0 and 200"). A number that long can only ever be
    out of range, so it is kept as the largest value a float holds exactly; every form
    gives these fields a ``NumberRange``, which then refuses it at the field."""

    BEYOND = 2**53
    data: int | None

    def process_formdata(self, valuelist: list[Any]) -> None:
        """Parse as ``IntegerField`` does, then bring a huge value down to ``BEYOND``."""
        super().process_formdata(valuelist)
        if isinstance(self.data, int) and abs(self.data) > self.BEYOND:
            self.data = self.BEYOND if self.data > 0 else -self.BEYOND


def _choices(pairs: list[tuple[str, Any]]) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in pairs]


def _card_problems(exc: CardError) -> list[str]:
    return [render_message(problem) for problem in exc.problems]


class _TextField(TextAreaField):
    """A textarea whose ``data`` is always the typed text (never ``None``)."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        self.data = str(valuelist[0]) if valuelist else ""

    def _value(self) -> str:
        return self.data or ""

    def pre_validate(self, form: Any) -> None:
        if len(self.data or "") > MAX_TEXT:
            raise StopValidation(_("That is too long for one hand's cards."))


class CardsField(_TextField):
    """Cards in any notation ``scoring.Card.parse`` reads: ``7H 8H 9H``, ``10♦, q♠``.
    Parsed into ``cards``."""

    def __init__(self, label: Any = None, validators: Any = None, **kwargs: Any) -> None:
        super().__init__(label, validators, **kwargs)
        self.cards: list[Card] = []

    def pre_validate(self, form: Any) -> None:
        super().pre_validate(form)
        self.cards = []
        text = (self.data or "").strip()
        if not text:
            return
        try:
            self.cards = parse_cards(text)
        except CardError as exc:
            self.errors.extend(_card_problems(exc))


class MeldsField(_TextField):
    """Optional melds: one a line, or separated by ``;`` or ``|``. Parsed into ``melds``."""

    def __init__(self, label: Any = None, validators: Any = None, **kwargs: Any) -> None:
        super().__init__(label, validators, **kwargs)
        self.melds: list[list[Card]] | None = None

    def pre_validate(self, form: Any) -> None:
        super().pre_validate(form)
        self.melds = None
        pieces = [p.strip() for p in _MELD_SEPARATORS.split(self.data or "") if p.strip()]
        if not pieces:
            return
        melds: list[list[Card]] = []
        for number, piece in enumerate(pieces, start=1):
            try:
                melds.append(parse_cards(piece))
            except CardError as exc:
                self.errors.extend(
                    _("Meld %(number)d: %(problem)s", number=number,
                      problem=render_message(problem))
                    for problem in exc.problems
                )
        if not self.errors:
            self.melds = melds


class LayoffsField(_TextField):
    """Optional layoffs ``8S>2 9S>2`` (1-based meld numbers). Parsed into ``layoffs``."""

    def __init__(self, label: Any = None, validators: Any = None, **kwargs: Any) -> None:
        super().__init__(label, validators, **kwargs)
        self.layoffs: list[Layoff] | None = None

    def pre_validate(self, form: Any) -> None:
        super().pre_validate(form)
        self.layoffs = None
        text = _ARROW.sub(">", (self.data or "").strip())
        layoffs: list[Layoff] = []
        for token in _LIST_SEPARATORS.split(text):
            if not token:
                continue
            card_text, arrow, number_text = token.partition(">")
            layoff = self._one(card_text, number_text) if arrow and card_text else None
            if layoff is not None:
                layoffs.append(layoff)
            elif not (arrow and card_text):
                self.errors.append(
                    _("%(text)s: write a layoff as the card and the meld number, like 8S>2",
                      text=token)
                )
        if not self.errors and layoffs:
            self.layoffs = layoffs

    def _one(self, card_text: str, number_text: str) -> Layoff | None:
        card_text = card_text.strip(",;")
        number_text = number_text.strip(",;")
        try:
            card = Card.parse(card_text)
        except CardError as exc:
            self.errors.extend(_card_problems(exc))
            return None
        if not number_text.isdigit() or int(number_text) < 1:
            self.errors.append(
                _("%(card)s: the meld number must be 1 or more, not %(number)s",
                  card=card.symbols, number=number_text)
            )
            return None
        return Layoff(card, int(number_text) - 1)


class OneCardField(StringField):
    """Optional single card. Parsed into ``card``; ``one_card`` says what it must be."""

    one_card: Any = _l("The upcard is one card.")

    def __init__(self, label: Any = None, validators: Any = None, **kwargs: Any) -> None:
        super().__init__(label, validators, **kwargs)
        self.card: Card | None = None

    def pre_validate(self, form: Any) -> None:
        self.card = None
        text = (self.data or "").strip()
        if not text:
            return
        if len(text) > 20:
            raise StopValidation(str(self.one_card))
        try:
            cards = parse_cards(text)
        except CardError as exc:
            self.errors.extend(_card_problems(exc))
            return
        if len(cards) != 1:
            self.errors.append(str(self.one_card))
            return
        self.card = cards[0]


class UpcardField(OneCardField):
    """Optional upcard (Oklahoma gin)."""


def _required(message: Any) -> list[Any]:
    return [InputRequired(message=message)]


class GinCardsForm(FlaskForm):
    """Both hands of a gin hand, optional declared melds and layoffs, and the upcard.

    Subclasses add their own fields (knocker seat, version, token); every engine
    problem whose ``where`` is not in ``PROBLEM_FIELDS`` goes to ``form_errors``.
    """

    knocker_cards = CardsField(
        _l("Knocker's cards"), _required(_l("Enter the knocker's cards."))
    )
    knocker_melds = MeldsField(_l("Knocker's melds (optional)"))
    defender_cards = CardsField(
        _l("Defender's cards"), _required(_l("Enter the defender's cards."))
    )
    defender_melds = MeldsField(_l("Defender's melds (optional)"))
    layoffs = LayoffsField(_l("Layoffs (optional)"))
    upcard = UpcardField(_l("Upcard (optional)"))

    # Engine ``Problem.where`` -> the field showing it.
    PROBLEM_FIELDS: ClassVar[Mapping[str, str]] = {
        "knocker.cards": "knocker_cards",
        "knocker.melds": "knocker_melds",
        "knocker": "knocker_cards",
        "defender.cards": "defender_cards",
        "defender.melds": "defender_melds",
        "defender.layoffs": "layoffs",
        "defender": "defender_cards",
        "upcard": "upcard",
    }

    def engine_kwargs(self) -> SettleArgs:
        """Keyword arguments for ``settle_gin_hand`` (all but ``rules``) of a valid form."""
        return {
            "knocker_cards": self.knocker_cards.cards,
            "defender_cards": self.defender_cards.cards,
            "knocker_melds": self.knocker_melds.melds,
            "defender_melds": self.defender_melds.melds,
            "layoffs": self.layoffs.layoffs,
            "upcard": self.upcard.card,
        }

    def show_problems(self, error: HandError) -> None:
        """Attach every problem of ``error`` to its field (unknown places: ``form_errors``)."""
        for problem in error.problems:
            self.add_problem(str(problem.where), render_message(problem.message))

    def add_problem(self, where: str, message: str) -> None:
        """Show one (where, message) problem at the field it is about."""
        name = self.PROBLEM_FIELDS.get(_base_where(where))
        field: Field | None = self._fields.get(name) if name else None
        if field is None:
            self.form_errors.append(message)
            return
        if not isinstance(field.errors, list):  # a field that was never validated
            field.errors = list(field.errors)
        if message not in field.errors:
            field.errors.append(message)


def _base_where(where: str) -> str:
    """``defender.layoffs[1]`` / ``knocker.melds.0`` -> ``defender.layoffs`` / ``knocker.melds``."""
    base = where.split("[", 1)[0]
    parts = base.split(".")
    while parts and parts[-1].isdigit():
        parts.pop()
    return ".".join(parts)


# --- showing explanations -------------------------------------------------------------------


def _card_html(card: Card) -> Markup:
    red = " red" if card.suit.red else ""
    return Markup('<span class="card{}">{}</span>').format(red, card.symbols)


def show_html(value: Any) -> Markup:
    """A step parameter as HTML: cards as card chips, melds as groups of chips, a name
    (any other text) isolated (U+2068…U+2069), as on pages and in prints alike."""
    if isinstance(value, Card):
        return _card_html(value)
    cards = _cards_of(value)
    if cards is not None:
        return Markup('<span class="cards">{}</span>').format(
            Markup("").join(_card_html(c) for c in cards)
        )
    if isinstance(value, list | tuple) and value:
        shown = [show_html(v) for v in value]
        if all(_cards_of(v) is not None for v in value):  # melds
            return Markup(" ").join(Markup('<span class="meld">{}</span>').format(s) for s in shown)
        return Markup(" ").join(shown)
    if isinstance(value, str) and step_of(value) is None:
        return escape(isolated(value))  # a name: its direction stays its own
    return escape(describe(value))


def _cards_of(value: Any) -> Sequence[Card] | None:
    """The cards of a meld (anything with ``.cards``), ``None`` for anything else."""
    cards = getattr(value, "cards", None)
    if isinstance(cards, Sequence) and cards and all(isinstance(c, Card) for c in cards):
        return cards
    return None


def explain(step: Step, translate_: Callable[[str], str] = translate) -> Markup:
    """One explanation step as safe HTML in the page's language, cards as card chips;
    in a right-to-left language its arithmetic reads left to right (``i18n.written``)."""
    return written(step, show_html, translate_)


def picker_rows() -> list[tuple[Card, ...]]:
    """The 52 cards of the tap picker, one row per suit (♠♥♦♣), ace to king."""
    return [DECK[start : start + 13] for start in range(0, 52, 13)]


class HandMeta(FlaskForm):
    """What every hand form carries: the sheet version it was drawn from and its token."""

    version = HiddenField()
    token = HiddenField()

    def fresh(self) -> None:
        """Give a newly drawn form its own idempotency token."""
        if not self.token.data:
            self.token.data = new_token()


class QuickHandForm(HandMeta):
    """A hand in a few taps: outcome, who went out, two numbers."""

    outcome = RadioField(
        _l("Outcome"),
        choices=_choices(
            [
                ("knock", _l("Knock")),
                ("gin", _l("Gin")),
                ("big_gin", _l("Big gin")),
                ("dead", _l("Dead hand")),
            ]
        ),
        default="knock",
        validators=[InputRequired()],
    )
    knocker = RadioField(_l("Who went out"), choices=[], validators=[Optional()])
    knocker_deadwood = WholeNumberField(
        _l("Knocker's deadwood"), validators=[Optional(), NumberRange(0, 200)]
    )
    defender_deadwood = WholeNumberField(
        _l("Defender's deadwood after layoffs"), validators=[Optional(), NumberRange(0, 200)]
    )
    upcard = UpcardField(_l("Upcard"))


class CombinationsField(TextAreaField):
    """Combinations put down, one a line (or separated by ``;``). Parsed into ``groups``."""

    def __init__(self, label: Any = None, validators: Any = None, **kwargs: Any) -> None:
        super().__init__(label, validators, **kwargs)
        self.groups: list[list[Card]] = []

    def process_formdata(self, valuelist: list[Any]) -> None:
        self.data = str(valuelist[0]) if valuelist else ""

    def pre_validate(self, form: Any) -> None:
        self.groups = []
        text = self.data or ""
        if len(text) > MAX_TEXT:
            raise StopValidation(_("That is too long for one player's cards."))
        pieces = [piece.strip() for piece in _GROUP_SEPARATORS.split(text) if piece.strip()]
        for number, piece in enumerate(pieces, start=1):
            try:
                self.groups.append(parse_cards(piece))
            except CardError as exc:
                self.errors.extend(
                    _("Combination %(number)d: %(problem)s", number=number,
                      problem=render_message(problem))
                    for problem in exc.problems
                )


class DiscardField(OneCardField):
    """The one card the player who went out discarded. Parsed into ``card``."""

    one_card = _l("The final discard is one card.")


def card_text(code: str) -> Markup:
    """A stored card code (``TD``) shown as a card chip."""
    return show_html(Card.parse(code))


def init_app(app: Flask) -> None:
    """The template globals of the hand partials, shared by the game pages, the dispute
    settlers and the rulings: ``explain(step)``, ``picker_rows()``, ``card_text(code)``."""
    app.add_template_global(explain, "explain")
    app.add_template_global(picker_rows, "picker_rows")
    app.add_template_global(card_text, "card_text")
