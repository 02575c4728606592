"""The charts of the progress dashboards: pure functions from :mod:`trainer.dashboard_data` values
to plotly figures, each with a text alternative.

Every function returns a :class:`Chart`: the figure, one plain sentence with the key numbers (shown
with the chart, read by screen readers), and a :class:`Table` of the numbers behind it (the page
shows it behind a toggle). Empty input gives an empty chart with a message, never an error.
:func:`personal_bests` is a table only: its :class:`Chart` has no figure.

Conventions:

* colours: Okabe-Ito for categories, viridis for sequential scales (brighter is more, on every
  chart); both stay distinguishable with the common colour-vision deficiencies;
* layout (:func:`_figure`): small margins, no fixed width, the legend horizontal below the plot, so
  a chart fits a 360 px phone; no zooming or panning (a finger scrolling the page must not zoom a
  chart). The plotly config (mode bar, responsiveness) is set in the browser;
* percentages are whole and rounded down (:func:`_pct`), so a value below a target never reads as
  the target ("89%", not "90%", for 0.896 against 90%);
* text from users (usernames, assignment titles) is HTML-escaped inside the figure, where plotly
  renders a little HTML; summaries and tables are plain text (the page template escapes them);
* a figure carries its own small template: its JSON (:func:`chart_json`) needs nothing from a CDN;
* every sentence says what it counts and over what (of how many students, facts or answers; on the
  test date or today; a mean over whom), and every number in it can be read back from the figure's
  traces or its table (``tests/figures/test_sentences.py`` does, on random inputs): a teacher acts
  on the sentence, and a screen reader user gets nothing else.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import plotly.graph_objects as go
from plotly.colors import sample_colorscale, sequential
from plotly.utils import PlotlyJSONEncoder

from trainer.dashboard_data import (
    CellRecall,
    CompletionPoint,
    Confusions,
    DayCount,
    FacetCounts,
    GameRecord,
    PersonalBest,
    StateRecall,
    StudentRisk,
    WeekAccuracy,
)
from trainer.facts import Facet

__all__ = [
    "Chart",
    "Table",
    "accuracy",
    "at_risk",
    "chart_json",
    "class_heatmap",
    "completion",
    "confused_pairs",
    "facet_stages",
    "forecast",
    "game_records",
    "mastery_map",
    "personal_bests",
    "recall_colour",
    "retention",
    "review_calendar",
]


@dataclass(frozen=True)
class Table:
    """A chart's numbers as text: the chart's text alternative."""

    caption: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Chart:
    """A figure (None for a table-only chart), a sentence that says what it shows, and its table."""

    figure: go.Figure | None
    summary: str
    table: Table


def chart_json(chart: Chart) -> str:
    """The figure as JSON for ``Plotly.newPlot`` in the browser (data and layout, template included).

    Raises ValueError for a table-only chart (:func:`personal_bests`).
    """
    if chart.figure is None:
        raise ValueError("this chart is a table only")
    # The figure's own data and layout, encoded as plotly encodes them, without the deep copy
    # ``Figure.to_json`` makes first (a tenth of a class dashboard's time); the tests check that the
    # result is what ``to_json`` gives.
    figure = chart.figure
    return json.dumps(
        {"data": figure._data, "layout": figure._layout},
        cls=PlotlyJSONEncoder,
        separators=(",", ":"),
    )


# --- Colours -----------------------------------------------------------------------------------

#: The Okabe-Ito palette (Okabe & Ito 2008), distinguishable with colour-vision deficiencies.
BLUE = "#0072B2"
ORANGE = "#E69F00"
SKY_BLUE = "#56B4E9"
GREEN = "#009E73"
YELLOW = "#F0E442"
VERMILLION = "#D55E00"
PURPLE = "#CC79A7"
BLACK = "#000000"
#: Neutral greys: "new", "drawn", and days without reviews.
GREY = "#999999"
LIGHT_GREY = "#E6E6E6"
#: Colours for lines of separate things (assignments), in order; yellow last (faint on white).
CATEGORY_COLOURS = (BLUE, ORANGE, GREEN, PURPLE, SKY_BLUE, VERMILLION, BLACK, YELLOW)
#: The viridis colours from dark (least) to bright (most).
VIRIDIS: tuple[str, ...] = tuple(sequential.Viridis)
#: Viridis as a plotly colour scale over 0..1.
VIRIDIS_SCALE: tuple[tuple[float, str], ...] = tuple(
    (i / (len(VIRIDIS) - 1), colour) for i, colour in enumerate(VIRIDIS)
)

# --- Layout ------------------------------------------------------------------------------------

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
_AXIS = {"automargin": True, "fixedrange": True, "gridcolor": "#E5E5E5", "zerolinecolor": "#BBBBBB"}
#: Replaces plotly's default template (which would be copied into every figure's JSON).
TEMPLATE = go.layout.Template(
    layout={
        "font": {"family": FONT, "size": 13, "color": "#222222"},
        "colorway": list(CATEGORY_COLOURS),
        "paper_bgcolor": "white",
        "plot_bgcolor": "white",
        "xaxis": _AXIS,
        "yaxis": _AXIS,
        # Dark text on white: on a trace's own colour plotly's white or #444 text is under 4.5:1
        # for most of the palette (white on green 3.4:1, #444 on grey 3.4:1).
        "hoverlabel": {
            "bgcolor": "white",
            "bordercolor": "#222222",
            "font": {"family": FONT, "size": 14, "color": "#222222"},
        },
    }
)
#: The layout every chart starts from (plotly.js does not take the legend or margins from a template).
LAYOUT = {
    "template": TEMPLATE,
    "autosize": True,
    "margin": {"l": 8, "r": 8, "t": 28, "b": 8},
    # Horizontal, at the bottom of the figure (the plot shrinks to make room), wrapping on a phone.
    "legend": {
        "orientation": "h",
        "traceorder": "normal",
        "x": 0,
        "xanchor": "left",
        "yref": "container",
        "y": 0,
        "yanchor": "bottom",
    },
    "dragmode": False,
}
#: Whether plotly checks each trace's properties as it is made. Off: the checks cost a class
#: dashboard most of its time (14 ms for one heatmap), and the tests check every figure instead
#: (its JSON must load back into plotly with checking on).
CHECK_TRACES = False
#: Height of a chart with one plot area of ordinary size (px); width follows the page.
HEIGHT = 320


def _figure(
    traces: Iterable[go.BaseTraceType], *, height: int = HEIGHT, **layout: object
) -> go.Figure:
    """A figure with the shared layout: autosized to the page's width, ``height`` px high."""
    # The traces were checked as they were made; the layout is this module's own and is checked by
    # the tests (every figure's JSON must load back into plotly with validation), not again on every
    # page view: plotly's property-by-property checks made up most of a dashboard's time.
    # ``layout`` is merged into the shared layout: margin={"t": 0} keeps the other margins.
    return go.Figure(
        data=list(traces), layout=_merged(LAYOUT, {"height": height, **layout}), _validate=False
    )


def _merged(base: dict[str, object], extra: dict[str, object]) -> dict[str, object]:
    """``base`` updated by ``extra``, nested dicts merged key by key (as plotly's update_layout)."""
    out = dict(base)
    for key, value in extra.items():
        inner = out.get(key)
        if isinstance(value, dict) and isinstance(inner, dict):
            out[key] = _merged(inner, value)
        else:
            out[key] = value
    return out


def _empty(message: str, caption: str, headers: Sequence[str], *, height: int = 160) -> Chart:
    """A chart with nothing to draw: the message in place of the plot, an empty table."""
    hidden = {"visible": False}
    note = {
        "text": message,
        "x": 0.5,
        "y": 0.5,
        "xref": "paper",
        "yref": "paper",
        "showarrow": False,
        "font": {"size": 15, "color": "#555555"},
    }
    figure = _figure([], height=height, xaxis=hidden, yaxis=hidden, annotations=[note])
    return Chart(figure, message, Table(caption, tuple(headers), ()))


def _target_line(axis: str, value: float, text: str) -> dict[str, object]:
    """Layout for a dashed line across the plot at ``value`` on ``axis`` ("x" or "y"), labelled at
    its end (as plotly's add_hline / add_vline draw it, without their per-call checks)."""
    line = {"dash": "dash", "color": BLACK, "width": 1.5}
    if axis == "y":
        shape = {
            "type": "line",
            "x0": 0,
            "x1": 1,
            "xref": "x domain",
            "y0": value,
            "y1": value,
            "yref": "y",
            "line": line,
        }
        note = {"x": 1, "xref": "x domain", "y": value, "yref": "y"}
    else:
        shape = {
            "type": "line",
            "x0": value,
            "x1": value,
            "xref": "x",
            "y0": 0,
            "y1": 1,
            "yref": "y domain",
            "line": line,
        }
        note = {"x": value, "xref": "x", "y": 1, "yref": "y domain"}
    return {
        "shapes": [shape],
        "annotations": [
            {"showarrow": False, "text": text, "xanchor": "right", "yanchor": "top", **note}
        ],
    }


def _colorbar(title: str, tickformat: str, **more: object) -> dict[str, object]:
    """A colour bar lying under the plot (a phone has no room beside it); the x axis goes on top."""
    return {
        "orientation": "h",
        "thickness": 10,
        "y": 0,
        "yanchor": "top",
        "ypad": 8,
        "tickformat": tickformat,
        "title": {"text": title, "side": "top"},
        "ticklabeloverflow": "allow",  # the last label may stick out past the bar's end
        **more,
    }


def _date_axis(days: Sequence[dt.date], step: int = 1) -> dict[str, object]:
    """An axis of days ("3 Mar"), or of weeks with ``step=7``: a tick on each when there are few
    (plotly would otherwise tick hours between them)."""
    axis: dict[str, object] = {"type": "date", "tickformat": "%-d %b"}
    if days and (max(days) - min(days)).days <= 6 * step:
        axis |= {"tick0": min(days).isoformat(), "dtick": step * 86_400_000}
    return axis


def _count_axis(largest: float, **more: object) -> dict[str, object]:
    """An axis of counts: from zero, whole-number ticks when the counts are small."""
    axis: dict[str, object] = {"rangemode": "tozero", "tickformat": ",d", **more}
    if largest <= 5:
        # Ticks of 1 from 0: never 0.2, 0.4, ... printed as "0, 0, 1".
        axis |= {"dtick": 1, "tick0": 0}
    return axis


_SHARE_AXIS = {"range": [0, 1.02], "tickformat": ".0%"}

# --- Words -------------------------------------------------------------------------------------

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def _date(day: dt.date) -> str:
    """The day as "3 Mar 2026", whatever the locale."""
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"


def _pct(share: float) -> str:
    """A share as a whole percentage, rounded down: 0.896 -> "89%"."""
    return f"{math.floor(share * 100 + 1e-9)}%"


def _count(n: int, noun: str, plural: str | None = None) -> str:
    """The count with its noun: "1 review", "1,234 reviews"."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def _num(n: int) -> str:
    return f"{n:,}"


def _esc(text: str) -> str:
    """Text from data for inside a figure, where plotly renders tags (``<a>``, ``<b>``) and entities."""
    return html.escape(text, quote=False)


def _hover(texts: Sequence[object]) -> dict[str, object]:
    """Trace settings that show the given text, and only it, on hover."""
    return {"hovertext": list(texts), "hovertemplate": "%{hovertext}<extra></extra>"}


# --- A student's dashboard ---------------------------------------------------------------------

#: The stages of :class:`FacetCounts`, as shown, with their colours.
STAGES = (
    ("mastered", "Mastered", GREEN),
    ("learning", "Learning", SKY_BLUE),
    ("leeches", "Keep slipping", VERMILLION),
    ("new", "New", GREY),
)


def facet_stages(counts: Sequence[FacetCounts]) -> Chart:
    """Horizontal stacked bars, one per facet (first at the top): mastered, learning, keep slipping
    (leeches), new."""
    caption = "Facts in each stage, by topic"
    headers = ("Topic", *(name for _, name, _ in STAGES))
    total = sum(c.mastered + c.learning + c.leeches + c.new for c in counts)
    if not counts or total == 0:
        return _empty("No facts yet.", caption, headers)
    labels = [c.facet.label for c in counts]
    traces = [
        go.Bar(
            _validate=CHECK_TRACES,
            name=name,
            y=labels,
            x=[getattr(c, field) for c in counts],
            orientation="h",
            marker_color=colour,
            **_hover(
                [
                    f"{c.facet.label}: {getattr(c, field)} of {_sum(c)} {name.lower()}"
                    for c in counts
                ]
            ),
        )
        for field, name, colour in STAGES
    ]
    figure = _figure(
        traces,
        height=140 + 32 * len(counts),
        barmode="stack",
        xaxis=_count_axis(max(_sum(c) for c in counts)),
        yaxis={"autorange": "reversed"},
    )
    mastered = sum(c.mastered for c in counts)
    if mastered:
        best = max(counts, key=lambda c: c.mastered)  # the first of equals
        summary = (
            f"You have mastered {mastered:,} of {total:,} facts; "
            f"your strongest topic is {best.facet.label} ({best.mastered} mastered)."
        )
    elif started := total - sum(c.new for c in counts):
        summary = (
            f"You have not mastered any of the {total:,} facts yet; you have started {started:,}."
        )
    else:
        summary = f"You have not started any of the {total:,} facts yet."
    rows = [(c.facet.label, *(_num(getattr(c, field)) for field, _, _ in STAGES)) for c in counts]
    rows.append(
        ("All topics", *(_num(sum(getattr(c, field) for c in counts)) for field, _, _ in STAGES))
    )
    return Chart(figure, summary, Table(caption, headers, tuple(rows)))


def _sum(c: FacetCounts) -> int:
    return c.mastered + c.learning + c.leeches + c.new


def forecast(days: Sequence[DayCount], today: dt.date | None = None, horizon: int = 30) -> Chart:
    """Bars of the reviews due each day.

    With ``today``: the ``horizon`` days from today, days without reviews filled in, reviews due
    before today counted today (they are overdue) and those after the horizon left out. Without it:
    the given days (meant to be the next 30 from today) from the first to the last, gaps filled in.
    """
    caption = "Reviews due each day"
    headers = ("Day", "Reviews due")
    due: dict[dt.date, int] = defaultdict(int)
    if today is not None:
        last = today + dt.timedelta(days=horizon - 1)
        for d in days:
            if d.day <= last:
                due[max(d.day, today)] += d.count
        first = today
    else:
        for d in days:
            due[d.day] += d.count
        if not due:
            return _empty("No reviews are due.", caption, headers)
        first, last = min(due), max(due)
    span = [first + dt.timedelta(days=i) for i in range((last - first).days + 1)]
    total = sum(due[day] for day in span)
    if total == 0:
        return _empty(
            f"No reviews are due in the next {_count(len(span), 'day')}.", caption, headers
        )
    counts = [due[day] for day in span]
    figure = _figure(
        [
            go.Bar(
                _validate=CHECK_TRACES,
                x=span,
                y=counts,
                marker_color=BLUE,
                name="Reviews due",
                **_hover(
                    [
                        f"{_date(day)}: {_count(n, 'review')} due"
                        for day, n in zip(span, counts, strict=True)
                    ]
                ),
            )
        ],
        xaxis=_date_axis(span),
        yaxis=_count_axis(max(counts), title={"text": "Reviews due"}),
    )
    busiest = max(span, key=lambda day: due[day])  # the first of equals
    today_part = f", {due[today]:,} of them today" if today is not None and due[today] else ""
    summary = (
        f"{_count(total, 'review')} {'is' if total == 1 else 'are'} due in the next {_count(len(span), 'day')}"
        f"{today_part}; the busiest day is {_date(busiest)} ({_count(due[busiest], 'review')})."
    )
    rows = tuple((_date(day), _num(due[day])) for day in span)
    return Chart(figure, summary, Table(caption, headers, rows))


def review_calendar(days: Sequence[DayCount], today: dt.date) -> Chart:
    """A calendar of the reviews given each day of the past year (the 365 days up to today): columns
    are weeks (Monday first), rows weekdays Mon..Sun, days without reviews grey, others viridis
    (brighter is more). Days outside the year are left out; a day given twice is added up."""
    caption = "Days with reviews in the past year"
    headers = ("Day", "Reviews")
    start = today - dt.timedelta(days=364)
    given: dict[dt.date, int] = defaultdict(int)
    for d in days:
        if start <= d.day <= today:
            given[d.day] += d.count
    total = sum(given.values())
    if total == 0:
        message = (
            "No reviews in the past year." if any(d.count for d in days) else "No reviews yet."
        )
        return _empty(message, caption, headers)
    first_monday = start - dt.timedelta(days=start.weekday())
    weeks = (today - first_monday).days // 7 + 1
    z: list[list[int | None]] = [[None] * weeks for _ in _WEEKDAYS]
    text = [[""] * weeks for _ in _WEEKDAYS]
    for offset in range(365):
        day = start + dt.timedelta(days=offset)
        row, column = day.weekday(), (day - first_monday).days // 7
        z[row][column] = given.get(day, 0)
        text[row][column] = f"{_date(day)}: {_count(given.get(day, 0), 'review')}"
    most = max(given.values())
    figure = _figure(
        [
            go.Heatmap(
                _validate=CHECK_TRACES,
                x=[first_monday + dt.timedelta(weeks=i) for i in range(weeks)],
                y=list(_WEEKDAYS),
                z=z,
                zmin=0,
                zmax=most,
                colorscale=calendar_scale(most),
                xgap=2,
                ygap=2,
                hoverongaps=False,
                colorbar=_colorbar("Reviews a day", ",d"),
                **_hover(text),
            )
        ],
        height=250,
        xaxis={
            "type": "date",
            "tickformat": "%b",
            "showgrid": False,
            "ticklabelmode": "period",
            "side": "top",
        },
        yaxis={"autorange": "reversed", "showgrid": False},
    )
    busiest = max(sorted(given), key=given.__getitem__)  # the earliest of equals
    active = sum(1 for n in given.values() if n)
    summary = (
        f"You did {_count(total, 'review')} on {_count(active, 'day')} in the past year; "
        f"your busiest day was {_date(busiest)} ({_count(given[busiest], 'review')})."
    )
    rows = tuple((_date(day), _num(given[day])) for day in sorted(given) if given[day])
    return Chart(figure, summary, Table(caption, headers, rows))


def calendar_scale(most: int) -> list[tuple[float, str]]:
    """The calendar's colour scale over 0..``most`` reviews: 0 light grey, 1..most viridis."""
    if most <= 0:
        return [(0.0, LIGHT_GREY), (1.0, LIGHT_GREY)]
    edge = 0.5 / most  # halfway between 0 and 1 review
    return [(0.0, LIGHT_GREY), (edge, LIGHT_GREY)] + [
        (edge + (1 - edge) * at, colour) for at, colour in VIRIDIS_SCALE
    ]


def _weekly_share(
    weeks: Sequence[WeekAccuracy],
    share: Callable[[WeekAccuracy], tuple[int, int]],
    name: str,
    hover: Callable[[WeekAccuracy], str],
    **layout: Any,
) -> go.Figure:
    """A line of a share (part, whole) week by week, 0..100%; weeks whose whole is 0 are gaps."""
    parts = [share(w) for w in weeks]
    return _figure(
        [
            go.Scatter(
                _validate=CHECK_TRACES,
                x=[w.week_start for w in weeks],
                y=[part / whole if whole else None for part, whole in parts],
                mode="lines+markers",
                line_color=BLUE,
                name=name,
                connectgaps=False,
                **_hover(
                    [
                        hover(w) if whole else ""
                        for w, (_part, whole) in zip(weeks, parts, strict=True)
                    ]
                ),
            )
        ],
        xaxis=_date_axis([w.week_start for w in weeks], step=7),
        yaxis=_SHARE_AXIS,
        **layout,
    )


def accuracy(weeks: Sequence[WeekAccuracy]) -> Chart:
    """A line of the share of answers right (or nearly right) each week; weeks without answers are
    gaps."""
    caption = "Answers right each week"
    headers = ("Week of", "Right", "Answers")
    answered = [w for w in weeks if w.answered]
    if not answered:
        return _empty("No answers yet.", caption, headers)
    figure = _weekly_share(
        weeks,
        lambda w: (w.right, w.answered),
        "Right",
        lambda w: (
            f"Week of {_date(w.week_start)}: {_pct(w.right / w.answered)} right ({w.right:,} of {_count(w.answered, 'answer')})"
        ),
    )
    latest = answered[-1]
    summary = (
        f"In the week of {_date(latest.week_start)} you got {_pct(latest.right / latest.answered)} right "
        f"({latest.right:,} of {_count(latest.answered, 'answer')})"
    )
    if len(answered) > 1:
        right, total = sum(w.right for w in answered), sum(w.answered for w in answered)
        summary += f"; over the {len(weeks)} weeks shown, {_pct(right / total)} ({right:,} of {_count(total, 'answer')})"
    rows = tuple(
        (_date(w.week_start), _pct(w.right / w.answered) if w.answered else "–", _num(w.answered))
        for w in weeks
    )
    return Chart(figure, summary + ".", Table(caption, headers, rows))


def retention(weeks: Sequence[WeekAccuracy], desired: float) -> Chart:
    """A line of true retention each week (the share of answers about facts learned on an earlier
    day that were recalled) against the desired retention, a dashed line; weeks without such answers
    are gaps."""
    caption = "Facts from earlier days remembered each week"
    headers = ("Week of", "Remembered", "Answers")
    counted = [w for w in weeks if w.recall_answers]
    if not counted:
        return _empty("No answers about facts from earlier days yet.", caption, headers)
    figure = _weekly_share(
        weeks,
        lambda w: (w.recalled, w.recall_answers),
        "Remembered",
        lambda w: (
            f"Week of {_date(w.week_start)}: remembered {_pct(w.recalled / w.recall_answers)} ({w.recalled:,} of {w.recall_answers:,})"
        ),
        **_target_line("y", desired, f"Goal {_pct(desired)}"),
    )
    latest = counted[-1]
    share = latest.recalled / latest.recall_answers
    verdict = "meeting" if share >= desired else "below"
    # Answers, not facts: a fact asked twice in the week is counted twice.
    summary = (
        f"In the week of {_date(latest.week_start)} you remembered {_pct(share)} of your answers about facts you "
        f"had learned on earlier days ({latest.recalled:,} of {_count(latest.recall_answers, 'answer')}), "
        f"{verdict} the {_pct(desired)} goal."
    )
    rows = tuple(
        (
            _date(w.week_start),
            _pct(w.recalled / w.recall_answers) if w.recall_answers else "–",
            _num(w.recall_answers),
        )
        for w in weeks
    )
    return Chart(figure, summary, Table(caption, headers, rows))


#: The outcomes of :class:`GameRecord`, as shown, with their colours.
OUTCOMES = (("won", "Won", GREEN), ("lost", "Lost", VERMILLION), ("drawn", "Drawn", GREY))


def game_records(records: Sequence[GameRecord]) -> Chart:
    """Horizontal stacked bars, one per game and level (in the given order, first at the top): won,
    lost, drawn."""
    caption = "Games against the computer"
    headers = ("Game", "Level", "Won", "Lost", "Drawn")
    played = sum(r.won + r.lost + r.drawn for r in records)
    if played == 0:
        return _empty("No games played yet.", caption, headers)
    labels = [_esc(f"{r.game} · {r.level}") for r in records]
    traces = [
        go.Bar(
            _validate=CHECK_TRACES,
            name=name,
            y=labels,
            x=[getattr(r, field) for r in records],
            orientation="h",
            marker_color=colour,
            **_hover(
                [
                    f"{label}: {getattr(r, field)} {name.lower()}"
                    for label, r in zip(labels, records, strict=True)
                ]
            ),
        )
        for field, name, colour in OUTCOMES
    ]
    figure = _figure(
        traces,
        height=140 + 32 * len(records),
        barmode="stack",
        xaxis=_count_axis(max(r.won + r.lost + r.drawn for r in records)),
        yaxis={"autorange": "reversed"},
    )
    won, lost, drawn = (sum(getattr(r, field) for r in records) for field, _, _ in OUTCOMES)
    summary = f"You played {_count(played, 'game')} against the computer: {won:,} won, {lost:,} lost, {drawn:,} drawn"
    if won:
        best = max(records, key=lambda r: r.won)  # the first of equals
        summary += f"; most wins in {best.game} · {best.level} ({best.won:,})"
    rows = tuple((r.game, r.level, _num(r.won), _num(r.lost), _num(r.drawn)) for r in records)
    return Chart(figure, summary + ".", Table(caption, headers, rows))


def personal_bests(bests: Sequence[PersonalBest]) -> Chart:
    """A table only (the Chart's figure is None): the fastest winning call per race and level."""
    caption = "Personal bests: fastest wins"
    headers = ("Race", "Level", "Fastest win")
    if not bests:
        return Chart(None, "No personal bests yet.", Table(caption, headers, ()))
    fastest = min(bests, key=lambda b: b.seconds)  # the first of equals
    where = f"{fastest.seconds:.1f} seconds, in {fastest.mode} · {fastest.level}"
    if len(bests) == 1:
        summary = f"Your fastest win is {where}."
    else:
        summary = f"You have {len(bests)} personal bests; the fastest is {where}."
    rows = tuple((b.mode, b.level, f"{b.seconds:.1f} s") for b in bests)
    return Chart(None, summary, Table(caption, headers, rows))


# --- A class's dashboard -----------------------------------------------------------------------

#: The weakest states listed per facet in the class heatmap's table.
WEAKEST_LISTED = 5


def class_heatmap(cells: Sequence[CellRecall], target: float, test_date: dt.date) -> Chart:
    """A heatmap of states (rows, by name, A at the top) by facets (columns, in :class:`Facet` order,
    those given): the mean predicted recall on ``test_date`` over the students who started the
    fact, blank where none has, viridis fixed over 0..100%. Each cell carries how many students
    started it (``customdata``), the weight of its mean in the topic's."""
    caption = (
        f"The weakest states in each topic: mean predicted recall on {_date(test_date)} over the students who "
        f"started each fact; the target is {_pct(target)}"
    )
    headers = ("Topic", "Weakest states", "Not started")
    if not any(c.mean_recall is not None for c in cells):
        return _empty("No one in the class has started any facts yet.", caption, headers)
    names = sorted({c.name for c in cells})
    facets = [f for f in Facet if any(c.facet is f for c in cells)]
    by_cell = {(c.name, c.facet): c for c in cells}
    z: list[list[float | None]] = []
    started_by: list[list[int]] = []
    text: list[list[str]] = []
    for name in names:
        z.append([])
        started_by.append([])
        text.append([])
        for facet in facets:
            cell = by_cell.get((name, facet))
            recall = cell.mean_recall if cell else None
            z[-1].append(recall)
            started_by[-1].append(cell.started if cell and recall is not None else 0)
            where = f"{_esc(name)} · {facet.label}"
            if cell is None or recall is None:
                text[-1].append(f"{where}: no one has started it")
            else:
                at_target = f"{_pct(cell.share_at_target)} of all the class's students at or above {_pct(target)}"
                text[-1].append(
                    f"{where}: {_pct(recall)} mean predicted recall over the {_count(cell.started, 'student')} who started it; {at_target}"
                )
    figure = _figure(
        [
            go.Heatmap(
                _validate=CHECK_TRACES,
                x=[f.label for f in facets],
                y=[_esc(n) for n in names],
                z=z,
                zmin=0,
                zmax=1,
                colorscale=VIRIDIS_SCALE,
                xgap=1,
                ygap=1,
                hoverongaps=True,
                colorbar=_colorbar(
                    "Mean predicted recall", ".0%", tickvals=[0, 0.25, 0.5, 0.75, 1]
                ),
                customdata=started_by,
                **_hover(text),
            )
        ],
        height=160 + 18 * len(names),
        xaxis={"side": "top", "showgrid": False},
        yaxis={"autorange": "reversed", "showgrid": False, "dtick": 1},
        margin={"t": 8},
    )
    started = [c for c in cells if c.mean_recall is not None]
    means = {
        f: m
        for f in facets
        if (m := _weighted_mean([c for c in started if c.facet is f])) is not None
    }
    weakest_facet = min(means, key=means.__getitem__)
    strongest_facet = max(means, key=means.__getitem__)
    weakest = min(started, key=lambda c: (c.mean_recall, c.name, list(Facet).index(c.facet)))
    summary = (
        f"On {_date(test_date)}, over the students who have started each fact, the class is weakest on "
        f"{weakest_facet.label} (mean predicted recall {_pct(means[weakest_facet])})"
    )
    if strongest_facet is not weakest_facet:
        summary += f" and strongest on {strongest_facet.label} ({_pct(means[strongest_facet])})"
    summary += (
        f"; the weakest fact is {weakest.name} · {weakest.facet.label} ({_pct(weakest.mean_recall or 0)}). "
        f"{_num(len(started))} of the {_count(len(names) * len(facets), 'fact')} have been started by at least one "
        "student; the others are blank."
    )
    rows = []
    for facet in facets:
        ranked = sorted(
            (c for c in started if c.facet is facet), key=lambda c: (c.mean_recall, c.name)
        )
        listed = ", ".join(f"{c.name} {_pct(c.mean_recall or 0)}" for c in ranked[:WEAKEST_LISTED])
        rows.append((facet.label, listed or "–", _num(len(names) - len(ranked))))
    return Chart(figure, summary, Table(caption, headers, tuple(rows)))


def _weighted_mean(cells: Sequence[CellRecall]) -> float | None:
    """The mean recall over the student-facts of the cells (each cell weighed by its students)."""
    weight = sum(c.started for c in cells)
    if weight == 0:
        return sum(c.mean_recall or 0 for c in cells) / len(cells) if cells else None
    return sum((c.mean_recall or 0) * c.started for c in cells) / weight


def confused_pairs(confusions: Confusions, limit: int = 10) -> Chart:
    """Horizontal bars of the ``limit`` most common mix-ups ("Vermont for New Hampshire"), most at
    the top (equals by the state asked, then the one answered); the sentence sets them against
    every wrong answer that named another state (``confusions.total``)."""
    caption = "States mixed up most often"
    headers = ("Asked", "Answered", "Times")
    pairs = confusions.pairs
    if not any(p.count for p in pairs):
        return _empty("No mix-ups yet.", caption, headers)
    ranked = sorted(
        (p for p in pairs if p.count), key=lambda p: (-p.count, p.asked_name, p.answered_name)
    )
    shown = ranked[: max(limit, 1)]
    labels = [_esc(f"{p.answered_name} for {p.asked_name}") for p in shown]
    figure = _figure(
        [
            go.Bar(
                _validate=CHECK_TRACES,
                y=labels,
                x=[p.count for p in shown],
                orientation="h",
                marker_color=ORANGE,
                name="Mix-ups",
                **_hover(
                    [
                        f"{label}: {_count(p.count, 'time')}"
                        for label, p in zip(labels, shown, strict=True)
                    ]
                ),
            )
        ],
        height=100 + 28 * len(shown),
        xaxis=_count_axis(shown[0].count),
        yaxis={"autorange": "reversed"},
    )
    top = shown[0]
    drawn = sum(p.count for p in shown)
    # The pairs given may be only the most frequent: the total counts every such answer.
    total = max(confusions.total, sum(p.count for p in ranked))
    summary = (
        f"Of the class's {_count(total, 'wrong answer')} that named another state, the most common mix-up is "
        f"{top.answered_name} for {top.asked_name} ({_count(top.count, 'time')}); "
    )
    if drawn == total:
        summary += (
            "every one of them is shown."
            if len(shown) > 1 or top.count > 1
            else "it is the only one."
        )
    else:
        summary += f"the {_count(len(shown), 'mix-up')} shown account{'s' if len(shown) == 1 else ''} for {drawn:,} of them."
    rows = tuple((p.asked_name, p.answered_name, _num(p.count)) for p in shown)
    caption = f"{caption}: the {_count(len(shown), 'mix-up')} shown, of {_count(total, 'wrong answer')} that named another state"
    return Chart(figure, summary, Table(caption, headers, rows))


def at_risk(
    students: Sequence[StudentRisk], target: float, test_date: dt.date, *, not_yet: int = 0
) -> Chart:
    """Horizontal bars of each student's mean predicted recall on the test date, worst at the top,
    below the target in vermillion, at or above it in blue; the target a dashed line. ``not_yet``
    students are left out, not having had the chance to practise yet (P-S5): the sentence says so."""
    caption = f"Predicted recall on {_date(test_date)}, worst first"
    headers = ("Student", f"Predicted recall on {_date(test_date)}", f"Facts below {_pct(target)}")
    waiting = (
        f"{_count(not_yet, 'student')} who joined in the last two days {'is' if not_yet == 1 else 'are'} "
        "not shown until they have had the chance to practise."
        if not_yet
        else ""
    )
    if not students:
        if not_yet:
            return _empty(
                "Nobody has had the chance to practise yet: " + waiting[0].lower() + waiting[1:],
                caption,
                headers,
            )
        return _empty("No students yet.", caption, headers)
    ranked = sorted(students, key=lambda s: (s.mean_recall, s.username))
    below = [s for s in ranked if s.mean_recall < target]
    names = [_esc(s.username) for s in ranked]
    figure = _figure(
        [
            go.Bar(
                _validate=CHECK_TRACES,
                y=names,
                x=[s.mean_recall for s in ranked],
                orientation="h",
                name="Predicted recall",
                marker_color=[VERMILLION if s.mean_recall < target else BLUE for s in ranked],
                **_hover(
                    [
                        f"{name}: {_pct(s.mean_recall)} on {_date(test_date)}; "
                        f"{s.below_target} of {_count(s.facts, 'fact')} below {_pct(target)}"
                        for name, s in zip(names, ranked, strict=True)
                    ]
                ),
            )
        ],
        height=120 + 24 * len(ranked),
        xaxis=_SHARE_AXIS,
        yaxis={"autorange": "reversed"},
        **_target_line("x", target, f"Target {_pct(target)}"),
    )
    lowest = ranked[0]
    if below:
        start = f"{len(below)} of {_count(len(ranked), 'student')} {'is' if len(below) == 1 else 'are'} below"
    else:
        start = (
            "the student is at or above"
            if len(ranked) == 1
            else f"all {len(ranked)} students are at or above"
        )
    sizes = {s.facts for s in ranked}
    over = f"all {_count(sizes.pop(), 'fact')}" if len(sizes) == 1 else "all their facts"
    # The denominator differs from the map's and the heatmap's (facts started only): say it.
    summary = (
        f"Each bar is a student's mean predicted recall on {_date(test_date)} over {over}, facts not started "
        f"counting as 0: {start} the {_pct(target)} target; the lowest is {lowest.username} ({_pct(lowest.mean_recall)})."
    ) + (f" {waiting}" if waiting else "")
    rows = tuple(
        (s.username, _pct(s.mean_recall), f"{s.below_target:,} of {s.facts:,}") for s in ranked
    )
    return Chart(figure, summary, Table(caption, headers, rows))


def completion(points: Sequence[CompletionPoint]) -> Chart:
    """Lines of the students who had finished each assignment by the end of each day (done, or
    done late: the class page's "finished"), one line per assignment (in the order they first
    appear), as steps. Each point carries, as ``customdata``, its assignment's students, how many of
    those finished finished late, how many are on track (a goal before its due day; else -1) and the
    due day (ISO; "" if unknown): what the sentence says besides the count."""
    caption = "Students finished, by day (late ones included)"
    headers = ("Assignment", "Day", "Finished")
    if not points:
        return _empty("No assignments under way yet.", caption, headers)
    lines: dict[str, list[CompletionPoint]] = defaultdict(list)
    for p in points:
        lines[p.assignment].append(p)
    for line in lines.values():
        line.sort(key=lambda p: p.day)
    traces = [
        go.Scatter(
            _validate=CHECK_TRACES,
            x=[p.day for p in line],
            y=[p.finished for p in line],
            name=_esc(title),
            mode="lines+markers",
            line={"shape": "hv", "color": CATEGORY_COLOURS[i % len(CATEGORY_COLOURS)]},
            customdata=[
                [
                    p.assigned,
                    p.late,
                    -1 if p.on_track is None else p.on_track,
                    "" if p.due is None else p.due.isoformat(),
                ]
                for p in line
            ],
            **_hover([f"{_esc(title)}: {_finished(p)} by {_date(p.day)}" for p in line]),
        )
        for i, (title, line) in enumerate(lines.items())
    ]
    figure = _figure(
        traces,
        xaxis=_date_axis([p.day for p in points]),
        # The axis goes as high as the counts drawn (whole students: ticks of 1 when few).
        yaxis=_count_axis(max(p.finished for p in points), title={"text": "Students finished"}),
        showlegend=True,
    )
    latest = {title: line[-1] for title, line in lines.items()}
    if len(latest) == 1:
        ((title, p),) = latest.items()
        summary = f"{_finished_sentence(p)} {title}{_finished_notes(p)}."
    else:
        done = sum(1 for p in latest.values() if p.finished >= p.assigned)
        behind = min(
            latest.values(), key=lambda p: p.finished / p.assigned if p.assigned else 1.0
        )  # the first of equals
        if done == len(latest):
            summary = f"All {len(latest)} assignments shown have been finished by every student they were set for."
        else:
            summary = (
                f"Of the {len(latest)} assignments shown, {done} {'has' if done == 1 else 'have'} been finished by every "
                f"student {'it was' if done == 1 else 'they were'} set for; the furthest behind is {behind.assignment}: "
                f"{_finished_sentence(behind)} it{_finished_notes(behind)}."
            )
    rows = tuple((title, _date(p.day), _finished(p)) for title, line in lines.items() for p in line)
    return Chart(figure, summary, Table(caption, headers, rows))


def _finished(p: CompletionPoint) -> str:
    """ "12 of 25 finished (3 late)", "0 of 25 finished (9 on track)"."""
    notes = [f"{p.late:,} late"] if p.late else []
    if p.on_track is not None:
        notes.append(f"{p.on_track:,} on track")
    return f"{p.finished:,} of {p.assigned:,} finished" + (
        f" ({', '.join(notes)})" if notes else ""
    )


def _finished_sentence(p: CompletionPoint) -> str:
    """ "12 of 25 students have finished"."""
    return f"{p.finished:,} of {_count(p.assigned, 'student')} {'has' if p.finished == 1 else 'have'} finished"


def _finished_notes(p: CompletionPoint) -> str:
    """What else the sentence must say of an assignment's count: the late ones among them, and a
    goal not judged yet (P-A3, P-A4)."""
    notes = ""
    if p.late:
        notes += f", {p.late:,} of them after the due day"
        if p.due is not None:
            notes += f" ({_date(p.due)})"
    if p.on_track is not None:
        due = f" ({_date(p.due)})" if p.due is not None else ""
        notes += f"; a goal is judged on its due day{due}, and {p.on_track:,} {'is' if p.on_track == 1 else 'are'} on track"
    return notes


# --- The mastery map (an SVG of the project's own state outlines, coloured here) ----------------


@dataclass(frozen=True)
class MapState:
    """One state on a mastery map: its colour and what it says to a screen reader."""

    postal: str
    name: str
    recall: float | None
    colour: str
    label: str


@dataclass(frozen=True)
class MasteryMap:
    """Every state coloured by mean predicted recall (viridis, 0..100%; not started is light grey),
    the legend's steps, a sentence and the table (the map's text alternative)."""

    states: tuple[MapState, ...]
    legend: tuple[tuple[str, str], ...]
    summary: str
    table: Table


def recall_colour(recall: float | None) -> str:
    """The viridis colour of a predicted recall (0 dark purple .. 1 yellow); light grey for None."""
    if recall is None:
        return LIGHT_GREY
    return _viridis(round(min(1.0, max(0.0, recall)), 3))


@cache
def _viridis(x: float) -> str:
    """Viridis at ``x`` (0..1), as plotly's own scale samples it (its own arithmetic: a colour
    computed here by hand came out one step off plotly's where the interpolation fell on a half,
    as at 0.58)."""
    return str(sample_colorscale("Viridis", [x], colortype="rgb")[0])


def mastery_map(
    states: Sequence[StateRecall], *, who: str = "You", on: dt.date | None = None, students: int = 1
) -> MasteryMap:
    """The mastery map of one student (``who="You"``) or a class (``who="The class"`` and its
    number of ``students``), with recall predicted today or ``on`` a test date. A state's colour is
    the mean over the facts started only (for a class, every student's), so the sentence says so
    and how many facts are started: other charts count facts not started as 0."""
    shown = []
    you = who == "You"
    facts = {state.postal: state.facts for state in states}
    for state in sorted(states, key=lambda s: s.name):
        if state.recall is None:
            label = f"{state.name}: not started"
        elif you:
            label = f"{state.name}: {_pct(state.recall)} likely remembered ({_count(state.facts, 'fact')} started)"
        else:
            label = (
                f"{state.name}: {_pct(state.recall)} mean predicted recall "
                f"({state.facts:,} of {students * len(Facet):,} facts started by the students)"
            )
        shown.append(
            MapState(state.postal, state.name, state.recall, recall_colour(state.recall), label)
        )
    started = [s for s in shown if s.recall is not None]
    when = "today" if on is None else f"on {_date(on)}"
    if not started:
        summary = f"{who} {'have' if you else 'has'} not started any state yet."
    else:
        best = max(started, key=lambda s: (s.recall, s.name))
        worst = min(started, key=lambda s: (s.recall, s.name))
        over = (
            "Over the facts you have started" if you else "Over the facts its students have started"
        )
        summary = (
            f"{over}, {who.lower() if you else who[0].lower() + who[1:]} {'are' if you else 'is'} most likely to remember "
            f"{best.name} ({_pct(best.recall or 0)}) and least likely {worst.name} ({_pct(worst.recall or 0)}) {when}"
        )
        missing = len(shown) - len(started)
        summary += (
            f"; {_count(missing, 'state')} not started {'yet' if you else 'by any student yet'}"
            if missing
            else ""
        )
        if not you:
            begun, possible = sum(facts.values()), students * len(Facet) * len(shown)
            summary += (
                f"; the {_count(students, 'student')} have started {begun:,} of their {possible:,} state facts "
                f"({_pct(begun / possible if possible else 0)}), and facts not started are left out here"
            )
        summary += "."
    legend = tuple((_pct(step / 4), recall_colour(step / 4)) for step in range(5)) + (
        ("Not started", LIGHT_GREY),
    )
    mean = "Likely remembered" if you else "Mean predicted recall of the facts started"
    begun_header = (
        "Facts started"
        if you
        else f"Facts started (of {students * len(Facet):,}: {len(Facet)} per student)"
    )
    table = Table(
        f"Predicted recall {when}, state by state",
        ("State", mean, begun_header),
        tuple(
            (s.name, "—" if s.recall is None else _pct(s.recall), _num(facts[s.postal]))
            for s in shown
        ),
    )
    return MasteryMap(tuple(shown), legend, summary, table)
