"""Confirm or undo (issue #24): taking a student out of a class can be undone for a while, and
deleting an assignment asks first, naming what will be lost."""

from __future__ import annotations

import datetime as dt
import re
import time
from html import unescape

import pytest
from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from sqlalchemy import select

from tests.web.test_assignments import count, finished_state_iq, make_assignment
from tests.web.test_security import assert_strict_page
from tests.web.test_teach import CODE_A, World, main_of, post
from trainer.web.extensions import db
from trainer.web.models import Assignment, ClassMembership, StateIqGame, utcnow
from trainer.web.progress import progress
from trainer.web.teach import undo

JOINED = dt.datetime(2026, 9, 3, 8, 15, 30, tzinfo=dt.UTC)


def membership_rows(world: World) -> list[dict]:
    """Every membership, every column but the id (which an undo need not keep)."""
    with world.app.app_context():
        columns = [c for c in ClassMembership.__table__.columns if not c.primary_key]
        rows = db.session.execute(
            select(*columns).order_by(ClassMembership.class_id, ClassMembership.student_id)
        ).all()
        return [dict(row._mapping) for row in rows]


def set_joined(world: World) -> None:
    with world.app.app_context():
        membership = db.session.execute(
            select(ClassMembership).where(ClassMembership.student_id == world.student.id)
        ).scalar_one()
        membership.joined_at = JOINED
        db.session.commit()


def remove(world: World, client) -> str:
    """Take river out of Room 12 with ``client``; the "Removed" page it is sent to."""
    response = post(client, f"/teach/classes/{world.class_a}/students/{world.student.id}/remove")
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/teach/classes/{world.class_a}/removed")
    return client.get(response.headers["Location"]).get_data(as_text=True)


def undo_token(page: str) -> str:
    match = re.search(r'name="token" value="([^"]+)"', page)
    assert match, "no Undo button"
    return unescape(match.group(1))


def undo_with(world: World, client, token: str, class_id: int | None = None):
    class_id = world.class_a if class_id is None else class_id
    return post(
        client, f"/teach/classes/{class_id}/removed/undo", {"token": token}, follow_redirects=True
    )


def in_class(world: World) -> bool:
    return any(
        row["class_id"] == world.class_a and row["student_id"] == world.student.id
        for row in membership_rows(world)
    )


# --- Taking a student out, and undoing it -----------------------------------------------------


def test_remove_then_undo_puts_the_student_back_exactly(world):
    set_joined(world)
    aid = make_assignment(world.app, world.class_a, quantity=2)
    finished_state_iq(world.app, world.student.id, utcnow() - dt.timedelta(hours=1), "g-1", aid)
    with world.app.app_context():
        before_progress = progress(db.session.get(Assignment, aid), [world.student.id], utcnow())
    before = membership_rows(world)

    teacher = world.client("teacher")
    page = remove(world, teacher)
    assert not in_class(world)
    text = main_of(page)
    assert "river is no longer in Room 12" in page
    assert "Undo: put river back in Room 12" in text and "15 minutes" in text

    response = undo_with(world, teacher, undo_token(page))
    assert response.status_code == 200
    assert "river is back in Room 12, as before." in response.get_data(as_text=True)
    assert membership_rows(world) == before  # joined_at and every other column as they were
    with world.app.app_context():
        after_progress = progress(db.session.get(Assignment, aid), [world.student.id], utcnow())
    assert after_progress == before_progress and after_progress[world.student.id].done == 1
    # Back in the class: the teacher reaches the student's page again.
    assert (
        teacher.get(f"/teach/classes/{world.class_a}/students/{world.student.id}").status_code
        == 200
    )
    # The "Removed" page no longer offers the undo.
    page = teacher.get(f"/teach/classes/{world.class_a}/removed").get_data(as_text=True)
    assert "There is nothing to undo here" in page and 'name="token"' not in page


def test_an_undo_acts_once(world):
    teacher = world.client("teacher")
    token = undo_token(remove(world, teacher))
    assert undo_with(world, teacher, token).status_code == 200
    after_first = membership_rows(world)
    response = undo_with(world, teacher, token)
    assert "river is already in Room 12. Nothing was changed." in response.get_data(as_text=True)
    assert membership_rows(world) == after_first


def test_an_undo_after_the_student_joined_again_changes_nothing(world):
    teacher = world.client("teacher")
    token = undo_token(remove(world, teacher))
    assert post(world.client("student"), "/teach/join", {"code": CODE_A}).status_code == 302
    rejoined = membership_rows(world)
    response = undo_with(world, teacher, token)
    assert "river is already in Room 12. Nothing was changed." in response.get_data(as_text=True)
    assert membership_rows(world) == rejoined


def test_an_undo_after_the_window_changes_nothing(world, monkeypatch):
    teacher = world.client("teacher")
    token = undo_token(remove(world, teacher))
    later = int(time.time()) + undo.UNDO_SECONDS + 60
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: later)
    before = membership_rows(world)
    response = undo_with(world, teacher, token)
    html = response.get_data(as_text=True)
    assert "Too late to undo: a removal can be undone for 15 minutes. Nothing was changed." in html
    assert membership_rows(world) == before and not in_class(world)
    page = teacher.get(f"/teach/classes/{world.class_a}/removed").get_data(as_text=True)
    assert 'name="token"' not in page


def test_another_teacher_cannot_undo(world):
    teacher = world.client("teacher")
    token = undo_token(remove(world, teacher))
    before = membership_rows(world)
    other = world.client("other_teacher")
    # Not their class: not found.
    assert (
        post(other, f"/teach/classes/{world.class_a}/removed/undo", {"token": token}).status_code
        == 404
    )
    assert other.get(f"/teach/classes/{world.class_a}/removed").status_code == 404
    # Their own class, with the other teacher's token: refused, and said so.
    response = undo_with(world, other, token, class_id=world.class_b)
    assert "That Undo button is not for this class. Nothing was changed." in response.get_data(
        as_text=True
    )
    # Nor can a student, nor anyone logged out.
    assert (
        post(
            world.client("student"),
            f"/teach/classes/{world.class_a}/removed/undo",
            {"token": token},
        ).status_code
        == 403
    )
    assert membership_rows(world) == before and not in_class(world)


@pytest.mark.parametrize("how", ["altered", "other key", "garbage", "empty"])
def test_a_forged_undo_changes_nothing(world, how):
    teacher = world.client("teacher")
    token = undo_token(remove(world, teacher))
    if how == "altered":
        forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    elif how == "other key":
        with world.app.app_context():
            data = URLSafeTimedSerializer(world.app.secret_key, salt="teach.undo-remove").loads(
                token
            )
        forged = URLSafeTimedSerializer("not the app's key", salt="teach.undo-remove").dumps(data)
    elif how == "garbage":
        forged = "hello.world"
    else:
        forged = ""
    before = membership_rows(world)
    response = undo_with(world, teacher, forged)
    assert "That Undo button is not valid. Nothing was changed." in response.get_data(as_text=True)
    assert membership_rows(world) == before and not in_class(world)


def test_a_token_for_another_student_or_class_is_refused(world):
    """A token signed by the app but for another class (moved to this URL) changes nothing."""
    teacher = world.client("teacher")
    token = undo_token(remove(world, teacher))
    with world.app.app_context():
        serializer = URLSafeTimedSerializer(world.app.secret_key, salt="teach.undo-remove")
        data = serializer.loads(token)
        data["row"]["class_id"] = world.class_b
        moved = serializer.dumps(data)
    response = undo_with(world, teacher, moved)
    assert "That Undo button is not for this class. Nothing was changed." in response.get_data(
        as_text=True
    )
    assert not in_class(world)


def test_an_undo_needs_a_csrf_token(world):
    teacher = world.client("teacher")
    token = undo_token(remove(world, teacher))
    response = teacher.post(f"/teach/classes/{world.class_a}/removed/undo", data={"token": token})
    assert response.status_code == 400
    assert not in_class(world)


def test_the_removed_page_with_nothing_to_undo(world):
    page = world.client("teacher").get(f"/teach/classes/{world.class_a}/removed")
    assert page.status_code == 200
    html = main_of(page.get_data(as_text=True))
    assert "There is nothing to undo here" in html and "Back to Room 12" in html


# --- Deleting an assignment asks first ----------------------------------------------------------


def test_the_assignment_page_links_to_the_question_not_a_one_click_delete(world):
    aid = make_assignment(world.app, world.class_a)
    html = main_of(
        world.client("teacher")
        .get(f"/teach/classes/{world.class_a}/assignments/{aid}")
        .get_data(as_text=True)
    )
    delete_url = f"/teach/classes/{world.class_a}/assignments/{aid}/delete"
    assert f'href="{delete_url}"' in html
    assert f'action="{delete_url}"' not in html


def test_deleting_an_assignment_asks_first_naming_what_is_lost(world):
    aid = make_assignment(world.app, world.class_a, quantity=2)
    finished_state_iq(world.app, world.student.id, utcnow() - dt.timedelta(hours=1), "g-1", aid)
    teacher = world.client("teacher")
    url = f"/teach/classes/{world.class_a}/assignments/{aid}/delete"
    response = teacher.get(url)
    assert response.status_code == 200
    html = unescape(main_of(response.get_data(as_text=True)))
    assert "<h1" in html and "Delete “Practice”?" in html
    assert "1 of 1 student has made progress on it" in html
    assert "stays in their learning history" in html
    assert 'name="confirmed" value="yes"' in html and "Keep it" in html
    assert count(world.app, Assignment) == 1  # asking changes nothing

    # A POST without the page's confirmation only asks.
    response = post(teacher, url)
    assert response.status_code == 302 and response.headers["Location"].endswith(url)
    assert count(world.app, Assignment) == 1

    response = post(teacher, url, {"confirmed": "yes"}, follow_redirects=True)
    assert "Assignment “Practice” deleted." in unescape(response.get_data(as_text=True))
    assert count(world.app, Assignment) == 0 and count(world.app, StateIqGame) == 1


def test_the_delete_question_without_progress(world):
    aid = make_assignment(world.app, world.class_a)
    html = main_of(
        world.client("teacher")
        .get(f"/teach/classes/{world.class_a}/assignments/{aid}/delete")
        .get_data(as_text=True)
    )
    assert "none of its 1 student has made progress on it yet" in html


@pytest.mark.parametrize("who, status", [(None, 302), ("student", 403), ("other_teacher", 404)])
def test_only_the_class_teacher_sees_the_delete_question(world, who, status):
    aid = make_assignment(world.app, world.class_a)
    response = world.client(who).get(f"/teach/classes/{world.class_a}/assignments/{aid}/delete")
    assert response.status_code == status
    assert "Practice" not in response.get_data(as_text=True)
    assert count(world.app, Assignment) == 1


def test_the_new_pages_hold_under_the_strict_csp(world):
    aid = make_assignment(world.app, world.class_a)
    teacher = world.client("teacher")
    pages = [
        remove(world, teacher),
        teacher.get(f"/teach/classes/{world.class_a}/assignments/{aid}/delete").get_data(
            as_text=True
        ),
        teacher.get(f"/teach/classes/{world.class_a}/assignments/{aid}/edit").get_data(
            as_text=True
        ),
    ]
    for html in pages:
        assert_strict_page(html)
        assert html.count("<h1") == 1
