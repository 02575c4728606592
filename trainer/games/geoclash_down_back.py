"""GeoClash Down Back (2-7 players, each for themselves; C1-C6, G7): the worst-ranked card takes the trick.

Each round the dealer names a category and leads; everyone else, clockwise, plays any card; the
card farthest from 1 in that category wins, and its player leads next. The round ends once a
trick completes and somebody has no cards left. The players with the fewest tricks (the one(s)
dealt most among them) lose the round and are dealt one card fewer next time; a player dealt a
single card who does not win the trick is out. The last player left wins.

Actions as in Play the Ranks: a card with a category (``LEAD + card index * 3 + category index``)
leads a trick; a card alone (``card index``) follows.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import Category, Deck
from .base import (
    TERMINAL,
    DealtState,
    Game,
    IllegalAction,
    LeadCard,
    Params,
    PlayCard,
    card_or_lead,
    copy_rng,
    shuffled,
    table_plays,
)
from .drill import (
    Answerer,
    DrillAnswer,
    choice_question,
    judge_clash_worst,
    judge_lead,
    rank_question,
    read_choice,
)

#: C1: cards each in round 1.
FIRST_DEAL = 7
LEAD = 100
CATEGORIES = tuple(Category)
CATEGORY_INDEX = {category.slug: k for k, category in enumerate(CATEGORIES)}


class GeoClashDownBack(Game):
    slug = "geoclash-down-back"
    title = "GeoClash Down Back"
    menu_order = 40
    summary = "the worst ranking wins the trick (2-7 players)"
    min_players = 2
    max_players = 7
    team_sizes = (1,)

    def __init__(
        self,
        deck: Deck,
        params: Params | None = None,
        *,
        viewer: int = 0,
        names: Mapping[int, str] | None = None,
    ) -> None:
        super().__init__(deck, params, viewer=viewer, names=names)
        #: How useful a card is for later tricks: its worst ranking (a leader names that category),
        #: the other two breaking ties.
        self.useful = {p: max(r) + sum(r) / 200 for p, r in self.ranks.items()}

    def lead_action(self, postal: str, category: Category) -> int:
        return LEAD + self.index[postal] * 3 + CATEGORIES.index(category)

    def card_action(self, postal: str) -> int:
        return self.index[postal]

    # --- deals ---------------------------------------------------------------------------------

    def new_initial_state(self, seed: int) -> ClashState:
        rng = random.Random(f"geoclash-down-back:{seed}")
        dealer = rng.randrange(self.players)  # G7: the first dealer is drawn
        state = ClashState(self, rng)
        state.start_round(dealer, [FIRST_DEAL] * self.players)
        return state

    def reads(self, observation: dict[str, Any]) -> dict[int, tuple[list[int], float]]:
        """What this round's plays suggest about each player's remaining cards, as a good player reads them.

        Per seat: for each category, a ranking its cards probably all stay below (51: nothing
        learned), and a usefulness its cards probably all reach. A leader leads its likeliest
        winner, so its other cards are probably no farther from 1 than the card led; a follower
        who did not beat the worst card so far held nothing worse in that category, and threw
        away its least useful card. These are likelihoods, not rules: a hand that cannot fit
        them is dealt freely.
        """
        reads: dict[int, tuple[list[int], float]] = {}
        for trick in [*observation["tricks"], observation["trick"]]:
            if not trick["cards"]:
                continue
            k = CATEGORY_INDEX[trick["category"]]
            worst = 0
            for play in trick["cards"]:
                caps, floor = reads.get(play["seat"], ([51, 51, 51], 0.0))
                rank = self.ranks[play["card"]][k]
                if not worst:
                    caps = [min(c, rank + 1) for c in caps]
                elif rank < worst:
                    caps = [min(c, worst) if i == k else c for i, c in enumerate(caps)]
                    floor = max(floor, self.useful[play["card"]])
                reads[play["seat"]] = (caps, floor)
                worst = max(worst, rank)
        return reads

    def sample_state(self, observation: dict[str, Any], rng: random.Random) -> ClashState:
        """The other hands dealt at random, in their sizes, from the cards the seat has not seen this round.

        What the table has seen is used as a good player would: each hand is dealt from the cards
        that fit what its plays suggest (:meth:`reads`) where enough of them are left.
        """
        seat = observation["seat"]
        trick = observation["trick"]
        seen = set(observation["hand"]) | {
            play["card"] for t in observation["tricks"] for play in t["cards"]
        }
        seen |= {play["card"] for play in trick["cards"]}
        unseen = shuffled([c.postal for c in self.cards if c.postal not in seen], rng)
        state = ClashState(self, random.Random(rng.random()))
        state.logging = False
        counts = observation["hand_counts"]
        hands: list[list[str]] = [[] for _ in counts]
        hands[seat] = list(observation["hand"])
        fitting = {}
        for other, (caps, floor) in self.reads(observation).items():
            if other != seat and counts[other]:
                a, b, c = caps
                fitting[other] = [
                    p
                    for p in unseen
                    if (r := self.ranks[p])[0] < a
                    and r[1] < b
                    and r[2] < c
                    and self.useful[p] >= floor
                ]
        for other in sorted(
            fitting, key=lambda s: (len(fitting[s]) - counts[s], s)
        ):  # the most constrained first
            left = set(unseen)
            fits = [p for p in fitting[other] if p in left]
            if len(fits) >= counts[other]:
                hands[other] = fits[: counts[other]]
                taken = set(hands[other])
                unseen = [p for p in unseen if p not in taken]
        for other, count in enumerate(counts):
            if other != seat and not hands[other]:
                hands[other] = [unseen.pop() for _ in range(count)]
        state.hands = hands
        state.undealt = unseen
        state.dealt = list(observation["dealt"])
        state.in_game = list(observation["in_game"])
        state.tricks = [copy_trick(t) for t in observation["tricks"]]
        state.trick = copy_trick(trick)
        state.won = list(observation["won"])
        state.dealer = observation["dealer"]
        state.round = observation["round"]
        last = observation["last_round"]
        state.last_round = (
            None
            if last is None
            else {key: list(v) if isinstance(v, list) else v for key, v in last.items()}
        )
        if observation["current_player"] == TERMINAL:
            state.over = True
            state.winner = state.in_game.index(True)
        return state


def copy_trick(trick: dict[str, Any]) -> dict[str, Any]:
    return dict(trick, cards=[dict(play) for play in trick["cards"]])


class ClashState(DealtState):
    game: GeoClashDownBack

    def __init__(self, game: GeoClashDownBack, rng: random.Random) -> None:
        super().__init__(game, rng)
        players = game.players
        self.hands = [[] for _ in range(players)]
        #: Cards dealt to each seat this round (0 once out of the game).
        self.dealt = [0] * players
        self.in_game = [True] * players
        #: This round's completed tricks: {"leader", "category", "cards": [{"seat", "card"}], "winner"}.
        self.tricks: list[dict[str, Any]] = []
        #: The open trick: {"leader", "category" (None until led), "cards": [{"seat", "card"}]}.
        self.trick: dict[str, Any] = {"leader": 0, "category": None, "cards": []}
        self.won = [0] * players
        self.dealer = 0
        self.round = 0
        #: The last finished round, public: {"round", "won", "dealt", "losers", "out"}.
        self.last_round: dict[str, Any] | None = None
        self.over = False
        self.winner: int | None = None
        #: False in the search player's imagined deals, which need no log.
        self.logging = True

    # --- names -----------------------------------------------------------------------------

    def _names(self, seats: Sequence[int], start: bool = True) -> str:
        """Seats as words, "You, Computer 1 and Computer 3" ("you" inside a sentence)."""
        if start:
            names = [self.seat_name(s) for s in seats]
        else:
            names = [self.seat_in_sentence(s) for s in seats]
        return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"

    def _s(self, seats: Sequence[int] | int) -> str:
        """The verb ending after these seats: "You take", "Computer 1 takes", "You and Computer 1 take"."""
        one = [seats] if isinstance(seats, int) else list(seats)
        return self.verb_end(one[0]) if len(one) == 1 else ""

    def _tally(self, counts: Sequence[int]) -> str:
        """Per seat still in the game: "you 2, Computer 1 0, Computer 2 1"."""
        return ", ".join(f"{self._names([s], start=False)} {counts[s]}" for s in self._playing())

    def note(self, text: str, seat: int | None = None, kind: str = "play") -> None:
        if self.logging:
            super().note(text, seat, kind)

    # --- rounds ----------------------------------------------------------------------------

    def _playing(self) -> list[int]:
        return [s for s, playing in enumerate(self.in_game) if playing]

    def _next_in_game(self, seat: int) -> int:
        """The next seat clockwise from ``seat`` still in the game."""
        players = self.game.players
        for step in range(1, players + 1):
            other = (seat + step) % players
            if self.in_game[other]:
                return other
        return seat

    def start_round(self, dealer: int, counts: Sequence[int]) -> None:
        """Shuffle the whole deck and deal ``counts[seat]`` cards to each seat, one at a time
        clockwise from the dealer's left; the dealer leads the first trick (C1, C2, P-C1)."""
        players = self.game.players
        order = shuffled([card.postal for card in self.game.cards], self.rng)
        self.hands = [[] for _ in range(players)]
        position = 0
        for turn in range(max(counts)):
            for step in range(1, players + 1):
                seat = (dealer + step) % players
                if counts[seat] > turn:
                    self.hands[seat].append(order[position])
                    position += 1
        self.undealt = order[position:]
        self.dealt = list(counts)
        self.tricks = []
        self.trick = {"leader": dealer, "category": None, "cards": []}
        self.won = [0] * players
        self.dealer = dealer
        self.round += 1
        if not self.logging:
            return
        playing = self._playing()
        who, s = self.seat_name(dealer), self._s(dealer)
        if len({counts[seat] for seat in playing}) == 1:
            n = counts[playing[0]]
            text = (
                f"{who} deal{s} {n} card{'s' if n != 1 else ''} each and lead{s} the first trick."
            )
        else:
            text = f"{who} deal{s} and lead{s} the first trick. Cards dealt: {self._tally(counts)}."
        self.note(f"Round {self.round}: {text}", dealer, "deal")

    # --- moves -----------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        cards = self.trick["cards"]
        if not cards:
            return self.trick["leader"]
        seat = cards[-1]["seat"] + 1
        if seat == len(self.in_game):
            seat = 0
        return seat if self.in_game[seat] else self._next_in_game(seat)

    @property
    def trick_number(self) -> int:
        """The trick being played or about to be (the last one once the game is over)."""
        return len(self.tricks) if self.over else len(self.tricks) + 1

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        index = self.game.index
        hand = sorted(index[p] for p in self.hands[self.current_player()])
        if self.trick["cards"]:
            return hand
        return [LEAD + i * 3 + k for i in hand for k in range(3)]

    def decode(self, action: int) -> PlayCard | LeadCard:
        return card_or_lead(self.game.cards, action, LEAD, self.game.title)

    def action_to_string(self, action: int) -> str:
        move = self.decode(action)
        name = self.game.card(move.card).name
        if isinstance(move, LeadCard):
            return f"Lead {name} on {move.category.value.lower()}"
        return f"Play {name}"

    def why_illegal(self, action: int) -> str:
        try:
            move = self.decode(action)
        except IllegalAction as exc:
            return str(exc)
        if move.card not in self.hands[self.current_player()]:
            return "That card is not in your hand."
        if isinstance(move, PlayCard) and not self.trick["cards"]:
            return "Name a category for the card you lead."
        if isinstance(move, LeadCard) and self.trick["cards"]:
            return "It is not your lead: play any card."
        return "That move is not allowed now."

    def _apply(self, action: int) -> None:
        move = self.decode(action)
        seat = self.current_player()
        postal = move.card
        self.hands[seat].remove(postal)
        trick = self.trick
        if isinstance(move, LeadCard):
            trick["category"] = move.category.slug
        trick["cards"].append({"seat": seat, "card": postal})
        if self.logging:
            k = CATEGORY_INDEX[trick["category"]]
            name, rank = CATEGORIES[k].value.lower(), self.game.ranks[postal][k]
            who, s, card = self.seat_name(seat), self._s(seat), self.game.card(postal).name
            if isinstance(move, LeadCard):
                self.note(
                    f"Trick {self.trick_number}: {who} name{s} {name} and lead{s} {card} ({name} {rank}).",
                    seat,
                )
            else:
                self.note(f"{who} play{s} {card} ({name} {rank}).", seat)
        if len(trick["cards"]) == sum(self.in_game):
            self._finish_trick()

    def _finish_trick(self) -> None:
        """C2: the card ranked worst (farthest from 1) in the named category takes the trick; its player leads next."""
        trick = self.trick
        k = CATEGORY_INDEX[trick["category"]]
        ranks = self.game.ranks
        top = max(trick["cards"], key=lambda play: ranks[play["card"]][k])
        winner = top["seat"]
        number = self.trick_number
        self.tricks.append(dict(trick, winner=winner))
        self.won[winner] += 1
        if self.logging:
            card, name = self.game.card(top["card"]).name, CATEGORIES[k].value.lower()
            self.note(
                f"{card}'s {name} {ranks[top['card']][k]} is the worst-ranked card on the trick, the farthest from 1: "
                f"{self._names([winner], start=False)} take{self._s(winner)} trick {number}. Tricks: {self._tally(self.won)}.",
                winner,
                "trick",
            )
        self.trick = {"leader": winner, "category": None, "cards": []}
        if any(
            playing and not hand for playing, hand in zip(self.in_game, self.hands, strict=True)
        ):  # C3
            self._end_round([s for s in self._playing() if not self.hands[s]])

    def _end_round(self, empty: list[int]) -> None:
        """C3-C6: find the round's losers, knock out any one-card player who missed the trick, deal again."""
        playing = self._playing()
        fewest = min(self.won[s] for s in playing)
        tied = [s for s in playing if self.won[s] == fewest]
        most = max(self.dealt[s] for s in tied)
        losers = [s for s in tied if self.dealt[s] == most]  # C4
        out = [s for s in playing if self.dealt[s] == 1 and self.won[s] == 0]  # C5
        self.last_round = {
            "round": self.round,
            "won": list(self.won),
            "dealt": list(self.dealt),
            "losers": losers,
            "out": out,
        }
        if self.logging:
            self._say_round_over(empty, playing, tied, losers, out)
        counts = [0] * self.game.players
        for seat in playing:
            counts[seat] = self.dealt[seat] - (seat in losers)  # C1
        for seat in out:  # C5
            counts[seat] = 0
            self.in_game[seat] = False
            self.note(
                f"{self.seat_name(seat)} {'was' if self._s(seat) else 'were'} dealt 1 card and did not win the trick, "
                f"so {self._names([seat], start=False)} {'is' if self._s(seat) else 'are'} out of the game.",
                seat,
                "out",
            )
        for seat in playing:  # C3: leftover cards go back to the deck
            self.undealt.extend(self.hands[seat])
            self.hands[seat] = []
        left = self._playing()
        if len(left) == 1:  # C6
            self.over = True
            self.winner = left[0]
            win = (
                "You are the last player left: you win the game!"
                if self.winner == self.viewer
                else (f"{self.seat_name(self.winner)} is the last player left and wins the game.")
            )
            self.note(win, self.winner, "end")
            return
        self.start_round(self._next_in_game(self.dealer), counts)  # G7

    def _say_round_over(
        self,
        empty: list[int],
        playing: list[int],
        tied: list[int],
        losers: list[int],
        out: list[int],
    ) -> None:
        """The log line that explains the round's result (C4) and what each player is dealt next (C1)."""
        fewest = self.won[tied[0]]
        most = self.dealt[losers[0]]
        ran_out = f"{self._names(empty)} {'has' if self._s(empty) else 'have'} no cards left"
        tricks = f"{fewest} trick{'' if fewest == 1 else 's'}"
        if len(tied) == 1:
            why = f"{self._names(losers, start=False)} won the fewest tricks ({fewest}) and lose{self._s(losers)} the round"
        elif losers != tied:
            verb = "were" if self.viewer in losers or len(losers) > 1 else "was"
            why = (
                f"{self._names(tied, start=False)} tie for the fewest tricks ({fewest}); "
                f"{self._names(losers, start=False)} {verb} dealt the most cards ({most}) and lose{self._s(losers)} the round"
            )
        elif len(tied) == len(playing):
            why = f"everyone won {tricks} and was dealt {most} card{'' if most == 1 else 's'}, so everyone loses the round"
        else:
            why = (
                f"{self._names(tied, start=False)} tie for the fewest tricks ({fewest}), each dealt "
                f"{most} card{'' if most == 1 else 's'}: all of them lose the round"
            )
        final = len(playing) - len(out) == 1
        if most > 1 and not final:
            why += f" ({most - 1} card{'s' if most > 2 else ''} next round)"
        winners = [s for s in playing if s not in losers and s not in out]
        rest = ""
        if winners:
            who = (
                "Everyone else"
                if len(winners) + len(losers) == len(playing)
                else self._names(winners)
            )
            s = "s" if who == "Everyone else" else self._s(winners)
            rest = f" {who} win{s} the round" + (
                "." if final else f" and {'is' if s else 'are'} dealt the same number again."
            )
        self.note(
            f"Round {self.round} is over: {ran_out}. {why[0].upper()}{why[1:]}.{rest}",
            None,
            "round",
        )

    # --- the drill and the table ------------------------------------------------------------

    def drill_answers(self, action: int, answer: Answerer) -> list[DrillAnswer]:
        """Leading: the rank of the card led in the category named. Following: whether the card
        is the worst so far, said before it is revealed (D-C1)."""
        move = self.decode(action)
        deck = self.game.deck
        if isinstance(move, LeadCard):
            question = rank_question(deck, move.card, move.category)
            return [judge_lead(deck, move.card, move.category, answer(question))]
        obs = self.observation(self.current_player())
        question = choice_question(judge_clash_worst(deck, obs, move.card, True), ("worst", "not"))
        said = read_choice(
            question,
            answer,
            "Say first whether your card is the worst so far: choose one of the two buttons.",
        )
        if action not in self.legal_actions():
            raise IllegalAction(self.why_illegal(action))
        return [judge_clash_worst(deck, obs, move.card, said == "worst")]

    def table_view(
        self, observation: dict[str, Any], your_turn: bool, drill: bool
    ) -> dict[str, Any]:
        deck = self.game.deck
        game = self.game
        obs = observation
        names = self.seat_names()
        trick = obs["trick"]
        leading = your_turn and not trick["cards"]
        seats = [
            {
                "name": names[seat],
                "cards": obs["hand_counts"][seat],
                "tricks": obs["won"][seat],
                "dealt": obs["dealt"][seat],
                "in_game": obs["in_game"][seat],
                "turn": obs["current_player"] == seat,
                "dealer": obs["dealer"] == seat,
                "you": seat == obs["seat"],
            }
            for seat in range(game.players)
        ]
        past = [
            {
                "number": n,
                "category": Category.from_slug(t["category"]),
                "plays": table_plays(deck, t["cards"], names),
                "winner": names[t["winner"]],
            }
            for n, t in enumerate(obs["tricks"], start=1)
        ]
        return {
            "seats": seats,
            "trick": table_plays(deck, trick["cards"], names),
            "category": Category.from_slug(trick["category"]) if trick["category"] else None,
            "leading": leading,
            "lead_action": game.lead_action,
            "lead_options": lambda postal: [(game.lead_action(postal, c), c) for c in Category],
            "card_action": game.card_action,
            "categories": list(Category),
            "past": past,
            "round": obs["round"],
            "trick_number": obs["trick_number"],
            "out": not obs["in_game"][obs["seat"]],
        }

    # --- the end ---------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        if not self.over or self.winner is None:
            return [0.0] * self.game.players
        return self.side_returns([self.winner])

    # --- what each seat sees ---------------------------------------------------------------

    def observation(self, player: int) -> dict[str, Any]:
        last = self.last_round
        return {
            "game": self.game.slug,
            "seat": player,
            "current_player": self.current_player(),
            "hand": sorted(self.hands[player]),
            "hand_counts": [len(hand) for hand in self.hands],
            "dealt": list(self.dealt),
            "in_game": list(self.in_game),
            "trick": copy_trick(self.trick),
            "tricks": [copy_trick(trick) for trick in self.tricks],
            "won": list(self.won),
            "dealer": self.dealer,
            "round": self.round,
            "trick_number": self.trick_number,
            "last_round": None
            if last is None
            else {key: list(v) if isinstance(v, list) else v for key, v in last.items()},
        }

    def all_cards(self) -> list[str]:
        played = [play["card"] for trick in [*self.tricks, self.trick] for play in trick["cards"]]
        return [*(p for hand in self.hands for p in hand), *self.undealt, *played]

    def clone(self) -> ClashState:
        other = ClashState(self.game, copy_rng(self.rng))
        self._copy_base(other)
        other.hands = [list(hand) for hand in self.hands]
        other.undealt = list(self.undealt)
        other.dealt = list(self.dealt)
        other.in_game = list(self.in_game)
        other.tricks = [copy_trick(trick) for trick in self.tricks]
        other.trick = copy_trick(self.trick)
        other.won = list(self.won)
        other.dealer = self.dealer
        other.round = self.round
        other.last_round = (
            None
            if self.last_round is None
            else {k: list(v) if isinstance(v, list) else v for k, v in self.last_round.items()}
        )
        other.over = self.over
        other.winner = self.winner
        other.logging = self.logging
        return other
