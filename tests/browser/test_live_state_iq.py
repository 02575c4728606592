"""A State IQ duel in Chromium (issue 22, L-Q1 to L-Q5): two classmates, each in their own browser,
open, join and start a duel and play it to the end: each page changes by itself when the other
moves (the form for the move due appears on its own), the clue giver names their border states,
the guesser guesses, once by clicking the map; a friendly message does not take back a guess being
typed; both pages show the result. The duel's page passes axe on a phone, its map open too."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect
from sqlalchemy import select

from tests.browser.live_support import fits_a_phone, start_duel, two_classmates
from trainer.quiz import state_iq_duel as duel
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.live import state_iq_duel as web_duel
from trainer.web.models import LiveTable


def due(app, code: str) -> tuple[tuple[int, str] | None, list[str], str, list[str]]:
    """Whose move it is, the B clues the giver may name, the state being guessed, and the states
    guessed in this half."""
    with app.app_context():
        table = db.session.execute(select(LiveTable).where(LiveTable.code == code)).scalar_one()
        game = web_duel.rebuild(table, web_duel.games_of(table))
        deck = get_deck()
        return (
            duel.to_move(game),
            [deck[p].name for p in game.border_choices()],
            deck[game.half.secret].name,
            [deck[p].name for p in game.half.guesses],
        )


def moved(mover: Page, control: Locator) -> None:
    """Click ``control`` to send the move, and wait for the mover's page of the next ply. Not for
    the form's navigation: the page's own live.js hears the move kept and reloads the page, which
    may abort that navigation (the page then shown is the same)."""
    ply = mover.locator("#live-root").get_attribute("data-live-ply")
    control.click()
    expect(mover.locator(f"#live-root[data-live-ply='{ply}']")).to_have_count(0)


def test_two_classmates_play_a_state_iq_duel_each_in_their_own_browser(
    browser, page, live_app, live_server
):
    errors: list[str] = []
    with two_classmates(browser, page, live_app, live_server, errors) as (ana, ben):
        code = start_duel(ana, ben, re.compile("State IQ duel"))

        # Ben's lobby becomes the duel by itself.
        expect(ben.locator("#live-root")).to_contain_text("Power card")
        expect(ben.get_by_role("heading", name="Your card")).to_be_visible()
        fits_a_phone(ben)

        pages = {0: ana, 1: ben}
        cheered = False
        for _ in range(12):
            turn, borders, secret, guessed = due(live_app, code)
            if turn is None:
                break
            seat, kind = turn
            mover = pages[seat]
            answer = mover.locator("#answer")
            expect(answer).to_be_visible()  # the mover's page shows the form by itself
            expect(pages[1 - seat].locator("#answer")).to_have_count(0)
            if kind == duel.CLUE:
                answer.fill(borders[0])
                moved(mover, mover.get_by_role("button", name="Give the clue"))
            else:
                # ben misses once before guessing right; ana guesses right at once.
                wrong = next(
                    n for n in ("Hawaii", "Alaska", "Maine") if n != secret and n not in guessed
                )
                answer.fill(wrong if seat == 1 and not guessed else secret)
                if seat == 1 and not cheered:
                    # A friendly message while ben types leaves what he typed.
                    ana.get_by_role("button", name="Good luck!").click()
                    expect(ben.locator(".live-cheers")).to_contain_text("ana.b: Good luck!")
                    expect(answer).to_have_value(wrong if not guessed else secret)
                    cheered = True
                    # Then he picks his miss on the map instead, as against the computer: a
                    # state drawn as a rectangle, so a click in its middle is on it.
                    picked = next(
                        n for n in ("Wyoming", "Colorado") if n != secret and n not in guessed
                    )
                    ben.get_by_text("Or pick the state on the map").click()
                    fits_a_phone(ben)
                    moved(ben, ben.get_by_role("button", name=picked, exact=True))
                    expect(ben.get_by_text(f"Guess 1: {picked}")).to_be_visible()
                    continue
                moved(mover, mover.get_by_role("button", name="Guess"))
        assert due(live_app, code)[0] is None, "the duel did not end"

        expect(ana.get_by_role("heading", name="You win!")).to_be_visible(timeout=10_000)
        expect(ben.get_by_role("heading", name="ana.b wins")).to_be_visible(timeout=10_000)
        expect(ben.get_by_role("heading", name="ana.b’s card")).to_be_visible()
        fits_a_phone(ben)
    assert errors == [], errors
