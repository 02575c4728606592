"""Combo 1 class tournaments (K3, K4; the project's P-K1, P-K4, P-K5): teams, pairings,
byes, standings, finalists, Border-Up playoffs and the champion."""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.games.combo import MORNING_ORDER, GameResult, MatchFormat, Side
from trainer.games.tournament import (
    MORNING_ROUNDS,
    ROUNDS,
    MatchOutcome,
    Pairing,
    PlayoffResult,
    Qualification,
    champion,
    championship_teams,
    finalists,
    meetings,
    next_playoff,
    next_playoff_game,
    pair_round,
    playoff_order,
    playoff_winners,
    random_teams,
    round_format,
    standings,
    team_sizes,
)

BU = MORNING_ORDER[0]
T = TypeVar("T")


def bye(round_: int, team: int) -> MatchOutcome:
    return MatchOutcome(round_, team, None, team)


def with_wins(wins: dict[int, int]) -> list[MatchOutcome]:
    """Outcomes giving each team this many match wins (as byes; only wins matter)."""
    return [bye(r, team) for team, n in wins.items() for r in range(1, n + 1)]


# --- teams (P-K4) ---------------------------------------------------------------------


@pytest.mark.parametrize("n", range(5, 41))
def test_p_k4_teams_of_three_with_one_of_four_or_two(n: int) -> None:
    sizes = team_sizes(n)
    assert sum(sizes) == n
    others = [s for s in sizes if s != 3]
    assert len(others) <= 1
    assert others == {0: [], 1: [4], 2: [2]}[n % 3]
    assert len(sizes) >= 2


def test_p_k4_four_students_make_two_pairs_and_fewer_is_refused() -> None:
    assert team_sizes(4) == [2, 2]
    for n in range(4):
        with pytest.raises(ValueError, match="at least 4 students"):
            team_sizes(n)


def test_p_k4_random_teams_partition_the_class_reproducibly() -> None:
    ids = list(range(100, 117))
    teams = random_teams(ids, random.Random(5))
    assert [len(t) for t in teams] == team_sizes(17)
    assert sorted(s for t in teams for s in t) == ids
    assert random_teams(list(reversed(ids)), random.Random(5)) == teams
    assert random_teams(ids, random.Random(6)) != teams
    with pytest.raises(ValueError, match="one team"):
        random_teams([1, 2, 3, 3, 4], random.Random(0))


def test_rounds_one_to_four_morning_five_to_eight_afternoon() -> None:
    assert ROUNDS == 8 and MORNING_ROUNDS == 4
    assert [round_format(r) for r in range(1, 9)] == [MatchFormat.MORNING] * 4 + [
        MatchFormat.AFTERNOON
    ] * 4
    for bad in (0, 9):
        with pytest.raises(ValueError):
            round_format(bad)


# --- outcomes and standings (K1, K3) --------------------------------------------------


def test_k3_a_bye_is_a_match_win() -> None:
    with pytest.raises(ValueError, match="bye is a win"):
        MatchOutcome(1, 4, None, None)
    assert MatchOutcome.from_pairing(Pairing(2, 4, None), None) == bye(2, 4)
    table = standings([4, 5, 6], [bye(1, 4), MatchOutcome(1, 5, 6, None)])
    assert table[0].team == 4
    assert (table[0].wins, table[0].byes, table[0].played) == (1, 1, 0)
    assert [(s.team, s.ties, s.played) for s in table[1:]] == [(5, 1, 1), (6, 1, 1)]


def test_outcome_validation_and_from_pairing() -> None:
    with pytest.raises(ValueError, match="itself"):
        MatchOutcome(1, 3, 3, 3)
    with pytest.raises(ValueError, match="did not play"):
        MatchOutcome(1, 3, 4, 5)
    pairing = Pairing(3, 7, 9)
    assert MatchOutcome.from_pairing(pairing, Side.A).winner == 7
    assert MatchOutcome.from_pairing(pairing, Side.B).winner == 9
    assert MatchOutcome.from_pairing(pairing, None).winner is None


def test_standings_most_wins_first_then_the_order_given() -> None:
    outcomes = [
        MatchOutcome(1, 1, 2, 2),
        MatchOutcome(1, 3, 4, None),
        MatchOutcome(2, 1, 3, 3),
        MatchOutcome(2, 2, 4, 4),
    ]
    table = standings([1, 2, 3, 4], outcomes)
    assert [(s.team, s.wins, s.losses, s.ties) for s in table] == [
        (2, 1, 1, 0),
        (3, 1, 0, 1),
        (4, 1, 0, 1),
        (1, 0, 2, 0),
    ]
    with pytest.raises(ValueError, match="team 9"):
        standings([1, 2], [MatchOutcome(1, 1, 9, 1)])


# --- pairings (K3, P-K5) --------------------------------------------------------------


def perfect_matchings(nodes: list[T]) -> Iterator[list[tuple[T, T]]]:
    """Every way to split ``nodes`` into pairs."""
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for i, other in enumerate(rest):
        for matching in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *matching]


@dataclass(frozen=True)
class Situation:
    """What P-K5 weighs before a round: match wins, who may have the bye, meetings."""

    wins: dict[int, int]
    may_bye: frozenset[int]
    met: Counter[frozenset[int]]

    @classmethod
    def of(cls, teams: Sequence[int], outcomes: Sequence[MatchOutcome]) -> Situation:
        table = standings(teams, outcomes)
        fewest = min(s.byes for s in table)
        return cls(
            {s.team: s.wins for s in table},
            frozenset(s.team for s in table if s.byes == fewest),
            meetings(outcomes),
        )

    def objective(self, pairs: Sequence[tuple[int, int | None]]) -> tuple[int, int, int]:
        """P-K5's order of priority, without the random tie-break: repeat meetings, the
        bye team's wins above the fewest among those who may have it, win difference."""
        repeats = bye_cost = difference = 0
        lowest = min(self.wins[t] for t in self.may_bye)
        for u, v in pairs:
            if v is None:
                bye_cost += self.wins[u] - lowest
            else:
                repeats += self.met[frozenset((u, v))]
                difference += abs(self.wins[u] - self.wins[v])
        return repeats, bye_cost, difference

    def allowed(self, teams: Sequence[int]) -> list[list[tuple[int, int | None]]]:
        """Every pairing of the round that gives the bye only to a team that may have
        it, the bye as (team, None)."""
        nodes: list[int | None] = [*teams, *([None] if len(teams) % 2 else [])]
        allowed = []
        for matching in perfect_matchings(nodes):
            pairs = [(u, v) if u is not None else (v, u) for u, v in matching]
            if all(v is not None or u in self.may_bye for u, v in pairs):
                allowed.append(pairs)
        return allowed  # type: ignore[return-value]

    def best(self, teams: Sequence[int]) -> tuple[int, int, int]:
        """The best objective over every allowed pairing, by brute force."""
        return min(self.objective(pairs) for pairs in self.allowed(teams))

    def new_pairs(self, teams: Sequence[int]) -> frozenset[frozenset[int | None]]:
        """The pairs that can still meet for the first time: two teams that have not
        met, and a team that may have the bye with the bye (None)."""
        pairs = {frozenset((u, v)) for u in teams for v in teams if u < v}
        return frozenset(
            {pair for pair in pairs if not self.met[pair]}
            | {frozenset((team, None)) for team in self.may_bye if len(teams) % 2}
        )


def last_new_round(n_teams: int) -> int:
    """The last round up to which every round can pair teams that have not met (and
    give the bye to a team without one): n - 1 rounds for n even, n for n odd."""
    return min(ROUNDS, n_teams - 1 if n_teams % 2 == 0 else n_teams)


def new_matchings(
    nodes: tuple[int | None, ...], new: frozenset[frozenset[int | None]]
) -> Iterator[frozenset[frozenset[int | None]]]:
    """Every way to split ``nodes`` into pairs that are all in ``new``."""
    if not nodes:
        yield frozenset()
        return
    first, rest = nodes[0], nodes[1:]
    for i, other in enumerate(rest):
        pair = frozenset((first, other))
        if pair in new:
            for matching in new_matchings(rest[:i] + rest[i + 1 :], new):
                yield matching | {pair}


@functools.cache
def can_pair_afresh(
    nodes: tuple[int | None, ...], new: frozenset[frozenset[int | None]], rounds: int
) -> bool:
    """Whether ``rounds`` more rounds can be paired from the pairs in ``new``, none
    twice (brute force)."""
    return rounds == 0 or any(
        can_pair_afresh(nodes, new - matching, rounds - 1) for matching in new_matchings(nodes, new)
    )


def play_tournament(
    n_teams: int, seed: int, results: random.Random, rounds: int = ROUNDS
) -> list[list[Pairing]]:
    """Pair ``rounds`` rounds for teams 1..n with random match results."""
    teams = list(range(1, n_teams + 1))
    rng = random.Random(seed)
    outcomes: list[MatchOutcome] = []
    history = []
    for round_ in range(1, rounds + 1):
        pairings = pair_round(teams, outcomes, round_, rng)
        history.append(pairings)
        for p in pairings:
            outcomes.append(MatchOutcome.from_pairing(p, results.choice([Side.A, Side.B, None])))
    return history


def test_k3_pairing_needs_two_teams() -> None:
    for teams in ([], [1]):
        with pytest.raises(ValueError, match="at least 2 teams"):
            pair_round(teams, [], 1, random.Random(0))


def test_k3_pairing_refuses_outcomes_of_this_round_or_later() -> None:
    with pytest.raises(ValueError, match="round 2 or later"):
        pair_round([1, 2], [MatchOutcome(2, 1, 2, 1)], 2, random.Random(0))


def test_k3_two_teams_meet_every_round() -> None:
    outcomes = [MatchOutcome(1, 1, 2, 1)]
    assert pair_round([1, 2], outcomes, 2, random.Random(0)) == [Pairing(2, 1, 2)]


def test_k3_byes_rotate_to_the_lowest_standing_team_without_one() -> None:
    """Three teams: round 1 gives someone the bye; then it goes to the lower of the two
    teams without one, then to the last team without one; never twice while another
    has none."""
    teams = [1, 2, 3]
    rng = random.Random(0)
    round1 = pair_round(teams, [], 1, rng)
    bye1 = round1[-1].a
    assert round1[-1].b is None
    a, b = sorted(set(teams) - {bye1})
    outcomes = [bye(1, bye1), MatchOutcome(1, a, b, a)]  # a beats b
    round2 = pair_round(teams, outcomes, 2, rng)
    assert {frozenset((p.a, p.b)) for p in round2[:-1]} == {frozenset((bye1, a))}
    assert round2[-1] == Pairing(2, b, None)
    outcomes += [MatchOutcome(2, bye1, a, None), bye(2, b)]
    round3 = pair_round(teams, outcomes, 3, rng)
    assert round3[-1] == Pairing(3, a, None)


def test_k3_equal_records_are_paired_first() -> None:
    """Round 2 of four teams: the two winners meet, and the two losers."""
    outcomes = [MatchOutcome(1, 1, 2, 1), MatchOutcome(1, 3, 4, 4)]
    for seed in range(10):
        pairs = pair_round([1, 2, 3, 4], outcomes, 2, random.Random(seed))
        assert {frozenset((p.a, p.b)) for p in pairs} == {
            frozenset((1, 4)),
            frozenset((2, 3)),
        }
        assert pairs[0].a in (1, 4)  # the leaders' match first


def test_k3_new_opponent_beats_equal_records() -> None:
    """1 and 2 have met and are the only unbeaten teams: they do not meet again."""
    outcomes = [
        MatchOutcome(1, 1, 2, None),
        MatchOutcome(1, 3, 4, None),
        MatchOutcome(2, 1, 3, 1),
        MatchOutcome(2, 2, 4, 2),
    ]
    pairs = pair_round([1, 2, 3, 4], outcomes, 3, random.Random(0))
    assert {frozenset((p.a, p.b)) for p in pairs} == {
        frozenset((1, 4)),
        frozenset((2, 3)),
    }


def test_k3_pairings_are_reproducible_from_the_seed() -> None:
    first = play_tournament(11, 42, random.Random(1))
    again = play_tournament(11, 42, random.Random(1))
    assert first == again
    others = [play_tournament(11, seed, random.Random(1)) for seed in range(5)]
    assert any(other != first for other in others)


@settings(max_examples=40, deadline=None)
@given(
    n_teams=st.integers(2, 16),
    seed=st.integers(0, 2**32 - 1),
    results_seed=st.integers(0, 2**32 - 1),
)
def test_k3_every_round_pairs_every_team_once_with_byes_spread(
    n_teams: int, seed: int, results_seed: int
) -> None:
    """Over 8 rounds with random results: each team plays once per round (or has the
    bye), never itself; byes differ by at most one; no repeat meeting in the first
    rounds while every round can still be new (P-K5 (3))."""
    teams = set(range(1, n_teams + 1))
    history = play_tournament(n_teams, seed, random.Random(results_seed))
    byes: Counter[int] = Counter()
    met: set[frozenset[int]] = set()
    for round_, pairings in enumerate(history, start=1):
        assert all(p.round == round_ for p in pairings)
        placed = [p.a for p in pairings] + [p.b for p in pairings if p.b is not None]
        assert sorted(placed) == sorted(teams)
        assert all(p.a != p.b for p in pairings)
        assert sum(p.is_bye for p in pairings) == n_teams % 2
        byes.update(p.a for p in pairings if p.is_bye)
        counts = [byes[t] for t in teams]
        assert max(counts) - min(counts) <= (1 if n_teams % 2 else 0)
        pairs = {frozenset((p.a, p.b)) for p in pairings if p.b is not None}
        if round_ <= last_new_round(n_teams):
            assert not pairs & met, f"round {round_} repeats a meeting"
        met |= pairs


@settings(max_examples=150, deadline=None)
@given(
    n_teams=st.integers(3, 12),
    seed=st.integers(0, 2**32 - 1),
    results_seed=st.integers(0, 2**32 - 1),
)
def test_p_k5_no_repeat_while_every_round_can_be_new(
    n_teams: int, seed: int, results_seed: int
) -> None:
    """3 to 12 teams, 8 rounds, random results: no team meets an opponent twice (or has
    two byes) up to round n - 1 (n even) or n (n odd), the most rounds in which that is
    possible; later rounds have as few repeat meetings as the round allows."""
    teams = list(range(1, n_teams + 1))
    rng = random.Random(seed)
    results = random.Random(results_seed)
    outcomes: list[MatchOutcome] = []
    met: set[frozenset[int]] = set()
    for round_ in range(1, ROUNDS + 1):
        situation = Situation.of(teams, outcomes)
        pairings = pair_round(teams, outcomes, round_, rng)
        pairs = {frozenset((p.a, p.b)) for p in pairings if p.b is not None}
        if round_ <= last_new_round(n_teams):
            assert not pairs & met, f"round {round_} repeats a meeting"
            assert all(p.a in situation.may_bye for p in pairings if p.is_bye)
            assert situation.may_bye == frozenset(teams) - {o.a for o in outcomes if o.is_bye}
        else:
            chosen = [(p.a, p.b) for p in pairings]
            assert situation.objective(chosen)[0] == situation.best(teams)[0]
        met |= pairs
        for p in pairings:
            outcomes.append(MatchOutcome.from_pairing(p, results.choice([Side.A, Side.B, None])))


@settings(max_examples=40, deadline=None)
@given(
    n_teams=st.integers(2, 9),
    seed=st.integers(0, 2**32 - 1),
    results_seed=st.integers(0, 2**32 - 1),
)
def test_p_k5_each_round_is_the_best_pairing(n_teams: int, seed: int, results_seed: int) -> None:
    """By brute force over every allowed pairing: the chosen one has the fewest repeat
    meetings; while later rounds up to :func:`last_new_round` are left and this round
    needs no repeat, it leaves them all pairable with new opponents (brute force again);
    among the pairings that do: the lowest-placed bye, then the smallest total win
    difference."""
    teams = list(range(1, n_teams + 1))
    nodes: tuple[int | None, ...] = (*teams, *((None,) if n_teams % 2 else ()))
    rng = random.Random(seed)
    results = random.Random(results_seed)
    outcomes: list[MatchOutcome] = []
    for round_ in range(1, ROUNDS + 1):
        pairings = pair_round(teams, outcomes, round_, rng)
        situation = Situation.of(teams, outcomes)
        chosen = [(p.a, p.b) for p in pairings]
        best = situation.best(teams)
        ahead = last_new_round(n_teams) - round_
        if best[0] == 0 and ahead > 0:
            new = situation.new_pairs(teams)

            def keeps(pairs: Sequence[tuple[int, int | None]]) -> bool:
                taken = {frozenset(pair) for pair in pairs}
                return can_pair_afresh(nodes, new - taken, ahead)  # noqa: B023 (used at once)

            assert keeps(chosen), f"round {round_} leaves a later round no new pairing"
            ranked = sorted(situation.allowed(teams), key=situation.objective)
            best = next(situation.objective(p) for p in ranked if keeps(p))
        assert situation.objective(chosen) == best
        for p in pairings:
            outcomes.append(MatchOutcome.from_pairing(p, results.choice([Side.A, Side.B, None])))


@pytest.mark.parametrize(
    "teams, earlier",
    [
        (
            [1, 2, 3, 4, 5, 6],
            [(1, 2, 1), (3, 4, 4), (5, 6, 5), (2, 3, 2), (4, 5, 4), (6, 1, 1)],
        ),
        (
            [1, 2, 3, 4, 5],
            [(1, 2, 1), (3, 4, 4), (5, None, 5), (2, 3, 2), (4, 5, 4), (1, None, 1)],
        ),
    ],
    ids=["six teams", "five teams and the bye"],
)
def test_p_k5_a_round_does_not_leave_later_rounds_without_new_opponents(
    teams: list[int], earlier: list[tuple[int, int | None, int]]
) -> None:
    """Teams 1-6 (6 the bye with five teams) met around the cycle 1-2-3-4-5-6. Round 3
    could pair the equal records 1-4, 2-5 and 3-6; but the pairs not yet met would then
    be the triangles 1-3-5 and 2-4-6, which cannot make a round. So round 3 is paired
    otherwise, and rounds 4 and 5 still meet new opponents."""
    outcomes = [
        MatchOutcome(r, a, b, w) for r, (a, b, w) in zip([1, 1, 1, 2, 2, 2], earlier, strict=True)
    ]
    sixth = 6 if 6 in teams else None
    met = {frozenset((o.a, o.b)) for o in outcomes}
    equal_records = {frozenset((1, 4)), frozenset((2, 5)), frozenset((3, sixth))}
    for seed in range(5):
        rng = random.Random(seed)
        results = random.Random(seed)
        played = list(outcomes)
        seen = set(met)
        for round_ in (3, 4, 5):
            pairings = pair_round(teams, played, round_, rng)
            pairs = {frozenset((p.a, p.b)) for p in pairings}
            if round_ == 3:
                assert pairs != equal_records
            assert not pairs & seen, f"round {round_} repeats a meeting"
            seen |= pairs
            played += [
                MatchOutcome.from_pairing(p, results.choice([Side.A, Side.B, None]))
                for p in pairings
            ]


def test_k3_seven_teams_seven_rounds_one_bye_each() -> None:
    for seed in range(5):
        history = play_tournament(7, seed, random.Random(seed), rounds=7)
        byes = Counter(p.a for r in history for p in r if p.is_bye)
        assert sorted(byes.values()) == [1] * 7


# --- finalists and playoffs (K4, P-K1) ------------------------------------------------


def test_k4_two_most_wins_advance() -> None:
    q = finalists([1, 2, 3, 4], with_wins({1: 6, 2: 5, 3: 4, 4: 3}))
    assert q == Qualification((1, 2), (), 0)
    assert not q.needs_playoff
    q = finalists([1, 2, 3], with_wins({1: 6, 2: 6, 3: 5}))
    assert q == Qualification((1, 2), (), 0)
    assert finalists([1, 2], []) == Qualification((1, 2), (), 0)


def test_k4_a_tie_for_second_place_needs_a_playoff() -> None:
    """Wins 6, 5, 5, 3: the first team is through; 2 and 3 play off for one place."""
    q = finalists([1, 2, 3, 4], with_wins({1: 6, 2: 5, 3: 5, 4: 3}))
    assert q == Qualification((1,), (2, 3), 1)
    assert q.needs_playoff


def test_k4_three_tied_at_the_top_play_off_for_two_places() -> None:
    q = finalists([1, 2, 3, 4], with_wins({1: 5, 2: 5, 3: 5, 4: 1}))
    assert q == Qualification((), (1, 2, 3), 2)
    q = finalists([1, 2, 3, 4], with_wins({1: 7, 2: 4, 3: 4, 4: 4}))
    assert q == Qualification((1,), (2, 3, 4), 1)


def test_k4_finalists_need_two_teams() -> None:
    with pytest.raises(ValueError, match="at least 2 teams"):
        finalists([1], [])


def test_p_k1_two_teams_one_place_a_tie_is_replayed() -> None:
    tied = (2, 3)
    first = next_playoff(tied, 1, [], seed=7)
    assert first is not None and set(first) == {2, 3}
    results: list[PlayoffResult] = [(first[0], first[1], None)]
    assert next_playoff(tied, 1, results, 7) == first
    assert playoff_winners(tied, 1, results, 7) is None
    results.append((first[1], first[0], 3))
    assert next_playoff(tied, 1, results, 7) is None
    assert playoff_winners(tied, 1, results, 7) == (3,)


def test_p_k1_three_teams_one_place_winner_meets_the_third() -> None:
    tied = (4, 5, 6)
    order = playoff_order(tied, 11)
    assert sorted(order) == sorted(tied)
    assert playoff_order(tied, 11) == order
    x, y, z = order
    assert next_playoff(tied, 1, [], 11) == (x, y)
    assert next_playoff(tied, 1, [(x, y, y)], 11) == (z, y)
    assert next_playoff(tied, 1, [(x, y, y), (z, y, None)], 11) == (z, y)
    assert playoff_winners(tied, 1, [(x, y, y), (z, y, None), (y, z, z)], 11) == (z,)


def test_p_k1_three_teams_two_places_one_game() -> None:
    tied = (1, 2, 3)
    x, y, z = playoff_order(tied, "seed")
    assert next_playoff(tied, 2, [], "seed") == (x, y)
    through = playoff_winners(tied, 2, [(x, y, x)], "seed")
    assert through == tuple(t for t in tied if t in (x, z))


def test_p_k1_four_teams_one_place_is_a_bracket() -> None:
    tied = (1, 2, 3, 4)
    w, x, y, z = playoff_order(tied, 3)
    assert next_playoff(tied, 1, [(w, x, w)], 3) == (y, z)
    assert next_playoff(tied, 1, [(w, x, w), (y, z, z)], 3) == (w, z)
    assert playoff_winners(tied, 1, [(w, x, w), (y, z, z), (w, z, w)], 3) == (w,)


def test_p_k1_playoff_results_must_be_the_game_due() -> None:
    tied = (1, 2, 3)
    x, y, z = playoff_order(tied, 0)
    with pytest.raises(ValueError, match="playoff game 1 should be"):
        next_playoff(tied, 1, [(x, z, x)], 0)
    with pytest.raises(ValueError, match="did not play"):
        next_playoff(tied, 1, [(x, y, z)], 0)
    with pytest.raises(ValueError, match="after the places were filled"):
        next_playoff((1, 2), 1, [(1, 2, 1), (1, 2, 1)], 0)
    with pytest.raises(ValueError, match="cannot play off"):
        next_playoff((1, 2), 2, [], 0)


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(2, 8),
    places=st.integers(1, 2),
    seed=st.integers(0, 10**6),
    games=st.lists(st.sampled_from(["first", "second", "tie"]), min_size=40, max_size=40),
)
def test_p_k1_playoffs_fill_the_places(size: int, places: int, seed: int, games: list[str]) -> None:
    """However the games go, the playoff ends after one decided game per team out, with
    exactly ``places`` teams through (unless every game so far was tied)."""
    places = min(places, size - 1)
    tied = tuple(range(10, 10 + size))
    results: list[PlayoffResult] = []
    for outcome in games:
        due = next_playoff(tied, places, results, seed)
        if due is None:
            break
        a, b = due
        results.append((a, b, {"first": a, "second": b, "tie": None}[outcome]))
    through = playoff_winners(tied, places, results, seed)
    decided = sum(1 for r in results if r[2] is not None)
    if through is None:
        assert decided < size - places
    else:
        assert len(through) == places
        assert decided == size - places
        losers = {a if w == b else b for a, b, w in results if w is not None}
        assert not losers & set(through)


def test_k4_championship_teams_after_playoffs() -> None:
    teams = [1, 2, 3, 4]
    outcomes = with_wins({1: 6, 2: 5, 3: 5, 4: 3})
    due = next_playoff_game(teams, outcomes, [], 9)
    assert due is not None and set(due) == {2, 3}
    assert championship_teams(teams, outcomes, [], 9) is None
    played = [(due[0], due[1], 3)]
    assert next_playoff_game(teams, outcomes, played, 9) is None
    assert championship_teams(teams, outcomes, played, 9) == (1, 3)


def test_k4_championship_teams_without_playoff() -> None:
    teams = [1, 2, 3]
    outcomes = with_wins({1: 3, 2: 5, 3: 4})
    assert next_playoff_game(teams, outcomes, [], 0) is None
    assert championship_teams(teams, outcomes, [], 0) == (2, 3)
    with pytest.raises(ValueError, match="no playoff"):
        championship_teams(teams, outcomes, [(2, 3, 2)], 0)


def test_k4_champion_maps_sides_to_teams() -> None:
    order = MORNING_ORDER
    results = [GameResult(g, Side.B) for g in order[:3]]
    assert champion((5, 8), results) == 8
    level = [GameResult(g, w) for g, w in zip(order, [Side.A, Side.B, None, None])]
    assert champion((5, 8), level) is None
    assert champion((5, 8), level + [GameResult(BU, Side.A)]) == 5
