"""GeoPlunge 51 (2-7 players, individually or in teams; F1-F5, G6-G8).

An action is one card with one of its rankings announced: ``card index * 3 + category index``.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from ..cards import Category, StateCard
from .base import (
    TERMINAL,
    Game,
    IllegalAction,
    Move,
    PointsState,
    State,
    copy_rng,
    shuffled,
)

TARGET = 51
HAND = 7
EXACT_POINTS = 10  # F2
BLOCK_POINTS = 5  # F3
GAME_POINTS = 50  # G8
#: How many times round the table the search player looks ahead.
HORIZON = 1
#: How many of the rule of thumb's best plays the search player weighs.
CANDIDATES = 5
CATEGORIES = tuple(Category)


class GeoPlunge51(Game):
    slug = "geoplunge-51"
    title = "GeoPlunge 51"
    min_players = 2
    max_players = 7
    team_sizes = (1, 2, 3)
    search_worlds = 100

    def action(self, postal: str, category: Category) -> int:
        return self.index[postal] * 3 + CATEGORIES.index(category)

    # --- computer players --------------------------------------------------------------------

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
        nxt = state._next_holder(seat)
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
            state.round != start.round
            or len(state.history) - len(start.history) > HORIZON * self.players
        )  # type: ignore[attr-defined]

    def search_value(self, start: State, end: State, seat: int) -> float:
        """Points this side gained in the rest of the round, less the best any other side gained."""
        side = self.params.side_of(seat)
        gains = [b - a for a, b in zip(start.scores, end.scores, strict=True)]  # type: ignore[attr-defined]
        return gains[side] - max((g for s, g in enumerate(gains) if s != side), default=0)

    def new_initial_state(self, seed: int) -> FiftyOneState:
        rng = random.Random(f"geoplunge-51:{seed}")
        dealer = rng.randrange(self.players)  # G7: the first dealer is drawn...
        if self.params.first_leader is not None:
            dealer = self.params.first_leader  # ...unless the table agreed who deals first
        state = FiftyOneState(self, rng)
        state.start_round(dealer)
        return state

    def sample_state(self, observation: dict[str, Any], rng: random.Random) -> FiftyOneState:
        seat = observation["seat"]
        seen = set(observation["hand"]) | {play["card"] for play in observation["played"]}
        unseen = shuffled([c.postal for c in self.cards if c.postal not in seen], rng)
        state = FiftyOneState(self, random.Random(rng.random()))
        state.hands = []
        for other, count in enumerate(observation["hand_counts"]):
            if other == seat:
                state.hands.append(list(observation["hand"]))
            else:
                state.hands.append([unseen.pop() for _ in range(count)])
        mover, room = observation["current_player"], TARGET - observation["count"]
        if mover not in (seat, TERMINAL) and all(
            min(self.ranks[p]) > room for p in state.hands[mover]
        ):
            # F3/F4: every seat knows the player to move can play, so they hold a card that fits.
            for cards in [
                *(h for s, h in enumerate(state.hands) if s not in (seat, mover)),
                unseen,
            ]:
                fit = next((i for i, p in enumerate(cards) if min(self.ranks[p]) <= room), None)
                if fit is not None:
                    cards[fit], state.hands[mover][0] = state.hands[mover][0], cards[fit]
                    break
        state.undealt = unseen
        state.played = [dict(play) for play in observation["played"]]
        state.count = observation["count"]
        state.scores = list(observation["scores"])
        state.dealer = observation["dealer"]
        state.round = observation["round"]
        state.to_play = observation["current_player"]
        return state


class FiftyOneState(PointsState):
    game: GeoPlunge51

    def __init__(self, game: GeoPlunge51, rng: random.Random) -> None:
        super().__init__(game, rng)
        #: This round's plays, face up: {"seat", "card", "category", "rank", "count"}.
        self.played: list[dict[str, Any]] = []
        self.count = 0
        self.scores = [0] * game.params.sides
        self.dealer = 0
        self.round = 0
        self.to_play = 0
        self.over = False

    def start_round(self, dealer: int) -> None:
        """Shuffle, deal 7 each from the dealer's left, and give the dealer the first play (F1, F5)."""
        players = self.game.players
        order = shuffled([card.postal for card in self.game.cards], self.rng)
        self.hands = [[] for _ in range(players)]
        for i in range(HAND * players):
            self.hands[(dealer + 1 + i) % players].append(order[i])
        self.undealt = order[HAND * players :]
        self.played = []
        self.count = 0
        self.dealer = dealer
        self.round += 1
        self.to_play = dealer
        self.note(
            f"Round {self.round}: {self.seat_name(dealer)} deal{'' if dealer == 0 else 's'} and play{'' if dealer == 0 else 's'} first.",
            None,
            "deal",
        )

    # --- moves -----------------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.over else self.to_play

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        room = TARGET - self.count
        index, ranks = self.game.index, self.game.ranks
        actions = sorted(
            index[postal] * 3 + k
            for postal in self.hands[self.to_play]
            for k in range(3)
            if ranks[postal][k] <= room
        )
        assert actions, "F4: the player to move always has a legal play"
        return actions

    def decode(self, action: int) -> Move:
        if not isinstance(action, int) or not 0 <= action < len(self.game.cards) * 3:
            raise IllegalAction("That is not a move in GeoPlunge 51.")
        return Move("play", self.game.cards[action // 3].postal, CATEGORIES[action % 3])

    def action_to_string(self, action: int) -> str:
        move = self.decode(action)
        card = self.game.card(move.card)  # type: ignore[arg-type]
        return f"Play {card.name} and announce {move.category.value.lower()} {card.rank(move.category)}"  # type: ignore[union-attr]

    def why_illegal(self, action: int) -> str:
        try:
            move = self.decode(action)
        except IllegalAction as exc:
            return str(exc)
        if move.card not in self.hands[self.to_play]:
            return "That card is not in the hand of the player to move."
        rank = self.game.card(move.card).rank(move.category)  # type: ignore[arg-type]
        return f"That would take the count to {self.count + rank}, past {TARGET} (F1)."

    def _apply(self, action: int) -> None:
        move = self.decode(action)
        seat = self.to_play
        card = self.game.card(move.card)  # type: ignore[arg-type]
        rank = card.rank(move.category)  # type: ignore[arg-type]
        self.hands[seat].remove(card.postal)
        self.count += rank
        self.played.append(
            {
                "seat": seat,
                "card": card.postal,
                "category": move.category.slug,
                "rank": rank,
                "count": self.count,
                "points": 0,
            }
        )  # type: ignore[union-attr]
        who = self.seat_name(seat)
        self.note(
            f"{who} play{'' if seat == 0 else 's'} {card.name}, {move.category.value.lower()} {rank}: the count is {self.count}.",
            seat,
        )  # type: ignore[union-attr]
        side = self.game.params.side_of(seat)
        nxt = self._next_holder(seat)
        if self.count == TARGET:  # F2
            self.played[-1]["points"] = EXACT_POINTS
            self.scores[side] += EXACT_POINTS
            self.note(
                f"Exactly {TARGET}! {who} score{'' if seat == 0 else 's'} {EXACT_POINTS}; the count starts again at 0.",
                seat,
                "score",
            )
            self.count = 0
        elif nxt is not None and nxt != seat and self._stuck(nxt):  # F3
            self.played[-1]["points"] = BLOCK_POINTS
            self.scores[side] += BLOCK_POINTS
            self.note(
                f"{self.seat_name(nxt)} cannot play without passing {TARGET}, so {who.lower() if seat == 0 else who} "
                f"score{'' if seat == 0 else 's'} {BLOCK_POINTS}; the count starts again at 0.",
                seat,
                "score",
            )
            self.count = 0
        if nxt is None:
            self._end_round()
        else:
            self.to_play = nxt

    def _next_holder(self, seat: int) -> int | None:
        """The next seat clockwise from ``seat`` that still holds cards (``seat`` itself last)."""
        players = self.game.players
        for step in range(1, players + 1):
            other = (seat + step) % players
            if self.hands[other]:
                return other
        return None

    def _stuck(self, seat: int) -> bool:
        room = TARGET - self.count
        ranks = self.game.ranks
        return all(min(ranks[p]) > room for p in self.hands[seat])

    def _end_round(self) -> None:
        scores = ", ".join(
            f"{self.side_name(side)} {points}" for side, points in enumerate(self.scores)
        )
        self.note(f"Round {self.round} is over. Scores: {scores}.", None, "round")
        best = max(self.scores)
        if best >= GAME_POINTS and self.scores.count(best) == 1:  # G8
            self.over = True
            name = self.side_name(self.scores.index(best))
            self.note(
                f"{name} reach{'' if name == 'You' else 'es'} {best} points and win{'' if name == 'You' else 's'}!",
                None,
                "end",
            )
            return
        self.start_round((self.dealer + 1) % self.game.players)  # G7

    # --- what each seat sees ---------------------------------------------------------------

    def observation(self, player: int) -> dict[str, Any]:
        params = self.game.params
        return {
            "game": self.game.slug,
            "seat": player,
            "side": params.side_of(player),
            "sides": params.sides,
            "current_player": self.current_player(),
            "hand": sorted(self.hands[player]),
            "hand_counts": [len(hand) for hand in self.hands],
            "played": [dict(play) for play in self.played],
            "count": self.count,
            "scores": list(self.scores),
            "dealer": self.dealer,
            "round": self.round,
        }

    def all_cards(self) -> list[str]:
        return [
            *(p for hand in self.hands for p in hand),
            *self.undealt,
            *(play["card"] for play in self.played),
        ]

    def clone(self) -> FiftyOneState:
        other = FiftyOneState(self.game, copy_rng(self.rng))
        self._copy_base(other)
        other.hands = [list(hand) for hand in self.hands]
        other.undealt = list(self.undealt)
        other.played = [dict(play) for play in self.played]
        other.count = self.count
        other.scores = list(self.scores)
        other.dealer = self.dealer
        other.round = self.round
        other.to_play = self.to_play
        other.over = self.over
        return other


def ranks_of(card: StateCard) -> list[int]:
    return [card.rank(category) for category in CATEGORIES]
