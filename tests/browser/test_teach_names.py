"""A teacher's day with a new class, in Chromium on a phone (issue 24): 28 students imported from
the school's OneRoster files, their real names seen only by the teacher (on the class page and a
live game's projector); an assignment titled by
its scope, then edited; a delete asked first; a removal undone; the join link previewed. Every
page passes axe and fits 360 px, and a student then finds her real name on none of her pages."""

from __future__ import annotations

import datetime as dt
import re

from playwright.sync_api import expect

from tests.browser.conftest import check_axe, sign_up_teacher
from tests.browser.live_support import own_browser
from tests.browser.test_teach import log_out
from tests.test_roster import class_row, enrollment_row, roster_files, user_row

FIRST = ["Ana", "Bo", "Chen", "Dara", "Eli", "Femi", "Gus", "Hana", "Ivo", "Jun"]
LAST = ["Silva", "Nguyen", "Kowalski", "Park"]


def _roster(folder) -> list:
    """The school's OneRoster files for "Room 7": María García, Ben Okafor and 26 more."""
    people = [("María", "García"), ("Ben", "Okafor")]
    people += [(FIRST[i % 10], f"{LAST[i % 4]}{i}") for i in range(26)]
    users = [user_row(f"stu-{i:02}", first, last) for i, (first, last) in enumerate(people)]
    users.append(user_row("tch-1", "Rosa", "Rivera", role="teacher"))
    enrollments = [enrollment_row(f"enr-{i}", "cls-7", f"stu-{i:02}") for i in range(28)]
    paths = []
    for name, data in roster_files(users, [class_row("cls-7", "Room 7")], enrollments).items():
        path = folder / name
        path.write_bytes(data)
        paths.append(path)
    return paths


def _fits_and_passes_axe(page, where: str) -> None:
    page.wait_for_load_state("load")  # the stylesheet applied
    check_axe(page, where)
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width, where


def test_a_teacher_imports_names_sets_edits_undoes_and_previews(
    page, browser, live_server, tmp_path
):
    page.set_viewport_size({"width": 360, "height": 740})
    sign_up_teacher(page, "ms_rivera")
    page.get_by_label("Class name").fill("Room 6")
    page.get_by_role("button", name="Create class").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Room 6")
    # Day 0 is calm: what to do next, not a list of alarms (P-S5).
    expect(page.get_by_text("What to do next", exact=False).first).to_be_visible()
    _fits_and_passes_axe(page, "a new class")

    # The class's 28 students come from the school's OneRoster files, with their real names.
    page.goto("/teach/")
    page.get_by_role("link", name=re.compile("Import classes from your school")).click()
    page.locator('input[type="file"]').set_input_files(_roster(tmp_path))
    page.get_by_role("button", name="Preview the import").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Check the import")
    page.get_by_role("button", name="Import", exact=True).click()
    slips = page.locator(".slip")
    expect(slips).to_have_count(28)
    maria = slips.filter(has_text="María García")
    expect(maria).to_have_count(1)
    password = maria.locator("[data-password]").inner_text()
    username = maria.locator("[data-username]").inner_text()
    page.goto("/teach/")
    page.get_by_role("link", name="Room 7").click()
    students = page.get_by_role("region", name=re.compile(r"Students"))
    expect(students.get_by_role("link", name=f"María García ({username})")).to_be_visible()
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
    class_url = page.url

    # A live game's projector names María as the teacher's pages do; her phone never (C-W8).
    page.get_by_role("link", name="Start a live game").click()
    page.get_by_label("Questions").fill("1")
    page.get_by_role("button", name="Make the game").click()
    code = page.locator(".cg-code").inner_text().strip()
    with own_browser(browser, live_server, None) as phone:
        phone.goto("/auth/login")
        phone.get_by_label("Username").fill(username)
        phone.get_by_label("Password").fill(password)
        phone.get_by_role("button", name="Log in").click()
        expect(phone).to_have_url(re.compile(r"/study/$"))
        phone.goto(f"/class-game/?code={code}")
        phone.get_by_role("button", name="Join the game").click()
        expect(phone.get_by_text("You are in.")).to_be_visible()
        expect(page.locator(".cg-names")).to_contain_text(f"María García ({username})")
        assert "García" not in phone.content()
    page.goto(class_url)

    # The join link, previewed as the students see it.
    link = page.locator("[data-join-link]").inner_text().strip()
    page.goto(link)
    expect(page.get_by_text("This is what your students see")).to_be_visible()
    expect(page.get_by_role("button", name="Join Room 7")).to_be_disabled()
    _fits_and_passes_axe(page, "the join preview")
    log_out(page)

    # María logs in with her slip: her real name is nowhere on her pages.
    page.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/study/$"))
    for path in ("/study/", "/progress/album/", "/progress/", "/teach/join", "/study/settings"):
        page.goto(path)
        assert "García" not in page.content(), path
