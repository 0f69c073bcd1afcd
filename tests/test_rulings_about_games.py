"""Migration 0012: rulings learn the game and hand they were kept about (empty for
every ruling kept before), imports the nights they made; downgraded, both go."""

from __future__ import annotations

from sqlalchemy import inspect, text

from scorekeeper.db import downgrade, make_engine, upgrade


def columns(engine: object, table: str) -> set[str]:
    return {c["name"] for c in inspect(engine).get_columns(table)}  # type: ignore[arg-type]


def test_rulings_kept_before_0012_are_about_no_game(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        upgrade(engine, "0011")
        assert not {"game_id", "hand"} & columns(engine, "rulings")
        with engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO rulings (id, kind, rules, hands, verdict, stamp, created_at) "
                "VALUES ('old', 'gin', '{}', '{}', '{}', 's', '2026-01-01')"))
            conn.execute(text(
                "INSERT INTO imports (id, games, groups, created_at) "
                "VALUES ('made', '[]', '[]', '2026-01-01')"))
        upgrade(engine, "0012")
        with engine.connect() as conn:
            row = conn.execute(text("SELECT id, game_id, hand FROM rulings")).one()
            made = conn.execute(text("SELECT nights FROM imports")).one()
        assert (row.id, row.game_id, row.hand) == ("old", None, None)
        assert made.nights is None
        # A game's rulings are found through an index on the game.
        indexed = [i["column_names"] for i in inspect(engine).get_indexes("rulings")]
        assert ["game_id"] in indexed
        downgrade(engine, "0011")
        assert not {"game_id", "hand"} & columns(engine, "rulings")
        assert "nights" not in columns(engine, "imports")
        with engine.connect() as conn:
            assert conn.execute(text("SELECT id FROM rulings")).scalar_one() == "old"
    finally:
        engine.dispose()
