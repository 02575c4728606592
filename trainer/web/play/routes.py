"""State IQ against the computer: deal, play turn by turn, and the history of games."""

from __future__ import annotations

import datetime as dt
import random
import secrets
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import current_user
from sqlalchemy import select, update
from werkzeug.wrappers import Response

from trainer import srs
from trainer.assignments import Scope
from trainer.cards import Deck
from trainer.facts import Facet, Fact, Form
from trainer.modes import Mode
from trainer.quiz.state_iq import (
    Half,
    Level,
    Move,
    Side,
    StateIQ,
    consistent,
    deal_cards,
    first_guesser_by_draw,
    student_answers,
)
from trainer.quiz.weakest import POOL
from trainer.results import Result

from .. import get_deck
from ..extensions import changed_rows, db
from ..guards import Refused, Stale, nothing_changed
from ..memory import atomically, queue, record
from ..models import LiveSeat, LiveTable, StateIqGame, User, utcnow
from ..modes import Access, Dealt, NavLink, Records, Rounds, WebMode, register, scope_filters
from ..security import student_required
from .common import GAME_OVER, current_student, own_or_404
from .forms import MoveForm, NewStateIqForm

bp = Blueprint("play", __name__, url_prefix="/play")

MODE = "state_iq"
HISTORY = 20
FITTING_SHOWN = 10
#: A State IQ move sent twice, or from a page a move ago.
MOVE_MADE = "That move was already made (or the page was out of date); nothing changed."
#: The facets a State IQ game exercises: the computer's card is dealt from the weakest of these.
FACETS = {Facet.POSTAL, Facet.BORDERS, Facet.CAPITAL}


@bp.get("/state-iq/")
@student_required
def state_iq_index() -> str:
    """How State IQ works, a level to pick, and the student's past games."""
    return _render_index(NewStateIqForm())


def _render_index(form: NewStateIqForm) -> str:
    games = (
        db.session.execute(
            select(StateIqGame)
            .where(StateIqGame.student_id == current_user.id, StateIqGame.id.not_in(duel_games()))
            .order_by(StateIqGame.created_at.desc(), StateIqGame.id.desc())
            .limit(HISTORY)
        )
        .scalars()
        .all()
    )
    return render_template("play/state_iq_index.html", form=form, games=games)


def duel_games() -> Any:
    """The ids of the games that are a seat's side of a State IQ duel with a classmate (L-Q5)."""
    return select(LiveSeat.state_iq_game_id).where(LiveSeat.state_iq_game_id.is_not(None))


def own_game_or_404(token: str) -> StateIqGame:
    """The signed-in student's game against the computer with ``token``. A game of a duel with a
    classmate (L-Q5) has no computer: its page is the live table's, where this sends the student
    (so no solo move, and no computer's, can touch the duel)."""
    row = own_or_404(StateIqGame, token)
    duel = db.session.execute(
        select(LiveTable.code)
        .join(LiveSeat, LiveSeat.table_id == LiveTable.id)
        .where(LiveSeat.state_iq_game_id == row.id)
    ).scalar_one_or_none()
    if duel is not None:
        abort(redirect(url_for("live.table", code=duel)))
    return row


@bp.post("/state-iq/")
@student_required
def state_iq_new() -> str | Response | tuple[str, int]:
    """Deal: the computer's card from the student's weakest postal, border and capital facts."""
    form = NewStateIqForm()
    if not form.validate():
        return _render_index(form), 400

    def deal() -> str:
        student = current_student()
        row = new_state_iq(student, form.level.data, form.show_aid.data)
        after_deal(row, student)
        return row.token

    return redirect(url_for("play.state_iq_game", token=atomically(deal)))


def new_state_iq(
    student: User,
    level: str,
    show_aid: bool,
    facets: set[Facet] | None = None,
    postals: set[str] | None = None,
    first: Side | None = None,
) -> StateIqGame:
    """Deal a game (added to the session, not committed): the computer's card is drawn among the
    student's most due, weakest postal, border or capital facts, within ``facets`` and ``postals``
    if given.
    ``first`` guesses first when an earlier game decided it (the Border-Up winner in a Combo 1
    match); otherwise the statehood draw decides (R2)."""
    deck = get_deck()
    seed = secrets.randbits(62)
    rng = random.Random(f"deal:{seed}")
    weakest = weakest_states(student, deck, (FACETS & facets) if facets else FACETS, postals)
    computer_card, student_card = deal_cards(weakest, deck, rng, postals)
    if first is None:
        first, _, _ = first_guesser_by_draw(
            deck, random.Random(f"draw:{seed}"), exclude=(computer_card, student_card)
        )
    power = rng.choice(deck.power_cards)
    row = StateIqGame(
        token=secrets.token_urlsafe(18),
        student_id=student.id,
        level=level,
        power_card=power.id,
        student_card=student_card,
        computer_card=computer_card,
        first_guesser=first.value,
        seed=seed,
        moves=[],
        move_count=0,
        recorded=[],
        result=Result.PLAYING,
        show_aid=show_aid,
        created_at=utcnow(),
    )
    db.session.add(row)
    return row


def after_deal(row: StateIqGame, student: User | None = None) -> None:
    """After the deal (in its unit of work, or in one of its own once it is saved): the computer
    may guess first. ``student`` is the game's (looked up from the row when not given)."""
    owner = student if student is not None else db.session.get(User, row.student_id)
    assert owner is not None, "a dealt game has its student"
    _after_move(row, _rebuild(row), owner)


def weakest_states(
    student: User, deck: Deck, facets: set[Facet], postals: set[str] | None
) -> list[str]:
    """The states of the student's queue for ``facets`` (due and weakest first, then new), enough
    of them for the deal to draw among (in ``postals`` if given)."""
    keys = queue(student, deck, size=POOL * len(facets), facets=facets, postals=postals)
    return [Fact.from_key(key).postal for key in keys]


def _rebuild(row: StateIqGame) -> StateIQ:
    """The game as it stands: the deal, then every stored move, with the computer's turns between."""
    deck = get_deck()
    power = next(card for card in deck.power_cards if card.id == row.power_card)
    game = StateIQ(
        deck,
        power,
        row.student_card,
        row.computer_card,
        Side(row.first_guesser),
        Level(row.level),
        row.seed,
    )
    _computer_plays(game)
    for kind, postal in row.moves:
        try:
            game.guess(postal) if kind == "guess" else game.give_border(postal)
        except Move:
            pass  # a refused border clue: kept because it counts as a mistake
        _computer_plays(game)
    return game


def _computer_plays(game: StateIQ) -> None:
    while game.waiting_for() == "computer":
        game.computer_turn()


@bp.get("/state-iq/<token>")
@student_required
def state_iq_game(token: str) -> str:
    """The table: the Power card, the student's card, the clues and guesses so far, and the next move."""
    row = own_game_or_404(token)
    return _render_game(row, _rebuild(row), MoveForm())


def _render_game(row: StateIqGame, game: StateIQ, form: MoveForm) -> str:
    deck = get_deck()
    # The computer's card is shown only once the student's guessing is over.
    reveal = game.guessing_done(Side.STUDENT)
    return render_template(
        "play/state_iq.html",
        row=row,
        game=game,
        form=form,
        waiting=game.waiting_for(),
        reveal=reveal,
        halves=[
            describe_half(game, half, deck, row.show_aid or game.is_over) for half in game.halves
        ],
        student_state=deck[row.student_card],
        computer_state=deck[row.computer_card] if reveal else None,
        state_names=sorted(s.name for s in deck),
        pick_order=deck.geometry.west_to_east(),
        draw=_statehood_draw(row, deck),
        winner=game.winner() if game.is_over else None,
    )


def _statehood_draw(row: StateIqGame, deck: Deck) -> tuple[Side, str, str]:
    """The draw that decided who guesses first (R2), as the page tells it: from the pile without
    the game's two cards (P-I1); a game dealt before that ruling drew from all 50, and is shown the
    draw that decided it."""
    draw = first_guesser_by_draw(
        deck, random.Random(f"draw:{row.seed}"), exclude=(row.computer_card, row.student_card)
    )
    if draw[0].value != row.first_guesser:
        draw = first_guesser_by_draw(deck, random.Random(f"draw:{row.seed}"))
    return draw


def describe_half(game: StateIQ, half: Half, deck: Deck, aid: bool) -> dict[str, Any]:
    """One half for the page: each guess with the clues given before it.

    With the aid (or once the game is over) each clue says how many states still fit, and at the
    end which ones, when few; at the end each wrong guess says why it could not be right.
    """
    steps = []
    shown = 0
    finished = half.over or game.is_over  # a half may stop early once the result is settled (Q3)
    for n in range(len(half.guesses) if finished else len(half.guesses) + 1):
        due = min(len(half.clues), sum(1 for slot in game.plan[: n + 1] if slot is not None))
        clues = []
        for i in range(shown, due):
            fitting = consistent(half.clues[: i + 1], deck) if aid or game.is_over else []
            clues.append(
                {
                    "text": half.clues[i].text(deck),
                    "left": len(fitting) if aid or game.is_over else None,
                    # At the end, the states each clue left (when few enough to read).
                    "fitting": [s.name for s in fitting]
                    if game.is_over and len(fitting) <= FITTING_SHOWN
                    else [],
                }
            )
        shown = max(shown, due)
        guess = half.guesses[n] if n < len(half.guesses) else None
        why = None
        if guess is not None and guess != half.secret and game.is_over:
            broken = next((c for c in half.clues[:due] if not c.fits(deck[guess], deck)), None)
            name = deck[guess].name
            why = (
                f"{name} does not fit the clue “{broken.text(deck)}”"
                if broken
                else f"{name} fitted the clues so far."
            )
        steps.append(
            {
                "clues": clues,
                "guess": deck[guess].name if guess else None,
                "right": guess == half.secret,
                "why": why,
            }
        )
    return {
        "guesser": half.guesser,
        "steps": steps,
        "solved": half.solved,
        "over": half.over,
        "mistakes": [deck[p].name for p in half.border_mistakes],
    }


@bp.post("/state-iq/<token>")
@student_required
def state_iq_move(token: str) -> str | Response | tuple[str, int]:
    """The student's move: a guess at the computer's state, or a border state of their own as a clue."""
    row = own_game_or_404(token)
    here = url_for("play.state_iq_game", token=token)
    form = MoveForm()
    game = _rebuild(row)
    turn = form.turn_number()
    try:
        check_state_iq_open(row, game, turn)
    except Stale as stale:
        return nothing_changed(str(stale), here, stale.category)
    if not form.validate():
        return _render_game(row, game, form), 400
    postal = form.postal(get_deck())
    if postal is None:
        return _render_game(row, game, form), 400
    try:
        mistake = play_state_iq_move(row, game, postal, current_student(), utcnow(), turn)
    except Stale as stale:
        return nothing_changed(str(stale), here, stale.category)
    except Refused as refused:
        form.answer.errors = [str(refused)]
        return _render_game(row, game, form), 400
    if mistake is not None:
        flash(mistake, "error")
    return redirect(here)


def check_state_iq_open(row: StateIqGame, game: StateIQ, turn: int | None) -> None:
    """Refuse a move sent to a finished game, or from a page shown after ``turn`` moves that are
    no longer all the moves (a move sent twice, or from an out-of-date page).

    Raises:
        Stale: with ``GAME_OVER`` or ``MOVE_MADE``.
    """
    if game.is_over:
        raise Stale(GAME_OVER)
    if turn != row.move_count:
        raise Stale(MOVE_MADE)


def play_state_iq_move(
    row: StateIqGame,
    game: StateIQ,
    postal: str,
    student: User,
    now: dt.datetime,
    turn: int | None,
) -> str | None:
    """Play the student's move ``postal`` on ``game`` (rebuilt from ``row``) on the page shown
    after ``turn`` moves: a guess when the student is to guess, else a border state as a clue.
    The computer plays its turns, and the move, what it showed of the student's memory and the
    result are saved in one unit.

    Returns:
        The refusal of a border clue that does not border: it is kept as a mistake (and saved
        with the move), so the student is told; None for any other move.

    Raises:
        Stale: the game is over (``GAME_OVER``), or the move was made already or the page was
            out of date (``MOVE_MADE``); nothing changed.
        Refused: the move is not allowed (a state guessed before, say); nothing changed.
    """
    check_state_iq_open(row, game, turn)
    kind = "guess" if game.waiting_for() == "student_guess" else "clue"
    mistakes_before = len(game.half.border_mistakes)
    mistake = None
    try:
        game.guess(postal) if kind == "guess" else game.give_border(postal)
    except Move as refused:
        if len(game.half.border_mistakes) == mistakes_before:
            raise Refused(str(refused)) from None
        mistake = str(refused)  # a state that does not border: refused, and kept as a mistake
    _computer_plays(game)
    game_id, before, moves = row.id, row.move_count, [*row.moves, [kind, postal]]

    def save_move() -> bool:
        """The move, what it showed of the student's memory and the result, all or nothing;
        False if the move was made already."""
        saved = changed_rows(
            update(StateIqGame)
            .where(StateIqGame.id == game_id, StateIqGame.move_count == before)
            .values(moves=moves, move_count=before + 1)
        )
        if saved != 1:
            return False
        _after_move(row, game, student, now)
        return True

    if not atomically(save_move):
        raise Stale(MOVE_MADE)
    return mistake


def _after_move(
    row: StateIqGame, game: StateIQ, student: User, now: dt.datetime | None = None
) -> None:
    """Record what the student's play has shown so far, once each, and the result at the end
    (in the move's unit of work, or in one of its own)."""
    atomically(lambda: save_progress(row, game, student, now or utcnow()))


def save_progress(row: StateIqGame, game: StateIQ, student: User, now: dt.datetime) -> None:
    done = set(row.recorded)
    for answer in student_answers(game):
        if answer.item in done:
            continue
        record(
            student,
            srs.Outcome(
                fact_key=answer.fact.key,
                verdict=answer.verdict,
                mode=MODE,
                form=Form.TYPED,
                round_token=f"{MODE}:{row.token}",
                item=answer.item,
                answer=answer.given,
                help=srs.Help.RETRY if answer.late else srs.Help.NONE,
                answered_postal=answer.answered_postal,
            ),
            now,
        )
        done.add(answer.item)
    row.recorded = sorted(done)
    if game.is_over and row.result == Result.PLAYING:
        row.result = game.result()
        student_half = next(h for h in game.halves if h.guesser is Side.STUDENT)
        row.student_guesses = student_half.guesses_needed
        row.finished_at = now


def _deal_for_assignment(student: User, mode: Mode, scope: Scope, level: str) -> Dealt:
    """A game dealt from an assignment's scope, with no aid (the assignment page's Start)."""
    facets, postals = scope_filters(scope, mode)
    row = new_state_iq(student, level, False, facets, postals)
    return Dealt(
        f"state_iq:{row.token}",
        url_for("play.state_iq_game", token=row.token),
        lambda: after_deal(row, student),
    )


register(
    WebMode(
        "state-iq",
        NavLink("State IQ", "play.state_iq_index", 40, prefix="play.state_iq"),
        rounds=Rounds(StateIqGame, StateIqGame.finished_at, "state_iq", "state_iq_games"),
        deal=_deal_for_assignment,
        records=Records(StateIqGame, "State IQ"),
        access=(
            ("play.state_iq_index", Access.STUDENTS),
            ("play.state_iq_new", Access.STUDENTS),
            ("play.state_iq_game", Access.STUDENT_OWN),
            ("play.state_iq_move", Access.STUDENT_OWN),
        ),
    )
)
