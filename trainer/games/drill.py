"""Drill mode: the rankings on the student's own cards are hidden and the student supplies them.

Every drill answer is judged here against the real rankings and becomes a review of one fact
(state x ranking) in the memory model:

- GeoPlunge 51: the number announced with a card (exact, or the play is refused).
- Play the Ranks: leading, the rank of the card led in the category named; following, whether
  the card played wins the trick.
- Geography War: before the two face-up cards are compared, the result (mine, theirs, a war, a
  GeoPlunge either way); it reviews each card's best-ranking fact (project ruling D-W1).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Category, Deck
from ..facts import Facet, Fact, Form
from ..facts.answers import Judgement, UnreadableAnswer, Verdict, judge_rank, ordinal
from .geography_war import WarState, compare
from .play_the_ranks import LOW_TRICKS, RanksState

__all__ = [
    "WAR_CALLS",
    "DrillAnswer",
    "UnreadableAnswer",
    "judge_announced",
    "judge_follow",
    "judge_lead",
    "judge_war_call",
    "war_result",
]


@dataclass(frozen=True)
class DrillAnswer:
    """One fact the drill asked about, how it was asked, and the verdict."""

    fact: Fact
    form: Form
    judgement: Judgement

    @property
    def right(self) -> bool:
        return self.judgement.verdict is Verdict.RIGHT


def _facet(category: Category) -> Facet:
    return Facet(category.slug)


# --- GeoPlunge 51 --------------------------------------------------------------------------


def judge_announced(deck: Deck, postal: str, category: Category, typed: str) -> DrillAnswer:
    """The number a student announces with a card in GeoPlunge 51.

    The count needs the exact number, so anything else is wrong (even one off) and the play is
    refused.

    Raises:
        UnreadableAnswer: blank, not a number, or not between 1 and 50 (nothing is recorded).
    """
    judgement = judge_rank(typed, deck, postal, category)
    if judgement.verdict is Verdict.CLOSE:
        judgement = Judgement(Verdict.WRONG, judgement.given, judgement.expected, judgement.note)
    return DrillAnswer(Fact(postal, _facet(category)), Form.TYPED, judgement)


# --- Play the Ranks ------------------------------------------------------------------------


def judge_lead(deck: Deck, postal: str, category: Category, typed: str) -> DrillAnswer:
    """The rank a student says the card they lead has in the category they name.

    Raises:
        UnreadableAnswer: blank, not a number, or not between 1 and 50.
    """
    return DrillAnswer(Fact(postal, _facet(category)), Form.TYPED, judge_rank(typed, deck, postal, category))


def judge_follow(state: RanksState, postal: str, says_wins: bool) -> DrillAnswer:
    """Whether the card a student follows with wins the trick, said before it is revealed."""
    trick = state.tricks[-1]
    category = Category.from_slug(trick["category"])
    assert category is not None and trick["winner"] is None
    led = state.game.card(trick["cards"][trick["leader"]])
    mine = state.game.card(postal)
    lower = state.trick_number <= LOW_TRICKS
    wins = (mine.rank(category) < led.rank(category)) == lower
    word = category.value.lower()
    note = (
        f"{mine.name} is {ordinal(mine.rank(category))} in {word} and {led.name} {ordinal(led.rank(category))}; "
        f"the {'lower' if lower else 'higher'} number wins this trick."
    )
    verdict = Verdict.RIGHT if says_wins == wins else Verdict.WRONG
    judgement = Judgement(verdict, "It wins" if says_wins else "It loses", "It wins" if wins else "It loses", note)
    return DrillAnswer(Fact(postal, _facet(category)), Form.CHOICE, judgement)


# --- Geography War -------------------------------------------------------------------------

#: The calls a student may make before two face-up cards are compared, seen from seat 0.
WAR_CALLS = {
    "mine": "My card wins",
    "theirs": "The computer's card wins",
    "war": "A tie: Geography War!",
    "plunge-mine": "My card GeoPlunges theirs",
    "plunge-theirs": "Their card GeoPlunges mine",
}


def war_result(state: WarState) -> str:
    """The right call for the two cards face up now."""
    face_up = state.face_up
    assert face_up is not None
    result = compare(*(state.game.card(p) for p in face_up))
    if result.winner is None:
        return "war"
    side = "mine" if result.winner == 0 else "theirs"
    return f"plunge-{side}" if result.plunge else side


def judge_war_call(state: WarState, call: str) -> list[DrillAnswer]:
    """A student's call on the two cards face up: one review for each card's best-ranking fact.

    Ruling D-W1 (the project's): a right call is right on both cards' best-ranking facts, a wrong
    call wrong on both. A card best in two categories is reviewed on the first of them.
    """
    if call not in WAR_CALLS:
        raise UnreadableAnswer("Choose one of the calls.")
    actual = war_result(state)
    verdict = Verdict.RIGHT if call == actual else Verdict.WRONG
    cards = [state.game.card(p) for p in state.face_up]  # type: ignore[union-attr]
    note = compare(*cards).reason
    answers = []
    for card in cards:
        category = card.best_categories[0]
        judgement = Judgement(verdict, WAR_CALLS[call], WAR_CALLS[actual], note)
        answers.append(DrillAnswer(Fact(card.postal, _facet(category)), Form.CHOICE, judgement))
    return answers
