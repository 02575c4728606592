"""Drill only on what was taught (rulings D-H1, D-H2): which questions a drill move asks given the
facts the student has met, and which answers count."""

from __future__ import annotations

import pytest

from trainer.cards import Category
from trainer.facts import Facet, Fact
from trainer.games.drill import DrillQuestion, RefusedPlay, ranking_facts, taught_answers
from trainer.games.geography_war import TURN

from .test_geography_war import war
from .test_geoplunge_51 import table as fifty_one
from .test_geopower_toss import table as toss

SIZE, STATEHOOD = Category.SIZE, Category.STATEHOOD


class Asker:
    """A student who answers every question with ``reply`` (or the right answer) and notes it."""

    def __init__(self, reply: str | None = None) -> None:
        self.reply = reply
        self.asked: list[DrillQuestion] = []

    def __call__(self, question: DrillQuestion) -> str:
        self.asked.append(question)
        return question.expected if self.reply is None else self.reply


def test_ranking_facts_are_each_cards_reviewed_facets_in_order():
    """D-H1: the facts a drill may hide are the game's reviewed facets of each card."""
    facts = ranking_facts(["CO", "AK"], {Facet.POPULATION, Facet.SIZE})
    assert facts == [
        Fact("CO", Facet.SIZE),
        Fact("CO", Facet.POPULATION),
        Fact("AK", Facet.SIZE),
        Fact("AK", Facet.POPULATION),
    ]


# --- GeoPlunge 51 -------------------------------------------------------------------------------


def test_51_a_met_ranking_is_asked_and_its_answer_counts():
    """D-H1: CO:size met: the number is asked and judged."""
    state = fifty_one(["CO", "TX"], ["NY"])
    action = state.game.action("CO", SIZE)
    asker = Asker("8")
    answers = taught_answers(state, action, asker, {"CO:size"})
    assert [q.fact.key for q in asker.asked] == ["CO:size"]
    assert [(a.fact.key, a.right) for a in answers] == [("CO:size", True)]


def test_51_a_wrong_number_on_a_met_ranking_is_refused_and_counts():
    """D-H1: the drill as before on a met ranking: a wrong number refuses the play and counts."""
    state = fifty_one(["CO", "TX"], ["NY"])
    with pytest.raises(RefusedPlay) as refused:
        taught_answers(state, state.game.action("CO", SIZE), Asker("9"), {"CO:size"})
    assert [(a.fact.key, a.right) for a in refused.value.answers] == [("CO:size", False)]


def test_51_a_ranking_not_met_is_not_asked_and_nothing_counts():
    """D-H1: CO:size not met (only CO:statehood is): no question, no answer; the play goes on."""
    state = fifty_one(["CO", "TX"], ["NY"])
    asker = Asker("banana")  # would be unreadable if it were asked
    assert taught_answers(state, state.game.action("CO", SIZE), asker, {"CO:statehood"}) == []
    assert asker.asked == []


def test_51_a_play_past_51_on_a_ranking_not_met_is_refused_with_nothing_counted():
    """D-H1 with F1: the play is refused as without drill, and nothing is recorded."""
    state = fifty_one(["AK", "TX"], ["NY"], count=50)
    with pytest.raises(RefusedPlay) as refused:
        taught_answers(state, state.game.action("AK", STATEHOOD), Asker(), set())
    assert refused.value.answers == []


# --- Geography War: one call, two facts ---------------------------------------------------------


def settle_state():
    state = war(["CO", "TX"], ["MD", "AK"])
    state.apply_action(TURN)
    return state


def test_war_the_call_is_asked_when_the_students_cards_best_ranking_is_met():
    """D-H1, D-H2: CO:size met, MD:statehood not: the call is asked; only CO's answer counts."""
    state = settle_state()
    asker = Asker("theirs")
    answers = taught_answers(state, state.legal_actions()[0], asker, {"CO:size"})
    assert len(asker.asked) == 1
    assert [(a.fact.key, a.right) for a in answers] == [("CO:size", True)]


def test_war_a_call_not_asked_counts_on_neither_card():
    """D-H2: the student's card's best ranking not met: no call is asked, so the computer's
    card's met ranking is not reviewed either (the call was not the student's)."""
    state = settle_state()
    asker = Asker()
    assert taught_answers(state, state.legal_actions()[0], asker, {"MD:statehood"}) == []
    assert asker.asked == []


# --- GeoPower Toss: an answer the move itself gives ---------------------------------------------


def test_toss_the_zone_answer_counts_when_met_though_the_beats_call_is_not_asked():
    """D-H2: following a Central lead with Illinois: the beats call on IL:size is not asked (not
    met), but the zone answer, given by the card played, counts when IL:zone is met."""
    state = toss(["IL", "NY", "CA"], ["TX", "OH"], trick=[(1, "TX")], dealer=1)
    action = state.game.card_action("IL")
    asker = Asker()
    answers = taught_answers(state, action, asker, {"IL:zone"})
    assert asker.asked == []
    assert [(a.fact.key, a.right) for a in answers] == [("IL:zone", True)]
    assert taught_answers(state, action, Asker(), set()) == []


def test_toss_breaking_the_zone_counts_only_when_the_zone_was_met():
    """D-H2 with T2: New York on a Central lead while holding Illinois is refused; the zone miss
    counts only when NY:zone was met."""
    state = toss(["IL", "NY", "CA"], ["TX", "OH"], trick=[(1, "TX")], dealer=1)
    action = state.game.card_action("NY")
    with pytest.raises(RefusedPlay) as met:
        taught_answers(state, action, Asker("not"), {"NY:zone"})
    assert [(a.fact.key, a.right) for a in met.value.answers] == [("NY:zone", False)]
    with pytest.raises(RefusedPlay) as not_met:
        taught_answers(state, action, Asker("not"), set())
    assert not_met.value.answers == []
