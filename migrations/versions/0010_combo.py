"""Combo 1: matches against a computer team, class tournaments, and who leads first in a card game.

Revision ID: 0010_combo
Revises: 0009_review_log_confusions
Create Date: 2026-11-29 21:50:18.736603

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0010_combo"
down_revision = "0009_review_log_confusions"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "combo_match",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("token", sa.String(length=32), nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=False),
        sa.Column("format", sa.String(length=12), nullable=False),
        sa.Column("level", sa.String(length=8), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("draw", sa.JSON(), nullable=False),
        sa.Column("picks", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("bell_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("result", sa.String(length=8), nullable=False),
        sa.ForeignKeyConstraint(
            ["student_id"],
            ["user.id"],
            name=op.f("fk_combo_match_student_id_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_combo_match")),
        sa.UniqueConstraint("token", name=op.f("uq_combo_match_token")),
    )
    with op.batch_alter_table("combo_match", schema=None) as batch_op:
        batch_op.create_index(
            "ix_combo_match_student_created", ["student_id", "created_at"], unique=False
        )

    op.create_table(
        "combo_match_game",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("match_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("position", sa.SmallInteger(), nullable=False),
        sa.Column("game", sa.String(length=24), nullable=False),
        sa.Column("token", sa.String(length=32), nullable=False),
        sa.Column("first_side", sa.String(length=1), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["combo_match.id"],
            name=op.f("fk_combo_match_game_match_id_combo_match"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_combo_match_game")),
        sa.UniqueConstraint("match_id", "position", name=op.f("uq_combo_match_game_match_id")),
        sa.UniqueConstraint("token", name=op.f("uq_combo_match_game_token")),
    )
    with op.batch_alter_table("combo_match_game", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_combo_match_game_match_id"), ["match_id"], unique=False
        )

    op.create_table(
        "tournament",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("round", sa.SmallInteger(), nullable=False),
        sa.Column("clock_started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("stage", sa.String(length=12), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["class_id"],
            ["school_class.id"],
            name=op.f("fk_tournament_class_id_school_class"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament")),
    )
    with op.batch_alter_table("tournament", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournament_class_id"), ["class_id"], unique=False)

    op.create_table(
        "tournament_team",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.SmallInteger(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_tournament_team_tournament_id_tournament"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_team")),
        sa.UniqueConstraint(
            "tournament_id", "number", name=op.f("uq_tournament_team_tournament_id")
        ),
    )
    with op.batch_alter_table("tournament_team", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_team_tournament_id"), ["tournament_id"], unique=False
        )

    op.create_table(
        "tournament_game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("stage", sa.String(length=12), nullable=False),
        sa.Column("number", sa.SmallInteger(), nullable=False),
        sa.Column("game", sa.String(length=24), nullable=False),
        sa.Column("a_team_id", sa.Integer(), nullable=False),
        sa.Column("b_team_id", sa.Integer(), nullable=False),
        sa.Column("winner_id", sa.Integer(), nullable=True),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["a_team_id"],
            ["tournament_team.id"],
            name=op.f("fk_tournament_game_a_team_id_tournament_team"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["b_team_id"],
            ["tournament_team.id"],
            name=op.f("fk_tournament_game_b_team_id_tournament_team"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_tournament_game_tournament_id_tournament"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["winner_id"],
            ["tournament_team.id"],
            name=op.f("fk_tournament_game_winner_id_tournament_team"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_game")),
        sa.UniqueConstraint(
            "tournament_id", "stage", "number", name=op.f("uq_tournament_game_tournament_id")
        ),
    )
    with op.batch_alter_table("tournament_game", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_game_tournament_id"), ["tournament_id"], unique=False
        )

    op.create_table(
        "tournament_match",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.SmallInteger(), nullable=False),
        sa.Column("a_team_id", sa.Integer(), nullable=False),
        sa.Column("b_team_id", sa.Integer(), nullable=True),
        sa.Column("a_games", sa.SmallInteger(), nullable=True),
        sa.Column("b_games", sa.SmallInteger(), nullable=True),
        sa.Column("tied_games", sa.SmallInteger(), nullable=True),
        sa.Column("winner_id", sa.Integer(), nullable=True),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["a_team_id"],
            ["tournament_team.id"],
            name=op.f("fk_tournament_match_a_team_id_tournament_team"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["b_team_id"],
            ["tournament_team.id"],
            name=op.f("fk_tournament_match_b_team_id_tournament_team"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_tournament_match_tournament_id_tournament"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["winner_id"],
            ["tournament_team.id"],
            name=op.f("fk_tournament_match_winner_id_tournament_team"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_match")),
        sa.UniqueConstraint(
            "tournament_id", "round", "a_team_id", name=op.f("uq_tournament_match_tournament_id")
        ),
    )
    with op.batch_alter_table("tournament_match", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_match_tournament_id"), ["tournament_id"], unique=False
        )

    op.create_table(
        "tournament_member",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["student_id"],
            ["user.id"],
            name=op.f("fk_tournament_member_student_id_user"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["team_id"],
            ["tournament_team.id"],
            name=op.f("fk_tournament_member_team_id_tournament_team"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_tournament_member_tournament_id_tournament"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_member")),
        sa.UniqueConstraint(
            "tournament_id", "student_id", name=op.f("uq_tournament_member_tournament_id")
        ),
    )
    with op.batch_alter_table("tournament_member", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_member_student_id"), ["student_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_tournament_member_team_id"), ["team_id"], unique=False)

    with op.batch_alter_table("card_game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("first_leader", sa.SmallInteger(), nullable=True))


def downgrade():
    with op.batch_alter_table("card_game", schema=None) as batch_op:
        batch_op.drop_column("first_leader")

    with op.batch_alter_table("tournament_member", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_member_team_id"))
        batch_op.drop_index(batch_op.f("ix_tournament_member_student_id"))

    op.drop_table("tournament_member")
    with op.batch_alter_table("tournament_match", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_match_tournament_id"))

    op.drop_table("tournament_match")
    with op.batch_alter_table("tournament_game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_game_tournament_id"))

    op.drop_table("tournament_game")
    with op.batch_alter_table("tournament_team", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_team_tournament_id"))

    op.drop_table("tournament_team")
    with op.batch_alter_table("tournament", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_class_id"))

    op.drop_table("tournament")
    with op.batch_alter_table("combo_match_game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_combo_match_game_match_id"))

    op.drop_table("combo_match_game")
    with op.batch_alter_table("combo_match", schema=None) as batch_op:
        batch_op.drop_index("ix_combo_match_student_created")

    op.drop_table("combo_match")
