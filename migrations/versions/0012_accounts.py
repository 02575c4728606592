"""Accounts: school admins, who made a student's account, login sessions on the server, teacher invites.

Revision ID: 0012_accounts
Revises: 0011_tournament_match_games
Create Date: 2026-12-01 09:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0012_accounts"
down_revision = "0011_tournament_match_games"
branch_labels = None
depends_on = None


def upgrade():
    # Plain ADD COLUMNs, not a batch: on SQLite a batch would copy the "user" table and drop the
    # old one, and with foreign keys on, dropping it deletes every student's history (ON DELETE
    # CASCADE). The foreign key is written inline, with the name the naming convention gives it
    # (on SQLite an inline one is reflected without its ON DELETE, hence none: see the model).
    op.add_column("user", sa.Column("is_admin", sa.Boolean(), server_default="0", nullable=False))
    op.execute(
        'ALTER TABLE "user" ADD COLUMN managed_by_id INTEGER CONSTRAINT fk_user_managed_by_id_user REFERENCES "user" (id)'
    )
    op.create_index(op.f("ix_user_managed_by_id"), "user", ["managed_by_id"], unique=False)

    # Accounts made from a list of names before this revision: the account was made with its
    # membership of the teacher's class, stamped just before the account itself. A student who
    # signed up joins later, so no membership of theirs is as old as their account.
    user = sa.table(
        "user",
        sa.column("id", sa.Integer),
        sa.column("created_at", sa.DateTime),
        sa.column("managed_by_id", sa.Integer),
    )
    membership = sa.table(
        "class_membership",
        sa.column("class_id", sa.Integer),
        sa.column("student_id", sa.Integer),
        sa.column("joined_at", sa.DateTime),
    )
    school_class = sa.table(
        "school_class", sa.column("id", sa.Integer), sa.column("teacher_id", sa.Integer)
    )
    maker = (
        sa.select(school_class.c.teacher_id)
        .select_from(membership.join(school_class, school_class.c.id == membership.c.class_id))
        .where(membership.c.student_id == user.c.id, membership.c.joined_at <= user.c.created_at)
        .order_by(membership.c.joined_at)
        .limit(1)
        .scalar_subquery()
    )
    # (The role is a PostgreSQL enum: compared as written, not as a bound string.)
    op.execute(user.update().where(sa.text("role = 'student'")).values(managed_by_id=maker))

    op.create_table(
        "login_session",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_login_session_user_id_user"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_session")),
    )
    with op.batch_alter_table("login_session", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_login_session_token_hash"), ["token_hash"], unique=True
        )
        batch_op.create_index(batch_op.f("ix_login_session_user_id"), ["user_id"], unique=False)

    op.create_table(
        "teacher_invite",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("used_by_id", sa.Integer(), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["created_by_id"],
            ["user.id"],
            name=op.f("fk_teacher_invite_created_by_id_user"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["used_by_id"],
            ["user.id"],
            name=op.f("fk_teacher_invite_used_by_id_user"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_teacher_invite")),
    )
    with op.batch_alter_table("teacher_invite", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_teacher_invite_created_by_id"), ["created_by_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_teacher_invite_token_hash"), ["token_hash"], unique=True
        )


def downgrade():
    with op.batch_alter_table("teacher_invite", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_teacher_invite_token_hash"))
        batch_op.drop_index(batch_op.f("ix_teacher_invite_created_by_id"))
    op.drop_table("teacher_invite")

    with op.batch_alter_table("login_session", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_login_session_user_id"))
        batch_op.drop_index(batch_op.f("ix_login_session_token_hash"))
    op.drop_table("login_session")

    # Plain DROP COLUMNs for the same reason as above (SQLite 3.35 and later drop a column in place).
    op.drop_index(op.f("ix_user_managed_by_id"), table_name="user")
    op.drop_column("user", "managed_by_id")
    op.drop_column("user", "is_admin")
