"""A class tournament's round match scored in the app, on one device at the table (P-K6).

The two teams play with the physical cards; a student of either team (or the teacher) keeps the
match in the app: the afternoon draw and picks (K2), the game due in the format's order (K2), who
starts it (P-K2, with a seeded statehood draw where R2 applies), and each game's result as it ends.
"Finish the match" writes the result taken from the games recorded by the bell (K1, K2) into the
same columns, with the same guard, as the teacher's typed result: whichever is saved first is the
result, and the other is refused.

Nothing one team enters stands on its own word (P-K6): a game recorded by a student of one team
waits for a student of the other team to confirm it (or dispute it, which leaves it to the
teacher or to be taken back), and "Finish the match" asked by one team waits for the other team's
yes. The teacher's word stands at once: a game the teacher records, confirms or corrects, and a
finish the teacher presses or confirms. The teacher's round page lists what waits.

Only the class's teacher and the students of the two teams (still in the class) may open a match;
to anyone else it is not found. Every change claims the tournament's row first (as the teacher's
control page does), reads the match again and checks the form against it, so a form sent twice,
or from an old page, changes nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import current_user
from sqlalchemy import SQLColumnExpression, delete, exists, select, update
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response
from wtforms.fields.choices import SelectChoice

from trainer.games.combo import ComboGame, Side
from trainer.games.tournament import EnteredBy, GameStage, Stage

from ..extensions import changed_rows, db
from ..guards import Refused, Stale, nothing_changed
from ..models import (
    ClassMembership,
    SchoolClass,
    Tournament,
    TournamentGame,
    TournamentMatch,
    TournamentMember,
    User,
    utcnow,
)
from ..security import login_required, student_required
from ..teach.tournaments import Board, claim
from .forms import (
    BACK_TO_ROUND,
    PICK_A_GAME,
    GameAnswer,
    GameEntry,
    MatchAnswerForm,
    MatchGameForm,
    MatchPickForm,
    MatchStepForm,
    Verdict,
    answer_form,
    confirm_form,
)
from .scoring import MAX_GAMES, MatchPlay, Recorded, pick_draw

bp = Blueprint("tournament_play", __name__, url_prefix="/tournaments")


def _user() -> User:
    return current_user._get_current_object()


# --- Who may open a match ----------------------------------------------------------------------


def _in_class(student_id: int, class_id: int | SQLColumnExpression[int]) -> Any:
    return exists().where(
        ClassMembership.class_id == class_id, ClassMembership.student_id == student_id
    )


def _team_of(tournament: Tournament, student_id: int) -> int | None:
    """The student's team in the tournament, if they are on one and still in the class."""
    return db.session.execute(
        select(TournamentMember.team_id).where(
            TournamentMember.tournament_id == tournament.id,
            TournamentMember.student_id == student_id,
            _in_class(student_id, tournament.class_id),
        )
    ).scalar_one_or_none()


@dataclass(frozen=True)
class Viewer:
    """Who is at the match: the class's teacher (``side`` None) or a student of team A or B."""

    user: User
    side: Side | None

    @property
    def is_teacher(self) -> bool:
        return self.side is None

    def team_id(self, match: TournamentMatch) -> int | None:
        if self.side is None:
            return None
        return match.a_team_id if self.side is Side.A else match.b_team_id


def _load(tournament_id: int, match_id: int) -> tuple[Tournament, TournamentMatch, Viewer]:
    """The match, if the signed-in user may score it: the class's teacher, or a student of one of its
    two teams (and which). Anyone else's, a bye, and a match of another tournament are not found."""
    tournament = db.session.get(Tournament, tournament_id)
    match = db.session.execute(
        select(TournamentMatch).where(
            TournamentMatch.id == match_id, TournamentMatch.tournament_id == tournament_id
        )
    ).scalar_one_or_none()
    if tournament is None or match is None or match.b_team_id is None:
        abort(404)
    user = _user()
    if user.is_teacher:
        allowed = (
            db.session.execute(
                select(SchoolClass.id).where(
                    SchoolClass.id == tournament.class_id, SchoolClass.teacher_id == user.id
                )
            ).first()
            is not None
        )
        if not allowed:
            abort(404)
        return tournament, match, Viewer(user, None)
    team = _team_of(tournament, user.id)
    if team not in (match.a_team_id, match.b_team_id):
        abort(404)
    return tournament, match, Viewer(user, Side.A if team == match.a_team_id else Side.B)


def _games(match: TournamentMatch) -> list[TournamentGame]:
    return list(
        db.session.execute(
            select(TournamentGame)
            .where(TournamentGame.match_id == match.id, TournamentGame.stage == GameStage.MATCH)
            .order_by(TournamentGame.number)
        ).scalars()
    )


def _play(
    tournament: Tournament, match: TournamentMatch, now: dt.datetime | None = None
) -> MatchPlay:
    return MatchPlay(tournament, match, _games(match), utcnow() if now is None else now)


def _names(board: Board, match: TournamentMatch) -> dict[Side, str]:
    return board.side_names(match)


def _here(tournament: Tournament, match: TournamentMatch) -> str:
    return url_for("tournament_play.match_page", tournament_id=tournament.id, match_id=match.id)


def _back(
    tournament: Tournament,
    match: TournamentMatch,
    viewer: Viewer,
    form: MatchStepForm | MatchAnswerForm,
) -> str:
    """Where the answer goes: the teacher's round page when the teacher pressed it there, else the match."""
    if viewer.is_teacher and form.back.data == BACK_TO_ROUND:
        return url_for("teach.tournament_page", tournament_id=tournament.id)
    return _here(tournament, match)


def _stale(message: str) -> Stale:
    """A form sent twice or from an out-of-date page: at a match, flashed as an error."""
    return Stale(message, "error")


def _answered(to: str, play: Callable[[], str]) -> Response:
    """Run a match's service function and answer as every match form is answered: its message
    flashed as a success, or its refusal (Stale or Refused) flashed as an error with nothing
    changed (``nothing_changed``); either way back to ``to``."""
    try:
        message = play()
    except (Stale, Refused) as refusal:
        return nothing_changed(str(refusal), to, "error")
    flash(message, "success")
    return redirect(to)


def _blocked(play: MatchPlay, names: dict[Side, str]) -> str | None:
    """Why nothing more can be recorded (or taken back, or finished) until someone answers: a game
    waiting for the other team, or a finish asked (P-K6); None when nothing waits."""
    if play.finish_asked is not None:
        asker = play.finish_asked
        return f"{names[asker]} asked to finish the match: {names[asker.other]} (or your teacher) answers first. Nothing was changed."
    game = play.pending
    if game is None:
        return None
    if game.disputed:
        entered = names[game.entered_side] if game.entered_side else "The team that entered it"
        return (
            f"Game {game.number} is disputed: {entered} may take it back and record it again, "
            "or your teacher confirms or corrects it. Nothing was changed."
        )
    confirmer = names[game.confirmer] if game.confirmer else "the other team"
    return f"Game {game.number} waits for {confirmer} to confirm it first. Nothing was changed."


def _closed(tournament: Tournament, match: TournamentMatch) -> str | None:
    """Why nothing about the match can change any more, or None while it is open."""
    if tournament.stage == Stage.FINISHED:
        return "The tournament is over: nothing can change now."
    if tournament.stage != Stage.ROUNDS or match.round != tournament.round:
        return f"Round {match.round} is over: its matches can no longer change."
    if match.entered_at is not None:
        board = Board(tournament)
        who = (
            "finished in the app" if match.entered_by == EnteredBy.APP else "entered by the teacher"
        )
        return f"This match's result is already in ({board.describe_match(match)}; {who}). Nothing was changed."
    return None


def _claim(tournament: Tournament, match: TournamentMatch) -> None:
    """Claim the tournament's row (``teach.tournaments.claim``) and read the tournament and the
    match again, so every check after this one sees what is stored and nothing else can change it.

    Raises:
        Stale: the match is closed (before or after the claim), or the tournament moved on.
    """
    reason = _closed(tournament, match)
    if reason is not None:
        raise _stale(reason)
    if not claim(tournament):
        raise _stale("The tournament moved on while this page was open: nothing was changed.")
    db.session.refresh(tournament)
    db.session.refresh(match)
    reason = _closed(tournament, match)
    if reason is not None:
        raise _stale(reason)


# --- Pages ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MyMatch:
    """A round's match of the student's team, as their list shows it."""

    round: int
    opponent: str | None
    result: str
    url: str | None
    current: bool
    #: A match (not a bye) still without a result.
    pending: bool


@dataclass(frozen=True)
class MyTournament:
    tournament: Tournament
    team: str
    members: tuple[str, ...]
    matches: list[MyMatch]

    @property
    def now(self) -> MyMatch | None:
        return next((m for m in self.matches if m.current), None)


def _result_for(board: Board, match: TournamentMatch, team_id: int) -> str:
    if match.b_team_id is None:
        return "A bye (counts as a win)"
    if match.entered_at is None:
        return "No result yet"
    mine, theirs = (
        (match.a_games, match.b_games)
        if match.a_team_id == team_id
        else (match.b_games, match.a_games)
    )
    verdict = (
        "A tie" if match.winner_id is None else ("Won" if match.winner_id == team_id else "Lost")
    )
    return f"{verdict} {mine}–{theirs}"


def _asks(play: MatchPlay, side: Side) -> bool:
    """Whether the match waits for ``side``'s answer: a game or a finish the other team entered (P-K6)."""
    game = play.pending
    if game is not None:
        # Disputed, it is back with the team that entered it (to take it back) and the teacher.
        return game.entered_side is side if game.disputed else game.confirmer in (side, None)
    return play.finish_asked is side.other


def my_tournaments(student: User) -> list[MyTournament]:
    """The tournaments of the student's classes in which they are on a team, newest first."""
    rows = db.session.execute(
        select(Tournament, TournamentMember.team_id)
        .join(TournamentMember, TournamentMember.tournament_id == Tournament.id)
        .where(
            TournamentMember.student_id == student.id, _in_class(student.id, Tournament.class_id)
        )
        .order_by(Tournament.created_at.desc(), Tournament.id.desc())
    ).all()
    found = []
    for tournament, team_id in rows:
        board = Board(tournament)
        matches = []
        for match in reversed(board.matches):
            if team_id not in (match.a_team_id, match.b_team_id):
                continue
            opponent = match.b_team_id if match.a_team_id == team_id else match.a_team_id
            current = tournament.stage == Stage.ROUNDS and match.round == tournament.round
            url = None
            if match.b_team_id is not None:
                url = url_for(
                    "tournament_play.match_page", tournament_id=tournament.id, match_id=match.id
                )
            pending = match.b_team_id is not None and match.entered_at is None
            result = _result_for(board, match, team_id)
            if (
                current
                and pending
                and _asks(board.play(match), Side.A if match.a_team_id == team_id else Side.B)
            ):
                result += ": waiting for your team’s answer"
            matches.append(
                MyMatch(
                    match.round,
                    board.name(opponent) if opponent else None,
                    result,
                    url,
                    current,
                    pending,
                )
            )
        team = board.team[team_id]
        found.append(MyTournament(tournament, team.name, team.members, matches))
    return found


@bp.app_template_global()
def tournament_matches_now() -> list[MyTournament]:
    """For a student's pages: their tournaments with a round under way."""
    if not getattr(current_user, "is_authenticated", False) or current_user.is_teacher:
        return []
    return [t for t in my_tournaments(_user()) if t.now is not None]


@bp.get("/")
@student_required
def index() -> str:
    """The student's class tournaments: their team, and its match of each round."""
    return render_template("tournament_play/index.html", tournaments=my_tournaments(_user()))


@bp.get("/<int:tournament_id>/matches/<int:match_id>")
@login_required
def match_page(tournament_id: int, match_id: int) -> str:
    """The match: the clock, the draw and picks, the game due and who starts it, the games so far,
    and what waits for the other team's confirmation."""
    tournament, match, viewer = _load(tournament_id, match_id)
    return _render(tournament, match, viewer)


def _render(
    tournament: Tournament,
    match: TournamentMatch,
    viewer: Viewer,
    pick_form: MatchPickForm | None = None,
    status: int = 200,
) -> Any:
    board = Board(tournament)
    play = _play(tournament, match)
    names = _names(board, match)
    upcoming = play.upcoming
    assert match.b_team_id is not None  # a bye is never played, so never shown
    game_form = MatchGameForm(prefix="game", formdata=None)
    if upcoming is not None:
        game_form.number.data, game_form.game.data = str(upcoming.number), upcoming.game.value
    if pick_form is None:
        pick_form = MatchPickForm(prefix="pick", formdata=None)
        pick_form.expected.data = str(len(play.picked))
    pick_form.game.choices = [
        SelectChoice(g.value, g.label) for g in ComboGame if g not in play.picked
    ]
    last = play.games[-1].number if play.games else 0
    html = render_template(
        "tournament_play/match.html",
        tournament=tournament,
        match=match,
        board=board,
        play=play,
        names=names,
        teams={
            side: board.team[match.a_team_id if side is Side.A else match.b_team_id]
            for side in Side
        },
        upcoming=upcoming,
        picker=None
        if play.draw is None
        else (play.draw.winner if not play.picked else play.draw.winner.other),
        is_teacher=viewer.is_teacher,
        viewer=viewer,
        game_form=game_form,
        pick_form=pick_form,
        draw_form=_step("draw", "draw"),
        finish_form=_step("finish", len(play.games)),
        undo_form=_step("undo", last),
        confirm_form=confirm_form(play),
        answer_form=answer_form(play),
        live=live_games.match_part(match, viewer, upcoming),
        MAX_GAMES=MAX_GAMES,
        Side=Side,
    )
    return html, status


def _step(prefix: str, expected: object) -> MatchStepForm:
    form = MatchStepForm(prefix=prefix, formdata=None)
    form.expected.data = str(expected)
    return form


# --- Changes -------------------------------------------------------------------------------------
#
# Each POST view loads the match and who is at it (``_load``), lets its form parse what was sent,
# and hands it to one service function below (``draw_for_match`` ... ``answer_finish``). A service
# function claims the tournament's row (``_claim``), checks the form against the match as it is
# now, saves the change in one commit and returns the words of the flash; it raises ``Stale`` for a
# form sent twice or from an out-of-date page and ``Refused`` for what the rules or the match's
# teams do not allow. Either way nothing changes, and the view says why, flashed as "error".


@bp.post("/<int:tournament_id>/matches/<int:match_id>/draw")
@login_required
def match_draw(tournament_id: int, match_id: int) -> Response:
    """The afternoon draw: each team's card, seeded by the match; the better statehood rank picks
    the first game (K2)."""
    tournament, match, _viewer = _load(tournament_id, match_id)
    here = _here(tournament, match)
    return _answered(here, lambda: draw_for_match(tournament, match, utcnow()))


def draw_for_match(tournament: Tournament, match: TournamentMatch, now: dt.datetime) -> str:
    """Draw the afternoon match's cards (K2), seeded by the match, and say who picks first.

    Raises:
        Refused: a morning match (it has no draw).
        Stale: the cards were already drawn, or the match is closed.
    """
    play = _play(tournament, match, now)
    if not play.afternoon:
        raise Refused("A morning match has no draw: its games are played in order.")
    if match.draw is not None:
        raise _stale("The cards were already drawn for this match. Nothing was changed.")
    _claim(tournament, match)
    draw = pick_draw(tournament, match)
    changed = changed_rows(
        update(TournamentMatch)
        .where(
            TournamentMatch.id == match.id,
            TournamentMatch.draw.is_(None),
            TournamentMatch.entered_at.is_(None),
        )
        .values(draw=draw.stored())
        .execution_options(synchronize_session=False)
    )
    if changed != 1:
        raise _stale("The cards were already drawn for this match. Nothing was changed.")
    db.session.commit()
    names = _names(Board(tournament), match)
    return f"{draw.describe(names)}: {names[draw.winner]} picks the first game."


@bp.post("/<int:tournament_id>/matches/<int:match_id>/pick")
@login_required
def match_pick(tournament_id: int, match_id: int) -> Response | tuple[str, int]:
    """An afternoon pick: the draw winner's team first, then the other team a different game (K2)."""
    tournament, match, viewer = _load(tournament_id, match_id)
    here = _here(tournament, match)
    form = MatchPickForm(prefix="pick")
    try:
        message = pick_game(tournament, match, form.expected_number(), form.pick(), utcnow())
    except Stale as stale:
        return nothing_changed(str(stale), here, stale.category)
    except Refused as refused:
        # A form that named no game keeps its own words ("Pick a game.", "Not a valid choice.").
        if not form.game.errors:
            form.game.errors = [str(refused)]
        return _render(tournament, match, viewer, form, 400)
    flash(message, "success")
    return redirect(here)


def pick_game(
    tournament: Tournament,
    match: TournamentMatch,
    expected: int | None,
    game: ComboGame | None,
    now: dt.datetime,
) -> str:
    """The afternoon pick of ``game`` (K2), made on a page that showed ``expected`` games picked:
    the draw winner's team picks first, then the other team a different game.

    Args:
        game: the game picked, or None when the form named none (its errors say why).

    Raises:
        Refused: no game read (:data:`PICK_A_GAME`), or the game picked first picked again (the
            view shows the form again with the words, 400).
        Stale: a morning match, no draw yet, both games picked, the pick already made, or the
            match closed.
    """
    play = _play(tournament, match, now)
    # The page shows no pick form before the draw, nor in a morning match.
    if not play.afternoon:
        raise _stale("A morning match has no picks: its games are played in order.")
    if play.draw is None:
        raise _stale("Draw the cards first: the better statehood rank picks the first game.")
    if play.picks is not None:
        done = " then ".join(g.label for g in play.picks)
        raise _stale(f"Both games are already picked ({done}). Nothing was changed.")
    if expected != len(play.picked):
        raise _stale("That pick was already made (the page was out of date). Nothing was changed.")
    if game is None:
        raise Refused(PICK_A_GAME)
    if game in play.picked:
        raise Refused(f"{game.label} was picked first: the other team picks a different game.")
    _claim(tournament, match)
    if [g.value for g in _play(tournament, match, now).picked] != [g.value for g in play.picked]:
        raise _stale("That pick was already made (the page was out of date). Nothing was changed.")
    match.picks = [*(g.value for g in play.picked), game.value]
    db.session.commit()
    names = _names(Board(tournament), match)
    picker = play.draw.winner if not play.picked else play.draw.winner.other
    return f"{names[picker]} picked {game.label}."


@bp.post("/<int:tournament_id>/matches/<int:match_id>/games")
@login_required
def match_game(tournament_id: int, match_id: int) -> Response:
    """The result of the game due, as it ends: team A won, team B won, or a tie. Its time is now:
    recorded after the bell, it does not count (K2, P-K6). Entered by a student, it waits for the
    other team's confirmation; entered by the teacher, it stands (P-K6)."""
    tournament, match, viewer = _load(tournament_id, match_id)
    here = _here(tournament, match)
    form = MatchGameForm(prefix="game")
    return _answered(here, lambda: record_game(tournament, match, viewer, form.entry(), utcnow()))


def record_game(
    tournament: Tournament,
    match: TournamentMatch,
    viewer: Viewer,
    entry: GameEntry | None,
    now: dt.datetime,
) -> str:
    """Record ``entry``, the result of the game due, at ``now``: it counts if that is by the bell
    (K2, P-K6). A student's entry waits for the other team; the teacher's stands (P-K6).

    Args:
        entry: the game and result the form named; None when it named none (taken as a page out
            of date).

    Raises:
        Refused: the picks are not made yet, or the match has its most games.
        Stale: the match is closed, a game or a finish waits for an answer, or ``entry`` is not
            the game due (recorded already, or never shown).
    """
    stale = "That game was already recorded, or it is not the game due now (the page was out of date). Nothing was changed."
    reason = _closed(tournament, match)
    if reason is not None:
        raise _stale(reason)
    play = _play(tournament, match, now)
    names = _names(Board(tournament), match)
    if play.picks_due:
        raise Refused("Draw the cards and pick the two games first.")
    if len(play.games) >= MAX_GAMES:
        raise Refused(f"A match records at most {MAX_GAMES} games. Finish the match.")
    waiting = _blocked(play, names)
    if waiting is None and viewer.side is not None:  # the app records a game played live (P-K9)
        waiting = live_games.students_wait_for(match, play)
    if waiting is not None:
        raise _stale(waiting)
    upcoming = play.upcoming
    if (
        upcoming is None
        or entry is None
        or (entry.number, entry.game)
        != (
            upcoming.number,
            upcoming.game,
        )
    ):
        raise _stale(stale)
    _claim(tournament, match)
    play = _play(tournament, match, now)
    due = play.upcoming
    if due is None or (due.number, due.game) != (upcoming.number, upcoming.game):
        raise _stale(_blocked(play, names) or stale)
    winner = _team_id(match, entry.winner)
    db.session.add(
        TournamentGame(
            tournament_id=tournament.id,
            stage=GameStage.MATCH,
            match_id=match.id,
            number=upcoming.number,
            game=upcoming.game.value,
            a_team_id=match.a_team_id,
            b_team_id=match.b_team_id,
            winner_id=winner,
            entered_at=now,
            entered_by_id=viewer.user.id,
            entered_team_id=viewer.team_id(match),
            # The teacher's word stands at once; a team's waits for the other team (P-K6).
            confirmed_at=now if viewer.is_teacher else None,
            confirmed_by_id=viewer.user.id if viewer.is_teacher else None,
        )
    )
    try:
        db.session.flush()
    except IntegrityError:
        raise _stale(stale) from None
    # A table still waiting for a team to play this game on the devices is closed (P-K9).
    closed = live_games.close_waiting(match.id, upcoming.number, now)
    db.session.commit()
    live_games.announce(closed)
    what = "a tie" if entry.winner is None else f"{names[entry.winner]} won"
    message = f"Game {upcoming.number}, {upcoming.game.label}: {what}."
    if play.bell is not None and now > play.bell:
        message += " It was recorded after the bell, so it does not count."
    if viewer.side is not None:
        message += f" It stands once {names[viewer.side.other]} confirms it (or your teacher does)."
    return message


def _team_id(match: TournamentMatch, side: Side | None) -> int | None:
    """The team playing ``side`` in the match; None for None (a tie)."""
    if side is None:
        return None
    return match.a_team_id if side is Side.A else match.b_team_id


def _describe(game: Recorded, names: dict[Side, str]) -> str:
    """ "game 3, Dashing States (Team 1 won)"."""
    result = game.result
    what = "a tie" if result.winner is None else f"{names[result.winner]} won"
    return f"game {game.number}, {result.game.label} ({what})"


@bp.post("/<int:tournament_id>/matches/<int:match_id>/confirm")
@login_required
def match_confirm(tournament_id: int, match_id: int) -> Response:
    """The answer to a game one team recorded (P-K6): a student of the other team confirms it or
    disputes it; the teacher confirms it or corrects its result. The game keeps the time it was
    entered, so a confirmation after the bell does not make it late (K2)."""
    tournament, match, viewer = _load(tournament_id, match_id)
    form = MatchAnswerForm(prefix="confirm")
    to = _back(tournament, match, viewer, form)
    return _answered(
        to, lambda: confirm_game(tournament, match, viewer, form.game_answer(), utcnow())
    )


def confirm_game(
    tournament: Tournament,
    match: TournamentMatch,
    viewer: Viewer,
    answer: GameAnswer,
    now: dt.datetime,
) -> str:
    """Answer the match's pending game (P-K6): a student of the other team confirms or disputes it;
    the teacher confirms it or corrects its result. It keeps the time it was entered (K2).

    Raises:
        Refused: a student correcting a result, the teacher disputing, or a student answering
            their own team's game.
        Stale: the game answered is not the one waiting (taken back, changed, already confirmed
            or disputed), or the match is closed.
    """
    verdict = answer.verdict
    if verdict.corrects and not viewer.is_teacher:
        raise Refused(
            "Only your teacher can change a result: confirm it, or dispute it. Nothing was changed."
        )
    if verdict is Verdict.DISPUTE and viewer.is_teacher:
        raise Refused("As the teacher, confirm the result or correct it. Nothing was changed.")
    _claim(tournament, match)
    play = _play(tournament, match, now)
    names = _names(Board(tournament), match)
    game = play.pending
    if game is None or answer.expected != game.token:
        shown = next((g for g in play.games if g.token == answer.expected), None)
        if shown is not None and shown.stands:
            raise _stale(f"Game {shown.number} was already confirmed. Nothing was changed.")
        raise _stale(
            "That game was taken back or changed since the page was shown. Nothing was changed."
        )
    if viewer.side is not None and viewer.side is game.entered_side:
        other = names[viewer.side.other]
        raise Refused(
            f"Your team entered game {game.number}: {other} confirms it (or your teacher). Nothing was changed."
        )
    values: dict[str, object] = {"confirmed_at": now, "confirmed_by_id": viewer.user.id}
    if verdict is Verdict.DISPUTE:
        if game.disputed:
            raise _stale(
                f"Game {game.number} is already disputed: your teacher decides. Nothing was changed."
            )
        values = {"disputed_at": now, "disputed_by_id": viewer.user.id}
    elif verdict.corrects:
        values["winner_id"] = _team_id(match, verdict.winner)
    changed = changed_rows(
        update(TournamentGame)
        .where(
            TournamentGame.id == game.id,
            TournamentGame.match_id == match.id,
            TournamentGame.confirmed_at.is_(None),
        )
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    if changed != 1:
        raise _stale(f"Game {game.number} was already confirmed. Nothing was changed.")
    db.session.commit()
    described = _describe(game, names)
    if verdict is Verdict.DISPUTE:
        entered = names[game.entered_side] if game.entered_side else "The team that entered it"
        return f"You disputed {described}. {entered} may take it back and record it again, or your teacher decides."
    if verdict.corrects and values["winner_id"] != _team_id(match, game.result.winner):
        now_what = "a tie" if verdict.winner is None else f"{names[verdict.winner]} won"
        return f"Corrected {described}: {now_what}. It stands, at the time it was entered."
    return f"Confirmed: {described}. It stands."


@bp.post("/<int:tournament_id>/matches/<int:match_id>/undo")
@login_required
def match_undo(tournament_id: int, match_id: int) -> Response:
    """Take back the last game recorded (a wrong button), while the match has no result: a team's
    own game while it waits (or is disputed); the teacher's, any last game (P-K6)."""
    tournament, match, viewer = _load(tournament_id, match_id)
    here = _here(tournament, match)
    form = MatchStepForm(prefix="undo")
    return _answered(
        here, lambda: undo_game(tournament, match, viewer, form.expected_number(), utcnow())
    )


def undo_game(
    tournament: Tournament,
    match: TournamentMatch,
    viewer: Viewer,
    expected: int | None,
    now: dt.datetime,
) -> str:
    """Take back game ``expected``, the last recorded (P-K6): a team its own game while it waits
    or is disputed, the teacher any last game.

    Raises:
        Refused: a student taking back a game that stands, or the other team's game.
        Stale: game ``expected`` is not the last (taken back, or another recorded since), a finish
            waits for an answer, or the match is closed.
    """
    _claim(tournament, match)
    play = _play(tournament, match, now)
    names = _names(Board(tournament), match)
    if not play.games or expected != play.games[-1].number:
        raise _stale(
            "That game was already taken back, or another was recorded since. Nothing was taken back."
        )
    last = play.games[-1]
    if play.finish_asked is not None:
        raise _stale(_blocked(play, names) or "")
    if viewer.side is not None:
        if last.stands:
            raise Refused(
                f"Game {last.number} stands: both teams agreed on it. Only your teacher can take it back now."
            )
        if last.entered_side is not None and last.entered_side is not viewer.side:
            raise Refused(
                f"{names[last.entered_side]} entered game {last.number}: they may take it back. If it is wrong, dispute it. Nothing was taken back."
            )
    db.session.execute(
        delete(TournamentGame)
        .where(TournamentGame.id == last.id, TournamentGame.match_id == match.id)
        .execution_options(synchronize_session=False)
    )
    db.session.commit()
    return f"Taken back: game {last.number}, {last.result.game.label}. Record it again."


@bp.post("/<int:tournament_id>/matches/<int:match_id>/finish")
@login_required
def match_finish(tournament_id: int, match_id: int) -> Response:
    """ "Finish the match": the teacher's finish writes the result, taken from the games that stand
    and were recorded by the bell (K1, K2), as the teacher's typed result is, unless that came
    first; a team's only asks, and the other team (or the teacher) answers (P-K6)."""
    tournament, match, viewer = _load(tournament_id, match_id)
    form = MatchStepForm(prefix="finish")
    to = _back(tournament, match, viewer, form)
    return _answered(
        to, lambda: finish_match(tournament, match, viewer, form.expected_number(), utcnow())
    )


def finish_match(
    tournament: Tournament,
    match: TournamentMatch,
    viewer: Viewer,
    expected: int | None,
    now: dt.datetime,
) -> str:
    """ "Finish the match" pressed on a page that showed ``expected`` games: the teacher's finish
    writes the result (K1, K2); a team's asks the other team (P-K6).

    Raises:
        Refused: no game is recorded yet.
        Stale: the games changed since the page was shown, a game or a finish waits for an answer,
            the result is already in, or the match is closed.
    """
    _claim(tournament, match)
    play = _play(tournament, match, now)
    names = _names(Board(tournament), match)
    if not play.games:
        raise Refused(
            "No game has been recorded yet: record each game as it ends, then finish the match."
        )
    if expected != len(play.games):
        raise _stale(
            "A game was recorded or taken back since that page was shown: check the games, then finish again."
        )
    if viewer.is_teacher:
        # The teacher's finish is the teacher's word, also on a finish a team asked; only a game
        # still waiting must be confirmed or corrected first.
        if play.pending is not None:
            raise _stale(_blocked(play, names) or "")
        return _write_result(tournament, match, play, viewer, now)
    waiting = _blocked(play, names) or live_games.students_wait_for(match, play)
    if waiting is not None:
        raise _stale(waiting)
    changed = changed_rows(
        update(TournamentMatch)
        .where(
            TournamentMatch.id == match.id,
            TournamentMatch.entered_at.is_(None),
            TournamentMatch.finish_asked_at.is_(None),
        )
        .values(
            finish_asked_at=now,
            finish_asked_by_id=viewer.user.id,
            finish_asked_team_id=viewer.team_id(match),
        )
        .execution_options(synchronize_session=False)
    )
    if changed != 1:
        raise _stale("Finishing the match was already asked. Nothing was changed.")
    db.session.commit()
    other = names[viewer.side.other] if viewer.side else "the other team"
    return f"You asked to finish the match at {_score(play, names)}. It is over when {other} confirms it (or your teacher does)."


@bp.post("/<int:tournament_id>/matches/<int:match_id>/finish/answer")
@login_required
def match_finish_answer(tournament_id: int, match_id: int) -> Response:
    """The answer to one team's "Finish the match" (P-K6): a student of the other team, or the
    teacher, confirms it (the result is written) or says not yet (the match goes on)."""
    tournament, match, viewer = _load(tournament_id, match_id)
    form = MatchAnswerForm(prefix="answer")
    to = _back(tournament, match, viewer, form)
    return _answered(
        to,
        lambda: answer_finish(
            tournament, match, viewer, form.expected_number(), form.finish_answer(), utcnow()
        ),
    )


def answer_finish(
    tournament: Tournament,
    match: TournamentMatch,
    viewer: Viewer,
    expected: int | None,
    yes: bool,
    now: dt.datetime,
) -> str:
    """Answer a team's "Finish the match", asked on ``expected`` games (P-K6): yes writes the result
    (K1, K2), no lets the match go on.

    Raises:
        Refused: a student of the team that asked answering it.
        Stale: nobody is asking now, the games changed since the page was shown, the result is
            already in, or the match is closed.
    """
    _claim(tournament, match)
    play = _play(tournament, match, now)
    names = _names(Board(tournament), match)
    asker = play.finish_asked
    if not play.finish_waits or asker is None:
        raise _stale("Nobody is asking to finish this match now. Nothing was changed.")
    if expected != len(play.games):
        raise _stale(
            "The games changed since that page was shown: check them, then answer again. Nothing was changed."
        )
    if viewer.side is asker:
        raise Refused(
            f"Your team asked to finish the match: {names[asker.other]} answers (or your teacher). Nothing was changed."
        )
    if yes:
        return _write_result(tournament, match, play, viewer, now)
    db.session.execute(
        update(TournamentMatch)
        .where(TournamentMatch.id == match.id, TournamentMatch.entered_at.is_(None))
        .values(finish_asked_at=None, finish_asked_by_id=None, finish_asked_team_id=None)
        .execution_options(synchronize_session=False)
    )
    db.session.commit()
    return f"Not finished: the match goes on. {names[asker]} may ask again later."


def _score(play: MatchPlay, names: dict[Side, str]) -> str:
    """ "Team 1 2–1 Team 2, 1 tied": the games that stand and count (K1, K2)."""
    tied = f", {play.tied} tied" if play.tied else ""
    return f"{names[Side.A]} {play.a_wins}–{play.b_wins} {names[Side.B]}{tied}"


def _write_result(
    tournament: Tournament,
    match: TournamentMatch,
    play: MatchPlay,
    viewer: Viewer,
    now: dt.datetime,
) -> str:
    """The match result from the games that stand and were recorded by the bell (K1, K2), written
    once, as the teacher's typed result is, unless that came first (P-K6).

    Raises:
        Stale: the result is already in.
    """
    changed = changed_rows(
        update(TournamentMatch)
        .where(
            TournamentMatch.id == match.id,
            TournamentMatch.round == tournament.round,
            TournamentMatch.entered_at.is_(None),
        )
        .values(
            **play.finish_columns(),
            entered_at=now,
            entered_by=EnteredBy.APP,
            finish_confirmed_by_id=viewer.user.id,
        )
        .execution_options(synchronize_session=False)
    )
    if changed != 1:
        raise _stale("This match's result is already in. Nothing was changed.")
    closed = live_games.close_waiting(match.id, None, now)  # no game is due any more (P-K9)
    db.session.commit()
    live_games.announce(closed)
    db.session.refresh(match)
    board = Board(tournament)
    late = (
        f" ({play.late} game{'' if play.late == 1 else 's'} after the bell not counted)"
        if play.late
        else ""
    )
    return f"Match over: {board.describe_match(match)}{late}. The result is on the teacher's page."


# A game due may be played on the teams' own devices (P-K8 to P-K10): its view and its recording.
from . import live_games  # noqa: E402
