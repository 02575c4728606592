"""A brand-new student on a 360 × 740 phone (#21): sign up, the welcome, one tap starts the first
round, answer it, and the round's celebration shows the points the answers earned."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import PHONE, sign_up_student
from tests.browser.test_study import answer_with_keyboard
from trainer import points
from trainer.review import ROUND_SIZE


def fits(tab) -> None:
    width = tab.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{tab.url} is {width}px wide"


def test_sign_up_welcome_one_tap_round_and_celebration(phone, live_app):
    page = phone
    sign_up_student(page, "river_otter_from_room_12")

    # The welcome: their name, how it works, the map, and one button on the first screen.
    expect(page.get_by_role("heading", level=1)).to_have_text("Welcome, river_otter_from_room_12!")
    expect(page.get_by_text("Here is how it works")).to_be_visible()
    expect(page.get_by_role("img", name="A map of the 50 states you will learn")).to_be_visible()
    expect(page.locator(".stat-grid")).to_have_count(0)
    start = page.get_by_role("button", name="Start studying")
    expect(start).to_have_count(1)
    box = start.bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"], "the button is on the first screen"
    fits(page)

    # One tap starts the first round.
    start.tap()
    forms = []
    for index in range(1, ROUND_SIZE + 1):
        expect(page.locator(".review__progress")).to_contain_text(f"Fact {index} of {ROUND_SIZE}")
        forms.append(answer_with_keyboard(page, live_app, index))

    # The celebration: the points the answers earned, the states lit, the streak, what is next.
    expect(page.get_by_role("heading", level=1)).to_have_text("Round done!")
    earned = sum(points.points_for("right", form) for form in forms)
    expect(page.locator(".celebrate__number")).to_have_text(str(earned))
    expect(page.locator(".celebrate__points")).to_contain_text(f"{earned} points")
    expect(page.get_by_text(f"{ROUND_SIZE} right, 0 close, 0 to learn.")).to_be_visible()
    expect(page.locator(".celebrate__map")).to_be_visible()
    assert page.locator(".map-state--lit").count() >= 1
    expect(page.locator(".celebrate__learned .gp-card").first).to_be_visible()
    expect(page.locator(".streak")).to_have_text("1 day in a row. Study tomorrow to make it 2.")
    expect(page.get_by_role("heading", name="What comes next")).to_be_visible()
    fits(page)

    # The sound is off until the student turns it on; the choice stays in this browser.
    toggle = page.get_by_role("button", name=re.compile("^Sound"))
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("localStorage.getItem('geoplunge.sound')") == "on"
    page.reload()
    expect(page.get_by_role("button", name="Sound: on")).to_be_visible()

    # Back at the study home: a welcome back and the streak.
    page.goto("/study/")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Welcome back, river_otter_from_room_12!"
    )
    expect(page.locator(".streak")).to_have_text("1 day in a row. Study tomorrow to make it 2.")
    fits(page)


def test_the_celebration_does_not_move_for_a_student_who_asks_for_less_motion(
    browser, live_server, live_app
):
    context = browser.new_context(base_url=live_server, viewport=PHONE, reduced_motion="reduce")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        sign_up_student(page, "still_kid")
        page.get_by_role("button", name="Start studying").click()
        for index in range(1, ROUND_SIZE + 1):
            answer_with_keyboard(page, live_app, index)
        expect(page.get_by_role("heading", level=1)).to_have_text("Round done!")
        assert page.evaluate("document.getAnimations().length") == 0
    finally:
        context.close()
