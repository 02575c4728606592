"""The memory model's storage: every mode records its answers here, and deals from the queue here."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from flask import has_request_context, request
from sqlalchemy import and_, func, or_, select
from sqlalchemy.exc import IntegrityError

from trainer import srs
from trainer.cards import Deck
from trainer.facts import Fact, Facet, Verdict, teaching_order

from .extensions import db
from .models import MemoryCard, ReviewLog, User, utcnow

#: The cookie in which the browser tells its time zone (static/js/timezone.js).
TIME_ZONE_COOKIE = "tz"
#: How many of a student's recent right answers tell what "fast" means for them.
RECENT_TIMES = 20
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


def browser_time_zone() -> str | None:
    """The time zone the student's browser reported, if it is a real one."""
    if not has_request_context():
        return None
    return valid_time_zone(request.cookies.get(TIME_ZONE_COOKIE))


def settings_for(student: User) -> StudySettings:
    """The study settings in force for ``student``."""
    own_zone = valid_time_zone(student.time_zone)
    zone = own_zone or browser_time_zone() or "UTC"
    return StudySettings(
        desired_retention=student.desired_retention,
        new_per_day=student.new_per_day,
        time_zone=zone,
        multiple_choice=student.multiple_choice,
        time_zone_is_browsers=own_zone is None,
    )


def today_for(student: User, now: dt.datetime | None = None) -> srs.StudyDay:
    """The student's study day now, in their time zone (days start at 4 a.m.)."""
    return srs.study_day(now or utcnow(), settings_for(student).time_zone)


@dataclass(frozen=True)
class Recorded:
    """What :func:`record` did: the review row, the fact's schedule after it, and whether it is new."""

    review: ReviewLog
    created: bool

    @property
    def due(self) -> dt.datetime:
        return self.review.due_after


class RecordError(ValueError):
    """The outcome cannot be recorded (an unknown fact, or a token of another student)."""


def record(student: User, outcome: srs.Outcome, now: dt.datetime | None = None) -> Recorded:
    """Record one answer: rate it, reschedule the fact and write its review log row, in one transaction.

    Idempotent: an outcome whose (round token, item) was recorded before changes nothing and
    returns the first recording, whether it was sent twice or from two tabs at once.

    Raises:
        RecordError: the fact key is unknown, or the (round, item) was recorded for another student.
    """
    try:
        fact = Fact.from_key(outcome.fact_key)
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    now = now or utcnow()
    for _attempt in range(3):
        earlier = _recorded(outcome)
        if earlier is not None:
            return _check_owner(earlier, student)
        try:
            return Recorded(_write(student, fact, outcome, now), created=True)
        except IntegrityError:
            # Another request recorded the same (round, item) first, or created this fact's memory
            # card at the same moment; look again.
            db.session.rollback()
    earlier = _recorded(outcome)
    if earlier is None:
        raise RecordError("the review could not be recorded; please try again")
    return _check_owner(earlier, student)


def _recorded(outcome: srs.Outcome) -> ReviewLog | None:
    return db.session.execute(
        select(ReviewLog).where(ReviewLog.round_token == outcome.round_token, ReviewLog.item == outcome.item)
    ).scalar_one_or_none()


def _check_owner(review: ReviewLog, student: User) -> Recorded:
    if review.student_id != student.id:
        raise RecordError("that answer belongs to someone else")
    return Recorded(review, created=False)


def _write(student: User, fact: Fact, outcome: srs.Outcome, now: dt.datetime) -> ReviewLog:
    settings = settings_for(student)
    rating = srs.rate(outcome, _recent_times(student, fact.facet, outcome))
    review = ReviewLog(
        student_id=student.id,
        fact_key=fact.key,
        facet=fact.facet.value,
        rating=int(rating),
        verdict=outcome.verdict.value,
        correct=outcome.verdict is not Verdict.WRONG,
        help=outcome.help.value,
        mode=outcome.mode,
        form=outcome.form.value,
        answer=outcome.answer[:ANSWER_MAX],
        answered_postal=outcome.answered_postal,
        duration_ms=outcome.duration_ms,
        reviewed_at=now,
        study_day=srs.study_day(now, settings.time_zone).date,
        round_token=outcome.round_token,
        item=outcome.item,
        due_after=now,
    )
    db.session.add(review)
    # The review row goes in first: its unique (round, item) key makes a second submission fail
    # here, and on SQLite the insert takes the write lock before the memory card is read.
    db.session.flush()
    card = db.session.execute(
        select(MemoryCard)
        .where(MemoryCard.student_id == student.id, MemoryCard.fact_key == fact.key)
        .with_for_update()
    ).scalar_one_or_none()
    before = card.to_memory() if card is not None else srs.new_memory(now)
    after = srs.schedule(
        before,
        rating,
        now,
        desired_retention=settings.desired_retention,
        seed=f"{outcome.round_token}:{outcome.item}",
    )
    if card is None:
        card = MemoryCard(student_id=student.id, fact_key=fact.key, facet=fact.facet.value, introduced_at=now)
        db.session.add(card)
    card.set_memory(after)
    review.due_after = after.due
    review.stability_after = after.stability
    db.session.commit()
    return review


def _recent_times(student: User, facet: Facet, outcome: srs.Outcome) -> list[int]:
    rows = db.session.execute(
        select(ReviewLog.duration_ms)
        .where(
            ReviewLog.student_id == student.id,
            ReviewLog.facet == facet.value,
            ReviewLog.form == outcome.form.value,
            ReviewLog.verdict == Verdict.RIGHT.value,
            ReviewLog.duration_ms.is_not(None),
        )
        .order_by(ReviewLog.reviewed_at.desc())
        .limit(RECENT_TIMES)
    ).scalars()
    return [int(ms) for ms in rows]


# --- Reading the memory ---------------------------------------------------------------------


def _due_clause(student: User, now: dt.datetime, day: srs.StudyDay, ahead: dt.timedelta = dt.timedelta(0)):  # type: ignore[no-untyped-def]
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
    cards = db.session.execute(select(MemoryCard).where(_due_clause(student, now, day, srs.LEARN_AHEAD))).scalars()
    return {card.fact_key: card.to_memory() for card in cards}


def introduced_keys(student: User) -> set[str]:
    """Every fact the student has answered at least once."""
    return set(db.session.execute(select(MemoryCard.fact_key).where(MemoryCard.student_id == student.id)).scalars())


def new_allowed_today(student: User, day: srs.StudyDay) -> int:
    """How many new facts may still be introduced today under the daily limit."""
    introduced_today = db.session.execute(
        select(func.count())
        .select_from(MemoryCard)
        .where(MemoryCard.student_id == student.id, MemoryCard.introduced_at >= day.start)
    ).scalar_one()
    return max(0, settings_for(student).new_per_day - introduced_today)


def queue(
    student: User,
    deck: Deck,
    *,
    size: int,
    now: dt.datetime | None = None,
    facets: set[Facet] | None = None,
    postals: set[str] | None = None,
) -> list[str]:
    """The next ``size`` facts for the student: due first, then new ones, within the focus."""
    now = now or utcnow()
    day = today_for(student, now)
    memories = due_memories(student, now, day)
    introduced = introduced_keys(student)
    # The queue only needs to know that the other introduced facts are not new.
    order = [f.key for f in teaching_order(deck) if f.key not in introduced]

    def include(key: str) -> bool:
        fact = Fact.from_key(key)
        return (facets is None or fact.facet in facets) and (postals is None or fact.postal in postals)

    return srs.build_queue(
        memories,
        now,
        day,
        teaching_order=order,
        new_allowed=new_allowed_today(student, day),
        size=size,
        include=include,
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
    #: Facts coming due tomorrow, and over the 7 days after today (their study days).
    due_tomorrow: int
    due_next_week: int


def summary(student: User, now: dt.datetime | None = None) -> StudySummary:
    """Due now, new available today, done today, streak and the next review, for the study home."""
    now = now or utcnow()
    day = today_for(student, now)
    due_keys = list(db.session.execute(select(MemoryCard.fact_key).where(_due_clause(student, now, day))).scalars())
    by_facet = {facet: 0 for facet in Facet}
    for key in due_keys:
        by_facet[Fact.from_key(key).facet] += 1
    introduced = db.session.execute(
        select(func.count()).select_from(MemoryCard).where(MemoryCard.student_id == student.id)
    ).scalar_one()
    total_facts = len(Facet) * 50
    new_today = min(new_allowed_today(student, day), total_facts - introduced)
    done_today = db.session.execute(
        select(func.count())
        .select_from(ReviewLog)
        .where(ReviewLog.student_id == student.id, ReviewLog.study_day == day.date)
    ).scalar_one()
    days = db.session.execute(
        select(ReviewLog.study_day)
        .where(ReviewLog.student_id == student.id, ReviewLog.study_day >= day.date - dt.timedelta(days=400))
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
    tz = settings_for(student).time_zone
    tomorrow = srs.study_day(day.end, tz)
    in_a_week = srs.study_day(day.end + dt.timedelta(days=6, hours=12), tz)

    def due_between(start: dt.datetime, end: dt.datetime) -> int:
        return db.session.execute(
            select(func.count())
            .select_from(MemoryCard)
            .where(MemoryCard.student_id == student.id, MemoryCard.due >= start, MemoryCard.due < end)
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
        due_tomorrow=due_between(day.end, tomorrow.end),
        due_next_week=due_between(day.end, in_a_week.end),
    )


def memory_of(student: User, fact_key: str) -> srs.Memory | None:
    """The student's schedule for one fact, if they have answered it."""
    card = db.session.execute(
        select(MemoryCard).where(MemoryCard.student_id == student.id, MemoryCard.fact_key == fact_key)
    ).scalar_one_or_none()
    return card.to_memory() if card is not None else None
