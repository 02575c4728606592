"""The learning benchmark (bench/learning.py, issue 19): its report has the promised shape, and its
in-memory copy of the app's study path gives the same queues, ratings and due times as the real
``memory.queue``/``memory.record`` on the database."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import Any

from trainer import srs
from trainer.web import fitting, memory
from trainer.web.extensions import db
from trainer.web.models import User

from ..conftest import make_user

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import learning  # noqa: E402


def test_report_shape_and_oracle_above_leitner() -> None:
    rows = learning.simulate(
        ["hlr"], ["app", "leitner", "oracle"], students=1, seed=3, days=(5, 10), jobs=1
    )
    by = {r["scheduler"]: r for r in rows}
    assert set(by) == {"app", "leitner", "oracle"}
    for row in rows:
        assert set(row["snapshots"]) == {"5", "10"}
        snap = row["snapshots"]["10"]
        assert 0 <= snap["at90"] <= snap["at80"] <= snap["introduced"] <= 400
        assert 0.0 <= snap["mean"] <= 1.0
    assert by["oracle"]["snapshots"]["10"]["at90"] >= by["leitner"]["snapshots"]["10"]["at90"]
    assert sum(b[0] for b in by["app"]["calibration"]) > 0
    text = learning.report(rows, (5, 10))
    assert (
        "| app | 10 |" in text
        and "| app − leitner | 10 |" in text
        and "Calibration of `app`" in text
    )


def test_same_run_twice_is_identical() -> None:
    first = learning.simulate(["actr"], ["app"], students=1, seed=5, days=(4,), jobs=1)
    assert learning.simulate(["actr"], ["app"], students=1, seed=5, days=(4,), jobs=1) == first


class _Checked(learning.AppPath):
    """The benchmark's app path, each step checked against the real one on the database."""

    def __init__(self, student: learning.Student, keys: list[str], user: User) -> None:
        super().__init__(student, keys)
        self.user = user
        self.checked = 0
        #: Facts dealt by practice rounds beyond what the ordinary queue had (P-M8).
        self.practised = 0
        #: Fits run, and adopted, by both the copy and the real ``fitting.fit_student`` (P-M10).
        self.fitted = 0

    def queue(self, now: dt.datetime, size: int, practice: bool = False) -> list[str]:
        mine = super().queue(now, size, practice)
        assert mine == memory.queue(self.user, self.deck, size=size, now=now, practice=practice)
        if practice:
            self.practised += len(mine) - len(super().queue(now, size))
        return mine

    def _recheck(self, keys: list[str]) -> set[str]:
        mine = super()._recheck(keys)
        assert mine == memory.to_recheck(self.user, keys)
        return mine

    def _maybe_fit(self, now: dt.datetime) -> None:
        tried = self.logged_at_last_fit
        adopted = self.fits_adopted
        super()._maybe_fit(now)
        if self.logged_at_last_fit == tried:
            return
        # The real fit, on the review log the real path wrote: the same verdict, the same weights,
        # and every fact rescheduled to the same due time.
        result = fitting.fit_student(self.user.id)
        assert result.adopted == (self.fits_adopted > adopted)
        assert result.weights == (self.weights or srs.DEFAULT_WEIGHTS)
        assert memory.all_memories(self.user) == self.memories
        self.fitted += 1

    def _record(self, fact: Any, outcome: Any, before: Any, now: dt.datetime) -> None:
        assert before == memory.memory_of(self.user, fact.key)
        super()._record(fact, outcome, before, now)
        recorded = memory.record(self.user, outcome, now)
        assert (recorded.rating, recorded.due) == (self.last_rating, self.memories[fact.key].due)
        self.checked += 1


def _check_against_the_database(app, days: int, budget: int) -> _Checked:  # type: ignore[no-untyped-def]
    user = make_user(app)
    with app.app_context():
        stored = db.session.get(User, user.id)
        stored.time_zone, stored.new_per_day, stored.desired_retention = (
            learning.TIME_ZONE,
            learning.NEW_PER_DAY,
            0.9,
        )
        stored.multiple_choice = True
        db.session.commit()
        paths: list[_Checked] = []

        def checked(student: learning.Student, keys: list[str]) -> _Checked:
            paths.append(_Checked(student, keys, stored))
            return paths[-1]

        learning.simulate_student("hlr", checked, number=0, seed=7, days=(days,), budget=budget)
    return paths[0]


def test_in_memory_path_matches_the_database(app) -> None:  # type: ignore[no-untyped-def]
    """Every answer of 8 study days, and the fit (P-M10) the path runs once 150 answers are in."""
    path = _check_against_the_database(app, 8, learning.DAILY_BUDGET)
    assert path.checked == path.answers > 3 * learning.DAILY_BUDGET
    assert path.fitted >= 1


def test_in_memory_practice_rounds_match_the_database(app) -> None:  # type: ignore[no-untyped-def]
    """P-M8: with a budget the ordinary queue cannot fill, the student keeps practising, and the
    practice rounds (``memory.queue(..., practice=True)``) match too, answer for answer."""
    path = _check_against_the_database(app, 5, 2 * learning.DAILY_BUDGET)
    assert path.practised > 0
    assert path.checked > 2 * learning.DAILY_BUDGET


def test_app_stop_leaves_the_budget_unspent_where_app_keeps_practising() -> None:
    """The two app schedulers differ only once the ordinary queue is empty (P-M8)."""
    rows = learning.simulate(
        ["hlr"], ["app", "app-stop"], students=1, seed=7, days=(5,), jobs=1, budget=80
    )
    by = {r["scheduler"]: r for r in rows}
    app_reviews = sum(b[0] for b in by["app"]["calibration"])
    stop_reviews = sum(b[0] for b in by["app-stop"]["calibration"])
    assert app_reviews > stop_reviews
    assert "| app − app-stop | 5 |" in learning.report(rows, (5,))


def test_the_benchmark_fits_as_often_as_the_app() -> None:
    """The copy fits after as many new answers as the app's background runner (P-M10)."""
    assert learning.FIT_AFTER == fitting.NEW_ANSWERS_FOR_A_FIT
