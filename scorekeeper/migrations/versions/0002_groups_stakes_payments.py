"""groups, payments, a game's group and stake, remembered game summaries

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 02:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "groups",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("edit_secret", sa.String(length=64), nullable=False),
        sa.Column("pin_hash", sa.String(length=200), nullable=True),
        sa.Column("pin_failures", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("stake", sa.String(length=20), nullable=True),
        sa.Column("currency", sa.String(length=3), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "payments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.String(length=32), nullable=False),
        sa.Column("payer", sa.String(length=40), nullable=False),
        sa.Column("payee", sa.String(length=40), nullable=False),
        sa.Column("amount", sa.String(length=24), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=True),
        sa.Column("paid_on", sa.Date(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_payments_group_id"), "payments", ["group_id"], unique=False)
    # Plain ADD COLUMN on both databases: no table rebuild, so no game is ever copied.
    op.add_column("games", sa.Column("group_id", sa.String(length=32), nullable=True))
    op.add_column("games", sa.Column("stake", sa.String(length=20), nullable=True))
    op.add_column("games", sa.Column("currency", sa.String(length=3), nullable=True))
    op.create_index(op.f("ix_games_group_id"), "games", ["group_id"], unique=False)
    op.create_table(
        "game_summaries",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("stamp", sa.String(length=64), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    op.drop_table("game_summaries")
    op.drop_index(op.f("ix_games_group_id"), table_name="games")
    op.drop_column("games", "currency")
    op.drop_column("games", "stake")
    op.drop_column("games", "group_id")
    op.drop_index(op.f("ix_payments_group_id"), table_name="payments")
    op.drop_table("payments")
    op.drop_table("groups")
