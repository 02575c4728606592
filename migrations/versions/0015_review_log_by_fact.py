"""An index of each student's answers by fact: a right pick is rated by whether the fact was shown known before, and the next round asks a fact picked right in a strong form (P-M5, P-M6).

Revision ID: 0015_review_log_by_fact
Revises: 0014_memory_study_day
Create Date: 2026-12-01 15:00:00.000000

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0015_review_log_by_fact"
down_revision = "0014_memory_study_day"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("review_log", schema=None) as batch_op:
        batch_op.create_index(
            "ix_review_log_student_fact", ["student_id", "fact_key"], unique=False
        )


def downgrade():
    with op.batch_alter_table("review_log", schema=None) as batch_op:
        batch_op.drop_index("ix_review_log_student_fact")
