"""Benchmark: the CPU a request spends on the computer seats (issue 25), with and without the
budget of imagined moves (``Bot.request_steps``) in one run.

A student at seat 0 plays at random; every other seat is a hard (searching) computer player. After
each of the student's moves, ``play_computer_turns`` plays every computer move up to the student's
next turn, as a card game's move request does, and its CPU time (``time.process_time``) is one
request's. For each game at 2, 4 and its largest table, over ``--games`` seeded games: the
request's max and p95 ms and the imagined moves it made, unbounded (as before the budget) and with
the bot's budget. Goal (the issue): no request over 100 ms of CPU, at any table size or level.

Run it from the project root::

    .venv/bin/python bench/computer_turns.py
    .venv/bin/python bench/computer_turns.py --games 5
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trainer.cards import load_deck
from trainer.games import REGISTRY, Params, make_game, play_computer_turns
from trainer.games.players import SearchPlayer
from trainer.levels import Level


def requests(
    slug: str, players: int, games: int, steps: int | None | str
) -> list[tuple[float, int]]:
    """(CPU ms, imagined moves) of every request of ``games`` seeded games."""
    deck = load_deck()
    game = make_game(slug, deck, Params(players=players))
    levels = {seat: Level.HARD for seat in range(1, players)}
    spent: list[int] = []
    original = SearchPlayer.choose

    def counting(self: SearchPlayer, *args: object) -> int:
        action = original(self, *args)  # type: ignore[arg-type]
        spent.append(self.spent)
        return action

    out = []
    SearchPlayer.choose = counting  # type: ignore[method-assign]
    try:
        for seed in range(games):
            state = game.new_initial_state(seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                if state.current_player() == 0:
                    state.apply_action(rng.choice(state.legal_actions()))
                spent.clear()
                started = time.process_time()
                if steps == "bot":
                    play_computer_turns(state, levels, seed)
                else:
                    play_computer_turns(state, levels, seed, steps=steps)  # type: ignore[arg-type]
                out.append(((time.process_time() - started) * 1000, sum(spent)))
    finally:
        SearchPlayer.choose = original  # type: ignore[method-assign]
    return out


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="seeded games a table (default 3)")
    args = parser.parse_args()
    print(
        f"{args.games} games a table; one core; load average "
        + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    print(
        "\n| game | players | requests | unbounded: max / p95 ms, max moves "
        "| budgeted: max / p95 ms, max moves |"
    )
    print("|---|---:|---:|---|---|")
    worst = 0.0
    for cls in REGISTRY:
        if not cls.has_choices:
            continue
        for players in sorted({cls.min_players, 4, cls.max_players}):
            if not cls.min_players <= players <= cls.max_players:
                continue
            free = requests(cls.slug, players, args.games, None)
            kept = requests(cls.slug, players, args.games, "bot")
            worst = max(worst, max(ms for ms, _ in kept))
            print(
                f"| {cls.title} | {players} | {len(kept)} "
                f"| {max(ms for ms, _ in free):.0f} / {p95([ms for ms, _ in free]):.0f}, "
                f"{max(n for _, n in free):,} "
                f"| {max(ms for ms, _ in kept):.0f} / {p95([ms for ms, _ in kept]):.0f}, "
                f"{max(n for _, n in kept):,} |"
            )
    print(
        f"\ngoal: no request over 100 ms of CPU: {'met' if worst <= 100 else 'MISSED'} ({worst:.0f} ms)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
