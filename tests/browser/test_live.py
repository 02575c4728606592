"""Live play in Chromium (issue 22): two classmates, each in their own browser, open and join a
table, and play GeoPlunge 51 with a computer player to the end. Each page changes by itself when
the other moves (no reload: the socket tells it), one of them reloads in the middle and finds the
same game, and the lobby and the table pass axe on a phone."""

from __future__ import annotations

import re

from playwright.sync_api import expect

# PASSWORD and log_in: test_tournament_live imports them from here.
from tests.browser.live_support import (  # noqa: F401
    PASSWORD,
    fits_a_phone,
    join_table,
    log_in,
    no_serious_violations,
    open_table,
    two_classmates,
)


def test_two_classmates_play_geoplunge_51_each_in_their_own_browser(
    browser, page, live_app, live_server
):
    errors: list[str] = []
    # Ben is on a phone, in a browser of his own (his own cookies).
    with two_classmates(browser, page, live_app, live_server, errors, console=True) as (ana, ben):
        # Ana opens a table from the menu's "Classmates".
        code = open_table(
            ana, "GeoPlunge 51: add rankings", seats="3", level="Easy: it plays any card"
        )
        assert re.fullmatch(r"[A-Z2-9]{6}", code)
        expect(ana.get_by_role("button", name="Start the game")).to_be_disabled()

        # Ben types it as a child would, in lower case; Ana's lobby shows him without a reload.
        ana.evaluate("window.__sameDocument = true")
        join_table(ben, code.lower())
        expect(ben.locator(".live-seats")).to_contain_text("ana.b")
        expect(ben.get_by_text("Waiting for ana.b to start the game")).to_be_visible()
        no_serious_violations(ben)
        expect(ana.locator(".live-seats")).to_contain_text("ben.c")
        assert ana.evaluate("window.__sameDocument === true"), "the lobby reloaded"
        expect(ana.get_by_role("button", name="Start the game")).to_be_enabled()

        # Both pages hear of changes over the socket (WebSocket), not by polling.
        for tab in (ana, ben):
            expect(tab.locator("#live-root")).to_have_attribute("data-live-transport", "socket")
        ana.get_by_role("button", name="Start the game").click()
        # Ben's lobby becomes the table by itself.
        expect(ben.get_by_role("heading", name=re.compile("GeoPlunge 51"), level=1)).to_be_visible()
        expect(ben.locator(".live-turn")).to_be_visible(timeout=10_000)
        expect(ana.locator(".live-turn")).to_be_visible()
        fits_a_phone(ben)

        players = {"ana.b": ana, "ben.c": ben}
        moves = 0
        reloaded = False
        while not ana.locator(".game-over").count():
            assert moves < 300, "the game never ended"
            mover = next(
                (
                    p
                    for p in players.values()
                    if p.locator(".live-turn", has_text="Your turn.").count()
                ),
                None,
            )
            if mover is None:
                # The other page is about to hear of the last move.
                ana.wait_for_timeout(100)
                continue
            watcher = ben if mover is ana else ana
            watcher.evaluate("window.__sameDocument = true")
            before = int(watcher.locator("#live-root").get_attribute("data-live-version"))
            button = mover.locator(".hand .play-form button[name=action]:not([disabled])").first
            with mover.expect_navigation():
                button.click()
            moves += 1
            # The other seat's page changes without a reload.
            expect(watcher.locator("#live-root")).not_to_have_attribute(
                "data-live-version", str(before)
            )
            if not watcher.locator(".game-over").count():
                assert watcher.evaluate("window.__sameDocument === true"), "the page reloaded"
            if moves == 5 and not reloaded:
                # A refresh in the middle comes back to the same position.
                version = watcher.locator("#live-root").get_attribute("data-live-version")
                watcher.reload()
                expect(watcher.locator("#live-root")).to_have_attribute(
                    "data-live-version", version
                )
                reloaded = True
        expect(ben.locator(".game-over")).to_be_visible()
        results = {name: p.locator(".game-over h2").inner_text() for name, p in players.items()}
        assert set(results.values()) <= {"You won!", "You lost this one.", "A draw."}
        assert reloaded and moves >= 5
    assert errors == [], errors
