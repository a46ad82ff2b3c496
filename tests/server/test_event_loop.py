"""``umpire serve --loop``: which event loop runs the server, and that both serve a game."""

from __future__ import annotations

import asyncio
import importlib.util
import signal
from pathlib import Path

import pytest

from server.ops.event_loop import loop_factory, run_loop
from tests.server.scripted import SeatScript, play_seat
from tests.server.serve import spawn_serve
from tests.server.wsclient import WsClient

HAS_UVLOOP = importlib.util.find_spec("uvloop") is not None


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_asyncio_choice_runs_asyncios_own_loop() -> None:
    assert loop_factory("asyncio") is None
    assert run_loop(_loop_module(), "asyncio").startswith("asyncio")
    assert run_loop(_loop_module()).startswith("asyncio")  # the default


@pytest.mark.skipif(not HAS_UVLOOP, reason="uvloop is not installed")
def test_auto_and_uvloop_run_uvloop_when_installed() -> None:
    assert run_loop(_loop_module(), "auto").startswith("uvloop")
    assert run_loop(_loop_module(), "uvloop").startswith("uvloop")


def test_an_unknown_choice_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown event loop 'tokio'"):
        loop_factory("tokio")


def test_run_loop_returns_the_coroutines_result_and_closes_its_loop() -> None:
    seen: list[asyncio.AbstractEventLoop] = []

    async def main() -> int:
        seen.append(asyncio.get_running_loop())
        await asyncio.sleep(0)
        return 7

    assert run_loop(main(), "auto") == 7
    assert seen[0].is_closed()


@pytest.mark.parametrize(
    "loop",
    [
        "asyncio",
        pytest.param("uvloop", marks=pytest.mark.skipif(not HAS_UVLOOP, reason="no uvloop")),
    ],
)
async def test_a_real_server_plays_a_game_on_either_loop(tmp_path: Path, loop: str) -> None:
    proc, port = await spawn_serve(tmp_path / "umpire.db", extra=("--loop", loop))
    try:
        host = await WsClient.open(port)
        await host.hello("ana")
        room = (
            await host.request(
                "create_room", "created", game="perudo", options={"seats": 2, "dice_per_player": 2}
            )
        )["room"]
        guest = await WsClient.open(port)
        await guest.hello("bea")
        await guest.request("join", "joined", room=room)
        scripts = [SeatScript(room, 0), SeatScript(room, 1)]
        await asyncio.wait_for(
            asyncio.gather(
                play_seat(host, room, 0, script=scripts[0]),
                play_seat(guest, room, 1, script=scripts[1]),
            ),
            60,
        )
        assert all(s.over is not None for s in scripts)
        await host.close()
        await guest.close()
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 20) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
