"""The teacher's downloads in words a teacher reads (issue #24): facets, ratings and modes by
name, rounds numbered instead of stored tokens, and one encoding and naming style for both files."""

from __future__ import annotations

import csv
import datetime as dt
import io

from sqlalchemy import update

from tests.web.test_assignments import make_assignment
from trainer.cards import load_deck
from trainer.facts import Facet
from trainer.modes import MODES
from trainer.web.extensions import db
from trainer.web.models import Assignment, SchoolClass
from trainer.web.teach import insights
from trainer.web.teach.insights import CSV_FACETS, LogRow, csv_lines, mode_name, rating_word

UTC = dt.UTC
BOM = b"\xef\xbb\xbf"


def test_every_facet_rating_and_mode_has_a_word():
    assert set(CSV_FACETS) == set(Facet)
    assert CSV_FACETS[Facet.CAPITAL] == "Capital" and CSV_FACETS[Facet.POSTAL] == "Postal code"
    assert [rating_word(n) for n in (1, 2, 3, 4)] == ["Again", "Hard", "Good", "Easy"]
    assert rating_word(7) == "7"  # never raises on a value the log should not hold


def test_every_logged_mode_is_named_not_coded(app):
    with app.app_context():
        for mode in MODES:
            if mode.mode:
                name = mode_name(mode.mode)
                assert "_" not in name and name != mode.mode, mode.mode


def row(username: str, token: str, minute: int, rating: int = 3) -> LogRow:
    return LogRow(
        **{
            **{f: "" for f in LogRow.__dataclass_fields__},
            "username": username,
            "reviewed_at": dt.datetime(2025, 3, 10, 12, minute, tzinfo=UTC),
            "study_day": dt.date(2025, 3, 10),
            "mode": "state_iq",
            "fact_key": "TX:postal",
            "facet": "postal",
            "verdict": "close",
            "rating": rating,
            "answer": "Tx",
            "round_token": token,
        }
    )


def test_the_answers_file_numbers_each_students_rounds_and_shows_no_token(app):
    rows = [
        row("ana", "state_iq:Qx7-secret", 0),
        row("ben", "state_iq:Zz9-other", 1, rating=1),
        row("ana", "state_iq:Qx7-secret", 2),
        row("ana", "state_iq:Ab3-next", 3, rating=4),
    ]
    with app.app_context():
        text = "".join(csv_lines(rows, load_deck()))
    assert text.startswith("\ufeff")
    assert "secret" not in text and "state_iq" not in text and "postal" not in text
    table = list(csv.DictReader(io.StringIO(text[1:], newline="")))
    assert [(r["student"], r["round"], r["rating"]) for r in table] == [
        ("ana", "1", "Good"),
        ("ben", "1", "Again"),
        ("ana", "1", "Good"),
        ("ana", "2", "Easy"),
    ]
    assert {(r["mode"], r["state"], r["facet"], r["verdict"]) for r in table} == {
        ("State IQ", "Texas", "Postal code", "close")
    }


def test_both_downloads_are_utf8_with_a_bom_and_named_alike(world, app):
    aid = make_assignment(app, world.class_a)
    with app.app_context():
        db.session.execute(
            update(Assignment).where(Assignment.id == aid).values(title="Capitales de México")
        )
        db.session.execute(
            update(SchoolClass).where(SchoolClass.id == world.class_a).values(name="Señora Peña 5º")
        )
        db.session.commit()
    client = world.client("teacher")
    progress = client.get(f"/teach/classes/{world.class_a}/progress.csv")
    assert progress.status_code == 200 and progress.mimetype_params["charset"] == "utf-8"
    assert progress.data.startswith(BOM) and "Capitales de México".encode() in progress.data
    today = dt.datetime.now(UTC).date()
    answers = client.get(
        f"/teach/classes/{world.class_a}/reviews.csv?start={today.isoformat()}&end={today.isoformat()}"
    )
    assert answers.status_code == 200 and answers.data.startswith(BOM)
    # One style: "<class>-answers-<from>-to-<to>.csv" and "<class>-progress-<date>.csv".
    slug = "senora-pena-5o"  # accents dropped, as the answers file always named it
    assert answers.headers["Content-Disposition"] == (
        f'attachment; filename="{slug}-answers-{today.isoformat()}-to-{today.isoformat()}.csv"'
    )
    disposition = progress.headers["Content-Disposition"]
    assert disposition.startswith(f'attachment; filename="{slug}-progress-20')
    assert disposition.endswith('.csv"')
    assert insights.CSV_BOM == "\ufeff"


def test_the_progress_workbook_is_the_progress_csv_cell_for_cell(world, app):
    """Issue 24: progress as an Excel workbook too: the CSV's header and rows, named alike."""
    import openpyxl

    make_assignment(app, world.class_a)
    client = world.client("teacher")
    progress = client.get(f"/teach/classes/{world.class_a}/progress.csv")
    as_csv = list(csv.reader(io.StringIO(progress.data.decode("utf-8-sig"), newline="")))
    workbook = client.get(f"/teach/classes/{world.class_a}/progress.xlsx")
    assert workbook.status_code == 200 and workbook.headers["Cache-Control"] == "no-store"
    assert workbook.headers["Content-Disposition"] == progress.headers[
        "Content-Disposition"
    ].replace('.csv"', '.xlsx"')
    sheet = openpyxl.load_workbook(io.BytesIO(workbook.data))["Progress"]
    values = [["" if v is None else str(v) for v in r] for r in sheet.iter_rows(values_only=True)]
    assert len(values) > 1 and values == as_csv
    # The class page offers both.
    page = client.get(f"/teach/classes/{world.class_a}").get_data(as_text=True)
    assert f"/teach/classes/{world.class_a}/progress.xlsx" in page
    assert f"/teach/classes/{world.class_a}/reviews.xlsx" in page
