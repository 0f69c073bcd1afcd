"""The database: one SQLAlchemy engine per app, one session per request.

``db.py`` owns the session: a view writes in a ``writing()`` block, which commits, or
rolls back a refused change and reads on; models never commit. SQLite (the default) runs
in WAL mode. A request that may write (POST…) takes SQLite's write lock at BEGIN, so
two phones saving at once queue up instead of failing; a read-only request (GET, HEAD)
reads a snapshot through connections of its own that take no lock at all, so a slow
read (a PDF being typeset) never stalls a save. Any other SQLAlchemy URL (PostgreSQL)
works unchanged.
"""

from __future__ import annotations

import fcntl
import os
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app, g, has_request_context, request
from sqlalchemy import DateTime, Dialect, Engine, TypeDecorator, create_engine, event
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker
from sqlalchemy.pool import QueuePool

MIGRATIONS = Path(__file__).parent / "migrations"
READ_ONLY_METHODS = frozenset({"GET", "HEAD"})


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and read back timezone-aware on every database.

    PostgreSQL keeps the zone (``timestamptz``); SQLite stores the wall-clock text
    only, so its values would come back naive. Values are turned to UTC on the way in
    and marked UTC on the way out.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """UTC in: an aware time is converted; a naive one is taken to be UTC already."""
        if value is None or value.tzinfo is None:
            return value
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Aware out: a naive value read from SQLite is UTC."""
        if value is None or value.tzinfo is not None:
            return value
        return value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    """Base class of every model; every timestamp is timezone-aware (``UTCDateTime``)."""

    type_annotation_map = {datetime: UTCDateTime()}  # noqa: RUF012 - read by SQLAlchemy


def _sqlite_file(url: str, engine: Engine) -> str | None:
    """The SQLite database file ``engine`` opens, or ``None`` (another database, memory)."""
    database = engine.url.database if url.startswith("sqlite") else None
    return database if database and database != ":memory:" else None


def make_engine(url: str) -> Engine:
    """The engine that writes: for ``url``, with SQLite set up for several writers."""
    if not url.startswith("sqlite"):
        # A connection the server closed (a restart) is noticed before it is used.
        return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)
    # One connection per process: SQLite lets one writer in at a time anyway, and
    # threads queueing for the pool wake as soon as it is free, where SQLite's own
    # busy handler sleeps and polls.
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 30},
        poolclass=QueuePool,
        pool_size=1,
        max_overflow=0,
        pool_timeout=60,
    )
    _sqlite_setup(engine, "BEGIN IMMEDIATE", "PRAGMA journal_mode=WAL",
                  # NORMAL in WAL mode: a commit survives the app being killed at any
                  # moment (the crash test does that); only a power cut can roll back
                  # the last commits.
                  "PRAGMA synchronous=NORMAL")
    path = _sqlite_file(url, engine)
    if path is not None:
        _queue_processes(engine, Path(path + ".lock"))
    return engine


def make_reader(url: str, writer: Engine) -> Engine:
    """The engine read-only requests use: ``writer`` itself, except on an SQLite file.

    There, readers get connections of their own that begin deferred (a snapshot, no
    lock: WAL lets them read while another connection writes), that take no turn at
    the processes' file lock, and that refuse to write (``query_only``), so a slow
    page or PDF can hold one as long as it likes without stalling a save.
    """
    if _sqlite_file(url, writer) is None:
        return writer
    reader = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 30},
        poolclass=QueuePool,
        pool_size=4,
        max_overflow=16,
        pool_timeout=60,
    )
    # Deferred: the snapshot starts at the first read; no lock is taken.
    _sqlite_setup(reader, "BEGIN", "PRAGMA query_only=ON")

    @event.listens_for(writer, "engine_disposed")
    def _dispose_reader(_engine: Any) -> None:
        reader.dispose()

    return reader


def _sqlite_setup(engine: Engine, begin: str, *pragmas: str) -> None:
    """SQLite's settings on every new connection of ``engine``, and its transactions
    begun by ``begin`` (SQLAlchemy's recipe for pysqlite: the driver's own implicit
    BEGIN is turned off and the engine's ``begin`` event issues ours)."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # no implicit BEGIN: ours, below
        cursor = dbapi_connection.cursor()
        for pragma in ("PRAGMA foreign_keys=ON", "PRAGMA busy_timeout=30000", *pragmas):
            cursor.execute(pragma)
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        # IMMEDIATE for the writer: the write lock is taken up front; a deferred
        # transaction that reads and then writes can fail at once when another writer
        # got there first.
        connection.exec_driver_sql(begin)


def _queue_processes(engine: Engine, path: Path) -> None:
    """Several processes on one SQLite file (gunicorn's workers) take turns through a
    file lock held while the writer's connection is checked out: the kernel wakes the
    next process the moment it is released, where SQLite's busy handler sleeps and
    polls."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    weakref.finalize(engine, os.close, fd)

    @event.listens_for(engine, "checkout")
    def _take_turn(*_args: Any) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX)

    @event.listens_for(engine, "checkin")
    def _end_turn(*_args: Any) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


def init_app(app: Flask) -> None:
    """Create the engines, migrate a new install, and close sessions after requests."""
    url = app.config["DATABASE_URL"]
    engine = make_engine(url)
    reader = make_reader(url, engine)
    app.extensions["scorekeeper.engine"] = engine
    app.extensions["scorekeeper.reader"] = reader
    app.extensions["scorekeeper.db"] = sessionmaker(engine, expire_on_commit=False)
    app.extensions["scorekeeper.read_db"] = sessionmaker(reader, expire_on_commit=False)
    app.teardown_appcontext(_close_session)
    app.cli.add_command(migrate_command)
    if app.config.get("AUTO_MIGRATE"):
        upgrade(engine)


def get_session() -> Session:
    """The request's session, opened on first use: a reader's for GET and HEAD (they
    never write), a writer's for everything else (and outside a request)."""
    if "db_session" not in g:
        reads = has_request_context() and request.method in READ_ONLY_METHODS
        name = "scorekeeper.read_db" if reads else "scorekeeper.db"
        g.db_session = current_app.extensions[name]()
    session: Session = g.db_session
    return session


def writer_session() -> Session:
    """A new session of the writer's own, for a read-only request that stores
    something it worked out (a group's game summaries); the caller commits and
    closes it."""
    session: Session = current_app.extensions["scorekeeper.db"]()
    return session


def release_session() -> None:
    """Close the request's session before slow work (typesetting a PDF) that needs
    nothing more from the database: its connection goes back to the pool at once.
    What was loaded stays readable; a later ``get_session()`` opens a new one."""
    _close_session(None)


def _close_session(_exc: BaseException | None) -> None:
    session: Session | None = g.pop("db_session", None)
    if session is not None:
        session.close()


class Unchanged(Exception):
    """Raised in a ``writing()`` block that writes nothing after all (a form with mistakes)."""


@contextmanager
def writing() -> Iterator[Session]:
    """The request's change, in its writer's session, committed when the block ends; a
    block that raises (``Unchanged``, a refusal, a lost race, a 404) is rolled back, the
    request reads on like a GET (``begin_reading``) and the exception goes on."""
    try:
        yield get_session()
        get_session().commit()  # the writer's, should the block have begun writing
    except BaseException:
        begin_reading()
        raise


def begin_reading() -> None:
    """Read the rest of the request like a GET, rolled back and bound to the reader engine:
    on SQLite, a form drawn again takes neither the write lock nor a turn at the processes'
    file lock, and nothing more can be written (the reader's connections are query-only)."""
    session = get_session()
    session.rollback()
    session.bind = current_app.extensions["scorekeeper.reader"]


def begin_writing() -> Session:
    """The writer's session for a change worked out on what a reading session read
    (``begin_reading`` first): the reading session is closed (what it loaded stays
    readable), and the new one's first statement waits for the write lock. The slow part
    of a change (replaying the game, checking the form) so runs before any lock is held."""
    _close_session(None)
    session: Session = current_app.extensions["scorekeeper.db"]()
    g.db_session = session
    return session


def rollback_session() -> None:
    """Undo whatever the failing request had not committed."""
    session: Session | None = g.get("db_session")
    if session is not None:
        session.rollback()


def alembic_config(engine: Engine) -> Any:
    """An Alembic config for our migrations, bound to ``engine``."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["engine"] = engine
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply migrations up to ``revision``; a database already at the head is only
    looked at (every test builds an app, and Alembic's own no-op loads each migration)."""
    if revision == "head" and current_revision(engine) == head_revision():
        return
    from alembic import command

    command.upgrade(alembic_config(engine), revision)


@cache
def head_revision() -> str:
    """The newest migration's revision (read from the files once per process)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory(str(MIGRATIONS)).get_current_head()
    assert head is not None, "the migrations have one head"
    return head


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (``None``: never migrated)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def downgrade(engine: Engine, revision: str) -> None:
    """Undo migrations down to ``revision`` (``"base"`` for an empty database)."""
    from alembic import command

    command.downgrade(alembic_config(engine), revision)


@click.command("migrate")
def migrate_command() -> None:
    """Bring the database up to date with the models."""
    upgrade(current_app.extensions["scorekeeper.engine"])
    click.echo("database is up to date")
