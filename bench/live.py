"""Benchmark: live tables under load (issue 22): moves and their notices, against a bare round trip.

A fresh database (SQLite in a temp file, or the PostgreSQL database named by ``--database-url``,
dropped and created afresh) is migrated with ``flask db upgrade`` and given one class of
``tables x seats`` students, made directly in the database with a cheap password hash
(pbkdf2 with one round, as the tests' ``make_user`` does: the app's scrypt would make the logins
the bench, not the tables). gunicorn serves the app as README's production command does
(``--worker-class gthread``, 2 workers of 32 threads by default) with ``REDIS_URL`` set, so the
workers pass the tables' notices on to each other through Redis, on a Socket.IO channel of the
run's own (the config key ``SOCKETIO_CHANNEL``, set through gunicorn's ``create_app({...})``
call: there is no environment variable for it, and Redis pub/sub channels are shared by every
Redis database number, so a database number of its own would not keep the run apart).

A second process drives the students, one thread per table: each student logs in over HTTP, the
host opens a GeoPlunge 51 table and the others join it with its code; each student connects a
python-socketio client (WebSocket only) with its session cookie and watches the table. Then:

1. Baseline, "watch": every client calls the existing ``watch`` event a few times (client ->
   server -> ack, on the same connections, all tables at once). The app has no event that the
   server only re-broadcasts, and ``watch`` is the nearest to one: a signed-in socket event with
   one database read and no write, answered on the same connection.
2. Baseline, "broadcast": the driver publishes an empty ``bench`` message to each table's room
   through Redis on the app's channel (python-socketio's write-only ``RedisManager``, the way an
   outside process emits to Flask-SocketIO), and times it until every seat of the table has it:
   the fan-out path of a notice (Redis, each worker, each WebSocket) without the app's work.
3. The games: the host starts; every table plays random legal moves to the end as browsers would.
   The student whose page says "Your turn." POSTs one of its enabled move buttons
   (``name="action" value="N"``, with the form's ``ply``); after the notice reached every other
   seat, every seat fetches its page again (live.js does that on a notice; the mover's browser
   follows the POST's redirect), and the page that says "Your turn." makes the next move.
   Measured per move: from the POST being sent to the ``changed`` notice with the new version
   arriving at EVERY other seat of the table; and moves per second over all tables.

After the run the database is checked: every table's actions replay legally from its seed, every
table is over, and its stored actions equal the POSTs that were kept (a 302 to the table with
``since=``): fewer is a lost move, more a duplicated one (expected 0 and 0). gunicorn's log and
access log are searched for tracebacks, worker timeouts and 5xx answers.

``--kill-after SECONDS`` sends SIGKILL to one gunicorn worker that long into the games; gunicorn
starts a new one, the clients' sockets reconnect (python-socketio does it by itself) and watch
again, and a table whose notice was lost goes on after ``--notice-timeout`` by reading its pages
(as live.js polls the version while its socket is down); a POST whose answer was lost with the
worker is sent again from the page as it is then.

Each open WebSocket holds a thread of its gthread worker (README), and a worker takes whatever
connections come to it: with 2 workers of 32 threads, 120 sockets leave some requests waiting
for a thread that never frees, and tables stop. ``--threads 80`` lets both workers play; with a
worker killed, the reconnecting sockets pile onto the one left, which then needs a thread for
every socket (``--threads 160`` here for 120).

``--think SECONDS`` makes each table wait between its moves, as children do (a move every
``SECONDS`` on average: 0.5 to 1.5 times it, drawn from the run's seed), so the server is measured
at a load it is not saturated by; without it (0, the default) every table moves again as soon as
its pages are read, which measures how many moves a second the server can take and what a move
waits for at that saturation. After a move the mover's browser follows the POST's redirect (the
whole page) and every other seat fetches what live.js fetches after a notice: the page's live
part (``?part=live``; a checkout without it answers with the whole page, as its own live.js asks).

``--repo PATH`` (once or more) serves each checkout in turn from the same driver, database setup
and seeds, so a change is measured against the code before it in one run (PATH's own ``trainer``
package and migrations; the driver, the class and the checks are this checkout's).

``--long-poll K`` makes the last K students of each table hear of changes as a page behind a
proxy that refuses WebSockets does (live.js then): no Socket.IO client, but one ask after another
of the table's version, each held by the server until the table changes (``?after=N&wait=1``);
their arrivals count in "notice at every other seat" like the sockets'. The baselines are the
socket students' only.

Goal (the issue): p95 from a move's POST to every other seat under 250 ms on this 2-CPU machine,
0 lost and 0 duplicated moves, also with a worker killed mid-run. Server and driver share the
CPUs, so the figures are relative.

Run it from the project root (Redis on 127.0.0.1:6379)::

    .venv/bin/python bench/live.py --tables 4
    .venv/bin/python bench/live.py                            # 30 tables of 4, SQLite
    .venv/bin/python bench/live.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/NAME
    .venv/bin/python bench/live.py --threads 80
    .venv/bin/python bench/live.py --threads 160 --kill-after 30 --notice-timeout 3
    .venv/bin/python bench/live.py --threads 80 --think 1 --repo /tmp/before --repo .
    .venv/bin/python bench/live.py --threads 80 --think 1 --long-poll 2

Exit status: non-zero on an error (a lost or duplicated move, a table not finished, a failed
request), not on a missed goal.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import queue
import random
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.review import (  # noqa: E402 - the project root is on the path only now
    CSRF,
    Client,
    free_port,
    migrate,
    percentile,
    server_cpu_seconds,
    stop_gunicorn,
)

PASSWORD = "bench horse battery"
GAME = "geoplunge-51"
REDIS = "redis://127.0.0.1:6379"
ACTION = re.compile(r'<button type="submit" name="action" value="(\d+)"')
PLY = re.compile(r'name="ply" value="(\d+)"')
VERSION = re.compile(r'data-live-version="(\d+)"')
STATUS = re.compile(r'data-live-status="(\w+)"')
START_VERSION = re.compile(r'name="version" value="(\d+)"')
YOUR_TURN = "<strong>Your turn.</strong>"


# --- The database ---------------------------------------------------------------------------


def fresh_database(url: str | None, tmp: Path) -> str:
    """SQLite in ``tmp``, or the PostgreSQL database of ``url`` dropped and created afresh."""
    if url is None:
        return f"sqlite:///{tmp / 'bench.db'}"
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    server = url.replace("postgresql+psycopg://", "postgresql://").rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return url


def make_class(students: int) -> list[str]:
    """A teacher and one class of ``students`` students; their usernames."""
    from werkzeug.security import generate_password_hash

    from trainer.web import create_app
    from trainer.web.extensions import db
    from trainer.web.models import ClassMembership, Role, SchoolClass, User

    cheap = generate_password_hash(PASSWORD, method="pbkdf2:sha256:1")
    app = create_app()
    names = [f"live{n:03d}" for n in range(students)]
    with app.app_context():
        teacher = User(username="ms.bench", username_key="ms.bench", role=Role.TEACHER)
        teacher.password_hash = cheap
        db.session.add(teacher)
        db.session.flush()
        school_class = SchoolClass(teacher_id=teacher.id, name="Bench", join_code="BENCHLIV")
        db.session.add(school_class)
        db.session.flush()
        for name in names:
            user = User(username=name, username_key=name, role=Role.STUDENT)
            user.password_hash = cheap
            db.session.add(user)
            db.session.flush()
            db.session.add(ClassMembership(class_id=school_class.id, student_id=user.id))
        db.session.commit()
        db.session.remove()
        db.engine.dispose()
    return names


def check_tables(kept: dict[str, int]) -> list[dict[str, Any]]:
    """Each table as stored: replayed from its seed, with its actions counted per seat."""
    from sqlalchemy import select

    from trainer.games import IllegalAction, Params, make_game
    from trainer.web import create_app
    from trainer.web.extensions import db
    from trainer.web.models import LiveTable

    app = create_app()
    rows = []
    with app.app_context():
        deck = app.extensions["deck"]
        for table in db.session.execute(select(LiveTable)).scalars():
            row: dict[str, Any] = {
                "code": table.code,
                "status": table.status,
                "ply": table.ply,
                "version": table.version,
                "kept": kept.get(table.code, 0),
                "replays": True,
                "terminal": False,
            }
            if table.seed is not None:
                game = make_game(table.game, deck, Params(table.players, table.team_size))
                state = game.new_initial_state(table.seed)
                try:
                    for action in table.actions:
                        state.apply_action(action)
                except IllegalAction:
                    row["replays"] = False
                row["terminal"] = state.is_terminal()
                row["stored"] = len(table.actions)
            rows.append(row)
        db.session.remove()
        db.engine.dispose()
    return rows


def table_ids() -> dict[str, int]:
    from sqlalchemy import select

    from trainer.web import create_app
    from trainer.web.extensions import db
    from trainer.web.models import LiveTable

    app = create_app()
    with app.app_context():
        ids = dict(db.session.execute(select(LiveTable.code, LiveTable.id)).all())
        db.session.remove()
        db.engine.dispose()
    return {str(code): int(id_) for code, id_ in ids.items()}


# --- The server -----------------------------------------------------------------------------


def start_gunicorn(
    env: dict[str, str], port: int, args: argparse.Namespace, channel: str, tmp: Path
) -> subprocess.Popen:
    import http.client

    app = f"trainer.web:create_app({{'SOCKETIO_CHANNEL': {channel!r}}})"
    cmd = [
        sys.executable,
        "-m",
        "gunicorn",
        "--chdir",
        str(args.served),
        "--workers",
        str(args.workers),
        "--worker-class",
        "gthread",
        "--threads",
        str(args.threads),
        "--timeout",
        "60",
        "--access-logfile",
        str(tmp / "access.log"),
        "-b",
        f"127.0.0.1:{port}",
        app,
    ]
    log = tmp / "gunicorn.log"
    server = subprocess.Popen(
        cmd,
        cwd=args.served,
        # The served checkout's own package first (this one is installed in the environment).
        env={**env, "PYTHONPATH": str(args.served)},
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
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


def worker_pids(master: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{master}/task/{master}/children").read_text().split()]


# --- The driver (a second process) ----------------------------------------------------------


class Seat:
    """One student's browser: an HTTP client with its cookies and a Socket.IO client."""

    def __init__(self, username: str, port: int, table: Table, long_polls: bool = False) -> None:
        self.username = username
        #: Without a socket: hears of changes by held asks of the table's version (long-polling).
        self.long_polls = long_polls
        self.http = Client(port)
        self.http.conn.timeout = 30
        self.table = table
        self.heard: dict[int, float] = {}  # version -> when its notice first came
        self.pings: list[float] = []  # arrivals of the bench's empty broadcasts
        self.page = ""
        self.sio: Any = None
        self.reconnects = 0
        self.drops = 0

    def get(self, path: str) -> str:
        status, body, _ = self.http.send("GET", path)
        if status == 0:
            # No answer (a killed worker's connection, a timeout): read again later.
            self.table.dropped += 1
            return ""
        if status != 200:
            self.table.failures.append(f"GET {path} as {self.username}: {status}")
        return body

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str]:
        status, _, location = self.http.send("POST", path, fields)
        return status, location

    def login(self) -> None:
        page = self.get("/auth/login")
        status, _ = self.post(
            "/auth/login",
            {"username": self.username, "password": PASSWORD, "csrf_token": csrf(page)},
        )
        if status != 302:
            raise RuntimeError(f"login of {self.username} answered {status}")

    def connect(self, port: int, code: str) -> None:
        if self.long_polls:
            self.long_poll(port, code)
            return
        import socketio  # type: ignore[import-untyped]

        sio = socketio.Client(reconnection=True, reconnection_delay=0.5)
        self.sio = sio
        table = self.table

        @sio.on("changed")
        def changed(message: dict[str, Any]) -> None:
            now = time.perf_counter()
            with table.cond:
                self.heard.setdefault(int(message["version"]), now)
                table.cond.notify_all()

        @sio.on("bench")
        def bench(message: Any = None) -> None:
            now = time.perf_counter()
            with table.cond:
                self.pings.append(now)
                table.cond.notify_all()

        @sio.on("disconnect")
        def disconnected(reason: Any = None) -> None:
            if table.watching:  # not the driver's own disconnect at the end
                self.drops += 1

        @sio.on("connect")
        def connected() -> None:
            # (``sio.connected`` becomes True only after this handler: not a test to use here.)
            if table.watching:
                # A new connection after a lost one is in no room: watch again (as live.js does).
                self.reconnects += 1
                threading.Thread(target=self.watch, args=(code,), daemon=True).start()

        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        sio.connect(
            f"http://127.0.0.1:{port}",
            headers={"Cookie": cookie},
            transports=["websocket"],
            wait_timeout=30,
        )

    def long_poll(self, port: int, code: str) -> None:
        """Ask the table's version again and again on a connection of its own, each ask held by
        the server until the version passes the one heard (as live.js does without a socket)."""
        asker = Client(port)
        asker.cookies = dict(self.http.cookies)
        table = self.table
        path = f"/play/live/{code}/version"
        status, body, _ = asker.send("GET", path)
        if status != 200:
            raise RuntimeError(f"{self.username} could not ask {code}'s version: {status}")
        after = int(json.loads(body)["version"])

        def run() -> None:
            nonlocal after
            while True:
                status, body, _ = asker.send("GET", f"{path}?after={after}&wait=1")
                now = time.perf_counter()
                if status != 200:  # a killed worker's ask: live.js asks again 3 s later
                    if table.watching:
                        self.drops += 1
                    time.sleep(3)
                    continue
                version = int(json.loads(body)["version"])
                with table.cond:
                    for heard in range(after + 1, version + 1):
                        self.heard.setdefault(heard, now)
                    table.cond.notify_all()
                after = max(after, version)

        threading.Thread(target=run, name=f"long-poll {self.username}", daemon=True).start()

    def watch(self, code: str) -> float:
        """The round trip of one ``watch`` call, in ms (nan when it failed)."""
        started = time.perf_counter()
        try:
            reply = self.sio.call("watch", {"code": code}, timeout=30)
        except Exception as exc:  # noqa: BLE001 - counted, the run goes on
            self.table.failures.append(f"watch as {self.username}: {exc!r}")
            return math.nan
        if not reply or not reply.get("ok"):
            self.table.failures.append(f"watch as {self.username} refused: {reply}")
            return math.nan
        return (time.perf_counter() - started) * 1000


class Table:
    """One table of students, driven by one thread."""

    def __init__(self, names: list[str], port: int, args: argparse.Namespace, seed: int) -> None:
        self.port = port
        self.args = args
        self.rng = random.Random(seed)
        self.cond = threading.Condition()
        self.failures: list[str] = []
        polling = len(names) - args.long_poll
        self.seats = [Seat(name, port, self, n >= polling) for n, name in enumerate(names)]
        #: The seats with a socket (the baselines are theirs).
        self.sockets = [seat for seat in self.seats if not seat.long_polls]
        self.code = ""
        self.watching = False
        self.watch_ms: list[float] = []
        self.broadcast_ms: list[float] = []
        self.move_ms: list[float] = []  # POST sent -> notice at every other seat
        self.post_ms: list[float] = []  # POST sent -> its answer
        self.kept = 0
        self.refused = 0
        self.resent = 0
        self.missed_notices = 0
        self.dropped = 0  # GETs without an answer
        self.ply = 0  # the ply of the last move sent
        self.over = False
        self.id = 0

    # -- setting up

    def open(self) -> None:
        host = self.seats[0]
        for seat in self.seats:
            seat.login()
        page = host.get("/play/live/")
        fields = {"csrf_token": csrf(page), "game": GAME, "level": "easy", "team_size": "1"}
        status, location = host.post("/play/live/", {**fields, "players": str(len(self.seats))})
        if status != 302:
            raise RuntimeError(f"opening a table answered {status}")
        self.code = location.split("?")[0].rstrip("/").rsplit("/", 1)[1]
        for seat in self.seats[1:]:
            page = seat.get("/play/live/")
            status, _ = seat.post("/play/live/join", {"csrf_token": csrf(page), "code": self.code})
            if status != 302:
                raise RuntimeError(f"{seat.username} joining {self.code} answered {status}")
        for seat in self.seats:
            seat.connect(self.port, self.code)
            if not seat.long_polls and math.isnan(seat.watch(self.code)):
                raise RuntimeError(f"{seat.username} could not watch {self.code}")
        self.watching = True

    def baseline_watch(self) -> None:
        for _ in range(self.args.rounds):
            for seat in self.sockets:
                self.watch_ms.append(seat.watch(self.code))

    def baseline_broadcast(self, manager: Any) -> None:
        for _ in range(self.args.rounds):
            with self.cond:
                before = [len(seat.pings) for seat in self.sockets]
            started = time.perf_counter()
            manager.emit("bench", {}, namespace="/", room=f"live:{self.id}")
            arrived = self.wait(
                lambda before=before: [
                    seat.pings[n] if len(seat.pings) > n else None
                    for seat, n in zip(self.sockets, before)
                ]
            )
            if arrived is None:
                self.failures.append(f"{self.code}: a broadcast did not reach every seat")
            else:
                self.broadcast_ms.append((max(arrived) - started) * 1000)

    def wait(self, arrivals: Any) -> list[float] | None:
        """Wait until ``arrivals()`` (under the lock) has no None; None after the timeout."""
        deadline = time.monotonic() + self.args.notice_timeout
        with self.cond:
            while True:
                got = arrivals()
                if None not in got:
                    return got
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)

    # -- playing

    def start(self) -> None:
        host = self.seats[0]
        page = host.get(f"/play/live/{self.code}")
        version = int(START_VERSION.search(page).group(1))  # type: ignore[union-attr]
        status, _ = host.post(
            f"/play/live/{self.code}/start", {"csrf_token": csrf(page), "version": str(version)}
        )
        if status != 302:
            raise RuntimeError(f"starting {self.code} answered {status}")
        if self.wait(lambda: [s.heard.get(version + 1) for s in self.seats]) is None:
            self.missed_notices += 1
        self.read_pages()

    def read_pages(self, mover: Seat | None = None, location: str = "") -> None:
        """Each seat's page as its browser has it after a change: the mover's browser follows the
        POST's redirect (``location``, the whole page), every other page fetches its live part as
        live.js does after a notice."""
        for seat in self.seats:
            if seat is mover and location:
                seat.page = seat.get(urlsplit(location)._replace(scheme="", netloc="").geturl())
            elif mover is not None:
                seat.page = seat.get(f"/play/live/{self.code}?since={self.ply}&part=live")
            else:
                seat.page = seat.get(f"/play/live/{self.code}")

    def play(self, deadline: float) -> None:
        stuck = 0
        while time.monotonic() < deadline:
            if any(status_of(seat.page) == "over" for seat in self.seats):
                self.over = True
                return
            movers = [seat for seat in self.seats if YOUR_TURN in seat.page]
            actions = ACTION.findall(movers[0].page) if movers else []
            if len(movers) != 1 or not actions:
                stuck += 1
                if stuck > 20:
                    self.failures.append(f"{self.code}: no one can move (pages read 20 times)")
                    return
                time.sleep(0.5)
                self.read_pages()
                continue
            stuck = 0
            if self.args.think:
                time.sleep(self.args.think * self.rng.uniform(0.5, 1.5))
            self.move(movers[0], int(self.rng.choice(actions)))
        self.failures.append(f"{self.code}: not over by the deadline")

    def move(self, mover: Seat, action: int) -> None:
        page = mover.page
        version = int(VERSION.search(page).group(1))  # type: ignore[union-attr]
        ply = PLY.search(page).group(1)  # type: ignore[union-attr]
        self.ply = int(ply)
        fields = {"csrf_token": csrf(page), "ply": ply, "action": str(action)}
        started = time.perf_counter()
        status, location = mover.post(f"/play/live/{self.code}/move", fields)
        self.post_ms.append((time.perf_counter() - started) * 1000)
        if status == 302 and "since=" in location:
            self.kept += 1
            others = [seat for seat in self.seats if seat is not mover]
            arrived = self.wait(lambda: [seat.heard.get(version + 1) for seat in others])
            if arrived is None:
                self.missed_notices += 1
            else:
                self.move_ms.append((max(arrived) - started) * 1000)
        elif status == 0:
            # The answer was lost (a worker killed mid-request): the page as it is now tells
            # whether the move was kept; if not, the next loop sends one again.
            self.resent += 1
        else:
            self.refused += 1
            self.failures.append(f"{self.code}: move refused ({status} -> {location})")
        kept = status == 302 and "since=" in location
        self.read_pages(mover, location if kept else "")


def csrf(page: str) -> str:
    found = CSRF.search(page)
    if found is None:
        raise RuntimeError("no CSRF token on the page")
    return found.group(1)


def status_of(page: str) -> str:
    found = STATUS.search(page)
    return found.group(1) if found else ""


def drive(
    port: int, names: list[str], args: argparse.Namespace, channel: str, results: Any
) -> None:
    """The clients: one thread per table through the phases, the phases timed together."""
    import socketio

    seats = args.seats
    tables = [
        Table(names[t * seats : (t + 1) * seats], port, args, seed=args.seed * 1000 + t)
        for t in range(args.tables)
    ]
    marks: dict[str, float] = {}
    barrier = threading.Barrier(len(tables) + 1, timeout=600)
    manager = socketio.RedisManager(args.redis_url, channel=channel, write_only=True)

    def phase(name: str) -> None:
        barrier.wait()
        marks[name] = time.perf_counter()

    def run(table: Table) -> None:
        steps = [
            table.open,
            table.baseline_watch,
            lambda: table.baseline_broadcast(manager),
            table.start,
            lambda: table.play(time.monotonic() + args.deadline),
        ]
        broken = False
        for n, step in enumerate(steps):
            if n == 2:
                barrier.wait()  # the main thread reads the tables' ids meanwhile
            barrier.wait()
            if broken:
                continue
            try:
                step()
            except Exception as exc:  # noqa: BLE001 - reported; the barriers let the others go on
                table.failures.append(f"{table.code or 'a table'}: {exc!r}")
                broken = n == 0 or n == 3
        barrier.wait()

    threads = [threading.Thread(target=run, args=(t,), daemon=True) for t in tables]
    for thread in threads:
        thread.start()
    for name in ("open", "watch", "ids"):
        phase(name)
    ids = table_ids()
    for table in tables:
        table.id = ids.get(table.code, 0)
    for name in ("broadcast", "start", "play", "end"):
        phase(name)
        if name == "play":
            results.put({"kind": "playing"})  # the main process may kill a worker from now on
    for thread in threads:
        thread.join(timeout=5)
    for table in tables:
        table.watching = False
        for seat in table.seats:
            if seat.sio is not None:
                seat.sio.disconnect()
    results.put(
        {
            "kind": "done",
            "marks": marks,
            "tables": [
                {
                    "code": t.code,
                    "watch_ms": t.watch_ms,
                    "broadcast_ms": t.broadcast_ms,
                    "move_ms": t.move_ms,
                    "post_ms": t.post_ms,
                    "kept": t.kept,
                    "refused": t.refused,
                    "resent": t.resent,
                    "missed_notices": t.missed_notices,
                    "dropped": t.dropped,
                    "reconnects": sum(s.reconnects for s in t.seats),
                    "drops": sum(s.drops for s in t.seats),
                    "over": t.over,
                    "failures": t.failures,
                }
                for t in tables
            ],
        }
    )


# --- Running and reporting ------------------------------------------------------------------


def bench(args: argparse.Namespace) -> bool:
    channel = f"bench-live-{secrets.token_hex(6)}"
    with tempfile.TemporaryDirectory(prefix="geoplunge-bench-live-") as tmpdir:
        tmp = Path(tmpdir)
        env = {
            **os.environ,
            "DATABASE_URL": fresh_database(args.database_url, tmp),
            "SECRET_KEY": secrets.token_hex(32),
            "REDIS_URL": args.redis_url,
        }
        os.environ.update(env)  # make_class and check_tables build the app from the environment
        server = None
        killed: list[str] = []
        try:
            migrate(env)
            names = make_class(args.tables * args.seats)
            port = free_port()
            server = start_gunicorn(env, port, args, channel, tmp)
            cpu0 = server_cpu_seconds(server.pid)
            context = multiprocessing.get_context("spawn")
            results = context.Queue()
            driver = context.Process(
                target=drive, args=(port, names, args, channel, results), daemon=True
            )
            driver.start()
            kill_at = math.inf
            while True:  # the driver may die (then nothing ever comes)
                try:
                    result = results.get(timeout=0.5)
                except queue.Empty:
                    if not driver.is_alive():
                        sys.exit(f"the driver process died (exit code {driver.exitcode})")
                    if time.monotonic() >= kill_at:
                        kill_at = math.inf
                        victim = worker_pids(server.pid)[0]
                        os.kill(victim, signal.SIGKILL)
                        killed.append(f"worker {victim} killed (SIGKILL)")
                    continue
                if result["kind"] == "playing" and args.kill_after:
                    kill_at = time.monotonic() + args.kill_after
                if result["kind"] == "done":
                    break
            driver.join()
            cpu = server_cpu_seconds(server.pid) - cpu0
        finally:
            if server is not None:
                stop_gunicorn(server)
        kept = {t["code"]: t["kept"] for t in result["tables"]}
        stored = check_tables(kept)
        log = (tmp / "gunicorn.log").read_text()
        access = (tmp / "access.log").read_text() if (tmp / "access.log").exists() else ""
    return report(args, result, stored, log, access, killed, cpu)


def summary(name: str, values: list[float]) -> str:
    values = [v for v in values if not math.isnan(v)]
    return (
        f"| {name} | {len(values)} | {percentile(values, 50):.1f} | {percentile(values, 95):.1f}"
        f" | {percentile(values, 99):.1f} | {max(values, default=math.nan):.1f} |"
    )


def report(
    args: argparse.Namespace,
    result: dict[str, Any],
    stored: list[dict[str, Any]],
    log: str,
    access: str,
    killed: list[str],
    server_cpu: float,
) -> bool:
    marks, tables = result["marks"], result["tables"]
    every = {
        key: [v for t in tables for v in t[key]]
        for key in ("watch_ms", "broadcast_ms", "move_ms", "post_ms")
    }
    print("\n| measured | n | p50 ms | p95 ms | p99 ms | max ms |")
    print("|---|---:|---:|---:|---:|---:|")
    print(summary("baseline: `watch` round trip (client -> server -> ack)", every["watch_ms"]))
    print(summary("baseline: empty broadcast via Redis -> every seat", every["broadcast_ms"]))
    print(summary("move: POST sent -> its 302", every["post_ms"]))
    print(summary("**move: POST sent -> notice at every other seat**", every["move_ms"]))
    kept = sum(t["kept"] for t in tables)
    wall = marks["end"] - marks["start"]
    print(
        f"\nmoves kept: {kept} in {wall:.1f} s of games (start to last table over): "
        f"**{kept / wall:.1f} moves/s**; server CPU {server_cpu:.1f} s over the whole run"
    )
    p95 = percentile(every["move_ms"], 95)
    print(f"goal p95 < 250 ms: {'met' if p95 < 250 else 'MISSED'} ({p95:.1f} ms)")
    errors = [f for t in tables for f in t["failures"]]
    lost = duplicated = 0
    resent_by = {t["code"]: t["resent"] for t in tables}
    for row in stored:
        # A POST whose answer never came (a client timeout, a killed worker) may have been kept:
        # it is neither lost nor duplicated either way.
        stored_n, unanswered = row.get("stored", 0), resent_by.get(row["code"], 0)
        lost += max(0, row["kept"] - stored_n)
        duplicated += max(0, stored_n - row["kept"] - unanswered)
        if row["status"] != "over" or not row["terminal"]:
            errors.append(f"table {row['code']}: {row['status']}, ply {row['ply']}, not over")
        if not row["replays"]:
            errors.append(f"table {row['code']}: its actions do not replay")
    over = sum(1 for row in stored if row["status"] == "over" and row["terminal"])
    print(
        f"check (database): {len(stored)} tables, {over} over, all replay legally: "
        f"{all(r['replays'] for r in stored)}; {sum(r.get('stored', 0) for r in stored)} stored "
        f"actions for {kept} kept POSTs (+{sum(resent_by.values())} without an answer): "
        f"**lost {lost}, duplicated {duplicated}**"
    )
    refused = sum(t["refused"] for t in tables)
    resent = sum(t["resent"] for t in tables)
    missed = sum(t["missed_notices"] for t in tables)
    reconnects = sum(t["reconnects"] for t in tables)
    dropped = sum(t["dropped"] for t in tables)
    print(
        f"refused moves: {refused}; POSTs without an answer: {resent}; GETs without one: "
        f"{dropped}; notices not heard within {args.notice_timeout:g} s: {missed}; "
        f"sockets dropped: {sum(t['drops'] for t in tables)}, reconnected and watching again: "
        f"{reconnects}"
    )
    statuses = re.findall(r'" (\d{3}) ', access)
    fives = sum(1 for s in statuses if s.startswith("5"))
    print(
        f"server: {len(statuses)} requests in the access log, {fives} 5xx; gunicorn log: "
        f"{log.count('Traceback')} tracebacks, {log.count('WORKER TIMEOUT')} worker timeouts"
        + (f"; {'; '.join(killed)}" if killed else "")
    )
    if "Traceback" in log:
        first = log.index("Traceback")
        print(
            "gunicorn log, the first traceback (not counted as a failure: see whether it is):\n"
            + "\n".join(log[first:].splitlines()[:16])
        )
    if lost or duplicated:
        errors.append(f"{lost} lost and {duplicated} duplicated moves")
    if fives:
        errors.append(f"{fives} answers 5xx")
    if errors:
        print(f"FAILED: {len(errors)} errors, first ones:\n  " + "\n  ".join(errors[:10]))
        if "WORKER TIMEOUT" in log:
            print("gunicorn log (end):\n" + log[-3000:])
        return False
    print("check: OK")
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30, help="tables (default 30)")
    parser.add_argument("--seats", type=int, default=4, help="students per table (default 4)")
    parser.add_argument(
        "--database-url",
        help="a PostgreSQL database to DROP and create afresh (default: SQLite in a temp dir)",
    )
    parser.add_argument("--redis-url", default=f"{REDIS}/11", help="default db 11")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    parser.add_argument("--threads", type=int, default=32, help="threads per worker (default 32)")
    parser.add_argument(
        "--rounds", type=int, default=5, help="baseline calls per client and table (default 5)"
    )
    parser.add_argument(
        "--notice-timeout", type=float, default=10, help="seconds to wait for a notice (10)"
    )
    parser.add_argument(
        "--deadline", type=float, default=180, help="seconds a table may play (default 180)"
    )
    parser.add_argument(
        "--kill-after", type=float, default=0, help="SIGKILL one worker this long into the games"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the random moves")
    parser.add_argument(
        "--think",
        type=float,
        default=0,
        help="seconds a table waits before each move, on average (default 0: none)",
    )
    parser.add_argument(
        "--long-poll",
        type=int,
        default=0,
        metavar="K",
        help="students per table who long-poll instead of a socket (default 0)",
    )
    parser.add_argument(
        "--repo",
        action="append",
        default=[],
        help="a checkout to serve (once or more: each in turn; default this one)",
    )
    args = parser.parse_args()
    if not 2 <= args.seats <= 7:
        parser.error("--seats must be 2 to 7 (GeoPlunge 51)")
    if not 0 <= args.long_poll < args.seats:
        parser.error("--long-poll must leave the host a socket (0 to seats - 1)")
    ok = True
    for served in args.repo or [str(ROOT)]:
        args.served = Path(served).resolve()
        print(
            f"\n## {args.served} ({_commit(args.served)})\n\n"
            f"{args.tables} tables of {args.seats} students ({GAME}), "
            f"{'PostgreSQL' if args.database_url else 'SQLite'}, gunicorn {args.workers} workers x "
            f"{args.threads} threads (gthread), Redis {args.redis_url}, baseline {args.rounds} "
            f"calls per client and table, "
            + (f"a move every {args.think:g} s a table on average" if args.think else "no wait")
            + " between moves"
            + (f", {args.long_poll} a table long-polling" if args.long_poll else "")
            + f"\n{os.cpu_count()} CPUs shared by server and driver; load average "
            + " ".join(f"{x:.2f}" for x in os.getloadavg()),
            flush=True,
        )
        sockets, threads = args.tables * args.seats, args.workers * args.threads
        if sockets >= threads:
            print(
                f"note: {sockets} WebSockets for {threads} threads in all: each open WebSocket "
                "holds a thread of its worker (gthread), so requests may wait for one that never "
                "frees"
            )
        ok = bench(args) and ok
    return 0 if ok else 1


def _commit(repo: Path) -> str:
    """The checkout's commit, with a + when it has changes not committed."""
    head = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    return (head or "not a git checkout") + ("+" if dirty else "")


if __name__ == "__main__":
    sys.exit(main())
