"""Play the Ranks (2 sides; R1, R2): discard 1 of 9, then 8 tricks where the lead names the category.

Actions: a card alone (``card index``) to discard or to follow; a card with a category
(``LEAD + card index * 3 + category index``) to lead a trick.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Sequence
from typing import Any

from ..cards import Category
from ..facts.answers import ordinal
from .base import TERMINAL, Game, IllegalAction, Move, State, card_or_lead, shuffled

DEALT = 9
TRICKS = 8
#: Tricks 1-4 go to the lower number, 5-8 to the higher (R1).
LOW_TRICKS = 4
#: Play stops once a side has this many tricks (R1).
EARLY_END = 6
LEAD = 100
#: How many leads the search player weighs.
CANDIDATES = 5
#: How many discards the search player weighs (the most middling cards).
DISCARD_CANDIDATES = 3
#: How many follows the search player weighs: the cheapest winners and the cheapest losers.
FOLLOW_CANDIDATES = 4
CATEGORIES = tuple(Category)


class PlayTheRanks(Game):
    slug = "play-the-ranks"
    title = "Play the Ranks"
    search_worlds = 20

    def lead_action(self, postal: str, category: Category) -> int:
        return LEAD + self.index[postal] * 3 + CATEGORIES.index(category)

    def card_action(self, postal: str) -> int:
        return self.index[postal]

    # --- computer players --------------------------------------------------------------------

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
            k = CATEGORIES.index(Category.from_slug(trick["category"]))  # type: ignore[arg-type]
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
            k = CATEGORIES.index(Category.from_slug(trick["category"]))  # type: ignore[arg-type]
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

    def new_initial_state(self, seed: int) -> RanksState:
        rng = random.Random(f"play-the-ranks:{seed}")
        postals = [card.postal for card in self.cards]
        state = RanksState(self)
        leader = self.params.first_leader
        if leader is None:  # R2: each side draws a card; the better statehood rank leads
            drawn = rng.sample(postals, 2)
            ranks = [self.card(p).statehood_rank for p in drawn]
            leader = 0 if ranks[0] < ranks[1] else 1
            a, b = (self.card(p) for p in drawn)
            state.note(
                f"The draw: you drew {a.name} ({ordinal(a.statehood_rank)} in statehood), the computer drew "
                f"{b.name} ({ordinal(b.statehood_rank)}). {'You lead' if leader == 0 else 'The computer leads'} the first trick.",
                None,
                "round",
            )
            state.drawn = drawn
        order = shuffled(postals, rng)
        state.hands = [order[0:DEALT], order[DEALT : 2 * DEALT]]
        state.undealt = order[2 * DEALT :]
        state.leader = leader
        return state

    def sample_state(self, observation: dict[str, Any], rng: random.Random) -> RanksState:
        seat = observation["seat"]
        other = 1 - seat
        seen = (
            set(observation["hand"])
            | set(observation["discarded"])
            | {card for trick in observation["tricks"] for card in trick["cards"] if card}
        )
        unseen = shuffled([c.postal for c in self.cards if c.postal not in seen], rng)
        state = RanksState(self)
        hands: list[list[str]] = [[], []]
        hands[seat] = list(observation["hand"])
        hands[other] = [unseen.pop() for _ in range(observation["hand_counts"][other])]
        state.hands = hands
        discards: list[str | None] = [None, None]
        discards[seat] = observation["discarded"][0] if observation["discarded"] else None
        if observation["discards_made"][other]:
            discards[other] = unseen.pop()
        state.discards = discards
        state.undealt = unseen
        state.tricks = [dict(trick, cards=list(trick["cards"])) for trick in observation["tricks"]]
        state.won = list(observation["won"])
        state.leader = observation["leader"]
        return state


class RanksState(State):
    game: PlayTheRanks

    def __init__(self, game: PlayTheRanks) -> None:
        super().__init__(game)
        self.hands: list[list[str]] = [[], []]
        self.undealt: list[str] = []
        self.drawn: list[str] = []
        self.discards: list[str | None] = [None, None]
        #: Each trick: {"leader", "category", "cards": [seat 0's card, seat 1's], "winner"}.
        self.tricks: list[dict[str, Any]] = []
        self.won = [0, 0]
        self.leader = 0

    # --- where we are ----------------------------------------------------------------------

    @property
    def phase(self) -> str:
        if self.is_terminal():
            return "over"
        return "discard" if None in self.discards else "trick"

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        if (
            self.phase == "discard"
        ):  # the leader's side discards first; both discards stay face down
            return self.leader if self.discards[self.leader] is None else 1 - self.leader
        trick = self.tricks[-1] if self.tricks and self.tricks[-1]["winner"] is None else None
        if trick is None:
            return self.leader
        return 1 - trick["leader"]

    @property
    def trick_number(self) -> int:
        """1-8: the trick being played or about to be."""
        open_trick = bool(self.tricks) and self.tricks[-1]["winner"] is None
        return len(self.tricks) if open_trick else len(self.tricks) + 1

    def lower_wins(self, number: int | None = None) -> bool:
        return (number or self.trick_number) <= LOW_TRICKS

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        seat = self.current_player()
        hand = sorted(self.game.index[p] for p in self.hands[seat])
        if self.phase == "discard" or (self.tricks and self.tricks[-1]["winner"] is None):
            return hand
        return [LEAD + i * 3 + k for i in hand for k in range(3)]

    def decode(self, action: int) -> Move:
        return card_or_lead(self.game.cards, action, LEAD, self.game.title)

    def action_to_string(self, action: int) -> str:
        move = self.decode(action)
        name = self.game.card(move.card).name  # type: ignore[arg-type]
        if move.kind == "lead":
            return f"Lead {name} on {move.category.value.lower()}"  # type: ignore[union-attr]
        return f"Discard {name}" if self.phase == "discard" else f"Play {name}"

    def why_illegal(self, action: int) -> str:
        try:
            move = self.decode(action)
        except IllegalAction as exc:
            return str(exc)
        if move.card not in self.hands[self.current_player()]:
            return "That card is not in your hand."
        if self.phase == "discard":
            return "Discard a card first."
        if move.kind == "lead":
            return "It is not your lead: play a card to follow."
        return "Name a category for the card you lead."

    def _apply(self, action: int) -> None:
        move = self.decode(action)
        seat = self.current_player()
        postal = move.card
        assert postal is not None
        self.hands[seat].remove(postal)
        who = "You" if seat == 0 else "The computer"
        if self.phase == "discard":
            self.discards[seat] = postal
            self.note(f"{who} discard{'' if seat == 0 else 's'} a card face down.", seat)
            return
        card = self.game.card(postal)
        if move.kind == "lead":
            cards: list[str | None] = [None, None]
            cards[seat] = postal
            number = len(self.tricks) + 1
            self.tricks.append(
                {"leader": seat, "category": move.category.slug, "cards": cards, "winner": None}
            )  # type: ignore[union-attr]
            wins = "lower" if self.lower_wins(number) else "higher"
            self.note(
                f"Trick {number}: {who} lead{'' if seat == 0 else 's'} {card.name} on {move.category.value.lower()} "  # type: ignore[union-attr]
                f"({wins} wins): {card.rank(move.category)}.",  # type: ignore[arg-type]
                seat,
            )
            return
        trick = self.tricks[-1]
        trick["cards"][seat] = postal
        self._finish(trick, len(self.tricks))

    def _finish(self, trick: dict[str, Any], number: int) -> None:
        category = Category.from_slug(trick["category"])
        assert category is not None
        a, b = (self.game.card(p) for p in trick["cards"])
        ra, rb = a.rank(category), b.rank(category)
        lower = self.lower_wins(number)
        winner = 0 if (ra < rb) == lower else 1
        trick["winner"] = winner
        self.won[winner] += 1
        self.leader = winner
        w, lo = (a, b) if winner == 0 else (b, a)
        wr, lr = (ra, rb) if winner == 0 else (rb, ra)
        follower = 1 - trick["leader"]
        who = "You play" if follower == 0 else "The computer plays"
        self.note(
            f"{who} {self.game.card(trick['cards'][follower]).name}. {w.name}'s {category.value.lower()} {wr} "
            f"beats {lo.name}'s {lr} ({'lower' if lower else 'higher'} wins): "
            f"{'you take' if winner == 0 else 'the computer takes'} trick {number}. Tricks: you {self.won[0]}, the computer {self.won[1]}.",
            winner,
            "trick",
        )
        if self.is_terminal():
            self.note(self._ending(), None, "end")

    # --- the end ---------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        done = sum(1 for trick in self.tricks if trick["winner"] is not None)
        return max(self.won) >= EARLY_END or done == TRICKS

    def winner_side(self) -> int | None:
        if not self.is_terminal():
            return None
        if self.won[0] != self.won[1]:  # R1: 5 or more tricks (or 6 early) wins
            return 0 if self.won[0] > self.won[1] else 1
        return self.tricks[-1]["winner"]  # R1: at 4-4 the winner of the last trick wins

    def returns(self) -> list[float]:
        side = self.winner_side()
        return [0.0, 0.0] if side is None else self.side_returns([side])

    def _ending(self) -> str:
        side = self.winner_side()
        score = f"{max(self.won)} tricks to {min(self.won)}"  # the winner's tricks first
        if self.won[0] == self.won[1]:
            return f"4-4, and {'you' if side == 0 else 'the computer'} won the last trick: {'you win' if side == 0 else 'the computer wins'}."
        early = (
            " Six tricks end the game early."
            if max(self.won) >= EARLY_END and len(self.tricks) < TRICKS
            else ""
        )
        return f"{'You win' if side == 0 else 'The computer wins'}, {score}.{early}"

    # --- what each seat sees ---------------------------------------------------------------

    def observation(self, player: int) -> dict[str, Any]:
        mine = self.discards[player]
        return {
            "game": self.game.slug,
            "seat": player,
            "current_player": self.current_player(),
            "phase": self.phase,
            "hand": sorted(self.hands[player]),
            "hand_counts": [len(hand) for hand in self.hands],
            "discarded": [mine] if mine else [],
            "discards_made": [d is not None for d in self.discards],
            "tricks": [dict(trick, cards=list(trick["cards"])) for trick in self.tricks],
            "won": list(self.won),
            "leader": self.leader,
            "trick_number": self.trick_number,
        }

    def all_cards(self) -> list[str]:
        trick_cards = [p for trick in self.tricks for p in trick["cards"] if p]
        return [
            *self.hands[0],
            *self.hands[1],
            *self.undealt,
            *(d for d in self.discards if d),
            *trick_cards,
        ]

    def hidden_from(self, player: int) -> set[str]:
        other = 1 - player
        hidden = set(self.hands[other]) | set(self.undealt)
        if self.discards[other]:
            hidden.add(self.discards[other])  # type: ignore[arg-type]
        return hidden

    def clone(self) -> RanksState:
        other = RanksState(self.game)
        self._copy_base(other)
        other.hands = [list(h) for h in self.hands]
        other.undealt = list(self.undealt)
        other.drawn = list(self.drawn)
        other.discards = list(self.discards)
        other.tricks = [dict(trick, cards=list(trick["cards"])) for trick in self.tricks]
        other.won = list(self.won)
        other.leader = self.leader
        return other
