"""Views for signing up (as a student, or as a teacher with an admin's invite), logging in and out,
and changing one's password."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_limiter.util import get_remote_address
from flask_login import current_user
from sqlalchemy import select
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.wrappers import Response

from ..admin import invites
from ..extensions import db, limiter
from ..models import Role, User, utcnow
from ..security import login_required
from . import sessions
from .forms import (
    TEACHERS_ARE_INVITED,
    InviteSignupForm,
    LoginForm,
    LogoutForm,
    PasswordForm,
    SignupForm,
)

bp = Blueprint("auth", __name__, url_prefix="/auth")

#: Compared against when the username is unknown, so both failures take the same time.
_DUMMY_HASH = generate_password_hash("not a real password")
LOGIN_FAILED = "That username and password do not match. Check them and try again."
INVITE_UNKNOWN = (
    "This invite link does not work: it was used already, taken back, or more than "
    f"{invites.INVITE_DAYS} days old. Ask your school's admin for a new one."
)


def _safe_next(target: str | None) -> str | None:
    """``target`` if it is a path on this site, else None (no open redirects)."""
    if not target:
        return None
    parts = urlsplit(target)
    if (
        parts.scheme
        or parts.netloc
        or not target.startswith("/")
        or target.startswith("//")
        or "\\" in target
    ):
        return None
    return target


def _login_username() -> str:
    return User.key_for(request.form.get("username", ""))[:64]


def _login_username_key() -> str:
    return "login-user:" + _login_username()


def _login_username_address_key() -> str:
    return f"login-user-address:{get_remote_address()}:{_login_username()}"


def _failed(response: Response) -> bool:
    # Only failed logins count towards the limits: a class logging in together is not an attack.
    return response.status_code != 302


def _new_user(form: SignupForm | InviteSignupForm, role: Role, email: str | None) -> User:
    """The account a sign-up form describes, added to the database session (not yet committed)."""
    user = User(
        username=form.username.data.strip(),
        username_key=User.key_for(form.username.data),
        email=email,
        role=role,
        last_login_at=utcnow(),
    )
    user.set_password(form.password.data)
    db.session.add(user)
    return user


@bp.route("/signup", methods=["GET", "POST"])
@limiter.limit(lambda: current_app.config["SIGNUP_RATE_LIMIT"], methods=["POST"])
def signup() -> str | Response | tuple[str, int]:
    """Create an account and log straight in (then go on to ``next``, e.g. a class's join link).

    A teacher account only when open teacher sign-up is on; otherwise teachers come with an
    admin's invite (``invite_signup``), so nobody can make themselves a stranger's "teacher".
    """
    next_url = _safe_next(request.args.get("next"))
    if current_user.is_authenticated:
        return redirect(next_url or url_for("main.home"))
    form = SignupForm(teachers_may_sign_up=current_app.config["OPEN_TEACHER_SIGNUP"])
    if form.validate_on_submit():
        role = Role(form.role.data)
        user = _new_user(form, role, (form.email.data or None) if role is Role.TEACHER else None)
        db.session.commit()
        sessions.start(user)
        flash(f"Welcome, {user.username}! Your account is ready.", "success")
        return redirect(next_url or _landing(user))
    return render_template(
        "auth/signup.html", form=form, next_url=next_url, teachers_are_invited=TEACHERS_ARE_INVITED
    ), (400 if form.is_submitted() else 200)


@bp.route("/invite/<token>", methods=["GET", "POST"])
@limiter.limit(lambda: current_app.config["SIGNUP_RATE_LIMIT"], methods=["POST"])
def invite_signup(token: str) -> str | Response | tuple[str, int]:
    """Make a teacher account with a school admin's invite link (single use, for 7 days)."""
    if current_user.is_authenticated:
        return redirect(url_for("main.home"))
    invite = invites.find_open(token)
    if invite is None:
        return render_template("auth/invite.html", form=None, problem=INVITE_UNKNOWN), 404
    form = InviteSignupForm()
    if form.validate_on_submit():
        user = _new_user(form, Role.TEACHER, form.email.data or None)
        db.session.flush()
        if invites.claim(invite, user):
            db.session.commit()
            sessions.start(user)
            flash(
                f"Welcome, {user.username}! Your teacher account is ready. Create your first class.",
                "success",
            )
            return redirect(url_for("teach.index"))
        # Someone used the link a moment ago (it was sent twice): nothing is kept.
        db.session.rollback()
        return render_template("auth/invite.html", form=None, problem=INVITE_UNKNOWN), 404
    return render_template("auth/invite.html", form=form, token=token, problem=None), (
        400 if form.is_submitted() else 200
    )


def _landing(user: User) -> str:
    """Where a user starts: a student at their study home; a teacher at their classes."""
    return url_for("teach.index") if user.is_teacher else url_for("study.home")


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit(
    lambda: current_app.config["LOGIN_LIMIT_PER_ADDRESS"], methods=["POST"], deduct_when=_failed
)
@limiter.limit(
    lambda: current_app.config["LOGIN_LIMIT_PER_USERNAME_AND_ADDRESS"],
    methods=["POST"],
    key_func=_login_username_address_key,
    deduct_when=_failed,
)
@limiter.limit(
    lambda: current_app.config["LOGIN_LIMIT_PER_USERNAME"],
    methods=["POST"],
    key_func=_login_username_key,
    deduct_when=_failed,
)
def login() -> str | Response | tuple[str, int]:
    """Log in with username and password.

    Failed logins are limited per address, per username from one address (quickly) and per
    username from everywhere (slowly): a classmate typing wrong passwords for someone else's
    username from another computer does not lock them out.
    """
    next_url = _safe_next(request.args.get("next"))
    if current_user.is_authenticated:
        return redirect(next_url or url_for("main.home"))
    form = LoginForm()
    if form.validate_on_submit():
        user = db.session.execute(
            select(User).where(User.username_key == User.key_for(form.username.data))
        ).scalar_one_or_none()
        if user is None:
            check_password_hash(_DUMMY_HASH, form.password.data)
        elif user.check_password(form.password.data):
            user.last_login_at = utcnow()
            sessions.start(user)
            flash(f"Hello, {user.username}!", "success")
            return redirect(next_url or _landing(user))
        form.password.errors = [LOGIN_FAILED]
    return render_template("auth/login.html", form=form, next_url=next_url), (
        400 if form.is_submitted() else 200
    )


@bp.post("/logout")
def logout() -> Response:
    """Log out (a POST with a CSRF token, so no other site can log a student out).

    The login session ends on the server: a copy of the cookie no longer logs anyone in.
    """
    form = LogoutForm()
    if form.validate_on_submit():
        sessions.end()
        flash("You are logged out. See you soon!", "info")
    return redirect(url_for("main.home"))


def _password_change_key() -> str:
    return f"password-change:{getattr(current_user, 'id', None)}"


@bp.route("/password", methods=["GET", "POST"])
# Refused changes count: someone at a computer left logged in cannot try passwords one after another.
@limiter.limit(
    lambda: current_app.config["LOGIN_LIMIT_PER_USERNAME_AND_ADDRESS"],
    methods=["POST"],
    key_func=_password_change_key,
    deduct_when=lambda response: response.status_code == 400,
)
@login_required
def password() -> str | Response | tuple[str, int]:
    """Change one's own password: every other device where the account is logged in is logged out."""
    user: User = current_user._get_current_object()
    form = PasswordForm(user)
    if form.validate_on_submit():
        user.set_password(form.password.data)
        db.session.commit()
        sessions.start(user)
        flash(
            "Your password is changed. Anywhere else you were logged in, you are logged out.",
            "success",
        )
        return redirect(_landing(user))
    return render_template("auth/password.html", form=form), (400 if form.is_submitted() else 200)
