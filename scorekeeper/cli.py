"""The ``scorekeeper`` command of an installed package (``pip install``/``pipx install``).

``scorekeeper serve`` migrates the database, then runs gunicorn as ``make run`` does
(``gunicorn_args``);
``migrate``, ``export`` and ``import`` are the app's own commands (the same ones as
``flask --app scorekeeper ...``). ``--instance DIR`` (or ``SCOREKEEPER_INSTANCE_PATH``)
says where the SQLite database, the secret key and ``config.py`` live.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click
from flask.cli import FlaskGroup, ScriptInfo, pass_script_info

from . import create_app
from .limits import LARGE_BODIES, MOST_BODY

THREADS = 8  # per worker process: the threads that run the app's requests
# gunicorn's hooks: each worker freezes the built app out of garbage collection.
GUNICORN_CONFIG = "python:scorekeeper.gunicorn_config"
MOST_WORKERS = 4
APP = "scorekeeper:create_app()"  # what gunicorn serves
# gunicorn's default access log line with the path alone (``%(U)s``) where the default
# has the request line (``%(r)s``), and without the Referer: an edit link carries the
# game's or group's secret in its query string (``?key=…``), and a log keeps it.
ACCESS_LOG_FORMAT = '%(h)s %(l)s %(u)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s "%(a)s"'


def default_workers() -> int:
    """Two worker processes per CPU core this process may use, at most four.

    A request is mostly Python holding its process's interpreter, so one process per
    core leaves a core idle while the other's threads take turns; two per core keep
    both busy (docs/performance.md). Four at most: enough for any table, and on
    PostgreSQL four workers of eight threads hold at most 32 connections, well under
    its default limit of 100.
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(MOST_WORKERS, 2 * cores))


def gunicorn_args(host: str, port: int, workers: int, *, threads: int = THREADS,
                  app: str = APP, access_log: bool = True) -> list[str]:
    """The gunicorn command line, after the program name: gunicorn's asgi workers
    serving ``app`` (a WSGI app, named as gunicorn names one) on ``threads`` threads
    each, once a request has come in whole, if its body is no longer than its address
    takes (``limits.MOST_BODY``; ``limits.LARGE_BODIES``: the import's form) —
    ``scorekeeper.gunicorn_config.threaded``;
    the hooks of ``scorekeeper.gunicorn_config``; the access log on standard output
    (paths without their query strings: ``ACCESS_LOG_FORMAT``). The benches start
    the same server with other ``threads``, another ``app`` (their bare reference
    route) and, instead of the access log, warnings only."""
    logging = (["--access-logfile=-", f"--access-logformat={ACCESS_LOG_FORMAT}"]
               if access_log else ["--log-level=warning"])
    return [
        f"--bind={host}:{port}",
        f"--workers={workers}",
        "--worker-class=asgi",
        f"--config={GUNICORN_CONFIG}",
        *logging,
        f"scorekeeper.gunicorn_config:threaded({app!r}, {threads}, {MOST_BODY}, "
        f"{LARGE_BODIES!r})",
    ]


def _instance(_ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    # Before any command builds the app, and inherited by gunicorn's workers.
    if value:
        os.environ["SCOREKEEPER_INSTANCE_PATH"] = os.path.abspath(os.path.expanduser(value))


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--workers",
    default=default_workers,
    show_default=f"2 per CPU core, at most {MOST_WORKERS}",
    type=click.IntRange(1),
    help="Worker processes.",
)
@pass_script_info
def serve_command(info: ScriptInfo, host: str, port: int, workers: int) -> None:
    """Bring the database up to date, then serve the app with gunicorn."""
    from .db import upgrade
    from .lan import urls_message

    # The app learns where it listens (the home page offers the addresses to phones).
    os.environ["SCOREKEEPER_LISTEN_HOST"] = host
    os.environ["SCOREKEEPER_LISTEN_PORT"] = str(port)
    app = info.load_app()
    engine = app.extensions["scorekeeper.engine"]
    upgrade(engine)
    engine.dispose()
    click.echo(f"database is up to date; serving on http://{host}:{port}", err=True)
    with app.app_context():
        click.echo(urls_message(), err=True)
    argv = [sys.executable, "-m", "gunicorn", *gunicorn_args(host, port, workers)]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, argv)


class ScorekeeperGroup(FlaskGroup):
    """Flask's command group on ``create_app`` without the development commands."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            create_app=create_app,
            add_default_commands=False,
            load_dotenv=False,
            set_debug_flag=False,
            **kwargs,
        )
        self.params.append(
            click.Option(
                ["--instance"],
                metavar="DIR",
                expose_value=False,
                is_eager=True,
                callback=_instance,
                help="Folder of the SQLite database, secret key and config.py (default: "
                "SCOREKEEPER_INSTANCE_PATH, else instance/ of a source checkout, else "
                "$XDG_DATA_HOME/scorekeeper, i.e. ~/.local/share/scorekeeper).",
            )
        )
        self.add_command(serve_command)


main = ScorekeeperGroup(name="scorekeeper", help="Score sheets for a real card table.")
