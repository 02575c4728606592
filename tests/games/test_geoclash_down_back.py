"""GeoClash Down Back rules (C1-C6) and the shared rules it plays by (G7, G9).

Situations are built by setting a ``ClashState``'s hands, cards dealt, tricks won, players still
in the game and leader directly; the cards of tricks already played come from the rest of the
deck and what is left is undealt, so that no card goes missing. Actions: a card with a category
(``lead_action``) leads; a bare card (``card_action``) follows.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from trainer.cards import Category, load_deck
from trainer.games import (
    TERMINAL,
    GameError,
    IllegalAction,
    Params,
    SearchPlayer,
    replay,
)
from trainer.games.bots import bot_for
from trainer.games.geoclash_down_back import LEAD, ClashState, GeoClashDownBack

DECK = load_deck()
ALL = sorted(card.postal for card in DECK)
SIZE, STATEHOOD, POPULATION = Category.SIZE, Category.STATEHOOD, Category.POPULATION
#: No game of 2-7 players takes more actions than this: every round costs somebody a card.
MAX_ACTIONS = 3000


def table(
    *hands: list[str],
    dealt: list[int] | None = None,
    won: list[int] | None = None,
    leader: int = 0,
    dealer: int | None = None,
    out: tuple[int, ...] = (),
) -> ClashState:
    """A round in progress: these hands (one per seat, [] for a seat ``out`` of the game), a trick about to be led.

    ``dealt`` defaults to each hand's size plus the tricks already played; ``won`` gives the
    tricks each seat has taken, played (on size) from spare cards before this one.
    """
    players = len(hands)
    game = GeoClashDownBack(DECK, Params(players=players))
    state = ClashState(game, random.Random(0))
    state.in_game = [seat not in out for seat in range(players)]
    state.hands = [list(hand) for hand in hands]
    spare = [p for p in ALL if p not in {q for hand in hands for q in hand}]
    won = list(won) if won else [0] * players
    playing = [seat for seat in range(players) if state.in_game[seat]]
    lead = leader
    for winner in [seat for seat in playing for _ in range(won[seat])]:
        cards = sorted((spare.pop() for _ in playing), key=lambda p: game.ranks[p][0])
        cards.insert(0, cards.pop())  # the worst-ranked size goes to the winner
        order = [winner, *(seat for seat in playing if seat != winner)]
        plays = sorted(
            ({"seat": s, "card": c} for s, c in zip(order, cards, strict=True)),
            key=lambda play: play["seat"],
        )
        state.tricks.append({"leader": lead, "category": "size", "cards": plays, "winner": winner})
        lead = winner
    state.won = won
    played = len(state.tricks)
    state.dealt = (
        list(dealt)
        if dealt
        else [len(hand) + played if state.in_game[s] else 0 for s, hand in enumerate(hands)]
    )
    state.undealt = spare
    state.trick = {"leader": leader, "category": None, "cards": []}
    state.dealer = leader if dealer is None else dealer
    state.round = 1
    assert sorted(state.all_cards()) == ALL
    return state


def lead(state: ClashState, postal: str, category: Category) -> None:
    state.apply_action(state.game.lead_action(postal, category))


def follow(state: ClashState, postal: str) -> None:
    state.apply_action(state.game.card_action(postal))


def json_strings(tree: Any) -> set[str]:
    if isinstance(tree, str):
        return {tree}
    if isinstance(tree, dict):
        return set(tree) | {s for v in tree.values() for s in json_strings(v)}
    if isinstance(tree, list):
        return {s for v in tree for s in json_strings(v)}
    return set()


def texts(state: ClashState, kind: str) -> list[str]:
    return [event.text for event in state.log if event.kind == kind]


def frozen(state: ClashState) -> tuple:
    """Everything an illegal action must leave alone."""
    return (
        list(state.history),
        [event.text for event in state.log],
        [state.observation(seat) for seat in range(state.game.players)],
        sorted(state.all_cards()),
        state.current_player(),
    )


# --- C1: how many cards ------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 8))
def test_c1_round_one_deals_7_cards_each(players):
    """C1: in round 1 every player is dealt 7 cards; the rest of the deck stays undealt."""
    game = GeoClashDownBack(DECK, Params(players=players))
    for seed in range(3):
        state = game.new_initial_state(seed)
        assert [len(hand) for hand in state.hands] == [7] * players
        assert state.dealt == [7] * players and state.round == 1
        assert len(state.undealt) == 50 - 7 * players
        assert sorted(state.all_cards()) == ALL
        assert state.log[0].kind == "deal" and "7 cards each and lead" in state.log[0].text


def test_c1_winners_keep_their_count_and_losers_get_one_fewer():
    """C1, C4: after the round the loser (fewest tricks) is dealt one card fewer; the winners the same number again."""
    state = table(["RI", "OH"], ["TX"], ["CA", "NY"], dealt=[7, 6, 7], won=[2, 2, 1])
    lead(state, "RI", SIZE)  # Rhode Island's size 50 takes the trick
    follow(
        state, "TX"
    )  # Computer 1 has no cards left: the round ends when the trick completes (C3)
    follow(state, "CA")
    assert state.last_round == {
        "round": 1,
        "won": [3, 2, 1],
        "dealt": [7, 6, 7],
        "losers": [2],
        "out": [],
    }
    assert state.round == 2
    assert state.dealt == [7, 6, 6]
    assert [len(hand) for hand in state.hands] == [7, 6, 6]
    assert len(state.undealt) == 50 - 19 and sorted(state.all_cards()) == ALL
    assert texts(state, "round")[-1] == (
        "Round 1 is over: Computer 1 has no cards left. Computer 2 won the fewest tricks (1) and loses the round "
        "(6 cards next round). Everyone else wins the round and is dealt the same number again."
    )
    assert texts(state, "deal")[-1] == (
        "Round 2: Computer 1 deals and leads the first trick. Cards dealt: you 7, Computer 1 6, Computer 2 6."
    )


def test_c1_the_whole_deck_is_shuffled_each_round():
    """C1 and the rule text: every round is dealt from all 50 cards, so cards played last round can come back."""
    game = GeoClashDownBack(DECK, Params(players=2))
    state = game.new_initial_state(1)
    rng = random.Random(1)
    seen: set[str] = set()
    while not state.is_terminal() and state.round < 6:
        round_ = state.round
        seen |= {p for hand in state.hands for p in hand}
        state.apply_action(rng.choice(state.legal_actions()))
        if state.round != round_:
            assert sorted(state.all_cards()) == ALL
            assert not state.tricks and not state.trick["cards"]
    assert len(seen) > 2 * 7 + 10


# --- C2: a trick ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("category", "worst", "rank"),
    [(SIZE, "RI", 50), (STATEHOOD, "HI", 50), (POPULATION, "WY", 50)],
    ids=["size-Rhode-Island", "statehood-Hawaii", "population-Wyoming"],
)
def test_c2_the_worst_ranked_card_in_the_named_category_wins(category, worst, rank):
    """C2: the card farthest from 1 in the leader's category takes the trick, wherever it is played."""
    first, second, fourth = "TX", "AK", "CA"  # Alaska's statehood 49 and population 47 come close
    state = table([first, "OH"], [second, "IA"], [worst, "NE"], [fourth, "KS"])
    lead(state, first, category)
    for postal in (second, worst, fourth):
        follow(state, postal)
    assert state.tricks[-1]["winner"] == 2 and state.won == [0, 0, 1, 0]
    assert texts(state, "trick")[-1].startswith(
        f"{DECK[worst].name}'s {category.value.lower()} {rank} is the worst-ranked card on the trick, "
        "the farthest from 1: Computer 2 takes trick 1."
    )


def test_c2_rhode_island_on_size_beats_anything_and_its_player_leads_next():
    """C2: on size Rhode Island (50) beats Alaska (1) and Delaware (49); the trick's winner leads the next trick."""
    state = table(["TX", "OH"], ["AK", "MT"], ["RI", "NY"], ["DE", "FL"])
    lead(state, "TX", SIZE)
    assert state.log[-1].text == "Trick 1: You name size and lead Texas (size 2)."
    follow(state, "AK")
    follow(state, "RI")
    follow(state, "DE")
    assert state.tricks[-1] == {
        "leader": 0,
        "category": "size",
        "cards": [
            {"seat": 0, "card": "TX"},
            {"seat": 1, "card": "AK"},
            {"seat": 2, "card": "RI"},
            {"seat": 3, "card": "DE"},
        ],
        "winner": 2,
    }
    assert state.won == [0, 0, 1, 0]
    assert state.log[-1].text == (
        "Rhode Island's size 50 is the worst-ranked card on the trick, the farthest from 1: Computer 2 takes trick 1. "
        "Tricks: you 0, Computer 1 0, Computer 2 1, Computer 3 0."
    )
    assert state.current_player() == 2 and state.trick == {
        "leader": 2,
        "category": None,
        "cards": [],
    }
    assert state.legal_actions() == sorted(state.game.lead_action("NY", c) for c in Category)


@pytest.mark.parametrize(("category", "winner"), [(SIZE, 0), (STATEHOOD, 1), (POPULATION, 1)])
def test_c2_the_leader_names_the_category(category, winner):
    """C2: the same two cards, New York (30, 11, 3) and Colorado (8, 38, 22): the named category decides."""
    state = table(["NY", "TX"], ["CO", "AK"])
    lead(state, "NY", category)
    follow(state, "CO")
    assert state.tricks[-1]["category"] == category.slug
    assert state.tricks[-1]["winner"] == winner
    assert state.current_player() == winner


def test_c2_any_card_may_follow():
    """C2: a follower may play any card in hand, with no category of its own; nothing has to be followed."""
    state = table(["NY", "TX"], ["CO", "AK", "HI"], ["CA", "OH"])
    lead(state, "NY", POPULATION)
    game = state.game
    assert state.current_player() == 1
    assert state.legal_actions() == sorted(game.card_action(p) for p in ["CO", "AK", "HI"])
    assert state.action_to_string(game.card_action("HI")) == "Play Hawaii"
    before = frozen(state)
    with pytest.raises(IllegalAction, match=r"^It is not your lead: play any card\.$"):
        lead(state, "CO", SIZE)
    with pytest.raises(IllegalAction, match=r"^That card is not in your hand\.$"):
        follow(state, "TX")
    assert frozen(state) == before
    follow(state, "AK")
    assert state.log[-1].text == "Computer 1 plays Alaska (population 47)."


def test_c2_the_leader_names_a_category():
    """C2: a card led without a category is refused, with the reason, and nothing changes."""
    state = table(["NY", "TX"], ["CO", "AK"])
    assert len(state.legal_actions()) == 2 * 3
    assert state.action_to_string(state.game.lead_action("TX", SIZE)) == "Lead Texas on size"
    before = frozen(state)
    with pytest.raises(IllegalAction, match=r"^Name a category for the card you lead\.$"):
        follow(state, "NY")
    with pytest.raises(IllegalAction, match=r"^That card is not in your hand\.$"):
        lead(state, "CO", SIZE)
    with pytest.raises(IllegalAction, match="not a move"):
        state.apply_action(LEAD + 50 * 3)
    assert frozen(state) == before


def test_c2_play_goes_clockwise_skipping_players_out_of_the_game():
    """C2: after the lead everyone else plays in clockwise order; a player out of the game is skipped."""
    state = table(["NY", "TX"], [], ["CO", "AK"], ["CA", "OH"], leader=3, out=(1,))
    assert state.current_player() == 3
    lead(state, "CA", SIZE)
    assert state.current_player() == 0
    follow(state, "NY")
    assert state.current_player() == 2
    follow(state, "AK")  # sizes: California 3, New York 30, Alaska 1: New York's is the worst
    assert len(state.tricks) == 1 and state.tricks[-1]["winner"] == 0
    assert [play["seat"] for play in state.tricks[-1]["cards"]] == [3, 0, 2]


@pytest.mark.parametrize("players", [2, 4, 7])
def test_c2_the_dealer_leads_the_first_trick(players):
    """C2: each round the dealer leads the first trick."""
    game = GeoClashDownBack(DECK, Params(players=players))
    for seed in range(4):
        state = game.new_initial_state(seed)
        assert state.current_player() == state.dealer == state.trick["leader"]
        assert all(action >= LEAD for action in state.legal_actions())


# --- C3: the end of a round ---------------------------------------------------------------------


def test_c3_the_round_ends_when_someone_runs_out_after_a_complete_trick():
    """C3: a player who plays their last card does not end the round until the trick is complete;
    then the round ends, and everyone's leftover cards go back to the deck."""
    state = table(["AK"], ["TX", "CA", "NY"], ["FL", "OH", "GA"], dealt=[3, 5, 5], won=[1, 1, 0])
    lead(state, "AK", STATEHOOD)  # Alaska's statehood 49
    assert state.hands[0] == [] and state.round == 1
    assert state.current_player() == 1
    follow(state, "TX")
    assert state.round == 1
    follow(state, "FL")
    assert state.round == 2
    assert state.last_round == {
        "round": 1,
        "won": [2, 1, 0],
        "dealt": [3, 5, 5],
        "losers": [2],
        "out": [],
    }
    assert texts(state, "round")[-1].startswith(
        "Round 1 is over: You have no cards left. Computer 2 won the fewest tricks (0)"
    )
    assert state.dealt == [3, 5, 4] and [len(hand) for hand in state.hands] == [3, 5, 4]
    assert state.tricks == [] and state.won == [0, 0, 0]
    assert sorted(state.all_cards()) == ALL


def test_c3_the_round_goes_on_while_everyone_holds_cards():
    """C3: after a trick in which nobody ran out, the round goes on with the next trick."""
    state = table(["NY", "TX"], ["CO", "AK"])
    lead(state, "NY", SIZE)
    follow(state, "CO")
    assert state.round == 1 and state.trick_number == 2
    assert state.observation(1)["trick_number"] == 2 and state.current_player() == 0


# --- C4: who loses the round ---------------------------------------------------------------------


def test_c4_the_fewest_tricks_lose_and_everyone_else_wins():
    """C4: the one player with the fewest tricks loses the round; everyone else wins it."""
    state = table(["RI"], ["TX"], ["CA"], ["NY"], won=[1, 1, 2, 3])
    assert state.dealt == [8, 8, 8, 8]
    lead(state, "RI", SIZE)
    for postal in ["TX", "CA", "NY"]:
        follow(state, postal)
    assert state.last_round["won"] == [2, 1, 2, 3]  # type: ignore[index]
    assert state.last_round["losers"] == [1]  # type: ignore[index]
    assert state.dealt == [8, 7, 8, 8]
    assert texts(state, "round")[-1].endswith(
        "Computer 1 won the fewest tricks (1) and loses the round (7 cards next round). "
        "Everyone else wins the round and is dealt the same number again."
    )


def test_c4_a_tie_for_fewest_tricks_is_lost_by_the_player_dealt_most_cards():
    """C4, the tie-break by most cards dealt: of the players tied for fewest tricks, the one dealt most cards loses."""
    state = table(["TX", "OH"], ["AK"], ["RI", "CA"], dealt=[7, 6, 7], won=[1, 1, 3])
    lead(state, "TX", SIZE)
    follow(state, "AK")
    follow(state, "RI")  # Computer 2 takes it; Computer 1 ran out
    summary = state.last_round
    assert summary == {"round": 1, "won": [1, 1, 4], "dealt": [7, 6, 7], "losers": [0], "out": []}
    assert state.dealt == [6, 6, 7]
    assert texts(state, "round")[-1] == (
        "Round 1 is over: Computer 1 has no cards left. You and Computer 1 tie for the fewest tricks (1); "
        "you were dealt the most cards (7) and lose the round (6 cards next round). "
        "Everyone else wins the round and is dealt the same number again."
    )


def test_c4_players_still_tied_after_the_tie_break_all_lose():
    """C4: players tied for fewest tricks and dealt the same number all lose the round."""
    state = table(["TX"], ["AK"], ["RI"], won=[1, 1, 3])
    assert state.dealt == [6, 6, 6]
    lead(state, "TX", SIZE)
    follow(state, "AK")
    follow(state, "RI")
    assert state.last_round["losers"] == [0, 1]  # type: ignore[index]
    assert state.dealt == [5, 5, 6]
    assert (
        "You and Computer 1 tie for the fewest tricks (1), each dealt 6 cards: all of them lose the round (5 cards next round). "
        "Everyone else wins the round and is dealt the same number again."
    ) in texts(state, "round")[-1]


def test_c4_when_everyone_ties_everyone_loses():
    """C4 (P-C3): with every player tied on tricks and cards dealt, everyone loses the round and gets one card fewer."""
    state = table(["TX"], ["RI"], won=[1, 0], dealt=[2, 2])
    lead(state, "TX", SIZE)
    follow(state, "RI")
    assert state.last_round["losers"] == [0, 1]  # type: ignore[index]
    assert state.dealt == [1, 1] and state.in_game == [True, True]
    assert "everyone loses the round" in texts(state, "round")[-1].lower()


# --- C5: out of the game -------------------------------------------------------------------------


def test_c5_a_player_dealt_one_card_who_loses_the_trick_is_out():
    """C5: dealt 1 card and not winning the trick puts a player out, even when (C4) someone dealt more loses the round."""
    state = table(["AK"], ["RI", "TX", "CA"], ["NY", "FL", "OH"], dealt=[1, 3, 3])
    lead(state, "AK", STATEHOOD)  # 49
    follow(state, "RI")  # 13
    follow(state, "NY")  # 11: Alaska takes it
    assert state.in_game == [True, True, True]
    state = table(["AK"], ["HI", "TX", "CA"], ["NY", "FL", "OH"], dealt=[1, 3, 3])
    lead(state, "AK", STATEHOOD)
    follow(state, "HI")  # Hawaii's statehood 50 beats Alaska's 49
    follow(state, "NY")
    assert state.last_round == {
        "round": 1,
        "won": [0, 1, 0],
        "dealt": [1, 3, 3],
        "losers": [2],
        "out": [0],
    }
    assert state.in_game == [False, True, True]
    assert state.dealt == [0, 3, 2] and state.hands[0] == []
    assert texts(state, "out") == [
        "You were dealt 1 card and did not win the trick, so you are out of the game."
    ]
    assert not state.is_terminal()
    observation = state.observation(0)
    assert observation["in_game"] == [False, True, True] and observation["hand"] == []
    assert state.current_player() != 0


def test_c5_a_player_dealt_one_card_who_wins_the_trick_stays_in():
    """C5: a one-card player who wins the trick wins the round, and is dealt one card again."""
    state = table(["AK"], ["RI", "TX", "CA"], ["NY", "FL", "OH"], dealt=[1, 3, 3])
    lead(state, "AK", STATEHOOD)
    follow(state, "TX")
    follow(state, "NY")
    assert state.last_round["out"] == [] and state.last_round["losers"] == [1, 2]  # type: ignore[index]
    assert state.in_game == [True, True, True] and state.dealt == [1, 2, 2]
    assert texts(state, "out") == []


def test_c5_a_one_card_player_is_out_even_as_follower():
    """C5: the rule holds for a one-card player who follows, and for several at once."""
    state = table(["TX", "OH"], ["AK"], ["CA"], ["RI", "NY"], dealt=[2, 1, 1, 2], leader=0)
    lead(state, "TX", SIZE)
    follow(state, "AK")
    follow(state, "CA")
    follow(state, "RI")
    assert state.last_round["out"] == [1, 2]  # type: ignore[index]
    assert state.in_game == [True, False, False, True]
    assert len(texts(state, "out")) == 2


# --- C6: the end of the game ---------------------------------------------------------------------


def test_c6_the_last_player_left_wins_and_the_game_is_over():
    """C6: once only one player is left, that player wins: returns 1 for them, 0 for the others."""
    state = table(["AK"], ["HI", "TX"], dealt=[1, 2])
    lead(state, "AK", STATEHOOD)
    follow(state, "HI")
    assert (
        state.is_terminal() and state.current_player() == TERMINAL and state.legal_actions() == []
    )
    assert state.returns() == [0.0, 1.0] and state.winners() == [1]
    assert (
        state.log[-1].kind == "end"
        and state.log[-1].text == "The computer is the last player left and wins the game."
    )
    assert sorted(state.all_cards()) == ALL
    with pytest.raises(IllegalAction, match="over"):
        follow(state, "TX")


def test_c6_you_win_when_the_others_go_out_together():
    """C6: several one-card players can go out in the same round; the last one left wins."""
    state = table(["WY"], ["TX"], ["CA"])
    lead(state, "WY", POPULATION)
    follow(state, "TX")
    follow(state, "CA")
    assert state.in_game == [True, False, False]
    assert state.is_terminal() and state.returns() == [1.0, 0.0, 0.0]
    assert state.log[-1].text == "You are the last player left: you win the game!"
    assert state.observation(1)["current_player"] == TERMINAL


# --- G7: the dealer ------------------------------------------------------------------------------


def test_g7_the_first_dealer_is_drawn_from_the_seed():
    """G7, G9: the first dealer is drawn: the same seed deals the same game, and every seat deals first sometimes."""
    game = GeoClashDownBack(DECK, Params(players=4))
    dealers = {game.new_initial_state(seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert game.new_initial_state(9).hands == game.new_initial_state(9).hands


def test_g7_the_deal_passes_clockwise_skipping_eliminated_players():
    """G7: the next round's dealer is the next seat clockwise still in the game."""
    state = table(["TX"], [], ["RI"], ["CA"], dealer=0, out=(1,), won=[1, 0, 0, 1])
    assert state.dealt == [3, 0, 3, 3]
    lead(state, "TX", SIZE)
    follow(state, "RI")
    follow(state, "CA")
    assert state.round == 2 and state.dealer == 2 and state.current_player() == 2
    # and when the dealer is knocked out, the deal passes to the next seat still in
    state = table(
        ["TX", "OH"], ["AK"], ["RI", "CA"], ["NY", "FL"], dealer=1, leader=0, dealt=[2, 1, 2, 2]
    )
    lead(state, "TX", SIZE)
    follow(state, "AK")
    follow(state, "RI")
    follow(state, "NY")
    assert state.in_game == [True, False, True, True]
    assert state.dealer == 2 and state.current_player() == 2


# --- what each seat sees, and the computer players ------------------------------------------------


def test_observation_shows_only_the_seats_own_hand():
    """An observation is JSON, has the table's public facts, and never names another hand or an undealt card."""
    state = table(["NY", "TX"], ["CO", "AK"], ["CA", "OH"], won=[1, 0, 0])
    lead(state, "NY", SIZE)
    observation = state.observation(1)
    assert json.loads(json.dumps(observation)) == observation
    for key in [
        "game",
        "seat",
        "current_player",
        "hand",
        "hand_counts",
        "dealt",
        "in_game",
        "trick",
        "tricks",
        "won",
        "dealer",
        "round",
        "trick_number",
    ]:
        assert key in observation
    assert observation["hand"] == ["AK", "CO"] and observation["hand_counts"] == [1, 2, 2]
    assert observation["trick"] == {
        "leader": 0,
        "category": "size",
        "cards": [{"seat": 0, "card": "NY"}],
    }
    assert observation["won"] == [1, 0, 0] and observation["trick_number"] == 2
    assert not json_strings(observation) & state.hidden_from(1)
    assert state.hidden_from(1) == {"TX", "CA", "OH", *state.undealt}


def test_sample_state_deals_the_unseen_cards_consistently():
    """An imagined deal keeps the seat's hand and everything public, and deals the rest from the unseen cards."""
    game = GeoClashDownBack(DECK, Params(players=4))
    state = game.new_initial_state(3)
    rng = random.Random(3)
    for _ in range(9):
        state.apply_action(rng.choice(state.legal_actions()))
    for seat in range(4):
        observation = state.observation(seat)
        world = game.sample_state(json.loads(json.dumps(observation)), random.Random(seat))
        assert world.observation(seat) == observation
        assert sorted(world.all_cards()) == ALL
        assert world.hidden_from(seat) == state.hidden_from(seat)
        assert world.current_player() == state.current_player()
        assert world.log == []


def test_the_rule_player_leads_its_likeliest_winner_and_follows_cheaply():
    """Computer players: with one card the rule of thumb names the category where it ranks worst;
    last to play it beats the trick with its cheapest winner, and otherwise throws away its least useful card."""
    state = table(["RI"], ["TX"])
    game = state.game
    assert bot_for(game).rule_action(
        state.observation(0), state.legal_actions(), random.Random(0)
    ) == game.lead_action("RI", SIZE)
    state = table(["NY", "TX"], ["RI", "OK", "MD"])
    lead(
        state, "NY", SIZE
    )  # 30: Oklahoma (19) cannot beat it; Maryland (42) and Rhode Island (50) can
    choice = bot_for(game).rule_action(
        state.observation(1), state.legal_actions(), random.Random(0)
    )
    assert choice == game.card_action("MD")
    state = table(["RI", "TX"], ["NY", "OK", "MD"])
    lead(
        state, "RI", SIZE
    )  # nothing beats 50: throw away the card whose worst ranking is closest to 1
    choice = bot_for(game).rule_action(
        state.observation(1), state.legal_actions(), random.Random(0)
    )
    useful = {p: max(game.ranks[p]) for p in ["NY", "OK", "MD"]}
    assert choice == game.card_action(min(useful, key=useful.__getitem__))


def test_the_search_player_chooses_a_legal_action_without_touching_the_game():
    """The search player thinks in imagined deals only; the real state is untouched."""
    game = GeoClashDownBack(DECK, Params(players=4))
    state = game.new_initial_state(2)
    for _ in range(6):
        seat = state.current_player()
        before = frozen(state)
        action = SearchPlayer(random.Random(len(state.history)), worlds=4).choose(
            game, state.observation(seat), state.legal_actions()
        )
        assert action in state.legal_actions() and frozen(state) == before
        state.apply_action(action)


def test_players_and_teams():
    with pytest.raises(GameError, match="2 to 7 players"):
        GeoClashDownBack(DECK, Params(players=8))
    with pytest.raises(GameError, match="teams"):
        GeoClashDownBack(DECK, Params(players=4, team_size=2))


# --- G9: seeded random play-outs -----------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 8))
def test_g9_random_playouts_end_keep_every_card_and_replay(players):
    """G9 and C1-C6 together: seeded random games end; no card is lost; observations are JSON and
    never show a hidden card; the seed and actions rebuild the game exactly."""
    game = GeoClashDownBack(DECK, Params(players=players))
    for seed in range(2):
        state = game.new_initial_state(seed)
        rng = random.Random(f"playout:{seed}")
        while True:
            assert sorted(state.all_cards()) == ALL
            for seat in range(players):
                observation = state.observation(seat)
                tree = json.loads(json.dumps(observation))
                assert not json_strings(tree) & state.hidden_from(seat)
            if state.is_terminal():
                break
            assert len(state.history) < MAX_ACTIONS, "the play-out does not end"
            legal = state.legal_actions()
            assert legal and legal == sorted(set(legal))
            state.apply_action(rng.choice(legal))
        assert sum(state.in_game) == 1 and sorted(state.returns()) == [0.0] * (players - 1) + [1.0]
        again = replay(game, seed, state.history)
        assert [e.text for e in again.log] == [e.text for e in state.log]
        assert [again.observation(s) for s in range(players)] == [
            state.observation(s) for s in range(players)
        ]
