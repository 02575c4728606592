"""Each student's own FSRS-6 weights (ruling P-M10): fitted from their review log by
``flask --app app fit-memory`` and in the background, never inside a request.

:func:`fit_student` reads the student's answers, offers :func:`trainer.fit.fit` the pooled fit of
each of their classes as a candidate besides the student's own, and keeps what it finds only if
it predicts the student's newer answers better than the set in use. Adopting a set stores it and
reschedules every fact of the student under it, in one transaction; either way the attempt is
recorded, so the background runner knows when enough new answers call for another.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from zoneinfo import ZoneInfo

import click
from flask import Flask, Response, current_app, g
from flask.cli import with_appcontext
from sqlalchemy import func, select

from trainer import fit, srs
from trainer.facts import Form

from . import memory
from .extensions import db
from .kept import Kept
from .models import ClassMembership, MemoryWeights, ReviewLog, Role, User, memory_from, utcnow

#: A fit is tried again once the student has given this many answers since the last attempt (about
#: two days' study at 40 a day). Measured with bench/learning.py against 150 (ruling P-M10): the
#: half-life model's calibration bins all within 0.03, no significant change in facts known.
NEW_ANSWERS_FOR_A_FIT = 75
#: The configuration key that turns the background fits off (``GEOPLUNGE_FIT_IN_BACKGROUND``).
CONFIG_KEY = "FIT_IN_BACKGROUND"

_REASON_MAX = 200


# --- Reading the logs ------------------------------------------------------------------------


def _zone_of(student: User) -> str:
    return memory.settings_for(student).time_zone


def review_logs(student_ids: Iterable[int]) -> dict[int, list[fit.LoggedReview]]:
    """Each student's answers as the fit reads them (oldest first), in one query."""
    ids = sorted(set(student_ids))
    out: dict[int, list[fit.LoggedReview]] = {sid: [] for sid in ids}
    if not ids:
        return out
    rows = db.session.execute(
        select(
            ReviewLog.student_id,
            ReviewLog.fact_key,
            ReviewLog.reviewed_at,
            ReviewLog.rating,
            ReviewLog.form,
        )
        .where(ReviewLog.student_id.in_(ids))
        .order_by(ReviewLog.student_id, ReviewLog.reviewed_at, ReviewLog.id)
    )
    for sid, key, at, rating, form in rows:
        out[sid].append(fit.LoggedReview(key, at, int(rating), srs.is_strong(Form(form))))
    return out


@dataclass
class ClassLogs:
    """The logs of the classes met in one run (CLI ``--all``): each class's is read once."""

    by_class: dict[int, dict[int, tuple[list[fit.LoggedReview], str]]]

    @classmethod
    def empty(cls) -> ClassLogs:
        return cls({})

    def of(self, class_id: int) -> dict[int, tuple[list[fit.LoggedReview], str]]:
        if class_id not in self.by_class:
            members = list(
                db.session.execute(
                    select(User)
                    .join(ClassMembership, ClassMembership.student_id == User.id)
                    .where(ClassMembership.class_id == class_id)
                ).scalars()
            )
            logs = review_logs(m.id for m in members)
            self.by_class[class_id] = {m.id: (logs[m.id], _zone_of(m)) for m in members}
        return self.by_class[class_id]


def _class_priors(student: User, classes: ClassLogs) -> list[tuple[str, srs.Weights]]:
    """The pooled fit of each of the student's classes, over the *other* students' answers: the
    student's own are left out, so the answers that judge a prior were never learned from."""
    class_ids = db.session.execute(
        select(ClassMembership.class_id)
        .where(ClassMembership.student_id == student.id)
        .order_by(ClassMembership.class_id)
    ).scalars()
    priors = []
    for class_id in class_ids:
        others = [log for sid, log in classes.of(class_id).items() if sid != student.id]
        pooled = fit.fit_pooled(others)
        if pooled is not None:
            priors.append((f"class {class_id}", pooled))
    return priors


# --- Fitting one student ---------------------------------------------------------------------


def _row(student_id: int) -> MemoryWeights | None:
    return db.session.execute(
        select(MemoryWeights).where(MemoryWeights.student_id == student_id)
    ).scalar_one_or_none()


def _stored_weights(row: MemoryWeights | None) -> srs.Weights | None:
    if row is None or row.weights is None:
        return None
    try:
        return srs.check_weights(row.weights)
    except (TypeError, ValueError):
        return None


def _source(candidate: str) -> str:
    return "own" if candidate == "own" else "class"


def _note_attempt(row: MemoryWeights, started: dt.datetime, answers: int, reason: str) -> None:
    row.attempted_at = started
    row.attempt_answers = answers
    row.attempt_result = reason[:_REASON_MAX]


def _record_attempt(student_id: int, started: dt.datetime, answers: int, reason: str) -> None:
    """Record an attempt that changed nothing (its own small transaction)."""

    def work() -> None:
        row = _row(student_id)
        if row is None:
            row = MemoryWeights(student_id=student_id)
            db.session.add(row)
        _note_attempt(row, started, answers, reason)

    memory.atomically(work)


def _adopt(
    student: User,
    result: fit.FitResult,
    replaced_standard: bool,
    started: dt.datetime,
    answers: int,
) -> int:
    """Store the adopted weights and reschedule every fact of the student under them: one unit of
    work (all or nothing; it starts again from a fresh read if an answer overtakes it). Returns
    how many facts were rescheduled."""
    weights = result.weights
    source = _source(result.candidate or "own")
    settings = memory.settings_for(student)

    def work() -> int:
        row = _row(student.id)
        if row is None:
            row = MemoryWeights(student_id=student.id)
            db.session.add(row)
        row.weights = list(weights)
        row.source = source
        row.replaced_standard = replaced_standard
        row.fitted_at = started
        row.answers = answers
        row.train_targets = result.train_targets
        row.test_targets = result.test_targets
        row.before_log_loss = result.current.log_loss if result.current else None
        row.before_rmse_bins = result.current.rmse_bins if result.current else None
        row.after_log_loss = result.best.log_loss if result.best else None
        row.after_rmse_bins = result.best.rmse_bins if result.best else None
        _note_attempt(row, started, answers, result.reason)
        db.session.flush()
        # Read inside the unit, so a retry replays what is there now.
        cards = memory.student_cards(student)
        new = fit.rescheduled(
            {card.fact_key: memory_from(card) for card in cards},
            review_logs([student.id])[student.id],
            weights,
            desired_retention=settings.desired_retention,
            time_zone=settings.time_zone,
        )
        changes = [
            (card.id, card.reps, new[card.fact_key]) for card in cards if card.fact_key in new
        ]
        memory.write_rescheduled(changes)
        return len(changes)

    done = memory.atomically(work)
    memory.forget_cached_weights()
    return done


def fit_student(student_id: int, *, classes: ClassLogs | None = None) -> fit.FitResult:
    """Fit one student's weights and adopt them if they earn it (P-M10).

    Args:
        student_id: the student.
        classes: the class logs already read in this run (so a class is read once per run).

    Returns:
        What the fit found; when it was adopted, the weights are stored and every fact of the
        student is rescheduled, in one transaction.

    Raises:
        LookupError: there is no such student.
    """
    student = db.session.get(User, student_id)
    if student is None or student.role is not Role.STUDENT:
        raise LookupError(f"no student with id {student_id}")
    started = utcnow()
    zone = _zone_of(student)
    reviews = review_logs([student.id])[student.id]
    row = _row(student.id)
    current = _stored_weights(row)
    priors = _class_priors(student, classes or ClassLogs.empty())
    try:
        result = fit.fit(reviews, zone, current, priors=priors)
    except Exception as error:  # the optimiser refused this log: keep the current set, say why
        _record_attempt(student.id, started, len(reviews), f"the fit failed: {error}")
        raise
    db.session.rollback()  # end the reading transaction before the writing one
    if not result.adopted:
        _record_attempt(student.id, started, len(reviews), result.reason)
        return result
    try:
        _adopt(student, result, current is None, started, len(reviews))
    except Exception as error:
        _record_attempt(
            student.id, started, len(reviews), f"the new weights could not be saved: {error}"
        )
        raise
    return result


# --- What people see -------------------------------------------------------------------------


def _date_text(when: dt.datetime, zone: str, now: dt.datetime) -> str:
    local = when.astimezone(ZoneInfo(zone))
    text = f"{local.day} {local:%B}"
    return text if local.year == now.astimezone(local.tzinfo).year else f"{text} {local.year}"


def model_sentence(
    student: User, *, for_teacher: bool = False, now: dt.datetime | None = None
) -> str:
    """The memory model in use for ``student``, in one true sentence from the stored row: to the
    student ("Your memory model ..."), or to their teacher (``for_teacher``)."""
    row = _row(student.id)
    weights = _stored_weights(row)
    name = student.username
    if row is None or weights is None or row.fitted_at is None:
        if for_teacher:
            return f"Using the standard memory model for {name} until it has enough of their answers to do better."
        return "Using the standard memory model until it has enough of your answers to do better."
    zone = _zone_of(student)
    when = _date_text(row.fitted_at, zone, now or utcnow())
    answers = row.answers or 0
    tested = row.test_targets or 0
    answers_text = f"{answers} answer{'' if answers == 1 else 's'}"
    than = (
        "the standard one"
        if row.replaced_standard
        else ("the one used before" if for_teacher else "the one you had before")
    )
    if for_teacher:
        whose = f"{name}'s memory model"
        what = "is fitted to them" if row.source == "own" else "comes from their class's answers"
        return (
            f"{whose} {what}: it predicted {tested} of their latest answers better than {than} "
            f"(fitted {when} from {answers_text})."
        )
    what = "is fitted to you" if row.source == "own" else "comes from your class's answers"
    return f"Your memory model {what}: it predicted {tested} of your latest answers better than {than} (fitted {when} from {answers_text})."


# --- In the background -----------------------------------------------------------------------

_LOCK = threading.Lock()
_EXECUTOR: ThreadPoolExecutor | None = None
#: The students queued or being fitted, with their fit's future (a student is never queued twice).
_QUEUED: dict[int, Future[None]] = {}


def _executor() -> ThreadPoolExecutor:
    global _EXECUTOR
    if _EXECUTOR is None:
        # One worker: fits queue up rather than take both CPUs of a small school server.
        _EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fit-memory")
    return _EXECUTOR


def wants_a_fit(student_id: int) -> bool:
    """True when the student has given at least :data:`NEW_ANSWERS_FOR_A_FIT` answers since their
    last fit attempt (or in all, before any). Counts at most that many rows, on the
    (student, reviewed_at) index."""
    attempted_at = db.session.execute(
        select(MemoryWeights.attempted_at).where(MemoryWeights.student_id == student_id)
    ).scalar_one_or_none()
    newer = select(ReviewLog.id).where(ReviewLog.student_id == student_id)
    if attempted_at is not None:
        newer = newer.where(ReviewLog.reviewed_at > attempted_at)
    counted = db.session.execute(
        select(func.count()).select_from(newer.limit(NEW_ANSWERS_FOR_A_FIT).subquery())
    ).scalar_one()
    return counted >= NEW_ANSWERS_FOR_A_FIT


def submit(app: Flask, student_id: int) -> Future[None] | None:
    """Queue a fit of the student in the background (None: one is already queued or running)."""
    with _LOCK:
        if student_id in _QUEUED:
            return None
        future = _executor().submit(_run, app, student_id)
        _QUEUED[student_id] = future
        return future


def _run(app: Flask, student_id: int) -> None:
    try:
        with app.app_context():
            try:
                fit_student(student_id)
            except LookupError:
                pass  # the account was deleted meanwhile
            except Exception:
                app.logger.exception("fitting the memory model of student %s failed", student_id)
            finally:
                db.session.remove()
    finally:
        with _LOCK:
            _QUEUED.pop(student_id, None)


def pending() -> list[Future[None]]:
    """The fits queued or running now (tests wait for them)."""
    with _LOCK:
        return list(_QUEUED.values())


#: How many of a student's answers this process lets pass between two checks for a fit: the
#: check is two queries and a transaction of its own, which cost a quarter of an answer's time
#: when run after every one (issue 25), while a fit is due only every NEW_ANSWERS_FOR_A_FIT.
CHECK_EVERY = 10
#: Where the app keeps each student's answers since this process last checked (a Kept of the
#: students answering now).
_SINCE_CHECK = "geoplunge_fit_checks"


def _time_to_check(student_id: int) -> bool:
    """True on a student's first answer in this process, then on every CHECK_EVERY-th."""
    counts: Kept[int, int] = current_app.extensions.setdefault(_SINCE_CHECK, Kept(4096))
    since = counts.get(student_id)
    if since is None or since + 1 >= CHECK_EVERY:
        counts.put(student_id, 0)
        return True
    counts.put(student_id, since + 1)
    return False


def _after_request(response: Response) -> Response:
    """After a request that recorded answers, queue a fit of the student if enough are new
    (looked at on every CHECK_EVERY-th answer: a fit comes at most that many answers late)."""
    student_id = g.pop(memory.RECORDED_FOR, None)
    if (
        student_id is None
        or not current_app.config.get(CONFIG_KEY, True)
        or response.status_code >= 400
        or not _time_to_check(student_id)
    ):
        return response
    try:
        if wants_a_fit(student_id):
            submit(current_app._get_current_object(), student_id)  # type: ignore[attr-defined]
    except Exception:
        # Deciding on a fit must never cost the student the answer they just gave.
        current_app.logger.exception("could not check whether student %s is due a fit", student_id)
    return response


# --- The command line -------------------------------------------------------------------------


def _scores(result: fit.FitResult) -> str:
    if result.current is None or result.best is None:
        return ""
    now, best = result.current, result.best
    if result.adopted:
        scores = f"log loss {now.log_loss:.4f} -> {best.log_loss:.4f}, RMSE(bins) {now.rmse_bins:.4f} -> {best.rmse_bins:.4f}"
    else:
        scores = (
            f"log loss {now.log_loss:.4f} (best candidate {best.log_loss:.4f}), "
            f"RMSE(bins) {now.rmse_bins:.4f} (best candidate {best.rmse_bins:.4f})"
        )
    return f"; held-out {scores} ({result.train_targets} answers to learn from, {result.test_targets} held out)"


def result_line(username: str, result: fit.FitResult) -> str:
    """One line of ``fit-memory``'s report: adopted or not, why, and the held-out scores (adopted:
    the set in use before -> the one adopted; else the set in use and the best candidate)."""
    verdict = "adopted" if result.adopted else "kept the current weights"
    return f"{username}: {verdict}: {result.reason}{_scores(result)}"


@click.command("fit-memory")
@click.option("--student", "username", help="Fit this student's memory model (their username).")
@click.option(
    "--all", "everyone", is_flag=True, help="Fit every student who has answered something."
)
@with_appcontext
def fit_memory_command(username: str | None, everyone: bool) -> None:
    """Fit students' own memory models (FSRS weights) and adopt them where they predict better."""
    if bool(username) == everyone:
        raise click.UsageError("Give either --student USERNAME or --all.")
    if username:
        student = db.session.execute(
            select(User).where(User.username_key == User.key_for(username))
        ).scalar_one_or_none()
        if student is None or student.role is not Role.STUDENT:
            raise click.ClickException(f"No student called {username!r}.")
        ids = [(student.id, student.username)]
    else:
        ids = list(
            db.session.execute(
                select(User.id, User.username)
                .where(
                    User.role == Role.STUDENT,
                    select(ReviewLog.id).where(ReviewLog.student_id == User.id).exists(),
                )
                .order_by(User.username_key)
            ).all()
        )
    classes = ClassLogs.empty()
    failed = 0
    for student_id, name in ids:
        try:
            result = fit_student(student_id, classes=classes)
        except Exception as error:
            failed += 1
            click.echo(f"{name}: failed: {error}")
            continue
        click.echo(result_line(name, result))
    if not ids:
        click.echo("No student has answered anything yet.")
    if failed:
        raise SystemExit(1)


def init_app(app: Flask) -> None:
    """Register the command and the background runner."""
    app.cli.add_command(fit_memory_command)
    # The study settings page says which model is in use for the signed-in student.
    app.jinja_env.globals["memory_model_sentence"] = model_sentence
    app.before_request(memory.forget_cached_weights)
    app.after_request(_after_request)
