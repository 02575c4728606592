"""GeoPower Toss's computer players: keep the category the hand is strong in, call on a strong hand,
win cheaply; searching, play out the round with every hand known."""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Sequence
from typing import Any, cast

from ...cards import Category
from ..base import State
from ..geopower_toss import (
    CALL,
    CATEGORIES,
    CATEGORY_INDEX,
    PLUNGE_TRICKS,
    REMOVE,
    TRICKS,
    ZONES,
    GeoPowerToss,
    TossState,
)
from .base import Bot

#: The rule of thumb calls GeoPlunge when it expects this many tricks for its side.
CALL_AT = 6.0
#: How much of a fair share of the tricks left the rule of thumb counts on from each partner.
PARTNER_SHARE = 0.5
#: A following card "stands" (is worth playing to win) when it is this likely to stay best.
STAND = 0.5


class TossBot(Bot):
    game_class = GeoPowerToss
    search_worlds = 30
    request_steps = 7_000  # about 60 ms of play-outs here (issue 25)
    game: GeoPowerToss

    def __init__(self, game: GeoPowerToss) -> None:
        super().__init__(game)
        self.zone_of = game.zone_of
        self.power_by_id = game.power_by_id
        self.side = game.side
        self.members = game.members
        self.opponents = game.opponents

    def _columns(self, unseen: Sequence[str], k: int) -> list[list[int]]:
        """Per zone, the sorted rankings in category ``k`` of the unseen cards."""
        columns: list[list[int]] = [[] for _ in ZONES]
        for postal in unseen:
            columns[self.zone_of[postal]].append(self.ranks[postal][k])
        for column in columns:
            column.sort()
        return columns

    def _share(
        self,
        counts: Sequence[int],
        seats: Sequence[int],
        voids: list[set[int]],
        zone: int,
        unseen: int,
    ) -> float:
        """The chance that a given unseen card of ``zone`` is in the hand of one of ``seats``."""
        held = sum(counts[s] for s in seats if zone not in voids[s])
        return min(1.0, held / unseen) if unseen else 0.0

    def _stands(self, postal: str, k: int, columns: list[list[int]], share: float) -> float:
        """The chance no better card of its zone is held by the players counted in ``share``."""
        better = bisect_left(columns[self.zone_of[postal]], self.ranks[postal][k])
        return (1.0 - share) ** better

    def hand_strength(
        self,
        observation: dict[str, Any],
        k: int,
        unseen: Sequence[str] | None = None,
        voids: list[set[int]] | None = None,
    ) -> float:
        """Roughly how many tricks the seat's hand takes in category ``k``: per card, the chance it is the best of its zone."""
        if unseen is None or voids is None:
            unseen, voids = self.game.knowledge(observation)
        seat, counts = observation["seat"], observation["hand_counts"]
        opponents = self.opponents[seat]
        columns = self._columns(unseen, k)
        shares = [self._share(counts, opponents, voids, z, len(unseen)) for z in range(len(ZONES))]
        return sum(
            self._stands(p, k, columns, shares[self.zone_of[p]]) for p in observation["hand"]
        )

    def expected_tricks(self, observation: dict[str, Any]) -> float:
        """The side's tricks so far, plus what this hand should take, plus a modest share from partners."""
        unseen, voids = self.game.knowledge(observation)
        k = CATEGORY_INDEX[observation["geopower"]]
        members = self.members[self.side[observation["seat"]]]
        won = sum(observation["won"][s] for s in members)
        left = TRICKS - len(observation["tricks"])
        partners = len(members) - 1
        return (
            won
            + self.hand_strength(observation, k, unseen, voids)
            + PARTNER_SHARE * partners * left / self.players
        )

    def rule_action(
        self, observation: dict[str, Any], legal: Sequence[int], rng: random.Random
    ) -> int:
        """Keep the category the hand is strong in; call on a strong hand; win cheaply, or throw the least useful card.

        Removing a Power card, the player removes the one whose category suits its hand worst.
        Playing, it calls GeoPlunge when it expects 6 tricks; leading, it leads the card most
        likely to be the best left in its zone; following, it plays the cheapest card of the led
        zone that should take the trick (certain when it plays last), and otherwise its weakest
        card of the led zone, or, with none, its least useful card.
        """
        if (
            observation["phase"] == "power"
        ):  # never a call yet: the estimate needs the GeoPower category (P-H10)
            unseen, voids = self.game.knowledge(observation)
            strength = [self.hand_strength(observation, k, unseen, voids) for k in range(3)]
            removals = [a for a in legal if a != CALL]
            return min(
                removals,
                key=lambda a: (
                    strength[CATEGORIES.index(self.power_by_id[a - REMOVE].category)],
                    a,
                ),
            )
        if CALL in legal and self.expected_tricks(observation) >= CALL_AT:
            return CALL
        cards = [a for a in legal if a < REMOVE]
        return self.index[self._rule_card(observation, [self.cards[a].postal for a in cards])]

    def _rule_card(self, observation: dict[str, Any], hand: list[str]) -> str:
        """The rule of thumb's card among ``hand`` (the cards it may play)."""
        unseen, voids = self.game.knowledge(observation)
        k = CATEGORY_INDEX[observation["geopower"]]
        seat, counts = observation["seat"], observation["hand_counts"]
        side = self.side[seat]
        ranks, zone_of = self.ranks, self.zone_of
        columns = self._columns(unseen, k)
        opponents = self.opponents[seat]
        worth = {
            p: self._stands(
                p, k, columns, self._share(counts, opponents, voids, zone_of[p], len(unseen))
            )
            for p in observation["hand"]
        }
        trick = observation["trick"]
        if not trick:  # leading: the card most likely to stay best in its zone
            return max(hand, key=lambda p: (worth[p], -ranks[p][k], p))
        led = zone_of[trick[0]["card"]]
        in_zone = [p for p in hand if zone_of[p] == led]
        if not in_zone:  # void: throw the least useful card
            return min(hand, key=lambda p: (worth[p], -ranks[p][k], p))
        best = min(
            (play for play in trick if zone_of[play["card"]] == led),
            key=lambda play: ranks[play["card"]][k],
        )
        best_rank = ranks[best["card"]][k]
        later = [(trick[0]["seat"] + i) % self.players for i in range(len(trick) + 1, self.players)]
        later_opponents = [s for s in later if self.side[s] != side]
        share = self._share(counts, later_opponents, voids, led, len(unseen))
        weakest = max(in_zone, key=lambda p: (ranks[p][k], p))
        if (
            self.side[best["seat"]] == side
            and self._stands(best["card"], k, columns, share) >= STAND
        ):
            return weakest  # the partner's card should hold: do not waste a winner
        standing = [
            p
            for p in in_zone
            if ranks[p][k] < best_rank and self._stands(p, k, columns, share) >= STAND
        ]
        if standing:
            return max(
                standing, key=lambda p: (ranks[p][k], p)
            )  # the cheapest card that should win
        return weakest

    def rollout_action(self, state: State, rng: random.Random) -> int:
        """Quick play in an imagined deal, where every hand is known.

        Leading: a card that takes the trick for the side (no opponent can beat it, or a partner
        holds the zone's best), else its weakest card. Following: the cheapest card
        that beats the trick and every opponent still to play, unless a partner already has it;
        else the weakest card of the led zone, or, when void, the card furthest from winning.
        A side calls GeoPlunge, when leading, if its tricks plus its unbeatable cards make 6.
        """
        assert isinstance(state, TossState)
        seat = state.to_play
        if state.geopower is None:
            return self.rule_action(state.observation(seat), state.legal_actions(), rng)
        k = state.k
        ranks, zone_of, index, sides = self.ranks, self.zone_of, self.index, self.side
        side = sides[seat]
        hands = state.hands
        hand = hands[seat]
        trick = state.trick
        led = zone_of[trick[0]["card"]] if trick else -1
        in_zone = [p for p in hand if zone_of[p] == led]
        if not in_zone:  # leading, or void: where does each card stand against the other hands?
            theirs = [99] * len(ZONES)  # per zone, the opponents' best ranking
            ours = [99] * len(ZONES)  # and the partners'
            for other in range(self.players):
                if other != seat:
                    best = theirs if sides[other] != side else ours
                    for p in hands[other]:
                        z = zone_of[p]
                        best[z] = min(best[z], ranks[p][k])
            if trick:  # void: throw the card furthest from winning
                return index[
                    max(hand, key=lambda p: (ranks[p][k] > theirs[zone_of[p]], ranks[p][k]))
                ]
            if side not in state.called and state.can_call():
                won = sum(state.won[s] for s in self.members[side])
                sure = sum(
                    1
                    for s in self.members[side]
                    for p in hands[s]
                    if ranks[p][k] < theirs[zone_of[p]]
                )
                if won + sure >= PLUNGE_TRICKS:
                    return CALL
            best_p, best_key = hand[0], (3, 0)
            for p in hand:
                r = ranks[p][k]
                z = zone_of[p]
                key = (0, r) if r < theirs[z] else (1, -r) if ours[z] < theirs[z] else (2, -r)
                if key < best_key:
                    best_p, best_key = p, key
            return index[best_p]
        best_rank, best_seat = 99, -1
        for play in trick:
            p = play["card"]
            if zone_of[p] == led and ranks[p][k] < best_rank:
                best_rank, best_seat = ranks[p][k], play["seat"]
        players = self.players
        threat = 99  # the best led-zone card among opponents still to play
        for i in range(len(trick) + 1, players):
            other = (trick[0]["seat"] + i) % players
            if sides[other] != side:
                for p in hands[other]:
                    if zone_of[p] == led and ranks[p][k] < threat:
                        threat = ranks[p][k]
        weakest = max(in_zone, key=lambda p: ranks[p][k])
        if sides[best_seat] == side and best_rank < threat:
            return index[weakest]
        bar = min(best_rank, threat)
        winners = [p for p in in_zone if ranks[p][k] < bar]
        if winners:
            return index[max(winners, key=lambda p: ranks[p][k])]
        return index[weakest]

    def search_candidates(self, observation: dict[str, Any], legal: Sequence[int]) -> list[int]:
        """One action per set of equivalent ones, the rule of thumb's choice first; calls are the rule of thumb's.

        Two Power cards of one category are the same choice. Two cards of one zone with no unseen
        card, and no card of the open trick, ranked between them win and lose the same tricks, so
        one stands for both. A call is left to the rule of thumb's estimate (when it calls, that
        is the only candidate): play-outs that know every hand find 6 tricks far easier than they
        are, and called too often.
        """
        if (
            observation["phase"] == "power"
        ):  # removals only: calls are the rule of thumb's, and it waits (P-H10)
            seen: set[Category] = set()
            out = []
            for action in legal:
                if action == CALL:
                    continue
                category = self.power_by_id[action - REMOVE].category
                if category not in seen:
                    seen.add(category)
                    out.append(action)
            return out
        if CALL in legal and self.expected_tricks(observation) >= CALL_AT:
            return [CALL]
        k = CATEGORY_INDEX[observation["geopower"]]
        unseen, _ = self.game.knowledge(observation)
        ranks, zone_of = self.ranks, self.zone_of
        columns = self._columns([*unseen, *(play["card"] for play in observation["trick"])], k)

        def kind(postal: str) -> tuple[int, int]:
            """The card's zone and how many cards still in play (unseen, or in this trick) of that zone rank above it."""
            return zone_of[postal], bisect_left(columns[zone_of[postal]], ranks[postal][k])

        cards = [self.cards[a].postal for a in legal if a < REMOVE]
        classes: dict[tuple[int, int], str] = {}
        for postal in sorted(cards, key=lambda p: ranks[p][k]):
            classes.setdefault(kind(postal), postal)
        first = classes[kind(self._rule_card(observation, cards))]
        rest = sorted((p for p in classes.values() if p != first), key=lambda p: ranks[p][k])
        return [self.index[p] for p in [first, *rest]]

    def search_horizon(self, start: State, state: State) -> bool:
        """The search plays out the rest of the round."""
        return cast(TossState, state).round != cast(TossState, start).round

    def search_value(self, start: State, end: State, seat: int) -> float:
        """Points this side gained in the rest of the round, less the best any other side gained."""
        side = self.side[seat]
        before, after = cast(TossState, start).scores, cast(TossState, end).scores
        gains = [b - a for a, b in zip(before, after, strict=True)]
        return gains[side] - max((g for s, g in enumerate(gains) if s != side), default=0)
