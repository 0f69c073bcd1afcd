"""Backup: export games as JSON and import them back as new games.

``GET /g/<id>/export.json`` and ``flask --app scorekeeper export`` write the files;
the ``/import`` page and ``flask --app scorekeeper import FILE`` read them back.
"""

from typing import Any

from flask import Blueprint, render_template

from ..services import page_parts

# cli_group=None: the commands are ``flask export`` / ``flask import``, not ``flask backup …``
bp = Blueprint("backup", __name__, cli_group=None)


def game_export(game: Any, **_page: Any) -> str:
    """The export link among a game's sheet's actions."""
    return render_template("backup/_game_actions.html", game=game)


def night_export(night: Any, **_page: Any) -> str:
    """The export link among a night's organiser's actions."""
    return render_template("backup/_night_actions.html", night=night)


@bp.record_once
def _show_the_links(state: Any) -> None:
    page_parts.add(state.app, page_parts.GAME_ACTIONS, game_export)
    page_parts.add(state.app, page_parts.NIGHT_ACTIONS, night_export)


from . import cli, views  # noqa: E402,F401 - the routes and commands register themselves
