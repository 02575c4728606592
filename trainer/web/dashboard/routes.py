"""The dashboards' views: numbers from SQL aggregates (``..dashboards``), pictures from
``trainer.figures``, plotly.js from the app itself."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from zoneinfo import ZoneInfo

from flask import Blueprint, abort, render_template, request
from flask_login import current_user
from werkzeug.wrappers import Response

from trainer import figures, srs
from trainer.facts import Facet

from .. import dashboards, get_deck
from ..charts import chart_page, plotly_response, plotly_version
from ..memory import settings_for
from ..models import User, utcnow
from ..progress import class_assignments
from ..security import student_required, teacher_required
from ..teach.insights import settling_in
from ..teach.names import shown_name
from ..teach.routes import own_class, students_of, teacher_zone

bp = Blueprint("dashboard", __name__, url_prefix="/progress")

#: How far ahead a teacher may look for a test date.
MAX_DAYS_AHEAD = 366
DEFAULT_TARGET = 0.9


@bp.app_context_processor
def _plotly_url() -> dict[str, object]:
    return {"plotly_version": plotly_version}


@bp.get("/plotly-<version>.min.js")
def plotly_js(version: str) -> Response:
    """plotly.js from the ``plotly`` package; the URL names its version, so it is cached for a year."""
    if version != plotly_version():
        abort(404)
    return plotly_response()


def _state_param() -> str | None:
    """The state picked on the map (``?state=co``), if it is one of the 50."""
    postal = (request.args.get("state") or "").strip().upper()
    return postal if len(postal) == 2 and get_deck().get(postal) is not None else None


@bp.get("/")
@student_required
def student() -> Response:
    """A student's progress as pictures, each with its sentence and its numbers."""
    me: User = current_user._get_current_object()
    now = utcnow()
    settings = settings_for(me)
    today = srs.study_day(now, settings.time_zone).date
    weeks = dashboards.weekly_accuracy(me.id, today)
    charts = [
        ("stages", "Facts by stage", figures.facet_stages(dashboards.facet_counts(me.id))),
        (
            "forecast",
            "Reviews coming due",
            figures.forecast(dashboards.forecast(me.id, now, settings.time_zone), today),
        ),
        (
            "calendar",
            "Your year of practice",
            figures.review_calendar(dashboards.review_calendar(me.id, today), today),
        ),
        ("accuracy", "Right answers, week by week", figures.accuracy(weeks)),
        (
            "retention",
            "How much you remember, against your goal",
            figures.retention(weeks, settings.desired_retention),
        ),
        (
            "games",
            "Games against the computer",
            figures.game_records(dashboards.game_records(me.id)),
        ),
        ("bests", "Your fastest races", figures.personal_bests(dashboards.personal_bests(me.id))),
    ]
    postal = _state_param()
    picked = None
    if postal:
        picked = (get_deck()[postal], dashboards.state_facts(me.id, postal, now))
    html = render_template(
        "dashboard/student.html",
        map=figures.mastery_map(dashboards.state_recall([me.id], now)),
        charts=charts,
        classmates=dashboards.classmates_records(me.id),
        picked=picked,
        geometry=get_deck().geometry,
        chart_json=figures.chart_json,
    )
    return chart_page(html)


def _test_date(today: dt.date) -> tuple[dt.date, str | None]:
    """The test date asked for (default: a week from today), and what was wrong with the one typed."""
    raw = (request.args.get("date") or "").strip()
    default = today + dt.timedelta(days=7)
    if not raw:
        return default, None
    try:
        chosen = dt.date.fromisoformat(raw)
    except ValueError:
        return default, f"“{raw[:20]}” is not a date. Showing {default:%a %d %b %Y} instead."
    if chosen < today:
        return today, "That date has passed: showing today instead."
    if chosen > today + dt.timedelta(days=MAX_DAYS_AHEAD):
        return default, f"Choose a date within a year. Showing {default:%a %d %b %Y} instead."
    return chosen, None


@bp.get("/classes/<int:class_id>")
@teacher_required
def class_dashboard(class_id: int) -> Response:
    """A class's progress: recall by state and topic on a test date, who is at risk, the class map,
    the most-confused states, and assignment completion."""
    klass = own_class(class_id)
    students = students_of(klass)
    ids = [s.id for s in students]
    zone: ZoneInfo = teacher_zone()
    now = utcnow()
    today = now.astimezone(zone).date()
    test_date, problem = _test_date(today)
    # Recall on the test date is judged at the end of that day; today means now.
    at = (
        now
        if test_date == today
        else dt.datetime.combine(test_date, dt.time(23, 59), tzinfo=zone).astimezone(dt.UTC)
    )
    target = klass.desired_retention or DEFAULT_TARGET
    # Recall by state and topic, the class map and who is at risk: one pass over the memory cards.
    cells, states, risks = dashboards.class_overview(ids, at, target)
    # Nobody is called at risk before they have had the chance to practise (P-S5).
    settling = settling_in(klass.id, ids, now)
    risks = [risk for risk in risks if risk.student_id not in settling]
    # Each student named as the teacher's other pages of the class name them (issue 24).
    real_names = {s.id: s.display_name for s in students}
    risks = [
        replace(risk, username=shown_name(risk.username, real_names.get(risk.student_id)))
        for risk in risks
    ]
    charts = [
        (
            "heatmap",
            f"Recall by state and topic on {test_date:%a %d %b}",
            figures.class_heatmap(cells, target, test_date),
        ),
        (
            "risk",
            f"Students most at risk on {test_date:%a %d %b}",
            figures.at_risk(risks, target, test_date, not_yet=len(settling)),
        ),
        (
            "confused",
            "States most often taken for another",
            figures.confused_pairs(dashboards.confused_pairs(ids)),
        ),
        (
            "completion",
            "Assignments finished over time",
            figures.completion(dashboards.completion_over_time(class_assignments(klass), ids, now)),
        ),
    ]
    html = render_template(
        "dashboard/class.html",
        klass=klass,
        students=students,
        map=figures.mastery_map(states, who="The class", on=test_date, students=len(ids)),
        charts=charts,
        test_date=test_date,
        today=today,
        max_date=today + dt.timedelta(days=MAX_DAYS_AHEAD),
        problem=problem,
        target=target,
        geometry=get_deck().geometry,
        chart_json=figures.chart_json,
        facets=list(Facet),
    )
    return chart_page(html, 400 if problem else 200)
