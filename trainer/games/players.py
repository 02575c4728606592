"""Computer players. Each sees only its seat's observation and the legal actions.

- :class:`RandomPlayer` picks any legal action (the *easy* level).
- :class:`RulePlayer` plays as a sensible person would, by each game's own rules of thumb (*medium*).
- :class:`SearchPlayer` thinks ahead (*hard*): it deals the cards it cannot see at random from
  those it has not seen (perfect-information Monte Carlo), plays each legal action out in every
  such deal with quick rule-of-thumb play, and picks the action that did best on average.

Every player draws from its own seeded generator, so a game with computer players replays exactly.

What each game's players think lives in its bot (:mod:`trainer.games.bots`); a game without one
(Geography War, which has no choices) gets the plain :class:`~trainer.games.bots.Bot`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from ..levels import Level
from .base import Game, State
from .bots import bot_for


class Player(Protocol):
    def choose(self, game: Game, observation: dict[str, Any], legal: Sequence[int]) -> int: ...


class RandomPlayer:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Game, observation: dict[str, Any], legal: Sequence[int]) -> int:
        return self.rng.choice(list(legal))


class RulePlayer:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Game, observation: dict[str, Any], legal: Sequence[int]) -> int:
        return bot_for(game).rule_action(observation, legal, self.rng)


class SearchPlayer:
    """Perfect-information Monte Carlo over deals consistent with what the seat has seen.

    Args:
        rng: the player's own generator.
        worlds: how many deals of the unseen cards to think about per move (default: the game's
            bot's own).
        steps: at most how many imagined moves to make, counted as they are played (each
            candidate's first move and every move of its play-out): no new deal is imagined once
            they are spent, so a move's thinking is bounded by work, not by the clock (the same
            move on any machine: games replay exactly). With none left the rule of thumb plays.
            None: no bound but ``worlds``.
    """

    def __init__(
        self, rng: random.Random, worlds: int | None = None, steps: int | None = None
    ) -> None:
        self.rng = rng
        self.worlds = worlds
        self.steps = steps
        #: The imagined moves the last :meth:`choose` made.
        self.spent = 0

    def choose(self, game: Game, observation: dict[str, Any], legal: Sequence[int]) -> int:
        self.spent = 0
        legal = list(legal)
        if len(legal) == 1:
            return legal[0]
        seat = observation["seat"]
        totals = dict.fromkeys(legal, 0.0)
        bot = bot_for(game)
        candidates = bot.search_candidates(observation, legal)
        if len(candidates) == 1:
            return candidates[0]
        # Ties go to the rule of thumb's own choice, so thinking ahead never plays worse for no reason.
        preferred = bot.rule_action(observation, legal, random.Random(0))
        if self.steps is not None and self.steps <= 0:
            return preferred
        spent = 0
        for _ in range(self.worlds or bot.search_worlds):
            if self.steps is not None and spent >= self.steps:
                break
            world = game.sample_state(observation, self.rng)
            for action in candidates:
                state = world.clone()
                state.apply_action(action)
                spent += 1
                while not state.is_terminal() and not bot.search_horizon(world, state):
                    state.apply_action(bot.rollout_action(state, self.rng))
                    spent += 1
                totals[action] += bot.search_value(world, state, seat)
        self.spent = spent
        return max(candidates, key=lambda a: (totals[a], a == preferred))


def make_player(level: Level, seed: int | str) -> Player:
    """A computer player of ``level`` with its own generator drawn from ``seed``."""
    rng = random.Random(f"player:{level.value}:{seed}")
    if level is Level.EASY:
        return RandomPlayer(rng)
    if level is Level.MEDIUM:
        return RulePlayer(rng)
    return SearchPlayer(rng)


#: ``play_computer_turns``'s default: the game's bot's own ``request_steps``.
BOT_STEPS = -1


def play_computer_turns(
    state: State, levels: dict[int, Level], seed: int, steps: int | None = BOT_STEPS
) -> list[int]:
    """Let the computer seats in ``levels`` act until a seat outside it is to move or the game ends.

    Each computer move draws from a generator seeded by the game's seed and the move's number,
    so the same game always gets the same computer moves. The searching seats share ``steps``
    imagined moves (by default the game's bot's ``request_steps``; None: no bound): each gets an
    equal share of what is left among the searching seats still to play this round, so a table of seven thinks no longer in all than a table of
    two, and a move with nothing left plays the rule of thumb. Returns the actions taken.
    """
    taken = []
    game = state.game
    searching = sum(1 for level in levels.values() if level is Level.HARD)
    left = bot_for(game).request_steps if steps == BOT_STEPS else steps
    turn = 0
    while not state.is_terminal() and state.current_player() in levels:
        seat = state.current_player()
        player = make_player(levels[seat], f"{seed}:{len(state.history)}")
        if isinstance(player, SearchPlayer) and left is not None:
            player.steps = left // (searching - turn % searching)  # the seats still to play
            turn += 1
        action = player.choose(game, state.observation(seat), state.legal_actions())
        if isinstance(player, SearchPlayer) and left is not None:
            left -= player.spent
        state.apply_action(action)
        taken.append(action)
    return taken
