"""State IQ (rulings Q1-Q3, R2) on the shared Game/State interface, so the conformance suite and
the computer players cover it as they do the card games.

The rules stay in :class:`trainer.quiz.state_iq.StateIQ`; this module wraps one game of it. Seat
0 is the student's team and seat 1 the computer's. Actions name a state by its place in
``game.cards``: ``GUESS + i`` guesses it, ``NAME + i`` names it as the student's border clue (Q2).
The computer team's clues are given by the rules at the game's level, as on the web page; its
guesses are seat 1's actions, chosen by a computer player (:mod:`trainer.games.bots.state_iq`).

Every state but a seat's own card lies face down in the box, so all of them are hidden from the
seat except the ones it holds or has seen revealed. The observation therefore names guessed and
named states by their number, and only a card the seat may see by its postal code.

State IQ is not a card game: it registers with ``card_game = False``, so it is kept out of
``REGISTRY.games`` (the games page, the card-game modes, the simulator).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..cards import Deck
from ..levels import Level
from ..quiz import state_iq as iq
from .base import TERMINAL, Game, GameError, IllegalAction, Move, Params, State

#: ``GUESS + i``: guess the state ``game.cards[i]``.
GUESS = 0
#: ``NAME + i``: name the state ``game.cards[i]`` as a border clue.
NAME = 100
#: The team at each seat.
SIDES = (iq.Side.STUDENT, iq.Side.COMPUTER)


@dataclass(frozen=True)
class Guess(Move):
    """Guess the other team's state."""

    kind: ClassVar[str] = "guess"
    state: str


@dataclass(frozen=True)
class NameBorder(Move):
    """Name a state that borders the team's own state, as the B clue (Q2)."""

    kind: ClassVar[str] = "clue"
    state: str


class StateIQGame(Game):
    """State IQ between the student's team (seat 0) and the computer's (seat 1)."""

    slug = "state-iq"
    title = "State IQ"
    summary = "guess the other team's state from clues (2 teams)"
    card_game = False
    reviews = frozenset(iq.CLUE_FACETS.values())

    def __init__(
        self,
        deck: Deck,
        params: Params | None = None,
        level: Level = Level.MEDIUM,
        *,
        viewer: int = 0,
        names: Mapping[int, str] | None = None,
    ) -> None:
        """``viewer`` and ``names`` as for every game; the log is still written for seat 0."""
        super().__init__(deck, params, viewer=viewer, names=names)
        #: How the computer team gives its clues (Q2); its guesses are seat 1's actions.
        self.level = level

    def new_initial_state(self, seed: int) -> IQState:
        """Deal as the web page does with no facts to practise: the cards and the Power card
        from ``deal:seed``, who guesses first by R2's draw (or ``params.first_leader``)."""
        rng = random.Random(f"deal:{seed}")
        computer_card, student_card = iq.deal_cards((), self.deck, rng)
        if self.params.first_leader is None:
            first, _, _ = iq.first_guesser_by_draw(
                self.deck, random.Random(f"draw:{seed}"), exclude=(computer_card, student_card)
            )
        else:
            first = SIDES[self.params.first_leader]
        power = rng.choice(self.deck.power_cards)
        game = iq.StateIQ(self.deck, power, student_card, computer_card, first, self.level, seed)
        state = IQState(self, game)
        for clue in game.half.clues:
            state.note(clue.text(self.deck), None, "clue")
        return state

    def sample_state(self, observation: dict[str, Any], rng: random.Random) -> IQState:
        """The other team's card drawn from those that fit everything the seat has seen.

        Candidates fit the clues and are not among the guesses of the half the seat guesses in;
        the first (in a shuffled order) whose game looks the same to the seat, and can go on, is
        taken: the true card always qualifies.
        """
        seat = observation["seat"]
        own = observation["card"]
        power = next(p for p in self.deck.power_cards if p.id == observation["power"])
        first = SIDES[observation["halves"][0]["guesser"]]
        mine = next((h for h in observation["halves"] if h["guesser"] == seat), None)
        if mine is not None and mine["secret"] is not None:
            candidates = [mine["secret"]]
        else:
            clues = [clue_from(self, c) for c in mine["clues"]] if mine else []
            guessed = {self.cards[i].postal for i in mine["guesses"]} if mine else set()
            candidates = [
                card.postal
                for card in self.deck.sorted_by(None)
                if card.postal != own
                and card.postal not in guessed
                and all(clue.fits(card, self.deck) for clue in clues)
            ]
        rng.shuffle(candidates)
        for other in candidates:
            cards = (own, other) if seat == 0 else (other, own)
            game = iq.StateIQ(self.deck, power, *cards, first, self.level, rng.randrange(2**32))
            game.halves = [
                iq.Half(
                    SIDES[h["guesser"]],
                    cards[1] if h["guesser"] == 0 else cards[0],
                    [clue_from(self, c) for c in h["clues"]],
                    [self.cards[i].postal for i in h["guesses"]],
                )
                for h in observation["halves"]
            ]
            world = IQState(self, game)
            if world.observation(seat) == observation and (
                world.is_terminal() or world.legal_actions()
            ):
                return world
        raise GameError("No card fits what this seat has seen.")


def clue_from(game: Game, clue: dict[str, Any]) -> iq.Clue:
    """A clue as an observation shows it, back as the rules' :class:`~trainer.quiz.state_iq.Clue`."""
    slot = iq.ClueSlot(iq.ClueKind(clue["kind"]), clue["letter"])
    if slot.kind is iq.ClueKind.BORDER:
        value = "" if clue["state"] is None else game.cards[clue["state"]].postal
    else:
        value = clue["value"]
    return iq.Clue(slot, value, clue["borders_before"])


class IQState(State):
    game: StateIQGame

    def __init__(self, game: StateIQGame, iq_game: iq.StateIQ) -> None:
        super().__init__(game)
        self.iq = iq_game
        #: The rules' own generator (the computer's clues at medium level), in view of checks
        #: that compare states field by field.
        self.rng = iq_game.rng

    # --- whose turn, and what they may do ---------------------------------------------------

    def current_player(self) -> int:
        waiting = self.iq.waiting_for()
        if waiting is None:
            return TERMINAL
        return 1 if waiting == "computer" else 0

    def legal_actions(self) -> list[int]:
        waiting = self.iq.waiting_for()
        if waiting is None:
            return []
        if waiting == "student_clue":
            return sorted(NAME + self.game.index[p] for p in self.iq.border_choices())
        guessed = set(self.iq.half.guesses)
        return [GUESS + i for i, card in enumerate(self.game.cards) if card.postal not in guessed]

    def decode(self, action: int) -> Guess | NameBorder:
        cards = self.game.cards
        if isinstance(action, int) and GUESS <= action < GUESS + len(cards):
            return Guess(cards[action - GUESS].postal)
        if isinstance(action, int) and NAME <= action < NAME + len(cards):
            return NameBorder(cards[action - NAME].postal)
        raise IllegalAction("That is not a move in State IQ.")

    def action_to_string(self, action: int) -> str:
        move = self.decode(action)
        name = self.game.card(move.state).name
        return f"Guess {name}" if isinstance(move, Guess) else f"Name {name} as a border state"

    def why_illegal(self, action: int) -> str:
        waiting = self.iq.waiting_for()
        try:
            move = self.decode(action)
        except IllegalAction as refused:
            return str(refused)
        if waiting == "student_clue" and isinstance(move, Guess):
            return "Name a state that borders yours first."
        if waiting != "student_clue" and isinstance(move, NameBorder):
            return "No border clue is due now."
        if isinstance(move, Guess):
            return f"{self.game.card(move.state).name} was guessed already."
        name = self.game.card(move.state).name
        return f"Name a state that borders yours and was not named yet, not {name}."

    def _apply(self, action: int) -> None:
        move = self.decode(action)
        seat = self.current_player()
        half = self.iq.half
        clues = len(half.clues)
        name = self.game.card(move.state).name
        if isinstance(move, NameBorder):
            self.iq.give_border(move.state)
            self.note(f"You name {name} as a state that borders yours.", seat, "clue")
            return
        right = self.iq.guess(move.state) if seat == 0 else self.iq.computer_guess(move.state)
        who = "You guess" if seat == 0 else "The computer guesses"
        self.note(f"{who} {name}: {'right' if right else 'wrong'}.", seat, "guess")
        for clue in half.clues[clues:]:
            self.note(clue.text(self.game.deck), None, "clue")
        if self.iq.half is not half:
            for clue in self.iq.half.clues:
                self.note(clue.text(self.game.deck), None, "clue")

    # --- the end ----------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.iq.is_over

    def returns(self) -> list[float]:
        if not self.iq.is_over:
            return [0.0, 0.0]
        winner = self.iq.winner()
        if winner is None:
            return [0.5, 0.5]
        return [1.0, 0.0] if winner is iq.Side.STUDENT else [0.0, 1.0]

    # --- what each seat sees ----------------------------------------------------------------

    def own_card(self, player: int) -> str:
        return self.iq.student_card if player == 0 else self.iq.computer_card

    def seen_by(self, player: int) -> set[str]:
        """The cards ``player`` may see: its own, any guessed right, and both at the end."""
        seen = {self.own_card(player)} | {h.secret for h in self.iq.halves if h.solved}
        if self.iq.is_over:
            seen |= {self.iq.student_card, self.iq.computer_card}
        return seen

    def observation(self, player: int) -> dict[str, Any]:
        index = self.game.index
        seen = self.seen_by(player)
        return {
            "game": self.game.slug,
            "seat": player,
            "current_player": self.current_player(),
            "waiting": self.iq.waiting_for(),
            "card": self.own_card(player),
            "power": self.iq.power.id,
            "clue_code": self.iq.power.clue_code,
            "halves": [
                {
                    "guesser": SIDES.index(half.guesser),
                    "clues": [self._clue(clue) for clue in half.clues],
                    "guesses": [index[p] for p in half.guesses],
                    "solved": half.solved,
                    "secret": half.secret if half.secret in seen else None,
                }
                for half in self.iq.halves
            ],
        }

    def _clue(self, clue: iq.Clue) -> dict[str, Any]:
        border = clue.slot.kind is iq.ClueKind.BORDER
        return {
            "kind": clue.slot.kind.value,
            "letter": clue.slot.letter,
            "value": "" if border else clue.value,
            "state": self.game.index[clue.value] if border and clue.value else None,
            "borders_before": clue.borders_before,
        }

    def all_cards(self) -> list[str]:
        dealt = [self.iq.student_card, self.iq.computer_card]
        return [*dealt, *(card.postal for card in self.game.cards if card.postal not in dealt)]

    def hidden_from(self, player: int) -> set[str]:
        return {card.postal for card in self.game.cards} - self.seen_by(player)

    def clone(self) -> IQState:
        other = IQState(self.game, self.iq.copy())
        self._copy_base(other)
        return other


__all__ = ["GUESS", "NAME", "Guess", "IQState", "NameBorder", "StateIQGame"]
