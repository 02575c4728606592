"""A daily amount of study, in answers or minutes, and how far today's answers have come (P-D1, P-D2)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class Unit(StrEnum):
    """What a daily amount counts."""

    ANSWERS = "answers"
    MINUTES = "minutes"


#: The bounds of an amount, by unit (P-D1).
BOUNDS: dict[Unit, tuple[int, int]] = {Unit.ANSWERS: (5, 200), Unit.MINUTES: (5, 90)}

#: An answer whose time is unknown (most game modes do not time single answers) counts this long.
UNTIMED_ANSWER_SECONDS = 10
#: Reading the card after an answer (the feedback page is not timed): added to every answer.
FEEDBACK_SECONDS = 5
#: At most this long counts for one answer: a question left open while away is not study.
MAX_ANSWER_SECONDS = 120
#: What one answer is taken to cost when amounts in answers and in minutes are compared (P-D2):
#: an untimed answer and the card after it.
SECONDS_PER_ANSWER = UNTIMED_ANSWER_SECONDS + FEEDBACK_SECONDS


@dataclass(frozen=True)
class DailyAmount:
    """How much to study each day: ``amount`` answers or minutes."""

    amount: int
    unit: Unit

    def __post_init__(self) -> None:
        low, high = BOUNDS[Unit(self.unit)]
        if not low <= self.amount <= high:
            raise ValueError(
                f"a daily amount in {self.unit} is from {low} to {high}, not {self.amount}"
            )

    @property
    def seconds(self) -> int:
        """The amount as time of study, an answer counted as :data:`SECONDS_PER_ANSWER` (P-D2)."""
        return self.amount * (60 if self.unit is Unit.MINUTES else SECONDS_PER_ANSWER)

    def text(self) -> str:
        """ "40 answers", "1 minute"."""
        word = self.unit.value if self.amount != 1 else self.unit.value[:-1]
        return f"{self.amount} {word}"


#: A new student's amount (P-D1): 40 answers is four rounds of 10, about ten minutes.
DEFAULT = DailyAmount(40, Unit.ANSWERS)


def amount_or_none(amount: int | None, unit: str | None) -> DailyAmount | None:
    """The stored pair as an amount; None when either half is missing or it is out of bounds."""
    if amount is None or unit not in set(Unit):
        return None
    try:
        return DailyAmount(amount, Unit(unit))
    except ValueError:
        return None


def highest(amounts: Iterable[DailyAmount]) -> DailyAmount | None:
    """The most study among ``amounts`` (several classes each set one, P-D2), compared as time.

    An answers amount counts :data:`SECONDS_PER_ANSWER` per answer. On a tie (40 answers and
    10 minutes) answers win: they are counted exactly, minutes partly by estimate. The amount
    chosen keeps its own unit.
    """
    return max(amounts, key=lambda a: (a.seconds, a.unit is Unit.ANSWERS), default=None)


def answer_seconds(duration_ms: int | None) -> float:
    """The study time one answer counts (P-D1): its measured time or, when unknown, an estimate,
    at most :data:`MAX_ANSWER_SECONDS`, plus the time to read its card."""
    seconds = (
        UNTIMED_ANSWER_SECONDS if duration_ms is None or duration_ms <= 0 else duration_ms / 1000
    )
    return min(seconds, MAX_ANSWER_SECONDS) + FEEDBACK_SECONDS


@dataclass(frozen=True)
class Progress:
    """Today's study measured against the daily amount."""

    amount: DailyAmount
    #: Answers recorded today (every mode), and the study time they count (:func:`answer_seconds`).
    answers: int
    seconds: float

    @property
    def done(self) -> int:
        """Today's study in the amount's unit: answers, or whole minutes (rounded down)."""
        return self.answers if self.amount.unit is Unit.ANSWERS else math.floor(self.seconds / 60)

    @property
    def reached(self) -> bool:
        return self.done >= self.amount.amount

    @property
    def left(self) -> int:
        """What is left to today's amount, in its unit (0 once reached)."""
        return max(0, self.amount.amount - self.done)

    @property
    def answers_left(self) -> int:
        """About how many answers are left: exact for answers, at :data:`SECONDS_PER_ANSWER` each for minutes."""
        if self.amount.unit is Unit.ANSWERS:
            return self.left
        return max(0, math.ceil((self.amount.amount * 60 - self.seconds) / SECONDS_PER_ANSWER))


def progress(amount: DailyAmount, durations_ms: Iterable[int | None]) -> Progress:
    """Today's progress from the durations of today's answers (one per review-log row)."""
    durations = list(durations_ms)
    return Progress(
        amount=amount, answers=len(durations), seconds=sum(answer_seconds(d) for d in durations)
    )
