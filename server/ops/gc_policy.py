"""The garbage collector's policy for ``umpire serve``: no young collections; a full
collection only once the heap has grown by a million objects (or by as many as the last
full collection kept, if more).

A running server allocates about a dozen tracked objects per action that live as long as
their game: the rooms' logs (events, their projections' dice lists, records). CPython's
collector finds nothing in them (they die by reference counting when their room closes)
but traverses them: a young collection comes after a given *net* growth (allocations less
deallocations), and as games end while others start, the young generation by then holds
everything allocated since the last collection and still alive, a large part of the live
heap. With the young threshold at 50,000 (what the server used before) a saturated
two-minute run made 12 collections of 10 to 140 ms of CPU each, longer as the run went on,
every one a pause of every room. Smaller thresholds with the survivors frozen after each
collection made more, shorter pauses but more CPU in all (measured: ``docs/benchmarks.md``,
"Speed, round 4").

Garbage in reference cycles is rare here (the collections above found 0 to 15 objects
each; a closed connection leaves 7 objects in cycles, a refused action none). So
automatic collection is off, the start-up heap is frozen (never traversed), and a timer
on the event loop reads the collector's count of tracked objects allocated and not
freed since the last collection (``gc.get_count()[0]``, which costs nothing to read):
once it passes ``limit`` (the larger of ``floor`` and the number of objects the last full
collection kept), the loop makes one full collection. Memory therefore stays within the
live heap plus ``limit`` objects whatever leaks through cycles, and a server whose garbage
dies by reference counting, as this one's does, pays for a full collection only when its
heap has grown by ``limit`` objects. The floor, a million tracked objects, is above what
250 busy four-seat rooms hold (at most some 400,000: so a server warming up to that load
makes no collection at all), and at roughly 100 to 200 bytes an object bounds what
garbage cycles can hold before a collection to some 100 to 200 MB; a full collection of
such a heap is a pause of up to a second, paid once per million objects of growth.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


class GcPolicy:
    """The policy for one process: :meth:`install` it on the server's loop, and
    :meth:`uninstall` it to restore CPython's automatic collection.

    ``floor`` is the least growth (in tracked objects) before a full collection, ``check``
    how often (seconds) the growth is read. :attr:`full_collections` counts the full
    collections made since :meth:`install`."""

    def __init__(self, floor: int = 1_000_000, check: float = 1.0) -> None:
        if floor < 1 or check <= 0:
            raise ValueError("floor must be at least 1 and check positive")
        self.floor = floor
        self.check = check
        self.limit = floor
        self.full_collections = 0
        #: told the objects collected after every full collection (for logs, metrics, tests)
        self.on_collect: Callable[[int], None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._saved: tuple[int, int, int] | None = None

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        """Collect and freeze what start-up made, turn automatic collection off, and
        watch the heap's growth from ``loop``."""
        gc.collect()
        gc.freeze()
        self._saved = gc.get_threshold()
        gc.set_threshold(0)  # (0: no automatic collection)
        self._loop = loop
        self._timer = loop.call_later(self.check, self._watch)

    def uninstall(self) -> None:
        """Stop watching, restore the thresholds (automatic collection), unfreeze."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None
        gc.unfreeze()
        self._loop = None

    def grown(self) -> int:
        """Tracked objects allocated and not freed since the last collection."""
        return gc.get_count()[0]

    def watch(self) -> bool:
        """A full collection if the heap has grown past the limit; True if one was made.
        (The installed policy calls it every ``check`` seconds.)"""
        if self.grown() > self.limit:
            self.collect()
            return True
        return False

    def _watch(self) -> None:
        self.watch()
        if self._loop is not None:
            self._timer = self._loop.call_later(self.check, self._watch)

    def collect(self) -> int:
        """One full collection now (the frozen start-up heap aside); the next comes once
        the heap has grown by as much as this one kept. Return the objects collected."""
        started = time.perf_counter()
        grown = self.grown()
        collected = gc.collect()
        kept = len(gc.get_objects(2))
        self.limit = max(self.floor, kept)
        self.full_collections += 1
        log.info(
            "gc: full collection after %d objects of growth: %d collected, %d kept, %.0f ms",
            grown,
            collected,
            kept,
            1000 * (time.perf_counter() - started),
        )
        if self.on_collect is not None:
            self.on_collect(collected)
        return collected
