"""Dashing States against the computer: five Map cards, four in order, names and capitals, a race."""

from __future__ import annotations

import datetime as dt
import random
import secrets
from typing import Any

from flask import abort, redirect, render_template, request, url_for
from sqlalchemy import Select, select
from werkzeug.wrappers import Response

from trainer import pickmap, srs
from trainer.assignments import Scope
from trainer.facts import Facet, Fact, Form, UnreadableAnswer
from trainer.modes import Mode
from trainer.quiz.dashing_states import (
    BadCall,
    Call,
    CallResult,
    ComputerRun,
    Level,
    deal,
    judge_call,
    reviews,
)
from trainer.quiz.race import SAME_MOMENT, race, round_result
from trainer.quiz.weakest import POOL
from trainer.results import Result

from .. import get_deck
from ..extensions import db
from ..guards import Refused, Stale, nothing_changed
from ..memory import queue
from ..models import DashingRound, LiveSeat, LiveTable, User, utcnow
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
from .forms import DashingForm, NewDashingForm
from .routes import bp

MODE = "dashing_states"
PRACTICE = "practice"
LETTERS = "ABCDE"


@bp.get("/dashing-states/")
@student_required
def dashing_index() -> str:
    """How Dashing States works, a level or untimed practice, past rounds and personal bests."""
    return _render_index(NewDashingForm())


def _render_index(form: NewDashingForm) -> str:
    rounds, bests = history(DashingRound, DashingRound.id.not_in(race_rounds()))
    return render_template("play/dashing_index.html", form=form, rounds=rounds, bests=bests)


@bp.post("/dashing-states/")
@student_required
def dashing_new() -> str | Response | tuple[str, int]:
    """Deal five Map cards from the student's due and weakest map and capital facts."""
    form = NewDashingForm()
    if not form.validate():
        return _render_index(form), 400
    row = new_dashing(current_student(), form.level.data)
    db.session.commit()
    return redirect(url_for("play.dashing_round", token=row.token))


def new_dashing(
    student: User, level: str, facets: set[Facet] | None = None, postals: set[str] | None = None
) -> DashingRound:
    """Deal five Map cards (added to the session, not committed) drawn among the student's due and
    weakest map and capital facts, within ``facets`` and ``postals`` if given, those states first."""
    deck = get_deck()
    seed = secrets.randbits(62)
    rng = random.Random(f"dashing:{seed}")
    asked = ({Facet.MAP, Facet.CAPITAL} & facets) if facets else {Facet.MAP, Facet.CAPITAL}
    keys = queue(student, deck, size=POOL * len(asked), facets=asked, postals=postals)
    preferred = [Fact.from_key(key).postal for key in keys]
    if postals:
        preferred += rng.sample(sorted(postals), len(postals))
    row = DashingRound(
        token=secrets.token_urlsafe(18),
        student_id=student.id,
        level=level,
        seed=seed,
        cards=deal(preferred, deck, rng),
        created_at=utcnow(),
        result=Result.PLAYING,
    )
    db.session.add(row)
    return row


def _computer(row: DashingRound) -> ComputerRun | None:
    return None if row.level == PRACTICE else ComputerRun.draw(Level(row.level), row.seed)


def _elapsed(row: DashingRound) -> float:
    return (utcnow() - row.created_at).total_seconds()


@bp.get("/dashing-states/<token>")
@student_required
def dashing_round(token: str) -> str:
    """The five Map cards and the call form; after the call, every card with what was said."""
    row = _own_round(token)
    settle(row)
    return _render_round(row, DashingForm())


def _own_round(token: str) -> DashingRound:
    """The signed-in student's round against the computer with ``token``. A round of a race
    against a classmate (L-D1) has no computer: its pages are the live table's, where this sends
    the student (so no solo call and no imaginary computer's call can touch the race)."""
    row = own_or_404(DashingRound, token)
    race = db.session.execute(
        select(LiveTable.code)
        .join(LiveSeat, LiveSeat.table_id == LiveTable.id)
        .where(LiveSeat.dashing_round_id == row.id)
    ).scalar_one_or_none()
    if race is not None:
        abort(redirect(url_for("live.table", code=race)))
    return row


def race_rounds() -> Select[int | None]:
    """The ids of the rounds played as races against a classmate (L-D1)."""
    return select(LiveSeat.dashing_round_id).where(LiveSeat.dashing_round_id.is_not(None))


def settle(row: DashingRound) -> None:
    """Decide the race once the computer's call time has passed without the student's call (D1)."""
    computer = _computer(row)
    if row.result == Result.PLAYING and computer is not None and _elapsed(row) > computer.call_at:
        # The computer called before the student: its call decides the race (D1).
        outcome, _ = race(None, False, computer)
        row.result = outcome
        db.session.commit()


def finished_at(row: DashingRound) -> dt.datetime | None:
    """When the race was decided: the student's call, or the computer's first."""
    computer = _computer(row)
    if row.result == Result.PLAYING:
        return None
    if computer is None:
        return row.called_at
    computer_at = row.created_at + dt.timedelta(seconds=computer.call_at)
    return computer_at if row.called_at is None else min(row.called_at, computer_at)


def _render_round(row: DashingRound, form: DashingForm, problem: str | None = None) -> str:
    deck = get_deck()
    computer = _computer(row)
    judged = judged_call(row) if row.call else None
    explanation = None
    if computer is not None and row.result != Result.PLAYING:
        student_at = (row.called_at - row.created_at).total_seconds() if row.called_at else None
        explanation = race(student_at, bool(judged and judged.success), computer)[1]
    playing = row.result == Result.PLAYING and not row.call
    # Only the cards still to be called are drawn, each through the round's own drawing (P-H2).
    drawings = card_drawings(row) if playing else None
    cards = [
        {
            "letter": LETTERS[i],
            "position": i,
            "map": deck.map_card(postal),
            "drawing": drawings.cards[i] if drawings else None,
            "state": None if playing else deck[postal],
        }
        for i, postal in enumerate(row.cards)
    ]
    return render_template(
        "play/dashing.html",
        row=row,
        form=form,
        cards=cards,
        drawings=drawings,
        letters=LETTERS,
        judged=judged,
        problem=problem,
        sent=request.form if problem else {},
        explanation=explanation,
        computer=computer,
        elapsed=_elapsed(row),
        geometry=deck.geometry,
        state_names=sorted(s.name for s in deck),
        capital_names=sorted(s.capital for s in deck),
    )


def card_drawings(row: DashingRound) -> pickmap.CardsDrawing:
    """The round's own drawing of its five Map cards, from its secret seed (P-H2): the same each
    time the page is shown, and matching neither the deck pages' outlines nor another round's."""
    return pickmap.draw_cards(get_deck(), row.cards, random.Random(f"dashing-map:{row.seed}"))


def judged_call(row: DashingRound) -> CallResult:
    call = row.call or {}
    return judge_call(
        row.cards,
        Call(
            call["set_aside"],
            tuple(call["order"]),
            {int(k): v for k, v in call["names"].items()},
            {int(k): v for k, v in call["capitals"].items()},
        ),
        get_deck(),
    )


@bp.post("/dashing-states/<token>")
@student_required
def dashing_call(token: str) -> str | Response | tuple[str, int]:
    """The student calls "GeoPlunge!": judged once, recorded once, and the race decided."""
    row = _own_round(token)
    here = url_for("play.dashing_round", token=token)
    now = utcnow()
    form = DashingForm()
    try:
        # Before the form: a second call is "already called", whatever it sends.
        check_dashing_open(row, now)
        if not form.validate():
            return _render_round(row, form), 400
        play_dashing_call(row, form.call(), current_student(), now)
    except Stale as stale:
        return nothing_changed(str(stale), here, stale.category)
    except Refused as refused:
        return _render_round(row, form, str(refused)), 400
    return redirect(here)


def check_dashing_open(row: DashingRound, now: dt.datetime) -> None:
    """Check that the round still takes the student's call at ``now``.

    Raises:
        Stale: the round has its call already, or the computer called first (D1).
    """
    if row.call is not None:
        raise Stale(ALREADY_CALLED)
    computer = _computer(row)
    seconds = (now - row.created_at).total_seconds()
    if row.result != Result.PLAYING or (
        computer is not None and seconds > computer.call_at + SAME_MOMENT
    ):
        raise Stale(COMPUTER_CALLED_FIRST)


def play_dashing_call(row: DashingRound, call: Call, student: User, now: dt.datetime) -> None:
    """Play the student's call at ``now``: judge it, decide the race, and keep the call with every
    review it causes as one unit (``save_call``).

    Raises:
        Stale: the round has its call already (also when another request saved one first), or
            the computer called first.
        Refused: the call cannot be judged (a card missing or used twice, an answer left empty);
            nothing changes.
    """
    check_dashing_open(row, now)
    try:
        judged = judge_call(row.cards, call, get_deck())
    except (BadCall, UnreadableAnswer) as refused:
        raise Refused(str(refused)) from refused
    seconds = (now - row.created_at).total_seconds()
    result = round_result(seconds, judged.success, _computer(row))
    outcomes = call_outcomes(row, judged, seconds)
    best = seconds if judged.success else None
    values = {"call": stored_call(call), "called_at": now, "result": result, "seconds": best}
    if not save_call(DashingRound, row.id, values, student, outcomes, now):
        raise Stale(ALREADY_CALLED)


def stored_call(call: Call) -> dict[str, Any]:
    """A call as a round keeps it (JSON: the positions as strings), as ``judged_call`` reads it back."""
    return {
        "set_aside": call.set_aside,
        "order": list(call.order),
        "names": {str(k): v for k, v in call.names.items()},
        "capitals": {str(k): v for k, v in call.capitals.items()},
    }


def call_outcomes(row: DashingRound, judged: CallResult, seconds: float) -> list[srs.Outcome]:
    """What a judged call of ``row`` records: each used card's map and capital facts, typed, in the
    round's own token (against the computer, and at a race against a classmate, L-D2)."""
    return [
        srs.Outcome(
            fact_key=fact.key,
            verdict=judgement.verdict,
            mode=MODE,
            form=Form.TYPED,
            round_token=f"{MODE}:{row.token}",
            item=fact.key,
            answer=judgement.given,
            duration_ms=ms,
            answered_postal=judgement.answered[0] if len(judgement.answered) == 1 else None,
        )
        for fact, judgement, ms in reviews(judged, seconds)
    ]


def _deal_for_assignment(student: User, mode: Mode, scope: Scope, level: str) -> Dealt:
    """A round dealt from an assignment's scope (the assignment page's Start)."""
    facets, postals = scope_filters(scope, mode)
    row = new_dashing(student, level, facets, postals)
    return Dealt(f"dashing_states:{row.token}", url_for("play.dashing_round", token=row.token))


register(
    WebMode(
        "dashing-states",
        NavLink("Dashing States", "play.dashing_index", 50, prefix="play.dashing"),
        rounds=Rounds(DashingRound, DashingRound.called_at, "dashing_states", "dashing_rounds"),
        deal=_deal_for_assignment,
        records=Records(DashingRound, "Dashing States", bests=True),
        access=(
            ("play.dashing_index", Access.STUDENTS),
            ("play.dashing_new", Access.STUDENTS),
            ("play.dashing_round", Access.STUDENT_OWN),
            ("play.dashing_call", Access.STUDENT_OWN),
        ),
    )
)
