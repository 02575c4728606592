"""A Dashing States race between two classmates at a live table (issue 22, rulings L-D1 to L-D4).

The table is opened like a Border-Up race's (:mod:`.race`), for two students and no computer. At the
host's start each student gets their own round, dealt as against the computer
(:func:`..play.dashing.new_dashing`: five Map cards from their own weakest map and capital facts),
and both are turned over at the same instant. The first call the server receives decides the race
(D1 for two students): a right call wins it and a wrong one loses it, kept by the same conditional
write as a Border-Up race's (:func:`.race.decide_race`), with the call's reviews recorded as against
the computer in the same unit.

Each page shows the student's own five Map cards only, drawn through their round's own stretches
(P-H2): the red states stay on the server until the race is over; then each page shows its own call
judged (or its own cards named), and the classmate's call judged.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from trainer.facts import UnreadableAnswer
from trainer.live import Seat
from trainer.quiz.dashing_states import BadCall, Call, CallResult, judge_call
from trainer.results import Result

from .. import get_deck
from ..extensions import db
from ..guards import Refused, Stale, nothing_changed
from ..models import DashingRound, LiveSeat, LiveTable, User, utcnow
from ..play.common import current_student
from ..play.dashing import (
    LETTERS,
    call_outcomes,
    card_drawings,
    judged_call,
    new_dashing,
    stored_call,
)
from ..play.forms import DashingForm
from ..security import student_required
from .duels import Duel, register
from .forms import DASHING_STATES
from .race import (
    A_CLASSMATE,
    NOT_STARTED,
    called_first,
    dealt_of,
    decide_race,
    each_student,
    start_between_classmates,
)
from .routes import (
    STATUS_CLOSED,
    STATUS_OPEN,
    STATUS_OVER,
    STATUS_PLAYING,
    _page,
    _seated_or_404,
    bp,
)
from .routes import (
    _names as _usernames,
)

TITLE = "Dashing States race"
#: A Dashing States call sent to another table (a card game's, a Border-Up race's).
NOT_A_DASHING_RACE = "This table does not play a Dashing States race. Nothing changed."


# --- the start -------------------------------------------------------------------------------


def start_dashing_race(
    table: LiveTable, seats: tuple[Seat, ...], version: int, now: dt.datetime
) -> bool:
    """Deal each student their own five Map cards and turn both rounds over at ``now`` ("Ready,
    Set, GeoPlunge!" is the start, L-D1), in one conditional write on the table's ``version``.

    Returns False when the table changed meanwhile (nothing kept).

    Raises:
        TableError: a seat is not a student's.
    """
    level = table.level

    def dealt(student: User) -> DashingRound:
        row = new_dashing(student, level)
        # Both rounds are turned over at the same instant: each student's time counts from it.
        row.created_at = now
        return row

    return start_between_classmates(
        table,
        seats,
        version,
        now,
        title=TITLE,
        deal=each_student(dealt),
        column=LiveSeat.dashing_round_id,
    )


# --- the call --------------------------------------------------------------------------------


def dashing_rounds_of(table: LiveTable) -> dict[int, DashingRound]:
    """Each seat's own round, by seat (none before the start)."""
    return dealt_of(table, DashingRound, LiveSeat.dashing_round_id)


def play_dashing_race_call(
    table: LiveTable,
    seat: int,
    rounds: dict[int, DashingRound],
    call: Call,
    student: User,
    now: dt.datetime,
) -> None:
    """The call of the student at ``seat`` on their own five Map cards, at ``now``: judged as
    against the computer (D1, P-H7, P-H8), its reviews recorded the same way, and deciding the race
    if it is the first (L-D2).

    Raises:
        Stale: the race was decided already (also when another call was kept first).
        Refused: the call cannot be judged (a card without its own place, a name or capital left
            empty); nothing changes and the race goes on.
    """
    mine, theirs = rounds.get(seat), rounds.get(1 - seat)
    if table.status != STATUS_PLAYING or mine is None or theirs is None or mine.call is not None:
        raise Stale("decided")
    try:
        judged = judge_call(mine.cards, call, get_deck())
    except (BadCall, UnreadableAnswer) as refused:
        raise Refused(str(refused)) from refused
    seconds = (now - mine.created_at).total_seconds()
    values = {
        "call": stored_call(call),
        "called_at": now,
        "seconds": seconds if judged.success else None,
    }
    outcomes = call_outcomes(mine, judged, seconds)
    decide_race(
        table,
        seat,
        DashingRound,
        (mine.id, theirs.id),
        values,
        judged.success,
        student,
        outcomes,
        now,
    )


@bp.post("/<code>/dashing-call")
@student_required
def dashing_race_call(code: str) -> str | Response | tuple[str, int]:
    """The student calls GeoPlunge! with their four cards in order, named, with capitals (L-D2, L-D3)."""
    found, seats, seat = _seated_or_404(code)
    here = url_for("live.table", code=found.code)
    if found.game != DASHING_STATES:
        return nothing_changed(NOT_A_DASHING_RACE, here)
    if found.status in (STATUS_OPEN, STATUS_CLOSED):
        return nothing_changed(NOT_STARTED, here)
    form = DashingForm()
    try:
        if found.status != STATUS_PLAYING:
            raise Stale("decided")
        if not form.validate():
            flash(" ".join(e for errors in form.errors.values() for e in errors), "error")
            return redirect(here)
        rounds = dashing_rounds_of(found)
        play_dashing_race_call(found, seat, rounds, form.call(), current_student(), utcnow())
    except Stale:
        db.session.rollback()
        db.session.expire_all()
        return nothing_changed(
            called_first(dashing_rounds_of(found), seat, _usernames(seats)), here
        )
    except Refused as refused:
        db.session.rollback()
        template, context = _page(found, seats, seat, None)
        context = {**context, "problem": str(refused), "sent": request.form}
        return render_template(template, **context), 400
    return redirect(here)


# --- the page --------------------------------------------------------------------------------


def _judged_cards(row: DashingRound, judged: CallResult) -> list[dict[str, Any]]:
    """A call's used cards, in the order it put them, as the race page lists them."""
    deck = get_deck()
    return [
        {
            "letter": LETTERS[card.position],
            "state": deck[card.postal],
            "name": card.name,
            "capital": card.capital,
        }
        for card in judged.cards
    ]


def _call_view(row: DashingRound) -> dict[str, Any] | None:
    """A round's call judged (None without one): its cards, its order, the card set aside."""
    if row.call is None:
        return None
    judged = judged_call(row)
    aside = row.call["set_aside"]
    return {
        "cards": _judged_cards(row, judged),
        "order_right": judged.order_right,
        "order_notes": judged.order_notes,
        "success": judged.success,
        "aside": f"card {LETTERS[aside]}, {get_deck()[row.cards[aside]].name}",
    }


def _explanation(rounds: dict[int, DashingRound], seat: int, rival: str) -> str:
    """Who called first, and whether everything in the call was right (L-D2)."""
    caller = next((index for index, row in rounds.items() if row.call is not None), None)
    if caller is None:
        # Ended with no result (L-T12, L-T13): like a game not finished at the bell (K2).
        return (
            "The race ended without a call, so it has no result and does not count: a classmate "
            "had left the table, or nobody played for a day."
        )
    who = "You" if caller == seat else rival
    if rounds[caller].result == Result.WON:
        return (
            f"{who} called first, with the four states in order and every name and capital right."
        )
    other = rival if caller == seat else "you"
    return f"{who} called first, but not everything in the call was right, so {other} won the race."


def clock_text(seconds: float) -> str:
    """A time as the race's clock shows it (dashing.js): whole minutes and seconds, ``m:ss``."""
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def _clock_stopped(table: LiveTable, rounds: dict[int, DashingRound]) -> str | None:
    """Where the race's clock stopped: the time from the start to the first call kept (L-D2);
    None for a race ended without a call (its end is no moment of the race)."""
    calls = [row.called_at for row in rounds.values() if row.called_at is not None]
    if table.started_at is None or not calls:
        return None
    return clock_text((min(calls) - table.started_at).total_seconds())


def dashing_race_page(
    table: LiveTable, seats: tuple[Seat, ...], seat: int, common: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """The race for ``seat``: their own five Map cards and the call while it is on; once it is over
    the result, their own call judged (or their cards named) and the classmate's call judged (L-D4)."""
    deck = get_deck()
    rounds = dashing_rounds_of(table)
    mine, theirs = rounds.get(seat), rounds.get(1 - seat)
    if mine is None or theirs is None:  # a race always has both rounds once started
        abort(404)
    rival = common["usernames"].get(1 - seat, A_CLASSMATE)
    over = table.status == STATUS_OVER
    # Until the race is over only this round's own drawing of its cards is on the page (P-H2).
    drawings = None if over else card_drawings(mine)
    cards = [
        {
            "letter": LETTERS[i],
            "position": i,
            "map": deck.map_card(postal),
            "drawing": drawings.cards[i] if drawings else None,
            "state": deck[postal] if over else None,
        }
        for i, postal in enumerate(mine.cards)
    ]
    context: dict[str, Any] = {
        **common,
        "rival": rival,
        "mine": mine,
        "over": over,
        "cards": cards,
        "drawings": drawings,
        "geometry": deck.geometry,
        "call_url": url_for("live.dashing_race_call", code=table.code),
        "problem": None,
        "sent": {},
        "state_names": sorted(s.name for s in deck),
        "capital_names": sorted(s.capital for s in deck),
        "my_call": None,
        "their_call": None,
        "explanation": "",
        # The running clock counts from the start both hands turned over, on the server's clock
        # (``server_now``, from the common context); stopped at the first call once it is over.
        "clock_start": None if over else table.started_at,
        "clock_stopped": None,
    }
    if over:  # the classmate's call, and every state, stay on the server until now
        context.update(
            my_call=_call_view(mine),
            their_call=_call_view(theirs),
            explanation=_explanation(rounds, seat, rival),
            result=mine.result,
            clock_stopped=_clock_stopped(table, rounds),
        )
    return ("live/dashing_race.html", context)


register(
    Duel(
        DASHING_STATES,
        title=TITLE,
        how="call GeoPlunge! with four of your Map cards in order",
        start=start_dashing_race,
        page=dashing_race_page,
    )
)
