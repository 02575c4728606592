"""Live play where the school's network refuses WebSockets (issue 22): ben.c's browser has every
WebSocket closed on it, as a proxy that blocks them would. His pages then hear of changes by
long-polling (each ask of the table's version held by the server until the table changes), and
play goes on: Ana's lobby sees him join, his lobby becomes the table when she starts it, and her
moves appear on his page without a reload."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.live_support import join_table, open_table, two_classmates


def test_a_student_whose_network_blocks_websockets_plays_on_by_long_polling(
    browser, page, live_app, live_server
):
    errors: list[str] = []
    with two_classmates(browser, page, live_app, live_server, errors) as (ana, ben):
        ben.context.route_web_socket(re.compile(r".*/socket\.io/.*"), lambda ws: ws.close())
        asks: list[str] = []
        ben.on(
            "request",
            lambda request: asks.append(request.url) if "/version" in request.url else None,
        )
        code = open_table(ana, "GeoPlunge 51: add rankings", seats="2")
        join_table(ben, code)
        expect(ben.locator("#live-root")).to_have_attribute("data-live-transport", "poll")
        expect(ana.locator("#live-root")).to_have_attribute("data-live-transport", "socket")
        expect(ana.locator(".live-seats")).to_contain_text("ben.c")

        # Ben's lobby becomes the table by itself when Ana starts it.
        ana.get_by_role("button", name="Start the game").click()
        expect(ben.get_by_role("heading", name=re.compile("GeoPlunge 51"), level=1)).to_be_visible()
        expect(ben.locator(".live-turn")).to_be_visible()

        # Until Ana has moved twice: each of her moves appears on Ben's page without a reload.
        hers = 0
        for _ply in range(40):
            if hers == 2 or ana.locator(".game-over").count():
                break
            expect(ana.locator(".live-turn")).to_be_visible()
            mine = "Your turn."
            mover = ana if ana.locator(".live-turn", has_text=mine).count() else None
            if mover is None and ben.locator(".live-turn", has_text=mine).count():
                mover = ben
            if mover is None:
                ana.wait_for_timeout(100)
                continue
            watcher = ben if mover is ana else ana
            watcher.evaluate("window.__sameDocument = true")
            before = watcher.locator("#live-root").get_attribute("data-live-version")
            with mover.expect_navigation():
                mover.locator(".hand .play-form button[name=action]:not([disabled])").first.click()
            expect(watcher.locator("#live-root")).not_to_have_attribute("data-live-version", before)
            assert watcher.evaluate("window.__sameDocument === true"), "the page reloaded"
            hers += mover is ana
        assert hers == 2
        expect(ben.locator("#live-root")).to_have_attribute("data-live-transport", "poll")
        # He heard it all by held asks: every ask of his names the version his page showed.
        assert asks and all("wait=1" in url and "after=" in url for url in asks), asks
    assert errors == [], errors
