"""A class tournament's match game played at a live table (issue 22, rulings P-K8 to P-K10).

Three nullable columns on ``live_table``: the tournament match whose game the table plays
(``tournament_match_id``), that game's number in the match (``match_game``), and the seat that
guesses or leads first (``first_leader``, P-K2), with a unique index on the match and the game's
number, so a game of a match has one table. The match's id is a plain column, not a foreign key:
SQLite cannot add one with its ON DELETE in place, and a batch would copy ``live_table`` and drop
the old one (with foreign keys on, dropping it deletes its seats by cascade: see 0012). A table
whose match went is an ordinary table: its end records nothing.

Revision ID: 0024_live_tournament
Revises: 0023_live_state_iq
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024_live_tournament"
down_revision = "0023_live_state_iq"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMNs and an index, not a batch (see the docstring).
    op.add_column("live_table", sa.Column("tournament_match_id", sa.Integer(), nullable=True))
    op.add_column("live_table", sa.Column("match_game", sa.SmallInteger(), nullable=True))
    op.add_column("live_table", sa.Column("first_leader", sa.SmallInteger(), nullable=True))
    op.create_index(
        "ix_live_table_match_game",
        "live_table",
        ["tournament_match_id", "match_game"],
        unique=True,
    )


def downgrade() -> None:
    op.drop_index("ix_live_table_match_game", table_name="live_table")
    # Plain DROP COLUMNs for the same reason (SQLite 3.35 and later drop a column in place).
    for column in ("first_leader", "match_game", "tournament_match_id"):
        op.drop_column("live_table", column)
