"""Drill only on what was taught (#21): rulings D-H1 (only met rankings hidden and asked),
D-H2 (only the student's own answers on met facts count), D-H3 (a peek is a miss, once), D-H4
(the new-game page explains drill; it is off by default)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from flask import Flask
from sqlalchemy import func, select

from tests.conftest import csrf_token
from trainer.facts import Facet
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.guards import Refused, Stale
from trainer.web.models import CardGame, MemoryCard, ReviewLog, User, utcnow
from trainer.web.play import games as games_views
from trainer.web.play.common import TABLE_MOVE_MADE
from trainer.web.play.forms import TableMove
from trainer.web.play.games import ALREADY_PEEKED, NOTHING_TO_PEEK

INDEX = "/play/games/"
RANKINGS = (Facet.SIZE, Facet.STATEHOOD, Facet.POPULATION, Facet.ZONE)


def meet(app: Flask, student_id: int, keys: list[str] | None = None) -> None:
    """Give the student a memory card for ``keys`` (default: every ranking and zone fact)."""
    with app.app_context():
        if keys is None:
            keys = [f"{card.postal}:{facet.value}" for card in get_deck() for facet in RANKINGS]
        now = utcnow()
        db.session.add_all(
            MemoryCard(
                student_id=student_id,
                fact_key=key,
                facet=key.split(":")[1],
                state=1,
                step=0,
                due=now + dt.timedelta(days=1),
                last_review=now,
                lapses=0,
                reps=1,
                introduced_at=now,
            )
            for key in keys
        )
        db.session.commit()


@pytest.fixture(autouse=True)
def known_seeds(monkeypatch):
    seeds = iter(range(7001, 7100))
    monkeypatch.setattr(games_views, "new_seed", lambda: next(seeds))


def new_game(client, drill=True, game="geoplunge-51", players="3"):
    data = {
        "csrf_token": csrf_token(client, INDEX),
        "game": game,
        "players": players,
        "team_size": "1",
        "level": "medium",
    }
    if drill:
        data["drill"] = "y"
    response = client.post(INDEX, data=data)
    assert response.status_code == 302
    return response.location.split("?")[0]


def row_of(app, url) -> CardGame:
    with app.app_context():
        row = db.session.execute(
            select(CardGame).where(CardGame.token == url.rsplit("/", 1)[1])
        ).scalar_one()
        db.session.expunge(row)
        return row


def deck_of(app):
    with app.app_context():
        return get_deck()


def reviews(app, url) -> list[tuple[str, str, str]]:
    with app.app_context():
        return [
            tuple(r)
            for r in db.session.execute(
                select(ReviewLog.fact_key, ReviewLog.verdict, ReviewLog.item).where(
                    ReviewLog.round_token == f"game:{url.rsplit('/', 1)[1]}"
                )
            ).all()
        ]


def hand_of(app, url) -> list[str]:
    with app.app_context():
        row = db.session.execute(
            select(CardGame).where(CardGame.token == url.rsplit("/", 1)[1])
        ).scalar_one()
        return list(games_views._load(row).observation(0)["hand"])


# --- D-H4: the new-game page ------------------------------------------------------------------


def test_new_game_page_explains_drill_and_it_is_off_for_a_student_who_met_no_ranking(player):
    """D-H4."""
    html = player.get(INDEX).get_data(as_text=True)
    assert "Drill mode is for practising the rankings you have already met" in html
    assert "You have not met any rankings yet" in html
    box = re.search(r'<input[^>]*name="drill"[^>]*>', html)
    assert box and "checked" not in box.group(0)


def test_new_game_page_for_a_student_who_met_rankings_keeps_the_default(player, app, student):
    """D-H4: today's default (off) is kept; the hint drops the 'not met' sentence."""
    meet(app, student.id, ["CO:size"])
    html = player.get(INDEX).get_data(as_text=True)
    assert "You have not met any rankings yet" not in html
    box = re.search(r'<input[^>]*name="drill"[^>]*>', html)
    assert box and "checked" not in box.group(0)


# --- D-H1: only met rankings are hidden and asked -------------------------------------------


def test_no_ranking_met_drill_hides_nothing_and_records_nothing(player, app):
    """D-H1: a student who met no ranking sees every rank and is asked nothing."""
    url = new_game(player)
    html = player.get(url).get_data(as_text=True)
    assert "Rankings hidden" not in html and "Peek" not in html
    deck = deck_of(app)
    hand = hand_of(app, url)
    for postal in hand:
        assert f"<dd>{deck[postal].size_rank}</dd>" in html
    # a play with no number is played as without drill
    with app.app_context():
        row = db.session.execute(
            select(CardGame).where(CardGame.token == url.rsplit("/", 1)[1])
        ).scalar_one()
        state = games_views._load(row)
        action = state.legal_actions()[0]
        ply = row.ply
    response = player.post(
        url, data={"csrf_token": csrf_token(player, url), "ply": ply, "action": action}
    )
    assert response.status_code == 302
    assert row_of(app, url).ply > ply
    assert reviews(app, url) == []
    assert row_of(app, url).drill_answers == 0


def test_only_met_rankings_are_hidden(player, app, student):
    """D-H1: with one card's size met, only that rank is hidden, with its Peek; the rest show."""
    url = new_game(player)
    hand = hand_of(app, url)
    first = hand[0]
    meet(app, student.id, [f"{first}:size", f"{first}:zone"])
    html = player.get(url).get_data(as_text=True)
    deck = deck_of(app)
    assert f'value="{first}:size"' in html  # its peek button
    assert html.count('name="peek"') == 1
    assert "Rankings hidden" not in html
    block = html.split(f'<span class="gp-card__postal">{first}</span>')[1].split("</dl>")[0]
    assert f"<dd>{deck[first].size_rank}</dd>" not in block
    assert f"<dd>{deck[first].statehood_rank}</dd>" in block
    for postal in hand[1:]:
        assert f"<dd>{deck[postal].size_rank}</dd>" in html


def test_everything_met_hides_every_rank_and_no_rank_reaches_the_page(player, app, student):
    """D-H1: every ranking met: every rank on the student's cards is hidden; none is in the HTML."""
    meet(app, student.id)
    url = new_game(player)
    html = player.get(url).get_data(as_text=True)
    hand = hand_of(app, url)
    assert html.count("Rankings hidden") == len(hand)
    assert html.count('name="peek"') == 3 * len(hand)
    for postal in hand:
        # the card's block holds no rank number
        block = html.split(f'<span class="gp-card__postal">{postal}</span>')[1].split("</dl>")[0]
        assert not re.search(r"<dd>\d+</dd>", block)


# --- D-H3: peek ------------------------------------------------------------------------------


def test_peek_shows_the_rank_and_is_one_miss_and_a_replay_changes_nothing(player, app, student):
    """D-H3: a peek is recorded once as wrong (the "I don't know" path); sent again, nothing changes."""
    meet(app, student.id)
    url = new_game(player)
    hand = hand_of(app, url)
    postal = hand[0]
    ply = row_of(app, url).ply
    data = {"csrf_token": csrf_token(player, url), "ply": ply, "peek": f"{postal}:size"}
    response = player.post(f"{url}/peek", data=data)
    assert response.status_code == 302
    assert reviews(app, url) == [(f"{postal}:size", "wrong", f"{ply}:{postal}:size")]
    row = row_of(app, url)
    assert (row.drill_answers, row.drill_right) == (1, 0)
    html = player.get(url).get_data(as_text=True)
    assert f"<dd>{deck_of(app)[postal].size_rank}</dd>" in html
    assert f'value="{postal}:size"' not in html
    again = player.post(f"{url}/peek", data=data, follow_redirects=True)
    assert ALREADY_PEEKED in again.get_data(as_text=True)
    assert len(reviews(app, url)) == 1
    assert row_of(app, url).drill_answers == 1


def test_peek_service_directly(app, student):
    """D-H3 through the service: recorded once, Stale on replay or an old ply, Refused when not hidden."""
    meet(app, student.id)
    with app.test_request_context():
        row = games_views.new_card_game(student.id, "geoplunge-51", 3, 1, "medium", True)
        db.session.commit()
        user = db.session.get(User, student.id)
        now = utcnow()
        postal = games_views._load(row).observation(0)["hand"][0]
        with pytest.raises(Refused, match=re.escape(NOTHING_TO_PEEK)):
            games_views.play_card_game_peek(row, "XX:size", row.ply, user, now)
        with pytest.raises(Stale, match=re.escape(TABLE_MOVE_MADE)):
            games_views.play_card_game_peek(row, f"{postal}:size", row.ply + 1, user, now)
        peeked = games_views.play_card_game_peek(row, f"{postal}:size", row.ply, user, now)
        assert not peeked.right
        with pytest.raises(Stale, match=re.escape(ALREADY_PEEKED)):
            games_views.play_card_game_peek(row, f"{postal}:size", row.ply, user, now)
        count = db.session.execute(select(func.count()).select_from(ReviewLog)).scalar_one()
        assert count == 1


def test_a_peeked_rank_is_not_asked_again_on_that_move(app, student):
    """D-H3 with D-H2: after a peek the play on that ranking needs no number and records nothing more."""
    meet(app, student.id)
    with app.test_request_context():
        row = games_views.new_card_game(student.id, "geoplunge-51", 3, 1, "medium", True)
        db.session.commit()
        user = db.session.get(User, student.id)
        state = games_views._load(row)
        action = state.legal_actions()[0]
        move = state.decode(action)
        key = f"{move.card}:{move.category.slug}"
        games_views.play_card_game_peek(row, key, row.ply, user, utcnow())
        played = games_views.play_card_game_move(row, TableMove(row.ply, action), user, utcnow())
        assert played.answers == []
        count = db.session.execute(select(func.count()).select_from(ReviewLog)).scalar_one()
        assert count == 1
