"""Dashing States rules (D1): dealing, judging a call, the computer's timing, and the race."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.cards import load_deck
from trainer.facts import Facet, UnreadableAnswer, Verdict
from trainer.quiz.dashing_states import (
    CARDS,
    BadCall,
    Call,
    ComputerRun,
    Level,
    deal,
    judge_call,
    judge_name,
    reviews,
)
from trainer.quiz.race import Outcome, race

DECK = load_deck()
DEALT = ["UT", "CO", "RI", "ID", "MN"]  # positions 0-4


def good_call(set_aside=2, **overrides) -> Call:
    used = [p for p in range(CARDS) if p != set_aside]
    order = tuple(sorted(used, key=lambda p: DECK[DEALT[p]].name))
    names = {p: DECK[DEALT[p]].name for p in used}
    capitals = {p: DECK[DEALT[p]].capital for p in used}
    call = {"set_aside": set_aside, "order": order, "names": names, "capitals": capitals}
    call.update(overrides)
    return Call(**call)


def test_a_right_call_succeeds():
    result = judge_call(DEALT, good_call(), DECK)
    assert result.success and result.order_right
    assert [c.postal for c in result.cards] == ["CO", "ID", "MN", "UT"]


def test_d1_a_wrong_order_fails_the_call():
    call = good_call()
    wrong = (call.order[1], call.order[0], *call.order[2:])
    result = judge_call(DEALT, Call(call.set_aside, wrong, call.names, call.capitals), DECK)
    assert not result.success and not result.order_right
    assert result.order_notes == ("Colorado comes before Idaho: “C” is before “I”.",)


def test_d1_a_wrong_capital_fails_the_call():
    call = good_call()
    capitals = {**call.capitals, 4: "Minneapolis"}
    result = judge_call(DEALT, Call(call.set_aside, call.order, call.names, capitals), DECK)
    assert not result.success and result.order_right
    mn = next(c for c in result.cards if c.postal == "MN")
    assert mn.capital.verdict is Verdict.WRONG and mn.capital.expected == "Saint Paul"


def test_d1_a_wrong_name_fails_the_call():
    call = good_call()
    names = {**call.names, 0: "Nevada"}
    assert not judge_call(
        DEALT, Call(call.set_aside, call.order, names, call.capitals), DECK
    ).success


def test_a_slip_of_spelling_still_names_the_state_but_is_close():
    """P-H8: one slip of spelling in a name or a capital is close, and close counts as right in a call."""
    call = good_call()
    names = {**call.names, 4: "Minesota"}
    result = judge_call(
        DEALT, Call(call.set_aside, call.order, names, {**call.capitals, 4: "St. Paul"}), DECK
    )
    assert result.success
    mn = next(c for c in result.cards if c.postal == "MN")
    assert mn.name.verdict is Verdict.CLOSE and mn.capital.verdict is Verdict.RIGHT


@pytest.mark.parametrize("typed", ["MN", "mn", "Mn.", "M.N."])
def test_p_h7_a_postal_code_is_not_a_name_and_fails_the_call(typed):
    """P-H7: D1 asks for each state's name; Minnesota's code in its place is wrong and says why."""
    call = good_call()
    result = judge_call(
        DEALT, Call(call.set_aside, call.order, {**call.names, 4: typed}, call.capitals), DECK
    )
    assert not result.success and result.order_right
    mn = next(c for c in result.cards if c.postal == "MN")
    assert mn.name.verdict is Verdict.WRONG and not mn.right
    assert (
        mn.name.note == "MN is Minnesota's postal code; Dashing States asks for the state's name."
    )
    assert mn.name.expected == "Minnesota" and mn.name.answered == ("MN",)
    taught = {fact.key: judgement.verdict for fact, judgement, _ in reviews(result, seconds=None)}
    assert taught["MN:map"] is Verdict.WRONG and taught["MN:capital"] is Verdict.RIGHT


@pytest.mark.parametrize("postal", sorted(card.postal for card in DECK))
def test_p_h7_no_states_code_passes_for_its_name(postal):
    """P-H7: for every state, its code (any case) is a wrong name, with the note; its name is right."""
    name = DECK[postal].name
    for typed in (postal, postal.lower(), f"{postal[0]}{postal[1].lower()}."):
        judgement = judge_name(typed, DECK, postal)
        assert judgement.verdict is Verdict.WRONG, typed
        assert (
            judgement.note
            == f"{postal} is {name}'s postal code; Dashing States asks for the state's name."
        )
    assert judge_name(name, DECK, postal).verdict is Verdict.RIGHT


def test_p_h7_another_states_code_is_wrong_as_before():
    """P-H7: a code of another state was and stays wrong, with a note naming that state."""
    judgement = judge_name("MT", DECK, "MN")
    assert (
        judgement.verdict is Verdict.WRONG
        and judgement.note == "MT is the code for Montana. This is Minnesota."
    )


def test_p_h8_a_slip_in_a_name_still_counts_but_a_code_does_not():
    """P-H8 and P-H7 together: "Minesota" (one slip) is close and the call stands; "MN" is wrong."""
    assert judge_name("Minesota", DECK, "MN").verdict is Verdict.CLOSE
    assert judge_name("MN", DECK, "MN").verdict is Verdict.WRONG


@pytest.mark.parametrize(
    "call",
    [
        Call(7, (0, 1, 3, 4), {}, {}),
        Call(2, (0, 1, 3), {}, {}),
        Call(2, (0, 1, 3, 3), {}, {}),
        Call(2, (0, 1, 2, 3), {}, {}),
    ],
)
def test_d1_an_incomplete_call_is_refused(call):
    with pytest.raises(BadCall):
        judge_call(DEALT, call, DECK)


def test_a_blank_name_is_asked_for():
    call = good_call()
    with pytest.raises(UnreadableAnswer, match="Card 1"):
        judge_call(
            DEALT, Call(call.set_aside, call.order, {**call.names, 0: ""}, call.capitals), DECK
        )


def test_the_card_set_aside_teaches_nothing_and_each_used_card_two_facts():
    result = judge_call(DEALT, good_call(set_aside=2), DECK)
    taught = reviews(result, seconds=40.0)
    assert len(taught) == 8
    assert all(fact.postal != "RI" for fact, _, _ in taught)
    assert {fact.facet for fact, _, _ in taught} == {Facet.MAP, Facet.CAPITAL}
    assert {ms for _, _, ms in taught} == {10_000}, "each card's share of the time"


def test_the_deal_takes_the_weakest_states_first_never_twice_and_shuffles():
    cards = deal(["CO", "CO", "UT", "XX"], DECK, random.Random(1))
    assert len(set(cards)) == CARDS and {"CO", "UT"} <= set(cards)
    orders = {
        tuple(deal(["CO", "UT", "ID", "MN", "RI"], DECK, random.Random(seed))) for seed in range(10)
    }
    assert len(orders) > 1, "the cards are dealt in a random order"
    assert all(set(o) == {"CO", "UT", "ID", "MN", "RI"} for o in orders)


@given(seed=st.integers(0, 10**6), level=st.sampled_from(list(Level)))
@settings(max_examples=100, deadline=None)
def test_the_computer_run_replays_from_its_seed_and_only_moves_forward(seed, level):
    run = ComputerRun.draw(level, seed)
    assert run == ComputerRun.draw(level, seed)
    assert list(run.card_seconds) == sorted(run.card_seconds) and run.call_at > run.card_seconds[-1]
    assert run.cards_done(0) == 0 and run.cards_done(run.call_at) == CARDS


def test_harder_computers_are_faster_and_more_careful():
    def mean(level):
        runs = [ComputerRun.draw(level, seed) for seed in range(300)]
        return sum(r.call_at for r in runs) / len(runs), sum(not r.call_right for r in runs) / len(
            runs
        )

    (easy_t, easy_err), (medium_t, _), (hard_t, hard_err) = (
        mean(Level.EASY),
        mean(Level.MEDIUM),
        mean(Level.HARD),
    )
    assert easy_t > medium_t > hard_t
    assert easy_err > hard_err


RIGHT, WRONG = ComputerRun((1, 2, 3, 4, 5), 30.0, True), ComputerRun((1, 2, 3, 4, 5), 30.0, False)


@pytest.mark.parametrize(
    ("student_at", "student_right", "computer", "outcome"),
    [
        (20.0, True, RIGHT, Outcome.WON),  # first successful call wins
        (20.0, False, RIGHT, Outcome.LOST),  # D1: a failed first call hands the game over
        (40.0, True, RIGHT, Outcome.LOST),
        (40.0, True, WRONG, Outcome.WON),  # the computer called first and failed
        (None, False, WRONG, Outcome.WON),
        (30.2, True, RIGHT, Outcome.TIED),  # the same moment: tie...
        (30.2, False, RIGHT, Outcome.LOST),  # ...unless only one succeeds
        (29.9, True, WRONG, Outcome.WON),
        (30.0, False, WRONG, Outcome.TIED),
    ],
)
def test_d1_who_wins_the_race(student_at, student_right, computer, outcome):
    assert race(student_at, student_right, computer)[0] is outcome
