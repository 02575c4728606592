"""``flask --app app seed-demo``: a demo school with simulated review histories, written in bulk.

A newcomer sees full dashboards at once, and the same command builds the benchmark database
(500 students, about a million reviews). The students' histories come from
:mod:`trainer.simulate` (a seeded learner per student); they are written with SQLAlchemy Core
``insert()`` and lists of rows, a batch per transaction, never one ``record()`` per review.
"""

from __future__ import annotations

import datetime as dt
import multiprocessing
import os
import secrets
import time
from collections import deque
from collections.abc import Iterator
from typing import Any, cast
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import click
from flask import current_app
from flask.cli import with_appcontext
from sqlalchemy import Connection, Table, bindparam, delete, insert, select, update
from werkzeug.security import generate_password_hash

from trainer import srs
from trainer.assignments import ACTIVITIES, Amount, Scope, default_title, window
from trainer.facts import Facet
from trainer.simulate import (
    COMBO,
    COMBO_MATCH_GAMES,
    COMBO_MATCHES,
    History,
    Task,
    make_learner,
    simulate,
    simulate_task,
)

from . import get_deck
from .auth.forms import USERNAME_PATTERN
from .extensions import db
from .models import (
    JOIN_CODE_ALPHABET,
    JOIN_CODE_LENGTH,
    USERNAME_MAX,
    Assignment,
    AssignmentRound,
    ClassMembership,
    ComboMatch,
    ComboMatchGame,
    MemoryCard,
    ReviewLog,
    Role,
    SchoolClass,
    User,
    utcnow,
)
from .modes import round_tables
from .teach.accounts import make_password

#: Students per class when --classes is not given.
CLASS_SIZE = 30
#: Review rows written per transaction (the other tables' rows go with them).
BATCH_REVIEWS = 20_000
#: Below this many student-days the histories are simulated in this process (no start-up cost).
IN_PROCESS_BELOW = 2_000
#: The usual share of Combo 1 matches among a demo student's own sessions, beside the other
#: activities' (:data:`trainer.simulate.ACTIVITY_MIX`: flashcard review 0.72, State IQ 0.08, ...).
#: Only the demo school plays them: other simulated histories stay as they were.
COMBO_SESSIONS = 0.03

_USER = cast(Table, User.__table__)
_COMBO_MATCH = cast(Table, ComboMatch.__table__)
_COMBO_MATCH_GAME = cast(Table, ComboMatchGame.__table__)


def _tables() -> dict[str, Table]:
    """The tables a history is written to, by the name of its :class:`History` list: the
    reviews, the memory cards, each mode's rounds (from its web adapter) and the rounds started
    from assignments."""
    return {
        "reviews": cast(Table, ReviewLog.__table__),
        "cards": cast(Table, MemoryCard.__table__),
        **round_tables(),
        "assignment_rounds": cast(Table, AssignmentRound.__table__),
    }


def init_app(app) -> None:
    """Add ``seed-demo`` to the app's command line."""
    app.cli.add_command(seed_demo)


@click.command("seed-demo")
@click.option(
    "--students",
    default=60,
    show_default=True,
    type=click.IntRange(1, 9999),
    help="How many students.",
)
@click.option(
    "--days",
    default=90,
    show_default=True,
    type=click.IntRange(1, 730),
    help="Days of history, ending today.",
)
@click.option(
    "--classes",
    default=None,
    type=click.IntRange(1, 500),
    help="How many classes [default: one per 30 students].",
)
@click.option(
    "--seed",
    default=1,
    show_default=True,
    type=int,
    help="Seeds the simulated learners: the same seed, the same school.",
)
@click.option(
    "--teacher", default="demo_teacher", show_default=True, help="The teacher's username."
)
@click.option(
    "--prefix", default="demo", show_default=True, help="Students are <prefix>001, <prefix>002..."
)
@click.option(
    "--time-zone",
    "time_zone",
    default="America/Chicago",
    show_default=True,
    help="The school's time zone.",
)
@click.option(
    "--workers",
    default=None,
    type=click.IntRange(0, 64),
    help="Processes that simulate learners while this one writes [default: one per CPU, at most 8; 0: none].",
)
@with_appcontext
def seed_demo(
    students: int,
    days: int,
    classes: int | None,
    seed: int,
    teacher: str,
    prefix: str,
    time_zone: str,
    workers: int | None,
) -> None:
    """Create a demo school: a teacher, classes, students with realistic review histories, assignments."""
    started = time.perf_counter()
    try:
        ZoneInfo(time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise click.BadParameter(
            f"{time_zone!r} is not a time zone (try America/Chicago).", param_hint="--time-zone"
        ) from None
    classes = classes or -(-students // CLASS_SIZE)
    if classes > students:
        raise click.BadParameter(
            "There cannot be more classes than students.", param_hint="--classes"
        )
    teacher = teacher.strip()
    width = max(3, len(str(students)))
    usernames = [f"{prefix}{i + 1:0{width}d}" for i in range(students)]
    for name in (teacher, usernames[-1]):
        if not 3 <= len(name) <= USERNAME_MAX or not USERNAME_PATTERN.fullmatch(name):
            raise click.BadParameter(
                f"“{name}” cannot be a username (3 to {USERNAME_MAX} letters, digits, dots, dashes, underscores)."
            )

    # Check first: a demo school is created whole or not at all.
    taken = _taken([teacher, *usernames])
    if taken:
        found = [f"a user called {teacher}"] if teacher in taken else []
        clashes = sorted(taken - {teacher})
        if clashes:
            shown = ", ".join(clashes[:3]) + (", ..." if len(clashes) > 3 else "")
            found.append(f"{len(clashes)} of the students' usernames ({shown})")
        raise click.ClickException(
            f"There is already {' and '.join(found)}: nothing was created. "
            "Choose another --teacher and --prefix, or remove the old demo school first."
        )

    now = utcnow()
    school = _create_school(now, students, days, classes, seed, teacher, usernames, time_zone)
    school_seconds = time.perf_counter() - started
    try:
        totals, write_seconds = _write_histories(
            school, now, days, seed, time_zone, f"{teacher}:{prefix}", workers
        )
    except BaseException:
        # No partial school: deleting the accounts deletes (cascades) everything they own.
        db.session.rollback()
        with db.engine.begin() as connection:
            connection.execute(
                delete(_USER).where(_USER.c.id.in_([school["teacher_id"], *school["student_ids"]]))
            )
        click.echo("Stopped: the demo school was removed; nothing is left of it.", err=True)
        raise
    elapsed = time.perf_counter() - started
    _report(school, totals, days, school_seconds, write_seconds, elapsed)


# --- the school -----------------------------------------------------------------------------------


def _taken(usernames: list[str]) -> set[str]:
    keys = {User.key_for(name): name for name in usernames}
    found: set[str] = set()
    key_list = list(keys)
    for i in range(0, len(key_list), 500):
        rows = db.session.execute(
            select(User.username_key).where(User.username_key.in_(key_list[i : i + 500]))
        ).scalars()
        found |= {keys[key] for key in rows}
    return found


def _join_codes(count: int) -> list[str]:
    """``count`` join codes no class has (as the teach pages draw them)."""
    codes: list[str] = []
    while len(codes) < count:
        code = "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
        if (
            code not in codes
            and db.session.execute(
                select(SchoolClass.id).where(SchoolClass.join_code == code)
            ).first()
            is None
        ):
            codes.append(code)
    return codes


def _create_school(
    now: dt.datetime,
    students: int,
    days: int,
    classes: int,
    seed: int,
    teacher: str,
    usernames: list[str],
    time_zone: str,
) -> dict[str, Any]:
    """The teacher, classes, students, memberships and assignments, in one transaction."""
    tz = ZoneInfo(time_zone)
    today = srs.study_day(now, tz).date
    first_day = today - dt.timedelta(days=days - 1)
    opened = dt.datetime.combine(
        first_day - dt.timedelta(days=1), dt.time(8), tzinfo=tz
    ).astimezone(dt.UTC)
    teacher_password = secrets.token_urlsafe(12)
    student_password = make_password()
    shared_hash = generate_password_hash(
        student_password
    )  # one hash for all: scrypt is slow on purpose

    teacher_row = User(
        username=teacher,
        username_key=User.key_for(teacher),
        role=Role.TEACHER,
        created_at=opened,
        time_zone=time_zone,
    )
    teacher_row.set_password(teacher_password)
    db.session.add(teacher_row)
    db.session.flush()
    codes = _join_codes(classes)
    class_rows = [
        SchoolClass(
            teacher_id=teacher_row.id,
            name=f"Demo class {n + 1}",
            join_code=codes[n],
            created_at=opened,
        )
        for n in range(classes)
    ]
    db.session.add_all(class_rows)
    db.session.flush()
    # The settings each simulated learner studies with (make_learner is what simulate() draws).
    learners = [make_learner(seed, index, days, time_zone) for index in range(students)]
    connection = db.session.connection()
    connection.execute(
        insert(_USER),
        [
            {
                "username": name,
                "username_key": User.key_for(name),
                "email": None,
                "password_hash": shared_hash,
                "role": Role.STUDENT,
                "created_at": opened,
                "desired_retention": learner.desired_retention,
                "new_per_day": learner.new_per_day,
                "time_zone": time_zone,
                "multiple_choice": learner.multiple_choice,
            }
            for name, learner in zip(usernames, learners)
        ],
    )
    keys = [User.key_for(name) for name in usernames]
    ids_by_key = {
        key: user_id
        for key, user_id in connection.execute(
            select(_USER.c.username_key, _USER.c.id).where(_USER.c.username_key.in_(keys))
        )
    }
    student_ids = [ids_by_key[User.key_for(name)] for name in usernames]
    # Contiguous blocks: demo001-demo030 in class 1, and so on.
    members = [(class_rows[i * classes // students], sid) for i, sid in enumerate(student_ids)]
    connection.execute(
        insert(cast(Table, ClassMembership.__table__)),
        [{"class_id": klass.id, "student_id": sid, "joined_at": opened} for klass, sid in members],
    )
    assignments, tasks = _assignments(today, days, time_zone)
    assignment_ids: dict[int, list[int]] = {}
    for klass in class_rows:
        rows = [
            Assignment(**a, class_id=klass.id, created_at=min(a["starts_at"], now))
            for a in assignments
        ]
        db.session.add_all(rows)
        db.session.flush()
        assignment_ids[klass.id] = [row.id for row in rows]
    db.session.commit()
    return {
        "teacher": teacher,
        "teacher_id": teacher_row.id,
        "teacher_password": teacher_password,
        "student_password": student_password,
        "usernames": usernames,
        "student_ids": student_ids,
        # For each student, the ids of their class's assignments, in the order of ``tasks``.
        "assignment_ids": [assignment_ids[klass.id] for klass, _ in members],
        "tasks": tasks,
        "classes": [
            (k.name, k.join_code, sum(1 for c, _ in members if c is k)) for k in class_rows
        ],
        "assignments": [a["title"] for a in assignments],
    }


def _assignments(
    today: dt.date, days: int, time_zone: str
) -> tuple[list[dict[str, Any]], tuple[Task, ...]]:
    """Three assignments for each class (one under way, one recall goal, one already due), and the
    tasks they are for the simulated learners (how many rounds a diligent learner plays of each)."""
    back = max(0, days - 1)

    def dates(starts_ago: int, due_in: int) -> dict[str, Any]:
        starts_at, due_at = window(
            today - dt.timedelta(days=min(starts_ago, back)),
            today + dt.timedelta(days=due_in),
            time_zone,
        )
        return {"starts_at": starts_at, "due_at": due_at, "time_zone": time_zone, "everyone": True}

    past_start = min(30, back)
    past_due = -max(1, past_start // 2) if past_start >= 2 else 0
    west = Scope(facets=frozenset({Facet.CAPITAL}), area="region:west")
    rows = [
        {
            "activities": ["state-iq"],
            "scope": Scope().to_json(),
            "amount": Amount.ROUNDS.value,
            "quantity": 5,
            "target": None,
            **dates(4, 6),
        },
        {
            "activities": ["review"],
            "scope": west.to_json(),
            "amount": Amount.RECALL.value,
            "quantity": None,
            "target": 0.9,
            **dates(10, 14),
        },
        {
            "activities": ["review", "border-up"],
            "scope": Scope(facets=frozenset({Facet.BORDERS})).to_json(),
            "amount": Amount.REVIEWS.value,
            "quantity": 40,
            "target": None,
            **dates(past_start, past_due),
        },
    ]
    for row in rows:  # titled as the teacher's form titles an untitled assignment
        row["title"] = default_title(
            Scope.from_json(row["scope"]),
            get_deck(),
            [ACTIVITIES[slug] for slug in row["activities"]],
            Amount(row["amount"]),
            row["quantity"],
            row["target"],
        )
    tasks = (
        Task(("state-iq",), rows[0]["starts_at"], rows[0]["due_at"], rounds=5),
        Task(
            ("review",),
            rows[1]["starts_at"],
            rows[1]["due_at"],
            rounds=6,
            facets=west.facets,
            postals=west.postals(get_deck()),
            area=west.area,
        ),
        Task(
            ("review", "border-up"),
            rows[2]["starts_at"],
            rows[2]["due_at"],
            rounds=5,
            facets=frozenset({Facet.BORDERS}),
        ),
    )
    return rows, tasks


# --- the histories --------------------------------------------------------------------------------


def _histories(
    count: int,
    now: dt.datetime,
    days: int,
    seed: int,
    time_zone: str,
    namespace: str,
    tasks: tuple[Task, ...],
    workers: int | None,
) -> Iterator[History]:
    """Each student's simulated history, in order; simulated by worker processes for big schools."""
    kwargs: dict[str, Any] = {
        "seed": seed,
        "days": days,
        "end": now,
        "time_zone": time_zone,
        "namespace": namespace,
        "tasks": tasks,
        "extra_mix": ((COMBO, COMBO_SESSIONS),),
    }
    if workers is None:
        workers = 0 if count * days < IN_PROCESS_BELOW else min(8, os.cpu_count() or 1)
    if workers == 0:
        deck = get_deck()
        for index in range(count):
            yield simulate(deck, index, **kwargs)
        return
    data_dir = str(current_app.config["DATA_DIR"])
    # "spawn": the workers import only trainer.simulate, never this process's database connections.
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        pending: deque[Any] = deque()
        window_size = 4 * workers + 2  # keeps memory bounded when writing is the slower side
        for index in range(count):
            pending.append(pool.apply_async(simulate_task, ((data_dir, index, kwargs),)))
            if len(pending) >= window_size:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


def _write_histories(
    school: dict[str, Any],
    now: dt.datetime,
    days: int,
    seed: int,
    time_zone: str,
    namespace: str,
    workers: int | None,
) -> tuple[dict[str, int], float]:
    """Simulate and write every student's history; returns the row counts and the seconds spent writing."""
    student_ids: list[int] = school["student_ids"]
    tables = _tables()
    buffers: dict[str, list[dict[str, Any]]] = {name: [] for name in tables}
    # Each Combo 1 match's games name it by its token: its id is known once it is inserted.
    combo_games: list[dict[str, Any]] = []
    totals = dict.fromkeys(tables, 0)
    last_active: list[dict[str, Any]] = []
    writing = 0.0

    def flush() -> None:
        nonlocal writing
        began = time.perf_counter()
        with db.engine.begin() as connection:  # one transaction per batch
            if connection.dialect.name == "sqlite":
                # A bigger page cache (128 MB) for this connection: the indexes grow by a million rows.
                connection.exec_driver_sql("PRAGMA cache_size=-131072")
            for name, rows in buffers.items():
                if rows:
                    connection.execute(insert(tables[name]), rows)
                    totals[name] += len(rows)
                    rows.clear()
            if combo_games:
                _write_combo_games(connection, combo_games)
                combo_games.clear()
        writing += time.perf_counter() - began

    histories = _histories(
        len(student_ids), now, days, seed, time_zone, namespace, school["tasks"], workers
    )
    for student_id, assignment_ids, history in zip(
        student_ids, school["assignment_ids"], histories
    ):
        for name in tables:
            if name == "assignment_rounds":
                buffers[name].extend(
                    {
                        "assignment_id": assignment_ids[row["task"]],
                        "student_id": student_id,
                        "activity": row["activity"],
                        "round_token": row["round_token"],
                        "created_at": row["created_at"],
                    }
                    for row in history.assignment_rounds
                )
                continue
            rows = history.cards.values() if name == "cards" else getattr(history, name)
            buffers[name].extend({**row, "student_id": student_id} for row in rows)
        combo_games.extend(history.rows(COMBO_MATCH_GAMES))
        last_active.append({"user_id": student_id, "seen": history.last_active})
        if len(buffers["reviews"]) >= BATCH_REVIEWS:
            flush()
    flush()
    began = time.perf_counter()
    with db.engine.begin() as connection:
        # When each student was last seen.
        connection.execute(
            update(_USER)
            .where(_USER.c.id == bindparam("user_id"))
            .values(last_login_at=bindparam("seen")),
            last_active,
        )
    writing += time.perf_counter() - began
    return totals, writing


def _write_combo_games(connection: Connection, games: list[dict[str, Any]]) -> None:
    """Write the games of Combo 1 matches written in this transaction, each with its match's id
    for the ``match_token`` the simulator gives it."""
    tokens = sorted({game["match_token"] for game in games})
    ids: dict[str, int] = {}
    for i in range(0, len(tokens), 500):
        found = connection.execute(
            select(_COMBO_MATCH.c.token, _COMBO_MATCH.c.id).where(
                _COMBO_MATCH.c.token.in_(tokens[i : i + 500])
            )
        )
        ids.update((token, match_id) for token, match_id in found)
    connection.execute(
        insert(_COMBO_MATCH_GAME),
        [
            {
                **{key: value for key, value in game.items() if key != "match_token"},
                "match_id": ids[game["match_token"]],
            }
            for game in games
        ],
    )


def _report(
    school: dict[str, Any],
    totals: dict[str, int],
    days: int,
    school_seconds: float,
    write_seconds: float,
    elapsed: float,
) -> None:
    usernames = school["usernames"]
    click.echo(f"Demo school created in {elapsed:.1f} s.")
    click.echo(
        f"Teacher: {school['teacher']}   password: {school['teacher_password']}   (shown only now; no email)"
    )
    for name, code, size in school["classes"]:
        click.echo(f"  {name}: join code {code}, {size} students")
    click.echo(
        f"Students: {usernames[0]} to {usernames[-1]} ({len(usernames)}), all with the same password: "
        f"{school['student_password']}"
    )
    click.echo("Assignments in every class: " + "; ".join(school["assignments"]) + ".")
    click.echo(
        f"Histories over {days} days: {totals['reviews']:,} reviews, {totals['cards']:,} memory cards, "
        f"{totals['study_rounds']:,} review rounds, {totals['state_iq_games']:,} State IQ games, "
        f"{totals['dashing_rounds']:,} Dashing States rounds, {totals['border_up_rounds']:,} Border-Up rounds, "
        f"{totals['card_games']:,} card games, {totals.get(COMBO_MATCHES, 0):,} Combo 1 matches, "
        f"{totals['assignment_rounds']:,} rounds started from assignments."
    )
    click.echo(
        f"Time: school {school_seconds:.1f} s, histories {elapsed - school_seconds:.1f} s "
        f"(of which writing {write_seconds:.1f} s)."
    )


__all__ = ["init_app", "seed_demo"]
