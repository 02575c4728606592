"""Sign up, log in, log out: forms, errors, CSRF, the login rate limits, login sessions kept on the
server, who may make a teacher account, and passwords that are easy to guess (issue 18)."""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from html import unescape as html_unescape

import pytest
from sqlalchemy import event, func, select, update

from tests.conftest import AuthActions, client_for, csrf_token, make_user
from trainer.web.auth.passwords import HAS_USERNAME, TOO_EASY, password_problem
from trainer.web.extensions import db
from trainer.web.models import LoginSession, Role, User, utcnow
from trainer.web.teach.accounts import make_password


def count_users(app) -> int:
    with app.app_context():
        return db.session.execute(select(func.count(User.id))).scalar_one()


def get_user(app, username: str) -> User | None:
    with app.app_context():
        return db.session.execute(
            select(User).where(User.username_key == username.casefold())
        ).scalar_one_or_none()


def test_signup_page(client):
    html = client.get("/auth/signup").get_data(as_text=True)
    assert 'name="csrf_token"' in html
    assert "no email" in html


@pytest.mark.app_config(PASSWORD_HASH_METHOD="scrypt")
def test_student_signs_up_and_is_logged_in(app, client, auth):
    response = auth.signup("river_otter")
    assert response.status_code == 302 and response.headers["Location"] == "/study/", (
        "a student starts at their study home"
    )
    user = get_user(app, "river_otter")
    assert user.role is Role.STUDENT and user.email is None
    assert user.password_hash != "correct horse" and user.check_password("correct horse")
    assert user.password_hash.startswith("scrypt:")
    assert user.created_at.tzinfo is not None
    page = client.get("/deck/").get_data(as_text=True)
    assert "river_otter" in page and "Log out" in page


@pytest.mark.app_config(OPEN_TEACHER_SIGNUP=True)
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
    args = {
        "username": "new_user",
        "password": "correct horse",
        "role": "student",
        "email": "",
    } | fields
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
        data={
            "username": "sneaky",
            "password": "correct horse",
            "confirm": "correct horse",
            "role": "student",
        },
    )
    assert response.status_code == 400
    assert "did not come from this site" in response.get_data(as_text=True)
    assert count_users(app) == 0


def test_signup_with_forged_csrf_token_is_rejected(app, client):
    client.get("/auth/signup")
    response = client.post(
        "/auth/signup",
        data={
            "username": "sneaky",
            "password": "correct horse",
            "confirm": "correct horse",
            "role": "student",
            "csrf_token": "forged",
        },
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


@pytest.mark.parametrize(
    ("username", "password"), [("student1", "wrong password"), ("nobody", "correct horse")]
)
def test_wrong_password_and_unknown_user_get_the_same_message(
    client, auth, student, username, password
):
    response = auth.login(username, password)
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "That username and password do not match." in html
    assert "Log out" not in html


@pytest.mark.parametrize(
    ("fields", "message"),
    [({"username": ""}, "Type your username."), ({"password": ""}, "Type your password.")],
)
def test_login_field_errors(client, auth, student, fields, message):
    args = {"username": "student1", "password": "correct horse"} | fields
    response = auth.login(**args)
    assert response.status_code == 400 and message in response.get_data(as_text=True)


def test_login_without_csrf_token_is_rejected(client, student):
    response = client.post(
        "/auth/login", data={"username": "student1", "password": "correct horse"}
    )
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
    cookie = next(
        v for k, v in response.headers.items() if k == "Set-Cookie" and v.startswith("session=")
    )
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


# --- Who may make a teacher account (issue 18: account takeover through open teacher sign-up) ------


def test_the_sign_up_page_offers_only_a_student_account(client):
    html = client.get("/auth/signup").get_data(as_text=True)
    assert 'value="teacher"' not in html and 'name="role"' not in html
    assert "Teachers are invited by their school&#39;s admin" in html
    assert "Email (teachers only" not in html


def test_nobody_makes_themselves_a_teacher_by_sign_up(app, auth):
    """A crafted role=teacher is refused, not quietly made a student (or a teacher)."""
    response = auth.signup("fake_teacher", role="teacher", email="fake@example.org")
    assert response.status_code == 400
    assert "Not a valid choice" in response.get_data(as_text=True)
    assert count_users(app) == 0


def test_without_a_role_the_sign_up_makes_a_student(app, client):
    token = csrf_token(client, "/auth/signup")
    response = client.post(
        "/auth/signup",
        data={
            "username": "kid_a",
            "password": "correct horse",
            "confirm": "correct horse",
            "csrf_token": token,
        },
    )
    assert response.status_code == 302
    assert get_user(app, "kid_a").role is Role.STUDENT


@pytest.mark.app_config(OPEN_TEACHER_SIGNUP=True)
def test_open_teacher_sign_up_offers_the_teacher_choice(app, client, auth):
    html = client.get("/auth/signup").get_data(as_text=True)
    assert 'value="teacher"' in html and "Teachers are invited" not in html
    assert auth.signup("ms_solo", role="teacher").headers["Location"] == "/teach/"
    assert get_user(app, "ms_solo").role is Role.TEACHER


@pytest.mark.parametrize(
    ("value", "expected"), [(None, False), ("0", False), ("1", True), ("yes", True)]
)
def test_open_teacher_sign_up_comes_from_the_environment(tmp_path, monkeypatch, value, expected):
    from trainer.web.config import from_environment

    monkeypatch.delenv("GEOPLUNGE_OPEN_TEACHER_SIGNUP", raising=False)
    if value is not None:
        monkeypatch.setenv("GEOPLUNGE_OPEN_TEACHER_SIGNUP", value)
    assert from_environment(tmp_path, with_secret=False)["OPEN_TEACHER_SIGNUP"] is expected


# --- Passwords that are easy to guess (issue 18) ------------------------------------------------------

GUESSABLE = ["password", "12345678", "qwertyuiop", "iloveyou1", "abcdefgh", "letmein123"]


@pytest.mark.parametrize("password", GUESSABLE)
def test_a_guessable_password_is_refused_at_sign_up(app, auth, password):
    response = auth.signup("river_otter", password=password)
    assert response.status_code == 400
    assert TOO_EASY in html_unescape(response.get_data(as_text=True))
    assert f'value="{password}"' not in response.get_data(as_text=True), (
        "a password is never echoed"
    )
    assert count_users(app) == 0


@pytest.mark.parametrize(
    "password", ["river_otter", "River_Otter!", "riverotter2012", "my-river.otter-pw"]
)
def test_a_password_with_the_username_in_it_is_refused(app, auth, password):
    response = auth.signup("river.otter", password=password)
    assert response.status_code == 400
    assert HAS_USERNAME in html_unescape(response.get_data(as_text=True))
    assert count_users(app) == 0


def test_a_short_password_gets_one_message_not_two(auth):
    html = html_unescape(auth.signup("river_otter", password="abc").get_data(as_text=True))
    assert "A password has at least 8 characters." in html and TOO_EASY not in html


@pytest.mark.parametrize("password", ["purple-tiger-rocket", "maps are fun", "correct horse"])
def test_a_password_hard_to_guess_is_accepted(app, auth, password):
    assert auth.signup("river_otter", password=password).status_code == 302


def test_password_problem():
    assert password_problem("password") == TOO_EASY
    assert password_problem("12345678") == TOO_EASY
    assert password_problem("maria.g123", "maria.g") == HAS_USERNAME
    assert password_problem("MARIAG-rocket-tiger", "maria.g") == HAS_USERNAME
    assert password_problem("purple-tiger-rocket", "maria.g") is None
    # A very short username is in too many good passwords to refuse them all.
    assert password_problem("purple-tiger-rocket", "ti") is None
    # Longer than zxcvbn judges: the first 72 characters are judged.
    assert password_problem("purple-tiger-rocket " * 6) is None
    assert password_problem("a" * 100) == TOO_EASY
    assert password_problem("") == TOO_EASY


def test_password_problem_takes_any_text():
    """Whatever is typed (any script, emoji, controls, odd case mappings) gets an answer, never an error."""
    rng = random.Random(18)
    for _ in range(300):
        text = "".join(
            chr(rng.choice([rng.randint(0, 0x2FFF), rng.randint(0x1F300, 0x1F6FF), 0x130, 0xFB00]))
            for _ in range(rng.randint(0, 140))
        )
        assert password_problem(text, "maria.g") in (None, TOO_EASY, HAS_USERNAME)


def test_login_slip_passwords_pass_the_rule():
    """The passwords made for login slips are never ones the rule would refuse (issue 18)."""
    rng = random.Random(18)
    for _ in range(2000):
        assert password_problem(make_password(rng.choice)) is None


def test_a_refused_slip_password_is_drawn_again():
    """ "bearcat22" would be refused (a dictionary word): the next draw is used instead."""
    draws = iter(["bear", "cat", "2", "2", "otter", "lamp", "4", "7"])
    assert make_password(lambda _options: next(draws)) == "otterlamp47"


# --- Changing one's own password --------------------------------------------------------------------


def change_password(client, current: str, new: str, confirm: str | None = None):
    token = csrf_token(client, "/auth/password")
    return client.post(
        "/auth/password",
        data={
            "current": current,
            "password": new,
            "confirm": new if confirm is None else confirm,
            "csrf_token": token,
        },
    )


def test_a_student_changes_their_password(app, player):
    response = change_password(player, "correct horse", "purple-tiger-rocket")
    assert response.status_code == 302 and response.headers["Location"] == "/study/"
    assert "Your password is changed" in player.get("/study/").get_data(as_text=True)
    with app.app_context():
        user = db.session.execute(select(User).where(User.username_key == "student1")).scalar_one()
        assert user.check_password("purple-tiger-rocket") and not user.check_password(
            "correct horse"
        )


@pytest.mark.parametrize(
    ("current", "new", "confirm", "message"),
    [
        ("wrong one", "purple-tiger-rocket", None, "That is not your password now."),
        ("correct horse", "password", None, TOO_EASY),
        ("correct horse", "student1-rocket", None, HAS_USERNAME),
        (
            "correct horse",
            "purple-tiger-rocket",
            "purple-tiger-rockets",
            "The two passwords are not the same.",
        ),
        ("correct horse", "short", None, "A password has at least 8 characters."),
    ],
)
def test_a_refused_password_change_changes_nothing(app, player, current, new, confirm, message):
    with app.app_context():
        before = db.session.execute(select(User.password_hash)).scalars().all()
    response = change_password(player, current, new, confirm)
    assert response.status_code == 400
    assert message in html_unescape(response.get_data(as_text=True))
    with app.app_context():
        assert db.session.execute(select(User.password_hash)).scalars().all() == before
    assert "Log out" in player.get("/").get_data(as_text=True), "still logged in"


@pytest.mark.app_config(RATELIMIT_ENABLED=True, LOGIN_LIMIT_PER_USERNAME_AND_ADDRESS="3 per minute")
def test_guessing_the_current_password_is_rate_limited(app, player):
    for guess in ("guess one", "guess two", "guess three"):
        assert change_password(player, guess, "purple-tiger-rocket").status_code == 400
    assert change_password(player, "correct horse", "purple-tiger-rocket").status_code == 429
    # Another account is not held up.
    make_user(app, "student2")
    assert (
        change_password(
            client_for(app, "student2"), "correct horse", "purple-tiger-rocket"
        ).status_code
        == 302
    )


def test_the_password_page_needs_a_login(client):
    assert client.get("/auth/password").headers["Location"].startswith("/auth/login?next=")


# --- Login sessions that really end (issue 18) -----------------------------------------------------


def session_cookie(app, client) -> str:
    return client.get_cookie(app.config["SESSION_COOKIE_NAME"]).value


def with_cookie(app, value: str):
    """A new client holding a copy of a session cookie (as someone who copied it would)."""
    client = app.test_client()
    client.set_cookie(app.config["SESSION_COOKIE_NAME"], value)
    return client


def logged_in(client) -> bool:
    return client.get("/study/").status_code == 200


def login_sessions(app) -> list[LoginSession]:
    with app.app_context():
        rows = db.session.execute(select(LoginSession).order_by(LoginSession.id)).scalars().all()
        db.session.expunge_all()
        return rows


def test_logging_out_ends_the_session_on_the_server(app, client, auth, student):
    auth.login()
    copied = session_cookie(app, client)
    assert logged_in(with_cookie(app, copied)), "the copy works while the session lasts"
    auth.logout()
    assert not logged_in(client)
    assert not logged_in(with_cookie(app, copied)), (
        "a cookie copied before logout no longer logs in"
    )
    assert login_sessions(app) == []


def test_logging_out_ends_only_that_session(app, student):
    laptop, phone = client_for(app, "student1"), client_for(app, "student1")
    AuthActions(laptop).logout()
    assert not logged_in(laptop) and logged_in(phone)


def test_a_password_change_ends_every_other_session(app, student):
    laptop, phone = client_for(app, "student1"), client_for(app, "student1")
    copied = session_cookie(app, laptop)
    assert change_password(laptop, "correct horse", "purple-tiger-rocket").status_code == 302
    assert logged_in(laptop), "the device that changed it stays logged in, with a new session"
    assert not logged_in(phone)
    assert not logged_in(with_cookie(app, copied))
    assert len(login_sessions(app)) == 1


def test_the_session_token_is_stored_only_as_a_hash(app, client, auth, student):
    auth.login()
    with app.test_request_context():
        token = app.session_interface.get_signing_serializer(app).loads(
            session_cookie(app, client)
        )["_user_id"]
    (row,) = login_sessions(app)
    assert (
        len(token) >= 43
        and row.token_hash == hashlib.sha256(token.encode()).hexdigest()
        and token not in row.token_hash
    )


def test_login_renews_the_session(app, client, auth, student):
    """No value of the cookie from before the login survives it; the CSRF token is drawn again."""
    client.get("/auth/login")
    with client.session_transaction() as before:
        before["planted"] = "by someone else"
        old_csrf = before["csrf_token"]
    assert auth.login().status_code == 302
    with client.session_transaction() as after:
        assert "planted" not in after
        assert after.get("csrf_token") != old_csrf


def test_no_remember_cookie_and_a_forged_one_does_not_log_in(app, client, auth, student):
    from flask_login.config import COOKIE_NAME
    from flask_login.utils import encode_cookie

    response = auth.login()
    assert not any(
        COOKIE_NAME in value for key, value in response.headers.items() if key == "Set-Cookie"
    )
    with app.test_request_context():
        token = app.session_interface.get_signing_serializer(app).loads(
            session_cookie(app, client)
        )["_user_id"]
        forged = encode_cookie(token)
    auth.logout()
    client.set_cookie(app.config.get("REMEMBER_COOKIE_NAME", COOKIE_NAME), forged)
    assert not logged_in(client), (
        "a remember cookie holding an ended session's token logs nobody in"
    )


def test_a_session_unused_for_a_month_ends(app, client, auth, student):
    auth.login()
    with app.app_context():
        db.session.execute(
            update(LoginSession).values(
                last_seen_at=utcnow()
                - dt.timedelta(days=app.config["LOGIN_SESSION_IDLE_DAYS"], minutes=1)
            )
        )
        db.session.commit()
    assert not logged_in(client)


def test_a_sessions_last_use_is_written_at_most_once_an_interval(app, client, auth, student):
    auth.login()
    two_hours_ago = utcnow() - dt.timedelta(hours=2)
    with app.app_context():
        db.session.execute(update(LoginSession).values(last_seen_at=two_hours_ago))
        db.session.commit()
    assert logged_in(client)
    (row,) = login_sessions(app)
    assert row.last_seen_at > two_hours_ago + dt.timedelta(hours=1)
    seen = row.last_seen_at
    assert logged_in(client)
    assert login_sessions(app)[0].last_seen_at == seen, "not written again within the hour"


def test_the_user_and_session_are_one_query(app, client, auth, student):
    auth.login()
    statements: list[str] = []

    def listener(conn, cursor, statement, *rest):
        statements.append(statement)

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", listener)
        try:
            assert client.get("/deck/").status_code == 200
        finally:
            event.remove(db.engine, "before_cursor_execute", listener)
    assert (
        len([s for s in statements if "login_session" in s or '"user"' in s or "user." in s]) == 1
    ), statements


def test_an_old_numeric_id_in_a_cookie_logs_nobody_in(app, client, student):
    with client.session_transaction() as sess:
        sess["_user_id"] = str(student.id)
        sess["_fresh"] = True
    assert not logged_in(client)


# --- Failed logins: no child locks out another (issue 18) -----------------------------------------


def login_from(client, address: str, username: str, password: str):
    token = csrf_token(client, "/auth/login")
    return client.post(
        "/auth/login",
        data={"username": username, "password": password, "csrf_token": token},
        environ_base={"REMOTE_ADDR": address},
    )


@pytest.mark.app_config(RATELIMIT_ENABLED=True)
def test_a_classmate_elsewhere_cannot_lock_a_student_out(app, student):
    classmate = app.test_client()
    for _ in range(10):
        assert login_from(classmate, "10.0.0.2", "student1", "a wrong guess").status_code == 400
    assert login_from(classmate, "10.0.0.2", "student1", "a wrong guess").status_code == 429
    # The student, at another computer, logs in.
    assert login_from(app.test_client(), "10.0.0.1", "student1", "correct horse").status_code == 302


@pytest.mark.app_config(RATELIMIT_ENABLED=True, LOGIN_LIMIT_PER_USERNAME="6 per hour")
def test_guessing_one_password_from_many_addresses_is_still_limited(app, student):
    guesser = app.test_client()
    for n in range(6):
        assert login_from(guesser, f"10.0.1.{n}", "student1", "a wrong guess").status_code == 400
    assert login_from(guesser, "10.0.1.99", "student1", "a wrong guess").status_code == 429
