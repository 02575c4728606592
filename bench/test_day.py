"""Benchmark: the preview of the daily work a test day costs (P-M11), for a class of 30 students.

Times ``trainer.aim.workloads`` (what the assignment form and page call, once per student, for
the four goals 80/85/90/95%) over a class of 30 students x 400 facts, for test days 7, 30, 90
and 365 days ahead, on two classes:

- ``studied``: each student's memories come from the app's own scheduling path
  (``srs.schedule``): 40 study days, every due fact reviewed, up to 10 new facts a day, each
  review recalled with its predicted probability (seeded), so some facts are new, some shaky,
  some well known;
- ``stress``: every one of the 400 facts met, with stabilities spread from hours to months
  (log-normal) and last reviews up to 30 days ago: the most work the preview can be asked for.

With ``--check`` it also compares the expected-value figure with a Monte Carlo run of the same
schedule (every fact aimed when the test day is set, then ``srs.schedule`` and ``aim.aim`` after
every answer, each review recalled at random with its predicted probability, one answer each:
no same-day steps, ruling P-M12; a new fact's first answer missed, as the preview assumes; the
student's own desired retention 90%), for one studied student.

Run it from the project root::

    .venv/bin/python bench/test_day.py               # 5 runs of each
    .venv/bin/python bench/test_day.py --runs 3 --check
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from trainer import srs  # noqa: E402
from trainer.aim import TEST_TARGETS, TestAim, aim, day_start, workloads  # noqa: E402

UTC = dt.UTC
ZONE = "America/Chicago"
NOW = dt.datetime(2026, 3, 2, 15, 0, tzinfo=UTC)  # 9 a.m. in Chicago
TODAY = srs.study_day(NOW, ZONE).date
KEYS = [f"K{i:03d}" for i in range(400)]
STUDENTS = 30
NEW_PER_DAY = 10
#: The students' own desired retention (the default), for the preview and the Monte Carlo run.
OWN = srs.DEFAULT_RETENTION


def studied_student(seed: int, days: int = 40) -> dict[str, srs.Memory]:
    """A student's memories after ``days`` study days through ``srs.schedule`` (seeded)."""
    rng = random.Random(seed)
    memories: dict[str, srs.Memory] = {}
    start = NOW - dt.timedelta(days=days)
    for day in range(days):
        at = start + dt.timedelta(days=day)
        study_day = srs.study_day(at, ZONE)
        due = [k for k, m in memories.items() if srs.is_due(m, at, study_day)]
        new = [k for k in KEYS if k not in memories][:NEW_PER_DAY]
        for n, key in enumerate(due + new):
            when = at + dt.timedelta(seconds=20 * n)
            memory = memories.get(key) or srs.new_memory(when)
            recalled = memory.last_review is not None and rng.random() < srs.retrievability(
                memory, when, ZONE
            )
            if memory.last_review is None:
                recalled = rng.random() < 0.6  # a new fact: right the first time or not
            rating = srs.Rating.GOOD if recalled else srs.Rating.AGAIN
            memories[key] = srs.schedule(
                memory, rating, when, seed=f"{seed}:{key}:{day}", time_zone=ZONE
            )
    return memories


def stress_student(seed: int) -> dict[str, srs.Memory]:
    rng = random.Random(seed)
    out = {}
    for key in KEYS:
        stability = rng.lognormvariate(1.5, 1.2)
        last = NOW - dt.timedelta(days=rng.randint(0, 30))
        out[key] = srs.Memory(
            srs.MemoryState.REVIEW,
            None,
            stability,
            rng.uniform(2, 9),
            last + dt.timedelta(days=max(1, round(stability))),
            last,
            0,
            5,
        )
    return out


def time_class(
    students: list[dict[str, srs.Memory]], test_days: int, runs: int
) -> tuple[float, list[float]]:
    """The median seconds for the whole class's preview, and the class's mean reviews a day per goal."""
    test_on = TODAY + dt.timedelta(days=test_days)
    seconds = []
    per_day = [0.0] * len(TEST_TARGETS)
    for _ in range(runs):
        started = time.perf_counter()
        per_day = [0.0] * len(TEST_TARGETS)
        for memories in students:
            for i, work in enumerate(
                workloads(memories, KEYS, TODAY, test_on, TEST_TARGETS, ZONE, NEW_PER_DAY)
            ):
                per_day[i] += work.per_day / len(students)
        seconds.append(time.perf_counter() - started)
    return statistics.median(seconds), per_day


def monte_carlo(
    memories: dict[str, srs.Memory], target: float, test_days: int, trials: int, seed: int
) -> float:
    """Mean answers a day over the run-up, when the real schedule plus the aim is followed and
    each review is recalled at random with its predicted probability, one answer (new facts as the
    preview assumes them: one answer on their first day, missed)."""
    test_on = TODAY + dt.timedelta(days=test_days)
    test = TestAim(test_on, target, frozenset(KEYS))
    rng = random.Random(seed)
    total = 0
    for trial in range(trials):
        # As when the teacher sets the test day (web.assign.aims.aim_now): every fact aimed now.
        state = {key: aim(memory, [test], NOW, ZONE) for key, memory in memories.items()}
        answers = 0
        for day in range(test_days):
            at = day_start(TODAY + dt.timedelta(days=day), ZONE) + dt.timedelta(hours=5)
            study_day = srs.study_day(at, ZONE)
            due = [k for k, m in state.items() if srs.is_due(m, at, study_day)]
            new = [k for k in KEYS if k not in state][:NEW_PER_DAY]
            for key in due + new:
                memory = state.get(key)
                seed_ = f"{trial}:{key}:{day}"
                if memory is None:
                    memory = srs.schedule(
                        srs.new_memory(at),
                        srs.Rating.AGAIN,
                        at,
                        desired_retention=OWN,
                        seed=seed_,
                        time_zone=ZONE,
                    )
                else:
                    recalled = rng.random() < srs.retrievability(memory, at, ZONE)
                    memory = srs.schedule(
                        memory,
                        srs.Rating.GOOD if recalled else srs.Rating.AGAIN,
                        at,
                        desired_retention=OWN,
                        seed=seed_,
                        time_zone=ZONE,
                    )
                answers += 1
                state[key] = aim(memory, [test], memory.last_review or at, ZONE)
        total += answers
    return total / trials / max(1, test_days)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--check", action="store_true", help="compare with a Monte Carlo run of the real schedule"
    )
    args = parser.parse_args()

    started = time.perf_counter()
    classes = {
        "studied": [studied_student(seed) for seed in range(STUDENTS)],
        "stress": [stress_student(seed) for seed in range(STUDENTS)],
    }
    print(
        f"classes built in {time.perf_counter() - started:.1f} s ({STUDENTS} students x {len(KEYS)} facts each)"
    )
    met = statistics.mean(len(m) for m in classes["studied"])
    print(f"studied: {met:.0f} facts met per student on average; stress: all 400\n")
    print(
        "| class | test in | seconds for the class (4 goals) | "
        + " | ".join(f"{round(t * 100)}%/day" for t in TEST_TARGETS)
        + " |"
    )
    print("|---|---|---|" + "---|" * len(TEST_TARGETS))
    for name, students in classes.items():
        for days in (7, 30, 90, 365):
            seconds, per_day = time_class(students, days, args.runs)
            print(
                f"| {name} | {days} d | {seconds:.3f} | "
                + " | ".join(f"{x:.1f}" for x in per_day)
                + " |"
            )
    if args.check:
        print(
            "\nExpected value (preview) against Monte Carlo of srs.schedule + aim, one studied student, test in 21 days:"
        )
        memories = classes["studied"][0]
        for target in TEST_TARGETS:
            [work] = workloads(
                memories, KEYS, TODAY, TODAY + dt.timedelta(days=21), (target,), ZONE, NEW_PER_DAY
            )
            mc = monte_carlo(memories, target, 21, trials=20, seed=7)
            print(
                f"  {round(target * 100)}%: preview {work.per_day:.1f} a day, Monte Carlo {mc:.1f} a day"
            )


if __name__ == "__main__":
    main()
