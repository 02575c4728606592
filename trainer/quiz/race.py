"""Who wins a Level 1 race (Border-Up, Dashing States): the first call decides (rulings B2, D1)."""

from __future__ import annotations

from enum import Enum
from typing import Protocol

from trainer.levels import Level as Level  # re-exported: the race modules import it from here


class ComputerCall(Protocol):
    """When the computer team calls GeoPlunge!, and whether its call is right."""

    @property
    def call_at(self) -> float: ...

    @property
    def call_right(self) -> bool: ...


class Outcome(str, Enum):
    """The race's result for the student."""

    WON = "won"
    LOST = "lost"
    TIED = "tied"


#: Calls closer together than this are "at the same moment".
SAME_MOMENT = 0.5


def round_result(seconds: float, success: bool, computer: ComputerCall | None) -> str:
    """What a timed round stores as its result once the student has called: "right" or "wrong"
    in practice (no computer team), else the race's outcome (D1) as a word ("won", "lost", ...).
    The web page and the simulator both settle a round with this."""
    if computer is None:
        return "right" if success else "wrong"
    return race(seconds, success, computer)[0].value


def race(
    student_at: float | None, student_right: bool, computer: ComputerCall
) -> tuple[Outcome, str]:
    """Who wins (D1): the first call decides; a failed first call gives the game to the other team.

    Args:
        student_at: seconds from the start to the student's call, or None if they have not called
            yet and the computer has (then the computer's call decides).
        student_right: whether the student's call succeeded.
        computer: the computer team's run.

    Returns:
        The outcome for the student and a sentence explaining it.
    """
    if student_at is None or computer.call_at < student_at - SAME_MOMENT:
        if computer.call_right:
            return (
                Outcome.LOST,
                f"The computer called GeoPlunge! first, at {computer.call_at:.0f} s, and got everything right.",
            )
        return (
            Outcome.WON,
            f"The computer called GeoPlunge! first, at {computer.call_at:.0f} s, but got something wrong, so you win.",
        )
    if abs(computer.call_at - student_at) <= SAME_MOMENT:
        if student_right == computer.call_right:
            return Outcome.TIED, "You both called GeoPlunge! at the same moment."
        return (
            (Outcome.WON, "You both called at once, and only you got everything right.")
            if student_right
            else (
                Outcome.LOST,
                "You both called at once, and only the computer got everything right.",
            )
        )
    if student_right:
        return (
            Outcome.WON,
            f"You called GeoPlunge! first, at {student_at:.0f} s, and got everything right.",
        )
    return (
        Outcome.LOST,
        f"You called GeoPlunge! first, at {student_at:.0f} s, but something was wrong, so the computer wins.",
    )
