"""Benchmark: a teacher imports 5 classes of 30 from OneRoster CSV files (issue 24, roster import).

Writes a school's export (manifest.csv, orgs.csv, users.csv, classes.csv, enrollments.csv; the
classes' teachers are in the files too), then times, in-process with Flask's test client on SQLite:

- ``read``: the core alone (``trainer.roster.read_roster``) reading the files into a plan,
- ``preview``: ``POST /teach/import`` (upload, read, match against the teacher's classes, page),
- ``confirm``: ``POST /teach/import/confirm``, making the classes, the accounts (with the app's
  real scrypt password hashes, on every CPU as the bulk accounts do) and the memberships, as
  few classes at a time as the cap of new accounts per import (``MAX_NAMES``) allows,
- ``again``: the same files previewed and confirmed a second time (nothing is made).

Run it from the project root::

    .venv/bin/python bench/roster.py                  # 5 classes of 30
    .venv/bin/python bench/roster.py --classes 10 --students 30
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import re
import sys
import tempfile
import time
from html import unescape
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FIRST = ["Ana", "Bo", "Chen", "Dara", "Eli", "Femi", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea"]
LAST = ["Silva", "Okafor", "Nguyen", "Kowalski", "García", "Haddad", "Ito", "Novak"]


def export(classes: int, students: int) -> dict[str, bytes]:
    """A OneRoster 1.1 bulk export: ``classes`` classes of ``students`` each, and a teacher each."""
    users = [
        "sourcedId,status,dateLastModified,enabledUser,orgSourcedIds,role,username,userIds,"
        "givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password"
    ]
    rows = [
        "sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,"
        "location,schoolSourcedId,termSourcedIds,subjects,subjectCodes,periods"
    ]
    enrollments = [
        "sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,"
        "primary,beginDate,endDate"
    ]
    for c in range(classes):
        rows.append(f'cls-{c},,,"Geography, period {c + 1}",07,crs-1,G{c},scheduled,,org-1,t1,,,')
        users.append(f"tch-{c},,,true,org-1,teacher,t{c},,Pat{c},Smith,,,,,,,,")
        enrollments.append(f"enr-t{c},,,cls-{c},org-1,tch-{c},teacher,true,2026-08-20,")
        for s in range(students):
            n = c * students + s
            given, family = FIRST[n % len(FIRST)], f"{LAST[n % len(LAST)]}-{n}"
            users.append(f"stu-{n},,,true,org-1,student,s{n},,{given},{family},,,,,,,07,")
            enrollments.append(f"enr-{n},,,cls-{c},org-1,stu-{n},student,false,2026-08-20,")
    crlf = "\r\n"
    return {
        "manifest.csv": b"propertyName,value\r\noneroster.version,1.1\r\n",
        "orgs.csv": b"sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId\r\n"
        b"org-1,,,Lincoln Middle School,school,LMS,\r\n",
        "users.csv": (crlf.join(users) + crlf).encode(),
        "classes.csv": (crlf.join(rows) + crlf).encode(),
        "enrollments.csv": (crlf.join(enrollments) + crlf).encode(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--classes", type=int, default=5)
    parser.add_argument("--students", type=int, default=30)
    args = parser.parse_args()

    from trainer.roster import read_roster
    from trainer.web import create_app
    from trainer.web.extensions import db
    from trainer.web.models import ClassMembership, Role, SchoolClass, User
    from trainer.web.teach.accounts import MAX_NAMES

    files = export(args.classes, args.students)
    rows = sum(data.count(b"\n") - 1 for name, data in files.items())
    size = sum(len(data) for data in files.values())
    print(f"files: {len(files)} ({', '.join(files)}), {size:,} bytes, {rows} data rows")

    start = time.perf_counter()
    plan = read_roster(files, dt.date(2026, 12, 2))
    print(
        f"read (core):  {time.perf_counter() - start:7.3f} s  "
        f"{len(plan.classes)} classes, {len(plan.students)} students, {len(plan.skipped)} skipped"
    )

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.db",
                "SECRET_KEY": "bench",
                "WTF_CSRF_ENABLED": False,
                "RATELIMIT_ENABLED": False,
            }
        )
        with app.app_context():
            db.create_all()
            teacher = User(
                username="bench_teacher", username_key="bench_teacher", role=Role.TEACHER
            )
            teacher.set_password("bench horse battery")
            db.session.add(teacher)
            db.session.commit()
        client = app.test_client()
        login = client.post(
            "/auth/login", data={"username": "bench_teacher", "password": "bench horse battery"}
        )
        assert login.status_code == 302

        def preview() -> tuple[str, float]:
            data = {"files": [(io.BytesIO(content), name) for name, content in files.items()]}
            start = time.perf_counter()
            response = client.post("/teach/import", data=data, content_type="multipart/form-data")
            seconds = time.perf_counter() - start
            response.request.environ["wsgi.input"].close()
            assert response.status_code == 200, response.get_data(as_text=True)[:500]
            return response.get_data(as_text=True), seconds

        longest: list[float] = []

        def confirm(html: str) -> tuple[str, float]:
            """Import every class of the preview, as few classes at a time as the app's cap of
            new accounts per import allows (MAX_NAMES); the pages and the summed time."""
            token = unescape(re.search(r'name="plan" type="hidden" value="([^"]+)"', html).group(1))  # type: ignore[union-attr]
            ticked = re.findall(r'name="class" value="([^"]+)"', html)
            per = max(1, MAX_NAMES // args.students)
            pages, total = [], 0.0
            for first in range(0, len(ticked), per):
                start = time.perf_counter()
                response = client.post(
                    "/teach/import/confirm",
                    data={"plan": token, "class": ticked[first : first + per]},
                )
                seconds = time.perf_counter() - start
                assert response.status_code == 200, response.get_data(as_text=True)[:500]
                pages.append(response.get_data(as_text=True))
                longest.append(seconds)
                total += seconds
            return "".join(pages), total

        html, first_preview = preview()
        page, first_confirm = confirm(html)
        slips = page.count("data-password")
        with app.app_context():
            members = db.session.query(ClassMembership).count()
            classes = db.session.query(SchoolClass).count()
            accounts = db.session.query(User).filter(User.roster_id.is_not(None)).count()
        print(f"preview:      {first_preview:7.3f} s")
        print(
            f"confirm:      {first_confirm:7.3f} s  {classes} classes, {accounts} accounts "
            f"(scrypt), {members} memberships, {slips} slips; {len(longest)} imports of at "
            f"most {MAX_NAMES} new accounts, the longest {max(longest):.3f} s"
        )
        html, again_preview = preview()
        page, again_confirm = confirm(html)
        with app.app_context():
            assert db.session.query(User).filter(User.roster_id.is_not(None)).count() == accounts
        print(
            f"again:        {again_preview + again_confirm:7.3f} s  (preview {again_preview:.3f} "
            f"+ confirm {again_confirm:.3f}; nothing made, {page.count('data-password')} slips)"
        )
        total = first_preview + first_confirm
        print(
            f"import of {args.classes} classes of {args.students}: {total:.3f} s "
            f"(preview + confirm, {rows} rows)"
        )


if __name__ == "__main__":
    main()
