"""Helpers the game views share: loading and locking a game, saving a hand safely."""

from __future__ import annotations

from dataclasses import dataclass

from flask import flash, redirect, request, url_for
from flask_babel import gettext as _
from flask_wtf import FlaskForm
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from .. import limits
from ..db import writing
from ..hands.stored import StoredHand
from ..models import Game
from ..services import access
from ..services import games as service
from ..services.games import load, lock_again, read_for_change
from ..variants import Variant
from ..variants.sheet_cache import keep_sheet
from ..variants.window import SHEET_PAGE, Window


def for_method(game_id: str) -> tuple[Game, Variant]:
    """The game for an editor: read for a change on a POST (``read_for_change``: no lock
    yet), plain for a GET."""
    if request.method == "POST":
        return read_for_change(game_id)
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


def this_editor() -> str:
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


def to_hand(game: Game, number: int, count: int) -> Response:
    """Back to the sheet's page that shows hand ``number`` of ``count``."""
    page = Window.holding(count, number, size=SHEET_PAGE)
    url = url_for("games.sheet", game_id=game.id, page=page if page > 1 else None)
    return redirect(f"{url}#hand-{number}")


def save_new(
    game: Game, variant: Variant, inputs: StoredHand, form: FlaskForm
) -> Response | Refused:
    """Add the hand and redirect, or say why not (``Refused``: show the form again, the
    request reading again without a lock).

    ``game``: as ``read_for_change`` read it, its replay (kept per version) checked the
    form and tells whether the game is over, and the hand is played on it
    (``Variant.sheet_with``: only the hand is scored) into the sheet kept for the
    version the save makes; the write locks the game again, and the form's version,
    checked under the lock, is the one that replay was made from. A hand that repeats
    the last one saved a moment ago is asked about first, under the lock, unless the
    form says it was (``CONFIRM``)."""
    played = variant.sheet(game)
    saved = variant.sheet_with(game, inputs)
    locked = lock_again(game, hands=False)
    token = form.token.data or None
    try:
        with writing() as db:
            if request.form.get(CONFIRM) != REPEAT:
                try:
                    service.check_repeat(db, locked, inputs, token)
                except service.Repeated:
                    # Asked about the sheet as it is now (another phone may have saved the
                    # hand this one repeats): "Save it again" adds it there.
                    form.version.data = str(locked.version)
                    raise
            number, new = service.add_hand(
                db,
                locked,
                inputs,
                token=token,
                version=version_of(form),
                by=this_editor(),
                finished=lambda _game: bool(played.finished),
            )
    except service.Repeated as exc:
        return Refused(exc.number)
    except service.Conflict:
        form.version.data = str(load(game.id)[0].version)
        form.form_errors = [
            _(
                "Another phone changed this game while you were entering this hand, so it was "
                "not saved. Check the sheet; if your hand is still missing, press Save again."
            )
        ]
        return Refused()
    except service.GameOver as exc:
        form.form_errors = [game_full_message() if isinstance(exc, service.Full) else
                            _("The game is over: no more hands. Corrections still work.")]
        return Refused()
    except IntegrityError:
        # Two phones raced past the checks at once; the loser is told, nothing doubles.
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
    if new:  # the replay the sheet this answer redirects to would make
        keep_sheet(locked, saved)
    flash(_("%(what)s %(number)s saved.", what=variant.hand_word, number=number))
    return to_sheet(game, f"#hand-{number}")


def save_edit(
    game: Game, variant: Variant, number: int, inputs: StoredHand, form: FlaskForm
) -> Response | None:
    """Replace a hand's inputs and redirect, or explain a lost race (the game locked
    again for the write, as in ``save_new``)."""
    locked = lock_again(game)
    try:
        with writing() as db:
            service.edit_hand(db, locked, number, inputs, version=version_of(form),
                              by=this_editor())
    except service.Full:
        form.form_errors = [game_full_message()]
        return None
    except service.Conflict:
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
    return to_hand(game, number, len(game.hands))


def settled() -> str:
    """Why a club night's table whose result is confirmed (``service.Settled``) saved
    nothing."""
    return str(_(
        "The result of this table is confirmed, so its game takes no more changes. The "
        "night's organiser can reopen the table."
    ))


def game_full_message() -> str:
    """Why a game that holds as much as one game may (``service.Full``) saved nothing."""
    return str(_(
        "This game holds as much as one game may (%(hands)s hands, %(changes)s changes in "
        "its history), so nothing more is saved in it. Start a new game.",
        hands=limits.MOST_HANDS, changes=limits.MOST_CHANGES,
    ))
