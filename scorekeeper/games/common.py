"""Helpers the game views share: loading and locking a game, saving a hand safely."""

from __future__ import annotations

from dataclasses import dataclass

from flask import flash, redirect, request, url_for
from flask_babel import gettext as _
from flask_wtf import FlaskForm
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from .. import limits
from ..db import get_session, rollback_to_reading
from ..hands.stored import StoredHand
from ..models import Game
from ..services import access
from ..services import games as service
from ..services.games import load, locked
from ..variants import Sheet, Variant


def for_method(game_id: str) -> tuple[Game, Variant]:
    """Locked for a POST that may change the game, plain for a GET; editors only."""
    if request.method == "POST":
        return locked(game_id)
    game, variant = load(game_id)
    access.require_edit(game)
    return game, variant


def version_of(form: FlaskForm) -> int:
    """The sheet version a form was drawn from; a form without one matches no sheet
    (-1), so it can never change a game it was not drawn from."""
    try:
        return int(form.version.data)
    except (TypeError, ValueError, AttributeError):
        return -1


def by() -> str:
    """How this browser edits the game, as the history records it."""
    game_id = (request.view_args or {}).get("game_id", "")
    return access.editor_label(str(game_id))


def to_sheet(game: Game, anchor: str = "") -> Response:
    """Back to the sheet."""
    return redirect(url_for("games.sheet", game_id=game.id) + anchor)


# The buttons that say "yes" to a question: ``confirm=repeat`` saves a hand that repeats
# the last one all the same, ``confirm=move`` restores a hand into a place others hold.
CONFIRM = "confirm"
REPEAT = "repeat"
MOVE = "move"


@dataclass(frozen=True)
class Refused:
    """A new hand not saved: the form comes back (409) with why on it, or, ``repeats``,
    asking whether to save a hand that repeats that hand (the question and the
    confirming button beside the form's own)."""

    repeats: int | None = None


def save_new(
    game: Game, variant: Variant, played: Sheet, inputs: StoredHand, form: FlaskForm
) -> Response | Refused:
    """Add the hand and redirect, or say why not (``Refused``: show the form again).

    ``played``: the game replayed as the view read it (locked), which checked the form;
    it also tells whether the game is over. A hand that repeats the last one saved a
    moment ago is asked about first, unless the form says it was (``CONFIRM``)."""
    db = get_session()
    token = form.token.data or None
    if request.form.get(CONFIRM) != REPEAT:
        try:
            service.check_repeat(db, game, inputs, token)
        except service.Repeated as exc:
            # Asked about the sheet as it is now (another phone may have saved the hand
            # this one repeats): "Save it again" adds it there.
            form.version.data = str(game.version)
            return Refused(exc.number)
    try:
        number, _new = service.add_hand(
            db,
            game,
            inputs,
            token=token,
            version=version_of(form),
            by=by(),
            finished=lambda _game: bool(played.finished),
        )
        db.commit()
    except service.Conflict:
        rollback_to_reading()
        form.version.data = str(load(game.id)[0].version)
        form.form_errors = [
            _(
                "Another phone changed this game while you were entering this hand, so it was "
                "not saved. Check the sheet; if your hand is still missing, press Save again."
            )
        ]
        return Refused()
    except service.GameOver as exc:
        rollback_to_reading()
        form.form_errors = [full() if isinstance(exc, service.Full) else
                            _("The game is over: no more hands. Corrections still work.")]
        return Refused()
    except IntegrityError:
        # Two phones raced past the checks at once; the loser is told, nothing doubles.
        rollback_to_reading()
        earlier = service.duplicate_of(db, game, token)
        if earlier is not None and earlier.hand_number is not None:  # the same form again
            number = earlier.hand_number
            flash(_("%(what)s %(number)s saved.", what=variant.hand_word, number=number))
            return to_sheet(game, f"#hand-{number}")
        if earlier is not None:
            return to_sheet(game)
        form.form_errors = [
            _(
                "Another phone saved a hand at the same moment. "
                "Check the sheet and save again if needed."
            )
        ]
        return Refused()
    flash(_("%(what)s %(number)s saved.", what=variant.hand_word, number=number))
    return to_sheet(game, f"#hand-{number}")


def save_edit(
    game: Game, variant: Variant, number: int, inputs: StoredHand, form: FlaskForm
) -> Response | None:
    """Replace a hand's inputs and redirect, or explain a lost race."""
    db = get_session()
    try:
        service.edit_hand(db, game, number, inputs, version=version_of(form), by=by())
        db.commit()
    except service.Full:
        rollback_to_reading()
        form.form_errors = [full()]
        return None
    except service.Conflict:
        rollback_to_reading()
        form.version.data = str(load(game.id)[0].version)
        form.form_errors = [
            _(
                "Another phone changed this game while you were editing, so your correction "
                "was not saved. Check the sheet, then save again."
            )
        ]
        return None
    flash(
        _(
            "%(what)s %(number)s corrected; everything after it is recomputed.",
            what=variant.hand_word,
            number=number,
        )
    )
    return to_sheet(game, f"#hand-{number}")


def full() -> str:
    """Why a game that holds as much as one game may (``service.Full``) saved nothing."""
    return str(_(
        "This game holds as much as one game may (%(hands)s hands, %(changes)s changes in "
        "its history), so nothing more is saved in it. Start a new game.",
        hands=limits.MOST_HANDS, changes=limits.MOST_CHANGES,
    ))
