"""GeoPlunge Live (issue 23): the rules of a whole-class game, each student on their own device.

The projector shows the questions; the students answer on their phones. Here is all of a game
but its storing and sending (``trainer/web/class_game``): the questions dealt from the class's
weakest facts (:func:`deal`), what a student's device may see of an open question
(:func:`public_view`), the judging and the points (:func:`judge`), the teacher's controls
(:func:`advance`), the timer (:func:`deadline_ms`), the teams (:func:`make_teams`) and the
standings (:func:`standings`, :func:`shown_standings`, :func:`distribution`). Every question is
built on the project's own cards and rules: a Map card for "which state is red", a Power card's
clue order of State IQ for a clue chain, Border-Up's groups for a trio, the card rankings of Play
the Ranks. Seeded randomness only, so a game the web layer stores as its seed and settings is
dealt the same again. Rulings C-G1 to C-G14 in docs/RULINGS.md. No Flask, no database.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from trainer.cards import Category, Deck, StateCard
from trainer.facts import Facet, Fact, Verdict
from trainer.facts.answers import normalize, read_state
from trainer.modes import MODES, Mode
from trainer.modes import Kind as ModeKind
from trainer.quiz.border_up import groups
from trainer.quiz.state_iq import Clue, ClueKind, ClueSlot, capital_letters, clue_plan, consistent

#: The most questions one game may have.
MAX_QUESTIONS = 30
#: Points for a right answer (a CLUES question: fewer as more clues were seen).
POINTS = 100
#: The least a right answer to a CLUES question earns, however many clues were seen (C-G2).
MIN_CLUE_POINTS = 20
#: A clue chain is the Power card's clues, then more until one state fits, at most this many (C-G4).
MAX_CLUES = 6
#: Choices of a RED_STATE or CAPITAL question.
CHOICES = 4
#: Cards of a BORDER_UP question.
BORDER_UP_CARDS = 6
#: The log mode of a class game's answers (every review goes through record() with it).
LOG_MODE = "live"


class Kind(str, Enum):
    """The question kinds, each from one of the modes."""

    FIND = "find"
    RED_STATE = "red-state"
    CAPITAL = "capital"
    CLUES = "clues"
    BORDER_UP = "border-up"
    RANKS = "ranks"


#: What the teacher's form calls each kind.
KIND_TITLES: dict[Kind, str] = {
    Kind.FIND: "Find the state on the map",
    Kind.RED_STATE: "Which state is red? (Map cards)",
    Kind.CAPITAL: "Capitals",
    Kind.CLUES: "State IQ clues, one by one",
    Kind.BORDER_UP: "Border-Up: the trio among six cards",
    Kind.RANKS: "Play the Ranks: which of two?",
}

#: The facets each kind reviews (a fact of one of them suits the kind).
KIND_FACETS: dict[Kind, tuple[Facet, ...]] = {
    Kind.FIND: (Facet.MAP,),
    Kind.RED_STATE: (Facet.MAP,),
    Kind.CAPITAL: (Facet.CAPITAL,),
    Kind.CLUES: (Facet.MAP,),
    Kind.BORDER_UP: (Facet.BORDERS,),
    Kind.RANKS: (Facet.SIZE, Facet.STATEHOOD, Facet.POPULATION),
}

#: Kinds whose options are postal codes (every kind but CAPITAL).
POSTAL_KINDS = frozenset(Kind) - {Kind.CAPITAL}


class GameError(ValueError):
    """A control the game's phase does not allow; the message says why, in a teacher's words."""


class BadAnswer(ValueError):
    """An answer that is not one of the question's options: refused, nothing is recorded."""


@dataclass(frozen=True)
class Question:
    """One question of a game. Everything but :func:`public_view`'s part stays on the server."""

    number: int
    kind: Kind
    prompt: str
    options: tuple[str, ...]
    answer: str
    facts: tuple[str, ...]
    clues: tuple[str, ...] = ()
    map_postal: str | None = None

    @property
    def reviewed_states(self) -> frozenset[str]:
        """The states whose facts the question reviews."""
        return frozenset(Fact.from_key(key).postal for key in self.facts)


def question_states(q: Question, deck: Deck) -> frozenset[str]:
    """The states a question is about or shows (C-G3: none of them is in the next question): the
    states it reviews, and those of its options when they are a few (a Map card's four, the six
    Border-Up cards, the two ranked, the states of the four capitals)."""
    states = set(q.reviewed_states)
    if q.kind is Kind.CAPITAL:
        states.update(s.postal for s in deck if s.capital in q.options)
    elif q.kind in (Kind.RED_STATE, Kind.BORDER_UP, Kind.RANKS):
        states.update(q.options)
    return frozenset(states)


def public_view(q: Question, clues_shown: int = 0) -> dict[str, Any]:
    """What a student's device may see while ``q`` is open: JSON-safe, never the answer, the
    facts or the red state (the projector draws that into its own SVG)."""
    shown = max(0, min(clues_shown, len(q.clues)))
    return {
        "number": q.number,
        "kind": q.kind.value,
        "title": KIND_TITLES[q.kind],
        "prompt": q.prompt,
        "options": list(q.options),
        "clues": list(q.clues[:shown]),
        "clues_total": len(q.clues),
    }


# --- The deal -------------------------------------------------------------------------------


def _suits(fact: Fact, kind: Kind, deck: Deck, last: frozenset[str] = frozenset()) -> bool:
    """Whether ``fact`` can be the fact of a ``kind`` question right after one on ``last``."""
    if fact.facet not in KIND_FACETS[kind] or fact.postal in last:
        return False
    if kind is Kind.BORDER_UP:  # the centre of a trio borders two others: never AK or HI
        return len([n for n in deck.neighbours(fact.postal) if n.postal not in last]) >= 2
    return True


def _parse_focus(focus: Sequence[str], deck: Deck) -> list[Fact]:
    """The focus keys as facts, in order, each once; a key that is no fact of the deck is left out
    (C-G5)."""
    facts: list[Fact] = []
    for key in focus:
        try:
            fact = Fact.from_key(key)
        except ValueError:
            continue
        if deck.get(fact.postal) is None or fact in facts:
            continue
        facts.append(fact)
    return facts


def deal(
    deck: Deck, *, kinds: Sequence[Kind], length: int, focus: Sequence[str], seed: int
) -> tuple[Question, ...]:
    """The questions of a game: ``length`` of them, the kinds in turn, each on the next focus fact
    that suits its kind (the weakest first).

    A kind with no suitable focus fact left draws from the focus states' other facts of its
    facets, then from the whole deck, with the seed. No fact is asked twice in a game, and no
    state of one question is a state of the next (C-G3). Deterministic for the same arguments.

    Raises:
        ValueError: ``length`` is below 1 or above :data:`MAX_QUESTIONS`, or ``kinds`` is empty.
    """
    if length < 1 or length > MAX_QUESTIONS:
        raise ValueError(f"A game has 1 to {MAX_QUESTIONS} questions.")
    kinds = [Kind(k) for k in kinds]
    if not kinds:
        raise ValueError("Choose at least one kind of question.")
    rng = random.Random(f"class-game:{seed}")
    focus_facts = _parse_focus(focus, deck)
    focus_states = list(dict.fromkeys(f.postal for f in focus_facts))
    everyone = [s.postal for s in deck.sorted_by(None)]
    used: set[Fact] = set()
    questions: list[Question] = []
    last: frozenset[str] = frozenset()
    for number in range(length):
        kind = kinds[number % len(kinds)]
        fact = _next_fact(kind, focus_facts, focus_states, everyone, used, last, deck, rng)
        q = _build(number, kind, fact, focus_facts, used, last, deck, rng)
        used.update(Fact.from_key(k) for k in q.facts)
        questions.append(q)
        last = question_states(q, deck)
    return tuple(questions)


def _next_fact(
    kind: Kind,
    focus_facts: list[Fact],
    focus_states: list[str],
    everyone: list[str],
    used: set[Fact],
    last: frozenset[str],
    deck: Deck,
    rng: random.Random,
) -> Fact:
    def fresh(fact: Fact) -> bool:
        return fact not in used and _suits(fact, kind, deck, last)

    for fact in focus_facts:
        if fresh(fact):
            return fact
    facets = list(KIND_FACETS[kind])
    for postal in focus_states:
        options = [Fact(postal, facet) for facet in facets if fresh(Fact(postal, facet))]
        if options:
            return rng.choice(options)
    pool = [Fact(p, facet) for p in everyone for facet in facets if fresh(Fact(p, facet))]
    if not pool:  # a long game of one kind has asked every such fact: allow a repeat
        pool = [
            Fact(p, facet)
            for p in everyone
            for facet in facets
            if _suits(Fact(p, facet), kind, deck, last)
        ]
    return rng.choice(pool)


def _nearby(deck: Deck, postal: str) -> list[str]:
    """Every other state, nearest on the map first (the likeliest mix-ups)."""
    shapes = deck.geometry.shapes
    here = shapes[postal].centroid
    return sorted(
        (p for p in shapes if p != postal), key=lambda p: (math.dist(here, shapes[p].centroid), p)
    )


def _build(
    number: int,
    kind: Kind,
    fact: Fact,
    focus_facts: list[Fact],
    used: set[Fact],
    last: frozenset[str],
    deck: Deck,
    rng: random.Random,
) -> Question:
    state = deck[fact.postal]
    everyone = tuple(sorted(s.postal for s in deck))
    near = [p for p in _nearby(deck, state.postal) if p not in last]
    if kind is Kind.FIND:
        return Question(
            number, kind, f"Find {state.name} on the map.", everyone, state.postal, (fact.key,)
        )
    if kind is Kind.RED_STATE:
        options = [state.postal, *rng.sample(near[:6], CHOICES - 1)]
        rng.shuffle(options)
        return Question(
            number,
            kind,
            "Which state is red on this map?",
            tuple(options),
            state.postal,
            (fact.key,),
            map_postal=state.postal,
        )
    if kind is Kind.CAPITAL:
        others = rng.sample(near[:6], CHOICES - 1)
        capitals = [state.capital, *(deck[p].capital for p in others)]
        rng.shuffle(capitals)
        return Question(
            number,
            kind,
            f"What is the capital of {state.name}?",
            tuple(capitals),
            state.capital,
            (fact.key,),
        )
    if kind is Kind.CLUES:
        clues = clue_chain(state, deck, rng)
        return Question(
            number,
            kind,
            "Which state is it? The clues come one at a time: answer when you know.",
            everyone,
            state.postal,
            (fact.key,),
            clues=tuple(c.text(deck) for c in clues),
        )
    if kind is Kind.BORDER_UP:
        cards, trio = border_up_cards(state.postal, deck, rng, avoid=last)
        return Question(
            number,
            kind,
            "Which three of these cards make a Border-Up group (one borders both others)?",
            cards,
            "+".join(sorted(trio)),
            (fact.key,),
        )
    other = _rank_partner(fact, focus_facts, used, last, deck, rng)
    pair = [state.postal, other]
    rng.shuffle(pair)
    category = fact.facet.ranking
    a, b = deck[pair[0]], deck[pair[1]]
    winner = a if a.rank(category) < b.rank(category) else b
    return Question(
        number,
        kind,
        ranks_prompt(a, b, category),
        (a.postal, b.postal),
        winner.postal,
        (f"{a.postal}:{fact.facet.value}", f"{b.postal}:{fact.facet.value}"),
    )


def ranks_prompt(a: StateCard, b: StateCard, category: Category) -> str:
    """A RANKS question in words: which of the two ranks better in ``category``."""
    question = {
        Category.SIZE: "Which is bigger (more land area)",
        Category.STATEHOOD: "Which joined the Union first",
        Category.POPULATION: "Which had more people in 2010",
    }[category]
    return f"{question}: {a.name} or {b.name}?"


def _rank_partner(
    fact: Fact,
    focus_facts: list[Fact],
    used: set[Fact],
    last: frozenset[str],
    deck: Deck,
    rng: random.Random,
) -> str:
    """The other state of a RANKS question: the next focus fact of the same ranking, else any."""
    for other in focus_facts:
        if (
            other.facet is fact.facet
            and other.postal != fact.postal
            and other not in used
            and other.postal not in last
        ):
            return other.postal
    pool = [
        s.postal for s in deck.sorted_by(None) if s.postal != fact.postal and s.postal not in last
    ]
    return rng.choice(pool)


def clue_chain(state: StateCard, deck: Deck, rng: random.Random) -> list[Clue]:
    """The clues about ``state`` in the order they are revealed (C-G4).

    First a Power card's clues (drawn by ``rng``), in its clue order (Q1; the border states named
    drawn too); then, while more than one state fits, the clue that leaves the fewest states (a
    border state not named yet, a letter not given yet), up to :data:`MAX_CLUES` in all.
    """
    card = rng.choice(deck.power_cards)
    clues: list[Clue] = []
    borders = [n.postal for n in deck.neighbours(state)]
    rng.shuffle(borders)

    def border_clue() -> Clue | None:
        named = [c.value for c in clues if c.slot.kind is ClueKind.BORDER and c.value]
        unused = [p for p in borders if p not in named]
        if unused:
            return Clue(ClueSlot(ClueKind.BORDER), unused[0], len(named))
        if any(c.slot.kind is ClueKind.BORDER for c in clues):
            return None  # "no (more) border states" is said once
        return Clue(ClueSlot(ClueKind.BORDER), "", len(named))

    for slot in clue_plan(card.clue_code):
        if slot is None:
            continue
        if slot.kind is ClueKind.BORDER:
            clue = border_clue()
            if clue is not None:
                clues.append(clue)
            continue
        source = state.postal if slot.kind is ClueKind.POSTAL else capital_letters(state)
        if not any(c.slot == slot for c in clues) and slot.letter < len(source):
            clues.append(Clue(slot, source[slot.letter]))
    while len(clues) < MAX_CLUES and len(consistent(clues, deck)) > 1:
        candidates: list[Clue] = []
        clue = border_clue()
        if clue is not None:
            candidates.append(clue)
        letters = capital_letters(state)
        for kind, source, most in (
            (ClueKind.CAPITAL, letters, 3),
            (ClueKind.POSTAL, state.postal, 2),
        ):
            for i in range(min(most, len(source))):
                slot = ClueSlot(kind, i)
                if not any(c.slot == slot for c in clues):
                    candidates.append(Clue(slot, source[i]))
                    break
        if not candidates:
            break
        clues.append(min(candidates, key=lambda c: len(consistent([*clues, c], deck))))
    return clues


def border_up_cards(
    centre: str, deck: Deck, rng: random.Random, avoid: Iterable[str] = ()
) -> tuple[tuple[str, ...], frozenset[str]]:
    """Six cards holding exactly one winning group (B1), centred on ``centre``, and that group.

    The other three cards are states near the centre where they can be (so the cards look alike),
    each added only if it makes no second group. No card is one of ``avoid``.

    Raises:
        ValueError: ``centre`` borders fewer than two states outside ``avoid``.
    """
    avoided = set(avoid)
    neighbours = [n.postal for n in deck.neighbours(centre) if n.postal not in avoided]
    if len(neighbours) < 2 or centre in avoided:
        raise ValueError(f"{centre} borders fewer than two states: it centres no group.")
    near = [p for p in _nearby(deck, centre) if p not in avoided]
    for _ in range(100):
        trio = frozenset([centre, *rng.sample(neighbours, 2)])
        close = [p for p in near[:12] if p not in trio]
        far = [p for p in near[12:] if p not in trio]
        rng.shuffle(close)
        rng.shuffle(far)
        cards = list(trio)
        for p in [*close, *far]:
            if len(groups([*cards, p], deck)) == 1:
                cards.append(p)
            if len(cards) == BORDER_UP_CARDS:
                break
        if len(cards) == BORDER_UP_CARDS:
            cards.sort()
            rng.shuffle(cards)
            return tuple(cards), trio
    raise RuntimeError("no six cards with one group")  # pragma: no cover - never with the deck


# --- Judging --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Judged:
    """One student's answer, judged: the points and the reviews it records."""

    right: bool
    verdict: Verdict
    points: int
    reviews: tuple[tuple[str, Verdict], ...]
    answered_postal: str | None


def clue_points(total: int, seen: int) -> int:
    """A right answer's points after ``seen`` of ``total`` clues (C-G2): 100 after the first,
    falling evenly, never below :data:`MIN_CLUE_POINTS`; rounded half up."""
    if total < 1:
        return POINTS
    seen = max(1, min(seen, total))
    return max(MIN_CLUE_POINTS, math.floor(POINTS * (total - seen + 1) / total + 0.5))


def _read_postal(q: Question, answer: str, deck: Deck) -> str:
    postal = read_state(answer, deck)
    if postal is None or postal not in q.options:
        raise BadAnswer("Pick one of the states on offer.")
    return postal


def judge(q: Question, answer: str, deck: Deck, *, clues_seen: int = 0) -> Judged:
    """Judge one student's ``answer`` to ``q``.

    ``answer``: a postal code or a state's name for the postal kinds, a capital for CAPITAL
    (case and accents ignored), three postal codes joined by "+" in any order for BORDER_UP.

    Raises:
        BadAnswer: the answer is not one of the question's options.
    """
    answered: str | None
    if q.kind is Kind.CAPITAL:
        given = normalize(answer)
        picked = next((o for o in q.options if normalize(o) == given), None)
        if picked is None or not given:
            raise BadAnswer("Pick one of the capitals on offer.")
        right = picked == q.answer
        answered = next((s.postal for s in deck if s.capital == picked), None)
    elif q.kind is Kind.BORDER_UP:
        parts = [p for p in answer.replace(",", "+").split("+") if p.strip()]
        postals = {_read_postal(q, p, deck) for p in parts}
        if len(parts) != 3 or len(postals) != 3:
            raise BadAnswer("Pick three different cards.")
        right = "+".join(sorted(postals)) == q.answer
        answered = None
    else:
        answered = _read_postal(q, answer, deck)
        right = answered == q.answer
    verdict = Verdict.RIGHT if right else Verdict.WRONG
    points = 0
    if right:
        points = clue_points(len(q.clues), clues_seen) if q.kind is Kind.CLUES else POINTS
    return Judged(right, verdict, points, tuple((key, verdict) for key in q.facts), answered)


# --- The phases -----------------------------------------------------------------------------


class Standings(str, Enum):
    """What the projector shows between questions."""

    TEAMS = "teams"
    TOP_FIVE = "top-five"
    NONE = "none"


class Phase(str, Enum):
    """Where a game is."""

    LOBBY = "lobby"
    QUESTION = "question"
    REVEAL = "reveal"
    STANDINGS = "standings"
    ENDED = "ended"


@dataclass(frozen=True)
class Settings:
    """The teacher's choices for one game."""

    kinds: tuple[Kind, ...]
    length: int
    seconds: int | None
    speed_breaks_ties: bool = True
    standings: Standings = Standings.TOP_FIVE
    team_size: int = 1
    extra_time: float = 1.5


@dataclass(frozen=True)
class Progress:
    """Where a game is: stored by the web layer as columns."""

    phase: Phase
    question: int
    paused: bool = False
    clues_shown: int = 0


#: The teacher's controls, in the order of the projector's buttons.
ACTIONS = ("start", "clue", "reveal", "standings", "next", "skip", "pause", "resume", "end")


def _open(index: int, questions: int) -> Progress:
    """Question ``index`` opens with its first clue on show (C-G6); past the last, the game ends."""
    if index >= questions:
        return Progress(Phase.ENDED, questions - 1)
    return Progress(Phase.QUESTION, index, clues_shown=1)


def advance(
    p: Progress, action: str, settings: Settings, questions: int, *, clues: int | None = None
) -> Progress:
    """The game after the teacher's control ``action`` (C-G6, C-G7).

    ``questions``: how many questions the game has. ``clues``: the open question's number of
    clues (``len(q.clues)``); when given, "clue" is refused on a question without clues or with
    every clue on show; when not, the count is only capped where it is read
    (:func:`public_view`, :func:`judge`).

    Raises:
        GameError: an unknown action, or one the phase does not allow.
    """
    if action not in ACTIONS:
        raise GameError(f"There is no control called {action!r}.")
    if p.phase is Phase.ENDED:
        raise GameError("The game is over.")
    if action == "end":
        return Progress(Phase.ENDED, p.question)
    if action == "start":
        if p.phase is not Phase.LOBBY:
            raise GameError("The game has started already.")
        if questions < 1:
            raise GameError("The game has no questions.")
        return _open(0, questions)
    if p.phase is Phase.LOBBY:
        raise GameError("Start the game first.")
    if action in ("clue", "reveal", "skip", "pause", "resume") and p.phase is not Phase.QUESTION:
        raise GameError("That is for while a question is open.")
    if action == "pause":
        if p.paused:
            raise GameError("The question is paused already.")
        return replace(p, paused=True)
    if action == "resume":
        if not p.paused:
            raise GameError("The question is not paused.")
        return replace(p, paused=False)
    if action == "clue":
        if p.paused:
            raise GameError("The question is paused: resume it first.")
        if clues is not None and clues < 1:
            raise GameError("This question has no clues.")
        if clues is not None and p.clues_shown >= clues:
            raise GameError("Every clue is on show already.")
        return replace(p, clues_shown=p.clues_shown + 1)
    if action == "reveal":
        return Progress(Phase.REVEAL, p.question, clues_shown=p.clues_shown)
    if action == "skip":
        return _open(p.question + 1, questions)
    if action == "standings":
        if p.phase is not Phase.REVEAL:
            raise GameError("The standings come after a question's answer is shown.")
        if settings.standings is Standings.NONE:  # C-G7: straight on to the next question
            return _open(p.question + 1, questions)
        return Progress(Phase.STANDINGS, p.question, clues_shown=p.clues_shown)
    # "next"
    if p.phase not in (Phase.REVEAL, Phase.STANDINGS):
        raise GameError("Show the answer first (or skip the question).")
    return _open(p.question + 1, questions)


def deadline_ms(settings: Settings, extra_time: bool) -> int | None:
    """How long a student has for a question, in ms: None without a timer; ``extra_time`` for a
    student marked for it, as a multiple (C-G8)."""
    if settings.seconds is None:
        return None
    factor = max(1.0, settings.extra_time) if extra_time else 1.0
    return math.floor(settings.seconds * 1000 * factor + 0.5)


# --- Teams and standings --------------------------------------------------------------------


def make_teams(student_ids: Sequence[int], size: int, seed: int) -> dict[int, int]:
    """Student id -> team number (1-based), the teams drawn with ``seed`` (C-G9).

    As many teams as ``size`` gives (rounding up), fewer where a team would have one member; the
    sizes differ by at most 1. Size 1: everyone their own team.
    """
    ids = sorted(set(student_ids))
    rng = random.Random(f"class-game-teams:{seed}")
    rng.shuffle(ids)
    if not ids:
        return {}
    if size <= 1:
        return {sid: i + 1 for i, sid in enumerate(ids)}
    count = max(1, min(math.ceil(len(ids) / size), len(ids) // 2))
    return {sid: i % count + 1 for i, sid in enumerate(ids)}


@dataclass(frozen=True)
class AnswerRow:
    """One stored answer, as the standings need it."""

    student_id: int
    question: int
    right: bool
    points: int
    ms: int | None


@dataclass(frozen=True)
class Standing:
    """One line of the standings: a student or a team."""

    rank: int
    key: int
    points: int
    right: int
    ms: int


def _half_up(x: float) -> int:
    return math.floor(x + 0.5)


def standings(
    answers: Iterable[AnswerRow],
    teams: Mapping[int, int] | None,
    speed_breaks_ties: bool,
    *,
    students: Iterable[int] = (),
) -> list[Standing]:
    """The standings, best first (C-G10, C-G11).

    Points decide; with ``speed_breaks_ties`` a tie is broken by less total time on right answers
    (an exact tie still shares a rank), without it tied players share a rank (1, 1, 3). With
    ``teams`` (student id -> team), a team's points are the mean of its members' rounded half up,
    members who answered nothing counting 0; its right answers the sum, its time the mean.
    Every student of ``teams`` or ``students`` appears, with 0 points if they answered nothing.
    """
    points: dict[int, int] = {}
    right: dict[int, int] = {}
    ms: dict[int, int] = {}
    seen: set[tuple[int, int]] = set()
    for sid in [*(teams or {}), *students]:
        points.setdefault(sid, 0)
        right.setdefault(sid, 0)
        ms.setdefault(sid, 0)
    for row in answers:
        if (row.student_id, row.question) in seen:  # one answer per question counts (the first)
            continue
        seen.add((row.student_id, row.question))
        points[row.student_id] = points.get(row.student_id, 0) + row.points
        right.setdefault(row.student_id, 0)
        ms.setdefault(row.student_id, 0)
        if row.right:
            right[row.student_id] += 1
            ms[row.student_id] += row.ms or 0
    lines: list[tuple[int, int, int, int]] = []  # (key, points, right, ms)
    if teams is None:
        lines = [(sid, points[sid], right[sid], ms[sid]) for sid in points]
    else:
        members: dict[int, list[int]] = {}
        for sid, team in teams.items():
            members.setdefault(team, []).append(sid)
        for team, sids in members.items():
            n = len(sids)
            lines.append(
                (
                    team,
                    _half_up(sum(points[s] for s in sids) / n),
                    sum(right[s] for s in sids),
                    _half_up(sum(ms[s] for s in sids) / n),
                )
            )

    def decides(line: tuple[int, int, int, int]) -> tuple[int, ...]:
        return (-line[1], line[3]) if speed_breaks_ties else (-line[1],)

    lines.sort(key=lambda line: (*decides(line), line[0]))
    result: list[Standing] = []
    for i, line in enumerate(lines):
        rank = result[-1].rank if i and decides(lines[i - 1]) == decides(line) else i + 1
        result.append(Standing(rank, line[0], line[1], line[2], line[3]))
    return result


#: How many the projector shows with TOP_FIVE (and any tied with the last of them).
TOP = 5


def shown_standings(all: list[Standing], mode: Standings) -> list[Standing]:  # noqa: A002
    """What the projector shows of the standings (C-G12): TOP_FIVE the first five (any tied at
    fifth too) who have points, TEAMS every team, NONE nothing. Names never beside low scores."""
    if mode is Standings.NONE:
        return []
    if mode is Standings.TEAMS:
        return list(all)
    return [s for s in all if s.rank <= TOP and s.points > 0]


def distribution(answers: Iterable[tuple[str, bool]]) -> list[tuple[str, int, bool]]:
    """(answer, how many, right) for each answer given, most common first (then right ones, then
    by answer): "9 of you chose Vermont"."""
    counts: Counter[str] = Counter()
    rights: dict[str, bool] = {}
    for answer, right in answers:
        counts[answer] += 1
        rights[answer] = rights.get(answer, False) or right
    return sorted(
        ((a, n, rights[a]) for a, n in counts.items()), key=lambda t: (-t[1], not t[2], t[0])
    )


MODES.register(
    Mode(
        "geoplunge-live",
        "GeoPlunge Live",
        LOG_MODE,
        frozenset(Facet),
        True,
        "game",
        ModeKind.QUIZ,
        levels=(),
        assignable=False,
        sessions=0.0,
        order=95,
    )
)
