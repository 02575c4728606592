"""Combo 1's service functions called directly (no HTTP): a pick, a deal and a stop are each
kept once; a second one raises Stale and a move not allowed raises Refused, changing nothing
(issue #20, thin views; K1, K2)."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import func, select

from trainer.games.combo import ComboGame
from trainer.results import Result
from trainer.web.extensions import db
from trainer.web.guards import Refused, Stale
from trainer.web.models import BorderUpRound, ComboMatch, ComboMatchGame, User, utcnow
from trainer.web.play.combo import (
    ALREADY_OVER,
    ALREADY_PICKED,
    DEALT_OR_OUT_OF_DATE,
    deal_next_game,
    play_combo_pick,
    stop_match,
)


def _match(student: User, fmt: str = "morning", picks: list[str] | None = None) -> ComboMatch:
    match = ComboMatch(
        token=f"svc-{fmt}-{len(picks or [])}",
        student_id=student.id,
        format=fmt,
        level="easy",
        seed=7,
        draw={"a": "CO", "b": "UT", "winner": "b" if picks else "a"},
        picks=picks,
        created_at=utcnow(),
        result=Result.PLAYING,
    )
    db.session.add(match)
    db.session.commit()
    return match


def _count(model) -> int:
    return db.session.execute(select(func.count()).select_from(model)).scalar_one()


def _stored(match_id: int) -> ComboMatch:
    """The match as stored (a fresh read, nothing the test's session still holds)."""
    db.session.expire_all()
    return db.session.get(ComboMatch, match_id)


def test_a_deal_is_kept_once_and_a_replay_is_stale(app: Flask, student: User) -> None:
    with app.app_context():
        me = db.session.get(User, student.id)
        match = _match(me)
        entry = deal_next_game(match, 0, me, utcnow())
        assert (entry.game, entry.position) == (ComboGame.BORDER_UP.value, 0)
        started = _stored(match.id).started_at
        assert started is not None and _count(ComboMatchGame) == _count(BorderUpRound) == 1

        with pytest.raises(Stale, match=r"already dealt \(or the page") as stale:
            deal_next_game(_stored(match.id), 0, me, utcnow())
        assert str(stale.value) == DEALT_OR_OUT_OF_DATE
        db.session.rollback()
        assert _count(ComboMatchGame) == _count(BorderUpRound) == 1
        assert _stored(match.id).started_at == started

        with pytest.raises(Stale):  # a form that did not read: no position at all
            deal_next_game(_stored(match.id), None, me, utcnow())


def test_a_deal_while_a_game_is_played_is_refused(app: Flask, student: User) -> None:
    with app.app_context():
        me = db.session.get(User, student.id)
        match = _match(me)
        deal_next_game(match, 0, me, utcnow())
        with pytest.raises(Refused, match=r"^Finish game 1 \(Border-Up\) first\.$"):
            deal_next_game(_stored(match.id), 1, me, utcnow())
        db.session.rollback()
        assert _count(ComboMatchGame) == _count(BorderUpRound) == 1


def test_an_afternoon_match_waits_for_the_picks(app: Flask, student: User) -> None:
    with app.app_context():
        me = db.session.get(User, student.id)
        match = _match(me, "afternoon")
        with pytest.raises(Refused, match="^Pick the games first.$"):
            deal_next_game(match, 0, me, utcnow())
        db.session.rollback()
        assert _count(ComboMatchGame) == 0 and _stored(match.id).started_at is None


def test_a_pick_is_kept_once_with_the_computers_pick(app: Flask, student: User) -> None:
    with app.app_context():
        me = db.session.get(User, student.id)
        match = _match(me, "afternoon")
        play_combo_pick(match, ComboGame.STATE_IQ, me, utcnow())
        picks = _stored(match.id).picks
        assert picks is not None and len(picks) == 2
        assert picks[0] == "state-iq" and picks[1] != "state-iq"

        with pytest.raises(Stale) as stale:
            play_combo_pick(_stored(match.id), ComboGame.BORDER_UP, me, utcnow())
        assert str(stale.value) == ALREADY_PICKED
        db.session.rollback()
        assert _stored(match.id).picks == picks


def test_a_pick_the_computer_made_is_refused_and_a_morning_match_has_none(
    app: Flask, student: User
) -> None:
    with app.app_context():
        me = db.session.get(User, student.id)
        afternoon = _match(me, "afternoon", picks=["dashing-states"])
        with pytest.raises(Refused, match="^Not a valid choice.$"):
            play_combo_pick(afternoon, ComboGame.DASHING_STATES, me, utcnow())
        db.session.rollback()
        assert _stored(afternoon.id).picks == ["dashing-states"]
        play_combo_pick(_stored(afternoon.id), ComboGame.BORDER_UP, me, utcnow())
        assert _stored(afternoon.id).picks == ["dashing-states", "border-up"]

        morning = _match(me)
        with pytest.raises(Stale, match="already picked"):
            play_combo_pick(morning, ComboGame.BORDER_UP, me, utcnow())
        db.session.rollback()
        assert _stored(morning.id).picks is None


def test_a_stop_rings_the_bell_once(app: Flask, student: User) -> None:
    with app.app_context():
        me = db.session.get(User, student.id)
        match = _match(me)
        now = utcnow()
        stop_match(match, now)
        stopped = _stored(match.id)
        assert stopped.bell_at == stopped.started_at == now
        assert stopped.result == Result.TIED  # no game finished: nobody won (K1)

        with pytest.raises(Stale) as stale:
            stop_match(stopped, utcnow())
        assert str(stale.value) == ALREADY_OVER
        db.session.rollback()
        again = _stored(match.id)
        assert (again.bell_at, again.result) == (now, Result.TIED)
