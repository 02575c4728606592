"""A first run, a welcome back, true sentences about what comes back when, and the points of a
round (#21): through the Flask client."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from sqlalchemy import select

from tests.web.test_study import Study, count
from trainer import points, srs
from trainer.facts import Form, Verdict
from trainer.review import ROUND_SIZE
from trainer.web.extensions import db
from trainer.web.memory import record, today_for
from trainer.web.models import MemoryCard, ReviewLog, StudyRound, User
from trainer.web.study.routes import next_review_text


@pytest.fixture
def study(app, client, auth, student) -> Study:
    auth.login()
    return Study(app, client)


def _home(study: Study) -> str:
    return study.client.get("/study/").get_data(as_text=True)


def _text(html: str) -> str:
    """The page's words, tags dropped and spaces squeezed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# --- First run -----------------------------------------------------------------------------


def test_a_new_student_is_welcomed_by_name_with_a_map_and_one_button(study):
    html = _home(study)
    main = html[html.index("<main") : html.index("</main>")]
    assert re.search(r"<h1[^>]*>Welcome, student1!</h1>", main)
    assert "Here is how it works" in main
    assert 'class="map-card study-map"' in main and "A map of the 50 states you will learn" in main
    # One button, no wall of zeros: no stat boxes, no table of zeros, no "0 of 400 facts".
    assert len(re.findall(r"<button\b", main)) == 1
    assert re.search(r">\s*Start studying\s*</button>", main)
    assert "stat-grid" not in main and "<table" not in main
    assert "Due by kind of fact" not in main and "You have met 0" not in main
    # Nothing comes back yet, so no sentence says when it does.
    assert "come back" not in main and "next review" not in main


def test_one_tap_starts_the_first_round(study):
    url = study.start()  # the welcome's button posts the form's hidden fields only
    round_ = study.round_of(url)
    assert url.endswith("/1") and len(round_.items) == ROUND_SIZE


# --- Welcome back and the streak --------------------------------------------------------------


def _answered_on(study: Study, key: str, when: dt.datetime, item: str = "1") -> None:
    with study.app.app_context():
        user = db.session.execute(select(User).where(User.username == "student1")).scalar_one()
        record(
            user,
            srs.Outcome(key, Verdict.RIGHT, "review", Form.TYPED, f"t-{key}-{when:%j}", item),
            now=when,
        )
        db.session.commit()


def test_a_returning_student_sees_their_streak_and_how_to_keep_it(study):
    now = dt.datetime.now(dt.UTC)
    _answered_on(study, "CO:capital", now - dt.timedelta(days=2))
    _answered_on(study, "UT:capital", now - dt.timedelta(days=1))
    text = _text(_home(study))
    assert "Welcome back, student1!" in text
    assert "2 days in a row — study today to make it 3." in text
    assert "Welcome, student1!" not in text
    # One clear next step (the study home's own order, P-D3), then its one big button.
    html = _home(study)
    assert len(re.findall(r'<p class="lede" data-state="', html)) == 1
    assert len(re.findall(r'class="button button--big"', html)) == 1
    _answered_on(study, "WY:capital", now)
    text = _text(_home(study))
    assert "3 days in a row. Study tomorrow to make it 4." in text


def test_a_missed_day_starts_the_streak_again(study):
    _answered_on(study, "CO:capital", dt.datetime.now(dt.UTC) - dt.timedelta(days=3))
    assert "Study today to start a streak of days in a row." in _text(_home(study))


# --- Sentences that agree ------------------------------------------------------------------


def _said(text: str) -> dict[str, object]:
    """What the home says comes back when: the next review, and the counts later today and tomorrow."""
    next_review = re.search(
        r"[Yy]our next review is (in a few minutes|later today|tomorrow|in \d+ \w+)", text
    )
    later = re.search(r"(\d+) facts? comes? back later today", text)
    tomorrow = re.search(r"(\d+) facts? comes? back tomorrow", text)
    return {
        "next": next_review.group(1) if next_review else None,
        "later": int(later.group(1)) if later else 0,
        "tomorrow": int(tomorrow.group(1)) if tomorrow else None,
    }


def _agree(said: dict[str, object]) -> None:
    if said["next"] in ("in a few minutes", "later today"):
        assert said["later"] >= 1, said
    if said["next"] == "tomorrow":
        assert said["later"] == 0 and said["tomorrow"] >= 1, said
    if said["later"]:
        assert said["next"] in ("in a few minutes", "later today"), said


def _card(study: Study, key: str, state: srs.MemoryState, due: dt.datetime) -> None:
    _answered_on(study, key, dt.datetime.now(dt.UTC) - dt.timedelta(hours=1))
    with study.app.app_context():
        card = db.session.execute(select(MemoryCard).where(MemoryCard.fact_key == key)).scalar_one()
        card.state, card.step, card.due = int(state), 0, due
        db.session.commit()


def _no_new_facts(study: Study) -> None:
    with study.app.app_context():
        user = db.session.execute(select(User).where(User.username == "student1")).scalar_one()
        user.new_per_day = 0
        db.session.commit()


def test_a_new_student_is_told_nothing_about_what_comes_back(study):
    said = _said(_text(_home(study)))
    assert said == {"next": None, "later": 0, "tomorrow": None}


def test_facts_coming_back_in_minutes_are_counted_later_today_not_tomorrow(at_midday, study):
    """The issue's contradiction: "Your next review is in a few minutes" next to "0 facts come back
    tomorrow" and nothing else, while the facts came back within minutes."""
    _no_new_facts(study)
    now = dt.datetime.now(dt.UTC)
    _card(study, "CO:capital", srs.MemoryState.LEARNING, now + dt.timedelta(minutes=2))
    _card(study, "UT:capital", srs.MemoryState.RELEARNING, now + dt.timedelta(minutes=5))
    text = _text(_home(study))
    said = _said(text)
    assert said == {"next": "in a few minutes", "later": 2, "tomorrow": 0}, text
    assert "2 facts come back later today, the first in a few minutes" in text
    _agree(said)


def test_facts_coming_back_tomorrow_are_said_to_come_back_tomorrow(study):
    _no_new_facts(study)
    with study.app.app_context():
        user = db.session.execute(select(User).where(User.username == "student1")).scalar_one()
        tomorrow = today_for(user).end + dt.timedelta(hours=2)
    _card(study, "CO:capital", srs.MemoryState.REVIEW, tomorrow)
    _card(study, "UT:capital", srs.MemoryState.REVIEW, tomorrow + dt.timedelta(hours=1))
    text = _text(_home(study))
    said = _said(text)
    assert said == {"next": "tomorrow", "later": 0, "tomorrow": 2}, text
    _agree(said)


def test_a_time_already_past_is_never_in_a_few_minutes():
    now = dt.datetime(2026, 3, 2, 15, tzinfo=dt.UTC)
    assert next_review_text(now - dt.timedelta(hours=2), now, "UTC") == "the next time you study"
    assert next_review_text(now + dt.timedelta(minutes=5), now, "UTC") == "in a few minutes"


# --- The round's celebration -----------------------------------------------------------------


def _play_round(study: Study, dont_know_at: int = 2) -> str:
    url = study.start()
    for index in range(1, ROUND_SIZE + 1):
        if index == dont_know_at:
            study.answer(url, "", dont_know="y")
        else:
            study.answer(url)
        page = study.client.get(url).get_data(as_text=True)
        url = re.search(r'href="([^"]+)" id="next"', page).group(1)
    assert url.endswith("/done")
    return url


def test_the_done_page_shows_the_points_of_the_rounds_answers(study):
    done_url = _play_round(study)
    html = study.client.get(done_url).get_data(as_text=True)
    with study.app.app_context():
        reviews = db.session.execute(select(ReviewLog).order_by(ReviewLog.id)).scalars().all()
        expected = points.tally((r.verdict, r.form) for r in reviews)
    assert expected.points > 0
    shown = int(re.search(r'class="celebrate__number">(\d+)<', html).group(1))
    cells = [int(n) for n in re.findall(r"<td class=\"num\" data-points>(\d+)</td>", html)]
    assert shown == expected.points == sum(cells) and len(cells) == ROUND_SIZE
    assert cells[1] == 0  # the "I don't know"
    text = _text(html)
    assert f"{ROUND_SIZE - 1} right, 0 close, 1 to learn." in text
    assert "Don't know" in text and "Wrong" not in text
    assert "day in a row. Study tomorrow to make it 2." in text
    assert "What comes next" in text


def test_the_done_page_lights_the_states_got_right(study):
    done_url = _play_round(study)
    html = study.client.get(done_url).get_data(as_text=True)
    with study.app.app_context():
        right = {
            r.fact_key.split(":")[0]
            for r in db.session.execute(select(ReviewLog)).scalars()
            if r.verdict == "right"
        }
    assert len(re.findall(r'map-state map-state--lit"', html)) == len(right)
    section = html[html.index('class="celebrate__learned"') :]
    for postal in right:
        assert f'/deck/{postal.lower()}"' in section or f"/deck/{postal.lower()}/" in section


def test_a_round_with_no_right_answer_earns_no_points_and_lights_nothing(study):
    url = study.start()
    for _ in range(ROUND_SIZE):
        study.answer(url, "", dont_know="y")
        page = study.client.get(url).get_data(as_text=True)
        url = re.search(r'href="([^"]+)" id="next"', page).group(1)
    html = study.client.get(url).get_data(as_text=True)
    assert re.search(r'class="celebrate__number">0<', html)
    assert "data-celebrate" not in html and "map-state--lit" not in html
    assert count(study.app, StudyRound) == 1


def test_the_done_page_loads_its_script_deferred(study):
    done_url = _play_round(study)
    html = study.client.get(done_url).get_data(as_text=True)
    assert re.search(r'<script src="/static/js/celebrate\.js\?v=\w+" defer></script>', html)
    assert '<p class="celebrate__sound" hidden>' in html  # shown by the script only
