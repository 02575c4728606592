"""The new assignment form in Chromium on a phone (issue #24): only the fields that apply to the
goal chosen show (static/js/assignment_form.js); without script every field shows, with its hint."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import sign_up_teacher

PHONE = {"width": 360, "height": 740}


def page_height(tab) -> int:
    return tab.evaluate("document.documentElement.scrollHeight")


def test_only_the_fields_that_apply_show_and_a_goal_saves_no_count(page, browser, live_server):
    sign_up_teacher(page, "ms_okafor")
    page.get_by_label("Class name").fill("Room 5")
    page.get_by_role("button", name="Create class").click()
    expect(page).to_have_url(re.compile(r"/teach/classes/\d+$"))
    class_url = page.url
    # A class of 25, as in the issue: their 25 ticks show only for "Only the students ticked below".
    page.goto(f"{class_url}/students/new")
    page.get_by_label("Student names, one per line").fill(
        "\n".join(f"Kid{chr(97 + n)} Lee" for n in range(25))
    )
    page.get_by_role("button", name="Create accounts").click()
    expect(page.locator(".slip")).to_have_count(25)
    form_url = f"{class_url}/assignments/new"
    page.goto(form_url)
    students = page.get_by_role("group", name="Students")
    page.set_viewport_size(PHONE)
    page.wait_for_load_state("load")
    how_many, goal = page.get_by_label("How many"), page.get_by_label("Goal: predicted recall")
    on_test_day = page.get_by_label("Remember on test day")
    # The test day, optional, is folded away until the teacher opens it.
    expect(on_test_day).to_be_hidden()
    folded_height = page_height(page)
    page.locator("summary", has_text="Test day").click()
    # Rounds are chosen at first: "How many" and the test-day percent apply, the goal does not.
    expect(how_many).to_be_visible()
    expect(on_test_day).to_be_visible()
    expect(goal).to_be_hidden()
    expect(students).to_be_hidden()
    rounds_height = page_height(page)
    page.get_by_label("Only the students ticked below").check()
    expect(students).to_be_visible()
    page.get_by_label("Everyone in the class").check()
    expect(students).to_be_hidden()
    page.get_by_label("A goal: every fact in scope remembered on the due date").check()
    expect(how_many).to_be_hidden()
    expect(on_test_day).to_be_hidden()
    expect(goal).to_be_visible()
    goal_height = page_height(page)

    # The same page without script: every field shows, and says when it applies.
    cookies = page.context.cookies()
    bare = browser.new_context(base_url=live_server, viewport=PHONE, java_script_enabled=False)
    bare.add_cookies(cookies)
    plain = bare.new_page()
    plain.goto(form_url)
    expect(plain.get_by_label("How many")).to_be_visible()
    expect(plain.get_by_label("Goal: predicted recall")).to_be_visible()
    expect(plain.get_by_text("Only for a goal.", exact=False)).to_be_visible()
    expect(plain.get_by_role("group", name="Students")).to_be_visible()
    full_height = page_height(plain)
    bare.close()
    print(
        f"assignment form at 360 px: {full_height} px without script, "
        f"{rounds_height} px (rounds) and {goal_height} px (a goal) with it"
    )
    assert goal_height < full_height and rounds_height < full_height
    # On a phone it is a form to scroll, not a wall (issue 24): 3,925 px before the ticks went two
    # to a row and the test day folded away, 2,826 px after (a class of 4; this one has 25, whose
    # ticks show only when asked for).
    print(f"... and {folded_height} px with the test day folded")
    assert folded_height < 3000

    # "How many: 5" is still filled in, hidden: a goal saves no count.
    assert how_many.input_value() == "5"
    page.get_by_label("Flashcard review").check()
    page.get_by_label("Capitals").check()
    page.get_by_label("Part of the country").select_option("region:northeast")
    page.get_by_role("button", name="Set the assignment").last.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Capitals of the Northeast at 90%")
    expect(page.get_by_text(re.compile(r"every fact at 90% predicted recall"))).to_be_visible()
