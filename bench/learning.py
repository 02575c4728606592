"""Benchmark: how many facts simulated students end up knowing under each scheduler (issue 19).

Simulated students (``bench/learners.py``: half-life regression, Settles & Meeder 2016, and
ACT-R's spacing model, Pavlik & Anderson 2005; parameters and citations there) study once a day,
at a random time between 15:00 and 21:00 in America/Chicago (so consecutive sessions are
sometimes less than 24 hours apart, and the run crosses the March daylight-saving night), with
the same budget for every scheduler: 40 answers a day, at most 10 new facts a day. Every
scheduler sees the same students (paired by seed and student number).

Answers: a student recalls a fact with the model's TRUE probability. A multiple-choice question
not recalled is answered by a random pick among the real options (so it is right by luck about
1 time in 4; the app's own judge decides); a typed answer or a map click is right only if
recalled, and a recalled typed answer is "close" with probability :data:`SLIP`. Answer times are
log-normal, somewhat faster when the memory is strong (speed is only weakly informative). Each
answer is one study event for the learner (a retrieval, or the right answer shown as feedback).

Schedulers:

- ``app``: the app's real study path: the queue as ``trainer/web/memory.py::queue`` builds it
  (due memories, the teaching order of facts not yet introduced, new facts allowed today) through
  ``srs.build_queue``; rounds of 10 dealt by ``review.deal`` with multiple choice on (the default
  student; the facts whose last answer was a right pick or a miss passed as ``recheck`` when
  ``deal`` takes it, as ``memory.to_recheck``); each item asked by ``review.question``; a choice judged by
  ``facts.judge``; rated by ``srs.rate`` as ``memory._record_once`` calls it (with
  ``strong_before`` where ``srs.evidence_matters``, or, in a checkout before issue 19, with the
  recent right-answer times of ``memory._recent_times`` where ``memory._speed_matters``);
  scheduled by ``srs.schedule`` seeded with ``round:item`` as ``memory._write`` does, desired
  retention 0.9. The database is replaced by a dict of ``srs.Memory`` per fact (:class:`AppPath`
  mirrors ``memory.queue``/``memory.record``; ``tests/bench/test_learning.py`` checks it answer
  for answer against the real ones on the database). Keyword arguments the core may or may not
  have (``time_zone``) are passed when the function accepts them, so both the checkout before
  issue 19 and the one after are measured as they are. When ``memory.queue`` or the grading
  changes shape again, :class:`AppPath` must follow (the test says so by failing). When the
  ordinary queue is empty the student keeps practising, as the study home offers (ruling P-M8:
  rounds from ``memory.queue(..., practice=True)``, the facts most at risk), until the day's budget
  is spent.
- ``app-stop``: the same path, but the student stops when the ordinary queue is empty (the study
  home before P-M8 said "All done for today"), so both are measured in one run, paired.
- ``fsrs-passfail``: plain FSRS-6 (``fsrs.Scheduler``, default weights, retention 0.9, no fuzz),
  every fact typed, graded Again or Good; due facts first (review facts due by the end of the
  study day, steps due now), then new ones, then steps due within 20 minutes.
- ``leitner``: five boxes with intervals of 1, 2, 4, 8 and 16 study days; right moves a fact up a
  box, wrong back to box 1; typed; due facts first (lowest box first), then new ones.
- ``oracle``: at the start of each session ranks the introduced facts by their TRUE recall; asks
  those under 0.9, lowest first, then new ones, then spends what is left of the budget on the
  lowest true recall. Typed. A reference ceiling, not a proven optimum.

Report (plain Markdown), per memory model, scheduler and report day (measured at noon local on
that day, before its session): facts at true recall >= 0.9 and >= 0.8 (out of 400), mean true
recall, facts introduced and days to introduce all 400; for the app, the median FSRS difficulty
and a calibration table over all its reviews (predicted recall at review time from
``srs.retrievability`` against the true recall, and the share answered right); paired
differences with 95% intervals (mean +- 1.96 SE over students).

Run it from the project root::

    .venv/bin/python bench/learning.py --students 20 --days 90 180 --jobs 2
    .venv/bin/python bench/learning.py --students 4 --days 30 --model actr --schedulers app leitner
    git worktree add /tmp/before <commit>
    .venv/bin/python bench/learning.py --students 20 --repo /tmp/before   # adds "app@before"

``--repo PATH`` also runs the ``app`` scheduler with the ``trainer`` package of the checkout at
PATH (in a subprocess with PATH first on ``sys.path``), paired with the same students.
"""

from __future__ import annotations

import argparse
import datetime as dt
import inspect
import json
import math
import random
import statistics
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent

SCHEDULERS = ("app", "app-stop", "app-nofit", "fsrs-passfail", "leitner", "oracle")
TIME_ZONE = "America/Chicago"
#: The first study day (a Monday); 180 days from it cross the March daylight-saving night.
START = dt.date(2026, 1, 5)
DAILY_BUDGET = 40
NEW_PER_DAY = 10
RETENTION = 0.90
#: The session starts this many hours after local midnight, drawn uniformly.
SESSION_HOURS = (15.0, 21.0)
#: A recalled typed answer is "close" (a slip) this often.
SLIP = 0.03
#: Median answer times (ms) for a fact recalled with certainty, by form; a weak memory is slower.
BASE_MS = {"choice": 3500.0, "typed": 5500.0, "map_click": 4500.0}
#: Log-normal sd of answer times: individual answers vary a lot.
TIME_SIGMA = 0.45
#: Time spent on the feedback page after each answer.
FEEDBACK_S = 4.0
LEARN_AHEAD = dt.timedelta(minutes=20)
LEITNER_DAYS = (1, 2, 4, 8, 16)
#: Issue 19's calibration goal: within this gap in every bin holding at least this share of reviews.
CALIBRATION_GAP = 0.03
CALIBRATION_SHARE = 0.05
#: The app fits a student's weights again after this many new answers (trainer/web/fitting.py's
#: ``NEW_ANSWERS_FOR_A_FIT``; a checkout measured with ``--repo`` uses its own).
FIT_AFTER = 75
#: Students per simulated class: the app offers each student the pooled fit of their classmates'
#: answers as a prior (P-M10). ``--class-size 1`` studies everyone alone.
CLASS_SIZE = 5
ORACLE_THRESHOLD = 0.9
UTC = dt.UTC


# --- Shared by every scheduler ----------------------------------------------------------------


@dataclass
class Student:
    """One simulated student studying under one scheduler: their memory, clock and randomness."""

    learner: Any
    rng: random.Random
    epoch: dt.datetime

    def seconds(self, at: dt.datetime) -> float:
        return (at - self.epoch).total_seconds()

    def answer(self, key: str, at: dt.datetime, form: str, options: tuple[str, ...] = ()) -> Answer:
        """The student answers ``key`` at ``at`` in ``form``; also a study event for their memory.

        For multiple choice, ``options`` are the question's real options: a fact not recalled is
        answered by a random one of them (``Answer.pick``), to be judged by the caller.
        """
        t = self.seconds(at)
        p = self.learner.recall(key, t)
        recalled = self.rng.random() < p
        median = BASE_MS[form] * ((1.0 - 0.35 * p) if recalled else 1.6)
        duration = int(median * math.exp(self.rng.gauss(0.0, TIME_SIGMA)))
        if recalled:
            verdict = "close" if form == "typed" and self.rng.random() < SLIP else "right"
        else:
            verdict = "wrong"
        pick = self.rng.randrange(len(options)) if options and not recalled else None
        done = at + dt.timedelta(milliseconds=duration)
        self.learner.study(key, self.seconds(done), recalled)
        return Answer(p, recalled, verdict, duration, pick, done + dt.timedelta(seconds=FEEDBACK_S))


@dataclass(frozen=True)
class Answer:
    true_recall: float
    recalled: bool
    verdict: str  # right, close or wrong (before judging a lucky multiple-choice pick)
    duration_ms: int
    pick: int | None  # the option picked at random when not recalled (multiple choice)
    next_at: dt.datetime  # when the student is ready for the next question


def _accepts(func: Callable[..., Any]) -> set[str]:
    return set(inspect.signature(func).parameters)


def _optional(func: Callable[..., Any], **maybe: Any) -> dict[str, Any]:
    """The keyword arguments among ``maybe`` that ``func`` accepts (a later core may add some)."""
    names = _accepts(func)
    return {name: value for name, value in maybe.items() if name in names}


# --- The app's study path ---------------------------------------------------------------------


class AppPath:
    """The app's study path for one student, with the database replaced by dicts.

    Mirrors ``trainer/web/memory.py``: ``queue`` (due_memories, introduced_keys,
    new_allowed_today, teaching order of facts not introduced, ``srs.build_queue``) and
    ``record``/``_record_once``/``_write`` (``srs.rate`` with ``_recent_times`` when
    ``_speed_matters``; ``srs.schedule`` seeded ``round_token:item``), and the study view's
    ``new_study_round`` (``review.deal``, multiple choice on) and ``item`` (``review.question``,
    ``facts.judge``). When the ordinary queue is empty, the student keeps studying as the study
    home offers (P-M8): "Keep practising" starts a round with ``memory.queue(..., practice=True)``
    (every introduced memory, ``srs.build_queue(practice=True)``), and that round's "Study more"
    keeps practising, until the budget is spent or nothing is left to practise. A core without the
    practice switch stops, as ``app-stop`` does.
    """

    name = "app"
    #: Keep practising once the ordinary queue is empty (the study home's button, P-M8).
    keep_practising = True
    #: Fit the student's own weights as the app does in the background (P-M10).
    fits = True

    def __init__(self, student: Student, keys: list[str]) -> None:
        from trainer import review, srs
        from trainer.cards import load_deck
        from trainer.facts import Facet, Fact, Form, Verdict, judge, teaching_order

        self.srs, self.review, self.judge = srs, review, judge
        self.speed_matters = _speed_matters_of(srs)
        self.is_strong = getattr(srs, "is_strong", lambda form: form is not Form.CHOICE)
        self.Fact, self.Facet, self.Form, self.Verdict = Fact, Facet, Form, Verdict
        self.deck = _deck(load_deck)
        self.order = [fact.key for fact in teaching_order(self.deck)]
        self.student = student
        self.memories: dict[str, Any] = {}
        self.introduced_at: dict[str, dt.datetime] = {}
        #: Recent right-answer times by (facet, form), newest first (memory._recent_times).
        self.recent: dict[tuple[str, str], deque[int]] = {}
        #: Facts answered right or close in a strong form (memory._strong_before), and facts whose
        #: last answer was a right pick or a miss (memory.to_recheck).
        self.strong_seen: set[str] = set()
        self.picked_last: set[str] = set()
        #: A miss, too, is asked in a strong form next (P-M6 since memory.to_recheck).
        self.recheck_misses = _recheck_misses()
        self.rounds = 0
        self.calibration: list[tuple[float, float, bool]] = []
        #: The student's weights (None: the defaults) and their review log, for the fit (P-M10);
        #: ``trainer.fit`` does not exist in a checkout before it, and then nothing is fitted.
        self.weights: Any = None
        self.log: list[Any] = []
        self.fit = _fit_module() if self.fits else None
        self.fit_after = _fit_after()
        self.logged_at_last_fit = 0
        self.fits_adopted = 0
        self.answers = 0
        #: The other students of the simulated class (their logs make the class prior).
        self.classmates: list[AppPath] = []

    # memory.queue
    def queue(self, now: dt.datetime, size: int, practice: bool = False) -> list[str]:
        srs = self.srs
        day = srs.study_day(now, TIME_ZONE)
        if practice:  # memory.all_memories
            memories = dict(self.memories)
        else:
            memories = {k: m for k, m in self.memories.items() if self._due_or_soon(m, now, day)}
        order = [key for key in self.order if key not in self.memories]
        introduced_today = sum(1 for at in self.introduced_at.values() if at >= day.start)
        new_allowed = max(0, NEW_PER_DAY - introduced_today)
        return srs.build_queue(
            memories,
            now,
            day,
            teaching_order=order,
            new_allowed=new_allowed,
            size=size,
            include=lambda key: True,
            **_optional(srs.build_queue, practice=practice, weights=self.weights),
        )

    def _due_or_soon(self, m: Any, now: dt.datetime, day: Any) -> bool:
        # memory._due_clause with ahead=LEARN_AHEAD (memory.due_memories).
        if m.state == self.srs.MemoryState.REVIEW:
            return m.due < day.end
        return m.due <= now + self.srs.LEARN_AHEAD

    # study.new_study_round + study.item + memory.record, for one session
    def session(self, start: dt.datetime, budget: int) -> dt.datetime:
        self._maybe_fit(start)
        now = start
        answered = 0
        practising = False
        while answered < budget:
            size = min(self.review.ROUND_SIZE, budget - answered)
            keys = self.queue(now, size, practising)
            if not keys and not practising and self.keep_practising:
                # Nothing due or new: the study home offers "Keep practising" (P-M8), and each
                # practice round's "Study more" practises again.
                practising = True
                keys = self.queue(now, size, practising)
            if not keys:
                break  # the study home says "All done for today" (nothing left to practise)
            self.rounds += 1
            seed = self.student.rng.getrandbits(62)
            memories = {k: self.memories[k] for k in keys if k in self.memories}
            recheck = self._recheck(keys)
            items = self.review.deal(
                keys,
                memories,
                self.deck,
                seed,
                multiple_choice=True,
                **_optional(self.review.deal, recheck=recheck),
            )
            token = f"review:s{self.rounds}"
            for index, item in enumerate(items, start=1):
                now = self._ask(item, seed, index, token, now)
                answered += 1
                self.answers += 1
        return now

    def _recheck(self, keys: list[str]) -> set[str]:
        """``memory.to_recheck``: the keys whose last answer was a right pick from offered options
        or a miss (``memory.picked_last``, a right pick only, in a checkout before)."""
        return {key for key in keys if key in self.picked_last}

    def _ask(self, item: Any, seed: int, index: int, token: str, now: dt.datetime) -> dt.datetime:
        srs, Form, Verdict = self.srs, self.Form, self.Verdict
        asked = self.review.question(item, self.deck, seed, index)
        key = item.fact.key
        answer = self.student.answer(
            key, now, item.form.value, asked.choices if item.form is Form.CHOICE else ()
        )
        if item.form is Form.CHOICE:
            picked = (
                asked.choices[answer.pick] if answer.pick is not None else self._right_choice(asked)
            )
            verdict = self.judge(asked, picked, self.deck).verdict
        else:
            verdict = Verdict(answer.verdict)
        outcome = srs.Outcome(
            fact_key=key,
            verdict=verdict,
            mode="review",
            form=item.form,
            round_token=token,
            item=str(index),
            answer="",
            duration_ms=answer.duration_ms,
        )
        before = self.memories.get(key)
        if before is not None and before.last_review is not None:
            predicted = srs.retrievability(
                before,
                now,
                **_optional(srs.retrievability, time_zone=TIME_ZONE, weights=self.weights),
            )
            self.calibration.append((predicted, answer.true_recall, verdict is not Verdict.WRONG))
        self._record(item.fact, outcome, before, now)
        return answer.next_at

    def _right_choice(self, asked: Any) -> str:
        """The option a student who recalls the fact picks (the first one the judge accepts)."""
        for option in asked.choices:
            if self.judge(asked, option, self.deck).verdict is self.Verdict.RIGHT:
                return option
        raise AssertionError(f"no right option for {asked.fact}")

    # memory._record_once + memory._write
    def _record(self, fact: Any, outcome: Any, before: Any, now: dt.datetime) -> None:
        srs = self.srs
        rating = self.last_rating = self._rate(fact, outcome)
        memory_before = before if before is not None else srs.new_memory(now)
        after = srs.schedule(
            memory_before,
            rating,
            now,
            desired_retention=RETENTION,
            seed=f"{outcome.round_token}:{outcome.item}",
            **_optional(srs.schedule, time_zone=TIME_ZONE, weights=self.weights),
        )
        if before is None:
            self.introduced_at[fact.key] = now
        self.memories[fact.key] = after
        self._log(fact, outcome)
        if self.fit is not None:
            self.log.append(
                self.fit.LoggedReview(fact.key, now, int(rating), self.is_strong(outcome.form))
            )

    # trainer/web/fitting.py: fit_student, run in the background after FIT_AFTER new answers
    def _maybe_fit(self, now: dt.datetime) -> None:
        """Fit the student's weights when enough answers came since the last try, as the app's
        background runner does after a request (so the next session uses the result), and
        reschedule every fact under adopted weights."""
        if self.fit is None or len(self.log) - self.logged_at_last_fit < self.fit_after:
            return
        self.logged_at_last_fit = len(self.log)
        # The class's prior: the pooled fit of the classmates' answers so far (fitting._class_priors).
        pooled = (
            self.fit.fit_pooled([(mate.log, TIME_ZONE) for mate in self.classmates])
            if self.classmates
            else None
        )
        priors = [("class 1", pooled)] if pooled is not None else []
        result = self.fit.fit(self.log, TIME_ZONE, self.weights, priors=priors)
        if not result.adopted:
            return
        self.weights = result.weights
        self.fits_adopted += 1
        self.memories.update(
            self.fit.rescheduled(
                self.memories,
                self.log,
                self.weights,
                desired_retention=RETENTION,
                time_zone=TIME_ZONE,
            )
        )

    def _rate(self, fact: Any, outcome: Any) -> Any:
        """``srs.rate`` called as ``memory._record_once`` calls it, in either policy the core has:
        with ``strong_before`` (issue 19: P-M5) or with the recent right-answer times (before it)."""
        srs = self.srs
        if "strong_before" in _accepts(srs.rate):
            strong_before = fact.key in self.strong_seen if srs.evidence_matters(outcome) else False
            return srs.rate(outcome, strong_before=strong_before)
        speed = self.speed_matters(outcome)
        recent = list(self.recent.get((fact.facet.value, outcome.form.value), ())) if speed else []
        return srs.rate(outcome, recent)

    def _log(self, fact: Any, outcome: Any) -> None:
        """What the review log would hold, as far as the path reads it back."""
        correct = outcome.verdict is not self.Verdict.WRONG
        strong = self.is_strong(outcome.form)
        if correct and strong:
            self.strong_seen.add(fact.key)
        # memory.to_recheck: the last answer was a right pick from offered options or a miss
        # (memory.picked_last before P-M6 took misses in: a right pick only).
        if correct and strong:
            self.picked_last.discard(fact.key)
        elif correct or self.recheck_misses:
            self.picked_last.add(fact.key)
        else:
            self.picked_last.discard(fact.key)
        if outcome.verdict is self.Verdict.RIGHT and outcome.duration_ms is not None:
            times = self.recent.setdefault((fact.facet.value, outcome.form.value), deque(maxlen=20))
            times.appendleft(outcome.duration_ms)

    def introduced(self) -> int:
        return len(self.memories)

    def difficulty(self) -> float | None:
        values = [m.difficulty for m in self.memories.values() if m.difficulty is not None]
        return statistics.median(values) if values else None


class AppNoFit(AppPath):
    """The app's study path with the default weights for everyone (before P-M10)."""

    name = "app-nofit"
    fits = False


def _fit_module() -> Any:
    """``trainer.fit`` of the checkout measured, or None in one from before P-M10 (the editable
    install could otherwise find this checkout's module beside an older ``srs``)."""
    from trainer import srs

    if not hasattr(srs, "DEFAULT_WEIGHTS"):
        return None
    from trainer import fit

    return fit


class AppStop(AppPath):
    """The app's study path as before P-M8: the student stops when the ordinary queue is empty."""

    name = "app-stop"
    keep_practising = False


def _fit_after() -> int:
    """How many new answers the checkout measured waits for before fitting again."""
    from trainer.web import fitting

    return int(getattr(fitting, "NEW_ANSWERS_FOR_A_FIT", FIT_AFTER))


def _recheck_misses() -> bool:
    """Whether the checkout measured asks a missed fact in a strong form next, as a right pick
    (``memory.to_recheck``), or only a right pick (``memory.picked_last``, before)."""
    from trainer.web import memory as web_memory

    return hasattr(web_memory, "to_recheck")


def _speed_matters_of(srs: Any) -> Callable[[Any], bool]:
    """``trainer.web.memory._speed_matters`` of the checkout measured, if it has one (only a
    grading policy with speed uses it)."""
    from trainer.web import memory as web_memory

    return getattr(web_memory, "_speed_matters", lambda outcome: False)  # type: ignore[no-any-return]


_DECK: list[Any] = []


def _deck(load_deck: Callable[[], Any]) -> Any:
    if not _DECK:
        _DECK.append(load_deck())
    return _DECK[0]


# --- Baselines --------------------------------------------------------------------------------


class FsrsPassFail:
    """Plain FSRS-6 with default weights: typed answers graded Again or Good."""

    name = "fsrs-passfail"

    def __init__(self, student: Student, keys: list[str]) -> None:
        from fsrs import Card, Rating, Scheduler, State

        self.Card, self.Rating, self.State = Card, Rating, State
        self.scheduler = Scheduler(desired_retention=RETENTION, enable_fuzzing=False)
        self.student = student
        self.order = keys
        self.cards: dict[str, Any] = {}
        self.introduced_at: dict[str, dt.datetime] = {}

    def _next(self, now: dt.datetime, day_end: dt.datetime, new_allowed: int) -> str | None:
        review = self.State.Review
        due = [
            (c.due, k)
            for k, c in self.cards.items()
            if (c.due < day_end if c.state == review else c.due <= now)
        ]
        if due:
            return min(due)[1]
        if new_allowed > 0:
            for key in self.order:
                if key not in self.cards:
                    return key
        soon = [
            (c.due, k)
            for k, c in self.cards.items()
            if c.state != review and c.due <= now + LEARN_AHEAD
        ]
        return min(soon)[1] if soon else None

    def session(self, start: dt.datetime, budget: int) -> dt.datetime:
        now = start
        day_start, day_end = _study_day(start)
        new_today = 0
        for _ in range(budget):
            key = self._next(now, day_end, NEW_PER_DAY - new_today)
            if key is None:
                break
            card = self.cards.get(key)
            if card is None:
                card = self.Card()
                new_today += 1
                self.introduced_at[key] = now
            answer = self.student.answer(key, now, "typed")
            rating = self.Rating.Again if answer.verdict == "wrong" else self.Rating.Good
            self.cards[key], _ = self.scheduler.review_card(card, rating, review_datetime=now)
            now = answer.next_at
        return now

    def introduced(self) -> int:
        return len(self.cards)

    def difficulty(self) -> float | None:
        values = [c.difficulty for c in self.cards.values() if c.difficulty is not None]
        return statistics.median(values) if values else None


class Leitner:
    """Five boxes, 1-2-4-8-16 study days; right moves up a box, wrong back to box 1. Typed."""

    name = "leitner"

    def __init__(self, student: Student, keys: list[str]) -> None:
        self.student = student
        self.order = keys
        #: key -> (box 0-4, study day index when due)
        self.boxes: dict[str, tuple[int, int]] = {}
        self.introduced_at: dict[str, dt.datetime] = {}

    def session(self, start: dt.datetime, budget: int) -> dt.datetime:
        today = (_study_day(start)[0].astimezone(ZoneInfo(TIME_ZONE)).date() - START).days
        due = sorted((box, day, key) for key, (box, day) in self.boxes.items() if day <= today)
        keys = [key for *_, key in due][:budget]
        keys += [k for k in self.order if k not in self.boxes][
            : min(NEW_PER_DAY, budget - len(keys))
        ]
        now = start
        for key in keys:
            if key not in self.boxes:
                self.introduced_at[key] = now
            answer = self.student.answer(key, now, "typed")
            box = (
                min(self.boxes[key][0] + 1, len(LEITNER_DAYS) - 1)
                if answer.verdict != "wrong" and key in self.boxes
                else 0
            )
            if key not in self.boxes and answer.verdict != "wrong":
                box = 1
            self.boxes[key] = (box, today + LEITNER_DAYS[box])
            now = answer.next_at
        return now

    def introduced(self) -> int:
        return len(self.boxes)

    def difficulty(self) -> float | None:
        return None


class Oracle:
    """Studies the facts with the lowest TRUE recall (under 0.9), then new ones, then the rest of the budget."""

    name = "oracle"

    def __init__(self, student: Student, keys: list[str]) -> None:
        self.student = student
        self.order = keys
        self.seen: set[str] = set()
        self.introduced_at: dict[str, dt.datetime] = {}

    def session(self, start: dt.datetime, budget: int) -> dt.datetime:
        t = self.student.seconds(start)
        ranked = sorted((self.student.learner.recall(k, t), k) for k in self.seen)
        weak = [k for p, k in ranked if p < ORACLE_THRESHOLD][:budget]
        new = [k for k in self.order if k not in self.seen][: min(NEW_PER_DAY, budget - len(weak))]
        rest = [k for _, k in ranked if k not in weak][: budget - len(weak) - len(new)]
        now = start
        for key in [*weak, *new, *rest]:
            if key not in self.seen:
                self.seen.add(key)
                self.introduced_at[key] = now
            now = self.student.answer(key, now, "typed").next_at
        return now

    def introduced(self) -> int:
        return len(self.seen)

    def difficulty(self) -> float | None:
        return None


def _study_day(at: dt.datetime) -> tuple[dt.datetime, dt.datetime]:
    """The study day (4 a.m. to 4 a.m. local) holding ``at``, in UTC, without the app's code."""
    tz = ZoneInfo(TIME_ZONE)
    local = at.astimezone(tz)
    date = local.date() if local.hour >= 4 else local.date() - dt.timedelta(days=1)
    start = dt.datetime.combine(date, dt.time(4), tzinfo=tz).astimezone(UTC)
    end = dt.datetime.combine(date + dt.timedelta(days=1), dt.time(4), tzinfo=tz).astimezone(UTC)
    return start, end


# --- One simulated student under one scheduler --------------------------------------------------


def _local(day: int, hours: float) -> dt.datetime:
    tz = ZoneInfo(TIME_ZONE)
    midnight = dt.datetime.combine(START + dt.timedelta(days=day), dt.time(0), tzinfo=tz)
    # Add wall-clock hours in local time (a daylight-saving day is 23 or 25 hours long).
    local = (midnight + dt.timedelta(hours=hours)).replace(tzinfo=None).replace(tzinfo=tz)
    return local.astimezone(UTC)


def fact_keys() -> list[str]:
    """The 400 fact keys in the app's teaching order (the order every scheduler introduces them)."""
    from trainer.cards import load_deck
    from trainer.facts import teaching_order

    return [fact.key for fact in teaching_order(_deck(load_deck))]


PATHS: dict[str, Callable[[Student, list[str]], Any]] = {
    "app": AppPath,
    "app-stop": AppStop,
    "app-nofit": AppNoFit,
    "fsrs-passfail": FsrsPassFail,
    "leitner": Leitner,
    "oracle": Oracle,
}


def run_one(
    task: tuple[str, str, tuple[int, ...], int, tuple[int, ...], int],
) -> list[dict[str, Any]]:
    """Simulate the class of students ``numbers`` under ``scheduler`` and memory ``model`` until the
    last report day."""
    model, scheduler, numbers, seed, days, budget = task
    results = simulate_class(model, PATHS[scheduler], numbers, seed, days, budget)
    for result in results:
        result["scheduler"] = scheduler
        if scheduler.startswith("app"):
            result["trainer"] = str(Path(sys.modules["trainer"].__file__).resolve().parent)
    return results


def simulate_student(
    model: str,
    path_class: Callable[[Student, list[str]], Any],
    number: int,
    seed: int,
    days: tuple[int, ...],
    budget: int,
) -> dict[str, Any]:
    """One student of the seeded population studying with ``path_class`` (a scheduler), alone."""
    return simulate_class(model, path_class, (number,), seed, days, budget)[0]


def simulate_class(
    model: str,
    path_class: Callable[[Student, list[str]], Any],
    numbers: tuple[int, ...],
    seed: int,
    days: tuple[int, ...],
    budget: int,
) -> list[dict[str, Any]]:
    """Students ``numbers`` of the seeded population, in one class, each studying with ``path_class``.

    Day by day, each student's session runs in the order of their study times, so a student's fit
    (P-M10) sees the class's answers given before it, and offers the pooled fit of the others as a
    prior, as ``trainer/web/fitting.py`` does. A student's own answers, study times and memory are
    the same whatever class they are in: only the app's fit reads the classmates.
    """
    from learners import make_learner  # bench/ is on sys.path (this script's directory)

    keys = fact_keys()
    epoch = _local(0, 0.0)
    members = []
    for number in numbers:
        learner = make_learner(model, keys, seed, number)
        student = Student(learner, random.Random(f"answers:{seed}:{model}:{number}"), epoch)
        when = random.Random(
            f"sessions:{seed}:{number}"
        )  # the same study times for every scheduler
        members.append(_Member(number, learner, student, path_class(student, keys), when))
    paths = [m.path for m in members]
    for member in members:
        if isinstance(member.path, AppPath):
            member.path.classmates = [p for p in paths if p is not member.path]
    for day in range(max(days) + 1):
        if day in days:
            for m in members:
                m.snapshots[day] = _snapshot(m.student, keys, _local(day, 12.0), m.path)
        if day == max(days):
            break
        starts = [(_local(day, m.when.uniform(*SESSION_HOURS)), i) for i, m in enumerate(members)]
        for start, i in sorted(starts):
            m = members[i]
            m.learner.session(m.student.seconds(start))
            end = m.path.session(start, budget)
            m.learner.end_session(m.student.seconds(end))
            if m.all_in is None and m.path.introduced() == len(keys):
                m.all_in = day + 1
    results = []
    for m in members:
        result: dict[str, Any] = {
            "model": model,
            "student": m.number,
            "snapshots": {str(d): s for d, s in m.snapshots.items()},
            "days_to_all": m.all_in,
            "trainer": None,
        }
        if isinstance(m.path, AppPath):
            result["calibration"] = _bins(m.path.calibration)
            result["fits_adopted"] = m.path.fits_adopted
        results.append(result)
    return results


@dataclass
class _Member:
    """One student of a simulated class: their memory, clock, study times and scheduler."""

    number: int
    learner: Any
    student: Student
    path: Any
    when: random.Random
    snapshots: dict[int, dict[str, Any]] = field(default_factory=dict)
    all_in: int | None = None


def _snapshot(student: Student, keys: list[str], at: dt.datetime, path: Any) -> dict[str, Any]:
    t = student.seconds(at)
    recall = [student.learner.recall(key, t) for key in keys]
    return {
        "at90": sum(p >= 0.9 for p in recall),
        "at80": sum(p >= 0.8 for p in recall),
        "mean": sum(recall) / len(recall),
        "introduced": path.introduced(),
        "difficulty": path.difficulty(),
    }


def _bins(rows: list[tuple[float, float, bool]]) -> list[list[float]]:
    """Per 0.1 bin of predicted recall: count, sum of predicted, sum of true, right answers."""
    bins = [[0, 0.0, 0.0, 0] for _ in range(10)]
    for predicted, true, right in rows:
        b = bins[min(9, int(predicted * 10))]
        b[0] += 1
        b[1] += predicted
        b[2] += true
        b[3] += right
    return bins


# --- Running and reporting ----------------------------------------------------------------------


def simulate(
    models: list[str],
    schedulers: list[str],
    students: int,
    seed: int,
    days: tuple[int, ...],
    jobs: int,
    budget: int = DAILY_BUDGET,
    class_size: int = CLASS_SIZE,
) -> list[dict[str, Any]]:
    """Every (model, scheduler, class of ``class_size`` students), in ``jobs`` processes."""
    classes = [
        tuple(range(first, min(first + class_size, students)))
        for first in range(0, students, class_size)
    ]
    tasks = [
        (m, s, numbers, seed, days, budget)
        for m in models
        for s in schedulers
        for numbers in classes
    ]
    if jobs <= 1:
        done = [run_one(task) for task in tasks]
    else:
        with Pool(jobs) as pool:
            done = pool.map(run_one, tasks, chunksize=1)
    return [result for results in done for result in results]


def simulate_other(repo: str, args: argparse.Namespace) -> list[dict[str, Any]]:
    """The ``app`` scheduler with the trainer package of the checkout at ``repo`` (a subprocess)."""
    command = [
        sys.executable, str(Path(__file__).resolve()), "--trainer", repo, "--json", "--schedulers", "app",
        "--students", str(args.students), "--seed", str(args.seed), "--jobs", str(args.jobs),
        "--budget", str(args.budget), "--class-size", str(args.class_size), "--model", *args.model,
        "--days", *map(str, args.days),
    ]  # fmt: skip
    done = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT)
    label = f"app@{Path(repo).name}"
    rows = json.loads(done.stdout)
    for row in rows:
        row["scheduler"] = label
    return rows


def _ci(values: list[float]) -> str:
    if not values:
        return "-"
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:+.1f}"
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+.1f} ± {half:.1f}"


def report(rows: list[dict[str, Any]], days: tuple[int, ...]) -> str:
    """The Markdown tables."""
    out: list[str] = []
    models = list(dict.fromkeys(r["model"] for r in rows))
    schedulers = list(dict.fromkeys(r["scheduler"] for r in rows))
    for model in models:
        mine = [r for r in rows if r["model"] == model]
        n = len({r["student"] for r in mine})
        out.append(f"\n### Memory model `{model}` ({n} students)\n")
        out.append(
            "| scheduler | day | facts ≥ 0.9 | share of oracle's | facts ≥ 0.8 | mean recall | introduced "
            "| days to introduce all 400 | median FSRS D |"
        )
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        ceiling = {day: _mean(mine, "oracle", day, "at90") for day in days}
        for name in schedulers:
            runs = [r for r in mine if r["scheduler"] == name]
            if not runs:
                continue
            for day in days:
                snaps = [r["snapshots"][str(day)] for r in runs]
                at90 = statistics.fmean(s["at90"] for s in snaps)
                share = f"{at90 / ceiling[day]:.0%}" if ceiling[day] else "-"
                diffs = [s["difficulty"] for s in snaps if s["difficulty"] is not None]
                difficulty = f"{statistics.median(diffs):.1f}" if diffs else "-"
                out.append(
                    f"| {name} | {day} | {at90:.1f} | {share} | {statistics.fmean(s['at80'] for s in snaps):.1f} "
                    f"| {statistics.fmean(s['mean'] for s in snaps):.3f} | {statistics.fmean(s['introduced'] for s in snaps):.0f} "
                    f"| {_days_to_all(runs, day)} | {difficulty} |"
                )
        out += _paired(mine, schedulers, days)
        for name in schedulers:
            runs = [r for r in mine if r["scheduler"] == name and "calibration" in r]
            if runs:
                out += _calibration(name, runs)
    return "\n".join(out)


def _mean(rows: list[dict[str, Any]], scheduler: str, day: int, measure: str) -> float | None:
    values = [r["snapshots"][str(day)][measure] for r in rows if r["scheduler"] == scheduler]
    return statistics.fmean(values) if values else None


def _days_to_all(runs: list[dict[str, Any]], day: int) -> str:
    """Mean days to introduce all 400 facts, over the students who had by ``day`` (and how many did)."""
    done = [
        r["days_to_all"] for r in runs if r["days_to_all"] is not None and r["days_to_all"] <= day
    ]
    if not done:
        return "not yet"
    mean = f"{statistics.fmean(done):.0f}"
    return mean if len(done) == len(runs) else f"{mean} ({len(done)}/{len(runs)} students)"


def _paired(rows: list[dict[str, Any]], schedulers: list[str], days: tuple[int, ...]) -> list[str]:
    apps = [s for s in schedulers if s.startswith("app")]
    pairs = [
        (a, b)
        for a in apps
        for b in schedulers
        if b != a
        and (
            b in ("leitner", "fsrs-passfail", "oracle")
            or (a == "app" and (b in ("app-stop", "app-nofit") or b.startswith("app@")))
        )
    ]
    if not pairs:
        return []
    by = {(r["scheduler"], r["student"]): r for r in rows}
    out = [
        "",
        "Paired differences (mean ± 1.96 SE over students), facts at recall ≥ 0.9 / ≥ 0.8:",
        "",
    ]
    out.append("| difference | day | facts ≥ 0.9 | facts ≥ 0.8 |")
    out.append("|---|---:|---:|---:|")
    for a, b in pairs:
        students = sorted(
            {s for (name, s) in by if name == a} & {s for (name, s) in by if name == b}
        )
        for day in days:
            d90 = [
                by[a, s]["snapshots"][str(day)]["at90"] - by[b, s]["snapshots"][str(day)]["at90"]
                for s in students
            ]
            d80 = [
                by[a, s]["snapshots"][str(day)]["at80"] - by[b, s]["snapshots"][str(day)]["at80"]
                for s in students
            ]
            out.append(f"| {a} − {b} | {day} | {_ci(d90)} | {_ci(d80)} |")
    return out


def _calibration(name: str, runs: list[dict[str, Any]]) -> list[str]:
    bins = [[sum(r["calibration"][i][j] for r in runs) for j in range(4)] for i in range(10)]
    total = sum(b[0] for b in bins) or 1
    out = [
        "",
        f"Calibration of `{name}` over all its reviews (predicted recall at review time vs true):",
        "",
    ]
    out.append("| predicted | reviews | share | mean predicted | mean true | answered right |")
    out.append("|---|---:|---:|---:|---:|---:|")
    for i, (count, predicted, true, right) in enumerate(bins):
        if count:
            out.append(
                f"| {i / 10:.1f}–{(i + 1) / 10:.1f} | {count} | {count / total:.1%} | {predicted / count:.3f} "
                f"| {true / count:.3f} | {right / count:.3f} |"
            )
    weighted = sum(abs(b[1] - b[2]) for b in bins) / total
    out.append(
        f"\nAll reviews: mean predicted {sum(b[1] for b in bins) / total:.3f}, mean true {sum(b[2] for b in bins) / total:.3f}, weighted |gap| {weighted:.3f}."
    )
    big = [
        (i, abs(b[1] - b[2]) / b[0])
        for i, b in enumerate(bins)
        if b[0] >= CALIBRATION_SHARE * total
    ]
    within = [i for i, gap in big if gap <= CALIBRATION_GAP]
    worst = max(big, key=lambda pair: pair[1], default=None)
    if worst is not None:
        out.append(
            f"Bins holding at least {CALIBRATION_SHARE:.0%} of reviews: {len(within)} of {len(big)} within {CALIBRATION_GAP} "
            f"(largest gap {worst[1]:.3f}, in {worst[0] / 10:.1f}–{(worst[0] + 1) / 10:.1f})."
        )
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=20)
    parser.add_argument(
        "--days",
        type=int,
        nargs="+",
        default=[90, 180],
        help="report days; the run lasts until the last",
    )
    parser.add_argument("--model", nargs="+", default=["hlr", "actr"], choices=["hlr", "actr"])
    parser.add_argument("--schedulers", nargs="+", default=list(SCHEDULERS), choices=SCHEDULERS)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--budget", type=int, default=DAILY_BUDGET, help="answers per day, every scheduler"
    )
    parser.add_argument(
        "--class-size",
        type=int,
        default=CLASS_SIZE,
        help="students per class (the fit's class prior); 1: alone",
    )
    parser.add_argument(
        "--repo",
        action="append",
        default=[],
        help="also run 'app' with this checkout's trainer package",
    )
    parser.add_argument("--trainer", help=argparse.SUPPRESS)  # internal: the subprocess of --repo
    parser.add_argument("--json", action="store_true", help="print the raw results as JSON")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(BENCH))
    sys.path.insert(0, args.trainer or str(ROOT))
    days = tuple(sorted(set(args.days)))
    started = time.perf_counter()
    if args.class_size < 1:
        parser.error("--class-size must be at least 1")
    rows = simulate(
        args.model,
        args.schedulers,
        args.students,
        args.seed,
        days,
        args.jobs,
        args.budget,
        args.class_size,
    )
    for repo in args.repo:
        rows += simulate_other(str(Path(repo).resolve()), args)
    if args.json:
        print(json.dumps(rows))
        return
    print(
        f"# Learning benchmark: {args.students} students in classes of {args.class_size}, days {', '.join(map(str, days))}, "
        f"budget {args.budget}/day, {NEW_PER_DAY} new/day"
    )
    used = sorted({f"`{r['scheduler']}`: {r['trainer']}" for r in rows if r.get("trainer")})
    print(
        f"\nseed {args.seed}; {time.perf_counter() - started:.0f} s; trainer package of {'; '.join(used) or '-'}."
    )
    print(report(rows, days))


if __name__ == "__main__":
    main()
