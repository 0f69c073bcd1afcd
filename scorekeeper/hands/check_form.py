"""The dispute settler's form: a rule set (preset plus a few overrides) and one hand."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import SelectChoice, SelectField
from wtforms.validators import NumberRange, Optional

from ..hands.fields import GinCardsForm, WholeNumberField
from ..i18n import render_message
from ..scoring.errors import HandError
from ..scoring.rules import Rules, RulesError, rules_from_spec
from ..scoring.settle import HandResult, settle_gin_hand

PRESET_CHOICES = [
    SelectChoice("classic", _l("Classic: gin 20, undercut 10")),
    SelectChoice("russian", _l("Russian: gin 25, undercut 25")),
    SelectChoice("pagat", _l("Pagat: gin 20, undercut 10")),
    SelectChoice("modern", _l("Modern: gin 25, big gin 31, undercut 25")),
    SelectChoice("oklahoma", _l("Oklahoma: the upcard sets the knock limit")),
]
TIE_CHOICES = [
    SelectChoice("", _l("As the rules say")),
    SelectChoice("yes", _l("A tie is an undercut")),
    SelectChoice("no", _l("A tie scores nothing")),
]
OVERRIDES = ("knock_limit", "gin_bonus", "undercut_bonus")


def _bonus(label: Any, high: int = 10000) -> WholeNumberField:
    return WholeNumberField(label, validators=[Optional(), NumberRange(0, high)])


class CheckForm(GinCardsForm):
    """Rules and a hand to settle; blank overrides keep the preset's values."""

    preset = SelectField(_l("Rules"), choices=PRESET_CHOICES, default="classic")
    knock_limit = _bonus(_l("Knock limit"), 10)
    gin_bonus = _bonus(_l("Gin bonus"))
    undercut_bonus = _bonus(_l("Undercut bonus"))
    tie_is_undercut = SelectField(_l("A tie (same deadwood)"), choices=TIE_CHOICES, default="")

    def rules_spec(self) -> dict[str, Any]:
        """The chosen rules as a ``rules_from_spec`` specification."""
        spec: dict[str, Any] = {"preset": self.preset.data}
        for name in OVERRIDES:
            value = self[name].data
            if value is not None:
                spec[name] = value
        if self.tie_is_undercut.data:
            spec["tie_is_undercut"] = self.tie_is_undercut.data == "yes"
        return spec

    def rules(self) -> Rules | None:
        """The chosen rules, or ``None`` with the problems shown at their fields."""
        try:
            return rules_from_spec(self.rules_spec())
        except RulesError as exc:
            for where, engine_message in exc.problems:
                message = render_message(engine_message)
                target = self._fields.get(where)
                if target is None:
                    self.form_errors.append(message)
                else:
                    target.errors = [*target.errors, message]
            return None

    def settle(self) -> HandResult | None:
        """Score the hand of a valid form; ``None`` with the problems shown at their fields."""
        rules = self.rules()
        if rules is None:
            return None
        try:
            return settle_gin_hand(rules, **self.engine_kwargs())
        except HandError as exc:
            self.show_problems(exc)
            return None
