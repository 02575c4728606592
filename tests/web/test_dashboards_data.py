"""The dashboards' numbers (trainer/web/dashboards.py), from a small fixed history.

Each expected number is worked out by hand from the answers recorded here, and every predicted
recall from the stored memory cards with ``srs.recall``: the SQL aggregates must agree with them.
The ``app`` fixture runs these on SQLite, and on PostgreSQL where TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import datetime as dt
import random
from statistics import fmean

import pytest
from flask import Flask
from sqlalchemy import insert, select, update

from trainer import srs
from trainer.assignments import Status, local_dates
from trainer.dashboard_data import (
    CellRecall,
    CompletionPoint,
    ConfusedPair,
    Confusions,
    DayCount,
    FacetCounts,
    GameRecord,
    PersonalBest,
    StudentRisk,
    WeekAccuracy,
)
from trainer.facts import Facet, Form, Verdict
from trainer.web import dashboards, get_deck
from trainer.web.extensions import db
from trainer.web.memory import record
from trainer.web.models import (
    Assignment,
    BorderUpRound,
    CardGame,
    ClassMembership,
    ComboMatch,
    DashingRound,
    MemoryCard,
    Role,
    SchoolClass,
    StateIqGame,
    User,
)

UTC = dt.UTC
#: "Now" for most tests: Thursday 7 March 2024, 15:00 UTC (study day 7 March in UTC).
NOW = dt.datetime(2024, 3, 7, 15, 0, tzinfo=UTC)
TODAY = dt.date(2024, 3, 7)


# --- Factories -----------------------------------------------------------------------------------


def new_user(name: str, time_zone: str | None = None, role: Role = Role.STUDENT) -> int:
    user = User(
        username=name,
        username_key=User.key_for(name),
        role=role,
        time_zone=time_zone,
        password_hash="x",
    )
    db.session.add(user)
    db.session.commit()
    return user.id


def answer(
    student_id: int,
    fact_key: str,
    at: dt.datetime,
    verdict: Verdict = Verdict.RIGHT,
    answered: str | None = None,
    mode: str = "review",
) -> None:
    """One answer at ``at``, recorded through the memory model as every mode does."""
    student = db.session.get(User, student_id)
    outcome = srs.Outcome(
        fact_key,
        verdict,
        mode,
        Form.TYPED,
        f"{mode}:t{student_id}",
        f"{fact_key}@{at:%y%m%d%H%M%S}",
        answer="x",
        answered_postal=answered,
    )
    record(student, outcome, now=at)


def add_card(
    student_id: int,
    fact_key: str,
    *,
    stability: float | None = 5.0,
    last_review: dt.datetime | None = NOW - dt.timedelta(days=2),
    lapses: int = 0,
    due: dt.datetime = NOW + dt.timedelta(days=3),
    facet: str | None = None,
) -> None:
    """A memory card written directly, with exactly the columns a test needs (its last review's
    study day in the student's zone, as memory._write writes it)."""
    db.session.execute(
        insert(MemoryCard),
        [
            card_row(
                student_id,
                fact_key,
                zone_of(student_id),
                stability=stability,
                last_review=last_review,
                lapses=lapses,
                due=due,
                facet=facet,
            )
        ],
    )
    db.session.commit()


def card_row(
    student_id: int,
    fact_key: str,
    zone: str,
    *,
    stability: float | None = 5.0,
    last_review: dt.datetime | None = NOW - dt.timedelta(days=2),
    lapses: int = 0,
    due: dt.datetime = NOW + dt.timedelta(days=3),
    facet: str | None = None,
) -> dict[str, object]:
    """The columns :func:`add_card` writes, for a student in ``zone``; many cards are written
    in one statement and one commit with them (a commit per card is most of a big test's time)."""
    return {
        "student_id": student_id,
        "fact_key": fact_key,
        "facet": facet or fact_key.partition(":")[2],
        "state": int(srs.MemoryState.REVIEW),
        "step": None,
        "stability": stability,
        "difficulty": 5.0,
        "due": due,
        "last_review": last_review,
        "last_study_day": None if last_review is None else srs.study_day(last_review, zone).date,
        "lapses": lapses,
        "reps": 3,
        "introduced_at": NOW - dt.timedelta(days=30),
    }


def cards_of(student_id: int) -> dict[str, MemoryCard]:
    rows = db.session.execute(
        select(MemoryCard).where(MemoryCard.student_id == student_id)
    ).scalars()
    return {card.fact_key: card for card in rows}


def zone_of(student_id: int) -> str:
    return db.session.get(User, student_id).time_zone or "UTC"


def recall_of(card: MemoryCard, at: dt.datetime) -> float:
    return srs.recall(card.stability, card.last_review, at, zone_of(card.student_id))


def day(month: int, date: int, hour: int = 10, minute: int = 0) -> dt.datetime:
    return dt.datetime(2024, month, date, hour, minute, tzinfo=UTC)


# --- Predicted recall in SQL ---------------------------------------------------------------------


#: Around the clock change of 3 November 2024 in New York (fall back: the study day of 2 November
#: lasts 25 hours) and of 10 March 2024 (spring forward: 23 hours).
_DST_TIMES = [
    dt.datetime(2024, 11, 2, 8, 30, tzinfo=UTC),  # 04:30 EDT, 2 Nov
    dt.datetime(2024, 11, 3, 8, 59, 59, tzinfo=UTC),  # 03:59:59 EST, still the study day of 2 Nov
    dt.datetime(2024, 11, 3, 9, 0, tzinfo=UTC),  # 04:00 EST, 3 Nov
    dt.datetime(
        2024, 3, 10, 7, 59, tzinfo=UTC
    ),  # 03:59 EDT (there is no 2 a.m.), study day of 9 March
    dt.datetime(2024, 3, 10, 8, 0, tzinfo=UTC),  # 04:00 EDT, 10 March
]


def test_recall_expr_equals_srs_recall_on_many_cards(app: Flask) -> None:
    """P-M1: the SQL recall is srs.recall (==), in study days of each student's zone, across day and DST boundaries."""
    rng = random.Random(10)
    ats = [
        dt.datetime(2024, 5, 17, 13, 45, 10, 123456, tzinfo=UTC),
        dt.datetime(2024, 5, 17, 0, 0, tzinfo=UTC),
        dt.datetime(2025, 1, 1, 23, 59, 59, 999999, tzinfo=UTC),
        dt.datetime(2024, 5, 17, 4, 0, tzinfo=UTC),  # the study day's first moment in UTC
        *_DST_TIMES,
    ]
    with app.app_context():
        students = [
            new_user("recall"),
            new_user("recall_ny", "America/New_York"),
            new_user("recall_tokyo", "Asia/Tokyo"),
        ]
        rows: list[tuple[float | None, dt.datetime | None]] = [
            (None, ats[0]),
            (3.0, None),
            (None, None),
        ]
        for at in ats:
            # Exactly whole days before, a microsecond either side, an hour either side of a study
            # day's start, and later than ``at`` (0 days).
            for days in (0, 1, 2, 7, 30, 365):
                for nudge in (
                    dt.timedelta(0),
                    dt.timedelta(microseconds=1),
                    -dt.timedelta(microseconds=1),
                    dt.timedelta(hours=1),
                    -dt.timedelta(hours=1),
                ):
                    rows.append((rng.uniform(0.05, 400), at - dt.timedelta(days=days) + nudge))
            rows.append((2.0, at + dt.timedelta(hours=5)))
            rows.append((2.0, at + dt.timedelta(days=3)))
        rows += [(rng.uniform(0.05, 40), when) for when in _DST_TIMES]
        start = dt.datetime(2023, 1, 1, tzinfo=UTC)
        for _ in range(300):
            when = start + dt.timedelta(seconds=rng.uniform(0, 600 * 86400))
            if rng.random() < 0.3:
                when = when.replace(microsecond=0)
            rows.append(
                (
                    rng.choice([0.01, 0.5, 1.0, 21.0])
                    if rng.random() < 0.1
                    else rng.lognormvariate(2, 2),
                    when,
                )
            )
        # Each student's zone, read once (a read per card is most of the test's time), and the
        # same cards as add_card would write one by one, in one statement.
        zones = {sid: zone_of(sid) for sid in students}
        db.session.execute(
            insert(MemoryCard),
            [
                card_row(
                    sid,
                    f"k{n}",
                    zones[sid],
                    stability=stability,
                    last_review=last_review,
                    facet="map",
                )
                for sid in students
                for n, (stability, last_review) in enumerate(rows)
            ],
        )
        db.session.commit()
        cards = {card.id: card for sid in students for card in cards_of(sid).values()}
        for at in ats:
            found = dict(
                db.session.execute(
                    select(
                        MemoryCard.id,
                        dashboards.recall_expr(
                            MemoryCard.stability,
                            MemoryCard.last_study_day,
                            MemoryCard.student_id,
                            students,
                            at,
                        ),
                    ).where(MemoryCard.student_id.in_(students))
                ).all()
            )
            assert len(found) == len(rows) * len(students)
            # recall_of, with the zone read once per student.
            expected = {
                i: srs.recall(card.stability, card.last_review, at, zones[card.student_id])
                for i, card in cards.items()
            }
            mismatches = [
                (cards[i].stability, cards[i].last_review, v, expected[i])
                for i, v in found.items()
                if v != expected[i]
            ]
            assert mismatches == []
            assert 0.0 in found.values() and 1.0 in found.values()


def test_recall_expr_counts_study_days_not_24_hours(app: Flask) -> None:
    """P-M1: reviewed at 23:00, the recall at 09:00 the next morning is a day's; across New York's
    25-hour fall-back study day it is still the same day's (1.0)."""
    with app.app_context():
        ny = new_user("ny", "America/New_York")
        add_card(
            ny, "CO:map", stability=2.0, last_review=dt.datetime(2024, 5, 17, 3, 0, tzinfo=UTC)
        )  # 23:00 EDT, 16 May
        add_card(ny, "UT:map", stability=2.0, last_review=_DST_TIMES[0])  # 04:30 EDT, 2 Nov

        def sql_recall(key: str, at: dt.datetime) -> float:
            expr = dashboards.recall_expr(
                MemoryCard.stability, MemoryCard.last_study_day, MemoryCard.student_id, [ny], at
            )
            return db.session.execute(
                select(expr).where(MemoryCard.student_id == ny, MemoryCard.fact_key == key)
            ).scalar_one()

        next_morning = dt.datetime(2024, 5, 17, 13, 0, tzinfo=UTC)  # 09:00 EDT, 10 hours later
        assert sql_recall("CO:map", next_morning) == srs.recall_after(2.0, 1) < 1.0
        assert sql_recall("UT:map", _DST_TIMES[1]) == 1.0  # 24.5 hours later, same study day
        assert sql_recall("UT:map", _DST_TIMES[2]) == srs.recall_after(2.0, 1)


def test_recall_expr_refuses_a_naive_time(app: Flask) -> None:
    with pytest.raises(ValueError):
        dashboards.recall_expr(
            MemoryCard.stability,
            MemoryCard.last_study_day,
            MemoryCard.student_id,
            [],
            dt.datetime(2024, 1, 1),
        )


# --- A student -----------------------------------------------------------------------------------


def test_facet_counts(app: Flask) -> None:
    with app.app_context():
        sid = new_user("ana")
        other = new_user("ben")
        add_card(sid, "CO:capital", stability=30.0)  # mastered
        add_card(sid, "UT:capital", stability=5.0)  # learning
        add_card(sid, "NV:capital", stability=40.0, lapses=8)  # a leech, however stable
        add_card(sid, "CO:map", stability=21.0, lapses=7)  # mastered: 21 days exactly, 7 lapses
        add_card(sid, "UT:map", stability=20.99)  # learning
        add_card(sid, "CO:borders", stability=1.0, lapses=9)  # a leech
        add_card(other, "CO:zone", stability=50.0)
        assert dashboards.facet_counts(sid) == [
            FacetCounts(Facet.MAP, mastered=1, learning=1, leeches=0, new=48),
            FacetCounts(Facet.CAPITAL, mastered=1, learning=1, leeches=1, new=47),
            FacetCounts(Facet.POSTAL, 0, 0, 0, 50),
            FacetCounts(Facet.BORDERS, mastered=0, learning=0, leeches=1, new=49),
            FacetCounts(Facet.SIZE, 0, 0, 0, 50),
            FacetCounts(Facet.STATEHOOD, 0, 0, 0, 50),
            FacetCounts(Facet.POPULATION, 0, 0, 0, 50),
            FacetCounts(Facet.ZONE, 0, 0, 0, 50),
        ]
        nobody = new_user("cy")
        assert dashboards.facet_counts(nobody) == [FacetCounts(f, 0, 0, 0, 50) for f in Facet]


def _days(first: dt.date, counts: dict[int, int], length: int = 30) -> list[DayCount]:
    return [DayCount(first + dt.timedelta(days=n), counts.get(n, 0)) for n in range(length)]


def test_forecast_by_study_day_in_the_students_time_zone(app: Flask) -> None:
    # 06:00 UTC on Tuesday 5 March: in UTC the study day is 5 March (until 04:00 UTC on the 6th);
    # in Los Angeles it is 22:00 on the 4th, so study day 4 March (until 12:00 UTC on the 5th).
    # Summer time starts there at 2 a.m. on Sunday 10 March: days then start at 11:00 UTC.
    now = dt.datetime(2024, 3, 5, 6, 0, tzinfo=UTC)
    with app.app_context():
        sid = new_user("ana")
        other = new_user("ben")
        add_card(sid, "AL:map", due=day(3, 1, 0))  # overdue: today
        add_card(sid, "AK:map", due=day(3, 5, 10))  # UTC today; LA today (before 12:00)
        add_card(sid, "AZ:map", due=day(3, 5, 13))  # UTC today; LA tomorrow
        add_card(sid, "AR:map", due=day(3, 6, 4))  # UTC: tomorrow starts 04:00 exactly; LA tomorrow
        add_card(sid, "CA:map", due=day(3, 10, 11, 30))  # UTC 10 March; LA 04:30 PDT: 10 March
        add_card(sid, "CO:map", due=day(3, 10, 10, 30))  # UTC 10 March; LA 03:30 PDT: still 9 March
        add_card(sid, "CT:map", due=day(4, 20))  # after the 30 days
        add_card(other, "AL:map", due=day(3, 5, 10))
        assert dashboards.forecast(sid, now, "UTC") == _days(
            dt.date(2024, 3, 5), {0: 3, 1: 1, 5: 2}
        )
        assert dashboards.forecast(sid, now, "America/Los_Angeles") == _days(
            dt.date(2024, 3, 4), {0: 2, 1: 2, 5: 1, 6: 1}
        )
        assert dashboards.forecast(sid, now, "UTC", days=3) == _days(
            dt.date(2024, 3, 5), {0: 3, 1: 1}, 3
        )
        assert dashboards.forecast(other, now, "UTC", days=2) == _days(
            dt.date(2024, 3, 5), {0: 1}, 2
        )
        assert dashboards.forecast(new_user("cy"), now, "UTC") == _days(dt.date(2024, 3, 5), {})


def _history(sid: int) -> None:
    """A student's answers over five weeks (UTC: study days start at 04:00 UTC)."""
    answer(sid, "CO:capital", day(2, 1))  # first answer, week of 29 January
    answer(sid, "CO:capital", day(2, 20))  # week of 19 Feb: a later day, recalled
    answer(sid, "NH:capital", day(2, 27))  # week of 26 Feb: first answer
    answer(sid, "NH:capital", day(2, 27, 10, 30), Verdict.WRONG)  # same day: not a recall answer
    answer(sid, "NH:capital", day(3, 4))  # week of 4 March: recalled
    answer(sid, "VT:capital", day(3, 4, 10, 5), Verdict.WRONG)  # first answer
    answer(sid, "NH:capital", day(3, 6), Verdict.CLOSE)  # recalled (close counts as right)
    answer(sid, "OH:capital", day(3, 6, 20))  # first answer, study day 6 March
    answer(
        sid, "OH:capital", day(3, 7, 3), Verdict.WRONG
    )  # 03:00 on the 7th: still study day 6 March
    answer(sid, "VT:capital", day(3, 7), Verdict.WRONG)  # a recall answer, not recalled
    answer(sid, "CO:capital", day(3, 8))  # after today


def test_weekly_accuracy(app: Flask) -> None:
    with app.app_context():
        sid = new_user("ana")
        _history(sid)
        answer(new_user("ben"), "CO:capital", day(3, 5))
        assert dashboards.weekly_accuracy(sid, TODAY, weeks=4) == [
            WeekAccuracy(dt.date(2024, 2, 12), 0, 0, 0, 0),
            WeekAccuracy(dt.date(2024, 2, 19), answered=1, right=1, recall_answers=1, recalled=1),
            WeekAccuracy(dt.date(2024, 2, 26), answered=2, right=1, recall_answers=0, recalled=0),
            WeekAccuracy(dt.date(2024, 3, 4), answered=6, right=3, recall_answers=3, recalled=2),
        ]
        weeks = dashboards.weekly_accuracy(sid, TODAY)
        assert len(weeks) == 26 and weeks[-1].week_start == dt.date(2024, 3, 4)
        assert weeks[0].week_start == dt.date(2024, 3, 4) - dt.timedelta(weeks=25)
        assert weeks[-5] == WeekAccuracy(dt.date(2024, 2, 5), 0, 0, 0, 0)
        assert weeks[-6] == WeekAccuracy(dt.date(2024, 1, 29), 1, 1, 0, 0)
        # A Sunday is the last day of its week.
        assert dashboards.weekly_accuracy(sid, dt.date(2024, 3, 3), weeks=1) == [
            WeekAccuracy(dt.date(2024, 2, 26), 2, 1, 0, 0)
        ]
        assert dashboards.weekly_accuracy(new_user("cy"), TODAY, weeks=2) == [
            WeekAccuracy(dt.date(2024, 2, 26), 0, 0, 0, 0),
            WeekAccuracy(dt.date(2024, 3, 4), 0, 0, 0, 0),
        ]


def test_review_calendar(app: Flask) -> None:
    with app.app_context():
        sid = new_user("ana")
        _history(sid)
        answer(sid, "CO:map", dt.datetime(2023, 3, 8, 12, tzinfo=UTC))  # the day before the 365
        answer(sid, "CO:postal", dt.datetime(2023, 3, 9, 12, tzinfo=UTC))  # the first of the 365
        calendar = dashboards.review_calendar(sid, TODAY)
        assert len(calendar) == 365
        assert calendar[0] == DayCount(dt.date(2023, 3, 9), 1)
        assert calendar[-1] == DayCount(TODAY, 1)
        assert {c.day: c.count for c in calendar if c.count} == {
            dt.date(2023, 3, 9): 1,
            dt.date(2024, 2, 1): 1,
            dt.date(2024, 2, 20): 1,
            dt.date(2024, 2, 27): 2,
            dt.date(2024, 3, 4): 2,
            dt.date(2024, 3, 6): 3,
            dt.date(2024, 3, 7): 1,
        }
        assert [c.day for c in calendar] == [
            dt.date(2023, 3, 9) + dt.timedelta(days=n) for n in range(365)
        ]


def test_review_calendar_uses_the_study_day_of_the_students_time_zone(app: Flask) -> None:
    with app.app_context():
        sid = new_user("ana", time_zone="America/New_York")
        answer(sid, "CO:map", day(3, 5, 7))  # 02:00 EST: still study day 4 March
        answer(sid, "UT:map", day(3, 5, 9, 30))  # 04:30 EST: study day 5 March
        assert dashboards.review_calendar(sid, dt.date(2024, 3, 5), days=3) == [
            DayCount(dt.date(2024, 3, 3), 0),
            DayCount(dt.date(2024, 3, 4), 1),
            DayCount(dt.date(2024, 3, 5), 1),
        ]
        assert dashboards.review_calendar(new_user("ben"), dt.date(2024, 3, 5), days=2) == [
            DayCount(dt.date(2024, 3, 4), 0),
            DayCount(dt.date(2024, 3, 5), 0),
        ]


def _games(sid: int, tag: str) -> None:
    n = iter(range(1000))

    def card_game(slug: str, level: str, result: str, drill: bool = False) -> dict:
        return {
            "token": f"{tag}c{next(n)}",
            "student_id": sid,
            "game": slug,
            "players": 2,
            "level": level,
            "drill": drill,
            "seed": 1,
            "actions": [],
            "ply": 0,
            "result": result,
        }

    def state_iq(level: str, result: str) -> dict:
        return {
            "token": f"{tag}s{next(n)}",
            "student_id": sid,
            "level": level,
            "power_card": 1,
            "student_card": "CO",
            "computer_card": "UT",
            "first_guesser": "student",
            "seed": 1,
            "moves": [],
            "move_count": 0,
            "recorded": [],
            "result": result,
        }

    def dashing(level: str, result: str, seconds: float | None) -> dict:
        return {
            "token": f"{tag}d{next(n)}",
            "student_id": sid,
            "level": level,
            "seed": 1,
            "cards": [],
            "result": result,
            "seconds": seconds,
        }

    def border_up(level: str, result: str, seconds: float | None) -> dict:
        return {
            "token": f"{tag}b{next(n)}",
            "student_id": sid,
            "level": level,
            "seed": 1,
            "hand": [],
            "computer_hand": [],
            "result": result,
            "seconds": seconds,
        }

    db.session.execute(
        insert(CardGame),
        [
            card_game("geography-war", "hard", "lost"),
            card_game("geoplunge-51", "hard", "won"),
            card_game("geoplunge-51", "easy", "won"),
            card_game("geoplunge-51", "easy", "won", drill=True),
            card_game("geoplunge-51", "easy", "lost"),
            card_game("geoplunge-51", "easy", "drawn"),
            card_game("geoplunge-51", "easy", "playing"),
        ],
    )
    db.session.execute(
        insert(StateIqGame),
        [state_iq("medium", "won"), state_iq("medium", "tied"), state_iq("easy", "playing")],
    )
    db.session.execute(
        insert(DashingRound),
        [
            dashing("easy", "won", 40.5),
            dashing("easy", "lost", 50.0),  # a right call, slower than the computer
            dashing("easy", "lost", None),  # a wrong call
            dashing("hard", "tied", 33.0),
            dashing("practice", "right", 10.0),  # untimed practice: no race
            dashing("medium", "playing", None),
        ],
    )
    db.session.execute(
        insert(BorderUpRound),
        [
            border_up("medium", "won", 20.0),
            border_up("medium", "lost", None),
            border_up("easy", "dealt", None),
        ],
    )
    db.session.commit()


def test_game_records_and_personal_bests(app: Flask) -> None:
    with app.app_context():
        sid = new_user("ana")
        other = new_user("ben")
        _games(sid, "a")
        _games(other, "b")
        db.session.execute(
            insert(DashingRound),
            [
                {
                    "token": "fast",
                    "student_id": other,
                    "level": "easy",
                    "seed": 1,
                    "cards": [],
                    "result": "won",
                    "seconds": 5.0,
                }
            ],
        )
        # Whole Combo 1 matches: finished ones count, one under way does not.
        db.session.execute(
            insert(ComboMatch),
            [
                {
                    "token": f"m{i}",
                    "student_id": sid,
                    "format": "morning",
                    "level": level,
                    "seed": i,
                    "draw": {},
                    "result": result,
                }
                for i, (level, result) in enumerate(
                    [("easy", "won"), ("easy", "tied"), ("hard", "lost"), ("hard", "playing")]
                )
            ],
        )
        db.session.commit()
        assert dashboards.game_records(sid) == [
            GameRecord("GeoPlunge 51", "easy", won=2, lost=1, drawn=1),
            GameRecord("GeoPlunge 51", "hard", won=1, lost=0, drawn=0),
            GameRecord("Geography War", "hard", won=0, lost=1, drawn=0),
            GameRecord("State IQ", "medium", won=1, lost=0, drawn=1),
            GameRecord("Dashing States", "easy", won=1, lost=2, drawn=0),
            GameRecord("Dashing States", "hard", won=0, lost=0, drawn=1),
            GameRecord("Border-Up", "medium", won=1, lost=1, drawn=0),
            GameRecord("Combo 1 match", "easy", won=1, lost=0, drawn=1),
            GameRecord("Combo 1 match", "hard", won=0, lost=1, drawn=0),
        ]
        assert dashboards.personal_bests(sid) == [
            PersonalBest("Dashing States", "easy", 40.5),
            PersonalBest("Dashing States", "hard", 33.0),
            PersonalBest("Border-Up", "medium", 20.0),
        ]
        assert dashboards.personal_bests(other)[0] == PersonalBest("Dashing States", "easy", 5.0)
        nobody = new_user("cy")
        assert dashboards.game_records(nobody) == []
        assert dashboards.personal_bests(nobody) == []


# --- The mastery maps and a class ----------------------------------------------------------------


def _class_history() -> tuple[int, int, int]:
    """Three students of a class: two with answers, one with none."""
    ana, ben, cy = new_user("Ana"), new_user("ben"), new_user("Cy")
    answer(ana, "CO:capital", NOW - dt.timedelta(days=10))
    answer(ana, "CO:capital", NOW - dt.timedelta(days=5))
    answer(ana, "CO:map", NOW - dt.timedelta(days=3), Verdict.WRONG, answered="UT")
    answer(ana, "UT:capital", NOW - dt.timedelta(days=1))
    answer(ben, "CO:capital", NOW - dt.timedelta(days=20))
    answer(ben, "NH:map", NOW - dt.timedelta(days=2), Verdict.WRONG, answered="VT")
    return ana, ben, cy


def test_state_recall_for_a_student_and_a_class(app: Flask) -> None:
    at = NOW + dt.timedelta(days=3, hours=2)
    with app.app_context():
        ana, ben, cy = _class_history()
        a, b = cards_of(ana), cards_of(ben)
        mine = {s.postal: s for s in dashboards.state_recall([ana], at)}
        assert len(mine) == 50 and list(mine)[:3] == ["AL", "AK", "AZ"]  # by name
        assert mine["CO"].name == "Colorado" and mine["CO"].facts == 2
        assert mine["CO"].recall == pytest.approx(
            fmean([recall_of(a["CO:capital"], at), recall_of(a["CO:map"], at)]), rel=1e-12
        )
        assert mine["UT"].facts == 1 and mine["UT"].recall == pytest.approx(
            recall_of(a["UT:capital"], at), rel=1e-12
        )
        assert [(s.recall, s.facts) for p, s in mine.items() if p not in ("CO", "UT")] == [
            (None, 0)
        ] * 48
        assert 0 < mine["CO"].recall < 1

        both = {s.postal: s for s in dashboards.state_recall([ana, ben, cy], at)}
        assert both["CO"].facts == 3
        expected = fmean(
            [
                recall_of(a["CO:capital"], at),
                recall_of(a["CO:map"], at),
                recall_of(b["CO:capital"], at),
            ]
        )
        assert both["CO"].recall == pytest.approx(expected, rel=1e-12)
        assert both["NH"].facts == 1 and both["NH"].recall == pytest.approx(
            recall_of(b["NH:map"], at), rel=1e-12
        )
        assert {s.facts for s in dashboards.state_recall([cy], at)} == {0}
        assert {s.recall for s in dashboards.state_recall([], at)} == {None}


def test_state_facts(app: Flask) -> None:
    at = NOW + dt.timedelta(days=1)
    with app.app_context():
        ana, _ben, cy = _class_history()
        db.session.execute(
            update(MemoryCard)
            .where(MemoryCard.student_id == ana, MemoryCard.fact_key == "CO:map")
            .values(lapses=2)
        )
        db.session.commit()
        a = cards_of(ana)
        found = dashboards.state_facts(ana, "CO", at)
        assert [f for f, _, _ in found] == list(Facet)
        assert found[0] == (Facet.MAP, recall_of(a["CO:map"], at), 2)
        assert found[1] == (Facet.CAPITAL, recall_of(a["CO:capital"], at), 0)
        assert found[2:] == [(f, None, 0) for f in list(Facet)[2:]]
        assert dashboards.state_facts(cy, "CO", at) == [(f, None, 0) for f in Facet]


def test_class_cells(app: Flask) -> None:
    with app.app_context():
        ana, ben, cy = _class_history()
        a, b = cards_of(ana), cards_of(ben)
        at = NOW
        ana_co, ben_co = recall_of(a["CO:capital"], at), recall_of(b["CO:capital"], at)
        target = (ana_co + ben_co) / 2  # one student above, one below
        assert ben_co < target <= ana_co
        cells = dashboards.class_cells([ana, ben, cy], at, target)
        assert len(cells) == 400
        assert [(c.postal, c.facet) for c in cells[:9]] == [("AL", f) for f in Facet] + [
            ("AK", Facet.MAP)
        ]
        by_key = {(c.postal, c.facet): c for c in cells}
        co = by_key["CO", Facet.CAPITAL]
        assert (
            co.name == "Colorado" and co.started == 2 and co.share_at_target == pytest.approx(1 / 3)
        )
        assert co.mean_recall == pytest.approx((ana_co + ben_co) / 2, rel=1e-12)
        ut = by_key["UT", Facet.CAPITAL]
        assert ut.started == 1 and ut.mean_recall == pytest.approx(
            recall_of(a["UT:capital"], at), rel=1e-12
        )
        assert ut.share_at_target == (1 / 3 if recall_of(a["UT:capital"], at) >= target else 0.0)
        started = {
            ("CO", Facet.CAPITAL),
            ("CO", Facet.MAP),
            ("UT", Facet.CAPITAL),
            ("NH", Facet.MAP),
        }
        assert all(
            c.mean_recall is None and c.started == 0 and c.share_at_target == 0
            for k, c in by_key.items()
            if k not in started
        )
        # Everyone at or above a target of 0; nobody at all when the class is empty.
        assert dashboards.class_cells([ana, ben, cy], at, 0.0)[0] == CellRecall(
            "AL", "Alabama", Facet.MAP, None, 0.0, 0
        )
        assert by_key["NH", Facet.MAP].started == 1
        assert {
            dashboards.class_cells([ana, ben, cy], at, 0.0)[i].share_at_target for i in range(400)
        } <= {0.0, 1 / 3, 2 / 3}
        assert {
            (c.mean_recall, c.share_at_target, c.started)
            for c in dashboards.class_cells([], at, 0.5)
        } == {(None, 0.0, 0)}


def test_class_map_from_the_cells_is_the_class_state_recall(app: Flask) -> None:
    with app.app_context():
        ana, ben, cy = _class_history()
        for at in (NOW, NOW + dt.timedelta(days=9)):
            from_cells = dashboards.class_map(dashboards.class_cells([ana, ben, cy], at, 0.9))
            queried = dashboards.state_recall([ana, ben, cy], at)
            assert [(s.postal, s.name, s.facts) for s in from_cells] == [
                (s.postal, s.name, s.facts) for s in queried
            ]
            assert [s.recall for s in from_cells] == [
                pytest.approx(s.recall, rel=1e-12) if s.recall is not None else None
                for s in queried
            ]
            assert {s.postal for s in from_cells if s.facts} == {"CO", "UT", "NH"}
        assert dashboards.class_map([]) == []


def _same(found: list, expected: list) -> None:
    """Equal dataclasses, floats to 12 significant digits (sums may be added in another order)."""
    assert len(found) == len(expected)
    for a, b in zip(found, expected):
        assert type(a) is type(b)
        for name, value in vars(b).items():
            assert getattr(a, name) == (
                pytest.approx(value, rel=1e-12) if isinstance(value, float) else value
            ), (a, b)


def test_class_overview_is_cells_map_and_risk_in_one_pass(app: Flask) -> None:
    with app.app_context():
        ana, ben, cy = _class_history()
        answer(cy, "NH:map", NOW - dt.timedelta(days=4))
        ids = [ana, ben, cy]
        for at, target in ((NOW, 0.9), (NOW + dt.timedelta(days=12), 0.7), (NOW, 0.0)):
            cells, states, risks = dashboards.class_overview(ids, at, target)
            _same(cells, dashboards.class_cells(ids, at, target))
            _same(states, dashboards.state_recall(ids, at))
            _same(risks, dashboards.students_at_risk(ids, at, target))
        assert [r.username for r in dashboards.class_overview(ids, NOW, 0.9)[2]][-1] == "Ana"
        nobody = dashboards.class_overview([], NOW, 0.9)
        assert nobody[2] == [] and {(c.mean_recall, c.started) for c in nobody[0]} == {(None, 0)}
        assert {s.recall for s in nobody[1]} == {None}


def test_confused_pairs(app: Flask) -> None:
    with app.app_context():
        ana, ben, cy = new_user("ana"), new_user("ben"), new_user("cy")
        outsider = new_user("dee")
        answer(ana, "NH:map", day(3, 1), Verdict.WRONG, answered="VT")
        answer(ana, "NH:map", day(3, 2), Verdict.WRONG, answered="VT")
        answer(
            ben, "NH:capital", day(3, 2), Verdict.WRONG, answered="VT"
        )  # any facet of New Hampshire
        answer(ben, "VT:map", day(3, 3), Verdict.WRONG, answered="NH")
        answer(ben, "IA:map", day(3, 3), Verdict.WRONG, answered="IN")
        answer(
            ana, "OH:map", day(3, 3), Verdict.WRONG, answered="OH"
        )  # wrong, but named the state asked
        answer(ana, "OH:map", day(3, 4), Verdict.RIGHT, answered="OH")
        answer(ana, "ME:map", day(3, 4), Verdict.WRONG)  # named no state
        answer(outsider, "NH:map", day(3, 4), Verdict.WRONG, answered="ME")
        answer(outsider, "IA:map", day(3, 4), Verdict.WRONG, answered="IN")
        assert dashboards.confused_pairs([ana, ben, cy]) == Confusions(
            (
                ConfusedPair("NH", "New Hampshire", "VT", "Vermont", 3),
                ConfusedPair("IA", "Iowa", "IN", "Indiana", 1),
                ConfusedPair("VT", "Vermont", "NH", "New Hampshire", 1),
            ),
            5,
        )
        # The total counts every such answer, not only the pairs kept (issue 18).
        assert dashboards.confused_pairs([ana, ben, cy], limit=1) == Confusions(
            (ConfusedPair("NH", "New Hampshire", "VT", "Vermont", 3),), 5
        )
        assert dashboards.confused_pairs([outsider]) == Confusions(
            (
                ConfusedPair("IA", "Iowa", "IN", "Indiana", 1),
                ConfusedPair("NH", "New Hampshire", "ME", "Maine", 1),
            ),
            2,
        )
        assert dashboards.confused_pairs([cy]) == Confusions((), 0)
        assert dashboards.confused_pairs([]) == Confusions((), 0)


def test_students_at_risk(app: Flask) -> None:
    test_date = NOW + dt.timedelta(days=7)
    with app.app_context():
        ana, ben, cy = _class_history()
        a, b = cards_of(ana), cards_of(ben)
        ana_total = sum(recall_of(card, test_date) for card in a.values())
        ben_total = sum(recall_of(card, test_date) for card in b.values())
        assert ben_total < ana_total
        found = dashboards.students_at_risk([ana, ben, cy], test_date, 0.9)
        assert [(r.student_id, r.username, r.facts) for r in found] == [
            (cy, "Cy", 400),
            (ben, "ben", 400),
            (ana, "Ana", 400),
        ]
        assert found[0] == StudentRisk(cy, "Cy", 0.0, 400, 400)
        assert found[1].mean_recall == pytest.approx(ben_total / 400, rel=1e-12)
        assert found[2].mean_recall == pytest.approx(ana_total / 400, rel=1e-12)
        # Below 0.9: every unstarted fact, and the started ones whose recall is under it.
        assert found[1].below_target == 398 + sum(
            recall_of(card, test_date) < 0.9 for card in b.values()
        )
        assert found[2].below_target == 397 + sum(
            recall_of(card, test_date) < 0.9 for card in a.values()
        )
        # Right after the last reviews every started fact is at 100%.
        soon = dashboards.students_at_risk([ana], NOW, 0.99)
        assert soon == [
            StudentRisk(
                ana,
                "Ana",
                pytest.approx(
                    (
                        recall_of(a["CO:capital"], NOW)
                        + recall_of(a["CO:map"], NOW)
                        + recall_of(a["UT:capital"], NOW)
                    )
                    / 400
                ),
                397 + sum(recall_of(c, NOW) < 0.99 for c in a.values()),
                400,
            )
        ]
        # Over some facts only.
        some = dashboards.students_at_risk(
            [ana, cy], test_date, 0.9, fact_keys=["CO:capital", "CO:postal"]
        )
        assert some[0] == StudentRisk(cy, "Cy", 0.0, 2, 2)
        assert some[1].student_id == ana and some[1].facts == 2
        assert some[1].mean_recall == pytest.approx(
            recall_of(a["CO:capital"], test_date) / 2, rel=1e-12
        )
        assert some[1].below_target == 1 + (recall_of(a["CO:capital"], test_date) < 0.9)
        assert dashboards.students_at_risk([], test_date, 0.9) == []


def test_completion_over_time(app: Flask) -> None:
    now = day(3, 4, 15)
    with app.app_context():
        teacher = new_user("teach", role=Role.TEACHER)
        klass = SchoolClass(teacher_id=teacher, name="Room 9", join_code="ABCDEFGH")
        db.session.add(klass)
        db.session.commit()
        ana, ben, cy = new_user("ana"), new_user("ben"), new_user("cy")
        db.session.add_all(
            [ClassMembership(class_id=klass.id, student_id=s) for s in (ana, ben, cy)]
        )
        everything = {"facets": [], "area": "", "states": []}
        window = {
            "starts_at": day(3, 1, 0),
            "due_at": day(3, 11, 0),
            "time_zone": "UTC",
            "everyone": True,
        }
        answers = Assignment(
            class_id=klass.id,
            title="Two answers",
            activities=["review"],
            scope=everything,
            amount="reviews",
            quantity=2,
            **window,
        )
        later = Assignment(
            class_id=klass.id,
            title="Next week",
            activities=["review"],
            scope=everything,
            amount="reviews",
            quantity=2,
            starts_at=day(3, 11, 0),
            due_at=day(3, 18, 0),
            time_zone="UTC",
            everyone=True,
        )
        goal = Assignment(
            class_id=klass.id,
            title="Colorado",
            activities=["review"],
            scope={"facets": ["capital"], "area": "", "states": ["CO"]},
            amount="recall",
            target=0.5,
            **window,
        )
        db.session.add_all([answers, later, goal])
        db.session.commit()
        answer(ana, "CO:capital", day(3, 2))
        answer(ana, "UT:capital", day(3, 3, 9))  # ana's second answer: finished on 3 March
        answer(ben, "CO:map", day(3, 1, 12))
        answer(ben, "UT:map", day(3, 4, 12))  # finished on 4 March
        answer(cy, "CO:map", day(2, 28))  # before the start: does not count
        answer(cy, "UT:map", day(3, 2))
        answer(cy, "NV:map", day(3, 5))  # after now
        points = dashboards.completion_over_time([answers, later, goal], [ana, ben, cy], now)
        due = dt.date(2024, 3, 10)
        assert points == [
            CompletionPoint("Two answers", dt.date(2024, 3, 1), 0, 3, 0, None, due),
            CompletionPoint("Two answers", dt.date(2024, 3, 2), 0, 3, 0, None, due),
            CompletionPoint("Two answers", dt.date(2024, 3, 3), 1, 3, 0, None, due),
            CompletionPoint("Two answers", dt.date(2024, 3, 4), 2, 3, 0, None, due),
            # Only ana answered Colorado's capital: on track for 50% on the due date, which judges
            # the goal (P-A3), so not finished yet, as the class page says (issue 18).
            CompletionPoint("Colorado", dt.date(2024, 3, 4), 0, 3, 0, 1, due),
        ]
        # Only the students asked about count; finished on time, a line stops at the due day.
        assert dashboards.completion_over_time([answers], [ana], day(3, 20))[-1] == CompletionPoint(
            "Two answers", due, 1, 1, 0, None, due
        )
        assert len(dashboards.completion_over_time([answers], [ana], day(3, 20))) == 10
        # A late finish carries the line on to its day, counted as late (P-A4), as the class page does.
        dee = new_user("dee")
        db.session.add(ClassMembership(class_id=klass.id, student_id=dee))
        db.session.commit()
        answer(dee, "CO:map", day(3, 12))
        answer(dee, "UT:map", day(3, 13))  # dee's second answer: after the due day
        late = dashboards.completion_over_time([answers], [ana, ben, cy, dee], day(3, 20))
        assert late[-1] == CompletionPoint("Two answers", dt.date(2024, 3, 13), 4, 4, 1, None, due)
        assert late[9] == CompletionPoint("Two answers", due, 3, 4, 0, None, due)
        assert len(late) == 13
        # After its due day, a goal is a point on that day (done) and one today (done late too).
        after = dashboards.completion_over_time([goal], [ana, ben, cy], day(3, 20))
        assert after == [CompletionPoint("Colorado", due, 1, 3, 0, None, due)]
        assert dashboards.completion_over_time([], [ana], now) == []


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_completion_counts_what_progress_counts(app: Flask, seed: int) -> None:
    """The database's counts of answers and goals (finished, on track, done late after the due
    date) are the ones progress() computes from the rows, on a seeded random history."""
    from trainer.web.progress import progress

    rng = random.Random(seed)
    with app.app_context():
        teacher = new_user("teach", role=Role.TEACHER)
        klass = SchoolClass(teacher_id=teacher, name="Room 9", join_code="ABCDEFGH")
        db.session.add(klass)
        db.session.commit()
        students = [new_user(f"s{i}") for i in range(6)]
        db.session.add_all([ClassMembership(class_id=klass.id, student_id=s) for s in students])
        window = {
            "starts_at": day(3, 3, 0),
            "due_at": day(3, 9, 0),
            "time_zone": "UTC",
            "everyone": True,
        }
        capitals = {"facets": ["capital"], "area": "", "states": ["CO", "UT"]}
        answers = Assignment(
            class_id=klass.id,
            title="Three",
            activities=["review"],
            scope=capitals,
            amount="reviews",
            quantity=3,
            **window,
        )
        goal = Assignment(
            class_id=klass.id,
            title="Goal",
            activities=["review"],
            scope=capitals,
            amount="recall",
            target=0.8,
            **window,
        )
        db.session.add_all([answers, goal])
        db.session.commit()
        keys = ["CO:capital", "UT:capital", "CO:map"]
        for student in students:
            for _ in range(rng.randrange(0, 8)):
                at = day(3, 1) + dt.timedelta(hours=rng.randrange(0, 24 * 16))
                verdict = Verdict.RIGHT if rng.random() < 0.7 else Verdict.WRONG
                answer(student, rng.choice(keys), at, verdict)
        for now in (day(3, 5, 12), day(3, 9, 0), day(3, 12), day(3, 17, 23)):
            points = dashboards.completion_over_time([answers, goal], students, now)
            by_progress = progress(answers, students, now)
            completed = [p.completed_at for p in by_progress.values() if p.completed_at is not None]
            due_on = local_dates(window["starts_at"], window["due_at"], "UTC")[1]
            last = [p for p in points if p.assignment == "Three"][-1]
            # The last point is the class page's "finished" now (done and done late, issue 18).
            finished = sum(1 for p in by_progress.values() if p.status.finished)
            late = sum(1 for p in by_progress.values() if p.status is Status.DONE_LATE)
            assert (last.finished, last.late, last.assigned) == (finished, late, 6)
            assert last.day == max([min(now.date(), due_on), *(t.date() for t in completed)])
            goal_progress = progress(goal, students, now)
            statuses = [p.status for p in goal_progress.values()]
            goal_points = [p for p in points if p.assignment == "Goal"]
            if now < goal.due_at:
                assert goal_points == [
                    CompletionPoint(
                        "Goal", now.date(), 0, 6, 0, statuses.count(Status.ON_TRACK), due_on
                    )
                ]
            else:
                assert goal_points[0] == CompletionPoint(
                    "Goal", due_on, statuses.count(Status.DONE), 6, 0, None, due_on
                )
                assert (goal_points[-1].finished, goal_points[-1].late) == (
                    sum(1 for status in statuses if status.finished),
                    statuses.count(Status.DONE_LATE),
                )
            # The benchmark's floor fetches the same completion rows.
            raw = dashboards.raw_teacher_queries(students, now, 0.9, [answers, goal], now)
            assert len(raw) == 3 + 1 + (1 if now < goal.due_at else 2)
            assert sorted(at for _sid, at in raw[3]) == sorted(completed)


# --- The bare queries ----------------------------------------------------------------------------


def test_raw_queries_fetch_the_same_rows_the_dashboards_read(app: Flask) -> None:
    with app.app_context():
        ana, ben, cy = _class_history()
        _games(ana, "a")
        student = dashboards.raw_student_queries(ana, NOW, "UTC")
        assert len(student) == 8
        facets, due, calendar, weeks, games, bests, classmates, states = student
        assert sorted((row[0], row[1]) for row in facets) == [("capital", 2), ("map", 1)]
        assert sum(row[1] for row in due) == 3
        assert sum(row[1] for row in calendar) == 4
        assert sum(row[1] for row in weeks) == 4
        assert len(games) == 7 and len(bests) == 3 and classmates == []  # no live table
        assert sorted(row[0] for row in states) == ["CO", "UT"]
        teacher = dashboards.raw_teacher_queries([ana, ben, cy], NOW, 0.9)
        assert len(teacher) == 3
        overview, names, pairs = teacher
        assert len(overview) == 4 + 2  # four facts started, by two students
        assert [row[1] for row in names] == ["Ana", "ben", "Cy"]
        assert [(row[0], row[1], row[2]) for row in pairs] == [("CO", "UT", 1), ("NH", "VT", 1)]
        assert get_deck()["CO"].name == "Colorado"
