"""Forms of the game pages. Every one carries a CSRF token (Flask-WTF)."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_wtf import FlaskForm
from wtforms import (
    FieldList,
    StringField,
)
from wtforms.validators import (
    InputRequired,
    Length,
)

from ..forms import Text
from ..names import same_name

# The new-game form lives below the features: a club night's form takes its rules fields.
from ..services.gameform import NewGameForm as NewGameForm

SHORT_NAME_MAX = 20  # a short form the editor writes: it goes into a narrow column


class ShortNamesForm(FlaskForm):
    """The players' short forms on the sheet's narrow columns, one per seat."""

    shorts = FieldList(
        StringField(validators=[InputRequired(), Length(max=SHORT_NAME_MAX), Text()]),
        min_entries=2,
        max_entries=4,
    )

    def validate(self, extra_validators: Any = None) -> bool:
        """Each field checked, then no two short forms alike (``names.same_name``)."""
        if not super().validate(extra_validators):
            return False
        fields = list(self.shorts)
        pair = same_name([f.data.strip() for f in fields])
        if pair is None:
            return True
        fields[pair[1]].errors = [
            _("Player %(number)s has a short name that looks the same: every player needs a "
              "different one.", number=pair[0] + 1),
        ]
        return False
