"""The hot-path metrics expose exactly what ``prometheus_client``'s own would."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st
from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.exposition import generate_latest

from server.ops.hot_metrics import HotCollector, HotCounter, HotHistogram

BUCKETS = (0.0005, 0.001, 0.0025, 0.01, 0.1, 1.0)


def _without_created(text: str) -> str:
    """The exposition with the ``_created`` timestamps' values blanked."""
    return re.sub(r"(_created(\{[^}]*\})?) \S+", r"\1 T", text)


@given(
    st.lists(st.sampled_from(["accepted", "refused"])),
    st.lists(st.floats(min_value=0.0, max_value=5.0) | st.sampled_from(BUCKETS)),
)
def test_same_exposition_as_prometheus_client(results: list[str], values: list[float]) -> None:
    theirs = CollectorRegistry()
    counter = Counter("umpire_actions", "Actions", ["result"], registry=theirs)
    children = {r: counter.labels(r) for r in ("accepted", "refused")}
    histogram = Histogram("umpire_x_seconds", "Durations", buckets=BUCKETS, registry=theirs)

    hot_counter = HotCounter("umpire_actions", "Actions", "result", ("accepted", "refused"))
    hot_histogram = HotHistogram("umpire_x_seconds", "Durations", BUCKETS)
    ours = CollectorRegistry()
    ours.register(HotCollector(hot_counter, hot_histogram))

    for result in results:
        children[result].inc()
        hot_counter.counts[result] += 1
    for value in values:
        histogram.observe(value)
        hot_histogram.observe(value)

    expected = _without_created(generate_latest(theirs).decode())
    assert _without_created(generate_latest(ours).decode()) == expected
    assert "umpire_actions_created" in expected and "umpire_x_seconds_created" in expected
