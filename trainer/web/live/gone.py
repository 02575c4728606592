"""Live tables whose students have gone (issue 22, rulings L-T11 to L-T13): no game is lost to bad
wifi, and no table waits for ever.

- A card game goes on while one student is at the table: the computer plays for the others who are
  away (L-T7, asked by that student's page), so a student left alone plays it to the end (L-T11).
- A duel (a race or a State IQ duel) has no computer to play for a student (L-Q3): once the
  classmate has not been heard from for :data:`trainer.live.DUEL_LEFT_AFTER`, the student still at
  the table may end it with no result, as a game not finished at the bell does not count (K2). The
  end is one conditional write on the table (playing, at the page's version, the classmate still
  unheard), so it is kept once, and it is announced to the table (L-T12).
- A table nothing happened at for :data:`trainer.live.QUIET_FOR` (no change, no page heard from) is
  given up: a lobby is closed, a game is over with no result (L-T13). Done when the table or its
  students' list of tables is read, and for every table by ``flask --app app live-tidy``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import click
from flask import Flask, flash, redirect, url_for
from flask.cli import with_appcontext
from sqlalchemy import and_, exists, select, update
from werkzeug.wrappers import Response

from trainer import live

from ..extensions import changed_rows, db
from ..guards import nothing_changed
from ..models import LiveSeat, LiveTable, utcnow
from ..security import student_required
from .duels import DUELS, is_duel
from .forms import SeatForm
from .routes import (
    STATUS_CLOSED,
    STATUS_OPEN,
    STATUS_OVER,
    STATUS_PLAYING,
    STATUS_WAITING,
    TABLE_CHANGED,
    _commit_and_announce,
    _names,
    _seated_or_404,
    _seen,
    bp,
)

#: An end asked of a card game's table: the computer plays for a classmate who has left (L-T7).
NOT_A_DUEL = (
    "At a card game the computer plays for a classmate who has left, so the game goes on. "
    "Nothing changed."
)
NOT_STARTED = "The game has not started. Nothing changed."
ALREADY_OVER = "This game is over already. Nothing changed."


# --- a duel whose classmate left (L-T12) -------------------------------------------------------


def duel_end_at(table: LiveTable, seat: int) -> dt.datetime | None:
    """When the student at ``seat`` may end the duel because their classmate left; None when the
    table is not a duel being played."""
    if not is_duel(table.game) or table.status != STATUS_PLAYING or table.started_at is None:
        return None
    return live.duel_may_end_at(_seen(table).get(1 - seat), table.started_at)


def duel_end(table: LiveTable, seat: int) -> dict[str, Any]:
    """What a duel's page needs to offer the end (L-T12): when it may be asked, whether it may be
    now, and the server's clock (the page counts to ``end_at`` on it, then fetches itself)."""
    now = utcnow()
    at = duel_end_at(table, seat)
    return {
        "end_at": at,
        "may_end": at is not None and now >= at,
        "end_url": url_for("live.end_duel", code=table.code),
        "server_now": now,
        "left_minutes": int(live.DUEL_LEFT_AFTER.total_seconds() // 60),
    }


def end_left_duel(table: LiveTable, seat: int, version: int | None, now: dt.datetime) -> bool:
    """End the duel with no result, asked by the student at ``seat`` whose classmate has left: one
    conditional write (the duel still playing, at ``version``, started and the classmate unheard
    for :data:`trainer.live.DUEL_LEFT_AFTER`), announced to the table. Each round or side of it
    keeps the result "playing": like a game not finished at the bell, it does not count (K2).

    Returns:
        True when it was kept; False when anything changed meanwhile or the classmate is still
        there (nothing kept).
    """
    if table.status != STATUS_PLAYING or version != table.version:
        return False
    cutoff = now - live.DUEL_LEFT_AFTER
    table_id, other = table.id, 1 - seat
    heard = exists().where(
        LiveSeat.table_id == table_id, LiveSeat.seat == other, LiveSeat.seen_at > cutoff
    )

    def work() -> bool:
        return (
            changed_rows(
                update(LiveTable)
                .where(
                    LiveTable.id == table_id,
                    LiveTable.status == STATUS_PLAYING,
                    LiveTable.version == version,
                    LiveTable.started_at <= cutoff,
                    ~heard,
                )
                .values(
                    status=STATUS_OVER,
                    version=LiveTable.version + 1,
                    updated_at=now,
                    finished_at=now,
                )
            )
            == 1
        )

    return _commit_and_announce(table_id, table.code, work)


@bp.post("/<code>/end")
@student_required
def end_duel(code: str) -> Response:
    """End a duel whose classmate has left, with no result (L-T12)."""
    found, seats, seat = _seated_or_404(code)
    here = url_for("live.table", code=found.code)
    form = SeatForm()
    if not is_duel(found.game):
        return nothing_changed(NOT_A_DUEL, here)
    if found.status in (STATUS_OPEN, STATUS_CLOSED):
        return nothing_changed(NOT_STARTED, here)
    if found.status != STATUS_PLAYING:
        return nothing_changed(ALREADY_OVER, here)
    if not form.validate() or form.version_number() != found.version:
        return nothing_changed(TABLE_CHANGED, here)
    at = duel_end_at(found, seat)
    rival = _names(seats).get(1 - seat, "your classmate")
    now = utcnow()
    if at is None or now < at:
        flash(
            f"{rival} was at the table less than {duel_end(found, seat)['left_minutes']} minutes "
            "ago: the game waits for them. Nothing changed.",
            "info",
        )
        return redirect(here)
    if not end_left_duel(found, seat, found.version, now):
        return nothing_changed(TABLE_CHANGED, here)
    flash(f"You ended the {DUELS[found.game].title}: {rival} had left. No result.", "info")
    return redirect(here)


# --- tables nobody comes back to (L-T13) -------------------------------------------------------


#: The tables L-T13 gives up when quiet: a lobby, a match's table waiting for a team, a game.
QUIET_STATUSES = (STATUS_OPEN, STATUS_WAITING, STATUS_PLAYING)


def tidy(now: dt.datetime, *, user_id: int | None = None, table_id: int | None = None) -> int:
    """Give up the tables quiet for :data:`trainer.live.QUIET_FOR` at ``now`` (all of them, those
    ``user_id`` sits at, or the one ``table_id``): a lobby, or a tournament match's table waiting
    for its second team (P-K8), is closed, a game is over with no result
    (its seats keep no result, its rounds stay unfinished and do not count). Each one is a
    conditional write (still open, waiting or playing, still quiet), announced to its pages.

    Returns:
        How many tables were given up.
    """
    cutoff = now - live.QUIET_FOR
    heard = exists().where(LiveSeat.table_id == LiveTable.id, LiveSeat.seen_at > cutoff)
    quiet = and_(LiveTable.status.in_(QUIET_STATUSES), LiveTable.updated_at <= cutoff, ~heard)
    query = select(LiveTable.id, LiveTable.code, LiveTable.status).where(quiet)
    if user_id is not None:
        query = query.where(
            LiveTable.id.in_(select(LiveSeat.table_id).where(LiveSeat.user_id == user_id))
        )
    if table_id is not None:
        query = query.where(LiveTable.id == table_id)
    given_up = 0
    for found_id, code, status in db.session.execute(query.order_by(LiveTable.id)).all():
        # A lobby closed here has a finished_at (one its host closed has none): its page says why.
        ending = {
            "status": STATUS_OVER if status == STATUS_PLAYING else STATUS_CLOSED,
            "finished_at": now,
        }

        def work(found_id: int = found_id, ending: dict[str, Any] = ending) -> bool:
            return (
                changed_rows(
                    update(LiveTable)
                    .where(LiveTable.id == found_id, quiet)
                    .values(version=LiveTable.version + 1, **ending)
                    .execution_options(synchronize_session=False)
                )
                == 1
            )

        given_up += _commit_and_announce(found_id, code, work)
    return given_up


def tidy_table(table: LiveTable) -> LiveTable:
    """``table`` as it is once given up if it has been quiet (L-T13): read on every request for it,
    so its pages and its students' list agree. Only a table unchanged for the whole time is looked
    at further (one comparison for every other)."""
    now = utcnow()
    if table.status not in QUIET_STATUSES or now - table.updated_at < live.QUIET_FOR:
        return table
    if not live.is_quiet(table.updated_at, list(_seen(table).values()), now):
        return table
    if tidy(now, table_id=table.id):  # the same rule again, as the write's condition
        db.session.refresh(table)
    return table


@click.command("live-tidy")
@with_appcontext
def live_tidy_command() -> None:
    """Close the live tables nobody has been at for a day (L-T13): lobbies never started are
    closed, games nobody plays on are over with no result."""
    count = tidy(utcnow())
    click.echo(f"{count} live table{'' if count == 1 else 's'} given up.")


def init_app(app: Flask) -> None:
    """Register ``flask --app app live-tidy``."""
    app.cli.add_command(live_tidy_command)
