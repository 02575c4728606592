"""GeoPower Toss (2-6 players, individually or in teams; T1-T5, G6-G8, P-T1).

Each round the dealer lays out one Power card more than there are players; the dealer removes
one, then each other player clockwise (T1), and the card left is the round's GeoPower Card: its
category ranks the cards for the round. Then 8 tricks: follow the led card's Zone if you can
(T2); the best-ranked card of the led Zone takes the trick (T3). A side may call GeoPlunge on one
of its players' turns, from the first Power card removed until the 5th trick starts (T4, P-H10),
to score 25 for 6 tricks or more, and nothing for fewer (T5, P-T1).

Actions:

- ``card index`` (0-49, the card's place in ``game.cards``): play that card to the trick;
- ``REMOVE + power card id`` (101-115): remove that face-up Power card (T1);
- ``CALL`` (200): call GeoPlunge for the player's side; the same player then removes a Power card
  or plays a card (T4, P-H10).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..cards import Category, Deck, Zone
from ..facts import Facet
from .base import (
    TERMINAL,
    Game,
    IllegalAction,
    Move,
    Params,
    PlayCard,
    PointsState,
    copy_rng,
    shuffled,
    table_plays,
)
from .drill import (
    Answerer,
    DrillAnswer,
    RefusedPlay,
    choice_question,
    judge_toss_beats,
    judge_toss_zone,
    read_choice,
)

HAND = 8
TRICKS = HAND
REMOVE = 100
CALL = 200
#: T4: a call is allowed until the first card of this trick is played.
CALL_BEFORE_TRICK = 5
#: T5: a GeoPlunge needs this many tricks.
PLUNGE_TRICKS = 6
MOST_POINTS = 10  # T5
BONUS_POINTS = 15  # T5
TIE_POINTS = 5  # T5
GAME_POINTS = 50  # G8
CATEGORIES = tuple(Category)
CATEGORY_INDEX = {category.slug: k for k, category in enumerate(CATEGORIES)}
ZONES = tuple(Zone)


@dataclass(frozen=True)
class TossPlay(PlayCard):
    """Play a card to the trick (lead it, or follow the led Zone, T2)."""

    kind: ClassVar[str] = "play"


@dataclass(frozen=True)
class RemovePower(Move):
    """Remove a Power card from the table (the last one left is the GeoPower Card)."""

    kind: ClassVar[str] = "remove"
    category: Category


@dataclass(frozen=True)
class CallPlunge(Move):
    """Call GeoPlunge: the side means to take six tricks or more (T4)."""

    kind: ClassVar[str] = "call"


class GeoPowerToss(Game):
    slug = "geopower-toss"
    title = "GeoPower Toss"
    menu_order = 30
    summary = "follow the zone, the GeoPower category wins tricks (2-6 players)"
    reviews = Game.reviews | {Facet.ZONE}
    min_players = 2
    max_players = 6
    team_sizes = (1, 2, 3)

    def __init__(
        self,
        deck: Deck,
        params: Params | None = None,
        *,
        viewer: int = 0,
        names: Mapping[int, str] | None = None,
    ) -> None:
        super().__init__(deck, params, viewer=viewer, names=names)
        #: Each card's Zone as an index into ZONES (G2: the primary zone only).
        self.zone_of = {card.postal: ZONES.index(card.zone) for card in self.cards}
        self.power_by_id = {power.id: power for power in deck.power_cards}
        #: Each seat's side, and each side's seats (G6), looked up fast in play-outs.
        self.side = tuple(self.params.side_of(seat) for seat in range(self.players))
        self.members = tuple(tuple(self.params.seats_of(side)) for side in range(self.params.sides))
        #: Each seat's opponents.
        self.opponents = tuple(
            tuple(s for s in range(self.players) if self.side[s] != self.side[seat])
            for seat in range(self.players)
        )

    def card_action(self, postal: str) -> int:
        return self.index[postal]

    def remove_action(self, power_id: int) -> int:
        return REMOVE + power_id

    # --- what a seat knows ------------------------------------------------------------------

    def knowledge(self, observation: dict[str, Any]) -> tuple[list[str], list[set[int]]]:
        """The cards ``observation``'s seat has not seen this round, and the zones each seat is known to lack.

        A seat that did not follow the led zone holds no card of it for the rest of the round (T2).
        """
        seen = set(observation["hand"])
        voids: list[set[int]] = [set() for _ in observation["hand_counts"]]
        zone_of = self.zone_of
        for plays in [*(trick["cards"] for trick in observation["tricks"]), observation["trick"]]:
            if not plays:
                continue
            led = zone_of[plays[0]["card"]]
            for play in plays:
                seen.add(play["card"])
                if zone_of[play["card"]] != led:
                    voids[play["seat"]].add(led)
        unseen = [c.postal for c in self.cards if c.postal not in seen]
        return unseen, voids

    # --- new states --------------------------------------------------------------------------

    def new_initial_state(self, seed: int) -> TossState:
        rng = random.Random(f"geopower-toss:{seed}")
        drawn = rng.randrange(self.players)  # G7: the first dealer is drawn
        dealer = drawn if self.params.first_leader is None else self.params.first_leader
        state = TossState(self, rng)
        state.start_round(dealer)
        return state

    def sample_state(self, observation: dict[str, Any], rng: random.Random) -> TossState:
        """Deal the unseen cards at random, each seat its count, and none of a zone it is known to lack."""
        seat = observation["seat"]
        unseen, voids = self.knowledge(observation)
        unseen = shuffled(unseen, rng)
        counts = observation["hand_counts"]
        hands = self._deal_respecting(unseen, counts, voids, seat)
        hands[seat] = list(observation["hand"])
        state = TossState(self, random.Random(rng.random()))
        taken = {p for hand in hands for p in hand}
        state.hands = hands
        state.undealt = [p for p in unseen if p not in taken]
        state.power = list(observation["power_cards"])
        state.removed = list(observation["removed"])
        state.geopower = (
            Category.from_slug(observation["geopower"]) if observation["geopower"] else None
        )
        state.k = CATEGORIES.index(state.geopower) if state.geopower else 0
        state.trick = [dict(play) for play in observation["trick"]]
        state.tricks = [
            dict(trick, cards=[dict(play) for play in trick["cards"]])
            for trick in observation["tricks"]
        ]
        state.won = list(observation["won"])
        state.called = list(observation["called"])
        state.scores = list(observation["scores"])
        state.dealer = observation["dealer"]
        state.round = observation["round"]
        state.leader = observation["leader"]
        state.to_play = observation["current_player"]
        state.over = observation["phase"] == "over"
        state.quiet = True
        return state

    def _deal_respecting(
        self, pool: list[str], counts: Sequence[int], voids: list[set[int]], seat: int
    ) -> list[list[str]]:
        """Hands of ``counts`` cards from ``pool`` (already shuffled) for every seat but ``seat``, none of a void zone.

        The seats with known voids, most voids first, take the next cards they may hold; the
        rest take what is left. If that greedy deal gets stuck, the cards are matched to the
        seats by augmenting paths (Kuhn), which always finds a deal when one exists.
        """
        zone_of = self.zone_of
        others = sorted((s for s in range(len(counts)) if s != seat), key=lambda s: -len(voids[s]))
        hands: list[list[str]] = [[] for _ in counts]
        left = list(pool)
        for other in others:
            lacking = voids[other]
            if not lacking:
                hands[other], left = left[: counts[other]], left[counts[other] :]
                continue
            mine = [p for p in left if zone_of[p] not in lacking][: counts[other]]
            if len(mine) < counts[other]:
                return self._match(pool, counts, voids, seat)
            taken = set(mine)
            hands[other] = mine
            left = [p for p in left if p not in taken]
        return hands

    def _match(
        self, pool: list[str], counts: Sequence[int], voids: list[set[int]], seat: int
    ) -> list[list[str]]:
        """The void-respecting deal by augmenting paths: every card slot of every other seat gets an allowed card."""
        zone_of = self.zone_of
        slots = [s for s in range(len(counts)) if s != seat for _ in range(counts[s])]
        owner: dict[int, int] = {}  # pool position -> slot

        def place(slot: int, visited: set[int]) -> bool:
            allowed = [i for i, p in enumerate(pool) if zone_of[p] not in voids[slots[slot]]]
            for i in allowed:
                if i not in owner:
                    owner[i] = slot
                    return True
            for i in allowed:
                if i not in visited:
                    visited.add(i)
                    if place(owner[i], visited):
                        owner[i] = slot
                        return True
            return False

        for slot in range(len(slots)):
            if not place(slot, set()):
                raise AssertionError(
                    "no deal agrees with the voids seen"
                )  # the real deal always does
        hands: list[list[str]] = [[] for _ in counts]
        for i, slot in sorted(owner.items()):
            hands[slots[slot]].append(pool[i])
        return hands


class TossState(PointsState):
    game: GeoPowerToss

    def __init__(self, game: GeoPowerToss, rng: random.Random) -> None:
        super().__init__(game, rng)
        #: The Power cards face up, by id, in the order laid out (T1).
        self.power: list[int] = []
        #: The Power cards removed this round, by id, in the order removed (T1).
        self.removed: list[int] = []
        #: The round's GeoPower category once one Power card is left (T1).
        self.geopower: Category | None = None
        #: Its index into each card's ``game.ranks`` tuple.
        self.k = 0
        #: The open trick's plays in order: {"seat", "card"}.
        self.trick: list[dict[str, Any]] = []
        #: This round's completed tricks: {"leader", "cards": [{"seat", "card"}], "winner"}.
        self.tricks: list[dict[str, Any]] = []
        self.won = [0] * game.players
        #: The sides that called GeoPlunge this round, in the order they called (T4).
        self.called: list[int] = []
        self.scores = [0] * game.params.sides
        self.dealer = 0
        self.round = 0
        self.leader = 0
        self.to_play = 0
        self.over = False
        #: An imagined deal (``sample_state``) writes no log: nobody reads it, and search plays many moves in it.
        self.quiet = False

    def start_round(self, dealer: int) -> None:
        """Shuffle both decks, deal 8 each from the dealer's left and lay out players + 1 Power cards (T1)."""
        game = self.game
        players = game.players
        order = shuffled([card.postal for card in game.cards], self.rng)
        power = [card.id for card in game.deck.power_cards]
        self.rng.shuffle(power)
        self.hands = [[] for _ in range(players)]
        for i in range(HAND * players):
            self.hands[(dealer + 1 + i) % players].append(order[i])
        self.undealt = order[HAND * players :]
        self.power = power[: players + 1]
        self.removed = []
        self.geopower = None
        self.trick = []
        self.tricks = []
        self.won = [0] * players
        self.called = []
        self.dealer = dealer
        self.leader = dealer
        self.round += 1
        self.to_play = dealer
        if self.quiet:
            return
        who, s = self.seat_name(dealer), self.verb_end(dealer)
        laid = ", ".join(game.power_by_id[i].category.value for i in self.power)
        self.note(
            f"Round {self.round}: {who} deal{s} {HAND} cards each and lay{s} out {len(self.power)} Power cards "
            f"({laid}). {who} remove{s} one first, then each player clockwise; the last one left is the GeoPower Card.",
            None,
            "deal",
        )

    # --- where we are ----------------------------------------------------------------------

    @property
    def phase(self) -> str:
        if self.over:
            return "over"
        return "power" if self.geopower is None else "trick"

    @property
    def trick_number(self) -> int:
        """1-8: the trick being played or about to be (8 once the game is over)."""
        return min(len(self.tricks) + 1, TRICKS)

    def can_call(self) -> bool:
        """T4 and P-H10: from the round's first Power card turn until the first card of the 5th trick is played."""
        if self.over:
            return False
        players = self.game.players
        return len(self.tricks) * players + len(self.trick) <= (CALL_BEFORE_TRICK - 1) * players

    def current_player(self) -> int:
        return TERMINAL if self.over else self.to_play

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        game = self.game
        if self.geopower is None:  # T1: remove a Power card
            actions = sorted(REMOVE + i for i in self.power)
        else:
            hand = self.hands[self.to_play]
            if self.trick:  # T2: follow the led zone if able
                zone_of = game.zone_of
                led = zone_of[self.trick[0]["card"]]
                hand = [p for p in hand if zone_of[p] == led] or hand
            index = game.index
            actions = sorted([index[p] for p in hand])
        if (
            game.side[self.to_play] not in self.called and self.can_call()
        ):  # T4, in the Power card phase too (P-H10)
            actions.append(CALL)
        return actions

    def decode(self, action: int) -> TossPlay | RemovePower | CallPlunge:
        game = self.game
        if isinstance(action, int) and not isinstance(action, bool):
            if 0 <= action < len(game.cards):
                return TossPlay(game.cards[action].postal)
            if action - REMOVE in game.power_by_id:
                return RemovePower(game.power_by_id[action - REMOVE].category)
            if action == CALL:
                return CallPlunge()
        raise IllegalAction("That is not a move in GeoPower Toss.")

    def action_to_string(self, action: int) -> str:
        move = self.decode(action)
        if isinstance(move, TossPlay):
            return f"Play {self.game.card(move.card).name}"
        if isinstance(move, RemovePower):
            return f"Remove Power card {action - REMOVE} ({move.category.value})"
        return "Call GeoPlunge"

    def why_illegal(self, action: int) -> str:
        try:
            move = self.decode(action)
        except IllegalAction as exc:
            return str(exc)
        if self.over:
            return "The game is over."
        seat = self.to_play
        if isinstance(move, CallPlunge):
            if self.game.side[seat] in self.called:
                if self.game.params.team_size > 1:
                    return "Your team has already called GeoPlunge this round."
                return "You have already called GeoPlunge this round."
            return "It is too late to call GeoPlunge: the 5th trick has started."
        if self.geopower is None:
            if isinstance(move, RemovePower):
                return "That Power card is not on the table."
            return "Remove a Power card first: the GeoPower Card is not chosen yet."
        if isinstance(move, RemovePower):
            return "The GeoPower Card is already chosen: play a card."
        if move.card not in self.hands[seat]:
            return "That card is not in your hand."
        led = self.game.card(self.trick[0]["card"]).zone.value
        return f"You must follow the {led} zone: you have a {led} card."

    # --- moves -----------------------------------------------------------------------------

    def _apply(self, action: int) -> None:
        seat = self.to_play
        if action < REMOVE:
            self._play(seat, self.game.cards[action].postal)
        elif action == CALL:
            self._call(seat)
        else:
            self._remove(seat, action - REMOVE)

    def _call(self, seat: int) -> None:
        """T4: the side calls GeoPlunge; the same player then removes a Power card or plays a card (P-H10)."""
        side = self.game.side[seat]
        self.called.append(side)
        if self.quiet:
            return
        who, team, s = self.seat_name(seat), self.side_in_sentence(side), self.side_verb_end(side)
        self.note(
            f"{who} call{self.verb_end(seat)} GeoPlunge: {team} need{s} {PLUNGE_TRICKS} of the {TRICKS} tricks for "
            f"{MOST_POINTS + BONUS_POINTS} points, or score{s} nothing this round.",
            seat,
            "call",
        )

    def _remove(self, seat: int, power_id: int) -> None:
        """T1: remove one face-up Power card; the last one left is the GeoPower Card and the dealer leads."""
        game = self.game
        self.power.remove(power_id)
        self.removed.append(power_id)
        if not self.quiet:
            who = self.seat_name(seat)
            self.note(
                f"{who} remove{self.verb_end(seat)} a {game.power_by_id[power_id].category.value} Power card.",
                seat,
            )
        if len(self.power) > 1:
            self.to_play = (seat + 1) % game.players
            return
        self.geopower = game.power_by_id[self.power[0]].category
        self.k = CATEGORIES.index(self.geopower)
        self.to_play = self.leader = self.dealer
        if not self.quiet:
            lead = self.seat_name(self.dealer)
            self.note(
                f"The GeoPower Card is {self.geopower.value}: on every trick the best {self.geopower.value.lower()} "
                f"ranking in the led zone wins. {lead} lead{self.verb_end(self.dealer)} the first trick.",
                None,
                "power",
            )

    def _play(self, seat: int, postal: str) -> None:
        game = self.game
        self.hands[seat].remove(postal)
        self.trick.append({"seat": seat, "card": postal})
        if not self.quiet:
            self._note_play(seat, postal)
        if len(self.trick) < game.players:
            self.to_play = (seat + 1) % game.players
        else:
            self._finish_trick()

    def _note_play(self, seat: int, postal: str) -> None:
        game = self.game
        card = game.card(postal)
        who, s = self.seat_name(seat), self.verb_end(seat)
        assert self.geopower is not None
        name = self.geopower.value.lower()
        rank = game.ranks[postal][self.k]
        if len(self.trick) == 1:
            self.note(
                f"Trick {len(self.tricks) + 1}: {who} lead{s} {card.name} ({card.zone.value} zone, {name} {rank}).",
                seat,
            )
            return
        led = game.card(self.trick[0]["card"]).zone
        if card.zone is led:
            self.note(f"{who} play{s} {card.name} ({card.zone.value}, {name} {rank}).", seat)
        else:
            having = "you have" if seat == self.viewer else f"{who} has"
            self.note(
                f"{who} play{s} {card.name} ({card.zone.value}): {having} no {led.value} card, so it cannot win.",
                seat,
            )

    def _finish_trick(self) -> None:
        """T3: the best ranking in the GeoPower category among the cards of the led zone wins."""
        game = self.game
        k = self.k
        ranks, zone_of = game.ranks, game.zone_of
        trick = self.trick
        led = zone_of[trick[0]["card"]]
        best = trick[0]
        for play in trick:
            if zone_of[play["card"]] == led and ranks[play["card"]][k] < ranks[best["card"]][k]:
                best = play
        winner = best["seat"]
        self.tricks.append({"leader": trick[0]["seat"], "cards": trick, "winner": winner})
        self.trick = []
        self.won[winner] += 1
        self.leader = self.to_play = winner
        if not self.quiet:
            self._note_trick(best)
        if len(self.tricks) == TRICKS:
            self._end_round()

    def _note_trick(self, best: dict[str, Any]) -> None:
        game = self.game
        k = self.k
        ranks = game.ranks
        card = game.card(best["card"])
        who, s = self.seat_in_sentence(best["seat"]), self.verb_end(best["seat"])
        assert self.geopower is not None
        text = (
            f"{card.name}'s {self.geopower.value.lower()} {ranks[card.postal][k]} is the best {card.zone.value} card: "
            f"{who} take{s} trick {len(self.tricks)}."
        )
        better = [
            play["card"]
            for play in self.tricks[-1]["cards"]
            if ranks[play["card"]][k] < ranks[card.postal][k]
        ]
        if better:
            other = game.card(min(better, key=lambda p: ranks[p][k]))
            text += f" {other.name}'s {ranks[other.postal][k]} is better, but only {card.zone.value} cards can win this trick."
        tally = ", ".join(
            f"{self.side_name(side)} {self.side_tricks(side)}" for side in range(game.params.sides)
        )
        self.note(f"{text} Tricks: {tally}.", best["seat"], "trick")

    def side_tricks(self, side: int) -> int:
        """G6: a team's tricks are its members' sum."""
        return sum(self.won[seat] for seat in self.game.members[side])

    def round_points(self) -> list[int]:
        """T5 and P-T1: each side's points for the round just played.

        A call that makes 6 tricks scores 10 + 15; a call that fails scores 0 and its tricks do
        not count in the race for most tricks (P-T1). Among the other sides, the sole most
        tricks score 10 and a tie for most 5 each; a side needs at least one trick for these.
        """
        sides = self.game.params.sides
        tricks = [self.side_tricks(side) for side in range(sides)]
        points = [0] * sides
        contenders = []
        for side in range(sides):
            if side in self.called and tricks[side] >= PLUNGE_TRICKS:
                points[side] = BONUS_POINTS
            if side not in self.called or tricks[side] >= PLUNGE_TRICKS:
                contenders.append(side)
        most = max((tricks[side] for side in contenders), default=0)
        if most > 0:
            top = [side for side in contenders if tricks[side] == most]
            for side in top:
                points[side] += MOST_POINTS if len(top) == 1 else TIE_POINTS
        return points

    def _end_round(self) -> None:
        points = self.round_points()
        if not self.quiet:
            self._note_points(points)
        for side, gained in enumerate(points):
            self.scores[side] += gained
        if not self.quiet:
            scores = ", ".join(
                f"{self.side_name(side)} {value}" for side, value in enumerate(self.scores)
            )
            self.note(f"Round {self.round} is over. Scores: {scores}.", None, "round")
        best = max(self.scores)
        if best >= GAME_POINTS and self.scores.count(best) == 1:  # G8
            self.over = True
            if not self.quiet:
                side = self.scores.index(best)
                name, s = self.side_name(side), self.side_verb_end(side)
                self.note(
                    f"{name} reach{'es' if s else ''} {best} points and win{s}!",
                    None,
                    "end",
                )
            return
        self.start_round((self.dealer + 1) % self.game.players)  # G7

    def _note_points(self, points: list[int]) -> None:
        sides = self.game.params.sides
        tricks = [self.side_tricks(side) for side in range(sides)]
        for side in self.called:
            name = self.side_name(side)
            if tricks[side] >= PLUNGE_TRICKS:
                self.note(
                    f"{name} called GeoPlunge and won {tricks[side]} tricks: {MOST_POINTS} + {BONUS_POINTS} = {points[side]} points.",
                    None,
                    "score",
                )
            else:
                self.note(
                    f"{name} called GeoPlunge but won only {tricks[side]} trick{'' if tricks[side] == 1 else 's'}: "
                    "no points this round, and those tricks do not count for the most tricks.",
                    None,
                    "score",
                )
        top = [side for side in range(sides) if points[side] and side not in self.called]
        if len(top) == 1:
            self.note(
                f"{self.side_name(top[0])} won the most tricks ({tricks[top[0]]}): {points[top[0]]} points.",
                None,
                "score",
            )
        elif top:
            names = [self.side_name(side) for side in top]
            self.note(
                f"{', '.join(names[:-1])} and {names[-1]} tied for the most tricks ({tricks[top[0]]}): {TIE_POINTS} points each.",
                None,
                "score",
            )
        if not any(points):
            self.note("Nobody scores this round.", None, "score")

    # --- the drill and the table ------------------------------------------------------------

    def drill_answers(self, action: int, answer: Answerer) -> list[DrillAnswer]:
        """Following a lead: whether the card beats the best card of the led Zone so far and,
        with the Zone colours hidden, the card's Zone (D-T1). Leading, removing and calling ask
        nothing."""
        move = self.decode(action)
        if not isinstance(move, TossPlay):
            return []
        deck = self.game.deck
        obs = self.observation(self.current_player())
        if not obs["trick"]:
            return []  # leading: any card may be led, and there is nothing to beat yet
        question = choice_question(judge_toss_beats(deck, obs, move.card, True), ("beats", "not"))
        said = read_choice(
            question,
            answer,
            "Say first whether your card beats the best card of the led zone so far.",
        )
        zone = judge_toss_zone(deck, obs, move.card)
        if not zone.right and action not in self.legal_actions():
            # T2 broken: a wrong answer on the card's zone fact
            raise RefusedPlay(
                f"{zone.judgement.note} Nothing was played; this counts as practice on {deck[move.card].name}'s zone.",
                [zone],
            )
        answers = [zone] if zone.right else []
        return [*answers, judge_toss_beats(deck, obs, move.card, said == "beats")]

    def table_view(
        self, observation: dict[str, Any], your_turn: bool, drill: bool
    ) -> dict[str, Any]:
        deck = self.game.deck
        obs = observation
        params = self.game.params
        names = self.seat_names()
        legal = set(self.legal_actions()) if your_turn else set()
        powers = {card.id: card for card in deck.power_cards}
        geopower = Category.from_slug(obs["geopower"]) if obs["geopower"] else None
        led_zone = deck[obs["trick"][0]["card"]].zone if obs["trick"] else None
        sides = []
        for side in range(params.sides):
            seats = params.seats_of(side)
            sides.append(
                {
                    "name": self.side_name(side),
                    "points": obs["scores"][side],
                    "called": side in obs["called"],
                    "tricks": sum(obs["won"][s] for s in seats),
                    "members": [names[s] for s in seats],
                    "yours": side == params.side_of(obs["seat"]),
                }
            )
        table_seats = [
            {
                "name": names[seat],
                "cards": obs["hand_counts"][seat],
                "tricks": obs["won"][seat],
                "turn": obs["current_player"] == seat,
                "dealer": obs["dealer"] == seat,
                "you": seat == obs["seat"],
            }
            for seat in range(params.players)
        ]
        past = [
            {
                "number": n,
                "plays": table_plays(deck, t["cards"], names),
                "winner": names[t["winner"]],
            }
            for n, t in enumerate(obs["tricks"], start=1)
        ]
        return {
            "phase": obs["phase"],
            "geopower": geopower,
            "power_on_table": [powers[i] for i in obs["power_cards"]],
            "removed": [powers[i] for i in obs["removed"]],
            "remove_action": lambda card: REMOVE + card.id,
            "can_call": CALL in legal,
            "call_action": CALL,
            "trick": table_plays(deck, obs["trick"], names),
            "led_zone": led_zone,
            "following": bool(obs["trick"]),
            "legal": legal,
            "card_action": self.game.index.__getitem__,
            "seats": table_seats,
            "sides": sides,
            "teams": params.team_size > 1,
            "past": past,
            "trick_number": obs["trick_number"],
        }

    # --- what each seat sees ---------------------------------------------------------------

    def observation(self, player: int) -> dict[str, Any]:
        params = self.game.params
        return {
            "game": self.game.slug,
            "seat": player,
            "side": params.side_of(player),
            "sides": params.sides,
            "current_player": self.current_player(),
            "phase": self.phase,
            "hand": sorted(self.hands[player]),
            "hand_counts": [len(hand) for hand in self.hands],
            "power_cards": list(self.power),
            "removed": list(self.removed),
            "geopower": self.geopower.slug if self.geopower else None,
            "leader": self.leader,
            "trick": [dict(play) for play in self.trick],
            "tricks": [
                dict(trick, cards=[dict(play) for play in trick["cards"]]) for trick in self.tricks
            ],
            "won": list(self.won),
            "called": list(self.called),
            "scores": list(self.scores),
            "dealer": self.dealer,
            "round": self.round,
            "trick_number": self.trick_number,
        }

    def all_cards(self) -> list[str]:
        played = [play["card"] for trick in self.tricks for play in trick["cards"]]
        return [
            *(p for hand in self.hands for p in hand),
            *(play["card"] for play in self.trick),
            *played,
            *self.undealt,
        ]

    def clone(self) -> TossState:
        other = TossState(self.game, copy_rng(self.rng))
        self._copy_base(other)
        other.hands = [list(hand) for hand in self.hands]
        other.undealt = list(self.undealt)
        other.power = list(self.power)
        other.removed = list(self.removed)
        other.geopower = self.geopower
        other.trick = [dict(play) for play in self.trick]
        other.tricks = [
            dict(trick, cards=[dict(play) for play in trick["cards"]]) for trick in self.tricks
        ]
        other.won = list(self.won)
        other.called = list(self.called)
        other.scores = list(self.scores)
        other.dealer = self.dealer
        other.round = self.round
        other.leader = self.leader
        other.to_play = self.to_play
        other.over = self.over
        other.k = self.k
        other.quiet = self.quiet
        return other
