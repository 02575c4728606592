"""Card games in Chromium: a whole game of GeoPlunge 51 against two computer players, by keyboard."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from sqlalchemy import select

from tests.browser.conftest import sign_up_student
from trainer.web.extensions import db
from trainer.web.models import CardGame


def stored(app) -> CardGame:
    with app.app_context():
        row = db.session.execute(select(CardGame)).scalar_one()
        db.session.expunge(row)
        return row


def test_a_whole_game_of_geoplunge_51_against_two_computer_players(page, live_app):
    sign_up_student(page, "fifty_one")
    page.get_by_role("link", name="Card games").click()
    page.get_by_label("GeoPlunge 51: add rankings").check()
    page.get_by_label("Players, counting you").select_option("3")
    page.get_by_label("Easy: they play any card").check()
    page.get_by_role("button", name="Deal the cards").click()
    expect(page).to_have_url(re.compile(r"/play/games/[A-Za-z0-9_-]+"))
    expect(page.get_by_role("heading", name="GeoPlunge 51", level=1)).to_be_visible()
    expect(page.locator(".seat")).to_have_count(3)

    moves = 0
    paced = False
    while not page.locator(".game-over").count():
        assert moves < 200, "the game never ended"
        # Play by keyboard: the first card's first playable ranking, focused and pressed with Enter.
        button = page.locator(".hand .play-form button[name=action]:not([disabled])").first
        button.focus()
        expect(button).to_be_focused()
        with page.expect_navigation():
            page.keyboard.press("Enter")
        moves += 1
        fresh = page.locator(".fresh__item")
        if not paced and fresh.count() >= 3:
            # The computer players' moves appear one at a time, then all of them.
            expect(fresh.last).to_be_hidden()
            expect(fresh.last).to_be_visible(timeout=10_000)
            paced = True
        page.locator("#fresh-all:visible").click() if page.locator(
            "#fresh-all:visible"
        ).count() else None

    row = stored(live_app)
    assert row.result in {"won", "lost"}
    assert paced
    assert moves >= 7  # at least one whole round of seven cards
    expect(page.locator(".game-over h2")).to_have_text(re.compile(r"You won!|You lost this one\."))
    page.get_by_role("link", name="Play again").click()
    expect(page.locator(".game-list")).to_contain_text("GeoPlunge 51")
    expect(page.locator("table")).to_contain_text("Easy")


def test_the_games_fit_a_phone_in_drill_mode(browser, live_server):
    context = browser.new_context(
        base_url=live_server, viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    tab = context.new_page()
    try:
        sign_up_student(tab, "phone_games")
        for label in (
            "Play the Ranks",
            "Geography War",
            "GeoPower Toss",
            "GeoClash Down Back",
            "GeoPlunge 51",
        ):
            tab.goto("/play/games/")
            assert tab.evaluate("document.documentElement.scrollWidth") <= 360
            tab.get_by_label(label).check()
            tab.get_by_label("Drill mode").check()
            tab.get_by_role("button", name="Deal the cards").click()
            expect(tab.get_by_role("heading", name=label, level=1)).to_be_visible()
            width = tab.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, f"{label} is {width}px wide"
        # Two cards side by side in the hand.
        boxes = [tab.locator(".hand__card").nth(i).bounding_box() for i in range(2)]
        assert boxes[0]["y"] == boxes[1]["y"]
    finally:
        context.close()


def test_a_whole_round_of_geopower_toss_in_teams_of_two(page, live_app):
    sign_up_student(page, "toss_teams")
    page.goto("/play/games/")
    page.get_by_label("GeoPower Toss").check()
    page.get_by_label("Players, counting you").select_option("4")
    page.get_by_label("Teams of 2").check()
    page.get_by_role("button", name="Deal the cards").click()
    expect(page.get_by_role("heading", name="GeoPower Toss", level=1)).to_be_visible()
    expect(page.locator(".scores")).to_contain_text("Your team")
    expect(page.locator(".seat")).to_have_count(4)

    moves = 0
    while "Round 1 is over" not in page.locator("main").inner_text():
        assert moves < 40, "the round never ended"
        remove = page.get_by_role("button", name=re.compile(r"^Remove a "))
        play = page.locator(".hand .play-form button[name=action]:not([disabled])")
        button = remove.first if remove.count() else play.first
        button.focus()
        with page.expect_navigation():
            page.keyboard.press("Enter")
        moves += 1
        if page.locator("#fresh-all:visible").count():
            page.locator("#fresh-all").click()

    # The round's end is shown with the points it scored; the next round deals again.
    expect(page.locator(".fresh")).to_contain_text(
        re.compile(r"Round 1 is over\. Scores: Your team \d+, Team 2 \d+")
    )
    expect(page.locator(".scores")).to_contain_text("Team 2")
    assert moves >= 8  # at least one card per trick
