"""drop games.tally: a game's totals come from replaying its hands

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06 08:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_column("games", "tally")


def downgrade() -> None:
    op.add_column("games", sa.Column("tally", sa.JSON(), nullable=True))
