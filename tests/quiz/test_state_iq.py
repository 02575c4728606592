"""State IQ rules (Q1-Q3, R2) and the computer team's reasoning."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.cards import load_deck
from trainer.facts import Facet, Verdict
from trainer.quiz.state_iq import (
    MAX_GUESSES,
    ClueKind,
    Level,
    Move,
    Side,
    StateIQ,
    clue_plan,
    consistent,
    first_guesser_by_draw,
    guess_from_text,
    student_answers,
)

DECK = load_deck()
POWER = {card.clue_code: card for card in DECK.power_cards}


def game(
    code="ABC", student="CO", computer="UT", first=Side.STUDENT, level=Level.HARD, seed=1
) -> StateIQ:
    return StateIQ(DECK, POWER[code], student, computer, first, level, seed)


@pytest.mark.parametrize("card", DECK.power_cards, ids=lambda c: f"{c.id}-{c.clue_code}")
def test_every_power_card_gives_a_clue_plan(card):
    """Q1: the letters of the code order the clues; AAA has no third clue."""
    plan = clue_plan(card.clue_code)
    assert len(plan) == MAX_GUESSES
    if card.clue_code == "AAA":
        assert [(s.kind, s.letter) for s in plan[:2]] == [
            (ClueKind.POSTAL, 0),
            (ClueKind.POSTAL, 1),
        ]
        assert plan[2] is None
    elif card.clue_code == "CCC":
        assert [(s.kind, s.letter) for s in plan] == [(ClueKind.CAPITAL, i) for i in range(3)]
    else:
        assert "".join(s.kind.value for s in plan) == card.clue_code


@pytest.mark.parametrize("code", ["", "AB", "ABD", "abcd"])
def test_a_bad_code_is_refused(code):
    with pytest.raises(ValueError):
        clue_plan(code)


def test_abc_clues_in_order_when_the_student_guesses():
    """Q1: A = first letter of the postal code, B = a border state, C = first letter of the capital."""
    g = game("ABC", computer="UT")
    assert g.waiting_for() == "student_guess"
    assert [c.text(DECK) for c in g.half.clues] == ["The first letter of the postal code is U."]
    assert g.guess("Colorado") is False
    border = g.half.clues[1]
    assert border.slot.kind is ClueKind.BORDER and DECK.borders_between("UT", border.value)
    assert g.guess("Nevada") is False
    assert g.half.clues[2].text(DECK) == "The first letter of the capital is S."
    assert g.guess("Utah") is True
    assert g.half.guesser is Side.COMPUTER, "the roles switch"


def test_aaa_gives_no_clue_before_the_third_guess():
    """Q1: AAA: 1st letter, 2nd letter, then a third guess without a clue."""
    g = game("AAA", computer="MN")
    g.guess("Maine")
    assert [c.value for c in g.half.clues] == ["M", "N"]
    g.guess("Montana")
    assert len(g.half.clues) == 2
    assert g.guess("Minnesota") is True


def test_ccc_reads_the_capitals_letters_without_spaces():
    """Q1: CCC: the 1st, 2nd and 3rd letters of the capital (Saint Paul: S, A, I)."""
    g = game("CCC", computer="MN")
    g.guess("Ohio")
    g.guess("Utah")
    assert [c.value for c in g.half.clues] == ["S", "A", "I"]
    assert {s.postal for s in consistent(g.half.clues, DECK)} == {"MN"}


def test_bbb_with_one_border_state_then_no_more():
    """Q1, Q2: Maine borders only New Hampshire; the next B clues are "no more border states"."""
    g = game("BBB", computer="ME")
    assert g.half.clues[0].value == "NH"
    g.guess("Vermont")
    assert g.half.clues[1].value == "" and g.half.clues[1].text(DECK) == "No more border states."
    assert {s.postal for s in consistent(g.half.clues, DECK)} == {"ME"}


@pytest.mark.parametrize("postal", ["AK", "HI"])
def test_alaska_and_hawaii_border_no_state_from_the_first_b_clue(postal):
    """Q2: for Alaska and Hawaii, the first B clue is "no border states"."""
    g = game("BAC", computer=postal)
    assert g.half.clues[0].text(DECK) == "It borders no other state."
    assert {s.postal for s in consistent(g.half.clues, DECK)} == {"AK", "HI"}


def test_the_student_gives_border_clues_and_a_wrong_one_is_refused():
    g = game("BBB", student="CO", computer="UT", first=Side.COMPUTER)
    assert g.waiting_for() == "student_clue"
    with pytest.raises(Move, match="Texas does not border Colorado"):
        g.give_border("TX")
    with pytest.raises(Move, match="as before"):
        g.give_border("Texas")
    with pytest.raises(Move, match="your own state"):
        g.give_border("CO")
    assert g.half.border_mistakes == ["TX"], (
        "the same mistake counts once; naming your own state is no border mistake"
    )
    g.give_border("Utah")
    assert g.waiting_for() == "computer"
    with pytest.raises(Move, match="not your turn"):
        g.give_border("KS")
    with pytest.raises(Move, match="not your turn"):
        g.guess("UT")
    if not g.half.solved:
        g.computer_turn()
    if g.waiting_for() == "student_clue":
        with pytest.raises(Move, match="already named Utah"):
            g.give_border("UT")


def test_moves_out_of_turn_and_after_the_end_are_refused():
    g = game("ABC", first=Side.STUDENT)
    with pytest.raises(Move):
        g.computer_turn()
    with pytest.raises(Move, match="not one of the 50"):
        g.guess("Atlantis")
    g.guess("Utah")
    while not g.is_over:
        g.computer_turn() if g.waiting_for() == "computer" else g.give_border(
            DECK.neighbours("CO")[0].postal
        )
    for move in (lambda: g.guess("Utah"), g.computer_turn, lambda: g.give_border("KS")):
        with pytest.raises(Move):
            move()


def test_a_state_cannot_be_guessed_twice():
    g = game()
    g.guess("Ohio")
    with pytest.raises(Move, match="already guessed Ohio"):
        g.guess("oh")


def play_out(g: StateIQ, student_guesses: list[str]) -> None:
    guesses = iter(student_guesses)
    while not g.is_over:
        step = g.waiting_for()
        if step == "student_guess":
            g.guess(next(guesses))
        elif step == "student_clue":
            own = g.student_card
            used = {c.value for c in g.half.clues}
            g.give_border(next(s.postal for s in DECK.neighbours(own) if s.postal not in used))
        else:
            g.computer_turn()


def test_the_second_team_stops_once_the_result_is_settled():
    """Q3: the student guessed in 1; the computer's first miss settles it."""
    for seed in range(40):
        g = game(
            "ABC", student="TX", computer="UT", first=Side.STUDENT, level=Level.EASY, seed=seed
        )
        play_out(g, ["Utah"])
        second = g.halves[1]
        assert len(second.guesses) == 1
        assert g.winner() is (None if second.solved else Side.STUDENT)


def test_when_the_first_team_fails_the_second_plays_until_it_guesses_or_runs_out():
    g = game("ABC", student="CO", computer="UT", first=Side.STUDENT, seed=3)
    play_out(g, ["Ohio", "Iowa", "Texas"])
    assert g.halves[0].guesses_needed is None
    assert g.winner() is (Side.COMPUTER if g.halves[1].solved else None)


def test_fewer_guesses_win_and_equal_counts_tie():
    """Q3: fewer guesses wins; equal, or neither guessing, is a tie."""
    g = game("ABC", student="CO", computer="UT", first=Side.STUDENT, level=Level.HARD, seed=5)
    play_out(g, ["Ohio", "Utah"])
    needed = g.halves[1].guesses_needed
    expected = {1: Side.COMPUTER, 2: None, None: Side.STUDENT}[needed]
    assert g.winner() is expected


@settings(max_examples=150, deadline=None)
@given(
    code=st.sampled_from(sorted(POWER)),
    cards=st.lists(st.sampled_from([s.postal for s in DECK]), min_size=2, max_size=2, unique=True),
    seed=st.integers(0, 10_000),
)
def test_with_perfect_recall_the_computer_never_guesses_a_state_the_clues_rule_out(
    code, cards, seed
):
    g = StateIQ(DECK, POWER[code], cards[0], cards[1], Side.COMPUTER, Level.HARD, seed)
    while not g.is_over and g.half.guesser is Side.COMPUTER:
        if g.waiting_for() == "student_clue":
            used = {c.value for c in g.half.clues}
            g.give_border(next(s.postal for s in DECK.neighbours(cards[0]) if s.postal not in used))
            continue
        fitting = {s.postal for s in consistent(g.half.clues, DECK)}
        assert g.computer_turn() in fitting


def test_levels_differ_in_how_well_the_computer_guesses():
    def solved_in(level: Level) -> float:
        total = 0
        for seed in range(60):
            g = StateIQ(DECK, POWER["ABC"], "CO", "UT", Side.COMPUTER, level, seed)
            while g.half.guesser is Side.COMPUTER and not g.half.over:
                if g.waiting_for() == "student_clue":
                    used = {c.value for c in g.half.clues}
                    g.give_border(
                        next(s.postal for s in DECK.neighbours("CO") if s.postal not in used)
                    )
                else:
                    g.computer_turn()
            total += g.halves[0].solved
        return total / 60

    assert solved_in(Level.HARD) == 1.0
    assert solved_in(Level.EASY) < solved_in(Level.HARD)


def test_the_hard_clue_giver_leaves_the_most_candidates_and_the_easy_one_the_fewest():
    hard = game("BAC", student="TX", computer="CO", level=Level.HARD).half.clues[0].value
    easy = game("BAC", student="TX", computer="CO", level=Level.EASY).half.clues[0].value
    fewest = min(len(DECK.neighbours(n.postal)) for n in DECK.neighbours("CO"))
    assert len(DECK.neighbours(easy)) == fewest
    assert len(DECK.neighbours(hard)) >= len(DECK.neighbours(easy))


def test_a_game_replays_from_its_seed():
    def moves(seed):
        g = StateIQ(DECK, POWER["CBA"], "CO", "NY", Side.COMPUTER, Level.MEDIUM, seed)
        play_out(g, ["Ohio", "Iowa", "Texas"])
        return [h.guesses for h in g.halves], [[c.value for c in h.clues] for h in g.halves]

    assert moves(9) == moves(9)


def test_r2_the_better_statehood_rank_guesses_first():
    for seed in range(20):
        side, mine, theirs = first_guesser_by_draw(DECK, random.Random(seed))
        better = mine if DECK[mine].statehood_rank < DECK[theirs].statehood_rank else theirs
        assert side is (Side.STUDENT if better == mine else Side.COMPUTER)


def test_what_the_students_play_teaches_the_memory_model():
    g = game("BAC", student="CO", computer="UT", first=Side.STUDENT)
    g.guess("Hawaii")  # the border clue rules Hawaii out: a wrong answer on Hawaii's borders
    g.guess("Utah")  # right on the second guess: Utah's borders and postal facts, late
    play_out(g, [])
    answers = {(a.fact.key, a.item): a for a in student_answers(g)}
    assert answers[("HI:borders", "guess1:B")].verdict is Verdict.WRONG
    assert answers[("UT:postal", "secret:postal")].verdict is Verdict.RIGHT
    assert answers[("UT:postal", "secret:postal")].late
    assert answers[("UT:borders", "secret:borders")].late
    assert ("UT:capital", "secret:capital") not in answers, "the C clue was never shown"
    own = [a for a in student_answers(g) if a.fact.key == "CO:borders"]
    assert own and all(a.verdict is Verdict.RIGHT for a in own), (
        "the student's border clue (B is first)"
    )


def test_never_guessing_is_wrong_on_every_fact_shown():
    g = game("ABC", student="CO", computer="UT", first=Side.STUDENT)
    play_out(g, ["Ohio", "Iowa", "Texas"])
    secret = [a for a in student_answers(g) if a.item.startswith("secret:")]
    assert {a.fact.facet for a in secret} == {Facet.POSTAL, Facet.BORDERS, Facet.CAPITAL}
    assert all(a.verdict is Verdict.WRONG for a in secret)


def test_typed_guesses_are_read_by_name_or_code():
    assert guess_from_text("  new york ", DECK) == "NY"
    assert guess_from_text("NY", DECK) == "NY"
    assert guess_from_text("Atlantis", DECK) is None


def test_a_half_stopped_early_still_teaches_and_reveals():
    """Q3: the computer guessed in 1; the student's first miss ends the game, a wrong answer."""
    for seed in range(200):
        g = game(
            "ABC", student="TX", computer="UT", first=Side.COMPUTER, level=Level.HARD, seed=seed
        )
        g.computer_turn()  # A clue first: "T" leaves Tennessee and Texas
        if g.halves[0].solved:
            break
    g.guess("Ohio")
    assert g.is_over and len(g.halves[1].guesses) == 1
    assert g.guessing_done(Side.STUDENT)
    secret = [a for a in student_answers(g) if a.item.startswith("secret:")]
    assert [a.fact.key for a in secret] == ["UT:postal"] and secret[0].verdict is Verdict.WRONG
