"""A student's own FSRS-6 weights, fitted from their review log, that must earn their place (P-M10).

Pure Python around ``fsrs_rs_python``, the Rust FSRS optimiser that Anki itself runs (the
open-spaced-repetition project keeps it). It is chosen over ``fsrs[optimizer]`` because that one
needs PyTorch (hundreds of megabytes, minutes to install on a 2-CPU school server), while this is a
0.6 MB wheel that fits a student's log in milliseconds; both minimise the same loss.

The log is cleaned first (P-M10):

- Time between answers is counted in the student's study days (:func:`trainer.srs.elapsed_days`,
  P-M1), as the scheduler counts it, so an answer on a later study day is never a same-day one.
- An answer is a **target** (something the fit learns to predict) only if it was given in a strong
  form (typed, or found on the map: :func:`trainer.srs.is_strong`) on a later study day than the
  fact's previous answer. A right pick among offered options may be luck (1 in 4 for a fact never
  seen), so picks stay in each fact's history, with the rating they got, but are never targets.

A fitted set replaces the student's current one only when it predicts the student's own **later**
answers better: the targets are split in time, the newest quarter held out; a candidate is fitted
on the older part, and adopted only if on the held-out part both its log loss and its RMSE over
bins (the open-spaced-repetition benchmark's two measures) are lower than the current set's. The
set adopted is the one that was tested. Candidates may include a prior (a class's pooled fit) for a
student whose own log is still too small to fit.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from fsrs_rs_python import FSRS, FSRSItem, FSRSReview

from trainer import srs

#: The newest share of the targets held out to judge a candidate.
HOLDOUT = 0.25
#: Fewer held-out targets than this judge nothing: the current set stays.
MIN_TEST = 40
#: Fewer training targets than this fit nothing (the optimiser would return its defaults).
MIN_TRAIN = 100


@dataclass(frozen=True)
class LoggedReview:
    """One answer from the review log, as the fit needs it."""

    fact_key: str
    reviewed_at: dt.datetime
    rating: int
    strong: bool


@dataclass(frozen=True)
class Score:
    """How well a weight set predicts a set of answers (lower is better for both)."""

    log_loss: float
    rmse_bins: float

    def beats(self, other: Score) -> bool:
        return self.log_loss < other.log_loss and self.rmse_bins < other.rmse_bins


@dataclass(frozen=True)
class FitResult:
    """What a fit found: the weights to use from now on, and why."""

    weights: srs.Weights
    adopted: bool
    reason: str
    train_targets: int
    test_targets: int
    current: Score | None = None
    best: Score | None = None
    #: Every candidate tried, with its held-out score.
    tried: tuple[tuple[str, Score], ...] = field(default=())
    #: The name of the candidate adopted ("own", or a prior's name); None when none was.
    candidate: str | None = None


@dataclass(frozen=True)
class _Target:
    at: dt.datetime
    item: FSRSItem


def histories(
    reviews: Iterable[LoggedReview], time_zone: ZoneInfo | str
) -> dict[str, list[tuple[LoggedReview, int]]]:
    """Each fact's answers in time order, each with the study days since the fact's previous answer."""
    by_fact: dict[str, list[LoggedReview]] = {}
    for review in reviews:
        by_fact.setdefault(review.fact_key, []).append(review)
    out: dict[str, list[tuple[LoggedReview, int]]] = {}
    for key, answers in by_fact.items():
        answers.sort(key=lambda r: r.reviewed_at)
        steps: list[tuple[LoggedReview, int]] = []
        previous: dt.datetime | None = None
        for answer in answers:
            gap = (
                0 if previous is None else srs.elapsed_days(previous, answer.reviewed_at, time_zone)
            )
            steps.append((answer, gap))
            previous = answer.reviewed_at
        out[key] = steps
    return out


def _item(steps: Sequence[tuple[LoggedReview, int]]) -> FSRSItem:
    return FSRSItem([FSRSReview(review.rating, gap) for review, gap in steps])


def targets(reviews: Iterable[LoggedReview], time_zone: ZoneInfo | str) -> list[_Target]:
    """The cleaned targets, oldest first: each strong-form answer on a later study day than the
    fact's previous answer, with the fact's whole history up to it."""
    out = []
    for steps in histories(reviews, time_zone).values():
        for index in range(1, len(steps)):
            answer, gap = steps[index]
            if gap > 0 and answer.strong:
                out.append(_Target(answer.reviewed_at, _item(steps[: index + 1])))
    out.sort(key=lambda t: t.at)
    return out


def score(weights: Sequence[float], items: Sequence[FSRSItem]) -> Score:
    evaluation = FSRS(list(weights)).evaluate(list(items))
    return Score(float(evaluation.log_loss), float(evaluation.rmse_bins))


def _fitted(items: Sequence[FSRSItem]) -> srs.Weights | None:
    """The optimiser's weights for ``items``, or None when it had too little to move off its defaults."""
    try:
        weights = tuple(
            float(w) for w in FSRS(list(srs.DEFAULT_WEIGHTS)).compute_parameters(list(items))
        )
    except ValueError:  # the optimiser's "NotEnoughData": too few answers that tell it anything
        return None
    if all(math.isclose(a, b, rel_tol=1e-6) for a, b in zip(weights, srs.DEFAULT_WEIGHTS)):
        return None
    try:
        return srs.check_weights(weights)
    except ValueError:
        return None


def fit_pooled(logs: Iterable[tuple[Iterable[LoggedReview], ZoneInfo | str]]) -> srs.Weights | None:
    """One weight set fitted on every target of several students' logs (a class's pooled log: the
    prior for its students whose own log is small). None when there is too little to fit.

    Args:
        logs: each student's answers with that student's time zone. Each log is cleaned on its
            own: two students' answers about one fact are two histories, and each student's gaps
            count in their own study days.
    """
    items = [t.item for reviews, time_zone in logs for t in targets(reviews, time_zone)]
    return _fitted(items) if len(items) >= MIN_TRAIN else None


def fit(
    reviews: Iterable[LoggedReview],
    time_zone: ZoneInfo | str,
    current: srs.Weights | None = None,
    *,
    priors: Sequence[tuple[str, srs.Weights]] = (),
) -> FitResult:
    """Fit the student's weights on the older part of their log and keep them only if they predict
    the held-out newer part better than ``current`` (the defaults when None).

    Args:
        reviews: every answer of one student.
        time_zone: the student's time zone (their study days).
        current: the weights in use now.
        priors: other candidates, by name (a class's pooled fit), judged the same way.

    Returns:
        The weights to use (``current`` unless a candidate beat it), with the scores.
    """
    in_use = srs.DEFAULT_WEIGHTS if current is None else srs.check_weights(current)
    all_targets = targets(reviews, time_zone)
    split = len(all_targets) - max(MIN_TEST, math.ceil(len(all_targets) * HOLDOUT))
    train = [t.item for t in all_targets[: max(split, 0)]]
    test = [t.item for t in all_targets[max(split, 0) :]]
    if split <= 0 or len(test) < MIN_TEST:
        return FitResult(
            in_use,
            False,
            f"too few answers to judge a fit ({len(all_targets)} usable)",
            0,
            len(all_targets),
        )
    candidates: list[tuple[str, srs.Weights]] = []
    own = _fitted(train) if len(train) >= MIN_TRAIN else None
    if own is not None:
        candidates.append(("own", own))
    candidates += [(name, srs.check_weights(w)) for name, w in priors if tuple(w) != in_use]
    if not candidates:
        return FitResult(
            in_use,
            False,
            f"too few answers to fit ({len(train)} to learn from)",
            len(train),
            len(test),
        )
    now_score = score(in_use, test)
    tried = tuple((name, score(w, test)) for name, w in candidates)
    best_name, best_score = min(tried, key=lambda pair: pair[1].log_loss)
    if not best_score.beats(now_score):
        return FitResult(
            in_use,
            False,
            "no candidate predicted the newer answers better",
            len(train),
            len(test),
            now_score,
            best_score,
            tried,
        )
    weights = dict(candidates)[best_name]
    return FitResult(
        weights,
        True,
        f"{best_name} predicted the newer answers better",
        len(train),
        len(test),
        now_score,
        best_score,
        tried,
        best_name,
    )


def replay(
    steps: Sequence[tuple[LoggedReview, int]], weights: Sequence[float]
) -> tuple[float, float]:
    """The stability and difficulty a fact's whole history gives under ``weights`` (to reschedule
    the student's facts when new weights are adopted)."""
    state = FSRS(list(weights)).memory_state(_item(steps))
    return float(state.stability), float(state.difficulty)


def rescheduled(
    memories: Mapping[str, srs.Memory],
    reviews: Iterable[LoggedReview],
    weights: srs.Weights,
    *,
    desired_retention: float,
    time_zone: ZoneInfo | str,
) -> dict[str, srs.Memory]:
    """Every fact of ``memories`` that has a history in ``reviews``, as newly adopted ``weights``
    schedule it (P-M10): its history replayed (:func:`replay`) for its stability and difficulty,
    then :func:`trainer.srs.reschedule` with the seed ``refit:<fact>``."""
    by_fact = histories(reviews, time_zone)
    out = {}
    for key, memory in memories.items():
        steps = by_fact.get(key)
        if steps:
            stability, difficulty = replay(steps, weights)
            out[key] = srs.reschedule(
                memory,
                stability,
                difficulty,
                desired_retention=desired_retention,
                seed=f"refit:{key}",
                time_zone=time_zone,
                weights=weights,
            )
    return out
