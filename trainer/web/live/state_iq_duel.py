"""A State IQ duel between two classmates at a live table (issue 22, rulings L-Q1 to L-Q5).

The table is opened like a race's, for two students and no computer. At the host's start the duel is
dealt (:func:`trainer.quiz.state_iq_duel.deal_duel`: the card each student guesses leans on their
own weakest facts), one Power card is turned up for both, and the statehood draw says who guesses
first. The rules are State IQ's (:mod:`trainer.quiz.state_iq`, with both sides played by students):
the guesser types a guess (or picks it on the map, as against the computer); the clue giver names
their own B clues on their own page; letters are given by the server. Each move names the table's ply and is kept by one conditional write on it, so
a move sent twice, from an old page, or out of turn changes nothing.

Each seat has its own :class:`StateIqGame`: the duel seen from their side (their card as the
student's, the classmate's as the other), so every guess and clue is recorded by the same path as
against the computer (:func:`..play.routes.save_progress`), with its own round token, in the same
unit as the table's write. The duel's moves are the table's actions. Neither page shows the other
seat's card before that seat's guessing of it is done (L-Q4).
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from flask import abort, flash, redirect, render_template, url_for
from sqlalchemy import update
from werkzeug.wrappers import Response

from trainer.live import Seat
from trainer.quiz import state_iq_duel as duel
from trainer.quiz.state_iq import Move, Side, StateIQ
from trainer.results import Result

from .. import get_deck
from ..extensions import changed_rows, db
from ..guards import Refused, Stale, nothing_changed
from ..models import LiveSeat, LiveTable, StateIqGame, User, utcnow
from ..play.common import current_student
from ..play.forms import MoveForm
from ..play.routes import FACETS, describe_half, save_progress, weakest_states
from ..security import student_required
from .duels import Duel, register
from .forms import STATE_IQ
from .race import dealt_of, start_between_classmates
from .routes import (
    STATUS_CLOSED,
    STATUS_OPEN,
    STATUS_OVER,
    STATUS_PLAYING,
    _commit_and_announce,
    _page,
    _seated_or_404,
    bp,
    new_seed,
)

#: A move sent before the host started the duel (or to a table that was closed).
NOT_STARTED = "The duel has not started yet: wait for the start. Nothing changed."
#: A State IQ move sent to another game's table.
NOT_A_DUEL = "This table does not play a State IQ duel. Nothing changed."
#: A move sent to a finished duel.
DUEL_OVER = "This duel is over; nothing changed."
#: A move sent twice, or from a page a move ago.
MOVE_MADE = "That move was made already, or the page was out of date. Nothing changed; here is the duel now."
#: How the pages name the classmate when their username is unknown (an account deleted).
A_CLASSMATE = "your classmate"


# --- reading a duel --------------------------------------------------------------------------


def games_of(table: LiveTable) -> dict[int, StateIqGame]:
    """Each seat's side of the duel, by seat (none before the start)."""
    return dealt_of(table, StateIqGame, LiveSeat.state_iq_game_id)


def deal_of(first: StateIqGame) -> duel.Deal:
    """The duel's deal, read from seat 0's side of it."""
    cards = (first.student_card, first.computer_card)
    _first, drawn = duel.statehood_draw(get_deck(), cards, first.seed)
    return duel.Deal(
        cards, first.power_card, 0 if first.first_guesser == Side.STUDENT.value else 1, drawn
    )


def rebuild(table: LiveTable, games: dict[int, StateIqGame]) -> StateIQ:
    """The duel as it stands: its deal, then every move kept at the table."""
    return duel.replay(get_deck(), deal_of(games[0]), games[0].seed, table.actions)


# --- the start -------------------------------------------------------------------------------


def start_duel(table: LiveTable, seats: tuple[Seat, ...], version: int, now: dt.datetime) -> bool:
    """Deal the duel and turn the Power card up (L-Q2), in one conditional write on the table's
    ``version``: each seat's side of it, dealt from both students' weakest facts.

    Returns False when the table changed meanwhile (nothing kept).

    Raises:
        TableError: a seat is not a student's.
    """
    level, first = table.level, table.first_leader
    seed = new_seed()

    def deal(students: Mapping[int, User]) -> dict[int, StateIqGame]:
        deck = get_deck()
        weakest = tuple(weakest_states(students[index], deck, FACETS, None) for index in (0, 1))
        dealt = duel.deal_duel((weakest[0], weakest[1]), deck, seed)
        if first is not None:  # a tournament match decided who guesses first (P-K2, P-K8)
            dealt = replace(dealt, first=first)
        sides: dict[int, StateIqGame] = {}
        for index, student in students.items():
            row = sides[index] = StateIqGame(
                token=secrets.token_urlsafe(18),
                student_id=student.id,
                level=level,
                power_card=dealt.power,
                student_card=dealt.cards[index],
                computer_card=dealt.cards[1 - index],
                first_guesser=(Side.STUDENT if dealt.first == index else Side.COMPUTER).value,
                seed=seed,
                moves=[],
                move_count=0,
                recorded=[],
                result=Result.PLAYING,
                show_aid=False,
                created_at=now,
            )
            db.session.add(row)
        return sides

    return start_between_classmates(
        table,
        seats,
        version,
        now,
        title="State IQ duel",
        deal=deal,
        column=LiveSeat.state_iq_game_id,
        seed=seed,
    )


# --- a move ----------------------------------------------------------------------------------


def play_duel_move(
    table: LiveTable,
    seat: int,
    games: dict[int, StateIqGame],
    postal: str,
    student: User,
    now: dt.datetime,
    ply: int | None,
) -> duel.Played:
    """The move of the student at ``seat``, from a page shown at table ply ``ply``: a guess when
    they guess, else their B clue (L-Q1, L-Q3). Kept with what it showed of either student's
    memory, and the result at the end, in one conditional write on the table's ply.

    Returns:
        The move kept (a state named as a clue that does not border is kept as a mistake).

    Raises:
        Stale: the duel is over, or the move was made already or sent from a page a move ago.
        Refused: not this student's move, or one the rules refuse; nothing changed.
    """
    if table.status != STATUS_PLAYING or 0 not in games or 1 not in games:
        raise Stale(DUEL_OVER)
    if ply != table.ply:
        raise Stale(MOVE_MADE)
    game = rebuild(table, games)
    try:
        played = duel.play(game, seat, postal)
    except Move as refused:
        raise Refused(str(refused)) from None
    deck = get_deck()
    table_id, before = table.id, table.ply
    values: dict[str, Any] = {
        "actions": [*table.actions, duel.encode(played.kind, postal, deck)],
        "ply": before + 1,
        "version": LiveTable.version + 1,
        "updated_at": now,
    }
    if game.is_over:
        values.update(status=STATUS_OVER, finished_at=now)
    owners = {index: row.student_id for index, row in games.items()}

    def work() -> bool:
        saved = changed_rows(
            update(LiveTable)
            .where(
                LiveTable.id == table_id,
                LiveTable.ply == before,
                LiveTable.status == STATUS_PLAYING,
            )
            .values(**values)
        )
        if saved != 1:
            return False
        for index in (0, 1):
            # The mover's answers, and the other's once a settled result ends their half (Q3).
            owner = student if owners[index] == student.id else db.session.get(User, owners[index])
            if owner is not None:
                save_progress(games[index], duel.seen_by(game, index), owner, now)
        if game.is_over:
            for index in (0, 1):
                result = duel.result(game, index)
                db.session.execute(
                    update(LiveSeat)
                    .where(LiveSeat.table_id == table_id, LiveSeat.seat == index)
                    .values(result=str(Result.DRAWN if result is Result.TIED else result))
                )
        return True

    if not _commit_and_announce(table_id, table.code, work):
        raise Stale(MOVE_MADE)
    return played


@bp.post("/<code>/state-iq")
@student_required
def state_iq_move(code: str) -> str | Response | tuple[str, int]:
    """The student's move in a State IQ duel: a guess at the classmate's state, or a state that
    borders their own as the B clue (L-Q1, L-Q3)."""
    found, seats, seat = _seated_or_404(code)
    here = url_for("live.table", code=found.code)
    if found.game != STATE_IQ:
        return nothing_changed(NOT_A_DUEL, here)
    if found.status in (STATUS_OPEN, STATUS_CLOSED):
        return nothing_changed(NOT_STARTED, here)
    if found.status != STATUS_PLAYING:
        return nothing_changed(DUEL_OVER, here)
    form = MoveForm()
    turn = form.turn_number()
    if turn != found.ply:
        return nothing_changed(MOVE_MADE, here)
    if not form.validate():
        form.answer.errors = [e for errors in form.errors.values() for e in errors]
        return _refused(found, seats, seat, form)
    postal = form.postal(get_deck())
    if postal is None:
        return _refused(found, seats, seat, form)
    try:
        played = play_duel_move(
            found, seat, games_of(found), postal, current_student(), utcnow(), turn
        )
    except Stale as stale:
        db.session.rollback()
        return nothing_changed(str(stale), here)
    except Refused as refused:
        db.session.rollback()
        form.answer.errors = [str(refused)]
        return _refused(found, seats, seat, form)
    if played.mistake is not None:
        flash(played.mistake, "error")
    return redirect(here)


def _refused(table: LiveTable, seats: tuple[Seat, ...], seat: int, form: MoveForm) -> Any:
    """The duel's page again with the answer's error, as a 400 (nothing changed); from a student
    whose move it is not (no answer field on their page), the page with the refusal said."""
    template, context = _page(table, seats, seat, None)
    if not context.get("your_turn"):
        flash(" ".join(form.answer.errors), "error")
        return redirect(url_for("live.table", code=table.code))
    return render_template(template, **{**context, "form": form}), 400


# --- the page --------------------------------------------------------------------------------


def duel_page(
    table: LiveTable, seats: tuple[Seat, ...], seat: int, common: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """The duel for ``seat``: the Power card, their own card, each half's clues and guesses as
    their side sees them, and their move when it is theirs (typed, or picked on the same map as
    against the computer, which marks neither card); the classmate's card only once this
    seat's guessing of it is done (L-Q4)."""
    deck = get_deck()
    games = games_of(table)
    if 0 not in games or 1 not in games:  # a duel always has both sides once started
        abort(404)
    game = rebuild(table, games)
    mine = duel.seen_by(game, seat)
    rival = common["usernames"].get(1 - seat, A_CLASSMATE)
    turn = duel.to_move(game)
    over = table.status == STATUS_OVER or game.is_over
    dealt = deal_of(games[0])
    draw = (dealt.draw[seat], dealt.draw[1 - seat])
    halves = [describe_half(mine, half, deck, over) for half in mine.halves]
    for half in halves:
        if half["guesser"] is Side.STUDENT:  # the classmate's wrong borders are theirs to see
            half["mistakes"] = []
    context: dict[str, Any] = {
        **common,
        "rival": rival,
        "mine": mine,
        "row": games[seat],
        "over": over,
        "halves": halves,
        "power": mine.power,
        "your_turn": turn is not None and turn[0] == seat,
        "doing": turn[1] if turn is not None else None,
        "guess_number": len(mine.half.guesses) + 1,
        "my_state": deck[mine.student_card],
        "their_state": deck[mine.computer_card] if duel.may_see(game, seat) else None,
        "draw": draw,
        "first_is_me": dealt.first == seat,
        "result": games[seat].result if over else None,
        "you_needed": next(
            (h.guesses_needed for h in mine.halves if h.guesser is Side.STUDENT), None
        ),
        "they_needed": next(
            (h.guesses_needed for h in mine.halves if h.guesser is Side.COMPUTER), None
        ),
        "state_names": sorted(s.name for s in deck),
        # The map to pick a move on, as against the computer: every state in the public order.
        "pick_order": deck.geometry.west_to_east(),
        "move_url": url_for("live.state_iq_move", code=table.code),
        "form": MoveForm(formdata=None),
    }
    return ("live/state_iq_duel.html", context)


register(
    Duel(
        STATE_IQ,
        title="State IQ duel",
        how="guess your classmate's state, or give a clue about yours",
        start=start_duel,
        page=duel_page,
    )
)
