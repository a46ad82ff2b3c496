"""Operations: ``/healthz`` and Prometheus ``/metrics`` on the websocket server's port.

:class:`Metrics` owns a private prometheus-client registry (so several servers can live in
one process, as in the tests). Counters and histograms are updated by the app (actions)
and the store (group commits), as plain numbers (:mod:`server.ops.hot_metrics`: no lock on the
hot path), and read from the server at scrape time (connections, rooms,
games by state, the MQTT feed's counters). :meth:`Metrics.process_request` is the
``process_request`` hook of ``websockets.serve``: a plain HTTP ``GET /healthz`` or
``GET /metrics`` is answered there and never becomes a websocket connection.

:class:`LoopLag` measures the event loop's lag: a task that asks to wake up every 50 ms
and records how late it woke (``umpire_event_loop_lag_seconds``, a histogram, and
``umpire_event_loop_lag_p99_seconds`` over the last minute). A room, a commit or a ping
that waits behind blocking work waits about as long.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import time
from collections import Counter as Tally
from collections import deque
from collections.abc import Iterator
from http import HTTPStatus
from typing import TYPE_CHECKING

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import generate_latest
from prometheus_client.registry import Collector
from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from server import __version__
from server.feed.bus import NO_BUS
from server.ops.hot_metrics import HotCollector, HotCounter, HotHistogram

if TYPE_CHECKING:
    from server.net.app import UmpireServer

#: request paths answered over plain HTTP
HEALTH_PATH = "/healthz"
METRICS_PATH = "/metrics"

_LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
_LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0)
#: seconds between two wake-ups of the lag probe, and how many lags the p99 is taken over
LAG_INTERVAL = 0.05
LAG_WINDOW = 1200


class LoopLag:
    """The event loop's lag: how late a task asking to wake every ``interval`` wakes up.

    :meth:`run` is that task (start it with the server, cancel it at the end); each lag is
    observed in ``histogram`` and kept in a window of the last ``window`` for quantiles."""

    def __init__(
        self, histogram: Histogram, interval: float = LAG_INTERVAL, window: int = LAG_WINDOW
    ) -> None:
        self.histogram = histogram
        self.interval = interval
        self.recent: deque[float] = deque(maxlen=window)

    async def run(self) -> None:
        """Measure until cancelled."""
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + self.interval
            await asyncio.sleep(self.interval)
            lag = max(0.0, loop.time() - due)
            self.histogram.observe(lag)
            self.recent.append(lag)

    def quantile(self, q: float) -> float:
        """The ``q`` quantile (nearest rank) of the recent lags, 0 before any."""
        if not self.recent:
            return 0.0
        ordered = sorted(self.recent)
        return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


class _Rate:
    """Events per second over the last ``window`` whole seconds (cheap to update)."""

    def __init__(self, window: int = 10) -> None:
        self.window = window
        self._counts = [0] * window
        self._stamps = [-1] * window

    def add(self, now: float) -> None:
        second = int(now)
        slot = second % self.window
        if self._stamps[slot] != second:
            self._stamps[slot] = second
            self._counts[slot] = 0
        self._counts[slot] += 1

    def per_second(self, now: float) -> float:
        second = int(now)
        total = sum(
            count
            for count, stamp in zip(self._counts, self._stamps, strict=True)
            if second - self.window < stamp < second
        )
        return total / (self.window - 1)


class Metrics:
    """The server's metrics and its HTTP endpoints."""

    def __init__(self, server: UmpireServer) -> None:
        self.server = server
        self.registry = CollectorRegistry()
        # updated once per action or commit, from the event loop: plain numbers
        # (server.ops.hot_metrics), no lock
        self.actions = HotCounter(
            "umpire_actions",
            "Actions received, by result (accepted, refused)",
            "result",
            ("accepted", "refused"),
        )
        self.action_latency = HotHistogram(
            "umpire_action_latency_seconds",
            "From an act frame's arrival to its ack (engine, durable write, broadcast)",
            _LATENCY_BUCKETS,
        )
        self.store_write = HotHistogram(
            "umpire_store_write_seconds",
            "Duration of one SQLite group commit (every pending write of every room)",
            _LATENCY_BUCKETS,
        )
        self._counts = self.actions.counts
        self.registry.register(HotCollector(self.actions, self.action_latency, self.store_write))
        self.loop_lag = Histogram(
            "umpire_event_loop_lag_seconds",
            f"How late the event loop woke a task that sleeps {LAG_INTERVAL:g} s at a time",
            buckets=_LAG_BUCKETS,
            registry=self.registry,
        )
        self.lag = LoopLag(self.loop_lag)
        self._lag_task: asyncio.Task[None] | None = None
        self._rate = _Rate()
        self.registry.register(_ServerCollector(self))
        self.registry.register(_LagCollector(self.lag))
        quiet_probes()

    def start(self) -> None:
        """Start measuring the event loop's lag (call from the running loop)."""
        if self._lag_task is None:
            self._lag_task = asyncio.create_task(self.lag.run(), name="loop-lag")

    async def close(self) -> None:
        """Stop measuring (server shutdown)."""
        task, self._lag_task = self._lag_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def action(self, seconds: float, accepted: bool) -> None:
        """Count one action and its latency (call after the room answered)."""
        if accepted:
            self._counts["accepted"] += 1
            self._rate.add(time.monotonic())
        else:
            self._counts["refused"] += 1
        self.action_latency.observe(seconds)

    def store_commit(self, seconds: float, writes: int) -> None:
        """Observe one group commit (the store's ``on_commit`` hook)."""
        self.store_write.observe(seconds)

    def actions_per_second(self) -> float:
        """Accepted actions per second over the last few seconds."""
        return self._rate.per_second(time.monotonic())

    def exposition(self) -> bytes:
        """The Prometheus text exposition of every metric."""
        return generate_latest(self.registry)

    def health(self) -> tuple[bool, dict[str, object]]:
        """Whether the server is serving and can save, and a few facts for humans: a
        store whose newest write failed, or a room paused because it cannot save, makes
        the server unhealthy (``cannot_save``) until writes succeed again."""
        server = self.server
        serving = server._closing is None and server._server is not None
        failing = server.store.failing
        paused = paused_rooms(server)
        ok = serving and not failing and not paused
        status = "stopping" if not serving else "cannot_save" if not ok else "ok"
        return ok, {
            "status": status,
            "version": __version__,
            "connections": connections(server),
            "rooms": len(server.lobby.rooms),
            "paused_rooms": paused,
            "store_failing": failing,
            "mqtt": None if server.bus is NO_BUS else server.bus.connected,
        }

    def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Answer ``GET /healthz`` and ``GET /metrics``; let anything else through."""
        path = request.path.split("?", 1)[0]
        if path == HEALTH_PATH:
            ok, facts = self.health()
            status = HTTPStatus.OK if ok else HTTPStatus.SERVICE_UNAVAILABLE
            response = connection.respond(status, json.dumps(facts) + "\n")
            _set_header(response, "Content-Type", "application/json")
            return response
        if path == METRICS_PATH:
            response = connection.respond(HTTPStatus.OK, self.exposition().decode())
            _set_header(response, "Content-Type", CONTENT_TYPE_LATEST)
            return response
        return None


def connections(server: UmpireServer) -> int:
    """The server's open websocket connections (house bots included)."""
    return sum(server._per_address.values())


def paused_rooms(server: UmpireServer) -> int:
    """The rooms paused because the store cannot write their games."""
    return sum(1 for room in server.lobby.rooms.values() if room.paused)


class QuietProbes(logging.Filter):
    """websockets logs two INFO lines for every plain HTTP request it answers ("HTTP
    response sent", "connection closed"): for a health check or a scrape, every few
    seconds, that is noise. Those records are made DEBUG (and dropped unless the logger
    shows DEBUG). Installed on the ``websockets.server`` logger by :class:`Metrics`."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO:
            return True
        request = getattr(getattr(record, "websocket", None), "request", None)
        path = str(getattr(request, "path", "") or "").split("?", 1)[0]
        if path not in (HEALTH_PATH, METRICS_PATH):
            return True
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


def quiet_probes() -> None:
    """Install :class:`QuietProbes` on websockets' server logger (once)."""
    logger = logging.getLogger("websockets.server")
    if not any(isinstance(f, QuietProbes) for f in logger.filters):
        logger.addFilter(QuietProbes())


def _set_header(response: Response, name: str, value: str) -> None:
    del response.headers[name]
    response.headers[name] = value


class _ServerCollector(Collector):
    """Values read from the server at scrape time."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        server = self.metrics.server
        yield GaugeMetricFamily(
            "umpire_connections", "Open websocket connections", value=connections(server)
        )
        rooms = list(server.lobby.rooms.values())
        yield GaugeMetricFamily("umpire_rooms", "Rooms in memory", value=len(rooms))
        games = GaugeMetricFamily("umpire_games", "Rooms by game state", labels=["state"])
        tally = Tally(room.state for room in rooms)
        for state in ("waiting", "playing", "finished", "aborted"):
            games.add_metric([state], tally.get(state, 0))
        yield games
        yield CounterMetricFamily(
            "umpire_store_write_failures",
            "Writes the store could not make (a full disk, an I/O error)",
            value=server.store.write_failures,
        )
        yield GaugeMetricFamily(
            "umpire_store_failing",
            "1 while the store's newest write failed",
            value=float(server.store.failing),
        )
        yield GaugeMetricFamily(
            "umpire_rooms_paused",
            "Rooms paused because the store cannot write their games",
            value=paused_rooms(server),
        )
        yield GaugeMetricFamily(
            "umpire_actions_per_second",
            "Accepted actions per second over the last 10 seconds",
            value=self.metrics.actions_per_second(),
        )
        bus = server.bus
        yield CounterMetricFamily(
            "umpire_mqtt_messages_sent", "Messages the MQTT broker confirmed", value=bus.sent
        )
        yield CounterMetricFamily(
            "umpire_mqtt_messages_dropped",
            "Messages dropped because the feed's buffer was full",
            value=bus.dropped,
        )
        yield GaugeMetricFamily(
            "umpire_mqtt_queued", "Messages waiting for the MQTT broker", value=bus.queued
        )
        yield GaugeMetricFamily(
            "umpire_mqtt_connected",
            "1 when the MQTT feed is connected to its broker",
            value=1.0 if bus.connected else 0.0,
        )


class _LagCollector(Collector):
    """The event loop's recent lag quantiles, read at scrape time."""

    def __init__(self, lag: LoopLag) -> None:
        self.lag = lag

    def collect(self) -> Iterator[Metric]:
        yield GaugeMetricFamily(
            "umpire_event_loop_lag_p99_seconds",
            f"99th percentile of the event loop's lag over its last {LAG_WINDOW} probes",
            value=self.lag.quantile(0.99),
        )
