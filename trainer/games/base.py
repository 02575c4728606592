"""One interface for every card game, modelled on OpenSpiel's ``Game`` / ``State``.

A game is fixed parameters plus a seed; a state changes only through :meth:`State.apply_action`,
so any game is stored as (game, parameters, seed, actions) and rebuilt by :func:`replay`. Actions
are small integers; each game decodes them into a :class:`Move` (a card, a category, a call) and
labels them for people. Computer players see only :meth:`State.observation` and the legal actions.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from ..cards import Category, Deck, StateCard
from ..facts import Facet

if TYPE_CHECKING:
    from .drill import Answerer, DrillAnswer

#: ``current_player()`` once the game is over.
TERMINAL = -1


class GameError(ValueError):
    """A request the rules do not allow; the message says why in words a student understands."""


class IllegalAction(GameError):
    """An action that is not legal now. The state is unchanged."""


@dataclass(frozen=True)
class Params:
    """What a game is played with: how many seats, and how many players per side.

    Team members sit alternately (G6): with 4 players in teams of 2, seats 0 and 2 are one side
    and seats 1 and 3 the other. ``first_leader`` fixes who starts where a game lets an earlier
    game decide (Play the Ranks after Dashing States in Combo 1); None draws it (R2, G7).
    """

    players: int = 2
    team_size: int = 1
    first_leader: int | None = None

    @property
    def sides(self) -> int:
        return self.players // self.team_size

    def side_of(self, seat: int) -> int:
        """The side (team, or the player alone) that ``seat`` plays for (G6)."""
        return seat % self.sides

    def seats_of(self, side: int) -> list[int]:
        return [seat for seat in range(self.players) if self.side_of(seat) == side]

    def as_dict(self) -> dict[str, int | None]:
        return {
            "players": self.players,
            "team_size": self.team_size,
            "first_leader": self.first_leader,
        }


@dataclass(frozen=True)
class Move:
    """What an action means. Each game decodes its actions into its own typed moves (a card, a
    card led on a category, a named call); ``kind`` names the kind of move in one word."""

    kind: ClassVar[str] = "move"

    def card_played(self) -> str | None:
        """The card (postal code) the move plays from the hand, if it plays one."""
        return None


@dataclass(frozen=True)
class PlayCard(Move):
    """Play a card from the hand (follow a trick, or discard it where the phase says so)."""

    kind: ClassVar[str] = "card"
    card: str

    def card_played(self) -> str | None:
        return self.card


@dataclass(frozen=True)
class LeadCard(Move):
    """Lead a card and name the category the trick is played in."""

    kind: ClassVar[str] = "lead"
    card: str
    category: Category

    def card_played(self) -> str | None:
        return self.card


@dataclass(frozen=True)
class Event:
    """One line of a game's public log: who did what, and why it won or lost.

    Only what every seat may see goes in an event: a face-down card is never named.
    """

    ply: int
    text: str
    seat: int | None = None
    kind: str = "play"

    def as_dict(self) -> dict[str, Any]:
        return {"ply": self.ply, "text": self.text, "seat": self.seat, "kind": self.kind}


class Game(ABC):
    """A card game with fixed parameters; it deals new states from a seed."""

    slug: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    #: Players per side the game allows (1 = everyone for themselves).
    team_sizes: ClassVar[tuple[int, ...]] = (1,)
    #: False for a game of pure luck (Geography War): the computer level changes nothing.
    has_choices: ClassVar[bool] = True
    #: Where the games page lists the game (lowest first).
    menu_order: ClassVar[int] = 100
    #: What the games page says after its title: "the worst ranking wins the trick (2-7 players)".
    summary: ClassVar[str] = ""
    #: The facets its drill answers review: where cards rank (GeoPower Toss: their Zone too).
    reviews: ClassVar[frozenset[Facet]] = frozenset({Facet.SIZE, Facet.STATEHOOD, Facet.POPULATION})
    #: The ``mode`` its drill answers carry in the review log; by default the slug with "_" for "-".
    log_mode: ClassVar[str]
    #: Whether the table's log shows only the round being played, and says so.
    round_log: ClassVar[bool] = False
    #: False for a game on this interface that is not one of the card games (State IQ): the
    #: registry keeps it apart, so the games page, the card-game modes and the simulator skip it.
    card_game: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A class that names its own ``slug`` is a playable game: it registers itself."""
        super().__init_subclass__(**kwargs)
        if "slug" in cls.__dict__:
            if "log_mode" not in cls.__dict__:
                cls.log_mode = cls.slug.replace("-", "_")
            REGISTRY.register(cls)

    def __init__(
        self,
        deck: Deck,
        params: Params | None = None,
        *,
        viewer: int = 0,
        names: Mapping[int, str] | None = None,
    ) -> None:
        """A game with ``params``, its log written for the student at seat ``viewer``.

        ``names`` names some seats (the students at a live table, by username); a seat without
        one is a computer player. Neither is part of the rules: they change the log's words and
        nothing else (no legal move, observation, deal or return), so the same seed and actions
        replay to the same game whoever reads it.

        Raises:
            GameError: parameters the game does not allow, or a viewer or name for no seat.
        """
        params = params or Params()
        if not self.min_players <= params.players <= self.max_players:
            raise GameError(
                f"{self.title} is for {self.min_players} to {self.max_players} players."
            )
        if params.team_size not in self.team_sizes:
            raise GameError(f"{self.title} cannot be played in teams of {params.team_size}.")
        if params.players % params.team_size or params.sides < 2:
            raise GameError(
                f"{params.players} players cannot be split into teams of {params.team_size}."
            )
        if params.first_leader is not None and not 0 <= params.first_leader < params.players:
            raise GameError("The first leader must be one of the players.")
        if (
            isinstance(viewer, bool)
            or not isinstance(viewer, int)
            or not 0 <= viewer < params.players
        ):
            raise GameError("The student reading the game must sit at one of the seats.")
        names = dict(names or {})
        if any(not 0 <= seat < params.players for seat in names):
            raise GameError("Only a seat at the table can have a player's name.")
        if not all(isinstance(name, str) and name.strip() for name in names.values()):
            raise GameError("A player's name cannot be empty.")
        #: The seat whose student reads the log: "You" (live play lets every seat read it).
        self.viewer = viewer
        #: The names of the seats that have one (students at a live table); the others are computers.
        self.names: Mapping[int, str] = names
        self.deck = deck
        self.params = params
        self.cards: tuple[StateCard, ...] = tuple(deck)
        self.index = {card.postal: i for i, card in enumerate(self.cards)}
        self.by_postal = {card.postal: card for card in self.cards}
        #: Each card's (size, statehood, population) rankings, for players that think fast.
        self.ranks = {card.postal: tuple(card.rank(c) for c in Category) for card in self.cards}

    @property
    def players(self) -> int:
        return self.params.players

    @abstractmethod
    def new_initial_state(self, seed: int) -> State:
        """The state after the deal drawn from ``seed``."""

    @abstractmethod
    def sample_state(self, observation: dict[str, Any], rng: random.Random) -> State:
        """A full state consistent with everything ``observation``'s seat has seen.

        Search players think about these: the hidden cards are dealt at random from the cards
        the seat has not seen, so a search player never reads another seat's hand.
        """

    def card(self, postal: str) -> StateCard:
        return self.by_postal[postal]


class State(ABC):
    """One moment of a game. Changed only by :meth:`apply_action`; copied by :meth:`clone`."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.history: list[int] = []
        self.log: list[Event] = []

    # --- the interface ---------------------------------------------------------------------

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, or TERMINAL."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """The actions the current player may take, in a fixed order; empty once the game is over."""

    @abstractmethod
    def decode(self, action: int) -> Move:
        """What ``action`` means. Raises IllegalAction for a number no move has."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """A readable label: "Play Texas and announce size 2"."""

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Carry out a legal action."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]:
        """Per seat: 1 for the winning side, 0 for the others, 0.5 each in a draw; zeros until the end."""

    @abstractmethod
    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may see, JSON-safe: their own hand, face-up cards, counts and scores."""

    @abstractmethod
    def all_cards(self) -> list[str]:
        """Every card in the game wherever it is (hands, piles, tricks, discards, undealt): for the conservation check."""

    @abstractmethod
    def hidden_from(self, player: int) -> set[str]:
        """The cards ``player`` may not see now (other hands, face-down cards)."""

    @abstractmethod
    def clone(self) -> State: ...

    # --- shared ----------------------------------------------------------------------------

    def apply_action(self, action: int) -> None:
        """Apply a legal action for the current player.

        Raises:
            IllegalAction: the game is over, or ``action`` is not legal now; nothing changes.
        """
        if self.is_terminal():
            raise IllegalAction("The game is over.")
        if action not in self.legal_actions():
            raise IllegalAction(self.why_illegal(action))
        self._apply(action)
        self.history.append(action)

    def why_illegal(self, action: int) -> str:
        """Why ``action`` is refused now, for the student. Games explain their own rules."""
        return "That move is not allowed now."

    # --- what the table page and the drill ask of a game (games override these) ----------

    def drill_answers(self, action: int, answer: Answerer) -> list[DrillAnswer]:
        """Judge what the player to move says with ``action`` in drill mode, before it is played.

        The game asks its questions (:class:`~trainer.games.drill.DrillQuestion`) through
        ``answer``: the web page reads the answers from the move's form, the simulator has a
        learner give them. The state is not changed; the caller plays ``action`` afterwards.

        Returns:
            The judged answers; none when the move asks nothing (the default).

        Raises:
            UnreadableAnswer: an answer that cannot be read (nothing is recorded).
            RefusedPlay: the play is refused, but its judged answers count.
            IllegalAction: the move is refused.
        """
        return []

    def play_batch(self, count: int) -> bool:
        """Play up to ``count`` steps that need no choice in one go (Geography War's battles).

        Returns False, and changes nothing, in a game without such steps (the default).
        """
        return False

    def table_view(
        self, observation: dict[str, Any], your_turn: bool, drill: bool
    ) -> dict[str, Any]:
        """What this game's table template shows of the student's ``observation``, beyond the
        parts every table shares (hand, log, turn). ``drill`` hides what the student answers."""
        return {}

    def seat_names(self) -> list[str]:
        """Every seat's name as the viewer reads it (see :meth:`seat_name`)."""
        return [self.seat_name(seat) for seat in range(self.game.players)]

    def winners(self) -> list[int]:
        """The seats that won (every seat in a draw); empty until the end."""
        if not self.is_terminal():
            return []
        returns = self.returns()
        best = max(returns)
        return [seat for seat, value in enumerate(returns) if value == best]

    @property
    def viewer(self) -> int:
        """The seat the log is written for (:attr:`Game.viewer`): its moves are "You play"."""
        return self.game.viewer

    def seat_name(self, seat: int) -> str:
        """How the log names a seat to the viewer: "You", "Your partner (maria.g)" (or "(player
        3)" unnamed), a named player's name ("maria.g"), else a computer: "Computer 2", or "The
        computer" in a two-player game."""
        game = self.game
        if seat == game.viewer:
            return "You"
        params = game.params
        name = game.names.get(seat)
        if params.team_size > 1 and params.side_of(seat) == params.side_of(game.viewer):
            return f"Your partner ({name or f'player {seat + 1}'})"
        if name:
            return name
        return f"Computer {seat}" if params.players > 2 else "The computer"

    def side_name(self, side: int) -> str:
        """How the log names a side: the player alone, or "Your team" (the viewer's) / "Team 2"."""
        params = self.game.params
        if params.team_size == 1:
            return self.seat_name(side)
        return "Your team" if side == params.side_of(self.viewer) else f"Team {side + 1}"

    def verb_end(self, seat: int) -> str:
        """The verb ending after ``seat``'s name: "You play", "maria.g plays", "Computer 1 plays".

        Decided by the seat, not by its name's words, so a player named "You..." reads right.
        """
        return "" if seat == self.viewer else "s"

    def side_verb_end(self, side: int) -> str:
        """The verb ending after a side's name: "You score" alone, "Your team scores", "Team 2 scores"."""
        params = self.game.params
        return "" if params.team_size == 1 and side == params.side_of(self.viewer) else "s"

    def seat_in_sentence(self, seat: int) -> str:
        """``seat``'s name inside a sentence: "you", "your partner (maria.g)", "the computer",
        "Computer 2"; a player's own name stays as they spell it."""
        game = self.game
        partner = game.params.team_size > 1 and game.params.side_of(seat) == game.params.side_of(
            game.viewer
        )
        if seat != game.viewer and seat in game.names and not partner:
            return game.names[seat]
        return in_sentence(self.seat_name(seat))

    def side_in_sentence(self, side: int) -> str:
        """A side's name inside a sentence: "you", "your team", "Team 2" (a player alone as
        :meth:`seat_in_sentence`)."""
        if self.game.params.team_size == 1:
            return self.seat_in_sentence(side)
        return in_sentence(self.side_name(side))

    def note(self, text: str, seat: int | None = None, kind: str = "play") -> None:
        self.log.append(Event(len(self.history), text, seat, kind))

    def _copy_base(self, other: State) -> None:
        other.history = list(self.history)
        other.log = list(self.log)

    def side_returns(self, winning_sides: Iterable[int]) -> list[float]:
        """Returns per seat for the given winning sides: 1 each when one side won, 0.5 when two drew."""
        sides = set(winning_sides)
        share = 1.0 if len(sides) == 1 else 1.0 / len(sides)
        params = self.game.params
        return [share if params.side_of(seat) in sides else 0.0 for seat in range(params.players)]


class DealtState(State):
    """A state whose cards are in the seats' ``hands`` or ``undealt``, plus face-up cards:
    a seat may not see the other hands or the undealt cards."""

    def __init__(self, game: Game, rng: random.Random) -> None:
        super().__init__(game)
        #: The state's own generator: every later deal is drawn from it (G9).
        self.rng = rng
        self.hands: list[list[str]] = []
        self.undealt: list[str] = []

    def hidden_from(self, player: int) -> set[str]:
        others = {p for seat, hand in enumerate(self.hands) if seat != player for p in hand}
        return others | set(self.undealt)


class PointsState(DealtState):
    """A game played in rounds to 50 points (G8): ``scores`` per side, ``over`` once a side has won."""

    scores: list[int]
    over: bool

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.game.players
        return self.side_returns([self.scores.index(max(self.scores))])


def in_sentence(name: str) -> str:
    """``name`` inside a sentence: "you", "your partner (player 3)", "the computer", "Computer 2"."""
    return name[0].lower() + name[1:] if name.startswith(("You", "The ")) else name


def card_or_lead(
    cards: Sequence[StateCard], action: int, lead: int, title: str
) -> PlayCard | LeadCard:
    """Decode the two kinds of action of a game where the leader names a category (Play the Ranks,
    GeoClash Down Back): ``card index`` to play a card, ``lead + card index * 3 + category index``
    to lead one on a category.

    Raises:
        IllegalAction: no move has this number.
    """
    if isinstance(action, int) and 0 <= action < len(cards):
        return PlayCard(cards[action].postal)
    if isinstance(action, int) and lead <= action < lead + len(cards) * 3:
        return LeadCard(cards[(action - lead) // 3].postal, tuple(Category)[(action - lead) % 3])
    raise IllegalAction(f"That is not a move in {title}.")


def table_plays(deck: Deck, plays: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    """A trick's plays as the table shows them: who played, from which seat, and the card."""
    return [
        {"who": names[play["seat"]], "seat": play["seat"], "card": deck[play["card"]]}
        for play in plays
    ]


def copy_rng(rng: random.Random) -> random.Random:
    out = random.Random(0)  # seeded, so the copy does not ask the OS for entropy before setstate
    out.setstate(rng.getstate())
    return out


def shuffled(items: Sequence[str], rng: random.Random) -> list[str]:
    out = list(items)
    rng.shuffle(out)
    return out


@dataclass
class Registry:
    """The card games by slug, in the order the games page lists them; indexing and iterating
    see only them. ``other_games`` holds the other games on this interface (State IQ)."""

    games: dict[str, type[Game]] = field(default_factory=dict)
    other_games: dict[str, type[Game]] = field(default_factory=dict)

    def register(self, cls: type[Game]) -> type[Game]:
        """Add ``cls`` (games register themselves when their class is defined, see ``Game``)."""
        if not cls.card_game:
            self.other_games[cls.slug] = cls
            return cls
        self.games[cls.slug] = cls
        self.games = dict(sorted(self.games.items(), key=lambda item: item[1].menu_order))
        return cls

    def find(self, slug: str) -> type[Game] | None:
        """The game ``slug``, card game or other; None when there is none."""
        return self.games.get(slug) or self.other_games.get(slug)

    def __getitem__(self, slug: str) -> type[Game]:
        return self.games[slug]

    def __contains__(self, slug: object) -> bool:
        return slug in self.games

    def __iter__(self) -> Iterator[type[Game]]:
        return iter(self.games.values())


REGISTRY = Registry()


def make_game(
    slug: str,
    deck: Deck,
    params: Params | None = None,
    *,
    viewer: int = 0,
    names: Mapping[int, str] | None = None,
) -> Game:
    """The registered game ``slug`` with ``params``, its log written for seat ``viewer`` with
    the seats' ``names`` (see :class:`Game`).

    Raises:
        GameError: no such game, or parameters, a viewer or names it does not allow.
    """
    cls = REGISTRY.find(slug)
    if cls is None:
        raise GameError("There is no such game.")
    return cls(deck, params, viewer=viewer, names=names)


def replay(game: Game, seed: int, actions: Iterable[int]) -> State:
    """Rebuild a game from its seed and actions (G9).

    Raises:
        IllegalAction: an action in the list is not legal where it stands.
    """
    state = game.new_initial_state(seed)
    for action in actions:
        state.apply_action(action)
    return state
