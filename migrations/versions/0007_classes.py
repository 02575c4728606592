"""Classes and their students: join codes and class study settings.

Revision ID: 0007_classes
Revises: 0006_card_games
Create Date: 2026-11-29 16:48:55.003506

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0007_classes"
down_revision = "0006_card_games"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "school_class",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("teacher_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("join_code", sa.String(length=8), nullable=False),
        sa.Column("joining_open", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("desired_retention", sa.Float(), nullable=True),
        sa.Column("new_per_day", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["teacher_id"],
            ["user.id"],
            name=op.f("fk_school_class_teacher_id_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_school_class")),
        sa.UniqueConstraint("join_code", name=op.f("uq_school_class_join_code")),
        sa.UniqueConstraint("teacher_id", "name", name=op.f("uq_school_class_teacher_id")),
    )
    with op.batch_alter_table("school_class", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_school_class_teacher_id"), ["teacher_id"], unique=False
        )

    op.create_table(
        "class_membership",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["class_id"],
            ["school_class.id"],
            name=op.f("fk_class_membership_class_id_school_class"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["student_id"],
            ["user.id"],
            name=op.f("fk_class_membership_student_id_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_class_membership")),
        sa.UniqueConstraint("class_id", "student_id", name=op.f("uq_class_membership_class_id")),
    )
    with op.batch_alter_table("class_membership", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_class_membership_student_id"), ["student_id"], unique=False
        )


def downgrade():
    with op.batch_alter_table("class_membership", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_class_membership_student_id"))

    op.drop_table("class_membership")
    with op.batch_alter_table("school_class", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_school_class_teacher_id"))

    op.drop_table("school_class")
