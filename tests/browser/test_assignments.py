"""The whole assignment journey in Chromium: a teacher sets practice, a student joins and plays it,
and the teacher sees it done."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import open_menu, sign_up_student, sign_up_teacher
from tests.browser.test_study import answer_with_keyboard
from tests.browser.test_teach import log_out


def log_in(page, username: str, password: str = "maps are fun") -> None:
    page.goto("/auth/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out", include_hidden=True)).to_be_attached()
    open_menu(page)  # on a phone, Log out sits in the header's menu
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def test_a_teacher_sets_an_assignment_a_student_plays_it_and_the_teacher_sees_it_done(
    page, browser, live_server, live_app
):
    # The teacher signs up, creates a class and sets an assignment for it.
    sign_up_teacher(page, "ms_rivera")
    page.get_by_label("Class name").fill("Room 12")
    page.get_by_role("button", name="Create class").click()
    code = page.locator("[data-join-code]").inner_text().strip()
    page.get_by_role("link", name="Set an assignment").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Set an assignment")

    # A mistake first: no activity ticked, and a state that does not exist. Nothing is made.
    page.get_by_label("Hand-picked states (optional)").fill("Colorado, Atlantis")
    page.get_by_role("button", name="Set the assignment").click()
    summary = page.get_by_role("alert")
    expect(summary).to_contain_text("Choose at least one activity.")
    expect(summary).to_contain_text("These are not US states: “Atlantis”.")
    # The error summary links to the field, and the teacher fixes it by keyboard.
    page.get_by_label("Flashcard review").check()
    page.get_by_role("group", name="Facts").get_by_label("Capitals").check()
    page.get_by_label("Hand-picked states (optional)").fill("Colorado, Utah")
    page.get_by_label("How many").fill("1")
    page.get_by_label("Title (optional)").fill("Two capitals")
    page.get_by_role("button", name="Set the assignment").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Two capitals")
    expect(page.get_by_text("Capitals of Colorado and Utah")).to_be_visible()
    expect(page.get_by_text("No student has this assignment yet")).to_be_visible()
    log_out(page)

    # A student signs up, joins with the code and finds the assignment first on their Study page.
    sign_up_student(page, "river_otter")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Join a class").click()
    page.get_by_label("Class code").fill(code)
    page.get_by_role("button", name="Join").click()
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Study").click()
    assignments = page.get_by_role("region", name="Your assignments")
    expect(assignments).to_contain_text("Two capitals")
    expect(assignments).to_contain_text("Not started")
    expect(assignments).to_contain_text("0 of 1 rounds")
    assignments.get_by_role("link", name="Two capitals").click()
    page.get_by_role("button", name="Start Flashcard review").click()

    # The round holds the two capitals of the scope; the student answers them by keyboard.
    for index in (1, 2):
        answer_with_keyboard(page, live_app, index)
    # The last "Next" leads to the round's summary; from there, back to the Study page.
    expect(page).to_have_url(re.compile(r"/study/rounds/[^/]+/done$"))
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Study").click()
    expect(page.get_by_role("region", name="Your assignments")).to_contain_text("1 of 1 rounds")
    expect(page.get_by_role("region", name="Your assignments")).to_contain_text("Done")
    log_out(page)

    # The teacher sees it done, on the class page and the assignment's page.
    log_in(page, "ms_rivera")
    page.get_by_role("link", name="Room 12").click()
    completion = page.get_by_role("region", name="Completion by student")
    expect(completion).to_contain_text("river_otter")
    expect(completion).to_contain_text("Done")
    page.get_by_role("link", name="Two capitals").first.click()
    expect(page.get_by_role("region", name="Progress")).to_contain_text("1 of 1 rounds")
    expect(page.get_by_text(re.compile(r"^1 done, 0 done late"))).to_be_visible()

    # On a 360 px phone the class page and the assignment page fit the screen.
    context = browser.new_context(
        base_url=live_server, viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    try:
        phone = context.new_page()
        log_in(phone, "ms_rivera")
        # Measured once each page has loaded: a measure during the navigation finds no document.
        phone.get_by_role("link", name="Room 12").click()
        expect(phone.get_by_role("heading", level=1)).to_have_text("Room 12")
        phone.wait_for_load_state("load")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
        phone.get_by_role("link", name="Set an assignment").click()
        expect(phone.get_by_role("heading", level=1)).to_have_text("Set an assignment")
        phone.wait_for_load_state("load")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()
