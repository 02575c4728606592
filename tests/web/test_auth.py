"""Sign up, log in, log out: forms, errors, CSRF and the login rate limit."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from tests.conftest import make_user
from trainer.web.extensions import db
from trainer.web.models import Role, User


def count_users(app) -> int:
    with app.app_context():
        return db.session.execute(select(func.count(User.id))).scalar_one()


def get_user(app, username: str) -> User | None:
    with app.app_context():
        return db.session.execute(select(User).where(User.username_key == username.casefold())).scalar_one_or_none()


def test_signup_page(client):
    html = client.get("/auth/signup").get_data(as_text=True)
    assert 'name="csrf_token"' in html
    assert "no email" in html


def test_student_signs_up_and_is_logged_in(app, client, auth):
    response = auth.signup("river_otter")
    assert response.status_code == 302 and response.headers["Location"] == "/study/", "a student starts at their study home"
    user = get_user(app, "river_otter")
    assert user.role is Role.STUDENT and user.email is None
    assert user.password_hash != "correct horse" and user.check_password("correct horse")
    assert user.password_hash.startswith("scrypt:")
    assert user.created_at.tzinfo is not None
    page = client.get("/deck/").get_data(as_text=True)
    assert "river_otter" in page and "Log out" in page


def test_teacher_may_give_email(app, auth):
    response = auth.signup("ms_lee", role="teacher", email="lee@school.example.org")
    assert response.status_code == 302
    user = get_user(app, "ms_lee")
    assert user.role is Role.TEACHER and user.email == "lee@school.example.org"


def test_student_may_not_give_email(app, auth):
    response = auth.signup("kid", role="student", email="kid@example.org")
    assert response.status_code == 400
    assert "Students do not give an email address" in response.get_data(as_text=True)
    assert count_users(app) == 0


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"username": ""}, "Choose a username."),
        ({"username": "ab"}, "A username has 3 to 32 characters."),
        ({"username": "x" * 33}, "A username has 3 to 32 characters."),
        ({"username": "bad name!"}, "Use only letters, numbers, dots, dashes and underscores."),
        ({"password": "short"}, "A password has at least 8 characters."),
        ({"password": ""}, "Choose a password."),
        ({"confirm": "something else"}, "The two passwords are not the same."),
        ({"role": "admin"}, "Not a valid choice"),
        ({"role": "teacher", "email": "not-an-email"}, "That does not look like an email address."),
    ],
)
def test_signup_field_errors(app, auth, fields, message):
    args = {"username": "new_user", "password": "correct horse", "role": "student", "email": ""} | fields
    response = auth.signup(**args)
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert message in html
    assert 'aria-invalid="true"' in html
    assert count_users(app) == 0


def test_duplicate_username_any_case(app, auth, student):
    response = auth.signup("STUDENT1")
    assert response.status_code == 400
    assert "That username is taken" in response.get_data(as_text=True)
    assert count_users(app) == 1


def test_signup_without_csrf_token_is_rejected(app, client):
    response = client.post(
        "/auth/signup",
        data={"username": "sneaky", "password": "correct horse", "confirm": "correct horse", "role": "student"},
    )
    assert response.status_code == 400
    assert "did not come from this site" in response.get_data(as_text=True)
    assert count_users(app) == 0


def test_signup_with_forged_csrf_token_is_rejected(app, client):
    client.get("/auth/signup")
    response = client.post(
        "/auth/signup",
        data={"username": "sneaky", "password": "correct horse", "confirm": "correct horse", "role": "student", "csrf_token": "forged"},
    )
    assert response.status_code == 400
    assert count_users(app) == 0


def test_login_and_logout(app, client, auth, student):
    response = auth.login()
    assert response.status_code == 302 and response.headers["Location"] == "/study/"
    page = client.get("/").get_data(as_text=True)
    assert "student1" in page and "Log out" in page
    with app.app_context():
        assert db.session.get(User, student.id).last_login_at is not None
    response = auth.logout()
    assert response.status_code == 302
    page = client.get("/").get_data(as_text=True)
    assert "Log out" not in page and "Log in" in page


def test_login_is_case_insensitive_on_username(client, auth, student):
    assert auth.login("Student1").status_code == 302


@pytest.mark.parametrize(("username", "password"), [("student1", "wrong password"), ("nobody", "correct horse")])
def test_wrong_password_and_unknown_user_get_the_same_message(client, auth, student, username, password):
    response = auth.login(username, password)
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "That username and password do not match." in html
    assert "Log out" not in html


@pytest.mark.parametrize(("fields", "message"), [({"username": ""}, "Type your username."), ({"password": ""}, "Type your password.")])
def test_login_field_errors(client, auth, student, fields, message):
    args = {"username": "student1", "password": "correct horse"} | fields
    response = auth.login(**args)
    assert response.status_code == 400 and message in response.get_data(as_text=True)


def test_login_without_csrf_token_is_rejected(client, student):
    response = client.post("/auth/login", data={"username": "student1", "password": "correct horse"})
    assert response.status_code == 400
    assert "Log out" not in client.get("/").get_data(as_text=True)


def test_logout_needs_post_and_csrf(client, auth, student):
    auth.login()
    assert client.get("/auth/logout").status_code == 405
    assert client.post("/auth/logout").status_code == 400
    assert "Log out" in client.get("/").get_data(as_text=True)


def test_login_redirects_to_next_on_this_site_only(client, auth, student):
    assert auth.login(next_url="/deck/co").headers["Location"] == "/deck/co"
    auth.logout()
    assert auth.login(next_url="https://evil.example.com/").headers["Location"] == "/study/"
    auth.logout()
    assert auth.login(next_url="//evil.example.com/").headers["Location"] == "/study/"


def test_logged_in_user_visiting_login_or_signup_goes_home(client, auth, student):
    auth.login()
    assert client.get("/auth/login").status_code == 302
    assert client.get("/auth/signup").status_code == 302


@pytest.mark.app_config(RATELIMIT_ENABLED=True, LOGIN_LIMIT_PER_USERNAME="5 per minute")
def test_failed_logins_are_rate_limited_per_username(app, client, auth, student):
    for _ in range(5):
        assert auth.login("student1", "guess").status_code == 400
    response = auth.login("student1", "guess")
    assert response.status_code == 429
    assert "Too many tries" in response.get_data(as_text=True)
    # Even the right password waits now: that is what stops guessing.
    assert auth.login("student1", "correct horse").status_code == 429
    # Another student on the same school network is not locked out.
    make_user(app, "student2")
    assert auth.login("student2", "correct horse").status_code == 302


@pytest.mark.app_config(RATELIMIT_ENABLED=True, LOGIN_LIMIT_PER_USERNAME="3 per minute")
def test_successful_logins_do_not_count(client, auth, student):
    for _ in range(5):
        assert auth.login().status_code == 302
        auth.logout()


@pytest.mark.app_config(RATELIMIT_ENABLED=True, LOGIN_LIMIT_PER_ADDRESS="4 per minute")
def test_failed_logins_are_rate_limited_per_address(app, client, auth, student):
    for name in ("a1", "a2", "a3", "a4"):
        assert auth.login(name, "guess").status_code == 400
    assert auth.login("a5", "guess").status_code == 429


def test_password_field_is_never_echoed(client, auth, student):
    html = auth.login("student1", "my secret guess").get_data(as_text=True)
    assert "my secret guess" not in html


def test_session_cookie_flags(client, auth, student):
    response = auth.login()
    cookie = next(v for k, v in response.headers.items() if k == "Set-Cookie" and v.startswith("session="))
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def _redis_available() -> bool:
    import socket

    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=0.5).close()
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _redis_available(), reason="no Redis on 127.0.0.1:6379")
def test_workers_share_login_limits_through_redis(tmp_path):
    """With REDIS_URL, two workers (two app instances) count failed logins together."""
    import uuid

    from tests.conftest import AuthActions, make_test_config
    from trainer.web import create_app

    settings = make_test_config("sqlite", tmp_path) | {
        "RATELIMIT_ENABLED": True,
        "RATELIMIT_STORAGE_URI": "redis://127.0.0.1:6379/0",
        "RATELIMIT_KEY_PREFIX": "test-" + uuid.uuid4().hex,
        "LOGIN_LIMIT_PER_USERNAME": "4 per minute",
    }
    first = create_app(settings)
    with first.app_context():
        db.create_all()
    try:
        make_user(first, "shared")
        for _ in range(4):
            assert AuthActions(first.test_client()).login("shared", "guess").status_code == 400
        # A second worker starts with its own limiter storage: only Redis can tell it the count.
        second = create_app(settings)
        assert AuthActions(second.test_client()).login("shared", "guess").status_code == 429
    finally:
        with first.app_context():
            db.drop_all()
