"""axe-core over every student page, on a small phone (360x740) and on a Chromebook (1280x800):
questions, answers, games in play and their results. No serious or critical violation (WCAG 2.0 A
and AA, WCAG 2.1 AA), and no page wider than the screen (issue 21)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from tests.browser.conftest import add_state_iq_game, check_axe, sign_up_student
from trainer.facts import Form
from trainer.quiz.border_up import solutions
from trainer.review import pick_map
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import (
    BorderUpRound,
    CardGame,
    DashingRound,
    StudyRound,
    User,
)
from trainer.web.play import games

VIEWPORTS = {
    "phone": {"width": 360, "height": 740},
    "chromebook": {"width": 1280, "height": 800},
}
USERNAME = "axe_alex"
PASSWORD = "maps are fun"

#: The elements wider than the screen, for a failing test's message.
TOO_WIDE = """(width) => Array.from(document.querySelectorAll('body *'))
  .filter(e => e.getBoundingClientRect().right > width + 1)
  .slice(0, 8).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"""


class Checker:
    """Checks each page a student sees at one screen size, and remembers what it checked."""

    def __init__(self, page, width: int) -> None:
        self.page = page
        self.width = width
        self.seen: list[str] = []
        self.problems: list[str] = []

    def __call__(self, what: str) -> None:
        page = self.page
        page.wait_for_load_state()
        where = f"{what} ({page.url}) at {self.width}px"
        try:
            check_axe(page, where)
        except AssertionError as failed:  # listed with every other page's at the end
            self.problems.append(str(failed).split("\nassert")[0])
        wide = page.evaluate("document.documentElement.scrollWidth")
        if wide > self.width:
            too_wide = page.evaluate(TOO_WIDE, self.width)
            self.problems.append(f"{where} is {wide}px wide: {too_wide}")
        self.seen.append(what)

    def visit(self, url: str, what: str) -> None:
        response = self.page.goto(url)
        assert response is not None and response.status == 200, f"{url}: {response}"
        self(what)


def answer(page) -> None:
    """Send the choice made: with instant answers choosing may already send it; if not, Check."""
    check_button = page.locator("#check")
    if check_button.is_visible():
        check_button.click()


def study_pages(check: Checker, app, token: str = "axe-round") -> None:
    """A round of three facts: a choice answered right, a map choice answered wrong, and a
    "Find X on the map" found by a click; then the round's end."""
    page = check.page
    with app.app_context():
        student = db.session.execute(select(User).where(User.username == USERNAME)).scalar_one()
        seed = 20_21
        items = [["CO:capital", Form.CHOICE.value], ["UT:map", Form.CHOICE.value]]
        items.append(["TX:map", Form.MAP_CLICK.value])
        db.session.add(
            StudyRound(token=token, student_id=student.id, seed=seed, items=items, focus={})
        )
        db.session.commit()
        deck = get_deck()
        denver, utah = deck["CO"].capital, deck["UT"].name
        texas_spot = pick_map(deck, seed, 3).spot_of("TX")

    check.visit(f"/study/rounds/{token}/1", "a choice question")
    page.get_by_role("radio", name=re.compile(re.escape(denver))).click()
    answer(page)
    expect(page.get_by_role("heading", name="Right!")).to_be_visible()
    check("the feedback after a right answer")

    check.visit(f"/study/rounds/{token}/2", "a map choice question (which state is red)")
    page.locator(".choice").filter(has_not_text=utah).first.click()
    answer(page)
    expect(page.get_by_role("heading", name="Not this time")).to_be_visible()
    check("the feedback after a wrong answer")

    check.visit(f"/study/rounds/{token}/3", "a Find X on the map question")
    page.locator(f'[data-spot="{texas_spot}"]').click()
    expect(page.get_by_role("heading", name="Right!")).to_be_visible()
    check("the feedback after a map click")

    check.visit(f"/study/rounds/{token}/done", "the round done page")
    expect(page.get_by_role("heading", level=1)).to_have_text("Round done!")


def state_iq_pages(check: Checker, app, token: str = "axe-state-iq") -> None:
    page = check.page
    check.visit("/play/state-iq/", "State IQ start")
    add_state_iq_game(app, token, USERNAME)
    check.visit(f"/play/state-iq/{token}", "a State IQ game in play")
    page.locator("#answer").fill("Ohio")
    page.locator("#answer").press("Enter")
    expect(page.get_by_text("Guess 1: Ohio").first).to_be_visible()
    check("a State IQ game after a wrong guess")
    for _ in range(10):  # guess the computer's card whenever it is the student's turn to guess
        if page.locator("input[name=turn]").count() == 0:
            break
        made = page.locator("input[name=turn]").get_attribute("value")
        label = page.locator("label[for=answer]").inner_text()
        page.locator("#answer").fill("Utah" if "guess" in label else "Oklahoma")
        page.locator("#answer").press("Enter")
        expect(page.locator(f"input[name=turn][value='{made}']")).to_have_count(0)
    expect(page.get_by_role("status").first).to_contain_text(re.compile("You win!|wins|tie"))
    check("a State IQ game's result")


def dashing_pages(check: Checker, app) -> None:
    page = check.page
    check.visit("/play/dashing-states/", "Dashing States start")
    page.get_by_label("Practise without a clock").check()
    page.get_by_role("button", name="Deal the Map cards").click()
    expect(page).to_have_url(re.compile(r"/play/dashing-states/[A-Za-z0-9_-]+$"))
    check("a Dashing States round")
    with app.app_context():
        row = db.session.execute(
            select(DashingRound).order_by(DashingRound.id.desc()).limit(1)
        ).scalar_one()
        deck = get_deck()
        cards = [(deck[p].name, deck[p].capital) for p in row.cards]
    for i, (name, capital) in enumerate(cards):
        page.locator(f"#name-{i}").fill(name)
        page.locator(f"#capital-{i}").fill(capital)
    order = sorted(range(5), key=lambda i: cards[i][0])
    for place, i in enumerate(order, start=1):
        page.locator(f"#place-{i}").select_option(str(place) if place <= 4 else "aside")
    page.get_by_role("button", name="GeoPlunge!").click()
    expect(page.get_by_role("status").first).to_contain_text("All right!")
    check("a Dashing States round's result")


def border_up_pages(check: Checker, app) -> None:
    page = check.page
    check.visit("/play/border-up/", "Border-Up start")
    page.get_by_label("Hard (about 30 seconds)").check()
    page.get_by_role("button", name="Deal the cards").click()
    expect(page.get_by_role("button", name="Ready, Set, GeoPlunge!")).to_be_visible()
    check("a Border-Up round, face down")
    page.get_by_role("button", name="Ready, Set, GeoPlunge!").click()
    expect(page.locator(".bu__card")).to_have_count(18)
    check("a Border-Up round before the call")
    with app.app_context():
        row = db.session.execute(
            select(BorderUpRound).order_by(BorderUpRound.id.desc()).limit(1)
        ).scalar_one()
        first, second = solutions(row.hand, get_deck())[0]
    for group, postals in (("1", first), ("2", second)):
        for postal in postals:
            page.locator(f"#group-{postal}").select_option(group)
    page.get_by_role("button", name="GeoPlunge!").click()
    expect(page.get_by_role("status").first).to_contain_text(re.compile("You win!|wins|tie"))
    check("a Border-Up round after the call")


def card_game_pages(check: Checker, app) -> None:
    page = check.page
    check.visit("/play/games/", "the card games start")
    for drill in (False, True):
        page.goto("/play/games/")
        page.get_by_label("GeoPlunge 51: add rankings").check()
        page.get_by_label("Players, counting you").select_option("3")
        page.get_by_label("Easy: they play any card").check()
        if drill:
            page.get_by_label("Drill mode").check()
        page.get_by_role("button", name="Deal the cards").click()
        expect(page).to_have_url(re.compile(r"/play/games/[A-Za-z0-9_-]+"))
        expect(page.locator(".seat")).to_have_count(3)
        check(f"a GeoPlunge 51 table{' in drill mode' if drill else ''}")
    page.goto("/play/games/")
    page.get_by_label("Geography War").check()
    page.get_by_role("button", name="Deal the cards").click()
    expect(page).to_have_url(re.compile(r"/play/games/[A-Za-z0-9_-]+"))
    check("a Geography War table")
    play_out(app, re.search(r"/play/games/([A-Za-z0-9_-]+)", page.url).group(1))
    page.reload()
    expect(page.locator(".game-over")).to_be_visible()
    check("a Geography War game's end")


def play_out(app, token: str) -> None:
    """Play a card game to its end on the server, as the table would: the student's first legal
    action each time, then the computer players' turns."""
    with app.app_context():
        row = db.session.execute(select(CardGame).where(CardGame.token == token)).scalar_one()
        state = games._load(row)
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
            games._computer_turns(row, state)
        for column, value in games._stored(state).items():
            setattr(row, column, value)
        db.session.commit()


def combo_pages(check: Checker) -> None:
    page = check.page
    check.visit("/play/combo/", "Combo 1 start")
    page.get_by_label(re.compile("Morning round: 20 minutes")).check()
    page.get_by_label(re.compile("Easy: slow in the races")).check()
    page.get_by_role("button", name="Start the match").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Combo 1: morning round")
    check("a Combo 1 match")
    page.get_by_role("button", name="Deal game 1: Border-Up").click()
    expect(page.locator(".combo-banner")).to_be_visible()
    check("a Combo 1 match's first game")
    page.locator(".combo-banner").get_by_role("link", name="Back to the match").click()
    page.get_by_role("button", name="Stop the match now").click()
    expect(page.get_by_role("button", name="Stop the match now")).to_have_count(0)
    check("a Combo 1 match's result")


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_every_student_page_passes_axe_and_fits_the_screen(browser, live_server, live_app, screen):
    viewport = VIEWPORTS[screen]
    phone = screen == "phone"
    context = browser.new_context(
        base_url=live_server, viewport=viewport, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    check = Checker(page, viewport["width"])
    try:
        sign_up_student(page, USERNAME, PASSWORD)
        check.visit("/", "home")
        check.visit("/study/", "the study home")
        check.visit("/study/settings", "settings")
        check.visit("/deck/", "the deck")
        check.visit("/deck/hi", "a card (Hawaii)")
        check.visit("/deck/ri", "a card (Rhode Island)")
        state_iq_pages(check, live_app)
        dashing_pages(check, live_app)
        border_up_pages(check, live_app)
        card_game_pages(check, live_app)
        combo_pages(check)
        study_pages(check, live_app)
        check.visit("/progress/", "the dashboard")
        check.visit("/assignments/", "assignments")
        check.visit("/teach/join", "join a class")
    finally:
        context.close()
    assert len(check.seen) >= 30, check.seen
    assert not check.problems, "\n".join(check.problems)


BAD_PAGE = """<!doctype html><html lang="en"><head><title>Bad</title></head><body><main>
<h1>A bad page</h1><p style="color:#bbb;background:#fff">Light grey on white.</p>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
</main></body></html>"""


def test_the_axe_check_fails_on_a_page_with_serious_violations(browser):
    """The check itself: axe runs and a serious violation fails with its rule and element."""
    page = browser.new_page()
    try:
        page.set_content(BAD_PAGE)
        with pytest.raises(AssertionError) as failed:
            check_axe(page, "the bad page")
    finally:
        page.close()
    assert "color-contrast (serious)" in str(failed.value)
    assert "image-alt (critical)" in str(failed.value)
    assert "img" in str(failed.value)
