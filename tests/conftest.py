"""Fixtures: an app on a database emptied for each test (SQLite, or PostgreSQL), a
client, a CLI runner, and the HTML of the documents a test prints.

Each pytest worker builds one app (``app``) on a database of its own, migrated once,
and empties its tables before every test that uses an app: building an app took
0.1–0.45 s a test. ``make_app`` still builds new apps (for other settings, or two
"processes" on one database); a test that asks for ``database_url`` alone gets an
empty, unmigrated database.

The whole suite runs on SQLite. ``make test`` then runs on PostgreSQL the tests a
database can change, each once: saves and their history, locks and races, migrations,
imports and exports, and the queries behind pages (every route once, the live
versions, groups, nights, rulings). A test is chosen by its module being named in
``ON_POSTGRESQL`` below (its tests are marked ``postgresql``); ``@pytest.mark.once``
keeps a test of a chosen module off it. The PostgreSQL run is
``pytest --on-postgresql -m "postgresql and not once"`` (no other module is even
collected then): on the server ``SCOREKEEPER_TEST_DATABASE_URL`` names (set alone, it
puts any run on PostgreSQL), or else on a throwaway server started in each worker
(pytest-postgresql's executor: a data folder in a temporary folder, a free port, all
gone afterwards).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from datetime import timedelta
from functools import cache
from pathlib import Path
from typing import Any

import port_for
import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import HealthCheck, settings
from pytest_postgresql.executors import PostgreSQLExecutor
from sqlalchemy import Connection, Engine, MetaData, create_engine, inspect, make_url, text

from scorekeeper import create_app
from scorekeeper.db import current_revision, head_revision, make_engine, upgrade
from scorekeeper.models import Base
from tests.helpers import DEAD, api, keep_printed_html, knock, play
from tests.live import serve

# Tests never assert on wall-clock time, and Hypothesis would: its deadline and its
# "input generation is slow" check measure seconds, which move with the machine (a
# strategy of a few integers has taken 0.3 s a draw with two workers and a browser on
# two cores). How many examples run and
# what they reach is what the tests check; how fast they come is the benchmarks' part.
settings.register_profile(
    "scorekeeper", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("scorekeeper")


# The test modules run on PostgreSQL too (see the module's docstring); paths from the
# repository's root.
ON_POSTGRESQL = frozenset({
    # saves, their history, corrections and restores; edit rights and PINs kept in rows
    "tests/test_games.py", "tests/test_history.py", "tests/test_restore.py",
    "tests/test_service.py", "tests/test_stored_hands.py", "tests/test_api_hands.py",
    "tests/test_api_changes.py",
    "tests/test_one_replay.py", "tests/test_game_deals.py", "tests/test_second_look.py",
    "tests/test_trust_pin.py", "tests/test_trust_access.py", "tests/test_trust_names.py",
    # locks, races, connections
    "tests/test_db.py", "tests/test_trust_races.py", "tests/test_live.py",
    "tests/browser/test_race.py", "tests/browser/test_live.py",
    # migrations
    "tests/test_trust_migrations.py", "tests/test_night_deals_migration.py",
    "tests/test_rulings_about_games.py",
    # imports and exports
    "tests/test_backup_nights.py", "tests/test_backup_variants.py",
    "tests/test_trust_backup.py", "tests/test_exports.py",
    # the queries behind pages: every route once, groups, players, nights, rulings
    "tests/test_every_route.py", "tests/test_groups.py", "tests/test_group_payments.py",
    "tests/test_settle_up_payments.py", "tests/test_group_currency.py",
    "tests/test_ratings.py", "tests/test_player_page.py", "tests/test_stakes_api.py",
    "tests/test_rulings.py", "tests/test_ruling_settings_kept.py",
    "tests/nights/test_night_api.py", "tests/nights/test_night_changes.py",
    "tests/nights/test_night_live.py", "tests/nights/test_night_of_deals.py",
    "tests/nights/test_night_pages.py", "tests/nights/test_night_rulings.py",
    "tests/nights/test_night_killed.py", "tests/nights/test_night_lock_order.py",
    "tests/nights/test_night_confirmed.py",
})
ROOT = Path(__file__).resolve().parents[1]
# pg_ctl of the newest PostgreSQL server installed, run as the postgres user when the
# tests run as root (the server refuses to run as root).
PG_CTL = Path(__file__).with_name("pg_ctl")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--on-postgresql", action="store_true",
        help="run on PostgreSQL: the server SCOREKEEPER_TEST_DATABASE_URL names, else a "
             "throwaway server started for the run")


def pytest_configure(config: pytest.Config) -> None:
    """With ``--on-postgresql`` and no server named, start a throwaway one: in each
    pytest-xdist worker (never in the process that only hands out the tests), stopped
    and removed when the worker ends. Its address goes where a named one would, in
    ``SCOREKEEPER_TEST_DATABASE_URL`` (test modules read ``PG_URL`` when imported)."""
    global PG_URL
    if not config.getoption("on_postgresql") or os.environ.get(
            "SCOREKEEPER_TEST_DATABASE_URL"):
        return
    if not hasattr(config, "workerinput") and getattr(config.option, "numprocesses", None):
        return
    url, stop = throwaway_postgresql()
    config.add_cleanup(stop)
    os.environ["SCOREKEEPER_TEST_DATABASE_URL"] = url
    PG_URL = worker_database(url)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """On PostgreSQL, collect only the modules that run there."""
    if not config.getoption("on_postgresql") or collection_path.suffix != ".py":
        return None
    return collection_path.relative_to(ROOT).as_posix() not in ON_POSTGRESQL


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests of the modules in ``ON_POSTGRESQL`` ``postgresql``, every browser
    test ``browser`` and every test served by a real server (``base``) ``slow``."""
    for item in items:
        path = item.path.relative_to(ROOT).as_posix()
        if path in ON_POSTGRESQL:
            item.add_marker(pytest.mark.postgresql)
        if path.startswith("tests/browser/"):
            item.add_marker(pytest.mark.browser)
        if "base" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


def throwaway_postgresql() -> tuple[str, Callable[[], None]]:
    """A new PostgreSQL server in a temporary folder on a free port: its URL, and the
    function that stops it and removes the folder."""
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-postgresql-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    server = PostgreSQLExecutor(
        executable=str(PG_CTL), host="127.0.0.1", port=port_for.select_random(),
        datadir=str(folder / "data"), unixsocketdir=str(folder),
        logfile=str(folder / "server.log"), startparams="-w", dbname="test",
        # Nothing here outlives the run: no waiting for the disk.
        postgres_options="-c fsync=off -c synchronous_commit=off -c full_page_writes=off",
    )
    server.start()

    def stop() -> None:
        try:
            server.stop()
        finally:
            # The server's last files (its socket's lock) may go a moment after it
            # stopped: the folder is removed once nothing is left in it.
            for _ in range(50):
                shutil.rmtree(folder, ignore_errors=True)
                if not folder.exists():
                    break
                time.sleep(0.1)

    return f"postgresql+psycopg://postgres@127.0.0.1:{server.port}/test", stop


def worker_database(url: str | None) -> str | None:
    """The PostgreSQL database of this pytest-xdist worker (``test_gw0``, ``test_gw1``…,
    created when missing): every test empties its database, so workers need their own."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    if not url:
        return url
    base = make_url(url)
    name = f"{base.database}_{worker}"
    engine = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        found = conn.scalar(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name})
        if not found:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


PG_URL = worker_database(os.environ.get("SCOREKEEPER_TEST_DATABASE_URL"))


def reset_postgres(url: str) -> None:
    """Empty the test database so every test starts from a clean migration."""
    with _cleaning_engine(url).begin() as conn:
        _drop_schema(conn)


def _drop_schema(conn: Connection) -> None:
    conn.execute(text("DROP SCHEMA public CASCADE"))
    conn.execute(text("CREATE SCHEMA public"))


def empty_tables(url: str) -> None:
    """Empty every table of the worker's database, keeping its schema, when the schema
    is the migrations' head; otherwise (a test left it at another revision) drop
    everything and migrate it again. Dropping and migrating took about 0.2 s a test;
    deleting the few rows a test leaves takes milliseconds (``TRUNCATE`` is slower on
    PostgreSQL: it makes every table's files anew)."""
    engine = _cleaning_engine(url)
    if current_revision(engine) != head_revision():
        with engine.begin() as conn:
            if engine.dialect.name == "postgresql":
                _drop_schema(conn)
            else:
                found = MetaData()
                found.reflect(conn)
                found.drop_all(conn)
        upgrade(engine)
        return
    with engine.begin() as conn:
        # The head's tables are the models': the ones that refer to others first. Ids
        # start from 1 again, as when new.
        for table in reversed(Base.metadata.sorted_tables):
            conn.execute(table.delete())
        if engine.dialect.name == "postgresql":
            for name in conn.scalars(text(
                    "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")):
                conn.execute(text(f'ALTER SEQUENCE "{name}" RESTART'))
        elif inspect(conn).has_table("sqlite_sequence"):
            conn.execute(text("DELETE FROM sqlite_sequence"))


@cache
def _cleaning_engine(url: str) -> Engine:
    # One connection kept for the worker's whole run; checked before each use, since
    # some tests restart the database's connections.
    return create_engine(url, pool_size=1, pool_pre_ping=True)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite file migrated to the head once per worker."""
    path = tmp_path_factory.mktemp("migrated") / "head.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    engine.dispose()
    with closing(sqlite3.connect(path)) as conn:  # all in the one file, no WAL beside it
        conn.execute("PRAGMA journal_mode=DELETE")
    return path


@pytest.fixture(scope="session")
def worker_database_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """This worker's database for apps, migrated to the head (emptied before each test
    that builds or uses an app)."""
    if PG_URL:
        return PG_URL
    path = tmp_path_factory.mktemp("worker") / "test.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    engine.dispose()
    return f"sqlite:///{path}"


@pytest.fixture
def database_url(tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """The test's database: for a test that uses apps (``app``, ``make_app``), the
    worker's, migrated, its tables emptied; for any other, an empty one."""
    if "make_app" in request.fixturenames:
        url: str = request.getfixturevalue("worker_database_url")
        empty_tables(url)
        return url
    if PG_URL:
        reset_postgres(PG_URL)
        return PG_URL
    return f"sqlite:///{tmp_path / 'test.sqlite'}"


TEST_CONFIG = {
    "TESTING": True,
    "SECRET_KEY": "test",
    "WTF_CSRF_ENABLED": False,
    # Tests create games by the dozen; the limits' own tests turn them on.
    "RATELIMIT_ENABLED": False,
    # Tests enter the same hand twice in a row; test_repeats asks about it.
    "REPEAT_WINDOW": timedelta(0),
}


@pytest.fixture
def make_app(database_url: str) -> Iterator[Any]:
    """Build new apps on the test's database (several share it, like several
    processes)."""
    apps: list[Flask] = []

    def build(**config: Any) -> Flask:
        app = create_app({**TEST_CONFIG, "DATABASE_URL": database_url, **config})
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.extensions["scorekeeper.engine"].dispose()


@pytest.fixture(scope="session")
def worker_app(worker_database_url: str) -> Iterator[Flask]:
    """The app this worker's tests share (``app``)."""
    app = create_app({**TEST_CONFIG, "DATABASE_URL": worker_database_url})
    yield app
    app.extensions["scorekeeper.engine"].dispose()


@pytest.fixture
def app(make_app: Any, worker_app: Flask) -> Iterator[Flask]:
    """The app under test, CSRF off (one test module turns it on), on tables emptied
    for the test; settings a test changes are put back after it. A test that adds
    routes builds its own with ``make_app``."""
    config = dict(worker_app.config)
    yield worker_app
    worker_app.config.clear()
    worker_app.config.update(config)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A browser without JavaScript."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """The ``flask`` command line."""
    return app.test_cli_runner()


@pytest.fixture
def typeset(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The HTML of every document typeset during the test, in order."""
    return keep_printed_html(monkeypatch, typeset=True)


@pytest.fixture
def friday(client: FlaskClient) -> dict[str, Any]:
    """The group Friday with its four games, worked out by hand in tests/test_groups.py's
    docstring; this client may edit the group and every game."""
    group = api(
        client,
        "/groups",
        {"name": "Friday", "players": ["Ann", "Bob", "Cid"], "stake": "0.01", "currency": "EUR"},
    )
    secret = group["edit_secret"]
    games = {}
    specs = {
        "g1": {"variant": "gin", "rules": "russian", "players": ["Ann", "Bob"]},
        "g2": {
            "variant": "gin",
            "rules": {"preset": "classic", "target": 50},
            "players": ["Bob", "Cid"],
        },
        "g3": {
            "variant": "three_hand",
            "rules": {"preset": "three_hand", "target": 60},
            "players": ["Ann", "Bob", "Cid"],
            "dealer": 0,
            "captain": 1,
        },
        "g4": {
            "variant": "remi",
            "rules": {"preset": "remi", "deals": 1},
            "players": ["Ann", "Bob", "Cid"],
        },
    }
    for key, spec in specs.items():
        games[key] = api(client, "/games", {**spec, "group": group["id"]}, secret)
    play(
        client,
        games["g1"],
        [
            knock(0, 1, 16),
            knock(1, 2, 49),
            DEAD,
            knock(0, 5, 60),
            knock(0, 7, 4),
            knock(0, 0, 8, "gin"),
        ],
    )
    play(client, games["g2"], [knock(1, 3, 10), knock(0, 0, 30, "gin")])
    play(client, games["g3"], [knock(1, 4, 20), knock(0, 0, 30, "gin")])
    remi = {
        "went_out": 2,
        "discard_value": 10,
        "players": [{"plus": 20, "minus": 15}, {"plus": 0, "minus": 30}, {"plus": 30, "minus": 0}],
    }
    play(client, games["g4"], [remi])
    for game in [group, *games.values()]:
        client.get(game["edit_url"])  # this browser may now edit them all
    return {"group": group, **games}


@pytest.fixture
def base(make_app: Any) -> Iterator[str]:
    """The address of the production server (waitress, 8 threads) on the test database,
    CSRF on as in production."""
    app = make_app(WTF_CSRF_ENABLED=True, TESTING=False)
    with serve(app, threads=8, channel_timeout=30) as url:
        yield url
