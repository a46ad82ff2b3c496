"""Counters and histograms for the hot path: plain numbers, exported at scrape time.

``prometheus_client``'s own :class:`~prometheus_client.Counter` and
:class:`~prometheus_client.Histogram` take a lock on every update (they may be shared
between threads). The server updates its per-action metrics from the event loop only, so
they are plain ``int``/``float`` fields here, and :class:`HotCollector` turns them into
the same metric families (names, help texts, labels, ``_created`` samples) when
``/metrics`` is scraped. Only the event loop's thread may update or collect them.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence

from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector
from prometheus_client.samples import Sample
from prometheus_client.utils import floatToGoString

#: how prometheus_client writes a bucket's bound (``+Inf``, ``0.005``...)
_bound_text: Callable[[float], str] = floatToGoString


class HotCounter:
    """A counter with one label whose values are known up front (e.g. a result)."""

    __slots__ = ("counts", "created", "documentation", "label", "name")

    def __init__(self, name: str, documentation: str, label: str, values: Sequence[str]) -> None:
        self.name = name
        self.documentation = documentation
        self.label = label
        #: the count of each label value; add to it directly (``counts[value] += 1``)
        self.counts: dict[str, int] = dict.fromkeys(values, 0)
        self.created = dict.fromkeys(values, time.time())

    def collect(self) -> Metric:
        """The counter's family, as ``prometheus_client.Counter`` exposes it."""
        family = CounterMetricFamily(self.name, self.documentation, labels=[self.label])
        for value, count in self.counts.items():
            family.add_metric([value], count, created=self.created[value])
        return family


class HotHistogram:
    """A histogram without labels: :meth:`observe` is a bisection and two additions."""

    __slots__ = ("bounds", "counts", "created", "documentation", "name", "total")

    def __init__(self, name: str, documentation: str, buckets: Sequence[float]) -> None:
        bounds = sorted(float(b) for b in buckets)
        if not bounds or bounds[-1] != float("inf"):
            bounds.append(float("inf"))
        self.name = name
        self.documentation = documentation
        self.bounds = tuple(bounds)
        #: observations per bucket (not cumulative: made so at scrape time)
        self.counts = [0] * len(bounds)
        self.total = 0.0
        self.created = time.time()

    def observe(self, value: float) -> None:
        """Count one observation (``le`` buckets: a value equal to a bound is inside it)."""
        self.counts[bisect_left(self.bounds, value)] += 1
        self.total += value

    def collect(self) -> Metric:
        """The histogram's family, as ``prometheus_client.Histogram`` exposes it."""
        cumulative = 0
        buckets: list[tuple[str, float]] = []
        for bound, count in zip(self.bounds, self.counts, strict=True):
            cumulative += count
            buckets.append((_bound_text(bound), cumulative))
        family = HistogramMetricFamily(
            self.name, self.documentation, buckets=buckets, sum_value=self.total
        )
        family.samples.append(Sample(f"{self.name}_created", {}, self.created, None, None))
        return family


class HotCollector(Collector):
    """Exports hot counters and histograms from a ``prometheus_client`` registry."""

    def __init__(self, *metrics: HotCounter | HotHistogram) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        for metric in self.metrics:
            yield metric.collect()
