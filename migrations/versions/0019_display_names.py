"""Real names only a student's teacher sees (issue 24).

A nullable ``display_name`` on each class membership: the name the class's teacher gives the
student, shown on that teacher's pages of the class and nowhere else. The column is added and
dropped in place, so SQLite keeps the table's rows and foreign keys as they are.

Revision ID: 0019_display_names
Revises: 0018_daily_amount
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_display_names"
down_revision = "0018_daily_amount"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN, not a batch (see 0012): on SQLite a batch copies the table and drops the
    # old one, and with foreign keys on, dropping a table deletes by cascade.
    op.add_column(
        "class_membership", sa.Column("display_name", sa.String(length=60), nullable=True)
    )


def downgrade() -> None:
    # A plain DROP COLUMN for the same reason (SQLite 3.35 and later drop a column in place).
    op.drop_column("class_membership", "display_name")
