"""The Remi deal checker's form: the rules, up to four players' cards, and who went out.

Every field keeps exactly what was typed. A player block left blank is not in the
deal; a typed block without a name is called "Player N". The engine's problems
(``players.1.hand``...) are shown at the field of the block they are about.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    FieldList,
    Form,
    FormField,
    RadioField,
    SelectChoice,
    StringField,
)
from wtforms.validators import Length

from ..hands.fields import STOCK_RAN_OUT, CardsField, CombinationsField, DiscardField
from ..i18n import render_message
from ..scoring import Rules, rules_from_spec
from ..scoring.remi import RemiError, RemiPlayerInput, RemiResult, settle_remi_deal

SEATS = 4
MAX_NAME = 40


class PlayerForm(Form):
    """One player's block: name, combinations on the table, cards still in hand."""

    player_name = StringField(_l("Name"), [Length(max=MAX_NAME)])
    table = CombinationsField(_l("Combinations on the table"))
    hand = CardsField(_l("Cards in hand"))

    def is_blank(self) -> bool:
        """Nothing typed: the seat is empty."""
        return not any((f.data or "").strip() for f in (self.player_name, self.table, self.hand))


class RemiCheckForm(FlaskForm):
    """Rules, 2–4 players' cards and who went out, to settle one Remi deal."""

    rules = RadioField(
        _l("Rules"),
        choices=[
            SelectChoice("strict", _l("Sequence first: sets count only with a sequence")),
            SelectChoice("lenient", _l("Sets always count")),
        ],
        default="strict",
    )
    players = FieldList(FormField(PlayerForm), min_entries=SEATS, max_entries=SEATS)
    went_out = RadioField(_l("Who went out?"), default=STOCK_RAN_OUT)
    final_discard = DiscardField(_l("Final discard (of the player who went out)"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.went_out.choices = [
            SelectChoice(str(seat), self.player_name(seat)) for seat in range(SEATS)
        ] + [SelectChoice(STOCK_RAN_OUT, _("Nobody: the stock ran out"))]

    def player(self, seat: int) -> PlayerForm:
        """The block of ``seat`` (0-based)."""
        block: PlayerForm = self.players[seat].form
        return block

    def player_name(self, seat: int) -> str:
        """The typed name, or "Player N"."""
        typed = (self.player(seat).player_name.data or "").strip()
        return typed or _("Player %(number)d", number=seat + 1)

    def seats(self) -> list[int]:
        """The blocks in the deal: those with something typed, and whoever went out."""
        return [
            seat
            for seat in range(SEATS)
            if not self.player(seat).is_blank() or self.went_out.data == str(seat)
        ]

    def deal_rules(self) -> Rules:
        """The chosen rules: Remi's, sets counting only with a sequence or always."""
        strict = self.rules.data != "lenient"
        return rules_from_spec({"preset": "remi", "sets_need_sequence": strict})

    def deal(self) -> list[RemiPlayerInput]:
        """The players in the deal, as the engine takes them."""
        return [self._input(seat) for seat in self.seats()]

    def settle(self) -> RemiResult | None:
        """Score the deal of a valid form; ``None`` with the problems shown at their fields."""
        seats = self.seats()
        if len(seats) < 2:
            self.form_errors.append(_("Enter the cards of at least two players."))
            return None
        if self.went_out.data == STOCK_RAN_OUT and self.final_discard.card is not None:
            self._add(self.final_discard, _("Only the player who went out has a final discard."))
            return None
        try:
            return settle_remi_deal(self.deal_rules(), self.deal())
        except RemiError as exc:
            for where, message in exc.problems:
                self._show(seats, where, render_message(message))
            return None

    def problems(self) -> list[tuple[str | None, str]]:
        """Every error on the form as (field id, message), in page order, for the summary."""
        found: list[tuple[str | None, str]] = [(None, str(e)) for e in self.form_errors]
        token = self._fields.get("csrf_token")
        found += [(None, str(e)) for e in (token.errors if token is not None else ())]
        found += [(f"{self.rules.id}-0", str(e)) for e in self.rules.errors]
        for seat in range(SEATS):
            block = self.player(seat)
            for f in (block.player_name, block.table, block.hand):
                found += [(f.id, f"{self.player_name(seat)}: {e}") for e in f.errors]
        found += [(f"{self.went_out.id}-0", str(e)) for e in self.went_out.errors]
        found += [(self.final_discard.id, str(e)) for e in self.final_discard.errors]
        return found

    def _input(self, seat: int) -> RemiPlayerInput:
        block = self.player(seat)
        out = self.went_out.data == str(seat)
        return RemiPlayerInput(
            name=self.player_name(seat),
            table=block.table.groups,
            hand=block.hand.cards,
            went_out=out,
            final_discard=self.final_discard.card if out else None,
        )

    def _show(self, seats: list[int], where: str, message: str) -> None:
        """Put an engine problem (``players.1.table.0``) at the field it is about."""
        parts = where.split(".")
        if len(parts) < 2 or parts[0] != "players" or not parts[1].isdigit():
            self.form_errors.append(message)
            return
        block = self.player(seats[int(parts[1])])
        fields = {
            "name": block.player_name,
            "table": block.table,
            "hand": block.hand,
            "final_discard": self.final_discard,
        }
        self._add(fields.get(parts[2] if len(parts) > 2 else "hand", block.hand), message)

    @staticmethod
    def _add(field: Any, message: str) -> None:
        errors = list(field.errors)
        if message not in errors:
            errors.append(message)
        field.errors = errors
