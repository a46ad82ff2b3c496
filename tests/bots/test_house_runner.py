"""The house bot runner (bots/tools/house_runner.py): commands, threads, and its exit."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

from bots.sdk.bot import Bot, Decision
from bots.tools.house_runner import Runner, Threaded

ROOT = Path(__file__).resolve().parents[2]


class WhereAmI(Bot):
    """Remembers the thread each of its callbacks ran on."""

    games = ("perudo",)

    def __init__(self) -> None:
        self.threads: list[int] = []

    async def observe(self, event: dict[str, Any]) -> None:
        self.threads.append(threading.get_ident())

    async def decide(self, decision: Decision) -> str:
        self.threads.append(threading.get_ident())
        await asyncio.sleep(0)  # a bare yield is fine off the loop
        return decision.legal[-1]


async def test_a_threaded_bot_runs_off_the_event_loop_thread() -> None:
    inner = WhereAmI()
    bot = Threaded(inner)
    await bot.observe({"type": "bid"})
    assert await bot.decide(Decision(0, {}, ["1x2", "dudo"])) == "dudo"
    assert len(inner.threads) == 2
    assert threading.get_ident() not in inner.threads


def dead_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port  # closed again: nothing listens there


async def test_launch_replaces_a_seat_only_for_a_new_ticket_and_stop_ends_it() -> None:
    reports: list[dict[str, Any]] = []
    runner = Runner(reports.append)
    runner.handle(
        {"op": "config", "url": f"ws://127.0.0.1:{dead_port()}", "header": "X", "secret": "s"}
    )
    launch = {"op": "launch", "room": "r1", "seat": 1, "bot": "perudo-random", "ticket": "a"}
    runner.handle(launch)
    first = runner.seats[("r1", 1)].task
    runner.handle(launch)  # the same ticket again: nothing changes
    assert runner.seats[("r1", 1)].task is first
    runner.handle({**launch, "ticket": "b"})  # a new ticket: the old bot makes way
    second = runner.seats[("r1", 1)].task
    assert second is not first
    await asyncio.gather(first, return_exceptions=True)
    assert first.cancelled()
    runner.handle({"op": "stop", "room": "r1", "seat": 1})
    await asyncio.gather(second, return_exceptions=True)
    assert second.cancelled() and not runner.seats
    # a bot cancelled before it ever ran has nothing to report; one that ran says done
    assert reports[-1] == {"op": "done", "room": "r1", "seat": 1, "ticket": "b"}


async def test_the_runner_process_exits_when_its_standard_input_closes() -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bots.tools.house_runner",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdin is not None and proc.stdout is not None
    for command in (
        {"op": "config", "url": f"ws://127.0.0.1:{dead_port()}", "header": "X", "secret": "s"},
        {"op": "launch", "room": "r1", "seat": 0, "bot": "kriegspiel-random", "ticket": "t"},
    ):
        proc.stdin.write(json.dumps(command).encode() + b"\n")
    await proc.stdin.drain()
    proc.stdin.close()
    report = json.loads(await asyncio.wait_for(proc.stdout.readline(), 20))
    assert report == {"op": "done", "room": "r1", "seat": 0, "ticket": "t"}
    assert await asyncio.wait_for(proc.wait(), 20) == 0
