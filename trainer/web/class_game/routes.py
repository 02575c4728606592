"""GeoPlunge Live's pages: the teacher's new game, projector and report; a student's join and game.

Who may see what (C-W2): a game's projector, controls and report are its teacher's (another
teacher's game is not found); a game's student page, answers and version are for the students who
joined it. A student joins with the code on the projector, and only a student of the game's class
may: to anyone else the code is as unknown as a made-up one (the same message). The version
endpoint serves both the projector and the students' pages.

Every POST is a form with its CSRF token. The projector's buttons and a student's answer are sent
as forms and answered with a redirect to the page as it is now (with a message when refused:
nothing changed). The pages learn of changes made elsewhere over Socket.IO, or by long-polling the
version (:mod:`trainer.web.live.waits`), and then fetch their own part again (``?part=live``).
"""

from __future__ import annotations

import json
from typing import Any

import segno
from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from flask_login import current_user
from markupsafe import Markup
from sqlalchemy import select
from werkzeug.wrappers import Response
from wtforms.fields.choices import SelectChoice

from trainer import class_game as cg

from .. import get_deck
from ..extensions import db
from ..guards import Refused, Stale, nothing_changed, whole_number
from ..kept import Kept
from ..live import sockets, waits
from ..models import (
    ClassGame,
    ClassGamePlayer,
    ClassMembership,
    Role,
    SchoolClass,
    User,
    utcnow,
)
from ..security import login_required, student_required, teacher_required
from ..teach.names import display_names, shown_name
from ..teach.routes import own_class, students_of
from . import game as games
from .forms import FORGET, AnswerForm, ControlForm, JoinGameForm, NewGameForm

bp = Blueprint("class_game", __name__, url_prefix="/class-game")

#: How many of a class's games its page lists.
LISTED = 5


@bp.app_template_global("class_games")
def class_games(class_id: int) -> list[ClassGame]:
    """The class's latest games, for its page (the teacher's own: the page checked)."""
    return list(
        db.session.execute(
            select(ClassGame)
            .where(ClassGame.class_id == class_id)
            .order_by(ClassGame.created_at.desc(), ClassGame.id.desc())
            .limit(LISTED)
        ).scalars()
    )


#: Rendered maps, shared by every page that shows the same one (issue 23's benchmark: a class of
#: 60 fetching its page at the same instant spent most of it drawing the same 50 outlines 60
#: times). A key names everything the map is drawn from; the oldest is forgotten first.
_MAPS: Kept[tuple[Any, ...], Markup] = Kept(64)


@bp.app_template_global("cg_map")
def cg_map(key: tuple[Any, ...], draw: Any, *args: Any, **kwargs: Any) -> Markup:
    """``draw(*args, **kwargs)`` (a map macro) rendered once per ``key`` and kept."""
    return _MAPS.get_or_make(key, lambda: Markup(draw(*args, **kwargs)))


def _user() -> User:
    return current_user._get_current_object()


# --- finding a game -----------------------------------------------------------------------------


def _own_game(game_id: int) -> ClassGame:
    """The current teacher's game; any other is not found."""
    found = db.session.execute(
        select(ClassGame).where(ClassGame.id == game_id, ClassGame.teacher_id == _user().id)
    ).scalar_one_or_none()
    if found is None:
        abort(404)
    return found


def _joined_game(game_id: int) -> tuple[ClassGame, ClassGamePlayer]:
    """A game the current student joined, and their place in it; any other is not found (C-W2)."""
    found = db.session.execute(
        select(ClassGame, ClassGamePlayer)
        .join(ClassGamePlayer, ClassGamePlayer.game_id == ClassGame.id)
        .where(ClassGame.id == game_id, ClassGamePlayer.student_id == _user().id)
    ).first()
    if found is None:
        abort(404)
    return found[0], found[1]


def watched_version(game_id: int) -> int | None:
    """The version the signed-in user's page of the game follows (C-W9): its teacher's projector,
    every change (``version``); a student who joined it, where the game is (``state_version``).
    None for anyone else."""
    found = db.session.get(ClassGame, game_id)
    if found is None or not current_user.is_authenticated:
        return None
    if current_user.role == Role.TEACHER:
        return found.version if found.teacher_id == current_user.id else None
    if current_user.role != Role.STUDENT or games.player_of(found.id, current_user.id) is None:
        return None
    return found.state_version


def _in_class(class_id: int, student_id: int) -> bool:
    return (
        db.session.execute(
            select(ClassMembership.id).where(
                ClassMembership.class_id == class_id, ClassMembership.student_id == student_id
            )
        ).first()
        is not None
    )


# --- the teacher: a new game ----------------------------------------------------------------------


def _new_form(klass: SchoolClass, **kwargs: Any) -> NewGameForm:
    students = students_of(klass)
    choices = [SelectChoice(s.id, s.display_name or s.username) for s in students]
    return NewGameForm(get_deck(), choices, **kwargs)


@bp.route("/classes/<int:class_id>/new", methods=["GET", "POST"])
@teacher_required
def new_game(class_id: int) -> str | Response | tuple[str, int]:
    """Make a game for the class: what it covers, its questions, timer, standings and teams."""
    klass = own_class(class_id)
    form = _new_form(klass)
    if not form.validate_on_submit():
        status = 400 if form.is_submitted() else 200
        return render_template("class_game/new.html", klass=klass, form=form), status
    deck = get_deck()
    now = utcnow()
    student_ids = [s.id for s in students_of(klass)]
    if form.covers.data == FORGET:
        focus = games.class_focus(student_ids, now, deck)
        covers: dict[str, Any] = {"what": FORGET}
    else:
        focus = games.scope_focus(form.scope, student_ids, now, deck)
        covers = {"what": "scope", "scope": form.scope.to_json()}
    extra = [sid for sid in form.extra_time.data or [] if sid in set(student_ids)]
    try:
        made = games.make_game(klass.id, _user().id, form.settings(), focus, deck, covers, extra)
    except ValueError as refused:
        db.session.rollback()
        form.length.errors = [str(refused)]
        return render_template("class_game/new.html", klass=klass, form=form), 400
    db.session.commit()
    return redirect(url_for("class_game.projector", game_id=made.id))


# --- the teacher: the projector -------------------------------------------------------------------


def qr_svg(url: str) -> Markup:
    """The join link as a QR code: inline SVG markup made by segno (no script, no style attribute)."""
    svg = segno.make(url, error="m").svg_inline(
        scale=8, dark="#1b1b1b", light="#ffffff", omitsize=True
    )
    return Markup(svg)


def _names(game: ClassGame, roster: list[tuple[ClassGamePlayer, str]]) -> dict[int, str]:
    """The players as their teacher's pages write them (C-W8, issue 24): "María García (maria.g2)"
    with the real name the teacher gave them in this class, else the username."""
    real = display_names(game.class_id)
    return {p.student_id: shown_name(name, real.get(p.student_id)) for p, name in roster}


def _projector_view(game: ClassGame) -> dict[str, Any]:
    deck = get_deck()
    now = utcnow()
    settings = games.settings_of(game)
    players = games.players(game.id)
    names = _names(game, players)
    roster = [(player, names[player.student_id]) for player, _username in players]
    q = games.current(game)
    view: dict[str, Any] = {
        "game": game,
        "settings": settings,
        "total": len(game.questions),
        "roster": roster,
        "join_url": url_for("class_game.index", _external=True),
        "control": ControlForm(formdata=None),
        "q": q,
        "phase": game.phase,
        "server_now": int(now.timestamp() * 1000),
        "kind_titles": cg.KIND_TITLES,
    }
    if game.phase == cg.Phase.LOBBY.value:
        view["qr"] = qr_svg(url_for("class_game.index", code=game.code, _external=True))
    coming = 0 if game.phase == cg.Phase.LOBBY.value else game.question + 1
    if game.phase != cg.Phase.ENDED.value and coming < len(game.questions):
        opening_part(game, coming)  # drawn now, while the class is busy, for the notice (C-W9)
    if q is not None:
        view["answered"] = games.answered_count(game.id, q.number)
        view["clues"] = q.clues[: game.clues_shown] if q.kind is cg.Kind.CLUES else ()
        view["map_card"] = deck.map_card(q.map_postal) if q.map_postal else None
    if game.phase == cg.Phase.QUESTION.value:
        left = games.time_left_ms(game, False, now)
        view["time_left"] = left
        view["longest_left"] = games.time_left_ms(game, True, now)
    if game.phase in (cg.Phase.REVEAL.value, cg.Phase.STANDINGS.value) and q is not None:
        rows = [a for a in games.answers_of(game.id) if a.question == q.number]
        spread = cg.distribution((a.answer, a.right) for a in rows)
        view["spread"] = [(games.label(q, value, deck), n, right) for value, n, right in spread]
        wrong = [item for item in view["spread"] if not item[2]]
        view["common_wrong"] = wrong[0] if wrong else None
        view["right_answer"] = games.label(q, q.answer, deck)
        view["fact"] = games.fact_sentence(q, deck)
        if q.kind in (cg.Kind.FIND, cg.Kind.RED_STATE, cg.Kind.CLUES):
            view["map_card"] = deck.map_card(q.answer)
    if game.phase in (cg.Phase.STANDINGS.value, cg.Phase.ENDED.value):
        shown = cg.shown_standings(games.game_standings(game), settings.standings)
        view["standings"] = [
            (s, names.get(s.key, "?") if settings.team_size == 1 else f"Team {s.key}")
            for s in shown
        ]
    return view


@bp.get("/<int:game_id>/projector")
@teacher_required
def projector(game_id: int) -> str:
    """The teacher's screen: the code and QR code, the lobby, each question, the reveal, the standings."""
    found = _own_game(game_id)
    return render_template(
        "class_game/projector.html",
        **_projector_view(found),
        live_part=request.args.get("part") == "live",
    )


@bp.post("/<int:game_id>/control")
@teacher_required
def control(game_id: int) -> Response:
    """One of the projector's buttons, on the version it showed (C-W3)."""
    found = _own_game(game_id)
    here = url_for("class_game.projector", game_id=found.id)
    form = ControlForm()
    version = whole_number(form.version.data)
    if not form.validate() or version is None:
        return nothing_changed("That control could not be read. Nothing changed.", here, "error")
    was = (found.phase, found.question)
    try:
        games.control(found.id, form.action.data, version, utcnow())
    except Stale as stale:
        return nothing_changed(str(stale), here, stale.category)
    except Refused as refused:
        return nothing_changed(str(refused), here, "error")
    sockets.announce_class_game(found.id, moved=True, question=opened_question(found, was))
    if form.action.data == "end":
        return redirect(url_for("class_game.report", game_id=found.id))
    return redirect(here)


# --- both: the version, for pages without a socket --------------------------------------------


@bp.get("/<int:game_id>/version")
@login_required
def version(game_id: int) -> Response | tuple[Response, int]:
    """The game's version, for its projector or a joined student's page. With ``?after=N&wait=1``
    the answer waits until the version passes ``N`` (or :data:`.waits.WAIT_SECONDS` went by), as
    a live table's does."""
    now_version = watched_version(game_id)
    if now_version is None:
        abort(404)
    if request.args.get("wait") == "1":
        after = request.args.get("after", "")
        if not after.isdigit() or len(after) > 9:
            return jsonify(error="after: the version the page shows, a whole number"), 400

        teacher = current_user.role == Role.TEACHER
        column = ClassGame.version if teacher else ClassGame.state_version

        def read() -> int:
            value = db.session.execute(select(column).where(ClassGame.id == game_id)).scalar_one()
            db.session.rollback()  # no connection held while waiting
            return int(value)

        waits.wait(games.wait_key(game_id, teacher), int(after), read)
        now_version = read()
    return jsonify(version=now_version)


# --- students --------------------------------------------------------------------------------------


@bp.get("/")
@student_required
def index() -> str:
    """Type the code on the teacher's screen (a QR code's link fills it in)."""
    code = request.args.get("code", "")
    form = JoinGameForm(formdata=None, data={"code": code[:20]})
    return render_template("class_game/join.html", form=form)


@bp.post("/join")
@student_required
def join() -> str | Response | tuple[str, int]:
    """Join the game of the code, if it is a game of one of the student's classes (C-W2)."""
    form = JoinGameForm()
    if not form.validate():
        return render_template("class_game/join.html", form=form), 400
    found = db.session.execute(
        select(ClassGame).where(ClassGame.code == form.normal_code())
    ).scalar_one_or_none()
    me = _user()
    if found is not None and games.player_of(found.id, me.id) is not None:
        return redirect(url_for("class_game.play", game_id=found.id))  # already in: back to it
    if found is None or found.phase == cg.Phase.ENDED.value or not _in_class(found.class_id, me.id):
        form.code.errors = [games.NO_SUCH_GAME]
        return render_template("class_game/join.html", form=form), 400
    if games.join(found, me.id, utcnow()):
        sockets.announce_class_game(found.id)
    return redirect(url_for("class_game.play", game_id=found.id))


def _question_part(
    game: ClassGame,
    q: cg.Question,
    *,
    given: str | None = None,
    paused: bool = False,
    time_left: int | None = None,
    pushed: bool = False,
    clues_shown: int | None = None,
) -> dict[str, Any]:
    """What ``class_game/_question.html`` draws of the open question ``q``: its public view only
    (C-W5) with the game's clues on show (or ``clues_shown``), and this student's answer
    (``given``, its label), pause and clock."""
    deck = get_deck()
    if clues_shown is None:
        clues_shown = game.clues_shown
    shown = clues_shown if q.kind is cg.Kind.CLUES else 0
    public = cg.public_view(q, shown)
    return {
        "game": game,
        "public": public,
        "number": q.number,
        "kind": q.kind.value,
        "given": given,
        "paused": paused,
        "time_left": time_left,
        "pushed": pushed,
        "names": {
            p: deck[p].name
            for p in public["options"]
            if q.kind not in (cg.Kind.CAPITAL, cg.Kind.FIND)
        },
        "pick_order": deck.geometry.west_to_east(),
        "find_map": games.find_map(game, q.number, deck) if q.kind is cg.Kind.FIND else None,
    }


#: Each question's part of the page as it opens (:func:`opening_part`), drawn once per process.
_OPENINGS: Kept[tuple[Any, ...], str] = Kept(64)


def opening_part(game: ClassGame, number: int) -> str:
    """Question ``number``'s part of a student's page at the instant it opens, the same for every
    student (C-W9): its public view with its first clue (C-G6), nobody's answer, not paused, the
    whole time on the clock, the form's CSRF token empty. Drawn once and kept: the projector's
    page asks for the question to come while the class is on the one before, so the control that
    opens it does not draw its map while sixty phones wait."""
    q = games.questions_of(game)[number]
    limit = cg.deadline_ms(games.settings_of(game), False)
    key = (game.id, json.dumps(game.questions[number], sort_keys=True), limit)
    return _OPENINGS.get_or_make(
        key,
        lambda: render_template(
            "class_game/_question.html",
            **_question_part(game, q, time_left=limit, pushed=True, clues_shown=1),
        ),
    )


def opened_question(game: ClassGame, was: tuple[str, int]) -> dict[str, Any] | None:
    """The question a control has just opened, as every student's page draws it (C-W9): for the
    students' notice, so sixty phones do not all fetch the same page at the same instant. None
    unless the control moved the game from ``was`` (its phase and question before) onto a question
    nobody can have answered yet: opened, not paused (a new clue or a resume is fetched)."""
    q = games.current(game)
    if (
        game.phase != cg.Phase.QUESTION.value
        or (game.phase, game.question) == was
        or game.paused
        or q is None
    ):
        return None
    return {
        "number": q.number,
        "title": f"Class game · Question {q.number + 1} of {len(game.questions)}",
        "left": games.time_left_ms(game, False, utcnow()),
        "html": opening_part(game, q.number),
    }


def _student_view(game: ClassGame, me: ClassGamePlayer) -> dict[str, Any]:
    """What a student's device shows. While a question is open: only its public view (C-W5)."""
    deck = get_deck()
    now = utcnow()
    settings = games.settings_of(game)
    mine = {a.question: a for a in games.answers_of(game.id, me.student_id)}
    limit, longer = cg.deadline_ms(settings, False), cg.deadline_ms(settings, me.extra_time)
    view: dict[str, Any] = {
        "game": game,
        "phase": game.phase,
        "total": len(game.questions),
        "points": sum(a.points for a in mine.values()),
        "right": sum(1 for a in mine.values() if a.right),
        "paused": game.paused,
        "team": me.team if settings.team_size > 1 else None,
        "server_now": int(now.timestamp() * 1000),
        "extra_ms": (longer - limit) if limit is not None and longer is not None else 0,
        "form": AnswerForm(formdata=None),
        "public": None,
    }
    if game.phase == cg.Phase.QUESTION.value:
        q = games.current(game)
        assert q is not None
        given = mine.get(q.number)
        view.update(
            _question_part(
                game,
                q,
                given=games.label(q, given.answer, deck) if given else None,
                paused=game.paused,
                time_left=games.time_left_ms(game, me.extra_time, now),
            )
        )
    elif game.phase in (cg.Phase.REVEAL.value, cg.Phase.STANDINGS.value):
        q = games.current(game)
        assert q is not None
        given = mine.get(q.number)
        view["revealed"] = {
            "prompt": q.prompt,
            "right_answer": games.label(q, q.answer, deck),
            "fact": games.fact_sentence(q, deck),
            "given": games.label(q, given.answer, deck) if given else None,
            "right": bool(given and given.right),
            "gained": given.points if given else 0,
        }
        view["map_card"] = (
            deck.map_card(q.answer)
            if q.kind in (cg.Kind.FIND, cg.Kind.RED_STATE, cg.Kind.CLUES)
            else None
        )
    if game.phase in (cg.Phase.STANDINGS.value, cg.Phase.ENDED.value):
        table = games.game_standings(game)
        key = me.team if settings.team_size > 1 else me.student_id
        mine_standing = next((s for s in table if s.key == key), None)
        view["rank"] = mine_standing.rank if mine_standing else None
        view["ranked"] = len(table)
    return view


@bp.get("/<int:game_id>")
@student_required
def play(game_id: int) -> str:
    """A student's game: the lobby, each question, the reveal, their points; a refresh comes back
    to where the game is (C-W10)."""
    found, me = _joined_game(game_id)
    return render_template(
        "class_game/play.html",
        **_student_view(found, me),
        live_part=request.args.get("part") == "live",
    )


@bp.post("/<int:game_id>/answer")
@student_required
def answer(game_id: int) -> Response:
    """The student's answer to the open question, judged by the server (C-W4, C-W6)."""
    found, _me = _joined_game(game_id)
    here = url_for("class_game.play", game_id=found.id)
    form = AnswerForm()
    number = whole_number(form.question.data, 0, cg.MAX_QUESTIONS)
    if not form.validate() or number is None:
        return nothing_changed(
            "That answer could not be read. Nothing was recorded.", here, "error"
        )
    given = form.given()
    if not given:
        return nothing_changed("Choose an answer first. Nothing was recorded.", here, "error")
    try:
        games.answer(found.id, _user(), number, given, get_deck(), utcnow())
    except Refused as refused:
        return nothing_changed(str(refused), here, "error")
    sockets.announce_class_game(found.id)
    return redirect(here)  # the page says the answer is in (C-W5: not yet whether it is right)


# --- after the end: the report ---------------------------------------------------------------------

from . import report as _report  # noqa: E402,F401  (its routes are this blueprint's)

__all__ = ["bp", "qr_svg", "watched_version"]
