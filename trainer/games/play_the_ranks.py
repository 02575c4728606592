"""Play the Ranks (2 sides; R1, R2): discard 1 of 9, then 8 tricks where the lead names the category.

Actions: a card alone (``card index``) to discard or to follow; a card with a category
(``LEAD + card index * 3 + category index``) to lead a trick.
"""

from __future__ import annotations

import random
from typing import Any

from ..cards import Category
from ..facts.answers import ordinal
from .base import TERMINAL, Game, IllegalAction, LeadCard, PlayCard, State, card_or_lead, shuffled
from .drill import (
    Answerer,
    DrillAnswer,
    choice_question,
    judge_follow,
    judge_lead,
    rank_question,
    read_choice,
)

DEALT = 9
TRICKS = 8
#: Tricks 1-4 go to the lower number, 5-8 to the higher (R1).
LOW_TRICKS = 4
#: Play stops once a side has this many tricks (R1).
EARLY_END = 6
LEAD = 100
CATEGORIES = tuple(Category)
CATEGORY_INDEX = {category.slug: k for k, category in enumerate(CATEGORIES)}


class PlayTheRanks(Game):
    slug = "play-the-ranks"
    title = "Play the Ranks"
    menu_order = 20
    summary = "win tricks on size, statehood or population (2 sides)"

    def lead_action(self, postal: str, category: Category) -> int:
        return LEAD + self.index[postal] * 3 + CATEGORIES.index(category)

    def card_action(self, postal: str) -> int:
        return self.index[postal]

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
                f"The draw: {state.seat_in_sentence(0)} drew {a.name} ({ordinal(a.statehood_rank)} in statehood), "
                f"{state.seat_in_sentence(1)} drew {b.name} ({ordinal(b.statehood_rank)}). "
                f"{state.seat_name(leader)} lead{state.verb_end(leader)} the first trick.",
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

    def decode(self, action: int) -> PlayCard | LeadCard:
        return card_or_lead(self.game.cards, action, LEAD, self.game.title)

    def action_to_string(self, action: int) -> str:
        move = self.decode(action)
        name = self.game.card(move.card).name
        if isinstance(move, LeadCard):
            return f"Lead {name} on {move.category.value.lower()}"
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
        if isinstance(move, LeadCard):
            return "It is not your lead: play a card to follow."
        return "Name a category for the card you lead."

    def _apply(self, action: int) -> None:
        move = self.decode(action)
        seat = self.current_player()
        postal = move.card
        self.hands[seat].remove(postal)
        who, s = self.seat_name(seat), self.verb_end(seat)
        if self.phase == "discard":
            self.discards[seat] = postal
            self.note(f"{who} discard{s} a card face down.", seat)
            return
        card = self.game.card(postal)
        if isinstance(move, LeadCard):
            cards: list[str | None] = [None, None]
            cards[seat] = postal
            number = len(self.tricks) + 1
            self.tricks.append(
                {"leader": seat, "category": move.category.slug, "cards": cards, "winner": None}
            )
            wins = "lower" if self.lower_wins(number) else "higher"
            self.note(
                f"Trick {number}: {who} lead{s} {card.name} on {move.category.value.lower()} "
                f"({wins} wins): {card.rank(move.category)}.",
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
        who = f"{self.seat_name(follower)} play{self.verb_end(follower)}"
        you, other = self.viewer, 1 - self.viewer
        self.note(
            f"{who} {self.game.card(trick['cards'][follower]).name}. {w.name}'s {category.value.lower()} {wr} "
            f"beats {lo.name}'s {lr} ({'lower' if lower else 'higher'} wins): "
            f"{self.seat_in_sentence(winner)} take{self.verb_end(winner)} trick {number}. "
            f"Tricks: you {self.won[you]}, {self.seat_in_sentence(other)} {self.won[other]}.",
            winner,
            "trick",
        )
        if self.is_terminal():
            self.note(self._ending(), None, "end")

    # --- the drill and the table ------------------------------------------------------------

    def drill_answers(self, action: int, answer: Answerer) -> list[DrillAnswer]:
        """Leading: the rank of the card led in the category named. Following: whether the card
        wins the trick, said before it is revealed. Discarding asks nothing."""
        move = self.decode(action)
        deck = self.game.deck
        if isinstance(move, LeadCard):
            question = rank_question(deck, move.card, move.category)
            return [judge_lead(deck, move.card, move.category, answer(question))]
        if self.phase != "trick":
            return []
        question = choice_question(judge_follow(self, move.card, True), ("wins", "loses"))
        said = read_choice(
            question,
            answer,
            "Say whether your card wins the trick: choose “It wins” or “It loses”.",
        )
        if action not in self.legal_actions():
            raise IllegalAction(self.why_illegal(action))
        return [judge_follow(self, move.card, said == "wins")]

    def table_view(
        self, observation: dict[str, Any], your_turn: bool, drill: bool
    ) -> dict[str, Any]:
        """The seats in the reader's order, the observation's seat first ("You", then the other):
        ``won``, ``names`` and each past trick's ``cards``, ``winner`` and ``leader`` (0 = you)."""
        deck = self.game.deck
        obs = observation
        order = [obs["seat"], 1 - obs["seat"]]
        trick = obs["tricks"][-1] if obs["tricks"] and obs["tricks"][-1]["winner"] is None else None
        led = None
        if trick is not None:
            led = {
                "card": deck[trick["cards"][trick["leader"]]],
                "category": Category.from_slug(trick["category"]),
            }
        past = []
        for number, t in enumerate(obs["tricks"], start=1):
            if t["winner"] is None:
                continue
            category = Category.from_slug(t["category"])
            past.append(
                {
                    "number": number,
                    "category": category,
                    "lower": number <= LOW_TRICKS,
                    "cards": [deck[t["cards"][seat]] for seat in order],
                    "winner": order.index(t["winner"]),
                    "leader": order.index(t["leader"]),
                }
            )
        legal = self.legal_actions() if your_turn else []
        leading = bool(legal) and legal[0] >= LEAD
        game = self.game
        return {
            "phase": obs["phase"],
            "trick_number": obs["trick_number"],
            "lower": obs["trick_number"] <= LOW_TRICKS,
            "won": [obs["won"][seat] for seat in order],
            "names": [self.seat_name(seat) for seat in order],
            "led": led,
            "past": past,
            "leading": leading,
            "discarded": [deck[p] for p in obs["discarded"]],
            "lead_action": game.lead_action,
            "lead_options": lambda postal: [(game.lead_action(postal, c), c) for c in Category],
            "card_action": game.card_action,
            "categories": list(Category),
        }

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
        assert side is not None
        who, s = self.seat_in_sentence(side), self.verb_end(side)
        if self.won[0] == self.won[1]:
            return f"4-4, and {who} won the last trick: {who} win{s}."
        early = (
            " Six tricks end the game early."
            if max(self.won) >= EARLY_END and len(self.tricks) < TRICKS
            else ""
        )
        return f"{self.seat_name(side)} win{s}, {score}.{early}"

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
        discarded = self.discards[other]
        if discarded:
            hidden.add(discarded)
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
