"""Classes and students from a school's roster: OneRoster 1.1 and 1.2 CSV files (issue 24).

A student information system exports its roster as CSV files (1EdTech OneRoster): ``users.csv``
(people, each with a ``sourcedId``), ``classes.csv`` (classes) and ``enrollments.csv`` (who is in
which class, as what), with ``manifest.csv`` and ``orgs.csv`` beside them and other files this
reader ignores. :func:`read_roster` turns them into a :class:`Plan`: each class in the files with
the students enrolled in it (real name and ``sourcedId``, the link back to the school's system),
the rows it refused with the reason (file, line, why) and the rows it skipped on purpose
(teachers). A student enrolled in several classes is one student in several classes.

Pure Python (the ``csv`` module): the web layer decides what to make of the plan.

What the files may look like, and what is accepted:

- UTF-8, with or without a byte-order mark; CRLF or LF line ends; quoted fields with commas.
- Columns are found by their header name, in any order; optional columns may be missing or blank.
- OneRoster 1.1 puts a ``role`` on each user; 1.2 moves roles to ``roles.csv``. Here only the
  enrollment's ``role`` decides who is a student, which both versions have.
- A row is refused when a required value is blank, when its ``sourcedId`` repeats an earlier row's,
  when an enrollment names a class or user the files do not have, and for a withdrawn student: a
  user or enrollment with status ``tobedeleted``, or an enrollment whose ``endDate`` has passed.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import unicodedata
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

__all__ = [
    "MAX_BYTES",
    "MAX_ROWS",
    "NAME_MAX",
    "Plan",
    "Refusal",
    "RosterClass",
    "RosterError",
    "RosterStudent",
    "files_from_uploads",
    "read_roster",
]

#: The most the files may hold together (bytes once unzipped) and their rows (header lines apart).
MAX_BYTES = 5 * 1024 * 1024
MAX_ROWS = 5_000
#: The longest real name kept (as a display name typed by a teacher).
NAME_MAX = 60

USERS = "users.csv"
CLASSES = "classes.csv"
ENROLLMENTS = "enrollments.csv"
#: The files read; others in an upload (courses.csv, academicSessions.csv, ...) are ignored.
KNOWN_FILES = ("manifest.csv", "orgs.csv", CLASSES, USERS, ENROLLMENTS)
NEEDED_FILES = (CLASSES, USERS, ENROLLMENTS)
REQUIRED_COLUMNS = {
    CLASSES: ("sourcedId", "title"),
    USERS: ("sourcedId", "givenName", "familyName"),
    ENROLLMENTS: ("classSourcedId", "userSourcedId", "role"),
}
WITHDRAWN = "tobedeleted"
_HIDDEN_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}


class RosterError(ValueError):
    """The files cannot be read at all (too big, not CSV, a file or column missing): ``messages``
    say why, in words for the teacher. Nothing is imported."""

    def __init__(self, messages: list[str]):
        super().__init__(" ".join(messages))
        self.messages = messages


@dataclass(frozen=True)
class Refusal:
    """A row not imported: its file, its line (1 is the header) and why."""

    file: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}, line {self.line}: {self.reason}"


@dataclass(frozen=True)
class RosterStudent:
    sourced_id: str
    given_name: str
    family_name: str

    @property
    def name(self) -> str:
        """The real name: given name, then family name."""
        return f"{self.given_name} {self.family_name}".strip()


@dataclass(frozen=True)
class RosterClass:
    sourced_id: str
    title: str
    students: tuple[RosterStudent, ...]
    #: Its teachers as the files name them: each teacher's ``username`` and ``email``, lower-case
    #: (to tell a teacher's own classes in a whole school's export).
    teachers: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Plan:
    """What the files hold: the classes with their students, and the rows left out."""

    classes: tuple[RosterClass, ...]
    #: Rows that could not be used, with the reason.
    refused: tuple[Refusal, ...] = ()
    #: Rows left out on purpose (a teacher's enrollment), with a note.
    skipped: tuple[Refusal, ...] = ()
    #: The OneRoster version the manifest names ("1.1", "1.2"), or "" when it names none.
    version: str = ""
    #: Data rows read in all the files.
    rows: int = 0

    @property
    def students(self) -> dict[str, RosterStudent]:
        """Every student of every class, once each, by ``sourcedId``."""
        return {s.sourced_id: s for c in self.classes for s in c.students}


# --- Reading the upload ---------------------------------------------------------------------------


def _basename(filename: str) -> str:
    return filename.replace("\\", "/").rsplit("/", 1)[-1].strip()


def files_from_uploads(uploads: Iterable[tuple[str, bytes]]) -> dict[str, bytes]:
    """The roster files of an upload, by lower-case name: CSV files as they are, a .zip opened.

    Files of other names inside a .zip (other OneRoster files, folders) are left out.

    Raises:
        RosterError: a file that is neither .csv nor .zip, a damaged .zip, or more than
            :data:`MAX_BYTES` in all (counted unzipped).
    """
    files: dict[str, bytes] = {}
    total = 0
    problems: list[str] = []

    def add(name: str, data: bytes) -> None:
        nonlocal total
        total += len(data)
        if total > MAX_BYTES:
            raise RosterError([_too_big()])
        files[name.lower()] = data

    for filename, data in uploads:
        name = _basename(filename)
        lower = name.lower()
        if not name and not data:
            continue
        if lower.endswith(".zip"):
            try:
                archive = zipfile.ZipFile(io.BytesIO(data))
                members = [m for m in archive.infolist() if not m.is_dir()]
                if sum(m.file_size for m in members) > MAX_BYTES:
                    raise RosterError([_too_big()])
                for member in members:
                    inner = _basename(member.filename)
                    if inner.lower().endswith(".csv") and not inner.startswith("."):
                        with archive.open(member) as stream:
                            add(inner, stream.read(MAX_BYTES + 1))
            except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError):
                problems.append(f"“{name}” is not a .zip file we can open.")
        elif lower.endswith(".csv"):
            add(name, data)
        else:
            problems.append(
                f"“{name}” is not a CSV file. Choose the .csv files your school's system "
                "exported (users.csv, classes.csv, enrollments.csv, ...) or one .zip holding them."
            )
    if problems:
        raise RosterError(problems)
    return files


def _too_big() -> str:
    return (
        f"These files are larger than {MAX_BYTES // (1024 * 1024)} MB. Export only your own "
        "classes from your school's system, or ask your school for a smaller export."
    )


def _decode(name: str, data: bytes) -> str:
    if b"\x00" in data:
        raise RosterError([f"{name} is not a text file: is it the right file?"])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RosterError(
            [f"{name} is not in UTF-8, the text encoding OneRoster files use. Export it again."]
        ) from None


@dataclass
class _Table:
    name: str
    header: list[str]
    rows: list[tuple[int, dict[str, str]]] = field(default_factory=list)


def _table(name: str, text: str) -> _Table:
    """The file's rows as dicts by header name, each with its line number (the header is line 1).

    A line is a CSV record: a quoted field holding a line break counts as one record.
    """
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = [h.strip() for h in next(reader, [])]
        if not any(header):
            raise RosterError([f"{name} is empty: it has no header line."])
        table = _Table(name, header)
        for values in reader:
            if not any(v.strip() for v in values):
                continue  # a blank line
            row = {h: (values[i].strip() if i < len(values) else "") for i, h in enumerate(header)}
            table.rows.append((reader.line_num, row))
    except csv.Error as error:
        raise RosterError(
            [f"{name} is not a CSV file we can read (near line {reader.line_num}: {error})."]
        ) from None
    return table


# --- The plan --------------------------------------------------------------------------------------


def _hidden(text: str) -> bool:
    return any(unicodedata.category(char) in _HIDDEN_CATEGORIES for char in text)


def _clean(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def _date(text: str) -> dt.date | None:
    """An ISO date ("2026-06-30"; a date-time's date part is used too)."""
    return dt.date.fromisoformat(text[:10])


def read_roster(files: Mapping[str, bytes], today: dt.date) -> Plan:
    """The plan for ``files`` (by lower-case name, as :func:`files_from_uploads` gives them).

    Args:
        files: the files' bytes; names other than :data:`KNOWN_FILES` are ignored.
        today: the date an enrollment's ``endDate`` is compared with (the school's today).

    Raises:
        RosterError: a needed file or a required column is missing, a file is not UTF-8 CSV, or
            the files hold more than :data:`MAX_ROWS` rows.
    """
    missing = [name for name in NEEDED_FILES if name.lower() not in files]
    if missing:
        raise RosterError(
            [
                f"{name} is missing. Choose all the files your school's system exported "
                "(or the .zip holding them)."
                for name in missing
            ]
        )
    texts = {
        name: _decode(name, files[name.lower()]) for name in KNOWN_FILES if name.lower() in files
    }
    tables = {name: _table(name, texts[name]) for name in NEEDED_FILES}
    rows = sum(len(t.rows) for t in tables.values())
    if rows > MAX_ROWS:
        raise RosterError(
            [
                f"These files have {rows:,} rows; we take at most {MAX_ROWS:,} at a time. "
                "Export only your own classes from your school's system."
            ]
        )
    problems = [
        f"{name} has no “{column}” column, which OneRoster requires. Is it the right file?"
        for name, table in tables.items()
        for column in REQUIRED_COLUMNS[name]
        if column not in table.header
    ]
    if problems:
        raise RosterError(problems)

    refused: list[Refusal] = []
    skipped: list[Refusal] = []

    def required(table: _Table, line: int, row: dict[str, str]) -> bool:
        blank = [c for c in REQUIRED_COLUMNS[table.name] if not row.get(c)]
        if blank:
            which = ", ".join(blank)
            refused.append(Refusal(table.name, line, f"{which} is blank; it is required."))
        return not blank

    def unique(table: _Table) -> Iterable[tuple[int, dict[str, str]]]:
        """The table's rows with a sourcedId seen for the first time (a row without one passes)."""
        seen: dict[str, int] = {}
        for line, row in table.rows:
            sourced_id = row.get("sourcedId", "")
            if sourced_id and sourced_id in seen:
                refused.append(
                    Refusal(
                        table.name,
                        line,
                        f"the sourcedId “{sourced_id}” is also on line {seen[sourced_id]}; "
                        "only that line is used.",
                    )
                )
                continue
            if sourced_id:
                seen[sourced_id] = line
            yield line, row

    # Classes.
    classes: dict[str, tuple[str, list[RosterStudent], set[str]]] = {}
    for line, row in unique(tables[CLASSES]):
        if not required(tables[CLASSES], line, row):
            continue
        title = _clean(row["title"])
        if _hidden(title):
            refused.append(Refusal(CLASSES, line, "the title has hidden or control characters."))
        elif row.get("status", "").lower() == WITHDRAWN:
            refused.append(Refusal(CLASSES, line, f"“{title}” is marked as deleted (tobedeleted)."))
        else:
            classes[row["sourcedId"]] = (title, [], set())
    deleted_classes = {
        row.get("sourcedId", "")
        for _, row in tables[CLASSES].rows
        if row.get("status", "").lower() == WITHDRAWN
    }

    # People.
    users: dict[str, RosterStudent] = {}
    withdrawn: set[str] = set()
    for line, row in unique(tables[USERS]):
        if not row.get("sourcedId"):
            refused.append(Refusal(USERS, line, "sourcedId is blank; it is required."))
            continue
        given, family = _clean(row.get("givenName", "")), _clean(row.get("familyName", ""))
        person = RosterStudent(row["sourcedId"], given, family)
        if row.get("status", "").lower() == WITHDRAWN:
            withdrawn.add(person.sourced_id)
            refused.append(
                Refusal(USERS, line, f"{person.name or 'this user'} is withdrawn (tobedeleted).")
            )
        elif not person.name:
            refused.append(Refusal(USERS, line, "givenName and familyName are both blank."))
        elif _hidden(person.name):
            refused.append(Refusal(USERS, line, "the name has hidden or control characters."))
        elif len(person.name) > NAME_MAX:
            refused.append(Refusal(USERS, line, f"the name is longer than {NAME_MAX} characters."))
        else:
            users[person.sourced_id] = person
    refused_users = {row.get("sourcedId", "") for _, row in tables[USERS].rows} - users.keys()
    known_as = {
        row.get("sourcedId", ""): {
            value.lower()
            for value in (_clean(row.get("username", "")), _clean(row.get("email", "")))
            if value
        }
        for _, row in tables[USERS].rows
    }

    # Enrollments.
    placed: set[tuple[str, str]] = set()
    for line, row in unique(tables[ENROLLMENTS]):
        if not required(tables[ENROLLMENTS], line, row):
            continue
        class_id, user_id, role = row["classSourcedId"], row["userSourcedId"], row["role"].lower()
        pupil = users.get(user_id)
        who = pupil.name if pupil else f"user {user_id}"
        if role != "student":
            if role == "teacher" and class_id in classes:
                classes[class_id][2].update(known_as.get(user_id, ()))
            skipped.append(
                Refusal(
                    ENROLLMENTS, line, f"{who} is enrolled as {role}: only students are imported."
                )
            )
            continue
        if class_id not in classes:
            if class_id not in deleted_classes:
                refused.append(
                    Refusal(
                        ENROLLMENTS,
                        line,
                        f"no class in classes.csv has the sourcedId “{class_id}”.",
                    )
                )
            continue
        if pupil is None:
            if user_id not in refused_users:  # that row's reason is given already
                refused.append(
                    Refusal(
                        ENROLLMENTS, line, f"no user in users.csv has the sourcedId “{user_id}”."
                    )
                )
            continue
        title = classes[class_id][0]
        if row.get("status", "").lower() == WITHDRAWN:
            refused.append(
                Refusal(ENROLLMENTS, line, f"{who} is withdrawn from {title} (tobedeleted).")
            )
            continue
        try:
            end = _date(row["endDate"]) if row.get("endDate") else None
        except ValueError:
            refused.append(
                Refusal(
                    ENROLLMENTS, line, f"the endDate “{row['endDate']}” is not a date (YYYY-MM-DD)."
                )
            )
            continue
        if end is not None and end < today:
            refused.append(Refusal(ENROLLMENTS, line, f"{who} left {title} on {end.isoformat()}."))
            continue
        if (class_id, user_id) in placed:
            continue  # two rows for one enrollment: once is enough
        placed.add((class_id, user_id))
        classes[class_id][1].append(pupil)

    version = ""
    if "manifest.csv" in texts:
        manifest = _table("manifest.csv", texts["manifest.csv"])
        for _, row in manifest.rows:
            if row.get("propertyName") == "oneroster.version":
                version = row.get("value", "")

    return Plan(
        classes=tuple(
            RosterClass(sourced_id, title, tuple(students), frozenset(teachers))
            for sourced_id, (title, students, teachers) in classes.items()
        ),
        refused=tuple(refused),
        skipped=tuple(skipped),
        version=version,
        rows=rows,
    )
