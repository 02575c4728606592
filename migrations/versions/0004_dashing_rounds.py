"""Dashing States rounds against the computer.

Revision ID: 0004_dashing_rounds
Revises: 0003_state_iq_games
Create Date: 2026-11-29 14:36:30.616686

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0004_dashing_rounds"
down_revision = "0003_state_iq_games"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "dashing_round",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("token", sa.String(length=32), nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=False),
        sa.Column("level", sa.String(length=8), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("cards", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("call", sa.JSON(), nullable=True),
        sa.Column("called_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("result", sa.String(length=8), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["student_id"],
            ["user.id"],
            name=op.f("fk_dashing_round_student_id_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dashing_round")),
        sa.UniqueConstraint("token", name=op.f("uq_dashing_round_token")),
    )
    with op.batch_alter_table("dashing_round", schema=None) as batch_op:
        batch_op.create_index(
            "ix_dashing_round_student_created", ["student_id", "created_at"], unique=False
        )


def downgrade():
    with op.batch_alter_table("dashing_round", schema=None) as batch_op:
        batch_op.drop_index("ix_dashing_round_student_created")

    op.drop_table("dashing_round")
