"""GeoPlunge 51 rules (F1-F5) and the shared rules it plays by (G6-G8), with the rule text's count example.

Situations are built by setting a ``FiftyOneState``'s hands, count, scores and seat to play
directly; the cards not in a hand are left undealt so that no card goes missing.
"""

from __future__ import annotations

import random

import pytest

from trainer.cards import Category, load_deck
from trainer.games import GameError, IllegalAction, Params
from trainer.games.geoplunge_51 import FiftyOneState, GeoPlunge51

DECK = load_deck()
ALL = sorted(card.postal for card in DECK)
SIZE, STATEHOOD, POPULATION = Category.SIZE, Category.STATEHOOD, Category.POPULATION


def table(
    *hands: list[str],
    count: int = 0,
    to_play: int = 0,
    dealer: int | None = None,
    scores: list[int] | None = None,
    team_size: int = 1,
) -> FiftyOneState:
    """A round in progress: these hands (one per seat), the count, whose turn, the dealer (else the seat to play); every other card undealt."""
    game = GeoPlunge51(DECK, Params(players=len(hands), team_size=team_size))
    state = FiftyOneState(game, random.Random(0))
    state.hands = [list(hand) for hand in hands]
    held = {p for hand in hands for p in hand}
    state.undealt = [p for p in ALL if p not in held]
    state.count, state.to_play, state.round = count, to_play, 1
    state.dealer = to_play if dealer is None else dealer
    if scores is not None:
        state.scores = list(scores)
    return state


def play(state: FiftyOneState, postal: str, category: Category) -> None:
    state.apply_action(state.game.action(postal, category))


def random_game(players: int, seed: int, team_size: int = 1):  # type: ignore[no-untyped-def]
    """A seeded random game; yields the state after every action."""
    game = GeoPlunge51(DECK, Params(players=players, team_size=team_size))
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    yield state
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        yield state


# --- F1 ---------------------------------------------------------------------------------------


def test_f1_the_rule_texts_count_new_york_maryland_washington_montana_make_34():
    """F1, the rule text's example with 3 players: New York 3 + Maryland 7 + Washington 20 + Montana 4 = 34."""
    state = table(["NY", "MT", "TX"], ["MD", "CA"], ["WA", "DE"])
    assert (
        state.action_to_string(state.game.action("NY", POPULATION))
        == "Play New York and announce population 3"
    )
    steps = [
        ("NY", POPULATION, 3, 1),
        ("MD", STATEHOOD, 10, 2),
        ("WA", SIZE, 30, 0),
        ("MT", SIZE, 34, 1),
    ]
    for postal, category, count, next_seat in steps:
        play(state, postal, category)
        assert state.count == count
        assert state.current_player() == next_seat  # clockwise, back round to the dealer
    assert state.scores == [0, 0, 0]
    assert [play["rank"] for play in state.played] == [3, 7, 20, 4]
    assert state.log[-1].text == "You play Montana, size 4: the count is 34."
    assert state.log[-2].text == "Computer 2 plays Washington, size 20: the count is 30."


def test_f1_california_may_be_announced_as_1_3_or_31():
    """F1 and the rule text: California may be played as population 1, size 3 or statehood 31."""
    state = table(["CA"], ["TX"])
    labels = sorted(state.action_to_string(a) for a in state.legal_actions())
    assert labels == [
        "Play California and announce population 1",
        "Play California and announce size 3",
        "Play California and announce statehood 31",
    ]


@pytest.mark.parametrize("players", range(2, 8))
def test_f1_the_dealer_plays_first(players):
    """F1: each round the dealer plays the first card."""
    for seed in range(3):
        state = GeoPlunge51(DECK, Params(players=players)).new_initial_state(seed)
        assert state.current_player() == state.dealer
        assert state.count == 0 and state.round == 1


def test_f1_the_count_may_not_pass_51():
    """F1: a play that would take the count past 51 is refused, with the reason, and nothing changes."""
    state = table(["AK", "HI"], ["TX"], count=45)
    game = state.game
    assert state.legal_actions() == [
        game.action("AK", SIZE)
    ]  # Alaska's 1; its 49 and 47, and all of Hawaii, pass 51
    with pytest.raises(IllegalAction, match=r"^That would take the count to 94, past 51 \(F1\)\.$"):
        play(state, "AK", STATEHOOD)
    with pytest.raises(IllegalAction, match="past 51"):
        play(state, "HI", POPULATION)
    with pytest.raises(IllegalAction, match="not in the hand"):
        play(state, "TX", SIZE)
    assert state.count == 45 and state.hands == [["AK", "HI"], ["TX"]] and state.history == []


# --- F2 ---------------------------------------------------------------------------------------


def test_f2_exactly_51_scores_10_and_the_count_starts_again():
    """F2: a play that makes the count exactly 51 scores 10, and the count returns to 0."""
    state = table(["NY", "TX"], ["HI", "AK"], count=48)
    play(state, "NY", POPULATION)
    assert state.scores == [10, 0]
    assert state.count == 0
    assert state.current_player() == 1
    assert state.log[-1].text == "Exactly 51! You score 10; the count starts again at 0."
    assert state.played[-1]["count"] == 51


def test_f2_a_51_scores_10_only_even_if_the_next_player_would_be_stuck():
    """F2, F3: after a 51 the count is 0, so the next player is never stuck: 10 points, not 15."""
    state = table(["NY", "TX"], ["HI", "WV"], count=48)
    play(state, "NY", POPULATION)
    assert state.scores == [10, 0]
    assert state.legal_actions()  # Hawaii now fits


def test_f2_the_computer_scores_for_51_too():
    """F2: any seat making 51 scores for its side."""
    state = table(["TX"], ["WA", "CA"], count=31, to_play=1)
    play(state, "WA", SIZE)
    assert state.scores == [0, 10] and state.count == 0


# --- F3 ---------------------------------------------------------------------------------------


def test_f3_five_points_when_the_next_player_cannot_play():
    """F3: if every ranking of every card the next player holds would pass 51, the player who just played scores 5."""
    state = table(["WA", "TX"], ["HI", "WV"], count=30)  # Hawaii's best is 40, West Virginia's 35
    play(state, "WA", SIZE)  # count 50
    assert state.scores == [5, 0]
    assert state.count == 0
    assert state.current_player() == 1 and state.legal_actions()
    assert (
        state.log[-1].text
        == "The computer cannot play without passing 51, so you score 5; the count starts again at 0."
    )


def test_f3_no_points_while_the_next_player_holds_a_card_that_fits():
    """F3: one ranking of one card that fits is enough: no points, and the count stands."""
    state = table(["WA", "TX"], ["HI", "AK"], count=30)
    play(state, "WA", SIZE)  # count 50; Alaska's size 1 fits
    assert state.scores == [0, 0] and state.count == 50
    assert state.legal_actions() == [state.game.action("AK", SIZE)]


def test_f3_looks_at_the_next_player_who_still_holds_cards():
    """F3: players with no cards left are passed over, both for the check and for the turn."""
    state = table(["WA", "TX"], [], ["HI"], count=30)
    play(state, "WA", SIZE)
    assert state.scores == [5, 0, 0]
    assert state.current_player() == 2


def test_f3_nothing_is_scored_when_no_other_player_holds_cards():
    """F3: the round's last card scores nothing unless it makes 51 (no one is left to be stuck)."""
    state = table([], ["WA"], count=30, to_play=1)
    play(state, "WA", SIZE)  # count 50 with the round's last card
    assert state.scores == [0, 0]
    assert state.round == 2


def test_f3_the_last_card_still_scores_10_for_51():
    """F2 with F3: the round's last card making 51 scores 10."""
    state = table([], ["WA"], count=31, to_play=1)
    play(state, "WA", SIZE)
    assert state.scores == [0, 10]


# --- F4 ---------------------------------------------------------------------------------------


def test_f4_the_engine_asserts_the_player_to_move_can_play():
    """F4: thanks to F3 the player to move always has a legal play; a state breaking that is caught."""
    state = table(["HI"], ["TX"], count=45)  # built by hand, past what F3 allows
    with pytest.raises(AssertionError, match="F4"):
        state.legal_actions()


@pytest.mark.parametrize(("players", "team_size"), [(2, 1), (3, 1), (5, 1), (7, 1), (4, 2), (6, 3)])
def test_f4_random_games_never_leave_the_player_to_move_stuck(players, team_size):
    """F4: in whole random games every player to move has a legal play."""
    for seed in range(3):
        for state in random_game(players, seed, team_size):
            if not state.is_terminal():
                assert state.legal_actions()


# --- F5 ---------------------------------------------------------------------------------------


def test_f5_a_new_round_starts_at_0_with_7_cards_each():
    """F5: when the last card is played the round ends; the next starts at count 0 with a fresh deal of 7 each."""
    state = table(["NY"], [], ["WA"], count=20, to_play=2, dealer=1, scores=[5, 0, 10])
    play(state, "WA", SIZE)  # count 40; New York's statehood 11 still fits
    assert state.round == 1 and state.count == 40 and state.current_player() == 0
    play(state, "NY", STATEHOOD)  # the round's last card: count 51, 10 points
    assert state.scores == [15, 0, 10]
    assert state.round == 2
    assert state.count == 0 and state.played == []
    assert [len(hand) for hand in state.hands] == [7, 7, 7]
    assert len(state.undealt) == 50 - 21
    assert sorted(state.all_cards()) == ALL
    assert state.log[-2].text == "Round 1 is over. Scores: You 15, Computer 1 0, Computer 2 10."
    assert state.log[-1].text == "Round 2: Computer 2 deals and plays first."  # G7


@pytest.mark.parametrize("players", range(2, 8))
def test_f5_every_round_deals_7_each_and_starts_at_0(players):
    """F5: in a whole game, each round starts with 7 cards each, the rest undealt, and the count at 0."""
    rounds = 0
    last = None
    for state in random_game(players, seed=players):
        if state.round != last:
            last = state.round
            rounds += 1
            assert [len(hand) for hand in state.hands] == [7] * players
            assert len(state.undealt) == 50 - 7 * players
            assert state.count == 0 and state.played == []
    assert rounds >= 2


# --- G6 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "team_size"), [(4, 2), (6, 2), (6, 3)])
def test_g6_team_members_sit_alternately(players, team_size):
    """G6: no two neighbours at the table are on the same team; every seat is on exactly one team."""
    params = Params(players=players, team_size=team_size)
    assert params.sides == players // team_size
    for seat in range(players):
        assert params.side_of(seat) != params.side_of((seat + 1) % players)
    assert sorted(seat for side in range(params.sides) for seat in params.seats_of(side)) == list(
        range(players)
    )
    assert all(len(params.seats_of(side)) == team_size for side in range(params.sides))


def test_g6_a_teams_points_are_its_members_sum():
    """G6: with 4 players in teams of 2 (seats 0 and 2 against 1 and 3), each member's points go to the team."""
    state = table(
        ["NY", "TX"], ["HI", "WV"], ["WA", "DE"], ["ME", "AK"], count=31, to_play=2, team_size=2
    )
    assert state.scores == [0, 0]
    play(state, "WA", SIZE)  # seat 2 makes 51: 10 for the team of seats 0 and 2 (F2)
    assert state.scores == [10, 0]
    play(state, "ME", STATEHOOD)  # seat 3: count 23
    play(
        state, "NY", STATEHOOD
    )  # seat 0: count 34, and seat 1 (Hawaii 40, West Virginia 35) is stuck (F3)
    assert state.scores == [15, 0]
    assert state.log[-1].text.startswith(
        "Computer 1 cannot play without passing 51, so you score 5"
    )


@pytest.mark.parametrize(
    ("players", "team_size", "message"),
    [
        (5, 2, "5 players cannot be split into teams of 2"),
        (4, 4, "cannot be played in teams of 4"),
        (8, 1, "2 to 7 players"),
        (3, 3, "cannot be split"),
    ],
)
def test_g6_impossible_tables_are_refused(players, team_size, message):
    """G6: teams must split the table evenly into at least two sides."""
    with pytest.raises(GameError, match=message):
        GeoPlunge51(DECK, Params(players=players, team_size=team_size))


# --- G7 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "team_size"), [(2, 1), (3, 1), (7, 1), (4, 2)])
def test_g7_the_deal_passes_one_seat_clockwise_each_round(players, team_size):
    """G7: each round's dealer is the seat after the last one; F1: the dealer plays first."""
    for seed in range(3):
        dealers = {}
        for state in random_game(players, seed, team_size):
            if state.round not in dealers:
                dealers[state.round] = state.dealer
                assert state.current_player() == state.dealer
        first = dealers[1]
        assert dealers == {r: (first + r - 1) % players for r in dealers}


def test_g7_the_first_dealer_is_drawn():
    """G7, G9: the first dealer is drawn at random from the seed: every seat deals first for some seed."""
    game = GeoPlunge51(DECK, Params(players=3))
    assert {game.new_initial_state(seed).dealer for seed in range(30)} == {0, 1, 2}
    assert game.new_initial_state(8).dealer == game.new_initial_state(8).dealer


def test_g7_a_dealer_agreed_by_the_table_deals_first():
    """G7: ``first_leader`` names the first dealer (a game that follows an earlier one); the deal still passes."""
    for first in range(3):
        state = GeoPlunge51(DECK, Params(players=3, first_leader=first)).new_initial_state(5)
        assert state.dealer == first and state.current_player() == first


# --- G8 ---------------------------------------------------------------------------------------


def test_g8_the_game_ends_after_the_round_in_which_a_side_reaches_50():
    """G8: reaching 50 with the round's last card ends the game; the side with most points wins."""
    state = table([], ["WA"], count=31, to_play=1, scores=[20, 45])
    play(state, "WA", SIZE)
    assert state.scores == [20, 55]
    assert state.is_terminal() and state.returns() == [0.0, 1.0] and state.winners() == [1]
    assert state.log[-1].text == "The computer reaches 55 points and wins!"


def test_g8_reaching_50_mid_round_does_not_end_the_game():
    """G8: the round is played to its end after a side reaches 50."""
    state = table(["NY", "TX"], ["HI", "CA"], count=48, scores=[45, 0])
    play(state, "NY", POPULATION)
    assert state.scores == [55, 0]
    assert not state.is_terminal() and state.current_player() == 1


def test_g8_most_points_wins_when_both_pass_50():
    """G8: if both sides pass 50 the one with more points wins."""
    state = table([], ["WA"], count=31, to_play=1, scores=[50, 48])
    play(state, "WA", SIZE)
    assert state.scores == [50, 58]
    assert state.is_terminal() and state.winners() == [1]


@pytest.mark.parametrize("scores", [[45, 55], [45, 55, 20]])
def test_g8_a_tied_lead_plays_another_round(scores):
    """G8: if the sides with most points are tied at 50 or more, another round is played."""
    hands: list[list[str]] = [["NY"], *([] for _ in scores[1:])]
    state = table(*hands, count=48, scores=scores)
    play(state, "NY", POPULATION)
    assert state.scores[:2] == [55, 55]
    assert not state.is_terminal() and state.round == 2
    assert state.count == 0 and all(len(hand) == 7 for hand in state.hands)


def test_g8_a_team_wins_together():
    """G8, G6: when a team wins, each of its members has won."""
    state = table([], [], [], ["WA"], count=31, to_play=3, scores=[30, 45], team_size=2)
    play(state, "WA", SIZE)
    assert state.returns() == [0.0, 1.0, 0.0, 1.0]
    assert state.winners() == [1, 3]


# --- imagined deals (the search player's) ------------------------------------------------------


def test_f4_an_imagined_deal_gives_the_player_to_move_a_card_that_fits():
    """F3/F4: every seat knows the player to move can play, so a deal imagined from another seat's view respects it."""
    state = table(
        ["AK", "HI"], ["TX", "WV"], count=50
    )  # only a ranking of 1 fits: Alaska, California or Delaware
    observation = state.observation(1)
    rng = random.Random(0)
    for _ in range(30):
        world = state.game.sample_state(observation, rng)
        assert world.observation(1) == observation
        assert world.legal_actions()
        assert sorted(world.all_cards()) == ALL
