"""Benchmark: a teacher makes 60 student accounts at once, through the real view with the real scrypt.

``POST /teach/classes/<id>/students/new`` hashes one password per account with Werkzeug's
scrypt (slow on purpose). It times that request, in-process with Flask's test client on SQLite,
two ways:

- ``sequential``: the passwords hashed one after another in the request's thread (how the view
  did it before issue 18),
- ``threads``: as the view does now (``trainer.web.teach.accounts.hash_passwords``: a thread
  pool, one thread per CPU, at most four).

It first checks the premise of the thread pool: that ``hashlib.scrypt`` releases the GIL, so that
N hashes on two threads take about half as long as on one.

Run it from the project root::

    .venv/bin/python bench/accounts.py               # 60 accounts, 3 runs each way
    .venv/bin/python bench/accounts.py --names 30 --runs 5
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def gil_check(hashes: int) -> list[tuple[int, float, float]]:
    """For one and two threads: wall-clock and CPU seconds for ``hashes`` scrypt hashes.

    With the GIL released, two threads use about two CPU-seconds per second (on two free CPUs);
    holding it, never more than one. On a busy machine the wall-clock gain shrinks, the CPU
    figure still shows whether the threads ran at once.
    """
    from werkzeug.security import generate_password_hash

    passwords = [f"otterlamp{n:02d}" for n in range(hashes)]
    found = []
    for threads in (1, 2):
        wall, cpu = time.perf_counter(), time.process_time()
        with ThreadPoolExecutor(max_workers=threads) as pool:
            list(pool.map(generate_password_hash, passwords))
        found.append((threads, time.perf_counter() - wall, time.process_time() - cpu))
    return found


def make_accounts(names: int, runs: int, sequential: bool) -> list[float]:
    """Seconds for each of ``runs`` requests that make ``names`` accounts (a fresh class each time)."""
    from trainer.web import create_app
    from trainer.web.extensions import db
    from trainer.web.models import Role, SchoolClass, User
    from trainer.web.teach import routes

    if sequential:
        routes.hash_passwords = lambda passwords: [User.hash_password(p) for p in passwords]  # type: ignore[assignment]
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
            teacher_id = teacher.id
        client = app.test_client()
        assert (
            client.post(
                "/auth/login", data={"username": "bench_teacher", "password": "bench horse battery"}
            ).status_code
            == 302
        )
        times = []
        for run in range(runs):
            with app.app_context():
                klass = SchoolClass(
                    teacher_id=teacher_id,
                    name=f"Room {run}",
                    join_code=f"BENCHXX{'ABCDEFGHJK'[run]}",
                )
                db.session.add(klass)
                db.session.commit()
                url = f"/teach/classes/{klass.id}/students/new"
            html = client.get(url).get_data(as_text=True)
            batch = re.search(r'name="batch" type="hidden" value="([^"]+)"', html).group(1)  # type: ignore[union-attr]
            letters = "abcdefghjk"
            listed = "\n".join(
                f"Kid{letters[run]}{letters[n // 10]}{letters[n % 10]} Lee" for n in range(names)
            )
            start = time.perf_counter()
            response = client.post(url, data={"batch": batch, "names": listed})
            times.append(time.perf_counter() - start)
            assert response.status_code == 200, response.get_data(as_text=True)[:500]
            assert response.get_data(as_text=True).count("data-password") == names
        return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--names", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"CPUs: {os.cpu_count()}")
    print("Load average (1 min) before:", f"{os.getloadavg()[0]:.2f}")
    for threads, wall, cpu in gil_check(16):
        print(
            f"16 scrypt hashes on {threads} thread{'s' if threads > 1 else ''}: {wall:.2f} s, {cpu:.2f} CPU-s ({cpu / wall:.2f} CPUs busy)"
        )
    for label, sequential in (("threads", False), ("sequential", True)):
        times = make_accounts(args.names, args.runs, sequential)
        print(
            f"{args.names} accounts, {label:>10}: median {statistics.median(times):.2f} s (runs: {', '.join(f'{t:.2f}' for t in times)})"
        )


if __name__ == "__main__":
    main()
