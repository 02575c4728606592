"""Assignment progress, read from the review log and the round records (never stored, P-A4)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from flask import g
from sqlalchemy import ColumnElement, and_, func, or_, select

from trainer.assignments import (
    ACTIVITIES,
    Activity,
    Amount,
    Progress,
    Review,
    Scope,
    count_progress,
    local_dates,
    recall_progress,
)

from . import get_deck
from .extensions import db
from .memory import time_zones, weights_of
from .models import (
    Assignment,
    AssignmentRound,
    AssignmentStudent,
    ClassMembership,
    MemoryCard,
    ReviewLog,
    SchoolClass,
    StudyRound,
    User,
    utcnow,
)
from .modes import adapter


def activities_of(assignment: Assignment) -> list[Activity]:
    return [ACTIVITIES[slug] for slug in assignment.activities if slug in ACTIVITIES]


def scope_of(assignment: Assignment) -> Scope:
    return Scope.from_json(assignment.scope)


def assigned_students(assignment: Assignment) -> list[int]:
    """The ids of the students the assignment is for: in its class now, and listed unless for everyone."""
    query = select(ClassMembership.student_id).where(
        ClassMembership.class_id == assignment.class_id
    )
    if not assignment.everyone:
        query = query.where(
            ClassMembership.student_id.in_(
                select(AssignmentStudent.student_id).where(
                    AssignmentStudent.assignment_id == assignment.id
                )
            )
        )
    return list(db.session.execute(query).scalars())


def assignments_for_student(student: User) -> list[tuple[Assignment, str]]:
    """Every assignment set for ``student`` in the classes they are in, with the class name; soonest due first."""
    listed = select(AssignmentStudent.assignment_id).where(
        AssignmentStudent.student_id == student.id
    )
    rows = db.session.execute(
        select(Assignment, SchoolClass.name)
        .join(SchoolClass, SchoolClass.id == Assignment.class_id)
        .join(ClassMembership, ClassMembership.class_id == SchoolClass.id)
        .where(
            ClassMembership.student_id == student.id,
            or_(Assignment.everyone, Assignment.id.in_(listed)),
        )
        .order_by(Assignment.due_at, Assignment.id)
    ).all()
    return [(row[0], row[1]) for row in rows]


def assignment_for_student(student: User, assignment_id: int) -> tuple[Assignment, str] | None:
    """The assignment, if it is set for ``student`` (else None: as unknown as a made-up id)."""
    for assignment, class_name in assignments_for_student(student):
        if assignment.id == assignment_id:
            return assignment, class_name
    return None


# --- A class's assignments -----------------------------------------------------------------------


def class_assignments(klass: SchoolClass) -> list[Assignment]:
    return list(
        db.session.execute(
            select(Assignment)
            .where(Assignment.class_id == klass.id)
            .order_by(Assignment.due_at.desc(), Assignment.id.desc())
        ).scalars()
    )


def class_progress(
    klass: SchoolClass, student_ids: Iterable[int]
) -> tuple[list[Assignment], dict[int, dict[int, Progress]]]:
    """The class's assignments (newest due first) and, for each, the progress of each student it is for.

    Answers and recall goals are counted by the database (:func:`trainer.web.dashboards.answers_progress`
    and :func:`~trainer.web.dashboards.goal_progress`: the same as :func:`progress`, a goal without
    its weakest facts), so the class page stays fast with several goals over every memory card of
    the class (issue 24).
    """
    from .dashboards import answers_progress, goal_progress  # they build on this module

    assignments = class_assignments(klass)
    ids = set(student_ids)
    now = utcnow()
    table = {}
    for assignment in assignments:
        assigned = [sid for sid in assigned_students(assignment) if sid in ids]
        if Amount(assignment.amount) is Amount.RECALL:
            table[assignment.id] = goal_progress(assignment, assigned, now)
        elif Amount(assignment.amount) is Amount.REVIEWS:
            table[assignment.id] = answers_progress(assignment, assigned, now)
        else:
            table[assignment.id] = progress(assignment, assigned, now)
    return assignments, table


# --- Rounds --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FinishedRound:
    student_id: int
    activity: str
    token: str
    finished_at: dt.datetime


def finished_rounds(
    activities: Sequence[Activity], student_ids: Sequence[int], since: dt.datetime
) -> list[FinishedRound]:
    """Rounds of ``activities`` the students finished at or after ``since``, each with the review log's token.

    A round counts once the student has played it through: every flashcard answered, a State IQ
    game over, a Dashing States or Border-Up call made, a card game in drill mode finished (each
    mode's web adapter, :mod:`trainer.web.modes`, says how its finished rounds are read).
    """
    if not student_ids:
        return []
    out: list[FinishedRound] = []
    for activity in activities:
        found = adapter(activity.slug)
        if found is None:
            raise LookupError(f"The mode {activity.slug!r} has no web adapter (trainer.web.modes).")
        out += [
            FinishedRound(student_id, activity.slug, token, at)
            for student_id, token, at in found.finished_rounds(student_ids, since)
        ]
    return out


def finished_study_rounds(
    student_ids: Sequence[int], since: dt.datetime
) -> list[tuple[int, str, dt.datetime]]:
    """The flashcard review rounds the students finished at or after ``since``: every card
    answered (read from the review log); the student, the review log's token and the last answer's time."""
    answered = db.session.execute(
        select(ReviewLog.round_token, func.count(), func.max(ReviewLog.reviewed_at))
        .where(
            ReviewLog.student_id.in_(student_ids),
            ReviewLog.mode == "review",
            ReviewLog.reviewed_at >= since,
        )
        .group_by(ReviewLog.round_token)
    ).all()
    by_token = {token.removeprefix("review:"): (count, last) for token, count, last in answered}
    if not by_token:
        return []
    rounds = db.session.execute(
        select(StudyRound.student_id, StudyRound.token, StudyRound.items).where(
            StudyRound.token.in_(list(by_token))
        )
    ).all()
    out = []
    for student_id, token, items in rounds:
        count, last = by_token[token]
        if count >= len(items):
            out.append((student_id, f"review:{token}", last))
    return out


def _linked_tokens(assignment: Assignment) -> set[str]:
    return set(
        db.session.execute(
            select(AssignmentRound.round_token).where(
                AssignmentRound.assignment_id == assignment.id
            )
        ).scalars()
    )


# --- Reviews -------------------------------------------------------------------------------------


def scope_clause(assignment: Assignment) -> ColumnElement[bool]:
    """The review log rows an assignment's reviews and goal are about: its activities' modes,
    facets and states."""
    activities = activities_of(assignment)
    scope = scope_of(assignment)
    clauses = [
        ReviewLog.mode.in_([a.mode for a in activities]),
        ReviewLog.facet.in_(sorted(f.value for f in scope.facet_set(activities))),
    ]
    postals = scope.postals(get_deck())
    if postals is not None:
        clauses.append(func.substr(ReviewLog.fact_key, 1, 2).in_(sorted(postals)))
    return and_(*clauses)


def goal_facts(assignment: Assignment) -> list[str]:
    """The keys of the facts a recall goal is about: its scope's, for its activities."""
    return [fact.key for fact in scope_of(assignment).facts(get_deck(), activities_of(assignment))]


# --- Memory cards --------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardRow:
    """What progress and help need of a memory card: whose fact, its last review and stability."""

    student_id: int
    fact_key: str
    facet: str
    last_review: dt.datetime
    stability: float | None
    lapses: int


def memory_rows(
    student_ids: Iterable[int],
    facets: Iterable[str] | None = None,
    postals: Iterable[str] | None = None,
) -> list[CardRow]:
    """The reviewed memory cards of the students (of some facets and states, if given), read once
    per request: a class page needs them for every recall goal and for who needs help."""
    ids = tuple(sorted(set(student_ids)))
    facet_key = None if facets is None else tuple(sorted(facets))
    postal_key = None if postals is None else tuple(sorted(postals))
    cache = g.setdefault("_memory_rows", {})
    key = (ids, facet_key, postal_key)
    if key not in cache:
        query = select(
            MemoryCard.student_id,
            MemoryCard.fact_key,
            MemoryCard.facet,
            MemoryCard.last_review,
            MemoryCard.stability,
            MemoryCard.lapses,
        ).where(MemoryCard.student_id.in_(ids), MemoryCard.last_review.is_not(None))
        if facet_key is not None:
            query = query.where(MemoryCard.facet.in_(facet_key))
        if postal_key is not None:
            query = query.where(func.substr(MemoryCard.fact_key, 1, 2).in_(postal_key))
        # The row's columns are CardRow's fields, in order (mypy cannot unpack a typed Row).
        cache[key] = [CardRow(*cast(tuple[Any, ...], row)) for row in db.session.execute(query)]
    return cache[key]


# --- Progress ------------------------------------------------------------------------------------


def progress(
    assignment: Assignment, student_ids: Iterable[int], now: dt.datetime
) -> dict[int, Progress]:
    """Each student's progress on ``assignment`` at ``now``: correct whenever it is asked (P-A4)."""
    ids = list(student_ids)
    if not ids:
        return {}
    amount = Amount(assignment.amount)
    if amount is Amount.ROUNDS:
        return _rounds_progress(assignment, ids, now)
    if amount is Amount.REVIEWS:
        rows = db.session.execute(
            select(ReviewLog.student_id, ReviewLog.reviewed_at).where(
                ReviewLog.student_id.in_(ids),
                ReviewLog.reviewed_at >= assignment.starts_at,
                scope_clause(assignment),
            )
        ).all()
        times: dict[int, list[dt.datetime]] = defaultdict(list)
        for student_id, at in rows:
            times[student_id].append(at)
        needed = assignment.quantity or 1
        return {
            sid: count_progress(times[sid], needed, assignment.starts_at, assignment.due_at, now)
            for sid in ids
        }
    return _recall_progress(assignment, ids, now)


def _rounds_progress(
    assignment: Assignment, ids: list[int], now: dt.datetime
) -> dict[int, Progress]:
    activities = activities_of(assignment)
    scope = scope_of(assignment)
    rounds = finished_rounds(activities, ids, assignment.starts_at)
    # A round dealt by the mode's own choice counts when the scope is everything; otherwise only
    # rounds dealt from this assignment's scope do (P-A2). Card games ignore the scope.
    linked = None if scope.is_everything else _linked_tokens(assignment)
    times: dict[int, list[dt.datetime]] = defaultdict(list)
    for r in rounds:
        activity = ACTIVITIES[r.activity]
        if linked is not None and activity.follows_scope and r.token not in linked:
            continue
        times[r.student_id].append(r.finished_at)
    needed = assignment.quantity or 1
    return {
        sid: count_progress(times[sid], needed, assignment.starts_at, assignment.due_at, now)
        for sid in ids
    }


def _recall_progress(
    assignment: Assignment, ids: list[int], now: dt.datetime
) -> dict[int, Progress]:
    """A recall goal from, per fact, its latest review (the memory card) and, once the due date
    has passed, its last review by the due date (one grouped query): never every review."""
    activities = activities_of(assignment)
    scope = scope_of(assignment)
    facts = goal_facts(assignment)
    facets = sorted(f.value for f in scope.facet_set(activities))
    postals = scope.postals(get_deck())
    # The memory is one: a goal counts reviews from every mode, before the assignment too.
    history: dict[int, dict[str, list[Review]]] = defaultdict(lambda: defaultdict(list))
    for card in memory_rows(ids, facets, postals):
        history[card.student_id][card.fact_key].append(Review(card.last_review, card.stability))
    if now >= assignment.due_at:
        latest = (
            select(
                ReviewLog.student_id,
                ReviewLog.fact_key,
                func.max(ReviewLog.reviewed_at).label("at"),
            )
            .where(
                ReviewLog.student_id.in_(ids),
                ReviewLog.facet.in_(facets),
                ReviewLog.reviewed_at <= assignment.due_at,
            )
            .group_by(ReviewLog.student_id, ReviewLog.fact_key)
        )
        if postals is not None:
            latest = latest.where(func.substr(ReviewLog.fact_key, 1, 2).in_(sorted(postals)))
        last = latest.subquery()
        rows = select(
            last.c.student_id, last.c.fact_key, last.c.at, ReviewLog.stability_after
        ).join(
            ReviewLog,
            and_(
                ReviewLog.student_id == last.c.student_id,
                ReviewLog.fact_key == last.c.fact_key,
                ReviewLog.reviewed_at == last.c.at,
            ),
        )
        for student_id, key, at, stability in db.session.execute(rows):
            history[student_id][key].append(Review(at, stability))
    target = assignment.target or 0.9
    zones = time_zones(ids)  # elapsed time counts in each student's study days (P-M1)
    weights = weights_of(ids)  # and recall follows each student's own memory model (P-M10)
    return {
        sid: recall_progress(
            facts,
            history[sid],
            target,
            assignment.starts_at,
            assignment.due_at,
            now,
            zones.get(sid, "UTC"),
            weights.get(sid),
        )
        for sid in ids
    }


# --- In words ------------------------------------------------------------------------------------


def dates_of(assignment: Assignment) -> tuple[dt.date, dt.date]:
    return local_dates(assignment.starts_at, assignment.due_at, assignment.time_zone)


def describe(assignment: Assignment) -> dict[str, str]:
    """The assignment in words, for teachers and students."""
    deck = get_deck()
    starts_on, due_on = dates_of(assignment)
    amount = Amount(assignment.amount)
    if amount is Amount.ROUNDS:
        needed = f"{assignment.quantity} round{'' if assignment.quantity == 1 else 's'} or game{'' if assignment.quantity == 1 else 's'}"
    elif amount is Amount.REVIEWS:
        needed = f"{assignment.quantity} answer{'' if assignment.quantity == 1 else 's'}"
    else:
        needed = f"every fact at {round((assignment.target or 0.9) * 100)}% predicted recall on the due date"
    return {
        "activities": ", ".join(a.title for a in activities_of(assignment)),
        "scope": scope_of(assignment).describe(deck),
        "needed": needed,
        "starts": f"{starts_on:%a %d %b %Y}",
        "due": f"{due_on:%a %d %b %Y}",
    }


@dataclass(frozen=True)
class MyAssignment:
    assignment: Assignment
    class_name: str
    progress: Progress
    text: dict[str, str]


def my_assignments(student: User) -> list[MyAssignment]:
    """The student's assignments with their progress: unfinished ones first, soonest due first."""
    now = utcnow()
    out = []
    for assignment, class_name in assignments_for_student(student):
        found = progress(assignment, [student.id], now)[student.id]
        out.append(MyAssignment(assignment, class_name, found, describe(assignment)))
    out.sort(key=lambda m: (m.progress.status.finished, m.assignment.due_at))
    return out
