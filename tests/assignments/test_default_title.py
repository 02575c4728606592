"""An assignment's default title (issue #24): what, where and how much, in plain words that fit."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.assignments import (
    ACTIVITIES,
    MAX_REVIEWS,
    MAX_ROUNDS,
    MAX_TARGET,
    MIN_TARGET,
    TITLE_MAX,
    Amount,
    Scope,
    default_title,
)
from trainer.cards import Region, Zone, load_deck
from trainer.facts import Facet

DECK = load_deck()
POSTALS = sorted(state.postal for state in DECK)
AREAS = ["", *(f"region:{r.slug}" for r in Region), *(f"zone:{z.slug}" for z in Zone)]


def title(scope: Scope, *slugs: str, amount: Amount, quantity=None, target=None, **kw) -> str:
    return default_title(
        scope, DECK, [ACTIVITIES[s] for s in slugs], amount, quantity, target, **kw
    )


@pytest.mark.parametrize(
    ("scope", "slugs", "amount", "quantity", "target", "expected"),
    [
        (
            Scope(frozenset({Facet.CAPITAL}), "region:northeast"),
            ["review"],
            Amount.RECALL,
            None,
            0.9,
            "Capitals of the Northeast at 90%",
        ),
        (
            Scope(frozenset({Facet.MAP})),
            ["review"],
            Amount.REVIEWS,
            20,
            None,
            "Map of all 50 states: 20 answers in Flashcard review",
        ),
        (
            Scope(frozenset({Facet.POSTAL}), "", frozenset({"TX", "OH", "UT"})),
            ["state-iq"],
            Amount.ROUNDS,
            5,
            None,
            "Postal codes of Ohio, Texas and Utah: 5 rounds of State IQ",
        ),
        (
            Scope(frozenset({Facet.CAPITAL, Facet.MAP}), "region:west", frozenset({"TX"})),
            ["review", "dashing-states"],
            Amount.ROUNDS,
            1,
            None,
            "Map and Capitals of the West and Texas: 1 round",
        ),
        (Scope(), ["review"], Amount.RECALL, None, 0.85, "Everything about all 50 states at 85%"),
        (
            Scope(area="zone:pacific"),
            ["play-the-ranks"],
            Amount.REVIEWS,
            1,
            None,
            "Rankings of the Pacific time zone: 1 answer in Play the Ranks (drill)",
        ),
    ],
)
def test_the_title_names_what_where_and_how_much(scope, slugs, amount, quantity, target, expected):
    assert title(scope, *slugs, amount=amount, quantity=quantity, target=target) == expected


def test_many_states_are_counted_and_a_long_title_drops_the_activity():
    scope = Scope(frozenset({Facet.BORDERS}), "", frozenset({"TX", "OH", "UT", "ME"}))
    assert title(scope, "border-up", amount=Amount.ROUNDS, quantity=3) == (
        "Borders of 4 states: 3 rounds of Border-Up"
    )
    # Named states and the activity do not fit together: the activity goes first ...
    west = Scope(frozenset({Facet.CAPITAL}), "region:west", frozenset({"NH", "SC", "ND"}))
    assert title(west, "review", amount=Amount.REVIEWS, quantity=40) == (
        "Capitals of the West, New Hampshire, North Dakota and South Carolina: 40 answers"
    )
    # ... then the states are counted.
    far = Scope(frozenset({Facet.CAPITAL}), "zone:hawaii-aleutian", frozenset({"NH", "SC", "ND"}))
    assert title(far, "review", amount=Amount.REVIEWS, quantity=40) == (
        "Capitals of the Hawaii-Aleutian time zone and 3 states: 40 answers"
    )


def test_a_short_limit_is_kept():
    scope = Scope(frozenset(), "region:west", frozenset({"ND", "SD", "NH"}))
    cut = title(scope, "review", amount=Amount.REVIEWS, quantity=1000, max_length=30)
    assert len(cut) <= 30 and cut.startswith("Everything") and cut.endswith("… 1000 answers")


@settings(max_examples=300, deadline=None)
@given(
    facets=st.frozensets(st.sampled_from(list(Facet))),
    area=st.sampled_from(AREAS),
    states=st.frozensets(st.sampled_from(POSTALS)),
    slugs=st.lists(st.sampled_from(list(ACTIVITIES)), min_size=1, max_size=4, unique=True),
    amount=st.sampled_from(list(Amount)),
    quantity=st.integers(1, max(MAX_ROUNDS, MAX_REVIEWS)),
    percent=st.integers(round(MIN_TARGET * 100), round(MAX_TARGET * 100)),
)
def test_every_scope_gets_a_title_that_fits(facets, area, states, slugs, amount, quantity, percent):
    made = title(
        Scope(facets, area, states),
        *slugs,
        amount=amount,
        quantity=None if amount is Amount.RECALL else quantity,
        target=percent / 100 if amount is Amount.RECALL else None,
    )
    assert made.strip() and made == made.strip()
    assert len(made) <= TITLE_MAX
    # It always says how much: the goal's percent, or the number of rounds or answers.
    assert f"{percent}%" in made if amount is Amount.RECALL else f": {quantity} " in made


def test_the_web_column_holds_the_longest_title():
    from trainer.web.models import ASSIGNMENT_TITLE_MAX

    assert ASSIGNMENT_TITLE_MAX == TITLE_MAX
