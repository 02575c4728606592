"""What a newcomer really does, in Chromium: sign up, log in, browse and sort the deck, open a card."""

from __future__ import annotations

import re

from playwright.sync_api import expect


def test_newcomer_signs_up_logs_in_browses_sorts_and_opens_a_card(page):
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Learn the 50 states")

    # Sign up as a student: a username and a password, nothing else.
    page.get_by_role("link", name="Make an account").first.click()
    expect(page).to_have_url(re.compile(r"/auth/signup$"))
    expect(page.get_by_label("Student", exact=True)).to_be_checked()
    # A student is never asked for an email address; a teacher may give one.
    expect(page.get_by_label("Email (teachers only, optional)")).to_be_hidden()
    page.get_by_label("Teacher", exact=True).check()
    expect(page.get_by_label("Email (teachers only, optional)")).to_be_visible()
    page.get_by_label("Student", exact=True).check()
    expect(page.get_by_label("Email (teachers only, optional)")).to_be_hidden()
    page.get_by_label("Username").fill("blue_heron")
    page.get_by_label("Password", exact=True).fill("maps are fun")
    page.get_by_label("Type the password again").fill("maps are fun")
    page.get_by_role("button", name="Sign up").click()
    # A new student starts at their study home.
    expect(page).to_have_url(re.compile(r"/study/$"))
    expect(page.get_by_role("status").first).to_contain_text("Welcome, blue_heron")
    expect(page.locator(".account__name")).to_contain_text("blue_heron")

    # Log out, then log back in.
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    page.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("blue_heron")
    page.get_by_label("Password").fill("maps are fun")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".account__name")).to_contain_text("blue_heron")

    # Browse the deck and sort it by population.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="The deck").click()
    cards = page.locator(".gp-card__name")
    expect(cards).to_have_count(50)
    expect(cards.first).to_have_text("Alabama")
    page.get_by_label("Sort by").select_option("population")
    page.get_by_role("button", name="Show").click()
    expect(cards.first).to_have_text("California")
    expect(cards.nth(1)).to_have_text("Texas")
    expect(cards.nth(2)).to_have_text("New York")
    expect(page.get_by_text("sorted by population rank")).to_be_visible()

    # Open a card and see its Map card, with the state in red.
    page.get_by_role("link", name="California").click()
    expect(page).to_have_url(re.compile(r"/deck/ca$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("California")
    map_image = page.get_by_role("img", name=re.compile("California is shown in red"))
    expect(map_image).to_be_visible()
    red = page.locator(".map-state--red")
    expect(red).to_have_count(1)
    assert red.evaluate("el => getComputedStyle(el).fill") == "rgb(213, 0, 0)"
    box = red.bounding_box()
    assert box and box["width"] > 50 and box["height"] > 100

    # Follow a border state.
    page.get_by_role("link", name="Oregon").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Oregon")


def test_a_tiny_state_is_easy_to_see(page):
    page.goto("/deck/ri")
    callout = page.locator(".map-callout")
    expect(callout).to_be_visible()
    box = page.locator(".map-closeup__frame").bounding_box()
    red_box = page.locator(".map-state--red").bounding_box()
    assert box and red_box
    # The close-up frame is much bigger on screen than the state itself.
    assert box["width"] > 4 * red_box["width"]


def test_sign_up_errors_are_clear_and_keep_nothing(page):
    page.goto("/auth/signup")
    page.get_by_label("Username").fill("ab")
    page.get_by_label("Password", exact=True).fill("short")
    page.get_by_label("Type the password again").fill("different")
    page.get_by_role("button", name="Sign up").click()
    summary = page.get_by_role("alert")
    expect(summary).to_contain_text("A username has 3 to 32 characters.")
    expect(summary).to_contain_text("A password has at least 8 characters.")
    expect(page.get_by_label("Username")).to_have_attribute("aria-invalid", "true")
    # The error summary links move focus to the field.
    summary.get_by_role("link", name=re.compile("^Username")).click()
    expect(page.get_by_label("Username")).to_be_focused()


def test_keyboard_only_sort_and_open(page):
    page.goto("/deck/")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to main content")).to_be_focused()
    page.keyboard.press("Enter")
    # Tab to the sort control, choose Size with the keyboard, and submit.
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "sort":
            break
    expect(page.get_by_label("Sort by")).to_be_focused()
    page.get_by_label("Sort by").select_option("size")  # what the arrow keys do on a focused select
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Show")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".gp-card__name").first).to_have_text("Alaska")
    # The focused control has a visible outline.
    page.keyboard.press("Tab")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    # Open the first card with Enter from its link.
    page.locator(".gp-card__name a").first.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Alaska")


def test_phone_width_has_no_sideways_scroll(browser, live_server):
    context = browser.new_context(
        base_url=live_server, viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    tab = context.new_page()
    try:
        for path in ("/", "/deck/", "/deck/ri", "/auth/signup", "/auth/login", "/deck/nowhere"):
            tab.goto(path)
            width = tab.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, f"{path} is {width}px wide"
        tab.goto("/deck/")
        # Two cards side by side on a phone: the grid is not one long column.
        boxes = [tab.locator(".gp-card").nth(i).bounding_box() for i in range(2)]
        assert boxes[0]["y"] == boxes[1]["y"]
        # On a card page the card, its facts and the Map card stack without overlapping.
        tab.goto("/deck/nj")
        card, facts, figure = (
            tab.locator(sel).bounding_box()
            for sel in (".card-page .gp-card", ".facts", ".card-page__map")
        )
        assert card["y"] + card["height"] <= facts["y"] + 1
        assert facts["y"] + facts["height"] <= figure["y"] + 1
    finally:
        context.close()
