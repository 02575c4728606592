"""Views for signing up, logging in and logging out."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_user, logout_user
from sqlalchemy import select
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.wrappers import Response

from ..extensions import db, limiter
from ..models import Role, User, utcnow
from .forms import LoginForm, LogoutForm, SignupForm

bp = Blueprint("auth", __name__, url_prefix="/auth")

#: Compared against when the username is unknown, so both failures take the same time.
_DUMMY_HASH = generate_password_hash("not a real password")
LOGIN_FAILED = "That username and password do not match. Check them and try again."


def _safe_next(target: str | None) -> str | None:
    """``target`` if it is a path on this site, else None (no open redirects)."""
    if not target:
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return None
    return target


def _login_username_key() -> str:
    return "login-user:" + User.key_for(request.form.get("username", ""))[:64]


def _failed(response: Response) -> bool:
    # Only failed logins count towards the limits: a class logging in together is not an attack.
    return response.status_code != 302


@bp.route("/signup", methods=["GET", "POST"])
@limiter.limit(lambda: current_app.config["SIGNUP_RATE_LIMIT"], methods=["POST"])
def signup() -> str | Response:
    """Create an account and log straight in (then go on to ``next``, e.g. a class's join link)."""
    next_url = _safe_next(request.args.get("next"))
    if current_user.is_authenticated:
        return redirect(next_url or url_for("main.home"))
    form = SignupForm()
    if form.validate_on_submit():
        role = Role(form.role.data)
        user = User(
            username=form.username.data.strip(),
            username_key=User.key_for(form.username.data),
            email=(form.email.data or None) if role is Role.TEACHER else None,
            role=role,
            last_login_at=utcnow(),
        )
        user.set_password(form.password.data)
        db.session.add(user)
        db.session.commit()
        login_user(user)
        flash(f"Welcome, {user.username}! Your account is ready.", "success")
        return redirect(next_url or _landing(user))
    return render_template("auth/signup.html", form=form, next_url=next_url), (400 if form.is_submitted() else 200)


def _landing(user: User) -> str:
    """Where a user starts: a student at their study home; a teacher at their classes."""
    return url_for("teach.index") if user.is_teacher else url_for("study.home")


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit(lambda: current_app.config["LOGIN_LIMIT_PER_ADDRESS"], methods=["POST"], deduct_when=_failed)
@limiter.limit(
    lambda: current_app.config["LOGIN_LIMIT_PER_USERNAME"],
    methods=["POST"],
    key_func=_login_username_key,
    deduct_when=_failed,
)
def login() -> str | Response:
    """Log in with username and password."""
    next_url = _safe_next(request.args.get("next"))
    if current_user.is_authenticated:
        return redirect(next_url or url_for("main.home"))
    form = LoginForm()
    if form.validate_on_submit():
        user = db.session.execute(select(User).where(User.username_key == User.key_for(form.username.data))).scalar_one_or_none()
        if user is None:
            check_password_hash(_DUMMY_HASH, form.password.data)
        elif user.check_password(form.password.data):
            user.last_login_at = utcnow()
            db.session.commit()
            login_user(user)
            flash(f"Hello, {user.username}!", "success")
            return redirect(next_url or _landing(user))
        form.password.errors = [LOGIN_FAILED]
    return render_template("auth/login.html", form=form, next_url=next_url), (400 if form.is_submitted() else 200)


@bp.post("/logout")
def logout() -> Response:
    """Log out (a POST with a CSRF token, so no other site can log a student out)."""
    form = LogoutForm()
    if form.validate_on_submit():
        logout_user()
        flash("You are logged out. See you soon!", "info")
    return redirect(url_for("main.home"))
