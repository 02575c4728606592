"""The card album's levels (ruling P-L1): not met, bronze, silver, gold from the student's memory
of a state's facts; knowing more never lowers a card."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainer.album import (
    Album,
    AlbumCard,
    CardLevel,
    FactMemory,
    album,
    card_level,
    is_known,
    is_lasting,
)
from trainer.cards import load_deck
from trainer.dashboard_data import MASTERED_STABILITY_DAYS
from trainer.facts import Facet
from trainer.srs import LEARNED_STABILITY_DAYS

GOAL = 0.9
FACETS = list(Facet)


def known(stability: float = 5.0, recall: float = 0.95) -> FactMemory:
    return FactMemory(recall, stability)


def lasting() -> FactMemory:
    return FactMemory(0.97, MASTERED_STABILITY_DAYS + 1)


def test_p_l1_a_state_with_no_fact_answered_is_not_met():
    assert card_level({}, GOAL) is CardLevel.NOT_MET


def test_p_l1_one_fact_answered_is_bronze_even_when_missed():
    missed_today = FactMemory(1.0, 0.2)  # recall is 1.0 on the day of the answer; not learned
    assert not is_known(missed_today, GOAL)
    assert card_level({Facet.CAPITAL: missed_today}, GOAL) is CardLevel.BRONZE
    assert card_level({Facet.CAPITAL: known()}, GOAL) is CardLevel.BRONZE


def test_p_l1_half_the_facts_known_is_bronze_more_than_half_is_silver():
    half = {facet: known() for facet in FACETS[:4]}
    assert card_level(half, GOAL) is CardLevel.BRONZE
    most = {facet: known() for facet in FACETS[:5]}
    assert card_level(most, GOAL) is CardLevel.SILVER


def test_p_l1_every_fact_known_but_not_for_the_long_run_is_silver():
    assert card_level({facet: known() for facet in FACETS}, GOAL) is CardLevel.SILVER


def test_p_l1_every_fact_known_for_the_long_run_is_gold():
    assert card_level({facet: lasting() for facet in FACETS}, GOAL) is CardLevel.GOLD
    # One fact short of the long run, or forgotten below the goal: not gold.
    short = {facet: lasting() for facet in FACETS} | {Facet.ZONE: known()}
    assert card_level(short, GOAL) is CardLevel.SILVER
    faded = {facet: lasting() for facet in FACETS} | {
        Facet.ZONE: FactMemory(0.5, MASTERED_STABILITY_DAYS + 1)
    }
    assert card_level(faded, GOAL) is CardLevel.SILVER


def test_p_l1_known_means_learned_and_at_the_goal():
    assert is_known(FactMemory(GOAL, LEARNED_STABILITY_DAYS), GOAL)
    assert not is_known(FactMemory(GOAL - 0.01, 50.0), GOAL)
    assert not is_known(FactMemory(1.0, LEARNED_STABILITY_DAYS - 0.01), GOAL)
    assert not is_known(FactMemory(1.0, None), GOAL)
    assert not is_known(None, GOAL)
    # The goal is the student's own: the same memory is known at 80% but not at 97%.
    memory = FactMemory(0.85, 3.0)
    assert is_known(memory, 0.8) and not is_known(memory, 0.97)
    assert is_lasting(lasting(), GOAL) and not is_lasting(known(), GOAL)


# --- Knowing more never lowers a card (P-L1) ----------------------------------------------------

memories = st.one_of(
    st.none(),
    st.builds(
        FactMemory,
        st.floats(0, 1),
        st.one_of(st.none(), st.floats(0.01, 400)),
    ),
)
state_memories = st.fixed_dictionaries({facet: memories for facet in FACETS})


def _answered(raw: dict[Facet, FactMemory | None]) -> dict[Facet, FactMemory]:
    return {facet: m for facet, m in raw.items() if m is not None}


def _more(memory: FactMemory | None, recall: float, stability: float) -> FactMemory:
    """``memory`` known better: recall and stability no lower (a fact not met: now met)."""
    if memory is None:
        return FactMemory(recall, stability)
    return FactMemory(
        max(memory.recall, recall),
        stability if memory.stability is None else max(memory.stability, stability),
    )


@given(
    raw=state_memories,
    better=st.sets(st.sampled_from(FACETS)),
    recall=st.floats(0, 1),
    stability=st.floats(0.01, 400),
    goal=st.floats(0.7, 0.97),
)
def test_p_l1_knowing_more_never_lowers_a_card(raw, better, recall, stability, goal):
    before = _answered(raw)
    after = dict(before)
    for facet in better:
        after[facet] = _more(raw[facet], recall, stability)
    assert card_level(before, goal) <= card_level(after, goal)


@given(raw=state_memories, goal=st.floats(0.7, 0.97))
def test_p_l1_a_higher_goal_never_raises_a_card(raw, goal):
    memories_ = _answered(raw)
    assert card_level(memories_, min(goal + 0.02, 0.99)) <= card_level(memories_, goal)


@given(raw=state_memories, goal=st.floats(0.7, 0.97))
def test_p_l1_the_levels_agree_with_their_counts(raw, goal):
    memories_ = _answered(raw)
    level = card_level(memories_, goal)
    known_count = sum(is_known(memories_.get(f), goal) for f in FACETS)
    assert (level is CardLevel.NOT_MET) == (not memories_)
    if level is CardLevel.GOLD:
        assert known_count == len(FACETS)
    if level is CardLevel.SILVER:
        assert known_count > len(FACETS) / 2
    if level is CardLevel.BRONZE:
        assert known_count <= len(FACETS) / 2 or not all(
            is_lasting(memories_.get(f), goal) for f in FACETS
        )


# --- The album ------------------------------------------------------------------------------------


def test_the_album_has_every_card_by_name_and_counts_them():
    deck = load_deck()
    mine = {
        "CO": {facet: lasting() for facet in FACETS},
        "UT": {facet: known() for facet in FACETS[:5]},
        "TX": {Facet.MAP: FactMemory(1.0, 0.2)},
        "WY": {Facet.CAPITAL: known()},
    }
    book = album(deck, mine, GOAL)
    assert [c.name for c in book.cards] == sorted(c.name for c in book.cards)
    assert len(book.cards) == 50
    by_postal = {c.postal: c for c in book.cards}
    assert by_postal["CO"].level is CardLevel.GOLD and by_postal["CO"].known == 8
    assert by_postal["UT"].level is CardLevel.SILVER and by_postal["UT"].facts_text == (
        "5 of 8 facts known"
    )
    assert by_postal["TX"].level is CardLevel.BRONZE and by_postal["TX"].met == 1
    assert by_postal["TX"].known == 0
    assert by_postal["OH"].level is CardLevel.NOT_MET and by_postal["OH"].met == 0
    assert book.collected == 4
    assert book.summary == "4 of 50 cards: 1 gold, 1 silver, 2 bronze"


def test_an_empty_album_says_so():
    book = album(load_deck(), {}, GOAL)
    assert book.summary == "0 of 50 cards: 0 gold, 0 silver, 0 bronze"
    single = Album((AlbumCard("CO", "Colorado", CardLevel.GOLD, 8, 8, 8),))
    assert single.summary == "1 of 1 card: 1 gold, 0 silver, 0 bronze"


@pytest.mark.parametrize("level", list(CardLevel))
def test_every_level_has_words(level):
    assert level.label and level.meaning and level.slug.isascii()
    assert CardLevel.NOT_MET.slug == "not-met"
