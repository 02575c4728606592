"""Combo 1 class tournaments run by a teacher through the Flask client (issue #11).

Rulings checked: K1 (more games won wins the match, equal is a tie), K2 (20-minute morning and
12-minute afternoon rounds), K3 (a new opponent each round, byes count as wins, no second bye
while a team has none), K4 (the top two meet in the championship, Border-Up playoffs for a tied
place, the championship's early end and Border-Up tie-breaker), P-K1 (playoff games: the loser is
out, a tie is replayed), P-K3 (a tied tie-breaker is replayed), P-K4 (random class teams of 3, with
one of 4 or 2), P-K5 (pairings).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections import Counter
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, update

from tests.conftest import FAST_HASH, client_for
from tests.web.test_security import assert_strict_page
from tests.web.test_teach import (
    CODE_B,
    World,
    token_for,
)
from trainer.games.tournament import random_teams
from trainer.web.extensions import db
from trainer.web.models import (
    ClassMembership,
    Role,
    Tournament,
    TournamentGame,
    TournamentMatch,
    TournamentMember,
    TournamentTeam,
    User,
    utcnow,
)

TABLES = (Tournament, TournamentTeam, TournamentMember, TournamentMatch, TournamentGame)


# --- Helpers ---------------------------------------------------------------------------------------


def add_students(
    world: World, count: int, class_id: int | None = None, prefix: str = "kid"
) -> list[int]:
    """``count`` new students in class A (which already has "river") or ``class_id``.

    They never log in, so they share one stored hash (scrypt is slow on purpose).
    """
    with world.app.app_context():
        users = [
            User(
                username=f"{prefix}{i:02d}",
                username_key=f"{prefix}{i:02d}",
                role=Role.STUDENT,
                password_hash=FAST_HASH,
            )
            for i in range(count)
        ]
        db.session.add_all(users)
        db.session.flush()
        db.session.add_all(
            ClassMembership(class_id=class_id or world.class_a, student_id=user.id)
            for user in users
        )
        db.session.commit()
        return [user.id for user in users]


class Teacher:
    """A teacher's client with their CSRF token, and the tournament URLs."""

    def __init__(self, client: FlaskClient):
        self.client = client
        self.token = token_for(client)

    def post(self, url: str, data: dict | None = None, prefix: str | None = None):
        fields = {f"{prefix}-{k}" if prefix else k: v for k, v in (data or {}).items()}
        fields["csrf_token" if prefix is None else f"{prefix}-csrf_token"] = self.token
        return self.client.post(url, data=fields)

    def page(self, tid: int) -> str:
        response = self.client.get(f"/teach/tournaments/{tid}")
        assert response.status_code == 200
        return response.get_data(as_text=True)

    def projector(self, tid: int) -> str:
        response = self.client.get(f"/teach/tournaments/{tid}/projector")
        assert response.status_code == 200
        return response.get_data(as_text=True)

    def create(
        self, class_id: int, name: str = "Friday Cup", teams: str = "random", **choices: str
    ):
        return self.post(
            f"/teach/classes/{class_id}/tournaments/new", {"name": name, "teams": teams, **choices}
        )

    def new(self, class_id: int, **kwargs) -> int:
        response = self.create(class_id, **kwargs)
        assert response.status_code == 302, response.get_data(as_text=True)
        return int(re.fullmatch(r"/teach/tournaments/(\d+)", response.location).group(1))

    def advance(self, tid: int, expected: int):
        return self.post(
            f"/teach/tournaments/{tid}/advance", {"expected": str(expected)}, prefix="advance"
        )

    def clock(self, tid: int, expected: int):
        return self.post(
            f"/teach/tournaments/{tid}/clock", {"expected": str(expected)}, prefix="clock"
        )

    def result(self, tid: int, match_id: int, a, b, tied=0):
        data = {"a_games": str(a), "b_games": str(b), "tied_games": str(tied), "submit": "Save"}
        return self.post(
            f"/teach/tournaments/{tid}/matches/{match_id}", data, prefix=f"m{match_id}"
        )

    def game(self, tid: int, stage: str, number, a_team, b_team, winner):
        data = {
            "number": str(number),
            "a_team": str(a_team),
            "b_team": str(b_team),
            "winner": str(winner),
            "submit": "Save",
        }
        return self.post(f"/teach/tournaments/{tid}/{stage}", data, prefix="game")

    def undo(self, tid: int, expected: str):
        return self.post(f"/teach/tournaments/{tid}/undo", {"expected": expected}, prefix="undo")

    def due(self, tid: int) -> tuple[str, int, int, int] | None:
        """The game the control page asks about: stage URL part, number, team A and team B ids."""
        html = self.page(tid)
        action = re.search(r'action="/teach/tournaments/\d+/(playoff|championship)"', html)
        if action is None:
            return None
        values = {
            name: int(re.search(rf'name="game-{name}" type="hidden" value="(\d+)"', html).group(1))
            for name in ("number", "a_team", "b_team")
        }
        return action.group(1), values["number"], values["a_team"], values["b_team"]

    def play_due(self, tid: int, pick: str) -> tuple[str, int, int, int]:
        """Enter the game due, won by side ``pick`` ("a", "b") or tied ("tie")."""
        due = self.due(tid)
        assert due is not None, "no game is due"
        stage, number, a, b = due
        winner = {"a": a, "b": b, "tie": "tie"}[pick]
        response = self.game(tid, stage, number, a, b, winner)
        assert response.status_code == 302, response.get_data(as_text=True)
        return due


def flashed(client: FlaskClient) -> str:
    """The flash messages waiting for the client's next page."""
    return " ".join(client.get("/teach/").get_data(as_text=True).split())


def dump(app: Flask) -> dict[str, list[tuple]]:
    """Every row of the tournament tables: a refused request leaves this as it was."""
    with app.app_context():
        return {
            model.__tablename__: [
                tuple(row)
                for row in db.session.execute(
                    select(model.__table__).order_by(model.__table__.c.id)
                )
            ]
            for model in TABLES
        }


def tournament(app: Flask, tid: int) -> Tournament:
    with app.app_context():
        row = db.session.get(Tournament, tid)
        db.session.expunge(row)
        return row


def teams_of(app: Flask, tid: int) -> dict[int, list[int]]:
    """Team number -> the members' student ids."""
    with app.app_context():
        rows = db.session.execute(
            select(TournamentTeam.number, TournamentMember.student_id)
            .join(TournamentMember, TournamentMember.team_id == TournamentTeam.id)
            .where(TournamentTeam.tournament_id == tid)
            .order_by(TournamentTeam.number, TournamentMember.student_id)
        )
        found: dict[int, list[int]] = {}
        for number, student_id in rows:
            found.setdefault(number, []).append(student_id)
        return found


def team_ids(app: Flask, tid: int) -> dict[int, int]:
    """Team id -> team number."""
    with app.app_context():
        return dict(
            db.session.execute(
                select(TournamentTeam.id, TournamentTeam.number).where(
                    TournamentTeam.tournament_id == tid
                )
            ).all()
        )


def matches(app: Flask, tid: int, round_number: int | None = None) -> list[TournamentMatch]:
    with app.app_context():
        query = select(TournamentMatch).where(TournamentMatch.tournament_id == tid)
        if round_number is not None:
            query = query.where(TournamentMatch.round == round_number)
        rows = (
            db.session.execute(query.order_by(TournamentMatch.round, TournamentMatch.id))
            .scalars()
            .all()
        )
        for row in rows:
            db.session.expunge(row)
        return list(rows)


def games(app: Flask, tid: int, stage: str) -> list[TournamentGame]:
    with app.app_context():
        rows = (
            db.session.execute(
                select(TournamentGame)
                .where(TournamentGame.tournament_id == tid, TournamentGame.stage == stage)
                .order_by(TournamentGame.number)
            )
            .scalars()
            .all()
        )
        for row in rows:
            db.session.expunge(row)
        return list(rows)


#: How a test decides a match: (match, team id -> number) -> (games won by A, by B, tied).
Decide = Callable[[TournamentMatch, dict[int, int]], tuple[int, int, int]]


def lower_number_wins(match: TournamentMatch, numbers: dict[int, int]) -> tuple[int, int, int]:
    return (3, 1, 0) if numbers[match.a_team_id] < numbers[match.b_team_id] else (1, 3, 0)


def play_round(teacher: Teacher, app: Flask, tid: int, decide: Decide) -> list[TournamentMatch]:
    """Pair the next round through the client and enter each of its results."""
    before = tournament(app, tid).round
    assert teacher.advance(tid, before).status_code == 302
    assert tournament(app, tid).round == before + 1
    numbers = team_ids(app, tid)
    paired = matches(app, tid, before + 1)
    for match in paired:
        if match.b_team_id is not None:
            response = teacher.result(tid, match.id, *decide(match, numbers))
            assert response.status_code == 302, response.get_data(as_text=True)
    return paired


def play_rounds(teacher: Teacher, app: Flask, tid: int, decide: Decide, rounds: int = 8) -> None:
    for _ in range(rounds):
        play_round(teacher, app, tid, decide)


@pytest.fixture
def teacher(world: World) -> Teacher:
    return Teacher(world.client("teacher"))


def two_team_tournament(world: World, teacher: Teacher) -> int:
    """A class of 4 (two teams of 2, P-K4) whose 8 rounds are played: straight to the championship."""
    add_students(world, 3)
    tid = teacher.new(world.class_a)
    play_rounds(teacher, world.app, tid, lower_number_wins)
    assert teacher.advance(tid, 8).status_code == 302
    assert tournament(world.app, tid).stage == "championship"
    return tid


# --- Creating a tournament -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("students", "sizes"), [(10, [3, 3, 4]), (11, [2, 3, 3, 3]), (9, [3, 3, 3])]
)
def test_random_teams_of_three_with_one_of_four_or_two(world, teacher, students, sizes):
    """P-K4: the class is shuffled (seeded) into teams of 3, one of 4 or 2 for what is left."""
    ids = add_students(world, students - 1) + [world.student.id]
    tid = teacher.new(world.class_a, name="  Friday   Cup ")
    found = teams_of(world.app, tid)
    assert sorted(len(m) for m in found.values()) == sizes
    assert sorted(s for m in found.values() for s in m) == sorted(ids)
    t = tournament(world.app, tid)
    assert (t.name, t.round, t.stage, t.clock_started_at, t.finished_at) == (
        "Friday Cup",
        0,
        "rounds",
        None,
        None,
    )
    # The seed stored on the tournament gives these very teams.
    assert sorted(found.values()) == sorted(
        sorted(team) for team in random_teams(ids, random.Random(t.seed))
    )
    assert matches(world.app, tid) == [], "round 1 is not paired when the tournament is made"
    html = teacher.page(tid)
    assert "Team 1" in html and "Pair round 1" in html and "river" in html
    assert "Friday Cup" in teacher.client.get(f"/teach/classes/{world.class_a}").get_data(
        as_text=True
    )


def test_the_teacher_forms_the_teams(world, teacher):
    """Teams of the teacher's choosing, with a student left out and a team number unused."""
    ids = add_students(world, 7)  # 8 students with river: three team numbers to choose from
    choice = {
        ids[0]: "1",
        ids[1]: "1",
        ids[2]: "1",
        ids[3]: "3",
        ids[4]: "3",
        ids[5]: "3",
        ids[6]: "3",
        world.student.id: "0",
    }
    tid = teacher.new(
        world.class_a, teams="manual", **{f"team_{sid}": team for sid, team in choice.items()}
    )
    assert teams_of(world.app, tid) == {1: sorted(ids[:3]), 3: sorted(ids[3:7])}
    html = teacher.page(tid)
    assert "Team 3" in html and "Team 2" not in html


def test_the_new_tournament_form_offers_a_team_for_each_student(world, teacher):
    """8 students make teams of 3, 3 and 2 (P-K4): three team numbers to choose from."""
    add_students(world, 7)
    html = teacher.client.get(f"/teach/classes/{world.class_a}/tournaments/new").get_data(
        as_text=True
    )
    assert_strict_page(html)
    assert (
        html.count("<select") == 8
        and "Not playing" in html
        and "Team 3" in html
        and "Team 4" not in html
    )
    assert re.search(r'<label[^>]* for="team_\d+"', html)
    # Issue 24: the selects are hidden by a deferred script unless "I'll form them" is chosen;
    # without it, the legend says when they apply.
    assert '<fieldset class="fieldset" data-own-teams>' in html
    assert "<legend>Your own teams (only when you choose “I’ll form them”)</legend>" in html
    assert re.search(r'<script src="/static/js/own_teams\.js[^"]*" defer></script>', html)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": ""}, "Give the tournament a name."),
        ({"name": "   "}, "Give the tournament a name."),
        ({"name": "x" * 81}, "at most 80 characters"),
        ({"teams": "both"}, "Not a valid choice"),
    ],
)
def test_a_bad_new_tournament_is_explained_and_creates_nothing(world, teacher, data, message):
    add_students(world, 6)
    before = dump(world.app)
    response = teacher.post(
        f"/teach/classes/{world.class_a}/tournaments/new",
        {"name": "Cup", "teams": "random", **data},
    )
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert dump(world.app) == before


@pytest.mark.parametrize(
    ("spread", "message"),
    [
        ([1, 1, 1, 1, 1, 2, 2], "Team 1 has 5 students: a team needs 2 to 4"),
        ([1, 1, 1, 1, 1, 1, 2], "Team 2 has 1 student: a team needs 2 to 4"),
        ([1, 1, 1, 0, 0, 0, 0], "Put students in at least two teams."),
        ([0, 0, 0, 0, 0, 0, 0], "Put students in at least two teams."),
        ([1, 1, 1, 2, 2, 2, 9], "Not a valid choice"),
    ],
)
def test_teams_that_break_the_sizes_are_refused(world, teacher, spread, message):
    """A team the teacher forms has 2 to 4 students (3 as the rules say), and two teams at least play."""
    ids = add_students(world, 6)
    fields = {
        f"team_{sid}": str(team) for sid, team in zip([*ids, world.student.id], spread, strict=True)
    }
    before = dump(world.app)
    response = teacher.create(world.class_a, teams="manual", **fields)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert dump(world.app) == before


def test_a_class_too_small_for_a_tournament_is_told_so(world, teacher):
    """P-K4: at least 4 students (two teams of 2); class A has 3 here."""
    add_students(world, 2)
    html = teacher.client.get(f"/teach/classes/{world.class_a}/tournaments/new").get_data(
        as_text=True
    )
    assert (
        "A tournament needs at least 4 students" in html
        and "has 3 students" in html
        and "<select" not in html
    )
    before = dump(world.app)
    response = teacher.create(world.class_a)
    assert response.status_code == 400 and "at least 4 students" in response.get_data(as_text=True)
    assert dump(world.app) == before


# --- A whole tournament --------------------------------------------------------------------------


def test_a_whole_tournament_with_byes_through_the_client(world, teacher):
    """Five teams (15 students) play 8 rounds (K3, P-K5), then the finals (K4) to a champion."""
    app = world.app
    add_students(world, 14)
    tid = teacher.new(world.class_a)
    numbers = team_ids(app, tid)
    assert len(numbers) == 5
    byes: Counter[int] = Counter()
    met: Counter[frozenset[int]] = Counter()
    for number in range(1, 9):
        paired = play_round(teacher, app, tid, lower_number_wins)
        # K3: every team plays once a round; one bye with five teams, never a second before all had one.
        assert sorted(
            t for m in paired for t in (m.a_team_id, m.b_team_id) if t is not None
        ) == sorted(numbers)
        bye = [m for m in paired if m.b_team_id is None]
        assert (
            len(bye) == 1 and bye[0].winner_id == bye[0].a_team_id and bye[0].entered_at is not None
        )
        byes[bye[0].a_team_id] += 1
        assert max(byes[t] for t in numbers) - min(byes[t] for t in numbers) <= 1, (
            f"round {number}: {byes}"
        )
        for m in paired:
            if m.b_team_id is not None:
                met[frozenset((m.a_team_id, m.b_team_id))] += 1
        if number <= 5:  # five teams meet every other team once in five rounds
            assert max(met.values()) == 1, f"a repeat meeting in round {number}"
        # The projector shows the round, its pairings and the bye.
        projector = teacher.projector(tid)
        assert_strict_page(projector)
        assert f"Round {number} of 8" in projector
        assert ("morning · 20 minutes" if number <= 4 else "afternoon · 12 minutes") in projector
        for m in paired:
            a = f"Team {numbers[m.a_team_id]}"
            if m.b_team_id is None:
                assert re.search(rf"{a}</span> <span class=\"projector__bye\">has a bye", projector)
            else:
                assert re.search(
                    rf"{a}</span> <span class=\"projector__vs\">vs</span>\s*<span class=\"projector__team\">Team {numbers[m.b_team_id]}<",
                    projector,
                )
        assert f"Standings after round {number}" in projector
        # Issue 24: no rule codes on the projector or the control page; the teams beside the round.
        assert not re.search(r"\((P-)?K\d", projector), "a rule code on the projector"
        assert not re.search(r"\((P-)?K\d", teacher.page(tid)), "a rule code on the control page"
        assert re.search(r'<div class="projector__side">.*id="teams-title"', projector, re.DOTALL)

    # Standings: a win for each match won (K1) and each bye (K3).
    wins = Counter()
    for m in matches(app, tid):
        wins[m.winner_id] += 1
    html = teacher.page(tid)
    assert "Standings after round 8" in html
    for team_id, number in numbers.items():
        row = re.search(rf'<th scope="row">Team {number}</th>\s*<td class="num">(\d+)</td>', html)
        assert int(row.group(1)) == wins[team_id]
    assert "Finish the rounds" in html

    assert teacher.advance(tid, 8).status_code == 302
    assert tournament(app, tid).stage in ("playoffs", "championship")
    while tournament(app, tid).stage != "finished":
        teacher.play_due(tid, "a")
    t = tournament(app, tid)
    assert t.finished_at is not None
    champion = [g for g in games(app, tid, "championship")][-1].winner_id
    final = teacher.page(tid)
    assert_strict_page(final)
    assert f"Champion: Team {numbers[champion]}" in final
    for m in matches(app, tid):  # every round's results
        if m.b_team_id is None:
            assert f"Team {numbers[m.a_team_id]} has a bye (counts as a win)" in final
        else:
            assert (
                f"Team {numbers[m.a_team_id]} {m.a_games}–{m.b_games} Team {numbers[m.b_team_id]}"
                in final
            )
    for number in range(1, 9):
        assert f"Round {number} ({'morning' if number <= 4 else 'afternoon'})" in final
    assert f"Champion: Team {numbers[champion]}" in teacher.projector(tid)

    # A second device, logged in as the same teacher, sees the same tournament.
    other = Teacher(client_for(app, world.teacher.username))
    again = other.page(tid)
    assert f"Champion: Team {numbers[champion]}" in again
    strip = re.compile(r'value="[^"]*"')
    assert strip.sub("", again) == strip.sub("", teacher.page(tid))


def test_a_tie_for_second_place_is_played_off_then_a_three_nil_championship_ends_early(
    world, teacher
):
    """K4, P-K1: three teams level for the last place play Border-Up, the loser out and a tie replayed;
    then the championship stops after three games won by one side (K4)."""
    app = world.app
    add_students(world, 11)  # 12 students: four teams of 3, no byes
    tid = teacher.new(world.class_a)
    numbers = team_ids(app, tid)
    team_one = next(t for t, n in numbers.items() if n == 1)

    def team_one_wins_the_rest_tie(match, numbers):
        if team_one in (match.a_team_id, match.b_team_id):
            return (4, 0, 1) if match.a_team_id == team_one else (0, 4, 1)
        return 2, 2, 1  # equal games: a tied match (K1)

    play_rounds(teacher, app, tid, team_one_wins_the_rest_tie)
    html = teacher.page(tid)
    assert re.search(
        r'<td class="num">1</td>\s*<th scope="row">Team 1</th>\s*<td class="num">8</td>', html
    )
    assert teacher.advance(tid, 8).status_code == 302
    assert tournament(app, tid).stage == "playoffs"
    html = " ".join(teacher.page(tid).split())
    assert "Team 1 is through to the championship" in html
    assert "Team 2, Team 3 and Team 4 are tied on 0 match wins for 1 place" in html

    # Game 1 tied: replayed between the same two teams (P-K1).
    first = teacher.play_due(tid, "tie")
    assert first[0] == "playoff" and first[1] == 1
    second = teacher.play_due(tid, "a")
    assert second[1:] == (2, first[2], first[3])
    assert tournament(app, tid).stage == "playoffs"
    # The winner meets the third team; the loser is out.
    third = teacher.play_due(tid, "b")
    remaining = ({t for t in numbers if numbers[t] != 1} - {first[2], first[3]}).pop()
    assert {third[2], third[3]} == {first[2], remaining}
    assert tournament(app, tid).stage == "championship"
    finalist = third[3]
    assert teacher.projector(tid).count("Playoff game") >= 3

    # The championship: Team 1 (through outright) is side A; three wins end it after game 3.
    for number, slug in enumerate(("border-up", "state-iq", "dashing-states"), start=1):
        stage, n, a, b = teacher.play_due(tid, "a")
        assert (stage, n, a, b) == ("championship", number, team_one, finalist)
        assert games(app, tid, "championship")[-1].game == slug
    t = tournament(app, tid)
    assert t.stage == "finished" and t.finished_at is not None
    assert len(games(app, tid, "championship")) == 3, "Play the Ranks is not played (K4)"
    final = teacher.page(tid)
    assert teacher.due(tid) is None
    assert "Champion: Team 1" in final
    assert (
        "Game 1 of 4, Border-Up: Team 1 vs" in final
        and "Playoff game 1, Border-Up" in final
        and "a tie (replayed)" in final
    )
    assert "Champion: Team 1" in teacher.projector(tid)


@pytest.mark.parametrize(
    ("picks", "champion", "slugs"),
    [
        (["a", "a", "a"], "a", ["border-up", "state-iq", "dashing-states"]),
        (["a", "tie", "a"], "a", ["border-up", "state-iq", "dashing-states"]),
        (["b", "a", "b", "b"], "b", ["border-up", "state-iq", "dashing-states", "play-the-ranks"]),
        (
            ["a", "b", "a", "b", "b"],
            "b",
            ["border-up", "state-iq", "dashing-states", "play-the-ranks", "border-up"],
        ),
        (
            ["a", "b", "b", "a", "tie", "tie", "a"],
            "a",
            [
                "border-up",
                "state-iq",
                "dashing-states",
                "play-the-ranks",
                "border-up",
                "border-up",
                "border-up",
            ],
        ),
    ],
    ids=[
        "three-nil",
        "two-wins-and-a-tie",
        "three-one",
        "two-all-then-border-up",
        "tied-tie-breakers-replayed",
    ],
)
def test_the_championship_game_by_game(world, teacher, picks, champion, slugs):
    """K4: the four games in order, an early end once settled, Border-Up when level after four;
    a tied tie-breaker is played again (P-K3)."""
    app = world.app
    tid = two_team_tournament(world, teacher)
    for pick in picks:
        assert tournament(app, tid).stage == "championship"
        teacher.play_due(tid, pick)
    played = games(app, tid, "championship")
    assert [g.game for g in played] == slugs
    t = tournament(app, tid)
    assert t.stage == "finished"
    a, b = played[0].a_team_id, played[0].b_team_id
    numbers = team_ids(app, tid)
    html = teacher.page(tid)
    assert f"Champion: Team {numbers[a if champion == 'a' else b]}" in html
    if len(slugs) > 4:
        assert "Tie-breaker 1, Border-Up" in html


def test_the_state_survives_a_refresh_and_a_second_device(world, teacher):
    app = world.app
    add_students(world, 5)
    tid = teacher.new(world.class_a)
    teacher.advance(tid, 0)
    teacher.clock(tid, 1)
    match = matches(app, tid, 1)[0]
    teacher.result(tid, match.id, 2, 1, 1)
    other = Teacher(client_for(app, world.teacher.username))
    html = other.page(tid)
    assert "Round 1 of 8: morning round, 20 minutes" in html and "data-clock-left" in html
    assert "2–1" in html and "Team" in html
    # The second device can go on where the first left off.
    rest = [m for m in matches(app, tid, 1) if m.entered_at is None]
    for m in rest:
        assert other.result(tid, m.id, 0, 0, 3).status_code == 302
    assert other.advance(tid, 1).status_code == 302
    assert "Round 2 of 8" in teacher.page(tid)


# --- The round clock -------------------------------------------------------------------------------


def test_the_round_clock_runs_on_the_server(world, teacher):
    """K2: 20 minutes in the morning rounds, 12 in the afternoon; "Time is up" after."""
    app = world.app
    add_students(world, 3)
    tid = teacher.new(world.class_a)
    teacher.advance(tid, 0)
    html = teacher.page(tid)
    assert "Start the round clock (20:00)" in html and "data-clock-left" not in html
    assert teacher.clock(tid, 1).status_code == 302
    left = int(re.search(r'data-clock-left="(\d+)"', teacher.page(tid)).group(1))
    assert 1190 <= left <= 1200
    projector = teacher.projector(tid)
    assert "data-clock-reload" in projector and '<script src="/static/js/clock.js?v=' in projector
    # Pressed twice, or from a page of another round: nothing changes.
    started = tournament(app, tid).clock_started_at
    teacher.clock(tid, 1)
    assert "already started" in flashed(teacher.client)
    teacher.clock(tid, 2)
    assert "another round" in flashed(teacher.client)
    assert tournament(app, tid).clock_started_at == started
    with app.app_context():
        db.session.execute(
            update(Tournament)
            .where(Tournament.id == tid)
            .values(clock_started_at=utcnow() - dt.timedelta(minutes=21))
        )
        db.session.commit()
    assert "Time is up" in teacher.page(tid) and "Time is up" in teacher.projector(tid)
    # Rounds 5-8 are afternoon rounds of 12 minutes.
    play_round_results(teacher, app, tid)
    play_rounds(teacher, app, tid, lower_number_wins, rounds=3)
    teacher.advance(tid, 4)
    assert tournament(app, tid).round == 5
    assert "Start the round clock (12:00)" in teacher.page(tid)
    teacher.clock(tid, 5)
    left = int(re.search(r'data-clock-left="(\d+)"', teacher.page(tid)).group(1))
    assert 710 <= left <= 720


def play_round_results(teacher: Teacher, app: Flask, tid: int) -> None:
    """Enter every missing result of the current round."""
    number = tournament(app, tid).round
    for m in matches(app, tid, number):
        if m.entered_at is None:
            assert teacher.result(tid, m.id, 1, 0, 0).status_code == 302


# --- Refusals --------------------------------------------------------------------------------------


@pytest.fixture
def running(world, teacher) -> tuple[int, list[TournamentMatch]]:
    """A tournament of 3 teams (9 students) in round 1: one match and one bye."""
    add_students(world, 8)
    tid = teacher.new(world.class_a)
    assert teacher.advance(tid, 0).status_code == 302
    return tid, matches(world.app, tid, 1)


def the_match(paired: list[TournamentMatch]) -> TournamentMatch:
    return next(m for m in paired if m.b_team_id is not None)


def test_a_result_is_entered_once(world, teacher, running):
    """K1: more games won wins; a second POST of a result changes nothing ("already entered")."""
    tid, paired = running
    match = the_match(paired)
    assert teacher.result(tid, match.id, 1, 3, 2).status_code == 302
    saved = matches(world.app, tid, 1)
    entered = next(m for m in saved if m.id == match.id)
    assert (entered.a_games, entered.b_games, entered.tied_games, entered.winner_id) == (
        1,
        3,
        2,
        match.b_team_id,
    )
    before = dump(world.app)
    response = teacher.result(tid, match.id, 5, 0, 0)
    assert response.status_code == 302
    assert "already entered" in flashed(teacher.client)
    assert dump(world.app) == before


def test_equal_games_make_a_tied_match(world, teacher, running):
    """K1: equal games won is a tied match, with no winner."""
    tid, paired = running
    match = the_match(paired)
    teacher.result(tid, match.id, 2, 2, 0)
    saved = next(m for m in matches(world.app, tid, 1) if m.id == match.id)
    assert saved.winner_id is None and saved.entered_at is not None
    assert "a tied match" in teacher.page(tid)


@pytest.mark.parametrize(
    "values",
    [(-1, 0, 0), ("abc", 1, 0), (21, 0, 0), (0, "", 0), (1, 1, "2.5"), (0, 0, 99)],
)
def test_bad_game_counts_are_a_form_error_and_save_nothing(world, teacher, running, values):
    tid, paired = running
    match = the_match(paired)
    before = dump(world.app)
    response = teacher.result(tid, match.id, *values)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "Type a whole number from 0 to 20." in html and 'aria-invalid="true"' in html
    assert_strict_page(html)
    assert dump(world.app) == before


def test_a_bye_has_no_result(world, teacher, running):
    tid, paired = running
    bye = next(m for m in paired if m.b_team_id is None)
    assert "has a bye (counts as a win)" in teacher.page(tid)
    before = dump(world.app)
    teacher.result(tid, bye.id, 3, 0, 0)
    assert "A bye has no result" in flashed(teacher.client)
    assert dump(world.app) == before


def test_the_next_round_waits_for_every_result(world, teacher, running):
    """Pairing round 2 before round 1's result is in is refused; once paired, round 1 is closed."""
    tid, paired = running
    before = dump(world.app)
    assert "Pair round 2" not in teacher.page(tid)
    teacher.advance(tid, 1)
    assert "Enter every result of round 1 first" in flashed(teacher.client)
    assert dump(world.app) == before
    match = the_match(paired)
    teacher.result(tid, match.id, 3, 0, 0)
    assert "Pair round 2" in teacher.page(tid)
    assert teacher.advance(tid, 1).status_code == 302
    assert tournament(world.app, tid).round == 2
    # The same button pressed again (a double click, another tab) pairs nothing more.
    before = dump(world.app)
    teacher.advance(tid, 1)
    assert "already done" in flashed(teacher.client)
    assert dump(world.app) == before
    # A result for the earlier round is refused, and undo does not reach it: its round is over.
    teacher.undo(tid, f"match-{match.id}")
    assert "Nothing was undone" in flashed(teacher.client)
    teacher.result(tid, match.id, 0, 3, 0)
    assert "Round 1 is over" in flashed(teacher.client)
    assert dump(world.app) == before


def test_matches_of_other_tournaments_are_not_found(world, teacher, running):
    app = world.app
    tid, paired = running
    other_tid = teacher.new(world.class_a, name="Second cup")
    teacher.advance(other_tid, 0)
    theirs = the_match(matches(app, other_tid, 1))
    # Another teacher's tournament, in their class.
    add_students(world, 3, class_id=world.class_b, prefix="fox")
    park = Teacher(world.client("other_teacher"))
    park_tid = park.new(world.class_b, name="Park cup")
    park.advance(park_tid, 0)
    park_match = matches(app, park_tid, 1)[0]
    before = dump(app)
    assert teacher.result(tid, theirs.id, 1, 0, 0).status_code == 404
    assert teacher.result(tid, park_match.id, 1, 0, 0).status_code == 404
    assert teacher.result(park_tid, park_match.id, 1, 0, 0).status_code == 404
    assert teacher.result(tid, 99999, 1, 0, 0).status_code == 404
    assert dump(app) == before


def test_games_out_of_turn_are_refused(world, teacher):
    """Playoff and championship games only in their stage, only the game due (K4, P-K1)."""
    app = world.app
    add_students(world, 3)
    tid = teacher.new(world.class_a)
    teacher.advance(tid, 0)
    numbers = team_ids(app, tid)
    a, b = sorted(numbers)
    before = dump(app)
    for stage in ("playoff", "championship"):
        assert teacher.game(tid, stage, 1, a, b, a).status_code == 302
        assert "This is not the time" in flashed(teacher.client)
    assert dump(app) == before

    play_round_results(teacher, app, tid)
    play_rounds(teacher, app, tid, lower_number_wins, rounds=7)
    teacher.advance(tid, 8)
    assert tournament(app, tid).stage == "championship"
    stage, number, first, second = teacher.due(tid)
    before = dump(app)
    assert teacher.game(tid, "playoff", number, first, second, first).status_code == 302
    assert "This is not the time for a playoff game" in flashed(teacher.client)
    for bad in [
        (2, first, second),
        (0, first, second),
        (1, second, first),
        ("x", first, second),
        (1, first, 99999),
    ]:
        teacher.game(tid, "championship", bad[0], bad[1], bad[2], bad[1])
        assert "not the game due now" in flashed(teacher.client)
    # A winner who is not in the game, or none at all: a form error.
    response = teacher.game(tid, "championship", number, first, second, 99999)
    assert response.status_code == 400 and "Not a valid choice" in response.get_data(as_text=True)
    response = teacher.post(
        f"/teach/tournaments/{tid}/championship",
        {"number": "1", "a_team": str(first), "b_team": str(second)},
        prefix="game",
    )
    assert (
        response.status_code == 400
        and "Choose the team that won, or a tie." in response.get_data(as_text=True)
    )
    assert dump(app) == before
    # The game entered, then the same form again: the replay changes nothing.
    assert teacher.game(tid, "championship", number, first, second, first).status_code == 302
    after = dump(app)
    teacher.game(tid, "championship", number, first, second, second)
    assert "already entered" in flashed(teacher.client)
    assert dump(app) == after


def test_nothing_changes_after_the_final(world, teacher):
    app = world.app
    tid = two_team_tournament(world, teacher)
    for pick in ("a", "a", "a"):
        teacher.play_due(tid, pick)
    assert tournament(app, tid).stage == "finished"
    played = games(app, tid, "championship")
    a, b = played[0].a_team_id, played[0].b_team_id
    last_match = matches(app, tid, 8)[0]
    html = teacher.page(tid)
    assert (
        "Undo the last result" not in html
        and "Pair round" not in html
        and "Start the round clock" not in html
    )
    before = dump(app)
    attempts = [
        lambda: teacher.result(tid, last_match.id, 0, 5, 0),
        lambda: teacher.advance(tid, 8),
        lambda: teacher.clock(tid, 8),
        lambda: teacher.game(tid, "championship", 4, a, b, b),
        lambda: teacher.game(tid, "playoff", 1, a, b, b),
        lambda: teacher.undo(tid, "championship-3"),
    ]
    for attempt in attempts:
        assert attempt().status_code == 302
        assert "The tournament is over" in flashed(teacher.client)
    assert dump(app) == before


def test_odd_forms_are_refused_without_a_server_error(world, teacher):
    """Empty, missing or made-up fields on every button, at every stage: refused, never a 500."""
    app = world.app
    add_students(world, 3)
    tid = teacher.new(world.class_a)
    junk = [
        {},
        {"expected": ""},
        {"expected": "abc"},
        {"expected": "-1"},
        {"number": "1", "a_team": "x", "b_team": "", "winner": "tie"},
        {"expected": "match-abc"},
    ]

    def poke() -> None:
        match_id = (matches(app, tid) or [None])[-1]
        targets = [
            ("advance", "advance"),
            ("clock", "clock"),
            ("undo", "undo"),
            ("playoff", "game"),
            ("championship", "game"),
        ]
        if match_id is not None:
            targets.append((f"matches/{match_id.id}", f"m{match_id.id}"))
        before = dump(app)
        for path, prefix in targets:
            for data in junk:
                response = teacher.post(f"/teach/tournaments/{tid}/{path}", data, prefix=prefix)
                assert response.status_code in (302, 400), (path, data, response.status_code)
        assert dump(app) == before
        assert teacher.client.get(f"/teach/tournaments/{tid}").status_code == 200
        assert teacher.client.get(f"/teach/tournaments/{tid}/projector").status_code == 200

    poke()  # nothing paired yet
    teacher.advance(tid, 0)
    poke()  # round 1
    play_round_results(teacher, app, tid)
    play_rounds(teacher, app, tid, lower_number_wins, rounds=7)
    poke()  # round 8 done, not yet finished
    teacher.advance(tid, 8)
    poke()  # the championship
    for pick in ("a", "a", "a"):
        teacher.play_due(tid, pick)
    poke()  # finished


# --- Undo --------------------------------------------------------------------------------------------


def test_undo_takes_back_the_last_result(world, teacher, running):
    tid, paired = running
    match = the_match(paired)
    teacher.result(tid, match.id, 1, 3, 0)
    assert "Undo the last result" in teacher.page(tid)
    assert teacher.undo(tid, f"match-{match.id}").status_code == 302
    saved = next(m for m in matches(world.app, tid, 1) if m.id == match.id)
    assert (saved.a_games, saved.winner_id, saved.entered_at) == (None, None, None)
    before = dump(world.app)
    teacher.undo(tid, f"match-{match.id}")  # pressed twice
    assert "Nothing was undone" in flashed(teacher.client)
    assert dump(world.app) == before
    assert teacher.result(tid, match.id, 3, 1, 0).status_code == 302


def test_undo_in_the_finals(world, teacher):
    """The last championship game can be taken back, then the last playoff game (back to the playoffs)."""
    app = world.app
    add_students(world, 11)
    tid = teacher.new(world.class_a)
    numbers = team_ids(app, tid)
    team_one = next(t for t, n in numbers.items() if n == 1)
    play_rounds(
        teacher,
        app,
        tid,
        lambda m, n: (
            (1, 0, 0)
            if m.a_team_id == team_one
            else (0, 1, 0)
            if m.b_team_id == team_one
            else (0, 0, 0)
        ),
    )
    teacher.advance(tid, 8)
    assert tournament(app, tid).stage == "playoffs"
    teacher.play_due(tid, "a")
    teacher.play_due(tid, "a")
    assert tournament(app, tid).stage == "championship"
    teacher.play_due(tid, "b")
    assert teacher.undo(tid, "championship-1").status_code == 302
    assert games(app, tid, "championship") == []
    assert teacher.undo(tid, "playoff-2").status_code == 302
    assert tournament(app, tid).stage == "playoffs" and len(games(app, tid, "playoff")) == 1
    teacher.undo(tid, "championship-1")
    assert "Nothing was undone" in flashed(teacher.client)


# --- Who may see a tournament ----------------------------------------------------------------------


def tournament_urls(tid: int, match_id: int) -> list[tuple[str, str]]:
    base = f"/teach/tournaments/{tid}"
    return [
        ("GET", base),
        ("GET", f"{base}/projector"),
        ("POST", f"{base}/clock"),
        ("POST", f"{base}/advance"),
        ("POST", f"{base}/matches/{match_id}"),
        ("POST", f"{base}/playoff"),
        ("POST", f"{base}/championship"),
        ("POST", f"{base}/undo"),
    ]


@pytest.mark.parametrize(
    ("who", "status"),
    [(None, 302), ("student", 403), ("other_student", 403), ("other_teacher", 404)],
)
def test_only_the_classes_teacher_sees_the_tournament(world, teacher, running, who, status):
    tid, paired = running
    client = world.client(who)
    token = token_for(client)
    before = dump(world.app)
    urls = [
        *tournament_urls(tid, the_match(paired).id),
        ("GET", f"/teach/classes/{world.class_a}/tournaments/new"),
        ("POST", f"/teach/classes/{world.class_a}/tournaments/new"),
    ]
    for method, url in urls:
        if method == "GET":
            response = client.get(url)
        else:
            response = client.post(
                url,
                data={
                    "csrf_token": token,
                    "name": "Mine",
                    "teams": "random",
                    "advance-expected": "1",
                    "clock-expected": "1",
                },
            )
        assert response.status_code == status, (method, url)
        if status == 302:
            assert response.location.startswith("/auth/login?next=")
        assert "Room 12" not in response.get_data(as_text=True)
    assert dump(world.app) == before
    assert world.client("teacher").get(f"/teach/tournaments/{tid + 1}").status_code == 404


def test_the_class_page_lists_its_tournaments(world, teacher):
    add_students(world, 3)
    html = teacher.client.get(f"/teach/classes/{world.class_a}").get_data(as_text=True)
    assert (
        'id="tournaments-title">Tournaments<' in html
        and f"/teach/classes/{world.class_a}/tournaments/new" in html
    )
    tid = teacher.new(world.class_a, name="Spring Cup")
    html = teacher.client.get(f"/teach/classes/{world.class_a}").get_data(as_text=True)
    assert f'href="/teach/tournaments/{tid}">Spring Cup</a>' in html and "not started" in html
    # The other teacher's class page does not list it.
    add_students(world, 4, class_id=world.class_b, prefix="fox")
    other = (
        world.client("other_teacher").get(f"/teach/classes/{world.class_b}").get_data(as_text=True)
    )
    assert "Spring Cup" not in other and CODE_B in other


def test_the_pages_hold_under_the_strict_csp(world, teacher, running):
    tid, _ = running
    for html in (teacher.page(tid), teacher.projector(tid)):
        assert_strict_page(html)
        assert "<caption" in html and 'scope="col"' in html
