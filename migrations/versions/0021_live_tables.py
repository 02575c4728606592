"""Live tables (issue 22): a card game played by several students, each on their own device.

``live_table`` holds the table's game, its code, its state in the lobby and, once started, the
game's seed and actions; ``live_seat`` one row per seat (a student's, the computer's, or free),
with its own Border-Up round at a Border-Up race.

Revision ID: 0021_live_tables
Revises: 0020_roster_ids
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021_live_tables"
down_revision = "0020_roster_ids"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "live_table",
        sa.Column("id", BIG_ID, nullable=False),
        sa.Column("code", sa.String(length=8), nullable=False),
        sa.Column("host_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=24), nullable=False),
        sa.Column("players", sa.SmallInteger(), nullable=False),
        sa.Column("team_size", sa.SmallInteger(), nullable=False),
        sa.Column("level", sa.String(length=8), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("actions", sa.JSON(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("turn_seconds", sa.SmallInteger(), nullable=True),
        sa.Column("covered", sa.JSON(), nullable=False),
        sa.Column("rematch_code", sa.String(length=8), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["host_id"], ["user.id"], name=op.f("fk_live_table_host_id_user"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_table")),
        sa.UniqueConstraint("code", name=op.f("uq_live_table_code")),
    )
    op.create_index(op.f("ix_live_table_host_id"), "live_table", ["host_id"], unique=False)
    op.create_table(
        "live_seat",
        sa.Column("id", BIG_ID, nullable=False),
        sa.Column("table_id", BIG_ID, nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("computer", sa.Boolean(), nullable=False),
        sa.Column("drill", sa.Boolean(), nullable=False),
        sa.Column("cheer", sa.SmallInteger(), nullable=True),
        sa.Column("cheered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("result", sa.String(length=8), nullable=True),
        sa.Column("round_id", BIG_ID, nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["live_table.id"],
            name=op.f("fk_live_seat_table_id_live_table"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["border_up_round.id"],
            name=op.f("fk_live_seat_round_id_border_up_round"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_live_seat_user_id_user"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_seat")),
        sa.UniqueConstraint("table_id", "seat", name=op.f("uq_live_seat_table_id")),
    )
    op.create_index("ix_live_seat_user", "live_seat", ["user_id", "table_id"], unique=False)
    op.create_table(
        "live_invite",
        sa.Column("id", BIG_ID, nullable=False),
        sa.Column("table_id", BIG_ID, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("inviter_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["live_table.id"],
            name=op.f("fk_live_invite_table_id_live_table"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_live_invite_user_id_user"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["inviter_id"],
            ["user.id"],
            name=op.f("fk_live_invite_inviter_id_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_invite")),
        sa.UniqueConstraint("table_id", "user_id", name=op.f("uq_live_invite_table_id")),
    )
    op.create_index(op.f("ix_live_invite_user_id"), "live_invite", ["user_id"], unique=False)
    op.create_table(
        "live_presence",
        sa.Column("user_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_live_presence_user_id_user"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_live_presence")),
    )


def downgrade() -> None:
    op.drop_table("live_presence")
    op.drop_index(op.f("ix_live_invite_user_id"), table_name="live_invite")
    op.drop_table("live_invite")
    op.drop_index("ix_live_seat_user", table_name="live_seat")
    op.drop_table("live_seat")
    op.drop_index(op.f("ix_live_table_host_id"), table_name="live_table")
    op.drop_table("live_table")
