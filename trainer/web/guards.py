"""Input guards: what a request may carry before any view (or the login loader) reads it.

Three classes of input crashed requests with a 500 (issue 18, section 4), each in many views at
once, so each is refused here once for the whole app rather than view by view:

- text the database cannot store (a NUL byte makes PostgreSQL refuse a whole statement) or that no
  keyboard types (other control characters): refused before any view runs, by ``refuse_unreadable``;
- ids beyond the database's integer range (``/teach/classes/2147483648``): the URL converter
  ``int`` is bounded, so such a URL names no page (404), like any id that does not exist;
- numbers written with other scripts' digits (``'²'.isdigit()`` is true, ``int('²')`` raises, and
  ``int('٣')`` is 3): every number a view reads from a form goes through ``whole_number``.

One guard runs inside the views that change a round, a game or a match: a form sent twice, or from
a page that is out of date, changes nothing and is answered by ``nothing_changed``.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Any

from flask import Flask, flash, jsonify, redirect, render_template, request
from werkzeug.exceptions import BadRequest
from werkzeug.routing import IntegerConverter, Map
from werkzeug.wrappers import Response
from wtforms import Field, Form
from wtforms.validators import StopValidation

from .extensions import db
from .security import wants_json

#: The largest id a URL may name: the top of a 32-bit signed integer, PostgreSQL's ``integer``.
MAX_ID = 2**31 - 1

#: C0 control characters and lone surrogates: no keyboard types them, PostgreSQL cannot store a
#: NUL, and a lone surrogate cannot be encoded. Form text may keep tab, newline and carriage return
#: (a pasted list of names has line breaks); a URL has no use for any of them.
UNREADABLE_IN_FORM = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")
UNREADABLE_IN_URL = re.compile(r"[\x00-\x1f\ud800-\udfff]")

UNREADABLE_TITLE = "We could not read that"
UNREADABLE_MESSAGE = "That had a character we cannot read. Please type it again."

_WHOLE_NUMBER = re.compile(r"[0-9]{1,9}")


class UnreadableInput(BadRequest):
    """A request carrying a character the app refuses to read (see ``UNREADABLE_IN_*``)."""

    description = UNREADABLE_MESSAGE


def whole_number(raw: str | None, lo: int = 0, hi: int = MAX_ID) -> int | None:
    """``raw`` as a whole number from ``lo`` to ``hi``, or None if it is anything else.

    The one way a view reads a number from a request's text (a hidden field's ply, turn or
    position, a chosen team). Only ASCII digits count: ``str.isdigit`` accepts "²", which ``int``
    refuses, and ``int`` itself accepts "٣" and "1_000", which no form of ours sends. Nine digits
    at most, so the number always fits the database's integer.
    """
    text = (raw or "").strip() if isinstance(raw, str) else ""
    if not _WHOLE_NUMBER.fullmatch(text):
        return None
    value = int(text)
    return value if lo <= value <= hi else None


class BoundedIntConverter(IntegerConverter):
    """Flask's ``<int:...>`` with ASCII digits only and at most ``MAX_ID``.

    Werkzeug's converter matches ``\\d+`` (any script's digits) and any size, so a URL could name id
    2**31 and the database refused the query with a 500. Here such a URL matches no route: a 404,
    as for any id that does not exist. A route may still ask for a smaller range, ``<int(max=9):n>``.
    """

    regex = r"[0-9]+"

    def __init__(
        self,
        map: Map,
        fixed_digits: int = 0,
        min: int | None = 0,
        max: int | None = MAX_ID,
        signed: bool = False,
    ) -> None:
        low = -MAX_ID - 1 if min is None else min
        high = MAX_ID if max is None or max > MAX_ID else max
        super().__init__(map, fixed_digits, low, high, signed)


def _unreadable(values: Any, pattern: re.Pattern[str]) -> bool:
    """True if a key or a value of the mapping ``values`` (a MultiDict or a dict) matches ``pattern``."""
    items = values.items(multi=True) if hasattr(values, "getlist") else values.items()
    return any(
        pattern.search(str(key)) or (isinstance(value, str) and pattern.search(value))
        for key, value in items
    )


def refuse_unreadable() -> None:
    """Refuse (400) a request whose path, URL values, query or form holds a character we cannot read.

    Runs before every other ``before_request`` function and so before any view, and before anything
    loads the signed-in user: the text never reaches the database.

    Raises:
        UnreadableInput: something in the request matches ``UNREADABLE_IN_URL`` or ``UNREADABLE_IN_FORM``.
    """
    if UNREADABLE_IN_URL.search(request.path) or _unreadable(
        request.view_args or {}, UNREADABLE_IN_URL
    ):
        raise UnreadableInput()
    if _unreadable(request.args, UNREADABLE_IN_URL):
        raise UnreadableInput()
    if request.method not in ("GET", "HEAD", "OPTIONS") and _unreadable(
        request.form, UNREADABLE_IN_FORM
    ):
        raise UnreadableInput()


def unreadable_input(error: UnreadableInput):
    """The 400 page that says what was wrong (the generic 400 page would not)."""
    if wants_json():
        return jsonify(error=UNREADABLE_TITLE, message=UNREADABLE_MESSAGE), 400
    page = render_template(
        "errors/error.html", status=400, title=UNREADABLE_TITLE, message=UNREADABLE_MESSAGE
    )
    return page, 400


class FiniteNumber:
    """A number field's first validator: refuse NaN and infinities with the field's own message.

    ``Decimal("sNaN") < 70`` raises instead of answering, so a NumberRange after it would crash the
    request; and "inf" or "NaN" is no amount a person means.
    """

    def __init__(self, message: str) -> None:
        self.message = message

    def __call__(self, form: Form, field: Field) -> None:
        if not _finite(field.data):
            field.data = None
            raise StopValidation(self.message)


def _finite(value: object) -> bool:
    """False for a NaN or an infinity (``math.isfinite`` cannot take a signalling NaN)."""
    if isinstance(value, Decimal):
        return value.is_finite()
    if isinstance(value, float):
        return math.isfinite(value)
    return True


class Stale(Exception):
    """Raised by a service function (a mode's ``play_*``) when its form was sent twice or from an
    out-of-date page: nothing may change. The view answers it with ``nothing_changed(str(error),
    page, error.category)``, so the words are the service's and the page is the view's."""

    def __init__(self, message: str, category: str = "info") -> None:
        super().__init__(message)
        self.category = category


class Refused(Exception):
    """Raised by a service function when the move or call itself is not allowed (an illegal move, a
    call that cannot be read): nothing changes, and the view shows the message with the form."""


def nothing_changed(message: str, to: str, category: str = "info") -> Response:
    """The answer to a form sent twice or from an out-of-date page: nothing is kept, and the
    page as it is now is shown again with ``message`` (the one stale-page guard, issue 20).

    A view that changes a round, a game or a match checks what its form was shown with (the
    round's call, a move count, a ply, a match's games) against what is stored, first on what it
    read and again in the conditional write that saves the change; on a mismatch at either, it
    returns this. Whatever the request began to write is rolled back (a tournament view may hold
    the tournament's row claimed).

    Args:
        message: what the flash says, in the view's own words.
        to: the page that was out of date.
        category: the flash's category: "info" in a student's own game, "error" at a tournament
            match (every refusal there goes through this guard).

    Returns:
        A redirect (302) to ``to``.
    """
    db.session.rollback()
    flash(message, category)
    return redirect(to)


def init_app(app: Flask) -> None:
    """Bound the ``int`` URL converter and refuse unreadable input; call before any blueprint is
    registered (a rule takes its converter when it is added) and before any other ``before_request``."""
    app.url_map.converters["int"] = BoundedIntConverter
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_unreadable)
    app.register_error_handler(UnreadableInput, unreadable_input)
