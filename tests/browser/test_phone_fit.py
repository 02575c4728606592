"""At 360x740 (a small phone): no student page is wider than the screen, and a Dashing States race
fits one screen (a grid of small cards, ordered by tapping, the race status always in view)."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from sqlalchemy import select

from tests.browser.conftest import PHONE, sign_up_student, sign_up_teacher
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import CardGame, DashingRound

#: The elements wider than the screen, for a failing test's message.
TOO_WIDE = """() => Array.from(document.querySelectorAll('body *'))
  .filter(e => e.getBoundingClientRect().right > 361)
  .slice(0, 8).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"""


def assert_fits(page, what: str) -> None:
    # After the load event: before the stylesheet applies, an unstyled page can be wider than the
    # screen (the element a test waited for may show first on a loaded machine).
    page.wait_for_load_state("load")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{what} is {width}px wide: {page.evaluate(TOO_WIDE)}"


def dealt(app) -> list[tuple[str, str]]:
    with app.app_context():
        row = db.session.execute(select(DashingRound)).scalar_one()
        deck = get_deck()
        return [(deck[p].name, deck[p].capital) for p in row.cards]


def deal_a_race(page) -> None:
    page.goto("/play/dashing-states/")
    page.get_by_label("Race a hard computer (about 30 seconds)").check()
    page.get_by_role("button", name="Deal the Map cards").click()
    expect(page).to_have_url(re.compile(r"/play/dashing-states/[A-Za-z0-9_-]+$"))
    expect(page.locator(".map-state--red")).to_have_count(5)


def tile(page, position: int):
    return page.locator(f'.ds__card[data-position="{position}"]')


def test_a_dashing_race_fits_one_phone_screen_and_is_ordered_by_tapping(phone, live_app):
    page = phone
    sign_up_student(page, "dash_phone")
    deal_a_race(page)
    assert_fits(page, "The Dashing States race")
    # Before #21 the five cards stacked into a page of about 3,000 px; now about 1,850 px.
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 2100, f"the race page is {height}px tall"
    # The five cards in a grid of two columns: with the race line (stuck at the top), all five
    # cards are on one screen.
    boxes = [tile(page, i).bounding_box() for i in range(5)]
    assert boxes[0]["y"] == boxes[1]["y"] and boxes[2]["y"] > boxes[0]["y"]
    assert boxes[0]["width"] < 180
    page.locator("#ds-cards").evaluate(
        "e => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 90)"
    )
    race = page.locator("#race").bounding_box()
    assert -1 <= race["y"] <= 1, "the race line sticks to the top of the screen"
    assert boxes[4]["y"] + boxes[4]["height"] - boxes[0]["y"] + race["height"] <= PHONE["height"]
    # Further down, on the last card's capital, the race line is still in view.
    page.locator("#capital-4").scroll_into_view_if_needed()
    expect(page.locator("#race")).to_be_in_viewport()
    expect(page.locator("#race-status")).to_contain_text(
        re.compile("The computer has found [0-5] of 5")
    )
    expect(page.locator("#ds-clock")).to_have_text(re.compile(r"^\d+:\d\d$"))

    cards = dealt(live_app)
    order = sorted(range(5), key=lambda i: cards[i][0])
    # Tap the cards in alphabetical order of their states: 1st to 4th; the fifth is set aside.
    for place, position in enumerate(order[:4], start=1):
        tile(page, position).locator(".ds__tap").tap()
        expect(page.locator(f"#place-{position}")).to_have_value(str(place))
        expect(tile(page, position)).to_have_class(re.compile("ds__card--numbered"))
    expect(page.locator(f"#place-{order[4]}")).to_have_value("aside")
    expect(tile(page, order[4]).locator(".ds__badge")).to_have_text("Set aside")
    expect(page.locator("#ds-live")).to_contain_text("is set aside")
    # A tap on a numbered card takes its number off; the next tap gives the number back.
    tile(page, order[1]).locator(".ds__tap").tap()
    expect(tile(page, order[1])).not_to_have_class(re.compile("ds__card--numbered"))
    expect(page.locator("#ds-live")).to_contain_text("number taken off")
    tile(page, order[1]).locator(".ds__tap").tap()
    expect(page.locator(f"#place-{order[1]}")).to_have_value("2")
    # By keyboard: every card is a button; Space takes a number off, Enter numbers it again.
    button = tile(page, order[3]).locator(".ds__tap")
    button.focus()
    page.keyboard.press("Space")
    expect(tile(page, order[3])).not_to_have_class(re.compile("ds__card--numbered"))
    page.keyboard.press("Enter")
    expect(page.locator(f"#place-{order[3]}")).to_have_value("4")
    expect(button).to_have_accessible_name(re.compile(r"Card [A-E]: 4th"))
    # The magnifier shows a card across the grid; Escape puts it back.
    zoom = tile(page, order[0]).locator(".ds__zoom")
    expect(zoom).to_have_accessible_name(re.compile("Show card [A-E] larger"))
    zoom.tap()
    expect(zoom).to_have_attribute("aria-expanded", "true")
    expect(zoom).to_have_accessible_name(re.compile("Show card [A-E] smaller"))
    assert tile(page, order[0]).bounding_box()["width"] > 300
    assert_fits(page, "The race with a card shown larger")
    page.keyboard.press("Escape")
    expect(zoom).to_have_attribute("aria-expanded", "false")
    assert tile(page, order[0]).bounding_box()["width"] < 180

    for i in range(5):
        page.locator(f"#name-{i}").fill(cards[i][0])
        page.locator(f"#capital-{i}").fill(cards[i][1])
    page.get_by_role("button", name="GeoPlunge!").click()
    expect(page.get_by_role("status").first).to_contain_text(
        re.compile("You win!|The computer wins|tie")
    )
    expect(page.locator(".field__error")).to_have_count(0)
    assert_fits(page, "The race's result")


def test_a_dashing_round_without_javascript_on_a_phone(browser, live_server, live_app):
    context = browser.new_context(
        base_url=live_server, viewport=PHONE, is_mobile=True, java_script_enabled=False
    )
    page = context.new_page()
    try:
        sign_up_student(page, "dash_no_js")
        page.goto("/play/dashing-states/")
        page.get_by_label("Practise without a clock").check()
        page.get_by_role("button", name="Deal the Map cards").click()
        expect(page.locator(".map-state--red")).to_have_count(5)
        assert_fits(page, "Dashing States without JavaScript")
        expect(page.locator(".ds__tap")).to_have_count(0)
        expect(page.locator("#ds-hint")).to_be_visible()
        cards = dealt(live_app)
        order = sorted(range(5), key=lambda i: cards[i][0])
        for place, position in enumerate(order, start=1):
            page.locator(f"#place-{position}").select_option(str(place) if place < 5 else "aside")
            page.locator(f"#name-{position}").fill(cards[position][0])
            page.locator(f"#capital-{position}").fill(cards[position][1])
        page.get_by_role("button", name="GeoPlunge!").click()
        expect(page.get_by_role("status").first).to_contain_text("All right!")
        assert_fits(page, "Dashing States' result without JavaScript")
    finally:
        context.close()


def test_the_round_summary_my_classes_and_the_card_game_tables_fit_a_phone(phone, live_app):
    page = phone
    # My classes, with a long class name and a long teacher name.
    sign_up_teacher(page, "ms_rivera_geography_teacher")
    page.get_by_label("Class name").fill("Room_12_Geography_Wednesday_afternoons")
    page.get_by_role("button", name="Create class").click()
    code = page.locator("[data-join-code]").inner_text().strip()
    assert_fits(page, "The teacher's class page, its long name in the heading")
    page.goto("/teach/")
    expect(page.get_by_role("region", name="Your classes")).to_contain_text("Room_12")
    assert_fits(page, "The teacher's My classes")
    page.context.clear_cookies()
    sign_up_student(page, "river_otter_from_room_12")
    page.goto("/teach/join")
    page.get_by_label("Class code").fill(code)
    page.get_by_role("button", name="Join").click()
    expect(page.locator(".class-list")).to_contain_text("Room_12")
    assert_fits(page, "My classes")

    # The round summary: a round of ten answered "I don't know".
    page.goto("/study/")
    page.get_by_role("button", name="Start studying").click()
    for _ in range(10):
        page.get_by_role("button", name="I don't know").click()
        page.locator("#next").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Round done!")
    assert_fits(page, "The round summary")

    # Each card game's table (with its score table) at the most players it takes.
    for label, players in (
        ("Play the Ranks", "2"),
        ("Geography War", "2"),
        ("GeoPower Toss", "6"),
        ("GeoClash Down Back", "7"),
        ("GeoPlunge 51", "7"),
    ):
        page.goto("/play/games/")
        page.get_by_label(label).check()
        page.get_by_label("Players, counting you").select_option(players)
        page.get_by_role("button", name="Deal the cards").click()
        expect(page.get_by_role("heading", name=label, level=1)).to_be_visible()
        assert_fits(page, label)

    # The record against the computer, once the games are over.
    with live_app.app_context():
        for number, row in enumerate(db.session.execute(select(CardGame)).scalars()):
            row.result = ("won", "lost", "drawn")[number % 3]
            row.finished_at = row.updated_at
        db.session.commit()
    page.goto("/play/games/")
    expect(page.locator("table")).to_contain_text("GeoClash Down Back")
    assert_fits(page, "The card games' page with its record")
