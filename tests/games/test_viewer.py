"""Every seat can read a game as "You" (live play, issue 22): ``Game(viewer=..., names=...)``.

The viewer and the names change the words of the log and nothing else: the same seed and actions
give the same game (history, turns, legal actions, observations, returns) whoever reads it, and
the log has the same events, each written for its reader: the viewer's moves are "You play", a
named seat's are "maria.g plays", a partner is "Your partner (sam.k)".
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.cards import load_deck
from trainer.games import (
    REGISTRY,
    Event,
    Game,
    GameError,
    Level,
    Params,
    State,
    make_game,
    play_computer_turns,
    replay,
)
from trainer.games.geopower_toss import CALL

DECK = load_deck()
#: Enough moves to end most games; Geography War can run to 10,000 and is cut short.
MAX_MOVES = 1500
#: The log kinds that are one seat's own move, written with the mover as the subject.
MOVE_KINDS = ("play", "call")


def _params_for(cls: type[Game]) -> Iterator[Params]:
    """The fewest and the most players alone, and each team size at its fewest and most players."""
    seen: set[tuple[int, int]] = set()
    for team in cls.team_sizes:
        counts = [
            n
            for n in range(cls.min_players, cls.max_players + 1)
            if n % team == 0 and n // team >= 2
        ]
        for n in {counts[0], counts[-1]} if counts else set():
            if (n, team) not in seen:
                seen.add((n, team))
                yield Params(n, team)


CASES = [(cls.slug, params) for cls in REGISTRY for params in _params_for(cls)]


def names_for(players: int) -> dict[int, str]:
    """Even seats are students with a username; odd seats are computers."""
    return {seat: f"kid.{seat}" for seat in range(players) if seat % 2 == 0}


def random_actions(slug: str, params: Params, seed: int) -> list[int]:
    """A seeded random legal play-out, read by seat 0 (at most MAX_MOVES actions)."""
    state = make_game(slug, DECK, params).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal() and len(state.history) < MAX_MOVES:
        state.apply_action(rng.choice(state.legal_actions()))
    return list(state.history)


def read_by(
    slug: str,
    params: Params,
    seed: int,
    actions: list[int],
    viewer: int,
    names: Mapping[int, str] | None = None,
) -> State:
    return replay(make_game(slug, DECK, params, viewer=viewer, names=names), seed, actions)


def actor_text(event: Event) -> str:
    """The event's text from its subject on ("Trick 3: You lead ..." -> "You lead ...")."""
    return re.sub(r"^Trick \d+: ", "", event.text)


def check_log_for(viewer: int, state: State, reference: State) -> None:
    """``state``'s log, read by ``viewer``, has ``reference``'s events, each written for the viewer."""
    assert [(e.ply, e.seat, e.kind) for e in state.log] == [
        (e.ply, e.seat, e.kind) for e in reference.log
    ]
    names = state.game.names
    for event in state.log:
        if event.kind in MOVE_KINDS and event.seat is not None:
            text = actor_text(event)
            subject = state.seat_name(event.seat)
            assert text.startswith(subject + " "), event
            verb = text[len(subject) + 1 :].split()[0]  # "You play", "maria.g plays"
            assert verb.endswith("s") == (event.seat != viewer), event
            if event.seat != viewer:
                assert not text.startswith("You "), event
                assert "You play" not in event.text, event
        if viewer in names:  # the viewer is "You", never their own username
            assert names[viewer] not in event.text, event
        for seat in names.keys() - {viewer}:  # a named seat is never called a computer
            assert f"Computer {seat}" not in event.text, event


def check_same_game(states: list[State]) -> None:
    first = states[0]
    for state in states[1:]:
        assert state.history == first.history
        assert state.current_player() == first.current_player()
        assert state.legal_actions() == first.legal_actions()
        assert state.returns() == first.returns()
        for seat in range(first.game.players):
            assert state.observation(seat) == first.observation(seat)


def lockstep(slug: str, params: Params, seed: int) -> None:
    """One random game played in step by one state per viewer (with and without names)."""
    players = params.players
    reference = make_game(slug, DECK, params).new_initial_state(seed)
    readers = [
        make_game(slug, DECK, params, viewer=viewer, names=names).new_initial_state(seed)
        for viewer in range(players)
        for names in (None, names_for(players))
    ]
    states = [reference, *readers]
    rng = random.Random(seed)
    while not reference.is_terminal() and len(reference.history) < MAX_MOVES:
        legal = reference.legal_actions()
        for state in readers:
            assert state.current_player() == reference.current_player()
            assert state.legal_actions() == legal
        if len(reference.history) % 25 == 0:
            check_same_game(states)
        action = rng.choice(legal)
        for state in states:
            state.apply_action(action)
    check_same_game(states)
    for state in readers:
        check_log_for(state.game.viewer, state, reference)
    assert readers[0].log == reference.log  # viewer 0 without names: today's log


@pytest.mark.parametrize(
    ("slug", "params"), CASES, ids=[f"{s}-{p.players}p-t{p.team_size}" for s, p in CASES]
)
def test_every_viewer_reads_the_same_game(slug: str, params: Params) -> None:
    lockstep(slug, params, seed=7)


@settings(max_examples=20, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**20))
def test_every_viewer_reads_the_same_game_from_any_seed(
    case: tuple[str, Params], seed: int
) -> None:
    slug, params = case
    lockstep(slug, params, seed)


# --- what a viewer reads ---------------------------------------------------------------------


def move_events(state: State, seat: int) -> list[Event]:
    return [e for e in state.log if e.kind in MOVE_KINDS and e.seat == seat]


def test_geoplunge_51_seat_2_reads_you_play_and_seat_0_reads_its_name() -> None:
    """The same move: "maria.g plays Ohio, ..." for seat 0, "You play Ohio, ..." for seat 2."""
    params, seed = Params(3), 11
    actions = random_actions("geoplunge-51", params, seed)
    names = {0: "ana.r", 2: "maria.g"}
    by_0 = read_by("geoplunge-51", params, seed, actions, 0, names)
    by_2 = read_by("geoplunge-51", params, seed, actions, 2, names)
    plays_0, plays_2 = move_events(by_0, 2), move_events(by_2, 2)
    assert plays_0 and len(plays_0) == len(plays_2)
    for theirs, mine in zip(plays_0, plays_2, strict=True):
        rest = theirs.text.removeprefix("maria.g plays ")
        assert rest != theirs.text
        assert mine.text == f"You play {rest}"
        assert re.fullmatch(
            r"You play [A-Z][a-z]+( [A-Z][a-z]+)*, (size|statehood|population) \d+: the count is \d+\.",
            mine.text,
        )
    assert all(e.text.startswith("ana.r plays ") for e in move_events(by_2, 0))
    assert all(e.text.startswith("Computer 1 plays ") for e in move_events(by_2, 1))
    assert by_2.seat_names() == ["ana.r", "Computer 1", "You"]
    deals = [e.text for e in by_2.log if e.kind == "deal"]
    assert any(re.match(r"Round \d+: You deal and play first\.", t) for t in deals)
    assert any(re.match(r"Round \d+: ana\.r deals and plays first\.", t) for t in deals)


def test_the_winner_reads_you_win() -> None:
    """GeoPlunge 51 to the end: the winning seat reads "You reach ... and win!"."""
    params, seed = Params(2), 3
    actions = random_actions("geoplunge-51", params, seed)
    state = read_by("geoplunge-51", params, seed, actions, 0)
    assert state.is_terminal()
    winner = state.winners()[0]
    other = 1 - winner
    mine = read_by("geoplunge-51", params, seed, actions, winner, {other: "maria.g"})
    theirs = read_by("geoplunge-51", params, seed, actions, other, {winner: "sam.k"})
    assert re.fullmatch(r"You reach \d+ points and win!", mine.log[-1].text)
    assert re.fullmatch(r"sam\.k reaches \d+ points and wins!", theirs.log[-1].text)
    scores = ["You \\d+", "maria\\.g \\d+"][:: 1 if winner == 0 else -1]
    assert re.fullmatch(rf"Round \d+ is over\. Scores: {', '.join(scores)}\.", mine.log[-2].text)


@pytest.mark.parametrize("slug", ["geoplunge-51", "geopower-toss"])
def test_a_named_partner_reads_your_partner_with_the_name(slug: str) -> None:
    """Teams of 2 at 4 seats: seats 1 and 3 are one side; seat 1 reads seat 3 as its partner."""
    params, seed = Params(4, 2), 5
    actions = random_actions(slug, params, seed)[:60]
    named = read_by(slug, params, seed, actions, 1, {0: "maria.g", 3: "sam.k"})
    assert named.seat_names() == ["maria.g", "You", "Computer 2", "Your partner (sam.k)"]
    assert [named.side_name(side) for side in range(2)] == ["Team 1", "Your team"]
    partner_moves = move_events(named, 3)
    assert partner_moves
    assert all(actor_text(e).startswith("Your partner (sam.k) ") for e in partner_moves)
    unnamed = read_by(slug, params, seed, actions, 1)
    assert unnamed.seat_names() == ["Computer 0", "You", "Computer 2", "Your partner (player 4)"]
    by_2 = read_by(slug, params, seed, actions, 2, {0: "maria.g", 3: "sam.k"})
    assert by_2.seat_names() == ["Your partner (maria.g)", "Computer 1", "You", "sam.k"]
    assert [by_2.side_name(side) for side in range(2)] == ["Your team", "Team 2"]


def test_geopower_toss_calls_read_for_the_caller() -> None:
    """A GeoPlunge call: "You call GeoPlunge: you need ..." alone, "your team needs" in a team."""
    for params, caller_text, team_text in (
        (Params(2), "You call GeoPlunge: you need 6", "maria.g calls GeoPlunge: maria.g needs 6"),
        (
            Params(4, 2),
            "You call GeoPlunge: your team needs 6",
            "Your partner (maria.g) calls GeoPlunge: your team needs 6",
        ),
    ):
        state = make_game("geopower-toss", DECK, params).new_initial_state(1)
        seat = state.current_player()
        state.apply_action(CALL)
        actions, seed = list(state.history), 1
        partner = (seat + 2) % params.players if params.team_size > 1 else 1 - seat
        mine = read_by("geopower-toss", params, seed, actions, seat, {partner: "maria.g"})
        assert mine.log[-1].text.startswith(caller_text)
        theirs = read_by("geopower-toss", params, seed, actions, partner, {seat: "maria.g"})
        assert theirs.log[-1].text.startswith(team_text)


def test_play_the_ranks_read_by_seat_1() -> None:
    params, seed = Params(), 4
    actions = random_actions("play-the-ranks", params, seed)
    ref = read_by("play-the-ranks", params, seed, actions, 0)
    state = read_by("play-the-ranks", params, seed, actions, 1, {0: "maria.g"})
    draw = state.log[0].text
    assert re.match(
        r"The draw: maria\.g drew .+, you drew .+\. (You lead|maria\.g leads) the first trick\.",
        draw,
    )
    assert move_events(state, 1)[0].text == "You discard a card face down."
    assert move_events(state, 0)[0].text == "maria.g discards a card face down."
    tricks = [(e, r) for e, r in zip(state.log, ref.log, strict=True) if e.kind == "trick"]
    assert tricks
    for event, seen_by_0 in tricks:
        mine, theirs = re.search(r"Tricks: you (\d), the computer (\d)\.$", seen_by_0.text).groups()  # type: ignore[union-attr]
        assert event.text.endswith(f"Tricks: you {theirs}, maria.g {mine}.")
    assert state.is_terminal()
    end = state.log[-1].text
    assert end.startswith(
        (
            "You win",
            "maria.g wins",
            "4-4, and you won the last trick: you win.",
            "4-4, and maria.g won the last trick: maria.g wins.",
        )
    )


def test_geography_war_read_by_seat_1() -> None:
    params, seed = Params(), 2
    actions = random_actions("geography-war", params, seed)[:200]
    state = read_by("geography-war", params, seed, actions, 1, {0: "maria.g"})
    turns = [e.text for e in state.log if e.kind == "turn"]
    assert re.fullmatch(r"maria\.g turns up [A-Za-z ]+; you turn up [A-Za-z ]+\.", turns[0])
    battles = [e for e in state.log if e.kind == "battle"]
    assert {e.seat for e in battles} == {0, 1}
    for event in battles:
        who = "You win" if event.seat == 1 else "maria.g wins"
        assert re.search(rf"\. {who} \d+ cards\.$", event.text), event
    view = state.table_view(state.observation(1), False, False)
    assert view["names"] == ["You", "maria.g"]
    assert view["piles"] == state.observation(1)["pile_counts"][::-1]


def test_geoclash_down_back_read_by_each_seat() -> None:
    params, seed = Params(4), 9
    actions = random_actions("geoclash-down-back", params, seed)
    for viewer in range(4):
        state = read_by(
            "geoclash-down-back", params, seed, actions, viewer, {(viewer + 1) % 4: "maria.g"}
        )
        for event in state.log:
            if event.kind == "out":
                verb = "were" if event.seat == viewer else "was"
                assert f" {verb} dealt 1 card" in event.text, event
            if event.kind == "end":
                assert (event.seat == viewer) == event.text.startswith(
                    "You are the last player left"
                ), event
        view = state.table_view(state.observation(viewer), False, False)
        assert [seat["you"] for seat in view["seats"]] == [s == viewer for s in range(4)]
        assert view["seats"][viewer]["name"] == "You"
        assert view["seats"][(viewer + 1) % 4]["name"] == "maria.g"


# --- computer players and the checks ---------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "params"),
    [
        ("geoplunge-51", Params(3)),
        ("geopower-toss", Params(4, 2)),
        ("geoclash-down-back", Params(3)),
        ("play-the-ranks", Params()),
    ],
)
def test_computer_players_play_the_same_whoever_reads(slug: str, params: Params) -> None:
    """Bots and search players clone and replay states: the viewer changes none of their moves."""
    levels = {seat: Level.MEDIUM for seat in range(params.players)}
    taken = []
    for viewer in (0, params.players - 1):
        state = make_game(
            slug, DECK, params, viewer=viewer, names={0: "maria.g"}
        ).new_initial_state(8)
        hard = play_computer_turns(state, {state.current_player(): Level.HARD}, 8)
        taken.append((hard, play_computer_turns(state, levels, 8), state.returns()))
    assert taken[0] == taken[1]


@pytest.mark.parametrize("slug", [cls.slug for cls in REGISTRY])
def test_a_viewer_or_name_for_no_seat_is_refused(slug: str) -> None:
    cls = REGISTRY[slug]
    params = Params(cls.min_players)
    for viewer in (-1, params.players, True, "1"):
        with pytest.raises(GameError):
            make_game(slug, DECK, params, viewer=viewer)  # type: ignore[arg-type]
    for names in ({params.players: "maria.g"}, {-1: "maria.g"}, {1: ""}):
        with pytest.raises(GameError):
            make_game(slug, DECK, params, names=names)
    assert make_game(slug, DECK, params, viewer=params.players - 1).viewer == params.players - 1
