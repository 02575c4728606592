"""The memory model's storage: every mode records its answers here, and deals from the queue here."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar, cast
from zoneinfo import available_timezones

from flask import g, has_request_context, request
from sqlalchemy import ColumnElement, Row, Table, and_, bindparam, func, insert, or_, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from trainer import daily, srs
from trainer.aim import TestAim, aim, aims_covering
from trainer.cards import Deck
from trainer.facts import Facet, Fact, Form, Verdict, teaching_order

from .dberrors import roll_back, unavailable
from .extensions import db
from .models import (
    ClassMembership,
    MemoryCard,
    MemoryWeights,
    ReviewLog,
    SchoolClass,
    User,
    memory_columns,
    memory_from,
    utcnow,
)

#: The cookie in which the browser tells its time zone (static/js/timezone.js).
TIME_ZONE_COOKIE = "tz"
ANSWER_MAX = 200


@cache
def known_time_zones() -> frozenset[str]:
    return frozenset(available_timezones())


def valid_time_zone(name: str | None) -> str | None:
    """``name`` if it is an IANA time zone this machine knows, else None."""
    if name and name in known_time_zones():
        return name
    return None


@dataclass(frozen=True)
class StudySettings:
    """The settings that shape a student's study, after any class override."""

    desired_retention: float
    new_per_day: int
    time_zone: str
    multiple_choice: bool
    time_zone_is_browsers: bool
    #: True when a class the student is in sets this value (ruling P-S1).
    retention_from_class: bool = False
    new_per_day_from_class: bool = False
    #: How much to study each day (P-D1), and whether a class sets it (P-D2).
    daily_amount: daily.DailyAmount = daily.DEFAULT
    daily_amount_from_class: bool = False


def browser_time_zone() -> str | None:
    """The time zone the student's browser reported, if it is a real one."""
    if not has_request_context():
        return None
    return valid_time_zone(request.cookies.get(TIME_ZONE_COOKIE))


# The settings of each of the student's classes, of which the highest wins (P-S1, P-D2): one
# small indexed query (a row per class), built once because every recorded answer runs it.
_CLASS_SETTINGS = (
    select(
        SchoolClass.desired_retention,
        SchoolClass.new_per_day,
        SchoolClass.daily_amount,
        SchoolClass.daily_unit,
    )
    .join(ClassMembership, ClassMembership.class_id == SchoolClass.id)
    .where(ClassMembership.student_id == bindparam("student_id"))
)


def settings_for(student: User) -> StudySettings:
    """The study settings in force for ``student``: their own, unless a class of theirs sets one (P-S1, P-D2)."""
    own_zone = valid_time_zone(student.time_zone)
    zone = _zone_of(own_zone)
    classes = db.session.execute(_CLASS_SETTINGS, {"student_id": student.id}).all()
    class_retention = max(
        (row.desired_retention for row in classes if row.desired_retention is not None),
        default=None,
    )
    class_new = max(
        (row.new_per_day for row in classes if row.new_per_day is not None), default=None
    )
    class_amount = daily.highest(
        a for row in classes if (a := daily.amount_or_none(row.daily_amount, row.daily_unit))
    )
    own_amount = daily.amount_or_none(student.daily_amount, student.daily_unit) or daily.DEFAULT
    return StudySettings(
        desired_retention=student.desired_retention if class_retention is None else class_retention,
        new_per_day=student.new_per_day if class_new is None else class_new,
        time_zone=zone,
        multiple_choice=student.multiple_choice,
        time_zone_is_browsers=own_zone is None,
        retention_from_class=class_retention is not None,
        new_per_day_from_class=class_new is not None,
        daily_amount=own_amount if class_amount is None else class_amount,
        daily_amount_from_class=class_amount is not None,
    )


def _zone_of(own_zone: str | None) -> str:
    """A student's time zone: their own, else their browser's, else UTC."""
    return own_zone or browser_time_zone() or "UTC"


def time_zones(student_ids: Iterable[int]) -> dict[int, str]:
    """Each student's time zone, as :func:`settings_for` gives it, in one query: a class's
    dashboards count each student's elapsed study days in the student's zone (P-M1)."""
    rows = db.session.execute(
        select(User.id, User.time_zone).where(User.id.in_(sorted(set(student_ids))))
    ).all()
    return {student_id: _zone_of(valid_time_zone(zone)) for student_id, zone in rows}


def today_for(student: User, now: dt.datetime | None = None) -> srs.StudyDay:
    """The student's study day now, in their time zone (days start at 4 a.m.)."""
    return srs.study_day(now or utcnow(), settings_for(student).time_zone)


@dataclass(frozen=True)
class Recorded:
    """What :func:`record` did: the answer's rating and the fact's next due time, and whether it is new."""

    created: bool
    rating: srs.Rating
    due: dt.datetime


class RecordError(ValueError):
    """The outcome cannot be recorded (an unknown fact, or a token of another student)."""


class _Conflict(Exception):
    """The memory card changed between reading and writing it: another answer got there first."""


class Busy(RecordError):
    """Concurrent answers kept overtaking a unit of work; nothing of it was kept, so try again.

    A :class:`RecordError` for the callers that already handle one; the error pages show it as
    "try again in a moment" (503).
    """


T = TypeVar("T")

#: Tries of a unit of work when concurrent answers about one fact keep overtaking each other.
_ATTEMPTS = 10
#: Tries of a unit of work when the database drops the connection or is busy, and the first wait
#: between them in seconds (doubled each time): a dropped connection is retried on a fresh one,
#: a longer outage is left to the "try again" page.
_OUTAGE_ATTEMPTS = 3
_OUTAGE_WAIT = 0.05
#: Marks the session while a unit of work runs, so that a unit called inside it joins it.
_IN_UNIT = "geoplunge.unit_of_work"


def atomically(work: Callable[[], T]) -> T:
    """Run ``work`` (writes through ``db.session``) as one transaction: all of it is kept, or none.

    A move or a call and every review it causes are one unit, so no failure (a write conflict,
    bad data, a database restart, a killed worker) can keep the call and lose its reviews. The
    transaction commits once, after ``work``. On a write conflict or when the database is out of
    reach for a moment, the whole unit is rolled back and ``work`` runs again from a fresh read
    (objects read before are expired and reload), a bounded number of times. Any other error
    rolls the unit back and is raised.

    Called inside another unit (``record`` in a call's unit, say), ``work`` simply joins it: the
    outer unit commits, retries or rolls back all of it. Whatever the session already holds when
    a unit starts is part of it.

    ``work`` must be safe to run again, even after a commit whose reply was lost: guard its
    writes as the views do (a conditional update on the row's version, the review log's unique
    (round, item)), so that a second run finds the first one's work and writes nothing.

    Raises:
        Busy: conflicting writes kept overtaking the unit.
        sqlalchemy.exc.DBAPIError: the database stayed out of reach, or refused the data.
    """
    info = db.session.info
    if info.get(_IN_UNIT):
        return work()
    conflicts = outages = 0
    while True:
        info[_IN_UNIT] = True
        try:
            result = work()
            db.session.commit()
            return result
        except (_Conflict, IntegrityError) as clash:
            # Most often another answer about the same fact got there first (the card was
            # written, or created, or the same (round, item) recorded): read again and redo.
            roll_back()
            conflicts += 1
            if conflicts >= _ATTEMPTS:
                if isinstance(clash, IntegrityError):
                    raise  # a constraint broken every time is a bug, not a race
                raise Busy("the answer could not be saved; please try again") from clash
        except DBAPIError as error:
            roll_back()
            outages += 1
            if not unavailable(error) or outages >= _OUTAGE_ATTEMPTS:
                raise
            time.sleep(_OUTAGE_WAIT * 2 ** (outages - 1))
        except BaseException:
            roll_back()
            raise
        finally:
            info.pop(_IN_UNIT, None)


def record(student: User, outcome: srs.Outcome, now: dt.datetime | None = None) -> Recorded:
    """Record one answer: rate it, reschedule the fact and write its review log row, in one transaction.

    Idempotent: an outcome whose (round token, item) was recorded before changes nothing and
    returns the first recording, whether it was sent twice or from two tabs at once.

    On its own (the study path) one answer is one unit of work; inside a larger unit (a call
    and its reviews, see :func:`atomically`) it joins that one and commits nothing itself.

    This is the hot path of every mode, so it is written in a few plain statements: look up the
    (round, item), read the fact's memory card, insert the review row (its unique (round, item)
    key refuses a repeat that raced this one), then write the card only if nobody changed it
    since it was read (its review count is the version); on a clash, the unit starts again from
    a fresh read.

    Raises:
        RecordError: the fact key is unknown, or the (round, item) was recorded for another student.
        Busy: concurrent answers kept overtaking this one.
    """
    try:
        fact = Fact.from_key(outcome.fact_key)
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    when = now or utcnow()
    return atomically(lambda: _record_once(student, fact, outcome, when))


def _record_once(student: User, fact: Fact, outcome: srs.Outcome, now: dt.datetime) -> Recorded:
    earlier = _recorded(outcome)
    if earlier is not None:
        return _check_owner(earlier, student)
    settings = settings_for(student)
    strong_before = _strong_before(student, fact) if srs.evidence_matters(outcome) else False
    rating = srs.rate(outcome, strong_before=strong_before)
    due = _write(student, fact, outcome, rating, settings, now)
    return Recorded(created=True, rating=rating, due=due)


_STRONG_FORMS = [form.value for form in Form if srs.is_strong(form)]
# Built once (see _SELECT_CARD): every right pick runs it, on the (student, fact) index.
_STRONG_BEFORE = (
    select(ReviewLog.id)
    .where(
        ReviewLog.student_id == bindparam("student_id"),
        ReviewLog.fact_key == bindparam("fact_key"),
        ReviewLog.correct,
        ReviewLog.form.in_(_STRONG_FORMS),
    )
    .limit(1)
)


def _strong_before(student: User, fact: Fact) -> bool:
    """True when the student has answered ``fact`` right or close in a strong form, in any mode
    (P-M4): a right pick is then rated Good, else Hard (P-M5)."""
    found = db.session.execute(
        _STRONG_BEFORE, {"student_id": student.id, "fact_key": fact.key}
    ).first()
    return found is not None


# Built once (see _SELECT_CARD): every answer looks for itself first, on (round, item).
_RECORDED = select(ReviewLog.student_id, ReviewLog.rating, ReviewLog.due_after).where(
    ReviewLog.round_token == bindparam("round_token"), ReviewLog.item == bindparam("item")
)


def _recorded(outcome: srs.Outcome) -> Row[int, int, dt.datetime] | None:
    return db.session.execute(
        _RECORDED, {"round_token": outcome.round_token, "item": outcome.item}
    ).first()


def _check_owner(row: Row[int, int, dt.datetime], student: User) -> Recorded:
    if row.student_id != student.id:
        raise RecordError("that answer belongs to someone else")
    return Recorded(created=False, rating=srs.Rating(row.rating), due=row.due_after)


_CARD = cast(Table, MemoryCard.__table__)
_LOG = cast(Table, ReviewLog.__table__)
_MEMORY_COLUMNS = (
    "state",
    "step",
    "stability",
    "difficulty",
    "due",
    "last_review",
    "last_study_day",
    "lapses",
    "reps",
)
# Built once: SQLAlchemy then reuses their compiled form instead of rebuilding them per answer.
_SELECT_CARD = select(_CARD).where(
    _CARD.c.student_id == bindparam("student_id"), _CARD.c.fact_key == bindparam("fact_key")
)
_INSERT_LOG = insert(_LOG)
_INSERT_CARD = insert(_CARD)
# Written only if its review count is still the one read: the count is the card's version.
_UPDATE_CARD = (
    update(_CARD)
    .where(_CARD.c.id == bindparam("card_id"), _CARD.c.reps == bindparam("reps_read"))
    .values({name: bindparam(f"new_{name}") for name in _MEMORY_COLUMNS})
)


def _write(
    student: User,
    fact: Fact,
    outcome: srs.Outcome,
    rating: srs.Rating,
    settings: StudySettings,
    now: dt.datetime,
) -> dt.datetime:
    connection = db.session.connection()
    card = connection.execute(
        _SELECT_CARD, {"student_id": student.id, "fact_key": fact.key}
    ).first()
    before = memory_from(card) if card is not None else srs.new_memory(now)
    weights = weights_for(student)
    study_date = srs.study_day(now, settings.time_zone).date
    after = srs.schedule(
        before,
        rating,
        now,
        desired_retention=settings.desired_retention,
        seed=f"{outcome.round_token}:{outcome.item}",
        time_zone=settings.time_zone,
        weights=weights,
    )
    # A test day of one of the student's assignments pulls the next review in (P-M9).
    after = aim(
        after, aims_covering(_aims(student, study_date), fact.key), now, settings.time_zone, weights
    )
    note_recorded(student)
    connection.execute(
        _INSERT_LOG,
        {
            "student_id": student.id,
            "fact_key": fact.key,
            "facet": fact.facet.value,
            "rating": int(rating),
            "verdict": outcome.verdict.value,
            "correct": outcome.verdict is not Verdict.WRONG,
            "help": outcome.help.value,
            "mode": outcome.mode,
            "form": outcome.form.value,
            "answer": outcome.answer[:ANSWER_MAX],
            "answered_postal": outcome.answered_postal,
            "duration_ms": outcome.duration_ms,
            "reviewed_at": now,
            "study_day": study_date,
            "round_token": outcome.round_token,
            "item": outcome.item,
            "due_after": after.due,
            "stability_after": after.stability,
        },
    )
    # The study day of the last review, for the dashboards' SQL recall (P-M1).
    columns = {**memory_columns(after), "last_study_day": study_date}
    if card is None:
        connection.execute(
            _INSERT_CARD,
            {
                "student_id": student.id,
                "fact_key": fact.key,
                "facet": fact.facet.value,
                "introduced_at": now,
                **columns,
            },
        )
    else:
        changed = connection.execute(
            _UPDATE_CARD,
            {
                "card_id": card.id,
                "reps_read": card.reps,
                **{f"new_{name}": columns[name] for name in _MEMORY_COLUMNS},
            },
        ).rowcount
        if changed != 1:
            raise _Conflict
    return after.due


# --- The student's own memory model (P-M10) ----------------------------------------------------

#: Where ``flask.g`` keeps, for the request, the weights read for each student and the student
#: whose answers the request recorded (``trainer.web.fitting`` runs a fit after it, in the background).
_WEIGHTS_CACHE = "geoplunge_weights"
RECORDED_FOR = "geoplunge_recorded_for"
# Built once: every recorded answer runs it, on the unique student_id index.
_SELECT_WEIGHTS = select(MemoryWeights.weights).where(
    MemoryWeights.student_id == bindparam("student_id")
)


def weights_for(student: User) -> srs.Weights | None:
    """The student's own FSRS-6 weights, or None for the standard ones (P-M10). One indexed query,
    read once per request: every call that schedules or predicts for the student passes them."""
    cache: dict[int, srs.Weights | None] | None = (
        g.setdefault(_WEIGHTS_CACHE, {}) if has_request_context() else None
    )
    if cache is not None and student.id in cache:
        return cache[student.id]
    stored = db.session.execute(_SELECT_WEIGHTS, {"student_id": student.id}).scalar_one_or_none()
    weights = _checked(stored)
    if cache is not None:
        cache[student.id] = weights
    return weights


def weights_of(student_ids: Iterable[int]) -> dict[int, srs.Weights | None]:
    """Each student's own weights (None: the standard ones), in one query: a class's pages
    predict each student's recall with their own (P-M10)."""
    ids = sorted(set(student_ids))
    out: dict[int, srs.Weights | None] = dict.fromkeys(ids)
    if ids:
        rows = db.session.execute(
            select(MemoryWeights.student_id, MemoryWeights.weights).where(
                MemoryWeights.student_id.in_(ids)
            )
        ).all()
        out.update({student_id: _checked(stored) for student_id, stored in rows})
    return out


def _checked(stored: list[float] | None) -> srs.Weights | None:
    if stored is None:
        return None
    try:
        return srs.check_weights(stored)
    except (TypeError, ValueError):
        # A row that is not a valid set (edited by hand, say) must not break a student's study.
        return None


_AIMS_CACHE = "geoplunge_aims"


def _aims(student: User, today: dt.date) -> list[TestAim]:
    """The test aims of the student's assignments (P-M9), read once per request and study day."""
    from .assign.aims import aims_for  # trainer.web.assign imports this module

    cache: dict[tuple[int, dt.date], list[TestAim]] | None = (
        g.setdefault(_AIMS_CACHE, {}) if has_request_context() else None
    )
    if cache is not None and (student.id, today) in cache:
        return cache[student.id, today]
    aims = aims_for(student, today)
    if cache is not None:
        cache[student.id, today] = aims
    return aims


def forget_cached_weights() -> None:
    """Drop the weights read so far in this request (a fit adopted a new set)."""
    if has_request_context():
        g.pop(_WEIGHTS_CACHE, None)


def note_recorded(student: User) -> None:
    """Note on ``flask.g`` that this request recorded an answer of ``student``: after the
    request, :mod:`trainer.web.fitting` checks whether enough new answers call for a fit."""
    if has_request_context():
        setattr(g, RECORDED_FOR, student.id)


# New schedules after a fit (P-M10): written only if no answer changed the card since it was
# read (its review count is its version, as in _UPDATE_CARD).
_RESCHEDULE_CARD = (
    update(_CARD)
    .where(_CARD.c.id == bindparam("card_id"), _CARD.c.reps == bindparam("reps_read"))
    .values(
        stability=bindparam("new_stability"),
        difficulty=bindparam("new_difficulty"),
        due=bindparam("new_due"),
    )
)


def student_cards(student: User) -> Sequence[Row[Any]]:
    """Every memory card row of the student (to reschedule them)."""
    return (
        db.session.connection().execute(select(_CARD).where(_CARD.c.student_id == student.id)).all()
    )


def write_rescheduled(changes: Iterable[tuple[int, int, srs.Memory]]) -> None:
    """Write new schedules (card id, review count read, memory) inside a unit of work (see
    :func:`atomically`); a card an answer changed since it was read makes the unit start again."""
    connection = db.session.connection()
    for card_id, reps_read, memory in changes:
        changed = connection.execute(
            _RESCHEDULE_CARD,
            {
                "card_id": card_id,
                "reps_read": reps_read,
                "new_stability": memory.stability,
                "new_difficulty": memory.difficulty,
                "new_due": memory.due,
            },
        ).rowcount
        if changed != 1:
            raise _Conflict


# --- Reading the memory ---------------------------------------------------------------------


def _due_clause(
    student: User, now: dt.datetime, day: srs.StudyDay, ahead: dt.timedelta = dt.timedelta(0)
) -> ColumnElement[bool]:
    """SQL for srs.is_due: review facts due before the day ends, step facts due by ``now + ahead``."""
    return and_(
        MemoryCard.student_id == student.id,
        or_(
            and_(MemoryCard.state == int(srs.MemoryState.REVIEW), MemoryCard.due < day.end),
            and_(MemoryCard.state != int(srs.MemoryState.REVIEW), MemoryCard.due <= now + ahead),
        ),
    )


def due_memories(student: User, now: dt.datetime, day: srs.StudyDay) -> dict[str, srs.Memory]:
    """The student's facts due now or within the learn-ahead minutes, with their schedules."""
    cards = db.session.execute(
        select(MemoryCard).where(_due_clause(student, now, day, srs.LEARN_AHEAD))
    ).scalars()
    return {card.fact_key: memory_from(card) for card in cards}


def introduced_keys(student: User) -> set[str]:
    """Every fact the student has answered at least once."""
    return set(
        db.session.execute(
            select(MemoryCard.fact_key).where(MemoryCard.student_id == student.id)
        ).scalars()
    )


def new_allowed_today(student: User, day: srs.StudyDay) -> int:
    """How many new facts may still be introduced today under the daily limit."""
    introduced_today = db.session.execute(
        select(func.count())
        .select_from(MemoryCard)
        .where(MemoryCard.student_id == student.id, MemoryCard.introduced_at >= day.start)
    ).scalar_one()
    return max(0, settings_for(student).new_per_day - introduced_today)


def all_memories(student: User) -> dict[str, srs.Memory]:
    """Every fact the student has answered, with its schedule (one query; at most 400 rows)."""
    cards = db.session.execute(
        select(MemoryCard).where(MemoryCard.student_id == student.id)
    ).scalars()
    return {card.fact_key: memory_from(card) for card in cards}


def queue(
    student: User,
    deck: Deck,
    *,
    size: int,
    now: dt.datetime | None = None,
    facets: set[Facet] | None = None,
    postals: set[str] | None = None,
    practice: bool = False,
) -> list[str]:
    """The next ``size`` facts for the student: due first, then new ones, within the focus; when
    ``practice`` (the student keeps studying, P-M8), then the facts most at risk."""
    now = now or utcnow()
    day = today_for(student, now)
    if practice:
        # Practice ranks every introduced fact, so read them all at once.
        memories = all_memories(student)
        introduced = set(memories)
    else:
        memories = due_memories(student, now, day)
        introduced = introduced_keys(student)
    # The queue only needs to know that the other introduced facts are not new.
    order = [f.key for f in teaching_order(deck) if f.key not in introduced]

    def include(key: str) -> bool:
        fact = Fact.from_key(key)
        return (facets is None or fact.facet in facets) and (
            postals is None or fact.postal in postals
        )

    return srs.build_queue(
        memories,
        now,
        day,
        teaching_order=order,
        new_allowed=new_allowed_today(student, day),
        size=size,
        include=include,
        practice=practice,
        weights=weights_for(student),
    )


@dataclass(frozen=True)
class StudySummary:
    """The numbers on a student's study home."""

    day: srs.StudyDay
    due_now: int
    due_by_facet: dict[Facet, int]
    new_today: int
    done_today: int
    streak: int
    next_due: dt.datetime | None
    introduced: int
    leeches: list[str]
    #: Facts not due now that come back before today's study day ends (a step due in minutes).
    due_later_today: int
    #: Facts coming due tomorrow, and over the 7 days after today (their study days).
    due_tomorrow: int
    due_next_week: int
    #: Today's answers and study time against the daily amount (P-D1).
    progress: daily.Progress


def summary(student: User, now: dt.datetime | None = None) -> StudySummary:
    """Due now, new available today, done today, streak and the next review, for the study home."""
    now = now or utcnow()
    day = today_for(student, now)
    due_keys = list(
        db.session.execute(
            select(MemoryCard.fact_key).where(_due_clause(student, now, day))
        ).scalars()
    )
    by_facet = {facet: 0 for facet in Facet}
    for key in due_keys:
        by_facet[Fact.from_key(key).facet] += 1
    introduced = db.session.execute(
        select(func.count()).select_from(MemoryCard).where(MemoryCard.student_id == student.id)
    ).scalar_one()
    total_facts = len(Facet) * 50
    new_today = min(new_allowed_today(student, day), total_facts - introduced)
    # Every answer of today's study day, in every mode, counts toward the daily amount (P-D1).
    durations = (
        db.session.execute(
            select(ReviewLog.duration_ms).where(
                ReviewLog.student_id == student.id, ReviewLog.study_day == day.date
            )
        )
        .scalars()
        .all()
    )
    done_today = len(durations)
    days = db.session.execute(
        select(ReviewLog.study_day)
        .where(
            ReviewLog.student_id == student.id,
            ReviewLog.study_day >= day.date - dt.timedelta(days=400),
        )
        .distinct()
    ).scalars()
    next_due = db.session.execute(
        select(func.min(MemoryCard.due)).where(MemoryCard.student_id == student.id)
    ).scalar_one()
    leeches = list(
        db.session.execute(
            select(MemoryCard.fact_key)
            .where(MemoryCard.student_id == student.id, MemoryCard.lapses >= srs.LEECH_LAPSES)
            .order_by(MemoryCard.lapses.desc(), MemoryCard.fact_key)
        ).scalars()
    )
    settings = settings_for(student)
    tz = settings.time_zone
    tomorrow = srs.study_day(day.end, tz)
    in_a_week = srs.study_day(day.end + dt.timedelta(days=6, hours=12), tz)

    def due_between(start: dt.datetime, end: dt.datetime) -> int:
        return db.session.execute(
            select(func.count())
            .select_from(MemoryCard)
            .where(
                MemoryCard.student_id == student.id, MemoryCard.due >= start, MemoryCard.due < end
            )
        ).scalar_one()

    return StudySummary(
        day=day,
        due_now=len(due_keys),
        due_by_facet=by_facet,
        new_today=new_today,
        done_today=done_today,
        streak=srs.streak(days, day.date),
        next_due=next_due,
        introduced=introduced,
        leeches=leeches,
        due_later_today=db.session.execute(
            select(func.count())
            .select_from(MemoryCard)
            .where(
                MemoryCard.student_id == student.id,
                MemoryCard.state != int(srs.MemoryState.REVIEW),
                MemoryCard.due > now,
                MemoryCard.due < day.end,
            )
        ).scalar_one(),
        due_tomorrow=due_between(day.end, tomorrow.end),
        due_next_week=due_between(day.end, in_a_week.end),
        progress=daily.progress(settings.daily_amount, durations),
    )


def memories_of(student: User, fact_keys: list[str]) -> dict[str, srs.Memory]:
    """The student's schedules for the given facts that they have answered before."""
    cards = db.session.execute(
        select(MemoryCard).where(
            MemoryCard.student_id == student.id, MemoryCard.fact_key.in_(fact_keys)
        )
    ).scalars()
    return {card.fact_key: memory_from(card) for card in cards}


def to_recheck(student: User, fact_keys: list[str]) -> set[str]:
    """The facts among ``fact_keys`` whose last recorded answer, in any mode, was a right pick
    from offered options or a miss: the next round asks them in a strong form (P-M6). One query on
    the review log's (student, fact) index."""
    last = (
        select(func.max(ReviewLog.id).label("id"))
        .where(ReviewLog.student_id == student.id, ReviewLog.fact_key.in_(fact_keys))
        .group_by(ReviewLog.fact_key)
        .scalar_subquery()
    )
    rows = db.session.execute(
        select(ReviewLog.fact_key).where(
            ReviewLog.id.in_(last),
            or_(~ReviewLog.correct, ReviewLog.form.not_in(_STRONG_FORMS)),
        )
    ).scalars()
    return set(rows)


def memory_of(student: User, fact_key: str) -> srs.Memory | None:
    """The student's schedule for one fact, if they have answered it."""
    card = db.session.execute(
        select(MemoryCard).where(
            MemoryCard.student_id == student.id, MemoryCard.fact_key == fact_key
        )
    ).scalar_one_or_none()
    return memory_from(card) if card is not None else None
