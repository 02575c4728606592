"""State IQ between two students (L-Q1 to L-Q5): the rules of State IQ (Q1-Q3, R2, P-I1) with both
teams' guesses and B clues made by students, each student's answers and result read from their
own side, and a duel rebuilt exactly from its deal and stored moves."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.cards import load_deck
from trainer.facts import Facet, Verdict
from trainer.quiz import state_iq_duel as duel
from trainer.quiz.state_iq import MAX_GUESSES, ClueKind, Move, Side, clue_plan
from trainer.results import Result

DECK = load_deck()
POWER = {card.clue_code: card for card in DECK.power_cards}
STATES = [s.postal for s in DECK]


def deal(code="BBB", cards=("CO", "UT"), first=0) -> duel.Deal:
    return duel.Deal(cards, POWER[code].id, first, ("CT", "MA"))


def test_the_server_gives_letters_and_the_giver_names_its_border_state():
    """L-Q1, Q1: letters (A, C) are given as soon as they are due; a B clue waits for the clue
    giver's choice, made on their own side."""
    game = duel.new_game(DECK, deal("CAB", first=1), 7)
    # Seat 1 guesses seat 0's Colorado: the capital's first letter is there already.
    assert duel.to_move(game) == (1, duel.GUESS)
    assert [c.text(DECK) for c in game.half.clues] == ["The first letter of the capital is D."]
    duel.play(game, 1, "TX")
    assert game.half.clues[-1].text(DECK) == "The first letter of the postal code is C."
    duel.play(game, 1, "CA")
    # Then the B clue: seat 0 gives it (the computer side's would be the rules' own in solo).
    assert duel.to_move(game) == (0, duel.CLUE)
    assert set(game.border_choices()) == {s.postal for s in DECK.neighbours("CO")}
    with pytest.raises(Move, match="not your turn"):
        duel.play(game, 1, "CT")
    duel.play(game, 0, "KS")
    assert game.half.clues[-1].text(DECK) == "It borders Kansas."
    assert duel.to_move(game) == (1, duel.GUESS)


def test_a_state_that_does_not_border_is_refused_and_kept_as_a_mistake():
    """L-Q1, as against the computer: the clue is not given, and the wrong border is a wrong
    answer about the giver's own state's borders (once, however often it is named)."""
    game = duel.new_game(DECK, deal("BBB", first=0), 3)
    assert duel.to_move(game) == (1, duel.CLUE)  # seat 1 names a border state of Utah
    played = duel.play(game, 1, "TX")
    assert played.mistake is not None and "does not border Utah" in played.mistake
    assert game.half.border_mistakes == ["TX"] and game.half.clues == []
    with pytest.raises(Move, match="as before"):
        duel.play(game, 1, "TX")
    assert game.half.border_mistakes == ["TX"]
    with pytest.raises(Move, match="your own state"):
        duel.play(game, 1, "UT")
    duel.play(game, 1, "NV")
    wrong = [a for a in duel.answers(game, 1) if a.verdict is Verdict.WRONG]
    right = [a for a in duel.answers(game, 1) if a.verdict is Verdict.RIGHT]
    assert [(a.fact.postal, a.fact.facet, a.given) for a in wrong] == [
        ("UT", Facet.BORDERS, "Texas")
    ]
    assert [(a.fact.postal, a.fact.facet, a.given) for a in right] == [
        ("UT", Facet.BORDERS, "Nevada")
    ]
    assert duel.answers(game, 0) == []  # seat 0 has not guessed yet


def test_out_of_turn_moves_change_nothing():
    """L-Q3: only the seat whose move it is may move; its refusal changes nothing."""
    game = duel.new_game(DECK, deal("ABC", first=0), 2)
    before = game.copy()
    for seat, postal in ((1, "UT"), (1, "CO")):
        with pytest.raises(Move):
            duel.play(game, seat, postal)
    assert game.halves == before.halves
    duel.play(game, 0, "UT")
    assert game.halves[0].guesses == ["UT"] and game.halves[0].solved  # right at once
    assert duel.to_move(game) == (1, duel.GUESS)  # roles switch (Q3)
    with pytest.raises(Move, match="not your turn"):
        duel.play(game, 0, "CO")


def test_fewer_guesses_win_and_the_same_number_ties():
    """Q3 for two students: the side that guesses in fewer guesses wins; the same number ties;
    the second guesser stops once the result cannot change."""
    game = duel.new_game(DECK, deal("ABC", first=0), 2)
    duel.play(game, 0, "TX")
    duel.play(game, 1, "NV")  # the B clue before the second guess
    duel.play(game, 0, "UT")  # seat 0 in 2
    duel.play(game, 1, "CO")  # seat 1 in 1
    assert game.is_over
    assert (duel.result(game, 0), duel.result(game, 1)) == (Result.LOST, Result.WON)
    tie = duel.new_game(DECK, deal("ABC", first=1), 2)
    duel.play(tie, 1, "CO")
    duel.play(tie, 0, "UT")
    assert tie.is_over and {duel.result(tie, s) for s in (0, 1)} == {Result.TIED}
    stop = duel.new_game(DECK, deal("ABC", first=0), 2)
    duel.play(stop, 0, "UT")
    duel.play(stop, 1, "TX")  # seat 1 cannot tie any more
    assert stop.is_over and duel.result(stop, 0) is Result.WON


def test_each_side_sees_the_other_card_only_once_its_guessing_is_done():
    """L-Q4: a seat may see the other's card once it guessed it (or used its guesses), or at
    the end; never while it may still guess it."""
    game = duel.new_game(DECK, deal("ABC", first=0), 2)
    assert not duel.may_see(game, 0) and not duel.may_see(game, 1)
    duel.play(game, 0, "UT")
    assert duel.may_see(game, 0) and not duel.may_see(game, 1)


def test_the_deal_leans_on_each_students_weakest_states():
    """L-Q2: the card a student guesses is drawn among their own weakest states; the two cards
    differ; the statehood draw is from the rest of the deck (P-I1); a seed deals the same duel."""
    weak0, weak1 = ["UT", "CO", "WY"], ["KS", "NE"]
    for seed in range(40):
        dealt = duel.deal_duel((weak0, weak1), DECK, seed)
        assert dealt.cards[1] in weak0 and dealt.cards[0] in weak1
        assert dealt.cards[0] != dealt.cards[1]
        assert not set(dealt.draw) & set(dealt.cards)
        a, b = (DECK[p].statehood_rank for p in dealt.draw)
        assert dealt.first == (0 if a < b else 1)
        assert duel.deal_duel((weak0, weak1), DECK, seed) == dealt
    # The same single weak state for both: the second draw takes another card.
    same = duel.deal_duel((["UT"], ["UT"]), DECK, 1)
    assert same.cards[1] == "UT" and same.cards[0] != "UT"
    new = duel.deal_duel(([], []), DECK, 1)
    assert new.cards[0] != new.cards[1]


def test_a_stored_move_that_does_not_fit_is_refused_on_replay():
    with pytest.raises(ValueError):
        duel.decode(10_000, DECK)
    dealt = deal("ABC", first=0)
    with pytest.raises(ValueError):  # a clue where a guess is due
        duel.replay(DECK, dealt, 1, [duel.encode(duel.CLUE, "NV", DECK)])


def _play_out(data, dealt: duel.Deal, seed: int) -> tuple:
    """Play a duel to its end with moves drawn by hypothesis (wrong and refused ones too)."""
    game = duel.new_game(DECK, dealt, seed)
    stored: list[int] = []
    while (turn := duel.to_move(game)) is not None:
        seat, kind = turn
        # Any state, a border state, or the guessed state: to reach every branch.
        own = dealt.cards[seat]
        pool = STATES if kind == duel.GUESS else [s.postal for s in DECK.neighbours(own)]
        postal = data.draw(st.sampled_from([*pool, *STATES[:3], game.half.secret]))
        half = game.half
        clues_before = len(half.clues)
        try:
            played = duel.play(game, seat, postal)
        except Move:  # refused, nothing changed: a move the rules take instead
            postal = (
                game.border_choices()[0]
                if kind == duel.CLUE
                else next(p for p in STATES if p not in half.guesses)
            )
            played = duel.play(game, seat, postal)
        stored.append(duel.encode(played.kind, postal, DECK))
        if kind == duel.GUESS:
            plan = clue_plan(game.power.clue_code)
            n = len(half.guesses)
            # Q1: before guess n, one clue for each slot of the plan so far.
            assert clues_before == sum(1 for slot in plan[:n] if slot is not None)
    return game, stored


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    code=st.sampled_from(sorted(POWER)),
    cards=st.lists(st.sampled_from(STATES), min_size=2, max_size=2, unique=True),
    first=st.sampled_from([0, 1]),
    seed=st.integers(0, 2**32),
)
def test_random_duels_keep_the_rules(data, code, cards, first, seed):
    """Any duel ends within 3 guesses a side; the clues follow the Power card's code (Q1); the
    results agree from both sides; every B clue borders its giver's state; and the stored moves
    rebuild the same duel."""
    dealt = deal(code, tuple(cards), first)
    game, stored = _play_out(data, dealt, seed)
    assert game.is_over and duel.to_move(game) is None
    plan = clue_plan(code)
    for half in game.halves:
        assert len(half.guesses) <= MAX_GUESSES
        giver = dealt.cards[1] if half.guesser is Side.STUDENT else dealt.cards[0]
        assert half.secret == giver
        kinds = [c.slot.kind for c in half.clues]
        assert kinds == [s.kind for s in plan if s is not None][: len(kinds)]
        for clue in half.clues:
            assert clue.fits(DECK[giver], DECK)
            if clue.slot.kind is ClueKind.BORDER and clue.value:
                assert DECK.borders_between(giver, clue.value)
    results = {duel.result(game, 0), duel.result(game, 1)}
    assert results in ({Result.WON, Result.LOST}, {Result.TIED})
    again = duel.replay(DECK, dealt, seed, stored)
    assert again.halves == game.halves
    assert game.mirrored().mirrored().halves == game.halves
    # Each seat's answers are about the states it guessed and its own borders only.
    for seat in (0, 1):
        for answer in duel.answers(game, seat):
            if answer.fact.facet is Facet.BORDERS and answer.item.startswith(("clue", "mistake")):
                assert answer.fact.postal == dealt.cards[seat]
        assert duel.may_see(game, seat)


def test_a_duel_and_its_mirror_answer_as_two_solo_games_would():
    """L-Q5: seat 1's answers are what the same play would record against the computer with the
    sides swapped (the same ``student_answers``)."""
    rng = random.Random(4)
    game = duel.new_game(DECK, deal("BAC", ("CO", "UT"), 1), 9)
    while (turn := duel.to_move(game)) is not None:
        seat, kind = turn
        options = game.border_choices() if kind == duel.CLUE else STATES
        try:
            duel.play(game, seat, rng.choice(options))
        except Move:
            continue
    mirror = game.mirrored()
    assert mirror.student_card == "UT" and mirror.first_guesser is Side.STUDENT
    assert duel.answers(game, 1) == duel.answers(mirror, 0)
