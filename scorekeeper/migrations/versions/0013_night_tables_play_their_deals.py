"""night tables play their deals: a night of a fixed number of deals gives each table's
game the rule ``deals``, so the game ends after them; a table still playing when this
runs gets it too (tables already confirmed keep the result they counted)

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07 13:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

nights = sa.table("nights", sa.column("id", sa.String), sa.column("deals", sa.Integer))
tables = sa.table(
    "night_tables",
    sa.column("night_id", sa.String),
    sa.column("game_id", sa.String),
    sa.column("confirmed_at", sa.DateTime),
)
games = sa.table("games", sa.column("id", sa.String), sa.column("rules", sa.JSON))


def upgrade() -> None:
    bind = op.get_bind()
    playing = bind.execute(
        sa.select(games.c.id, games.c.rules, nights.c.deals)
        .select_from(tables)
        .join(nights, nights.c.id == tables.c.night_id)
        .join(games, games.c.id == tables.c.game_id)
        .where(nights.c.deals.is_not(None), tables.c.confirmed_at.is_(None))
    ).all()
    for game_id, rules, deals in playing:
        if rules.get("deals") is None:
            bind.execute(
                games.update().where(games.c.id == game_id).values(rules={**rules, "deals": deals})
            )


def downgrade() -> None:
    # The rule stays: a game of a fixed number of deals is also what the older code
    # counted for these tables.
    pass
