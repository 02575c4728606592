"""Issue 24: the class page counts answers and recall goals in SQL (trainer.web.dashboards); the
figures equal the Python computation (trainer.web.progress.progress, insights._mean_recall)."""

# ruff: noqa: F811  (``world`` is the fixture of test_teach_insights, taken as a parameter)

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Any

from tests.web.test_teach_insights import NOW, World, answer, world  # noqa: F401  (the fixture)
from trainer.assignments import Status
from trainer.facts import Verdict
from trainer.web import dashboards
from trainer.web import progress as progress_module
from trainer.web.extensions import db
from trainer.web.models import Assignment, SchoolClass
from trainer.web.progress import class_progress, progress
from trainer.web.teach import insights

DAY = dt.timedelta(days=1)
WEST = {"facets": ["capital"], "area": "", "states": ["CO", "UT", "WY"]}
EVERYTHING = {"facets": [], "area": "", "states": []}


def add(world: World, title: str, amount: str, starts: int, due: int, **kw: Any) -> None:
    with world.app.app_context():
        db.session.add(
            Assignment(
                class_id=world.class_a,
                title=title,
                activities=kw.pop("activities", ["review"]),
                scope=kw.pop("scope", WEST),
                amount=amount,
                starts_at=NOW + starts * DAY,
                due_at=NOW + due * DAY,
                time_zone="UTC",
                everyone=True,
                **kw,
            )
        )
        db.session.commit()


def seed(world: World) -> None:
    """river learns the three capitals well over three weeks; brook answers one, and forgets it."""
    for days_ago in (20, 16, 12, 9, 6, 3, 1):
        for key in ("CO:capital", "UT:capital", "WY:capital"):
            answer(world.app, world.river, key, NOW - days_ago * DAY)
    answer(world.app, world.river, "OH:map", NOW - 4 * DAY, Verdict.WRONG)
    answer(world.app, world.brook, "CO:capital", NOW - 9 * DAY)
    answer(world.app, world.brook, "UT:capital", NOW - 8 * DAY, Verdict.WRONG)
    answer(world.app, world.brook, "WY:capital", NOW - 3 * DAY)
    answer(world.app, world.brook, "WY:capital", NOW - 3 * DAY + dt.timedelta(hours=1))
    for target in (0.5, 0.8, 0.9, 0.97):
        add(world, f"West now {target}", "recall", -10, 2, target=target)
        add(world, f"West past {target}", "recall", -20, -5, target=target)
        add(world, f"West long past {target}", "recall", -20, -10, target=target)
    add(world, "West later", "recall", 1, 8, target=0.9)
    add(world, "West this week", "recall", -2, 3, target=0.9)  # brook: not started
    add(world, "Everything", "recall", -20, 5, target=0.9, scope=EVERYTHING)
    add(world, "Map, past", "recall", -20, -2, target=0.5, scope={**EVERYTHING, "facets": ["map"]})
    for quantity in (1, 10, 21, 30):
        add(world, f"{quantity} answers, open", "reviews", -10, 2, quantity=quantity)
        add(world, f"{quantity} answers, past", "reviews", -10, -2, quantity=quantity)
    add(world, "3 answers, later", "reviews", 1, 8, quantity=3)
    add(world, "Maps", "reviews", -30, -1, quantity=1, activities=["review", "state-iq"])


def test_goals_and_answers_counted_in_sql_equal_the_python_computation(world, monkeypatch):
    seed(world)
    ids = [world.river.id, world.brook.id]
    with world.app.app_context():
        assignments = list(
            db.session.execute(db.select(Assignment).order_by(Assignment.id)).scalars()
        )
        statuses = set()
        for assignment in assignments:
            expected = {
                sid: replace(found, weakest=())
                for sid, found in progress(assignment, ids, NOW).items()
            }
            if assignment.amount == "recall":
                found = dashboards.goal_progress(assignment, ids, NOW)
            else:
                found = dashboards.answers_progress(assignment, ids, NOW)
            assert found == expected, assignment.title
            statuses |= {p.status for p in found.values()}
        # The seeded data reaches every status and counts (so the comparison says something).
        assert statuses == set(Status)
        by_title = {a.title: a for a in assignments}
        goal = dashboards.goal_progress(by_title["West now 0.9"], ids, NOW)
        assert (goal[world.river.id].done, goal[world.river.id].needed) == (3, 3)
        assert goal[world.brook.id].done < 3
        # The class page's table is made of them.
        monkeypatch.setattr(progress_module, "utcnow", lambda: NOW)
        klass = db.session.get(SchoolClass, world.class_a)
        _assignments, table = class_progress(klass, ids)
        for assignment in assignments:
            assert table[assignment.id] == {
                sid: replace(p, weakest=()) for sid, p in progress(assignment, ids, NOW).items()
            }, assignment.title


def test_mean_recall_in_sql_equals_the_python_computation(world):
    seed(world)
    ids = [world.river.id, world.brook.id, world.otter.id]
    with world.app.app_context():
        found = dashboards.mean_recall(ids, NOW)
        expected = insights._mean_recall(ids, NOW)
    assert set(found) == {world.river.id, world.brook.id}  # otter has never answered
    assert {sid: count for sid, (_mean, count) in found.items()} == {
        world.river.id: 4,
        world.brook.id: 3,
    }
    assert found == expected
