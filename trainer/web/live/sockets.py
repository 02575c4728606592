"""The live tables' notices over Socket.IO: the socket only says that a table changed.

Moves are made with ordinary POSTs (CSRF-checked, stored by the same services as every game);
the socket carries no move and no secret, only ``{"code": ..., "version": n}`` to the seats of
the table, whose pages then fetch their own view. A client may listen to a table only while its
student sits at it. With ``REDIS_URL`` set, every server process fans out each notice through
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

from ..models import Role

#: The Socket.IO event a page listens to.
CHANGED = "changed"


#: The event a student's "Classmates" page hears when someone invites them to a table.
INVITED = "invited"


def room(table_id: int) -> str:
    return f"live:{table_id}"


def personal_room(user_id: int) -> str:
    return f"user:{user_id}"


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
        """Only a signed-in student may listen; they hear their own invitations (L-T9)."""
        if not (current_user.is_authenticated and current_user.role == Role.STUDENT):
            return False
        join_room(personal_room(current_user.id))
        return True

    @socketio.on("watch")
    def watch(message: Any) -> dict[str, Any]:
        """Listen to one table, if the student sits at it: answered with its version."""
        from .routes import seated_table

        code = message.get("code") if isinstance(message, dict) else None
        found = seated_table(code) if isinstance(code, str) else None
        if found is None:
            return {"ok": False}
        join_room(room(found.id))
        return {"ok": True, "version": found.version}

    return socketio


def announce(table_id: int, code: str, version: int) -> None:
    """Tell every page watching the table that it changed (after the change is committed)."""
    socketio: SocketIO | None = current_app.extensions.get("socketio")
    if socketio is not None:
        socketio.emit(CHANGED, {"code": code, "version": version}, to=room(table_id))
