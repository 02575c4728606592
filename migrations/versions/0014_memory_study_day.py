"""The study day of each memory card's last review, so the dashboards' SQL counts elapsed time in study days (P-M1).

Revision ID: 0014_memory_study_day
Revises: 0013_tournament_confirm
Create Date: 2026-12-01 15:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0014_memory_study_day"
down_revision = "0013_tournament_confirm"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("memory_card", schema=None) as batch_op:
        batch_op.add_column(sa.Column("last_study_day", sa.Date(), nullable=True))
    # The last review's study day is the latest study day logged for the fact: study days only grow.
    op.execute(
        sa.text(
            "UPDATE memory_card SET last_study_day = ("
            "SELECT max(review_log.study_day) FROM review_log"
            " WHERE review_log.student_id = memory_card.student_id AND review_log.fact_key = memory_card.fact_key)"
        )
    )


def downgrade():
    with op.batch_alter_table("memory_card", schema=None) as batch_op:
        batch_op.drop_column("last_study_day")
