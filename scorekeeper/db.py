"""The database: one SQLAlchemy engine per app, one session per request.

``db.py`` owns the session: views commit, models never do. SQLite (the default) runs
in WAL mode. A request that may write (POST…) takes the write lock at BEGIN, so two
phones saving at once queue up instead of failing; a read-only request (GET, HEAD)
reads a snapshot through connections of its own that take no lock at all, so a slow
read (a PDF being typeset) never stalls a save. Any other SQLAlchemy URL
(PostgreSQL) works unchanged.
"""

from __future__ import annotations

import fcntl
import itertools
import os
import re
import select
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app, g, has_request_context, request
from sqlalchemy import (
    Connection,
    DateTime,
    Dialect,
    Engine,
    Select,
    TypeDecorator,
    create_engine,
    event,
)
from sqlalchemy.exc import DBAPIError, DisconnectionError, StatementError
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker
from sqlalchemy.pool import QueuePool
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.dml import UpdateBase

from . import jsoncodec

MIGRATIONS = Path(__file__).parent / "migrations"


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and read back timezone-aware on every database.

    PostgreSQL keeps the zone (``timestamptz``); SQLite stores the wall-clock text
    only, so its values came back naive, and the API and the export wrote
    ``2026-12-01T04:29:17`` there but ``…+00:00`` on PostgreSQL. Values are turned
    to UTC on the way in and marked UTC on the way out.
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


def make_engine(url: str) -> Engine:
    """An engine for ``url``, with SQLite tuned for several writers."""
    if not url.startswith("sqlite"):
        # Last in, first out: a quiet table's saves keep reusing the one connection
        # (and database process) that is warm, where first-in-first-out went round
        # every connection of the pool in turn; one phone's hand 5.6–6.7 → 4.9–5.3 ms.
        engine = create_engine(url, pool_size=10, max_overflow=20, pool_use_lifo=True)
        _ping_when_idle(engine)
        if engine.dialect.driver == "psycopg":
            event.listen(engine, "connect", _write_json_with_orjson)
        return engine
    # One connection per process: SQLite lets one writer in at a time anyway, and
    # threads queueing for the pool wake as soon as it is free, where SQLite's own
    # busy handler would sleep and poll (up to 100 ms a step).
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 30},
        poolclass=QueuePool,
        pool_size=1,
        max_overflow=0,
        pool_timeout=60,
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves, below
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a commit survives the app being killed at any moment (the
        # crash test does that); only a power cut can roll back the last commits.
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute(f"PRAGMA wal_autocheckpoint={BACKSTOP_PAGES}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        # IMMEDIATE: take the write lock up front; a deferred transaction that reads
        # and then writes can fail at once when another writer got there first.
        _begin(connection, "BEGIN IMMEDIATE")

    if engine.url.database and engine.url.database != ":memory:":
        _queue_processes(engine, Path(engine.url.database + ".lock"))
        _checkpoint_aside(engine, engine.url.database)
    return engine


def _write_json_with_orjson(dbapi_connection: Any, _record: Any) -> None:
    """The JSON columns' values sent as ``jsoncodec.dumps`` writes them (psycopg reads
    them back with the standard library, as before)."""
    from psycopg.types.json import set_json_dumps

    set_json_dumps(jsoncodec.dumps, dbapi_connection)


# A pooled connection that sat unused this long is pinged before it is handed out.
PING_IDLE_SECONDS = 1.0


def _ping_when_idle(engine: Engine) -> None:
    """Ping a connection on its way out of the pool only when it sat there over
    ``PING_IDLE_SECONDS``, so that one found dead (the server restarted) is replaced
    before a request uses it, as ``pool_pre_ping`` does, without a round trip before
    every transaction (on PostgreSQL one of a saved hand's five round trips then).

    A connection used less than a second ago is the server's too, unless it restarted
    in that second; then the request's first statement fails, every connection of the
    pool is invalidated, and the next request gets fresh ones. A save from a kept
    tally reads before it writes and tries once more on such a failure
    (``api.games``)."""
    idle_since = "scorekeeper.idle_since"

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_connection: Any, record: Any) -> None:
        record.info[idle_since] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get(idle_since)
        if since is None or time.monotonic() - since < PING_IDLE_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as exc:
            # The pool throws the connection away and checks out another (a new one).
            raise DisconnectionError(str(exc)) from exc


# SQLite copies its WAL back into the database file (a checkpoint) as part of the
# commit that finds the WAL over 1000 pages, about every hundredth hand: that save
# then waits for two fsyncs (9–17 ms on the development machine, 85 µs a hand on
# average) while it holds the write lock and every other save waits behind it. Saves
# here leave that to a thread of their process (``Checkpointer``) and checkpoint
# themselves only past this many pages (40 MB): a backstop for a process whose
# checkpointer cannot keep up.
BACKSTOP_PAGES = 10_000
CHECKPOINT_SECONDS = 0.5  # how long after a commit the checkpointer copies it back


class Checkpointer:
    """Copies an SQLite file's WAL back into the file from a thread of its own, at
    most every ``CHECKPOINT_SECONDS`` and only after commits, so that no save waits
    for it. Its checkpoints are ``PASSIVE``: they wait for no reader and no writer
    (a save goes on appending to the WAL meanwhile) and take no turn at the
    processes' file lock; SQLite lets one checkpoint run at a time, and a process
    that finds another's running tries again later. The thread is started by the
    first commit in each process (a worker forked from a process that had one gets
    its own) and stops when the engine is disposed of (a later commit starts it
    again)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.pending = threading.Event()  # a commit not yet copied back
        self._stopped = threading.Event()  # the running thread's
        self._started_in: int | None = None
        self._starting = threading.Lock()

    def committed(self) -> None:
        """Note a commit (in this process's thread, started here if need be)."""
        if self._started_in != os.getpid():
            with self._starting:
                if self._started_in != os.getpid():
                    self._started_in = os.getpid()
                    self._stopped = threading.Event()
                    threading.Thread(target=self._run, args=(self._stopped,),
                                     name="sqlite-checkpointer", daemon=True).start()
        self.pending.set()

    def stop(self) -> None:
        """Stop this process's thread (it finishes a checkpoint it is in)."""
        with self._starting:
            self._stopped.set()
            self._started_in = None

    def _run(self, stopped: threading.Event) -> None:
        connection: sqlite3.Connection | None = None
        try:
            while not stopped.wait(CHECKPOINT_SECONDS):
                if not self.pending.is_set():
                    continue
                self.pending.clear()
                try:
                    if connection is None:
                        connection = sqlite3.connect(self.path, check_same_thread=False)
                    busy, _frames, _copied = connection.execute(
                        "PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                except sqlite3.Error:  # the file went away (a test's), or was locked
                    busy = 1
                if busy:
                    self.pending.set()
        finally:
            if connection is not None:
                connection.close()


def _checkpoint_aside(engine: Engine, path: str) -> None:
    checkpointer = Checkpointer(path)
    weakref.finalize(engine, checkpointer.stop)

    @event.listens_for(engine, "commit")
    def _committed(_connection: Any) -> None:
        checkpointer.committed()

    @event.listens_for(engine, "engine_disposed")
    def _stop(_engine: Any) -> None:
        checkpointer.stop()


class Prepared:
    """A Core statement compiled once per engine and run on the DBAPI cursor of a
    connection SQLAlchemy manages: in its transaction, from its pool, with its types.

    What saving a hand executes, a dozen times a second per table: SQLAlchemy spends
    about 60 µs of Python setting up each execution (an execution context, its
    events, the parameters, a result object), five times what SQLite takes to run the
    statement, and a third of a hand's whole request. This keeps the statement
    written in Core and compiled by SQLAlchemy, with each column type's own bind and
    result processing (JSON, UTC times), and does only the rest by hand. Errors
    arrive as SQLAlchemy's (``IntegrityError`` on a used key, and so on); a
    connection found dead is invalidated with its pool's older ones, as SQLAlchemy
    would. The statement is refused (``RuntimeError``) outside a transaction the
    caller began (``Connection.begin``, or a session's ``connection()``): a raw cursor
    begins none itself on SQLite.
    """

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        self._compiled: weakref.WeakKeyDictionary[Dialect, _Compiled] = (
            weakref.WeakKeyDictionary()
        )

    def rows(self, connection: Connection | Alone, params: Mapping[str, Any]
             ) -> list[tuple[Any, ...]]:
        """Every row the statement selects, each value as its column's type reads it."""
        if isinstance(connection, Alone):
            compiled = self.compiled(connection.dialect)
            rows = connection.run(compiled, compiled.values_once(params)).rows
        else:
            compiled, cursor = self._run(connection, params)
            try:
                rows = cursor.fetchall()
            finally:
                cursor.close()
        processors = compiled.results
        if not any(processors):
            return [tuple(row) for row in rows]
        return [tuple(value if read is None else read(value)
                      for read, value in zip(processors, row, strict=True)) for row in rows]

    def execute(self, connection: Connection | Alone, params: Mapping[str, Any]) -> int:
        """Run a statement that changes rows; the number of rows it changed."""
        if isinstance(connection, Alone):
            compiled = self.compiled(connection.dialect)
            count: int = connection.run(compiled, compiled.values_once(params)).count
            return count
        _compiled, cursor = self._run(connection, params)
        count = cursor.rowcount
        cursor.close()
        return count

    def compiled(self, dialect: Dialect) -> _Compiled:
        """The statement as ``dialect`` writes it (compiled at its first use)."""
        compiled = self._compiled.get(dialect)
        if compiled is None:
            compiled = self._compiled[dialect] = _Compiled(self.statement, dialect)
        return compiled

    def _run(self, connection: Connection, params: Mapping[str, Any]) -> tuple[_Compiled, Any]:
        dialect = connection.dialect
        compiled = self.compiled(dialect)
        if not connection.in_transaction():
            # On SQLite a raw cursor would run outside any transaction: two reads would
            # not see one state, and writes would not wait for the caller's commit.
            raise RuntimeError("db.Prepared runs only in a transaction the caller began")
        values = compiled.values(params)
        raw = connection.connection
        cursor = raw.cursor()
        try:
            cursor.execute(compiled.sql, values)
        except dialect.loaded_dbapi.Error as exc:
            cursor.close()
            gone = dialect.is_disconnect(exc, raw.dbapi_connection, cursor)
            raise _failed(connection, raw, exc, gone, compiled.sql, values) from exc
        return compiled, cursor


def _failed(owner: Connection | Alone, raw: Any, exc: Exception, gone: bool, sql: str,
            values: Any) -> StatementError:
    """The driver's error as SQLAlchemy's; a connection that is ``gone`` is thrown away
    (``owner``: what holds the pool's connection ``raw``)."""
    engine = owner.engine
    if gone:
        _throw_away(owner, raw, exc)
    dialect = engine.dialect
    return DBAPIError.instance(sql, values, exc, dialect.loaded_dbapi.Error,
                               connection_invalidated=gone, dialect=dialect)


def _throw_away(owner: Connection | Alone, raw: Any, exc: Exception) -> None:
    """As SQLAlchemy's own execution does with a connection found dead: the pool's
    other connections as old as this one are replaced too at their next checkout (a
    database that restarted dropped them all), then this one is thrown away."""
    owner.engine.pool._invalidate(raw, exc, _checkin=False)
    (owner if isinstance(owner, Connection) else raw).invalidate(exc)


class _Compiled:
    """A statement's SQL for one dialect, and how to turn parameters into its values."""

    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)
        if compiled.post_compile_params or compiled.literal_execute_params:
            # An IN list ("expanding") is written into the SQL at each execution.
            raise ValueError("a statement with parameters rendered per execution")
        self.sql = compiled.string
        by_name = {name: bind for bind, name in compiled.bind_names.items()}
        order: Sequence[str] | None = compiled.positiontup  # a name once per place in the SQL
        # Per parameter, once however many places take it (PostgreSQL's one statement
        # for a hand puts its inputs in two columns: encoded once): (its name in the
        # SQL, the parameter it takes or None for a value written in the statement,
        # that value, the type's bind processor).
        self.parameters: list[tuple[str, str | None, Any, Callable[[Any], Any] | None]] = []
        for name in dict.fromkeys(order) if order is not None else by_name:
            bind = by_name[name]
            process = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if bind.required:
                self.parameters.append((name, bind.key, None, process))
            else:
                value = bind.effective_value
                self.parameters.append((name, None, value if process is None else process(value),
                                        None))
        index = {name: i for i, (name, *_rest) in enumerate(self.parameters)}
        # The DBAPI's values by position: which parameter goes in each place.
        self.order: list[int] | None = None if order is None else [index[n] for n in order]
        if dialect.paramstyle == "pyformat":
            # Values by name (psycopg's "%(name)s") are sent by position ("%s") instead:
            # psycopg then takes the list as it is, where a dict is checked and
            # reordered at every execution, and no dict is built for it.
            positions: list[int] = []

            def by_position(match: re.Match[str]) -> str:
                if match[1] is None:
                    return "%%"
                positions.append(index[match[1]])
                return "%s"

            self.sql = NAMED.sub(by_position, self.sql)
            self.order = positions
        # libpq's own form, for a statement sent alone (``Alone``): "$1", "$2"… in place
        # of each "%s", under a name of its own on every connection that prepares it.
        # A parameter that several places take is sent once, as one "$n" written in each.
        self.name = f"scorekeeper_{next(_NAMES)}".encode()
        places = iter(self.order or ())
        numbers: dict[int, int] = {}

        def by_number(match: re.Match[str]) -> str:
            if match[0] == "%%":
                return "%"
            return f"${numbers.setdefault(next(places), len(numbers) + 1)}"

        self.libpq_sql = PLACES.sub(by_number, self.sql).encode()
        self.sent_once = list(numbers)  # the parameters libpq takes, in the order of "$n"
        columns = statement.selected_columns if isinstance(statement, Select) else ()
        self.results = tuple(column.type.dialect_impl(dialect).result_processor(dialect, None)
                             for column in columns)

    def values(self, params: Mapping[str, Any]) -> Sequence[Any] | dict[str, Any]:
        """The DBAPI's parameters for ``params`` (by position or by name, as it wants)."""
        values = self._each(params)
        if self.order is not None:
            return [values[i] for i in self.order]
        return {name: value for (name, *_rest), value in zip(self.parameters, values, strict=True)}

    def values_once(self, params: Mapping[str, Any]) -> list[Any]:
        """libpq's parameters for ``params`` (``libpq_sql``): each once, "$1" first."""
        values = self._each(params)
        return [values[i] for i in self.sent_once]

    def _each(self, params: Mapping[str, Any]) -> list[Any]:
        values = []
        for _name, key, value, process in self.parameters:
            if key is not None:
                value = params[key]
                if process is not None:
                    value = process(value)
            values.append(value)
        return values


# A value by name in "pyformat" SQL, or "%%" (a percent sign written in the SQL).
NAMED = re.compile(r"%%|%\((\w+)\)s")
# A value by position in the same ("%s"), or "%%".
PLACES = re.compile(r"%%|%s")
_NAMES = itertools.count(1)


def _begin(connection: Connection, statement: str) -> None:
    """Begin SQLite's transaction on the driver's connection: twice a hand, and
    ``exec_driver_sql`` sets up a whole execution (context, events, a result) for a
    statement that returns nothing."""
    driver = connection.connection.driver_connection
    assert driver is not None, "begun on a connection that is open"
    driver.execute(statement).close()


READ_ONLY_METHODS = frozenset({"GET", "HEAD"})


def make_reader(url: str, writer: Engine) -> Engine:
    """The engine read-only requests use: ``writer`` itself, except on an SQLite file.

    There, readers get connections of their own that begin deferred (a snapshot, no
    lock: WAL lets them read while another connection writes), that take no turn at
    the processes' file lock, and that refuse to write (``query_only``; a GET that
    writes does so through the writer, see ``ReadSession``), so a slow page or PDF
    can hold one as long as it likes without stalling a save.
    """
    database = writer.url.database if url.startswith("sqlite") else None
    if not database or database == ":memory:":
        return writer
    reader = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 30},
        poolclass=QueuePool,
        pool_size=4,
        max_overflow=16,
        pool_timeout=60,
    )

    @event.listens_for(reader, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA query_only=ON")
        cursor.close()

    @event.listens_for(reader, "begin")
    def _on_begin(connection: Any) -> None:
        # Deferred: the snapshot starts at the first read; no lock is taken.
        _begin(connection, "BEGIN")

    @event.listens_for(writer, "engine_disposed")
    def _dispose_reader(_engine: Any) -> None:
        reader.dispose()

    return reader


def _queue_processes(engine: Engine, path: Path) -> None:
    """Several processes on one SQLite file (``WORKERS=n``) take turns through a file
    lock held while a connection is checked out: the kernel wakes the next process the
    moment it is released, where SQLite's busy handler would sleep and poll."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    weakref.finalize(engine, os.close, fd)

    @event.listens_for(engine, "checkout")
    def _take_turn(*_args: Any) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX)

    @event.listens_for(engine, "checkin")
    def _end_turn(*_args: Any) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


class ReadSession(Session):
    """A GET's session: it reads through the reader engine; should it ever write (a
    view storing something it worked out), the flush and the statements that change
    rows go through the writer engine, so SQLite's locks are held only from that
    flush to the commit."""

    def get_bind(
        self, mapper: Any = None, *, clause: Any = None, bind: Any = None, **kw: Any
    ) -> Engine | Connection:
        """The writer for a flush or an INSERT/UPDATE/DELETE, else the reader."""
        if self._flushing or isinstance(clause, UpdateBase):
            writer: Engine = self.info["writer"]
            return writer
        return super().get_bind(mapper, clause=clause, bind=bind, **kw)


def init_app(app: Flask) -> None:
    """Create the engine, migrate a new install, and close sessions after requests."""
    engine = make_engine(app.config["DATABASE_URL"])
    reader = make_reader(app.config["DATABASE_URL"], engine)
    app.extensions["scorekeeper.db"] = sessionmaker(engine, expire_on_commit=False)
    app.extensions["scorekeeper.reader"] = reader
    app.extensions["scorekeeper.read_db"] = sessionmaker(
        reader,
        class_=ReadSession,
        info={"writer": engine},
        expire_on_commit=False,
    )
    app.extensions["scorekeeper.engine"] = engine
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


def writer_engine() -> Engine:
    """The engine that writes (on an SQLite file: its connections take the processes'
    file lock at checkout and SQLite's write lock at BEGIN; elsewhere, plain)."""
    engine: Engine = current_app.extensions["scorekeeper.engine"]
    return engine


class Alone:
    """A pooled PostgreSQL connection whose statements each run as a transaction of
    their own (``alone``): what a save that reads without a lock and then writes in
    one checked statement (``service.write_new_hand`` with ``unlocked``) needs, with
    no ``BEGIN`` and no ``COMMIT``.

    ``Prepared`` sends each statement as a libpq prepared statement, prepared once
    per connection, with psycopg's own adaptation of the values and of the rows
    (the same values a cursor sends and reads). A psycopg cursor spends its Python
    on an execution's generators, waits and checks: on the development machine a
    one-row prepared ``SELECT`` took 93–126 µs of the client's CPU through a new
    cursor and 78 µs this way, and a hand from the kept tally saved this way cost its
    gunicorn worker 1.7 ms instead of 2.2–2.3 (bench/HISTORY.md, session 20). The
    statement runs while psycopg's connection is idle, outside any transaction of
    psycopg's: it is a transaction of its own, as in autocommit, and psycopg's state
    is left as it was. An error arrives as SQLAlchemy's (``IntegrityError`` on a used
    key…); a connection found dead is thrown away with the pool's older ones."""

    def __init__(self, engine: Engine, raw: Any) -> None:
        self.engine = engine
        self.dialect = engine.dialect
        self.raw = raw
        self.driver = raw.driver_connection
        # What lives as long as the connection (the record's ``info`` is emptied when
        # the pool replaces it): the statements prepared on it, and the adaptation of
        # values and rows a cursor would keep (psycopg's ``Transformer``, which caches
        # each type's dumper and loader; one statement at a time uses it).
        kept = raw.info.get(_KEPT)
        if kept is None:
            kept = raw.info[_KEPT] = (set(), _psycopg().Transformer(self.driver))
        self.prepared, self.adapt = kept

    def ended_by_server(self) -> bool:
        """Whether the server ended this connection while it sat in the pool (it
        restarted, or dropped its sessions), seen without a round trip: an idle
        connection is sent nothing, so anything to read on its socket is the server's
        goodbye (or, rarely, a notice, and that connection goes all the same). Such a
        connection is thrown away with the pool's older ones before anything is sent
        on it (``_throw_away``), and the caller takes another: what a save that writes
        first (``api.games._save_alone``) does instead of retrying a write whose fate
        it could not know."""
        pgconn = self.driver.pgconn
        if pgconn.status == _psycopg().pq.ConnStatus.OK:
            poll = select.poll()
            poll.register(pgconn.socket, select.POLLIN)
            if not poll.poll(0):
                return False
        _throw_away(self, self.raw, self.dialect.loaded_dbapi.OperationalError(
            "the server ended the connection while it was in the pool"))
        return True

    def run(self, compiled: _Compiled, values: Any) -> Any:
        """Run one statement; its result as psycopg reads it (``rows``, ``count``)."""
        psycopg = _psycopg()
        pq = psycopg.pq
        pgconn = self.driver.pgconn
        if pgconn.transaction_status != pq.TransactionStatus.IDLE:
            raise RuntimeError("db.Alone runs a statement only outside any transaction")
        adapt = self.adapt
        params = adapt.dump_sequence(values, [psycopg.PyFormat.TEXT] * len(values))
        for _try in range(2):
            result = None
            if compiled.name not in self.prepared:
                result = pgconn.prepare(compiled.name, compiled.libpq_sql)
                if result.status == pq.ExecStatus.COMMAND_OK:
                    self.prepared.add(compiled.name)
            if compiled.name in self.prepared:
                result = pgconn.exec_prepared(compiled.name, params)
                if (result is not None and result.status == pq.ExecStatus.FATAL_ERROR
                        and result.error_field(pq.DiagnosticField.SQLSTATE) == NO_SUCH_STATEMENT):
                    # psycopg sends DEALLOCATE ALL after a ROLLBACK or a DROP of its own
                    # (its prepared statements may name objects that changed), which
                    # takes ours too: prepared again, and sent again (nothing ran).
                    self.prepared.discard(compiled.name)
                    continue
            break
        if result is None or pgconn.status != pq.ConnStatus.OK:
            exc: Exception = self.dialect.loaded_dbapi.OperationalError(
                pgconn.get_error_message() or "the connection to the database was lost")
            raise _failed(self, self.raw, exc, True, compiled.libpq_sql.decode(), values)
        if result.status not in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK):
            exc = psycopg.errors.error_from_result(result, encoding=self.driver.info.encoding)
            gone = self.dialect.is_disconnect(exc, self.driver, None)  # type: ignore[arg-type]
            raise _failed(self, self.raw, exc, gone, compiled.libpq_sql.decode(), values)
        return _Result(adapt, result)


# SQLSTATE 26000, invalid_sql_statement_name: a prepared statement that is not there.
NO_SUCH_STATEMENT = b"26000"
_KEPT = "scorekeeper.alone"  # a pooled connection's info: (prepared, Transformer)


@cache
def _psycopg() -> Any:
    """psycopg's parts that ``Alone`` uses, imported once (only PostgreSQL needs them)."""
    from types import SimpleNamespace

    from psycopg import errors, pq
    from psycopg.adapt import PyFormat, Transformer

    return SimpleNamespace(errors=errors, pq=pq, PyFormat=PyFormat, Transformer=Transformer)


class _Result:
    """A statement's result, read as psycopg's cursor would."""

    def __init__(self, adapt: Any, result: Any) -> None:
        self.count: int = result.command_tuples or 0
        self._adapt, self._result = adapt, result

    @property
    def rows(self) -> list[tuple[Any, ...]]:
        self._adapt.set_pgresult(self._result)
        rows: list[tuple[Any, ...]] = self._adapt.load_rows(0, self._result.ntuples, tuple)
        return rows


def autocommits() -> bool:
    """Whether the writer can save in one statement committed on its own (``alone``):
    on PostgreSQL. SQLite has no such statement (its ``WITH`` cannot insert), and its
    writes queue up at ``BEGIN`` anyway."""
    return writer_engine().dialect.name == "postgresql"


@contextmanager
def alone() -> Iterator[Alone]:
    """One of the writer's pooled PostgreSQL connections, for statements that each run
    as a transaction of their own (``Alone``); back to the pool afterwards."""
    engine = writer_engine()
    raw = engine.raw_connection()
    try:
        yield Alone(engine, raw)
    finally:
        _give_back(raw)


def _give_back(raw: Any) -> None:
    """Check an ``Alone`` connection back in. Its statements each ran as a transaction
    of their own, so the connection is idle, and the pool's reset (psycopg's
    ``rollback``, which sends nothing on an idle connection but takes its lock and
    runs its generator) is skipped when libpq says so: what SQLAlchemy's own
    ``Connection`` does when it has already ended its transaction. Otherwise (a
    connection thrown away, or a SQLAlchemy without that method) the pool's own
    ``close``."""
    close_reset = getattr(raw, "_close_special", None)
    if (close_reset is not None and raw.dbapi_connection is not None
            and raw.driver_connection.pgconn.transaction_status
            == _psycopg().pq.TransactionStatus.IDLE):
        close_reset(transaction_reset=True)
    else:
        raw.close()


def snapshot_engine() -> Engine | None:
    """The engine that reads without taking SQLite's write lock (an SQLite file's
    readers), or ``None`` where there is no such separate engine (PostgreSQL, memory).

    A write that first reads what it needs through it holds the lock only while it
    writes, and must then check that nothing changed meanwhile (``games.service``
    compares the game's version)."""
    reader: Engine = current_app.extensions["scorekeeper.reader"]
    return None if reader is current_app.extensions["scorekeeper.engine"] else reader


def release_session() -> None:
    """Close the request's session before slow work (typesetting a PDF) that needs
    nothing more from the database: its connection goes back to the pool at once.
    What was loaded stays readable; a later ``get_session()`` opens a new one."""
    _close_session(None)


def _close_session(_exc: BaseException | None) -> None:
    session: Session | None = g.pop("db_session", None)
    if session is not None:
        session.close()


def alembic_config(engine: Engine) -> Any:
    """An Alembic config for our migrations, bound to ``engine``."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["engine"] = engine
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply migrations up to ``revision``; a no-op on an up-to-date database.

    A database already at the head is only looked at: Alembic's own no-op loads its
    environment and every migration file again, 5–6 ms each time an app is built."""
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


def rollback_to_reading() -> None:
    """Undo a refused change (a form with mistakes, a lost race) and read the rest of
    the request like a GET: the session is rolled back and bound to the reader engine,
    so showing the form again (which reads the game afresh) takes, on SQLite, neither
    the write lock nor a turn at the processes' file lock, and holds up nobody's save.
    Nothing can be written after it (the reader's connections are ``query_only``)."""
    session: Session | None = g.get("db_session")
    if session is None:
        return
    session.rollback()
    session.bind = current_app.extensions["scorekeeper.reader"]


def rollback_session() -> None:
    """Undo whatever the failing request had not committed."""
    session: Session | None = g.get("db_session")
    if session is not None:
        session.rollback()
