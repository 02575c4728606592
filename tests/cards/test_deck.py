"""The deck's facts, checked against every example the rule texts give (G1-G5)."""

from __future__ import annotations

import datetime as dt

import pytest

from trainer.cards import Category, Zone, load_deck


@pytest.fixture(scope="module")
def deck():
    return load_deck()


def test_fifty_states_fifteen_power_cards(deck):
    assert len(deck) == 50
    assert len({s.postal for s in deck}) == 50
    assert len(deck.power_cards) == 15


@pytest.mark.parametrize("category", list(Category))
def test_each_ranking_is_a_permutation(deck, category):
    """G1: each ranking a permutation of 1..50."""
    assert sorted(s.rank(category) for s in deck) == list(range(1, 51))


def test_california_from_the_rules(deck):
    """G1: California is size 3, statehood 31, population 1."""
    ca = deck["CA"]
    assert (ca.size_rank, ca.statehood_rank, ca.population_rank) == (3, 31, 1)


def test_best_rankings_from_the_rules(deck):
    """G1: Maryland's best ranking is statehood 7; Colorado's is size 8."""
    assert deck["MD"].best_rank == 7 and deck["MD"].best_categories == (Category.STATEHOOD,)
    assert deck["CO"].best_rank == 8 and deck["CO"].best_categories == (Category.SIZE,)


def test_single_rankings_from_the_rules(deck):
    """G1 and the GeoPower Toss text: Montana size 4, Washington size 20, New York population 3,
    Alaska size 1, Delaware statehood 1, Hawaii statehood 50, California population 1."""
    assert deck["Montana"].size_rank == 4
    assert deck["Washington"].size_rank == 20
    assert deck["New York"].population_rank == 3
    assert deck["Alaska"].size_rank == 1
    assert deck["Delaware"].statehood_rank == 1
    assert deck["Hawaii"].statehood_rank == 50
    assert deck["California"].population_rank == 1


def test_georgia_beats_maine_in_all_three(deck):
    """G1 / W3: Georgia is better than Maine in all three rankings."""
    assert deck["GA"].beats_in_all(deck["ME"])
    assert not deck["ME"].beats_in_all(deck["GA"])


def test_play_the_ranks_example(deck):
    """Play the Ranks text: New York's population beats Colorado's (tricks 1-4); Colorado's
    statehood is closer to 50 than New York's (tricks 5-8)."""
    assert deck["NY"].population_rank < deck["CO"].population_rank
    assert deck["CO"].statehood_rank > deck["NY"].statehood_rank


def test_dakotas_admitted_same_day_in_alphabetical_order(deck):
    """G1: North and South Dakota, admitted the same day, are ranked alphabetically."""
    nd, sd = deck["ND"], deck["SD"]
    assert nd.statehood_date == sd.statehood_date == dt.date(1889, 11, 2)
    assert sd.statehood_rank == nd.statehood_rank + 1


def test_virginia_borders_maryland_and_north_carolina(deck):
    """Border-Up text: Maryland, Virginia and North Carolina form a group through Virginia."""
    names = {s.name for s in deck.neighbours("VA")}
    assert {"Maryland", "North Carolina"} <= names
    assert deck.borders_between("MD", "VA") and deck.borders_between("nc", "Virginia")
    assert not deck.borders_between("MD", "NC")


def test_four_corners_are_not_borders(deck):
    """G5: states meeting only at a point do not border."""
    assert not deck.borders_between("AZ", "CO")
    assert not deck.borders_between("UT", "NM")
    assert deck.borders_between("AZ", "UT") and deck.borders_between("CO", "NM")


def test_water_only_lines_are_not_borders(deck):
    """G5: a land boundary of positive length; lake and sea lines do not count."""
    assert not deck.borders_between("MI", "MN")
    assert not deck.borders_between("MI", "IL")
    assert not deck.borders_between("NY", "RI")
    assert deck.borders_between("MI", "WI")


def test_alaska_and_hawaii_border_no_state(deck):
    """G5."""
    assert deck.neighbours("AK") == ()
    assert deck.neighbours("HI") == ()


def test_neighbours_are_symmetric(deck):
    """G5: if A borders B then B borders A."""
    for state in deck:
        for other in deck.neighbours(state):
            assert state in deck.neighbours(other)


def test_well_known_neighbour_counts(deck):
    """Tennessee and Missouri border eight states each; Maine borders only New Hampshire."""
    assert len(deck.neighbours("TN")) == 8
    assert len(deck.neighbours("MO")) == 8
    assert [s.postal for s in deck.neighbours("ME")] == ["NH"]


@pytest.mark.parametrize("key", ["co", "CO", "Colorado", "colorado", "  COLORADO "])
def test_lookup_by_postal_or_name_any_case(deck, key):
    assert deck[key].postal == "CO"


def test_unknown_lookup(deck):
    assert deck.get("ZZ") is None
    assert deck.get("Puerto Rico") is None
    with pytest.raises(KeyError):
        deck["Atlantis"]


def test_zone_colours(deck):
    """G2: Eastern red, Central green, Mountain blue, Pacific purple, Alaska brown, Hawaii-Aleutian orange."""
    assert {z: z.colour for z in Zone} == {
        Zone.EASTERN: "red",
        Zone.CENTRAL: "green",
        Zone.MOUNTAIN: "blue",
        Zone.PACIFIC: "purple",
        Zone.ALASKA: "brown",
        Zone.HAWAII_ALEUTIAN: "orange",
    }
    assert deck["AK"].zone is Zone.ALASKA
    assert deck["HI"].zone is Zone.HAWAII_ALEUTIAN
    assert deck["CA"].zone is Zone.PACIFIC
    assert deck["CO"].zone is Zone.MOUNTAIN
    assert deck["TX"].zone is Zone.CENTRAL
    assert deck["NY"].zone is Zone.EASTERN


def test_primary_zone_of_split_states(deck):
    """G2: a split state's card shows the zone of most of its people; the other zone is secondary."""
    assert deck["ID"].zone is Zone.MOUNTAIN and Zone.PACIFIC in deck["ID"].secondary_zones
    assert deck["OR"].zone is Zone.PACIFIC and Zone.MOUNTAIN in deck["OR"].secondary_zones
    assert deck["FL"].zone is Zone.EASTERN and Zone.CENTRAL in deck["FL"].secondary_zones
    assert deck["TX"].zone is Zone.CENTRAL and Zone.MOUNTAIN in deck["TX"].secondary_zones
    assert deck["TN"].zone is Zone.CENTRAL and Zone.EASTERN in deck["TN"].secondary_zones
    assert deck["KY"].zone is Zone.EASTERN and Zone.CENTRAL in deck["KY"].secondary_zones
    assert deck["AZ"].secondary_zones == ()


def test_every_zone_has_cards(deck):
    assert all(deck.in_zone(zone) for zone in Zone)
    assert sum(len(deck.in_zone(zone)) for zone in Zone) == 50


def test_power_cards_follow_g3(deck):
    """G3: 5 Size, 5 Statehood, 5 Population; six orders twice each plus AAA, BBB, CCC."""
    from collections import Counter

    assert Counter(c.category for c in deck.power_cards) == {c: 5 for c in Category}
    codes = Counter(c.clue_code for c in deck.power_cards)
    assert codes == {
        **{o: 2 for o in ("ABC", "ACB", "BAC", "BCA", "CAB", "CBA")},
        "AAA": 1,
        "BBB": 1,
        "CCC": 1,
    }
    for category in Category:
        # Spread evenly: a category never holds the same code twice.
        in_category = [c.clue_code for c in deck.power_cards if c.category is category]
        assert len(set(in_category)) == 5


def test_capitals_sample(deck):
    """A spot check of capitals students often get wrong."""
    assert deck["NY"].capital == "Albany"
    assert deck["IL"].capital == "Springfield"
    assert deck["PA"].capital == "Harrisburg"
    assert deck["MN"].capital == "Saint Paul"
    assert deck["NV"].capital == "Carson City"
    assert deck["KY"].capital == "Frankfort"
    assert deck["VT"].capital == "Montpelier"
    assert deck["SD"].capital == "Pierre"


def test_sorted_by(deck):
    assert [s.postal for s in deck.sorted_by(Category.POPULATION)[:3]] == ["CA", "TX", "NY"]
    assert deck.sorted_by(Category.SIZE)[0].postal == "AK"
    assert deck.sorted_by(None)[0].name == "Alabama"


def test_map_cards(deck):
    """G4: a Map card per state; tiny states get a call-out so they can be seen."""
    small = {s.postal for s in deck if deck.map_card(s).needs_callout}
    assert {"RI", "DE", "CT", "NJ", "MD", "MA", "VT", "NH", "HI"} <= small
    assert not deck.map_card("CO").needs_callout
    assert not deck.map_card("TX").needs_callout
    assert deck.map_card("CO").state.name == "Colorado"


def test_census_regions(deck):
    """The four Census regions hold 9, 12, 16 and 13 states."""
    from trainer.cards import Region

    sizes = {region: len(deck.in_region(region)) for region in Region}
    assert sizes == {Region.NORTHEAST: 9, Region.MIDWEST: 12, Region.SOUTH: 16, Region.WEST: 13}
    assert deck.regions["TX"] is Region.SOUTH and deck.regions["DE"] is Region.SOUTH
    assert deck.regions["PA"] is Region.NORTHEAST and deck.regions["HI"] is Region.WEST
