"""Every registered game keeps the shared Game/State contract (trainer.games.base), G9 included.

One suite, run for each game in ``REGISTRY`` and each parameter set it is played with: seeded
random play-outs end; legal actions, the current player and the returns agree with the end; an
illegal action is refused without effect; a game is rebuilt exactly from its seed and actions
(G9); clones are independent; observations are JSON and never name a card hidden from the seat;
no card is lost or duplicated; imagined deals (``sample_state``) match what the seat has seen;
and every computer player only ever picks legal actions, the same ones for the same seed.
"""

from __future__ import annotations

import copy
import json
import random
from collections import deque
from functools import cache
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from trainer.cards import Category, load_deck
from trainer.games import (
    REGISTRY,
    TERMINAL,
    GameError,
    IllegalAction,
    Level,
    Params,
    RandomPlayer,
    RulePlayer,
    SearchPlayer,
    State,
    make_game,
    play_computer_turns,
    replay,
)
from trainer.games.geography_war import SETTLE, TURN, WarState
from trainer.games.geoplunge_51 import TARGET, FiftyOneState
from trainer.games.play_the_ranks import LEAD, RanksState
from trainer.games.state_iq import GUESS, NAME, IQState

DECK = load_deck()
ALL = sorted(card.postal for card in DECK)

CASES = [
    *(
        pytest.param("geoplunge-51", Params(players=n), id=f"geoplunge-51-{n}p")
        for n in range(2, 8)
    ),
    pytest.param("geoplunge-51", Params(players=4, team_size=2), id="geoplunge-51-4p-teams-of-2"),
    pytest.param("geoplunge-51", Params(players=6, team_size=2), id="geoplunge-51-6p-teams-of-2"),
    pytest.param("geoplunge-51", Params(players=6, team_size=3), id="geoplunge-51-6p-teams-of-3"),
    pytest.param("play-the-ranks", Params(), id="play-the-ranks"),
    pytest.param("play-the-ranks", Params(first_leader=0), id="play-the-ranks-first-leader-0"),
    pytest.param("play-the-ranks", Params(first_leader=1), id="play-the-ranks-first-leader-1"),
    pytest.param("geography-war", Params(), id="geography-war"),
    *(
        pytest.param("geopower-toss", Params(players=n), id=f"geopower-toss-{n}p")
        for n in (2, 3, 4, 6)
    ),
    pytest.param("geopower-toss", Params(players=4, team_size=2), id="geopower-toss-4p-teams-of-2"),
    pytest.param("geopower-toss", Params(players=6, team_size=3), id="geopower-toss-6p-teams-of-3"),
    *(
        pytest.param("geoclash-down-back", Params(players=n), id=f"geoclash-down-back-{n}p")
        for n in (2, 3, 5, 7)
    ),
]
#: The games on the interface that are not card games (``REGISTRY.other_games``).
OTHER_CASES = [
    pytest.param("state-iq", Params(), id="state-iq"),
    pytest.param("state-iq", Params(first_leader=0), id="state-iq-student-first"),
    pytest.param("state-iq", Params(first_leader=1), id="state-iq-computer-first"),
]
EVERY_CASE = [*CASES, *OTHER_CASES]
#: No game may take more actions than this (War's 5,000-battle cap, W5, is far below it).
MAX_ACTIONS = 50_000
#: Every action number any game uses lies in here (and a few outside it).
ACTION_SWEEP = range(-2, 260)
#: Heavy checks (a sweep of every action number, clone, replay, imagined deals) at most this often per play-out.
HEAVY_CHECKS = 8


@cache
def game_for(slug: str, params: Params):  # type: ignore[no-untyped-def]
    return make_game(slug, DECK, params)


# --- what is compared -----------------------------------------------------------------------


def observations(state: State) -> list[dict[str, Any]]:
    return [state.observation(seat) for seat in range(state.game.players)]


def snapshot(state: State) -> tuple:
    """Everything a player or the log can tell about a state."""
    return (
        list(state.history),
        observations(state),
        [event.text for event in state.log],
        state.current_player(),
        state.legal_actions(),
        sorted(state.all_cards()),
    )


def quick_snapshot(state: State) -> tuple:
    """The snapshot without copying the whole history and log (they only ever grow)."""
    return (
        len(state.history),
        state.history[-1:],
        len(state.log),
        state.log[-1:],
        observations(state),
        state.current_player(),
        state.legal_actions(),
        sorted(state.all_cards()),
    )


def fingerprint(state: State) -> dict[str, Any]:
    """A deep copy of the state's own fields (the generator by its internal state)."""
    out = {}
    for name, value in vars(state).items():
        if name == "game":
            continue
        out[name] = value.getstate() if isinstance(value, random.Random) else copy.deepcopy(value)
    return out


def scramble(value: Any) -> None:
    """Mutate every list, dict and deque inside ``value`` in place, innermost first."""
    if isinstance(value, dict):
        for item in value.values():
            scramble(item)
        value.clear()
    elif isinstance(value, list | deque):
        for item in value:
            scramble(item)
        value.clear()
    elif isinstance(value, tuple):
        for item in value:
            scramble(item)


def json_strings(tree: Any) -> set[str]:
    """Every string in a JSON tree: each value and each key, whole (never substrings)."""
    # A walk with a stack, not a set per node: it runs on every seat's view at every step of
    # every play-out, and building and merging the nested sets was a fifth of this file's time.
    found: set[str] = set()
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, str):
            found.add(node)
        elif isinstance(node, dict):
            found.update(node)
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return found


def test_json_strings_finds_whole_values_and_keys_only():
    tree = {"hand": ["TX", "CA"], "played": [{"card": "NY", "seat": 1}], "game": "INDIANA", "OR": 3}
    assert json_strings(tree) == {
        "hand",
        "TX",
        "CA",
        "played",
        "card",
        "NY",
        "seat",
        "game",
        "INDIANA",
        "OR",
    }
    assert "IN" not in json_strings(tree)


# --- per game: actions that must be refused ------------------------------------------------


def illegal_examples(state: State) -> dict[str, int]:
    """Actions that are illegal now, by kind: out of range, a card not in hand, another phase's move."""
    out: dict[str, int] = {"negative": -1, "out of range": 10**6}
    seat = state.current_player()
    if isinstance(state, FiftyOneState):
        hand = state.hands[seat]
        elsewhere = next(p for p in ALL if p not in hand)
        out["card not in hand"] = state.game.action(elsewhere, Category.SIZE)
        room = TARGET - state.count
        past = [state.game.action(p, c) for p in hand for c in Category if DECK[p].rank(c) > room]
        if past:
            out["past 51 (F1)"] = past[0]
    elif isinstance(state, RanksState):
        hand = state.hands[seat]
        elsewhere = next(p for p in ALL if p not in hand)
        out["card not in hand"] = state.game.card_action(elsewhere)
        out["lead not in hand"] = state.game.lead_action(elsewhere, Category.SIZE)
        legal = state.legal_actions()
        if legal[0] >= LEAD:  # leading: a bare card is a discard or a follow
            out["follow when leading"] = state.game.card_action(hand[0])
        else:  # discarding or following: a lead names a category
            out["lead when " + state.phase] = state.game.lead_action(hand[0], Category.POPULATION)
    elif isinstance(state, WarState):
        out["other step"] = SETTLE if state.legal_actions() == [TURN] else TURN
    elif isinstance(state, IQState):
        index = state.game.index
        if state.legal_actions()[0] >= NAME:
            out["guess while a clue is due"] = GUESS
            out["own state as a border clue"] = NAME + index[state.iq.student_card]
        else:
            out["border clue while guessing"] = NAME + index[state.iq.student_card]
            if state.iq.half.guesses:
                out["guessed already"] = GUESS + index[state.iq.half.guesses[-1]]
    for kind, action in out.items():
        assert action not in state.legal_actions(), kind
    return out


def assert_refused(state: State, action: Any, full: bool = False) -> None:
    """``action`` raises IllegalAction with a reason, and nothing about the state changes."""
    before = snapshot(state) if full else quick_snapshot(state)
    deep = fingerprint(state) if full else None
    with pytest.raises(IllegalAction) as refused:
        state.apply_action(action)
    assert str(refused.value), f"no reason given for {action!r}"
    assert (snapshot(state) if full else quick_snapshot(state)) == before
    if full:
        assert fingerprint(state) == deep


# --- the checks on one state ---------------------------------------------------------------


def check_state(state: State, heavy: bool = False) -> None:
    """The cheap checks, at every step of every play-out (``heavy``: compare illegal moves' effects in full)."""
    game = state.game
    assert sorted(state.all_cards()) == ALL, "a card was lost or duplicated"
    obs = observations(state)
    for seat, observation in enumerate(obs):
        text = json.dumps(observation)
        hidden = state.hidden_from(seat)
        assert hidden <= set(ALL)
        leaked = json_strings(json.loads(text)) & hidden
        assert not leaked, f"seat {seat} sees {leaked}"
        for other, theirs in enumerate(
            obs
        ):  # another seat's hand is always hidden (keeps the check honest)
            if other != seat and "hand" in theirs:
                assert set(theirs["hand"]) <= hidden
    returns = state.returns()
    assert len(returns) == game.players
    if state.is_terminal():
        assert state.current_player() == TERMINAL
        assert state.legal_actions() == []
        check_returns(state)
    else:
        assert 0 <= state.current_player() < game.players
        legal = state.legal_actions()
        assert legal, "no legal action before the end"
        assert legal == sorted(set(legal)), "legal actions in a fixed order, once each"
        assert returns == [0.0] * game.players
        assert state.winners() == []
        for action in legal:
            assert state.decode(action).kind
            assert state.action_to_string(action)
        for action in illegal_examples(state).values():
            assert_refused(state, action, full=heavy)


def check_returns(state: State) -> None:
    params = state.game.params
    returns = state.returns()
    assert all(0.0 <= value <= 1.0 for value in returns)
    for side in range(params.sides):  # a side's members share its result (G6)
        assert len({returns[seat] for seat in params.seats_of(side)}) == 1
    assert sum(returns[params.seats_of(side)[0]] for side in range(params.sides)) == pytest.approx(
        1.0
    )
    best = max(returns)
    assert state.winners() == [seat for seat, value in enumerate(returns) if value == best]
    won = {params.side_of(seat) for seat in state.winners()}
    assert state.winners() == [
        seat for seat in range(params.players) if params.side_of(seat) in won
    ]


def check_heavy(state: State, seed: int, rng: random.Random) -> None:
    """The costly checks, at a few steps of each play-out."""
    game = state.game
    if not state.is_terminal():
        legal = set(state.legal_actions())
        before = snapshot(state)
        for action in ACTION_SWEEP:
            if action not in legal:
                with pytest.raises(IllegalAction):
                    state.apply_action(action)
        assert snapshot(state) == before
    # G9: the seed and actions rebuild the state exactly.
    assert snapshot(replay(game, seed, state.history)) == snapshot(state)
    # A clone starts equal and then goes its own way without touching the original.
    before, deep = snapshot(state), fingerprint(state)
    twin = state.clone()
    assert snapshot(twin) == before
    assert fingerprint(twin) == deep
    steps = 0
    while not twin.is_terminal() and steps < 40:
        twin.apply_action(rng.choice(twin.legal_actions()))
        steps += 1
    for value in vars(twin).values():
        scramble(value)
    assert snapshot(state) == before
    assert fingerprint(state) == deep
    # Imagined deals agree with everything each seat has seen.
    if game.has_choices and not state.is_terminal():
        for seat in range(game.players):
            check_sample(state, seat, rng)


def check_sample(state: State, seat: int, rng: random.Random) -> None:
    game = state.game
    observation = state.observation(seat)
    world = game.sample_state(copy.deepcopy(observation), rng)
    assert world.observation(seat) == observation
    assert sorted(world.all_cards()) == ALL
    assert world.hidden_from(seat) == state.hidden_from(seat)
    assert world.current_player() == state.current_player()
    if seat == state.current_player():
        assert world.legal_actions() == state.legal_actions()
    for _ in range(60):  # and it plays on like a real game
        if world.is_terminal():
            break
        world.apply_action(rng.choice(world.legal_actions()))
        assert sorted(world.all_cards()) == ALL
    assert state.observation(seat) == observation


def play_out(slug: str, params: Params, seed: int) -> State:
    """A seeded random play-out with every check along the way."""
    game = game_for(slug, params)
    rng = random.Random(f"playout:{seed}")
    state = game.new_initial_state(seed)
    heavy_every = {"geography-war": 60, "geoplunge-51": 12}.get(slug, 3)
    heavy = 0
    while True:
        due = len(state.history) % heavy_every == 0 and heavy < HEAVY_CHECKS
        check_state(state, heavy=due)
        twin = None
        if due:
            check_heavy(state, seed, rng)
            heavy += 1
            twin = state.clone()
            frozen = fingerprint(twin)
        if state.is_terminal():
            break
        assert len(state.history) < MAX_ACTIONS, "the play-out does not end"
        state.apply_action(rng.choice(state.legal_actions()))
        if twin is not None:
            assert fingerprint(twin) == frozen, "a clone changed when the original moved on"
    check_heavy(state, seed, rng)
    for action in (*ACTION_SWEEP[:5], 0, 1, LEAD):
        assert_refused(state, action, full=True)
    return state


# --- the tests -----------------------------------------------------------------------------


def test_every_registered_game_is_covered():
    assert {cls.slug for cls in REGISTRY} == {case.values[0] for case in CASES}


def test_every_other_registered_game_is_covered_and_kept_apart():
    """State IQ keeps the contract too, but it is not one of the card games."""
    assert set(REGISTRY.other_games) == {case.values[0] for case in OTHER_CASES}
    assert not set(REGISTRY.other_games) & set(REGISTRY.games)


@pytest.mark.parametrize(("slug", "params"), EVERY_CASE)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
@example(seed=0)
def test_random_playouts_keep_the_contract(slug, params, seed):
    """Seeded random play-outs end, and every state on the way keeps the contract (G9 replays)."""
    state = play_out(slug, params, seed)
    assert state.is_terminal()


@pytest.mark.parametrize(("slug", "params"), EVERY_CASE)
def test_the_same_seed_deals_the_same_game(slug, params):
    """G9: the seed alone fixes the deal; other seeds deal differently."""
    game = game_for(slug, params)
    assert snapshot(game.new_initial_state(7)) == snapshot(game.new_initial_state(7))
    assert fingerprint(game.new_initial_state(7)) == fingerprint(game.new_initial_state(7))
    assert len({tuple(game.new_initial_state(seed).all_cards()) for seed in range(5)}) == 5


@pytest.mark.parametrize(("slug", "params"), EVERY_CASE)
def test_a_replay_with_an_illegal_action_is_refused(slug, params):
    """G9: replay applies the stored actions through the rules, so a tampered history fails."""
    game = game_for(slug, params)
    state = game.new_initial_state(3)
    state.apply_action(state.legal_actions()[0])
    with pytest.raises(IllegalAction):
        replay(game, 3, [*state.history, -1])


@pytest.mark.parametrize(("slug", "params"), EVERY_CASE)
def test_search_needs_choices(slug, params):
    """A game without choices (Geography War) has no imagined deals; the others deal full decks."""
    game = game_for(slug, params)
    state = game.new_initial_state(5)
    if game.has_choices:
        world = game.sample_state(state.observation(0), random.Random(0))
        assert sorted(world.all_cards()) == ALL
    else:
        with pytest.raises(GameError):
            game.sample_state(state.observation(0), random.Random(0))


PLAYERS = {
    "random": lambda rng: RandomPlayer(rng),
    "rule": lambda rng: RulePlayer(rng),
    "search": lambda rng: SearchPlayer(rng, worlds=3),
}


@pytest.mark.parametrize("kind", list(PLAYERS))
@pytest.mark.parametrize(("slug", "params"), EVERY_CASE)
def test_computer_players_choose_legal_actions(slug, params, kind):
    """Each computer player, in every seat, picks a legal action from the seat's observation alone."""
    game = game_for(slug, params)
    moves = 30 if kind == "search" else MAX_ACTIONS
    for seed in (1, 2):
        state = game.new_initial_state(seed)
        while not state.is_terminal() and len(state.history) < moves:
            seat = state.current_player()
            legal = state.legal_actions()
            before = snapshot(state)
            player = PLAYERS[kind](random.Random(f"{seed}:{len(state.history)}"))
            action = player.choose(game, state.observation(seat), legal)
            assert action in legal
            assert snapshot(state) == before, "choosing changed the game"
            state.apply_action(action)


def _computer_game(game, seed: int, levels: dict[int, Level], plies: int) -> list[int]:  # type: ignore[no-untyped-def]
    """Seats in ``levels`` play by play_computer_turns; the others play seeded random moves."""
    state = game.new_initial_state(seed)
    rng = random.Random(f"student:{seed}")
    while not state.is_terminal() and len(state.history) < plies:
        taken = play_computer_turns(state, levels, seed)
        assert state.history[len(state.history) - len(taken) :] == taken
        if not state.is_terminal():
            assert state.current_player() not in levels
            state.apply_action(rng.choice(state.legal_actions()))
    assert snapshot(replay(game, seed, state.history)) == snapshot(state)
    return state.history


@pytest.mark.parametrize(("slug", "params"), EVERY_CASE)
def test_computer_turns_replay_identically(slug, params):
    """G9: the computer seats' moves are drawn from the game's seed and the move number."""
    game = game_for(slug, params)
    cycle = [Level.EASY, Level.MEDIUM, Level.HARD]
    levels = {seat: cycle[seat % 3] for seat in range(1, game.players)}
    plies = 400 if slug == "geography-war" else 2 * game.players + 2
    first = _computer_game(game, 4, levels, plies)
    assert _computer_game(game, 4, levels, plies) == first


@pytest.mark.parametrize(("slug", "params"), EVERY_CASE)
def test_all_computer_seats_play_to_the_end(slug, params):
    """With every seat a computer (easy and medium), play_computer_turns finishes the game."""
    game = game_for(slug, params)
    levels = {seat: (Level.EASY, Level.MEDIUM)[seat % 2] for seat in range(game.players)}
    state = game.new_initial_state(11)
    taken = play_computer_turns(state, levels, 11)
    assert state.is_terminal()
    assert taken == state.history
    check_returns(state)
    again = game.new_initial_state(11)
    assert play_computer_turns(again, levels, 11) == taken
