"""The new-game form: players, rules and first dealer. Shared by the pages that start
games: a single game (``games``) and a club night's, whose form takes the same rules
fields (``nights``)."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    HiddenField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
)
from wtforms.validators import (
    InputRequired,
    Length,
    NumberRange,
    Optional,
    Regexp,
)

from ..forms import NumberTextField, Text
from ..hands.entry import show_problems
from ..hands.fields import WholeNumberField
from ..names import NAME_MAX, same_name
from ..scoring import Rules, RulesError, rules_from_spec
from ..variants import VARIANTS, Variant


def _choices(pairs: list[tuple[str, Any]]) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in pairs]


def _optional_int(label: Any, low: int = 0, high: int = 10000) -> WholeNumberField:
    return WholeNumberField(label, validators=[Optional(), NumberRange(low, high)])


class NewGameForm(FlaskForm):
    """Players, rules and the first dealer of a new game."""

    variant = SelectField(_l("Game"), choices=[], default="gin")
    player1 = StringField(
        _l("Player 1"), validators=[InputRequired(), Length(max=NAME_MAX), Text()]
    )
    player2 = StringField(
        _l("Player 2"), validators=[InputRequired(), Length(max=NAME_MAX), Text()]
    )
    player3 = StringField(_l("Player 3"), validators=[Optional(), Length(max=NAME_MAX), Text()])
    player4 = StringField(_l("Player 4"), validators=[Optional(), Length(max=NAME_MAX), Text()])
    preset = SelectField(
        _l("Rules"),
        choices=_choices(
            [
                ("", _l("The usual rules of this game")),
                ("classic", _l("Classic: gin 20, undercut 10, no bonuses")),
                ("russian", _l("Russian: gin 25, undercut 25, game 100, box 25, shutout doubles")),
                ("pagat", _l("Pagat: gin 20, undercut 10, game 100, box 20, shutout +100")),
                ("modern", _l("Modern: gin 25, big gin 31, undercut 25, game 100, box 25")),
                ("oklahoma", _l("Oklahoma: upcard sets the knock limit, target 150")),
                ("three_hand", _l("Three-hand: gin 25, undercut 10, no bonuses")),
                ("partnership", _l("Partnership: target 125, game 100, box 25")),
                ("remi", _l("Remi: sets count only with a sequence")),
            ]
        ),
        default="",
    )
    dealer = RadioField(
        _l("First dealer (three-hand: who is in the box)"),
        choices=_choices(
            [
                ("0", _l("Player 1")),
                ("1", _l("Player 2")),
                ("2", _l("Player 3")),
                ("3", _l("Player 4")),
                ("draw", _l("Draw for it")),
            ]
        ),
        default="0",
    )
    captain = SelectField(
        _l("Three-hand gin: first captain"),
        choices=_choices(
            [
                ("auto", _l("The player after the box")),
                ("0", _l("Player 1")),
                ("1", _l("Player 2")),
                ("2", _l("Player 3")),
            ]
        ),
        default="auto",
    )
    deals = _optional_int(
        _l("End after this many deals (blank: play to the target)"), 1, 1000
    )
    lenient = BooleanField(_l("Remi: sets count without a sequence"))
    hollywood_fourth = BooleanField(_l("Hollywood: a 4th column opens when column 1 closes"))
    pin = NumberTextField(
        _l("PIN for other phones (optional)"),
        validators=[Optional(), Regexp(r"^\d{4,6}$", message=_l("A PIN is 4 to 6 digits."))],
    )
    # A game started from a group counts for it; a stake per point (scoring/stakes.py).
    group = HiddenField()
    stake = NumberTextField(
        _l("Stake per point (optional, e.g. 0.01)"), validators=[Optional(), Length(max=20)]
    )
    currency = StringField(_l("Currency (e.g. EUR)"), validators=[Optional(), Length(max=3)])
    # Custom settings: blank keeps the preset's value.
    target = _optional_int(_l("Target"), 1)
    knock_limit = _optional_int(_l("Knock limit"), 0, 10)
    gin_bonus = _optional_int(_l("Gin bonus"))
    big_gin_bonus = _optional_int(_l("Big gin bonus (blank: preset; 0 with 'no big gin' off)"))
    no_big_gin = BooleanField(_l("No big gin"))
    undercut_bonus = _optional_int(_l("Undercut bonus"))
    game_bonus = _optional_int(_l("Game bonus"))
    box_bonus = _optional_int(_l("Box bonus"))
    shutout = SelectField(
        _l("Shutout"),
        choices=_choices(
            [
                ("", _l("As the preset")),
                ("none", _l("Nothing extra")),
                ("double", _l("Winner's points and game bonus doubled")),
                ("double_all", _l("Doubled, box bonuses too")),
                ("flat", _l("A flat bonus")),
            ]
        ),
        default="",
    )
    shutout_bonus = _optional_int(_l("Flat shutout bonus"))
    tie = SelectField(
        _l("A tie (equal deadwood)"),
        choices=_choices(
            [
                ("", _l("As the preset")),
                ("undercut", _l("is an undercut")),
                ("nil", _l("scores nothing")),
            ]
        ),
        default="",
    )
    next_dealer = SelectField(
        _l("Next dealer"),
        choices=_choices(
            [
                ("", _l("As the preset")),
                ("winner", _l("The winner of the hand")),
                ("loser", _l("The loser of the hand")),
                ("alternate", _l("Players take turns")),
            ]
        ),
        default="",
    )
    oklahoma_ace = SelectField(
        _l("Oklahoma: an ace upcard"),
        choices=_choices(
            [("", _l("As the preset")), ("gin_only", _l("gin only")), ("one", _l("knock with 1"))]
        ),
        default="",
    )
    spade_doubles = SelectField(
        _l("Oklahoma: a spade upcard"),
        choices=_choices(
            [
                ("", _l("As the preset")),
                ("yes", _l("doubles the hand")),
                ("no", _l("changes nothing")),
            ]
        ),
        default="",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.variant.choices = _choices([(v.name, v.label) for v in VARIANTS.values()])

    def validate(self, extra_validators: Any = None) -> bool:
        """The fields, then no two players whose names look the same (``"Ann"`` and
        ``"Ann\u200b"``): the error goes to the later one."""
        if not super().validate(extra_validators):
            return False
        fields = [f for f in (self.player1, self.player2, self.player3, self.player4)
                  if f.data and f.data.strip()]
        pair = same_name([f.data.strip() for f in fields])
        if pair is None:
            return True
        first = (self.player1, self.player2, self.player3, self.player4).index(fields[pair[0]])
        fields[pair[1]].errors = [
            *fields[pair[1]].errors,
            _("Player %(number)s has a name that looks the same: every player needs a "
              "different name.", number=first + 1),
        ]
        return False

    def seat_name(self, seat: int) -> str:
        """The name typed for ``seat`` (0-based), or "Player N" while it is blank: the
        first dealer and the captain are chosen by name."""
        typed = getattr(self, f"player{seat + 1}").data
        return (typed or "").strip() or _("Player %(number)d", number=seat + 1)

    def players(self) -> list[str]:
        """The players' names, trimmed, blanks left out."""
        names = (self.player1, self.player2, self.player3, self.player4)
        return [n.data.strip() for n in names if n.data and n.data.strip()]

    def rule_changes(self) -> dict[str, Any]:
        """Settings the player changed from the preset."""
        changes: dict[str, Any] = {}
        for name in (
            "target",
            "knock_limit",
            "gin_bonus",
            "big_gin_bonus",
            "undercut_bonus",
            "game_bonus",
            "box_bonus",
            "shutout_bonus",
        ):
            value = getattr(self, name).data
            if value is not None:
                changes[name] = value
        if self.no_big_gin.data:
            changes["big_gin_bonus"] = None
        for name in ("shutout", "next_dealer", "oklahoma_ace"):
            if getattr(self, name).data:
                changes[name] = getattr(self, name).data
        if self.tie.data:
            changes["tie_is_undercut"] = self.tie.data == "undercut"
        if self.spade_doubles.data:
            changes["spade_doubles"] = self.spade_doubles.data == "yes"
        if self.deals.data is not None:
            changes["deals"] = self.deals.data
        if self.lenient.data:
            changes["sets_need_sequence"] = False
        if self.hollywood_fourth.data:
            changes["hollywood_fourth"] = True
        return changes


def rules_from_form(form: NewGameForm, variant: Variant) -> Rules | None:
    """The rules a new game (or a new night's games) of ``variant`` plays with: the
    chosen preset (blank: the kind's usual one) with the settings changed on the form.
    ``None`` with the errors at their fields (what was typed stays)."""
    preset = form.preset.data or variant.default_preset
    if preset not in variant.presets:
        form.preset.errors = [_("%(game)s is not played with these rules.", game=variant.label)]
        return None
    try:
        return variant.rules_for(rules_from_spec({"preset": preset, **form.rule_changes()}))
    except RulesError as exc:
        show_problems(form, exc.problems, {k: k for k in form.data})
        return None
