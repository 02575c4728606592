"""The two guards on text users type (``trainer.web.text``): names (P-H12) and CSV cells (P-H11).

The teacher forms and the CSV downloads that use them are checked through the client in
``tests/web/test_teach_text.py``; the sign-up form is checked here.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from werkzeug.datastructures import MultiDict
from wtforms import Form, StringField
from wtforms.validators import DataRequired, Length

from trainer.web.extensions import db
from trainer.web.models import User
from trainer.web.text import (
    REFUSED_CATEGORIES,
    TypedName,
    UnsafeText,
    clean_name,
    csv_line,
    csv_safe,
)

RLO, ZWSP = "\u202e", "\u200b"  # a right-to-left override and a zero-width space
HIDDEN = [
    RLO,
    ZWSP,
    "\u2066",
    "\u200d",
    "\ufeff",
    "\u00ad",
    "\x00",
    "\x1b",
    "\x7f",
    "\ue000",
    "\U000e0041",
]

# --- P-H12: names ------------------------------------------------------------------------------


@pytest.mark.parametrize("char", HIDDEN)
def test_p_h12_a_name_with_a_hidden_or_control_character_is_refused(char):
    """P-H12: format (bidi, zero-width), control and private-use characters are refused, named by code point."""
    with pytest.raises(UnsafeText) as refused:
        clean_name(f"Room{char}12")
    message = str(refused.value)
    assert f"(U+{ord(char):04X})" in message and char not in message
    assert message == (
        f"This has a hidden character (U+{ord(char):04X}) that can change how text looks. "
        "Please type it again yourself instead of pasting it."
    )


def test_p_h12_several_hidden_characters_are_named_once_each():
    with pytest.raises(UnsafeText, match=r"hidden characters \(U\+202E, U\+200B\)"):
        clean_name(f"{RLO}a{ZWSP}b{RLO}")


def test_p_h12_an_unassigned_code_point_is_refused():
    unassigned = next(
        chr(c) for c in range(0x0378, 0x10FFFF) if unicodedata.category(chr(c)) == "Cn"
    )
    with pytest.raises(UnsafeText):
        clean_name(f"a{unassigned}")


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("  Room\t 12 \n", "Room 12"),  # tabs and line breaks are spaces, runs of them one
        ("Cafe\u0301 Club", "Caf\u00e9 Club"),  # NFC: one é
        ("Period\u00a03\u3000Geography", "Period 3 Geography"),  # no-break and ideographic spaces
        ("Ms. O’Brien’s class – 5/6", "Ms. O’Brien’s class – 5/6"),
        ("李雷的班 🌎", "李雷的班 🌎"),
        ("", ""),
    ],
)
def test_p_h12_names_are_kept_in_nfc_with_single_spaces(typed, kept):
    assert clean_name(typed) == kept


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_p_h12_property_a_kept_name_has_no_refused_character_and_is_stable(text):
    """P-H12, for any text: either refused, or kept with no refused character, and cleaning it again changes nothing."""
    try:
        kept = clean_name(text)
    except UnsafeText:
        assert any(
            unicodedata.category(c) in REFUSED_CATEGORIES
            for c in " ".join(unicodedata.normalize("NFC", text).split())
        )
        return
    assert not any(unicodedata.category(c) in REFUSED_CATEGORIES for c in kept)
    assert clean_name(kept) == kept and kept == kept.strip() and "  " not in kept


class NameForm(Form):
    """A form with one typed name, as the app's forms use the validator, and a later check that records what it saw."""

    name = StringField(validators=[DataRequired(), TypedName(), Length(max=10)])

    def validate_name(self, field: StringField) -> None:
        self.seen = field.data


def test_p_h12_the_validator_cleans_the_name_for_the_later_checks():
    form = NameForm(MultiDict({"name": "  Caf\u0065\u0301\t12 "}))
    assert form.validate()
    assert form.name.data == form.seen == "Caf\u00e9 12"


@pytest.mark.parametrize("char", [RLO, ZWSP, "\x00"])
def test_p_h12_the_validator_refuses_and_stops_the_later_checks(char):
    """P-H12: no later check (a database look-up) ever sees a refused name."""
    form = NameForm(MultiDict({"name": f"Room{char}"}))
    assert not form.validate()
    assert form.name.errors == [str(pytest.raises(UnsafeText, clean_name, f"Room{char}").value)]
    assert not hasattr(form, "seen")


@pytest.mark.parametrize("char", [RLO, ZWSP])
def test_p_h12_sign_up_refuses_a_username_with_a_hidden_character(app, auth, char):
    """P-H12: the sign-up form's username uses the shared check; nothing is made."""
    response = auth.signup(f"maria{char}g")
    assert response.status_code in (200, 400)
    html = response.get_data(as_text=True)
    assert f"hidden character (U+{ord(char):04X})" in html
    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(User)).scalar_one() == 0


# --- P-H11: CSV cells --------------------------------------------------------------------------------

DANGEROUS = [
    "x;=1+1",
    "=1+1",
    "a\t=1",
    "-2+3",
    "@SUM(A1)",
    "+1",
    "\tx",
    "\r=1",
    "a\n=1",
    "a,=1",
    "x; =1",
    "\uff1d1+1",
    'a;=HYPERLINK("http://x")',
]


def spreadsheet_cells(line: str) -> list[str]:
    """Every cell some spreadsheet could make of one CSV line.

    With each list separator a locale uses (",", ";", tab), read as RFC 4180 (quotes honoured) and
    read naively (every separator and line break starts a new cell, quotes kept).
    """
    cells = []
    for separator in (",", ";", "\t"):
        for row in csv.reader(io.StringIO(line, newline=""), delimiter=separator):
            cells += row
        cells += re.split(f"[{re.escape(separator)}\r\n]", line)
    return cells


#: What a spreadsheet runs when a cell starts with it, once it has skipped any spaces, tabs and line breaks.
RUNS = tuple("=+-@\uff1d\uff0b\uff0d\uff20")


def formula_cells(line: str) -> list[str]:
    return [cell for cell in spreadsheet_cells(line) if cell.lstrip(" \t\r\n").startswith(RUNS)]


@pytest.mark.parametrize("value", DANGEROUS)
def test_p_h11_no_spreadsheet_finds_a_formula_in_a_guarded_cell(value):
    """P-H11: whatever the locale's separator, and with or without honouring quotes, no cell starts like a formula."""
    line = csv_line(["river", value, 3])
    assert formula_cells(line) == []
    assert formula_cells(csv_line([value])) == []


@pytest.mark.parametrize(
    ("value", "safe"),
    [
        ("x;=1+1", "x;'=1+1"),
        ("=1+1", "'=1+1"),
        ("a\t=1", "a\t'=1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("a\n=1", "a\n'=1"),
        ("x; =1", "x; '=1"),
        ("\uff1d1+1", "'\uff1d1+1"),
        ("a=b", "a=b"),
        ("North-Carolina", "North-Carolina"),
        ("Salt Lake City, Utah", "Salt Lake City, Utah"),
        ("2025-03-10T04:00:00+00:00", "2025-03-10T04:00:00+00:00"),
        ("", ""),
    ],
)
def test_p_h11_the_guard_adds_an_apostrophe_before_each_trigger_at_a_cell_start_and_nothing_else(
    value, safe
):
    assert csv_safe(value) == safe
    (row,) = csv.reader(io.StringIO(csv_line([value]), newline=""))
    assert row == [safe]


def test_p_h11_numbers_and_empty_cells_are_written_as_they_are():
    assert csv_line(["a", 3, -2, None, ""]) == "a,3,-2,,\r\n"


@settings(max_examples=500, deadline=None)
@given(st.lists(st.text(alphabet="=+-@\t\r\n,;\" 'ab1\uff1d", max_size=12), min_size=1, max_size=4))
def test_p_h11_property_no_line_of_any_cells_holds_a_formula(cells):
    """P-H11, for any cells built from triggers, separators, quotes, spaces and letters."""
    assert formula_cells(csv_line(cells)) == []
