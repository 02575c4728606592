"""A new student studies with the keyboard alone: choices by number keys, typed answers, the map."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from sqlalchemy import select

from tests.browser.conftest import sign_up_student
from trainer.facts import Fact, Facet, Form, expected_answer
from trainer.review import ROUND_SIZE, Item, question
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import StudyRound

ROUND_URL = re.compile(r"/study/rounds/([A-Za-z0-9_-]+)/(\d+)$")


def asked(app, url):
    """The question on ``url``, rebuilt on the server side from the round's seed."""
    token, index = ROUND_URL.search(url).groups()
    with app.app_context():
        round_ = db.session.execute(select(StudyRound).where(StudyRound.token == token)).scalar_one()
        key, form = round_.items[int(index) - 1]
        return question(Item(Fact.from_key(key), Form(form)), get_deck(), round_.seed, int(index))


def right_answer(app, q) -> str:
    with app.app_context():
        deck = get_deck()
        if q.fact.facet is Facet.BORDERS:
            names = [n.name for n in deck.neighbours(q.fact.postal)]
            if q.form is Form.CHOICE:
                return next(c for c in q.choices if c in names or (not names and c == "None of them"))
            return ", ".join(names) or "none"
        return expected_answer(q.fact, deck)


def answer_with_keyboard(page, app, index: int) -> Form:
    expect(page).to_have_url(re.compile(rf"/study/rounds/[^/]+/{index}$"))
    expect(page.locator("#answer-form")).to_be_visible()
    page.wait_for_load_state()
    q = asked(app, page.url)
    answer = right_answer(app, q)
    if q.form is Form.CHOICE:
        page.keyboard.press(str(q.choices.index(answer) + 1))
        expect(page.get_by_role("radio", name=re.compile(re.escape(answer)))).to_be_checked()
        page.keyboard.press("Enter")
    elif q.form is Form.TYPED:
        expect(page.get_by_label("Your answer")).to_be_focused()
        page.keyboard.type(answer)
        page.keyboard.press("Enter")
    else:  # find the state on the map: Tab moves from west to east
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.getAttribute('data-postal')") == q.fact.postal:
                break
        page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Right!")
    expect(page.get_by_text("You will see this again")).to_be_visible()
    # The whole card of that state is shown after the answer.
    with app.app_context():
        expect(page.locator(".gp-card__name")).to_have_text(get_deck()[q.fact.postal].name)
    expect(page.locator("#next")).to_be_focused()
    page.keyboard.press("Enter")
    return q.form


def test_a_new_student_reviews_ten_facts_with_the_keyboard_alone(page, live_app):
    sign_up_student(page, "keyboard_kid")
    expect(page.locator(".stat").nth(1)).to_contain_text("20 new facts left today")

    # Tab to "Start studying" and press Enter.
    for _ in range(15):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent").strip() == "Start studying":
            break
    page.keyboard.press("Enter")
    forms = []
    for index in range(1, ROUND_SIZE + 1):
        expect(page.get_by_text(f"Fact {index} of {ROUND_SIZE}")).to_be_visible()
        forms.append(answer_with_keyboard(page, live_app, index))
    assert set(forms) == {Form.CHOICE}, "a new student's first facts are multiple choice"
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
    expect(page.get_by_role("heading", level=1)).to_have_text("Close!" if slipped != right else "Right!")
    expect(page.locator(".verdict__expected")).to_have_text(right)
