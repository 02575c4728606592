"""Drill mode: the rankings on the student's own cards are hidden and the student supplies them.

Every drill answer is judged here against the real rankings and becomes a review of one fact
(state x ranking) in the memory model:

- GeoPlunge 51: the number announced with a card (exact, or the play is refused).
- Play the Ranks: leading, the rank of the card led in the category named; following, whether
  the card played wins the trick.
- Geography War: before the two face-up cards are compared, the result (mine, theirs, a war, a
  GeoPlunge either way); it reviews each card's best-ranking fact (project ruling D-W1).
- GeoPower Toss: whether the card played beats the best card of the led Zone so far; and, with
  the Zone colours hidden, following the led Zone reviews the card's ``zone`` fact (D-T1).
- GeoClash Down Back: leading, the rank of the card led in the category named; following,
  whether the card played is the worst so far (D-C1).

Only what was taught is drilled (D-H1): :func:`taught_answers` asks a question only on a fact the
student has met, and keeps only the answers that are the student's own on met facts.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Container
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cards import Category, Deck
from ..facts import Facet, Fact, Form
from ..facts.answers import Judgement, UnreadableAnswer, Verdict, judge_rank, ordinal
from .base import IllegalAction

if TYPE_CHECKING:
    from .base import State
    from .geography_war import WarState
    from .play_the_ranks import RanksState

__all__ = [
    "WAR_CALLS",
    "Answerer",
    "DrillAnswer",
    "DrillQuestion",
    "RefusedPlay",
    "UnreadableAnswer",
    "judge_announced",
    "judge_clash_worst",
    "judge_follow",
    "judge_lead",
    "judge_toss_beats",
    "judge_toss_zone",
    "judge_war_call",
    "ranking_facts",
    "taught_answers",
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


@dataclass(frozen=True)
class DrillQuestion:
    """A question a drill move asks before it is played: a rank typed as a number (``choices``
    empty), or a call chosen among ``choices`` (the "yes" call first).

    ``expected`` is the right answer as the student would give it; whoever answers (the move's
    form on the web page, a learner in the simulator) returns the text of their answer.
    """

    fact: Fact
    expected: str
    choices: tuple[str, ...] = ()

    @property
    def form(self) -> Form:
        return Form.CHOICE if self.choices else Form.TYPED


#: Whoever answers a drill question: returns the answer's text ("" for none).
Answerer = Callable[[DrillQuestion], str]


class RefusedPlay(IllegalAction):
    """A drill move whose play is refused but whose judged answers count and are recorded (a
    wrong number in GeoPlunge 51, a card that breaks the Zone in GeoPower Toss)."""

    def __init__(self, message: str, answers: list[DrillAnswer]) -> None:
        super().__init__(message)
        self.answers = answers


def rank_question(deck: Deck, postal: str, category: Category) -> DrillQuestion:
    """The rank of the card ``postal`` in ``category``, typed as a number."""
    return DrillQuestion(Fact(postal, _facet(category)), str(deck[postal].rank(category)))


def choice_question(probe: DrillAnswer, choices: tuple[str, str]) -> DrillQuestion:
    """A yes-or-no call, from the answer "yes" (``choices[0]``) would get: right or wrong."""
    return DrillQuestion(probe.fact, choices[0] if probe.right else choices[1], choices)


def read_choice(question: DrillQuestion, answer: Answerer, unreadable: str) -> str:
    """Ask ``question`` and return the call given.

    Raises:
        UnreadableAnswer: with ``unreadable``, when the call is not one of the choices.
    """
    said = answer(question)
    if said not in question.choices:
        raise UnreadableAnswer(unreadable)
    return said


def _facet(category: Category) -> Facet:
    return Facet(category.slug)


# --- only what was taught (D-H1, D-H2) -------------------------------------------------------


def ranking_facts(postals: Collection[str], facets: Collection[Facet]) -> list[Fact]:
    """The facts a drill could hide on the cards ``postals``: each card's ``facets`` (a game's
    :attr:`~trainer.games.base.Game.reviews`), in card then facet order."""
    order = [facet for facet in Facet if facet in facets]
    return [Fact(postal, facet) for postal in postals for facet in order]


def _other_answer(question: DrillQuestion) -> str:
    """An answer to ``question`` that is readable and not the expected one."""
    if question.choices:
        return next(c for c in question.choices if c != question.expected)
    return str(int(question.expected) % 50 + 1)


def taught_answers(
    state: State, action: int, answer: Answerer, met: Container[str]
) -> list[DrillAnswer]:
    """The drill answers of ``action``, asking only about facts the student has met (D-H1).

    ``met`` holds the keys of the facts the student has met (``CO:size``). A question on a fact
    not met is not put to ``answer``: its ranking is on the card, so the move is played as
    without drill. The answers kept are the student's own on met facts (D-H2): an answer on a
    fact not met is dropped, and so is one that a question not asked decided (a Geography War
    call reviews both face-up cards); an answer the move itself gives (the GeoPower Toss zone of
    the card played) is kept when its fact was met.

    Raises:
        UnreadableAnswer: an answer that cannot be read (nothing is recorded).
        RefusedPlay: the play is refused; its ``answers`` are only those kept.
        IllegalAction: the move is refused.
    """
    skipped = False

    def ask(question: DrillQuestion) -> str:
        nonlocal skipped
        if question.fact.key in met:
            return answer(question)
        skipped = True
        return question.expected

    refused: RefusedPlay | None = None
    try:
        answers = state.drill_answers(action, ask)
    except RefusedPlay as exc:
        refused, answers = exc, exc.answers
    kept = [a for a in answers if a.fact.key in met]
    if skipped and kept:
        # Which answers did the unasked question decide? Ask again with another answer there.
        def other(question: DrillQuestion) -> str:
            return answer(question) if question.fact.key in met else _other_answer(question)

        try:
            again = state.drill_answers(action, other)
        except RefusedPlay as exc:
            again = exc.answers
        same = {(a.fact.key, a.judgement.verdict) for a in again}
        kept = [a for a in kept if (a.fact.key, a.judgement.verdict) in same]
    if refused is not None:
        raise RefusedPlay(str(refused), kept) from None
    return kept


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
    return DrillAnswer(
        Fact(postal, _facet(category)), Form.TYPED, judge_rank(typed, deck, postal, category)
    )


def judge_follow(state: RanksState, postal: str, says_wins: bool) -> DrillAnswer:
    """Whether the card a student follows with wins the trick, said before it is revealed."""
    trick = state.tricks[-1]
    category = Category.from_slug(trick["category"])
    assert category is not None and trick["winner"] is None
    led = state.game.card(trick["cards"][trick["leader"]])
    mine = state.game.card(postal)
    lower = state.lower_wins()
    wins = (mine.rank(category) < led.rank(category)) == lower
    word = category.value.lower()
    note = (
        f"{mine.name} is {ordinal(mine.rank(category))} in {word} and {led.name} {ordinal(led.rank(category))}; "
        f"the {'lower' if lower else 'higher'} number wins this trick."
    )
    verdict = Verdict.RIGHT if says_wins == wins else Verdict.WRONG
    judgement = Judgement(
        verdict, "It wins" if says_wins else "It loses", "It wins" if wins else "It loses", note
    )
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
    result = state.comparison()
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
    cards = state.face_up_cards()
    note = state.comparison().reason
    answers = []
    for card in cards:
        category = card.best_categories[0]
        judgement = Judgement(verdict, WAR_CALLS[call], WAR_CALLS[actual], note)
        answers.append(DrillAnswer(Fact(card.postal, _facet(category)), Form.CHOICE, judgement))
    return answers


# --- GeoPower Toss ---------------------------------------------------------------------------


def judge_toss_beats(
    deck: Deck, observation: dict[str, Any], postal: str, says_beats: bool
) -> DrillAnswer:
    """Whether the card a student plays beats the best card of the led Zone so far (T3).

    Said before the card is revealed; it reviews the card's ranking in the GeoPower category.
    A card outside the led Zone never beats it.
    """
    category = Category.from_slug(observation["geopower"])
    assert category is not None and observation["trick"]
    led_zone = deck[observation["trick"][0]["card"]].zone
    in_zone = [
        deck[play["card"]] for play in observation["trick"] if deck[play["card"]].zone == led_zone
    ]
    best = min(in_zone, key=lambda card: card.rank(category))
    mine = deck[postal]
    word = category.value.lower()
    if mine.zone != led_zone:
        beats = False
        note = f"{mine.name} is not in the {led_zone.value} zone, so it cannot win this trick."
    else:
        beats = mine.rank(category) < best.rank(category)
        note = (
            f"{mine.name} is {ordinal(mine.rank(category))} in {word}; the best {led_zone.value} card so far, "
            f"{best.name}, is {ordinal(best.rank(category))}."
        )
    verdict = Verdict.RIGHT if says_beats == beats else Verdict.WRONG
    judgement = Judgement(
        verdict,
        "It beats it" if says_beats else "It does not",
        "It beats it" if beats else "It does not",
        note,
    )
    return DrillAnswer(Fact(postal, _facet(category)), Form.CHOICE, judgement)


def judge_toss_zone(deck: Deck, observation: dict[str, Any], postal: str) -> DrillAnswer:
    """Following the led Zone with the Zone colours hidden (T2): a review of the card's ``zone`` fact.

    Right when the card is in the led Zone; wrong when it is not although the hand holds a card
    that is (the play is then refused). Call it only when the student follows a lead.
    """
    led = deck[observation["trick"][0]["card"]]
    mine = deck[postal]
    right = mine.zone == led.zone
    note = f"{mine.name} is in the {mine.zone.value} zone; {led.name}, the card led, is {led.zone.value}."
    if not right:
        note += f" You hold a {led.zone.value} card, so you must play it."
    judgement = Judgement(
        Verdict.RIGHT if right else Verdict.WRONG,
        f"{mine.name} follows the zone",
        f"{mine.zone.value}",
        note,
    )
    return DrillAnswer(Fact(postal, Facet.ZONE), Form.CHOICE, judgement)


# --- GeoClash Down Back ----------------------------------------------------------------------


def judge_clash_worst(
    deck: Deck, observation: dict[str, Any], postal: str, says_worst: bool
) -> DrillAnswer:
    """Whether the card a student plays is the worst ranked so far in the category named (C2)."""
    trick = observation["trick"]
    category = Category.from_slug(trick["category"])
    assert category is not None and trick["cards"]
    worst = max(
        (deck[play["card"]] for play in trick["cards"]), key=lambda card: card.rank(category)
    )
    mine = deck[postal]
    is_worst = mine.rank(category) > worst.rank(category)
    word = category.value.lower()
    note = (
        f"{mine.name} is {ordinal(mine.rank(category))} in {word}; the worst so far, {worst.name}, "
        f"is {ordinal(worst.rank(category))} (the number farthest from 1 wins)."
    )
    verdict = Verdict.RIGHT if says_worst == is_worst else Verdict.WRONG
    judgement = Judgement(
        verdict,
        "The worst so far" if says_worst else "Not the worst",
        "The worst so far" if is_worst else "Not the worst",
        note,
    )
    return DrillAnswer(Fact(postal, _facet(category)), Form.CHOICE, judgement)
