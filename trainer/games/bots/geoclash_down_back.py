"""GeoClash Down Back's computer players: lead the card most likely to stand as the worst-ranked,
follow with the cheapest likely winner; searching, play out the round and weigh the cards each
player will be dealt next."""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any, cast

from ..base import State
from ..geoclash_down_back import CATEGORY_INDEX, LEAD, ClashState, GeoClashDownBack
from .base import Bot

#: How many leads the search player weighs.
CANDIDATES = 6
#: A follow that takes the trick is worth a card the player will miss only if it stands this often.
STAND = 0.5
#: How much a trick now is worth against the usefulness (highest ranking) a card keeps for later.
THRIFT = 1 / 100
#: How a player's chance of winning grows with the cards they are dealt (0 = out): fitted to games
#: between rule-of-thumb players, where each round's eventual winner was one of the players in
#: proportion to these numbers (about halving with each card lost).
LIFE = (0.0, 0.002, 0.023, 0.074, 0.145, 0.291, 0.579, 1.0)


def none_drawn(unseen: int, marked: int, drawn: int) -> float:
    """The chance that ``drawn`` cards dealt from ``unseen`` include none of ``marked`` of them (hypergeometric)."""
    if drawn <= 0 or marked <= 0:
        return 1.0
    if unseen - marked < drawn:
        return 0.0
    p = 1.0
    for i in range(drawn):
        p *= (unseen - marked - i) / (unseen - i)
    return p


class ClashBot(Bot):
    game_class = GeoClashDownBack
    search_worlds = 32
    request_steps = 7_500  # about 70 ms of play-outs here (issue 25)
    game: GeoClashDownBack

    def __init__(self, game: GeoClashDownBack) -> None:
        super().__init__(game)
        self.useful = game.useful

    def costs(self, hand: Sequence[str], tricks_left: int) -> dict[str, float]:
        """How much each card would be missed if played now.

        The round has ``tricks_left`` tricks including this one, so only the player's best
        ``tricks_left - 1`` other cards will ever be played: a card outside them costs nothing,
        and one among them costs what it is worth above the card that would take its place.
        With many cards against a short round, most of a hand is free to throw away.
        """
        useful = self.useful
        order = sorted(hand, key=lambda p: (-useful[p], p))
        keep = tricks_left - 1
        if keep <= 0:
            return dict.fromkeys(hand, 0.0)
        base = useful[order[keep]] if keep < len(order) else 0.0
        return {p: (useful[p] - base if i < keep else 0.0) for i, p in enumerate(order)}

    def _outlook(
        self, observation: dict[str, Any]
    ) -> tuple[list[list[int]], int, int, dict[str, float]]:
        """From what the seat has seen: each category's sorted unseen rankings, how many cards are
        unseen, how many tricks the round has left (this one included) and what each card costs."""
        hand = observation["hand"]
        trick = observation["trick"]
        seen = set(hand) | {play["card"] for t in observation["tricks"] for play in t["cards"]}
        seen |= {play["card"] for play in trick["cards"]}
        unseen = [self.ranks[c.postal] for c in self.cards if c.postal not in seen]
        columns = [sorted(r[k] for r in unseen) for k in range(3)]
        played = {play["seat"] for play in trick["cards"]}
        counts = observation["hand_counts"]
        tricks_left = min(
            counts[s] + (s in played) for s, playing in enumerate(observation["in_game"]) if playing
        )
        return columns, len(unseen), tricks_left, self.costs(hand, tricks_left)

    def _lead_keys(
        self, observation: dict[str, Any], legal: Sequence[int]
    ) -> dict[int, tuple[float, float, int]]:
        """For each lead: the chance no other hand holds a worse-ranked card in its category, less
        what the card is worth keeping; then that worth."""
        columns, unseen, _, costs = self._outlook(observation)
        seat = observation["seat"]
        others = sum(
            n
            for s, n in enumerate(observation["hand_counts"])
            if s != seat and observation["in_game"][s]
        )
        keys = {}
        for action in legal:
            postal = self.cards[(action - LEAD) // 3].postal
            k = (action - LEAD) % 3
            rank = self.ranks[postal][k]
            above = unseen - bisect_right(columns[k], rank)
            p = none_drawn(unseen, above, others)
            keys[action] = (-round(p - THRIFT * costs[postal], 6), costs[postal], action)
        return keys

    def rule_action(
        self, observation: dict[str, Any], legal: Sequence[int], rng: random.Random
    ) -> int:
        """Lead the card most likely to stand as the worst-ranked; follow with the cheapest likely winner.

        Leading, the player names the category in which one of its cards is worst-ranked against
        the cards it has not seen, and leads that card (keeping a sure winner it will need later
        when an almost-as-sure one costs less). Following, it takes the trick with the card it
        will miss least when that card beats the worst so far and is likely to stand (certain when
        it plays last, and always tried when the card costs nothing), else throws away its least
        useful card: the one whose worst ranking is closest to 1. With more cards than the round
        will last, its spare cards cost nothing (:meth:`costs`), so it spends or throws them away
        freely; with one card it has no choice but the category, which it names to give that card
        its best chance. It does not count tricks: the search player weighs the standings and the
        tie-break against the player dealt more cards (C4).
        """
        trick = observation["trick"]
        if not trick["cards"]:
            keys = self._lead_keys(observation, legal)
            return min(legal, key=keys.__getitem__)
        return self.index[self._follow_choices(observation)[0]]

    def _follow_choices(
        self, observation: dict[str, Any]
    ) -> tuple[str, str, str | None, str | None]:
        """Following: the rule of thumb's card, the card it would throw away, the cheapest card that
        beats the worst so far and the one most likely to stand (None when no card beats it)."""
        columns, unseen, _, costs = self._outlook(observation)
        hand = observation["hand"]
        trick = observation["trick"]
        k = CATEGORY_INDEX[trick["category"]]
        worst = max(self.ranks[play["card"]][k] for play in trick["cards"])
        played = {play["seat"] for play in trick["cards"]} | {observation["seat"]}
        later = sum(
            n
            for s, n in enumerate(observation["hand_counts"])
            if observation["in_game"][s] and s not in played
        )
        dump = min(hand, key=lambda p: (costs[p], self.useful[p], p))
        winners = {}
        for postal in hand:
            rank = self.ranks[postal][k]
            if rank > worst:
                winners[postal] = none_drawn(unseen, unseen - bisect_right(columns[k], rank), later)
        if not winners:
            return dump, dump, None, None
        cheapest = min(winners, key=lambda p: (costs[p], -winners[p], p))
        surest = max(winners, key=lambda p: (winners[p], -costs[p], p))
        worth = [p for p in winners if winners[p] >= STAND or costs[p] == 0]
        pick = min(worth, key=lambda p: (costs[p], -winners[p], p)) if worth else dump
        return pick, dump, cheapest, surest

    def search_candidates(self, observation: dict[str, Any], legal: Sequence[int]) -> list[int]:
        """The search player weighs the rule of thumb's best few leads; following, the few plays that
        differ in kind: the rule's, throwing away, taking the trick cheaply or most surely."""
        if not legal:
            return []
        if legal[0] < LEAD:
            choices = [p for p in self._follow_choices(observation) if p is not None]
            return sorted({self.index[p] for p in choices})
        keys = self._lead_keys(observation, legal)
        return sorted(legal, key=keys.__getitem__)[:CANDIDATES]

    def rollout_action(self, state: State, rng: random.Random) -> int:
        """Quick play in an imagined deal, where every hand is known: play a sure winner that costs
        least, else throw away the card that costs least.

        Among the cards a player can spare (or must play), the one that costs least is always the
        least useful, so only a lead without a sure winner weighs what its cards cost.
        """
        assert isinstance(state, ClashState)
        ranks, index, useful = self.ranks, self.index, self.useful
        seat = state.current_player()
        hand = state.hands[seat]
        trick = state.trick
        cards = trick["cards"]
        if cards:
            k = CATEGORY_INDEX[trick["category"]]
            bar = max(ranks[play["card"]][k] for play in cards)
            winners = [p for p in hand if ranks[p][k] > bar]
            if winners:
                played = {play["seat"] for play in cards}
                later = [
                    p
                    for s, h in enumerate(state.hands)
                    if state.in_game[s] and s != seat and s not in played
                    for p in h
                ]
                bar = max((ranks[p][k] for p in later), default=bar)
                winners = [p for p in winners if ranks[p][k] > bar]
            return index[min(winners or hand, key=useful.__getitem__)]
        others = [p for s, h in enumerate(state.hands) if state.in_game[s] and s != seat for p in h]
        tops = [max((ranks[p][k] for p in others), default=0) for k in range(3)]
        sure = [(p, k) for p in hand for k in range(3) if ranks[p][k] > tops[k]]
        if sure:
            postal, k = min(sure, key=lambda pk: (useful[pk[0]], -ranks[pk[0]][pk[1]]))
            return LEAD + index[postal] * 3 + k
        tricks_left = min(len(h) for s, h in enumerate(state.hands) if state.in_game[s])
        costs = self.costs(hand, tricks_left)
        postal, k = max(
            ((p, k) for p in hand for k in range(3)),
            key=lambda pk: ranks[pk[0]][pk[1]] - tops[pk[1]] - costs[pk[0]],
        )
        return LEAD + index[postal] * 3 + k

    def search_horizon(self, start: State, state: State) -> bool:
        """The search looks to the end of the round it is in."""
        return cast(ClashState, state).round != cast(ClashState, start).round

    def search_value(self, start: State, end: State, seat: int) -> float:
        """The seat's chance of winning the game after the round, judged by the cards each player will be dealt.

        Each player still in counts ``LIFE[cards]`` and the seat's chance is its share: losing a
        round costs a share that grows as the cards run low, being knocked out leaves nothing,
        and another player's loss helps too, most of all when it pushes them towards one card.
        """
        assert isinstance(end, ClashState)
        if end.over:
            return 1.0 if end.winner == seat else 0.0
        life = [LIFE[n] for n in end.dealt]
        return life[seat] / sum(life)
