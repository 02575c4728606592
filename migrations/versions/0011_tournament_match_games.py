"""Tournament matches scored in the app: each game of a round's match, the afternoon draw and picks, who entered the result.

Revision ID: 0011_tournament_match_games
Revises: 0010_combo
Create Date: 2026-11-29 22:20:45.493441

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0011_tournament_match_games"
down_revision = "0010_combo"
branch_labels = None
depends_on = None


def upgrade():
    # The stage's numbers stay unique for playoff and championship games (no match); a round
    # match's games are numbered within their match.
    with op.batch_alter_table("tournament_game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("match_id", sa.Integer(), nullable=True))
        batch_op.drop_constraint(batch_op.f("uq_tournament_game_tournament_id"), type_="unique")
        batch_op.create_unique_constraint(
            batch_op.f("uq_tournament_game_match_id"), ["match_id", "number"]
        )
        batch_op.create_index(
            "uq_tournament_game_stage_number",
            ["tournament_id", "stage", "number"],
            unique=True,
            sqlite_where=sa.text("match_id IS NULL"),
            postgresql_where=sa.text("match_id IS NULL"),
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_tournament_game_match_id_tournament_match"),
            "tournament_match",
            ["match_id"],
            ["id"],
            ondelete="CASCADE",
        )

    with op.batch_alter_table("tournament_match", schema=None) as batch_op:
        batch_op.add_column(sa.Column("entered_by", sa.String(length=8), nullable=True))
        batch_op.add_column(sa.Column("draw", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("picks", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("tournament_match", schema=None) as batch_op:
        batch_op.drop_column("picks")
        batch_op.drop_column("draw")
        batch_op.drop_column("entered_by")

    # The games of round matches go: the old unique (tournament, stage, number) cannot hold them.
    op.execute(sa.text("DELETE FROM tournament_game WHERE match_id IS NOT NULL"))
    with op.batch_alter_table("tournament_game", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_tournament_game_match_id_tournament_match"), type_="foreignkey"
        )
        batch_op.drop_index(
            "uq_tournament_game_stage_number",
            sqlite_where=sa.text("match_id IS NULL"),
            postgresql_where=sa.text("match_id IS NULL"),
        )
        batch_op.drop_constraint(batch_op.f("uq_tournament_game_match_id"), type_="unique")
        batch_op.create_unique_constraint(
            batch_op.f("uq_tournament_game_tournament_id"), ["tournament_id", "stage", "number"]
        )
        batch_op.drop_column("match_id")
