"""OneRoster CSV files read into a plan (trainer.roster): the spec's awkward cases, one by one."""

from __future__ import annotations

import csv
import datetime as dt
import io
import unicodedata
import zipfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.roster import (
    MAX_ROWS,
    Plan,
    RosterError,
    files_from_uploads,
    read_roster,
)

TODAY = dt.date(2026, 12, 2)

MANIFEST = (
    "propertyName,value\r\n"
    "manifest.version,1.0\r\n"
    "oneroster.version,1.1\r\n"
    "file.classes,bulk\r\n"
    "file.users,bulk\r\n"
    "file.enrollments,bulk\r\n"
    "file.orgs,bulk\r\n"
    "file.courses,absent\r\n"
)
ORGS = (
    "sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId\r\n"
    "org-1,,,Lincoln Middle School,school,LMS,\r\n"
)
# OneRoster 1.1's columns, in the spec's order; bulk files leave status and dateLastModified blank.
USERS_HEADER = (
    "sourcedId,status,dateLastModified,enabledUser,orgSourcedIds,role,username,userIds,"
    "givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password"
)
CLASSES_HEADER = (
    "sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,"
    "location,schoolSourcedId,termSourcedIds,subjects,subjectCodes,periods"
)
ENROLLMENTS_HEADER = (
    "sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,"
    "primary,beginDate,endDate"
)


def user_row(sid: str, given: str, family: str, role: str = "student", status: str = "") -> str:
    return f"{sid},{status},,true,org-1,{role},{sid}@school.example,,{given},{family},,,,,,,07,"


def class_row(sid: str, title: str, status: str = "") -> str:
    return f"{sid},{status},,{title},07,course-1,{sid},scheduled,,org-1,term-1,,,"


def enrollment_row(
    sid: str, klass: str, user: str, role: str = "student", status: str = "", end: str = ""
) -> str:
    return f"{sid},{status},,{klass},org-1,{user},{role},false,2026-08-20,{end}"


def csv_file(header: str, rows: list[str], bom: bool = False, crlf: bool = True) -> bytes:
    end = "\r\n" if crlf else "\n"
    text = end.join([header, *rows]) + end
    return ("\ufeff" if bom else "").encode() + text.encode()


def roster_files(
    users: list[str], classes: list[str], enrollments: list[str], bom: bool = False
) -> dict[str, bytes]:
    return {
        "manifest.csv": MANIFEST.encode(),
        "orgs.csv": ORGS.encode(),
        "users.csv": csv_file(USERS_HEADER, users, bom=bom),
        "classes.csv": csv_file(CLASSES_HEADER, classes, bom=bom),
        "enrollments.csv": csv_file(ENROLLMENTS_HEADER, enrollments, bom=bom),
    }


def awkward_files() -> dict[str, bytes]:
    """One school's export with every awkward case the spec allows."""
    users = [
        user_row("u1", "María José", "García"),
        user_row("u2", "Thi", "Nguyen"),
        # A quoted comma in a name.
        'u3,,,true,org-1,student,u3,,"Jean, Jr.",Baptiste,,,,,,,07,',
        user_row("t1", "Pat", "Smith", role="teacher"),
        user_row("u4", "Gone", "Away", status="tobedeleted"),
        user_row("u5", "Left", "Early"),
        # Blank optional columns, and fewer columns than the header (a short row).
        "u6,,,,,student,,,Ada,Lovelace",
    ]
    classes = [
        class_row("c1", "Geography 7A"),
        # A quoted comma in a title.
        'c2,,,"Social Studies, period 3",07,course-1,c2,scheduled,,org-1,term-1,,,',
    ]
    enrollments = [
        enrollment_row("e1", "c1", "u1"),
        enrollment_row("e2", "c1", "u2"),
        enrollment_row("e3", "c2", "u1"),  # u1 in two classes
        enrollment_row("e4", "c2", "u3"),
        enrollment_row("e5", "c1", "t1", role="teacher"),
        enrollment_row("e6", "c1", "u4"),  # withdrawn user
        enrollment_row("e7", "c1", "u5", end="2026-11-01"),  # left before today
        enrollment_row("e8", "c1", "nobody"),  # unknown user
        enrollment_row("e9", "c9", "u2"),  # unknown class
        enrollment_row("e1", "c2", "u2"),  # duplicate sourcedId
        enrollment_row("e10", "c2", "u6", end="2027-06-30"),
    ]
    return roster_files(users, classes, enrollments, bom=True)


def by_title(plan: Plan) -> dict[str, list[tuple[str, str]]]:
    return {c.title: [(s.sourced_id, s.name) for s in c.students] for c in plan.classes}


def test_awkward_files_give_each_class_its_students() -> None:
    plan = read_roster(awkward_files(), TODAY)
    assert by_title(plan) == {
        "Geography 7A": [("u1", "María José García"), ("u2", "Thi Nguyen")],
        "Social Studies, period 3": [
            ("u1", "María José García"),
            ("u3", "Jean, Jr. Baptiste"),
            ("u6", "Ada Lovelace"),
        ],
    }
    assert plan.version == "1.1"
    # A student in two classes is one student.
    assert sorted(plan.students) == ["u1", "u2", "u3", "u6"]
    assert [c.sourced_id for c in plan.classes] == ["c1", "c2"]


def test_refused_rows_are_named_with_file_line_and_reason() -> None:
    plan = read_roster(awkward_files(), TODAY)
    refused = [str(r) for r in plan.refused]
    assert refused == [
        "users.csv, line 6: Gone Away is withdrawn (tobedeleted).",
        "enrollments.csv, line 8: Left Early left Geography 7A on 2026-11-01.",
        "enrollments.csv, line 9: no user in users.csv has the sourcedId “nobody”.",
        "enrollments.csv, line 10: no class in classes.csv has the sourcedId “c9”.",
        "enrollments.csv, line 11: the sourcedId “e1” is also on line 2; only that line is used.",
    ]
    # The withdrawn user's enrollment is not refused a second time.
    assert not any("line 7:" in r and r.startswith("enrollments") for r in refused)
    assert [str(s) for s in plan.skipped] == [
        "enrollments.csv, line 6: Pat Smith is enrolled as teacher: only students are imported."
    ]


def test_crlf_lf_and_bom_read_the_same() -> None:
    users = [user_row("u1", "Ana", "Silva")]
    classes = [class_row("c1", "Geo")]
    enrollments = [enrollment_row("e1", "c1", "u1")]
    plain = roster_files(users, classes, enrollments)
    lf = {
        **plain,
        "users.csv": csv_file(USERS_HEADER, users, crlf=False),
        "enrollments.csv": csv_file(ENROLLMENTS_HEADER, enrollments, bom=True, crlf=False),
    }
    assert (
        by_title(read_roster(plain, TODAY))
        == by_title(read_roster(lf, TODAY))
        == {"Geo": [("u1", "Ana Silva")]}
    )


def test_columns_in_another_order_and_version_1_2_without_a_user_role() -> None:
    files = {
        "users.csv": b"givenName,familyName,sourcedId\nAna,Silva,u1\n",
        "classes.csv": b"title,sourcedId\nGeo,c1\n",
        "enrollments.csv": b"userSourcedId,classSourcedId,role,sourcedId\nu1,c1,student,e1\n",
        "manifest.csv": b"propertyName,value\noneroster.version,1.2\n",
    }
    plan = read_roster(files, TODAY)
    assert by_title(plan) == {"Geo": [("u1", "Ana Silva")]}
    assert plan.version == "1.2"


def test_a_blank_required_value_is_refused() -> None:
    files = roster_files(
        [user_row("u1", "Ana", "Silva")],
        [class_row("c1", "Geo"), class_row("c2", "")],
        [enrollment_row("e1", "c1", "u1"), "e2,,,c1,org-1,,student,false,,"],
    )
    plan = read_roster(files, TODAY)
    assert [str(r) for r in plan.refused] == [
        "classes.csv, line 3: title is blank; it is required.",
        "enrollments.csv, line 3: userSourcedId is blank; it is required.",
    ]


def test_a_missing_file_or_column_refuses_everything() -> None:
    files = awkward_files()
    del files["enrollments.csv"]
    with pytest.raises(RosterError, match="enrollments.csv is missing"):
        read_roster(files, TODAY)
    files = awkward_files()
    files["users.csv"] = b"sourcedId,givenName\nu1,Ana\n"
    with pytest.raises(RosterError, match="users.csv has no “familyName” column"):
        read_roster(files, TODAY)


def test_garbage_is_refused_with_a_message() -> None:
    files = awkward_files()
    files["users.csv"] = b"\x89PNG\r\n\x1a\n\x00\x00binary"
    with pytest.raises(RosterError, match="not a text file"):
        read_roster(files, TODAY)
    files["users.csv"] = "sourcedId,givenName,familyName\nu1,Jos\xe9,A\n".encode("latin-1")
    with pytest.raises(RosterError, match="not in UTF-8"):
        read_roster(files, TODAY)
    files["users.csv"] = b""
    with pytest.raises(RosterError, match="users.csv is empty"):
        read_roster(files, TODAY)


def test_too_many_rows() -> None:
    users = [user_row(f"u{i}", "A", f"B{i}") for i in range(MAX_ROWS)]
    files = roster_files(users, [class_row("c1", "Geo")], [])
    with pytest.raises(RosterError, match="we take at most 5,000"):
        read_roster(files, TODAY)


def test_uploads_csv_files_or_a_zip_and_nothing_else() -> None:
    files = awkward_files()
    as_csv = files_from_uploads([(f"export/{name}", data) for name, data in files.items()])
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(f"oneroster/{name}", data)
        archive.writestr("oneroster/courses.csv", b"sourcedId\n")
    as_zip = files_from_uploads([("Roster.ZIP", buffer.getvalue())])
    assert read_roster(as_csv, TODAY) == read_roster(as_zip, TODAY)
    with pytest.raises(RosterError, match="“photo.png” is not a CSV file"):
        files_from_uploads([("photo.png", b"\x89PNG")])
    with pytest.raises(RosterError, match="not a .zip file we can open"):
        files_from_uploads([("roster.zip", b"PK not really")])
    with pytest.raises(RosterError, match="larger than 5 MB"):
        files_from_uploads([("users.csv", b"x" * (5 * 1024 * 1024 + 1))])


names = st.text(
    alphabet=st.characters(categories=["L", "Zs", "Pd", "Po"], exclude_characters="\u2028\u2029"),
    min_size=1,
    max_size=25,
).filter(lambda s: s.strip())


@settings(max_examples=60, deadline=None)
@given(
    people=st.lists(st.tuples(names, names), min_size=1, max_size=8),
    memberships=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 2)), max_size=20),
    bom=st.booleans(),
)
def test_any_names_round_trip_through_the_csv_writer(
    people: list[tuple[str, str]], memberships: list[tuple[int, int]], bom: bool
) -> None:
    """Files written by Python's csv module (quoting what needs it) read back to the same plan:
    each class gets exactly the students enrolled in it, once each, with their names."""

    def write(header: list[str], rows: list[list[str]]) -> bytes:
        out = io.StringIO(newline="")
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(header)
        writer.writerows(rows)
        return ("\ufeff" if bom else "").encode() + out.getvalue().encode()

    people = people[:8]
    files = {
        "users.csv": write(
            ["sourcedId", "givenName", "familyName", "role"],
            [[f"u{i}", g, f, "student"] for i, (g, f) in enumerate(people)],
        ),
        "classes.csv": write(["sourcedId", "title"], [[f"c{k}", f"Class, {k}"] for k in range(3)]),
        "enrollments.csv": write(
            ["sourcedId", "classSourcedId", "userSourcedId", "role"],
            [[f"e{n}", f"c{k}", f"u{i}", "student"] for n, (i, k) in enumerate(memberships)],
        ),
    }
    plan = read_roster(files, TODAY)

    def name(g: str, f: str) -> str:
        return " ".join(unicodedata.normalize("NFC", f"{g} {f}").split())

    valid = {i for i, (g, f) in enumerate(people) if len(name(g, f)) <= 60}
    for klass in plan.classes:
        k = int(klass.sourced_id[1:])
        expected = []
        for i, kk in memberships:
            if kk == k and i < len(people) and i in valid and f"u{i}" not in expected:
                expected.append(f"u{i}")
        assert [s.sourced_id for s in klass.students] == expected
        for s in klass.students:
            g, f = people[int(s.sourced_id[1:])]
            assert s.name == name(g, f)
    assert len(plan.classes) == 3


def test_a_class_knows_its_teachers_by_username_and_email_in_lower_case() -> None:
    """P-S6: the files' teachers of each class, to tell a teacher's own classes in a school's
    export; a teacher enrolled in a class left out is named nowhere."""
    users = [
        user_row("stu-1", "Ana", "Silva"),
        "tch-1,,,true,org-1,teacher,Ms.Tan,,Mei,Tan,,,Mei.Tan@School.example,,,,,",
    ]
    classes = [class_row("cls-a", "A"), class_row("cls-b", "B")]
    enrollments = [
        enrollment_row("e1", "cls-a", "stu-1"),
        enrollment_row("e2", "cls-a", "tch-1", role="teacher"),
        enrollment_row("e3", "cls-b", "stu-1"),
    ]
    plan = read_roster(roster_files(users, classes, enrollments), dt.date(2026, 12, 7))
    teachers = {c.sourced_id: c.teachers for c in plan.classes}
    assert teachers == {
        "cls-a": frozenset({"ms.tan", "mei.tan@school.example"}),
        "cls-b": frozenset(),
    }
