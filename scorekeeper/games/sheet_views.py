"""The score sheet and its hands: enter, look at, correct, delete, undo, restore."""

from __future__ import annotations

from flask import abort, flash, make_response, render_template, request, url_for
from flask_babel import gettext as _
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from ..db import Unchanged, get_session, writing
from ..forms import EmptyForm, VersionForm
from ..hands.stored import stored_hand
from ..models import Game, Group
from ..names import game_short_names
from ..security import SHOWS_EDIT_LINK, live_fetch
from ..services import access, exports, page_parts
from ..services import games as service
from ..services.games import load, lock_again, locked
from ..services.night_access import organises_table
from ..services.summaries import payments_of, record_of
from ..variants import Sheet, Variant
from ..variants.window import SHEET_PAGE, Window
from . import bp
from .common import (
    CONFIRM,
    MOVE,
    for_method,
    game_full_message,
    save_edit,
    save_new,
    settled,
    this_editor,
    to_hand,
    to_sheet,
    version_of,
)
from .forms import ShortNamesForm


@bp.get("/g/<game_id>")
def sheet(game_id: str) -> Response:
    """The score sheet; the edit link (``?key=``) lets this browser change it. A club
    night's table opens to its night's organiser's secret too, as the API does: the
    right is this game's only, as with the game's own key."""
    game, variant = load(game_id)
    key = request.args.get("key")
    if key is not None:
        if access.secret_matches(game, key) or organises_table(game, key):
            access.grant_edit(game)
            return to_sheet(game)
        flash(
            _("That edit link is not right; you can watch this game but not change it."), "warning"
        )
    created = False
    if not live_fetch():
        access.remember(game)
        created = access.holds_link(game) and access.just_created("game", game.id)
    played = variant.sheet(game)
    response = _render_sheet(game, variant, played, variant.quick_form(game, played),
                             created=created)
    if created:  # the service worker keeps no copy of a page with the edit link
        response.headers[SHOWS_EDIT_LINK] = "1"
    return response


@bp.errorhandler(service.Settled)
def refuse_settled(_exc: service.Settled) -> Response:
    """A change to a club night's table whose result is confirmed: nothing is saved, and
    the sheet comes back (409) saying why (the change rolled back by ``writing()``)."""
    game, variant = load(str((request.view_args or {}).get("game_id", "")))
    flash(settled(), "warning")
    played = variant.sheet(game)
    return _render_sheet(game, variant, played, variant.quick_form(game, played), 409)


def _render_sheet(
    game: Game,
    variant: Variant,
    played: Sheet,
    form: FlaskForm,
    status: int = 200,
    shorts: ShortNamesForm | None = None,
    *,
    created: bool = False,
    repeats: int | None = None,
) -> Response:
    """The sheet; ``created``: drawn right after this browser made the game, saying that
    this phone keeps score, with the edit link to keep elsewhere; ``repeats``: the form
    came back asking whether to save a hand that repeats that one."""
    editable = access.can_edit(game)
    if shorts is None and editable:
        shorts = ShortNamesForm(formdata=None, data={"shorts": game_short_names(game)})
    # A club night's table whose result is confirmed takes no hand, correction, undo or
    # restore: the sheet offers none and says why.
    closed = editable and service.settled(get_session(), game)
    last = service.last_change(get_session(), game) if editable and not closed else None
    body = render_template(
        "games/sheet.html",
        game=game,
        variant=variant,
        sheet=played,
        page=Window.of(service.hand_count(game), request.args.get("page"), size=SHEET_PAGE),
        form=form,
        repeats=repeats,
        shorts=shorts,
        editable=editable,
        changes=editable and not closed,
        closed_why=settled() if closed else None,
        owner=editable and access.holds_link(game),
        taken_back=last if last is not None and last.action in service.RESTORABLE else None,
        empty=EmptyForm(),
        payments=(
            payments_of(game, record_of(game, played)) if game.stake and played.finished else []
        ),
        group=_known_group(game),
        view_url=url_for("games.sheet", game_id=game.id, _external=True),
        kept_url=(url_for("games.sheet", game_id=game.id, key=game.edit_secret, _external=True)
                  if created else None),
        sheet_parts=page_parts.parts(page_parts.GAME_SHEET, game=game, editable=editable),
        action_parts=page_parts.parts(page_parts.GAME_ACTIONS, game=game),
    )
    return make_response(body, status)


@bp.get("/g/<game_id>/hands.csv")
def hands_csv(game_id: str) -> Response:
    """The game's hands as CSV, one row a hand, for a spreadsheet (the header in the
    reader's language, ``?lang=en`` for English)."""
    game, _variant = load(game_id)
    return exports.download(f"scorekeeper-game-{game.id}-hands.csv", request.args.get("lang"),
                            lambda: exports.game_hands_csv(game))


def _known_group(game: Game) -> Group | None:
    """The game's group, when this browser knows it (the link never tells a watcher of
    one game where the whole group is)."""
    if not game.group_id or game.group_id not in access.remembered(groups=True):
        return None
    return get_session().get(Group, game.group_id)


@bp.post("/g/<game_id>/short-names")
def short_names(game_id: str) -> Response:
    """Set the players' short forms on the sheet's narrow columns."""
    shorts = ShortNamesForm()
    try:
        with writing():
            game, variant = locked(game_id)
            if not shorts.validate_on_submit() or len(shorts.shorts.data) != len(game.players):
                raise Unchanged
            written = [short.strip() for short in shorts.shorts.data]
            if written != game_short_names(game):
                game.short_names = written
                game.version += 1  # other phones' pages show them
                service.record_event(game, "names", this_editor(), {"short_names": written})
    except Unchanged:
        played = variant.sheet(game)
        return _render_sheet(game, variant, played, variant.quick_form(game, played), 422,
                             shorts)
    flash(_("Short names saved."))
    return to_sheet(game)


@bp.post("/g/<game_id>/hands")
def add_hand(game_id: str) -> Response:
    """Save a hand entered in quick mode."""
    game, variant = service.read_for_change(game_id)
    played = variant.sheet(game)
    form = variant.quick_form(game, played)
    inputs = variant.quick_inputs(form, game, played)
    if inputs is not None:
        saved = save_new(game, variant, inputs, form)
        if isinstance(saved, Response):
            return saved
        game = load(game_id)[0]  # as it is now, read again
        return _render_sheet(game, variant, variant.sheet(game), form, 409,
                             repeats=saved.repeats)
    return _render_sheet(game, variant, played, form, 422)


@bp.get("/g/<game_id>/hands")
def hands(game_id: str) -> Response:
    """The page that holds the hand form (a refused hand's page, opened again)."""
    game, _variant = load(game_id)
    return to_sheet(game, "#enter")


@bp.route("/g/<game_id>/hands/new", methods=["GET", "POST"])
def new_card_hand(game_id: str) -> Response | tuple[str, int]:
    """Enter a hand card by card; the engine checks and explains it."""
    game, variant = for_method(game_id)
    if not variant.card_mode:
        abort(404)
    played = variant.sheet(game)
    form = variant.card_form(game, played)
    status, repeats = 200, None
    if request.method == "POST":
        inputs = variant.card_inputs(form, game, played)
        if inputs is not None:
            saved = save_new(game, variant, inputs, form)
            if isinstance(saved, Response):
                return saved
            repeats = saved.repeats
            game = load(game_id)[0]  # as it is now, read again
            played = variant.sheet(game)
        status = 409 if inputs is not None else 422
    page = render_template(
        "games/card_hand.html", game=game, variant=variant, sheet=played, form=form, number=None,
        repeats=repeats,
    )
    return page, status


@bp.get("/g/<game_id>/hands/<int:number>")
def hand(game_id: str, number: int) -> str:
    """One hand in full: what was entered, cards grouped into melds, the explanation."""
    game, variant = load(game_id)
    if not 1 <= number <= len(game.hands):
        abort(404)
    return render_template(
        "games/hand.html",
        game=game,
        variant=variant,
        sheet=variant.sheet(game),
        number=number,
        editable=access.can_edit(game) and not service.settled(get_session(), game),
    )


@bp.route("/g/<game_id>/hands/<int:number>/edit", methods=["GET", "POST"])
def edit_hand(game_id: str, number: int) -> Response | tuple[str, int]:
    """Correct a past hand, in quick mode or with its cards."""
    game, variant = for_method(game_id)
    if not 1 <= number <= len(game.hands):
        abort(404)
    stored = stored_hand(game.hands[number - 1].inputs)
    mode = request.args.get("mode") or variant.entry_mode(stored)
    cards = mode == "cards" and variant.card_mode
    played = variant.sheet(game)
    form = (variant.card_form if cards else variant.quick_form)(game, played, number)
    status = 200
    if request.method == "GET":
        (variant.fill_cards if cards else variant.fill_quick)(form, stored)
    else:
        read = variant.card_inputs if cards else variant.quick_inputs
        inputs = read(form, game, played)
        if inputs is not None:
            done = save_edit(game, variant, number, inputs, form)
            if done is not None:
                return done
            game = load(game_id)[0]  # as it is now, read again
            played = variant.sheet(game)
        status = 409 if inputs is not None else 422
    template = "games/card_hand.html" if cards else "games/edit_quick.html"
    page = render_template(
        template, game=game, variant=variant, sheet=played, form=form, number=number
    )
    return page, status


@bp.route("/g/<game_id>/hands/<int:number>/delete", methods=["GET", "POST"])
def delete_hand(game_id: str, number: int) -> str | Response:
    """Delete a past hand, after a confirmation."""
    game, variant = for_method(game_id)
    if not 1 <= number <= len(game.hands):
        abort(404)
    form = VersionForm()
    if request.method == "GET":
        form.version.data = str(game.version)
    elif form.validate_on_submit():
        if _take_back(lock_again(game), number, form, "delete"):
            flash(
                _(
                    "%(what)s %(number)s deleted; everything after it is recomputed.",
                    what=variant.hand_word,
                    number=number,
                )
            )
        return to_sheet(game)
    return render_template(
        "games/delete.html",
        game=game,
        variant=variant,
        number=number,
        form=form,
        sheet=variant.sheet(game),
    )


@bp.post("/g/<game_id>/undo")
def undo(game_id: str) -> Response:
    """Take back the last hand entered."""
    game, variant = locked(game_id)
    form = VersionForm()
    if not form.validate_on_submit():
        abort(400)
    if not game.hands:
        flash(_("There is nothing to undo."), "warning")
        return to_sheet(game)
    number = len(game.hands)
    if _take_back(game, number, form, "undo"):
        flash(_("%(what)s %(number)s undone.", what=variant.hand_word, number=number))
    return to_sheet(game)


def _take_back(game: Game, number: int, form: VersionForm, action: str) -> bool:
    """Delete (``action`` "delete") or undo hand ``number`` and commit: ``False``, with
    the reason flashed, when the game is full or another phone changed it first."""
    try:
        with writing() as db:
            service.delete_hand(db, game, number, version=version_of(form), by=this_editor(),
                                action=action)
    except service.Full:
        flash(game_full_message(), "warning")
        return False
    except service.Conflict:
        flash(
            _("Another phone changed this game first; nothing was deleted.")
            if action == "delete"
            else _("Another phone changed this game first; nothing was undone."),
            "warning",
        )
        return False
    return True


@bp.post("/g/<game_id>/changes/<int:change_id>/restore")
def restore(game_id: str, change_id: int) -> Response | tuple[str, int]:
    """Put an undone or deleted hand back, exactly as it was entered; where hands stand
    in its old place now, after saying which move and asking (``confirm=move``)."""
    game, variant = service.read_for_change(game_id)
    form = VersionForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        with writing():
            # Worked out on the game as read, without a lock: the hand must still fit (it
            # passes the checks and the game replays with it); then the write, locked, if
            # the game is still at the version the form and the replay were drawn from.
            finished = bool(variant.sheet(game).finished)
            moving = request.form.get(CONFIRM) == MOVE
            plan = service.restoring(game, change_id, finished=lambda _g: finished,
                                     moving=moving)
            variant.check(game, plan.inputs)
            variant.sheet_with(game, plan.inputs, plan.number)
            locked = lock_again(game)
            number, _inputs = service.restore_hand(
                get_session(),
                locked,
                change_id,
                version=version_of(form),
                by=this_editor(),
                finished=lambda _g: finished,
                moving=moving,
            )
    except service.Conflict:
        flash(_("Another phone changed this game first; nothing was restored."), "warning")
        return to_sheet(game)
    except service.Full:  # before GameOver, which it is a kind of
        flash(game_full_message(), "warning")
        return to_sheet(game)
    except service.GameOver:
        flash(_("The game is over: no more hands, so this one cannot come back."), "warning")
        return to_sheet(game)
    except service.NotRestorable as exc:
        flash(_not_restorable(exc.reason), "warning")
        return to_sheet(game)
    except service.WouldMove as exc:
        return render_template(
            "games/restore.html", game=game, variant=variant, number=exc.number,
            change_id=change_id, form=form, moves=_moves(variant, exc),
        ), 409
    except ValueError:
        flash(_("It no longer fits the game as it stands, so it was not restored."), "warning")
        return to_sheet(game)
    flash(_("%(what)s %(number)s restored.", what=variant.hand_word, number=number))
    return to_hand(game, number, len(game.hands) + 1)


def _moves(variant: Variant, moved: service.WouldMove) -> str:
    """What restoring a hand into its old place moves, in words."""
    if moved.last == moved.number:
        return str(_(
            "%(what)s %(number)s comes back as number %(number)s, where another stands now: "
            "the one numbered %(from_number)s becomes number %(after)s.",
            what=variant.hand_word, number=moved.number, from_number=moved.number,
            after=moved.number + 1,
        ))
    return str(_(
        "%(what)s %(number)s comes back as number %(number)s, where others stand now: "
        "those numbered %(from_number)s to %(to_number)s become %(after)s to "
        "%(after_last)s.",
        what=variant.hand_word, number=moved.number, from_number=moved.number,
        to_number=moved.last,
        after=moved.number + 1, after_last=moved.last + 1,
    ))


def _not_restorable(reason: str) -> str:
    if reason == "restored":
        return str(_("That one was restored already."))
    if reason == "moved":
        return str(_("Its old place is past the end of the sheet now, so it was not restored."))
    return str(_("There is nothing to restore there."))
