"""A test date an assignment's schedule aims at (issue 19).

Revision ID: 0017_assignment_test_date
Revises: 0016_memory_weights
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_assignment_test_date"
down_revision = "0016_memory_weights"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("assignment", schema=None) as batch_op:
        batch_op.add_column(sa.Column("test_on", sa.Date(), nullable=True))
        batch_op.add_column(sa.Column("test_target", sa.Float(), nullable=True))
        batch_op.create_index("ix_assignment_class_test", ["class_id", "test_on"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("assignment", schema=None) as batch_op:
        batch_op.drop_index("ix_assignment_class_test")
        batch_op.drop_column("test_target")
        batch_op.drop_column("test_on")
