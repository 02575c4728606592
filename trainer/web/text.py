"""Text that users type, made safe where it goes: names shown to other people, and CSV cells.

Two guards, each the one place its rule lives:

- :class:`TypedName` (with :func:`clean_name`) for every name or title a user types (ruling
  P-H12): no hidden or control characters, one space between words, NFC. A class name with a
  right-to-left override could make the join page read as something it is not.
- :func:`csv_line` (with :func:`csv_safe`) for every line of a CSV download (ruling P-H11): no cell
  a spreadsheet would run as a formula, in any locale.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable

from wtforms import Field
from wtforms.validators import StopValidation

__all__ = [
    "REFUSED_CATEGORIES",
    "TypedName",
    "UnsafeText",
    "clean_name",
    "csv_line",
    "csv_safe",
    "hidden_characters",
]

# --- Names ---------------------------------------------------------------------------------------

#: Unicode categories no typed name may hold (P-H12): Cf, format characters (the bidi overrides
#: and isolates such as U+202E, zero-width spaces and joiners, U+FEFF, the soft hyphen); Cc,
#: controls (NUL, escape; tabs and line breaks are spaces first); Co, private use; Cs, lone
#: surrogates; Cn, code points Unicode has not assigned (what they show as is unknown).
REFUSED_CATEGORIES = frozenset({"Cf", "Cc", "Co", "Cs", "Cn"})


class UnsafeText(ValueError):
    """Text with characters a name may not hold; ``str(exc)`` says so in words a child understands."""


def hidden_characters(text: str) -> list[str]:
    """The characters of ``text`` in :data:`REFUSED_CATEGORIES`, in order, once each."""
    found: list[str] = []
    for char in text:
        if unicodedata.category(char) in REFUSED_CATEGORIES and char not in found:
            found.append(char)
    return found


def _codes(chars: list[str]) -> str:
    """Characters that cannot be shown, named by their code point ("U+202E")."""
    return ", ".join(f"U+{ord(char):04X}" for char in chars)


def clean_name(text: str) -> str:
    """``text`` as a name is kept: NFC, each run of spaces, tabs or line breaks one space, trimmed.

    Raises:
        UnsafeText: ``text`` holds a hidden or control character (see :data:`REFUSED_CATEGORIES`).
            The message names it by its code point, never by the character itself, which could
            turn the message around too.
    """
    cleaned = " ".join(unicodedata.normalize("NFC", text).split())
    hidden = hidden_characters(cleaned)
    if hidden:
        some = "a hidden character" if len(hidden) == 1 else "hidden characters"
        raise UnsafeText(
            f"This has {some} ({_codes(hidden)}) that can change how text looks. "
            "Please type it again yourself instead of pasting it."
        )
    return cleaned


class TypedName:
    """A WTForms validator for a name or title a user types (P-H12).

    Refuses hidden and control characters with :func:`clean_name`'s message and stops the field's
    other validators (no database look-up ever sees the text); otherwise leaves the cleaned text
    in ``field.data``. Put it after ``DataRequired``/``Optional`` and before ``Length``, so the
    length counted is the length kept.
    """

    field_flags: dict[str, bool] = {}

    def __call__(self, form: object, field: Field) -> None:
        if not isinstance(field.data, str):
            return
        try:
            field.data = clean_name(field.data)
        except UnsafeText as unsafe:
            raise StopValidation(str(unsafe)) from None


# --- CSV cells -----------------------------------------------------------------------------------

#: What makes a spreadsheet read a cell as a formula when the cell starts with it: = + - @, tab
#: and carriage return (OWASP's list), and the full-width = + - @ that East Asian input gives.
FORMULA_TRIGGERS = "=+-@\t\r\uff1d\uff0b\uff0d\uff20"
#: Where a spreadsheet may start a new cell inside text written as one cell: the list separators
#: of other locales (Excel in much of Europe splits on ";"), tabs and line breaks.
CELL_STARTS = ",;\t\r\n"
#: A trigger at a cell start, after any spaces or double quotes (a quote there may open a quoted
#: cell, and a doubled quote inside it is read as one: the trigger can still come first).
_FORMULA_AT_A_CELL_START = re.compile(
    f'(^|[{re.escape(CELL_STARTS)}])([ "]*)(?=[{re.escape(FORMULA_TRIGGERS)}])'
)


def csv_safe(value: str) -> str:
    """``value`` as a CSV cell that no spreadsheet runs as a formula (ruling P-H11).

    An apostrophe goes before each formula trigger that starts the cell or follows (after any
    spaces or quotes) something a spreadsheet may split the cell on: "=1+1" becomes "'=1+1", and
    "x;=1+1" becomes "x;'=1+1", because Excel with ";" as its list separator reads that as two
    cells and would run the second. A leading apostrophe alone would not help there: the
    formula is in the second cell. Everything else is kept as typed ("a=b", "North-Carolina").
    """
    return _FORMULA_AT_A_CELL_START.sub(r"\1\2'", value)


def csv_line(cells: Iterable[object]) -> str:
    """One CSV line (RFC 4180, CRLF) with every text cell passed through :func:`csv_safe`.

    Every CSV download writes its lines with this, so no cell, typed by a user or not, can be
    left unguarded. Numbers and None are written as the csv module writes them.
    """
    buffer = io.StringIO()
    csv.writer(buffer).writerow(
        [csv_safe(cell) if isinstance(cell, str) else cell for cell in cells]
    )
    return buffer.getvalue()
