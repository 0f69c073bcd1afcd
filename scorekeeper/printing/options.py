"""What a print link may ask for: paper size, the appendix, a blank pad's rows and rules.

These are GET forms (printing changes nothing, so there is no CSRF token): they read
``request.args`` and say, per field, what is wrong with a hand-edited link.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import Form, SelectChoice, SelectField, StringField
from wtforms.validators import AnyOf, Length, NumberRange, Optional

from ..hands.fields import WholeNumberField
from ..i18n import PRESET_NAMES
from ..names import NAME_MAX

# CSS ``@page`` sizes, keyed by what a link says.
PAPER = {"a4": "A4", "letter": "letter"}
PAD_ROWS = (5, 200)
# Every preset a pad can print at its top (each kind of game accepts its own); blank
# is the usual rules of the game chosen, as on the new-game page.
USUAL = ""
PAD_PRESETS = {
    USUAL: _l("The usual rules of this game"),
    **{key: name for key, name in PRESET_NAMES.items() if key != "custom"},
}


def _lower(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


def _strip(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


def _choice(label: Any, choices: dict[str, Any], default: str, message: Any) -> SelectField:
    # Checked by AnyOf rather than the field, so the message says what to use instead.
    return SelectField(
        label,
        choices=[SelectChoice(value, label) for value, label in choices.items()],
        default=default,
        filters=[_lower],
        validate_choice=False,
        validators=[AnyOf(list(choices), message=message)],
    )


def _paper() -> SelectField:
    return _choice(
        _l("Paper"), {"a4": _l("A4"), "letter": _l("US Letter")}, "a4",
        _l("The paper size must be a4 or letter."),
    )


class SheetOptions(Form):
    """``?size=a4|letter&appendix=0|1`` on a game's PDF."""

    size = _paper()
    appendix = _choice(
        _l("Appendix"), {"0": "0", "1": "1"}, "0", _l("appendix must be 0 or 1.")
    )

    @property
    def with_appendix(self) -> bool:
        """Whether the hands entered with cards are printed after the sheet."""
        return bool(self.appendix.data == "1")


class PadForm(Form):
    """A blank pad: rows, rules preset, paper, and (optionally) the players' names."""

    rows = WholeNumberField(
        _l("Rows"),
        default=30,
        validators=[
            NumberRange(*PAD_ROWS, message=_l("Rows must be a whole number from 5 to 200."))
        ],
    )
    preset = _choice(
        _l("Rules"), PAD_PRESETS, USUAL,
        _l("Choose one of the presets in the list."),
    )
    size = _paper()
    player1 = StringField(
        _l("Player 1 (optional)"), filters=[_strip], validators=[Optional(), Length(max=NAME_MAX)]
    )
    player2 = StringField(
        _l("Player 2 (optional)"), filters=[_strip], validators=[Optional(), Length(max=NAME_MAX)]
    )
    player3 = StringField(
        _l("Player 3 (optional)"), filters=[_strip], validators=[Optional(), Length(max=NAME_MAX)]
    )
    player4 = StringField(
        _l("Player 4 (optional)"), filters=[_strip], validators=[Optional(), Length(max=NAME_MAX)]
    )

    def players(self) -> list[str]:
        """The names to print, empty for a line to write on."""
        names = (self.player1, self.player2, self.player3, self.player4)
        return [field.data or "" for field in names]


def problems(form: Form) -> list[str]:
    """Every error of ``form``, each naming its field."""
    return [
        f"{form[name].label.text}: {message}"
        for name, messages in form.errors.items()
        for message in messages
    ]
