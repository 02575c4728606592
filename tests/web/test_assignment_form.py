"""The new assignment form (issue #24): a default title that names the scope, and only the fields
that apply to the goal chosen (hidden by script; ignored by the server without it)."""

from __future__ import annotations

import re
from html import unescape

from sqlalchemy import select

from tests.web.test_assignments import assignments, create, form_data
from tests.web.test_teach import post
from trainer.web.extensions import db
from trainer.web.models import AssignmentStudent


def new_form(world) -> str:
    client = world.client("teacher")
    response = client.get(f"/teach/classes/{world.class_a}/assignments/new")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def block(html: str, field: str) -> str:
    """The opening tag of the block that holds ``field``'s input."""
    found = re.search(
        r'(<div data-applies-when="[^"]*" data-applies-values="[^"]*">)(?:(?!<div data-applies).)*?'
        rf'(?:name="{field}"|id="{field}")',
        html,
        re.S,
    )
    assert found, f"no block around {field}"
    return found.group(1)


def test_an_empty_title_names_the_scope_and_the_goal(world, app):
    response = create(
        world,
        activities=["review"],
        facets=["capital"],
        area="region:northeast",
        amount="recall",
        target="90",
        quantity="",
    )
    assert response.status_code == 302
    [row] = assignments(app)
    assert row.title == "Capitals of the Northeast at 90%"


def test_hand_picked_states_are_named(world, app):
    assert (
        create(
            world, facets=["postal"], states="Texas, ohio, UT", amount="reviews", quantity="20"
        ).status_code
        == 302
    )
    [row] = assignments(app)
    assert row.title == "Postal codes of Ohio, Texas and Utah: 20 answers in State IQ"


def test_a_typed_title_is_kept(world, app):
    assert create(world, title="Friday quiz prep").status_code == 302
    assert assignments(app)[0].title == "Friday quiz prep"


def test_each_field_that_applies_sometimes_says_when_and_sits_in_its_block(world):
    html = new_form(world)
    assert block(html, "quantity") == (
        '<div data-applies-when="amount" data-applies-values="reviews rounds">'
    )
    assert block(html, "target") == '<div data-applies-when="amount" data-applies-values="recall">'
    assert block(html, "test_target") == (
        '<div data-applies-when="amount" data-applies-values="reviews rounds">'
    )
    assert block(html, "students") == '<div data-applies-when="who" data-applies-values="some">'
    text = unescape(html)
    assert "Only for a number of rounds or answers. Rounds: 1 to 50." in text
    assert "Only for a goal. From 50 to 97." in text
    assert "Only for a number of rounds or answers: a goal aims at its own percent" in text
    assert "Only for “Only the students ticked below”." in text
    # Without script nothing is hidden; the script that hides is loaded deferred, not inline.
    assert " hidden" not in re.sub(r'class="[^"]*"|type="hidden"|aria-hidden="true"', "", html)
    assert re.search(r'<script src="/static/js/assignment_form\.js\?v=\w+" defer></script>', html)
    assert "Capitals of the Northeast at 90%" in text  # the title's hint gives an example


def test_a_stale_how_many_is_not_saved_with_a_goal(world, app):
    """'How many: 5' left filled in (hidden by the script) when 'A goal' is chosen saves no quantity."""
    response = create(world, activities=["review"], amount="recall", target="85", quantity="5")
    assert response.status_code == 302
    [row] = assignments(app)
    assert (row.amount, row.quantity, row.target) == ("recall", None, 0.85)


def test_values_in_fields_that_do_not_apply_are_ignored_even_when_wrong(world, app):
    # A goal with an unreadable "How many", a test-day percent off the list, and ticks of
    # students (even one of another class) while the assignment is for everyone.
    response = create(
        world,
        activities=["review"],
        amount="recall",
        target="80",
        quantity="lots",
        test_target="12",
        who="everyone",
        students=[str(world.other_student.id)],
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    [row] = assignments(app)
    assert (row.quantity, row.target, row.test_target, row.everyone) == (None, 0.8, None, True)
    with app.app_context():
        assert db.session.execute(select(AssignmentStudent)).first() is None
    # A number of rounds with a goal percent out of range: the goal is ignored.
    assert create(world, amount="rounds", quantity="3", target="400").status_code == 302
    row = assignments(app)[-1]
    assert (row.amount, row.quantity, row.target) == ("rounds", 3, None)


def test_a_field_that_applies_is_still_checked(world, app):
    response = create(world, amount="recall", target="abc", quantity="5")
    assert response.status_code == 400
    assert "Type a goal from 50 to 97 (%)." in response.get_data(as_text=True)
    assert assignments(app) == []


def test_the_title_field_suggests_the_default_after_a_preview(world, app):
    client = world.client("teacher")
    response = post(
        client,
        f"/teach/classes/{world.class_a}/assignments/new",
        {
            **form_data(activities=["review"], facets=["map"], amount="reviews", quantity="20"),
            "preview": "1",
        },
    )
    assert response.status_code == 200
    title_input = re.search(r'<input[^>]*name="title"[^>]*>', response.get_data(as_text=True))
    assert title_input and 'placeholder="Map of all 50 states: 20 answers in Flashcard review"' in (
        title_input.group(0)
    )
    assert 'maxlength="80"' in title_input.group(0)
    assert assignments(app) == []
