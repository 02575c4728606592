"""GeoPlunge Live (issue 23): a whole class plays one game, each student on their own device.

``class_game`` holds the game (its class and teacher, its join code, its seed, the teacher's
settings, the questions dealt, where the game is and its version); ``class_game_player`` one row
per student who joined; ``class_game_answer`` one row per student and question (a second answer is
refused by its unique key).

Revision ID: 0025_class_game
Revises: 0024_live_tournament
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025_class_game"
down_revision = "0024_live_tournament"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "class_game",
        sa.Column("id", BIG_ID, nullable=False),
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("teacher_id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=8), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("questions", sa.JSON(), nullable=False),
        sa.Column("phase", sa.String(length=12), nullable=False),
        sa.Column("question", sa.SmallInteger(), nullable=False),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.Column("clues_shown", sa.SmallInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state_version", sa.Integer(), nullable=False),
        sa.Column("phase_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["class_id"],
            ["school_class.id"],
            name=op.f("fk_class_game_class_id_school_class"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["teacher_id"],
            ["user.id"],
            name=op.f("fk_class_game_teacher_id_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_class_game")),
        sa.UniqueConstraint("code", name=op.f("uq_class_game_code")),
    )
    op.create_index(op.f("ix_class_game_class_id"), "class_game", ["class_id"], unique=False)
    op.create_index(op.f("ix_class_game_teacher_id"), "class_game", ["teacher_id"], unique=False)
    op.create_table(
        "class_game_player",
        sa.Column("id", BIG_ID, nullable=False),
        sa.Column("game_id", BIG_ID, nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=False),
        sa.Column("team", sa.SmallInteger(), nullable=True),
        sa.Column("extra_time", sa.Boolean(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["class_game.id"],
            name=op.f("fk_class_game_player_game_id_class_game"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["student_id"],
            ["user.id"],
            name=op.f("fk_class_game_player_student_id_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_class_game_player")),
        sa.UniqueConstraint("game_id", "student_id", name=op.f("uq_class_game_player_game_id")),
    )
    op.create_index(
        op.f("ix_class_game_player_student_id"), "class_game_player", ["student_id"], unique=False
    )
    op.create_table(
        "class_game_answer",
        sa.Column("id", BIG_ID, nullable=False),
        sa.Column("game_id", BIG_ID, nullable=False),
        sa.Column("question", sa.SmallInteger(), nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=False),
        sa.Column("answer", sa.String(length=64), nullable=False),
        sa.Column("right", sa.Boolean(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("ms", sa.Integer(), nullable=True),
        sa.Column("clues_seen", sa.SmallInteger(), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["class_game.id"],
            name=op.f("fk_class_game_answer_game_id_class_game"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["student_id"],
            ["user.id"],
            name=op.f("fk_class_game_answer_student_id_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_class_game_answer")),
        sa.UniqueConstraint(
            "game_id", "question", "student_id", name=op.f("uq_class_game_answer_game_id")
        ),
    )
    op.create_index(
        op.f("ix_class_game_answer_student_id"), "class_game_answer", ["student_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_class_game_answer_student_id"), table_name="class_game_answer")
    op.drop_table("class_game_answer")
    op.drop_index(op.f("ix_class_game_player_student_id"), table_name="class_game_player")
    op.drop_table("class_game_player")
    op.drop_index(op.f("ix_class_game_teacher_id"), table_name="class_game")
    op.drop_index(op.f("ix_class_game_class_id"), table_name="class_game")
    op.drop_table("class_game")
