"""The database tables, as typed SQLAlchemy 2.0 models. Times are stored in UTC."""

from __future__ import annotations

import datetime as dt
import enum
import hashlib
from typing import TYPE_CHECKING, Any

from flask import current_app, has_app_context
from flask_login import UserMixin
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    DateTime,
    Enum,
    Float,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    TypeDecorator,
    UniqueConstraint,
    delete,
    false,
    func,
    text,
    true,
)
from sqlalchemy.engine import Dialect, Row
from sqlalchemy.orm import Mapped, mapped_column
from werkzeug.security import check_password_hash, generate_password_hash

from trainer import daily, srs

from .extensions import db

if TYPE_CHECKING:
    # What db.Model is to a type checker: Flask-SQLAlchemy builds it at run time from this base
    # (extensions.Base), adding the table name and the session's query property.
    from .extensions import Base as Model
else:
    Model = db.Model


def utcnow() -> dt.datetime:
    """The current time, timezone-aware UTC."""
    return dt.datetime.now(dt.UTC)


class UTCDateTime(TypeDecorator[dt.datetime]):
    """A datetime stored as UTC and always read back timezone-aware (SQLite forgets the zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: dt.datetime | None, dialect: Dialect) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetimes are not stored; use timezone-aware UTC")
        return value.astimezone(dt.UTC)

    def process_result_value(
        self, value: dt.datetime | None, dialect: Dialect
    ) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=dt.UTC)
        return value.astimezone(dt.UTC)


class Role(str, enum.Enum):
    """What a user is: a student learns; a teacher also runs classes."""

    STUDENT = "student"
    TEACHER = "teacher"


USERNAME_MAX = 32
#: A ``sourcedId`` from a school's roster (OneRoster): a GUID in practice, any string in the spec.
ROSTER_ID_MAX = 255


class User(UserMixin, Model):
    """An account. Students have no email address: they are children."""

    __tablename__ = "user"
    __table_args__ = (Index("ix_user_roster", "managed_by_id", "roster_id", unique=True),)

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(USERNAME_MAX))
    #: Lower-cased username, so "Ana" and "ana" cannot both sign up.
    username_key: Mapped[str] = mapped_column(String(USERNAME_MAX), unique=True, index=True)
    email: Mapped[str | None] = mapped_column(String(254))
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[Role] = mapped_column(
        Enum(
            Role,
            name="user_role",
            values_callable=lambda roles: [r.value for r in roles],
            validate_strings=True,
        )
    )
    created_at: Mapped[dt.datetime] = mapped_column(
        UTCDateTime(), default=utcnow, server_default=func.now()
    )
    last_login_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())

    # Study settings (a student's own; a class setting may override them later).
    desired_retention: Mapped[float] = mapped_column(
        Float, default=srs.DEFAULT_RETENTION, server_default="0.9"
    )
    new_per_day: Mapped[int] = mapped_column(
        Integer, default=srs.DEFAULT_NEW_PER_DAY, server_default="20"
    )
    #: An IANA zone name; None means "the browser's".
    time_zone: Mapped[str | None] = mapped_column(String(64))
    #: Offer multiple choice for facts still being learned (young learners).
    multiple_choice: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    #: How much to study each day: a number of answers or of minutes (P-D1; 40 answers by default).
    daily_amount: Mapped[int] = mapped_column(
        Integer, default=daily.DEFAULT.amount, server_default="40"
    )
    daily_unit: Mapped[str] = mapped_column(
        String(8), default=daily.DEFAULT.unit.value, server_default="answers"
    )

    #: A school admin: a teacher account that also invites the school's other teachers
    #: (made by ``flask --app app create-admin``).
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: The teacher who made this account from a list of names (None: the student signed up
    #: themselves). Only that teacher may give it a new password; joining a class never changes it.
    #: No ON DELETE action: such a teacher's account cannot be deleted while accounts they made
    #: remain (and SQLite adds the column in place only so; see migration 0012).
    managed_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"), index=True)
    #: The student's ``sourcedId`` in the school's roster (OneRoster), for an account the teacher
    #: ``managed_by_id`` imported (issue 24): unique per that teacher, None otherwise.
    roster_id: Mapped[str | None] = mapped_column(String(ROSTER_ID_MAX), nullable=True)

    #: The login session this object was loaded for and its token (set by ``trainer.web.auth.sessions``;
    #: the token is never stored): Flask-Login keeps the token in the session cookie as the user's id.
    #: Plain attributes, not columns: ``__allow_unmapped__`` lets the ORM pass over annotations
    #: that are not ``Mapped[...]``.
    __allow_unmapped__ = True
    session_token: str | None = None
    login_session: LoginSession | None = None

    @staticmethod
    def key_for(username: str) -> str:
        """The case-insensitive lookup key of a username."""
        return username.strip().casefold()

    @staticmethod
    def password_method() -> str:
        """The app's ``PASSWORD_HASH_METHOD`` (scrypt, Werkzeug's default KDF, unless a test's
        config asks for a cheap one); scrypt outside an app."""
        if has_app_context():
            return str(current_app.config.get("PASSWORD_HASH_METHOD") or "scrypt")
        return "scrypt"

    @staticmethod
    def hash_password(password: str, method: str | None = None) -> str:
        """A salted hash of ``password``, as ``password_hash`` stores it, by ``method`` (the app's
        :meth:`password_method` when None; pass it where no app context is, in threads)."""
        return generate_password_hash(password, method=method or User.password_method())

    def set_password(self, password: str) -> None:
        """Store a new password and end every login session of the account.

        A new password must sign out every device that knew the old one (a teacher's reset says
        "their old password no longer works"), so the two are one step that cannot be forgotten.
        The sessions go when the caller commits, with the new hash.
        """
        self.password_hash = self.hash_password(password)
        if self.id is not None:
            db.session.execute(delete(LoginSession).where(LoginSession.user_id == self.id))

    def check_password(self, password: str) -> bool:
        """True when ``password`` matches the stored hash."""
        return check_password_hash(self.password_hash, password)

    def is_managed_by(self, teacher_id: int) -> bool:
        """True when ``teacher_id`` made this account from a list of names (and so may reset it)."""
        return self.managed_by_id is not None and self.managed_by_id == teacher_id

    def get_id(self) -> str:
        """Flask-Login's id: the login session's token, so ending the session ends the cookie's login.

        Raises:
            RuntimeError: the user was not logged in through ``trainer.web.auth.sessions.start``.
        """
        if not self.session_token:
            raise RuntimeError(
                "log in with trainer.web.auth.sessions.start(), which makes a login session"
            )
        return self.session_token

    def __eq__(self, other: object) -> bool:
        # UserMixin compares get_id(), which is now a session's token: two objects of one account
        # are still the same user.
        if isinstance(other, User):
            return self.id == other.id
        return NotImplemented

    __hash__ = object.__hash__

    @property
    def is_teacher(self) -> bool:
        return self.role is Role.TEACHER

    def __repr__(self) -> str:
        return f"<User {self.username} ({self.role.value})>"


def token_digest(token: str) -> str:
    """The SHA-256 (hex) under which a secret token (a login session's, an invite's) is stored:
    a copy of the database holds no usable token. A random 256-bit token needs no salt or slow hash."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class LoginSession(Model):
    """One login on one device, kept on the server (see ``trainer.web.auth.sessions`` for why).

    Only the SHA-256 of the session's random token is stored; the token itself is in the
    user's signed session cookie. Deleting the row ends that login, wherever the cookie is.
    """

    __tablename__ = "login_session"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)
    last_seen_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)


class TeacherInvite(Model):
    """A single-use link from a school admin that lets one person make a teacher account.

    Only the SHA-256 of the link's random token is stored: the link is shown once, to the admin.
    """

    __tablename__ = "teacher_invite"

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    created_by_id: Mapped[int] = mapped_column(
        ForeignKey("user.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)
    expires_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    used_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    used_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    revoked_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())


#: SQLite only autoincrements an INTEGER primary key; PostgreSQL gets a 64-bit one.
BigId = BigInteger().with_variant(Integer, "sqlite")


class MemoryCard(Model):
    """A student's FSRS schedule for one fact, in columns so the queue is one indexed query."""

    __tablename__ = "memory_card"
    __table_args__ = (
        UniqueConstraint("student_id", "fact_key"),
        Index("ix_memory_card_student_due", "student_id", "due"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    student_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    fact_key: Mapped[str] = mapped_column(String(16))
    facet: Mapped[str] = mapped_column(String(12))
    state: Mapped[int] = mapped_column(SmallInteger)
    step: Mapped[int | None] = mapped_column(SmallInteger)
    stability: Mapped[float | None] = mapped_column(Float)
    difficulty: Mapped[float | None] = mapped_column(Float)
    due: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    last_review: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    #: The student's study day of the last review: the dashboards' SQL counts elapsed study days from it (P-M1).
    last_study_day: Mapped[dt.date | None] = mapped_column(Date)
    lapses: Mapped[int] = mapped_column(Integer, default=0)
    reps: Mapped[int] = mapped_column(Integer, default=0)
    #: When the fact was first answered: counts against that day's new-fact limit.
    introduced_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())


def memory_from(card: MemoryCard | Row[Any]) -> srs.Memory:
    """The schedule held by a memory card (an ORM object or a row of its table)."""
    return srs.Memory(
        state=srs.MemoryState(card.state),
        step=card.step,
        stability=card.stability,
        difficulty=card.difficulty,
        due=card.due,
        last_review=card.last_review,
        lapses=card.lapses,
        reps=card.reps,
    )


def memory_columns(memory: srs.Memory) -> dict[str, Any]:
    """The memory card columns that store ``memory`` (the inverse of :func:`memory_from`)."""
    return {
        "state": int(memory.state),
        "step": memory.step,
        "stability": memory.stability,
        "difficulty": memory.difficulty,
        "due": memory.due,
        "last_review": memory.last_review,
        "lapses": memory.lapses,
        "reps": memory.reps,
    }


class ReviewLog(Model):
    """One answer about one fact, from any mode: the memory model's history, written once."""

    __tablename__ = "review_log"
    __table_args__ = (
        # The idempotency key: one review per (round, item), however often it is submitted.
        UniqueConstraint("round_token", "item"),
        Index("ix_review_log_student_reviewed_at", "student_id", "reviewed_at"),
        Index("ix_review_log_student_facet_reviewed_at", "student_id", "facet", "reviewed_at"),
        Index("ix_review_log_student_study_day", "student_id", "study_day"),
        # One student's answers about one fact: what they have shown they know (P-M5, P-M6).
        Index("ix_review_log_student_fact", "student_id", "fact_key"),
        # The dashboards' most-confused states: wrong answers that named a state.
        Index(
            "ix_review_log_confusions",
            "student_id",
            "fact_key",
            "answered_postal",
            sqlite_where=text("correct = 0 AND answered_postal IS NOT NULL"),
            postgresql_where=text("NOT correct AND answered_postal IS NOT NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    student_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    fact_key: Mapped[str] = mapped_column(String(16))
    facet: Mapped[str] = mapped_column(String(12))
    rating: Mapped[int] = mapped_column(SmallInteger)
    verdict: Mapped[str] = mapped_column(String(8))
    correct: Mapped[bool] = mapped_column(Boolean)
    help: Mapped[str] = mapped_column(String(12))
    mode: Mapped[str] = mapped_column(String(24))
    form: Mapped[str] = mapped_column(String(12))
    answer: Mapped[str] = mapped_column(String(200))
    #: The state the answer named, when it named one: which state was taken for which.
    answered_postal: Mapped[str | None] = mapped_column(String(2))
    duration_ms: Mapped[int | None] = mapped_column(Integer)
    reviewed_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    #: The student's local study day (days start at 4 a.m.): streaks and calendars.
    study_day: Mapped[dt.date] = mapped_column(Date)
    round_token: Mapped[str] = mapped_column(String(64))
    item: Mapped[str] = mapped_column(String(32))
    #: The schedule the review produced.
    due_after: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    stability_after: Mapped[float | None] = mapped_column(Float)


class MemoryWeights(Model):
    """A student's own FSRS-6 weights, once a fit has earned them their place, and the student's
    last fit attempt (ruling P-M10): one row per student, written by ``trainer.web.fitting``."""

    __tablename__ = "memory_weights"

    id: Mapped[int] = mapped_column(primary_key=True)
    student_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), unique=True)
    #: The 21 weights in use for this student; None: the standard ones (no fit was adopted yet).
    weights: Mapped[list[float] | None] = mapped_column(JSON(none_as_null=True))
    #: Which candidate was adopted: "own" (fitted on the student's answers) or "class" (their
    #: class's pooled fit); what it replaced was the standard set or an earlier fit.
    source: Mapped[str | None] = mapped_column(String(8))
    replaced_standard: Mapped[bool | None] = mapped_column(Boolean)
    #: When the set in use was adopted, the answers in the student's log then, and the targets
    #: it was judged on (trained on, held out).
    fitted_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    answers: Mapped[int | None] = mapped_column(Integer)
    train_targets: Mapped[int | None] = mapped_column(Integer)
    test_targets: Mapped[int | None] = mapped_column(Integer)
    #: On the held-out answers: log loss and RMSE over bins of the set in use before, and of the
    #: set adopted (lower is better).
    before_log_loss: Mapped[float | None] = mapped_column(Float)
    before_rmse_bins: Mapped[float | None] = mapped_column(Float)
    after_log_loss: Mapped[float | None] = mapped_column(Float)
    after_rmse_bins: Mapped[float | None] = mapped_column(Float)
    #: The last fit attempt, adopted or not: when it read the log (answers after this are new),
    #: how many answers it read, and what it found.
    attempted_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    attempt_answers: Mapped[int] = mapped_column(Integer)
    attempt_result: Mapped[str] = mapped_column(String(200))


class StudyRound(Model):
    """A flashcard review round: the facts dealt, each in its form, replayable from its seed."""

    __tablename__ = "study_round"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    token: Mapped[str] = mapped_column(String(32), unique=True)
    student_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    #: [[fact key, form], ...] in the order they are asked.
    items: Mapped[list[list[str]]] = mapped_column(JSON)
    #: What the student chose to focus on: {"facets": [...], "area": "region:west" or "zone:central" or ""}.
    focus: Mapped[dict[str, object]] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)


class StateIqGame(Model):
    """A State IQ game against the computer: its deal and every move, so it replays exactly.

    The computer's card is kept here and nowhere else until the student's guessing is over.
    """

    __tablename__ = "state_iq_game"
    __table_args__ = (Index("ix_state_iq_game_student_created", "student_id", "created_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    token: Mapped[str] = mapped_column(String(32), unique=True)
    student_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    level: Mapped[str] = mapped_column(String(8))
    power_card: Mapped[int] = mapped_column(SmallInteger)
    student_card: Mapped[str] = mapped_column(String(2))
    computer_card: Mapped[str] = mapped_column(String(2))
    first_guesser: Mapped[str] = mapped_column(String(8))
    seed: Mapped[int] = mapped_column(BigInteger)
    #: The student's moves in order: [["guess", "UT"], ["clue", "KS"], ...] (refused clues included).
    moves: Mapped[list[list[str]]] = mapped_column(JSON)
    #: len(moves): the version a move must name, so a replayed or stale move changes nothing.
    move_count: Mapped[int] = mapped_column(SmallInteger, default=0)
    #: Items of the game already recorded in the memory model.
    recorded: Mapped[list[str]] = mapped_column(JSON)
    #: "playing", then "won", "lost" or "tied" (the student's result).
    result: Mapped[str] = mapped_column(String(8), default="playing")
    #: Guesses the student needed (None: not guessed, or not yet).
    student_guesses: Mapped[int | None] = mapped_column(SmallInteger)
    show_aid: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)
    finished_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())


class DashingRound(Model):
    """A Dashing States round: the five Map cards dealt, the call, and the race's result.

    The dealt states stay here; the page shows only their Map cards until the call.
    """

    __tablename__ = "dashing_round"
    __table_args__ = (Index("ix_dashing_round_student_created", "student_id", "created_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    token: Mapped[str] = mapped_column(String(32), unique=True)
    student_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    #: "easy", "medium" or "hard" for a race; "practice" for an untimed round.
    level: Mapped[str] = mapped_column(String(8))
    seed: Mapped[int] = mapped_column(BigInteger)
    #: The five states dealt, in the order their Map cards are shown.
    cards: Mapped[list[str]] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)
    #: The student's call, as sent: {"set_aside": 2, "order": [...], "names": {...}, "capitals": {...}}.
    call: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    called_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    #: "playing", then "won", "lost" or "tied" (a race) or "right" / "wrong" (practice).
    result: Mapped[str] = mapped_column(String(8), default="playing")
    #: Seconds from the deal to the student's successful call (personal bests).
    seconds: Mapped[float | None] = mapped_column(Float)


class BorderUpRound(Model):
    """A Border-Up round: both hands dealt (36 cards), the student's call and the race's result.

    The computer's hand and the solutions stay here until the round is over.
    """

    __tablename__ = "border_up_round"
    __table_args__ = (Index("ix_border_up_round_student_created", "student_id", "created_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    token: Mapped[str] = mapped_column(String(32), unique=True)
    student_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    level: Mapped[str] = mapped_column(String(8))
    seed: Mapped[int] = mapped_column(BigInteger)
    hand: Mapped[list[str]] = mapped_column(JSON)
    computer_hand: Mapped[list[str]] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)
    #: "Ready, Set, GeoPlunge!": the cards are turned over and the race starts.
    revealed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    #: The card highlighted as a hint, if the student asked for one (the round is then "helped").
    hint: Mapped[str | None] = mapped_column(String(2))
    #: The two groups called: [["MD", "NC", "VA"], [...]].
    call: Mapped[list[list[str]] | None] = mapped_column(JSON)
    called_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    #: "dealt", "playing", then "won", "lost" or "tied".
    result: Mapped[str] = mapped_column(String(8), default="dealt")
    #: Seconds from "Ready, Set, GeoPlunge!" to a successful call.
    seconds: Mapped[float | None] = mapped_column(Float)


class CardGame(Model):
    """A card game against computer players, stored as its seed and every action (G9).

    The state is rebuilt by replaying the actions; the other seats' hands are never stored
    apart from the seed, and never sent to the student.
    """

    __tablename__ = "card_game"
    __table_args__ = (Index("ix_card_game_student_updated", "student_id", "updated_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    token: Mapped[str] = mapped_column(String(32), unique=True)
    student_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    #: The game's slug in the registry ("geoplunge-51").
    game: Mapped[str] = mapped_column(String(24))
    players: Mapped[int] = mapped_column(SmallInteger)
    team_size: Mapped[int] = mapped_column(SmallInteger, default=1)
    #: The computer players' level: "easy", "medium" or "hard".
    level: Mapped[str] = mapped_column(String(8))
    #: Drill mode: the student's own rankings are hidden and every answer is a review.
    drill: Mapped[bool] = mapped_column(Boolean, default=False)
    seed: Mapped[int] = mapped_column(BigInteger)
    #: Every action so far, the student's and the computer players', in order.
    actions: Mapped[list[int]] = mapped_column(JSON)
    #: len(actions): the version a move must name, so a replayed or stale move changes nothing.
    ply: Mapped[int] = mapped_column(Integer, default=0)
    #: "playing", then "won", "lost" or "drawn" (the student's side's result).
    result: Mapped[str] = mapped_column(String(8), default="playing")
    #: Drill answers so far, and how many were right.
    drill_answers: Mapped[int] = mapped_column(Integer, default=0)
    drill_right: Mapped[int] = mapped_column(Integer, default=0)
    #: The seat that leads first when an earlier game decided it (Play the Ranks in a Combo 1
    #: match); None: the statehood draw decides (R2).
    first_leader: Mapped[int | None] = mapped_column(SmallInteger)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)
    finished_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())


class LiveTable(Model):
    """A card game played live by several students, each on their own device (issue 22).

    Before it starts (``status`` "open") it is a lobby: its seats (:class:`LiveSeat`) fill as
    classmates join with its code. Once started it is stored as the game's seed and every action,
    as :class:`CardGame` is (G9), and every seat's view is rebuilt by replay. ``version`` counts
    every change (a seat taken, a move made): a change names the version it was made on, so of two
    at once exactly one is kept.
    """

    __tablename__ = "live_table"
    #: A game of a tournament match has one table (P-K8); other tables have neither column.
    __table_args__ = (
        Index("ix_live_table_match_game", "tournament_match_id", "match_game", unique=True),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    #: What classmates type to join (``trainer.live.TABLE_CODE_ALPHABET``).
    code: Mapped[str] = mapped_column(String(8), unique=True)
    host_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    #: The game's slug in the registry ("geoplunge-51").
    game: Mapped[str] = mapped_column(String(24))
    players: Mapped[int] = mapped_column(SmallInteger)
    team_size: Mapped[int] = mapped_column(SmallInteger, default=1)
    #: The computer players' level: "easy", "medium" or "hard".
    level: Mapped[str] = mapped_column(String(8))
    #: "open" (the lobby), "playing", "over", or "closed" (the host closed it before it started).
    status: Mapped[str] = mapped_column(String(8), default="open")
    seed: Mapped[int | None] = mapped_column(BigInteger)
    actions: Mapped[list[int]] = mapped_column(JSON, default=list)
    #: len(actions): the version a move must name.
    ply: Mapped[int] = mapped_column(Integer, default=0)
    #: Every change to the table (seats or moves); what the pages poll and the socket announces.
    version: Mapped[int] = mapped_column(Integer, default=0)
    #: Seconds each student has for a move before the computer plays it for them (L-T7); None: no timer.
    turn_seconds: Mapped[int | None] = mapped_column(SmallInteger)
    #: The plies at which the computer played for a student who was away or out of time (L-T7).
    covered: Mapped[list[int]] = mapped_column(JSON, default=list)
    #: The code of the table opened to play again with the same classmates (L-T10), once one was.
    rematch_code: Mapped[str | None] = mapped_column(String(8))
    #: A class tournament's match whose game ``match_game`` (its number) the table plays, its seat
    #: 0 team A's and seat 1 team B's (P-K8); the result is recorded into the match at the end
    #: (P-K9). A plain id, not a foreign key (migration 0024): a table whose match went is ordinary.
    tournament_match_id: Mapped[int | None] = mapped_column(Integer)
    match_game: Mapped[int | None] = mapped_column(SmallInteger)
    #: The seat that guesses (State IQ) or leads (Play the Ranks) first, when the match decided it
    #: (P-K2); None: the game's own statehood draw decides.
    first_leader: Mapped[int | None] = mapped_column(SmallInteger)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)
    started_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    finished_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())


class LiveSeat(Model):
    """A seat at a live table: a student's, the computer's, or free (neither)."""

    __tablename__ = "live_seat"
    __table_args__ = (
        UniqueConstraint("table_id", "seat"),
        Index("ix_live_seat_user", "user_id", "table_id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("live_table.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(SmallInteger)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    computer: Mapped[bool] = mapped_column(Boolean, default=False)
    #: Drill mode for this seat's student (L-T6): the rankings they have met are hidden on their
    #: cards, and each one they say is a review in their memory model.
    drill: Mapped[bool] = mapped_column(Boolean, default=False)
    #: The last friendly message the seat's student sent (an index of ``trainer.live.CHEERS``), and when.
    cheer: Mapped[int | None] = mapped_column(SmallInteger)
    cheered_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    #: When the seat's student's page was last heard from (L-T7: away after a minute).
    seen_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    #: The seat's result once the game is over: "won", "lost" or "drawn".
    result: Mapped[str | None] = mapped_column(String(8))
    #: At a Border-Up race (L-R1), the seat's own round: its 18 cards, its call and its result.
    round_id: Mapped[int | None] = mapped_column(
        ForeignKey("border_up_round.id", ondelete="SET NULL")
    )
    #: At a Dashing States race (L-D1), the seat's own round: its five Map cards, its call, its result.
    dashing_round_id: Mapped[int | None] = mapped_column(
        ForeignKey("dashing_round.id", ondelete="SET NULL")
    )
    #: At a State IQ duel (L-Q1), the duel seen from the seat's side: its deal (its own card as the
    #: student's, the classmate's as the other), what it recorded and its result.
    state_iq_game_id: Mapped[int | None] = mapped_column(
        ForeignKey("state_iq_game.id", ondelete="SET NULL")
    )


class LiveInvite(Model):
    """A student at an open table invited a classmate to it (L-T9)."""

    __tablename__ = "live_invite"
    __table_args__ = (UniqueConstraint("table_id", "user_id"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("live_table.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    inviter_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)


class LivePresence(Model):
    """When a student last had the "Classmates" page open (L-T9): who may be invited now."""

    __tablename__ = "live_presence"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("user.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    seen_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)


#: Join codes use only letters and digits that cannot be taken for one another (no 0/O, 1/I/L).
JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 8
CLASS_NAME_MAX = 60


class SchoolClass(Model):
    """A teacher's class: students join it with its code, and it may set their study settings."""

    __tablename__ = "school_class"
    __table_args__ = (
        UniqueConstraint("teacher_id", "name"),
        Index("ix_school_class_roster", "teacher_id", "roster_id", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(CLASS_NAME_MAX))
    join_code: Mapped[str] = mapped_column(String(JOIN_CODE_LENGTH), unique=True)
    #: A teacher closes joining once everyone is in: the code then counts as expired.
    joining_open: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    #: Overrides for the class's students (None: each student's own setting; ruling P-S1).
    desired_retention: Mapped[float | None] = mapped_column(Float)
    new_per_day: Mapped[int | None] = mapped_column(Integer)
    #: The class's daily amount, both set or both None (P-D2).
    daily_amount: Mapped[int | None] = mapped_column(Integer)
    daily_unit: Mapped[str | None] = mapped_column(String(8))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)
    #: The class's ``sourcedId`` in the school's roster (OneRoster), when it was imported (issue 24).
    roster_id: Mapped[str | None] = mapped_column(String(ROSTER_ID_MAX), nullable=True)


#: The longest real name a teacher may give a student (as a class name, P-H12).
DISPLAY_NAME_MAX = 60


class ClassMembership(Model):
    """A student in a class. Removing it leaves the student's account and history untouched."""

    __tablename__ = "class_membership"
    __table_args__ = (UniqueConstraint("class_id", "student_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("school_class.id", ondelete="CASCADE"))
    student_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    joined_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)
    #: The student's real name as the class's teacher typed it (issue 24): shown only on that
    #: teacher's pages of this class, never to the student or anyone else. None: not given.
    display_name: Mapped[str | None] = mapped_column(String(DISPLAY_NAME_MAX), nullable=True)


ASSIGNMENT_TITLE_MAX = 80


class Assignment(Model):
    """Practice a teacher sets a class (or some of its students): activities, scope, amount, dates.

    Progress is never stored: it is computed from the review log and the round records.
    """

    __tablename__ = "assignment"
    __table_args__ = (
        Index("ix_assignment_class_due", "class_id", "due_at"),
        # The test aims of a student's classes (web.assign.aims.aims_for), on every answer.
        Index("ix_assignment_class_test", "class_id", "test_on"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("school_class.id", ondelete="CASCADE"))
    title: Mapped[str] = mapped_column(String(ASSIGNMENT_TITLE_MAX))
    #: Activity slugs (trainer.assignments.ACTIVITIES), in the order the teacher sees them.
    activities: Mapped[list[str]] = mapped_column(JSON)
    #: {"facets": [...], "area": "region:west" or "", "states": ["TX", ...]} (trainer.assignments.Scope).
    scope: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: "rounds", "reviews" or "recall".
    amount: Mapped[str] = mapped_column(String(8))
    #: How many rounds or reviews (None for a recall goal).
    quantity: Mapped[int | None] = mapped_column(Integer)
    #: The predicted recall every fact in scope must reach on the due date (a recall goal).
    target: Mapped[float | None] = mapped_column(Float)
    starts_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    #: The end of the due day: work after it counts as late.
    due_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    #: The time zone the dates were chosen in, so they read back as the teacher chose them.
    time_zone: Mapped[str] = mapped_column(String(64))
    #: True: every student of the class, now or later; False: the students listed.
    everyone: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)
    #: An optional test day (a local date in ``time_zone``) the schedule aims at (P-M9, P-A5).
    test_on: Mapped[dt.date | None] = mapped_column(Date)
    #: "Remember on test day" for a rounds or answers assignment (0.80-0.95); a recall goal's
    #: test day uses its ``target`` and leaves this None (P-A5).
    test_target: Mapped[float | None] = mapped_column(Float)


class AssignmentStudent(Model):
    """A student an assignment was set for, when it is not for the whole class."""

    __tablename__ = "assignment_student"
    __table_args__ = (UniqueConstraint("assignment_id", "student_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("assignment.id", ondelete="CASCADE"))
    student_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)


class AssignmentRound(Model):
    """A round or game a student started from an assignment, so it was dealt from its scope."""

    __tablename__ = "assignment_round"
    __table_args__ = (
        Index("ix_assignment_round_assignment_student", "assignment_id", "student_id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("assignment.id", ondelete="CASCADE"))
    student_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    activity: Mapped[str] = mapped_column(String(24))
    #: The round's token as the review log names it ("state_iq:<token>", "game:<token>", ...).
    round_token: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)


# --- Combo 1 -------------------------------------------------------------------------------------


class ComboMatch(Model):
    """A Combo 1 match of a student (side A) against a computer team (side B), game by game.

    Each game is an ordinary round or game row of its mode (listed in :class:`ComboMatchGame`),
    so it is played, judged and recorded in the memory model exactly as on its own.
    """

    __tablename__ = "combo_match"
    __table_args__ = (Index("ix_combo_match_student_created", "student_id", "created_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    token: Mapped[str] = mapped_column(String(32), unique=True)
    student_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    #: "morning" (20 minutes, the four games in order) or "afternoon" (12 minutes, two picked games).
    format: Mapped[str] = mapped_column(String(12))
    #: The computer team's level: "easy", "medium" or "hard".
    level: Mapped[str] = mapped_column(String(8))
    seed: Mapped[int] = mapped_column(BigInteger)
    #: The statehood draw: {"a": postal, "b": postal, "winner": "a" or "b"}.
    draw: Mapped[dict[str, str]] = mapped_column(JSON)
    #: Afternoon: the two games picked, the draw winner's first; None until picked (morning: None).
    picks: Mapped[list[str] | None] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)
    #: When the round clock started (the first game dealt) and when its bell rings.
    started_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    bell_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    #: "playing", then "won", "lost" or "tied" (the student's result, K1).
    result: Mapped[str] = mapped_column(String(8), default="playing")


class ComboMatchGame(Model):
    """One game of a Combo 1 match: which mode, and the round or game row that plays it."""

    __tablename__ = "combo_match_game"
    __table_args__ = (UniqueConstraint("match_id", "position"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    match_id: Mapped[int] = mapped_column(
        ForeignKey("combo_match.id", ondelete="CASCADE"), index=True
    )
    #: 0, 1, 2, ... in the order the games were dealt.
    position: Mapped[int] = mapped_column(SmallInteger)
    #: "border-up", "state-iq", "dashing-states" or "play-the-ranks".
    game: Mapped[str] = mapped_column(String(24))
    #: The token of the game's own row (border_up_round, state_iq_game, dashing_round, card_game).
    token: Mapped[str] = mapped_column(String(32), unique=True)
    #: Who started (guessed first, led the first trick) and why: "a" or "b".
    first_side: Mapped[str | None] = mapped_column(String(1))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)


TOURNAMENT_NAME_MAX = 80
TEAM_NAME_MAX = 40


class Tournament(Model):
    """A Combo 1 class tournament: teams of the class's students, eight rounds, a championship."""

    __tablename__ = "tournament"

    id: Mapped[int] = mapped_column(primary_key=True)
    class_id: Mapped[int] = mapped_column(
        ForeignKey("school_class.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(TOURNAMENT_NAME_MAX))
    seed: Mapped[int] = mapped_column(BigInteger)
    #: The round under way or last paired (0: none yet; 1-8).
    round: Mapped[int] = mapped_column(SmallInteger, default=0)
    #: When the teacher started the current round's clock (None: not started).
    clock_started_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    #: "rounds", "playoffs", "championship", then "finished".
    stage: Mapped[str] = mapped_column(String(12), default="rounds")
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)
    finished_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())


class TournamentTeam(Model):
    """A team of a tournament (usually 3 students)."""

    __tablename__ = "tournament_team"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True
    )
    #: 1, 2, 3, ...: the team's number, as shown.
    number: Mapped[int] = mapped_column(SmallInteger)
    name: Mapped[str] = mapped_column(String(TEAM_NAME_MAX))


class TournamentMember(Model):
    """A student on a tournament team (one team per tournament)."""

    __tablename__ = "tournament_member"
    __table_args__ = (UniqueConstraint("tournament_id", "student_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_team.id", ondelete="CASCADE"), index=True
    )
    student_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)


class TournamentMatch(Model):
    """A match of a tournament round: two teams, or one team's bye (K3), and its result once entered."""

    __tablename__ = "tournament_match"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "a_team_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column(SmallInteger)
    a_team_id: Mapped[int] = mapped_column(ForeignKey("tournament_team.id", ondelete="CASCADE"))
    #: None: a bye for team A, which counts as a match win (K3).
    b_team_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournament_team.id", ondelete="CASCADE")
    )
    #: Games won by each team and games tied (None until the result is entered).
    a_games: Mapped[int | None] = mapped_column(SmallInteger)
    b_games: Mapped[int | None] = mapped_column(SmallInteger)
    tied_games: Mapped[int | None] = mapped_column(SmallInteger)
    #: The match's winner (None: tied, or not yet entered: see ``entered_at``).
    winner_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournament_team.id", ondelete="CASCADE")
    )
    entered_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    #: Who entered the result: "teacher" (typed on the control page) or "app" (a match scored in
    #: the app, finished there, P-K6); None for a bye or no result.
    entered_by: Mapped[str | None] = mapped_column(String(8))
    #: A match scored in the app, afternoon round: the statehood draw for the first pick (K2),
    #: {"a": postal, "b": postal, "winner": "a" or "b"}; None until drawn (and in the morning).
    draw: Mapped[dict[str, str] | None] = mapped_column(JSON(none_as_null=True))
    #: Afternoon, in the app: the games picked, the draw winner's first; None until the first pick.
    picks: Mapped[list[str] | None] = mapped_column(JSON(none_as_null=True))
    #: In the app, "Finish the match" asked by a student of one team: when (None: not asked), by
    #: whom and for which team. The result is written only when the other team (or the teacher)
    #: confirms it (P-K6).
    finish_asked_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    finish_asked_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("user.id", ondelete="SET NULL")
    )
    finish_asked_team_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournament_team.id", ondelete="CASCADE")
    )
    #: Who confirmed the app's finish (a student of the other team, or the teacher).
    finish_confirmed_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("user.id", ondelete="SET NULL")
    )


class TournamentGame(Model):
    """A single game between two teams: a Border-Up playoff game for a place in the championship, a
    game of the championship match (K4), or a game of a round's match scored in the app (P-K6)."""

    __tablename__ = "tournament_game"
    __table_args__ = (
        # Playoff and championship games: one of each number per stage of the tournament.
        Index(
            "uq_tournament_game_stage_number",
            "tournament_id",
            "stage",
            "number",
            unique=True,
            sqlite_where=text("match_id IS NULL"),
            postgresql_where=text("match_id IS NULL"),
        ),
        # A round match's games: one of each number per match (also the index on ``match_id``).
        UniqueConstraint("match_id", "number"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True
    )
    #: "playoff", "championship", or "match" (a game of a round's match, scored in the app).
    stage: Mapped[str] = mapped_column(String(12))
    #: The round's match of a "match" game; None for playoff and championship games.
    match_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournament_match.id", ondelete="CASCADE")
    )
    #: 1, 2, 3, ... within the stage (within the match, for a "match" game).
    number: Mapped[int] = mapped_column(SmallInteger)
    game: Mapped[str] = mapped_column(String(24))
    a_team_id: Mapped[int] = mapped_column(ForeignKey("tournament_team.id", ondelete="CASCADE"))
    b_team_id: Mapped[int] = mapped_column(ForeignKey("tournament_team.id", ondelete="CASCADE"))
    #: None: a tie.
    winner_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournament_team.id", ondelete="CASCADE")
    )
    #: When the result was entered (for a "match" game: when it ended, as far as the round's bell
    #: goes, K2; a later confirmation does not change it, P-K6).
    entered_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)
    #: Who entered it, and for which team (None: the teacher, or a game from before P-K6 said so).
    entered_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    entered_team_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournament_team.id", ondelete="CASCADE")
    )
    #: When the result came to stand: confirmed by the other team or the teacher, or entered by
    #: the teacher (None: waiting for the other team, P-K6).
    confirmed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    confirmed_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    #: The other team disputed the result (it waits for the teacher, or to be taken back).
    disputed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    disputed_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))


class ClassGame(Model):
    """A GeoPlunge Live game (issue 23): a teacher's whole class answers the same questions at once,
    each student on their own device, the teacher's screen on the projector.

    The questions are dealt once, when the game is made, and stored (``questions``, each
    :class:`trainer.class_game.Question` as JSON), so the game is the same however often it is read.
    Where the game is (``phase``, ``question``, ``paused``, ``clues_shown``) is what
    :func:`trainer.class_game.advance` moves; ``version`` counts every change (a control pressed, a
    student joined, an answer given), and is what the pages hear of; a control names the version
    it was pressed on, so of two presses at once exactly one is kept (``state_version``, C-W3).
    """

    __tablename__ = "class_game"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    class_id: Mapped[int] = mapped_column(
        ForeignKey("school_class.id", ondelete="CASCADE"), index=True
    )
    teacher_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    #: What students type to join (``trainer.live.TABLE_CODE_ALPHABET``).
    code: Mapped[str] = mapped_column(String(8), unique=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    #: The teacher's choices (:class:`trainer.class_game.Settings` as JSON) and what it covers.
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: The dealt questions, secrets included: never sent to a student's device as they are (C-W5).
    questions: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    #: :class:`trainer.class_game.Phase` value: "lobby", "question", "reveal", "standings", "ended".
    phase: Mapped[str] = mapped_column(String(12), default="lobby")
    #: The current question's index (-1 in the lobby).
    question: Mapped[int] = mapped_column(SmallInteger, default=-1)
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
    clues_shown: Mapped[int] = mapped_column(SmallInteger, default=0)
    version: Mapped[int] = mapped_column(Integer, default=0)
    #: The version at which the teacher's controls last changed where the game is: a control is
    #: kept if it names a version at or after it (an answer or a join since does not make the
    #: projector's buttons out of date, a control pressed since does: C-W3).
    state_version: Mapped[int] = mapped_column(Integer, default=0)
    #: When the current question opened, moved later by the time it was paused; None outside one.
    phase_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    #: When the current question was paused (None: it is not).
    paused_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)
    ended_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())


class ClassGamePlayer(Model):
    """A student who joined a class game with its code, their team, and whether they get extra time."""

    __tablename__ = "class_game_player"
    __table_args__ = (UniqueConstraint("game_id", "student_id"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("class_game.id", ondelete="CASCADE"))
    student_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    #: 1-based team number (``trainer.class_game.make_teams`` at the start); None in the lobby.
    team: Mapped[int | None] = mapped_column(SmallInteger)
    extra_time: Mapped[bool] = mapped_column(Boolean, default=False)
    joined_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)


class ClassGameAnswer(Model):
    """One student's answer to one question of a class game: one per student and question (C-W4)."""

    __tablename__ = "class_game_answer"
    __table_args__ = (UniqueConstraint("game_id", "question", "student_id"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("class_game.id", ondelete="CASCADE"))
    question: Mapped[int] = mapped_column(SmallInteger)
    student_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    #: What the student answered, as the core read it (a postal, a capital, "IL+IN+OH").
    answer: Mapped[str] = mapped_column(String(64))
    right: Mapped[bool] = mapped_column(Boolean)
    points: Mapped[int] = mapped_column(Integer)
    #: Milliseconds from the question's opening (paused time left out) to the answer.
    ms: Mapped[int | None] = mapped_column(Integer)
    clues_seen: Mapped[int] = mapped_column(SmallInteger, default=0)
    answered_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow)
