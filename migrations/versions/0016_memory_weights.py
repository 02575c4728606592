"""Per-student FSRS weights (issue 19): each student's own weights once a fit has earned them their place, and their last fit attempt (P-M10).

Revision ID: 0016_memory_weights
Revises: 0015_review_log_by_fact
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_memory_weights"
down_revision = "0015_review_log_by_fact"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "memory_weights",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=False),
        sa.Column("weights", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("source", sa.String(length=8), nullable=True),
        sa.Column("replaced_standard", sa.Boolean(), nullable=True),
        sa.Column("fitted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("answers", sa.Integer(), nullable=True),
        sa.Column("train_targets", sa.Integer(), nullable=True),
        sa.Column("test_targets", sa.Integer(), nullable=True),
        sa.Column("before_log_loss", sa.Float(), nullable=True),
        sa.Column("before_rmse_bins", sa.Float(), nullable=True),
        sa.Column("after_log_loss", sa.Float(), nullable=True),
        sa.Column("after_rmse_bins", sa.Float(), nullable=True),
        sa.Column("attempted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempt_answers", sa.Integer(), nullable=False),
        sa.Column("attempt_result", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(
            ["student_id"],
            ["user.id"],
            name=op.f("fk_memory_weights_student_id_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_memory_weights")),
        sa.UniqueConstraint("student_id", name=op.f("uq_memory_weights_student_id")),
    )


def downgrade() -> None:
    op.drop_table("memory_weights")
