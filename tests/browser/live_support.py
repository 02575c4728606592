"""What the live tables' browser tests share (issue 22): a class of students (ana.b and ben.c, or
more), a browser of its own for each further student (a phone by default), logging in, and opening,
joining and starting a table from the menu's "Classmates"."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import AXE_FAILING_IMPACTS, axe_violations, open_menu
from tests.conftest import make_user
from trainer.web.extensions import db
from trainer.web.models import ClassMembership, Role, SchoolClass

PASSWORD = "maps are fun"


#: A phone's screen, 360 CSS px wide (as tests/browser/conftest.py's PHONE).
PHONE = {"width": 360, "height": 740}


def classmates(app, names: tuple[str, ...] = ("ana.b", "ben.c")) -> None:
    """The students ``names`` (ana.b and ben.c unless given), in one class of ms.rivera's."""
    teacher = make_user(app, "ms.rivera", role=Role.TEACHER)
    ids = [make_user(app, name, PASSWORD).id for name in names]
    with app.app_context():
        klass = SchoolClass(teacher_id=teacher.id, name="5B", join_code="K7P2QRST")
        db.session.add(klass)
        db.session.flush()
        db.session.add_all(ClassMembership(class_id=klass.id, student_id=i) for i in ids)
        db.session.commit()


def log_in(page, username: str) -> None:
    page.goto("/auth/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state("load")


def no_serious_violations(page) -> None:
    serious = [v for v in axe_violations(page) if v["impact"] in AXE_FAILING_IMPACTS]
    assert serious == [], serious


@contextmanager
def own_browser(
    browser: Browser,
    live_server: str,
    errors: list[str] | None,
    *,
    viewport: dict[str, int] = PHONE,
    console: bool = False,
) -> Iterator[Page]:
    """A tab in a browser of its own (its own cookies), ``viewport`` wide (a phone unless given),
    waiting up to 10 s for what it expects; its page errors are added to ``errors`` (None: not
    collected), and with ``console`` the errors its console shows too (but resources that failed to
    load). Its browser is closed at the end of the block."""
    context = browser.new_context(base_url=live_server, viewport=viewport)
    try:
        tab = context.new_page()
        tab.set_default_timeout(10_000)
        if errors is not None:
            tab.on("pageerror", lambda error: errors.append(str(error)))
            if console:
                tab.on(
                    "console",
                    lambda m: (
                        errors.append(m.text)
                        if m.type == "error" and not m.text.startswith("Failed to load resource")
                        else None
                    ),
                )
        yield tab
    finally:
        context.close()


@contextmanager
def two_classmates(
    browser: Browser,
    page: Page,
    live_app,
    live_server: str,
    errors: list[str] | None,
    *,
    console: bool = False,
) -> Iterator[tuple[Page, Page]]:
    """ana.b on ``page`` and ben.c on a phone 360 px wide, in a browser of his own
    (:func:`own_browser`): classmates (:func:`classmates`), both logged in."""
    classmates(live_app)
    with own_browser(browser, live_server, errors, console=console) as ben:
        log_in(page, "ana.b")
        log_in(ben, "ben.c")
        yield page, ben


def fits_a_phone(page: Page) -> None:
    """The page passes axe and is no wider than the phone's 360 px."""
    no_serious_violations(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def open_table(
    page: Page, game: str | re.Pattern[str], seats: str | None = None, level: str | None = None
) -> str:
    """Open a table of ``game`` (its label on the form) from the menu's "Classmates", with
    ``seats`` and the computer's ``level`` (its label) where given; the table's code."""
    open_menu(page)
    page.get_by_role("link", name="Classmates").click()
    page.get_by_label(game).check()
    if seats is not None:
        page.get_by_label("Seats, counting you").select_option(seats)
    if level is not None:
        page.get_by_label(level).check()
    page.get_by_role("button", name="Open the table").click()
    return page.locator(".live-code__value").inner_text().strip()


def join_table(page: Page, code: str) -> None:
    """Join the table with ``code`` (typed as given) from the menu's "Classmates"."""
    open_menu(page)
    page.get_by_role("link", name="Classmates").click()
    page.get_by_label("The table's code").fill(code)
    page.get_by_role("button", name="Join").click()


def start_table(page: Page) -> None:
    """The host starts the table once a classmate has joined it."""
    expect(page.get_by_role("button", name="Start the game")).to_be_enabled()
    page.get_by_role("button", name="Start the game").click()


def start_duel(host: Page, guest: Page, game: str | re.Pattern[str]) -> str:
    """The host opens a race or duel of ``game`` (its label), whose lobby offers the computer no
    seat; the guest joins it and the host starts it. Its code."""
    code = open_table(host, game)
    expect(host.get_by_role("button", name="Give it to the computer")).to_have_count(0)
    join_table(guest, code)
    start_table(host)
    return code


def open_projector(teacher, tid: int, errors: list[str]):
    """The tournament's projector view in a new tab of the teacher's browser, at 1920x1080, its
    page errors added to ``errors``."""
    projector = teacher.context.new_page()
    projector.set_default_timeout(10_000)
    projector.on("pageerror", lambda error: errors.append(str(error)))
    projector.set_viewport_size({"width": 1920, "height": 1080})
    projector.goto(f"/teach/tournaments/{tid}/projector")
    return projector
