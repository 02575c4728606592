"""Benchmark: a teacher's class of 30 with a term of history, and a student's Study page.

Builds a database (SQLite in a temp file, and PostgreSQL in ``geoplunge_bench`` where it is
reachable) with one class of N students (30 by default). Each student has D days (60) of
simulated reviews written through the memory model's own ``record()`` (about R a day, from the
flashcard review and State IQ modes), and finished State IQ games. The class has six
assignments: rounds (scoped and not), answers, and three recall goals, the biggest one over
every fact of the deck. Then it times, in-process with Flask's test client:

- ``GET /teach/`` (the teacher's class list: the baseline page of the same session),
- ``GET /teach/classes/<id>`` (the class overview: needs help, every assignment's completion),
- ``GET /teach/classes/<id>/assignments/<id>`` for the biggest recall goal,
- ``GET /teach/classes/<id>/progress.csv``,
- ``GET /study/`` for one student (their assignments first).

Run it from the project root::

    .venv/bin/python bench/teacher.py                   # both databases
    .venv/bin/python bench/teacher.py --db sqlite --students 30 --days 60 --per-day 30
    git worktree add /tmp/before <commit>
    .venv/bin/python bench/teacher.py --repo /tmp/before --repo .   # both, in one run

``--repo PATH`` (given twice or more) measures each checkout's ``trainer`` package in turn, in a
subprocess with PATH first on ``sys.path``, on the same seeds, one after another in this run: a
before and an after of the same pages on the same machine at the same time.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: ``--trainer-root PATH`` (internal: the subprocess of ``--repo``) puts that checkout first.
_CHOSEN = sys.argv[sys.argv.index("--trainer-root") + 1] if "--trainer-root" in sys.argv else None
sys.path.insert(0, str(Path(_CHOSEN).resolve() if _CHOSEN else ROOT))

PG_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/geoplunge_bench"
PASSWORD = "bench horse battery"


def build(url: str, students: int, days: int, per_day: int, seed: int):  # type: ignore[no-untyped-def]
    from sqlalchemy import insert

    from trainer import srs
    from trainer.facts import Facet, Form, Verdict, all_facts
    from trainer.web import create_app, get_deck
    from trainer.web.extensions import db
    from trainer.web.memory import record
    from trainer.web.models import (
        Assignment,
        ClassMembership,
        Role,
        SchoolClass,
        StateIqGame,
        User,
        utcnow,
    )

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": url,
            "SECRET_KEY": "bench",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
        }
    )
    rng = random.Random(seed)
    now = utcnow()
    with app.app_context():
        db.drop_all()
        db.create_all()
        teacher = User(username="bench_teacher", username_key="bench_teacher", role=Role.TEACHER)
        teacher.set_password(PASSWORD)
        db.session.add(teacher)
        db.session.flush()
        klass = SchoolClass(teacher_id=teacher.id, name="Room 30", join_code="BENCH234")
        db.session.add(klass)
        db.session.flush()
        hashed = teacher.password_hash
        ids = []
        for n in range(students):
            student = User(
                username=f"student{n:02d}",
                username_key=f"student{n:02d}",
                role=Role.STUDENT,
                password_hash=hashed,
            )
            db.session.add(student)
            db.session.flush()
            ids.append(student.id)
            db.session.add(ClassMembership(class_id=klass.id, student_id=student.id))
        db.session.commit()
        facts = list(all_facts(get_deck()))
        for sid in ids:
            student = db.session.get(User, sid)
            skill = rng.uniform(0.55, 0.95)
            learned = facts[: rng.randint(120, 400)]
            for day in range(days, 0, -1):
                start = now - dt.timedelta(days=day, hours=-rng.randint(0, 6))
                for k in range(
                    rng.randint(per_day // 2, per_day * 3 // 2) if rng.random() > 0.15 else 0
                ):
                    fact = rng.choice(learned)
                    mode = "review" if k % 3 else "state_iq"
                    verdict = Verdict.RIGHT if rng.random() < skill else Verdict.WRONG
                    outcome = srs.Outcome(
                        fact_key=fact.key,
                        verdict=verdict,
                        mode=mode,
                        form=Form.TYPED,
                        round_token=f"{mode}:bench{sid}-{day}",
                        item=str(k),
                        answer="x",
                    )
                    record(student, outcome, now=start + dt.timedelta(seconds=20 * k))
            games = [
                {
                    "token": f"g{sid}-{g}",
                    "student_id": sid,
                    "level": "easy",
                    "power_card": 1,
                    "student_card": "CO",
                    "computer_card": "UT",
                    "first_guesser": "student",
                    "seed": g,
                    "moves": [],
                    "move_count": 0,
                    "recorded": [],
                    "result": "won",
                    "created_at": now - dt.timedelta(days=g % days, minutes=5),
                    "finished_at": now - dt.timedelta(days=g % days),
                }
                for g in range(rng.randint(0, 40))
            ]
            if games:
                db.session.execute(insert(StateIqGame), games)
            db.session.commit()
        window = {
            "starts_at": now - dt.timedelta(days=14),
            "due_at": now + dt.timedelta(days=7),
            "time_zone": "UTC",
            "everyone": True,
        }
        everything = {"facets": [], "area": "", "states": []}
        assignments = [
            Assignment(
                class_id=klass.id,
                title="10 rounds of State IQ",
                activities=["state-iq"],
                scope=everything,
                amount="rounds",
                quantity=10,
                **window,
            ),
            Assignment(
                class_id=klass.id,
                title="West, State IQ",
                activities=["state-iq", "review"],
                scope={"facets": [], "area": "region:west", "states": []},
                amount="rounds",
                quantity=5,
                **window,
            ),
            Assignment(
                class_id=klass.id,
                title="300 answers",
                activities=["review", "state-iq"],
                scope=everything,
                amount="reviews",
                quantity=300,
                **window,
            ),
            Assignment(
                class_id=klass.id,
                title="Capitals at 90%",
                activities=["review"],
                scope={"facets": [Facet.CAPITAL.value], "area": "", "states": []},
                amount="recall",
                target=0.9,
                **window,
            ),
            Assignment(
                class_id=klass.id,
                title="The South at 85%",
                activities=["review"],
                scope={"facets": [], "area": "region:south", "states": []},
                amount="recall",
                target=0.85,
                **window,
            ),
            Assignment(
                class_id=klass.id,
                title="Everything at 90%",
                activities=["review"],
                scope=everything,
                amount="recall",
                target=0.9,
                **window,
            ),
        ]
        db.session.add_all(assignments)
        db.session.commit()
        from sqlalchemy import func, select

        from trainer.web.models import ReviewLog

        reviews = db.session.execute(select(func.count()).select_from(ReviewLog)).scalar_one()
        return app, klass.id, assignments[-1].id, reviews


def login(client, username: str) -> None:  # type: ignore[no-untyped-def]
    response = client.post("/auth/login", data={"username": username, "password": PASSWORD})
    assert response.status_code == 302, response.status_code


def timed(client, url: str, repeat: int) -> list[float]:  # type: ignore[no-untyped-def]
    client.get(url)  # warm up
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get(url)
        out.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return out


def run(name: str, url: str, args: argparse.Namespace) -> None:
    start = time.perf_counter()
    app, class_id, big_id, reviews = build(url, args.students, args.days, args.per_day, args.seed)
    built = time.perf_counter() - start
    print(
        f"\n{name}: {args.students} students, {reviews:,} review log rows, 6 assignments (built in {built:.0f} s)"
    )
    teacher = app.test_client()
    login(teacher, "bench_teacher")
    student = app.test_client()
    login(student, "student00")
    pages = [
        ("class list (baseline)", teacher, "/teach/"),
        ("class overview", teacher, f"/teach/classes/{class_id}"),
        (
            "assignment: every fact at 90%",
            teacher,
            f"/teach/classes/{class_id}/assignments/{big_id}",
        ),
        ("progress CSV", teacher, f"/teach/classes/{class_id}/progress.csv"),
        ("student's Study page", student, "/study/"),
    ]
    print("| page | mean ms | p95 ms | x baseline |\n|---|---:|---:|---:|")
    baseline = None
    for label, client, path in pages:
        times = sorted(timed(client, path, args.repeat))
        mean = statistics.fmean(times)
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        baseline = baseline or mean
        print(f"| {label} | {mean:.1f} | {p95:.1f} | {mean / baseline:.1f} |")
    with app.app_context():
        from trainer.web.extensions import db

        db.drop_all()
        db.engine.dispose()


def _commit(repo: str) -> str:
    import subprocess

    found = subprocess.run(
        ["git", "-C", repo, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return found.stdout.strip() or "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--days", type=int, default=60)
    parser.add_argument("--per-day", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repo", action="append", default=[], help="a checkout to measure")
    parser.add_argument("--trainer-root", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.repo:
        for repo in args.repo:
            import subprocess

            print(f"\n## {repo} ({_commit(repo)})", flush=True)
            command = [sys.executable, __file__, "--trainer-root", repo, "--db", args.db]
            for option in ("students", "days", "per_day", "repeat", "seed"):
                command += [f"--{option.replace('_', '-')}", str(getattr(args, option))]
            subprocess.run(command, check=True)
        return
    if args.db in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as tmp:
            run("SQLite", f"sqlite:///{os.path.join(tmp, 'bench.db')}", args)
    if args.db in ("postgresql", "both"):
        from sqlalchemy import create_engine, text

        engine = create_engine(PG_SERVER, isolation_level="AUTOCOMMIT")
        with engine.connect() as connection:
            connection.execute(text("DROP DATABASE IF EXISTS geoplunge_bench"))
            connection.execute(text("CREATE DATABASE geoplunge_bench"))
        engine.dispose()
        run("PostgreSQL", PG_URL, args)


if __name__ == "__main__":
    main()
