"""Teachers' classes and student accounts, and students joining: every route, every role, every refusal.

Rulings checked: P-S1 (class study settings), P-S2 (join codes), P-S3 (accounts from a list of
names), P-S4 (taking a student out of a class).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, func, select
from werkzeug.security import check_password_hash

from tests.conftest import AuthActions, client_for, csrf_token, make_user
from tests.web.test_security import assert_strict_page
from trainer import srs
from trainer.facts import Form, Verdict
from trainer.web.extensions import db
from trainer.web.memory import new_allowed_today, record, settings_for, today_for
from trainer.web.models import (
    JOIN_CODE_ALPHABET,
    ClassMembership,
    ReviewLog,
    Role,
    SchoolClass,
    User,
)
from trainer.web.teach import accounts
from trainer.web.teach.accounts import (
    MAX_NAMES,
    OTHER_TEACHERS_ACCOUNT,
    SELF_MADE_ACCOUNT,
    NameListError,
    fold,
    hash_passwords,
    make_password,
    normalise_code,
    parse_names,
    username_base,
    usernames_for,
)

CODE_A = "ABCDEFGH"
CODE_B = "JKMNPQRS"


# --- Factories and helpers -----------------------------------------------------------------------


def make_class(app: Flask, teacher_id: int, name: str, code: str, **columns) -> int:
    with app.app_context():
        klass = SchoolClass(teacher_id=teacher_id, name=name, join_code=code, **columns)
        db.session.add(klass)
        db.session.commit()
        return klass.id


def add_member(app: Flask, class_id: int, student_id: int) -> None:
    with app.app_context():
        db.session.add(ClassMembership(class_id=class_id, student_id=student_id))
        db.session.commit()


def made_by(app: Flask, student_id: int, teacher_id: int) -> None:
    """Record that ``teacher_id`` made the student's account from a list of names (as new_students does)."""
    with app.app_context():
        db.session.get(User, student_id).managed_by_id = teacher_id
        db.session.commit()


def members(app: Flask, class_id: int) -> set[str]:
    with app.app_context():
        rows = db.session.execute(
            select(User.username)
            .join(ClassMembership, ClassMembership.student_id == User.id)
            .where(ClassMembership.class_id == class_id)
        )
        return set(rows.scalars())


def get_class(app: Flask, class_id: int) -> SchoolClass:
    with app.app_context():
        klass = db.session.get(SchoolClass, class_id)
        db.session.expunge(klass)
        return klass


def count(app: Flask, model) -> int:
    with app.app_context():
        return db.session.execute(select(func.count()).select_from(model)).scalar_one()


def get_user(app: Flask, username: str) -> User | None:
    with app.app_context():
        user = db.session.execute(
            select(User).where(User.username_key == username.casefold())
        ).scalar_one_or_none()
        if user is not None:
            db.session.expunge(user)
        return user


def snapshot(app: Flask):
    """Everything a refused request must leave as it was."""
    with app.app_context():
        classes = db.session.execute(
            select(
                SchoolClass.id,
                SchoolClass.teacher_id,
                SchoolClass.name,
                SchoolClass.join_code,
                SchoolClass.joining_open,
                SchoolClass.desired_retention,
                SchoolClass.new_per_day,
            ).order_by(SchoolClass.id)
        ).all()
        memberships = db.session.execute(
            select(ClassMembership.class_id, ClassMembership.student_id).order_by(
                ClassMembership.id
            )
        ).all()
        users = db.session.execute(
            select(User.id, User.username, User.password_hash).order_by(User.id)
        ).all()
        return classes, memberships, users


def token_for(client: FlaskClient) -> str:
    """A CSRF token for the client's session, logged in or not."""
    html = client.get("/auth/login").get_data(as_text=True)
    if 'name="csrf_token"' not in html:
        html = client.get("/").get_data(as_text=True)
    match = re.search(r'name="csrf_token"(?: type="hidden")? value="([^"]+)"', html)
    assert match, "no CSRF token"
    return match.group(1)


def main_of(html: str) -> str:
    """The page's own content, without the header (which names whoever is logged in)."""
    if "<main" not in html:
        return html
    return html.split("<main", 1)[1].split("</main>", 1)[0]


def post(client: FlaskClient, url: str, data: dict | None = None, **kwargs):
    return client.post(url, data={"csrf_token": token_for(client), **(data or {})}, **kwargs)


@dataclass
class World:
    """Two teachers with a class each, a student in each class and one in none."""

    app: Flask
    teacher: User
    other_teacher: User
    student: User
    other_student: User
    loner: User
    class_a: int
    class_b: int

    def client(self, who: str | None) -> FlaskClient:
        return client_for(self.app, None if who is None else getattr(self, who).username)


# --- Access: every teacher route, every role -----------------------------------------------------

TEACHER_ROUTES = [
    ("GET", "/teach/classes/{a}", None),
    ("POST", "/teach/classes/{a}/joining", {"joining": "closed"}),
    ("POST", "/teach/classes/{a}/code", {}),
    ("GET", "/teach/classes/{a}/settings", None),
    (
        "POST",
        "/teach/classes/{a}/settings",
        {"name": "Taken over", "desired_retention": "70", "new_per_day": "0"},
    ),
    ("GET", "/teach/classes/{a}/students/new", None),
    ("POST", "/teach/classes/{a}/students/new", {"names": "Eve Intruder", "batch": "x"}),
    ("GET", "/teach/classes/{a}/students/{s}", None),
    ("POST", "/teach/classes/{a}/students/{s}/password", {}),
    ("POST", "/teach/classes/{a}/students/{s}/remove", {}),
]
#: The class's teacher gets the page (200) or is sent on after a change (302); nobody else gets anything.
ROLES = [
    (None, 302),
    ("student", 403),
    ("other_student", 403),
    ("other_teacher", 404),
    ("teacher", None),
]


@pytest.mark.parametrize(("method", "path", "data"), TEACHER_ROUTES)
@pytest.mark.parametrize(("who", "status"), ROLES)
def test_teacher_routes_for_every_role(world, method, path, data, who, status):
    made_by(
        world.app, world.student.id, world.teacher.id
    )  # so its teacher may give it a new password
    client = world.client(who)
    url = path.format(a=world.class_a, s=world.student.id)
    before = snapshot(world.app)
    response = client.get(url) if method == "GET" else post(client, url, data)
    if who == "teacher":
        assert response.status_code in (200, 302)
        return
    assert response.status_code == status, url
    if status == 302:
        assert response.headers["Location"].startswith("/auth/login?next=")
    html = main_of(response.get_data(as_text=True))
    assert "Room 12" not in html and CODE_A not in html and "river" not in html
    assert snapshot(world.app) == before, "a refused request changed something"


OTHER_OBJECTS = [
    # another teacher's class, a student of another teacher's class, a student in no class, nothing
    ("GET", "/teach/classes/{b}"),
    ("GET", "/teach/classes/999"),
    ("POST", "/teach/classes/{b}/joining"),
    ("POST", "/teach/classes/{b}/code"),
    ("GET", "/teach/classes/{b}/settings"),
    ("POST", "/teach/classes/{b}/settings"),
    ("GET", "/teach/classes/{b}/students/new"),
    ("POST", "/teach/classes/{b}/students/new"),
    ("GET", "/teach/classes/{b}/students/{other}"),
    ("GET", "/teach/classes/{a}/students/{other}"),
    ("GET", "/teach/classes/{a}/students/{loner}"),
    ("GET", "/teach/classes/{a}/students/{other_teacher}"),
    ("POST", "/teach/classes/{b}/students/{other}/password"),
    ("POST", "/teach/classes/{a}/students/{other}/password"),
    ("POST", "/teach/classes/{a}/students/{loner}/password"),
    ("POST", "/teach/classes/{b}/students/{other}/remove"),
    ("POST", "/teach/classes/{a}/students/{other}/remove"),
]


@pytest.mark.parametrize(("method", "path"), OTHER_OBJECTS)
def test_a_teacher_is_refused_anything_not_theirs(world, method, path):
    client = world.client("teacher")
    url = path.format(
        a=world.class_a,
        b=world.class_b,
        other=world.other_student.id,
        loner=world.loner.id,
        other_teacher=world.other_teacher.id,
    )
    before = snapshot(world.app)
    data = {
        "joining": "closed",
        "name": "Mine now",
        "desired_retention": "80",
        "new_per_day": "5",
        "names": "Eve Intruder",
    }
    response = client.get(url) if method == "GET" else post(client, url, data)
    assert response.status_code == 404
    html = main_of(response.get_data(as_text=True))
    assert "Room 7" not in html and CODE_B not in html and "otter" not in html
    assert snapshot(world.app) == before


@pytest.mark.parametrize(
    ("who", "status"),
    [
        (None, 302),
        ("student", 200),
        ("other_student", 200),
        ("loner", 200),
        ("teacher", 403),
        ("other_teacher", 403),
    ],
)
@pytest.mark.parametrize("path", ["/teach/join", f"/teach/join/{CODE_A}"])
def test_join_pages_for_every_role(world, who, path, status):
    if path != "/teach/join" and who in ("teacher", "other_teacher"):
        status = (
            200  # issue 24: a teacher sees a preview of their own link, or a note (test_teach_day0)
        )
    response = world.client(who).get(path)
    assert response.status_code == status
    if status == 302:
        assert response.headers["Location"].startswith("/auth/login?next=")


@pytest.mark.parametrize("who", [None, "teacher", "other_teacher"])
@pytest.mark.parametrize(
    ("path", "data"), [("/teach/join", {"code": CODE_A}), (f"/teach/join/{CODE_A}", {})]
)
def test_only_students_can_join(world, who, path, data):
    before = snapshot(world.app)
    response = post(world.client(who), path, data)
    # A teacher posting the join link gets its preview or note back, refused (issue 24).
    refused = 400 if path != "/teach/join" else 403
    assert response.status_code == (302 if who is None else refused)
    assert snapshot(world.app) == before


@pytest.mark.parametrize("who", [None, "student"])
def test_the_class_list_is_for_teachers(world, who):
    assert world.client(who).get("/teach/").status_code == (302 if who is None else 403)


def test_a_teacher_sees_only_their_own_classes(world):
    html = world.client("other_teacher").get("/teach/").get_data(as_text=True)
    assert "Room 7" in html and CODE_B in html
    assert "Room 12" not in html and CODE_A not in html


def test_every_post_needs_a_csrf_token(world):
    client = world.client("teacher")
    before = snapshot(world.app)
    for path in [
        f"/teach/classes/{world.class_a}/code",
        f"/teach/classes/{world.class_a}/joining",
        "/teach/",
    ]:
        assert client.post(path, data={"joining": "closed", "name": "No token"}).status_code == 400
    assert snapshot(world.app) == before


# --- Classes ---------------------------------------------------------------------------------------


def test_a_teacher_creates_a_class(world):
    client = world.client("teacher")
    page = client.get("/teach/")
    assert page.status_code == 200 and "Room 12" in page.get_data(as_text=True)
    response = post(client, "/teach/", {"name": "  Period 3   Geography "})
    assert response.status_code == 302
    class_id = int(response.headers["Location"].rsplit("/", 1)[1])
    klass = get_class(world.app, class_id)
    assert klass.name == "Period 3 Geography" and klass.teacher_id == world.teacher.id
    assert len(klass.join_code) == 8 and set(klass.join_code) <= set(JOIN_CODE_ALPHABET)
    assert klass.joining_open and klass.desired_retention is None and klass.new_per_day is None
    assert klass.created_at.tzinfo is not None
    html = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Period 3 Geography" in html and klass.join_code in html and "No students yet" in html


def test_join_codes_have_no_look_alikes():
    assert not set("0O1IL") & set(JOIN_CODE_ALPHABET)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Give the class a name."),
        ("   ", "Give the class a name."),
        ("x" * 61, "A class name has at most 60 characters."),
        ("Room 12", "You already have a class called “Room 12”."),
        ("room  12", "You already have a class called “room 12”."),
    ],
)
def test_a_bad_class_name_is_explained_and_creates_nothing(world, name, message):
    before = snapshot(world.app)
    response = post(world.client("teacher"), "/teach/", {"name": name})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert message in html and 'aria-invalid="true"' in html
    assert snapshot(world.app) == before


def test_two_teachers_may_use_the_same_class_name(world):
    response = post(world.client("other_teacher"), "/teach/", {"name": "Room 12"})
    assert response.status_code == 302
    assert count(world.app, SchoolClass) == 3


def test_the_class_page_shows_students_code_and_full_join_link(world):
    html = world.client("teacher").get(f"/teach/classes/{world.class_a}").get_data(as_text=True)
    assert "river" in html and "otter" not in html and "heron" not in html
    assert CODE_A in html and f">http://localhost/teach/join/{CODE_A}</a>" in html
    assert re.search(r"\d\d \w{3} \d{4}", html), "the joined date"
    assert "Close joining" in html and "New code" in html


def test_closing_and_opening_joining(world):
    client = world.client("teacher")
    url = f"/teach/classes/{world.class_a}/joining"
    assert post(client, url, {"joining": "closed"}).status_code == 302
    assert get_class(world.app, world.class_a).joining_open is False
    html = client.get(f"/teach/classes/{world.class_a}").get_data(as_text=True)
    assert "Joining is closed" in html and "Open joining" in html
    assert post(client, url, {"joining": "open"}).status_code == 302
    assert get_class(world.app, world.class_a).joining_open is True


def test_a_bad_joining_value_changes_nothing(world):
    before = snapshot(world.app)
    response = post(
        world.client("teacher"), f"/teach/classes/{world.class_a}/joining", {"joining": "maybe"}
    )
    assert response.status_code == 400
    assert snapshot(world.app) == before


def test_a_new_code_retires_the_old_one(world):
    """P-S2: after a new code the old code and link are unknown."""
    response = post(world.client("teacher"), f"/teach/classes/{world.class_a}/code")
    assert response.status_code == 302
    code = get_class(world.app, world.class_a).join_code
    assert code != CODE_A and len(code) == 8
    kid = world.client("loner")
    assert kid.get(f"/teach/join/{CODE_A}").status_code == 404
    assert post(kid, "/teach/join", {"code": CODE_A}).status_code == 400
    assert post(kid, "/teach/join", {"code": code}).status_code == 302
    assert members(world.app, world.class_a) == {"river", "heron"}


# --- Class settings -----------------------------------------------------------------------------------


def settings_url(world: World) -> str:
    return f"/teach/classes/{world.class_a}/settings"


def test_class_settings_are_saved_and_may_be_emptied(world):
    client = world.client("teacher")
    page = client.get(settings_url(world)).get_data(as_text=True)
    assert 'value="Room 12"' in page
    response = post(
        client,
        settings_url(world),
        {"name": "Room 12B", "desired_retention": "95", "new_per_day": "10"},
    )
    assert response.status_code == 302
    klass = get_class(world.app, world.class_a)
    assert (klass.name, klass.desired_retention, klass.new_per_day) == (
        "Room 12B",
        pytest.approx(0.95),
        10,
    )
    page = client.get(settings_url(world)).get_data(as_text=True)
    assert 'value="95"' in page and 'value="10"' in page
    assert "95%" in client.get(f"/teach/classes/{world.class_a}").get_data(as_text=True)
    assert (
        post(
            client,
            settings_url(world),
            {"name": "Room 12B", "desired_retention": "", "new_per_day": ""},
        ).status_code
        == 302
    )
    klass = get_class(world.app, world.class_a)
    assert (klass.desired_retention, klass.new_per_day) == (None, None)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("desired_retention", "69", "Type a whole number from 70 to 97, or leave it empty."),
        ("desired_retention", "98", "Type a whole number from 70 to 97, or leave it empty."),
        ("desired_retention", "90.5", "Type a whole number from 70 to 97, or leave it empty."),
        ("desired_retention", "lots", "Not a valid decimal value"),
        ("new_per_day", "-1", "Type a number from 0 to 100, or leave it empty."),
        ("new_per_day", "101", "Type a number from 0 to 100, or leave it empty."),
        ("new_per_day", "ten", "Not a valid integer value"),
        ("name", "", "Give the class a name."),
        ("name", "Second class", "You already have a class called “Second class”."),
    ],
)
def test_bad_class_settings_are_explained_and_change_nothing(world, field, value, message):
    make_class(world.app, world.teacher.id, "Second class", "TUVWXYZ2")
    before = snapshot(world.app)
    data = {"name": "Room 12", "desired_retention": "90", "new_per_day": "20", field: value}
    response = post(world.client("teacher"), settings_url(world), data)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert snapshot(world.app) == before


# --- Student accounts from a list of names -------------------------------------------------------------


def new_students_url(world: World) -> str:
    return f"/teach/classes/{world.class_a}/students/new"


def send_names(client: FlaskClient, url: str, names: str):
    html = client.get(url).get_data(as_text=True)
    batch = re.search(r'name="batch" type="hidden" value="([^"]+)"', html).group(1)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)
    return (
        client.post(url, data={"csrf_token": token, "batch": batch, "names": names}),
        batch,
        token,
    )


SLIP = re.compile(
    r"<dd data-username>([^<]+)</dd></div>\s*<div><dt>Password</dt><dd data-password>([^<]+)</dd>"
)


def test_accounts_from_a_list_of_names(world):
    """P-S3: usernames folded to ASCII and unique on the site, easy passwords shown once, all in the class."""
    make_user(world.app, "maria.g")
    client = world.client("teacher")
    names = "Maria Gonzalez\n\n  José Núñez \nZoë\nO'Brien, Liam\nAl\n"
    response, _batch, _token = send_names(client, new_students_url(world), names)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    html = response.get_data(as_text=True)
    assert_strict_page(html)
    slips = dict(SLIP.findall(html))
    assert list(slips) == ["maria.g2", "jose.n", "zoe", "liam.o", "al2"]
    for shown in ("Maria Gonzalez", "José Núñez", "Zoë", "Liam O&#39;Brien"):
        assert shown in html
    assert "not shown again" in html and "Print the slips" in html
    for username, password in slips.items():
        assert re.fullmatch(r"[a-z]{3,6}[a-z]{3,6}[2-9]{2}", password)
        user = get_user(world.app, username)
        assert user.role is Role.STUDENT and user.email is None
        assert user.password_hash != password and user.check_password(password)
    assert members(world.app, world.class_a) == {"river", *slips}
    # A new student logs in with their slip.
    kid = world.app.test_client()
    assert AuthActions(kid).login("jose.n", slips["jose.n"]).headers["Location"] == "/study/"
    # The passwords are not on the class page, or anywhere later.
    class_page = client.get(f"/teach/classes/{world.class_a}").get_data(as_text=True)
    assert "jose.n" in class_page and slips["jose.n"] not in class_page


def test_sending_the_same_list_again_makes_nothing(world):
    """Reloading the slips page re-sends the form: the accounts are not made twice."""
    client = world.client("teacher")
    response, batch, token = send_names(client, new_students_url(world), "Ada Lovelace")
    assert response.status_code == 200
    before = snapshot(world.app)
    again = client.post(
        new_students_url(world), data={"csrf_token": token, "batch": batch, "names": "Ada Lovelace"}
    )
    assert (
        again.status_code == 302 and again.headers["Location"] == f"/teach/classes/{world.class_a}"
    )
    assert "already made" in client.get(again.headers["Location"]).get_data(as_text=True)
    assert snapshot(world.app) == before


@pytest.mark.parametrize(
    ("names", "messages"),
    [
        ("", ["Type at least one name, one per line."]),
        ("\n   \n\t\n", ["Type at least one name, one per line."]),
        (
            "Maria Gonzalez\nSam Lee\nmaría  GONZÁLEZ",
            ["Line 3 (“maría GONZÁLEZ”) is the same name as line 1."],
        ),
        ("Sam Lee\n李雷\nAna", ["Line 2 (“李雷”) has no letters we can make a username from."]),
        ("Sam Lee\n'--'", ["Line 2 (“&#39;--&#39;”) has no letters we can make a username from."]),
        (
            "1. Sam Lee\nBob@home\nAna",
            [
                "Line 1 (“1. Sam Lee”) has a character that a name does not have: 1.",
                "Line 2 (“Bob@home”) has a character that a name does not have: @.",
            ],
        ),
        (
            "<b>Sam</b>",
            [
                "Line 1 (“&lt;b&gt;Sam&lt;/b&gt;”) has characters that a name does not have: &lt; &gt; /."
            ],
        ),
        (
            "\n".join(f"Kid {chr(65 + i // 26)}{chr(97 + i % 26)}" for i in range(MAX_NAMES + 1)),
            ["That is 61 names. Add at most 60 at a time."],
        ),
        ("A" * 61, ["Line 1 (“" + "A" * 60 + "…”) is longer than 60 characters."]),
    ],
)
def test_a_bad_list_is_explained_line_by_line_and_makes_nothing(world, names, messages):
    before = snapshot(world.app)
    response, _batch, _token = send_names(world.client("teacher"), new_students_url(world), names)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    for message in messages:
        assert message in html
    assert 'aria-invalid="true"' in html
    assert snapshot(world.app) == before


def test_the_accounts_are_made_in_one_transaction(world, monkeypatch):
    """If the last account cannot be made (its username was taken a moment ago), none is kept."""
    make_user(world.app, "zed")
    monkeypatch.setattr("trainer.web.teach.routes._taken_usernames", lambda base: set())
    before = snapshot(world.app)
    response, _batch, _token = send_names(
        world.client("teacher"), new_students_url(world), "Ann Bell\nCole Dunn\nZed"
    )
    assert response.status_code == 400
    assert "Nothing was created" in response.get_data(as_text=True)
    assert snapshot(world.app) == before
    assert get_user(world.app, "ann.b") is None


def test_the_new_students_page(world):
    html = world.client("teacher").get(new_students_url(world)).get_data(as_text=True)
    assert "Student names, one per line" in html and "No email is needed" in html
    assert_strict_page(html)


# --- A student's password and membership -----------------------------------------------------------------


def test_a_teacher_gives_a_student_a_new_password(world):
    made_by(world.app, world.student.id, world.teacher.id)
    client = world.client("teacher")
    page = client.get(f"/teach/classes/{world.class_a}/students/{world.student.id}").get_data(
        as_text=True
    )
    assert "Make a new password" in page and "Take river out of Room 12" in page
    response = post(client, f"/teach/classes/{world.class_a}/students/{world.student.id}/password")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    html = response.get_data(as_text=True)
    assert_strict_page(html)
    ((username, password),) = SLIP.findall(html)
    assert username == "river" and "not shown again" in html
    user = get_user(world.app, "river")
    assert user.check_password(password) and not user.check_password("correct horse")
    assert AuthActions(world.app.test_client()).login("river", password).status_code == 302


def test_a_new_password_logs_the_student_out_everywhere(world):
    """ "Their old password no longer works" is true for devices already logged in too (issue 18)."""
    made_by(world.app, world.student.id, world.teacher.id)
    laptop, phone = world.client("student"), world.client("student")
    assert laptop.get("/study/").status_code == 200
    assert (
        post(
            world.client("teacher"),
            f"/teach/classes/{world.class_a}/students/{world.student.id}/password",
        ).status_code
        == 200
    )
    for device in (laptop, phone):
        assert device.get("/study/").headers["Location"].startswith("/auth/login?next=")


def test_a_student_who_made_their_own_account_keeps_it(world):
    """Issue 18: a "teacher" whose class a student joined cannot take the account over."""
    client = world.client("teacher")
    page = client.get(f"/teach/classes/{world.class_a}/students/{world.student.id}").get_data(
        as_text=True
    )
    assert SELF_MADE_ACCOUNT in unescape(page) and "Make a new password" not in page
    before = snapshot(world.app)
    response = post(client, f"/teach/classes/{world.class_a}/students/{world.student.id}/password")
    assert response.status_code == 403
    assert SELF_MADE_ACCOUNT in unescape(response.get_data(as_text=True))
    assert snapshot(world.app) == before
    assert world.client("student").get("/study/").status_code == 200, "still logged in"


def test_only_the_teacher_who_made_the_account_may_reset_it(world):
    """Another teacher of one of the student's classes may not (P-S3, issue 18)."""
    made_by(world.app, world.student.id, world.teacher.id)
    add_member(world.app, world.class_b, world.student.id)
    client = world.client("other_teacher")
    page = client.get(f"/teach/classes/{world.class_b}/students/{world.student.id}").get_data(
        as_text=True
    )
    assert OTHER_TEACHERS_ACCOUNT in unescape(page) and "Make a new password" not in page
    before = snapshot(world.app)
    response = post(client, f"/teach/classes/{world.class_b}/students/{world.student.id}/password")
    assert response.status_code == 403 and OTHER_TEACHERS_ACCOUNT in unescape(
        response.get_data(as_text=True)
    )
    assert snapshot(world.app) == before


def test_accounts_from_a_list_are_the_teachers_to_reset_and_joining_hands_nothing_over(world):
    client = world.client("teacher")
    response, _batch, _token = send_names(client, new_students_url(world), "Ada Lovelace")
    ((username, password),) = SLIP.findall(response.get_data(as_text=True))
    ada = get_user(world.app, username)
    assert ada.managed_by_id == world.teacher.id
    # Ada joins the other teacher's class: her account is still ms_lee's to reset, not mr_park's.
    kid = world.app.test_client()
    assert AuthActions(kid).login(username, password).status_code == 302
    assert post(kid, "/teach/join", {"code": CODE_B}).status_code == 302
    assert get_user(world.app, username).managed_by_id == world.teacher.id
    assert (
        post(
            world.client("other_teacher"),
            f"/teach/classes/{world.class_b}/students/{ada.id}/password",
        ).status_code
        == 403
    )
    assert (
        post(client, f"/teach/classes/{world.class_a}/students/{ada.id}/password").status_code
        == 200
    )


def test_taking_a_student_out_keeps_their_account_and_history(world):
    """P-S4: only the membership goes."""
    with world.app.app_context():
        student = db.session.get(User, world.student.id)
        record(
            student,
            srs.Outcome(
                "CA:capital",
                Verdict.RIGHT,
                "review",
                Form.TYPED,
                "round-1",
                "1",
                answer="Sacramento",
            ),
        )
    teacher = world.client("teacher")
    response = post(teacher, f"/teach/classes/{world.class_a}/students/{world.student.id}/remove")
    assert response.status_code == 302
    assert members(world.app, world.class_a) == set()
    assert get_user(world.app, "river") is not None
    assert count(world.app, ReviewLog) == 1
    html = teacher.get(f"/teach/classes/{world.class_a}").get_data(as_text=True)
    assert "river is no longer in Room 12" in html and "No students yet" in html
    # Out of the class, the teacher cannot reach the student any more.
    assert (
        world.client("teacher")
        .get(f"/teach/classes/{world.class_a}/students/{world.student.id}")
        .status_code
        == 404
    )
    # The student may join again.
    assert post(world.client("student"), "/teach/join", {"code": CODE_A}).status_code == 302


# --- Joining -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", [CODE_A, "abcd efgh", "abcd-efgh", " AbCdEfGh "])
def test_a_student_joins_with_the_code(world, typed):
    """P-S2: codes are read case-insensitively, with spaces and dashes ignored."""
    kid = world.client("loner")
    response = post(kid, "/teach/join", {"code": typed})
    assert response.status_code == 302 and response.headers["Location"] == "/teach/join"
    assert members(world.app, world.class_a) == {"river", "heron"}
    html = kid.get("/teach/join").get_data(as_text=True)
    assert "You joined Room 12 (teacher: ms_lee)." in html
    assert "Room 12" in html and "teacher ms_lee" in html


def test_a_student_can_be_in_several_classes(world):
    kid = world.client("student")
    assert post(kid, "/teach/join", {"code": CODE_B}).status_code == 302
    html = kid.get("/teach/join").get_data(as_text=True)
    assert "Room 12" in html and "Room 7" in html and "teacher mr_park" in html


@pytest.mark.parametrize(
    ("who", "code", "message"),
    [
        ("loner", "", "Type the code your teacher gave you."),
        ("loner", "ABC", "A class code has 8 letters and numbers"),
        ("loner", "ABCD!FGH", "A class code has 8 letters and numbers"),
        ("loner", "ZZZZZZZZ", "No class has the code ZZZZZZZZ. Check it with your teacher."),
        ("student", CODE_A, "You are already in Room 12."),
        ("loner", "closed", "Room 12 is not taking new students. Ask your teacher."),
    ],
)
def test_a_refused_join_is_explained_and_changes_nothing(world, who, code, message):
    if code == "closed":
        with world.app.app_context():
            db.session.get(SchoolClass, world.class_a).joining_open = False
            db.session.commit()
        code = CODE_A
    before = snapshot(world.app)
    response = post(world.client(who), "/teach/join", {"code": code})
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert snapshot(world.app) == before


def test_the_join_link_shows_the_class_and_joins_on_the_button(world):
    kid = world.client("loner")
    response = kid.get(f"/teach/join/{CODE_A.lower()}")
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "Join Room 12" in html and "ms_lee" in html
    assert_strict_page(html)
    assert members(world.app, world.class_a) == {"river"}, "opening the link joins nothing"
    response = post(kid, f"/teach/join/{CODE_A}")
    assert response.status_code == 302
    assert members(world.app, world.class_a) == {"river", "heron"}


def test_the_join_link_refusals(world):
    kid = world.client("student")
    before = snapshot(world.app)
    unknown = kid.get("/teach/join/ZZZZZZZZ")
    assert unknown.status_code == 404 and "No class has the code ZZZZZZZZ" in unknown.get_data(
        as_text=True
    )
    assert post(kid, "/teach/join/ZZZZZZZZ").status_code == 404
    already = kid.get(f"/teach/join/{CODE_A}").get_data(as_text=True)
    assert "You are already in Room 12." in already and "<button" not in main_of(already)
    response = post(kid, f"/teach/join/{CODE_A}")
    assert response.status_code == 400 and "You are already in Room 12." in response.get_data(
        as_text=True
    )
    with world.app.app_context():
        db.session.get(SchoolClass, world.class_b).joining_open = False
        db.session.commit()
    before = snapshot(world.app)
    closed = kid.get(f"/teach/join/{CODE_B}").get_data(as_text=True)
    assert "Room 7 is not taking new students" in closed and "Join Room 7</button>" not in closed
    response = post(kid, f"/teach/join/{CODE_B}")
    assert response.status_code == 400 and "Room 7 is not taking new students" in response.get_data(
        as_text=True
    )
    assert snapshot(world.app) == before


def test_a_new_student_follows_the_join_link_through_sign_up(world):
    client = world.app.test_client()
    location = client.get(f"/teach/join/{CODE_A}").headers["Location"]
    assert location == f"/auth/login?next=/teach/join/{CODE_A}"
    login_page = client.get(location).get_data(as_text=True)
    assert f'href="/auth/signup?next=/teach/join/{CODE_A}"' in login_page
    token = csrf_token(client, f"/auth/signup?next=/teach/join/{CODE_A}")
    response = client.post(
        f"/auth/signup?next=/teach/join/{CODE_A}",
        data={
            "username": "newkid",
            "password": "maps are fun",
            "confirm": "maps are fun",
            "role": "student",
            "csrf_token": token,
        },
    )
    assert response.headers["Location"] == f"/teach/join/{CODE_A}"
    assert "Join Room 12" in client.get(f"/teach/join/{CODE_A}").get_data(as_text=True)


def test_signup_ignores_a_next_to_another_site(client):
    token = csrf_token(client, "/auth/signup")
    response = client.post(
        "/auth/signup?next=//evil.example.org/",
        data={
            "username": "newkid",
            "password": "maps are fun",
            "confirm": "maps are fun",
            "role": "student",
            "csrf_token": token,
        },
    )
    assert response.headers["Location"] == "/study/"


# --- A student sees who sees their work, and leaves a class (issue 18) -----------------------------------------


def leave_url(class_id: int) -> str:
    return f"/teach/my-classes/{class_id}/leave"


def test_a_student_sees_which_teachers_see_their_work(world):
    add_member(world.app, world.class_b, world.student.id)
    page = unescape(world.client("student").get("/teach/join").get_data(as_text=True))
    assert "ms_lee can see your answers and progress." in page
    assert "mr_park can see your answers and progress." in page
    assert (
        f'href="{leave_url(world.class_a)}"' in page
        and f'href="{leave_url(world.class_b)}"' in page
    )
    assert page.count("Leave this class") == 2


def test_a_student_leaves_a_class_and_keeps_their_history(world):
    """Like P-S4, from the student's side: only the membership goes."""
    with world.app.app_context():
        student = db.session.get(User, world.student.id)
        record(
            student,
            srs.Outcome(
                "CA:capital",
                Verdict.RIGHT,
                "review",
                Form.TYPED,
                "round-1",
                "1",
                answer="Sacramento",
            ),
        )
    kid = world.client("student")
    confirm = kid.get(leave_url(world.class_a))
    page = unescape(confirm.get_data(as_text=True))
    assert (
        confirm.status_code == 200
        and "Leave Room 12?" in page
        and "ms_lee, your teacher in Room 12, will no longer see your answers and progress" in page
    )
    assert_strict_page(confirm.get_data(as_text=True))
    assert members(world.app, world.class_a) == {"river"}, "the confirmation page changes nothing"
    response = post(kid, leave_url(world.class_a))
    assert response.status_code == 302 and response.headers["Location"] == "/teach/join"
    assert members(world.app, world.class_a) == set()
    assert count(world.app, ReviewLog) == 1 and get_user(world.app, "river") is not None
    page = unescape(kid.get("/teach/join").get_data(as_text=True))
    assert (
        "You left Room 12. ms_lee no longer sees your work" in page
        and "You are not in a class yet." in page
    )
    # The teacher no longer reaches the student.
    assert (
        world.client("teacher")
        .get(f"/teach/classes/{world.class_a}/students/{world.student.id}")
        .status_code
        == 404
    )


@pytest.mark.parametrize(
    ("who", "path", "status"),
    [
        ("student", "/teach/my-classes/{b}/leave", 404),  # another student's class
        ("student", "/teach/my-classes/999999/leave", 404),  # no such class
        ("other_student", "/teach/my-classes/{a}/leave", 404),
        ("teacher", "/teach/my-classes/{a}/leave", 403),
        (None, "/teach/my-classes/{a}/leave", 302),
    ],
)
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_leaving_a_class_one_is_not_in_changes_nothing(world, who, path, status, method):
    url = path.format(a=world.class_a, b=world.class_b)
    before = snapshot(world.app)
    client = world.client(who)
    response = client.get(url) if method == "GET" else post(client, url)
    assert response.status_code == status
    html = main_of(response.get_data(as_text=True))
    assert "Room 7" not in html and "mr_park" not in html
    assert snapshot(world.app) == before


def test_leaving_needs_a_csrf_token(world):
    before = snapshot(world.app)
    assert world.client("student").post(leave_url(world.class_a)).status_code == 400
    assert snapshot(world.app) == before


def test_hash_passwords_keeps_the_order_and_the_apps_hash():
    passwords = [f"otterlamp{n}" for n in range(22, 30)]
    hashes = hash_passwords(passwords)
    assert len(hashes) == len(passwords)
    for password, hashed in zip(passwords, hashes, strict=True):
        assert hashed.startswith("scrypt:") and check_password_hash(hashed, password)
    assert hash_passwords([]) == []


@pytest.mark.app_config(RATELIMIT_ENABLED=True, JOIN_RATE_LIMIT="3 per hour")
def test_guessing_codes_is_rate_limited(world):
    kid = world.client("loner")
    for guess in ("ZZZZZZZA", "ZZZZZZZB", "ZZZZZZZC"):
        assert post(kid, "/teach/join", {"code": guess}).status_code == 400
    assert post(kid, "/teach/join", {"code": CODE_A}).status_code == 429
    # Another student is not held up.
    assert post(world.client("other_student"), "/teach/join", {"code": CODE_A}).status_code == 302


# --- Class settings in force (P-S1) ------------------------------------------------------------------------


def set_class(app: Flask, class_id: int, **columns) -> None:
    with app.app_context():
        klass = db.session.get(SchoolClass, class_id)
        for name, value in columns.items():
            setattr(klass, name, value)
        db.session.commit()


def settings_of(app: Flask, user_id: int):
    with app.app_context():
        return settings_for(db.session.get(User, user_id))


def test_settings_for_without_a_class_setting_are_the_students_own(world):
    settings = settings_of(world.app, world.student.id)
    assert (settings.desired_retention, settings.new_per_day) == (0.9, 20)
    assert not settings.retention_from_class and not settings.new_per_day_from_class


def test_a_class_setting_overrides_the_students_own_higher_or_lower(world):
    """P-S1."""
    set_class(world.app, world.class_a, desired_retention=0.8)
    settings = settings_of(world.app, world.student.id)
    assert settings.desired_retention == pytest.approx(0.8) and settings.retention_from_class
    assert settings.new_per_day == 20 and not settings.new_per_day_from_class
    set_class(world.app, world.class_a, desired_retention=None, new_per_day=35)
    settings = settings_of(world.app, world.student.id)
    assert (settings.desired_retention, settings.new_per_day) == (0.9, 35)
    assert settings.new_per_day_from_class and not settings.retention_from_class
    # Other students are not touched.
    assert settings_of(world.app, world.other_student.id).new_per_day == 20


def test_several_classes_use_the_highest_of_each_setting(world):
    """P-S1: each setting on its own, the highest among the classes that set it."""
    add_member(world.app, world.class_b, world.student.id)
    third = make_class(
        world.app, world.teacher.id, "Club", "TUVWXYZ2", desired_retention=None, new_per_day=0
    )
    add_member(world.app, third, world.student.id)
    set_class(world.app, world.class_a, desired_retention=0.95, new_per_day=5)
    set_class(world.app, world.class_b, desired_retention=0.85, new_per_day=None)
    settings = settings_of(world.app, world.student.id)
    assert settings.desired_retention == pytest.approx(0.95) and settings.new_per_day == 5
    set_class(world.app, world.class_b, desired_retention=0.97, new_per_day=12)
    settings = settings_of(world.app, world.student.id)
    assert settings.desired_retention == pytest.approx(0.97) and settings.new_per_day == 12


def test_leaving_the_class_ends_its_override(world):
    """P-S1, P-S4."""
    set_class(world.app, world.class_a, desired_retention=0.75, new_per_day=3)
    post(
        world.client("teacher"),
        f"/teach/classes/{world.class_a}/students/{world.student.id}/remove",
    )
    settings = settings_of(world.app, world.student.id)
    assert (settings.desired_retention, settings.new_per_day) == (0.9, 20)


def test_the_class_setting_shapes_study(world):
    """The daily new limit and the scheduling use the class's values."""
    set_class(world.app, world.class_a, desired_retention=0.97, new_per_day=3)
    with world.app.app_context():
        student = db.session.get(User, world.student.id)
        assert new_allowed_today(student, today_for(student)) == 3
    html = world.client("student").get("/study/").get_data(as_text=True)
    assert "97% to remember" in html and "3 new facts a day, both set by your class" in html


def test_settings_for_is_one_query(world, app):
    set_class(world.app, world.class_a, desired_retention=0.95)
    statements: list[str] = []
    with app.app_context():
        student = db.session.get(User, world.student.id)

        def listener(conn, cursor, statement, *rest):
            statements.append(statement)

        event.listen(db.engine, "before_cursor_execute", listener)
        try:
            settings_for(student)
        finally:
            event.remove(db.engine, "before_cursor_execute", listener)
    assert len(statements) == 1


def test_the_study_settings_page_says_when_a_class_setting_is_in_force(world):
    kid = world.client("student")
    assert "Your class sets" not in kid.get("/study/settings").get_data(as_text=True)
    set_class(world.app, world.class_a, desired_retention=0.95, new_per_day=10)
    html = kid.get("/study/settings").get_data(as_text=True)
    assert "Your class sets 95% to remember and 10 new facts a day" in html
    assert_strict_page(html)
    set_class(world.app, world.class_a, desired_retention=None)
    html = kid.get("/study/settings").get_data(as_text=True)
    assert "Your class sets 10 new facts a day:" in html
    # The student's own choice is still saved, and kept for later.
    token = csrf_token(kid, "/study/settings")
    response = kid.post(
        "/study/settings",
        data={
            "csrf_token": token,
            "desired_retention": "85",
            "new_per_day": "7",
            "time_zone": "",
            "daily_amount": "40",
            "daily_unit": "answers",
        },
    )
    assert response.status_code == 302
    assert get_user(world.app, "river").new_per_day == 7
    assert settings_of(world.app, world.student.id).new_per_day == 10


# --- Pages, nav, landing ---------------------------------------------------------------------------------


def test_teacher_pages_hold_under_the_strict_csp(world):
    client = world.client("teacher")
    for path in [
        "/teach/",
        f"/teach/classes/{world.class_a}",
        f"/teach/classes/{world.class_a}/settings",
        f"/teach/classes/{world.class_a}/students/new",
        f"/teach/classes/{world.class_a}/students/{world.student.id}",
    ]:
        response = client.get(path)
        assert response.status_code == 200, path
        assert_strict_page(response.get_data(as_text=True))
        assert response.headers["Content-Security-Policy"].startswith("default-src 'self'")


def test_student_join_pages_hold_under_the_strict_csp(world):
    kid = world.client("loner")
    for path in ["/teach/join", f"/teach/join/{CODE_A}", "/teach/join/ZZZZZZZZ"]:
        assert_strict_page(kid.get(path).get_data(as_text=True))


def test_nav_links_by_role(world):
    teacher_html = world.client("teacher").get("/").get_data(as_text=True)
    assert 'href="/teach/">My classes</a>' in teacher_html and "Join a class" not in teacher_html
    student_html = world.client("student").get("/").get_data(as_text=True)
    assert (
        'href="/teach/join">Join a class</a>' in student_html
        and "My classes</a>" not in student_html
    )
    anonymous = world.client(None).get("/").get_data(as_text=True)
    assert "Join a class" not in anonymous and "My classes" not in anonymous


@pytest.mark.app_config(OPEN_TEACHER_SIGNUP=True)
def test_a_teacher_lands_on_their_classes(client, auth):
    response = auth.signup("ms_new", role="teacher")
    assert response.headers["Location"] == "/teach/"
    html = client.get("/teach/").get_data(as_text=True)
    assert "You have no classes yet" in html and "Create a class" in html
    auth.logout()
    assert auth.login("ms_new").headers["Location"] == "/teach/"


# --- Names, usernames, passwords, codes (P-S3, P-S2) -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("José", "jose"),
        ("Zoë", "zoe"),
        ("O'Brien", "obrien"),
        ("Ægir Øvreås", "aegir ovreas"),
        ("Straße", "strasse"),
        ("Łukasz", "lukasz"),
        ("Anne-Marie", "annemarie"),
        ("李雷", ""),
    ],
)
def test_fold(text, folded):
    assert fold(text) == folded


@pytest.mark.parametrize(
    ("line", "username"),
    [
        ("Maria Gonzalez", "maria.g"),
        ("María José González", "maria.g"),
        ("Gonzalez, Maria", "maria.g"),
        ("Zoë", "zoe"),
        ("Liam O’Brien", "liam.o"),
        ("Anne-Marie de la Cruz", "annemarie.c"),
        ("Bartholomew-Maximilian Lee", "bartholomewmaximilia.l"),
    ],
)
def test_username_base(line, username):
    (entry,) = parse_names(line)
    assert username_base(entry) == username


def test_usernames_are_unique_in_the_list_and_on_the_site():
    entries = parse_names("Maria Gonzalez\nMaria Garcia\nMaria Green\nAna\nAna Bell\nJo")
    taken = {"maria.g", "maria.g3", "ana"}
    result = usernames_for(entries, lambda base: {name for name in taken if name.startswith(base)})
    assert result == ["maria.g2", "maria.g4", "maria.g5", "ana2", "ana.b", "jo2"]
    assert all(3 <= len(name) <= 32 for name in result)


def test_a_duplicate_name_error_names_both_lines():
    with pytest.raises(NameListError) as caught:
        parse_names("Sam Lee\nAna\nsam  lee\nSAM LÉE")
    assert caught.value.messages == [
        "Line 3 (“sam lee”) is the same name as line 1. Add a middle initial or the whole last name so the two can be told apart.",
        "Line 4 (“SAM LÉE”) is the same name as line 1. Add a middle initial or the whole last name so the two can be told apart.",
    ]


def test_passwords_are_two_short_words_and_two_digits():
    rng = random.Random(7)
    passwords = [make_password(rng.choice) for _ in range(200)]
    for password in passwords:
        match = re.fullmatch(r"([a-z]+?)([a-z]+)([2-9])([2-9])", password)
        assert match and 8 <= len(password) <= 14
    assert len(set(passwords)) > 190
    assert all(3 <= len(word) <= 6 and word.isalpha() and word.islower() for word in accounts.WORDS)
    assert len(set(accounts.WORDS)) == len(accounts.WORDS) >= 150


def test_normalise_code():
    assert normalise_code(" abcd-efgh ") == "ABCDEFGH"
    assert normalise_code("ab cd\tef gh") == "ABCDEFGH"
