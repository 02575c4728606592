"""Browser fixtures: the app served on a free local port, and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from werkzeug.serving import make_server

from tests.conftest import make_test_config, skip_unless_optional
from trainer.web import create_app
from trainer.web.extensions import db

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# Chromium as root in a container, with no calls home (this machine has no network).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


#: When a page navigates away while the test server still sends it a static file (the favicon,
#: say), Werkzeug's dev server drops the half-sent file without closing it. That is the test
#: server's leak, not the app's; only warnings about files under static/ are ignored.
STATIC_FILE_LEAKS = [
    r"ignore:unclosed file <_io\.BufferedReader name='[^']*/static/:ResourceWarning",
    r"ignore:Exception ignored in. <_io\.FileIO name='[^']*/static/:pytest.PytestUnraisableExceptionWarning",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)
            for rule in STATIC_FILE_LEAKS:
                item.add_marker(pytest.mark.filterwarnings(rule))


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        skip_unless_optional(f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_unless_optional("playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def live_app(request: pytest.FixtureRequest, tmp_path: Path) -> Flask:
    """The app that :func:`live_server` serves, for tests that look behind the page.

    Teachers sign up through the form here, as on a one-teacher install (open teacher sign-up);
    a test marked ``app_config(...)`` changes that or any other setting.
    """
    marker = request.node.get_closest_marker("app_config")
    overrides = marker.kwargs if marker else {}
    app = create_app(
        {**make_test_config("sqlite", tmp_path), "OPEN_TEACHER_SIGNUP": True, **overrides}
    )
    with app.app_context():
        db.create_all()
    return app


@pytest.fixture
def live_server(live_app: Flask) -> Iterator[str]:
    """The real app, on SQLite, served by Werkzeug in a thread; yields its base URL."""
    app = live_app
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
        with app.app_context():
            db.engine.dispose()


@pytest.fixture
def page(browser, live_server: str) -> Iterator[object]:
    """A fresh browser tab on the live server.

    The test fails on any console error (a CSP violation, a script error) and on any asset that
    does not load. Pages themselves may answer 4xx: a form with errors is a 400.
    """
    context = browser.new_context(base_url=live_server, viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    errors: list[str] = []

    def on_console(message) -> None:
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            errors.append(message.text)

    def on_response(response) -> None:
        # An answer sent with fetch is refused as its page would be (a 400, or a 409 when sent twice).
        refusal = response.request.resource_type == "fetch" and response.status in (400, 409)
        if response.request.resource_type != "document" and response.status >= 400 and not refusal:
            errors.append(f"{response.status} {response.url}")

    tab.on("console", on_console)
    tab.on("response", on_response)
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.set_default_timeout(10_000)
    yield tab
    context.close()
    assert errors == [], f"console errors: {errors}"


def sign_up_student(page, username: str, password: str = "maps are fun") -> None:
    """Sign up as a student through the form; the student lands on the study home."""
    from playwright.sync_api import expect

    page.goto("/auth/signup")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_label("Type the password again").fill(password)
    page.get_by_label("Type the password again").press("Enter")
    expect(page).to_have_url(re.compile(r"/study/$"))
    # The URL changes before the page's load event; a test that counts loads starts after it.
    page.wait_for_load_state("load")


def sign_up_teacher(page, username: str, password: str = "maps are fun") -> None:
    """Sign up as a teacher through the form; the teacher lands on their class list."""
    from playwright.sync_api import expect

    page.goto("/auth/signup")
    page.get_by_label("Teacher", exact=True).check()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_label("Type the password again").fill(password)
    page.get_by_role("button", name="Sign up").click()
    expect(page).to_have_url(re.compile(r"/teach/$"))
    page.wait_for_load_state("load")


def open_menu(page) -> None:
    """On a phone, open the header's menu (the links and Log out sit behind it); on a wide screen
    the links are always shown and this does nothing."""
    # After the stylesheet applies: before it, a wide screen's hidden button still looks visible,
    # and clicking it then waits for a button that never shows.
    page.wait_for_load_state("load")
    menu = page.get_by_role("button", name="Menu")
    if menu.is_visible() and menu.get_attribute("aria-expanded") != "true":
        menu.click()


#: axe-core, vendored for the tests only (see vendor/README.md); the app never serves it.
AXE_SOURCE = Path(__file__).with_name("vendor").joinpath("axe.min.js")
#: The WCAG 2.0 A and AA and WCAG 2.1 AA rules; a serious or critical violation fails the test.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21aa"]
AXE_FAILING_IMPACTS = {"serious", "critical"}


def axe_violations(page) -> list[dict]:
    """Run axe-core on ``page`` as it is now; returns its violations (id, impact, help, targets).

    axe is run through ``page.evaluate``, which the app's strict CSP does not block (an injected
    ``<script>`` would be), so the page is checked under its real CSP. Animations that end (a
    feedback fading in) are let finish first, so colours are read as the student sees them.
    """
    page.evaluate(
        """() => Promise.all(document.getAnimations()
            .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
            .map((a) => a.finished.catch(() => null))).then(() => true)"""
    )
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SOURCE.read_text(encoding="utf-8"))
    return page.evaluate(
        """async (tags) => {
            const results = await axe.run(document, {
                runOnly: {type: "tag", values: tags},
                resultTypes: ["violations"],
            });
            return results.violations.map((v) => ({
                id: v.id,
                impact: v.impact,
                help: v.help,
                targets: v.nodes.map((n) => n.target.join(" ")),
            }));
        }""",
        AXE_TAGS,
    )


def check_axe(page, where: str = "") -> None:
    """Fail on any serious or critical axe-core violation on ``page``, listing each one."""
    bad = [v for v in axe_violations(page) if v["impact"] in AXE_FAILING_IMPACTS]
    listed = "\n".join(
        f"  {v['id']} ({v['impact']}): {v['help']} at {', '.join(v['targets'][:8])}" for v in bad
    )
    assert not bad, f"axe-core on {where or page.url}:\n{listed}"


#: The phone the browser tests use: 360 x 740 CSS px, as the issue's measurements (#21).
PHONE = {"width": 360, "height": 740}


@pytest.fixture
def phone(browser, live_server: str) -> Iterator[object]:
    """A tab on a 360 x 740 phone; fails the test on any console error."""
    context = browser.new_context(
        base_url=live_server, viewport=PHONE, is_mobile=True, has_touch=True
    )
    tab = context.new_page()
    errors: list[str] = []
    tab.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource")
            else None
        ),
    )
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.set_default_timeout(10_000)
    yield tab
    context.close()
    assert errors == [], f"console errors: {errors}"


def add_state_iq_game(app: Flask, token: str, username: str | None = None) -> None:
    """A State IQ game in play for the student ``username`` (the only user if None): Texas
    against Utah, the student guessing first, at the easy level, seeded."""
    from sqlalchemy import select

    from trainer.web.models import StateIqGame, User

    with app.app_context():
        query = select(User) if username is None else select(User).where(User.username == username)
        student = db.session.execute(query).scalar_one()
        db.session.add(
            StateIqGame(
                token=token,
                student_id=student.id,
                level="easy",
                power_card=2,
                student_card="TX",
                computer_card="UT",
                first_guesser="student",
                seed=4,
                moves=[],
                move_count=0,
                recorded=[],
                result="playing",
                show_aid=False,
            )
        )
        db.session.commit()
