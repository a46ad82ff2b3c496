"""Fixtures for the operations tests: a real Mosquitto on a free loopback port, a
recording MQTT subscriber, and servers that publish to the broker.

The broker is Debian's ``/usr/sbin/mosquitto`` (``.ci/run`` installs it); without it the
MQTT tests are skipped with a message saying so.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiomqtt
import pytest

from server.feed.bus import Bus, ConnectionLossIsAWarning, FeedDelay, MqttBus, MqttTarget
from server.net.app import Limits, ServerConfig, UmpireServer
from server.rooms.room import Timing
from server.root import build_server
from tests.eventually import eventually, eventually_sync
from tests.ports import free_port
from tests.server.conftest import db_path, loopback_limits  # noqa: F401  (fixtures)
from tests.server.wsclient import WsClient

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
PREFIX = "test"


class Broker:
    """One Mosquitto process on a fixed loopback port; stop and start it at will."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.conf = workdir / "mosquitto.conf"
        self.conf.write_text(f"listener {self.port} 127.0.0.1\nallow_anonymous true\n")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}/{PREFIX}"

    def start(self, timeout: float = 5.0) -> None:
        with (self.workdir / "mosquitto.log").open("ab") as log:
            self.proc = subprocess.Popen(
                [MOSQUITTO, "-c", str(self.conf)], stdout=log, stderr=subprocess.STDOUT
            )
        eventually_sync(self._listening, timeout=timeout, what=f"mosquitto on {self.port}")

    def _listening(self) -> bool:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise RuntimeError(f"mosquitto exited: {(self.workdir / 'mosquitto.log').read_text()}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2):
            return True
        return False

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


@pytest.fixture
def broker_off(tmp_path: Path) -> Iterator[Broker]:
    """A configured broker that is not running yet (``broker.start()``)."""
    if not Path(MOSQUITTO).exists():
        pytest.skip("mosquitto is not installed (apt-get install mosquitto; .ci/run does)")
    broker = Broker(tmp_path)
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture
def broker(broker_off: Broker) -> Broker:
    """A running Mosquitto on a free loopback port."""
    broker_off.start()
    return broker_off


@dataclass
class Received:
    topic: str
    payload: bytes
    retain: bool
    at: float

    def json(self) -> Any:
        return json.loads(self.payload) if self.payload else None


#: The test subscriber's MQTT log: a broker restarted on purpose is a warning here too.
subscriber_log = logging.getLogger("tests.ops.subscriber")
subscriber_log.addFilter(ConnectionLossIsAWarning())


class Subscriber:
    """Records every message under the test prefix; reconnects when the broker restarts."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.messages: list[Received] = []
        self.connected = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run())
        await asyncio.wait_for(self.connected.wait(), 5)

    async def _run(self) -> None:
        while True:
            try:
                async with aiomqtt.Client(
                    "127.0.0.1", self.port, timeout=2, logger=subscriber_log
                ) as client:
                    await client.subscribe(f"{PREFIX}/#", qos=1)
                    self.connected.set()
                    async for message in client.messages:
                        payload = message.payload
                        assert isinstance(payload, bytes | bytearray)
                        self.messages.append(
                            Received(
                                str(message.topic), bytes(payload), message.retain, time.monotonic()
                            )
                        )
            except aiomqtt.MqttError:
                self.connected.clear()
                await asyncio.sleep(0.05)  # pacing the retries while the broker is down

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def on(self, topic: str) -> list[Received]:
        """The messages received on ``test/<topic>``."""
        return [m for m in self.messages if m.topic == f"{PREFIX}/{topic}"]

    async def wait_for(
        self, check: Callable[[], Any], timeout: float = 10.0, what: str = "a message"
    ) -> Any:
        """:func:`~tests.eventually.eventually` ``check()``, saying what was received if not."""
        return await eventually(
            check,
            timeout=timeout,
            what=lambda: f"{what} (received: {[m.topic for m in self.messages]})",
        )


@pytest.fixture
async def subscriber(broker: Broker) -> AsyncIterator[Subscriber]:
    sub = Subscriber(broker.port)
    await sub.start()
    yield sub
    await sub.close()


def test_bus(url: str, **options: Any) -> MqttBus:
    """An MQTT bus with fast retries and a fast lobby for tests."""
    options.setdefault("lobby_interval", 0.05)
    options.setdefault("backoff", (0.05, 0.3))
    options.setdefault("timeout", 2.0)
    return MqttBus(MqttTarget.parse(url), **options)


test_bus.__test__ = False  # type: ignore[attr-defined]  # not a test

OPS_TIMING = Timing(grace=30, autopilot_delay=0.0, finished_ttl=30.0)


@pytest.fixture
async def make_feed_server(db_path: str) -> AsyncIterator[Callable[..., Any]]:  # noqa: F811
    """Start servers with a bus: ``await make_feed_server(bus, timing=...)``."""
    servers: list[UmpireServer] = []

    async def factory(
        bus: Bus | None = None, timing: Timing | None = None, delay: FeedDelay | None = None
    ) -> UmpireServer:
        config = ServerConfig(
            host="127.0.0.1",
            port=0,
            db=db_path,
            synchronous="NORMAL",
            limits=loopback_limits(Limits(rate=1000, burst=1000)),
            timing=timing or OPS_TIMING,
        )
        server = build_server(config, bus=bus)
        await server.start()
        servers.append(server)
        return server

    yield factory
    for server in servers:
        await server.close()


@pytest.fixture
async def connect() -> AsyncIterator[Callable[..., Any]]:
    """Open scripted clients: ``await connect(server, "ana")`` says hello too."""
    clients: list[WsClient] = []

    async def factory(server: UmpireServer, name: str | None = None) -> WsClient:
        client = await WsClient.open(server.port)
        clients.append(client)
        if name is not None:
            await client.hello(name)
        return client

    yield factory
    for client in clients:
        await client.close()


async def bot_room(
    connect: Callable[..., Any], server: UmpireServer, seats: int = 3, **create: Any
) -> tuple[str, WsClient]:
    """A Perudo room whose every seat is the house autopilot; it starts at once."""
    host = await connect(server, "host")
    created = await host.request(
        "create_room", "created", game="perudo", options={"seats": seats}, sit=False, **create
    )
    room = created["room"]
    for _ in range(seats):
        await host.request("add_bot", "bot_added", room=room, bot="autopilot")
    return room, host
