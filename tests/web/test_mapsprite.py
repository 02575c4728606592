"""The 50 outlines in one cached file (trainer.web.mapsprite, issue 25): what it holds, how it is
served, which maps draw from it, and that no map whose states are secret (P-H2) refers to it."""

from __future__ import annotations

import gzip
import re

from tests.conftest import AuthActions, csrf_token, make_user
from tests.web.test_dashing import deal
from tests.web.test_study import _add_round
from trainer.web import get_deck
from trainer.web.mapsprite import sprite_of

USE = re.compile(r'<use href="(/deck/map-([0-9a-f]+)\.svg)#(s\d+)"')


def test_the_file_holds_each_public_outline_once_by_an_opaque_id(app):
    with app.app_context():
        deck = get_deck()
        sprite = sprite_of(deck)
        text = sprite.raw.decode()
        found = dict(re.findall(r'<path id="(s\d+)" d="([^"]+)"/>', text))
        assert len(found) == 50 and set(found) == set(sprite.ids.values())
        for postal, shape in deck.geometry.shapes.items():
            assert found[sprite.ids[postal]] == shape.path
        # No postal code or name in the file: it is drawn from by id alone.
        assert not re.search(r"\b(CO|TX|Colorado)\b", text)
        assert "style" not in text and "fill" not in text  # the page's classes style each state
        assert gzip.decompress(sprite.packed) == sprite.raw


def test_it_is_served_gzipped_and_kept_for_a_year(client, app):
    with app.app_context():
        sprite = sprite_of(get_deck())
    url = f"/deck/map-{sprite.digest}.svg"
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and plain.mimetype == "image/svg+xml"
    assert plain.data == sprite.raw and "immutable" in plain.headers["Cache-Control"]
    packed = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip" and packed.data == sprite.packed
    assert len(packed.data) < len(plain.data) / 2
    # An old or made-up hash is not found (the URL is cached for a year: it must name the file).
    for other in ("0123456789", "x" * 10, sprite.digest + "0"):
        assert client.get(f"/deck/map-{other}.svg").status_code == 404


def test_maps_that_name_their_states_draw_from_it(app, client):
    make_user(app)
    AuthActions(client).login()
    with app.app_context():
        sprite = sprite_of(get_deck())
    for url, at_least in (
        ("/deck/co", 50),  # the Map card: 49 states and Colorado in red
        ("/study/", 50),  # the welcome map
        ("/progress/", 50),  # the mastery map
        ("/progress/album", 50),
    ):
        page = client.get(url, follow_redirects=True).get_data(as_text=True)
        uses = USE.findall(page)
        assert len(uses) >= at_least, url
        assert {digest for _, digest, _ in uses} == {sprite.digest}, url
        assert not re.search(r' d="[^"]{300,}"', page), f"an outline is drawn inline on {url}"


def test_no_map_whose_states_are_secret_refers_to_it(app, client):
    """P-H2: a Map card question, "find it on the map" and Dashing States' cards draw their own
    numbered outlines through their own stretch; the file's ids would name the states."""
    make_user(app)
    AuthActions(client).login()
    _add_round(app, "secret", [["CO:map", "typed"], ["TX:map", "map_click"]], seed=5)
    question = client.get("/study/rounds/secret/1").get_data(as_text=True)
    assert "map-state--red" in question and "/deck/map-" not in question
    client.post(
        "/study/rounds/secret/1",
        data={
            "answer": "",
            "dont_know": "y",
            "csrf_token": csrf_token(client, "/study/rounds/secret/1"),
        },
    )
    feedback = client.get("/study/rounds/secret/1").get_data(as_text=True)
    assert len(USE.findall(feedback)) >= 50, "after the answer the card is the public one"
    find = client.get("/study/rounds/secret/2").get_data(as_text=True)
    assert "data-spot" in find and "/deck/map-" not in find
    dealt = client.get(deal(client)).get_data(as_text=True)
    assert "map-state--red" in dealt and "/deck/map-" not in dealt
