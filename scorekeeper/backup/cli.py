"""``flask --app scorekeeper export`` and ``flask --app scorekeeper import FILE``."""

from __future__ import annotations

import json
import sys
from typing import IO

import click
from flask import current_app
from sqlalchemy.orm import Session

from . import bp
from .archive import ArchiveError, export_all, export_game, read_archive, save_games
from .groups import all_groups, read_groups


def _session() -> Session:
    session: Session = current_app.extensions["scorekeeper.db"]()
    return session


@bp.cli.command("export")
@click.option("--game", "game_id", help="Export only this game (its id).")
def export_command(game_id: str | None) -> None:
    """Write every game (or one) as JSON to standard output."""
    from ..models import Game

    with _session() as db:
        if game_id is None:
            document = export_all(db)
            document["groups"] = all_groups(db)
        else:
            game = db.get(Game, game_id)
            if game is None:
                raise click.ClickException(f"there is no game {game_id!r}")
            document = export_game(game)
    json.dump(document, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


@bp.cli.command("import")
@click.argument("file", type=click.File("rb"))
def import_command(file: IO[bytes]) -> None:
    """Read an export file and create its games as new games."""
    try:
        document = json.loads(file.read())
        games = read_archive(document)
        groups = read_groups(document, games)
    except ArchiveError as exc:
        for where, message in exc.problems:
            click.echo(f"{where}: {message}", err=True)
        raise click.ClickException("nothing was imported") from None
    except (ValueError, RecursionError):
        raise click.ClickException("this is not a JSON export file; nothing was imported") from None
    with _session() as db:
        save_games(db, games)
        db.add_all(groups)
        db.commit()
        for group in groups:
            link = f"/groups/{group.id}?key={group.edit_secret}"
            click.echo(f"imported group {group.id}: edit link {link}")
        for game in games:
            click.echo(f"imported {game.id}: edit link /g/{game.id}?key={game.edit_secret}")
