"""A game's history, and handing editing to another phone with a PIN."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import flash, render_template, request
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ..db import Unchanged, get_session, writing
from ..forms import EmptyForm, PinForm, SetPinForm
from ..hands.stored import stored_hand
from ..models import Change, Game
from ..rulebook.content import game_card
from ..scoring.rules import Rules
from ..services import access
from ..services import games as service
from ..services.games import load, locked
from ..variants import Variant
from ..variants.window import HISTORY_PAGE, Window
from ..variants.wording import Clause, change_sentence, entry_inputs
from . import bp
from .common import game_full_message, this_editor, to_sheet


@bp.get("/g/<game_id>/history")
def history(game_id: str) -> str:
    """Every change to the game, the latest first, a page at a time: what, when, old
    and new values."""
    game, variant = load(game_id)
    changes = list(game.changes)
    editable = access.can_edit(game) and not service.settled(get_session(), game)
    page = Window.of(len(changes), request.args.get("page"), size=HISTORY_PAGE)
    entries = [
        (change, _sentence(game, variant, change), _rule(game, variant, change))
        for change in reversed(changes[page.start:page.stop])
    ]
    return render_template(
        "games/history.html",
        game=game,
        variant=variant,
        page=page,
        entries=entries,
        restorable=service.restorable(changes) if editable else set(),
        empty=EmptyForm(),
        # A change that cites a rule of the game names it by its title on the game's card.
        rule_titles={rule.anchor: rule.title
                     for rule in game_card(game.variant, Rules.from_dict(game.rules)).items},
    )


def _sentence(game: Game, variant: Variant, change: Change) -> str:
    number = change.hand_number or 1

    def describe(inputs: Mapping[str, Any]) -> list[Clause]:
        return variant.describe_inputs(game, number, stored_hand(inputs))

    return change_sentence(
        change.action, change.hand_number, variant.hand_word, change.before, change.after, describe
    )


def _rule(game: Game, variant: Variant, change: Change) -> str:
    """The rule a hand's entry applied (its anchor on the game's card); ``""`` for the
    other entries."""
    if change.hand_number is None:
        return ""
    inputs = entry_inputs(change.action, change.before, change.after)
    return variant.rule_applied(game, stored_hand(inputs)) if inputs is not None else ""


@bp.route("/g/<game_id>/unlock", methods=["GET", "POST"])
def unlock(game_id: str) -> str | Response | tuple[str, int]:
    """Another phone at the table takes over editing with the game's PIN."""
    form = PinForm()
    if not form.is_submitted():
        game, _variant = load(game_id)
        return render_template("games/unlock.html", game=game, form=form)
    try:
        with writing():
            if not form.validate():
                raise Unchanged
            # The PIN's hash is worked out first, with no lock held; then the try is counted.
            check = access.check_pin(Game, game_id, form.pin.data.strip())
            game, _variant = locked(game_id, editing=False)
            ok = access.record_pin(game, check)
    except Unchanged:  # drawn again without the write lock
        game, _variant = load(game_id)
        return render_template("games/unlock.html", game=game, form=form), 422
    if ok:
        access.grant_edit(game, via_pin=True)
        flash(_("This phone can now enter hands."))
        return to_sheet(game)
    form.pin.errors = [_("That PIN is not right.")]
    return render_template("games/unlock.html", game=game, form=form), 422


@bp.post("/g/<game_id>/pin")
def set_pin(game_id: str) -> Response:
    """Set or change the game's PIN (the edit link's holder only): the phones the old
    one let in keep score no longer."""
    form = SetPinForm()
    try:
        with writing():
            game, _variant = locked(game_id)
            access.require_link(game)
            if not form.validate_on_submit():
                raise Unchanged
            service.record_event(game, "pin", this_editor())
            access.set_pin(game, form.pin.data)
    except service.Full:
        flash(game_full_message(), "warning")
        return to_sheet(game)
    except Unchanged:
        flash(" ".join(str(e) for e in form.pin.errors) or _("A PIN is 4 to 6 digits."),
              "warning")
        return to_sheet(game)
    flash(_("PIN set. Another phone can open the game and enter it."))
    return to_sheet(game)
