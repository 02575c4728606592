"""The web side of each mode of :data:`trainer.modes.MODES`: one adapter per mode, registered by
the mode's own web module.

An adapter says where the mode's pages start (the navigation), how its rounds are stored (the
table and the column set when a round is finished: assignment progress, the demo school), how a
round is dealt for an assignment, how its games show on the student's dashboard, and who may use
its pages. Assignments, progress, the dashboards, teacher insights, the demo school, the access
test and the navigation loop over the adapters instead of naming the modes.

A mode's round model (and its forms) may live in its own web module, next to its adapter: the
adapter modules are imported whenever the app is made or an adapter is asked for, so the model is
in ``db.metadata`` for ``create_all``, Alembic and the demo school (:func:`round_tables`).
"""

from __future__ import annotations

import datetime as dt
import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from sqlalchemy import ColumnElement, select

from trainer.assignments import Scope
from trainer.modes import MODES, Mode

from . import BLUEPRINTS, get_deck
from .extensions import db

if TYPE_CHECKING:
    from .models import User


@dataclass(frozen=True)
class NavLink:
    """A link of the main navigation (for students).

    The link is the current page's (``aria-current``) when the request's blueprint is
    ``blueprint``, or its endpoint starts with ``prefix``.
    """

    label: str
    endpoint: str
    order: int
    blueprint: str = ""
    prefix: str = ""

    def is_current(self, blueprint: str | None, endpoint: str | None) -> bool:
        if self.blueprint:
            return blueprint == self.blueprint
        return bool(endpoint and endpoint.startswith(self.prefix))


#: The student's Progress link sits among the modes' links (it is no mode). It opens the card
#: album (#21), whose "Charts and numbers" link is one click away; it is the current page on both
#: (a student has no other ``dashboard.`` page).
PROGRESS_LINK = NavLink("Progress", "dashboard.album", 20, prefix="dashboard.")
#: Live tables with classmates (issue 22): not a mode of its own, the card games played together.
LIVE_LINK = NavLink("Classmates", "live.index", 75, blueprint="live")


class Access(str, Enum):
    """Who may use one of a mode's pages (the access test's expectation for its endpoint)."""

    #: A student's own page with nothing of anyone else's in the URL (the mode's start page, a new
    #: round): any student; teachers and admins are refused, anonymous users sent to log in.
    STUDENTS = "students"
    #: A student's round or game, by its token: only its owner; anyone else's is not found.
    STUDENT_OWN = "student own"
    #: As :attr:`STUDENT_OWN`, and the owner is sent on to another page (resume a round).
    STUDENT_OWN_SENT_ON = "student own, sent on"


@dataclass(frozen=True)
class Rounds:
    """How a mode's rounds are stored.

    Attributes:
        model: the round table's model (with ``student_id`` and ``token`` columns).
        finished: the column set when a round is finished (None while it is being played).
        prefix: the review log's round token is ``"<prefix>:<token>"``.
        history: the name of the :class:`trainer.simulate.History` list (and demo table) of its rows.
        where: more conditions a finished round meets (the card game's slug, drill mode).
    """

    model: Any
    finished: Any
    prefix: str
    history: str
    where: tuple[ColumnElement[bool], ...] = ()


@dataclass(frozen=True)
class Records:
    """How a mode's games against the computer show on the student's dashboard.

    Attributes:
        model: the table of its games (``student_id``, ``level``, ``result``).
        name: the name its records are listed under (a card game's is its title).
        drawn: the result that is a draw.
        bests: whether the fastest successful calls (``seconds``) are personal bests.
        by_game: one table for several modes, grouped by its ``game`` column (the card games).
    """

    model: Any
    name: str
    drawn: str = "tied"
    bests: bool = False
    by_game: bool = False


@dataclass(frozen=True)
class Dealt:
    """A round dealt for an assignment (added to the session, not committed).

    Attributes:
        token: its review log round token.
        url: its page.
        after_commit: what to do once it is saved (State IQ: the computer may guess first).
    """

    token: str
    url: str
    after_commit: Callable[[], None] | None = None


#: Deals a round of a mode from an assignment's scope: (student, mode, scope, level) -> the round,
#: or None when nothing is left to practise in the scope.
Deal = Callable[["User", Mode, Scope, str], Dealt | None]
#: The students' rounds finished at or after a time: (student ids, since) -> (student id, review
#: log round token, finished at) for each.
Finished = Callable[[Sequence[int], dt.datetime], list[tuple[int, str, dt.datetime]]]


@dataclass(frozen=True)
class WebMode:
    """The web adapter of one mode.

    Attributes:
        slug: the mode's slug in :data:`trainer.modes.MODES`.
        nav: its link in the main navigation (modes may share one: the card games).
        log_name: what the teacher's pages call its answers (default: the mode's title).
        rounds: how its rounds are stored (None: its games are other modes' rounds).
        deal: how a round is dealt for an assignment (None: it cannot be assigned).
        finished: its finished rounds, when not read from ``rounds`` (flashcard review reads the
            review log).
        records: how its games show on the student's dashboard (None: they do not).
        access: who may use each of its pages, as (endpoint, :class:`Access`) pairs; modes that
            share pages (the card games) each name them, alike.
    """

    slug: str
    nav: NavLink | None
    log_name: str = ""
    rounds: Rounds | None = None
    deal: Deal | None = None
    finished: Finished | None = None
    records: Records | None = None
    access: tuple[tuple[str, Access], ...] = ()

    @property
    def mode(self) -> Mode:
        return MODES[self.slug]

    @property
    def name(self) -> str:
        return self.log_name or self.mode.title

    def finished_rounds(
        self, student_ids: Sequence[int], since: dt.datetime
    ) -> list[tuple[int, str, dt.datetime]]:
        """The students' rounds of this mode finished at or after ``since``."""
        if self.finished is not None:
            return self.finished(student_ids, since)
        if self.rounds is None:
            return []
        r = self.rounds
        rows = db.session.execute(
            select(r.model.student_id, r.model.token, r.finished).where(
                r.model.student_id.in_(student_ids),
                r.finished.is_not(None),
                r.finished >= since,
                *r.where,
            )
        ).all()
        return [(row[0], f"{r.prefix}:{row[1]}", row[2]) for row in rows]


_ADAPTERS: dict[str, WebMode] = {}


def register(adapter: WebMode) -> WebMode:
    """Add a mode's web adapter (its mode must be registered in :data:`trainer.modes.MODES`).

    Raises:
        ValueError: the mode is unknown, or has an adapter already.
    """
    if adapter.slug not in MODES:
        raise ValueError(f"There is no mode {adapter.slug!r} in trainer.modes.MODES.")
    if adapter.slug in _ADAPTERS:
        raise ValueError(f"The mode {adapter.slug!r} has a web adapter already.")
    _ADAPTERS[adapter.slug] = adapter
    return adapter


def unregister(slug: str) -> None:
    """Remove a mode's adapter (for tests that register a throwaway mode)."""
    del _ADAPTERS[slug]


def _load() -> None:
    """Import the blueprint modules (:data:`trainer.web.BLUEPRINTS`, the list the app mounts), which
    register the adapters: the registry is whole even when no app has registered the blueprints
    yet. ``trainer.web.play`` imports every module of its package, so a new mode's module there
    needs no entry anywhere."""
    for name in BLUEPRINTS:
        importlib.import_module(f"{__package__}.{name}")


def adapter(slug: str) -> WebMode | None:
    """The web adapter of mode ``slug`` (None: it has none)."""
    _load()
    return _ADAPTERS.get(slug)


def adapters() -> list[WebMode]:
    """Every adapter, in the registry's order of the modes."""
    _load()
    return [_ADAPTERS[m.slug] for m in MODES if m.slug in _ADAPTERS]


def nav_links() -> list[NavLink]:
    """The links of the main navigation: the modes', the Progress page's and live play's, in order; a link
    that several modes share once."""
    links = {a.nav.endpoint: a.nav for a in adapters() if a.nav is not None}
    links.setdefault(PROGRESS_LINK.endpoint, PROGRESS_LINK)
    links.setdefault(LIVE_LINK.endpoint, LIVE_LINK)
    return sorted(links.values(), key=lambda link: (link.order, link.label))


def mode_names() -> dict[str, str]:
    """The name of each review log mode, as the teacher's pages say it."""
    return {a.mode.mode: a.name for a in adapters() if a.mode.mode}


def round_tables() -> dict[str, Any]:
    """The modes' round tables by :class:`trainer.simulate.History` list, each once, in order."""
    out: dict[str, Any] = {}
    for a in adapters():
        if a.rounds is not None:
            out.setdefault(a.rounds.history, a.rounds.model.__table__)
    return out


def access_rules() -> dict[str, Access]:
    """Who may use each of the modes' pages, by endpoint.

    Raises:
        ValueError: two modes name one endpoint with different access.
    """
    rules: dict[str, Access] = {}
    for a in adapters():
        for endpoint, access in a.access:
            if rules.setdefault(endpoint, access) is not access:
                raise ValueError(f"Modes disagree on who may use {endpoint!r}.")
    return rules


def scope_filters(scope: Scope, mode: Mode) -> tuple[set[Any] | None, set[str] | None]:
    """The facets (when the scope names some) and states (when it limits them) a round of
    ``mode`` is dealt from, as the modes' deal functions take them."""
    facets = set(scope.facet_set([mode])) if scope.facets else None
    postals = set(scope.postals(get_deck()) or ()) or None
    return facets, postals
