"""Teacher pages and typed text: every typed name refuses hidden characters (P-H12), and every CSV
download guards every cell (P-H11). The guards themselves are tested in ``tests/web/test_text.py``.
"""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from sqlalchemy import func, select, update

from tests.web.test_assignments import assignments, create, make_assignment
from tests.web.test_teach import get_class, new_students_url, post, send_names, snapshot
from tests.web.test_text import formula_cells
from tests.web.test_tournaments import Teacher, add_students
from trainer import srs
from trainer.facts import Form, Verdict
from trainer.web.extensions import db
from trainer.web.memory import record
from trainer.web.models import Assignment, Tournament, User, utcnow
from trainer.web.text import csv_safe

RLO, ZWSP = "\u202e", "\u200b"
HIDDEN = pytest.mark.parametrize("char", [RLO, ZWSP], ids=["U+202E", "U+200B"])


def refused_for(html: str, char: str) -> bool:
    """The page explains the refusal, naming the character by its code point (the form keeps what was typed)."""
    return (
        f"This has a hidden character (U+{ord(char):04X}) that can change how text looks." in html
    )


def count(app, model) -> int:
    with app.app_context():
        return db.session.execute(select(func.count()).select_from(model)).scalar_one()


# --- P-H12: every name a teacher types -----------------------------------------------------------


@HIDDEN
def test_p_h12_a_new_class_name_with_a_hidden_character_is_refused(world, char):
    """P-H12: "Room 12‮" would show reversed text on the join page; nothing is made."""
    before = snapshot(world.app)
    response = post(world.client("teacher"), "/teach/", {"name": f"Room{char} 21"})
    assert response.status_code == 400
    assert refused_for(response.get_data(as_text=True), char)
    assert snapshot(world.app) == before


@HIDDEN
def test_p_h12_renaming_a_class_with_a_hidden_character_is_refused(world, char):
    before = snapshot(world.app)
    response = post(
        world.client("teacher"),
        f"/teach/classes/{world.class_a}/settings",
        {"name": f"{char}Room 12"},
    )
    assert response.status_code == 400
    assert refused_for(response.get_data(as_text=True), char)
    assert snapshot(world.app) == before


def test_p_h12_a_class_name_is_kept_in_nfc_with_single_spaces(world):
    response = post(
        world.client("teacher"),
        f"/teach/classes/{world.class_a}/settings",
        {"name": " Cafe\u0301\t Club "},
    )
    assert response.status_code == 302
    assert get_class(world.app, world.class_a).name == "Caf\u00e9 Club"


@HIDDEN
def test_p_h12_an_assignment_title_with_a_hidden_character_is_refused(world, app, char):
    response = create(world, title=f"Capitals{char} week")
    assert response.status_code == 400
    assert refused_for(response.get_data(as_text=True), char)
    assert count(app, Assignment) == 0


@HIDDEN
def test_p_h12_a_tournament_name_with_a_hidden_character_is_refused(world, app, char):
    add_students(world, 5)
    teacher = Teacher(world.client("teacher"))
    response = teacher.create(world.class_a, name=f"Friday{char} Cup")
    assert response.status_code == 400
    assert refused_for(response.get_data(as_text=True), char)
    assert count(app, Tournament) == 0


def test_p_h12_a_tournament_name_is_kept_clean(world, app):
    add_students(world, 5)
    Teacher(world.client("teacher")).new(world.class_a, name="  Friday\n Cup ")
    with app.app_context():
        assert db.session.execute(select(Tournament.name)).scalar_one() == "Friday Cup"


@HIDDEN
def test_p_h12_a_student_name_in_the_list_with_a_hidden_character_is_refused_by_line(world, char):
    """P-H12 and P-S3: the list's lines use the same check; the line is named, the character is not shown."""
    before = snapshot(world.app)
    response, _batch, _token = send_names(
        world.client("teacher"), new_students_url(world), f"Sam Lee\nMaria{char} Gonzalez"
    )
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert f"Line 2: This has a hidden character (U+{ord(char):04X})" in html
    assert refused_for(html, char)
    assert snapshot(world.app) == before


# --- P-H11: every cell of every CSV download -------------------------------------------------------

DANGEROUS = ["x;=1+1", "=1+1", "a\t=1", "-2+3", "@SUM(A1)"]


def downloaded(response) -> str:
    assert response.status_code == 200 and response.mimetype == "text/csv"
    return response.get_data(as_text=True).lstrip("\ufeff")


def test_p_h11_the_answers_download_guards_every_typed_answer(world, app):
    """P-H11: students' typed answers reach the teacher's spreadsheet as text in every locale."""
    now = utcnow()
    with app.app_context():
        student = db.session.get(User, world.student.id)
        for n, given in enumerate(DANGEROUS):
            record(
                student,
                srs.Outcome(
                    "CO:capital",
                    Verdict.WRONG,
                    "review",
                    Form.TYPED,
                    "review:csv",
                    f"item{n}",
                    answer=given,
                ),
                now=now,
            )
        db.session.commit()
    days = f"start={(now - dt.timedelta(days=1)).date().isoformat()}&end={(now + dt.timedelta(days=1)).date().isoformat()}"
    text = downloaded(
        world.client("teacher").get(f"/teach/classes/{world.class_a}/reviews.csv?{days}")
    )
    assert formula_cells(text) == []
    answers = [row[9] for row in csv.reader(io.StringIO(text, newline=""))][1:]
    assert answers == ["x;'=1+1", "'=1+1", "a\t'=1", "'-2+3", "'@SUM(A1)"]


@pytest.mark.parametrize("title", DANGEROUS)
def test_p_h11_the_progress_download_guards_assignment_titles(world, app, title):
    """P-H11: a teacher's assignment title "x;=1+1" is written "x;'=1+1"."""
    aid = make_assignment(app, world.class_a)
    with app.app_context():
        db.session.execute(update(Assignment).where(Assignment.id == aid).values(title=title))
        db.session.commit()
    text = downloaded(world.client("teacher").get(f"/teach/classes/{world.class_a}/progress.csv"))
    assert formula_cells(text) == []
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[1][:3] == ["river", "", csv_safe(title)]


def test_p_h11_a_title_typed_in_the_form_is_guarded_in_the_download(world, app):
    """P-H11 through the form: the title is kept as typed, and guarded only where it is written out."""
    assert create(world, title="x;=1+1").status_code == 302
    (assignment,) = assignments(app)
    assert assignment.title == "x;=1+1"
    text = downloaded(world.client("teacher").get(f"/teach/classes/{world.class_a}/progress.csv"))
    assert formula_cells(text) == []
    assert "x;'=1+1" in text
