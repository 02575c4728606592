"""Benchmark: deal and solve seeded 18-card Border-Up hands; how often a random deal is solvable.

Deals 10,000 seeded pairs of hands with ``trainer.quiz.border_up.deal`` (re-dealing until both
hands are solvable, B2), solves each student hand with the solver (every group and every pair of
disjoint groups), and, as the baseline in the same run, solves the same hands by brute force
over all 816 triples of 18 cards. Prints hands per second for both, and the share of random
hands and of random deals (both hands) that are solvable, i.e. how often a deal is re-dealt.

    .venv/bin/python bench/border_up.py [--hands 10000]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trainer.cards import load_deck  # noqa: E402
from trainer.quiz.border_up import HAND, centres, deal, solutions, solvable  # noqa: E402


def brute_force(hand, deck):  # type: ignore[no-untyped-def]
    found = [frozenset(t) for t in combinations(sorted(hand), 3) if centres(t, deck)]
    return [(a, b) for a, b in combinations(found, 2) if not a & b]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10_000)
    args = parser.parse_args()
    deck = load_deck()
    everyone = [s.postal for s in deck]

    started = time.perf_counter()
    deals = [deal(deck, random.Random(seed)) for seed in range(args.hands)]
    dealing = time.perf_counter() - started
    tries = sum(d.deals_tried for d in deals)

    started = time.perf_counter()
    ours = [solutions(d.student, deck) for d in deals]
    solving = time.perf_counter() - started
    started = time.perf_counter()
    brute = [brute_force(d.student, deck) for d in deals]
    brute_time = time.perf_counter() - started
    agree = all({frozenset(p) for p in a} == {frozenset(p) for p in b} for a, b in zip(ours, brute))

    rng = random.Random(0)
    random_hands = [rng.sample(everyone, HAND) for _ in range(args.hands)]
    solvable_share = sum(solvable(h, deck) for h in random_hands) / len(random_hands)

    print(f"{args.hands:,} seeded deals of 2 x {HAND} cards")
    print(
        f"dealing (with re-deals): {args.hands / dealing:,.0f} deals/s; {tries:,} deals tried, "
        f"{tries / args.hands:.3f} per round (re-dealt {100 * (tries - args.hands) / tries:.1f}% of the time)"
    )
    print(
        f"solver: {args.hands / solving:,.0f} hands/s; brute force (baseline): {args.hands / brute_time:,.0f} hands/s; "
        f"speed-up {brute_time / solving:.1f}x; same solutions: {agree}"
    )
    print(f"random 18-card hands that are solvable: {100 * solvable_share:.1f}%")
    print(
        f"solutions per dealt hand: mean {sum(map(len, ours)) / len(ours):.1f}, min {min(map(len, ours))}, max {max(map(len, ours))}"
    )
    return 0 if agree else 1


if __name__ == "__main__":
    raise SystemExit(main())
