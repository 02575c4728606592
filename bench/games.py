"""Benchmark: the card-game engines (``trainer.games``) and how strong the computer players are.

Three measurements, each printed as a markdown table:

(a) Random play-outs per second for every registered game with its default parameters, plus
    GeoPlunge 51 and GeoPower Toss with 4 players in teams of 2 and GeoClash Down Back with 7:
    whole seeded games from the deal to the end, every action chosen at random, one process (the
    engine's speed on one core).
(b) A ladder for GeoPlunge 51 (2 players) and Play the Ranks: for each pairing (rule-based vs
    random, search vs rule-based) ``--games`` seeded games, the first-named player in seat 0 in
    even games and seat 1 in odd ones; and for GeoPower Toss and GeoClash Down Back with 4
    players, ``--table-games`` games where one first-named player (seat: seed mod 4) sits against
    three second-named ones (an even share is 25%). It prints the first-named player's win rate, draws
    counting half, with a 95% Wilson interval (on that score: a close approximation when there
    are draws). Every move's player is built afresh with ``random.Random(f"{seed}:{ply}")``, so a
    game replays exactly and the figures are the same on every run and with any ``--processes``.
(c) The search player's time per move (mean and p95, ms) in each ladder game, over the moves where
    it had a choice (with one legal action it answers at once).

Run it from the project root::

    .venv/bin/python bench/games.py                  # 1000 games per pairing
    .venv/bin/python bench/games.py --quick          # 100 games per pairing, fewer play-outs
    .venv/bin/python bench/games.py --games 400 --processes 1

The ladder's games run in ``--processes`` worker processes (default 2); timings in (c) are per
move inside a worker, so a busy machine slows them.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trainer.cards import load_deck
from trainer.games import (
    REGISTRY,
    Game,
    Params,
    RandomPlayer,
    RulePlayer,
    SearchPlayer,
    make_game,
)
from trainer.games.bots import bot_for
from trainer.games.players import Player

#: The games of the ladder: (label, slug, parameters). In a game of more than two players the
#: first-named player sits at one seat (seed mod players) and the second-named at all the others.
LADDER_GAMES = [
    ("GeoPlunge 51 (2 players)", "geoplunge-51", Params(players=2)),
    ("Play the Ranks", "play-the-ranks", Params()),
    ("GeoPower Toss (4 players)", "geopower-toss", Params(players=4)),
    ("GeoClash Down Back (4 players)", "geoclash-down-back", Params(players=4)),
]
#: The pairings: (first-named, second-named).
#: "app search" is the hard level as a request plays it (issue 25): its seat's share of the bot's
#: ``request_steps`` at a table of one student and computers in every other seat.
PAIRINGS = [("rule", "random"), ("search", "rule"), ("app-search", "rule")]
PLAYERS: dict[str, Callable[[random.Random], Player]] = {
    "random": RandomPlayer,
    "rule": RulePlayer,
    "search": SearchPlayer,
}
LABELS = {
    "random": "random",
    "rule": "rule-based",
    "search": "search",
    "app-search": "search within a request's budget",
}
Z = 1.96  # 95%


@cache
def game_for(slug: str, params: Params) -> Game:
    return make_game(slug, load_deck(), params)


# --- (a) random play-outs ----------------------------------------------------------------------


def playouts(game: Game, count: int) -> tuple[float, int]:
    """Seconds for ``count`` random play-outs, and the actions they took."""
    actions = 0
    started = time.perf_counter()
    for seed in range(count):
        state = game.new_initial_state(seed)
        rng = random.Random(f"random:{seed}")
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        actions += len(state.history)
    return time.perf_counter() - started, actions


# --- (b) and (c) the ladder --------------------------------------------------------------------


def ladder_game(task: tuple[int, str, str, str, int]) -> tuple[int, str, str, float, list[float]]:
    """One seeded game: the first-named player's result (1, 0.5 or 0) and the search player's move times (s)."""
    index, first, second, slug, seed = task
    _, _, params = LADDER_GAMES[index]
    game = game_for(slug, params)
    first_seat = seed % params.players  # the first-named player's seat moves round the table
    state = game.new_initial_state(seed)
    times: list[float] = []
    while not state.is_terminal():
        seat = state.current_player()
        kind = first if seat == first_seat else second
        rng = random.Random(f"{seed}:{len(state.history)}")
        if kind == "app-search":
            share = bot_for(game).request_steps // max(1, params.players - 1)
            player: Player = SearchPlayer(rng, steps=share)
        else:
            player = PLAYERS[kind](rng)
        legal = state.legal_actions()
        observation = state.observation(seat)
        started = time.perf_counter()
        action = player.choose(game, observation, legal)
        if kind in ("search", "app-search") and len(legal) > 1:
            times.append(time.perf_counter() - started)
        state.apply_action(action)
    return index, first, second, state.returns()[first_seat], times


def wilson(score: float, n: int, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval for a rate of ``score`` out of ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games",
        type=int,
        default=1000,
        help="seeded 2-player games per pairing and game (default 1000)",
    )
    parser.add_argument(
        "--table-games",
        type=int,
        default=300,
        help="seeded 4-player games per pairing (longer games; default 300)",
    )
    parser.add_argument(
        "--playouts",
        type=int,
        default=2000,
        help="random play-outs per game for (a) (default 2000)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="100 games per pairing and 300 play-outs"
    )
    parser.add_argument(
        "--processes", type=int, default=2, help="worker processes for the ladder (default 2)"
    )
    args = parser.parse_args()
    if args.quick:
        args.games, args.table_games, args.playouts = 100, 40, 300
    began = time.perf_counter()
    print(
        f"# Card games: {args.games} ladder games per pairing, {args.playouts} random play-outs per game, "
        f"{args.processes} process(es)\n"
    )

    # (a)
    print("## Random play-outs (one process)\n")
    print("| game | parameters | play-outs/s | actions/s | actions per game |")
    print("|---|---|---:|---:|---:|")
    cases = [(cls.slug, Params()) for cls in REGISTRY] + [
        ("geoplunge-51", Params(players=4, team_size=2)),
        ("geopower-toss", Params(players=4, team_size=2)),
        ("geoclash-down-back", Params(players=7)),
    ]
    for slug, params in cases:
        game = game_for(slug, params)
        seconds, actions = playouts(game, args.playouts)
        teams = f", teams of {params.team_size}" if params.team_size > 1 else ""
        print(
            f"| {game.title} | {params.players} players{teams} | {args.playouts / seconds:,.0f} | "
            f"{actions / seconds:,.0f} | {actions / args.playouts:.1f} |"
        )

    # (b) and (c)
    tasks = [
        (index, first, second, slug, seed)
        for index, (_, slug, params) in enumerate(LADDER_GAMES)
        for first, second in PAIRINGS
        for seed in range(args.games if params.players == 2 else args.table_games)
    ]
    scores: dict[tuple[int, str, str], list[float]] = {}
    search_times: dict[int, list[float]] = {index: [] for index in range(len(LADDER_GAMES))}
    started = time.perf_counter()
    if args.processes > 1:
        with multiprocessing.get_context("fork").Pool(args.processes) as pool:
            results = list(pool.imap_unordered(ladder_game, tasks, chunksize=8))
    else:
        results = [ladder_game(task) for task in tasks]
    ladder_seconds = time.perf_counter() - started
    for index, first, second, score, times in results:
        scores.setdefault((index, first, second), []).append(score)
        search_times[index].extend(times)

    print(
        f"\n## Ladder ({args.games} games per pairing, seats alternating; draws count half; {ladder_seconds:.0f} s)\n"
    )
    print(
        "| game | pairing | games | wins | draws | losses | first-named win rate | 95% Wilson interval | even share |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---|---:|")
    for index, (label, _, params) in enumerate(LADDER_GAMES):
        for first, second in PAIRINGS:
            outcomes = scores[(index, first, second)]
            n, score = len(outcomes), sum(outcomes)
            wins, draws = outcomes.count(1.0), outcomes.count(0.5)
            low, high = wilson(score, n)
            print(
                f"| {label} | {LABELS[first]} vs {LABELS[second]} | {n} | {wins} | {draws} | {n - wins - draws} | "
                f"{100 * score / n:.1f}% | {100 * low:.1f}%-{100 * high:.1f}% | {100 / params.players:.0f}% |"
            )

    print("\n## Search player: time per move with a choice (in the ladder's games)\n")
    print("| game | worlds per move | moves | mean ms | p95 ms |")
    print("|---|---:|---:|---:|---:|")
    for index, (label, slug, params) in enumerate(LADDER_GAMES):
        times = search_times[index]
        worlds = bot_for(game_for(slug, params)).search_worlds
        if times:
            print(
                f"| {label} | {worlds} | {len(times)} | {1000 * statistics.fmean(times):.1f} | {1000 * p95(times):.1f} |"
            )
    print(f"\nTotal {time.perf_counter() - began:.0f} s.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
