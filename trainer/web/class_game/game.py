"""GeoPlunge Live on the devices: a class game's rows read and written (issue 23).

The rules are :mod:`trainer.class_game`'s (the deal, the judging, the phases, the scoring); this
module keeps a game in the database and says what each screen may see of it:

- the questions are dealt once, when the teacher makes the game, and stored with their secrets
  (:func:`question_to_json`); a student's device is only ever given
  :func:`trainer.class_game.public_view` of the open question, and the answer once it is revealed
  (C-W5);
- a control names the version the projector showed; it is kept only if no other control was
  pressed since (``ClassGame.state_version``), in one conditional write, so of two presses at once
  one is kept (C-W3);
- an answer is one unit of work: the game's row claimed while its question is still open (the
  same conditional write refuses an answer that a reveal overtook), the answer's row (its unique
  key refuses a second one) and one :func:`trainer.web.memory.record` per review, mode "live";
  all of it is kept, or nothing (C-W4).

Every kept change is announced with the game's id and version only (:func:`.sockets.announce_class_game`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update

from trainer import class_game as cg
from trainer import live, pickmap, srs
from trainer.assignments import Scope
from trainer.cards import Deck
from trainer.facts import Facet, Fact, Form, facts_of

from ..dashboards import class_cells
from ..extensions import changed_rows, db
from ..guards import Refused, Stale
from ..kept import Kept
from ..memory import atomically, record
from ..models import ClassGame, ClassGameAnswer, ClassGamePlayer, User


def wait_key(game_id: int, teacher: bool) -> int:
    """The key a class game's waiting pages use on the live tables' board
    (:mod:`trainer.web.live.waits`), whose keys are the tables' ids: a game's are negative, so the
    two never meet; its projector waits for ``version``, its students for ``state_version``."""
    return -(2 * game_id + (0 if teacher else 1))


#: How late an answer may reach the server after the student's time ran out (the network's delay).
GRACE_MS = 1500
#: How many of the class's weakest facts a game "about to forget" is dealt from (C-W1).
FOCUS_MOST = 60
#: The recall a fact is counted as known at, for the class's cells (not used to rank).
_TARGET = 0.9

#: Messages (C-W6): what a refused answer or control is told; nothing changed.
GAME_CHANGED = "The game moved on meanwhile. Nothing changed; here it is now."
CLOSED = "That question is closed: the game has moved on. Nothing was recorded."
PAUSED = "The game is paused: wait for your teacher to go on. Nothing was recorded."
LATE = "Time was up for that question. Nothing was recorded."
TWICE = "You have already answered this question. Your first answer counts."
NOT_AN_OPTION = "That is not one of this question’s answers. Nothing was recorded."
NO_SUCH_GAME = (
    "No game of your classes has that code. Check it on your teacher’s screen, or ask them."
)


# --- the stored questions and settings --------------------------------------------------------


def question_to_json(q: cg.Question) -> dict[str, Any]:
    data = dataclasses.asdict(q)
    data["kind"] = q.kind.value
    return data


def question_from_json(data: dict[str, Any]) -> cg.Question:
    return cg.Question(
        number=int(data["number"]),
        kind=cg.Kind(data["kind"]),
        prompt=str(data["prompt"]),
        options=tuple(data["options"]),
        answer=str(data["answer"]),
        facts=tuple(data["facts"]),
        clues=tuple(data.get("clues") or ()),
        map_postal=data.get("map_postal"),
    )


def settings_to_json(settings: cg.Settings) -> dict[str, Any]:
    return {
        "kinds": [k.value for k in settings.kinds],
        "length": settings.length,
        "seconds": settings.seconds,
        "speed_breaks_ties": settings.speed_breaks_ties,
        "standings": settings.standings.value,
        "team_size": settings.team_size,
        "extra_time": settings.extra_time,
    }


def settings_of(game: ClassGame) -> cg.Settings:
    s = game.settings
    return cg.Settings(
        kinds=tuple(cg.Kind(k) for k in s["kinds"]),
        length=int(s["length"]),
        seconds=s.get("seconds"),
        speed_breaks_ties=bool(s.get("speed_breaks_ties", True)),
        standings=cg.Standings(s.get("standings", cg.Standings.TOP_FIVE.value)),
        team_size=int(s.get("team_size", 1)),
        extra_time=float(s.get("extra_time", 1.5)),
    )


def questions_of(game: ClassGame) -> tuple[cg.Question, ...]:
    return tuple(question_from_json(d) for d in game.questions)


def progress_of(game: ClassGame) -> cg.Progress:
    return cg.Progress(
        phase=cg.Phase(game.phase),
        question=game.question,
        paused=game.paused,
        clues_shown=game.clues_shown,
    )


def skipped(game: ClassGame) -> frozenset[int]:
    """The questions the teacher skipped (C-W12)."""
    return frozenset(int(n) for n in game.settings.get("skipped", []))


def current(game: ClassGame) -> cg.Question | None:
    """The question on show (open, revealed or after it in the standings), None in the lobby."""
    if 0 <= game.question < len(game.questions) and game.phase != cg.Phase.LOBBY.value:
        return question_from_json(game.questions[game.question])
    return None


# --- making a game -----------------------------------------------------------------------------


def class_focus(student_ids: Sequence[int], now: dt.datetime, deck: Deck) -> list[str]:
    """What the class is about to forget (C-W1): the facts at least one student has started, by
    their mean predicted recall now over those students, lowest first (the class dashboard's cells,
    :func:`trainer.web.dashboards.class_cells`); ties in the deck's order. Empty for a class that
    has practised nothing (the deal then draws from the whole deck)."""
    if not student_ids:
        return []
    cells = [
        c for c in class_cells(student_ids, now, _TARGET) if c.started and c.mean_recall is not None
    ]
    ranked = sorted(enumerate(cells), key=lambda pair: (pair[1].mean_recall, pair[0]))
    return [Fact(cell.postal, cell.facet).key for _, cell in ranked][:FOCUS_MOST]


def scope_focus(
    scope: Scope, student_ids: Sequence[int], now: dt.datetime, deck: Deck
) -> list[str]:
    """A scope's facts, the class's weakest first (C-W1): those it started by mean recall, then the
    rest in teaching order."""
    facets = scope.facets or frozenset(Facet)
    keys = [f.key for f in facts_of(deck, facets, scope.postals(deck))]
    weak = {key: i for i, key in enumerate(class_focus(student_ids, now, deck))}
    order = {key: i for i, key in enumerate(keys)}
    return sorted(keys, key=lambda k: (weak.get(k, len(weak)), order[k]))


def _new_code() -> str:
    rng = random.SystemRandom()
    while True:
        code = live.new_code(rng)
        taken = db.session.execute(select(ClassGame.id).where(ClassGame.code == code)).first()
        if taken is None:
            return code


def new_seed() -> int:
    return random.SystemRandom().randrange(1, 2**53)


def make_game(
    class_id: int,
    teacher_id: int,
    settings: cg.Settings,
    focus: Sequence[str],
    deck: Deck,
    covers: dict[str, Any],
    extra_ids: Iterable[int],
) -> ClassGame:
    """Deal the game and add it to the session (not committed).

    Raises:
        ValueError: the core refuses the settings (no kind, a length out of range).
    """
    seed = new_seed()
    questions = cg.deal(
        deck, kinds=settings.kinds, length=settings.length, focus=list(focus), seed=seed
    )
    game = ClassGame(
        class_id=class_id,
        teacher_id=teacher_id,
        code=_new_code(),
        seed=seed,
        settings={
            **settings_to_json(settings),
            "covers": covers,
            "extra_ids": sorted(set(extra_ids)),
        },
        questions=[question_to_json(q) for q in questions],
        phase=cg.Phase.LOBBY.value,
        question=-1,
        paused=False,
        clues_shown=0,
        version=0,
        state_version=0,
    )
    db.session.add(game)
    db.session.flush()
    return game


# --- the clock ----------------------------------------------------------------------------------


def elapsed_ms(game: ClassGame, now: dt.datetime) -> int | None:
    """How long the open question has been open, paused time left out (None outside a question)."""
    if game.phase != cg.Phase.QUESTION.value or game.phase_at is None:
        return None
    until = game.paused_at or now
    return max(0, int((until - game.phase_at).total_seconds() * 1000))


def time_left_ms(game: ClassGame, extra: bool, now: dt.datetime) -> int | None:
    """How long the student has left on the open question (None: no timer, or no question open)."""
    limit = cg.deadline_ms(settings_of(game), extra)
    elapsed = elapsed_ms(game, now)
    if limit is None or elapsed is None:
        return None
    return max(0, limit - elapsed)


def longest_ms(game: ClassGame) -> int | None:
    """The longest any student has on a question (extra time included), or None with no timer."""
    return cg.deadline_ms(settings_of(game), True)


# --- players ------------------------------------------------------------------------------------


def player_of(game_id: int, student_id: int) -> ClassGamePlayer | None:
    return db.session.execute(
        select(ClassGamePlayer).where(
            ClassGamePlayer.game_id == game_id, ClassGamePlayer.student_id == student_id
        )
    ).scalar_one_or_none()


def players(game_id: int) -> list[tuple[ClassGamePlayer, str]]:
    """The game's players and their usernames, in the order they joined."""
    rows = db.session.execute(
        select(ClassGamePlayer, User.username)
        .join(User, User.id == ClassGamePlayer.student_id)
        .where(ClassGamePlayer.game_id == game_id)
        .order_by(ClassGamePlayer.joined_at, ClassGamePlayer.id)
    ).all()
    return [(row[0], row[1]) for row in rows]


def join(game: ClassGame, student_id: int, now: dt.datetime) -> bool:
    """Add the student to the game (they are in its class: the caller checked). A student joining
    after the start joins the smallest team (C-W7). True when they were added now."""
    game_id = game.id

    def work() -> bool:
        if player_of(game_id, student_id) is not None:
            return False
        fresh = db.session.get(ClassGame, game_id)
        assert fresh is not None
        team = None
        if fresh.phase != cg.Phase.LOBBY.value:
            team = _smallest_team(game_id, student_id, settings_of(fresh).team_size)
        db.session.add(
            ClassGamePlayer(
                game_id=game_id,
                student_id=student_id,
                team=team,
                extra_time=student_id in set(fresh.settings.get("extra_ids", [])),
                joined_at=now,
            )
        )
        db.session.flush()
        _bump(game_id)
        return True

    return bool(atomically(work))


def _smallest_team(game_id: int, student_id: int, size: int) -> int:
    if size <= 1:
        return student_id
    teams = db.session.scalars(
        select(ClassGamePlayer.team).where(
            ClassGamePlayer.game_id == game_id, ClassGamePlayer.team.is_not(None)
        )
    )
    counts: Counter[int] = Counter(team for team in teams if team is not None)
    if not counts:
        return 1
    return min(counts, key=lambda t: (counts[t], t))


def _bump(game_id: int) -> None:
    db.session.execute(
        update(ClassGame).where(ClassGame.id == game_id).values(version=ClassGame.version + 1)
    )


def _assign_teams(game: ClassGame) -> None:
    """At the start: every player's team (``trainer.class_game.make_teams``, from the game's seed);
    everyone for themselves: each student is their own team (their id)."""
    size = settings_of(game).team_size
    rows = db.session.execute(
        select(ClassGamePlayer.id, ClassGamePlayer.student_id)
        .where(ClassGamePlayer.game_id == game.id)
        .order_by(ClassGamePlayer.joined_at, ClassGamePlayer.id)
    ).all()
    ids = [sid for _pid, sid in rows]
    teams = cg.make_teams(ids, size, game.seed) if size > 1 else {sid: sid for sid in ids}
    if rows:  # one statement for the class, not one a student (sixty trips to PostgreSQL)
        db.session.execute(
            update(ClassGamePlayer), [{"id": pid, "team": teams[sid]} for pid, sid in rows]
        )


# --- the teacher's controls -------------------------------------------------------------------


def control(game_id: int, action: str, version: int, now: dt.datetime) -> None:
    """Press one of the projector's controls on the page of ``version`` (C-W3), in one unit.

    Raises:
        Stale: another control was pressed since the page was shown (or the version is not one
            the game had); nothing changed.
        Refused: the action is not allowed now (the core's words); nothing changed.
    """

    def work() -> None:
        game = db.session.get(ClassGame, game_id, populate_existing=True)
        assert game is not None
        if not game.state_version <= version <= game.version:
            raise Stale(GAME_CHANGED)
        before = progress_of(game)
        try:
            q = current(game)
            clues = (
                len(q.clues) if q is not None and game.phase == cg.Phase.QUESTION.value else None
            )
            after = cg.advance(before, action, settings_of(game), len(game.questions), clues=clues)
        except cg.GameError as refused:
            raise Refused(str(refused)) from None
        values: dict[str, Any] = {
            "phase": after.phase.value,
            "question": after.question,
            "paused": after.paused,
            "clues_shown": after.clues_shown,
        }
        opened = after.phase is cg.Phase.QUESTION and (
            before.phase is not cg.Phase.QUESTION or before.question != after.question
        )
        if opened:
            values.update(phase_at=now, paused_at=None)
        elif after.paused and not before.paused:
            values["paused_at"] = now
        elif before.paused and not after.paused and game.paused_at and game.phase_at:
            values.update(phase_at=game.phase_at + (now - game.paused_at), paused_at=None)
        elif after.phase is not cg.Phase.QUESTION and before.phase is cg.Phase.QUESTION:
            values["paused_at"] = None
        if after.phase is cg.Phase.ENDED:
            values["ended_at"] = now
        if action == "skip":  # nothing of a skipped question is scored (C-W12)
            values["settings"] = {
                **game.settings,
                "skipped": sorted({*game.settings.get("skipped", []), before.question}),
            }
        kept = changed_rows(
            update(ClassGame)
            .where(ClassGame.id == game_id, ClassGame.state_version == game.state_version)
            .values(version=ClassGame.version + 1, state_version=ClassGame.version + 1, **values)
        )
        if kept != 1:
            raise Stale(GAME_CHANGED)
        if action == "start":
            _assign_teams(game)
        if action == "skip":
            db.session.execute(
                update(ClassGameAnswer)
                .where(
                    ClassGameAnswer.game_id == game_id,
                    ClassGameAnswer.question == before.question,
                )
                .values(points=0)
            )

    atomically(work)


# --- a student's answer -------------------------------------------------------------------------


def round_token(game_id: int, student_id: int) -> str:
    """The review log's round of one student's answers in a game (C-W4): the log's (round, item)
    key is unique across students, so each student has their own round; the item is
    ``"<question>:<fact key>"``."""
    return f"class-game:{game_id}:{student_id}"


@dataclass(frozen=True)
class Answered:
    """What an answer did: its row's points (shown after the reveal)."""

    right: bool
    points: int


def find_map(game: ClassGame, number: int, deck: Deck) -> pickmap.PickMap:
    """The map a FIND question is answered on (C-W13): its 50 outlines numbered and drawn through a
    stretch drawn from the game's seed and the question's number, as a study round's "find it on
    the map" is (:mod:`trainer.pickmap`), so the page names no state and a refresh shows the same
    map. The server keeps which spot is which state. Built once per question and deck and kept
    (the whole class asks for it at once)."""
    return _FIND_MAPS.get_or_make(
        (deck, game.seed, number),
        lambda: pickmap.build(deck, random.Random(f"class-game:{game.seed}:{number}:find")),
    )


#: (deck, seed, question) -> its find map (a deck is compared by identity).
_FIND_MAPS: Kept[tuple[Deck, int, int], pickmap.PickMap] = Kept(64)


def _form_of(q: cg.Question, answer: str) -> Form:
    """How the answer was given, for the review log: a state found on the map (FIND: only ever
    picked on its unnamed map, C-W13), or named from clues (CLUES) by tapping it or by typing it;
    every other kind is a pick of a few."""
    tapped = answer.upper() in q.options
    if q.kind is cg.Kind.FIND:
        return Form.MAP_CLICK
    if q.kind is cg.Kind.CLUES:
        return Form.CHOICE if tapped else Form.TYPED
    return Form.CHOICE


def answer(
    game_id: int, student: User, number: int, given: str, deck: Deck, now: dt.datetime
) -> Answered:
    """Judge and keep the student's answer to question ``number`` (C-W4), with its reviews.

    Raises:
        Refused: late (closed, time up), paused, twice, or not one of the options; nothing changed.
    """
    student_id = student.id

    def work() -> Answered:
        game = db.session.get(ClassGame, game_id, populate_existing=True)
        assert game is not None
        if game.phase != cg.Phase.QUESTION.value or game.question != number:
            raise Refused(CLOSED)
        if game.paused:
            raise Refused(PAUSED)
        me = player_of(game_id, student_id)
        assert me is not None
        elapsed = elapsed_ms(game, now) or 0
        limit = cg.deadline_ms(settings_of(game), me.extra_time)
        if limit is not None and elapsed > limit + GRACE_MS:
            raise Refused(LATE)
        earlier = db.session.execute(
            select(ClassGameAnswer.id).where(
                ClassGameAnswer.game_id == game_id,
                ClassGameAnswer.question == number,
                ClassGameAnswer.student_id == student_id,
            )
        ).first()
        if earlier is not None:
            raise Refused(TWICE)
        q = question_from_json(game.questions[number])
        clues_seen = game.clues_shown if q.kind is cg.Kind.CLUES else 0
        answer_given = given
        if q.kind is cg.Kind.FIND:
            # A spot of the question's own map, never a name (C-W13): typing the state the
            # question names would be no answer at all, and no evidence of knowing where it is.
            postal = find_map(game, number, deck).postal_of(given)
            if postal is None:
                raise Refused(NOT_AN_OPTION)
            answer_given = postal
        try:
            judged = cg.judge(q, answer_given, deck, clues_seen=clues_seen)
        except cg.BadAnswer:
            raise Refused(NOT_AN_OPTION) from None
        kept_answer = _stored_answer(q, answer_given, judged)
        db.session.add(
            ClassGameAnswer(
                game_id=game_id,
                question=number,
                student_id=student_id,
                answer=kept_answer[:64],
                right=judged.right,
                points=judged.points if judged.right else 0,
                ms=elapsed,
                clues_seen=clues_seen,
                answered_at=now,
            )
        )
        db.session.flush()
        form = _form_of(q, answer_given)
        for fact_key, verdict in judged.reviews:
            record(
                student,
                srs.Outcome(
                    fact_key=fact_key,
                    verdict=verdict,
                    mode=cg.LOG_MODE,
                    form=form,
                    round_token=round_token(game_id, student_id),
                    item=f"{number}:{fact_key}",
                    answer=answer_given[:200],
                    duration_ms=elapsed,
                    answered_postal=judged.answered_postal,
                ),
                now,
            )
        # The question must still be open as the answer is kept: a reveal pressed meanwhile wins.
        # Last in the unit, so the game's row is locked only from here to the commit: the answers
        # of a whole class queue for it one after another.
        claimed = changed_rows(
            update(ClassGame)
            .where(
                ClassGame.id == game_id,
                ClassGame.phase == cg.Phase.QUESTION.value,
                ClassGame.question == number,
                ClassGame.paused.is_(False),
            )
            .values(version=ClassGame.version + 1)
        )
        if claimed != 1:
            raise Refused(CLOSED)
        return Answered(judged.right, judged.points if judged.right else 0)

    return atomically(work)


def _stored_answer(q: cg.Question, given: str, judged: cg.Judged) -> str:
    """The answer as the distribution counts it: the state named (a typed name read as its postal),
    Border-Up's three cards sorted, a capital as offered."""
    if q.kind is cg.Kind.BORDER_UP:
        return "+".join(sorted(p.strip().upper() for p in given.split("+")))
    if judged.answered_postal and q.kind is not cg.Kind.CAPITAL:
        return judged.answered_postal
    for option in q.options:
        if option.lower() == given.strip().lower():
            return option
    return given.strip()


# --- reading answers and scores ---------------------------------------------------------------


def answers_of(game_id: int, student_id: int | None = None) -> list[ClassGameAnswer]:
    """The game's answers (one student's only, given ``student_id``), by question."""
    query = select(ClassGameAnswer).where(ClassGameAnswer.game_id == game_id)
    if student_id is not None:
        query = query.where(ClassGameAnswer.student_id == student_id)
    return list(
        db.session.execute(query.order_by(ClassGameAnswer.question, ClassGameAnswer.id)).scalars()
    )


def answered_count(game_id: int, number: int) -> int:
    return int(
        db.session.execute(
            select(func.count()).where(
                ClassGameAnswer.game_id == game_id, ClassGameAnswer.question == number
            )
        ).scalar_one()
    )


def rows_for_standings(answers: Iterable[ClassGameAnswer]) -> list[cg.AnswerRow]:
    return [cg.AnswerRow(a.student_id, a.question, a.right, a.points, a.ms) for a in answers]


def game_standings(
    game: ClassGame, answers: list[ClassGameAnswer] | None = None
) -> list[cg.Standing]:
    """Everyone's (or every team's) standing, every player in it: teams as the game made them, or
    each student on their own, keyed by their id (C-W7, C-W8)."""
    settings = settings_of(game)
    found = answers if answers is not None else answers_of(game.id)
    roster = players(game.id)
    rows = rows_for_standings(found)
    if settings.team_size > 1:
        teams = {p.student_id: (p.team or 0) for p, _name in roster}
        return cg.standings(rows, teams, settings.speed_breaks_ties)
    ids = [p.student_id for p, _name in roster]
    return cg.standings(rows, None, settings.speed_breaks_ties, students=ids)


def label(q: cg.Question, value: str, deck: Deck) -> str:
    """An answer in words: a state's name for a postal code, three names for Border-Up's trio."""
    if q.kind is cg.Kind.CAPITAL:
        return value
    if q.kind is cg.Kind.BORDER_UP:
        return ", ".join(_state_name(p, deck) for p in value.split("+"))
    return _state_name(value, deck)


def _state_name(postal: str, deck: Deck) -> str:
    try:
        return deck[postal].name
    except KeyError:
        return postal


def fact_sentence(q: cg.Question, deck: Deck) -> str:
    """The fact the question was about, said after the reveal."""
    facts = [Fact.from_key(k) for k in q.facts]
    if q.kind is cg.Kind.CAPITAL and facts:
        state = deck[facts[0].postal]
        return f"The capital of {state.name} is {state.capital}."
    if q.kind is cg.Kind.BORDER_UP:
        trio = q.answer.split("+")
        names = [_state_name(p, deck) for p in trio]
        centre = _state_name(facts[0].postal, deck) if facts else names[0]
        return (
            f"{', '.join(names[:-1])} and {names[-1]} make the group: {centre} borders both others."
        )
    if q.kind is cg.Kind.RANKS and facts:
        parts = []
        for fact in facts:
            category = fact.facet.category
            state = deck[fact.postal]
            if category is not None:
                parts.append(f"{state.name} ranks {state.rank(category)}")
        what = facts[0].facet.label.lower()
        return f"By {what}: {', '.join(parts)} (1 is first)." if parts else ""
    name = _state_name(q.answer, deck)
    if q.kind is cg.Kind.RED_STATE:
        return f"The red state was {name}."
    return f"The state was {name}."
