"""Every dashboard sentence agrees with its chart and says what it counts (issue 18, section 5).

For each chart, the numbers of its sentence are read back from the sentence and computed again,
independently, from what the chart itself shows: the figure's traces (as the browser gets them,
:func:`~trainer.figures.chart_json`) or its table. The inputs are random (hypothesis), so a sentence
that disagrees with its chart on any input fails here.

The checkers work on the JSON and the table alone, so ``tests/web/test_dashboard_sentences.py``
runs them on the pages a seeded class's dashboards render.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from trainer import figures
from trainer.dashboard_data import (
    CellRecall,
    CompletionPoint,
    ConfusedPair,
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
from trainer.figures import Chart, MasteryMap, Table, chart_json

NUM = r"[\d,]+"
#: Two means that differ by less than this are equal, whichever order they were added in.
EPS = 1e-9
TODAY = dt.date(2026, 3, 3)
EXAMPLES = settings(max_examples=60, deadline=None)


def num(text: str) -> int:
    return int(text.replace(",", ""))


def pct(share: float) -> int:
    """A share as the whole percentage a chart shows (rounded down)."""
    return math.floor(share * 100 + 1e-9)


def pct_of(share: float, shown: str) -> bool:
    """Whether ``shown`` is the percentage of ``share``, allowing a share a hair from a whole percent
    (a mean summed in another order) to read either way."""
    return int(shown) in {pct(share - EPS), pct(share + EPS)}


def day_of(text: str) -> dt.date:
    """ "3 Mar 2026" as a date."""
    return dt.datetime.strptime(text, "%d %b %Y").date()


def iso(value: str) -> dt.date:
    return dt.date.fromisoformat(value[:10])


def match(pattern: str, summary: str) -> re.Match[str]:
    found = re.fullmatch(pattern, summary)
    assert found is not None, f"the sentence does not say what it should: {summary!r}"
    return found


def caption_date(table: Table) -> dt.date:
    """The date a table's caption names ("... on 12 May 2026 ...")."""
    found = re.search(r"on (\d{1,2} \w{3} \d{4})", table.caption)
    assert found is not None, table.caption
    return day_of(found.group(1))


# --- The checkers: a sentence against the figure's JSON and the table --------------------------------


def check_facet_stages(summary: str, figure: dict[str, Any], table: Table) -> None:
    bars = {trace["name"]: trace for trace in figure["data"]}
    labels, mastered = list(bars["Mastered"]["y"]), list(bars["Mastered"]["x"])
    total = sum(sum(trace["x"]) for trace in figure["data"])
    started = total - sum(bars["New"]["x"])
    if summary.startswith("You have mastered"):
        found = match(
            rf"You have mastered ({NUM}) of ({NUM}) facts; your strongest topic is (.+) \(({NUM}) mastered\)\.",
            summary,
        )
        assert (num(found[1]), num(found[2])) == (sum(mastered), total)
        assert (found[3], num(found[4])) == (labels[mastered.index(max(mastered))], max(mastered))
    elif summary.startswith("You have not mastered"):
        found = match(
            rf"You have not mastered any of the ({NUM}) facts yet; you have started ({NUM})\.",
            summary,
        )
        assert sum(mastered) == 0 and (num(found[1]), num(found[2])) == (total, started) and started
    else:
        found = match(rf"You have not started any of the ({NUM}) facts yet\.", summary)
        assert num(found[1]) == total and started == 0


def check_forecast(
    summary: str, figure: dict[str, Any], table: Table, today: dt.date | None = None
) -> None:
    (bars,) = figure["data"]
    days, due = [iso(x) for x in bars["x"]], list(bars["y"])
    found = match(
        rf"({NUM}) reviews? (?:is|are) due in the next ({NUM}) days?(?:, ({NUM}) of them today)?; "
        rf"the busiest day is (.+?) \(({NUM}) reviews?\)\.",
        summary,
    )
    assert (num(found[1]), num(found[2])) == (sum(due), len(days))
    if found[3]:
        assert days[0] == today and num(found[3]) == due[0] > 0
    else:
        assert today is None or due[0] == 0
    assert (day_of(found[4]), num(found[5])) == (days[due.index(max(due))], max(due))
    assert [(r[0], num(r[1])) for r in table.rows] == [
        (f"{d.day} {d:%b %Y}", n) for d, n in zip(days, due, strict=True)
    ]


def check_review_calendar(summary: str, figure: dict[str, Any], table: Table) -> None:
    (heat,) = figure["data"]
    given: dict[dt.date, int] = {}
    for column, week in enumerate(heat["x"]):
        for row in range(7):
            count = heat["z"][row][column]
            if count is not None:
                given[iso(week) + dt.timedelta(days=row)] = count
    found = match(
        rf"You did ({NUM}) reviews? on ({NUM}) days? in the past year; your busiest day was (.+?) \(({NUM}) reviews?\)\.",
        summary,
    )
    most = max(given.values())
    assert (num(found[1]), num(found[2])) == (
        sum(given.values()),
        sum(1 for n in given.values() if n),
    )
    assert (day_of(found[3]), num(found[4])) == (
        min(d for d, n in given.items() if n == most),
        most,
    )


def _weekly(figure: dict[str, Any], table: Table) -> tuple[list[dt.date], list[int], list[int]]:
    """Each week of a weekly share's line, with its part and whole: the whole from the table, the
    part from the line's share of it."""
    (line,) = figure["data"]
    weeks = [iso(x) for x in line["x"]]
    wholes = [num(row[2]) for row in table.rows]
    parts = [
        round(share * whole) if share is not None else 0
        for share, whole in zip(line["y"], wholes, strict=True)
    ]
    return weeks, parts, wholes


def check_accuracy(summary: str, figure: dict[str, Any], table: Table) -> None:
    weeks, right, answered = _weekly(figure, table)
    found = match(
        rf"In the week of (.+?) you got (\d+)% right \(({NUM}) of ({NUM}) answers?\)"
        rf"(?:; over the ({NUM}) weeks shown, (\d+)% \(({NUM}) of ({NUM}) answers\))?\.",
        summary,
    )
    latest = max(i for i, n in enumerate(answered) if n)
    assert day_of(found[1]) == weeks[latest]
    assert (num(found[3]), num(found[4])) == (right[latest], answered[latest])
    assert int(found[2]) == pct(right[latest] / answered[latest])
    if sum(1 for n in answered if n) > 1:
        assert found[5] is not None and num(found[5]) == len(weeks)
        assert (num(found[7]), num(found[8])) == (sum(right), sum(answered))
        assert int(found[6]) == pct(sum(right) / sum(answered))
    else:
        assert found[5] is None


def check_retention(summary: str, figure: dict[str, Any], table: Table) -> None:
    weeks, recalled, answers = _weekly(figure, table)
    (goal_line,) = figure["layout"]["shapes"]
    goal = goal_line["y0"]
    found = match(
        rf"In the week of (.+?) you remembered (\d+)% of your answers about facts you had learned on earlier days "
        rf"\(({NUM}) of ({NUM}) answers?\), (meeting|below) the (\d+)% goal\.",
        summary,
    )
    latest = max(i for i, n in enumerate(answers) if n)
    share = recalled[latest] / answers[latest]
    assert day_of(found[1]) == weeks[latest]
    assert (num(found[3]), num(found[4]), int(found[2])) == (
        recalled[latest],
        answers[latest],
        pct(share),
    )
    assert found[5] == ("meeting" if share >= goal else "below") and int(found[6]) == pct(goal)


def check_game_records(summary: str, figure: dict[str, Any], table: Table) -> None:
    bars = {trace["name"]: trace for trace in figure["data"]}
    labels = [html.unescape(label) for label in bars["Won"]["y"]]
    won, lost, drawn = (list(bars[name]["x"]) for name in ("Won", "Lost", "Drawn"))
    found = match(
        rf"You played ({NUM}) games? against the computer: ({NUM}) won, ({NUM}) lost, ({NUM}) drawn(?:; most wins in (.+) \(({NUM})\))?\.",
        summary,
    )
    assert [num(found[i]) for i in (1, 2, 3, 4)] == [
        sum(won) + sum(lost) + sum(drawn),
        sum(won),
        sum(lost),
        sum(drawn),
    ]
    if sum(won):
        assert (found[5], num(found[6])) == (labels[won.index(max(won))], max(won))
    else:
        assert found[5] is None


def check_personal_bests(summary: str, table: Table) -> None:
    rows = [(mode, level, float(time.removesuffix(" s"))) for mode, level, time in table.rows]
    fastest = min(seconds for _, _, seconds in rows)
    if len(rows) == 1:
        found = match(r"Your fastest win is ([\d.]+) seconds, in (.+) · (.+)\.", summary)
        mode, level, seconds = found[2], found[3], float(found[1])
    else:
        found = match(
            r"You have (\d+) personal bests; the fastest is ([\d.]+) seconds, in (.+) · (.+)\.",
            summary,
        )
        assert int(found[1]) == len(rows)
        mode, level, seconds = found[3], found[4], float(found[2])
    assert seconds == fastest and (mode, level, fastest) in rows


def check_class_heatmap(summary: str, figure: dict[str, Any], table: Table) -> None:
    (heat,) = figure["data"]
    facets, names = list(heat["x"]), [html.unescape(name) for name in heat["y"]]
    z, weights = heat["z"], heat["customdata"]
    cells = {
        (names[r], facets[c]): z[r][c]
        for r in range(len(names))
        for c in range(len(facets))
        if z[r][c] is not None
    }
    means = {}
    for c, facet in enumerate(facets):
        weight = sum(weights[r][c] for r in range(len(names)) if z[r][c] is not None)
        if weight:
            means[facet] = (
                sum(z[r][c] * weights[r][c] for r in range(len(names)) if z[r][c] is not None)
                / weight
            )
    found = match(
        rf"On (.+?), over the students who have started each fact, the class is weakest on (.+?) \(mean predicted recall (\d+)%\)"
        rf"(?: and strongest on (.+?) \((\d+)%\))?; the weakest fact is (.+) · (.+?) \((\d+)%\)\. "
        rf"({NUM}) of the ({NUM}) facts? ha(?:s|ve) been started by at least one student; the others are blank\.",
        summary,
    )
    assert day_of(found[1]) == caption_date(table)
    weakest, strongest = min(means.values()), max(means.values())
    assert means[found[2]] <= weakest + EPS and pct_of(means[found[2]], found[3])
    if found[4]:
        assert (
            found[4] != found[2]
            and means[found[4]] >= strongest - EPS
            and pct_of(means[found[4]], found[5])
        )
    else:
        assert strongest - weakest <= EPS
    low = cells[(found[6], found[7])]
    assert low == min(cells.values()) and pct_of(low, found[8])
    assert (num(found[9]), num(found[10])) == (len(cells), len(names) * len(facets))


def check_confused_pairs(summary: str, figure: dict[str, Any], table: Table) -> None:
    (bars,) = figure["data"]
    counts, labels = list(bars["x"]), [html.unescape(label) for label in bars["y"]]
    total = num(
        re.search(rf"of ({NUM}) wrong answers? that named another state", table.caption).group(1)
    )
    found = match(
        rf"Of the class's ({NUM}) wrong answers? that named another state, the most common mix-up is (.+?) \(({NUM}) times?\); "
        rf"(?:the ({NUM}) mix-ups? shown accounts? for ({NUM}) of them|every one of them is shown|it is the only one)\.",
        summary,
    )
    assert num(found[1]) == total >= sum(counts)
    assert (found[2], num(found[3])) == (labels[0], max(counts))
    if found[4]:
        assert (num(found[4]), num(found[5])) == (len(counts), sum(counts)) and sum(counts) < total
    else:
        assert sum(counts) == total


def check_at_risk(summary: str, figure: dict[str, Any], table: Table) -> None:
    (bars,) = figure["data"]
    recalls, names = list(bars["x"]), [html.unescape(name) for name in bars["y"]]
    (line,) = figure["layout"]["shapes"]
    target = line["x0"]
    facts = {num(row[2].split(" of ")[1]) for row in table.rows}
    found = match(
        rf"Each bar is a student's mean predicted recall on (.+?) over (?:all ({NUM}) facts?|all their facts), facts not started "
        rf"counting as 0: (?:({NUM}) of ({NUM}) students? (?:is|are) below|all ({NUM}) students are at or above|"
        rf"the student is at or above) the (\d+)% target; the lowest is (.+) \((\d+)%\)\.",
        summary,
    )
    assert day_of(found[1]) == caption_date(table)
    assert (num(found[2]),) == tuple(facts) if found[2] else len(facts) > 1
    below = sum(1 for r in recalls if r < target)
    if found[3]:
        assert (num(found[3]), num(found[4])) == (below, len(recalls)) and below
    else:
        assert below == 0 and (num(found[5]) if found[5] else 1) == len(recalls)
    assert int(found[6]) == pct(target)
    assert found[7] == names[0] and recalls[0] == min(recalls) and int(found[8]) == pct(recalls[0])


def _completion_notes(pattern_prefix: str) -> str:
    return (
        pattern_prefix
        + rf"(?:, ({NUM}) of them after the due day \((.+?)\))?(?:; a goal is judged on its due day \((.+?)\), and ({NUM}) (?:is|are) on track)?\."
    )


def _check_notes(found: re.Match[str], first: int, data: Sequence[Any]) -> None:
    """The late ones and the goal's on-track count, against the last point's ``customdata``."""
    _assigned, late, on_track, due = data
    late_shown, late_due, goal_due, on_track_shown = (found[first + i] for i in range(4))
    assert (num(late_shown) if late_shown else 0) == late
    if late_shown:
        assert day_of(late_due) == iso(due)
    assert (num(on_track_shown) if on_track_shown else -1) == on_track
    if goal_due:
        assert day_of(goal_due) == iso(due)


def check_completion(summary: str, figure: dict[str, Any], table: Table) -> None:
    latest = {
        html.unescape(trace["name"]): (trace["y"][-1], trace["customdata"][-1])
        for trace in figure["data"]
    }
    if len(latest) == 1:
        ((title, (finished, data)),) = latest.items()
        found = match(
            _completion_notes(rf"({NUM}) of ({NUM}) students? ha(?:s|ve) finished (.+?)"), summary
        )
        assert (num(found[1]), num(found[2]), found[3]) == (finished, data[0], title)
        _check_notes(found, 4, data)
        return
    ratios = {
        title: finished / data[0] if data[0] else 1.0 for title, (finished, data) in latest.items()
    }
    done = sum(1 for finished, data in latest.values() if finished >= data[0])
    if summary.startswith("All "):
        found = match(
            rf"All ({NUM}) assignments shown have been finished by every student they were set for\.",
            summary,
        )
        assert num(found[1]) == len(latest) == done
        return
    found = match(
        _completion_notes(
            rf"Of the ({NUM}) assignments shown, ({NUM}) (?:has|have) been finished by every student (?:it was|they were) set for; "
            rf"the furthest behind is (.+?): ({NUM}) of ({NUM}) students? ha(?:s|ve) finished it"
        ),
        summary,
    )
    assert (num(found[1]), num(found[2])) == (len(latest), done)
    title = found[3]
    finished, data = latest[title]
    assert ratios[title] == min(ratios.values()) and (num(found[4]), num(found[5])) == (
        finished,
        data[0],
    )
    _check_notes(found, 6, data)


def check_mastery_map(summary: str, table: Table, *, you: bool) -> None:
    """A mastery map has no figure: its table is its text alternative (state, recall, facts started)."""
    rows = [
        (name, None if shown == "—" else int(shown.rstrip("%")), num(facts))
        for name, shown, facts in table.rows
    ]
    started = [(name, shown) for name, shown, _ in rows if shown is not None]
    missing = len(rows) - len(started)
    if not started:
        assert summary == (
            "You have not started any state yet."
            if you
            else "The class has not started any state yet."
        )
        return
    if you:
        found = match(
            rf"Over the facts you have started, you are most likely to remember (.+?) \((\d+)%\) and least likely (.+?) \((\d+)%\) "
            rf"today(?:; ({NUM}) states? not started yet)?\.",
            summary,
        )
        assert table.caption == "Predicted recall today, state by state"
    else:
        found = match(
            rf"Over the facts its students have started, the class is most likely to remember (.+?) \((\d+)%\) and least likely "
            rf"(.+?) \((\d+)%\) on (.+?)(?:; ({NUM}) states? not started by any student yet)?; the ({NUM}) students? have started "
            rf"({NUM}) of their ({NUM}) state facts \((\d+)%\), and facts not started are left out here\.",
            summary,
        )
        assert day_of(found[5]) == caption_date(table)
        per_state, per_student = (
            num(n)
            for n in re.search(rf"of ({NUM}): ({NUM}) per student", table.headers[2]).groups()
        )
        students = per_state // per_student
        begun, possible = sum(facts for _, _, facts in rows), per_state * len(rows)
        assert (num(found[7]), num(found[8]), num(found[9])) == (students, begun, possible)
        assert int(found[10]) == pct(begun / possible)
    shown = dict(started)
    assert (shown[found[1]], int(found[2])) == (max(shown.values()),) * 2
    assert (shown[found[3]], int(found[4])) == (min(shown.values()),) * 2
    tail = found[5] if you else found[6]
    assert (num(tail) if tail else 0) == missing


CHECKERS: dict[str, Callable[[str, dict[str, Any], Table], None]] = {
    "facet_stages": check_facet_stages,
    "forecast": check_forecast,
    "review_calendar": check_review_calendar,
    "accuracy": check_accuracy,
    "retention": check_retention,
    "game_records": check_game_records,
    "class_heatmap": check_class_heatmap,
    "confused_pairs": check_confused_pairs,
    "at_risk": check_at_risk,
    "completion": check_completion,
}


def check(name: str, chart: Chart) -> None:
    """Check a chart's sentence against its own figure (unless it is empty) and table."""
    if chart.figure is not None and not chart.figure.data:
        assert chart.table.rows == (), "an empty chart has no numbers to disagree with"
        return
    CHECKERS[name](chart.summary, json.loads(chart_json(chart)), chart.table)


# --- Random inputs -----------------------------------------------------------------------------------

WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz &<>'", min_size=1, max_size=12).map(
    lambda s: s.strip() or "x"
)
SHARES = st.integers(0, 1000).map(lambda n: n / 1000)


@st.composite
def facet_counts(draw: st.DrawFn) -> list[FacetCounts]:
    facets = draw(st.lists(st.sampled_from(list(Facet)), min_size=1, max_size=8, unique=True))
    out = []
    for facet in facets:
        mastered, learning, leeches = (draw(st.integers(0, 20)) for _ in range(3))
        out.append(
            FacetCounts(facet, mastered, learning, leeches, 50 - mastered - learning - leeches)
        )
    return out


@st.composite
def weeks(draw: st.DrawFn) -> list[WeekAccuracy]:
    out = []
    for i in range(draw(st.integers(1, 26))):
        answered = draw(st.integers(0, 300))
        right = draw(st.integers(0, answered))
        recall_answers = draw(st.integers(0, answered))
        out.append(
            WeekAccuracy(
                TODAY + dt.timedelta(weeks=i),
                answered,
                right,
                recall_answers,
                draw(st.integers(0, recall_answers)),
            )
        )
    return out


@st.composite
def cells(draw: st.DrawFn) -> list[CellRecall]:
    states = draw(
        st.lists(
            st.sampled_from(["Alabama", "Maine", "Ohio", "Utah", "Vermont", "Iowa"]),
            min_size=1,
            max_size=6,
            unique=True,
        )
    )
    facets = draw(st.lists(st.sampled_from(list(Facet)), min_size=1, max_size=8, unique=True))
    out = []
    for name in states:
        for facet in facets:
            started = draw(st.integers(0, 30))
            mean = draw(SHARES) if started else None
            out.append(CellRecall(name[:2].upper(), name, facet, mean, draw(SHARES), started))
    return out


@st.composite
def confusions(draw: st.DrawFn) -> Confusions:
    names = ["Vermont", "Maine", "Iowa", "Ohio", "Utah"]
    pairs = draw(
        st.lists(
            st.tuples(st.sampled_from(names), st.sampled_from(names), st.integers(1, 40)),
            max_size=14,
            unique_by=lambda p: p[:2],
        )
    )
    ranked = tuple(ConfusedPair(a[:2].upper(), a, b[:2].upper(), b, n) for a, b, n in pairs)
    return Confusions(ranked, sum(n for *_, n in pairs) + draw(st.integers(0, 50)))


@st.composite
def risks(draw: st.DrawFn, target: float) -> list[StudentRisk]:
    """Students, some exactly at the target (at it is not below it)."""
    facts = draw(st.sampled_from([1, 40, 400]))
    recalls = st.one_of(SHARES, st.just(target))
    return [
        StudentRisk(i, f"{name}{i}", draw(recalls), draw(st.integers(0, facts)), facts)
        for i, name in enumerate(draw(st.lists(WORDS, min_size=1, max_size=12)))
    ]


@st.composite
def completion_points(draw: st.DrawFn) -> list[CompletionPoint]:
    out = []
    titles = draw(st.lists(WORDS, min_size=1, max_size=5, unique=True))
    for title in titles:
        assigned = draw(st.integers(0, 30))
        due = TODAY + dt.timedelta(days=draw(st.integers(0, 5)))
        if draw(st.booleans()):  # a recall goal before its due day
            out.append(
                CompletionPoint(title, TODAY, 0, assigned, 0, draw(st.integers(0, assigned)), due)
            )
            continue
        finished = 0
        for offset in range(draw(st.integers(1, 8))):
            finished = draw(st.integers(finished, assigned))
            day = TODAY + dt.timedelta(days=offset)
            out.append(
                CompletionPoint(
                    title,
                    day,
                    finished,
                    assigned,
                    draw(st.integers(0, finished)) if day > due else 0,
                    None,
                    due,
                )
            )
    return out


@st.composite
def state_recalls(draw: st.DrawFn) -> list[StateRecall]:
    names = draw(
        st.lists(
            st.sampled_from(["Colorado", "Utah", "Rhode Island", "Maine", "Texas", "Ohio"]),
            min_size=1,
            max_size=6,
            unique=True,
        )
    )
    out = []
    for name in names:
        facts = draw(st.integers(0, 24))
        out.append(StateRecall(name[:2].upper(), name, draw(SHARES) if facts else None, facts))
    return out


# --- Every chart, on random inputs ---------------------------------------------------------------------


@EXAMPLES
@given(facet_counts())
def test_facet_stages_sentence(counts: list[FacetCounts]) -> None:
    check("facet_stages", figures.facet_stages(counts))


@EXAMPLES
@given(st.lists(st.tuples(st.integers(-5, 40), st.integers(0, 30)), max_size=30))
def test_forecast_sentence(days: list[tuple[int, int]]) -> None:
    due = [DayCount(TODAY + dt.timedelta(days=offset), n) for offset, n in days]
    chart = figures.forecast(due, today=TODAY)
    if chart.figure.data:
        check_forecast(chart.summary, json.loads(chart_json(chart)), chart.table, TODAY)


@EXAMPLES
@given(st.lists(st.tuples(st.integers(-400, 0), st.integers(0, 50)), max_size=40))
def test_review_calendar_sentence(days: list[tuple[int, int]]) -> None:
    check(
        "review_calendar",
        figures.review_calendar(
            [DayCount(TODAY + dt.timedelta(days=o), n) for o, n in days], TODAY
        ),
    )


@EXAMPLES
@given(weeks())
def test_accuracy_sentence(given_weeks: list[WeekAccuracy]) -> None:
    check("accuracy", figures.accuracy(given_weeks))


@EXAMPLES
@given(weeks(), st.integers(70, 97))
def test_retention_sentence(given_weeks: list[WeekAccuracy], desired: int) -> None:
    check("retention", figures.retention(given_weeks, desired / 100))


@EXAMPLES
@given(
    st.lists(
        st.tuples(
            WORDS,
            st.sampled_from(["Easy", "Medium", "Hard"]),
            st.integers(0, 9),
            st.integers(0, 9),
            st.integers(0, 9),
        ),
        max_size=8,
    )
)
def test_game_records_sentence(rows: list[tuple[str, str, int, int, int]]) -> None:
    check("game_records", figures.game_records([GameRecord(*row) for row in rows]))


@EXAMPLES
@given(
    st.lists(
        st.tuples(WORDS, st.sampled_from(["Easy", "Hard"]), st.integers(10, 999)),
        min_size=1,
        max_size=6,
    )
)
def test_personal_bests_sentence(rows: list[tuple[str, str, int]]) -> None:
    chart = figures.personal_bests(
        [PersonalBest(mode, level, tenths / 10) for mode, level, tenths in rows]
    )
    check_personal_bests(chart.summary, chart.table)


@EXAMPLES
@given(cells(), st.integers(70, 97))
def test_class_heatmap_sentence(given_cells: list[CellRecall], target: int) -> None:
    check("class_heatmap", figures.class_heatmap(given_cells, target / 100, TODAY))


@EXAMPLES
@given(confusions(), st.integers(1, 12))
def test_confused_pairs_sentence(given: Confusions, limit: int) -> None:
    check("confused_pairs", figures.confused_pairs(given, limit))


@EXAMPLES
@given(
    st.integers(50, 99)
    .map(lambda n: n / 100)
    .flatmap(lambda target: st.tuples(st.just(target), risks(target)))
)
def test_at_risk_sentence(drawn: tuple[float, list[StudentRisk]]) -> None:
    target, students = drawn
    check("at_risk", figures.at_risk(students, target, TODAY))


@EXAMPLES
@given(completion_points())
def test_completion_sentence(points: list[CompletionPoint]) -> None:
    check("completion", figures.completion(points))


@EXAMPLES
@given(state_recalls(), st.integers(1, 40))
def test_mastery_map_sentences(states: list[StateRecall], students: int) -> None:
    mine: MasteryMap = figures.mastery_map(states)
    check_mastery_map(mine.summary, mine.table, you=True)
    # A class's: each state's facts are the students' (at most 8 each).
    theirs = [StateRecall(s.postal, s.name, s.recall, min(s.facts, 8 * students)) for s in states]
    klass = figures.mastery_map(theirs, who="The class", on=TODAY, students=students)
    check_mastery_map(klass.summary, klass.table, you=False)


# --- The sentences issue 18 found wrong ------------------------------------------------------------------


def test_the_completion_sentence_no_longer_says_every_student_finished_none():
    """Issue 18: 17 of 30 students had finished one of 3 assignments, and the sentence said "Every
    student has finished 0 of the 3 assignments"."""
    points = [
        CompletionPoint("Borders", TODAY, 17, 30, 0, None, TODAY),
        CompletionPoint("State IQ", TODAY, 0, 30, 0, None, TODAY),
        CompletionPoint("The West at 90%", TODAY, 0, 30, 0, 12, TODAY + dt.timedelta(days=9)),
    ]
    chart = figures.completion(points)
    check("completion", chart)
    assert "Every student has finished 0" not in chart.summary
    assert chart.summary.startswith(
        "Of the 3 assignments shown, 0 have been finished by every student they were set for;"
    )


def test_the_map_and_the_students_at_risk_say_their_denominators():
    """Issue 18: the map said 85-91% for every state and the next chart 27 of 30 students below the
    target, with no word on the different denominators. Now each says what it averages over."""
    states = [StateRecall("CO", "Colorado", 0.91, 6), StateRecall("UT", "Utah", 0.85, 4)]
    klass = figures.mastery_map(states, who="The class", on=TODAY, students=30)
    assert "Over the facts its students have started" in klass.summary
    assert (
        "the 30 students have started 10 of their 480 state facts (2%), and facts not started are left out here"
        in klass.summary
    )
    check_mastery_map(klass.summary, klass.table, you=False)
    risk = figures.at_risk([StudentRisk(i, f"s{i}", 0.02, 395, 400) for i in range(30)], 0.9, TODAY)
    assert (
        "over all 400 facts, facts not started counting as 0: 30 of 30 students are below the 90% target"
        in risk.summary
    )
    check("at_risk", risk)


def test_the_mix_ups_sentence_counts_every_wrong_answer_not_only_those_shown():
    """Issue 18: "14 wrong answers named another state" added up the 10 bars only."""
    pairs = tuple(ConfusedPair("VT", "Vermont", "NH", "New Hampshire", 1) for _ in range(1))
    chart = figures.confused_pairs(Confusions(pairs, 57))
    assert chart.summary.endswith("the 1 mix-up shown accounts for 1 of them.")
    assert chart.summary.startswith("Of the class's 57 wrong answers that named another state")
    check("confused_pairs", chart)


def test_every_chart_has_a_checker() -> None:
    """Every chart :mod:`trainer.figures` draws is checked here (the mastery map and the table-only
    personal bests by their own checkers), so a new chart cannot come without one."""
    not_charts = {"Chart", "Table", "chart_json", "recall_colour"}
    own_checkers = {"mastery_map", "personal_bests"}
    assert set(figures.__all__) - not_charts - own_checkers == set(CHECKERS)
