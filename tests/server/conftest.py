"""Fixtures for server tests: a real server on an ephemeral port and scripted clients
(the guard against ERROR logs is in ``tests/conftest.py``, for every test)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from server.net.app import Limits, ServerConfig, UmpireServer
from server.players.throttle import Rate
from server.rooms.room import Room, Timing
from server.root import build_server
from tests.conftest import no_error_logs as no_error_logs  # (conftests import it from here)
from tests.eventually import eventually
from tests.server.wsclient import WsClient

FAST = Timing(grace=0.5, autopilot_delay=0.0, finished_ttl=30.0)
#: A cluster node's lease in tests: long enough to outlast any stall of a loaded machine
#: (a node stopped in a test leaves, so its rooms are free at once), renewed and published
#: often. A lease of 1.5 s once lapsed in CI while no node stopped, and a room moved.
LEASE: dict[str, float] = {"lease_ttl": 30.0, "lease_beat": 0.2}


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "umpire.db")


ServerFactory = Callable[..., Any]


@pytest.fixture
async def make_server(db_path: str) -> AsyncIterator[ServerFactory]:
    """Start servers on ephemeral ports (``await make_server(limits=..., timing=...)``;
    ``advisor="module:function"`` gives hints from another advisor than the expert)."""
    servers: list[UmpireServer] = []

    async def factory(
        limits: Limits | None = None,
        timing: Timing | None = None,
        db: str | None = None,
        advisor: str | None = None,
        **config: Any,
    ) -> UmpireServer:
        settings = ServerConfig(
            host="127.0.0.1",
            port=0,
            db=db or db_path,
            synchronous="NORMAL",
            limits=loopback_limits(limits or Limits(rate=1000, burst=1000)),
            timing=timing or FAST,
            **config,
        )
        server = (
            build_server(settings) if advisor is None else build_server(settings, advisor=advisor)
        )
        await server.start()
        servers.append(server)
        return server

    yield factory
    for server in servers:
        await server.close()


def loopback_limits(limits: Limits) -> Limits:
    """``limits`` with the per-address caps raised where a test left them at their
    defaults: every test client comes from 127.0.0.1 (the tests of the caps set them)."""
    default = Limits()
    if limits.new_guests == default.new_guests:
        limits = dataclasses.replace(limits, new_guests=Rate(burst=1_000_000, every=1.0))
    if limits.max_rooms_per_address == default.max_rooms_per_address:
        limits = dataclasses.replace(limits, max_rooms_per_address=1_000_000)
    return limits


@pytest.fixture
async def server(make_server: ServerFactory) -> UmpireServer:
    """A server with generous rate limits and fast timers."""
    result: UmpireServer = await make_server()
    return result


@pytest.fixture
async def connect(server: UmpireServer) -> AsyncIterator[Callable[..., Any]]:
    """Open scripted clients to ``server``: ``await connect("ana")`` says hello too."""
    clients: list[WsClient] = []

    async def factory(name: str | None = None, port: int | None = None, **hello: Any) -> WsClient:
        client = await WsClient.open(port or server.port)
        clients.append(client)
        if name is not None:
            await client.hello(name, **hello)
        return client

    yield factory
    for client in clients:
        await client.close()


async def wait_state(
    server: UmpireServer, room_id: str, state: str = "finished", timeout: float = 20
) -> Room:
    """The room in ``server``'s memory once it is in ``state`` (fails after ``timeout`` s)."""

    def state_now() -> str | None:
        room = server.lobby.rooms.get(room_id)
        return None if room is None else room.state

    await eventually(state_now, equals=state, timeout=timeout, what=f"room {room_id}'s state")
    return server.lobby.rooms[room_id]


#: the protocol's documentation, whose sample bot the tests run
PROTOCOL_DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


@pytest.fixture
def sample_bot(tmp_path: Path) -> Path:
    """``docs/protocol.md``'s sample bot (its Python block), written to a file to run."""
    code = re.search(r"```python\n(.*?)```", PROTOCOL_DOC.read_text(), re.S)
    assert code is not None, "docs/protocol.md has no Python sample bot"
    script = tmp_path / "samplebot.py"
    script.write_text(code.group(1))
    return script
