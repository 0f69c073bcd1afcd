"""Migration 0013: a night of a fixed number of deals gives the game of each table still
playing its ``deals`` rule (older code counted the deals from outside the game); a
confirmed table's game and a night to the target are left as they were."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from scorekeeper.db import make_engine, upgrade
from scorekeeper.models import Game, Night, NightTable

RULES = {"preset": "classic"}


def night(db: Session, deals: int | None, confirmed: bool) -> str:
    made = Night(variant="gin", rules=RULES, format="round_robin", deals=deals,
                 players=["Ann", "Bob"], order=["match_points"])
    game = Game(variant="gin", players=["Ann", "Bob"], rules=dict(RULES))
    db.add_all([made, game])
    db.flush()
    db.add(NightTable(night_id=made.id, round=1, number=1, a="Ann", b="Bob", game_id=game.id,
                      confirmed_at=datetime(2026, 1, 1, tzinfo=UTC) if confirmed else None))
    return game.id


def test_tables_still_playing_take_their_nights_deals(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        upgrade(engine, "0012")
        with Session(engine) as db, db.begin():
            playing = night(db, 6, confirmed=False)
            confirmed = night(db, 6, confirmed=True)
            to_target = night(db, None, confirmed=False)
        upgrade(engine, "0013")
        with Session(engine) as db:
            rules = dict(db.execute(select(Game.id, Game.rules)).all())
        assert rules[playing] == {"preset": "classic", "deals": 6}
        assert rules[confirmed] == RULES
        assert rules[to_target] == RULES
    finally:
        engine.dispose()
