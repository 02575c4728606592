"""Live tables: students playing one card game together, each on their own device (issue 22).

The rules of a table's seats, apart from the game's own rules: who sits where before the game
starts, which seats the computer plays, and who is to move. The web layer stores a table as its
seats and, once started, as the game's seed and actions (G9), and asks these functions what a
request may change. Everything here is pure: no Flask, no database.

A table has as many seats as the game has players. The student who opens it sits at seat 0 and
is its host. Others join with the table's code into the lowest free seat and may move to another
free seat (team members sit alternately, G6, so a seat is a team). The host may give a free seat to
the computer, or take it back; a game starts only with at least :data:`MIN_HUMANS` students at the
table, and every seat still free is then played by the computer at the table's level.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .games.base import TERMINAL

#: Table codes use only letters and digits that cannot be taken for one another (no 0/O, 1/I/L).
TABLE_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
TABLE_CODE_LENGTH = 6
#: A live table is for students playing each other: against the computer alone, the card games
#: page deals a game at once.
MIN_HUMANS = 2


class TableError(ValueError):
    """A change the table's rules do not allow; the message says why, in a student's words."""


@dataclass(frozen=True)
class Seat:
    """One seat: a student's (``user_id``), the computer's, or free (neither)."""

    index: int
    user_id: int | None = None
    computer: bool = False

    @property
    def free(self) -> bool:
        return self.user_id is None and not self.computer


def new_code(rng: random.Random) -> str:
    """A table code drawn from ``rng`` (the web layer passes ``random.SystemRandom``)."""
    return "".join(rng.choice(TABLE_CODE_ALPHABET) for _ in range(TABLE_CODE_LENGTH))


def normal_code(text: str) -> str:
    """A code as a student may type it ("k7p 2qr", "K7P-2QR") in the form it is stored."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def empty_seats(players: int, host_id: int) -> tuple[Seat, ...]:
    """A new table's seats: the host at seat 0, the others free."""
    if players < 2:
        raise TableError("A table needs at least two seats.")
    return (Seat(0, host_id), *(Seat(i) for i in range(1, players)))


def seat_of(seats: Sequence[Seat], user_id: int) -> int | None:
    """The seat ``user_id`` sits at, or None."""
    for seat in seats:
        if seat.user_id == user_id:
            return seat.index
    return None


def sit(seats: Sequence[Seat], user_id: int, index: int | None = None) -> tuple[Seat, ...]:
    """``user_id`` sits at seat ``index`` (None: the lowest free seat), leaving the seat they had.

    Raises:
        TableError: no such seat, the seat is taken (by a student or the computer), the table
            is full, or the host would leave seat 0 (the host keeps it: it is how the table
            knows who may start it).
    """
    here = seat_of(seats, user_id)
    if index is None:
        if here is not None:
            return tuple(seats)
        free = [seat.index for seat in seats if seat.free]
        if not free:
            raise TableError("This table is full.")
        index = free[0]
    if not 0 <= index < len(seats):
        raise TableError("There is no such seat at this table.")
    if index == here:
        return tuple(seats)
    if here == 0:
        raise TableError("You opened this table, so you keep the first seat.")
    if not seats[index].free:
        raise TableError("That seat is taken. Choose a free one.")
    out = []
    for seat in seats:
        if seat.index == index:
            out.append(replace(seat, user_id=user_id, computer=False))
        elif seat.index == here:
            out.append(replace(seat, user_id=None))
        else:
            out.append(seat)
    return tuple(out)


def stand(seats: Sequence[Seat], user_id: int) -> tuple[Seat, ...]:
    """``user_id`` leaves the table before the game starts; their seat is free again.

    Raises:
        TableError: they are not at the table, or they are its host (seat 0), who closes it instead.
    """
    here = seat_of(seats, user_id)
    if here is None:
        raise TableError("You are not at this table.")
    if here == 0:
        raise TableError("You opened this table: close it instead of leaving it.")
    return tuple(replace(seat, user_id=None) if seat.index == here else seat for seat in seats)


def give_to_computer(seats: Sequence[Seat], index: int, computer: bool) -> tuple[Seat, ...]:
    """The host gives the free seat ``index`` to the computer (``computer`` True) or frees it.

    Raises:
        TableError: no such seat, or a student sits there.
    """
    if not 0 <= index < len(seats):
        raise TableError("There is no such seat at this table.")
    if seats[index].user_id is not None:
        raise TableError("A player sits there: only a free seat can be given to the computer.")
    return tuple(
        replace(seat, computer=computer) if seat.index == index else seat for seat in seats
    )


def humans(seats: Sequence[Seat]) -> list[int]:
    """The students at the table, in seat order."""
    return [seat.user_id for seat in seats if seat.user_id is not None]


def check_start(seats: Sequence[Seat]) -> None:
    """Whether the game can start now.

    Raises:
        TableError: fewer than :data:`MIN_HUMANS` students sit at the table.
    """
    if len(humans(seats)) < MIN_HUMANS:
        raise TableError(
            "Wait for at least one classmate to join (give them the table's code), "
            "or play against the computer from the Card games page."
        )


def started(seats: Sequence[Seat]) -> tuple[Seat, ...]:
    """The seats once the game starts: every free seat is the computer's."""
    check_start(seats)
    return tuple(replace(seat, computer=True) if seat.free else seat for seat in seats)


def to_move(seats: Sequence[Seat], current_player: int) -> int | None:
    """The student whose turn it is, or None when it is the computer's (or the game is over)."""
    if current_player == TERMINAL:
        return None
    return seats[current_player].user_id


def computer_seats(seats: Sequence[Seat]) -> list[int]:
    """The seats the computer plays."""
    return [seat.index for seat in seats if seat.computer]


#: The few friendly messages a student may send to their table (L-T8): there is no free text.
CHEERS: tuple[str, ...] = ("Good game!", "Your turn!", "Nice move!", "Good luck!", "Thanks!")


def cheer(index: int | None) -> str:
    """The friendly message numbered ``index``.

    Raises:
        TableError: no such message.
    """
    if index is None or not 0 <= index < len(CHEERS):
        raise TableError("Choose one of the messages.")
    return CHEERS[index]


#: A student whose page has not been heard from for this long is away (L-T7): their pages
#: report every 15 seconds while open.
AWAY_AFTER = dt.timedelta(seconds=60)
#: The turn timers a table may have (seconds), or none.
TURN_TIMERS: tuple[int, ...] = (30, 60, 120)


def computer_may_move_at(
    seen_at: dt.datetime | None, turn_began: dt.datetime, turn_seconds: int | None
) -> dt.datetime:
    """When the computer may play for the student whose turn it is (L-T7): once they have been
    away for :data:`AWAY_AFTER` (not heard from since ``seen_at``; since the turn began if never),
    but not before their turn began, or once the table's turn timer has run out, whichever comes
    first."""
    at = max((seen_at or turn_began) + AWAY_AFTER, turn_began)
    if turn_seconds:
        at = min(at, turn_began + dt.timedelta(seconds=turn_seconds))
    return at


#: A duel's classmate not heard from for this long has left it (L-T12): the student still at the
#: table may then end it with no result. Longer than :data:`AWAY_AFTER`, as no computer takes the
#: seat and a page that lost its wifi for a minute comes back on its own.
DUEL_LEFT_AFTER = dt.timedelta(minutes=2)
#: A table that nothing happened at for this long (no change, no page heard from) is given up
#: (L-T13): a lobby is closed, a game is over with no result.
QUIET_FOR = dt.timedelta(hours=24)


def duel_may_end_at(seen_at: dt.datetime | None, started_at: dt.datetime) -> dt.datetime:
    """When the student still at a duel may end it because their classmate has left (L-T12): once
    the classmate has not been heard from for :data:`DUEL_LEFT_AFTER`, counted from the start when
    they were last heard from before it (or never)."""
    return max(seen_at or started_at, started_at) + DUEL_LEFT_AFTER


def quiet_since(updated_at: dt.datetime, seen: Sequence[dt.datetime | None]) -> dt.datetime:
    """The last time anything happened at a table: its last change or the last page heard from."""
    return max([updated_at, *(at for at in seen if at is not None)])


def is_quiet(updated_at: dt.datetime, seen: Sequence[dt.datetime | None], now: dt.datetime) -> bool:
    """Whether a table has been quiet for :data:`QUIET_FOR` at ``now`` (L-T13)."""
    return now - quiet_since(updated_at, seen) >= QUIET_FOR
