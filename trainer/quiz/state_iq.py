"""State IQ (Combo 1, Game 2): clues from a Power card's code, guesses, and a computer team.

Pure rules (rulings Q1-Q3, R2). The web layer holds a :class:`StateIQ` on the server, applies
the student's moves, lets the computer play its turns, and records :meth:`StateIQ.answers`
through the memory model.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from enum import Enum

from trainer.cards import Deck, PowerCard, StateCard
from trainer.facts import Facet, Fact, Verdict
from trainer.facts.answers import read_state
from trainer.levels import Level
from trainer.modes import MODES, Mode
from trainer.results import Result

from .weakest import draw_weakest

#: Guesses each team may make (Q3).
MAX_GUESSES = 3


class Side(str, Enum):
    """The two teams: the student and the computer."""

    STUDENT = "student"
    COMPUTER = "computer"

    @property
    def other(self) -> Side:
        return Side.COMPUTER if self is Side.STUDENT else Side.STUDENT


class ClueKind(str, Enum):
    """The three kinds of clue a Power card's letters stand for (Q1)."""

    POSTAL = "A"  # a letter of the postal code
    BORDER = "B"  # one border state, chosen by the clue giver
    CAPITAL = "C"  # a letter of the capital's name


#: The facet a clue of each kind draws on: guessing from it exercises that fact.
CLUE_FACETS = {
    ClueKind.POSTAL: Facet.POSTAL,
    ClueKind.BORDER: Facet.BORDERS,
    ClueKind.CAPITAL: Facet.CAPITAL,
}


@dataclass(frozen=True)
class ClueSlot:
    """What the clue before one guess will be: its kind and, for letters, which letter (0-based)."""

    kind: ClueKind
    letter: int = 0


def clue_plan(code: str) -> tuple[ClueSlot | None, ...]:
    """The clue before each of the 3 guesses, for a Power card's clue code (Q1).

    ``None`` is "no new clue" (AAA gives no clue before the third guess).

    Raises:
        ValueError: ``code`` is not three of A, B and C.
    """
    code = code.upper()
    if len(code) != 3 or set(code) - set("ABC"):
        raise ValueError(f"not a clue code: {code!r}")
    if code == "AAA":
        return (ClueSlot(ClueKind.POSTAL, 0), ClueSlot(ClueKind.POSTAL, 1), None)
    if code == "CCC":
        return tuple(ClueSlot(ClueKind.CAPITAL, i) for i in range(3))
    return tuple(ClueSlot(ClueKind(letter)) for letter in code)


@dataclass(frozen=True)
class Clue:
    """One clue given about the clue giver's state.

    For a letter clue ``value`` is the letter; for a border clue the postal code of the border
    state named, or ``""`` for "no (more) border states" (Q2).
    """

    slot: ClueSlot
    value: str
    #: Border clues given before this one (to read "no more border states").
    borders_before: int = 0

    def text(self, deck: Deck) -> str:
        """The clue as the clue giver says it."""
        ordinal = ("first", "second", "third")[self.slot.letter]
        if self.slot.kind is ClueKind.POSTAL:
            return f"The {ordinal} letter of the postal code is {self.value}."
        if self.slot.kind is ClueKind.CAPITAL:
            return f"The {ordinal} letter of the capital is {self.value}."
        if not self.value:
            return "No more border states." if self.borders_before else "It borders no other state."
        return f"It borders {deck[self.value].name}."

    def fits(self, state: StateCard, deck: Deck) -> bool:
        """True when ``state`` could be the clue giver's state, as far as this clue tells."""
        if self.slot.kind is ClueKind.POSTAL:
            return state.postal[self.slot.letter] == self.value
        if self.slot.kind is ClueKind.CAPITAL:
            letters = capital_letters(state)
            return len(letters) > self.slot.letter and letters[self.slot.letter] == self.value
        if not self.value:
            return len(deck.neighbours(state)) == self.borders_before
        return deck.borders_between(state, self.value)


def capital_letters(state: StateCard) -> str:
    """The capital's letters, upper case, without spaces or marks (as they are read out)."""
    return "".join(ch for ch in state.capital.upper() if ch.isalpha())


def consistent(clues: list[Clue], deck: Deck) -> list[StateCard]:
    """The states that fit every clue so far, by name."""
    return [
        state for state in deck.sorted_by(None) if all(clue.fits(state, deck) for clue in clues)
    ]


class Move(Exception):
    """A move that is not allowed now; the message says why, and nothing changes."""


@dataclass
class Half:
    """One team guessing the other's state."""

    guesser: Side
    secret: str  # postal code of the clue giver's card
    clues: list[Clue] = field(default_factory=list)
    guesses: list[str] = field(default_factory=list)  # postal codes guessed, in order
    border_mistakes: list[str] = field(default_factory=list)  # states wrongly named as borders

    @property
    def solved(self) -> bool:
        return bool(self.guesses) and self.guesses[-1] == self.secret

    @property
    def over(self) -> bool:
        return self.solved or len(self.guesses) >= MAX_GUESSES

    @property
    def guesses_needed(self) -> int | None:
        """How many guesses it took, or None if the state was not guessed."""
        return len(self.guesses) if self.solved else None


@dataclass
class StateIQ:
    """A game of State IQ between the student and the computer, replayable from its seed.

    Args:
        deck: the deck.
        power: the Power card turned up; its clue code orders both teams' clues.
        student_card: the student's state (postal code); the computer guesses it.
        computer_card: the computer's state; the student guesses it.
        first_guesser: who guesses first (R2 on its own; the Border-Up winner in a match).
        level: the computer's level.
        seed: seeds the computer's memory and choices.
        duel: both teams are students (a State IQ duel at a live table, L-Q1): each team names
            its own B clues, so the rules wait for the computer side's choice
            (``waiting_for() == "computer_clue"``, :meth:`give_border` with ``Side.COMPUTER``) as
            they wait for the student's, and the computer side's guesses come from outside
            (:meth:`guess` with ``Side.COMPUTER``).
    """

    deck: Deck = field(compare=False, repr=False)  # fixed: two games compare by their play
    power: PowerCard
    student_card: str
    computer_card: str
    first_guesser: Side
    level: Level
    seed: int
    duel: bool = False
    halves: list[Half] = field(init=False)
    # Not compared: a generator equals only itself, and two games compare by what happened.
    _rng: random.Random = field(init=False, repr=False, compare=False)
    _memory: dict[tuple[str, Facet], bool] = field(init=False, repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        if self.student_card == self.computer_card:
            raise ValueError("the two teams hold different cards")
        self._rng = random.Random(f"state-iq:{self.seed}")
        self.halves = [self._half(self.first_guesser)]
        self._prepare_clue()

    @property
    def rng(self) -> random.Random:
        """The game's own generator: the computer's memory and, at medium level, its clues."""
        return self._rng

    def copy(self) -> StateIQ:
        """An independent copy: its own halves, memory and generator, in the same state."""
        other = copy.copy(self)
        other.halves = [
            Half(h.guesser, h.secret, list(h.clues), list(h.guesses), list(h.border_mistakes))
            for h in self.halves
        ]
        other._memory = dict(self._memory)
        other._rng = random.Random(0)  # seeded, so the copy does not ask the OS for entropy
        other._rng.setstate(self._rng.getstate())
        return other

    def mirrored(self) -> StateIQ:
        """The same game seen from the other team: the two sides swapped, so that
        :func:`student_answers`, :meth:`result` and :meth:`guessing_done` read as the computer
        side's (in a duel, the second student's). Only for reading: its generator and memory are
        a copy's."""
        other = self.copy()
        other.student_card, other.computer_card = self.computer_card, self.student_card
        other.first_guesser = self.first_guesser.other
        other.halves = [
            Half(h.guesser.other, h.secret, h.clues, h.guesses, h.border_mistakes)
            for h in other.halves
        ]
        return other

    def _half(self, guesser: Side) -> Half:
        return Half(guesser, self.computer_card if guesser is Side.STUDENT else self.student_card)

    # --- Whose turn ---------------------------------------------------------------------------

    @property
    def plan(self) -> tuple[ClueSlot | None, ...]:
        return clue_plan(self.power.clue_code)

    @property
    def half(self) -> Half:
        """The half being played (or the last one, once the game is over)."""
        return self.halves[-1]

    @property
    def is_over(self) -> bool:
        return len(self.halves) == 2 and (self.half.over or self._settled())

    def guessing_done(self, side: Side) -> bool:
        """True once ``side`` will make no more guesses (its half over, or the game over)."""
        half = next((h for h in self.halves if h.guesser is side), None)
        return self.is_over or (half is not None and half.over)

    def waiting_for(self) -> str | None:
        """What the game needs next: "student_clue", "student_guess", "computer", or None at the end.

        In a duel the computer side's B clue waits too: "computer_clue" (against the computer its
        clues are given by the rules as soon as they are due, so this never comes back).
        """
        if self.is_over:
            return None
        half = self.half
        if self._clue_due() and self._slot_due().kind is ClueKind.BORDER:
            return "student_clue" if half.guesser is Side.COMPUTER else "computer_clue"
        if half.guesser is Side.STUDENT:
            return "student_guess"
        return "computer"

    def _slot_due(self) -> ClueSlot:
        slot = self.plan[len(self.half.guesses)]
        assert slot is not None
        return slot

    def _clue_due(self) -> bool:
        """A clue is due before the next guess and has not been given yet."""
        half = self.half
        n = len(half.guesses)
        clues_due = sum(1 for slot in self.plan[: n + 1] if slot is not None)
        return len(half.clues) < clues_due

    # --- Clues ------------------------------------------------------------------------------

    def _prepare_clue(self) -> None:
        """Give the clue due before the next guess, when the clue giver needs to choose nothing."""
        while not self.is_over and self._clue_due():
            slot = self._slot_due()
            half = self.half
            giver_card = self.deck[half.secret]
            if slot.kind is not ClueKind.BORDER:
                source = (
                    giver_card.postal
                    if slot.kind is ClueKind.POSTAL
                    else capital_letters(giver_card)
                )
                half.clues.append(Clue(slot, source[slot.letter]))
                continue
            unused = self._unused_borders(half)
            if not unused:
                half.clues.append(Clue(slot, "", borders_before=self._borders_given(half)))
                continue
            if half.guesser is Side.STUDENT and not self.duel:  # the computer gives the clue
                half.clues.append(
                    Clue(slot, self._computer_border_clue(half, unused), self._borders_given(half))
                )
                continue
            return  # the student chooses a border state (give_border)

    def border_choices(self) -> list[str]:
        """The border states the clue giver may name now as the B clue (none unless one is due)."""
        if self.waiting_for() not in ("student_clue", "computer_clue"):
            return []
        return self._unused_borders(self.half)

    def _unused_borders(self, half: Half) -> list[str]:
        given = {c.value for c in half.clues if c.slot.kind is ClueKind.BORDER}
        return [s.postal for s in self.deck.neighbours(half.secret) if s.postal not in given]

    @staticmethod
    def _borders_given(half: Half) -> int:
        return sum(1 for c in half.clues if c.slot.kind is ClueKind.BORDER and c.value)

    def _computer_border_clue(self, half: Half, unused: list[str]) -> str:
        """Easy: the most helpful border state; hard: the one that leaves the most candidates."""
        slot = ClueSlot(ClueKind.BORDER)

        def left(postal: str) -> int:
            return len(consistent([*half.clues, Clue(slot, postal)], self.deck))

        if self.level is Level.EASY:
            return min(unused, key=lambda p: (left(p), p))
        if self.level is Level.HARD:
            return max(unused, key=lambda p: (left(p), p))
        return self._rng.choice(unused)

    def give_border(self, postal: str, side: Side = Side.STUDENT) -> Clue:
        """The student (or, in a duel, ``side``) names a border state of their own state as the
        B clue.

        Raises:
            Move: it is not ``side``'s clue to give, the state is unknown, it was named
                already, or it does not border ``side``'s state (then the mistake is kept:
                it is a wrong answer about that state's borders).
        """
        due = "student_clue" if side is Side.STUDENT else "computer_clue"
        if self.waiting_for() != due:
            raise Move("It is not your turn to give a clue.")
        half = self.half
        named = self.deck.get(postal.strip())
        own = self.deck[self.student_card if side is Side.STUDENT else self.computer_card]
        if named is None:
            raise Move("Choose a state.")
        if named == own:
            raise Move(f"{own.name} is your own state. Name a state that borders it.")
        if named.postal in {c.value for c in half.clues}:
            raise Move(f"You have already named {named.name}.")
        if not self.deck.borders_between(own, named):
            if named.postal in half.border_mistakes:  # the same mistake again counts once
                raise Move(
                    f"{named.name} does not border {own.name}, as before. Name a state that does."
                )
            half.border_mistakes.append(named.postal)
            raise Move(f"{named.name} does not border {own.name}. Name a state that does.")
        clue = Clue(self._slot_due(), named.postal, self._borders_given(half))
        half.clues.append(clue)
        self._prepare_clue()
        return clue

    # --- Guesses ------------------------------------------------------------------------------

    def guess(self, postal: str, side: Side = Side.STUDENT) -> bool:
        """The student (or, in a duel, ``side``) guesses the other side's state; True when right.

        Raises:
            Move: it is not ``side``'s turn to guess, the state is unknown, or guessed already.
        """
        if self.waiting_for() != ("student_guess" if side is Side.STUDENT else "computer"):
            raise Move("It is not your turn to guess.")
        if side is Side.COMPUTER and not self.duel:
            raise Move("The computer's guesses are its own (computer_turn, computer_guess).")
        state = self.deck.get(postal.strip())
        if state is None:
            raise Move("That is not one of the 50 states.")
        if state.postal in self.half.guesses:
            raise Move(f"You have already guessed {state.name}.")
        return self._apply_guess(state.postal)

    def _apply_guess(self, postal: str) -> bool:
        half = self.half
        half.guesses.append(postal)
        right = postal == half.secret
        if half.over and len(self.halves) == 1:
            self.halves.append(self._half(half.guesser.other))
        self._prepare_clue()
        return right

    def computer_turn(self) -> str:
        """The computer guesses (from the states it believes fit the clues); returns the postal code.

        Raises:
            Move: it is not the computer's turn.
        """
        if self.waiting_for() != "computer":
            raise Move("It is not the computer's turn.")
        half = self.half
        options = [s.postal for s in self._believed(half) if s.postal not in half.guesses]
        if not options:  # it has ruled out everything it remembers: any state not tried yet
            options = [s.postal for s in self.deck.sorted_by(None) if s.postal not in half.guesses]
        choice = self._rng.choice(options)
        self._apply_guess(choice)
        return choice

    def computer_guess(self, postal: str) -> bool:
        """The computer team guesses ``postal``, chosen by a player outside the game (a bot of
        :mod:`trainer.games.bots`); True when right.

        Raises:
            Move: it is not the computer's turn, or it guessed that state already.
        """
        if self.waiting_for() != "computer":
            raise Move("It is not the computer's turn.")
        if postal in self.half.guesses:
            raise Move(f"The computer has already guessed {self.deck[postal].name}.")
        return self._apply_guess(postal)

    def _believed(self, half: Half) -> list[StateCard]:
        """The states the computer cannot rule out: a clue rules a state out only if it recalls that fact."""
        return [
            state
            for state in self.deck.sorted_by(None)
            if all(
                clue.fits(state, self.deck)
                or not self._recalls(state.postal, CLUE_FACETS[clue.slot.kind])
                for clue in half.clues
            )
        ]

    def _recalls(self, postal: str, facet: Facet) -> bool:
        key = (postal, facet)
        if key not in self._memory:
            self._memory[key] = self._rng.random() < self.level.recall
        return self._memory[key]

    # --- The result ---------------------------------------------------------------------------

    def _settled(self) -> bool:
        """Q3: the second guessing team stops once the result can no longer change."""
        if len(self.halves) < 2:
            return False
        first, second = self.halves
        target = first.guesses_needed
        if target is None:  # the first team failed: the second wins by guessing, can't lose more
            return second.solved
        # The second team can only tie or win with at most ``target`` guesses.
        return second.solved or len(second.guesses) >= target

    def winner(self) -> Side | None:
        """The side that guessed in fewer guesses; None for a tie (Q3). Only at the end."""
        if not self.is_over:
            raise Move("The game is not over.")
        first, second = self.halves
        a, b = first.guesses_needed, second.guesses_needed
        if a == b:
            return None
        if a is None:
            return second.guesser
        if b is None or a < b:
            return first.guesser
        return second.guesser

    def result(self) -> Result:
        """What the student's game stores as its result at the end: won, lost or tied
        (the web page and the simulator both settle a game with this)."""
        winner = self.winner()
        if winner is None:
            return Result.TIED
        return Result.WON if winner is Side.STUDENT else Result.LOST


@dataclass(frozen=True)
class StudentAnswer:
    """One thing the game learned about what the student knows, for the memory model."""

    fact: Fact
    verdict: Verdict
    late: bool  # right, but on a second or third guess
    item: str  # unique within the game
    given: str
    answered_postal: str | None = None


def student_answers(game: StateIQ) -> list[StudentAnswer]:
    """What the student's play showed, once their guessing half and clue giving are done.

    Guessing the computer's state drew on the facts its clues revealed: first guess right =
    right, later = right but late, never = wrong. A wrong guess that a clue already shown rules
    out is a wrong answer about the guessed state's fact. Each border state the student named
    as a clue is an answer about their own state's borders.
    """
    deck = game.deck
    answers: list[StudentAnswer] = []
    for half in game.halves:
        if half.guesser is Side.STUDENT:
            answers += _guessing_answers(game, half)
        else:
            own = game.student_card
            named = [c.value for c in half.clues if c.slot.kind is ClueKind.BORDER and c.value]
            for n, postal in enumerate(named, start=1):
                answers.append(
                    StudentAnswer(
                        Fact(own, Facet.BORDERS),
                        Verdict.RIGHT,
                        False,
                        f"clue{n}",
                        deck[postal].name,
                        postal,
                    )
                )
            for n, postal in enumerate(half.border_mistakes, start=1):
                answers.append(
                    StudentAnswer(
                        Fact(own, Facet.BORDERS),
                        Verdict.WRONG,
                        False,
                        f"mistake{n}",
                        deck[postal].name,
                        postal,
                    )
                )
    return answers


def _guessing_answers(game: StateIQ, half: Half) -> list[StudentAnswer]:
    deck = game.deck
    answers: list[StudentAnswer] = []
    for n, postal in enumerate(half.guesses):
        if postal == half.secret:
            continue
        # The first clue already shown that rules the guess out: the student got that fact wrong.
        ruled_out_by = next(
            (c for c in _clues_before_guess(game, half, n) if not c.fits(deck[postal], deck)), None
        )
        if ruled_out_by is not None:
            fact = Fact(postal, CLUE_FACETS[ruled_out_by.slot.kind])
            answers.append(
                StudentAnswer(
                    fact,
                    Verdict.WRONG,
                    False,
                    f"guess{n + 1}:{ruled_out_by.slot.kind.value}",
                    deck[postal].name,
                    postal,
                )
            )
    # A half ends when its guesses are used up, or early once the result is settled (Q3).
    if (half.over or game.is_over) and half.guesses:
        shown = _clues_before_guess(game, half, len(half.guesses) - 1)
        verdict = Verdict.RIGHT if half.solved else Verdict.WRONG
        late = half.solved and len(half.guesses) > 1
        last = half.guesses[-1]
        for facet in sorted({CLUE_FACETS[c.slot.kind] for c in shown}, key=lambda f: f.value):
            answers.append(
                StudentAnswer(
                    Fact(half.secret, facet),
                    verdict,
                    late,
                    f"secret:{facet.value}",
                    deck[last].name,
                    last,
                )
            )
    return answers


def _clues_before_guess(game: StateIQ, half: Half, n: int) -> list[Clue]:
    """The clues shown before guess ``n`` (0-based)."""
    count = sum(1 for slot in game.plan[: n + 1] if slot is not None)
    return half.clues[:count]


def first_guesser_by_draw(
    deck: Deck, rng: random.Random, exclude: tuple[str, ...] = ()
) -> tuple[Side, str, str]:
    """R2: each side draws a card; the better (lower) statehood rank guesses first.

    ``exclude`` holds the cards not in the pile drawn from: the game's two cards, already in the
    teams' hands (ruling P-I1), so nobody draws the card they hold.

    Returns the side and the two drawn postal codes (student's, computer's).
    """
    pool = [s for s in deck.sorted_by(None) if s.postal not in exclude]
    a, b = rng.sample(pool, 2)
    return (
        (Side.STUDENT if a.statehood_rank < b.statehood_rank else Side.COMPUTER),
        a.postal,
        b.postal,
    )


def deal_cards(
    weakest: Sequence[str], deck: Deck, rng: random.Random, allowed: Collection[str] | None = None
) -> tuple[str, str]:
    """The two cards of a game: (the computer's, the student's).

    The computer's card is the state the student guesses, so it practises their weakest facts:
    it is drawn by ``rng`` among the first few of ``weakest`` (their due and weakest states, then
    new ones; see :func:`~trainer.quiz.weakest.draw_weakest`), else among ``allowed`` (a scope's
    states) or the whole deck. Never simply the first: that was Washington for every new student.
    The student's card is any other state.
    """
    drawn = draw_weakest(weakest, 1, rng)
    computer = (
        drawn[0] if drawn else rng.choice(sorted(allowed) if allowed else [s.postal for s in deck])
    )
    return computer, rng.choice([s.postal for s in deck if s.postal != computer])


def guess_from_text(text: str, deck: Deck) -> str | None:
    """The postal code of the state a typed guess or clue names (its name or code), or None (P-H6)."""
    return read_state(text, deck)


MODES.register(
    Mode(
        "state-iq",
        "State IQ",
        "state_iq",
        frozenset({Facet.POSTAL, Facet.BORDERS, Facet.CAPITAL}),
        True,
        "game",
        deal=deal_cards,
        sessions=0.08,
        order=20,
    )
)
