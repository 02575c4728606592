"""An index for the dashboards' most-confused states: wrong answers that named a state.

Revision ID: 0009_review_log_confusions
Revises: 0008_assignments
Create Date: 2026-11-29 19:11:22.622394

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0009_review_log_confusions"
down_revision = "0008_assignments"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("review_log", schema=None) as batch_op:
        batch_op.create_index(
            "ix_review_log_confusions",
            ["student_id", "fact_key", "answered_postal"],
            unique=False,
            sqlite_where=sa.text("correct = 0 AND answered_postal IS NOT NULL"),
            postgresql_where=sa.text("NOT correct AND answered_postal IS NOT NULL"),
        )


def downgrade():
    with op.batch_alter_table("review_log", schema=None) as batch_op:
        batch_op.drop_index(
            "ix_review_log_confusions",
            sqlite_where=sa.text("correct = 0 AND answered_postal IS NOT NULL"),
            postgresql_where=sa.text("NOT correct AND answered_postal IS NOT NULL"),
        )
