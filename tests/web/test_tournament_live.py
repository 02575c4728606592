"""A class tournament's match game played on the two teams' own devices, through the Flask client
(issue 22).

Rulings checked: P-K8 (a game due is played at a live table whose seat 0 is team A's and seat 1 team
B's; the first student of a team to take its seat holds it; a teammate is told who does; a student
of another team or class finds no table; the game is dealt when both teams sit, with who starts as
the match decides, P-K2), P-K9 (the result is recorded into the match by the app when the game
ends, standing at once, exactly once; while it is played students record nothing by hand; the
teacher's word still goes, and the live end then records nothing), P-K10 (the teacher's round page
shows the round's live games, and a part of it the page asks for again).
"""

# ruff: noqa: F811  (``teacher`` is test_tournament_play's fixture, taken as a parameter)

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from tests.conftest import client_for, csrf_token
from tests.web.test_live import INDEX, join, post, table_row
from tests.web.test_live_race import call, hands, right_call, wrong_call
from tests.web.test_teach import World, token_for
from tests.web.test_tournament_play import (  # noqa: F401 (fixture)
    make_tournament,
    match_games,
    teacher,
    team_id,
    text_of,
    the_match,
)
from tests.web.test_tournaments import Teacher, add_students
from trainer.web.extensions import db
from trainer.web.models import LiveSeat, LiveTable, StateIqGame, User
from trainer.web.tournament_play import live_games


class Team:
    """A student's client at a match: its page, and its forms."""

    def __init__(self, client: FlaskClient, tid: int, mid: int):
        self.client = client
        self.url = f"/tournaments/{tid}/matches/{mid}"

    def on_devices(self, number: int, game: str):
        token = csrf_token(self.client, self.url)
        return self.client.post(
            f"{self.url}/live",
            data={"live-csrf_token": token, "live-number": str(number), "live-game": game},
        )

    def record(self, number: int, game: str, winner: str):
        token = csrf_token(self.client, self.url)
        return self.client.post(
            f"{self.url}/games",
            data={
                "game-csrf_token": token,
                "game-number": str(number),
                "game-game": game,
                "game-winner": winner,
            },
        )

    def text(self) -> str:
        response = self.client.get(self.url)
        assert response.status_code == 200
        return text_of(response.get_data(as_text=True))


def code_of(response) -> str:
    assert response.status_code == 302, response.get_data(as_text=True)
    found = re.fullmatch(r"/play/live/([A-Z0-9]+)(\?.*)?", response.location)
    assert found, response.location
    return found.group(1)


def setup(world: World, teacher: Teacher) -> tuple[int, int]:
    """Two teams (team 1 river and kid00, side A; team 2 kid01 and kid02), round 1 paired."""
    tid = make_tournament(world, teacher)
    return tid, the_match(world.app, tid, 1).id


def start_game(world: World, tid: int, mid: int, number: int, game: str, first: str = "river"):
    """``first`` takes their team's seat, then the other team's student; the game is dealt."""
    other = "kid01" if first == "river" else "river"
    one = Team(client_for(world.app, first), tid, mid)
    two = Team(client_for(world.app, other), tid, mid)
    code = code_of(one.on_devices(number, game))
    assert table_row(world.app, code).status == "waiting"
    assert code_of(two.on_devices(number, game)) == code
    assert table_row(world.app, code).status == "playing"
    return code, (one, two) if first == "river" else (two, one)


def live_table(app: Flask, code: str) -> LiveTable:
    return table_row(app, code)


def record_games(teacher_client: FlaskClient, tid: int, mid: int) -> None:
    """The teacher records games 1 to 3 (team B wins the Dashing States), so game 4, Play the
    Ranks, is due."""
    token = token_for(teacher_client)
    for number, game, winner in (
        (1, "border-up", "a"),
        (2, "state-iq", "a"),
        (3, "dashing-states", "b"),
    ):
        done = teacher_client.post(
            f"/tournaments/{tid}/matches/{mid}/games",
            data={
                "game-csrf_token": token,
                "game-number": str(number),
                "game-game": game,
                "game-winner": winner,
            },
        )
        assert done.status_code == 302


def test_a_border_up_race_of_a_match_is_played_live_and_recorded_by_the_app(world, teacher):
    """P-K8, P-K9: seat 0 is team A's, seat 1 team B's; the race's result is the match's game 1,
    recorded when it ends, standing at once (nobody entered or confirmed it)."""
    app = world.app
    tid, mid = setup(world, teacher)
    river = Team(client_for(app, "river"), tid, mid)
    assert "Play game 1 on our own devices" in river.text()
    code = code_of(river.on_devices(1, "border-up"))
    row = live_table(app, code)
    assert (row.game, row.tournament_match_id, row.match_game) == ("border-up", mid, 1)
    # Waiting for the other team: no lobby, no code to share.
    waiting = river.client.get(f"{INDEX}{code}").get_data(as_text=True)
    assert "starts as soon as a student of the other team" in waiting
    assert "The table's code" not in waiting
    kid01 = Team(client_for(app, "kid01"), tid, mid)
    assert "river holds Team 1’s seat" in kid01.text()
    assert code_of(kid01.on_devices(1, "border-up")) == code
    with app.app_context():
        seats = dict(
            db.session.execute(
                select(LiveSeat.seat, LiveSeat.user_id).where(LiveSeat.table_id == row.id)
            ).all()
        )
    assert seats == {0: world.student.id, 1: _id(app, "kid01")}
    rounds = hands(app, code)
    assert set(rounds) == {0, 1}
    assert match_games(app, mid) == []  # nothing recorded while it is played
    assert call(river.client, code, right_call(app, rounds[0].hand)).status_code == 302
    games = match_games(app, mid)
    assert len(games) == 1
    game = games[0]
    assert (game.number, game.game, game.winner_id) == (1, "border-up", team_id(app, tid, 1))
    assert game.entered_by_id is None and game.entered_team_id is None
    assert game.confirmed_at is not None  # the app's word stands (P-K9)
    page = river.text()
    assert "The app (played on your devices)" in page
    assert "Now: game 2, State IQ" in page
    # The finished table leads back to the match, not to play again.
    over = river.client.get(f"{INDEX}{code}").get_data(as_text=True)
    assert f"/tournaments/{tid}/matches/{mid}" in over and "Race again" not in over
    refused = post(river.client, code, "rematch")
    assert refused.status_code == 302 and live_table(app, code).rematch_code is None


def _id(app: Flask, username: str) -> int:
    with app.app_context():
        return db.session.execute(select(User.id).where(User.username == username)).scalar_one()


def test_a_live_end_records_once(world, teacher):
    """P-K9: a call after the race is decided, a refresh and the recorder run again record nothing
    more."""
    app = world.app
    tid, mid = setup(world, teacher)
    code, (river, kid01) = start_game(world, tid, mid, 1, "border-up")
    rounds = hands(app, code)
    assert call(kid01.client, code, wrong_call(app, rounds[1].hand)).status_code == 302
    assert call(river.client, code, right_call(app, rounds[0].hand)).status_code == 302
    river.client.get(f"{INDEX}{code}")
    kid01.client.get(f"{INDEX}{code}")
    with app.app_context():
        live_games.record_end(live_table(app, code).id)
        db.session.commit()
    games = match_games(app, mid)
    assert len(games) == 1
    # kid01 called first, wrong: team A (river's) wins (L-R2).
    assert games[0].winner_id == team_id(app, tid, 1)


def test_a_teammate_plays_along_and_strangers_find_no_table(world, teacher):
    """P-K8: the first of a team to take the seat holds it; a teammate is told who, and the table's
    pages are not found for them; a student of another class, or a classmate on no team of the
    match, finds no match and no table, and the code names no table."""
    app = world.app
    tid, mid = setup(world, teacher)
    river = Team(client_for(app, "river"), tid, mid)
    code = code_of(river.on_devices(1, "border-up"))
    kid00 = Team(client_for(app, "kid00"), tid, mid)
    told = kid00.on_devices(1, "border-up")
    assert told.status_code == 302 and told.location == kid00.url
    assert "river holds Team 1’s seat for game 1" in text_of(
        kid00.client.get(kid00.url).get_data(as_text=True)
    )
    assert kid00.client.get(f"{INDEX}{code}").status_code == 404
    # A classmate on no team of this match (make_tournament leaves kid03 out of 2 teams of 2).
    add_students(world, 1, prefix="solo")
    solo = client_for(app, "solo00")
    assert Team(solo, tid, mid).on_devices(1, "border-up").status_code == 404
    assert solo.get(f"{INDEX}{code}").status_code == 404
    joined = join(solo, code)
    assert joined.status_code == 400 and "No open table has that code" in joined.get_data(
        as_text=True
    )
    otter = world.client("other_student")
    assert Team(otter, tid, mid).on_devices(1, "border-up").status_code == 404
    assert otter.get(f"{INDEX}{code}").status_code == 404
    # The seats did not change: river alone, the table waiting.
    with app.app_context():
        seats = db.session.execute(
            select(LiveSeat.seat, LiveSeat.user_id)
            .where(LiveSeat.table_id == live_table(app, code).id)
            .order_by(LiveSeat.seat)
        ).all()
    assert [tuple(s) for s in seats] == [(0, world.student.id), (1, None)]
    # The seat holder cannot move to the other team's seat: a waiting table has no lobby.
    moved = post(river.client, code, "sit", version=live_table(app, code).version, seat=1)
    assert moved.status_code == 302 and live_table(app, code).status == "waiting"


def test_a_stale_or_odd_form_changes_nothing(world, teacher):
    """P-K8: a game that is not the one due, an odd form, and the teacher's press change nothing."""
    app = world.app
    tid, mid = setup(world, teacher)
    river = Team(client_for(app, "river"), tid, mid)
    for number, game in ((2, "state-iq"), (1, "state-iq"), (1, "chess")):
        answer = river.on_devices(number, game)
        assert answer.status_code == 302 and answer.location == river.url
    token = token_for(teacher.client)
    by_teacher = teacher.client.post(
        river.url + "/live",
        data={"live-csrf_token": token, "live-number": "1", "live-game": "border-up"},
    )
    assert by_teacher.status_code == 302
    with app.app_context():
        assert db.session.execute(select(LiveTable.id)).first() is None


def test_students_record_nothing_by_hand_while_a_game_is_live_but_the_teacher_may(world, teacher):
    """P-K9: while game 1 is played live, a student's result and finish are refused; the teacher's
    result stands, and the live end then records nothing (the game is no longer the one due)."""
    app = world.app
    tid, mid = setup(world, teacher)
    code, (river, kid01) = start_game(world, tid, mid, 1, "border-up")
    refused = kid01.record(1, "border-up", "b")
    assert refused.status_code == 302
    assert "being played on your devices" in kid01.text()
    assert match_games(app, mid) == []
    token = token_for(teacher.client)
    by_teacher = teacher.client.post(
        river.url + "/games",
        data={
            "game-csrf_token": token,
            "game-number": "1",
            "game-game": "border-up",
            "game-winner": "b",
        },
    )
    assert by_teacher.status_code == 302
    rounds = hands(app, code)
    assert call(river.client, code, right_call(app, rounds[0].hand)).status_code == 302
    assert live_table(app, code).status == "over"
    games = match_games(app, mid)
    assert [(g.number, g.winner_id) for g in games] == [(1, team_id(app, tid, 2))]
    page = teacher.client.get(f"/tournaments/{tid}/live").get_data(as_text=True)
    assert "Not recorded" in text_of(page)


def test_state_iq_first_guesser_is_the_team_that_just_won_border_up(world, teacher):
    """P-K2 at a live table: team B won the Border-Up race just before, so team B's seat (1)
    guesses first at the State IQ duel, whichever team sat first."""
    app = world.app
    tid, mid = setup(world, teacher)
    code, (river, kid01) = start_game(world, tid, mid, 1, "border-up")
    rounds = hands(app, code)
    assert call(river.client, code, wrong_call(app, rounds[0].hand)).status_code == 302
    assert match_games(app, mid)[0].winner_id == team_id(app, tid, 2)
    duel, _ = start_game(world, tid, mid, 2, "state-iq", first="river")
    row = live_table(app, duel)
    assert row.first_leader == 1
    with app.app_context():
        sides = dict(
            db.session.execute(
                select(LiveSeat.seat, StateIqGame.first_guesser)
                .join(StateIqGame, StateIqGame.id == LiveSeat.state_iq_game_id)
                .where(LiveSeat.table_id == row.id)
            ).all()
        )
    assert sides == {0: "computer", 1: "student"}  # each side's own view: seat 1 guesses first
    page = text_of(kid01.client.get(f"{INDEX}{duel}").get_data(as_text=True))
    assert "Your tournament match decided who guesses first: you guess first" in page


def test_the_teachers_round_page_shows_the_live_games(world, teacher):
    """P-K10: the round page lists each live game as it stands, and its part (asked for every few
    seconds by the page) changes its version when a game does; only the class's teacher gets it."""
    app = world.app
    tid, mid = setup(world, teacher)
    page = text_of(teacher.client.get(f"/teach/tournaments/{tid}").get_data(as_text=True))
    assert "Games on the students’ devices" in page
    assert "js/tournament_live.js" in teacher.client.get(f"/teach/tournaments/{tid}").get_data(
        as_text=True
    )
    part = f"/tournaments/{tid}/live"

    def version() -> str:
        html = teacher.client.get(part).get_data(as_text=True)
        return re.search(r'data-tlive-version="([0-9a-f]+)"', html).group(1)

    before = version()
    code, (river, _kid01) = start_game(world, tid, mid, 1, "border-up")
    playing = version()
    assert playing != before
    assert "being played now, river (Team 1) vs kid01 (Team 2)" in text_of(
        teacher.client.get(part).get_data(as_text=True)
    )
    rounds = hands(app, code)
    call(river.client, code, right_call(app, rounds[0].hand))
    assert version() != playing
    shown = text_of(teacher.client.get(part).get_data(as_text=True))
    assert "over, Team 1 won" in shown and "Recorded in the match by the app" in shown
    assert world.client("other_teacher").get(part).status_code == 404
    assert client_for(app, "river").get(part).status_code == 403


def test_migration_0024_adds_and_removes_the_tables_match_columns(tmp_path):
    """0024 adds live_table's match columns and index in place, and takes them away again."""
    from flask_migrate import downgrade, upgrade
    from sqlalchemy import inspect

    from tests.web.migrations import empty_database

    with empty_database(tmp_path, "sqlite"):
        upgrade(revision="0024_live_tournament")
        columns = {c["name"] for c in inspect(db.engine).get_columns("live_table")}
        assert {"tournament_match_id", "match_game", "first_leader"} <= columns
        downgrade(revision="0023_live_state_iq")
        columns = {c["name"] for c in inspect(db.engine).get_columns("live_table")}
        assert not {"tournament_match_id", "match_game", "first_leader"} & columns


def test_play_the_ranks_is_led_by_the_dashing_winner_and_recorded_at_its_last_move(world, teacher):
    """P-K2, P-K8, P-K9: team B won the Dashing States just before (recorded by the teacher), so
    team B's seat leads Play the Ranks (it discards first, P-R1); both seats drill (P-K7); the
    game's last move records the match's game 4."""
    from trainer.games import Params, make_game, replay
    from trainer.web import get_deck

    app = world.app
    tid, mid = setup(world, teacher)
    record_games(teacher.client, tid, mid)
    code, (river, kid01) = start_game(world, tid, mid, 4, "play-the-ranks")
    row = live_table(app, code)
    assert row.first_leader == 1
    with app.app_context():
        drills = (
            db.session.execute(select(LiveSeat.drill).where(LiveSeat.table_id == row.id))
            .scalars()
            .all()
        )
    assert drills == [True, True]
    by_seat = {0: river.client, 1: kid01.client}
    moves = 0
    while (row := live_table(app, code)).status != "over":
        with app.app_context():
            game = make_game(row.game, get_deck(), Params(2, 1, row.first_leader))
        state = replay(game, row.seed, row.actions)
        if moves == 0:
            assert state.current_player() == 1
        seat = state.current_player()
        answer = post(by_seat[seat], code, "move", ply=row.ply, action=state.legal_actions()[0])
        assert answer.status_code == 302
        moves += 1
        assert moves < 200
    with app.app_context():
        results = dict(
            db.session.execute(
                select(LiveSeat.seat, LiveSeat.result).where(LiveSeat.table_id == row.id)
            ).all()
        )
    games = match_games(app, mid)
    assert [g.number for g in games] == [1, 2, 3, 4]
    expected = (
        team_id(app, tid, 1)
        if results[0] == "won"
        else team_id(app, tid, 2)
        if results[1] == "won"
        else None
    )
    assert games[3].winner_id == expected and games[3].entered_by_id is None


def test_a_teammates_match_page_follows_the_live_game(world, teacher):
    """P-K10: while the game due is played on the devices, the match page asks for the match's
    version again (and loads itself when it changed): the version changes when the game ends."""
    app = world.app
    tid, mid = setup(world, teacher)
    kid00 = Team(client_for(app, "kid00"), tid, mid)
    assert "tournament_live.js" not in kid00.client.get(kid00.url).get_data(as_text=True)
    code, (river, _kid01) = start_game(world, tid, mid, 1, "border-up")
    page = kid00.client.get(kid00.url).get_data(as_text=True)
    assert "tournament_live.js" in page and "data-tlive-reload" in page
    # No result form for a game the app records; the teammate is told who plays it.
    assert "who won it?" not in page
    assert "river holds your team’s seat" in text_of(page)

    def version() -> str:
        html = kid00.client.get(f"{kid00.url}/live").get_data(as_text=True)
        return re.search(r'data-tlive-version="([0-9a-f]+)"', html).group(1)

    during = version()
    rounds = hands(app, code)
    call(river.client, code, right_call(app, rounds[0].hand))
    assert version() != during
    assert "Games won: Team 1 1, Team 2 0" in kid00.text()
    assert world.client("other_student").get(f"{kid00.url}/live").status_code == 404


def test_a_waiting_table_closes_when_the_game_is_recorded_by_hand(world, teacher):
    """P-K9: while only one team sits, the game may still be played with the cards: recorded by
    hand, its waiting table is closed (its page says so), and nobody can sit there any more."""
    app = world.app
    tid, mid = setup(world, teacher)
    river = Team(client_for(app, "river"), tid, mid)
    code = code_of(river.on_devices(1, "border-up"))
    kid01 = Team(client_for(app, "kid01"), tid, mid)
    assert kid01.record(1, "border-up", "b").status_code == 302
    assert [g.number for g in match_games(app, mid)] == [1]
    assert live_table(app, code).status == "closed"
    page = text_of(river.client.get(f"{INDEX}{code}").get_data(as_text=True))
    assert "recorded on the match page before the other team took its seat" in page
    late = kid01.on_devices(1, "border-up")
    assert late.status_code == 302 and late.location == kid01.url
    assert live_table(app, code).status == "closed"


def test_a_game_ended_with_no_result_records_nothing_and_is_played_again(world, teacher):
    """P-K9: a game at the table that ends with no result (a duel a student left, L-T12; a table
    quiet for a day, L-T13) records nothing: the game is still due, at a new table."""
    from sqlalchemy import update

    from trainer.web.live import routes as live_routes

    app = world.app
    tid, mid = setup(world, teacher)
    code, _clients = start_game(world, tid, mid, 1, "border-up")
    row = live_table(app, code)
    with app.test_request_context():

        def give_up() -> bool:
            db.session.execute(
                update(LiveTable).where(LiveTable.id == row.id).values(status="over")
            )
            return True

        assert live_routes._commit_and_announce(row.id, code, give_up)
    assert match_games(app, mid) == []
    again, _clients = start_game(world, tid, mid, 1, "border-up")
    assert again != code
    assert live_table(app, code).tournament_match_id is None  # an ordinary finished table now
    assert live_table(app, again).match_game == 1


def test_a_dashing_states_race_of_a_match_is_recorded_for_team_b(world, teacher):
    """P-K8, P-K9: team B's student calls first, right: the match's game 3 is team B's."""
    from tests.web.test_live_dashing import call as dashing_call
    from tests.web.test_live_dashing import call_data, rounds

    app = world.app
    tid, mid = setup(world, teacher)
    token = token_for(teacher.client)
    for number, game in ((1, "border-up"), (2, "state-iq")):
        teacher.client.post(
            f"/tournaments/{tid}/matches/{mid}/games",
            data={
                "game-csrf_token": token,
                "game-number": str(number),
                "game-game": game,
                "game-winner": "tie",
            },
        )
    code, (_river, kid01) = start_game(world, tid, mid, 3, "dashing-states", first="kid01")
    assert live_table(app, code).first_leader is None  # a race: nobody starts first (P-K2)
    cards = rounds(app, code)[1].cards
    assert dashing_call(kid01.client, code, call_data(app, cards)).status_code == 302
    games = match_games(app, mid)
    assert [(g.number, g.game, g.winner_id) for g in games][-1] == (
        3,
        "dashing-states",
        team_id(app, tid, 2),
    )


# --- what the first version left (issue 22): tables closed by the teacher, the tidy, the projector


def test_a_waiting_table_closes_when_the_teacher_types_the_match_result(world, teacher):
    """P-K9: the teacher's typed result on the control page closes the match's table still waiting
    for a team, in the same unit; its page says why, and nobody can sit there any more."""
    app = world.app
    tid, mid = setup(world, teacher)
    river = Team(client_for(app, "river"), tid, mid)
    code = code_of(river.on_devices(1, "border-up"))
    version = live_table(app, code).version
    assert teacher.result(tid, mid, 2, 1).status_code == 302
    row = live_table(app, code)
    assert (row.status, row.version) == ("closed", version + 1) and row.finished_at is not None
    page = text_of(river.client.get(f"{INDEX}{code}").get_data(as_text=True))
    assert "Your teacher entered the match’s result before the other team took its seat" in page
    kid01 = Team(client_for(app, "kid01"), tid, mid)
    late = kid01.on_devices(1, "border-up")
    assert late.status_code == 302 and late.location == kid01.url
    assert live_table(app, code).status == "closed" and match_games(app, mid) == []


def test_a_waiting_table_closes_when_the_match_is_finished_in_the_app(world, teacher):
    """P-K9: the match finished (the teams' finish, confirmed) closes its waiting table; its page
    says the match was finished, not that the game was recorded."""
    from sqlalchemy import update

    from trainer.games.tournament import EnteredBy
    from trainer.web.models import TournamentMatch

    app = world.app
    tid, mid = setup(world, teacher)
    river = Team(client_for(app, "river"), tid, mid)
    code = code_of(river.on_devices(1, "border-up"))
    with app.app_context():  # as the app's finish leaves it (its closing is tested by hand above)
        db.session.execute(
            update(TournamentMatch)
            .where(TournamentMatch.id == mid)
            .values(entered_at=live_games.utcnow(), entered_by=EnteredBy.APP, a_games=0, b_games=0)
        )
        assert live_games.close_waiting(mid, None, live_games.utcnow())
        db.session.commit()
    page = text_of(river.client.get(f"{INDEX}{code}").get_data(as_text=True))
    assert "The match was finished on the match page before the other team took its seat" in page


def test_a_waiting_table_left_by_an_entered_result_closes_when_the_round_moves_on(world, teacher):
    """P-K9: the round moving on (and so the tournament ending) closes any table of the
    tournament's matches still waiting for a team: no game of them is due any more."""
    from sqlalchemy import update

    from trainer.games.tournament import EnteredBy
    from trainer.web.models import TournamentMatch

    app = world.app
    tid, mid = setup(world, teacher)
    river = Team(client_for(app, "river"), tid, mid)
    code = code_of(river.on_devices(1, "border-up"))
    with app.app_context():  # a result entered without closing it (as before issue 22's fix)
        db.session.execute(
            update(TournamentMatch)
            .where(TournamentMatch.id == mid)
            .values(
                entered_at=live_games.utcnow(),
                entered_by=EnteredBy.TEACHER,
                a_games=1,
                b_games=0,
                tied_games=0,
                winner_id=team_id(app, tid, 1),
            )
        )
        db.session.commit()
    assert live_table(app, code).status == "waiting"
    assert teacher.advance(tid, 1).status_code == 302
    assert live_table(app, code).status == "closed"
    page = text_of(river.client.get(f"{INDEX}{code}").get_data(as_text=True))
    assert "before the other team took its seat, so it will not be played here" in page


def test_a_waiting_table_quiet_for_a_day_is_given_up(world, teacher):
    """L-T13, P-K9: a match's table waiting for a team that nobody changed or looked at for a day
    is closed by the tidy (once); its page says so, and the game, still due, is opened again at a
    new table."""
    from tests.web.test_live_robust import later

    app = world.app
    tid, mid = setup(world, teacher)
    river = Team(client_for(app, "river"), tid, mid)
    code = code_of(river.on_devices(1, "border-up"))
    runner = app.test_cli_runner()
    with later(hours=23, minutes=59):
        assert "0 live tables given up." in runner.invoke(args=["live-tidy"]).output
        assert live_table(app, code).status == "waiting"
    with later(hours=24, minutes=1):
        assert "1 live table given up." in runner.invoke(args=["live-tidy"]).output
        assert live_table(app, code).status == "closed"
        assert "0 live tables given up." in runner.invoke(args=["live-tidy"]).output
        page = text_of(river.client.get(f"{INDEX}{code}").get_data(as_text=True))
        assert "Nobody came to this table for a day, so it was given up" in page
        assert match_games(app, mid) == []
        again = code_of(river.on_devices(1, "border-up"))
        assert again != code and live_table(app, again).status == "waiting"
        assert live_table(app, code).tournament_match_id is None


def test_a_waiting_table_is_given_up_when_read_after_a_day(world, teacher):
    """L-T13: reading the waiting table's page a day later gives it up too."""
    from tests.web.test_live_robust import later

    app = world.app
    tid, mid = setup(world, teacher)
    river = Team(client_for(app, "river"), tid, mid)
    code = code_of(river.on_devices(1, "border-up"))
    with later(hours=24, minutes=1):
        page = text_of(river.client.get(f"{INDEX}{code}").get_data(as_text=True))
        assert "Nobody came to this table for a day" in page
        assert live_table(app, code).status == "closed"


def test_the_projector_follows_the_live_games_in_team_names(world, teacher):
    """P-K10: the projector shows each match's game on the devices (waiting for a team, being
    played, over with the winner) in team names only, and asks for that part again
    (``?view=projector``) as the round page does; only the class's teacher gets it."""
    from tests.web.test_security import assert_strict_page

    app = world.app
    tid, mid = setup(world, teacher)
    projector = teacher.projector(tid)
    assert_strict_page(projector)
    assert 'id="tournament-live"' in projector and "js/tournament_live.js" in projector
    assert f'data-tlive-url="/tournaments/{tid}/live?view=projector"' in projector
    assert "On the students’ devices" not in projector  # nothing played on the devices yet
    part = f"/tournaments/{tid}/live?view=projector"

    def shown() -> tuple[str, str]:
        html = teacher.client.get(part).get_data(as_text=True)
        live_part = re.search(r'<div id="tournament-live".*?</div>', html, re.S).group(0)
        for name in ("river", "kid00", "kid01", "kid02"):  # no student's username (P-K10)
            assert name not in live_part
        version = re.search(r'data-tlive-version="([0-9a-f]+)"', html).group(1)
        return text_of(html), version

    _empty, before = shown()
    river = Team(client_for(app, "river"), tid, mid)
    code = code_of(river.on_devices(1, "border-up"))
    text, waiting = shown()
    assert "Game 1, Border-Up: Team 1 is ready, waiting for Team 2." in text
    assert waiting != before
    assert "Team 1 is ready, waiting for Team 2" in text_of(teacher.projector(tid))
    kid01 = Team(client_for(app, "kid01"), tid, mid)
    assert code_of(kid01.on_devices(1, "border-up")) == code
    text, playing = shown()
    assert "Game 1, Border-Up: being played now." in text and playing != waiting
    rounds = hands(app, code)
    call(river.client, code, right_call(app, rounds[0].hand))
    text, over = shown()
    assert "Game 1, Border-Up: over, Team 1 won." in text and over != playing
    assert world.client("other_teacher").get(part).status_code == 404
    assert client_for(app, "river").get(part).status_code == 403
