"""Fixtures of the Flask-client tests."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import client_for, make_user
from tests.web.test_teach import CODE_A, CODE_B, World, add_member, make_class
from trainer.web.extensions import db
from trainer.web.live import routes as live_routes
from trainer.web.live import state_iq_duel as live_state_iq_duel
from trainer.web.models import ClassMembership, Role, SchoolClass


@pytest.fixture
def world(app: Flask) -> World:
    """Two teachers with a class each, a student in each class and one in none (cheap password
    hashes: these tests log in a lot)."""
    teacher = make_user(app, "ms_lee", role=Role.TEACHER, fast_hash=True)
    other_teacher = make_user(app, "mr_park", role=Role.TEACHER, fast_hash=True)
    student = make_user(app, "river", fast_hash=True)
    other_student = make_user(app, "otter", fast_hash=True)
    loner = make_user(app, "heron", fast_hash=True)
    class_a = make_class(app, teacher.id, "Room 12", CODE_A)
    class_b = make_class(app, other_teacher.id, "Room 7", CODE_B)
    add_member(app, class_a, student.id)
    add_member(app, class_b, other_student.id)
    return World(app, teacher, other_teacher, student, other_student, loner, class_a, class_b)


# --- live tables (tests/web/test_live*.py, with tests/web/live_support.py) --------------------


@pytest.fixture
def school(app: Flask) -> dict[str, int]:
    """A class of three students (ana, ben, cai) and a student of another class (dee)."""
    teacher = make_user(app, "ms.t", role=Role.TEACHER)
    other_teacher = make_user(app, "mr.o", role=Role.TEACHER)
    ids = {name: make_user(app, name).id for name in ("ana", "ben", "cai", "dee")}
    with app.app_context():
        mine = SchoolClass(teacher_id=teacher.id, name="5B", join_code="ABCDEFGH")
        theirs = SchoolClass(teacher_id=other_teacher.id, name="6C", join_code="HGFEDCBA")
        db.session.add_all([mine, theirs])
        db.session.flush()
        for name in ("ana", "ben", "cai"):
            db.session.add(ClassMembership(class_id=mine.id, student_id=ids[name]))
        db.session.add(ClassMembership(class_id=theirs.id, student_id=ids["dee"]))
        db.session.commit()
    return ids


@pytest.fixture
def players(app: Flask, school) -> dict[str, FlaskClient]:
    """A client of each student of ``school``, logged in."""
    return {name: client_for(app, name) for name in ("ana", "ben", "cai", "dee")}


@pytest.fixture
def live_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal live tables and State IQ duels from known seeds (9101, 9102, ...), so every test plays
    the same cards every run (G9). A module asks for it with ``pytestmark = pytest.mark.usefixtures("live_seeds")``."""
    seeds = iter(range(9101, 9200))
    monkeypatch.setattr(live_routes, "new_seed", lambda: next(seeds))
    monkeypatch.setattr(live_state_iq_duel, "new_seed", lambda: next(seeds))
