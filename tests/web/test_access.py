"""Access control over every route of the app and every role (issue: who may see what).

Teachers see only their own classes and students; a student sees only their own records and
their classes' assignments; anonymous users see only public pages. The routes come from the
app's URL map, so a new route is covered as soon as it exists: it fails here until ``EXPECTED``
says who may use it (a mode's pages: until its web adapter's ``access`` does, which ``EXPECTED``
reads), and, if it takes a new kind of argument, until the world can fill it in.

One world per database, built once for the module, in two sides. "owl": teacher T
("class_teacher") owns class C, with an assignment, and student S ("student"), who owns one
record of every kind that has a URL (study round, State IQ, Dashing States, Border-Up, card game,
Combo 1 match).
C also has a Combo 1 tournament, its first round paired. "fox": teacher T2 ("other_teacher") owns class D, with an assignment, and student S2
("other_student"). Each role keeps the session cookie of one real login; every case starts a
fresh client from it.

A school admin A ("admin") is a teacher with the admin flag and no class: they see the school's
teachers and invite links, and nothing of either side.

Each case checks the status, that the body shows nothing of the other side (usernames, class
names, join codes, assignment titles, record tokens), and, when refused, that the database did
not change. Whatever an allowed request changed (a new game, a removed student...) is put back
afterwards, so the cases do not depend on their order.

CSRF is off for this module (the CSRF checks have their own tests): a POST reaches the view's own
guard, which is what is tested here.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from flask import Flask, url_for
from flask.testing import FlaskClient
from sqlalchemy import Table, event
from werkzeug.routing import Rule

from tests.conftest import database_params, make_test_config, make_user
from trainer.assignments import Scope
from trainer.cards import load_deck
from trainer.web import create_app
from trainer.web.admin import invites
from trainer.web.charts import plotly_version
from trainer.web.extensions import db
from trainer.web.mapsprite import sprite_of
from trainer.web.models import (
    Assignment,
    CardGame,
    ClassGame,
    ClassMembership,
    Role,
    SchoolClass,
    StateIqGame,
    TeacherInvite,
    Tournament,
    TournamentMatch,
    TournamentMember,
    TournamentTeam,
    User,
    utcnow,
)
from trainer.web.modes import Access, access_rules, adapters

PASSWORD = "correct horse"
ROLES = ("anonymous", "student", "other_student", "class_teacher", "other_teacher", "admin")
USERNAMES = {
    "student": "sam_owner_x9",
    "other_student": "olive_other_k3",
    "class_teacher": "tara_teach_m5",
    "other_teacher": "theo_teach_p8",
    "admin": "ada_admin_w2",
}
#: Two sides: teacher T's class C ("owl") with student S; teacher T2's class D ("fox") with student S2.
#: The admin is on neither.
SIDES = {
    "anonymous": None,
    "student": "owl",
    "class_teacher": "owl",
    "other_student": "fox",
    "other_teacher": "fox",
    "admin": None,
}
CLASS_NAME = "Owl Class Zq7"
JOIN_CODE = "QZ7WXH4R"
OTHER_CLASS_NAME = "Fox Class Rb2"
OTHER_JOIN_CODE = "RB2FXK9M"
ASSIGNMENT_TITLE = "Owl Homework Kv4"
TOURNAMENT_NAME = "Owl Cup Wq8"
OTHER_ASSIGNMENT_TITLE = "Fox Homework Jd6"
#: The real name T gave S in class C (issue 24): only T may ever be shown it.
STUDENT_REAL_NAME = "Quilla Marsh-Ybarra"


# --- What each role may do -------------------------------------------------------------------

#: Expectations. OK: the page (200). REDIRECT: sent on to another page of the app (302, not to
#: log in). LOGIN: sent to log in (302 to /auth/login?next=...; a JSON client gets 401). A number:
#: exactly that status. For a POST, OK and REDIRECT both mean "let in": any answer but 401, 403,
#: 404, 405 or a server error (the empty form sent here may well be refused as a form, with 400).
OK, REDIRECT, LOGIN = "ok", "redirect", "login"


def access(
    anonymous: Any,
    student: Any,
    other_student: Any,
    class_teacher: Any,
    other_teacher: Any,
    admin: Any,
) -> dict[str, Any]:
    return dict(
        zip(
            ROLES,
            (anonymous, student, other_student, class_teacher, other_teacher, admin),
            strict=True,
        )
    )


#                            anonymous  student   other_student  class_teacher  other_teacher  admin
PUBLIC = access(OK, OK, OK, OK, OK, OK)
#: Logging in and signing up: someone already logged in is sent on.
ANONYMOUS_ONLY = access(OK, REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT)
ANYONE_SENT_ON = access(REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT, REDIRECT)
#: Anyone logged in, on their own account (changing their password).
ACCOUNT_OWN = access(LOGIN, OK, OK, OK, OK, OK)
#: Any student's own pages with nothing of anyone else's in the URL (study home, game lists...).
STUDENTS = access(LOGIN, OK, OK, 403, 403, 403)
#: A student's round or game (by its token), or an assignment of their class (by its id): anyone
#: else's is as unknown as a made-up one.
STUDENT_OWN = access(LOGIN, OK, 404, 403, 403, 403)
STUDENT_OWN_SENT_ON = access(LOGIN, REDIRECT, 404, 403, 403, 403)
#: Leaving a class (by its id): only a student in it; any other class is not found.
CLASS_MEMBER = access(LOGIN, OK, 404, 403, 403, 403)
#: Any teacher's own pages with nothing of anyone else's in the URL (the list of their classes).
TEACHERS = access(LOGIN, 403, 403, OK, OK, OK)
#: A class (its students, assignments, exports), by id: another teacher's class is not found.
TEACHER_OWN = access(LOGIN, 403, 403, OK, 404, 404)
#: A round's match of a class tournament, scored in the app: the class's teacher and the students of
#: its two teams (S is on team 1 of the world's match); to anyone else it is not found.
MATCH_PLAYERS = access(LOGIN, OK, 404, OK, 404, 404)
#: The school admin's pages (the teachers, invite links): no other teacher.
ADMINS = access(LOGIN, 403, 403, 403, 403, OK)

#: The modes' pages, by the access their web adapter declares (:class:`trainer.web.modes.Access`).
BY_ACCESS = {
    Access.STUDENTS: STUDENTS,
    Access.STUDENT_OWN: STUDENT_OWN,
    Access.STUDENT_OWN_SENT_ON: STUDENT_OWN_SENT_ON,
}

#: Every endpoint's expectation: the modes' pages (study, play) from their adapters, then the rest.
EXPECTED: dict[str, dict[str, Any]] = {
    **{endpoint: BY_ACCESS[kind] for endpoint, kind in access_rules().items()},
    "main.home": PUBLIC,
    "main.healthz": PUBLIC,
    "main.about": PUBLIC,
    "deck.index": PUBLIC,
    "deck.card": PUBLIC,
    "deck.anki_package": PUBLIC,  # the facts of the printed cards: nobody's data (issue 26)
    "deck.facts_csv": PUBLIC,
    "auth.login": ANONYMOUS_ONLY,
    "auth.signup": ANONYMOUS_ONLY,
    "auth.logout": ANYONE_SENT_ON,
    "auth.password": ACCOUNT_OWN,
    "auth.invite_signup": ANONYMOUS_ONLY,  # with the world's open invite link
    "admin.index": ADMINS,
    "admin.new_invite": ADMINS,
    "admin.revoke_invite": ADMINS,
    "teach.index": TEACHERS,
    "teach.roster_import": TEACHERS,
    "teach.roster_confirm": TEACHERS,
    "teach.class_page": TEACHER_OWN,
    "teach.class_settings": TEACHER_OWN,
    "teach.joining": TEACHER_OWN,
    "teach.new_code": TEACHER_OWN,
    "teach.new_students": TEACHER_OWN,
    "teach.student_page": TEACHER_OWN,
    "teach.display_name": TEACHER_OWN,
    "teach.reset_password": TEACHER_OWN,
    "teach.remove_student": TEACHER_OWN,
    "teach.removed": TEACHER_OWN,
    "teach.undo_remove": TEACHER_OWN,
    "teach.join": STUDENTS,
    # The code is the key: any student holding it sees the class and may join; its teacher sees a
    # preview, any other teacher a note that only students join (nothing of the class).
    "teach.join_link": access(LOGIN, OK, OK, OK, OK, OK),
    "teach.leave_class": CLASS_MEMBER,
    "teach.new_assignment": TEACHER_OWN,
    "teach.assignment_page": TEACHER_OWN,
    "teach.delete_assignment": TEACHER_OWN,
    "teach.edit_assignment": TEACHER_OWN,
    "teach.assignment_preview": TEACHER_OWN,
    "teach.assignment_test_preview": TEACHER_OWN,
    "teach.assignment_test_day": TEACHER_OWN,
    "teach.export_progress": TEACHER_OWN,
    "teach.export_reviews": TEACHER_OWN,
    "assign.index": STUDENTS,
    "assign.page": STUDENT_OWN,
    "assign.start": STUDENT_OWN,
    "dashboard.plotly_js": PUBLIC,  # a static asset: the plotly.js bundle the app serves
    "deck.map_sprite": PUBLIC,  # a static asset: the 50 public outlines (trainer.web.mapsprite)
    "dashboard.student": STUDENTS,  # always the signed-in student's own progress
    "dashboard.album": STUDENTS,  # always the signed-in student's own card album
    "dashboard.class_dashboard": TEACHER_OWN,
    "teach.tournament_new": TEACHER_OWN,
    "teach.tournament_page": TEACHER_OWN,
    "teach.tournament_projector": TEACHER_OWN,
    "teach.tournament_clock": TEACHER_OWN,
    "teach.tournament_advance": TEACHER_OWN,
    "teach.tournament_result": TEACHER_OWN,
    "teach.tournament_playoff": TEACHER_OWN,
    "teach.tournament_championship": TEACHER_OWN,
    "teach.tournament_undo": TEACHER_OWN,
    "tournament_play.index": STUDENTS,  # always the signed-in student's own tournaments
    "tournament_play.match_page": MATCH_PLAYERS,
    "tournament_play.match_draw": MATCH_PLAYERS,
    "tournament_play.match_pick": MATCH_PLAYERS,
    "tournament_play.match_game": MATCH_PLAYERS,
    "tournament_play.match_undo": MATCH_PLAYERS,
    "tournament_play.match_finish": MATCH_PLAYERS,
    "tournament_play.match_confirm": MATCH_PLAYERS,
    "tournament_play.match_finish_answer": MATCH_PLAYERS,
    # A game due played on the teams' own devices (P-K8): the teacher's press is refused (302).
    "tournament_play.match_on_devices": MATCH_PLAYERS,
    # The round's live games, the part the teacher's round page asks for again (P-K10).
    "tournament_play.round_live_part": TEACHER_OWN,
    # A match's version, which its page asks for while a game is played on the devices (P-K10).
    "tournament_play.match_live_part": MATCH_PLAYERS,
    # Live tables (issue 22): open or join one; a table's pages only for the students at it (S
    # opened the world's), to anyone else as unknown as a made-up code.
    "live.index": STUDENTS,
    "live.new_table": STUDENTS,
    "live.join": STUDENTS,
    "live.table": STUDENT_OWN,
    "live.version": STUDENT_OWN,
    "live.move": STUDENT_OWN,
    "live.sit": STUDENT_OWN,
    "live.computer": STUDENT_OWN,
    "live.leave": STUDENT_OWN,
    "live.start": STUDENT_OWN,
    "live.drill": STUDENT_OWN,
    "live.peek": STUDENT_OWN,
    "live.stand_in": STUDENT_OWN,
    "live.send_cheer": STUDENT_OWN,
    "live.invite": STUDENT_OWN,
    "live.here": STUDENTS,
    "live.rematch": STUDENT_OWN,
    "live.race_call": STUDENT_OWN,
    "live.state_iq_move": STUDENT_OWN,
    "live.dashing_race_call": STUDENT_OWN,
    "live.end_duel": STUDENT_OWN,
    # GeoPlunge Live (issue 23, C-W2): T's game of class C, which S joined. Its teacher runs it;
    # its students (S) play it; the version serves both; to anyone else it is not found.
    "class_game.new_game": TEACHER_OWN,
    "class_game.projector": TEACHER_OWN,
    "class_game.control": TEACHER_OWN,
    "class_game.report": TEACHER_OWN,
    "class_game.report_csv": TEACHER_OWN,
    "class_game.assign": TEACHER_OWN,
    "class_game.version": access(LOGIN, OK, 404, OK, 404, 404),
    "class_game.index": STUDENTS,
    "class_game.join": STUDENTS,
    "class_game.play": STUDENT_OWN,
    "class_game.answer": STUDENT_OWN,
}

#: Endpoints that are not the app's own pages.
NOT_TESTED = {"static"}

#: What the world's URLs are made of. A value is taken from the first entry that names it: the
#: endpoint's own entry, then the path prefix of the rule (tokens: each record kind has its own),
#: then the argument's name alone. A new argument fails with a message naming it.
ARGS_BY_ENDPOINT: dict[str, dict[str, str]] = {
    "deck.card": {"code": "co"},
    "dashboard.plotly_js": {"version": plotly_version()},
    "deck.map_sprite": {"digest": sprite_of(load_deck()).digest},
    "teach.join_link": {"code": "join_code"},
    "auth.invite_signup": {"token": "invite_token"},
}
TOKEN_BY_PATH = {
    "/study/rounds/": "study_round",
    "/play/state-iq/": "state_iq",
    "/play/dashing-states/": "dashing",
    "/play/border-up/": "border_up",
    "/play/games/": "card_game",
    "/play/combo/": "combo",
}
ARGS_BY_NAME = {
    "code": "live_table",
    "class_id": "class_id",
    "student_id": "student_id",
    "assignment_id": "assignment_id",
    "tournament_id": "tournament_id",
    "match_id": "match_id",
    "invite_id": "invite_id",
    "index": "1",
    "game_id": "class_game_id",
}


def _export_days() -> dict[str, str]:
    today = utcnow().date()
    return {
        "start": (today - dt.timedelta(days=7)).isoformat(),
        "end": (today + dt.timedelta(days=1)).isoformat(),
    }


#: Query strings a page needs to show what it is for (else it may just send the user back).
QUERY_BY_ENDPOINT = {"teach.export_reviews": _export_days}

#: Where the owner's data may appear anyway: a student holding a class's join code (from its link)
#: is shown the class's name, to decide whether to join it.
SEES_CLASS_BY_CODE = {"teach.join_link"}


# --- The world -------------------------------------------------------------------------------


@dataclass
class World:
    app: Flask
    ids: dict[str, int]
    class_id: int
    other_class_id: int
    assignment_id: int
    other_assignment_id: int
    tournament_id: int = 0
    match_id: int = 0
    #: An open invite link of the admin's (its id, and the token of its URL).
    invite_id: int = 0
    invite_token: str = ""
    #: T's GeoPlunge Live game of class C, which S joined (issue 23).
    class_game_id: int = 0
    #: The student's records by kind ("study_round", "state_iq"...), and the other student's.
    tokens: dict[str, str] = field(default_factory=dict)
    other_tokens: dict[str, str] = field(default_factory=dict)
    #: More of ``TOKEN_BY_PATH``: the path prefix of each round dealt by :func:`_deal_other_modes`.
    token_paths: dict[str, str] = field(default_factory=dict)
    cookies: dict[str, str] = field(default_factory=dict)

    @property
    def student_id(self) -> int:
        return self.ids["student"]

    @property
    def join_code(self) -> str:
        return JOIN_CODE

    def value(self, name: str) -> str:
        """A value named in ``ARGS_BY_*``: a world attribute, a record's token, or itself."""
        if name in self.tokens:
            return self.tokens[name]
        return str(getattr(self, name, name))

    def client(self, role: str) -> FlaskClient:
        """A new client, logged in as ``role`` (with the cookie of that role's one real login)."""
        client = self.app.test_client()
        if role != "anonymous":
            client.set_cookie(self.app.config["SESSION_COOKIE_NAME"], self.cookies[role])
        return client

    def data_of(self, side: str) -> dict[str, str]:
        """What is one side's own: its student's username and records, its class and assignment."""
        if side == "owl":
            names = {
                "the student": USERNAMES["student"],
                "the class": CLASS_NAME,
                "the join code": JOIN_CODE,
                "the assignment": ASSIGNMENT_TITLE,
                "the tournament": TOURNAMENT_NAME,
            }
            tokens = self.tokens
        else:
            names = {
                "the other student": USERNAMES["other_student"],
                "the other class": OTHER_CLASS_NAME,
                "the other join code": OTHER_JOIN_CODE,
                "the other assignment": OTHER_ASSIGNMENT_TITLE,
            }
            tokens = self.other_tokens
        return {f"{side}: {what}": text for what, text in names.items()} | {
            f"{side}: the {kind} token": t for kind, t in tokens.items()
        }

    def secrets(self, role: str, endpoint: str) -> dict[str, str]:
        """The data ``role`` must not be shown on ``endpoint``: everything of the sides it is not on.

        A teacher sees all of their own students' data (their answers, round tokens included, are in
        the class's export); anonymous users see nobody's.
        """
        found = {}
        for side in ("owl", "fox"):
            if SIDES[role] != side:
                found |= self.data_of(side)
        if endpoint in SEES_CLASS_BY_CODE and role == "other_student":
            del found["owl: the class"], found["owl: the join code"]
        if role != "class_teacher":
            # The student's real name: only their class's teacher sees it, never the student.
            found["owl: the student's real name (only its teacher sees it)"] = STUDENT_REAL_NAME
        return found


def _login(app: Flask, username: str) -> str:
    client = app.test_client()
    response = client.post("/auth/login", data={"username": username, "password": PASSWORD})
    assert response.status_code == 302, f"{username} could not log in"
    client.get("/")  # shows (and so clears) the "Hello" message
    cookie = client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    assert cookie is not None
    return cookie.value


def _token_of(response, prefix: str) -> str:
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    path = urlsplit(response.headers["Location"]).path
    assert path.startswith(prefix), path
    return path.removeprefix(prefix).split("/")[0]


def _build_world(app: Flask) -> World:
    ids = {
        role: make_user(
            app,
            name,
            PASSWORD,
            Role.STUDENT if role.endswith("student") else Role.TEACHER,
            is_admin=role == "admin",
        ).id
        for role, name in USERNAMES.items()
    }
    with app.app_context():
        # S's account was made by T from a list of names, so T may give it a new password.
        db.session.get(User, ids["student"]).managed_by_id = ids["class_teacher"]
        invite_token = invites.new_invite(db.session.get(User, ids["admin"]))
        klass = SchoolClass(teacher_id=ids["class_teacher"], name=CLASS_NAME, join_code=JOIN_CODE)
        other = SchoolClass(
            teacher_id=ids["other_teacher"], name=OTHER_CLASS_NAME, join_code=OTHER_JOIN_CODE
        )
        db.session.add_all([klass, other])
        db.session.flush()
        db.session.add(
            ClassMembership(
                class_id=klass.id, student_id=ids["student"], display_name=STUDENT_REAL_NAME
            )
        )
        db.session.add(ClassMembership(class_id=other.id, student_id=ids["other_student"]))
        now = utcnow()
        assignments = [
            Assignment(
                class_id=class_.id,
                title=title,
                activities=["state-iq", "review"],
                scope={"facets": [], "area": "", "states": []},
                amount="rounds",
                quantity=3,
                starts_at=now - dt.timedelta(days=1),
                due_at=now + dt.timedelta(days=7),
                time_zone="UTC",
                everyone=True,
            )
            for class_, title in ((klass, ASSIGNMENT_TITLE), (other, OTHER_ASSIGNMENT_TITLE))
        ]
        db.session.add_all(assignments)
        # A tournament of class C with its first round paired (the student's team against another).
        tournament = Tournament(
            class_id=klass.id, name=TOURNAMENT_NAME, seed=5, round=1, stage="rounds"
        )
        db.session.add(tournament)
        db.session.flush()
        teams = [
            TournamentTeam(tournament_id=tournament.id, number=n, name=f"Team {n}") for n in (1, 2)
        ]
        db.session.add_all(teams)
        db.session.flush()
        db.session.add(
            TournamentMember(
                tournament_id=tournament.id, team_id=teams[0].id, student_id=ids["student"]
            )
        )
        match = TournamentMatch(
            tournament_id=tournament.id, round=1, a_team_id=teams[0].id, b_team_id=teams[1].id
        )
        db.session.add(match)
        db.session.commit()
        invite_id = db.session.execute(db.select(TeacherInvite.id)).scalar_one()
        ids_of = (
            klass.id,
            other.id,
            assignments[0].id,
            assignments[1].id,
            tournament.id,
            match.id,
            invite_id,
            invite_token,
        )
    world = World(app, ids, *ids_of)
    world.cookies = {role: _login(app, name) for role, name in USERNAMES.items()}

    # The student's records, made through the real routes.
    student = world.client("student")
    world.tokens["study_round"] = _token_of(
        student.post("/study/rounds", data={}), "/study/rounds/"
    )
    assert (
        student.post(
            f"/study/rounds/{world.tokens['study_round']}/1", data={"dont_know": "y"}
        ).status_code
        == 302
    )
    world.tokens["state_iq"] = _token_of(
        student.post("/play/state-iq/", data={"level": "easy"}), "/play/state-iq/"
    )
    # Practice and cards face down: no clock runs, so opening them later changes nothing.
    world.tokens["dashing"] = _token_of(
        student.post("/play/dashing-states/", data={"level": "practice"}), "/play/dashing-states/"
    )
    world.tokens["border_up"] = _token_of(
        student.post("/play/border-up/", data={"level": "easy"}), "/play/border-up/"
    )
    game = {"game": "geoplunge-51", "players": "3", "team_size": "1", "level": "easy"}
    world.tokens["card_game"] = _token_of(student.post("/play/games/", data=game), "/play/games/")
    world.tokens["combo"] = _token_of(
        student.post("/play/combo/", data={"format": "afternoon", "level": "easy"}), "/play/combo/"
    )
    world.tokens["live_table"] = _token_of(student.post("/play/live/", data=game), "/play/live/")
    # A GeoPlunge Live game of class C, in its lobby, which S joined (issue 23).
    made = world.client("class_teacher").post(
        f"/class-game/classes/{world.class_id}/new",
        data={"covers": "forget", "kinds": "capital", "length": "2", "standings": "top-five"},
    )
    assert made.status_code == 302, made.get_data(as_text=True)[:500]
    world.class_game_id = int(urlsplit(made.location).path.split("/")[2])
    with app.app_context():
        code = db.session.get(ClassGame, world.class_game_id).code
    assert student.post("/class-game/join", data={"code": code}).status_code == 302

    # The other student has answers too (in the other class's export).
    other = world.client("other_student")
    world.other_tokens["study_round"] = _token_of(
        other.post("/study/rounds", data={}), "/study/rounds/"
    )
    assert (
        other.post(
            f"/study/rounds/{world.other_tokens['study_round']}/1", data={"dont_know": "y"}
        ).status_code
        == 302
    )
    _deal_other_modes(world)
    return world


def _deal_other_modes(world: World) -> None:
    """A round of each mode whose pages take a token of a kind the world has none of, dealt by
    the mode's web adapter as an assignment deals it: a new mode's pages are tried with no edit
    here. (Every mode of today has its record made through its own pages above.)"""
    rules = {rule.endpoint: rule for rule in RULES}
    for adapter in adapters():
        untried = [
            rules[endpoint]
            for endpoint, _kind in adapter.access
            if endpoint in rules
            and "token" in rules[endpoint].arguments
            and not any(rules[endpoint].rule.startswith(prefix) for prefix in TOKEN_BY_PATH)
        ]
        if not untried or adapter.deal is None:
            continue
        with world.app.test_request_context():
            student = db.session.get(User, world.student_id)
            assert student is not None
            dealt = adapter.deal(student, adapter.mode, Scope(), "easy")
            assert dealt is not None, f"{adapter.slug}: nothing dealt for the access world"
            db.session.commit()
            if dealt.after_commit is not None:
                dealt.after_commit()
        token = dealt.token.split(":", 1)[1]
        path = urlsplit(dealt.url).path
        world.token_paths[path[: path.index(token)]] = adapter.slug
        world.tokens[adapter.slug] = token


@pytest.fixture(scope="module", params=database_params())
def world(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[World]:
    """The app and its world, once per database for the module (as conftest's ``app``, module-wide)."""
    # The login sessions' last use is never written here: a refused request must change no row,
    # however long the module takes.
    config = make_test_config(request.param, tmp_path_factory.mktemp("access")) | {
        "WTF_CSRF_ENABLED": False,
        "LOGIN_SESSION_TOUCH_SECONDS": 10**9,
    }
    app = create_app(config)
    with app.app_context():
        db.drop_all()
        db.create_all()
    yield _build_world(app)
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.engine.dispose()


# --- The database before and after -----------------------------------------------------------


Dump = dict[str, dict[tuple[Any, ...], dict[str, Any]]]


def _dump(app: Flask) -> Dump:
    """Every row of every table, by primary key.

    The last dump of an app is kept until a statement that may write is sent to its database
    (anything but a SELECT: an INSERT, UPDATE, DELETE, a WITH, DDL, a PRAGMA...), and given again
    meanwhile: rows change only by such statements, and most cases only read, where a dump
    reads every table (three dumps per case were most of this module's time). Callers only
    compare dumps, never change them.
    """
    with app.app_context():
        kept = app.extensions.get("test_access_dump")
        if kept is None:
            kept = app.extensions["test_access_dump"] = {}

            def forget_on_write(conn, cursor, statement, parameters, context, executemany):  # noqa: ANN001
                if statement.lstrip()[:6].upper() != "SELECT":
                    kept.clear()

            event.listen(db.engine, "before_cursor_execute", forget_on_write)
        if "dump" in kept:
            return kept["dump"]
        found: Dump = {}
        for table in db.metadata.sorted_tables:
            keys = [column.name for column in table.primary_key.columns]
            rows = db.session.execute(table.select()).mappings()
            found[table.name] = {tuple(row[k] for k in keys): dict(row) for row in rows}
        kept["dump"] = found
        return found


def _where(table: Table, key: tuple[Any, ...]) -> list[Any]:
    return [column == value for column, value in zip(table.primary_key.columns, key, strict=True)]


def _restore(app: Flask, before: Dump) -> None:
    """Put the database back as it was in ``before`` (rows added, changed or deleted since)."""
    after = _dump(app)
    if after == before:
        return
    tables = db.metadata.sorted_tables
    with app.app_context():
        for table in reversed(tables):
            for key in after[table.name].keys() - before[table.name].keys():
                db.session.execute(table.delete().where(*_where(table, key)))
        for table in tables:
            for key, row in before[table.name].items():
                now = after[table.name].get(key)
                if now is None:
                    db.session.execute(table.insert().values(row))
                elif now != row:
                    db.session.execute(table.update().where(*_where(table, key)).values(row))
        db.session.commit()
    assert _dump(app) == before


@pytest.fixture
def unchanged(world: World) -> Iterator[Dump]:
    """The database as the case found it; put back afterwards, whatever the case did."""
    before = _dump(world.app)
    yield before
    _restore(world.app, before)


# --- The cases -------------------------------------------------------------------------------


def _url_map_rules() -> list[Rule]:
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "url-map-only", "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    )
    return sorted(app.url_map.iter_rules(), key=lambda rule: (rule.endpoint, rule.rule))


RULES = [rule for rule in _url_map_rules() if rule.endpoint not in NOT_TESTED]


@dataclass(frozen=True)
class Case:
    rule: Rule
    method: str

    @property
    def endpoint(self) -> str:
        return self.rule.endpoint

    @property
    def id(self) -> str:
        # A page that is also a form is tried both ways: "teach.class_settings" and "teach.class_settings.post".
        return self.endpoint + (
            ".post" if self.method == "POST" and "GET" in (self.rule.methods or ()) else ""
        )


def _cases() -> list[Case]:
    cases = []
    for rule in RULES:
        methods = rule.methods or set()
        cases += [Case(rule, method) for method in ("GET", "POST") if method in methods]
    return cases


CASES = _cases()


def url_of(world: World, rule: Rule) -> str:
    """The rule's URL with the world's objects (the student's records, the class...) filled in."""
    # A rule's defaults (a download's format: .csv or .xlsx) pick that rule, as its links do.
    values: dict[str, Any] = dict(rule.defaults or {})
    for name in sorted(rule.arguments - values.keys()):
        source = ARGS_BY_ENDPOINT.get(rule.endpoint, {}).get(name)
        if source is None and name == "token":
            source = next(
                (
                    kind
                    for prefix, kind in (TOKEN_BY_PATH | world.token_paths).items()
                    if rule.rule.startswith(prefix)
                ),
                None,
            )
        source = source or ARGS_BY_NAME.get(name)
        if source is None:
            pytest.fail(
                f"{rule.endpoint} ({rule.rule}): no world value for <{name}>; add one to ARGS_BY_ENDPOINT, TOKEN_BY_PATH or ARGS_BY_NAME"
            )
        values[name] = world.value(source)
    query = QUERY_BY_ENDPOINT.get(rule.endpoint, dict)()
    with world.app.test_request_context():
        return url_for(rule.endpoint, **values, **query)


def _refusal(expected: Any) -> bool:
    return expected == LOGIN or expected in (401, 403, 404)


def without_urls(body: str, *urls: str) -> str:
    """``body`` without the URLs the client sent or was sent to: echoing those back leaks nothing.

    A login redirect names the page asked for (``next=/play/state-iq/<token>``): the client already
    had that token. Each URL is removed as written, percent-encoded and HTML-escaped.
    """
    forms = set()
    for url in filter(None, urls):
        for text in (url, quote(url, safe=""), quote(url, safe="/"), quote(url, safe="/?=&")):
            forms |= {text, html.escape(text), html.escape(text, quote=False)}
    for text in sorted(forms, key=len, reverse=True):
        body = body.replace(text, " ")
    return body


def assert_no_leak(world: World, role: str, endpoint: str, url: str, response) -> None:
    # A download may be binary (the Anki package): read as text as far as it is text.
    text = response.get_data().decode("utf-8", "replace")
    body = without_urls(text, url, response.headers.get("Location"))
    shown = [what for what, secret in world.secrets(role, endpoint).items() if secret in body]
    assert not shown, f"{endpoint} shows {role} {', '.join(shown)}"


def check(response, expected: Any, method: str, where: str) -> None:
    status = response.status_code
    assert status < 500, f"{where}: server error {status}"
    if method == "POST" and expected in (OK, REDIRECT):
        assert status not in (401, 403, 404, 405), f"{where}: {status}, but this role may use it"
    elif expected == OK:
        assert status == 200, f"{where}: {status}, expected the page (200)"
    elif expected == REDIRECT:
        assert status in (301, 302, 303), f"{where}: {status}, expected to be sent on"
        assert not response.headers["Location"].startswith("/auth/login"), (
            f"{where}: sent to log in"
        )
    elif expected == LOGIN:
        assert status == 302, f"{where}: {status}, expected to be sent to log in"
        assert response.headers["Location"].startswith("/auth/login?next="), (
            f"{where}: {response.headers['Location']}"
        )
    else:
        assert status == expected, f"{where}: {status}, expected {expected}"


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_access(world: World, unchanged: Dump, case: Case, role: str) -> None:
    """Each route, each role: the intended status, none of the owners' data, no change if refused."""
    if case.endpoint not in EXPECTED:
        pytest.fail(
            f"no access rule for {case.endpoint} ({case.rule.rule}): add it to EXPECTED in {__name__} (a mode's page: to its WebMode.access)"
        )
    expected = EXPECTED[case.endpoint][role]
    url = url_of(world, case.rule)
    client = world.client(role)
    response = client.get(url) if case.method == "GET" else client.post(url, data={})
    response.get_data()  # a streamed download is read (and its request ended) before anything fails
    check(response, expected, case.method, f"{case.method} {url} as {role}")
    assert_no_leak(world, role, case.endpoint, url, response)
    if _refusal(expected):
        assert _dump(world.app) == unchanged, (
            f"{case.method} {url} as {role} was refused but changed the database"
        )


LOGIN_CASES = [case for case in CASES if EXPECTED.get(case.endpoint, {}).get("anonymous") == LOGIN]


@pytest.mark.parametrize("case", LOGIN_CASES, ids=[case.id for case in LOGIN_CASES])
def test_anonymous_json_clients_get_401(world: World, unchanged: Dump, case: Case) -> None:
    url = url_of(world, case.rule)
    client = world.client("anonymous")
    headers = {"Accept": "application/json"}
    response = (
        client.get(url, headers=headers)
        if case.method == "GET"
        else client.post(url, data={}, headers=headers)
    )
    assert response.status_code == 401
    assert response.is_json and response.json["error"] == "Please log in"
    assert_no_leak(world, "anonymous", case.endpoint, url, response)
    assert _dump(world.app) == unchanged


def test_every_route_has_an_access_rule() -> None:
    """A new route fails here (and in test_access) until EXPECTED says who may use it."""
    endpoints = {rule.endpoint for rule in RULES}
    missing = sorted(endpoints - EXPECTED.keys())
    assert not missing, (
        f"routes without an access rule in EXPECTED (or their mode's WebMode.access): {', '.join(missing)}"
    )
    stale = sorted(EXPECTED.keys() - endpoints)
    assert not stale, f"EXPECTED names routes the app no longer has: {', '.join(stale)}"
    for endpoint, rule in EXPECTED.items():
        assert set(rule) == set(ROLES), endpoint


# --- The owners do see their data (so the leak checks above look for the right strings) -----

OWNERS_SEE = [
    ("student", "/play/state-iq/", ["state_iq"]),
    ("student", "/play/dashing-states/", ["dashing"]),
    ("student", "/play/border-up/", ["border_up"]),
    ("student", "/play/games/", ["card_game"]),
    (
        "student",
        "/teach/join",
        [
            CLASS_NAME,
            f"{USERNAMES['class_teacher']} can see your answers and progress",
            "Leave this class",
        ],
    ),
    ("student", "/teach/my-classes/{class_id}/leave", [CLASS_NAME, USERNAMES["class_teacher"]]),
    ("admin", "/admin/", [USERNAMES["class_teacher"], USERNAMES["other_teacher"], "Take back"]),
    ("class_teacher", "/teach/classes/{class_id}/students/{student_id}", ["Make a new password"]),
    ("student", "/assignments/", [ASSIGNMENT_TITLE, CLASS_NAME]),
    ("student", "/tournaments/", [TOURNAMENT_NAME, "Team 2"]),
    ("student", "/play/combo/", [TOURNAMENT_NAME, "open the match"]),
    (
        "student",
        "/tournaments/{tournament_id}/matches/{match_id}",
        [TOURNAMENT_NAME, USERNAMES["student"], "Border-Up"],
    ),
    (
        "class_teacher",
        "/tournaments/{tournament_id}/matches/{match_id}",
        [TOURNAMENT_NAME, USERNAMES["student"], "Border-Up"],
    ),
    ("class_teacher", "/teach/tournaments/{tournament_id}", ["Score this match in the app"]),
    ("other_student", "/assignments/", [OTHER_ASSIGNMENT_TITLE, OTHER_CLASS_NAME]),
    (
        "class_teacher",
        "/teach/classes/{class_id}",
        [
            USERNAMES["student"],
            CLASS_NAME,
            JOIN_CODE,
            f"{STUDENT_REAL_NAME} ({USERNAMES['student']})",
        ],
    ),
    ("class_teacher", "/teach/classes/{class_id}/students/{student_id}", [STUDENT_REAL_NAME]),
    ("class_teacher", "/teach/tournaments/{tournament_id}", [STUDENT_REAL_NAME]),
    ("class_teacher", "/teach/tournaments/{tournament_id}/projector", [STUDENT_REAL_NAME]),
    ("class_teacher", "/progress/classes/{class_id}", [STUDENT_REAL_NAME]),
    ("class_teacher", "/teach/", [CLASS_NAME]),
]


@pytest.mark.parametrize(
    ("role", "path", "shown"), OWNERS_SEE, ids=[f"{role}-{path}" for role, path, _ in OWNERS_SEE]
)
def test_the_owners_see_their_own_data(
    world: World, unchanged: Dump, role: str, path: str, shown: list[str]
) -> None:
    response = world.client(role).get(
        path.format(
            **world.tokens,
            class_id=world.class_id,
            student_id=world.student_id,
            tournament_id=world.tournament_id,
            match_id=world.match_id,
        )
    )
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    for what in shown:
        assert world.tokens.get(what, what) in body, what


# --- Forms that name another user's object -------------------------------------------------

#: (role, method, path, form, status): each names someone else's round, game, assignment, class or
#: student, in the URL or the form, with a form that would be accepted from its owner. {…} is
#: filled from the world. A URL naming it is "not found"; a form field naming it is refused as a
#: form (400).
OTHER_USERS_OBJECTS = [
    ("other_student", "POST", "/study/rounds/{study_round}/1", {"answer": "Ohio"}, 404),
    ("other_student", "POST", "/study/rounds/{study_round}/1", {"dont_know": "y"}, 404),
    (
        "other_student",
        "POST",
        "/play/state-iq/{state_iq}",
        {"turn": "{state_iq_turn}", "answer": "Ohio"},
        404,
    ),
    (
        "other_student",
        "POST",
        "/play/dashing-states/{dashing}",
        {"place-0": "aside", "place-1": "1", "place-2": "2", "place-3": "3", "place-4": "4"},
        404,
    ),
    ("other_student", "POST", "/play/border-up/{border_up}/ready", {}, 404),
    ("other_student", "POST", "/play/border-up/{border_up}/hint", {}, 404),
    (
        "other_student",
        "POST",
        "/play/border-up/{border_up}",
        {"group-CO": "1", "group-UT": "2"},
        404,
    ),
    (
        "other_student",
        "POST",
        "/play/games/{card_game}",
        {"ply": "{card_game_ply}", "action": "0"},
        404,
    ),
    (
        "other_student",
        "POST",
        "/assignments/{assignment_id}/start",
        {"activity": "state-iq", "level": "easy"},
        404,
    ),
    # The student's own class's assignments only: not another class's.
    ("student", "GET", "/assignments/{other_assignment_id}", None, 404),
    (
        "student",
        "POST",
        "/assignments/{other_assignment_id}/start",
        {"activity": "state-iq", "level": "easy"},
        404,
    ),
    ("other_teacher", "POST", "/teach/classes/{class_id}/joining", {"joining": "closed"}, 404),
    ("other_teacher", "POST", "/teach/classes/{class_id}/code", {}, 404),
    (
        "other_teacher",
        "POST",
        "/teach/classes/{class_id}/settings",
        {"name": "Taken over", "desired_retention": "70", "new_per_day": "0"},
        404,
    ),
    (
        "other_teacher",
        "POST",
        "/teach/classes/{class_id}/students/new",
        {"names": "Eve Intruder", "batch": "x"},
        404,
    ),
    ("other_teacher", "POST", "/teach/classes/{class_id}/students/{student}/password", {}, 404),
    ("other_teacher", "POST", "/teach/classes/{class_id}/students/{student}/remove", {}, 404),
    # A class one is not in cannot be left.
    ("other_student", "POST", "/teach/my-classes/{class_id}/leave", {}, 404),
    ("student", "POST", "/teach/my-classes/{other_class_id}/leave", {}, 404),
    (
        "other_teacher",
        "POST",
        "/teach/classes/{class_id}/assignments/new",
        "{new_assignment_for_student}",
        404,
    ),
    (
        "other_teacher",
        "POST",
        "/teach/classes/{class_id}/assignments/{assignment_id}/delete",
        {},
        404,
    ),
    # A teacher's own class, with a student or an assignment that is not in it.
    ("other_teacher", "GET", "/teach/classes/{other_class_id}/students/{student}", None, 404),
    (
        "other_teacher",
        "POST",
        "/teach/classes/{other_class_id}/students/{student}/password",
        {},
        404,
    ),
    ("other_teacher", "POST", "/teach/classes/{other_class_id}/students/{student}/remove", {}, 404),
    (
        "other_teacher",
        "GET",
        "/teach/classes/{other_class_id}/assignments/{assignment_id}",
        None,
        404,
    ),
    (
        "other_teacher",
        "POST",
        "/teach/classes/{other_class_id}/assignments/{assignment_id}/delete",
        {},
        404,
    ),
    (
        "other_teacher",
        "POST",
        "/teach/classes/{other_class_id}/assignments/new",
        "{new_assignment_for_student}",
        400,
    ),
    ("class_teacher", "GET", "/teach/classes/{class_id}/students/{other_student}", None, 404),
    (
        "class_teacher",
        "POST",
        "/teach/classes/{class_id}/students/{other_student}/password",
        {},
        404,
    ),
    ("class_teacher", "POST", "/teach/classes/{class_id}/students/{other_student}/remove", {}, 404),
    ("class_teacher", "GET", "/teach/classes/{class_id}/students/{other_teacher}", None, 404),
    (
        "class_teacher",
        "POST",
        "/teach/classes/{class_id}/students/{class_teacher}/password",
        {},
        404,
    ),
    (
        "class_teacher",
        "GET",
        "/teach/classes/{class_id}/assignments/{other_assignment_id}",
        None,
        404,
    ),
    (
        "class_teacher",
        "POST",
        "/teach/classes/{class_id}/assignments/{other_assignment_id}/delete",
        {},
        404,
    ),
    (
        "class_teacher",
        "GET",
        "/teach/classes/{class_id}/assignments/{other_assignment_id}/preview?test_on={today}",
        None,
        404,
    ),
    (
        "class_teacher",
        "POST",
        "/teach/classes/{class_id}/assignments/{other_assignment_id}/test-day",
        {"test_on": ""},
        404,
    ),
    # Editing (issue 24): another class's assignment, through one's own class or theirs.
    (
        "class_teacher",
        "GET",
        "/teach/classes/{class_id}/assignments/{other_assignment_id}/edit",
        None,
        404,
    ),
    (
        "class_teacher",
        "POST",
        "/teach/classes/{class_id}/assignments/{other_assignment_id}/edit",
        {"title": "Taken over"},
        404,
    ),
    (
        "other_teacher",
        "POST",
        "/teach/classes/{other_class_id}/assignments/{assignment_id}/edit",
        {"title": "Taken over"},
        404,
    ),
    (
        "other_teacher",
        "POST",
        "/teach/classes/{other_class_id}/assignments/{assignment_id}/test-day",
        {"test_on": ""},
        404,
    ),
    (
        "class_teacher",
        "POST",
        "/teach/classes/{class_id}/assignments/new",
        "{new_assignment_for_other_student}",
        400,
    ),
    # And the other teacher's class itself.
    ("class_teacher", "GET", "/teach/classes/{other_class_id}", None, 404),
    ("class_teacher", "GET", "/teach/classes/{other_class_id}/progress.csv", None, 404),
    ("class_teacher", "GET", "/teach/classes/{other_class_id}/progress.xlsx", None, 404),
    (
        "class_teacher",
        "GET",
        "/teach/classes/{other_class_id}/reviews.csv?start={today}&end={today}",
        None,
        404,
    ),
    (
        "class_teacher",
        "GET",
        "/teach/classes/{other_class_id}/reviews.xlsx?start={today}&end={today}",
        None,
        404,
    ),
    (
        "class_teacher",
        "POST",
        "/teach/classes/{other_class_id}/students/{other_student}/remove",
        {},
        404,
    ),
    (
        "class_teacher",
        "POST",
        "/teach/classes/{other_class_id}/students/{other_student}/password",
        {},
        404,
    ),
    ("class_teacher", "POST", "/teach/classes/{other_class_id}/code", {}, 404),
    # A tournament match of class C, scored in the app: only its teams' students and C's teacher.
    ("other_student", "GET", "/tournaments/{tournament_id}/matches/{match_id}", None, 404),
    (
        "other_student",
        "POST",
        "/tournaments/{tournament_id}/matches/{match_id}/games",
        {"game-number": "1", "game-game": "border-up", "game-winner": "a"},
        404,
    ),
    (
        "other_teacher",
        "POST",
        "/tournaments/{tournament_id}/matches/{match_id}/games",
        {"game-number": "1", "game-game": "border-up", "game-winner": "b"},
        404,
    ),
    (
        "other_teacher",
        "POST",
        "/tournaments/{tournament_id}/matches/{match_id}/finish",
        {"finish-expected": "0"},
        404,
    ),
]


def _assignment_form(student_id: int) -> dict[str, Any]:
    """A new assignment for one student, as the form sends it (starting in two days: "today" anywhere)."""
    today = utcnow().date()
    return {
        "activities": "state-iq",
        "amount": "rounds",
        "quantity": "3",
        "starts_on": (today + dt.timedelta(days=2)).isoformat(),
        "due_on": (today + dt.timedelta(days=9)).isoformat(),
        "who": "some",
        "students": str(student_id),
    }


def _fill(world: World, text: str) -> str:
    with world.app.app_context():
        turn = db.session.execute(
            db.select(StateIqGame.move_count).where(StateIqGame.token == world.tokens["state_iq"])
        ).scalar_one()
        ply = db.session.execute(
            db.select(CardGame.ply).where(CardGame.token == world.tokens["card_game"])
        ).scalar_one()
    return text.format(
        **world.tokens,
        **world.ids,
        class_id=world.class_id,
        other_class_id=world.other_class_id,
        assignment_id=world.assignment_id,
        other_assignment_id=world.other_assignment_id,
        tournament_id=world.tournament_id,
        match_id=world.match_id,
        state_iq_turn=turn,
        card_game_ply=ply,
        today=utcnow().date().isoformat(),
    )


def _form(world: World, form: dict[str, str] | str | None) -> dict[str, Any]:
    if form == "{new_assignment_for_student}":
        return _assignment_form(world.student_id)
    if form == "{new_assignment_for_other_student}":
        return _assignment_form(world.ids["other_student"])
    assert not isinstance(form, str)
    return {name: _fill(world, value) for name, value in (form or {}).items()}


@pytest.mark.parametrize(
    ("role", "method", "path", "form", "status"),
    OTHER_USERS_OBJECTS,
    ids=[
        f"{role}-{method}-{re.sub(r'[{}]', '', path.split('?')[0])}"
        for role, method, path, *_ in OTHER_USERS_OBJECTS
    ],
)
def test_another_users_object_is_refused(
    world: World, unchanged: Dump, role: str, method: str, path: str, form: Any, status: int
) -> None:
    url = _fill(world, path)
    client = world.client(role)
    response = client.get(url) if method == "GET" else client.post(url, data=_form(world, form))
    response.get_data()
    assert response.status_code == status, f"{method} {url} as {role}"
    assert _dump(world.app) == unchanged, f"{method} {url} as {role} changed the database"
    assert_no_leak(world, role, "", url, response)


@pytest.mark.parametrize(
    ("role", "class_id", "student"),
    [
        ("class_teacher", "class_id", "student"),
        ("other_teacher", "other_class_id", "other_student"),
    ],
)
def test_an_assignment_for_the_classs_own_student_is_set(
    world: World, unchanged: Dump, role: str, class_id: str, student: str
) -> None:
    """The control for the refused assignment forms above: the same form, with the class's own student."""
    url = f"/teach/classes/{getattr(world, class_id)}/assignments/new"
    response = world.client(role).post(url, data=_assignment_form(world.ids[student]))
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    assert "/assignments/" in response.headers["Location"]
