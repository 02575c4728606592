"""A duel whose classmate has left, in Chromium (issue 22, L-T12): ben closes his race page; ana's
page fetches itself when the end is due and offers "ben.c left: end the game"; ending it shows
"No result" with no reload by hand. The wait is shortened from two minutes to a few seconds."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.live_support import (
    join_table,
    no_serious_violations,
    open_table,
    start_table,
    two_classmates,
)
from trainer import live


def test_a_race_whose_classmate_left_is_ended_from_the_page(
    browser, page, live_app, live_server, monkeypatch
):
    import datetime as dt

    monkeypatch.setattr(live, "DUEL_LEFT_AFTER", dt.timedelta(seconds=5))
    errors: list[str] = []
    page.set_default_timeout(20_000)
    page.on("pageerror", lambda error: errors.append(str(error)))
    # ben's own page errors are not asked about here.
    with two_classmates(browser, page, live_app, live_server, None) as (ana, ben):
        code = open_table(ana, re.compile("Border-Up race"))
        join_table(ben, code)
        start_table(ana)
        expect(ben.locator("#live-root")).to_contain_text("Racing ana.b")
        expect(ana.locator("#live-root")).to_contain_text("Racing ben.c")
        end = ana.get_by_role("button", name="ben.c left: end the game")
        expect(end).to_have_count(0)
    # ben's browser is closed: nothing reports in for him any more.

    # Ana's page fetches itself when the end is due; she ends the race, with no result.
    expect(end).to_be_visible(timeout=20_000)
    no_serious_violations(ana)
    end.click()
    expect(ana.locator("#live-root")).to_contain_text("No result")
    expect(ana.locator("#live-root")).to_contain_text("does not count")
    expect(ana.get_by_role("button", name="GeoPlunge!")).to_have_count(0)
    assert errors == []
