"""The backup pages: a game's JSON export, and the import form."""

from __future__ import annotations

import json

from flask import Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from werkzeug.wrappers import Response as WerkzeugResponse

from .. import limits
from ..db import get_session, rollback_to_reading
from ..games.access import grant_edit
from ..groups.service import load_group
from ..models import Game
from . import bp
from .archive import ArchiveError, export_game, read_archive, save_games
from .groups import export_group, read_groups


class ImportForm(FlaskForm):
    """An export file to bring back as new games."""

    file = FileField(_l("Export file (.json)"), validators=[FileRequired()])


@bp.get("/g/<game_id>/export.json")
def export(game_id: str) -> Response:
    """The whole game and its history as a JSON file, for anyone with the link."""
    # PostgreSQL refuses a NUL in a text value outright; no id holds one anyway.
    game = get_session().get(Game, game_id) if "\x00" not in game_id else None
    if game is None:
        abort(404)
    body = json.dumps(export_game(game), ensure_ascii=False, indent=1)
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="scorekeeper-{game.id}.json"'
    return response


@bp.get("/groups/<group_id>/export.json")
def export_group_file(group_id: str) -> Response:
    """A group, its games and payments as one JSON file, for anyone with the link."""
    db = get_session()
    group = load_group(db, group_id)
    body = json.dumps(export_group(db, group), ensure_ascii=False, indent=1)
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="scorekeeper-group-{group.id}.json"'
    )
    return response


@bp.url_value_preprocessor
def _import_size(endpoint: str | None, _values: dict[str, object] | None) -> None:
    """An import file may be as large as the largest game's export
    (``limits.IMPORT_BYTES``), every other request as ``MAX_CONTENT_LENGTH``. Set before
    any ``before_request`` reads the form (the CSRF check does)."""
    if endpoint == "backup.import_games":
        request.max_content_length = limits.IMPORT_BYTES


@bp.route("/import", methods=["GET", "POST"])
@limits.imports
def import_games() -> str | tuple[str, int] | WerkzeugResponse:
    """Bring games back from an export file, as new games this browser may edit."""
    form = ImportForm()
    if not form.validate_on_submit():
        status = 422 if form.is_submitted() else 200
        return render_template("backup/import.html", form=form, problems=[]), status
    try:
        with form.file.data.stream as file:  # a large one is a temporary file: closed
            document = json.loads(file.read())
        games = read_archive(document)
        groups = read_groups(document, games)
    except ArchiveError as exc:
        return _refused(form, exc.problems)
    except (ValueError, RecursionError):  # not JSON, not UTF-8, nested too deep
        return _refused(form, [("file", _("This is not a JSON export file."))])
    db = get_session()
    save_games(db, games)
    db.add_all(groups)
    db.commit()
    for game in reversed(games):  # the first game ends up at the top of the home page
        grant_edit(game)
    for group in reversed(groups):
        grant_edit(group)
    if len(groups) == 1:
        flash(ngettext("%(num)d game imported.", "%(num)d games imported.", len(games)))
        return redirect(url_for("groups.page", group_id=groups[0].id))
    if len(games) == 1:
        flash(_("Game imported. This phone can enter hands."))
        return redirect(url_for("games.sheet", game_id=games[0].id))
    flash(ngettext("%(num)d game imported.", "%(num)d games imported.", len(games)))
    return redirect(url_for("games.home"))


def _refused(form: ImportForm, problems: list[tuple[str, str]]) -> tuple[str, int]:
    """The form again with every problem; nothing was written."""
    rollback_to_reading()
    shown = problems[:50]
    return render_template("backup/import.html", form=form, problems=shown,
                           more=len(problems) - len(shown)), 422
