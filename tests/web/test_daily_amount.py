"""The daily amount (P-D1, P-D2) and what the study home says in each state (P-D3), through the pages."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import inspect, select, text

from tests.conftest import csrf_token
from tests.web.migrations import databases, empty_database
from tests.web.test_security import assert_strict_page
from tests.web.test_study import WEAK_AND_STRONG, _known
from tests.web.test_teach import World, add_member, make_class, set_class, settings_of
from trainer import srs
from trainer.daily import DailyAmount, Unit
from trainer.facts import Form, Verdict
from trainer.web.extensions import db
from trainer.web.memory import record
from trainer.web.models import ClassMembership, MemoryCard, SchoolClass, User

HOME = "/study/"
SETTINGS = "/study/settings"


def own_amount(app: Flask, user_id: int) -> tuple[int, str]:
    with app.app_context():
        user = db.session.get(User, user_id)
        return user.daily_amount, user.daily_unit


def class_amount(app: Flask, class_id: int) -> tuple[int | None, str | None]:
    with app.app_context():
        klass = db.session.get(SchoolClass, class_id)
        return klass.daily_amount, klass.daily_unit


def set_own(app: Flask, user_id: int, **columns) -> None:
    with app.app_context():
        user = db.session.get(User, user_id)
        for name, value in columns.items():
            setattr(user, name, value)
        db.session.commit()


def answer_today(
    app: Flask,
    user_id: int,
    key: str,
    n: int,
    *,
    duration_ms: int | None = None,
    mode: str = "state_iq",
) -> None:
    """``n`` right typed answers about ``key`` now, in another mode than study rounds (P-D1: all modes count)."""
    with app.app_context():
        user = db.session.get(User, user_id)
        for i in range(n):
            outcome = srs.Outcome(
                key,
                Verdict.RIGHT,
                mode,
                Form.TYPED,
                f"{mode}:today-{key}",
                str(i),
                duration_ms=duration_ms,
            )
            record(user, outcome)


def home(client: FlaskClient) -> str:
    response = client.get(HOME)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert_strict_page(html)
    return " ".join(html.split())


def progress_bar(html: str) -> tuple[int, int]:
    """The (value, max) of the home's progress bar, which must be labelled by the sentence."""
    match = re.search(
        r'<progress class="daily__bar" max="(\d+)" value="(\d+)" aria-labelledby="daily-progress-text">',
        html,
    )
    assert match, "no labelled progress bar"
    assert 'id="daily-progress-text"' in html
    return int(match.group(2)), int(match.group(1))


def big_button(html: str) -> bool:
    return 'class="button button--big" name="submit"' in html


# --- The study home, state by state (P-D3) -----------------------------------------------------------


@pytest.fixture
def kid(world: World) -> FlaskClient:
    return world.client("loner")  # a student in no class: their own settings apply


def test_a_new_student_is_told_to_learn_their_first_facts(world, kid):
    html = home(kid)
    assert "<strong>0</strong> of 40 answers today" in html
    assert progress_bar(html) == (0, 40)
    assert (
        "You have not met any facts yet. Start studying to learn your first ones: up to <strong>20</strong> new facts today."
        in html
    )
    assert "All done for today" not in html and "Well done" not in html
    assert re.search(r">\s*Start studying\s*</button>", html) and big_button(html)


def test_with_no_new_facts_a_day_a_new_student_is_told_why_there_is_nothing(world, kid):
    set_own(world.app, world.loner.id, new_per_day=0)
    html = home(kid)
    assert (
        "You have not met any facts yet, and new facts per day is 0, so there is nothing to learn today."
        in html
    )
    assert '<a href="/study/settings">Change it in Study settings</a>' in html
    assert "All done for today" not in html


def test_when_the_class_sets_no_new_facts_the_student_is_not_sent_to_settings(world):
    set_class(world.app, world.class_a, new_per_day=0)
    html = home(world.client("student"))
    assert "new facts per day is 0 (set by your class), so there is nothing to learn today." in html
    assert "Change it in Study settings" not in html


def test_due_facts_come_first_then_new_ones(world, kid):
    _known(world.app, world.loner.id, WEAK_AND_STRONG, new_per_day=3)
    with world.app.app_context():
        for key in ("OR:map", "ID:postal"):
            card = db.session.execute(
                select(MemoryCard).where(
                    MemoryCard.student_id == world.loner.id, MemoryCard.fact_key == key
                )
            ).scalar_one()
            card.due = dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)
        db.session.commit()
    html = home(kid)
    assert (
        "<strong>2</strong> facts are due now. Do them first, then <strong>3</strong> new facts."
        in html
    )
    assert "<strong>0</strong> of 40 answers today" in html
    assert "come back tomorrow, with any due fact you leave today" in html
    assert big_button(html) and "Keep practising" not in html


def test_new_facts_are_worth_doing_when_nothing_is_due(world, kid):
    _known(world.app, world.loner.id, WEAK_AND_STRONG, new_per_day=4)
    html = home(kid)
    assert (
        "Nothing is due now: your next review is <strong>in 5 days</strong>. You can learn <strong>4</strong> new facts now."
        in html
    )
    assert "Keep practising" not in html and "All done for today" not in html


def test_only_practice_left_says_how_many_answers_are_left_to_todays_amount(world, kid):
    _known(world.app, world.loner.id, WEAK_AND_STRONG)
    answer_today(world.app, world.loner.id, "OR:map", 3)
    html = home(kid)
    assert "<strong>3</strong> of 40 answers today" in html
    assert progress_bar(html) == (3, 40)
    assert "Nothing is due now and no new facts are left for today. Your next review is" in html
    assert "Keep practising: <strong>37</strong> more answers to reach today’s amount." in html
    assert re.search(r">\s*Keep practising\s*</button>", html) and big_button(html)
    assert "Well done" not in html


def test_only_practice_left_in_minutes_says_the_minutes_and_about_how_many_answers(world, kid):
    """P-D1: 24 answers of 25 s and 5 s of reading each are 12 minutes; 8 minutes left at 15 s an answer is 32 answers."""
    set_own(world.app, world.loner.id, daily_amount=20, daily_unit="minutes")
    _known(world.app, world.loner.id, WEAK_AND_STRONG)
    answer_today(world.app, world.loner.id, "OR:map", 24, duration_ms=25_000)
    html = home(kid)
    assert "<strong>12</strong> of 20 minutes today" in html
    assert progress_bar(html) == (12, 20)
    assert (
        "Keep practising: <strong>8</strong> more minutes (about 32 answers) to reach today’s amount."
        in html
    )


def test_untimed_answers_count_ten_seconds_and_the_card_five(world, kid):
    """P-D1: most game modes store no time; 40 of their answers are 10 minutes, not 0."""
    set_own(world.app, world.loner.id, daily_amount=10, daily_unit="minutes")
    answer_today(world.app, world.loner.id, "CO:capital", 39, mode="dashing")
    assert "<strong>9</strong> of 10 minutes today" in home(kid)
    answer_today(world.app, world.loner.id, "UT:capital", 1, mode="border_up")
    assert "You’ve done today’s 10 minutes. Well done!" in home(kid)


def test_once_the_amount_is_reached_the_student_is_praised_and_may_go_on(world, kid):
    set_own(world.app, world.loner.id, daily_amount=5, daily_unit="answers")
    _known(world.app, world.loner.id, WEAK_AND_STRONG)
    answer_today(world.app, world.loner.id, "OR:map", 6)
    html = home(kid)
    assert "You’ve done today’s 5 answers. Well done!" in html
    assert re.search(
        r"Tomorrow <strong>\d+</strong> facts? comes? back\.|No fact is planned to come back tomorrow\.",
        html,
    )
    assert "<strong>6</strong> answers today (today’s amount: 5)." in html
    assert progress_bar(html) == (5, 5)
    # Going on stays offered, not pushed: the same button, not the big one, and no count of what is left.
    assert re.search(r">\s*Keep practising\s*</button>", html) and not big_button(html)
    assert "more answers to reach" not in html and "All done for today" not in html


def test_reached_with_facts_still_due_says_they_come_first_if_the_student_goes_on(world, kid):
    set_own(world.app, world.loner.id, daily_amount=5, daily_unit="answers")
    _known(world.app, world.loner.id, WEAK_AND_STRONG, new_per_day=2)
    answer_today(world.app, world.loner.id, "OR:map", 5)
    with world.app.app_context():
        card = db.session.execute(
            select(MemoryCard).where(
                MemoryCard.student_id == world.loner.id, MemoryCard.fact_key == "CO:capital"
            )
        ).scalar_one()
        card.due = dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)
        db.session.commit()
    html = home(kid)
    assert "You’ve done today’s 5 answers. Well done!" in html
    assert (
        "<strong>1</strong> fact is due now. If you go on, it comes first, then new facts." in html
    )
    assert "with any due fact you leave today" in html
    assert re.search(r">\s*Start studying\s*</button>", html) and not big_button(html)


def test_reached_with_only_new_facts_left_offers_them_without_pushing(world, kid):
    set_own(world.app, world.loner.id, daily_amount=5, daily_unit="answers")
    _known(world.app, world.loner.id, WEAK_AND_STRONG, new_per_day=3)
    answer_today(world.app, world.loner.id, "OR:map", 5)
    html = home(kid)
    assert "You can still learn <strong>3</strong> new facts today if you like." in html
    assert not big_button(html)


def test_nothing_at_all_to_practise_is_said_with_the_progress(world, kid):
    _known(world.app, world.loner.id, {"OR:map": (200.0, 0)})
    html = home(kid)
    assert "<strong>1</strong> of 40 answers today" in html
    assert (
        "You have answered every fact you have met today, so there is nothing to practise now. Come back tomorrow."
        in html
    )
    assert "more answers to reach" not in html and "Keep practising" not in html


def test_answers_of_yesterday_do_not_count_today(world, kid):
    """P-D1: today's study day only (every _known answer was recorded days ago)."""
    _known(world.app, world.loner.id, WEAK_AND_STRONG)
    assert "<strong>0</strong> of 40 answers today" in home(kid)


def test_the_home_says_when_the_class_sets_the_amount(world):
    set_class(world.app, world.class_a, daily_amount=20, daily_unit="minutes")
    html = home(world.client("student"))
    assert "<strong>0</strong> of 20 minutes today" in html
    assert "20 minutes a day, set by your class" in html


# --- The student's setting (P-D1) --------------------------------------------------------------------


def settings_form(client: FlaskClient, **changes: str | None) -> dict[str, str]:
    data = {
        "csrf_token": csrf_token(client, SETTINGS),
        "desired_retention": "90",
        "new_per_day": "20",
        "time_zone": "",
        "multiple_choice": "y",
        "daily_amount": "40",
        "daily_unit": "answers",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_a_new_account_studies_40_answers_a_day(world, kid):
    assert own_amount(world.app, world.loner.id) == (40, "answers")
    page = kid.get(SETTINGS).get_data(as_text=True)
    assert 'name="daily_amount"' in page and 'value="40"' in page
    assert '<option selected value="answers">answers</option>' in page


@pytest.mark.parametrize(
    ("amount", "unit"),
    [("25", "minutes"), ("5", "minutes"), ("90", "minutes"), ("200", "answers"), ("5", "answers")],
)
def test_the_daily_amount_is_saved(world, kid, amount, unit):
    response = kid.post(SETTINGS, data=settings_form(kid, daily_amount=amount, daily_unit=unit))
    assert response.status_code == 302
    assert own_amount(world.app, world.loner.id) == (int(amount), unit)
    page = kid.get(SETTINGS).get_data(as_text=True)
    assert (
        f'value="{amount}"' in page and f'<option selected value="{unit}">{unit}</option>' in page
    )


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"daily_unit": "hours"}, "Choose answers or minutes."),
        ({"daily_unit": ""}, "Choose answers or minutes."),
        ({"daily_unit": None}, "Choose answers or minutes."),
        ({"daily_amount": "4"}, "Type a number from 5 to 200 for answers."),
        ({"daily_amount": "201"}, "Type a number from 5 to 200 for answers."),
        (
            {"daily_amount": "91", "daily_unit": "minutes"},
            "Type a number from 5 to 90 for minutes.",
        ),
        (
            {"daily_amount": "200", "daily_unit": "minutes"},
            "Type a number from 5 to 90 for minutes.",
        ),
        ({"daily_amount": "0", "daily_unit": "minutes"}, "Type a number from 5 to 90 for minutes."),
        ({"daily_amount": "NaN"}, "Type a whole number: 5 to 200 answers or 5 to 90 minutes."),
        ({"daily_amount": "inf"}, "Type a whole number: 5 to 200 answers or 5 to 90 minutes."),
        ({"daily_amount": "12.5"}, "Type a whole number: 5 to 200 answers or 5 to 90 minutes."),
        ({"daily_amount": "-10"}, "Type a whole number: 5 to 200 answers or 5 to 90 minutes."),
        ({"daily_amount": "٣٠"}, "Type a whole number: 5 to 200 answers or 5 to 90 minutes."),
        ({"daily_amount": "1_000"}, "Type a whole number: 5 to 200 answers or 5 to 90 minutes."),
        (
            {"daily_amount": "99999999999999999999"},
            "Type a whole number: 5 to 200 answers or 5 to 90 minutes.",
        ),
        ({"daily_amount": ""}, "Type a whole number: 5 to 200 answers or 5 to 90 minutes."),
        ({"daily_amount": None}, "Type a whole number: 5 to 200 answers or 5 to 90 minutes."),
    ],
)
def test_a_wrong_daily_amount_is_explained_and_changes_nothing(world, kid, changes, message):
    response = kid.post(SETTINGS, data=settings_form(kid, new_per_day="7", **changes))
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert message in html
    assert "Not a valid" not in html
    assert_strict_page(html)
    assert own_amount(world.app, world.loner.id) == (40, "answers")
    with world.app.app_context():
        assert db.session.get(User, world.loner.id).new_per_day == 20


def test_the_settings_page_says_when_the_class_sets_the_amount(world):
    client = world.client("student")
    assert "data-class-daily-amount" not in client.get(SETTINGS).get_data(as_text=True)
    set_class(world.app, world.class_a, daily_amount=60, daily_unit="answers")
    html = client.get(SETTINGS).get_data(as_text=True)
    assert "Your class sets how much to study each day: 60 answers." in html
    # The student's own choice is still saved, and kept for when no class sets one.
    assert (
        client.post(
            SETTINGS, data=settings_form(client, daily_amount="15", daily_unit="minutes")
        ).status_code
        == 302
    )
    assert own_amount(world.app, world.student.id) == (15, "minutes")
    assert settings_of(world.app, world.student.id).daily_amount == DailyAmount(60, Unit.ANSWERS)


# --- A class's daily amount overrides the students' own (P-D2) ---------------------------------------


def test_without_a_class_amount_the_students_own_is_used_p_d2(world):
    set_own(world.app, world.student.id, daily_amount=15, daily_unit="minutes")
    settings = settings_of(world.app, world.student.id)
    assert (settings.daily_amount, settings.daily_amount_from_class) == (
        DailyAmount(15, Unit.MINUTES),
        False,
    )


@pytest.mark.parametrize(
    ("own", "klass"), [((15, "minutes"), (20, "answers")), ((10, "answers"), (80, "answers"))]
)
def test_a_class_amount_overrides_the_students_own_higher_or_lower_p_d2(world, own, klass):
    set_own(world.app, world.student.id, daily_amount=own[0], daily_unit=own[1])
    set_class(world.app, world.class_a, daily_amount=klass[0], daily_unit=klass[1])
    settings = settings_of(world.app, world.student.id)
    assert (settings.daily_amount, settings.daily_amount_from_class) == (
        DailyAmount(klass[0], Unit(klass[1])),
        True,
    )
    # Only the daily amount comes from the class.
    assert not settings.retention_from_class and not settings.new_per_day_from_class


@pytest.mark.parametrize(
    ("first", "second", "used"),
    [
        ((60, "answers"), (12, "minutes"), (60, "answers")),  # 60 answers are 15 minutes
        ((60, "answers"), (20, "minutes"), (20, "minutes")),
        ((40, "answers"), (10, "minutes"), (40, "answers")),  # a tie: answers win
        ((10, "minutes"), (40, "answers"), (40, "answers")),
        ((30, "answers"), (None, None), (30, "answers")),  # a class that sets none does not count
    ],
)
def test_in_several_classes_the_most_study_wins_compared_as_time_p_d2(world, first, second, used):
    set_class(world.app, world.class_a, daily_amount=first[0], daily_unit=first[1])
    other = make_class(
        world.app,
        world.other_teacher.id,
        "Club",
        "QRSTUVW3",
        daily_amount=second[0],
        daily_unit=second[1],
    )
    add_member(world.app, other, world.student.id)
    assert settings_of(world.app, world.student.id).daily_amount == DailyAmount(
        used[0], Unit(used[1])
    )


def test_the_daily_amount_and_the_other_settings_may_come_from_different_classes_p_d2(world):
    set_class(world.app, world.class_a, desired_retention=0.95)
    other = make_class(
        world.app, world.other_teacher.id, "Club", "QRSTUVW3", daily_amount=25, daily_unit="minutes"
    )
    add_member(world.app, other, world.student.id)
    settings = settings_of(world.app, world.student.id)
    assert settings.desired_retention == pytest.approx(
        0.95
    ) and settings.daily_amount == DailyAmount(25, Unit.MINUTES)


def test_leaving_the_class_ends_its_amount_p_d2(world):
    set_own(world.app, world.student.id, daily_amount=15, daily_unit="minutes")
    set_class(world.app, world.class_a, daily_amount=100, daily_unit="answers")
    assert settings_of(world.app, world.student.id).daily_amount == DailyAmount(100, Unit.ANSWERS)
    with world.app.app_context():
        db.session.execute(
            ClassMembership.__table__.delete().where(ClassMembership.student_id == world.student.id)
        )
        db.session.commit()
    assert settings_of(world.app, world.student.id).daily_amount == DailyAmount(15, Unit.MINUTES)


def test_a_class_amount_counts_on_the_students_home(world):
    """P-D2 in the page: a student with their own 5 answers, in a class asking 10 minutes."""
    set_own(world.app, world.student.id, daily_amount=5, daily_unit="answers")
    set_class(world.app, world.class_a, daily_amount=10, daily_unit="minutes")
    answer_today(world.app, world.student.id, "CO:capital", 6)
    html = home(world.client("student"))
    assert "<strong>1</strong> of 10 minutes today" in html and "Well done" not in html


# --- The class settings page ------------------------------------------------------------------------


def class_url(world: World, class_id: int | None = None) -> str:
    return f"/teach/classes/{class_id or world.class_a}/settings"


def class_form(client: FlaskClient, url: str, **changes: str | None) -> dict[str, str]:
    data = {
        "csrf_token": csrf_token(client, url),
        "name": "Room 12",
        "desired_retention": "",
        "new_per_day": "",
        "daily_amount": "",
        "daily_unit": "answers",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_a_teacher_sets_and_empties_the_class_amount(world):
    client = world.client("teacher")
    url = class_url(world)
    page = client.get(url).get_data(as_text=True)
    assert_strict_page(page)
    assert "an answer counts as 15 seconds, so 40 answers is 10 minutes" in page
    assert (
        client.post(
            url, data=class_form(client, url, daily_amount="30", daily_unit="minutes")
        ).status_code
        == 302
    )
    assert class_amount(world.app, world.class_a) == (30, "minutes")
    page = client.get(url).get_data(as_text=True)
    assert 'value="30"' in page and '<option selected value="minutes">minutes</option>' in page
    assert "Daily amount: <strong>30 minutes</strong>." in client.get(
        f"/teach/classes/{world.class_a}"
    ).get_data(as_text=True)
    # Empty: each student's own, whatever the unit says.
    assert (
        client.post(
            url, data=class_form(client, url, daily_amount="", daily_unit="minutes")
        ).status_code
        == 302
    )
    assert class_amount(world.app, world.class_a) == (None, None)
    assert "Each student chooses how much to study each day." in client.get(
        f"/teach/classes/{world.class_a}"
    ).get_data(as_text=True)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"daily_amount": "30", "daily_unit": "hours"}, "Choose answers or minutes."),
        ({"daily_amount": "30", "daily_unit": None}, "Choose answers or minutes."),
        ({"daily_amount": "30", "daily_unit": ""}, "Choose answers or minutes."),
        (
            {"daily_amount": "95", "daily_unit": "minutes"},
            "Type a number from 5 to 90 for minutes.",
        ),
        ({"daily_amount": "3"}, "Type a number from 5 to 200 for answers."),
        (
            {"daily_amount": "NaN"},
            "Type a whole number: 5 to 200 answers or 5 to 90 minutes, or leave it empty.",
        ),
        (
            {"daily_amount": "sNaN"},
            "Type a whole number: 5 to 200 answers or 5 to 90 minutes, or leave it empty.",
        ),
        (
            {"daily_amount": "lots"},
            "Type a whole number: 5 to 200 answers or 5 to 90 minutes, or leave it empty.",
        ),
    ],
)
def test_a_wrong_class_amount_is_explained_and_changes_nothing(world, changes, message):
    set_class(world.app, world.class_a, daily_amount=50, daily_unit="answers")
    client = world.client("teacher")
    url = class_url(world)
    response = client.post(url, data=class_form(client, url, name="Room 12 renamed", **changes))
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert message in html and "Not a valid" not in html
    assert class_amount(world.app, world.class_a) == (50, "answers")
    with world.app.app_context():
        assert db.session.get(SchoolClass, world.class_a).name == "Room 12"


@pytest.mark.parametrize(
    ("who", "status"),
    [(None, 302), ("student", 403), ("other_student", 403), ("other_teacher", 404)],
)
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_only_the_classs_teacher_may_see_or_set_its_amount(world, who, status, method):
    client = world.client(who)
    url = class_url(world)
    if method == "GET":
        response = client.get(url)
    else:
        # A CSRF token from a page this visitor may see, so the refusal is about who they are.
        token = csrf_token(
            client,
            "/auth/login" if who is None else ("/teach/" if who == "other_teacher" else SETTINGS),
        )
        response = client.post(
            url,
            data={
                "csrf_token": token,
                "name": "Taken over",
                "daily_amount": "90",
                "daily_unit": "minutes",
            },
        )
    assert response.status_code == status
    if status == 302:
        assert response.headers["Location"].startswith("/auth/login?next=")
    assert class_amount(world.app, world.class_a) == (None, None)
    with world.app.app_context():
        assert db.session.get(SchoolClass, world.class_a).name == "Room 12"


def test_a_teacher_cannot_set_the_amount_of_another_teachers_class(world):
    client = world.client("teacher")
    url = class_url(world, world.class_b)
    token = csrf_token(client, class_url(world))
    response = client.post(
        url,
        data={"csrf_token": token, "name": "Room 7", "daily_amount": "90", "daily_unit": "minutes"},
    )
    assert response.status_code == 404
    assert class_amount(world.app, world.class_b) == (None, None)


def test_the_class_settings_form_needs_its_csrf_token(world):
    client = world.client("teacher")
    response = client.post(
        class_url(world), data={"name": "Room 12", "daily_amount": "30", "daily_unit": "minutes"}
    )
    assert response.status_code == 400
    assert class_amount(world.app, world.class_a) == (None, None)


# --- Migration 0018 up and down -----------------------------------------------------------------------


def _columns(table: str) -> set[str]:
    return {column["name"] for column in inspect(db.engine).get_columns(table)}


@pytest.mark.parametrize("database", databases())
def test_migration_0018_adds_the_amounts_and_takes_them_away_keeping_every_row(tmp_path, database):
    from flask_migrate import downgrade, upgrade

    with empty_database(tmp_path, database):
        upgrade(revision="0017_assignment_test_date")
        assert "daily_amount" not in _columns("user")
        now = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
        with db.engine.begin() as connection:
            for name, role in (("teach", "teacher"), ("kid", "student")):
                # (The role is a PostgreSQL enum: written in the statement, not bound as a string.)
                connection.execute(
                    text(
                        'INSERT INTO "user" (username, username_key, password_hash, role, created_at, desired_retention, new_per_day, multiple_choice, is_admin)'
                        f" VALUES (:name, :name, 'x', '{role}', :now, 0.9, 20, :yes, :no)"
                    ),
                    {"name": name, "now": now, "yes": True, "no": False},
                )
            ids = dict(connection.execute(text('SELECT username, id FROM "user"')).all())
            connection.execute(
                text(
                    "INSERT INTO school_class (teacher_id, name, join_code, joining_open, created_at) VALUES (:t, 'Room 1', 'ABCDEFGH', :yes, :now)"
                ),
                {"t": ids["teach"], "yes": True, "now": now},
            )
            class_id = connection.execute(text("SELECT id FROM school_class")).scalar_one()
            connection.execute(
                text(
                    "INSERT INTO class_membership (class_id, student_id, joined_at) VALUES (:c, :s, :now)"
                ),
                {"c": class_id, "s": ids["kid"], "now": now},
            )

        upgrade(revision="0018_daily_amount")
        assert {"daily_amount", "daily_unit"} <= _columns("user") and {
            "daily_amount",
            "daily_unit",
        } <= _columns("school_class")
        with db.engine.connect() as connection:
            assert connection.execute(
                text('SELECT daily_amount, daily_unit FROM "user" ORDER BY id')
            ).all() == [(40, "answers"), (40, "answers")]
            assert connection.execute(
                text("SELECT daily_amount, daily_unit FROM school_class")
            ).all() == [(None, None)]

        downgrade(revision="0017_assignment_test_date")
        assert "daily_amount" not in _columns("user") and "daily_unit" not in _columns(
            "school_class"
        )
        with db.engine.connect() as connection:
            # Nothing was lost on the way down (a copied-and-dropped table would cascade).
            assert connection.execute(text('SELECT count(*) FROM "user"')).scalar_one() == 2
            assert connection.execute(text("SELECT count(*) FROM school_class")).scalar_one() == 1
            assert (
                connection.execute(text("SELECT count(*) FROM class_membership")).scalar_one() == 1
            )

        upgrade()
        assert {"daily_amount", "daily_unit"} <= _columns("user")
