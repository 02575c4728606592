"""Tournament matches scored in the app: who entered each game, and the other team's (or the teacher's) confirmation of each game and of the finish (P-K6).

Revision ID: 0013_tournament_confirm
Revises: 0012_accounts
Create Date: 2026-12-02 10:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0013_tournament_confirm"
down_revision = "0012_accounts"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("tournament_game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("entered_by_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("entered_team_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("confirmed_by_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("disputed_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("disputed_by_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_tournament_game_entered_by_id_user"),
            "user",
            ["entered_by_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_tournament_game_entered_team_id_tournament_team"),
            "tournament_team",
            ["entered_team_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_tournament_game_confirmed_by_id_user"),
            "user",
            ["confirmed_by_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_tournament_game_disputed_by_id_user"),
            "user",
            ["disputed_by_id"],
            ["id"],
            ondelete="SET NULL",
        )
    # Games recorded before this revision were taken as they stood (the old P-K6): they stay so.
    op.execute(sa.text("UPDATE tournament_game SET confirmed_at = entered_at"))

    with op.batch_alter_table("tournament_match", schema=None) as batch_op:
        batch_op.add_column(sa.Column("finish_asked_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("finish_asked_by_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("finish_asked_team_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("finish_confirmed_by_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_tournament_match_finish_asked_by_id_user"),
            "user",
            ["finish_asked_by_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_tournament_match_finish_asked_team_id_tournament_team"),
            "tournament_team",
            ["finish_asked_team_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_tournament_match_finish_confirmed_by_id_user"),
            "user",
            ["finish_confirmed_by_id"],
            ["id"],
            ondelete="SET NULL",
        )


def downgrade():
    with op.batch_alter_table("tournament_match", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_tournament_match_finish_confirmed_by_id_user"), type_="foreignkey"
        )
        batch_op.drop_constraint(
            batch_op.f("fk_tournament_match_finish_asked_team_id_tournament_team"),
            type_="foreignkey",
        )
        batch_op.drop_constraint(
            batch_op.f("fk_tournament_match_finish_asked_by_id_user"), type_="foreignkey"
        )
        batch_op.drop_column("finish_confirmed_by_id")
        batch_op.drop_column("finish_asked_team_id")
        batch_op.drop_column("finish_asked_by_id")
        batch_op.drop_column("finish_asked_at")

    # A game still waiting for the other team would count as recorded under the old ruling:
    # it goes, as a game taken back would.
    op.execute(sa.text("DELETE FROM tournament_game WHERE confirmed_at IS NULL"))
    with op.batch_alter_table("tournament_game", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_tournament_game_disputed_by_id_user"), type_="foreignkey"
        )
        batch_op.drop_constraint(
            batch_op.f("fk_tournament_game_confirmed_by_id_user"), type_="foreignkey"
        )
        batch_op.drop_constraint(
            batch_op.f("fk_tournament_game_entered_team_id_tournament_team"), type_="foreignkey"
        )
        batch_op.drop_constraint(
            batch_op.f("fk_tournament_game_entered_by_id_user"), type_="foreignkey"
        )
        batch_op.drop_column("disputed_by_id")
        batch_op.drop_column("disputed_at")
        batch_op.drop_column("confirmed_by_id")
        batch_op.drop_column("confirmed_at")
        batch_op.drop_column("entered_team_id")
        batch_op.drop_column("entered_by_id")
