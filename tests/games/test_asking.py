"""The games answer for themselves (issue #20): they register themselves, decode actions into
typed moves, ask their own drill questions and build their own table view."""

from __future__ import annotations

import random

import pytest

from trainer.cards import load_deck
from trainer.games import REGISTRY, Move, Params, make_game
from trainer.games.drill import DrillQuestion, RefusedPlay
from trainer.games.geography_war import SETTLE, TURN
from trainer.games.geoplunge_51 import Announce

DECK = load_deck()
SLUGS = list(REGISTRY.games)


def test_games_register_themselves_in_the_order_the_games_page_lists_them():
    assert SLUGS == [
        "geoplunge-51",
        "play-the-ranks",
        "geopower-toss",
        "geoclash-down-back",
        "geography-war",
    ]


@pytest.mark.parametrize("slug", SLUGS)
def test_right_answers_to_the_games_own_questions_are_judged_right(slug: str) -> None:
    """Answering every drill question with its expected answer is right, for every legal move
    the student could make, and the table view builds at every step (drill or not)."""
    game = make_game(slug, DECK, Params())
    state = game.new_initial_state(2024)
    rng = random.Random(7)
    asked: list[DrillQuestion] = []

    def expected(question: DrillQuestion) -> str:
        asked.append(question)
        return question.expected

    steps = 0
    while not state.is_terminal() and steps < 400:
        obs = state.observation(0)
        your_turn = state.current_player() == 0
        assert isinstance(state.table_view(obs, your_turn, True), dict)
        assert isinstance(state.table_view(obs, your_turn, False), dict)
        legal = state.legal_actions()
        for action in legal:
            move = state.decode(action)
            assert isinstance(move, Move) and move.kind
            if your_turn:
                for answer in state.drill_answers(action, expected):
                    assert answer.right, (slug, state.action_to_string(action))
        state.apply_action(rng.choice(legal))
        steps += 1
    assert asked, "the game asked no drill question"
    assert all(q.expected in q.choices for q in asked if q.choices)


def test_a_wrong_number_in_geoplunge_51_refuses_the_play_and_keeps_the_answer():
    game = make_game("geoplunge-51", DECK, Params())
    state = game.new_initial_state(11)
    while state.current_player() != 0:
        state.apply_action(state.legal_actions()[0])
    action = state.legal_actions()[0]
    move = state.decode(action)
    assert isinstance(move, Announce)
    wrong = str(DECK[move.card].rank(move.category) % 50 + 1)
    before = list(state.history)
    with pytest.raises(RefusedPlay) as refused:
        state.drill_answers(action, lambda question: wrong)
    assert [answer.right for answer in refused.value.answers] == [False]
    assert "The count needs the exact number" in str(refused.value)
    assert state.history == before


def test_only_geography_war_plays_batches_without_drill():
    war = make_game("geography-war", DECK, Params()).new_initial_state(3)
    assert war.play_batch(3) and war.battles == 3
    assert war.legal_actions() == [TURN] and war.decode(SETTLE).kind == "settle"
    ranks = make_game("play-the-ranks", DECK, Params()).new_initial_state(3)
    assert ranks.play_batch(3) is False and ranks.history == []
