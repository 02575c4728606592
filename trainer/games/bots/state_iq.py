"""State IQ's computer players: guess among the states that fit every clue shown; name the
border state that leaves the guessers the fewest states (the helpful clue)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...quiz import state_iq as iq
from ..state_iq import GUESS, NAME, StateIQGame, clue_from
from .base import Bot


class StateIQBot(Bot):
    game_class = StateIQGame
    #: Each imagined deal is played out to the end of the game, so few are enough.
    search_worlds = 8
    game: StateIQGame

    def fitting(self, observation: dict[str, Any], legal: Sequence[int]) -> list[int]:
        """The legal guesses that fit every clue the seat has been shown (all of them if none fit)."""
        half = observation["halves"][-1]
        clues = [clue_from(self.game, clue) for clue in half["clues"]]
        deck = self.game.deck
        fits = [a for a in legal if all(c.fits(self.cards[a - GUESS], deck) for c in clues)]
        return fits or list(legal)

    def rule_action(
        self, observation: dict[str, Any], legal: Sequence[int], rng: random.Random
    ) -> int:
        if legal[0] >= NAME:  # a border clue: the one that leaves the fewest states
            half = observation["halves"][-1]
            clues = [clue_from(self.game, clue) for clue in half["clues"]]
            slot = iq.ClueSlot(iq.ClueKind.BORDER)

            def left(action: int) -> int:
                named = iq.Clue(slot, self.cards[action - NAME].postal)
                return len(iq.consistent([*clues, named], self.game.deck))

            return min(legal, key=lambda a: (left(a), a))
        return rng.choice(self.fitting(observation, legal))

    def search_candidates(self, observation: dict[str, Any], legal: Sequence[int]) -> list[int]:
        """Guessing, only the states that fit the clues are worth weighing."""
        if legal and legal[0] >= NAME:
            return list(legal)
        return self.fitting(observation, legal)
