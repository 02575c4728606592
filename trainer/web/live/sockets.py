"""The live tables' notices over Socket.IO: the socket only says that a table changed.

Moves are made with ordinary POSTs (CSRF-checked, stored by the same services as every game);
the socket carries no move and no secret, only ``{"code": ..., "version": n}`` to the seats of
the table, whose pages then fetch their own view. A client may listen to a table only while its
student sits at it.

A tournament's round page and projector (its teacher) and a match's page (the class's teacher, or
a student of one of its two teams) follow the games played on the devices the same way (P-K10):
they hear ``{"tournament": id, "match": id}`` when a game of a match changed, and fetch their part.
A GeoPlunge Live game (issue 23) is followed alike by its projector and its students' pages:
``{"game": id, "version": n}`` (C-W9); the students' notice of a question just opened holds its
public part of the page too, the same for every student.
A teacher connects for that alone: they listen to no table and have no personal room. With
``REDIS_URL`` set, every server process fans out each notice through
Redis, so players connected to different workers or hosts hear each other.

Each app has its own :class:`~flask_socketio.SocketIO` (``app.extensions["socketio"]``): the tests
build many apps in one process, and a module-wide one would send one app's notices through
another's server.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app
from flask_login import current_user
from flask_socketio import SocketIO, join_room
from sqlalchemy import select

from ..extensions import db
from ..models import Role, TournamentMatch
from . import waits

#: The Socket.IO event a page listens to.
CHANGED = "changed"


#: The event a student's "Classmates" page hears when someone invites them to a table.
INVITED = "invited"

#: The event a tournament's round page, projector or match page hears when a match's game on the
#: devices changed (P-K10).
TOURNAMENT_CHANGED = "tournament_changed"

#: The event a GeoPlunge Live game's projector and students' pages hear when it changed (issue 23).
CLASS_GAME_CHANGED = "class_game_changed"


def room(table_id: int) -> str:
    return f"live:{table_id}"


def personal_room(user_id: int) -> str:
    return f"user:{user_id}"


def tournament_room(tournament_id: int) -> str:
    """The room of a tournament's round page and projector (its teacher's)."""
    return f"tournament:{tournament_id}"


def match_room(match_id: int) -> str:
    """The room of a tournament match's page (its teams' students and the teacher)."""
    return f"tournament-match:{match_id}"


def announce_invite(user_id: int) -> None:
    """Tell the student's open "Classmates" pages that they were invited (no details: the
    page fetches itself again)."""
    socketio: SocketIO | None = current_app.extensions.get("socketio")
    if socketio is not None:
        socketio.emit(INVITED, {}, to=personal_room(user_id))


def init_app(app: Flask) -> SocketIO:
    """Bind a Socket.IO server to ``app`` (threading mode: the WSGI server's own threads, with
    simple-websocket for WebSockets; no eventlet or gevent)."""
    socketio = SocketIO(
        app,
        async_mode="threading",
        message_queue=app.config.get("REDIS_URL") or None,
        # The Redis channel the processes of one install share (tests give each run its own).
        channel=app.config.get("SOCKETIO_CHANNEL", "geoplunge-live"),
        # Same origin only (the default), and the app's own cookie session.
        manage_session=False,
        logger=False,
        engineio_logger=False,
    )

    @socketio.on("connect")
    def connect(auth: Any = None) -> bool:
        """Only a signed-in student or teacher may listen. A student hears their own invitations
        (L-T9); a teacher hears nothing until they watch a tournament they own (P-K10)."""
        if not current_user.is_authenticated:
            return False
        if current_user.role == Role.STUDENT:
            join_room(personal_room(current_user.id))
            return True
        return bool(current_user.role == Role.TEACHER)

    @socketio.on("watch")
    def watch(message: Any) -> dict[str, Any]:
        """Listen to one table, if the student sits at it: answered with its version. A teacher
        never sits at a table, so never listens to one (L-T5)."""
        from .routes import seated_table

        if current_user.role != Role.STUDENT:
            return {"ok": False}
        code = message.get("code") if isinstance(message, dict) else None
        found = seated_table(code) if isinstance(code, str) else None
        if found is None or not _join(room(found.id)):
            return {"ok": False}
        return {"ok": True, "version": found.version}

    @socketio.on("watch_tournament")
    def watch_tournament(message: Any) -> dict[str, Any]:
        """Follow a tournament's games on the devices (P-K10): ``{"tournament": id}`` for its round
        page or projector (the teacher who owns it), ``{"tournament": id, "match": id}`` for a
        match's page (that teacher, or a student of one of its two teams). Answered with the part's
        version, so the page can catch up; anyone else is refused and joins nothing."""
        from ..tournament_play.live_games import watched_version

        found = message if isinstance(message, dict) else {}
        tournament_id, match_id = _whole(found.get("tournament")), _whole(found.get("match"))
        if tournament_id is None or (match_id is None and "match" in found):
            return {"ok": False}
        version = watched_version(tournament_id, match_id)
        if version is None:
            return {"ok": False}
        if not _join(tournament_room(tournament_id) if match_id is None else match_room(match_id)):
            return {"ok": False}
        return {"ok": True, "version": version}

    @socketio.on("watch_class_game")
    def watch_class_game(message: Any) -> dict[str, Any]:
        """Follow a GeoPlunge Live game (issue 23, C-W9): ``{"game": id}``, from its projector (the
        teacher who made it: every change) or a student's page (a student who joined it: where
        the game is). Answered with the version that page follows; anyone else is refused and
        joins nothing."""
        from ..class_game.routes import watched_version

        found = message if isinstance(message, dict) else {}
        game_id = _whole(found.get("game"))
        if game_id is None:
            return {"ok": False}
        version = watched_version(game_id)
        if version is None:
            return {"ok": False}
        teacher = current_user.role == Role.TEACHER
        if not _join(class_game_room(game_id, teacher)):
            return {"ok": False}
        return {"ok": True, "version": version}

    return socketio


def class_game_room(game_id: int, teacher: bool) -> str:
    """The room of a GeoPlunge Live game's projector, or of its students' pages."""
    return f"class-game:{game_id}:{'projector' if teacher else 'students'}"


def announce_class_game(
    game_id: int, moved: bool = False, question: dict[str, Any] | None = None
) -> None:
    """Tell a class game's pages that it changed (after the change is committed, C-W9). The
    notice names the game and a version (no answer, no student): the
    projector hears every change (``version``: a join, an answer, a control), the students' pages
    only where the game is (``state_version``), when a control ``moved`` it, so thirty answers do
    not make thirty pages fetch themselves thirty times. A control that opened a question gives
    the students' notice that ``question`` too, drawn as every student's page draws it (its public
    view only, C-W5): the phones show it without fetching it. Pages without a socket hear it
    through the waiting board, under the game's own keys (``class_game.game.wait_key``)."""
    from ..class_game.game import wait_key
    from ..models import ClassGame

    found = db.session.execute(
        select(ClassGame.version, ClassGame.state_version).where(ClassGame.id == game_id)
    ).first()
    if found is None:
        return
    version, state_version = found
    socketio: SocketIO | None = current_app.extensions.get("socketio")
    if socketio is not None:
        socketio.emit(
            CLASS_GAME_CHANGED,
            {"game": game_id, "version": version},
            to=class_game_room(game_id, True),
        )
        if moved:
            notice: dict[str, Any] = {"game": game_id, "version": state_version}
            if question is not None:
                notice["question"] = question
            socketio.emit(CLASS_GAME_CHANGED, notice, to=class_game_room(game_id, False))
    waits.announce(wait_key(game_id, True), version)
    if moved:
        waits.announce(wait_key(game_id, False), state_version)


def _join(name: str) -> bool:
    """Join the room ``name``; False if the socket is gone meanwhile (a page that moved on while
    its ``watch`` was on its way): python-socketio refuses a room to a socket no longer there, and
    there is nobody left to tell."""
    try:
        join_room(name)
    except ValueError:
        return False
    return True


def _whole(value: Any) -> int | None:
    """An id sent by a page: a positive whole number (not a string, not true or false)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return None
    return value


def announce(table_id: int, code: str, version: int) -> None:
    """Tell every page watching the table that it changed (after the change is committed)."""
    socketio: SocketIO | None = current_app.extensions.get("socketio")
    if socketio is not None:
        socketio.emit(CHANGED, {"code": code, "version": version}, to=room(table_id))
    waits.announce(table_id, version)  # and the pages that wait without a socket


def announce_match(match_id: int, tournament_id: int | None = None) -> None:
    """Tell the tournament's round page and projector, and the match's pages, that a game of the
    match on the devices changed (after the change is committed, P-K10). The notice names the
    tournament and the match, nothing else: no hand, no answer, no student."""
    socketio: SocketIO | None = current_app.extensions.get("socketio")
    if socketio is None:
        return
    if tournament_id is None:
        tournament_id = db.session.execute(
            select(TournamentMatch.tournament_id).where(TournamentMatch.id == match_id)
        ).scalar_one_or_none()
        if tournament_id is None:
            return
    socketio.emit(
        TOURNAMENT_CHANGED,
        {"tournament": tournament_id, "match": match_id},
        to=[tournament_room(tournament_id), match_room(match_id)],
    )
