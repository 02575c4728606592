"""A tournament match's game played on the two teams' own devices, at a live table (issue 22).

From the match page, a student of either team opens the game due "on our own devices" (P-K8): the
app opens a live table for it (a Border-Up race, a State IQ duel, a Dashing States race or Play the
Ranks for two), whose seat 0 is team A's and seat 1 team B's. The first student of a team to take
its seat holds it for the game; a teammate is told who holds it; a student of another team or
class does not find the table (its pages answer 404, its code names no table). The table has no
lobby: it waits for the second team, and the game is dealt the moment both seats are taken, with
who guesses or leads first as the match decides (P-K2, :func:`.scoring.start_of`).

When the table's game ends, its result is recorded into the match as the app's own word, in the
same unit as the end (:data:`..live.routes.AFTER_CHANGE`), once (P-K9): the end is one conditional
write on the table, and the game's row is unique per (match, number). The teacher's round page
shows every match's live games and asks for them every few seconds (P-K10).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from dataclasses import dataclass

from flask import abort, flash, redirect, render_template, request, url_for
from flask_login import current_user
from flask_wtf import FlaskForm
from sqlalchemy import Select, select, update
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response
from wtforms import HiddenField

from trainer import live
from trainer.games.combo import ComboGame, Side
from trainer.games.tournament import EnteredBy, GameStage
from trainer.live import Seat, TableError

from ..extensions import changed_rows, db
from ..guards import Refused, Stale, nothing_changed, whole_number
from ..live import gone, sockets
from ..live import routes as live_routes
from ..live.duels import DUELS, is_duel
from ..models import (
    LiveSeat,
    LiveTable,
    SchoolClass,
    Tournament,
    TournamentGame,
    TournamentMatch,
    User,
    utcnow,
)
from ..security import login_required, teacher_required
from ..teach.tournaments import Board
from .routes import Viewer, _blocked, _claim, _closed, _here, _load, _names, _play, _stale, bp
from .scoring import MatchPlay, Upcoming

#: The computer's level a match's table is stored with: no computer plays there, except one move
#: for a student away at Play the Ranks (L-T7), at this level.
LEVEL = "medium"
#: A match's Play the Ranks is played in drill mode, as against the computer (P-K7, D-R1).
DRILLED = frozenset({ComboGame.PLAY_THE_RANKS})

NOT_A_TEACHER = (
    "The two teams play a game on their own devices, each signed in: your teacher watches it on the "
    "round page. Nothing was changed."
)


def seat_of(side: Side) -> int:
    """The table's seat a team plays (P-K8): team A seat 0, team B seat 1."""
    return 0 if side is Side.A else 1


def tables_of(match_ids: list[int]) -> list[LiveTable]:
    """The live tables of these matches' games, each as it is once given up if it has been quiet
    for a day (L-T13): a table waiting for a team whose holder is long gone is closed (one
    conditional write, announced) before a page shows it or a team sits at it. Read outside any
    unit (a page's read, or before a seat is taken): the tidy commits its own."""
    if not match_ids:
        return []
    tables = db.session.execute(
        select(LiveTable)
        .where(LiveTable.tournament_match_id.in_(match_ids))
        .order_by(LiveTable.tournament_match_id, LiveTable.match_game)
    ).scalars()
    return [gone.tidy_table(table) for table in tables]


@dataclass(frozen=True)
class LiveGame:
    """A game of a match at a live table, as the match and round pages show it."""

    match_id: int
    number: int
    game: ComboGame
    code: str
    status: str
    #: The username holding each team's seat, if taken, and their id.
    holders: dict[Side, str | None]
    holder_ids: dict[Side, int | None]
    #: Each team's result once it is over ("won", "lost", "drawn").
    results: dict[Side, str | None]
    version: int

    def shown(self) -> tuple[object, ...]:
        """What the match and round pages show of it, for their versions (P-K10): a move that
        changes none of it (only the table's own version) reloads no match page and swaps no
        round page's part (a screen reader would hear it again)."""
        return (
            self.match_id,
            self.number,
            self.code,
            self.status,
            tuple(self.holder_ids[side] for side in Side),
            tuple(self.results[side] for side in Side),
        )

    @property
    def waiting(self) -> bool:
        return self.status == live_routes.STATUS_WAITING

    @property
    def playing(self) -> bool:
        return self.status == live_routes.STATUS_PLAYING

    @property
    def over(self) -> bool:
        return self.status == live_routes.STATUS_OVER

    def winner(self) -> Side | None:
        return next((side for side in Side if self.results[side] == "won"), None)

    def sentence(self, names: dict[Side, str]) -> str:
        """What the pages say of it: who holds the seats, and how it stands."""
        game = f"Game {self.number}, {self.game.label}"
        if self.waiting:
            taken = next(side for side in Side if self.holders[side] is not None)
            return (
                f"{game}: {self.holders[taken]} holds {names[taken]}’s seat, "
                f"waiting for {names[taken.other]} to take theirs."
            )
        players = " vs ".join(f"{self.holders[s] or 'a student'} ({names[s]})" for s in Side)
        if self.playing:
            return f"{game}: being played now, {players}."
        if self.over:
            winner = self.winner()
            what = "a tie" if winner is None else f"{names[winner]} won"
            return f"{game}: over, {what} ({players})."
        return f"{game}: closed."

    def projector_sentence(self, names: dict[Side, str]) -> str:
        """What the projector says of it: team names only, no student's name (P-K10)."""
        game = f"Game {self.number}, {self.game.label}"
        if self.waiting:
            taken = next(side for side in Side if self.holders[side] is not None)
            return f"{game}: {names[taken]} is ready, waiting for {names[taken.other]}."
        if self.playing:
            return f"{game}: being played now."
        winner = self.winner()
        return f"{game}: over, {'a tie' if winner is None else names[winner] + ' won'}."


def live_games(match_ids: list[int]) -> list[LiveGame]:
    """The live games of these matches, in match and game order."""
    tables = tables_of(match_ids)
    if not tables:
        return []
    rows = db.session.execute(
        select(LiveSeat.table_id, LiveSeat.seat, LiveSeat.result, User.username, User.id)
        .outerjoin(User, User.id == LiveSeat.user_id)
        .where(LiveSeat.table_id.in_([t.id for t in tables]))
    ).all()
    holders: dict[int, dict[Side, str | None]] = {}
    holder_ids: dict[int, dict[Side, int | None]] = {}
    results: dict[int, dict[Side, str | None]] = {}
    for table_id, seat, result, username, user_id in rows:
        side = Side.A if seat == 0 else Side.B
        holders.setdefault(table_id, {s: None for s in Side})[side] = username
        holder_ids.setdefault(table_id, {s: None for s in Side})[side] = user_id
        results.setdefault(table_id, {s: None for s in Side})[side] = result
    games = []
    for table in tables:
        assert table.tournament_match_id is not None and table.match_game is not None
        games.append(
            LiveGame(
                table.tournament_match_id,
                table.match_game,
                ComboGame(table.game),
                table.code,
                table.status,
                holders.get(table.id, {s: None for s in Side}),
                holder_ids.get(table.id, {s: None for s in Side}),
                results.get(table.id, {s: None for s in Side}),
                table.version,
            )
        )
    return games


def in_play(match_id: int, number: int) -> LiveTable | None:
    """The match's game ``number`` when it is under way on the devices now."""
    return (
        db.session.execute(
            select(LiveTable).where(
                LiveTable.tournament_match_id == match_id,
                LiveTable.match_game == number,
                LiveTable.status == live_routes.STATUS_PLAYING,
            )
        )
        .scalars()
        .first()
    )


def close_waiting(match_id: int, number: int | None, now: dt.datetime) -> list[tuple[int, str]]:
    """Close the table of the match's game ``number`` (None: any game) if it still waits for a
    team: the game was recorded by hand, or the match finished (by the teams or the teacher's typed
    result), meanwhile (P-K9). In the caller's unit; returns the (id, code) of each table closed,
    to announce once committed (:func:`announce`)."""
    query = select(LiveTable.id, LiveTable.code).where(
        LiveTable.tournament_match_id == match_id,
        LiveTable.status == live_routes.STATUS_WAITING,
    )
    if number is not None:
        query = query.where(LiveTable.match_game == number)
    return _close(query, now)


def close_waiting_in(tournament_id: int, now: dt.datetime) -> list[tuple[int, str]]:
    """Close every table of the tournament's matches still waiting for a team: the round moved on
    or the tournament ended, so no game of those matches is due any more (P-K9). In the caller's
    unit; returns what to :func:`announce` once committed."""
    query = select(LiveTable.id, LiveTable.code).where(
        LiveTable.tournament_match_id.in_(
            select(TournamentMatch.id).where(TournamentMatch.tournament_id == tournament_id)
        ),
        LiveTable.status == live_routes.STATUS_WAITING,
    )
    return _close(query, now)


def _close(query: Select[int, str], now: dt.datetime) -> list[tuple[int, str]]:
    """Close the waiting tables ``query`` finds, each by one conditional write (still waiting)."""
    found = db.session.execute(query).all()
    for table_id, _code in found:
        db.session.execute(
            update(LiveTable)
            .where(LiveTable.id == table_id, LiveTable.status == live_routes.STATUS_WAITING)
            .values(
                status=live_routes.STATUS_CLOSED,
                version=LiveTable.version + 1,
                updated_at=now,
                finished_at=now,
            )
            .execution_options(synchronize_session=False)
        )
    return [(table_id, code) for table_id, code in found]


@bp.app_template_global()
def tournament_table_closed_why(table: LiveTable) -> str:
    """Why a match's table closed before its second team came (P-K9), for the holder's page."""
    not_here = "before the other team took its seat, so it will not be played here"
    if table.finished_at is not None and table.finished_at - table.updated_at >= live.QUIET_FOR:
        return (
            "Nobody came to this table for a day, so it was given up. To play the game on "
            "your devices, open it again from the match page."
        )
    match = (
        None
        if table.tournament_match_id is None
        else db.session.get(TournamentMatch, table.tournament_match_id)
    )
    if match is None:
        return f"This game of the match was closed {not_here}: see the match page."
    recorded = db.session.execute(
        select(TournamentGame.id).where(
            TournamentGame.match_id == match.id, TournamentGame.number == table.match_game
        )
    ).first()
    if recorded is not None:
        return f"This game of the match was recorded on the match page {not_here}."
    if match.entered_at is not None and match.entered_by == EnteredBy.APP:
        return f"The match was finished on the match page {not_here}."
    if match.entered_at is not None:
        return f"Your teacher entered the match’s result {not_here}."
    # Closed by a result since taken back by the teacher: the game is due again.
    return f"This game of the match was closed {not_here}: see the match page."


def announce(tables: list[tuple[int, str]]) -> None:
    """Tell the pages at these tables, and their matches' round page and match pages (P-K10),
    that they changed (after the commit)."""
    matches: set[int] = set()
    for table_id, code in tables:
        version, match_id = db.session.execute(
            select(LiveTable.version, LiveTable.tournament_match_id).where(LiveTable.id == table_id)
        ).one()
        sockets.announce(table_id, code, version)
        if match_id is not None:
            matches.add(match_id)
    for match_id in sorted(matches):
        sockets.announce_match(match_id)


def students_wait_for(match: TournamentMatch, play: MatchPlay) -> str | None:
    """Why a student may not record a game or finish the match now: its game due is played on the
    devices, and the app records it (P-K9). None otherwise (the teacher's word always goes)."""
    table = in_play(match.id, len(play.games) + 1)
    if table is None:
        return None
    return (
        f"Game {table.match_game} is being played on your devices: the app records it when it "
        "ends. Nothing was changed."
    )


@dataclass(frozen=True)
class MatchLive:
    """What the match page shows of its live games (P-K8)."""

    #: Every game of the match played at a live table, by its number.
    by_number: dict[int, LiveGame]
    #: The game due's table, while it waits or is played.
    current: LiveGame | None
    #: "Play it on our own devices" for the game due (a student's page, none at the table yet).
    form: LiveGameForm | None
    #: Whether the viewer holds their team's seat at the game due's table.
    seated: bool
    #: The match's version while its game due is played on the devices (the page asks for it
    #: again, P-K10); None otherwise.
    version: str | None = None


def match_part(match: TournamentMatch, viewer: Viewer, upcoming: Upcoming | None) -> MatchLive:
    """The match page's part about the games played on the devices (P-K8)."""
    games = live_games([match.id])
    by_number = {g.number: g for g in games}
    current = None
    number = upcoming.number if upcoming is not None else None
    if number is not None and number in by_number:
        found = by_number[number]
        current = found if found.waiting or found.playing else None
    seated = False
    if current is not None and viewer.side is not None:
        seated = current.holder_ids[viewer.side] == viewer.user.id
    form = None
    if upcoming is not None and viewer.side is not None and not seated:
        form = live_form(upcoming.number, upcoming.game)
    version = match_version(match) if current is not None else None
    return MatchLive(by_number, current, form, seated, version)


# --- taking a team's seat --------------------------------------------------------------------


@dataclass(frozen=True)
class Seated:
    """Where the student goes: the table's code, and what the match page is told."""

    code: str | None
    message: str


def take_seat(
    tournament: Tournament,
    match: TournamentMatch,
    viewer: Viewer,
    number: int | None,
    game: ComboGame | None,
    now: dt.datetime,
) -> Seated:
    """The student's team plays game ``number`` (``game``), the game due, on its own devices
    (P-K8): the first student of the team to ask takes the team's seat at the game's table (the
    table is opened by the first team to ask); once both teams sit, the game is dealt.

    Raises:
        Refused: the teacher asked (the teams play), or the picks are not made yet.
        Stale: the match is closed, a game or a finish waits for an answer, or ``number`` is not
            the game due (recorded already, or never shown).
    """
    if viewer.side is None:
        raise Refused(NOT_A_TEACHER)
    tables_of([match.id])  # a table quiet for a day is given up first (L-T13), before the claim
    stale = "That game was already recorded, or it is not the game due now (the page was out of date). Nothing was changed."
    reason = _closed(tournament, match)
    if reason is not None:
        raise _stale(reason)
    _claim(tournament, match)
    play = _play(tournament, match, now)
    names = _names(Board(tournament), match)
    if play.picks_due:
        raise Refused("Draw the cards and pick the two games first.")
    waiting = _blocked(play, names)
    if waiting is not None:
        raise _stale(waiting)
    due = play.upcoming
    if due is None or (due.number, due.game) != (number, game):
        raise _stale(stale)
    seat, user = seat_of(viewer.side), viewer.user
    table = db.session.execute(
        select(LiveTable).where(
            LiveTable.tournament_match_id == match.id, LiveTable.match_game == due.number
        )
    ).scalar_one_or_none()
    if table is not None and table.status in (live_routes.STATUS_OVER, live_routes.STATUS_CLOSED):
        # Its result was taken back by the teacher (or never recorded): the game is played again,
        # at a new table; the old one stays an ordinary finished table.
        db.session.execute(
            update(LiveTable)
            .where(LiveTable.id == table.id)
            .values(tournament_match_id=None, match_game=None)
        )
        table = None
    if table is None:
        first = due.start.first
        table = LiveTable(
            code=_new_code(),
            host_id=user.id,
            game=due.game.value,
            players=2,
            team_size=1,
            level=LEVEL,
            status=live_routes.STATUS_WAITING,
            actions=[],
            covered=[],
            ply=0,
            version=0,
            turn_seconds=None,
            tournament_match_id=match.id,
            match_game=due.number,
            first_leader=None if first is None else seat_of(first),
        )
        db.session.add(table)
        db.session.flush()
        for index in (0, 1):
            db.session.add(
                LiveSeat(
                    table_id=table.id,
                    seat=index,
                    user_id=user.id if index == seat else None,
                    drill=index == seat and due.game in DRILLED,
                )
            )
        db.session.commit()
        sockets.announce_match(match.id, tournament.id)
        return Seated(
            table.code,
            f"You hold {names[viewer.side]}’s seat for game {due.number}, {due.game.label}. "
            f"It starts when a student of {names[viewer.side.other]} takes theirs.",
        )
    seats = _seats(table.id)
    holder = seats[seat].user_id
    if holder == user.id:
        db.session.commit()
        if table.status == live_routes.STATUS_WAITING and all(s.user_id for s in seats):
            _start(table.id)  # both teams sat but the deal did not happen: deal it now
        return Seated(table.code, f"Back at game {due.number}, {due.game.label}.")
    if holder is not None:
        who = db.session.get(User, holder)
        db.session.commit()
        name = who.username if who is not None else "a teammate"
        return Seated(
            None,
            f"{name} holds {names[viewer.side]}’s seat for game {due.number}: play along at their "
            "device. This page shows the result when the game ends.",
        )
    # The team's seat is free: the table waits for this team (P-K8).
    version = table.version
    changed = changed_rows(
        update(LiveTable)
        .where(
            LiveTable.id == table.id,
            LiveTable.version == version,
            LiveTable.status == live_routes.STATUS_WAITING,
        )
        .values(version=version + 1, updated_at=now)
    )
    if changed != 1:
        raise _stale(stale)
    db.session.execute(
        update(LiveSeat)
        .where(LiveSeat.table_id == table.id, LiveSeat.seat == seat, LiveSeat.user_id.is_(None))
        .values(user_id=user.id, drill=due.game in DRILLED)
    )
    db.session.commit()
    code, table_id = table.code, table.id
    sockets.announce_match(match.id, tournament.id)
    _start(table_id)
    return Seated(code, f"Game {due.number}, {due.game.label}: both teams are here. Go!")


class LiveGameForm(FlaskForm):
    """ "Play it on our own devices": the game due, as the page showed it (its number and slug)."""

    number = HiddenField()
    game = HiddenField()

    def due(self) -> tuple[int | None, ComboGame | None]:
        """The game the form names; (None, None) for an odd form (a page out of date)."""
        try:
            return whole_number(self.number.data), ComboGame(self.game.data)
        except ValueError:
            return None, None


def live_form(number: int, game: ComboGame) -> LiveGameForm:
    form = LiveGameForm(prefix="live", formdata=None)
    form.number.data, form.game.data = str(number), game.value
    return form


def _seats(table_id: int) -> tuple[Seat, ...]:
    """The table's seats, in order (as the table's own routes read them)."""
    rows = db.session.execute(
        select(LiveSeat).where(LiveSeat.table_id == table_id).order_by(LiveSeat.seat)
    ).scalars()
    return tuple(Seat(row.seat, row.user_id, row.computer) for row in rows)


def _new_code() -> str:
    rng = random.SystemRandom()
    while True:
        code = live.new_code(rng)
        taken = db.session.execute(select(LiveTable.id).where(LiveTable.code == code)).first()
        if taken is None:
            return code


def _start(table_id: int) -> None:
    """Deal the table's game now that both teams sit (L-R1, L-D1, L-Q2, L-T3 for two students),
    as the host's start does: one conditional write on the table's version."""
    table = db.session.get(LiveTable, table_id)
    assert table is not None
    seats: tuple[Seat, ...] = _seats(table.id)
    deal = DUELS[table.game].start if is_duel(table.game) else live_routes.start_table
    try:
        deal(table, seats, table.version, utcnow())
    except TableError as refused:  # an account deleted this instant: the table keeps waiting
        db.session.rollback()
        flash(str(refused), "error")


@bp.post("/<int:tournament_id>/matches/<int:match_id>/live")
@login_required
def match_on_devices(tournament_id: int, match_id: int) -> Response:
    """Play the game due on our own devices (P-K8): take the team's seat at its live table."""
    tournament, match, viewer = _load(tournament_id, match_id)
    here = _here(tournament, match)
    form = LiveGameForm(prefix="live")
    try:
        seated = take_seat(tournament, match, viewer, *form.due(), utcnow())
    except (Stale, Refused) as refusal:
        return nothing_changed(str(refusal), here, "error")
    flash(seated.message, "success" if seated.code else "info")
    if seated.code is None:
        return redirect(here)
    return redirect(url_for("live.table", code=seated.code))


# --- the end: the result recorded into the match (P-K9) --------------------------------------


def record_end(table_id: int) -> None:
    """In the unit of a change a table kept: when that change ended a match's game, record its
    result into the match as the app's word (it stands, P-K9), once.

    Nothing is recorded (and the table's end is kept) when the match is closed, or the game is no
    longer the one due (the teacher recorded it meanwhile): the game's row is unique per (match,
    number), and a second end never happens (the end is one conditional write on the table).
    """
    row = db.session.execute(
        select(
            LiveTable.status,
            LiveTable.tournament_match_id,
            LiveTable.match_game,
            LiveTable.game,
            LiveTable.finished_at,
        ).where(LiveTable.id == table_id)
    ).one_or_none()
    if row is None or row.tournament_match_id is None or row.status != live_routes.STATUS_OVER:
        return
    match = db.session.get(TournamentMatch, row.tournament_match_id)
    tournament = None if match is None else db.session.get(Tournament, match.tournament_id)
    if match is None or tournament is None or match.b_team_id is None:
        return
    # Lock the tournament's row as every change to a match does (``teach.tournaments.claim``),
    # without giving up the unit: what follows reads what is stored.
    changed_rows(
        update(Tournament)
        .where(Tournament.id == tournament.id)
        .values(stage=Tournament.stage)
        .execution_options(synchronize_session=False)
    )
    db.session.refresh(tournament)
    db.session.refresh(match)
    if _closed(tournament, match) is not None:
        return
    recorded = db.session.execute(
        select(TournamentGame.id).where(
            TournamentGame.match_id == match.id, TournamentGame.number == row.match_game
        )
    ).first()
    if recorded is not None:
        return
    now = row.finished_at or utcnow()
    due = _play(tournament, match, now).upcoming
    if due is None or (due.number, due.game.value) != (row.match_game, row.game):
        return
    results = dict(
        db.session.execute(
            select(LiveSeat.seat, LiveSeat.result).where(LiveSeat.table_id == table_id)
        ).all()
    )
    if results.get(0) is None and results.get(1) is None:
        return  # ended with no result (a student left, L-T12; quiet for a day, L-T13): still due
    winner = (
        match.a_team_id
        if results.get(0) == "won"
        else match.b_team_id
        if results.get(1) == "won"
        else None
    )
    db.session.add(
        TournamentGame(
            tournament_id=tournament.id,
            stage=GameStage.MATCH,
            match_id=match.id,
            number=due.number,
            game=due.game.value,
            a_team_id=match.a_team_id,
            b_team_id=match.b_team_id,
            winner_id=winner,
            # The app's word: nobody entered it, and it stands at once (P-K9).
            entered_at=now,
            entered_by_id=None,
            entered_team_id=None,
            confirmed_at=now,
            confirmed_by_id=None,
        )
    )
    db.session.flush()


live_routes.AFTER_CHANGE.append(record_end)


# --- the teacher's round page (P-K10) --------------------------------------------------------


def round_live(tournament: Tournament) -> dict[str, object]:
    """The live games of the round under way, for the teacher's round page, and a version that
    changes whenever one of them (or a game of the round's matches) does."""
    board = Board(tournament)
    matches = [m for m in board.current if m.b_team_id is not None] if tournament.round else []
    ids = [m.id for m in matches]
    games = live_games(ids)
    recorded = (
        db.session.execute(
            select(
                TournamentGame.match_id,
                TournamentGame.number,
                TournamentGame.winner_id,
                TournamentGame.entered_by_id,
            ).where(TournamentGame.match_id.in_(ids), TournamentGame.stage == GameStage.MATCH)
        ).all()
        if ids
        else []
    )
    by_app = {(m, n) for m, n, _w, by in recorded if by is None}
    entered = [(m.id, m.entered_at is not None) for m in matches]
    key = repr(
        (
            tournament.round,
            [g.shown() for g in games],
            sorted(map(tuple, recorded)),
            entered,
        )
    )
    by_match = {m.id: m for m in matches}
    # The projector shows each match's latest game on the devices, in team names only (P-K10).
    latest: dict[int, LiveGame] = {}
    for g in games:
        if g.match_id in by_match and g.status != live_routes.STATUS_CLOSED:
            latest[g.match_id] = g
    projected = []
    for match_id, g in latest.items():
        names = _names(board, by_match[match_id])
        projected.append(
            {
                "game": g,
                "teams": (names[Side.A], names[Side.B]),
                "sentence": g.projector_sentence(names),
            }
        )
    shown = []
    for g in games:
        if g.match_id not in by_match:
            continue
        names = _names(board, by_match[g.match_id])
        shown.append(
            {
                "game": g,
                "match": f"{names[Side.A]} vs {names[Side.B]}",
                "sentence": g.sentence(names),
                "recorded": (g.match_id, g.number) in by_app,
            }
        )
    return {
        "tournament": tournament,
        "live_shown": shown,
        "live_projected": projected,
        "live_version": hashlib.sha1(key.encode()).hexdigest()[:16],
    }


@bp.app_template_global()
def tournament_round_live(tournament: Tournament) -> dict[str, object]:
    """For the teacher's round page: its live games (``round_live``)."""
    return round_live(tournament)


def _owned(tournament_id: int) -> Tournament | None:
    """The tournament, if the signed-in teacher owns its class (the round page's rule)."""
    tournament = db.session.get(Tournament, tournament_id)
    if tournament is None or not current_user.is_teacher:
        return None
    owned = db.session.execute(
        select(SchoolClass.id).where(
            SchoolClass.id == tournament.class_id, SchoolClass.teacher_id == current_user.id
        )
    ).first()
    return None if owned is None else tournament


@bp.get("/<int:tournament_id>/live")
@teacher_required
def round_live_part(tournament_id: int) -> str:
    """The round's live games as the teacher's round page (or, with ``?view=projector``, the
    projector) shows them: the page asks for this when told over the socket, and every few seconds
    while the socket is down, and puts it in place when its version changed (P-K10)."""
    tournament = _owned(tournament_id)
    if tournament is None:
        abort(404)
    projector = request.args.get("view") == "projector"
    template = "_projector_live.html" if projector else "_round_live.html"
    return render_template(f"tournament_play/{template}", **round_live(tournament))


def match_version(match: TournamentMatch) -> str:
    """What changes whenever the match's live games or its recorded games do (P-K10)."""
    games = live_games([match.id])
    recorded = db.session.execute(
        select(TournamentGame.number, TournamentGame.winner_id, TournamentGame.confirmed_at).where(
            TournamentGame.match_id == match.id
        )
    ).all()
    key = repr(
        (
            [g.shown() for g in games],
            sorted(map(repr, recorded)),
            match.entered_at,
        )
    )
    return hashlib.sha1(key.encode()).hexdigest()[:16]


def watched_version(tournament_id: int, match_id: int | None) -> str | None:
    """The version of the part a page follows over the socket (P-K10), if the signed-in user may
    see it: the round's live games (``match_id`` None) for the teacher who owns the tournament, the
    match's version for whoever may open the match's page (that teacher, or a student of one of
    its two teams, as :func:`.routes._load` decides). None for anyone else."""
    if match_id is None:
        tournament = _owned(tournament_id)
        return None if tournament is None else str(round_live(tournament)["live_version"])
    try:
        _tournament, match, _viewer = _load(tournament_id, match_id)
    except HTTPException:  # not found for this user
        return None
    return match_version(match)


@bp.get("/<int:tournament_id>/matches/<int:match_id>/live")
@login_required
def match_live_part(tournament_id: int, match_id: int) -> str:
    """The match's version, for its page to ask every few seconds: when a live game changes or a
    game is recorded, the page loads itself again (P-K10)."""
    tournament, match, _viewer = _load(tournament_id, match_id)
    return render_template(
        "tournament_play/_match_live.html",
        tournament=tournament,
        match=match,
        live_version=match_version(match),
    )
