"""A teacher's day with a new class, in Chromium (issue 24): real names only the teacher sees, an
assignment whose title says what it is and that can be edited, a removal undone, a delete asked
first, the join link previewed; every page checked with axe and on a 360 px phone."""

from __future__ import annotations

import datetime as dt
import re

from playwright.sync_api import expect

from tests.browser.conftest import check_axe, sign_up_teacher
from tests.browser.test_teach import log_out

NAMES = "María García\nBen Okafor\nZoë O'Brien"


def _fits_and_passes_axe(page, where: str) -> None:
    page.wait_for_load_state("load")  # the stylesheet applied
    check_axe(page, where)
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width, where


def test_a_teacher_names_sets_edits_undoes_and_previews(page, browser, live_server):
    page.set_viewport_size({"width": 360, "height": 740})
    sign_up_teacher(page, "ms_rivera")
    page.get_by_label("Class name").fill("Room 7")
    page.get_by_role("button", name="Create class").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Room 7")
    # Day 0 is calm: what to do next, not a list of alarms (P-S5).
    expect(page.get_by_text("What to do next", exact=False).first).to_be_visible()
    _fits_and_passes_axe(page, "a new class")

    # Accounts from a list of names: the names are kept for the teacher.
    page.get_by_role("link", name="Make student accounts").first.click()
    page.get_by_label("Student names, one per line").fill(NAMES)
    page.get_by_role("button", name="Create accounts").click()
    slips = page.locator(".slip")
    expect(slips).to_have_count(3)
    expect(slips.nth(0)).to_contain_text("María García")
    password = slips.nth(0).locator("[data-password]").inner_text()
    page.get_by_role("link", name="Back to the class").click()
    students = page.get_by_role("region", name=re.compile(r"Students"))
    expect(students.get_by_role("link", name="María García (maria.g)")).to_be_visible()
    expect(students.get_by_role("link", name="Ben Okafor (ben.o)")).to_be_visible()
    _fits_and_passes_axe(page, "the class page with names")

    # An assignment with no title gets one that says what it is.
    page.get_by_role("link", name="Set an assignment").first.click()
    page.get_by_label("Flashcard review").check()
    page.get_by_role("group", name="Facts").get_by_label("Capitals").check()
    page.get_by_label("Hand-picked states (optional)").fill("Colorado, Utah")
    page.get_by_label("How many").fill("1")
    page.get_by_role("button", name="Set the assignment").click()
    title = page.get_by_role("heading", level=1)
    expect(title).to_contain_text("Capitals of Colorado and Utah")
    _fits_and_passes_axe(page, "the assignment page")

    # Edit it: a later due date, and the page says so.
    page.get_by_role("link", name="Edit the assignment").click()
    _fits_and_passes_axe(page, "the edit page")
    due = page.get_by_label("Due on")
    later = dt.date.fromisoformat(due.input_value()) + dt.timedelta(days=7)
    due.fill(later.isoformat())
    page.get_by_role("button", name=re.compile(r"Save")).click()
    expect(title).to_contain_text("Capitals of Colorado and Utah")
    expect(page.locator("main")).to_contain_text(f"{later.day}")

    # Delete asks first; "Keep it" keeps it.
    page.get_by_role("link", name=re.compile(r"^Delete")).click()
    expect(title).to_contain_text("Delete")
    _fits_and_passes_axe(page, "the delete question")
    page.get_by_role("link", name="Keep it").click()
    expect(title).to_contain_text("Capitals of Colorado and Utah")

    # Take Ben out, then undo it: he is back in the class.
    page.get_by_role("link", name="Room 7").first.click()
    page.get_by_role("link", name="Ben Okafor (ben.o)").click()
    expect(title).to_have_text("Ben Okafor (ben.o)")
    page.get_by_role("button", name="Take ben.o out of Room 7").click()
    expect(title).to_have_text("Taken out of Room 7")
    _fits_and_passes_axe(page, "the removed page")
    page.get_by_role("button", name="Undo: put Ben Okafor (ben.o) back in Room 7").click()
    expect(title).to_have_text("Room 7")
    expect(page.get_by_role("link", name="Ben Okafor (ben.o)")).to_be_visible()

    # The join link, previewed as the students see it.
    link = page.locator("[data-join-link]").inner_text().strip()
    page.goto(link)
    expect(page.get_by_text("This is what your students see")).to_be_visible()
    expect(page.get_by_role("button", name="Join Room 7")).to_be_disabled()
    _fits_and_passes_axe(page, "the join preview")
    log_out(page)

    # María logs in with her slip: her real name is nowhere on her pages.
    page.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("maria.g")
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/study/$"))
    for path in ("/study/", "/progress/album/", "/progress/", "/teach/join", "/study/settings"):
        page.goto(path)
        assert "García" not in page.content(), path
