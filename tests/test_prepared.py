"""``db.Prepared``: Core statements run on the DBAPI cursor must store and read exactly
what SQLAlchemy's own execution does, inside the caller's transaction, and fail the
way SQLAlchemy fails; on PostgreSQL the same statements sent alone (``db.Alone``)
too."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy import Integer, bindparam, insert, literal_column, select, text
from sqlalchemy.dialects.postgresql.psycopg import dialect as psycopg_dialect
from sqlalchemy.exc import IntegrityError

from scorekeeper.db import Alone, Prepared
from scorekeeper.models import Change, Game, Hand, Submission

QUICK = {"mode": "quick", "outcome": "knock", "knocker": 0, "knocker_deadwood": 3,
         "defender_deadwood": 20, "upcard": None}
CARDS = {"mode": "cards", "knocker": 1, "knocker_cards": ["7H", "8H", "9H"],
         "upcard": "Q♠", "note": "ünïcode – «да»", "nested": {"a": [1, None, True]}}
# Tehran, UTC+3:30: stored as 08:30 UTC, read back aware.
AT = datetime(2026, 12, 1, 12, 0, 0, 250_001, tzinfo=timezone(timedelta(hours=3, minutes=30)))

HAND = insert(Hand).values(
    game_id=bindparam("game_id"), number=bindparam("number"), inputs=bindparam("inputs"),
    created_at=bindparam("at"), updated_at=bindparam("at"),
)
CHANGE = insert(Change).values(  # "add" and None are written in the statement itself
    game_id=bindparam("game_id"), at=bindparam("at"), action="add", before=None,
    hand_number=bindparam("number"), after=bindparam("inputs"), by=bindparam("by"),
)
KEY = insert(Submission).values(game_id=bindparam("game_id"), key=bindparam("key"),
                                hand_number=1, created_at=bindparam("at"))


def _game(engine: Any) -> str:
    with engine.begin() as connection:
        connection.execute(insert(Game).values(
            id="g1", edit_secret="s", variant="gin", players=["Ann", "Пётр"],
            rules={"target": 100, "big_gin_bonus": None}, setup={"dealer": 1}, version=0,
            created_at=AT, updated_at=AT, stake=None, currency=None,
        ))
    return "g1"


def _two_hands_by_sqlalchemy(engine: Any, game_id: str) -> list[dict[str, Any]]:
    """Hands 1 and 2 with their history entries, written by SQLAlchemy's execution:
    their parameters."""
    rows = [{"game_id": game_id, "number": n, "inputs": inputs, "at": AT, "by": "API"}
            for n, inputs in ((1, QUICK), (2, CARDS))]
    with engine.begin() as connection:
        for params in rows:
            connection.execute(HAND, params)
            connection.execute(CHANGE, params)
    return rows


def test_rows_written_by_the_cursor_equal_rows_written_by_sqlalchemy(make_app: Any) -> None:
    """The same two hands and history entries, once through SQLAlchemy's execution and
    once through ``Prepared``: every column is stored alike (on SQLite, byte for byte:
    the times as text, the JSON as text)."""
    engine = make_app().extensions["scorekeeper.engine"]
    game_id = _game(engine)
    rows = _two_hands_by_sqlalchemy(engine, game_id)
    with engine.begin() as connection:
        for params in rows:
            moved = dict(params, number=params["number"] + 10)
            assert Prepared(HAND).execute(connection, moved) == 1
            assert Prepared(CHANGE).execute(connection, moved) == 1

    with engine.connect() as connection:
        def stored(table: str, columns: str) -> list[tuple[Any, ...]]:
            number = "number" if table == "hands" else "hand_number"
            query = f"SELECT {number} % 10, {columns} FROM {table} ORDER BY {number}"
            return [tuple(row) for row in connection.execute(text(query))]

        for table, columns in (("hands", "inputs, created_at, updated_at"),
                               ("changes", "at, action, before, after, by")):
            found = stored(table, columns)
            assert found[:2] == found[2:], table
        hands = connection.execute(select(Hand.number, Hand.inputs, Hand.created_at)
                                   .order_by(Hand.number)).all()
    assert [tuple(row) for row in hands] == [
        (1, QUICK, AT), (2, CARDS, AT), (11, QUICK, AT), (12, CARDS, AT)]
    assert hands[2].created_at.tzinfo is not None
    assert hands[2].created_at.astimezone(UTC).hour == 8


def test_rows_read_by_the_cursor_equal_rows_read_by_sqlalchemy(make_app: Any) -> None:
    """JSON comes back as lists and dicts, times aware, NULL as None, in column order."""
    engine = make_app().extensions["scorekeeper.engine"]
    game_id = _game(engine)
    query = select(Game.id, Game.players, Game.rules, Game.setup, Game.version,
                   Game.created_at, Game.stake).where(Game.id == bindparam("game_id"))
    with engine.begin() as connection:
        by_sqlalchemy = [tuple(row) for row in connection.execute(query, {"game_id": game_id})]
        by_cursor = Prepared(query).rows(connection, {"game_id": game_id})
        nothing = Prepared(query).rows(connection, {"game_id": "no such game"})
    assert by_cursor == by_sqlalchemy == [
        ("g1", ["Ann", "Пётр"], {"target": 100, "big_gin_bonus": None}, {"dealer": 1}, 0, AT,
         None)]
    assert by_cursor[0][5].utcoffset() == timedelta(0)
    assert nothing == []


def test_a_used_key_fails_as_sqlalchemy_fails(make_app: Any) -> None:
    """A second submission with the same key: SQLAlchemy's ``IntegrityError`` (which the
    API answers by looking the first one up), and the transaction can be rolled back."""
    engine = make_app().extensions["scorekeeper.engine"]
    game_id = _game(engine)
    params = {"game_id": game_id, "key": "k1", "at": AT}
    with engine.connect() as connection:
        with connection.begin():
            Prepared(KEY).execute(connection, params)
        transaction = connection.begin()
        with pytest.raises(IntegrityError) as caught:
            Prepared(KEY).execute(connection, params)
        transaction.rollback()
        assert "submissions" in str(caught.value.statement)
        count = connection.scalar(text("SELECT count(*) FROM submissions"))
    assert count == 1


def test_statements_run_in_the_callers_transaction(make_app: Any) -> None:
    """What the cursor wrote is seen by nobody else until the caller commits, and is
    gone when the caller rolls back."""
    app = make_app()
    engine = app.extensions["scorekeeper.engine"]
    game_id = _game(engine)
    params = {"game_id": game_id, "number": 1, "inputs": QUICK, "at": AT}
    count = select(Hand.number).where(Hand.game_id == bindparam("game_id"))

    other = make_app().extensions["scorekeeper.reader"]  # a connection of its own

    def others_see() -> int:
        with other.connect() as connection:
            return len(connection.execute(count, {"game_id": game_id}).all())

    with engine.connect() as connection:
        transaction = connection.begin()
        Prepared(HAND).execute(connection, params)
        assert len(Prepared(count).rows(connection, params)) == 1
        assert others_see() == 0
        transaction.rollback()
        with connection.begin():
            assert Prepared(count).rows(connection, params) == []
            Prepared(HAND).execute(connection, params)
    assert others_see() == 1


def test_a_statement_outside_a_transaction_is_refused(make_app: Any) -> None:
    """A connection nobody began a transaction on: on SQLite the cursor would run in
    none (each statement on its own, two reads not one state), so nothing runs."""
    app = make_app()
    engine = app.extensions["scorekeeper.engine"]
    game_id = _game(engine)
    params = {"game_id": game_id, "number": 1, "inputs": QUICK, "at": AT}
    with engine.connect() as connection:
        with pytest.raises(RuntimeError, match="transaction the caller began"):
            Prepared(HAND).execute(connection, params)
        with pytest.raises(RuntimeError, match="transaction the caller began"):
            Prepared(select(Hand.number)).rows(connection, {})
    with engine.connect() as connection:
        assert connection.execute(select(Hand.number)).all() == []  # nothing was written


def test_a_statement_whose_sql_changes_per_execution_is_refused(make_app: Any) -> None:
    """An IN list is written into the SQL at each execution: compiled once, it would
    run with the first execution's list."""
    engine = make_app().extensions["scorekeeper.engine"]
    query = select(Hand.number).where(Hand.number.in_(bindparam("numbers", expanding=True)))
    with engine.connect() as connection, pytest.raises(ValueError, match="per execution"):
        Prepared(query).rows(connection, {"numbers": [1, 2]})


def test_a_percent_sign_in_the_sql_stays_and_a_value_used_twice_goes_to_both_places(
    make_app: Any,
) -> None:
    """On PostgreSQL the values go by position: the SQL's "%(n)s" become "%s" in order
    of their places, and the "%%" of a percent sign written in the SQL stays one."""
    engine = make_app().extensions["scorekeeper.engine"]
    n = bindparam("n", type_=Integer)
    query = select(literal_column("'100%'"), n * 10 + bindparam("m", type_=Integer) + n)
    with engine.begin() as connection:
        assert Prepared(query).rows(connection, {"n": 7, "m": 3}) == [("100%", 80)]


def test_a_value_used_twice_is_sent_alone_once() -> None:
    """libpq's form names each value once, "$1" first, and writes its number in every
    place that takes it: n goes to the first and the last place, 10 and m once each."""
    n = bindparam("n", type_=Integer)
    query = select(literal_column("'100%'"), n * 10 + bindparam("m", type_=Integer) + n)
    compiled = Prepared(query).compiled(psycopg_dialect())
    assert compiled.libpq_sql == (
        b"SELECT '100%', $1::INTEGER * $2::INTEGER + $3::INTEGER + $1::INTEGER AS anon_1")
    assert compiled.values_once({"n": 7, "m": 3}) == [7, 10, 3]
    assert compiled.values({"n": 7, "m": 3}) == [7, 10, 3, 7]  # a cursor's "%s", in order


@contextmanager
def _alone(engine: Any) -> Iterator[Alone]:
    raw = engine.raw_connection()
    try:
        yield Alone(engine, raw)
    finally:
        raw.close()


def _postgresql(make_app: Any) -> Any:
    engine = make_app().extensions["scorekeeper.engine"]
    if engine.dialect.name != "postgresql":
        pytest.skip("statements sent alone are PostgreSQL's")
    return engine


def test_rows_written_and_read_alone_equal_sqlalchemys(make_app: Any) -> None:
    """``db.Alone`` (libpq's prepared statements, psycopg's adaptation): the same hands
    and history entries are stored as SQLAlchemy stores them, text for text, and read
    back as SQLAlchemy reads them, each statement committed on its own."""
    engine = _postgresql(make_app)
    game_id = _game(engine)
    rows = _two_hands_by_sqlalchemy(engine, game_id)
    with _alone(engine) as alone:
        for params in rows:
            moved = dict(params, number=params["number"] + 10)
            assert Prepared(HAND).execute(alone, moved) == 1
            assert Prepared(CHANGE).execute(alone, moved) == 1
        query = select(Game.id, Game.players, Game.rules, Game.setup, Game.version,
                       Game.created_at, Game.stake).where(Game.id == bindparam("game_id"))
        read_alone = Prepared(query).rows(alone, {"game_id": game_id})
        assert Prepared(query).rows(alone, {"game_id": "no such game"}) == []
    with engine.connect() as connection:
        for table, number, columns in (
                ("hands", "number", "inputs::text, created_at::text, updated_at::text"),
                ("changes", "hand_number", "at::text, action, before::text, after::text, by")):
            found = [tuple(row) for row in connection.execute(text(
                f"SELECT {number} % 10, {columns} FROM {table} ORDER BY {number}"))]
            assert found[:2] == found[2:], table
        by_sqlalchemy = [tuple(row) for row in connection.execute(query, {"game_id": game_id})]
    assert read_alone == by_sqlalchemy == [
        ("g1", ["Ann", "Пётр"], {"target": 100, "big_gin_bonus": None}, {"dealer": 1}, 0, AT,
         None)]
    assert read_alone[0][5].utcoffset() == timedelta(0)


def test_a_statement_alone_keeps_its_percent_signs_and_refuses_a_transaction(
    make_app: Any,
) -> None:
    """libpq's "$1" places: a value used twice goes to both, a "%" written in the SQL
    stays one; and a connection in a transaction of psycopg's runs nothing alone."""
    engine = _postgresql(make_app)
    n = bindparam("n", type_=Integer)
    query = select(literal_column("'100%'"), n * 10 + bindparam("m", type_=Integer) + n)
    with _alone(engine) as alone:
        assert Prepared(query).rows(alone, {"n": 7, "m": 3}) == [("100%", 80)]
        alone.driver.execute("SELECT 1")  # psycopg begins its transaction
        with pytest.raises(RuntimeError, match="outside any transaction"):
            Prepared(query).rows(alone, {"n": 7, "m": 3})
        alone.driver.rollback()
        assert Prepared(query).rows(alone, {"n": 1, "m": 0}) == [("100%", 11)]


def test_a_statement_alone_is_prepared_again_after_psycopg_deallocates_everything(
    make_app: Any,
) -> None:
    """psycopg sends ``DEALLOCATE ALL`` after a ``ROLLBACK`` on a connection where it
    prepared statements of its own (the pool's reset of every request that read
    something): the statement alone, prepared before, is prepared again and runs."""
    engine = _postgresql(make_app)
    game_id = _game(engine)
    version = Prepared(select(Game.version).where(Game.id == bindparam("game_id")))
    with _alone(engine) as alone:
        assert version.rows(alone, {"game_id": game_id}) == [(0,)]
        for _ in range(6):  # from its fifth run psycopg prepares a statement itself
            alone.driver.execute("SELECT version FROM games WHERE id = %s", [game_id])
        alone.driver.rollback()
        assert alone.driver.execute("SELECT count(*) FROM pg_prepared_statements"
                                    ).fetchone() == (0,)
        alone.driver.rollback()
        assert version.rows(alone, {"game_id": game_id}) == [(0,)]


def test_a_used_key_alone_fails_as_sqlalchemy_fails_showing_what_libpq_was_sent(
    make_app: Any,
) -> None:
    """The same used key through ``db.Alone``: SQLAlchemy's ``IntegrityError``, whose
    statement and values are the ones libpq was sent ("$1"…, each value once), and the
    connection stays usable (the failed statement was a transaction of its own)."""
    engine = _postgresql(make_app)
    game_id = _game(engine)
    params = {"game_id": game_id, "key": "k1", "at": AT}
    with _alone(engine) as alone:
        assert Prepared(KEY).execute(alone, params) == 1
        with pytest.raises(IntegrityError) as caught:
            Prepared(KEY).execute(alone, params)
        assert Prepared(KEY).execute(alone, dict(params, key="k2")) == 1
    statement = str(caught.value.statement)
    assert statement.startswith("INSERT INTO submissions ")
    assert ("$1" in statement, "$4" in statement, "%s" in statement) == (True, True, False)
    assert list(caught.value.params)[:3] == ["g1", "k1", 1]
    assert caught.value.params[3] == AT  # the same moment, sent in UTC
