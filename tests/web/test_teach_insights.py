"""What a teacher sees of their students' learning: last active, who needs help, a student's progress,
and the review log download. Values are checked, not just that the pages render.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from dataclasses import dataclass
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import delete, select, update

from tests.conftest import client_for, make_user
from tests.web.test_security import assert_strict_page
from tests.web.test_teach import add_member, main_of, make_class
from trainer import srs
from trainer.facts import Facet, Form, Verdict
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.memory import record
from trainer.web.models import ClassMembership, MemoryCard, Role, User, memory_from
from trainer.web.teach import insights, routes

UTC = dt.UTC
#: "Now" for every test: a Thursday afternoon (UTC).
NOW = dt.datetime(2025, 3, 20, 15, 0, tzinfo=UTC)


# --- Factories -----------------------------------------------------------------------------------


def answer(
    app: Flask,
    student: User,
    fact_key: str,
    at: dt.datetime,
    verdict: Verdict = Verdict.RIGHT,
    *,
    mode: str = "review",
    round_id: str | None = None,
    item: str | None = None,
    given: str = "",
) -> None:
    """Record one answer at ``at`` through the memory model, as every mode does."""
    with app.app_context():
        outcome = srs.Outcome(
            fact_key,
            verdict,
            mode,
            Form.TYPED,
            f"{mode}:{round_id or student.username}",
            item or f"{fact_key}@{int(at.timestamp())}",
            answer=given,
        )
        record(student, outcome, now=at)


def set_lapses(app: Flask, student: User, fact_key: str, lapses: int) -> None:
    with app.app_context():
        db.session.execute(
            update(MemoryCard)
            .where(MemoryCard.student_id == student.id, MemoryCard.fact_key == fact_key)
            .values(lapses=lapses)
        )
        db.session.commit()


def card_memory(app: Flask, student: User, fact_key: str) -> srs.Memory:
    with app.app_context():
        card = db.session.execute(
            select(MemoryCard).where(
                MemoryCard.student_id == student.id, MemoryCard.fact_key == fact_key
            )
        ).scalar_one()
        return memory_from(card)


@dataclass
class World:
    """Ms Lee's class Room 12 (river, brook), Mr Park's Room 7 (otter), and heron in no class."""

    app: Flask
    teacher: User
    other_teacher: User
    river: User
    brook: User
    otter: User
    heron: User
    class_a: int
    class_b: int

    def client(self, who: str | None) -> FlaskClient:
        return client_for(self.app, None if who is None else getattr(self, who).username)

    def student_url(self, student: User, class_id: int | None = None) -> str:
        return f"/teach/classes/{class_id or self.class_a}/students/{student.id}"

    def csv_url(
        self,
        start: str | None = "2025-03-10",
        end: str | None = "2025-03-12",
        class_id: int | None = None,
    ) -> str:
        query = "&".join(f"{k}={v}" for k, v in (("start", start), ("end", end)) if v is not None)
        return f"/teach/classes/{class_id or self.class_a}/reviews.csv" + (
            f"?{query}" if query else ""
        )


@pytest.fixture
def world(app: Flask, monkeypatch: pytest.MonkeyPatch) -> World:
    monkeypatch.setattr(routes, "utcnow", lambda: NOW)
    teacher = make_user(app, "ms_lee", role=Role.TEACHER)
    other_teacher = make_user(app, "mr_park", role=Role.TEACHER)
    river = make_user(app, "river")
    brook = make_user(app, "brook")
    otter = make_user(app, "otter")
    heron = make_user(app, "heron")
    class_a = make_class(app, teacher.id, "Room 12", "ABCDEFGH")
    class_b = make_class(app, other_teacher.id, "Room 7", "JKMNPQRS")
    add_member(app, class_a, river.id)
    add_member(app, class_a, brook.id)
    add_member(app, class_b, otter.id)
    return World(app, teacher, other_teacher, river, brook, otter, heron, class_a, class_b)


def needs_help(world: World, *students: User) -> dict[int, list[str]]:
    with world.app.app_context():
        return insights.needs_help([s.id for s in students], NOW)


# --- Last active ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("when", "text"),
    [
        (None, "never"),
        (NOW - dt.timedelta(minutes=5), "today"),
        (dt.datetime(2025, 3, 20, 0, 1, tzinfo=UTC), "today"),
        (dt.datetime(2025, 3, 19, 23, 59, tzinfo=UTC), "yesterday"),
        (NOW - dt.timedelta(days=3), "3 days ago"),
        (NOW - dt.timedelta(days=40), "40 days ago"),
    ],
)
def test_last_active_in_words(when, text):
    assert insights.last_active_text(when, NOW, UTC) == text


def test_last_active_counts_calendar_days_in_the_teachers_zone():
    # 8 p.m. Wednesday in New York is 1 a.m. Thursday UTC: for a New York teacher on Thursday it was yesterday.
    evening = dt.datetime(2025, 3, 20, 1, 0, tzinfo=UTC)
    assert insights.last_active_text(evening, NOW, UTC) == "today"
    assert insights.last_active_text(evening, NOW, ZoneInfo("America/New_York")) == "yesterday"


def test_last_active_is_each_students_latest_answer(world):
    answer(world.app, world.river, "CO:capital", NOW - dt.timedelta(days=3))
    answer(world.app, world.river, "UT:capital", NOW - dt.timedelta(days=1))
    answer(world.app, world.otter, "UT:capital", NOW)
    with world.app.app_context():
        found = insights.last_active([world.river.id, world.brook.id])
    assert found == {world.river.id: NOW - dt.timedelta(days=1), world.brook.id: None}
    assert found[world.river.id].tzinfo is not None


def test_the_class_page_shows_last_active_and_who_needs_help(world):
    # brook joined three days ago, so has had the chance to practise (P-S5, issue 24).
    with world.app.app_context():
        db.session.execute(
            update(ClassMembership)
            .where(ClassMembership.student_id == world.brook.id)
            .values(joined_at=NOW - dt.timedelta(days=3))
        )
        db.session.commit()
    answer(world.app, world.river, "CO:capital", NOW - dt.timedelta(hours=2))
    answer(
        world.app, world.otter, "CO:capital", NOW - dt.timedelta(days=20)
    )  # another class: not shown
    html = main_of(
        world.client("teacher").get(f"/teach/classes/{world.class_a}").get_data(as_text=True)
    )
    rows = dict(
        re.findall(
            r'/students/\d+">(\w+)</a></th>\s*<td>[^<]*</td>\s*<td>(?:<time[^>]*>)?([^<]+)', html
        )
    )
    assert rows == {"brook": "never", "river": "today"}
    help_box = html.split("Who needs help", 1)[1].split("</ul>", 1)[0]
    assert "brook</a>:" in help_box and "Has not practised yet" in help_box
    assert "river" not in help_box
    assert "otter" not in html
    assert_strict_page(html)


def test_last_active_days_ago_on_the_class_page(world):
    answer(world.app, world.river, "CO:capital", NOW - dt.timedelta(days=3))
    html = world.client("teacher").get(f"/teach/classes/{world.class_a}").get_data(as_text=True)
    assert re.search(r'<time datetime="2025-03-17T15:00:00\+00:00">3 days ago</time>', html)


def test_no_who_needs_help_list_when_nobody_does(world):
    for student in (world.river, world.brook):
        answer(world.app, student, "CO:capital", NOW - dt.timedelta(hours=1))
    html = world.client("teacher").get(f"/teach/classes/{world.class_a}").get_data(as_text=True)
    assert "Who needs help" not in html
    assert html.count('<span class="muted">No</span>') == 2


def test_the_students_table_scrolls_on_a_phone_and_is_labelled(world):
    html = world.client("teacher").get(f"/teach/classes/{world.class_a}").get_data(as_text=True)
    assert re.search(
        r'<div class="table-scroll" role="region" aria-labelledby="students-title" tabindex="0">\s*<table class="table table--students">\s*<caption',
        html,
    )
    for heading in ("Username", "Joined", "Last active", "Needs help"):
        assert f'<th scope="col">{heading}</th>' in html


# --- Needs help: each reason, triggered and not ------------------------------------------------------


def test_never_practised_needs_help(world):
    assert needs_help(world, world.brook) == {world.brook.id: ["Has not practised yet"]}


@pytest.mark.parametrize(
    ("days_ago", "inactive"),
    [(0, False), (6, False), (6.99, False), (7, True), (8, True), (30, True)],
)
def test_a_week_without_practice_needs_help(world, days_ago, inactive):
    at = NOW - dt.timedelta(days=days_ago)
    answer(world.app, world.river, "CO:capital", at)
    reasons = needs_help(world, world.river)[world.river.id]
    assert ("No practice in the last 7 days" in reasons) is inactive
    assert "Has not practised yet" not in reasons


def test_low_predicted_recall_needs_help_with_the_mean_worked_out(world):
    # Two facts missed a month ago and one learned this morning: the mean is below 70%.
    answer(world.app, world.river, "CO:capital", NOW - dt.timedelta(days=30), Verdict.WRONG)
    answer(world.app, world.river, "UT:capital", NOW - dt.timedelta(days=30), Verdict.WRONG)
    answer(world.app, world.river, "VT:map", NOW - dt.timedelta(hours=3))
    recalls = [
        srs.retrievability(card_memory(world.app, world.river, key), NOW, "UTC")
        for key in ("CO:capital", "UT:capital", "VT:map")
    ]
    mean = sum(recalls) / 3
    assert mean < insights.LOW_RECALL
    reasons = needs_help(world, world.river)[world.river.id]
    assert reasons == [
        f"Likely to remember only {round(mean * 100)}% of the 3 facts started (below 70%)"
    ]


def test_good_predicted_recall_needs_no_help(world):
    for key in ("CO:capital", "UT:capital", "VT:map"):
        answer(world.app, world.river, key, NOW - dt.timedelta(hours=3))
    recalls = [
        srs.retrievability(card_memory(world.app, world.river, key), NOW, "UTC")
        for key in ("CO:capital", "UT:capital", "VT:map")
    ]
    assert min(recalls) >= insights.LOW_RECALL
    assert needs_help(world, world.river) == {world.river.id: []}


def test_predicted_recall_is_computed_from_the_schedule(world):
    """The mean uses FSRS's forgetting curve on each card's stability and last review, at "now"."""
    answer(world.app, world.river, "CO:capital", NOW - dt.timedelta(days=30))
    by_hand = srs.schedule(
        srs.new_memory(NOW - dt.timedelta(days=30)),
        srs.Rating.GOOD,
        NOW - dt.timedelta(days=30),
        time_zone="UTC",
    )
    expected = srs.retrievability(by_hand, NOW, "UTC")
    assert card_memory(world.app, world.river, "CO:capital").stability == pytest.approx(
        by_hand.stability
    )
    reasons = needs_help(world, world.river)[world.river.id]
    assert (
        f"Likely to remember only {round(expected * 100)}% of the 1 fact started (below 70%)"
        in reasons
    )


def test_one_leech_needs_help(world):
    answer(world.app, world.river, "VT:capital", NOW - dt.timedelta(hours=1))
    set_lapses(world.app, world.river, "VT:capital", srs.LEECH_LAPSES)
    assert needs_help(world, world.river)[world.river.id] == [
        "1 fact keeps slipping (a leech): Vermont capital"
    ]


def test_a_fact_forgotten_fewer_times_is_no_leech(world):
    answer(world.app, world.river, "VT:capital", NOW - dt.timedelta(hours=1))
    set_lapses(world.app, world.river, "VT:capital", srs.LEECH_LAPSES - 1)
    assert needs_help(world, world.river)[world.river.id] == []


def test_many_leeches_are_named_worst_first_then_counted(world):
    keys = [
        "AL:map",
        "CO:capital",
        "DE:postal",
        "GA:borders",
        "ID:size",
        "KS:zone",
        "ME:population",
    ]
    for key in keys:
        answer(world.app, world.river, key, NOW - dt.timedelta(hours=1))
        set_lapses(world.app, world.river, key, srs.LEECH_LAPSES)
    set_lapses(world.app, world.river, "ME:population", srs.LEECH_LAPSES + 3)
    reasons = needs_help(world, world.river)[world.river.id]
    named = "Maine population rank, Alabama on the map, Colorado capital, Delaware postal code, Georgia borders"
    assert reasons == [f"7 facts keep slipping (leeches): {named} and 2 more"]


def test_reasons_add_up_and_stay_with_their_student(world):
    answer(world.app, world.river, "VT:capital", NOW - dt.timedelta(days=10), Verdict.WRONG)
    set_lapses(world.app, world.river, "VT:capital", srs.LEECH_LAPSES)
    answer(world.app, world.otter, "CO:capital", NOW - dt.timedelta(hours=1))
    found = needs_help(world, world.river, world.brook, world.otter)
    assert found[world.river.id][0] == "No practice in the last 7 days"
    assert found[world.river.id][1].startswith("Likely to remember only ")
    assert found[world.river.id][2] == "1 fact keeps slipping (a leech): Vermont capital"
    assert found[world.brook.id] == ["Has not practised yet"]
    assert found[world.otter.id] == []


# --- A student's page ---------------------------------------------------------------------------------


def test_activity_counts_answers_per_study_day_and_mode(world):
    answer(world.app, world.river, "CO:capital", NOW - dt.timedelta(hours=1))
    answer(world.app, world.river, "UT:capital", NOW - dt.timedelta(hours=1), Verdict.WRONG)
    answer(
        world.app,
        world.river,
        "UT:postal",
        NOW - dt.timedelta(hours=2),
        Verdict.CLOSE,
        mode="state_iq",
    )
    # 02:00 UTC belongs to the day before (days start at 4 a.m.).
    answer(
        world.app,
        world.river,
        "VT:map",
        dt.datetime(2025, 3, 18, 2, 0, tzinfo=UTC),
        mode="geoplunge_51",
        round_id="g",
    )
    answer(world.app, world.river, "OH:map", NOW - dt.timedelta(days=13), Verdict.WRONG)
    answer(world.app, world.river, "OH:capital", NOW - dt.timedelta(days=14))  # outside the 14 days
    answer(world.app, world.brook, "OH:capital", NOW)  # someone else
    with world.app.app_context():
        activity = insights.student_activity(world.river.id, NOW)
    assert [d.day for d in activity.days] == [
        dt.date(2025, 3, 7) + dt.timedelta(days=i) for i in range(14)
    ]
    counts = {d.day: (d.answered, d.right) for d in activity.days if d.answered}
    assert counts == {
        dt.date(2025, 3, 20): (3, 2),
        dt.date(2025, 3, 17): (1, 1),
        dt.date(2025, 3, 7): (1, 0),
    }
    assert [(m.mode, m.name, m.answered, m.right) for m in activity.modes] == [
        ("review", "Study (flashcards)", 3, 1),
        ("geoplunge_51", "GeoPlunge 51", 1, 1),
        ("state_iq", "State IQ", 1, 1),
    ]
    assert (activity.answered, activity.right) == (5, 3)


def test_facts_by_state_match_the_forgetting_curve(world):
    answer(world.app, world.river, "VT:capital", NOW - dt.timedelta(days=30))
    answer(world.app, world.river, "VT:map", NOW - dt.timedelta(days=2), Verdict.WRONG)
    answer(world.app, world.river, "AK:zone", NOW - dt.timedelta(hours=1))
    set_lapses(world.app, world.river, "VT:map", srs.LEECH_LAPSES)
    with world.app.app_context():
        rows = insights.facts_by_state(world.river.id, NOW)
    deck_names = sorted(state.name for state in get_deck_of(world.app))
    assert [row.name for row in rows] == deck_names and len(rows) == 50
    assert all([cell.facet for cell in row.cells] == list(Facet) for row in rows)
    cells = {(row.postal, cell.facet): cell for row in rows for cell in row.cells}
    first_answer = srs.schedule(
        srs.new_memory(NOW - dt.timedelta(days=30)),
        srs.Rating.GOOD,
        NOW - dt.timedelta(days=30),
        time_zone="UTC",
    )
    assert cells["VT", Facet.CAPITAL].recall == pytest.approx(
        srs.retrievability(first_answer, NOW, "UTC")
    )
    assert cells["VT", Facet.CAPITAL].leech is False
    assert cells["VT", Facet.MAP].recall == pytest.approx(
        srs.retrievability(card_memory(world.app, world.river, "VT:map"), NOW, "UTC")
    )
    assert cells["VT", Facet.MAP].leech is True
    assert cells["AK", Facet.ZONE].recall > 0.95
    started = {key for key, cell in cells.items() if cell.recall is not None}
    assert started == {("VT", Facet.CAPITAL), ("VT", Facet.MAP), ("AK", Facet.ZONE)}
    assert not any(cell.leech for key, cell in cells.items() if key != ("VT", Facet.MAP))


def get_deck_of(app: Flask):
    with app.app_context():
        return get_deck()


def test_recent_rounds_group_answers_by_round(world):
    for i, (key, verdict) in enumerate(
        [
            ("CO:capital", Verdict.RIGHT),
            ("UT:capital", Verdict.WRONG),
            ("VT:capital", Verdict.CLOSE),
        ]
    ):
        answer(
            world.app,
            world.river,
            key,
            NOW - dt.timedelta(hours=5) + dt.timedelta(minutes=i),
            verdict,
            round_id="a",
        )
    answer(
        world.app, world.river, "OH:map", NOW - dt.timedelta(hours=3), mode="state_iq", round_id="b"
    )
    answer(
        world.app,
        world.river,
        "OH:capital",
        NOW - dt.timedelta(hours=1),
        Verdict.WRONG,
        mode="dashing_states",
        round_id="c",
    )
    answer(
        world.app,
        world.river,
        "OH:postal",
        NOW - dt.timedelta(hours=1),
        mode="dashing_states",
        round_id="c",
    )
    answer(world.app, world.brook, "OH:postal", NOW, mode="border_up", round_id="d")
    with world.app.app_context():
        rounds = insights.recent_rounds(world.river.id)
        latest_two = insights.recent_rounds(world.river.id, limit=2)
    assert [(r.round_token, r.name, r.answered, r.right, r.when) for r in rounds] == [
        ("dashing_states:c", "Dashing States", 2, 1, NOW - dt.timedelta(hours=1)),
        ("state_iq:b", "State IQ", 1, 1, NOW - dt.timedelta(hours=3)),
        ("review:a", "Study (flashcards)", 3, 2, NOW - dt.timedelta(hours=4, minutes=58)),
    ]
    assert rounds[2].started == NOW - dt.timedelta(hours=5)
    assert [r.round_token for r in latest_two] == ["dashing_states:c", "state_iq:b"]


def test_unknown_modes_still_get_a_readable_name():
    assert insights.mode_name("geoclash_down_back") == "GeoClash Down Back"
    assert insights.mode_name("some_new_mode") == "Some new mode"


def test_the_student_page_shows_progress_in_words(world):
    answer(world.app, world.river, "VT:capital", NOW - dt.timedelta(days=30), given="Montpelier")
    answer(
        world.app,
        world.river,
        "VT:map",
        NOW - dt.timedelta(hours=2),
        Verdict.WRONG,
        mode="state_iq",
        round_id="b",
    )
    set_lapses(world.app, world.river, "VT:map", srs.LEECH_LAPSES)
    capital = srs.retrievability(card_memory(world.app, world.river, "VT:capital"), NOW, "UTC")
    vt_map = srs.retrievability(card_memory(world.app, world.river, "VT:map"), NOW, "UTC")
    response = world.client("teacher").get(world.student_url(world.river))
    assert response.status_code == 200
    html = main_of(response.get_data(as_text=True))
    assert_strict_page(html)
    # Needs help, in words.
    assert "1 fact keeps slipping (a leech): Vermont on the map." in html
    # Activity: today's one answer, none right; the mode table.
    assert re.search(r"1 answer, 0 right\s+\(0%\)", html)
    assert re.search(
        r'<th scope="row"><time datetime="2025-03-20">Thu 20 Mar</time></th>\s*<td class="num">1</td><td class="num">0</td>',
        html,
    )
    assert re.search(
        r'<th scope="row">State IQ</th><td class="num">1</td><td class="num">0</td>', html
    )
    # Recent rounds, newest first.
    assert re.search(
        r"20 Mar 2025, 13:00 UTC</time></th>\s*<td>State IQ</td>\s*<td class=\"num\">1</td>\s*<td class=\"num\">0</td>",
        html,
    )
    assert "Study (flashcards)" in html
    # Facts by state: Vermont's row has a value for its map and capital facts, the leech in words.
    vermont = html.split('<th scope="row">Vermont</th>', 1)[1].split("</tr>", 1)[0]
    cells = re.findall(r"<td[^>]*>(.*?)</td>", vermont, re.DOTALL)
    assert len(cells) == 8
    assert cells[0].strip() == f'{vt_map:.0%} <strong class="leech-tag">keeps slipping</strong>'
    assert cells[1].strip() == f"{capital:.0%}"
    assert all("not practised" in cell for cell in cells[2:])
    assert '<td class="num fact--leech">' in vermont
    assert html.count("not practised") == 50 * 8 - 2
    # The scrollable fact table is labelled and focusable.
    assert re.search(
        r'<div class="table-scroll" role="region" aria-labelledby="facts-title" tabindex="0">', html
    )
    # The existing forms are still there (river made their own account: only they change its
    # password, issue 18, so the page says so instead of offering a new one).
    assert (
        "This student made their own account, so only they can change its password." in html
        and "Take river out of Room 12" in html
    )


def test_a_new_students_page_says_so(world):
    # brook joined three days ago, so has had the chance to practise (P-S5, issue 24; the page of
    # a student who joined minutes ago is in test_teach_day0).
    with world.app.app_context():
        db.session.execute(
            update(ClassMembership)
            .where(ClassMembership.student_id == world.brook.id)
            .values(joined_at=NOW - dt.timedelta(days=3))
        )
        db.session.commit()
    html = main_of(
        world.client("teacher").get(world.student_url(world.brook)).get_data(as_text=True)
    )
    assert "Has not practised yet." in html
    assert "No answers in the last 14 days." in html and "No rounds played yet." in html
    assert "Last practised: never." in html


# --- The review log download ---------------------------------------------------------------------------


def read_csv(response) -> list[list[str]]:
    text = response.get_data(as_text=True)
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:], newline="")))


HEADER = [
    "student",
    "name",
    "reviewed_at_utc",
    "study_day",
    "mode",
    "state",
    "facet",
    "verdict",
    "rating",
    "answer",
    "round",
]


def export_world(world: World) -> None:
    """Answers around 10-12 March 2025 (UTC days starting at 4 a.m.) by students in and out of the class."""
    at = dt.datetime
    answer(
        world.app,
        world.river,
        "CO:capital",
        at(2025, 3, 10, 3, 59, tzinfo=UTC),
        given="Denver",
        round_id="x",
    )  # 9 March
    answer(
        world.app,
        world.river,
        "CO:capital",
        at(2025, 3, 10, 4, 0, tzinfo=UTC),
        given='=HYPERLINK("http://x")',
        round_id="x",
    )
    answer(
        world.app,
        world.brook,
        "UT:capital",
        at(2025, 3, 11, 9, 30, tzinfo=UTC),
        Verdict.WRONG,
        given="+1",
        mode="state_iq",
        round_id="y",
    )
    answer(
        world.app,
        world.river,
        "VT:postal",
        at(2025, 3, 12, 23, 0, tzinfo=UTC),
        Verdict.CLOSE,
        given="-VT",
        round_id="z",
    )
    answer(
        world.app,
        world.brook,
        "OH:map",
        at(2025, 3, 13, 3, 0, tzinfo=UTC),
        given="@Ohio",
        round_id="w",
    )  # 12 March
    answer(
        world.app,
        world.brook,
        "OH:zone",
        at(2025, 3, 13, 4, 0, tzinfo=UTC),
        given="Eastern",
        round_id="w",
    )  # 13 March
    answer(
        world.app,
        world.otter,
        "CO:capital",
        at(2025, 3, 11, 12, 0, tzinfo=UTC),
        given="Denver",
        round_id="o",
    )  # another class
    answer(
        world.app,
        world.heron,
        "CO:capital",
        at(2025, 3, 11, 12, 0, tzinfo=UTC),
        given="Denver",
        round_id="h",
    )  # no class


def test_the_csv_is_the_class_log_between_two_study_days(world):
    export_world(world)
    response = world.client("teacher").get(world.csv_url("2025-03-10", "2025-03-12"))
    assert response.status_code == 200
    assert response.mimetype == "text/csv" and response.mimetype_params["charset"] == "utf-8"
    assert (
        response.headers["Content-Disposition"]
        == 'attachment; filename="room-12-answers-2025-03-10-to-2025-03-12.csv"'
    )
    assert response.headers["Cache-Control"] == "no-store"
    assert response.get_data(as_text=True).split("\n", 1)[0].endswith("\r")  # RFC 4180 line ends
    assert read_csv(response) == [
        HEADER,
        [
            "river",
            "",
            "2025-03-10T04:00:00+00:00",
            "2025-03-10",
            "Study (flashcards)",
            "Colorado",
            "Capital",
            "right",
            "Good",
            '\'=HYPERLINK("http://x")',
            "1",
        ],
        [
            "brook",
            "",
            "2025-03-11T09:30:00+00:00",
            "2025-03-11",
            "State IQ",
            "Utah",
            "Capital",
            "wrong",
            "Again",
            "'+1",
            "1",
        ],
        [
            "river",
            "",
            "2025-03-12T23:00:00+00:00",
            "2025-03-12",
            "Study (flashcards)",
            "Vermont",
            "Postal code",
            "close",
            "Hard",
            "'-VT",
            "2",
        ],
        [
            "brook",
            "",
            "2025-03-13T03:00:00+00:00",
            "2025-03-12",
            "Study (flashcards)",
            "Ohio",
            "Map",
            "right",
            "Good",
            "'@Ohio",
            "2",
        ],
    ]


def test_a_one_day_csv_and_an_empty_one(world):
    export_world(world)
    client = world.client("teacher")
    rows = read_csv(client.get(world.csv_url("2025-03-09", "2025-03-09")))
    assert rows == [
        HEADER,
        [
            "river",
            "",
            "2025-03-10T03:59:00+00:00",
            "2025-03-09",
            "Study (flashcards)",
            "Colorado",
            "Capital",
            "right",
            "Good",
            "Denver",
            "1",
        ],
    ]
    assert read_csv(client.get(world.csv_url("2024-01-01", "2024-12-31"))) == [
        HEADER
    ]  # 366 days: allowed


def test_the_csv_has_only_current_students(world):
    export_world(world)
    with world.app.app_context():
        db.session.execute(
            delete(ClassMembership).where(ClassMembership.student_id == world.brook.id)
        )
        db.session.commit()
    rows = read_csv(world.client("teacher").get(world.csv_url("2025-03-01", "2025-03-31")))
    assert [row[0] for row in rows[1:]] == ["river", "river", "river"]


def test_the_other_teacher_gets_only_their_class(world):
    export_world(world)
    rows = read_csv(
        world.client("other_teacher").get(
            world.csv_url("2025-03-01", "2025-03-31", class_id=world.class_b)
        )
    )
    assert rows == [
        HEADER,
        [
            "otter",
            "",
            "2025-03-11T12:00:00+00:00",
            "2025-03-11",
            "Study (flashcards)",
            "Colorado",
            "Capital",
            "right",
            "Good",
            "Denver",
            "1",
        ],
    ]


@pytest.mark.parametrize(
    ("value", "safe"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-1", "'-1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("Denver", "Denver"),
        ("", ""),
        ("a=b", "a=b"),
    ],
)
def test_csv_cells_never_start_like_a_formula(value, safe):
    assert insights.csv_safe(value) == safe


@pytest.mark.parametrize(
    ("start", "end", "message"),
    [
        (None, "2025-03-12", "Choose the first day of the answers to download."),
        ("2025-03-10", None, "Choose the last day of the answers to download."),
        ("", "", "Choose the first day of the answers to download."),
        (
            "2025-02-30",
            "2025-03-12",
            "The first day “2025-02-30” is not a date; use the form (year-month-day).",
        ),
        (
            "yesterday",
            "2025-03-12",
            "The first day “yesterday” is not a date; use the form (year-month-day).",
        ),
        (
            "2025-03-10",
            "20250312",
            "The last day “20250312” is not a date; use the form (year-month-day).",
        ),
        (
            "2025-03-12",
            "2025-03-10",
            "The last day (2025-03-10) is before the first day (2025-03-12).",
        ),
        (
            "2024-01-01",
            "2025-01-01",
            "Download at most 366 days at a time; those dates cover 367 days.",
        ),
    ],
)
def test_bad_csv_dates_are_explained_on_the_class_page(world, start, end, message):
    client = world.client("teacher")
    response = client.get(world.csv_url(start, end))
    assert response.status_code == 302
    assert response.headers["Location"] == f"/teach/classes/{world.class_a}#export-title"
    html = client.get(response.headers["Location"]).get_data(as_text=True)
    assert f'<p class="flash flash--error">{message} Nothing was downloaded.</p>' in html


def test_the_class_page_offers_the_last_30_days(world):
    html = world.client("teacher").get(f"/teach/classes/{world.class_a}").get_data(as_text=True)
    form = html.split('<form method="get"', 1)[1].split("</form>", 1)[0]
    assert f'action="/teach/classes/{world.class_a}/reviews.csv"' in form
    assert '<label class="field__label" for="export-start">First day</label>' in form
    assert 'type="date" id="export-start" name="start" value="2025-02-19"' in form
    assert 'type="date" id="export-end" name="end" value="2025-03-20"' in form


# --- Who may see what ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "status"), [(None, 302), ("river", 403), ("otter", 403), ("other_teacher", 404)]
)
@pytest.mark.parametrize("page", ["student", "csv"])
def test_only_the_classs_teacher_sees_progress_and_the_log(world, who, status, page):
    export_world(world)
    url = (
        world.student_url(world.river)
        if page == "student"
        else world.csv_url("2025-03-01", "2025-03-31")
    )
    response = world.client(who).get(url)
    assert response.status_code == status
    if status == 302:
        assert response.headers["Location"].startswith("/auth/login?next=")
    body = main_of(response.get_data(as_text=True))
    assert "river" not in body and "Colorado" not in body and "Room 12" not in body


@pytest.mark.parametrize(
    "url",
    [
        "/teach/classes/{b}/reviews.csv?start=2025-03-01&end=2025-03-31",  # another teacher's class
        "/teach/classes/{b}/reviews.csv",  # ... even with bad dates: not found comes first
        "/teach/classes/999/reviews.csv?start=2025-03-01&end=2025-03-31",
        "/teach/classes/{a}/students/{otter}",  # a student of another class
        "/teach/classes/{a}/students/{heron}",  # a student in no class
        "/teach/classes/{b}/students/{otter}",
    ],
)
def test_a_teacher_gets_nothing_of_another_class(world, url):
    export_world(world)
    response = world.client("teacher").get(
        url.format(a=world.class_a, b=world.class_b, otter=world.otter.id, heron=world.heron.id)
    )
    assert response.status_code == 404
    body = main_of(response.get_data(as_text=True))
    assert "otter" not in body and "heron" not in body and "Room 7" not in body


def test_the_answers_workbook_holds_the_csvs_rows_and_a_formula_stays_text(world):
    """Issue 24: the same answers as an Excel workbook: the CSV's header and rows, cell for cell
    (numbers as numbers), typed answers such as '=HYPERLINK(...)' as text, never a formula."""
    import openpyxl

    export_world(world)
    client = world.client("teacher")
    as_csv = read_csv(client.get(world.csv_url("2025-03-10", "2025-03-12")))
    response = client.get(world.csv_url("2025-03-10", "2025-03-12").replace(".csv?", ".xlsx?"))
    assert response.status_code == 200
    assert response.mimetype == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert response.headers["Content-Disposition"] == (
        'attachment; filename="room-12-answers-2025-03-10-to-2025-03-12.xlsx"'
    )
    assert response.headers["Cache-Control"] == "no-store"
    book = openpyxl.load_workbook(io.BytesIO(response.data))
    sheet = book["Answers"]
    cells = [list(r) for r in sheet.iter_rows()]
    assert all(c.data_type != "f" for r in cells for c in r)
    values = [["" if c.value is None else str(c.value) for c in r] for r in cells]
    # The CSV guards a formula-like text with an apostrophe; the workbook keeps it as typed text.
    assert values == [[v[1:] if v.startswith("'") else v for v in r] for r in as_csv]
    assert any(v == '=HYPERLINK("http://x")' for r in values for v in r)
