"""group rating kinds: which kinds of game count for a group's ratings

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07 05:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Empty for every group: every kind of game counts until the group chooses.
    op.add_column("groups", sa.Column("rating_kinds", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("groups", "rating_kinds")
