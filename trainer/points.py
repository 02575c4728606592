"""Points for answers: they reward knowing a fact, never luck or speed (ruling P-E1).

A fact recalled without help (typed, or found on the map) earns :data:`RECALLED`; a right pick
among offered options earns less, :data:`PICKED`, since a guess among four is right one time in
four; a typed answer that is nearly right ("Close": a small misspelling) earns :data:`CLOSE`; a
miss or "I don't know" earns nothing. Time never counts: a slow right answer earns as much as a
fast one, and nothing is taken away for a miss.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from trainer.facts import Form
from trainer.facts.answers import Verdict

#: A fact recalled: typed (a name, a capital, a code, a rank) or found on the map.
RECALLED = 10
#: A fact picked right from the options offered (one guess in four is right by luck).
PICKED = 4
#: A typed answer nearly right (a small misspelling): known, not yet exact.
CLOSE = 5


def points_for(verdict: Verdict | str, form: Form | str) -> int:
    """The points one answer earns: by how it was asked and how it was marked, nothing else."""
    verdict = Verdict(verdict)
    form = Form(form)
    if verdict is Verdict.WRONG:
        return 0
    if form is Form.CHOICE:
        # A pick is right or wrong; "close" does not happen, and would earn no more than right.
        return PICKED
    return RECALLED if verdict is Verdict.RIGHT else CLOSE


@dataclass(frozen=True)
class Tally:
    """The points of a round's answers."""

    points: int
    #: Answers that earned points, and the most a round of these answers could earn.
    scoring: int
    best: int


def tally(answers: Iterable[tuple[Verdict | str, Form | str]]) -> Tally:
    """Total the points of ``(verdict, form)`` pairs; ``best`` is every one of them right."""
    points = scoring = best = 0
    for verdict, form in answers:
        earned = points_for(verdict, form)
        points += earned
        scoring += earned > 0
        best += points_for(Verdict.RIGHT, form)
    return Tally(points=points, scoring=scoring, best=best)
