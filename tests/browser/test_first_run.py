"""A brand-new student on a 360 × 740 phone (#21): sign up, the welcome, one tap starts the first
round, answer it (its states found on the map, P-M13, the first one by a tap), the round's
celebration shows the points the answers earned, the album; then tomorrow, with the clock moved a
day on, a true welcome back."""

from __future__ import annotations

import datetime as dt
import re

import time_machine
from playwright.sync_api import expect
from sqlalchemy import select

from tests.browser.conftest import PHONE, sign_up_student
from tests.browser.test_study import answer_with_keyboard, asked
from trainer import points
from trainer.facts import Form
from trainer.review import ROUND_SIZE, pick_map
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.memory import queue, summary
from trainer.web.models import StudyRound, User


def fits(tab) -> None:
    tab.wait_for_load_state("load")  # the stylesheet applied, the navigation done
    width = tab.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{tab.url} is {width}px wide"


def tap_the_state(page, app, postal: str) -> None:
    """Tap ``postal`` on the question's pick map, as a finger would: at a point inside its outline
    (found by the browser's own hit test), after the map's frame has scrolled it into view."""
    q_url = page.url
    token, index = q_url.rstrip("/").split("/")[-2:]
    with app.app_context():
        seed = db.session.execute(
            select(StudyRound.seed).where(StudyRound.token == token)
        ).scalar_one()
        spot = pick_map(get_deck(), seed, int(index)).spot_of(postal)
    path = page.locator(f'[data-spot="{spot}"]')
    path.scroll_into_view_if_needed()
    point = path.evaluate(
        """(el) => {
          const box = el.getBBox(), m = el.getScreenCTM();
          for (let i = 1; i < 20; i++) for (let j = 1; j < 20; j++) {
            const p = new DOMPoint(box.x + box.width * i / 20, box.y + box.height * j / 20);
            if (!el.isPointInFill(p)) continue;
            const s = p.matrixTransform(m);
            if (document.elementFromPoint(s.x, s.y) === el) return [s.x, s.y];
          }
          return null;
        }"""
    )
    assert point, f"no point of {postal} to tap"
    page.touchscreen.tap(*point)


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

    # One tap starts the first round: its new states are found on the map (P-M13).
    start.tap()
    forms = []
    tapped = False
    for index in range(1, ROUND_SIZE + 1):
        expect(page.locator(".review__progress")).to_contain_text(f"Fact {index} of {ROUND_SIZE}")
        page.wait_for_load_state()
        q = asked(live_app, page.url)
        if q.form is Form.MAP_CLICK and not tapped:
            expect(page.get_by_role("group", name=q.prompt)).to_be_visible()
            fits(page)
            tap_the_state(page, live_app, q.fact.postal)
            expect(page.get_by_role("heading", level=1)).to_have_text("Right!")
            page.get_by_role("link", name="Next fact").tap()
            forms.append(q.form)
            tapped = True
            continue
        forms.append(answer_with_keyboard(page, live_app, index))
    assert tapped and forms.count(Form.MAP_CLICK) >= 1, f"the first round finds states: {forms}"

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

    # The album: the states met so far, each card started.
    page.goto("/progress/album/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    fits(page)

    # Back at the study home the same day: a welcome back and the streak.
    page.goto("/study/")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Welcome back, river_otter_from_room_12!"
    )
    expect(page.locator(".streak")).to_have_text("1 day in a row. Study tomorrow to make it 2.")
    fits(page)

    # Tomorrow (the whole process's clock moved a day on): a true welcome back, with the facts
    # that came back today, the streak to keep, and one next step that leads to those facts.
    with time_machine.travel(dt.datetime.now(dt.UTC) + dt.timedelta(days=1), tick=True):
        page.goto("/study/")
        expect(page.get_by_role("heading", level=1)).to_have_text(
            "Welcome back, river_otter_from_room_12!"
        )
        expect(page.locator(".streak")).to_have_text("1 day in a row — study today to make it 2.")
        with live_app.app_context():
            student = db.session.execute(
                select(User).where(User.username == "river_otter_from_room_12")
            ).scalar_one()
            due = summary(student).due_now
            coming = queue(student, get_deck(), size=ROUND_SIZE)
        assert due >= 1, "a right pick (Hard) comes back the next study day"
        expect(page.locator('[data-state="due"]')).to_contain_text(
            f"{due} fact{'' if due == 1 else 's'} {'is' if due == 1 else 'are'} due now."
        )
        fits(page)
        page.get_by_role("button", name="Start studying").tap()
        expect(page.locator(".review__progress")).to_contain_text("Fact 1 of")
        page.wait_for_load_state()
        assert asked(live_app, page.url).fact.key == coming[0], "the round starts with what is due"


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
