"""The dashboard pages: a student's and a class's, plotly.js served by the app, the chart CSP."""

from __future__ import annotations

import datetime as dt
import gzip
import html
import json
import re

import pytest
from flask import Flask

from tests.conftest import AuthActions
from trainer import srs
from trainer.facts import Form, Verdict
from trainer.web.charts import PLOTLY_JS, plotly_version
from trainer.web.extensions import db
from trainer.web.memory import record
from trainer.web.models import User, utcnow

EMPTY_STYLE = "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"


def answer(
    app: Flask,
    user: User,
    key: str,
    when: dt.datetime,
    verdict=Verdict.RIGHT,
    answered_postal=None,
    item="1",
) -> None:
    with app.app_context():
        outcome = srs.Outcome(
            fact_key=key,
            verdict=verdict,
            mode="review",
            form=Form.TYPED,
            round_token=f"review:{key}:{int(when.timestamp())}",
            item=item,
            answer="x",
            answered_postal=answered_postal,
        )
        record(db.session.get(User, user.id), outcome, now=when)


def figures_of(page: str) -> dict[str, dict]:
    """The figures a page hands to plotly.js, by chart id."""
    found = re.findall(r'<div class="chart" id="([a-z-]+)-chart" data-figure="([^"]*)"', page)
    return {chart_id: json.loads(html.unescape(data)) for chart_id, data in found}


def test_a_students_dashboard_shows_their_own_numbers(world, app):
    now = utcnow()
    answer(app, world.student, "CO:capital", now - dt.timedelta(days=2))
    answer(app, world.student, "CO:map", now - dt.timedelta(days=2), verdict=Verdict.WRONG)
    answer(app, world.student, "UT:capital", now - dt.timedelta(hours=3))
    answer(app, world.other_student, "TX:capital", now - dt.timedelta(hours=3))
    response = world.client("student").get("/progress/")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    charts = figures_of(page)
    assert set(charts) == {"stages", "forecast", "calendar", "accuracy", "retention", "games"}
    # Facts by stage: 3 facts started of 400, none mastered yet.
    assert "You have not mastered any of the 400 facts yet; you have started 3." in page
    stages = {trace["name"]: trace["x"] for trace in charts["stages"]["data"]}
    assert sum(stages["New"]) == 397 and sum(stages["Learning"]) == 3
    # The calendar counts the three answers (the other student's is not there).
    assert "3 reviews" in page or "3 reviews" in html.unescape(page)
    # The map names the states started, and each state links to its facts.
    assert 'aria-label="Colorado: ' in page and 'aria-label="Texas: not started"' in page
    assert "Texas: " not in page.replace('aria-label="Texas: not started"', "").replace(
        "<title>Texas: not started</title>", ""
    )
    assert 'href="/progress/?state=co#state-facts"' in page


def test_picking_a_state_shows_its_facts(at_midday, world, app):
    now = utcnow()
    answer(app, world.student, "CO:capital", now - dt.timedelta(hours=1))
    client = world.client("student")
    page = client.get("/progress/?state=co").get_data(as_text=True)
    assert (
        'id="state-facts"' in page
        and "How likely you are to remember each fact about Colorado today" in page
    )
    section = page.split('id="state-facts"', 1)[1].split("</section>", 1)[0]
    assert section.count("Not started") == 7 and "100%" in section  # answered an hour ago
    # An unknown state is no state: the page is the plain dashboard.
    for bad in ("zz", "colorado'%3E", "<script>"):
        response = client.get(f"/progress/?state={bad}")
        assert response.status_code == 200 and 'id="state-facts"' not in response.get_data(
            as_text=True
        )


def test_a_class_dashboard(world, app):
    now = utcnow()
    answer(
        app,
        world.student,
        "NH:map",
        now - dt.timedelta(days=1),
        verdict=Verdict.WRONG,
        answered_postal="VT",
    )
    answer(app, world.student, "NH:capital", now - dt.timedelta(days=1), item="2")
    answer(
        app,
        world.other_student,
        "ME:map",
        now - dt.timedelta(days=1),
        verdict=Verdict.WRONG,
        answered_postal="VT",
    )
    response = world.client("teacher").get(f"/progress/classes/{world.class_a}")
    assert response.status_code == 200
    page = html.unescape(response.get_data(as_text=True))
    charts = figures_of(response.get_data(as_text=True))
    assert set(charts) == {"heatmap", "risk", "confused", "completion"}
    assert charts["confused"]["data"][0]["x"] == [1]
    # The mix-up comes from this class only: Vermont for New Hampshire, not for Maine.
    assert (
        "Vermont for New Hampshire" in page
        and "Maine"
        not in page.split("States most often taken for another", 1)[1].split("</figure>", 1)[0]
    )
    assert "otter" not in page and "Room 7" not in page
    assert "river" in page


def test_the_test_date_is_checked(world):
    client = world.client("teacher")
    today = utcnow().date()
    for raw, message in (
        ("tomorrow", "“tomorrow” is not a date."),
        ("2001-01-01", "That date has passed"),
        ((today + dt.timedelta(days=400)).isoformat(), "Choose a date within a year."),
    ):
        response = client.get(f"/progress/classes/{world.class_a}?date={raw}")
        assert response.status_code == 400
        assert message in html.unescape(response.get_data(as_text=True))
    good = (today + dt.timedelta(days=10)).isoformat()
    response = client.get(f"/progress/classes/{world.class_a}?date={good}")
    assert response.status_code == 200 and f'value="{good}"' in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("who", "status"), [(None, 302), ("student", 403), ("other_teacher", 404), ("teacher", 200)]
)
def test_only_the_class_teacher_sees_its_dashboard(world, who, status):
    response = world.client(who).get(f"/progress/classes/{world.class_a}")
    assert response.status_code == status
    if status != 200:
        assert "Room 12" not in response.get_data(as_text=True)


def test_teachers_have_no_student_dashboard(world):
    assert world.client("teacher").get("/progress/").status_code == 403
    assert world.client(None).get("/progress/").status_code == 302


def test_chart_pages_allow_only_plotlys_own_stylesheets(world):
    response = world.client("student").get("/progress/")
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "unsafe" not in policy
    styles = re.search(r"style-src ([^;]+)", policy).group(1).split()
    assert styles[0] == "'self'" and EMPTY_STYLE in styles and len(styles) == 3
    # Other pages keep the plain policy.
    assert "sha256" not in world.client("student").get("/study/").headers["Content-Security-Policy"]
    page = response.get_data(as_text=True)
    assert (
        "<script>" not in page
        and " style=" not in page
        and "http://" not in page.replace("http://localhost", "")
    )
    # plotly.js is not loaded by the page: charts.js fetches it when a chart comes near.
    assert f'data-plotly="/progress/plotly-{plotly_version()}.min.js"' in page
    assert 'src="/progress/plotly' not in page


def test_plotly_js_is_served_by_the_app(client):
    url = f"/progress/plotly-{plotly_version()}.min.js"
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and plain.mimetype == "text/javascript"
    assert plain.data == PLOTLY_JS.read_bytes()
    assert "immutable" in plain.headers["Cache-Control"]
    packed = client.get(url, headers={"Accept-Encoding": "gzip, deflate"})
    assert (
        packed.headers["Content-Encoding"] == "gzip" and gzip.decompress(packed.data) == plain.data
    )
    assert len(packed.data) < len(plain.data) / 2
    assert client.get("/progress/plotly-0.0.1.min.js").status_code == 404


def test_the_bundle_is_the_plotly_js_the_figures_are_written_for(world, app):
    """The app serves plotly.js's "cartesian" bundle (a third of the full one): the plotly.js
    version the ``plotly`` package writes its figures for, with every trace type the dashboards
    draw."""
    from plotly.offline import get_plotlyjs_version

    assert plotly_version() == get_plotlyjs_version()
    bundle = PLOTLY_JS.read_text(encoding="utf-8")
    assert len(bundle) < 2_000_000
    has = set(re.findall(r'moduleType:"trace",name:"([a-z0-9]+)"', bundle))
    assert {"bar", "scatter", "heatmap"} <= has and "scattergeo" not in has
    now = utcnow()
    for day in (1, 3, 9):
        answer(app, world.student, "CO:capital", now - dt.timedelta(days=day))
        answer(app, world.student, "NH:map", now - dt.timedelta(days=day), Verdict.WRONG, "VT")
    pages = [
        world.client("student").get("/progress/"),
        world.client("teacher").get(f"/progress/classes/{world.class_a}"),
    ]
    drawn = {
        trace.get("type", "scatter")
        for page in pages
        for figure in figures_of(page.get_data(as_text=True)).values()
        for trace in figure["data"]
    }
    assert drawn and drawn <= has, drawn - has


def test_an_empty_dashboard_says_so(world, app):
    client = AuthActions(app.test_client())
    client.login("heron")
    page = client.client.get("/progress/").get_data(as_text=True)
    assert "You have not started any state yet." in page
    assert "No reviews" in page or "no reviews" in page.lower()
