"""Migrations: up to head, down to nothing, up again, and the models match the result
(SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect

from scorekeeper import (
    db,
    models,  # noqa: F401 - registers the tables
)
from scorekeeper.db import Base, alembic_config, downgrade, make_engine, upgrade

TABLES = {"games", "hands", "changes", "submissions", "groups", "payments"}


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def test_a_database_at_the_head_is_only_looked_at(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Building an app (every process, every test) does not run Alembic on a database
    already at the head; one revision behind, it does, and comes to the head."""
    from alembic import command

    head = ScriptDirectory.from_config(alembic_config(engine)).get_current_head()
    assert db.head_revision() == head
    upgrade(engine, "0003")
    ran: list[str] = []
    original = command.upgrade
    monkeypatch.setattr(command, "upgrade", lambda config, revision: (
        ran.append(revision), original(config, revision)))
    upgrade(engine)
    assert (ran, current_revision(engine), db.current_revision(engine)) == (
        ["head"], head, head)
    upgrade(engine)
    assert ran == ["head"]  # not run again


def differences(engine: Engine) -> list[object]:
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True,
                                                         "compare_server_default": True})
        return list(compare_metadata(context, Base.metadata))


def test_upgrade_downgrade_upgrade(engine: Engine) -> None:
    head = ScriptDirectory.from_config(alembic_config(engine)).get_current_head()
    upgrade(engine)
    assert current_revision(engine) == head
    assert set(inspect(engine).get_table_names()) >= TABLES
    downgrade(engine, "base")
    assert current_revision(engine) is None
    assert not TABLES & set(inspect(engine).get_table_names())
    upgrade(engine)
    assert current_revision(engine) == head
    upgrade(engine)  # a no-op when up to date
    assert current_revision(engine) == head


def test_every_revision_steps_down_and_up(engine: Engine) -> None:
    script = ScriptDirectory.from_config(alembic_config(engine))
    revisions = [r.revision for r in reversed(list(script.walk_revisions()))]
    for revision in revisions:
        upgrade(engine, revision)
        assert current_revision(engine) == revision
    for previous in [*reversed(revisions[:-1]), "base"]:
        downgrade(engine, previous)
        assert current_revision(engine) == (None if previous == "base" else previous)


def test_the_models_match_the_migrated_schema(engine: Engine) -> None:
    upgrade(engine)
    assert differences(engine) == []


def test_the_app_migrates_a_new_database_on_start(make_app: object) -> None:
    app = make_app()  # type: ignore[operator]
    engine = app.extensions["scorekeeper.engine"]
    assert differences(engine) == []


def test_a_games_hands_are_found_by_the_one_index_that_leads_with_the_game(
    engine: Engine,
) -> None:
    """0004 drops ``ix_hands_game_id``: the unique (game_id, number) index serves a
    game's hands (and the cascade when a game is deleted), so every saved hand writes
    one index entry fewer. Before 0004 there were two; after it, reading a game's hands
    still goes through an index, not through every hand of every game."""
    upgrade(engine, "0003")
    assert len(indexes_leading_with_game_id(engine)) == 2
    upgrade(engine)
    assert indexes_leading_with_game_id(engine) == [("game_id", "number")]
    query = "SELECT number, inputs FROM hands WHERE game_id = 'abc'"
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            plan = " ".join(row[-1] for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {query}"))
            assert "USING INDEX sqlite_autoindex_hands_1" in plan, plan
        else:  # a planner that may scan a small table: ask it whether it can do otherwise
            conn.exec_driver_sql("SET enable_seqscan = off")
            plan = " ".join(row[0] for row in conn.exec_driver_sql(f"EXPLAIN {query}"))
            assert "hands_game_id_number_key" in plan, plan
    downgrade(engine, "0003")
    assert len(indexes_leading_with_game_id(engine)) == 2


def indexes_leading_with_game_id(engine: Engine) -> list[tuple[str, ...]]:
    """The columns of each index on ``hands`` whose first column is ``game_id``
    (unique constraints included: SQLite and PostgreSQL keep those as indexes)."""
    inspector = inspect(engine)
    found = [tuple(i["column_names"]) for i in inspector.get_indexes("hands")]
    found += [tuple(u["column_names"]) for u in inspector.get_unique_constraints("hands")]
    return sorted({columns for columns in found if columns[0] == "game_id"})
