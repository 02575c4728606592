"""Study pages through the Flask client: rounds end to end, replays, other students' rounds, forms."""

from __future__ import annotations

import datetime as dt
import re
import threading
import time

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from tests.conftest import csrf_token, make_user
from tests.web.test_security import assert_strict_page
from trainer import srs
from trainer.cards import Region, Zone
from trainer.facts import Facet, Fact, Form, Verdict, expected_answer, forms_for
from trainer.review import CHOICE_UNTIL_STABILITY_DAYS, ROUND_SIZE, Item, pick_map, question
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.memory import RecordError, queue, record, summary
from trainer.web.models import MemoryCard, ReviewLog, StudyRound, User

ROUND_URL = re.compile(r"/study/rounds/([A-Za-z0-9_-]+)/(\d+)$")


class Study:
    """A student studying through the real pages."""

    def __init__(self, app: Flask, client: FlaskClient):
        self.app = app
        self.client = client

    def start(self, **fields) -> str:
        token = csrf_token(self.client, "/study/")
        response = self.client.post("/study/rounds", data={"csrf_token": token, **fields})
        assert response.status_code == 302, response.get_data(as_text=True)[:500]
        return response.location

    def round_of(self, url: str) -> StudyRound:
        token = ROUND_URL.search(url).group(1)
        with self.app.app_context():
            round_ = db.session.execute(
                select(StudyRound).where(StudyRound.token == token)
            ).scalar_one()
            db.session.expunge(round_)
            return round_

    def question_at(self, url: str):
        round_ = self.round_of(url)
        index = int(ROUND_URL.search(url).group(2))
        key, form = round_.items[index - 1]
        with self.app.app_context():
            return question(Item(Fact.from_key(key), Form(form)), get_deck(), round_.seed, index)

    def spot(self, url: str, postal: str) -> str:
        """The spot that ``postal`` has on the map of the map-click question at ``url``."""
        round_ = self.round_of(url)
        index = int(ROUND_URL.search(url).group(2))
        with self.app.app_context():
            return str(pick_map(get_deck(), round_.seed, index).spot_of(postal))

    def right_answer(self, url: str) -> str:
        q = self.question_at(url)
        with self.app.app_context():
            deck = get_deck()
            if q.form is Form.MAP_CLICK:
                return self.spot(url, q.fact.postal)
            if q.fact.facet is Facet.BORDERS:
                neighbours = deck.neighbours(q.fact.postal)
                if q.form is Form.CHOICE:
                    return next(
                        c
                        for c in q.choices
                        if any(c == n.name for n in neighbours)
                        or (not neighbours and c == "None of them")
                    )
                return ", ".join(n.name for n in neighbours) or "none"
            return expected_answer(q.fact, deck)

    def answer(self, url: str, answer: str | None = None, **extra):
        html = self.client.get(url).get_data(as_text=True)
        token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
        data = {
            "csrf_token": token,
            "answer": self.right_answer(url) if answer is None else answer,
            "elapsed_ms": "4000",
            **extra,
        }
        return self.client.post(url, data=data)


@pytest.fixture
def study(app, client, auth, student) -> Study:
    auth.login()
    return Study(app, client)


def count(app: Flask, model, **where) -> int:
    with app.app_context():
        query = select(func.count()).select_from(model)
        for name, value in where.items():
            query = query.where(getattr(model, name) == value)
        return db.session.execute(query).scalar_one()


# --- Who may see what ---------------------------------------------------------------------

STUDY_PAGES = ["/study/", "/study/settings"]


@pytest.mark.parametrize("path", STUDY_PAGES)
def test_study_pages_send_visitors_to_log_in(client, path):
    response = client.get(path)
    assert response.status_code == 302
    assert "/auth/login" in response.location


@pytest.mark.parametrize("path", STUDY_PAGES)
def test_study_pages_are_for_students(client, auth, teacher, path):
    auth.login("teacher1")
    assert client.get(path).status_code == 403


@pytest.mark.parametrize("path", STUDY_PAGES)
def test_a_student_sees_the_study_pages(study, client, path):
    assert client.get(path).status_code == 200


def test_starting_a_round_needs_a_student(client, auth, teacher):
    auth.login("teacher1")
    token = csrf_token(client, "/")
    assert client.post("/study/rounds", data={"csrf_token": token}).status_code == 403
    assert count(client.application, StudyRound) == 0


def test_a_post_without_csrf_token_changes_nothing(study, client):
    assert client.post("/study/rounds", data={}).status_code == 400
    assert count(study.app, StudyRound) == 0


# --- A round, end to end ------------------------------------------------------------------


def test_a_new_student_studies_a_round_and_every_answer_is_one_review(study, client):
    """Done when: a student who signs up can study today's facts, and every answer is one row, once."""
    home = client.get("/study/").get_data(as_text=True)
    assert "Start studying" in home
    url = study.start()
    for index in range(1, ROUND_SIZE + 1):
        assert url.endswith(f"/{index}")
        response = study.answer(url)
        assert response.status_code == 302 and response.location == url
        page = client.get(url).get_data(as_text=True)
        assert "Right!" in page, page[:2000]
        assert "You will see this again" in page
        url = re.search(r'href="([^"]+)" id="next"', page).group(1)
    assert url.endswith("/done")
    done = client.get(url).get_data(as_text=True)
    assert f"{ROUND_SIZE} right, 0 close, 0 to learn" in done
    assert count(study.app, ReviewLog) == ROUND_SIZE
    assert count(study.app, MemoryCard) == ROUND_SIZE
    with study.app.app_context():
        reviews = db.session.execute(select(ReviewLog)).scalars().all()
        assert {r.mode for r in reviews} == {"review"}
        # P-M5 (issue 19 changed this from Good for every first answer): a new fact picked right is Hard.
        assert all(
            r.rating == int(srs.Rating.HARD if r.form == "choice" else srs.Rating.GOOD)
            for r in reviews
        )
        assert len({(r.round_token, r.item) for r in reviews}) == ROUND_SIZE
    stats = client.get("/study/").get_data(as_text=True)
    assert re.search(r'stat__value">10</span> <span class="stat__label">answered today', stats)
    assert re.search(r'stat__value">1</span> <span class="stat__label">day in a row', stats)


def test_answers_change_tomorrows_schedule(study, client):
    """A right answer comes back later than a wrong one, and the schedule tomorrow shows it."""
    url = study.start()
    first = url
    study.answer(url)  # right
    second = url[: url.rfind("/")] + "/2"
    study.answer(second, "", dont_know="y")  # wrong
    with study.app.app_context():
        rows = {r.item: r for r in db.session.execute(select(ReviewLog)).scalars()}
        assert rows["1"].verdict == "right" and rows["2"].verdict == "wrong"
        # P-M5 (issue 19): a new fact picked right is Hard (2), typed right Good (3).
        assert (
            rows["1"].rating == (2 if rows["1"].form == "choice" else 3) and rows["2"].rating == 1
        )
        # P-M12: no same-day steps, so both come back on a later study day; the right one with
        # a longer memory (on the next day at the earliest: FSRS gives a new Hard fact a day).
        assert rows["1"].stability_after > rows["2"].stability_after
        assert rows["1"].due_after >= rows["2"].due_after > rows["2"].reviewed_at
        student = db.session.get(User, rows["1"].student_id)
        tomorrow = dt.datetime.now(dt.UTC) + dt.timedelta(days=1)
        keys = queue(student, get_deck(), size=30, now=tomorrow)
        assert rows["2"].fact_key in keys, "the miss comes back tomorrow"
        later = rows["1"].due_after.replace(tzinfo=dt.UTC) + dt.timedelta(minutes=1)
        assert rows["1"].fact_key in queue(student, get_deck(), size=30, now=later)
        assert first  # the round page stays reachable


def test_a_wrong_answer_shows_the_card_and_the_right_answer(study, client):
    url = study.start()
    q = study.question_at(url)
    study.answer(url, "", dont_know="y")
    page = client.get(url).get_data(as_text=True)
    with study.app.app_context():
        state = get_deck()[q.fact.postal]
    assert "Not this time" in page
    assert f"More about {state.name}" in page
    assert state.capital in page, "the whole card is shown"
    assert "I don&#39;t know" in page or "I don't know" in page


def test_a_replayed_answer_records_nothing_new(study, client):
    url = study.start()
    html = client.get(url).get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    data = {"csrf_token": token, "answer": study.right_answer(url)}
    assert client.post(url, data=data).status_code == 302
    with study.app.app_context():
        card_before = db.session.execute(select(MemoryCard)).scalar_one()
        due_before = card_before.due
    replay = client.post(url, data={**data, "answer": "something else"}, follow_redirects=True)
    assert replay.status_code == 200
    assert "already saved" in replay.get_data(as_text=True)
    assert count(study.app, ReviewLog) == 1
    with study.app.app_context():
        assert db.session.execute(select(MemoryCard)).scalar_one().due == due_before


def test_a_review_for_another_students_round_is_refused(app, client, auth, student):
    make_user(app, "student2")
    auth.login("student2")
    other = Study(app, client)
    url = other.start()
    auth.logout()
    auth.login("student1")
    token = csrf_token(client, "/study/")
    response = client.post(url, data={"csrf_token": token, "answer": "Denver"})
    assert response.status_code == 404
    assert client.get(url).status_code == 404
    assert count(app, ReviewLog) == 0


@pytest.mark.parametrize(
    "path", ["/study/rounds/nope/1", "/study/rounds/nope", "/study/rounds/nope/done"]
)
def test_an_unknown_round_is_not_found(study, client, path):
    assert client.get(path).status_code == 404


def test_an_item_outside_the_round_is_not_found(study, client):
    url = study.start()
    base = url[: url.rfind("/")]
    assert client.get(f"{base}/0").status_code == 404
    assert client.get(f"{base}/{ROUND_SIZE + 1}").status_code == 404


def test_skipping_ahead_goes_back_to_the_first_unanswered(study, client):
    url = study.start()
    base = url[: url.rfind("/")]
    response = client.get(f"{base}/5")
    assert response.status_code == 302
    assert client.get(response.location).location.endswith("/1")
    assert client.get(f"{base}/done").status_code == 302


@pytest.mark.parametrize(
    ("answer", "message"),
    [("", "Type an answer"), ("x" * 201, "too long")],
)
def test_an_unreadable_answer_is_asked_again_and_records_nothing(study, client, answer, message):
    url = study.start(facets=["capital"])
    q = study.question_at(url)
    assert q.fact.facet is Facet.CAPITAL
    if q.form is Form.CHOICE and answer == "":
        message = "Pick one of the choices"
    response = study.answer(url, answer)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert count(study.app, ReviewLog) == 0


def test_an_option_that_was_not_offered_is_refused(study, client):
    url = study.start(facets=["capital"])
    q = study.question_at(url)
    assert q.form is Form.CHOICE, "new facts are multiple choice by default"
    response = study.answer(url, "Atlantis")
    assert response.status_code == 400
    assert "Pick one of the choices" in response.get_data(as_text=True)
    assert count(study.app, ReviewLog) == 0


def test_focus_on_facets_and_a_zone(study, client):
    url = study.start(facets=["capital", "postal"], area="zone:mountain")
    round_ = study.round_of(url)
    with study.app.app_context():
        deck = get_deck()
        mountain = {s.postal for s in deck.in_zone(Zone.MOUNTAIN)}
    facts = [Fact.from_key(key) for key, _ in round_.items]
    assert facts and all(
        f.facet in (Facet.CAPITAL, Facet.POSTAL) and f.postal in mountain for f in facts
    )


def test_focus_on_a_census_region(study, client):
    url = study.start(area="region:northeast")
    with study.app.app_context():
        northeast = {s.postal for s in get_deck().in_region(Region.NORTHEAST)}
    facts = [Fact.from_key(key) for key, _ in study.round_of(url).items]
    assert len(facts) == ROUND_SIZE and {f.postal for f in facts} <= northeast
    done_form = study.round_of(url).focus
    assert done_form == {"facets": [], "area": "region:northeast"}


@pytest.mark.parametrize(
    "fields", [{"facets": ["flags"]}, {"area": "zone:mars"}, {"area": "region:"}]
)
def test_an_unknown_focus_is_refused(study, client, fields):
    token = csrf_token(client, "/study/")
    response = client.post("/study/rounds", data={"csrf_token": token, **fields})
    assert response.status_code == 400
    assert "Please fix" in response.get_data(as_text=True)
    assert count(study.app, StudyRound) == 0


def test_when_nothing_is_left_the_student_is_told(study, client):
    with study.app.app_context():
        user = db.session.execute(select(User)).scalar_one()
        user.new_per_day = 0
        db.session.commit()
    token = csrf_token(client, "/study/")
    response = client.post("/study/rounds", data={"csrf_token": token}, follow_redirects=True)
    assert "Nothing to study" in response.get_data(as_text=True)
    assert count(study.app, StudyRound) == 0


def test_every_study_page_holds_under_the_strict_csp(study, client):
    """Home, settings, each form of question, feedback and the summary: no inline script or style."""
    items = [
        ["CO:map", "map_click"],
        ["UT:map", "typed"],
        ["WA:map", "choice"],
        ["CO:borders", "typed"],
        ["HI:borders", "choice"],
    ]
    with study.app.app_context():
        user = db.session.execute(select(User)).scalar_one()
        db.session.add(
            StudyRound(token="every-form", student_id=user.id, seed=7, items=items, focus={})
        )
        db.session.commit()
    pages = ["/study/", "/study/settings"]
    for index in range(1, len(items) + 1):
        url = f"/study/rounds/every-form/{index}"
        pages.append(url)
        assert_strict_page(client.get(url).get_data(as_text=True))
        assert study.answer(url).status_code == 302
        pages.append(url)  # now its feedback
    pages.append("/study/rounds/every-form/done")
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
        assert "unsafe-inline" not in response.headers["Content-Security-Policy"]
        assert_strict_page(response.get_data(as_text=True))


# --- Secrets -------------------------------------------------------------------------------


@pytest.mark.parametrize("postal", ["CO", "RI", "HI", "TX", "DE"])
def test_a_map_question_never_names_its_red_state(study, client, postal):
    """The server is the only judge: the red state's name and code are not in the page, nor its
    outline, ring or close-up as the deck pages draw them (P-H2)."""
    items = [
        [f"{postal}:map", "typed"],
        [f"{postal}:map", "choice"],
        ["CO:map" if postal != "CO" else "UT:map", "map_click"],
    ]
    with study.app.app_context():
        user = db.session.execute(select(User)).scalar_one()
        db.session.add(
            StudyRound(token="secret", student_id=user.id, seed=11, items=items, focus={})
        )
        db.session.commit()
        state = get_deck()[postal]
    typed = client.get("/study/rounds/secret/1").get_data(as_text=True)
    assert "map-state--red" in typed
    page = re.sub(r"<datalist.*?</datalist>", "", typed, flags=re.S)
    assert state.name not in page
    assert not re.search(rf"\b{postal}\b", page), "no id, class or label names the red state"
    # P-H2: nor can the red outline, its ring or its close-up be matched to the deck page's.
    public = client.get(f"/deck/{postal.lower()}").get_data(as_text=True)
    # (The deck page draws its outlines from the map's file, trainer.web.mapsprite.)
    sprite_url = re.search(r'<use href="(/deck/map-[0-9a-f]+\.svg)#', public).group(1)
    sprite = client.get(sprite_url, headers={"Accept-Encoding": "identity"}).get_data(as_text=True)
    public_parts = re.findall(r' d="[^"]+"', sprite)
    public_parts += (
        re.findall(r"<(?:rect|line) class=\"map-callout[^>]*>", public)
        # The maps' views (not an icon's, such as the phone menu's); the first is the whole map's.
        + [
            box
            for tag in re.findall(r"<svg\b[^>]*>", public)
            if "__icon" not in tag
            for box in re.findall(r'viewBox="[^"]+"', tag)
        ][1:]
    )
    assert public_parts
    for part in public_parts:
        assert part not in page, part
    with study.app.app_context():
        assert get_deck().geometry.shapes[postal].path not in page
    if postal in ("RI", "DE"):
        assert "map-closeup__frame" in page and '<use href="#quiz-map-states"/>' in page
    study.answer("/study/rounds/secret/1")
    choice = client.get("/study/rounds/secret/2").get_data(as_text=True)
    assert not re.search(rf"\b{postal}\b", choice)
    with study.app.app_context():
        assert get_deck().geometry.shapes[postal].path not in choice
    assert choice.count('type="radio"') == 4, "only the four options name states"
    study.answer("/study/rounds/secret/2")
    click = client.get("/study/rounds/secret/3").get_data(as_text=True)
    assert "map-state--red" not in click, "no state is marked on the map to click"
    assert click.count('role="button"') == 50


def _add_round(app: Flask, token: str, items: list[list[str]], seed: int = 11) -> None:
    with app.app_context():
        user = db.session.execute(select(User)).scalar_one()
        db.session.add(
            StudyRound(token=token, student_id=user.id, seed=seed, items=items, focus={})
        )
        db.session.commit()


def _spot_paths(html: str) -> list[dict[str, str]]:
    """The attributes of each clickable outline of a pick map, in page order."""
    return [
        dict(re.findall(r'([\w:-]+)="([^"]*)"', tag))
        for tag in re.findall(r"<path\b[^>]*\bdata-spot=[^>]*>", html)
    ]


def _four_arrow_reach(paths: list[dict[str, str]], start: str) -> set[str]:
    seen, todo = {start}, [start]
    by_spot = {p["data-spot"]: p for p in paths}
    while todo:
        here = by_spot[todo.pop()]
        for direction in ("north", "east", "south", "west"):
            there = here.get(f"data-{direction}")
            if there and there not in seen:
                seen.add(there)
                todo.append(there)
    return seen


def test_find_on_the_map_names_no_state_before_the_answer(study, client):
    """P-H2 (issue 18): no state of a "Find X" map is named in the page (attribute, id, class,
    path or order); the posted spot is judged on the server; every spot has keyboard neighbours."""
    with study.app.app_context():
        deck = get_deck()
        clickable = [
            s.postal for s in deck if Form.MAP_CLICK in forms_for(Fact(s.postal, Facet.MAP), deck)
        ]
        names = {s.postal: s.name for s in deck}
        public_paths = [shape.path for shape in deck.geometry.shapes.values()]
        west_to_east = deck.geometry.west_to_east()
    _add_round(
        study.app,
        "find-all",
        [[f"{postal}:map", "map_click"] for postal in clickable],
        seed=20260318,
    )
    # Any postal code as a word, and any map-<code>: one pattern for all 50 codes (the same
    # matches as a search per code, made 4 million times, which was most of the test's time).
    alternatives = "|".join(re.escape(code) for code in names)
    code_word = re.compile(rf"(?<![A-Za-z])({alternatives})(?![A-Za-z])")
    map_code = re.compile(rf"(?<![a-z])map-({alternatives.lower()})\b")
    orders = set()
    for index, postal in enumerate(clickable, start=1):
        url = f"/study/rounds/find-all/{index}"
        html = client.get(url).get_data(as_text=True)
        prompt = f"Find {names[postal]} on the map."
        assert html.count(prompt) == 1
        page = html.replace(prompt, "")
        for name in names.values():
            assert name not in page, f"{name} is named on the map of question {index}"
        opaque = {"csrf_token", "served"}  # random or signed values
        values = [
            value
            for tag in re.findall(r"<[a-z][^>]*>", page)
            if not any(f'name="{field}"' in tag for field in opaque)
            for value in re.findall(r'="([^"]*)"', tag)
        ]
        for value in values:
            found = code_word.search(value)
            assert not found, (found and found.group(1), value)
            assert not map_code.search(value), value
        assert "data-postal" not in page
        assert not any(path in page for path in public_paths), "a public outline, byte for byte"
        paths = _spot_paths(page)
        assert sorted(int(p["data-spot"]) for p in paths) == list(range(1, 51))
        with study.app.app_context():
            pick = pick_map(deck, study.round_of(url).seed, index)
        order = tuple(pick.postal_of(p["data-spot"]) for p in paths)
        assert order != tuple(west_to_east), "the page order is not the public west-to-east order"
        orders.add(order)
        # Keyboard: one Tab stop, and every spot reached from it with the four arrow keys alone.
        starts = [p["data-spot"] for p in paths if p["tabindex"] == "0"]
        assert len(starts) == 1 and all(p["tabindex"] in ("0", "-1") for p in paths)
        assert all(any(k.startswith("data-") and k not in ("data-spot",) for k in p) for p in paths)
        assert _four_arrow_reach(paths, starts[0]) == {p["data-spot"] for p in paths}
        # Judged on the server: every other answer is right, the others click a neighbour.
        clicked = (
            postal
            if index % 2
            else deck.neighbours(postal)[0].postal
            if deck.neighbours(postal)
            else "KS"
        )
        assert study.answer(url, study.spot(url, clicked)).status_code == 302
        feedback = client.get(url).get_data(as_text=True)
        assert ("Right!" if clicked == postal else "Not this time") in feedback
        assert names[postal] in feedback, "after the answer the card names everything"
    assert len(orders) == len(clickable), "each question has its own order"
    with study.app.app_context():
        rows = {int(r.item): r for r in db.session.execute(select(ReviewLog)).scalars()}
    assert len(rows) == len(clickable)
    for index, postal in enumerate(clickable, start=1):
        assert rows[index].verdict == ("right" if index % 2 else "wrong")
        assert (rows[index].answered_postal == postal) == bool(index % 2)


@pytest.mark.parametrize(
    "answer", ["", "0", "51", "CO", "Colorado", "²", "١٢", "7.5", "-3", "1" * 30]
)
def test_a_spot_that_is_not_on_the_map_is_refused_and_records_nothing(study, client, answer):
    """P-H2: the server is the only judge, and anything but a spot of the map is no answer."""
    _add_round(study.app, "bad-spot", [["CO:map", "map_click"]])
    response = study.answer("/study/rounds/bad-spot/1", answer)
    assert response.status_code == 400
    assert "Click a state on the map." in response.get_data(as_text=True)
    assert count(study.app, ReviewLog) == 0


def test_answers_are_taken_in_order_by_post_too(study, client):
    """P-H3 (issue 18): posting item 2 before item 1 changes nothing, and item 2's card (Colorado)
    is never shown while item 1 (Colorado's Map card) is unanswered."""
    _add_round(
        study.app,
        "in-order",
        [["CO:map", "typed"], ["CO:capital", "typed"], ["UT:map", "map_click"]],
    )
    base = "/study/rounds/in-order"
    token = csrf_token(client, f"{base}/1")
    seen = []
    for index, data in [(2, {"dont_know": "y"}), (2, {"answer": "Denver"}), (3, {"answer": "1"})]:
        response = client.post(f"{base}/{index}", data={"csrf_token": token, **data})
        assert response.status_code == 302
        assert response.location.endswith(base)
        page = client.get(response.location, follow_redirects=True)
        assert page.request.path == f"{base}/1"
        text = page.get_data(as_text=True)
        assert "Answer the facts in order" in text
        seen.append(text)
        seen.append(client.get(f"{base}/{index}", follow_redirects=True).get_data(as_text=True))
    assert count(study.app, ReviewLog) == 0
    # (The typed Map card question offers every name in its autocomplete list, out of view here.)
    assert not any(
        "Colorado" in re.sub(r"<datalist.*?</datalist>", "", text, flags=re.S) for text in seen
    )
    # Once item 1 is answered, item 2 is open (by GET and POST) and item 3 still waits.
    assert study.answer(f"{base}/1", "Colorado").status_code == 302
    response = client.post(
        f"{base}/3", data={"csrf_token": token, "answer": study.spot(f"{base}/3", "UT")}
    )
    assert response.location.endswith(base) and count(study.app, ReviewLog) == 1
    assert study.answer(f"{base}/2", "Denver").status_code == 302
    assert study.answer(f"{base}/3").status_code == 302
    assert count(study.app, ReviewLog) == 3


# --- How long an answer took --------------------------------------------------------------


def _capital_history(app: Flask, ms: int = 20_000) -> None:
    """Five right typed capitals at ``ms`` each: enough for a much quicker answer to be Easy."""
    with app.app_context():
        user = db.session.execute(select(User)).scalar_one()
        for i, postal in enumerate(["CO", "UT", "WA", "OR", "ID"]):
            record(
                user,
                srs.Outcome(
                    f"{postal}:capital",
                    Verdict.RIGHT,
                    "review",
                    Form.TYPED,
                    "history",
                    str(i),
                    duration_ms=ms,
                ),
            )


def _post_capital(
    study: Study, client: FlaskClient, token: str, elapsed: str, served_ago: float | None
) -> ReviewLog:
    from trainer.web.study.forms import served_stamp

    _add_round(study.app, token, [["TX:capital", "typed"]])
    url = f"/study/rounds/{token}/1"
    html = client.get(url).get_data(as_text=True)
    data = {
        "csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', html).group(1),
        "answer": "Austin",
        "elapsed_ms": elapsed,
    }
    if served_ago is not None:
        with study.app.test_request_context():
            data["served"] = served_stamp(token, 1, now=time.time() - served_ago)
    assert client.post(url, data=data).status_code == 302
    with study.app.app_context():
        row = db.session.execute(
            select(ReviewLog).where(ReviewLog.round_token == f"review:{token}")
        ).scalar_one()
        db.session.expunge(row)
        return row


def test_a_quick_answer_timed_by_the_page_and_the_server_is_stored_and_not_easy(study, client):
    """P-H4: a page's figure that agrees with the server's counts; P-M7 (issue 19 changed this
    from Easy): a quick answer is stored with its time and rated Good like any right typed one."""
    _capital_history(study.app)
    row = _post_capital(study, client, "quick", "1500", served_ago=2.0)
    assert row.duration_ms == 1500
    assert row.rating == int(srs.Rating.GOOD)


def test_a_forged_page_time_does_not_make_an_answer_easy(study, client):
    """P-H4 (issue 18): elapsed_ms=1 on a question served 30 s ago counts the server's 30 s: not Easy."""
    _capital_history(study.app)
    row = _post_capital(study, client, "forged", "1", served_ago=30.0)
    assert row.rating == int(srs.Rating.GOOD)
    assert 29_000 <= row.duration_ms <= 40_000


@pytest.mark.parametrize("stamp", ["", "not-a-stamp", "other-item"])
def test_without_the_servers_stamp_the_time_is_unknown_and_never_easy(study, client, stamp):
    """P-H4: no stamp, a forged one or another item's: the time is unknown, so never Easy."""
    from trainer.web.study.forms import served_stamp

    _capital_history(study.app)
    _add_round(study.app, "nostamp", [["TX:capital", "typed"]])
    url = "/study/rounds/nostamp/1"
    html = client.get(url).get_data(as_text=True)
    assert re.search(r'name="served" value="[^"]+"', html), "the page carries the server's stamp"
    if stamp == "other-item":
        with study.app.test_request_context():
            stamp = served_stamp("nostamp", 2)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    data = {"csrf_token": token, "answer": "Austin", "elapsed_ms": "1", "served": stamp}
    assert client.post(url, data=data).status_code == 302
    with study.app.app_context():
        row = db.session.execute(
            select(ReviewLog).where(ReviewLog.round_token == "review:nostamp")
        ).scalar_one()
        assert row.duration_ms is None and row.rating == int(srs.Rating.GOOD)


@pytest.mark.parametrize("elapsed", ["²", "١٢", "1_000", "-5", "9" * 12, "NaN", ""])
def test_a_page_time_in_other_digits_is_read_strictly_and_never_a_500(study, client, elapsed):
    """P-H4 (issue 18): '²'.isdigit() is true and int('²') raises; only ASCII digits count, else
    the server's own measure does."""
    row = _post_capital(study, client, "digits", elapsed, served_ago=3.0)
    assert 3_000 <= row.duration_ms <= 20_000


# --- What an answer proves (issue 19) -------------------------------------------------------


def _ratings(app: Flask, round_token: str) -> dict[str, tuple[str, int]]:
    """Each answer of a round: its fact's form and rating, by fact key."""
    with app.app_context():
        rows = db.session.execute(
            select(ReviewLog).where(ReviewLog.round_token == f"review:{round_token}")
        ).scalars()
        return {row.fact_key: (row.form, row.rating) for row in rows}


def _make_due(app: Flask, *keys: str) -> None:
    """Bring the facts' next review forward to now (as if the student came back later)."""
    with app.app_context():
        past = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1)
        for card in db.session.execute(
            select(MemoryCard).where(MemoryCard.fact_key.in_(keys))
        ).scalars():
            card.due = past
        db.session.commit()


def test_a_lucky_pick_is_hard_and_the_fact_comes_back_typed_or_on_the_map(study, client):
    """P-M5, P-M6 through the pages: a new fact picked right is logged Hard; the next round asks
    it typed (a Map card typed or clicked), and typed right it is Good; after that a pick is Good."""
    _add_round(study.app, "picks", [["CO:capital", "choice"], ["CO:map", "choice"]])
    for index in (1, 2):
        assert study.answer(f"/study/rounds/picks/{index}").status_code == 302
    assert _ratings(study.app, "picks") == {"CO:capital": ("choice", 2), "CO:map": ("choice", 2)}

    _make_due(study.app, "CO:capital", "CO:map")
    url = study.start(facets=["capital", "map"])
    forms = dict(study.round_of(url).items)
    assert forms["CO:capital"] == "typed" and forms["CO:map"] in ("typed", "map_click")
    new = {key: form for key, form in forms.items() if key not in ("CO:capital", "CO:map")}
    assert {form for key, form in new.items() if not key.endswith(":map")} == {"choice"}, (
        "new facts are still picked"
    )
    assert {form for key, form in new.items() if key.endswith(":map")} <= {"map_click"}, (
        "P-M13: a new map fact is found on the map"
    )
    token = ROUND_URL.search(url).group(1)
    for index in range(1, len(forms) + 1):
        study.answer(f"/study/rounds/{token}/{index}")
    ratings = _ratings(study.app, token)
    assert ratings["CO:capital"] == ("typed", 3) and ratings["CO:map"][1] == 3

    _add_round(study.app, "again", [["CO:capital", "choice"]])
    study.answer("/study/rounds/again/1")
    assert _ratings(study.app, "again") == {"CO:capital": ("choice", 3)}, (
        "a pick after a typed right answer is Good"
    )


def test_a_shaky_fact_missed_is_asked_in_a_strong_form_next(study, client):
    """P-M6: a right pick and a miss both make the next form strong; after a right typed answer a
    shaky fact may be a choice again."""
    _add_round(
        study.app,
        "miss",
        [["CO:capital", "choice"], ["UT:capital", "choice"], ["ID:capital", "typed"]],
    )
    study.answer("/study/rounds/miss/1")
    study.answer("/study/rounds/miss/2", "", dont_know="y")
    study.answer("/study/rounds/miss/3", "Boise")
    assert _ratings(study.app, "miss") == {
        "CO:capital": ("choice", 2),
        "UT:capital": ("choice", 1),
        "ID:capital": ("typed", 3),
    }
    with study.app.app_context():
        memory = db.session.execute(
            select(MemoryCard).where(MemoryCard.fact_key == "ID:capital")
        ).scalar_one()
        assert memory.stability < CHOICE_UNTIL_STABILITY_DAYS, "still shaky after one right answer"
    _make_due(study.app, "CO:capital", "UT:capital", "ID:capital")
    forms = dict(study.round_of(study.start(facets=["capital"])).items)
    asked = {key: forms[key] for key in ("CO:capital", "UT:capital", "ID:capital")}
    assert asked == {"CO:capital": "typed", "UT:capital": "typed", "ID:capital": "choice"}


def test_every_mode_counts_typed_answers_as_strong_and_picks_as_weak(app, student):
    """P-M4: the form each mode reports decides; a typed rank in a card game or a typed name in
    Dashing States shows the fact known, a card picked in Border-Up or a yes/no call does not."""
    from trainer.web.memory import to_recheck

    with app.app_context():
        user = db.session.get(User, student.id)

        def rate(key: str, mode: str, form: Form, item: str) -> int:
            return record(user, srs.Outcome(key, Verdict.RIGHT, mode, form, mode, item)).rating

        assert rate("CO:capital", "border_up", Form.CHOICE, "1") is srs.Rating.HARD
        assert rate("CO:capital", "play_the_ranks", Form.CHOICE, "2") is srs.Rating.HARD, (
            "a yes/no call is a pick"
        )
        assert to_recheck(user, ["CO:capital", "UT:capital"]) == {"CO:capital"}
        assert rate("CO:capital", "dashing_states", Form.TYPED, "3") is srs.Rating.GOOD
        assert to_recheck(user, ["CO:capital"]) == set()
        assert rate("CO:capital", "geoplunge_51", Form.CHOICE, "4") is srs.Rating.GOOD
        assert rate("UT:population", "geoplunge_51", Form.TYPED, "5") is srs.Rating.GOOD
        assert rate("UT:population", "war", Form.CHOICE, "6") is srs.Rating.GOOD
        assert to_recheck(user, ["CO:capital", "UT:population", "UT:capital"]) == {
            "CO:capital",
            "UT:population",
        }


# --- Memory model details -----------------------------------------------------------------


def test_the_daily_new_limit_resets_at_4am_in_the_students_zone(app, student):
    """20 new facts late on Monday night in Los Angeles; at 4:10 a.m. there are 20 more."""
    la_0350 = dt.datetime(2026, 3, 3, 11, 50, tzinfo=dt.UTC)  # 03:50 PST, still Monday's study day
    with app.app_context():
        user = db.session.get(User, student.id)
        user.time_zone = "America/Los_Angeles"
        db.session.commit()
        deck = get_deck()
        keys = queue(user, deck, size=50, now=la_0350)
        assert len(keys) == srs.DEFAULT_NEW_PER_DAY
        for i, key in enumerate(keys):
            outcome = srs.Outcome(key, Verdict.RIGHT, "review", Form.TYPED, "t", str(i))
            record(user, outcome, now=la_0350)
        at_0359 = la_0350 + dt.timedelta(minutes=9)
        assert summary(user, now=at_0359).new_today == 0
        assert not [k for k in queue(user, deck, size=50, now=at_0359) if k not in keys]
        at_0410 = la_0350 + dt.timedelta(minutes=20)
        assert summary(user, now=at_0410).new_today == srs.DEFAULT_NEW_PER_DAY
        fresh = [k for k in queue(user, deck, size=50, now=at_0410) if k not in keys]
        assert len(fresh) == srs.DEFAULT_NEW_PER_DAY
        rows = db.session.execute(select(ReviewLog.study_day).distinct()).scalars().all()
        assert rows == [dt.date(2026, 3, 2)]


def test_the_browsers_time_zone_is_used_until_one_is_chosen(study, client):
    client.set_cookie("tz", "Pacific/Auckland")
    page = client.get("/study/settings").get_data(as_text=True)
    assert "Now using your browser’s: Pacific/Auckland" in page
    client.set_cookie("tz", "Not/AZone")
    page = client.get("/study/settings").get_data(as_text=True)
    assert "Now using your browser’s: UTC" in page


def test_a_leech_is_flagged_on_the_study_home(study, client):
    url = study.start()
    study.answer(url)
    with study.app.app_context():
        card = db.session.execute(select(MemoryCard)).scalar_one()
        card.lapses = srs.LEECH_LAPSES
        key = card.fact_key
        db.session.commit()
        state = get_deck()[Fact.from_key(key).postal]
    page = client.get("/study/").get_data(as_text=True)
    assert "Tricky facts" in page and state.name in page


def test_concurrent_submissions_of_one_answer_record_one_review(app, student):
    """Two tabs (or a double click) at once: one review, one schedule change."""
    with app.app_context():
        user = db.session.get(User, student.id)
        db.session.expunge(user)
    outcome = srs.Outcome("CO:capital", Verdict.RIGHT, "review", Form.TYPED, "race", "1", "Denver")
    results: list[bool] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(6)

    def submit():
        try:
            with app.app_context():
                barrier.wait()
                results.append(record(user, outcome).created)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=submit) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert sorted(results) == [False] * 5 + [True]
    assert count(app, ReviewLog) == 1
    with app.app_context():
        card = db.session.execute(select(MemoryCard)).scalar_one()
        assert card.reps == 1


def test_concurrent_answers_about_one_fact_lose_no_update(app, student):
    """Two rounds answering the same fact at once: both reviews count, the schedule sees both."""
    with app.app_context():
        user = db.session.get(User, student.id)
        db.session.expunge(user)
    barrier = threading.Barrier(6)
    errors: list[BaseException] = []

    def submit(n: int):
        try:
            with app.app_context():
                barrier.wait()
                outcome = srs.Outcome(
                    "CO:capital", Verdict.RIGHT, "review", Form.CHOICE, f"tab{n}", "1", "Denver"
                )
                assert record(user, outcome).created
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=submit, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert count(app, ReviewLog) == 6
    with app.app_context():
        card = db.session.execute(select(MemoryCard)).scalar_one()
        assert card.reps == 6, "every review was applied to the card, none overwritten"


def test_concurrent_posts_from_two_tabs_record_one_review(study, app):
    url = study.start()
    html = study.client.get(url).get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    answer = study.right_answer(url)
    cookie = study.client.get_cookie("session")
    statuses: list[int] = []
    barrier = threading.Barrier(4)

    def tab():
        other = app.test_client()
        other.set_cookie("session", cookie.value)
        barrier.wait()
        statuses.append(other.post(url, data={"csrf_token": token, "answer": answer}).status_code)

    threads = [threading.Thread(target=tab) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == [302] * 4
    assert count(app, ReviewLog) == 1


def test_a_token_used_by_another_student_is_refused(app, student):
    other = make_user(app, "student2")
    with app.app_context():
        a = db.session.get(User, student.id)
        b = db.session.get(User, other.id)
        outcome = srs.Outcome("CO:capital", Verdict.RIGHT, "review", Form.TYPED, "shared", "1")
        record(a, outcome)
        with pytest.raises(RecordError):
            record(b, outcome)
        with pytest.raises(RecordError):
            record(a, srs.Outcome("XX:nothing", Verdict.RIGHT, "review", Form.TYPED, "t", "2"))
    assert count(app, ReviewLog) == 1


# --- Settings ------------------------------------------------------------------------------


def settings_data(client, **changes):
    token = csrf_token(client, "/study/settings")
    data = {
        "csrf_token": token,
        "desired_retention": "90",
        "new_per_day": "20",
        "time_zone": "",
        "multiple_choice": "y",
        "daily_amount": "40",
        "daily_unit": "answers",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_settings_are_saved(study, client):
    response = client.post(
        "/study/settings",
        data=settings_data(
            client,
            desired_retention="85",
            new_per_day="5",
            time_zone="America/Chicago",
            multiple_choice=None,
        ),
    )
    assert response.status_code == 302
    with study.app.app_context():
        user = db.session.execute(select(User)).scalar_one()
        assert user.desired_retention == pytest.approx(0.85)
        assert (user.new_per_day, user.time_zone, user.multiple_choice) == (
            5,
            "America/Chicago",
            False,
        )
    page = client.get("/study/settings").get_data(as_text=True)
    assert 'value="85"' in page


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("desired_retention", "69", "from 70 to 97"),
        ("desired_retention", "98", "from 70 to 97"),
        ("desired_retention", "90.5", "whole number"),
        ("desired_retention", "lots", "Not a valid decimal value"),
        ("desired_retention", "", "from 70 to 97"),
        ("new_per_day", "-1", "from 0 to 100"),
        ("new_per_day", "101", "from 0 to 100"),
        ("new_per_day", "ten", "Not a valid integer value"),
        ("time_zone", "Mars/Olympus_Mons", "Not a valid choice"),
    ],
)
def test_a_wrong_setting_is_explained_and_changes_nothing(study, client, field, value, message):
    response = client.post("/study/settings", data=settings_data(client, **{field: value}))
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    with study.app.app_context():
        user = db.session.execute(select(User)).scalar_one()
        assert (user.desired_retention, user.new_per_day, user.time_zone) == (0.9, 20, None)


def test_without_multiple_choice_new_facts_are_typed(study, client):
    client.post("/study/settings", data=settings_data(client, multiple_choice=None))
    url = study.start(facets=["capital"])
    assert {form for _, form in study.round_of(url).items} == {"typed"}


def test_a_student_lands_on_the_study_home_after_signing_up(client, auth):
    response = auth.signup("newkid")
    assert response.status_code == 302 and response.location == "/study/"
    assert client.get("/study/").status_code == 200


def test_teachers_have_no_study_link(client, auth, teacher):
    auth.login("teacher1")
    assert "/study/" not in client.get("/deck/").get_data(as_text=True)


def test_the_study_home_shows_what_comes_back_tomorrow_and_this_week(
    at_midday, app, client, auth, student
):
    """A fact answered right twice comes back in days; one answered wrong comes back tomorrow
    (P-M12: no same-day steps)."""
    now = dt.datetime.now(dt.UTC)
    with app.app_context():
        user = db.session.get(User, student.id)
        for i, (key, verdicts) in enumerate(
            {"CO:capital": ["right", "right"], "UT:capital": ["wrong", "wrong"]}.items()
        ):
            for j, verdict in enumerate(verdicts):
                when = now - dt.timedelta(minutes=30) + dt.timedelta(minutes=15 * j)
                record(
                    user,
                    srs.Outcome(key, Verdict(verdict), "review", Form.TYPED, f"r{i}", str(j)),
                    now=when,
                )
        stats = summary(user, now=now)
        graduated = db.session.execute(
            select(MemoryCard).where(MemoryCard.fact_key == "CO:capital")
        ).scalar_one()
        assert graduated.state == int(srs.MemoryState.REVIEW)
        days = (srs.study_day(graduated.due, "UTC").date - stats.day.date).days
        assert 1 <= days <= 7
        missed = db.session.execute(
            select(MemoryCard).where(MemoryCard.fact_key == "UT:capital")
        ).scalar_one()
        assert missed.state == int(srs.MemoryState.REVIEW) and missed.due == stats.day.end
        assert stats.due_next_week == 2
        assert stats.due_tomorrow == (2 if days == 1 else 1)
    auth.login()
    page = client.get("/study/").get_data(as_text=True)
    assert "Coming up" in page
    assert re.search(r"<strong>2</strong> in the next 7 days", page)


# --- Keep practising once nothing is due (P-M8) ---------------------------------------------


def _known(
    app: Flask, student_id: int, facts: dict[str, tuple[float, float]], *, new_per_day: int = 0
) -> dict[str, float]:
    """Give the student facts in review, none due: {key: (stability, days since the last review)}.
    Each is recorded once (a real review row), then its card set to that schedule. Returns each
    fact's predicted recall now."""
    now = dt.datetime.now(dt.UTC)
    with app.app_context():
        user = db.session.get(User, student_id)
        user.new_per_day = new_per_day
        for i, (key, (stability, days_ago)) in enumerate(facts.items()):
            last = now - dt.timedelta(days=days_ago)
            record(
                user,
                srs.Outcome(key, Verdict.RIGHT, "review", Form.TYPED, f"known{i}", "1"),
                now=last,
            )
            card = db.session.execute(
                select(MemoryCard).where(MemoryCard.fact_key == key)
            ).scalar_one()
            card.state, card.step, card.stability = int(srs.MemoryState.REVIEW), None, stability
            card.due = now + dt.timedelta(days=5)
            card.last_review, card.last_study_day = last, srs.study_day(last, "UTC").date
        db.session.commit()
        return {
            key: srs.recall(stability, now - dt.timedelta(days=days_ago), now, "UTC")
            for key, (stability, days_ago) in facts.items()
        }


WEAK_AND_STRONG = {
    "CO:capital": (2.0, 6),
    "UT:capital": (3.0, 4),
    "WA:map": (1.0, 3),
    "OR:map": (200.0, 2),
    "ID:postal": (150.0, 1),
}


def test_a_student_with_nothing_due_is_offered_to_keep_practising(study, client, student):
    """P-M8: nothing due and no new fact left: a Keep practising button and a true count of the
    facts under 90% likely to be remembered today."""
    recalls = _known(study.app, student.id, WEAK_AND_STRONG)
    at_risk = sum(1 for p in recalls.values() if p < 0.9)
    assert 0 < at_risk < len(recalls)
    page = client.get("/study/").get_data(as_text=True)
    assert (
        "Nothing is due now and no new facts are left for today" in page
        and "All done for today" not in page
    )
    assert re.search(r">\s*Keep practising\s*</button>", page)
    assert '<input id="practice" name="practice" type="hidden" value="1">' in page
    assert f"<strong>{at_risk}</strong> facts are under 90% likely to be remembered today" in page
    assert not re.search(r">\s*Start studying\s*</button>", page)


def test_keep_practising_deals_the_weakest_facts_and_records_the_answers(study, client, student):
    """P-M8: the practice round holds the introduced facts, lowest predicted recall first; its
    answers are ordinary reviews; its "Study more" keeps practising."""
    recalls = _known(study.app, student.id, WEAK_AND_STRONG)
    url = study.start(practice="1")
    round_ = study.round_of(url)
    assert [key for key, _ in round_.items] == sorted(recalls, key=recalls.get)
    assert round_.focus["practice"] is True
    before = count(study.app, ReviewLog)
    response = study.answer(url)
    assert response.status_code == 302
    assert count(study.app, ReviewLog) == before + 1
    with study.app.app_context():
        card = db.session.execute(
            select(MemoryCard).where(MemoryCard.fact_key == round_.items[0][0])
        ).scalar_one()
        assert card.reps == 2 and card.last_review > dt.datetime.now(dt.UTC) - dt.timedelta(
            minutes=5
        )
    for index in range(2, len(round_.items) + 1):
        study.answer(url.rsplit("/", 1)[0] + f"/{index}")
    done = client.get(url.rsplit("/", 1)[0] + "/done").get_data(as_text=True)
    assert '<input id="practice" name="practice" type="hidden" value="1">' in done


def test_keep_practising_respects_the_focus(study, client, student):
    """P-M8: a practice round stays within the chosen facts."""
    _known(study.app, student.id, WEAK_AND_STRONG)
    round_ = study.round_of(study.start(practice="1", facets="capital"))
    assert [key for key, _ in round_.items] == ["CO:capital", "UT:capital"]


def test_when_every_fact_is_strong_the_page_says_so_and_still_offers_practice(
    study, client, student
):
    _known(study.app, student.id, {"OR:map": (200.0, 2), "ID:postal": (150.0, 1)})
    page = client.get("/study/").get_data(as_text=True)
    assert "none of the facts you have met is under 90% likely to be remembered today" in page
    assert re.search(r">\s*Keep practising\s*</button>", page)


def test_facts_answered_today_are_not_offered_again(study, client, student):
    """P-M8: every fact answered today: nothing to practise, and the page says so."""
    _known(study.app, student.id, {"OR:map": (200.0, 0)})
    page = client.get("/study/").get_data(as_text=True)
    assert (
        "You have answered every fact you have met today, so there is nothing to practise now."
        in page
    )
    assert not re.search(r">\s*Keep practising\s*</button>", page)
    response = client.post(
        "/study/rounds",
        data={"csrf_token": csrf_token(client, "/study/"), "practice": "1"},
        follow_redirects=True,
    )
    assert "Nothing to practise in that choice right now" in response.get_data(as_text=True)
    assert count(study.app, StudyRound) == 0


def test_a_student_with_due_facts_sees_the_normal_start(study, client, student):
    _known(study.app, student.id, WEAK_AND_STRONG)
    with study.app.app_context():
        card = db.session.execute(
            select(MemoryCard).where(MemoryCard.fact_key == "OR:map")
        ).scalar_one()
        card.due = dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)
        db.session.commit()
    page = client.get("/study/").get_data(as_text=True)
    assert re.search(r'<span class="stat__value">1</span> <span class="stat__label">due now', page)
    assert re.search(r">\s*Start studying\s*</button>", page)
    assert "Keep practising" not in page and "Practising now" not in page


def test_keep_practising_without_csrf_token_is_refused(study, client, student):
    _known(study.app, student.id, WEAK_AND_STRONG)
    assert client.post("/study/rounds", data={"practice": "1"}).status_code == 400
    assert count(study.app, StudyRound) == 0


def test_a_made_up_practice_value_is_refused_and_changes_nothing(study, client, student):
    _known(study.app, student.id, WEAK_AND_STRONG)
    token = csrf_token(client, "/study/")
    response = client.post("/study/rounds", data={"csrf_token": token, "practice": "lots"})
    assert response.status_code == 400
    assert "Press it again" in response.get_data(as_text=True)
    assert count(study.app, StudyRound) == 0


def test_a_step_coming_back_soon_is_not_all_done_for_today(study, client, student):
    """The study home never says "All done for today" while a fact comes back later today (it
    said "All done for today! Your next review is in a few minutes"). Since P-M12 no answer puts a
    fact in a step; a card left in one from before still comes back in minutes."""
    now = dt.datetime.now(dt.UTC)
    with study.app.app_context():
        user = db.session.get(User, student.id)
        user.new_per_day = 0
        record(
            user,
            srs.Outcome("CO:capital", Verdict.WRONG, "review", Form.TYPED, "miss", "1"),
            now=now,
        )
        card = db.session.execute(
            select(MemoryCard).where(MemoryCard.fact_key == "CO:capital")
        ).scalar_one()
        card.state, card.step, card.due = (
            int(srs.MemoryState.LEARNING),
            0,
            now + dt.timedelta(minutes=1),
        )
        db.session.commit()
    page = client.get("/study/").get_data(as_text=True)
    assert "All done for today" not in page
    assert (
        "Nothing is due right now. Your next review is <strong>in a few minutes</strong>." in page
    )


def test_a_wrong_map_answer_shows_where_the_student_looked_and_where_the_state_is(study, client):
    """P-M13: after a wrong click (or a wrong name for the red state) the feedback's map shows the
    right state in red and the one the student found or named in blue, with a key in words; a
    right answer, or "I don't know", shows the right state alone."""
    _add_round(
        study.app,
        "looked",
        [["WA:map", "map_click"], ["CO:map", "typed"], ["UT:map", "map_click"]],
        seed=5,
    )
    with study.app.app_context():
        pa = pick_map(get_deck(), study.round_of("/study/rounds/looked/1").seed, 1).spot_of("PA")
    study.answer("/study/rounds/looked/1", str(pa))
    page = client.get("/study/rounds/looked/1").get_data(as_text=True)
    assert "Washington is shown in red on the map, and Pennsylvania, your answer, in blue." in page
    assert page.count("map-state--yours") == 1 and "Pennsylvania (your answer)" in page
    study.answer("/study/rounds/looked/2", "Utah")
    page = client.get("/study/rounds/looked/2").get_data(as_text=True)
    assert "Colorado is shown in red on the map, and Utah, your answer, in blue." in page
    study.answer("/study/rounds/looked/3", "", dont_know="y")
    page = client.get("/study/rounds/looked/3").get_data(as_text=True)
    assert "Utah is shown in red on the map." in page and "map-state--yours" not in page
