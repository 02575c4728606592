"""The catalogue of facts, their teaching order, and every fact asked and judged in every form."""

from __future__ import annotations

import random

import pytest

from trainer.cards import load_deck
from trainer.facts import (
    NONE_OF_THEM,
    Facet,
    Fact,
    Form,
    UnreadableAnswer,
    Verdict,
    all_facts,
    ask,
    dont_know,
    expected_answer,
    forms_for,
    judge,
    teaching_order,
)

DECK = load_deck()
FACTS = all_facts(DECK)
ASKABLE = [(fact, form) for fact in FACTS for form in forms_for(fact, DECK)]


def test_fifty_states_times_eight_facets():
    assert len(FACTS) == 400
    assert len({f.key for f in FACTS}) == 400
    assert Fact("CO", Facet.CAPITAL).key == "CO:capital"


@pytest.mark.parametrize("fact", FACTS[:16])
def test_keys_round_trip(fact):
    assert Fact.from_key(fact.key) == fact


@pytest.mark.parametrize(
    "key", ["", "CO", "co:capital", "CO:flag", "COL:map", "C1:map", ":map", "CO-capital"]
)
def test_bad_keys_are_refused(key):
    with pytest.raises(ValueError):
        Fact.from_key(key)


def test_teaching_order_holds_every_fact_once():
    order = teaching_order(DECK)
    assert sorted(order) == sorted(FACTS)


def test_a_state_is_placed_on_the_map_before_its_rankings_and_borders():
    position = {fact: i for i, fact in enumerate(teaching_order(DECK))}
    for state in DECK:
        first = max(
            position[Fact(state.postal, f)] for f in (Facet.MAP, Facet.CAPITAL, Facet.POSTAL)
        )
        later = min(
            position[Fact(state.postal, f)]
            for f in (Facet.BORDERS, Facet.ZONE, Facet.SIZE, Facet.STATEHOOD, Facet.POPULATION)
        )
        assert first < later, state.name


def test_neighbouring_states_are_introduced_near_each_other():
    maps = [f.postal for f in teaching_order(DECK) if f.facet is Facet.MAP]
    assert maps[:2] == ["WA", "AK"], "Alaska comes with Washington"
    assert maps[maps.index("CA") + 1] == "HI", "Hawaii comes with California"
    mainland = [p for p in maps if p not in ("AK", "HI")]
    steps = list(zip(mainland, mainland[1:]))
    bordering = sum(DECK.borders_between(a, b) for a, b in steps)
    assert bordering >= 0.8 * len(steps), (
        f"only {bordering} of {len(steps)} steps go to a border state"
    )


def test_the_first_day_teaches_places_before_rankings():
    first_day = teaching_order(DECK)[:20]
    assert {f.facet for f in first_day} <= {
        Facet.MAP,
        Facet.CAPITAL,
        Facet.POSTAL,
        Facet.ZONE,
        Facet.BORDERS,
    }


def test_every_state_can_be_found_on_the_map_and_only_map_facts_are_clicked():
    """P-M13: the small states too (their targets make them tappable, see tests/web)."""
    for state in DECK:
        assert forms_for(Fact(state.postal, Facet.MAP), DECK) == (
            Form.TYPED,
            Form.CHOICE,
            Form.MAP_CLICK,
        )
    for facet in Facet:
        if facet is not Facet.MAP:
            assert forms_for(Fact("CO", facet), DECK) == (Form.TYPED, Form.CHOICE)


def test_a_form_that_does_not_suit_the_fact_is_refused():
    with pytest.raises(ValueError):
        ask(Fact("CO", Facet.CAPITAL), Form.MAP_CLICK, DECK, random.Random(1))


@pytest.mark.parametrize(
    ("fact", "form"), ASKABLE, ids=[f"{f.key}-{form.value}" for f, form in ASKABLE]
)
def test_every_fact_in_every_form_is_asked_and_its_answer_is_right(fact, form):
    question = ask(fact, form, DECK, random.Random(fact.key))
    assert question.fact == fact and question.form is form and question.prompt
    state = DECK[fact.postal]
    if fact.facet is not Facet.MAP:
        assert state.name in question.prompt
    if form is Form.CHOICE:
        assert len(question.choices) >= 4
        assert len(set(question.choices)) == len(question.choices)
        right = [c for c in question.choices if judge(question, c, DECK).verdict is Verdict.RIGHT]
        assert len(right) == 1, question.choices
    elif form is Form.MAP_CLICK:
        assert state.name in question.prompt
        assert judge(question, fact.postal, DECK).verdict is Verdict.RIGHT
    else:
        assert judge(question, _typed_answer(fact), DECK).verdict is Verdict.RIGHT


def _typed_answer(fact: Fact) -> str:
    """What a student who knows the fact types."""
    if fact.facet is Facet.BORDERS:
        names = [s.name for s in DECK.neighbours(fact.postal)]
        return ", ".join(names) if names else "none"
    return expected_answer(fact, DECK)


def test_a_map_question_does_not_name_its_state():
    for form in (Form.TYPED, Form.CHOICE):
        question = ask(Fact("CO", Facet.MAP), form, DECK, random.Random(3))
        assert "Colorado" not in question.prompt and "CO" not in question.prompt
        assert question.map_state == "CO"


def test_choices_are_drawn_from_the_seed():
    fact = Fact("MI", Facet.POSTAL)
    a = ask(fact, Form.CHOICE, DECK, random.Random(7))
    assert a == ask(fact, Form.CHOICE, DECK, random.Random(7))
    assert {c[0] for c in a.choices} == {"M"}, "postal distractors share the first letter"


@pytest.mark.parametrize("facet", [Facet.SIZE, Facet.STATEHOOD, Facet.POPULATION])
def test_rank_choices_are_never_close_to_each_other(facet):
    for state in DECK:
        choices = ask(
            Fact(state.postal, facet), Form.CHOICE, DECK, random.Random(state.postal)
        ).choices
        ranks = sorted(int("".join(ch for ch in c if ch.isdigit())) for c in choices)
        assert all(b - a >= 3 for a, b in zip(ranks, ranks[1:])), (state.name, choices)


def test_border_choice_for_a_state_without_neighbours():
    question = ask(Fact("HI", Facet.BORDERS), Form.CHOICE, DECK, random.Random(1))
    assert NONE_OF_THEM in question.choices
    assert judge(question, NONE_OF_THEM, DECK).verdict is Verdict.RIGHT
    other = next(c for c in question.choices if c != NONE_OF_THEM)
    assert judge(question, other, DECK).verdict is Verdict.WRONG


def test_border_choice_wrong_pick_names_the_non_neighbour():
    question = ask(Fact("CO", Facet.BORDERS), Form.CHOICE, DECK, random.Random(5))
    wrong = [c for c in question.choices if c != NONE_OF_THEM and not DECK.borders_between("CO", c)]
    judgement = judge(question, wrong[0], DECK)
    assert judgement.verdict is Verdict.WRONG
    assert judgement.wrong == (DECK[wrong[0]].postal,)
    assert "does not border Colorado" in judgement.note


def test_zone_choice_of_a_secondary_zone_is_close():
    """Tennessee's card is Central; part of it is on Eastern time."""
    question = ask(Fact("TN", Facet.ZONE), Form.CHOICE, DECK, random.Random(1))
    assert judge(question, "Eastern", DECK).verdict is Verdict.CLOSE
    assert judge(question, "Central", DECK).verdict is Verdict.RIGHT
    assert judge(question, "Pacific", DECK).verdict is Verdict.WRONG


def test_an_option_that_was_not_offered_is_unreadable():
    question = ask(Fact("CO", Facet.CAPITAL), Form.CHOICE, DECK, random.Random(1))
    with pytest.raises(UnreadableAnswer):
        judge(question, "Atlantis", DECK)


def test_a_map_click_on_another_state_is_wrong_and_names_it():
    question = ask(Fact("CO", Facet.MAP), Form.MAP_CLICK, DECK, random.Random(1))
    judgement = judge(question, "UT", DECK)
    assert judgement.verdict is Verdict.WRONG
    assert judgement.answered == ("UT",)
    assert judgement.note == "That is Utah."


@pytest.mark.parametrize("clicked", ["", "XX", "Colorado", "C"])
def test_a_map_click_that_is_no_state_is_unreadable(clicked):
    question = ask(Fact("CO", Facet.MAP), Form.MAP_CLICK, DECK, random.Random(1))
    with pytest.raises(UnreadableAnswer):
        judge(question, clicked, DECK)


def test_dont_know_is_wrong_and_shows_the_answer():
    judgement = dont_know(Fact("MN", Facet.CAPITAL), DECK)
    assert judgement.verdict is Verdict.WRONG
    assert judgement.expected == "Saint Paul"


def test_expected_answers_read_well():
    assert expected_answer(Fact("CO", Facet.SIZE), DECK) == "8th"
    assert expected_answer(Fact("CO", Facet.POSTAL), DECK) == "CO"
    assert (
        expected_answer(Fact("AK", Facet.BORDERS), DECK)
        == "No states: Alaska borders no other state"
    )
    assert expected_answer(Fact("ME", Facet.BORDERS), DECK) == "New Hampshire"
