"""The forms of a Remi game's deal: quick (each player's plus and minus) and with cards.

Both carry four player blocks; the page shows as many as the game has players. The
card form reuses the Remi checker's fields (``hands.fields``): combinations one a
line, cards in hand, the final discard. Every field keeps what was typed; the engine's
problems (``players.1.table.0``) are put back at the field of the player they are about.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import FieldList, Form, FormField, RadioField, SelectChoice
from wtforms.validators import NumberRange, Optional

from ..hands.fields import (
    STOCK_RAN_OUT,
    CardsField,
    CombinationsField,
    DiscardField,
    HandMeta,
    WholeNumberField,
)
from ..hands.stored import RemiCardDeal, RemiDeal, RemiQuickDeal, remi_card_deal, remi_quick_deal
from ..i18n import render_message

SEATS = 4
POINTS_MAX = 1000


class QuickPlayerForm(Form):
    """One player's typed totals: the value of their combinations and of their other cards."""

    plus = WholeNumberField(_l("Plus"), [Optional(), NumberRange(0, POINTS_MAX)])
    minus = WholeNumberField(_l("Minus"), [Optional(), NumberRange(0, POINTS_MAX)])


class CardPlayerForm(Form):
    """One player's cards: combinations on the table and the cards still in their hand."""

    table = CombinationsField(_l("Combinations on the table"))
    hand = CardsField(_l("Cards in hand"))


def _add(field: Any, message: str) -> None:
    errors = list(field.errors)
    if message not in errors:
        errors.append(message)
    field.errors = errors


class _DealForm(HandMeta):
    """What both deal forms share: the player blocks and who went out."""

    players: Any
    went_out: RadioField

    def setup(self, names: Sequence[str]) -> None:
        """Name the blocks and choices after the game's players."""
        self.names = list(names)
        self.went_out.choices = [
            SelectChoice(str(seat), name) for seat, name in enumerate(self.names)
        ] + [SelectChoice(STOCK_RAN_OUT, _("Nobody: the stock ran out"))]
        self.fresh()

    def block(self, seat: int) -> Any:
        """The fields of ``seat``."""
        return self.players[seat].form

    def seats(self) -> range:
        """The seats of the game."""
        return range(len(self.names))

    def out_seat(self) -> int | None:
        """The seat who went out, ``None`` when the stock ran out (or nothing is chosen)."""
        value = self.went_out.data
        return (
            int(value) if value not in (None, "", STOCK_RAN_OUT) and str(value).isdigit() else None
        )

    def chose_went_out(self) -> bool:
        """Whether a valid choice was made (marks the radio otherwise)."""
        if self.went_out.data in (None, "", "None"):
            self.went_out.errors = [_("Choose who went out, or that the stock ran out.")]
            return False
        return True

    def show(self, problems: Iterable[tuple[str, str]], discard: Any) -> None:
        """Put engine problems (``players.1.hand``) at their fields; others at the form."""
        form_errors = list(getattr(self, "form_errors", []))
        for where, message in problems:
            field = self._field_at(where, discard)
            if field is None:
                form_errors.append(render_message(message))
            else:
                _add(field, render_message(message))
        self.form_errors = form_errors

    def _field_at(self, where: str, discard: Any) -> Any:
        parts = where.split(".")
        if parts[0] in ("discard_value", "final_discard"):
            return discard
        if len(parts) < 2 or parts[0] != "players" or not parts[1].isdigit():
            return None
        seat = int(parts[1])
        if seat not in self.seats():
            return None
        key = parts[2] if len(parts) > 2 else ""
        if key in ("final_discard", "discard_value"):
            return discard
        return self._player_field(self.block(seat), key)

    def _player_field(self, block: Any, key: str) -> Any:
        raise NotImplementedError


class RemiQuickForm(_DealForm):
    """A deal in a few taps: each player's plus and minus, who went out, their discard."""

    players = FieldList(FormField(QuickPlayerForm), min_entries=SEATS, max_entries=SEATS)
    went_out = RadioField(_l("Who went out?"), choices=[], validators=[Optional()])
    discard_value = RadioField(
        _l("Final discard (of the player who went out)"),
        choices=[
            SelectChoice("5", _l("2 to 10: +50")),
            SelectChoice("10", _l("J, Q or K: +100")),
            SelectChoice("15", _l("Ace: +150")),
        ],
        validators=[Optional()],
    )

    def setup(self, names: Sequence[str]) -> None:
        """Label each player's two numbers with their name."""
        super().setup(names)
        for seat, name in enumerate(self.names):
            block = self.block(seat)
            block.plus.label.text = _("%(name)s: plus", name=name)
            block.minus.label.text = _("%(name)s: minus", name=name)

    def read(self) -> RemiQuickDeal | None:
        """Stored inputs of a validated form, or ``None`` with what is wrong marked.

        A blank plus or minus is 0 (the player who went out has no minus); only a form
        left blank for every player is refused, with one message.
        """
        ok = self.chose_went_out()
        out = self.out_seat()
        fields = [(self.block(s).plus, self.block(s).minus) for s in self.seats()]
        if any(field.errors for pair in fields for field in pair):
            ok = False
        elif all(field.data is None for pair in fields for field in pair):
            first = fields[0][0] if fields else None
            if first is not None:
                first.errors = [_("Enter the players' plus and minus (a blank is 0).")]
            ok = False
        # Ignored when nobody went out: a radio once tapped cannot be cleared.
        choice = self.discard_value.data
        value = int(choice) if choice in ("5", "10", "15") else None
        if out is not None and value is None:
            self.discard_value.errors = [_("Choose what the final discard was.")]
            ok = False
        if not ok:
            return None
        return remi_quick_deal(out, [
            {
                "plus": plus.data or 0,
                "minus": minus.data or 0,
                "discard_value": value if seat == out else None,
            }
            for seat, (plus, minus) in enumerate(fields)
        ])

    def fill(self, inputs: RemiDeal) -> None:
        """Prefill from stored inputs (a deal entered with cards: who went out only)."""
        out = inputs.get("went_out")
        self.went_out.data = STOCK_RAN_OUT if out is None else str(out)
        if inputs.get("mode") != "quick":
            return
        for seat, player in enumerate(cast(RemiQuickDeal, inputs).get("players") or []):
            if seat < SEATS:
                self.block(seat).plus.data = player.get("plus")
                self.block(seat).minus.data = player.get("minus")
                if player.get("discard_value") is not None:
                    self.discard_value.data = str(player["discard_value"])

    def _player_field(self, block: Any, key: str) -> Any:
        return block.minus if key == "minus" else block.plus


class RemiCardForm(_DealForm):
    """A deal card by card: each player's table and hand, who went out, their discard."""

    players = FieldList(FormField(CardPlayerForm), min_entries=SEATS, max_entries=SEATS)
    went_out = RadioField(_l("Who went out?"), choices=[], validators=[Optional()])
    final_discard = DiscardField(_l("Final discard (of the player who went out)"))

    @property
    def part_names(self) -> list[str]:
        """Whose each player block is, as a refused form's summary names them."""
        return self.names

    def read(self) -> RemiCardDeal | None:
        """Stored inputs of a validated form (cards canonical), or ``None``."""
        if not self.chose_went_out():
            return None
        out = self.out_seat()
        card = self.final_discard.card
        if out is None and card is not None:
            _add(self.final_discard, _("Only the player who went out has a final discard."))
            return None
        return remi_card_deal(out, [
            {
                "table": [[str(c) for c in group] for group in self.block(seat).table.groups],
                "hand": [str(c) for c in self.block(seat).hand.cards],
                "final_discard": str(card) if seat == out and card is not None else None,
            }
            for seat in self.seats()
        ])

    def fill(self, inputs: RemiDeal) -> None:
        """Prefill from stored inputs (a quick deal: who went out only)."""
        out = inputs.get("went_out")
        self.went_out.data = STOCK_RAN_OUT if out is None else str(out)
        if inputs.get("mode") != "cards":
            return
        for seat, player in enumerate(cast(RemiCardDeal, inputs).get("players") or []):
            if seat < SEATS:
                block = self.block(seat)
                block.table.data = "\n".join(" ".join(g) for g in player.get("table") or [])
                block.hand.data = " ".join(player.get("hand") or [])
                if player.get("final_discard"):
                    self.final_discard.data = player["final_discard"]

    def _player_field(self, block: Any, key: str) -> Any:
        return block.table if key == "table" else block.hand
