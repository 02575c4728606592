"""The computer seats think within a budget of imagined moves per request (issue 25): a table of
seven thinks no longer in all than a table of two, counted in moves (not the clock), so a game
still replays exactly on any machine."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.cards import load_deck
from trainer.games import REGISTRY, Params, make_game, play_computer_turns
from trainer.games.bots import bot_for
from trainer.games.players import SearchPlayer
from trainer.levels import Level

DECK = load_deck()
BIG_TABLES = [(cls.slug, cls.max_players) for cls in REGISTRY if cls.has_choices]


@contextmanager
def counted() -> Iterator[list[int]]:
    """Every search move's imagined moves, in order, while the block runs."""
    spent: list[int] = []
    original = SearchPlayer.choose

    def counting(self, *args):
        action = original(self, *args)
        spent.append(self.spent)
        return action

    SearchPlayer.choose = counting  # type: ignore[method-assign]
    try:
        yield spent
    finally:
        SearchPlayer.choose = original  # type: ignore[method-assign]


def _world_cost(slug: str, players: int, seed: int) -> int:
    """An upper bound on one imagined deal's moves at the deal's first decision (all candidates)."""
    game = make_game(slug, DECK, Params(players=players))
    state = game.new_initial_state(seed)
    player = SearchPlayer(random.Random(seed), worlds=1)
    player.choose(game, state.observation(state.current_player()), state.legal_actions())
    return player.spent


def test_no_steps_left_plays_the_rule_of_thumb():
    game = make_game("geoplunge-51", DECK, Params(players=3))
    state = game.new_initial_state(4)
    observation, legal = state.observation(state.current_player()), state.legal_actions()
    bot = bot_for(game)
    chosen = SearchPlayer(random.Random(1), steps=0).choose(game, observation, legal)
    assert chosen == bot.rule_action(observation, legal, random.Random(0))


def test_a_budget_stops_the_search_after_the_deal_that_spends_it():
    game = make_game("geopower-toss", DECK, Params(players=4))
    state = game.new_initial_state(2)
    observation, legal = state.observation(state.current_player()), state.legal_actions()
    free = SearchPlayer(random.Random(3))
    free.choose(game, observation, legal)
    capped = SearchPlayer(random.Random(3), steps=free.spent // 4)
    capped.choose(game, observation, legal)
    assert free.spent // 4 <= capped.spent < free.spent
    # the overshoot is at most the one deal begun before the budget ran out
    assert capped.spent - free.spent // 4 <= _world_cost("geopower-toss", 4, 2) * 2


@settings(max_examples=12, deadline=None)
@given(table=st.sampled_from(BIG_TABLES), seed=st.integers(0, 10_000), moves=st.integers(0, 6))
def test_a_whole_table_of_computers_shares_one_requests_budget(table, seed, moves):
    """After a student's move, all the hard seats of the largest table spend about one request's
    steps between them (each seat's share, and at most one deal each beyond it), and the same
    seed plays the same moves."""
    slug, players = table
    game = make_game(slug, DECK, Params(players=players))
    levels = {seat: Level.HARD for seat in range(1, players)}
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):  # the student plays a few moves, the computers answer each
        if state.is_terminal():
            return
        if state.current_player() == 0:
            state.apply_action(rng.choice(state.legal_actions()))
        play_computer_turns(state, levels, seed)
    if state.is_terminal() or state.current_player() != 0:
        return
    state.apply_action(rng.choice(state.legal_actions()))
    again = state.clone()
    with counted() as spent:
        taken = play_computer_turns(state, levels, seed)
    budget = bot_for(game).request_steps
    assert sum(spent) <= budget + len(spent) * max(1, _world_cost(slug, players, seed))
    assert play_computer_turns(again, levels, seed) == taken


def test_without_a_budget_a_table_thinks_more():
    """The budget is what bounds a big table: unbounded, seven seats spend several requests' worth."""
    game = make_game("geoplunge-51", DECK, Params(players=7))
    levels = {seat: Level.HARD for seat in range(1, 7)}
    with counted() as spent:
        state = game.new_initial_state(5)
        rng = random.Random(5)
        while len(state.history) < 15:  # into the game, where every seat has a choice
            state.apply_action(rng.choice(state.legal_actions()))
        while state.current_player() != 0:
            state.apply_action(rng.choice(state.legal_actions()))
        state.apply_action(state.legal_actions()[0])
        play_computer_turns(state.clone(), levels, 5, steps=None)
        unbounded, spent[:] = sum(spent), []
        play_computer_turns(state.clone(), levels, 5)
        bounded = sum(spent)
    assert bounded <= bot_for(game).request_steps * 1.1 < unbounded
