"""Forms of a club night. The new-night form takes its rules fields from the new-game
form (the same presets and custom settings), leaving out what one table's game asks
(its players, first dealer, captain, Remi's settings)."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField, SelectChoice, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional, Regexp

from ..forms import NumberTextField, Text
from ..hands.fields import WholeNumberField
from ..names import NAME_MAX, same_name, text_problem
from ..services import nights as service
from ..services.gameform import NewGameForm

FORMAT_LABELS = {
    "round_robin": _l("Round robin: everyone meets everyone"),
    "swiss": _l("Swiss: players on equal standing meet, for a larger field"),
    "king_of_the_hill": _l("King of the hill: winners move up a table, losers down"),
}
TIE_BREAK_LABELS = {
    "match_points": _l("match points"),
    "games_won": _l("games won"),
    "shutouts": _l("shutouts"),
    "point_difference": _l("point difference"),
    "head_to_head": _l("head-to-head"),
}
VARIANT_LABELS = {
    "gin": _l("Gin rummy, two players a table"),
    "oklahoma": _l("Oklahoma gin, two players a table"),
    "hollywood": _l("Hollywood gin, two players a table"),
    "partnership": _l("Partnership gin: fixed teams of two, two teams a table"),
}


def _choices(pairs: Any) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in pairs]


class NewNightForm(NewGameForm):
    """The players present, the kind of game and its rules, the format."""

    # What one table's game asks is left out (WTForms: ``None`` removes a field).
    player1 = None
    player2 = None
    player3 = None
    player4 = None
    dealer = None
    captain = None

    name = StringField(_l("Name of the night (optional)"),
                       validators=[Optional(), Length(max=60), Text()])
    entrants = TextAreaField(
        _l("Players present, one a line (a partnership night: a team a line, its two "
           "players joined by “&”)"),
        validators=[InputRequired()],
    )
    format = RadioField(_l("Format"), choices=_choices(FORMAT_LABELS.items()),
                        default="round_robin")
    rounds = WholeNumberField(_l("Rounds (blank: round robin plays them all; Swiss and "
                                 "king of the hill need a number)"),
                              validators=[Optional(), NumberRange(1, 50)])
    night_deals = WholeNumberField(
        _l("Deals a table, against the clock (blank: each game to the target)"),
        validators=[Optional(), NumberRange(1, 100)],
    )
    order = SelectField(
        _l("Standings: after match points, the tie-breaks in this order"),
        choices=[],
        default="games_won shutouts point_difference head_to_head",
    )
    night_pin = NumberTextField(
        _l("PIN a player may confirm a table's result with (optional)"),
        validators=[Optional(), Regexp(r"^\d{4,6}$", message=_l("A PIN is 4 to 6 digits."))],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.variant.choices = _choices(VARIANT_LABELS.items())
        self.order.choices = _choices(tie_break_orders())

    def validate(self, extra_validators: Any = None) -> bool:
        """The fields, then each entrant's name (and a team's two players)."""
        if not FlaskForm.validate(self, extra_validators):
            return False
        return self.check_entrants()

    def check_entrants(self) -> bool:
        """Every line a name (a team: two), none alike, at least two; the errors go to
        the field, what was typed stays."""
        lines = self.lines()
        problems = []
        teams = self.variant.data in service.TEAM_VARIANTS
        for number, line in enumerate(lines, start=1):
            names = self.team_of(line) if teams else [line]
            for name in names:
                bad = text_problem(name)
                if bad is not None:
                    problems.append(_("Line %(n)s: a name cannot hold the character %(char)s.",
                                      n=number, char=bad))
                elif len(name) > NAME_MAX:
                    problems.append(_("Line %(n)s: a name is at most %(most)s characters.",
                                      n=number, most=NAME_MAX))
            if teams and len(names) != 2:
                problems.append(_("Line %(n)s: a team is two players joined by “&”.", n=number))
        if len(lines) < 2:
            problems.append(_("A night needs at least two players (or teams)."))
        if len(lines) > service.MOST_ENTRANTS:
            problems.append(_("A night takes at most %(most)s players.",
                              most=service.MOST_ENTRANTS))
        everyone = [n for line in lines for n in (self.team_of(line) if teams else [line])]
        pair = same_name(everyone)
        if pair is not None and not problems:
            problems.append(_("%(name)s is there twice: every player needs a different name.",
                              name=everyone[pair[1]]))
        if problems:
            self.entrants.errors = [*self.entrants.errors, *problems]
            return False
        return True

    def lines(self) -> list[str]:
        """The entrants' lines, trimmed, blanks left out."""
        return [line.strip() for line in (self.entrants.data or "").splitlines() if line.strip()]

    @staticmethod
    def team_of(line: str) -> list[str]:
        """A team's two players from its line (``Ann & Bob``)."""
        return [part.strip() for part in line.split("&") if part.strip()]


def tie_break_orders() -> list[tuple[str, str]]:
    """The tie-break orders offered: the usual one first, then each of the others
    brought to the front."""
    usual = ["games_won", "shutouts", "point_difference", "head_to_head"]
    orders = [usual]
    for first in usual[1:]:
        orders.append([first, *(k for k in usual if k != first)])
    return [(" ".join(order), ", ".join(str(TIE_BREAK_LABELS[k]) for k in order))
            for order in orders]


class ConfirmForm(FlaskForm):
    """The other player confirms a table's result (a watching phone: with the PIN)."""

    pin = NumberTextField(_l("The night's PIN"), validators=[Optional(), Length(max=6)])


class CorrectForm(FlaskForm):
    """The organiser sets a table's result, with a reason for the history."""

    points_a = WholeNumberField(_l("Points of the first"),
                                validators=[InputRequired(), NumberRange(0, 100000)])
    points_b = WholeNumberField(_l("Points of the second"),
                                validators=[InputRequired(), NumberRange(0, 100000)])
    winner = RadioField(_l("Winner"), choices=_choices([("a", _l("The first")),
                                                        ("b", _l("The second")),
                                                        ("", _l("Nobody (a draw)"))]),
                        default="", validate_choice=True)
    shutout = SelectField(_l("Shutout"), choices=_choices([("", _l("No")), ("yes", _l("Yes"))]),
                          default="")
    reason = StringField(_l("Reason (kept in the night's history)"),
                         validators=[InputRequired(), Length(max=200), Text()])


class ForfeitForm(FlaskForm):
    """The organiser records that one side of a table forfeits it."""

    side = RadioField(_l("Who forfeits"), choices=_choices([("a", _l("The first")),
                                                             ("b", _l("The second"))]),
                      validators=[InputRequired()])
    reason = StringField(_l("Reason (kept in the night's history)"),
                         validators=[InputRequired(), Length(max=200), Text()])


class ReopenForm(FlaskForm):
    """The organiser reopens a confirmed table, with a reason for the history (spaces
    alone are none)."""

    reason = StringField(_l("Reason (kept in the night's history)"),
                         validators=[DataRequired(), Length(max=200), Text()])


def name_the_sides(correct: CorrectForm, forfeit: ForfeitForm, a: str, b: str) -> None:
    """Each side of a table by its entrant's name, where the forms' defaults say "the
    first" and "the second"."""
    correct.points_a.label.text = _("Points of %(name)s", name=a)
    correct.points_b.label.text = _("Points of %(name)s", name=b)
    correct.winner.choices = _choices([("a", a), ("b", b), ("", _("Nobody (a draw)"))])
    forfeit.side.choices = _choices([("a", a), ("b", b)])


class ArriveForm(FlaskForm):
    """A player who comes late joins the night from the next round."""

    player = StringField(_l("Name"), validators=[InputRequired(), Length(max=100), Text()])


class AwayForm(FlaskForm):
    """An entrant sits out the coming rounds, or comes back."""

    player = HiddenField(validators=[InputRequired()])
    away = HiddenField()


class NextRoundForm(FlaskForm):
    """Make the next round; ``carry``: the tables still playing play on."""

    round = HiddenField()
    carry = HiddenField()
