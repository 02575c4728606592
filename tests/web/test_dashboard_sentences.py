"""On a seeded demo class, every dashboard sentence agrees with the chart the page draws, and the
class dashboard's completion agrees with the class page (issue 18, section 5).

The pages are read as a browser gets them: each chart's sentence (its figcaption), its figure (the
JSON in ``data-figure``) and its table, checked by ``tests/figures/test_sentences.py``'s checkers.
Seeded histories (``flask seed-demo --seed N``) give a class with an assignment under way, a recall
goal not due yet and an assignment past its due date, as in the report that found the sentences
wrong.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import re

import pytest
from flask import Flask
from sqlalchemy import select

from tests.conftest import AuthActions
from tests.figures.test_sentences import (
    CHECKERS,
    check_forecast,
    check_mastery_map,
    check_personal_bests,
)
from trainer.figures import Table
from trainer.web import demo
from trainer.web.extensions import db
from trainer.web.models import SchoolClass, User

#: The class dashboard's charts (their ids on the page) and the figure each is.
CLASS_CHARTS = {
    "heatmap": "class_heatmap",
    "risk": "at_risk",
    "confused": "confused_pairs",
    "completion": "completion",
}
STUDENT_CHARTS = {
    "stages": "facet_stages",
    "calendar": "review_calendar",
    "accuracy": "accuracy",
    "retention": "retention",
    "games": "game_records",
}


def text(fragment: str) -> str:
    """HTML as the text a screen reader reads: tags dropped, entities read, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def boxes(page: str) -> dict[str, tuple[str, dict | None, Table]]:
    """Every chart on a dashboard, by id: its sentence, its figure's JSON (None: no figure), its table."""
    found = {}
    for chart_id, body in re.findall(
        r'<figure class="chart-box[^"]*" aria-labelledby="([\w-]+)-title">(.*?)</figure>',
        page,
        re.DOTALL,
    ):
        summary = text(
            re.search(
                r'<figcaption class="chart-box__summary">(.*?)</figcaption>', body, re.DOTALL
            ).group(1)
        )
        data = re.search(r'data-figure="([^"]*)"', body)
        figure = json.loads(html.unescape(data.group(1))) if data else None
        caption = text(re.search(r"<caption[^>]*>(.*?)</caption>", body, re.DOTALL).group(1))
        headers = tuple(text(h) for h in re.findall(r'<th scope="col">(.*?)</th>', body, re.DOTALL))
        tbody = re.search(r"<tbody>(.*?)</tbody>", body, re.DOTALL).group(1)
        rows = tuple(
            tuple(text(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.DOTALL))
            for row in re.findall(r"<tr>(.*?)</tr>", tbody, re.DOTALL)
            if "colspan" not in row
        )
        found["map" if chart_id == "map" else chart_id] = (
            summary,
            figure,
            Table(caption, headers, rows),
        )
    return found


def check_page(page: str, charts: dict[str, str]) -> dict[str, tuple[str, dict | None, Table]]:
    """Check every chart of a dashboard page that has something to draw; return them all."""
    found = boxes(page)
    for chart_id, name in charts.items():
        summary, figure, table = found[chart_id]
        if figure is not None and figure["data"]:
            CHECKERS[name](summary, figure, table)
        else:
            assert table.rows == (), (chart_id, summary)
    return found


def seed(app: Flask, number: int) -> tuple[str, str]:
    """A demo school of 8 students with 40 days of seeded histories: the teacher's and the students' passwords."""
    if "seed-demo" not in app.cli.commands:
        demo.init_app(app)
    result = app.test_cli_runner().invoke(
        args=[
            "seed-demo",
            "--students",
            "8",
            "--days",
            "40",
            "--seed",
            str(number),
            "--workers",
            "0",
        ]
    )
    assert result.exit_code == 0, result.output + repr(result.exception)
    teacher = re.search(r"Teacher: demo_teacher\s+password: (\S+)", result.output).group(1)
    student = re.search(r"all with the same password: (\S+)", result.output).group(1)
    return teacher, student


def login(app: Flask, username: str, password: str):
    client = app.test_client()
    assert AuthActions(client).login(username, password).status_code == 302
    return client


def class_page_finished(page: str) -> dict[str, tuple[int, int]]:
    """The class page's assignments table: "Finished: 24 of 30" by assignment title."""
    table = re.search(
        r'<caption class="visually-hidden">Assignments of .*?</caption>(.*?)</table>',
        page,
        re.DOTALL,
    ).group(1)
    out = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.DOTALL):
        title = re.search(r'<th scope="row"><a [^>]*>(.*?)</a>', row, re.DOTALL)
        if title:
            finished = re.findall(r"<td>(\d+) of (\d+)</td>", row)[-1]
            out[text(title.group(1))] = (int(finished[0]), int(finished[1]))
    return out


@pytest.mark.parametrize("number", [1, 2, 3])
def test_the_class_dashboard_says_what_its_charts_show(app: Flask, number: int) -> None:
    teacher_password, _ = seed(app, number)
    with app.app_context():
        class_id = db.session.execute(select(SchoolClass.id)).scalar_one()
    client = login(app, "demo_teacher", teacher_password)
    for query in (
        "",
        f"?date={dt.date.today().isoformat()}",
        f"?date={(dt.date.today() + dt.timedelta(days=30)).isoformat()}",
    ):
        response = client.get(f"/progress/classes/{class_id}{query}")
        assert response.status_code == 200
        found = check_page(response.get_data(as_text=True), CLASS_CHARTS)
        summary, _figure, table = found["map"]
        check_mastery_map(summary.removesuffix(" Pick a state to see its facts."), table, you=False)
        # The two charts that average recall over different facts each say which.
        assert (
            "facts not started are left out here" in summary or "not started any state" in summary
        )
        assert "facts not started counting as 0" in found["risk"][0]

    # The completion chart's last point is the class page's "finished", assignment by assignment.
    completion = found["completion"][1]
    drawn = {
        html.unescape(trace["name"]): (trace["y"][-1], trace["customdata"][-1][0])
        for trace in completion["data"]
    }
    listed = class_page_finished(client.get(f"/teach/classes/{class_id}").get_data(as_text=True))
    assert drawn and drawn == listed, (
        "every assignment under way or past is drawn, as many finished as listed"
    )


def test_a_students_dashboard_says_what_its_charts_show(app: Flask) -> None:
    _, student_password = seed(app, 4)
    with app.app_context():
        usernames = (
            db.session.execute(
                select(User.username).where(User.username.like("demo%")).order_by(User.username)
            )
            .scalars()
            .all()
        )
    for username in usernames[1:4]:
        client = login(app, username, student_password)
        page = client.get("/progress/").get_data(as_text=True)
        found = check_page(page, STUDENT_CHARTS)
        summary, figure, table = found["forecast"]
        if figure["data"]:
            today = dt.date.fromisoformat(figure["data"][0]["x"][0][:10])
            check_forecast(summary, figure, table, today)
        if found["bests"][2].rows:
            check_personal_bests(found["bests"][0], found["bests"][2])
        summary, _figure, table = found["map"]
        check_mastery_map(summary.removesuffix(" Pick a state to see its facts."), table, you=True)
