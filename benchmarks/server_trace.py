"""Run ``umpire serve`` with a trace of what makes the latency tail: for benchmarks only.

``python -m benchmarks.server_trace OUT.json serve ...`` runs the server exactly as
``umpire serve ...`` does, and records, with ``time.monotonic()`` stamps:

- every garbage collection (generation, pause, objects collected);
- the event loop's stalls: a callback due every millisecond notes how late it ran
  (lateness over 2 ms), so a long collection, a long room job or a slow burst of
  callbacks shows as a stall;
- every group commit (when it ended, how long it took, how many writes);
- every ``act`` as the connection saw it (from handing it to the room to its reply: the
  room's queue, the core, and the wait for the commit) and every journal write as the room
  saw it (from the hand-off to the store until durable).

At exit it writes them to ``OUT.json``; ``python -m benchmarks.server_load --trace`` starts the
server this way and summarises the measured window. The hooks wrap public callables
(``Metrics.action``, ``Metrics.store_commit``, ``journal.commit``) and ``gc.callbacks``;
tracing costs a little CPU (the stall probe wakes the loop 1,000 times a second), so
measure CPU per action without it.
"""

from __future__ import annotations

import asyncio
import atexit
import gc
import itertools
import json
import os
import sys
import time
from array import array
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from benchmarks.common import percentile
from server import cli
from server.ops import metrics as ops
from server.store import journal

#: (start, pause seconds, generation, collected, frozen objects then)
collections: list[tuple[float, float, int, int, int]] = []
#: (when it ended, seconds, writes)
commits: list[tuple[float, float, int]] = []
#: when the reply came, seconds, accepted (1.0 or 0.0), flat: a float array makes no
#: Python object per action, so the trace does not grow the heap it measures
acts = array("d")
#: when it became durable, seconds waited (flat, as ``acts``)
journal_waits = array("d")
#: (when the probe ran, seconds late)
stalls: list[tuple[float, float]] = []
#: (when, resident set size in MB, Python's allocated memory blocks), every second
rss: list[tuple[float, float, int]] = []
_PAGE_MB = os.sysconf("SC_PAGE_SIZE") / 1e6

_gc_started = [0.0, 0.0]
#: the CPU time (of the collecting thread) of every collection
collection_cpu: list[float] = []
#: with UMPIRE_TRACE_CENSUS=1: the most common types in the generation about to be
#: collected, per collection (slow: only to find out what survives)
census: list[tuple[float, int, int, list[tuple[str, int]]]] = []
_CENSUS = os.environ.get("UMPIRE_TRACE_CENSUS") == "1"
#: with UMPIRE_TRACE_HEAP=1: every 20 s, the most common types of all tracked objects
heap: list[tuple[float, int, list[tuple[str, int]]]] = []
_HEAP = os.environ.get("UMPIRE_TRACE_HEAP") == "1"


def _on_gc(phase: str, info: dict[str, int]) -> None:
    if phase == "start" and _CENSUS:
        generation = info["generation"]
        objects = gc.get_objects(generation)
        counts = Counter(type(o).__qualname__ for o in objects)
        census.append((time.monotonic(), generation, len(objects), counts.most_common(15)))
        del objects
    now = time.monotonic()
    if phase == "start":
        _gc_started[0] = now
        _gc_started[1] = time.thread_time()
    else:
        start = _gc_started[0]
        collection_cpu.append(time.thread_time() - _gc_started[1])
        # (counting the frozen objects walks them all: only now and then)
        frozen = gc.get_freeze_count() if len(collections) % 20 == 0 else -1
        collections.append((start, now - start, info["generation"], info["collected"], frozen))


def _wrap_metrics() -> None:
    action = ops.Metrics.action
    store_commit = ops.Metrics.store_commit

    def traced_action(self: ops.Metrics, seconds: float, accepted: bool) -> None:
        acts.extend((time.monotonic(), seconds, 1.0 if accepted else 0.0))
        action(self, seconds, accepted=accepted)

    def traced_commit(self: ops.Metrics, seconds: float, writes: int) -> None:
        commits.append((time.monotonic(), seconds, writes))
        store_commit(self, seconds, writes)

    setattr(ops.Metrics, "action", traced_action)  # noqa: B010 (a benchmark's hook)
    setattr(ops.Metrics, "store_commit", traced_commit)  # noqa: B010


def _wrap_journal() -> None:
    commit: Callable[..., Awaitable[Any]] = journal.commit

    async def traced(store: Any, entry: journal.Entry) -> Any:
        started = time.monotonic()
        result = await commit(store, entry)  # (a rated finish's rating changes)
        now = time.monotonic()
        journal_waits.extend((now, now - started))
        return result

    setattr(journal, "commit", traced)  # noqa: B010


def _start_probe() -> None:
    """Once the loop runs: a callback every millisecond that notes its lateness."""
    original = asyncio.BaseEventLoop.run_forever
    started = [False]

    def run_forever(self: asyncio.BaseEventLoop) -> None:
        if not started[0]:
            started[0] = True
            period = 0.001

            def tick(due: float) -> None:
                now = self.time()
                late = now - due
                if late > 0.002:
                    stalls.append((time.monotonic(), late))
                if not rss or now - rss[-1][0] >= 1.0:
                    with open("/proc/self/statm") as statm:
                        resident = int(statm.read().split()[1]) * _PAGE_MB
                    rss.append((time.monotonic(), resident, sys.getallocatedblocks()))
                    if _HEAP and len(rss) % 20 == 0:
                        objects = gc.get_objects()
                        counts = Counter(type(o).__qualname__ for o in objects)
                        shapes = Counter(
                            "tuple(" + ",".join(type(x).__name__ for x in o[:4]) + ")"
                            for o in objects
                            if type(o) is tuple
                        )
                        top = counts.most_common(25) + shapes.most_common(10)
                        heap.append((time.monotonic(), len(objects), top))
                        del objects
                self.call_at(now + period, tick, now + period)

            self.call_soon(tick, self.time())
        original(self)

    setattr(asyncio.BaseEventLoop, "run_forever", run_forever)  # noqa: B010


def _dump(path: str) -> None:
    data = {
        "collections": collections,
        "commits": commits,
        "acts": [acts[i : i + 3].tolist() for i in range(0, len(acts), 3)],
        "journal_waits": [
            journal_waits[i : i + 2].tolist() for i in range(0, len(journal_waits), 2)
        ],
        "stalls": stalls,
        "rss": rss,
        "census": census,
        "heap": heap,
        "collection_cpu": collection_cpu,
    }
    with open(path, "w") as out:
        json.dump(data, out)


def main() -> int:
    """``python -m benchmarks.server_trace OUT.json serve ...``: run the server traced,
    write OUT.json."""
    path, argv = sys.argv[1], sys.argv[2:]
    switch = os.environ.get("UMPIRE_TRACE_SWITCH")  # (experiments: the GIL's switch interval)
    if switch:
        sys.setswitchinterval(float(switch))
    gc.callbacks.append(_on_gc)
    _wrap_metrics()
    _wrap_journal()
    _start_probe()
    atexit.register(_dump, path)
    return cli.main(argv)


def _p50_p99(values: list[float]) -> str:
    return f"p50 {percentile(values, 0.5):.1f} / p99 {percentile(values, 0.99):.1f}"


def summary(path: str, start: float, end: float) -> str:
    """A few lines on the trace in ``path`` between ``start`` and ``end`` (monotonic)."""
    with open(path) as source:
        data = json.load(source)

    def within(rows: list[list[Any]]) -> list[list[Any]]:
        return [row for row in rows if start <= row[0] <= end]

    lines = []
    gcs = within(data["collections"])
    pauses = [1000 * row[1] for row in gcs]
    frozen = [row[4] for row in gcs if row[4] >= 0]
    by_gen = {g: sum(1 for row in gcs if row[2] == g) for g in (0, 1, 2)}
    lines.append(
        f"  gc: {len(gcs)} collections (by generation {by_gen}), "
        f"pauses {sum(pauses):.0f} ms in all (CPU of every collection in the run: "
        f"{1000 * sum(data['collection_cpu']):.0f} ms), p99 {percentile(pauses, 0.99):.1f} ms, "
        f"longest {max(pauses, default=0):.1f} ms"
        + (f"; frozen objects {frozen[0]} -> {frozen[-1]}" if frozen else "")
    )
    commits_in = within(data["commits"])
    if commits_in:
        ms = [1000 * row[1] for row in commits_in]
        sizes = [row[2] for row in commits_in]
        gaps = [1000 * (b[0] - a[0]) for a, b in itertools.pairwise(commits_in)]
        lines.append(
            f"  commits: {len(ms)}, duration {_p50_p99(ms)} ms, "
            f"writes p50 {percentile(sizes, 0.5):.0f} / max {max(sizes)}, "
            f"gap between ends {_p50_p99(gaps)} ms"
        )
    acts_in = [1000 * row[1] for row in within(data["acts"]) if row[2]]
    waits = [1000 * row[1] for row in within(data["journal_waits"])]
    lines.append(
        f"  act in the server (room queue + core + commit): {_p50_p99(acts_in)} ms; "
        f"journal wait {_p50_p99(waits)} ms"
    )
    late = [1000 * row[1] for row in within(data["stalls"])]
    lines.append(
        f"  loop stalls over 2 ms: {len(late)}, {sum(late):.0f} ms in all, "
        f"over 10 ms: {sum(1 for x in late if x > 10)}, longest {max(late, default=0):.1f} ms"
    )
    sizes = data["rss"]
    if sizes:
        step = max(1, len(sizes) // 8)
        lines.append(
            f"  RSS (MB) every {step}s from the start: "
            + " ".join(f"{row[1]:.0f}" for row in sizes[::step])
            + f" (last {sizes[-1][1]:.0f}); Python's allocated blocks (thousands): "
            + " ".join(f"{row[2] / 1000:.0f}" for row in sizes[::step])
            + f" (last {sizes[-1][2] / 1000:.0f})"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
