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
from .nights import all_nights, export_night, read_nights


def _session() -> Session:
    session: Session = current_app.extensions["scorekeeper.db"]()
    return session


@bp.cli.command("export")
@click.option("--game", "game_id", help="Export only this game (its id).")
@click.option("--night", "night_id", help="Export only this club night and its games (its id).")
def export_command(game_id: str | None, night_id: str | None) -> None:
    """Write every game, group and night (or one game, or one night) as JSON to
    standard output."""
    from ..models import Game, Night

    with _session() as db:
        if night_id is not None:
            night = db.get(Night, night_id)
            if night is None:
                raise click.ClickException(f"there is no night {night_id!r}")
            document = export_night(db, night)
        elif game_id is None:
            document = export_all(db)
            document["groups"] = all_groups(db)
            document["nights"] = all_nights(db)
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
    """Read an export file and create its games (groups, nights) as new ones."""
    try:
        document = json.loads(file.read())
        games = read_archive(document)
        groups = read_groups(document, games)
        nights = read_nights(document, games, groups)
    except ArchiveError as exc:
        for where, message in exc.problems:
            click.echo(f"{where}: {message}", err=True)
        raise click.ClickException("nothing was imported") from None
    except (ValueError, RecursionError):
        raise click.ClickException("this is not a JSON export file; nothing was imported") from None
    with _session() as db:
        save_games(db, games)
        db.add_all(groups)
        db.add_all(nights)
        db.commit()
        for night in nights:
            link = f"/n/{night.id}?key={night.organiser_secret}"
            click.echo(f"imported night {night.id}: organiser's link {link}")
        for group in groups:
            link = f"/groups/{group.id}?key={group.edit_secret}"
            click.echo(f"imported group {group.id}: edit link {link}")
        for game in games:
            click.echo(f"imported {game.id}: edit link /g/{game.id}?key={game.edit_secret}")
