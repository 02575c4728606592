"""The numbers behind the progress dashboards, computed by SQL aggregates (issue #10).

Every function reads a few grouped rows, never a student's whole history: the database does the
counting, and predicted recall (FSRS's forgetting curve) is an SQL expression, :func:`recall_expr`,
equal to :func:`trainer.srs.recall` on SQLite and on PostgreSQL (both count the study days since
the last review, P-M1, from the study day stored with it). Python only names the rows and
fills in the days, weeks and states that have none. The values are the plain types of
:mod:`trainer.dashboard_data`.

Every function takes the student ids and times explicitly: the caller has checked that the
students are the signed-in student, or belong to the signed-in teacher's class.

Statements are built by the ``_*_sql`` functions and run as they are by both the dashboard
functions and :func:`raw_student_queries` / :func:`raw_teacher_queries`, which the benchmark
times as the floor a dashboard is compared against. A class dashboard reads its cells, map and
students at risk with :func:`class_overview` (one pass over the memory cards), plus
:func:`confused_pairs`; :func:`class_cells`, :func:`state_recall` and :func:`students_at_risk`
give the same numbers one at a time.

Indexes used: memory_card (student_id, fact_key) and (student_id, due); review_log
(student_id, study_day) and (student_id, reviewed_at); and, for :func:`confused_pairs` over a
big class, a partial index on review_log (student_id, fact_key, answered_postal) WHERE NOT
correct AND answered_postal IS NOT NULL, so only the wrong answers that named a state are read.

GROUP BY is always over a subquery's plain columns: on PostgreSQL an expression with bound
parameters (``substr(fact_key, $1, $2)``) in SELECT and GROUP BY is not recognised as the same.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeAlias
from zoneinfo import ZoneInfo

from sqlalchemy import (
    ColumnElement,
    Float,
    Integer,
    Select,
    and_,
    case,
    cast,
    false,
    func,
    literal,
    literal_column,
    null,
    or_,
    select,
    true,
    tuple_,
    union_all,
)
from sqlalchemy.engine import Row
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.functions import FunctionElement

from trainer import srs
from trainer.assignments import Amount, Progress, Status, local_dates
from trainer.dashboard_data import (
    MASTERED_STABILITY_DAYS,
    CellRecall,
    ClassmatesRecord,
    CompletionPoint,
    ConfusedPair,
    Confusions,
    DayCount,
    FacetCounts,
    GameRecord,
    PersonalBest,
    StateRecall,
    StudentRisk,
    WeekAccuracy,
)
from trainer.facts import Facet, Fact
from trainer.games import REGISTRY, Level
from trainer.results import Result

from . import get_deck
from .extensions import db
from .live.duels import DUELS
from .memory import time_zones, weights_of
from .models import Assignment, LiveSeat, LiveTable, MemoryCard, ReviewLog, User
from .modes import Records, adapters
from .progress import (
    activities_of,
    assigned_students,
    finished_rounds,
    goal_facts,
    progress,
    scope_clause,
)

#: Facts of one facet (one a state).
FACTS_PER_FACET = 50
#: Every fact of the deck: 50 states x 8 facets.
ALL_FACTS = FACTS_PER_FACET * len(Facet)
#: The race level that is no race (Dashing States' untimed rounds).
PRACTICE = "practice"

_UTC = dt.UTC
#: julianday('YYYY-MM-DD') - date.toordinal(): SQLite's day number of a date is exact (x.5).
_JULIAN_ORDINAL = 1721424.5

if TYPE_CHECKING:
    #: A query or row of any columns (SQLAlchemy 2.1 types them by their columns' types).
    AnySelect: TypeAlias = Select[*tuple[Any, ...]]
    AnyRow: TypeAlias = Row[*tuple[Any, ...]]


# --- Predicted recall in SQL ----------------------------------------------------------------------


def recall_expr(
    stability_col: Any,
    last_study_day_col: Any,
    student_id_col: Any,
    student_ids: Collection[int],
    at: dt.datetime,
) -> ColumnElement[float]:
    """SQL for :func:`trainer.srs.recall`: ``(1 + F * days / S) ** D`` at ``at``, 0 when never reviewed.

    ``days`` is the study days from the last review's (``last_study_day_col``) to the row's
    student's study day at ``at``, in that student's time zone (0 if ``at`` is earlier): the
    count :func:`trainer.srs.elapsed_days` makes (P-M1). F and D are FSRS's, as
    :func:`trainer.srs.recall_after` takes them, from each row's student's own weights (P-M10;
    :func:`trainer.srs.curve`), as a CASE over the students whose curve is not the standard one:
    the same floating-point operations in the same order, so the value is the one Python computes.

    Args:
        stability_col, last_study_day_col, student_id_col: the stability, study day of the last
            review and student of each row.
        student_ids: every student the rows may belong to (their study day at ``at`` is looked up).
        at: the time of the prediction, UTC.
    """
    if at.tzinfo is None or at.utcoffset() != dt.timedelta(0):
        raise ValueError("times must be timezone-aware UTC")
    gap = _today_number(student_id_col, study_dates(student_ids, at)) - _day_number(
        last_study_day_col
    )
    days = case((gap > 0, gap), else_=literal_column("0"))
    factor, decay = _curve_of(student_id_col, student_ids)
    base = literal(1.0, Float) + factor * cast(days, Float) / stability_col
    curve = func.power(base, decay, type_=Float)
    return case((or_(stability_col.is_(None), last_study_day_col.is_(None)), 0.0), else_=curve)


def _curve_of(
    student_id_col: Any, student_ids: Collection[int]
) -> tuple[ColumnElement[float], ColumnElement[float]]:
    """SQL: the forgetting curve's F and D of the row's student (P-M10), as literals, in a CASE
    over the students whose own weights give another curve than the standard one."""
    standard = srs.curve(None)
    by_curve: dict[tuple[float, float], list[int]] = {}
    for sid, weights in weights_of(student_ids).items():
        curve = srs.curve(weights)
        if curve != standard:
            by_curve.setdefault(curve, []).append(sid)
    if not by_curve:
        return literal(standard[0], Float), literal(standard[1], Float)
    ordered = sorted(by_curve.items())
    factor = case(
        *[(student_id_col.in_(sorted(ids)), literal(f, Float)) for (f, _), ids in ordered],
        else_=literal(standard[0], Float),
    )
    decay = case(
        *[(student_id_col.in_(sorted(ids)), literal(d, Float)) for (_, d), ids in ordered],
        else_=literal(standard[1], Float),
    )
    return factor, decay


def study_dates(student_ids: Collection[int], at: dt.datetime) -> dict[int, dt.date]:
    """Each student's study day (its date) at ``at``, in the student's own time zone."""
    return {sid: srs.study_day(at, zone).date for sid, zone in time_zones(student_ids).items()}


def _today_number(student_id_col: Any, dates: dict[int, dt.date]) -> ColumnElement[int]:
    """SQL: the day number (``date.toordinal()``) of the row's student's study day. A CASE over the
    few dates there are at one moment (a class usually shares one), written as integer literals."""
    by_date: dict[dt.date, list[int]] = {}
    for sid, date in dates.items():
        by_date.setdefault(date, []).append(sid)
    if not by_date:
        return literal_column("0", Integer)
    first, *others = sorted(by_date)
    number = literal_column(str(first.toordinal()), Integer)
    if not others:
        return number
    whens = [
        (student_id_col.in_(sorted(by_date[date])), literal_column(str(date.toordinal()), Integer))
        for date in others
    ]
    return case(*whens, else_=number)


def _card_recall(student_ids: Collection[int], at: dt.datetime) -> ColumnElement[float]:
    """A memory card's predicted recall at ``at`` (:func:`recall_expr` over the card's columns)."""
    return recall_expr(
        MemoryCard.stability, MemoryCard.last_study_day, MemoryCard.student_id, student_ids, at
    )


class _day_number(FunctionElement[int]):
    """A date column's ``date.toordinal()``: day numbers, so weeks can be counted in integers."""

    type = Integer()
    name = "day_number"
    inherit_cache = True


@compiles(_day_number, "sqlite")
def _day_number_sqlite(element: _day_number, compiler: SQLCompiler, **kw: Any) -> str:
    (column,) = list(element.clauses)
    return f"CAST(julianday({compiler.process(column, **kw)}) - {_JULIAN_ORDINAL} AS INTEGER)"


@compiles(_day_number)
def _day_number_default(element: _day_number, compiler: SQLCompiler, **kw: Any) -> str:
    (column,) = list(element.clauses)
    return f"(({compiler.process(column, **kw)}) - DATE '0001-01-01' + 1)"


def _week_index(date_column: Any) -> ColumnElement[int]:
    """The week (Monday to Sunday) of a date, as ``(ordinal - 1) // 7``: 1 January 1 was a Monday."""
    return (_day_number(date_column) - 1) // 7


def _monday(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=day.weekday())


def _fenced(query: AnySelect) -> Any:
    """``query`` as a subquery the database computes on its own, row by row, before the outer
    query aggregates it. Else both SQLite and PostgreSQL merge it into the outer query, and an
    expression used twice there (the recall, averaged and compared with a target) is computed
    twice. OFFSET 0 is the customary fence on both."""
    return query.offset(0).subquery()


def _postal(fact_key: Any) -> ColumnElement[str]:
    return func.substr(fact_key, 1, 2)


def _count_if(condition: Any) -> ColumnElement[int]:
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


# --- A student ------------------------------------------------------------------------------------


def _facet_counts_sql(student_id: int) -> AnySelect:
    leech = MemoryCard.lapses >= srs.LEECH_LAPSES
    return (
        select(
            MemoryCard.facet,
            func.count(),
            _count_if(
                and_(
                    MemoryCard.lapses < srs.LEECH_LAPSES,
                    MemoryCard.stability >= MASTERED_STABILITY_DAYS,
                )
            ),
            _count_if(leech),
        )
        .where(MemoryCard.student_id == student_id)
        .group_by(MemoryCard.facet)
    )


def facet_counts(student_id: int) -> list[FacetCounts]:
    """Each facet's 50 facts by stage, in :class:`Facet` order: mastered (stability of at least
    :data:`MASTERED_STABILITY_DAYS` days, not a leech), learning, leeches (at least
    :data:`srs.LEECH_LAPSES` lapses) and new (never answered)."""
    found = {
        facet: (started, mastered, leeches)
        for facet, started, mastered, leeches in db.session.execute(_facet_counts_sql(student_id))
    }
    out = []
    for facet in Facet:
        started, mastered, leeches = found.get(facet.value, (0, 0, 0))
        out.append(
            FacetCounts(
                facet, mastered, started - mastered - leeches, leeches, FACTS_PER_FACET - started
            )
        )
    return out


def _study_days(now: dt.datetime, time_zone: str, days: int) -> list[srs.StudyDay]:
    """The student's next ``days`` study days, today first (each one's end is the next one's start)."""
    day = srs.study_day(now, time_zone)
    out = [day]
    while len(out) < days:
        out.append(srs.study_day(out[-1].end, time_zone))
    return out


def _forecast_sql(student_id: int, ends: Sequence[dt.datetime]) -> AnySelect:
    day = case(*[(MemoryCard.due < end, index) for index, end in enumerate(ends)]).label("day")
    due = (
        select(day).where(MemoryCard.student_id == student_id, MemoryCard.due < ends[-1]).subquery()
    )
    return select(due.c.day, func.count()).group_by(due.c.day)


def forecast(student_id: int, now: dt.datetime, time_zone: str, days: int = 30) -> list[DayCount]:
    """Facts coming due on each of the student's next ``days`` study days (days start at 4 a.m. in
    ``time_zone``), today first; facts already overdue count today. Every day is present."""
    study_days = _study_days(now, time_zone, days)
    rows = db.session.execute(_forecast_sql(student_id, [d.end for d in study_days]))
    counts: dict[int, int] = {index: count for index, count in rows}
    return [DayCount(d.date, counts.get(index, 0)) for index, d in enumerate(study_days)]


def _calendar_sql(student_id: int, first: dt.date, today: dt.date) -> AnySelect:
    return (
        select(ReviewLog.study_day, func.count())
        .where(
            ReviewLog.student_id == student_id,
            ReviewLog.study_day >= first,
            ReviewLog.study_day <= today,
        )
        .group_by(ReviewLog.study_day)
    )


def review_calendar(student_id: int, today: dt.date, days: int = 365) -> list[DayCount]:
    """Answers given on each of the ``days`` study days up to ``today``, oldest first, zeros included."""
    first = today - dt.timedelta(days=days - 1)
    rows = db.session.execute(_calendar_sql(student_id, first, today))
    counts: dict[dt.date, int] = {day: count for day, count in rows}
    return [
        DayCount(day, counts.get(day, 0))
        for day in (first + dt.timedelta(days=n) for n in range(days))
    ]


def _weekly_sql(student_id: int, first: dt.date, today: dt.date) -> AnySelect:
    # The study day each fact was first answered on: its memory card's introduction.
    introduced = (
        select(ReviewLog.fact_key, func.min(ReviewLog.study_day).label("day"))
        .where(ReviewLog.student_id == student_id)
        .group_by(ReviewLog.fact_key)
        .subquery()
    )
    answers = (
        select(
            _week_index(ReviewLog.study_day).label("week"),
            ReviewLog.correct.label("correct"),
            (ReviewLog.study_day > introduced.c.day).label("later"),
        )
        .join(introduced, introduced.c.fact_key == ReviewLog.fact_key)
        .where(
            ReviewLog.student_id == student_id,
            ReviewLog.study_day >= first,
            ReviewLog.study_day <= today,
        )
        .subquery()
    )
    return select(
        answers.c.week,
        func.count(),
        _count_if(answers.c.correct),
        _count_if(answers.c.later),
        _count_if(and_(answers.c.later, answers.c.correct)),
    ).group_by(answers.c.week)


def weekly_accuracy(student_id: int, today: dt.date, weeks: int = 26) -> list[WeekAccuracy]:
    """The student's answers in each of the ``weeks`` weeks (Monday to Sunday, by study day) up to
    the one holding ``today``, oldest first, zeros included.

    Right means right or nearly right (the review log's ``correct``). The recall answers are
    those about a fact first answered on an earlier study day (true retention: not the same
    day's learning steps); recalled are those right.
    """
    first = _monday(today) - dt.timedelta(weeks=weeks - 1)
    found = {
        week: rest for week, *rest in db.session.execute(_weekly_sql(student_id, first, today))
    }
    out = []
    for n in range(weeks):
        start = first + dt.timedelta(weeks=n)
        answered, right, recall_answers, recalled = found.get(
            (start.toordinal() - 1) // 7, (0, 0, 0, 0)
        )
        out.append(WeekAccuracy(start, answered, right, recall_answers, recalled))
    return out


def _results(model: Any, won: str, lost: str, drawn: str) -> tuple[ColumnElement[int], ...]:
    return (
        func.sum(case((model.result == won, 1), else_=0)),
        func.sum(case((model.result == lost, 1), else_=0)),
        func.sum(case((model.result == drawn, 1), else_=0)),
    )


def _game_tables() -> tuple[Records | None, list[Records]]:
    """The tables of the games the student's dashboard counts, each once, from the modes' web
    adapters: the card games' (one table for all, kind 0), and the others in the registry's
    order (kinds 1, 2, ...)."""
    by_game: Records | None = None
    others: list[Records] = []
    for found in adapters():
        records = found.records
        if records is None:
            continue
        if records.by_game:
            by_game = by_game or records
        elif all(other.model is not records.model for other in others):
            others.append(records)
    return by_game, others


def _not_with_classmates(model: Any) -> ColumnElement[bool]:
    """The rows of ``model`` that are no seat's own round or side at a live table: a race or duel
    with a classmate (L-R1, L-D1, L-Q5; a tournament's game on the devices, P-K8) is stored as a
    round of its mode, at the table's level, but no computer played it (L-T14). A seat points at
    its round by a foreign key (``LiveSeat.round_id`` ...), so every such column is found here,
    and a round a future live game deals is left out by itself."""
    seat_columns = [
        column
        for column in LiveSeat.__table__.columns
        if any(key.column.table is model.__table__ for key in column.foreign_keys)
    ]
    return and_(
        true(),
        *(model.id.not_in(select(column).where(column.is_not(None))) for column in seat_columns),
    )


def _games_sql(student_id: int) -> Any:
    by_game, others = _game_tables()
    parts = []
    if by_game is not None:
        model = by_game.model
        results = (Result.WON, Result.LOST, by_game.drawn)
        parts.append(
            select(
                literal_column("0").label("kind"),
                model.game.label("game"),
                model.level.label("level"),
                *_results(model, *results),
            )
            .where(
                model.student_id == student_id,
                model.result.in_(results),
                _not_with_classmates(model),
            )
            .group_by(model.game, model.level)
        )
    for kind, records in enumerate(others, start=1):
        model = records.model
        results = (Result.WON, Result.LOST, records.drawn)
        parts.append(
            select(
                literal_column(str(kind)),
                literal_column("''"),
                model.level,
                *_results(model, *results),
            )
            .where(
                model.student_id == student_id,
                model.result.in_(results),
                model.level != PRACTICE,
                _not_with_classmates(model),
            )
            .group_by(model.level)
        )
    return union_all(*parts)


def _game_names() -> dict[int, str]:
    """The name of each kind of :func:`_games_sql` but the card games (kind 0, named by game)."""
    return {kind: records.name for kind, records in enumerate(_game_tables()[1], start=1)}


def _level_order(level: str) -> tuple[int, str]:
    order = [lvl.value for lvl in Level]
    return (order.index(level), "") if level in order else (len(order), level)


def game_records(student_id: int) -> list[GameRecord]:
    """The student's finished games against the computer, by game and level: the card games (by
    their titles, drills included), State IQ, the Dashing States and Border-Up races (not
    practice), and whole Combo 1 matches (each of their games counts under its own mode too).
    A tie counts as drawn. Games in the games page's order, levels easy to hard. The races and
    duels with a classmate are not among them (L-T14: :func:`classmates_records` counts them)."""
    slugs = list(REGISTRY.games)
    rows = db.session.execute(_games_sql(student_id)).all()
    names = _game_names()

    def order(row: AnyRow) -> tuple[Any, ...]:
        kind, slug, level = row[0], row[1], row[2]
        within = slugs.index(slug) if slug in slugs else len(slugs)
        return (int(kind), within, slug, *_level_order(level))

    out = []
    for kind, slug, level, won, lost, drawn in sorted(rows, key=order):
        name = names.get(int(kind)) or (REGISTRY[slug].title if slug in REGISTRY else slug)
        out.append(GameRecord(name, level, int(won), int(lost), int(drawn)))
    return out


def _bests_sql(student_id: int) -> Any:
    parts = []
    for kind, records in enumerate(_game_tables()[1], start=1):
        if not records.bests:
            continue
        model = records.model
        parts.append(
            select(literal_column(str(kind)).label("kind"), model.level, func.min(model.seconds))
            .where(
                model.student_id == student_id,
                model.seconds.is_not(None),
                model.level != PRACTICE,
                _not_with_classmates(model),
            )
            .group_by(model.level)
        )
    return union_all(*parts)


def personal_bests(student_id: int) -> list[PersonalBest]:
    """The student's fastest successful call at each race level of the timed modes (Dashing
    States and Border-Up; a round's ``seconds`` is kept only for a successful call; practice is
    no race), against the computer: a race with a classmate is no best time at a level (L-T14)."""
    rows = list(db.session.execute(_bests_sql(student_id)).all())
    rows.sort(key=lambda row: (int(row[0]), *_level_order(row[1])))
    names = _game_names()
    return [PersonalBest(names[int(kind)], level, float(seconds)) for kind, level, seconds in rows]


def _classmates_sql(student_id: int) -> AnySelect:
    # A seat has a result only once its game ended with one (L-T12, L-T13: none for a game given up).
    return (
        select(
            LiveTable.game,
            func.count(),
            _count_if(LiveSeat.result == Result.WON),
            _count_if(LiveSeat.result == Result.DRAWN),
        )
        .join(LiveTable, LiveTable.id == LiveSeat.table_id)
        .where(
            LiveSeat.user_id == student_id,
            LiveSeat.result.in_((Result.WON, Result.LOST, Result.DRAWN)),
        )
        .group_by(LiveTable.game)
    )


def classmates_records(student_id: int) -> list[ClassmatesRecord]:
    """The student's finished games with classmates, by game (L-T14): every live table they sat at
    to its end, a race, a duel, a card game (computer seats or not) or a tournament's game on the
    devices (P-K8), from their seat's result. A tie counts as drawn. The races and duels first, then
    the card games in the games page's order."""
    order = [*DUELS, *REGISTRY.games]
    rows = sorted(
        db.session.execute(_classmates_sql(student_id)).all(),
        key=lambda row: (order.index(row[0]) if row[0] in order else len(order), row[0]),
    )

    def name(slug: str) -> str:
        if slug in DUELS:
            return DUELS[slug].title
        return REGISTRY[slug].title if slug in REGISTRY else slug

    return [
        ClassmatesRecord(name(game), int(played), int(won), int(drawn))
        for game, played, won, drawn in rows
    ]


# --- The mastery map (a student's, or a class's) --------------------------------------------------


def _state_recall_sql(student_ids: Collection[int], at: dt.datetime) -> AnySelect:
    cards = select(
        _postal(MemoryCard.fact_key).label("postal"),
        _card_recall(student_ids, at).label("recall"),
    ).where(MemoryCard.student_id.in_(list(student_ids)))
    cards = _fenced(cards)
    return select(cards.c.postal, func.avg(cards.c.recall), func.count()).group_by(cards.c.postal)


def state_recall(student_ids: Collection[int], at: dt.datetime) -> list[StateRecall]:
    """Each of the 50 states (by name): the mean predicted recall at ``at`` of its facts the
    students have started, and how many student-facts that is (None and 0: none started)."""
    found = {
        postal: (mean, count)
        for postal, mean, count in db.session.execute(_state_recall_sql(student_ids, at))
    }
    out = []
    for state in get_deck().sorted_by(None):
        mean, count = found.get(state.postal, (None, 0))
        out.append(
            StateRecall(state.postal, state.name, None if mean is None else float(mean), count)
        )
    return out


def _state_facts_sql(student_id: int, postal: str, at: dt.datetime) -> AnySelect:
    return select(MemoryCard.facet, _card_recall([student_id], at), MemoryCard.lapses).where(
        MemoryCard.student_id == student_id,
        MemoryCard.fact_key.in_([Fact(postal, f).key for f in Facet]),
    )


def state_facts(
    student_id: int, postal: str, at: dt.datetime
) -> list[tuple[Facet, float | None, int]]:
    """One state's 8 facts for the student, in :class:`Facet` order: predicted recall at ``at``
    (None: not started) and lapses."""
    found = {
        facet: (recall, lapses)
        for facet, recall, lapses in db.session.execute(_state_facts_sql(student_id, postal, at))
    }
    out: list[tuple[Facet, float | None, int]] = []
    for facet in Facet:
        recall, lapses = found.get(facet.value, (None, 0))
        out.append((facet, None if recall is None else float(recall), int(lapses)))
    return out


# --- A class ---------------------------------------------------------------------------------------


def _cells_sql(student_ids: Collection[int], at: dt.datetime, target: float) -> AnySelect:
    cards = select(
        MemoryCard.fact_key.label("fact_key"),
        _card_recall(student_ids, at).label("recall"),
    ).where(MemoryCard.student_id.in_(list(student_ids)))
    cards = _fenced(cards)
    return select(
        cards.c.fact_key,
        func.avg(cards.c.recall),
        func.count(),
        _count_if(cards.c.recall >= target),
    ).group_by(cards.c.fact_key)


def class_cells(student_ids: Collection[int], at: dt.datetime, target: float) -> list[CellRecall]:
    """Every state x facet cell of a class (states by name, then facets in order): the mean
    predicted recall at ``at`` over the students who started the fact, how many did, and the
    share of all ``student_ids`` at or above ``target`` (not started counts below)."""
    found = {
        key: (mean, count, at_target)
        for key, mean, count, at_target in db.session.execute(_cells_sql(student_ids, at, target))
    }
    size = len(set(student_ids))
    out = []
    for state in get_deck().sorted_by(None):
        for facet in Facet:
            mean, count, at_target = found.get(Fact(state.postal, facet).key, (None, 0, 0))
            share = at_target / size if size else 0.0
            out.append(
                CellRecall(
                    state.postal,
                    state.name,
                    facet,
                    None if mean is None else float(mean),
                    share,
                    count,
                )
            )
    return out


def class_map(cells: Sequence[CellRecall]) -> list[StateRecall]:
    """A class's mastery map from its cells (:func:`class_cells`), with no query: each state's
    mean predicted recall over the student-facts started, as :func:`state_recall` gives it."""
    states: dict[str, tuple[str, float, int]] = {}
    for cell in cells:
        name, total, count = states.get(cell.postal, (cell.name, 0.0, 0))
        if cell.started and cell.mean_recall is not None:
            total, count = total + cell.mean_recall * cell.started, count + cell.started
        states[cell.postal] = (name, total, count)
    return [
        StateRecall(postal, name, total / count if count else None, count)
        for postal, (name, total, count) in states.items()
    ]


def _confused_sql(student_ids: Collection[int], limit: int) -> AnySelect:
    # The total is a window over every pair, computed before LIMIT keeps the most frequent.
    wrong = (
        select(
            _postal(ReviewLog.fact_key).label("asked"), ReviewLog.answered_postal.label("answered")
        )
        .where(
            ReviewLog.student_id.in_(list(student_ids)),
            ReviewLog.correct == false(),
            ReviewLog.answered_postal.is_not(None),
            ReviewLog.answered_postal != _postal(ReviewLog.fact_key),
        )
        .subquery()
    )
    count = func.count().label("n")
    return (
        select(wrong.c.asked, wrong.c.answered, count, func.sum(count).over().label("total"))
        .group_by(wrong.c.asked, wrong.c.answered)
        .order_by(count.desc(), wrong.c.asked, wrong.c.answered)
        .limit(limit)
    )


def confused_pairs(student_ids: Collection[int], limit: int = 10) -> Confusions:
    """The class's most frequent confusions: wrong answers that named another state than the one
    asked ("Vermont for New Hampshire"), most frequent first (then by postal codes), and how many
    such wrong answers there are in all (the chart's sentence says what share the pairs shown are)."""
    deck = get_deck()

    def name(postal: str) -> str:
        state = deck.get(postal)
        return state.name if state is not None else postal

    rows = db.session.execute(_confused_sql(student_ids, limit)).all()
    pairs = tuple(
        ConfusedPair(asked, name(asked), answered, name(answered), count)
        for asked, answered, count, _total in rows
    )
    return Confusions(pairs, int(rows[0][3]) if rows else 0)


def _risk_sql(
    student_ids: Collection[int], at: dt.datetime, target: float, fact_keys: Collection[str] | None
) -> AnySelect:
    cards = select(
        MemoryCard.student_id.label("student_id"),
        _card_recall(student_ids, at).label("recall"),
    ).where(MemoryCard.student_id.in_(list(student_ids)))
    if fact_keys is not None:
        cards = cards.where(MemoryCard.fact_key.in_(sorted(fact_keys)))
    per_card = _fenced(cards)
    per_student = (
        select(
            per_card.c.student_id,
            func.sum(per_card.c.recall).label("total"),
            func.count().label("started"),
            _count_if(per_card.c.recall < target).label("below"),
        )
        .group_by(per_card.c.student_id)
        .subquery()
    )
    total = func.coalesce(per_student.c.total, 0.0)
    return (
        select(
            User.id,
            User.username,
            total,
            func.coalesce(per_student.c.started, 0),
            func.coalesce(per_student.c.below, 0),
        )
        .outerjoin(per_student, per_student.c.student_id == User.id)
        .where(User.id.in_(list(student_ids)))
        .order_by(total, User.username_key, User.id)
    )


def students_at_risk(
    student_ids: Collection[int],
    at: dt.datetime,
    target: float,
    fact_keys: Collection[str] | None = None,
) -> list[StudentRisk]:
    """Each student's mean predicted recall at ``at`` (a test date) over every fact (or over
    ``fact_keys``), facts never started counting as 0, and how many facts are below ``target``
    then; the weakest first (then by username)."""
    facts = ALL_FACTS if fact_keys is None else len(set(fact_keys))
    out = []
    for student_id, username, total, started, below in db.session.execute(
        _risk_sql(student_ids, at, target, fact_keys)
    ):
        unstarted_below = facts - started if target > 0 else 0
        mean = float(total) / facts if facts else 0.0
        out.append(StudentRisk(student_id, username, mean, int(below) + unstarted_below, facts))
    return out


def _overview_sql(
    student_ids: Collection[int], at: dt.datetime, target: float, dialect: str
) -> Any:
    cards = select(
        MemoryCard.student_id.label("student_id"),
        MemoryCard.fact_key.label("fact_key"),
        _card_recall(student_ids, at).label("recall"),
    ).where(MemoryCard.student_id.in_(list(student_ids)))

    def sums(rows: Any) -> tuple[Any, ...]:
        return (
            func.sum(rows.c.recall),
            func.count(),
            _count_if(rows.c.recall >= target),
            _count_if(rows.c.recall < target),
        )

    if dialect == "postgresql":
        # One scan, two hash aggregates: by fact, and by student.
        fenced = _fenced(cards)
        return select(fenced.c.fact_key, fenced.c.student_id, *sums(fenced)).group_by(
            func.grouping_sets(tuple_(fenced.c.fact_key), tuple_(fenced.c.student_id))
        )
    # SQLite has no grouping sets: the recall is computed once into a table both groupings read.
    computed = cards.cte("cards").prefix_with("MATERIALIZED")
    by_fact = select(computed.c.fact_key, null(), *sums(computed)).group_by(computed.c.fact_key)
    by_student = select(null(), computed.c.student_id, *sums(computed)).group_by(
        computed.c.student_id
    )
    return union_all(by_fact, by_student)


def _usernames_sql(student_ids: Collection[int]) -> AnySelect:
    return (
        select(User.id, User.username)
        .where(User.id.in_(list(student_ids)))
        .order_by(User.username_key, User.id)
    )


def class_overview(
    student_ids: Collection[int], at: dt.datetime, target: float
) -> tuple[list[CellRecall], list[StateRecall], list[StudentRisk]]:
    """:func:`class_cells`, the class map (:func:`state_recall`) and :func:`students_at_risk` at
    one time ``at``, from one pass over the class's memory cards: the class dashboard's numbers
    with each fact's recall computed once."""
    rows = db.session.execute(_overview_sql(student_ids, at, target, db.engine.dialect.name)).all()
    names = db.session.execute(_usernames_sql(student_ids)).all()
    by_fact = {
        key: (total, count, above)
        for key, sid, total, count, above, _below in rows
        if key is not None
    }
    by_student = {
        sid: (total, count, below)
        for key, sid, total, count, _above, below in rows
        if key is None and sid is not None
    }
    size = len(names)
    cells = []
    for state in get_deck().sorted_by(None):
        for facet in Facet:
            total, count, above = by_fact.get(Fact(state.postal, facet).key, (None, 0, 0))
            mean = None if total is None or not count else float(total) / count
            cells.append(
                CellRecall(
                    state.postal, state.name, facet, mean, above / size if size else 0.0, count
                )
            )
    risks = []
    for student_id, username in names:
        total, count, below = by_student.get(student_id, (0.0, 0, 0))
        unstarted_below = ALL_FACTS - count if target > 0 else 0
        risks.append(
            StudentRisk(
                student_id,
                username,
                float(total) / ALL_FACTS,
                int(below) + unstarted_below,
                ALL_FACTS,
            )
        )
    risks.sort(key=lambda risk: risk.mean_recall)  # stable: ties stay by username
    return cells, class_map(cells), risks


def _reviews_completion_sql(
    assignment: Assignment, student_ids: Collection[int], now: dt.datetime
) -> AnySelect:
    """(student_id, at): when each student gave the assignment's number of answers in its scope
    (the ``quantity``-th answer from the start to ``now``), for the students who have."""
    ranked = (
        select(
            ReviewLog.student_id.label("student_id"),
            ReviewLog.reviewed_at.label("at"),
            func.row_number()
            .over(partition_by=ReviewLog.student_id, order_by=(ReviewLog.reviewed_at, ReviewLog.id))
            .label("n"),
        )
        .where(
            ReviewLog.student_id.in_(list(student_ids)),
            ReviewLog.reviewed_at >= assignment.starts_at,
            ReviewLog.reviewed_at <= now,
            scope_clause(assignment),
        )
        .subquery()
    )
    return select(ranked.c.student_id, ranked.c.at).where(ranked.c.n == (assignment.quantity or 1))


def _goal_met_sql(
    assignment: Assignment, student_ids: Collection[int], now: dt.datetime
) -> list[AnySelect]:
    """(student_id, facts at the target): a recall goal's facts predicted at its target on the due
    date, from the reviews up to the due date (or now, before it); after the due date, a second
    statement counts the facts at the target now, from every review (a goal reached late, P-A3)."""
    facts = goal_facts(assignment)
    ids = list(student_ids)
    target = assignment.target or 0.9
    due = assignment.due_at

    def per_student(rows: Any) -> AnySelect:
        met = case((rows.c.recall >= target, rows.c.fact_key))
        return select(rows.c.student_id, func.count(func.distinct(met))).group_by(rows.c.student_id)

    def cards_at(at: dt.datetime, cutoff: dt.datetime) -> AnySelect:
        cards = select(
            MemoryCard.student_id.label("student_id"),
            MemoryCard.fact_key.label("fact_key"),
            _card_recall(ids, at).label("recall"),
        ).where(
            MemoryCard.student_id.in_(ids),
            MemoryCard.fact_key.in_(facts),
            MemoryCard.last_review <= cutoff,
        )
        return per_student(_fenced(cards))

    if now < due:
        return [cards_at(due, now)]
    last = (
        select(
            ReviewLog.student_id, ReviewLog.fact_key, func.max(ReviewLog.reviewed_at).label("at")
        )
        .where(
            ReviewLog.student_id.in_(ids),
            ReviewLog.fact_key.in_(facts),
            ReviewLog.reviewed_at <= due,
        )
        .group_by(ReviewLog.student_id, ReviewLog.fact_key)
        .subquery()
    )
    by_due = select(
        last.c.student_id.label("student_id"),
        last.c.fact_key.label("fact_key"),
        recall_expr(
            ReviewLog.stability_after, ReviewLog.study_day, last.c.student_id, ids, due
        ).label("recall"),
    ).join(
        ReviewLog,
        and_(
            ReviewLog.student_id == last.c.student_id,
            ReviewLog.fact_key == last.c.fact_key,
            ReviewLog.reviewed_at == last.c.at,
        ),
    )
    return [per_student(_fenced(by_due)), cards_at(now, now)]


def completion_statements(
    assignment: Assignment, student_ids: Collection[int], now: dt.datetime
) -> list[Any]:
    """The statements :func:`completion_over_time` runs for an assignment of answers or a recall
    goal; none for rounds, whose finishing times :func:`~trainer.web.progress.progress` reads."""
    if not student_ids:
        return []
    amount = Amount(assignment.amount)
    if amount is Amount.REVIEWS:
        return [_reviews_completion_sql(assignment, student_ids, now)]
    if amount is Amount.RECALL:
        return _goal_met_sql(assignment, student_ids, now)
    return []


def completion_over_time(
    assignments: Iterable[Assignment], student_ids: Collection[int], now: dt.datetime
) -> list[CompletionPoint]:
    """For each assignment under way or past, how many of its students (among ``student_ids``)
    had finished it by the end of each day (days in the time zone its dates were chosen in): the
    class page's "finished" (done, or done late) as it stood then, so the last point is the
    number the class page shows now.

    Rounds and answers count a student from the moment the amount was reached, late ones too
    (P-A4): a line runs from the start day to the due day (or today, before it), and on to the
    last late finish. A recall goal is judged on its due day (P-A3) and has no such moment: before
    that day it has one point, today, with nobody finished and the students on track counted
    apart; after it, a point on the due day (done) and, when some reached it later, one today
    (done and done late). The numbers are :func:`~trainer.web.progress.progress`'s, counted by
    the database for answers and goals.
    """
    ids = set(student_ids)
    out: list[CompletionPoint] = []
    for assignment in assignments:
        assigned = [sid for sid in assigned_students(assignment) if sid in ids]
        first, due_on = local_dates(assignment.starts_at, assignment.due_at, assignment.time_zone)
        today = now.astimezone(ZoneInfo(assignment.time_zone)).date()
        if today < first:
            continue
        if Amount(assignment.amount) is Amount.RECALL:
            out += _goal_points(assignment, assigned, now, today, due_on)
        else:
            out += _amount_points(assignment, assigned, now, first, today, due_on)
    return out


def _goal_points(
    assignment: Assignment, assigned: list[int], now: dt.datetime, today: dt.date, due_on: dt.date
) -> list[CompletionPoint]:
    """A recall goal's points (see :func:`completion_over_time`): its statements give the students
    at the goal on the due date from the reviews so far (or by the due date), then, after it, those
    at the goal now."""
    needed = len(goal_facts(assignment))
    met = [
        {sid for sid, count in db.session.execute(statement) if count >= needed}
        for statement in completion_statements(assignment, assigned, now)
    ]
    if not needed:  # a goal over no fact is met by everyone
        met = [set(assigned), set(assigned)]
    size, title = len(assigned), assignment.title
    if now < assignment.due_at:
        return [CompletionPoint(title, today, 0, size, 0, len(met[0]), due_on)]
    on_time, late = met[0], met[1] - met[0]
    points = [CompletionPoint(title, due_on, len(on_time), size, 0, None, due_on)]
    if late:
        points.append(
            CompletionPoint(title, today, len(on_time) + len(late), size, len(late), None, due_on)
        )
    return points


def _amount_points(
    assignment: Assignment,
    assigned: list[int],
    now: dt.datetime,
    first: dt.date,
    today: dt.date,
    due_on: dt.date,
) -> list[CompletionPoint]:
    """An amount of rounds or answers: a point a day (see :func:`completion_over_time`)."""
    tz = ZoneInfo(assignment.time_zone)
    if Amount(assignment.amount) is Amount.REVIEWS:
        completed = [
            at
            for statement in completion_statements(assignment, assigned, now)
            for _sid, at in db.session.execute(statement)
        ]
    else:
        found = progress(assignment, assigned, now)
        completed = [p.completed_at for p in found.values() if p.completed_at is not None]
    last = min(today, due_on)
    if completed:
        last = max(last, min(today, max(completed).astimezone(tz).date()))
    points = []
    day = first
    while day <= last:
        end = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0), tzinfo=tz).astimezone(
            _UTC
        )
        by_then = [t for t in completed if t < end]
        late = sum(1 for t in by_then if t >= assignment.due_at)
        points.append(
            CompletionPoint(assignment.title, day, len(by_then), len(assigned), late, None, due_on)
        )
        day += dt.timedelta(days=1)
    return points


# --- The class page (issue 24) ---------------------------------------------------------------------


def _mean_recall_sql(student_ids: Collection[int], at: dt.datetime) -> AnySelect:
    cards = select(
        MemoryCard.student_id.label("student_id"), _card_recall(student_ids, at).label("recall")
    ).where(MemoryCard.student_id.in_(list(student_ids)), MemoryCard.last_review.is_not(None))
    fenced = _fenced(cards)
    return select(fenced.c.student_id, func.sum(fenced.c.recall), func.count()).group_by(
        fenced.c.student_id
    )


def mean_recall(student_ids: Collection[int], at: dt.datetime) -> dict[int, tuple[float, int]]:
    """Each student's mean predicted recall at ``at`` over the facts they have started, and how
    many those are (students with a reviewed memory card only): "who needs help" on the class page."""
    if not student_ids:
        return {}
    return {
        sid: (float(total) / count, int(count))
        for sid, total, count in db.session.execute(_mean_recall_sql(student_ids, at))
        if count
    }


def _goal_sql(
    assignment: Assignment, facts: list[str], student_ids: Collection[int], now: dt.datetime
) -> list[AnySelect]:
    """(student_id, facts at the target, started since the goal opened): before the due date, the
    facts predicted at the target on the due date from the reviews so far; after it, those at the
    target by the due date, then (a second statement) those at the target now (P-A3)."""
    ids = list(student_ids)
    target = assignment.target or 0.9
    started = case((MemoryCard.last_review >= assignment.starts_at, 1), else_=0)

    def cards_at(at: dt.datetime, cutoff: dt.datetime) -> AnySelect:
        cards = select(
            MemoryCard.student_id.label("student_id"),
            MemoryCard.fact_key.label("fact_key"),
            case((MemoryCard.last_review <= cutoff, _card_recall(ids, at)), else_=0.0).label(
                "recall"
            ),
            started.label("started"),
        ).where(
            MemoryCard.student_id.in_(ids),
            MemoryCard.fact_key.in_(facts),
            MemoryCard.last_review.is_not(None),
        )
        rows = _fenced(cards)
        met = case((rows.c.recall >= target, rows.c.fact_key))
        return select(
            rows.c.student_id, func.count(func.distinct(met)), func.sum(rows.c.started)
        ).group_by(rows.c.student_id)

    if now < assignment.due_at:
        return [cards_at(assignment.due_at, now)]
    on_time = _goal_met_sql(assignment, ids, now)[0]
    return [on_time.add_columns(literal(0)), cards_at(now, now)]


def goal_progress(
    assignment: Assignment, student_ids: Collection[int], now: dt.datetime
) -> dict[int, Progress]:
    """Each student's progress on a recall goal, as :func:`~trainer.web.progress.progress` gives it
    but counted by the database (one or two grouped statements, for the class page): the same
    status and counts, without the weakest facts (the assignment's own page names them)."""
    facts = goal_facts(assignment)
    if not facts or not student_ids:
        return {
            sid: replace(found, weakest=())
            for sid, found in progress(assignment, student_ids, now).items()
        }
    needed = len(facts)
    counts = [
        {sid: (int(met), bool(started)) for sid, met, started in db.session.execute(statement)}
        for statement in _goal_sql(assignment, facts, student_ids, now)
    ]
    out = {}
    for sid in student_ids:
        met, started = counts[0].get(sid, (0, False))
        if now < assignment.due_at:
            if now < assignment.starts_at:
                status = Status.UPCOMING
            elif met == needed:
                status = Status.ON_TRACK
            elif started:
                status = Status.IN_PROGRESS
            else:
                status = Status.NOT_STARTED
            out[sid] = Progress(status, met, needed)
            continue
        late_met = counts[1].get(sid, (0, False))[0]
        if met == needed:
            out[sid] = Progress(Status.DONE, met, needed)
        elif late_met == needed:
            out[sid] = Progress(Status.DONE_LATE, late_met, needed, late_met - met)
        else:
            out[sid] = Progress(Status.OVERDUE, met, needed)
    return out


def answers_progress(
    assignment: Assignment, student_ids: Collection[int], now: dt.datetime
) -> dict[int, Progress]:
    """Each student's progress on an assignment of answers, as :func:`~trainer.web.progress.progress`
    gives it (:func:`trainer.assignments.count_progress`), counted by the database: the answers
    in scope from the start to ``now``, those from the due date on (late), and when the amount
    was reached."""
    ids = list(student_ids)
    if not ids:
        return {}
    counts = {
        sid: (int(count), int(late))
        for sid, count, late in db.session.execute(
            select(
                ReviewLog.student_id,
                func.count(),
                _count_if(ReviewLog.reviewed_at >= assignment.due_at),
            )
            .where(
                ReviewLog.student_id.in_(ids),
                ReviewLog.reviewed_at >= assignment.starts_at,
                ReviewLog.reviewed_at <= now,
                scope_clause(assignment),
            )
            .group_by(ReviewLog.student_id)
        )
    }
    needed = assignment.quantity or 1
    # When each student who reached the amount gave its last answer: the needed-th in time, read
    # in the review log's (student_id, reviewed_at) index order, one student at a time.
    nth = (
        select(ReviewLog.reviewed_at)
        .where(
            ReviewLog.student_id == User.id,
            ReviewLog.reviewed_at >= assignment.starts_at,
            ReviewLog.reviewed_at <= now,
            scope_clause(assignment),
        )
        .order_by(ReviewLog.reviewed_at)
        .limit(1)
        .offset(needed - 1)
        .scalar_subquery()
    )
    reached = [sid for sid, (count, _late) in counts.items() if count >= needed]
    completed = (
        {
            sid: at
            for sid, at in db.session.execute(select(User.id, nth).where(User.id.in_(reached)))
        }
        if reached
        else {}
    )
    out = {}
    for sid in ids:
        count, late = counts.get(sid, (0, 0))
        completed_at = completed.get(sid)
        if completed_at is not None:
            status = Status.DONE if completed_at < assignment.due_at else Status.DONE_LATE
        elif now < assignment.starts_at:
            status = Status.UPCOMING
        elif now >= assignment.due_at:
            status = Status.OVERDUE
        elif count:
            status = Status.IN_PROGRESS
        else:
            status = Status.NOT_STARTED
        out[sid] = Progress(status, count, needed, late, completed_at)
    return out


# --- The bare queries, for the benchmark ------------------------------------------------------------


def student_statements(student_id: int, now: dt.datetime, time_zone: str) -> list[Any]:
    """The statements of a student's dashboard, as :func:`facet_counts`, :func:`forecast`,
    :func:`review_calendar`, :func:`weekly_accuracy`, :func:`game_records`,
    :func:`personal_bests`, :func:`classmates_records` and :func:`state_recall` (the student's map)
    run them."""
    today = srs.study_day(now, time_zone).date
    ends = [d.end for d in _study_days(now, time_zone, 30)]
    return [
        _facet_counts_sql(student_id),
        _forecast_sql(student_id, ends),
        _calendar_sql(student_id, today - dt.timedelta(days=364), today),
        _weekly_sql(student_id, _monday(today) - dt.timedelta(weeks=25), today),
        _games_sql(student_id),
        _bests_sql(student_id),
        _classmates_sql(student_id),
        _state_recall_sql([student_id], now),
    ]


def teacher_statements(student_ids: Collection[int], at: dt.datetime, target: float) -> list[Any]:
    """The statements of a class dashboard, as :func:`class_overview` (cells, class map and
    students at risk) and :func:`confused_pairs` run them."""
    return [
        _overview_sql(student_ids, at, target, db.engine.dialect.name),
        _usernames_sql(student_ids),
        _confused_sql(student_ids, 10),
    ]


def raw_student_queries(student_id: int, now: dt.datetime, time_zone: str) -> list[list[AnyRow]]:
    """Run a student dashboard's statements and fetch their rows, nothing more (the benchmark's floor)."""
    return [
        list(db.session.execute(statement).all())
        for statement in student_statements(student_id, now, time_zone)
    ]


def raw_teacher_queries(
    student_ids: Collection[int],
    at: dt.datetime,
    target: float,
    assignments: Iterable[Assignment] = (),
    now: dt.datetime | None = None,
) -> list[list[Any]]:
    """Run a class dashboard's statements and fetch their rows, nothing more (the benchmark's
    floor): the overview and confused pairs, and for each assignment its students and the rows
    its completion is counted from (:func:`completion_statements`; for rounds, the finished
    rounds as :func:`~trainer.web.progress.finished_rounds` fetches them)."""
    rows: list[list[Any]] = [
        list(db.session.execute(statement).all())
        for statement in teacher_statements(student_ids, at, target)
    ]
    ids = set(student_ids)
    for assignment in assignments:
        assigned = [sid for sid in assigned_students(assignment) if sid in ids]
        if Amount(assignment.amount) is Amount.ROUNDS:
            rows.append(finished_rounds(activities_of(assignment), assigned, assignment.starts_at))
        rows += [
            list(db.session.execute(statement).all())
            for statement in completion_statements(assignment, assigned, now or at)
        ]
    return rows
