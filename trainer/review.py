"""Flashcard review rounds: which facts are dealt, and in which form each is asked."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Mapping, Sequence

from trainer import srs
from trainer.cards import Deck
from trainer.facts import Fact, Form, Question, ask, forms_for

#: Facts per round: short enough for a lesson's spare five minutes.
ROUND_SIZE = 10
#: Multiple choice (when on) is for facts not yet held this many days: recognising comes first,
#: recall once the fact has settled.
CHOICE_UNTIL_STABILITY_DAYS = 4.0


@dataclass(frozen=True)
class Item:
    """One question of a round: a fact and the form it is asked in."""

    fact: Fact
    form: Form


def choose_form(
    fact: Fact, memory: srs.Memory | None, deck: Deck, rng: random.Random, *, multiple_choice: bool
) -> Form:
    """The form to ask ``fact`` in for a student whose memory of it is ``memory``.

    With multiple choice on, a fact that is new or still shaky is asked as a choice; otherwise
    it is typed, or for a map fact either typed (name the red state) or clicked (find the state).
    """
    forms = forms_for(fact, deck)
    shaky = memory is None or memory.in_steps or (memory.stability or 0.0) < CHOICE_UNTIL_STABILITY_DAYS
    if multiple_choice and shaky and Form.CHOICE in forms:
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
) -> list[Item]:
    """The round's items for ``keys`` (from the queue), each in the form that suits it."""
    rng = random.Random(f"deal:{seed}")
    return [
        Item(Fact.from_key(key), choose_form(Fact.from_key(key), memories.get(key), deck, rng, multiple_choice=multiple_choice))
        for key in keys
    ]


def question(item: Item, deck: Deck, seed: int, index: int) -> Question:
    """Item ``index`` of a round asked as a question; the same seed and index ask it the same way."""
    return ask(item.fact, item.form, deck, random.Random(f"ask:{seed}:{index}"))
