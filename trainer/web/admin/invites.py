"""Teacher invites: a random link token, stored only as its hash, single use, for seven days."""

from __future__ import annotations

import datetime as dt
import enum
import secrets

from sqlalchemy import ColumnElement, select, update

from ..extensions import changed_rows, db
from ..models import TeacherInvite, User, token_digest, utcnow

#: How long an invite link works.
INVITE_DAYS = 7
#: Random bytes in a link's token (256 bits).
TOKEN_BYTES = 32
#: Longer tokens in a URL are not ours (token_urlsafe(32) has 43 characters).
_TOKEN_MAX = 64


class InviteStatus(str, enum.Enum):
    OPEN = "open"
    USED = "used"
    REVOKED = "taken back"
    EXPIRED = "expired"


def new_invite(admin: User) -> str:
    """Add an invite from ``admin`` (committed by the caller) and return its token, to show once."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    now = utcnow()
    db.session.add(
        TeacherInvite(
            token_hash=token_digest(token),
            created_by_id=admin.id,
            created_at=now,
            expires_at=now + dt.timedelta(days=INVITE_DAYS),
        )
    )
    return token


def _open_at(now: dt.datetime) -> tuple[ColumnElement[bool], ...]:
    return (
        TeacherInvite.used_at.is_(None),
        TeacherInvite.revoked_at.is_(None),
        TeacherInvite.expires_at > now,
    )


def find_open(token: str) -> TeacherInvite | None:
    """The invite of a link token, while it may still be used; None for any other token."""
    if not token or len(token) > _TOKEN_MAX:
        return None
    return db.session.execute(
        select(TeacherInvite).where(
            TeacherInvite.token_hash == token_digest(token), *_open_at(utcnow())
        )
    ).scalar_one_or_none()


def claim(invite: TeacherInvite, teacher: User) -> bool:
    """Mark ``invite`` used by ``teacher`` (a flushed new account), in the caller's transaction.

    One conditional UPDATE, so two sign-ups sent at once with one link cannot both have it:
    False for the one that came second (or after the admin took the link back).
    """
    changed = changed_rows(
        update(TeacherInvite)
        .where(TeacherInvite.id == invite.id, *_open_at(utcnow()))
        .values(used_at=utcnow(), used_by_id=teacher.id)
        .execution_options(synchronize_session=False)
    )
    return changed == 1


def status(invite: TeacherInvite, now: dt.datetime) -> InviteStatus:
    """Whether an invite may still be used, and if not, why."""
    if invite.used_at is not None:
        return InviteStatus.USED
    if invite.revoked_at is not None:
        return InviteStatus.REVOKED
    if invite.expires_at <= now:
        return InviteStatus.EXPIRED
    return InviteStatus.OPEN
