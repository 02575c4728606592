"""Each student's own memory model in the web app (ruling P-M10): stored, used everywhere the app
schedules or predicts for them, fitted by ``flask --app app fit-memory`` and in the background,
and told in plain words to the student and their teacher.

Review histories are simulated (``tests.fit.simulated``) and written as the app writes them:
"fast" forgets faster than the standard weights say (a fit of theirs predicts them better),
"steady" remembers just as the standard weights say (nothing may replace them).
"""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from flask import Flask
from sqlalchemy import insert, select

from tests.conftest import client_for, make_user
from tests.fit.simulated import forgetful_weights, simulate_with_memories
from tests.web.migrations import databases, empty_database
from tests.web.test_study import Study
from tests.web.test_teach import add_member, make_class
from trainer import fit, srs
from trainer.assignments import Review, recall_at
from trainer.facts import Facet, Fact, Form, Verdict
from trainer.web import dashboards, fitting, get_deck, memory
from trainer.web.extensions import db
from trainer.web.models import (
    MemoryCard,
    MemoryWeights,
    ReviewLog,
    Role,
    User,
    memory_columns,
    memory_from,
    utcnow,
)
from trainer.web.teach import insights

UTC = dt.UTC


def give_history(
    app: Flask,
    student_id: int,
    true_weights: srs.Weights,
    *,
    seed: int,
    days: int = 90,
    facts: int = 250,
) -> int:
    """Write a simulated history as ``memory.record`` writes answers (log rows and memory cards,
    scheduled with the standard weights). Returns the number of answers."""
    with app.app_context():
        keys = [
            Fact(state.postal, facet).key for facet in Facet for state in get_deck().sorted_by(None)
        ]
        log, final, after = simulate_with_memories(
            true_weights, seed=seed, days=days, facts=facts, keys=keys
        )
        first_seen: dict[str, dt.datetime] = {}
        rows = []
        for n, (review, mem) in enumerate(zip(log, after)):
            first_seen.setdefault(review.fact_key, review.reviewed_at)
            right = review.rating > int(srs.Rating.AGAIN)
            rows.append(
                {
                    "student_id": student_id,
                    "fact_key": review.fact_key,
                    "facet": review.fact_key.partition(":")[2],
                    "rating": review.rating,
                    "verdict": (Verdict.RIGHT if right else Verdict.WRONG).value,
                    "correct": right,
                    "help": srs.Help.NONE.value,
                    "mode": "review",
                    "form": (Form.TYPED if review.strong else Form.CHOICE).value,
                    "answer": "x",
                    "duration_ms": 4000,
                    "reviewed_at": review.reviewed_at,
                    "study_day": srs.study_day(review.reviewed_at, "UTC").date,
                    "round_token": f"sim{student_id}-{n}",
                    "item": "1",
                    "due_after": mem.due,
                    "stability_after": mem.stability,
                }
            )
        db.session.execute(insert(ReviewLog), rows)
        cards = [
            {
                "student_id": student_id,
                "fact_key": key,
                "facet": key.partition(":")[2],
                **memory_columns(mem),
                "last_study_day": srs.study_day(mem.last_review, "UTC").date,
                "introduced_at": first_seen[key],
            }
            for key, mem in final.items()
        ]
        db.session.execute(insert(MemoryCard), cards)
        db.session.commit()
        return len(log)


def cards_of(app: Flask, student_id: int) -> dict[str, tuple]:
    with app.app_context():
        rows = db.session.execute(
            select(MemoryCard.__table__).where(MemoryCard.student_id == student_id)
        ).all()
        return {row.fact_key: (row.stability, row.difficulty, row.due, row.reps) for row in rows}


def weights_row(app: Flask, student_id: int) -> MemoryWeights | None:
    with app.app_context():
        row = db.session.execute(
            select(MemoryWeights).where(MemoryWeights.student_id == student_id)
        ).scalar_one_or_none()
        if row is not None:
            db.session.expunge(row)
        return row


@pytest.fixture
def fast(app: Flask) -> User:
    user = make_user(app, "fast")
    give_history(app, user.id, forgetful_weights(), seed=1)
    return user


@pytest.fixture
def steady(app: Flask) -> User:
    user = make_user(app, "steady")
    give_history(app, user.id, srs.DEFAULT_WEIGHTS, seed=2)
    return user


# --- The command line ----------------------------------------------------------------------------


def test_fit_memory_reports_one_line_per_student_and_adopts_only_what_predicts_better(
    app, runner, fast, steady
):
    """P-M10: `fit-memory --all` fits every student who has answered: the forgetful one's own fit
    is adopted (held-out scores before -> after, both lower), the standard one stays."""
    make_user(app, "newcomer")  # has answered nothing: not listed
    result = runner.invoke(args=["fit-memory", "--all"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert [line.split(":")[0] for line in lines] == ["fast", "steady"]
    assert lines[0].startswith(
        "fast: adopted: own predicted the newer answers better; held-out log loss "
    )
    assert lines[1].startswith(
        "steady: kept the current weights: no candidate predicted the newer answers better; held-out log loss "
    )
    assert "(best candidate " in lines[1] and " -> " not in lines[1]
    before, after = (float(x) for x in lines[0].split("log loss ")[1].split(",")[0].split(" -> "))
    assert after < before
    rmse_before, rmse_after = (
        float(x) for x in lines[0].split("RMSE(bins) ")[1].split(" (")[0].split(" -> ")
    )
    assert rmse_after < rmse_before
    fast_row, steady_row = weights_row(app, fast.id), weights_row(app, steady.id)
    assert fast_row.weights is not None and len(fast_row.weights) == 21 and fast_row.source == "own"
    assert (
        steady_row.weights is None
        and steady_row.attempt_result == "no candidate predicted the newer answers better"
    )

    again = runner.invoke(args=["fit-memory", "--student", "STEADY"])
    assert again.exit_code == 0 and again.output.startswith("steady: kept the current weights")


@pytest.mark.parametrize(
    "args, message",
    [
        (["fit-memory"], "Give either --student USERNAME or --all."),
        (["fit-memory", "--all", "--student", "fast"], "Give either --student USERNAME or --all."),
        (["fit-memory", "--student", "nobody"], "No student called 'nobody'."),
        (["fit-memory", "--student", "teacher1"], "No student called 'teacher1'."),
    ],
)
def test_fit_memory_refuses_what_it_cannot_do_and_changes_nothing(
    app, runner, teacher, fast, args, message
):
    result = runner.invoke(args=args)
    assert result.exit_code != 0
    assert message in result.output
    assert weights_row(app, fast.id) is None


def test_too_few_answers_record_the_attempt_and_keep_the_standard_model(app, runner):
    """P-M10: a student with a short log keeps the standard weights; the attempt is recorded."""
    user = make_user(app, "short")
    answers = give_history(app, user.id, forgetful_weights(), seed=3, days=5, facts=30)
    result = runner.invoke(args=["fit-memory", "--student", "short"])
    assert result.exit_code == 0
    assert result.output.startswith("short: kept the current weights: too few answers to ")
    row = weights_row(app, user.id)
    assert row.weights is None and row.fitted_at is None and row.attempt_answers == answers


# --- Adopting: stored and rescheduled in one transaction --------------------------------------------


def test_adopting_stores_the_weights_and_reschedules_every_fact(app, fast):
    """P-M10: the adopted set is stored with its scores, and every fact's stability, difficulty and
    due are the ones its history gives under the new set (fit.replay, srs.reschedule)."""
    before = cards_of(app, fast.id)
    with app.app_context():
        result = fitting.fit_student(fast.id)
        assert result.adopted
        row = db.session.execute(
            select(MemoryWeights).where(MemoryWeights.student_id == fast.id)
        ).scalar_one()
        assert tuple(row.weights) == result.weights
        assert (row.source, row.replaced_standard, row.train_targets, row.test_targets) == (
            "own",
            True,
            result.train_targets,
            result.test_targets,
        )
        assert (row.before_log_loss, row.after_log_loss) == (
            result.current.log_loss,
            result.best.log_loss,
        )
        assert (row.before_rmse_bins, row.after_rmse_bins) == (
            result.current.rmse_bins,
            result.best.rmse_bins,
        )
        assert row.answers == row.attempt_answers
        reviews = fitting.review_logs([fast.id])[fast.id]
        assert row.answers == len(reviews)
        assert memory.weights_for(db.session.get(User, fast.id)) == result.weights
        histories = fit.histories(reviews, "UTC")
        cards = (
            db.session.execute(select(MemoryCard).where(MemoryCard.student_id == fast.id))
            .scalars()
            .all()
        )
        for card in cards:
            stability, difficulty = fit.replay(histories[card.fact_key], result.weights)
            old = before[card.fact_key]
            old_memory = srs.Memory(
                memory_from(card).state,
                card.step,
                old[0],
                old[1],
                old[2],
                card.last_review,
                card.lapses,
                card.reps,
            )
            expected = srs.reschedule(
                old_memory,
                stability,
                difficulty,
                seed=f"refit:{card.fact_key}",
                time_zone="UTC",
                weights=result.weights,
            )
            assert (card.stability, card.difficulty, card.due) == (
                expected.stability,
                expected.difficulty,
                expected.due,
            )
    after = cards_of(app, fast.id)
    moved = [key for key in before if before[key][2] != after[key][2]]
    assert len(moved) > len(before) // 2  # a forgetful student's facts come back sooner
    assert sum(after[k][2] < before[k][2] for k in moved) > len(moved) // 2


def test_a_failing_reschedule_leaves_nothing_half_done(app, fast, monkeypatch):
    """P-M10: the weights and the new schedules are one transaction: if writing them fails half
    way, no weights are stored and no card has changed; the failed attempt is recorded."""
    before = cards_of(app, fast.id)
    real = memory.write_rescheduled

    def half_then_fail(changes):
        changes = list(changes)
        real(changes[: len(changes) // 2])  # half the cards written, and the weights row flushed
        raise RuntimeError("the database went away")

    monkeypatch.setattr(memory, "write_rescheduled", half_then_fail)
    with app.app_context(), pytest.raises(RuntimeError):
        fitting.fit_student(fast.id)
    assert cards_of(app, fast.id) == before
    row = weights_row(app, fast.id)
    assert row.weights is None and row.fitted_at is None
    assert row.attempt_result == "the new weights could not be saved: the database went away"


def test_an_answer_that_overtakes_the_reschedule_makes_it_start_again(app, fast, monkeypatch):
    """P-M10: a card answered between reading and writing is not overwritten with a stale
    schedule: the unit of work starts again from a fresh read, and the answer is kept."""
    real = memory.write_rescheduled
    overtaken = []

    def answer_first(changes):
        changes = list(changes)
        overtaken.append(True)
        if len(overtaken) == 1:
            card_id = changes[0][0]
            db.session.execute(
                MemoryCard.__table__.update()
                .where(MemoryCard.id == card_id)
                .values(reps=MemoryCard.reps + 1)
            )
        real(changes)

    monkeypatch.setattr(memory, "write_rescheduled", answer_first)
    with app.app_context():
        assert fitting.fit_student(fast.id).adopted
    assert len(overtaken) == 2  # the first run found the card changed, and the unit ran again
    assert weights_row(app, fast.id).weights is not None


# --- Used everywhere ------------------------------------------------------------------------------


def store_weights(app: Flask, student_id: int, weights: srs.Weights) -> None:
    with app.app_context():
        db.session.add(
            MemoryWeights(
                student_id=student_id,
                weights=list(weights),
                source="own",
                replaced_standard=True,
                fitted_at=utcnow(),
                answers=812,
                train_targets=300,
                test_targets=60,
                attempted_at=utcnow(),
                attempt_answers=812,
                attempt_result="own predicted the newer answers better",
            )
        )
        db.session.commit()


def steep() -> srs.Weights:
    w = list(srs.DEFAULT_WEIGHTS)
    w[20] = 0.5
    return srs.check_weights(w)


def flat() -> srs.Weights:
    w = list(srs.DEFAULT_WEIGHTS)
    w[20] = 0.12
    return srs.check_weights(w)


def test_an_answer_is_scheduled_with_the_students_own_weights(app, student):
    """P-M10: memory.record schedules with the student's weights; another student's stay standard."""
    other = make_user(app, "other")
    store_weights(app, student.id, forgetful_weights())
    now = dt.datetime(2026, 3, 2, 15, 0, tzinfo=UTC)
    with app.app_context():
        for user, token in ((student, "r1"), (other, "r2")):
            memory.record(
                db.session.get(User, user.id),
                srs.Outcome(
                    "CO:capital", Verdict.RIGHT, "review", Form.TYPED, token, "1", "Denver"
                ),
                now,
            )
        stability = dict(
            db.session.execute(select(ReviewLog.student_id, ReviewLog.stability_after)).all()
        )
    assert stability[student.id] == pytest.approx(forgetful_weights()[2])
    assert stability[other.id] == pytest.approx(srs.DEFAULT_WEIGHTS[2])


def test_the_queue_and_keep_practising_rank_with_the_students_weights(app, student, monkeypatch):
    """P-M10: the study queue and the Keep practising offer predict with the student's own weights
    (the order and the 90% count are the same under any curve, since each curve gives 0.9 after
    one stability: so the weights passed are checked, not the order)."""
    store_weights(app, student.id, steep())
    give_history(app, student.id, forgetful_weights(), seed=5, days=3, facts=20)
    seen = []
    real_queue, real_retrievability = srs.build_queue, srs.retrievability
    monkeypatch.setattr(
        srs,
        "build_queue",
        lambda *a, **k: seen.append(("queue", k["weights"])) or real_queue(*a, **k),
    )
    monkeypatch.setattr(
        srs,
        "retrievability",
        lambda m, at, tz, weights=None: (
            seen.append(("recall", weights)) or real_retrievability(m, at, tz, weights)
        ),
    )
    with app.app_context():
        db.session.execute(
            MemoryCard.__table__.update().values(
                due=utcnow() + dt.timedelta(days=30), state=int(srs.MemoryState.REVIEW)
            )
        )
        db.session.execute(User.__table__.update().values(new_per_day=0))
        db.session.commit()
    page = client_for(app, "student1").get("/study/").get_data(as_text=True)
    assert "Keep practising" in page
    assert ("queue", steep()) in seen and ("recall", steep()) in seen
    assert [s for s in seen if s[1] != steep()] == []


def test_the_sql_recall_equals_srs_recall_with_each_students_weights(app):
    """P-M10, P-M1: the dashboards' SQL recall uses each student's own curve (==, both databases)."""
    ids = [make_user(app, name).id for name in ("standard", "steep", "flat")]
    store_weights(app, ids[1], steep())
    store_weights(app, ids[2], flat())
    at = dt.datetime(2026, 6, 1, 13, 0, tzinfo=UTC)
    stabilities = [0.3, 1.0, 2.5, 7.0, 33.3, 180.0]
    with app.app_context():
        rows = []
        for sid in ids:
            for n, stability in enumerate(stabilities):
                for days in (0, 1, 3, 12, 40):
                    last = at - dt.timedelta(days=days, hours=n)
                    rows.append(
                        {
                            "student_id": sid,
                            "fact_key": f"k{n}-{days}",
                            "facet": "map",
                            "state": int(srs.MemoryState.REVIEW),
                            "step": None,
                            "stability": stability,
                            "difficulty": 5.0,
                            "due": at,
                            "last_review": last,
                            "last_study_day": srs.study_day(last, "UTC").date,
                            "lapses": 0,
                            "reps": 3,
                            "introduced_at": last,
                        }
                    )
        db.session.execute(insert(MemoryCard), rows)
        db.session.commit()
        found = db.session.execute(
            select(
                MemoryCard.student_id,
                MemoryCard.stability,
                MemoryCard.last_review,
                dashboards.recall_expr(
                    MemoryCard.stability, MemoryCard.last_study_day, MemoryCard.student_id, ids, at
                ),
            )
        ).all()
    weights = {ids[0]: None, ids[1]: steep(), ids[2]: flat()}
    assert len(found) == len(rows)
    mismatches = [
        (sid, s, v)
        for sid, s, last, v in found
        if v != srs.recall(s, last, at, "UTC", weights[sid])
    ]
    assert mismatches == []
    # The curves differ, so the test would catch a SQL recall that ignored them.
    by_student = {
        sid: sorted(v for s, last, v in [(r[1], r[2], r[3]) for r in found if r[0] == sid])
        for sid in ids
    }
    assert by_student[ids[1]] != by_student[ids[0]] != by_student[ids[2]]


def test_the_teachers_recall_table_and_goals_use_the_students_weights(app, student):
    """P-M10: the teacher's table of likely recall and assignment goals predict with the
    student's own curve."""
    store_weights(app, student.id, steep())
    last = dt.datetime(2026, 3, 2, 15, 0, tzinfo=UTC)
    now = last + dt.timedelta(days=20)
    with app.app_context():
        db.session.execute(
            insert(MemoryCard),
            [
                {
                    "student_id": student.id,
                    "fact_key": "CO:capital",
                    "facet": "capital",
                    "state": int(srs.MemoryState.REVIEW),
                    "step": None,
                    "stability": 5.0,
                    "difficulty": 5.0,
                    "due": last + dt.timedelta(days=5),
                    "last_review": last,
                    "last_study_day": last.date(),
                    "lapses": 0,
                    "reps": 2,
                    "introduced_at": last,
                }
            ],
        )
        db.session.commit()
        rows = insights.facts_by_state(student.id, now)
    cell = next(
        c for row in rows if row.postal == "CO" for c in row.cells if c.facet is Facet.CAPITAL
    )
    assert cell.recall == srs.recall_after(5.0, 20, steep()) < srs.recall_after(5.0, 20)
    assert recall_at([Review(last, 5.0)], now, now, "UTC", steep()) == cell.recall


# --- In the background -----------------------------------------------------------------------------


@pytest.mark.app_config(FIT_IN_BACKGROUND=True)
def test_answers_queue_one_fit_in_the_background_once_enough_are_new(app, monkeypatch):
    """P-M10: after a request that recorded an answer of a student with 75 answers since their
    last attempt, one fit runs in the background (never in the request); answers while it is
    queued do not queue another, and once it has run, the next answer queues none."""
    user = make_user(app, "keen")
    give_history(app, user.id, forgetful_weights(), seed=4, days=30, facts=120)
    release = threading.Event()
    calls: list[int] = []
    futures = []
    real_fit, real_submit = fitting.fit_student, fitting.submit

    def slow_fit(student_id, **kwargs):
        calls.append(student_id)
        assert release.wait(30)
        return real_fit(student_id, **kwargs)

    def submit(app_, student_id):
        future = real_submit(app_, student_id)
        futures.append(future)
        return future

    monkeypatch.setattr(fitting, "fit_student", slow_fit)
    monkeypatch.setattr(fitting, "submit", submit)
    monkeypatch.setattr(fitting, "CHECK_EVERY", 1)  # every answer looks (see the next test)
    client = client_for(app, "keen")
    study = Study(app, client)
    try:
        url = study.start()
        assert study.answer(url).status_code == 302
        assert weights_row(app, user.id) is None  # the request did not fit
        assert study.answer(url.rsplit("/", 1)[0] + "/2").status_code == 302
        assert [f is not None for f in futures] == [True, False]  # queued once, not twice
    finally:
        release.set()
        for future in futures:
            if future is not None:
                future.result(timeout=60)
    assert calls == [user.id]
    row = weights_row(app, user.id)
    assert row is not None and row.attempt_answers >= fitting.NEW_ANSWERS_FOR_A_FIT
    assert study.answer(url.rsplit("/", 1)[0] + "/3").status_code == 302
    assert len(futures) == 2 and calls == [user.id]  # fewer than 75 new answers: nothing queued


@pytest.mark.app_config(FIT_IN_BACKGROUND=True)
def test_a_process_looks_for_a_due_fit_on_a_students_first_answer_then_every_tenth(
    app, monkeypatch
):
    """Looking is two queries after the answer's own transaction (a quarter of an answer's time,
    issue 25), and a fit is due only every 75 answers: so a process looks on a student's first
    answer it records, then on every CHECK_EVERY-th (a fit comes at most that many answers late)."""
    for name in ("ana", "ben"):
        make_user(app, name)
    looked: list[int] = []
    monkeypatch.setattr(fitting, "wants_a_fit", lambda student_id: looked.append(student_id))
    studies = {name: Study(app, client_for(app, name)) for name in ("ana", "ben")}
    with app.app_context():
        ids = {
            name: db.session.execute(select(User.id).filter_by(username=name)).scalar_one()
            for name in studies
        }
    rounds = {name: study.start() for name, study in studies.items()}
    for n in range(1, 13):
        for name, study in studies.items():
            if n > 1 and (n - 1) % 10 == 0:
                rounds[name] = study.start()  # a round has 10 facts
            url = rounds[name].rsplit("/", 1)[0] + f"/{(n - 1) % 10 + 1}"
            assert study.answer(url).status_code == 302
    assert fitting.CHECK_EVERY == 10
    assert looked == [ids["ana"], ids["ben"]] * 2  # the 1st and the 11th answers of each


def test_with_the_background_off_answers_queue_nothing(app, monkeypatch):
    """P-M10: GEOPLUNGE_FIT_IN_BACKGROUND=0 (and the tests' default) queues no fit."""
    user = make_user(app, "calm")
    give_history(app, user.id, forgetful_weights(), seed=4, days=30, facts=120)
    monkeypatch.setattr(fitting, "submit", lambda *a: pytest.fail("queued a fit"))
    study = Study(app, client_for(app, "calm"))
    assert study.answer(study.start()).status_code == 302
    assert weights_row(app, user.id) is None


# --- What people see --------------------------------------------------------------------------------


def test_the_student_and_their_teacher_read_the_model_in_use_and_nobody_else_does(
    app, student, teacher
):
    """P-M10: a fitted student's settings page says so in a true sentence from the stored row;
    another student's says the standard model; the teacher's page of the student says it too,
    and a teacher of another class cannot open that page."""
    store_weights(app, student.id, forgetful_weights())
    make_user(app, "plain")
    fitted = dt.datetime.now(UTC).replace(hour=12)  # this year: the date is told without it
    with app.app_context():
        db.session.execute(MemoryWeights.__table__.update().values(fitted_at=fitted))
        db.session.commit()
    klass = make_class(app, teacher.id, "Room 12", "ABCD2345")
    add_member(app, klass, student.id)
    mine = client_for(app, "student1").get("/study/settings").get_data(as_text=True)
    assert (
        "Your memory model is fitted to you: it predicted 60 of your latest answers better than the standard one "
        f"(fitted {fitted.day} {fitted:%B} from 812 answers)." in mine
    )
    theirs = client_for(app, "plain").get("/study/settings").get_data(as_text=True)
    assert (
        "Using the standard memory model until it has enough of your answers to do better."
        in theirs
    )
    assert "fitted to you" not in theirs and "812" not in theirs
    page = (
        client_for(app, "teacher1")
        .get(f"/teach/classes/{klass}/students/{student.id}")
        .get_data(as_text=True)
    )
    assert (
        "student1&#39;s memory model is fitted to them: it predicted 60 of their latest answers better than the standard one"
        in page
    )
    other_teacher = make_user(app, "teacher2", role=Role.TEACHER)
    assert (
        client_for(app, other_teacher.username)
        .get(f"/teach/classes/{klass}/students/{student.id}")
        .status_code
        == 404
    )


def test_the_sentence_for_a_model_from_the_class_or_replacing_an_earlier_fit(app, student):
    store_weights(app, student.id, forgetful_weights())
    with app.app_context():
        db.session.execute(
            MemoryWeights.__table__.update().values(
                source="class", replaced_standard=False, test_targets=1, answers=1
            )
        )
        db.session.commit()
        text = fitting.model_sentence(
            db.session.get(User, student.id), now=dt.datetime(2030, 1, 1, tzinfo=UTC)
        )
    assert text.startswith(
        "Your memory model comes from your class's answers: it predicted 1 of your latest answers better than the one you had before (fitted "
    )
    assert (
        text.endswith(" from 1 answer).") and f"{utcnow().year} from" in text
    )  # another year: told


# --- The migration ---------------------------------------------------------------------------


@pytest.mark.parametrize("database", databases())
def test_migration_0016_adds_and_removes_the_weights_table(tmp_path, database):
    """P-M10's table comes with 0016 and goes with its downgrade, and comes back again."""
    from flask_migrate import downgrade, upgrade
    from sqlalchemy import inspect

    with empty_database(tmp_path, database):
        upgrade(revision="0015_review_log_by_fact")
        assert "memory_weights" not in inspect(db.engine).get_table_names()
        upgrade(revision="0016_memory_weights")
        tables = inspect(db.engine)
        assert "memory_weights" in tables.get_table_names()
        assert {"student_id", "weights", "attempted_at"} <= {
            c["name"] for c in tables.get_columns("memory_weights")
        }
        downgrade(revision="0015_review_log_by_fact")
        assert "memory_weights" not in inspect(db.engine).get_table_names()
        upgrade()
        assert "memory_weights" in inspect(db.engine).get_table_names()
