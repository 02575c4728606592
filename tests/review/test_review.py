"""Dealing a review round: the form each fact is asked in, and replaying a round from its seed."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from trainer import srs
from trainer.cards import load_deck
from trainer.facts import Facet, Fact, Form
from trainer.review import (
    CHOICE_UNTIL_STABILITY_DAYS,
    LOAD_ALLOWANCE_MS,
    MAX_DURATION_MS,
    Item,
    bounded_duration,
    choose_form,
    deal,
    pick_map,
    question,
)

DECK = load_deck()
T0 = dt.datetime(2026, 3, 2, 15, 0, tzinfo=dt.UTC)
SETTLED = srs.Memory(
    srs.MemoryState.REVIEW,
    None,
    CHOICE_UNTIL_STABILITY_DAYS + 10,
    5.0,
    T0,
    T0 - dt.timedelta(days=14),
)


def test_new_facts_are_multiple_choice_when_it_is_on():
    fact = Fact("CO", Facet.CAPITAL)
    assert choose_form(fact, None, DECK, random.Random(1), multiple_choice=True) is Form.CHOICE
    assert (
        choose_form(fact, srs.new_memory(T0), DECK, random.Random(1), multiple_choice=True)
        is Form.CHOICE
    )


def test_settled_facts_are_recalled_not_recognised():
    fact = Fact("CO", Facet.CAPITAL)
    assert choose_form(fact, SETTLED, DECK, random.Random(1), multiple_choice=True) is Form.TYPED


def test_without_multiple_choice_nothing_is_a_choice():
    for fact in [Fact(s.postal, facet) for s in DECK for facet in Facet]:
        assert (
            choose_form(fact, None, DECK, random.Random(fact.key), multiple_choice=False)
            is not Form.CHOICE
        )


def test_settled_map_facts_are_typed_or_clicked():
    for postal in ("CO", "RI", "HI"):
        forms = {
            choose_form(
                Fact(postal, Facet.MAP), SETTLED, DECK, random.Random(i), multiple_choice=True
            )
            for i in range(30)
        }
        assert forms == {Form.TYPED, Form.MAP_CLICK}


@pytest.mark.parametrize("multiple_choice", [True, False])
@pytest.mark.parametrize("postal", [s.postal for s in DECK])
def test_new_and_shaky_map_facts_are_found_on_the_map(postal, multiple_choice):
    """P-M13: map first, from the very first answer, small states and choices on or off alike."""
    fact = Fact(postal, Facet.MAP)
    shaky = _after(srs.Rating.AGAIN)
    assert shaky.stability < CHOICE_UNTIL_STABILITY_DAYS
    for memory in (None, srs.new_memory(T0), shaky):
        for seed in range(3):
            form = choose_form(
                fact, memory, DECK, random.Random(seed), multiple_choice=multiple_choice
            )
            assert form is Form.MAP_CLICK


def test_a_round_replays_from_its_seed():
    keys = ["CO:map", "CO:capital", "UT:size", "HI:borders"]
    items = deal(keys, {}, DECK, seed=42, multiple_choice=True)
    assert items == deal(keys, {}, DECK, seed=42, multiple_choice=True)
    assert [item.fact.key for item in items] == keys
    first = [question(item, DECK, 42, i) for i, item in enumerate(items, 1)]
    again = [question(item, DECK, 42, i) for i, item in enumerate(items, 1)]
    assert first == again
    other_seeds = {
        question(Item(Fact("CO", Facet.CAPITAL), Form.CHOICE), DECK, seed, 2).choices
        for seed in range(20)
    }
    assert len(other_seeds) > 1, "another round shuffles the options differently"


# --- One right pick, then recall (issue 19) ---------------------------------------------------


def _after(*ratings: srs.Rating) -> srs.Memory:
    memory = srs.new_memory(T0)
    for i, rating in enumerate(ratings):
        memory = srs.schedule(memory, rating, T0 + dt.timedelta(minutes=i), time_zone="UTC")
    return memory


@pytest.mark.parametrize("key", ["CO:capital", "UT:size", "HI:borders", "CO:postal", "CO:zone"])
def test_after_a_right_pick_the_next_form_is_strong(key):
    """P-M6: a fact picked right once (rated Hard, still shaky) is asked typed or on the map next,
    whatever the seed, with multiple choice on."""
    fact = Fact.from_key(key)
    picked = _after(srs.Rating.HARD)
    assert picked.stability < CHOICE_UNTIL_STABILITY_DAYS, (
        "still shaky: without the rule it would be a choice again"
    )
    assert choose_form(fact, picked, DECK, random.Random(1), multiple_choice=True) is Form.CHOICE
    forms = {
        choose_form(fact, picked, DECK, random.Random(i), multiple_choice=True, recheck=True)
        for i in range(20)
    }
    assert forms and all(srs.is_strong(form) for form in forms)


def test_without_recheck_a_shaky_fact_is_a_choice_again():
    """P-M6: after a right answer in a strong form (the caller passes no ``recheck``) a shaky fact
    may be picked from options again; a miss is rechecked like a right pick (the caller says so,
    ``memory.to_recheck``), and with ``recheck`` it is asked in a strong form."""
    fact = Fact("CO", Facet.CAPITAL)
    for memory in (
        _after(srs.Rating.HARD, srs.Rating.AGAIN),
        _after(srs.Rating.HARD, srs.Rating.GOOD),
    ):
        assert (
            choose_form(fact, memory, DECK, random.Random(1), multiple_choice=True, recheck=False)
            is Form.CHOICE
        )
    missed = _after(srs.Rating.AGAIN)
    forms = {
        choose_form(fact, missed, DECK, random.Random(i), multiple_choice=True, recheck=True)
        for i in range(20)
    }
    assert forms == {Form.TYPED}


def test_a_round_asks_the_facts_picked_right_last_in_a_strong_form():
    """P-M6: ``deal`` passes each key's ``recheck`` to ``choose_form``."""
    keys = ["CO:map", "CO:capital", "UT:size", "HI:borders"]
    items = deal(keys, {}, DECK, seed=42, multiple_choice=True, recheck={"CO:capital", "CO:map"})
    forms = {item.fact.key: item.form for item in items}
    assert forms["CO:capital"] is Form.TYPED and forms["CO:map"] in (Form.TYPED, Form.MAP_CLICK)
    assert forms["UT:size"] is Form.CHOICE and forms["HI:borders"] is Form.CHOICE


# --- The map of a map-click item, and how long an answer took (issue 18) --------------------


def test_each_item_has_its_own_pick_map_drawn_from_the_seed():
    a, again, other = pick_map(DECK, 5, 3), pick_map(DECK, 5, 3), pick_map(DECK, 5, 4)
    assert [(s.number, s.postal) for s in a.spots] == [(s.number, s.postal) for s in again.spots]
    assert a.transform == again.transform
    assert [s.postal for s in a.spots] != [s.postal for s in other.spots]
    assert a.transform != other.transform


@pytest.mark.parametrize(
    ("page_ms", "served_ms", "expected"),
    [
        (4_000, 4_600, 4_000),  # the page's figure, a little under the server's: believed
        (4_000, 3_900, 3_900),  # never more than the server's
        (1, 30_000, 30_000),  # issue 18: a forged figure far under the server's: the server's
        (
            30_000 - LOAD_ALLOWANCE_MS,
            30_000,
            30_000 - LOAD_ALLOWANCE_MS,
        ),  # the slowest load believed
        (30_000 - LOAD_ALLOWANCE_MS - 1, 30_000, 30_000),
        (None, 7_000, 7_000),  # no page figure: the server's
        (0, 7_000, 7_000),
        (4_000, None, None),  # no server figure (no stamp, a forged one): unknown, never fast
        (4_000, -5, None),
        (None, MAX_DURATION_MS + 1, None),  # interrupted
        (MAX_DURATION_MS, MAX_DURATION_MS + 1_000, MAX_DURATION_MS),
    ],
)
def test_the_pages_time_is_bounded_by_the_servers(page_ms, served_ms, expected):
    """P-H4."""
    assert bounded_duration(page_ms, served_ms) == expected
