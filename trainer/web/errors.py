"""Error pages in the site's style, and JSON errors for JSON clients."""

from __future__ import annotations

from flask import Flask, jsonify, render_template
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError

from .security import wants_json

MESSAGES = {
    400: ("Something was wrong with that request", "Please go back and try again."),
    401: ("Please log in", "You need to log in to see this."),
    403: ("Not allowed", "Your account cannot open this page."),
    404: ("Page not found", "We could not find that page. Check the address, or start again from the home page."),
    405: ("Not allowed", "That page cannot be used that way."),
    413: ("Too much", "That was more than we can take in one go."),
    429: ("Slow down", "Too many tries in a short time. Wait a minute, then try again."),
    500: ("Something went wrong", "It is our fault, not yours. Please try again in a moment."),
}


def _render(status: int, detail: str | None = None):
    title, message = MESSAGES.get(status, (f"Error {status}", "Something went wrong."))
    if wants_json():
        return jsonify(error=title, message=detail or message), status
    return render_template("errors/error.html", status=status, title=title, message=detail or message), status


def register_errorhandlers(app: Flask) -> None:
    """Show every HTTP error, CSRF failures and crashes as a page of the site."""

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError):
        return _render(400, "This form had expired or did not come from this site. Please try again.")

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        return _render(error.code or 500)

    @app.errorhandler(InternalServerError)
    def server_error(error: InternalServerError):
        return _render(500)
