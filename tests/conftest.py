"""Fixtures: an app on a fresh database (SQLite, or PostgreSQL when
``SCOREKEEPER_TEST_DATABASE_URL`` is set), a client, a CLI runner, and the HTML of
the documents a test prints."""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import HealthCheck, settings
from sqlalchemy import create_engine, make_url, text

from scorekeeper import create_app
from scorekeeper.db import make_engine, upgrade

# Tests never assert on wall-clock time, and Hypothesis would: its deadline and its
# "input generation is slow" check failed CI on a machine busy with the other worker and
# a browser (a strategy of a few integers took 0.3 s a draw). How many examples run and
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
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """A database of the test's own."""
    if PG_URL:
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
def typeset(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The HTML of every document typeset during the test, in order."""
    from scorekeeper.pdf import render

    seen: list[str] = []
    original = render.html_to_pdf

    def keep(html: str, *pictures: Any) -> bytes:
        seen.append(html)
        return original(html, *pictures)

    monkeypatch.setattr(render, "html_to_pdf", keep)
    yield seen
