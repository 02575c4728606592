"""Assignments: practice set for a class or some of its students, and the rounds started from them.

Revision ID: 0008_assignments
Revises: 0007_classes
Create Date: 2026-11-29 18:07:06.296494

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0008_assignments"
down_revision = "0007_classes"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "assignment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=80), nullable=False),
        sa.Column("activities", sa.JSON(), nullable=False),
        sa.Column("scope", sa.JSON(), nullable=False),
        sa.Column("amount", sa.String(length=8), nullable=False),
        sa.Column("quantity", sa.Integer(), nullable=True),
        sa.Column("target", sa.Float(), nullable=True),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("time_zone", sa.String(length=64), nullable=False),
        sa.Column("everyone", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["class_id"],
            ["school_class.id"],
            name=op.f("fk_assignment_class_id_school_class"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_assignment")),
    )
    with op.batch_alter_table("assignment", schema=None) as batch_op:
        batch_op.create_index("ix_assignment_class_due", ["class_id", "due_at"], unique=False)

    op.create_table(
        "assignment_round",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("assignment_id", sa.Integer(), nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=False),
        sa.Column("activity", sa.String(length=24), nullable=False),
        sa.Column("round_token", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["assignment_id"],
            ["assignment.id"],
            name=op.f("fk_assignment_round_assignment_id_assignment"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["student_id"],
            ["user.id"],
            name=op.f("fk_assignment_round_student_id_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_assignment_round")),
        sa.UniqueConstraint("round_token", name=op.f("uq_assignment_round_round_token")),
    )
    with op.batch_alter_table("assignment_round", schema=None) as batch_op:
        batch_op.create_index(
            "ix_assignment_round_assignment_student", ["assignment_id", "student_id"], unique=False
        )

    op.create_table(
        "assignment_student",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("assignment_id", sa.Integer(), nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["assignment_id"],
            ["assignment.id"],
            name=op.f("fk_assignment_student_assignment_id_assignment"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["student_id"],
            ["user.id"],
            name=op.f("fk_assignment_student_student_id_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_assignment_student")),
        sa.UniqueConstraint(
            "assignment_id", "student_id", name=op.f("uq_assignment_student_assignment_id")
        ),
    )
    with op.batch_alter_table("assignment_student", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_assignment_student_student_id"), ["student_id"], unique=False
        )


def downgrade():
    with op.batch_alter_table("assignment_student", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_assignment_student_student_id"))

    op.drop_table("assignment_student")
    with op.batch_alter_table("assignment_round", schema=None) as batch_op:
        batch_op.drop_index("ix_assignment_round_assignment_student")

    op.drop_table("assignment_round")
    with op.batch_alter_table("assignment", schema=None) as batch_op:
        batch_op.drop_index("ix_assignment_class_due")

    op.drop_table("assignment")
