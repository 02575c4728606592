"""The catalogue of learnable facts (state x facet), how each is asked, and how answers are judged."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from functools import cache

from trainer.cards import Category, Deck, StateCard, Zone

from .answers import (
    Judgement,
    UnreadableAnswer,
    Verdict,
    judge_borders,
    judge_capital,
    judge_postal,
    judge_rank,
    judge_state_name,
    judge_zone,
    ordinal,
)

__all__ = [
    "Facet",
    "Fact",
    "Form",
    "Judgement",
    "Question",
    "UnreadableAnswer",
    "Verdict",
    "all_facts",
    "ask",
    "dont_know",
    "expected_answer",
    "forms_for",
    "judge",
    "teaching_order",
]


class Facet(str, Enum):
    """One thing to know about a state."""

    MAP = "map"
    CAPITAL = "capital"
    POSTAL = "postal"
    BORDERS = "borders"
    SIZE = "size"
    STATEHOOD = "statehood"
    POPULATION = "population"
    ZONE = "zone"

    @property
    def label(self) -> str:
        """A short name for menus and tables."""
        return _FACET_LABELS[self]

    @property
    def category(self) -> Category | None:
        """The card ranking this facet asks for, if it is a ranking."""
        return _RANKINGS.get(self)

    @property
    def ranking(self) -> Category:
        """The card ranking this facet asks for.

        Raises:
            ValueError: the facet is not a ranking.
        """
        category = _RANKINGS.get(self)
        if category is None:
            raise ValueError(f"{self.value} is not a ranking.")
        return category


_FACET_LABELS = {
    Facet.MAP: "Map",
    Facet.CAPITAL: "Capitals",
    Facet.POSTAL: "Postal codes",
    Facet.BORDERS: "Borders",
    Facet.SIZE: "Size rank",
    Facet.STATEHOOD: "Statehood rank",
    Facet.POPULATION: "Population rank",
    Facet.ZONE: "Time zones",
}
_RANKINGS = {
    Facet.SIZE: Category.SIZE,
    Facet.STATEHOOD: Category.STATEHOOD,
    Facet.POPULATION: Category.POPULATION,
}


@dataclass(frozen=True, order=True)
class Fact:
    """One learnable fact: a state's facet. Its key (``CO:capital``) is stable and stored."""

    postal: str
    facet: Facet

    @property
    def key(self) -> str:
        return f"{self.postal}:{self.facet.value}"

    @classmethod
    def from_key(cls, key: str) -> Fact:
        """The fact whose key is ``key``.

        Raises:
            ValueError: if ``key`` is not of the form ``XX:facet``.
        """
        postal, sep, facet = key.partition(":")
        if not sep or len(postal) != 2 or not postal.isalpha() or not postal.isupper():
            raise ValueError(f"not a fact key: {key!r}")
        return cls(postal, Facet(facet))

    def __str__(self) -> str:
        return self.key


def all_facts(deck: Deck) -> tuple[Fact, ...]:
    """Every fact of the deck: 50 states x 8 facets, by state then facet."""
    return tuple(Fact(state.postal, facet) for state in deck.sorted_by(None) for facet in Facet)


class Form(str, Enum):
    """How a question is asked and answered."""

    TYPED = "typed"  # type the answer (for MAP: name the red state)
    CHOICE = "choice"  # pick one of four (for MAP: which state is red)
    MAP_CLICK = "map_click"  # MAP only: the state is named, the student finds it on the map


def forms_for(fact: Fact, deck: Deck) -> tuple[Form, ...]:
    """The forms that suit ``fact``: a map fact in all three (a state too small to tap has a
    larger round target on the map it is found on, see :func:`trainer.pickmap.targets`), every
    other fact typed or picked."""
    if fact.facet is Facet.MAP:
        return (Form.TYPED, Form.CHOICE, Form.MAP_CLICK)
    return (Form.TYPED, Form.CHOICE)


@dataclass(frozen=True)
class Question:
    """A fact asked in one form. Everything here stays on the server except what the view shows.

    ``map_state`` is the postal code of the state drawn in red (MAP typed and choice): the page
    draws its shape but must never print the code or the name.
    """

    fact: Fact
    form: Form
    prompt: str
    choices: tuple[str, ...] = ()
    placeholder: str = ""
    map_state: str | None = None

    @property
    def uses_map(self) -> bool:
        return self.fact.facet is Facet.MAP


NONE_OF_THEM = "None of them"


def ask(fact: Fact, form: Form, deck: Deck, rng: random.Random) -> Question:
    """Ask ``fact`` in ``form``; multiple-choice options are drawn from ``rng``.

    Raises:
        ValueError: if ``form`` does not suit ``fact``.
    """
    if form not in forms_for(fact, deck):
        raise ValueError(f"{fact} cannot be asked as {form.value}")
    state = deck[fact.postal]
    facet = fact.facet
    choices: tuple[str, ...] = ()
    if form is Form.CHOICE:
        choices = _choices(fact, deck, rng)
    if facet is Facet.MAP:
        if form is Form.MAP_CLICK:
            return Question(fact, form, f"Find {state.name} on the map.")
        prompt = "Which state is red on this map?"
        return Question(fact, form, prompt, choices, "State name", map_state=state.postal)
    if facet is Facet.CAPITAL:
        return Question(
            fact, form, f"What is the capital of {state.name}?", choices, "Capital city"
        )
    if facet is Facet.POSTAL:
        return Question(
            fact, form, f"What is the postal code of {state.name}?", choices, "Two letters"
        )
    if facet is Facet.BORDERS:
        if form is Form.CHOICE:
            return Question(fact, form, f"Which of these states borders {state.name}?", choices)
        return Question(
            fact,
            form,
            f"Name every state that borders {state.name}.",
            choices,
            "Names separated by commas, or “none”",
        )
    if facet is Facet.ZONE:
        return Question(
            fact, form, f"Which time zone is on the {state.name} card?", choices, "Time zone"
        )
    category = facet.category
    assert category is not None
    return Question(fact, form, _rank_prompt(state, category), choices, "A number from 1 to 50")


def _rank_prompt(state: StateCard, category: Category) -> str:
    return {
        Category.SIZE: f"What is {state.name}’s size rank (1 = largest land area)?",
        Category.STATEHOOD: f"What is {state.name}’s statehood rank (1 = first to join)?",
        Category.POPULATION: f"What is {state.name}’s population rank (1 = most people in 2010)?",
    }[category]


#: Options of a borders question: this many states, then "None of them".
BORDER_CHOICE_STATES = 4


def _choices(fact: Fact, deck: Deck, rng: random.Random) -> tuple[str, ...]:
    """The options: the answer among distractors that a learner could confuse with it.

    Every question of a facet offers the same shape of options whatever its answer, so no option
    is there only because it is the answer (P-H1): four options; for a time zone every zone, in
    the same order; for borders four states, then "None of them".
    """
    state = deck[fact.postal]
    facet = fact.facet
    if facet is Facet.ZONE:
        return tuple(zone.value for zone in Zone)
    if facet in _RANKINGS:
        true_rank = state.rank(_RANKINGS[facet])
        # Distractors at least 3 apart from the answer and from each other, so no option is "close".
        pool = [r for r in range(1, 51) if abs(r - true_rank) >= 3]
        picked: list[int] = []
        for r in rng.sample(pool, len(pool)):
            if all(abs(r - p) >= 3 for p in picked):
                picked.append(r)
            if len(picked) == 3:
                break
        return tuple(ordinal(r) for r in sorted([true_rank, *picked]))
    if facet is Facet.BORDERS:
        # One border state (none for an island) among states nearby that do not border it.
        neighbours = deck.neighbours(state)
        near = _nearby_states(deck, state)
        others = [s for s in near if s not in neighbours and s != state]
        right = [rng.choice(neighbours)] if neighbours else []
        wrong = _pick(others[:8], BORDER_CHOICE_STATES - len(right), rng)
        options = [s.name for s in [*right, *wrong]]
        rng.shuffle(options)
        return (*options, NONE_OF_THEM)
    near = [s for s in _nearby_states(deck, state) if s != state]
    distractors = _pick(near[:6], 3, rng)
    if facet is Facet.POSTAL:
        # The classic confusions share a first letter (MA, MD, ME, MI, MN, MO, MS, MT).
        same_letter = [s for s in deck if s.postal[0] == state.postal[0] and s != state]
        distractors = _pick(same_letter, 3, rng)
        if len(distractors) < 3:
            distractors += _pick(
                [s for s in near if s not in distractors], 3 - len(distractors), rng
            )
        options = [state.postal, *[s.postal for s in distractors]]
    elif facet is Facet.CAPITAL:
        options = [state.capital, *[s.capital for s in distractors]]
    else:  # MAP: names of the red state's neighbours on the map are the likeliest mix-ups
        options = [state.name, *[s.name for s in distractors]]
    rng.shuffle(options)
    return tuple(options)


def _pick(items: list[StateCard], n: int, rng: random.Random) -> list[StateCard]:
    return rng.sample(items, min(n, len(items)))


def _nearby_states(deck: Deck, state: StateCard) -> list[StateCard]:
    """Every state, nearest on the map first (by the centroid of its outline)."""
    return [deck[postal] for postal in _by_distance(deck, state.postal)]


@cache
def _by_distance(deck: Deck, postal: str) -> tuple[str, ...]:
    shapes = deck.geometry.shapes
    x0, y0 = shapes[postal].centroid
    return tuple(sorted(shapes, key=lambda p: (math.dist((x0, y0), shapes[p].centroid), p)))


def judge(question: Question, answer: str, deck: Deck) -> Judgement:
    """Judge ``answer`` to ``question``.

    For a multiple-choice question ``answer`` is the option's text; for a map click, the postal
    code of the state clicked.

    Raises:
        UnreadableAnswer: the answer cannot be judged (blank, not one of the options, not a
            number where a rank is asked...): the student should fix it; nothing is recorded.
    """
    fact = question.fact
    state = deck[fact.postal]
    if question.form is Form.CHOICE:
        if answer not in question.choices:
            raise UnreadableAnswer("Pick one of the choices.")
        if fact.facet is Facet.BORDERS:
            return _judge_border_choice(answer, deck, state)
    if question.form is Form.MAP_CLICK:
        clicked = deck.get(answer.strip()) if len(answer.strip()) == 2 else None
        if clicked is None:
            raise UnreadableAnswer("Click a state on the map.")
        if clicked == state:
            return Judgement(
                Verdict.RIGHT, given=clicked.name, expected=state.name, answered=(clicked.postal,)
            )
        return Judgement(
            Verdict.WRONG,
            given=clicked.name,
            expected=state.name,
            note=f"That is {clicked.name}.",
            answered=(clicked.postal,),
        )
    facet = fact.facet
    if facet is Facet.MAP:
        return judge_state_name(answer, deck, state.postal)
    if facet is Facet.CAPITAL:
        return judge_capital(answer, deck, state.postal)
    if facet is Facet.POSTAL:
        return judge_postal(answer, deck, state.postal)
    if facet is Facet.BORDERS:
        return judge_borders(answer, deck, state.postal)
    if facet is Facet.ZONE:
        return judge_zone(answer, deck, state.postal)
    category = facet.category
    assert category is not None
    return judge_rank(answer, deck, state.postal, category)


def _judge_border_choice(answer: str, deck: Deck, state: StateCard) -> Judgement:
    neighbours = deck.neighbours(state)
    expected = expected_answer(Fact(state.postal, Facet.BORDERS), deck)
    if answer == NONE_OF_THEM:
        if not neighbours:
            return Judgement(Verdict.RIGHT, given=answer, expected=expected)
        return Judgement(
            Verdict.WRONG, given=answer, expected=expected, note=f"{state.name} has border states."
        )
    picked = deck[answer]
    if picked in neighbours:
        return Judgement(Verdict.RIGHT, given=answer, expected=expected, answered=(picked.postal,))
    return Judgement(
        Verdict.WRONG,
        given=answer,
        expected=expected,
        note=f"{picked.name} does not border {state.name}.",
        answered=(picked.postal,),
        wrong=(picked.postal,),
    )


def dont_know(fact: Fact, deck: Deck) -> Judgement:
    """The judgement when the student says they don't know: wrong, with the answer shown."""
    return Judgement(
        Verdict.WRONG, given="", expected=expected_answer(fact, deck), note="Now you know!"
    )


def expected_answer(fact: Fact, deck: Deck) -> str:
    """The right answer to ``fact``, as shown to the student."""
    state = deck[fact.postal]
    facet = fact.facet
    if facet is Facet.MAP:
        return state.name
    if facet is Facet.CAPITAL:
        return state.capital
    if facet is Facet.POSTAL:
        return state.postal
    if facet is Facet.BORDERS:
        names = sorted(s.name for s in deck.neighbours(state))
        return ", ".join(names) if names else f"No states: {state.name} borders no other state"
    if facet is Facet.ZONE:
        return state.zone.value
    category = facet.category
    assert category is not None
    return ordinal(state.rank(category))


# --- Teaching order -------------------------------------------------------------------------

#: States that border none: taught right after the state they are usually learned with.
_ANCHORS = {"AK": "WA", "HI": "CA"}
#: How many states are introduced together; facets of harder tiers lag behind by whole groups.
GROUP_SIZE = 5
_TIERS: tuple[tuple[Facet, ...], ...] = (
    (Facet.MAP, Facet.CAPITAL, Facet.POSTAL),
    (Facet.ZONE, Facet.BORDERS),
    (Facet.SIZE, Facet.STATEHOOD, Facet.POPULATION),
)


def teaching_order(deck: Deck) -> tuple[Fact, ...]:
    """All 400 facts in the order new ones are introduced.

    States are visited in a walk across the map from Washington, always stepping to an unvisited
    bordering state nearest to where the walk is (so neighbours are learned together). Each
    group of five states brings its map, capital and postal facts; its zones and borders come one
    group later, and its rankings two groups later, once the states themselves are familiar.
    """
    return _teaching_order(deck)


@cache
def _teaching_order(deck: Deck) -> tuple[Fact, ...]:
    walk = _state_walk(deck)
    groups = [walk[i : i + GROUP_SIZE] for i in range(0, len(walk), GROUP_SIZE)]
    order: list[Fact] = []
    for step in range(len(groups) + len(_TIERS) - 1):
        for lag, facets in enumerate(_TIERS):
            g = step - lag
            if 0 <= g < len(groups):
                order.extend(Fact(postal, facet) for facet in facets for postal in groups[g])
    return tuple(order)


def _state_walk(deck: Deck) -> list[str]:
    shapes = deck.geometry.shapes
    mainland = [s.postal for s in deck if s.postal not in _ANCHORS]
    walk = ["WA"]
    left = set(mainland) - {"WA"}
    while left:
        here = shapes[walk[-1]].centroid
        bordering = [n.postal for n in deck.neighbours(walk[-1]) if n.postal in left]
        candidates = bordering or sorted(left)
        nxt = min(candidates, key=lambda p: (math.dist(here, shapes[p].centroid), p))
        walk.append(nxt)
        left.remove(nxt)
    for island, anchor in _ANCHORS.items():
        walk.insert(walk.index(anchor) + 1, island)
    return walk


def facts_of(
    deck: Deck, facets: Iterable[Facet] | None = None, postals: Iterable[str] | None = None
) -> list[Fact]:
    """The facts of the given facets and states (all of either when None), in teaching order."""
    facet_set = set(facets) if facets is not None else None
    postal_set = set(postals) if postals is not None else None
    return [
        f
        for f in teaching_order(deck)
        if (facet_set is None or f.facet in facet_set)
        and (postal_set is None or f.postal in postal_set)
    ]
