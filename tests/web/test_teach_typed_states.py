"""States typed as postal codes on the pages (ruling P-H6): a teacher's list of states, State IQ moves.

"MT" was read as "mount" and named no state. The core's readers are checked for all 50 codes in
``tests/facts/test_typed_states.py``; here every code goes through the teacher's list parser, and
Montana's code through each page that takes a typed state.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from tests.facts.test_typed_states import POSTALS, typings
from tests.web.test_assignments import assignments, create
from tests.web.test_state_iq import make_game, move, stored
from trainer.cards import load_deck
from trainer.web.extensions import db
from trainer.web.models import StateIqGame
from trainer.web.teach.forms import parse_states

DECK = load_deck()


@pytest.mark.parametrize("postal", POSTALS)
def test_p_h6_the_teachers_list_reads_every_postal_code(postal):
    """P-H6: "MT", "mt", "Mt." ... in a typed list of states are that state, once."""
    for typed in typings(postal):
        assert parse_states(typed, DECK) == ([postal], []), typed
    assert parse_states("; ".join(typings(postal)), DECK) == ([postal], [])


def test_p_h6_the_teachers_list_of_all_50_codes_in_mixed_forms():
    """P-H6: a list of every code, each in another form, names all 50 states and nothing unknown."""
    typed = "\n".join(typings(postal)[n % len(typings(postal))] for n, postal in enumerate(POSTALS))
    assert parse_states(typed, DECK) == (POSTALS, [])


@pytest.mark.parametrize("typed", ["MT", "mt", "Mt."])
def test_p_h6_an_assignment_scoped_to_mt_is_montana(world, app, typed):
    """P-H6: the assignment form accepts "Mt." as Montana instead of calling it "not a US state"."""
    response = create(world, states=f"{typed}, Idaho")
    assert response.status_code == 302, response.get_data(as_text=True)
    (assignment,) = assignments(app)
    assert sorted(assignment.scope["states"]) == ["ID", "MT"]


@pytest.mark.parametrize("typed", ["MT", "mt", "Mt."])
def test_p_h6_a_state_iq_guess_of_mt_is_montana(player, app, student, typed):
    """P-H6: guessing "Mt." when the computer holds Montana is right on the first guess."""
    url = make_game(
        app, student.id, first="student", code="ABC", student_card="CO", computer_card="MT"
    )
    assert move(player, url, typed).status_code == 302
    row = stored(app, url)
    assert row.moves[0] == ["guess", "MT"]


@pytest.mark.parametrize("typed", ["MT", "mt", "Mt."])
def test_p_h6_a_state_iq_border_clue_of_mt_is_montana(player, app, student, typed):
    """P-H6: the student holding Idaho gives "mt" as a border clue: Montana, accepted, no mistake."""
    url = make_game(
        app, student.id, first="computer", code="BBB", student_card="ID", computer_card="HI"
    )
    assert move(player, url, typed).status_code == 302
    with app.app_context():
        row = db.session.execute(
            select(StateIqGame).where(StateIqGame.token == url.rsplit("/", 1)[1])
        ).scalar_one()
        assert row.moves[0] == ["clue", "MT"]
