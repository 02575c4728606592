"""The service functions of State IQ and the card games, called directly (no HTTP): a move is kept
once, a move sent twice or from an out-of-date page raises ``Stale`` and changes nothing, and a
move that is not allowed raises ``Refused`` and changes nothing (but a drill answer that refuses
its play is still recorded, D-F1)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.orm.attributes import set_committed_value

from tests.web import test_state_iq as state_iq
from tests.web.test_card_games_drill import meet
from trainer.cards import Category
from trainer.web.extensions import db
from trainer.web.guards import Refused, Stale
from trainer.web.models import CardGame, ReviewLog, StateIqGame, User, utcnow
from trainer.web.play import games as games_views
from trainer.web.play.common import GAME_OVER, TABLE_MOVE_MADE
from trainer.web.play.forms import TableMove
from trainer.web.play.games import new_card_game, play_card_game_move
from trainer.web.play.routes import MOVE_MADE, _rebuild, play_state_iq_move


def reviews() -> int:
    return db.session.execute(select(func.count()).select_from(ReviewLog)).scalar_one()


def as_stored(model, row_id: int) -> tuple:
    """What the database holds for a game, read past the session."""
    db.session.expire_all()
    row = db.session.get(model, row_id)
    if model is StateIqGame:
        return (row.move_count, list(row.moves), list(row.recorded), row.result)
    return (row.ply, list(row.actions), row.drill_answers, row.drill_right, row.result)


# --- State IQ -------------------------------------------------------------------------------


def iq_game(app, student, **deal) -> str:
    return state_iq.make_game(app, student.id, **deal).rsplit("/", 1)[1]


def iq_row(token: str) -> StateIqGame:
    return db.session.execute(select(StateIqGame).where(StateIqGame.token == token)).scalar_one()


def test_a_state_iq_guess_is_kept_once_and_sent_again_is_stale(app, student):
    token = iq_game(app, student, first="student")
    with app.app_context():
        user = db.session.get(User, student.id)
        row = iq_row(token)
        game = _rebuild(row)
        assert game.waiting_for() == "student_guess"
        assert play_state_iq_move(row, game, "OH", user, utcnow(), 0) is None
        kept = as_stored(StateIqGame, row.id)
        assert kept[:2] == (1, [["guess", "OH"]])
        logged = reviews()

        row = iq_row(token)
        with pytest.raises(Stale) as stale:
            play_state_iq_move(row, _rebuild(row), "TX", user, utcnow(), 0)
        assert str(stale.value) == MOVE_MADE and stale.value.category == "info"
        assert as_stored(StateIqGame, row.id) == kept and reviews() == logged


def test_a_state_iq_move_that_lost_the_race_is_stale(app, student):
    """The page's turn matched what was read, but another request saved a move in between."""
    token = iq_game(app, student, first="student")
    with app.app_context():
        user = db.session.get(User, student.id)
        row = iq_row(token)
        game = _rebuild(row)
        db.session.execute(  # the other request's move, behind this session's back
            update(StateIqGame.__table__)
            .where(StateIqGame.id == row.id)
            .values(moves=[["guess", "TX"]], move_count=1)
        )
        db.session.commit()
        db.session.refresh(row)
        set_committed_value(row, "move_count", 0)  # what this request read before
        set_committed_value(row, "moves", [])
        assert row.move_count == 0, "the page's turn matches what was read"
        with pytest.raises(Stale, match="already made"):
            play_state_iq_move(row, game, "OH", user, utcnow(), 0)
        assert as_stored(StateIqGame, row.id)[:2] == (1, [["guess", "TX"]])
        assert reviews() == 0


def test_a_state_iq_guess_made_twice_is_refused_and_changes_nothing(app, student):
    token = iq_game(app, student, first="student")
    with app.app_context():
        user = db.session.get(User, student.id)
        row = iq_row(token)
        play_state_iq_move(row, _rebuild(row), "OH", user, utcnow(), 0)
        row = iq_row(token)
        game = _rebuild(row)
        if game.waiting_for() != "student_guess":
            pytest.skip("this deal gives a clue before the second guess")
        kept, logged = as_stored(StateIqGame, row.id), reviews()
        with pytest.raises(Refused, match="already guessed Ohio"):
            play_state_iq_move(row, game, "OH", user, utcnow(), 1)
        assert as_stored(StateIqGame, row.id) == kept and reviews() == logged


def test_a_state_iq_clue_of_the_own_state_is_refused_and_a_far_one_is_a_kept_mistake(app, student):
    token = iq_game(
        app, student, first="computer", code="BBB", student_card="CO", computer_card="UT"
    )
    with app.app_context():
        user = db.session.get(User, student.id)
        row = iq_row(token)
        game = _rebuild(row)
        assert game.waiting_for() == "student_clue"
        kept = as_stored(StateIqGame, row.id)
        with pytest.raises(Refused, match="your own state"):
            play_state_iq_move(row, game, "CO", user, utcnow(), row.move_count)
        assert as_stored(StateIqGame, row.id) == kept and reviews() == 0

        row = iq_row(token)
        turn = row.move_count
        mistake = play_state_iq_move(row, _rebuild(row), "ME", user, utcnow(), turn)
        assert mistake is not None and "does not border" in mistake
        after = as_stored(StateIqGame, row.id)
        assert after[0] == turn + 1 and after[1][-1] == ["clue", "ME"]
        logged = db.session.execute(
            select(ReviewLog).where(ReviewLog.fact_key == "CO:borders")
        ).scalar_one()
        assert logged.verdict == "wrong" and logged.answered_postal == "ME"


def test_a_state_iq_move_after_the_end_is_stale(app, student):
    token = iq_game(app, student, first="student")
    with app.app_context():
        user = db.session.get(User, student.id)
        row = iq_row(token)
        turn = 0
        for _ in range(200):
            game = _rebuild(row)
            if game.is_over:
                break
            answer = "UT" if game.waiting_for() == "student_guess" else None
            if answer is None:
                answer = next(
                    s.postal
                    for s in game.deck.neighbours("CO")
                    if s.postal not in {c.value for c in game.half.clues}
                )
            play_state_iq_move(row, game, answer, user, utcnow(), turn)
            row, turn = iq_row(token), turn + 1
        assert row.result != "playing"
        kept, logged = as_stored(StateIqGame, row.id), reviews()
        with pytest.raises(Stale) as stale:
            play_state_iq_move(row, _rebuild(row), "TX", user, utcnow(), turn)
        assert str(stale.value) == GAME_OVER
        assert as_stored(StateIqGame, row.id) == kept and reviews() == logged


# --- the card games -------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def known_seed(monkeypatch):
    monkeypatch.setattr(games_views, "new_seed", lambda: 7001)


def card_game(student: User, slug: str = "geoplunge-51", drill: bool = False) -> CardGame:
    row = new_card_game(student.id, slug, 2, 1, "medium", drill)
    db.session.commit()
    return row


def test_a_card_game_move_is_kept_once_and_sent_again_is_stale(app, student):
    with app.app_context():
        user = db.session.get(User, student.id)
        row = card_game(user)
        ply = row.ply
        action = games_views._load(row).legal_actions()[0]
        played = play_card_game_move(row, TableMove(ply, action), user, utcnow())
        assert played.ply == ply and played.answers == []
        kept = as_stored(CardGame, row.id)
        assert kept[0] > ply and kept[1][ply] == action

        row = db.session.get(CardGame, row.id)
        with pytest.raises(Stale) as stale:
            play_card_game_move(row, TableMove(ply, action), user, utcnow())
        assert str(stale.value) == TABLE_MOVE_MADE
        assert as_stored(CardGame, row.id) == kept


def test_a_card_game_move_that_lost_the_race_is_stale(app, student):
    with app.app_context():
        user = db.session.get(User, student.id)
        row = card_game(user)
        ply, action = row.ply, games_views._load(row).legal_actions()[0]
        db.session.execute(  # another request moved the game on, behind this session's back
            update(CardGame.__table__).where(CardGame.id == row.id).values(ply=ply + 1)
        )
        db.session.commit()
        db.session.refresh(row)
        set_committed_value(row, "ply", ply)  # what this request read before
        assert row.ply == ply, "the page's ply matches what was read"
        with pytest.raises(Stale, match="already made"):
            play_card_game_move(row, TableMove(ply, action), user, utcnow())
        assert as_stored(CardGame, row.id)[0] == ply + 1


@pytest.mark.parametrize("action", [None, 999_999])
def test_an_illegal_card_game_move_is_refused_and_changes_nothing(app, student, action):
    with app.app_context():
        user = db.session.get(User, student.id)
        row = card_game(user)
        kept = as_stored(CardGame, row.id)
        row = db.session.get(CardGame, row.id)
        with pytest.raises(Refused, match="Nothing changed.$"):
            play_card_game_move(row, TableMove(row.ply, action), user, utcnow())
        assert as_stored(CardGame, row.id) == kept and reviews() == 0


def test_a_refused_51_drill_number_is_recorded_then_refused(app, student):
    """D-F1: the play is refused (nothing played), but the wrong number counts as a review."""
    meet(app, student.id)  # D-H1: only met rankings are asked
    with app.app_context():
        user = db.session.get(User, student.id)
        row = card_game(user, drill=True)
        state = games_views._load(row)
        action = state.legal_actions()[0]
        card = state.game.cards[action // 3]
        rank = card.rank(list(Category)[action % 3])
        wrong = str(rank % 50 + 1 if rank < 48 else rank - 10)
        ply, actions = row.ply, list(row.actions)
        with pytest.raises(Refused, match=f"Not quite: {card.name} is"):
            play_card_game_move(row, TableMove(ply, action, number=wrong), user, utcnow())
        assert as_stored(CardGame, row.id)[:4] == (ply, actions, 1, 0)
        assert reviews() == 1

        row = db.session.get(CardGame, row.id)  # the right number plays; the first answer counted
        played = play_card_game_move(row, TableMove(ply, action, number=str(rank)), user, utcnow())
        after = as_stored(CardGame, row.id)
        assert played.answers and after[1][ply] == action and after[2:4] == (1, 0)
        assert reviews() == 1


def test_a_card_game_move_after_the_end_is_stale(app, student):
    with app.app_context():
        user = db.session.get(User, student.id)
        row = card_game(user)
        db.session.execute(
            update(CardGame.__table__).where(CardGame.id == row.id).values(result="won")
        )
        db.session.commit()
        row = db.session.get(CardGame, row.id)
        kept = as_stored(CardGame, row.id)
        action = games_views._load(row).legal_actions()[0]
        with pytest.raises(Stale) as stale:
            play_card_game_move(row, TableMove(row.ply, action), user, utcnow())
        assert str(stale.value) == GAME_OVER
        assert as_stored(CardGame, row.id) == kept
