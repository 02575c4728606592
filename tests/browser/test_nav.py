"""The site header on a phone (#21): the brand and one Menu button, which opens the links by mouse,
touch and keyboard; on a wide screen the links in a row; with no JavaScript the links shown."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import PHONE, sign_up_student


def no_sideways_scroll(tab) -> None:
    tab.wait_for_load_state("load")  # the stylesheet applied, the navigation done
    width = tab.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{tab.url} is {width}px wide"


def test_a_phone_shows_the_brand_and_one_menu_button(phone):
    sign_up_student(phone, "phone_kid")
    header = phone.locator(".site-header")
    # The header above the question is one row: at most 64 px of the 740.
    assert header.bounding_box()["height"] <= 64
    menu = phone.get_by_role("button", name="Menu")
    expect(menu).to_be_visible()
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(menu).to_have_attribute("aria-controls", "site-menu")
    nav = phone.get_by_role("navigation", name="Main")
    expect(nav).to_be_hidden()
    expect(phone.get_by_role("button", name="Log out")).to_be_hidden()
    no_sideways_scroll(phone)
    # The study home's content starts right under the header.
    assert phone.get_by_role("heading", level=1).bounding_box()["y"] < 200
    for path in ("/", "/deck/", "/study/settings", "/progress/", "/play/games/"):
        phone.goto(path)
        assert phone.locator(".site-header").bounding_box()["height"] <= 64, path
        no_sideways_scroll(phone)


def test_the_menu_opens_and_closes_by_touch_and_mouse(phone):
    sign_up_student(phone, "tapper")
    menu = phone.get_by_role("button", name="Menu")
    nav = phone.get_by_role("navigation", name="Main")
    menu.tap()
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(nav).to_be_visible()
    # The current page keeps its mark; the student's settings are in the menu.
    expect(nav.get_by_role("link", name="Study")).to_have_attribute("aria-current", "page")
    expect(nav.get_by_role("link", name="Settings")).to_be_visible()
    expect(phone.get_by_role("button", name="Log out")).to_be_visible()
    no_sideways_scroll(phone)
    # Every link of the open menu is a big enough target, inside the screen.
    for link in nav.get_by_role("link").all():
        box = link.bounding_box()
        assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(nav).to_be_hidden()
    # A click elsewhere on the page closes it too.
    menu.click()
    expect(nav).to_be_visible()
    phone.get_by_role("heading", level=1).click()
    expect(nav).to_be_hidden()
    # With the menu open, a tap on a link of the page lands on it (the menu does not close under
    # the finger first).
    menu.click()
    phone.locator("main").get_by_role("link", name="Study settings").click()
    expect(phone).to_have_url(re.compile(r"/study/settings$"))
    phone.go_back()
    # A link of the menu goes to its page, where the menu is closed again.
    menu.click()
    nav.get_by_role("link", name="Settings").click()
    expect(phone).to_have_url(re.compile(r"/study/settings$"))
    expect(phone.get_by_role("heading", level=1)).to_have_text("Study settings")
    expect(phone.get_by_role("button", name="Menu")).to_have_attribute("aria-expanded", "false")
    phone.get_by_role("button", name="Menu").click()
    expect(nav.get_by_role("link", name="Settings")).to_have_attribute("aria-current", "page")
    expect(nav.get_by_role("link", name="Study")).not_to_have_attribute("aria-current", "page")


def test_the_menu_works_by_keyboard(phone):
    sign_up_student(phone, "keys_kid")
    menu = phone.get_by_role("button", name="Menu")
    nav = phone.get_by_role("navigation", name="Main")
    # Tab from the top of the page: the skip link, the brand, then the Menu button.
    phone.locator("body").focus()
    for _ in range(5):
        phone.keyboard.press("Tab")
        if phone.evaluate("document.activeElement.classList.contains('menu-toggle')"):
            break
    expect(menu).to_be_focused()
    phone.keyboard.press("Enter")
    expect(menu).to_have_attribute("aria-expanded", "true")
    # The next Tab goes into the menu's first link.
    phone.keyboard.press("Tab")
    expect(nav.get_by_role("link", name="Home")).to_be_focused()
    phone.keyboard.press("Tab")
    expect(nav.get_by_role("link", name="Study")).to_be_focused()
    # Escape closes it and puts the focus back on the button.
    phone.keyboard.press("Escape")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(nav).to_be_hidden()
    expect(menu).to_be_focused()
    # Space opens it as well, and Escape on the button closes it.
    phone.keyboard.press("Space")
    expect(nav).to_be_visible()
    phone.keyboard.press("Escape")
    expect(nav).to_be_hidden()
    expect(menu).to_be_focused()
    # Tabbing back before the button (to the brand) closes an open menu.
    phone.keyboard.press("Enter")
    expect(nav).to_be_visible()
    phone.keyboard.press("Shift+Tab")
    expect(nav).to_be_hidden()


def test_a_wide_screen_shows_the_links_in_a_row(page):
    sign_up_student(page, "wide_kid")
    expect(page.get_by_role("button", name="Menu")).to_be_hidden()
    nav = page.get_by_role("navigation", name="Main")
    expect(nav).to_be_visible()
    links = nav.get_by_role("link").all()
    assert [link.inner_text() for link in links][-2:] == ["The deck", "Settings"]
    tops = {round(link.bounding_box()["y"]) for link in links}
    assert len(tops) == 1, f"the links wrap onto {len(tops)} rows"
    expect(nav.get_by_role("link", name="Study")).to_have_attribute("aria-current", "page")
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def test_with_no_javascript_a_phone_shows_the_links(browser, live_server):
    context = browser.new_context(
        base_url=live_server,
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        java_script_enabled=False,
    )
    try:
        tab = context.new_page()
        tab.goto("/auth/signup")
        tab.get_by_label("Username").fill("no_js_kid")
        tab.get_by_label("Password", exact=True).fill("maps are fun")
        tab.get_by_label("Type the password again").fill("maps are fun")
        tab.get_by_role("button", name="Sign up").click()
        expect(tab).to_have_url(re.compile(r"/study/$"))
        # No button that would do nothing; the links and the account are there to use.
        expect(tab.get_by_role("button", name="Menu")).to_be_hidden()
        nav = tab.get_by_role("navigation", name="Main")
        expect(nav.get_by_role("link", name="Settings")).to_be_visible()
        expect(tab.get_by_role("button", name="Log out")).to_be_visible()
        no_sideways_scroll(tab)
        nav.get_by_role("link", name="Settings").click()
        expect(tab.get_by_role("heading", level=1)).to_have_text("Study settings")
    finally:
        context.close()
