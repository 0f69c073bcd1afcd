"""Forms every page may use: a name's text check, a button-only POST, the PIN.

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


class EmptyForm(FlaskForm):
    """A button-only POST (undo, rematch, language) still carries CSRF."""


class VersionForm(FlaskForm):
    """A button-only change (undo, delete) that names the sheet version it was drawn from."""

    version = HiddenField()


class PinForm(FlaskForm):
    """Another phone at the table takes over editing with the game's PIN."""

    pin = StringField(_l("PIN"), validators=[InputRequired(), Length(max=6)])


class SetPinForm(FlaskForm):
    """The editor sets or changes the PIN."""

    pin = StringField(
        _l("New PIN"),
        validators=[InputRequired(), Regexp(r"^\d{4,6}$", message=_l("A PIN is 4 to 6 digits."))],
    )
