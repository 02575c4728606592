"""Combo 1 matches against the computer through the Flask client: order, who starts, the bell,
the result, refusals and privacy (K1, K2, R2, P-K2)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from sqlalchemy import select, update

from tests.conftest import client_for, csrf_token, make_user
from tests.web.test_border_up import a_solution, call
from tests.web.test_security import assert_strict_page
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import (
    BorderUpRound,
    CardGame,
    ComboMatch,
    ComboMatchGame,
    DashingRound,
    ReviewLog,
    StateIqGame,
    utcnow,
)

INDEX = "/play/combo/"
ROWS = {
    "border-up": BorderUpRound,
    "state-iq": StateIqGame,
    "dashing-states": DashingRound,
    "play-the-ranks": CardGame,
}


def start(client, fmt="morning", level="medium") -> str:
    response = client.post(
        INDEX, data={"csrf_token": csrf_token(client, INDEX), "format": fmt, "level": level}
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.location


def match_of(app, url) -> ComboMatch:
    with app.app_context():
        row = db.session.execute(
            select(ComboMatch).where(ComboMatch.token == url.rsplit("/", 1)[1])
        ).scalar_one()
        db.session.expunge(row)
        return row


def games_of(app, url) -> list[ComboMatchGame]:
    match = match_of(app, url)
    with app.app_context():
        rows = (
            db.session.execute(
                select(ComboMatchGame)
                .where(ComboMatchGame.match_id == match.id)
                .order_by(ComboMatchGame.position)
            )
            .scalars()
            .all()
        )
        for row in rows:
            db.session.expunge(row)
        return list(rows)


def deal_next(client, url, position=None):
    position = len(games_of(client.application, url)) if position is None else position
    return client.post(
        f"{url}/next", data={"csrf_token": csrf_token(client, url), "position": str(position)}
    )


def finish(
    app, entry: ComboMatchGame, result: str, after: dt.timedelta = dt.timedelta(seconds=30)
) -> None:
    """End a game as if it had been played: its result, at the round's start + ``after``."""
    model = ROWS[entry.game]
    with app.app_context():
        match = db.session.get(ComboMatch, entry.match_id)
        at = match.started_at + after
        values = {"result": result}
        if model in (BorderUpRound, DashingRound):
            values |= {"called_at": at}
            if model is BorderUpRound:
                values |= {"revealed_at": match.started_at, "call": [["MD", "NC", "VA"], ["x"]]}
        else:
            values |= {"finished_at": at}
        db.session.execute(update(model).where(model.token == entry.token).values(**values))
        db.session.commit()


def test_visitors_and_teachers_may_not_play(client, auth, teacher):
    assert "/auth/login" in client.get(INDEX).location
    auth.login("teacher1")
    assert client.get(INDEX).status_code == 403


def test_a_morning_match_plays_the_four_games_in_order_and_passes_the_start_along(player, app):
    """K2 morning order; the Border-Up winner guesses first in State IQ and the Dashing States
    winner leads Play the Ranks (P-K2)."""
    url = start(player)
    html = player.get(url).get_data(as_text=True)
    assert (
        "The 20-minute clock starts when the first game is dealt" in html
        and "Deal game 1: Border-Up" in html
    )
    assert_strict_page(html)
    assert match_of(app, url).started_at is None

    game_url = deal_next(player, url).location
    assert "/play/border-up/" in game_url
    match = match_of(app, url)
    assert match.bell_at - match.started_at == dt.timedelta(minutes=20)
    page = player.get(game_url).get_data(as_text=True)
    assert "Game 1 of your Combo 1 morning match" in page and "Back to the match" in page
    # The Border-Up round is played on its own page: a right call wins it.
    player.post(f"{game_url}/ready", data={"csrf_token": csrf_token(player, game_url)})
    first, second = a_solution(app, game_url)
    call(player, game_url, first, second)
    html = player.get(url).get_data(as_text=True)
    assert "You won" in html and "Deal game 2: State IQ" in html

    game_url = deal_next(player, url).location
    assert "/play/state-iq/" in game_url
    entries = games_of(app, url)
    assert [e.game for e in entries] == ["border-up", "state-iq"] and entries[1].first_side == "a"
    with app.app_context():
        iq = db.session.execute(
            select(StateIqGame).where(StateIqGame.token == entries[1].token)
        ).scalar_one()
        assert iq.first_guesser == "student"
        hidden = get_deck()[iq.computer_card].name
        deck = get_deck()
    page = player.get(game_url).get_data(as_text=True)
    assert "You won Border-Up, so you guess first." in page and "Statehood draw:" not in page
    # The computer's card stays on the server, on the match page too.
    match_page = player.get(url).get_data(as_text=True)
    draw = match_of(app, url).draw
    if hidden not in {deck[draw["a"]].name, deck[draw["b"]].name}:
        assert hidden not in match_page
    assert "Go on with game 2: State IQ" in match_page
    # No next game while this one is being played.
    assert deal_next(player, url).status_code == 302 and len(games_of(app, url)) == 2

    finish(app, entries[1], "lost")
    deal_next(player, url)
    entries = games_of(app, url)
    assert entries[2].game == "dashing-states"
    finish(app, entries[2], "won")
    deal_next(player, url)
    entries = games_of(app, url)
    assert entries[3].game == "play-the-ranks" and entries[3].first_side == "a"
    with app.app_context():
        ranks = db.session.execute(
            select(CardGame).where(CardGame.token == entries[3].token)
        ).scalar_one()
        assert (ranks.first_leader, ranks.drill, ranks.players) == (0, True, 2)
    assert "You won Dashing States, so you lead the first trick." in player.get(
        f"/play/games/{entries[3].token}"
    ).get_data(as_text=True)
    finish(app, entries[3], "drawn")
    # Then the order starts again.
    deal_next(player, url)
    assert games_of(app, url)[4].game == "border-up"
    html = player.get(url).get_data(as_text=True)
    assert "Games won so far: you 2, the computer team 1, 1 tied." in html


def test_after_a_tied_border_up_the_statehood_draw_decides_r2(player, app):
    url = start(player)
    deal_next(player, url)
    finish(app, games_of(app, url)[0], "tied")
    game_url = deal_next(player, url).location
    entry = games_of(app, url)[1]
    assert entry.first_side is None
    page = player.get(game_url).get_data(as_text=True)
    assert "Statehood draw:" in page


def test_a_game_finished_after_the_bell_does_not_count_k2(player, app):
    url = start(player)
    deal_next(player, url)
    finish(app, games_of(app, url)[0], "lost", dt.timedelta(minutes=2))
    deal_next(player, url)
    # State IQ ends after the bell: it does not count, though the student won it.
    finish(app, games_of(app, url)[1], "won", dt.timedelta(minutes=21))
    with app.app_context():
        match = db.session.execute(select(ComboMatch)).scalar_one()
        match.bell_at = match.started_at + dt.timedelta(minutes=20)
        match.started_at -= dt.timedelta(minutes=30)
        match.bell_at -= dt.timedelta(minutes=30)
        db.session.commit()
    # The times were set before the clock moved back: set them again relative to the new start.
    finish(app, games_of(app, url)[0], "lost", dt.timedelta(minutes=2))
    finish(app, games_of(app, url)[1], "won", dt.timedelta(minutes=21))
    html = player.get(url).get_data(as_text=True)
    assert "The computer team wins the match" in html
    assert "No: finished after the bell" in html
    assert match_of(app, url).result == "lost"
    response = deal_next(player, url)
    assert response.status_code == 302 and len(games_of(app, url)) == 2
    assert "The bell has rung" in player.get(url).get_data(as_text=True)


def test_stopping_ends_the_match_with_the_games_so_far_k1(player, app):
    url = start(player)
    deal_next(player, url)
    finish(app, games_of(app, url)[0], "won", dt.timedelta(0))
    deal_next(player, url)  # State IQ under way: it will not count
    response = player.post(f"{url}/stop", data={"csrf_token": csrf_token(player, url)})
    assert response.status_code == 302
    html = player.get(url).get_data(as_text=True)
    assert "You win the match!" in html and "No: not finished at the bell" in html
    assert match_of(app, url).result == "won"
    # Stopping again changes nothing; the game page says the game no longer counts.
    player.post(f"{url}/stop", data={"csrf_token": csrf_token(player, url)})
    assert match_of(app, url).result == "won"
    iq = games_of(app, url)[1]
    assert "the bell has rung" in player.get(f"/play/state-iq/{iq.token}").get_data(as_text=True)


def test_a_replayed_deal_changes_nothing(player, app):
    url = start(player)
    assert "/play/border-up/" in deal_next(player, url, 0).location
    finish(app, games_of(app, url)[0], "won")
    # The same form sent again (position 0) deals nothing new.
    assert deal_next(player, url, 0).location.endswith(url.rsplit("/", 1)[1])
    assert len(games_of(app, url)) == 1
    assert player.post(f"{url}/next", data={"position": "1"}).status_code in (302, 400)
    assert len(games_of(app, url)) == 1


@pytest.mark.parametrize("seed_winner", ["a", "b"])
def test_an_afternoon_match_alternates_two_different_picks_k2(player, app, seed_winner):
    url = start(player, "afternoon")
    with app.app_context():
        match = db.session.execute(select(ComboMatch)).scalar_one()
        match.draw = {**match.draw, "winner": seed_winner}
        match.picks = None if seed_winner == "a" else ["dashing-states"]
        db.session.commit()
    html = player.get(url).get_data(as_text=True)
    assert ("you pick" if seed_winner == "a" else "the computer team picks") in html
    assert "Deal game 1" not in html
    if seed_winner == "b":
        # The computer's pick cannot be picked again.
        response = player.post(
            f"{url}/pick", data={"csrf_token": csrf_token(player, url), "game": "dashing-states"}
        )
        assert response.status_code == 400 and "Not a valid choice" in response.get_data(
            as_text=True
        )
        assert match_of(app, url).picks == ["dashing-states"]
    player.post(f"{url}/pick", data={"csrf_token": csrf_token(player, url), "game": "border-up"})
    picks = match_of(app, url).picks
    assert len(picks) == 2 and picks[0] != picks[1] and "border-up" in picks
    assert picks[0] == ("border-up" if seed_winner == "a" else "dashing-states")
    # A second pick changes nothing.
    player.post(f"{url}/pick", data={"csrf_token": csrf_token(player, url), "game": "state-iq"})
    assert match_of(app, url).picks == picks
    deal_next(player, url)
    finish(app, games_of(app, url)[0], "won")
    deal_next(player, url)
    finish(app, games_of(app, url)[1], "won")
    deal_next(player, url)
    assert [e.game for e in games_of(app, url)] == [picks[0], picks[1], picks[0]]
    assert match_of(app, url).bell_at - match_of(app, url).started_at == dt.timedelta(minutes=12)


def test_bad_input_is_refused_plainly(player, app):
    response = player.post(
        INDEX,
        data={"csrf_token": csrf_token(player, INDEX), "format": "midnight", "level": "medium"},
    )
    assert response.status_code == 400 and "Not a valid choice" in response.get_data(as_text=True)
    assert (
        player.post(INDEX, data={"format": "morning", "level": "medium"}).status_code == 400
    )  # no CSRF token
    url = start(player)
    response = player.post(
        f"{url}/pick", data={"csrf_token": csrf_token(player, url), "game": "border-up"}
    )
    assert (
        response.status_code == 302 and match_of(app, url).picks is None
    )  # a morning match has no picks
    assert player.get("/play/combo/not-a-match").status_code == 404


def test_another_students_match_is_not_found(player, app):
    url = start(player)
    deal_next(player, url)
    make_user(app, "student2")
    other = client_for(app, "student2")
    assert other.get(url).status_code == 404
    assert (
        other.post(
            f"{url}/next", data={"csrf_token": csrf_token(other, INDEX), "position": "1"}
        ).status_code
        == 404
    )
    assert (
        other.post(f"{url}/stop", data={"csrf_token": csrf_token(other, INDEX)}).status_code == 404
    )
    # The game itself is the first student's, and its page shows no match to anyone else.
    entry = games_of(app, url)[0]
    assert other.get(f"/play/border-up/{entry.token}").status_code == 404
    assert match_of(app, url).result == "playing"


def test_every_answer_in_a_match_is_a_review(player, app):
    url = start(player)
    game_url = deal_next(player, url).location
    player.post(f"{game_url}/ready", data={"csrf_token": csrf_token(player, game_url)})
    first, second = a_solution(app, game_url)
    call(player, game_url, first, second)
    with app.app_context():
        reviews = (
            db.session.execute(select(ReviewLog).where(ReviewLog.mode == "border_up"))
            .scalars()
            .all()
        )
    assert len(reviews) == 2


def test_the_index_lists_past_matches(player, app):
    url = start(player)
    player.post(f"{url}/stop", data={"csrf_token": csrf_token(player, url)})
    html = player.get(INDEX).get_data(as_text=True)
    assert "Your matches" in html and url.rsplit("/", 1)[1] in html and "Morning" in html
    assert utcnow().strftime("%d %b %Y") in html


# --- Issue #21: the round clock on a game's page (P-K7, K2) -----------------------------------

CLOCK = re.compile(r'<p class="clock[^"]*" role="timer"[^>]*data-clock-left="(\d+)"[^>]*>')
CLOCK_JS = "/static/js/clock.js"
GAME_PAGES = {
    "border-up": "/play/border-up/",
    "state-iq": "/play/state-iq/",
    "dashing-states": "/play/dashing-states/",
    "play-the-ranks": "/play/games/",
}


def clock_left(html: str) -> int:
    found = CLOCK.findall(html)
    assert len(found) == 1, "one round clock on the page"
    return int(found[0])


def test_every_game_page_of_a_running_match_shows_the_match_clock_p_k7(player, app):
    """Each game's page shows the time left that the match page shows, counted down by clock.js
    without reloading the page at the bell (a game that ends after the bell does not count, K2)."""
    url = start(player)
    for number, game in enumerate(GAME_PAGES, start=1):
        game_url = deal_next(player, url).location
        assert GAME_PAGES[game] in game_url
        match_left = clock_left(player.get(url).get_data(as_text=True))
        page = player.get(game_url).get_data(as_text=True)
        assert_strict_page(page)
        game_left = clock_left(page)
        assert abs(game_left - match_left) <= 2 and 1195 <= game_left <= 1200
        timer = CLOCK.search(page).group(0)
        assert "data-clock-reload" not in timer and 'aria-label="Time left in the round"' in timer
        assert "aria-live" not in timer  # a timer: not read out every second
        assert 'data-clock-bell="The bell has rung: this game no longer counts."' in timer
        assert f'src="{CLOCK_JS}?v=' in page and f"Game {number} of your Combo 1" in page
        # A game already finished says only that the match is over when the bell rings (the
        # Border-Up call that finish() stores is a stand-in its page cannot show).
        finish(app, games_of(app, url)[-1], "won")
        if game != "border-up":
            page = player.get(game_url).get_data(as_text=True)
            assert 'data-clock-bell="The bell has rung: the match is over."' in page
    # The match page's clock still reloads at the bell.
    assert "data-clock-reload" in CLOCK.search(player.get(url).get_data(as_text=True)).group(0)


def test_the_game_clock_matches_a_match_page_part_way_through_the_round(player, app):
    url = start(player, "afternoon")
    with app.app_context():
        match = db.session.execute(select(ComboMatch)).scalar_one()
        match.picks = ["state-iq", "border-up"]
        db.session.commit()
    game_url = deal_next(player, url).location
    with app.app_context():  # 7 minutes 30 seconds into the 12-minute round
        match = db.session.execute(select(ComboMatch)).scalar_one()
        match.started_at -= dt.timedelta(minutes=7, seconds=30)
        match.bell_at -= dt.timedelta(minutes=7, seconds=30)
        db.session.commit()
    match_left = clock_left(player.get(url).get_data(as_text=True))
    page = player.get(game_url).get_data(as_text=True)
    assert abs(clock_left(page) - match_left) <= 2 and 268 <= clock_left(page) <= 270
    assert re.search(r'class="clock__time">4:[23]\d<', page)


@pytest.mark.parametrize("how", ["stopped", "bell"])
def test_after_the_bell_a_game_page_says_so_and_runs_no_clock_k2(player, app, how):
    url = start(player)
    deal_next(player, url)
    finish(app, games_of(app, url)[0], "won", dt.timedelta(0))
    game_url = deal_next(player, url).location  # State IQ, under way
    if how == "stopped":
        player.post(f"{url}/stop", data={"csrf_token": csrf_token(player, url)})
    else:  # the bell rang while the student was away: nothing has settled the match yet
        with app.app_context():
            match = db.session.execute(select(ComboMatch)).scalar_one()
            match.started_at -= dt.timedelta(minutes=21)
            match.bell_at -= dt.timedelta(minutes=21)
            db.session.commit()
    page = player.get(game_url).get_data(as_text=True)
    assert "the bell has rung, so a game still being played does not count" in page
    assert "data-clock-left" not in page and 'role="timer"' not in page
    assert_strict_page(page)


def test_a_game_outside_a_match_shows_no_clock(player):
    from tests.web.test_border_up import deal as deal_border_up
    from tests.web.test_card_games import new_game as new_card_game
    from tests.web.test_dashing import deal as deal_dashing
    from tests.web.test_state_iq import new_game as new_state_iq

    urls = [
        deal_border_up(player),
        new_state_iq(player),
        deal_dashing(player),
        new_card_game(player, game="play-the-ranks", players="2"),
    ]
    for url in urls:
        page = player.get(url).get_data(as_text=True)
        assert "combo-banner" not in page and "data-clock-left" not in page, url
        assert CLOCK_JS not in page
