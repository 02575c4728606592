"""``flask seed-demo``: a whole demo school with consistent histories, or nothing at all."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from sqlalchemy import func, select

from tests.conftest import AuthActions
from trainer.web import demo
from trainer.web.extensions import db
from trainer.web.models import (
    JOIN_CODE_ALPHABET,
    Assignment,
    AssignmentRound,
    BorderUpRound,
    CardGame,
    ClassMembership,
    ComboMatch,
    ComboMatchGame,
    DashingRound,
    MemoryCard,
    ReviewLog,
    Role,
    SchoolClass,
    StateIqGame,
    StudyRound,
    User,
)
from trainer.web.modes import adapter

MODELS = (
    User,
    SchoolClass,
    ClassMembership,
    Assignment,
    AssignmentRound,
    ReviewLog,
    MemoryCard,
    StudyRound,
    StateIqGame,
    DashingRound,
    BorderUpRound,
    CardGame,
    ComboMatch,
    ComboMatchGame,
)


@pytest.fixture
def cli(app: Flask):
    """The app's command-line runner, with seed-demo registered (create_app may not do it yet)."""
    if "seed-demo" not in app.cli.commands:
        demo.init_app(app)
    return app.test_cli_runner()


def _counts(app: Flask) -> dict[str, int]:
    with app.app_context():
        return {
            model.__name__: db.session.execute(select(func.count()).select_from(model)).scalar_one()
            for model in MODELS
        }


def _seed(cli, *args: str):  # type: ignore[no-untyped-def]
    result = cli.invoke(args=["seed-demo", "--students", "4", "--days", "10", *args])
    assert result.exit_code == 0, result.output + repr(result.exception)
    return result


def test_seed_demo_creates_a_consistent_school(app: Flask, cli) -> None:
    result = _seed(cli)
    out = result.output
    teacher_password = re.search(r"Teacher: demo_teacher\s+password: (\S+)", out).group(1)
    student_password = re.search(r"all with the same password: (\S+)", out).group(1)
    assert "demo001 to demo004" in out and "Demo class 1" in out and " s." in out
    with app.app_context():
        teacher = db.session.execute(
            select(User).where(User.username == "demo_teacher")
        ).scalar_one()
        assert (
            teacher.role is Role.TEACHER
            and teacher.email is None
            and teacher.check_password(teacher_password)
        )
        students = (
            db.session.execute(
                select(User).where(User.role == Role.STUDENT).order_by(User.username)
            )
            .scalars()
            .all()
        )
        assert [s.username for s in students] == ["demo001", "demo002", "demo003", "demo004"]
        assert all(
            s.check_password(student_password) and s.email is None and s.time_zone for s in students
        )
        classes = db.session.execute(select(SchoolClass)).scalars().all()
        assert [(k.name, k.teacher_id) for k in classes] == [("Demo class 1", teacher.id)]
        code = classes[0].join_code
        assert len(code) == 8 and set(code) <= set(JOIN_CODE_ALPHABET) and code in out
        members = db.session.execute(select(ClassMembership.student_id)).scalars().all()
        assert sorted(members) == [s.id for s in students]
        assignments = db.session.execute(select(Assignment).order_by(Assignment.id)).scalars().all()
        assert len(assignments) == 3 and {a.class_id for a in assignments} == {classes[0].id}
        assert {a.amount for a in assignments} == {"rounds", "recall", "reviews"}
        # Every review is in a memory card's count, student by student.
        logs = dict(
            db.session.execute(
                select(ReviewLog.student_id, func.count()).group_by(ReviewLog.student_id)
            ).all()
        )
        reps = dict(
            db.session.execute(
                select(MemoryCard.student_id, func.sum(MemoryCard.reps)).group_by(
                    MemoryCard.student_id
                )
            ).all()
        )
        assert logs == reps and sum(logs.values()) > 0
        assert set(logs) <= {s.id for s in students}
        # P-M1: each card holds its last review's study day, as memory._write writes it.
        grouped = select(
            ReviewLog.student_id, ReviewLog.fact_key, func.max(ReviewLog.study_day)
        ).group_by(ReviewLog.student_id, ReviewLog.fact_key)
        last_days = {(sid, key): day for sid, key, day in db.session.execute(grouped)}
        card_days = {
            (c.student_id, c.fact_key): c.last_study_day
            for c in db.session.execute(select(MemoryCard)).scalars()
        }
        assert card_days == last_days
        review_tokens = set(
            db.session.execute(
                select(ReviewLog.round_token).where(ReviewLog.mode == "review")
            ).scalars()
        )
        rounds = {f"review:{t}" for t in db.session.execute(select(StudyRound.token)).scalars()}
        assert review_tokens <= rounds
        linked = db.session.execute(
            select(AssignmentRound.assignment_id, AssignmentRound.student_id)
        ).all()
        assert all(a in {x.id for x in assignments} and s in members for a, s in linked)
        last_seen = {s.id: s.last_login_at for s in students}
        for sid, seen in last_seen.items():
            latest = db.session.execute(
                select(func.max(ReviewLog.reviewed_at)).where(ReviewLog.student_id == sid)
            ).scalar_one()
            assert seen == latest
    totals = _counts(app)
    assert f"{totals['ReviewLog']:,} reviews" in out


def test_a_second_run_with_the_same_teacher_is_refused_and_changes_nothing(app: Flask, cli) -> None:
    _seed(cli)
    before = _counts(app)
    again = cli.invoke(args=["seed-demo", "--students", "4", "--days", "10"])
    assert again.exit_code != 0
    assert (
        "already a user called demo_teacher" in again.output
        and "nothing was created" in again.output
    )
    assert _counts(app) == before
    # Another teacher, but students who exist already: refused too, before anything is written.
    clash = cli.invoke(
        args=["seed-demo", "--students", "2", "--days", "3", "--teacher", "other_teacher"]
    )
    assert clash.exit_code != 0 and "demo001" in clash.output
    assert _counts(app) == before
    with app.app_context():
        assert (
            db.session.execute(select(User).where(User.username == "other_teacher")).first() is None
        )


def test_another_school_beside_the_first(app: Flask, cli) -> None:
    _seed(cli)
    first = _counts(app)
    # The same seed: the same learners, but their own round tokens (the unique keys do not clash).
    result = _seed(cli, "--teacher", "ms_rivera", "--prefix", "riv", "--classes", "2")
    assert "riv001 to riv004" in result.output
    second = _counts(app)
    assert (
        second["User"] == first["User"] + 5
        and second["SchoolClass"] == 3
        and second["Assignment"] == 9
    )
    with app.app_context():
        sizes = db.session.execute(
            select(SchoolClass.name, func.count(ClassMembership.id))
            .join(ClassMembership, ClassMembership.class_id == SchoolClass.id)
            .join(User, User.id == SchoolClass.teacher_id)
            .where(User.username == "ms_rivera")
            .group_by(SchoolClass.name)
        ).all()
    assert sorted(sizes) == [("Demo class 1", 2), ("Demo class 2", 2)]


def test_bad_options_are_refused(app: Flask, cli) -> None:
    assert cli.invoke(args=["seed-demo", "--students", "2", "--classes", "3"]).exit_code != 0
    assert cli.invoke(args=["seed-demo", "--time-zone", "Mars/Olympus"]).exit_code != 0
    assert cli.invoke(args=["seed-demo", "--teacher", "a b"]).exit_code != 0
    assert _counts(app)["User"] == 0


def test_worker_processes_write_the_same_kind_of_school(app: Flask, cli) -> None:
    _seed(cli, "--workers", "1", "--students", "2", "--days", "6")
    with app.app_context():
        logs = dict(
            db.session.execute(
                select(ReviewLog.student_id, func.count()).group_by(ReviewLog.student_id)
            ).all()
        )
        reps = dict(
            db.session.execute(
                select(MemoryCard.student_id, func.sum(MemoryCard.reps)).group_by(
                    MemoryCard.student_id
                )
            ).all()
        )
    assert logs == reps and len(logs) == 2


def test_the_teacher_sees_the_class(app: Flask, cli, client, auth: AuthActions) -> None:
    result = _seed(cli)
    password = re.search(r"Teacher: demo_teacher\s+password: (\S+)", result.output).group(1)
    auth.login("demo_teacher", password)
    with app.app_context():
        class_id = db.session.execute(select(SchoolClass.id)).scalar_one()
    page = client.get(f"/teach/classes/{class_id}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "demo001" in text
    # The assignments are titled as the form titles an untitled one (issue 24): what, where, how much.
    for title in (
        "Capitals, Postal codes and Borders of all 50 states: 5 rounds of State IQ",
        "Capitals of the West at 90%",
        "Borders of all 50 states: 40 answers",
    ):
        assert f">{title}</a>" in text


def test_a_failure_half_way_leaves_no_partial_school(
    app: Flask, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = demo.simulate

    def failing(deck, index, **kwargs):  # type: ignore[no-untyped-def]
        if index == 3:
            raise RuntimeError("the power went out")
        return real(deck, index, **kwargs)

    monkeypatch.setattr(demo, "simulate", failing)
    monkeypatch.setattr(
        demo, "BATCH_REVIEWS", 10
    )  # the first students' histories are written before it fails
    result = cli.invoke(args=["seed-demo", "--students", "4", "--days", "10"])
    assert result.exit_code != 0 and isinstance(result.exception, RuntimeError)
    assert all(count == 0 for count in _counts(app).values())


def test_the_demo_students_play_combo_1_matches(
    app: Flask, cli, client, auth: AuthActions, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each match's games point at the match (by its id, which only the database knows) and at
    a round of their own mode, all the same student's; the student's Combo 1 pages show them."""
    monkeypatch.setattr(demo, "COMBO_SESSIONS", 5.0)  # most of their own sessions: surely some
    result = _seed(cli, "--students", "3")
    assert "Combo 1 matches" in result.output
    password = re.search(r"all with the same password: (\S+)", result.output).group(1)
    with app.app_context():
        matches = {m.id: m for m in db.session.execute(select(ComboMatch)).scalars()}
        games = db.session.execute(select(ComboMatchGame)).scalars().all()
        assert matches and games
        assert f"{len(matches):,} Combo 1 matches" in result.output
        positions: dict[int, list[int]] = {}
        for game in games:
            match = matches[game.match_id]  # a real match
            model = adapter(game.game).rounds.model  # type: ignore[union-attr]
            row = db.session.execute(select(model).where(model.token == game.token)).scalar_one()
            assert row.student_id == match.student_id  # a real round of its mode, theirs
            assert match.started_at <= game.created_at < match.bell_at
            positions.setdefault(match.id, []).append(game.position)
        assert all(sorted(p) == list(range(len(p))) for p in positions.values())
        assert set(positions) == set(matches)  # every match has its games
        assert all(m.result in {"won", "lost", "tied"} for m in matches.values())
        student_id, username = db.session.execute(
            select(User.id, User.username)
            .join(ComboMatch, ComboMatch.student_id == User.id)
            .group_by(User.id, User.username)
            .order_by(func.count().desc(), User.id)
        ).first()
        theirs = sorted(
            (m for m in matches.values() if m.student_id == student_id),
            key=lambda m: (m.created_at, m.id),
            reverse=True,
        )
    auth.login(username, password)
    index = client.get("/play/combo/")
    assert index.status_code == 200
    text = index.get_data(as_text=True)
    listed = [m for m in theirs if f"/play/combo/{m.token}" in text]
    assert listed == theirs[:20]  # the page lists the last 20
    for match in theirs:
        page = client.get(f"/play/combo/{match.token}")
        assert page.status_code == 200, match.token
