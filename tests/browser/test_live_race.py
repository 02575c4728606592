"""A Border-Up race in Chromium (issue 22, L-R1 to L-R4): two classmates, each in their own
browser, open, join and start a race; each sees their own 18 cards; a friendly message from one
does not take back the groups the other has chosen; the first right call wins, and the other
page shows the result by itself. The race page passes axe on a phone."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from sqlalchemy import select

from tests.browser.live_support import (
    fits_a_phone,
    no_serious_violations,
    start_duel,
    two_classmates,
)
from trainer.quiz.border_up import solutions
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import BorderUpRound, User


def right_call(app, username: str) -> list[list[str]]:
    with app.app_context():
        row = db.session.execute(
            select(BorderUpRound)
            .join(User, User.id == BorderUpRound.student_id)
            .where(User.username == username)
        ).scalar_one()
        a, b = solutions(row.hand, get_deck())[0]
    return [sorted(a), sorted(b)]


def test_two_classmates_race_at_border_up_each_in_their_own_browser(
    browser, page, live_app, live_server
):
    errors: list[str] = []
    with two_classmates(browser, page, live_app, live_server, errors) as (ana, ben):
        start_duel(ana, ben, re.compile("Border-Up race"))

        # Ben's lobby becomes the race by itself: his own 18 cards, racing ana.b.
        expect(ben.locator("#live-root")).to_contain_text("Racing ana.b")
        expect(ben.locator("#bu-cards li")).to_have_count(18)
        expect(ana.locator("#bu-cards li")).to_have_count(18)
        fits_a_phone(ben)

        # Ben puts a card in group 1; ana's friendly message leaves it there.
        first, _second = right_call(live_app, "ben.c")
        ben.locator(f"#group-{first[0]}").select_option("1")
        ben.evaluate("window.__sameDocument = true")
        ana.get_by_role("button", name="Good luck!").click()
        expect(ben.locator(".live-cheers")).to_contain_text("ana.b: Good luck!")
        assert ben.evaluate("window.__sameDocument === true"), "the race page reloaded"
        expect(ben.locator(f"#group-{first[0]}")).to_have_value("1")

        # Ana calls first, right: she wins, and ben's page shows it by itself.
        calls = right_call(live_app, "ana.b")
        for number, group in enumerate(calls, 1):
            for postal in group:
                ana.locator(f"#group-{postal}").select_option(str(number))
        ana.get_by_role("button", name="GeoPlunge!").click()
        expect(ana.get_by_role("heading", name="You win!")).to_be_visible()
        expect(ben.get_by_role("heading", name="ana.b wins")).to_be_visible(timeout=10_000)
        expect(ben.get_by_text("ana.b's call")).to_be_visible()
        no_serious_violations(ben)
    assert errors == [], errors
