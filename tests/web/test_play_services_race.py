"""The race modes' service functions called directly (no HTTP): Dashing States and Border-Up.

A form parses the call, one ``play_*`` function plays it (issue 20, item 4). Here each service is
called inside an app context: a good call is recorded once, a second call raises ``Stale`` and
changes nothing, a call that cannot be judged raises ``Refused`` and changes nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.orm.attributes import set_committed_value
from werkzeug.datastructures import MultiDict

from trainer.quiz.border_up import solutions
from trainer.quiz.dashing_states import Call
from trainer.results import Result
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.guards import Refused, Stale
from trainer.web.models import BorderUpRound, DashingRound, MemoryCard, ReviewLog, User, utcnow
from trainer.web.play.border_up import (
    NOT_TURNED_OVER,
    check_border_up_open,
    new_border_up,
    play_border_up_call,
    play_border_up_hint,
    play_border_up_ready,
)
from trainer.web.play.common import ALREADY_CALLED, COMPUTER_CALLED_FIRST
from trainer.web.play.dashing import check_dashing_open, new_dashing, play_dashing_call
from trainer.web.play.forms import DASHING_PLACES, BorderUpForm, DashingForm


@pytest.fixture
def ctx(app: Flask, student: User) -> Iterator[User]:
    """An app context, and the student read in it."""
    with app.app_context():
        yield db.session.execute(select(User).where(User.username == "student1")).scalar_one()


def kept() -> tuple[int, int]:
    """How many reviews and memory cards the database holds."""
    reviews = db.session.execute(select(func.count()).select_from(ReviewLog)).scalar_one()
    cards = db.session.execute(select(func.count()).select_from(MemoryCard)).scalar_one()
    return reviews, cards


# --- Dashing States -------------------------------------------------------------------------


def dashing_round(student: User, level: str = "practice") -> DashingRound:
    row = new_dashing(student, level)
    db.session.commit()
    return row


def right_call(row: DashingRound, *, empty_name: bool = False) -> Call:
    """The cards in alphabetical order of their names, the last set aside; every answer right."""
    deck = get_deck()
    order = sorted(range(5), key=lambda i: deck[row.cards[i]].name)
    names = {i: deck[p].name for i, p in enumerate(row.cards)}
    if empty_name:
        names[order[0]] = ""
    capitals = {i: deck[p].capital for i, p in enumerate(row.cards)}
    return Call(order[4], tuple(order[:4]), names, capitals)


def dashing_state(row: DashingRound) -> tuple:
    db.session.refresh(row)
    return row.call, row.called_at, row.result, row.seconds


def test_a_right_dashing_call_is_recorded_once(ctx: User):
    row = dashing_round(ctx)
    play_dashing_call(row, right_call(row), ctx, utcnow())
    db.session.refresh(row)
    assert row.result == Result.RIGHT and row.seconds is not None and row.call is not None
    assert kept()[0] == 8


def test_a_second_dashing_call_is_stale_and_changes_nothing(ctx: User):
    row = dashing_round(ctx)
    play_dashing_call(row, right_call(row), ctx, utcnow())
    before, logged = dashing_state(row), kept()
    with pytest.raises(Stale, match="already called") as stale:
        play_dashing_call(row, right_call(row, empty_name=True), ctx, utcnow())
    assert str(stale.value) == ALREADY_CALLED and stale.value.category == "info"
    db.session.rollback()
    assert dashing_state(row) == before and kept() == logged


def test_a_dashing_call_another_request_saved_first_is_stale(ctx: User):
    """The round was read before another tab's call was saved: the conditional write finds it."""
    row = dashing_round(ctx)
    play_dashing_call(row, right_call(row), ctx, utcnow())
    before, logged = dashing_state(row), kept()
    set_committed_value(row, "call", None)  # as read before the other call was saved
    set_committed_value(row, "result", Result.PLAYING)
    with pytest.raises(Stale, match="already called"):
        play_dashing_call(row, right_call(row), ctx, utcnow())
    db.session.rollback()
    assert dashing_state(row) == before and kept() == logged


def test_a_dashing_call_after_the_computers_is_stale(ctx: User):
    row = dashing_round(ctx, "hard")
    later = row.created_at + dt.timedelta(minutes=10)
    with pytest.raises(Stale) as stale:
        check_dashing_open(row, later)
    assert str(stale.value) == COMPUTER_CALLED_FIRST
    with pytest.raises(Stale, match="the computer called first"):
        play_dashing_call(row, right_call(row), ctx, later)
    db.session.rollback()
    assert dashing_state(row) == (None, None, Result.PLAYING, None) and kept() == (0, 0)


def test_a_dashing_call_that_cannot_be_judged_is_refused_and_changes_nothing(ctx: User):
    row = dashing_round(ctx)
    with pytest.raises(Refused, match="Type an answer"):
        play_dashing_call(row, right_call(row, empty_name=True), ctx, utcnow())
    db.session.rollback()
    assert dashing_state(row) == (None, None, Result.PLAYING, None) and kept() == (0, 0)
    play_dashing_call(row, right_call(row), ctx, utcnow())  # the round is still open
    assert kept()[0] == 8


def dashing_form(app: Flask, fields: dict[str, str]) -> DashingForm:
    with app.test_request_context(method="POST"):
        return DashingForm(formdata=MultiDict(fields), meta={"csrf": False})


def test_the_dashing_form_reads_the_call(app: Flask):
    fields = {"place-0": "2", "place-1": "aside", "place-2": "1", "place-3": "4", "place-4": "3"}
    fields |= {f"name-{i}": f"Name {i}" for i in range(5)} | {"capital-4": "x" * 80}
    call = dashing_form(app, fields).call()
    assert call.set_aside == 1 and call.order == (2, 0, 4, 3)
    assert call.names == {i: f"Name {i}" for i in range(5)}
    assert call.capitals == {0: "", 1: "", 2: "", 3: "", 4: "x" * 60}, "cut to 60 characters"


@pytest.mark.parametrize(
    "places",
    [
        ["1", "1", "3", "4", "aside"],
        ["1", "2", "3", "aside", "aside"],
        ["1", "2", "3", "9", "aside"],
        ["1", "2", "3", "4", ""],
    ],
)
def test_the_dashing_form_refuses_places_that_are_not_one_each(app: Flask, places: list[str]):
    form = dashing_form(app, {f"place-{i}": place for i, place in enumerate(places)})
    with pytest.raises(Refused) as refused:
        form.call()
    assert str(refused.value) == DASHING_PLACES


# --- Border-Up ------------------------------------------------------------------------------


def border_up_round(student: User, level: str = "easy", ready: bool = True) -> BorderUpRound:
    row = new_border_up(student, level)
    db.session.commit()
    if ready:
        assert play_border_up_ready(row, utcnow())
        db.session.refresh(row)
    return row


def border_up_state(row: BorderUpRound) -> tuple:
    db.session.refresh(row)
    return row.call, row.called_at, row.result, row.seconds, row.hint


def a_solution(row: BorderUpRound) -> list[list[str]]:
    first, second = solutions(row.hand, get_deck())[0]
    return [sorted(first), sorted(second)]


def test_the_cards_turn_over_once(ctx: User):
    row = border_up_round(ctx, ready=False)
    assert row.revealed_at is None and row.result == Result.DEALT
    with pytest.raises(Stale) as stale:
        check_border_up_open(row, utcnow())
    assert str(stale.value) == NOT_TURNED_OVER
    assert play_border_up_ready(row, utcnow()) is True
    db.session.refresh(row)
    revealed = row.revealed_at
    assert revealed is not None and row.result == Result.PLAYING
    assert play_border_up_ready(row, utcnow() + dt.timedelta(seconds=5)) is False
    db.session.refresh(row)
    assert row.revealed_at == revealed, "the clock started once"


def test_a_right_border_up_call_is_recorded_once(ctx: User):
    row = border_up_round(ctx)
    groups = a_solution(row)
    play_border_up_call(row, groups, ctx, utcnow())
    db.session.refresh(row)
    assert row.result == Result.WON and row.seconds is not None and row.call == groups
    assert kept()[0] == 2


def test_a_second_border_up_call_is_stale_and_changes_nothing(ctx: User):
    row = border_up_round(ctx)
    first, second = a_solution(row)
    play_border_up_call(row, [first, second], ctx, utcnow())
    before, logged = border_up_state(row), kept()
    with pytest.raises(Stale) as stale:
        play_border_up_call(row, [second, first], ctx, utcnow())
    assert str(stale.value) == ALREADY_CALLED
    db.session.rollback()
    assert border_up_state(row) == before and kept() == logged


def test_a_border_up_call_another_request_saved_first_is_stale(ctx: User):
    row = border_up_round(ctx)
    play_border_up_call(row, a_solution(row), ctx, utcnow())
    before, logged = border_up_state(row), kept()
    set_committed_value(row, "call", None)  # as read before the other call was saved
    set_committed_value(row, "result", Result.PLAYING)
    with pytest.raises(Stale, match="already called"):
        play_border_up_call(row, a_solution(row), ctx, utcnow())
    db.session.rollback()
    assert border_up_state(row) == before and kept() == logged


def test_a_border_up_call_before_the_cards_turn_over_or_too_late_is_stale(ctx: User):
    row = border_up_round(ctx, "hard", ready=False)
    with pytest.raises(Stale, match="Turn your cards over first"):
        play_border_up_call(row, a_solution(row), ctx, utcnow())
    db.session.rollback()
    play_border_up_ready(row, utcnow())
    db.session.refresh(row)
    assert row.revealed_at is not None
    with pytest.raises(Stale) as stale:
        play_border_up_call(row, a_solution(row), ctx, row.revealed_at + dt.timedelta(minutes=10))
    assert str(stale.value) == COMPUTER_CALLED_FIRST
    db.session.rollback()
    assert border_up_state(row) == (None, None, Result.PLAYING, None, None)
    assert kept() == (0, 0)


@pytest.mark.parametrize("problem", ["short", "not_in_hand", "twice"])
def test_a_border_up_call_that_is_not_two_groups_of_the_hand_is_refused(ctx: User, problem: str):
    row = border_up_round(ctx)
    first, second = a_solution(row)
    if problem == "short":
        first = first[:2]
    elif problem == "not_in_hand":
        first = [*first[:2], next(s.postal for s in get_deck() if s.postal not in row.hand)]
    else:
        second = [first[0], *second[1:]]
    with pytest.raises(Refused):
        play_border_up_call(row, [first, second], ctx, utcnow())
    db.session.rollback()
    assert border_up_state(row) == (None, None, Result.PLAYING, None, None)
    assert kept() == (0, 0)


def test_a_hint_is_given_once_and_only_during_the_race(ctx: User):
    row = border_up_round(ctx, ready=False)
    assert play_border_up_hint(row) is None, "not before the cards are turned over"
    play_border_up_ready(row, utcnow())
    db.session.refresh(row)
    card = play_border_up_hint(row)
    assert card is not None and card in row.hand
    assert play_border_up_hint(row) is None and border_up_state(row)[4] == card
    play_border_up_call(row, a_solution(row), ctx, utcnow())
    assert play_border_up_hint(row) is None and border_up_state(row)[4] == card


def test_the_border_up_form_reads_the_groups(app: Flask):
    fields = MultiDict(
        [
            ("group-tx", "1"),
            ("group-OK", "2"),
            ("group-NM", "1"),
            ("group-LA", ""),
            ("group-AR", "3"),
            ("other-CO", "1"),
        ]
    )
    with app.test_request_context(method="POST"):
        form = BorderUpForm(formdata=fields, meta={"csrf": False})
    assert form.groups() == (["TX", "NM"], ["OK"])
