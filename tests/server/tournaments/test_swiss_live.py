"""Done-test: a hosted Swiss of 8 entrants (4 house bots, 4 external bots written here
with plain ``websockets`` from docs/protocol.md alone) plays 3 rounds through a real
server; its standings and tie-breaks equal an independent computation from the logged
results (the games table), written below without the server's code."""

from __future__ import annotations

import asyncio
import json
import random
from collections import defaultdict
from typing import Any

import websockets

from server.net.app import UmpireServer
from tests.eventually import eventually

HOUSE = ["perudo-random", "perudo-simple", "perudo-expert", "perudo-search"]


async def external_bot(
    port: int, name: str, seed: int, joined: asyncio.Event, tid: list[str]
) -> dict[str, Any]:
    """A bot from the protocol doc alone: hello, join_tournament, then resume every
    ``match`` room and answer every ``turn`` with one of ``legal``; returns the last
    ``tournament`` frame's tournament (finished)."""
    rnd = random.Random(seed)
    async with websockets.connect(f"ws://127.0.0.1:{port}") as ws:
        await ws.send(json.dumps({"type": "hello", "v": 1, "name": name, "bot": True}))
        await joined.wait()
        await ws.send(json.dumps({"type": "join_tournament", "tournament": tid[0]}))
        async for text in ws:
            frame = json.loads(text)
            kind = frame["type"]
            if kind == "match":
                await ws.send(json.dumps({"type": "resume", "room": frame["room"], "since": 0}))
            elif kind == "turn":
                legal = frame["legal"]
                dudo = [a for a in legal if a == "dudo"]
                action = dudo[0] if dudo and rnd.random() < 0.5 else rnd.choice(legal)
                await ws.send(json.dumps({"type": "act", "room": frame["room"], "action": action}))
            elif kind == "tournament" and frame["tournament"]["status"] == "finished":
                finished: dict[str, Any] = frame["tournament"]
                return finished
            elif kind == "error":
                raise AssertionError(f"{name} was refused: {frame}")
    raise AssertionError(f"{name}: the connection closed before the end")


def independent_standings(
    entrants: list[str], games: list[tuple[str, str, float, float]], byes: list[str]
) -> dict[str, tuple[float, float, float]]:
    """Points (1 a win, 0.5 a draw, 1 a bye), Buchholz (sum of opponents' points) and
    Sonneborn-Berger (sum of own score times opponent's points), per docs/tournaments.md."""
    points: dict[str, float] = defaultdict(float)
    for a, b, sa, sb in games:
        points[a] += sa
        points[b] += sb
    for p in byes:
        points[p] += 1.0
    out = {}
    for p in entrants:
        bh = sb_ = 0.0
        for a, b, sa, sb in games:
            if p == a:
                bh += points[b]
                sb_ += sa * points[b]
            elif p == b:
                bh += points[a]
                sb_ += sb * points[a]
        out[p] = (points[p], bh, sb_)
    return out


async def test_a_swiss_of_eight_plays_three_rounds(server: UmpireServer, connect: Any) -> None:
    host = await connect("host")
    asker = await connect("asker")  # (follows nothing: its replies are replies)
    created = await host.request(
        "create_tournament",
        "tournament",
        game="perudo",
        options={"dice_per_player": 1},
        format="swiss",
        rounds=3,
        name="eight",
    )
    tid = created["tournament"]["id"]
    for kind in HOUSE:
        await host.request("join_tournament", "tournament", tournament=tid, bot=kind)
    joined = asyncio.Event()
    ids = [tid]
    bots = [
        asyncio.create_task(external_bot(server.port, f"ext{i}", i, joined, ids)) for i in range(4)
    ]
    joined.set()

    def entrants() -> int:
        core = server.tournaments.cores[tid]
        return len(core.state.entrants)

    await eventually(entrants, equals=8, timeout=10)
    await host.request("start_tournament", "tournament", tournament=tid)
    finals = await asyncio.wait_for(asyncio.gather(*bots), timeout=120)
    assert all(f["status"] == "finished" and f["round"] == 3 for f in finals)
    # (a push carries the current round's games: the reply to `tournament` has them all)
    asked = await asker.request("tournament", "tournament", tournament=tid, follow=False)
    final = asked["tournament"]
    assert final["status"] == "finished" and final["round"] == 3
    # the logged results: each game's room row in the knowledge base
    games = []
    byes = []
    for g in final["games"]:
        if len(g["players"]) == 1:
            byes.append(g["players"][0])
            continue
        row = await server.store.game(g["room"])
        assert row is not None and row.status == "finished" and row.result is not None
        assert row.settings["match_ref"] == tid
        ranks = row.result["ranks"]
        a_score = 1.0 if ranks[0] < ranks[1] else 0.0 if ranks[0] > ranks[1] else 0.5
        a, b = row.seats[0], row.seats[1]
        assert a is not None and b is not None
        games.append((a, b, a_score, 1.0 - a_score))
    assert len(games) == 12 and not byes
    pairs = [frozenset((a, b)) for a, b, _, _ in games]
    assert len(set(pairs)) == 12  # no repeat in 3 rounds of 8
    entrant_ids = [e["player"] for e in final["entrants"]]
    expected = independent_standings(entrant_ids, games, byes)
    shown = {
        r["player"]: (r["points"], r["buchholz"], r["sonneborn_berger"]) for r in final["standings"]
    }
    assert shown == expected
    order = sorted(
        entrant_ids,
        key=lambda p: (-expected[p][0], -expected[p][1], -expected[p][2], entrant_ids.index(p)),
    )
    assert [r["player"] for r in final["standings"]] == order
    stored = await server.store.tournament(tid)
    assert stored is not None and stored.status == "finished"
