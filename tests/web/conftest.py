"""Fixtures of the Flask-client tests."""

from __future__ import annotations

import pytest
from flask import Flask

from tests.conftest import make_user
from tests.web.test_teach import CODE_A, CODE_B, World, add_member, make_class
from trainer.web.models import Role


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
