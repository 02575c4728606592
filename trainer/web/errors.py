"""Error pages in the site's style, and JSON errors for JSON clients.

The pages for a crash (500), for data the database refused (400) and for a database that is out
of reach (503) never touch the database: the request's transaction is rolled back first, and
they are rendered from a layout that needs no signed-in user, without the context processors
(Flask-Login's loads the user from the database for every page it renders).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import DataError, DBAPIError
from werkzeug.exceptions import HTTPException, InternalServerError

from .dberrors import roll_back, unavailable
from .memory import Busy
from .security import wants_json

MESSAGES = {
    400: ("Something was wrong with that request", "Please go back and try again."),
    401: ("Please log in", "You need to log in to see this."),
    403: ("Not allowed", "Your account cannot open this page."),
    404: (
        "Page not found",
        "We could not find that page. Check the address, or start again from the home page.",
    ),
    405: ("Not allowed", "That page cannot be used that way."),
    413: ("Too much", "That was more than we can take in one go."),
    429: ("Slow down", "Too many tries in a short time. Wait a minute, then try again."),
    500: ("Something went wrong", "It is our fault, not yours. Please try again in a moment."),
    503: (
        "We'll be right back",
        "We could not reach our records just now. Please try again in a moment.",
    ),
}
#: What a student reads when the database refused what was sent (a character or a number it cannot store).
REFUSED_DATA = "Something you sent has a character or a number we cannot save. Nothing was changed: check it and try again."
#: Seconds a client is asked to wait before trying again while the database is out of reach.
RETRY_AFTER = 5


def _render(status: int, detail: str | None = None):
    title, message = MESSAGES.get(status, (f"Error {status}", "Something went wrong."))
    if wants_json():
        return jsonify(error=title, message=detail or message), status
    return render_template(
        "errors/error.html", status=status, title=title, message=detail or message
    ), status


def _render_plain(template: str, status: int, detail: str | None = None, **context: Any):
    """An error page that needs no database: no context processors, no signed-in user."""
    title, message = MESSAGES.get(status, (f"Error {status}", "Something went wrong."))
    if wants_json():
        return jsonify(error=title, message=detail or message), status
    page = current_app.jinja_env.get_template(template).render(
        status=status, title=title, message=detail or message, **context
    )
    return page, status


def _sent_fields() -> list[tuple[str, str]]:
    """The fields of the form that was being sent, to send again as they were; never a password."""
    if request.method != "POST":
        return []
    return [
        (name, value)
        for name, value in request.form.items(multi=True)
        if not any(secret in name.lower() for secret in ("pass", "confirm", "secret"))
    ]


def _unavailable_page():
    """503 "try again in a moment", with the form that was being sent ready to send again."""
    fields = _sent_fields()
    # Always a path of this site: "//evil.example" (or "/\evil.example") would leave it.
    retry_url = f"{request.script_root}/{request.full_path.rstrip('?').lstrip('/')}".replace(
        "\\", "%5C"
    )
    body, status = _render_plain("errors/unavailable.html", 503, fields=fields, retry_url=retry_url)
    return body, status, {"Retry-After": str(RETRY_AFTER)}


def register_errorhandlers(app: Flask) -> None:
    """Show every HTTP error, CSRF failures and crashes as a page of the site."""

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError):
        return _render(
            400, "This form had expired or did not come from this site. Please try again."
        )

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        return _render(error.code or 500)

    @app.errorhandler(DBAPIError)
    def database_error(error: DBAPIError):
        """The database out of reach: 503; data it cannot store: 400; anything else is a crash."""
        roll_back()
        if unavailable(error):
            current_app.logger.warning("database out of reach: %s", error.__class__.__name__)
            return _unavailable_page()
        if isinstance(error, DataError):
            current_app.logger.warning("data refused by the database", exc_info=error)
            return _render_plain("errors/plain_base.html", 400, REFUSED_DATA)
        raise error  # logged by Flask, then shown by the 500 handler below

    @app.errorhandler(Busy)
    def busy(error: Busy):
        roll_back()
        return _unavailable_page()

    @app.errorhandler(InternalServerError)
    def server_error(error: InternalServerError):
        roll_back()
        # An error page that itself failed on the database (a page of a signed-in user while it
        # restarts) arrives here as the original error: still "try again in a moment".
        if error.original_exception is not None and unavailable(error.original_exception):
            return _unavailable_page()
        return _render_plain("errors/plain_base.html", 500)
