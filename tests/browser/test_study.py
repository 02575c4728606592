"""A new student studies with the keyboard alone: choices by number keys, typed answers, the map."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from sqlalchemy import select

from tests.browser.conftest import sign_up_student
from trainer.facts import Facet, Fact, Form, expected_answer
from trainer.review import ROUND_SIZE, Item, pick_map, question
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import StudyRound, User

ROUND_URL = re.compile(r"/study/rounds/([A-Za-z0-9_-]+)/(\d+)$")
#: The keys that move on a pick map (P-H2), as on a number pad for the diagonals.
MOVE_KEYS = {
    "north": "ArrowUp",
    "east": "ArrowRight",
    "south": "ArrowDown",
    "west": "ArrowLeft",
    "north-west": "Home",
    "north-east": "PageUp",
    "south-west": "End",
    "south-east": "PageDown",
}
ARROWS = ("north", "east", "south", "west")


def asked(app, url):
    """The question on ``url``, rebuilt on the server side from the round's seed."""
    token, index = ROUND_URL.search(url).groups()
    with app.app_context():
        round_ = db.session.execute(
            select(StudyRound).where(StudyRound.token == token)
        ).scalar_one()
        key, form = round_.items[int(index) - 1]
        return question(Item(Fact.from_key(key), Form(form)), get_deck(), round_.seed, int(index))


def right_answer(app, q) -> str:
    with app.app_context():
        deck = get_deck()
        if q.fact.facet is Facet.BORDERS:
            names = [n.name for n in deck.neighbours(q.fact.postal)]
            if q.form is Form.CHOICE:
                return next(
                    c for c in q.choices if c in names or (not names and c == "None of them")
                )
            return ", ".join(names) or "none"
        return expected_answer(q.fact, deck)


def answer_with_keyboard(page, app, index: int) -> Form:
    expect(page).to_have_url(re.compile(rf"/study/rounds/[^/]+/{index}$"))
    expect(page.locator("#answer-form")).to_be_visible()
    page.wait_for_load_state()
    q = asked(app, page.url)
    answer = right_answer(app, q)
    if q.form is Form.CHOICE:
        # Instant answers (#21): the number key picks the option and answers; no Enter, no Check.
        page.keyboard.press(str(q.choices.index(answer) + 1))
    elif q.form is Form.TYPED:
        expect(page.get_by_label("Your answer")).to_be_focused()
        page.keyboard.type(answer)
        page.keyboard.press("Enter")
    else:  # find the state on the map: Tab into it, then the arrow keys
        find_on_the_map_by_keyboard(page, app, q.fact.postal)
        page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Right!")
    expect(page.get_by_text("You will see this again")).to_be_visible()
    # The whole card of that state is shown after the answer.
    with app.app_context():
        expect(page.locator(".gp-card__name")).to_have_text(get_deck()[q.fact.postal].name)
    # Instant answers (#21): the focus is on the verdict, where Enter goes on to the next fact.
    expect(page.locator("#verdict-title")).to_be_focused()
    page.keyboard.press("Enter")
    return q.form


def spot_path(app, url: str, postal: str, directions=ARROWS) -> tuple[list[str], dict[str, str]]:
    """The moves from the map's first Tab stop to ``postal`` (fewest first), and spot -> state."""
    token, index = ROUND_URL.search(url).groups()
    with app.app_context():
        round_ = db.session.execute(
            select(StudyRound).where(StudyRound.token == token)
        ).scalar_one()
        pick = pick_map(get_deck(), round_.seed, int(index))
    spots = {str(s.number): s for s in pick.spots}
    goal = str(pick.spot_of(postal))
    routes = {str(pick.start): []}
    todo = [str(pick.start)]
    while todo and goal not in routes:
        here = todo.pop(0)
        for direction, there in spots[here].moves:
            if direction in directions and str(there) not in routes:
                routes[str(there)] = routes[here] + [direction]
                todo.append(str(there))
    return routes[goal], {number: spot.postal for number, spot in spots.items()}


def find_on_the_map_by_keyboard(page, app, postal: str, directions=ARROWS) -> list[str]:
    """Tab into the map and move to ``postal`` with the keys; returns what the live region said."""
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.hasAttribute('data-spot')"):
            break
    moves, _ = spot_path(app, page.url, postal, directions)
    said = []
    for direction in moves:
        page.keyboard.press(MOVE_KEYS[direction])
        live = page.locator("#pick-live")
        expect(live).to_have_text(re.compile(rf"^Moved {direction}\. A state in the "))
        said.append(live.text_content())
    return said


def test_a_find_on_the_map_question_is_answered_by_keyboard_and_the_map_names_no_state(
    page, live_app
):
    """P-H2: Tab enters the map once, the arrow keys move by direction, Enter chooses, and the
    live region never names a state."""
    sign_up_student(page, "arrow_ann")
    with live_app.app_context():
        student = db.session.execute(select(User).where(User.username == "arrow_ann")).scalar_one()
        items = [["TX:map", "map_click"], ["ME:map", "map_click"]]
        db.session.add(
            StudyRound(token="arrows", student_id=student.id, seed=424242, items=items, focus={})
        )
        db.session.commit()
        names = [s.name for s in get_deck()]
    page.goto("/study/rounds/arrows/1")
    expect(page.get_by_role("group", name="Find Texas on the map.")).to_be_visible()
    # One Tab stop: Tab enters the map, the next Tab leaves it.
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.hasAttribute('data-spot')"):
            break
    entered = page.evaluate("document.activeElement.getAttribute('data-spot')")
    page.keyboard.press("Tab")
    assert not page.evaluate("document.activeElement.hasAttribute('data-spot')"), (
        "the map is one Tab stop"
    )
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.getAttribute('data-spot')") == entered
    moves, states = spot_path(live_app, page.url, "TX")
    said = []
    for direction in moves:
        page.keyboard.press(MOVE_KEYS[direction])
        expect(page.locator("#pick-live")).to_have_text(re.compile(rf"^Moved {direction}\."))
        said.append(page.locator("#pick-live").text_content())
        here = page.evaluate("document.activeElement.getAttribute('data-spot')")
        assert page.evaluate("document.querySelectorAll('[data-spot][tabindex=\"0\"]').length") == 1
        assert page.evaluate("document.activeElement.getAttribute('tabindex')") == "0"
    assert states[here] == "TX"
    assert said and all(name not in text for text in said for name in names), said
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Right!")
    expect(page.locator(".gp-card__name")).to_have_text("Texas")
    page.keyboard.press("Enter")
    # The second question by the diagonals as well (Home, Page Up, End, Page Down).
    expect(page.get_by_role("group", name="Find Maine on the map.")).to_be_visible()
    said = find_on_the_map_by_keyboard(page, live_app, "ME", directions=tuple(MOVE_KEYS))
    assert all(name not in text for text in said for name in names), said
    # Nothing lies north of Maine: the live region says so and the focus stays.
    here = page.evaluate("document.activeElement.getAttribute('data-spot')")
    page.keyboard.press("ArrowUp")
    expect(page.locator("#pick-live")).to_have_text("No state to the north.")
    assert page.evaluate("document.activeElement.getAttribute('data-spot')") == here
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Right!")
    html = page.content()
    assert "Maine" in html, "after the answer the card names the state"


def test_a_new_student_reviews_ten_facts_with_the_keyboard_alone(page, live_app):
    sign_up_student(page, "keyboard_kid")
    # A first run (#21): a welcome instead of the stat boxes of zeros.
    expect(page.locator("[data-state=first]")).to_contain_text("up to 20 new facts today")

    # Tab to "Start studying" and press Enter (past the header's links, Settings among them).
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent").strip() == "Start studying":
            break
    page.keyboard.press("Enter")
    forms = []
    for index in range(1, ROUND_SIZE + 1):
        expect(page.get_by_text(f"Fact {index} of {ROUND_SIZE}")).to_be_visible()
        forms.append(answer_with_keyboard(page, live_app, index))
    # P-M13: the new map facts are found on the map (by the keyboard here), the rest picked.
    assert set(forms) == {Form.CHOICE, Form.MAP_CLICK}, "a new student's first facts"
    expect(page.get_by_role("heading", level=1)).to_have_text("Round done!")
    expect(page.get_by_text("10 right, 0 close, 0 to learn.")).to_be_visible()

    # Without multiple choice, the next facts are typed or found on the map, still by keyboard.
    page.goto("/study/settings")
    page.get_by_label("Offer multiple choice for facts I am still learning").uncheck()
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_role("status").first).to_contain_text("Settings saved")
    page.goto("/study/")
    page.get_by_role("button", name="Start studying").focus()
    page.keyboard.press("Enter")
    forms = [answer_with_keyboard(page, live_app, index) for index in range(1, ROUND_SIZE + 1)]
    assert Form.TYPED in forms and Form.CHOICE not in forms
    expect(page.get_by_text("10 right, 0 close, 0 to learn.")).to_be_visible()
    page.goto("/study/")
    expect(page.locator(".stat").nth(2)).to_contain_text("20")
    expect(page.locator(".stat").nth(2)).to_contain_text("answered today")


def test_a_wrong_answer_teaches_and_a_blank_one_is_asked_again(page, live_app):
    sign_up_student(page, "typo_tom")
    page.goto("/study/settings")
    page.get_by_label("Offer multiple choice for facts I am still learning").uncheck()
    page.get_by_role("button", name="Save settings").click()
    page.goto("/study/")
    page.get_by_text("Focus on some facts").click()
    page.get_by_label("Capitals").check()
    page.get_by_role("button", name="Start studying").click()
    q = asked(live_app, page.url)
    assert q.fact.facet is Facet.CAPITAL and q.form is Form.TYPED
    # A blank answer: told what to do, nothing recorded.
    page.get_by_role("button", name="Check").click()
    expect(page.get_by_role("alert")).to_contain_text("Type an answer")
    # A slip of spelling is close, with the right spelling shown.
    right = right_answer(live_app, q)
    slipped = right[:-2] + right[-1] + right[-2] if len(right) >= 5 else right
    page.get_by_label("Your answer").fill(slipped)
    page.get_by_label("Your answer").press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Close!" if slipped != right else "Right!"
    )
    expect(page.locator(".verdict__expected")).to_have_text(right)
