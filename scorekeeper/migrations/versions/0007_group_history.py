"""a group's version and its history of payments (corrected, deleted, restored)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07 01:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN with a default: no table rebuild; every group starts at version 0.
    op.add_column(
        "groups", sa.Column("version", sa.Integer(), server_default="0", nullable=False)
    )
    op.create_table(
        "group_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.String(length=32), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("action", sa.String(length=20), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("by", sa.String(length=20), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        op.f("ix_group_changes_group_id"), "group_changes", ["group_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_group_changes_group_id"), table_name="group_changes")
    op.drop_table("group_changes")
    op.drop_column("groups", "version")
