"""Memory model: memory cards, the review log, study rounds and study settings.

Revision ID: 0002_memory_model
Revises: 0001_users
Create Date: 2026-11-29 13:07:51.216479

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0002_memory_model"
down_revision = "0001_users"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "memory_card",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=False),
        sa.Column("fact_key", sa.String(length=16), nullable=False),
        sa.Column("facet", sa.String(length=12), nullable=False),
        sa.Column("state", sa.SmallInteger(), nullable=False),
        sa.Column("step", sa.SmallInteger(), nullable=True),
        sa.Column("stability", sa.Float(), nullable=True),
        sa.Column("difficulty", sa.Float(), nullable=True),
        sa.Column("due", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_review", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lapses", sa.Integer(), nullable=False),
        sa.Column("reps", sa.Integer(), nullable=False),
        sa.Column("introduced_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["student_id"],
            ["user.id"],
            name=op.f("fk_memory_card_student_id_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_memory_card")),
        sa.UniqueConstraint("student_id", "fact_key", name=op.f("uq_memory_card_student_id")),
    )
    with op.batch_alter_table("memory_card", schema=None) as batch_op:
        batch_op.create_index("ix_memory_card_student_due", ["student_id", "due"], unique=False)

    op.create_table(
        "review_log",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=False),
        sa.Column("fact_key", sa.String(length=16), nullable=False),
        sa.Column("facet", sa.String(length=12), nullable=False),
        sa.Column("rating", sa.SmallInteger(), nullable=False),
        sa.Column("verdict", sa.String(length=8), nullable=False),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("help", sa.String(length=12), nullable=False),
        sa.Column("mode", sa.String(length=24), nullable=False),
        sa.Column("form", sa.String(length=12), nullable=False),
        sa.Column("answer", sa.String(length=200), nullable=False),
        sa.Column("answered_postal", sa.String(length=2), nullable=True),
        sa.Column("duration_ms", sa.Integer(), nullable=True),
        sa.Column("reviewed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("study_day", sa.Date(), nullable=False),
        sa.Column("round_token", sa.String(length=64), nullable=False),
        sa.Column("item", sa.String(length=32), nullable=False),
        sa.Column("due_after", sa.DateTime(timezone=True), nullable=False),
        sa.Column("stability_after", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["student_id"],
            ["user.id"],
            name=op.f("fk_review_log_student_id_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_review_log")),
        sa.UniqueConstraint("round_token", "item", name=op.f("uq_review_log_round_token")),
    )
    with op.batch_alter_table("review_log", schema=None) as batch_op:
        batch_op.create_index(
            "ix_review_log_student_facet_reviewed_at",
            ["student_id", "facet", "reviewed_at"],
            unique=False,
        )
        batch_op.create_index(
            "ix_review_log_student_reviewed_at", ["student_id", "reviewed_at"], unique=False
        )
        batch_op.create_index(
            "ix_review_log_student_study_day", ["student_id", "study_day"], unique=False
        )

    op.create_table(
        "study_round",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("token", sa.String(length=32), nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("items", sa.JSON(), nullable=False),
        sa.Column("focus", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["student_id"],
            ["user.id"],
            name=op.f("fk_study_round_student_id_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_study_round")),
        sa.UniqueConstraint("token", name=op.f("uq_study_round_token")),
    )
    with op.batch_alter_table("study_round", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_study_round_student_id"), ["student_id"], unique=False)

    with op.batch_alter_table("user", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("desired_retention", sa.Float(), server_default="0.9", nullable=False)
        )
        batch_op.add_column(
            sa.Column("new_per_day", sa.Integer(), server_default="20", nullable=False)
        )
        batch_op.add_column(sa.Column("time_zone", sa.String(length=64), nullable=True))
        batch_op.add_column(
            sa.Column("multiple_choice", sa.Boolean(), server_default=sa.true(), nullable=False)
        )


def downgrade():
    with op.batch_alter_table("user", schema=None) as batch_op:
        batch_op.drop_column("multiple_choice")
        batch_op.drop_column("time_zone")
        batch_op.drop_column("new_per_day")
        batch_op.drop_column("desired_retention")

    with op.batch_alter_table("study_round", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_study_round_student_id"))

    op.drop_table("study_round")
    with op.batch_alter_table("review_log", schema=None) as batch_op:
        batch_op.drop_index("ix_review_log_student_study_day")
        batch_op.drop_index("ix_review_log_student_reviewed_at")
        batch_op.drop_index("ix_review_log_student_facet_reviewed_at")

    op.drop_table("review_log")
    with op.batch_alter_table("memory_card", schema=None) as batch_op:
        batch_op.drop_index("ix_memory_card_student_due")

    op.drop_table("memory_card")
