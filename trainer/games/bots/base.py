"""What every game's computer players think with: a :class:`Bot` per game, registered by slug.

The players (:mod:`trainer.games.players`) ask a game's bot for the rule of thumb's move and,
searching, for the moves worth weighing, quick play-outs and how good an imagined end is. A
game without a bot of its own (Geography War, which has no choices) gets the plain :class:`Bot`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from ..base import Game, State


class Bot:
    """The computer players' thinking for one game; subclasses name their ``game`` and register.

    A bot reads only what its arguments give it: a seat's observation and the legal actions, or
    (in the search player's play-outs) an imagined deal where every hand is known.
    """

    #: The game this bot plays: a subclass that names it registers itself in ``BOTS``.
    game_class: ClassVar[type[Game]]
    #: How many deals of the unseen cards the search player imagines per move (it must stay quick).
    search_worlds: ClassVar[int] = 24
    #: How many imagined moves the searching seats may make in all for one request (a student's
    #: move and the computer moves after it, issue 25): about 80 ms of one core of this machine,
    #: at the game's own speed of play-outs (``bench/computer_turns.py`` measures it). Counted in
    #: moves, not time, so the same game plays the same on any machine.
    request_steps: ClassVar[int] = 2500

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A class that names its own ``game_class`` is that game's bot: it registers itself."""
        super().__init_subclass__(**kwargs)
        if "game_class" in cls.__dict__:
            BOTS[cls.game_class.slug] = cls

    def __init__(self, game: Game) -> None:
        self.game = game
        # Copied from the game: play-outs look these up many times per move.
        self.cards = game.cards
        self.index = game.index
        self.ranks = game.ranks
        self.params = game.params
        self.players = game.players

    def rule_action(
        self, observation: dict[str, Any], legal: Sequence[int], rng: random.Random
    ) -> int:
        """The rule-of-thumb player's choice, from the seat's observation alone."""
        return legal[0]

    def rollout_action(self, state: State, rng: random.Random) -> int:
        """A quick move for the search player's play-outs in one imagined deal."""
        seat = state.current_player()
        return self.rule_action(state.observation(seat), state.legal_actions(), rng)

    def search_candidates(self, observation: dict[str, Any], legal: Sequence[int]) -> list[int]:
        """The actions the search player weighs (all of them unless a game knows some are equivalent)."""
        return list(legal)

    def search_horizon(self, start: State, state: State) -> bool:
        """True where a play-out may stop and be scored by :meth:`search_value` (default: the end)."""
        return False

    def search_value(self, start: State, end: State, seat: int) -> float:
        """How good ``end`` is for ``seat``, having started thinking at ``start``."""
        return end.returns()[seat]


#: Each game's bot class by the game's slug.
BOTS: dict[str, type[Bot]] = {}


def bot_for(game: Game) -> Bot:
    """The bot for ``game`` (the plain :class:`Bot` when the game registered none)."""
    return BOTS.get(game.slug, Bot)(game)
