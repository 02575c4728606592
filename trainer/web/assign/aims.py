"""Test days: the aims of a student's assignments (P-M9) and the daily work a goal costs a class (P-M11)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from sqlalchemy import Table, and_, bindparam, or_, select, update

from trainer import srs
from trainer.aim import DEFAULT_TEST_TARGET, TEST_TARGETS, TestAim, aim, workloads
from trainer.assignments import Amount

from ..extensions import db
from ..memory import settings_for, time_zones, weights_of
from ..models import (
    Assignment,
    AssignmentStudent,
    ClassMembership,
    MemoryCard,
    User,
    memory_from,
    utcnow,
)
from ..progress import assigned_students, goal_facts

#: Time zones run from UTC-12 to UTC+14 and a study day starts at 4 a.m.: a test day is surely
#: past everywhere once it is two days before today's UTC date.
_SURELY_PAST = dt.timedelta(days=2)


def aimed_target(assignment: Assignment) -> float:
    """The recall a test day aims at: a recall goal's own target, else the assignment's
    "remember on test day" (P-A5)."""
    if assignment.amount == Amount.RECALL.value:
        return assignment.target or DEFAULT_TEST_TARGET
    return assignment.test_target or DEFAULT_TEST_TARGET


# Built once: every answer reads its student's test aims (memory._aims), and building this
# statement cost more than running it (issue 25).
_AIMS = (
    select(Assignment)
    .join(ClassMembership, ClassMembership.class_id == Assignment.class_id)
    .where(
        ClassMembership.student_id == bindparam("student_id"),
        Assignment.test_on.is_not(None),
        Assignment.test_on >= bindparam("since"),
        or_(
            Assignment.everyone,
            Assignment.id.in_(
                select(AssignmentStudent.assignment_id).where(
                    AssignmentStudent.student_id == bindparam("student_id")
                )
            ),
        ),
    )
    .order_by(Assignment.test_on, Assignment.id)
)


def aims_for(student: User, today: dt.date | None = None) -> list[TestAim]:
    """The test aims of the student's current assignments, in one indexed query: a test day not
    past (``today``, the student's study day, when given; else not past anywhere on Earth), in a
    class the student is in, set for everyone or for them."""
    since = today if today is not None else utcnow().date() - _SURELY_PAST
    rows = db.session.execute(_AIMS, {"student_id": student.id, "since": since}).scalars()
    return [
        TestAim(row.test_on, aimed_target(row), frozenset(goal_facts(row)))
        for row in rows
        if row.test_on is not None  # always, by the query: for the type checker
    ]


_CARD = cast(Table, MemoryCard.__table__)
#: A due pulled in, unless an answer changed the card since it was read (its reps grew): that
#: answer's own schedule (aimed by memory._write) stands.
_PULL_IN = (
    update(_CARD)
    .where(and_(_CARD.c.id == bindparam("card_id"), _CARD.c.reps == bindparam("reps_read")))
    .values(due=bindparam("new_due"))
)


def aim_now(assignment: Assignment, now: dt.datetime | None = None) -> int:
    """Aim the facts already scheduled at the assignment's test day, now (P-M9): a test day set or
    moved after the students' last answers would otherwise wait for each fact's next answer,
    which FSRS may have put after the test. Each student's facts of the scope in review are
    given ``aim.aim`` at ``now`` (their own time zone and weights); a due only ever moves earlier.
    Not committed. Returns how many dues moved."""
    if assignment.test_on is None:
        return 0
    now = now or utcnow()
    ids = assigned_students(assignment)
    keys = goal_facts(assignment)
    if not ids or not keys:
        return 0
    test = TestAim(assignment.test_on, aimed_target(assignment), frozenset(keys))
    zones = time_zones(ids)
    weights = weights_of(ids)
    cards = db.session.execute(
        select(MemoryCard).where(
            MemoryCard.student_id.in_(ids),
            MemoryCard.fact_key.in_(keys),
            MemoryCard.state == int(srs.MemoryState.REVIEW),
            MemoryCard.due > now,
        )
    ).scalars()
    moves = []
    for card in cards:
        before = memory_from(card)
        after = aim(
            before, [test], now, zones.get(card.student_id, "UTC"), weights.get(card.student_id)
        )
        if after.due < before.due:
            moves.append({"card_id": card.id, "reps_read": card.reps, "new_due": after.due})
    if moves:
        db.session.execute(_PULL_IN, moves)
    return len(moves)


# --- The preview of the daily work ---------------------------------------------------------------


@dataclass(frozen=True)
class PreviewRow:
    """One goal of the preview: its percent and the daily reviews it costs the average student."""

    percent: int
    per_day: float
    #: Students whose new facts cannot all be learned before the test at their daily limit.
    short_of_days: int

    @property
    def words(self) -> str:
        """ "about 12 reviews", "less than 1 review", "no reviews"."""
        if self.per_day == 0:
            return "no reviews"
        if self.per_day < 1:
            return "less than 1 review"
        count = round(self.per_day)
        return f"about {count} review{'' if count == 1 else 's'}"


@dataclass(frozen=True)
class Preview:
    test_on: dt.date
    days: int
    students: int
    facts: int
    rows: tuple[PreviewRow, ...]


def class_preview(
    student_ids: Sequence[int],
    fact_keys: Sequence[str],
    test_on: dt.date,
    now: dt.datetime | None = None,
) -> Preview:
    """What each goal of :data:`TEST_TARGETS` costs the students, per student and study day, from
    today to the test day, computed from their real memories of ``fact_keys`` (P-M11)."""
    now = now or utcnow()
    ids = sorted(set(student_ids))
    memories: dict[int, dict[str, srs.Memory]] = defaultdict(dict)
    if ids and fact_keys:
        cards = db.session.execute(
            select(MemoryCard).where(
                MemoryCard.student_id.in_(ids), MemoryCard.fact_key.in_(sorted(set(fact_keys)))
            )
        ).scalars()
        for card in cards:
            memories[card.student_id][card.fact_key] = memory_from(card)
    students = (
        list(db.session.execute(select(User).where(User.id.in_(ids))).scalars()) if ids else []
    )
    settings = {s.id: settings_for(s) for s in students}
    weights = weights_of(ids)  # each student's own memory model (P-M10)
    totals = {target: 0.0 for target in TEST_TARGETS}
    short = {target: 0 for target in TEST_TARGETS}
    days = max(1, (test_on - now.date()).days)
    for student in students:
        found = settings[student.id]
        today = srs.study_day(now, found.time_zone).date
        works = workloads(
            memories[student.id],
            fact_keys,
            today,
            test_on,
            TEST_TARGETS,
            found.time_zone,
            found.new_per_day,
            weights.get(student.id),
            found.desired_retention,
        )
        for work in works:
            totals[work.target] += work.per_day
            short[work.target] += int(work.too_late > 0)
            days = work.days
    count = len(students)
    rows = tuple(
        PreviewRow(round(target * 100), totals[target] / count if count else 0.0, short[target])
        for target in TEST_TARGETS
    )
    return Preview(test_on, days, count, len(fact_keys), rows)
