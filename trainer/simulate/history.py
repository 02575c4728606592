"""What a simulated learner meets and does: their teacher's assignments (:class:`Task`) and
their :class:`History`, as the columns the app stores. Pure Python.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from trainer.facts import Facet
from trainer.simulate.learner import Learner

#: The names of the modes' round lists (each the name of the demo school's table of them), in the
#: order the modes' players register them (:func:`round_list`).
ROUND_LISTS: list[str] = []


def round_list(name: str) -> str:
    """Register ``name`` as a list of rounds in every :class:`History` (once), and return it.

    A mode's player calls this for its table, so a new mode needs no edit to :class:`History`.
    """
    if name not in ROUND_LISTS:
        ROUND_LISTS.append(name)
    return name


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


@dataclass
class History:
    """What one simulated student did, as the columns the app stores (without ids and student ids).

    ``reviews`` are in time order; ``cards`` are the memory cards by fact key, their schedule
    being the replay of the reviews. ``rounds`` holds each mode's rounds by the name of their
    list (:data:`ROUND_LISTS`), also read as attributes: ``history.state_iq_games``.
    """

    learner: Learner
    reviews: list[dict[str, Any]] = field(default_factory=list)
    cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    rounds: dict[str, list[dict[str, Any]]] = field(
        default_factory=lambda: {name: [] for name in ROUND_LISTS}
    )
    #: Rounds started from an assignment: {"task": index in ``tasks``, "activity", "round_token", "created_at"}.
    assignment_rounds: list[dict[str, Any]] = field(default_factory=list)
    first_active: dt.datetime | None = None
    last_active: dt.datetime | None = None

    def rows(self, name: str) -> list[dict[str, Any]]:
        """The rounds listed as ``name`` (a :data:`ROUND_LISTS` name)."""
        return self.rounds.setdefault(name, [])

    @property
    def study_rounds(self) -> list[dict[str, Any]]:
        return self.rows("study_rounds")

    @property
    def state_iq_games(self) -> list[dict[str, Any]]:
        return self.rows("state_iq_games")

    @property
    def dashing_rounds(self) -> list[dict[str, Any]]:
        return self.rows("dashing_rounds")

    @property
    def border_up_rounds(self) -> list[dict[str, Any]]:
        return self.rows("border_up_rounds")

    @property
    def card_games(self) -> list[dict[str, Any]]:
        return self.rows("card_games")

    if not TYPE_CHECKING:  # the type checker still flags a misspelt attribute

        def __getattr__(self, name: str) -> list[dict[str, Any]]:
            """Another mode's rounds by the name of their list (the demo school reads each
            table's rows with ``getattr(history, name)``)."""
            if name in ROUND_LISTS:
                return self.rows(name)
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
