"""State IQ between two students (a duel at a live table, issue 22, rulings L-Q1 to L-Q5).

The rules are :class:`~trainer.quiz.state_iq.StateIQ`'s with ``duel=True``: seat 0 is its
``Side.STUDENT`` and seat 1 its ``Side.COMPUTER``, and both seats guess and name their own border
clues. Each student's answers, result and page are the game seen from their side (:func:`seen_by`).
A duel is stored as its deal (:class:`Deal`) and its moves (whole numbers, :func:`encode`), and
rebuilt by :func:`replay`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from trainer.cards import Deck
from trainer.levels import Level
from trainer.results import Result

from .state_iq import Move, Side, StateIQ, StudentAnswer, first_guesser_by_draw, student_answers
from .weakest import draw_weakest

#: The team each seat plays in the rules.
SIDES = (Side.STUDENT, Side.COMPUTER)
GUESS, CLUE = "guess", "clue"
#: A move is ``i`` (guess the state ``states[i]``) or ``CLUE_ACTION + i`` (name it as a B clue).
CLUE_ACTION = 100
#: What :meth:`StateIQ.waiting_for` says, as (seat, what it does).
_TURNS = {
    "student_guess": (0, GUESS),
    "student_clue": (0, CLUE),
    "computer": (1, GUESS),
    "computer_clue": (1, CLUE),
}


@dataclass(frozen=True)
class Deal:
    """What a duel starts from.

    Attributes:
        cards: the card each seat holds (seat 0's, seat 1's): the state the other seat guesses.
        power: the Power card's id; its clue code orders both seats' clues.
        first: the seat that guesses first.
        draw: the statehood draw that decided it (R2, P-I1): the card each seat drew.
    """

    cards: tuple[str, str]
    power: int
    first: int
    draw: tuple[str, str]


def deal_duel(weakest: tuple[Sequence[str], Sequence[str]], deck: Deck, seed: int) -> Deal:
    """The deal of a duel from ``seed``, leaning on each student's weakest facts (L-Q2).

    Against the computer the card the student guesses is drawn among their weakest states
    (:func:`~trainer.quiz.state_iq.deal_cards`); here each student guesses the other's card, so the
    card seat 1 holds is drawn among seat 0's weakest states and seat 0's among seat 1's (the
    whole deck when a student has none, as for a new one), never the same card twice. Then the
    Power card, and who guesses first by the statehood draw from the rest of the deck (R2, P-I1):
    a duel has no Border-Up just before it.

    Args:
        weakest: each seat's states, most due and weakest first (postal codes).
        deck: the deck.
        seed: the duel's seed.
    """
    rng = random.Random(f"duel-deal:{seed}")
    everyone = [s.postal for s in deck]

    def draw(candidates: Sequence[str], taken: set[str]) -> str:
        drawn = draw_weakest([p for p in candidates if p not in taken], 1, rng)
        return drawn[0] if drawn else rng.choice([p for p in everyone if p not in taken])

    second = draw(weakest[0], set())  # seat 0 guesses it
    first_card = draw(weakest[1], {second})  # seat 1 guesses it
    cards = (first_card, second)
    first, drawn = statehood_draw(deck, cards, seed)
    power = rng.choice(deck.power_cards)
    return Deal(cards, power.id, first, drawn)


def statehood_draw(deck: Deck, cards: tuple[str, str], seed: int) -> tuple[int, tuple[str, str]]:
    """R2's draw for a duel dealt ``cards`` from ``seed``, from the rest of the deck (P-I1): the
    seat that guesses first, and the card each seat drew."""
    side, a, b = first_guesser_by_draw(deck, random.Random(f"draw:{seed}"), exclude=cards)
    return SIDES.index(side), (a, b)


def new_game(deck: Deck, deal: Deal, seed: int) -> StateIQ:
    """The duel as dealt, before any move (the clues due before the first guess that need no
    choice, letters, are given already)."""
    power = next(card for card in deck.power_cards if card.id == deal.power)
    # The level is the computer's and a duel has none: it chooses nothing here (duel=True).
    return StateIQ(deck, power, *deal.cards, SIDES[deal.first], Level.MEDIUM, seed, duel=True)


def to_move(game: StateIQ) -> tuple[int, str] | None:
    """The seat to move and what it does (:data:`GUESS` or :data:`CLUE`); None at the end."""
    waiting = game.waiting_for()
    return None if waiting is None else _TURNS[waiting]


def _states(deck: Deck) -> list[str]:
    return [s.postal for s in deck.sorted_by(None)]


def encode(kind: str, postal: str, deck: Deck) -> int:
    """A move as the table stores it."""
    index = _states(deck).index(postal)
    return index if kind == GUESS else CLUE_ACTION + index


def decode(action: int, deck: Deck) -> tuple[str, str]:
    """A stored move back as (kind, postal code).

    Raises:
        ValueError: no move is stored as ``action``.
    """
    states = _states(deck)
    kind, index = (CLUE, action - CLUE_ACTION) if action >= CLUE_ACTION else (GUESS, action)
    if not 0 <= index < len(states):
        raise ValueError(f"not a State IQ duel move: {action!r}")
    return kind, states[index]


@dataclass(frozen=True)
class Played:
    """A move that changed the game: a guess (``right`` says how it went), a B clue, or a state
    named as a B clue that does not border (``mistake``: refused, and kept as a wrong answer about
    the giver's borders, as against the computer)."""

    kind: str
    postal: str
    right: bool = False
    mistake: str | None = None


def play(game: StateIQ, seat: int, postal: str) -> Played:
    """``seat`` guesses ``postal``, or names it as its B clue, whichever is its move now.

    Raises:
        Move: it is not ``seat``'s move, or the rules refuse it and nothing changed (a state
            guessed or named already, its own state, not a state).
    """
    turn = to_move(game)
    if turn is None:
        raise Move("This duel is over.")
    mover, kind = turn
    if mover != seat:
        raise Move("It is not your turn: wait for your classmate.")
    if kind == GUESS:
        return Played(GUESS, postal, right=game.guess(postal, SIDES[seat]))
    mistakes = len(game.half.border_mistakes)
    try:
        game.give_border(postal, SIDES[seat])
    except Move as refused:
        if len(game.half.border_mistakes) == mistakes:
            raise
        return Played(CLUE, postal, mistake=str(refused))
    return Played(CLUE, postal)


def replay(deck: Deck, deal: Deal, seed: int, actions: Sequence[int]) -> StateIQ:
    """The duel after its stored moves, each played by the seat whose move it was.

    Raises:
        ValueError: a stored move is not one the game could have kept.
    """
    game = new_game(deck, deal, seed)
    for action in actions:
        kind, postal = decode(action, deck)
        turn = to_move(game)
        if turn is None or turn[1] != kind:
            raise ValueError(f"move {action!r} does not fit the duel")
        played = play(game, turn[0], postal)
        if played.kind != kind:
            raise ValueError(f"move {action!r} does not fit the duel")
    return game


def seen_by(game: StateIQ, seat: int) -> StateIQ:
    """The game as ``seat``'s student plays it: their side is the rules' ``Side.STUDENT``."""
    return game if seat == 0 else game.mirrored()


def answers(game: StateIQ, seat: int) -> list[StudentAnswer]:
    """What ``seat``'s play has shown of their memory so far (as against the computer)."""
    return student_answers(seen_by(game, seat))


def result(game: StateIQ, seat: int) -> Result:
    """``seat``'s result at the end: won, lost or tied (Q3)."""
    return seen_by(game, seat).result()


def may_see(game: StateIQ, seat: int) -> bool:
    """Whether ``seat`` may see the other seat's card now: once it has guessed it, or at the end
    (L-Q4); never while it may still guess."""
    return game.is_over or seen_by(game, seat).guessing_done(Side.STUDENT)
