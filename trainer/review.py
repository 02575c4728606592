"""Flashcard review rounds: which facts are dealt, and in which form each is asked."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from trainer import pickmap, srs
from trainer.cards import Deck
from trainer.facts import Facet, Fact, Form, Question, ask, forms_for
from trainer.modes import MODES, Kind, Mode

#: Facts per round: short enough for a lesson's spare five minutes.
ROUND_SIZE = 10
#: Multiple choice (when on) is for facts not yet held this many days: recognising comes first,
#: recall once the fact has settled.
CHOICE_UNTIL_STABILITY_DAYS = 4.0
#: An answer that took longer than this was interrupted: its time tells nothing.
MAX_DURATION_MS = 10 * 60 * 1000
#: How much less than the server's measure the page's own may be and still be believed: the page
#: starts its clock once it has loaded, the server when it sent it (a slow network, a slow phone).
LOAD_ALLOWANCE_MS = 2_000


@dataclass(frozen=True)
class Item:
    """One question of a round: a fact and the form it is asked in."""

    fact: Fact
    form: Form


def choose_form(
    fact: Fact,
    memory: srs.Memory | None,
    deck: Deck,
    rng: random.Random,
    *,
    multiple_choice: bool,
    recheck: bool = False,
) -> Form:
    """The form to ask ``fact`` in for a student whose memory of it is ``memory``.

    A map fact that is new or still shaky is found on the map ("Find Texas on the map"), from the
    very first time (ruling P-M13): where a state is comes first, and a click is recall, not a
    pick. Any other fact, with multiple choice on, is asked as a choice while new or shaky.
    Otherwise a fact is typed, or for a map fact either typed (name the red state) or clicked.
    ``recheck`` says the student's last answer about the fact was a right pick (which may be luck)
    or a miss: it is asked in a strong form now, shaky or not (ruling P-M6), so what the next
    answer shows is recall.
    """
    forms = forms_for(fact, deck)
    shaky = (
        memory is None or memory.in_steps or (memory.stability or 0.0) < CHOICE_UNTIL_STABILITY_DAYS
    )
    if shaky and Form.MAP_CLICK in forms:
        return Form.MAP_CLICK
    if multiple_choice and shaky and not recheck and Form.CHOICE in forms:
        return Form.CHOICE
    recall = [form for form in forms if form is not Form.CHOICE]
    return rng.choice(recall)


def deal(
    keys: Sequence[str],
    memories: Mapping[str, srs.Memory],
    deck: Deck,
    seed: int,
    *,
    multiple_choice: bool,
    recheck: Collection[str] = (),
) -> list[Item]:
    """The round's items for ``keys`` (from the queue), each in the form that suits it.

    ``recheck`` holds the keys whose last answer was a right pick or a miss (see
    :func:`choose_form`).
    """
    rng = random.Random(f"deal:{seed}")
    return [
        Item(
            Fact.from_key(key),
            choose_form(
                Fact.from_key(key),
                memories.get(key),
                deck,
                rng,
                multiple_choice=multiple_choice,
                recheck=key in recheck,
            ),
        )
        for key in keys
    ]


def question(item: Item, deck: Deck, seed: int, index: int) -> Question:
    """Item ``index`` of a round asked as a question; the same seed and index ask it the same way."""
    return ask(item.fact, item.form, deck, random.Random(f"ask:{seed}:{index}"))


@lru_cache(maxsize=64)
def pick_map(deck: Deck, seed: int, index: int) -> pickmap.PickMap:
    """The map to click for item ``index`` of a round (a map-click question): the same seed and
    index draw the same map, another index another one. The last few are kept, with their drawn
    outlines, since a question's map is drawn again to judge the click and to show it again."""
    return pickmap.build(deck, random.Random(f"pick:{seed}:{index}"))


def bounded_duration(page_ms: int | None, served_ms: int | None) -> int | None:
    """How long an answer took, as stored with it: the page's figure bounded by the server's.

    ``served_ms`` is the time since the server sent the question, which no student can shorten;
    ``page_ms`` is what the page measured, more exact but the student's to forge. The page's
    figure counts when it is plausible (at most :data:`LOAD_ALLOWANCE_MS` below the server's), and
    never more than the server's; otherwise the server's counts. With no server figure the time
    is unknown, and so is one beyond :data:`MAX_DURATION_MS`. (Since P-M7 the time rates nothing;
    it is stored, and kept honest, for any later use.)
    """
    if served_ms is None or served_ms < 0:
        return None
    duration = served_ms
    if page_ms is not None and page_ms > 0 and page_ms >= served_ms - LOAD_ALLOWANCE_MS:
        duration = min(page_ms, served_ms)
    return duration if 0 < duration <= MAX_DURATION_MS else None


MODES.register(
    Mode(
        "review",
        "Flashcard review",
        "review",
        frozenset(Facet),
        True,
        kind=Kind.REVIEW,
        levels=(),
        deal=deal,
        sessions=0.72,
        order=10,
    )
)
