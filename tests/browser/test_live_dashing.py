"""A Dashing States race in Chromium (issue 22, L-D1 to L-D4): two classmates, each in their own
browser, open, join and start a race; each sees their own five Map cards and a clock running from
the start; a friendly message from one does not take back what the other has typed, nor starts the
clock again; the first right call wins, and the other page
shows the result by itself, with the caller's call judged. The race page passes axe on a phone."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, expect
from sqlalchemy import select

from tests.browser.live_support import fits_a_phone, start_duel, two_classmates
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import DashingRound, User


def dealt(app, username: str) -> list[tuple[str, str]]:
    """The names and capitals of the student's five cards, by position."""
    with app.app_context():
        row = db.session.execute(
            select(DashingRound)
            .join(User, User.id == DashingRound.student_id)
            .where(User.username == username)
        ).scalar_one()
        deck = get_deck()
        return [(deck[p].name, deck[p].capital) for p in row.cards]


def seconds(shown: str) -> int:
    """The seconds a clock shows as m:ss."""
    minutes, secs = shown.strip().split(":")
    return int(minutes) * 60 + int(secs)


def running(clock: Locator) -> str:
    """The clock is shown and its time changes by itself; the time it shows then."""
    expect(clock).to_be_visible()
    expect(clock).to_have_text(re.compile(r"^\d+:\d\d$"))
    shown = clock.inner_text()
    expect(clock).not_to_have_text(shown)
    return clock.inner_text()


def test_two_classmates_race_at_dashing_states_each_in_their_own_browser(
    browser, page, live_app, live_server
):
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    with two_classmates(browser, page, live_app, live_server, errors) as (ana, ben):
        start_duel(ana, ben, re.compile("Dashing States race"))

        # Ben's lobby becomes the race by itself: his own five Map cards, racing ana.b.
        expect(ben.locator("#live-root")).to_contain_text("Racing ana.b")
        expect(ben.locator("#ds-cards .map-state--red")).to_have_count(5)
        expect(ana.locator("#ds-cards .map-state--red")).to_have_count(5)
        # Each page's clock runs from the start (as against the computer).
        for racer in (ana, ben):
            running(racer.get_by_role("timer", name="Time since the start"))
        fits_a_phone(ben)

        # Ben types a name; ana's friendly message leaves it there.
        ben_cards = dealt(live_app, "ben.c")
        ben.locator("#name-0").fill(ben_cards[0][0])
        ben.evaluate("window.__sameDocument = true")
        clock = ben.get_by_role("timer", name="Time since the start")
        before = seconds(clock.inner_text())
        ana.get_by_role("button", name="Good luck!").click()
        expect(ben.locator(".live-cheers")).to_contain_text("ana.b: Good luck!")
        assert ben.evaluate("window.__sameDocument === true"), "the race page reloaded"
        expect(ben.locator("#name-0")).to_have_value(ben_cards[0][0])
        # The message put a new copy of the race line in place: one clock, still running, not
        # started again.
        expect(ben.locator("#ds-clock")).to_have_count(1)
        assert seconds(running(clock)) >= before

        # Ana calls first, everything right: she wins, and ben's page shows it by itself.
        cards = dealt(live_app, "ana.b")
        order = sorted(range(5), key=lambda i: cards[i][0])
        places = {i: str(n) for n, i in enumerate(order[:4], start=1)} | {order[4]: "aside"}
        for i in range(5):
            ana.locator(f"#name-{i}").fill(cards[i][0])
            ana.locator(f"#capital-{i}").fill(cards[i][1])
        # A place another card holds is swapped with it, so the places set before stay.
        for i in order:
            ana.locator(f"#place-{i}").select_option(places[i])
        for i in range(5):
            expect(ana.locator(f"#place-{i}")).to_have_value(places[i])
        ana.get_by_role("button", name="GeoPlunge!").click()
        expect(ana.get_by_role("heading", name="You win!")).to_be_visible()
        expect(ben.get_by_role("heading", name="ana.b wins")).to_be_visible(timeout=10_000)
        expect(ben.get_by_role("heading", name="ana.b's call")).to_be_visible()
        expect(ben.get_by_text("Your cards were")).to_be_visible()
        expect(ben.get_by_text("The clock stopped at")).to_be_visible()
        expect(ben.locator("#ds-clock")).to_have_count(0)
        expect(ben.locator("#live-root")).to_contain_text(cards[order[0]][0])
        fits_a_phone(ben)
    assert errors == [], errors
