"""Editing an assignment (issue #24): the new-assignment form, filled in; saving changes dates,
scope, students, goal and title, progress follows from the log, and bad input changes nothing."""

from __future__ import annotations

import datetime as dt
from html import unescape

import pytest
from sqlalchemy import select

from tests.web.test_assignments import (
    assignments,
    create,
    finished_state_iq,
    form_data,
    make_assignment,
    today,
)
from tests.web.test_teach import World, add_member, main_of, post
from trainer.web.extensions import db
from trainer.web.models import Assignment, AssignmentStudent, utcnow
from trainer.web.progress import dates_of, progress
from trainer.web.teach import assignments as assignments_views


def edit_url(world: World, aid: int, class_id: int | None = None) -> str:
    return (
        f"/teach/classes/{world.class_a if class_id is None else class_id}/assignments/{aid}/edit"
    )


def edit(world: World, aid: int, client=None, **overrides):
    return post(client or world.client("teacher"), edit_url(world, aid), form_data(**overrides))


def state(world: World) -> list[tuple]:
    """Everything an edit could change: the assignments' columns and their lists of students."""
    rows = [
        (
            a.id,
            a.title,
            a.activities,
            a.scope,
            a.amount,
            a.quantity,
            a.target,
            a.starts_at,
            a.due_at,
            a.everyone,
            a.test_on,
            a.test_target,
        )
        for a in assignments(world.app)
    ]
    with world.app.app_context():
        chosen = db.session.execute(
            select(AssignmentStudent.assignment_id, AssignmentStudent.student_id).order_by(
                AssignmentStudent.id
            )
        ).all()
    return [*rows, *chosen]


def only(world: World) -> Assignment:
    (assignment,) = assignments(world.app)
    return assignment


def test_the_assignment_page_has_an_edit_link(world):
    aid = make_assignment(world.app, world.class_a)
    html = world.client("teacher").get(f"/teach/classes/{world.class_a}/assignments/{aid}")
    assert f'href="{edit_url(world, aid)}"' in html.get_data(as_text=True)


def test_the_edit_form_is_filled_in(world):
    assert (
        create(world, title="Capitals week", quantity="3", states="Texas, Ohio").status_code == 302
    )
    aid = only(world).id
    response = world.client("teacher").get(edit_url(world, aid))
    assert response.status_code == 200
    html = unescape(main_of(response.get_data(as_text=True)))
    assert "Edit “Capitals week”" in html and "Save the changes" in html
    assert f'action="{edit_url(world, aid)}"' in html
    assert 'value="Capitals week"' in html
    assert 'name="quantity" type="number" value="3"' in html
    assert "OH, TX" in html
    assert f'value="{(today() + dt.timedelta(days=7)).isoformat()}"' in html
    assert 'name="activities" value="state-iq" checked' in html
    assert 'name="activities" value="review" checked' not in html
    assert 'name="who" value="everyone" checked' in html


def test_an_edit_changes_what_it_should(world):
    add_member(world.app, world.class_a, world.loner.id)
    assert create(world, title="Week 1").status_code == 302
    before = only(world)
    due = today() + dt.timedelta(days=14)
    response = edit(
        world,
        before.id,
        title="Week 1 and 2",
        activities=["state-iq", "review"],
        amount="reviews",
        quantity="40",
        due_on=due.isoformat(),
        area="region:west",
        states="Texas",
        who="some",
        students=[str(world.loner.id)],
    )
    assert response.status_code == 302
    after = only(world)
    assert after.id == before.id and after.created_at == before.created_at
    assert after.title == "Week 1 and 2"
    assert after.activities == ["state-iq", "review"]
    assert after.amount == "reviews" and after.quantity == 40 and after.target is None
    assert after.scope["area"] == "region:west" and after.scope["states"] == ["TX"]
    with world.app.app_context():
        assert dates_of(db.session.get(Assignment, after.id))[1] == due
        chosen = db.session.execute(
            select(AssignmentStudent.student_id).where(AssignmentStudent.assignment_id == after.id)
        ).scalars()
        assert list(chosen) == [world.loner.id]
    assert after.everyone is False

    # Back to everyone: the list of students goes.
    assert edit(world, after.id, title="Week 1 and 2").status_code == 302
    with world.app.app_context():
        assert db.session.execute(select(AssignmentStudent)).first() is None
    assert only(world).everyone is True


def test_progress_follows_the_edit(world):
    aid = make_assignment(world.app, world.class_a, quantity=2)
    finished_state_iq(world.app, world.student.id, utcnow() - dt.timedelta(hours=1), "g-1", aid)

    def done() -> tuple[int, int, str]:
        with world.app.app_context():
            p = progress(db.session.get(Assignment, aid), [world.student.id], utcnow())[
                world.student.id
            ]
            return p.done, p.needed, p.status.value

    assert done() == (1, 2, "in progress")
    start = (today() - dt.timedelta(days=1)).isoformat()
    assert edit(world, aid, quantity="1", starts_on=start, title="Practice").status_code == 302
    assert done() == (1, 1, "done")


def test_a_default_title_follows_the_edit(world):
    assert create(world, quantity="5").status_code == 302
    old = only(world)
    form = world.client("teacher").get(edit_url(world, old.id)).get_data(as_text=True)
    assert f'value="{old.title}"' not in form  # the app's own title: left empty, so it follows
    assert edit(world, old.id, quantity="7").status_code == 302
    new = only(world)
    assert new.title != old.title and "7" in new.title


@pytest.mark.parametrize(
    "changes, message",
    [
        (
            {
                "due_on": (today() - dt.timedelta(days=2)).isoformat(),
                "starts_on": (today() - dt.timedelta(days=3)).isoformat(),
            },
            "That due date has passed",
        ),
        (
            {"due_on": (today() - dt.timedelta(days=1)).isoformat()},
            "The due date is before the start date",
        ),
        ({"activities": None}, "Choose at least one activity."),
        ({"states": "Texas, Atlantis"}, "These are not US states: “Atlantis”"),
        ({"quantity": "0"}, "Type how many rounds"),
        ({"who": "some", "students": None}, "Tick at least one student"),
        ({"title": "x" * 81}, "Keep the title under 80 characters."),
    ],
)
def test_a_bad_edit_is_explained_and_changes_nothing(world, changes, message):
    assert create(world, title="Week 1").status_code == 302
    before = state(world)
    response = edit(world, only(world).id, **changes)
    assert response.status_code == 400
    assert message in unescape(response.get_data(as_text=True))
    assert state(world) == before


def test_a_passed_due_date_kept_as_it_was_may_stay(world):
    """An overdue assignment can still be renamed without moving its due date."""
    now = utcnow()
    aid = make_assignment(
        world.app,
        world.class_a,
        starts_at=now - dt.timedelta(days=10),
        due_at=now - dt.timedelta(days=3),
    )
    with world.app.app_context():
        starts_on, due_on = dates_of(db.session.get(Assignment, aid))
    response = edit(
        world,
        aid,
        title="Renamed",
        starts_on=starts_on.isoformat(),
        due_on=due_on.isoformat(),
        quantity="2",
    )
    assert response.status_code == 302
    assert only(world).title == "Renamed"


def test_a_new_test_day_re_aims_the_schedule(world, monkeypatch):
    assert create(world, title="Week 1").status_code == 302
    aimed: list[dt.date | None] = []
    monkeypatch.setattr(assignments_views, "aim_now", lambda a: aimed.append(a.test_on) or 0)
    test_on = today() + dt.timedelta(days=5)
    assert (
        edit(world, only(world).id, test_on=test_on.isoformat(), test_target="85").status_code
        == 302
    )
    assert aimed == [test_on]
    assert only(world).test_on == test_on and only(world).test_target == 0.85


def test_preview_without_script_saves_nothing(world):
    assert create(world, title="Week 1").status_code == 302
    before = state(world)
    test_on = (today() + dt.timedelta(days=3)).isoformat()
    response = edit(world, only(world).id, title="Changed", test_on=test_on, preview="1")
    assert response.status_code == 200
    assert "Daily work for the test day" in response.get_data(as_text=True)
    assert state(world) == before


@pytest.mark.parametrize("who, status", [(None, 302), ("student", 403), ("other_teacher", 404)])
def test_only_the_class_teacher_edits(world, who, status):
    assert create(world, title="Week 1").status_code == 302
    before = state(world)
    aid = only(world).id
    client = world.client(who)
    assert client.get(edit_url(world, aid)).status_code == status
    assert edit(world, aid, client=client, title="Taken over").status_code == status
    assert state(world) == before


def test_another_class_assignment_cannot_be_edited_through_ones_own_class(world):
    aid = make_assignment(world.app, world.class_b)
    before = state(world)
    response = edit(world, aid, title="Taken over")
    assert response.status_code == 404
    assert state(world) == before
