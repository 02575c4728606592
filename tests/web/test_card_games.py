"""Card games through the Flask client: dealing, moves, refusals, resume, drill reviews, no hidden cards."""

from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import select

from tests.conftest import csrf_token, make_user
from tests.web.test_card_games_drill import meet
from tests.web.test_security import assert_strict_page
from trainer.cards import Category
from trainer.games import Level, Params, make_game, play_computer_turns, replay
from trainer.games.drill import war_result
from trainer.games.geography_war import SETTLE, TURN
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import CardGame, ReviewLog
from trainer.web.play import games as games_views

INDEX = "/play/games/"


@pytest.fixture(autouse=True)
def known_seeds(monkeypatch):
    """Deal the games from known seeds, so every test plays the same cards every run (G9)."""
    seeds = iter(range(7001, 7100))
    monkeypatch.setattr(games_views, "new_seed", lambda: next(seeds))


@pytest.fixture(autouse=True)
def rankings_met(app, student):
    """The student has met every ranking and zone: drill hides them all (D-H1; see
    tests/web/test_card_games_drill.py for a student who has met fewer)."""
    meet(app, student.id)


def new_game(client, game="geoplunge-51", players="3", team_size="1", level="medium", drill=False):
    data = {
        "csrf_token": csrf_token(client, INDEX),
        "game": game,
        "players": players,
        "team_size": team_size,
        "level": level,
    }
    if drill:
        data["drill"] = "y"
    response = client.post(INDEX, data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.location.split("?")[0]


def stored(app, url) -> CardGame:
    with app.app_context():
        row = db.session.execute(
            select(CardGame).where(CardGame.token == url.rsplit("/", 1)[1])
        ).scalar_one()
        db.session.expunge(row)
        return row


def state_of(app, url):
    """The game as the server knows it (tests may look behind the page)."""
    row = stored(app, url)
    with app.app_context():
        game = make_game(row.game, get_deck(), Params(row.players, row.team_size))
        return replay(game, row.seed, row.actions)


def move(client, url, **fields):
    row_ply = fields.pop("ply", None)
    if row_ply is None:
        row_ply = re.search(
            r'name="ply" value="(\d+)"', client.get(url).get_data(as_text=True)
        ).group(1)
    data = {
        "csrf_token": csrf_token(client, url),
        "ply": str(row_ply),
        **{k: str(v) for k, v in fields.items()},
    }
    return client.post(url, data=data)


def reviews(app) -> list[ReviewLog]:
    with app.app_context():
        return db.session.execute(select(ReviewLog).order_by(ReviewLog.id)).scalars().all()


def flashes(client, url) -> str:
    return " ".join(
        re.findall(r'class="flash[^"]*">([^<]*)', client.get(url).get_data(as_text=True))
    )


def set_game(app, url, seed, actions=()) -> None:
    """Give a stored game a known seed (tests need known hands), with the computer seats played."""
    row = stored(app, url)
    with app.app_context():
        game = make_game(row.game, get_deck(), Params(row.players, row.team_size))
        state = game.new_initial_state(seed)
        for action in actions:
            state.apply_action(action)
        play_computer_turns(state, {s: Level(row.level) for s in range(1, row.players)}, seed)
        db.session.execute(
            CardGame.__table__.update()
            .where(CardGame.id == row.id)
            .values(seed=seed, actions=state.history, ply=len(state.history))
        )
        db.session.commit()


# --- who may play ---------------------------------------------------------------------------


def test_visitors_go_to_log_in_and_teachers_may_not_play(client, auth, teacher, app):
    assert "/auth/login" in client.get(INDEX).location
    assert "/auth/login" in client.get(INDEX + "whatever").location
    auth.login("teacher1")
    assert client.get(INDEX).status_code == 403


def test_another_students_game_is_unknown(player, app, auth, client):
    url = new_game(player)
    make_user(app, "student2")
    auth.logout()
    auth.login("student2")
    assert client.get(url).status_code == 404
    before = stored(app, url).actions
    token = csrf_token(client, INDEX)
    assert (
        client.post(url, data={"csrf_token": token, "ply": "0", "action": "0"}).status_code == 404
    )
    assert stored(app, url).actions == before
    assert client.get(INDEX + "no-such-game").status_code == 404


# --- the games page -------------------------------------------------------------------------


def test_games_page_lists_games_levels_and_drill(player):
    html = player.get(INDEX).get_data(as_text=True)
    assert_strict_page(html)
    for text in (
        "GeoPlunge 51",
        "Play the Ranks",
        "Geography War",
        "Teams of 2",
        "Hard: they think ahead",
        "Drill mode",
    ):
        assert text in html


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"game": "poker"}, "Not a valid choice"),
        ({"players": "5", "team_size": "2"}, "5 players cannot be split into teams of 2."),
        ({"players": "9"}, "Not a valid choice"),
        ({"level": "genius"}, "Not a valid choice"),
    ],
)
def test_a_wrong_choice_gets_a_message_and_deals_nothing(player, app, fields, message):
    data = {
        "csrf_token": csrf_token(player, INDEX),
        "game": "geoplunge-51",
        "players": "3",
        "team_size": "1",
        "level": "medium",
    }
    response = player.post(INDEX, data=data | fields)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.execute(select(CardGame)).first() is None


def test_play_the_ranks_and_war_are_always_two_sides(player, app):
    """R1 and W1: both games are for two sides, whatever the form says about players."""
    url = new_game(player, game="play-the-ranks", players="5", team_size="1")
    assert stored(app, url).players == 2


def test_a_new_game_is_dealt_and_the_computer_plays_to_the_students_turn(player, app):
    url = new_game(player, players="4", team_size="2")
    row = stored(app, url)
    state = state_of(app, url)
    assert (row.players, row.team_size, row.level, row.result) == (4, 2, "medium", "playing")
    assert state.current_player() == 0
    assert len(row.actions) == row.ply
    html = player.get(url).get_data(as_text=True)
    assert_strict_page(html)
    assert "Your team" in html and "Your partner (player 3)" in html


# --- moves and refusals ---------------------------------------------------------------------


def test_a_move_is_played_and_the_computer_players_answer(player, app):
    url = new_game(player)
    state = state_of(app, url)
    action = state.legal_actions()[0]
    before = stored(app, url).ply
    response = move(player, url, action=action)
    assert response.status_code == 302 and f"since={before}" in response.location
    row = stored(app, url)
    assert row.actions[before] == action
    assert state_of(app, url).current_player() in (0, -1)
    html = player.get(response.location).get_data(as_text=True)
    assert "What just happened" in html
    assert state.action_to_string(action).split(" and ")[0].replace("Play", "You play") in html


def test_a_replayed_or_stale_move_changes_nothing(player, app):
    url = new_game(player)
    ply = stored(app, url).ply
    action = state_of(app, url).legal_actions()[0]
    move(player, url, action=action, ply=ply)
    after = stored(app, url).actions
    response = move(player, url, action=action, ply=ply)  # the same form sent again
    assert response.status_code == 302
    assert stored(app, url).actions == after
    assert "already made" in flashes(player, url)
    move(player, url, action=action, ply="nonsense")
    assert stored(app, url).actions == after


@pytest.mark.parametrize("action", ["9999", "-1", "abc", "", "151"])
def test_a_forged_or_illegal_move_is_refused(player, app, action):
    url = new_game(player)
    before = stored(app, url).actions
    response = move(player, url, action=action)
    assert response.status_code == 302
    assert stored(app, url).actions == before
    assert "Nothing changed" in flashes(player, url)


def test_a_card_not_in_hand_or_past_51_is_refused(player, app):
    """F1: a card not in the hand, or a ranking that takes the count past 51, changes nothing."""
    url = new_game(player)
    state = state_of(app, url)
    game = state.game
    elsewhere = next(c.postal for c in game.cards if c.postal not in state.hands[0])
    move(player, url, action=game.action(elsewhere, Category.SIZE))
    assert "not in the hand" in flashes(player, url)
    # Play big rankings until some ranking in the student's hand would pass 51 (F1).
    for _ in range(30):
        state = state_of(app, url)
        mine = [game.action(p, c) for p in state.hands[0] for c in Category]
        too_big = [a for a in mine if a not in state.legal_actions()]
        if too_big:
            break
        move(
            player,
            url,
            action=max(
                state.legal_actions(), key=lambda a: game.cards[a // 3].rank(list(Category)[a % 3])
            ),
        )
    before = stored(app, url).actions
    move(player, url, action=too_big[0])
    assert stored(app, url).actions == before
    assert "past 51" in flashes(player, url)


def test_a_finished_game_refuses_moves(player, app):
    url = new_game(player, game="geography-war")
    with app.app_context():
        db.session.execute(CardGame.__table__.update().values(result="won"))
        db.session.commit()
    before = stored(app, url).actions
    move(player, url, battles=1)
    assert stored(app, url).actions == before
    assert "This game is over" in flashes(player, url)


def test_a_missing_csrf_token_is_refused(player, app):
    url = new_game(player)
    before = stored(app, url).actions
    response = player.post(url, data={"ply": str(stored(app, url).ply), "action": "0"})
    assert response.status_code == 400
    assert stored(app, url).actions == before


def test_an_unfinished_game_is_resumed_from_the_games_page(player, app):
    url = new_game(player, game="play-the-ranks")
    html = player.get(INDEX).get_data(as_text=True)
    assert "Carry on" in html and url in html

    def without_tokens(html):
        return re.sub(r'name="csrf_token"[^>]*>', "", html)

    first = without_tokens(player.get(url).get_data(as_text=True))
    assert without_tokens(player.get(url).get_data(as_text=True)) == first


def test_geography_war_plays_ten_battles_at_a_press(player, app):
    url = new_game(player, game="geography-war")
    move(player, url, battles=10)
    state = state_of(app, url)
    assert state.battles == 10 or state.is_terminal()
    move(player, url, battles=500)  # capped at ten per press
    assert state_of(app, url).battles <= 20


def test_a_whole_game_of_play_the_ranks_ends_with_a_result(player, app):
    url = new_game(player, game="play-the-ranks", level="easy")
    for _ in range(20):
        state = state_of(app, url)
        if state.is_terminal():
            break
        move(player, url, action=state.legal_actions()[0])
    row = stored(app, url)
    assert row.result in {"won", "lost"} and row.finished_at is not None
    html = player.get(url).get_data(as_text=True)
    assert "Play again" in html
    assert "Play the Ranks" in player.get(INDEX).get_data(as_text=True)


# --- nothing hidden reaches the page ----------------------------------------------------------


def hidden_names(app, url) -> set[str]:
    """Names of the cards the student may not see now and that were never shown face up."""
    state = state_of(app, url)
    public = " ".join(event.text for event in state.log)
    deck = state.game.deck
    return {deck[p].name for p in state.hidden_from(0)} - {
        n for n in (c.name for c in deck) if n in public
    }


CALLS = {
    "play-the-ranks": "wins",
    "geopower-toss": "not",
    "geoclash-down-back": "not",
    "geography-war": "war",
}


@pytest.mark.parametrize(
    "game",
    ["geoplunge-51", "play-the-ranks", "geography-war", "geopower-toss", "geoclash-down-back"],
)
@pytest.mark.parametrize("drill", [False, True])
def test_no_response_names_a_hidden_card(player, app, game, drill):
    url = new_game(
        player,
        game=game,
        players="4" if game in ("geoplunge-51", "geopower-toss", "geoclash-down-back") else "2",
        drill=drill,
    )
    for _ in range(6):
        html = player.get(url).get_data(as_text=True)
        hidden = hidden_names(app, url)
        for name in hidden:
            assert not re.search(rf"(?<!West )\b{re.escape(name)}\b", html), (
                f"{name} is hidden but on the page"
            )
        assert_strict_page(html)
        state = state_of(app, url)
        if state.is_terminal():
            break
        action = state.legal_actions()[0]
        fields = {"action": action, "call": CALLS.get(game, ""), "number": "5"}
        if game == "geoplunge-51":
            fields["number"] = state.game.cards[action // 3].rank(list(Category)[action % 3])
        if game == "geography-war" and not drill:
            fields = {"battles": 1}
        move(player, url, **fields)
        assert stored(app, url).ply > 0


def test_drill_mode_hides_the_students_own_rankings(player, app):
    url = new_game(player, drill=True)
    state = state_of(app, url)
    html = player.get(url).get_data(as_text=True)
    assert html.count("Rankings hidden") == len(state.hands[0])
    assert "gp-card__ranks" not in html.split("Your cards")[1]


# --- drill answers are reviews ---------------------------------------------------------------


def test_51_drill_a_wrong_number_is_refused_and_recorded_then_the_right_one_plays(player, app):
    """D-F1: the count needs the exact number; only the first answer per fact and move is recorded."""
    url = new_game(player, drill=True)
    state = state_of(app, url)
    action = state.legal_actions()[0]
    card = state.game.cards[action // 3]
    category = list(Category)[action % 3]
    rank = card.rank(category)
    before = stored(app, url).actions
    move(player, url, action=action, number=rank % 50 + 1 if rank < 48 else rank - 10)
    assert stored(app, url).actions == before
    assert f"Not quite: {card.name} is" in flashes(player, url)
    logged = reviews(app)
    assert [(r.fact_key, r.correct, r.mode, r.form) for r in logged] == [
        (f"{card.postal}:{category.slug}", False, "geoplunge_51", "typed")
    ]
    move(player, url, action=action, number=rank)
    assert stored(app, url).actions[len(before)] == action
    assert len(reviews(app)) == 1  # the first answer about this fact and move counts
    assert stored(app, url).drill_answers == 1 and stored(app, url).drill_right == 0


def test_51_drill_a_right_number_plays_and_is_recorded_right(player, app):
    """D-F1: a right number plays the card and is a right review of that ranking."""
    url = new_game(player, drill=True)
    state = state_of(app, url)
    action = state.legal_actions()[-1]
    card = state.game.cards[action // 3]
    category = list(Category)[action % 3]
    move(player, url, action=action, number=f"{card.rank(category)}th")
    logged = reviews(app)
    assert [(r.fact_key, r.correct) for r in logged] == [(f"{card.postal}:{category.slug}", True)]
    assert "Right!" in flashes(player, url)


@pytest.mark.parametrize("number", ["", "banana", "99"])
def test_51_drill_an_unreadable_number_records_nothing(player, app, number):
    url = new_game(player, drill=True)
    action = state_of(app, url).legal_actions()[0]
    before = stored(app, url).actions
    move(player, url, action=action, number=number)
    assert stored(app, url).actions == before
    assert reviews(app) == []


def _to_phase(player, app, url, phase_check):
    for _ in range(30):
        state = state_of(app, url)
        if phase_check(state):
            return state
        move(player, url, action=state.legal_actions()[0], number="1", call="loses")
    raise AssertionError("never reached the phase")


def test_ranks_drill_lead_and_follow_are_graded_on_the_real_rankings(player, app):
    """D-R1: the rank of the card led, and "it wins / it loses" when following, are reviews."""
    url = new_game(player, game="play-the-ranks", drill=True)
    leading = _to_phase(
        player, app, url, lambda s: s.phase == "trick" and s.legal_actions()[0] >= 100
    )
    action = leading.legal_actions()[0]
    move_ = leading.decode(action)
    rank = leading.game.card(move_.card).rank(move_.category)
    count = len(reviews(app))
    move(player, url, action=action, number=rank)
    new = reviews(app)[count:]
    assert [(r.fact_key, r.correct, r.form) for r in new] == [
        (f"{move_.card}:{move_.category.slug}", True, "typed")
    ]
    following = _to_phase(
        player, app, url, lambda s: s.phase == "trick" and s.legal_actions()[0] < 100
    )
    action = following.legal_actions()[0]
    postal = following.decode(action).card
    trick = following.tricks[-1]
    category = Category.from_slug(trick["category"])
    led = following.game.card(trick["cards"][trick["leader"]]).rank(category)
    wins = (following.game.card(postal).rank(category) < led) == (following.trick_number <= 4)
    count = len(reviews(app))
    move(player, url, action=action, call="loses" if wins else "wins")  # the wrong call
    new = reviews(app)[count:]
    assert [(r.fact_key, r.correct, r.form) for r in new] == [
        (f"{postal}:{category.slug}", False, "choice")
    ]


def test_ranks_drill_follow_without_a_call_is_refused(player, app):
    url = new_game(player, game="play-the-ranks", drill=True)
    following = _to_phase(
        player, app, url, lambda s: s.phase == "trick" and s.legal_actions()[0] < 100
    )
    before = stored(app, url).actions
    count = len(reviews(app))
    move(player, url, action=following.legal_actions()[0])
    assert stored(app, url).actions == before and len(reviews(app)) == count
    assert "wins the trick" in flashes(player, url)


def test_war_drill_the_call_reviews_both_cards_best_rankings(player, app):
    """D-W1: the call reviews each face-up card's best-ranking fact; P-W1: turn, then settle."""
    url = new_game(player, game="geography-war", drill=True)
    move(player, url, action=TURN)
    state = state_of(app, url)
    assert state.waiting() == "settle"
    html = player.get(url).get_data(as_text=True)
    assert html.count("Rankings hidden") == 2  # both face-up cards, before the call
    before = stored(app, url).actions
    move(player, url, action=SETTLE)  # no call: refused, nothing recorded
    assert stored(app, url).actions == before and reviews(app) == []
    right = war_result(state)
    move(player, url, action=SETTLE, call=right)
    cards = [state.game.card(p) for p in state.face_up]
    assert sorted((r.fact_key, r.correct) for r in reviews(app)) == sorted(
        (f"{c.postal}:{c.best_categories[0].slug}", True) for c in cards
    )
    assert "Right!" in flashes(player, url)


def test_war_drill_a_forged_call_is_refused(player, app):
    url = new_game(player, game="geography-war", drill=True)
    move(player, url, action=TURN)
    before = stored(app, url).actions
    move(player, url, action=SETTLE, call="<script>")
    assert stored(app, url).actions == before and reviews(app) == []


def test_observation_json_is_what_the_page_is_built_from(app, player):
    """The student's observation holds no other seat's hand (the page is built from it)."""
    url = new_game(player, players="5")
    state = state_of(app, url)
    observation = json.dumps(state.observation(0))
    for seat in range(1, 5):
        for postal in state.hands[seat]:
            assert f'"{postal}"' not in observation


# --- GeoPower Toss and GeoClash Down Back -----------------------------------------------------


def _play_until(player, app, url, wanted, answer):
    """Play the first legal move (with ``answer``'s drill fields) until ``wanted(state)`` holds."""
    for _ in range(80):
        state = state_of(app, url)
        if wanted(state):
            return state
        assert not state.is_terminal(), "the game ended first"
        move(player, url, action=state.legal_actions()[0], **answer(state))
    raise AssertionError("never got there")


def _toss_fields(state):
    return {"call": "not"} if state.phase == "trick" and state.trick else {}


def _follows_with_a_choice(state):
    """The student follows a lead holding cards both in and out of the led zone."""
    if (
        state.is_terminal()
        or state.current_player() != 0
        or state.phase != "trick"
        or not state.trick
    ):
        return False
    led = state.game.card(state.trick[0]["card"]).zone
    zones = {state.game.card(p).zone == led for p in state.hands[0]}
    return zones == {True, False}


def test_toss_teams_of_two_deal_and_show_zones(player, app):
    url = new_game(player, game="geopower-toss", players="4", team_size="2")
    row = stored(app, url)
    assert (row.players, row.team_size) == (4, 2)
    html = player.get(url).get_data(as_text=True)
    assert_strict_page(html)
    assert "Your team" in html and "zone-" in html


def test_toss_drill_breaking_the_zone_is_refused_and_recorded_on_the_zone_fact(player, app):
    """T2 with the zone colours hidden (D-T1): an off-zone card while holding the led zone is refused and practised."""
    url = new_game(player, game="geopower-toss", players="4", drill=True)
    html = player.get(url).get_data(as_text=True)
    assert "Zone hidden" in html
    state = _play_until(player, app, url, _follows_with_a_choice, _toss_fields)
    led = state.game.card(state.trick[0]["card"]).zone
    off = next(p for p in state.hands[0] if state.game.card(p).zone != led)
    before = stored(app, url).actions
    count = len(reviews(app))
    move(player, url, action=state.game.index[off], call="beats")
    assert stored(app, url).actions == before
    new = reviews(app)[count:]
    assert [(r.fact_key, r.correct, r.mode) for r in new] == [
        (f"{off}:zone", False, "geopower_toss")
    ]
    assert "zone" in flashes(player, url)
    on = next(p for p in state.hands[0] if state.game.card(p).zone == led)
    category = state.geopower
    best = min(
        state.game.card(c["card"]).rank(category)
        for c in state.trick
        if state.game.card(c["card"]).zone == led
    )
    beats = state.game.card(on).rank(category) < best
    move(player, url, action=state.game.index[on], call="beats" if beats else "not")
    new = reviews(app)[count + 1 :]
    assert sorted((r.fact_key, r.correct) for r in new) == sorted(
        [(f"{on}:zone", True), (f"{on}:{category.slug}", True)]
    )


def test_clash_drill_lead_and_worst_calls_are_reviews(player, app):
    """D-C1: leading, the rank typed; following, whether the card is the worst so far."""
    url = new_game(player, game="geoclash-down-back", players="3", drill=True)

    def fields(state):
        return {"number": "1"} if not state.trick["cards"] else {"call": "not"}

    following = _play_until(
        player, app, url, lambda s: s.current_player() == 0 and bool(s.trick["cards"]), fields
    )
    action = following.legal_actions()[0]
    postal = following.decode(action).card
    category = Category.from_slug(following.trick["category"])
    worst = max(following.game.card(c["card"]).rank(category) for c in following.trick["cards"])
    is_worst = following.game.card(postal).rank(category) > worst
    count = len(reviews(app))
    move(player, url, action=action, call="worst" if is_worst else "not")
    assert [(r.fact_key, r.correct, r.mode) for r in reviews(app)[count:]] == [
        (f"{postal}:{category.slug}", True, "geoclash_down_back")
    ]


def test_clash_drill_a_lead_is_graded_on_the_rank_typed_and_a_silent_follow_is_refused(player, app):
    url = new_game(player, game="geoclash-down-back", players="3", drill=True)

    def fields(state):
        return {"number": "1"} if not state.trick["cards"] else {"call": "not"}

    leading = _play_until(
        player, app, url, lambda s: s.current_player() == 0 and not s.trick["cards"], fields
    )
    action = leading.legal_actions()[-1]
    lead = leading.decode(action)
    rank = leading.game.card(lead.card).rank(lead.category)
    count = len(reviews(app))
    move(player, url, action=action, number=rank)
    assert [(r.fact_key, r.correct, r.form) for r in reviews(app)[count:]] == [
        (f"{lead.card}:{lead.category.slug}", True, "typed")
    ]
    following = _play_until(
        player, app, url, lambda s: s.current_player() == 0 and bool(s.trick["cards"]), fields
    )
    before = stored(app, url).actions
    count = len(reviews(app))
    move(player, url, action=following.legal_actions()[0])  # no call
    assert stored(app, url).actions == before and len(reviews(app)) == count
    assert "worst so far" in flashes(player, url)
