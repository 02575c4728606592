"""The service functions of a match scored in the app, called directly (no HTTP): each plays one
change once, and a form sent twice (``Stale``) or a change the rules or the teams do not allow
(``Refused``) changes nothing (issue #20, item 4; rulings K2, P-K6)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from tests.web.test_teach import World
from tests.web.test_tournament_play import (
    make_tournament,
    match_games,
    match_row,
    team_id,
    the_match,
)
from tests.web.test_tournaments import Teacher, dump, tournament
from trainer.games.combo import ComboGame, Side
from trainer.games.tournament import EnteredBy, GameStage
from trainer.web.extensions import db
from trainer.web.guards import Refused, Stale
from trainer.web.models import (
    Tournament,
    TournamentGame,
    TournamentMatch,
    TournamentMember,
    User,
    utcnow,
)
from trainer.web.tournament_play.forms import (
    GameAnswer,
    GameEntry,
    MatchAnswerForm,
    MatchGameForm,
    Verdict,
)
from trainer.web.tournament_play.routes import (
    Viewer,
    answer_finish,
    confirm_game,
    draw_for_match,
    finish_match,
    pick_game,
    record_game,
    undo_game,
)
from trainer.web.tournament_play.scoring import MatchPlay


@pytest.fixture
def teacher(world: World) -> Teacher:
    return Teacher(world.client("teacher"))


def _viewer(row: Tournament, match: TournamentMatch, who: str) -> Viewer:
    user = db.session.execute(select(User).where(User.username == who)).scalar_one()
    if user.is_teacher:
        return Viewer(user, None)
    team = db.session.execute(
        select(TournamentMember.team_id).where(
            TournamentMember.tournament_id == row.id, TournamentMember.student_id == user.id
        )
    ).scalar_one()
    return Viewer(user, Side.A if team == match.a_team_id else Side.B)


def play(
    app: Flask, service: Callable[..., str], tid: int, mid: int, who: str | None, *args: Any
) -> str:
    """Call ``service`` as the views do, in an app context of its own, as ``who`` (a username; None
    for a service that takes no viewer); on a refusal roll back, as ``nothing_changed`` does."""
    with app.app_context():
        row = db.session.get(Tournament, tid)
        match = db.session.get(TournamentMatch, mid)
        assert row is not None and match is not None
        viewer = () if who is None else (_viewer(row, match, who),)
        try:
            return service(row, match, *viewer, *args, utcnow())
        except (Stale, Refused):
            db.session.rollback()
            raise


def pending_token(app: Flask, tid: int, mid: int) -> str:
    """The entry of the game waiting for an answer, as the confirmation form names it (P-K6)."""
    with app.app_context():
        row = db.session.get(Tournament, tid)
        match = db.session.get(TournamentMatch, mid)
        games = db.session.execute(
            select(TournamentGame).where(
                TournamentGame.match_id == mid, TournamentGame.stage == GameStage.MATCH
            )
        ).scalars()
        pending = MatchPlay(row, match, list(games), utcnow()).pending
        assert pending is not None
        return pending.token


def refused(app: Flask, error: type[Exception], call: Callable[[], object]) -> str:
    """The words of the refusal ``call`` raises; the tournament's tables are as they were."""
    before = dump(app)
    with pytest.raises(error) as raised:
        call()
    assert dump(app) == before
    if isinstance(raised.value, Stale):
        assert raised.value.category == "error"
    return str(raised.value)


def _answer(token: str, verdict: Verdict) -> GameAnswer:
    return GameAnswer(token, verdict)


BORDER_UP_A = GameEntry(1, ComboGame.BORDER_UP, Side.A)


def test_a_game_is_recorded_once_confirmed_once_and_not_by_its_own_team(world, teacher):
    """P-K6: a game one team records waits for the other team, which confirms it once."""
    app = world.app
    tid = make_tournament(world, teacher)
    mid = the_match(app, tid, 1).id

    message = play(app, record_game, tid, mid, "river", BORDER_UP_A)
    assert message == (
        "Game 1, Border-Up: Team 1 won. It stands once Team 2 confirms it (or your teacher does)."
    )
    (game,) = match_games(app, mid)
    assert (game.number, game.game, game.winner_id) == (1, "border-up", team_id(app, tid, 1))
    assert game.confirmed_at is None

    # Sent twice: the game now waits for the other team, and nothing more is recorded.
    again = refused(app, Stale, lambda: play(app, record_game, tid, mid, "river", BORDER_UP_A))
    assert again.startswith("Game 1 waits for Team 2 to confirm it first.")

    token = pending_token(app, tid, mid)
    own = refused(
        app,
        Refused,
        lambda: play(app, confirm_game, tid, mid, "kid00", _answer(token, Verdict.CONFIRM)),
    )
    assert own.startswith("Your team entered game 1: Team 2 confirms it")
    correcting = refused(
        app,
        Refused,
        lambda: play(app, confirm_game, tid, mid, "kid01", _answer(token, Verdict.B)),
    )
    assert correcting.startswith("Only your teacher can change a result")

    confirmed = play(app, confirm_game, tid, mid, "kid01", _answer(token, Verdict.CONFIRM))
    assert confirmed == "Confirmed: game 1, Border-Up (Team 1 won). It stands."
    assert match_games(app, mid)[0].confirmed_at is not None
    twice = refused(
        app,
        Stale,
        lambda: play(app, confirm_game, tid, mid, "kid01", _answer(token, Verdict.CONFIRM)),
    )
    assert twice == "Game 1 was already confirmed. Nothing was changed."


def test_a_game_not_due_is_stale(world, teacher):
    app = world.app
    tid = make_tournament(world, teacher)
    mid = the_match(app, tid, 1).id
    stale = (
        "That game was already recorded, or it is not the game due now (the page was out of "
        "date). Nothing was changed."
    )
    for entry in (
        None,
        GameEntry(2, ComboGame.BORDER_UP, None),
        GameEntry(1, ComboGame.STATE_IQ, None),
    ):
        assert (
            refused(app, Stale, lambda e=entry: play(app, record_game, tid, mid, "river", e))
            == stale
        )


def test_a_team_takes_back_its_own_game_once(world, teacher):
    app = world.app
    tid = make_tournament(world, teacher)
    mid = the_match(app, tid, 1).id
    play(app, record_game, tid, mid, "river", BORDER_UP_A)
    others = refused(app, Refused, lambda: play(app, undo_game, tid, mid, "kid01", 1))
    assert others.startswith("Team 1 entered game 1: they may take it back.")
    assert play(app, undo_game, tid, mid, "kid00", 1) == (
        "Taken back: game 1, Border-Up. Record it again."
    )
    assert match_games(app, mid) == []
    again = refused(app, Stale, lambda: play(app, undo_game, tid, mid, "kid00", 1))
    assert again == (
        "That game was already taken back, or another was recorded since. Nothing was taken back."
    )


def test_a_finish_is_asked_once_and_answered_by_the_other_team(world, teacher):
    app = world.app
    tid = make_tournament(world, teacher)
    mid = the_match(app, tid, 1).id
    nothing = refused(app, Refused, lambda: play(app, finish_match, tid, mid, "river", 0))
    assert nothing.startswith("No game has been recorded yet")
    play(app, record_game, tid, mid, "river", BORDER_UP_A)
    play(
        app, confirm_game, tid, mid, "kid01", _answer(pending_token(app, tid, mid), Verdict.CONFIRM)
    )

    old_page = refused(app, Stale, lambda: play(app, finish_match, tid, mid, "river", 0))
    assert old_page.startswith("A game was recorded or taken back since that page was shown")
    asked = play(app, finish_match, tid, mid, "river", 1)
    assert asked == (
        "You asked to finish the match at Team 1 1–0 Team 2. It is over when Team 2 confirms it "
        "(or your teacher does)."
    )
    assert match_row(app, mid).finish_asked_at is not None
    twice = refused(app, Stale, lambda: play(app, finish_match, tid, mid, "river", 1))
    assert twice.startswith(
        "Team 1 asked to finish the match: Team 2 (or your teacher) answers first."
    )

    own = refused(app, Refused, lambda: play(app, answer_finish, tid, mid, "kid00", 1, True))
    assert own.startswith("Your team asked to finish the match")
    over = play(app, answer_finish, tid, mid, "kid01", 1, True)
    assert over.startswith("Match over: ")
    row = match_row(app, mid)
    assert (row.a_games, row.b_games, row.entered_by) == (1, 0, EnteredBy.APP)
    again = refused(app, Stale, lambda: play(app, answer_finish, tid, mid, "kid01", 1, True))
    assert again.startswith("This match's result is already in")


def test_the_afternoon_draw_and_picks_are_made_once(world, teacher):
    """K2: the draw is made once; the team that picks second picks a different game."""
    app = world.app
    tid = make_tournament(world, teacher)
    morning = the_match(app, tid, 1).id
    words = refused(app, Refused, lambda: play(app, draw_for_match, tid, morning, None))
    assert words == "A morning match has no draw: its games are played in order."
    teacher.result(tid, morning, 2, 0, 0)
    for number in range(1, 4):  # rounds 2-4, paired and entered
        assert teacher.advance(tid, number).status_code == 302
        teacher.result(tid, the_match(app, tid, number + 1).id, 2, 0, 0)
    assert teacher.advance(tid, 4).status_code == 302
    assert tournament(app, tid).round == 5
    mid = the_match(app, tid, 5).id

    first_pick = lambda: play(app, pick_game, tid, mid, None, 0, ComboGame.STATE_IQ)  # noqa: E731
    assert refused(app, Stale, first_pick).startswith("Draw the cards first")
    assert play(app, draw_for_match, tid, mid, None).endswith("picks the first game.")
    drawn = match_row(app, mid).draw
    again = refused(app, Stale, lambda: play(app, draw_for_match, tid, mid, None))
    assert again == "The cards were already drawn for this match. Nothing was changed."
    assert match_row(app, mid).draw == drawn

    assert refused(app, Refused, lambda: play(app, pick_game, tid, mid, None, 0, None)) == (
        "Pick a game."
    )
    assert first_pick().endswith("picked State IQ.")
    assert refused(app, Stale, first_pick).startswith("That pick was already made")
    same = refused(
        app, Refused, lambda: play(app, pick_game, tid, mid, None, 1, ComboGame.STATE_IQ)
    )
    assert same == "State IQ was picked first: the other team picks a different game."
    assert play(app, pick_game, tid, mid, None, 1, ComboGame.BORDER_UP).endswith(
        "picked Border-Up."
    )
    assert match_row(app, mid).picks == ["state-iq", "border-up"]


def test_the_forms_parse_what_was_sent(app: Flask):
    def form(cls, prefix: str, data: dict[str, str]):
        fields = {f"{prefix}-{k}": v for k, v in data.items()}
        with app.test_request_context(method="POST", data=fields):
            return cls(prefix=prefix, meta={"csrf": False})

    game = form(MatchGameForm, "game", {"number": "3", "game": "state-iq", "winner": "tie"})
    assert game.entry() == GameEntry(3, ComboGame.STATE_IQ, None)
    for odd in (
        {"number": "²", "game": "state-iq", "winner": "a"},
        {"number": "3", "game": "x", "winner": "a"},
        {"number": "3", "game": "state-iq", "winner": "c"},
        {},
    ):
        assert form(MatchGameForm, "game", odd).entry() is None

    answer = form(MatchAnswerForm, "confirm", {"expected": "1.5", "answer": "b"})
    assert answer.game_answer().verdict is Verdict.B and Verdict.B.winner is Side.B
    with pytest.raises(Refused, match="confirm the result, or dispute it"):
        form(MatchAnswerForm, "confirm", {"answer": "decline"}).game_answer()
    finish = form(MatchAnswerForm, "answer", {"expected": "2", "answer": "decline"})
    assert finish.finish_answer() is False and finish.expected_number() == 2
    with pytest.raises(Refused, match="finish the match, or not yet"):
        form(MatchAnswerForm, "answer", {"answer": "dispute"}).finish_answer()
