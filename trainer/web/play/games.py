"""Card games against computer players: Geography War, GeoPlunge 51 and Play the Ranks.

The server is the only judge. A game is stored as its seed and every action; each request
rebuilds the state by replay, checks the student's move, plays the computer seats, and renders
only what the student's seat may see (``observation(0)`` plus the public log). A move names the
game's version (its number of actions): a stale, replayed or forged move changes nothing.

In drill mode the rankings on the student's cards are hidden and every ranking the student
supplies is a review in the memory model (see :mod:`trainer.games.drill`).
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask_login import current_user
from sqlalchemy import func, select, update
from werkzeug.wrappers import Response

from trainer import srs
from trainer.cards import Category, Deck
from trainer.games import (
    REGISTRY,
    GameError,
    IllegalAction,
    Level,
    Params,
    State,
    make_game,
    play_computer_turns,
    replay,
)
from trainer.games.drill import (
    WAR_CALLS,
    DrillAnswer,
    UnreadableAnswer,
    judge_announced,
    judge_clash_worst,
    judge_follow,
    judge_lead,
    judge_toss_beats,
    judge_toss_zone,
    judge_war_call,
)
from trainer.games.geoclash_down_back import ClashState
from trainer.games.geography_war import SETTLE, TURN, WarState
from trainer.games.geoplunge_51 import FiftyOneState
from trainer.games.geopower_toss import CALL as TOSS_CALL
from trainer.games.geopower_toss import REMOVE as TOSS_REMOVE
from trainer.games.geopower_toss import TossState
from trainer.games.play_the_ranks import LEAD, LOW_TRICKS, RanksState

from .. import get_deck
from ..extensions import db
from ..guards import whole_number
from ..memory import atomically, record
from ..models import CardGame, utcnow
from ..security import student_required
from .common import current_student, own_or_404
from .forms import CardGameMoveForm, NewCardGameForm
from .routes import bp

MODES = {
    "geography-war": "geography_war",
    "geoplunge-51": "geoplunge_51",
    "play-the-ranks": "play_the_ranks",
    "geopower-toss": "geopower_toss",
    "geoclash-down-back": "geoclash_down_back",
}
TITLES = {slug: cls.title for slug, cls in REGISTRY.games.items()}
HISTORY = 20
#: Geography War without drill: how many battles one press may play.
MAX_BATTLES = 10
#: Log lines shown at the table.
LOG_SHOWN = 40

# Rebuilt states by (token, ply): a long Geography War is thousands of actions to replay.
_CACHE: OrderedDict[tuple[str, int], State] = OrderedDict()
_CACHE_SIZE = 64
_CACHE_LOCK = threading.Lock()


# --- the games page ------------------------------------------------------------------------


@bp.get("/games/")
@student_required
def games_index() -> str:
    """Pick a game, the players, teams and level; resume an unfinished game; see past results."""
    return _render_index(NewCardGameForm())


def _render_index(form: NewCardGameForm) -> str:
    mine = CardGame.student_id == current_user.id
    unfinished = (
        db.session.execute(
            select(CardGame)
            .where(mine, CardGame.result == "playing")
            .order_by(CardGame.updated_at.desc())
            .limit(HISTORY)
        )
        .scalars()
        .all()
    )
    finished = (
        db.session.execute(
            select(CardGame)
            .where(mine, CardGame.result != "playing")
            .order_by(CardGame.finished_at.desc())
            .limit(HISTORY)
        )
        .scalars()
        .all()
    )
    rows = db.session.execute(
        select(CardGame.game, CardGame.level, CardGame.result, func.count())
        .where(mine, CardGame.result != "playing")
        .group_by(CardGame.game, CardGame.level, CardGame.result)
    ).all()
    record_table: dict[tuple[str, str], dict[str, int]] = {}
    for game, level, result, count in rows:
        record_table.setdefault((game, level), {"won": 0, "lost": 0, "drawn": 0})[result] = count
    return render_template(
        "play/games_index.html",
        form=form,
        unfinished=unfinished,
        finished=finished,
        record=sorted(record_table.items()),
        titles=TITLES,
    )


@bp.post("/games/")
@student_required
def games_new() -> str | Response | tuple[str, int]:
    """Deal a new game; the computer seats play until it is the student's turn."""
    form = NewCardGameForm()
    if not form.validate():
        return _render_index(form), 400
    slug = form.game.data
    players = whole_number(form.players.data) or 2
    team_size = whole_number(form.team_size.data) or 1
    if REGISTRY[slug].max_players == 2:
        players, team_size = 2, 1  # a game for two sides; the form says so
    try:
        row = new_card_game(
            current_user.id, slug, players, team_size, form.level.data, bool(form.drill.data)
        )
    except GameError as refused:
        form.team_size.errors = [str(refused)]
        return _render_index(form), 400
    db.session.commit()
    return redirect(url_for("play.game_table", token=row.token, since=0))


def new_card_game(
    student_id: int,
    slug: str,
    players: int,
    team_size: int,
    level: str,
    drill: bool,
    first_leader: int | None = None,
) -> CardGame:
    """Deal a game and play the computer seats up to the student's turn (added to the session, not committed).

    ``first_leader`` is the seat that leads first when an earlier game decided it (Play the
    Ranks after Dashing States in a Combo 1 match); None lets the game's own draw decide (R2).

    Raises:
        GameError: the game cannot be played with these players and teams.
    """
    game = make_game(slug, get_deck(), Params(players, team_size, first_leader))
    seed = new_seed()
    row = CardGame(
        token=secrets.token_urlsafe(12),
        student_id=student_id,
        game=slug,
        players=players,
        team_size=team_size,
        level=level,
        drill=drill,
        seed=seed,
        actions=[],
        ply=0,
        first_leader=first_leader,
    )
    state = game.new_initial_state(seed)
    _computer_turns(row, state)
    for key, value in _stored(state).items():
        setattr(row, key, value)
    db.session.add(row)
    _remember(row.token, state)
    return row


def new_seed() -> int:
    """A fresh game's seed (G9): drawn by the operating system, stored, and replayed from then on."""
    return secrets.randbits(48)


# --- the table -----------------------------------------------------------------------------


@bp.get("/games/<token>")
@student_required
def game_table(token: str) -> str:
    row = own_or_404(CardGame, token)
    state = _load(row)
    since = request.args.get("since", type=int)
    return render_template("play/game_table.html", **_table(row, state, since))


@bp.post("/games/<token>")
@student_required
def game_move(token: str) -> Response:
    """The student's move: checked, drill answers judged and recorded, then the computer seats play."""
    row = own_or_404(CardGame, token)
    here = url_for("play.game_table", token=token)
    form = CardGameMoveForm()
    if row.result != "playing":
        flash("This game is over; nothing changed.", "info")
        return redirect(here)
    if not form.validate():
        flash(" ".join(e for errors in form.errors.values() for e in errors), "error")
        return redirect(here)
    if form.integer(form.ply) != row.ply:
        flash(
            "That move was already made, or the page was out of date. Nothing changed; here is the game now.",
            "info",
        )
        return redirect(here)
    state = _load(row)
    before = row.ply
    try:
        answers = _play(row, state, form)
    except _RecordedRefusal as wrong:
        _record(row, before, wrong.answers)
        flash(str(wrong), "error")
        return redirect(here)
    except IllegalAction as refused:
        flash(f"{refused} Nothing changed.", "error")
        return redirect(here)
    _computer_turns(row, state)
    game_id, values = row.id, _stored(state)

    def save_move() -> bool:
        """The move, the computer's turns and the drill answers, all or nothing; False if the
        move was made already."""
        saved = db.session.execute(
            update(CardGame).where(CardGame.id == game_id, CardGame.ply == before).values(**values)
        ).rowcount
        if saved != 1:
            return False
        _record(row, before, answers)
        return True

    if not atomically(save_move):
        flash(
            "That move was already made, or the page was out of date. Nothing changed; here is the game now.",
            "info",
        )
        return redirect(here)
    _remember(row.token, state)
    _feedback(answers)
    return redirect(url_for("play.game_table", token=token, since=before))


class _RecordedRefusal(IllegalAction):
    """A drill answer that refuses the play but is recorded (a wrong number in GeoPlunge 51, a broken Zone)."""

    def __init__(self, message: str, answers: list[DrillAnswer]) -> None:
        super().__init__(message)
        self.answers = answers


def _play(row: CardGame, state: State, form: CardGameMoveForm) -> list[DrillAnswer]:
    """Apply the student's move to ``state`` and return the drill answers it carried.

    Nothing is written here: the caller saves the move and its answers in one unit of work.

    Raises:
        _RecordedRefusal: the play is refused but its judged drill answers count (the caller
            records them); ``state`` is unchanged.
        IllegalAction: the move is refused; ``state`` is unchanged.
    """
    if state.current_player() != 0:
        raise IllegalAction("It is not your turn.")
    if isinstance(state, WarState) and not row.drill and form.integer(form.battles):
        _play_battles(state, min(form.integer(form.battles) or 1, MAX_BATTLES))
        return []
    action = form.integer(form.action)
    if action is None:
        raise IllegalAction("Choose a move.")
    move = state.decode(action)
    answers: list[DrillAnswer] = []
    if row.drill:
        answers = _drill_answers(row, state, action, form)
    if isinstance(state, FiftyOneState) and answers:
        # GeoPlunge 51 needs the exact number: a wrong one is refused as a play, and recorded.
        if not answers[0].right:
            card = state.game.card(move.card)  # type: ignore[arg-type]
            raise _RecordedRefusal(
                f"Not quite: {card.name} is {answers[0].judgement.expected} in {move.category.value.lower()}, "  # type: ignore[union-attr]
                f"not {answers[0].judgement.given}. The count needs the exact number: try again.",
                answers,
            )
        if action not in state.legal_actions():
            # The ranking was right; the play breaks F1 all the same (the message apply_action gives).
            raise _RecordedRefusal(f"{state.why_illegal(action)} Nothing changed.", answers)
    state.apply_action(action)
    return answers


def _drill_answers(
    row: CardGame, state: State, action: int, form: CardGameMoveForm
) -> list[DrillAnswer]:
    """Judge what the student said with a drill move; an unreadable answer refuses the move (nothing recorded)."""
    deck = get_deck()
    move = state.decode(action)
    if move.card is not None and move.card not in state.observation(0).get("hand", [move.card]):
        raise IllegalAction("That card is not in your hand.")
    try:
        if isinstance(state, FiftyOneState):
            return [judge_announced(deck, move.card, move.category, form.number.data or "")]  # type: ignore[arg-type]
        if isinstance(state, RanksState) and move.kind == "lead":
            return [judge_lead(deck, move.card, move.category, form.number.data or "")]  # type: ignore[arg-type]
        if isinstance(state, RanksState) and state.phase == "trick":
            if form.call.data not in ("wins", "loses"):
                raise UnreadableAnswer(
                    "Say whether your card wins the trick: choose “It wins” or “It loses”."
                )
            if action not in state.legal_actions():
                raise IllegalAction(state.why_illegal(action))
            return [judge_follow(state, move.card, form.call.data == "wins")]  # type: ignore[arg-type]
        if isinstance(state, TossState) and move.kind == "play" and state.current_player() == 0:
            return _toss_answers(row, state, action, move.card, form)  # type: ignore[arg-type]
        if isinstance(state, ClashState) and move.kind == "lead":
            return [judge_lead(deck, move.card, move.category, form.number.data or "")]  # type: ignore[arg-type]
        if isinstance(state, ClashState):
            if form.call.data not in ("worst", "not"):
                raise UnreadableAnswer(
                    "Say first whether your card is the worst so far: choose one of the two buttons."
                )
            if action not in state.legal_actions():
                raise IllegalAction(state.why_illegal(action))
            return [
                judge_clash_worst(deck, state.observation(0), move.card, form.call.data == "worst")
            ]  # type: ignore[arg-type]
        if isinstance(state, WarState) and action == SETTLE:
            if state.waiting() != "settle":
                raise IllegalAction(state.why_illegal(action))
            return judge_war_call(state, form.call.data or "")
    except UnreadableAnswer as unreadable:
        raise IllegalAction(str(unreadable)) from None
    return []


def _toss_answers(
    row: CardGame, state: TossState, action: int, postal: str, form: CardGameMoveForm
) -> list[DrillAnswer]:
    """GeoPower Toss drill: following, the Zone (colours hidden) and whether the card beats the best so far."""
    obs = state.observation(0)
    if not obs["trick"]:
        return []  # leading: any card may be led, and there is nothing to beat yet
    if form.call.data not in ("beats", "not"):
        raise UnreadableAnswer(
            "Say first whether your card beats the best card of the led zone so far."
        )
    deck = get_deck()
    zone = judge_toss_zone(deck, obs, postal)
    if not zone.right and action not in state.legal_actions():
        # T2 broken: a wrong answer on the card's zone fact
        raise _RecordedRefusal(
            f"{zone.judgement.note} Nothing was played; this counts as practice on {deck[postal].name}'s zone.",
            [zone],
        )
    answers = [zone] if zone.right else []
    return [*answers, judge_toss_beats(deck, obs, postal, form.call.data == "beats")]


def _play_battles(state: WarState, battles: int) -> None:
    target = state.battles + battles
    while not state.is_terminal() and state.battles < target:
        state.apply_action(state.legal_actions()[0])


def _computer_turns(row: CardGame, state: State) -> None:
    level = Level(row.level)
    play_computer_turns(state, {seat: level for seat in range(1, row.players)}, row.seed)


def _stored(state: State) -> dict[str, Any]:
    """The columns that record ``state``: its actions, version and, at the end, the result."""
    now = utcnow()
    values: dict[str, Any] = {
        "actions": list(state.history),
        "ply": len(state.history),
        "updated_at": now,
    }
    if state.is_terminal():
        returns = state.returns()
        values["result"] = (
            "drawn" if len(set(returns)) == 1 else ("won" if returns[0] == max(returns) else "lost")
        )
        values["finished_at"] = now
    return values


def _record(row: CardGame, ply: int, answers: list[DrillAnswer]) -> None:
    """Record drill answers in the memory model and the game's tally: only the first answer per
    fact and move counts. One unit of work: the move's, or one of its own for a refused play."""
    if not answers:
        return
    student = current_student()
    game_id = row.id
    outcomes = [
        srs.Outcome(
            fact_key=answer.fact.key,
            verdict=answer.judgement.verdict,
            mode=MODES[row.game],
            form=answer.form,
            round_token=f"game:{row.token}",
            item=f"{ply}:{answer.fact.key}",
            answer=answer.judgement.given[:200],
        )
        for answer in answers
    ]

    def save_answers() -> None:
        for answer, outcome in zip(answers, outcomes):
            if record(student, outcome).created:
                db.session.execute(
                    update(CardGame)
                    .where(CardGame.id == game_id)
                    .values(
                        drill_answers=CardGame.drill_answers + 1,
                        drill_right=CardGame.drill_right + int(answer.right),
                    )
                )

    atomically(save_answers)


def _feedback(answers: list[DrillAnswer]) -> None:
    """Tell the student how their drill answer went, with the fact behind it."""
    if not answers:
        return
    first = answers[0].judgement
    if all(answer.right for answer in answers):
        flash(f"Right! {first.note}".strip(), "success")
    else:
        flash(
            f"Not this time: you said “{first.given}”; the answer is “{first.expected}”. {first.note}".strip(),
            "error",
        )


# --- replay, with a small cache -----------------------------------------------------------


def _game(row: CardGame):  # type: ignore[no-untyped-def]
    return make_game(row.game, get_deck(), Params(row.players, row.team_size, row.first_leader))


def _load(row: CardGame) -> State:
    with _CACHE_LOCK:
        cached = _CACHE.get((row.token, row.ply))
        if cached is not None:
            _CACHE.move_to_end((row.token, row.ply))
            return cached.clone()
    state = replay(_game(row), row.seed, row.actions)
    _remember(row.token, state)
    return state


def _remember(token: str, state: State) -> None:
    with _CACHE_LOCK:
        _CACHE[(token, len(state.history))] = state.clone()
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)


# --- what the student sees -----------------------------------------------------------------


def _table(row: CardGame, state: State, since: int | None) -> dict[str, Any]:
    """Everything the table template needs, built from the student's observation and the public log."""
    deck = get_deck()
    obs = state.observation(0)
    your_turn = state.current_player() == 0
    log = [event for event in state.log if event.ply >= _log_start(state)]
    fresh = [event for event in log if since is not None and event.ply >= since]
    view: dict[str, Any] = {
        "row": row,
        "title": TITLES[row.game],
        "obs": obs,
        "your_turn": your_turn,
        "over": state.is_terminal(),
        "log": log[-LOG_SHOWN:],
        "fresh": fresh,
        "form": CardGameMoveForm(formdata=None),
        "hand": [deck[p] for p in obs.get("hand", [])],
        "hide_ranks": row.drill and not state.is_terminal(),
        "level": Level(row.level),
    }
    if isinstance(state, FiftyOneState):
        view.update(_view_51(state, obs, your_turn, row))
    elif isinstance(state, RanksState):
        view.update(_view_ranks(state, obs, your_turn, row))
    elif isinstance(state, WarState):
        view.update(_view_war(state, obs, row))
    elif isinstance(state, TossState):
        view.update(_view_toss(state, obs, your_turn, row))
    elif isinstance(state, ClashState):
        view.update(_view_clash(state, obs, your_turn, row))
    return view


def _log_start(state: State) -> int:
    """GeoPlunge 51 shows the round being played (from its deal); the other games their whole log."""
    deals = [event.ply for event in state.log if event.kind == "deal"]
    return deals[-1] if deals else 0


def _seat_names(state: State) -> list[str]:
    if isinstance(state, FiftyOneState | TossState | ClashState):
        return [state.seat_name(seat) for seat in range(state.game.players)]
    return ["You", "The computer"]


def _plays(deck: Deck, plays: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    return [
        {"who": names[play["seat"]], "seat": play["seat"], "card": deck[play["card"]]}
        for play in plays
    ]


def _view_51(
    state: FiftyOneState, obs: dict[str, Any], your_turn: bool, row: CardGame
) -> dict[str, Any]:
    deck = get_deck()
    params = state.game.params
    legal = set(state.legal_actions()) if your_turn else set()
    plays = []
    for postal in obs["hand"]:
        card = deck[postal]
        options = []
        for category in Category:
            action = state.game.action(postal, category)
            options.append(
                {
                    "action": action,
                    "category": category,
                    "rank": card.rank(category),
                    "legal": action in legal,
                }
            )
        choices = [(o["action"], o["category"]) for o in options]
        plays.append(
            {
                "card": card,
                "options": options,
                "choices": choices,
                "playable": any(o["legal"] for o in options),
            }
        )
    names = _seat_names(state)
    seats = [
        {
            "name": names[seat],
            "cards": obs["hand_counts"][seat],
            "side": params.side_of(seat),
            "turn": obs["current_player"] == seat,
            "dealer": obs["dealer"] == seat,
        }
        for seat in range(params.players)
    ]
    sides = [
        {
            "name": state.side_name(side),
            "points": obs["scores"][side],
            "members": [names[s] for s in params.seats_of(side)],
        }
        for side in range(params.sides)
    ]
    played = [
        dict(play, name=deck[play["card"]].name, who=names[play["seat"]]) for play in obs["played"]
    ]
    return {
        "plays": plays,
        "seats": seats,
        "sides": sides,
        "played": played,
        "teams": params.team_size > 1,
    }


def _view_ranks(
    state: RanksState, obs: dict[str, Any], your_turn: bool, row: CardGame
) -> dict[str, Any]:
    deck = get_deck()
    trick = obs["tricks"][-1] if obs["tricks"] and obs["tricks"][-1]["winner"] is None else None
    led = None
    if trick is not None:
        led = {
            "card": deck[trick["cards"][trick["leader"]]],
            "category": Category.from_slug(trick["category"]),
        }
    past = []
    for number, t in enumerate(obs["tricks"], start=1):
        if t["winner"] is None:
            continue
        category = Category.from_slug(t["category"])
        past.append(
            {
                "number": number,
                "category": category,
                "lower": number <= LOW_TRICKS,
                "cards": [deck[p] for p in t["cards"]],
                "winner": t["winner"],
                "leader": t["leader"],
            }
        )
    legal = state.legal_actions() if your_turn else []
    leading = bool(legal) and legal[0] >= LEAD
    return {
        "phase": obs["phase"],
        "trick_number": obs["trick_number"],
        "lower": obs["trick_number"] <= LOW_TRICKS,
        "won": obs["won"],
        "led": led,
        "past": past,
        "leading": leading,
        "discarded": [deck[p] for p in obs["discarded"]],
        "lead_action": state.game.lead_action,
        "lead_options": lambda postal: [(state.game.lead_action(postal, c), c) for c in Category],
        "card_action": state.game.card_action,
        "categories": list(Category),
    }


def _view_toss(
    state: TossState, obs: dict[str, Any], your_turn: bool, row: CardGame
) -> dict[str, Any]:
    deck = get_deck()
    params = state.game.params
    names = _seat_names(state)
    legal = set(state.legal_actions()) if your_turn else set()
    powers = {card.id: card for card in deck.power_cards}
    geopower = Category.from_slug(obs["geopower"]) if obs["geopower"] else None
    led_zone = deck[obs["trick"][0]["card"]].zone if obs["trick"] else None
    sides = []
    for side in range(params.sides):
        seats = params.seats_of(side)
        sides.append(
            {
                "name": state.side_name(side),
                "points": obs["scores"][side],
                "called": side in obs["called"],
                "tricks": sum(obs["won"][s] for s in seats),
                "members": [names[s] for s in seats],
            }
        )
    seats = [
        {
            "name": names[seat],
            "cards": obs["hand_counts"][seat],
            "tricks": obs["won"][seat],
            "turn": obs["current_player"] == seat,
            "dealer": obs["dealer"] == seat,
        }
        for seat in range(params.players)
    ]
    past = [
        {"number": n, "plays": _plays(deck, t["cards"], names), "winner": names[t["winner"]]}
        for n, t in enumerate(obs["tricks"], start=1)
    ]
    return {
        "phase": obs["phase"],
        "geopower": geopower,
        "power_on_table": [powers[i] for i in obs["power_cards"]],
        "removed": [powers[i] for i in obs["removed"]],
        "remove_action": lambda card: TOSS_REMOVE + card.id,
        "can_call": TOSS_CALL in legal,
        "call_action": TOSS_CALL,
        "trick": _plays(deck, obs["trick"], names),
        "led_zone": led_zone,
        "following": bool(obs["trick"]),
        "legal": legal,
        "card_action": state.game.index.__getitem__,
        "seats": seats,
        "sides": sides,
        "teams": params.team_size > 1,
        "past": past,
        "trick_number": obs["trick_number"],
    }


def _view_clash(
    state: ClashState, obs: dict[str, Any], your_turn: bool, row: CardGame
) -> dict[str, Any]:
    deck = get_deck()
    names = _seat_names(state)
    trick = obs["trick"]
    leading = your_turn and not trick["cards"]
    seats = [
        {
            "name": names[seat],
            "cards": obs["hand_counts"][seat],
            "tricks": obs["won"][seat],
            "dealt": obs["dealt"][seat],
            "in_game": obs["in_game"][seat],
            "turn": obs["current_player"] == seat,
            "dealer": obs["dealer"] == seat,
        }
        for seat in range(state.game.players)
    ]
    past = [
        {
            "number": n,
            "category": Category.from_slug(t["category"]),
            "plays": _plays(deck, t["cards"], names),
            "winner": names[t["winner"]],
        }
        for n, t in enumerate(obs["tricks"], start=1)
    ]
    return {
        "seats": seats,
        "trick": _plays(deck, trick["cards"], names),
        "category": Category.from_slug(trick["category"]) if trick["category"] else None,
        "leading": leading,
        "lead_action": state.game.lead_action,
        "lead_options": lambda postal: [(state.game.lead_action(postal, c), c) for c in Category],
        "card_action": state.game.card_action,
        "categories": list(Category),
        "past": past,
        "round": obs["round"],
        "trick_number": obs["trick_number"],
        "out": not obs["in_game"][0],
    }


def _view_war(state: WarState, obs: dict[str, Any], row: CardGame) -> dict[str, Any]:
    deck = get_deck()
    settled_view = not (row.drill and obs["waiting"] == "settle")
    return {
        "piles": obs["pile_counts"],
        "face_up": [deck[p] for p in obs["face_up"]],
        "face_down": obs["face_down"],
        "waiting": obs["waiting"],
        "battles": obs["battles"],
        "at_war": obs["at_war"],
        "calls": WAR_CALLS,
        "show_face_up_ranks": settled_view,
        "turn": TURN,
        "settle": SETTLE,
        "max_battles": MAX_BATTLES,
    }
