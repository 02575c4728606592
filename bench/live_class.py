"""Benchmark: GeoPlunge Live (issue 23), whole classes playing a class game on their own devices.

A fresh database (SQLite in a temp file, or the PostgreSQL database named by ``--database-url``,
dropped and created afresh) is migrated and given ``--games`` classes of ``--students`` students
and their teacher (made directly in the database with a cheap password hash, as bench/live.py
does). gunicorn serves the app as README's production command does (gthread workers) with
``REDIS_URL`` set, on a Socket.IO channel of the run's own.

A second process drives each class from one thread for its teacher and one per student: everyone
logs in over HTTP; the teacher makes a game of ``--questions`` questions (every kind, no timer: the
teacher reveals); each student joins with the code from the projector and connects a
python-socketio client (WebSocket only) with its session cookie, and watches the game. Then:

1. Baseline, "broadcast": the driver publishes an empty ``bench`` message through Redis to each
   game's room of students (python-socketio's write-only ``RedisManager``), and times it until
   every student of the game has it: the fan-out path without the app's work.
2. The game, question by question, as browsers would play it:
   - the teacher presses "start" (then "next") on the projector's version; every student's page
     hears the notice and puts in place the question it brings (C-W9), or else fetches its live
     part (as class_game.js does); measured per device:
     **from the teacher's POST being sent to the question being on that device** (its page read
     back showing the question open);
   - each student answers after ``--think`` seconds at most (drawn from the run's seed; a random
     option of the question as the page offers it: a button, three of the six cards, or a state's
     name typed), POSTing the answer form;
   - the projector hears every answer and fetches its live part; measured per question: **from
     the last answer's POST being sent to the projector saying everyone has answered**; then the
     teacher presses "reveal" and measured per device: **from that POST to the answer being on
     the device**; then "next".
After the run the database is checked: each game ended, every answer whose POST was kept is
stored once (``class_game_answer``), no refused answer is stored, and every stored answer has its
reviews in the review log (mode ``live``) and no review is without its answer: **lost 0,
duplicated 0** expected. gunicorn's log and access log are searched for tracebacks and 5xx.

Goal (the issue): p95 from "next" to the question on every device under 300 ms on this 2-CPU
machine. Server and driver share the CPUs, so the figures are relative; the baseline of the same
run says what the fan-out alone costs.

Run it from the project root (Redis on 127.0.0.1:6379)::

    .venv/bin/python bench/live_class.py                         # one game of 60, SQLite
    .venv/bin/python bench/live_class.py --games 4 --students 30
    .venv/bin/python bench/live_class.py --fetch        # every phone fetches its page instead
    .venv/bin/python bench/live_class.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/NAME

Exit status: non-zero on an error (a lost or duplicated answer, a game not ended, a failed
request), not on a missed goal.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import random
import re
import secrets
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.live import csrf, fresh_database, start_gunicorn, summary  # noqa: E402
from bench.review import (  # noqa: E402
    Client,
    free_port,
    migrate,
    percentile,
    server_cpu_seconds,
    stop_gunicorn,
)

PASSWORD = "bench horse battery"
REDIS = "redis://127.0.0.1:6379"
KINDS = ("find", "red-state", "capital", "clues", "border-up", "ranks")
PHASE = re.compile(r'id="cg-root"[^>]*data-cg-phase="(\w+)"')
QUESTION = re.compile(r'id="cg-root"[^>]*data-cg-question="(-?\d+)"')
CONTROL = re.compile(
    r'name="action" value="(\w+)">\s*<input type="hidden" name="version" value="(\d+)"'
)
BUTTON = re.compile(r'<button type="submit" class="button cg-choice" name="answer" value="([^"]+)"')
CARD = re.compile(r'<input type="checkbox" name="cards" value="([A-Z]{2})"')
STATE_NAME = re.compile(r'<option value="([^"]+)">')
SPOT = re.compile(r'data-spot="(\d+)"')
NUMBER = re.compile(r'name="question" value="(\d+)"')
KIND_SHOWN = re.compile(r'<p class="cg-kind">([^<]+)</p>')
CSRF_ROOT = re.compile(r'data-cg-csrf="([^"]+)"')
CODE = re.compile(r'<p class="cg-code"[^>]*>([A-Z0-9]+)</p>')
EVERYONE = "everyone has answered"


def where(page: str) -> tuple[str, str]:
    """Where a student's page says the game is: its phase and question number ("" if unread)."""
    phase, question = PHASE.search(page), QUESTION.search(page)
    return (phase.group(1) if phase else "", question.group(1) if question else "")


def make_classes(games: int, students: int) -> list[tuple[str, list[str]]]:
    """``games`` teachers, each with one class of ``students``; (teacher, students) names."""
    from werkzeug.security import generate_password_hash

    from trainer.web import create_app
    from trainer.web.extensions import db
    from trainer.web.models import ClassMembership, Role, SchoolClass, User

    cheap = generate_password_hash(PASSWORD, method="pbkdf2:sha256:1")
    app = create_app()
    made = []
    with app.app_context():
        for g in range(games):
            teacher = User(username=f"teach{g}", username_key=f"teach{g}", role=Role.TEACHER)
            teacher.password_hash = cheap
            db.session.add(teacher)
            db.session.flush()
            klass = SchoolClass(teacher_id=teacher.id, name=f"Class {g}", join_code=f"BENCHCL{g}")
            db.session.add(klass)
            db.session.flush()
            names = [f"c{g}s{n:03d}" for n in range(students)]
            for name in names:
                user = User(username=name, username_key=name, role=Role.STUDENT)
                user.password_hash = cheap
                db.session.add(user)
                db.session.flush()
                db.session.add(ClassMembership(class_id=klass.id, student_id=user.id))
            made.append((teacher.username, names))
        db.session.commit()
        db.session.remove()
        db.engine.dispose()
    return made


def check_games(kept: dict[int, int]) -> list[dict[str, Any]]:
    """Each game as stored: its phase, answers and reviews, against the answers kept."""
    from sqlalchemy import func, select

    from trainer.web import create_app
    from trainer.web.extensions import db
    from trainer.web.models import ClassGame, ClassGameAnswer, ReviewLog

    app = create_app()
    rows = []
    with app.app_context():
        for game in db.session.execute(select(ClassGame)).scalars():
            answers = db.session.execute(
                select(ClassGameAnswer.student_id, ClassGameAnswer.question).where(
                    ClassGameAnswer.game_id == game.id
                )
            ).all()
            reviews = db.session.execute(
                select(ReviewLog.round_token, ReviewLog.item, func.count())
                .where(ReviewLog.round_token.like(f"class-game:{game.id}:%"))
                .group_by(ReviewLog.round_token, ReviewLog.item)
            ).all()
            reviewed = {
                (int(token.rsplit(":", 1)[1]), int(item.split(":", 1)[0]))
                for token, item, _n in reviews
            }
            modes = db.session.execute(
                select(ReviewLog.mode)
                .where(ReviewLog.round_token.like(f"class-game:{game.id}:%"))
                .distinct()
            ).scalars()
            rows.append(
                {
                    "id": game.id,
                    "phase": game.phase,
                    "kept": kept.get(game.id, 0),
                    "stored": len(answers),
                    "unreviewed": len({(s, q) for s, q in answers} - reviewed),
                    "orphans": len(reviewed - {(s, q) for s, q in answers}),
                    "twice": sum(1 for _t, _i, n in reviews if n > 1),
                    "modes": sorted(modes),
                }
            )
        db.session.remove()
        db.engine.dispose()
    return rows


# --- The driver (a second process) ----------------------------------------------------------


class Device:
    """One student's phone: an HTTP client with its cookies and a Socket.IO client."""

    def __init__(self, username: str, port: int, game: Game) -> None:
        self.username = username
        self.http = Client(port)
        self.http.conn.timeout = 30
        self.game = game
        self.heard: dict[int, float] = {}  # version -> when its notice came
        # version -> when a notice that brought its question came, and the question (C-W9)
        self.pushed: dict[int, tuple[float, dict[str, Any]]] = {}
        self.token = ""  # the CSRF token of the last page fetched, as class_game.js keeps it
        self.pings: list[float] = []
        self.sio: Any = None
        self.page = ""

    def get(self, path: str) -> str:
        status, body, _ = self.http.send("GET", path)
        if status != 200:
            self.game.failures.append(f"GET {path} as {self.username}: {status}")
            return ""
        found = CSRF_ROOT.search(body)
        if found:
            self.token = found.group(1)
        return body

    def put(self, question: dict[str, Any]) -> str:
        """The page as class_game.js makes it of a notice's question (C-W9): its part in place,
        the form's empty CSRF token filled in with the page's own."""
        html = str(question["html"]).replace(
            'name="csrf_token" value=""', f'name="csrf_token" value="{self.token}"'
        )
        return (
            f'<div id="cg-root" data-cg-phase="question" data-cg-question="{question["number"]}">'
            f"{html}</div>"
        )

    def login(self) -> None:
        page = self.get("/auth/login")
        status, _, _ = self.http.send(
            "POST",
            "/auth/login",
            {"username": self.username, "password": PASSWORD, "csrf_token": csrf(page)},
        )
        if status != 302:
            raise RuntimeError(f"login of {self.username} answered {status}")

    def connect(self, port: int, game_id: int) -> None:
        import socketio  # type: ignore[import-untyped]

        # websocket-client checks the UTF-8 of every text frame in pure Python, byte by byte
        # (about 4 MB/s here): with sixty phones' notices of a 95 KB question that is the driver's
        # own second and more, not the server's. A browser checks it natively; so does not this.
        sio = socketio.Client(
            reconnection=True,
            reconnection_delay=0.5,
            websocket_extra_options={"skip_utf8_validation": True},
        )
        self.sio = sio
        game = self.game

        @sio.on("class_game_changed")
        def changed(message: dict[str, Any]) -> None:
            now = time.perf_counter()
            with game.cond:
                self.heard.setdefault(int(message["version"]), now)
                if isinstance(message.get("question"), dict):
                    self.pushed.setdefault(int(message["version"]), (now, message["question"]))
                game.cond.notify_all()

        @sio.on("bench")
        def bench(message: Any = None) -> None:
            now = time.perf_counter()
            with game.cond:
                self.pings.append(now)
                game.cond.notify_all()

        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        sio.connect(
            f"http://127.0.0.1:{port}",
            headers={"Cookie": cookie},
            transports=["websocket"],
            wait_timeout=30,
        )
        reply = sio.call("watch_class_game", {"game": game_id}, timeout=30)
        if not reply or not reply.get("ok"):
            raise RuntimeError(f"{self.username} could not watch game {game_id}: {reply}")


class Game:
    """One class and its teacher, driven by threads of their own."""

    def __init__(
        self, teacher: str, students: list[str], port: int, args: argparse.Namespace, seed: int
    ):
        self.port = port
        self.args = args
        self.rng = random.Random(seed)
        self.cond = threading.Condition()
        self.failures: list[str] = []
        self.teacher = Device(teacher, port, self)
        self.devices = [Device(name, port, self) for name in students]
        self.id = 0
        self.projector = ""
        self.question_ms: list[float] = []  # "next" POST sent -> question on the device
        self.reveal_ms: list[float] = []  # "reveal" POST sent -> answer on the device
        self.everyone_ms: list[float] = []  # last answer POST sent -> projector says everyone
        self.broadcast_ms: list[float] = []
        self.kept = 0
        self.refused = 0
        self.pushed_pages = 0  # questions put in place from their notice, not fetched
        self.control_ms: list[tuple[str, float]] = []  # a control's POST, sent -> its answer
        self.by_question: list[tuple[str, list[float]]] = []  # its kind, and question_ms of it
        self.ended = False

    # -- setting up

    def open(self) -> None:
        teacher = self.teacher
        teacher.login()
        classes = teacher.get("/teach/")
        class_id = re.search(r'href="/teach/classes/(\d+)"', classes)
        if class_id is None:
            raise RuntimeError(f"{teacher.username} has no class page link")
        url = f"/class-game/classes/{class_id.group(1)}/new"
        page = teacher.get(url)
        fields: list[tuple[str, str]] = [
            ("csrf_token", csrf(page)),
            ("covers", "forget"),
            ("length", str(self.args.questions)),
            ("seconds", ""),
            ("speed_breaks_ties", "y"),
            ("standings", "top-five"),
            ("team_size", "1"),
            *[("kinds", kind) for kind in KINDS],
        ]
        status, _, location = teacher.http.send("POST", url, fields)  # type: ignore[arg-type]
        if status != 302:
            raise RuntimeError(f"making a game answered {status}")
        found = re.search(r"/class-game/(\d+)/projector", location)
        if found is None:
            raise RuntimeError(f"making a game went to {location}")
        self.id = int(found.group(1))
        self.projector = teacher.get(f"/class-game/{self.id}/projector")
        code = CODE.search(self.projector)
        if code is None:
            raise RuntimeError("no code on the projector")
        for device in self.devices:
            device.login()
            join = device.get("/class-game/")
            status, _, location = device.http.send(
                "POST", "/class-game/join", {"csrf_token": csrf(join), "code": code.group(1)}
            )
            if status != 302 or f"/class-game/{self.id}" not in location:
                raise RuntimeError(f"{device.username} joining answered {status} {location}")
            device.page = device.get(f"/class-game/{self.id}")
            device.connect(self.port, self.id)
        self.teacher.connect(self.port, self.id)  # the projector follows every change

    def baseline_broadcast(self, manager: Any) -> None:
        for _ in range(self.args.rounds):
            with self.cond:
                before = [len(d.pings) for d in self.devices]
            started = time.perf_counter()
            manager.emit("bench", {}, namespace="/", room=f"class-game:{self.id}:students")
            arrived = self.wait(
                lambda before=before: [
                    d.pings[n] if len(d.pings) > n else None for d, n in zip(self.devices, before)
                ]
            )
            if arrived is None:
                self.failures.append(f"game {self.id}: a broadcast did not reach every device")
            else:
                self.broadcast_ms.append((max(arrived) - started) * 1000)

    def wait(self, arrivals: Any, timeout: float | None = None) -> list[float] | None:
        deadline = time.monotonic() + (timeout or self.args.notice_timeout)
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

    def press(self, action: str) -> tuple[float, int]:
        """The teacher presses ``action`` on the projector as it is; when it was sent, and the
        version the students' pages follow after it (the control's own notice)."""
        buttons = dict(CONTROL.findall(self.projector))
        if action not in buttons:
            raise RuntimeError(f"game {self.id}: no {action!r} button on the projector")
        page_csrf = csrf(self.projector)
        started = time.perf_counter()
        status, _, location = self.teacher.http.send(
            "POST",
            f"/class-game/{self.id}/control",
            {"csrf_token": page_csrf, "action": action, "version": buttons[action]},
        )
        if status != 302:
            raise RuntimeError(f"game {self.id}: {action} answered {status}")
        self.control_ms.append((action, (time.perf_counter() - started) * 1000))
        if action != "end":
            self.projector = self.teacher.get(f"/class-game/{self.id}/projector")
        return started, int(buttons[action])

    def on_devices(self, started: float, shown: Any, into: list[float]) -> None:
        """Every device, after hearing the control's notice (its first notice after ``started``),
        puts in place the question it brought (C-W9) or else fetches its live part, until
        ``shown(page)``, as class_game.js does; the time from ``started`` to each page."""
        done: list[float | None] = [None] * len(self.devices)

        def follow(n: int, device: Device) -> None:
            deadline = time.monotonic() + self.args.notice_timeout
            while time.monotonic() < deadline:
                with self.cond:
                    heard = any(t >= started for t in device.heard.values())
                    if not heard:
                        self.cond.wait(0.05)
                        continue
                    brought = [q for t, q in device.pushed.values() if t >= started]
                if brought and not self.args.fetch:
                    page = device.put(brought[-1])
                    if shown(page):
                        done[n] = time.perf_counter()
                        device.page = page
                        self.pushed_pages += 1
                        return
                page = device.get(f"/class-game/{self.id}?part=live")
                if shown(page):
                    done[n] = time.perf_counter()
                    device.page = page
                    return
                with self.cond:
                    self.cond.wait(0.05)

        threads = [
            threading.Thread(target=follow, args=(n, d), daemon=True)
            for n, d in enumerate(self.devices)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        missing = sum(1 for t in done if t is None)
        if missing:
            self.failures.append(f"game {self.id}: {missing} devices never showed the change")
        into.extend((t - started) * 1000 for t in done if t is not None)

    def answer(self, device: Device, number: int, rng: random.Random) -> float | None:
        """The device's answer to question ``number`` as its page offers it; when it was sent."""
        page = device.page
        buttons, cards, names = BUTTON.findall(page), CARD.findall(page), STATE_NAME.findall(page)
        spots = sorted(set(SPOT.findall(page)))
        if spots and not names:  # "find it on the map": a spot of the question's map (C-W13)
            fields = {"answer": rng.choice(spots)}
        elif buttons:
            fields = {"answer": rng.choice(buttons)}
        elif cards:
            fields = {"cards": ",".join(rng.sample(cards, 3))}
        elif names:
            fields = {"answer": rng.choice(names)}
        else:
            self.failures.append(f"game {self.id}: {device.username} has nothing to answer with")
            return None
        body: list[tuple[str, str]] = [("csrf_token", csrf(page)), ("question", str(number))]
        if "cards" in fields:
            body += [("cards", c) for c in fields["cards"].split(",")]
        else:
            body.append(("answer", fields["answer"]))
        time.sleep(rng.uniform(0.2, self.args.think))
        started = time.perf_counter()
        status, _, location = device.http.send(
            "POST",
            f"/class-game/{self.id}/answer",
            body,  # type: ignore[arg-type]
        )
        if status != 302:
            self.failures.append(f"game {self.id}: an answer answered {status}")
            return None
        # A refused answer comes back with a message: the page says so; kept ones are counted.
        after = device.get(f"/class-game/{self.id}")
        if "Nothing was recorded" in after or "could not be read" in after:
            self.refused += 1
            return None
        with self.cond:
            self.kept += 1
        return started

    def play(self) -> None:
        for number in range(self.args.questions):
            started, _ = self.press("start" if number == 0 else "next")
            before = len(self.question_ms)
            self.on_devices(
                started,
                lambda page, n=number: where(page) == ("question", str(n)),
                self.question_ms,
            )
            kind = KIND_SHOWN.search(self.projector)
            self.by_question.append((kind.group(1) if kind else "?", self.question_ms[before:]))
            sent: list[float] = []
            threads = []
            for n, device in enumerate(self.devices):
                rng = random.Random(self.rng.random() + n)

                def go(
                    device: Device = device,
                    rng: random.Random = rng,
                    number: int = number,
                    sent: list[float] = sent,
                ) -> None:
                    at = self.answer(device, number, rng)
                    if at is not None:
                        with self.cond:
                            sent.append(at)

                threads.append(threading.Thread(target=go, daemon=True))
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            if sent:
                last = max(sent)
                deadline = time.monotonic() + self.args.notice_timeout
                while time.monotonic() < deadline:
                    self.projector = self.teacher.get(f"/class-game/{self.id}/projector?part=live")
                    if EVERYONE in self.projector:
                        self.everyone_ms.append((time.perf_counter() - last) * 1000)
                        break
                    with self.cond:
                        self.cond.wait(0.05)
                else:
                    self.failures.append(f"game {self.id}: the projector never saw every answer")
                self.projector = self.teacher.get(f"/class-game/{self.id}/projector")
            started, _ = self.press("reveal")
            self.on_devices(
                started,
                lambda page: where(page)[0] in ("reveal", "standings"),
                self.reveal_ms,
            )
        self.press("end")
        self.ended = True


def drive(
    port: int,
    classes: list[tuple[str, list[str]]],
    args: argparse.Namespace,
    channel: str,
    results: Any,
) -> None:
    import socketio

    games = [
        Game(teacher, students, port, args, seed=args.seed * 1000 + g)
        for g, (teacher, students) in enumerate(classes)
    ]
    manager = socketio.RedisManager(args.redis_url, channel=channel, write_only=True)
    barrier = threading.Barrier(len(games) + 1, timeout=900)
    marks: dict[str, float] = {}

    def run(game: Game) -> None:
        broken = False
        for step in (game.open, lambda: game.baseline_broadcast(manager), game.play):
            barrier.wait()
            if broken:
                continue
            try:
                step()
            except Exception as exc:  # noqa: BLE001 - reported; the others go on
                game.failures.append(f"game {game.id}: {exc!r}")
                broken = True
        barrier.wait()

    threads = [threading.Thread(target=run, args=(g,), daemon=True) for g in games]
    for thread in threads:
        thread.start()
    for name in ("open", "broadcast", "play", "end"):
        barrier.wait()
        marks[name] = time.perf_counter()
    for thread in threads:
        thread.join(timeout=5)
    for game in games:
        for device in [*game.devices, game.teacher]:
            if device.sio is not None:
                device.sio.disconnect()
    results.put(
        {
            "marks": marks,
            "games": [
                {
                    "id": g.id,
                    "question_ms": g.question_ms,
                    "reveal_ms": g.reveal_ms,
                    "everyone_ms": g.everyone_ms,
                    "broadcast_ms": g.broadcast_ms,
                    "kept": g.kept,
                    "pushed": g.pushed_pages,
                    "by_question": g.by_question,
                    "control_ms": g.control_ms,
                    "refused": g.refused,
                    "ended": g.ended,
                    "failures": g.failures,
                }
                for g in games
            ],
        }
    )


# --- Running and reporting ------------------------------------------------------------------


def bench(args: argparse.Namespace) -> bool:
    channel = f"bench-class-{secrets.token_hex(6)}"
    with tempfile.TemporaryDirectory(prefix="geoplunge-bench-class-") as tmpdir:
        tmp = Path(tmpdir)
        env = {
            **os.environ,
            "DATABASE_URL": fresh_database(args.database_url, tmp),
            "SECRET_KEY": secrets.token_hex(32),
            "REDIS_URL": args.redis_url,
        }
        os.environ.update(env)
        server = None
        try:
            migrate(env)
            classes = make_classes(args.games, args.students)
            port = free_port()
            server = start_gunicorn(env, port, args, channel, tmp)
            cpu0 = server_cpu_seconds(server.pid)
            context = multiprocessing.get_context("spawn")
            results = context.Queue()
            driver = context.Process(
                target=drive, args=(port, classes, args, channel, results), daemon=True
            )
            driver.start()
            while True:
                try:
                    result = results.get(timeout=0.5)
                    break
                except queue.Empty:
                    if not driver.is_alive():
                        sys.exit(f"the driver process died (exit code {driver.exitcode})")
            driver.join()
            cpu = server_cpu_seconds(server.pid) - cpu0
        finally:
            if server is not None:
                stop_gunicorn(server)
        stored = check_games({g["id"]: g["kept"] for g in result["games"]})
        log = (tmp / "gunicorn.log").read_text()
        access = (tmp / "access.log").read_text() if (tmp / "access.log").exists() else ""
    return report(args, result, stored, log, access, cpu)


def report(
    args: argparse.Namespace,
    result: dict[str, Any],
    stored: list[dict[str, Any]],
    log: str,
    access: str,
    cpu: float,
) -> bool:
    games = result["games"]
    every = {
        key: [v for g in games for v in g[key]]
        for key in ("question_ms", "reveal_ms", "everyone_ms", "broadcast_ms")
    }
    print("\n| measured | n | p50 ms | p95 ms | p99 ms | max ms |")
    print("|---|---:|---:|---:|---:|---:|")
    print(summary("baseline: empty broadcast via Redis -> every device", every["broadcast_ms"]))
    print(summary("**teacher's next -> the question on the device**", every["question_ms"]))
    print(summary("last answer sent -> the projector says everyone answered", every["everyone_ms"]))
    print(summary("teacher's reveal -> the answer on the device", every["reveal_ms"]))
    marks = result["marks"]
    kept = sum(g["kept"] for g in games)
    pushed = sum(g["pushed"] for g in games)
    print(
        f"\nanswers kept: {kept} in {marks['end'] - marks['play']:.1f} s of play; "
        f"server CPU {cpu:.1f} s over the whole run; questions put in place from their notice "
        f"(C-W9): {pushed} of {len(every['question_ms'])}"
    )
    for g in games:
        print(
            f"game {g['id']}, the teacher's controls, POST -> answer, ms: "
            + ", ".join(f"{action} {ms:.0f}" for action, ms in g["control_ms"])
        )
        print(
            f"game {g['id']}, next -> question, p50 / p95 ms by question: "
            + ", ".join(
                f"{n + 1} ({kind}) {percentile(ms, 50):.0f} / {percentile(ms, 95):.0f}"
                for n, (kind, ms) in enumerate(g["by_question"])
            )
        )
    p95 = percentile(every["question_ms"], 95)
    print(f"goal p95 < 300 ms: {'met' if p95 < 300 else 'MISSED'} ({p95:.1f} ms)")
    errors = [f for g in games for f in g["failures"]]
    lost = duplicated = 0
    for row in stored:
        lost += max(0, row["kept"] - row["stored"]) + row["unreviewed"]
        duplicated += max(0, row["stored"] - row["kept"]) + row["orphans"] + row["twice"]
        if row["phase"] != "ended":
            errors.append(f"game {row['id']}: {row['phase']}, not ended")
        if row["modes"] not in ([], ["live"]):
            errors.append(f"game {row['id']}: reviews logged as {row['modes']}")
    print(
        f"check (database): {len(stored)} games, "
        f"{sum(1 for r in stored if r['phase'] == 'ended')} ended; "
        f"{sum(r['stored'] for r in stored)} answers stored for {kept} kept POSTs, "
        f"{sum(r['unreviewed'] for r in stored)} without their reviews, "
        f"{sum(r['orphans'] for r in stored)} reviews without an answer: "
        f"**lost {lost}, duplicated {duplicated}**; refused answers: "
        f"{sum(g['refused'] for g in games)}"
    )
    statuses = re.findall(r'" (\d{3}) ', access)
    fives = sum(1 for s in statuses if s.startswith("5"))
    print(
        f"server: {len(statuses)} requests in the access log, {fives} 5xx; gunicorn log: "
        f"{log.count('Traceback')} tracebacks, {log.count('WORKER TIMEOUT')} worker timeouts"
    )
    if "Traceback" in log:
        first = log.index("Traceback")
        print(
            "gunicorn log, the first traceback (not counted as a failure: see whether it is):\n"
            + "\n".join(log[first:].splitlines()[:16])
        )
    if lost or duplicated:
        errors.append(f"{lost} lost and {duplicated} duplicated answers")
    if fives:
        errors.append(f"{fives} answers 5xx")
    if errors:
        print(f"FAILED: {len(errors)} errors, first ones:\n  " + "\n  ".join(errors[:10]))
        return False
    print("check: OK")
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1, help="games at once (default 1)")
    parser.add_argument("--students", type=int, default=60, help="students a game (default 60)")
    parser.add_argument("--questions", type=int, default=6, help="questions a game (default 6)")
    parser.add_argument(
        "--think", type=float, default=3.0, help="a student answers within this many s (3)"
    )
    parser.add_argument(
        "--database-url",
        help="a PostgreSQL database to DROP and create afresh (default: SQLite in a temp dir)",
    )
    parser.add_argument("--redis-url", default=f"{REDIS}/12", help="default db 12")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    parser.add_argument("--threads", type=int, default=100, help="threads a worker (default 100)")
    parser.add_argument("--rounds", type=int, default=5, help="baseline broadcasts a game (5)")
    parser.add_argument(
        "--notice-timeout", type=float, default=15, help="seconds to wait for a change (15)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the answers")
    parser.add_argument(
        "--fetch",
        action="store_true",
        help="every device fetches its page after a notice, as a page without a socket does, "
        "instead of putting in place the question the notice brings (C-W9)",
    )
    args = parser.parse_args()
    args.served = ROOT
    if not 1 <= args.questions <= 30:
        parser.error("--questions must be 1 to 30")
    print(
        f"{args.games} game(s) of {args.students} students, {args.questions} questions, "
        f"{'PostgreSQL' if args.database_url else 'SQLite'}, gunicorn {args.workers} workers x "
        f"{args.threads} threads (gthread), Redis {args.redis_url}; answers within "
        f"{args.think:g} s; "
        + (
            "phones fetch every page"
            if args.fetch
            else "phones put in place the question a notice brings"
        )
        + f"\n{os.cpu_count()} CPUs shared by server and driver; load average "
        + " ".join(f"{x:.2f}" for x in os.getloadavg()),
        flush=True,
    )
    return 0 if bench(args) else 1


if __name__ == "__main__":
    sys.exit(main())
