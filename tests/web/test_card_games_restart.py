"""A card game outlives the server's memory: after a restart (or with several workers, or once the
game has left the in-memory cache) its table is rebuilt from the stored actions by replay."""

from __future__ import annotations

import pytest

from tests.web.test_card_games import move, new_game, state_of, stored
from trainer.web.play import games as games_views


@pytest.mark.parametrize("game", ["geoplunge-51", "geography-war"])
def test_a_game_is_rebuilt_from_its_stored_actions_when_no_copy_is_in_memory(player, app, game):
    url = new_game(player, game=game, players="2")
    before = stored(app, url).ply
    games_views._CACHE.clear()  # as after a restart
    page = player.get(url)
    assert page.status_code == 200
    games_views._CACHE.clear()
    action = state_of(app, url).legal_actions()[0]
    games_views._CACHE.clear()
    response = move(player, url, action=action)
    assert response.status_code == 302
    assert stored(app, url).ply > before
    games_views._CACHE.clear()
    assert player.get(response.location).status_code == 200
