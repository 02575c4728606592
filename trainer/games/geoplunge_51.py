"""GeoPlunge 51 (2-7 players, individually or in teams; F1-F5, G6-G8).

An action is one card with one of its rankings announced: ``card index * 3 + category index``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from ..cards import Category, StateCard
from .base import (
    TERMINAL,
    Game,
    IllegalAction,
    Move,
    PointsState,
    copy_rng,
    shuffled,
)
from .drill import Answerer, DrillAnswer, RefusedPlay, judge_announced, rank_question

TARGET = 51
HAND = 7
EXACT_POINTS = 10  # F2
BLOCK_POINTS = 5  # F3
GAME_POINTS = 50  # G8
CATEGORIES = tuple(Category)


@dataclass(frozen=True)
class Announce(Move):
    """Play a card and announce its rank in a category (F1)."""

    kind: ClassVar[str] = "play"
    card: str
    category: Category

    def card_played(self) -> str | None:
        return self.card


class GeoPlunge51(Game):
    slug = "geoplunge-51"
    title = "GeoPlunge 51"
    menu_order = 10
    summary = "add rankings to make exactly 51 (2-7 players)"
    round_log = True
    min_players = 2
    max_players = 7
    team_sizes = (1, 2, 3)

    def action(self, postal: str, category: Category) -> int:
        return self.index[postal] * 3 + CATEGORIES.index(category)

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
        s = self.verb_end(dealer)
        self.note(
            f"Round {self.round}: {self.seat_name(dealer)} deal{s} and play{s} first.",
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

    def decode(self, action: int) -> Announce:
        if not isinstance(action, int) or not 0 <= action < len(self.game.cards) * 3:
            raise IllegalAction("That is not a move in GeoPlunge 51.")
        return Announce(self.game.cards[action // 3].postal, CATEGORIES[action % 3])

    def action_to_string(self, action: int) -> str:
        move = self.decode(action)
        card = self.game.card(move.card)
        return f"Play {card.name} and announce {move.category.value.lower()} {card.rank(move.category)}"

    def why_illegal(self, action: int) -> str:
        try:
            move = self.decode(action)
        except IllegalAction as exc:
            return str(exc)
        if move.card not in self.hands[self.to_play]:
            return "That card is not in the hand of the player to move."
        rank = self.game.card(move.card).rank(move.category)
        return f"That would take the count to {self.count + rank}, past {TARGET} (F1)."

    def _apply(self, action: int) -> None:
        move = self.decode(action)
        seat = self.to_play
        card = self.game.card(move.card)
        rank = card.rank(move.category)
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
        )
        who, s = self.seat_name(seat), self.verb_end(seat)
        self.note(
            f"{who} play{s} {card.name}, {move.category.value.lower()} {rank}: the count is {self.count}.",
            seat,
        )
        side = self.game.params.side_of(seat)
        nxt = self.next_holder(seat)
        if self.count == TARGET:  # F2
            self.played[-1]["points"] = EXACT_POINTS
            self.scores[side] += EXACT_POINTS
            self.note(
                f"Exactly {TARGET}! {who} score{s} {EXACT_POINTS}; the count starts again at 0.",
                seat,
                "score",
            )
            self.count = 0
        elif nxt is not None and nxt != seat and self._stuck(nxt):  # F3
            self.played[-1]["points"] = BLOCK_POINTS
            self.scores[side] += BLOCK_POINTS
            self.note(
                f"{self.seat_name(nxt)} cannot play without passing {TARGET}, so {'you' if seat == self.viewer else who} "
                f"score{s} {BLOCK_POINTS}; the count starts again at 0.",
                seat,
                "score",
            )
            self.count = 0
        if nxt is None:
            self._end_round()
        else:
            self.to_play = nxt

    def next_holder(self, seat: int) -> int | None:
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
            side = self.scores.index(best)
            name, s = self.side_name(side), self.side_verb_end(side)
            self.note(
                f"{name} reach{'es' if s else ''} {best} points and win{s}!",
                None,
                "end",
            )
            return
        self.start_round((self.dealer + 1) % self.game.players)  # G7

    # --- the drill and the table ------------------------------------------------------------

    def drill_answers(self, action: int, answer: Answerer) -> list[DrillAnswer]:
        """The number announced with the card. The count needs the exact number: a wrong one
        refuses the play, and so does a right one that passes 51 (F1); both are recorded."""
        move = self.decode(action)
        deck = self.game.deck
        question = rank_question(deck, move.card, move.category)
        said = judge_announced(deck, move.card, move.category, answer(question))
        if not said.right:
            card = self.game.card(move.card)
            raise RefusedPlay(
                f"Not quite: {card.name} is {said.judgement.expected} in {move.category.value.lower()}, "
                f"not {said.judgement.given}. The count needs the exact number: try again.",
                [said],
            )
        if action not in self.legal_actions():
            # The ranking was right; the play breaks F1 all the same (the message apply_action gives).
            raise RefusedPlay(f"{self.why_illegal(action)} Nothing changed.", [said])
        return [said]

    def table_view(
        self, observation: dict[str, Any], your_turn: bool, drill: bool
    ) -> dict[str, Any]:
        deck = self.game.deck
        obs = observation
        params = self.game.params
        legal = set(self.legal_actions()) if your_turn else set()
        plays = []
        for postal in obs["hand"]:
            card = deck[postal]
            options = []
            for category in Category:
                action = self.game.action(postal, category)
                options.append(
                    {
                        "action": action,
                        "category": category,
                        "rank": card.rank(category),
                        "legal": action in legal,
                    }
                )
            choices = [(o["action"], o["category"]) for o in options]
            plays.append(
                {
                    "card": card,
                    "options": options,
                    "choices": choices,
                    "playable": any(o["legal"] for o in options),
                }
            )
        names = self.seat_names()
        seats = [
            {
                "name": names[seat],
                "cards": obs["hand_counts"][seat],
                "side": params.side_of(seat),
                "turn": obs["current_player"] == seat,
                "dealer": obs["dealer"] == seat,
                "you": seat == obs["seat"],
            }
            for seat in range(params.players)
        ]
        sides = [
            {
                "name": self.side_name(side),
                "points": obs["scores"][side],
                "members": [names[s] for s in params.seats_of(side)],
                "yours": side == obs["side"],
            }
            for side in range(params.sides)
        ]
        played = [
            dict(play, name=deck[play["card"]].name, who=names[play["seat"]])
            for play in obs["played"]
        ]
        return {
            "plays": plays,
            "seats": seats,
            "sides": sides,
            "played": played,
            "teams": params.team_size > 1,
        }

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
