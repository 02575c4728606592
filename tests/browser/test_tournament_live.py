"""A tournament match's Border-Up race played on the two teams' own devices, in Chromium (issue 22,
P-K8 to P-K10): a student of each team takes the team's seat from the match page, the first one's
waiting page becomes the race by itself when the other team sits, the first right call wins, and
the teacher's round page and the projector show the result without a reload (they ask for their
live part again)."""

from __future__ import annotations

from contextlib import ExitStack

from playwright.sync_api import expect
from sqlalchemy import select

from tests.browser.live_support import open_projector, own_browser
from tests.browser.test_live import PASSWORD, log_in, no_serious_violations
from tests.browser.test_live_race import right_call
from tests.conftest import make_user
from trainer.web.extensions import db
from trainer.web.models import (
    ClassMembership,
    LiveSeat,
    LiveTable,
    Role,
    SchoolClass,
    Tournament,
    TournamentMatch,
    TournamentMember,
    TournamentTeam,
    User,
)


def a_paired_round(app) -> tuple[int, int]:
    """Ms Rivera's class: team 1 ana.b, team 2 ben.c, round 1 paired (team 1 side A)."""
    teacher = make_user(app, "ms.rivera", PASSWORD, role=Role.TEACHER)
    ids = [make_user(app, name, PASSWORD).id for name in ("ana.b", "ben.c")]
    with app.app_context():
        klass = SchoolClass(teacher_id=teacher.id, name="5B", join_code="K7P2QRST")
        db.session.add(klass)
        db.session.flush()
        db.session.add_all(ClassMembership(class_id=klass.id, student_id=i) for i in ids)
        tournament = Tournament(
            class_id=klass.id, name="Spring cup", seed=5, round=1, stage="rounds"
        )
        db.session.add(tournament)
        db.session.flush()
        teams = [
            TournamentTeam(tournament_id=tournament.id, number=n, name=f"Team {n}") for n in (1, 2)
        ]
        db.session.add_all(teams)
        db.session.flush()
        db.session.add_all(
            TournamentMember(tournament_id=tournament.id, team_id=team.id, student_id=student)
            for team, student in zip(teams, ids, strict=True)
        )
        match = TournamentMatch(
            tournament_id=tournament.id, round=1, a_team_id=teams[0].id, b_team_id=teams[1].id
        )
        db.session.add(match)
        db.session.commit()
        return tournament.id, match.id


def test_a_match_race_on_two_devices_reaches_the_teachers_page_by_itself(
    browser, page, live_app, live_server
):
    tid, mid = a_paired_round(live_app)
    contexts = [
        browser.new_context(base_url=live_server, viewport={"width": 360, "height": 740})
        for _ in range(2)
    ]
    errors: list[str] = []
    try:
        ana, ben = (context.new_page() for context in contexts)
        teacher = page
        for tab in (ana, ben, teacher):
            tab.set_default_timeout(10_000)
            tab.on("pageerror", lambda error: errors.append(str(error)))
        log_in(teacher, "ms.rivera")
        log_in(ana, "ana.b")
        log_in(ben, "ben.c")
        teacher.goto(f"/teach/tournaments/{tid}")
        expect(teacher.locator("#tournament-live")).to_contain_text("No game of this round")
        teacher.evaluate("window.__sameDocument = true")
        # The projector, at 1920x1080, follows the live games too (P-K10), in team names only.
        projector = open_projector(teacher, tid, errors)
        projector.evaluate("window.__sameDocument = true")

        match = f"/tournaments/{tid}/matches/{mid}"
        ana.goto(match)
        ana.get_by_role("button", name="Play game 1 on our own devices").click()
        expect(ana.locator("#live-announce")).to_contain_text("You hold your team’s seat")
        no_serious_violations(ana)

        ben.goto(match)
        expect(ben.get_by_text("ana.b holds Team 1’s seat")).to_be_visible()
        ben.get_by_role("button", name="Play game 1 on our own devices").click()
        expect(ben.locator("#bu-cards li")).to_have_count(18)
        # Ana's waiting page becomes the race by itself.
        expect(ana.locator("#bu-cards li")).to_have_count(18)
        expect(teacher.locator("#tournament-live")).to_contain_text(
            "being played now", timeout=15_000
        )

        for number, group in enumerate(right_call(live_app, "ana.b"), 1):
            for postal in group:
                ana.locator(f"#group-{postal}").select_option(str(number))
        ana.get_by_role("button", name="GeoPlunge!").click()
        expect(ana.get_by_role("heading", name="You win!")).to_be_visible()
        expect(ana.get_by_role("link", name="Back to the match: its next game")).to_be_visible()

        live = teacher.locator("#tournament-live")
        expect(live).to_contain_text("over, Team 1 won", timeout=15_000)
        expect(live).to_contain_text("Recorded in the match by the app")
        assert teacher.evaluate("window.__sameDocument === true"), "the round page reloaded"
        shown = projector.locator("#tournament-live")
        expect(shown).to_contain_text("Game 1, Border-Up: over, Team 1 won.", timeout=15_000)
        expect(shown).not_to_contain_text("ana.b")
        assert projector.evaluate("window.__sameDocument === true"), "the projector reloaded"
        assert projector.evaluate("document.documentElement.scrollWidth") <= 1920
        no_serious_violations(projector)

        ana.get_by_role("link", name="Back to the match: its next game").click()
        expect(ana.get_by_text("Now: game 2, State IQ")).to_be_visible()
        expect(ana.get_by_text("The app (played on your devices)")).to_be_visible()
        assert ana.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        for context in contexts:
            context.close()
    assert errors == [], errors


# --- a team of two students, each on their own device (P-K8, P-K10) -------------------------


def a_teammate(app, tid: int, username: str) -> None:
    """``username``, a classmate of ana.b's in her team (Team 1)."""
    user = make_user(app, username, PASSWORD)
    with app.app_context():
        klass = db.session.execute(select(SchoolClass)).scalar_one()
        team = db.session.execute(
            select(TournamentTeam).where(
                TournamentTeam.tournament_id == tid, TournamentTeam.number == 1
            )
        ).scalar_one()
        db.session.add(ClassMembership(class_id=klass.id, student_id=user.id))
        db.session.add(TournamentMember(tournament_id=tid, team_id=team.id, student_id=user.id))
        db.session.commit()


def match_table(app, mid: int) -> tuple[str, str, int, list[int | None]]:
    """The match's live table: its code, status, version and each seat's student."""
    with app.app_context():
        table = db.session.execute(
            select(LiveTable).where(LiveTable.tournament_match_id == mid)
        ).scalar_one()
        seats = db.session.execute(
            select(LiveSeat.user_id).where(LiveSeat.table_id == table.id).order_by(LiveSeat.seat)
        ).scalars()
        return table.code, table.status, table.version, list(seats)


def test_a_teammate_on_her_own_device_is_told_who_holds_the_seat_and_sees_the_result(
    browser, live_app, live_server
):
    """P-K8: the first student of a team to press holds its seat for the game; a teammate who
    presses on her own device (from a page that still offered it) is told who holds it, takes
    nothing and finds no table. P-K10: her match page follows the game by itself, from waiting to
    being played to the result the app recorded."""
    tid, mid = a_paired_round(live_app)
    a_teammate(live_app, tid, "cai.d")
    errors: list[str] = []
    with ExitStack() as stack:
        ana, ben, cai = (
            stack.enter_context(own_browser(browser, live_server, errors, console=True))
            for _ in range(3)
        )
        for tab, name in ((ana, "ana.b"), (ben, "ben.c"), (cai, "cai.d")):
            log_in(tab, name)
        match = f"/tournaments/{tid}/matches/{mid}"
        play = "Play game 1 on our own devices"
        # Cai's page offers the game on the devices; Ana, on hers, takes Team 1's seat first.
        cai.goto(match)
        expect(cai.get_by_role("button", name=play)).to_be_visible()
        ana.goto(match)
        ana.get_by_role("button", name=play).click()
        expect(ana.locator("#live-announce")).to_contain_text("You hold your team’s seat")
        code, status, version, seats = match_table(live_app, mid)
        with live_app.app_context():
            ids = dict(db.session.execute(select(User.username, User.id)).all())
        assert (status, seats) == ("waiting", [ids["ana.b"], None])

        # Cai presses too: she is told who holds it, and nothing changed (the seat is never
        # taken over, the game's reviews are Ana's).
        cai.get_by_role("button", name=play).click()
        expect(cai.get_by_text("ana.b holds Team 1’s seat for game 1: play along")).to_be_visible()
        assert cai.url.endswith(match)
        expect(cai.get_by_role("button", name=play)).to_have_count(0)
        expect(cai.get_by_text("ana.b holds your team’s seat")).to_be_visible()
        expect(cai.get_by_role("link", name="Go to the game")).to_have_count(0)
        assert match_table(live_app, mid) == (code, status, version, seats)
        # The table's page is not hers: it is not found, as for any student not at it.
        assert cai.request.get(f"/play/live/{code}").status == 404
        no_serious_violations(cai)
        assert cai.evaluate("document.documentElement.scrollWidth") <= 360

        # Ben takes Team 2's seat: the race is dealt, and Cai's match page says so by itself.
        ben.goto(match)
        expect(ben.get_by_text("ana.b holds Team 1’s seat, waiting for Team 2")).to_be_visible()
        ben.get_by_role("button", name=play).click()
        expect(ben.locator("#bu-cards li")).to_have_count(18)
        expect(ana.locator("#bu-cards li")).to_have_count(18)
        expect(cai.get_by_text("Game 1, Border-Up: being played now")).to_be_visible(timeout=15_000)
        # Her page shows neither hand (the race is Ana's to play).
        expect(cai.locator("#bu-cards")).to_have_count(0)

        for number, group in enumerate(right_call(live_app, "ana.b"), 1):
            for postal in group:
                ana.locator(f"#group-{postal}").select_option(str(number))
        ana.get_by_role("button", name="GeoPlunge!").click()
        expect(ana.get_by_role("heading", name="You win!")).to_be_visible()

        # Cai's match page shows the result the app recorded, and the next game due, by itself.
        expect(cai.get_by_text("Now: game 2, State IQ")).to_be_visible(timeout=15_000)
        games = cai.locator(".tplay__games")
        expect(games).to_contain_text("Team 1 won")
        expect(games).to_contain_text("The app (played on your devices)")
        _code, status, _version, seats = match_table(live_app, mid)
        assert (status, seats) == ("over", [ids["ana.b"], ids["ben.c"]])
    assert errors == [], errors
