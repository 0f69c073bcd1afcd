"""a game's tally: where it stood after its hands, kept to go on from

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02 14:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN, empty: every game replays once more, then keeps its tally.
    op.add_column("games", sa.Column("tally", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("games", "tally")
