"""A student plays a whole game of State IQ with the keyboard alone."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from sqlalchemy import select

from tests.browser.conftest import add_state_iq_game, sign_up_student
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import StateIqGame


def test_a_whole_game_of_state_iq_by_keyboard(page, live_app):
    sign_up_student(page, "clue_kid")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="State IQ").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("State IQ")
    page.get_by_role("radio", name=re.compile("^Hard")).focus()
    page.keyboard.press("Space")
    page.get_by_role("button", name="Deal the cards").focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/play/state-iq/[A-Za-z0-9_-]+$"))
    expect(page.get_by_text("Power card:")).to_be_visible()

    with live_app.app_context():
        row = db.session.execute(select(StateIqGame)).scalar_one()
        deck = get_deck()
        secret = deck[row.computer_card].name
        neighbours = [s.name for s in deck.neighbours(row.student_card)]
        wrong = next(s.name for s in deck if s.postal not in (row.computer_card, row.student_card))
    assert row.level == "hard"
    expect(page.get_by_role("heading", name="The computer’s card")).to_have_count(0)

    guesses = [wrong, secret]
    for _ in range(10):
        turn = page.locator("input[name=turn]")
        if turn.count() == 0:
            break
        made = turn.get_attribute("value")
        expect(page.locator("#answer")).to_be_focused()
        label = page.locator("label[for=answer]").inner_text()
        page.keyboard.type(guesses.pop(0) if "guess" in label else neighbours.pop(0))
        page.keyboard.press("Enter")
        # The next page has the next turn, or no move form at all once the game is over.
        expect(page.locator(f"input[name=turn][value='{made}']")).to_have_count(0)
    expect(page.get_by_role("status").first).to_contain_text(
        re.compile("You win!|The computer wins|tie")
    )
    expect(page.get_by_role("heading", name="The computer’s card")).to_be_visible()
    # The computer's first guess may be the same state (both lists are shown): either one will do.
    expect(page.get_by_text(f"Guess 1: {wrong}").first).to_be_visible()
    expect(
        page.get_by_text("does not fit the clue")
        .or_(page.get_by_text("fitted the clues so far"))
        .first
    ).to_be_visible()


def test_a_guess_can_be_picked_on_the_map(page, live_app):
    sign_up_student(page, "map_picker")
    add_state_iq_game(live_app, "picked")
    page.goto("/play/state-iq/picked")
    page.get_by_text("Or pick the state on the map").click()
    page.locator('[data-postal="OH"]').click()
    expect(page.get_by_text("Guess 1: Ohio")).to_be_visible()
