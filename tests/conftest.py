"""Fixtures: an app on a fresh database (SQLite, or PostgreSQL when
``SCOREKEEPER_TEST_DATABASE_URL`` is set), a client, a CLI runner, and the HTML of
the documents a test prints."""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from datetime import timedelta
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import HealthCheck, settings
from sqlalchemy import Connection, Engine, create_engine, make_url, text

from scorekeeper import create_app
from scorekeeper.db import head_revision, make_engine, upgrade
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


def worker_database(url: str | None) -> str | None:
    """The PostgreSQL database of this pytest-xdist worker (``test_gw0``, ``test_gw1``…,
    created when missing): every test empties its database, so workers need their own."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return url
    base = make_url(url)
    name = f"{base.database}_{worker}"
    engine = create_engine(base, isolation_level="AUTOCOMMIT")
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


def empty_postgres_tables(url: str) -> None:
    """Empty every table of the test database, keeping its schema, when the schema is
    the migrations' head; otherwise (a test left it at another revision, or it is
    new) start from an empty schema, which the app then migrates. Dropping and
    migrating took about 0.2 s a test, and a third of the PostgreSQL pass's time;
    deleting the few rows a test leaves takes 2 ms (``TRUNCATE`` 20: it makes every
    table's files anew)."""
    engine = _cleaning_engine(url)
    with engine.begin() as conn:
        tables = conn.scalars(text(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).all()
        at_head = "alembic_version" in tables and conn.scalars(
            text("SELECT version_num FROM alembic_version")).all() == [head_revision()]
        if not at_head:
            _drop_schema(conn)
            return
        sequences = conn.scalars(text(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")).all()
        # The head's tables are the models' (a test at the head found them so):
        # the ones that refer to others first. Ids start from 1 again, as when new.
        conn.exec_driver_sql("; ".join(
            [f'DELETE FROM "{table.name}"' for table in reversed(Base.metadata.sorted_tables)]
            + [f'ALTER SEQUENCE "{name}" RESTART' for name in sequences]))


@cache
def _cleaning_engine(url: str) -> Engine:
    # One connection kept for the worker's whole run; checked before each use, since
    # some tests restart the database's connections.
    return create_engine(url, pool_size=1, pool_pre_ping=True)


@pytest.fixture
def database_url(tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A database of the test's own: empty, or for a test that builds its apps with
    ``make_app``, already migrated with empty tables (as on SQLite, where ``make_app``
    copies a migrated file into the test's new one)."""
    if PG_URL:
        if "make_app" in request.fixturenames:
            empty_postgres_tables(PG_URL)
        else:
            reset_postgres(PG_URL)
        return PG_URL
    return f"sqlite:///{tmp_path / 'test.sqlite'}"


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite file migrated to the head once per worker, copied into each test's
    empty database before its first app is built: the migrations ran again for every
    test, about a tenth of a second each. (The migrations' own tests start empty.)"""
    path = tmp_path_factory.mktemp("migrated") / "head.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    engine.dispose()
    with closing(sqlite3.connect(path)) as conn:  # all in the one file, no WAL beside it
        conn.execute("PRAGMA journal_mode=DELETE")
    return path


@pytest.fixture
def make_app(database_url: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """Build apps on the test's database (several share it, like several processes)."""
    apps: list[Flask] = []
    if database_url.startswith("sqlite:///"):
        file = Path(database_url.removeprefix("sqlite:///"))
        if not file.exists():
            shutil.copyfile(request.getfixturevalue("migrated_sqlite"), file)

    def build(**config: Any) -> Flask:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "test",
                "DATABASE_URL": database_url,
                "WTF_CSRF_ENABLED": False,
                # Tests create games by the dozen; the limits' own tests turn them on.
                "RATELIMIT_ENABLED": False,
                # Tests enter the same hand twice in a row; test_repeats asks about it.
                "REPEAT_WINDOW": timedelta(0),
                **config,
            }
        )
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.extensions["scorekeeper.engine"].dispose()


@pytest.fixture
def app(make_app: Any) -> Flask:
    """The app under test, CSRF off (one test module turns it on)."""
    application: Flask = make_app()
    return application


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
