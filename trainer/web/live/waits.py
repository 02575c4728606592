"""Long-polling for a live table's page whose WebSocket cannot connect (issue 22).

Some school proxies refuse WebSockets. The page then asks the table's version endpoint with
``?after=N&wait=1``, and the request is held until the table's version passes ``N`` or
:data:`WAIT_SECONDS` went by; the page asks again at once. A move made at the table reaches such a
page as fast as a socket's notice would, with no sticky sessions: the request may land on any
server process, which learns of the change from its own :class:`Board`.

Each app has one board (``app.extensions["live_waits"]``). :func:`.sockets.announce` tells it of
every committed change: directly when one process serves it all (no ``REDIS_URL``), and otherwise
through a Redis pub/sub channel of the install's own, which one daemon thread per process listens
to (started with the process's first wait) and passes on to its board. A board only keeps the
versions of tables somebody is waiting for, and forgets each as its last waiter leaves.

The board is only a doorbell: what the page is told is read from the database after it rang, so
a lost or late message costs at most one wait (the page asks again and reads the truth).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, current_app

log = logging.getLogger(__name__)

#: How long a waiting request is held at most: under the 30 s after which proxies and browsers
#: commonly give a quiet request up, and long enough that waiting costs few requests.
WAIT_SECONDS = 20.0

#: How long a wait is held while the Redis listener is not subscribed (Redis down or starting):
#: short, since no message can ring the board then; the page asks again and reads the database.
UNHEARD_WAIT_SECONDS = 3.0


class Board:
    """The latest version announced of each table someone in this process waits for."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._versions: dict[int, int] = {}
        self._waiters: dict[int, int] = {}
        #: Whether changes made in other processes reach this board (always, without Redis).
        self.hears_everything = True

    def heard(self, table_id: int, version: int) -> None:
        """A change to the table was committed; wake whoever waits for it."""
        with self._changed:
            if table_id in self._waiters and version > self._versions.get(table_id, -1):
                self._versions[table_id] = version
                self._changed.notify_all()

    def wait(self, table_id: int, after: int, timeout: float, current: Callable[[], int]) -> None:
        """Return once a version above ``after`` was heard for the table, or after ``timeout``
        seconds. ``current`` reads the table's version from the database; it is called once the
        wait is registered, so a change committed just before is not missed either."""
        with self._changed:
            self._waiters[table_id] = self._waiters.get(table_id, 0) + 1
        try:
            if current() > after:
                return
            with self._changed:
                self._changed.wait_for(
                    lambda: self._versions.get(table_id, -1) > after, timeout=timeout
                )
        finally:
            with self._changed:
                left = self._waiters[table_id] - 1
                if left:
                    self._waiters[table_id] = left
                else:
                    del self._waiters[table_id]
                    self._versions.pop(table_id, None)

    def waiting(self) -> int:
        """How many tables someone waits for (for the tests: nothing is kept for no one)."""
        with self._changed:
            return len(self._waiters)


class _RedisListener:
    """One daemon thread per process: Redis pub/sub messages ``{"t": table id, "v": version}`` on
    the install's channel, passed to the board. Reconnects by itself after a Redis error."""

    def __init__(self, board: Board, url: str, channel: str) -> None:
        self.board, self.url, self.channel = board, url, channel
        self._started = False
        self._lock = threading.Lock()
        board.hears_everything = False

    def start(self) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._run, name="live-waits", daemon=True).start()

    def _run(self) -> None:
        import redis

        while True:
            try:
                pubsub = redis.Redis.from_url(self.url).pubsub()
                pubsub.subscribe(self.channel)
                for message in pubsub.listen():
                    if message.get("type") == "subscribe":  # Redis confirmed: heard from now on
                        self.board.hears_everything = True
                    elif message.get("type") == "message":
                        self._pass_on(message.get("data"))
            except Exception:  # Redis went away: wait without it, and try again shortly
                log.warning("live waits: Redis listener lost its connection", exc_info=True)
            self.board.hears_everything = False
            time.sleep(1.0)

    def _pass_on(self, data: Any) -> None:
        try:
            found = json.loads(data)
            table_id, version = int(found["t"]), int(found["v"])
        except (TypeError, ValueError, KeyError):
            return
        self.board.heard(table_id, version)


class Waits:
    """The app's board, and how a change reaches every process's board."""

    def __init__(self, app: Flask) -> None:
        self.board = Board()
        url = app.config.get("REDIS_URL") or None
        self.channel = f"{app.config.get('SOCKETIO_CHANNEL', 'geoplunge-live')}:versions"
        self._redis: Any = None
        self._listener: _RedisListener | None = None
        if url:
            import redis

            self._redis = redis.Redis.from_url(url)
            self._listener = _RedisListener(self.board, url, self.channel)

    def announce(self, table_id: int, version: int) -> None:
        if self._redis is None:
            self.board.heard(table_id, version)
            return
        try:
            self._redis.publish(self.channel, json.dumps({"t": table_id, "v": version}))
        except Exception:  # the move is kept; a waiting page reads it at its next ask
            log.warning("live waits: could not publish a table's version", exc_info=True)
            self.board.heard(table_id, version)

    def wait(self, table_id: int, after: int, current: Callable[[], int]) -> None:
        if self._listener is not None:
            self._listener.start()
        seconds = float(current_app.config.get("LIVE_WAIT_SECONDS", WAIT_SECONDS))
        if not self.board.hears_everything:
            seconds = min(seconds, UNHEARD_WAIT_SECONDS)
        self.board.wait(table_id, after, seconds, current)


def init_app(app: Flask) -> Waits:
    waits = Waits(app)
    app.extensions["live_waits"] = waits
    return waits


def announce(table_id: int, version: int) -> None:
    waits: Waits | None = current_app.extensions.get("live_waits")
    if waits is not None:
        waits.announce(table_id, version)


def wait(table_id: int, after: int, current: Callable[[], int]) -> None:
    """Hold the request until the table's version passes ``after`` (see :class:`Board`)."""
    waits: Waits | None = current_app.extensions.get("live_waits")
    if waits is not None:
        waits.wait(table_id, after, current)
