"""Forms every page may use: a name's text check, a number typed in any script's
digits, a button-only POST, the PIN.

Every one carries a CSRF token (Flask-WTF).
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, StringField
from wtforms.validators import InputRequired, Length, Regexp, ValidationError

from .names import text_problem


class Text:
    """A field's text may hold no control character and nothing that is not valid
    Unicode (``names.text_problem``)."""

    def __call__(self, form: Any, field: Any) -> None:
        bad = text_problem(field.data) if isinstance(field.data, str) else None
        if bad is not None:
            raise ValidationError(_("A name cannot hold the character %(char)s.", char=bad))


# Persian and Arabic write a decimal point of their own (U+066B): "۰٫۵" is 0.5.
_DECIMAL_POINTS = {"\u066b": "."}


def western_digits(text: str) -> str:
    """``text`` with every decimal digit of any script written 0–9, and the Arabic
    decimal point as ".": what a phone's Persian, Arabic or Devanagari keyboard types
    into a number field reads as the number it is. Nothing else changes.

    >>> western_digits("۱۲۳۴")
    '1234'
    >>> western_digits("٢٫٥٠ EUR")
    '2.50 EUR'
    >>> western_digits("१०, x²")
    '10, x²'
    """
    return "".join(str(int(ch)) if ch.isdecimal() else _DECIMAL_POINTS.get(ch, ch)
                   for ch in text)


class TypedNumber:
    """A field a number is typed into (a score, deadwood, a stake, an amount, a PIN):
    read after ``western_digits``, shown back as typed. Every number field of every
    form is one."""

    raw_data: list[Any] | None

    def process_formdata(self, valuelist: list[Any]) -> None:
        super().process_formdata(  # type: ignore[misc]
            [western_digits(v) if isinstance(v, str) else v for v in valuelist])


class NumberTextField(TypedNumber, StringField):
    """A number kept as its text (a PIN, a stake, an amount), in western digits; a
    refused form shows it back as typed."""

    def _value(self) -> str:
        return str(self.raw_data[0]) if self.raw_data else super()._value()


class EmptyForm(FlaskForm):
    """A button-only POST (undo, rematch, language) still carries CSRF."""


class VersionForm(FlaskForm):
    """A button-only change (undo, delete) that names the sheet version it was drawn from."""

    version = HiddenField()


class PinForm(FlaskForm):
    """Another phone at the table takes over editing with the game's PIN."""

    pin = NumberTextField(_l("PIN"), validators=[InputRequired(), Length(max=6)])


class SetPinForm(FlaskForm):
    """The editor sets or changes the PIN."""

    pin = NumberTextField(
        _l("New PIN"),
        validators=[InputRequired(), Regexp(r"^\d{4,6}$", message=_l("A PIN is 4 to 6 digits."))],
    )
