"""Three classmates play GeoPlunge 51 to the end in Chromium (issue 22), each in a browser of their
own (their own cookies; one on a 360 px phone), at a table of three seats with no computer: the
host opens it from the menu's "Classmates", the others join with its code, the host starts it and
every move is a button pressed at the seat to move. After each move both other pages change by
themselves (the socket tells them: no reload, L-T5), no page ever names a card another seat holds
(L-T4), one student reloads in the middle and finds the same position, and every page ends on the
same game's result (exactly one winner: GeoPlunge 51 always has one, G8)."""

from __future__ import annotations

import re
from contextlib import ExitStack

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select

from tests.browser.live_support import (
    classmates,
    fits_a_phone,
    join_table,
    log_in,
    open_table,
    own_browser,
    start_table,
)
from tests.web.live_support import seats_of, state_of, table_row
from trainer.web.extensions import db
from trainer.web.live import routes as live_routes
from trainer.web.models import User

NAMES = ("ana.b", "ben.c", "cai.d")
#: The table is dealt from a known seed (G9): the same cards, the same moves and the same game
#: every run (42 moves, two rounds, with the moves picked below).
SEED = 9101
RESULTS = {"You won!", "You lost this one.", "A draw."}


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_routes, "new_seed", lambda: SEED)


def a_quick_move(page: Page, version: str) -> None:
    """Press the button that ends the game soonest: a play that makes the count exactly 51 (10
    points, F2), else the highest ranking the count allows (the next player is soonest stuck, F3);
    the first such button on the page, the page of the seat to move at ``version``. Returns once
    the page shows the table after the move."""
    buttons = page.locator(".hand .play-form button[name=action]:not([disabled])")
    ranks = [int(text.split()[-1]) for text in buttons.all_inner_texts()]
    assert ranks, "F4: the player to move always has a legal play"
    room = 51 - int(page.locator(".count-box__value").inner_text())
    best = room if room in ranks else max(ranks)
    buttons.nth(ranks.index(best)).click()
    # Not expect_navigation: at the last move the socket's word that the game is over can reach
    # the page before the POST's answer does, and live.js's reload (a new status) then aborts that
    # navigation; either way the page ends on the table after the move.
    expect(page.locator("#live-root")).not_to_have_attribute("data-live-version", version)


def names_shown(names: set[str], html: str) -> set[str]:
    """Which of the state ``names`` the page's ``html`` names (Virginia is not West Virginia)."""
    return {n for n in names if re.search(rf"(?<!West )\b{re.escape(n)}\b", html)}


def test_three_classmates_play_geoplunge_51_to_the_end_each_in_their_own_browser(
    browser, page, live_app, live_server, seeded
):
    errors: list[str] = []
    classmates(live_app, NAMES)
    with ExitStack() as stack:
        # Ana on a wide screen (``page``: its console errors fail the test), Ben on a phone and
        # Cai on a tablet, each in a browser of their own.
        ben = stack.enter_context(own_browser(browser, live_server, errors, console=True))
        cai = stack.enter_context(
            own_browser(
                browser, live_server, errors, viewport={"width": 820, "height": 1180}, console=True
            )
        )
        pages = dict(zip(NAMES, (page, ben, cai), strict=True))
        for name, tab in pages.items():
            log_in(tab, name)
        ana = page

        code = open_table(ana, "GeoPlunge 51: add rankings", seats="3")
        join_table(ben, code)
        join_table(cai, code.lower())
        # Ana's lobby shows both without a reload; with every seat taken no computer plays.
        expect(ana.locator(".live-seats")).to_contain_text("ben.c")
        expect(ana.locator(".live-seats")).to_contain_text("cai.d")
        for tab in pages.values():
            expect(tab.locator("#live-root")).to_have_attribute("data-live-transport", "socket")
        start_table(ana)
        for tab in pages.values():
            expect(tab.locator(".live-turn")).to_be_visible()
        fits_a_phone(ben)

        with live_app.app_context():
            usernames = dict(db.session.execute(select(User.id, User.username)).all())
        seat_names = {seat: usernames[user] for seat, user, _c, _r in seats_of(live_app, code)}
        assert sorted(seat_names.values()) == sorted(NAMES), "a computer took a seat"
        by_seat = {seat: pages[name] for seat, name in seat_names.items()}

        moves = 0
        reloaded = False
        while True:
            state = state_of(live_app, code)
            version = str(table_row(live_app, code).version)
            if state.is_terminal():
                break
            assert moves < 200, "the game never ended"
            mover = state.current_player()
            deck = state.game.deck
            public = " ".join(event.text for event in state.log)
            for seat, tab in by_seat.items():
                # Every page is at this move, by itself (the mover's after its own POST).
                expect(tab.locator("#live-root")).to_have_attribute("data-live-version", version)
                if seat == mover:
                    expect(tab.locator(".live-turn")).to_contain_text("Your turn.")
                else:
                    expect(tab.locator(".live-turn")).to_contain_text(
                        f"Waiting for {seat_names[mover]} to play"
                    )
                # Its hand is its own seat's, and no page names a card another seat holds
                # (or one still undealt) that has not been played in the open (L-T4).
                mine = {deck[p].name for p in state.hands[seat]}
                others = {deck[p].name for p in state.hidden_from(seat)}
                hand = tab.locator(".hand").inner_text()
                assert names_shown(mine, hand) == mine
                assert names_shown(others, hand) == set()
                leaked = names_shown(others, tab.content()) - names_shown(others, public)
                assert leaked == set(), (seat_names[seat], leaked)
            if moves == 20 and not reloaded:
                # The student to move refreshes the page in the middle of the game and comes back
                # to the same position, heard over the socket again.
                tab = by_seat[mover]
                hand = tab.locator(".hand").inner_text()
                tab.reload()
                expect(tab.locator("#live-root")).to_have_attribute("data-live-version", version)
                expect(tab.locator("#live-root")).to_have_attribute("data-live-transport", "socket")
                assert tab.locator(".hand").inner_text() == hand
                expect(tab.locator(".count-box__value")).to_have_text(str(state.count))
                reloaded = True
            watchers = [tab for seat, tab in by_seat.items() if seat != mover]
            for tab in watchers:
                tab.evaluate("window.__sameDocument = true")
            a_quick_move(by_seat[mover], version)
            moves += 1
            if not state_of(live_app, code).is_terminal():
                for tab in watchers:
                    # The other seats' pages change without a reload (L-T5).
                    expect(tab.locator("#live-root")).not_to_have_attribute(
                        "data-live-version", version
                    )
                    assert tab.evaluate("window.__sameDocument === true"), "the page reloaded"

        # Every page ends on the result, by itself: one winner, the same for every seat.
        winners = set(state.winners())
        assert len(winners) == 1
        for seat, tab in by_seat.items():
            expect(tab.locator(".game-over h2")).to_have_text(
                "You won!" if seat in winners else "You lost this one."
            )
        results = [tab.locator(".game-over h2").inner_text() for tab in by_seat.values()]
        assert set(results) <= RESULTS and results.count("You won!") == 1
        assert sorted(r for _s, _u, _c, r in seats_of(live_app, code)) == ["lost", "lost", "won"]
        # Every move of the game was a button pressed at a student's page: no computer moved.
        assert len(table_row(live_app, code).actions) == moves
        assert reloaded and moves > 20
    assert errors == [], errors
