"""A full round of Border-Up in Chromium: cards picked by click and by keyboard."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from sqlalchemy import select

from tests.browser.conftest import sign_up_student
from trainer.quiz.border_up import solutions
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import BorderUpRound


def test_a_full_round_of_border_up(page, live_app):
    sign_up_student(page, "border_kid")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Border-Up").click()
    page.get_by_label("Hard (about 30 seconds)").check()
    page.get_by_role("button", name="Deal the cards").click()
    expect(page.locator(".bu__back")).to_have_count(18)
    expect(page.get_by_role("button", name="Ready, Set, GeoPlunge!")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".bu__card")).to_have_count(18)
    expect(page.locator("#race-status")).to_be_visible()

    with live_app.app_context():
        row = db.session.execute(select(BorderUpRound)).scalar_one()
        first, second = solutions(row.hand, get_deck())[0]
        names = {p: get_deck()[p].name for p in first | second}
    for postal in first:  # group 1 by click (a click puts a card in group 1)
        page.locator(".bu__card", has=page.locator(f"#group-{postal}")).locator(
            ".bu__postal"
        ).click()
        expect(page.locator(f"#group-{postal}")).to_have_value("1")
    for postal in second:  # group 2 by keyboard: focus the card's list and press "G" twice
        page.locator(f"#group-{postal}").focus()
        page.keyboard.press("G")
        page.keyboard.press("G")
        expect(page.locator(f"#group-{postal}")).to_have_value("2")
    page.get_by_role("button", name="GeoPlunge!").click()
    expect(page.get_by_role("status").first).to_contain_text(
        re.compile("You win!|The computer wins|tie")
    )
    for postal in first | second:
        expect(page.locator(".bu__groups")).to_contain_text(names[postal])
