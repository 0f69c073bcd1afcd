"""The game pages: home, new game, the score sheet, hands, corrections, history."""

from __future__ import annotations

import secrets
from typing import Any

from flask import (
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response
from wtforms import HiddenField, RadioField
from wtforms.validators import InputRequired

from ..db import get_session
from ..handforms import GinCardsForm
from ..hands import score_hand
from ..i18n import COOKIE, LANGUAGES
from ..models import Game, new_token
from ..scoring import HandError, RulesError, rules_from_spec
from ..sheets import game_rules, gin_sheet
from . import access, bp, service
from .entry import (
    QUICK_FIELDS,
    card_inputs,
    fill_cards,
    fill_quick,
    quick_inputs,
    seat_choices,
    show_problems,
)
from .forms import EmptyForm, NewGameForm, PinForm, QuickHandForm, SetPinForm, VersionForm


class CardHandForm(GinCardsForm):
    """A hand entered card by card, with who knocked and the form's version and token."""

    knocker = RadioField(choices=[], validators=[InputRequired()])
    version = HiddenField()
    token = HiddenField()


def _game(game_id: str) -> Game:
    game = get_session().get(Game, game_id)
    if game is None:
        abort(404)
    return game


def _locked(game_id: str, *, editing: bool = True) -> Game:
    """The game locked for a change; ``editing`` refuses browsers that only watch."""
    game = service.lock_game(get_session(), game_id)
    if game is None:
        abort(404)
    if editing:
        access.require_edit(game)
    return game


def _version(form: Any) -> int | None:
    try:
        return int(form.version.data)
    except (TypeError, ValueError):
        return None


def _by() -> str:
    return access.editor_label(request.view_args.get("game_id", "") if request.view_args else "")


@bp.get("/")
def home() -> str:
    """The start page: new game, settle a dispute, and this browser's recent games."""
    ids = access.remembered()
    games = get_session().scalars(select(Game).where(Game.id.in_(ids))).all() if ids else []
    by_id = {g.id: g for g in games}
    recent = []
    for game_id in ids:
        game = by_id.get(game_id)
        if game is not None:
            recent.append((game, gin_sheet(game).finished))
    return render_template("games/home.html", recent=recent)


@bp.post("/lang")
def set_language() -> Response:
    """Switch the language; remembered in a cookie."""
    EmptyForm().validate_on_submit() or abort(400)
    target = request.form.get("next") or url_for("games.home")
    if not target.startswith("/") or target.startswith("//"):
        target = url_for("games.home")
    response = redirect(target)
    lang = request.form.get("lang", "")
    if lang in LANGUAGES:
        response.set_cookie(COOKIE, lang, max_age=3600 * 24 * 365, samesite="Lax", httponly=True)
    return response


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> str | Response:
    """Start a game: players, rules, first dealer."""
    form = NewGameForm()
    if form.validate_on_submit():
        try:
            rules = rules_from_spec({"preset": form.preset.data, **form.rule_changes()})
        except RulesError as exc:
            show_problems(form, exc.problems, {k: k for k in form.data})
        else:
            names = form.players()
            if not all(names):
                form.player1.errors = [_("Every player needs a name.")]
            else:
                dealer = (
                    secrets.randbelow(2) if form.dealer.data == "draw" else int(form.dealer.data)
                )
                game = _create(
                    form.variant.data, names, rules.to_dict(), {"dealer": dealer}, form.pin.data
                )
                return redirect(url_for("games.sheet", game_id=game.id))
    return render_template("games/new.html", form=form)


def _create(
    variant: str, players: list[str], rules: dict[str, Any], setup: dict[str, Any], pin: str | None
) -> Game:
    db = get_session()
    game = Game(variant=variant, players=players, rules=rules, setup=setup)
    if pin:
        access.set_pin(game, pin)
    service.record_event(game, "create", "edit link", {"players": players, "rules": rules})
    db.add(game)
    db.commit()
    access.grant_edit(game)
    return game


@bp.get("/g/<game_id>")
def sheet(game_id: str) -> str | Response:
    """The score sheet; the edit link (``?key=``) lets this browser change it."""
    game = _game(game_id)
    key = request.args.get("key")
    if key is not None:
        if access.secret_matches(game, key):
            access.grant_edit(game)
            return redirect(url_for("games.sheet", game_id=game.id))
        flash(
            _("That edit link is not right; you can watch this game but not change it."), "warning"
        )
    access.remember(game)
    form = QuickHandForm()
    _prepare_quick(form, game)
    form.fresh()
    return _render_sheet(game, form)


def _prepare_quick(form: QuickHandForm, game: Game) -> None:
    form.knocker.choices = seat_choices(game.players)
    rules = game_rules(game)
    if rules.big_gin_bonus is None:
        form.outcome.choices = [
            c for c in form.outcome.choices if getattr(c, "value", None) != "big_gin"
        ]
    if form.version.data in (None, ""):
        form.version.data = str(game.version)


def _render_sheet(game: Game, form: QuickHandForm, status: int = 200) -> Response:
    sheet = gin_sheet(game)
    body = render_template(
        "games/sheet.html",
        game=game,
        sheet=sheet,
        form=form,
        editable=access.can_edit(game),
        empty=EmptyForm(),
        view_url=url_for("games.sheet", game_id=game.id, _external=True),
        edit_url=url_for("games.sheet", game_id=game.id, key=game.edit_secret, _external=True),
    )
    return make_response(body, status)


@bp.post("/g/<game_id>/hands")
def add_hand(game_id: str) -> Response:
    """Save a hand entered in quick mode."""
    game = _locked(game_id)
    form = QuickHandForm()
    _prepare_quick(form, game)
    inputs = quick_inputs(form) if form.validate_on_submit() else None
    if inputs is not None:
        try:
            score_hand(game_rules(game), inputs)
        except HandError as exc:
            show_problems(form, exc.problems, QUICK_FIELDS)
        else:
            return _save_new(game, inputs, form) or _render_sheet(game, form, 409)
    get_session().rollback()
    return _render_sheet(game, form, 422)


def _save_new(game: Game, inputs: dict[str, Any], form: Any) -> Response | None:
    """Add the hand and redirect, or explain a lost race (``None``: re-render the form)."""
    db = get_session()
    token = form.token.data or None
    try:
        number = service.add_hand(
            db,
            game,
            inputs,
            token=token,
            version=_version(form),
            by=_by(),
            finished=lambda g: gin_sheet(g).finished,
        )
        db.commit()
    except service.Conflict:
        db.rollback()
        form.version.data = str(_game(game.id).version)
        form.form_errors = [
            _(
                "Another phone changed this game while you were entering this hand, so it was "
                "not saved. Check the sheet; if your hand is still missing, press Save again."
            )
        ]
        return None
    except service.GameOver:
        db.rollback()
        form.form_errors = [_("The game is over: no more hands. Corrections still work.")]
        return None
    except IntegrityError:
        # Two phones raced past the checks at once; the loser is told, nothing doubles.
        db.rollback()
        if service.duplicate_of(db, game, token) is not None:
            return redirect(url_for("games.sheet", game_id=game.id))
        form.form_errors = [
            _(
                "Another phone saved a hand at the same moment. "
                "Check the sheet and save again if needed."
            )
        ]
        return None
    flash(_("Hand %(number)s saved.", number=number))
    return redirect(url_for("games.sheet", game_id=game.id) + f"#hand-{number}")


def _card_form(game: Game) -> CardHandForm:
    form = CardHandForm()
    form.knocker.choices = seat_choices(game.players)
    form.knocker.label.text = _("Who knocked")
    if form.version.data in (None, ""):
        form.version.data = str(game.version)
    if not form.token.data:
        form.token.data = new_token()
    return form


def _card_hand_inputs(game: Game, form: CardHandForm) -> dict[str, Any] | None:
    """Check a card form with the engine; ``None`` after marking the problems."""
    if not form.validate_on_submit():
        return None
    try:
        kwargs = form.engine_kwargs()
        inputs = card_inputs(int(form.knocker.data), kwargs)
        score_hand(game_rules(game), inputs)
    except HandError as exc:
        form.show_problems(exc)
        return None
    return inputs


@bp.route("/g/<game_id>/hands/new", methods=["GET", "POST"])
def new_card_hand(game_id: str) -> Response | tuple[str, int]:
    """Enter a hand card by card; the engine checks and explains it."""
    game = _locked(game_id) if request.method == "POST" else _game(game_id)
    access.require_edit(game)
    form = _card_form(game)
    if request.method == "POST":
        inputs = _card_hand_inputs(game, form)
        if inputs is not None:
            saved = _save_new(game, inputs, form)
            if saved is not None:
                return saved
        get_session().rollback()
    return render_template("games/card_hand.html", game=game, form=form, number=None), (
        422 if form.errors or getattr(form, "form_errors", None) else 200
    )


@bp.get("/g/<game_id>/hands/<int:number>")
def hand(game_id: str, number: int) -> str:
    """One hand in full: inputs, cards grouped into melds, and the explanation."""
    game = _game(game_id)
    sheet = gin_sheet(game)
    if not 1 <= number <= len(sheet.hands):
        abort(404)
    return render_template(
        "games/hand.html",
        game=game,
        sheet=sheet,
        number=number,
        scored=sheet.hands[number - 1],
        row=sheet.game.rows[number - 1],
        editable=access.can_edit(game),
    )


@bp.route("/g/<game_id>/hands/<int:number>/edit", methods=["GET", "POST"])
def edit_hand(game_id: str, number: int) -> str | Response | tuple[str, int]:
    """Correct a past hand, in quick mode or with its cards."""
    game = _locked(game_id) if request.method == "POST" else _game(game_id)
    access.require_edit(game)
    if not 1 <= number <= len(game.hands):
        abort(404)
    stored = game.hands[number - 1].inputs
    mode = request.args.get("mode") or stored.get("mode", "quick")
    if mode == "cards":
        return _edit_cards(game, number, stored)
    form = QuickHandForm()
    _prepare_quick(form, game)
    if request.method == "GET":
        fill_quick(form, stored)
    else:
        inputs = quick_inputs(form) if form.validate_on_submit() else None
        if inputs is not None:
            try:
                score_hand(game_rules(game), inputs)
            except HandError as exc:
                show_problems(form, exc.problems, QUICK_FIELDS)
            else:
                done = _save_edit(game, number, inputs, form)
                if done is not None:
                    return done
        get_session().rollback()
    status = 422 if request.method == "POST" else 200
    return render_template("games/edit_quick.html", game=game, form=form, number=number), status


def _edit_cards(game: Game, number: int, stored: dict[str, Any]) -> tuple[str, int] | Response:
    form = _card_form(game)
    if request.method == "GET":
        fill_cards(form, stored)
    else:
        inputs = _card_hand_inputs(game, form)
        if inputs is not None:
            done = _save_edit(game, number, inputs, form)
            if done is not None:
                return done
        get_session().rollback()
    status = 422 if request.method == "POST" else 200
    return render_template("games/card_hand.html", game=game, form=form, number=number), status


def _save_edit(game: Game, number: int, inputs: dict[str, Any], form: Any) -> Response | None:
    db = get_session()
    try:
        service.edit_hand(db, game, number, inputs, version=_version(form), by=_by())
        db.commit()
    except service.Conflict:
        db.rollback()
        form.version.data = str(_game(game.id).version)
        form.form_errors = [
            _(
                "Another phone changed this game while you were editing, so your correction "
                "was not saved. Check the sheet, then save again."
            )
        ]
        return None
    flash(_("Hand %(number)s corrected; everything after it is recomputed.", number=number))
    return redirect(url_for("games.sheet", game_id=game.id) + f"#hand-{number}")


@bp.route("/g/<game_id>/hands/<int:number>/delete", methods=["GET", "POST"])
def delete_hand(game_id: str, number: int) -> str | Response:
    """Delete a past hand, after a confirmation."""
    game = _locked(game_id) if request.method == "POST" else _game(game_id)
    access.require_edit(game)
    if not 1 <= number <= len(game.hands):
        abort(404)
    form = VersionForm()
    if request.method == "GET":
        form.version.data = str(game.version)
    elif form.validate_on_submit():
        db = get_session()
        try:
            service.delete_hand(db, game, number, version=_version(form), by=_by())
            db.commit()
        except service.Conflict:
            db.rollback()
            flash(_("Another phone changed this game first; nothing was deleted."), "warning")
            return redirect(url_for("games.sheet", game_id=game.id))
        flash(_("Hand %(number)s deleted; everything after it is recomputed.", number=number))
        return redirect(url_for("games.sheet", game_id=game.id))
    sheet = gin_sheet(game)
    return render_template(
        "games/delete.html",
        game=game,
        number=number,
        form=form,
        scored=sheet.hands[number - 1],
        row=sheet.game.rows[number - 1],
        sheet=sheet,
    )


@bp.post("/g/<game_id>/undo")
def undo(game_id: str) -> Response:
    """Take back the last hand entered."""
    game = _locked(game_id)
    form = VersionForm()
    if not form.validate_on_submit():
        abort(400)
    if not game.hands:
        flash(_("There is no hand to undo."), "warning")
        return redirect(url_for("games.sheet", game_id=game.id))
    db = get_session()
    number = len(game.hands)
    try:
        service.delete_hand(db, game, number, version=_version(form), by=_by(), action="undo")
        db.commit()
    except service.Conflict:
        db.rollback()
        flash(_("Another phone changed this game first; nothing was undone."), "warning")
        return redirect(url_for("games.sheet", game_id=game.id))
    flash(_("Hand %(number)s undone.", number=number))
    return redirect(url_for("games.sheet", game_id=game.id))


@bp.get("/g/<game_id>/history")
def history(game_id: str) -> str:
    """Every change to the game: what, when, old and new values."""
    game = _game(game_id)
    return render_template("games/history.html", game=game, changes=list(reversed(game.changes)))


@bp.post("/g/<game_id>/rematch")
def rematch(game_id: str) -> Response:
    """A new game with the same players and rules; the loser deals first."""
    game = _game(game_id)
    access.require_edit(game)
    if not EmptyForm().validate_on_submit():
        abort(400)
    sheet = gin_sheet(game)
    winner = sheet.game.winner
    dealer = (1 - winner) if winner is not None else int(game.setup.get("dealer", 0))
    new = _create(game.variant, list(game.players), dict(game.rules), {"dealer": dealer}, None)
    flash(_("Rematch started."))
    return redirect(url_for("games.sheet", game_id=new.id))


@bp.route("/g/<game_id>/unlock", methods=["GET", "POST"])
def unlock(game_id: str) -> str | Response | tuple[str, int]:
    """Another phone at the table takes over editing with the game's PIN."""
    game = _locked(game_id, editing=False) if request.method == "POST" else _game(game_id)
    form = PinForm()
    if form.validate_on_submit():
        ok = access.try_pin(game, form.pin.data.strip())
        get_session().commit()
        if ok:
            access.grant_edit(game, via_pin=True)
            flash(_("This phone can now enter hands."))
            return redirect(url_for("games.sheet", game_id=game.id))
        form.pin.errors = [_("That PIN is not right.")]
        return render_template("games/unlock.html", game=game, form=form), 422
    return render_template("games/unlock.html", game=game, form=form)


@bp.post("/g/<game_id>/pin")
def set_pin(game_id: str) -> str | Response | tuple[str, int]:
    """Set or change the game's PIN."""
    game = _locked(game_id)
    form = SetPinForm()
    if form.validate_on_submit():
        access.set_pin(game, form.pin.data)
        service.record_event(game, "pin", _by())
        get_session().commit()
        flash(_("PIN set. Another phone can open the game and enter it."))
        return redirect(url_for("games.sheet", game_id=game.id))
    get_session().rollback()
    flash(" ".join(str(e) for e in form.pin.errors) or _("A PIN is 4 to 6 digits."), "warning")
    return redirect(url_for("games.sheet", game_id=game.id))
