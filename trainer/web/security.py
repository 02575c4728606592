"""Security headers and the role guards that every protected view uses."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

from flask import Flask, abort, redirect, request, url_for
from flask_login import current_user
from werkzeug.wrappers import Response

from .models import Role

P = ParamSpec("P")
R = TypeVar("R")

#: Everything comes from this app: no inline script, no CDN.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


def add_security_headers(response: Response) -> Response:
    """Set the strict CSP and the usual hardening headers on every response."""
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
    if request.is_secure:
        response.headers.setdefault("Strict-Transport-Security", "max-age=31536000")
    return response


def wants_json() -> bool:
    """True when the client asked for JSON rather than a page."""
    return (
        request.is_json
        or request.accept_mimetypes.best_match(["text/html", "application/json"])
        == "application/json"
    )


def role_required(*roles: Role) -> Callable[[Callable[P, R]], Callable[P, R | Response]]:
    """Let only users with one of ``roles`` in.

    People who are not logged in are sent to the login page (JSON clients get 401); logged-in
    users with another role get 403.
    """

    def decorator(view: Callable[P, R]) -> Callable[P, R | Response]:
        @wraps(view)
        def wrapped(*args: P.args, **kwargs: P.kwargs) -> R | Response:
            if not current_user.is_authenticated:
                if wants_json():
                    abort(401)
                return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
            if current_user.role not in roles:
                abort(403)
            return view(*args, **kwargs)

        return wrapped

    return decorator


teacher_required = role_required(Role.TEACHER)
student_required = role_required(Role.STUDENT)
login_required = role_required(Role.STUDENT, Role.TEACHER)


def init_app(app: Flask) -> None:
    """Install the headers on every response."""
    app.after_request(add_security_headers)
