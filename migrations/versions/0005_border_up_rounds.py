"""Border-Up rounds against the computer.

Revision ID: 0005_border_up_rounds
Revises: 0004_dashing_rounds
Create Date: 2026-11-29 14:56:13.015373

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0005_border_up_rounds"
down_revision = "0004_dashing_rounds"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "border_up_round",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("token", sa.String(length=32), nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=False),
        sa.Column("level", sa.String(length=8), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("hand", sa.JSON(), nullable=False),
        sa.Column("computer_hand", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revealed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("hint", sa.String(length=2), nullable=True),
        sa.Column("call", sa.JSON(), nullable=True),
        sa.Column("called_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("result", sa.String(length=8), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["student_id"],
            ["user.id"],
            name=op.f("fk_border_up_round_student_id_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_border_up_round")),
        sa.UniqueConstraint("token", name=op.f("uq_border_up_round_token")),
    )
    with op.batch_alter_table("border_up_round", schema=None) as batch_op:
        batch_op.create_index(
            "ix_border_up_round_student_created", ["student_id", "created_at"], unique=False
        )


def downgrade():
    with op.batch_alter_table("border_up_round", schema=None) as batch_op:
        batch_op.drop_index("ix_border_up_round_student_created")

    op.drop_table("border_up_round")
