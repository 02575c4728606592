"""Border-Up through the Flask client: turning over, the call, refusals, no leaks, reviews."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from sqlalchemy import select

from tests.conftest import csrf_token, make_user
from tests.web.test_security import assert_strict_page
from trainer.quiz.border_up import solutions
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import BorderUpRound, ReviewLog

INDEX = "/play/border-up/"


def deal(client, level="medium", ready=True) -> str:
    url = client.post(
        INDEX, data={"csrf_token": csrf_token(client, INDEX), "level": level}
    ).location
    if ready:
        client.post(f"{url}/ready", data={"csrf_token": csrf_token(client, url)})
    return url


def stored(app, url) -> BorderUpRound:
    with app.app_context():
        row = db.session.execute(
            select(BorderUpRound).where(BorderUpRound.token == url.rsplit("/", 1)[1])
        ).scalar_one()
        db.session.expunge(row)
        return row


def a_solution(app, url):
    row = stored(app, url)
    with app.app_context():
        return solutions(row.hand, get_deck())[0]


def call(client, url, first, second):
    data = {f"group-{p}": "1" for p in first} | {f"group-{p}": "2" for p in second}
    return client.post(url, data={"csrf_token": csrf_token(client, url), **data})


def logged(app) -> list[ReviewLog]:
    with app.app_context():
        return (
            db.session.execute(select(ReviewLog).where(ReviewLog.mode == "border_up"))
            .scalars()
            .all()
        )


def test_visitors_and_teachers_may_not_play(client, auth, teacher):
    assert "/auth/login" in client.get(INDEX).location
    auth.login("teacher1")
    assert client.get(INDEX).status_code == 403


def test_cards_are_face_down_until_ready(player, app):
    url = deal(player, ready=False)
    row = stored(app, url)
    html = player.get(url).get_data(as_text=True)
    assert "Ready, Set, GeoPlunge!" in html
    with app.app_context():
        deck = get_deck()
    assert not any(deck[p].name in html for p in row.hand)
    assert call(player, url, ["XX"], []).status_code == 302 and stored(app, url).call is None
    player.post(f"{url}/ready", data={"csrf_token": csrf_token(player, url)})
    assert stored(app, url).result == "playing"
    html = player.get(url).get_data(as_text=True)
    assert all(deck[p].name in html for p in row.hand)
    assert_strict_page(html)


def test_a_right_call_first_wins_and_reviews_both_centres(player, app):
    url = deal(player, "hard")
    first, second = a_solution(app, url)
    assert call(player, url, first, second).status_code == 302
    row = stored(app, url)
    assert row.result == "won" and row.seconds is not None
    reviews = logged(app)
    assert len(reviews) == 2 and {r.verdict for r in reviews} == {"right"}
    # P-M5 (issue 19 changed this from Good): a right pick of a fact never shown known is Hard.
    assert all(r.facet == "borders" and r.rating == 2 for r in reviews)
    assert all(r.fact_key.split(":")[0] in first | second for r in reviews)
    page = player.get(url).get_data(as_text=True)
    assert "You win!" in page and "a winning group" in page


def test_b2_a_wrong_group_loses_and_is_again_on_the_states_involved(player, app):
    url = deal(player)
    row = stored(app, url)
    with app.app_context():
        deck = get_deck()
    first, _ = a_solution(app, url)
    rest = [p for p in row.hand if p not in first]
    bad = next(
        trio
        for trio in (
            [a, b, c]
            for i, a in enumerate(rest)
            for j, b in enumerate(rest[i + 1 :])
            for c in rest[i + j + 2 :]
        )
        if not any(all(deck.borders_between(x, y) for y in trio if y != x) for x in trio)
    )
    call(player, url, first, bad)
    assert stored(app, url).result == "lost"
    wrong = [r for r in logged(app) if r.verdict == "wrong"]
    assert len(wrong) >= 2 and all(r.fact_key.split(":")[0] in bad for r in wrong)
    assert "not a group" in player.get(url).get_data(as_text=True)


def test_a_hint_makes_the_round_helped(player, app):
    url = deal(player)
    player.post(f"{url}/hint", data={"csrf_token": csrf_token(player, url)})
    hint = stored(app, url).hint
    assert hint and hint in stored(app, url).hand
    assert "bu__card--hint" in player.get(url).get_data(as_text=True)
    first, second = a_solution(app, url)
    call(player, url, first, second)
    assert {r.rating for r in logged(app)} == {2}, "helped = Hard"


@pytest.mark.parametrize("problem", ["short", "not_in_hand", "three_groups_of_two"])
def test_a_call_that_is_not_two_groups_of_the_hand_is_refused(player, app, problem):
    url = deal(player)
    first, second = (sorted(g) for g in a_solution(app, url))
    if problem == "short":
        first = first[:2]
    elif problem == "not_in_hand":
        outside = next(
            p for p in [s.postal for s in get_deck_for(app)] if p not in stored(app, url).hand
        )
        first = [*first[:2], outside]
    else:
        second = second[:2]
    response = call(player, url, first, second)
    assert response.status_code == 400
    assert stored(app, url).call is None and logged(app) == []


def get_deck_for(app):
    with app.app_context():
        return get_deck()


def test_a_replayed_or_late_call_changes_nothing(player, app):
    url = deal(player)
    first, second = a_solution(app, url)
    call(player, url, first, second)
    before = stored(app, url)
    call(player, url, second, first)
    after = stored(app, url)
    assert (after.call, after.result) == (before.call, before.result) and len(logged(app)) == 2
    assert "already called" in player.get(url).get_data(as_text=True)


def test_the_computers_call_decides_when_it_comes_first(player, app):
    url = deal(player, "hard")
    with app.app_context():
        row = db.session.execute(select(BorderUpRound)).scalar_one()
        row.revealed_at = row.revealed_at - dt.timedelta(minutes=10)
        db.session.commit()
    page = player.get(url).get_data(as_text=True)
    assert "The computer called GeoPlunge! first" in page
    assert "Winning calls in your hand" in page and 'id="call-form"' not in page
    decided = stored(app, url).result
    first, second = a_solution(app, url)
    call(player, url, first, second)  # a late call: refused without effect
    after = stored(app, url)
    assert after.result == decided and after.call is None and logged(app) == []
    assert "the computer called first" in player.get(url).get_data(as_text=True)


def test_another_students_round_is_not_found(app, client, auth, student):
    make_user(app, "student2")
    auth.login("student2")
    url = deal(client)
    auth.logout()
    auth.login()
    assert client.get(url).status_code == 404
    token = csrf_token(client, INDEX)
    for path in (url, f"{url}/ready", f"{url}/hint"):
        assert client.post(path, data={"csrf_token": token}).status_code == 404


def test_the_computers_hand_and_the_solutions_stay_on_the_server(player, app):
    url = deal(player)
    row = stored(app, url)
    with app.app_context():
        deck = get_deck()
    pages = [player.get(url), call(player, url, ["ZZ"], [])]
    for response in pages:
        html = response.get_data(as_text=True)
        # The student's own cards are on the page; take their names out first ("West Virginia"
        # would otherwise hide a "Virginia", "Arkansas" a "Kansas").
        for name in sorted((deck[p].name for p in row.hand), key=len, reverse=True):
            html = html.replace(name, "")
        for postal in row.computer_hand:
            assert deck[postal].name not in html and not re.search(rf"\b{postal}\b", html)
        assert "winning calls" not in html.lower() and " + " not in html


def test_the_result_map_marks_the_centres_without_a_zone_colour(player, app):
    """#21: red is the Eastern zone, so a group's centre is striped and outlined in black, and the
    map's key says so (and names the colour of each zone in the hand)."""
    url = deal(player, "hard")
    html = player.get(url).get_data(as_text=True)
    assert "Eastern zone: red" in html or "Eastern" not in html
    assert "map-state--centre" not in html and "the centre of each" not in html
    first, second = a_solution(app, url)
    call(player, url, first, second)
    html = player.get(url).get_data(as_text=True)
    assert html.count('<path class="map-state--centre"') == 2
    assert "map-state--red" not in html and "In red" not in html
    assert 'id="bu-centre-stripes"' in html
    assert "Black stripes and outline: the state at the centre of each of your groups" in html
    assert "Dashed outline: the states it borders" in html
    assert_strict_page(html)
