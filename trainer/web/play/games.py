"""Card games against computer players: every game in :data:`trainer.games.REGISTRY`.

The server is the only judge. A game is stored as its seed and every action; each request
rebuilds the state by replay, checks the student's move, plays the computer seats, and renders
only what the student's seat may see (``observation(0)`` plus the public log). A move names the
game's version (its number of actions): a stale, replayed or forged move changes nothing.

In drill mode the rankings the student has met are hidden on their cards and every ranking the
student supplies is a review in the memory model (see :mod:`trainer.games.drill`); a ranking not
yet met is shown and not asked (D-H1), and a peek at a hidden one is a miss (D-H3).
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask_login import current_user
from sqlalchemy import func, select, update
from werkzeug.wrappers import Response

from trainer import srs
from trainer.assignments import Scope
from trainer.facts import Fact, Form, dont_know
from trainer.games import (
    REGISTRY,
    Game,
    GameError,
    IllegalAction,
    Level,
    Params,
    State,
    make_game,
    play_computer_turns,
    replay,
)
from trainer.games.drill import (
    DrillAnswer,
    DrillQuestion,
    RefusedPlay,
    UnreadableAnswer,
    ranking_facts,
    taught_answers,
)
from trainer.modes import Mode
from trainer.results import Result, card_game_result

from .. import get_deck
from ..extensions import changed_rows, db
from ..guards import Refused, Stale, nothing_changed, whole_number
from ..kept import Kept
from ..memory import atomically, introduced_keys, record
from ..models import CardGame, ReviewLog, User, utcnow
from ..modes import Access, Dealt, NavLink, Records, Rounds, WebMode, register
from ..security import student_required
from .common import GAME_OVER, TABLE_MOVE_MADE, current_student, own_or_404
from .forms import CardGameMoveForm, NewCardGameForm, TableMove
from .routes import bp

#: The ``mode`` each game's drill answers carry in the review log.
MODES = {slug: cls.log_mode for slug, cls in REGISTRY.games.items()}
TITLES = {slug: cls.title for slug, cls in REGISTRY.games.items()}
HISTORY = 20
#: A peek at a ranking that is not hidden at the table (D-H3).
NOTHING_TO_PEEK = "That ranking is not hidden at your table now, so there is nothing to peek at."
#: A peek sent again (D-H3).
ALREADY_PEEKED = "You have already seen that ranking on this move; nothing changed."
#: A move with no number for a ranking that is hidden and asked (D-H1): the plain move's form.
MISSING_RANK = (
    "The {facet} ranking of {card} is hidden at your table: type it with the play "
    "(or Peek at it first)."
)
#: Log lines shown at the table.
LOG_SHOWN = 40

# Rebuilt states by (token, ply): a long Geography War is thousands of actions to replay.
_CACHE: Kept[tuple[str, int], State] = Kept(64)


# --- the games page ------------------------------------------------------------------------


@bp.get("/games/")
@student_required
def games_index() -> str:
    """Pick a game, the players, teams and level; resume an unfinished game; see past results."""
    return _render_index(NewCardGameForm())


def met_rankings(student: User) -> set[str]:
    """The keys of the ranking facts (and Zones) the student has met: those their memory has a
    card for (D-H1)."""
    reviewed = {facet for cls in REGISTRY.games.values() for facet in cls.reviews}
    return {key for key in introduced_keys(student) if Fact.from_key(key).facet in reviewed}


def _render_index(form: NewCardGameForm) -> str:
    mine = CardGame.student_id == current_user.id
    unfinished = (
        db.session.execute(
            select(CardGame)
            .where(mine, CardGame.result == Result.PLAYING)
            .order_by(CardGame.updated_at.desc())
            .limit(HISTORY)
        )
        .scalars()
        .all()
    )
    finished = (
        db.session.execute(
            select(CardGame)
            .where(mine, CardGame.result != Result.PLAYING)
            .order_by(CardGame.finished_at.desc())
            .limit(HISTORY)
        )
        .scalars()
        .all()
    )
    rows = db.session.execute(
        select(CardGame.game, CardGame.level, CardGame.result, func.count())
        .where(mine, CardGame.result != Result.PLAYING)
        .group_by(CardGame.game, CardGame.level, CardGame.result)
    ).all()
    record_table: dict[tuple[str, str], dict[str, int]] = {}
    for game, level, result, count in rows:
        record_table.setdefault((game, level), {Result.WON: 0, Result.LOST: 0, Result.DRAWN: 0})[
            result
        ] = count
    return render_template(
        "play/games_index.html",
        form=form,
        unfinished=unfinished,
        finished=finished,
        record=sorted(record_table.items()),
        titles=TITLES,
        met_any=bool(met_rankings(current_student())),
    )


@bp.post("/games/")
@student_required
def games_new() -> str | Response | tuple[str, int]:
    """Deal a new game; the computer seats play until it is the student's turn."""
    form = NewCardGameForm()
    if not form.validate():
        return _render_index(form), 400
    slug = form.game.data
    players = whole_number(form.players.data) or 2
    team_size = whole_number(form.team_size.data) or 1
    if REGISTRY[slug].max_players == 2:
        players, team_size = 2, 1  # a game for two sides; the form says so
    try:
        row = new_card_game(
            current_user.id, slug, players, team_size, form.level.data, bool(form.drill.data)
        )
    except GameError as refused:
        form.team_size.errors = [str(refused)]
        return _render_index(form), 400
    db.session.commit()
    return redirect(url_for("play.game_table", token=row.token, since=0))


def new_card_game(
    student_id: int,
    slug: str,
    players: int,
    team_size: int,
    level: str,
    drill: bool,
    first_leader: int | None = None,
) -> CardGame:
    """Deal a game and play the computer seats up to the student's turn (added to the session, not committed).

    ``first_leader`` is the seat that leads first when an earlier game decided it (Play the
    Ranks after Dashing States in a Combo 1 match); None lets the game's own draw decide (R2).

    Raises:
        GameError: the game cannot be played with these players and teams.
    """
    game = make_game(slug, get_deck(), Params(players, team_size, first_leader))
    seed = new_seed()
    row = CardGame(
        token=secrets.token_urlsafe(12),
        student_id=student_id,
        game=slug,
        players=players,
        team_size=team_size,
        level=level,
        drill=drill,
        seed=seed,
        actions=[],
        ply=0,
        first_leader=first_leader,
    )
    state = game.new_initial_state(seed)
    _computer_turns(row, state)
    for key, value in _stored(state).items():
        setattr(row, key, value)
    db.session.add(row)
    _remember(row.token, state)
    return row


def new_seed() -> int:
    """A fresh game's seed (G9): drawn by the operating system, stored, and replayed from then on."""
    return secrets.randbits(48)


# --- the table -----------------------------------------------------------------------------


@bp.get("/games/<token>")
@student_required
def game_table(token: str) -> str:
    row = own_or_404(CardGame, token)
    state = _load(row)
    since = request.args.get("since", type=int)
    return render_template("play/game_table.html", **_table(row, state, since))


@bp.post("/games/<token>")
@student_required
def game_move(token: str) -> Response:
    """The student's move: checked, drill answers judged and recorded, then the computer seats play."""
    row = own_or_404(CardGame, token)
    here = url_for("play.game_table", token=token)
    form = CardGameMoveForm()
    try:
        check_card_game_open(row)
    except Stale as stale:
        return nothing_changed(str(stale), here, stale.category)
    if not form.validate():
        flash(" ".join(e for errors in form.errors.values() for e in errors), "error")
        return redirect(here)
    try:
        played = play_card_game_move(row, form.move(), current_student(), utcnow())
    except Stale as stale:
        return nothing_changed(str(stale), here, stale.category)
    except Refused as refused:
        flash(str(refused), "error")
        return redirect(here)
    _remember(row.token, played.state)
    drill_feedback(played.answers)
    return redirect(url_for("play.game_table", token=token, since=played.ply))


@dataclass(frozen=True)
class Played:
    """A move that was kept: the game after it (the computer seats played), the drill answers it
    carried, and the ply it was made on (the table shows what happened since)."""

    state: State
    answers: list[DrillAnswer]
    ply: int


def check_card_game_open(row: CardGame) -> None:
    """Refuse a move sent to a finished game.

    Raises:
        Stale: with ``GAME_OVER``.
    """
    if row.result != Result.PLAYING:
        raise Stale(GAME_OVER)


def play_card_game_move(row: CardGame, move: TableMove, student: User, now: dt.datetime) -> Played:
    """Play the student's ``move`` on the game ``row``: judge its drill answers, play it, let the
    computer seats play up to the student's next turn, and save the actions, the result and the
    drill answers in one unit.

    Raises:
        Stale: the game is over (``GAME_OVER``), or the move was made already or the page was
            out of date (``TABLE_MOVE_MADE``); nothing changed.
        Refused: the move is not allowed; nothing changed, except that a drill answer that
            refuses its play (a wrong number in GeoPlunge 51, a broken Zone) is recorded first,
            in a unit of its own, as it counts.
    """
    check_card_game_open(row)
    if move.ply != row.ply:
        raise Stale(TABLE_MOVE_MADE)
    state = _load(row)
    before = row.ply
    asked = asked_rankings(row, student)
    try:
        answers = _play(row, state, move, asked)
    except RefusedPlay as wrong:
        _record(row, before, wrong.answers, student, now)
        raise Refused(str(wrong)) from None
    except IllegalAction as refused:
        raise Refused(f"{refused} Nothing changed.") from None
    _computer_turns(row, state)
    game_id, values = row.id, _stored(state, now)

    def save_move() -> bool:
        """The move, the computer's turns and the drill answers, all or nothing; False if the
        move was made already."""
        saved = changed_rows(
            update(CardGame).where(CardGame.id == game_id, CardGame.ply == before).values(**values)
        )
        if saved != 1:
            return False
        _record(row, before, answers, student, now)
        return True

    if not atomically(save_move):
        raise Stale(TABLE_MOVE_MADE)
    return Played(state, answers, before)


@bp.post("/games/<token>/peek")
@student_required
def game_peek(token: str) -> Response:
    """A peek at one hidden ranking in drill mode: it is shown, and it counts as a miss (D-H3)."""
    row = own_or_404(CardGame, token)
    here = url_for("play.game_table", token=token)
    form = CardGameMoveForm()
    if not form.validate():
        flash(" ".join(e for errors in form.errors.values() for e in errors), "error")
        return redirect(here)
    try:
        ply, fact_key = form.peeked()
        peeked = play_card_game_peek(row, fact_key, ply, current_student(), utcnow())
    except Stale as stale:
        return nothing_changed(str(stale), here, stale.category)
    except Refused as refused:
        flash(str(refused), "error")
        return redirect(here)
    peek_feedback(peeked)
    return redirect(here)


def asked_rankings(row: CardGame, student: User) -> set[str]:
    """The keys of the facts a drill move on the game ``row`` asks about now (D-H1, D-H3): the
    rankings (and Zones) the student has met, less those peeked at on this move (a peek is
    recorded with no answer given; a wrong answer is asked again, D-F1). Empty without drill."""
    if not row.drill:
        return set()
    return asked_facts(student, f"game:{row.token}", row.ply)


def asked_facts(student: User, round_token: str, ply: int) -> set[str]:
    """The rankings (and Zones) a drill move at version ``ply`` of the game whose answers carry
    ``round_token`` asks the student about: those they have met, less those peeked at on this
    move (D-H1, D-H3). Shared by games against the computer and live tables."""
    met = met_rankings(student)
    if not met:
        return set()
    peeked = db.session.execute(
        select(ReviewLog.fact_key).where(
            ReviewLog.student_id == student.id,
            ReviewLog.round_token == round_token,
            ReviewLog.item.like(f"{ply}:%"),
            ReviewLog.answer == "",
        )
    ).scalars()
    return met - set(peeked)


def hidden_rankings(row: CardGame, state: State, student: User) -> set[str]:
    """The keys of the facts hidden at the student's table now: those of :func:`asked_rankings`
    on the student's cards (and Geography War's face-up cards) that the game's drill reviews.
    Empty without drill or once the game is over."""
    if not row.drill or state.is_terminal():
        return set()
    return hidden_on_cards(state, 0, asked_rankings(row, student))


def hidden_on_cards(state: State, seat: int, asked: set[str]) -> set[str]:
    """The facts of ``asked`` on the cards ``seat`` sees as theirs (its hand, and Geography War's
    face-up cards) that the game's drill reviews: what its table hides (D-H1)."""
    if state.is_terminal():
        return set()
    obs = state.observation(seat)
    cards = [*obs.get("hand", []), *obs.get("face_up", [])]
    facts = {f.key for f in ranking_facts(cards, type(state.game).reviews)}
    return asked & facts


def play_card_game_peek(
    row: CardGame, fact_key: str, ply: int | None, student: User, now: dt.datetime
) -> DrillAnswer:
    """Show the hidden ranking ``fact_key`` on the game ``row`` at version ``ply``: recorded as a
    miss (an "I don't know", verdict wrong) through the same path as a drill answer (D-H3).

    Raises:
        Stale: the game is over, the page was out of date, or this ranking was peeked at (or
            answered) on this move already; nothing changed.
        Refused: the ranking is not hidden at the student's table; nothing changed.
    """
    check_card_game_open(row)
    if ply != row.ply:
        raise Stale(TABLE_MOVE_MADE)
    return peek_at(
        student,
        fact_key,
        f"game:{row.token}",
        row.ply,
        lambda: hidden_rankings(row, _load(row), student),
        lambda answers: _record(row, row.ply, answers, student, now),
    )


def peek_at(
    student: User,
    fact_key: str,
    round_token: str,
    ply: int,
    hidden: Callable[[], set[str]],
    save: Callable[[list[DrillAnswer]], int],
) -> DrillAnswer:
    """A peek at the hidden ranking ``fact_key`` on the move at version ``ply`` of a game whose
    answers carry ``round_token``: kept by ``save`` as the miss it counts as (D-H3). ``hidden``
    gives the facts hidden at the student's table now. Shared by games against the computer and
    live tables.

    Raises:
        Stale: this ranking was peeked at (or answered) on this move already; nothing changed.
        Refused: the ranking is not hidden at the student's table; nothing changed.
    """
    if fact_key in met_rankings(student) and answered(student, round_token, ply, fact_key):
        raise Stale(ALREADY_PEEKED)
    if fact_key not in hidden():
        raise Refused(NOTHING_TO_PEEK)
    fact = Fact.from_key(fact_key)
    peeked = DrillAnswer(fact, Form.TYPED, dont_know(fact, get_deck()))
    if not save([peeked]):
        raise Stale(ALREADY_PEEKED)
    return peeked


def peek_feedback(peeked: DrillAnswer) -> None:
    """Show the student the ranking they peeked at, and that it counts as a miss (D-H3)."""
    card = get_deck()[peeked.fact.postal]
    flash(
        f"{card.name}: {peeked.fact.facet.value} {peeked.judgement.expected}. You peeked, so it "
        "counts as one to practise; it comes back in your study soon.",
        "info",
    )


def answered(student: User, round_token: str, ply: int, fact_key: str) -> bool:
    """Whether ``fact_key`` was answered or peeked at on the move at version ``ply`` of the game
    whose answers carry ``round_token``."""
    return (
        db.session.execute(
            select(ReviewLog.id).where(
                ReviewLog.student_id == student.id,
                ReviewLog.round_token == round_token,
                ReviewLog.item == f"{ply}:{fact_key}",
            )
        ).first()
        is not None
    )


def _play(row: CardGame, state: State, move: TableMove, asked: set[str]) -> list[DrillAnswer]:
    """Apply the student's move to ``state`` and return the drill answers it carried.

    Nothing is written here: the caller saves the move and its answers in one unit of work. In
    drill mode only the facts in ``asked`` are asked (D-H1).

    Raises:
        RefusedPlay: the play is refused but its judged drill answers count (the caller
            records them); ``state`` is unchanged.
        IllegalAction: the move is refused; ``state`` is unchanged.
    """
    if state.current_player() != 0:
        raise IllegalAction("It is not your turn.")
    if not row.drill and move.battles and state.play_batch(move.battles):
        return []
    action = move.action
    if action is None:
        raise IllegalAction("Choose a move.")
    state.decode(action)  # a number that is no move at all is refused as such
    answers: list[DrillAnswer] = []
    if row.drill:
        answers = drill_answers(state, action, move, asked)
    state.apply_action(action)
    return answers


def drill_answers(
    state: State, action: int, move: TableMove, asked: set[str], seat: int = 0
) -> list[DrillAnswer]:
    """Judge what the student at ``seat`` said with a drill move (the game asks its own
    questions); an unreadable answer refuses the move (nothing recorded).

    Raises:
        RefusedPlay: the play is refused, but its judged answers count.
        IllegalAction: the move is refused (a card not in the hand, an unreadable answer).
    """
    card = state.decode(action).card_played()
    if card is not None and card not in state.observation(seat).get("hand", [card]):
        raise IllegalAction("That card is not in your hand.")

    def answer(question: DrillQuestion) -> str:
        said = move.answer(question)
        if not question.choices and not said.strip():
            # the plain move's form, sent for a ranking that is hidden and asked (D-H1)
            named = get_deck()[question.fact.postal].name
            raise UnreadableAnswer(MISSING_RANK.format(card=named, facet=question.fact.facet.value))
        return said

    try:
        return taught_answers(state, action, answer, asked)
    except UnreadableAnswer as unreadable:
        raise IllegalAction(str(unreadable)) from None


def _computer_turns(row: CardGame, state: State) -> None:
    level = Level(row.level)
    play_computer_turns(state, {seat: level for seat in range(1, row.players)}, row.seed)


def _stored(state: State, now: dt.datetime | None = None) -> dict[str, Any]:
    """The columns that record ``state``: its actions, version and, at the end, the result."""
    now = now or utcnow()
    values: dict[str, Any] = {
        "actions": list(state.history),
        "ply": len(state.history),
        "updated_at": now,
    }
    if state.is_terminal():
        returns = state.returns()
        values["result"] = card_game_result(returns)
        values["finished_at"] = now
    return values


def _record(
    row: CardGame, ply: int, answers: list[DrillAnswer], student: User, now: dt.datetime
) -> int:
    """Record drill answers in the memory model and the game's tally: only the first answer per
    fact and move counts. One unit of work: the move's, or one of its own for a refused play.

    Returns how many answers counted (0 when every one was recorded already)."""
    game_id = row.id

    def tally(answer: DrillAnswer) -> None:
        db.session.execute(
            update(CardGame)
            .where(CardGame.id == game_id)
            .values(
                drill_answers=CardGame.drill_answers + 1,
                drill_right=CardGame.drill_right + int(answer.right),
            )
        )

    return record_drill(answers, student, MODES[row.game], f"game:{row.token}", ply, now, tally)


def record_drill(
    answers: list[DrillAnswer],
    student: User,
    mode: str,
    round_token: str,
    ply: int,
    now: dt.datetime,
    tally: Callable[[DrillAnswer], None] | None = None,
) -> int:
    """Record drill answers given at version ``ply`` of a game whose answers carry
    ``round_token``: only the first answer per fact and move counts (``tally`` is called for each
    that did). One unit of work: the move's, or one of its own for a refused play.

    Returns how many answers counted (0 when every one was recorded already)."""
    if not answers:
        return 0
    outcomes = [
        srs.Outcome(
            fact_key=answer.fact.key,
            verdict=answer.judgement.verdict,
            mode=mode,
            form=answer.form,
            round_token=round_token,
            item=f"{ply}:{answer.fact.key}",
            answer=answer.judgement.given[:200],
        )
        for answer in answers
    ]

    def save_answers() -> int:
        counted = 0
        for answer, outcome in zip(answers, outcomes):
            if record(student, outcome, now).created:
                counted += 1
                if tally is not None:
                    tally(answer)
        return counted

    return atomically(save_answers)


def drill_feedback(answers: list[DrillAnswer]) -> None:
    """Tell the student how their drill answer went, with the fact behind it."""
    if not answers:
        return
    first = answers[0].judgement
    if all(answer.right for answer in answers):
        flash(f"Right! {first.note}".strip(), "success")
    else:
        flash(
            f"Not this time: you said “{first.given}”; the answer is “{first.expected}”. {first.note}".strip(),
            "error",
        )


# --- replay, with a small cache -----------------------------------------------------------


def _game(row: CardGame) -> Game:
    return make_game(row.game, get_deck(), Params(row.players, row.team_size, row.first_leader))


def _load(row: CardGame) -> State:
    cached = _CACHE.get((row.token, row.ply))
    if cached is not None:
        return cached.clone()
    state = replay(_game(row), row.seed, row.actions)
    _remember(row.token, state)
    return state


def _remember(token: str, state: State) -> None:
    _CACHE.put((token, len(state.history)), state.clone())


# --- what the student sees -----------------------------------------------------------------


def _table(row: CardGame, state: State, since: int | None) -> dict[str, Any]:
    """Everything the table template needs, built from the student's observation and the public log.

    ``hide_ranks`` holds the keys of the facts hidden on the student's cards (D-H1): empty
    without drill, and the game's drill view is used only while something is hidden.
    ``asks(postal, category)`` (a category, or a slug such as ``"zone"``) says whether a move
    with that card asks about that fact: the page shows the drill control (type the rank, make
    the call) for it, and the plain control otherwise (D-H1)."""
    deck = get_deck()
    obs = state.observation(0)
    your_turn = state.current_player() == 0
    hidden = hidden_rankings(row, state, current_student())
    log = [event for event in state.log if event.ply >= _log_start(state)]
    fresh = [event for event in log if since is not None and event.ply >= since]
    view: dict[str, Any] = {
        "row": row,
        "title": TITLES[row.game],
        "obs": obs,
        "your_turn": your_turn,
        "over": state.is_terminal(),
        "log": log[-LOG_SHOWN:],
        "fresh": fresh,
        "form": CardGameMoveForm(formdata=None),
        "hand": [deck[p] for p in obs.get("hand", [])],
        "hide_ranks": frozenset(hidden),
        "asks": lambda postal, what: f"{postal}:{getattr(what, 'slug', what)}" in hidden,
        "drilling": bool(hidden),
        "level": Level(row.level),
        "game": state.game,
    }
    view.update(state.table_view(obs, your_turn, bool(hidden)))
    return view


def _log_start(state: State) -> int:
    """GeoPlunge 51 shows the round being played (from its deal); the other games their whole log."""
    deals = [event.ply for event in state.log if event.kind == "deal"]
    return deals[-1] if deals else 0


def _deal_for_assignment(student: User, mode: Mode, scope: Scope, level: str) -> Dealt:
    """A game in drill mode against one computer player, dealt by its rules from the whole deck
    (P-A2; the assignment page's Start).

    Raises:
        GameError: the game cannot be played by two.
    """
    row = new_card_game(student.id, mode.slug, 2, 1, level, True)
    return Dealt(f"game:{row.token}", url_for("play.game_table", token=row.token, since=0))


#: One link and one table for every card game, and so the same pages.
_CARD_GAMES_LINK = NavLink("Card games", "play.games_index", 70, prefix="play.game")
_CARD_GAMES_ACCESS = (
    ("play.games_index", Access.STUDENTS),
    ("play.games_new", Access.STUDENTS),
    ("play.game_table", Access.STUDENT_OWN),
    ("play.game_move", Access.STUDENT_OWN),
    ("play.game_peek", Access.STUDENT_OWN),
)
# Not ``_game``: that name is the helper that makes a row's game (a loop variable of that name
# replaced it, and every table rebuilt from the database, as after a restart, was a 500).
for _slug, _registered in REGISTRY.games.items():
    register(
        WebMode(
            _slug,
            _CARD_GAMES_LINK,
            log_name=_registered.title,
            rounds=Rounds(
                CardGame,
                CardGame.finished_at,
                "game",
                "card_games",
                (CardGame.game == _slug, CardGame.drill.is_(True)),
            ),
            deal=_deal_for_assignment,
            records=Records(CardGame, _registered.title, Result.DRAWN, by_game=True),
            access=_CARD_GAMES_ACCESS,
        )
    )
