"""short names: the players' short forms a game's editor wrote

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07 02:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Empty for every game: a game shows the short forms the app makes until its editor
    # writes others.
    op.add_column("games", sa.Column("short_names", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("games", "short_names")
