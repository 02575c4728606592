"""Simulated learners: seeded review histories for demo schools and benchmark databases.

Pure Python (no Flask, no database). A :class:`Learner` is drawn from ``(seed, index)``: an
ability, a speed, study habits (some study most days, some rarely; weekends are lighter; a few
start late or drop off). :func:`simulate` then lives their days and returns what the app would
have stored, as plain dicts keyed by column name:

- review rounds dealt from the queue exactly as the study page deals them (:func:`srs.build_queue`,
  :func:`trainer.review.deal`: due facts first, then new ones in teaching order up to the daily
  limit), answered right with about the predicted recall (:func:`srs.recall`) shifted by the
  learner's ability and the fact's difficulty, judged by the real judges of :mod:`trainer.facts`,
  rated by :func:`srs.rate` and scheduled by :func:`srs.schedule` with the seed ``record()``
  uses, so the memory cards are the replay of the review log;
- games played with the real rules: State IQ, Dashing States and Border-Up races against the
  seeded computer teams, and card games (mostly in drill mode) against computer players, each
  with its stored record and the reviews its answers make.

Wrong answers are realistic: a map or capital is mistaken for a neighbouring state's, a postal
code for another with the same first letter, a rank is one or two off (close) or further.
Learners given :class:`Task` s (their teacher's assignments) work on them, some diligently.

The same arguments always give the same history (in any process, whatever the hash seed).
Speed matters (the benchmark school has a million reviews): the queue scans plain due times,
and the judge's verdicts are cached, since the same answers come back again and again.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import math
import random
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any
from zoneinfo import ZoneInfo

from trainer import srs
from trainer.cards import Category, Deck, StateCard, Zone, load_deck
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
from trainer.games import Level as GameLevel
from trainer.games import RandomPlayer, RulePlayer, make_game, play_computer_turns
from trainer.games.base import Params, State
from trainer.games.drill import (
    DrillAnswer,
    judge_announced,
    judge_clash_worst,
    judge_follow,
    judge_lead,
    judge_toss_beats,
    judge_toss_zone,
)
from trainer.games.geoclash_down_back import ClashState
from trainer.games.geoplunge_51 import FiftyOneState
from trainer.games.geopower_toss import TossState
from trainer.games.play_the_ranks import RanksState
from trainer.quiz import border_up, dashing_states
from trainer.quiz.race import SAME_MOMENT, race
from trainer.quiz.race import Level as RaceLevel
from trainer.quiz.state_iq import (
    CLUE_FACETS,
    Move,
    Side,
    StateIQ,
    first_guesser_by_draw,
    student_answers,
)
from trainer.quiz.state_iq import Level as IqLevel
from trainer.review import ROUND_SIZE, deal

UTC = dt.UTC

REVIEW = "review"
STATE_IQ = "state_iq"
DASHING = "dashing_states"
BORDER_UP = "border_up"
CARD_GAME = "card_game"
#: The card games a learner plays; all but Geography War in drill mode (its drill is a long war).
DRILL_GAMES = ("geoplunge-51", "play-the-ranks", "geopower-toss", "geoclash-down-back")
WAR = "geography-war"
#: The review log's mode of each card game (as trainer.assignments names it).
GAME_MODES = {slug: slug.replace("-", "_") for slug in (*DRILL_GAMES, WAR)}
#: The facets a State IQ deal and a Dashing States deal are drawn from (as the web layer does).
STATE_IQ_FACETS = frozenset({Facet.POSTAL, Facet.BORDERS, Facet.CAPITAL})
DASHING_FACETS = frozenset({Facet.MAP, Facet.CAPITAL})

#: The kinds of learner, with how likely each is, and their chance of studying on a weekday.
KINDS = (
    ("keen", 0.2, 0.85),
    ("regular", 0.4, 0.6),
    ("occasional", 0.28, 0.32),
    ("rare", 0.12, 0.1),
)
#: Study on a weekend is this much less likely than on a weekday.
WEEKEND_FACTOR = 0.45
#: The usual mix of activities in a session (each learner's own mix varies around it).
ACTIVITY_MIX = (
    (REVIEW, 0.72),
    (STATE_IQ, 0.08),
    (DASHING, 0.07),
    (BORDER_UP, 0.06),
    (CARD_GAME, 0.07),
)

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


# --- The learner ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Learner:
    """One simulated student: who they are and how they study, drawn from ``(seed, index)``."""

    index: int
    kind: str
    #: Log-odds added to every chance of knowing a fact (0 is typical).
    ability: float
    #: Multiplies every answer time (below 1 is quicker).
    speed: float
    weekday_rate: float
    weekend_rate: float
    #: Days into the period before their first study, and the day after which they stop (None: never).
    starts_after: int
    stops_after: int | None
    time_zone: str
    desired_retention: float
    new_per_day: int
    multiple_choice: bool
    #: (activity, weight) of the sessions they choose.
    mix: tuple[tuple[str, float], ...]
    race_level: str
    game_level: str
    iq_level: str
    #: The chance that a session, while an assignment is open and unfinished, goes to it.
    diligence: float


def make_learner(seed: int, index: int, days: int, time_zone: str = "America/Chicago") -> Learner:
    """The learner ``index`` of a school seeded ``seed``, for a period of ``days`` days."""
    rng = random.Random(f"learner:{seed}:{index}")
    roll = rng.random()
    kind, rate = KINDS[-1][0], KINDS[-1][2]
    for name, share, weekday in KINDS:
        if roll < share:
            kind, rate = name, weekday
            break
        roll -= share
    weekday_rate = min(0.97, max(0.03, rate + rng.uniform(-0.08, 0.08)))
    ability = rng.gauss(0.3, 0.8) + (0.3 if kind == "keen" else 0.0)
    speed = math.exp(rng.gauss(0.0, 0.25) - 0.1 * ability)
    starts_after = 0 if rng.random() < 0.6 else rng.randint(0, max(0, days // 8))
    stops_after = (
        rng.randint(days // 3, max(days // 3, days - 8))
        if rng.random() < 0.1 and days >= 12
        else None
    )
    mix = tuple((activity, weight * rng.uniform(0.5, 1.6)) for activity, weight in ACTIVITY_MIX)
    strong = ability + rng.gauss(0, 0.4)
    race_level = (
        "practice"
        if rng.random() < 0.15
        else ("hard" if strong > 1.3 else "medium" if strong > 0.5 else "easy")
    )
    return Learner(
        index=index,
        kind=kind,
        ability=ability,
        speed=speed,
        weekday_rate=weekday_rate,
        weekend_rate=weekday_rate * WEEKEND_FACTOR,
        starts_after=starts_after,
        stops_after=stops_after,
        time_zone=time_zone,
        desired_retention=srs.DEFAULT_RETENTION,
        new_per_day=rng.choices((10, 20, 30), weights=(0.15, 0.7, 0.15))[0],
        multiple_choice=rng.random() < 0.8,
        mix=mix,
        race_level=race_level,
        game_level="medium" if strong > 0.4 else "easy",
        iq_level=rng.choice(("easy", "easy", "medium", "medium", "hard")),
        diligence=min(0.95, max(0.05, rng.gauss(0.55, 0.25) + (0.2 if kind == "keen" else 0.0))),
    )


@dataclass(frozen=True)
class Task:
    """An assignment as a learner meets it: activities to start from it, in its scope, between two times.

    A diligent learner spends some sessions on it until they have played ``rounds`` rounds of it
    (late ones too, for a few days after it is due). Rounds started from it are dealt from its
    scope, as the assignment page deals them, and listed in :attr:`History.assignment_rounds`.
    """

    activities: tuple[str, ...]  # slugs: "review", "state-iq", "dashing-states", "border-up"
    starts_at: dt.datetime
    due_at: dt.datetime
    rounds: int
    facets: frozenset[Facet] | None = None
    postals: frozenset[str] | None = None
    area: str = ""


#: How long after its due date a learner may still catch up on an assignment.
LATE_DAYS = 4


# --- The history --------------------------------------------------------------------------------


@dataclass
class History:
    """What one simulated student did, as the columns the app stores (without ids and student ids).

    ``reviews`` are in time order; ``cards`` are the memory cards by fact key, their schedule
    being the replay of the reviews.
    """

    learner: Learner
    reviews: list[dict[str, Any]] = field(default_factory=list)
    cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    study_rounds: list[dict[str, Any]] = field(default_factory=list)
    state_iq_games: list[dict[str, Any]] = field(default_factory=list)
    dashing_rounds: list[dict[str, Any]] = field(default_factory=list)
    border_up_rounds: list[dict[str, Any]] = field(default_factory=list)
    card_games: list[dict[str, Any]] = field(default_factory=list)
    #: Rounds started from an assignment: {"task": index in ``tasks``, "activity", "round_token", "created_at"}.
    assignment_rounds: list[dict[str, Any]] = field(default_factory=list)
    first_active: dt.datetime | None = None
    last_active: dt.datetime | None = None


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
) -> History:
    """The history of learner ``index`` over the ``days`` study days that end with the one holding ``end``.

    Nothing happens at or after ``end`` (UTC). ``namespace`` only changes the round tokens (and
    with them the seeded fuzz of the schedules), so two demo schools never share a token.
    ``tasks`` are the assignments the learner's teacher set.
    """
    if end.tzinfo is None or end.utcoffset() != dt.timedelta(0):
        raise ValueError("end must be timezone-aware UTC")
    learner = make_learner(seed, index, days, time_zone)
    return _Simulation(deck, learner, seed, days, end, namespace, tasks).run()


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
    rank = state.rank(facet.category)
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


# --- The simulation ---------------------------------------------------------------------------


class _Simulation:
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
        # memory.picked_last read the review log): facts answered right or close in a strong form,
        # and facts whose last answer was a right pick.
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
        if activity == REVIEW:
            rounds = rng.choice(
                (1, 1, 2, 2, 3, 3, 4, 5) if self.learner.kind == "keen" else (1, 1, 2, 2, 3, 4)
            )
            self._review_session(start, rounds)
            return
        at = start
        for _ in range(rng.choice((1, 1, 2, 3))):
            if at + dt.timedelta(minutes=30) >= self.end:
                return
            self._enter_day(at)
            if activity == STATE_IQ:
                at = self._state_iq(at)
            elif activity == DASHING:
                at = self._dashing(at)
            elif activity == BORDER_UP:
                at = self._border_up(at)
            else:
                at = self._card_game(at)
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
            postals = task.postals
            began = at
            if slug == "review":
                at, token = self._review_round(at, task.facets, postals, task.area)
                if token is None:
                    return
                round_token = f"{REVIEW}:{token}"
            elif slug == "state-iq":
                at = self._state_iq(
                    at,
                    (STATE_IQ_FACETS & task.facets) if task.facets else None,
                    postals,
                    show_aid=False,
                )
                round_token = f"{STATE_IQ}:{self.history.state_iq_games[-1]['token']}"
            elif slug == "dashing-states":
                at = self._dashing(at, task.facets, postals)
                round_token = f"{DASHING}:{self.history.dashing_rounds[-1]['token']}"
            else:
                at = self._border_up(at, postals)
                round_token = f"{BORDER_UP}:{self.history.border_up_rounds[-1]['token']}"
            self.history.assignment_rounds.append(
                {"task": i, "activity": slug, "round_token": round_token, "created_at": began}
            )
            self.task_rounds[i] += 1
            at += dt.timedelta(seconds=self.rng.uniform(10, 60))

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
        if correct and not srs.is_strong(form):
            self.picked.add(key)
        else:
            self.picked.discard(key)
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
            rank = state.rank(facet.category)
            if form is Form.CHOICE:
                return ordinal(rank)
            return str(_near_rank(rank, rng, 1, 2)) if slip else str(rank)
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
        rank = state.rank(facet.category)
        if form is Form.CHOICE:
            return ordinal(_near_rank(rank, rng, 3, 9))
        if rng.random() < 0.4:
            return str(_near_rank(rank, rng, 1, 2))
        return str(_near_rank(rank, rng, 3, 12))

    def _judged(self, fact: Fact, form: Form, text: str | None) -> Judgement:
        """The real judge's verdict on ``text`` (for multiple choice, ``text`` is the option picked)."""
        return _judge(self.deck, fact, form, text)

    # --- flashcard review ---------------------------------------------------------------------

    def _review_session(self, start: dt.datetime, rounds: int) -> None:
        now = start
        for _ in range(rounds):
            if now >= self.end:
                return
            now, token = self._review_round(now)
            if token is None:
                return
            now += dt.timedelta(seconds=self.rng.uniform(5.0, 40.0))

    def _review_round(
        self,
        now: dt.datetime,
        facets: frozenset[Facet] | None = None,
        postals: frozenset[str] | None = None,
        area: str = "",
    ) -> tuple[dt.datetime, str | None]:
        """One flashcard round dealt from the queue within the focus (None: nothing to study)."""
        rng = self.rng
        self._enter_day(now)
        keys = self._queue(now, ROUND_SIZE, facets, postals)
        if not keys and (facets or postals):
            # An assignment's round with nothing due or new: its answered facts, weakest first.
            keys = sorted(
                (
                    k
                    for k in self.memory
                    if (facets is None or self.info.facet_of[k] in facets)
                    and (postals is None or k[:2] in postals)
                ),
                key=lambda k: (srs.retrievability(self.memory[k], now, self.tz), k),
            )[:ROUND_SIZE]
        if not keys:
            return now, None
        seed = rng.getrandbits(62)
        memories = {key: self.memory[key] for key in keys if key in self.memory}
        items = deal(
            keys,
            memories,
            self.deck,
            seed,
            multiple_choice=self.learner.multiple_choice,
            recheck=self.picked,
        )
        token = self._new_token("review")
        self.history.study_rounds.append(
            {
                "token": token,
                "seed": seed,
                "items": [[item.fact.key, item.form.value] for item in items],
                "focus": {
                    "facets": sorted(f.value for f in facets) if facets else [],
                    "area": area,
                },
                "created_at": now,
            }
        )
        round_token = f"{REVIEW}:{token}"
        for n, item in enumerate(items, start=1):
            key = item.fact.key
            knows = rng.random() < self._chance(key, now, item.form)
            text = self._answer_text(item.fact, item.form, knows)
            judgement = self._judged(item.fact, item.form, text)
            duration = self._duration_ms(key, item.form, judgement.verdict is not Verdict.WRONG)
            if text is None:
                duration = min(duration, int(rng.uniform(2000, 6000)))
            now += dt.timedelta(milliseconds=duration + rng.randint(300, 1500))
            if now >= self.end:
                return now, token  # the round is left unfinished
            self._record(
                key,
                judgement.verdict,
                REVIEW,
                item.form,
                round_token,
                str(n),
                now,
                answer=judgement.given,
                duration_ms=duration,
                answered_postal=judgement.answered[0] if len(judgement.answered) == 1 else None,
            )
            now += dt.timedelta(seconds=rng.uniform(2.0, 6.0))  # reading the feedback
        return now, token

    # --- State IQ -----------------------------------------------------------------------------

    def _state_iq(
        self,
        start: dt.datetime,
        facets: frozenset[Facet] | None = None,
        postals: frozenset[str] | None = None,
        show_aid: bool | None = None,
    ) -> dt.datetime:
        rng = self.rng
        deck = self.deck
        seed = rng.getrandbits(62)
        deal_rng = random.Random(f"deal:{seed}")
        keys = self._queue(start, 1, facets or STATE_IQ_FACETS, postals)
        if keys:
            computer_card = Fact.from_key(keys[0]).postal
        else:
            computer_card = deal_rng.choice(
                sorted(postals) if postals else [s.postal for s in deck]
            )
        student_card = deal_rng.choice([s.postal for s in deck if s.postal != computer_card])
        first, _, _ = first_guesser_by_draw(deck, random.Random(f"draw:{seed}"))
        power = deal_rng.choice(deck.power_cards)
        level = self.learner.iq_level
        game = StateIQ(deck, power, student_card, computer_card, first, IqLevel(level), seed)
        known: dict[tuple[str, Facet], bool] = {}

        def knows(postal: str, facet: Facet) -> bool:
            if (postal, facet) not in known:
                known[(postal, facet)] = rng.random() < self._chance(Fact(postal, facet).key, start)
            return known[(postal, facet)]

        def computer() -> None:
            while game.waiting_for() == "computer":
                game.computer_turn()

        moves: list[list[str]] = []
        now = start
        by_name = deck.sorted_by(None)
        computer()
        mistakes = 0
        while (waiting := game.waiting_for()) is not None:
            now += dt.timedelta(seconds=rng.uniform(8, 35) * self.learner.speed)
            half = game.half
            if waiting == "student_guess":
                # The states the learner cannot rule out: a clue rules a state out only if they know that fact.
                options = [
                    s.postal
                    for s in by_name
                    if s.postal not in half.guesses
                    and all(
                        not knows(s.postal, CLUE_FACETS[c.slot.kind]) or c.fits(s, deck)
                        for c in half.clues
                    )
                ] or [s.postal for s in by_name if s.postal not in half.guesses]
                postal = rng.choice(options)
                game.guess(postal)
                moves.append(["guess", postal])
            else:
                own = game.student_card
                given = {c.value for c in half.clues}
                unused = [n.postal for n in deck.neighbours(own) if n.postal not in given]
                wrong = [
                    p
                    for p in self.info.near[own][:6]
                    if p not in unused
                    and p not in given
                    and p not in half.border_mistakes
                    and not deck.borders_between(own, p)
                ]
                if knows(own, Facet.BORDERS) or mistakes >= 2 or not wrong:
                    postal = rng.choice(unused)
                else:
                    postal = rng.choice(wrong)
                    mistakes += 1
                try:
                    game.give_border(postal)
                except Move:
                    pass  # a state that does not border: kept as a mistake, as the app keeps it
                moves.append(["clue", postal])
            computer()
        token = self._new_token(STATE_IQ)
        answers = student_answers(game)
        for answer in answers:
            now += dt.timedelta(milliseconds=rng.randint(50, 400))
            self._record(
                answer.fact.key,
                answer.verdict,
                STATE_IQ,
                Form.TYPED,
                f"{STATE_IQ}:{token}",
                answer.item,
                now,
                answer=answer.given,
                help=srs.Help.RETRY if answer.late else srs.Help.NONE,
                answered_postal=answer.answered_postal,
            )
        winner = game.winner()
        student_half = next(h for h in game.halves if h.guesser is Side.STUDENT)
        self.history.state_iq_games.append(
            {
                "token": token,
                "level": level,
                "power_card": power.id,
                "student_card": student_card,
                "computer_card": computer_card,
                "first_guesser": first.value,
                "seed": seed,
                "moves": moves,
                "move_count": len(moves),
                "recorded": sorted(a.item for a in answers),
                "result": "tied"
                if winner is None
                else ("won" if winner is Side.STUDENT else "lost"),
                "student_guesses": student_half.guesses_needed,
                "show_aid": rng.random() < 0.3 if show_aid is None else show_aid,
                "created_at": start,
                "finished_at": now,
            }
        )
        return now

    # --- Dashing States -------------------------------------------------------------------------

    def _dashing(
        self,
        start: dt.datetime,
        facets: frozenset[Facet] | None = None,
        postals: frozenset[str] | None = None,
    ) -> dt.datetime:
        rng = self.rng
        deck = self.deck
        seed = rng.getrandbits(62)
        deal_rng = random.Random(f"dashing:{seed}")
        asked = (DASHING_FACETS & facets) if facets else DASHING_FACETS
        preferred = [Fact.from_key(key).postal for key in self._queue(start, 20, asked, postals)]
        if postals:
            preferred += deal_rng.sample(sorted(postals), len(postals))
        cards = dashing_states.deal(preferred, deck, deal_rng)
        level = self.learner.race_level
        names: dict[int, str] = {}
        capitals: dict[int, str] = {}
        sure: dict[int, float] = {}
        seconds = 3.0
        for i, postal in enumerate(cards):
            p_name = self._chance(Fact(postal, Facet.MAP).key, start)
            p_capital = self._chance(Fact(postal, Facet.CAPITAL).key, start)
            knows_name, knows_capital = rng.random() < p_name, rng.random() < p_capital
            names[i] = self._answer_text(
                Fact(postal, Facet.MAP), Form.TYPED, knows_name
            ) or self._wrong_text(Fact(postal, Facet.MAP), Form.TYPED, deck[postal])
            capitals[i] = self._answer_text(
                Fact(postal, Facet.CAPITAL), Form.TYPED, knows_capital
            ) or self._wrong_text(Fact(postal, Facet.CAPITAL), Form.TYPED, deck[postal])
            sure[i] = p_name + p_capital
            seconds += rng.lognormvariate(math.log(8.0 * self.learner.speed), 0.3) * (
                1.0 if knows_name and knows_capital else 1.5
            )
        aside = min(sure, key=lambda i: (sure[i], rng.random()))
        names[aside] = capitals[aside] = ""
        order = tuple(
            sorted((i for i in range(len(cards)) if i != aside), key=lambda i: names[i].casefold())
        )
        token = self._new_token(DASHING)
        computer = (
            None if level == "practice" else dashing_states.ComputerRun.draw(RaceLevel(level), seed)
        )
        row: dict[str, Any] = {
            "token": token,
            "level": level,
            "seed": seed,
            "cards": cards,
            "created_at": start,
            "call": None,
            "called_at": None,
            "result": "playing",
            "seconds": None,
        }
        self.history.dashing_rounds.append(row)
        if computer is not None and seconds > computer.call_at + SAME_MOMENT:
            # Too slow: the computer called first and its call decided the race (D1).
            row["result"] = race(None, False, computer)[0].value
            return start + dt.timedelta(seconds=seconds)
        call = dashing_states.Call(aside, order, names, capitals)
        judged = dashing_states.judge_call(cards, call, deck)
        called_at = start + dt.timedelta(seconds=seconds)
        if computer is None:
            result = "right" if judged.success else "wrong"
        else:
            result = race(seconds, judged.success, computer)[0].value
        row.update(
            call={
                "set_aside": aside,
                "order": list(order),
                "names": {str(k): v for k, v in names.items()},
                "capitals": {str(k): v for k, v in capitals.items()},
            },
            called_at=called_at,
            result=result,
            seconds=seconds if judged.success else None,
        )
        now = called_at
        for fact, judgement, ms in dashing_states.reviews(judged, seconds):
            now += dt.timedelta(milliseconds=rng.randint(20, 200))
            self._record(
                fact.key,
                judgement.verdict,
                DASHING,
                Form.TYPED,
                f"{DASHING}:{token}",
                fact.key,
                now,
                answer=judgement.given,
                duration_ms=ms,
                answered_postal=judgement.answered[0] if len(judgement.answered) == 1 else None,
            )
        return now + dt.timedelta(seconds=rng.uniform(10, 30))

    # --- Border-Up ------------------------------------------------------------------------------

    def _border_up(self, start: dt.datetime, postals: frozenset[str] | None = None) -> dt.datetime:
        rng = self.rng
        deck = self.deck
        seed = rng.getrandbits(62)
        weak = [
            Fact.from_key(key).postal
            for key in self._queue(start, 10, frozenset({Facet.BORDERS}), postals)
        ]
        if postals:
            weak += random.Random(f"lean:{seed}").sample(sorted(postals), len(postals))
        dealt = border_up.deal(deck, random.Random(f"border-up:{seed}"), lean_on=weak)
        hand = list(dealt.student)
        level = self.learner.race_level if self.learner.race_level != "practice" else "easy"
        computer = border_up.ComputerRun.draw(RaceLevel(level), seed)
        revealed_at = start + dt.timedelta(seconds=rng.uniform(3, 12))
        helped = rng.random() < 0.12
        solutions = border_up.solutions(hand, deck)
        first, second = rng.choice(solutions)
        centres = [border_up.centres(group, deck)[0] for group in (first, second)]
        p = sum(self._chance(Fact(c, Facet.BORDERS).key, start) for c in centres) / 2
        success = rng.random() < min(0.97, p + (0.25 if helped else 0.0) + 0.15)
        called = [sorted(first), sorted(second)]
        if not success:
            # One group is right; in the other a card that does not border its centre slipped in.
            centre = centres[1]
            swap = [
                c for c in hand if c not in first | second and not deck.borders_between(c, centre)
            ]
            if swap:
                kept = sorted(c for c in second if c != centre)
                called[1] = sorted([centre, kept[0], rng.choice(swap)])
        seconds = rng.lognormvariate(math.log(40.0 * self.learner.speed), 0.35) * (
            1.3 if not success else 1.0
        )
        token = self._new_token(BORDER_UP, 18)
        row: dict[str, Any] = {
            "token": token,
            "level": level,
            "seed": seed,
            "hand": hand,
            "computer_hand": list(dealt.computer),
            "created_at": start,
            "revealed_at": revealed_at,
            "hint": border_up.hint(hand, deck) if helped else None,
            "call": None,
            "called_at": None,
            "result": "playing",
            "seconds": None,
        }
        self.history.border_up_rounds.append(row)
        if seconds > computer.call_at + SAME_MOMENT:
            row["result"] = race(None, False, computer)[0].value
            return revealed_at + dt.timedelta(seconds=seconds)
        results = border_up.judge_call(hand, called, deck)
        ok = border_up.call_succeeds(results)
        called_at = revealed_at + dt.timedelta(seconds=seconds)
        row.update(
            call=called,
            called_at=called_at,
            result=race(seconds, ok, computer)[0].value,
            seconds=seconds if ok else None,
        )
        now = called_at
        for review in border_up.reviews(results, helped=helped):
            now += dt.timedelta(milliseconds=rng.randint(20, 200))
            self._record(
                review.fact.key,
                review.verdict,
                BORDER_UP,
                Form.CHOICE,
                f"{BORDER_UP}:{token}",
                review.item,
                now,
                help=srs.Help.HINT if review.helped else srs.Help.NONE,
            )
        return now + dt.timedelta(seconds=rng.uniform(10, 30))

    # --- card games -----------------------------------------------------------------------------

    def _card_game(self, start: dt.datetime) -> dt.datetime:
        rng = self.rng
        deck = self.deck
        slug = rng.choice(DRILL_GAMES) if rng.random() < 0.9 else WAR
        drill = slug != WAR and rng.random() < 0.85
        level = self.learner.game_level
        game = make_game(slug, deck, Params(2, 1))
        seed = rng.getrandbits(48)
        token = self._new_token(CARD_GAME, 12)
        state = game.new_initial_state(seed)
        levels = {1: GameLevel(level)}
        me = RulePlayer(rng) if self.learner.ability > 0.3 else RandomPlayer(rng)
        now = start
        answered = right = 0
        play_computer_turns(state, levels, seed)
        while not state.is_terminal():
            action = me.choose(game, state.observation(0), state.legal_actions())
            ply = len(state.history)
            now += dt.timedelta(seconds=rng.uniform(4, 14) * self.learner.speed)
            if drill:
                for answer in self._drill_answers(state, action, now):
                    now += dt.timedelta(milliseconds=rng.randint(20, 200))
                    self._record(
                        answer.fact.key,
                        answer.judgement.verdict,
                        GAME_MODES[slug],
                        answer.form,
                        f"game:{token}",
                        f"{ply}:{answer.fact.key}",
                        now,
                        answer=answer.judgement.given[:200],
                    )
                    answered += 1
                    right += answer.right
            state.apply_action(action)
            play_computer_turns(state, levels, seed)
            now += dt.timedelta(seconds=rng.uniform(1, 3))
        returns = state.returns()
        self.history.card_games.append(
            {
                "token": token,
                "game": slug,
                "players": 2,
                "team_size": 1,
                "level": level,
                "drill": drill,
                "seed": seed,
                "actions": list(state.history),
                "ply": len(state.history),
                "result": "drawn"
                if len(set(returns)) == 1
                else ("won" if returns[0] == max(returns) else "lost"),
                "drill_answers": answered,
                "drill_right": right,
                "created_at": start,
                "updated_at": now,
                "finished_at": now,
            }
        )
        return now

    def _drill_answers(self, state: State, action: int, now: dt.datetime) -> list[DrillAnswer]:
        """What the learner says with a drill move, judged as the game page judges it.

        A wrong number in GeoPlunge 51 is refused and recorded; the learner then reads the right
        one and plays again, which is the same (move, fact) and so is not recorded twice.
        """
        deck = self.deck
        move = state.decode(action)
        if move.card is None:
            return []
        postal = move.card

        def rank_said(category: Category) -> str:
            key = Fact(postal, Facet(category.slug)).key
            rank = deck[postal].rank(category)
            if self.rng.random() < self._chance(key, now):
                return str(rank)
            return str(
                _near_rank(rank, self.rng, 1, 2)
                if self.rng.random() < 0.4
                else _near_rank(rank, self.rng, 3, 12)
            )

        def says(truth: bool, key: str) -> bool:
            return (
                truth
                if self.rng.random() < self._chance(key, now, Form.CHOICE)
                else self.rng.random() < 0.5
            )

        if isinstance(state, FiftyOneState):
            return [judge_announced(deck, postal, move.category, rank_said(move.category))]  # type: ignore[arg-type]
        if isinstance(state, (RanksState, ClashState)) and move.kind == "lead":
            return [judge_lead(deck, postal, move.category, rank_said(move.category))]  # type: ignore[arg-type]
        if isinstance(state, RanksState) and state.phase == "trick":
            truth = judge_follow(state, postal, True).right
            key = judge_follow(state, postal, True).fact.key
            return [judge_follow(state, postal, says(truth, key))]
        if isinstance(state, ClashState):
            obs = state.observation(0)
            probe = judge_clash_worst(deck, obs, postal, True)
            return [judge_clash_worst(deck, obs, postal, says(probe.right, probe.fact.key))]
        if isinstance(state, TossState) and move.kind == "play":
            obs = state.observation(0)
            if not obs["trick"]:
                return []
            zone = judge_toss_zone(deck, obs, postal)
            probe = judge_toss_beats(deck, obs, postal, True)
            beats = judge_toss_beats(deck, obs, postal, says(probe.right, probe.fact.key))
            return [zone, beats] if zone.right else [beats]
        return []


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


def _near_rank(rank: int, rng: random.Random, low: int, high: int) -> int:
    """A rank ``low`` to ``high`` away from ``rank``, within 1-50."""
    options = [r for d in range(low, high + 1) for r in (rank - d, rank + d) if 1 <= r <= 50]
    return rng.choice(options)


__all__ = [
    "History",
    "Learner",
    "Task",
    "make_learner",
    "simulate",
    "simulate_task",
]
