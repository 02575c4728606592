"""Combo 1 against a computer team: a morning or an afternoon round of the Level 1 games (K1, K2, R2).

A match deals its games one at a time as ordinary rounds of their modes (a Border-Up round, a
State IQ game, a Dashing States round, a Play the Ranks drill), so each is played, judged and
recorded in the memory model exactly as on its own page; the match keeps only which rows are its
games (:class:`ComboMatchGame`), its clock and its result. The rules of order, who starts and who
won are :mod:`trainer.games.combo`'s.

The round clock starts when the first game is dealt and runs in real time on the server. A game
not finished when the bell rings does not count (K2); the student may also stop the match early,
which rings the bell at once.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
from dataclasses import dataclass
from typing import Any

from flask import flash, redirect, render_template, url_for
from flask_login import current_user
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from trainer.games.combo import (
    ROUND_SECONDS,
    STARTER_FROM,
    ComboGame,
    GameResult,
    MatchFormat,
    Side,
    computer_pick,
    counted,
    first_player,
    match_winner,
    needs_draw,
    next_game,
    score,
    statehood_draw,
    ties,
)
from trainer.quiz.state_iq import Side as IqSide
from trainer.results import Result

from .. import get_deck
from ..extensions import db
from ..guards import Refused, Stale, nothing_changed
from ..models import (
    BorderUpRound,
    CardGame,
    ComboMatch,
    ComboMatchGame,
    DashingRound,
    StateIqGame,
    User,
    utcnow,
)
from ..modes import Access, NavLink, Records, Rounds, WebMode, register
from ..security import student_required
from . import border_up, dashing
from .common import current_student, own_or_404
from .forms import ComboPickForm, ComboStepForm, NewComboForm
from .games import new_card_game
from .routes import after_deal, bp, new_state_iq

#: Matches listed on the Combo 1 page.
HISTORY = 20

#: A pick sent to a morning match, or once both games are picked.
ALREADY_PICKED = "The games of this match are already picked; nothing changed."
#: A deal sent twice, or from a page shown before the last deal.
DEALT_OR_OUT_OF_DATE = "That game was already dealt (or the page was out of date); nothing changed."
#: A deal that lost the race to another one (the position's unique key refused it).
ALREADY_DEALT = "That game was already dealt; nothing changed."
#: A deal or a stop sent once the bell has rung.
BELL_RUNG = "The bell has rung: this match is over."
ALREADY_OVER = "This match is already over; nothing changed."
#: A deal or a stop whose form does not read (no CSRF token, say).
OUT_OF_DATE = "The page was out of date; nothing changed. Try again."
PICK_FIRST = "Pick the games first."

#: Each game's row and page.
_ROWS: dict[ComboGame, Any] = {
    ComboGame.BORDER_UP: BorderUpRound,
    ComboGame.STATE_IQ: StateIqGame,
    ComboGame.DASHING_STATES: DashingRound,
    ComboGame.PLAY_THE_RANKS: CardGame,
}
_PAGES = {
    ComboGame.BORDER_UP: "play.border_up_round",
    ComboGame.STATE_IQ: "play.state_iq_game",
    ComboGame.DASHING_STATES: "play.dashing_round",
    ComboGame.PLAY_THE_RANKS: "play.game_table",
}
_WINNER: dict[str, Side | None] = {
    Result.WON: Side.A,
    Result.LOST: Side.B,
    Result.TIED: None,
    Result.DRAWN: None,
}


@dataclass(frozen=True)
class PlayedGame:
    """A game of the match as the match page shows it."""

    number: int
    game: ComboGame
    #: The game's own row (its page's token).
    token: str
    #: Who started and why ("You won Border-Up, so you guess first."), or None for a race.
    start: str | None
    #: The result once the game is over (None while it is being played).
    result: GameResult | None
    #: Whether it counts: finished by the bell (K2).
    counts: bool

    @property
    def url(self) -> str:
        """The game's page (built when a page asks for it, so a service may compute a match's
        view without a request)."""
        return url_for(_PAGES[self.game], token=self.token)

    @property
    def clock(self) -> str:
        """When in the round the game ended, as m:ss."""
        if self.result is None or self.result.finished_at is None:
            return ""
        seconds = int(self.result.finished_at)
        return f"{seconds // 60}:{seconds % 60:02d}"

    @property
    def outcome(self) -> str:
        if self.result is None:
            return "Being played"
        if self.result.winner is None:
            return "A tie"
        return "You won" if self.result.winner is Side.A else "The computer team won"


@dataclass(frozen=True)
class MatchView:
    """Everything the match page needs, computed from the stored games and the clock."""

    match: ComboMatch
    games: list[PlayedGame]
    #: The game being played now (not finished), if any.
    current: PlayedGame | None
    #: The game to deal next, when one may be dealt.
    upcoming: ComboGame | None
    over: bool
    wins: dict[Side, int]
    tied: int
    #: Seconds left on the clock (None before it starts).
    seconds_left: float | None


def _format(match: ComboMatch) -> MatchFormat:
    return MatchFormat(match.format)


def _picks(match: ComboMatch) -> tuple[ComboGame, ComboGame] | None:
    if not match.picks or len(match.picks) < 2:
        return None
    return ComboGame(match.picks[0]), ComboGame(match.picks[1])


def _entries(match: ComboMatch) -> list[ComboMatchGame]:
    return list(
        db.session.execute(
            select(ComboMatchGame)
            .where(ComboMatchGame.match_id == match.id)
            .order_by(ComboMatchGame.position)
        ).scalars()
    )


def _outcome(entry: ComboMatchGame) -> tuple[bool, Side | None, dt.datetime | None]:
    """Whether the entry's game is over, who won it, and when it ended (races are settled first)."""
    game = ComboGame(entry.game)
    row = db.session.execute(
        select(_ROWS[game]).where(_ROWS[game].token == entry.token)
    ).scalar_one()
    if game is ComboGame.BORDER_UP:
        border_up.settle(row)
        at = border_up.finished_at(row)
    elif game is ComboGame.DASHING_STATES:
        dashing.settle(row)
        at = dashing.finished_at(row)
    else:
        at = row.finished_at
    if row.result not in _WINNER or at is None:
        return False, None, None
    return True, _WINNER[row.result], at


#: What the side that starts a game does (the games an earlier game's winner starts, P-K2).
_STARTS = {ComboGame.STATE_IQ: "guess first", ComboGame.PLAY_THE_RANKS: "lead the first trick"}


def _start_sentence(game: ComboGame, first_side: str | None) -> str | None:
    if game not in STARTER_FROM:
        return None
    source, verb = STARTER_FROM[game].label, _STARTS[game]
    if first_side is None:
        return (
            f"The statehood draw decides who will {verb} (the game before was not a won {source})."
        )
    if first_side == Side.A.value:
        return f"You won {source}, so you {verb}."
    return f"The computer team won {source}, so it will {verb}."


def bell_rung(match: ComboMatch, now: dt.datetime) -> bool:
    """Whether the match is over at ``now``: its result is settled, or its bell has rung (P-K7)."""
    return match.result != Result.PLAYING or (match.bell_at is not None and now >= match.bell_at)


def seconds_left(match: ComboMatch, now: dt.datetime) -> float | None:
    """Seconds to the bell at ``now`` (0 once it has rung), or None before the clock starts
    (P-K7). The match page and its games' pages show this one reading."""
    return None if match.bell_at is None else max(0.0, (match.bell_at - now).total_seconds())


def view(match: ComboMatch, now: dt.datetime | None = None) -> MatchView:
    """The match as it stands at ``now``; once the bell has rung, its result is stored (K1)."""
    now = now or utcnow()
    fmt = _format(match)
    bell = match.bell_at
    over = bell_rung(match, now)
    played: list[PlayedGame] = []
    results: list[GameResult] = []
    current = None
    for entry in _entries(match):
        game = ComboGame(entry.game)
        done, winner, at = _outcome(entry)
        result = None
        if done and at is not None and match.started_at is not None:
            result = GameResult(game, winner, max(0.0, (at - match.started_at).total_seconds()))
            results.append(result)
        counts = result is not None and bell is not None and at is not None and at <= bell
        item = PlayedGame(
            entry.position + 1,
            game,
            entry.token,
            _start_sentence(game, entry.first_side),
            result,
            counts,
        )
        played.append(item)
        if result is None:
            current = item
    bell_seconds = (bell - match.started_at).total_seconds() if bell and match.started_at else None
    kept = counted(results, bell_seconds) if bell_seconds is not None else []
    if over and match.result == Result.PLAYING:
        winner = match_winner(kept)
        match.result = (
            Result.TIED if winner is None else (Result.WON if winner is Side.A else Result.LOST)
        )
        db.session.commit()
    upcoming = None
    if not over and current is None and (fmt is MatchFormat.MORNING or _picks(match) is not None):
        upcoming = next_game(fmt, results, _picks(match))
    left = seconds_left(match, now)
    return MatchView(match, played, current, upcoming, over, score(kept), ties(kept), left)


def combo_for(token: str) -> dict[str, Any] | None:
    """For a game's page: the match it belongs to (the signed-in student's), if any, with the
    round clock as the match page shows it (``seconds_left`` is None once the bell has rung)."""
    if not getattr(current_user, "is_authenticated", False):
        return None
    found = db.session.execute(
        select(ComboMatchGame, ComboMatch)
        .join(ComboMatch, ComboMatch.id == ComboMatchGame.match_id)
        .where(ComboMatchGame.token == token, ComboMatch.student_id == current_user.id)
    ).first()
    if found is None:
        return None
    entry, match = found
    game = ComboGame(entry.game)
    now = utcnow()
    rung = bell_rung(match, now)
    finished = _outcome(entry)[0]
    return {
        "url": url_for("play.combo_match", token=match.token),
        "number": entry.position + 1,
        "label": game.label,
        "round": "morning" if match.format == MatchFormat.MORNING.value else "afternoon",
        "start": _start_sentence(game, entry.first_side),
        "decided": entry.first_side is not None,
        "bell_rung": rung,
        "seconds_left": None if rung else seconds_left(match, now),
        # What the clock says when it reaches the bell on the game's page (it does not reload it).
        "bell_text": (
            "The bell has rung: the match is over."
            if finished
            else "The bell has rung: this game no longer counts."
        ),
    }


@bp.app_context_processor
def _combo_helpers() -> dict[str, Any]:
    return {"combo_for": combo_for}


# --- pages -----------------------------------------------------------------------------------------


@bp.get("/combo/")
@student_required
def combo_index() -> str:
    """How a Combo 1 match works, a round and a level, and past matches."""
    return _render_index(NewComboForm())


def _render_index(form: NewComboForm) -> str:
    matches = (
        db.session.execute(
            select(ComboMatch)
            .where(ComboMatch.student_id == current_user.id)
            .order_by(ComboMatch.created_at.desc(), ComboMatch.id.desc())
            .limit(HISTORY)
        )
        .scalars()
        .all()
    )
    now = utcnow()
    for match in matches:  # a bell that rang while no one was looking: the result is decided now
        if match.result == Result.PLAYING and bell_rung(match, now):
            view(match, now)
    return render_template("play/combo_index.html", form=form, matches=matches)


@bp.post("/combo/")
@student_required
def combo_new() -> str | Response | tuple[str, int]:
    """A new match: the statehood draw and, in the afternoon, the computer's pick if it won the draw."""
    form = NewComboForm()
    if not form.validate():
        return _render_index(form), 400
    seed = secrets.randbits(62)
    a, b, winner = statehood_draw(get_deck(), random.Random(f"combo-draw:{seed}"))
    match = ComboMatch(
        token=secrets.token_urlsafe(18),
        student_id=current_user.id,
        format=form.format.data,
        level=form.level.data,
        seed=seed,
        draw={"a": a.postal, "b": b.postal, "winner": winner.value},
        picks=None,
        created_at=utcnow(),
        result=Result.PLAYING,
    )
    if match.format == MatchFormat.AFTERNOON.value and winner is Side.B:
        match.picks = [computer_pick(seed, ()).value]
    db.session.add(match)
    db.session.commit()
    return redirect(url_for("play.combo_match", token=match.token))


@bp.get("/combo/<token>")
@student_required
def combo_match(token: str) -> str:
    """The match: the clock, the draw and picks, each game's result, and the next game."""
    match = own_or_404(ComboMatch, token)
    return _render_match(view(match))


def _render_match(state: MatchView, pick_form: ComboPickForm | None = None) -> str:
    deck = get_deck()
    match = state.match
    picks = _picks(match)
    taken = _taken(match)
    pick_form = pick_form or ComboPickForm()
    pick_form.offer(taken)
    return render_template(
        "play/combo.html",
        view=state,
        match=match,
        draw={side: deck[match.draw[side]] for side in ("a", "b")},
        draw_winner=Side(match.draw["winner"]),
        picks=picks,
        taken=taken,
        pick_form=pick_form,
        step_form=ComboStepForm(position=str(len(state.games))),
        you=state.wins[Side.A],
        computer=state.wins[Side.B],
        minutes=ROUND_SECONDS[_format(match)] // 60,
        afternoon=match.format == MatchFormat.AFTERNOON.value,
    )


def _taken(match: ComboMatch) -> list[ComboGame]:
    """The games picked so far (the computer's, when it won the draw of an afternoon round)."""
    return [ComboGame(g) for g in match.picks or []]


def _check_pickable(match: ComboMatch) -> None:
    """Raises Stale unless the match is an afternoon round still waiting for the student's pick."""
    if match.format != MatchFormat.AFTERNOON.value or _picks(match) is not None:
        raise Stale(ALREADY_PICKED)


def play_combo_pick(match: ComboMatch, game: ComboGame, student: User, now: dt.datetime) -> None:
    """Keep the student's pick in an afternoon round, and the computer's second pick when the
    student picked first (K2). The match is the student's own (the view loaded it); ``student``
    and ``now`` are taken as every ``play_*`` takes them, though a pick depends on neither.

    Raises:
        Stale: a morning match, or both games already picked (a pick sent twice).
        Refused: the computer picked ``game`` already (the form's choices leave it out).
    """
    _check_pickable(match)
    taken = _taken(match)
    if game in taken:
        raise Refused("Not a valid choice.")
    if taken:  # the computer won the draw and picked first
        picks = [taken[0].value, game.value]
    else:
        picks = [game.value, computer_pick(match.seed, (game,)).value]
    match.picks = picks
    db.session.commit()


@bp.post("/combo/<token>/pick")
@student_required
def combo_pick(token: str) -> str | Response | tuple[str, int]:
    """The student's pick in an afternoon round: first if they won the draw, else second (K2)."""
    match = own_or_404(ComboMatch, token)
    here = url_for("play.combo_match", token=token)
    form = ComboPickForm()
    try:
        _check_pickable(match)  # before the form: a second pick changes nothing, whatever it says
        form.offer(_taken(match))
        if not form.validate():
            return _render_match(view(match), form), 400
        play_combo_pick(match, form.pick(), current_student(), utcnow())
    except Stale as stale:
        return nothing_changed(str(stale), here, stale.category)
    except Refused as refused:
        form.game.errors = [str(refused)]
        return _render_match(view(match), form), 400
    return redirect(here)


def deal_next_game(
    match: ComboMatch, position: int | None, student: User, now: dt.datetime
) -> ComboMatchGame:
    """Deal the match's next game as a round of its own mode, at ``position`` (the number of games
    the page was shown with), starting the clock with the first one; return the match's entry.

    Who starts follows the game before (P-K2) or the statehood draw (R2). The deal and its entry
    are one commit; a State IQ game then lets the computer guess first.

    Raises:
        Stale: ``position`` is not the number of games dealt (a deal sent twice, an old page),
            another deal got there first, or the bell has rung.
        Refused: no game may be dealt now (one is being played, or the games are not picked).
    """
    state = view(match, now)
    if position is None or position != len(state.games):
        raise Stale(DEALT_OR_OUT_OF_DATE)
    if state.upcoming is None:
        if state.over:
            raise Stale(BELL_RUNG)
        if state.current is not None:
            raise Refused(f"Finish game {state.current.number} ({state.current.game.label}) first.")
        raise Refused(PICK_FIRST)
    game = state.upcoming
    finished = [g.result for g in state.games if g.result is not None]
    first = None if needs_draw(game, finished) else first_player(game, finished)
    if match.started_at is None:
        match.started_at = now
        match.bell_at = now + dt.timedelta(seconds=ROUND_SECONDS[_format(match)])
    if game is ComboGame.BORDER_UP:
        row: Any = border_up.new_border_up(student, match.level)
    elif game is ComboGame.DASHING_STATES:
        row = dashing.new_dashing(student, match.level)
    elif game is ComboGame.STATE_IQ:
        iq_first = (
            None if first is None else (IqSide.STUDENT if first is Side.A else IqSide.COMPUTER)
        )
        row = new_state_iq(student, match.level, False, first=iq_first)
    else:
        leader = None if first is None else (0 if first is Side.A else 1)
        row = new_card_game(student.id, game.value, 2, 1, match.level, True, first_leader=leader)
    db.session.flush()
    entry = ComboMatchGame(
        match_id=match.id,
        position=len(state.games),
        game=game.value,
        token=row.token,
        first_side=None if first is None else first.value,
        created_at=now,
    )
    db.session.add(entry)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise Stale(ALREADY_DEALT) from None
    if game is ComboGame.STATE_IQ:
        after_deal(row)  # the computer may guess first
    return entry


@bp.post("/combo/<token>/next")
@student_required
def combo_next(token: str) -> Response:
    """Deal the next game (the first one starts the clock) and go to its page."""
    match = own_or_404(ComboMatch, token)
    here = url_for("play.combo_match", token=token)
    form = ComboStepForm()
    position = form.position_number() if form.validate() else None
    try:
        entry = deal_next_game(match, position, current_student(), utcnow())
    except Stale as stale:
        return nothing_changed(str(stale), here, stale.category)
    except Refused as refused:
        flash(str(refused), "info")
        return redirect(here)
    return redirect(url_for(_PAGES[ComboGame(entry.game)], token=entry.token))


def stop_match(match: ComboMatch, now: dt.datetime) -> None:
    """Ring the bell at ``now``: the games finished so far decide the match, and its result is
    stored (K1, K2).

    Raises:
        Stale: the match is over already (stopped before, or the bell has rung).
    """
    if bell_rung(match, now):
        raise Stale(ALREADY_OVER)
    if match.started_at is None:
        match.started_at = now
    match.bell_at = now
    db.session.commit()
    view(match, now)


@bp.post("/combo/<token>/stop")
@student_required
def combo_stop(token: str) -> Response:
    """Ring the bell now: the games finished so far decide the match (K1, K2)."""
    match = own_or_404(ComboMatch, token)
    here = url_for("play.combo_match", token=token)
    if not ComboStepForm().validate():
        return nothing_changed(OUT_OF_DATE, here)
    try:
        stop_match(match, utcnow())
    except Stale as stale:
        return nothing_changed(str(stale), here, stale.category)
    flash("You stopped the match: the games finished so far decide it.", "info")
    return redirect(here)


register(
    WebMode(
        "combo",
        NavLink("Combo 1", "play.combo_index", 60, prefix="play.combo"),
        # A match records no answers of its own (its games do, under their modes) and cannot be
        # assigned: its rounds are for the demo school, which writes the simulated matches.
        # Finished: the bell has rung and the result is settled (K1, K2).
        rounds=Rounds(
            ComboMatch,
            ComboMatch.bell_at,
            "combo",
            "combo_matches",
            where=(ComboMatch.result != Result.PLAYING,),
        ),
        records=Records(ComboMatch, "Combo 1 match"),
        access=(
            ("play.combo_index", Access.STUDENTS),
            ("play.combo_new", Access.STUDENTS),
            ("play.combo_match", Access.STUDENT_OWN),
            ("play.combo_pick", Access.STUDENT_OWN),
            ("play.combo_next", Access.STUDENT_OWN),
            ("play.combo_stop", Access.STUDENT_OWN),
        ),
    )
)
