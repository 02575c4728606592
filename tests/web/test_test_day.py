"""A test day for an assignment: the form, the pages, the preview of the daily work, the aims of a
student, and the migration.

Rulings checked: P-A5 (the test day on the form and the pages), P-M9 (the schedule aims at it:
the tests marked NEEDS WIRING check that ``memory._write`` calls ``aim()``; they fail until the
lead adds that call), P-M11 (the preview's numbers come from the students' real memories).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from html import unescape

import pytest
from flask import Flask
from flask_migrate import downgrade, upgrade
from sqlalchemy import event, inspect, select

from tests.conftest import make_user
from tests.web.migrations import databases, empty_database
from tests.web.test_assignments import assignments, create, form_data
from tests.web.test_security import assert_strict_page
from tests.web.test_teach import World, add_member, count, main_of, post, snapshot
from trainer import srs
from trainer.aim import TEST_TARGETS, TestAim, day_start, days_at_or_above, workloads
from trainer.facts import Form, Verdict
from trainer.web.assign.aims import PreviewRow, aims_for, class_preview
from trainer.web.extensions import db
from trainer.web.memory import memories_of, record, settings_for, weights_for
from trainer.web.models import Assignment, MemoryCard, User, memory_columns, utcnow

UTC = dt.UTC


def today() -> dt.date:
    return utcnow().date()


def days(n: int) -> str:
    return (today() + dt.timedelta(days=n)).isoformat()


@dataclass(frozen=True)
class Ahead:
    """The date ``n`` days from today, worked out when the test runs: the parameters are made when
    the tests are collected, which in a run that crosses midnight is the day before."""

    n: int


def dated(values: dict[str, object]) -> dict[str, object]:
    """``values`` with each ``Ahead`` turned into its date."""
    return {k: days(v.n) if isinstance(v, Ahead) else v for k, v in values.items()}


def sentence(test_on: dt.date, percent: int, who: str) -> str:
    return f"Test on {test_on:%A} {test_on.day} {test_on:%B}: the schedule aims for {who} to remember {percent}% of these facts that day."


def capitals_of_co_and_tx(**overrides) -> dict:
    return {"activities": ["review"], "facets": ["capital"], "states": "CO, TX", **overrides}


def set_memory(
    app: Flask,
    student_id: int,
    key: str,
    stability: float,
    days_ago: int,
    state=srs.MemoryState.REVIEW,
) -> None:
    """A memory card as the real path leaves it: reviewed ``days_ago`` study days ago (UTC)."""
    with app.app_context():
        at = utcnow().replace(hour=12, minute=0, second=0, microsecond=0) - dt.timedelta(
            days=days_ago
        )
        memory = srs.Memory(
            state, None, stability, 5.0, at + dt.timedelta(days=max(1, round(stability))), at, 0, 3
        )
        existing = db.session.execute(
            select(MemoryCard).where(
                MemoryCard.student_id == student_id, MemoryCard.fact_key == key
            )
        ).scalar_one_or_none()
        columns = {**memory_columns(memory), "last_study_day": srs.study_day(at, "UTC").date}
        if existing is None:
            db.session.add(
                MemoryCard(
                    student_id=student_id,
                    fact_key=key,
                    facet=key.split(":")[1],
                    introduced_at=at,
                    **columns,
                )
            )
        else:
            for name, value in columns.items():
                setattr(existing, name, value)
        db.session.commit()


# --- The form (P-A5) -----------------------------------------------------------------------------


def test_a_test_day_and_its_percent_are_kept(world, app):
    response = create(world, test_on=days(12), test_target="85")
    assert response.status_code == 302
    [row] = assignments(app)
    assert (row.test_on, row.test_target) == (today() + dt.timedelta(days=12), 0.85)


def test_without_a_test_day_nothing_is_aimed_at(world, app):
    assert create(world).status_code == 302
    [row] = assignments(app)
    assert (row.test_on, row.test_target) == (None, None)


def test_a_recall_goal_aims_at_its_own_percent(world, app):
    """P-A5: a goal's target is the test day's percent; the "remember on test day" choice is not kept."""
    assert (
        create(
            world,
            amount="recall",
            target="75",
            activities=["review"],
            test_on=days(9),
            test_target="95",
        ).status_code
        == 302
    )
    [row] = assignments(app)
    assert (row.test_on, row.test_target, row.target) == (
        today() + dt.timedelta(days=9),
        None,
        0.75,
    )
    with app.app_context():
        student = db.session.get(User, world.student.id)
        [found] = aims_for(student)
    assert found.target == 0.75


BAD_TEST_DAYS = [
    (
        {"test_on": Ahead(3), "starts_on": Ahead(4), "due_on": Ahead(8)},
        "The test day is before the start date. Choose a test day on or after the start.",
    ),
    (
        {"test_on": Ahead(-1), "starts_on": Ahead(-3)},
        "That test day has passed. Choose today or a later day, or leave it empty.",
    ),
    ({"test_on": Ahead(367)}, "A test day can be at most a year ahead."),
    ({"test_on": "next friday"}, "Not a valid date value."),
    ({"test_on": Ahead(5), "test_target": "99"}, "Not a valid choice."),
    ({"test_on": Ahead(5), "test_target": "NaN"}, "Not a valid choice."),
]


@pytest.mark.parametrize(("changes", "message"), BAD_TEST_DAYS)
def test_a_bad_test_day_is_explained_and_nothing_is_made(world, app, changes, message):
    response = create(world, **dated(changes))
    assert response.status_code == 400
    html = unescape(response.get_data(as_text=True))
    assert message in html
    assert (
        'href="#test_on"' in html or 'href="#test_target"' in html
    )  # the error summary links to the field
    assert count(app, Assignment) == 0


def test_a_test_day_a_year_ahead_is_allowed(world, app):
    assert create(world, test_on=days(366), due_on=days(300)).status_code == 302


def test_the_form_has_the_test_day_and_a_preview_button_under_the_strict_csp(world):
    html = (
        world.client("teacher")
        .get(f"/teach/classes/{world.class_a}/assignments/new")
        .get_data(as_text=True)
    )
    assert_strict_page(html)
    assert '<label class="field__label" for="test_on">Test day (optional)</label>' in html
    assert 'name="preview"' in html and "/static/js/test_day_preview.js" in html
    assert "Choose a test day to see the daily work it would cost." in html


def test_the_preview_button_shows_the_work_and_saves_nothing(world, app):
    """Without script: "Preview" posts the form; the page comes back with the preview."""
    response = post(
        world.client("teacher"),
        f"/teach/classes/{world.class_a}/assignments/new",
        {**form_data(**capitals_of_co_and_tx(test_on=days(10))), "preview": "1"},
    )
    assert response.status_code == 200
    html = unescape(main_of(response.get_data(as_text=True)))
    assert "If the class is to remember 90% on test day:" in html
    assert "<caption" in html and "Reviews a day per student" in html
    assert count(app, Assignment) == 0


# --- The pages -----------------------------------------------------------------------------------


def test_the_teacher_and_student_pages_say_it_in_plain_words(world, app):
    test_on = today() + dt.timedelta(days=12)
    assert create(world, test_on=test_on.isoformat(), test_target="85").status_code == 302
    [row] = assignments(app)
    teacher = (
        world.client("teacher")
        .get(f"/teach/classes/{world.class_a}/assignments/{row.id}")
        .get_data(as_text=True)
    )
    assert_strict_page(teacher)
    assert sentence(test_on, 85, "your students") in unescape(teacher)
    student = world.client("student").get(f"/assignments/{row.id}").get_data(as_text=True)
    assert sentence(test_on, 85, "you") in unescape(student)


def test_a_student_page_says_nothing_of_a_test_day_that_has_passed(world, app):
    assert create(world, starts_on=days(-5), test_on=days(2)).status_code == 302
    [row] = assignments(app)
    with app.app_context():
        db.session.get(Assignment, row.id).test_on = today() - dt.timedelta(days=2)
        db.session.commit()
    student = unescape(world.client("student").get(f"/assignments/{row.id}").get_data(as_text=True))
    assert "Test on" not in student


# --- Changing the test day ----------------------------------------------------------------------


def url_of_test_day(world: World, assignment_id: int) -> str:
    return f"/teach/classes/{world.class_a}/assignments/{assignment_id}/test-day"


def test_the_teacher_sets_changes_and_clears_the_test_day(world, app):
    assert create(world).status_code == 302
    [row] = assignments(app)
    client = world.client("teacher")
    assert (
        post(
            client, url_of_test_day(world, row.id), {"test_on": days(20), "test_target": "95"}
        ).status_code
        == 302
    )
    [row] = assignments(app)
    assert (row.test_on, row.test_target) == (today() + dt.timedelta(days=20), 0.95)
    assert (
        post(
            client, url_of_test_day(world, row.id), {"test_on": "", "test_target": "95"}
        ).status_code
        == 302
    )
    [row] = assignments(app)
    assert (row.test_on, row.test_target) == (None, None)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"test_on": Ahead(-1)}, "That test day has passed."),
        ({"test_on": Ahead(400)}, "A test day can be at most a year ahead."),
        ({"test_on": "31/12"}, "Not a valid date value."),
        ({"test_on": Ahead(4), "test_target": "50"}, "Not a valid choice."),
        ({"test_on": Ahead(-6)}, "The test day is before the start date."),
    ],
)
def test_a_bad_change_is_explained_and_changes_nothing(world, app, data, message):
    assert create(world, starts_on=days(-5), test_on=days(6)).status_code == 302
    [row] = assignments(app)
    before = snapshot(app)
    response = post(
        world.client("teacher"),
        url_of_test_day(world, row.id),
        {"test_target": "90", **dated(data)},
    )
    assert response.status_code == 400
    assert message in unescape(response.get_data(as_text=True))
    assert snapshot(app) == before and assignments(app)[0].test_on == today() + dt.timedelta(days=6)


def test_changing_the_test_day_needs_a_csrf_token(world, app):
    assert create(world).status_code == 302
    [row] = assignments(app)
    response = world.client("teacher").post(
        url_of_test_day(world, row.id), data={"test_on": days(9), "test_target": "90"}
    )
    assert response.status_code == 400
    assert assignments(app)[0].test_on is None


@pytest.mark.parametrize(
    ("who", "status"),
    [(None, 302), ("student", 403), ("other_student", 403), ("other_teacher", 404)],
)
def test_only_the_classs_teacher_sees_the_preview_or_changes_the_test_day(world, app, who, status):
    assert create(world, test_on=days(6)).status_code == 302
    [row] = assignments(app)
    client = world.client(who)
    before = snapshot(app)
    base = f"/teach/classes/{world.class_a}/assignments"
    for response in (
        client.get(f"{base}/preview?activities=review&test_on={days(6)}"),
        client.get(f"{base}/{row.id}/preview?test_on={days(6)}"),
        post(client, f"{base}/{row.id}/test-day", {"test_on": "", "test_target": "90"}),
    ):
        assert response.status_code == status
        if status == 302:
            assert response.headers["Location"].startswith("/auth/login?next=")
        assert "reviews a day" not in response.get_data(as_text=True)
    assert snapshot(app) == before
    assert assignments(app)[0].test_on == today() + dt.timedelta(days=6)


# --- The preview's numbers come from the students' memories (P-M11) ---------------------------


def rows_of(html: str) -> dict[int, str]:
    """Each goal's "reviews a day per student" from the preview table."""
    found = re.findall(r'<tr><th scope="row">(\d+)%</th><td>([^<]+)</td>', html)
    return {int(percent): words for percent, words in found}


def expected_rows(app: Flask, student_id: int, keys: list[str], test_on: dt.date) -> dict[int, str]:
    with app.app_context():
        student = db.session.get(User, student_id)
        settings = settings_for(student)
        memories = memories_of(student, keys)
        day = srs.study_day(utcnow(), settings.time_zone).date
        works = workloads(
            memories,
            keys,
            day,
            test_on,
            TEST_TARGETS,
            settings.time_zone,
            settings.new_per_day,
            weights_for(student),
            settings.desired_retention,
        )
    return {
        round(w.target * 100): PreviewRow(round(w.target * 100), w.per_day, 0).words for w in works
    }


def test_the_preview_reads_the_students_real_memories(world, app):
    """P-M11: the class's one student knows Denver a little (stability 3 days, 2 days ago) and has
    not met Austin: the preview is the work of those memories; once both are known for years it
    is no work at all."""
    test_on = today() + dt.timedelta(days=10)
    set_memory(app, world.student.id, "CO:capital", 3.0, 2)
    url = f"/teach/classes/{world.class_a}/assignments/preview"
    query = {
        "activities": "review",
        "facets": "capital",
        "states": "CO, TX",
        "test_on": test_on.isoformat(),
        "who": "everyone",
    }
    client = world.client("teacher")
    shown = rows_of(client.get(url, query_string=query).get_data(as_text=True))
    assert shown == expected_rows(app, world.student.id, ["CO:capital", "TX:capital"], test_on)
    assert set(shown) == {80, 85, 90, 95} and shown[95] != "no reviews"
    set_memory(app, world.student.id, "CO:capital", 3000.0, 1)
    set_memory(app, world.student.id, "TX:capital", 3000.0, 1)
    assert rows_of(client.get(url, query_string=query).get_data(as_text=True)) == dict.fromkeys(
        TEST_TARGETS_PERCENT, "no reviews"
    )


TEST_TARGETS_PERCENT = [round(t * 100) for t in TEST_TARGETS]


def test_the_assignment_page_previews_its_own_scope_and_students(world, app):
    assert create(world, **capitals_of_co_and_tx(test_on=days(8))).status_code == 302
    [row] = assignments(app)
    set_memory(app, world.student.id, "CO:capital", 2.0, 3)
    html = (
        world.client("teacher")
        .get(f"/teach/classes/{world.class_a}/assignments/{row.id}")
        .get_data(as_text=True)
    )
    assert rows_of(html) == expected_rows(
        app, world.student.id, ["CO:capital", "TX:capital"], today() + dt.timedelta(days=8)
    )
    assert "for the 2 facts of this assignment and 1 student," in " ".join(unescape(html).split())
    fragment = (
        world.client("teacher")
        .get(f"/teach/classes/{world.class_a}/assignments/{row.id}/preview?test_on={days(30)}")
        .get_data(as_text=True)
    )
    assert rows_of(fragment) == expected_rows(
        app, world.student.id, ["CO:capital", "TX:capital"], today() + dt.timedelta(days=30)
    )
    bad = world.client("teacher").get(
        f"/teach/classes/{world.class_a}/assignments/{row.id}/preview?test_on={days(-3)}"
    )
    assert bad.status_code == 200 and "The test day is before the start date." in unescape(
        bad.get_data(as_text=True)
    )


def test_the_preview_without_students_or_scope_says_why(world, app):
    url = f"/teach/classes/{world.class_b}/assignments/preview"
    client = world.client("other_teacher")
    html = unescape(
        client.get(
            url, query_string={"activities": "review", "test_on": days(5), "who": "some"}
        ).get_data(as_text=True)
    )
    assert "There are no students to preview the work for" in html
    html = unescape(
        client.get(
            url,
            query_string={"activities": "dashing-states", "facets": "postal", "test_on": days(5)},
        ).get_data(as_text=True)
    )
    assert "Choose the activities and what to practise to see the daily work." in html
    html = unescape(client.get(url, query_string={"activities": "review"}).get_data(as_text=True))
    assert "Choose a test day to see the daily work it would cost." in html


def test_class_preview_averages_over_the_students(world, app):
    """P-M11: per student: a student who knows everything and one who knows nothing average out."""
    set_memory(app, world.student.id, "CO:capital", 3000.0, 1)
    test_on = today() + dt.timedelta(days=10)
    with app.app_context():
        alone = class_preview([world.other_student.id], ["CO:capital"], test_on)
        both = class_preview([world.student.id, world.other_student.id], ["CO:capital"], test_on)
    assert alone.students == 1 and both.students == 2
    for one, two in zip(alone.rows, both.rows):
        assert two.per_day == pytest.approx(one.per_day / 2) and one.per_day > 0


# --- The aims of a student -----------------------------------------------------------------------


def test_aims_for_lists_the_current_test_days_in_one_query(world, app):
    assert create(world, **capitals_of_co_and_tx(test_on=days(5))).status_code == 302
    assert (
        create(world, activities=["state-iq"], test_on=days(9), test_target="95").status_code == 302
    )
    assert create(world).status_code == 302  # no test day
    assert (
        create(world, who="some", students=[str(world.student.id)], test_on=days(7)).status_code
        == 302
    )
    with app.app_context():
        student = db.session.get(User, world.student.id)
        statements = []
        listener = lambda *args: statements.append(args[2])  # noqa: E731
        event.listen(db.engine, "before_cursor_execute", listener)
        try:
            found = aims_for(student, today())
        finally:
            event.remove(db.engine, "before_cursor_execute", listener)
        assert len(statements) == 1
        other = aims_for(db.session.get(User, world.other_student.id))
    assert [(a.test_on, a.target) for a in found] == [
        (today() + dt.timedelta(days=5), 0.9),
        (today() + dt.timedelta(days=7), 0.9),
        (today() + dt.timedelta(days=9), 0.95),
    ]
    assert found[0].fact_keys == frozenset({"CO:capital", "TX:capital"})
    assert "CO:postal" in found[2].fact_keys and "CO:map" not in found[2].fact_keys
    assert other == []


def test_aims_for_leaves_out_past_tests_and_assignments_for_other_students(world, app):
    classmate = make_user(app, "wren", fast_hash=True)
    add_member(app, world.class_a, classmate.id)
    assert create(world, starts_on=days(-4), test_on=days(1)).status_code == 302
    assert (
        create(world, who="some", students=[str(world.student.id)], test_on=days(3)).status_code
        == 302
    )
    assert (
        create(world, who="some", students=[str(classmate.id)], test_on=days(4)).status_code == 302
    )
    first, second, _third = assignments(app)
    with app.app_context():
        assert [a.test_on for a in aims_for(db.session.get(User, classmate.id), today())] == [
            first.test_on,
            _third.test_on,
        ]
    with app.app_context():
        db.session.get(Assignment, first.id).test_on = today() - dt.timedelta(days=3)
        db.session.commit()
        assert [a.test_on for a in aims_for(db.session.get(User, world.student.id), today())] == [
            second.test_on
        ]
        # A test day today still counts; yesterday's does not.
        db.session.get(Assignment, first.id).test_on = today()
        db.session.commit()
        assert len(aims_for(db.session.get(User, world.student.id), today())) == 2
        assert (
            aims_for(db.session.get(User, world.student.id), today() + dt.timedelta(days=1))[
                0
            ].test_on
            == second.test_on
        )


# --- NEEDS WIRING: memory._write calls aim() (the lead adds it; these fail until then) ------------


def answer(app: Flask, student_id: int, key: str, when: dt.datetime, n: int) -> None:
    with app.app_context():
        student = db.session.get(User, student_id)
        record(
            student,
            srs.Outcome(key, Verdict.RIGHT, "review", Form.TYPED, f"r{n}", str(n), "Denver"),
            when,
        )


def card_of(app: Flask, student_id: int, key: str) -> srs.Memory:
    with app.app_context():
        return memories_of(db.session.get(User, student_id), [key])[key]


def test_needs_wiring_an_answer_is_scheduled_for_the_test_day(at_midday, world, app):
    """NEEDS WIRING (P-M9): Denver learned and recalled once (stability about 2 days, FSRS due
    in 2 days) with a 95% test in 20 days: the due comes before the test at the aim's day."""
    assert (
        create(world, **capitals_of_co_and_tx(test_on=days(20), test_target="95")).status_code
        == 302
    )
    now = utcnow()
    answer(app, world.student.id, "CO:capital", now - dt.timedelta(minutes=20), 1)
    answer(app, world.student.id, "CO:capital", now - dt.timedelta(minutes=5), 2)
    memory = card_of(app, world.student.id, "CO:capital")
    assert memory.state is srs.MemoryState.REVIEW
    day = srs.study_day(memory.last_review, "UTC").date
    expected = day + dt.timedelta(days=max(1, days_at_or_above(memory.stability, 0.95)))
    assert memory.due == day_start(expected, "UTC")
    assert memory.due <= day_start(
        day + dt.timedelta(days=1), "UTC"
    )  # 95% after stability ~2: tomorrow
    with app.app_context():
        [aim_] = aims_for(db.session.get(User, world.student.id), today())
    assert aim_ == TestAim(
        today() + dt.timedelta(days=20), 0.95, frozenset({"CO:capital", "TX:capital"})
    )


def test_needs_wiring_a_fact_outside_the_test_keeps_fsrss_due(world, app):
    """NEEDS WIRING (P-M9), and true before it too: Utah's capital is not in the test's scope."""
    assert (
        create(world, **capitals_of_co_and_tx(test_on=days(20), test_target="95")).status_code
        == 302
    )
    now = utcnow()
    answer(app, world.student.id, "UT:capital", now - dt.timedelta(minutes=20), 1)
    answer(app, world.student.id, "UT:capital", now - dt.timedelta(minutes=5), 2)
    memory = card_of(app, world.student.id, "UT:capital")
    day = srs.study_day(memory.last_review, "UTC").date
    assert memory.due >= day_start(day + dt.timedelta(days=2), "UTC")


# --- The migration -------------------------------------------------------------------------------


@pytest.mark.parametrize("database", databases())
def test_migration_0017_adds_and_removes_the_test_day(tmp_path, database):
    with empty_database(tmp_path, database):
        upgrade(revision="0017_assignment_test_date")
        columns = {c["name"] for c in inspect(db.engine).get_columns("assignment")}
        indexes = {i["name"] for i in inspect(db.engine).get_indexes("assignment")}
        assert {"test_on", "test_target"} <= columns and "ix_assignment_class_test" in indexes
        downgrade(revision="0016_memory_weights")
        columns = {c["name"] for c in inspect(db.engine).get_columns("assignment")}
        indexes = {i["name"] for i in inspect(db.engine).get_indexes("assignment")}
        assert (
            not {"test_on", "test_target"} & columns and "ix_assignment_class_test" not in indexes
        )
        assert {"class_id", "due_at", "time_zone"} <= columns
        upgrade(revision="0017_assignment_test_date")
        assert {"test_on", "test_target"} <= {
            c["name"] for c in inspect(db.engine).get_columns("assignment")
        }


def test_the_preview_follows_each_students_own_memory_model(world, app):
    """P-M11 with P-M10: a student with fitted weights (decay 0.5): the preview is that student's
    own figure, not the standard weights'. (Denver at stability 2 days, a test in 15: at 95% the
    flatter curve keeps recall up a day longer after each review: 4 reviews, not 5.)"""
    from trainer.web.models import MemoryWeights

    test_on = today() + dt.timedelta(days=15)
    set_memory(app, world.student.id, "CO:capital", 2.0, 1)
    url = f"/teach/classes/{world.class_a}/assignments/preview"
    query = {
        "activities": "review",
        "facets": "capital",
        "states": "CO",
        "test_on": test_on.isoformat(),
        "who": "everyone",
    }
    client = world.client("teacher")
    standard = rows_of(client.get(url, query_string=query).get_data(as_text=True))
    own = list(srs.DEFAULT_WEIGHTS)
    own[20] = 0.5
    with app.app_context():
        db.session.add(
            MemoryWeights(
                student_id=world.student.id,
                weights=own,
                attempted_at=utcnow(),
                attempt_answers=0,
                attempt_result="test",
            )
        )
        db.session.commit()
        with_own = class_preview([world.student.id], ["CO:capital"], test_on)
        with_standard = workloads(
            memories_of(db.session.get(User, world.student.id), ["CO:capital"]),
            ["CO:capital"],
            today(),
            test_on,
            TEST_TARGETS,
            "UTC",
            20,
        )
    fitted = rows_of(client.get(url, query_string=query).get_data(as_text=True))
    assert fitted == expected_rows(app, world.student.id, ["CO:capital"], test_on) and standard
    assert [o.per_day for o in with_own.rows] != [w.per_day for w in with_standard]


def test_setting_a_test_day_brings_in_the_facts_already_scheduled_past_it(world, app):
    """P-M9: Denver was reviewed 3 days ago at stability 4 (due in a month, say): a test in 6 days
    at 90% cannot wait for it; the due moves to the last day at 90%, 4 days after the review:
    tomorrow. Austin, known for years, keeps its due; Utah is outside the scope."""
    for key, stability in (("CO:capital", 4.0), ("TX:capital", 3000.0), ("UT:capital", 4.0)):
        set_memory(app, world.student.id, key, stability, 3)
    with app.app_context():
        student = db.session.get(User, world.student.id)
        db.session.execute(
            db.update(MemoryCard)
            .where(MemoryCard.student_id == student.id)
            .values(due=utcnow() + dt.timedelta(days=30))
        )
        db.session.commit()
        before = memories_of(student, ["CO:capital", "TX:capital", "UT:capital"])
    assert create(world, **capitals_of_co_and_tx(test_on=days(6))).status_code == 302
    with app.app_context():
        after = memories_of(
            db.session.get(User, world.student.id), ["CO:capital", "TX:capital", "UT:capital"]
        )
    reviewed_on = srs.study_day(before["CO:capital"].last_review, "UTC").date
    assert after["CO:capital"].due == day_start(
        reviewed_on + dt.timedelta(days=days_at_or_above(4.0, 0.9)), "UTC"
    )
    assert after["CO:capital"].due == day_start(today() + dt.timedelta(days=1), "UTC")
    assert (
        after["TX:capital"] == before["TX:capital"] and after["UT:capital"] == before["UT:capital"]
    )


def test_moving_the_test_day_earlier_brings_the_facts_in_again(world, app):
    set_memory(app, world.student.id, "CO:capital", 30.0, 0)
    with app.app_context():
        db.session.execute(db.update(MemoryCard).values(due=utcnow() + dt.timedelta(days=60)))
        db.session.commit()
    assert (
        create(world, **capitals_of_co_and_tx(test_on=days(20))).status_code == 302
    )  # 30 days of stability: on track
    [row] = assignments(app)
    with app.app_context():
        untouched = memories_of(db.session.get(User, world.student.id), ["CO:capital"])[
            "CO:capital"
        ]
    assert untouched.due > utcnow() + dt.timedelta(days=59)
    assert (
        post(
            world.client("teacher"),
            url_of_test_day(world, row.id),
            {"test_on": days(20), "test_target": "95"},
        ).status_code
        == 302
    )
    with app.app_context():
        pulled = memories_of(db.session.get(User, world.student.id), ["CO:capital"])["CO:capital"]
    reviewed_on = srs.study_day(pulled.last_review, "UTC").date
    assert pulled.due == day_start(
        reviewed_on + dt.timedelta(days=days_at_or_above(30.0, 0.95)), "UTC"
    )
    assert pulled.due < day_start(today() + dt.timedelta(days=20), "UTC")
