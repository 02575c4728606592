"""The study round's service function called directly (no HTTP): an answer is judged and
recorded once; a second answer raises Stale and an answer that cannot be read raises Refused,
changing nothing (issue #20, thin views)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.engine import Row

from trainer.facts import Fact, Form, Question
from trainer.review import Item, question
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.guards import Refused, Stale
from trainer.web.models import MemoryCard, ReviewLog, StudyRound, User, utcnow
from trainer.web.study.forms import GivenAnswer
from trainer.web.study.routes import ALREADY_SAVED, CLICK_A_STATE, answer_study_item

ITEMS = [["CO:capital", "typed"], ["UT:capital", "typed"], ["CO:map", "map_click"]]


@pytest.fixture
def round_token(app: Flask, student: User) -> str:
    with app.app_context():
        db.session.add(
            StudyRound(token="svc-round", student_id=student.id, seed=11, items=ITEMS, focus={})
        )
        db.session.commit()
    return "svc-round"


def _round(token: str) -> Row[Any]:
    """The round as the study views read it: a plain row."""
    table = StudyRound.__table__
    return db.session.execute(select(table).where(table.c.token == token)).one()


def _asked(round_: Row[Any], index: int) -> Question:
    key, form = round_.items[index - 1]
    return question(Item(Fact.from_key(key), Form(form)), get_deck(), round_.seed, index)


def _reviews() -> int:
    return db.session.execute(select(func.count()).select_from(ReviewLog)).scalar_one()


def _answer(me: User, round_: Row[Any], index: int, text: str | None) -> Any:
    return answer_study_item(
        me, round_, index, _asked(round_, index), GivenAnswer(text, 4000, 5000), utcnow()
    )


def test_an_answer_is_recorded_once_and_a_second_is_stale(
    app: Flask, student: User, round_token: str
) -> None:
    with app.app_context():
        me = db.session.get(User, student.id)
        round_ = _round(round_token)
        recorded = _answer(me, round_, 1, "Denver")
        assert recorded.created
        review = db.session.execute(select(ReviewLog)).scalar_one()
        assert (review.fact_key, review.item, review.verdict) == ("CO:capital", "1", "right")
        assert review.round_token == f"review:{round_token}" and review.duration_ms == 4000
        due = db.session.execute(select(MemoryCard.due)).scalar_one()

        for again in ("Salt Lake City", None, ""):  # another answer, "I don't know", nothing
            with pytest.raises(Stale) as stale:
                _answer(me, round_, 1, again)
            assert str(stale.value) == ALREADY_SAVED
            db.session.rollback()
        assert _reviews() == 1
        assert db.session.execute(select(MemoryCard.due)).scalar_one() == due


def test_i_dont_know_is_a_wrong_answer(app: Flask, student: User, round_token: str) -> None:
    with app.app_context():
        me = db.session.get(User, student.id)
        assert _answer(me, _round(round_token), 1, None).created
        review = db.session.execute(select(ReviewLog)).scalar_one()
        assert (review.verdict, review.answer) == ("wrong", "")


@pytest.mark.parametrize(
    ("index", "text", "message"),
    [(1, "", "Type an answer"), (3, "Colorado", CLICK_A_STATE), (3, "51", CLICK_A_STATE)],
)
def test_an_answer_that_cannot_be_read_is_refused(
    app: Flask, student: User, round_token: str, index: int, text: str, message: str
) -> None:
    with app.app_context():
        me = db.session.get(User, student.id)
        with pytest.raises(Refused, match=message):
            _answer(me, _round(round_token), index, text)
        db.session.rollback()
        assert _reviews() == 0
        assert db.session.execute(select(func.count()).select_from(MemoryCard)).scalar_one() == 0
