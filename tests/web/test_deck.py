"""The deck browser: the 50 cards, sorting, zone filter, card pages and their Map cards."""

from __future__ import annotations

import re

import pytest

CARD_NAME = re.compile(r'class="gp-card__name" id="card-([A-Z]{2})-name"')


def card_order(html: str) -> list[str]:
    return CARD_NAME.findall(html)


def test_deck_shows_all_fifty_cards_by_name(client):
    html = client.get("/deck/").get_data(as_text=True)
    order = card_order(html)
    assert len(order) == 50
    assert order[:3] == ["AL", "AK", "AZ"] and order[-1] == "WY"
    assert "Showing 50 cards" in html
    # Each card shows name, postal code, capital and the three rankings.
    assert "Sacramento" in html and "Postal code CA" in html


@pytest.mark.parametrize(
    ("sort", "first"),
    [
        ("size", ["AK", "TX", "CA", "MT"]),
        ("population", ["CA", "TX", "NY"]),
        ("statehood", ["DE", "PA", "NJ"]),
        ("name", ["AL", "AK"]),
    ],
)
def test_deck_sorts(client, sort, first):
    order = card_order(client.get(f"/deck/?sort={sort}").get_data(as_text=True))
    assert order[: len(first)] == first
    assert len(order) == 50


def test_unknown_sort_falls_back_to_name(client):
    response = client.get("/deck/?sort=<script>")
    assert response.status_code == 200
    assert card_order(response.get_data(as_text=True))[0] == "AL"
    assert "<script>" not in response.get_data(as_text=True)


def test_zone_filter(client, app):
    html = client.get("/deck/?zone=pacific&sort=population").get_data(as_text=True)
    assert card_order(html) == ["CA", "WA", "OR", "NV"]
    assert "in the Pacific zone" in html
    html = client.get("/deck/?zone=hawaii-aleutian").get_data(as_text=True)
    assert card_order(html) == ["HI"]


def test_unknown_zone_shows_all_with_a_message(client):
    html = client.get("/deck/?zone=martian").get_data(as_text=True)
    assert len(card_order(html)) == 50
    assert "There is no zone by that name" in html


def test_card_page(client):
    response = client.get("/deck/co")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<h1>Colorado</h1>" in html
    assert "Denver" in html and "August 1, 1876" in html and "5,029,196" in html
    # The Map card: all 50 states drawn, exactly one in red, labelled for screen readers.
    assert html.count('class="map-state"') == 49
    assert html.count('class="map-state map-state--red"') == 1
    assert 'role="img"' in html and "Colorado is shown in red" in html
    # Border states are links.
    for code in ("wy", "ne", "ks", "ok", "nm", "ut"):
        assert f'href="/deck/{code}"' in html
    assert 'href="/deck/az"' not in html  # Four Corners only (G5)
    # A big state needs no call-out.
    assert "map-callout" not in html


@pytest.mark.parametrize("code", ["ri", "de", "ct", "nj", "md", "ma", "vt", "nh"])
def test_small_states_get_a_callout_and_closeup(client, code):
    html = client.get(f"/deck/{code}").get_data(as_text=True)
    assert 'class="map-callout"' in html
    assert "map-closeup__frame" in html and "<use href=" in html


def test_hawaii_gets_a_callout(client):
    html = client.get("/deck/hi").get_data(as_text=True)
    assert 'class="map-callout"' in html
    assert "borders no other state" in html


@pytest.mark.parametrize(
    ("path", "target"),
    [("/deck/CO", "/deck/co"), ("/deck/colorado", "/deck/co"), ("/deck/Rhode-Island", "/deck/ri")],
)
def test_card_addresses_by_name_or_code_redirect(client, path, target):
    response = client.get(path)
    assert response.status_code == 301 and response.headers["Location"] == target


@pytest.mark.parametrize("path", ["/deck/zz", "/deck/atlantis", "/deck/puerto-rico"])
def test_unknown_card_is_404_in_site_style(client, path):
    response = client.get(path)
    assert response.status_code == 404
    html = response.get_data(as_text=True)
    assert "Page not found" in html and "Browse the deck" in html


def test_a_card_address_with_a_nul_byte_is_refused_in_site_style(client):
    # The input guard refuses control characters before any view runs (issue 18, section 4).
    response = client.get("/deck/%00")
    assert response.status_code == 400
    assert "a character we cannot read" in response.get_data(as_text=True)


def test_home_page_explains_the_app(client):
    html = client.get("/").get_data(as_text=True)
    assert "GeoPlunge" in html and "How to read a card" in html
    assert 'href="/deck/"' in html and 'href="/auth/signup"' in html


def test_pages_work_logged_in_too(client, auth, student):
    auth.login()
    for path in ("/", "/deck/", "/deck/ri"):
        html = client.get(path).get_data(as_text=True)
        assert "student1" in html and "Log out" in html


@pytest.mark.parametrize("role", [None, "student", "teacher"])
@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/deck/",
        "/deck/?sort=statehood&zone=eastern",
        "/deck/ak",
        "/auth/login",
        "/auth/signup",
    ],
)
def test_public_pages_for_every_role(app, client, auth, role, path):
    """Home, deck and card pages are open to everyone; login and sign-up send logged-in users home."""
    from tests.conftest import make_user
    from trainer.web.models import Role

    if role:
        make_user(app, "someone", role=Role(role))
        auth.login("someone")
    response = client.get(path)
    if role and path.startswith("/auth/"):
        assert response.status_code == 302 and response.headers["Location"] == "/"
    else:
        assert response.status_code == 200


def test_a_second_time_zone_is_said_on_the_card_not_only_in_a_tooltip(client):
    """#21: the "+" after a card's zone is explained in visible text on the card itself."""
    html = client.get("/deck/?zone=central").get_data(as_text=True)
    texas = html[html.index('id="card-TX-name"') :]
    texas = texas[: texas.index("</article>")]
    assert "Part of the state uses Mountain time." in texas
    assert '<span class="gp-card__zone-more" aria-hidden="true"> +</span>' in html
    assert "title=" not in html.split('class="gp-card__zone-more"')[1].split(">")[0]
    # A card in one zone only has neither the "+" nor the sentence.
    iowa = html[html.index('id="card-IA-name"') :]
    assert "Part of the state uses" not in iowa[: iowa.index("</article>")]


def test_the_deck_for_anki_downloads_with_its_map_cards(client, tmp_path):
    """Issue 26: the package the deck page offers, with the 50 Map cards drawn by the site's own
    map (standalone SVG files with their colours), 400 notes; made once, the same bytes after."""
    import io
    import json
    import sqlite3
    import zipfile
    from xml.etree import ElementTree

    page = client.get("/deck/").get_data(as_text=True)
    assert (
        'href="/deck/geoplunge-states.apkg"' in page and 'href="/deck/geoplunge-facts.csv"' in page
    )
    response = client.get("/deck/geoplunge-states.apkg")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == 'attachment; filename="geoplunge-states.apkg"'
    package = zipfile.ZipFile(io.BytesIO(response.data))
    media = json.loads(package.read("media"))
    assert len(media) == 50
    for index, name in media.items():
        svg = ElementTree.fromstring(package.read(index))
        assert svg.tag == "{http://www.w3.org/2000/svg}svg", name
        reds = svg.findall(".//{http://www.w3.org/2000/svg}path[@class='map-state map-state--red']")
        assert len(reds) == 1, name
        assert ".map-state--red { fill: #d50000;" in package.read(index).decode()
    collection = tmp_path / "c.anki2"
    collection.write_bytes(package.read("collection.anki2"))
    with sqlite3.connect(collection) as db:
        assert db.execute("SELECT count(*) FROM notes").fetchone()[0] == 400
    assert client.get("/deck/geoplunge-states.apkg").data == response.data


def test_the_facts_download_as_csv(client):
    response = client.get("/deck/geoplunge-facts.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    text = response.get_data(as_text=True)
    assert text.startswith("\ufefffact,state,postal code,what,question,answer\r\n")
    assert len(text.splitlines()) == 401
    assert "CO:capital,Colorado,CO,Capital,What is the capital of Colorado?,Denver" in text


def test_the_about_page_credits_the_games_and_names_the_sources(client):
    """Issue 26: whose games these are, that the app is an independent study aid, and where every
    figure and the map come from, in a page a teacher reads; linked from every page's footer."""
    from tests.web.test_security import assert_strict_page

    home = client.get("/").get_data(as_text=True)
    assert 'href="/about"' in home
    page = client.get("/about").get_data(as_text=True)
    assert_strict_page(page)
    for game in (
        "GeoPlunge",
        "Border-Up",
        "State IQ",
        "Dashing States",
        "Play the Ranks",
        "GeoPower Toss",
        "GeoClash Down Back",
        "Geography War",
    ):
        assert f"<strong>{game}</strong>" in page
    assert "LearningPlunge" in page and "trademarks" in page and "independent study aid" in page
    for source in ("2010 Census", "State Area Measurements", "IANA", "us-atlas", "four regions"):
        assert source.lower() in page.lower(), source
