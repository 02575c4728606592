"""A Combo 1 class tournament: teams, pairings, standings and the championship (K3, K4).

Pure rules over team ids: the web layer stores the teams, each round's
:class:`MatchOutcome`, and the playoff and championship games, and asks this module who
plays whom next. Everything random comes from a seeded generator (G9).

Rulings decided here (the project's own, for ``docs/RULINGS.md``):

- P-K1 Championship playoffs (K4). Teams tied for a place in the championship play
  Border-Up playoff games, two teams at a time; the loser of a playoff game is out and a
  tied playoff game is replayed, until as many teams are left as places. The next game
  is between the two teams still in with the fewest playoff wins, earlier in a seeded
  random order first; so with 3 teams for 1 place the winner of the first game meets the
  third team, and with 3 teams for 2 places one game is played and the third team goes
  through without playing.
- P-K4 Class teams. Students are shuffled (seeded) into teams of 3, with one team of 4
  when the number of students leaves 1 over and one team of 2 when it leaves 2; 4
  students make two teams of 2. A tournament needs at least 4 students (2 teams).
- P-K5 Pairings (K3). Each round is one minimum-cost pairing, deciding in this order:
  (1) only the teams with the fewest byes so far can have the bye (absolute); (2) as few
  repeat meetings as possible in this round; (3) look-ahead: "the last new round" is
  round min(8, n - 1) with n teams, n even, or min(8, n), n odd (the bye counted as one
  more opponent, so also no second bye), the most rounds that can all pair teams that
  have not met; before it, when this round needs no repeat meeting, only the pairings
  after which as many as possible of the rounds up to it (all of them, when the earlier
  rounds were paired by this rule) can still be paired with no repeat meeting and no
  second bye, decided by an exact search; (4) the bye goes to the team with the fewest
  match wins; (5) the smallest total difference in match wins between paired teams
  (equal records first); (6) a seeded random choice among what is left. So a tournament
  paired by this rule from round 1 has no repeat meeting and no second bye up to the
  last new round, whatever the results; after it, each round has as few repeat meetings
  as that round allows (round by round: the later rounds' repeats are not minimised
  together). Standings order teams by match wins (a bye counts as a win), and equal
  wins keep the order the teams were given in.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .combo import GameResult, MatchFormat, Side, championship_winner

#: Rounds in a tournament, and how many of them are morning rounds (Format).
ROUNDS = 8
MORNING_ROUNDS = 4
#: Students in a full team (Format).
TEAM_SIZE = 3
#: The fewest students a tournament can have: two teams of 2 (P-K4).
MIN_STUDENTS = 4
#: The random tie-break between otherwise equal pairings draws from this many values.
_JITTER = 1000
#: The stand-in opponent of the team with the bye in the pairing graph.
_BYE = "bye"

#: A playoff game (P-K1): the two teams and the winner, or None for a tie.
PlayoffResult = tuple[int, int, int | None]


class Stage(StrEnum):
    """Where a tournament is (stored as ``Tournament.stage``), in order: the rounds, the
    playoffs for the championship places (P-K1), the championship (K4), then finished."""

    ROUNDS = "rounds"
    PLAYOFFS = "playoffs"
    CHAMPIONSHIP = "championship"
    FINISHED = "finished"


class GameStage(StrEnum):
    """What a stored tournament game belongs to (``TournamentGame.stage``): a round's match,
    a playoff (P-K1) or the championship (K4)."""

    MATCH = "match"
    PLAYOFF = "playoff"
    CHAMPIONSHIP = "championship"


class EnteredBy(StrEnum):
    """Who recorded a round's match (``TournamentMatch.entered_by``): the teacher typed it, or
    it was finished in the app (P-K6)."""

    TEACHER = "teacher"
    APP = "app"


def team_sizes(n_students: int) -> list[int]:
    """How many students each team has: 3s, with one 4 or one 2 for what is left (P-K4).

    Raises:
        ValueError: fewer than 4 students, too few for two teams.
    """
    if n_students < MIN_STUDENTS:
        raise ValueError(
            f"a class tournament needs at least {MIN_STUDENTS} students (two teams), "
            f"not {n_students}"
        )
    if n_students == MIN_STUDENTS:
        return [2, 2]
    full, left = divmod(n_students, TEAM_SIZE)
    if left == 1:
        return [4] + [TEAM_SIZE] * (full - 1)
    return [TEAM_SIZE] * full + ([2] if left == 2 else [])


def random_teams(student_ids: Sequence[int], rng: random.Random) -> list[list[int]]:
    """The students shuffled into teams of :func:`team_sizes` (P-K4).

    The ids are sorted before the shuffle, so a seed gives the same teams whatever order
    the ids come in.

    Raises:
        ValueError: an id appears twice, or fewer than 4 students.
    """
    students = sorted(student_ids)
    if len(set(students)) != len(students):
        raise ValueError("a student can only be in one team")
    sizes = team_sizes(len(students))
    rng.shuffle(students)
    teams = []
    start = 0
    for size in sizes:
        teams.append(students[start : start + size])
        start += size
    return teams


def round_format(round_number: int) -> MatchFormat:
    """Rounds 1-4 are morning rounds, 5-8 afternoon rounds (Format, K2).

    Raises:
        ValueError: not a round from 1 to 8.
    """
    if not 1 <= round_number <= ROUNDS:
        raise ValueError(f"a tournament has rounds 1 to {ROUNDS}, not {round_number}")
    return MatchFormat.MORNING if round_number <= MORNING_ROUNDS else MatchFormat.AFTERNOON


@dataclass(frozen=True)
class Pairing:
    """Who plays whom in a round: team ``a`` (side A) against team ``b`` (side B).

    ``b`` is None when ``a`` has the bye.
    """

    round: int
    a: int
    b: int | None

    @property
    def is_bye(self) -> bool:
        return self.b is None


@dataclass(frozen=True)
class MatchOutcome:
    """A round's match between two teams, or a bye (``b`` None), and its winning team.

    ``winner`` is a team id, or None for a tied match (K1). A bye is a win for the team
    with the bye (K3).

    Raises:
        ValueError: a team against itself, a winner who did not play, or a bye not won.
    """

    round: int
    a: int
    b: int | None
    winner: int | None

    def __post_init__(self) -> None:
        if self.a == self.b:
            raise ValueError(f"team {self.a} cannot play itself")
        if self.b is None and self.winner != self.a:
            raise ValueError(f"a bye is a win for team {self.a} (K3)")
        if self.winner not in (self.a, self.b, None):
            raise ValueError(f"team {self.winner} did not play in this match")

    @property
    def is_bye(self) -> bool:
        return self.b is None

    @classmethod
    def from_pairing(cls, pairing: Pairing, winner: Side | None) -> MatchOutcome:
        """The outcome of a pairing whose side ``winner`` won (None: a tied match).

        For a bye, ``winner`` is ignored: the bye is a win (K3).
        """
        if pairing.b is None:
            return cls(pairing.round, pairing.a, None, pairing.a)
        team = None if winner is None else (pairing.a if winner is Side.A else pairing.b)
        return cls(pairing.round, pairing.a, pairing.b, team)


@dataclass(frozen=True)
class Standing:
    """A team's record so far.

    Attributes:
        team: the team id.
        wins: match wins, byes included (K3).
        losses: matches lost.
        ties: tied matches.
        byes: rounds with a bye.
        played: matches against an opponent (byes not included).
    """

    team: int
    wins: int
    losses: int
    ties: int
    byes: int
    played: int


def _check_teams(team_ids: Sequence[int]) -> list[int]:
    teams = list(team_ids)
    if len(set(teams)) != len(teams):
        raise ValueError("a team id appears twice")
    return teams


def standings(team_ids: Sequence[int], outcomes: Sequence[MatchOutcome]) -> list[Standing]:
    """The teams' records, most match wins first, equal wins in the order given (K3).

    Raises:
        ValueError: an outcome names a team not in ``team_ids``, or an id appears twice.
    """
    teams = _check_teams(team_ids)
    record = {team: [0, 0, 0, 0, 0] for team in teams}  # wins, losses, ties, byes, played
    for outcome in outcomes:
        for team in (outcome.a, outcome.b):
            if team is not None and team not in record:
                raise ValueError(f"team {team} is not in this tournament")
        if outcome.b is None:
            record[outcome.a][0] += 1
            record[outcome.a][3] += 1
            continue
        for team in (outcome.a, outcome.b):
            record[team][4] += 1
            if outcome.winner is None:
                record[team][2] += 1
            elif outcome.winner == team:
                record[team][0] += 1
            else:
                record[team][1] += 1
    table = [Standing(team, *record[team]) for team in teams]
    return sorted(table, key=lambda standing: -standing.wins)


def meetings(outcomes: Sequence[MatchOutcome]) -> Counter[frozenset[int]]:
    """How many times each two teams have met (byes not included)."""
    return Counter(frozenset((o.a, o.b)) for o in outcomes if o.b is not None)


def _lexicographic(keys: Sequence[tuple[int, ...]], pairs: int) -> list[int]:
    """Integer edge weights that compare sums of keys level by level.

    Over any ``pairs`` edges, one unit of an earlier level outweighs any total of the
    later levels.
    """
    weights = [0] * len(keys)
    scale = 1
    for level in reversed(range(len(keys[0]))):
        top = max(key[level] for key in keys)
        for i, key in enumerate(keys):
            weights[i] += key[level] * scale
        scale *= pairs * top + 1
    return weights


def _matchings(adj: Sequence[int], free: int) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of the vertices in bitmask ``free`` (``adj``: neighbours
    as bitmasks), pairing the vertex with the fewest choices first."""
    if not free:
        yield []
        return
    vertex, options = -1, 0
    fewest = len(adj) + 1
    rest = free
    while rest:
        low = rest & -rest
        rest ^= low
        v = low.bit_length() - 1
        choices = adj[v] & free
        count = choices.bit_count()
        if count < fewest:
            vertex, options, fewest = v, choices, count
            if count <= 1:
                break
    if not options:
        return
    free &= ~(1 << vertex)
    while options:
        low = options & -options
        options ^= low
        other = low.bit_length() - 1
        for matching in _matchings(adj, free & ~low):
            matching.append((vertex, other))
            yield matching


def _without(adj: Sequence[int], pairs: Iterable[tuple[int, int]]) -> tuple[int, ...]:
    left = list(adj)
    for u, v in pairs:
        left[u] &= ~(1 << v)
        left[v] &= ~(1 << u)
    return tuple(left)


def _can_pair(
    adj: tuple[int, ...], rounds: int, memo: dict[tuple[tuple[int, ...], int], bool]
) -> bool:
    """Whether the graph ``adj`` (neighbours as bitmasks, an even number of vertices)
    has ``rounds`` disjoint perfect matchings: rounds that can all be paired from its
    edges, no edge twice. Exact (a search), with two shortcuts: a vertex of degree below
    ``rounds`` cannot, and when the smallest degree stays at least half the vertices
    through the last of the rounds, each round has a perfect matching whatever was
    taken before (Dirac: such a graph has a Hamiltonian cycle)."""
    if rounds == 0:
        return True
    degrees = [row.bit_count() for row in adj]
    fewest = min(degrees)
    if fewest < rounds:
        return False
    if 2 * (fewest - rounds + 1) >= len(adj):
        return True
    key = (adj, rounds)
    if key not in memo:
        # The matchings in order of the partner of the vertex with the fewest edges: the
        # first one takes its lowest partner u, and the others none of its partners up
        # to u (each set of matchings is searched once, not in every order).
        vertex = degrees.index(fewest)
        everyone = (1 << len(adj)) - 1
        found = False
        options = adj[vertex]
        below = 0
        while options and not found:
            low = options & -options
            options ^= low
            below |= low
            rest = list(adj)
            rest[vertex] &= ~below
            cut = below
            while cut:
                bit = cut & -cut
                cut ^= bit
                rest[bit.bit_length() - 1] &= ~(1 << vertex)
            if rest[vertex].bit_count() < rounds - 1:
                break
            free = everyone & ~(1 << vertex) & ~low
            for matching in _matchings(adj, free):
                if _can_pair(_without(rest, matching), rounds - 1, memo):
                    found = True
                    break
        memo[key] = found
    return memo[key]


def _look_ahead(
    nodes: Sequence[int | str],
    new: dict[tuple[int | str, int | str], int],
    matching: set[tuple[int | str, int | str]],
    ahead: int,
) -> set[tuple[int | str, int | str]]:
    """The cheapest pairing after which the most of the next ``ahead`` rounds can still
    be paired with new opponents (P-K5 (3)): ``matching``, the cheapest of all, when
    that keeps them all.

    ``new`` maps each pair that may meet this round without a repeat meeting (a team
    that may have the bye paired with the bye) to its weight; ``matching`` uses only
    such pairs. The bye counts as an opponent in the following rounds too: only the
    teams that may have it now can have it then, each once.
    """
    index = {node: i for i, node in enumerate(nodes)}
    adj = [0] * len(nodes)
    weight: dict[tuple[int, int], int] = {}
    for (one, two), w in new.items():
        u, v = index[one], index[two]
        adj[u] |= 1 << v
        adj[v] |= 1 << u
        weight[u, v] = weight[v, u] = w
    graph = tuple(adj)
    memo: dict[tuple[tuple[int, ...], int], bool] = {}
    chosen = [(index[u], index[v]) for u, v in matching]
    if _can_pair(_without(graph, chosen), ahead, memo):
        return matching
    for rounds in range(ahead, 0, -1):
        if not _can_pair(graph, rounds + 1, memo):
            continue  # not even when this round is paired for them
        if rounds < ahead and _can_pair(_without(graph, chosen), rounds, memo):
            return matching
        everyone = (1 << len(nodes)) - 1
        candidates = sorted(
            _matchings(graph, everyone),
            key=lambda pairs: sum(weight[pair] for pair in pairs),
        )
        for pairs in candidates:
            if _can_pair(_without(graph, pairs), rounds, memo):
                return {(nodes[u], nodes[v]) for u, v in pairs}
        raise AssertionError("a round of the schedule found is one of the candidates")
    return matching


def pair_round(
    team_ids: Sequence[int],
    outcomes: Sequence[MatchOutcome],
    round_number: int,
    rng: random.Random,
) -> list[Pairing]:
    """The pairings of the next round (K3, P-K5).

    With an odd number of teams one team has the bye; only teams with the fewest byes so
    far can have it, so no team has two byes while another has none. Then one exact
    minimum-cost perfect matching (``networkx.min_weight_matching``, integer weights)
    chooses, in order of priority: the fewest repeat meetings, the bye for the team with
    the fewest match wins, the smallest total difference in match wins, and a seeded
    random tie-break. Before the last round that can be new (round min(8, n - 1), n
    even, or min(8, n), n odd), when that pairing needs no repeat meeting, it is kept
    only if the later rounds up to that one can still all be paired with new opponents
    (and no second bye); if not, the cheapest pairing that keeps as many of them as
    possible is taken instead (an exact search over the pairs not yet met, P-K5 (3)).
    So from round 1 on, no round up to that one repeats a meeting. The same teams (in
    the same order), outcomes and seed always give the same pairings.

    Args:
        team_ids: the tournament's teams, in a fixed order (e.g. by id).
        outcomes: every earlier round's outcomes, byes included.
        round_number: the round being paired (any round after those in ``outcomes``).
        rng: the seeded generator (G9).

    Returns:
        The pairings, the match of the best-placed team first and the bye last; in each,
        side A is the better-placed team.

    Raises:
        ValueError: fewer than 2 teams, an outcome from this round or later, or an
            outcome naming a team not in ``team_ids``.
    """
    teams = _check_teams(team_ids)
    if len(teams) < 2:
        raise ValueError("a round needs at least 2 teams")
    if round_number < 1:
        raise ValueError(f"rounds are numbered from 1, not {round_number}")
    if any(outcome.round >= round_number for outcome in outcomes):
        raise ValueError(f"an outcome is from round {round_number} or later")
    table = standings(teams, outcomes)
    place = {standing.team: i for i, standing in enumerate(table)}
    wins = {standing.team: standing.wins for standing in table}
    met = meetings(outcomes)

    nodes: list[int | str] = list(teams)
    eligible: set[int] = set()
    lowest = 0
    if len(teams) % 2:
        byes = {standing.team: standing.byes for standing in table}
        fewest = min(byes.values())
        eligible = {team for team in teams if byes[team] == fewest}
        lowest = min(wins[team] for team in eligible)
        nodes.append(_BYE)

    # Per edge: (repeat meetings, bye to a team with more wins, win difference, jitter).
    edges: list[tuple[int | str, int | str]] = []
    keys: list[tuple[int, ...]] = []
    for i, u in enumerate(teams):
        for v in nodes[i + 1 :]:
            if isinstance(v, str):
                if u not in eligible:
                    continue
                key = (0, wins[u] - lowest, 0, rng.randrange(_JITTER))
            else:
                key = (
                    met[frozenset((u, v))],
                    0,
                    abs(wins[u] - wins[v]),
                    rng.randrange(_JITTER),
                )
            edges.append((u, v))
            keys.append(key)
    import networkx as nx  # here, not at the top: a quarter of a second every process would pay

    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    weights = _lexicographic(keys, len(nodes) // 2)
    for (one, two), weight in zip(edges, weights, strict=True):
        graph.add_edge(one, two, weight=weight)
    matching: set[tuple[int | str, int | str]] = nx.min_weight_matching(graph)
    # P-K5 (3): while the rounds up to the last that can all be paired with new
    # opponents (the bye counted as one) are not over, and this round needs no repeat
    # meeting, look ahead to them.
    last = min(ROUNDS, len(nodes) - 1)
    if round_number < last:
        new = {
            (one, two): weight
            for (one, two), key, weight in zip(edges, keys, weights, strict=True)
            if key[0] == 0
        }
        if all((u, v) in new or (v, u) in new for u, v in matching):
            matching = _look_ahead(nodes, new, matching, last - round_number)

    pairings = []
    for one, two in matching:
        if isinstance(one, str) or isinstance(two, str):
            team = two if isinstance(one, str) else one
            assert isinstance(team, int)
            pairings.append(Pairing(round_number, team, None))
        else:
            a, b = sorted((one, two), key=place.__getitem__)
            pairings.append(Pairing(round_number, a, b))
    assert len(pairings) * 2 == len(nodes), "the pairing graph has a perfect matching"
    pairings.sort(key=lambda p: (p.b is None, place[p.a]))
    return pairings


@dataclass(frozen=True)
class Qualification:
    """Who reaches the championship after the rounds (K4).

    Attributes:
        advanced: the teams through outright, best first.
        tied: the teams tied for the remaining places, who play Border-Up playoffs
            (P-K1); empty when none are needed.
        places: how many of ``tied`` go through.
    """

    advanced: tuple[int, ...]
    tied: tuple[int, ...]
    places: int

    @property
    def needs_playoff(self) -> bool:
        return bool(self.tied)


def finalists(team_ids: Sequence[int], outcomes: Sequence[MatchOutcome]) -> Qualification:
    """The two teams with the most match wins, or who must play off for a place (K4).

    Wins 6, 5, 5, 3: the first team is through and the two 5s play for one place.
    Wins 5, 5, 5: the three play for two places.

    Raises:
        ValueError: fewer than 2 teams.
    """
    table = standings(team_ids, outcomes)
    if len(table) < 2:
        raise ValueError("a championship needs at least 2 teams")
    cut = table[1].wins
    above = tuple(s.team for s in table if s.wins > cut)
    level = tuple(s.team for s in table if s.wins == cut)
    places = 2 - len(above)
    if len(level) == places:
        return Qualification(above + level, (), 0)
    return Qualification(above, level, places)


def playoff_order(tied: Sequence[int], seed: int | str) -> tuple[int, ...]:
    """The seeded random order that breaks ties between playoff teams (P-K1)."""
    order = list(tied)
    random.Random(seed).shuffle(order)
    return tuple(order)


def _due(remaining: list[int], wins: dict[int, int], places: int) -> tuple[int, int] | None:
    if len(remaining) <= places:
        return None
    first, second = sorted(remaining, key=wins.__getitem__)[:2]
    return first, second


def _replay(
    tied: Sequence[int],
    places: int,
    results: Sequence[PlayoffResult],
    seed: int | str,
) -> tuple[list[int], tuple[int, int] | None]:
    """The teams still in after ``results``, and the next game due (P-K1)."""
    if len(set(tied)) != len(tied):
        raise ValueError("a team id appears twice")
    if not 1 <= places < len(tied):
        raise ValueError(f"{len(tied)} tied teams cannot play off for {places} place(s)")
    remaining = list(playoff_order(tied, seed))
    wins = dict.fromkeys(remaining, 0)
    for number, (a, b, winner) in enumerate(results, start=1):
        due = _due(remaining, wins, places)
        if due is None:
            raise ValueError(f"playoff game {number} was played after the places were filled")
        if {a, b} != set(due):
            raise ValueError(f"playoff game {number} should be {due[0]} v {due[1]}, not {a} v {b}")
        if winner is None:
            continue
        if winner not in (a, b):
            raise ValueError(f"team {winner} did not play in playoff game {number}")
        remaining.remove(b if winner == a else a)
        wins[winner] += 1
    return remaining, _due(remaining, wins, places)


def next_playoff(
    tied: Sequence[int],
    places: int,
    results: Sequence[PlayoffResult],
    seed: int | str,
) -> tuple[int, int] | None:
    """The next Border-Up playoff game (P-K1), or None once the places are filled.

    Args:
        tied: the teams tied for the places (:attr:`Qualification.tied`).
        places: how many of them go through (:attr:`Qualification.places`).
        results: the playoff games so far, in order: (team, team, winner or None).
        seed: the tournament's seed; the same seed every call.

    Raises:
        ValueError: a result that is not the game that was due, or any game after the
            places were filled.
    """
    return _replay(tied, places, results, seed)[1]


def playoff_winners(
    tied: Sequence[int],
    places: int,
    results: Sequence[PlayoffResult],
    seed: int | str,
) -> tuple[int, ...] | None:
    """The teams that go through the playoff, in the order of ``tied``, or None until
    the places are filled (P-K1). Arguments and errors as :func:`next_playoff`."""
    remaining, due = _replay(tied, places, results, seed)
    if due is not None:
        return None
    return tuple(team for team in tied if team in remaining)


def championship_teams(
    team_ids: Sequence[int],
    outcomes: Sequence[MatchOutcome],
    playoff_results: Sequence[PlayoffResult],
    seed: int | str,
) -> tuple[int, int] | None:
    """The two finalists (K4, P-K1), or None while playoff games are still due.

    Side A of the championship is the first: the team through outright, or else the
    better-placed finalist.

    Raises:
        ValueError: playoff results where none was needed; as :func:`next_playoff`.
    """
    qualification = finalists(team_ids, outcomes)
    if not qualification.needs_playoff:
        if playoff_results:
            raise ValueError("no playoff was needed")
        first, second = qualification.advanced
        return first, second
    through = playoff_winners(qualification.tied, qualification.places, playoff_results, seed)
    if through is None:
        return None
    first, second = qualification.advanced + through
    return first, second


def next_playoff_game(
    team_ids: Sequence[int],
    outcomes: Sequence[MatchOutcome],
    playoff_results: Sequence[PlayoffResult],
    seed: int | str,
) -> tuple[int, int] | None:
    """The next playoff game after the rounds (K4, P-K1), or None when none is due."""
    qualification = finalists(team_ids, outcomes)
    if not qualification.needs_playoff:
        if playoff_results:
            raise ValueError("no playoff was needed")
        return None
    return next_playoff(qualification.tied, qualification.places, playoff_results, seed)


def champion(teams: tuple[int, int], results: Sequence[GameResult]) -> int | None:
    """The champion team once the championship match is settled, else None (K4, P-K3).

    Args:
        teams: the finalists as sides A and B (:func:`championship_teams`).
        results: the championship's games so far, in order.
    """
    side = championship_winner(results)
    if side is None:
        return None
    return teams[0] if side is Side.A else teams[1]
