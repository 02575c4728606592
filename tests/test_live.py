"""The seats of a live table (trainer.live, issue 22): who sits where before the game starts,
which seats the computer plays, and who is to move. Rulings L-T1 to L-T3 (docs/RULINGS.md)."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer import live
from trainer.games.base import TERMINAL
from trainer.live import Seat, TableError

HOST, BEN, CAI, DEE = 10, 11, 12, 13


def test_a_new_table_seats_its_host_at_seat_0_and_leaves_the_rest_free():
    seats = live.empty_seats(4, HOST)
    assert seats == (Seat(0, HOST), Seat(1), Seat(2), Seat(3))
    with pytest.raises(TableError):
        live.empty_seats(1, HOST)


def test_joining_takes_the_lowest_free_seat_and_a_full_table_refuses():
    """L-T2: a classmate joins into the lowest free seat; a seat given to the computer is not free."""
    seats = live.give_to_computer(live.empty_seats(3, HOST), 1, True)
    seats = live.sit(seats, BEN)
    assert live.seat_of(seats, BEN) == 2
    assert live.sit(seats, BEN) == seats  # joining again changes nothing
    with pytest.raises(TableError, match="full"):
        live.sit(seats, CAI)


def test_a_student_moves_to_a_free_seat_but_never_onto_a_taken_one():
    seats = live.sit(live.empty_seats(4, HOST), BEN)
    moved = live.sit(seats, BEN, 3)
    assert [s.user_id for s in moved] == [HOST, None, None, BEN]
    for taken in (0, 3):
        with pytest.raises(TableError):
            live.sit(live.sit(moved, CAI, 1), CAI, 0 if taken == 0 else 3)
    with pytest.raises(TableError, match="no such seat"):
        live.sit(seats, BEN, 4)
    with pytest.raises(TableError, match="no such seat"):
        live.sit(seats, BEN, -1)
    with pytest.raises(TableError, match="keep the first seat"):
        live.sit(seats, HOST, 2)


def test_the_host_gives_only_a_free_seat_to_the_computer():
    seats = live.sit(live.empty_seats(3, HOST), BEN)
    with pytest.raises(TableError, match="A player sits there"):
        live.give_to_computer(seats, 1, True)
    with pytest.raises(TableError):
        live.give_to_computer(seats, 3, True)
    given_away = live.give_to_computer(seats, 2, True)
    assert live.computer_seats(given_away) == [2]
    assert live.give_to_computer(given_away, 2, False) == seats


def test_leaving_frees_the_seat_and_the_host_closes_instead():
    seats = live.sit(live.empty_seats(3, HOST), BEN)
    assert live.seat_of(live.stand(seats, BEN), BEN) is None
    with pytest.raises(TableError, match="close it"):
        live.stand(seats, HOST)
    with pytest.raises(TableError, match="not at this table"):
        live.stand(seats, CAI)


def test_a_game_starts_with_two_students_and_the_computer_takes_every_free_seat():
    """L-T3."""
    alone = live.empty_seats(4, HOST)
    with pytest.raises(TableError, match="at least one classmate"):
        live.started(alone)
    seats = live.started(live.sit(alone, BEN, 2))
    assert [(s.user_id, s.computer) for s in seats] == [
        (HOST, False),
        (None, True),
        (BEN, False),
        (None, True),
    ]
    assert live.to_move(seats, 2) == BEN
    assert live.to_move(seats, 1) is None
    assert live.to_move(seats, TERMINAL) is None


def test_codes_have_no_look_alikes_and_are_read_as_typed():
    code = live.new_code(random.Random(4))
    assert len(code) == live.TABLE_CODE_LENGTH
    assert not set(code) & set("01ILO")
    assert live.normal_code(f" {code[:3].lower()}-{code[3:].lower()} ") == code


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=2, max_value=7),
    st.lists(
        st.tuples(
            st.sampled_from(["sit", "stand", "computer", "free"]),
            st.sampled_from([HOST, BEN, CAI, DEE]),
            st.one_of(st.none(), st.integers(min_value=-1, max_value=7)),
        ),
        max_size=30,
    ),
)
def test_no_change_ever_puts_two_in_a_seat_or_a_student_at_two_seats(players, changes):
    """Whatever the lobby does, in any order: the host keeps seat 0, a student sits at one seat at
    most, no seat is both a student's and the computer's, and a refused change changes nothing."""
    seats = live.empty_seats(players, HOST)
    for kind, user, index in changes:
        before = seats
        try:
            if kind == "sit":
                seats = live.sit(seats, user, index)
            elif kind == "stand":
                seats = live.stand(seats, user)
            elif kind in ("computer", "free") and index is not None:
                seats = live.give_to_computer(seats, index, kind == "computer")
        except TableError:
            assert seats == before
        assert len(seats) == players and [s.index for s in seats] == list(range(players))
        assert seats[0].user_id == HOST
        users = live.humans(seats)
        assert len(users) == len(set(users))
        assert not any(s.user_id is not None and s.computer for s in seats)


NOON = dt.datetime(2026, 12, 2, 12, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("seen", "timer", "expected"),
    [
        # Heard from 10 s before the turn began: away 60 s after that.
        (NOON - dt.timedelta(seconds=10), None, NOON + dt.timedelta(seconds=50)),
        # Gone for 5 minutes when the turn began: the computer may play at once.
        (NOON - dt.timedelta(minutes=5), None, NOON),
        # Never heard from at this table: 60 s from the turn.
        (None, None, NOON + live.AWAY_AFTER),
        # Heard from during the turn: 60 s after that.
        (NOON + dt.timedelta(seconds=30), None, NOON + dt.timedelta(seconds=90)),
        # A 30-second turn timer comes first.
        (NOON + dt.timedelta(seconds=20), 30, NOON + dt.timedelta(seconds=30)),
        # Away before the timer runs out.
        (NOON - dt.timedelta(seconds=50), 120, NOON + dt.timedelta(seconds=10)),
    ],
)
def test_when_the_computer_may_play_for_an_absent_student(seen, timer, expected):
    """L-T7."""
    assert live.computer_may_move_at(seen, NOON, timer) == expected


def test_the_moment_a_duel_whose_classmate_left_may_be_ended():
    """L-T12: two minutes after the classmate was last heard from, and never sooner than two
    minutes after the start."""
    start_at = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)
    assert live.duel_may_end_at(None, start_at) == start_at + live.DUEL_LEFT_AFTER
    before = start_at - dt.timedelta(minutes=5)
    assert live.duel_may_end_at(before, start_at) == start_at + live.DUEL_LEFT_AFTER
    seen = start_at + dt.timedelta(minutes=7)
    assert live.duel_may_end_at(seen, start_at) == seen + dt.timedelta(minutes=2)


def test_quiet_means_no_change_and_no_page_heard_from():
    """L-T13 in the core: a day from the last change or the last page heard from, whichever is
    later."""
    changed = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)
    day = live.QUIET_FOR
    assert live.is_quiet(changed, [None, None], changed + day)
    assert not live.is_quiet(changed, [None], changed + day - dt.timedelta(seconds=1))
    seen = changed + dt.timedelta(hours=5)
    assert live.quiet_since(changed, [None, seen, changed]) == seen
    assert not live.is_quiet(changed, [seen], changed + day)
    assert live.is_quiet(changed, [seen], seen + day)
