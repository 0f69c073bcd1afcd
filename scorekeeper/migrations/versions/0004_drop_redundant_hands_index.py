"""drop ix_hands_game_id: the unique (game_id, number) index already leads with game_id

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02 22:20:00
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every lookup and cascade by game uses the unique (game_id, number) index, which
    # starts with the same column; this one only cost every saved hand one more index
    # entry (on SQLite one more page written to the WAL and copied back).
    op.drop_index("ix_hands_game_id", table_name="hands")


def downgrade() -> None:
    op.create_index("ix_hands_game_id", "hands", ["game_id"], unique=False)
