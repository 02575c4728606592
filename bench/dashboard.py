"""Benchmark: the progress dashboards on a district's worth of data, against their bare SQL.

For each database (SQLite in a file, PostgreSQL in the database ``geoplunge_dash``, made afresh)
it migrates an empty database with ``flask db upgrade``, runs ``flask seed-demo`` for 500
students (about 990,000 review log rows with the default 190 days), ``ANALYZE``s, and then times,
in-process with Flask's test client, signed in as a teacher and as a student:

- the teacher's class dashboard, ``GET /progress/classes/<id>``, against
  ``dashboards.raw_teacher_queries`` (the same SQL statements, executed and fetched, nothing else:
  the overview, the confused pairs, and each assignment's students and completion rows);
- the student's dashboard, ``GET /progress/``, against ``dashboards.raw_student_queries``;
- the whole district as one class (every student), against its raw queries, as a stress case.

Goals (issue #10): teacher dashboard under 300 ms and under 3x its raw queries' time; student
dashboard under 100 ms. Timings are means and 95th percentiles of ``--repeat`` runs after one
warm-up, raw and page alternating.

Run it from the project root::

    .venv/bin/python bench/dashboard.py                       # both databases
    .venv/bin/python bench/dashboard.py --db sqlite --days 60
    .venv/bin/python bench/dashboard.py --db sqlite --keep /tmp/dash.db   # reuse a seeded file
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PG_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
PG_NAME = "geoplunge_dash"
PG_URL = f"postgresql+psycopg://postgres@127.0.0.1:5432/{PG_NAME}"
TEACHER = "bench_district"
PASSWORD = "bench horse battery"


def flask(url: str, *args: str) -> str:
    env = {**os.environ, "DATABASE_URL": url, "FLASK_APP": "app"}
    done = subprocess.run(
        [sys.executable, "-m", "flask", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def seed(url: str, students: int, days: int) -> float:
    start = time.perf_counter()
    flask(url, "db", "upgrade")
    print(
        flask(
            url,
            "seed-demo",
            "--students",
            str(students),
            "--days",
            str(days),
            "--teacher",
            TEACHER,
            "--seed",
            "7",
        ).strip()
    )
    return time.perf_counter() - start


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    fn()
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return sorted(out)


def stats(times: list[float]) -> tuple[float, float]:
    return statistics.fmean(times), times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]


def measure(name: str, url: str, repeat: int) -> None:
    from sqlalchemy import func, select, text

    from trainer.web import create_app, dashboards
    from trainer.web.extensions import db
    from trainer.web.memory import settings_for
    from trainer.web.models import ClassMembership, ReviewLog, SchoolClass, User, utcnow
    from trainer.web.progress import class_assignments

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": url,
            "SECRET_KEY": "bench",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
        }
    )
    with app.app_context():
        db.session.execute(text("ANALYZE"))
        db.session.commit()
        reviews = db.session.execute(select(func.count()).select_from(ReviewLog)).scalar_one()
        students = db.session.execute(
            select(func.count()).select_from(User).where(User.role == "student")
        ).scalar_one()
        teacher = db.session.execute(select(User).where(User.username == TEACHER)).scalar_one()
        teacher.set_password(PASSWORD)
        db.session.commit()
        klass = (
            db.session.execute(
                select(SchoolClass)
                .where(SchoolClass.teacher_id == teacher.id)
                .order_by(SchoolClass.id)
            )
            .scalars()
            .first()
        )
        class_id = klass.id
        ids = list(
            db.session.execute(
                select(ClassMembership.student_id).where(ClassMembership.class_id == class_id)
            ).scalars()
        )
        everyone = list(db.session.execute(select(User.id).where(User.role == "student")).scalars())
        student = db.session.get(User, ids[0])
        student.set_password(PASSWORD)
        db.session.commit()
        student_name, student_id = student.username, student.id
        zone = settings_for(student).time_zone
        target = klass.desired_retention or 0.9

    teacher_client = app.test_client()
    assert (
        teacher_client.post(
            "/auth/login", data={"username": TEACHER, "password": PASSWORD}
        ).status_code
        == 302
    )
    student_client = app.test_client()
    assert (
        student_client.post(
            "/auth/login", data={"username": student_name, "password": PASSWORD}
        ).status_code
        == 302
    )

    def page(client, path: str) -> Callable[[], object]:  # type: ignore[no-untyped-def]
        def run() -> None:
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code)

        return run

    def raw(fn: Callable[[], object]) -> Callable[[], object]:
        def run() -> None:
            with app.app_context():
                fn()
                db.session.remove()

        return run

    now = utcnow()
    cases = [
        (
            f"teacher: class of {len(ids)}",
            page(teacher_client, f"/progress/classes/{class_id}"),
            raw(
                lambda: dashboards.raw_teacher_queries(
                    ids, now, target, class_assignments(db.session.get(SchoolClass, class_id)), now
                )
            ),
            300.0,
        ),
        (
            "student",
            page(student_client, "/progress/"),
            raw(lambda: dashboards.raw_student_queries(student_id, now, zone)),
            100.0,
        ),
        (
            f"district as one class ({len(everyone)}), raw queries only",
            None,
            raw(lambda: dashboards.raw_teacher_queries(everyone, now, target)),
            None,
        ),
    ]
    print(f"\n{name}: {students} students, {reviews:,} review log rows")
    print("| dashboard | page mean ms | page p95 ms | raw SQL mean ms | page / raw | goal |")
    print("|---|---:|---:|---:|---:|---|")
    for label, page_fn, raw_fn, goal in cases:
        raw_mean, _ = stats(timed(raw_fn, repeat))
        if page_fn is None:
            print(f"| {label} | | | {raw_mean:.1f} | | |")
            continue
        page_mean, page_p95 = stats(timed(page_fn, repeat))
        ratio = page_mean / raw_mean
        goal_text = f"< {goal:.0f} ms" + (" and < 3x raw" if label.startswith("teacher") else "")
        met = page_mean < goal and (ratio < 3 or not label.startswith("teacher"))
        print(
            f"| {label} | {page_mean:.1f} | {page_p95:.1f} | {raw_mean:.1f} | {ratio:.2f} | {goal_text}: {'met' if met else 'MISSED'} |"
        )
    with app.app_context():
        db.engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--students", type=int, default=500)
    parser.add_argument("--days", type=int, default=190)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--keep", help="a SQLite file to seed once and reuse")
    args = parser.parse_args()
    if args.db in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as tmp:
            path = args.keep or os.path.join(tmp, "dash.db")
            url = f"sqlite:///{path}"
            if not (args.keep and os.path.exists(path)):
                print(f"SQLite: seeded in {seed(url, args.students, args.days):.0f} s")
            measure("SQLite", url, args.repeat)
    if args.db in ("postgresql", "both"):
        from sqlalchemy import create_engine, text

        engine = create_engine(PG_SERVER, isolation_level="AUTOCOMMIT")
        with engine.connect() as connection:
            connection.execute(text(f"DROP DATABASE IF EXISTS {PG_NAME}"))
            connection.execute(text(f"CREATE DATABASE {PG_NAME}"))
        engine.dispose()
        print(f"PostgreSQL: seeded in {seed(PG_URL, args.students, args.days):.0f} s")
        measure("PostgreSQL", PG_URL, args.repeat)
        engine = create_engine(PG_SERVER, isolation_level="AUTOCOMMIT")
        with engine.connect() as connection:
            connection.execute(text(f"DROP DATABASE IF EXISTS {PG_NAME}"))
        engine.dispose()


if __name__ == "__main__":
    main()
