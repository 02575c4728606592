"""Live tables: open one, join with its code, sit, start, and play, each student on their own device.

The server is the only judge, as at a table against the computer (:mod:`trainer.web.play.games`):
a move names the table's ply, is checked against the seat whose turn it is, and is stored with the
computer seats' replies in one conditional write, so of two moves sent at once exactly one is
kept and the other is refused with the table as it is now. Each page shows one seat's view: its
own hand, and what the rules make public. A change is announced to the other seats' pages
(:func:`.sockets.announce`), which fetch their own view.

Only classmates meet: a student may join a table only if they share a class with the student who
opened it; to anyone else its code is as unknown as a made-up one.
"""

from __future__ import annotations

import datetime as dt
import random
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    g,
    has_request_context,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_login import current_user
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased
from werkzeug.wrappers import Response

from trainer import live
from trainer.games import (
    REGISTRY,
    GameError,
    IllegalAction,
    Level,
    Params,
    State,
    make_game,
    make_player,
    play_computer_turns,
    replay,
)
from trainer.games.drill import DrillAnswer, RefusedPlay
from trainer.live import Seat, TableError
from trainer.results import Result

from .. import get_deck
from ..extensions import changed_rows, db
from ..guards import Refused, Stale, nothing_changed
from ..memory import atomically
from ..models import (
    ClassMembership,
    LiveInvite,
    LivePresence,
    LiveSeat,
    LiveTable,
    ReviewLog,
    TournamentMatch,
    User,
    utcnow,
)
from ..play.common import GAME_OVER, TABLE_MOVE_MADE
from ..play.forms import CardGameMoveForm
from ..play.games import (
    MODES,
    TITLES,
    asked_facts,
    drill_answers,
    drill_feedback,
    hidden_on_cards,
    met_rankings,
    new_seed,
    peek_at,
    peek_feedback,
    record_drill,
)
from ..security import student_required
from . import sockets, waits
from .duels import DUELS, is_duel
from .forms import JoinTableForm, NewTableForm, SeatForm

bp = Blueprint("live", __name__, url_prefix="/play/live")

#: A join code that names no open table the student may join (a made-up one, a stranger's).
NO_SUCH_TABLE = "No open table has that code. Check it with the classmate who opened the table."
#: A change to the lobby made from a page that was out of date.
TABLE_CHANGED = "The table changed meanwhile. Nothing changed; here it is now."
STATUS_OPEN, STATUS_PLAYING, STATUS_OVER, STATUS_CLOSED = "open", "playing", "over", "closed"
#: A tournament match's table waiting for its second team (P-K8): no lobby, no code, no change of
#: seat; it starts when both teams have taken their seats (``tournament_play.live_games``).
STATUS_WAITING = "waiting"
#: What runs in the unit of every change that a table keeps (after the change, before the commit):
#: given the table's id. ``tournament_play.live_games`` records a match game's result there (P-K9).
AFTER_CHANGE: list[Any] = []
#: Games whose drill is not offered at a live table: Geography War's drill calls each battle from
#: seat 1's side, and its battles need no choice from either player (L-T6).
NO_LIVE_DRILL = frozenset({"geography-war"})
#: How many tables waiting to start a student may have opened at once.
MOST_OPEN = 5
#: How many of a student's tables the index lists.
LISTED = 20
LOG_SHOWN = 40


def table_title(game: str) -> str:
    """What a table's pages call its game: a card game's title, or a duel's ("Border-Up race")."""
    return DUELS[game].title if is_duel(game) else TITLES[game]


def not_a_card_game(game: str) -> str:
    """What a card game's request (a move, a peek, the computer standing in) sent to a duel's table
    is told."""
    duel = DUELS[game]
    return f"This table is a {duel.title}: {duel.how}. Nothing changed."


# --- reading a table -------------------------------------------------------------------------


def _by_code(code: str) -> LiveTable | None:
    return db.session.execute(
        select(LiveTable).where(LiveTable.code == live.normal_code(code)[:8])
    ).scalar_one_or_none()


@dataclass
class SeatRow:
    """What a page reads of one seat: who sits there, their username, drill mode, their last
    friendly message, when their page was last heard from and their result."""

    seat: int
    user_id: int | None
    computer: bool
    drill: bool
    cheer: int | None
    cheered_at: dt.datetime | None
    seen_at: dt.datetime | None
    result: str | None
    username: str | None


def _seat_rows(table_id: int) -> tuple[SeatRow, ...]:
    """The table's seats with their students' usernames, in one query.

    A page (a GET, not a socket event) reads them once: its seats, names, drill modes, friendly
    messages and "last heard from" all come from this one read (issue 22's speed: each move makes
    every seat fetch its page). A GET writes only its own seat's ``seen_at``, and
    :func:`_heard_from` keeps the kept rows in step; any other request reads them afresh each time.
    """
    memo: dict[int, tuple[SeatRow, ...]] | None = None
    if has_request_context() and request.method == "GET" and not hasattr(request, "sid"):
        memo = g.setdefault("live_seat_rows", {})
        if table_id in memo:
            return memo[table_id]
    rows = tuple(
        SeatRow(*row)
        for row in db.session.execute(
            select(
                LiveSeat.seat,
                LiveSeat.user_id,
                LiveSeat.computer,
                LiveSeat.drill,
                LiveSeat.cheer,
                LiveSeat.cheered_at,
                LiveSeat.seen_at,
                LiveSeat.result,
                User.username,
            )
            .outerjoin(User, User.id == LiveSeat.user_id)
            .where(LiveSeat.table_id == table_id)
            .order_by(LiveSeat.seat)
        )
    )
    if memo is not None:
        memo[table_id] = rows
    return rows


def _forget_seat_rows() -> None:
    """After a write to the seats: the next read of them asks the database."""
    if has_request_context():
        g.pop("live_seat_rows", None)


def _seats(table: LiveTable) -> tuple[Seat, ...]:
    return tuple(Seat(row.seat, row.user_id, row.computer) for row in _seat_rows(table.id))


def _drills(table: LiveTable) -> dict[int, bool]:
    """Which seats play in drill mode (L-T6)."""
    return {row.seat: row.drill for row in _seat_rows(table.id)}


def round_token(table: LiveTable, seat: int) -> str:
    """What a seat's drill answers carry in the review log: one round per seat of a table."""
    return f"live:{table.code}:{seat}"


def seated_table(code: str) -> LiveTable | None:
    """The table with ``code`` if the signed-in student sits at it (the socket's check too)."""
    if not current_user.is_authenticated:
        return None
    table = _by_code(code)
    if table is None or live.seat_of(_seats(table), current_user.id) is None:
        return None
    return table


def _seated_or_404(code: str) -> tuple[LiveTable, tuple[Seat, ...], int]:
    """The table, its seats and the student's seat; a table they do not sit at is not found."""
    table = _by_code(code)
    if table is None:
        abort(404)
    seats = _seats(table)
    seat = live.seat_of(seats, current_user.id)
    if seat is None:
        abort(404)
    return gone.tidy_table(table), seats, seat


def _names(seats: tuple[Seat, ...], table_id: int | None = None) -> dict[int, str]:
    """The students' usernames by seat (what classmates call each other at the table): from the
    table's seat rows when ``table_id`` is given and they name every student of ``seats``."""
    ids = live.humans(seats)
    if not ids:
        return {}
    users: dict[int, str] = {}
    if table_id is not None:
        users = {
            row.user_id: row.username
            for row in _seat_rows(table_id)
            if row.user_id is not None and row.username is not None
        }
    if not set(ids) <= set(users):
        users = dict(
            db.session.execute(select(User.id, User.username).where(User.id.in_(ids))).all()
        )
    return {seat.index: users[seat.user_id] for seat in seats if seat.user_id in users}


def _classmates(student_id: int, other_id: int) -> bool:
    """Whether the two students share a class."""
    mine, theirs = aliased(ClassMembership), aliased(ClassMembership)
    return (
        db.session.execute(
            select(mine.id)
            .join(theirs, theirs.class_id == mine.class_id)
            .where(mine.student_id == student_id, theirs.student_id == other_id)
            .limit(1)
        ).first()
        is not None
    )


def _game_for(table: LiveTable, seats: tuple[Seat, ...], viewer: int) -> Any:
    return make_game(
        table.game,
        get_deck(),
        Params(table.players, table.team_size, table.first_leader),
        viewer=viewer,
        names=_names(seats, table.id),
    )


def _state(table: LiveTable, seats: tuple[Seat, ...], viewer: int) -> State:
    """The game as ``viewer`` reads it, rebuilt from its seed and actions (a copy: the caller may
    play on it). Every move makes each seat's page fetch itself again, so the latest state built
    for each (table, viewer) is kept, and a page a move later plays only the new actions on a copy
    of it instead of the whole game again (the seats, and so the names, are fixed once a game has
    started; a kept state whose actions are not the start of the table's is rebuilt). The key
    holds the table's code and seed, not only its id: ids start again in every new database."""
    assert table.seed is not None
    key = (table.code, table.seed, viewer)
    actions = table.actions
    with _STATES_LOCK:
        cached = _STATES.get(key)
        if cached is not None:
            _STATES.move_to_end(key)
            cached = cached.clone()
    done = len(cached.history) if cached is not None else 0
    if cached is not None and done <= len(actions) and cached.history == actions[:done]:
        state = cached
        for action in actions[done:]:
            state.apply_action(action)
    else:
        state = replay(_game_for(table, seats, viewer), table.seed, actions)
    _keep_state(table, viewer, state)
    return state


def _keep_state(table: LiveTable, viewer: int, state: State) -> None:
    """Keep a copy of ``state`` as the latest built for (table, viewer), unless a later one is
    kept already (two pages of the same seat may build it at once)."""
    assert table.seed is not None
    key = (table.code, table.seed, viewer)
    with _STATES_LOCK:
        kept = _STATES.get(key)
        if kept is not None and len(kept.history) > len(state.history):
            return
        _STATES[key] = state.clone()
        _STATES.move_to_end(key)
        while len(_STATES) > _STATES_KEPT:
            _STATES.popitem(last=False)


#: The latest state built by (table code, seed, viewer seat), most recently used last.
_STATES: OrderedDict[tuple[str, int, int], State] = OrderedDict()
_STATES_KEPT = 512
_STATES_LOCK = threading.Lock()


# --- writing a table -------------------------------------------------------------------------


def _write_seats(table_id: int, version: int, seats: tuple[Seat, ...], **values: Any) -> bool:
    """Store new seats (and ``values`` of the table) if the table is still at ``version``."""
    saved = changed_rows(
        update(LiveTable)
        .where(LiveTable.id == table_id, LiveTable.version == version)
        .values(version=version + 1, updated_at=utcnow(), **values)
    )
    if saved != 1:
        return False
    _forget_seat_rows()
    for seat in seats:
        # A seat that changes hands loses its drill mode (it was the student's who left it).
        db.session.execute(
            update(LiveSeat)
            .where(
                LiveSeat.table_id == table_id,
                LiveSeat.seat == seat.index,
                LiveSeat.user_id.is_not_distinct_from(seat.user_id),
            )
            .values(computer=seat.computer)
        )
        db.session.execute(
            update(LiveSeat)
            .where(
                LiveSeat.table_id == table_id,
                LiveSeat.seat == seat.index,
                LiveSeat.user_id.is_distinct_from(seat.user_id),
            )
            .values(user_id=seat.user_id, computer=seat.computer, drill=False)
        )
    return True


def _commit_and_announce(table_id: int, code: str, work: Any) -> bool:
    """Run ``work`` as one unit; when it kept its change, tell the table's pages."""

    def unit() -> bool:
        if not work():
            return False
        for after in AFTER_CHANGE:
            after(table_id)
        return True

    kept = bool(atomically(unit))
    _forget_seat_rows()
    if kept:
        version, match_id = db.session.execute(
            select(LiveTable.version, LiveTable.tournament_match_id).where(LiveTable.id == table_id)
        ).one()
        sockets.announce(table_id, code, version)
        if match_id is not None:  # a tournament match's game: its round page follows it (P-K10)
            sockets.announce_match(match_id)
    return kept


def open_table(
    host: User,
    slug: str,
    players: int,
    team_size: int,
    level: str,
    turn_seconds: int | None = None,
) -> LiveTable:
    """A new table with ``host`` at seat 0 (added and flushed, not committed).

    Raises:
        GameError: the game cannot be played with these players and teams.
        TableError: the host has :data:`MOST_OPEN` tables waiting to start already.
    """
    waiting = db.session.execute(
        select(func.count())
        .select_from(LiveTable)
        .where(LiveTable.host_id == host.id, LiveTable.status == STATUS_OPEN)
    ).scalar_one()
    if waiting >= MOST_OPEN:
        raise TableError(
            f"You have {waiting} tables waiting for classmates already: start or close one of "
            "them first (Your tables, above)."
        )
    if not is_duel(slug):  # a duel has no game of the registry: two seats, no teams (L-R1)
        make_game(slug, get_deck(), Params(players, team_size))  # the game's own checks
    rng = random.SystemRandom()
    while True:
        code = live.new_code(rng)
        if _by_code(code) is None:
            break
    table = LiveTable(
        code=code,
        host_id=host.id,
        game=slug,
        players=players,
        team_size=team_size,
        level=level,
        turn_seconds=turn_seconds,
        status=STATUS_OPEN,
        actions=[],
        covered=[],
        ply=0,
        version=0,
    )
    db.session.add(table)
    db.session.flush()
    for seat in live.empty_seats(players, host.id):
        db.session.add(LiveSeat(table_id=table.id, seat=seat.index, user_id=seat.user_id))
    db.session.flush()
    return table


def start_table(table: LiveTable, seats: tuple[Seat, ...], version: int, now: dt.datetime) -> bool:
    """Deal the game: free seats go to the computer, which plays until a student is to move.

    Returns False when the table changed meanwhile (nothing kept).

    Raises:
        TableError: fewer than two students at the table.
    """
    seats = live.started(seats)
    seed = new_seed()
    state = _game_for(table, seats, 0).new_initial_state(seed)
    _computer_turns(table, seats, state, seed)
    values = {
        "status": STATUS_PLAYING,
        "seed": seed,
        "actions": list(state.history),
        "ply": len(state.history),
        "started_at": now,
        **_ending(state, now),
    }
    table_id = table.id

    def work() -> bool:
        if not _write_seats(table_id, version, seats, **values):
            return False
        _store_results(table_id, state)
        return True

    return _commit_and_announce(table.id, table.code, work)


def _computer_turns(table: LiveTable, seats: tuple[Seat, ...], state: State, seed: int) -> None:
    level = Level(table.level)
    play_computer_turns(state, {seat: level for seat in live.computer_seats(seats)}, seed)


def _ending(state: State, now: dt.datetime) -> dict[str, Any]:
    if not state.is_terminal():
        return {}
    return {"status": STATUS_OVER, "finished_at": now}


def _store_results(table_id: int, state: State) -> None:
    """Each seat's result once the game is over."""
    if not state.is_terminal():
        return
    for seat, value in enumerate(state.returns()):
        # 1 for the winning side, 0.5 each for sides that drew, 0 for the others.
        result = Result.WON if value == 1.0 else Result.LOST if value == 0.0 else Result.DRAWN
        db.session.execute(
            update(LiveSeat)
            .where(LiveSeat.table_id == table_id, LiveSeat.seat == seat)
            .values(result=str(result))
        )


@dataclass(frozen=True)
class LiveMove:
    """A move that was kept: the table's ply it was made on, and the drill answers it carried."""

    ply: int
    answers: list[DrillAnswer]


def play_live_move(
    table: LiveTable,
    seats: tuple[Seat, ...],
    seat: int,
    move: Any,
    student: User,
    now: dt.datetime,
) -> LiveMove:
    """Play the move of ``student`` at ``seat`` (with its drill answers when the seat drills),
    then the computer seats up to a student's turn, and store it all in one conditional write.

    Raises:
        Stale: the game is over, or the move was made already or sent from a page a move ago.
        Refused: not this seat's turn, or a move the rules do not allow; nothing changed, except
            that a drill answer that refuses its play (a wrong number in GeoPlunge 51) is
            recorded first, in a unit of its own, as it counts (D-F1).
    """
    if table.status != STATUS_PLAYING:
        raise Stale(GAME_OVER)
    if move.ply != table.ply:
        raise Stale(TABLE_MOVE_MADE)
    state = _state(table, seats, seat)
    if state.current_player() != seat:
        raise Refused("It is not your turn: wait for the others.")
    drilling = _drills(table).get(seat, False) and table.game not in NO_LIVE_DRILL
    token = round_token(table, seat)
    answers: list[DrillAnswer] = []
    try:
        if drilling or not (move.battles and state.play_batch(move.battles)):
            if move.action is None:
                raise IllegalAction("Choose a move.")
            state.decode(move.action)
            asked = asked_facts(student, token, table.ply) if drilling else set()
            # Without drill (or with nothing asked) this only checks the card is in the hand.
            answers = drill_answers(state, move.action, move, asked, seat) if drilling else []
            if not drilling:
                card = state.decode(move.action).card_played()
                if card is not None and card not in state.observation(seat).get("hand", [card]):
                    raise IllegalAction("That card is not in your hand.")
            state.apply_action(move.action)
    except RefusedPlay as wrong:
        record_drill(wrong.answers, student, MODES[table.game], token, table.ply, now)
        raise Refused(str(wrong)) from None
    except IllegalAction as refused:
        raise Refused(f"{refused} Nothing changed.") from None
    assert table.seed is not None
    _computer_turns(table, seats, state, table.seed)
    before, table_id, version = table.ply, table.id, table.version
    values = {
        "actions": list(state.history),
        "ply": len(state.history),
        "version": version + 1,
        "updated_at": now,
        **_ending(state, now),
    }

    def work() -> bool:
        saved = changed_rows(
            update(LiveTable)
            .where(LiveTable.id == table_id, LiveTable.ply == before)
            .values(**values)
        )
        if saved != 1:
            return False
        record_drill(answers, student, MODES[table.game], token, before, now)
        _store_results(table_id, state)
        return True

    if not _commit_and_announce(table_id, table.code, work):
        raise Stale(TABLE_MOVE_MADE)
    # The mover's page comes next (the POST's redirect): it starts from this state.
    _keep_state(table, seat, state)
    return LiveMove(before, answers)


# --- pages -----------------------------------------------------------------------------------


def _my_tables(finished: bool) -> list[tuple[LiveTable, LiveSeat]]:
    statuses = (STATUS_OVER,) if finished else (STATUS_OPEN, STATUS_PLAYING)
    rows = db.session.execute(
        select(LiveTable, LiveSeat)
        .join(LiveSeat, LiveSeat.table_id == LiveTable.id)
        .where(LiveSeat.user_id == current_user.id, LiveTable.status.in_(statuses))
        .order_by(LiveTable.updated_at.desc())
        .limit(LISTED)
    ).all()
    return [(table, seat) for table, seat in rows]


def _render_index(form: NewTableForm, join: JoinTableForm) -> str:
    return render_template(
        "live/index.html",
        form=form,
        join=join,
        tables=_my_tables(False),
        finished=_my_tables(True),
        invitations=_invitations(current_user.id),
        titles={game: table_title(game) for game in (*TITLES, *DUELS)},
    )


@bp.get("/")
@student_required
def index() -> str:
    """Open a table, join one with its code, or go back to one."""
    _present(current_user.id)
    gone.tidy(utcnow(), user_id=current_user.id)  # tables quiet for a day are given up (L-T13)
    return _render_index(NewTableForm(), JoinTableForm(formdata=None))


@bp.get("/here")
@student_required
def here() -> Response:
    """The "Classmates" page reports in (L-T9: classmates may invite this student now)."""
    _present(current_user.id)
    return jsonify(invitations=len(_invitations(current_user.id)))


#: A student on the "Classmates" page reports in every 15 s; one not heard from for this
#: long is no longer offered to be invited.
PRESENT_FOR = dt.timedelta(minutes=2)


def _present(user_id: int) -> None:
    """The student has the "Classmates" page open now."""
    now = utcnow()
    if not changed_rows(
        update(LivePresence).where(LivePresence.user_id == user_id).values(seen_at=now)
    ):
        db.session.add(LivePresence(user_id=user_id, seen_at=now))
    try:
        db.session.commit()
    except IntegrityError:  # another request made the row first
        db.session.rollback()


def _invitations(user_id: int) -> list[tuple[LiveTable, str]]:
    """The open tables the student was invited to and does not sit at, with who invited them."""
    seated = select(LiveSeat.table_id).where(LiveSeat.user_id == user_id)
    rows = db.session.execute(
        select(LiveTable, User.username)
        .join(LiveInvite, LiveInvite.table_id == LiveTable.id)
        .join(User, User.id == LiveInvite.inviter_id)
        .where(
            LiveInvite.user_id == user_id,
            LiveTable.status == STATUS_OPEN,
            LiveTable.id.not_in(seated),
        )
        .order_by(LiveInvite.created_at.desc())
        .limit(LISTED)
    ).all()
    return [(table, inviter) for table, inviter in rows]


def _invitable(table: LiveTable, seats: tuple[Seat, ...], inviter: int) -> list[tuple[int, str]]:
    """Classmates of the inviter (and of the host, L-T1) who have the "Classmates" page open
    and are not at the table (L-T9), by username."""
    mine, theirs = aliased(ClassMembership), aliased(ClassMembership)
    rows = db.session.execute(
        select(User.id, User.username)
        .join(LivePresence, LivePresence.user_id == User.id)
        .join(theirs, theirs.student_id == User.id)
        .join(mine, (mine.class_id == theirs.class_id) & (mine.student_id == inviter))
        .where(LivePresence.seen_at >= utcnow() - PRESENT_FOR, User.id != inviter)
        .distinct()
        .order_by(User.username)
    ).all()
    at_table = set(live.humans(seats))
    return [
        (user_id, name)
        for user_id, name in rows
        if user_id not in at_table
        and (inviter == table.host_id or _classmates(user_id, table.host_id))
    ]


@bp.post("/<code>/invite")
@student_required
def invite(code: str) -> Response:
    """Invite a classmate who has the "Classmates" page open to this table (L-T9)."""
    found, seats, seat = _seated_or_404(code)
    here_url = url_for("live.table", code=found.code)
    form = SeatForm()
    if found.status != STATUS_OPEN or not form.validate():
        return nothing_changed("The game has started: no one else can join now.", here_url)
    target = form.student_number()
    offered = dict(_invitable(found, seats, current_user.id))
    if target not in offered:
        flash("That classmate cannot be invited now: give them the table's code.", "error")
        return redirect(here_url)
    exists = db.session.execute(
        select(LiveInvite.id).where(LiveInvite.table_id == found.id, LiveInvite.user_id == target)
    ).first()
    if exists is None:
        db.session.add(LiveInvite(table_id=found.id, user_id=target, inviter_id=current_user.id))
        try:
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
    sockets.announce_invite(target)
    flash(f"{offered[target]} is invited: the table is on their Classmates page.", "success")
    return redirect(here_url)


@bp.post("/")
@student_required
def new_table() -> str | Response | tuple[str, int]:
    form = NewTableForm()
    if not form.validate():
        return _render_index(form, JoinTableForm(formdata=None)), 400
    players, team_size = form.seats()
    if is_duel(form.game.data) or REGISTRY[form.game.data].max_players == 2:
        players, team_size = 2, 1
    try:
        table = open_table(
            current_user._get_current_object(),
            form.game.data,
            players,
            team_size,
            form.level.data,
            form.timer(),
        )
    except GameError as refused:
        db.session.rollback()
        form.team_size.errors = [str(refused)]
        return _render_index(form, JoinTableForm(formdata=None)), 400
    except TableError as refused:
        db.session.rollback()
        form.game.errors = [str(refused)]
        return _render_index(form, JoinTableForm(formdata=None)), 400
    db.session.commit()
    return redirect(url_for("live.table", code=table.code))


@bp.post("/join")
@student_required
def join() -> str | Response | tuple[str, int]:
    """Sit at a classmate's open table with its code."""
    form = JoinTableForm()
    if not form.validate():
        return _render_index(NewTableForm(formdata=None), form), 400
    table = _by_code(form.code.data)
    if table is not None:
        table = gone.tidy_table(table)  # a lobby quiet for a day is closed (L-T13)
    if table is not None and live.seat_of(_seats(table), current_user.id) is not None:
        return redirect(url_for("live.table", code=table.code))  # already there
    if (
        table is None
        or table.status != STATUS_OPEN
        or not _classmates(current_user.id, table.host_id)
    ):
        form.code.errors = [NO_SUCH_TABLE]
        return _render_index(NewTableForm(formdata=None), form), 400
    table_id, version, user_id = table.id, table.version, current_user.id
    try:
        seats = live.sit(_seats(table), user_id)
    except TableError as refused:
        form.code.errors = [str(refused)]
        return _render_index(NewTableForm(formdata=None), form), 400
    if not _commit_and_announce(
        table_id, table.code, lambda: _write_seats(table_id, version, seats)
    ):
        return nothing_changed(TABLE_CHANGED, url_for("live.index"))
    return redirect(url_for("live.table", code=table.code))


@bp.get("/<code>")
@student_required
def table(code: str) -> str:
    """The lobby before the game starts, then this student's seat at the table."""
    found, seats, seat = _seated_or_404(code)
    _heard_from(found.id, seat)
    template, context = _page(found, seats, seat, request.args.get("since", type=int))
    # ?part=live: the page's own part only, for live.js to put in place after a change (no
    # header, menu or footer to render, and no flashed message taken from the next full page).
    return render_template(template, **context, live_part=request.args.get("part") == "live")


@bp.get("/<code>/version")
@student_required
def version(code: str) -> Response | tuple[Response, int]:
    """The table's version, for a page whose socket cannot connect. With ``?after=N&wait=1`` the
    answer waits until the version passes ``N`` (or :data:`.waits.WAIT_SECONDS` went by), so a
    page behind a proxy that refuses WebSockets hears a move as soon as a socket would."""
    found, _seats_now, seat = _seated_or_404(code)
    _heard_from(found.id, seat)
    if request.args.get("wait") == "1":
        after = request.args.get("after", "")
        if not after.isdigit() or len(after) > 9:
            return jsonify(error="after: the version the page shows, a whole number"), 400
        table_id = found.id

        def current() -> int:
            now = db.session.execute(
                select(LiveTable.version).where(LiveTable.id == table_id)
            ).scalar_one()
            db.session.rollback()  # no connection held while waiting
            return int(now)

        waits.wait(table_id, int(after), current)
        found = db.session.get(LiveTable, table_id) or found
    return jsonify(version=found.version, status=found.status, ply=found.ply)


#: How often a seat's "last heard from" is written at most (its pages report every 15 s).
SEEN_EVERY = dt.timedelta(seconds=10)


def _heard_from(table_id: int, seat: int) -> None:
    """The seat's student is at the table now (L-T7): their page loaded or reported in. Written
    at most every :data:`SEEN_EVERY`: a page whose seat was heard from since reads and writes
    nothing more."""
    now = utcnow()
    rows = _seat_rows(table_id)
    mine = next((row for row in rows if row.seat == seat), None)
    if mine is not None and mine.seen_at is not None and now - mine.seen_at < SEEN_EVERY:
        return
    if mine is not None:
        mine.seen_at = now  # the page goes on with what it now wrote
    changed_rows(
        update(LiveSeat)
        .where(
            LiveSeat.table_id == table_id,
            LiveSeat.seat == seat,
            (LiveSeat.seen_at.is_(None)) | (LiveSeat.seen_at < now - SEEN_EVERY),
        )
        .values(seen_at=now)
    )
    db.session.commit()


def _seen(table: LiveTable) -> dict[int, dt.datetime | None]:
    return {row.seat: row.seen_at for row in _seat_rows(table.id)}


def stand_in_at(table: LiveTable, state: State, seats: tuple[Seat, ...]) -> dt.datetime | None:
    """When the computer may play for the student whose turn it is (L-T7); None when it is no
    student's turn."""
    mover = state.current_player()
    if table.status != STATUS_PLAYING or live.to_move(seats, mover) is None:
        return None
    return live.computer_may_move_at(_seen(table).get(mover), table.updated_at, table.turn_seconds)


def _page(
    table: LiveTable, seats: tuple[Seat, ...], seat: int, since: int | None
) -> tuple[str, dict[str, Any]]:
    names = _names(seats, table.id)
    common = {
        "table": table,
        "title": table_title(table.game),
        "live_seats": seats,
        "usernames": names,
        "my_seat": seat,
        "is_host": seat == 0,
        "seat_form": SeatForm(formdata=None),
        "cheers": live.CHEERS,
        "cheers_sent": _cheers(table, names, seat),
        # A tournament match's game (P-K8): its pages lead back to the match, not to play again.
        "match_url": _match_url(table),
    }
    if table.status == STATUS_WAITING or (
        table.tournament_match_id is not None and table.status == STATUS_CLOSED
    ):
        return ("live/match_wait.html", common)
    if table.status in (STATUS_OPEN, STATUS_CLOSED):
        return ("live/lobby.html", _lobby(table, seats, common))
    if is_duel(table.game):
        return DUELS[table.game].page(table, seats, seat, {**common, **gone.duel_end(table, seat)})
    state = _state(table, seats, seat)
    return ("live/table.html", {**common, **_table_view(table, state, seats, seat, since)})


def _match_url(table: LiveTable) -> str | None:
    """The tournament match page of a match's table (P-K8), else None."""
    if table.tournament_match_id is None:
        return None
    tournament_id = db.session.execute(
        select(TournamentMatch.tournament_id).where(TournamentMatch.id == table.tournament_match_id)
    ).scalar_one_or_none()
    if tournament_id is None:
        return None
    return url_for(
        "tournament_play.match_page",
        tournament_id=tournament_id,
        match_id=table.tournament_match_id,
    )


def _lobby(table: LiveTable, seats: tuple[Seat, ...], common: dict[str, Any]) -> dict[str, Any]:
    params = Params(table.players, table.team_size)
    return {
        **common,
        "sides": params.sides,
        "side_of": params.side_of,
        "humans": len(live.humans(seats)),
        "can_start": len(live.humans(seats)) >= live.MIN_HUMANS,
        "drills": _drills(table),
        "drill_offered": table.game not in NO_LIVE_DRILL and not is_duel(table.game),
        # A duel is between two students: no seat of it is the computer's (L-R1).
        "computer_offered": not is_duel(table.game),
        "invitable": _invitable(table, seats, current_user.id),
        "met_any": bool(met_rankings(current_user._get_current_object())),
    }


@dataclass(frozen=True)
class TableRow:
    """What the card games' table templates read of their game row, for one seat of a live table."""

    token: str
    game: str
    players: int
    team_size: int
    level: str
    ply: int
    result: str
    move_url: str
    peek_url: str
    drill: bool = False
    drill_right: int = 0
    drill_answers: int = 0


def _table_view(
    table: LiveTable, state: State, seats: tuple[Seat, ...], seat: int, since: int | None
) -> dict[str, Any]:
    """The card game's table for ``seat``: its observation, the public log, its turn."""
    deck = get_deck()
    obs = state.observation(seat)
    # Over with no result: nobody played at the table for a day (L-T13).
    given_up = table.status == STATUS_OVER and not state.is_terminal()
    your_turn = state.current_player() == seat and not given_up
    over = state.is_terminal() or given_up
    result = ""
    if state.is_terminal():
        mine = next(row.result for row in _seat_rows(table.id) if row.seat == seat)
        result = mine or Result.DRAWN
    log = list(state.log)
    deals = [event.ply for event in log if event.kind == "deal"]
    log = [event for event in log if event.ply >= (deals[-1] if deals else 0)]
    student = current_user._get_current_object()
    drilling = _drills(table).get(seat, False) and table.game not in NO_LIVE_DRILL
    hidden = _hidden(table, state, seat, student) if not over else set()
    # The seat's drill answers so far (shown in drill mode only).
    tally = (
        db.session.execute(
            select(func.count(), func.count().filter(ReviewLog.verdict == "right")).where(
                ReviewLog.student_id == student.id,
                ReviewLog.round_token == round_token(table, seat),
            )
        ).one()
        if drilling
        else (0, 0)
    )
    row = TableRow(
        token=table.code,
        game=table.game,
        players=table.players,
        team_size=table.team_size,
        level=table.level,
        ply=table.ply,
        result=str(result),
        move_url=url_for("live.move", code=table.code),
        peek_url=url_for("live.peek", code=table.code),
        drill=drilling,
        drill_answers=tally[0],
        drill_right=tally[1],
    )
    to_move = state.current_player()
    view: dict[str, Any] = {
        "row": row,
        "obs": obs,
        "your_turn": your_turn,
        "over": over,
        "log": log[-LOG_SHOWN:],
        "fresh": [event for event in log if since is not None and event.ply >= since],
        "form": CardGameMoveForm(formdata=None),
        "hand": [deck[p] for p in obs.get("hand", [])],
        "hide_ranks": frozenset(hidden),
        "asks": lambda postal, what: f"{postal}:{getattr(what, 'slug', what)}" in hidden,
        "drilling": bool(hidden),
        "level": Level(table.level),
        "game": state.game,
        "viewer": seat,
        "waiting_for": None if over or your_turn else state.seat_name(to_move),
        # L-T7: when the computer may play for the student to move, if it is another student.
        "stand_in_at": None if your_turn else stand_in_at(table, state, seats),
        # The server's clock, so a page counts to ``stand_in_at`` whatever its own clock says.
        "server_now": utcnow(),
        "covered": set(table.covered),
    }
    view.update(state.table_view(obs, your_turn, bool(hidden)))
    return view


@bp.post("/<code>/move")
@student_required
def move(code: str) -> Response:
    """This student's move at the table."""
    found, seats, seat = _seated_or_404(code)
    here = url_for("live.table", code=found.code)
    form = CardGameMoveForm()
    if is_duel(found.game):
        return nothing_changed(not_a_card_game(found.game), here)
    if found.status != STATUS_PLAYING:
        return nothing_changed(GAME_OVER, here)
    if not form.validate():
        flash(" ".join(e for errors in form.errors.values() for e in errors), "error")
        return redirect(here)
    try:
        played = play_live_move(
            found, seats, seat, form.move(), current_user._get_current_object(), utcnow()
        )
    except Stale as stale:
        return nothing_changed(str(stale), here, stale.category)
    except Refused as refused:
        db.session.rollback()
        flash(str(refused), "error")
        return redirect(here)
    drill_feedback(played.answers)
    return redirect(url_for("live.table", code=found.code, since=played.ply))


def play_for_absent(
    table: LiveTable, seats: tuple[Seat, ...], asker: int, version: int | None, now: dt.datetime
) -> None:
    """The computer plays one move for the student whose turn it is, who is away or out of time
    (L-T7), asked by another seat's page; then the computer seats play as after any move, and
    one move for each next student to move who is away too (L-T11). The seat stays the
    student's: their next turn is theirs again.

    Raises:
        Stale: the table changed since the asking page (or the game is over).
        Refused: it is the asker's own turn, or the student to move still has time.
    """
    if table.status != STATUS_PLAYING:
        raise Stale(GAME_OVER)
    if version != table.version:
        raise Stale(TABLE_MOVE_MADE)
    state = _state(table, seats, asker)
    mover = state.current_player()
    if mover == asker:
        raise Refused("It is your turn: play your move.")
    at = stand_in_at(table, state, seats)
    if at is None or now < at:
        raise Refused("They still have time to play. Nothing changed.")
    assert table.seed is not None
    covered, played_for, seen = [*table.covered], set(), _seen(table)
    while True:
        # One move for each student, seeded as the computer seats' are (G9): if it is their turn
        # again, they may be back by then.
        covered.append(len(state.history))
        played_for.add(mover)
        player = make_player(Level(table.level), f"{table.seed}:{len(state.history)}")
        state.apply_action(
            player.choose(state.game, state.observation(mover), state.legal_actions())
        )
        _computer_turns(table, seats, state, table.seed)
        # L-T11: when the next student to move (not the asker, not played for yet) is away as
        # well, the computer plays for them in the same write: a student left alone at the
        # table does not wait for each away seat in turn. Their turn begins now (no clock).
        mover = state.current_player()
        if live.to_move(seats, mover) is None or mover == asker or mover in played_for:
            break
        if now < live.computer_may_move_at(seen.get(mover), now, None):
            break
    before, table_id = table.ply, table.id
    values = {
        "actions": list(state.history),
        "ply": len(state.history),
        "version": table.version + 1,
        "updated_at": now,
        "covered": covered,
        **_ending(state, now),
    }

    def work() -> bool:
        saved = changed_rows(
            update(LiveTable)
            .where(LiveTable.id == table_id, LiveTable.ply == before)
            .values(**values)
        )
        if saved != 1:
            return False
        _store_results(table_id, state)
        return True

    if not _commit_and_announce(table_id, table.code, work):
        raise Stale(TABLE_MOVE_MADE)


@bp.post("/<code>/stand-in")
@student_required
def stand_in(code: str) -> Response:
    """Another seat's page asks the computer to play for a student who is away or out of time."""
    found, seats, seat = _seated_or_404(code)
    here = url_for("live.table", code=found.code)
    form = SeatForm()
    if is_duel(found.game):
        return nothing_changed(not_a_card_game(found.game), here)
    if not form.validate():
        return nothing_changed(TABLE_CHANGED, here)
    try:
        play_for_absent(found, seats, seat, form.version_number(), utcnow())
    except Stale as stale:
        return nothing_changed(str(stale), here, stale.category)
    except Refused as refused:
        flash(str(refused), "info")
        return redirect(here)
    return redirect(url_for("live.table", code=found.code, since=found.ply))


#: How long a friendly message stays on the table's pages, and how soon a student may send another.
CHEER_SHOWN = dt.timedelta(seconds=60)
CHEER_EVERY = dt.timedelta(seconds=5)


@bp.post("/<code>/cheer")
@student_required
def send_cheer(code: str) -> Response:
    """Send one of the few friendly messages to the table (L-T8)."""
    found, seats, seat = _seated_or_404(code)
    here = url_for("live.table", code=found.code)
    form = SeatForm()
    if found.status not in (STATUS_OPEN, STATUS_PLAYING, STATUS_OVER) or not form.validate():
        return nothing_changed(TABLE_CHANGED, here)
    try:
        message = live.cheer(form.message_number())
    except TableError as refused:
        flash(str(refused), "error")
        return redirect(here)
    now, table_id = utcnow(), found.id

    def work() -> bool:
        sent = changed_rows(
            update(LiveSeat)
            .where(
                LiveSeat.table_id == table_id,
                LiveSeat.seat == seat,
                (LiveSeat.cheered_at.is_(None)) | (LiveSeat.cheered_at < now - CHEER_EVERY),
            )
            .values(cheer=live.CHEERS.index(message), cheered_at=now)
        )
        if sent != 1:
            return False
        db.session.execute(
            update(LiveTable).where(LiveTable.id == table_id).values(version=LiveTable.version + 1)
        )
        return True

    if not _commit_and_announce(table_id, found.code, work):
        flash("Wait a moment before sending another message.", "info")
    return redirect(here)


def _cheers(table: LiveTable, names: dict[int, str], seat: int) -> list[str]:
    """The friendly messages sent to the table in the last minute, oldest first."""
    since = utcnow() - CHEER_SHOWN
    sent = sorted(
        (row.cheered_at, row.seat, row.cheer)
        for row in _seat_rows(table.id)
        if row.cheer is not None and row.cheered_at is not None and row.cheered_at >= since
    )
    return [
        f"{'You' if who == seat else names.get(who, 'A classmate')}: {live.CHEERS[cheer]}"
        for _at, who, cheer in sent
        if 0 <= cheer < len(live.CHEERS)
    ]


@bp.post("/<code>/rematch")
@student_required
def rematch(code: str) -> Response:
    """Play again with the same classmates (L-T10): a new table of the same game, seats, teams,
    level and clock, opened by whoever asks first; the others are invited to it, and their finished
    table's page offers to join it. Asked again, it goes to the table already opened."""
    found, seats, seat = _seated_or_404(code)
    here = url_for("live.table", code=found.code)
    if found.tournament_match_id is not None:  # the match names its next game (P-K8)
        return nothing_changed(
            "This was a game of your tournament match: the match page has the next one.", here
        )
    if found.status != STATUS_OVER or not SeatForm().validate():
        return nothing_changed("Play this game to the end first.", here)
    if found.rematch_code:
        return _join_rematch(found.rematch_code)
    asker = current_user._get_current_object()
    try:
        table = open_table(
            asker, found.game, found.players, found.team_size, found.level, found.turn_seconds
        )
    except TableError as refused:
        db.session.rollback()
        flash(str(refused), "error")
        return redirect(here)
    claimed = changed_rows(
        update(LiveTable)
        .where(LiveTable.id == found.id, LiveTable.rematch_code.is_(None))
        .values(rematch_code=table.code, version=LiveTable.version + 1)
    )
    if claimed != 1:  # a classmate asked at the same moment: theirs is the new table
        db.session.rollback()
        db.session.expire_all()
        again = db.session.get(LiveTable, found.id)
        return _join_rematch(again.rematch_code if again is not None else None)
    others = [user for user in live.humans(seats) if user != asker.id]
    for user in others:
        db.session.add(LiveInvite(table_id=table.id, user_id=user, inviter_id=asker.id))
    db.session.commit()
    version = found.version + 1
    sockets.announce(found.id, found.code, version)
    for user in others:
        sockets.announce_invite(user)
    return redirect(url_for("live.table", code=table.code))


def _join_rematch(code: str | None) -> Response:
    """Sit at the rematch table ``code`` (as joining it with its code would)."""
    table = _by_code(code) if code else None
    if table is None or table.status != STATUS_OPEN:
        flash("That new table has started or closed. Open another one.", "info")
        return redirect(url_for("live.index"))
    seats = _seats(table)
    if live.seat_of(seats, current_user.id) is None:
        try:
            new_seats = live.sit(seats, current_user.id)
        except TableError as refused:
            flash(str(refused), "error")
            return redirect(url_for("live.index"))
        table_id, version = table.id, table.version
        if not _commit_and_announce(
            table_id, table.code, lambda: _write_seats(table_id, version, new_seats)
        ):
            return nothing_changed(TABLE_CHANGED, url_for("live.index"))
    return redirect(url_for("live.table", code=table.code))


@bp.post("/<code>/peek")
@student_required
def peek(code: str) -> Response:
    """A peek at one hidden ranking of this student's cards: shown, and counted as a miss (D-H3)."""
    found, seats, seat = _seated_or_404(code)
    here = url_for("live.table", code=found.code)
    form = CardGameMoveForm()
    if is_duel(found.game):
        return nothing_changed(not_a_card_game(found.game), here)
    if found.status != STATUS_PLAYING:
        return nothing_changed(GAME_OVER, here)
    if not form.validate():
        flash(" ".join(e for errors in form.errors.values() for e in errors), "error")
        return redirect(here)
    student = current_user._get_current_object()
    token, now = round_token(found, seat), utcnow()
    try:
        ply, fact_key = form.peeked()
        if ply != found.ply:
            raise Stale(TABLE_MOVE_MADE)
        peeked = peek_at(
            student,
            fact_key,
            token,
            found.ply,
            lambda: _hidden(found, _state(found, seats, seat), seat, student),
            lambda answers: record_drill(answers, student, MODES[found.game], token, ply, now),
        )
    except Stale as stale:
        return nothing_changed(str(stale), here, stale.category)
    except Refused as refused:
        flash(str(refused), "error")
        return redirect(here)
    peek_feedback(peeked)
    return redirect(here)


def _hidden(table: LiveTable, state: State, seat: int, student: User) -> set[str]:
    """The facts hidden on ``seat``'s cards now: none unless the seat drills (L-T6)."""
    if not _drills(table).get(seat, False) or table.game in NO_LIVE_DRILL:
        return set()
    return hidden_on_cards(state, seat, asked_facts(student, round_token(table, seat), table.ply))


@bp.post("/<code>/drill")
@student_required
def drill(code: str) -> Response:
    """Turn drill mode on or off for this student's own seat, before the game starts (L-T6)."""
    found, seats, seat = _seated_or_404(code)
    here = url_for("live.table", code=found.code)
    form = SeatForm()
    if found.status != STATUS_OPEN:
        return nothing_changed("The game has started; drill mode is set before the start.", here)
    if not form.validate() or form.version_number() != found.version:
        return nothing_changed(TABLE_CHANGED, here)
    if found.game in NO_LIVE_DRILL or is_duel(found.game):
        flash(f"{table_title(found.game)} is played without drill at a live table.", "error")
        return redirect(here)
    table_id, version_now, on = found.id, found.version, bool(form.computer.data)

    def work() -> bool:
        if (
            changed_rows(
                update(LiveTable)
                .where(LiveTable.id == table_id, LiveTable.version == version_now)
                .values(version=version_now + 1, updated_at=utcnow())
            )
            != 1
        ):
            return False
        db.session.execute(
            update(LiveSeat)
            .where(LiveSeat.table_id == table_id, LiveSeat.seat == seat)
            .values(drill=on)
        )
        return True

    if not _commit_and_announce(table_id, found.code, work):
        return nothing_changed(TABLE_CHANGED, here)
    return redirect(here)


def _lobby_change(code: str, change: Any, host_only: bool = False) -> Response:
    """Apply ``change(seats, seat, form)`` to an open table's seats, from a page at the form's
    version; refused with the lobby as it is now when the table changed or the rules say no."""
    found, seats, seat = _seated_or_404(code)
    here = url_for("live.table", code=found.code)
    form = SeatForm()
    if found.status != STATUS_OPEN:
        return nothing_changed("The game has started; the seats are fixed now.", here)
    if not form.validate():
        flash(" ".join(e for errors in form.errors.values() for e in errors), "error")
        return redirect(here)
    if form.version_number() != found.version:
        return nothing_changed(TABLE_CHANGED, here)
    if host_only and seat != 0:
        flash("Only the student who opened the table can do that.", "error")
        return redirect(here)
    try:
        new_seats = change(seats, seat, form)
    except TableError as refused:
        flash(str(refused), "error")
        return redirect(here)
    table_id, version_now = found.id, found.version
    if not _commit_and_announce(
        table_id, found.code, lambda: _write_seats(table_id, version_now, new_seats)
    ):
        return nothing_changed(TABLE_CHANGED, here)
    return redirect(here)


@bp.post("/<code>/sit")
@student_required
def sit(code: str) -> Response:
    """Move to another free seat (and so to another team) before the game starts."""
    return _lobby_change(
        code, lambda seats, seat, form: live.sit(seats, current_user.id, form.seat_number())
    )


@bp.post("/<code>/computer")
@student_required
def computer(code: str) -> Response:
    """The host gives a free seat to the computer, or takes it back (never at a race, L-R1)."""

    def change(seats: tuple[Seat, ...], seat: int, form: SeatForm) -> tuple[Seat, ...]:
        table = _by_code(code)
        if table is not None and is_duel(table.game):
            raise TableError(
                f"A {table_title(table.game)} is between two classmates: no computer seat."
            )
        return live.give_to_computer(seats, form.seat_number(), bool(form.computer.data))

    return _lobby_change(code, change, host_only=True)


@bp.post("/<code>/leave")
@student_required
def leave(code: str) -> Response:
    """Leave a table before it starts; the host closes it instead (everyone else is told)."""
    found, seats, seat = _seated_or_404(code)
    form = SeatForm()
    if found.status != STATUS_OPEN or not form.validate():
        return nothing_changed(
            "The game has started: play it to the end.", url_for("live.table", code=found.code)
        )
    table_id, version_now, code_now = found.id, found.version, found.code
    if seat == 0:

        def close() -> bool:
            return (
                changed_rows(
                    update(LiveTable)
                    .where(LiveTable.id == table_id, LiveTable.status == STATUS_OPEN)
                    .values(status=STATUS_CLOSED, version=LiveTable.version + 1)
                )
                == 1
            )

        _commit_and_announce(table_id, code_now, close)
        flash("You closed the table.", "info")
        return redirect(url_for("live.index"))
    new_seats = live.stand(seats, current_user.id)
    if not _commit_and_announce(
        table_id, code_now, lambda: _write_seats(table_id, version_now, new_seats)
    ):
        return nothing_changed(TABLE_CHANGED, url_for("live.table", code=code_now))
    flash("You left the table.", "info")
    return redirect(url_for("live.index"))


@bp.post("/<code>/start")
@student_required
def start(code: str) -> Response:
    """The host deals the game."""
    found, seats, seat = _seated_or_404(code)
    here = url_for("live.table", code=found.code)
    form = SeatForm()
    if found.status != STATUS_OPEN:
        return nothing_changed("This game has started already.", here)
    if not form.validate() or form.version_number() != found.version:
        return nothing_changed(TABLE_CHANGED, here)
    if seat != 0:
        flash("Only the student who opened the table can start the game.", "error")
        return redirect(here)
    deal = DUELS[found.game].start if is_duel(found.game) else start_table
    try:
        if not deal(found, seats, found.version, utcnow()):
            return nothing_changed(TABLE_CHANGED, here)
    except TableError as refused:
        db.session.rollback()
        flash(str(refused), "error")
        return redirect(here)
    return redirect(url_for("live.table", code=found.code, since=0))


# The duels' pages and calls (L-R1, L-D1) register on ``bp`` and in ``DUELS`` too; imported last, as they
# use the helpers above.
from . import dashing_race, gone, race, state_iq_duel  # noqa: E402, F401
