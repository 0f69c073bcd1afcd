"""Forms of partnership gin: one deal is two tables, each an ordinary gin hand.

Each table is a sub-form (``FormField``) of the deal's form, so its fields are named
``a-outcome``, ``b-knocker_cards`` … and the gin helpers (``handentry``) work on it
unchanged. Only the deal's form carries the CSRF token, version and idempotency token.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import FormField, RadioField
from wtforms.validators import InputRequired

from ..handforms import GinCardsForm, HandMeta, QuickHandForm

DEAD = "dead"


class TableQuickForm(QuickHandForm):
    """One table's hand in quick mode (``knocker`` = 0 or 1: who of the pair went out)."""

    class Meta:
        csrf = False


class TableCardsForm(GinCardsForm):
    """One table's hand card by card; "who knocked" may also say the hand was dead."""

    knocker = RadioField(_l("Who knocked"), choices=[], validators=[InputRequired()])

    class Meta:
        csrf = False

    @property
    def dead(self) -> bool:
        """Whether this table's hand was dead (no cards needed)."""
        return bool(self.knocker.data == DEAD)


class DealQuickForm(HandMeta):
    """A deal in quick mode: both tables on one page."""

    a = FormField(TableQuickForm)
    b = FormField(TableQuickForm)

    def tables(self) -> list[Any]:
        """The two tables' sub-forms, seat 0's table first."""
        return [self.a.form, self.b.form]


class DealCardsForm(HandMeta):
    """A deal card by card: both tables on one page."""

    a = FormField(TableCardsForm)
    b = FormField(TableCardsForm)

    def tables(self) -> list[Any]:
        """The two tables' sub-forms, seat 0's table first."""
        return [self.a.form, self.b.form]
