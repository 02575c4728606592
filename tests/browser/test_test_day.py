"""A test day in Chromium: the preview of the daily work follows the test day as it is typed
(static/js/test_day_preview.js), and the assignment page says the test day in plain words."""

from __future__ import annotations

import datetime as dt

from playwright.sync_api import expect

from tests.browser.conftest import sign_up_teacher


def test_the_preview_follows_the_test_day_and_the_page_says_it(
    page, browser, live_server, live_app
):
    sign_up_teacher(page, "ms_okafor")
    page.get_by_label("Class name").fill("Room 5")
    page.get_by_role("button", name="Create class").click()
    page.get_by_role("link", name="Set an assignment").click()
    page.get_by_label("Flashcard review").check()
    preview = page.locator("#test-day-preview")
    expect(preview).to_contain_text("Choose a test day to see the daily work it would cost.")
    # No student yet: the preview says so as soon as a test day is chosen, without "Preview".
    test_on = dt.date.today() + dt.timedelta(days=10)
    page.locator("summary", has_text="Test day").click()  # folded away until opened
    day = page.get_by_role("textbox", name="Test day (optional)")
    day.fill(test_on.isoformat())
    day.dispatch_event("change")
    expect(preview).to_contain_text("There are no students to preview the work for")
    page.get_by_label("How many").fill("2")
    page.get_by_label("Remember on test day").select_option("95")
    # Enter in a field sets the assignment (the hidden default button), not the preview.
    page.get_by_label("Title (optional)").fill("Capitals test")
    page.get_by_label("Title (optional)").press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Capitals test")
    expect(
        page.get_by_text(
            f"Test on {test_on:%A} {test_on.day} {test_on:%B}: the schedule aims for your students to remember 95% of these facts that day."
        )
    ).to_be_visible()
