"""The card album in Chromium (#21, ruling P-L1): on a 360 px phone it fits the screen, the
cards read, the menu's Progress link opens it, and axe finds nothing serious; on a Chromebook too."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import check_axe, open_menu
from tests.browser.test_assignments import log_in
from tests.conftest import make_user
from tests.web.test_album import LONG_RUN, remember
from trainer.facts import Facet


def test_the_album_on_a_phone_and_a_chromebook(browser, live_server, live_app):
    river = make_user(live_app, "river_otter", "maps are fun")
    remember(live_app, river, "CO", list(Facet), LONG_RUN)
    remember(live_app, river, "UT", list(Facet)[:5], 3.0)
    remember(live_app, river, "TX", [Facet.MAP], 0.2)
    context = browser.new_context(
        base_url=live_server, viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    try:
        phone = context.new_page()
        log_in(phone, "river_otter")
        open_menu(phone)
        phone.get_by_role("link", name="Progress").click()
        expect(phone).to_have_url(re.compile(r"/progress/album/$"))
        expect(phone.get_by_role("heading", name="My card album")).to_be_visible()
        expect(phone.locator("#album-summary")).to_have_text(
            "3 of 50 cards: 1 gold, 1 silver, 1 bronze"
        )
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
        # Every card sits inside the screen, and a card not met still names its state.
        boxes = phone.locator(".album-card").evaluate_all(
            "cards => cards.map(c => { const r = c.getBoundingClientRect(); return [r.left, r.right]; })"
        )
        assert len(boxes) == 50 and all(left >= 0 and right <= 360 for left, right in boxes)
        ohio = phone.locator(".album-card", has=phone.get_by_role("heading", name="Ohio"))
        expect(ohio).to_contain_text("Not met yet")
        ohio.scroll_into_view_if_needed()
        expect(ohio.get_by_role("link", name="Ohio")).to_be_visible()
        colorado = phone.locator(".album-card", has=phone.get_by_role("heading", name="Colorado"))
        expect(colorado).to_contain_text("Gold")
        expect(colorado).to_contain_text("8 of 8 facts known")
        # The map fits the phone and names its colours in words.
        map_box = phone.locator("svg.album-map").bounding_box()
        assert map_box is not None and map_box["width"] <= 360
        expect(phone.get_by_role("list", name="What the colours mean")).to_contain_text("Gold (1)")
        check_axe(phone, "the album at 360 px")
        # One click to the charts.
        phone.get_by_role("link", name="Charts and numbers").click()
        expect(phone).to_have_url(re.compile(r"/progress/$"))
    finally:
        context.close()

    chromebook = browser.new_context(base_url=live_server, viewport={"width": 1366, "height": 768})
    try:
        tab = chromebook.new_page()
        log_in(tab, "river_otter")
        tab.goto("/progress/album/")
        assert tab.evaluate("document.documentElement.scrollWidth") <= 1366
        expect(tab.get_by_role("link", name="Progress")).to_have_attribute("aria-current", "page")
        check_axe(tab, "the album at 1366 px")
    finally:
        chromebook.close()
