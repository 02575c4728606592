"""The simulated learners of trainer.simulate: seeded, in time order, and what record() would have stored."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from collections import Counter
from zoneinfo import ZoneInfo

import pytest

from trainer import srs
from trainer.assignments import area_postals
from trainer.cards import Deck, load_deck
from trainer.facts import Facet, Fact, Form, dont_know
from trainer.games import make_game, replay
from trainer.games.base import Params
from trainer.quiz.state_iq import Level as IqLevel
from trainer.quiz.state_iq import Move, Side, StateIQ, student_answers
from trainer.simulate import (
    GAME_MODES,
    LATE_DAYS,
    History,
    Task,
    make_learner,
    simulate,
)

UTC = dt.UTC
END = dt.datetime(2025, 3, 14, 23, 30, tzinfo=UTC)
ZONE = "America/Chicago"
#: Learners used by most tests: enough of them to play every kind of game.
LEARNERS = range(6)


@pytest.fixture(scope="module")
def deck() -> Deck:
    return load_deck()


@pytest.fixture(scope="module")
def histories(deck: Deck) -> list[History]:
    return [simulate(deck, i, seed=7, days=40, end=END, time_zone=ZONE) for i in LEARNERS]


def _snapshot(history: History) -> tuple:
    return (
        history.reviews,
        history.cards,
        history.study_rounds,
        history.state_iq_games,
        history.dashing_rounds,
        history.border_up_rounds,
        history.card_games,
        history.assignment_rounds,
    )


def test_the_same_seed_gives_the_same_history(deck: Deck, histories: list[History]) -> None:
    again = simulate(deck, 3, seed=7, days=40, end=END, time_zone=ZONE)
    assert _snapshot(again) == _snapshot(histories[3])
    assert again.learner == make_learner(7, 3, 40, ZONE)


_DIGEST = """
import datetime as dt, hashlib
from trainer.cards import load_deck
from trainer.simulate import simulate
h = simulate(load_deck(), 2, seed=7, days=25, end=dt.datetime(2025, 3, 14, 23, 30, tzinfo=dt.UTC))
print(hashlib.sha256(repr((h.reviews, h.cards, h.study_rounds, h.state_iq_games, h.dashing_rounds,
                           h.border_up_rounds, h.card_games)).encode()).hexdigest())
"""


def test_the_history_does_not_depend_on_the_process() -> None:
    """Worker processes have their own hash seeds: nothing may depend on the order of a set."""
    digests = {
        subprocess.run(
            [sys.executable, "-c", _DIGEST],
            env={**os.environ, "PYTHONHASHSEED": str(hash_seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hash_seed in (1, 2)
    }
    assert len(digests) == 1


def test_the_simulator_is_pure() -> None:
    """No Flask, no SQLAlchemy: worker processes import only the simulator."""
    code = "import sys, trainer.simulate; print(sorted(m for m in sys.modules if m.startswith(('flask', 'sqlalchemy'))))"
    assert (
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.strip()
        == "[]"
    )


def test_another_seed_or_student_gives_another_history(
    deck: Deck, histories: list[History]
) -> None:
    other_seed = simulate(deck, 3, seed=8, days=40, end=END, time_zone=ZONE)
    assert _snapshot(other_seed) != _snapshot(histories[3])
    assert _snapshot(histories[2]) != _snapshot(histories[3])


def test_the_namespace_changes_only_the_tokens(deck: Deck, histories: list[History]) -> None:
    other = simulate(deck, 0, seed=7, days=40, end=END, time_zone=ZONE, namespace="another school")
    tokens = {r["round_token"] for r in histories[0].reviews}
    assert tokens.isdisjoint(r["round_token"] for r in other.reviews)
    assert other.learner == histories[0].learner


def test_reviews_are_in_time_order_within_the_period(histories: list[History]) -> None:
    zone = ZoneInfo(ZONE)
    last_day = srs.study_day(END, zone).date
    for history in histories:
        times = [r["reviewed_at"] for r in history.reviews]
        assert times == sorted(times) and len(set(times)) == len(times)
        assert all(t.tzinfo is not None and t.utcoffset() == dt.timedelta(0) for t in times)
        assert all(t < END for t in times)
        for review in history.reviews:
            day = review["study_day"]
            assert day == srs.study_day(review["reviewed_at"], zone).date
            assert last_day - dt.timedelta(days=39) <= day <= last_day
        if history.reviews:
            assert history.first_active == times[0] and history.last_active == times[-1]


def test_memory_cards_are_the_replay_of_the_reviews(histories: list[History]) -> None:
    for history in histories:
        memory: dict[str, srs.Memory] = {}
        first: dict[str, dt.datetime] = {}
        for review in history.reviews:
            key = review["fact_key"]
            before = memory.get(key) or srs.new_memory(review["reviewed_at"])
            first.setdefault(key, review["reviewed_at"])
            memory[key] = srs.schedule(
                before,
                srs.Rating(review["rating"]),
                review["reviewed_at"],
                desired_retention=history.learner.desired_retention,
                seed=f"{review['round_token']}:{review['item']}",
                time_zone=history.learner.time_zone,
            )
            assert review["due_after"] == memory[key].due
            assert review["stability_after"] == memory[key].stability
        assert set(history.cards) == set(memory)
        for key, card in history.cards.items():
            assert (
                srs.Memory(
                    srs.MemoryState(card["state"]),
                    card["step"],
                    card["stability"],
                    card["difficulty"],
                    card["due"],
                    card["last_review"],
                    card["lapses"],
                    card["reps"],
                )
                == memory[key]
            )
            assert card["introduced_at"] == first[key]
            # P-M1: the study day of the last review, as memory._write stores it for the dashboards.
            assert (
                card["last_study_day"]
                == srs.study_day(card["last_review"], history.learner.time_zone).date
            )
            assert card["facet"] == Fact.from_key(key).facet.value
        assert sum(card["reps"] for card in history.cards.values()) == len(history.reviews)


def test_review_rows_follow_the_grading_policy(histories: list[History]) -> None:
    """P-M5, P-M7 (issue 19 changed the last branch from Good or Easy): a right pick before the
    fact was answered right in a strong form is Hard; nothing is Easy."""
    for history in histories:
        keys = set()
        proven: set[str] = set()
        for review in history.reviews:
            keys.add((review["round_token"], review["item"]))
            fact = Fact.from_key(review["fact_key"])
            assert review["facet"] == fact.facet.value
            assert review["correct"] is (review["verdict"] != "wrong")
            strong = review["form"] != Form.CHOICE.value
            if review["verdict"] == "wrong":
                assert review["rating"] == srs.Rating.AGAIN
            elif (
                review["verdict"] == "close"
                or review["help"] != "none"
                or not strong
                and fact.key not in proven
            ):
                assert review["rating"] == srs.Rating.HARD
            else:
                assert review["rating"] == srs.Rating.GOOD
            if review["correct"] and strong:
                proven.add(fact.key)
            assert len(review["answer"]) <= 200
        assert len(keys) == len(history.reviews)  # (round, item) is the review log's unique key


def test_a_fact_picked_right_or_missed_last_is_dealt_in_a_strong_form(
    histories: list[History],
) -> None:
    """P-M6, as the study page deals: a fact whose last answer (in any mode) was a right pick or a
    miss is never dealt as a choice in the next review round."""
    checked = 0
    for history in histories:
        last: dict[str, dict] = {}
        reviews = iter(history.reviews)
        pending = next(reviews, None)
        for round_ in sorted(history.study_rounds, key=lambda r: r["created_at"]):
            while pending is not None and pending["reviewed_at"] < round_["created_at"]:
                last[pending["fact_key"]] = pending
                pending = next(reviews, None)
            for key, form in round_["items"]:
                before = last.get(key)
                if before is not None and (
                    not before["correct"] or before["form"] == Form.CHOICE.value
                ):
                    assert form != Form.CHOICE.value, (key, round_["token"])
                    checked += 1
    assert checked > 20, "the rule was exercised"


def test_new_facts_come_in_teaching_order_within_the_daily_limit(
    deck: Deck, histories: list[History]
) -> None:
    for history in histories:
        per_day = Counter(
            srs.study_day(c["introduced_at"], ZONE).date for c in history.cards.values()
        )
        # Review rounds respect the limit; a game may bring in a few facts of its own on top.
        by_review = Counter(
            srs.study_day(c["introduced_at"], ZONE).date
            for c in history.cards.values()
            if any(
                r["fact_key"] == c["fact_key"]
                and r["reviewed_at"] == c["introduced_at"]
                and r["mode"] == "review"
                for r in history.reviews
            )
        )
        assert all(count <= history.learner.new_per_day for count in by_review.values())
        assert sum(per_day.values()) == len(history.cards)


def test_study_rounds_hold_the_items_answered(histories: list[History]) -> None:
    for history in histories:
        answers: dict[str, list[dict]] = {}
        for review in history.reviews:
            if review["mode"] == "review":
                answers.setdefault(review["round_token"], []).append(review)
        rounds = {f"review:{r['token']}": r for r in history.study_rounds}
        assert set(answers) <= set(rounds)
        for token, given in answers.items():
            items = rounds[token]["items"]
            for review in given:
                assert items[int(review["item"]) - 1] == [review["fact_key"], review["form"]]


def test_answers_are_realistic(deck: Deck, histories: list[History]) -> None:
    reviews = [r for h in histories for r in h.reviews]
    modes = Counter(r["mode"] for r in reviews)
    verdicts = Counter(r["verdict"] for r in reviews)
    assert modes.most_common(1)[0][0] == "review"
    assert {"state_iq", "dashing_states", "border_up"} <= set(modes)
    assert set(modes) & set(GAME_MODES.values())
    assert verdicts["right"] > verdicts["wrong"] > verdicts["close"] > 0
    # Wrong map and capital answers often name a neighbouring state: the most-confused pairs.
    confused = [
        r
        for r in reviews
        if r["verdict"] == "wrong" and r["facet"] in ("map", "capital") and r["answered_postal"]
    ]
    assert confused
    neighbouring = [
        r for r in confused if deck.borders_between(r["fact_key"][:2], r["answered_postal"])
    ]
    assert len(neighbouring) > len(confused) / 2
    assert any(r["answer"] == "" and r["verdict"] == "wrong" for r in reviews)  # "I don't know"
    assert all(
        r["answer"] == dont_know(Fact.from_key(r["fact_key"]), deck).given
        for r in reviews
        if r["answer"] == ""
    )


def test_learners_differ_in_habits(deck: Deck) -> None:
    learners = [make_learner(1, i, 120) for i in range(200)]
    assert {learner.kind for learner in learners} == {"keen", "regular", "occasional", "rare"}
    assert all(learner.weekend_rate < learner.weekday_rate for learner in learners)
    assert len({round(learner.ability, 3) for learner in learners}) > 150


def test_counts_grow_with_the_days(deck: Deck) -> None:
    short = [simulate(deck, i, seed=3, days=15, end=END) for i in range(4)]
    long = [simulate(deck, i, seed=3, days=45, end=END) for i in range(4)]
    assert sum(len(h.reviews) for h in long) > 2 * sum(len(h.reviews) for h in short) > 0
    assert sum(len(h.cards) for h in long) > sum(len(h.cards) for h in short)


def _computer_plays(game: StateIQ) -> None:
    while game.waiting_for() == "computer":
        game.computer_turn()


def test_games_are_finished_and_replay(deck: Deck, histories: list[History]) -> None:
    games = [(h, g) for h in histories for g in h.state_iq_games]
    assert games
    for history, row in games:
        power = next(card for card in deck.power_cards if card.id == row["power_card"])
        game = StateIQ(
            deck,
            power,
            row["student_card"],
            row["computer_card"],
            Side(row["first_guesser"]),
            IqLevel(row["level"]),
            row["seed"],
        )

        _computer_plays(game)
        for kind, postal in row["moves"]:
            try:
                game.guess(postal) if kind == "guess" else game.give_border(postal)
            except Move:
                pass
            _computer_plays(game)
        assert game.is_over and row["move_count"] == len(row["moves"])
        assert row["recorded"] == sorted(a.item for a in student_answers(game))
        winner = game.winner()
        assert row["result"] == (
            "tied" if winner is None else "won" if winner is Side.STUDENT else "lost"
        )
        logged = {
            r["item"] for r in history.reviews if r["round_token"] == f"state_iq:{row['token']}"
        }
        assert logged == set(row["recorded"])
        assert row["created_at"] < row["finished_at"]
    cards = [g for h in histories for g in h.card_games]
    assert cards
    for row in cards:
        state = replay(
            make_game(row["game"], deck, Params(row["players"], row["team_size"])),
            row["seed"],
            row["actions"],
        )
        assert state.is_terminal() and row["ply"] == len(row["actions"])
        assert row["result"] in ("won", "lost", "drawn") and row["finished_at"] is not None
        assert row["drill_right"] <= row["drill_answers"]
    races = [g for h in histories for g in [*h.dashing_rounds, *h.border_up_rounds]]
    assert races
    for row in races:
        assert row["result"] in ("won", "lost", "tied", "right", "wrong")
        assert (row["seconds"] is None) or (row["call"] is not None and row["seconds"] > 0)


def test_assignments_are_worked_on_in_their_window(deck: Deck) -> None:
    start = END - dt.timedelta(days=10)
    west = area_postals("region:west", deck)
    tasks = (
        Task(("state-iq",), start, END - dt.timedelta(days=2), rounds=3),
        Task(
            ("review",),
            start,
            END + dt.timedelta(days=5),
            rounds=4,
            facets=frozenset({Facet.CAPITAL}),
            postals=west,
            area="region:west",
        ),
    )
    histories = [simulate(deck, i, seed=5, days=30, end=END, tasks=tasks) for i in range(8)]
    rounds = [r for h in histories for r in h.assignment_rounds]
    assert {r["task"] for r in rounds} == {0, 1}
    for history in histories:
        focus = {f"review:{r['token']}": r["focus"] for r in history.study_rounds}
        games = {f"state_iq:{g['token']}" for g in history.state_iq_games}
        done = Counter(r["task"] for r in history.assignment_rounds)
        assert all(count <= tasks[task].rounds for task, count in done.items())
        for r in history.assignment_rounds:
            task = tasks[r["task"]]
            assert (
                task.starts_at
                <= r["created_at"]
                < min(END, task.due_at + dt.timedelta(days=LATE_DAYS))
            )
            if r["task"] == 0:
                assert r["activity"] == "state-iq" and r["round_token"] in games
            else:
                assert r["activity"] == "review"
                assert focus[r["round_token"]] == {"facets": ["capital"], "area": "region:west"}
                answered = [x for x in history.reviews if x["round_token"] == r["round_token"]]
                assert answered and all(
                    x["facet"] == "capital" and x["fact_key"][:2] in west for x in answered
                )


def test_end_must_be_utc(deck: Deck) -> None:
    with pytest.raises(ValueError):
        simulate(deck, 0, end=dt.datetime(2025, 1, 1))
