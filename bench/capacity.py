"""Benchmark: how many active students the app serves (issue 25), against a bare Flask app.

Goal (the issue): 400 active students on 2 CPUs at p95 page time under 250 ms with no error on
the SQLite default, and 300 with PostgreSQL and Redis; a class of 30 signing in within the same
minute does not push anyone's p95 over 250 ms; the ratio to a bare app under the same load.

For each database (SQLite in a temp file; PostgreSQL in the database ``geoplunge_capacity``, dropped
and created afresh and dropped at the end) the script migrates a new database with
``flask db upgrade`` and makes, through the app's models, the largest step's number of students
(``cap0001``...), ``--teachers`` teachers with classes of 30 of them (dealt round-robin between
the teachers) and a class of ``--burst`` more students (``burst01``...) for the sign-in burst. The
students of the steps get a CHEAP password hash (pbkdf2, 1000 rounds) so that setup and signing
them in are quick; the burst's students get the app's real one (``User.set_password``, scrypt),
whose cost the burst measures. gunicorn serves the app as ``bench/_wsgi.py`` has it (production
settings: ``--timeout 60``, ``--workers``, sync workers or gthread with ``--threads``), with
``REDIS_URL`` set under ``--redis`` (the default with PostgreSQL).

A second process (the driver; it shares the CPUs, and its CPU is reported) signs every student
and teacher in through the login form before anything is measured (a lesson's steady state), then
runs a closed loop: each student is a thread with its own seeded ``random.Random``, a keep-alive
HTTP client with a cookie jar (``Accept-Encoding`` as Chromium sends it, so pages are compressed
as for a browser) and a think time of ``--think`` seconds (uniform, 3-8 by default) before each
page view. What a student does, as a browser would ask for it:

- lands on the study home (``GET /study/``) when it becomes active;
- 60%: a study round: ``POST /study/rounds`` (the start form of the study home or of the last
  round's summary), ``GET /study/rounds/<token>/1``, then for each of the 10 facts the answer
  posted as the page's instant-answer script does (``Accept: application/json``: the feedback comes
  back as JSON) and "Next fact" fetched the same way, then ``GET .../done``, the summary. The
  answer is read off the page: an option of a multiple choice, a spot of the pick map, or text
  typed; "I don't know" 10% of the time, else, where the prompt names the state, the right answer
  (the driver knows the deck; a pick map's spot is found from its outline) 60% of the time and a
  wrong but readable one otherwise ("Which state is red?" is always a guess).
  ``--plain-forms``: the pages without JavaScript instead (the answer's 302 followed to the
  feedback page, then the next question's page);
- 12%: a Dashing States round: ``GET /play/dashing-states/``, ``POST`` to deal (a race at a
  random level, or practice), ``GET`` the round, a call after 15-40 s (places 1st-4th and one
  aside, names and capitals from the page's lists), ``GET`` the result;
- 18%: a card game against the computer: ``GET /play/games/``, ``POST`` to deal a random game
  (2-4 players, a random level), ``GET`` the table, then 3-8 real moves (a button of the table's
  own move forms, chosen at random: the server plays the computer seats), each followed to the
  table again;
- 10%: the progress charts (``GET /progress/``).

Each virtual teacher (``--teachers``) loads a class page (``/teach/classes/<id>``) and that class's
dashboard (``/progress/classes/<id>``) in turn, every 10-20 s, going through its classes.
Static files are never asked for (the app serves them with a year of immutable caching), nor is
plotly.js (cached for a year too).

Every request's time (sent to its whole body read) is kept by endpoint (tokens and ids written
``<token>``, ``<n>``). The number of active students is stepped (``--steps``): each step's new
students start one after the other over ``--ramp`` seconds (the first step runs ``--warmup``
seconds more, the server's warm-up), then ``--seconds`` are measured:
requests/s, p50/p95/p99 of every page, the 3 endpoints with the worst p95, errors (a status of
500 or more, a failed connection, the login page where a signed-in page was expected), refusals
(4xx; none expected), the CPUs busy in gunicorn (master and workers, from /proc), in the driver
and in everything else (PostgreSQL, Redis, other work: a step with other work on the machine is not
a clean measure; run it on an otherwise idle machine).
Stepping stops at the first step whose p95 passes ``--target-ms`` or that has an error; the knee
is the largest step before it. Then, with the knee's students still working (those above it
pause; ``--burst-at``: that many students instead, e.g. the goal's), ``--burst`` new students sign
in with the real password hash at random moments within ``--burst-seconds`` and go on studying;
everyone's pages in that minute are reported.

The bare baseline: a Flask app of one route returning a 3 KB HTML page, served by gunicorn with
the same settings, driven by 50 clients without think time for 15 s (its saturated throughput);
the report gives the app's requests/s at the knee divided by that, and the server CPU ms per
request of both. Server and driver share this machine's CPUs: the figures are this machine's.

Run it from the project root (PostgreSQL on 127.0.0.1:5432, Redis on 127.0.0.1:6379)::

    .venv/bin/python bench/capacity.py                                  # SQLite, 100...800
    .venv/bin/python bench/capacity.py --db postgresql                  # with Redis
    .venv/bin/python bench/capacity.py --burst-at 400                   # the goal's burst
    .venv/bin/python bench/capacity.py --db both --threads 8            # gthread workers
    .venv/bin/python bench/capacity.py --steps 20,40 --seconds 15       # a quick check

Exit status: non-zero on a setup error (migration, server, driver), not on a missed goal.
"""

from __future__ import annotations

import argparse
import gzip
import html
import http.client
import importlib.util
import json
import math
import multiprocessing
import os
import queue
import random
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _review_bench() -> Any:
    """bench/review.py, whose database and gunicorn helpers this bench shares."""
    spec = importlib.util.spec_from_file_location("bench_review", ROOT / "bench" / "review.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_review = _review_bench()
fresh_database = _review.fresh_database
drop_database = _review.drop_database
migrate = _review.migrate
free_port = _review.free_port
stop_gunicorn = _review.stop_gunicorn
server_cpu_seconds = _review.server_cpu_seconds

PG_NAME = "geoplunge_capacity"
REDIS_URL = "redis://127.0.0.1:6379/0"
PASSWORD = "capacity horse battery"
CLASS_SIZE = 30
#: What a student does next, and how often (the study round, Dashing States, a card game, charts).
MIX = (("study", 0.60), ("dashing", 0.12), ("cards", 0.18), ("charts", 0.10))
#: Seconds a student takes over a Dashing States call (ten fields to fill in).
DASHING_THINK = (15.0, 40.0)
#: Seconds between a teacher's page views.
TEACHER_THINK = (10.0, 20.0)
#: The share of questions a student answers right where the driver can tell the answer.
P_RIGHT = 0.6
P_DONT_KNOW = 0.1
#: The bare baseline: clients without think time, warm-up and measured seconds.
BARE_CLIENTS, BARE_WARMUP, BARE_SECONDS = 50, 3.0, 15.0
#: What Chromium sends; the app compresses with the best it has (zstd, br or gzip).
ACCEPT_ENCODING = "gzip, deflate, br, zstd"
ACCEPT_PAGE = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
TOKEN_SEGMENT = re.compile(r"[A-Za-z0-9_-]{10,}")
SPOT = re.compile(r'class="map-state map-state--pick" d="m([^"]{0,60})[^"]*" data-spot="(\d+)"')
#: The start of an outline: "m x y", then a line (l dx dy, h dx or v dy; a bare pair is a line).
OUTLINE_START = re.compile(
    r"m?\s*(-?(?:\d+\.?\d*|\.\d+))[ ,]*(-?(?:\d+\.?\d*|\.\d+))\s*([lhv]?)\s*"
    r"(-?(?:\d+\.?\d*|\.\d+))(?:[ ,]*(-?(?:\d+\.?\d*|\.\d+)))?"
)


def outline_start(path: str) -> tuple[float, float, float, float] | None:
    """The first two points of an outline's path, relative: x, y and the first line's dx, dy."""
    found = OUTLINE_START.match(path)
    if found is None:
        return None
    x, y, command, a, b = found.groups()
    if command == "h":
        return float(x), float(y), float(a), 0.0
    if command == "v":
        return float(x), float(y), 0.0, float(a)
    return (float(x), float(y), float(a), float(b)) if b is not None else None


BARE_APP = '''"""The bare app of bench/capacity.py: one 3 KB HTML page, nothing else."""

from flask import Flask

app = Flask(__name__)
PAGE = (
    "<!doctype html><html lang=en><head><meta charset=utf-8><title>Bare</title></head>"
    "<body><main><p>" + "A bare page of about three kilobytes. " * 80 + "</p></main></body></html>"
)


@app.get("/")
def page() -> str:
    return PAGE


@app.get("/healthz")
def healthz() -> str:
    return "ok"
'''


# --- The database: schema by migration, accounts through the app's models ------------------


class SetupError(Exception):
    """The bench could not be set up (a migration, the server, the driver)."""


def make_accounts(students: int, burst: int, teachers: int) -> dict[str, Any]:
    """The students (cheap hashes), the burst's class (the real hash) and the teachers, each
    teacher with classes of 30; their usernames and each teacher's class ids."""
    from werkzeug.security import generate_password_hash

    from trainer.web import create_app
    from trainer.web.extensions import db
    from trainer.web.models import ClassMembership, Role, SchoolClass, User

    cheap = generate_password_hash(PASSWORD, method="pbkdf2:sha256:1000")
    app = create_app()
    made: dict[str, Any] = {"students": [], "burst": [], "teachers": [], "burst_class": None}
    with app.app_context():
        staff: list[tuple[User, list[int]]] = []
        for t in range(max(1, teachers)):
            teacher = User(username=f"capteach{t}", username_key=f"capteach{t}", role=Role.TEACHER)
            teacher.password_hash = cheap
            db.session.add(teacher)
            staff.append((teacher, []))
        db.session.flush()

        def new_class(number: int, names: list[str], real_hash: bool) -> None:
            teacher, class_ids = staff[number % len(staff)]
            klass = SchoolClass(
                teacher_id=teacher.id, name=f"Capacity {number + 1}", join_code=f"CAPX{number:04d}"
            )
            db.session.add(klass)
            db.session.flush()
            class_ids.append(klass.id)
            if real_hash:
                made["burst_class"] = klass.id
            for name in names:
                user = User(username=name, username_key=name, role=Role.STUDENT)
                if real_hash:
                    user.set_password(PASSWORD)
                else:
                    user.password_hash = cheap
                db.session.add(user)
                db.session.flush()
                db.session.add(ClassMembership(class_id=klass.id, student_id=user.id))

        names = [f"cap{n:04d}" for n in range(1, students + 1)]
        for number in range(math.ceil(students / CLASS_SIZE)):
            new_class(number, names[number * CLASS_SIZE : (number + 1) * CLASS_SIZE], False)
        made["students"] = names
        if burst:
            made["burst"] = [f"burst{n:02d}" for n in range(1, burst + 1)]
            new_class(math.ceil(students / CLASS_SIZE), made["burst"], True)
        db.session.commit()
        made["teachers"] = [(teacher.username, class_ids) for teacher, class_ids in staff]
        db.session.remove()
        db.engine.dispose()
    return made


def tally_database() -> str:
    """What the run left in the database, in words: the load did what it says."""
    from sqlalchemy import func, select

    from trainer.web import create_app
    from trainer.web.extensions import db
    from trainer.web.models import CardGame, DashingRound, ReviewLog, StudyRound

    app = create_app()
    with app.app_context():
        run = db.session.execute

        reviews: dict[str, int] = dict(
            run(select(ReviewLog.verdict, func.count()).group_by(ReviewLog.verdict)).all()
        )
        modes = dict(run(select(ReviewLog.mode, func.count()).group_by(ReviewLog.mode)).all())
        rounds = run(select(func.count()).select_from(StudyRound)).scalar_one()
        dashing = dict(
            run(select(DashingRound.result, func.count()).group_by(DashingRound.result)).all()
        )
        games, plies = run(select(func.count(), func.coalesce(func.sum(CardGame.ply), 0))).one()
        db.session.remove()
        db.engine.dispose()
    verdicts = ", ".join(f"{k} {v}" for k, v in sorted(reviews.items()))
    by_mode = ", ".join(f"{k} {v}" for k, v in sorted(modes.items()))
    results = ", ".join(f"{k} {v}" for k, v in sorted(dashing.items()))
    return (
        f"in the database: {sum(reviews.values())} reviews ({verdicts}; by mode: {by_mode}), "
        f"{rounds} study rounds, {sum(dashing.values())} Dashing States rounds ({results}), "
        f"{games} card games ({plies} actions in all)"
    )


# --- The server -----------------------------------------------------------------------------


def start_gunicorn(
    env: dict[str, str],
    port: int,
    args: argparse.Namespace,
    log: Path,
    target: str = "bench._wsgi:app",
    chdir: Path = ROOT,
) -> subprocess.Popen[bytes]:
    """gunicorn on ``target`` with the bench's settings (the same for the app and the bare app)."""
    cmd = [sys.executable, "-m", "gunicorn", "--chdir", str(chdir), "-w", str(args.workers)]
    cmd += ["-b", f"127.0.0.1:{port}", "--timeout", "60"]
    if args.threads:
        cmd += ["-k", "gthread", "--threads", str(args.threads)]
    server = subprocess.Popen(
        [*cmd, target], cwd=chdir, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SetupError(f"gunicorn exited:\n{log.read_text()}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                conn.close()
                return server
        except OSError:
            time.sleep(0.1)
    stop_gunicorn(server)
    raise SetupError(f"gunicorn did not answer /healthz within 30 s:\n{log.read_text()}")


# --- The driver (a second process): browsers -------------------------------------------------


@dataclass
class Reply:
    status: int  # 0: the connection failed
    body: str
    location: str
    content_type: str


def _decoded(data: bytes, encoding: str) -> bytes:
    if encoding == "gzip":
        return gzip.decompress(data)
    if encoding == "deflate":
        return zlib.decompress(data)
    if encoding == "br":
        import brotli  # type: ignore[import-untyped]

        return bytes(brotli.decompress(data))
    if encoding == "zstd":
        from backports import zstd

        return bytes(zstd.decompress(data))
    return data


def _zstd_available() -> bool:
    try:
        from backports import zstd  # noqa: F401
    except ImportError:
        return False
    return True


class Client:
    """One browser: a keep-alive connection (reopened when the server closes it) and a cookie jar."""

    def __init__(self, port: int, encodings: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {"tz": "America/Chicago"}  # as timezone.js sets it
        self.encodings = encodings
        self.last_used = 0.0

    def send(
        self, method: str, path: str, fields: dict[str, str] | None = None, *, as_json: bool = False
    ) -> tuple[Reply, float]:
        """The reply and the milliseconds from sending the request to its whole body read."""
        headers = {
            "User-Agent": "geoplunge-capacity",
            "Accept": "application/json" if as_json else ACCEPT_PAGE,
            "Accept-Encoding": self.encodings,
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
        }
        body = None
        if fields is not None:
            body = urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if time.monotonic() - self.last_used > 1:
            # gunicorn drops a connection idle for 2 s (--keep-alive): never send into that race.
            self.conn.close()
        started = time.perf_counter()
        try:
            self.conn.request(method, path, body, headers)
            response = self.conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as exc:
            self.conn.close()
            ms = (time.perf_counter() - started) * 1000
            return Reply(0, f"{type(exc).__name__}: {exc}", "", ""), ms
        ms = (time.perf_counter() - started) * 1000
        self.last_used = time.monotonic()
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value
        text = _decoded(data, response.getheader("Content-Encoding", "")).decode()
        return (
            Reply(
                response.status,
                text,
                response.getheader("Location", ""),
                response.getheader("Content-Type", ""),
            ),
            ms,
        )


def endpoint(method: str, path: str, as_json: bool) -> str:
    """``POST /study/rounds/<token>/<n> (json)``: the path without its query, tokens and ids."""
    parts = []
    for segment in urlsplit(path).path.split("/"):
        if segment.isdigit():
            parts.append("<n>")
        elif TOKEN_SEGMENT.fullmatch(segment) and not re.fullmatch(r"[a-z-]+", segment):
            parts.append("<token>")
        else:
            parts.append(segment)
    return f"{method} {'/'.join(parts)}" + (" (json)" if as_json else "")


class Stopped(Exception):
    """The run is over: the thread unwinds."""


class Flow(Exception):
    """A page did not offer what the virtual user expected; it goes back to its start page."""


class Load:
    """The driver's control: how many students are active, and the end of the run."""

    def __init__(self) -> None:
        self.active = 0
        self.cond = threading.Condition()
        self.stop = threading.Event()

    def set_active(self, n: int, students: list[Student], ramp: float) -> None:
        """Make the first ``n`` students active; those newly active start one after the other
        over ``ramp`` seconds; those above ``n`` pause at their next think."""
        now = time.perf_counter()
        with self.cond:
            new = range(self.active, n)
            for k, i in enumerate(new):
                students[i].start_at = now + ramp * k / max(1, len(new))
            self.active = n
            self.cond.notify_all()

    def end(self) -> None:
        self.stop.set()
        with self.cond:
            self.cond.notify_all()


@dataclass
class Knowledge:
    """What the driver knows of the deck, to answer like a student who knows some of it."""

    facets: dict[str, Any]  # facet label -> Facet
    names: re.Pattern[str]  # any state's name, the longest first
    postal_of: dict[str, str]  # name -> postal
    postals: list[str]
    expected: Callable[[str, Any], str]
    #: postal -> the start of its outline (:func:`outline_start`)
    outline_starts: dict[str, tuple[float, float, float, float]]
    neighbours: dict[str, set[str]]  # postal -> the names of the states it borders

    def spot_of(self, page: str, postal: str) -> str | None:
        """The spot of a pick map that is ``postal``: the spots' outlines are the states' own,
        stretched, and the map's transform undoes the stretch (what the student sees)."""
        matrix = re.search(r'<g transform="matrix\(([^)]*)\)">\s*<path class="map-state', page)
        if matrix is None or postal not in self.outline_starts:
            return None
        sx, _, _, sy, dx, dy = (float(v) for v in matrix.group(1).split())
        x, y, lx, ly = self.outline_starts[postal]
        spots = []
        for path, spot in SPOT.findall(page):
            start = outline_start(path)
            if start is not None:
                px, py, qx, qy = start
                far = abs(sx * px + dx - x) + abs(sy * py + dy - y)
                spots.append((far + abs(sx * qx - lx) + abs(sy * qy - ly), spot))
        return min(spots)[1] if spots else None

    @classmethod
    def load(cls) -> Knowledge:
        from trainer.cards import DATA_DIR, load_deck
        from trainer.facts import Facet, Fact, expected_answer

        deck = load_deck(DATA_DIR)
        states = list(deck.sorted_by(None))
        by_length = sorted((s.name for s in states), key=len, reverse=True)
        starts = {}
        for postal, shape in deck.geometry.shapes.items():
            start = outline_start(shape.path)
            if start is not None:
                starts[postal] = start
        return cls(
            facets={f.label: f for f in Facet},
            names=re.compile(r"\b(" + "|".join(re.escape(n) for n in by_length) + r")\b"),
            postal_of={s.name: s.postal for s in states},
            postals=[s.postal for s in states],
            expected=lambda postal, facet: expected_answer(Fact(postal, facet), deck),
            outline_starts=starts,
            neighbours={s.postal: {n.name for n in deck.neighbours(s)} for s in states},
        )


@dataclass
class Sample:
    started: float  # perf_counter
    name: str
    ms: float
    outcome: str  # "ok", "4xx" or "error"


@dataclass
class VirtualUser(ABC):
    """A virtual user: its client, its own random numbers and what it measured."""

    username: str
    port: int
    load: Load
    args: argparse.Namespace
    seed: int
    encodings: str
    index: int = -1  # the place among the students in the steps; -1: always active
    client: Client = field(init=False)
    rng: random.Random = field(init=False)
    samples: list[Sample] = field(default_factory=list)
    problems: list[tuple[float, str]] = field(default_factory=list)
    pending: tuple[float, str] | None = None
    start_at: float = 0.0
    page: str = ""  # the last page shown (its forms)
    landing: str = ""  # where signing in led

    def __post_init__(self) -> None:
        self.client = Client(self.port, self.encodings)
        self.rng = random.Random(self.seed)

    @abstractmethod
    def run(self) -> None:
        """What this user does until the run ends (a student's loop, a teacher's rounds)."""

    # -- requests

    def request(
        self,
        method: str,
        path: str,
        fields: dict[str, str] | None = None,
        *,
        as_json: bool = False,
        expect: tuple[int, ...] = (200,),
        login_page: bool = False,
    ) -> Reply:
        """One request, timed and judged: a status of 500 or more, a failed connection or the
        login page are errors; another status than expected is a refusal (4xx) or a flow error."""
        name = endpoint(method, path, as_json)
        self.pending = (time.perf_counter(), name)
        reply, ms = self.client.send(method, path, fields, as_json=as_json)
        started = self.pending[0]
        self.pending = None
        problem = ""
        outcome = "ok"
        if reply.status == 0 or reply.status >= 500:
            outcome, problem = "error", f"{reply.status} {reply.body[:120]}"
        elif not login_page and (
            "/auth/login" in reply.location
            or (reply.status == 200 and 'action="/auth/login' in reply.body)
        ):
            outcome, problem = "error", "the login page"
        elif reply.status not in expect:
            outcome = "4xx" if 400 <= reply.status < 500 else "error"
            problem = f"{reply.status} (expected {expect}) {reply.location}"
        self.samples.append(Sample(started, name, ms, outcome))
        if problem:
            self.problems.append((started, f"{self.username} {name}: {problem}"))
            raise Flow(problem)
        return reply

    def get(self, path: str, *, as_json: bool = False) -> str:
        reply = self.request("GET", path, as_json=as_json)
        if not as_json:
            self.page = reply.body
        return reply.body

    def post(self, path: str, fields: dict[str, str], *, as_json: bool = False) -> Reply:
        return self.request("POST", path, fields, as_json=as_json, expect=(200, 302, 303))

    def follow(self, reply: Reply) -> str:
        """The page a 302 leads to, as the browser fetches it."""
        if reply.status not in (302, 303):
            raise Flow(f"no redirect ({reply.status})")
        return self.get(reply.location)

    # -- time

    def think(self, low: float | None = None, high: float | None = None) -> float:
        """Wait as a student reading and thinking does; pause while inactive. Returns the wait."""
        lo, hi = (low, high) if low is not None and high is not None else self.args.think
        seconds = self.rng.uniform(lo, hi)
        if self.load.stop.wait(seconds):
            raise Stopped
        self.wait_active()
        return seconds

    def wait_active(self) -> None:
        if self.index < 0:
            return
        with self.load.cond:
            while self.index >= self.load.active:
                if self.load.stop.is_set():
                    raise Stopped
                self.load.cond.wait()
        delay = self.start_at - time.perf_counter()
        if delay > 0 and self.load.stop.wait(delay):
            raise Stopped

    def login(self) -> None:
        page = self.request("GET", "/auth/login", login_page=True).body
        token = csrf(page)
        reply = self.request(
            "POST",
            "/auth/login",
            {"username": self.username, "password": PASSWORD, "csrf_token": token},
            expect=(302,),
        )
        self.page = ""
        self.landing = reply.location


def csrf(page: str) -> str:
    found = CSRF.search(page)
    if found is None:
        raise Flow("no CSRF token on the page")
    return found.group(1)


def hidden(page: str, name: str) -> str:
    found = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*value="([^"]*)"', page)
    return html.unescape(found.group(1)) if found else ""


def radio_values(page: str, name: str) -> list[str]:
    return [
        html.unescape(v)
        for v in re.findall(rf'<input[^>]*name="{re.escape(name)}"[^>]*value="([^"]*)"', page)
    ]


class Student(VirtualUser):
    """A student in a lesson: study rounds mostly, a game now and then, the charts."""

    knowledge: Knowledge

    def run(self) -> None:
        try:
            self.wait_active()
            if not self.page:
                self.get("/study/")
            while True:
                self.think()
                self.activity()
        except Stopped:
            return

    def activity(self) -> None:
        name = self.rng.choices([m for m, _ in MIX], [w for _, w in MIX])[0]
        try:
            {"study": self.study, "dashing": self.dashing, "cards": self.cards}.get(
                name, self.charts
            )()
        except Flow:
            self.page = ""  # back to a start page of its own
        except (KeyError, ValueError, IndexError) as exc:
            self.problems.append((time.perf_counter(), f"{self.username}: driver {exc!r}"))
            self.page = ""

    # -- a study round

    def study(self) -> None:
        if 'action="/study/rounds"' not in self.page:
            self.get("/study/")
            self.think()
        form = {
            "csrf_token": csrf(self.page),
            "practice": hidden(self.page, "practice"),
            "submit": "Start studying",
        }
        reply = self.post("/study/rounds", form)
        if "/study/rounds/" not in reply.location:
            # Nothing to study in that choice now: the study home says so (and may offer practice).
            self.follow(reply)
            if hidden(self.page, "practice") != "1":
                return
            self.think()
            form |= {"csrf_token": csrf(self.page), "practice": "1"}
            reply = self.post("/study/rounds", form)
            if "/study/rounds/" not in reply.location:
                self.follow(reply)
                return
        url = reply.location
        question = self.follow(reply)
        while True:
            thought = self.think()
            fields = self.answer(question, thought)
            if self.args.plain_forms:
                reply = self.post(url, fields)
                feedback = self.follow(reply)
                nexts = re.search(r'href="([^"]+)" id="next"', feedback)
                if nexts is None:
                    raise Flow("no Next on the feedback page")
                next_url = html.unescape(nexts.group(1))
            else:
                reply = self.post(url, fields, as_json=True)
                if reply.status != 200:
                    raise Flow(f"answer answered {reply.status}")
                next_url = json.loads(reply.body)["next"]
            self.think()
            if next_url.endswith("/done"):
                self.get(next_url)  # "See how you did" is an ordinary link
                return
            url = next_url
            question = self.get(url) if self.args.plain_forms else self.next_question(url)

    def next_question(self, url: str) -> str:
        body = json.loads(self.get(url, as_json=True))
        if body.get("kind") != "question":
            raise Flow(f"{url} is not a question")
        return str(body["html"])

    def answer(self, page: str, thought: float) -> dict[str, str]:
        """The answer form's fields as a student fills them in, from the question's page."""
        fields = {
            "csrf_token": csrf(page),
            "elapsed_ms": str(round(thought * 1000)),
            "served": hidden(page, "served"),
        }
        if self.rng.random() < P_DONT_KNOW:
            return fields | {"answer": "", "dont_know": "y"}
        know = self.knowledge
        kind = re.search(r'data-form="(\w+)"', page)
        label = re.search(r'class="review__progress">Fact \d+ of \d+ \S ([^<]+)</p>', page)
        prompt = re.search(r'id="q-title"[^>]*>(.*?)</h1>', page, re.S)
        facet = know.facets.get(html.unescape(label.group(1)).strip()) if label else None
        named = know.names.search(html.unescape(prompt.group(1))) if prompt else None
        right = know.expected(know.postal_of[named.group(1)], facet) if named and facet else None
        knows = right is not None and self.rng.random() < P_RIGHT
        form = kind.group(1) if kind else "typed"
        if form == "map_click":
            spot = know.spot_of(page, know.postal_of[named.group(1)]) if knows and named else None
            if spot is None:
                spot = self.rng.choice(re.findall(r'data-spot="(\d+)"', page))
            return fields | {"answer": spot}
        if form == "choice":
            choices = radio_values(page, "answer")
            if knows and named and facet is not None and facet.value == "borders":
                near = know.neighbours[know.postal_of[named.group(1)]]
                right = next((c for c in choices if c in near), choices[-1])  # or "None of them"
            picked = right if knows and right in choices else self.rng.choice(choices)
            return fields | {"answer": picked, "submit": "Check"}
        if knows and right is not None:
            typed = "none" if right.startswith("No states") else right  # Alaska, Hawaii
        elif facet is not None and facet.value not in ("map", "borders"):
            typed = know.expected(self.rng.choice(know.postals), facet)
        else:  # a state's name (the red state; a neighbour)
            typed = self.rng.choice(list(know.postal_of))
        return fields | {"answer": typed, "submit": "Check"}

    # -- Dashing States

    def dashing(self) -> None:
        page = self.get("/play/dashing-states/")
        self.think()
        level = self.rng.choice(radio_values(page, "level"))
        reply = self.post(
            "/play/dashing-states/", {"csrf_token": csrf(page), "level": level, "submit": "Deal"}
        )
        url = reply.location
        page = self.follow(reply)
        self.think(*DASHING_THINK)
        names = re.findall(r'<option value="([^"]*)">', _datalist(page, "state-names"))
        capitals = re.findall(r'<option value="([^"]*)">', _datalist(page, "capital-names"))
        places = ["1", "2", "3", "4", "aside"]
        self.rng.shuffle(places)
        call = {"csrf_token": csrf(page), "submit": "GeoPlunge"}
        for i, place in enumerate(places):
            call |= {
                f"place-{i}": place,
                f"name-{i}": html.unescape(self.rng.choice(names)),
                f"capital-{i}": html.unescape(self.rng.choice(capitals)),
            }
        self.follow(self.post(urlsplit(url).path, call))
        self.think()

    # -- a card game against the computer

    def cards(self) -> None:
        page = self.get("/play/games/")
        self.think()
        deal = {
            "csrf_token": csrf(page),
            "game": self.rng.choice(radio_values(page, "game")),
            "players": str(self.rng.choice([2, 3, 4])),
            "team_size": "1",
            "level": self.rng.choice(radio_values(page, "level")),
            "submit": "Deal",
        }
        page = self.follow(self.post("/play/games/", deal))
        for _ in range(self.rng.randint(3, 8)):
            moves = list(_move_forms(page))
            if not moves:
                return  # the game is over
            self.think()
            action, fields = self.rng.choice(moves)
            page = self.follow(self.post(action, fields))

    # -- the progress charts

    def charts(self) -> None:
        self.get("/progress/")


def _datalist(page: str, name: str) -> str:
    found = re.search(rf'<datalist id="{name}">(.*?)</datalist>', page, re.S)
    if found is None:
        raise Flow(f"no {name} list")
    return found.group(1)


def _move_forms(page: str) -> Iterator[tuple[str, dict[str, str]]]:
    """Every move the table offers: each button of its move forms, with the form's fields."""
    forms = re.findall(
        r'<form method="post" action="(/play/games/[^"/?]+)" class="play-form">(.*?)</form>',
        page,
        re.S,
    )
    for action, inner in forms:
        if 'type="text"' in inner:
            continue  # a drill move (a ranking typed): not played by these students
        base = {html.unescape(n): html.unescape(v) for n, v in _hidden_pairs(inner)}
        for name, value in re.findall(r'<button type="submit" name="(\w+)" value="([^"]*)"', inner):
            yield html.unescape(action), base | {name: html.unescape(value)}


def _hidden_pairs(inner: str) -> list[tuple[str, str]]:
    pairs = []
    for tag in re.findall(r"<input[^>]*>", inner):
        if 'type="hidden"' not in tag:
            continue
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name:
            pairs.append((name.group(1), value.group(1) if value else ""))
    return pairs


class Teacher(VirtualUser):
    """A teacher watching the lesson: a class page and its dashboard, class after class."""

    classes: list[int]

    def run(self) -> None:
        try:
            self.think(0, TEACHER_THINK[1])  # teachers do not all look at once
            pages = [
                page
                for class_id in self.classes
                for page in (f"/teach/classes/{class_id}", f"/progress/classes/{class_id}")
            ] or ["/teach/"]  # a teacher with no class of the run's students: their classes page
            while True:
                for page in pages:
                    self.visit(page)
                    self.think(*TEACHER_THINK)
        except Stopped:
            return

    def visit(self, path: str) -> None:
        try:
            self.get(path)
        except Flow:
            pass  # counted


# --- The driver's measurement ------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)] if ordered else math.nan


def window(users: list[VirtualUser], start: float, end: float, now: float) -> list[Sample]:
    """The samples of requests sent within [start, end), those still waiting counted as if done
    now (a stuck request must not vanish from the percentiles)."""
    out = []
    for user in users:
        samples = user.samples
        for k in range(len(samples) - 1, -1, -1):  # newest first; the window is at the end
            sample = samples[k]
            if sample.started < start:
                break
            if sample.started < end:
                out.append(sample)
        pending = user.pending
        if pending is not None and start <= pending[0] < end:
            out.append(Sample(pending[0], pending[1], (now - pending[0]) * 1000, "pending"))
    return out


def summarize(samples: list[Sample], seconds: float, top: int = 3) -> dict[str, Any]:
    times = [s.ms for s in samples]
    by_name: dict[str, list[float]] = {}
    for s in samples:
        by_name.setdefault(s.name, []).append(s.ms)
    endpoints: list[dict[str, Any]] = sorted(
        (
            {
                "name": name,
                "count": len(ms),
                "p50": percentile(ms, 50),
                "p95": percentile(ms, 95),
                "max": max(ms),
            }
            for name, ms in by_name.items()
        ),
        key=lambda e: e["p95"],
        reverse=True,
    )
    return {
        "requests": len(times),
        "rps": len(times) / seconds,
        "p50": percentile(times, 50),
        "p95": percentile(times, 95),
        "p99": percentile(times, 99),
        "errors": sum(1 for s in samples if s.outcome == "error"),
        "refused": sum(1 for s in samples if s.outcome == "4xx"),
        "pending": sum(1 for s in samples if s.outcome == "pending"),
        "slowest": [e for e in endpoints if e["count"] >= 5][:top] or endpoints[:top],
        "endpoints": endpoints,
    }


def machine_cpu_seconds() -> float:
    """CPU time the whole machine spent busy (Linux /proc/stat: all but idle and iowait)."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    except OSError:
        return math.nan
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


class Meter:
    """Server, driver and machine CPU over a stretch of time."""

    def __init__(self, server_pid: int) -> None:
        self.server_pid = server_pid
        self.wall = time.perf_counter()
        self.server = server_cpu_seconds(server_pid)
        self.driver = time.process_time()
        self.machine = machine_cpu_seconds()

    def read(self) -> dict[str, float]:
        wall = time.perf_counter() - self.wall
        server = server_cpu_seconds(self.server_pid) - self.server
        driver = time.process_time() - self.driver
        return {
            "wall": wall,
            "server_cpu": server,
            "driver_cpu": driver,
            # Whatever else ran meanwhile (the database server, Redis, other people's work).
            "other_cpu": max(0.0, machine_cpu_seconds() - self.machine - server - driver),
        }


def sign_in(users: list[VirtualUser], threads: int = 4) -> list[str]:
    """Sign everyone in through the login form (not measured); the failures."""
    failures: list[str] = []
    todo = queue.SimpleQueue[VirtualUser]()
    for user in users:
        todo.put(user)

    def work() -> None:
        while True:
            try:
                user = todo.get_nowait()
            except queue.Empty:
                return
            try:
                user.login()
            except Flow as problem:
                failures.append(f"{user.username}: {problem}")
            user.samples.clear()
            user.problems.clear()

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return failures


def problems_in(users: list[VirtualUser], start: float, end: float) -> list[str]:
    return [text for user in users for t, text in user.problems if start <= t < end]


def drive(
    port: int, server_pid: int, accounts: dict[str, Any], args: argparse.Namespace, out: Any
) -> None:
    """The virtual lesson, step by step, then the burst; results put on ``out`` as they come."""
    try:
        _drive(port, server_pid, accounts, args, out)
    except Exception as exc:  # noqa: BLE001 - the main process reports it
        import traceback

        out.put({"kind": "failed", "error": f"{exc!r}\n{traceback.format_exc()}"})


def _drive(
    port: int, server_pid: int, accounts: dict[str, Any], args: argparse.Namespace, out: Any
) -> None:
    Student.knowledge = Knowledge.load()
    encodings = ACCEPT_ENCODING if _zstd_available() else "gzip, deflate, br"
    load = Load()
    seeds = random.Random(args.seed)
    students = [
        Student(name, port, load, args, seeds.getrandbits(32), encodings, index=i)
        for i, name in enumerate(accounts["students"])
    ]
    teachers = []
    for name, class_ids in accounts["teachers"][: args.teachers]:
        teacher = Teacher(name, port, load, args, seeds.getrandbits(32), encodings)
        teacher.classes = [c for c in class_ids if c != accounts["burst_class"]]
        teachers.append(teacher)
    burst = [
        Student(name, port, load, args, seeds.getrandbits(32), encodings)
        for name in accounts["burst"]
    ]
    started = time.perf_counter()
    failures = sign_in([*students, *teachers])
    out.put(
        {
            "kind": "signed_in",
            "users": len(students) + len(teachers),
            "seconds": time.perf_counter() - started,
            "failures": failures,
        }
    )
    if failures:
        return
    threads = [threading.Thread(target=u.run, daemon=True) for u in [*students, *teachers]]
    for t in threads:
        t.start()
    everyone: list[VirtualUser] = [*students, *teachers]
    knee = 0
    try:
        for step, n in enumerate(args.steps):
            load.set_active(n, students, args.ramp)
            # The first step also warms the server up (templates compiled, caches filled).
            if load.stop.wait(args.ramp + (0 if step else args.warmup)):
                break
            meter = Meter(server_pid)
            t0 = meter.wall
            load.stop.wait(args.seconds)
            cpu = meter.read()
            t1 = t0 + cpu["wall"]
            stats = summarize(window(everyone, t0, t1, time.perf_counter()), cpu["wall"])
            stats |= cpu | {"students": n, "problems": problems_in(everyone, t0, t1)[:10]}
            out.put({"kind": "step", "stats": stats})
            if stats["p95"] > args.target_ms or stats["errors"]:
                break
            knee = n
        studying = args.burst_at or knee
        if args.burst and studying:
            # Those above it finish what they were doing and pause; those below it (a
            # --burst-at above the steps reached) start.
            load.set_active(studying, students, args.ramp)
            load.stop.wait(args.ramp + 10)
            out.put({"kind": "burst", "stats": run_burst(burst, everyone, server_pid, args)})
    finally:
        load.end()
        for t in threads:
            t.join(timeout=70)
    out.put({"kind": "done", "knee": knee})


def run_burst(
    burst: list[Student], everyone: list[VirtualUser], server_pid: int, args: argparse.Namespace
) -> dict[str, Any]:
    """A class signing in within ``--burst-seconds`` (the real password hash), then studying, while
    the knee's students work on: everyone's pages in that time."""
    rng = random.Random(args.seed + 1)
    meter = Meter(server_pid)
    t0 = meter.wall
    for student in burst:
        student.start_at = t0 + rng.uniform(0, args.burst_seconds)

    def arrive(student: Student) -> None:
        try:
            delay = student.start_at - time.perf_counter()
            if delay > 0 and student.load.stop.wait(delay):
                return
            student.login()
            student.follow(Reply(302, "", student.landing, ""))
        except Flow:
            return
        student.run()

    threads = [threading.Thread(target=arrive, args=(s,), daemon=True) for s in burst]
    for t in threads:
        t.start()
    burst[0].load.stop.wait(args.burst_seconds)
    cpu = meter.read()
    t1 = t0 + cpu["wall"]
    now = time.perf_counter()
    steady = window(everyone, t0, t1, now)
    arrived = window(list(burst), t0, t1, now)
    logins = [s for s in arrived if s.name == "POST /auth/login"]
    pages = steady + [s for s in arrived if s.name != "POST /auth/login"]
    stats = summarize(pages, cpu["wall"], top=3)
    per_user = []
    for user in [*everyone, *burst]:
        own = [s.ms for s in user.samples if t0 <= s.started < t1]
        if own:
            per_user.append(percentile(own, 95))
    stats |= cpu | {
        "students": sum(1 for u in everyone if isinstance(u, Student) and u.index < u.load.active),
        "burst": len(burst),
        "steady_p95": percentile([s.ms for s in steady], 95),
        "login_count": len(logins),
        "login_p50": percentile([s.ms for s in logins], 50),
        "login_p95": percentile([s.ms for s in logins], 95),
        "login_max": max((s.ms for s in logins), default=math.nan),
        "users_over": sum(1 for p in per_user if p > args.target_ms),
        "users_measured": len(per_user),
        "worst_user_p95": max(per_user, default=math.nan),
        "problems": problems_in([*everyone, *burst], t0, t1)[:10],
        "errors": stats["errors"] + sum(1 for s in logins if s.outcome == "error"),
    }
    return stats


def drive_bare(port: int, server_pid: int, args: argparse.Namespace, out: Any) -> None:
    """Saturate the bare app: clients without think time."""
    stop = threading.Event()
    clients = [Client(port, ACCEPT_ENCODING) for _ in range(BARE_CLIENTS)]
    samples: list[list[tuple[float, float, int]]] = [[] for _ in clients]

    def work(client: Client, into: list[tuple[float, float, int]]) -> None:
        while not stop.is_set():
            started = time.perf_counter()
            reply, ms = client.send("GET", "/")
            into.append((started, ms, reply.status))

    threads = [threading.Thread(target=work, args=(c, s)) for c, s in zip(clients, samples)]
    for t in threads:
        t.start()
    time.sleep(BARE_WARMUP)
    meter = Meter(server_pid)
    time.sleep(BARE_SECONDS)
    cpu = meter.read()
    stop.set()
    for t in threads:
        t.join()
    t0, t1 = meter.wall, meter.wall + cpu["wall"]
    inside = [
        (ms, status) for into in samples for started, ms, status in into if t0 <= started < t1
    ]
    times = [ms for ms, _ in inside]
    out.put(
        {
            "requests": len(times),
            "rps": len(times) / cpu["wall"],
            "p50": percentile(times, 50),
            "p95": percentile(times, 95),
            "errors": sum(1 for _, status in inside if status != 200),
        }
        | cpu
    )


# --- Running and reporting ------------------------------------------------------------------


def in_driver(target: Callable[..., None], args: tuple[Any, ...]) -> Iterator[dict[str, Any]]:
    """Run ``target(*args, queue)`` in a spawned process; yield what it puts on the queue until it
    ends (an exception when it dies without a word)."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    driver = context.Process(target=target, args=(*args, results), daemon=True)
    driver.start()
    try:
        while True:
            try:
                yield results.get(timeout=1)
            except queue.Empty:
                if not driver.is_alive():
                    try:  # its last words may have come with its end
                        yield results.get(timeout=1)
                        continue
                    except queue.Empty:
                        pass
                    if driver.exitcode:
                        raise SetupError(f"the driver died (exit code {driver.exitcode})") from None
                    return
    finally:
        driver.join(timeout=5)
        if driver.is_alive():
            driver.terminate()


def settings(args: argparse.Namespace) -> str:
    if args.threads:
        return f"{args.workers} gthread workers x {args.threads} threads"
    return f"{args.workers} sync workers"


def bench_bare(args: argparse.Namespace) -> dict[str, Any]:
    print(
        f"\n== bare Flask app ({settings(args)}, {BARE_CLIENTS} clients, no think) ==", flush=True
    )
    with tempfile.TemporaryDirectory(prefix="geoplunge-capacity-bare-") as tmpdir:
        tmp = Path(tmpdir)
        (tmp / "bare_capacity.py").write_text(BARE_APP)
        env = {**os.environ}
        port = free_port()
        server = start_gunicorn(
            env, port, args, tmp / "gunicorn.log", target="bare_capacity:app", chdir=tmp
        )
        try:
            results = list(in_driver(drive_bare, (port, server.pid, args)))
        finally:
            stop_gunicorn(server)
    if not results:
        raise SetupError("the bare driver gave no result")
    bare = results[0]
    bare["cpu_ms"] = bare["server_cpu"] * 1000 / max(1, bare["requests"])
    print(
        f"{bare['requests']} requests in {bare['wall']:.1f} s: {bare['rps']:.0f} req/s, "
        f"p50 {bare['p50']:.1f} ms, p95 {bare['p95']:.1f} ms, {bare['errors']} errors; "
        f"server {bare['cpu_ms']:.2f} CPU ms/request, {bare['server_cpu'] / bare['wall']:.2f} CPUs; "
        f"driver {bare['driver_cpu'] / bare['wall']:.2f}, other {bare['other_cpu'] / bare['wall']:.2f} CPUs",
        flush=True,
    )
    return bare


def slowest_text(endpoints: list[dict[str, Any]]) -> str:
    return "; ".join(f"{e['name']} {e['p95']:.0f}" for e in endpoints)


def bench(kind: str, args: argparse.Namespace, bare: dict[str, Any]) -> None:
    redis = args.redis if args.redis is not None else kind == "postgresql"
    print(
        f"\n== {kind}{' + Redis' if redis else ''} ({settings(args)}; think {args.think[0]:g}-"
        f"{args.think[1]:g} s; {args.teachers} teachers) ==",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="geoplunge-capacity-") as tmpdir:
        tmp = Path(tmpdir)
        env = {
            **os.environ,
            "DATABASE_URL": fresh_database(kind, tmp, PG_NAME),
            "SECRET_KEY": secrets.token_hex(32),
            "GEOPLUNGE_INSTANCE_PATH": str(tmp / "instance"),
        }
        env.pop("REDIS_URL", None)
        if redis:
            env["REDIS_URL"] = REDIS_URL
        os.environ.pop("REDIS_URL", None)
        os.environ.update(env)  # make_accounts builds the app from the environment
        server = None
        log = tmp / "gunicorn.log"
        try:
            migrate(env)
            started = time.perf_counter()
            accounts = make_accounts(max(*args.steps, args.burst_at), args.burst, args.teachers)
            print(
                f"setup: {len(accounts['students'])} students (cheap hash), {len(accounts['burst'])}"
                f" for the burst (scrypt), {args.teachers} teachers, "
                f"{sum(len(c) for _, c in accounts['teachers'])} classes in "
                f"{time.perf_counter() - started:.1f} s",
                flush=True,
            )
            port = free_port()
            server = start_gunicorn(env, port, args, log)
            report(in_driver(drive, (port, server.pid, accounts, args)), kind, args, bare)
            print("\n" + tally_database())
        finally:
            if server is not None:
                stop_gunicorn(server)
            drop_database(kind, PG_NAME)
            text = log.read_text() if log.exists() else ""
            if "Traceback" in text:
                print("gunicorn's log has tracebacks (the end):\n" + text[-3000:])


def report(
    messages: Iterator[dict[str, Any]], kind: str, args: argparse.Namespace, bare: dict[str, Any]
) -> None:
    steps: list[dict[str, Any]] = []
    burst: dict[str, Any] | None = None
    knee = 0
    for message in messages:
        what = message["kind"]
        if what == "failed":
            raise SetupError(f"the driver failed: {message['error']}")
        if what == "signed_in":
            print(
                f"signed in: {message['users']} students and teachers in {message['seconds']:.1f} s"
                + (f"; FAILED: {message['failures'][:5]}" if message["failures"] else ""),
                flush=True,
            )
            if message["failures"]:
                raise SetupError("signing in failed")
            print(
                "\n| students | req/s | p50 ms | p95 ms | p99 ms | slowest endpoints (p95 ms) "
                "| errors | 4xx | server CPUs | server CPU ms/req | driver CPUs | other CPUs |\n"
                "|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|",
                flush=True,
            )
        elif what == "step":
            s = message["stats"]
            steps.append(s)
            wall = s["wall"]
            print(
                f"| {s['students']} | {s['rps']:.1f} | {s['p50']:.0f} | {s['p95']:.0f} | "
                f"{s['p99']:.0f} | {slowest_text(s['slowest'])} | {s['errors']} | {s['refused']} | "
                f"{s['server_cpu'] / wall:.2f} | {s['server_cpu'] * 1000 / max(1, s['requests']):.1f}"
                f" | {s['driver_cpu'] / wall:.2f} | {s['other_cpu'] / wall:.2f} |",
                flush=True,
            )
        elif what == "burst":
            burst = message["stats"]
        elif what == "done":
            knee = message["knee"]
    print()
    for s in steps:
        if s["problems"]:
            print(f"problems at {s['students']} students (first ones):")
            for p in s["problems"]:
                print(f"  {p}")
    goal = {"sqlite": 400, "postgresql": 300}
    at = next((s for s in steps if s["students"] == knee), None)
    if at is None:
        print(f"knee: none (the first step already passed p95 {args.target_ms:g} ms or had errors)")
        if steps:
            endpoint_table(f"slowest endpoints at {steps[0]['students']} students", steps[0])
        return
    print(
        f"knee: {knee} active students (the largest step at p95 <= {args.target_ms:g} ms with no "
        f"error; p95 {at['p95']:.0f} ms)"
        + (
            f"; the next step, {steps[-1]['students']}, p95 {steps[-1]['p95']:.0f} ms, "
            f"{steps[-1]['errors']} errors"
            if steps[-1] is not at
            else "; the last step given"
        )
    )
    print(
        f"goal ({goal[kind]} students): {'met' if knee >= goal[kind] else 'not shown by these steps'}"
    )
    app_cpu_ms = at["server_cpu"] * 1000 / max(1, at["requests"])
    print(
        f"ratio: {at['rps']:.1f} req/s at the knee / {bare['rps']:.0f} req/s of the bare app "
        f"saturated = {at['rps'] / bare['rps']:.3f}; server CPU per request {app_cpu_ms:.1f} ms "
        f"against the bare app's {bare['cpu_ms']:.2f} ms ({app_cpu_ms / bare['cpu_ms']:.0f}x)"
    )
    endpoint_table(f"slowest endpoints at the knee ({knee} students)", at)
    if burst is not None:
        b = burst
        print(
            f"\nsign-in burst: {b['burst']} students signing in (scrypt) within "
            f"{args.burst_seconds:g} s while {b['students']} study: {b['requests']} pages, "
            f"p50 {b['p50']:.0f} / p95 {b['p95']:.0f} / p99 {b['p99']:.0f} ms (the studying "
            f"students' own p95 {b['steady_p95']:.0f} ms); sign-in POSTs {b['login_count']}: "
            f"p50 {b['login_p50']:.0f} / p95 {b['login_p95']:.0f} / max {b['login_max']:.0f} ms; "
            f"users whose own p95 > {args.target_ms:g} ms: {b['users_over']} of "
            f"{b['users_measured']} (worst {b['worst_user_p95']:.0f} ms); errors {b['errors']}, "
            f"4xx {b['refused']}; server {b['server_cpu'] / b['wall']:.2f} CPUs, driver "
            f"{b['driver_cpu'] / b['wall']:.2f}, other {b['other_cpu'] / b['wall']:.2f}"
        )
        print(f"  slowest: {slowest_text(b['slowest'])}")
        for p in b["problems"]:
            print(f"  {p}")
    elif args.burst:
        print("\nsign-in burst: not run (no knee; --burst-at N runs it at N students)")


def endpoint_table(title: str, step: dict[str, Any], rows: int = 12) -> None:
    print(f"\n{title}, {step['wall']:.0f} s:\n")
    print("| endpoint | requests | p50 ms | p95 ms | max ms |\n|---|---:|---:|---:|---:|")
    for e in step["endpoints"][:rows]:
        print(f"| {e['name']} | {e['count']} | {e['p50']:.0f} | {e['p95']:.0f} | {e['max']:.0f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="sqlite")
    parser.add_argument(
        "--steps",
        type=lambda text: sorted({int(n) for n in text.split(",")}),
        default=[100, 200, 300, 400, 500, 600, 700, 800],
        help="active students at each step (default 100,200,...,800)",
    )
    parser.add_argument("--seconds", type=float, default=60, help="measured seconds a step (60)")
    parser.add_argument(
        "--ramp", type=float, default=10, help="seconds to start a step's new students (10)"
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=20,
        help="seconds the first step runs before it is measured, after its ramp (20)",
    )
    parser.add_argument(
        "--think",
        type=lambda text: tuple(float(x) for x in text.split("-")),
        default=(3.0, 8.0),
        help="a student's think time before each page, LOW-HIGH seconds (3-8)",
    )
    parser.add_argument("--target-ms", type=float, default=250, help="the p95 goal (250)")
    parser.add_argument("--teachers", type=int, default=2, help="virtual teachers (2)")
    parser.add_argument(
        "--burst", type=int, default=30, help="students in the sign-in burst (30; 0: none)"
    )
    parser.add_argument("--burst-seconds", type=float, default=60, help="the burst's minute (60)")
    parser.add_argument(
        "--burst-at",
        type=int,
        default=0,
        help="students studying during the burst (default: the knee; e.g. the goal's 400)",
    )
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (2)")
    parser.add_argument(
        "--threads", type=int, default=0, help="gunicorn's gthread workers with N threads (0: sync)"
    )
    parser.add_argument(
        "--redis",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=f"set REDIS_URL={REDIS_URL} (default: with PostgreSQL only)",
    )
    parser.add_argument(
        "--plain-forms",
        action="store_true",
        help="study as a browser without JavaScript (answers by 302, whole pages)",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if len(args.think) != 2 or not 0 <= args.think[0] <= args.think[1]:
        parser.error("--think takes LOW-HIGH seconds, e.g. 3-8")
    if not args.steps or args.steps[0] < 1:
        parser.error("--steps takes positive numbers of students")
    print(
        f"steps {','.join(map(str, args.steps))} students, {args.seconds:g} s each after a "
        f"{args.ramp:g} s ramp (the first after {args.warmup:g} s more); target p95 "
        f"{args.target_ms:g} ms; gunicorn {settings(args)}\n"
        f"{os.cpu_count()} CPUs shared by server and driver; load average "
        + " ".join(f"{x:.2f}" for x in os.getloadavg()),
        flush=True,
    )
    kinds = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    try:
        bare = bench_bare(args)
        for kind in kinds:
            bench(kind, args, bare)
    except SetupError as problem:
        print(f"SETUP ERROR: {problem}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
