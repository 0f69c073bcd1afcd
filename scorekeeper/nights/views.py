"""A club night's pages: start one, the organiser's page, the next round, a table's
result confirmed on its game's page, corrected or forfeited, late arrivals, the
history."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from .. import limits
from ..db import Unchanged, get_session, rollback_session, writing
from ..models import Game, Group, Night, NightChange, NightTable
from ..money import local_currency, read_stake
from ..names import name_key
from ..security import is_token
from ..services import access as game_access
from ..services import night_access as access
from ..services import nights as service
from ..services import page_parts
from ..services.gameform import rules_from_form
from ..services.night_view import night_view
from ..variants import VARIANTS
from . import bp
from .forms import (
    FORMAT_LABELS,
    TIE_BREAK_LABELS,
    VARIANT_LABELS,
    ArriveForm,
    AwayForm,
    ConfirmForm,
    CorrectForm,
    ForfeitForm,
    NewNightForm,
    NextRoundForm,
    ReopenForm,
    name_the_sides,
)


def load(night_id: str) -> Night:
    """The night (404 if unknown)."""
    night = get_session().get(Night, night_id) if is_token(night_id) else None
    if night is None:
        abort(404)
    return night


def locked(night_id: str) -> Night:
    """The night locked for a change by its organiser."""
    night = service.lock_night(get_session(), night_id) if is_token(night_id) else None
    if night is None:
        abort(404)
    access.require_organiser(night)
    return night


def to_night(night: Night, anchor: str = "") -> Response:
    return redirect(url_for("nights.organiser", night_id=night.id) + anchor)


@bp.errorhandler(service.NightFull)
def night_full(_exc: service.NightFull) -> Response:
    """A change to a night whose history is full: nothing is written, and the page it
    came from says why."""
    rollback_session()
    flash(_("The night's history holds %(most)s changes, the most it may: it takes no more.",
            most=limits.MOST_CHANGES), "warning")
    values = request.view_args or {}
    if "night_id" in values:
        return redirect(url_for("nights.organiser", night_id=values["night_id"]))
    return redirect(url_for("games.sheet", game_id=values.get("game_id", "")))


# --- a new night --------------------------------------------------------------------------


@bp.route("/nights/new", methods=["GET", "POST"])
@limits.create
def new_night() -> tuple[str, int] | Response:
    """Start a night: players present, kind of game and rules, format."""
    form = NewNightForm()
    group = _group_of(form.group.data if request.method == "POST" else request.args.get("group"))
    if request.method == "GET":
        if group is not None:
            form.entrants.data = "\n".join(group.players)
            form.group.data = group.id
            form.stake.data = group.stake or ""
            form.currency.data = group.currency or ""
        if not form.currency.data:
            form.currency.data = local_currency(str(get_locale())) or ""
    if form.is_submitted():
        try:
            with writing():
                night = _night_from(form, group) if form.validate() else None
                if night is None:
                    raise Unchanged  # drawn again without holding the write lock
        except Unchanged:
            pass
        else:
            return to_night(night)
    fits = {
        choice.value: " ".join(name for name in service.NIGHT_VARIANTS
                               if choice.value in VARIANTS[name].presets)
        for choice in form.preset.choices
    }
    return render_template("nights/new.html", form=form, group=group, fits=fits), (
        422 if form.is_submitted() else 200
    )


def _group_of(group_id: object) -> Group | None:
    """The group a night is started for, if this browser may edit it."""
    if not isinstance(group_id, str) or not group_id:
        return None
    group = get_session().get(Group, group_id) if is_token(group_id) else None
    if group is None or not game_access.can_edit(group):
        abort(403)
    return group


def _night_from(form: NewNightForm, group: Group | None) -> Night | None:
    """The night a valid form describes, or ``None`` with the errors on the form."""
    variant = VARIANTS[form.variant.data]
    stake = read_stake(form.stake, form.currency)
    if stake is None:
        return None
    rules = rules_from_form(form, variant)
    if rules is None:
        return None
    if form.format.data != "round_robin" and form.rounds.data is None:
        form.rounds.errors = [_("Swiss and king of the hill need a number of rounds.")]
        return None
    lines = form.lines()
    teams = None
    if variant.name in service.TEAM_VARIANTS:
        teams = [form.team_of(line) for line in lines]
        if group is not None:
            teams = [[_roster_name(group, n) for n in team] for team in teams]
        entrants = [service.team_name(team) for team in teams]
    else:
        entrants = [_roster_name(group, n) for n in lines] if group is not None else lines
    if group is not None:
        everyone = [n for team in teams for n in team] if teams is not None else entrants
        group.players = [*group.players, *(n for n in everyone if n not in group.players)]
    db = get_session()
    night = service.create_night(
        db,
        name=(form.name.data or "").strip(),
        variant=variant.name,
        rules=rules.to_dict(),
        format=form.format.data,
        players=entrants,
        teams=teams,
        rounds=form.rounds.data,
        deals=form.night_deals.data,
        order=["match_points", *form.order.data.split()],
        group_id=group.id if group is not None else None,
        stake=stake,
    )
    if form.night_pin.data:
        game_access.set_pin(night, form.night_pin.data)  # type: ignore[arg-type]
    db.commit()
    access.grant(night)
    game_access.note_created("night", night.id)
    return night


def _roster_name(group: Group, name: str) -> str:
    """``ann`` typed for the group's ``Ann`` is Ann: the standings count one person."""
    roster = {name_key(n): n for n in group.players}
    return roster.get(name_key(name), name)


# --- the organiser's page -------------------------------------------------------------------


@bp.get("/n/<night_id>")
def organiser(night_id: str) -> Response:
    """The organiser's page (``?key=`` the organiser's secret); others see the board."""
    night = load(night_id)
    key = request.args.get("key")
    if key is not None:
        if access.secret_matches(night, key):
            access.grant(night)
            return to_night(night)
        flash(_("That organiser's link is not right; here is the night's board."), "warning")
    if not access.can_organise(night):
        return redirect(url_for("nights.board", night_id=night.id))
    return _render_organiser(night, created=game_access.just_created("night", night.id))


def _render_organiser(
    night: Night, status: int = 200, *, created: bool = False, **forms: Any
) -> Response:
    """The organiser's page; ``created``: drawn right after this browser made the night,
    saying that this phone runs it, with the organiser's link to keep elsewhere."""
    shown = night_view(get_session(), night)
    body = render_template(
        "nights/organiser.html",
        night=night,
        shown=shown,
        live_version=service.live_version(get_session(), night.id),
        variant_label=VARIANT_LABELS.get(night.variant, night.variant),
        format_label=FORMAT_LABELS.get(night.format, night.format),
        order_words=", ".join(str(TIE_BREAK_LABELS.get(k, k)) for k in night.order),
        next_form=forms.get("next_form") or NextRoundForm(),
        arrive=forms.get("arrive") or ArriveForm(),
        away=AwayForm(),
        organiser_url=url_for("nights.organiser", night_id=night.id, key=night.organiser_secret,
                              _external=True),
        board_url=url_for("nights.board", night_id=night.id, _external=True),
        created=created,
        action_parts=page_parts.parts(page_parts.NIGHT_ACTIONS, night=night),
    )
    response = make_response(body, status)
    # The page holds the organiser's secret (its link, its QR code): kept nowhere, as
    # the share pages are.
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.post("/n/<night_id>/rounds")
def next_round(night_id: str) -> Response:
    """Make the next round's pairings and games (once, however many press it)."""
    form = NextRoundForm()
    try:
        with writing() as db:
            night = locked(night_id)
            if not form.validate_on_submit():
                abort(400)
            expected = form.round.data
            if expected and expected.isdigit() and int(expected) != service.current_round(night):
                raise Unchanged  # another phone made the round this page was drawn before
            made = service.make_round(db, night, carry=form.carry.data == "1", by="organiser")
    except Unchanged:
        flash(_("Round %(n)s was made already.", n=service.current_round(load(night_id))),
              "warning")
        return to_night(night)
    except service.NotReady:
        flash(_("Some tables of this round are not confirmed yet."), "warning")
        return to_night(night)
    except service.NoRoundLeft:
        flash(_("Every round of the night is played."), "warning")
        return to_night(night)
    except service.NotPaired:
        flash(_("No round can be paired with the players free now: wait for the tables "
                "still playing."), "warning")
        return to_night(night)
    except IntegrityError:
        flash(_("Another phone made the round at the same moment."), "warning")
        return to_night(night)
    flash(_("Round %(n)s is paired.", n=made.number))
    return to_night(night, f"#round-{made.number}")


def _table(night: Night, round_number: int, number: int) -> NightTable:
    for table in night.tables:
        if table.round == round_number and table.number == number:
            return table
    abort(404)


@bp.get("/n/<night_id>/rounds/<int:round_number>/tables/<int:number>")
def open_table(night_id: str, round_number: int, number: int) -> Response:
    """The organiser opens a table's game, able to change it (acting for the table)."""
    night = load(night_id)
    access.require_organiser(night)
    table = _table(night, round_number, number)
    game = get_session().get(Game, table.game_id) if table.game_id else None
    if game is None:
        abort(404)
    game_access.grant_edit(game)
    return redirect(url_for("games.sheet", game_id=game.id))


@bp.route("/n/<night_id>/rounds/<int:round_number>/tables/<int:number>/result",
          methods=["GET", "POST"])
def correct(night_id: str, round_number: int, number: int) -> Response | tuple[str, int]:
    """The organiser corrects a table's result, or records a forfeit, with a reason."""
    night = locked(night_id) if request.method == "POST" else load(night_id)
    access.require_organiser(night)
    table = _table(night, round_number, number)
    correct_form = CorrectForm(prefix="c")
    forfeit_form = ForfeitForm(prefix="f")
    name_the_sides(correct_form, forfeit_form, table.a, table.b)
    db = get_session()
    if request.method == "GET" and table.result is not None:
        r = table.result
        correct_form.points_a.data = r.get("points_a")
        correct_form.points_b.data = r.get("points_b")
        correct_form.winner.data = r.get("winner") or ""
        correct_form.shutout.data = "yes" if r.get("shutout") else ""
    if request.method == "POST":
        try:
            with writing():
                if request.form.get("what") == "forfeit":
                    if not forfeit_form.validate_on_submit():
                        raise Unchanged
                    service.forfeit(db, night, table, forfeit_form.side.data,
                                    reason=forfeit_form.reason.data.strip(), by="organiser")
                    done = _("The forfeit is recorded.")
                elif correct_form.validate_on_submit():
                    result = {
                        "points_a": correct_form.points_a.data,
                        "points_b": correct_form.points_b.data,
                        "winner": correct_form.winner.data or None,
                        "shutout": correct_form.shutout.data == "yes",
                        "forfeit": None,
                    }
                    service.correct(db, night, table, result,
                                    reason=correct_form.reason.data.strip(), by="organiser")
                    done = _("The result is corrected; the reason is kept in the night's history.")
                else:
                    raise Unchanged
        except Unchanged:
            pass
        else:
            flash(done)
            return to_night(night, f"#round-{table.round}")
    return _render_result(night, table, 422 if request.method == "POST" else 200,
                          correct_form=correct_form, forfeit_form=forfeit_form)


@bp.post("/n/<night_id>/rounds/<int:round_number>/tables/<int:number>/reopen")
def reopen(night_id: str, round_number: int, number: int) -> Response | tuple[str, int]:
    """The organiser reopens a confirmed table, with a reason: its game takes changes
    again and its result counts once confirmed again."""
    form = ReopenForm(prefix="r")
    try:
        with writing() as db:
            night = locked(night_id)
            table = _table(night, round_number, number)
            if not form.validate_on_submit():
                raise Unchanged
            service.reopen(db, night, table, reason=form.reason.data.strip(), by="organiser")
    except service.NotConfirmed:
        flash(_("The result of this table is not confirmed: there is nothing to reopen."),
              "warning")
        return to_night(night, f"#round-{table.round}")
    except Unchanged:
        return _render_result(night, table, 422, reopen_form=form)
    flash(_("The table is reopened; the reason is kept in the night's history. Its "
            "result counts once confirmed again."))
    return to_night(night, f"#round-{table.round}")


def _render_result(
    night: Night, table: NightTable, status: int, *, correct_form: CorrectForm | None = None,
    forfeit_form: ForfeitForm | None = None, reopen_form: ReopenForm | None = None,
) -> tuple[str, int]:
    """A table's result page: correct it, record a forfeit, reopen it (once confirmed)."""
    correct_form = correct_form or CorrectForm(prefix="c", formdata=None)
    forfeit_form = forfeit_form or ForfeitForm(prefix="f", formdata=None)
    name_the_sides(correct_form, forfeit_form, table.a, table.b)
    reopen_form = reopen_form or ReopenForm(prefix="r", formdata=None)
    return render_template("nights/result.html", night=night, table=table, form=correct_form,
                           forfeit=forfeit_form, reopen=reopen_form), status


@bp.post("/n/<night_id>/arrive")
def arrive(night_id: str) -> Response:
    """A late arrival joins the night from the next round."""
    night = locked(night_id)
    form = ArriveForm()
    name = (form.player.data or "").strip()
    teams = night.teams is not None
    team = NewNightForm.team_of(name) if teams else None
    problem = None
    if not form.validate_on_submit():
        problem = True
    elif team is not None and len(team) != 2:
        form.player.errors = [_("A team is two players joined by “&”.")]
        problem = True
    else:
        entrant = service.team_name(team) if team is not None else name
        known = {name_key(p) for p in night.players}
        if name_key(entrant) in known:
            form.player.errors = [_("%(name)s is in the night already.", name=entrant)]
            problem = True
        elif len(night.players) >= service.MOST_ENTRANTS:
            form.player.errors = [_("A night takes at most %(most)s players.",
                                    most=service.MOST_ENTRANTS)]
            problem = True
    try:
        with writing() as db:
            if problem:
                raise Unchanged
            service.add_entrant(db, night, entrant, team, by="organiser")
    except Unchanged:
        return _render_organiser(load(night_id), 422, arrive=form)
    flash(_("%(name)s plays from the next round.", name=entrant))
    return to_night(night, "#players")


@bp.post("/n/<night_id>/away")
def away(night_id: str) -> Response:
    """An entrant sits out the coming rounds (late, gone) or comes back."""
    night = locked(night_id)
    form = AwayForm()
    if not form.validate_on_submit() or form.player.data not in night.players:
        abort(400)
    db = get_session()
    service.set_away(db, night, form.player.data, form.away.data == "1", by="organiser")
    db.commit()
    return to_night(night, "#players")


@bp.get("/n/<night_id>/history")
def history(night_id: str) -> str:
    """The night's history: rounds, confirmations, corrections with their reasons."""
    night = load(night_id)
    access.require_organiser(night)
    changes = get_session().scalars(
        select(NightChange).where(NightChange.night_id == night.id).order_by(NightChange.id)
    ).all()
    return render_template("nights/history.html", night=night, changes=changes)


# --- confirming at the table -------------------------------------------------------------------


@bp.post("/g/<game_id>/confirm")
def confirm(game_id: str) -> Response:
    """The other player confirms a finished table's result: one tap from a phone that
    keeps the game's score (or the organiser's), else with the night's PIN."""
    db = get_session()
    table = service.table_by_game(db, game_id) if is_token(game_id) else None
    if table is None:
        abort(404)
    night = db.get(Night, table.night_id)
    game = db.get(Game, game_id)
    if night is None or game is None:
        abort(404)
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        with writing():
            by = _confirmer(night, game, form)
            if by is None:
                raise Unchanged
            counted = service.confirm(db, night, table, game, by=by)
    except Unchanged:
        flash(_("That PIN is not right; the result is not confirmed."), "warning")
        return redirect(url_for("games.sheet", game_id=game.id) + "#night-result")
    except service.NotFinished:
        flash(_("The game is not over yet: there is no result to confirm."), "warning")
        return redirect(url_for("games.sheet", game_id=game.id))
    if counted:
        flash(_("Result confirmed: it counts for the night."))
    else:
        flash(_("The result was confirmed already."))
    return redirect(url_for("games.sheet", game_id=game.id) + "#night-result")


def _confirmer(night: Night, game: Game, form: ConfirmForm) -> str | None:
    """Who confirms, as the history says it, or ``None`` (a wrong PIN)."""
    if access.can_organise(night):
        return "organiser"
    if game_access.can_edit(game):
        return "table"
    pin = form.pin.data or ""
    if not pin or night.pin_hash is None:
        return None
    check = game_access.check_pin(Night, night.id, pin)  # type: ignore[arg-type]
    locked_night = service.lock_night(get_session(), night.id)
    if locked_night is None or not game_access.record_pin(locked_night, check):  # type: ignore[arg-type]
        get_session().commit()  # a wrong guess is counted
        return None
    return "PIN"
