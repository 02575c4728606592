"""A teacher runs a whole Combo 1 class tournament in Chromium: teams, eight rounds with a bye,
results typed in, the projector on a second screen, the playoffs if any, and the championship."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import sign_up_teacher


def enter_results(page) -> None:
    """Every match of the round: the first team wins 3 games to 1."""
    while page.locator("form.tournament-result").count():
        form = page.locator("form.tournament-result").first
        fields = form.locator("input[type=text], input[type=number]")
        fields.nth(0).fill("3")
        fields.nth(1).fill("1")
        fields.nth(2).fill("0")
        form.get_by_role("button", name="Save the result").click()
        expect(page.get_by_role("status").first).to_contain_text("Saved:")


def test_a_teacher_runs_a_whole_tournament(page, browser, live_server):
    sign_up_teacher(page, "coach_lee")
    page.get_by_label("Class name").fill("Room 7")
    page.get_by_role("button", name="Create class").click()
    page.get_by_role("link", name="Make student accounts").click()
    names = ["Ann Lee", "Ben Ode", "Cy Park", "Dee Ruiz", "Eve Sato", "Fay Tam", "Gus Uhl", "Hal Vos", "Ivy Wu"]
    page.get_by_label("Student names, one per line").fill("\n".join(names))
    page.get_by_role("button", name="Create accounts").click()
    expect(page.locator(".slip")).to_have_count(9)
    page.goto("/teach/")
    page.get_by_role("link", name="Room 7").click()

    # Nine students: three teams of 3, made at random.
    page.get_by_role("link", name="New tournament").click()
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.get_by_role("alert")).to_be_visible()  # the name is required
    page.get_by_label("Tournament name").fill("Spring Cup")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Spring Cup")
    tournament_url = page.url

    # The projector on a second screen: the same tournament, from the server.
    projector = page.context.new_page()
    for number in range(1, 9):
        page.get_by_role("button", name=f"Pair round {number}").click()
        expect(page.get_by_role("heading", name=re.compile(f"Round {number} of 8"))).to_be_visible()
        expect(page.locator(".tournament-pairings").get_by_text("has a bye (counts as a win)")).to_have_count(1)
        if number == 1:
            # A mistake first: more games than a round can hold is refused and nothing is saved.
            form = page.locator("form.tournament-result").first
            form.locator("input[type=text], input[type=number]").nth(0).fill("25")
            form.get_by_role("button", name="Save the result").click()
            expect(page.get_by_role("alert")).to_be_visible()
            page.goto(tournament_url)
            page.get_by_role("button", name=re.compile("Start the round clock")).click()
            clock = page.get_by_role("timer")
            first = clock.inner_text()
            expect(clock).not_to_have_text(first, timeout=5_000)
            projector.goto(tournament_url + "/projector")
            expect(projector.get_by_text("Round 1 of 8")).to_be_visible()
            expect(projector.get_by_text("has a bye")).to_be_visible()
        enter_results(page)
    page.get_by_role("button", name="Finish the rounds: on to the championship").click()

    # Playoffs (if two teams are tied for a place) and the championship: the first team wins
    # each game until the app says who the champion is.
    for _ in range(12):
        if page.get_by_role("heading", name=re.compile("^Champion: ")).count():
            break
        form = page.locator("form.tournament-game")
        form.locator("input[type=radio]").first.check()
        form.get_by_role("button", name="Save the result").click()
        expect(page.get_by_role("status").first).to_contain_text("Saved:")
    champion = page.get_by_role("heading", name=re.compile("^Champion: Team \\d$"))
    expect(champion).to_be_visible()
    expect(page.get_by_text(re.compile("Championship games won: Team \\d 3, Team \\d 0"))).to_be_visible()

    # A refresh or another screen shows the same ending.
    projector.reload()
    expect(projector.get_by_role("heading", name=champion.inner_text())).to_be_visible()
    page.reload()
    expect(champion).to_be_visible()
