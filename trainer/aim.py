"""A test day the schedule aims at, and the daily work a recall goal on that day costs (issue 19).

Pure Python. :func:`aim` pulls a fact's next review forward so that it is remembered at the goal
on a test day (ruling P-M9); :func:`daily_work` predicts how many reviews a day a student needs,
from today to the test day, for every fact of a scope to be at the goal that day (P-M11), as
``srs`` schedules them: without same-day steps (P-M12).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from zoneinfo import ZoneInfo

from trainer import srs

#: The choices a teacher has for "remember on test day" (P-A5), as fractions.
TEST_TARGETS = (0.80, 0.85, 0.90, 0.95)
DEFAULT_TEST_TARGET = 0.90
#: A simulated fact is followed for at most this many reviews (a year of reviews at the lowest
#: stability is far fewer; this only guards the loop).
_MAX_REVIEWS = 400


@dataclass(frozen=True)
class TestAim:
    """A test on ``test_on`` (a local date) for which ``fact_keys`` should be recalled at ``target``."""

    __test__ = False  # not a pytest test class, whatever its name

    test_on: dt.date
    target: float
    fact_keys: frozenset[str]

    def covers(self, fact_key: str) -> bool:
        return fact_key in self.fact_keys


def aims_covering(aims: Iterable[TestAim], fact_key: str) -> list[TestAim]:
    """The aims whose facts include ``fact_key`` (what :func:`aim` is given for that fact)."""
    return [a for a in aims if a.covers(fact_key)]


# --- The forgetting curve, with the student's weights when they have their own -------------------


def _weights(weights: Sequence[float] | None) -> srs.Weights | None:
    """``weights`` as ``srs`` takes them (a tuple: its schedulers are cached by weights)."""
    return None if weights is None else tuple(weights)


def days_at_or_above(
    stability: float, target: float, weights: Sequence[float] | None = None
) -> int:
    """The most whole study days after a review at which predicted recall is still >= ``target``
    (0 when even one day drops it below), by ``srs.recall_after`` in ``weights``."""
    weights = _weights(weights)
    params = _params(weights)
    decay = -params[20]
    factor = 0.9 ** (1 / decay) - 1
    days = max(0, math.floor(stability / factor * (target ** (1 / decay) - 1)))
    # The closed form, then checked against the one formula of srs (float rounding either way).
    while srs.recall_after(stability, days + 1, weights) >= target:
        days += 1
    while days > 0 and srs.recall_after(stability, days, weights) < target:
        days -= 1
    return days


def _zone(time_zone: ZoneInfo | str) -> ZoneInfo:
    return ZoneInfo(time_zone) if isinstance(time_zone, str) else time_zone


def _study_date(when: dt.datetime, tz: ZoneInfo) -> dt.date:
    """``srs.study_day(when, tz).date`` without the day's bounds (the preview asks it per fact)."""
    local = when.astimezone(tz)
    return (
        local.date() if local.time() >= srs.DAY_STARTS_AT else local.date() - dt.timedelta(days=1)
    )


def day_start(date: dt.date, time_zone: ZoneInfo | str) -> dt.datetime:
    """The start (4 a.m. local, P-M2) of the study day ``date``, in UTC."""
    return dt.datetime.combine(date, srs.DAY_STARTS_AT, tzinfo=_zone(time_zone)).astimezone(dt.UTC)


# --- The aim (P-M9) ------------------------------------------------------------------------------


def aim(
    memory: srs.Memory,
    targets: Sequence[TestAim],
    now: dt.datetime,
    time_zone: ZoneInfo | str,
    weights: Sequence[float] | None = None,
) -> srs.Memory:
    """The memory just scheduled by ``srs.schedule``, its due pulled forward for a test (P-M9).

    For each aim whose test day is today or later, a fact in review whose predicted recall on the
    test day (``srs.recall_after`` from the study day of its last review) is under the aim's
    target falls due at the start of study day *d*: the last day on which its predicted recall is
    still at or above the target (the interval FSRS would give at desired retention = target),
    at least the day after its review and at most the day before the test; when no day is left
    between the review and the test, the test day itself (a review that morning still counts).
    Called later than the review (a test day set after it), a day already past means due now.
    The due never moves later than FSRS's own; with several aims the earliest due wins. Facts on
    track and tests already past are left alone, and so are facts still in learning or
    relearning steps: ``srs.schedule`` puts none there since ruling P-M12 (no same-day steps),
    but a row from before it may still be in steps until its next answer.

    Args:
        memory: the schedule ``srs.schedule`` just returned.
        targets: the aims covering this fact (see :func:`aims_covering`).
        now: the time of the review, UTC.
        time_zone: the student's time zone (their study days).
        weights: the student's FSRS weights, if they have their own.

    Returns:
        ``memory`` itself when nothing changes, else a copy with an earlier ``due``.
    """
    if (
        memory.state is not srs.MemoryState.REVIEW
        or memory.stability is None
        or memory.last_review is None
    ):
        return memory
    weights = _weights(weights)
    tz = _zone(time_zone)
    today = srs.study_day(now, tz).date
    reviewed_on = srs.study_day(memory.last_review, tz).date
    due = memory.due
    for target in targets:
        if target.test_on < today:
            continue
        elapsed = (target.test_on - reviewed_on).days
        if elapsed <= 0 or srs.recall_after(memory.stability, elapsed, weights) >= target.target:
            continue
        day = reviewed_on + dt.timedelta(
            days=max(1, days_at_or_above(memory.stability, target.target, weights))
        )
        day = max(
            min(day, target.test_on - dt.timedelta(days=1)), reviewed_on + dt.timedelta(days=1)
        )
        day = min(day, target.test_on)
        due = min(due, day_start(day, tz))
    return memory if due == memory.due else replace(memory, due=due)


# --- The daily work a goal costs (P-M11) -------------------------------------------------------


@dataclass(frozen=True)
class Workload:
    """The expected work of one student for a goal on a test day.

    Attributes:
        target: the goal (predicted recall on the test day).
        days: the study days of the run-up, today to the day before the test (at least 1).
        reviews: the expected answers in all over the run-up.
        new_facts: facts not met yet, to be learned in the run-up.
        too_late: new facts the daily limit of new facts leaves no day to learn before the test.
    """

    target: float
    days: int
    reviews: float
    new_facts: int
    too_late: int

    @property
    def per_day(self) -> float:
        return self.reviews / self.days


class _Model:
    """FSRS-6's update formulas (as ``fsrs.Scheduler``'s without learning or relearning steps,
    ruling P-M12; checked equal to ``srs.schedule`` in the tests) with floats only: the preview
    follows tens of thousands of facts per page."""

    def __init__(self, weights: Sequence[float] | None) -> None:
        w = self.w = tuple(_params(weights))
        self.decay = -w[20]
        self.factor = 0.9 ** (1 / self.decay) - 1
        self.easy_d0 = w[4] - math.exp(w[5] * 3) + 1
        self.e_w8 = math.exp(w[8])
        self.forget_cap = math.exp(w[17] * w[18])
        # A new fact's first answer, rated Again (a fact never seen is missed, unless picked
        # right by luck): FSRS's initial stability and difficulty for Again, w0 and D0(1) = w4;
        # with no steps (P-M12) it goes straight into review.
        self.new_stability = max(w[0], srs_min_stability())
        self.new_difficulty = _clamp_d(w[4])

    def own_per_stability(self, retention: float) -> float:
        """FSRS's interval at desired ``retention``, in days per day of stability (not rounded)."""
        return (retention ** (1 / self.decay) - 1) / self.factor

    def recall(self, stability: float, days: int) -> float:
        return float((1 + self.factor * days / stability) ** self.decay)

    def difficulty(self, d: float, rating: int) -> float:
        w = self.w
        d2 = d + (10.0 - d) * (-(w[6] * (rating - 3))) / 9.0
        return _clamp_d(w[7] * self.easy_d0 + (1 - w[7]) * d2)

    def short_term(self, s: float) -> float:
        """Stability after a review rated Good on the study day of the last one (FSRS's short-term
        update): only for a fact still in steps from before P-M12 and answered today."""
        w = self.w
        return max(s * max(self.forget_cap * s ** -w[19], 1.0), srs_min_stability())

    def after_recall(self, s: float, d: float, r: float) -> tuple[float, float]:
        """Stability and difficulty after a review at recall ``r`` rated Good."""
        w = self.w
        s_good = s * (1 + self.e_w8 * (11 - d) * s ** -w[9] * (math.exp((1 - r) * w[10]) - 1))
        return max(s_good, srs_min_stability()), self.difficulty(d, 3)

    def after_lapse(self, s: float, d: float, r: float) -> tuple[float, float]:
        """Stability and difficulty after a review at recall ``r`` rated Again: FSRS-6's lapse
        (post-forgetting) stability, the fact staying in review (no relearning step, P-M12)."""
        w = self.w
        s_lapse = min(
            w[11] * d ** -w[12] * ((s + 1) ** w[13] - 1) * math.exp((1 - r) * w[14]),
            s / self.forget_cap,
        )
        return max(s_lapse, srs_min_stability()), self.difficulty(d, 1)

    def review(self, s: float, d: float, r: float) -> tuple[float, float, float]:
        """A review at recall ``r`` as an expected value: recalled (Good) with probability ``r``,
        else forgotten (Again). Returns the stability (the probability-weighted geometric mean of
        the two), the difficulty (the mean) and the answers: 1 either way (no steps, P-M12)."""
        s_good, d_good = self.after_recall(s, d, r)
        s_lapse, d_lapse = self.after_lapse(s, d, r)
        stability = math.exp(r * math.log(s_good) + (1 - r) * math.log(s_lapse))
        return stability, r * d_good + (1 - r) * d_lapse, 1.0


def srs_min_stability() -> float:
    return 0.001


def _clamp_d(d: float) -> float:
    return min(max(d, 1.0), 10.0)


def _params(weights: Sequence[float] | None) -> Sequence[float]:
    if weights is not None:
        return weights
    return srs.DEFAULT_WEIGHTS


def _run_up(
    model: _Model,
    stability: float,
    difficulty: float,
    last: int,
    due: int,
    test: int,
    target: float,
    own: float,
) -> tuple[float, bool]:
    """Expected answers from today to the day before ``test`` for a fact in review, last reviewed
    on day ``last`` and due on day ``due`` (days counted from today; ``due`` may be past: today).
    It is reviewed on its due day, or on the aim's day (P-M9) for ``target`` on ``test`` when that
    is earlier, and after each review falls due again by FSRS at the student's own retention
    (``own``: :meth:`_Model.own_per_stability`, rounded, at least a day, no fuzz) or on the aim's
    day, whichever is earlier. Each review is one answer, recalled or not (no steps, P-M12).
    Returns the answers, and whether the aim ever moved a review (if not, any lower target gives
    the same answers).

    :meth:`_Model.review` written out with local names: this loop runs for every fact of every
    student of a class, four times per preview (the tests check it step for step against the model).
    """
    w = model.w
    factor, decay = model.factor, model.decay
    # Days at or above the target after a review: floor(stability * per_stability), checked below.
    per_stability = (target ** (1 / decay) - 1) / factor
    e_w8, w9, w10, w11, w12, w13, w14 = model.e_w8, w[9], w[10], w[11], w[12], w[13], w[14]
    forget_cap = model.forget_cap
    w6_9, w7, easy = w[6] / 9.0, w[7], w[7] * model.easy_d0
    lowest = srs_min_stability()
    exp, log = math.exp, math.log
    answers = 0.0
    aimed = False
    for _ in range(_MAX_REVIEWS):
        if last < test and (1 + factor * (test - last) / stability) ** decay < target:
            aimed = True
            gap = int(stability * per_stability)
            if (1 + factor * (gap + 1) / stability) ** decay >= target:
                gap += 1
            elif gap > 0 and (1 + factor * gap / stability) ** decay < target:
                gap -= 1
            due = min(due, max(min(last + max(1, gap), test - 1), last + 1), test)
        due = max(due, 0)
        if due >= test:
            return answers, aimed
        r = (1 + factor * (due - last) / stability) ** decay if due > last else 1.0
        # Recalled, rated Good.
        s_good = max(
            stability * (1 + e_w8 * (11 - difficulty) * stability**-w9 * (exp((1 - r) * w10) - 1)),
            lowest,
        )
        d_good = min(max(easy + (1 - w7) * difficulty, 1.0), 10.0)
        # Forgotten: Again, FSRS's lapse stability; the fact stays in review (no step, P-M12).
        s_lapse = max(
            min(
                w11 * difficulty**-w12 * ((stability + 1) ** w13 - 1) * exp((1 - r) * w14),
                stability / forget_cap,
            ),
            lowest,
        )
        d_lapse = min(
            max(easy + (1 - w7) * (difficulty + (10.0 - difficulty) * 2 * w6_9), 1.0), 10.0
        )
        stability = exp(r * log(s_good) + (1 - r) * log(s_lapse))
        difficulty = r * d_good + (1 - r) * d_lapse
        answers += 1.0
        last = due
        due = last + max(1, round(stability * own))
    return answers, aimed


def daily_work(
    memories: Mapping[str, srs.Memory | None],
    fact_keys: Iterable[str],
    today: dt.date,
    test_on: dt.date,
    target: float,
    time_zone: ZoneInfo | str,
    new_per_day: int,
    weights: Sequence[float] | None = None,
    desired_retention: float = srs.DEFAULT_RETENTION,
) -> Workload:
    """The expected daily work of a student, from today to the day before ``test_on``, on the
    facts of ``fact_keys`` with a goal of ``target`` on the test day (ruling P-M11): a
    deterministic expected-value simulation of FSRS-6 without same-day steps (ruling P-M12).

    Each fact is followed on its own from its memory, as the app will schedule it: reviewed when
    it is due (its stored due, then FSRS's interval at the student's ``desired_retention``), or
    on the aim's day (P-M9) for this target when that is earlier. Each review is one answer:
    recalled with its predicted probability (Good) or forgotten (Again, FSRS's lapse stability,
    the fact staying in review and due a later day); the stability after it is the
    probability-weighted geometric mean of the two outcomes, the difficulty their mean. A fact
    never answered (absent, or None) is new: new facts are learned in ``fact_keys`` order,
    ``new_per_day`` a day from today, 1 answer each on their first day, taken as missed (Again:
    a fact never seen is not known, unless a pick is right by luck), then as above; those the
    limit leaves no day for before the test are counted in ``too_late``. A fact still in
    learning or relearning steps (a row from before P-M12) is a review due today; answered
    already today, that review is on the same study day: recalled, with FSRS's short-term
    update. Fuzz is left out.

    Args:
        memories: the student's memory of each fact they have answered, by key.
        fact_keys: the facts the goal is about.
        today: the student's study day now.
        test_on: the test day; work is counted from today to the day before it.
        target: the goal, predicted recall on the test day (0-1).
        time_zone: the student's time zone (study days of the last reviews).
        new_per_day: the student's limit of new facts a day.
        weights: the student's FSRS weights, if they have their own.
        desired_retention: the student's own retention (their setting, or their class's).
    """
    return workloads(
        memories,
        fact_keys,
        today,
        test_on,
        (target,),
        time_zone,
        new_per_day,
        weights,
        desired_retention,
    )[0]


def workloads(
    memories: Mapping[str, srs.Memory | None],
    fact_keys: Iterable[str],
    today: dt.date,
    test_on: dt.date,
    targets: Sequence[float],
    time_zone: ZoneInfo | str,
    new_per_day: int,
    weights: Sequence[float] | None = None,
    desired_retention: float = srs.DEFAULT_RETENTION,
) -> tuple[Workload, ...]:
    """:func:`daily_work` for each of ``targets`` at once (each fact is read once), in their order.

    A schedule that aims higher meets a lower goal too, so each fact's work for a goal is the
    least of its own and that of each higher goal of :data:`TEST_TARGETS` (P-M11): a higher goal
    never costs less. (FSRS's expected work can dip: a review at a higher recall builds a
    stability that can last past the test, where a later one would need another review.)
    """
    if not targets:
        return ()
    goals = sorted(set(targets) | {t for t in TEST_TARGETS if t > min(targets)})
    model = _Model(weights)
    own = model.own_per_stability(desired_retention)
    tz = _zone(time_zone)
    test = (test_on - today).days
    days = max(1, test)
    totals = dict.fromkeys(goals, 0.0)

    descending = goals[::-1]

    def add(
        extra: float, stability: float, difficulty: float, last: int, due: int, times: int = 1
    ) -> None:
        # From the highest goal down: a goal's work is the least of its own and the higher ones'
        # (P-M11); once a goal's run never needed the aim, every lower goal's run is the same.
        least = math.inf
        same = False
        for goal in descending:
            if not same:
                answers, aimed = _run_up(model, stability, difficulty, last, due, test, goal, own)
                least = min(least, extra + answers)
                same = not aimed
            totals[goal] += times * least

    new_keys = 0
    for key in fact_keys:
        memory = memories.get(key)
        if (
            memory is None
            or memory.stability is None
            or memory.last_review is None
            or memory.difficulty is None
        ):
            new_keys += 1
            continue
        s0, d0 = memory.stability, memory.difficulty
        last = (_study_date(memory.last_review, tz) - today).days
        if memory.in_steps:
            # A row from before P-M12: a review due today.
            if last < 0:
                add(0, s0, d0, last, 0)
            elif test > 0:
                # Answered already today: today's review is a same-day one, recalled (recall is
                # 1.0 all through the study day, P-M1), FSRS's short-term update.
                s1 = model.short_term(s0)
                add(1, s1, model.difficulty(d0, 3), 0, max(1, round(s1 * own)))
            continue
        due = (_study_date(memory.due, tz) - today).days
        add(0, s0, d0, last, due)
    # New facts: every fact learned on the same day costs the same; follow one per day.
    learnable = 0
    if test > 0 and new_keys:
        per_day = max(0, new_per_day)
        day = 0
        while learnable < new_keys and day < test and per_day > 0:
            count = min(per_day, new_keys - learnable)
            due = day + max(1, round(model.new_stability * own))
            add(1, model.new_stability, model.new_difficulty, day, due, count)
            learnable += count
            day += 1
    return tuple(
        Workload(
            target=t,
            days=days,
            reviews=totals[t],
            new_facts=new_keys,
            too_late=new_keys - learnable,
        )
        for t in targets
    )
