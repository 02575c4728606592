"""Simulated learners: seeded review histories for demo schools and benchmark databases.

Pure Python (no Flask, no database). A :class:`Learner` is drawn from ``(seed, index)``: an
ability, a speed, study habits (some study most days, some rarely; weekends are lighter; a few
start late or drop off). :func:`simulate` then lives their days and returns what the app would
have stored, as plain dicts keyed by column name:

- review rounds dealt from the queue exactly as the study page deals them (:func:`srs.build_queue`,
  :func:`trainer.review.deal`: due facts first, then new ones in teaching order up to the daily
  limit), answered right with about the predicted recall (:func:`srs.recall`) shifted by the
  learner's ability and the fact's difficulty, judged by the real judges of :mod:`trainer.facts`,
  rated by :func:`srs.rate` and scheduled by :func:`srs.schedule` with the seed ``record()``
  uses, so the memory cards are the replay of the review log;
- games played with the real rules: State IQ, Dashing States and Border-Up races against the
  seeded computer teams, and card games (mostly in drill mode) against computer players, each
  with its stored record and the reviews its answers make.

Wrong answers are realistic: a map or capital is mistaken for a neighbouring state's, a postal
code for another with the same first letter, a rank is one or two off (close) or further.
Learners given :class:`Task` s (their teacher's assignments) work on them, some diligently.

The same arguments always give the same history (in any process, whatever the hash seed).
Speed matters (the benchmark school has a million reviews): the queue scans plain due times,
and the judge's verdicts are cached, since the same answers come back again and again.

The package: :mod:`~trainer.simulate.learner` draws the learners, :mod:`~trainer.simulate.history`
holds what they did, :mod:`~trainer.simulate.engine` lives their days and remembers for them, and
each mode's player is a module of :mod:`trainer.simulate.modes`, registered by mode slug.
"""

from trainer.simulate.engine import (
    PLAYS,
    SESSIONS,
    Play,
    Simulation,
    plays,
    plays_sessions,
    simulate,
    simulate_round,
    simulate_task,
)
from trainer.simulate.history import LATE_DAYS, ROUND_LISTS, History, Task, round_list
from trainer.simulate.learner import (
    ACTIVITY_MIX,
    CARD_GAME,
    CARD_GAME_SESSIONS,
    KINDS,
    REVIEW,
    WEEKEND_FACTOR,
    Learner,
    make_learner,
)
from trainer.simulate.modes.border_up import BORDER_UP
from trainer.simulate.modes.card_games import DRILL_GAMES, GAME_MODES, WAR
from trainer.simulate.modes.combo import COMBO, COMBO_MATCH_GAMES, COMBO_MATCHES
from trainer.simulate.modes.dashing import DASHING, DASHING_FACETS
from trainer.simulate.modes.state_iq import STATE_IQ, STATE_IQ_FACETS

__all__ = [
    "ACTIVITY_MIX",
    "BORDER_UP",
    "CARD_GAME",
    "CARD_GAME_SESSIONS",
    "COMBO",
    "COMBO_MATCHES",
    "COMBO_MATCH_GAMES",
    "DASHING",
    "DASHING_FACETS",
    "DRILL_GAMES",
    "GAME_MODES",
    "KINDS",
    "LATE_DAYS",
    "PLAYS",
    "REVIEW",
    "ROUND_LISTS",
    "SESSIONS",
    "STATE_IQ",
    "STATE_IQ_FACETS",
    "WAR",
    "WEEKEND_FACTOR",
    "History",
    "Learner",
    "Play",
    "Simulation",
    "Task",
    "make_learner",
    "plays",
    "plays_sessions",
    "round_list",
    "simulate",
    "simulate_round",
    "simulate_task",
]
