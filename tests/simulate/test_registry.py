"""The simulator's players register by mode slug (issue #20): a new mode adds a player module and
its round list, with no edit to the engine or to History."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest

from trainer.cards import load_deck
from trainer.modes import MODES
from trainer.simulate import PLAYS, ROUND_LISTS, Simulation, Task, plays, round_list, simulate_round

AT = dt.datetime(2025, 3, 14, 15, 0, tzinfo=dt.UTC)


def test_every_mode_has_a_player() -> None:
    # but the class game (issue 23), which a whole class plays at once, never one learner alone
    # (ruling C-G13)
    assert {m.slug for m in MODES if m.slug != "geoplunge-live"} <= set(PLAYS)
    assert "geoplunge-live" not in PLAYS


def test_a_player_is_registered_once() -> None:
    with pytest.raises(ValueError, match="plays 'review' already"):
        plays("review")(PLAYS["review"])


@pytest.fixture
def throwaway() -> Iterator[str]:
    """A player for a mode the app does not have, with its own list of rounds."""
    name = round_list("pretend_probe_rounds")

    @plays("pretend-probe")
    def play(
        sim: Simulation, slug: str, at: dt.datetime, task: Task | None
    ) -> tuple[dt.datetime, str | None]:
        token = sim._new_token("pretend_probe")
        sim.history.rows(name).append({"token": token, "created_at": at})
        return at, f"pretend_probe:{token}"

    try:
        yield name
    finally:
        del PLAYS["pretend-probe"]
        ROUND_LISTS.remove(name)


def test_a_new_mode_needs_no_edit_to_history(throwaway: str) -> None:
    history = simulate_round(load_deck(), "pretend-probe", AT)
    rows = getattr(history, throwaway)
    assert len(rows) == 1
    assert history.assignment_rounds[0]["round_token"] == f"pretend_probe:{rows[0]['token']}"
    with pytest.raises(AttributeError):
        history.not_a_list  # noqa: B018
