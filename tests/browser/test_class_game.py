"""GeoPlunge Live in real browsers (issue 23, C-W9, C-W10): a teacher's projector and three
students' phones play a short game to its end, one phone reloaded mid-question. Every change reaches the other screens by itself
(Socket.IO): the lobby's names, each question, the answers counted, the reveal."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from sqlalchemy import select

from tests.browser.conftest import open_menu
from tests.browser.live_support import PASSWORD, log_in, no_serious_violations, own_browser
from tests.conftest import make_user
from trainer.web.class_game import game as games
from trainer.web.extensions import db
from trainer.web.models import ClassGame, ClassMembership, Role, SchoolClass

STUDENTS = ("ana.b", "ben.c", "cai.d")


def _class(app) -> int:
    teacher = make_user(app, "ms.live", PASSWORD, role=Role.TEACHER)
    ids = [make_user(app, name, PASSWORD).id for name in STUDENTS]
    with app.app_context():
        klass = SchoolClass(teacher_id=teacher.id, name="5B", join_code="K7P2QRST")
        db.session.add(klass)
        db.session.flush()
        db.session.add_all(ClassMembership(class_id=klass.id, student_id=i) for i in ids)
        db.session.commit()
        return klass.id


def _game(app) -> ClassGame:
    with app.app_context():
        found = db.session.execute(select(ClassGame)).scalar_one()
        db.session.expunge(found)
        return found


def test_a_projector_and_three_phones_play_a_game_to_its_end(browser, live_app, live_server):
    klass = _class(live_app)
    errors: list[str] = []
    with own_browser(
        browser, live_server, errors, viewport={"width": 1280, "height": 900}
    ) as projector:
        log_in(projector, "ms.live")
        projector.goto(f"/teach/classes/{klass}")
        projector.get_by_role("link", name="Start a live game").click()
        for box in projector.locator('input[name="kinds"]').all():
            if box.get_attribute("value") != "capital":
                box.uncheck()
        projector.get_by_label("Questions").fill("2")
        projector.get_by_label("Timer").select_option("")
        projector.get_by_role("button", name="Make the game").click()
        expect(projector.locator(".cg-code")).to_be_visible()
        code = projector.locator(".cg-code").inner_text().strip()
        expect(projector.locator(".cg-qr svg")).to_be_visible()
        no_serious_violations(projector)

        phones = []
        contexts = [own_browser(browser, live_server, errors, console=True) for _ in STUDENTS]
        try:
            for name, context in zip(STUDENTS, contexts, strict=True):
                phone = context.__enter__()
                phones.append(phone)
                log_in(phone, name)
                open_menu(phone)
                phone.get_by_role("link", name="Class game").click()
                phone.get_by_label("The game's code").fill(code.lower())
                phone.get_by_role("button", name="Join the game").click()
                expect(phone.get_by_text("You are in.")).to_be_visible()
                # The projector's lobby fills in by itself.
                expect(projector.locator(".cg-names")).to_contain_text(name)

            projector.get_by_role("button", name="Start the game").click()
            for number in range(2):
                game = _game(live_app)
                q = games.question_from_json(game.questions[number])
                for phone in phones:
                    expect(phone.locator(".cg-prompt")).to_have_text(q.prompt)
                if number == 0:
                    # A student reloads mid-question: back at the same question (C-W10).
                    phones[2].reload()
                    expect(phones[2].locator(".cg-prompt")).to_have_text(q.prompt)
                    expect(phones[2].locator("#cg-root")).to_have_attribute(
                        "data-cg-transport", re.compile("socket|poll")
                    )
                wrong = next(o for o in q.options if o != q.answer)
                if number == 0:
                    no_serious_violations(phones[0])
                    no_serious_violations(projector)
                phones[0].get_by_role("button", name=q.answer, exact=True).click()
                phones[1].get_by_role("button", name=wrong, exact=True).click()
                expect(phones[0].get_by_text("Your answer is in")).to_be_visible()
                expect(projector.locator(".cg-count")).to_contain_text("2 of 3 answered")
                projector.get_by_role("button", name="Reveal the answer").click()
                expect(projector.locator(".cg-spread")).to_contain_text("1 of you chose")
                expect(phones[0].locator(".cg-verdict")).to_contain_text("Right!")
                expect(phones[1].locator(".cg-verdict")).to_contain_text("Not this time")
                expect(phones[2].locator(".cg-verdict")).to_contain_text("You did not answer")
                if number == 0:
                    no_serious_violations(phones[1])
                    no_serious_violations(projector)
                projector.get_by_role("button", name="Show the standings").click()
                expect(projector.locator(".cg-standings")).to_contain_text("ana.b")
                last = "Finish the game" if number == 1 else "Next question"
                projector.get_by_role("button", name=last).click()
            expect(projector.get_by_role("heading", name="The game is over")).to_be_visible()
            for phone in phones:
                expect(phone.get_by_role("heading", name="The game is over")).to_be_visible()
            expect(phones[0].locator(".cg-final")).to_contain_text("number 1 of 3")
            # A refresh comes back to where the game is (C-W10).
            phones[2].reload()
            expect(phones[2].get_by_role("heading", name="The game is over")).to_be_visible()
            projector.get_by_role("link", name="The report").click()
            expect(projector).to_have_url(re.compile(r"/report$"))
            expect(projector.get_by_text("What the class missed")).to_be_visible()
        finally:
            for context in contexts:
                context.__exit__(None, None, None)
    assert errors == []


def test_a_state_is_found_on_the_map_and_a_border_up_trio_ticked(browser, live_app, live_server):
    """The map to tap (a study round's map of numbered outlines) and the six cards to tick, on a phone; a new clue or
    another question reaches the phone by itself (C-W9)."""
    klass = _class(live_app)
    errors: list[str] = []
    with (
        own_browser(
            browser, live_server, errors, viewport={"width": 1280, "height": 900}
        ) as projector,
        own_browser(browser, live_server, errors, console=True) as phone,
    ):
        log_in(projector, "ms.live")
        projector.goto(f"/class-game/classes/{klass}/new")
        for box in projector.locator('input[name="kinds"]').all():
            if box.get_attribute("value") not in ("find", "border-up"):
                box.uncheck()
        projector.get_by_label("Questions").fill("2")
        projector.get_by_label("Timer").select_option("")
        projector.get_by_role("button", name="Make the game").click()
        code = projector.locator(".cg-code").inner_text().strip()
        log_in(phone, "ana.b")
        phone.goto(f"/class-game/?code={code}")
        phone.get_by_role("button", name="Join the game").click()
        expect(projector.locator(".cg-names")).to_contain_text("ana.b")
        # The phone's socket listens to the game before it starts (else it catches up by fetching).
        expect(phone.locator("#cg-root[data-cg-watching]")).to_have_count(1)
        fetched: list[str] = []
        phone.on("request", lambda r: fetched.append(r.url) if "part=live" in r.url else None)
        projector.get_by_role("button", name="Start the game").click()
        game = _game(live_app)
        first = games.question_from_json(game.questions[0])
        second = games.question_from_json(game.questions[1])
        assert {first.kind.value, second.kind.value} == {"find", "border-up"}
        for number in range(2):
            q = first if number == 0 else second
            expect(phone.locator(".cg-prompt")).to_have_text(q.prompt)
            # The notice brought the question (C-W9): the phone fetched nothing to show it, and
            # its form carries the page's own CSRF token (the answer below is kept).
            assert fetched == [], fetched
            expect(phone.locator("#cg-root")).to_have_attribute("data-cg-question", str(number))
            if q.kind.value == "find":
                # The question's own map names no state (C-W13): its outline is found by its spot.
                with live_app.app_context():
                    spot = games.find_map(game, number, live_app.extensions["deck"]).spot_of(
                        q.answer
                    )
                assert phone.locator(".map-state--pick[data-postal]").count() == 0
                # Chosen as a keyboard user does (a tap of its middle may land on a neighbour's
                # outline: tapping is the study map's own tests').
                chosen = phone.locator(f'.map-state--pick[data-spot="{spot}"]')
                chosen.focus()
                chosen.press("Enter")
            else:
                for postal in q.answer.split("+"):
                    phone.get_by_label(live_app.extensions["deck"][postal].name, exact=True).check()
                phone.get_by_role("button", name="These three").click()
            expect(phone.get_by_text("Your answer is in")).to_be_visible()
            projector.get_by_role("button", name="Reveal the answer").click()
            expect(phone.locator(".cg-verdict")).to_contain_text("Right!")
            projector.get_by_role("button", name="Show the standings").click()
            expect(phone.locator("#cg-root")).to_have_attribute("data-cg-phase", "standings")
            fetched.clear()
            projector.get_by_role(
                "button", name="Finish the game" if number == 1 else "Next question"
            ).click()
        expect(phone.get_by_role("heading", name="The game is over")).to_be_visible()
    assert errors == []


def test_a_phone_whose_network_blocks_websockets_plays_on_by_long_polling(
    browser, live_app, live_server
):
    """C-W9: every WebSocket of this phone is closed, as a proxy that blocks them would; its page
    long-polls the game's version and follows the game with no reload."""
    klass = _class(live_app)
    errors: list[str] = []
    with (
        own_browser(
            browser, live_server, errors, viewport={"width": 1280, "height": 900}
        ) as projector,
        own_browser(browser, live_server, errors) as phone,
    ):
        phone.context.route_web_socket(re.compile(r".*/socket\.io/.*"), lambda ws: ws.close())
        log_in(projector, "ms.live")
        projector.goto(f"/class-game/classes/{klass}/new")
        for box in projector.locator('input[name="kinds"]').all():
            if box.get_attribute("value") != "ranks":
                box.uncheck()
        projector.get_by_label("Questions").fill("1")
        projector.get_by_label("Timer").select_option("30")
        projector.get_by_role("button", name="Make the game").click()
        code = projector.locator(".cg-code").inner_text().strip()
        log_in(phone, "ben.c")
        phone.goto(f"/class-game/?code={code}")
        phone.get_by_role("button", name="Join the game").click()
        expect(phone.locator("#cg-root")).to_have_attribute("data-cg-transport", "poll")
        expect(projector.locator(".cg-names")).to_contain_text("ben.c")
        phone.evaluate("window.__sameDocument = true")
        projector.get_by_role("button", name="Start the game").click()
        q = games.question_from_json(_game(live_app).questions[0])
        expect(phone.locator(".cg-prompt")).to_have_text(q.prompt)
        assert phone.evaluate("window.__sameDocument === true"), "the page reloaded"
        expect(phone.locator("[data-cg-timer]")).to_be_visible()
        deck = live_app.extensions["deck"]
        phone.get_by_role("button", name=deck[q.answer].name, exact=True).click()
        expect(projector.locator(".cg-count")).to_contain_text("1 of 1 answered")
        phone.evaluate("window.__sameDocument = true")
        projector.get_by_role("button", name="Reveal the answer").click()
        expect(phone.locator(".cg-verdict")).to_contain_text("Right!")
        assert phone.evaluate("window.__sameDocument === true"), "the page reloaded"
    assert errors == []
