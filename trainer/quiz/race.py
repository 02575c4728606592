"""Who wins a Level 1 race (Border-Up, Dashing States): the first call decides (rulings B2, D1)."""

from __future__ import annotations

from typing import Protocol

from trainer.levels import Level as Level  # re-exported: the race modules import it from here
from trainer.results import Result


class ComputerCall(Protocol):
    """When the computer team calls GeoPlunge!, and whether its call is right."""

    @property
    def call_at(self) -> float: ...

    @property
    def call_right(self) -> bool: ...


#: The race's result for the student: ``Result.WON``, ``LOST`` or ``TIED`` (the old name).
Outcome = Result


#: Calls closer together than this are "at the same moment".
SAME_MOMENT = 0.5


def round_result(seconds: float, success: bool, computer: ComputerCall | None) -> Result:
    """What a timed round stores as its result once the student has called: right or wrong
    in practice (no computer team), else the race's outcome (D1).
    The web page and the simulator both settle a round with this."""
    if computer is None:
        return Result.RIGHT if success else Result.WRONG
    return race(seconds, success, computer)[0]


def race(
    student_at: float | None, student_right: bool, computer: ComputerCall
) -> tuple[Result, str]:
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
                Result.LOST,
                f"The computer called GeoPlunge! first, at {computer.call_at:.0f} s, and got everything right.",
            )
        return (
            Result.WON,
            f"The computer called GeoPlunge! first, at {computer.call_at:.0f} s, but got something wrong, so you win.",
        )
    if abs(computer.call_at - student_at) <= SAME_MOMENT:
        if student_right == computer.call_right:
            return Result.TIED, "You both called GeoPlunge! at the same moment."
        return (
            (Result.WON, "You both called at once, and only you got everything right.")
            if student_right
            else (
                Result.LOST,
                "You both called at once, and only the computer got everything right.",
            )
        )
    if student_right:
        return (
            Result.WON,
            f"You called GeoPlunge! first, at {student_at:.0f} s, and got everything right.",
        )
    return (
        Result.LOST,
        f"You called GeoPlunge! first, at {student_at:.0f} s, but something was wrong, so the computer wins.",
    )
