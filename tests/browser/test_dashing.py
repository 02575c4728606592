"""Dashing States in Chromium: a whole round by keyboard alone, and one ordered by drag and drop."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from sqlalchemy import select

from tests.browser.conftest import sign_up_student
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import DashingRound


def dealt(app):
    with app.app_context():
        row = db.session.execute(select(DashingRound)).scalar_one()
        deck = get_deck()
        return [(deck[p].name, deck[p].capital) for p in row.cards]


def start(page, level_label):
    page.goto("/play/dashing-states/")
    page.get_by_label(level_label).check()
    page.get_by_role("button", name="Deal the Map cards").click()
    expect(page).to_have_url(re.compile(r"/play/dashing-states/[A-Za-z0-9_-]+$"))
    expect(page.locator(".map-state--red")).to_have_count(5)


def test_a_whole_round_by_keyboard(page, live_app):
    sign_up_student(page, "dash_keys")
    start(page, "Practise without a clock")
    cards = dealt(live_app)
    order = sorted(range(5), key=lambda i: cards[i][0])
    places = {i: str(n) for n, i in enumerate(order[:4], start=1)} | {order[4]: "aside"}
    # Names and capitals: Tab through the cards, typing.
    page.locator("#place-0").focus()
    for i in range(5):
        page.keyboard.press("Tab")
        expect(page.locator(f"#name-{i}")).to_be_focused()
        page.keyboard.type(cards[i][0])
        page.keyboard.press("Tab")
        page.keyboard.type(cards[i][1])
        page.keyboard.press("Tab")
    # Places, 1st to 4th and then "Set aside": on a card's place, a key picks the option. A place
    # another card holds is swapped with it, so the places set before stay as they are.
    for i in order:
        page.locator(f"#place-{i}").focus()
        page.keyboard.press("S" if places[i] == "aside" else places[i])
        expect(page.locator(f"#place-{i}")).to_have_value(places[i])
    for i in range(5):
        expect(page.locator(f"#place-{i}")).to_have_value(places[i])
    page.locator(f"#capital-{order[0]}").press("Enter")
    expect(page.get_by_role("status").first).to_contain_text("All right!")
    expect(page.get_by_text("Your time:")).to_be_visible()


def test_a_race_ordered_by_drag_and_drop(page, live_app):
    sign_up_student(page, "dash_drag")
    start(page, "Race a hard computer (about 30 seconds)")
    expect(page.locator("#race-status")).to_contain_text(
        re.compile("The computer has found [0-5] of 5 states")
    )
    cards = dealt(live_app)
    wanted = sorted(
        range(5), key=lambda i: cards[i][0]
    )  # positions in alphabetical order, last set aside
    for i in range(5):
        page.locator(f"#name-{i}").fill(cards[i][0])
        page.locator(f"#capital-{i}").fill(cards[i][1])
    # Drag cards onto the card holding the place each needs, until the places are right.
    for place, position in enumerate(wanted, start=1):
        value = str(place) if place <= 4 else "aside"
        if page.locator(f"#place-{position}").input_value() != value:
            holder = next(i for i in range(5) if page.locator(f"#place-{i}").input_value() == value)
            page.locator(f'.ds__card[data-position="{position}"]').drag_to(
                page.locator(f'.ds__card[data-position="{holder}"]')
            )
        expect(page.locator(f"#place-{position}")).to_have_value(value)
    # The cards are shown in the order of their places.
    expect(page.locator(".ds__card").first).to_have_attribute("data-position", str(wanted[0]))
    page.get_by_role("button", name="GeoPlunge!").click()
    expect(page.get_by_role("status").first).to_contain_text(
        re.compile("You win!|The computer wins|tie")
    )
