"""Play the Ranks' computer players: discard the most middling card, lead the safest winner, follow
with the cheapest winner; searching, weigh a few of each."""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Sequence
from typing import Any

from ..base import State
from ..play_the_ranks import CATEGORY_INDEX, LEAD, LOW_TRICKS, PlayTheRanks, RanksState
from .base import Bot

#: How many leads the search player weighs.
CANDIDATES = 5
#: How many discards the search player weighs (the most middling cards).
DISCARD_CANDIDATES = 3
#: How many follows the search player weighs: the cheapest winners and the cheapest losers.
FOLLOW_CANDIDATES = 4


class RanksBot(Bot):
    game_class = PlayTheRanks
    search_worlds = 20
    request_steps = 2_600  # about 70 ms of play-outs here (issue 25)
    game: PlayTheRanks

    def _value(self, postal: str, low: bool, high: bool) -> int:
        """How useful a card is for the tricks still to come: its most extreme useful ranking."""
        ranks = self.ranks[postal]
        return max(max(51 - r for r in ranks) if low else 0, max(ranks) if high else 0)

    def rule_action(
        self, observation: dict[str, Any], legal: Sequence[int], rng: random.Random
    ) -> int:
        """Discard the most middling card; lead the safest winner; follow with the cheapest winner.

        Leading, the player picks the card and category least likely to be beaten, judged from the
        cards it has not seen; following, it takes the trick with the card it will miss least, or
        throws away its least useful card when it cannot win.
        """
        hand = observation["hand"]
        number = observation["trick_number"]
        lower = number <= LOW_TRICKS
        later_low = number + 1 <= LOW_TRICKS
        if observation["phase"] == "discard":
            return self.index[min(hand, key=lambda p: (self._value(p, True, True), p))]
        tricks = observation["tricks"]
        if tricks and tricks[-1]["winner"] is None:  # following
            trick = tricks[-1]
            k = CATEGORY_INDEX[trick["category"]]
            led = self.ranks[trick["cards"][trick["leader"]]][k]
            winners = [p for p in hand if (self.ranks[p][k] < led) == lower]
            pick = min(winners or hand, key=lambda p: (self._value(p, later_low, True), p))
            return self.index[pick]
        keys = self._lead_keys(observation, legal)
        return min(legal, key=keys.__getitem__)

    def _lead_keys(
        self, observation: dict[str, Any], legal: Sequence[int]
    ) -> dict[int, tuple[float, int, int]]:
        """For each lead: the chance it is beaten by the cards not seen, then how much the card is worth keeping."""
        hand = observation["hand"]
        tricks = observation["tricks"]
        number = observation["trick_number"]
        lower = number <= LOW_TRICKS
        later_low = number + 1 <= LOW_TRICKS
        seen = (
            set(hand) | set(observation["discarded"]) | {p for t in tricks for p in t["cards"] if p}
        )
        unseen = [self.ranks[c.postal] for c in self.cards if c.postal not in seen]
        columns = [sorted(r[k] for r in unseen) for k in range(3)]
        total = max(len(unseen), 1)
        n = observation["hand_counts"][1 - observation["seat"]]
        keys = {}
        for action in legal:
            postal = self.cards[(action - LEAD) // 3].postal
            k = (action - LEAD) % 3
            rank = self.ranks[postal][k]
            below = bisect_left(columns[k], rank)
            beaten = (below if lower else len(columns[k]) - below) / total
            keys[action] = (
                round(1 - (1 - beaten) ** n, 3),
                self._value(postal, later_low, True),
                action,
            )
        return keys

    def search_candidates(self, observation: dict[str, Any], legal: Sequence[int]) -> list[int]:
        """The search player weighs the rule of thumb's best few leads; following, the cheapest
        winners and the cheapest losers; discarding, the most middling cards."""
        if observation["phase"] == "discard":
            hand = sorted(observation["hand"], key=lambda p: (self._value(p, True, True), p))
            return [self.index[p] for p in hand[:DISCARD_CANDIDATES]]
        if not legal or legal[0] < LEAD:
            trick = observation["tricks"][-1]
            k = CATEGORY_INDEX[trick["category"]]
            led = self.ranks[trick["cards"][trick["leader"]]][k]
            lower = observation["trick_number"] <= LOW_TRICKS
            later_low = observation["trick_number"] + 1 <= LOW_TRICKS
            hand = sorted(observation["hand"], key=lambda p: (self._value(p, later_low, True), p))
            winners = [p for p in hand if (self.ranks[p][k] < led) == lower]
            losers = [p for p in hand if p not in winners]
            half = FOLLOW_CANDIDATES // 2
            return sorted(self.index[p] for p in winners[:half] + losers[:half])
        keys = self._lead_keys(observation, legal)
        return sorted(legal, key=keys.__getitem__)[:CANDIDATES]

    def rollout_action(self, state: State, rng: random.Random) -> int:
        """Quick play in an imagined deal, where the other hand is known: lead what cannot be beaten."""
        assert isinstance(state, RanksState)
        seat = state.current_player()
        legal = state.legal_actions()
        if state.phase == "discard" or legal[0] < LEAD:
            return self.rule_action(state.observation(seat), legal, rng)
        number = state.trick_number
        lower = number <= LOW_TRICKS
        later_low = number + 1 <= LOW_TRICKS
        theirs = [self.ranks[p] for p in state.hands[1 - seat]]
        best, best_key = legal[0], None
        for action in legal:
            postal = self.cards[(action - LEAD) // 3].postal
            k = (action - LEAD) % 3
            rank = self.ranks[postal][k]
            beaten = any((r[k] < rank) == lower for r in theirs)
            key = (beaten, self._value(postal, later_low, True), action)
            if best_key is None or key < best_key:
                best, best_key = action, key
        return best
