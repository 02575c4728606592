"""Dashing States races at a live table (issue 22): each seat's own Dashing States round.

A nullable ``dashing_round_id`` on ``live_seat`` (as ``round_id`` holds a seat's Border-Up round
at a Border-Up race, L-R1), pointing at the seat's :class:`DashingRound`, set to NULL if the round
goes. ``live_seat`` is copied by the batch on SQLite; nothing refers to it, so no row of another
table is touched.

Revision ID: 0022_live_dashing
Revises: 0021_live_tables
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022_live_dashing"
down_revision = "0021_live_tables"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("live_seat", schema=None) as batch_op:
        batch_op.add_column(sa.Column("dashing_round_id", BIG_ID, nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_live_seat_dashing_round_id_dashing_round"),
            "dashing_round",
            ["dashing_round_id"],
            ["id"],
            ondelete="SET NULL",
        )


def downgrade() -> None:
    with op.batch_alter_table("live_seat", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_live_seat_dashing_round_id_dashing_round"), type_="foreignkey"
        )
        batch_op.drop_column("dashing_round_id")
