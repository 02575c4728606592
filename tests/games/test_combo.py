"""Combo 1 matches (R2, K1, K2, K4; the project's P-K2, P-K3): game order, who starts,
the bell, the match winner and the championship's early end and tie-breakers."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.cards import load_deck
from trainer.games.combo import (
    MORNING_ORDER,
    ROUND_SECONDS,
    ComboGame,
    GameResult,
    MatchFormat,
    Side,
    championship_over,
    championship_winner,
    counted,
    describe,
    first_player,
    match_winner,
    needs_draw,
    next_game,
    score,
    statehood_draw,
    ties,
)
from trainer.quiz.state_iq import first_guesser_by_draw

DECK = load_deck()
A, B = Side.A, Side.B
BU, IQ, DS, PR = MORNING_ORDER
MORNING, AFTERNOON, CHAMPIONSHIP = (
    MatchFormat.MORNING,
    MatchFormat.AFTERNOON,
    MatchFormat.CHAMPIONSHIP,
)


def games(*winners: Side | None, order: tuple[ComboGame, ...] = MORNING_ORDER) -> list[GameResult]:
    """Results with these winners, the games following ``order`` (cycled)."""
    return [GameResult(game, w) for game, w in zip(itertools.cycle(order), winners)]


def championship(*winners: Side | None) -> list[GameResult]:
    """Championship results: games 1-4, then Border-Up tie-breakers."""
    order = MORNING_ORDER + (BU,) * max(0, len(winners) - 4)
    return [GameResult(game, w) for game, w in zip(order, winners)]


# --- games, sides, formats ------------------------------------------------------------


def test_games_slugs_labels_and_morning_order() -> None:
    assert [g.value for g in MORNING_ORDER] == [
        "border-up",
        "state-iq",
        "dashing-states",
        "play-the-ranks",
    ]
    assert [g.label for g in MORNING_ORDER] == [
        "Border-Up",
        "State IQ",
        "Dashing States",
        "Play the Ranks",
    ]
    assert ComboGame("state-iq") is IQ


def test_k2_round_lengths_and_sides() -> None:
    assert ROUND_SECONDS == {MORNING: 1200, AFTERNOON: 720}
    assert CHAMPIONSHIP not in ROUND_SECONDS
    assert A.other is B and B.other is A
    assert Side("a") is A


# --- the statehood draw (R2) ----------------------------------------------------------


def test_r2_statehood_draw_lower_rank_wins() -> None:
    for seed in range(50):
        a, b, winner = statehood_draw(DECK, random.Random(seed))
        assert a.postal != b.postal
        better = A if a.statehood_rank < b.statehood_rank else B
        assert winner is better


def test_r2_statehood_draw_is_seeded_and_matches_state_iq_draw() -> None:
    """A seed draws the same cards as State IQ's own draw (P-R2), every time."""
    for seed in range(20):
        a, b, winner = statehood_draw(DECK, random.Random(seed))
        again = statehood_draw(DECK, random.Random(seed))
        assert again == (a, b, winner)
        side, pa, pb = first_guesser_by_draw(DECK, random.Random(seed))
        assert (pa, pb) == (a.postal, b.postal)
        assert side.value == ("student" if winner is A else "computer")


# --- which game is next (K2, K4) ------------------------------------------------------


def test_k2_morning_games_in_order_then_again() -> None:
    played: list[GameResult] = []
    seen = []
    for _ in range(10):
        game = next_game(MORNING, played)
        assert game is not None
        seen.append(game)
        played.append(GameResult(game, A))
    assert seen == [BU, IQ, DS, PR, BU, IQ, DS, PR, BU, IQ]


def test_k2_afternoon_picks_alternate_in_the_order_chosen() -> None:
    picks = (PR, BU)
    played: list[GameResult] = []
    seen = []
    for _ in range(5):
        game = next_game(AFTERNOON, played, picks)
        assert game is not None
        seen.append(game)
        played.append(GameResult(game, None))
    assert seen == [PR, BU, PR, BU, PR]


def test_k2_afternoon_picks_must_differ() -> None:
    with pytest.raises(ValueError, match="Border-Up again"):
        next_game(AFTERNOON, [], (BU, BU))
    with pytest.raises(ValueError, match="picked games"):
        next_game(AFTERNOON, [])


def test_next_game_rejects_games_out_of_order() -> None:
    with pytest.raises(ValueError, match="game 2 should be State IQ"):
        next_game(MORNING, [GameResult(BU, A), GameResult(DS, A)])
    with pytest.raises(ValueError, match="game 1 should be Dashing States"):
        next_game(AFTERNOON, [GameResult(BU, A)], (DS, IQ))


# --- who starts (R2, P-K2) ------------------------------------------------------------


def test_r2_state_iq_after_border_up_win_goes_to_its_winner() -> None:
    played = games(B)
    assert not needs_draw(IQ, played)
    assert first_player(IQ, played, A) is B
    assert first_player(IQ, played) is B


def test_r2_state_iq_after_tied_border_up_goes_to_the_draw() -> None:
    played = games(None)
    assert needs_draw(IQ, played)
    assert first_player(IQ, played, A) is A
    assert first_player(IQ, played, B) is B
    with pytest.raises(ValueError, match="statehood draw"):
        first_player(IQ, played)


def test_r2_play_the_ranks_after_dashing_states_win() -> None:
    played = games(A, B, A)  # Border-Up A, State IQ B, Dashing States A
    assert first_player(PR, played, B) is A
    assert first_player(PR, games(A, B, None), B) is B


def test_r2_first_game_of_a_match_goes_to_the_draw() -> None:
    """An afternoon match that starts with State IQ or Play the Ranks."""
    assert needs_draw(IQ, []) and needs_draw(PR, [])
    assert first_player(IQ, [], B) is B
    assert first_player(PR, [], A) is A


def test_p_k2_afternoon_pair_without_the_named_game_goes_to_the_draw() -> None:
    """Afternoon picks Dashing States and State IQ: Border-Up was never played."""
    played = games(A, order=(DS, IQ))
    assert next_game(AFTERNOON, played, (DS, IQ)) is IQ
    assert needs_draw(IQ, played)
    assert first_player(IQ, played, B) is B
    # Play the Ranks after a Border-Up win: Border-Up does not decide Play the Ranks.
    played = games(A, order=(BU, PR))
    assert first_player(PR, played, B) is B


def test_p_k2_afternoon_border_up_then_state_iq_uses_border_up_winner() -> None:
    picks = (BU, IQ)
    played = games(B, A, B, order=picks)
    assert next_game(AFTERNOON, played, picks) is IQ
    assert first_player(IQ, played, A) is B


def test_p_k2_only_the_game_just_before_counts() -> None:
    """Morning game 6 (State IQ) follows game 5 (Border-Up), not game 1."""
    played = games(A, A, A, A, None)
    assert first_player(IQ, played, B) is B
    played = games(A, A, A, A, B)
    assert first_player(IQ, played, A) is B


def test_races_have_no_first_player_to_decide() -> None:
    for game in (BU, DS):
        assert not needs_draw(game, [])
        assert first_player(game, [], B) is B
        assert first_player(game, games(A)) is A


# --- the bell (K2) --------------------------------------------------------------------


def test_k2_games_finished_after_the_bell_do_not_count() -> None:
    bell = ROUND_SECONDS[MORNING]
    results = [
        GameResult(BU, A, 300.0),
        GameResult(IQ, B, 700.0),
        GameResult(DS, A, 1200.0),  # on the bell: counts
        GameResult(PR, B, 1200.5),  # after the bell: does not count
    ]
    assert counted(results, bell) == results[:3]
    assert match_winner(counted(results, bell)) is A
    assert match_winner(results) is None


def test_k2_untimed_games_always_count() -> None:
    results = [GameResult(BU, A), GameResult(IQ, B, 9999.0)]
    assert counted(results, 720) == results[:1]
    assert counted(results, None) == results


# --- the match (K1) -------------------------------------------------------------------


def test_k1_more_games_won_wins_the_match() -> None:
    results = games(A, None, B, A, None)
    assert score(results) == {A: 2, B: 1}
    assert ties(results) == 2
    assert match_winner(results) is A
    assert match_winner(games(B)) is B


def test_k1_equal_games_won_is_a_tied_match() -> None:
    assert match_winner(games(A, B)) is None
    assert match_winner(games(None, None, None)) is None
    assert match_winner([]) is None
    assert score([]) == {A: 0, B: 0}


def test_describe() -> None:
    names = {A: "Team Red", B: "Team Blue"}
    assert describe(GameResult(BU, A), names) == "Border-Up: Team Red won."
    assert describe(GameResult(PR, B), names) == "Play the Ranks: Team Blue won."
    assert describe(GameResult(IQ, None), names) == "State IQ: a tie."


# --- the championship (K4, P-K3) ------------------------------------------------------


def test_k4_three_wins_in_the_first_three_ends_the_championship() -> None:
    results = championship(B, B, B)
    assert championship_winner(results) is B
    assert championship_over(results)
    assert next_game(CHAMPIONSHIP, results) is None


@pytest.mark.parametrize("winners", [(A, A, None), (A, None, A), (None, A, A)])
def test_k4_two_wins_and_a_tie_in_the_first_three_ends_it(
    winners: tuple[Side | None, ...],
) -> None:
    results = championship(*winners)
    assert championship_winner(results) is A
    assert next_game(CHAMPIONSHIP, results) is None


@pytest.mark.parametrize(
    "winners", [(A, A, B), (A, B, A), (A, None, None), (None, None, None), (A, A)]
)
def test_k4_not_settled_otherwise_the_fourth_game_is_played(
    winners: tuple[Side | None, ...],
) -> None:
    results = championship(*winners)
    assert championship_winner(results) is None
    assert not championship_over(results)
    assert next_game(CHAMPIONSHIP, results) is MORNING_ORDER[len(results)]


def test_k4_early_end_exactly_when_the_fourth_game_cannot_change_the_result() -> None:
    """All 27 ways the first three games can go: the match stops after three exactly
    when every result of game 4 would give the same winner."""
    outcomes = (A, B, None)
    for first_three in itertools.product(outcomes, repeat=3):
        after_four = {match_winner(games(*first_three, last)) for last in outcomes}
        settled = len(after_four) == 1 and None not in after_four
        winner = championship_winner(championship(*first_three))
        assert (winner is not None) == settled, first_three
        if settled:
            assert {winner} == after_four


def test_k4_after_four_games_more_wins_is_champion() -> None:
    assert championship_winner(championship(A, B, A, A)) is A
    assert championship_winner(championship(A, None, B, B)) is B
    assert championship_winner(championship(None, None, None, A)) is A


def test_k4_level_after_four_then_border_up_tie_breaker() -> None:
    results = championship(A, B, A, B)
    assert championship_winner(results) is None
    assert next_game(CHAMPIONSHIP, results) is BU
    results.append(GameResult(BU, B))
    assert championship_winner(results) is B
    assert next_game(CHAMPIONSHIP, results) is None
    assert championship_winner(championship(None, None, None, None, A)) is A


def test_p_k3_tied_tie_breaker_is_played_again() -> None:
    results = championship(A, None, None, B, None, None)
    assert championship_winner(results) is None
    assert next_game(CHAMPIONSHIP, results) is BU
    results.append(GameResult(BU, A))
    assert championship_winner(results) is A


def test_k4_no_game_after_the_championship_is_settled() -> None:
    with pytest.raises(ValueError, match="game 4 was played after"):
        championship_winner(championship(A, A, A, B))
    with pytest.raises(ValueError, match="game 5 was played after"):
        championship_winner(championship(A, A, B, A, B))
    with pytest.raises(ValueError, match="game 5 should be Border-Up"):
        championship_winner(championship(A, B, A, B) + [GameResult(IQ, A)])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([A, B, None]), min_size=30, max_size=30))
def test_k4_a_championship_always_ends_with_the_rule_s_winner(
    winners: list[Side | None],
) -> None:
    """Played through with :func:`next_game`: it stops exactly when a winner is known,
    and that winner won the first four or the first decided tie-breaker."""
    played: list[GameResult] = []
    for winner in winners:
        game = next_game(CHAMPIONSHIP, played)
        if game is None:
            break
        played.append(GameResult(game, winner))
    champion = championship_winner(played)
    done = next_game(CHAMPIONSHIP, played) is None
    if not done:  # only when every tie-breaker so far was tied
        assert champion is None
        assert all(r.winner is None for r in played[4:])
        return
    assert champion is not None
    assert len(played) >= 3
    four = played[:4]
    if match_winner(four) is not None:
        assert champion is match_winner(four)
        assert len(played) <= 4
    else:
        assert champion is played[-1].winner
        assert all(r.winner is None for r in played[4:-1])
