"""Input guards (issue 18, section 4: no input gives a 500): unreadable characters, numbers in
other scripts' digits, ids beyond the integer range, NaN and infinities, unknown choices.

Each class of input is refused in one place for the whole app (``trainer.web.guards``, the forms);
the url_map fuzz test (``test_fuzz.py``) checks that every route holds. These tests pin the
instances the issue named, with the clear message and nothing changed.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, text

from tests.web.test_access import _dump
from tests.web.test_teach import World, post
from trainer.web.extensions import db
from trainer.web.guards import MAX_ID, UNREADABLE_MESSAGE, BoundedIntConverter, whole_number
from trainer.web.models import Assignment, CardGame, ComboMatchGame, SchoolClass, Tournament, utcnow

NUL = "\x00"


def refused_as_unreadable(response) -> bool:
    return response.status_code == 400 and UNREADABLE_MESSAGE in response.get_data(as_text=True)


def student_token(client: FlaskClient, url: str, data: dict[str, str]) -> str:
    """Start a round or game through its real form; the token of the page it sends the student to."""
    response = post(client, url, data)
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    return response.location.split("?")[0].rstrip("/").rsplit("/", 1)[1]


# --- Unreadable characters: refused before any view, on every database ------------------------


def _assignment_form(student_id: int, **fields: str) -> dict[str, str]:
    today = utcnow().date()
    return {
        "activities": "state-iq",
        "amount": "rounds",
        "quantity": "3",
        "starts_on": (today + dt.timedelta(days=2)).isoformat(),
        "due_on": (today + dt.timedelta(days=9)).isoformat(),
        "who": "everyone",
        **fields,
    }


#: (who, method, url, form): each carried a NUL into SQL (a 500 on PostgreSQL) before the guard.
#: {a} is the teacher's class, {s} the student's id; tokens are made by the test.
NUL_REQUESTS = [
    (None, "POST", "/auth/login", {"username": f"river{NUL}", "password": "correct horse"}),
    (
        None,
        "POST",
        "/auth/signup",
        {
            "username": f"new{NUL}kid",
            "password": "a long passphrase",
            "confirm": "a long passphrase",
            "role": "student",
        },
    ),
    ("student", "POST", "/teach/join", {"code": f"ABCD{NUL}EFGH"}),
    ("student", "GET", "/teach/join/ABCD%00EFGH", None),
    ("student", "GET", "/play/games/%00abc", None),
    ("student", "GET", "/study/rounds/x%00y/1", None),
    ("student", "GET", "/deck/?sort=size%00", None),
    ("teacher", "POST", "/teach/", {"name": f"Room{NUL}13"}),
    (
        "teacher",
        "POST",
        "/teach/classes/{a}/settings",
        {"name": f"Room{NUL}12", "desired_retention": "", "new_per_day": ""},
    ),
    (
        "teacher",
        "POST",
        "/teach/classes/{a}/assignments/new",
        _assignment_form(0, title=f"Maps{NUL}"),
    ),
    (
        "teacher",
        "POST",
        "/teach/classes/{a}/tournaments/new",
        {"name": f"Cup{NUL}", "teams": "random"},
    ),
    (
        "teacher",
        "POST",
        "/teach/classes/{a}/students/new",
        {"names": f"Ann Lee\nBo{NUL} Chen", "batch": "b1"},
    ),
    (
        "student",
        "POST",
        "/study/settings",
        {"desired_retention": "90", "new_per_day": "20", "time_zone": f"UTC{NUL}"},
    ),
]


@pytest.mark.parametrize(
    ("who", "method", "url", "form"), NUL_REQUESTS, ids=[f"{m}-{u}" for _, m, u, _ in NUL_REQUESTS]
)
def test_a_nul_byte_is_refused_before_any_view_and_changes_nothing(
    world: World, who, method, url, form
):
    client = world.client(who)
    url = url.format(a=world.class_a, s=world.student.id)
    before = _dump(world.app)
    response = client.get(url) if method == "GET" else post(client, url, form)
    assert refused_as_unreadable(response), (
        response.status_code,
        response.get_data(as_text=True)[:300],
    )
    assert _dump(world.app) == before


@pytest.mark.parametrize(
    ("start", "data", "answer_field"),
    [
        ("/play/state-iq/", {"level": "easy"}, "answer"),
        ("/play/dashing-states/", {"level": "practice"}, "name-1"),
        ("/play/border-up/", {"level": "easy"}, "group-CO"),
    ],
)
def test_a_typed_answer_with_a_nul_byte_is_refused_and_the_round_goes_on(
    world: World, start, data, answer_field
):
    """A Dashing States call that failed after it committed lost the round's answers (section 2):
    the text never gets that far now."""
    client = world.client("student")
    token = student_token(client, start, data)
    url = f"{start}{token}"
    before = _dump(world.app)
    response = post(client, url, {answer_field: f"Ohio{NUL}", "turn": "0", "place-0": "aside"})
    assert refused_as_unreadable(response)
    assert _dump(world.app) == before


def test_a_study_answer_with_a_nul_byte_is_refused(world: World):
    client = world.client("student")
    response = post(client, "/study/rounds", {})
    url = response.location
    before = _dump(world.app)
    assert refused_as_unreadable(post(client, url, {"answer": f"Ohio{NUL}", "elapsed_ms": "900"}))
    assert _dump(world.app) == before


@pytest.mark.parametrize("character", ["\x01", "\x08", "\x0b", "\x1b", "\x1f"])
def test_other_control_characters_in_a_form_are_refused(world: World, character: str):
    client = world.client("teacher")
    before = _dump(world.app)
    response = post(client, "/teach/", {"name": f"Room{character}13"})
    assert refused_as_unreadable(response)
    assert _dump(world.app) == before


def test_tabs_and_line_breaks_in_a_form_are_read(world: World):
    """A pasted list of names has line breaks (and a spreadsheet's tabs): they are text, not refused."""
    response = post(world.client("teacher"), "/teach/", {"name": "Room\t13\r\n"})
    assert response.status_code == 302
    with world.app.app_context():
        assert (
            db.session.execute(
                select(SchoolClass.name).where(
                    SchoolClass.teacher_id == world.teacher.id, SchoolClass.id != world.class_a
                )
            ).scalar_one()
            == "Room 13"
        )


def test_a_control_character_in_a_form_field_name_is_refused(world: World):
    response = post(world.client("teacher"), "/teach/", {"name": "Room 13", f"x{NUL}": "y"})
    assert refused_as_unreadable(response)


def test_the_guard_runs_before_every_other_hook(app: Flask, world: World):
    """Before the CSRF check, the rate limiter and anything later added: nothing that could read
    the database (a hook loading the signed-in user's session, a view) sees the text first."""
    from trainer.web import guards

    assert app.before_request_funcs[None][0] is guards.refuse_unreadable
    assert refused_as_unreadable(
        world.client("teacher").get(f"/teach/classes/{world.class_a}?x=%00")
    )


def test_the_refusal_is_json_for_a_json_client(world: World):
    response = world.client(None).get("/deck/?zone=%00", headers={"Accept": "application/json"})
    assert response.status_code == 400 and response.is_json
    assert response.json["message"] == UNREADABLE_MESSAGE


# --- Numbers: ASCII digits only, in range ---------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("0", 0),
        ("7", 7),
        (" 12 ", 12),
        ("007", 7),
        ("999999999", 999_999_999),
        ("²", None),
        ("٣", None),
        ("１", None),
        ("1_000", None),
        ("-1", None),
        ("+1", None),
        ("1.0", None),
        ("1e3", None),
        ("", None),
        (None, None),
        ("1000000000", None),
        (str(2**63), None),
        ("x" * 10_000, None),
    ],
)
def test_whole_number_takes_ascii_digits_only(raw, expected):
    assert whole_number(raw) == expected


def test_whole_number_keeps_to_its_range():
    assert whole_number("5", lo=1, hi=5) == 5
    assert whole_number("6", lo=1, hi=5) is None
    assert whole_number("0", lo=1) is None
    assert "²".isdigit()  # why str.isdigit is not enough


@pytest.fixture
def card_game(world: World) -> tuple[FlaskClient, str]:
    client = world.client("student")
    token = student_token(
        client,
        "/play/games/",
        {"game": "geography-war", "players": "2", "team_size": "1", "level": "easy"},
    )
    return client, f"/play/games/{token}"


def _ply(app: Flask, url: str) -> int:
    with app.app_context():
        return db.session.execute(
            select(CardGame.ply).where(CardGame.token == url.rsplit("/", 1)[1])
        ).scalar_one()


@pytest.mark.parametrize("digits", ["²", "٣", "¹²", str(2**63)])
@pytest.mark.parametrize("field", ["ply", "action", "battles"])
def test_a_card_game_move_in_other_digits_changes_nothing(
    world: World, card_game, field: str, digits: str
):
    client, url = card_game
    ply = _ply(world.app, url)
    before = _dump(world.app)
    response = post(client, url, {"ply": str(ply), "action": "0", field: digits})
    assert response.status_code == 302
    if (
        field == "battles"
    ):  # the ply is right and there is no number of battles: one move, one action
        assert _ply(world.app, url) >= ply
    else:
        assert _dump(world.app) == before


@pytest.mark.parametrize("digits", ["²", "٣", str(2**31)])
def test_a_state_iq_turn_in_other_digits_changes_nothing(world: World, digits: str):
    client = world.client("student")
    token = student_token(client, "/play/state-iq/", {"level": "easy"})
    before = _dump(world.app)
    response = post(client, f"/play/state-iq/{token}", {"turn": digits, "answer": "Ohio"})
    assert response.status_code in (302, 400)
    assert _dump(world.app) == before


@pytest.mark.parametrize("digits", ["²", "٠", str(2**63)])
@pytest.mark.parametrize("step", ["next", "stop"])
def test_a_combo_position_in_other_digits_changes_nothing(world: World, digits: str, step: str):
    client = world.client("student")
    token = student_token(client, "/play/combo/", {"format": "morning", "level": "easy"})
    before = _dump(world.app)
    response = post(client, f"/play/combo/{token}/{step}", {"position": digits})
    assert response.status_code == 302
    if step == "next":
        assert _dump(world.app) == before


def test_the_combo_position_in_ascii_digits_deals(world: World):
    """The control for the refusals above: position 0 deals the first game."""
    client = world.client("student")
    token = student_token(client, "/play/combo/", {"format": "morning", "level": "easy"})
    assert post(client, f"/play/combo/{token}/next", {"position": "0"}).status_code == 302
    with world.app.app_context():
        assert (
            db.session.execute(select(func.count()).select_from(ComboMatchGame)).scalar_one() == 1
        )


# --- Ids beyond the integer range: not found ---------------------------------------------------


@pytest.mark.parametrize(
    "ident",
    [
        str(2**31),
        str(2**31 - 1),
        str(2**63),
        str(2**64),
        "9" * 400,
        "٣",
        "-1",
        "00000000000000000001x",
    ],
)
@pytest.mark.parametrize(
    "path",
    [
        "/teach/classes/{}",
        "/teach/classes/{}/settings",
        "/teach/classes/{a}/students/{}",
        "/teach/classes/{a}/assignments/{}",
        "/teach/tournaments/{}",
        "/progress/classes/{}",
        "/assignments/{}",
        "/tournaments/{}/matches/1",
    ],
)
def test_an_id_beyond_the_integer_range_is_not_found(world: World, path: str, ident: str):
    who = "student" if path.startswith(("/assignments", "/tournaments")) else "teacher"
    response = world.client(who).get(path.replace("{a}", str(world.class_a)).format(ident))
    assert response.status_code == 404


def test_an_id_beyond_the_integer_range_is_not_found_on_a_post(world: World):
    client = world.client("teacher")
    before = _dump(world.app)
    response = post(client, f"/teach/classes/{2**31}/joining", {"joining": "closed"})
    assert response.status_code == 404
    assert _dump(world.app) == before


def test_an_id_at_the_top_of_the_range_is_still_matched(app: Flask):
    """A real id up to 2**31-1 is a URL as before; one past it is none (a 404, not a query)."""
    adapter = app.url_map.bind("localhost")
    endpoint, args = adapter.match(f"/teach/classes/{MAX_ID}")
    assert (endpoint, args) == ("teach.class_page", {"class_id": MAX_ID})
    assert isinstance(app.url_map.converters["int"](app.url_map), BoundedIntConverter)
    with app.test_request_context():
        from flask import url_for

        assert url_for("teach.class_page", class_id=12) == "/teach/classes/12"


# --- Not a number: NaN and infinities in the settings ----------------------------------------------


@pytest.mark.parametrize(
    ("raw", "finite"),
    [("90", True), ("sNaN", False), ("NaN", False), ("-Infinity", False), ("1e999999", True)],
)
def test_finite_number_stops_validation_before_a_comparison_can_raise(raw: str, finite: bool):
    from werkzeug.datastructures import MultiDict
    from wtforms import DecimalField, Form
    from wtforms.validators import NumberRange

    from trainer.web.guards import FiniteNumber

    class Percent(Form):
        value = DecimalField(
            validators=[
                FiniteNumber("Type a number."),
                NumberRange(min=70, max=97, message="Type a number."),
            ]
        )

    form = Percent(MultiDict({"value": raw}))
    assert form.validate() is (finite and raw == "90")
    assert form.value.errors == ([] if raw == "90" else ["Type a number."])


@pytest.mark.parametrize("value", ["sNaN", "NaN", "-nan", "inf", "-Infinity", "1e999999", "²"])
def test_study_settings_refuse_nan_and_infinity(world: World, value: str):
    client = world.client("student")
    before = _dump(world.app)
    response = post(
        client,
        "/study/settings",
        {"desired_retention": value, "new_per_day": "20", "time_zone": ""},
    )
    assert response.status_code == 400
    assert "Type a number from 70 to 97." in response.get_data(as_text=True)
    assert _dump(world.app) == before


@pytest.mark.parametrize("value", ["sNaN", "NaN", "Infinity", "-inf", "lots"])
def test_class_settings_refuse_nan_and_infinity_p_s1(world: World, value: str):
    client = world.client("teacher")
    before = _dump(world.app)
    data = {"name": "Room 12", "desired_retention": value, "new_per_day": "20"}
    response = post(client, f"/teach/classes/{world.class_a}/settings", data)
    assert response.status_code == 400
    assert "Type a whole number from 70 to 97, or leave it empty." in response.get_data(
        as_text=True
    )
    assert _dump(world.app) == before


# --- Choices that are no choice -------------------------------------------------------------------


@pytest.mark.parametrize("facet", ["planets", "MAP", "", "map\u200b"])
def test_an_assignment_with_an_unknown_facet_is_explained_and_saves_nothing_p_a1(
    world: World, facet: str
):
    client = world.client("teacher")
    before = _dump(world.app)
    form = _assignment_form(0)
    form["facets"] = ["capital", facet]  # type: ignore[assignment]
    response = post(client, f"/teach/classes/{world.class_a}/assignments/new", form)
    assert response.status_code == 400
    assert "Tick the facts from the list." in response.get_data(as_text=True)
    assert _dump(world.app) == before


def test_an_assignment_with_known_facets_is_set(world: World):
    """The control: the same form with facts from the list."""
    form = _assignment_form(0)
    form["facets"] = ["capital", "postal"]  # type: ignore[assignment]
    response = post(
        world.client("teacher"), f"/teach/classes/{world.class_a}/assignments/new", form
    )
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]
    with world.app.app_context():
        assert db.session.execute(select(func.count()).select_from(Assignment)).scalar_one() == 1


def test_a_tournament_team_choice_in_other_digits_is_refused(world: World):
    client = world.client("teacher")
    before = _dump(world.app)
    response = post(
        client,
        f"/teach/classes/{world.class_a}/tournaments/new",
        {"name": "Cup", "teams": "manual", f"team_{world.student.id}": "²"},
    )
    assert response.status_code == 400
    assert _dump(world.app) == before
    with world.app.app_context():
        assert db.session.execute(select(func.count()).select_from(Tournament)).scalar_one() == 0


# --- A failed teacher request still gets the site's 500 page -----------------------------------------


@pytest.mark.app_config(PROPAGATE_EXCEPTIONS=False)
def test_the_error_page_renders_after_a_failed_statement(app: Flask, world: World):
    """PostgreSQL refuses every statement after a failed one until the transaction is rolled back;
    the error page (which names the signed-in user) must not be the next statement to fail."""
    from flask import Blueprint

    from trainer.web.security import teacher_required

    bp = Blueprint("guard_failure", __name__)

    @bp.get("/_test/fails")
    @teacher_required
    def fails():
        db.session.execute(text("SELECT * FROM no_such_table"))
        return "unreachable"

    app.register_blueprint(bp)
    response = world.client("teacher").get("/_test/fails")
    assert response.status_code == 500
    assert "error-page" in response.get_data(
        as_text=True
    )  # the site's page, not the server's bare one


def test_decimal_nan_is_why_the_settings_crashed():
    """The crash the FiniteNumber validator prevents: a signalling NaN cannot even be compared."""
    with pytest.raises(InvalidOperation):
        _ = Decimal("sNaN") < 70
    assert re.fullmatch(r"\d", "٣")  # why the URL converter matches [0-9], not \d
