"""A teacher brings a class in, in Chromium: a class, accounts from a list of names, slips, a student joining."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import open_menu, sign_up_student


def log_out(page) -> None:
    open_menu(page)  # on a phone, Log out and Log in sit in the header's menu
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in", include_hidden=True)).to_be_attached()
    open_menu(page)
    expect(page.get_by_role("link", name="Log in")).to_be_visible()


def test_a_teacher_creates_a_class_makes_accounts_and_a_student_joins(page, browser, live_server):
    # A teacher signs up and lands on their (empty) class list.
    page.goto("/auth/signup")
    page.get_by_label("Teacher", exact=True).check()
    page.get_by_label("Username").fill("ms_rivera")
    page.get_by_label("Password", exact=True).fill("maps are fun")
    page.get_by_label("Type the password again").fill("maps are fun")
    page.get_by_role("button", name="Sign up").click()
    expect(page).to_have_url(re.compile(r"/teach/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("My classes")
    expect(
        page.get_by_role("navigation", name="Main").get_by_role("link", name="My classes")
    ).to_be_visible()

    # A class name is required; then the class is created with its code and link.
    page.get_by_role("button", name="Create class").click()
    expect(page.get_by_role("alert")).to_contain_text("Give the class a name.")
    page.get_by_label("Class name").fill("Room 12")
    page.get_by_role("button", name="Create class").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Room 12")
    code = page.locator("[data-join-code]").inner_text().strip()
    assert re.fullmatch(r"[A-HJKMNP-Z2-9]{8}", code)
    expect(page.locator("[data-join-link]")).to_have_text(f"{live_server}/teach/join/{code}")
    expect(page.get_by_text("No students yet")).to_be_visible()

    # Two accounts from a pasted list of names; a bad list is refused first, naming the line.
    page.get_by_role("link", name="Make student accounts").click()
    page.get_by_label("Student names, one per line").fill("José Núñez\nBob@home")
    page.get_by_role("button", name="Create accounts").click()
    expect(page.get_by_role("alert")).to_contain_text(
        "Line 2 (“Bob@home”) has a character that a name does not have: @"
    )
    page.get_by_label("Student names, one per line").fill("José Núñez\nZoë O'Brien")
    page.get_by_role("button", name="Create accounts").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Login slips for Room 12")
    expect(page.get_by_text("they are not shown again")).to_be_visible()
    slips = page.locator(".slip")
    expect(slips).to_have_count(2)
    expect(slips.nth(0).locator("[data-username]")).to_have_text("jose.n")
    expect(slips.nth(1).locator("[data-username]")).to_have_text("zoe.o")
    password = slips.nth(0).locator("[data-password]").inner_text()
    assert re.fullmatch(r"[a-z]{6,12}[2-9]{2}", password)
    expect(page.get_by_role("button", name="Print the slips")).to_be_visible()
    # Printed, the page is only the slips: no header, no buttons.
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.get_by_role("button", name="Print the slips")).to_be_hidden()
    expect(slips.nth(1)).to_be_visible()
    page.emulate_media(media="screen")
    page.get_by_role("link", name="Back to the class").click()
    expect(page.get_by_role("heading", name=re.compile(r"Students \(2\)"))).to_be_visible()
    log_out(page)

    # A student made from the list logs in with the slip.
    page.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("jose.n")
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/study/$"))
    log_out(page)

    # A new student signs up and joins with the code, typed in lower case with a space.
    sign_up_student(page, "river_otter")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Join a class").click()
    page.get_by_label("Class code").fill("zzzz zzzz")
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_role("alert")).to_contain_text("No class has the code ZZZZZZZZ")
    page.get_by_label("Class code").fill(f"{code[:4].lower()} {code[4:].lower()}")
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_role("status").first).to_contain_text(
        "You joined Room 12 (teacher: ms_rivera)."
    )
    expect(page.locator(".class-list")).to_contain_text("Room 12")
    # Joining twice changes nothing.
    page.get_by_label("Class code").fill(code)
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_role("alert")).to_contain_text("You are already in Room 12.")
    log_out(page)

    # The teacher sees the student in the class.
    page.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("ms_rivera")
    page.get_by_label("Password").fill("maps are fun")
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Room 12").click()
    expect(page.get_by_role("heading", name=re.compile(r"Students \(3\)"))).to_be_visible()
    expect(
        page.get_by_role("region", name=re.compile(r"Students")).get_by_role(
            "link", name="river_otter"
        )
    ).to_be_visible()

    # On a 360 px phone the class page and the nav fit the screen.
    context = browser.new_context(
        base_url=live_server, viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    try:
        phone = context.new_page()
        phone.goto("/auth/login")
        phone.get_by_label("Username").fill("ms_rivera")
        phone.get_by_label("Password").fill("maps are fun")
        phone.get_by_role("button", name="Log in").click()
        phone.get_by_role("link", name="Room 12").click()
        expect(phone.get_by_role("heading", level=1)).to_have_text("Room 12")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
        open_menu(phone)
        phone.get_by_role("button", name="Log out").click()
        phone.goto("/auth/login")
        phone.get_by_label("Username").fill("river_otter")
        phone.get_by_label("Password").fill("maps are fun")
        phone.get_by_role("button", name="Log in").click()
        expect(phone.get_by_role("button", name="Log out", include_hidden=True)).to_be_attached()
        open_menu(phone)
        phone.get_by_role("navigation", name="Main").get_by_role(
            "link", name="Join a class"
        ).click()
        expect(phone.get_by_role("heading", level=1)).to_have_text("Join a class")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()
