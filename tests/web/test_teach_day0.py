"""Issue 24: a new class is calm (P-S5), the teacher previews their join link, charts with no data
say so in words."""

# ruff: noqa: F811  (``world`` is the fixture of test_teach_insights, taken as a parameter)

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from flask import Flask
from sqlalchemy import update

from tests.web.test_security import assert_strict_page
from tests.web.test_teach import main_of
from tests.web.test_teach_insights import NOW, World, answer, world  # noqa: F401  (the fixture)
from trainer import figures
from trainer.dashboard_data import CompletionPoint
from trainer.web.dashboard import routes as dashboard_routes
from trainer.web.extensions import db
from trainer.web.models import Assignment, ClassMembership, User
from trainer.web.teach import insights

DAY = dt.timedelta(days=1)


def joined(app: Flask, class_id: int, student: User, when: dt.datetime) -> None:
    with app.app_context():
        db.session.execute(
            update(ClassMembership)
            .where(ClassMembership.class_id == class_id, ClassMembership.student_id == student.id)
            .values(joined_at=when)
        )
        db.session.commit()


def set_assignment(app: Flask, class_id: int, starts_at: dt.datetime) -> None:
    with app.app_context():
        db.session.add(
            Assignment(
                class_id=class_id,
                title="Capitals",
                activities=["review"],
                scope={"facets": ["capital"], "area": "", "states": []},
                amount="reviews",
                quantity=10,
                starts_at=starts_at,
                due_at=starts_at + 7 * DAY,
                time_zone="UTC",
                everyone=True,
            )
        )
        db.session.commit()


def class_page(world: World) -> str:
    response = world.client("teacher").get(f"/teach/classes/{world.class_a}")
    assert response.status_code == 200
    return main_of(response.get_data(as_text=True))


# --- The rule (P-S5) ------------------------------------------------------------------------------


def test_t_d1_two_days_after_joining():
    assert insights.judged_from(NOW) == NOW + 2 * DAY


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        (NOW - 5 * DAY, NOW + DAY),  # opened before the student joined: a day from joining
        (NOW + 6 * dt.timedelta(hours=1), NOW + 30 * dt.timedelta(hours=1)),  # a day after it opens
        (NOW + 3 * DAY, NOW + 2 * DAY),  # opens later than the two days: the two days win
    ],
)
def test_t_d1_a_day_after_an_assignment_opens(start, expected):
    assert insights.judged_from(NOW, [start]) == expected


def test_t_d1_who_is_still_settling_in(world):
    """P-S5: brook joined an hour ago, river three days ago; heron answered at once after joining."""
    joined(world.app, world.class_a, world.brook, NOW - dt.timedelta(hours=1))
    joined(world.app, world.class_a, world.river, NOW - 3 * DAY)
    with world.app.app_context():
        found = insights.settling_in(world.class_a, [world.river.id, world.brook.id], NOW)
    assert found == {world.brook.id: NOW + 2 * DAY - dt.timedelta(hours=1)}
    # Answering anything ends it at once.
    answer(world.app, world.brook, "CO:capital", NOW - dt.timedelta(minutes=5))
    with world.app.app_context():
        assert insights.settling_in(world.class_a, [world.brook.id], NOW) == {}


def test_t_d1_an_assignment_that_opened_a_day_ago_ends_it(world):
    joined(world.app, world.class_a, world.brook, NOW - dt.timedelta(hours=30))
    with world.app.app_context():
        assert world.brook.id in insights.settling_in(world.class_a, [world.brook.id], NOW)
    set_assignment(world.app, world.class_a, NOW - dt.timedelta(hours=25))
    with world.app.app_context():
        assert insights.settling_in(world.class_a, [world.brook.id], NOW) == {}


# --- The class page on day 0 and after ----------------------------------------------------------------


def test_a_new_class_says_what_to_do_next_instead_of_alarms(world):
    """P-S5: minutes after joining, nobody needs help; the page says what to do next."""
    for student in (world.river, world.brook):
        joined(world.app, world.class_a, student, NOW - dt.timedelta(minutes=10))
    html = class_page(world)
    assert "Who needs help" not in html and "Has not practised yet" not in html
    steps = html.split('<h3 id="next-title">What to do next</h3>', 1)[1].split("</ol>", 1)[0]
    assert 'href="#join-title">Share the join code or link</a>' in steps
    assert (
        f'href="/teach/classes/{world.class_a}/students/new">Make accounts and print their login slips</a>'
        in steps
    )
    assert (
        f'href="/teach/classes/{world.class_a}/assignments/new">Set a first assignment</a>' in steps
    )
    assert html.count("Too soon to tell (from Sat 22 Mar)") == 2
    assert_strict_page(html)


def test_after_two_days_a_student_who_never_practised_needs_help(world):
    """P-S5: two days after joining, "Has not practised yet" is said again."""
    joined(world.app, world.class_a, world.brook, NOW - 2 * DAY)
    joined(world.app, world.class_a, world.river, NOW - dt.timedelta(hours=3))
    answer(world.app, world.river, "CO:capital", NOW - dt.timedelta(hours=2))
    html = class_page(world)
    assert "What to do next" not in html  # somebody has practised
    help_box = html.split("Who needs help", 1)[1].split("</ul>", 1)[0]
    assert re.search(r"brook</a>:\s+Has not practised yet", help_box) and "river" not in help_box
    assert "Too soon to tell" not in html


def test_a_class_with_no_students_says_what_to_do_next(app):
    from tests.conftest import client_for, make_user
    from tests.web.test_teach import make_class
    from trainer.web.models import Role

    teacher = make_user(app, "ms_new", role=Role.TEACHER)
    class_id = make_class(app, teacher.id, "Room 1", "ABCDEFGJ")
    html = client_for(app, "ms_new").get(f"/teach/classes/{class_id}").get_data(as_text=True)
    assert "No students yet." in html and "What to do next" in html


# --- The class dashboard on day 0 ----------------------------------------------------------------------


def risk_chart(world: World, monkeypatch) -> str:
    monkeypatch.setattr(dashboard_routes, "utcnow", lambda: NOW)
    response = world.client("teacher").get(f"/progress/classes/{world.class_a}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    return page.split('id="risk-title"', 1)[1].split("</figure>", 1)[0]


def test_the_dashboard_calls_nobody_at_risk_on_day_0(world, monkeypatch):
    for student in (world.river, world.brook):
        joined(world.app, world.class_a, student, NOW - dt.timedelta(minutes=10))
    risk = risk_chart(world, monkeypatch)
    assert (
        "Nobody has had the chance to practise yet: 2 students who joined in the last two days are not shown"
        in risk
    )
    assert "below the" not in risk and "brook" not in risk


def test_the_dashboard_leaves_out_only_the_newcomers(world, monkeypatch):
    joined(world.app, world.class_a, world.river, NOW - 10 * DAY)
    joined(world.app, world.class_a, world.brook, NOW - dt.timedelta(hours=1))
    answer(world.app, world.river, "CO:capital", NOW - 3 * DAY)
    risk = risk_chart(world, monkeypatch)
    assert "river" in risk and "brook" not in risk
    assert (
        "1 student who joined in the last two days is not shown until they have had the chance to practise."
        in risk
    )


# --- Charts with no data ------------------------------------------------------------------------------------


def test_a_completion_chart_with_nobody_finished_has_whole_ticks():
    """The empty completion chart's axis read 1, 1, 1, 0, 0, 0 (ticks of 0.2 printed whole)."""
    points = [CompletionPoint("Capitals", NOW.date(), 0, 25, 0, None, None)]
    layout = json.loads(figures.chart_json(figures.completion(points)))["layout"]
    assert layout["yaxis"]["dtick"] == 1 and layout["yaxis"]["tick0"] == 0


def test_a_count_axis_never_has_fractional_ticks():
    points = [CompletionPoint("Capitals", NOW.date(), 1, 25, 0, None, None)]
    layout = json.loads(figures.chart_json(figures.completion(points)))["layout"]
    assert layout["yaxis"]["dtick"] == 1 and layout["yaxis"]["tick0"] == 0


# --- The join link as its teacher, another teacher and a student see it -------------------------------------


def test_the_teacher_previews_their_own_join_link(world):
    response = world.client("teacher").get("/teach/join/abcd-efgh")
    assert response.status_code == 200
    html = main_of(response.get_data(as_text=True))
    assert "This is what your students see" in html
    assert (
        '<h1 id="join-title">Join Room 12</h1>' in html
        and "Teacher: <strong>ms_lee</strong>" in html
    )
    assert re.search(
        r'<button type="button" class="button button--big" disabled>Join Room 12</button>', html
    )
    assert "<form" not in html
    assert f'href="/teach/classes/{world.class_a}">Back to Room 12</a>' in html
    assert_strict_page(html)


def test_a_teacher_cannot_join_through_the_preview(world):
    from tests.web.test_teach import post

    with world.app.app_context():
        before = db.session.query(ClassMembership).count()
    response = post(world.client("teacher"), "/teach/join/ABCDEFGH")
    assert response.status_code == 400
    with world.app.app_context():
        assert db.session.query(ClassMembership).count() == before


@pytest.mark.parametrize("code", ["ABCDEFGH", "ZZZZZZZZ"])
def test_another_teacher_gets_a_note_that_only_students_join(world, code):
    """Mr Park opens Ms Lee's link (or an unknown one): the same note, nothing of her class."""
    response = world.client("other_teacher").get(f"/teach/join/{code}")
    assert response.status_code == 200
    html = main_of(response.get_data(as_text=True))
    assert "This link is for students" in html and "Teachers do not join classes." in html
    assert "Room 12" not in html and "ms_lee" not in html and code not in html
    assert "Not allowed" not in html


def test_a_student_still_sees_the_join_button(world):
    html = main_of(world.client("heron").get("/teach/join/ABCDEFGH").get_data(as_text=True))
    assert "This is what your students see" not in html
    assert '<button type="submit" class="button button--big">Join Room 12</button>' in html


# --- A student's page on day 0 (P-S5, as the class page) ------------------------------------------


def student_page(world: World, student: User) -> str:
    response = world.client("teacher").get(world.student_url(student))
    assert response.status_code == 200
    return main_of(response.get_data(as_text=True))


def test_a_student_who_just_joined_is_too_soon_to_tell_on_their_page(world):
    """P-S5: minutes after joining, the student's page says when it will tell, not an alarm."""
    joined(world.app, world.class_a, world.brook, NOW - dt.timedelta(minutes=10))
    html = student_page(world, world.brook)
    assert "Has not practised yet" not in html
    assert 'class="help-box"' not in html
    settling = html.split("<p data-settling>", 1)[1].split("</p>", 1)[0]
    assert "Too soon to tell (from Sat 22 Mar)" in settling  # 20 Mar 14:50 + two days
    assert_strict_page(html)


def test_a_student_who_never_practised_needs_help_on_their_page_after_two_days(world):
    """P-S5: two days after joining, the student's page says "Has not practised yet" again."""
    joined(world.app, world.class_a, world.brook, NOW - 2 * DAY)
    html = student_page(world, world.brook)
    assert "Too soon to tell" not in html and "data-settling" not in html
    help_box = html.split('<div class="help-box">', 1)[1].split("</ul>", 1)[0]
    assert "Has not practised yet" in help_box


def test_a_student_who_answered_at_once_is_judged_at_once_on_their_page(world):
    """P-S5: a student who has answered anything has had the chance, minutes after joining."""
    joined(world.app, world.class_a, world.brook, NOW - dt.timedelta(minutes=10))
    answer(world.app, world.brook, "CO:capital", NOW - dt.timedelta(minutes=5))
    html = student_page(world, world.brook)
    assert "Too soon to tell" not in html and "Has not practised yet" not in html
