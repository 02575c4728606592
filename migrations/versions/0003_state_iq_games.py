"""State IQ games against the computer.

Revision ID: 0003_state_iq_games
Revises: 0002_memory_model
Create Date: 2026-11-29 14:17:36.453513

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0003_state_iq_games"
down_revision = "0002_memory_model"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "state_iq_game",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("token", sa.String(length=32), nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=False),
        sa.Column("level", sa.String(length=8), nullable=False),
        sa.Column("power_card", sa.SmallInteger(), nullable=False),
        sa.Column("student_card", sa.String(length=2), nullable=False),
        sa.Column("computer_card", sa.String(length=2), nullable=False),
        sa.Column("first_guesser", sa.String(length=8), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("move_count", sa.SmallInteger(), nullable=False),
        sa.Column("recorded", sa.JSON(), nullable=False),
        sa.Column("result", sa.String(length=8), nullable=False),
        sa.Column("student_guesses", sa.SmallInteger(), nullable=True),
        sa.Column("show_aid", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["student_id"],
            ["user.id"],
            name=op.f("fk_state_iq_game_student_id_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_state_iq_game")),
        sa.UniqueConstraint("token", name=op.f("uq_state_iq_game_token")),
    )
    with op.batch_alter_table("state_iq_game", schema=None) as batch_op:
        batch_op.create_index(
            "ix_state_iq_game_student_created", ["student_id", "created_at"], unique=False
        )


def downgrade():
    with op.batch_alter_table("state_iq_game", schema=None) as batch_op:
        batch_op.drop_index("ix_state_iq_game_student_created")

    op.drop_table("state_iq_game")
