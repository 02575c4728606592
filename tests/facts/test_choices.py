"""Multiple choice gives nothing away by its shape: every question of a facet offers the same
number of options and the same fixed ones, whatever its answer (P-H1, issue 18)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.cards import Zone, load_deck
from trainer.facts import NONE_OF_THEM, Facet, Fact, Form, Verdict, all_facts, ask, forms_for, judge

DECK = load_deck()
CHOICE_FACTS = [fact for fact in all_facts(DECK) if Form.CHOICE in forms_for(fact, DECK)]
#: P-H1: each facet's shape of options: how many, and where "None of them" is (None: nowhere).
SHAPES = {facet: (4, None) for facet in Facet} | {Facet.ZONE: (6, None), Facet.BORDERS: (5, 4)}


def _shape(choices: tuple[str, ...]) -> tuple[int, int | None]:
    return len(choices), choices.index(NONE_OF_THEM) if NONE_OF_THEM in choices else None


def test_every_fact_can_be_a_choice():
    assert len(CHOICE_FACTS) == 400


@settings(max_examples=500, deadline=None)
@given(fact=st.sampled_from(CHOICE_FACTS), seed=st.integers(min_value=0, max_value=2**64))
def test_the_shape_of_the_options_never_depends_on_the_answer(fact, seed):
    """P-H1: the number of options and the place of "None of them" are the facet's, always."""
    question = ask(fact, Form.CHOICE, DECK, random.Random(seed))
    assert _shape(question.choices) == SHAPES[fact.facet]
    assert len(set(question.choices)) == len(question.choices)
    right = [c for c in question.choices if judge(question, c, DECK).verdict is Verdict.RIGHT]
    assert len(right) == 1


@pytest.mark.parametrize("seed", range(5))
def test_every_fact_of_a_facet_has_its_facets_shape(seed):
    """P-H1, all 400 facts: Alaska's and Hawaii's zones and borders included."""
    shapes: dict[Facet, set] = {facet: set() for facet in Facet}
    for fact in CHOICE_FACTS:
        shapes[fact.facet].add(
            _shape(ask(fact, Form.CHOICE, DECK, random.Random(f"{seed}:{fact.key}")).choices)
        )
    assert shapes == {facet: {shape} for facet, shape in SHAPES.items()}


@pytest.mark.parametrize("postal", ["AK", "HI", "TX", "TN", "NY"])
def test_every_zone_question_offers_every_zone_in_the_cards_order(postal):
    """P-H1: Alaska's and Hawaii's own zones are offered on every zone question, not only theirs."""
    question = ask(Fact(postal, Facet.ZONE), Form.CHOICE, DECK, random.Random(1))
    assert question.choices == (
        "Eastern",
        "Central",
        "Mountain",
        "Pacific",
        "Alaska",
        "Hawaii-Aleutian",
    )
    assert question.choices == tuple(zone.value for zone in Zone)


@pytest.mark.parametrize("postal", ["AK", "HI", "CO", "ME", "TN"])
def test_none_of_them_is_offered_on_every_borders_question_and_right_only_for_an_island(postal):
    """P-H1: four states, then "None of them"; it is right only for a state with no border."""
    question = ask(Fact(postal, Facet.BORDERS), Form.CHOICE, DECK, random.Random(2))
    assert question.choices[-1] == NONE_OF_THEM
    states = [DECK[name] for name in question.choices[:-1]]
    assert len(states) == 4 and DECK[postal] not in states
    bordering = [s for s in states if DECK.borders_between(postal, s)]
    island = not DECK.neighbours(postal)
    assert len(bordering) == (0 if island else 1)
    verdict = judge(question, NONE_OF_THEM, DECK).verdict
    assert verdict is (Verdict.RIGHT if island else Verdict.WRONG)
