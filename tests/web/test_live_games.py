"""Every card game at a live table, each seat on its own Flask client and Socket.IO test client
(issue 22's server tests): classmates, with the computer in a seat left free, play GeoPlunge 51,
Play the Ranks, GeoPower Toss (in teams), GeoClash Down Back and Geography War to the end. Each kept
move reaches every seat's socket once, as the table's code and new version and nothing else; no
seat's page (the live part live.js fetches) names a card another seat holds; and the results
stored are the game's, each page saying its own."""

from __future__ import annotations

import re

import pytest

from tests.web.live_support import INDEX, join, open_table, post, seats_of, state_of, table_row
from trainer.games.geography_war import MAX_BATTLES

# Every table here is dealt from known seeds (G9): its cards are the same every run.
pytestmark = pytest.mark.usefixtures("live_seeds")

#: (game, seats, players per team): every card game a live table offers.
GAMES = [
    ("geoplunge-51", "3", "1"),
    ("play-the-ranks", "2", "1"),
    ("geopower-toss", "4", "2"),
    ("geoclash-down-back", "3", "1"),
    ("geography-war", "2", "1"),
]


def _names_hidden(state, viewer: int) -> set[str]:
    """The cards ``viewer`` may not see now, but for names the public log has said already."""
    deck = state.game.deck
    public = " ".join(event.text for event in state.log)
    hidden = {deck[p].name for p in state.hidden_from(viewer)}
    return {name for name in hidden if name not in public}


@pytest.mark.parametrize(("game", "seats", "team_size"), GAMES)
def test_classmates_play_every_card_game_to_the_end_each_on_their_own_socket(
    app, school, players, game, seats, team_size
):
    """L-T3, L-T4, L-T5."""
    students = ["ana", "ben", "cai"][: int(seats)]
    clients = [players[name] for name in students]
    code = open_table(clients[0], game=game, players=seats, team_size=team_size)
    for client in clients[1:]:
        assert join(client, code).status_code == 302
    socketio = app.extensions["socketio"]
    ears = [socketio.test_client(app, flask_test_client=client) for client in clients]
    for ear in ears:
        assert ear.emit("watch", {"code": code}, callback=True)["ok"] is True
        ear.get_received()
    post(clients[0], code, "start", version=table_row(app, code).version)
    row = table_row(app, code)
    assert row.status == "playing"
    for ear in ears:  # the start, as one notice
        assert [m["args"][0] for m in ear.get_received() if m["name"] == "changed"] == [
            {"code": code, "version": row.version}
        ]
    # The seat each student took, in the order they came: the host first.
    by_seat = {seat: clients[students.index(name)] for seat, name in _student_seats(app, code)}
    moves = 0
    state = state_of(app, code)
    while row.status == "playing":
        for action in row.actions[len(state.history) :]:  # the game as stored, kept up with
            state.apply_action(action)
        mover = state.current_player()
        assert mover in by_seat, "the computer's seat is never left to move"
        for viewer, client in by_seat.items():
            html = client.get(f"{INDEX}{code}?part=live").get_data(as_text=True)
            hidden = _names_hidden(state, viewer)
            if hidden:  # one search for them all ("West Virginia" names no Virginia card)
                names = "|".join(re.escape(name) for name in sorted(hidden))
                leak = re.search(rf"(?<!West )\b(?:{names})\b", html)
                assert leak is None, (viewer, leak.group(0))
            assert ("Your turn." in html) == (viewer == mover)
        # Geography War's page plays many battles with one press (W5), as a child would.
        batch = {"battles": MAX_BATTLES} if game == "geography-war" else {}
        response = post(
            by_seat[mover], code, "move", ply=row.ply, action=state.legal_actions()[0], **batch
        )
        assert response.status_code == 302 and "since=" in response.location
        after = table_row(app, code)
        assert after.ply > row.ply
        # One notice a move at every seat, the mover's too: the code and the new version only.
        for ear in ears:
            heard = [m["args"][0] for m in ear.get_received() if m["name"] == "changed"]
            assert heard == [{"code": code, "version": after.version}]
        row = after
        moves += 1
        assert moves < 1000, "the game never ended"
    assert row.status == "over"
    final = state_of(app, code)
    assert final.is_terminal() and final.history == row.actions
    winners = set(final.winners())
    stored = {seat: result for seat, _user, _computer, result in seats_of(app, code)}
    for seat, client in by_seat.items():
        html = client.get(INDEX + code).get_data(as_text=True)
        assert ("You won!" in html) == (seat in winners)
        assert (stored[seat] == "won") == (seat in winners)
    # A move sent to a finished game changes nothing and tells no socket.
    post(clients[0], code, "move", ply=row.ply, action=0)
    assert table_row(app, code).version == row.version
    assert all(not ear.get_received() for ear in ears)


def _student_seats(app, code: str) -> list[tuple[int, str]]:
    """Each student's seat and username."""
    from trainer.web.extensions import db
    from trainer.web.models import User

    with app.app_context():
        users = dict(db.session.query(User.id, User.username).all())
    return [
        (seat, users[user_id])
        for seat, user_id, computer, _result in seats_of(app, code)
        if user_id is not None and not computer
    ]
