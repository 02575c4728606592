"""Dashing States through the Flask client: the call, the race, refusals, no leaks, reviews."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest
from sqlalchemy import func, select

from tests.conftest import csrf_token, make_user
from tests.web.test_security import assert_strict_page
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import DashingRound, ReviewLog, User, utcnow

INDEX = "/play/dashing-states/"


def deal(client, level="medium") -> str:
    response = client.post(INDEX, data={"csrf_token": csrf_token(client, INDEX), "level": level})
    assert response.status_code == 302, response.get_data(as_text=True)[:300]
    return response.location


def stored(app, url) -> DashingRound:
    with app.app_context():
        row = db.session.execute(
            select(DashingRound).where(DashingRound.token == url.rsplit("/", 1)[1])
        ).scalar_one()
        db.session.expunge(row)
        return row


def call_data(app, url, *, aside=None, wrong_capital=False, swap=False) -> dict:
    row = stored(app, url)
    with app.app_context():
        deck = get_deck()
    by_name = sorted(range(5), key=lambda i: deck[row.cards[i]].name)
    aside = by_name[-1] if aside is None else aside
    used = [i for i in by_name if i != aside]
    if swap:
        used[0], used[1] = used[1], used[0]
    data = {f"place-{i}": str(place) for place, i in enumerate(used, start=1)} | {
        f"place-{aside}": "aside"
    }
    for i, postal in enumerate(row.cards):
        data[f"name-{i}"] = deck[postal].name
        data[f"capital-{i}"] = deck[postal].capital
    if wrong_capital:
        data[f"capital-{used[0]}"] = (
            "Springfield" if deck[row.cards[used[0]]].capital != "Springfield" else "Denver"
        )
    return data


def call(client, url, data):
    return client.post(url, data={"csrf_token": csrf_token(client, url), **data})


def reviews(app) -> list[ReviewLog]:
    with app.app_context():
        return (
            db.session.execute(select(ReviewLog).where(ReviewLog.mode == "dashing_states"))
            .scalars()
            .all()
        )


def test_visitors_and_teachers_may_not_play(client, auth, teacher):
    assert "/auth/login" in client.get(INDEX).location
    auth.login("teacher1")
    assert client.get(INDEX).status_code == 403


def test_a_right_call_first_wins_and_teaches_eight_facts(player, app):
    url = deal(player, "hard")
    assert call(player, url, call_data(app, url)).status_code == 302
    row = stored(app, url)
    assert row.result == "won" and row.seconds is not None
    logged = reviews(app)
    assert len(logged) == 8 and {r.verdict for r in logged} == {"right"}
    aside = row.cards[row.call["set_aside"]]
    assert not any(r.fact_key.startswith(aside + ":") for r in logged), (
        "the card set aside records nothing"
    )
    assert {r.facet for r in logged} == {"map", "capital"}
    assert all(r.duration_ms == round(row.seconds * 1000 / 4) for r in logged)
    page = player.get(url).get_data(as_text=True)
    assert "You win!" in page
    assert_strict_page(page)


def test_d1_a_wrong_capital_or_order_loses_the_race(player, app):
    for bad in ({"wrong_capital": True}, {"swap": True}):
        url = deal(player)
        call(player, url, call_data(app, url, **bad))
        assert stored(app, url).result == "lost"
        page = player.get(url).get_data(as_text=True)
        assert "The computer wins" in page
        if "swap" in bad:
            assert "The order was wrong" in page and "comes before" in page


def test_practice_is_untimed_and_sets_a_personal_best(player, app):
    url = deal(player, "practice")
    call(player, url, call_data(app, url))
    row = stored(app, url)
    assert row.result == "right" and row.seconds is not None
    index = player.get(INDEX).get_data(as_text=True)
    assert "Your best times" in index and "Practice:" in index


def test_the_computers_call_decides_when_it_comes_first(player, app):
    url = deal(player, "hard")
    with app.app_context():
        row = db.session.execute(select(DashingRound)).scalar_one()
        row.created_at = row.created_at - dt.timedelta(minutes=10)
        db.session.commit()
    page = player.get(url).get_data(as_text=True)
    assert "The computer called GeoPlunge! first" in page
    decided = stored(app, url).result
    assert decided in ("won", "lost")
    with app.app_context():
        deck = get_deck()
    assert all(deck[p].name in page for p in stored(app, url).cards), (
        "the cards are shown once the game is over"
    )
    response = call(player, url, call_data(app, url))  # a call after the game ended
    assert response.status_code == 302
    assert "the computer called first" in player.get(url).get_data(as_text=True)
    after = stored(app, url)
    assert after.result == decided and after.call is None and reviews(app) == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"place-0": "1", "place-1": "1"}, "its own place"),
        ({"place-0": "aside", "place-1": "aside"}, "its own place"),
        ({"place-0": "9"}, "its own place"),
        ({"name-0": ""}, "Type an answer"),
    ],
)
def test_an_incomplete_call_is_explained_and_changes_nothing(player, app, change, message):
    url = deal(player)
    data = call_data(app, url)
    data.update(change)
    if "name-0" in change and data["place-0"] == "aside":
        data["name-1"] = ""
    response = call(player, url, data)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert stored(app, url).call is None and reviews(app) == []


def test_a_replayed_call_changes_nothing(player, app):
    url = deal(player)
    data = call_data(app, url)
    call(player, url, data)
    before = stored(app, url)
    response = call(player, url, call_data(app, url, wrong_capital=True))
    assert response.status_code == 302
    after = stored(app, url)
    assert (after.call, after.result, after.seconds) == (before.call, before.result, before.seconds)
    assert len(reviews(app)) == 8
    assert "already called" in player.get(url).get_data(as_text=True)


def test_another_students_round_is_not_found(app, client, auth, student):
    make_user(app, "student2")
    auth.login("student2")
    url = deal(client)
    auth.logout()
    auth.login()
    assert client.get(url).status_code == 404
    assert call(client, url, {}).status_code == 404
    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(ReviewLog)).scalar_one() == 0


def test_no_dealt_state_is_named_before_the_call(player, app):
    """Not in ids, classes, labels, data attributes or text: only the shared list of 50 names."""
    url = deal(player)
    row = stored(app, url)
    with app.app_context():
        deck = get_deck()
    pages = [player.get(url), call(player, url, {"place-0": "1"})]
    assert 'list="capital-names"' in pages[0].get_data(as_text=True), (
        "capitals are typed with autocomplete"
    )
    for response in pages:
        html = re.sub(r"<datalist.*?</datalist>", "", response.get_data(as_text=True), flags=re.S)
        for postal in row.cards:
            assert deck[postal].name not in html and deck[postal].capital not in html
            assert not re.search(rf"\b{postal}\b", html), postal
        assert "fips" not in html.lower()
        assert set(re.findall(r"\b(data-[a-z-]+)=", html)) <= {
            "data-position",
            "data-elapsed",
            "data-cards",
            "data-call",
        }
        ids = re.findall(r'\bid="([^"]+)"', html)
        assert not [i for i in ids if any(p.lower() in i.lower().split("-") for p in row.cards)]
        assert html.count("map-state--red") == 5


# --- Secrets: the Map cards are drawn for the round (P-H2) -----------------------------------


def _public_drawing(client, postal: str) -> list[str]:
    """What the public deck page draws for ``postal``'s Map card, as strings a page could repeat:
    the red outline, the ring and its leader line (their coordinates), and the close-up's view."""
    html = client.get(f"/deck/{postal.lower()}").get_data(as_text=True)
    # The red outline is the public one, from the map's file (trainer.web.mapsprite).
    red = re.search(
        r'<use href="(/deck/map-[0-9a-f]+\.svg)#(s\d+)" class="map-state map-state--red"', html
    )
    sprite = client.get(red.group(1), headers={"Accept-Encoding": "identity"}).get_data(
        as_text=True
    )
    parts = re.findall(rf'<path id="{red.group(2)}" d="([^"]+)"', sprite)
    assert parts
    parts += re.findall(
        r'<rect class="map-callout" (x="[^"]*" y="[^"]*" width="[^"]*" height="[^"]*")', html
    )
    parts += re.findall(r'<line class="map-callout__leader" (x1="[^"]*" y1="[^"]*")', html)
    # The map drawings' views (not an icon's, such as the phone menu's); the first is the whole map's.
    svgs = [tag for tag in re.findall(r"<svg\b[^>]*>", html) if "__icon" not in tag]
    parts += [box for tag in svgs for box in re.findall(r'viewBox="([^"]+)"', tag)][1:]
    assert parts
    return parts


def _attribute_tokens(html: str) -> set[str]:
    """Every word of every attribute value, lower case: ids, classes, labels, data, hrefs..."""
    values = re.findall(r'\s[\w:-]+="([^"]*)"', html)
    return {
        token.lower() for value in values for token in re.split(r"[^A-Za-z0-9]+", value) if token
    }


def _dealt_rounds(app, count: int) -> list[tuple[str, list[str]]]:
    """``count`` practice rounds dealt straight into the database: all 50 states over ten rounds,
    each round with its own seed. Returns (url, cards) for each."""
    with app.app_context():
        deck = get_deck()
        postals = sorted(deck.geometry.shapes)
        random.Random(18).shuffle(postals)
        student = db.session.execute(select(User).where(User.username == "student1")).scalar_one()
        rounds = []
        for n in range(count):
            cards = postals[5 * (n % 10) : 5 * (n % 10) + 5]
            token = f"drawn-{n}"
            db.session.add(
                DashingRound(
                    token=token,
                    student_id=student.id,
                    level="practice",
                    seed=1000 + 7919 * n,
                    cards=cards,
                    created_at=utcnow(),
                    result="playing",
                )
            )
            rounds.append((f"{INDEX}{token}", cards))
        db.session.commit()
    return rounds


def _drawn(html: str) -> dict[str, list[str]]:
    """The red outlines, and the transforms, of a round's page in page order."""
    return {
        "red": re.findall(r'<path class="map-state map-state--red" d="([^"]+)"', html),
        "transforms": re.findall(r'\btransform="([^"]+)"', html),
    }


def _assert_no_card_is_matched(
    html: str, cards: list[str], deck, public: dict[str, list[str]]
) -> dict[str, list[str]]:
    """Nothing of the page but the shared list of 50 names can be matched to a dealt state.
    Returns the page's drawing."""
    assert html.count("map-state--red") == 5
    page = re.sub(r"<datalist.*?</datalist>", "", html, flags=re.S)
    # The CSRF token is random text: a piece of it may read "wi" or "ar" by chance.
    page = re.sub(r'<input[^>]*name="csrf_token"[^>]*>', "", page)
    tokens = _attribute_tokens(page)
    for postal in cards:
        assert deck[postal].name not in page, postal
        assert not re.search(rf"\b{postal}\b", page), postal
        assert postal.lower() not in tokens, f"{postal} is a word of an attribute"
        for part in public[postal]:
            assert part not in page, (postal, part)
    for postal, shape in deck.geometry.shapes.items():
        assert shape.path not in page, f"{postal}'s public outline is in the page"
    if {"RI", "DE"} & set(cards):
        assert "map-closeup__frame" in page
    drawn = _drawn(page)
    # Each card has its own stretch: two transforms of its own (its stretch undone, and the
    # shared outlines put in its units), used again by the close-up of a small state.
    assert len(set(drawn["red"])) == 5 and len(set(drawn["transforms"])) == 10, (
        "each card has its own stretch"
    )
    return drawn


def test_no_map_card_can_be_matched_to_its_state_before_the_call(player, app):
    """P-H2 for Dashing States: before the call (and on a call sent back to be fixed), each Map
    card is drawn through the round's own stretches, so no name, postal code, outline, ring or
    close-up of the deck pages is in the page; after the call, the page names every card."""
    with app.app_context():
        deck = get_deck()
    rounds = _dealt_rounds(app, 12)
    public = {postal: _public_drawing(player, postal) for postal in deck.geometry.shapes}
    drawings = []
    for url, cards in rounds:
        drawn = _assert_no_card_is_matched(
            player.get(url).get_data(as_text=True), cards, deck, public
        )
        refused = call(player, url, {"place-0": "1"})
        assert refused.status_code == 400
        assert (
            _assert_no_card_is_matched(refused.get_data(as_text=True), cards, deck, public) == drawn
        )
        drawings.append(drawn)
        assert call(player, url, call_data(app, url)).status_code == 302
        after = player.get(url).get_data(as_text=True)
        assert all(deck[postal].name in after for postal in cards), (
            "after the call the page names every card"
        )
    # The same five states dealt again (rounds 0 and 10) are drawn afresh from the new round's seed.
    assert not set(drawings[0]["red"]) & set(drawings[10]["red"])
    assert not set(drawings[0]["transforms"]) & set(drawings[10]["transforms"])


def test_a_round_is_drawn_the_same_each_time_it_is_shown(player, app):
    """A reload gives nothing new to compare: the drawing comes from the round's seed."""
    [(url, _)] = _dealt_rounds(app, 1)
    first, again = (_drawn(player.get(url).get_data(as_text=True)) for _ in range(2))
    assert first == again and first["red"]
