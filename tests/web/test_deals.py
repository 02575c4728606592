"""New students' deals cannot be guessed (issue 18, section 3: predictable deals).

Every new student's State IQ computer card was Washington (the first fact of their queue), so
"Washington" won on the first guess, and every new student got the same five Dashing States
cards. Deals are now drawn among the student's weakest states with the round's own seed: they
differ from student to student, replay from their seed, and stay within an assignment's scope.
"""

from __future__ import annotations

import secrets

import pytest

from tests.conftest import make_user
from trainer.cards import Region
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import User
from trainer.web.play import border_up, dashing, routes

STUDENTS = 20


@pytest.fixture
def new_students(app) -> list[int]:
    return [make_user(app, f"new{n}").id for n in range(STUDENTS)]


def dealt(app, ids, deal):
    """What ``deal(user)`` gives each of the students (nothing is kept)."""
    with app.app_context():
        try:
            return [deal(db.session.get(User, student_id)) for student_id in ids]
        finally:
            db.session.rollback()


def test_new_students_get_different_state_iq_cards(app, new_students):
    cards = dealt(
        app, new_students, lambda user: routes.new_state_iq(user, "easy", False).computer_card
    )
    assert cards.count("WA") < STUDENTS, "not Washington for everyone"
    assert len(set(cards)) >= 5


def test_new_students_get_different_dashing_hands(app, new_students):
    hands = dealt(
        app, new_students, lambda user: frozenset(dashing.new_dashing(user, "easy").cards)
    )
    assert len(set(hands)) >= 10


def test_a_deal_comes_from_its_seed(app, new_students, monkeypatch):
    """Two students with the same queue and the same seed get the same deal: nothing else is random."""
    monkeypatch.setattr(secrets, "randbits", lambda bits: 12345)  # the seed every deal draws
    two = new_students[:2]
    iq = dealt(app, two, lambda user: (routes.new_state_iq(user, "easy", False).computer_card,))
    cards = dealt(app, two, lambda user: tuple(dashing.new_dashing(user, "easy").cards))
    hands = dealt(app, two, lambda user: tuple(border_up.new_border_up(user, "easy").hand))
    assert iq[0] == iq[1] and cards[0] == cards[1] and hands[0] == hands[1]


def test_a_scope_still_restricts_every_deal(app, new_students):
    """P-A1: a scoped deal draws within the scope, whoever deals it."""
    with app.app_context():
        west = {s.postal for s in get_deck().in_region(Region.WEST)}
    cards = dealt(
        app,
        new_students,
        lambda user: routes.new_state_iq(user, "easy", False, postals=west).computer_card,
    )
    assert set(cards) <= west and len(set(cards)) >= 3
    hands = dealt(
        app, new_students, lambda user: dashing.new_dashing(user, "easy", postals=west).cards
    )
    assert all(set(hand) <= west for hand in hands)
