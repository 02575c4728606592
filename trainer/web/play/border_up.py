"""Border-Up against the computer: 18 cards each, two groups of bordering states, a race."""

from __future__ import annotations

import datetime as dt
import random
import secrets
from collections.abc import Sequence

from flask import abort, redirect, render_template, request, url_for
from sqlalchemy import Select, select, update
from werkzeug.wrappers import Response

from trainer import srs
from trainer.assignments import Scope
from trainer.facts import Facet, Fact, Form
from trainer.modes import Mode
from trainer.quiz.border_up import (
    BadCall,
    ComputerRun,
    GroupResult,
    Level,
    call_succeeds,
    deal,
    hint,
    judge_call,
    reviews,
    solutions,
)
from trainer.quiz.race import SAME_MOMENT, race, round_result
from trainer.quiz.weakest import POOL
from trainer.results import Result

from .. import get_deck
from ..extensions import changed_rows, db
from ..guards import Refused, Stale, nothing_changed
from ..memory import queue
from ..models import BorderUpRound, LiveSeat, LiveTable, User, utcnow
from ..modes import Access, Dealt, NavLink, Records, Rounds, WebMode, register, scope_filters
from ..security import student_required
from .common import (
    ALREADY_CALLED,
    COMPUTER_CALLED_FIRST,
    current_student,
    history,
    own_or_404,
    save_call,
)
from .forms import BorderUpForm, NewBorderUpForm
from .routes import bp

MODE = "border_up"
SOLUTIONS_SHOWN = 12


@bp.get("/border-up/")
@student_required
def border_up_index() -> str:
    """How Border-Up works, a level, past rounds and best times."""
    return _render_index(NewBorderUpForm())


def _render_index(form: NewBorderUpForm) -> str:
    rounds, bests = history(BorderUpRound, BorderUpRound.id.not_in(race_rounds()))
    return render_template("play/border_up_index.html", form=form, rounds=rounds, bests=bests)


@bp.post("/border-up/")
@student_required
def border_up_new() -> str | Response | tuple[str, int]:
    """Deal 18 cards each, face down; the student's hand leans on their weakest border facts."""
    form = NewBorderUpForm()
    if not form.validate():
        return _render_index(form), 400
    row = new_border_up(current_student(), form.level.data)
    db.session.commit()
    return redirect(url_for("play.border_up_round", token=row.token))


def new_border_up(student: User, level: str, postals: set[str] | None = None) -> BorderUpRound:
    """Deal 18 cards each (added to the session, not committed); the student's hand leans on their
    weakest border facts, within ``postals`` if given."""
    deck = get_deck()
    seed = secrets.randbits(62)
    rng = random.Random(f"border-up:{seed}")
    weak = [
        Fact.from_key(key).postal
        for key in queue(student, deck, size=POOL, facets={Facet.BORDERS}, postals=postals)
    ]
    if postals:
        weak += random.Random(f"lean:{seed}").sample(sorted(postals), len(postals))
    dealt = deal(deck, rng, lean_on=weak)
    row = BorderUpRound(
        token=secrets.token_urlsafe(18),
        student_id=student.id,
        level=level,
        seed=seed,
        hand=list(dealt.student),
        computer_hand=list(dealt.computer),
        created_at=utcnow(),
        result=Result.DEALT,
    )
    db.session.add(row)
    return row


def _own_round(token: str) -> BorderUpRound:
    """The signed-in student's round against the computer with ``token``. A round of a race
    against a classmate (L-R1) has no computer: its pages are the live table's, where this sends
    the student (so no solo call, hint or computer's call can touch the race)."""
    row = own_or_404(BorderUpRound, token)
    race = db.session.execute(
        select(LiveTable.code)
        .join(LiveSeat, LiveSeat.table_id == LiveTable.id)
        .where(LiveSeat.round_id == row.id)
    ).scalar_one_or_none()
    if race is not None:
        abort(redirect(url_for("live.table", code=race)))
    return row


def race_rounds() -> Select[int | None]:
    """The ids of the rounds played as races against a classmate (L-R1)."""
    return select(LiveSeat.round_id).where(LiveSeat.round_id.is_not(None))


def _computer(row: BorderUpRound) -> ComputerRun:
    return ComputerRun.draw(Level(row.level), row.seed)


def _elapsed(row: BorderUpRound) -> float:
    return (utcnow() - row.revealed_at).total_seconds() if row.revealed_at else 0.0


@bp.get("/border-up/<token>")
@student_required
def border_up_round(token: str) -> str:
    """The hand (face down until "Ready, Set, GeoPlunge!"), the race, and after the call the groups judged."""
    row = _own_round(token)
    settle(row)
    return _render_round(row, BorderUpForm())


def settle(row: BorderUpRound) -> None:
    """Decide the race once the computer's call time has passed without the student's call (B2)."""
    computer = _computer(row)
    if row.result == Result.PLAYING and _elapsed(row) > computer.call_at:
        row.result = race(None, False, computer)[0]  # the computer called first (B2)
        db.session.commit()


def finished_at(row: BorderUpRound) -> dt.datetime | None:
    """When the race was decided: the student's call, or the computer's first."""
    if row.result in (Result.DEALT, Result.PLAYING) or row.revealed_at is None:
        return None
    computer_at = row.revealed_at + dt.timedelta(seconds=_computer(row).call_at)
    return computer_at if row.called_at is None else min(row.called_at, computer_at)


def _render_round(row: BorderUpRound, form: BorderUpForm, problem: str | None = None) -> str:
    deck = get_deck()
    computer = _computer(row)
    over = row.result not in (Result.DEALT, Result.PLAYING)
    judged = _judged(row) if row.call else None
    explanation = None
    if over:
        student_at = (
            (row.called_at - row.revealed_at).total_seconds()
            if row.called_at and row.revealed_at
            else None
        )
        explanation = race(student_at, bool(judged and call_succeeds(judged)), computer)[1]

    def names(postals) -> str:
        return ", ".join(sorted(deck[p].name for p in postals))

    others = []
    if over:  # the solutions stay on the server until the round is over
        called = {frozenset(g) for g in row.call or []}
        others = [
            f"{names(a)} + {names(b)}" for a, b in solutions(row.hand, deck) if {a, b} != called
        ]
    groups = [
        {
            "valid": r.valid,
            "cards": names(r.cards),
            "centre": deck[r.centre].name,
            "not_bordering": " or ".join(deck[p].name for p in r.not_bordering),
            "neighbours": names(n.postal for n in deck.neighbours(r.centre)) or "no state",
        }
        for r in judged or ()
    ]
    return render_template(
        "play/border_up.html",
        row=row,
        form=form,
        problem=problem,
        sent=request.form if problem else {},
        hand=sorted(row.hand, key=lambda p: deck[p].name),
        computer=computer,
        elapsed=_elapsed(row),
        over=over,
        groups=groups,
        # On the map after the call: each group's centre in red, and the states it borders ringed.
        centres=[r.centre for r in judged or ()],
        bordering=sorted({n.postal for r in judged or () for n in deck.neighbours(r.centre)}),
        explanation=explanation,
        others=others[:SOLUTIONS_SHOWN],
        other_count=len(others),
        geometry=deck.geometry,
    )


def _judged(row: BorderUpRound) -> tuple[GroupResult, GroupResult]:
    return judge_call(row.hand, row.call or [], get_deck())


@bp.post("/border-up/<token>/ready")
@student_required
def border_up_ready(token: str) -> Response:
    """ "Ready, Set, GeoPlunge!": the cards turn over and the clock starts (once)."""
    row = _own_round(token)
    if BorderUpForm().validate():
        play_border_up_ready(row, utcnow())
    return redirect(url_for("play.border_up_round", token=token))


def play_border_up_ready(row: BorderUpRound, now: dt.datetime) -> bool:
    """Turn the student's cards over and start the clock at ``now``, once: True if they were face
    down until now, False (nothing changes) if they were turned over before."""
    turned = changed_rows(
        update(BorderUpRound)
        .where(BorderUpRound.id == row.id, BorderUpRound.revealed_at.is_(None))
        .values(revealed_at=now, result=Result.PLAYING)
    )
    db.session.commit()
    return turned == 1


@bp.post("/border-up/<token>/hint")
@student_required
def border_up_hint(token: str) -> Response:
    """Highlight one card of a solution; the round counts as helped."""
    row = _own_round(token)
    if BorderUpForm().validate():
        play_border_up_hint(row)
    return redirect(url_for("play.border_up_round", token=token))


def play_border_up_hint(row: BorderUpRound) -> str | None:
    """Highlight one card of a solution (the round counts as helped) while the race is on and no
    card is highlighted yet; the card highlighted now, or None when nothing changes."""
    if row.result != Result.PLAYING or row.hint is not None:
        return None
    row.hint = hint(row.hand, get_deck())
    db.session.commit()
    return row.hint


@bp.post("/border-up/<token>")
@student_required
def border_up_call(token: str) -> str | Response | tuple[str, int]:
    """The student calls GeoPlunge! with two groups: judged once, recorded once, the race decided."""
    row = _own_round(token)
    here = url_for("play.border_up_round", token=token)
    now = utcnow()
    form = BorderUpForm()
    try:
        # Before the form: a second call is "already called", whatever it sends.
        check_border_up_open(row, now)
        if not form.validate():
            return _render_round(row, form), 400
        play_border_up_call(row, form.groups(), current_student(), now)
    except Stale as stale:
        return nothing_changed(str(stale), here, stale.category)
    except Refused as refused:
        return _render_round(row, form, str(refused)), 400
    return redirect(here)


#: A call sent before the cards were turned over.
NOT_TURNED_OVER = "Turn your cards over first: press Ready, Set, GeoPlunge!"


def check_border_up_open(row: BorderUpRound, now: dt.datetime) -> None:
    """Check that the round still takes the student's call at ``now``.

    Raises:
        Stale: the round has its call already, its cards are still face down, or the computer
            called first (B2).
    """
    if row.call is not None:
        raise Stale(ALREADY_CALLED)
    if row.revealed_at is None:
        raise Stale(NOT_TURNED_OVER)
    seconds = (now - row.revealed_at).total_seconds()
    if row.result != Result.PLAYING or seconds > _computer(row).call_at + SAME_MOMENT:
        raise Stale(COMPUTER_CALLED_FIRST)


def play_border_up_call(
    row: BorderUpRound, groups: Sequence[Sequence[str]], student: User, now: dt.datetime
) -> None:
    """Play the student's call of two ``groups`` at ``now``: judge it, decide the race, and keep
    the call with every review it causes as one unit (``save_call``).

    Raises:
        Stale: the round has its call already (also when another request saved one first), its
            cards are still face down, or the computer called first.
        Refused: the call is not two groups of three different cards of the hand; nothing changes.
    """
    check_border_up_open(row, now)
    try:
        results = judge_call(row.hand, groups, get_deck())
    except BadCall as refused:
        raise Refused(str(refused)) from refused
    assert row.revealed_at is not None  # checked above
    seconds = (now - row.revealed_at).total_seconds()
    success = call_succeeds(results)
    result = round_result(seconds, success, _computer(row))
    outcomes = [
        srs.Outcome(
            fact_key=review.fact.key,
            verdict=review.verdict,
            mode=MODE,
            form=Form.CHOICE,  # picked from the cards in hand: never Easy
            round_token=f"{MODE}:{row.token}",
            item=review.item,
            help=srs.Help.HINT if review.helped else srs.Help.NONE,
        )
        for review in reviews(results, helped=row.hint is not None)
    ]
    call = {
        "call": [sorted(group) for group in groups],
        "called_at": now,
        "result": result,
        "seconds": seconds if success else None,
    }
    if not save_call(BorderUpRound, row.id, call, student, outcomes, now):
        raise Stale(ALREADY_CALLED)


def _deal_for_assignment(student: User, mode: Mode, scope: Scope, level: str) -> Dealt:
    """A round dealt from an assignment's states (the assignment page's Start)."""
    _facets, postals = scope_filters(scope, mode)
    row = new_border_up(student, level, postals)
    return Dealt(f"border_up:{row.token}", url_for("play.border_up_round", token=row.token))


register(
    WebMode(
        "border-up",
        NavLink("Border-Up", "play.border_up_index", 30, prefix="play.border_up"),
        rounds=Rounds(BorderUpRound, BorderUpRound.called_at, "border_up", "border_up_rounds"),
        deal=_deal_for_assignment,
        records=Records(BorderUpRound, "Border-Up", bests=True),
        access=(
            ("play.border_up_index", Access.STUDENTS),
            ("play.border_up_new", Access.STUDENTS),
            ("play.border_up_round", Access.STUDENT_OWN),
            ("play.border_up_ready", Access.STUDENT_OWN),
            ("play.border_up_hint", Access.STUDENT_OWN),
            ("play.border_up_call", Access.STUDENT_OWN),
        ),
    )
)
