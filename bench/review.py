"""Benchmark: the review-submit endpoint against a bare Flask endpoint, under gunicorn.

For each database (SQLite in a temp file, PostgreSQL in the database ``geoplunge_bench``, dropped
and created afresh) this script migrates a new database with ``flask db upgrade``, creates one
student per client with enough study rounds that every measured request answers a new
(round, item), and starts gunicorn (2 workers by default) on the app with one bench-only page
(``bench/_wsgi.py``). A second process then drives, with N concurrent keep-alive clients, first
``POST /study/rounds/<token>/<index>`` (a real answer, a 302 that records a review; the redirect
is not followed), then ``POST /bench/signed-in`` (an empty student POST: session, user, role and
CSRF checks, nothing else: the floor under any student request) and then, on the same server,
``GET /healthz`` (no database). It prints the throughput of both, their ratio and the
p50/p99 latencies and the CPU time per request of the server (gunicorn master and workers) and of
the driver, checks that ``review_log`` holds exactly one row per accepted answer, and stops the
server. The app runs as configured for production (its login limits count failed logins only).

Goal (the issue): review throughput >= 50% of the bare endpoint's, review p99 < 50 ms at 20
concurrent clients. Server and driver share this machine's CPUs, so the figures are relative.

Run it from the project root::

    .venv/bin/python bench/review.py                      # both databases, 4000 requests each
    .venv/bin/python bench/review.py --db sqlite --requests 1000
    .venv/bin/python bench/review.py --threads 4          # gunicorn's gthread workers

Exit status: non-zero on an error (a failed request, a missing review row), not on a missed goal.
"""

from __future__ import annotations

import argparse
import http.client
import math
import multiprocessing
import os
import queue
import random
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PG_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_NAME = "geoplunge_bench"
PASSWORD = "bench horse battery"
WARMUP = 5  # unmeasured requests per client and endpoint
#: The measured phases, in order: the review endpoint, an empty signed-in POST, the bare endpoint.
PHASES = ("review_ms", "floor_ms", "bare_ms")
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


# --- The database: schema by migration, data through the app's models -----------------------


def pg_url(name: str = PG_NAME) -> str:
    return f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"


def fresh_database(kind: str, tmp: Path, name: str = PG_NAME) -> str:
    """A new database's URL: an SQLite file in ``tmp``, or PostgreSQL's ``name`` made afresh."""
    if kind == "sqlite":
        return f"sqlite:///{tmp / 'bench.db'}"
    import psycopg

    with psycopg.connect(PG_SERVER, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    return pg_url(name)


def drop_database(kind: str, name: str = PG_NAME) -> None:
    if kind == "postgresql":
        import psycopg

        with psycopg.connect(PG_SERVER, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def migrate(env: dict[str, str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "app", "db", "upgrade"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        sys.exit(f"flask db upgrade failed:\n{done.stdout}{done.stderr}")


def make_plans(students: int, answers_each: int, seed: int) -> list[dict]:
    """Students and their rounds in the database; per student, the answers to post in order."""
    from trainer.facts import Facet, Fact, Form, expected_answer
    from trainer.review import ROUND_SIZE, Item, question
    from trainer.web import create_app
    from trainer.web.extensions import db
    from trainer.web.models import Role, StudyRound, User, utcnow

    rng = random.Random(seed)
    app = create_app()
    deck = app.extensions["deck"]
    # Capitals and postal codes of all 50 states: 100 facts, each answered about twice per student.
    facts = [
        Fact(s.postal, facet)
        for s in deck.sorted_by(None)
        for facet in (Facet.CAPITAL, Facet.POSTAL)
    ]
    plans = []
    with app.app_context():
        for s in range(students):
            user = User(username=f"bench{s:02d}", username_key=f"bench{s:02d}", role=Role.STUDENT)
            user.set_password(PASSWORD)
            db.session.add(user)
            db.session.flush()
            answers = []
            for r in range(math.ceil(answers_each / ROUND_SIZE)):
                start = (s * 37 + r) * ROUND_SIZE
                items = [
                    Item(facts[(start + i) % len(facts)], rng.choice([Form.TYPED, Form.CHOICE]))
                    for i in range(ROUND_SIZE)
                ]
                round_ = StudyRound(
                    token=secrets.token_urlsafe(18),
                    student_id=user.id,
                    seed=rng.getrandbits(62),
                    items=[[it.fact.key, it.form.value] for it in items],
                    focus={"facets": [], "zone": ""},
                    created_at=utcnow(),
                )
                db.session.add(round_)
                for index, item in enumerate(items, start=1):
                    asked = question(item, deck, round_.seed, index)
                    right = expected_answer(item.fact, deck)
                    assert item.form is Form.TYPED or right in asked.choices, asked
                    fields = {"elapsed_ms": str(rng.randint(1500, 9000))}
                    if rng.random() < 0.2:
                        fields |= {"answer": "", "dont_know": "y"}
                    else:
                        fields |= {"answer": right, "submit": "Check"}
                    answers.append((f"/study/rounds/{round_.token}/{index}", fields))
            plans.append({"username": user.username, "answers": answers[:answers_each]})
        db.session.commit()
        db.session.remove()
        db.engine.dispose()
    return plans


def count_reviews() -> int:
    from sqlalchemy import func, select

    from trainer.web import create_app
    from trainer.web.extensions import db
    from trainer.web.models import ReviewLog

    app = create_app()
    with app.app_context():
        rows = db.session.execute(select(func.count()).select_from(ReviewLog)).scalar_one()
        db.session.remove()
        db.engine.dispose()
    return rows


# --- The server -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(
    env: dict[str, str], port: int, workers: int, threads: int, log: Path
) -> subprocess.Popen:
    cmd = [
        sys.executable,
        "-m",
        "gunicorn",
        "--chdir",
        str(ROOT),
        "-w",
        str(workers),
        "-b",
        f"127.0.0.1:{port}",
    ]
    if threads:
        cmd += ["-k", "gthread", "--threads", str(threads)]
    server = subprocess.Popen(
        [*cmd, "bench._wsgi:app"], cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"gunicorn exited:\n{log.read_text()}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                conn.close()
                return server
        except OSError:
            time.sleep(0.1)
    stop_gunicorn(server)
    sys.exit(f"gunicorn did not answer /healthz within 30 s:\n{log.read_text()}")


def stop_gunicorn(server: subprocess.Popen) -> None:
    server.terminate()  # SIGTERM: gunicorn's graceful shutdown
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def server_cpu_seconds(pid: int) -> float:
    """User + system CPU time of gunicorn's master and its live workers (Linux /proc)."""
    total = 0.0
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        for p in [str(pid), *children]:
            fields = Path(f"/proc/{p}/stat").read_text().rpartition(")")[2].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return math.nan
    return total


# --- The driver (a second process) ----------------------------------------------------------


class Client:
    """One browser: a keep-alive connection (reopened when the server closes it) and a cookie jar."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {}
        self.last_used = 0.0

    def send(self, method: str, path: str, fields: dict | None = None) -> tuple[int, str, str]:
        """Status, body and Location header of one request (status 0 when the connection failed)."""
        headers = {"User-Agent": "geoplunge-bench"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if fields is not None:
            body = urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if time.monotonic() - self.last_used > 1:
            # gunicorn drops a connection idle for 2 s (--keep-alive): never send into that race.
            self.conn.close()
        try:
            self.conn.request(method, path, body, headers)
            response = self.conn.getresponse()
            text = response.read().decode()
        except (OSError, http.client.HTTPException) as exc:
            self.conn.close()
            return 0, f"{type(exc).__name__}: {exc}", ""
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value
        self.last_used = time.monotonic()
        return response.status, text, response.getheader("Location", "")


def client_run(port: int, plan: dict, quota: int, barriers: list, out: dict) -> None:
    client = Client(port)
    out.update(review_ms=[], floor_ms=[], bare_ms=[], submitted=0)
    try:
        _, page, _ = client.send("GET", "/auth/login")
        status, _, _ = client.send(
            "POST",
            "/auth/login",
            {
                "username": plan["username"],
                "password": PASSWORD,
                "csrf_token": CSRF.search(page).group(1),
            },
        )
        assert status == 302, f"login of {plan['username']} answered {status}"
        _, page, _ = client.send("GET", plan["answers"][0][0])
        token = CSRF.search(page).group(1)  # valid for the whole session
    except Exception as exc:  # noqa: BLE001 - reported, and the barriers let the others go on
        out["error"] = f"{plan['username']}: {exc!r}"
        token = ""
    answers = iter(plan["answers"])
    try:
        for phase, key in enumerate(PHASES):
            for n in range(WARMUP + quota):
                if n == WARMUP:
                    barriers[phase].wait()  # all clients start measuring together...
                if "error" in out:
                    continue
                if key == "review_ms":
                    path, fields = next(answers)
                elif key == "floor_ms":
                    path, fields = "/bench/signed-in", {}
                else:
                    path, fields = "/healthz", None
                started = time.perf_counter()
                if key == "review_ms":
                    status, _, location = client.send("POST", path, {**fields, "csrf_token": token})
                    out["submitted"] += 1
                    ok = status == 302 and location.endswith(path)  # not to the login page
                elif key == "floor_ms":
                    status, _, location = client.send("POST", path, {"csrf_token": token})
                    ok = status == 302 and location.endswith("/study/")
                else:
                    status, body, _ = client.send("GET", path)
                    ok = status == 200 and body == "ok"
                if n >= WARMUP:
                    out[key].append((time.perf_counter() - started) * 1000)
                if not ok:
                    out.setdefault("failures", []).append(f"{key[:-3]} {status} {path}")
            barriers[phase + len(PHASES)].wait()  # ...and the phase ends when the last one is done
    except threading.BrokenBarrierError:
        out.setdefault("error", f"{plan['username']}: gave up waiting for the other clients")


def drive(port: int, server_pid: int, plans: list[dict], requests: int, results) -> None:  # type: ignore[no-untyped-def]
    n = len(plans)
    marks: dict[str, float] = {}

    def mark(name: str) -> Callable[[], None]:
        return lambda: marks.update(
            {
                name: time.perf_counter(),
                name + "_cpu": server_cpu_seconds(server_pid),
                name + "_driver_cpu": time.process_time(),
            }
        )

    names = [f"{key[:-3]}{edge}" for edge in (0, 1) for key in PHASES]
    barriers = [threading.Barrier(n, action=mark(name), timeout=600) for name in names]
    outs = [{} for _ in plans]
    quotas = [requests // n + (i < requests % n) for i in range(n)]
    threads = [
        threading.Thread(target=client_run, args=(port, p, q, barriers, o))
        for p, q, o in zip(plans, quotas, outs)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results.put({"marks": marks, "clients": outs})


# --- Running and reporting ------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)] if ordered else math.nan


def bench(kind: str, args: argparse.Namespace) -> bool:
    worker = (
        f"gthread, {args.workers} workers x {args.threads} threads"
        if args.threads
        else f"sync, {args.workers} workers"
    )
    print(f"\n== {kind} (gunicorn {worker}) ==", flush=True)
    with tempfile.TemporaryDirectory(prefix="geoplunge-bench-") as tmpdir:
        tmp = Path(tmpdir)
        env = {
            **os.environ,
            "DATABASE_URL": fresh_database(kind, tmp),
            "SECRET_KEY": secrets.token_hex(32),
        }
        env.pop("REDIS_URL", None)
        os.environ.update(env)  # make_plans and count_reviews build the app from the environment
        server = None
        try:
            migrate(env)
            per_client = math.ceil(args.requests / args.concurrency) + WARMUP
            plans = make_plans(args.concurrency, per_client, seed=args.seed)
            port = free_port()
            server = start_gunicorn(env, port, args.workers, args.threads, tmp / "gunicorn.log")
            context = multiprocessing.get_context("spawn")
            results = context.Queue()
            driver = context.Process(
                target=drive, args=(port, server.pid, plans, args.requests, results), daemon=True
            )
            driver.start()
            while True:  # the driver may die (then nothing ever comes)
                try:
                    result = results.get(timeout=1)
                    break
                except queue.Empty:
                    if not driver.is_alive():
                        sys.exit(f"the driver process died (exit code {driver.exitcode})")
            driver.join()
            rows = count_reviews()
        finally:
            if server is not None:
                stop_gunicorn(server)
            drop_database(kind)
        log = (tmp / "gunicorn.log").read_text() if (tmp / "gunicorn.log").exists() else ""
    return report(result, rows, log)


def report(result: dict, rows: int, log: str) -> bool:
    marks, clients = result["marks"], result["clients"]
    errors = [c["error"] for c in clients if "error" in c] + [
        f for c in clients for f in c.get("failures", [])
    ]
    if len(marks) < 6 * len(PHASES):
        print("FAILED: the run did not complete:\n  " + "\n  ".join(errors[:10]))
        return False
    print(
        f"{'endpoint':<14}{'requests':>9}{'wall s':>9}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}"
        f"{'srv CPU ms/req':>16}{'drv CPU ms/req':>16}"
    )
    rates = {}
    labels = {"review": "POST review", "floor": "POST signed-in", "bare": "GET /healthz"}
    for key in PHASES:
        name, label = key[:-3], labels[key[:-3]]
        times = [ms for c in clients for ms in c[key]]
        wall = marks[name + "1"] - marks[name + "0"]
        server_cpu = (marks[name + "1_cpu"] - marks[name + "0_cpu"]) * 1000 / max(1, len(times))
        driver_cpu = (
            (marks[name + "1_driver_cpu"] - marks[name + "0_driver_cpu"])
            * 1000
            / max(1, len(times))
        )
        rates[name] = len(times) / wall
        rates[name + "_p99"] = percentile(times, 99)
        print(
            f"{label:<14}{len(times):>9}{wall:>9.2f}{rates[name]:>9.0f}{percentile(times, 50):>9.1f}"
            f"{rates[name + '_p99']:>9.1f}{server_cpu:>16.2f}{driver_cpu:>16.2f}"
        )
    ratio = rates["review"] / rates["bare"]
    print(f"ratio review/bare: {ratio:.2f}  goal >= 0.50: {'met' if ratio >= 0.5 else 'MISSED'}")
    print(
        f"ratio signed-in/bare: {rates['floor'] / rates['bare']:.2f}  (an empty student POST: the most any student POST can reach)"
    )
    print(
        f"review p99: {rates['review_p99']:.1f} ms  goal < 50 ms: {'met' if rates['review_p99'] < 50 else 'MISSED'}"
    )
    submitted = sum(c["submitted"] for c in clients)
    accepted = submitted - sum(
        1 for c in clients for f in c.get("failures", []) if f.startswith("review")
    )
    print(
        f"check: {rows} review_log rows for {accepted} answers accepted (302) of {submitted} posted"
        f" (warm-up included)"
    )
    if rows != accepted:
        errors.append(f"review_log has {rows} rows, but {accepted} answers were accepted")
    if errors:
        print(f"FAILED: {len(errors)} errors, first ones:\n  " + "\n  ".join(errors[:10]))
        if "Traceback" in log or "Error" in log:
            print("gunicorn log (end):\n" + log[-3000:])
        return False
    print("check: OK (no 4xx/5xx, one review row per accepted answer)")
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--requests", type=int, default=4000, help="measured requests per endpoint (default 4000)"
    )
    parser.add_argument(
        "--concurrency", type=int, default=20, help="concurrent clients (default 20)"
    )
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    parser.add_argument(
        "--threads", type=int, default=0, help="use gunicorn's gthread workers with N threads each"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the rounds and answers")
    args = parser.parse_args()
    if args.requests < args.concurrency:
        parser.error("--requests must be at least --concurrency")
    print(
        f"requests {args.requests} per endpoint, {args.concurrency} concurrent clients, "
        f"gunicorn {args.workers} workers"
        + (f" x {args.threads} threads (gthread)" if args.threads else " (sync)")
        + f", warm-up {WARMUP} per client\n{os.cpu_count()} CPUs shared by server and driver; load average "
        + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    kinds = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    ok = [bench(kind, args) for kind in kinds]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
