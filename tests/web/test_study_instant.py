"""Instant answers on the study pages (#21): the item's URL answers JSON when asked for it, with
the same checks, the same words and exactly one review per answer; the secrets stay on the server."""

from __future__ import annotations

import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from tests.conftest import csrf_token, make_user
from tests.web.test_study import Study, count
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import MemoryCard, ReviewLog, StudyRound, User
from trainer.web.study.routes import ALREADY_SAVED, OUT_OF_ORDER

JSON = {"Accept": "application/json"}


@pytest.fixture
def study(app, client, auth, student) -> Study:
    auth.login()
    return Study(app, client)


def _add_round(app: Flask, token: str, items: list[list[str]], seed: int = 11) -> str:
    with app.app_context():
        user = db.session.execute(select(User).where(User.username == "student1")).scalar_one()
        db.session.add(
            StudyRound(token=token, student_id=user.id, seed=seed, items=items, focus={})
        )
        db.session.commit()
    return f"/study/rounds/{token}"


def _question(client: FlaskClient, url: str) -> dict:
    """The question at ``url`` as study_instant.js asks for it."""
    response = client.get(url, headers=JSON)
    assert response.status_code == 200 and response.is_json, response.get_data(as_text=True)[:300]
    assert response.headers["Cache-Control"] == "no-store"
    assert "Accept" in response.headers["Vary"]
    return response.get_json()


def _post(client: FlaskClient, url: str, data: dict, token: str | None = None):
    """An answer as study_instant.js sends it: the form's fields, asking for JSON."""
    if token is None:
        html = _question(client, url)["html"]
        token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    return client.post(url, data={"csrf_token": token, "elapsed_ms": "3000", **data}, headers=JSON)


def test_a_right_answer_is_one_review_and_comes_back_as_the_feedback(study, client):
    url = study.start()
    body = _question(client, url)
    assert body["kind"] == "question" and body["index"] == 1 and body["total"] == 10
    assert body["url"] == url and body["title"].startswith("Fact 1 of 10")
    assert 'id="study-item"' in body["html"] and 'id="answer-form"' in body["html"]
    assert "<html" not in body["html"], "a fragment, not a page"
    response = _post(client, url, {"answer": study.right_answer(url)})
    assert response.status_code == 200 and response.is_json
    feedback = response.get_json()
    assert feedback["kind"] == "feedback" and feedback["url"] == url
    assert feedback["title"].startswith("Right! Fact 1 of 10")
    assert feedback["next"] == url[: url.rfind("/")] + "/2"
    assert "Right!" in feedback["html"] and "You will see this again" in feedback["html"]
    assert 'id="next" data-instant' in feedback["html"]
    assert count(study.app, ReviewLog) == 1 and count(study.app, MemoryCard) == 1
    # The page of the same URL (JavaScript off, or a reload) shows the same feedback.
    page = client.get(url).get_data(as_text=True)
    assert "Right!" in page and "<html" in page
    assert "Accept" in client.get(url).headers["Vary"]
    # And its JSON too (Back to an answered fact).
    again = _question(client, url)
    assert again["kind"] == "feedback" and again["next"] == feedback["next"]


def test_wrong_and_i_dont_know_are_one_review_each(study, client):
    url = study.start(facets=["capital"])
    base = url[: url.rfind("/")]
    wrong = _post(client, url, {"answer": "", "dont_know": "y"})
    assert wrong.status_code == 200
    body = wrong.get_json()
    assert "Not this time" in body["html"] and body["title"].startswith("Not this time")
    assert "I don&#39;t know" in body["html"] or "I don't know" in body["html"]
    second = f"{base}/2"
    q = study.question_at(second)
    right = study.right_answer(second)
    answer = next(c for c in q.choices if c != right) if q.choices else "Nome"
    response = _post(client, second, {"answer": answer})
    assert response.status_code == 200
    assert "Not this time" in response.get_json()["html"]
    with study.app.app_context():
        rows = db.session.execute(select(ReviewLog).order_by(ReviewLog.item)).scalars().all()
        assert [(r.item, r.verdict) for r in rows] == [("1", "wrong"), ("2", "wrong")]


def test_the_last_feedback_goes_on_to_the_summary(study, client):
    base = _add_round(study.app, "last", [["CO:capital", "typed"]])
    response = _post(client, f"{base}/1", {"answer": "Denver"})
    body = response.get_json()
    assert body["next"] == f"{base}/done"
    assert "data-instant" not in body["html"], "the summary is a page of its own"


def test_a_replayed_answer_is_already_saved_and_changes_nothing(study, client):
    url = study.start()
    token = csrf_token(client, url)
    assert _post(client, url, {"answer": study.right_answer(url)}, token).status_code == 200
    with study.app.app_context():
        due = db.session.execute(select(MemoryCard.due)).scalar_one()
    for data in ({"answer": "something else"}, {"dont_know": "y"}, {"answer": ""}):
        replay = _post(client, url, data, token)
        assert replay.status_code == 409 and replay.is_json
        assert replay.get_json()["message"] == ALREADY_SAVED
        assert replay.get_json()["url"] == url, "the item's page as it is now: its feedback"
    assert count(study.app, ReviewLog) == 1
    with study.app.app_context():
        assert db.session.execute(select(MemoryCard.due)).scalar_one() == due
    # Nothing was flashed for a later page to show.
    assert ALREADY_SAVED not in client.get("/study/").get_data(as_text=True)


def test_answers_out_of_order_are_refused_and_record_nothing(study, client):
    base = _add_round(
        study.app, "in-order", [["CO:map", "typed"], ["CO:capital", "typed"], ["UT:map", "typed"]]
    )
    token = csrf_token(client, f"{base}/1")
    for index, data in [(2, {"dont_know": "y"}), (3, {"answer": "Utah"})]:
        response = _post(client, f"{base}/{index}", data, token)
        assert response.status_code == 409
        body = response.get_json()
        assert body == {
            "error": "stale",
            "message": OUT_OF_ORDER,
            "category": "info",
            "url": f"{base}/1",
        }
    # Asked for the question out of order: where to go instead, and no card of a later fact.
    ahead = client.get(f"{base}/2", headers=JSON)
    assert ahead.status_code == 409 and ahead.get_json()["url"] == f"{base}/1"
    assert "Denver" not in ahead.get_data(as_text=True)
    assert count(study.app, ReviewLog) == 0
    assert OUT_OF_ORDER not in client.get("/study/").get_data(as_text=True)


def test_an_unreadable_answer_is_a_400_with_the_question_again(study, client):
    base = _add_round(study.app, "blank", [["CO:capital", "typed"], ["CO:capital", "choice"]])
    response = _post(client, f"{base}/1", {"answer": ""})
    assert response.status_code == 400
    body = response.get_json()
    assert "Type an answer" in body["message"]
    assert body["kind"] == "question" and 'role="alert"' in body["html"]
    assert "Type an answer" in body["html"] and 'aria-invalid="true"' in body["html"]
    too_long = _post(client, f"{base}/1", {"answer": "x" * 201})
    assert too_long.status_code == 400 and "too long" in too_long.get_json()["message"]
    assert count(study.app, ReviewLog) == 0
    assert _post(client, f"{base}/1", {"answer": "Denver"}).status_code == 200
    # An option that was not offered: the same words as the page.
    refused = _post(client, f"{base}/2", {"answer": "Atlantis"})
    assert refused.status_code == 400 and "Pick one of the choices" in refused.get_json()["message"]
    assert count(study.app, ReviewLog) == 1


def test_another_students_round_is_not_found_in_json(app, client, auth, student):
    make_user(app, "student2")
    auth.login("student2")
    url = Study(app, client).start()
    auth.logout()
    auth.login("student1")
    token = csrf_token(client, "/study/")
    response = client.post(url, data={"csrf_token": token, "answer": "Denver"}, headers=JSON)
    assert response.status_code == 404 and response.is_json
    get = client.get(url, headers=JSON)
    assert get.status_code == 404 and get.is_json
    assert "html" not in get.get_json()
    assert count(app, ReviewLog) == 0


def test_an_answer_without_the_csrf_token_is_a_400_and_records_nothing(study, client):
    url = study.start()
    response = client.post(url, data={"answer": study.right_answer(url)}, headers=JSON)
    assert response.status_code == 400 and response.is_json
    assert "expired" in response.get_json()["message"]
    assert count(study.app, ReviewLog) == 0


@pytest.mark.parametrize("postal", ["CO", "RI", "TX"])
def test_the_question_json_never_names_its_secret(study, client, postal):
    """A Map card's state, and which spot of a "Find X" map is X, stay on the server (P-H2)."""
    other = "UT" if postal != "UT" else "CO"
    base = _add_round(
        study.app,
        f"secret-{postal.lower()}",
        [[f"{postal}:map", "typed"], [f"{postal}:map", "choice"], [f"{other}:map", "map_click"]],
    )
    with study.app.app_context():
        deck = get_deck()
        state = deck[postal]
        other_name = deck[other].name
        names = [s.name for s in deck]
        red = deck.geometry.shapes[postal].path
    typed = json.dumps(_question(client, f"{base}/1"))
    typed_page = re.sub(r"<datalist.*?</datalist>", "", typed, flags=re.S)
    assert "map-state--red" in typed and state.name not in typed_page
    assert not re.search(rf"\b{postal}\b", typed_page) and red not in typed
    assert _post(client, f"{base}/1", {"dont_know": "y"}).status_code == 200
    choice = _question(client, f"{base}/2")
    assert not re.search(rf"\b{postal}\b", json.dumps(choice)) and red not in choice["html"]
    assert choice["html"].count('type="radio"') == 4
    assert _post(client, f"{base}/2", {"dont_know": "y"}).status_code == 200
    click = _question(client, f"{base}/3")
    text = json.dumps(click)
    assert "data-postal" not in text and "map-state--red" not in text
    rest = text.replace(f"Find {other_name} on the map.", "")
    assert all(name not in rest for name in names), "only the prompt names a state"
    assert click["html"].count('role="button"') == 50
