"""The dashboards in Chromium, with the network cut off: plotly.js and everything else come from
the app, the charts draw, the map works by keyboard, and the pages fit a phone."""

from __future__ import annotations

import datetime as dt
import re

from playwright.sync_api import expect

from tests.browser.test_assignments import log_in
from tests.browser.test_teach import log_out
from tests.conftest import make_user
from trainer import srs
from trainer.facts import Form, Verdict
from trainer.web.extensions import db
from trainer.web.memory import record
from trainer.web.models import ClassMembership, Role, SchoolClass, User, utcnow


def history(app) -> None:
    """A teacher, a class, and a student with a few days of answers (some mixed up)."""
    make_user(app, "ms_rivera", "maps are fun", Role.TEACHER)
    make_user(app, "river_otter", "maps are fun")
    now = utcnow()
    with app.app_context():
        teacher = db.session.query(User).filter_by(username="ms_rivera").one()
        student = db.session.query(User).filter_by(username="river_otter").one()
        klass = SchoolClass(teacher_id=teacher.id, name="Room 12", join_code="ABCDEFGH")
        db.session.add(klass)
        db.session.flush()
        db.session.add(ClassMembership(class_id=klass.id, student_id=student.id))
        db.session.commit()
        for day in range(5, 0, -1):
            for n, (key, verdict, named) in enumerate(
                [
                    ("CO:capital", Verdict.RIGHT, None),
                    ("NH:map", Verdict.WRONG, "VT"),
                    ("TX:size", Verdict.RIGHT, None),
                ]
            ):
                when = now - dt.timedelta(days=day, minutes=n)
                outcome = srs.Outcome(
                    fact_key=key,
                    verdict=verdict,
                    mode="review",
                    form=Form.TYPED,
                    round_token=f"review:day{day}",
                    item=str(n),
                    answer="x",
                    answered_postal=named,
                )
                record(student, outcome, now=when)


def offline(page, live_server: str) -> list[str]:
    """Refuse every request that leaves the app; the list fills with what was tried."""
    tried: list[str] = []

    def handle(route) -> None:
        if route.request.url.startswith(live_server):
            route.continue_()
        else:
            tried.append(route.request.url)
            route.abort()

    page.route("**/*", handle)
    return tried


def scroll_through_the_charts(page) -> None:
    """Bring each chart to the screen in turn (charts.js draws a chart as it comes near), then
    wait until every one is drawn."""
    charts = page.locator("[data-figure]")
    for n in range(charts.count()):
        charts.nth(n).scroll_into_view_if_needed()
        expect(charts.nth(n)).to_have_class(re.compile(r"\bchart--drawn\b"))
    expect(page.locator(".chart--drawn")).to_have_count(charts.count())


def test_the_dashboards_draw_with_no_network(page, browser, live_server, live_app):
    history(live_app)
    tried = offline(page, live_server)
    log_in(page, "river_otter")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Progress").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("My card album")
    page.get_by_role("link", name="Charts and numbers").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("My progress")
    charts = page.locator("[data-figure]")
    expect(charts.first).to_be_visible()
    assert charts.count() == 6
    # The first chart is drawn without a scroll; the last, two screens down, only once near.
    expect(charts.first).to_have_class(re.compile(r"\bchart--drawn\b"))
    assert "chart--drawn" not in (charts.last.get_attribute("class") or "")
    scroll_through_the_charts(page)
    expect(page.locator(".chart--drawn .main-svg").first).to_be_visible()
    # Every chart has its sentence and its numbers behind a toggle.
    expect(
        page.get_by_text(
            re.compile(r"^You have not mastered any of the 400 facts yet; you have started 3\.")
        )
    ).to_be_visible()
    page.locator("#calendar-caption").locator("xpath=ancestor::details").locator("summary").click()
    expect(page.locator("#calendar-caption")).to_be_visible()

    # The map by keyboard: Tab to Colorado's link and press Enter; its facts are shown.
    colorado = page.get_by_role("link", name=re.compile(r"^Colorado: \d+% likely remembered"))
    colorado.focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/progress/\?state=co#state-facts$"))
    facts = page.locator("#state-facts")
    expect(facts.get_by_role("heading", level=2)).to_have_text("Colorado")
    expect(facts.get_by_role("row", name=re.compile("Capitals"))).to_contain_text("%")
    log_out(page)

    # The teacher's class dashboard, also offline.
    log_in(page, "ms_rivera")
    page.get_by_role("link", name="Room 12").click()
    page.get_by_role("link", name="Class dashboard").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Room 12: dashboard")
    scroll_through_the_charts(page)
    expect(page.get_by_role("heading", name="States most often taken for another")).to_be_visible()
    expect(page.locator("#confused-chart")).to_be_visible()
    expect(page.get_by_text("Vermont for New Hampshire").first).to_be_attached()
    # A later test date redraws; one that has passed (typed into the address) is explained.
    later = (utcnow().date() + dt.timedelta(days=30)).isoformat()
    page.get_by_label("Test date").fill(later)
    page.get_by_role("button", name="Show recall on that day").click()
    expect(page).to_have_url(re.compile(rf"date={later}$"))
    scroll_through_the_charts(page)
    page.goto(page.url.replace(later, "2001-01-01"))
    expect(page.get_by_role("alert")).to_contain_text("That date has passed")
    assert tried == [], f"requests left the app: {tried}"

    # On a 360 px phone both dashboards fit the screen; only wide tables scroll inside their box.
    context = browser.new_context(
        base_url=live_server, viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    try:
        phone = context.new_page()
        log_in(phone, "ms_rivera")
        phone.goto(page.url.replace(live_server, ""))
        expect(phone.locator(".chart--drawn").first).to_be_visible()
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
        log_out(phone)
        log_in(phone, "river_otter")
        phone.goto("/progress/")
        scroll_through_the_charts(phone)
        assert phone.locator(".chart--drawn").count() == 6
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()
