"""The backup pages: a game's JSON export, and the import form."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask import Response, abort, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from sqlalchemy import select
from werkzeug.wrappers import Response as WerkzeugResponse

from .. import limits
from ..db import get_session, writing
from ..models import Game, Group, Import, Night
from ..security import is_token
from ..services import access, night_access
from ..services.groups import load_group
from ..variants import VARIANTS
from . import bp
from .archive import ArchiveError, export_game, read_archive, save_games
from .groups import export_group, read_groups
from .nights import export_night, read_nights


class ImportForm(FlaskForm):
    """An export file to bring back as new games."""

    file = FileField(_l("Export file (.json)"), validators=[FileRequired()])


@bp.get("/g/<game_id>/export.json")
def export(game_id: str) -> Response:
    """The whole game and its history as a JSON file, for anyone with the link."""
    game = get_session().get(Game, game_id)
    if game is None:
        abort(404)
    body = json.dumps(export_game(game), ensure_ascii=False, indent=1)
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="scorekeeper-{game.id}.json"'
    return response


@bp.get("/groups/<group_id>/export.json")
def export_group_file(group_id: str) -> Response:
    """A group, its games, payments and nights as one JSON file, for anyone with the
    link; a night's history only for the browser that runs the night."""
    db = get_session()
    group = load_group(db, group_id)
    document = export_group(db, group, night_access.can_organise)
    body = json.dumps(document, ensure_ascii=False, indent=1)
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="scorekeeper-group-{group.id}.json"'
    )
    return response


@bp.get("/n/<night_id>/export.json")
def export_night_file(night_id: str) -> Response:
    """A club night, its rounds, tables, results and history, and its games, as one JSON
    file: for its organiser (the file holds the night's history)."""
    db = get_session()
    night = db.get(Night, night_id) if is_token(night_id) else None
    if night is None:
        abort(404)
    night_access.require_organiser(night)
    body = json.dumps(export_night(db, night), ensure_ascii=False, indent=1)
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="scorekeeper-night-{night.id}.json"'
    )
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.url_value_preprocessor
def _import_size(endpoint: str | None, _values: dict[str, object] | None) -> None:
    """An import file may be as large as the largest game's export
    (``limits.IMPORT_BYTES``), every other request as ``MAX_CONTENT_LENGTH``. Set before
    any ``before_request`` reads the form (the CSRF check does). Only a multipart body
    (the form with its file): its file goes to a temporary file and its other fields are
    held to ``MAX_FORM_MEMORY_SIZE``, where any other body would be read whole."""
    if endpoint == "backup.import_games" and request.mimetype == "multipart/form-data":
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
        with writing():  # nothing is written before the file is read through
            with form.file.data.stream as file:  # a large one is a temporary file: closed
                document = json.loads(file.read())
            games = read_archive(document)
            groups = read_groups(document, games)
            nights = read_nights(document, games, groups)
    except ArchiveError as exc:
        return _refused(form, exc.problems)
    except (ValueError, RecursionError):  # not JSON, not UTF-8, nested too deep
        return _refused(form, [("file", _("This is not a JSON export file."))])
    db = get_session()
    save_games(db, games)
    db.add_all(groups)
    db.add_all(nights)
    db.flush()  # the new ids
    made = Import(games=[game.id for game in games], groups=[group.id for group in groups],
                  nights=[night.id for night in nights])
    db.add(made)
    db.commit()
    session[IMPORTS] = [made.id, *imports_made()][:KEPT_IMPORTS]
    # Rights this browser held stay: the new ones take only the room left (every edit
    # link is on the import's page, and in its file, all the same).
    all_fit = (len(access.grant_while_room(games)) == len(games)
               and len(access.grant_while_room(groups)) == len(groups)
               and len(night_access.grant_while_room(nights)) == len(nights))
    if nights:  # the organiser's links are on the import's page
        flash(ngettext("%(num)d club night imported.", "%(num)d club nights imported.",
                       len(nights)))
        return redirect(url_for("backup.imported", import_id=made.id))
    if all_fit and len(groups) == 1:
        flash(ngettext("%(num)d game imported.", "%(num)d games imported.", len(games)))
        return redirect(url_for("groups.page", group_id=groups[0].id))
    if all_fit and len(games) == 1 and not groups:
        flash(_("Game imported. This phone can enter hands."))
        return redirect(url_for("games.sheet", game_id=games[0].id))
    flash(ngettext("%(num)d game imported.", "%(num)d games imported.", len(games)))
    return redirect(url_for("backup.imported", import_id=made.id))


IMPORTS = "imports"  # the session's list of this browser's imports, newest first
KEPT_IMPORTS = 5


def imports_made() -> list[str]:
    """Ids of this browser's latest imports, newest first."""
    ids = session.get(IMPORTS, [])
    return [str(i) for i in ids] if isinstance(ids, list) else []


@dataclass(frozen=True)
class Made:
    """What an import made that is still there, in the file's order."""

    made: Import
    games: list[Game]
    groups: list[Group]
    nights: list[Night]


def _made(import_id: str) -> Made:
    """An import of this browser's, its games, groups and nights in the file's order (a
    game deleted since is left out); 404 for any other browser."""
    if import_id not in imports_made():
        abort(404)
    db = get_session()
    made = db.get(Import, import_id) or abort(404)
    games = {g.id: g for g in db.scalars(select(Game).where(Game.id.in_(made.games)))}
    groups = {g.id: g for g in db.scalars(select(Group).where(Group.id.in_(made.groups)))}
    night_ids = made.nights or []
    nights = {n.id: n for n in db.scalars(select(Night).where(Night.id.in_(night_ids)))}
    return Made(made, [games[i] for i in made.games if i in games],
                [groups[i] for i in made.groups if i in groups],
                [nights[i] for i in night_ids if i in nights])


def _night_links(nights: list[Night]) -> list[Link]:
    """Each night an import made, by its organiser's link."""
    return [Link(night.name or _("Club night"),
                 ngettext("%(num)d player", "%(num)d players", len(night.players)),
                 url_for("nights.organiser", night_id=night.id, key=night.organiser_secret,
                         _external=True),
                 night_access.can_organise(night)) for night in nights]


def _links(games: list[Game], groups: list[Group]) -> tuple[list[Link], list[Link]]:
    return (
        [Link(" – ".join(game.players), VARIANTS[game.variant].label,
              url_for("games.sheet", game_id=game.id, key=game.edit_secret, _external=True),
              access.can_edit(game)) for game in games],
        [Link(group.name, None,
              url_for("groups.page", group_id=group.id, key=group.edit_secret, _external=True),
              access.can_edit(group)) for group in groups],
    )


@dataclass(frozen=True)
class Link:
    """A game or group an import made, and its edit link."""

    name: str
    kind: Any
    url: str
    editable: bool  # whether this browser may edit it already


@bp.get("/imports/<import_id>")
def imported(import_id: str) -> Response:
    """Every game (group, night) an import made, with its edit (organiser's) link, and
    the file of them."""
    found = _made(import_id)
    game_links, group_links = _links(found.games, found.groups)
    response = Response(render_template("backup/imported.html", made=found.made,
                                        games=game_links, groups=group_links,
                                        nights=_night_links(found.nights),
                                        remembered=access.REMEMBERED))
    response.headers["Cache-Control"] = "private, no-store"  # edit secrets
    return response


@bp.get("/imports/<import_id>/links.txt")
def imported_links(import_id: str) -> Response:
    """The edit links of an import as a text file: a line a game (or group)."""
    found = _made(import_id)
    made = found.made
    game_links, group_links = _links(found.games, found.groups)
    heading = _("Scorekeeper: the edit links of the games imported on %(date)s. Anyone with a "
                "link can change its game.", date=made.created_at.date().isoformat())
    links = _night_links(found.nights) + group_links + game_links
    body = render_template("backup/links.txt", heading=heading, links=links)
    response = Response(body, mimetype="text/plain")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="scorekeeper-import-{made.created_at:%Y-%m-%d}.txt"'
    )
    response.headers["Cache-Control"] = "private, no-store"
    return response


def _refused(form: ImportForm, problems: list[tuple[str, str]]) -> tuple[str, int]:
    """The form again with every problem; nothing was written."""
    shown = problems[:50]
    return render_template("backup/import.html", form=form, problems=shown,
                           more=len(problems) - len(shown)), 422
