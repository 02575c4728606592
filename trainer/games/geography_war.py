"""Geography War (2 players, W1-W5): the better best ranking takes the battle.

Each battle is two actions by the first seat: ``TURN`` turns up both top cards (in a war, each
player lays four down and turns the fifth up, W4), and ``SETTLE`` compares them. The pause in
between is where a drill asks the student to call the result before the rankings are shown.
Nobody chooses anything else in War, so the second seat never acts and the level does not matter.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import zip_longest
from typing import Any, ClassVar

from ..cards import Category, StateCard
from ..facts import Facet, Fact
from ..facts.answers import ordinal
from .base import TERMINAL, Game, GameError, IllegalAction, Move, State, shuffled
from .drill import WAR_CALLS, Answerer, DrillAnswer, DrillQuestion, judge_war_call, war_result

TURN, SETTLE = 0, 1
#: W5: the game ends after this many battles.
BATTLE_CAP = 5000
#: W4: cards laid face down in a war before the one turned up.
FACE_DOWN = 4
#: ``out_of_cards`` when neither player can turn a card up (P-W2).
BOTH = 2
#: W3: the extra cards a GeoPlunged player hands over.
PLUNGE_TAKES = 3
#: Without drill: how many battles one press of the table's button may play.
MAX_BATTLES = 10


@dataclass(frozen=True)
class Turn(Move):
    """Turn up the top cards (in a war, lay four down first)."""

    kind: ClassVar[str] = "turn"


@dataclass(frozen=True)
class Settle(Move):
    """Compare the two cards face up."""

    kind: ClassVar[str] = "settle"


class GeographyWar(Game):
    slug = "geography-war"
    title = "Geography War"
    menu_order = 50
    summary = "the better best ranking wins the battle (2 players)"
    has_choices = False

    def new_initial_state(self, seed: int) -> WarState:
        rng = random.Random(f"geography-war:{seed}")
        order = shuffled([card.postal for card in self.cards], rng)
        return WarState(
            self, [deque(order[0::2]), deque(order[1::2])]
        )  # W1: 25 each, dealt alternately

    def sample_state(self, observation: dict[str, Any], rng: random.Random) -> WarState:
        raise GameError("Geography War has no choices to search.")


class WarState(State):
    game: GeographyWar

    def __init__(self, game: GeographyWar, piles: list[deque[str]]) -> None:
        super().__init__(game)
        self.piles = piles
        #: The battle in progress: per lay (the first turn-up, then each war), each player's cards in the order laid.
        self.lays: list[tuple[list[str], list[str]]] = []
        self.battles = 0
        #: The seat that could not turn a card up when one was needed (W4), BOTH, or None.
        self.out_of_cards: int | None = None
        #: The face-up cards were compared and tied: a war is due (W4).
        self.tied = False

    # --- the battle ------------------------------------------------------------------------

    @property
    def face_up(self) -> tuple[str, str] | None:
        """The two cards face up now, waiting to be compared."""
        if not self.lays or not self.lays[-1][0] or not self.lays[-1][1]:
            return None
        return self.lays[-1][0][-1], self.lays[-1][1][-1]

    @property
    def at_war(self) -> bool:
        return self.tied or len(self.lays) > 1

    def waiting(self) -> str:
        """``turn`` or ``settle``: what the next action does."""
        return "settle" if self.face_up is not None and not self.tied else "turn"

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else 0

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return [SETTLE] if self.waiting() == "settle" else [TURN]

    def face_up_cards(self) -> list[StateCard]:
        """The two cards face up now (call it only while one is waiting to be compared)."""
        face_up = self.face_up
        assert face_up is not None
        return [self.game.card(p) for p in face_up]

    def comparison(self) -> Comparison:
        """Which of the two cards face up now wins, and why."""
        return compare(*self.face_up_cards())

    def decode(self, action: int) -> Turn | Settle:
        if action == TURN:
            return Turn()
        if action == SETTLE:
            return Settle()
        raise IllegalAction("That is not a move in Geography War.")

    def action_to_string(self, action: int) -> str:
        if action == SETTLE:
            return "Compare the cards"
        return "Lay four down and turn one up" if self.lays else "Turn up your top card"

    def why_illegal(self, action: int) -> str:
        if action == TURN and self.waiting() == "settle":
            return "Compare the two cards face up first."
        if action == SETTLE:
            return "Turn up a card first."
        return super().why_illegal(action)

    def _apply(self, action: int) -> None:
        if action == TURN:
            self._turn()
        else:
            self._settle()

    def _turn(self) -> None:
        war = bool(self.lays)
        lay: tuple[list[str], list[str]] = ([], [])
        empty = [seat for seat in (0, 1) if not self.piles[seat]]
        if empty:  # W4: no card to turn up when one is needed (P-W2: both at once is a draw)
            self.out_of_cards = empty[0] if len(empty) == 1 else BOTH
            self.lays.append(lay)
            if len(empty) == 2:
                self.note(
                    "Neither of you has a card left to turn up: the game is a draw.", None, "end"
                )
            else:
                seat = empty[0]
                has = "has" if self.verb_end(seat) else "have"
                self.note(
                    f"{self.seat_name(seat)} {has} no card left to turn up, and loses the war.",
                    seat,
                    "end",
                )
            return
        for seat in (0, 1):
            pile = self.piles[seat]
            count = min(FACE_DOWN + 1, len(pile)) if war else 1
            lay[seat].extend(pile.popleft() for _ in range(count))
        self.lays.append(lay)
        self.tied = False
        up = [self.game.card(cards[-1]).name for cards in lay]
        who = [self.seat_name(0), self.seat_in_sentence(1)]
        s = [self.verb_end(0), self.verb_end(1)]
        if war:
            down = [len(cards) - 1 for cards in lay]
            self.note(
                f"Geography War! {who[0]} lay{s[0]} {down[0]} down and turn{s[0]} up {up[0]}; "
                f"{who[1]} lay{s[1]} {down[1]} down and turn{s[1]} up {up[1]}.",
                None,
                "turn",
            )
        else:
            self.note(
                f"{who[0]} turn{s[0]} up {up[0]}; {who[1]} turn{s[1]} up {up[1]}.", None, "turn"
            )

    def _settle(self) -> None:
        result = self.comparison()
        if result.winner is None:
            self.note(f"{result.reason} Geography War!", None, "war")
            self.tied = True
            return
        winner, loser = result.winner, 1 - result.winner
        taken = cards_won(self.lays, winner)
        if result.plunge:  # W3: the loser's next three cards too
            taken.extend(
                self.piles[loser].popleft()
                for _ in range(min(PLUNGE_TAKES, len(self.piles[loser])))
            )
        self.piles[winner].extend(taken)
        self.lays = []
        self.battles += 1
        who = f"{self.seat_name(winner)} win{self.verb_end(winner)}"
        self.note(f"{result.reason} {who} {len(taken)} cards.", winner, "battle")
        if self.is_terminal():
            self.note(self._ending(), None, "end")

    # --- the drill and the table ------------------------------------------------------------

    def drill_answers(self, action: int, answer: Answerer) -> list[DrillAnswer]:
        """Comparing the cards: the student calls the result first (D-W1)."""
        if action != SETTLE:
            return []
        if self.waiting() != "settle":
            raise IllegalAction(self.why_illegal(action))
        calls = tuple(WAR_CALLS)
        question = DrillQuestion(self.comparison_fact(), war_result(self), calls)
        return judge_war_call(self, answer(question))

    def comparison_fact(self) -> Fact:
        """The fact a call on the cards face up reviews first: the student's card's best ranking."""
        card = self.face_up_cards()[0]
        return Fact(card.postal, Facet(card.best_categories[0].slug))

    def play_batch(self, count: int) -> bool:
        """Without drill, one press plays up to ``count`` whole battles (at most MAX_BATTLES)."""
        target = self.battles + min(count, MAX_BATTLES)
        while not self.is_terminal() and self.battles < target:
            self.apply_action(self.legal_actions()[0])
        return True

    def table_view(
        self, observation: dict[str, Any], your_turn: bool, drill: bool
    ) -> dict[str, Any]:
        """The two seats in the reader's order, the observation's seat first ("You"): ``piles``,
        ``face_up``, ``face_down`` and ``names``."""
        deck = self.game.deck
        settled_view = not (drill and observation["waiting"] == "settle")
        order = [observation["seat"], 1 - observation["seat"]]
        face_up = observation["face_up"]
        return {
            "piles": [observation["pile_counts"][seat] for seat in order],
            "face_up": [deck[face_up[seat]] for seat in order] if face_up else [],
            "face_down": [observation["face_down"][seat] for seat in order],
            "names": [self.seat_name(seat) for seat in order],
            "waiting": observation["waiting"],
            "battles": observation["battles"],
            "at_war": observation["at_war"],
            "calls": WAR_CALLS,
            "show_face_up_ranks": settled_view,
            "turn": TURN,
            "settle": SETTLE,
            "max_battles": MAX_BATTLES,
        }

    # --- the end ---------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        if self.out_of_cards is not None:
            return True
        if self.lays:
            return False
        return not self.piles[0] or not self.piles[1] or self.battles >= BATTLE_CAP

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        if self.out_of_cards == BOTH:
            return [0.5, 0.5]
        if self.out_of_cards is not None:
            return [0.0, 1.0] if self.out_of_cards == 0 else [1.0, 0.0]
        mine, theirs = len(self.piles[0]), len(self.piles[1])  # W5: more cards wins at the cap
        if mine == theirs:
            return [0.5, 0.5]
        return [1.0, 0.0] if mine > theirs else [0.0, 1.0]

    def _ending(self) -> str:
        you, other = self.viewer, 1 - self.viewer
        if not self.piles[other]:
            return "You hold all 50 cards: you win!"
        if not self.piles[you]:
            return f"{self.seat_name(other)} holds all 50 cards."
        mine, theirs = len(self.piles[you]), len(self.piles[other])
        them = self.seat_in_sentence(other)
        verdict = "a draw" if mine == theirs else ("you win" if mine > theirs else f"{them} wins")
        return f"{BATTLE_CAP:,} battles played: you have {mine} cards and {them} {theirs}, so {verdict}."

    # --- what each seat sees ---------------------------------------------------------------

    def observation(self, player: int) -> dict[str, Any]:
        face_up = self.face_up
        return {
            "game": self.game.slug,
            "seat": player,
            "current_player": self.current_player(),
            "pile_counts": [len(pile) for pile in self.piles],
            "face_up": list(face_up) if face_up else [],
            "face_down": [sum(len(lay[seat]) - 1 for lay in self.lays) for seat in (0, 1)],
            "at_war": self.at_war,
            "battles": self.battles,
            "waiting": self.waiting(),
        }

    def all_cards(self) -> list[str]:
        return [
            *self.piles[0],
            *self.piles[1],
            *(card for lay in self.lays for cards in lay for card in cards),
        ]

    def hidden_from(self, player: int) -> set[str]:
        face_up = set(self.face_up or ())
        return set(self.all_cards()) - face_up

    def clone(self) -> WarState:
        other = WarState(self.game, [deque(pile) for pile in self.piles])
        self._copy_base(other)
        other.lays = [(list(a), list(b)) for a, b in self.lays]
        other.tied = self.tied
        other.battles = self.battles
        other.out_of_cards = self.out_of_cards
        return other


def cards_won(lays: Sequence[tuple[list[str], list[str]]], winner: int) -> list[str]:
    """The battle's cards in the order they go to the bottom of the winner's pile (W2, ruling P-H9).

    Lay by lay: the first turn-up, then each war in turn. Within a lay, step *k* is the *k*-th
    card each player put down in it, counted from its first card, and the winner's card goes
    before the loser's at each step (W2). When a player short of five cards laid fewer (W4),
    their face-up card is their last step, so it goes in at that step, and the other player's
    remaining cards follow alone. (The other reading, face-up cards paired with each other after
    the face-down ones, is not the rule here: P-H9 says why.)

    Args:
        lays: per lay, each seat's cards in the order laid (the face-up card last).
        winner: the seat that won the battle (0 or 1).
    """
    taken: list[str] = []
    for lay in lays:
        for mine, theirs in zip_longest(lay[winner], lay[1 - winner]):
            taken.extend(card for card in (mine, theirs) if card is not None)
    return taken


@dataclass(frozen=True)
class Comparison:
    """Which of two face-up cards wins (0 for the first, 1 for the second, None for a tie), and why."""

    winner: int | None
    plunge: bool
    reason: str


def _best(card: StateCard) -> str:
    category = card.best_categories[0]
    return f"{ordinal(card.best_rank)} in {category.value.lower()}"


def compare(a: StateCard, b: StateCard) -> Comparison:
    """W1, W3, W4: a GeoPlunge (better in all three), else the better best ranking, else a war."""
    for winner, (w, lo) in ((0, (a, b)), (1, (b, a))):
        if w.beats_in_all(lo):
            ranks = ", ".join(f"{c.value.lower()} {w.rank(c)} to {lo.rank(c)}" for c in Category)
            return Comparison(
                winner, True, f"{w.name} GeoPlunges {lo.name}: better in all three ({ranks})."
            )
    if a.best_rank == b.best_rank:
        return Comparison(
            None, False, f"{a.name} and {b.name} both have a best ranking of {a.best_rank}."
        )
    w, lo, winner = (a, b, 0) if a.best_rank < b.best_rank else (b, a, 1)
    return Comparison(
        winner, False, f"{w.name}'s best ranking ({_best(w)}) beats {lo.name}'s ({_best(lo)})."
    )
