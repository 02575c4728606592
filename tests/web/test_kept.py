"""trainer.web.kept: a process's bounded store of what it made, least recently used forgotten first."""

from __future__ import annotations

from trainer.web.kept import Kept


def test_the_least_recently_used_goes_first_and_a_made_value_is_kept():
    kept: Kept[str, int] = Kept(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # now "b" is the least recently used
    kept.put("c", 3)
    assert (kept.get("a"), kept.get("b"), kept.get("c"), len(kept)) == (1, None, 3, 2)
    made = []
    assert kept.get_or_make("d", lambda: made.append("d") or 4) == 4
    assert kept.get_or_make("d", lambda: made.append("again") or 5) == 4
    assert made == ["d"] and len(kept) == 2
