"""A Border-Up race between two classmates at a live table (issue 22, rulings L-R1 to L-R4).

The table is opened like a card game's, for two students and no computer. At the host's start each
student gets their own round, dealt as against the computer (:func:`..play.border_up.new_border_up`:
their hand leans on their own weakest border facts), and both are turned over at the same instant.
The first call the server receives decides the race (D1 for two students): a right call wins it
and a wrong one loses it. "First" is a conditional write on the table (playing to over), so of two
calls at once exactly one is kept; the other is refused and records nothing. The call's reviews go
through the same path as against the computer (:func:`..play.common.save_call`), in the same unit
as the table's write.

Each page shows the student's own 18 cards only: the classmate's hand and the solutions stay on the
server until the race is over; then each page shows its own groups judged, the classmate's call
judged, and the winning calls of its own hand.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from flask import abort, flash, redirect, render_template, request, url_for
from sqlalchemy import select, update
from sqlalchemy.orm import InstrumentedAttribute
from werkzeug.wrappers import Response

from trainer import srs
from trainer.facts import Form
from trainer.live import Seat, TableError
from trainer.quiz.border_up import (
    BadCall,
    GroupResult,
    call_succeeds,
    judge_call,
    reviews,
    solutions,
)
from trainer.results import Result

from .. import get_deck
from ..extensions import changed_rows, db
from ..guards import Refused, Stale, nothing_changed
from ..models import BorderUpRound, LiveSeat, LiveTable, User, utcnow
from ..play.border_up import MODE, SOLUTIONS_SHOWN, new_border_up
from ..play.common import current_student, save_call
from ..play.forms import BorderUpForm
from ..security import student_required
from .duels import Duel, register
from .forms import BORDER_UP
from .routes import (
    STATUS_CLOSED,
    STATUS_OPEN,
    STATUS_OVER,
    STATUS_PLAYING,
    _commit_and_announce,
    _page,
    _seated_or_404,
    _write_seats,
    bp,
)
from .routes import (
    _names as _usernames,
)

#: A call sent before the host started the race (or to a table that was closed).
NOT_STARTED = "The race has not started yet: wait for the start. Nothing changed."
#: A Border-Up call sent to another table (a card game's, a Dashing States race's).
NOT_A_RACE = "This table does not play a Border-Up race. Nothing changed."
#: A second call from the student who called first (a double submit, another tab).
YOU_CALLED = "You have already called GeoPlunge! in this race; nothing changed."
#: How the race's pages name the classmate when their username is unknown (an account deleted).
A_CLASSMATE = "your classmate"


class _NotFirst(Exception):
    """The round had a call already: the whole unit (the table's write too) is rolled back."""


# --- the start -------------------------------------------------------------------------------


def check_race_seats(seats: Sequence[Seat], title: str = "Border-Up race") -> None:
    """Whether a race (a ``title``) can start: both of its two seats are students' (L-R1, L-D1).

    Raises:
        TableError: a seat is free (or, from an old table, the computer's).
    """
    if len(seats) != 2 or any(seat.user_id is None or seat.computer for seat in seats):
        raise TableError(
            f"A {title} is between two classmates: wait for one to join with the code."
        )


class _Dealt(Protocol):
    """A seat's own round or side of a race or duel, once flushed."""

    @property
    def id(self) -> int: ...


D = TypeVar("D", bound=_Dealt)


def each_student(deal: Callable[[User], D]) -> Callable[[Mapping[int, User]], dict[int, D]]:
    """A dealer for :func:`start_between_classmates` that deals each student's round on its own,
    by ``deal``, in the order of the seats."""
    return lambda students: {index: deal(student) for index, student in students.items()}


def start_between_classmates(
    table: LiveTable,
    seats: tuple[Seat, ...],
    version: int,
    now: dt.datetime,
    *,
    title: str,
    deal: Callable[[Mapping[int, User]], Mapping[int, _Dealt]],
    column: InstrumentedAttribute[int | None],
    **values: Any,
) -> bool:
    """Start a race or duel (a ``title``) between the two students at ``seats`` at ``now``, in one
    conditional write on the table's ``version``: the seats and the table (playing, started at
    ``now``, and ``values``) written, each seat's own round or side dealt by ``deal`` (given the
    students by seat, it adds what it deals to the session) and its id kept in the seat's
    ``column`` (L-R1, L-D1, L-Q2).

    Returns False when the table changed meanwhile (nothing kept).

    Raises:
        TableError: a seat is not a student's, or a student's account was deleted this instant.
    """
    check_race_seats(seats, title)
    table_id = table.id
    students = [(seat.index, seat.user_id) for seat in seats]

    def work() -> bool:
        if not _write_seats(
            table_id, version, seats, status=STATUS_PLAYING, started_at=now, **values
        ):
            return False
        found: dict[int, User] = {}
        for index, user_id in students:
            student = db.session.get(User, user_id)
            if student is None:  # the account was deleted this instant: start nothing
                raise TableError("Your classmate has left. Open a new table.")
            found[index] = student
        for index, row in deal(found).items():
            db.session.flush()
            db.session.execute(
                update(LiveSeat)
                .where(LiveSeat.table_id == table_id, LiveSeat.seat == index)
                .values({column: row.id})
            )
        return True

    return _commit_and_announce(table_id, table.code, work)


def dealt_of(
    table: LiveTable, model: Any, column: InstrumentedAttribute[int | None]
) -> dict[int, Any]:
    """Each seat's own round or side of a race or duel (a ``model`` row, its id kept in the seat's
    ``column`` by :func:`start_between_classmates`), by seat (none before the start)."""
    rows = db.session.execute(
        select(LiveSeat.seat, model)
        .join(model, model.id == column)
        .where(LiveSeat.table_id == table.id)
    ).all()
    return {seat: row for seat, row in rows}


def start_race(table: LiveTable, seats: tuple[Seat, ...], version: int, now: dt.datetime) -> bool:
    """Deal each student their own round and turn both over at ``now`` ("Ready, Set, GeoPlunge!"
    is the start, L-R1), in one conditional write on the table's ``version``.

    Returns False when the table changed meanwhile (nothing kept).

    Raises:
        TableError: a seat is not a student's.
    """
    level = table.level

    def dealt(student: User) -> BorderUpRound:
        row = new_border_up(student, level)
        row.revealed_at, row.result = now, Result.PLAYING
        return row

    return start_between_classmates(
        table,
        seats,
        version,
        now,
        title="Border-Up race",
        deal=each_student(dealt),
        column=LiveSeat.round_id,
    )


# --- the call --------------------------------------------------------------------------------


def rounds_of(table: LiveTable) -> dict[int, BorderUpRound]:
    """Each seat's own round, by seat (none before the start)."""
    return dealt_of(table, BorderUpRound, LiveSeat.round_id)


def called_first(rounds: Mapping[int, Any], seat: int, names: dict[int, str]) -> str:
    """What a call after the race was decided is told (L-R3, L-D3): who called first. ``rounds``:
    each seat's own round (a Border-Up or a Dashing States round: anything with a ``call``)."""
    caller = next((index for index, row in rounds.items() if row.call is not None), None)
    if caller == seat:
        return YOU_CALLED
    if caller is None:  # ended with no call (L-T12, L-T13)
        return "This race is over; nothing changed."
    return f"{names.get(1 - seat, A_CLASSMATE)} called first. This race is over; nothing changed."


def play_race_call(
    table: LiveTable,
    seat: int,
    rounds: dict[int, BorderUpRound],
    groups: Sequence[Sequence[str]],
    student: User,
    now: dt.datetime,
) -> None:
    """The call of two ``groups`` by the student at ``seat`` on their own hand, at ``now``: judged,
    recorded as against the computer, and deciding the race if it is the first (L-R2).

    Raises:
        Stale: the race was decided already (also when another call was kept first).
        Refused: not two groups of three different cards of the hand; nothing changes.
    """
    mine, theirs = rounds.get(seat), rounds.get(1 - seat)
    if table.status != STATUS_PLAYING or mine is None or theirs is None:
        raise Stale("decided")
    try:
        results = judge_call(mine.hand, groups, get_deck())
    except BadCall as refused:
        raise Refused(str(refused)) from refused
    success = call_succeeds(results)
    assert mine.revealed_at is not None  # turned over at the start
    seconds = (now - mine.revealed_at).total_seconds()
    outcomes = [
        srs.Outcome(
            fact_key=review.fact.key,
            verdict=review.verdict,
            mode=MODE,
            form=Form.CHOICE,  # picked from the cards in hand, as against the computer
            round_token=f"{MODE}:{mine.token}",
            item=review.item,
            help=srs.Help.NONE,  # no hint at a race
        )
        for review in reviews(results, helped=False)
    ]
    call = {
        "call": [sorted(group) for group in groups],
        "called_at": now,
        "seconds": seconds if success else None,
    }
    decide_race(
        table, seat, BorderUpRound, (mine.id, theirs.id), call, success, student, outcomes, now
    )


def decide_race(
    table: LiveTable,
    seat: int,
    model: Any,
    round_ids: tuple[int, int],
    call: dict[str, Any],
    success: bool,
    student: User,
    outcomes: Sequence[srs.Outcome],
    now: dt.datetime,
) -> None:
    """Keep the call of the student at ``seat`` if it is the race's first (L-R2, L-D2): the table
    goes from playing to over, the caller's round (of ``model``, ``round_ids[0]``) takes ``call``
    and its result, the classmate's round (``round_ids[1]``) the other result, both seats their
    results, and ``outcomes`` are recorded (:func:`..play.common.save_call`), all in one unit.

    Raises:
        Stale: the race was decided already (another call was kept first); nothing was kept.
    """
    mine_result, their_result = (Result.WON, Result.LOST) if success else (Result.LOST, Result.WON)
    values = {**call, "result": mine_result}
    table_id, (mine_id, theirs_id) = table.id, round_ids

    def work() -> bool:
        decided = changed_rows(
            update(LiveTable)
            .where(LiveTable.id == table_id, LiveTable.status == STATUS_PLAYING)
            .values(
                status=STATUS_OVER,
                version=LiveTable.version + 1,
                updated_at=now,
                finished_at=now,
            )
        )
        if decided != 1:
            return False
        if not save_call(model, mine_id, values, student, outcomes, now):
            raise _NotFirst
        db.session.execute(update(model).where(model.id == theirs_id).values(result=their_result))
        for index, result in ((seat, mine_result), (1 - seat, their_result)):
            db.session.execute(
                update(LiveSeat)
                .where(LiveSeat.table_id == table_id, LiveSeat.seat == index)
                .values(result=str(result))
            )
        return True

    try:
        kept = _commit_and_announce(table_id, table.code, work)
    except _NotFirst:
        kept = False
    if not kept:
        raise Stale("decided")


@bp.post("/<code>/call")
@student_required
def race_call(code: str) -> str | Response | tuple[str, int]:
    """The student calls GeoPlunge! with two groups of their own hand (L-R2, L-R3)."""
    found, seats, seat = _seated_or_404(code)
    here = url_for("live.table", code=found.code)
    if found.game != BORDER_UP:
        return nothing_changed(NOT_A_RACE, here)
    if found.status in (STATUS_OPEN, STATUS_CLOSED):
        return nothing_changed(NOT_STARTED, here)
    form = BorderUpForm()
    student = current_student()
    try:
        if found.status != STATUS_PLAYING:
            raise Stale("decided")
        if not form.validate():
            flash(" ".join(e for errors in form.errors.values() for e in errors), "error")
            return redirect(here)
        play_race_call(found, seat, rounds_of(found), form.groups(), student, utcnow())
    except Stale:
        db.session.rollback()
        db.session.expire_all()
        return nothing_changed(called_first(rounds_of(found), seat, _usernames(seats)), here)
    except Refused as refused:
        db.session.rollback()
        template, context = _page(found, seats, seat, None)
        context = {**context, "problem": str(refused), "sent": request.form}
        return render_template(template, **context), 400
    return redirect(here)


# --- the page --------------------------------------------------------------------------------


def _names(postals: Iterable[str]) -> str:
    deck = get_deck()
    return ", ".join(sorted(deck[p].name for p in postals))


def _judged(hand: Sequence[str], call: list[list[str]]) -> list[dict[str, Any]]:
    """A call's groups judged on its own hand, as play/border_up.html shows them."""
    deck = get_deck()
    results: tuple[GroupResult, GroupResult] = judge_call(hand, call, deck)
    return [
        {
            "valid": r.valid,
            "cards": _names(r.cards),
            "centre": deck[r.centre].name,
            "not_bordering": " or ".join(deck[p].name for p in r.not_bordering),
            "neighbours": _names(n.postal for n in deck.neighbours(r.centre)) or "no state",
        }
        for r in results
    ]


def _explanation(rounds: dict[int, BorderUpRound], seat: int, rival: str) -> str:
    """Who called first, and whether the call was right (L-R2)."""
    caller = next((index for index, row in rounds.items() if row.call is not None), None)
    if caller is None:
        # Ended with no result (L-T12, L-T13): like a game not finished at the bell (K2).
        return (
            "The race ended without a call, so it has no result and does not count: a classmate "
            "had left the table, or nobody played for a day."
        )
    right = rounds[caller].result == Result.WON
    who = "You" if caller == seat else rival
    if right:
        return f"{who} called first, with two right groups."
    return f"{who} called first, but not with two right groups, so the other player wins."


def race_page(
    table: LiveTable, seats: tuple[Seat, ...], seat: int, common: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """The race for ``seat``: their own 18 cards and the call while it is on; once it is over the
    result, both calls judged and the winning calls of their own hand (L-R4)."""
    deck = get_deck()
    rounds = rounds_of(table)
    mine, theirs = rounds.get(seat), rounds.get(1 - seat)
    if mine is None or theirs is None:  # a race always has both rounds once started
        abort(404)
    rival = common["usernames"].get(1 - seat, A_CLASSMATE)
    over = table.status == STATUS_OVER
    context: dict[str, Any] = {
        **common,
        "rival": rival,
        "mine": mine,
        "over": over,
        "hand": sorted(mine.hand, key=lambda p: deck[p].name),
        "call_url": url_for("live.race_call", code=table.code),
        "call_form": BorderUpForm(formdata=None),
        "problem": None,
        "sent": {},
        "groups": [],
        "their_groups": [],
        "others": [],
        "other_count": 0,
        "explanation": "",
    }
    if over:  # the classmate's call and the solutions stay on the server until now
        called = {frozenset(g) for g in mine.call or []}
        others = [
            f"{_names(a)} + {_names(b)}" for a, b in solutions(mine.hand, deck) if {a, b} != called
        ]
        context.update(
            groups=_judged(mine.hand, mine.call) if mine.call else [],
            their_groups=_judged(theirs.hand, theirs.call) if theirs.call else [],
            others=others[:SOLUTIONS_SHOWN],
            other_count=len(others),
            explanation=_explanation(rounds, seat, rival),
            result=mine.result,
        )
    return ("live/race.html", context)


register(
    Duel(
        BORDER_UP,
        title="Border-Up race",
        how="call GeoPlunge! with two groups",
        start=start_race,
        page=race_page,
    )
)
