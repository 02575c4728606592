"""State IQ duels at a live table (issue 22): each seat's side of the duel.

A nullable ``state_iq_game_id`` on ``live_seat`` (as ``round_id`` and ``dashing_round_id`` hold a
seat's round at a Border-Up or Dashing States race), pointing at the :class:`StateIqGame` that is
the duel seen from that seat (L-Q1), set to NULL if the game goes. ``live_seat`` is copied by the
batch on SQLite; nothing refers to it, so no row of another table is touched.

Revision ID: 0023_live_state_iq
Revises: 0022_live_dashing
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023_live_state_iq"
down_revision = "0022_live_dashing"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("live_seat", schema=None) as batch_op:
        batch_op.add_column(sa.Column("state_iq_game_id", BIG_ID, nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_live_seat_state_iq_game_id_state_iq_game"),
            "state_iq_game",
            ["state_iq_game_id"],
            ["id"],
            ondelete="SET NULL",
        )


def downgrade() -> None:
    with op.batch_alter_table("live_seat", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_live_seat_state_iq_game_id_state_iq_game"), type_="foreignkey"
        )
        batch_op.drop_column("state_iq_game_id")
