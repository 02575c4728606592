"""The site header's menu (#21): one Menu button on a phone, the Settings link, the US zones first."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from tests.conftest import client_for, make_user
from tests.web.test_security import ROOT, assert_strict_page
from trainer.web.models import Role
from trainer.web.security import CONTENT_SECURITY_POLICY
from trainer.web.zones import US_ZONES, zone_choices


def header(html: str) -> str:
    match = re.search(r'<header class="site-header">.*?</header>', html, re.S)
    assert match, "no site header"
    return match.group(0)


def nav_links(html: str) -> list[tuple[str, str, bool]]:
    """(href, text, current) of each link of the main navigation."""
    nav = re.search(r'<nav class="site-nav" aria-label="Main">.*?</nav>', html, re.S)
    assert nav, "no main navigation"
    return [
        (href, text.strip(), bool(current))
        for href, current, text in re.findall(
            r'<a href="([^"]+)"( aria-current="page")?>([^<]*)</a>', nav.group(0)
        )
    ]


def test_the_menu_button_controls_the_links_and_the_account(app):
    make_user(app, "kid")
    html = client_for(app, "kid").get("/study/").get_data(as_text=True)
    top = header(html)
    button = re.search(r'<button type="button" class="menu-toggle"[^>]*>', top)
    assert button, "no Menu button"
    assert 'aria-expanded="false"' in button.group(0)
    assert 'aria-controls="site-menu"' in button.group(0)
    assert re.search(r"<span>Menu</span>\s*</button>", top)
    # The button comes right before what it controls (the stylesheet shows it with "+"), which
    # holds the main navigation and the account's buttons.
    menu = top[top.index(button.group(0)) :]
    assert re.match(
        r'<button[^>]*>.*?</button>\s*<div class="site-menu" id="site-menu">', menu, re.S
    )
    inside = menu[menu.index('id="site-menu"') :]
    assert inside.index('<nav class="site-nav"') < inside.index("Log out")
    # The script that opens it is a deferred file of this app.
    assert re.search(r'<script src="/static/js/nav\.js\?v=[0-9a-f]{10}" defer></script>', html)
    assert_strict_page(html)


def test_every_page_has_the_menu_and_the_same_csp(app):
    make_user(app, "kid")
    make_user(app, "ms_t", role=Role.TEACHER)
    for username, path in [(None, "/"), (None, "/auth/login"), ("kid", "/"), ("ms_t", "/teach/")]:
        response = client_for(app, username).get(path)
        assert response.status_code == 200
        assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        html = response.get_data(as_text=True)
        assert html.count('aria-controls="site-menu"') == 1 and html.count('id="site-menu"') == 1
        assert_strict_page(html)


def test_the_csp_is_unchanged():
    assert CONTENT_SECURITY_POLICY == (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
        "form-action 'self'; frame-ancestors 'none'"
    )


def test_a_student_has_settings_in_the_menu(app):
    make_user(app, "kid")
    kid = client_for(app, "kid")
    links = nav_links(kid.get("/study/").get_data(as_text=True))
    assert ("/study/settings", "Settings", False) in links
    assert [text for _, text, current in links if current] == ["Study"]
    # On the settings page only Settings is the current page, not Study too.
    settings = kid.get("/study/settings").get_data(as_text=True)
    assert [text for _, text, current in nav_links(settings) if current] == ["Settings"]
    # The link in the sentence stays.
    home = kid.get("/study/").get_data(as_text=True)
    body = home[home.index('<main id="main"') :]
    assert 'href="/study/settings"' in body


def test_teachers_and_visitors_have_no_settings_link(app):
    make_user(app, "ms_t", role=Role.TEACHER)
    for username in ("ms_t", None):
        links = nav_links(client_for(app, username).get("/").get_data(as_text=True))
        assert "Settings" not in [text for _, text, _ in links]


def test_the_current_page_is_marked_in_the_menu(app):
    make_user(app, "kid")
    kid = client_for(app, "kid")
    for path, label in [("/", "Home"), ("/deck/", "The deck"), ("/progress/", "Progress")]:
        links = nav_links(kid.get(path).get_data(as_text=True))
        assert [text for _, text, current in links if current] == [label], path


class _Options(HTMLParser):
    """The time-zone select's options as (optgroup label or None, value, text)."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.group: str | None = None
        self.value: str | None = None
        self.options: list[tuple[str | None, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "select" and a.get("name") == "time_zone":
            self.inside = True
        elif self.inside and tag == "optgroup":
            self.group = a.get("label")
        elif self.inside and tag == "option":
            self.value = a.get("value") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.inside = False
        elif tag == "optgroup":
            self.group = None

    def handle_data(self, data: str) -> None:
        if self.inside and self.value is not None:
            self.options.append((self.group, self.value, data.strip()))
            self.value = None


def test_the_us_time_zones_come_first_with_friendly_names(app):
    make_user(app, "kid")
    html = client_for(app, "kid").get("/study/settings").get_data(as_text=True)
    parser = _Options()
    parser.feed(html)
    options = parser.options
    assert options[0] == (None, "", "My browser’s time zone")
    assert options[1:8] == [
        ("US time zones", "America/New_York", "Eastern (New York)"),
        ("US time zones", "America/Chicago", "Central (Chicago)"),
        ("US time zones", "America/Denver", "Mountain (Denver)"),
        ("US time zones", "America/Phoenix", "Arizona (Phoenix)"),
        ("US time zones", "America/Los_Angeles", "Pacific (Los Angeles)"),
        ("US time zones", "America/Anchorage", "Alaska (Anchorage)"),
        ("US time zones", "Pacific/Honolulu", "Hawaii (Honolulu)"),
    ]
    rest = options[8:]
    # Every other zone once, in groups by part of the world, none of the US ones again.
    values = [value for _, value, _ in rest]
    assert len(values) == len(set(values)) and not set(values) & set(US_ZONES)
    assert ("Europe", "Europe/Paris", "Europe/Paris") in rest
    assert ("America", "America/Argentina/Buenos_Aires", "America/Argentina/Buenos Aires") in rest
    assert ("Other", "UTC", "UTC") in rest
    groups = [group for group, _, _ in rest]
    assert groups == sorted(groups, key=lambda g: (g == "Other", g)), "groups out of order"
    assert len(re.findall(r'<optgroup label="US time zones">', html)) == 1
    # The choices are what the form accepts: all zones this machine knows.
    assert {c.value for c in zone_choices()} - {""} == {value for _, value, _ in options[1:]}


def test_a_student_saves_a_us_zone_and_it_is_selected(app):
    from tests.conftest import csrf_token

    make_user(app, "kid")
    kid = client_for(app, "kid")
    token = csrf_token(kid, "/study/settings")
    response = kid.post(
        "/study/settings",
        data={
            "csrf_token": token,
            "desired_retention": "90",
            "new_per_day": "20",
            "time_zone": "America/Phoenix",
            "daily_amount": "40",
            "daily_unit": "answers",
        },
    )
    assert response.status_code == 302
    html = kid.get("/study/settings").get_data(as_text=True)
    assert re.search(
        r'<option selected value="America/Phoenix">Arizona \(Phoenix\)</option>', html
    ) or re.search(r'<option value="America/Phoenix" selected>Arizona \(Phoenix\)</option>', html)


def test_the_menu_script_and_styles_exist():
    script = (ROOT / "trainer/web/static/js/nav.js").read_text(encoding="utf-8")
    assert "aria-expanded" in script and "Escape" in script
    css = (ROOT / "trainer/web/static/css/site.css").read_text(encoding="utf-8")
    assert '.menu-toggle[aria-expanded="true"] + .site-menu' in css
    assert "(scripting: none)" in css
