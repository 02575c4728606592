"""Study views: the study home, review rounds one fact at a time, and study settings."""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from flask import (
    Blueprint,
    abort,
    after_this_request,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_login import current_user
from sqlalchemy import bindparam, select
from sqlalchemy.engine import Row
from werkzeug.wrappers import Response

from trainer import daily, points, srs
from trainer.assignments import Scope
from trainer.cards import Deck, StateCard
from trainer.facts import (
    Facet,
    Fact,
    Form,
    Judgement,
    Question,
    UnreadableAnswer,
    Verdict,
    dont_know,
    judge,
)
from trainer.facts.answers import read_state
from trainer.modes import Mode
from trainer.review import ROUND_SIZE, Item, bounded_duration, deal, pick_map, question

from .. import get_deck
from ..extensions import db
from ..guards import Refused, Stale, nothing_changed
from ..memory import (
    Recorded,
    RecordError,
    StudySummary,
    all_memories,
    memories_of,
    memory_of,
    queue,
    record,
    settings_for,
    summary,
    to_recheck,
    weights_for,
)
from ..models import ReviewLog, StudyRound, User, utcnow
from ..modes import Access, Dealt, NavLink, Rounds, WebMode, register, scope_filters
from ..progress import finished_study_rounds, my_assignments
from ..security import student_required, wants_json
from .forms import (
    AnswerForm,
    GivenAnswer,
    SettingsForm,
    StartForm,
    served_ms_ago,
    served_stamp,
)

bp = Blueprint("study", __name__, url_prefix="/study")

MODE = "review"
ALREADY_SAVED = "That answer was already saved; nothing changed."
OUT_OF_ORDER = "Answer the facts in order: here is the next one. Nothing was saved."
CLICK_A_STATE = "Click a state on the map."
#: The study home counts the facts under this predicted recall today when it offers practice (P-M8).
AT_RISK = 0.9


def _student() -> User:
    return current_user._get_current_object()


@bp.get("/")
@student_required
def home() -> str:
    """Today's amount and how far it is done; what is due, what is worth doing now and what comes
    back when; and a start button (P-D3)."""
    student = _student()
    return _render_home(student, StartForm())


def _render_home(student: User, form: StartForm) -> str:
    now = utcnow()
    stats = summary(student, now)
    settings = settings_for(student)
    practice = _practice_offer(student, stats, now, settings.time_zone)
    if practice is not None and not form.is_submitted():
        form.practice.data = "1" if practice.can_start else ""
    # Assignments come first: the unfinished ones, and those finished in the last week.
    week_ago = utcnow() - dt.timedelta(days=7)
    assignments = my_assignments(student)
    shown = [
        m for m in assignments if not m.progress.status.finished or m.assignment.due_at >= week_ago
    ]
    return render_template(
        "study/home.html",
        # A student who has met no fact yet and may learn some today: a welcome, one button.
        first_run=not stats.introduced and stats.new_today > 0,
        points_recalled=points.RECALLED,
        points_picked=points.PICKED,
        geometry=get_deck().geometry,
        assignments=shown,
        finished_hidden=len(assignments) - len(shown),
        stats=stats,
        form=form,
        facets=list(Facet),
        next_due_text=next_review_text(stats.next_due, now, settings.time_zone)
        if stats.next_due
        else None,
        next_due_today=stats.next_due is not None and stats.next_due < stats.day.end,
        practice=practice,
        at_risk_percent=round(AT_RISK * 100),
        leeches=[Fact.from_key(key) for key in stats.leeches],
        srs_leech_lapses=srs.LEECH_LAPSES,
        settings=settings,
        progress=stats.progress,
        minutes=stats.progress.amount.unit is daily.Unit.MINUTES,
    )


@dataclass(frozen=True)
class PracticeOffer:
    """What the study home says when nothing is due and no new fact is left today (P-M8)."""

    #: Introduced facts under :data:`AT_RISK` predicted recall today.
    at_risk: int
    #: A "Keep practising" round would deal something (a fact not answered today, or a step).
    can_start: bool


def _practice_offer(
    student: User, stats: StudySummary, now: dt.datetime, time_zone: str
) -> PracticeOffer | None:
    """What the study home offers once the ordinary queue is empty (nothing due, no new fact left
    today) for a student who has met some facts; None otherwise."""
    if stats.due_now or stats.new_today or not stats.introduced:
        return None
    memories = all_memories(student)
    weights = weights_for(student)
    at_risk = sum(
        1
        for memory in memories.values()
        if srs.retrievability(memory, now, time_zone, weights) < AT_RISK
    )
    can_start = bool(queue(student, get_deck(), size=1, now=now, practice=True))
    return PracticeOffer(at_risk=at_risk, can_start=can_start)


@bp.post("/rounds")
@student_required
def start() -> str | Response | tuple[str, int]:
    """Deal a round from the queue (due facts first, then new ones) within the chosen focus; when
    the student keeps practising, the rest of the round from the facts most at risk (P-M8)."""
    student = _student()
    form = StartForm()
    if not form.validate():
        return _render_home(student, form), 400
    deck = get_deck()
    facets = {Facet(value) for value in form.facets.data or []} or None
    practice = form.practising()
    round_ = new_study_round(
        student, facets, form.states(deck), form.area.data or "", practice=practice
    )
    if round_ is None:
        if practice:
            flash(
                "Nothing to practise in that choice right now. Try another choice, or come back tomorrow.",
                "info",
            )
        else:
            flash(
                "Nothing to study in that choice right now. Well done! Try another choice, or come back later.",
                "info",
            )
        return redirect(url_for("study.home"))
    db.session.commit()
    return redirect(url_for("study.item", token=round_.token, index=1))


def new_study_round(
    student: User,
    facets: set[Facet] | None,
    postals: set[str] | None,
    area: str,
    *,
    extra: list[str] | None = None,
    practice: bool = False,
) -> StudyRound | None:
    """Deal a round from the queue within the focus (added to the session, not committed).

    When nothing is due or new there, the ``extra`` facts (already answered ones, weakest first)
    are practised early instead; None when there is nothing at all. ``practice`` fills the round
    from the facts most at risk (P-M8), and the round remembers it, so "Study more" keeps practising.
    """
    deck = get_deck()
    now = utcnow()
    keys = queue(
        student, deck, size=ROUND_SIZE, now=now, facets=facets, postals=postals, practice=practice
    )
    if not keys and extra:
        keys = extra[:ROUND_SIZE]
    if not keys:
        return None
    memories = memories_of(student, keys)
    seed = secrets.randbits(62)
    items = deal(
        keys,
        memories,
        deck,
        seed,
        multiple_choice=settings_for(student).multiple_choice,
        recheck=to_recheck(student, keys),
    )
    round_ = StudyRound(
        token=secrets.token_urlsafe(18),
        student_id=student.id,
        seed=seed,
        items=[[item.fact.key, item.form.value] for item in items],
        focus={
            "facets": sorted(f.value for f in facets) if facets else [],
            "area": area,
            **({"practice": True} if practice else {}),
        },
        created_at=now,
    )
    db.session.add(round_)
    return round_


_ROUND = StudyRound.__table__
# A plain row, not an ORM object: every answer reads its round, and rounds never change.
_SELECT_ROUND = select(_ROUND).where(_ROUND.c.token == bindparam("token"))


def _round_or_404(token: str) -> Row[Any]:
    """The student's own round; another student's round is as unknown as a made-up token."""
    round_ = db.session.connection().execute(_SELECT_ROUND, {"token": token}).first()
    if round_ is None or round_.student_id != current_user.id:
        abort(404)
    return round_


def _items(round_: Row[Any]) -> list[Item]:
    return [Item(Fact.from_key(key), Form(form)) for key, form in round_.items]


# Built once, as _SELECT_ROUND: every page of a round reads its answers.
_SELECT_ANSWERS = select(ReviewLog).where(ReviewLog.round_token == bindparam("round_token"))


def _answers(round_: Row[Any]) -> dict[int, ReviewLog]:
    rows = db.session.execute(_SELECT_ANSWERS, {"round_token": _token(round_)}).scalars()
    return {int(row.item): row for row in rows}


def _first_unanswered(round_: Row[Any], answers: dict[int, ReviewLog]) -> int | None:
    """The first item of the round not answered yet, or None when every one is."""
    return next((i for i in range(1, len(round_.items) + 1) if i not in answers), None)


def _answered(round_: Row[Any], index: int) -> bool:
    found = db.session.execute(
        select(ReviewLog.id).where(
            ReviewLog.round_token == _token(round_), ReviewLog.item == str(index)
        )
    ).first()
    return found is not None


def _token(round_: Row[Any]) -> str:
    return f"{MODE}:{round_.token}"


@bp.get("/rounds/<token>")
@student_required
def resume(token: str) -> Response:
    """Go on where the round was left: the first unanswered fact, or the summary."""
    round_ = _round_or_404(token)
    index = _first_unanswered(round_, _answers(round_))
    if index is not None:
        return redirect(url_for("study.item", token=token, index=index))
    return redirect(url_for("study.done", token=token))


@bp.route("/rounds/<token>/<int:index>", methods=["GET", "POST"])
@student_required
def item(token: str, index: int) -> str | Response | tuple[str | Response, int]:
    """One fact: its question, or once answered, the card and what happens next.

    Facts are asked in order, by GET and by POST alike: an item after the first unanswered one
    is neither shown nor answered (its card could name the state of an earlier Map card).

    A request that accepts JSON (instant answers, study_instant.js) gets the same checks and
    the same words as JSON: the question or the feedback as an HTML fragment, and where to go.
    """
    after_this_request(_varies_with_accept)
    student = _student()
    round_ = _round_or_404(token)
    items = _items(round_)
    if not 1 <= index <= len(items):
        abort(404)
    answers = _answers(round_)
    waiting = _first_unanswered(round_, answers)
    if index not in answers and waiting is not None and waiting < index:
        if wants_json():
            first = url_for("study.item", token=token, index=waiting)
            return _json_elsewhere(OUT_OF_ORDER if request.method == "POST" else None, first)
        if request.method == "POST":
            flash(OUT_OF_ORDER, "info")
        return redirect(url_for("study.resume", token=token))
    deck = get_deck()
    asked = question(items[index - 1], deck, round_.seed, index)
    form = AnswerForm()
    if request.method == "POST":
        if wants_json():
            return _answer_json(student, round_, index, asked, form)
        return _answer(student, round_, index, asked, form)
    if index not in answers:
        if wants_json():
            return _json_page(
                "question", round_, index, _render_question(round_, index, asked, form, True)
            )
        return _render_question(round_, index, asked, form)
    review = answers[index]
    if wants_json():
        html = _render_feedback(round_, index, asked, review, True)
        return _json_page("feedback", round_, index, html, review.verdict)
    return _render_feedback(round_, index, asked, review)


def _varies_with_accept(response: Response) -> Response:
    """One URL, a page or its JSON: caches (and the browser's Back) must keep them apart."""
    response.vary.add("Accept")
    if response.mimetype == "application/json":
        response.headers["Cache-Control"] = "no-store"
    return response


def _answer(
    student: User, round_: Row[Any], index: int, asked: Question, form: AnswerForm
) -> Response | tuple[str, int]:
    """Judge and record one answer, then show its result (POST, redirect, GET)."""
    here = url_for("study.item", token=round_.token, index=index)
    if not form.validate():
        if _answered(round_, index):  # a repeat of an answered item (another tab, a back button)
            return nothing_changed(ALREADY_SAVED, here)
        return _render_question(round_, index, asked, form), 400
    try:
        answer_study_item(student, round_, index, asked, form.given(round_.token, index), utcnow())
    except Stale as stale:
        return nothing_changed(str(stale), here, stale.category)
    except Refused as refused:
        form.answer.errors = [str(refused)]
        return _render_question(round_, index, asked, form), 400
    except RecordError:
        abort(404)
    return redirect(here)


def _answer_json(
    student: User, round_: Row[Any], index: int, asked: Question, form: AnswerForm
) -> Response | tuple[Response, int]:
    """:func:`_answer` for instant answers: the same checks, the same one review and the same
    words, answered with JSON (the feedback fragment) instead of a redirect.

    A refusal is a 400 with the question again (its error shown); a form sent twice is a 409
    naming the item's page as it is now (its feedback), where the page form is redirected.
    """
    here = url_for("study.item", token=round_.token, index=index)
    if not form.validate():
        if _answered(round_, index):  # a repeat of an answered item (another tab, a back button)
            db.session.rollback()
            return _json_elsewhere(ALREADY_SAVED, here)
        problem = " ".join(error for errors in form.errors.values() for error in errors)
        return _json_refused(problem, round_, index, asked, form)
    try:
        answer_study_item(student, round_, index, asked, form.given(round_.token, index), utcnow())
    except Stale as stale:
        db.session.rollback()
        return _json_elsewhere(str(stale), here, stale.category)
    except Refused as refused:
        form.answer.errors = [str(refused)]
        return _json_refused(str(refused), round_, index, asked, form)
    except RecordError:
        abort(404)
    review = _answers(round_)[index]
    html = _render_feedback(round_, index, asked, review, True)
    return _json_page("feedback", round_, index, html, review.verdict)


#: The titles of the study pages, as their templates write them (the browser's tab shows them).
_VERDICT_TITLES = {"right": "Right!", "close": "Close!", "wrong": "Not this time"}


def _json_page(
    kind: str, round_: Row[Any], index: int, html: str, verdict: str | None = None
) -> Response:
    """An item's page as a fragment: ``kind`` is "question" or "feedback" (with the review's
    ``verdict``); ``next`` is where the feedback's button goes (the next fact, or the summary)."""
    total = len(round_.items)
    title = f"Fact {index} of {total}"
    body: dict[str, Any] = {
        "kind": kind,
        "html": html,
        "url": url_for("study.item", token=round_.token, index=index),
        "index": index,
        "total": total,
    }
    if verdict is not None:
        title = f"{_VERDICT_TITLES[verdict]} {title}"
        body["next"] = (
            url_for("study.item", token=round_.token, index=index + 1)
            if index < total
            else url_for("study.done", token=round_.token)
        )
    body["title"] = f"{title} · GeoPlunge Trainer"
    return jsonify(body)


def _json_refused(
    message: str, round_: Row[Any], index: int, asked: Question, form: AnswerForm
) -> tuple[Response, int]:
    """A 400 for an answer that cannot be taken: the message and the question with its error."""
    db.session.rollback()
    html = _render_question(round_, index, asked, form, True)
    return jsonify(error="refused", message=message, kind="question", html=html), 400


def _json_elsewhere(message: str | None, to: str, category: str = "info") -> tuple[Response, int]:
    """A 409: nothing was taken (a form sent twice, an item out of order); ``to`` is the page to
    show instead, and ``message`` what the page form would have flashed."""
    return jsonify(error="stale", message=message, category=category, url=to), 409


def answer_study_item(
    student: User,
    round_: Row[Any],
    index: int,
    asked: Question,
    given: GivenAnswer,
    now: dt.datetime,
) -> Recorded:
    """Judge the answer to item ``index`` of the student's round and record it as one review.

    ``asked`` is the item's question; the caller has checked that the item is the round's and
    that the items before it are answered (P-H3).

    Raises:
        Stale: the item was answered already (a form sent twice, another tab): nothing changed.
        Refused: the answer cannot be read (nothing typed, an option not offered, a spot not on
            this map); nothing changed, and the message says what to do.
        RecordError: the round's token was recorded for another student.
    """
    deck = get_deck()
    try:
        judgement = (
            dont_know(asked.fact, deck)
            if given.text is None
            else _judge(round_, index, asked, given.text)
        )
    except UnreadableAnswer as problem:
        if _answered(round_, index):  # a repeat of an answered item (another tab, a back button)
            raise Stale(ALREADY_SAVED) from None
        raise Refused(str(problem)) from None
    outcome = srs.Outcome(
        fact_key=asked.fact.key,
        verdict=judgement.verdict,
        mode=MODE,
        form=asked.form,
        round_token=_token(round_),
        item=str(index),
        answer=judgement.given,
        duration_ms=bounded_duration(given.page_ms, given.served_ms),
        answered_postal=judgement.answered[0] if len(judgement.answered) == 1 else None,
    )
    recorded = record(student, outcome, now)
    if not recorded.created:
        raise Stale(ALREADY_SAVED)
    return recorded


def _judge(round_: Row[Any], index: int, asked: Question, answer: str) -> Judgement:
    """Judge an answer; a map click posts a spot of the question's own map, never a state.

    Raises:
        UnreadableAnswer: as :func:`trainer.facts.judge`, and for a spot not on this map.
    """
    deck = get_deck()
    if asked.form is Form.MAP_CLICK:
        postal = pick_map(deck, round_.seed, index).postal_of(answer)
        if postal is None:
            raise UnreadableAnswer(CLICK_A_STATE)
        answer = postal
    return judge(asked, answer, deck)


def _render_question(
    round_: Row[Any], index: int, asked: Question, form: AnswerForm, fragment: bool = False
) -> str:
    deck = get_deck()
    # A page shown again (an answer to fix) keeps the time it was first served.
    posted = form.served.data
    served = (
        posted
        if served_ms_ago(posted, round_.token, index) is not None
        else served_stamp(round_.token, index)
    )
    return render_template(
        "study/_question_body.html" if fragment else "study/question.html",
        round=round_,
        index=index,
        total=len(round_.items),
        q=asked,
        form=form,
        served=served,
        map_card=deck.map_card(asked.map_state) if asked.map_state else None,
        geometry=deck.geometry,
        state_names=sorted(s.name for s in deck),
        # The question's own drawing of the map (P-H2): the map to click, or the Map card's.
        drawing=pick_map(deck, round_.seed, index) if asked.uses_map else None,
    )


def _render_feedback(
    round_: Row[Any], index: int, asked: Question, review: ReviewLog, fragment: bool = False
) -> str:
    deck = get_deck()
    student = _student()
    # Judging is deterministic: the stored answer gives back the note ("Nearly! It is spelled...").
    judgement = _rejudge(asked, review)
    memory = memory_of(student, asked.fact.key)
    settings = settings_for(student)
    return render_template(
        "study/_feedback_body.html" if fragment else "study/feedback.html",
        round=round_,
        index=index,
        total=len(round_.items),
        q=asked,
        review=review,
        judgement=judgement,
        state=deck[asked.fact.postal],
        yours=_wrong_state(asked, review, deck),
        next_text=next_review_text(review.due_after, utcnow(), settings.time_zone),
        is_leech=memory is not None and memory.is_leech,
    )


def _wrong_state(asked: Question, review: ReviewLog, deck: Deck) -> StateCard | None:
    """The state a wrong answer to a map question found or named, to show beside the right one
    (the feedback's map: where the student looked, and where the state is); None otherwise."""
    if not asked.uses_map or review.verdict != Verdict.WRONG.value or not review.answer:
        return None
    postal = review.answered_postal if asked.form is Form.MAP_CLICK else None
    postal = postal or read_state(review.answer, deck)
    return deck[postal] if postal and postal != asked.fact.postal else None


def _rejudge(asked: Question, review: ReviewLog) -> Judgement:
    deck = get_deck()
    if not review.answer:
        return dont_know(asked.fact, deck)
    answer = review.answer
    if asked.form is Form.MAP_CLICK and review.answered_postal:
        answer = review.answered_postal
    try:
        return judge(asked, answer, deck)
    except UnreadableAnswer:
        return dont_know(asked.fact, deck)


@bp.get("/rounds/<token>/done")
@student_required
def done(token: str) -> str | Response:
    """The round's results, and a button for the next round."""
    round_ = _round_or_404(token)
    answers = _answers(round_)
    if len(answers) < len(round_.items):
        return redirect(url_for("study.resume", token=token))
    deck = get_deck()
    rows = []
    for index, item_ in enumerate(_items(round_), start=1):
        review = answers[index]
        earned = points.points_for(review.verdict, review.form)
        rows.append((item_.fact, deck[item_.fact.postal], review, earned))
    counts = {
        verdict: sum(1 for _, _, r, _ in rows if r.verdict == verdict)
        for verdict in ("right", "close", "wrong")
    }
    tally = points.tally((r.verdict, r.form) for _, _, r, _ in rows)
    # The states with a fact answered right (or nearly) this round, in the round's order.
    learned = list({state.postal: state for _, state, _, earned in rows if earned}.values())
    student = _student()
    now = utcnow()
    stats = summary(student, now)
    time_zone = settings_for(student).time_zone
    focus = round_.focus
    form = StartForm(
        formdata=None,
        facets=focus.get("facets") or [],
        area=focus.get("area") or "",
        practice="1" if focus.get("practice") else "",
    )
    return render_template(
        "study/done.html",
        round=round_,
        rows=rows,
        counts=counts,
        form=form,
        tally=tally,
        learned=learned,
        learned_postals={state.postal for state in learned},
        geometry=deck.geometry,
        stats=stats,
        next_due_text=next_review_text(stats.next_due, now, time_zone) if stats.next_due else None,
    )


@bp.route("/settings", methods=["GET", "POST"])
@student_required
def settings() -> str | Response | tuple[str, int]:
    """Desired retention, new facts per day, time zone, multiple choice and the daily amount."""
    student = _student()
    form = SettingsForm(
        obj=None,
        data=None
        if request.method == "POST"
        else {
            "desired_retention": Decimal(round(student.desired_retention * 100)),
            "new_per_day": student.new_per_day,
            "time_zone": student.time_zone or "",
            "multiple_choice": student.multiple_choice,
            "daily_amount": student.daily_amount,
            "daily_unit": student.daily_unit,
        },
    )
    if form.validate_on_submit():
        student.desired_retention = float(form.desired_retention.data) / 100
        student.new_per_day = form.new_per_day.data
        student.time_zone = form.time_zone.data or None
        student.multiple_choice = form.multiple_choice.data
        amount = form.daily_amount.data
        assert amount is not None  # InputRequired
        student.daily_amount = amount
        student.daily_unit = form.daily_unit.data
        db.session.commit()
        flash("Settings saved.", "success")
        return redirect(url_for("study.settings"))
    current = settings_for(student)
    return render_template("study/settings.html", form=form, current=current), (
        400 if form.is_submitted() else 200
    )


def next_review_text(due: dt.datetime, now: dt.datetime, time_zone: str) -> str:
    """When a fact comes back, in a student's words: "in a few minutes", "tomorrow", "in 3 days";
    a time already past (a page seen again later) is "the next time you study"."""
    if due <= now:
        return "the next time you study"
    if due <= now + srs.LEARN_AHEAD:
        return "in a few minutes"
    today = srs.study_day(now, time_zone)
    if due < today.end:
        return "later today"
    days = (srs.study_day(due, time_zone).date - today.date).days
    if days == 1:
        return "tomorrow"
    if days < 45:
        return f"in {days} days"
    if days < 365:
        return f"in {round(days / 30)} months"
    years = round(days / 365, 1)
    return f"in {years:g} year" + ("" if years == 1 else "s")


# --- The mode --------------------------------------------------------------------------------


def _deal_for_assignment(student: User, mode: Mode, scope: Scope, level: str) -> Dealt | None:
    """A round dealt from an assignment's scope (the assignment page's Start); when nothing there
    is due or new, the scope's facts already answered, weakest first. None: nothing at all."""
    facets, postals = scope_filters(scope, mode)
    keys = [fact.key for fact in scope.facts(get_deck(), [mode])]
    round_ = new_study_round(
        student, facets, postals, scope.area, extra=_weakest_answered(student, keys)
    )
    if round_ is None:
        return None
    return Dealt(f"review:{round_.token}", url_for("study.item", token=round_.token, index=1))


def _weakest_answered(student: User, keys: list[str]) -> list[str]:
    """The facts of ``keys`` the student has answered, least likely remembered first (extra practice)."""
    now = utcnow()
    zone = settings_for(student).time_zone
    memories = memories_of(student, keys)
    weights = weights_for(student)
    return sorted(
        memories, key=lambda key: (srs.retrievability(memories[key], now, zone, weights), key)
    )


register(
    WebMode(
        "review",
        NavLink("Study", "study.home", 10, blueprint="study"),
        log_name="Study (flashcards)",
        rounds=Rounds(StudyRound, None, "review", "study_rounds"),
        deal=_deal_for_assignment,
        finished=finished_study_rounds,
        access=(
            ("study.home", Access.STUDENTS),
            ("study.settings", Access.STUDENTS),
            ("study.start", Access.STUDENTS),
            ("study.resume", Access.STUDENT_OWN_SENT_ON),  # on to the first unanswered fact
            ("study.item", Access.STUDENT_OWN),
            ("study.done", Access.STUDENT_OWN_SENT_ON),  # unfinished: back to where it was left
        ),
    )
)
