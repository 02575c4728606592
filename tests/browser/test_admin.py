"""Who may teach, in Chromium (issue 18): the sign-up page makes students only; the school's admin
invites a teacher with a link that works once."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import make_user
from trainer.web.models import Role


@pytest.mark.app_config(OPEN_TEACHER_SIGNUP=False)
def test_an_admin_invites_a_teacher_who_signs_up_with_the_link(page, live_app):
    # Without an invite, the sign-up page makes only a student account, and says how teachers come in.
    page.goto("/auth/signup")
    expect(page.get_by_label("Teacher", exact=True)).to_have_count(0)
    expect(page.get_by_text("Teachers are invited by their school's admin")).to_be_visible()

    # The admin (made with `flask create-admin`) logs in and makes an invite link.
    make_user(live_app, "principal", "purple-tiger-rocket", role=Role.TEACHER, is_admin=True)
    page.goto("/auth/login")
    page.get_by_label("Username").fill("principal")
    page.get_by_label("Password").fill("purple-tiger-rocket")
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Admin").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("School admin")
    page.get_by_role("button", name="Make an invite link").click()
    expect(page.get_by_text("Copy this link now: it is not shown again.")).to_be_visible()
    link = page.locator("[data-invite-link]").inner_text().strip()
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/auth/invite/[A-Za-z0-9_-]{43}", link)
    page.get_by_role("button", name="Log out").click()

    # The new teacher opens the link, chooses a guessable password first, then a good one.
    page.goto(link)
    expect(page.get_by_role("heading", level=1)).to_have_text("Make your teacher account")
    page.get_by_label("Username").fill("ms_lee")
    page.get_by_label("Password", exact=True).fill("password1")
    page.get_by_label("Type the password again").fill("password1")
    page.get_by_role("button", name="Make my teacher account").click()
    expect(page.get_by_role("alert")).to_contain_text("That password is too easy to guess.")
    page.get_by_label("Password", exact=True).fill("maps are fun")
    page.get_by_label("Type the password again").fill("maps are fun")
    page.get_by_role("button", name="Make my teacher account").click()
    expect(page).to_have_url(re.compile(r"/teach/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("My classes")
    page.get_by_role("button", name="Log out").click()

    # The link worked once.
    page.goto(link)
    expect(page.get_by_text("This invite link does not work")).to_be_visible()
