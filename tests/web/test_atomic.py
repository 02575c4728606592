"""A move or a call and every review it causes are one transaction (issue 18, section 2).

Fault injection: ``record()``'s write fails on the N-th review of a call (the first, one in the
middle, the last), on SQLite and on PostgreSQL, in Dashing States, Border-Up, State IQ (the move
that ends the game) and a card game in drill mode. Nothing of the call may be kept, the student
gets the "try again" page (not a 500) with their answer in it, and sending that page's form again
records everything exactly once; a double submit after that changes nothing.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import html
import re
import threading
from itertools import combinations

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import DataError, OperationalError
from werkzeug.datastructures import MultiDict

from tests.conftest import client_for, csrf_token, database_params
from tests.web import test_border_up as border_up
from tests.web import test_card_games as card_games
from tests.web import test_dashing as dashing
from tests.web import test_state_iq as state_iq
from tests.web.test_card_games_drill import meet
from trainer import srs
from trainer.cards import Category
from trainer.facts import Form, Verdict
from trainer.games.drill import war_result
from trainer.games.geography_war import SETTLE, TURN
from trainer.quiz.border_up import judge_call
from trainer.quiz.border_up import reviews as border_reviews
from trainer.quiz.state_iq import Move, student_answers
from trainer.web import get_deck, memory
from trainer.web.extensions import db
from trainer.web.models import MemoryCard, ReviewLog, User
from trainer.web.play import games as games_views
from trainer.web.play.routes import _computer_plays, _rebuild

WHICH = ("first", "middle", "last")


def position(which: str, count: int) -> int:
    """The 1-based position of the failing review among ``count``."""
    return {"first": 1, "middle": (count + 1) // 2, "last": count}[which]


def lost_connection() -> OperationalError:
    return OperationalError(
        "INSERT INTO review_log ...",
        {},
        Exception("server closed the connection unexpectedly"),
        connection_invalidated=True,
    )


def refused_data() -> DataError:
    return DataError("INSERT INTO review_log ...", {}, Exception("invalid input"))


class FailingReview:
    """Stands in for ``memory._write``: the ``n``-th review of a unit fails, on every attempt
    (or the first ``times`` ones); ``poison`` makes it fail in the real database instead (a NUL
    byte in its answer, which PostgreSQL refuses)."""

    def __init__(
        self,
        monkeypatch: pytest.MonkeyPatch,
        n: int,
        error=lost_connection,
        times: int | None = None,
        poison: bool = False,
    ):
        self.real = memory._write
        self.n, self.error, self.times, self.poison = n, error, times, poison
        self.order: list[tuple[str, str]] = []
        self.failures = 0
        self.active = True
        monkeypatch.setattr(memory, "_write", self)

    def __call__(self, student, fact, outcome, rating, settings, now):
        key = (outcome.round_token, outcome.item)
        if key not in self.order:
            self.order.append(key)
        failing = self.active and self.order.index(key) == self.n - 1
        if failing and (self.times is None or self.failures < self.times):
            self.failures += 1
            if self.poison:
                outcome = dataclasses.replace(outcome, answer=outcome.answer + "\x00")
            else:
                raise self.error()
        return self.real(student, fact, outcome, rating, settings, now)


def snapshot(app) -> tuple[list, int]:
    """Every memory card (its whole schedule) and the number of review rows."""
    with app.app_context():
        cards = db.session.execute(
            select(
                MemoryCard.fact_key,
                MemoryCard.reps,
                MemoryCard.state,
                MemoryCard.due,
                MemoryCard.stability,
                MemoryCard.lapses,
            ).order_by(MemoryCard.fact_key)
        ).all()
        count = db.session.execute(select(func.count()).select_from(ReviewLog)).scalar_one()
    return [tuple(card) for card in cards], count


def remember(app, student, fact_key: str) -> None:
    """An earlier answer about ``fact_key``, so that its memory card exists before the call."""
    with app.app_context():
        user = db.session.get(User, student.id)
        then = dt.datetime.now(dt.UTC) - dt.timedelta(days=3)
        memory.record(
            user,
            srs.Outcome(fact_key, Verdict.WRONG, "review", Form.TYPED, "earlier", "1"),
            now=then,
        )


def recorded(app, round_token: str) -> list[str]:
    """The items recorded under ``round_token``."""
    with app.app_context():
        return list(
            db.session.execute(
                select(ReviewLog.item).where(ReviewLog.round_token == round_token)
            ).scalars()
        )


HIDDEN = re.compile(r'<input type="hidden" name="([^"]*)" value="([^"]*)">')


def try_again_page(response, sent: dict[str, str]) -> MultiDict:
    """Check the 503 page and return the form it offers to send again."""
    assert response.status_code == 503, response.get_data(as_text=True)[:500]
    assert int(response.headers["Retry-After"]) > 0
    page = response.get_data(as_text=True)
    assert "We&#39;ll be right back" in page or "We'll be right back" in page
    assert "Try again" in page
    fields = MultiDict([(html.unescape(n), html.unescape(v)) for n, v in HIDDEN.findall(page)])
    for name, value in sent.items():
        assert fields.get(name) == value, f"{name} is kept on the page"
    assert "csrf_token" in fields
    return fields


def flashes(client, url) -> str:
    return " ".join(
        re.findall(r'class="flash[^"]*">([^<]*)', client.get(url).get_data(as_text=True))
    )


# --- Dashing States -------------------------------------------------------------------------


@pytest.mark.parametrize("which", WHICH)
def test_a_dashing_call_and_its_eight_reviews_are_kept_together_or_not_at_all(
    player, app, student, monkeypatch, which
):
    url = dashing.deal(player, "practice")
    token = f"dashing_states:{url.rsplit('/', 1)[1]}"
    data = dashing.call_data(app, url)
    remember(app, student, f"{dashing.stored(app, url).cards[0]}:map")
    before = snapshot(app)
    failing = FailingReview(monkeypatch, position(which, 8))

    response = player.post(url, data={"csrf_token": csrf_token(player, url), **data})
    fields = try_again_page(response, data)
    assert failing.failures == memory._OUTAGE_ATTEMPTS, (
        "the whole unit was tried again from a fresh read"
    )
    assert snapshot(app) == before, "no review and no memory card of the call was kept"
    row = dashing.stored(app, url)
    assert row.call is None and row.called_at is None and row.result == "playing", (
        "the round is still open"
    )

    failing.active = False
    assert player.post(url, data=fields).status_code == 302
    assert len(recorded(app, token)) == len(set(recorded(app, token))) == 8, (
        "every review exactly once"
    )
    assert dashing.stored(app, url).result == "right"
    # A double submit of the same call: "already called", nothing changes.
    assert player.post(url, data=fields).status_code == 302
    assert "already called" in flashes(player, url)
    assert len(recorded(app, token)) == 8


def test_a_dashing_call_whose_review_fails_once_is_saved_whole_by_the_retry_inside_the_request(
    player, app, monkeypatch
):
    url = dashing.deal(player, "practice")
    token = f"dashing_states:{url.rsplit('/', 1)[1]}"
    failing = FailingReview(monkeypatch, 5, times=1)
    assert dashing.call(player, url, dashing.call_data(app, url)).status_code == 302
    assert failing.failures == 1
    assert len(recorded(app, token)) == len(set(recorded(app, token))) == 8
    assert dashing.stored(app, url).call is not None


def test_a_review_refused_by_the_database_leaves_the_call_open_with_a_clear_message(
    player, app, monkeypatch
):
    """Not every failure is worth a retry (bad data): the unit is still all or nothing, and 400, not 500."""
    url = dashing.deal(player, "practice")
    token = f"dashing_states:{url.rsplit('/', 1)[1]}"
    data = dashing.call_data(app, url)
    before = snapshot(app)
    failing = FailingReview(monkeypatch, 8, error=refused_data)
    response = dashing.call(player, url, data)
    assert response.status_code == 400 and "Nothing was changed" in response.get_data(as_text=True)
    assert failing.failures == 1, "bad data is not tried again"
    assert snapshot(app) == before and dashing.stored(app, url).call is None
    failing.active = False
    assert dashing.call(player, url, data).status_code == 302
    assert len(recorded(app, token)) == 8


#: PostgreSQL refuses a NUL byte in text (SQLite stores it), so these run only there: the ``app``
#: fixture is given the PostgreSQL database alone (no parameter, hence not collected, without one).
postgresql_only = pytest.mark.parametrize(
    "app", [p for p in database_params() if p.id == "postgresql"], indirect=True
)


@postgresql_only
def test_a_nul_byte_refused_by_postgresql_in_the_last_review_keeps_nothing_of_the_call(
    player, app, monkeypatch
):
    """The issue's case, below any input guard: the real driver refuses the 8th review's text."""
    url = dashing.deal(player, "practice")
    token = f"dashing_states:{url.rsplit('/', 1)[1]}"
    data = dashing.call_data(app, url)
    before = snapshot(app)
    failing = FailingReview(monkeypatch, 8, poison=True)
    response = dashing.call(player, url, data)
    assert response.status_code == 400
    assert failing.failures == 1
    assert snapshot(app) == before and dashing.stored(app, url).result == "playing"
    failing.active = False
    assert dashing.call(player, url, data).status_code == 302
    assert len(recorded(app, token)) == 8


@postgresql_only
def test_a_nul_byte_in_a_typed_name_changes_nothing_and_the_call_can_be_made_again(player, app):
    """The issue's report: a NUL in a Dashing name on PostgreSQL. Whichever layer refuses it, not
    a 500, nothing kept, and the call made again afterwards records its eight answers once."""
    url = dashing.deal(player, "practice")
    token = f"dashing_states:{url.rsplit('/', 1)[1]}"
    data = dashing.call_data(app, url)
    before = snapshot(app)
    poisoned = {**data, "name-0": data["name-0"] + "\x00"}
    response = dashing.call(player, url, poisoned)
    assert response.status_code == 400
    assert snapshot(app) == before and dashing.stored(app, url).call is None
    assert dashing.call(player, url, data).status_code == 302
    assert len(recorded(app, token)) == 8


def test_two_tabs_calling_at_the_same_moment_record_the_call_once(app, student):
    """Both sends of one call race each other: one is the call, the other "already called"."""
    tabs = [client_for(app, "student1") for _ in range(2)]
    url = dashing.deal(tabs[0], "practice")
    token = f"dashing_states:{url.rsplit('/', 1)[1]}"
    data = dashing.call_data(app, url)
    forms = [{"csrf_token": csrf_token(tab, url), **data} for tab in tabs]
    barrier = threading.Barrier(len(tabs))
    statuses: list[int] = []

    def send(tab, form) -> None:
        barrier.wait()
        statuses.append(tab.post(url, data=form).status_code)

    threads = [threading.Thread(target=send, args=pair) for pair in zip(tabs, forms)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [302, 302]
    assert len(recorded(app, token)) == len(set(recorded(app, token))) == 8
    assert sum("already called" in flashes(tab, url) for tab in tabs) == 1


# --- Border-Up ------------------------------------------------------------------------------


def a_wrong_call(app, url) -> tuple[list[str], list[str], int]:
    """Two groups that are not groups, with as many reviews as a few tries find (at least 3)."""
    row = border_up.stored(app, url)
    with app.app_context():
        deck = get_deck()
    hand = sorted(row.hand)
    best = None
    for first in list(combinations(hand, 3))[:60]:
        rest = [p for p in hand if p not in first]
        for second in list(combinations(rest, 3))[:40]:
            count = len(border_reviews(judge_call(row.hand, [first, second], deck), helped=False))
            if best is None or count > best[2]:
                best = (list(first), list(second), count)
    assert best is not None and best[2] >= 3
    return best


@pytest.mark.parametrize("which", WHICH)
def test_a_border_up_call_and_its_reviews_are_kept_together_or_not_at_all(
    player, app, student, monkeypatch, which
):
    url = border_up.deal(player, "easy")
    token = f"border_up:{url.rsplit('/', 1)[1]}"
    first, second, count = a_wrong_call(app, url)
    remember(app, student, f"{first[0]}:borders")
    before = snapshot(app)
    failing = FailingReview(monkeypatch, position(which, count))
    sent = {f"group-{p}": "1" for p in first} | {f"group-{p}": "2" for p in second}

    response = player.post(url, data={"csrf_token": csrf_token(player, url), **sent})
    fields = try_again_page(response, sent)
    assert failing.failures == memory._OUTAGE_ATTEMPTS
    assert snapshot(app) == before
    row = border_up.stored(app, url)
    assert row.call is None and row.result == "playing"

    failing.active = False
    assert player.post(url, data=fields).status_code == 302
    assert len(recorded(app, token)) == len(set(recorded(app, token))) == count
    assert border_up.stored(app, url).call is not None
    player.post(url, data=fields)
    assert "already called" in flashes(player, url) and len(recorded(app, token)) == count


# --- State IQ: the move that ends the game --------------------------------------------------


def to_the_last_move(app, client, url) -> tuple[str, int]:
    """Play State IQ (two wrong guesses, then the right one; border clues from the own card)
    until the next move ends the game: that move's answer and the reviews it will record."""
    row = state_iq.stored(app, url)
    with app.app_context():
        deck = get_deck()
    wrong = iter(s.name for s in deck if s.postal not in (row.computer_card, row.student_card))
    used: set[str] = set()
    guesses = 0
    while True:
        _, turn, label = state_iq.page_state(client, url)
        assert turn is not None, "the game ended before its last move was found"
        if "guess" in label:
            answer = next(wrong) if guesses < 2 else deck[row.computer_card].name
            guesses += 1
        else:
            answer = next(s.name for s in deck.neighbours(row.student_card) if s.postal not in used)
            used.add(deck[answer].postal)
        row = state_iq.stored(app, url)
        with app.app_context():
            game = _rebuild(row)
            postal = deck[answer].postal
            try:
                game.guess(postal) if game.waiting_for() == "student_guess" else game.give_border(
                    postal
                )
            except Move:
                pass
            _computer_plays(game)
            if game.is_over:
                return answer, len([a for a in student_answers(game) if a.item not in row.recorded])
        assert state_iq.move(client, url, answer).status_code == 302


@pytest.mark.parametrize("which", WHICH)
def test_the_last_state_iq_move_its_reviews_and_the_result_are_kept_together_or_not_at_all(
    player, app, student, monkeypatch, which
):
    url = state_iq.make_game(app, student.id)
    token = f"state_iq:{url.rsplit('/', 1)[1]}"
    answer, count = to_the_last_move(app, player, url)
    assert count >= 1
    before_row = state_iq.stored(app, url)
    before = snapshot(app)
    failing = FailingReview(monkeypatch, position(which, count))

    response = state_iq.move(player, url, answer)
    fields = try_again_page(response, {"answer": answer, "turn": str(before_row.move_count)})
    assert failing.failures == memory._OUTAGE_ATTEMPTS
    assert snapshot(app) == before
    row = state_iq.stored(app, url)
    assert (row.move_count, row.moves, row.recorded, row.result) == (
        before_row.move_count,
        before_row.moves,
        before_row.recorded,
        "playing",
    ), "the move was not kept: the game is still open"

    failing.active = False
    assert player.post(url, data=fields).status_code == 302
    row = state_iq.stored(app, url)
    assert row.result in ("won", "lost", "tied") and row.move_count == before_row.move_count + 1
    items = recorded(app, token)
    assert len(items) == len(set(items)) == len(before_row.recorded) + count
    player.post(url, data=fields)  # the same move again: nothing changes
    assert recorded(app, token) == items and state_iq.stored(app, url).move_count == row.move_count


# --- A card game in drill mode --------------------------------------------------------------


@pytest.fixture
def known_seed(monkeypatch):
    monkeypatch.setattr(games_views, "new_seed", lambda: 7001)


@pytest.mark.parametrize("which", WHICH)
def test_a_war_drill_call_its_reviews_and_tally_are_kept_together_or_not_at_all(
    player, app, student, known_seed, monkeypatch, which
):
    meet(app, student.id)  # D-H1: only met rankings are asked
    url = card_games.new_game(player, game="geography-war", players="2", drill=True)
    token = f"game:{url.rsplit('/', 1)[1]}"
    assert card_games.move(player, url, action=TURN).status_code == 302
    state = card_games.state_of(app, url)
    call = war_result(state)
    before_row = card_games.stored(app, url)
    before = snapshot(app)
    failing = FailingReview(monkeypatch, position(which, 2))

    response = card_games.move(player, url, action=SETTLE, call=call)
    fields = try_again_page(
        response, {"action": str(SETTLE), "call": call, "ply": str(before_row.ply)}
    )
    assert failing.failures == memory._OUTAGE_ATTEMPTS
    assert snapshot(app) == before
    row = card_games.stored(app, url)
    assert (row.ply, row.actions, row.drill_answers, row.drill_right) == (
        before_row.ply,
        before_row.actions,
        0,
        0,
    )

    failing.active = False
    assert player.post(url, data=fields).status_code == 302
    row = card_games.stored(app, url)
    assert row.ply > before_row.ply and (row.drill_answers, row.drill_right) == (2, 2)
    assert len(recorded(app, token)) == len(set(recorded(app, token))) == 2
    player.post(url, data=fields)  # a double submit: the page was out of date, nothing changes
    assert card_games.stored(app, url).drill_answers == 2 and len(recorded(app, token)) == 2


def test_a_refused_51_number_is_recorded_with_its_tally_or_not_at_all(
    player, app, student, known_seed, monkeypatch
):
    """D-F1's wrong number: refused as a play, recorded as an answer, in a unit of its own."""
    meet(app, student.id)  # D-H1: only met rankings are asked
    url = card_games.new_game(player, drill=True)
    state = card_games.state_of(app, url)
    action = state.legal_actions()[0]
    card = state.game.cards[action // 3]
    rank = card.rank(list(Category)[action % 3])
    wrong = rank % 50 + 1 if rank < 48 else rank - 10
    failing = FailingReview(monkeypatch, 1)
    response = card_games.move(player, url, action=action, number=wrong)
    try_again_page(response, {"number": str(wrong), "action": str(action)})
    assert card_games.stored(app, url).drill_answers == 0 and snapshot(app)[1] == 0
    failing.active = False
    card_games.move(player, url, action=action, number=wrong)
    assert "Not quite" in flashes(player, url)
    assert card_games.stored(app, url).drill_answers == 1 and snapshot(app)[1] == 1


# --- the unit of work itself ----------------------------------------------------------------


def test_record_alone_is_one_transaction_and_idempotent(app, student):
    """The study path: one answer is one unit; the same (round, item) again changes nothing."""
    with app.app_context():
        user = db.session.get(User, student.id)
        outcome = srs.Outcome(
            "CO:capital", Verdict.RIGHT, "review", Form.TYPED, "r1", "1", answer="Denver"
        )
        first = memory.record(user, outcome)
        again = memory.record(user, outcome)
        assert first.created and not again.created and again.due == first.due
        assert db.session.execute(select(func.count()).select_from(ReviewLog)).scalar_one() == 1


def test_a_unit_inside_a_unit_joins_it_and_a_failure_keeps_none_of_either(app, student):
    with app.app_context():
        user = db.session.get(User, student.id)

        def work() -> None:
            memory.record(
                user, srs.Outcome("CO:capital", Verdict.RIGHT, "review", Form.TYPED, "r1", "1")
            )
            memory.record(
                user, srs.Outcome("UT:capital", Verdict.RIGHT, "review", Form.TYPED, "r1", "2")
            )
            raise RuntimeError("the view failed after its reviews")

        with pytest.raises(RuntimeError):
            memory.atomically(work)
        assert db.session.execute(select(func.count()).select_from(ReviewLog)).scalar_one() == 0
        assert db.session.execute(select(func.count()).select_from(MemoryCard)).scalar_one() == 0


def test_conflicts_that_never_stop_give_busy_and_keep_nothing(app, student):
    with app.app_context():
        user = db.session.get(User, student.id)
        tries = []

        def work() -> None:
            tries.append(1)
            memory.record(
                user,
                srs.Outcome(
                    "CO:capital", Verdict.RIGHT, "review", Form.TYPED, f"r{len(tries)}", "1"
                ),
            )
            raise memory._Conflict

        with pytest.raises(memory.Busy):
            memory.atomically(work)
        assert len(tries) == memory._ATTEMPTS
        assert db.session.execute(select(func.count()).select_from(ReviewLog)).scalar_one() == 0
