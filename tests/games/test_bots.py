"""Computer players' thinking lives in one module per game (trainer/games/bots, issue #20), and the
games describe themselves to the rest of the app (flags, summaries, facets) instead of being named."""

from __future__ import annotations

import random

from trainer.cards import load_deck
from trainer.facts import Facet
from trainer.games import REGISTRY, Params, make_game
from trainer.games.bots import BOTS, Bot, bot_for
from trainer.games.state_iq import StateIQGame

DECK = load_deck()
RANKS = {Facet.SIZE, Facet.STATEHOOD, Facet.POPULATION}


def test_every_game_with_choices_has_its_own_bot():
    for cls in REGISTRY:
        game = make_game(cls.slug, DECK, Params())
        bot = bot_for(game)
        assert bot.game is game
        assert (type(bot) is not Bot) == cls.has_choices, cls.slug
        assert bot.search_worlds > 0
    assert set(BOTS) == {cls.slug for cls in REGISTRY if cls.has_choices} | {"state-iq"}


def test_the_rule_player_picks_a_legal_action_in_every_game():
    for cls in [*REGISTRY, StateIQGame]:
        game = make_game(cls.slug, DECK, Params())
        state = game.new_initial_state(1)
        seat = state.current_player()
        legal = state.legal_actions()
        assert bot_for(game).rule_action(state.observation(seat), legal, random.Random(0)) in legal


def test_games_describe_themselves_to_the_web_and_the_modes():
    """The games page's choices, the review log's mode names, the table's flags and the facets a
    drill reviews come from the games (no list of games elsewhere)."""
    assert all(cls.summary for cls in REGISTRY)
    assert [cls.log_mode for cls in REGISTRY] == [cls.slug.replace("-", "_") for cls in REGISTRY]
    assert [cls.slug for cls in REGISTRY if not cls.has_choices] == ["geography-war"]
    assert [cls.slug for cls in REGISTRY if cls.round_log] == ["geoplunge-51"]
    reviews = {cls.slug: set(cls.reviews) for cls in REGISTRY}
    assert reviews.pop("geopower-toss") == RANKS | {Facet.ZONE}
    assert all(facets == RANKS for facets in reviews.values())


def test_state_iq_is_a_registered_game_but_not_a_card_game():
    assert "state-iq" not in REGISTRY and "state-iq" not in REGISTRY.games
    assert REGISTRY.other_games == {"state-iq": StateIQGame}
    assert StateIQGame.reviews == {Facet.POSTAL, Facet.BORDERS, Facet.CAPITAL}
    assert isinstance(make_game("state-iq", DECK, Params()), StateIQGame)
