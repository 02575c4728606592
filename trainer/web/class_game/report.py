"""After a GeoPlunge Live game: the teacher's report, its CSV, and an assignment on what was missed.

The report is read from the game's stored questions and answers; nothing is stored for it. The
assignment is made by the assignment form's own code (:class:`trainer.web.teach.forms.AssignmentForm`
validated, then :func:`trainer.web.teach.assignments.save_form`), so it is exactly an assignment a
teacher could have set by hand (C-W11).
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from flask import flash, redirect, render_template, url_for
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response
from wtforms.fields.choices import SelectChoice

from trainer import class_game as cg
from trainer.assignments import MAX_REVIEWS, Amount
from trainer.facts import Fact

from .. import get_deck
from ..extensions import db
from ..guards import nothing_changed
from ..models import Assignment, ClassGame, ClassGameAnswer, SchoolClass
from ..security import teacher_required
from ..teach.assignments import save_form, teacher_today
from ..teach.forms import AssignmentForm
from ..teach.insights import CSV_BOM, fact_name
from ..teach.names import display_names
from ..teach.routes import students_of
from ..text import csv_line
from . import game as games
from .forms import ControlForm
from .routes import _own_game, bp

#: The activity the follow-up assignment sets: flashcard review follows any scope.
FOLLOW_UP_ACTIVITY = "review"
#: How long the follow-up assignment runs.
FOLLOW_UP_DAYS = 7


def file_slug(name: str) -> str:
    """A class name in the CSV's file name: "Señora Peña 5º" -> "senora-pena-5o" (as the class's
    own downloads name theirs)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", plain.casefold()).strip("-")
    return slug or "class"


@dataclass(frozen=True)
class StudentLine:
    student_id: int
    name: str
    points: int
    right: int
    answered: int
    rank: int | None


@dataclass(frozen=True)
class QuestionLine:
    number: int
    prompt: str
    kind: str
    answer: str
    right: int
    answered: int
    common_wrong: str | None
    skipped: bool = False


def _report(game: ClassGame) -> dict[str, Any]:
    deck = get_deck()
    questions = games.questions_of(game)
    answers = games.answers_of(game.id)
    roster = games.players(game.id)
    real = display_names(game.class_id)  # the teacher's own page: the names they gave (issue 24)
    names = {p.student_id: real.get(p.student_id) or name for p, name in roster}
    by_student: dict[int, list[ClassGameAnswer]] = defaultdict(list)
    by_question: dict[int, list[ClassGameAnswer]] = defaultdict(list)
    for a in answers:
        by_student[a.student_id].append(a)
        by_question[a.question].append(a)
    ranks: dict[int, int] = {}
    if games.settings_of(game).team_size == 1:
        ranks = {s.key: s.rank for s in games.game_standings(game, answers)}
    students = sorted(
        (
            StudentLine(
                sid,
                names[sid],
                sum(a.points for a in by_student[sid]),
                sum(1 for a in by_student[sid] if a.right),
                len(by_student[sid]),
                ranks.get(sid),
            )
            for sid in names
        ),
        key=lambda line: (-line.points, line.name.casefold()),
    )
    lines = []
    passed = games.skipped(game)
    for q in questions:
        rows = by_question.get(q.number, [])
        spread = cg.distribution((a.answer, a.right) for a in rows)
        wrong = [value for value, _n, right in spread if not right]
        lines.append(
            QuestionLine(
                q.number,
                q.prompt,
                cg.KIND_TITLES[q.kind],
                games.label(q, q.answer, deck),
                sum(1 for a in rows if a.right),
                len(rows),
                games.label(q, wrong[0], deck) if wrong else None,
                q.number in passed,
            )
        )
    weak = weak_facts(game, answers)
    return {
        "game": game,
        "klass": db.session.get(SchoolClass, game.class_id),
        "students": students,
        "questions": lines,
        "weak": [(key, fact_name(deck, key), share) for key, share in weak],
        "asked": sum(1 for q in questions if q.number <= game.question),
        "total": len(questions),
        "players": len(roster),
        "control": ControlForm(formdata=None),
    }


def weak_facts(game: ClassGame, answers: list[ClassGameAnswer]) -> list[tuple[str, float]]:
    """The facts the class missed (C-W11): each fact of a question asked, with the share of the
    players who did not answer it right (no answer counts as missed), those missed by anyone,
    most missed first."""
    players = max(1, len(games.players(game.id)))
    right: dict[int, int] = defaultdict(int)
    answered: set[int] = set()
    for a in answers:
        answered.add(a.question)
        right[a.question] += int(a.right)
    missed: dict[str, float] = {}
    passed = games.skipped(game)
    for q in games.questions_of(game):
        if q.number not in answered or q.number in passed:
            continue  # never reached, or skipped (C-W12): nothing is known of it
        share = 1 - right[q.number] / players
        if share <= 0:
            continue
        for key in q.facts:
            missed[key] = max(missed.get(key, 0.0), share)
    return sorted(missed.items(), key=lambda item: (-item[1], item[0]))


@bp.get("/<int:game_id>/report")
@teacher_required
def report(game_id: int) -> str:
    """Per student and per question, the class's weak facts, the CSV and the follow-up assignment."""
    found = _own_game(game_id)
    return render_template("class_game/report.html", **_report(found))


@bp.get("/<int:game_id>/report.csv")
@teacher_required
def report_csv(game_id: int) -> Response:
    """Every answer of the game: one row per student and question asked."""
    found = _own_game(game_id)
    deck = get_deck()
    questions = games.questions_of(found)
    real = display_names(found.class_id)
    names = {p.student_id: name for p, name in games.players(found.id)}
    answers = {(a.student_id, a.question): a for a in games.answers_of(found.id)}
    lines = [
        CSV_BOM
        + csv_line(
            [
                "student",
                "name",
                "question",
                "kind",
                "prompt",
                "right_answer",
                "answer",
                "right",
                "points",
                "ms",
            ]
        )
    ]
    for sid in sorted(names, key=lambda i: names[i].casefold()):
        for q in questions:
            if q.number > found.question:
                break
            a = answers.get((sid, q.number))
            lines.append(
                csv_line(
                    [
                        names[sid],
                        real.get(sid) or "",
                        q.number + 1,
                        q.kind.value,
                        q.prompt,
                        games.label(q, q.answer, deck),
                        games.label(q, a.answer, deck) if a else "",
                        ("yes" if a.right else "no") if a else "",
                        a.points if a else 0,
                        a.ms if a else None,
                    ]
                )
            )
    klass = db.session.get(SchoolClass, found.class_id)
    slug = file_slug(klass.name if klass else "class")
    filename = f"{slug}-live-game-{found.id}.csv"
    return Response(
        "".join(lines),
        mimetype="text/csv",
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Cache-Control": "no-store",
        },
    )


@bp.post("/<int:game_id>/assign")
@teacher_required
def assign(game_id: int) -> Response:
    """One assignment on the facts the class missed (C-W11), for the whole class, a week long."""
    found = _own_game(game_id)
    here = url_for("class_game.report", game_id=found.id)
    form = ControlForm()
    if not form.validate() or form.action.data != "end":
        return nothing_changed("That request could not be read. Nothing changed.", here, "error")
    if found.phase != cg.Phase.ENDED.value:
        return nothing_changed(
            "End the game first: then its missed facts are known.", here, "error"
        )
    missed = [key for key, _share in weak_facts(found, games.answers_of(found.id))]
    if not missed:
        return nothing_changed("Nobody missed anything: there is nothing to assign.", here)
    facts = [Fact.from_key(key) for key in missed]
    facets = sorted({f.facet.value for f in facts})
    postals = sorted({f.postal for f in facts})
    klass = db.session.get(SchoolClass, found.class_id)
    assert klass is not None
    today, zone = teacher_today()
    students = students_of(klass)
    # The form as the teacher's own page would send it (its validators read what was sent).
    sent = MultiDict(
        [
            *(("activities", FOLLOW_UP_ACTIVITY),),
            *(("facets", facet) for facet in facets),
            ("area", ""),
            ("states", ", ".join(postals)),
            ("amount", Amount.REVIEWS.value),
            ("quantity", str(min(MAX_REVIEWS, max(10, 2 * len(missed))))),
            ("starts_on", today.isoformat()),
            ("due_on", (today + dt.timedelta(days=FOLLOW_UP_DAYS)).isoformat()),
            ("who", "everyone"),
        ]
    )
    assignment_form = AssignmentForm(
        get_deck(),
        [SelectChoice(s.id, s.username) for s in students],
        today,
        formdata=sent,
        meta={"csrf": False},
    )
    if not assignment_form.validate():
        problems = " ".join(e for errors in assignment_form.errors.values() for e in errors)
        return nothing_changed(f"The assignment could not be set: {problems}", here, "error")
    made = Assignment(class_id=klass.id, time_zone=zone)
    save_form(assignment_form, made)
    db.session.commit()
    flash(f"Assignment “{made.title}” set on the {len(missed)} facts the class missed.", "success")
    return redirect(url_for("teach.assignment_page", class_id=klass.id, assignment_id=made.id))
