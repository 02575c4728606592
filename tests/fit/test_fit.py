"""A student's own FSRS weights must earn their place (ruling P-M10): the fit of ``trainer.fit``.

The logs are simulated (``tests.fit.simulated``): students whose memory follows FSRS-6 with known
weights, studying on the app's schedule. A log made by the standard weights gives a fit nothing
to learn but noise, so nothing may replace them; a student who forgets faster than the standard
weights say is predicted better by their own fit, which is adopted.
"""

from __future__ import annotations

import datetime as dt
import math
import re

import pytest

from tests.fit.simulated import forgetful_weights, simulate
from trainer import fit, srs

UTC = dt.UTC
NEW_YORK = "America/New_York"


def held_out(reviews: list[fit.LoggedReview], zone: str = "UTC") -> list:
    """The held-out targets as P-M10 defines them: the newest quarter (at least 40), in time."""
    targets = fit.targets(reviews, zone)
    split = len(targets) - max(fit.MIN_TEST, math.ceil(len(targets) * fit.HOLDOUT))
    return [t.item for t in targets[split:]]


def same_score(a: fit.Score, b: fit.Score) -> bool:
    """The optimiser sums in 32-bit floats in no fixed order: the same set scores the same to 1e-6."""
    return a.log_loss == pytest.approx(b.log_loss, rel=1e-5) and a.rmse_bins == pytest.approx(
        b.rmse_bins, rel=1e-5
    )


def bad_weights() -> srs.Weights:
    """Far too forgetful: first stabilities a twentieth of the standard ones, stability growing
    little after a recall, and the steepest decay."""
    w = list(srs.DEFAULT_WEIGHTS)
    for i in range(4):
        w[i] *= 0.05
    w[8] = 0.3
    w[20] = 0.8
    return srs.check_weights(w)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_log_made_by_the_standard_weights_keeps_them(seed):
    """P-M10: a fit on a log the standard weights made learns only noise and is not adopted."""
    reviews = simulate(seed=seed, days=90, facts=250)
    result = fit.fit(reviews, "UTC")
    assert not result.adopted, result
    assert result.weights == srs.DEFAULT_WEIGHTS
    assert result.candidate is None
    assert [name for name, _ in result.tried] == ["own"]  # a fit was tried, and refused
    assert result.train_targets >= fit.MIN_TRAIN and result.test_targets >= fit.MIN_TEST


def test_a_deliberately_bad_prior_is_refused_and_scores_worse():
    """P-M10: a class prior that predicts the held-out answers worse is never adopted."""
    reviews = simulate(seed=4, days=90, facts=250)
    result = fit.fit(reviews, "UTC", priors=[("class 1", bad_weights())])
    assert not result.adopted
    assert result.weights == srs.DEFAULT_WEIGHTS
    scores = dict(result.tried)
    test = held_out(reviews)
    assert same_score(scores["class 1"], fit.score(bad_weights(), test))
    assert (
        scores["class 1"].log_loss > result.current.log_loss
        and scores["class 1"].rmse_bins > result.current.rmse_bins
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_student_who_forgets_faster_adopts_a_fit_that_predicts_them_better(seed):
    """P-M10: the adopted set is the one tested, and on the held-out answers (recomputed here) it
    has both a lower log loss and a lower RMSE(bins) than the standard set."""
    reviews = simulate(forgetful_weights(), seed=seed, days=90, facts=250)
    result = fit.fit(reviews, "UTC")
    assert result.adopted, result
    assert result.candidate == "own"
    test = held_out(reviews)
    assert len(test) == result.test_targets
    standard, adopted = fit.score(srs.DEFAULT_WEIGHTS, test), fit.score(result.weights, test)
    assert same_score(standard, result.current) and same_score(adopted, result.best)
    assert adopted.log_loss < standard.log_loss and adopted.rmse_bins < standard.rmse_bins
    # The fit found what the simulated student is like: their memories are shorter.
    assert result.weights[2] < srs.DEFAULT_WEIGHTS[2]


def test_adopted_weights_are_kept_against_the_standard_ones_that_predict_worse():
    """P-M10: the set in use is judged like any candidate: the standard weights, offered as a
    prior to a student whose own fit is in use, do not replace it when they predict worse."""
    reviews = simulate(forgetful_weights(), seed=5, days=90, facts=250)
    own = fit.fit(reviews, "UTC")
    assert own.adopted
    again = fit.fit(reviews, "UTC", own.weights, priors=[("class 1", srs.DEFAULT_WEIGHTS)])
    assert same_score(again.current, fit.score(own.weights, held_out(reviews)))
    assert not again.adopted or again.best.beats(again.current)
    assert dict(again.tried)["class 1"].log_loss > again.current.log_loss
    if not again.adopted:
        assert again.weights == own.weights


def test_a_candidate_with_a_lower_log_loss_but_worse_calibration_is_refused(monkeypatch):
    """P-M10: both measures must improve; a lower log loss alone does not earn a place."""
    reviews = simulate(seed=6, days=90, facts=250)
    standard = srs.DEFAULT_WEIGHTS
    prior = bad_weights()
    real_score = fit.score

    def score(weights, items):
        real = real_score(weights, items)
        if tuple(weights) == prior:
            return fit.Score(0.01, 0.99)  # far better log loss, far worse calibration
        return real

    monkeypatch.setattr(fit, "score", score)
    monkeypatch.setattr(fit, "_fitted", lambda items: None)  # only the prior is a candidate
    result = fit.fit(reviews, "UTC", priors=[("class 1", prior)])
    assert not result.adopted and result.weights == standard
    assert result.best == fit.Score(0.01, 0.99)
    monkeypatch.setattr(
        fit,
        "score",
        lambda weights, items: (
            fit.Score(0.01, 0.01) if tuple(weights) == prior else real_score(weights, items)
        ),
    )
    assert fit.fit(
        reviews, "UTC", priors=[("class 1", prior)]
    ).adopted  # the same prior, better on both: adopted


def test_too_few_answers_keep_the_current_weights():
    """P-M10: a log too small to judge a fit changes nothing, whatever set is in use."""
    current = forgetful_weights()
    reviews = simulate(seed=7, days=6, facts=20)
    result = fit.fit(reviews, "UTC", current, priors=[("class 1", srs.DEFAULT_WEIGHTS)])
    assert not result.adopted and result.weights == current
    assert result.reason.startswith("too few answers to judge a fit")
    assert result.tried == ()


def test_enough_to_judge_but_too_few_to_fit_tries_only_the_priors():
    """P-M10: under 100 targets to learn from, the student's own fit is not tried; a prior is."""
    reviews = simulate(forgetful_weights(), seed=8, days=10, facts=40, new_per_day=5)
    targets = fit.targets(reviews, "UTC")
    assert fit.MIN_TEST * 2 <= len(targets) < fit.MIN_TRAIN + fit.MIN_TEST  # the case under test
    alone = fit.fit(reviews, "UTC")
    assert not alone.adopted and alone.reason.startswith("too few answers to fit")
    with_prior = fit.fit(reviews, "UTC", priors=[("class 1", forgetful_weights())])
    assert [name for name, _ in with_prior.tried] == ["class 1"]


def steps_of(item) -> list[tuple[int, int]]:
    """(rating, study days since the previous answer) of each review of an optimiser's item."""
    return [tuple(int(n) for n in re.findall(r"\d+", repr(review))) for review in item.reviews]


def answer(
    key: str, at: dt.datetime, rating: srs.Rating = srs.Rating.GOOD, strong: bool = True
) -> fit.LoggedReview:
    return fit.LoggedReview(key, at, int(rating), strong)


def test_picks_are_never_targets_but_stay_in_the_history():
    """P-M10, P-M4: a right pick on a later day is in the fact's history, never a target."""
    day = dt.datetime(2026, 3, 2, 16, 0, tzinfo=UTC)
    reviews = [
        answer("CO:capital", day, srs.Rating.HARD, strong=False),
        answer(
            "CO:capital", day + dt.timedelta(days=1), srs.Rating.GOOD, strong=False
        ),  # a pick: no target
        answer("CO:capital", day + dt.timedelta(days=3)),  # typed: a target
        answer("UT:capital", day, strong=True),
        answer(
            "UT:capital", day + dt.timedelta(days=2), srs.Rating.AGAIN, strong=False
        ),  # a wrong pick: no target
    ]
    targets = fit.targets(reviews, "UTC")
    assert [t.at for t in targets] == [day + dt.timedelta(days=3)]
    (target,) = targets
    assert steps_of(target.item) == [(2, 0), (3, 1), (3, 2)]


def test_gaps_count_in_study_days_not_24_hours():
    """P-M10, P-M1: 23:00 then 09:00 the next morning is one study day (a target); 24 h 50 min
    inside New York's 25-hour fall-back study day is the same day (not a target)."""
    evening = dt.datetime(2026, 5, 15, 3, 0, tzinfo=UTC)  # 23:00 EDT, 14 May
    morning = evening + dt.timedelta(hours=10)  # 09:00 EDT, 15 May
    fall_back_start = dt.datetime(2026, 10, 31, 8, 5, tzinfo=UTC)  # 04:05 EDT, 31 October
    late = fall_back_start + dt.timedelta(
        hours=24, minutes=50
    )  # 03:55 EST, still the study day of 31 October
    reviews = [
        answer("CO:map", evening),
        answer("CO:map", morning),
        answer("UT:map", fall_back_start),
        answer("UT:map", late),
    ]
    history = fit.histories(reviews, NEW_YORK)
    assert [gap for _, gap in history["CO:map"]] == [0, 1]
    assert [gap for _, gap in history["UT:map"]] == [0, 0]
    assert [t.at for t in fit.targets(reviews, NEW_YORK)] == [morning]
    # In UTC the same answers fall otherwise: the gap is the student's, not the server's.
    assert [gap for _, gap in fit.histories(reviews, "UTC")["UT:map"]] == [0, 1]


def test_a_pooled_fit_keeps_each_students_histories_apart(monkeypatch):
    """P-M10: two students' answers about one fact are two histories, each in its own time zone
    (the pooled log of a class is not one student's)."""
    seen: list[list] = []
    monkeypatch.setattr(
        fit, "_fitted", lambda items: seen.append(list(items)) or srs.DEFAULT_WEIGHTS
    )
    first, second = simulate(seed=9), simulate(seed=10, time_zone=NEW_YORK)
    fit.fit_pooled([(first, "UTC"), (second, NEW_YORK)])
    (items,) = seen
    expected = [t.item for t in fit.targets(first, "UTC")] + [
        t.item for t in fit.targets(second, NEW_YORK)
    ]
    assert [steps_of(i) for i in items] == [steps_of(i) for i in expected]
    assert len(items) > len(
        fit.targets(first + second, "UTC")
    )  # merged, the two logs would lose targets
    assert fit.fit_pooled([(first[:30], "UTC")]) is None  # too little to fit


def test_replay_gives_the_state_the_weights_give_the_history():
    """P-M10: replaying a fact's history under a set gives a longer memory for a recalled fact
    under the standard set than under the forgetful one."""
    day = dt.datetime(2026, 3, 2, 16, 0, tzinfo=UTC)
    reviews = [
        answer("CO:map", day),
        answer("CO:map", day + dt.timedelta(days=3)),
        answer("CO:map", day + dt.timedelta(days=10)),
    ]
    steps = fit.histories(reviews, "UTC")["CO:map"]
    standard, forgetful = (
        fit.replay(steps, srs.DEFAULT_WEIGHTS),
        fit.replay(steps, forgetful_weights()),
    )
    assert all(math.isfinite(v) for v in standard + forgetful)
    assert forgetful[0] < standard[0]
