"""GeoPlunge 51's computer players: make 51 when possible, else leave a count the next player is
unlikely to use; searching, look once round the table."""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any, cast

from ..base import State
from ..geoplunge_51 import BLOCK_POINTS, EXACT_POINTS, TARGET, FiftyOneState, GeoPlunge51
from .base import Bot

#: How many times round the table the search player looks ahead.
HORIZON = 1
#: How many of the rule of thumb's best plays the search player weighs.
CANDIDATES = 5


class FiftyOneBot(Bot):
    game_class = GeoPlunge51
    search_worlds = 100
    request_steps = 4_300  # about 70 ms of play-outs here (issue 25)
    game: GeoPlunge51

    def rule_action(
        self, observation: dict[str, Any], legal: Sequence[int], rng: random.Random
    ) -> int:
        scores = self.rule_scores(observation, legal)
        return max(legal, key=lambda a: (scores[a], -a))

    def search_candidates(self, observation: dict[str, Any], legal: Sequence[int]) -> list[int]:
        """The search player weighs the rule of thumb's few best plays."""
        scores = self.rule_scores(observation, legal)
        return sorted(legal, key=lambda a: (-scores[a], a))[:CANDIDATES]

    def rule_scores(self, observation: dict[str, Any], legal: Sequence[int]) -> dict[int, float]:
        """Make 51 when possible; otherwise leave a count the next player is unlikely to use.

        A good player weighs, for the gap left to 51, the chance that the next player holds a
        card with exactly that ranking (10 points to them, or to us if they are a partner) and
        the chance they hold nothing small enough to play (5 points to us). It plays big
        rankings early and keeps small ones, which can finish 51 or escape a tight count.
        """
        seat = observation["seat"]
        counts = observation["hand_counts"]
        seen = set(observation["hand"]) | {play["card"] for play in observation["played"]}
        unseen = [self.ranks[c.postal] for c in self.cards if c.postal not in seen]
        players = len(counts)
        nxt = next(
            (s % players for s in range(seat + 1, seat + players) if counts[s % players]), None
        )
        partner = nxt is not None and self.params.side_of(nxt) == self.params.side_of(seat)
        k = counts[nxt] if nxt is not None else 0
        having = [0] * (TARGET + 1)  # how many unseen cards have some ranking equal to each number
        for ranks in unseen:
            for r in set(ranks):
                having[r] += 1
        smallest = sorted(min(ranks) for ranks in unseen)
        total = len(unseen)
        count = observation["count"]
        scores = {}
        for action in legal:
            rank = self.ranks[self.cards[action // 3].postal][action % 3]
            gap = TARGET - count - rank
            if gap == 0:
                score = 100.0
            elif nxt is None or not total:
                score = 0.0
            else:
                p_stuck = (1 - bisect_right(smallest, gap) / total) ** k
                p_exact = (1 - (1 - having[gap] / total) ** k) * (1 - p_stuck)
                score = (
                    BLOCK_POINTS * p_stuck + (EXACT_POINTS if partner else -EXACT_POINTS) * p_exact
                )
            scores[action] = score + 0.002 * rank  # spend big rankings first
        return scores

    def rollout_action(self, state: State, rng: random.Random) -> int:
        """Quick play in an imagined deal: make 51 if possible; else leave the next hand stuck, never a 51."""
        assert isinstance(state, FiftyOneState)
        ranks = self.ranks
        seat = state.to_play
        legal = state.legal_actions()
        nxt = state.next_holder(seat)
        their = (
            {r for p in state.hands[nxt] for r in ranks[p]}
            if nxt is not None and nxt != seat
            else set()
        )
        smallest = min(their) if their else 0
        partner = nxt is not None and self.params.side_of(nxt) == self.params.side_of(seat)
        best, best_score = legal[0], -1e9
        for action in legal:
            rank = ranks[self.cards[action // 3].postal][action % 3]
            gap = TARGET - state.count - rank
            if gap == 0:
                score = 100.0
            elif their and smallest > gap:
                score = 5.0
            elif gap in their:
                score = 10.0 if partner else -10.0
            else:
                score = 0.0
            score += 0.002 * rank
            if score > best_score:
                best, best_score = action, score
        return best

    def search_horizon(self, start: State, state: State) -> bool:
        """The search looks once round the table and back to its own next play, within the round."""
        return (
            cast(FiftyOneState, state).round != cast(FiftyOneState, start).round
            or len(state.history) - len(start.history) > HORIZON * self.players
        )

    def search_value(self, start: State, end: State, seat: int) -> float:
        """Points this side gained in the rest of the round, less the best any other side gained."""
        side = self.params.side_of(seat)
        before, after = cast(FiftyOneState, start).scores, cast(FiftyOneState, end).scores
        gains = [b - a for a, b in zip(before, after, strict=True)]
        return gains[side] - max((g for s, g in enumerate(gains) if s != side), default=0)
