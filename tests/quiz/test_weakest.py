"""Deals drawn among the weakest states (issue 18, section 3: predictable deals).

Every mode dealt the first states of the student's queue, so every new student got the same
deal (Washington, the first state of the teaching order, as State IQ's computer card; the same
five Dashing States cards). Now each deal draws among the first few states of the queue with the
round's own seeded generator: different students get different deals, and a round replays from
its seed.
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from trainer.cards import load_deck
from trainer.facts import Facet, teaching_order
from trainer.quiz import border_up, dashing_states, state_iq
from trainer.quiz.border_up import centres, solutions
from trainer.quiz.weakest import POOL, draw_weakest, weakest_pool

DECK = load_deck()
#: A new student's queue: the teaching order's states (the queue of every new student alike).
NEW_STUDENT = [
    fact.postal
    for fact in teaching_order(DECK)
    if fact.facet in (Facet.POSTAL, Facet.CAPITAL, Facet.BORDERS)
]
SEEDS = range(40)


def test_the_pool_is_the_first_different_states_in_order():
    assert weakest_pool(["CO", "CO", "UT", "ID", "UT", "MN"], size=3) == ["CO", "UT", "ID"]
    assert len(weakest_pool(NEW_STUDENT)) == POOL


@given(seed=st.integers(0, 10**9), count=st.integers(0, 12))
def test_a_draw_is_different_states_from_the_pool_and_replays_from_its_seed(seed, count):
    drawn = draw_weakest(NEW_STUDENT, count, random.Random(seed))
    assert len(drawn) == len(set(drawn)) == count
    assert set(drawn) <= set(weakest_pool(NEW_STUDENT, max(POOL, count)))
    assert drawn == draw_weakest(NEW_STUDENT, count, random.Random(seed))


def test_a_draw_from_fewer_candidates_returns_what_there_is():
    assert sorted(draw_weakest(["CO", "UT", "CO"], 5, random.Random(1))) == ["CO", "UT"]
    assert draw_weakest([], 1, random.Random(1)) == []


def test_new_students_do_not_all_get_washington_as_the_state_iq_card():
    cards = [state_iq.deal_cards(NEW_STUDENT, DECK, random.Random(seed))[0] for seed in SEEDS]
    assert NEW_STUDENT[0] == "WA"
    assert len(set(cards)) >= 6, "the computer's card cannot be guessed from the teaching order"
    assert set(cards) <= set(weakest_pool(NEW_STUDENT)), "still one of the weakest"


def test_a_state_iq_deal_replays_from_its_seed_and_the_two_cards_differ():
    for seed in SEEDS:
        computer, student = state_iq.deal_cards(NEW_STUDENT, DECK, random.Random(seed))
        assert computer != student
        assert (computer, student) == state_iq.deal_cards(NEW_STUDENT, DECK, random.Random(seed))


def test_a_state_iq_deal_without_weak_states_comes_from_the_allowed_ones():
    west = {"WA", "OR", "CA"}
    assert {state_iq.deal_cards([], DECK, random.Random(seed), west)[0] for seed in SEEDS} <= west


def test_new_students_get_different_dashing_hands_from_their_weakest_states():
    hands = {
        frozenset(dashing_states.deal(NEW_STUDENT, DECK, random.Random(seed))) for seed in SEEDS
    }
    assert len(hands) >= 10
    assert all(hand <= set(weakest_pool(NEW_STUDENT)) for hand in hands)


def test_border_up_leans_on_one_of_the_weakest_states_not_always_the_first():
    weak = [p for p in NEW_STUDENT if len(DECK.neighbours(p)) >= 2]
    pool = set(weakest_pool(weak))
    with_first = 0
    for seed in range(12):
        dealt = border_up.deal(DECK, random.Random(seed), lean_on=weak)
        centred = {
            c
            for pair in solutions(dealt.student, DECK)
            for group in pair
            for c in centres(group, DECK)
        }
        assert centred & pool, "a winning call is centred on one of the weakest states"
        assert dealt == border_up.deal(DECK, random.Random(seed), lean_on=weak), (
            "a deal replays from its seed"
        )
        with_first += weak[0] in dealt.student
    assert with_first < 12, (
        f"{weak[0]}, the first state of the teaching order, is not in every hand"
    )
