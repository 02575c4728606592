"""The school admin (issue 18): ``create-admin``, the teachers list, and single-use invite links that
are the way to a teacher account while open teacher sign-up is off."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, update

from tests.conftest import client_for, csrf_token, make_user
from tests.web.test_security import assert_strict_page
from trainer.web.admin import invites
from trainer.web.auth.passwords import HAS_USERNAME, TOO_EASY
from trainer.web.extensions import db
from trainer.web.models import Role, TeacherInvite, User, utcnow

LINK = re.compile(
    r'<code class="join-link" data-invite-link>http://localhost(/auth/invite/[^<]+)</code>'
)


@pytest.fixture
def admin(app: Flask) -> User:
    return make_user(app, "principal", role=Role.TEACHER, is_admin=True)


@pytest.fixture
def admin_client(app: Flask, admin: User) -> FlaskClient:
    return client_for(app, "principal")


def new_invite(client: FlaskClient) -> str:
    """Make an invite through the admin page; the path of its link."""
    response = client.post("/admin/invites", data={"csrf_token": csrf_token(client, "/admin/")})
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    (path,) = LINK.findall(response.get_data(as_text=True))
    return path


def sign_up_with(
    client: FlaskClient,
    path: str,
    username: str = "ms_lee",
    password: str = "maps are fun",
    email: str = "",
):
    # The session's CSRF token, from any form (a link that does not work shows none).
    token = csrf_token(client, "/auth/login")
    return client.post(
        path,
        data={
            "username": username,
            "password": password,
            "confirm": password,
            "email": email,
            "csrf_token": token,
        },
    )


def get_user(app: Flask, username: str) -> User | None:
    with app.app_context():
        return db.session.execute(
            select(User).where(User.username_key == username)
        ).scalar_one_or_none()


def count(app: Flask, model) -> int:
    with app.app_context():
        return db.session.execute(select(func.count()).select_from(model)).scalar_one()


# --- create-admin ---------------------------------------------------------------------------------


@pytest.mark.app_config(PASSWORD_HASH_METHOD="scrypt")
def test_create_admin_makes_a_teacher_with_the_admin_flag(app, runner):
    result = runner.invoke(
        args=["create-admin", "--username", "principal", "--password", "purple-tiger-rocket"]
    )
    assert result.exit_code == 0, result.output
    assert "School admin principal created" in result.output
    user = get_user(app, "principal")
    assert (
        user.role is Role.TEACHER and user.is_admin and user.check_password("purple-tiger-rocket")
    )
    assert user.password_hash.startswith("scrypt:")


def test_create_admin_prompts_for_what_is_missing(app, runner):
    result = runner.invoke(
        args=["create-admin"], input="principal\npurple-tiger-rocket\npurple-tiger-rocket\n"
    )
    assert result.exit_code == 0, result.output
    assert "purple-tiger-rocket" not in result.output, "the password is typed hidden"
    assert get_user(app, "principal").is_admin


def test_create_admin_again_changes_nothing(app, runner):
    runner.invoke(
        args=["create-admin", "--username", "principal", "--password", "purple-tiger-rocket"]
    )
    before = get_user(app, "principal").password_hash
    result = runner.invoke(
        args=["create-admin", "--username", "Principal", "--password", "another-strong-one"]
    )
    assert result.exit_code == 0 and "already a school admin. Nothing changed." in result.output
    assert get_user(app, "principal").password_hash == before and count(app, User) == 1


@pytest.mark.parametrize(
    ("username", "password", "message"),
    [
        ("principal", "password", TOO_EASY),
        ("principal", "12345678", TOO_EASY),
        ("principal", "principal-2024", HAS_USERNAME),
        ("principal", "short", "A password has 8 to 128 characters."),
        ("x", "purple-tiger-rocket", "A username has 3 to 32 characters."),
        (
            "bad name",
            "purple-tiger-rocket",
            "Use only letters, numbers, dots, dashes and underscores.",
        ),
    ],
)
def test_create_admin_refuses_bad_input(app, runner, username, password, message):
    result = runner.invoke(args=["create-admin", "--username", username, "--password", password])
    assert result.exit_code != 0 and message in result.output
    assert count(app, User) == 0


def test_create_admin_never_turns_a_student_into_an_admin(app, runner, student):
    result = runner.invoke(
        args=["create-admin", "--username", "student1", "--password", "purple-tiger-rocket"]
    )
    assert result.exit_code != 0 and "is a student's account" in result.output
    assert not get_user(app, "student1").is_admin


def test_create_admin_makes_an_existing_teacher_an_admin(app, runner, teacher):
    result = runner.invoke(args=["create-admin", "--username", "teacher1"])
    assert (
        result.exit_code == 0
        and "now a school admin (their password is unchanged)" in result.output
    )
    user = get_user(app, "teacher1")
    assert user.is_admin and user.check_password("correct horse")


# --- The admin pages ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/admin/"])
def test_only_an_admin_opens_the_admin_pages(app, admin, teacher, student, path):
    assert client_for(app, None).get(path).headers["Location"].startswith("/auth/login?next=")
    assert client_for(app, "student1").get(path).status_code == 403
    assert client_for(app, "teacher1").get(path).status_code == 403
    assert client_for(app, "principal").get(path).status_code == 200


def test_only_an_admin_makes_or_takes_back_invites(app, admin, teacher, student):
    for who in (None, "student1", "teacher1"):
        client = client_for(app, who)
        token = csrf_token(client, "/" if who else "/auth/login")
        assert client.post("/admin/invites", data={"csrf_token": token}).status_code in (302, 403)
    assert count(app, TeacherInvite) == 0


def test_the_admin_page_lists_the_teachers(app, admin, admin_client, teacher, student):
    response = admin_client.get("/admin/")
    html = response.get_data(as_text=True)
    assert_strict_page(html)
    table = html.split("data-teachers", 1)[1].split("</table>", 1)[0]
    assert "principal" in table and "teacher1" in table and "teacher@example.org" in table
    assert "student1" not in html


def test_the_admin_link_is_in_the_nav_for_admins_only(app, admin, teacher, student):
    nav = 'href="/admin/"'
    assert nav in client_for(app, "principal").get("/").get_data(as_text=True)
    for who in (None, "student1", "teacher1"):
        assert nav not in client_for(app, who).get("/").get_data(as_text=True)


def test_the_admin_page_warns_when_open_teacher_sign_up_is_on(app, admin_client):
    assert "Open teacher sign-up is on" not in admin_client.get("/admin/").get_data(as_text=True)
    app.config["OPEN_TEACHER_SIGNUP"] = True
    assert "Open teacher sign-up is on" in admin_client.get("/admin/").get_data(as_text=True)


# --- Invite links ---------------------------------------------------------------------------------


def test_an_invite_link_makes_one_teacher_account(app, admin_client):
    path = new_invite(admin_client)
    token = path.rsplit("/", 1)[1]
    assert len(token) >= 43
    with app.app_context():
        invite = db.session.execute(select(TeacherInvite)).scalar_one()
        assert invite.token_hash == hashlib.sha256(token.encode()).hexdigest(), (
            "stored only as its hash"
        )
        assert (
            dt.timedelta(days=6, hours=23)
            < invite.expires_at - invite.created_at
            <= dt.timedelta(days=7)
        )
    newcomer = client_for(app, None)
    page = newcomer.get(path)
    assert page.status_code == 200 and "Make your teacher account" in page.get_data(as_text=True)
    assert_strict_page(page.get_data(as_text=True))
    response = sign_up_with(newcomer, path, email="lee@school.example.org")
    assert response.status_code == 302 and response.headers["Location"] == "/teach/"
    lee = get_user(app, "ms_lee")
    assert lee.role is Role.TEACHER and not lee.is_admin and lee.email == "lee@school.example.org"
    assert "Welcome, ms_lee" in newcomer.get("/teach/").get_data(as_text=True)
    # Used once, the link lets nobody else in.
    again = client_for(app, None)
    refused = again.get(path)
    assert refused.status_code == 404 and "This invite link does not work" in unescape(
        refused.get_data(as_text=True)
    )
    assert sign_up_with(again, path, username="intruder").status_code == 404
    assert get_user(app, "intruder") is None
    page = unescape(admin_client.get("/admin/").get_data(as_text=True))
    assert "used by ms_lee" in page


def test_the_link_is_shown_once(app, admin_client):
    path = new_invite(admin_client)
    assert path not in admin_client.get("/admin/").get_data(as_text=True)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"password": "password"}, TOO_EASY),
        ({"username": "ms_lee", "password": "ms_lee_rocks"}, HAS_USERNAME),
        ({"username": "student1"}, "That username is taken."),
        ({"email": "not-an-email"}, "That does not look like an email address."),
    ],
)
def test_a_refused_invite_sign_up_keeps_the_link(app, admin_client, student, fields, message):
    path = new_invite(admin_client)
    newcomer = client_for(app, None)
    args = {"username": "ms_lee", "password": "maps are fun", "email": ""} | fields
    response = sign_up_with(newcomer, path, **args)
    assert response.status_code == 400 and message in unescape(response.get_data(as_text=True))
    assert count(app, User) == 2
    assert sign_up_with(newcomer, path).status_code == 302, "the link still works"


def test_an_expired_or_taken_back_invite_lets_nobody_in(app, admin_client):
    expired, revoked = new_invite(admin_client), new_invite(admin_client)
    with app.app_context():
        db.session.execute(
            update(TeacherInvite)
            .where(
                TeacherInvite.token_hash
                == hashlib.sha256(expired.rsplit("/", 1)[1].encode()).hexdigest()
            )
            .values(expires_at=utcnow() - dt.timedelta(seconds=1))
        )
        db.session.commit()
        revoked_id = db.session.execute(
            select(TeacherInvite.id).where(
                TeacherInvite.token_hash
                == hashlib.sha256(revoked.rsplit("/", 1)[1].encode()).hexdigest()
            )
        ).scalar_one()
    response = admin_client.post(
        f"/admin/invites/{revoked_id}/revoke",
        data={"csrf_token": csrf_token(admin_client, "/admin/")},
    )
    assert response.status_code == 302
    page = unescape(admin_client.get("/admin/").get_data(as_text=True))
    assert "The invite link is taken back" in page and "taken back" in page and "expired" in page
    for path in (expired, revoked, "/auth/invite/made-up-token", "/auth/invite/" + "x" * 500):
        newcomer = client_for(app, None)
        assert newcomer.get(path).status_code == 404
        assert sign_up_with(newcomer, path).status_code in (400, 404)
    assert count(app, User) == 1


def test_taking_back_a_used_invite_changes_nothing(app, admin_client):
    path = new_invite(admin_client)
    assert sign_up_with(client_for(app, None), path).status_code == 302
    with app.app_context():
        invite_id, used_at = db.session.execute(
            select(TeacherInvite.id, TeacherInvite.used_at)
        ).one()
    admin_client.post(
        f"/admin/invites/{invite_id}/revoke",
        data={"csrf_token": csrf_token(admin_client, "/admin/")},
    )
    assert "That invite link is used already" in unescape(
        admin_client.get("/admin/").get_data(as_text=True)
    )
    with app.app_context():
        assert db.session.execute(
            select(TeacherInvite.revoked_at, TeacherInvite.used_at)
        ).one() == (None, used_at)
    assert (
        admin_client.post(
            "/admin/invites/99999/revoke", data={"csrf_token": csrf_token(admin_client, "/admin/")}
        ).status_code
        == 404
    )


def test_an_invite_is_claimed_once_even_at_the_same_moment(app, admin):
    """Two sign-ups with one link at once: the conditional UPDATE lets only the first have it."""
    with app.test_request_context():
        token = invites.new_invite(db.session.get(User, admin.id))
        db.session.commit()
        invite = invites.find_open(token)
        first = User(username="a_one", username_key="a_one", role=Role.TEACHER, password_hash="x")
        second = User(username="b_two", username_key="b_two", role=Role.TEACHER, password_hash="x")
        db.session.add_all([first, second])
        db.session.flush()
        assert invites.claim(invite, first) is True
        assert invites.claim(invite, second) is False
        db.session.rollback()


def test_a_logged_in_user_is_sent_on_from_an_invite(app, admin_client):
    path = new_invite(admin_client)
    assert admin_client.get(path).status_code == 302
    assert client_for(app, None).get(path).status_code == 200, "opening it used nothing"


def test_invite_pages_need_a_csrf_token(app, admin_client):
    assert admin_client.post("/admin/invites").status_code == 400
    path = new_invite(admin_client)
    newcomer = client_for(app, None)
    newcomer.get(path)
    response = newcomer.post(
        path, data={"username": "ms_lee", "password": "maps are fun", "confirm": "maps are fun"}
    )
    assert response.status_code == 400
    assert get_user(app, "ms_lee") is None
