"""The pick maps by keyboard, and small states a child can hit (#21).

State IQ's map (which may name its states) is one Tab stop, the arrow keys move between
neighbouring states, letters jump to a state and Enter picks it. A "Find X" map moves by arrows
but ignores letters and names no state. Every state, or the round target of a small one, is at
least 24x24 CSS px at 360 px and at 1280 px, and nothing covers a target.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from tests.browser.conftest import add_state_iq_game, sign_up_student
from trainer.cards.geometry import compass_neighbours
from trainer.review import pick_map
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import StudyRound, User

KEYS = {
    "north": "ArrowUp",
    "east": "ArrowRight",
    "south": "ArrowDown",
    "west": "ArrowLeft",
    "north-west": "Home",
    "north-east": "PageUp",
    "south-west": "End",
    "south-east": "PageDown",
}

#: Every state's clickable outline and, for a small one, its round target, in CSS px (the target
#: scrolled into view first, as a child on a phone scrolls the map), and whether the target's
#: middle is the target itself (nothing drawn over it).
MEASURE = """([attribute]) => {
  const out = {};
  for (const path of document.querySelectorAll('[data-pick-map] [' + attribute + ']')) {
    const key = path.getAttribute(attribute);
    const box = path.getBoundingClientRect();
    const entry = {w: box.width, h: box.height};
    const target = document.querySelector('[data-pick-map] [data-for="' + key + '"]');
    if (target) {
      target.scrollIntoView({block: 'center', inline: 'center'});
      const t = target.getBoundingClientRect();
      const hit = document.elementFromPoint(t.x + t.width / 2, t.y + t.height / 2);
      entry.target = {w: t.width, h: t.height, clear: hit === target};
    }
    out[key] = entry;
  }
  return out;
}"""


def _state_iq_game(app, token: str) -> None:
    add_state_iq_game(app, token)


def _find_round(app, token: str, postal: str, seed: int = 424242) -> None:
    with app.app_context():
        student = db.session.execute(select(User)).scalar_one()
        db.session.add(
            StudyRound(
                token=token,
                student_id=student.id,
                seed=seed,
                items=[[f"{postal}:map", "map_click"]],
                focus={},
            )
        )
        db.session.commit()


def _tab_into_map(page, attribute: str) -> str:
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.hasAttribute('{attribute}')"):
            return page.evaluate(f"document.activeElement.getAttribute('{attribute}')")
    raise AssertionError("Tab never reached the map")


def _route(moves: dict[str, dict[str, str]], start: str, goal: str) -> list[str]:
    """The fewest key presses from ``start`` to ``goal`` with the page's own moves."""
    routes = {start: []}
    todo = [start]
    while todo:
        here = todo.pop(0)
        for direction, there in moves[here].items():
            if there not in routes:
                routes[there] = routes[here] + [direction]
                todo.append(there)
    return routes[goal]


def _page_moves(page, attribute: str) -> dict[str, dict[str, str]]:
    return page.evaluate(
        """([attribute, directions]) => {
          const out = {};
          for (const path of document.querySelectorAll('[data-pick-map] [' + attribute + ']')) {
            const moves = {};
            for (const d of directions) {
              if (path.hasAttribute('data-' + d)) moves[d] = path.getAttribute('data-' + d);
            }
            out[path.getAttribute(attribute)] = moves;
          }
          return out;
        }""",
        [attribute, list(KEYS)],
    )


def test_state_iq_map_by_arrows_reaches_the_east_in_a_few_presses(page, live_app):
    sign_up_student(page, "arrow_iq")
    _state_iq_game(live_app, "arrows")
    page.goto("/play/state-iq/arrows")
    page.get_by_text("Or pick the state on the map").click()
    page.locator("#answer").focus()
    start = _tab_into_map(page, "data-postal")
    # One Tab stop: the next Tab leaves the map, Shift+Tab comes back to the same state.
    page.keyboard.press("Tab")
    assert not page.evaluate("document.activeElement.hasAttribute('data-postal')")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.getAttribute('data-postal')") == start

    moves = _page_moves(page, "data-postal")
    # The moves are the server's own rule (trainer.cards.geometry.compass_neighbours).
    with live_app.app_context():
        deck = get_deck()
        centroids = {p: s.centroid for p, s in deck.geometry.shapes.items()}
        borders = {s.postal: {n.postal for n in deck.neighbours(s)} for s in deck}
    assert moves == compass_neighbours(centroids, borders)

    route = _route(moves, start, "ME")
    assert len(route) <= 10, route
    for direction in route:
        page.keyboard.press(KEYS[direction])
        expect(page.locator("#pick-live-named")).to_have_text(re.compile(rf"^Moved {direction}\."))
        assert (
            page.evaluate("document.querySelectorAll('[data-postal][tabindex=\"0\"]').length") == 1
        )
    assert page.evaluate("document.activeElement.getAttribute('data-postal')") == "ME"
    expect(page.locator("#pick-live-named")).to_have_text(re.compile("Maine$"))
    page.keyboard.press("Enter")
    expect(page.get_by_text("Guess 1: Maine")).to_be_visible()


def test_letters_jump_to_a_state_on_state_iqs_map(page, live_app):
    sign_up_student(page, "letters_iq")
    _state_iq_game(live_app, "letters")
    page.goto("/play/state-iq/letters")
    page.get_by_text("Or pick the state on the map").click()
    page.locator("#answer").focus()
    _tab_into_map(page, "data-postal")
    focused = "document.activeElement.getAttribute('aria-label')"
    page.keyboard.press("m")
    first = page.evaluate(focused)
    assert first.startswith("M")
    expect(page.locator("#pick-live-named")).to_have_text(f"{first}.")
    page.keyboard.press("m")
    second = page.evaluate(focused)
    assert second.startswith("M") and second != first
    page.wait_for_timeout(1000)  # a pause: the next letters start a new name
    page.keyboard.type("ohi")
    assert page.evaluate(focused) == "Ohio"
    assert page.evaluate("document.querySelectorAll('[data-postal][tabindex=\"0\"]').length") == 1
    page.wait_for_timeout(1000)
    page.keyboard.press("q")
    expect(page.locator("#pick-live-named")).to_have_text("No state starts with Q.")
    assert page.evaluate(focused) == "Ohio"
    page.keyboard.press("Enter")
    expect(page.get_by_text("Guess 1: Ohio")).to_be_visible()


def test_on_a_find_x_question_letters_do_nothing_and_the_dom_names_no_state(page, live_app):
    sign_up_student(page, "letters_find")
    _find_round(live_app, "find-letters", "TX")
    with live_app.app_context():
        deck = get_deck()
        names = [s.name for s in deck]
        codes = [s.postal for s in deck]
        spots = {str(s.number): s.postal for s in pick_map(deck, 424242, 1).spots}
    page.goto("/study/rounds/find-letters/1")
    expect(page.get_by_role("group", name="Find Texas on the map.")).to_be_visible()
    start = _tab_into_map(page, "data-spot")
    live_before = page.locator("#pick-live").text_content()
    page.keyboard.type("texasmaine")
    page.keyboard.press("r")
    assert page.evaluate("document.activeElement.getAttribute('data-spot')") == start
    assert page.locator("#pick-live").text_content() == live_before
    assert page.locator("input[name=answer]").input_value() == ""
    # Nothing in the live page (after the scripts ran) names a state, but the question itself.
    html = page.content().replace("Find Texas on the map.", "")
    assert not any(name in html for name in names)
    for value in page.evaluate(
        "Array.from(document.querySelectorAll('[data-pick-map] *')).flatMap("
        "e => Array.from(e.attributes).map(a => a.value))"
    ):
        assert not any(re.search(rf"(?<![A-Za-z]){c}(?![A-Za-z])", value) for c in codes), value
    # The arrows still reach Texas in a few presses, and Enter picks it.
    moves = _page_moves(page, "data-spot")
    goal = next(n for n, p in spots.items() if p == "TX")
    route = _route(moves, start, goal)
    assert len(route) <= 10, route
    for direction in route:
        page.keyboard.press(KEYS[direction])
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Right!")


@pytest.mark.parametrize("width", [360, 1280])
def test_every_state_on_state_iqs_map_has_a_target_a_child_can_hit(page, live_app, width):
    page.set_viewport_size({"width": width, "height": 740 if width == 360 else 900})
    sign_up_student(page, f"tap_iq_{width}")
    _state_iq_game(live_app, "taps")
    page.goto("/play/state-iq/taps")
    page.get_by_text("Or pick the state on the map").click()
    sizes = page.evaluate(MEASURE, ["data-postal"])
    assert len(sizes) == 50
    _assert_hittable(sizes)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # A real tap on Rhode Island's target picks Rhode Island.
    page.locator('[data-for="RI"]').click()
    expect(page.get_by_text("Guess 1: Rhode Island")).to_be_visible()


@pytest.mark.parametrize("width", [360, 1280])
def test_every_state_on_a_find_x_map_has_a_target_a_child_can_hit(page, live_app, width):
    page.set_viewport_size({"width": width, "height": 740 if width == 360 else 900})
    sign_up_student(page, f"tap_find_{width}")
    _find_round(live_app, "find-taps", "CO", seed=99)
    with live_app.app_context():
        spots = {str(s.number): s.postal for s in pick_map(get_deck(), 99, 1).spots}
    page.goto("/study/rounds/find-taps/1")
    sizes = page.evaluate(MEASURE, ["data-spot"])
    assert len(sizes) == 50
    _assert_hittable(sizes)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # A tap on Delaware's target answers Delaware (wrong here: the question is Colorado).
    delaware = next(n for n, p in spots.items() if p == "DE")
    page.locator(f'[data-for="{delaware}"]').click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Not this time"))
    expect(page.get_by_text("Delaware").first).to_be_visible()


def _assert_hittable(sizes: dict[str, dict]) -> None:
    small = []
    for key, size in sizes.items():
        if size["w"] >= 24 and size["h"] >= 24:
            continue
        target = size.get("target")
        assert target, f"{key} is {size['w']:.0f}x{size['h']:.0f} px and has no larger target"
        assert target["w"] >= 24 and target["h"] >= 24, (key, target)
        assert target["clear"], f"something covers the target of {key}"
        small.append(key)
    assert small, "the small states are measured through their targets"
