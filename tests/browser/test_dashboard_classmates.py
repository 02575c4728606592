"""The dashboard's "Games with classmates" in Chromium (issue 22, ruling L-T14): read by a screen
reader as a heading and a list, no serious axe violation, and it fits a 360 px phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import check_axe
from tests.browser.test_assignments import log_in
from tests.browser.test_axe_student import VIEWPORTS
from tests.conftest import make_user
from trainer.web.extensions import db
from trainer.web.models import LiveSeat, LiveTable, utcnow


def finished_tables(app) -> None:
    """ana and ben finished a Border-Up race (ana won), a State IQ duel (a tie) and a table of
    Play the Ranks (ben won), as the live tables store their ends: each seat's result."""
    ana = make_user(app, "ana_b", "maps are fun")
    ben = make_user(app, "ben_b", "maps are fun")
    now = utcnow()
    with app.app_context():
        for code, game, results in (
            ("RACE2345", "border-up", ("won", "lost")),
            ("DUEL2345", "state-iq", ("drawn", "drawn")),
            ("RANK2345", "play-the-ranks", ("lost", "won")),
        ):
            table = LiveTable(
                code=code,
                host_id=ana.id,
                game=game,
                players=2,
                level="easy",
                status="over",
                seed=1,
                started_at=now,
                finished_at=now,
            )
            db.session.add(table)
            db.session.flush()
            for seat, (user, result) in enumerate(zip((ana, ben), results, strict=True)):
                db.session.add(
                    LiveSeat(table_id=table.id, seat=seat, user_id=user.id, result=result)
                )
        db.session.commit()


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_games_with_classmates_are_a_list_that_passes_axe_and_fits(
    browser, live_server, live_app, screen
):
    finished_tables(live_app)
    viewport = VIEWPORTS[screen]
    phone = screen == "phone"
    context = browser.new_context(
        base_url=live_server, viewport=viewport, is_mobile=phone, has_touch=phone
    )
    try:
        page = context.new_page()
        log_in(page, "ana_b")
        page.goto("/progress/")
        section = page.get_by_role("region", name="Games with classmates")
        expect(section.get_by_role("listitem")).to_have_text(
            [
                "Border-Up race: 1 game, you won it.",
                "State IQ duel: 1 game, a tie.",
                "Play the Ranks: 1 game.",
            ]
        )
        expect(page.get_by_role("heading", name="Games against the computer")).to_be_visible()
        expect(page.get_by_text("No games played yet.").first).to_be_attached()
        check_axe(page, f"the dashboard with games with classmates at {viewport['width']}px")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        context.close()
