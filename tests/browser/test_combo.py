"""A Combo 1 morning round against the computer team in Chromium: the four games in order, each
played on its own page, the round clock, and the match's result."""

from __future__ import annotations

import datetime as dt
import re

from playwright.sync_api import expect
from sqlalchemy import select

from tests.browser.conftest import sign_up_student
from trainer.quiz.border_up import solutions
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import BorderUpRound, ComboMatch, DashingRound, StateIqGame, utcnow

RESULT = re.compile("You win!|The computer wins|tie|You won!|You lost this one|A draw")


def back_to_the_match(page) -> None:
    page.locator(".combo-banner").get_by_role("link", name="Back to the match").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Combo 1: morning round")


def play_border_up(page, app) -> None:
    expect(page.locator(".combo-banner")).to_contain_text("Game 1 of your Combo 1 morning match")
    page.get_by_role("button", name="Ready, Set, GeoPlunge!").click()
    expect(page.locator(".bu__card")).to_have_count(18)
    with app.app_context():
        row = db.session.execute(select(BorderUpRound)).scalar_one()
        first, second = solutions(row.hand, get_deck())[0]
    for postal in first:
        page.locator(".bu__card", has=page.locator(f"#group-{postal}")).locator(
            ".bu__postal"
        ).click()
    for postal in second:
        page.locator(f"#group-{postal}").select_option("2")
    page.get_by_role("button", name="GeoPlunge!").click()
    expect(page.get_by_role("status").first).to_contain_text(RESULT)


def play_state_iq(page, app) -> None:
    expect(page.locator(".combo-banner")).to_contain_text("Game 2")
    with app.app_context():
        row = db.session.execute(select(StateIqGame)).scalar_one()
        deck = get_deck()
        secret = deck[row.computer_card].name
        neighbours = [s.name for s in deck.neighbours(row.student_card)]
    for _ in range(10):
        turn = page.locator("input[name=turn]")
        if turn.count() == 0:
            break
        made = turn.get_attribute("value")
        label = page.locator("label[for=answer]").inner_text()
        page.locator("#answer").fill(
            secret if "guess" in label else (neighbours.pop(0) if neighbours else secret)
        )
        page.locator("#answer").press("Enter")
        expect(page.locator(f"input[name=turn][value='{made}']")).to_have_count(0)
    expect(page.get_by_role("status").first).to_contain_text(RESULT)


def play_dashing(page, app) -> None:
    expect(page.locator(".combo-banner")).to_contain_text("Game 3")
    with app.app_context():
        row = db.session.execute(select(DashingRound)).scalar_one()
        deck = get_deck()
        cards = [(deck[p].name, deck[p].capital) for p in row.cards]
    order = sorted(range(5), key=lambda i: cards[i][0])
    places = {i: str(n) for n, i in enumerate(order[:4], start=1)} | {order[4]: "aside"}
    for i in range(5):
        page.locator(f"#name-{i}").fill(cards[i][0])
        page.locator(f"#capital-{i}").fill(cards[i][1])
    for i in order:
        page.locator(f"#place-{i}").focus()
        page.keyboard.press("S" if places[i] == "aside" else places[i])
        expect(page.locator(f"#place-{i}")).to_have_value(places[i])
    page.get_by_role("button", name="GeoPlunge!").click()
    expect(page.get_by_role("status").first).to_contain_text(RESULT)


def play_the_ranks(page) -> None:
    expect(page.locator(".combo-banner")).to_contain_text("Game 4")
    expect(page.get_by_role("heading", name="Play the Ranks", level=1)).to_be_visible()
    for _ in range(40):
        if page.locator(".game-over").count():
            break
        discard = page.get_by_role("button", name=re.compile("^Discard "))
        follow = page.get_by_role("button", name=re.compile(": it wins$"))
        with page.expect_navigation():
            if discard.count():
                discard.first.click()
            elif follow.count():
                follow.first.click()
            elif page.locator(".hand .play-form input[type=radio]").count():
                # leading in drill mode: a category and the card's ranking in it
                form = page.locator(".hand .play-form").first
                form.locator("input[type=radio]").first.check()
                form.locator("input[name=number]").fill("25")
                form.get_by_role("button", name=re.compile("^Lead ")).click()
            else:  # drill hides only rankings met (D-H1): a new student plays on shown ranks
                page.get_by_role("button", name=re.compile("^(Lead on |Play )")).first.click()
        if page.locator("#fresh-all:visible").count():
            page.locator("#fresh-all:visible").click()
    expect(page.locator(".game-over h2")).to_have_text(RESULT)


def test_a_morning_round_against_the_computer_team(page, live_app):
    sign_up_student(page, "combo_kid")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Combo 1").click()
    page.get_by_label(re.compile("Morning round: 20 minutes")).check()
    page.get_by_label(re.compile("Easy: slow in the races")).check()
    page.get_by_role("button", name="Start the match").click()
    expect(
        page.get_by_text("The 20-minute clock starts when the first game is dealt.")
    ).to_be_visible()

    page.get_by_role("button", name="Deal game 1: Border-Up").click()
    play_border_up(page, live_app)
    back_to_the_match(page)
    # The clock runs on the page (without a reload) and the first game's result is listed.
    clock = page.get_by_role("timer")
    first_reading = clock.inner_text()
    expect(clock).not_to_have_text(first_reading, timeout=5_000)
    expect(page.locator(".combo__games tbody tr")).to_have_count(1)

    page.get_by_role("button", name="Deal game 2: State IQ").click()
    play_state_iq(page, live_app)
    back_to_the_match(page)
    page.get_by_role("button", name="Deal game 3: Dashing States").click()
    play_dashing(page, live_app)
    back_to_the_match(page)
    page.get_by_role("button", name="Deal game 4: Play the Ranks").click()
    play_the_ranks(page)
    page.locator(".game-over").get_by_role("link", name="Back to the match").click()

    rows = page.locator(".combo__games tbody tr")
    expect(rows).to_have_count(4)
    for n, name in enumerate(["Border-Up", "State IQ", "Dashing States", "Play the Ranks"]):
        expect(rows.nth(n)).to_contain_text(name)
        expect(rows.nth(n)).to_contain_text("Yes")
    # The order starts again while time is left; stopping rings the bell.
    expect(page.get_by_role("button", name="Deal game 5: Border-Up")).to_be_visible()
    page.get_by_role("button", name="Stop the match now").click()
    verdict = page.locator(".verdict")
    expect(verdict).to_have_attribute("role", "status")
    expect(verdict).to_contain_text(
        re.compile("You win the match!|The computer team wins the match|The match is a tie")
    )
    expect(verdict).to_contain_text(re.compile(r"Games won: you \d, the computer team \d"))
    with live_app.app_context():
        match = db.session.execute(select(ComboMatch)).scalar_one()
    assert match.result in {"won", "lost", "tied"}


def test_an_afternoon_match_fits_a_phone_and_works_by_keyboard(browser, live_server):
    context = browser.new_context(
        base_url=live_server, viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    tab = context.new_page()
    try:
        sign_up_student(tab, "combo_phone")
        tab.goto("/play/combo/")
        assert tab.evaluate("document.documentElement.scrollWidth") <= 360
        tab.get_by_label(re.compile("Afternoon round: 12 minutes")).check()
        tab.get_by_role("button", name="Start the match").click()
        expect(tab.get_by_role("heading", level=1)).to_have_text("Combo 1: afternoon round")
        expect(tab.get_by_text("in statehood")).to_be_visible()
        # Pick by keyboard: the first game offered, then the button.
        first = tab.locator("input[name=game]").first
        first.focus()
        tab.keyboard.press("Space")
        tab.get_by_role("button", name="Pick this game").focus()
        tab.keyboard.press("Enter")
        expect(tab.locator(".combo__picks li")).to_have_count(2)
        deal = tab.get_by_role("button", name=re.compile("^Deal game 1: "))
        expect(deal).to_be_visible()
        width = tab.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"the match page is {width}px wide"
    finally:
        context.close()


def test_a_game_page_counts_the_round_down_and_does_not_reload_at_the_bell(page, live_app):
    """Issue #21 (P-K7, K2): a game's page shows the match's clock; at the bell it says so in
    words and keeps the page (and what the student was typing); it fits a 360 px phone."""
    page.set_viewport_size({"width": 360, "height": 740})
    sign_up_student(page, "combo_bell")
    page.goto("/play/combo/")
    page.get_by_label(re.compile("Afternoon round: 12 minutes")).check()
    page.get_by_role("button", name="Start the match").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Combo 1: afternoon round")
    with live_app.app_context():  # State IQ first: a game with an answer to type
        match = db.session.execute(select(ComboMatch)).scalar_one()
        match.picks = ["state-iq", "border-up"]
        db.session.commit()
    page.reload()
    page.get_by_role("button", name="Deal game 1: State IQ").click()
    expect(page.get_by_role("heading", name="State IQ", level=1)).to_be_visible()
    banner = page.locator(".combo-banner")
    timer = banner.get_by_role("timer", name="Time left in the round")
    expect(timer).to_contain_text(re.compile(r"Time left: 1[12]:\d\d"))
    assert timer.get_attribute("aria-live") is None
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the game page is {width}px wide"

    with live_app.app_context():  # the bell is 4 seconds away
        match = db.session.execute(select(ComboMatch)).scalar_one()
        match.bell_at = utcnow() + dt.timedelta(seconds=4)
        db.session.commit()
    page.reload()
    first_reading = timer.inner_text()
    assert re.search(r"0:0[2-4]", first_reading), first_reading
    expect(timer).not_to_have_text(first_reading, timeout=3_000)  # it counts down
    page.locator("#answer").fill("Ohio")
    page.evaluate("window.notReloaded = true")
    bell = banner.locator(".clock")
    expect(bell).to_have_text("The bell has rung: this game no longer counts.", timeout=8_000)
    expect(bell).to_have_attribute("aria-live", "polite")
    page.wait_for_timeout(2_500)  # longer than the match page waits before its reload
    assert page.evaluate("window.notReloaded === true")
    expect(page.locator("#answer")).to_have_value("Ohio")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the game page is {width}px wide at the bell"
