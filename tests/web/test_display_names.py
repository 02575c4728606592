"""Students' real names that only their class's teacher sees (issue 24).

The teacher of a class gives a student a real name (on the student's page, or from the list the
accounts were made from). It is kept per class membership: shown on that teacher's pages of the
class ("Maria García Qx (maria.g2)"), the login slips and both CSV downloads; never to the
student, and not to the teacher of another class the same student is in. (Every route and role:
tests/web/test_access.py, whose world gives its student a real name.)
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from dataclasses import dataclass
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from tests.conftest import client_for, csrf_token, make_user
from trainer.web.extensions import db
from trainer.web.models import Assignment, ClassMembership, Role, SchoolClass, User, utcnow
from trainer.web.teach.names import shown_name

REAL_NAME = "Maria García Qx"
USERNAME = "maria.g2"
SHOWN = f"{REAL_NAME} ({USERNAME})"


@dataclass
class World:
    """Ms Tan's class Owls (maria.g2, jose.a); Mr Ode's class Foxes also has maria.g2."""

    app: Flask
    maria: int
    jose: int
    owls: int
    foxes: int

    def client(self, who: str) -> FlaskClient:
        return client_for(self.app, who)

    def student_url(self, class_id: int | None = None, student_id: int | None = None) -> str:
        return f"/teach/classes/{class_id or self.owls}/students/{student_id or self.maria}"

    def name_url(self, class_id: int | None = None, student_id: int | None = None) -> str:
        return self.student_url(class_id, student_id) + "/name"

    def stored(self, class_id: int | None = None) -> str | None:
        with self.app.app_context():
            return db.session.execute(
                select(ClassMembership.display_name).where(
                    ClassMembership.class_id == (class_id or self.owls),
                    ClassMembership.student_id == self.maria,
                )
            ).scalar_one()


@pytest.fixture
def world(app: Flask) -> World:
    tan = make_user(app, "ms.tan", role=Role.TEACHER)
    ode = make_user(app, "mr.ode", role=Role.TEACHER)
    maria = make_user(app, USERNAME, managed_by_id=tan.id)
    jose = make_user(app, "jose.a", managed_by_id=tan.id)
    with app.app_context():
        owls = SchoolClass(teacher_id=tan.id, name="Owls", join_code="ABCDEFGH")
        foxes = SchoolClass(teacher_id=ode.id, name="Foxes", join_code="JKMNPQRS")
        db.session.add_all([owls, foxes])
        db.session.flush()
        db.session.add_all(
            [
                ClassMembership(class_id=owls.id, student_id=maria.id),
                ClassMembership(class_id=owls.id, student_id=jose.id),
                ClassMembership(class_id=foxes.id, student_id=maria.id),
            ]
        )
        now = utcnow()
        db.session.add(
            Assignment(
                class_id=owls.id,
                title="Owl homework",
                activities=["state-iq"],
                scope={"facets": [], "area": "", "states": []},
                amount="rounds",
                quantity=2,
                starts_at=now - dt.timedelta(days=1),
                due_at=now + dt.timedelta(days=6),
                time_zone="UTC",
                everyone=True,
            )
        )
        db.session.commit()
        return World(app, maria.id, jose.id, owls.id, foxes.id)


def set_name(world: World, name: str, who: str = "ms.tan", class_id: int | None = None):
    client = world.client(who)
    token = csrf_token(client, world.student_url(class_id))
    return client.post(world.name_url(class_id), data={"csrf_token": token, "display_name": name})


def page(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return unescape(response.get_data(as_text=True))


def test_one_helper_writes_a_student_as_name_and_username():
    assert shown_name("maria.g2", "Maria García") == "Maria García (maria.g2)"
    assert shown_name("maria.g2", None) == "maria.g2"
    assert shown_name("maria.g2", "") == "maria.g2"


def test_the_teacher_sets_a_name_and_sees_it_on_the_class_pages(world):
    response = set_name(world, "  Maria   García Qx ")
    assert response.status_code == 302
    assert world.stored() == REAL_NAME  # spaces tidied as every typed name (P-H12)
    teacher = world.client("ms.tan")
    student_page = page(teacher, world.student_url())
    assert f'<h1 id="student-title">{SHOWN}</h1>' in student_page
    assert f'value="{REAL_NAME}"' in student_page  # the form shows the name to change it
    class_page = page(teacher, f"/teach/classes/{world.owls}")
    # The students table and the assignment ticks table both name her.
    assert class_page.count(SHOWN) >= 2
    assert "jose.a" in class_page and "(jose.a)" not in class_page  # no name given: username only
    with world.app.app_context():
        assignment_id = db.session.execute(select(Assignment.id)).scalar_one()
    assert SHOWN in page(teacher, f"/teach/classes/{world.owls}/assignments/{assignment_id}")


def test_the_name_is_in_both_downloads_in_its_own_column(world):
    set_name(world, REAL_NAME)
    teacher = world.client("ms.tan")
    progress = list(
        csv.reader(
            io.StringIO(
                teacher.get(f"/teach/classes/{world.owls}/progress.csv").text.lstrip("\ufeff")
            )
        )
    )
    assert progress[0][:2] == ["student", "name"]
    assert sorted(row[:2] for row in progress[1:]) == [["jose.a", ""], [USERNAME, REAL_NAME]]
    # An answer of Maria's today, in the answers download.
    student = world.client(USERNAME)
    start = student.post("/study/rounds", data={"csrf_token": csrf_token(student, "/study/")})
    assert start.status_code == 302
    round_url = start.headers["Location"]  # its first question
    token = csrf_token(student, round_url)
    assert student.post(round_url, data={"csrf_token": token, "dont_know": "y"}).status_code == 302
    today = utcnow().date()
    days = f"start={(today - dt.timedelta(days=1)).isoformat()}&end={(today + dt.timedelta(days=1)).isoformat()}"
    text = teacher.get(f"/teach/classes/{world.owls}/reviews.csv?{days}").text
    answers = list(csv.reader(io.StringIO(text.lstrip("\ufeff"), newline="")))
    assert answers[0][:2] == ["student", "name"]
    assert len(answers) > 1
    assert all(row[:2] == [USERNAME, REAL_NAME] for row in answers[1:])
    # Having practised, she is on the class dashboard's "most at risk" chart, named the same way.
    dashboard = teacher.get(f"/progress/classes/{world.owls}").get_data(as_text=True)
    assert SHOWN in dashboard


def test_accounts_made_from_a_list_keep_the_typed_names(world):
    client = world.client("ms.tan")
    url = f"/teach/classes/{world.owls}/students/new"
    html = client.get(url).get_data(as_text=True)
    batch = re.search(r'name="batch" type="hidden" value="([^"]+)"', html).group(1)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)
    response = client.post(
        url, data={"csrf_token": token, "batch": batch, "names": "Ana López\nOkafor, Ben\n"}
    )
    assert response.status_code == 200
    slips = unescape(response.get_data(as_text=True))
    assert "Ana López" in slips and "Ben Okafor" in slips  # on the slips, to find one's own
    with world.app.app_context():
        names = dict(
            db.session.execute(
                select(User.username, ClassMembership.display_name)
                .join(ClassMembership, ClassMembership.student_id == User.id)
                .where(ClassMembership.class_id == world.owls)
            ).all()
        )
    assert names == {USERNAME: None, "jose.a": None, "ana.l": "Ana López", "ben.o": "Ben Okafor"}
    class_page = page(client, f"/teach/classes/{world.owls}")
    assert "Ana López (ana.l)" in class_page and "Ben Okafor (ben.o)" in class_page


def test_a_new_password_slip_carries_the_name(world):
    set_name(world, REAL_NAME)
    client = world.client("ms.tan")
    token = csrf_token(client, world.student_url())
    response = client.post(world.student_url() + "/password", data={"csrf_token": token})
    assert response.status_code == 200
    assert REAL_NAME in unescape(response.get_data(as_text=True))


def test_an_empty_name_clears_it(world):
    set_name(world, REAL_NAME)
    assert set_name(world, "   ").status_code == 302
    assert world.stored() is None
    student_page = page(world.client("ms.tan"), world.student_url())
    assert f'<h1 id="student-title">{USERNAME}</h1>' in student_page
    assert REAL_NAME not in student_page


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Maria\u202egnol", "hidden character (U+202E)"),
        ("M" * 61, "at most 60 characters"),
    ],
)
def test_a_name_that_cannot_be_kept_is_explained_and_changes_nothing(world, name, message):
    set_name(world, REAL_NAME)
    response = set_name(world, name)
    assert response.status_code == 400
    assert message in unescape(response.get_data(as_text=True))
    assert world.stored() == REAL_NAME


def test_the_name_form_needs_its_csrf_token(world):
    response = world.client("ms.tan").post(world.name_url(), data={"display_name": REAL_NAME})
    assert response.status_code == 400
    assert world.stored() is None


@pytest.mark.parametrize(("who", "status"), [("mr.ode", 404), (USERNAME, 403), ("jose.a", 403)])
def test_only_the_classs_teacher_may_set_a_name(world, who, status):
    client = world.client(who)
    # A CSRF token from a page this user may open: the name form is the only thing refused.
    token = csrf_token(client, "/")
    response = client.post(world.name_url(), data={"csrf_token": token, "display_name": "X Y"})
    assert response.status_code == status
    assert world.stored() is None


def test_the_name_belongs_to_one_class_its_teachers_only(world):
    """Maria is in Ms Tan's Owls and Mr Ode's Foxes: each teacher's name for her stays theirs."""
    set_name(world, REAL_NAME)
    assert set_name(world, "Mia from Foxes", who="mr.ode", class_id=world.foxes).status_code == 302
    assert world.stored() == REAL_NAME and world.stored(world.foxes) == "Mia from Foxes"
    ode = world.client("mr.ode")
    for url in (
        f"/teach/classes/{world.foxes}",
        world.student_url(world.foxes),
        f"/teach/classes/{world.foxes}/progress.csv",
        "/teach/",
    ):
        body = unescape(ode.get(url).get_data(as_text=True))
        assert REAL_NAME not in body, url
    tan = world.client("ms.tan")
    assert "Mia from Foxes" not in page(tan, f"/teach/classes/{world.owls}")


def test_the_student_never_sees_their_real_name(world):
    set_name(world, REAL_NAME)
    client = world.client(USERNAME)
    for url in (
        "/",
        "/study/",
        "/assignments/",
        "/teach/join",
        f"/teach/my-classes/{world.owls}/leave",
        "/progress/",
        "/progress/album/",
        "/tournaments/",
        "/auth/password",
    ):
        response = client.get(url)
        assert response.status_code in (200, 302), url
        assert REAL_NAME not in unescape(response.get_data(as_text=True)), url
