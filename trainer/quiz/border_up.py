"""Border-Up (Combo 1, Game 1): groups of bordering states, a solver, dealing, and the computer team.

Rulings B1 and B2. A winning group is 3 cards of which one (the centre) borders both others; a
call needs 2 groups with no card in common. Alaska and Hawaii border no state, so they are never
in a group.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from trainer.cards import Deck
from trainer.facts import Facet, Fact, Verdict
from trainer.modes import MODES, Mode

from .race import Level
from .weakest import draw_weakest

HAND = 18  # cards per team
GROUP = 3
#: Deals tried before giving up on a solvable pair of hands (never reached with the real deck).
MAX_DEALS = 1000

Group = frozenset[str]


def centres(cards: Iterable[str], deck: Deck) -> list[str]:
    """The cards of a 3-card group that border both others (B1), by postal code; empty if none."""
    trio = list(cards)
    if len(trio) != GROUP or len(set(trio)) != GROUP:
        return []
    return sorted(c for c in trio if all(deck.borders_between(c, o) for o in trio if o != c))


def groups(hand: Iterable[str], deck: Deck) -> list[Group]:
    """Every winning group in ``hand`` (B1), each once, in a stable order."""
    cards = sorted(set(hand))
    found: set[Group] = set()
    for centre in cards:
        around = [c for c in cards if c != centre and deck.borders_between(centre, c)]
        for a, b in combinations(around, 2):
            found.add(frozenset((centre, a, b)))
    return sorted(found, key=sorted)


def solutions(hand: Iterable[str], deck: Deck) -> list[tuple[Group, Group]]:
    """Every pair of winning groups with no card in common (the calls that win), each once."""
    found = groups(hand, deck)
    return [(a, b) for a, b in combinations(found, 2) if not a & b]


def solvable(hand: Iterable[str], deck: Deck) -> bool:
    """True when the hand holds 2 disjoint winning groups (B2)."""
    found = groups(hand, deck)
    return any(not a & b for a, b in combinations(found, 2))


@dataclass(frozen=True)
class Deal:
    """The two hands of a round, 36 different cards, both solvable (B2)."""

    student: tuple[str, ...]
    computer: tuple[str, ...]
    deals_tried: int


def deal(deck: Deck, rng: random.Random, lean_on: Sequence[str] = ()) -> Deal:
    """Deal 18 cards to each team, both hands solvable, re-dealing from ``rng`` until they are.

    Args:
        lean_on: states whose borders the student should practise, weakest first: the student's
            hand then holds one of the first few of them that can centre a group (drawn by
            ``rng``, see :func:`~trainer.quiz.weakest.draw_weakest`), with two of its neighbours,
            and at least one winning call uses a group centred on it.
    """
    everyone = [s.postal for s in deck.sorted_by(None)]
    forced: list[str] = []
    centre = draw_weakest((p for p in lean_on if len(deck.neighbours(p)) >= 2), 1, rng)
    if centre:
        forced = [centre[0], *rng.sample([n.postal for n in deck.neighbours(centre[0])], 2)]
    for tried in range(1, MAX_DEALS + 1):
        rest = [p for p in everyone if p not in forced]
        rng.shuffle(rest)
        student = forced + rest[: HAND - len(forced)]
        computer = rest[HAND - len(forced) : 2 * HAND - len(forced)]
        centred = not forced or any(
            forced[0] in centres(group, deck) for pair in solutions(student, deck) for group in pair
        )
        if centred and solvable(student, deck) and solvable(computer, deck):
            rng.shuffle(student)
            return Deal(tuple(student), tuple(computer), tried)
    raise RuntimeError("no solvable deal found")  # pragma: no cover - the real deck never gets here


@dataclass(frozen=True)
class GroupResult:
    """One called group, judged: its centre (or the card the call hinged on) and what was wrong."""

    cards: tuple[str, ...]
    valid: bool
    centre: str
    not_bordering: tuple[str, ...]  # cards of the group that do not border the centre


class BadCall(ValueError):
    """A call that cannot be judged: not two groups of three, a card not in the hand, or used twice."""


def judge_call(
    hand: Sequence[str], called: Sequence[Sequence[str]], deck: Deck
) -> tuple[GroupResult, GroupResult]:
    """Judge a call of two groups (B1, B2): both must be winning groups with no card in common.

    Raises:
        BadCall: the call is not two groups of three different cards from the hand.
    """
    if len(called) != 2 or any(len(g) != GROUP for g in called):
        raise BadCall("Choose two groups of three cards.")
    cards = [c for g in called for c in g]
    if len(set(cards)) != len(cards):
        raise BadCall("A card can be in only one group.")
    if not set(cards) <= set(hand):
        raise BadCall("Use only the cards in your hand.")
    first, second = (_judge_group(tuple(sorted(g)), deck) for g in called)
    return first, second


def _judge_group(cards: tuple[str, ...], deck: Deck) -> GroupResult:
    found = centres(cards, deck)
    if found:
        return GroupResult(cards, True, found[0], ())
    # Not a group: the card that borders the most of the others is the one the call hinged on.
    centre = max(
        cards,
        key=lambda c: (sum(deck.borders_between(c, o) for o in cards if o != c), -cards.index(c)),
    )
    missing = tuple(o for o in cards if o != centre and not deck.borders_between(centre, o))
    return GroupResult(cards, False, centre, missing)


def call_succeeds(results: Sequence[GroupResult]) -> bool:
    return all(r.valid for r in results)


@dataclass(frozen=True)
class Review:
    """One answer for the memory model: a state's `borders` fact and how it was answered."""

    fact: Fact
    verdict: Verdict
    helped: bool
    item: str


def reviews(results: Sequence[GroupResult], helped: bool) -> list[Review]:
    """The call's answers: each group's centre's borders (Good, or Hard with a hint); a wrong group
    is Again on the centre and on every card it does not border. Cards merely dealt record nothing."""
    out: list[Review] = []
    seen: set[str] = set()
    for n, result in enumerate(results, start=1):
        if result.valid:
            out.append(
                Review(
                    Fact(result.centre, Facet.BORDERS),
                    Verdict.RIGHT,
                    helped,
                    f"group{n}:{result.centre}",
                )
            )
            continue
        for postal in (result.centre, *result.not_bordering):
            if postal not in seen:
                seen.add(postal)
                out.append(
                    Review(Fact(postal, Facet.BORDERS), Verdict.WRONG, False, f"group{n}:{postal}")
                )
    return out


def hint(hand: Sequence[str], deck: Deck) -> str:
    """One card of a solution (a centre of the first one), to highlight when the student asks."""
    first = solutions(hand, deck)[0][0]
    return centres(first, deck)[0]


# --- The computer team --------------------------------------------------------------------


#: Per level: mean seconds to find two groups, and the chance its call is wrong.
LEVELS = {Level.EASY: (75.0, 0.15), Level.MEDIUM: (50.0, 0.08), Level.HARD: (30.0, 0.02)}
SPREAD = 0.3


@dataclass(frozen=True)
class ComputerRun:
    """When the computer calls GeoPlunge!, and whether its groups are right (seeded)."""

    call_at: float
    call_right: bool

    @classmethod
    def draw(cls, level: Level, seed: int) -> ComputerRun:
        rng = random.Random(f"border-up-computer:{seed}")
        mean, slip = LEVELS[level]
        return cls(round(max(0.3 * mean, rng.gauss(mean, SPREAD * mean)), 2), rng.random() >= slip)


MODES.register(
    Mode(
        "border-up",
        "Border-Up",
        "border_up",
        frozenset({Facet.BORDERS}),
        True,
        timed=True,
        deal=deal,
        sessions=0.06,
        order=40,
    )
)
