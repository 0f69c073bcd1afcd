"""Forms of partnership gin: one deal is two tables, each an ordinary gin hand.

Each table is a sub-form (``FormField``) of the deal's form, so its fields are named
``a-outcome``, ``b-knocker_cards`` … and the gin helpers (``hands.entry``) work on it
unchanged. Only the deal's form carries the CSRF token, version and idempotency token.

On the card page each table may be entered either way: a table whose cards are left
empty is read from its quick fields (outcome and the two deadwood counts), so one
table can be checked card by card while the other is typed in a few taps.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import FormField, RadioField, SelectChoice
from wtforms.validators import NumberRange, Optional

from ..hands.fields import GinCardsForm, HandMeta, QuickHandForm, WholeNumberField

DEAD = "dead"


class TableQuickForm(QuickHandForm):
    """One table's hand in quick mode (``knocker`` = 0 or 1: who of the pair went out)."""

    class Meta:
        csrf = False


class TableCardsForm(GinCardsForm):
    """One table's hand card by card; "who knocked" may also say the hand was dead. With
    its cards left empty, the table is read from its quick fields instead."""

    knocker = RadioField(_l("Who knocked"), choices=[], validators=[Optional()])
    outcome = RadioField(
        _l("Outcome"),
        choices=[
            SelectChoice("knock", _l("Knock")),
            SelectChoice("gin", _l("Gin")),
            SelectChoice("big_gin", _l("Big gin")),
        ],
        default="knock",
        validators=[Optional()],
    )
    knocker_deadwood = WholeNumberField(
        _l("Knocker's deadwood"), validators=[Optional(), NumberRange(0, 200)]
    )
    defender_deadwood = WholeNumberField(
        _l("Defender's deadwood after layoffs"), validators=[Optional(), NumberRange(0, 200)]
    )

    CARD_FIELDS = ("knocker_cards", "knocker_melds", "defender_cards", "defender_melds", "layoffs")
    QUICK_ONLY = ("outcome", "knocker_deadwood", "defender_deadwood")

    class Meta:
        csrf = False

    @property
    def dead(self) -> bool:
        """Whether this table's hand was dead (no cards needed)."""
        return bool(self.knocker.data == DEAD)

    @property
    def quick(self) -> bool:
        """Whether this table is entered without cards: neither hand's cards typed."""
        typed = (self.knocker_cards.data, self.defender_cards.data)
        return not self.dead and not any((text or "").strip() for text in typed)


class DealQuickForm(HandMeta):
    """A deal in quick mode: both tables on one page."""

    a = FormField(TableQuickForm)
    b = FormField(TableQuickForm)

    def tables(self) -> list[Any]:
        """The two tables' sub-forms, seat 0's table first."""
        return [self.a.form, self.b.form]

    @property
    def part_names(self) -> list[str]:
        """Whose each sub-form is, as a refused form's summary names them."""
        return [_("Table 1"), _("Table 2")]


class DealCardsForm(HandMeta):
    """A deal card by card: both tables on one page."""

    a = FormField(TableCardsForm)
    b = FormField(TableCardsForm)

    def tables(self) -> list[Any]:
        """The two tables' sub-forms, seat 0's table first."""
        return [self.a.form, self.b.form]

    @property
    def part_names(self) -> list[str]:
        """Whose each sub-form is, as a refused form's summary names them."""
        return [_("Table 1"), _("Table 2")]
