"""A daily amount of study, in minutes or items (issue 19).

A student's own amount (40 answers unless they change it, P-D1) and a class's override (both
halves empty: each student's own, P-D2). Columns are added and dropped in
place, so SQLite keeps the tables' rows and foreign keys as they are.

Revision ID: 0018_daily_amount
Revises: 0017_assignment_test_date
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_daily_amount"
down_revision = "0017_assignment_test_date"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMNs, not a batch (see 0012): on SQLite a batch copies the table and drops the
    # old one, and with foreign keys on, dropping "user" or "school_class" deletes by cascade.
    op.add_column(
        "user", sa.Column("daily_amount", sa.Integer(), server_default="40", nullable=False)
    )
    op.add_column(
        "user",
        sa.Column("daily_unit", sa.String(length=8), server_default="answers", nullable=False),
    )
    op.add_column("school_class", sa.Column("daily_amount", sa.Integer(), nullable=True))
    op.add_column("school_class", sa.Column("daily_unit", sa.String(length=8), nullable=True))


def downgrade() -> None:
    # Plain DROP COLUMNs for the same reason (SQLite 3.35 and later drop a column in place).
    op.drop_column("school_class", "daily_unit")
    op.drop_column("school_class", "daily_amount")
    op.drop_column("user", "daily_unit")
    op.drop_column("user", "daily_amount")
