"""Dashing States through the Flask client: the call, the race, refusals, no leaks, reviews."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from sqlalchemy import func, select

from tests.conftest import csrf_token, make_user
from tests.web.test_security import assert_strict_page
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import DashingRound, ReviewLog

INDEX = "/play/dashing-states/"


def deal(client, level="medium") -> str:
    response = client.post(INDEX, data={"csrf_token": csrf_token(client, INDEX), "level": level})
    assert response.status_code == 302, response.get_data(as_text=True)[:300]
    return response.location


def stored(app, url) -> DashingRound:
    with app.app_context():
        row = db.session.execute(select(DashingRound).where(DashingRound.token == url.rsplit("/", 1)[1])).scalar_one()
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
    data = {f"place-{i}": str(place) for place, i in enumerate(used, start=1)} | {f"place-{aside}": "aside"}
    for i, postal in enumerate(row.cards):
        data[f"name-{i}"] = deck[postal].name
        data[f"capital-{i}"] = deck[postal].capital
    if wrong_capital:
        data[f"capital-{used[0]}"] = "Springfield" if deck[row.cards[used[0]]].capital != "Springfield" else "Denver"
    return data


def call(client, url, data):
    return client.post(url, data={"csrf_token": csrf_token(client, url), **data})


def reviews(app) -> list[ReviewLog]:
    with app.app_context():
        return db.session.execute(select(ReviewLog).where(ReviewLog.mode == "dashing_states")).scalars().all()


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
    assert not any(r.fact_key.startswith(aside + ":") for r in logged), "the card set aside records nothing"
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
    assert all(deck[p].name in page for p in stored(app, url).cards), "the cards are shown once the game is over"
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
    assert 'list="capital-names"' in pages[0].get_data(as_text=True), "capitals are typed with autocomplete"
    for response in pages:
        html = re.sub(r"<datalist.*?</datalist>", "", response.get_data(as_text=True), flags=re.S)
        for postal in row.cards:
            assert deck[postal].name not in html and deck[postal].capital not in html
            assert not re.search(rf"\b{postal}\b", html), postal
        assert "fips" not in html.lower()
        assert set(re.findall(r"\b(data-[a-z-]+)=", html)) <= {"data-position", "data-elapsed", "data-cards", "data-call"}
        ids = re.findall(r'\bid="([^"]+)"', html)
        assert not [i for i in ids if any(p.lower() in i.lower().split("-") for p in row.cards)]
        assert html.count("map-state--red") == 5
