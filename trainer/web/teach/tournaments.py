"""Combo 1 class tournaments: teams of a class, eight rounds, playoffs and the championship (K1-K4).

A teacher runs the tournament from one page and shows another on the projector. The rules are
all :mod:`trainer.games.tournament`'s and :mod:`trainer.games.combo`'s (rulings P-K1 to P-K5); this
module stores what happened and asks them what comes next. The state is all in the database: the
rounds' matches (a bye is a match without team B, a win from the start) and the single games of
the playoffs and the championship. Standings, pairings, the game due and the champion are worked
out from those rows on every request, so a refresh or a second device sees the same tournament.

Every change first claims the tournament's row with an UPDATE that matches only the stage and
round the request read (a row lock on PostgreSQL, the write lock on SQLite), then reads the state
again and checks the form against it. A form sent twice, from two tabs or two devices, finds the
tournament moved on and changes nothing; each form also names what it was for (the round, the
game number and teams, the result to undo), so an old page cannot act on a newer state.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
from types import ModuleType

from flask import abort, flash, redirect, render_template, url_for
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from trainer.games.combo import ComboGame, GameResult, Side
from trainer.games.tournament import (
    MIN_STUDENTS,
    ROUNDS,
    EnteredBy,
    GameStage,
    MatchOutcome,
    PlayoffResult,
    Qualification,
    Stage,
    pair_round,
    random_teams,
    team_sizes,
)
from trainer.games.tournament_board import (
    CHAMPIONSHIP_GAMES,
    DueGame,
    RoundMatch,
    StageGame,
    StandingsRow,
    Team,
    TournamentBoard,
    TournamentState,
    is_morning,
    round_minutes,
    round_seconds_left,
)

from ..extensions import changed_rows, db
from ..guards import whole_number
from ..models import (
    SchoolClass,
    Tournament,
    TournamentGame,
    TournamentMatch,
    TournamentMember,
    TournamentTeam,
    User,
    utcnow,
)
from ..security import teacher_required
from ..tournament_play.forms import BACK_TO_ROUND, MatchAnswerForm, answer_form, confirm_form
from ..tournament_play.scoring import MatchPlay
from .forms import (
    MatchResultForm,
    TournamentGameForm,
    TournamentStepForm,
    new_tournament_form,
)
from .names import display_names, shown_name
from .routes import _user, bp, own_class, students_of

TIE = "tie"


# --- The tournament as it stands -------------------------------------------------------------------

#: A line of the standings (the core's :class:`~trainer.games.tournament_board.StandingsRow`).
Row = StandingsRow


def _match_record(match: TournamentMatch) -> RoundMatch:
    """A round's match row as the core's record."""
    return RoundMatch(
        id=match.id,
        round=match.round,
        a=match.a_team_id,
        b=match.b_team_id,
        winner=match.winner_id,
        entered_at=match.entered_at,
        a_games=match.a_games,
        b_games=match.b_games,
        tied_games=match.tied_games,
    )


def _game_record(game: TournamentGame) -> StageGame:
    """A playoff or championship game row as the core's record."""
    return StageGame(
        stage=GameStage(game.stage),
        number=game.number,
        game=ComboGame(game.game),
        a=game.a_team_id,
        b=game.b_team_id,
        winner=game.winner_id,
    )


class Board:
    """A tournament and everything stored about it, read fresh from the database.

    The rows are loaded here; what follows from them (standings, the game due, the champion, what
    may be undone, the sentences) is the core's :class:`TournamentBoard`, built from copies of
    the rows when the board is read. Matches and games are handed back as rows.
    """

    def __init__(self, tournament: Tournament, *, for_teacher: bool = False):
        """``for_teacher``: the class's teacher's pages, which name the players with the real
        names the teacher gave them (issue 24). Never for a student's page."""
        self.tournament = tournament
        tid = tournament.id
        self.klass = db.session.get(SchoolClass, tournament.class_id)
        real_names = display_names(tournament.class_id) if for_teacher else {}
        teams = (
            db.session.execute(
                select(TournamentTeam)
                .where(TournamentTeam.tournament_id == tid)
                .order_by(TournamentTeam.number)
            )
            .scalars()
            .all()
        )
        members: dict[int, list[str]] = {team.id: [] for team in teams}
        #: The players' usernames by user id: who entered and confirmed a game in the app (P-K6).
        self.usernames: dict[int, str] = {}
        for team_id, user_id, username in db.session.execute(
            select(TournamentMember.team_id, User.id, User.username)
            .join(User, User.id == TournamentMember.student_id)
            .where(TournamentMember.tournament_id == tid)
            .order_by(User.username_key)
        ):
            shown = shown_name(username, real_names.get(user_id))
            members[team_id].append(shown)
            self.usernames[user_id] = shown
        self.matches = list(
            db.session.execute(
                select(TournamentMatch)
                .where(TournamentMatch.tournament_id == tid)
                .order_by(TournamentMatch.round, TournamentMatch.id)
            ).scalars()
        )
        games = (
            db.session.execute(
                select(TournamentGame)
                .where(TournamentGame.tournament_id == tid)
                .order_by(TournamentGame.number)
            )
            .scalars()
            .all()
        )
        self.playoff_games = [g for g in games if g.stage == GameStage.PLAYOFF]
        self.championship_games = [g for g in games if g.stage == GameStage.CHAMPIONSHIP]
        #: The games of round matches scored in the app (P-K6), by match.
        self.match_games: dict[int, list[TournamentGame]] = {}
        for g in games:
            if g.stage == GameStage.MATCH and g.match_id is not None:
                self.match_games.setdefault(g.match_id, []).append(g)
        #: The stage logic, over copies of the rows.
        self.core = TournamentBoard(
            TournamentState(
                Stage(tournament.stage),
                tournament.round,
                tournament.seed,
                tournament.clock_started_at,
            ),
            [Team(t.id, t.number, t.name, tuple(members[t.id])) for t in teams],
            [_match_record(m) for m in self.matches],
            [_game_record(g) for g in self.playoff_games + self.championship_games],
        )
        self.teams = self.core.teams
        self.team = self.core.team
        self._match_rows = {m.id: m for m in self.matches}

    def _rows(self, matches: list[RoundMatch]) -> list[TournamentMatch]:
        return [self._match_rows[m.id] for m in matches]

    # The teams.

    @property
    def team_ids(self) -> list[int]:
        return self.core.team_ids

    def name(self, team_id: int | None) -> str:
        return self.core.name(team_id)

    def side_names(self, match: TournamentMatch) -> dict[Side, str]:
        """The names of a match's two teams, by side."""
        return {Side.A: self.name(match.a_team_id), Side.B: self.name(match.b_team_id)}

    def who(self, user_id: int | None) -> str:
        """Who entered or confirmed something in the app: a player's username, "the teacher", or ""
        when it was not recorded (a game from before P-K6 said so)."""
        if user_id is None:
            return ""
        if self.klass is not None and user_id == self.klass.teacher_id:
            return "the teacher"
        return self.usernames.get(user_id, "a student no longer in the tournament")

    def names(self, team_ids: tuple[int, ...] | list[int]) -> str:
        """ "Team 1", "Team 1 and Team 2", "Team 1, Team 2 and Team 3"."""
        return self.core.names(team_ids)

    def wins_of(self, team_id: int) -> int:
        return self.core.wins_of(team_id)

    # The rounds.

    def round_matches(self, number: int) -> list[TournamentMatch]:
        return self._rows(self.core.round_matches(number))

    @property
    def current(self) -> list[TournamentMatch]:
        """The matches of the round under way (or last paired)."""
        return self._rows(self.core.current)

    def complete(self, number: int) -> bool:
        return self.core.complete(number)

    @property
    def missing(self) -> list[TournamentMatch]:
        """The current round's matches still without a result."""
        return self._rows(self.core.missing)

    @property
    def last_complete_round(self) -> int:
        return self.core.last_complete_round

    @property
    def rounds_done(self) -> bool:
        return self.core.rounds_done

    def outcomes(self, through: int | None = None) -> list[MatchOutcome]:
        """The entered results (byes included) of rounds 1 to ``through`` (default: all)."""
        return self.core.outcomes(through)

    def standings(self) -> list[Row]:
        """The standings after the last complete round: match wins first, byes counted (K3)."""
        return self.core.standings()

    def play(self, match: TournamentMatch) -> MatchPlay:
        """The match as scored in the app (P-K6): its recorded games and the score of those that count."""
        return MatchPlay(self.tournament, match, self.match_games.get(match.id, []), utcnow())

    def describe_match(self, match: TournamentMatch) -> str:
        """The match's sentence, from the row as it is now (it may have changed since the board
        was read)."""
        return self.core.describe_match(_match_record(match))

    # The playoffs and the championship.

    @property
    def qualification(self) -> Qualification | None:
        """Who is through and who plays off (K4), once every round's result is in."""
        return self.core.qualification

    @property
    def playoff_results(self) -> list[PlayoffResult]:
        return self.core.playoff_results

    @property
    def finals(self) -> tuple[int, int] | None:
        """The two finalists, side A first, once the playoffs (if any) are over (K4, P-K1)."""
        return self.core.finals

    @property
    def championship_results(self) -> list[GameResult]:
        return self.core.championship_results

    @property
    def champion_id(self) -> int | None:
        return self.core.champion_id

    @property
    def score(self) -> tuple[int, int, int]:
        """Championship games won by side A, by side B, and tied."""
        return self.core.score

    @property
    def due(self) -> DueGame | None:
        """The playoff or championship game to play next, if the stage has one."""
        return self.core.due

    def describe_game(self, game: TournamentGame) -> str:
        return self.core.describe_game(_game_record(game))

    @property
    def undoable(self) -> tuple[str, str] | None:
        """The last result entered that may still be taken back: its key and what it was."""
        return self.core.undoable


def seconds_left(tournament: Tournament, now: dt.datetime) -> float | None:
    """Seconds left on the round clock (may be 0 or less), or None before it starts (K2)."""
    return round_seconds_left(
        Stage(tournament.stage), tournament.round, tournament.clock_started_at, now
    )


# --- Loading and claiming ----------------------------------------------------------------------------


def _live_games() -> ModuleType:
    """``tournament_play.live_games``, which closes a match's table still waiting for a team (P-K9).
    Imported when used: it builds on this module's :class:`Board`."""
    from ..tournament_play import live_games

    return live_games


def _own_tournament(tournament_id: int) -> Tournament:
    """The current teacher's tournament; anyone else's is not found."""
    tournament = db.session.execute(
        select(Tournament)
        .join(SchoolClass, SchoolClass.id == Tournament.class_id)
        .where(Tournament.id == tournament_id, SchoolClass.teacher_id == _user().id)
    ).scalar_one_or_none()
    if tournament is None:
        abort(404)
    return tournament


def claim(tournament: Tournament) -> bool:
    """Lock the tournament's row if it is still at the stage and round read; False (and nothing
    changed) when another request moved it on first. Everything is read again afterwards."""
    changed = changed_rows(
        update(Tournament)
        .where(
            Tournament.id == tournament.id,
            Tournament.stage == tournament.stage,
            Tournament.round == tournament.round,
        )
        .values(stage=Tournament.stage)
        .execution_options(synchronize_session=False)
    )
    if changed != 1:
        db.session.rollback()
        return False
    db.session.expire_all()
    return True


def _page(tournament: Tournament) -> Response:
    return redirect(url_for("teach.tournament_page", tournament_id=tournament.id))


def _refuse(tournament: Tournament, message: str) -> Response:
    db.session.rollback()
    flash(message, "error")
    return _page(tournament)


def _over(tournament: Tournament) -> Response:
    return _refuse(tournament, "The tournament is over: nothing can change now.")


def _round_rng(tournament: Tournament, number: int) -> random.Random:
    """The seeded generator of one round's pairings (G9): the same for a retry or a replay."""
    return random.Random(f"{tournament.seed}/round/{number}")


@bp.app_template_global()
def class_tournaments(class_id: int) -> list[Tournament]:
    """The current teacher's tournaments of the class, newest first (for the class page)."""
    return list(
        db.session.execute(
            select(Tournament)
            .join(SchoolClass, SchoolClass.id == Tournament.class_id)
            .where(Tournament.class_id == class_id, SchoolClass.teacher_id == _user().id)
            .order_by(Tournament.created_at.desc(), Tournament.id.desc())
        ).scalars()
    )


# --- Forms of the control page -----------------------------------------------------------------------


def _result_form(board: Board, match: TournamentMatch, bound: bool) -> MatchResultForm:
    form = MatchResultForm(prefix=f"m{match.id}", **({} if bound else {"formdata": None}))
    form.a_games.label.text = f"Games won by {board.name(match.a_team_id)}"
    form.b_games.label.text = f"Games won by {board.name(match.b_team_id)}"
    return form


def _game_form(board: Board, due: DueGame | None, bound: bool) -> TournamentGameForm:
    form = TournamentGameForm(prefix="game", **({} if bound else {"formdata": None}))
    if due is not None:
        if not bound:
            form.number.data, form.a_team.data, form.b_team.data = (
                str(due.number),
                str(due.a),
                str(due.b),
            )
        replayed = due.stage == GameStage.PLAYOFF or due.number > CHAMPIONSHIP_GAMES
        form.winner.label.text = f"Who won {due.title.lower()} ({due.game.label}), {board.name(due.a)} vs {board.name(due.b)}?"
        form.winner.choices = [
            (str(due.a), f"{board.name(due.a)} won"),
            (str(due.b), f"{board.name(due.b)} won"),
            (TIE, "A tie (the game is played again)" if replayed else "A tie"),
        ]
    return form


def _step_form(prefix: str, expected: object) -> TournamentStepForm:
    form = TournamentStepForm(prefix=prefix, formdata=None)
    form.expected.data = str(expected)
    return form


def _render_control(
    board: Board,
    failed: tuple[int, MatchResultForm] | None = None,
    game_form: TournamentGameForm | None = None,
    status: int = 200,
) -> tuple[str, int]:
    tournament = board.tournament
    result_forms = {
        m.id: _result_form(board, m, bound=False)
        for m in board.current
        if m.b_team_id is not None and m.entered_at is None
    }
    if failed is not None:
        result_forms[failed[0]] = failed[1]
    undo = board.undoable
    answers = _answer_forms(board)
    html = render_template(
        "teach/tournament.html",
        **_context(board),
        result_forms=result_forms,
        answers=answers,
        failed_match=None if failed is None else failed[0],
        game_form=game_form or _game_form(board, board.due, bound=False),
        clock_form=_step_form("clock", tournament.round),
        advance_form=_step_form("advance", tournament.round),
        undo=undo,
        undo_form=_step_form("undo", undo[0]) if undo else None,
    )
    return html, status


def _answer_forms(board: Board) -> dict[int, tuple[MatchAnswerForm | None, MatchAnswerForm | None]]:
    """The teacher's answers to what waits in the current round's matches scored in the app
    (P-K6): for each such match, the form for its pending game and the one for a finish asked."""
    answers = {}
    for match in board.current:
        if match.b_team_id is None or match.entered_at is not None:
            continue
        play = board.play(match)
        if play.needs_teacher:
            answers[match.id] = (
                confirm_form(play, BACK_TO_ROUND),
                answer_form(play, BACK_TO_ROUND),
            )
    return answers


def _context(board: Board) -> dict[str, object]:
    tournament = board.tournament
    now = utcnow()
    number = tournament.round
    return {
        "board": board,
        "tournament": tournament,
        "klass": board.klass,
        "ROUNDS": ROUNDS,
        "round_minutes": round_minutes(number) if number else None,
        "morning": is_morning(number) if number else None,
        "seconds_left": seconds_left(tournament, now),
        "rounds": [(n, is_morning(n), board.round_matches(n)) for n in range(number, 0, -1)],
    }


# --- Views ---------------------------------------------------------------------------------------------


@bp.route("/classes/<int:class_id>/tournaments/new", methods=["GET", "POST"])
@teacher_required
def tournament_new(class_id: int) -> str | Response | tuple[str, int]:
    """A new Combo 1 tournament for the class: its name and its teams (P-K4). Round 1 is paired
    later, from the control page."""
    klass = own_class(class_id)
    students = students_of(klass)
    enough = len(students) >= MIN_STUDENTS
    teams = len(team_sizes(len(students))) if enough else 0
    form = new_tournament_form(
        [(s.id, shown_name(s.username, s.display_name)) for s in students], teams
    )
    if enough and form.validate_on_submit():
        seed = secrets.randbits(62)
        if form.teams.data == "manual":
            numbered = list(form.chosen.items())
        else:
            numbered = list(
                enumerate(random_teams([s.id for s in students], random.Random(seed)), start=1)
            )
        tournament = Tournament(
            class_id=klass.id,
            name=" ".join(form.name.data.split()),
            seed=seed,
            round=0,
            stage=Stage.ROUNDS,
        )
        db.session.add(tournament)
        db.session.flush()
        for number, student_ids in numbered:
            team = TournamentTeam(tournament_id=tournament.id, number=number, name=f"Team {number}")
            db.session.add(team)
            db.session.flush()
            db.session.add_all(
                TournamentMember(tournament_id=tournament.id, team_id=team.id, student_id=sid)
                for sid in student_ids
            )
        db.session.commit()
        flash(
            f"Tournament “{tournament.name}” created with {len(numbered)} teams. Pair round 1 when the class is ready.",
            "success",
        )
        return _page(tournament)
    status = 400 if form.is_submitted() else 200
    return render_template(
        "teach/tournament_new.html",
        klass=klass,
        form=form,
        enough=enough,
        count=len(students),
        MIN_STUDENTS=MIN_STUDENTS,
    ), status


@bp.get("/tournaments/<int:tournament_id>")
@teacher_required
def tournament_page(tournament_id: int) -> tuple[str, int]:
    """The teacher's control page: the round, its clock and results, the standings, the finals."""
    return _render_control(Board(_own_tournament(tournament_id), for_teacher=True))


@bp.get("/tournaments/<int:tournament_id>/projector")
@teacher_required
def tournament_projector(tournament_id: int) -> str:
    """The big read-only view for the class: round, clock, pairings, standings, the finals."""
    board = Board(_own_tournament(tournament_id), for_teacher=True)
    return render_template("teach/tournament_projector.html", **_context(board))


@bp.post("/tournaments/<int:tournament_id>/clock")
@teacher_required
def tournament_clock(tournament_id: int) -> Response:
    """Start the current round's clock: 20 minutes in the morning, 12 in the afternoon (K2)."""
    tournament = _own_tournament(tournament_id)
    form = TournamentStepForm(prefix="clock")
    if tournament.stage == Stage.FINISHED:
        return _over(tournament)
    if tournament.stage != Stage.ROUNDS or tournament.round == 0:
        return _refuse(tournament, "No round is under way: there is no clock to start.")
    if form.expected.data != str(tournament.round) or not claim(tournament):
        return _refuse(
            tournament,
            f"That button was for another round. This is round {tournament.round}; nothing was changed.",
        )
    if tournament.clock_started_at is not None:
        return _refuse(tournament, f"The clock of round {tournament.round} was already started.")
    tournament.clock_started_at = utcnow()
    db.session.commit()
    flash(
        f"The clock of round {tournament.round} is running: {round_minutes(tournament.round)} minutes.",
        "success",
    )
    return _page(tournament)


@bp.post("/tournaments/<int:tournament_id>/advance")
@teacher_required
def tournament_advance(tournament_id: int) -> Response:
    """Pair the next round (K3, P-K5) once every result of this one is in; after round 8, go on
    to the playoffs or straight to the championship (K4)."""
    tournament = _own_tournament(tournament_id)
    form = TournamentStepForm(prefix="advance")
    if tournament.stage == Stage.FINISHED:
        return _over(tournament)
    if tournament.stage != Stage.ROUNDS:
        return _refuse(tournament, "The rounds are over: there is no round to pair.")
    if form.expected.data != str(tournament.round) or not claim(tournament):
        return _refuse(
            tournament,
            "That was already done: the page you pressed it on was out of date. Nothing was changed.",
        )
    board = Board(tournament, for_teacher=True)
    number = tournament.round
    if number and board.missing:
        left = len(board.missing)
        return _refuse(
            tournament,
            f"Enter every result of round {number} first: {left} match{'' if left == 1 else 'es'} still without one.",
        )
    now = utcnow()
    if number < ROUNDS:
        pairings = pair_round(
            board.team_ids, board.outcomes(), number + 1, _round_rng(tournament, number + 1)
        )
        tournament.round = number + 1
        tournament.clock_started_at = None
        for p in pairings:
            bye = p.b is None
            db.session.add(
                TournamentMatch(
                    tournament_id=tournament.id,
                    round=p.round,
                    a_team_id=p.a,
                    b_team_id=p.b,
                    winner_id=p.a if bye else None,
                    entered_at=now if bye else None,
                )
            )
        # No game of an earlier match is due any more: a table waiting for a team closes (P-K9).
        closed = _live_games().close_waiting_in(tournament.id, now)
        db.session.commit()
        _live_games().announce(closed)
        flash(
            f"Round {number + 1} is paired. Start its clock when the teams are seated.", "success"
        )
        return _page(tournament)
    qualification = board.qualification
    assert qualification is not None
    if qualification.needs_playoff:
        tournament.stage = Stage.PLAYOFFS
        message = "The rounds are over. Teams tied for a place in the championship play Border-Up playoff games."
    else:
        tournament.stage = Stage.CHAMPIONSHIP
        first, second = qualification.advanced
        message = f"The rounds are over: {board.name(first)} and {board.name(second)} play the championship."
    closed = _live_games().close_waiting_in(tournament.id, now)
    db.session.commit()
    _live_games().announce(closed)
    flash(message, "success")
    return _page(tournament)


@bp.post("/tournaments/<int:tournament_id>/matches/<int:match_id>")
@teacher_required
def tournament_result(tournament_id: int, match_id: int) -> Response | tuple[str, int]:
    """A match result of the current round: games won by each team and tied; more games won wins
    the match, equal is a tied match (K1). Entered once (undo takes it back)."""
    tournament = _own_tournament(tournament_id)
    match = db.session.execute(
        select(TournamentMatch).where(
            TournamentMatch.id == match_id, TournamentMatch.tournament_id == tournament.id
        )
    ).scalar_one_or_none()
    if match is None:
        abort(404)
    if tournament.stage == Stage.FINISHED:
        return _over(tournament)
    if tournament.stage != Stage.ROUNDS or match.round != tournament.round:
        return _refuse(
            tournament, f"Round {match.round} is over: its results can no longer change."
        )
    if match.b_team_id is None:
        return _refuse(tournament, "A bye has no result to enter: it counts as a win.")
    board = Board(tournament, for_teacher=True)
    if match.entered_at is not None:
        how = " when the match was finished in the app" if match.entered_by == EnteredBy.APP else ""
        return _refuse(
            tournament,
            f"That result was already entered{how} ({board.describe_match(match)}). Nothing was changed.",
        )
    form = _result_form(board, match, bound=True)
    if not form.validate_on_submit():
        return _render_control(board, failed=(match.id, form), status=400)
    if not claim(tournament):
        return _refuse(tournament, "The tournament moved on while you typed: nothing was changed.")
    a_games, b_games = form.a_games.data, form.b_games.data
    winner = (
        match.a_team_id if a_games > b_games else match.b_team_id if b_games > a_games else None
    )
    now = utcnow()
    changed = changed_rows(
        update(TournamentMatch)
        .where(
            TournamentMatch.id == match.id,
            TournamentMatch.round == tournament.round,
            TournamentMatch.entered_at.is_(None),
        )
        .values(
            a_games=a_games,
            b_games=b_games,
            tied_games=form.tied_games.data,
            winner_id=winner,
            entered_at=now,
            entered_by=EnteredBy.TEACHER,
        )
        .execution_options(synchronize_session=False)
    )
    if changed != 1:
        return _refuse(
            tournament,
            "That result was already entered (perhaps finished in the app a moment ago). Nothing was changed.",
        )
    # A table still waiting for a team to play a game of the match on the devices is closed (P-K9).
    closed = _live_games().close_waiting(match.id, None, now)
    db.session.commit()
    _live_games().announce(closed)
    flash(f"Saved: {board.describe_match(match)}.", "success")
    return _page(tournament)


def _enter_game(tournament_id: int, stage: Stage) -> Response | tuple[str, int]:
    """A playoff game (P-K1) or a championship game (K4, P-K3): the one the core says is due."""
    tournament = _own_tournament(tournament_id)
    if tournament.stage == Stage.FINISHED:
        return _over(tournament)
    if tournament.stage != stage:
        what = "playoff" if stage == Stage.PLAYOFFS else "championship"
        return _refuse(tournament, f"This is not the time for a {what} game: nothing was changed.")
    board = Board(tournament, for_teacher=True)
    due = board.due
    form = _game_form(board, due, bound=True)
    stale = "That game was already entered, or it is not the game due now. Nothing was changed."
    if due is None or (form.number.data, form.a_team.data, form.b_team.data) != (
        str(due.number),
        str(due.a),
        str(due.b),
    ):
        return _refuse(tournament, stale)
    if not form.validate_on_submit():
        return _render_control(board, game_form=form, status=400)
    if not claim(tournament):
        return _refuse(tournament, stale)
    board = Board(tournament, for_teacher=True)
    if board.due != due:
        return _refuse(tournament, stale)
    winner = (
        None if form.winner.data == TIE else whole_number(form.winner.data)
    )  # a choice: a team's id
    now = utcnow()
    db.session.add(
        TournamentGame(
            tournament_id=tournament.id,
            stage=due.stage,
            number=due.number,
            game=due.game.value,
            a_team_id=due.a,
            b_team_id=due.b,
            winner_id=winner,
            entered_at=now,
            # The teacher's result stands as entered (P-K6).
            entered_by_id=_user().id,
            confirmed_at=now,
            confirmed_by_id=_user().id,
        )
    )
    try:
        db.session.flush()
    except IntegrityError:
        return _refuse(tournament, stale)
    board = Board(tournament, for_teacher=True)
    message = f"Saved: {board.describe_game(board.playoff_games[-1] if stage == Stage.PLAYOFFS else board.championship_games[-1])}."
    if stage == Stage.PLAYOFFS and board.finals is not None:
        tournament.stage = Stage.CHAMPIONSHIP
        first, second = board.finals
        message += f" {board.name(first)} and {board.name(second)} play the championship."
    elif stage == Stage.CHAMPIONSHIP and board.champion_id is not None:
        tournament.stage = Stage.FINISHED
        tournament.finished_at = now
        message += f" {board.name(board.champion_id)} is the champion!"
    closed = _live_games().close_waiting_in(tournament.id, now)  # nothing is due any more (P-K9)
    db.session.commit()
    _live_games().announce(closed)
    flash(message, "success")
    return _page(tournament)


@bp.post("/tournaments/<int:tournament_id>/playoff")
@teacher_required
def tournament_playoff(tournament_id: int) -> Response | tuple[str, int]:
    """The result of the Border-Up playoff game due (K4, P-K1); a tied game is played again."""
    return _enter_game(tournament_id, Stage.PLAYOFFS)


@bp.post("/tournaments/<int:tournament_id>/championship")
@teacher_required
def tournament_championship(tournament_id: int) -> Response | tuple[str, int]:
    """The result of the championship game due; the match ends as soon as it is settled (K4)."""
    return _enter_game(tournament_id, Stage.CHAMPIONSHIP)


@bp.post("/tournaments/<int:tournament_id>/undo")
@teacher_required
def tournament_undo(tournament_id: int) -> Response:
    """Take back the last result entered: a match of the current round, or the last playoff or
    championship game. Earlier rounds, and a finished tournament, stay as they are."""
    tournament = _own_tournament(tournament_id)
    form = TournamentStepForm(prefix="undo")
    if tournament.stage == Stage.FINISHED:
        return _over(tournament)
    if not claim(tournament):
        return _refuse(tournament, "The tournament moved on: nothing was undone.")
    board = Board(tournament, for_teacher=True)
    undoable = board.undoable
    if undoable is None or form.expected.data != undoable[0]:
        return _refuse(
            tournament,
            "That result was already taken back, or another was entered since. Nothing was undone.",
        )
    key, description = undoable
    kind, _, ident = key.rpartition("-")
    if kind == "match":
        db.session.execute(
            update(TournamentMatch)
            .where(TournamentMatch.id == int(ident), TournamentMatch.tournament_id == tournament.id)
            .values(
                a_games=None,
                b_games=None,
                tied_games=None,
                winner_id=None,
                entered_at=None,
                entered_by=None,
                # A finish asked in the app is asked again after an undo (P-K6).
                finish_asked_at=None,
                finish_asked_by_id=None,
                finish_asked_team_id=None,
                finish_confirmed_by_id=None,
            )
            .execution_options(synchronize_session=False)
        )
    else:
        db.session.execute(
            delete(TournamentGame)
            .where(
                TournamentGame.tournament_id == tournament.id,
                TournamentGame.stage == kind,
                TournamentGame.number == int(ident),
            )
            .execution_options(synchronize_session=False)
        )
        if kind == GameStage.PLAYOFF:
            tournament.stage = Stage.PLAYOFFS
    db.session.commit()
    flash(f"Taken back: {description}. Enter it again.", "success")
    return _page(tournament)
