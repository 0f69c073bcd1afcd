"""Forms of the group pages. Every one carries a CSRF token (Flask-WTF)."""

from __future__ import annotations

from datetime import date, timedelta

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    DateField,
    HiddenField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.validators import InputRequired, Length, Optional, Regexp, ValidationError

from ..forms import NumberTextField, Text
from ..names import GROUP_NAME_MAX, same_name, text_problem


class GroupForm(FlaskForm):
    """A group's name, roster and default stake (and, when created, its PIN)."""

    name = StringField(
        _l("Name of the group"),
        validators=[InputRequired(), Length(max=GROUP_NAME_MAX), Text()],
    )
    players = TextAreaField(
        _l("Players (one per line)"), validators=[InputRequired(), Length(max=2000)]
    )
    stake = NumberTextField(
        _l("Stake per point (optional, e.g. 0.01)"), validators=[Optional(), Length(max=20)]
    )
    currency = StringField(_l("Currency (e.g. EUR)"), validators=[Optional(), Length(max=3)])
    pin = NumberTextField(
        _l("PIN for other phones (optional)"),
        validators=[Optional(), Regexp(r"^\d{4,6}$", message=_l("A PIN is 4 to 6 digits."))],
    )

    def validate_players(self, field: TextAreaField) -> None:
        """No name holds what is not text; no two names look the same."""
        names = self.roster()
        for name in names:
            bad = text_problem(name)
            if bad is not None:
                raise ValidationError(_("A name cannot hold the character %(char)s.", char=bad))
        pair = same_name(names)
        if pair is not None:
            raise ValidationError(
                _("Names %(first)s and %(second)s look the same: every player needs a "
                  "different name.", first=pair[0] + 1, second=pair[1] + 1)
            )

    def roster(self) -> list[str]:
        """The names typed, one per line (or separated by commas), trimmed, in order."""
        text = (self.players.data or "").replace(",", "\n")
        names: list[str] = []
        for line in text.splitlines():
            name = line.strip()
            if name and name not in names:
                names.append(name)
        return names


class RatingKindsForm(FlaskForm):
    """The kinds of game the group's ratings count (at least one)."""

    kinds = SelectMultipleField(
        _l("Kinds of game that count for the ratings"),
        choices=[],
        validators=[InputRequired(message=_l("Choose at least one kind of game."))],
    )


class PaymentForm(FlaskForm):
    """Money that changed hands: who paid whom, how much, when."""

    payer = SelectField(_l("Who paid"), choices=[], validators=[InputRequired()])
    payee = SelectField(_l("To whom"), choices=[], validators=[InputRequired()])
    amount = NumberTextField(_l("Amount"), validators=[InputRequired(), Length(max=20)])
    paid_on = DateField(_l("Date"), default=date.today, validators=[InputRequired()])

    def validate_paid_on(self, field: DateField) -> None:
        """Not a day to come. A day of slack: it is already tomorrow in places east of the
        server's clock."""
        if field.data is not None and field.data > date.today() + timedelta(days=1):
            raise ValidationError(_("A payment is dated today or before."))


class PaymentEditForm(PaymentForm):
    """A payment corrected: the form names the group's version it was drawn from."""

    version = HiddenField()


class ChangeForm(FlaskForm):
    """A button (delete, restore) that names the group's version it was drawn from."""

    version = HiddenField()


class SettleForm(FlaskForm):
    """Record the settling up shown: the group's version and the suggestion's
    fingerprint (``payments.plan_key``) it was drawn from."""

    version = HiddenField()
    plan = HiddenField()


class AddGameForm(FlaskForm):
    """One of this phone's games (that it may edit) into the group."""

    game = SelectField(_l("Game"), choices=[], validators=[InputRequired()])


class FilterForm(FlaskForm):
    """Which games the standings count: a kind of game and a period (GET, no CSRF)."""

    class Meta:
        csrf = False

    kind = SelectField(_l("Kind of game"), choices=[], default="")
    period = SelectField(
        _l("Period"),
        choices=[
            SelectChoice("", _l("All time")),
            SelectChoice("30", _l("Last 30 days")),
            SelectChoice("90", _l("Last 90 days")),
            SelectChoice("365", _l("Last 12 months")),
        ],
        default="",
    )
