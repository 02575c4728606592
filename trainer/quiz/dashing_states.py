"""Dashing States (Combo 1, Game 3): five Map cards, four in alphabetical order, a race (ruling D1).

Pure rules: dealing, judging a "GeoPlunge!" call, the computer team's seeded timing, and who
wins the race. The web layer keeps the dealt states on the server and shows only the Map cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from trainer.cards import Deck
from trainer.facts import Facet, Fact, Judgement, UnreadableAnswer, Verdict
from trainer.facts.answers import judge_capital, judge_state_name, postal_code_in
from trainer.modes import LEVELS as COMPUTER_LEVELS
from trainer.modes import MODES, Mode

from .race import Level
from .weakest import draw_weakest

CARDS = 5  # Map cards dealt to each team
USED = 4  # cards put in order; one is set aside


def deal(preferred: Sequence[str], deck: Deck, rng: random.Random) -> list[str]:
    """Five different states drawn by ``rng`` among the first few ``preferred`` ones (the
    student's due and weakest, see :func:`~trainer.quiz.weakest.draw_weakest`), then any.

    So no two new students get the same five cards, and a round replays from its seed. The
    cards come back shuffled, so their order says nothing about which is which.
    """
    cards = draw_weakest((p for p in preferred if p in deck.geometry.shapes), CARDS, rng)
    others = [s.postal for s in deck.sorted_by(None) if s.postal not in cards]
    cards += rng.sample(others, CARDS - len(cards))
    rng.shuffle(cards)
    return cards


@dataclass(frozen=True)
class Call:
    """A team's "GeoPlunge!": the card set aside, the other four in order, and what it says of each.

    Cards are named by their position in the deal (0-4).
    """

    set_aside: int
    order: tuple[int, ...]
    names: dict[int, str]
    capitals: dict[int, str]


class BadCall(ValueError):
    """The call is not complete (a card missing, used twice, or not set aside); nothing is judged."""


@dataclass(frozen=True)
class CardResult:
    """One used card: the state it showed, and how its name and capital were answered."""

    position: int
    postal: str
    name: Judgement
    capital: Judgement

    @property
    def right(self) -> bool:
        # P-H8: a slip of spelling (close) still names the right state and capital.
        return self.name.verdict is not Verdict.WRONG and self.capital.verdict is not Verdict.WRONG


@dataclass(frozen=True)
class CallResult:
    """The judged call (D1): it succeeds only if every name, every capital and the order are right."""

    cards: tuple[CardResult, ...]  # in the order the team put them
    order_right: bool
    order_notes: tuple[str, ...]

    @property
    def success(self) -> bool:
        return self.order_right and all(card.right for card in self.cards)


def judge_call(dealt: Sequence[str], call: Call, deck: Deck) -> CallResult:
    """Judge a call on the cards ``dealt`` (postal codes by position).

    Raises:
        BadCall: the call does not set exactly one card aside and order the other four.
        UnreadableAnswer: a name or capital is blank (the student is asked to fill it in).
    """
    positions = set(range(len(dealt)))
    if call.set_aside not in positions:
        raise BadCall("Set one card aside.")
    if len(call.order) != USED or set(call.order) != positions - {call.set_aside}:
        raise BadCall("Put the other four cards in order, each once.")
    results = []
    for position in call.order:
        postal = dealt[position]
        try:
            name = judge_name(call.names.get(position, ""), deck, postal)
            capital = judge_capital(call.capitals.get(position, ""), deck, postal)
        except UnreadableAnswer as blank:
            raise UnreadableAnswer(f"Card {position + 1}: {blank}") from None
        results.append(CardResult(position, postal, name, capital))
    true_names = [deck[dealt[p]].name for p in call.order]
    return CallResult(
        tuple(results),
        order_right=true_names == sorted(true_names),
        order_notes=_order_notes(true_names),
    )


def judge_name(given: str, deck: Deck, postal: str) -> Judgement:
    """Judge the name said for a card in a call: as a typed name, but a postal code is no name (P-H7).

    D1 asks the team to announce each state's name. A flashcard counts the right state's code as
    close, and close counts as right in a call (P-H8, for a slip of spelling), so the code alone
    would have passed for the name: here it is wrong, and the note says why. Another state's code
    is wrong already.

    Raises:
        UnreadableAnswer: the answer is blank.
    """
    judgement = judge_state_name(given, deck, postal)
    if postal_code_in(given, deck) != postal:
        return judgement
    note = (
        f"{postal} is {deck[postal].name}'s postal code; Dashing States asks for the state's name."
    )
    return replace(judgement, verdict=Verdict.WRONG, note=note)


def _order_notes(names: list[str]) -> tuple[str, ...]:
    """Where an order is wrong, the pairs that are the wrong way round, with the letter that decides."""
    notes = []
    for a, b in zip(names, names[1:]):
        if a > b:
            i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            notes.append(f"{b} comes before {a}: “{b[: i + 1]}” is before “{a[: i + 1]}”.")
    return tuple(notes)


def reviews(result: CallResult, seconds: float | None) -> list[tuple[Fact, Judgement, int | None]]:
    """What the call teaches the memory model: each used card's map and capital facts, with its time share.

    The card set aside records nothing.
    """
    share = round(seconds * 1000 / USED) if seconds is not None else None
    out = []
    for card in result.cards:
        out.append((Fact(card.postal, Facet.MAP), card.name, share))
        out.append((Fact(card.postal, Facet.CAPITAL), card.capital, share))
    return out


# --- The computer team --------------------------------------------------------------------


#: Per level: mean seconds per card, and the chance the computer gets its call wrong.
LEVELS = {Level.EASY: (14.0, 0.20), Level.MEDIUM: (9.0, 0.10), Level.HARD: (5.5, 0.03)}
#: Spread of each card's time around the level's mean, as a fraction of it.
SPREAD = 0.3
#: Seconds the computer takes for the call itself (ordering and announcing) after its cards.
CALL_SECONDS = 3.0


@dataclass(frozen=True)
class ComputerRun:
    """The computer team's race, drawn from a seed: when it finishes each card, and its call."""

    card_seconds: tuple[float, ...]  # cumulative: the time at which each card is done
    call_at: float
    call_right: bool

    @classmethod
    def draw(cls, level: Level, seed: int) -> ComputerRun:
        rng = random.Random(f"dashing-computer:{seed}")
        mean, slip = LEVELS[level]
        elapsed = 0.0
        done = []
        for _ in range(CARDS):
            elapsed += max(0.2 * mean, rng.gauss(mean, SPREAD * mean))
            done.append(round(elapsed, 2))
        return cls(tuple(done), round(elapsed + CALL_SECONDS, 2), rng.random() >= slip)

    def cards_done(self, seconds: float) -> int:
        """How many of its cards the computer has identified after ``seconds``."""
        return sum(1 for t in self.card_seconds if t <= seconds)


MODES.register(
    Mode(
        "dashing-states",
        "Dashing States",
        "dashing_states",
        frozenset({Facet.MAP, Facet.CAPITAL}),
        True,
        timed=True,
        levels=("practice", *COMPUTER_LEVELS),
        deal=deal,
        sessions=0.07,
        order=30,
    )
)
