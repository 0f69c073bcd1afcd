"""nights: club nights of several tables, their rounds, tables and history

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07 04:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "nights",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("organiser_secret", sa.String(length=64), nullable=False),
        sa.Column("pin_hash", sa.String(length=200), nullable=True),
        sa.Column("pin_failures", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("variant", sa.String(length=20), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("format", sa.String(length=20), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("deals", sa.Integer(), nullable=True),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("teams", sa.JSON(), nullable=True),
        sa.Column("order", sa.JSON(), nullable=False),
        sa.Column("away", sa.JSON(), nullable=False),
        sa.Column("group_id", sa.String(length=32), nullable=True),
        sa.Column("stake", sa.String(length=20), nullable=True),
        sa.Column("currency", sa.String(length=3), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_nights_group_id", "nights", ["group_id"])
    op.create_table(
        "night_rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("night_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("byes", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["night_id"], ["nights.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("night_id", "number"),
    )
    op.create_table(
        "night_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("night_id", sa.String(length=32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("a", sa.String(length=100), nullable=False),
        sa.Column("b", sa.String(length=100), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("confirmed_by", sa.String(length=20), nullable=False),
        sa.Column("carried", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["night_id"], ["nights.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("night_id", "round", "number"),
    )
    op.create_index("ix_night_tables_game_id", "night_tables", ["game_id"])
    op.create_table(
        "night_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("night_id", sa.String(length=32), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("action", sa.String(length=20), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("table", sa.Integer(), nullable=True),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("by", sa.String(length=20), nullable=False),
        sa.ForeignKeyConstraint(["night_id"], ["nights.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_night_changes_night_id", "night_changes", ["night_id"])


def downgrade() -> None:
    op.drop_index("ix_night_changes_night_id", table_name="night_changes")
    op.drop_table("night_changes")
    op.drop_index("ix_night_tables_game_id", table_name="night_tables")
    op.drop_table("night_tables")
    op.drop_table("night_rounds")
    op.drop_index("ix_nights_group_id", table_name="nights")
    op.drop_table("nights")
