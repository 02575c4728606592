"""Instant answers (#21): a round of 10 choice facts by keyboard alone on one page load, Back and
Forward between the facts, a refusal shown in place, and the same round with JavaScript off."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from sqlalchemy import func, select

from tests.browser.conftest import sign_up_student
from tests.browser.test_study import asked, right_answer
from trainer.facts import Form
from trainer.review import ROUND_SIZE
from trainer.web.extensions import db
from trainer.web.models import ReviewLog, StudyRound, User


def _reviews(app) -> int:
    with app.app_context():
        return db.session.execute(select(func.count()).select_from(ReviewLog)).scalar_one()


def _tab_to(page, test: str, key: str = "Tab") -> None:
    """Press ``key`` until the focused element passes the JavaScript ``test`` (of ``el``)."""
    for _ in range(40):
        page.keyboard.press(key)
        if page.evaluate(f"(el => {test})(document.activeElement)"):
            return
    raise AssertionError(f"nothing focused passes {test} within 40 presses of {key}")


def _start_capitals_by_keyboard(page) -> None:
    """Focus on capitals (new map facts are found on the map, P-M13; capitals are picked) and
    start, by the keyboard alone: open "Focus on some facts", tick Capitals, back to Start."""
    _tab_to(page, "el.textContent.trim() === 'Focus on some facts'")
    page.keyboard.press("Enter")
    _tab_to(page, "el.value === 'capital'")
    page.keyboard.press("Space")
    _tab_to(page, "el.textContent.trim() === 'Start studying'", key="Shift+Tab")
    page.keyboard.press("Enter")


def test_a_round_of_ten_choice_facts_by_keyboard_alone_is_one_page_load(page, live_app):
    sign_up_student(page, "quick_quinn")
    loads: list[str] = []
    page.on("load", lambda: loads.append(page.url))
    _start_capitals_by_keyboard(page)
    expect(page.get_by_text(f"Fact 1 of {ROUND_SIZE}", exact=False).first).to_be_visible()
    actions = 0
    for index in range(1, ROUND_SIZE + 1):
        expect(page).to_have_url(re.compile(rf"/study/rounds/[^/]+/{index}$"))
        expect(page.locator(".review__progress")).to_contain_text(f"Fact {index} of {ROUND_SIZE}")
        q = asked(live_app, page.url)
        assert q.form is Form.CHOICE, "a new student's first capitals are multiple choice"
        # No Check button with JavaScript on: the number key answers at once.
        expect(page.locator("#check")).to_be_hidden()
        answer = right_answer(live_app, q)
        # A wrong one now and then: the feedback teaches in place too.
        wrong = index in (4, 7)
        pick = next(c for c in q.choices if c != answer) if wrong else answer
        page.keyboard.press(str(q.choices.index(pick) + 1))
        actions += 1
        heading = page.get_by_role("heading", level=1)
        expect(heading).to_have_text("Not this time" if wrong else "Right!")
        expect(page.locator("#verdict-title")).to_be_focused()
        expect(page.locator("#study-said")).to_contain_text("The answer: ")
        expect(page.locator("#study-said")).to_have_attribute("aria-live", "polite")
        expect(page.locator(".verdict__expected")).to_have_text(answer)
        assert _reviews(live_app) == index, "each answer is one review, at once"
        if index == 3:
            # Back shows fact 2 as it is now (its feedback); Forward comes back to fact 3's.
            page.go_back()
            expect(page).to_have_url(re.compile(r"/2$"))
            expect(page.locator(".review__progress")).to_contain_text(f"Fact 2 of {ROUND_SIZE}")
            expect(heading).to_have_text("Right!")
            page.go_forward()
            expect(page).to_have_url(re.compile(r"/3$"))
            expect(page.locator(".review__progress")).to_contain_text(f"Fact 3 of {ROUND_SIZE}")
            expect(page.locator("#verdict-title")).to_be_focused()
        if index < ROUND_SIZE:
            expect(page.locator("#next")).to_have_text("Next fact")
            assert loads == [loads[0]], f"one page load for the whole round so far: {loads}"
        page.keyboard.press("Enter")
        actions += 1
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round done")
    page.wait_for_load_state("load")  # the heading shows before the page's load event fires
    assert actions == 2 * ROUND_SIZE, "pick and Next for each fact: 20 actions, not 30"
    assert len(loads) == 2, f"the round's start and its summary: {loads}"
    assert re.search(r"/study/rounds/[^/]+/1$", loads[0]) and loads[1].endswith("/done")
    assert _reviews(live_app) == ROUND_SIZE
    # Back from the summary: the last fact's page (never its JSON), as it is now.
    page.go_back()
    expect(page).to_have_url(re.compile(rf"/{ROUND_SIZE}$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Right!")
    assert page.evaluate("document.contentType") == "text/html"


def test_a_refusal_is_shown_in_place_and_a_reload_shows_the_same_page(page, live_app):
    page.set_viewport_size({"width": 360, "height": 740})
    sign_up_student(page, "typo_tess")
    with live_app.app_context():
        student = db.session.execute(select(User).where(User.username == "typo_tess")).scalar_one()
        items = [["CO:capital", "typed"], ["UT:capital", "choice"], ["NV:capital", "choice"]]
        items.append(["TX:map", "map_click"])
        db.session.add(
            StudyRound(token="instant", student_id=student.id, seed=7, items=items, focus={})
        )
        db.session.commit()
    loads: list[str] = []
    page.on("load", lambda: loads.append(page.url))
    page.goto("/study/rounds/instant/1")
    expect(page.get_by_label("Your answer")).to_be_focused()
    page.keyboard.press("Enter")  # nothing typed
    expect(page.get_by_role("alert")).to_contain_text("Type an answer")
    expect(page.get_by_label("Your answer")).to_be_focused()
    assert _reviews(live_app) == 0
    page.keyboard.type("Denver")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Right!")
    page.keyboard.press("Enter")
    # A choice by the arrow keys, which only move between the options, then Space answers.
    expect(page).to_have_url(re.compile(r"/instant/2$"))
    for _ in range(4):
        if page.evaluate("document.activeElement.value") == "Salt Lake City":
            break
        page.keyboard.press("ArrowDown")
        expect(page.locator("#answer-form")).to_be_visible()
    assert _reviews(live_app) == 1, "moving between the options answers nothing"
    page.keyboard.press("Space")
    expect(page.get_by_role("heading", level=1)).to_have_text("Right!")
    assert _reviews(live_app) == 2
    page.keyboard.press("Enter")
    # A choice by click (a tap on a phone): one click answers.
    expect(page).to_have_url(re.compile(r"/instant/3$"))
    page.get_by_text("Carson City", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Right!")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, "fits a 360 px phone"
    page.get_by_role("link", name="Next fact").click()
    # The map question: its map works on the new fragment (the arrow keys, Enter chooses).
    expect(page.get_by_role("group", name="Find Texas on the map.")).to_be_visible()
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.hasAttribute('data-spot')"):
            break
    page.keyboard.press("ArrowDown")
    expect(page.locator("#pick-live")).to_have_text(re.compile(r"^(Moved south\.|No state)"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, "fits a 360 px phone"
    assert loads == [loads[0]]
    # Reloading shows the same question, now as a page of its own.
    page.reload()
    expect(page.get_by_role("group", name="Find Texas on the map.")).to_be_visible()
    assert len(loads) == 2
    assert _reviews(live_app) == 3


def test_without_javascript_a_round_still_completes(browser, live_server, live_app):
    context = browser.new_context(base_url=live_server, java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        sign_up_student(page, "plain_pat")
        # Capitals, which a new student picks from options (new map facts are clicked, P-M13).
        page.get_by_text("Focus on some facts").click()
        page.get_by_label("Capitals").check()
        page.get_by_role("button", name="Start studying").click()
        for index in range(1, ROUND_SIZE + 1):
            expect(page).to_have_url(re.compile(rf"/study/rounds/[^/]+/{index}$"))
            q = asked(live_app, page.url)
            assert q.form is Form.CHOICE
            answer = right_answer(live_app, q)
            page.get_by_role("radio", name=re.compile(re.escape(answer))).check()
            expect(page.get_by_text("Press a number key to choose, then Enter.")).to_be_visible()
            page.get_by_role("button", name="Check").click()
            expect(page.get_by_role("heading", level=1)).to_have_text("Right!")
            assert _reviews(live_app) == index
            page.locator("#next").click()
        expect(page.get_by_role("heading", level=1)).to_contain_text("Round done")
        assert _reviews(live_app) == ROUND_SIZE
    finally:
        context.close()
