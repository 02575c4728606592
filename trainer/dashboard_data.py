"""The numbers behind the progress dashboards, as plain values.

The web layer fills these from SQL aggregates (``trainer/web/dashboards.py``); the figure
functions (``trainer/figures.py``) draw them. Both sides are tested on these values alone.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from trainer.facts import Facet

#: A fact whose memory is this stable (days) is "mastered" (Anki calls such cards mature).
MASTERED_STABILITY_DAYS = 21.0


@dataclass(frozen=True)
class FacetCounts:
    """One facet of one student: how many of its 50 facts are in each stage.

    ``mastered + learning + leeches + new == 50``: a leech is counted as a leech only.
    """

    facet: Facet
    mastered: int
    learning: int
    leeches: int
    new: int


@dataclass(frozen=True)
class DayCount:
    """A number for one day: reviews due (the forecast) or reviews given (the calendar)."""

    day: dt.date
    count: int


@dataclass(frozen=True)
class WeekAccuracy:
    """Answers in one week (starting Monday), how many were right or nearly right, and how many of
    the answers were about facts learned on an earlier day, with how many of those were recalled
    (true retention)."""

    week_start: dt.date
    answered: int
    right: int
    recall_answers: int
    recalled: int


@dataclass(frozen=True)
class GameRecord:
    """A student's record against the computer in one game at one level."""

    game: str
    level: str
    won: int
    lost: int
    drawn: int


@dataclass(frozen=True)
class ClassmatesRecord:
    """A student's finished games with classmates in one game: races, duels, card games and
    tournament games played at live tables (issue 22). None of them is a game against the computer,
    whatever level the table was opened at, so they have no level and count in no
    :class:`GameRecord` (ruling L-T14)."""

    game: str
    played: int
    won: int
    drawn: int

    @property
    def words(self) -> str:
        """The record in plain words, with no zero in them: "3 games, you won 2 and 1 was a tie",
        "1 game, you won it", "2 games" (none won or tied)."""
        if self.played == 1:
            return "1 game, you won it" if self.won else "1 game, a tie" if self.drawn else "1 game"
        parts = []
        if self.won:
            parts.append(f"you won {self.won:,}")
        if self.drawn:
            parts.append(f"{self.drawn:,} {'was a tie' if self.drawn == 1 else 'were ties'}")
        played = f"{self.played:,} games"
        return f"{played}, {' and '.join(parts)}" if parts else played


@dataclass(frozen=True)
class PersonalBest:
    """A student's fastest winning call in a race (Dashing States, Border-Up) at one level."""

    mode: str
    level: str
    seconds: float


@dataclass(frozen=True)
class StateRecall:
    """One state on a mastery map: the mean predicted recall of its facts (None: none started)."""

    postal: str
    name: str
    recall: float | None
    #: Facts started (for a class: student-facts started).
    facts: int


@dataclass(frozen=True)
class CellRecall:
    """One state x facet cell of a class: mean predicted recall over the students who started the
    fact, and the share of the class's students at or above the target (not started counts below)."""

    postal: str
    name: str
    facet: Facet
    mean_recall: float | None
    share_at_target: float
    started: int


@dataclass(frozen=True)
class ConfusedPair:
    """A wrong answer that named another state, and how often: "Vermont for New Hampshire"."""

    asked_postal: str
    asked_name: str
    answered_postal: str
    answered_name: str
    count: int


@dataclass(frozen=True)
class StudentRisk:
    """A student's mean predicted recall on a test date over the facts in question, and how many
    of those facts are below the target then (never started counts as 0)."""

    student_id: int
    username: str
    mean_recall: float
    below_target: int
    facts: int


@dataclass(frozen=True)
class Confusions:
    """The most frequent mix-ups, and how many wrong answers named another state in all (the
    pairs listed are only the most frequent: their counts add up to less, or to as much)."""

    pairs: tuple[ConfusedPair, ...]
    total: int


@dataclass(frozen=True)
class CompletionPoint:
    """How many of an assignment's students had finished it by the end of a day: the class page's
    "finished" (done, or done late) as it stood then.

    ``late``: how many of ``finished`` finished after the due day (P-A4). ``on_track``: for a recall
    goal before its due day, which judges it (P-A3), the students predicted to reach it; None
    otherwise. ``due``: the due day.
    """

    assignment: str
    day: dt.date
    finished: int
    assigned: int
    late: int = 0
    on_track: int | None = None
    due: dt.date | None = None
