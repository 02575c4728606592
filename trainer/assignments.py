"""Assignments: the practice a teacher sets, the activities it may name, and how far a student has got.

Pure Python: the web layer reads the review log and the round records, and this module turns
them into progress, so progress is the same whenever it is computed (rulings P-A1..P-A5).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any
from zoneinfo import ZoneInfo

from trainer import srs
from trainer.cards import Deck, Region, Zone
from trainer.facts import Facet, Fact, facts_of
from trainer.modes import MODES, Mode

#: Something a teacher can assign: a quiz mode, flashcard review, or a card game in drill mode.
Activity = Mode


class _Activities(Mapping[str, Mode]):
    """The assignable modes of :data:`trainer.modes.MODES` by slug, read from the registry each
    time, so a mode registered later is offered too."""

    def __getitem__(self, slug: str) -> Mode:
        mode = MODES.get(slug)
        if mode is None or not mode.assignable:
            raise KeyError(slug)
        return mode

    def __iter__(self) -> Iterator[str]:
        return iter([m.slug for m in MODES.assignable()])

    def __len__(self) -> int:
        return len(MODES.assignable())


#: Every activity an assignment may name, in the order they are offered (the registry's order).
ACTIVITIES: Mapping[str, Mode] = _Activities()


class Amount(str, Enum):
    """What finishes an assignment: a number of rounds, a number of reviews, or a recall goal."""

    ROUNDS = "rounds"
    REVIEWS = "reviews"
    RECALL = "recall"


MAX_ROUNDS = 50
MAX_REVIEWS = 1000
MIN_TARGET = 0.5
MAX_TARGET = 0.97
DEFAULT_TARGET = 0.9


@dataclass(frozen=True)
class Scope:
    """The part of the deck an assignment practises: some facets, and some states.

    An empty set of facets means every facet the activities ask about; no area and no states
    means all 50 states. An area and hand-picked states add up (ruling P-A1).
    """

    facets: frozenset[Facet] = frozenset()
    area: str = ""
    states: frozenset[str] = frozenset()

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Scope:
        data = data or {}
        return cls(
            frozenset(Facet(f) for f in data.get("facets", []) or []),
            str(data.get("area", "") or ""),
            frozenset(str(p) for p in data.get("states", []) or []),
        )

    def to_json(self) -> dict[str, object]:
        return {
            "facets": sorted(f.value for f in self.facets),
            "area": self.area,
            "states": sorted(self.states),
        }

    @property
    def limits_states(self) -> bool:
        return bool(self.area or self.states)

    @property
    def is_everything(self) -> bool:
        return not self.facets and not self.limits_states

    def postals(self, deck: Deck) -> frozenset[str] | None:
        """The states in scope, or None for all 50."""
        if not self.limits_states:
            return None
        return area_postals(self.area, deck) | self.states

    def facet_set(self, activities: Iterable[Activity]) -> frozenset[Facet]:
        """The facets practised: those the activities ask about, narrowed to the chosen ones."""
        asked = frozenset().union(*(a.facets for a in activities))
        return asked & self.facets if self.facets else asked

    def facts(self, deck: Deck, activities: Iterable[Activity]) -> list[Fact]:
        """The facts an assignment of ``activities`` practises, in teaching order."""
        return facts_of(deck, self.facet_set(list(activities)), self.postals(deck))

    def describe(self, deck: Deck) -> str:
        """The scope in a few words: "Capitals of the West and Texas", "Everything about all 50 states"."""
        what = (
            _and([f.label for f in Facet if f in self.facets]) + " of"
            if self.facets
            else "Everything about"
        )
        where = []
        if self.area:
            where.append(area_label(self.area))
        if self.states:
            where.append(_and(sorted(deck[p].name for p in self.states)))
        return f"{what} {' and '.join(where) if where else 'all 50 states'}"


def _and(words: Sequence[str]) -> str:
    words = list(words)
    if len(words) <= 2:
        return " and ".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def area_postals(area: str, deck: Deck) -> frozenset[str]:
    """The states of ``"region:<slug>"`` or ``"zone:<slug>"``; no states for "" or an unknown area."""
    kind, _, slug = area.partition(":")
    if kind == "region" and (region := Region.from_slug(slug)):
        return frozenset(s.postal for s in deck.in_region(region))
    if kind == "zone" and (zone := Zone.from_slug(slug)):
        return frozenset(s.postal for s in deck.in_zone(zone))
    return frozenset()


def area_label(area: str) -> str:
    kind, _, slug = area.partition(":")
    if kind == "region" and (region := Region.from_slug(slug)):
        return f"the {region.value}"
    if kind == "zone" and (zone := Zone.from_slug(slug)):
        return f"the {zone.value} time zone"
    return "all 50 states"


def scope_problems(activities: Sequence[Activity], scope: Scope, deck: Deck) -> list[str]:
    """Why this scope cannot be practised with these activities (empty when it can)."""
    problems = []
    if scope.facets:
        for activity in activities:
            if not activity.facets & scope.facets:
                asks = _and([f.label for f in Facet if f in activity.facets])
                problems.append(
                    f"{activity.title} does not ask about {_and([f.label for f in Facet if f in scope.facets])}: it asks about {asks}."
                )
    if scope.limits_states and not (scope.postals(deck) or frozenset()):
        problems.append("The scope has no states: choose a part of the country or some states.")
    if not problems and not scope.facts(deck, activities):
        problems.append("Nothing is left to practise in that scope.")
    return problems


# --- A default title -----------------------------------------------------------------------------

#: The longest title an assignment may have (the web layer's column and form use it too).
TITLE_MAX = 80
#: At most this many facets are named in a default title ("Capitals and Postal codes"); more
#: are counted ("4 kinds of facts about").
_FACETS_NAMED = 3
#: At most this many hand-picked states are named; more are counted ("12 states").
_STATES_NAMED = 3
#: The facets a title calls "Rankings" when all three are in scope.
_RANK_FACETS = frozenset({Facet.SIZE, Facet.STATEHOOD, Facet.POPULATION})


def default_title(
    scope: Scope,
    deck: Deck,
    activities: Sequence[Activity],
    amount: Amount,
    quantity: int | None = None,
    target: float | None = None,
    max_length: int = TITLE_MAX,
) -> str:
    """The title of an assignment the teacher left untitled: what, where, and how much, in plain
    words that fit ``max_length``: "Capitals of the Northeast at 90%", "Map of all 50 states:
    20 answers", "Postal codes of Ohio, Texas and Utah: 5 rounds of State IQ".

    The first wording that fits is used: the activity is left out, then the states are counted
    instead of named, then the facets (then the text is cut: only a ``max_length`` far below
    :data:`TITLE_MAX` needs that).
    """
    facets = [f for f in Facet if f in scope.facet_set(activities)]
    labels = [f.label for f in facets]
    if set(facets) >= _RANK_FACETS:  # the three rankings are one word
        labels = [f.label for f in facets if f not in _RANK_FACETS]
        labels.insert(min(i for i, f in enumerate(facets) if f in _RANK_FACETS), "Rankings")
    counted = f"{len(facets)} kinds of facts about"
    if not labels or len(labels) > _FACETS_NAMED and not scope.facets:
        whats = ["Everything about"]
    elif len(labels) > _FACETS_NAMED or len(labels) == 1:
        whats = [counted if len(labels) > 1 else labels[0] + " of"]
    else:
        whats = [_and(labels) + " of", counted]
    if amount is Amount.RECALL:
        hows = [f" at {round((target if target is not None else DEFAULT_TARGET) * 100)}%"]
    else:
        count = quantity or 1
        noun = ("round" if amount is Amount.ROUNDS else "answer") + ("" if count == 1 else "s")
        hows = [f": {count} {noun}"]
        if len(activities) == 1:
            hows.insert(
                0, f"{hows[0]} {'of' if amount is Amount.ROUNDS else 'in'} {activities[0].title}"
            )
    wheres = _where_options(scope, deck)
    # Named facets, then named states, say more than the activity's name.
    for what in whats:
        for where in wheres:
            for how in hows:
                title = f"{what} {where}{how}"
                if len(title) <= max_length:
                    return title
    # Only a limit far below TITLE_MAX comes here: the text is cut, but never how much.
    what_where, how = f"{whats[-1]} {wheres[-1]}", hows[-1].lstrip(" :")
    return what_where[: max(max_length - len(how) - 2, 0)].rstrip() + "… " + how


def _where_options(scope: Scope, deck: Deck) -> list[str]:
    """The states in scope in words, longest first: "the West, Ohio and Texas", "the West and 2 states"."""
    area = area_label(scope.area) if scope.area and area_postals(scope.area, deck) else ""
    names = sorted(deck[p].name for p in scope.states)
    if not area and not names:
        return ["all 50 states"]
    counted = f"{len(names)} state{'' if len(names) == 1 else 's'}" if names else ""
    options = []
    if len(names) <= _STATES_NAMED:
        options.append(_and([area, *names] if area else names))
    options.append(_and([w for w in (area, counted) if w]))
    return options


# --- Dates ---------------------------------------------------------------------------------------


def window(starts_on: dt.date, due_on: dt.date, time_zone: str) -> tuple[dt.datetime, dt.datetime]:
    """The assignment's time in UTC: from the start of its first day to the end of its due day."""
    tz = ZoneInfo(time_zone)
    start = dt.datetime.combine(starts_on, dt.time(0), tzinfo=tz).astimezone(dt.UTC)
    end = dt.datetime.combine(due_on + dt.timedelta(days=1), dt.time(0), tzinfo=tz).astimezone(
        dt.UTC
    )
    return start, end


def local_dates(
    starts_at: dt.datetime, due_at: dt.datetime, time_zone: str
) -> tuple[dt.date, dt.date]:
    """The start and due dates a teacher chose (the inverse of :func:`window`)."""
    tz = ZoneInfo(time_zone)
    return starts_at.astimezone(tz).date(), (due_at.astimezone(tz) - dt.timedelta(days=1)).date()


# --- A test day (P-A5) ---------------------------------------------------------------------------

#: A test day may be at most this many days after today.
TEST_DAYS_AHEAD = 366


def test_day_problem(test_on: dt.date, starts_on: dt.date | None, today: dt.date) -> str | None:
    """Why ``test_on`` cannot be an assignment's test day (None when it can): it must be on or
    after the start date, not past, and at most a year ahead."""
    if starts_on is not None and test_on < starts_on:
        return "The test day is before the start date. Choose a test day on or after the start."
    if test_on < today:
        return "That test day has passed. Choose today or a later day, or leave it empty."
    if test_on > today + dt.timedelta(days=TEST_DAYS_AHEAD):
        return "A test day can be at most a year ahead."
    return None


test_day_problem.__test__ = False  # type: ignore[attr-defined]  # pytest: not a test, whatever its name


def test_day_sentence(test_on: dt.date, percent: int, you: bool) -> str:
    """The test day in plain words: "Test on Friday 12 December: the schedule aims for you to
    remember 90% of these facts that day." (for the teacher: "for your students")."""
    who = "you" if you else "your students"
    return f"Test on {test_on:%A} {test_on.day} {test_on:%B}: the schedule aims for {who} to remember {percent}% of these facts that day."


test_day_sentence.__test__ = False  # type: ignore[attr-defined]


# --- Progress ------------------------------------------------------------------------------------


class Status(str, Enum):
    UPCOMING = "upcoming"
    NOT_STARTED = "not started"
    IN_PROGRESS = "in progress"
    ON_TRACK = "on track"
    DONE = "done"
    DONE_LATE = "done late"
    OVERDUE = "overdue"

    @property
    def finished(self) -> bool:
        return self in (Status.DONE, Status.DONE_LATE)


@dataclass(frozen=True)
class Progress:
    """A student's progress on one assignment.

    Attributes:
        done: rounds finished, reviews given, or facts at the target (for a goal).
        needed: what finishes the assignment, in the same unit.
        late: how many of ``done`` came after the due date (rounds and reviews; P-A4).
        completed_at: when the amount was reached (None for a goal, or not yet).
    """

    status: Status
    done: int
    needed: int
    late: int = 0
    completed_at: dt.datetime | None = None
    weakest: tuple[str, ...] = field(default=())

    @property
    def percent(self) -> int:
        return 100 if self.needed == 0 else min(100, (100 * self.done) // self.needed)


def count_progress(
    times: Iterable[dt.datetime],
    needed: int,
    starts_at: dt.datetime,
    due_at: dt.datetime,
    now: dt.datetime,
) -> Progress:
    """Progress of an amount (rounds or reviews) from the times each was finished.

    Times before the start do not count; times after the due date count, as late (P-A4).
    """
    counted = sorted(t for t in times if starts_at <= t <= now)
    late = sum(1 for t in counted if t >= due_at)
    completed_at = counted[needed - 1] if len(counted) >= needed else None
    if completed_at is not None:
        status = Status.DONE if completed_at < due_at else Status.DONE_LATE
    elif now < starts_at:
        status = Status.UPCOMING
    elif now >= due_at:
        status = Status.OVERDUE
    elif counted:
        status = Status.IN_PROGRESS
    else:
        status = Status.NOT_STARTED
    return Progress(status, len(counted), needed, late, completed_at)


@dataclass(frozen=True)
class Review:
    """One review of a fact: when, and the stability it left (from the review log)."""

    at: dt.datetime
    stability: float | None


def recall_at(
    reviews: Sequence[Review],
    cutoff: dt.datetime,
    at: dt.datetime,
    time_zone: str,
    weights: srs.Weights | None = None,
) -> float:
    """Predicted recall at ``at`` from the last review up to ``cutoff`` (0 when never reviewed),
    counting the student's study days in ``time_zone`` (P-M1), under the student's own FSRS
    ``weights`` (P-M10; the standard ones when None)."""
    last = None
    for review in reviews:
        if review.at <= cutoff and (last is None or review.at >= last.at):
            last = review
    if last is None:
        return 0.0
    return srs.recall(last.stability, last.at, at, time_zone, weights)


def recall_progress(
    facts: Sequence[str],
    reviews: Mapping[str, Sequence[Review]],
    target: float,
    starts_at: dt.datetime,
    due_at: dt.datetime,
    now: dt.datetime,
    time_zone: str,
    weights: srs.Weights | None = None,
) -> Progress:
    """Progress towards "every fact in scope at ``target`` predicted recall on the due date".

    Elapsed time counts in the student's study days in ``time_zone`` (P-M1), and recall follows
    the student's own ``weights`` (P-M10; the standard ones when None). Before the due date, each fact's recall on the due date is predicted from the reviews so far.
    After it, the goal is judged on the reviews given by the due date; if it was missed, recall
    now from every review tells whether it was reached late (P-A3).
    """
    cutoff = min(now, due_at)
    on_due = {
        key: recall_at(reviews.get(key, ()), cutoff, due_at, time_zone, weights) for key in facts
    }
    met = [key for key in facts if on_due[key] >= target]
    missing = [key for key in facts if on_due[key] < target]
    weakest = tuple(sorted(missing, key=lambda k: on_due[k])[:5])
    if now < due_at:
        if now < starts_at:
            status = Status.UPCOMING
        elif not missing:
            status = Status.ON_TRACK
        elif any(r.at >= starts_at for key in facts for r in reviews.get(key, ())):
            status = Status.IN_PROGRESS
        else:
            status = Status.NOT_STARTED
        return Progress(status, len(met), len(facts), 0, None, weakest)
    if not missing:
        return Progress(Status.DONE, len(met), len(facts), 0, None, ())
    late_met = [
        key
        for key in facts
        if recall_at(reviews.get(key, ()), now, now, time_zone, weights) >= target
    ]
    if len(late_met) == len(facts):
        return Progress(
            Status.DONE_LATE, len(late_met), len(facts), len(late_met) - len(met), None, ()
        )
    return Progress(Status.OVERDUE, len(met), len(facts), 0, None, weakest)
