"""ruling games and night imports: the game and hand a ruling was kept about; the
nights an import made

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07 12:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Empty for every ruling kept so far: kept from the plain checker, about no game.
    # No foreign key (adding one to an existing SQLite table means rebuilding it): a
    # ruling outlives its game, read by its own link.
    op.add_column("rulings", sa.Column("game_id", sa.String(length=32), nullable=True))
    op.add_column("rulings", sa.Column("hand", sa.Integer(), nullable=True))
    op.create_index("ix_rulings_game_id", "rulings", ["game_id"])
    # Empty for every import made so far: they made games and groups only.
    op.add_column("imports", sa.Column("nights", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("imports", "nights")
    op.drop_index("ix_rulings_game_id", table_name="rulings")
    op.drop_column("rulings", "hand")
    op.drop_column("rulings", "game_id")
