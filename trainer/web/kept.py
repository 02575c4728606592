"""What a server process keeps of what it made, for the next request that needs the same: at most
a number of entries, the least recently used forgotten first, safe across a worker's threads.

Kept per process (each gunicorn worker has its own), so only what any process could make again
the same way: rebuilt game states, drawn maps, a question's part of a page.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    """A bounded least-recently-used store of ``size`` entries."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The value kept for ``key``, else ``make()``'s, kept (made outside the lock: two threads
        may both make it, and either is right)."""
        found = self.get(key)
        if found is None:
            found = make()
            self.put(key, found)
        return found

    def clear(self) -> None:
        """Forget everything (as a restart does)."""
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
