"""Done-test: an arena whose real ``umpire serve`` is SIGKILLed in the middle still
finishes, with standings equal to an independent computation from the logged results
(every room the tournament opened, read back from the knowledge base)."""

from __future__ import annotations

import asyncio
import signal
from collections import defaultdict
from pathlib import Path
from typing import Any

from server.store.contract import open_store
from tests.server.serve import spawn_serve
from tests.server.wsclient import WsClient

HOUSE = ["perudo-random", "perudo-simple", "perudo-expert", "perudo-search"]


def arena_points(results: list[float]) -> float:
    """docs/tournaments.md: a win 2, a draw 1; after two wins in a row, 4 and 2."""
    total, streak = 0.0, 0
    for r in results:
        fire = streak >= 2
        if r == 1.0:
            total += 4 if fire else 2
            streak += 1
        else:
            total += (2 if fire else 1) if r == 0.5 else 0
            streak = 0
    return total


async def follow_until(port: int, tid: str, done: Any, timeout: float = 90) -> dict[str, Any]:
    """Follow the tournament (reconnecting) until ``done(tournament)``; return it."""
    async with asyncio.timeout(timeout):
        client = await WsClient.open(port)
        try:
            await client.hello("watcher")
            frame = await client.request("tournament", "tournament", tournament=tid)
            while not done(frame["tournament"]):
                frame = await client.expect("tournament", timeout=timeout)
            # (a push carries the latest games only: the reply, to a connection that
            # follows nothing, has them all)
            asker = await WsClient.open(port)
            try:
                await asker.hello("asker")
                ask = {"tournament": tid, "follow": False}
                frame = await asker.request("tournament", "tournament", **ask)
            finally:
                await asker.close()
            result: dict[str, Any] = frame["tournament"]
            return result
        finally:
            await client.close()


async def test_an_arena_survives_a_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    proc, port = await spawn_serve(db)
    try:
        host = await WsClient.open(port)
        await host.hello("host")
        created = await host.request(
            "create_tournament",
            "tournament",
            game="perudo",
            options={"dice_per_player": 1},
            format="arena",
            duration=12,
        )
        tid = created["tournament"]["id"]
        for kind in HOUSE:
            await host.request("join_tournament", "tournament", tournament=tid, bot=kind)
        await host.request("start_tournament", "tournament", tournament=tid)
        # killed with at least 4 games over and rooms still being played
        at_kill = await follow_until(
            port,
            tid,
            lambda t: (
                sum(g["scores"] is not None for g in t["games"]) >= 4
                and any(g["room"] and g["scores"] is None for g in t["games"])
            ),
        )
        await host.close()
    finally:
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
    proc, port = await spawn_serve(db, port=0)
    try:
        final = await follow_until(port, tid, lambda t: t["status"] == "finished")
    finally:
        proc.send_signal(signal.SIGINT)
        await proc.wait()
    store = open_store(str(db))
    await store.open()
    try:
        games = []
        for g in final["games"]:
            row = await store.game(g["room"])
            assert row is not None and row.status == "finished", g
            assert row.result is not None and row.finished is not None, g
            ranks = row.result["ranks"]
            first = 1.0 if ranks[0] < ranks[1] else 0.0 if ranks[0] > ranks[1] else 0.5
            games.append((row.finished, row.seats, [first, 1.0 - first]))
        opened = [
            r.id
            for r in await store.games(["waiting", "playing", "finished", "aborted"])
            if r.settings.get("match_ref") == tid
        ]
    finally:
        await store.close()
    assert sorted(opened) == sorted(g["room"] for g in final["games"])  # no room lost
    assert at_kill["status"] == "running" and len(final["games"]) > len(at_kill["games"])
    assert len(games) >= 5
    results: dict[str | None, list[float]] = defaultdict(list)
    for _, seats, scores in sorted(games, key=lambda x: x[0]):
        for seat, player in enumerate(seats):
            results[player].append(scores[seat])
    shown = {r["player"]: r["points"] for r in final["standings"]}
    assert shown == {p: arena_points(results[p]) for p in shown}
    assert [r["points"] for r in final["standings"]] == sorted(shown.values(), reverse=True)
