"""Card games against computer players, stored as seed and actions.

Revision ID: 0006_card_games
Revises: 0005_border_up_rounds
Create Date: 2026-11-29 16:02:49.682047

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0006_card_games"
down_revision = "0005_border_up_rounds"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "card_game",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("token", sa.String(length=32), nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=24), nullable=False),
        sa.Column("players", sa.SmallInteger(), nullable=False),
        sa.Column("team_size", sa.SmallInteger(), nullable=False),
        sa.Column("level", sa.String(length=8), nullable=False),
        sa.Column("drill", sa.Boolean(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("actions", sa.JSON(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(length=8), nullable=False),
        sa.Column("drill_answers", sa.Integer(), nullable=False),
        sa.Column("drill_right", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["student_id"],
            ["user.id"],
            name=op.f("fk_card_game_student_id_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_card_game")),
        sa.UniqueConstraint("token", name=op.f("uq_card_game_token")),
    )
    with op.batch_alter_table("card_game", schema=None) as batch_op:
        batch_op.create_index(
            "ix_card_game_student_updated", ["student_id", "updated_at"], unique=False
        )


def downgrade():
    with op.batch_alter_table("card_game", schema=None) as batch_op:
        batch_op.drop_index("ix_card_game_student_updated")

    op.drop_table("card_game")
