"""The simulation's engine: a learner's days and sessions, their memory (what ``record()`` does),
how they know and answer facts, and the dispatch to each mode's player. Pure Python.

Each mode's player lives in its own module of :mod:`trainer.simulate.modes` and registers
itself here by mode slug with :func:`plays` (and, if the mode plays whole sessions its own way,
:func:`plays_sessions`), so a new mode needs no edit to this module.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any
from zoneinfo import ZoneInfo

from trainer import srs
from trainer.cards import Deck, StateCard, Zone, load_deck
from trainer.facts import (
    NONE_OF_THEM,
    Facet,
    Fact,
    Form,
    Judgement,
    Question,
    UnreadableAnswer,
    Verdict,
    dont_know,
    judge,
    teaching_order,
)
from trainer.facts.answers import ordinal
from trainer.modes import MODES
from trainer.simulate.history import LATE_DAYS, History, Task
from trainer.simulate.learner import REVIEW, Learner, make_learner

UTC = dt.UTC

#: A mode's player: (the simulation, the mode's slug, when the round starts, the assignment it is
#: started from or None for one of the learner's own choice) -> when the round ends, and its review
#: log round token (None: nothing to practise).
Play = Callable[["Simulation", str, dt.datetime, Task | None], tuple[dt.datetime, str | None]]
#: A whole session of an activity played its own way: (the simulation, when it starts).
SessionPlay = Callable[["Simulation", dt.datetime], None]
#: Each mode's player, by mode slug (and :data:`trainer.simulate.learner.CARD_GAME`: a card game
#: of the learner's choice).
PLAYS: dict[str, Play] = {}
#: The activities whose sessions are not a few rounds of :data:`PLAYS` (flashcard review).
SESSIONS: dict[str, SessionPlay] = {}
_CANNOT = "The simulator cannot play {!r}: register its player in trainer.simulate.modes."


def plays(*slugs: str) -> Callable[[Play], Play]:
    """Register the decorated function as the player of the modes ``slugs``.

    Raises:
        ValueError: one of them has a player already.
    """

    def register(play: Play) -> Play:
        for slug in slugs:
            if slug in PLAYS:
                raise ValueError(f"The simulator plays {slug!r} already.")
            PLAYS[slug] = play
        return play

    return register


def plays_sessions(activity: str) -> Callable[[SessionPlay], SessionPlay]:
    """Register the decorated function as the player of whole sessions of ``activity`` (an
    :data:`trainer.simulate.learner.ACTIVITY_MIX` name)."""

    def register(play: SessionPlay) -> SessionPlay:
        SESSIONS[activity] = play
        return play

    return register


#: A new fact's chance of being known already, as a log-odds, by facet (before ability and difficulty).
_PRIOR = {
    Facet.MAP: 0.2,
    Facet.CAPITAL: -1.2,
    Facet.POSTAL: -0.6,
    Facet.BORDERS: -1.6,
    Facet.ZONE: -0.4,
    Facet.SIZE: -2.8,
    Facet.STATEHOOD: -3.2,
    Facet.POPULATION: -2.8,
}
#: Typical seconds to answer, by facet, typed (multiple choice and map clicks are quicker).
_SECONDS = {
    Facet.MAP: 6.0,
    Facet.CAPITAL: 7.5,
    Facet.POSTAL: 4.0,
    Facet.BORDERS: 22.0,
    Facet.ZONE: 4.5,
    Facet.SIZE: 6.0,
    Facet.STATEHOOD: 6.5,
    Facet.POPULATION: 6.0,
}
_CHOICE_BONUS = 1.3  # log-odds: recognising is easier than recalling
_MAINLAND = (Zone.EASTERN, Zone.CENTRAL, Zone.MOUNTAIN, Zone.PACIFIC)


def simulate(
    deck: Deck,
    index: int,
    *,
    seed: int = 1,
    days: int = 90,
    end: dt.datetime,
    time_zone: str = "America/Chicago",
    namespace: str = "",
    tasks: tuple[Task, ...] = (),
    extra_mix: tuple[tuple[str, float], ...] = (),
) -> History:
    """The history of learner ``index`` over the ``days`` study days that end with the one holding ``end``.

    Nothing happens at or after ``end`` (UTC). ``namespace`` only changes the round tokens (and
    with them the seeded fuzz of the schedules), so two demo schools never share a token.
    ``tasks`` are the assignments the learner's teacher set. ``extra_mix`` adds activities to the
    learner's own sessions (:func:`~trainer.simulate.learner.make_learner`; the demo school adds
    Combo 1 matches); without it, the history is the same as ever.
    """
    if end.tzinfo is None or end.utcoffset() != dt.timedelta(0):
        raise ValueError("end must be timezone-aware UTC")
    learner = make_learner(seed, index, days, time_zone, extra_mix)
    return Simulation(deck, learner, seed, days, end, namespace, tasks).run()


def simulate_round(
    deck: Deck,
    slug: str,
    at: dt.datetime,
    *,
    seed: int = 1,
    index: int = 0,
    task: Task | None = None,
) -> History:
    """One round of mode ``slug`` (a :data:`trainer.modes.MODES` slug), started at ``at`` by learner
    ``index`` from an assignment ``task`` (by default one for the whole deck): what the app would
    store of it. The registry's conformance test plays every mode with it.

    Raises:
        ValueError: the simulator cannot play ``slug``.
    """
    learner = make_learner(seed, index, 1)
    task = task or Task((slug,), at, at + dt.timedelta(days=1), rounds=1)
    simulation = Simulation(deck, learner, seed, 1, at + dt.timedelta(days=1), "", (task,))
    simulation._enter_day(at)
    _end, token = simulation._task_round(slug, at, task)
    if token is not None:
        simulation.history.assignment_rounds.append(
            {"task": 0, "activity": slug, "round_token": token, "created_at": at}
        )
    simulation._finish()
    return simulation.history


_DECKS: dict[str, Deck] = {}


def simulate_task(task: tuple[str, int, dict[str, Any]]) -> History:
    """:func:`simulate` in a worker process: ``(data_dir, index, keyword arguments)``.

    The deck is loaded from ``data_dir`` once per process.
    """
    data_dir, index, kwargs = task
    deck = _DECKS.get(data_dir)
    if deck is None:
        deck = _DECKS[data_dir] = load_deck(data_dir)
    return simulate(deck, index, **kwargs)


# --- Facts: difficulty and nearby states ------------------------------------------------------


@dataclass(frozen=True)
class _DeckInfo:
    difficulty: dict[str, float]
    near: dict[str, tuple[str, ...]]  # every other state, nearest first
    teaching: tuple[str, ...]
    facet_of: dict[str, Facet]
    same_letter: dict[str, tuple[str, ...]]
    cards: dict[str, StateCard]
    neighbours: dict[str, tuple[str, ...]]


@cache
def _deck_info(deck: Deck) -> _DeckInfo:
    shapes = deck.geometry.shapes
    near = {}
    for state in deck:
        x0, y0 = shapes[state.postal].centroid
        others = sorted(
            (s.postal for s in deck if s != state),
            key=lambda p: (math.dist((x0, y0), shapes[p].centroid), p),
        )
        near[state.postal] = tuple(others)
    difficulty: dict[str, float] = {}
    for state in deck:
        for facet in Facet:
            key = Fact(state.postal, facet).key
            jitter = random.Random(f"difficulty:{key}").gauss(0.0, 0.35)
            difficulty[key] = _difficulty(deck, state, facet) + jitter
    teaching = tuple(f.key for f in teaching_order(deck))
    return _DeckInfo(
        difficulty=difficulty,
        near=near,
        teaching=teaching,
        facet_of={key: Fact.from_key(key).facet for key in teaching},
        same_letter={
            s.postal: tuple(o.postal for o in deck if o.postal[0] == s.postal[0] and o != s)
            for s in deck
        },
        cards={s.postal: s for s in deck},
        neighbours={s.postal: tuple(n.postal for n in deck.neighbours(s)) for s in deck},
    )


def _difficulty(deck: Deck, state: StateCard, facet: Facet) -> float:
    """How much harder than usual a fact is, in log-odds: small, crowded or middling states are harder."""
    famous = state.population_rank <= 8 or state.size_rank <= 5
    if facet is Facet.MAP:
        return (
            (0.9 if deck.map_card(state.postal).needs_callout else 0.0)
            + (0.5 if state.size_rank > 40 else 0.0)
            - (0.6 if famous else 0.0)
        )
    if facet is Facet.CAPITAL:
        return 0.2 - (0.4 if famous else 0.0)
    if facet is Facet.POSTAL:
        # The "M" states (MA, MD, ME, MI, MN, MO, MS, MT) and other shared first letters are the classic mix-ups.
        crowded = sum(1 for s in deck if s.postal[0] == state.postal[0]) - 1
        return 0.15 * crowded - (0.3 if state.postal == state.name[:2].upper() else 0.0)
    if facet is Facet.BORDERS:
        count = len(deck.neighbours(state))
        return -2.0 if count == 0 else 0.12 * max(0, count - 3)
    if facet is Facet.ZONE:
        return 0.6 if state.secondary_zones else 0.0
    rank = state.rank(facet.ranking)
    extreme = min(rank - 1, 50 - rank)  # the first and last few are remembered
    return -1.2 if extreme < 3 else (0.0 if extreme < 10 else 0.5)


def _token(namespace: str, index: int, kind: str, n: int, size: int = 18) -> str:
    """A URL-safe token unique to (namespace, learner, kind, n): 24 characters for 18 bytes."""
    digest = hashlib.blake2b(f"{namespace}|{index}|{kind}|{n}".encode(), digest_size=size).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _slip(text: str, rng: random.Random) -> str:
    """``text`` with one letter dropped (a spelling slip), if it is long enough to be forgiven.

    The slip is one of two per word (the usual ones), so the judge's verdicts can be cached.
    """
    letters = [i for i, ch in enumerate(text) if ch.isalpha()]
    if len(letters) < 6:
        return text
    i = letters[len(letters) // 2 if rng.random() < 0.5 else len(letters) - 2]
    return text[:i] + text[i + 1 :]


@lru_cache(maxsize=65536)
def _judge(deck: Deck, fact: Fact, form: Form, text: str | None) -> Judgement:
    """The real judge's verdict (answers repeat a lot, and judging folds Unicode: it is cached)."""
    if text is None:
        return dont_know(fact, deck)
    question = Question(fact, form, "", choices=(text,) if form is Form.CHOICE else ())
    try:
        return judge(question, text, deck)
    except UnreadableAnswer:  # pragma: no cover - the texts made here are all readable
        return dont_know(fact, deck)


def near_rank(rank: int, rng: random.Random, low: int, high: int) -> int:
    """A rank ``low`` to ``high`` away from ``rank``, within 1-50."""
    options = [r for d in range(low, high + 1) for r in (rank - d, rank + d) if 1 <= r <= 50]
    return rng.choice(options)


class Simulation:
    """One learner's simulated study over a period: :meth:`run` lives their days."""

    def __init__(
        self,
        deck: Deck,
        learner: Learner,
        seed: int,
        days: int,
        end: dt.datetime,
        namespace: str,
        tasks: tuple[Task, ...],
    ) -> None:
        self.deck = deck
        self.info = _deck_info(deck)
        self.learner = learner
        self.rng = random.Random(f"simulate:{seed}:{learner.index}")
        self.days = days
        self.end = end
        self.namespace = namespace
        self.tz = ZoneInfo(learner.time_zone)
        self.history = History(learner)
        self.memory: dict[str, srs.Memory] = {}
        # Each fact's due time as a number, and whether it is in review (the queue scans these often).
        self.due_at: dict[str, tuple[bool, float]] = {}
        self.introduced_at: dict[str, dt.datetime] = {}
        # The study day of each fact's last review (memory_card.last_study_day, as memory._write writes it).
        self.last_study_day: dict[str, dt.date] = {}
        self.new_order: list[str] = list(self.info.teaching)
        self.new_order_size = 0
        # What the learner's answers have shown (P-M4..P-M6, as memory._strong_before and
        # memory.to_recheck read the review log): facts answered right or close in a strong form,
        # and facts whose last answer was a right pick or a miss.
        self.proven: set[str] = set()
        self.picked: set[str] = set()
        self.last_at: dt.datetime | None = None
        self.counters: dict[str, int] = {}
        self.day: srs.StudyDay | None = None
        self.introduced_today = 0
        self.tasks = tasks
        self.task_rounds = [0] * len(tasks)

    # --- days and sessions ---------------------------------------------------------------------

    def run(self) -> History:
        learner = self.learner
        last_day = srs.study_day(self.end, self.tz).date
        first_day = last_day - dt.timedelta(days=self.days - 1)
        studied_yesterday = False
        for n in range(self.days):
            date = first_day + dt.timedelta(days=n)
            if n < learner.starts_after or (
                learner.stops_after is not None and n > learner.stops_after
            ):
                studied_yesterday = False
                continue
            weekend = date.weekday() >= 5
            chance = learner.weekend_rate if weekend else learner.weekday_rate
            if studied_yesterday:
                chance = min(0.98, chance * 1.15)  # habits: a streak tends to go on
            if n == learner.starts_after:
                chance = 1.0  # the day they start, they study
            if self.rng.random() >= chance:
                studied_yesterday = False
                continue
            studied_yesterday = True
            for start in self._session_starts(date, weekend):
                if start >= self.end:
                    break
                self._session(start)
        self._finish()
        return self.history

    def _session_starts(self, date: dt.date, weekend: bool) -> list[dt.datetime]:
        """When the learner sits down to study on ``date``: one to three sessions, in UTC."""
        rng = self.rng
        count = (
            1
            + (rng.random() < (0.45 if self.learner.kind == "keen" else 0.2))
            + (rng.random() < 0.08)
        )
        if weekend:
            hour = rng.uniform(9.0, 17.0)
        elif rng.random() < 0.25:
            hour = rng.uniform(9.0, 14.5)  # in class, the teacher's lesson
        else:
            hour = rng.uniform(15.5, 20.0)
        starts = []
        for _ in range(count):
            if hour > 21.5:
                break
            local = dt.datetime.combine(date, dt.time(0), tzinfo=self.tz) + dt.timedelta(hours=hour)
            starts.append(local.astimezone(UTC))
            hour += rng.uniform(1.0, 4.0)
        return starts

    def _session(self, start: dt.datetime) -> None:
        if self.last_at is not None and start <= self.last_at:
            return  # the last session ran long: this one is skipped
        self._enter_day(start)
        rng = self.rng
        task = self._open_task(start)
        if task is not None:
            self._task_session(start, task)
            return
        activities, weights = zip(*self.learner.mix)
        activity = REVIEW if len(self.memory) < 15 else rng.choices(activities, weights)[0]
        session = SESSIONS.get(activity)
        if session is not None:
            session(self, start)
            return
        at = start
        for _ in range(rng.choice((1, 1, 2, 3))):
            if at + dt.timedelta(minutes=30) >= self.end:
                return
            self._enter_day(at)
            at = self._free_round(activity, at)
            at += dt.timedelta(seconds=rng.uniform(10, 60))

    def _open_task(self, start: dt.datetime) -> int | None:
        """The assignment this session goes to, if any: open, unfinished, and the learner diligent today."""
        open_tasks = [
            i
            for i, task in enumerate(self.tasks)
            if task.starts_at <= start < task.due_at + dt.timedelta(days=LATE_DAYS)
            and self.task_rounds[i] < task.rounds
        ]
        if not open_tasks or len(self.memory) < 15:
            return None
        i = self.rng.choice(open_tasks)
        late = start >= self.tasks[i].due_at
        return i if self.rng.random() < self.learner.diligence * (0.4 if late else 1.0) else None

    def _task_session(self, start: dt.datetime, i: int) -> None:
        """A round or a few started from assignment ``i``, dealt from its scope."""
        task = self.tasks[i]
        at = start
        for _ in range(self.rng.choice((1, 1, 2, 2, 3))):
            if self.task_rounds[i] >= task.rounds or at + dt.timedelta(minutes=30) >= self.end:
                return
            self._enter_day(at)
            slug = self.rng.choice(task.activities)
            began = at
            at, round_token = self._task_round(slug, at, task)
            if round_token is None:
                return
            self.history.assignment_rounds.append(
                {"task": i, "activity": slug, "round_token": round_token, "created_at": began}
            )
            self.task_rounds[i] += 1
            at += dt.timedelta(seconds=self.rng.uniform(10, 60))

    def _free_round(self, activity: str, at: dt.datetime) -> dt.datetime:
        """A round of ``activity`` (an :data:`ACTIVITY_MIX` name: a mode's review log mode, or
        :data:`CARD_GAME`; or, from a learner's ``extra_mix``, the slug of a mode that logs no
        answers of its own) of the learner's own choice, by its mode's player (:data:`PLAYS`).

        Raises:
            ValueError: the simulator cannot play ``activity``.
        """
        mode = MODES.by_log_mode(activity)
        play = PLAYS.get(mode.slug if mode is not None else activity)
        if play is None:
            raise ValueError(_CANNOT.format(activity))
        return play(self, mode.slug if mode is not None else activity, at, None)[0]

    def _task_round(self, slug: str, at: dt.datetime, task: Task) -> tuple[dt.datetime, str | None]:
        """A round of mode ``slug`` started from ``task``, dealt from its scope as the assignment
        page deals it, by its mode's player (:data:`PLAYS`): when it ends, and its review log round
        token (None: nothing to practise).

        Raises:
            ValueError: the simulator cannot play ``slug``.
        """
        play = PLAYS.get(slug)
        if play is None:
            raise ValueError(_CANNOT.format(slug))
        return play(self, slug, at, task)

    def _enter_day(self, now: dt.datetime) -> None:
        if self.day is None or not self.day.start <= now < self.day.end:
            self.day = srs.study_day(now, self.tz)
            self.introduced_today = sum(
                1 for at in self.introduced_at.values() if at >= self.day.start
            )

    def _count(self, kind: str) -> int:
        self.counters[kind] = self.counters.get(kind, 0) + 1
        return self.counters[kind]

    def _new_token(self, kind: str, size: int = 18) -> str:
        return _token(self.namespace, self.learner.index, kind, self._count(kind), size)

    # --- the memory model (what record() does) ------------------------------------------------

    def _record(
        self,
        key: str,
        verdict: Verdict,
        mode: str,
        form: Form,
        round_token: str,
        item: str,
        now: dt.datetime,
        *,
        answer: str = "",
        duration_ms: int | None = None,
        help: srs.Help = srs.Help.NONE,
        answered_postal: str | None = None,
    ) -> None:
        if self.last_at is not None and now <= self.last_at:
            now = self.last_at + dt.timedelta(milliseconds=1)
        self.last_at = now
        if self.day is None or not self.day.start <= now < self.day.end:
            self._enter_day(now)
        assert self.day is not None
        facet = self.info.facet_of[key]
        outcome = srs.Outcome(
            key, verdict, mode, form, round_token, item, answer, duration_ms, help, answered_postal
        )
        rating = srs.rate(outcome, strong_before=key in self.proven)
        before = self.memory.get(key)
        after = srs.schedule(
            before if before is not None else srs.new_memory(now),
            rating,
            now,
            desired_retention=self.learner.desired_retention,
            seed=f"{round_token}:{item}",
            time_zone=self.tz,
        )
        self.memory[key] = after
        self.last_study_day[key] = self.day.date
        self.due_at[key] = (after.state is srs.MemoryState.REVIEW, after.due.timestamp())
        if before is None:
            self.introduced_at[key] = now
            self.introduced_today += 1
        correct = verdict is not Verdict.WRONG
        if correct and srs.is_strong(form):
            self.proven.add(key)
        if correct and srs.is_strong(form):
            self.picked.discard(key)
        else:
            self.picked.add(key)
        self.history.reviews.append(
            {
                "fact_key": key,
                "facet": facet.value,
                "rating": int(rating),
                "verdict": verdict.value,
                "correct": verdict is not Verdict.WRONG,
                "help": help.value,
                "mode": mode,
                "form": form.value,
                "answer": answer[:200],
                "answered_postal": answered_postal,
                "duration_ms": duration_ms,
                "reviewed_at": now,
                "study_day": self.day.date,
                "round_token": round_token,
                "item": item,
                "due_after": after.due,
                "stability_after": after.stability,
            }
        )
        if self.history.first_active is None:
            self.history.first_active = now

    def _finish(self) -> None:
        self.history.last_active = self.last_at
        for key, memory in self.memory.items():
            self.history.cards[key] = {
                "fact_key": key,
                "facet": self.info.facet_of[key].value,
                "state": int(memory.state),
                "step": memory.step,
                "stability": memory.stability,
                "difficulty": memory.difficulty,
                "due": memory.due,
                "last_review": memory.last_review,
                "last_study_day": self.last_study_day[key],
                "lapses": memory.lapses,
                "reps": memory.reps,
                "introduced_at": self.introduced_at[key],
            }

    def _queue(
        self,
        now: dt.datetime,
        size: int,
        facets: frozenset[Facet] | None = None,
        postals: frozenset[str] | None = None,
    ) -> list[str]:
        """The app's queue (memory.queue): due facts and steps due soon, then new ones, within the focus."""
        assert self.day is not None
        day_end = self.day.end.timestamp()
        soon = (now + srs.LEARN_AHEAD).timestamp()
        memory = self.memory
        due = {
            key: memory[key]
            for key, (in_review, at) in self.due_at.items()
            if (at < day_end if in_review else at <= soon)
        }
        if self.new_order_size != len(self.memory):
            self.new_order = [key for key in self.new_order if key not in self.memory]
            self.new_order_size = len(self.memory)
        facet_of = self.info.facet_of
        include = None
        if facets is not None or postals is not None:

            def include(key: str) -> bool:
                return (facets is None or facet_of[key] in facets) and (
                    postals is None or key[:2] in postals
                )

        return srs.build_queue(
            due,
            now,
            self.day,
            teaching_order=self.new_order,
            new_allowed=max(0, self.learner.new_per_day - self.introduced_today),
            size=size,
            include=include,
        )

    # --- knowing a fact -------------------------------------------------------------------------

    def _chance(self, key: str, now: dt.datetime, form: Form = Form.TYPED) -> float:
        """The chance the learner answers ``key`` right now: their memory, ability and the fact's difficulty."""
        memory = self.memory.get(key)
        ability = self.learner.ability
        difficulty = self.info.difficulty[key]
        if memory is None:
            logit = _PRIOR[self.info.facet_of[key]] + ability - difficulty
        elif memory.state is not srs.MemoryState.REVIEW:
            # Still in (re)learning steps: seen minutes or hours ago.
            logit = 0.6 + 0.35 * min(memory.reps, 4) + 0.7 * ability - 0.6 * difficulty
        else:
            r = min(
                0.995, max(0.02, srs.recall(memory.stability, memory.last_review, now, self.tz))
            )
            logit = math.log(r / (1.0 - r)) + 0.5 * (ability - difficulty)
        if form is Form.CHOICE:
            logit += _CHOICE_BONUS
        return _logistic(logit)

    def _duration_ms(self, key: str, form: Form, right: bool) -> int:
        facet = self.info.facet_of[key]
        seconds = _SECONDS[facet]
        if form is Form.CHOICE:
            seconds = min(seconds, 5.0) * 0.8
        elif form is Form.MAP_CLICK:
            seconds = 4.0
        memory = self.memory.get(key)
        if memory is None or memory.stability is None:
            seconds *= 1.3
        else:
            seconds *= 1.1 - 0.35 * min(1.0, memory.stability / 30.0)
        if not right:
            seconds *= 1.3
        seconds *= self.learner.speed * math.exp(self.rng.gauss(0.0, 0.4))
        return int(min(120_000, max(700, seconds * 1000)))

    def _answer_text(self, fact: Fact, form: Form, knows: bool) -> str | None:
        """What the learner types, picks or clicks; None for "I don't know"."""
        rng = self.rng
        deck = self.deck
        state = self.info.cards[fact.postal]
        facet = fact.facet
        if knows:
            slip = form is Form.TYPED and rng.random() < 0.07
            if facet is Facet.MAP:
                return (
                    state.postal
                    if form is Form.MAP_CLICK
                    else (_slip(state.name, rng) if slip else state.name)
                )
            if facet is Facet.CAPITAL:
                return _slip(state.capital, rng) if slip else state.capital
            if facet is Facet.POSTAL:
                return state.postal
            if facet is Facet.BORDERS:
                neighbours = deck.neighbours(state)
                if form is Form.CHOICE:
                    return rng.choice(neighbours).name if neighbours else NONE_OF_THEM
                if not neighbours:
                    return "none"
                names = [n.name for n in neighbours]  # by name, as the card lists them
                if slip and len(names) > 1:
                    names[0] = _slip(names[0], rng)
                return ", ".join(names)
            if facet is Facet.ZONE:
                return state.zone.value
            rank = state.rank(facet.ranking)
            if form is Form.CHOICE:
                return ordinal(rank)
            return str(near_rank(rank, rng, 1, 2)) if slip else str(rank)
        if form is not Form.CHOICE and rng.random() < 0.25:
            return None
        return self._wrong_text(fact, form, state)

    def _wrong_text(self, fact: Fact, form: Form, state: StateCard) -> str:
        rng = self.rng
        cards = self.info.cards
        facet = fact.facet
        near = self.info.near[state.postal]
        neighbours = self.info.neighbours[state.postal]
        # The likeliest mix-up: a neighbouring state (or, for an island, the nearest ones).
        mixed_up = cards[
            rng.choice(neighbours) if neighbours and rng.random() < 0.8 else rng.choice(near[:4])
        ]
        if facet is Facet.MAP:
            return mixed_up.postal if form is Form.MAP_CLICK else mixed_up.name
        if facet is Facet.CAPITAL:
            return mixed_up.capital
        if facet is Facet.POSTAL:
            same = self.info.same_letter[state.postal]
            return (cards[rng.choice(same)] if same and rng.random() < 0.6 else mixed_up).postal
        if facet is Facet.BORDERS:
            others = [p for p in near[:8] if p not in neighbours]
            if form is Form.CHOICE or not neighbours:
                return cards[rng.choice(others)].name
            if len(neighbours) >= 2 and rng.random() < 0.5:  # some of them, and a wrong one: close
                named = [*neighbours[: max(1, len(neighbours) // 2)], others[0]]
                return ", ".join(cards[p].name for p in named)
            return cards[rng.choice(others)].name
        if facet is Facet.ZONE:
            if state.secondary_zones and rng.random() < 0.5:
                return rng.choice(state.secondary_zones).value
            if state.zone in _MAINLAND:
                i = _MAINLAND.index(state.zone)
                return _MAINLAND[i + 1 if i == 0 or (i < 3 and rng.random() < 0.5) else i - 1].value
            return Zone.PACIFIC.value
        rank = state.rank(facet.ranking)
        if form is Form.CHOICE:
            return ordinal(near_rank(rank, rng, 3, 9))
        if rng.random() < 0.4:
            return str(near_rank(rank, rng, 1, 2))
        return str(near_rank(rank, rng, 3, 12))

    def _judged(self, fact: Fact, form: Form, text: str | None) -> Judgement:
        """The real judge's verdict on ``text`` (for multiple choice, ``text`` is the option picked)."""
        return _judge(self.deck, fact, form, text)
