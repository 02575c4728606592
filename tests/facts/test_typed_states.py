"""A state typed where a state is expected: its name, or its postal code in any case (ruling P-H6).

"MT" was read as "mount" by answer normalising and so named no state; every one of the 50 codes
is checked here in each place the core reads a typed state: State IQ guesses and border clues
(``guess_from_text``), a list of border states, and ``read_state`` itself. The teacher's typed
list of states is checked in ``tests/web/test_teach_typed_states.py``.
"""

from __future__ import annotations

import pytest

from trainer.cards import load_deck
from trainer.facts import Verdict
from trainer.facts.answers import judge_borders, normalize, postal_code_in, read_state
from trainer.quiz.state_iq import Level, Side, StateIQ, guess_from_text

DECK = load_deck()
POSTALS = sorted(card.postal for card in DECK)
POWER = {card.clue_code: card for card in DECK.power_cards}


def typings(postal: str) -> list[str]:
    """The ways a student or teacher types a code: "MT", "mt", "Mt.", "m.t.", " Mt ", "MT."."""
    first, second = postal[0], postal[1]
    return [
        postal,
        postal.lower(),
        f"{first}{second.lower()}.",
        f"{first.lower()}.{second.lower()}.",
        f" {first}{second.lower()} ",
        f"{postal}.",
    ]


@pytest.mark.parametrize("postal", POSTALS)
def test_p_h6_every_postal_code_is_its_state_in_any_case_with_or_without_dots(postal):
    """P-H6: where a state is expected, a typed postal code is that state."""
    for typed in typings(postal):
        assert read_state(typed, DECK) == postal, typed
        assert postal_code_in(typed, DECK) == postal, typed


@pytest.mark.parametrize("postal", POSTALS)
def test_p_h6_a_state_iq_guess_by_postal_code_finds_the_computers_state(postal):
    """P-H6: the student's guess "Mt." is Montana, and guessing it solves a game whose card is Montana."""
    other = "CO" if postal != "CO" else "UT"
    for typed in typings(postal):
        assert guess_from_text(typed, DECK) == postal, typed
        game = StateIQ(DECK, POWER["ABC"], other, postal, Side.STUDENT, Level.HARD, 1)
        assert game.guess(guess_from_text(typed, DECK)) is True, typed


@pytest.mark.parametrize("postal", [p for p in POSTALS if DECK.neighbours(p)])
def test_p_h6_a_state_iq_border_clue_by_postal_code_is_accepted(postal):
    """P-H6: a border clue typed as a neighbour's code ("mt" for Idaho) is that neighbour."""
    computer = "HI" if postal != "HI" else "AK"
    for neighbour in DECK.neighbours(postal):
        for typed in typings(neighbour.postal):
            game = StateIQ(DECK, POWER["BBB"], postal, computer, Side.COMPUTER, Level.HARD, 1)
            while game.waiting_for() == "computer_guess":
                game.computer_turn()
            assert game.waiting_for() == "student_clue"
            clue = game.give_border(guess_from_text(typed, DECK))
            assert clue.value == neighbour.postal, typed


@pytest.mark.parametrize("postal", [p for p in POSTALS if DECK.neighbours(p)])
def test_p_h6_a_list_of_borders_by_postal_code_is_right(postal):
    """P-H6: "mt, id., Wy" lists Montana, Idaho and Wyoming (study's borders answers)."""
    codes = [n.postal for n in DECK.neighbours(postal)]
    for form in range(len(typings(postal))):
        typed = ", ".join(typings(code)[form] for code in codes)
        assert judge_borders(typed, DECK, postal).verdict is Verdict.RIGHT, typed


def test_p_h6_every_postal_code_and_name_is_read_and_nothing_else():
    """P-H6: names and codes are read exactly; "Mount", "Mt. Hood" and a misspelt name are no state."""
    assert read_state("Montana", DECK) == "MT"
    assert read_state("  new  YORK ", DECK) == "NY"
    assert read_state("newyork", DECK) == "NY"
    for typed in (
        "Mount",
        "mount",
        "Mt. Hood",
        "Montanna",
        "",
        "   ",
        "M",
        "MTX",
        "Atlantis",
        "Mt Mt",
    ):
        assert read_state(typed, DECK) is None, typed
        assert guess_from_text(typed, DECK) is None, typed
    # The abbreviation still expands inside longer answers (capitals and places), just not over a code.
    assert normalize("Mt. Hood") == "mount hood"
