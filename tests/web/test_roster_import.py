"""A teacher imports classes and students from OneRoster CSV files (issue 24, roster import).

Upload -> preview (what will be made, the rows refused) -> confirm (one transaction, slips once).
The same files again make nothing twice and update a changed name; another teacher's classes and
accounts are never matched or touched; bad uploads give a clear message and change nothing.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, inspect, select, text
from sqlalchemy.exc import IntegrityError

from tests.conftest import client_for, make_user
from tests.test_roster import (
    class_row,
    enrollment_row,
    roster_files,
    user_row,
)
from tests.web.migrations import databases, empty_database
from tests.web.test_teach import main_of, snapshot, token_for
from trainer.web.extensions import db
from trainer.web.models import ClassMembership, Role, SchoolClass, User

FIRST = ["Ana", "Bo", "Chen", "Dara", "Eli", "Femi", "Gus", "Hana", "Ivo", "Jun"]
LAST = ["Silva", "Okafor", "Nguyen", "Kowalski"]


def class_of_28() -> tuple[list[str], list[str], list[str]]:
    """Class "Geography 7A" with 28 students, a teacher, one student also in "History 7A"."""
    users = [user_row(f"stu-{i:02}", FIRST[i % 10], f"{LAST[i % 4]}{i}") for i in range(28)]
    users.append(user_row("tch-1", "Pat", "Smith", role="teacher"))
    users.append(user_row("stu-gone", "Gone", "Away", status="tobedeleted"))
    classes = [class_row("cls-geo", "Geography 7A"), class_row("cls-his", '"History, 7A"')]
    enrollments = [enrollment_row(f"enr-{i}", "cls-geo", f"stu-{i:02}") for i in range(28)]
    enrollments += [
        enrollment_row("enr-t", "cls-geo", "tch-1", role="teacher"),
        enrollment_row("enr-h", "cls-his", "stu-00"),
        enrollment_row("enr-g", "cls-geo", "stu-gone"),
        enrollment_row("enr-x", "cls-geo", "stu-unknown"),
    ]
    return users, classes, enrollments


def words(response) -> str:
    """The page's words, as a reader meets them (entities decoded, runs of spaces one space)."""
    return " ".join(unescape(response.get_data(as_text=True)).split())


def upload(client: FlaskClient, files: dict[str, bytes]):
    data = {
        "csrf_token": token_for(client),
        "files": [(io.BytesIO(content), name) for name, content in files.items()],
    }
    response = client.post("/teach/import", data=data, content_type="multipart/form-data")
    # The test client spools a large body to a temporary file and leaves it open: close it here.
    response.request.environ["wsgi.input"].close()
    return response


def confirm(client: FlaskClient, preview_html: str, classes: list[str] | None = None):
    token = re.search(r'name="plan" type="hidden" value="([^"]+)"', preview_html)
    assert token, "no plan on the preview"
    ticked = re.findall(r'name="class" value="([^"]+)"', preview_html)
    data = {
        "csrf_token": token_for(client),
        "plan": unescape(token.group(1)),
        "class": ticked if classes is None else classes,
    }
    return client.post("/teach/import/confirm", data=data)


@pytest.fixture
def teachers(app: Flask) -> tuple[User, User]:
    ms = make_user(app, "ms.tan", role=Role.TEACHER)
    mr = make_user(app, "mr.ode", role=Role.TEACHER)
    make_user(app, "student1")
    return ms, mr


def classes_of(app: Flask, teacher_id: int) -> dict[str, list[tuple[str, str | None, str | None]]]:
    """Each class of the teacher: its members (username, display name, roster id), sorted."""
    with app.app_context():
        rows = db.session.execute(
            select(SchoolClass.name, User.username, ClassMembership.display_name, User.roster_id)
            .join(ClassMembership, ClassMembership.class_id == SchoolClass.id)
            .join(User, User.id == ClassMembership.student_id)
            .where(SchoolClass.teacher_id == teacher_id)
        ).all()
    out: dict[str, list[tuple[str, str | None, str | None]]] = {}
    for name, username, shown, roster_id in rows:
        out.setdefault(name, []).append((username, shown, roster_id))
    return {name: sorted(members) for name, members in out.items()}


def count(app: Flask, model) -> int:
    with app.app_context():
        return db.session.execute(select(func.count()).select_from(model)).scalar_one()


def test_the_link_is_on_my_classes(app: Flask, teachers) -> None:
    html = unescape(client_for(app, "ms.tan").get("/teach/").get_data(as_text=True))
    assert "Import classes from your school's system (OneRoster)" in html
    assert 'href="/teach/import"' in html


def test_a_class_of_28_previewed_then_imported(app: Flask, teachers) -> None:
    ms, _ = teachers
    client = client_for(app, "ms.tan")
    before = snapshot(app)
    preview = upload(client, roster_files(*class_of_28(), bom=True))
    html = " ".join(unescape(main_of(preview.get_data(as_text=True))).split())
    assert preview.status_code == 200
    # Looking changes nothing.
    assert snapshot(app) == before
    assert "Geography 7A" in html and "History, 7A" in html
    assert "28 new accounts to make, 0 existing accounts to add" in html
    assert "1 new account to make" in html  # History: Ana Silva0, one account with Geography
    assert "Ana Silva0" in html and "Bo Okafor1" in html
    # Refused rows, by file, line and reason; the teacher as a note.
    assert "enrollments.csv, line 32: Gone Away" not in html  # refused on users.csv, once
    assert "users.csv, line 31: Gone Away is withdrawn (tobedeleted)." in html
    assert "enrollments.csv, line 33: no user in users.csv has the sourcedId “stu-unknown”." in html
    assert "Pat Smith is enrolled as teacher: only students are imported." in html

    done = confirm(client, preview.get_data(as_text=True))
    page = unescape(done.get_data(as_text=True))
    assert done.status_code == 200
    assert "2 classes made, 28 accounts made" in words(done)
    assert done.headers["Cache-Control"] == "no-store"
    assert len(re.findall(r"data-password>", page)) == 29  # Ana's slip in each of her classes
    classes = classes_of(app, ms.id)
    assert sorted(classes) == ["Geography 7A", "History, 7A"]
    geo = classes["Geography 7A"]
    assert len(geo) == 28
    assert ("ana.s", "Ana Silva0", "stu-00") in geo
    assert ("bo.o", "Bo Okafor1", "stu-01") in geo
    assert classes["History, 7A"] == [("ana.s", "Ana Silva0", "stu-00")]
    with app.app_context():
        made = db.session.execute(select(User).where(User.roster_id.is_not(None))).scalars().all()
        assert {u.managed_by_id for u in made} == {ms.id} and len(made) == 28
        assert {k.roster_id for k in db.session.execute(select(SchoolClass)).scalars()} == {
            "cls-geo",
            "cls-his",
        }
    # A password on a slip logs in.
    slip = re.search(r"data-username>([^<]+)</dd>.*?data-password>([^<]+)</dd>", page, re.S)
    assert slip
    student = app.test_client()
    login = student.post(
        "/auth/login",
        data={
            "csrf_token": token_for(student),
            "username": slip.group(1),
            "password": slip.group(2),
        },
    )
    assert login.status_code == 302


def test_importing_again_makes_nothing_twice_and_updates_a_changed_name(
    app: Flask, teachers
) -> None:
    ms, _ = teachers
    client = client_for(app, "ms.tan")
    users, classes, enrollments = class_of_28()
    confirm(
        client, upload(client, roster_files(users, classes, enrollments)).get_data(as_text=True)
    )
    first = classes_of(app, ms.id)
    users_before = count(app, User)

    users[1] = user_row("stu-01", "Bo", "Okafor-Reyes")  # married, renamed in the school's system
    enrollments.append(enrollment_row("enr-h2", "cls-his", "stu-02"))  # joins History too
    preview = upload(client, roster_files(users, classes, enrollments))
    html = words(preview)
    assert (
        "0 new accounts to make, 0 existing accounts to add, 1 name to update, 27 already there"
        in html
    )
    assert (
        "0 new accounts to make, 1 existing account to add, 0 names to update, 1 already there"
        in html
    )
    assert "it is your class already" in html
    done = confirm(client, preview.get_data(as_text=True))
    page = words(done)
    assert (
        "0 classes made, 0 accounts made, 1 existing account added to a class, 1 name updated"
        in page
    )
    assert "data-password" not in page
    assert count(app, User) == users_before
    after = classes_of(app, ms.id)
    assert ("bo.o", "Bo Okafor-Reyes", "stu-01") in after["Geography 7A"]
    assert ("bo.o", "Bo Okafor1", "stu-01") not in after["Geography 7A"]
    assert len(after["Geography 7A"]) == 28
    assert [m[0] for m in after["History, 7A"]] == ["ana.s", "chen.n"]
    assert first["History, 7A"] == [("ana.s", "Ana Silva0", "stu-00")]


def test_another_teachers_classes_are_never_matched_or_touched(app: Flask, teachers) -> None:
    ms, mr = teachers
    files = roster_files(*class_of_28())
    ode = client_for(app, "mr.ode")
    confirm(ode, upload(ode, files).get_data(as_text=True))
    ode_classes = classes_of(app, mr.id)
    tan = client_for(app, "ms.tan")
    preview = unescape(upload(tan, files).get_data(as_text=True))
    assert "it is your class already" not in preview
    assert "28 new accounts to make" in preview
    confirm(tan, preview)
    assert classes_of(app, mr.id) == ode_classes  # untouched
    tan_classes = classes_of(app, ms.id)
    assert len(tan_classes["Geography 7A"]) == 28
    # Her own accounts, not his: no username in common.
    assert not {m[0] for m in tan_classes["Geography 7A"]} & {
        m[0] for m in ode_classes["Geography 7A"]
    }
    # Her plan cannot be confirmed by him (the token names her).
    tan_preview = upload(tan, files).get_data(as_text=True)
    users = count(app, User)
    refused = confirm(ode, tan_preview)
    assert refused.status_code == 400
    assert "was not made for you" in unescape(refused.get_data(as_text=True))
    assert count(app, User) == users


def test_a_plan_changed_in_the_browser_is_refused(app: Flask, teachers) -> None:
    client = client_for(app, "ms.tan")
    html = upload(client, roster_files(*class_of_28())).get_data(as_text=True)
    token = unescape(re.search(r'name="plan" type="hidden" value="([^"]+)"', html).group(1))
    forged = token[:-3] + ("aaa" if not token.endswith("aaa") else "bbb")
    before = snapshot(app)
    response = client.post(
        "/teach/import/confirm",
        data={"csrf_token": token_for(client), "plan": forged, "class": ["cls-geo"]},
    )
    assert response.status_code == 400
    assert snapshot(app) == before


def test_only_the_ticked_classes_are_imported(app: Flask, teachers) -> None:
    ms, _ = teachers
    client = client_for(app, "ms.tan")
    html = upload(client, roster_files(*class_of_28())).get_data(as_text=True)
    before = snapshot(app)
    none = confirm(client, html, classes=[])
    assert none.status_code == 400
    assert "Tick at least one class" in unescape(none.get_data(as_text=True))
    assert snapshot(app) == before
    confirm(client, html, classes=["cls-his"])
    assert list(classes_of(app, ms.id)) == ["History, 7A"]


def test_at_most_60_new_accounts_are_made_at_a_time_and_the_rest_come_next_time(
    app: Flask, teachers
) -> None:
    """As with accounts from a list of names (P-S3): each new account's password is hashed slowly
    on purpose, so one import makes at most 60; the same files again make the rest."""
    ms, _ = teachers
    users = [user_row(f"stu-{i:02}", FIRST[i % 10], f"{LAST[i % 4]}{i}") for i in range(70)]
    classes = [class_row("cls-a", "Geography A"), class_row("cls-b", "Geography B")]
    enrollments = [
        enrollment_row(f"enr-{i}", "cls-a" if i < 35 else "cls-b", f"stu-{i:02}") for i in range(70)
    ]
    files = roster_files(users, classes, enrollments)
    client = client_for(app, "ms.tan")
    html = upload(client, files).get_data(as_text=True)
    before = snapshot(app)
    both = confirm(client, html)
    assert both.status_code == 400
    assert "need 70 new accounts; import at most 60 at a time" in words(both)
    assert snapshot(app) == before
    assert confirm(client, html, classes=["cls-a"]).status_code == 200
    again = upload(client, files).get_data(as_text=True)
    assert confirm(client, again).status_code == 200
    made = classes_of(app, ms.id)
    assert sorted(made) == ["Geography A", "Geography B"]
    assert [len(made[name]) for name in sorted(made)] == [35, 35]


def zipped(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_zip_works_too(app: Flask, teachers) -> None:
    ms, _ = teachers
    client = client_for(app, "ms.tan")
    preview = upload(client, {"roster.zip": zipped(roster_files(*class_of_28()))})
    assert preview.status_code == 200
    confirm(client, preview.get_data(as_text=True))
    assert len(classes_of(app, ms.id)["Geography 7A"]) == 28


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"photo.png": b"\x89PNG\r\n\x1a\n"}, "“photo.png” is not a CSV file"),
        ({"roster.zip": b"PK\x03\x04 broken"}, "“roster.zip” is not a .zip file we can open"),
        ({"users.csv": b"x" * (5 * 1024 * 1024 + 10)}, "larger than 5 MB"),
        ({"users.csv": b"sourcedId,givenName,familyName\n"}, "classes.csv is missing"),
        (
            {
                "users.csv": b"\x00\x01garbage",
                "classes.csv": b"sourcedId,title\n",
                "enrollments.csv": b"a,b\n",
            },
            "users.csv is not a text file",
        ),
        (
            {
                "users.csv": b"id,name\n1,Ana\n",
                "classes.csv": b"sourcedId,title\nc1,Geo\n",
                "enrollments.csv": b"classSourcedId,userSourcedId,role\n",
            },
            "users.csv has no “sourcedId” column",
        ),
        ({}, "Choose your school's files first."),
    ],
    ids=["png", "bad-zip", "oversize", "missing-file", "binary", "wrong-columns", "nothing"],
)
def test_bad_uploads_say_why_and_change_nothing(app: Flask, teachers, files, message) -> None:
    client = client_for(app, "ms.tan")
    before = snapshot(app)
    response = upload(client, files)
    html = words(response)
    assert response.status_code == 400
    assert "Nothing was imported" in html
    assert message in html
    assert snapshot(app) == before


def test_too_many_rows_say_so(app: Flask, teachers) -> None:
    users = [user_row(f"u{i}", "A", f"B{i}") for i in range(5_001)]
    client = client_for(app, "ms.tan")
    before = snapshot(app)
    response = upload(client, roster_files(users, [class_row("c1", "Geo")], []))
    assert response.status_code == 400
    assert "These files have 5,002 rows; we take at most 5,000 at a time." in words(response)
    assert snapshot(app) == before


def test_a_student_cannot_import(app: Flask, teachers) -> None:
    student = client_for(app, "student1")
    before = snapshot(app)
    assert student.get("/teach/import").status_code == 403
    assert upload(student, roster_files(*class_of_28())).status_code == 403
    assert snapshot(app) == before


def test_imported_names_are_not_shown_to_the_student(app: Flask, teachers) -> None:
    client = client_for(app, "ms.tan")
    page = unescape(
        confirm(
            client, upload(client, roster_files(*class_of_28())).get_data(as_text=True)
        ).get_data(as_text=True)
    )
    slip = re.search(r"data-username>([^<]+)</dd>.*?data-password>([^<]+)</dd>", page, re.S)
    assert slip and slip.group(1) == "ana.s"
    student = app.test_client()
    student.post(
        "/auth/login",
        data={"csrf_token": token_for(student), "username": "ana.s", "password": slip.group(2)},
    )
    for url in ["/", "/teach/my-classes", "/study/"]:
        html = unescape(student.get(url, follow_redirects=True).get_data(as_text=True))
        assert "Silva0" not in html, url


# --- Migration 0020 up and down --------------------------------------------------------------------


def _columns(table: str) -> set[str]:
    return {column["name"] for column in inspect(db.engine).get_columns(table)}


@pytest.mark.parametrize("database", databases())
def test_migration_0020_adds_the_roster_ids_and_takes_them_away_keeping_every_row(
    tmp_path, database
):
    from flask_migrate import downgrade, upgrade

    with empty_database(tmp_path, database):
        upgrade(revision="0019_display_names")
        now = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
        with db.engine.begin() as connection:
            connection.execute(
                text(
                    'INSERT INTO "user" (username, username_key, password_hash, role, created_at, desired_retention, new_per_day, multiple_choice, is_admin, daily_amount, daily_unit)'
                    " VALUES ('teach', 'teach', 'x', 'teacher', :now, 0.9, 20, :yes, :no, 40, 'answers')"
                ),
                {"now": now, "yes": True, "no": False},
            )
            teacher = connection.execute(text('SELECT id FROM "user"')).scalar_one()
            connection.execute(
                text(
                    "INSERT INTO school_class (teacher_id, name, join_code, joining_open, created_at) VALUES (:t, 'Room 1', 'ABCDEFGH', :yes, :now)"
                ),
                {"t": teacher, "yes": True, "now": now},
            )
        upgrade(revision="0020_roster_ids")
        assert "roster_id" in _columns("user") and "roster_id" in _columns("school_class")
        with db.engine.begin() as connection:
            connection.execute(text("UPDATE school_class SET roster_id = 'cls-1'"))
        # One sourcedId per teacher's class.
        with pytest.raises(IntegrityError), db.engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO school_class (teacher_id, name, join_code, joining_open, created_at, roster_id) VALUES (:t, 'Room 2', 'BCDEFGHJ', :yes, :now, 'cls-1')"
                ),
                {"t": teacher, "yes": True, "now": now},
            )
        downgrade(revision="0019_display_names")
        assert "roster_id" not in _columns("user") and "roster_id" not in _columns("school_class")
        with db.engine.connect() as connection:
            assert connection.execute(text('SELECT count(*) FROM "user"')).scalar_one() == 1
            assert connection.execute(text("SELECT count(*) FROM school_class")).scalar_one() == 1
        upgrade()
        assert "roster_id" in _columns("user")


# --- P-S6: a whole school's export, and students who left ------------------------------------------


def _ticked(html: str) -> list[str]:
    return re.findall(r'name="class" value="([^"]+)" id="[^"]+" checked', html)


def test_a_whole_schools_export_ticks_only_the_teachers_own_classes(app: Flask, teachers) -> None:
    """P-S6: of eight classes, only the two the files name her a teacher of start ticked (her
    username, in another case); with no teacher named, none of eight; six or fewer, all."""
    users = [user_row(f"stu-{i}", FIRST[i], "Roe") for i in range(8)]
    # A teacher row whose username is hers (OneRoster's username column), in capitals.
    users.append("tch-tan,,,true,org-1,teacher,MS.TAN,,Mei,Tan,,,,,,,,")
    classes = [class_row(f"cls-{i}", f"Class {i}") for i in range(8)]
    enrollments = [enrollment_row(f"enr-{i}", f"cls-{i}", f"stu-{i}") for i in range(8)]
    enrollments += [
        enrollment_row("enr-t2", "cls-2", "tch-tan", role="teacher"),
        enrollment_row("enr-t5", "cls-5", "tch-tan", role="teacher"),
    ]
    client = client_for(app, "ms.tan")
    preview = upload(client, roster_files(users, classes, enrollments))
    html = preview.get_data(as_text=True)
    assert _ticked(html) == ["cls-2", "cls-5"]
    assert "perhaps your whole school" in words(preview)
    # Another teacher the files do not name: nothing starts ticked in a file of eight classes.
    other = client_for(app, "mr.ode")
    assert (
        _ticked(upload(other, roster_files(users, classes, enrollments)).get_data(as_text=True))
        == []
    )
    # Six classes, nobody named: a teacher's own export, all ticked.
    few = upload(other, roster_files(users[:6], classes[:6], enrollments[:6]))
    assert _ticked(few.get_data(as_text=True)) == [f"cls-{i}" for i in range(6)]
    assert "perhaps your whole school" not in words(few)


def test_students_who_left_are_offered_to_take_out_each_with_an_undo(app: Flask, teachers) -> None:
    """P-S6: imported again after two students left (one withdrawn, one gone from the files), the
    preview offers to take them out, unticked; a student added by hand is never offered. Ticked,
    both go in the import's transaction, each with an undo; unticked, nobody goes."""
    ms, _ = teachers
    client = client_for(app, "ms.tan")
    users, classes, enrollments = class_of_28()
    confirm(
        client, upload(client, roster_files(users, classes, enrollments)).get_data(as_text=True)
    )
    with app.app_context():
        geo = db.session.execute(
            select(SchoolClass.id).where(SchoolClass.roster_id == "cls-geo")
        ).scalar_one()
        by_hand = make_user(app, "kim.p")
        db.session.add(
            ClassMembership(class_id=geo, student_id=by_hand.id, display_name="Kim Park")
        )
        db.session.commit()
    enrollments[3] = enrollment_row("enr-3", "cls-geo", "stu-03", status="tobedeleted")
    del enrollments[4]  # stu-04's enrollment is gone from the export
    files = roster_files(users, classes, enrollments)

    preview = upload(client, files)
    html = preview.get_data(as_text=True)
    text = words(preview)
    assert "Also take out the 2 students no longer enrolled in Geography 7A" in text
    assert "Dara Kowalski3 (dara.k)" in text and "Eli Silva4 (eli.s)" in text
    assert "Kim Park" not in text
    assert 'name="leave" value="cls-geo"' in html
    assert 'name="leave" value="cls-geo" id="roster-class-1-leave" checked' not in html

    # Not ticked: the import takes nobody out.
    confirm(client, html)
    assert len(classes_of(app, ms.id)["Geography 7A"]) == 29
    # Ticked: both go, in the same import, and the page says how to undo it.
    token = unescape(re.search(r'name="plan" type="hidden" value="([^"]+)"', html).group(1))
    done = client.post(
        "/teach/import/confirm",
        data={
            "csrf_token": token_for(client),
            "plan": token,
            "class": ["cls-geo", "cls-his"],
            "leave": ["cls-geo"],
        },
    )
    assert done.status_code == 200
    assert "2 students who left the school's roster were taken out of Geography 7A" in words(done)
    left = {m[0] for m in classes_of(app, ms.id)["Geography 7A"]}
    assert len(left) == 27 and "kim.p" in left and not left & {"dara.k", "eli.s"}
    # Each can be undone from the class's Removed page, as a removal by hand.
    removed = client.get(f"/teach/classes/{geo}/removed").get_data(as_text=True)
    tokens = [unescape(t) for t in re.findall(r'name="token" value="([^"]+)"', removed)]
    assert len(tokens) == 2
    client.post(
        f"/teach/classes/{geo}/removed/undo",
        data={"csrf_token": token_for(client), "token": tokens[0]},
    )
    assert len(classes_of(app, ms.id)["Geography 7A"]) == 28
    # A leave tick for a class not ticked takes nobody out.
    again = upload(client, files).get_data(as_text=True)
    before = snapshot(app)
    client.post(
        "/teach/import/confirm",
        data={
            "csrf_token": token_for(client),
            "plan": unescape(
                re.search(r'name="plan" type="hidden" value="([^"]+)"', again).group(1)
            ),
            "class": ["cls-his"],
            "leave": ["cls-geo"],
        },
    )
    assert snapshot(app) == before
