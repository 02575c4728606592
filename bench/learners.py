"""Simulated students for ``bench/learning.py``: two published memory models that are not FSRS.

Both models are driven the same way: :meth:`Learner.recall` is the TRUE probability that the
student recalls a fact at a wall-clock time, and :meth:`Learner.study` is one study event (an
answer followed by feedback: a retrieval when it was recalled, the answer shown when it was not).
Every time is in seconds since the start of the simulation.

**hlr**: half-life regression (Settles, B. & Meeder, B. 2016. "A Trainable Spaced Repetition
Model for Language Learning". Proceedings of ACL 2016, 1848-1858). Recall after a lag of
``delta`` days is ``p = 2 ** (-delta / h)`` with the half-life ``h = 2 ** (theta . x)`` days. The
features are the paper's: ``sqrt(1 + count)`` of all exposures, of right recalls and of wrong
ones, plus a per-fact difficulty (the paper's lexeme weights) and a per-student ability::

    log2 h = THETA_0 + THETA_SEEN * sqrt(1 + n_seen) + THETA_RIGHT * sqrt(1 + n_right)
             + THETA_WRONG * sqrt(1 + n_wrong) - 0.7 * (difficulty(fact) - ability(student))

with THETA_0 = -3.62, THETA_SEEN = 1.5, THETA_RIGHT = 2.0, THETA_WRONG = -0.5. For a fact of
average difficulty: after the first sight h = 1 day; after 1, 2, 4 and 8 spaced successful
recalls about 2.5, 5, 16 and 98 days; a miss followed by the answer shown still raises h a
little (1.2 days after one miss, 1.7 after three), so a fact missed early is not lost for good.
Our parameters are chosen for these magnitudes, not fitted to data. One stated change to the
paper: an event less than :data:`HLR_MASSED_S` (1 hour) after the previous one resets the clock
but adds no count (massed repetitions in one sitting build little long-term memory: Cepeda et
al. 2006, Psychological Bulletin 132, 354-380); otherwise minute-apart learning steps would each
count as a full spaced recall.

**actr**: ACT-R declarative memory with the spacing effect (Pavlik, P. I. & Anderson, J. R.
2005. "Practice and forgetting effects on vocabulary memory: an activation-based model of the
spacing effect". Cognitive Science 29, 559-586). The activation after presentations at ages
``t_j`` (seconds) is ``m = beta + ln(sum_j t_j ** -d_j)`` with the decay of each presentation
set by the activation when it happened, ``d_j = c * exp(m_{j-1}) + a`` (a well-learned fact
decays faster: the spacing effect), and recall is ``p = 1 / (1 + exp((tau - m) / s))``. Their
published values: c = 0.217, a = 0.177, tau = -0.704, s = 0.255. Time between study sessions is
"psychological time" scaled by h = 0.025 (as in their paper, so that the forgetting over days
is not that of the raw seconds); time inside a session counts fully. ``beta`` is a per-fact
difficulty plus a per-student ability (the paper's item and subject betas).

Difficulty: each fact gets an offset for its facet (rankings hardest, map and capital easiest:
:data:`FACET_DIFFICULTY`) plus a seeded normal draw (sd :data:`ITEM_SD`); each student an ability
(sd :data:`STUDENT_SD`). The same seed gives the same students for every scheduler (paired).
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field

DAY_S = 86_400.0

# --- Difficulty ------------------------------------------------------------------------------

#: A facet's difficulty, in units of one standard deviation of a fact's difficulty.
FACET_DIFFICULTY = {
    "map": -0.5,
    "capital": 0.0,
    "postal": -0.3,
    "zone": -0.2,
    "borders": 0.8,
    "size": 1.0,
    "statehood": 1.0,
    "population": 1.0,
}
ITEM_SD = 1.0
STUDENT_SD = 0.5

# --- Half-life regression ----------------------------------------------------------------------

HLR_THETA_0 = -3.62
HLR_THETA_SEEN = 1.5
HLR_THETA_RIGHT = 2.0
HLR_THETA_WRONG = -0.5
#: One difficulty unit costs this many log2 days of half-life.
HLR_DIFFICULTY_SCALE = 0.7
#: A study event this soon after the previous one resets the clock but adds no count.
HLR_MASSED_S = 3_600.0

# --- ACT-R (Pavlik & Anderson 2005) ----------------------------------------------------------

ACTR_C = 0.217
ACTR_A = 0.177
ACTR_TAU = -0.704
ACTR_S = 0.255
ACTR_H = 0.025
#: One difficulty unit costs this much activation (beta).
ACTR_DIFFICULTY_SCALE = 0.25
#: The smallest age of a presentation, seconds (an answer takes a few seconds; avoids 0 ** -d).
ACTR_MIN_AGE_S = 1.0

MODELS = ("hlr", "actr")


def difficulties(keys: Sequence[str], seed: int, student: int) -> tuple[dict[str, float], float]:
    """Each fact's difficulty (facet offset plus a seeded draw) and the student's ability.

    Fact difficulty is drawn once per seed (the same facts are hard for every student, as in
    real classes), plus a smaller per-student part; ability is per student.
    """
    population = random.Random(f"facts:{seed}")
    personal = random.Random(f"student:{seed}:{student}")
    base = {
        key: FACET_DIFFICULTY[key.split(":")[1]] + population.gauss(0.0, ITEM_SD) for key in keys
    }
    per_student = {key: d + personal.gauss(0.0, ITEM_SD / 2) for key, d in base.items()}
    return per_student, personal.gauss(0.0, STUDENT_SD)


class Learner(ABC):
    """A simulated student's memory of every fact (see the module docstring)."""

    @abstractmethod
    def recall(self, key: str, at: float) -> float:
        """The true probability of recalling ``key`` at ``at`` (seconds since the run began)."""

    @abstractmethod
    def study(self, key: str, at: float, recalled: bool) -> None:
        """Strengthen the memory of ``key``: it was asked (and its answer shown) at ``at``."""

    def session(self, start: float) -> None:  # noqa: B027 (most learners need no sessions)
        """A study session starts at ``start`` (ACT-R's psychological time needs it)."""

    def end_session(self, end: float) -> None:  # noqa: B027
        """The session ended at ``end``."""


@dataclass
class _HlrFact:
    last: float
    seen: float = 1.0
    right: float = 0.0
    wrong: float = 0.0


@dataclass
class HlrLearner(Learner):
    """Half-life regression (Settles & Meeder 2016) with per-fact difficulty."""

    difficulty: dict[str, float]
    ability: float
    facts: dict[str, _HlrFact] = field(default_factory=dict)

    def half_life_days(self, key: str) -> float:
        fact = self.facts[key]
        exponent = (
            HLR_THETA_0
            + HLR_THETA_SEEN * math.sqrt(1 + fact.seen)
            + HLR_THETA_RIGHT * math.sqrt(1 + fact.right)
            + HLR_THETA_WRONG * math.sqrt(1 + fact.wrong)
            - HLR_DIFFICULTY_SCALE * self.difficulty[key]
            + HLR_DIFFICULTY_SCALE * self.ability
        )
        return 2.0 ** min(exponent, 20.0)

    def recall(self, key: str, at: float) -> float:
        fact = self.facts.get(key)
        if fact is None:
            return 0.0
        lag_days = max(0.0, at - fact.last) / DAY_S
        return 2.0 ** (-lag_days / self.half_life_days(key))

    def study(self, key: str, at: float, recalled: bool) -> None:
        fact = self.facts.get(key)
        if fact is None:
            # The first sight of a fact: it is shown, as after a wrong answer.
            self.facts[key] = _HlrFact(last=at)
            return
        if at - fact.last >= HLR_MASSED_S:
            fact.seen += 1
            if recalled:
                fact.right += 1
            else:
                fact.wrong += 1
        fact.last = at


@dataclass
class ActrLearner(Learner):
    """ACT-R activation with the spacing effect (Pavlik & Anderson 2005)."""

    difficulty: dict[str, float]
    ability: float
    #: Per fact: (psychological time, decay) of every presentation.
    traces: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    #: Psychological time at the last session boundary, and the wall time then.
    psych_mark: float = 0.0
    wall_mark: float = 0.0
    in_session: bool = False

    def psych(self, at: float) -> float:
        """Psychological seconds at wall time ``at``: full inside a session, scaled by h between."""
        rate = 1.0 if self.in_session else ACTR_H
        return self.psych_mark + rate * max(0.0, at - self.wall_mark)

    def session(self, start: float) -> None:  # noqa: B027 (most learners need no sessions)
        self.psych_mark = self.psych(start)
        self.wall_mark = start
        self.in_session = True

    def end_session(self, end: float) -> None:  # noqa: B027
        self.psych_mark = self.psych(end)
        self.wall_mark = end
        self.in_session = False

    def beta(self, key: str) -> float:
        return ACTR_DIFFICULTY_SCALE * (self.ability - self.difficulty[key])

    def activation(self, key: str, at: float) -> float:
        traces = self.traces.get(key)
        if not traces:
            return -math.inf
        now = self.psych(at)
        total = sum(max(ACTR_MIN_AGE_S, now - t) ** -d for t, d in traces)
        return self.beta(key) + math.log(total)

    def recall(self, key: str, at: float) -> float:
        m = self.activation(key, at)
        if m == -math.inf:
            return 0.0
        z = (ACTR_TAU - m) / ACTR_S
        return 1.0 / (1.0 + math.exp(min(z, 700.0)))

    def study(self, key: str, at: float, recalled: bool) -> None:
        m = self.activation(key, at)
        decay = ACTR_C * math.exp(m) + ACTR_A if m != -math.inf else ACTR_A
        self.traces.setdefault(key, []).append((self.psych(at), decay))


def make_learner(model: str, keys: Sequence[str], seed: int, student: int) -> Learner:
    """Student ``student`` of the seeded population under ``model`` (``hlr`` or ``actr``)."""
    difficulty, ability = difficulties(keys, seed, student)
    if model == "hlr":
        return HlrLearner(difficulty, ability)
    if model == "actr":
        return ActrLearner(difficulty, ability)
    raise ValueError(f"unknown memory model {model!r}; choose from {', '.join(MODELS)}")
