"""Measure K3 pairings (P-K5): how often whole tournaments stay free of repeat meetings, and how
long one ``pair_round`` call takes.

For each number of teams, plays ``--seeds`` eight-round tournaments with random match results
(seeded) and counts those in which no round up to the last that can be new (round min(8, n - 1)
for n teams, n even, or min(8, n), n odd) repeats a meeting; times every ``pair_round`` call.

Run it from the project root (``--repo`` measures another checkout, e.g. an older commit in a
``git worktree``, for a before/after comparison in the same run)::

    .venv/bin/python bench/pairings.py --seeds 500
    .venv/bin/python bench/pairings.py --seeds 200 --teams 5 10 --repo /tmp/old-checkout
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def tournament(n: int, seed: int) -> tuple[int | None, list[float]]:
    """The first round that repeated a meeting while every round could still be new, and the call times."""
    from trainer.games.combo import Side
    from trainer.games.tournament import ROUNDS, MatchOutcome, pair_round

    teams = list(range(1, n + 1))
    rng = random.Random(seed)
    results = random.Random(10_000 + seed)
    outcomes: list[MatchOutcome] = []
    met: set[frozenset[int]] = set()
    first_repeat = None
    times = []
    horizon = min(ROUNDS, n - 1 if n % 2 == 0 else n)
    for number in range(1, ROUNDS + 1):
        start = time.perf_counter()
        pairings = pair_round(teams, outcomes, number, rng)
        times.append(time.perf_counter() - start)
        pairs = {frozenset((p.a, p.b)) for p in pairings if p.b is not None}
        if pairs & met and first_repeat is None and number <= horizon:
            first_repeat = number
        met |= pairs
        outcomes += [
            MatchOutcome.from_pairing(p, results.choice([Side.A, Side.B, None])) for p in pairings
        ]
    return first_repeat, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=500)
    parser.add_argument("--teams", type=int, nargs=2, default=(3, 16), metavar=("FEWEST", "MOST"))
    parser.add_argument(
        "--repo", default=str(ROOT), help="the checkout whose trainer package is measured"
    )
    args = parser.parse_args()
    sys.path.insert(0, args.repo)
    print("| teams | repeat-free tournaments | pair_round median ms | p99 ms | max ms |")
    print("|---:|---:|---:|---:|---:|")
    for n in range(args.teams[0], args.teams[1] + 1):
        bad, times = 0, []
        for seed in range(args.seeds):
            first_repeat, calls = tournament(n, seed)
            bad += first_repeat is not None
            times += calls
        times.sort()
        free = args.seeds - bad
        print(
            f"| {n} | {free}/{args.seeds} ({100 * free / args.seeds:.1f}%) | {1000 * times[len(times) // 2]:.2f} "
            f"| {1000 * times[int(len(times) * 0.99)]:.2f} | {1000 * times[-1]:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
