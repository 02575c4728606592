"""Border-Up rules (B1, B2), the solver against brute force, dealing and the computer team."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.cards import load_deck
from trainer.facts import Verdict
from trainer.quiz.border_up import (
    HAND,
    BadCall,
    ComputerRun,
    Level,
    call_succeeds,
    centres,
    deal,
    groups,
    hint,
    judge_call,
    reviews,
    solutions,
    solvable,
)

DECK = load_deck()
ALL = [s.postal for s in DECK]


def test_b1_the_rules_example_is_a_group():
    """B1: Maryland, Virginia and North Carolina: Virginia borders both."""
    assert centres(["MD", "VA", "NC"], DECK) == ["VA"]


def test_b1_a_chain_is_not_a_group():
    """B1: one state must border both others. Washington, Utah, Arizona: only Utah-Arizona touch."""
    assert centres(["WA", "OR", "CA"], DECK) == ["OR"]
    assert centres(["WA", "UT", "AZ"], DECK) == []
    assert centres(["WA", "CA", "AZ"], DECK) == [], "California borders Arizona but not Washington"
    assert centres(["NV", "UT", "AZ"], DECK) == ["AZ", "NV", "UT"], (
        "three that all touch: any is a centre"
    )
    assert centres(["UT", "CO", "AZ"], DECK) == ["UT"], (
        "Colorado and Arizona only meet at a point (G5)"
    )
    assert centres(["MD", "MD", "VA"], DECK) == [], "three different cards"


def test_b1_alaska_and_hawaii_are_never_in_a_group():
    hand = ["AK", "HI", "WA", "OR", "ID"]
    assert all("AK" not in g and "HI" not in g for g in groups(hand, DECK))


def test_b1_overlapping_groups_are_no_solution():
    hand = ["WA", "OR", "ID", "CA"]  # OR-centred groups all share Oregon
    assert groups(hand, DECK) and not solutions(hand, DECK)


def test_b2_a_call_with_a_bad_group_fails():
    hand = ["MD", "VA", "NC", "WA", "OR", "CA", "TX"]
    good = judge_call(hand, [["MD", "VA", "NC"], ["WA", "OR", "CA"]], DECK)
    assert call_succeeds(good)
    bad = judge_call(hand, [["MD", "VA", "NC"], ["WA", "CA", "TX"]], DECK)
    assert not call_succeeds(bad)
    assert not bad[1].valid and bad[1].centre == "CA" and bad[1].not_bordering == ("TX", "WA")


@pytest.mark.parametrize(
    "called",
    [
        [["MD", "VA", "NC"]],
        [["MD", "VA"], ["WA", "OR", "CA"]],
        [["MD", "VA", "NC"], ["NC", "OR", "CA"]],
        [["MD", "VA", "NC"], ["WA", "OR", "NY"]],
    ],
)
def test_a_call_that_is_not_two_groups_of_the_hand_is_refused(called):
    with pytest.raises(BadCall):
        judge_call(["MD", "VA", "NC", "WA", "OR", "CA"], called, DECK)


def brute_force(hand):
    found = {frozenset(t) for t in combinations(sorted(set(hand)), 3) if centres(t, DECK)}
    return {frozenset((a, b)) for a, b in combinations(found, 2) if not a & b}


@settings(max_examples=150, deadline=None)
@given(hand=st.lists(st.sampled_from(ALL), min_size=0, max_size=HAND, unique=True))
def test_the_solver_finds_exactly_what_brute_force_finds(hand):
    assert {frozenset(pair) for pair in solutions(hand, DECK)} == brute_force(hand)
    assert solvable(hand, DECK) == bool(brute_force(hand))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_b2_every_deal_is_two_solvable_hands_of_36_different_cards(seed):
    dealt = deal(DECK, random.Random(seed))
    assert len(dealt.student) == len(dealt.computer) == HAND
    assert len(set(dealt.student) | set(dealt.computer)) == 2 * HAND
    assert solvable(dealt.student, DECK) and solvable(dealt.computer, DECK)
    assert dealt == deal(DECK, random.Random(seed)), "a deal replays from its seed"


def test_a_deal_leans_on_a_weak_state_with_a_group_around_it():
    for seed in range(20):
        dealt = deal(DECK, random.Random(seed), lean_on=["HI", "CO"])
        assert any(
            "CO" in centres(g, DECK) for pair in solutions(dealt.student, DECK) for g in pair
        )


def test_reviews_of_a_call():
    hand = ["MD", "VA", "NC", "WA", "OR", "CA", "TX"]
    good = reviews(judge_call(hand, [["MD", "VA", "NC"], ["WA", "OR", "CA"]], DECK), helped=False)
    assert [(r.fact.key, r.verdict) for r in good] == [
        ("VA:borders", Verdict.RIGHT),
        ("OR:borders", Verdict.RIGHT),
    ]
    helped = reviews(judge_call(hand, [["MD", "VA", "NC"], ["WA", "OR", "CA"]], DECK), helped=True)
    assert all(r.helped for r in helped)
    bad = reviews(judge_call(hand, [["MD", "VA", "NC"], ["WA", "CA", "TX"]], DECK), helped=False)
    wrong = {r.fact.key for r in bad if r.verdict is Verdict.WRONG}
    assert "CA:borders" in wrong and len(wrong) >= 2, "the centre and the state it does not border"


def test_a_hint_is_a_card_of_a_solution():
    hand = deal(DECK, random.Random(3)).student
    card = hint(hand, DECK)
    assert any(card in a | b for a, b in solutions(hand, DECK))


def test_the_computer_is_seeded_and_harder_is_faster():
    assert ComputerRun.draw(Level.HARD, 5) == ComputerRun.draw(Level.HARD, 5)
    mean = {lv: sum(ComputerRun.draw(lv, s).call_at for s in range(300)) / 300 for lv in Level}
    assert mean[Level.EASY] > mean[Level.MEDIUM] > mean[Level.HARD]
