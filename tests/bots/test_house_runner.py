"""The house bot runner (bots/tools/house_runner.py): commands, threads, and its exit."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from bots.sdk.bot import Bot, Decision
from bots.tools.house_runner import Runner, Threaded, load_advisor
from tests.eventually import eventually
from tests.ports import free_port
from tests.processes import alive

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


async def test_launch_replaces_a_seat_only_for_a_new_ticket_and_stop_ends_it() -> None:
    reports: list[dict[str, Any]] = []
    runner = Runner(reports.append)
    runner.handle(
        {"op": "config", "url": f"ws://127.0.0.1:{free_port()}", "header": "X", "secret": "s"}
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
        {"op": "config", "url": f"ws://127.0.0.1:{free_port()}", "header": "X", "secret": "s"},
        {"op": "launch", "room": "r1", "seat": 0, "bot": "kriegspiel-random", "ticket": "t"},
    ):
        proc.stdin.write(json.dumps(command).encode() + b"\n")
    await proc.stdin.drain()
    proc.stdin.close()
    report = json.loads(await asyncio.wait_for(proc.stdout.readline(), 20))
    assert report == {"op": "done", "room": "r1", "seat": 0, "ticket": "t"}
    assert await asyncio.wait_for(proc.wait(), 20) == 0


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads Linux's /proc")
async def test_a_runner_whose_parent_is_gone_exits_though_its_input_stays_open() -> None:
    """Its input's other end held elsewhere (here, by the test), the runner's parent's
    exit is what tells it the server is gone."""
    read, write = os.pipe()
    try:
        start = (
            "import os, subprocess, sys; "
            "p = subprocess.Popen([sys.executable, '-m', 'bots.tools.house_runner'], "
            "stdin=int(sys.argv[1]), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, "
            "env={**os.environ, 'UMPIRE_SERVER_PID': str(os.getpid())}); "
            "print(p.pid)"
        )
        parent = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            start,
            str(read),
            pass_fds=(read,),
            stdout=asyncio.subprocess.PIPE,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        out, _ = await parent.communicate()
        runner = int(out)
        os.close(read)
        read = -1
        for command in (
            {"op": "config", "url": f"ws://127.0.0.1:{free_port()}", "header": "X", "secret": "s"},
            {"op": "launch", "room": "r1", "seat": 0, "bot": "perudo-random", "ticket": "t"},
        ):  # a bot that keeps trying a server nobody runs
            os.write(write, json.dumps(command).encode() + b"\n")
        await eventually(lambda: not alive(runner), timeout=20, what="the orphaned runner's exit")
    finally:
        os.close(write)
        if read >= 0:
            os.close(read)


async def test_the_runner_leaves_bots_that_do_not_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that ignores its stop holds the runner CLOSE_LIMIT seconds at most, and the
    log names what was still running."""
    from bots.tools import house_runner

    release = asyncio.Event()

    async def stuck(self: Runner) -> None:
        await release.wait()

    monkeypatch.setattr(house_runner, "CLOSE_LIMIT", 0.2)
    monkeypatch.setattr(Runner, "close", stuck)
    stdin = asyncio.StreamReader()
    stdin.feed_eof()
    warnings: list[str] = []
    monkeypatch.setattr(house_runner.log, "warning", lambda msg, *a: warnings.append(msg % a))
    await asyncio.wait_for(house_runner.serve(stdin), 5)
    assert warnings and warnings[0].startswith("bots still running 0 s after the stop")
    release.set()  # (the close serve left behind ends with the test)
    await asyncio.sleep(0)


# -- hints ------------------------------------------------------------------------------

#: how often this module's warm() ran (the runner calls it with "warm": true)
WARMED: list[str] = []


def warm() -> None:
    """This module as an advisor's module: what the runner warms up."""
    WARMED.append(threading.current_thread().name)


def echo_advisor(view: dict[str, Any], events: list[Any], **options: Any) -> dict[str, Any]:
    """An advisor that answers with what it was given, or has no advice without a seat."""
    if "seat" not in view:
        raise ValueError("no seat, no advice")
    if options.get("fail"):
        raise RuntimeError("a bug")
    return {"seat": view["seat"], "events": len(events), **options}


async def test_the_runner_answers_each_hint_by_its_number() -> None:
    reports: list[dict[str, Any]] = []
    runner = Runner(reports.append)
    config = {"op": "config", "url": "ws://127.0.0.1:1", "header": "X", "secret": "s"}
    advisor = "tests.bots.test_house_runner:echo_advisor"
    runner.handle({**config, "advisor": advisor, "warm": True})
    for ident, view, options in (
        (1, {"seat": 2}, {"lang": "it"}),
        (2, {}, {}),
        (3, {"seat": 0}, {"fail": True}),
    ):
        runner.handle({"op": "hint", "id": ident, "view": view, "events": [{}], "options": options})
    await asyncio.gather(*runner.hints)
    assert sorted(reports, key=lambda r: int(r["id"])) == [
        {"op": "hint", "id": 1, "hint": {"seat": 2, "events": 1, "lang": "it"}},
        {"op": "hint", "id": 2, "error": "no seat, no advice"},
        {"op": "hint", "id": 3, "error": "the advisor failed (RuntimeError)"},
    ]
    # warmed once, off the event loop's thread, before the first answer
    assert len(WARMED) == 1 and WARMED[0] != threading.current_thread().name
    # without an advisor, every hint is refused
    bare = Runner(reports.append)
    bare.handle(config)
    bare.handle({"op": "hint", "id": 4, "view": {"seat": 0}, "events": []})
    await asyncio.gather(*bare.hints)
    assert reports[-1] == {"op": "hint", "id": 4, "error": "this server gives no hints"}


def test_an_advisor_is_named_module_colon_function() -> None:
    assert load_advisor("tests.bots.test_house_runner:echo_advisor") is echo_advisor
    for wrong in ("tests.bots.test_house_runner", ":echo_advisor", "tests.bots:"):
        with pytest.raises(ValueError, match="module:function"):
            load_advisor(wrong)


def test_the_experts_warm_up_loads_every_table_a_hint_may_read() -> None:
    from bots.perudo.endgame.calza import calza_policy
    from bots.perudo.endgame.calza_rounds import calza_round_policy
    from bots.perudo.endgame.solve import round_policy, tied_policy
    from bots.perudo.expert.endgame import SOLVED, TIED
    from bots.perudo.expert.hint import warm as warm_expert

    warm_expert()
    tables = (round_policy, calza_round_policy, calza_policy, tied_policy)
    misses = [f.cache_info().misses for f in tables]
    for a, b in SOLVED:  # every table the expert's solved moves read is loaded by now
        round_policy(a, b)
        if (a, b) != (1, 1):
            calza_round_policy(a, b)
    calza_policy(False)
    calza_policy(True)
    for a, b in TIED:
        tied_policy(a, b)
    assert [f.cache_info().misses for f in tables] == misses


async def test_a_runner_exits_at_once_even_while_its_advisor_warms_up(tmp_path: Path) -> None:
    """CI caught a runner that outlived its SIGKILLed server by more than 10 s: the
    advisor's warm-up (1.5 s idle, far more loaded) ran in a pool thread, and both
    ``asyncio.run`` and the interpreter's exit join pool threads. Here the warm-up blocks
    until a file appears, which it never does: the runner must leave without it."""
    gate = tmp_path / "never"
    module = tmp_path / "slow_warm_advisor.py"
    module.write_text(
        "import pathlib, time\n"
        f"GATE = pathlib.Path({str(gate)!r})\n"
        "def warm():\n"
        "    pathlib.Path(str(GATE) + '.started').touch()\n"
        "    while not GATE.exists():\n"
        "        time.sleep(0.05)\n"
        "def advise(view, events, **options):\n"
        "    raise ValueError('never asked')\n"
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bots.tools.house_runner",
        stdin=asyncio.subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}"},
    )
    assert proc.stdin is not None
    config = {"op": "config", "url": f"ws://127.0.0.1:{free_port()}", "header": "X"}
    command = {**config, "secret": "s", "advisor": "slow_warm_advisor:advise", "warm": True}
    proc.stdin.write(json.dumps(command).encode() + b"\n")
    await proc.stdin.drain()
    started = Path(str(gate) + ".started")
    try:
        await eventually(started.exists, what="the warm-up's start")
        proc.stdin.close()
        # the warm-up never ends: before the fix this wait ran out
        assert await asyncio.wait_for(proc.wait(), 30) == 0
    finally:
        gate.touch()
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
