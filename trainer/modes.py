"""The registry of modes: one description of each way a student practises, in the order offered.

A mode is flashcard review, a Level 1 quiz (State IQ, Dashing States, Border-Up), a card game
(from :data:`trainer.games.REGISTRY`) or Combo 1. Each mode registers itself from its own core
module (``MODES.register(Mode(...))``); :data:`MODES` imports those modules on first use (every
module of :data:`PACKAGES`, and :data:`MODULES`), so a new mode is a new module, not an edit here.
Assignments, the simulator and, through :mod:`trainer.web.modes`, the web layer loop over
:data:`MODES` instead of naming the modes, as OpenSpiel's tools loop over its registered games.
Pure Python.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from trainer.facts import Facet

if TYPE_CHECKING:
    from trainer.games import Game

#: Where the modes register themselves: every module of these packages is imported on first use
#: of :data:`MODES` (sorted by name) ...
PACKAGES = ("trainer.quiz",)
#: ... and these modules: flashcard review, the card games' package (whose games register in
#: :data:`trainer.games.REGISTRY`; each becomes a mode through :func:`card_game_mode`), Combo 1.
MODULES = ("trainer.review", "trainer.games", "trainer.games.combo", "trainer.class_game")
#: The card games' place in the order of the modes (among themselves: the order of
#: :data:`trainer.games.REGISTRY`).
CARD_GAMES_ORDER = 50

#: The rank facets every card game reviews (drills ask where a card ranks).
RANKINGS = frozenset({Facet.SIZE, Facet.STATEHOOD, Facet.POPULATION})
#: The computer's levels in every mode that has a computer opponent.
LEVELS = ("easy", "medium", "hard")


class Kind(str, Enum):
    """What sort of mode it is: how its rounds are stored and played."""

    REVIEW = "review"
    QUIZ = "quiz"
    CARD_GAME = "card game"
    COMBO = "combo"


@dataclass(frozen=True)
class Mode:
    """One mode of practice.

    Attributes:
        slug: its name in URLs and in stored assignments ("state-iq").
        title: what a student and a teacher call it.
        mode: the ``mode`` its answers carry in the review log ("state_iq"); empty when the mode
            records no answers of its own (Combo 1's games record under their own modes).
        facets: the facets its answers review.
        follows_scope: whether its rounds are dealt from an assignment's scope (a card game is
            dealt by its rules from the whole deck, ruling P-A2).
        noun: what one round of it is called.
        kind: review, quiz, card game or combo.
        timed: whether a round is a race against the clock.
        levels: the computer's levels it offers (empty: no computer opponent).
        assignable: whether a teacher may set it in an assignment.
        deal: the core function that deals one of its rounds (its arguments differ by mode);
            None when the mode is a sequence of other modes' rounds.
        sessions: the usual share of a simulated learner's sessions spent on it
            (:data:`trainer.simulate.ACTIVITY_MIX`; the card games share one). 0: the simulator
            plays it only when an assignment asks for it.
        order: its place in the order the modes are offered (lower first; modes of one order
            keep the order they were registered in). Keyword only, and required: a mode says
            where it goes.
    """

    slug: str
    title: str
    mode: str
    facets: frozenset[Facet]
    follows_scope: bool
    noun: str = "round"
    kind: Kind = Kind.QUIZ
    timed: bool = False
    levels: tuple[str, ...] = LEVELS
    assignable: bool = True
    deal: Callable[..., object] | None = None
    sessions: float = 0.0
    order: int = field(kw_only=True)

    @property
    def card_game(self) -> bool:
        return self.kind is Kind.CARD_GAME


class Registry:
    """The modes by slug, in the order they are offered (:attr:`Mode.order`).

    Reading the registry first runs its ``loader`` (once), which imports the modules that
    register the modes; registering never does, so a module may register its mode as it is
    imported.
    """

    def __init__(self, loader: Callable[[Registry], None] | None = None) -> None:
        self._modes: dict[str, Mode] = {}
        self._loader = loader
        self._loaded = loader is None
        self._loading = False
        self._lock = threading.RLock()

    def _load(self) -> None:
        if self._loaded:
            return
        with self._lock:
            if self._loaded or self._loading:  # a read while loading sees the modes so far
                return
            self._loading = True
            try:
                assert self._loader is not None
                self._loader(self)
                self._loaded = True
            finally:
                self._loading = False

    def _ordered(self) -> list[Mode]:
        self._load()
        return sorted(self._modes.values(), key=lambda m: m.order)  # stable: then as registered

    def register(self, mode: Mode) -> Mode:
        """Add ``mode``.

        Raises:
            ValueError: a mode with its slug, or with its review log mode, is registered already.
        """
        if mode.slug in self._modes:
            raise ValueError(f"A mode called {mode.slug!r} is registered already.")
        if mode.mode and any(m.mode == mode.mode for m in self._modes.values()):
            raise ValueError(f"Another mode's answers are logged as {mode.mode!r}.")
        self._modes[mode.slug] = mode
        return mode

    def unregister(self, slug: str) -> None:
        """Remove a mode (for tests that register a throwaway one)."""
        del self._modes[slug]

    def __getitem__(self, slug: str) -> Mode:
        self._load()
        return self._modes[slug]

    def __contains__(self, slug: object) -> bool:
        self._load()
        return slug in self._modes

    def __iter__(self) -> Iterator[Mode]:
        return iter(self._ordered())

    def __len__(self) -> int:
        self._load()
        return len(self._modes)

    def get(self, slug: str) -> Mode | None:
        self._load()
        return self._modes.get(slug)

    def by_log_mode(self, mode: str) -> Mode | None:
        """The mode whose answers carry ``mode`` in the review log."""
        return next((m for m in self._ordered() if m.mode and m.mode == mode), None)

    def assignable(self) -> list[Mode]:
        return [m for m in self._ordered() if m.assignable]


def card_game_mode(game: type[Game], order: int = CARD_GAMES_ORDER) -> Mode:
    """A card game as a mode: its drill reviews the facets the game names (:attr:`Game.reviews`)."""
    from trainer.games import make_game  # lazily: trainer.games imports modules that import this

    return Mode(
        game.slug,
        f"{game.title} (drill)",
        game.log_mode,
        game.reviews,
        False,
        "game",
        Kind.CARD_GAME,
        deal=make_game,
        order=order,
    )


def discover(registry: Registry) -> None:
    """Import every module that registers a mode (:data:`PACKAGES`, :data:`MODULES`), then add
    each card game of :data:`trainer.games.REGISTRY` that is not registered yet.

    The imports are here, not at the top: those modules import this one.
    """
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
            importlib.import_module(f"{package_name}.{info.name}")
    for name in MODULES:
        importlib.import_module(name)
    from trainer.games import REGISTRY

    for game in REGISTRY.games.values():
        if game.slug not in registry._modes:
            registry.register(card_game_mode(game))


#: Every mode, in the order they are offered; each registers itself from its own module, and
#: the registry imports those modules on first use (:func:`discover`).
MODES = Registry(discover)
