"""Links to a school's roster (issue 24, roster import).

A nullable ``roster_id`` on ``user`` (an imported student's OneRoster ``sourcedId``) and on
``school_class`` (an imported class's), each unique per teacher: a student's per the teacher who
imported the account (``managed_by_id``), a class's per its teacher. Re-importing the same files
finds the accounts and classes again by these. Columns and indexes are added and dropped in
place, so SQLite keeps the tables' rows and foreign keys as they are.

Revision ID: 0020_roster_ids
Revises: 0019_display_names
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020_roster_ids"
down_revision = "0019_display_names"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN and CREATE INDEX, not a batch (see 0012): on SQLite a batch copies the
    # table and drops the old one, and with foreign keys on, dropping a table deletes by cascade.
    op.add_column("user", sa.Column("roster_id", sa.String(length=255), nullable=True))
    op.add_column("school_class", sa.Column("roster_id", sa.String(length=255), nullable=True))
    op.create_index("ix_user_roster", "user", ["managed_by_id", "roster_id"], unique=True)
    op.create_index(
        "ix_school_class_roster", "school_class", ["teacher_id", "roster_id"], unique=True
    )


def downgrade() -> None:
    # Plain DROP INDEX and DROP COLUMN for the same reason (SQLite 3.35 and later drop in place).
    op.drop_index("ix_school_class_roster", table_name="school_class")
    op.drop_index("ix_user_roster", table_name="user")
    op.drop_column("school_class", "roster_id")
    op.drop_column("user", "roster_id")
