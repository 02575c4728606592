"""The teacher's round page, the projector and a match's page follow the games on the students'
devices over Socket.IO, in Chromium (issue 22, P-K10): each says it listens on the socket, and a
team taking its seat shows on the round page and the projector without a reload."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.live_support import log_in, no_serious_violations, open_projector
from tests.browser.test_tournament_live import a_paired_round


def test_the_round_page_and_projector_listen_on_the_socket(browser, page, live_app, live_server):
    """P-K10: with the socket up, the round page, the projector and the match page say
    ``data-tlive-transport="socket"``; a seat taken reaches the round page and the projector (told
    over the socket: the safety poll is every 30 s) without a reload."""
    tid, mid = a_paired_round(live_app)
    context = browser.new_context(base_url=live_server, viewport={"width": 360, "height": 740})
    errors: list[str] = []
    try:
        ana = context.new_page()
        ana.set_default_timeout(10_000)
        ana.on("pageerror", lambda error: errors.append(str(error)))
        teacher = page
        log_in(teacher, "ms.rivera")
        log_in(ana, "ana.b")
        teacher.goto(f"/teach/tournaments/{tid}")
        round_part = teacher.locator("#tournament-live")
        expect(round_part).to_have_attribute("data-tlive-transport", "socket")
        teacher.evaluate("window.__sameDocument = true")
        projector = open_projector(teacher, tid, errors)
        projected = projector.locator("#tournament-live")
        expect(projected).to_have_attribute("data-tlive-transport", "socket")
        projector.evaluate("window.__sameDocument = true")

        ana.goto(f"/tournaments/{tid}/matches/{mid}")
        ana.get_by_role("button", name="Play game 1 on our own devices").click()
        expect(ana.locator("#live-announce")).to_contain_text("You hold your team’s seat")

        expect(round_part).to_contain_text("ana.b holds Team 1’s seat, waiting for Team 2")
        expect(projected).to_contain_text("Team 1 is ready, waiting for Team 2")
        assert teacher.evaluate("window.__sameDocument === true"), "the round page reloaded"
        assert projector.evaluate("window.__sameDocument === true"), "the projector reloaded"
        expect(round_part).to_have_attribute("data-tlive-transport", "socket")
        no_serious_violations(teacher)

        # The match page, while its game due waits on the devices, listens too.
        ana.goto(f"/tournaments/{tid}/matches/{mid}")
        expect(ana.locator("#tournament-live")).to_have_attribute("data-tlive-transport", "socket")
    finally:
        context.close()
    assert errors == [], errors
