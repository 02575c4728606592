"""What the pick maps carry for the keyboard and for small states (#21): the round targets of
the small states name no state on a "Find X" map, and State IQ's named map carries each state's
centre and borders for the arrow keys, with one Tab stop."""

from __future__ import annotations

import re

import pytest

from tests.web.test_state_iq import make_game
from tests.web.test_study import Study, _add_round
from trainer.facts import Facet, Fact, Form, forms_for
from trainer.review import pick_map
from trainer.web import get_deck

#: The states whose Map card gets a call-out: each gets a target on a pick map (P-M13).
SMALL = {"CT", "DE", "HI", "MA", "MD", "NH", "NJ", "RI", "VT"}


def _small_states(deck) -> set[str]:
    return {s.postal for s in deck if deck.map_card(s.postal).needs_callout}


def _attrs(tag: str) -> dict[str, str]:
    return dict(re.findall(r'([\w:-]+)="([^"]*)"', tag))


@pytest.fixture
def study(app, client, auth, student) -> Study:
    auth.login()
    return Study(app, client)


def test_the_small_states_are_the_ones_that_get_a_target(app):
    with app.app_context():
        assert _small_states(get_deck()) == SMALL


def test_a_find_x_maps_targets_say_only_a_spot(study, client):
    """Each small state's target stands for a spot of the question's own map, in spot order, drawn
    through the question's stretch (no coordinate is the public one), and names no state."""
    with study.app.app_context():
        deck = get_deck()
        clickable = [
            s.postal for s in deck if Form.MAP_CLICK in forms_for(Fact(s.postal, Facet.MAP), deck)
        ][:3]
        names = {s.postal: s.name for s in deck}
    _add_round(study.app, "targets", [[f"{p}:map", "map_click"] for p in clickable], seed=77)
    drawn = []
    for index, postal in enumerate(clickable, start=1):
        url = f"/study/rounds/targets/{index}"
        html = client.get(url).get_data(as_text=True)
        page = html.replace(f"Find {names[postal]} on the map.", "")
        targets = [_attrs(t) for t in re.findall(r"<ellipse\b[^>]*\bdata-for=[^>]*>", page)]
        with study.app.app_context():
            pick = pick_map(deck, study.round_of(url).seed, index)
        stands_for = [pick.postal_of(t["data-for"]) for t in targets]
        assert set(stands_for) == SMALL and len(stands_for) == len(SMALL)
        assert [int(t["data-for"]) for t in targets] == sorted(int(t["data-for"]) for t in targets)
        assert all(
            set(t) == {"class", "cx", "cy", "rx", "ry", "data-for", "aria-hidden"} for t in targets
        )
        # The public column of targets is at x 952: a stretched map never draws it there.
        assert not any(t["cx"] in ("952", "952.00") for t in targets)
        assert "data-postal" not in page and "data-borders" not in page
        for name in names.values():
            assert name not in page
        for value in re.findall(r'data-for="([^"]*)"', page):
            assert value.isdigit()
        drawn.append(tuple(t["cx"] + "," + t["cy"] for t in targets))
        # A target's spot is an answer like any other: the server judges it (a wrong one here).
        target_spot = next(t["data-for"] for t in targets if pick.postal_of(t["data-for"]) == "RI")
        assert study.answer(url, target_spot).status_code == 302
        assert "Rhode Island" in client.get(url).get_data(as_text=True)
    assert len(set(drawn)) == len(drawn), "each question draws its targets afresh"


def test_state_iqs_map_carries_centres_and_borders_and_one_tab_stop(app, client, auth, student):
    auth.login()
    url = make_game(app, student.id, student_card="TX", computer_card="UT")
    html = client.get(url).get_data(as_text=True)
    svg = re.search(r'<svg class="map-card map-card--pick".*?</svg>', html, flags=re.S).group(0)
    paths = [_attrs(t) for t in re.findall(r"<use\b[^>]*\bdata-postal=[^>]*>", svg)]
    with app.app_context():
        deck = get_deck()
        assert [p["data-postal"] for p in paths] == deck.geometry.west_to_east()
        for p in paths:
            shape = deck.geometry.shapes[p["data-postal"]]
            assert (float(p["data-x"]), float(p["data-y"])) == pytest.approx(shape.centroid)
            assert set(p["data-borders"].split()) == {
                n.postal for n in deck.neighbours(p["data-postal"])
            }
            assert p["aria-label"] == deck[p["data-postal"]].name
    assert [p["tabindex"] for p in paths].count("0") == 1
    assert all(p["tabindex"] in ("0", "-1") for p in paths)
    targets = re.findall(r'<circle\b[^>]*\bdata-for="([A-Z]{2})"', svg)
    assert set(targets) == SMALL and len(targets) == len(SMALL)
    assert "data-pick-map" in svg and 'aria-live="polite"' in html
    assert "js/pickmap.js" in html
