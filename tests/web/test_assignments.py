"""Assignments: a teacher sets practice, students play it, progress is read from the records.

Rulings checked: P-A1 (scopes add up), P-A2 (card games are dealt from the whole deck; rounds of a
scoped assignment count when dealt from it), P-A3 (a recall goal is judged on the due date),
P-A4 (work after the due date counts, as late).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from sqlalchemy import func, select

from tests.conftest import AuthActions, make_user
from tests.web.test_teach import World, add_member, post
from trainer import srs
from trainer.assignments import window
from trainer.cards import Region, load_deck
from trainer.facts import Facet, Fact, Form, Verdict
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.memory import record
from trainer.web.models import (
    Assignment,
    AssignmentRound,
    AssignmentStudent,
    BorderUpRound,
    CardGame,
    DashingRound,
    ReviewLog,
    StateIqGame,
    StudyRound,
    User,
    utcnow,
)
from trainer.web.teach.forms import parse_states

UTC = dt.UTC


def today() -> dt.date:
    return utcnow().date()


def form_data(**overrides) -> dict:
    data = {
        "activities": ["state-iq"],
        "amount": "rounds",
        "quantity": "5",
        "target": "90",
        "starts_on": today().isoformat(),
        "due_on": (today() + dt.timedelta(days=7)).isoformat(),
        "who": "everyone",
        "area": "",
        "states": "",
        "title": "",
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def create(world: World, client=None, **overrides):
    client = client or world.client("teacher")
    return post(client, f"/teach/classes/{world.class_a}/assignments/new", form_data(**overrides))


def assignments(app: Flask) -> list[Assignment]:
    with app.app_context():
        rows = db.session.execute(select(Assignment).order_by(Assignment.id)).scalars().all()
        for row in rows:
            db.session.expunge(row)
        return list(rows)


def count(app: Flask, model) -> int:
    with app.app_context():
        return db.session.execute(select(func.count()).select_from(model)).scalar_one()


def make_assignment(
    app: Flask,
    class_id: int,
    *,
    activities=("state-iq",),
    scope=None,
    amount="rounds",
    quantity=2,
    target=None,
    starts_at=None,
    due_at=None,
    everyone=True,
    students=(),
) -> int:
    now = utcnow()
    with app.app_context():
        row = Assignment(
            class_id=class_id,
            title="Practice",
            activities=list(activities),
            scope=scope or {"facets": [], "area": "", "states": []},
            amount=amount,
            quantity=quantity,
            target=target,
            starts_at=starts_at or now - dt.timedelta(days=1),
            due_at=due_at or now + dt.timedelta(days=6),
            time_zone="UTC",
            everyone=everyone,
        )
        db.session.add(row)
        db.session.flush()
        for sid in students:
            db.session.add(AssignmentStudent(assignment_id=row.id, student_id=sid))
        db.session.commit()
        return row.id


def finished_state_iq(
    app: Flask, student_id: int, finished_at: dt.datetime, token: str, link: int | None = None
) -> None:
    with app.app_context():
        db.session.add(
            StateIqGame(
                token=token,
                student_id=student_id,
                level="easy",
                power_card=1,
                student_card="CO",
                computer_card="UT",
                first_guesser="student",
                seed=1,
                moves=[],
                move_count=0,
                recorded=[],
                result="won",
                created_at=finished_at - dt.timedelta(minutes=3),
                finished_at=finished_at,
            )
        )
        if link is not None:
            db.session.add(
                AssignmentRound(
                    assignment_id=link,
                    student_id=student_id,
                    activity="state-iq",
                    round_token=f"state_iq:{token}",
                )
            )
        db.session.commit()


def review(
    app: Flask,
    user: User,
    key: str,
    when: dt.datetime,
    *,
    mode="review",
    verdict=Verdict.RIGHT,
    item="1",
    token=None,
) -> None:
    with app.app_context():
        student = db.session.get(User, user.id)
        outcome = srs.Outcome(
            fact_key=key,
            verdict=verdict,
            mode=mode,
            form=Form.TYPED,
            round_token=token or f"{mode}:{key}:{when.isoformat()}",
            item=item,
            answer="x",
        )
        record(student, outcome, now=when)


def main_of(html: str) -> str:
    return html.split("<main", 1)[1].split("</main>", 1)[0]


# --- Setting an assignment -----------------------------------------------------------------------


def test_a_teacher_sets_an_assignment_for_the_class(world):
    client = world.client("teacher")
    client.set_cookie("tz", "America/Chicago")
    # The teacher's today, in Chicago (the UTC date is a day ahead each evening there).
    local_today = utcnow().astimezone(ZoneInfo("America/Chicago")).date()
    due = local_today + dt.timedelta(days=7)
    response = create(world, client, starts_on=local_today.isoformat(), due_on=due.isoformat())
    assert response.status_code == 302
    [row] = assignments(world.app)
    assert response.headers["Location"] == f"/teach/classes/{world.class_a}/assignments/{row.id}"
    assert (row.title, row.activities, row.amount, row.quantity, row.everyone) == (
        "Capitals, Postal codes and Borders of all 50 states: 5 rounds of State IQ",
        ["state-iq"],
        "rounds",
        5,
        True,
    )
    assert row.time_zone == "America/Chicago"
    # The form's dates are the teacher's; stored in UTC from midnight to the end of the due day.
    assert (row.starts_at, row.due_at) == window(local_today, due, "America/Chicago")
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Capitals, Postal codes and Borders of all 50 states: 5 rounds of State IQ" in page
    assert "river" in page and "Not started" in page


def test_the_form_offers_every_activity_and_the_class_students(world):
    html = (
        world.client("teacher")
        .get(f"/teach/classes/{world.class_a}/assignments/new")
        .get_data(as_text=True)
    )
    for title in (
        "Flashcard review",
        "State IQ",
        "Dashing States",
        "Border-Up",
        "GeoPlunge 51 (drill)",
        "GeoPower Toss (drill)",
    ):
        assert title in html
    assert "river" in html and "otter" not in html


def test_a_scoped_assignment_for_some_students(world, app):
    other = make_user(app, "wren")
    add_member(app, world.class_a, other.id)
    response = create(
        world,
        activities=["review", "dashing-states"],
        facets=["capital"],
        area="region:west",
        states="Texas, new york",
        amount="reviews",
        quantity="40",
        who="some",
        students=[str(world.student.id)],
        title="Western capitals",
    )
    assert response.status_code == 302
    [row] = assignments(app)
    assert row.scope == {"facets": ["capital"], "area": "region:west", "states": ["NY", "TX"]}
    assert (row.title, row.amount, row.quantity, row.everyone) == (
        "Western capitals",
        "reviews",
        40,
        False,
    )
    with app.app_context():
        chosen = db.session.execute(select(AssignmentStudent.student_id)).scalars().all()
    assert chosen == [world.student.id]
    # Only the chosen student sees it.
    assert "Western capitals" in world.client("student").get("/study/").get_data(as_text=True)
    lonely = app.test_client()
    AuthActions(lonely).login("wren")
    assert "Western capitals" not in lonely.get("/study/").get_data(as_text=True)


def test_a_recall_goal(world, app):
    assert (
        create(world, activities=["review"], amount="recall", target="85", quantity="").status_code
        == 302
    )
    [row] = assignments(app)
    assert (row.amount, row.quantity, row.target) == ("recall", None, 0.85)
    assert row.title == "Everything about all 50 states at 85%"


BAD_FORMS = [
    ({"activities": []}, "Choose at least one activity."),
    (
        {
            "due_on": (dt.date.today() - dt.timedelta(days=3)).isoformat(),
            "starts_on": (dt.date.today() - dt.timedelta(days=5)).isoformat(),
        },
        "That due date has passed.",
    ),
    (
        {"starts_on": (dt.date.today() + dt.timedelta(days=9)).isoformat()},
        "The due date is before the start date.",
    ),
    ({"due_on": "next friday"}, "Not a valid date value."),
    ({"starts_on": ""}, "Choose the day it starts."),
    ({"quantity": ""}, "Type how many rounds, from 1 to 50."),
    ({"quantity": "0"}, "Type how many rounds, from 1 to 50."),
    ({"quantity": "51"}, "Type how many rounds, from 1 to 50."),
    ({"amount": "reviews", "quantity": "1001"}, "Type how many answers, from 1 to 1000."),
    ({"amount": "recall", "target": "40"}, "Type a goal from 50 to 97 (%)."),
    ({"amount": "forever"}, "Not a valid choice."),
    ({"activities": ["state-iq", "chess"]}, "not a valid choice"),
    ({"states": "Texas, Atlantis, Narnia"}, "These are not US states: “Atlantis”, “Narnia”."),
    (
        {"activities": ["dashing-states"], "facets": ["postal"]},
        "Dashing States does not ask about Postal codes: it asks about Map and Capitals.",
    ),
    ({"activities": ["border-up"], "facets": ["capital", "zone"]}, "Border-Up does not ask about"),
    ({"area": "region:atlantis"}, "Not a valid choice."),
    ({"who": "some"}, "Tick at least one student, or set it for everyone."),
    ({"title": "x" * 81}, "Keep the title under 80 characters."),
]


@pytest.mark.parametrize(("changes", "message"), BAD_FORMS)
def test_a_bad_assignment_is_explained_and_nothing_is_made(world, app, changes, message):
    response = create(world, **changes)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert count(app, Assignment) == 0 and count(app, AssignmentStudent) == 0


def test_a_student_of_another_class_cannot_be_named(world, app):
    response = create(world, who="some", students=[str(world.other_student.id)])
    assert response.status_code == 400
    assert count(app, Assignment) == 0 and count(app, AssignmentStudent) == 0


def test_names_with_accents_and_apostrophes_are_read():
    postals, unknown = parse_states("  hawaii ; TEXAS\nNew  York, co, O'Kansas, Texas", load_deck())
    assert postals == ["HI", "TX", "NY", "CO"]
    assert unknown == ["O'Kansas"]


@pytest.mark.parametrize("who", [None, "student", "other_teacher"])
def test_only_the_class_teacher_sets_assignments(world, app, who):
    client = world.client(who)
    response = create(world, client)
    assert response.status_code == {None: 302, "student": 403, "other_teacher": 404}[who]
    assert count(app, Assignment) == 0


def test_deleting_an_assignment_keeps_the_students_history(world, app):
    aid = make_assignment(app, world.class_a)
    game_time = utcnow() - dt.timedelta(hours=1)
    finished_state_iq(app, world.student.id, game_time, "g-1", link=aid)
    for who, status in ((None, 302), ("student", 403), ("other_teacher", 404)):
        assert (
            post(
                world.client(who), f"/teach/classes/{world.class_a}/assignments/{aid}/delete"
            ).status_code
            == status
        )
    assert count(app, Assignment) == 1
    response = post(
        world.client("teacher"),
        f"/teach/classes/{world.class_a}/assignments/{aid}/delete",
        {"confirmed": "yes"},  # from the page that asks first (issue 24)
    )
    assert response.status_code == 302
    assert (
        count(app, Assignment) == 0
        and count(app, AssignmentRound) == 0
        and count(app, StateIqGame) == 1
    )


def test_another_class_assignment_is_not_found(world, app):
    aid = make_assignment(app, world.class_b)
    client = world.client("teacher")
    assert client.get(f"/teach/classes/{world.class_a}/assignments/{aid}").status_code == 404
    assert client.get(f"/teach/classes/{world.class_b}/assignments/{aid}").status_code == 404
    assert (
        post(client, f"/teach/classes/{world.class_a}/assignments/{aid}/delete").status_code == 404
    )
    assert count(app, Assignment) == 1


# --- Students see and play their assignments ------------------------------------------------------


def test_students_see_their_assignments_first(world, app):
    make_assignment(app, world.class_a, quantity=3)
    html = main_of(world.client("student").get("/study/").get_data(as_text=True))
    assert "Your assignments" in html
    # Before today's amount and what is due (on a first run, right under the welcome, #21).
    assert html.index("Your assignments") < html.index('id="daily-title"')
    assert "Practice" in html and "Room 12" in html and "0 of 3 rounds" in html
    for who in ("other_student", "loner"):
        assert "Your assignments" not in world.client(who).get("/study/").get_data(as_text=True)


def test_a_student_only_opens_their_own_assignments(world, app):
    mine = make_assignment(app, world.class_a)
    theirs = make_assignment(app, world.class_b)
    not_me = make_assignment(app, world.class_a, everyone=False, students=[])
    client = world.client("student")
    assert client.get(f"/assignments/{mine}").status_code == 200
    for aid in (theirs, not_me, 99999):
        assert client.get(f"/assignments/{aid}").status_code == 404
        assert (
            post(
                client, f"/assignments/{aid}/start", {"activity": "state-iq", "level": "easy"}
            ).status_code
            == 404
        )
    assert count(app, StateIqGame) == 0
    assert world.client("teacher").get(f"/assignments/{mine}").status_code == 403


def test_a_student_taken_out_of_the_class_no_longer_has_its_assignments(world, app):
    aid = make_assignment(app, world.class_a)
    post(
        world.client("teacher"),
        f"/teach/classes/{world.class_a}/students/{world.student.id}/remove",
    )
    assert world.client("student").get(f"/assignments/{aid}").status_code == 404


def start(client, aid, activity, level="easy"):
    return post(client, f"/assignments/{aid}/start", {"activity": activity, "level": level})


def test_scoped_rounds_are_dealt_from_the_scope(world, app):
    """P-A1: every activity that follows a scope deals from it."""
    scope = {"facets": ["capital", "map", "borders", "postal"], "area": "region:west", "states": []}
    aid = make_assignment(
        app,
        world.class_a,
        activities=("review", "state-iq", "dashing-states", "border-up", "geoplunge-51"),
        scope=scope,
    )
    client = world.client("student")
    with app.app_context():
        western = {s.postal for s in get_deck().in_region(Region.WEST)}
    for activity in ("review", "state-iq", "dashing-states", "border-up", "geoplunge-51"):
        response = start(client, aid, activity)
        assert response.status_code == 302, activity
    with app.app_context():
        study = db.session.execute(select(StudyRound)).scalar_one()
        keys = [Fact.from_key(key) for key, _form in study.items]
        assert keys and all(
            f.postal in western
            and f.facet in {Facet.CAPITAL, Facet.MAP, Facet.BORDERS, Facet.POSTAL}
            for f in keys
        )
        assert study.items and len(study.items) <= 10
        game = db.session.execute(select(StateIqGame)).scalar_one()
        assert game.computer_card in western
        dashing = db.session.execute(select(DashingRound)).scalar_one()
        assert set(dashing.cards) <= western  # 13 western states: all five cards come from them
        border = db.session.execute(select(BorderUpRound)).scalar_one()
        assert set(border.hand) & western
        card_game = db.session.execute(select(CardGame)).scalar_one()
        assert card_game.drill and card_game.game == "geoplunge-51" and card_game.level == "easy"
        links = db.session.execute(
            select(AssignmentRound.activity, AssignmentRound.round_token)
        ).all()
    assert {a for a, _ in links} == {
        "review",
        "state-iq",
        "dashing-states",
        "border-up",
        "geoplunge-51",
    }
    assert f"state_iq:{game.token}" in {t for _, t in links}


def test_an_activity_not_in_the_assignment_or_before_the_start_starts_nothing(world, app):
    aid = make_assignment(app, world.class_a, activities=("state-iq",))
    later = make_assignment(app, world.class_a, starts_at=utcnow() + dt.timedelta(days=2))
    client = world.client("student")
    response = start(client, aid, "border-up")
    assert response.status_code == 302
    assert "That activity is not part of this assignment" in client.get(
        response.headers["Location"]
    ).get_data(as_text=True)
    response = start(client, later, "state-iq")
    assert "has not started yet" in client.get(response.headers["Location"]).get_data(as_text=True)
    response = start(client, aid, "state-iq", level="impossible")
    assert "Choose a computer level" in client.get(response.headers["Location"]).get_data(
        as_text=True
    )
    assert count(app, BorderUpRound) + count(app, StateIqGame) + count(app, AssignmentRound) == 0


def test_a_review_round_played_from_the_assignment_counts(world, app):
    aid = make_assignment(
        app,
        world.class_a,
        activities=("review",),
        quantity=1,
        scope={"facets": ["capital"], "area": "", "states": ["CO", "UT"]},
    )
    client = world.client("student")
    response = start(client, aid, "review")
    url = response.headers["Location"]
    assert re.fullmatch(r"/study/rounds/[^/]+/1", url)
    with app.app_context():
        items = db.session.execute(select(StudyRound.items)).scalar_one()
    assert sorted(key for key, _ in items) == ["CO:capital", "UT:capital"]
    token = url.split("/")[3]
    for index in range(1, len(items) + 1):
        assert (
            post(
                client, f"/study/rounds/{token}/{index}", {"dont_know": "I don't know"}
            ).status_code
            == 302
        )
    page = client.get(f"/assignments/{aid}").get_data(as_text=True)
    assert "1 of 1 rounds" in page and "Done!" in page
    # Asked again, with nothing due or new in the scope, the weakest answered facts come back.
    response = start(client, aid, "review")
    assert re.fullmatch(r"/study/rounds/[^/]+/1", response.headers["Location"])


# --- Progress from the records --------------------------------------------------------------------


def teacher_page(world, aid) -> str:
    return (
        world.client("teacher")
        .get(f"/teach/classes/{world.class_a}/assignments/{aid}")
        .get_data(as_text=True)
    )


def test_rounds_count_in_the_window_and_late_ones_are_marked(world, app):
    """P-A4."""
    now = utcnow()
    aid = make_assignment(
        app,
        world.class_a,
        quantity=2,
        starts_at=now - dt.timedelta(days=5),
        due_at=now - dt.timedelta(days=1),
    )
    finished_state_iq(app, world.student.id, now - dt.timedelta(days=6), "before")
    finished_state_iq(app, world.student.id, now - dt.timedelta(days=3), "inside")
    assert "Overdue" in teacher_page(world, aid) and "1 of 2 rounds" in teacher_page(world, aid)
    finished_state_iq(app, world.student.id, now - dt.timedelta(hours=2), "after")
    page = teacher_page(world, aid)
    assert "Done late" in page and "2 of 2 rounds (1 late)" in page


def test_a_scoped_assignment_counts_only_rounds_dealt_from_it(world, app):
    """P-A2."""
    aid = make_assignment(
        app, world.class_a, quantity=2, scope={"facets": [], "area": "region:west", "states": []}
    )
    now = utcnow()
    finished_state_iq(app, world.student.id, now - dt.timedelta(hours=3), "free")
    finished_state_iq(app, world.student.id, now - dt.timedelta(hours=2), "linked", link=aid)
    assert "1 of 2 rounds" in teacher_page(world, aid)
    unscoped = make_assignment(app, world.class_a, quantity=2)
    assert "2 of 2 rounds" in teacher_page(world, unscoped)


def test_card_games_count_only_finished_drill_games(world, app):
    aid = make_assignment(app, world.class_a, activities=("play-the-ranks",), quantity=2)
    now = utcnow()
    with app.app_context():
        for token, drill, finished in (("a", True, now), ("b", False, now), ("c", True, None)):
            db.session.add(
                CardGame(
                    token=token,
                    student_id=world.student.id,
                    game="play-the-ranks",
                    players=2,
                    team_size=1,
                    level="easy",
                    drill=drill,
                    seed=1,
                    actions=[],
                    ply=0,
                    result="won" if finished else "playing",
                    finished_at=finished,
                )
            )
        db.session.commit()
    assert "1 of 2 rounds" in teacher_page(world, aid)


def test_reviews_count_within_the_scope_and_the_activities(world, app):
    now = utcnow()
    aid = make_assignment(
        app,
        world.class_a,
        activities=("review", "state-iq"),
        amount="reviews",
        quantity=3,
        scope={"facets": ["capital"], "area": "", "states": ["CO", "UT"]},
    )
    student = world.student
    review(app, student, "CO:capital", now - dt.timedelta(hours=5))
    review(app, student, "UT:capital", now - dt.timedelta(hours=4), mode="state_iq")
    review(app, student, "CO:map", now - dt.timedelta(hours=3))  # another facet
    review(app, student, "TX:capital", now - dt.timedelta(hours=3))  # another state
    review(
        app, student, "CO:capital", now - dt.timedelta(hours=2), mode="dashing_states"
    )  # another activity
    review(app, student, "CO:capital", now - dt.timedelta(days=3))  # before the start
    assert "2 of 3 answers" in teacher_page(world, aid)
    review(app, student, "UT:capital", now - dt.timedelta(hours=1), verdict=Verdict.WRONG)
    assert "3 of 3 answers" in teacher_page(world, aid) and ">Done<" in teacher_page(world, aid)


def test_a_recall_goal_follows_the_memory_model(world, app):
    """P-A3: the predicted recall on the due date, from each fact's last review."""
    now = utcnow()
    due = now + dt.timedelta(days=3)
    aid = make_assignment(
        app,
        world.class_a,
        activities=("review",),
        amount="recall",
        target=0.9,
        quantity=None,
        scope={"facets": ["capital"], "area": "", "states": ["CO", "UT"]},
        due_at=due,
    )
    review(app, world.student, "CO:capital", now - dt.timedelta(hours=2))
    with app.app_context():
        stability = db.session.execute(select(ReviewLog.stability_after)).scalar_one()
    expected = srs.retrievability(
        srs.Memory(srs.MemoryState.REVIEW, None, stability, None, due, now - dt.timedelta(hours=2)),
        due,
        "UTC",
    )
    page = teacher_page(world, aid)
    assert f"{int(expected >= 0.9)} of 2 facts at the goal" in page
    assert "In progress" in page
    student_page = world.client("student").get(f"/assignments/{aid}").get_data(as_text=True)
    assert "Utah: Capitals" in student_page  # the fact to work on most


def test_the_class_page_shows_assignments_and_completion(world, app):
    now = utcnow()
    aid = make_assignment(app, world.class_a, quantity=1)
    finished_state_iq(app, world.student.id, now - dt.timedelta(hours=1), "g")
    html = world.client("teacher").get(f"/teach/classes/{world.class_a}").get_data(as_text=True)
    assert f"/teach/classes/{world.class_a}/assignments/{aid}" in html
    assert "1 of 1" in html and "Done" in html


def test_the_progress_export(world, app):
    now = utcnow()
    other = make_user(app, "=cmd")
    add_member(app, world.class_a, other.id)
    aid = make_assignment(
        app,
        world.class_a,
        quantity=1,
        starts_at=now - dt.timedelta(days=2),
        due_at=now + dt.timedelta(days=1),
    )
    finished_state_iq(app, world.student.id, now - dt.timedelta(hours=1), "g")
    response = world.client("teacher").get(f"/teach/classes/{world.class_a}/progress.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    # Named and encoded as the answers file (issue #24): UTF-8 with a byte-order mark.
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="room-12-progress-{now.date().isoformat()}.csv"'
    )
    assert response.mimetype_params["charset"] == "utf-8"
    text = response.get_data(as_text=True)
    assert text.startswith("\ufeffstudent,")
    rows = list(csv.reader(io.StringIO(text[1:])))
    assert rows[0] == [
        "student",
        "name",
        "assignment",
        "activities",
        "starts",
        "due",
        "status",
        "done",
        "needed",
        "late",
        "completed_at",
    ]
    start_day, due_day = (now - dt.timedelta(days=2)).date().isoformat(), now.date().isoformat()
    assert rows[1][:10] == [
        "'=cmd",
        "",
        "Practice",
        "State IQ",
        start_day,
        due_day,
        "not started",
        "0",
        "1",
        "0",
    ]
    assert rows[2][:10] == [
        "river",
        "",
        "Practice",
        "State IQ",
        start_day,
        due_day,
        "done",
        "1",
        "1",
        "0",
    ]
    assert rows[2][10].startswith((now - dt.timedelta(hours=1)).strftime("%Y-%m-%dT%H"))
    assert len(rows) == 3
    assert (
        world.client("other_teacher")
        .get(f"/teach/classes/{world.class_a}/progress.csv")
        .status_code
        == 404
    )
    assert (
        world.client("student").get(f"/teach/classes/{world.class_a}/progress.csv").status_code
        == 403
    )
    assert aid


def test_a_recall_goal_is_judged_on_the_reviews_given_by_the_due_date(world, app):
    """P-A3: after the due date, the last review by then decides; a later catch-up is late."""
    now = utcnow()
    due = now - dt.timedelta(hours=1)
    aid = make_assignment(
        app,
        world.class_a,
        activities=("review",),
        amount="recall",
        target=0.5,
        quantity=None,
        scope={"facets": ["capital"], "area": "", "states": ["CO", "UT"]},
        starts_at=due - dt.timedelta(days=5),
        due_at=due,
    )
    review(app, world.student, "CO:capital", due - dt.timedelta(days=2))
    review(app, world.student, "UT:capital", due - dt.timedelta(days=30), verdict=Verdict.WRONG)
    with app.app_context():
        stability = dict(
            db.session.execute(select(ReviewLog.fact_key, ReviewLog.stability_after)).all()
        )
    co = srs.recall(stability["CO:capital"], due - dt.timedelta(days=2), due, "UTC")
    ut = srs.recall(stability["UT:capital"], due - dt.timedelta(days=30), due, "UTC")
    assert co >= 0.5 > ut  # what the test is about: one fact met, one missed on the due date
    page = teacher_page(world, aid)
    assert "Overdue" in page and "1 of 2 facts at the goal" in page
    # Caught up after the due date: done late. The CO review stays the one the goal is judged on.
    review(app, world.student, "UT:capital", now - dt.timedelta(minutes=5), token="late")
    page = teacher_page(world, aid)
    assert "Done late" in page and "2 of 2 facts at the goal (1 late)" in page
    # A slip after the due date does not change what was met on it (recall right after a review is 1).
    review(
        app,
        world.student,
        "CO:capital",
        now - dt.timedelta(minutes=4),
        verdict=Verdict.WRONG,
        token="oops",
    )
    assert "2 of 2 facts at the goal (1 late)" in teacher_page(world, aid)


def test_a_students_page_shows_their_assignments(world, app):
    make_assignment(app, world.class_a, quantity=2)
    finished_state_iq(app, world.student.id, utcnow() - dt.timedelta(hours=1), "g")
    html = (
        world.client("teacher")
        .get(f"/teach/classes/{world.class_a}/students/{world.student.id}")
        .get_data(as_text=True)
    )
    assert (
        "Assignments" in html
        and "Practice" in html
        and "1 of 2 rounds" in html
        and "In progress" in html
    )
