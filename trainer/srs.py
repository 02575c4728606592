"""Spaced repetition: the one grading policy, FSRS-6 scheduling and the study queue.

This is the only module that imports ``fsrs``. Every mode reports an :class:`Outcome`; the web
layer stores the :class:`Memory` this module computes and the review log row beside it.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from functools import lru_cache
from zoneinfo import ZoneInfo

from fsrs import Card, Scheduler, State
from fsrs import Rating as FsrsRating
from fsrs.scheduler import FUZZ_RANGES

from trainer.facts import Form, Verdict

UTC = dt.UTC

DEFAULT_RETENTION = 0.90
MIN_RETENTION = 0.70
MAX_RETENTION = 0.97
DEFAULT_NEW_PER_DAY = 20
MAX_NEW_PER_DAY = 100
#: A fact forgotten this many times (after it was learned) is a leech.
LEECH_LAPSES = 8
#: A fact counts as learned once its memory lasts this many days: a miss after that is a lapse
#: (a new fact missed again the next day is still being learned, ruling P-M12).
LEARNED_STABILITY_DAYS = 1.0
#: The student's day starts at 4 a.m. local time, as in Anki: a late-night session counts as the
#: evening's, not the next day's.
DAY_STARTS_AT = dt.time(4, 0)
#: Facts still in (re)learning steps may come back this much early, so a session can finish them.
LEARN_AHEAD = dt.timedelta(minutes=20)
#: No same-day steps (ruling P-M12): a new fact, or one forgotten, comes back on the next study
#: day, not minutes later. The feedback after a miss shows the answer; a repeat minutes later is
#: massed practice, which builds little lasting memory (Cepeda et al. 2006; Kornell 2009) and FSRS
#: counts little (its short-term update), while it spends the day's answers. Measured with
#: bench/learning.py: more facts known on day 90 and day 180 under both memory models.
LEARNING_STEPS: tuple[dt.timedelta, ...] = ()

#: FSRS-6's 21 weights, as py-fsrs's defaults; a student's fitted set replaces them only when it
#: predicts the student's own later answers better (``trainer.fit``, ruling P-M10).
Weights = tuple[float, ...]
DEFAULT_WEIGHTS: Weights = tuple(float(w) for w in Scheduler().parameters)


def check_weights(weights: Sequence[float]) -> Weights:
    """``weights`` as a tuple, if it is a full FSRS-6 set of finite numbers with a positive decay.

    Raises:
        ValueError: the wrong length, a value that is not finite, or a decay (the last weight)
            outside py-fsrs's bounds.
    """
    values = tuple(float(w) for w in weights)
    if len(values) != len(DEFAULT_WEIGHTS):
        raise ValueError(f"FSRS-6 has {len(DEFAULT_WEIGHTS)} weights, not {len(values)}")
    if not all(math.isfinite(w) for w in values):
        raise ValueError("every weight must be a finite number")
    if not 0.1 <= values[20] <= 0.8:
        raise ValueError("the decay weight must be between 0.1 and 0.8")
    return values


class Rating(IntEnum):
    """The FSRS ratings, as the rest of the app may name them without importing fsrs."""

    AGAIN = 1
    HARD = 2
    GOOD = 3
    EASY = 4


class Help(str, Enum):
    """How an answer was helped. Any help makes a right answer Hard."""

    NONE = "none"
    HINT = "hint"  # the student asked for a hint
    LATER_CLUE = "later_clue"  # State IQ: guessed after more than the first clue
    RETRY = "retry"  # a second or third guess


class MemoryState(IntEnum):
    """Where a fact is in FSRS: being learned, in review, or being relearned after a lapse."""

    LEARNING = 1
    REVIEW = 2
    RELEARNING = 3


@dataclass(frozen=True)
class Outcome:
    """What a mode reports for one answer about one fact.

    Args:
        fact_key: the fact answered (``CO:capital``).
        verdict: right, close or wrong, as judged by :mod:`trainer.facts`.
        mode: which mode asked (``review``, ``state_iq``...).
        form: how it was asked (typed, multiple choice, map click).
        round_token: the round this answer belongs to; with ``item`` it makes the answer
            idempotent: the same (round, item) is recorded once, however often it is sent.
        item: which answer of the round this is.
        answer: what the student answered, as given.
        duration_ms: how long the answer took, if known (stored; it never changes the rating, P-M7).
        help: how the answer was helped.
        answered_postal: the state the answer named, if it named one (for confusions).
    """

    fact_key: str
    verdict: Verdict
    mode: str
    form: Form
    round_token: str
    item: str
    answer: str = ""
    duration_ms: int | None = None
    help: Help = Help.NONE
    answered_postal: str | None = None


def is_strong(form: Form) -> bool:
    """True for a form in which a right answer shows the fact is known (ruling P-M4).

    Typing an answer (a Map card named by typing included) or finding the state on the map is
    recall; picking one of a few offered options (multiple choice, a card from the hand, a yes/no
    call) may be a lucky guess: 1 in 4 for a new fact.
    """
    return form is not Form.CHOICE


def evidence_matters(outcome: Outcome) -> bool:
    """True when the rating of ``outcome`` depends on the student's earlier answers (P-M5): only a
    right, unhelped pick is rated by whether the fact was shown known before. Callers look the
    earlier answers up only then."""
    return (
        outcome.verdict is Verdict.RIGHT
        and outcome.help is Help.NONE
        and not is_strong(outcome.form)
    )


def rate(outcome: Outcome, *, strong_before: bool) -> Rating:
    """The one grading policy for every mode (rulings P-M5 and P-M7).

    Wrong (and "I don't know") = Again; close = Hard; right but helped = Hard; a right pick from
    offered options = Hard until the fact has been answered right (or close) in a strong form,
    Good after; right in a strong form = Good. Nothing is Easy: how fast an answer came is not
    reliable evidence (a fast answer is sometimes luck), so it rates nothing.

    Args:
        outcome: the answer.
        strong_before: the student answered this fact right or close in a strong form
            (:func:`is_strong`) at some earlier time; it matters only where
            :func:`evidence_matters`.
    """
    if outcome.verdict is Verdict.WRONG:
        return Rating.AGAIN
    if outcome.verdict is Verdict.CLOSE or outcome.help is not Help.NONE:
        return Rating.HARD
    if not is_strong(outcome.form) and not strong_before:
        return Rating.HARD
    return Rating.GOOD


@dataclass(frozen=True)
class Memory:
    """A student's schedule for one fact: the FSRS card's columns plus lapse and review counts."""

    state: MemoryState
    step: int | None
    stability: float | None
    difficulty: float | None
    due: dt.datetime
    last_review: dt.datetime | None
    lapses: int = 0
    reps: int = 0

    @property
    def is_leech(self) -> bool:
        return self.lapses >= LEECH_LAPSES

    @property
    def in_steps(self) -> bool:
        """Still in short (minutes) learning or relearning steps."""
        return self.state is not MemoryState.REVIEW


def new_memory(now: dt.datetime) -> Memory:
    """The schedule of a fact never answered before."""
    _check_utc(now)
    return Memory(MemoryState.LEARNING, 0, None, None, now, None)


@lru_cache(maxsize=256)
def _scheduler(desired_retention: float, weights: Weights | None = None) -> Scheduler:
    # Fuzz is applied below from a seed: fsrs's own fuzz draws from the global random module,
    # and every schedule here must replay exactly.
    return Scheduler(
        parameters=weights or DEFAULT_WEIGHTS,
        desired_retention=desired_retention,
        learning_steps=LEARNING_STEPS,
        relearning_steps=LEARNING_STEPS,
        enable_fuzzing=False,
    )


def check_retention(desired_retention: float) -> float:
    """``desired_retention`` if it is allowed.

    Raises:
        ValueError: outside 0.70-0.97.
    """
    if not MIN_RETENTION <= desired_retention <= MAX_RETENTION:
        raise ValueError(f"desired retention must be between {MIN_RETENTION} and {MAX_RETENTION}")
    return desired_retention


def schedule(
    memory: Memory,
    rating: Rating,
    now: dt.datetime,
    *,
    desired_retention: float = DEFAULT_RETENTION,
    seed: str = "",
    time_zone: ZoneInfo | str,
    weights: Weights | None = None,
) -> Memory:
    """The memory after a review rated ``rating`` at ``now``.

    FSRS sees the time since the last review in the student's study days (ruling P-M1): py-fsrs
    counts whole 24-hour periods (``(review - last_review).days``) for the retrievability and for
    the same-day (short-term) update, so it is given a last review exactly :func:`elapsed_days`
    days before this one. The learning steps (minutes) still run in real time from ``now``, and
    the real time is stored as the last review.

    Args:
        memory: the schedule before the review (:func:`new_memory` for a first answer).
        rating: from :func:`rate`.
        now: the review time, timezone-aware UTC.
        desired_retention: the recall probability at which facts fall due.
        seed: seeds the interval's fuzz (FSRS spreads reviews over a few days so facts learned
            together do not all come back together); the same seed gives the same schedule.
        time_zone: the student's time zone, whose 4 a.m. starts their study days.
        weights: the student's FSRS-6 weights (:data:`DEFAULT_WEIGHTS` when None).

    Returns:
        A new :class:`Memory`; ``memory`` is unchanged. A fact in review falls due at the start
        of its due study day (4 a.m. local), so "due today" is the same everywhere.
    """
    _check_utc(now)
    scheduler = _scheduler(check_retention(desired_retention), weights)
    # A review earlier than the last one (clock skew between servers) is treated as simultaneous.
    review_at = max(now, memory.last_review) if memory.last_review else now
    card = Card(
        card_id=1,
        state=State(int(memory.state)),
        step=memory.step,
        stability=memory.stability,
        difficulty=memory.difficulty,
        due=memory.due,
        last_review=_as_seen_by_fsrs(memory.last_review, review_at, time_zone),
    )
    card, _log = scheduler.review_card(card, FsrsRating(int(rating)), review_datetime=review_at)
    due = card.due
    if card.state is State.Review:
        days = _fuzzed(card.due - review_at, seed, scheduler.maximum_interval).days
        tz = _zone(time_zone)
        due = _day_start(study_day(review_at, tz).date + dt.timedelta(days=days), tz)
    lapsed = (
        rating is Rating.AGAIN
        and memory.state is MemoryState.REVIEW
        and (memory.stability or 0.0) >= LEARNED_STABILITY_DAYS
    )
    return Memory(
        state=MemoryState(int(card.state)),
        step=card.step,
        stability=card.stability,
        difficulty=card.difficulty,
        due=due,
        last_review=review_at,
        lapses=memory.lapses + int(lapsed),
        reps=memory.reps + 1,
    )


def reschedule(
    memory: Memory,
    stability: float,
    difficulty: float,
    *,
    desired_retention: float = DEFAULT_RETENTION,
    seed: str = "",
    time_zone: ZoneInfo | str,
    weights: Weights | None = None,
) -> Memory:
    """The memory with the stability and difficulty its history gives under new weights (P-M10):
    a fact in review falls due where those weights put it, counted from its last review's study
    day (fuzzed from ``seed`` as :func:`schedule` does); a fact in steps keeps its step and due."""
    if memory.last_review is None:
        return memory
    if memory.state is not MemoryState.REVIEW:
        return Memory(
            memory.state,
            memory.step,
            stability,
            difficulty,
            memory.due,
            memory.last_review,
            memory.lapses,
            memory.reps,
        )
    scheduler = _scheduler(check_retention(desired_retention), weights)
    days = _fuzzed(
        dt.timedelta(days=scheduler._next_interval(stability=stability)),
        seed,
        scheduler.maximum_interval,
    ).days
    tz = _zone(time_zone)
    due = _day_start(study_day(memory.last_review, tz).date + dt.timedelta(days=days), tz)
    return Memory(
        memory.state,
        memory.step,
        stability,
        difficulty,
        due,
        memory.last_review,
        memory.lapses,
        memory.reps,
    )


def _as_seen_by_fsrs(
    last_review: dt.datetime | None, review_at: dt.datetime, time_zone: ZoneInfo | str
) -> dt.datetime | None:
    """The last review FSRS is shown: whole days before ``review_at``, as many as the study days
    between them, so that py-fsrs's ``.days`` is the study-day gap (P-M1)."""
    if last_review is None:
        return None
    return review_at - dt.timedelta(days=elapsed_days(last_review, review_at, time_zone))


def _fuzzed(interval: dt.timedelta, seed: str, maximum_days: int) -> dt.timedelta:
    """FSRS's fuzz (the same ranges as ``fsrs``), drawn from ``seed`` instead of global random."""
    days = interval.days
    if days < 2.5:
        return interval
    delta = 1.0
    for fuzz_range in FUZZ_RANGES:
        delta += fuzz_range["factor"] * max(
            min(float(days), fuzz_range["end"]) - fuzz_range["start"], 0.0
        )
    low = max(2, round(days - delta))
    high = min(round(days + delta), maximum_days)
    low = min(low, high)
    return dt.timedelta(days=random.Random(f"fuzz:{seed}").randint(low, high))


def retrievability(
    memory: Memory, at: dt.datetime, time_zone: ZoneInfo | str, weights: Weights | None = None
) -> float:
    """The predicted probability of recalling the fact at ``at`` (0 for a fact never learned),
    under the student's ``weights`` (the defaults when None)."""
    return recall(memory.stability, memory.last_review, at, time_zone, weights)


def recall(
    stability: float | None,
    last_review: dt.datetime | None,
    at: dt.datetime,
    time_zone: ZoneInfo | str,
    weights: Weights | None = None,
) -> float:
    """FSRS's forgetting curve: the predicted recall at ``at`` of a fact last reviewed at
    ``last_review`` with ``stability`` (0 when never reviewed).

    The same formula and parameters as ``fsrs.Scheduler.get_card_retrievability``, with the time
    elapsed counted in the student's study days (:func:`elapsed_days`, P-M1): 1.0 all through the
    study day of the review. Without building a card: dashboards compute it for every fact of a class.
    """
    if last_review is None or stability is None:
        return 0.0
    return recall_after(stability, elapsed_days(last_review, at, time_zone), weights)


def curve(weights: Weights | None = None) -> tuple[float, float]:
    """The forgetting curve's factor F and decay D of ``weights``: recall is ``(1 + F * t / S) ** D``
    (FSRS-6: D is minus the last weight, and F makes recall 0.9 when t = S)."""
    scheduler = _scheduler(DEFAULT_RETENTION, weights)
    return float(scheduler._FACTOR), float(scheduler._DECAY)


def recall_after(stability: float, days: int, weights: Weights | None = None) -> float:
    """The forgetting curve after ``days`` whole study days: the one formula :func:`recall` and the
    dashboards' SQL (:func:`trainer.web.dashboards.recall_expr`) compute, operation for operation."""
    factor, decay = curve(weights)
    return float((1 + factor * days / stability) ** decay)


def elapsed_days(last_review: dt.datetime, at: dt.datetime, time_zone: ZoneInfo | str) -> int:
    """The study days from ``last_review`` to ``at`` (0 on the same study day or if ``at`` is
    earlier): the one measure of elapsed time for scheduling, predicted recall and any fit (P-M1).

    Days start at 4 a.m. in ``time_zone``, so a review at 23:00 and one at 09:00 the next morning
    are a day apart, and a 25-hour day of a daylight-saving change is still one day.
    """
    tz = _zone(time_zone)
    return max(0, (study_day(at, tz).date - study_day(last_review, tz).date).days)


def _check_utc(when: dt.datetime) -> None:
    if when.tzinfo is None or when.utcoffset() != dt.timedelta(0):
        raise ValueError("times must be timezone-aware UTC")


# --- The student's day ----------------------------------------------------------------------


@dataclass(frozen=True)
class StudyDay:
    """One study day of a student: its local date and its start and end in UTC."""

    date: dt.date
    start: dt.datetime
    end: dt.datetime
    #: The student's time zone (its key), in which elapsed study days are counted.
    time_zone: str


def study_day(now: dt.datetime, time_zone: ZoneInfo | str) -> StudyDay:
    """The student's study day containing ``now``; days start at 4 a.m. in ``time_zone``."""
    _check_utc(now)
    tz = _zone(time_zone)
    local = now.astimezone(tz)
    date = local.date() if local.time() >= DAY_STARTS_AT else local.date() - dt.timedelta(days=1)
    return StudyDay(date, _day_start(date, tz), _day_start(date + dt.timedelta(days=1), tz), tz.key)


def _zone(time_zone: ZoneInfo | str) -> ZoneInfo:
    return ZoneInfo(time_zone) if isinstance(time_zone, str) else time_zone


def _day_start(date: dt.date, tz: ZoneInfo) -> dt.datetime:
    return dt.datetime.combine(date, DAY_STARTS_AT, tzinfo=tz).astimezone(UTC)


def streak(days_studied: Iterable[dt.date], today: dt.date) -> int:
    """Consecutive study days up to today (or up to yesterday, if today has no study yet)."""
    studied = set(days_studied)
    day = today if today in studied else today - dt.timedelta(days=1)
    count = 0
    while day in studied:
        count += 1
        day -= dt.timedelta(days=1)
    return count


# --- The queue ------------------------------------------------------------------------------


def is_due(memory: Memory, now: dt.datetime, day: StudyDay) -> bool:
    """Due now: a review fact due before today ends, or a (re)learning step whose time has come."""
    if memory.in_steps:
        return memory.due <= now
    return memory.due < day.end


def is_due_soon(memory: Memory, now: dt.datetime) -> bool:
    """A (re)learning step due within :data:`LEARN_AHEAD`: studied early when nothing else is left."""
    return memory.in_steps and now < memory.due <= now + LEARN_AHEAD


def _weakest_first(
    memories: Iterable[tuple[str, Memory]],
    now: dt.datetime,
    day: StudyDay,
    weights: Weights | None = None,
) -> list[str]:
    ordered = sorted(
        memories,
        key=lambda km: (retrievability(km[1], now, day.time_zone, weights), km[1].due, km[0]),
    )
    return [key for key, _ in ordered]


def due_order(
    memories: Mapping[str, Memory], now: dt.datetime, day: StudyDay, weights: Weights | None = None
) -> list[str]:
    """The keys of the due facts, least likely to be recalled first (then most overdue first)."""
    return _weakest_first(
        ((k, m) for k, m in memories.items() if is_due(m, now, day)), now, day, weights
    )


def practice_order(
    memories: Mapping[str, Memory],
    now: dt.datetime,
    day: StudyDay,
    include: Callable[[str], bool] | None = None,
    weights: Weights | None = None,
) -> list[str]:
    """The introduced facts worth practising now, least likely to be recalled first (ruling P-M8).

    For a student who keeps studying once nothing is due: the lowest predicted recall
    (:func:`retrievability` in the study day's time zone) first, then the soonest due, then by key.
    Left out: facts answered earlier in this study day (their predicted recall is 1.0 until the day
    ends; another answer today would be a same-day review, which FSRS counts as little and a
    learner gains little from: spaced practice, not massed, is what lasts) and facts in
    (re)learning steps that are not due yet (their next step has its own time).

    Args:
        memories: the student's memory of every introduced fact, by key.
        now: the current time, UTC.
        day: the student's study day (see :func:`study_day`).
        include: keeps only the keys it accepts (a focus).
        weights: the student's FSRS weights (the defaults when None).
    """
    keep = include or (lambda key: True)
    worth = (
        (key, memory)
        for key, memory in memories.items()
        if keep(key)
        and memory.last_review is not None
        and elapsed_days(memory.last_review, now, day.time_zone) > 0
        and not (memory.in_steps and memory.due > now)
    )
    return _weakest_first(worth, now, day, weights)


def build_queue(
    memories: Mapping[str, Memory],
    now: dt.datetime,
    day: StudyDay,
    *,
    teaching_order: Sequence[str],
    new_allowed: int,
    size: int,
    include: Callable[[str], bool] | None = None,
    practice: bool = False,
    weights: Weights | None = None,
) -> list[str]:
    """The next facts to study: due ones first, then new ones up to ``new_allowed``, then steps due
    soon; when ``practice``, the rest of the round from :func:`practice_order`.

    Args:
        memories: the student's memory of the facts answered before, by key (at least every one
            due now or soon, and every introduced one when ``practice``; any others are ignored,
            except that they are not new).
        now: the current time, UTC.
        day: the student's study day (see :func:`study_day`).
        teaching_order: every fact key, in the order new facts are introduced.
        new_allowed: how many new facts may still be introduced today.
        size: the most facts to return.
        include: keeps only the keys it accepts (a focus on some facets, zones or states).
        practice: the student asked to keep studying (P-M8): a round that the due, new and soon
            facts leave short is filled with the facts most at risk.
        weights: the student's FSRS weights, which rank facts by predicted recall (the defaults
            when None).

    Returns:
        Distinct fact keys, at most ``size``.
    """
    keep = include or (lambda key: True)
    queue = [key for key in due_order(memories, now, day, weights) if keep(key)][:size]
    if len(queue) < size and new_allowed > 0:
        room = min(size - len(queue), new_allowed)
        queue += [key for key in teaching_order if key not in memories and keep(key)][:room]
    if len(queue) < size:
        # Nothing else left: finish the steps due in the next minutes rather than wait for them.
        soon = _weakest_first(
            ((k, m) for k, m in memories.items() if is_due_soon(m, now)), now, day, weights
        )
        queue += [key for key in soon if keep(key)][: size - len(queue)]
    if practice and len(queue) < size:
        dealt = set(queue)
        queue += [
            key for key in practice_order(memories, now, day, keep, weights) if key not in dealt
        ][: size - len(queue)]
    return queue
