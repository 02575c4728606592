"""GeoPower Toss rules (T1-T5), the shared rules it plays by (G6-G9) and the project's P-T1.

Situations are built by setting a ``TossState``'s hands, Power cards, trick and tricks won
directly; the cards not in a hand, the open trick or a completed trick are left undealt, so that
no card goes missing.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from trainer.cards import Category, load_deck
from trainer.games import (
    GameError,
    IllegalAction,
    Level,
    Params,
    RulePlayer,
    SearchPlayer,
    make_player,
    replay,
)
from trainer.games.bots import bot_for
from trainer.games.geopower_toss import CALL, REMOVE, GeoPowerToss, TossState

DECK = load_deck()
ALL = sorted(card.postal for card in DECK)
SIZE, STATEHOOD, POPULATION = Category.SIZE, Category.STATEHOOD, Category.POPULATION
#: One Power card id per category (data/power_cards.csv: 1-5 Size, 6-10 Statehood, 11-15 Population).
POWER = {SIZE: 1, STATEHOOD: 6, POPULATION: 11}


def table(
    *hands: list[str],
    geopower: Category | None = SIZE,
    power: list[int] | None = None,
    dealer: int = 0,
    to_play: int | None = None,
    trick: list[tuple[int, str]] | None = None,
    winners: list[int] | None = None,
    called: list[int] | None = None,
    scores: list[int] | None = None,
    team_size: int = 1,
) -> TossState:
    """A round in progress: these hands (one per seat) and the open trick as (seat, card) pairs.

    ``winners`` lists who won each completed trick (their cards are taken from the undealt pile);
    the last winner leads the next trick. ``geopower=None`` with ``power`` ids is the Power card phase (T1).
    """
    game = GeoPowerToss(DECK, Params(players=len(hands), team_size=team_size))
    state = TossState(game, random.Random(0))
    state.hands = [list(hand) for hand in hands]
    state.trick = [{"seat": seat, "card": card} for seat, card in trick or []]
    used = {p for hand in hands for p in hand} | {play["card"] for play in state.trick}
    spare = sorted(
        (card for card in DECK if card.postal not in used),
        key=lambda card: (card.zone.value, card.name),
        reverse=True,
    )
    assert len(winners or []) < 8
    for winner in winners or []:
        cards = [
            {"seat": (winner + i) % len(hands), "card": spare.pop().postal}
            for i in range(len(hands))
        ]
        state.tricks.append({"leader": winner, "cards": cards, "winner": winner})
        state.won[winner] += 1
        used |= {play["card"] for play in cards}
    state.undealt = [p for p in ALL if p not in used]
    state.dealer, state.round = dealer, 1
    if geopower is None:
        state.power = list(power or [])
        state.to_play = dealer if to_play is None else to_play
    else:
        state.geopower, state.k = geopower, list(Category).index(geopower)
        state.power = [POWER[geopower]]
        state.removed = [i for i in range(1, len(hands) + 2) if i != POWER[geopower]][: len(hands)]
        first = state.trick[0]["seat"] if state.trick else winners[-1] if winners else dealer
        state.to_play = (first + len(state.trick)) % len(hands) if to_play is None else to_play
        state.leader = first
    state.called = list(called or [])
    if scores is not None:
        state.scores = list(scores)
    return state


def play(state: TossState, postal: str) -> None:
    state.apply_action(state.game.card_action(postal))


def snapshot(state: TossState) -> tuple:
    return (
        list(state.history),
        [state.observation(seat) for seat in range(state.game.players)],
        [event.text for event in state.log],
        state.current_player(),
        state.legal_actions(),
    )


def refused(state: TossState, action: int, message: str) -> None:
    """``action`` is refused with exactly ``message``, and nothing about the state changes."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as caught:
        state.apply_action(action)
    assert str(caught.value) == message
    assert snapshot(state) == before


def strings(tree: Any) -> set[str]:
    if isinstance(tree, str):
        return {tree}
    if isinstance(tree, dict):
        return set(tree) | {s for value in tree.values() for s in strings(value)}
    if isinstance(tree, list):
        return {s for item in tree for s in strings(item)}
    return set()


# --- T1 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 7))
def test_t1_each_round_deals_8_cards_each_and_lays_out_one_power_card_more_than_players(players):
    """T1: 8 GeoPlunge cards each, players + 1 Power cards face up, and the dealer acts first."""
    game = GeoPowerToss(DECK, Params(players=players))
    for seed in range(3):
        state = game.new_initial_state(seed)
        assert [len(hand) for hand in state.hands] == [8] * players
        assert len(state.undealt) == 50 - 8 * players
        assert len(state.power) == players + 1 and len(set(state.power)) == players + 1
        assert state.phase == "power" and state.geopower is None and state.removed == []
        assert state.current_player() == state.dealer
        assert state.legal_actions() == [
            *sorted(REMOVE + i for i in state.power),
            CALL,
        ]  # a call may come now too (P-H10)
        assert sorted(state.all_cards()) == ALL


def test_t1_the_dealer_removes_first_then_each_player_clockwise_and_the_last_card_is_the_geopower_card():
    """T1: removal order dealer, dealer+1, ...; the card left sets the category and the dealer leads trick 1."""
    state = table(["TX"], ["CA"], ["NY"], ["AK"], geopower=None, power=[3, 7, 12, 2, 15], dealer=2)
    order = []
    for power_id in (12, 3, 15, 7):
        order.append(state.current_player())
        state.apply_action(REMOVE + power_id)
    assert order == [2, 3, 0, 1]
    assert state.removed == [12, 3, 15, 7] and state.power == [2]
    assert state.geopower is SIZE and state.phase == "trick"
    assert state.current_player() == 2 and state.leader == 2
    assert state.observation(0)["geopower"] == "size"
    texts = [event.text for event in state.log]
    assert texts == [
        "Computer 2 removes a Population Power card.",
        "Computer 3 removes a Size Power card.",
        "You remove a Population Power card.",
        "Computer 1 removes a Statehood Power card.",
        "The GeoPower Card is Size: on every trick the best size ranking in the led zone wins. Computer 2 leads the first trick.",
    ]


def test_t1_a_power_card_not_on_the_table_is_refused_and_nothing_else_is_allowed_yet():
    """T1: only the face-up Power cards can be removed; no card is played before the choice (a call may be: P-H10)."""
    state = table(["TX"], ["CA"], geopower=None, power=[3, 7, 12])
    refused(state, REMOVE + 5, "That Power card is not on the table.")
    refused(
        state,
        state.game.card_action("TX"),
        "Remove a Power card first: the GeoPower Card is not chosen yet.",
    )
    assert CALL in state.legal_actions()  # P-H10
    refused(state, 150, "That is not a move in GeoPower Toss.")
    assert state.action_to_string(REMOVE + 7) == "Remove Power card 7 (Statehood)"


def test_t1_once_chosen_no_power_card_can_be_removed():
    """T1: after the GeoPower Card is chosen the round is played with it."""
    state = table(["TX"], ["CA"])
    refused(state, REMOVE + POWER[SIZE], "The GeoPower Card is already chosen: play a card.")


def test_t1_the_rule_player_keeps_the_category_its_hand_is_strong_in():
    """T1: the choice is a real decision; a hand of the biggest states removes Statehood and Population first."""
    big = ["AK", "TX", "CA", "MT", "NM", "AZ", "NV", "CO"]  # size 1-8, statehood 28-49
    state = table(
        big, ["RI", "DE", "CT", "NJ", "NH", "VT", "MA", "MD"], geopower=None, power=[1, 6, 11]
    )
    game = state.game
    choice = bot_for(game).rule_action(
        state.observation(0), state.legal_actions(), random.Random(0)
    )
    assert choice == REMOVE + 6  # statehood: the worst for these cards
    state.apply_action(choice)
    choice = bot_for(game).rule_action(
        state.observation(1), state.legal_actions(), random.Random(0)
    )
    assert choice == REMOVE + 1  # the small, early states remove Size
    state.apply_action(choice)
    assert state.geopower is POPULATION


# --- T2 ---------------------------------------------------------------------------------------


def test_t2_a_player_must_follow_the_led_zone_if_able():
    """T2: with a Central card in hand, a Central lead must be followed; anything else is refused unchanged."""
    state = table(["IL", "NY", "CA"], ["TX", "OH"], trick=[(1, "TX")], dealer=1)
    game = state.game
    assert state.current_player() == 0
    assert state.legal_actions() == [game.card_action("IL"), CALL]
    refused(
        state, game.card_action("NY"), "You must follow the Central zone: you have a Central card."
    )
    refused(state, game.card_action("OH"), "That card is not in your hand.")
    play(state, "IL")
    assert state.trick == [] and state.won == [0, 1]  # Texas, size 2, beats Illinois's 24 (T3)


def test_t2_a_player_void_in_the_led_zone_may_play_any_card():
    """T2: with no card of the led zone, any card may be played."""
    state = table(["NY", "CA", "AK"], ["TX", "OH"], trick=[(1, "TX")], dealer=1)
    game = state.game
    assert state.legal_actions() == sorted([game.card_action(p) for p in ("NY", "CA", "AK")]) + [
        CALL
    ]
    play(state, "AK")  # Alaska is size 1, but not a Central card
    assert (
        state.log[-2].text
        == "You play Alaska (Alaska): you have no Central card, so it cannot win."
    )
    assert state.won == [0, 1]


def test_t2_the_leader_may_lead_any_card():
    """T2: the zone to follow is set by the lead; leading, every card in hand is allowed."""
    state = table(["NY", "CA", "AK"], ["TX", "OH"])
    assert [a for a in state.legal_actions() if a != CALL] == sorted(
        state.game.card_action(p) for p in ("NY", "CA", "AK")
    )


# --- T3 ---------------------------------------------------------------------------------------


def test_t3_a_card_of_another_zone_never_wins_even_when_better_ranked():
    """T3: population 1 (California, Pacific) cannot win a Central trick; Illinois's 5 is the best Central card."""
    state = table(["IL", "NY"], ["CA", "OH"], ["WI", "VT"], geopower=POPULATION)
    play(state, "IL")
    play(state, "CA")  # void in Central (T2)
    play(state, "WI")
    assert state.won == [1, 0, 0]
    assert state.tricks[-1] == {
        "leader": 0,
        "cards": [{"seat": 0, "card": "IL"}, {"seat": 1, "card": "CA"}, {"seat": 2, "card": "WI"}],
        "winner": 0,
    }
    assert state.log[-1].text == (
        "Illinois's population 5 is the best Central card: you take trick 1. California's 1 is better, "
        "but only Central cards can win this trick. Tricks: You 1, Computer 1 0, Computer 2 0."
    )
    assert state.current_player() == 0  # the winner leads the next trick


def test_t3_the_best_card_of_the_led_zone_wins_and_its_player_leads_next():
    """T3: the lead loses to a better card of its zone; the GeoPower category decides (size here)."""
    state = table(["MO", "NY"], ["TX", "OH"], ["WI", "VT"])
    play(state, "MO")  # size 18
    play(state, "TX")  # size 2
    play(state, "WI")  # size 25
    assert state.won == [0, 1, 0]
    assert state.current_player() == 1 and state.leader == 1
    assert state.log[-1].text.startswith(
        "Texas's size 2 is the best Central card: Computer 1 takes trick 1."
    )


def test_t3_the_category_is_the_geopower_cards():
    """T3: the same cards, ranked by statehood: Missouri (24) beats Texas (28)."""
    state = table(["MO", "NY"], ["TX", "OH"], geopower=STATEHOOD)
    play(state, "MO")
    play(state, "TX")
    assert state.won == [1, 0]


# --- T4 ---------------------------------------------------------------------------------------


def test_t4_a_call_does_not_use_up_the_turn():
    """T4: after calling, the same player plays a card; the call is public and cannot be repeated."""
    state = table(["TX", "NY"], ["CA", "OH"])
    hand = list(state.hands[0])
    state.apply_action(CALL)
    assert state.called == [0]
    assert state.current_player() == 0 and state.hands[0] == hand and state.trick == []
    assert CALL not in state.legal_actions()
    assert (
        state.log[-1].text
        == "You call GeoPlunge: you need 6 of the 8 tricks for 25 points, or score nothing this round."
    )
    assert state.observation(1)["called"] == [0]
    refused(state, CALL, "You have already called GeoPlunge this round.")
    play(state, "TX")
    assert CALL in state.legal_actions()  # the other side may still call on its turn
    state.apply_action(CALL)
    assert state.called == [0, 1]
    assert state.log[-1].text.startswith(
        "The computer calls GeoPlunge: the computer needs 6 of the 8 tricks"
    )


def test_t4_a_call_is_allowed_until_the_first_card_of_the_5th_trick():
    """T4: after 4 tricks, before the 5th trick's lead, the call is allowed; after its first card, it is too late."""
    state = table(["TX", "NY"], ["CA", "OH"], winners=[0, 1, 0, 0])
    assert state.trick_number == 5 and CALL in state.legal_actions()
    play(state, "TX")
    assert state.current_player() == 1 and CALL not in state.legal_actions()
    refused(state, CALL, "It is too late to call GeoPlunge: the 5th trick has started.")


def test_t4_a_call_is_allowed_while_following_in_the_4th_trick():
    """T4: any of the side's turns counts, leading or following."""
    state = table(["NY"], ["TX", "OH"], trick=[(0, "NY")], winners=[0, 1, 1])
    assert state.current_player() == 1 and state.trick_number == 4
    state.apply_action(CALL)
    assert state.called == [1] and state.current_player() == 1


def test_t4_a_team_calls_once_whichever_member_calls():
    """T4, G6: a side calls once per round; a partner cannot call again."""
    state = table(["TX", "NY"], ["CA", "OH"], ["MO", "VT"], ["WI", "GA"], team_size=2)
    state.apply_action(CALL)
    assert (
        state.log[-1].text
        == "You call GeoPlunge: your team needs 6 of the 8 tricks for 25 points, or scores nothing this round."
    )
    play(state, "NY")
    play(state, "OH")
    assert state.current_player() == 2 and CALL not in state.legal_actions()
    refused(state, CALL, "Your team has already called GeoPlunge this round.")


def test_p_h10_a_side_may_call_geoplunge_while_the_power_cards_are_removed():
    """P-H10 (T4): a call on a Power card turn, before the GeoPower Card is known; the same player then removes one."""
    state = table(["TX", "NY"], ["CA", "OH"], geopower=None, power=[3, 7, 12], dealer=0)
    assert state.phase == "power" and state.legal_actions() == [
        REMOVE + 3,
        REMOVE + 7,
        REMOVE + 12,
        CALL,
    ]
    state.apply_action(CALL)
    assert state.called == [0] and state.phase == "power" and state.current_player() == 0
    assert (
        state.log[-1].text
        == "You call GeoPlunge: you need 6 of the 8 tricks for 25 points, or score nothing this round."
    )
    assert state.legal_actions() == [
        REMOVE + 3,
        REMOVE + 7,
        REMOVE + 12,
    ]  # the turn is not used up; once per round
    refused(state, CALL, "You have already called GeoPlunge this round.")
    state.apply_action(REMOVE + 12)
    assert (
        state.current_player() == 1 and CALL in state.legal_actions()
    )  # the other side may call on its turn
    state.apply_action(REMOVE + 7)
    assert state.phase == "trick" and state.geopower is SIZE and state.called == [0]
    assert (
        state.current_player() == 0 and CALL not in state.legal_actions()
    )  # still called, for the whole round


def test_p_h10_a_call_in_the_power_card_phase_is_scored_like_any_call():
    """P-H10, T5, P-T1: the early call is the side's call for the round: 6 tricks score 25, fewer nothing."""
    state = table(["TX"], ["CA"], geopower=None, power=[3, 7, 12], dealer=0)
    state.apply_action(CALL)
    state.apply_action(REMOVE + 7)
    state.apply_action(REMOVE + 12)
    state.tricks = [{"leader": 0, "cards": [], "winner": w} for w in (0, 0, 0, 0, 1, 1, 1)]
    state.won = [4, 3]
    assert state.round_points() == [
        0,
        10,
    ]  # 4 tricks: the call fails, and the other side has the most
    state.won = [6, 1]
    assert state.round_points() == [25, 0]


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_p_h10_the_rule_and_search_players_do_not_call_before_the_geopower_card_is_known(level):
    """P-H10: the medium and hard computers judge a call by the GeoPower category, so they wait for it."""
    strong = ["AK", "TX", "CA", "MT", "NM", "AZ", "NV", "CO"]
    state = table(
        strong, ["RI", "DE", "CT", "NJ", "NH", "VT", "MA", "MD"], geopower=None, power=[1, 6, 11]
    )
    assert CALL in state.legal_actions()
    player = make_player(Level(level), "p-h10")
    choice = player.choose(state.game, state.observation(0), state.legal_actions())
    assert choice == REMOVE + 6  # statehood, the worst category for the biggest states; no call


def test_t4_calls_reset_each_round():
    """T4: once per round: a new round starts with no calls."""
    state = table(["TX"], ["CA"], winners=[0, 0, 0, 0, 0, 0, 0], called=[0])
    play(state, "TX")
    play(state, "CA")
    assert state.round == 2 and state.called == []


# --- T5 and P-T1 ------------------------------------------------------------------------------


def points(won: list[int], called: list[int] | None = None, team_size: int = 1) -> list[int]:
    state = table(*([] for _ in won), called=called, team_size=team_size)
    state.won = list(won)
    return state.round_points()


def test_t5_the_sole_most_tricks_score_10():
    """T5: the side with the sole most tricks scores 10, the others nothing."""
    assert points([3, 2, 2, 1]) == [10, 0, 0, 0]
    assert points([2, 6]) == [0, 10]


def test_t5_sides_tied_for_most_tricks_score_5_each():
    """T5: a tie for most tricks scores 5 for each tied side."""
    assert points([3, 3, 1, 1]) == [5, 5, 0, 0]
    assert points([4, 4]) == [5, 5]
    assert points([2, 2, 2, 2]) == [5, 5, 5, 5]


def test_t5_a_successful_geoplunge_scores_25():
    """T5: a side that called and won at least 6 tricks scores 10 + 15."""
    assert points([6, 1, 1, 0], called=[0]) == [25, 0, 0, 0]
    assert points([0, 8], called=[1]) == [0, 25]


def test_t5_p_t1_a_failed_geoplunge_scores_0_even_with_the_most_tricks():
    """T5, P-T1: a caller with fewer than 6 tricks scores nothing, even with the most; the 10 goes to the best of the rest."""
    assert points([5, 3], called=[0]) == [0, 10]
    assert points([5, 2, 1, 0], called=[0]) == [0, 10, 0, 0]


def test_p_t1_a_failed_callers_tricks_do_not_count_for_the_most_tricks():
    """P-T1: the rest are compared among themselves: a tie among them scores 5 each; a side needs a trick to score."""
    assert points([4, 2, 2, 0], called=[0]) == [0, 5, 5, 0]
    assert points([1, 3, 4], called=[2]) == [0, 10, 0]  # the failed caller had the most
    assert points([4, 4, 0], called=[0, 1]) == [0, 0, 0]  # nobody else won a trick
    assert points([6, 2], called=[0, 1]) == [25, 0]  # two calls, each settled on its own


def test_t5_g6_teams_add_their_members_tricks():
    """T5, G6: seats 0 and 2 are one team, 1 and 3 the other; a team's tricks are its members' sum."""
    assert points([2, 2, 3, 1], team_size=2) == [10, 0]
    assert points([1, 3, 1, 3], called=[1], team_size=2) == [0, 25]
    assert points([2, 2, 2, 2], team_size=2) == [5, 5]
    assert points([2, 1, 1, 1, 2, 1], team_size=3) == [
        10,
        0,
    ]  # seats 0, 2, 4: 5 tricks; seats 1, 3, 5: 3


def test_t5_the_round_ends_after_the_8th_trick_with_the_points_and_a_new_deal():
    """T5, G7: the 8th trick scores the round; the deal passes clockwise and a new round starts."""
    state = table(
        ["TX"], ["CA"], ["NY"], winners=[0, 1, 2, 0, 1, 2, 0], dealer=1, scores=[5, 10, 0]
    )
    play(state, "TX")
    play(state, "CA")
    play(state, "NY")  # Texas leads and wins: 4 tricks to 2 and 2
    assert state.scores == [15, 10, 0]
    texts = [event.text for event in state.log]
    assert texts[-3] == "You won the most tricks (4): 10 points."
    assert texts[-2] == "Round 1 is over. Scores: You 15, Computer 1 10, Computer 2 0."
    assert texts[-1].startswith(
        "Round 2: Computer 2 deals 8 cards each and lays out 4 Power cards ("
    )
    assert state.round == 2 and state.dealer == 2 and state.phase == "power"
    assert state.current_player() == 2 and state.tricks == [] and state.won == [0, 0, 0]
    assert [len(hand) for hand in state.hands] == [8, 8, 8] and sorted(state.all_cards()) == ALL


def test_t5_p_t1_a_failed_call_is_explained_in_the_log():
    """T5, P-T1: the log says the failed caller scores nothing and who took the 10."""
    state = table(["TX"], ["CA"], winners=[1, 1, 1, 0, 0, 0, 0], called=[0])
    play(state, "TX")
    play(state, "CA")  # Texas wins: 5 tricks to 3, short of 6
    assert state.scores == [0, 10]
    texts = [event.text for event in state.log]
    assert (
        "You called GeoPlunge but won only 5 tricks: no points this round, and those tricks do not count for the most tricks."
        in texts
    )
    assert "The computer won the most tricks (3): 10 points." in texts


# --- G6-G8 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "team_size", "message"),
    [
        (7, 1, "2 to 6 players"),
        (5, 2, "5 players cannot be split into teams of 2"),
        (4, 4, "cannot be played in teams of 4"),
    ],
)
def test_g6_impossible_tables_are_refused(players, team_size, message):
    """G6: 2-6 players; teams must split the table evenly into at least two sides."""
    with pytest.raises(GameError, match=message):
        GeoPowerToss(DECK, Params(players=players, team_size=team_size))


def test_g6_team_members_sit_alternately_and_are_named_so():
    """G6: with 6 players in teams of 3, seats 0, 2, 4 are your team; the log names partners."""
    state = table(*([] for _ in range(6)), team_size=3)
    assert state.game.members == ((0, 2, 4), (1, 3, 5))
    assert [state.seat_name(seat) for seat in range(3)] == [
        "You",
        "Computer 1",
        "Your partner (player 3)",
    ]
    assert [state.side_name(side) for side in range(2)] == ["Your team", "Team 2"]


def random_game(players: int, seed: int, team_size: int = 1):  # type: ignore[no-untyped-def]
    game = GeoPowerToss(DECK, Params(players=players, team_size=team_size))
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    yield state
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize(("players", "team_size"), [(2, 1), (3, 1), (4, 2)])
def test_g7_the_deal_passes_one_seat_clockwise_each_round(players, team_size):
    """G7: each round's dealer is the seat after the last one, and removes the first Power card (T1)."""
    dealers: dict[int, int] = {}
    for state in random_game(players, 5, team_size):
        if state.round not in dealers:
            dealers[state.round] = state.dealer
            assert state.current_player() == state.dealer and state.phase == "power"
    first = dealers[1]
    assert len(dealers) > 2
    assert dealers == {r: (first + r - 1) % players for r in dealers}


def test_g7_the_first_dealer_is_drawn_from_the_seed():
    """G7, G9: every seat deals first for some seed; the same seed, the same dealer."""
    game = GeoPowerToss(DECK, Params(players=4))
    assert {game.new_initial_state(seed).dealer for seed in range(40)} == {0, 1, 2, 3}
    assert game.new_initial_state(8).dealer == game.new_initial_state(8).dealer


def last_trick(scores: list[int], winners: list[int]) -> TossState:
    """Trick 8 of a 2-player round: you lead Texas and win it."""
    return table(["TX"], ["CA"], winners=winners, scores=scores)


def test_g8_the_game_ends_after_the_round_in_which_a_side_reaches_50():
    """G8: reaching 50 ends the game after the round; the side with most points wins."""
    state = last_trick([40, 45], [1, 1, 1, 0, 0, 0, 0])
    play(state, "TX")
    play(state, "CA")
    assert state.scores == [50, 45]
    assert (
        state.is_terminal()
        and state.phase == "over"
        and state.returns() == [1.0, 0.0]
        and state.winners() == [0]
    )
    assert state.log[-1].text == "You reach 50 points and win!"
    assert state.legal_actions() == [] and state.observation(0)["trick_number"] == 8
    refused(state, state.game.card_action("TX"), "The game is over.")


def test_g8_a_tied_lead_plays_another_round():
    """G8: if the sides with most points are tied at 50 or more, another round is played."""
    state = last_trick([45, 55], [1, 1, 1, 0, 0, 0, 0])
    play(state, "TX")
    play(state, "CA")
    assert state.scores == [55, 55]
    assert not state.is_terminal() and state.round == 2


def test_g8_most_points_wins_when_two_sides_pass_50():
    """G8: when two sides pass 50 the one with more points wins (a team together, G6)."""
    state = table(
        ["TX"], ["CA"], ["NY"], ["OH"], winners=[1, 1, 1, 2, 2, 0, 0], scores=[48, 60], team_size=2
    )
    for postal in ("TX", "CA", "NY", "OH"):
        play(state, postal)
    assert state.scores == [58, 60]  # seats 0 and 2: 3 + 2 = 5 tricks; seats 1 and 3: 3
    assert state.is_terminal() and state.returns() == [0.0, 1.0, 0.0, 1.0]
    assert state.log[-1].text == "Team 2 reaches 60 points and wins!"


# --- the whole game: random play-outs, replays, observations (G9) -----------------------------


CASES = [(2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (4, 2), (6, 2), (6, 3)]


@pytest.mark.parametrize(("players", "team_size"), CASES)
def test_g9_seeded_random_playouts_end_lose_no_card_and_replay(players, team_size):
    """G9: random games end; no card is lost; observations are JSON and hide other hands; replays match."""
    seed = 10 * players + team_size
    game = GeoPowerToss(DECK, Params(players=players, team_size=team_size))
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    steps = 0
    while True:
        assert sorted(state.all_cards()) == ALL
        for seat in range(players):
            observation = state.observation(seat)
            seen = strings(json.loads(json.dumps(observation)))
            hidden = state.hidden_from(seat)
            assert not seen & hidden
            assert hidden == {
                p for other, hand in enumerate(state.hands) if other != seat for p in hand
            } | set(state.undealt)
            if steps % 40 == 0 and not state.is_terminal():
                world = game.sample_state(observation, rng)
                assert world.observation(seat) == observation
                assert sorted(world.all_cards()) == ALL and world.hidden_from(seat) == hidden
                assert (
                    world.legal_actions() == state.legal_actions() or seat != state.current_player()
                )
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert legal == sorted(set(legal))
        state.apply_action(rng.choice(legal))
        steps += 1
        assert steps < 20_000
    assert max(state.scores) >= 50 and state.scores.count(max(state.scores)) == 1
    assert sum(state.returns()) == pytest.approx(team_size)
    assert snapshot(replay(game, seed, state.history)) == snapshot(state)


def test_g9_the_same_seed_deals_the_same_game():
    """G9: both decks are shuffled from the state's own seeded generator."""
    game = GeoPowerToss(DECK, Params(players=3))
    a, b = game.new_initial_state(4), game.new_initial_state(4)
    assert (a.hands, a.power, a.dealer) == (b.hands, b.power, b.dealer)
    assert a.hands != game.new_initial_state(5).hands


def test_observation_shows_the_table_but_no_other_hand():
    """The observation: own hand, counts, Power cards, tricks, calls and scores; never another seat's hand."""
    state = table(
        ["IL", "NY"], ["TX", "OH"], ["WI", "VT"], trick=[(1, "TX")], dealer=1, winners=[1]
    )
    observation = state.observation(2)
    assert observation["hand"] == ["VT", "WI"] and observation["hand_counts"] == [2, 2, 2]
    assert observation["trick"] == [{"seat": 1, "card": "TX"}]
    assert (
        observation["phase"] == "trick"
        and observation["geopower"] == "size"
        and observation["power_cards"] == [1]
    )
    assert observation["trick_number"] == 2 and observation["won"] == [0, 1, 0]
    assert len(observation["tricks"]) == 1 and observation["tricks"][0]["winner"] == 1
    for key in (
        "game",
        "seat",
        "side",
        "sides",
        "current_player",
        "removed",
        "called",
        "scores",
        "dealer",
        "round",
    ):
        assert key in observation
    assert not strings(observation) & {"IL", "NY", "OH"}


def test_action_labels():
    """Actions: a card's index, 100 + a Power card's id, and 200 for the call."""
    state = table(["TX"], ["CA"])
    game = state.game
    assert game.card_action("TX") == game.index["TX"] < 50
    assert state.action_to_string(game.card_action("TX")) == "Play Texas"
    assert state.action_to_string(CALL) == "Call GeoPlunge"
    assert state.decode(REMOVE + 4).kind == "remove" and state.decode(REMOVE + 4).category is SIZE


# --- computer players -------------------------------------------------------------------------


def test_sample_state_respects_known_voids():
    """An imagined deal never gives a seat a card of a zone it failed to follow this round (T2)."""
    state = table(
        ["NY", "CA"], ["AK", "OH", "PA"], ["MO", "IL", "GA"], trick=[(2, "WI"), (0, "NE")]
    )
    state.tricks = [
        {
            "leader": 2,
            "cards": [
                {"seat": 2, "card": "TX"},
                {"seat": 0, "card": "KS"},
                {"seat": 1, "card": "VT"},
            ],
            "winner": 2,
        }
    ]
    state.won = [0, 0, 1]
    state.undealt = [p for p in state.undealt if p not in ("TX", "KS", "VT")]
    assert sorted(state.all_cards()) == ALL
    game = state.game
    rng = random.Random(3)
    for _ in range(50):
        world = game.sample_state(state.observation(0), rng)
        assert not any(game.card(p).zone.value == "Central" for p in world.hands[1])
        assert len(world.hands[1]) == 3 and len(world.hands[2]) == 3
        assert sorted(world.all_cards()) == ALL


def test_the_rule_player_wins_cheaply_when_it_plays_last():
    """Following last, the rule player takes the trick with its cheapest winner: Pennsylvania (6) over Ohio's 7, not Florida (4)."""
    state = table(
        ["OH"],
        ["FL", "GA", "PA", "VT"],
        trick=[(0, "OH")],
        geopower=POPULATION,
        winners=[1, 1, 1, 1],
    )
    game = state.game
    assert bot_for(game).rule_action(
        state.observation(1), state.legal_actions(), random.Random(0)
    ) == game.card_action("PA")


def test_the_rule_player_throws_its_weakest_card_when_it_cannot_win():
    """Following, unable to beat Florida's population 4, it plays its weakest Eastern card; void, its least useful card."""
    state = table(
        ["FL"], ["GA", "VT", "TX"], trick=[(0, "FL")], geopower=POPULATION, winners=[1, 1, 1, 1, 0]
    )
    game = state.game
    assert bot_for(game).rule_action(
        state.observation(1), state.legal_actions(), random.Random(0)
    ) == game.card_action("VT")
    state = table(
        ["FL"], ["TX", "WY", "CA"], trick=[(0, "FL")], geopower=POPULATION, winners=[1, 1, 1, 1, 0]
    )
    assert bot_for(game).rule_action(
        state.observation(1), state.legal_actions(), random.Random(0)
    ) == game.card_action("WY")


def test_the_rule_player_calls_geoplunge_with_a_hand_of_sure_winners_and_leads_one():
    """T4: with the best card of every zone it holds, the rule player calls, then leads a card no one can beat."""
    strong = [
        "CA",
        "TX",
        "NY",
        "FL",
        "AK",
        "HI",
        "IL",
        "AZ",
    ]  # population: the best of each zone (and the next)
    state = table(strong, ["PA", "OH", "GA", "MI", "NC", "NJ", "VA", "WA"], geopower=POPULATION)
    game = state.game
    assert (
        bot_for(game).rule_action(state.observation(0), state.legal_actions(), random.Random(0))
        == CALL
    )
    state.apply_action(CALL)
    lead = bot_for(game).rule_action(state.observation(0), state.legal_actions(), random.Random(0))
    assert game.cards[lead].postal in {"CA", "TX", "NY", "AK", "HI", "AZ"}
    weak = table(
        ["VT", "WY", "ND", "SD", "RI", "ME", "HI", "DE"],
        ["PA", "OH", "GA", "MI", "NC", "NJ", "VA", "WA"],
        geopower=POPULATION,
    )
    assert (
        bot_for(game).rule_action(weak.observation(0), weak.legal_actions(), random.Random(0))
        != CALL
    )


def test_computer_players_choose_legal_actions():
    """Rule and search players pick legal actions from their observation alone, in teams too."""
    for players, team_size in ((2, 1), (4, 2)):
        game = GeoPowerToss(DECK, Params(players=players, team_size=team_size))
        state = game.new_initial_state(1)
        while state.round == 1:
            seat = state.current_player()
            legal = state.legal_actions()
            rng = random.Random(len(state.history))
            player = SearchPlayer(rng, worlds=2) if seat == 0 else RulePlayer(rng)
            action = player.choose(game, state.observation(seat), legal)
            assert action in legal
            state.apply_action(action)


def test_the_search_weighs_one_card_of_each_equivalent_run():
    """Cards of one zone with nothing still in play ranked between them are one choice; a card of the trick between them splits them."""
    run = [
        "FL",
        "PA",
        "OH",
        "MI",
        "GA",
    ]  # population 4, 6, 7, 8, 9: all the Eastern cards from 4 to 9
    state = table(
        ["NJ"], run, trick=[(0, "NJ")], geopower=POPULATION
    )  # New Jersey, 11, led: each of them wins
    game = state.game
    assert CALL in state.legal_actions()
    assert (
        len(bot_for(game).search_candidates(state.observation(1), state.legal_actions())) == 1
    )  # one card; the call is the rule's
    state = table(
        ["MI"], ["FL", "PA", "OH", "GA"], trick=[(0, "MI")], geopower=POPULATION
    )  # Michigan, 8, led
    candidates = bot_for(game).search_candidates(state.observation(1), state.legal_actions())
    assert len(candidates) == 2 and "GA" in {
        game.cards[a].postal for a in candidates
    }  # Georgia (9) loses; the others win
