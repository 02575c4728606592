"""What a teacher sees of their students' learning: last activity, who needs help, progress, the raw log.

Counts come from SQL aggregates over the review log. The class's mean predicted recall ("who needs
help") is an SQL aggregate too (:func:`trainer.web.dashboards.mean_recall`, FSRS's forgetting curve
in SQL); one student's facts are computed from their memory cards (at most 400).
Every function takes student or class ids that the caller has already checked belong to the teacher.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any, cast

from sqlalchemy import case, func, select

from trainer import srs
from trainer.cards import Deck
from trainer.facts import Facet, Fact

from .. import get_deck
from ..dashboards import mean_recall
from ..extensions import db
from ..memory import time_zones, today_for, weights_of
from ..models import (
    Assignment,
    AssignmentStudent,
    ClassMembership,
    MemoryCard,
    ReviewLog,
    User,
    memory_from,
)
from ..modes import mode_names
from ..progress import memory_rows
from ..text import csv_line, csv_safe  # noqa: F401  (csv_safe lived here; its tests import it from here)

#: A student whose mean predicted recall over the facts they have started is below this needs help.
LOW_RECALL = 0.70
#: A student with no answer in this many days (or none ever) needs help.
INACTIVE_DAYS = 7
#: A student has had the chance to practise this long after joining a class (P-S5) ...
SETTLING_IN = dt.timedelta(days=2)
#: ... or this long after an assignment set for them opened (or after they joined, if later).
ASSIGNMENT_SETTLING_IN = dt.timedelta(days=1)
#: The leeches named in a reason; any more are counted ("and 4 more").
LEECHES_NAMED = 5
#: The days shown in a student's activity table.
ACTIVITY_DAYS = 14
#: The rounds listed on a student's page.
RECENT_ROUNDS = 10
#: The longest date range a review-log export may cover (a leap year).
MAX_EXPORT_DAYS = 366

#: One fact in a sentence: "Vermont capital", "Ohio on the map".
_FACET_WORDS: dict[Facet, str] = {
    Facet.MAP: "on the map",
    Facet.CAPITAL: "capital",
    Facet.POSTAL: "postal code",
    Facet.BORDERS: "borders",
    Facet.SIZE: "size rank",
    Facet.STATEHOOD: "statehood rank",
    Facet.POPULATION: "population rank",
    Facet.ZONE: "time zone",
}

_RIGHT = func.sum(case((ReviewLog.correct, 1), else_=0))


def mode_name(mode: str) -> str:
    """The name a teacher knows a review log mode by (``state_iq`` -> "State IQ"), as its web
    adapter says it (:func:`trainer.web.modes.mode_names`)."""
    return mode_names().get(mode, mode.replace("_", " ").capitalize())


def fact_name(deck: Deck, fact_key: str) -> str:
    """A fact in words: "Vermont capital"."""
    fact = Fact.from_key(fact_key)
    return f"{deck[fact.postal].name} {_FACET_WORDS[fact.facet]}"


# --- The class page: last active, who needs help ---------------------------------------------


def last_active(student_ids: Sequence[int]) -> dict[int, dt.datetime | None]:
    """Each student's latest answer (None: never answered): one look-up a student in the review
    log's (student_id, reviewed_at) index, not a scan of the class's every answer."""
    latest = (
        select(func.max(ReviewLog.reviewed_at))
        .where(ReviewLog.student_id == User.id)
        .scalar_subquery()
    )
    found = {
        student_id: when
        for student_id, when in db.session.execute(
            select(User.id, latest).where(User.id.in_(list(student_ids)))
        )
    }
    return {student_id: found.get(student_id) for student_id in student_ids}


def last_active_text(when: dt.datetime | None, now: dt.datetime, time_zone: dt.tzinfo) -> str:
    """ "today", "yesterday", "3 days ago" or "never", by calendar days in ``time_zone``."""
    if when is None:
        return "never"
    days = (now.astimezone(time_zone).date() - when.astimezone(time_zone).date()).days
    if days <= 0:
        return "today"
    if days == 1:
        return "yesterday"
    return f"{days} days ago"


def _mean_recall(student_ids: Sequence[int], now: dt.datetime) -> dict[int, tuple[float, int]]:
    """Each student's mean predicted recall now and the number of facts it is over (students with cards only),
    computed in Python: the reference :func:`trainer.web.dashboards.mean_recall` is tested against."""
    recalls: dict[int, list[float]] = defaultdict(list)
    zones = time_zones(student_ids)  # each student's study days (P-M1)
    weights = weights_of(student_ids)  # and their own memory model (P-M10)
    for card in memory_rows(student_ids):
        sid = card.student_id
        recalls[sid].append(
            srs.recall(card.stability, card.last_review, now, zones[sid], weights.get(sid))
        )
    return {student_id: (fmean(values), len(values)) for student_id, values in recalls.items()}


def _leeches(student_ids: Sequence[int]) -> dict[int, list[str]]:
    rows = db.session.execute(
        select(MemoryCard.student_id, MemoryCard.fact_key)
        .where(MemoryCard.student_id.in_(student_ids), MemoryCard.lapses >= srs.LEECH_LAPSES)
        .order_by(MemoryCard.student_id, MemoryCard.lapses.desc(), MemoryCard.fact_key)
    )
    found: dict[int, list[str]] = defaultdict(list)
    for student_id, fact_key in rows:
        found[student_id].append(fact_key)
    return found


def _leech_reason(deck: Deck, fact_keys: list[str]) -> str:
    names = [fact_name(deck, key) for key in fact_keys[:LEECHES_NAMED]]
    more = len(fact_keys) - len(names)
    listed = ", ".join(names) + (f" and {more} more" if more else "")
    if len(fact_keys) == 1:
        return f"1 fact keeps slipping (a leech): {listed}"
    return f"{len(fact_keys)} facts keep slipping (leeches): {listed}"


def judged_from(
    joined_at: dt.datetime, assignment_starts: Iterable[dt.datetime] = ()
) -> dt.datetime:
    """When a student who joined a class at ``joined_at`` has had the chance to practise (P-S5):
    :data:`SETTLING_IN` after joining, or :data:`ASSIGNMENT_SETTLING_IN` after an assignment set
    for them opened (counted from the joining if they joined after it opened), whichever is first.
    A student who has answered anything has had the chance whatever this says."""
    when = joined_at + SETTLING_IN
    for start in assignment_starts:
        when = min(when, max(start, joined_at) + ASSIGNMENT_SETTLING_IN)
    return when


def settling_in(
    class_id: int, student_ids: Sequence[int], now: dt.datetime
) -> dict[int, dt.datetime]:
    """The students of the class who have not had the chance to practise yet (P-S5), each with
    when they will have: never answered, and :func:`judged_from` still to come. Neither "needs
    help" nor "at risk" is said of them before then."""
    if not student_ids:
        return {}
    joined = {
        sid: when
        for sid, when in db.session.execute(
            select(ClassMembership.student_id, ClassMembership.joined_at).where(
                ClassMembership.class_id == class_id,
                ClassMembership.student_id.in_(list(student_ids)),
            )
        )
    }
    practised = set(
        db.session.execute(
            select(ReviewLog.student_id)
            .where(ReviewLog.student_id.in_(list(joined)))
            .group_by(ReviewLog.student_id)
        ).scalars()
    )
    waiting = [sid for sid in joined if sid not in practised and joined[sid] + SETTLING_IN > now]
    if not waiting:
        return {}
    starts: dict[int, list[dt.datetime]] = defaultdict(list)
    assignments = db.session.execute(
        select(Assignment.id, Assignment.starts_at, Assignment.everyone).where(
            Assignment.class_id == class_id
        )
    ).all()
    listed: dict[int, set[int]] = defaultdict(set)
    for assignment_id, sid in db.session.execute(
        select(AssignmentStudent.assignment_id, AssignmentStudent.student_id).where(
            AssignmentStudent.assignment_id.in_([a.id for a in assignments]),
            AssignmentStudent.student_id.in_(waiting),
        )
    ):
        listed[assignment_id].add(sid)
    for assignment_id, starts_at, everyone in assignments:
        for sid in waiting:
            if everyone or sid in listed[assignment_id]:
                starts[sid].append(starts_at)
    found = {}
    for sid in waiting:
        when = judged_from(joined[sid], starts[sid])
        if when > now:
            found[sid] = when
    return found


def needs_help(
    student_ids: Sequence[int],
    now: dt.datetime,
    deck: Deck | None = None,
    active: Mapping[int, dt.datetime | None] | None = None,
) -> dict[int, list[str]]:
    """Why each student needs help, in words for their teacher (an empty list: no reason found).

    The reasons: no practice in :data:`INACTIVE_DAYS` days (or never); a mean predicted recall
    below :data:`LOW_RECALL` over the facts they have started; facts forgotten
    :data:`srs.LEECH_LAPSES` times or more (leeches). ``active``: :func:`last_active` of the
    students, if the caller has it already.
    """
    deck = deck if deck is not None else get_deck()
    active = active if active is not None else last_active(student_ids)
    recall = mean_recall(student_ids, now)  # counted by the database (issue 24)
    leeches = _leeches(student_ids)
    reasons: dict[int, list[str]] = {}
    for student_id in student_ids:
        found = []
        when = active[student_id]
        if when is None:
            found.append("Has not practised yet")
        elif when <= now - dt.timedelta(days=INACTIVE_DAYS):
            found.append(f"No practice in the last {INACTIVE_DAYS} days")
        if student_id in recall:
            mean, facts = recall[student_id]
            if mean < LOW_RECALL:
                found.append(
                    f"Likely to remember only {mean:.0%} of the {facts} fact{'' if facts == 1 else 's'} started "
                    f"(below {LOW_RECALL:.0%})"
                )
        if leeches.get(student_id):
            found.append(_leech_reason(deck, leeches[student_id]))
        reasons[student_id] = found
    return reasons


# --- One student's page ----------------------------------------------------------------------


@dataclass(frozen=True)
class DayActivity:
    day: dt.date
    answered: int
    right: int


@dataclass(frozen=True)
class ModeActivity:
    mode: str
    name: str
    answered: int
    right: int


@dataclass(frozen=True)
class Activity:
    """A student's answers over their last few study days: per day (every day, oldest first) and per mode."""

    days: list[DayActivity]
    modes: list[ModeActivity]

    @property
    def answered(self) -> int:
        return sum(day.answered for day in self.days)

    @property
    def right(self) -> int:
        return sum(day.right for day in self.days)


def student_activity(student_id: int, now: dt.datetime, days: int = ACTIVITY_DAYS) -> Activity:
    """Answers and right answers ("close" counts as right) per study day and per mode, over ``days`` study days to today."""
    student = db.session.get(User, student_id)
    if student is None:
        raise LookupError(f"no user {student_id}")
    today = today_for(student, now).date
    first = today - dt.timedelta(days=days - 1)
    in_window = (
        ReviewLog.student_id == student_id,
        ReviewLog.study_day >= first,
        ReviewLog.study_day <= today,
    )
    per_day = {
        day: (answered, right)
        for day, answered, right in db.session.execute(
            select(ReviewLog.study_day, func.count(), _RIGHT)
            .where(*in_window)
            .group_by(ReviewLog.study_day)
        )
    }
    day_rows = []
    for offset in range(days):
        day = first + dt.timedelta(days=offset)
        answered, right = per_day.get(day, (0, 0))
        day_rows.append(DayActivity(day, int(answered), int(right)))
    mode_rows = [
        ModeActivity(mode, mode_name(mode), int(answered), int(right))
        for mode, answered, right in db.session.execute(
            select(ReviewLog.mode, func.count(), _RIGHT)
            .where(*in_window)
            .group_by(ReviewLog.mode)
            .order_by(func.count().desc(), ReviewLog.mode)
        )
    ]
    return Activity(day_rows, mode_rows)


@dataclass(frozen=True)
class FactCell:
    facet: Facet
    #: Predicted recall now, 0..1; None when the student has never answered the fact.
    recall: float | None
    leech: bool


@dataclass(frozen=True)
class StateFacts:
    postal: str
    name: str
    cells: list[FactCell]


def facts_by_state(student_id: int, now: dt.datetime, deck: Deck | None = None) -> list[StateFacts]:
    """For every state (by name) and every facet: the predicted recall now, and whether it is a leech."""
    deck = deck if deck is not None else get_deck()
    zone = time_zones([student_id]).get(student_id, "UTC")
    weights = weights_of([student_id])[student_id]
    memories = {
        card.fact_key: memory_from(card)
        for card in db.session.execute(
            select(MemoryCard.__table__).where(MemoryCard.student_id == student_id)
        )
    }
    rows = []
    for state in deck.sorted_by(None):
        cells = []
        for facet in Facet:
            memory = memories.get(Fact(state.postal, facet).key)
            if memory is None:
                cells.append(FactCell(facet, None, False))
            else:
                cells.append(
                    FactCell(facet, srs.retrievability(memory, now, zone, weights), memory.is_leech)
                )
        rows.append(StateFacts(state.postal, state.name, cells))
    return rows


@dataclass(frozen=True)
class RecentRound:
    round_token: str
    mode: str
    name: str
    started: dt.datetime
    #: The round's latest answer.
    when: dt.datetime
    answered: int
    right: int


def recent_rounds(student_id: int, limit: int = RECENT_ROUNDS) -> list[RecentRound]:
    """The student's latest rounds (of any mode), newest first, with how many answers and how many right."""
    last = func.max(ReviewLog.reviewed_at)
    rows = db.session.execute(
        select(
            ReviewLog.round_token,
            ReviewLog.mode,
            func.min(ReviewLog.reviewed_at),
            last,
            func.count(),
            _RIGHT,
        )
        .where(ReviewLog.student_id == student_id)
        .group_by(ReviewLog.round_token, ReviewLog.mode)
        .order_by(last.desc(), ReviewLog.round_token)
        .limit(limit)
    )
    return [
        RecentRound(token, mode, mode_name(mode), started, when, int(answered), int(right))
        for token, mode, started, when, answered, right in rows
    ]


# --- The review log export -------------------------------------------------------------------


@dataclass(frozen=True)
class LogRow:
    username: str
    display_name: str | None
    reviewed_at: dt.datetime
    study_day: dt.date
    mode: str
    fact_key: str
    facet: str
    verdict: str
    rating: int
    answer: str
    round_token: str


def review_log_rows(class_id: int, start_date: dt.date, end_date: dt.date) -> Iterator[LogRow]:
    """The review log of the class's current students, study days ``start_date``..``end_date`` inclusive, oldest first.

    Rows are fetched in batches as they are read, so a year of a large class is never all in memory.
    """
    statement = (
        select(
            User.username,
            ClassMembership.display_name,
            ReviewLog.reviewed_at,
            ReviewLog.study_day,
            ReviewLog.mode,
            ReviewLog.fact_key,
            ReviewLog.facet,
            ReviewLog.verdict,
            ReviewLog.rating,
            ReviewLog.answer,
            ReviewLog.round_token,
        )
        .join(User, User.id == ReviewLog.student_id)
        .join(ClassMembership, ClassMembership.student_id == ReviewLog.student_id)
        .where(
            ClassMembership.class_id == class_id,
            ReviewLog.study_day >= start_date,
            ReviewLog.study_day <= end_date,
        )
        .order_by(ReviewLog.reviewed_at, ReviewLog.id)
        .execution_options(yield_per=1000)
    )
    for row in db.session.execute(statement):
        yield LogRow(*cast(tuple[Any, ...], row))  # the columns are LogRow's fields, in order


#: Every CSV download starts with a byte-order mark: without it Excel takes UTF-8 for the local
#: code page and garbles "é".
CSV_BOM = "\ufeff"

CSV_HEADER = [
    "student",
    "name",  # the real name only the class's teacher sees (issue 24)
    "reviewed_at_utc",
    "study_day",
    "mode",
    "state",
    "facet",
    "verdict",
    "rating",
    "answer",
    "round",
]


#: A fact's facet in an export, as a word a teacher reads (issue #24): "Capital", not "capital".
CSV_FACETS: dict[Facet, str] = {
    Facet.MAP: "Map",
    Facet.CAPITAL: "Capital",
    Facet.POSTAL: "Postal code",
    Facet.BORDERS: "Borders",
    Facet.SIZE: "Size rank",
    Facet.STATEHOOD: "Statehood rank",
    Facet.POPULATION: "Population rank",
    Facet.ZONE: "Time zone",
}


def rating_word(rating: int) -> str:
    """An FSRS rating as the word students press: 1 -> "Again" ... 4 -> "Easy"."""
    try:
        return srs.Rating(rating).name.capitalize()
    except ValueError:
        return str(rating)


def export_rows(rows: Iterable[LogRow], deck: Deck) -> Iterator[list[object]]:
    """The export's rows (under :data:`CSV_HEADER`), one per answer, for the CSV and the workbook.

    Words, not codes (issue #24): the mode's name, the facet ("Capital"), the verdict
    (right/close/wrong) and the rating (Again/Hard/Good/Easy). A round is numbered per student in
    the order the file lists them (1 is the student's first round in it), not by its stored token.
    """
    rounds: dict[tuple[str, str], int] = {}
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        fact = Fact.from_key(row.fact_key)
        if (row.username, row.round_token) not in rounds:
            counts[row.username] += 1
            rounds[row.username, row.round_token] = counts[row.username]
        yield [
            row.username,
            row.display_name or "",
            row.reviewed_at.astimezone(dt.UTC).isoformat(timespec="seconds"),
            row.study_day.isoformat(),
            mode_name(row.mode),
            deck[fact.postal].name,
            CSV_FACETS[fact.facet],
            row.verdict,
            rating_word(row.rating),
            row.answer,
            rounds[row.username, row.round_token],
        ]


def csv_lines(rows: Iterable[LogRow], deck: Deck) -> Iterator[str]:
    """The export as CSV text (RFC 4180, UTF-8 with a byte-order mark), header first, a line at a
    time (:func:`export_rows`). Every cell goes through the one CSV guard (``csv_line``, ruling
    P-H11): answers are typed by students.
    """
    # A byte-order mark first: without it Excel takes UTF-8 for the local code page and garbles "é".
    yield CSV_BOM + csv_line(CSV_HEADER)
    for cells in export_rows(rows, deck):
        yield csv_line(cells)
