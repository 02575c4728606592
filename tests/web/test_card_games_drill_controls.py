"""Drill controls only for what is asked (#21, ruling D-H1): at the table, a card's drill control
(type the rank, make the call) is shown only for a fact the server asks about (one the student
has met); for the rest the plain control is shown, and the server plays that plain move as without
drill, recording nothing. A plain move that skips a question the server does ask is refused and
changes nothing, so a met fact's question cannot be dodged."""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Callable

import pytest

from tests.web.test_card_games import flashes, move, state_of, stored
from tests.web.test_card_games_drill import meet, new_game, reviews
from tests.web.test_security import assert_strict_page
from trainer.cards import Category
from trainer.web.play import games as games_views
from trainer.web.play.games import MISSING_RANK


@pytest.fixture(autouse=True)
def known_seeds(monkeypatch):
    """Deal the games from known seeds, so every run plays the same cards (G9)."""
    seeds = iter(range(7301, 7400))
    monkeypatch.setattr(games_views, "new_seed", lambda: next(seeds))


def play_until(player, app, url, wanted: Callable) -> object:
    """Play the first legal move, plainly, until ``wanted(state)`` holds. Nothing is met yet, so
    drill asks nothing and records nothing (D-H1)."""
    for _ in range(120):
        state = state_of(app, url)
        if wanted(state):
            return state
        assert not state.is_terminal(), "the game ended first"
        response = move(player, url, action=state.legal_actions()[0])
        assert response.status_code == 302
    raise AssertionError("never got there")


def page(player, url) -> str:
    html = player.get(url).get_data(as_text=True)
    assert_strict_page(html)
    return html_lib.unescape(html)


def card_block(html: str, postal: str) -> str:
    """The part of the hand's HTML for the card ``postal``: its card and its controls."""
    hand = html.split('id="hand-title"')[1]
    return hand.split(f'<span class="gp-card__postal">{postal}</span>')[1].split("</li>")[0]


def assert_refused_and_unchanged(player, app, url, action, says: str) -> None:
    """The plain move for a fact that is asked: refused with ``says``; nothing changed."""
    before = stored(app, url)
    move(player, url, action=action)
    after = stored(app, url)
    assert (after.ply, after.actions, after.drill_answers) == (
        before.ply,
        before.actions,
        before.drill_answers,
    )
    assert reviews(app, url) == []
    text = flashes(player, url)
    assert says in html_lib.unescape(text) and "Nothing changed" in text


def assert_played_and_nothing_recorded(player, app, url, action) -> None:
    """The plain move for a fact not met: played as without drill, nothing recorded."""
    before = stored(app, url)
    response = move(player, url, action=action)
    assert response.status_code == 302
    after = stored(app, url)
    assert after.ply > before.ply and action in after.actions[before.ply :]
    assert reviews(app, url) == []
    assert (after.drill_answers, after.drill_right) == (0, 0)


# --- Play the Ranks ----------------------------------------------------------------------------


def _ranks_turn(state, leading: bool) -> bool:
    if state.is_terminal() or state.current_player() != 0 or state.phase != "trick":
        return False
    return (state.legal_actions()[0] >= 100) == leading


def test_ranks_following_calls_only_for_a_met_ranking(player, app, student):
    """D-H1: following, "it wins / it loses" only on the card whose led-category ranking is met;
    the other cards play plainly, with nothing recorded; the plain play of the met card is refused."""
    url = new_game(player, game="play-the-ranks", players="2")
    state = play_until(player, app, url, lambda s: _ranks_turn(s, leading=False))
    trick = state.tricks[-1]
    category = Category.from_slug(trick["category"])
    asked, other = state.hands[0][0], state.hands[0][1]
    meet(app, student.id, [f"{asked}:{category.slug}"])
    deck = state.game.deck
    html = page(player, url)
    assert f"Play {deck[asked].name}: it wins" in card_block(html, asked)
    assert f"Play {deck[asked].name} (" not in card_block(html, asked)
    assert f"Play {deck[other].name}: it wins" not in html
    assert f"Play {deck[other].name} ({deck[other].rank(category)})" in card_block(html, other)
    assert "For a card whose" in html and "say first whether it wins the trick" in html
    game = state.game
    assert_refused_and_unchanged(
        player, app, url, game.card_action(asked), "Say whether your card wins the trick"
    )
    assert_played_and_nothing_recorded(player, app, url, game.card_action(other))


def test_ranks_leading_types_only_a_met_ranking(player, app, student):
    """D-H1: leading, the number is typed only for a met category; a shown one is led plainly,
    with nothing recorded; the plain lead on the met category is refused."""
    url = new_game(player, game="play-the-ranks", players="2")
    state = play_until(player, app, url, lambda s: _ranks_turn(s, leading=True))
    game = state.game
    asked, other = state.hands[0][0], state.hands[0][1]
    meet(app, student.id, [f"{asked}:size"])
    html = page(player, url)
    block = card_block(html, asked)
    radios = re.findall(r'type="radio" name="action" value="(\d+)"', block)
    assert radios == [str(game.lead_action(asked, Category.SIZE))]
    assert 'name="number"' in block
    assert f'value="{game.lead_action(asked, Category.STATEHOOD)}"' in block
    assert f"Lead on statehood ({state.game.deck[asked].statehood_rank})" in block
    assert 'name="number"' not in card_block(html, other)
    assert "For a hidden ranking" in html or "for a hidden ranking" in html
    assert_refused_and_unchanged(
        player,
        app,
        url,
        game.lead_action(asked, Category.SIZE),
        MISSING_RANK.format(card=state.game.deck[asked].name, facet="size"),
    )
    assert_played_and_nothing_recorded(
        player, app, url, game.lead_action(asked, Category.STATEHOOD)
    )


# --- GeoClash Down Back ------------------------------------------------------------------------


def _clash_turn(state, leading: bool) -> bool:
    if state.is_terminal() or state.current_player() != 0:
        return False
    return (not state.trick["cards"]) == leading


def test_clash_following_worst_call_only_for_a_met_ranking(player, app, student):
    """D-H1: following, the worst-so-far call only on the card whose ranking in the category is
    met; another card plays plainly, with nothing recorded; the met card's plain play is refused."""
    url = new_game(player, game="geoclash-down-back", players="3")
    state = play_until(player, app, url, lambda s: _clash_turn(s, leading=False))
    category = Category.from_slug(state.trick["category"])
    legal = state.legal_actions()
    cards = [state.decode(a).card for a in legal]
    asked, other = cards[0], cards[1]
    meet(app, student.id, [f"{asked}:{category.slug}"])
    deck = state.game.deck
    html = page(player, url)
    assert f"Play {deck[asked].name}: the worst so far" in card_block(html, asked)
    assert f"Play {deck[other].name}: the worst so far" not in html
    assert f"Play {deck[other].name} ({deck[other].rank(category)})" in card_block(html, other)
    assert "say first whether it is the worst so far" in html
    game = state.game
    assert_refused_and_unchanged(
        player, app, url, game.card_action(asked), "whether your card is the worst so far"
    )
    assert_played_and_nothing_recorded(player, app, url, game.card_action(other))


def test_clash_leading_types_only_a_met_ranking(player, app, student):
    """D-H1: leading, the number is typed only for the met category; the others lead plainly."""
    url = new_game(player, game="geoclash-down-back", players="3")
    state = play_until(player, app, url, lambda s: _clash_turn(s, leading=True))
    game = state.game
    asked = state.hands[0][0]
    meet(app, student.id, [f"{asked}:population"])
    html = page(player, url)
    block = card_block(html, asked)
    radios = re.findall(r'type="radio" name="action" value="(\d+)"', block)
    assert radios == [str(game.lead_action(asked, Category.POPULATION))]
    assert f"Lead on size ({state.game.deck[asked].size_rank})" in block
    for postal in state.hands[0][1:]:
        assert 'name="number"' not in card_block(html, postal)
    assert_refused_and_unchanged(
        player,
        app,
        url,
        game.lead_action(asked, Category.POPULATION),
        MISSING_RANK.format(card=state.game.deck[asked].name, facet="population"),
    )
    assert_played_and_nothing_recorded(player, app, url, game.lead_action(asked, Category.SIZE))


# --- GeoPower Toss -----------------------------------------------------------------------------


def _toss_follows_with_two_legal_cards(state) -> bool:
    if (
        state.is_terminal()
        or state.current_player() != 0
        or state.phase != "trick"
        or not state.trick
    ):
        return False
    legal = set(state.legal_actions())
    return sum(1 for p in state.hands[0] if state.game.card_action(p) in legal) >= 2


def test_toss_beats_call_only_for_a_met_geopower_ranking(player, app, student):
    """D-H1: following, the beats call only on the card whose GeoPower ranking is met; another
    card (zones not met: shown) plays plainly, with nothing recorded; the met card's plain play is
    refused."""
    url = new_game(player, game="geopower-toss", players="4")
    state = play_until(player, app, url, _toss_follows_with_two_legal_cards)
    game = state.game
    category = state.geopower
    legal = set(state.legal_actions())
    cards = [p for p in state.hands[0] if game.card_action(p) in legal]
    asked, other = cards[0], cards[1]
    meet(app, student.id, [f"{asked}:{category.slug}"])
    deck = state.game.deck
    html = page(player, url)
    assert f"Play {deck[asked].name}: it beats it" in card_block(html, asked)
    assert f"Play {deck[other].name}: it beats it" not in html
    assert f"Play {deck[other].name} ({deck[other].rank(category)})" in card_block(html, other)
    assert "Zone hidden" not in html and "zone colours are hidden" not in html
    assert "For a card whose" in html
    assert_refused_and_unchanged(
        player, app, url, game.card_action(asked), "beats the best card of the led zone"
    )
    assert_played_and_nothing_recorded(player, app, url, game.card_action(other))


# --- GeoPlunge 51 ------------------------------------------------------------------------------


def _51_turn_with_two_playable_cards(state) -> bool:
    if state.is_terminal() or state.current_player() != 0:
        return False
    return len({state.decode(a).card for a in state.legal_actions()}) >= 2


def test_51_types_only_a_met_ranking(player, app, student):
    """D-H1: the number is typed only for a met ranking; a shown one is announced plainly, with
    nothing recorded; the plain play of the met ranking (no number) is refused."""
    url = new_game(player, game="geoplunge-51", players="3")
    state = play_until(player, app, url, _51_turn_with_two_playable_cards)
    game = state.game
    legal = set(state.legal_actions())
    asked = next(p for p in state.hands[0] if game.action(p, Category.SIZE) in legal)
    meet(app, student.id, [f"{asked}:size"])
    deck = state.game.deck
    html = page(player, url)
    block = card_block(html, asked)
    radios = re.findall(r'type="radio" name="action" value="(\d+)"', block)
    assert radios == [str(game.action(asked, Category.SIZE))]
    assert f"Statehood {deck[asked].statehood_rank}" in block
    for postal in state.hands[0]:
        if postal != asked:
            assert 'name="number"' not in card_block(html, postal)
    assert "For a hidden ranking" in html
    assert_refused_and_unchanged(
        player,
        app,
        url,
        game.action(asked, Category.SIZE),
        MISSING_RANK.format(card=deck[asked].name, facet="size"),
    )
    plain = next(a for a in sorted(legal) if state.decode(a).card != asked)
    assert_played_and_nothing_recorded(player, app, url, plain)
