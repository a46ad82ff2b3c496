"""The bot ladder through a real server: six bot accounts of three owners play rated
games continuously through the SDK's ladder player; every game is rated, no bot exceeds
its concurrency, bots of one owner never meet; a bot that disconnects leaves after the
grace period; the ``ladder`` message's refusals."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bots.baseline import PerudoRandom
from bots.sdk.ladder import LadderPlayer
from server.ladder.actor import OPEN_TIMES
from server.ladder.core import Limits as LadderLimits
from server.net.app import UmpireServer
from tests.eventually import eventually
from tests.server.accounts_kit import Rig
from tests.server.conftest import ServerFactory
from tests.server.wsclient import WsClient

PASSWORD = "correct horse battery"


async def bot_tokens(server: UmpireServer, owners: int, per_owner: int) -> list[tuple[str, str]]:
    """(owner id, API token) of ``per_owner`` bot accounts for each of ``owners`` accounts."""
    Rig(server)  # a cheap password hasher
    tokens: list[tuple[str, str]] = []
    for i in range(owners):
        owner = await WsClient.open(server.port)
        await owner.hello(f"owner{i}")
        await owner.request("register", "account", password=PASSWORD)
        for j in range(per_owner):
            made = await owner.request("create_bot", "bot_account", name=f"o{i}bot{j}")
            tokens.append((owner.player["id"], made["token"]))
        await owner.close()
    return tokens


class Versioned(PerudoRandom):
    """perudo-random with a version of its own (rated per version)."""

    version = "1.0"


def overlap(intervals: list[tuple[float, float]]) -> int:
    """The most intervals open at one time."""
    points = sorted([(a, 1) for a, _ in intervals] + [(b, -1) for _, b in intervals])
    most = now = 0
    for _, step in points:
        now += step
        most = max(most, now)
    return most


async def test_six_bots_play_rated_games_continuously(make_server: ServerFactory) -> None:
    server: UmpireServer = await make_server(ladder_house=False)
    tokens = await bot_tokens(server, owners=3, per_owner=2)
    limits = [1, 2, 3, 1, 2, 3]
    players = [
        LadderPlayer(
            f"ws://127.0.0.1:{server.port}",
            Versioned,
            token=token,
            game="perudo",
            name=f"bot{i}",
            max_concurrent=limit,
        )
        for i, ((_, token), limit) in enumerate(zip(tokens, limits, strict=True))
    ]
    runs = [asyncio.create_task(p.run()) for p in players]
    # continuously: every bot plays several games, one after the other
    await eventually(lambda: all(len(p.stats.results) >= 3 for p in players), timeout=120)
    for p in players:
        p.stop()
    stats = await asyncio.wait_for(asyncio.gather(*runs), 60)

    rows = await server.store.games(["finished", "aborted"])
    assert rows and all(row.status == "finished" for row in rows)
    ids: dict[str | None, str] = {}  # (keyed as ``row.seats`` are)
    for row in rows:
        assert row.rated is not None, f"{row.id} was not rated"
        assert row.rated["versions"] == ["1.0", "1.0"]
        assert row.settings.get("match") == "ladder"
        for pid in row.seats:
            assert pid is not None
            stored = await server.store.player(pid)
            assert stored is not None and stored.kind == "bot" and stored.owner
            ids[pid] = stored.owner
        assert ids[row.seats[0]] != ids[row.seats[1]]  # never one owner's bots
        assert len(await server.store.rating_changes(row.id)) == 2
    # no bot ever played more ladder games at once than it asked for: as the server
    # counted them, and as the stored games' times show
    for i, s in enumerate(stats):
        assert s.joined[0]["max_concurrent"] == limits[i]
        assert s.failed == 0
    by_player: dict[str, list[tuple[float, float]]] = {}
    for row in rows:
        assert row.finished is not None
        for pid in row.seats:
            assert pid is not None
            by_player.setdefault(pid, []).append((row.created, row.finished))
    limit_of = {p.player_id: limit for p, limit in zip(players, limits, strict=True)}
    for pid, intervals in by_player.items():
        assert overlap(intervals) <= limit_of[pid]
        assert server.ladder.peak[pid] <= limit_of[pid]
    assert max(server.ladder.peak.values()) > 1  # bots did play several at once
    assert server.ladder.core.games == {}
    # the times kept for benchmarks are the latest ones, bounded (a server runs for months)
    assert 0 < len(server.ladder.open_seconds) <= server.ladder.opened
    assert server.ladder.open_seconds.maxlen == OPEN_TIMES


async def test_a_disconnected_bot_leaves_after_the_grace_period(
    make_server: ServerFactory,
) -> None:
    server: UmpireServer = await make_server(ladder_house=False, ladder=LadderLimits(grace=0.3))
    ((_, token),) = await bot_tokens(server, owners=1, per_owner=1)
    bot = await WsClient.open(server.port)
    await bot.send(type="hello", v=1, token=token, bot=True, bot_version="1")
    await bot.expect("welcome")
    joined = await bot.request("ladder", "ladder_joined", game="kriegspiel", max_concurrent=50)
    assert joined["rules"] == "wild16" and joined["max_concurrent"] == 8  # the cap
    assert joined["playing"] == 0
    assert len(server.ladder.core.members) == 1
    await bot.close()
    member = next(iter(server.ladder.core.members.values()))
    await eventually(lambda: member.gone_at is not None)
    await eventually(lambda: not server.ladder.core.members, timeout=5)
    # a new connection joins again; max_concurrent 0 leaves
    again = await WsClient.open(server.port)
    await again.send(type="hello", v=1, token=token, bot=True, bot_version="1")
    await again.expect("welcome")
    await again.request("ladder", "ladder_joined", game="kriegspiel", max_concurrent=1)
    left = await again.request("ladder", "ladder_joined", game="kriegspiel", max_concurrent=0)
    assert left["max_concurrent"] == 0 and not server.ladder.core.members
    await again.close()


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"game": "goofspiel"}, "unsupported"),
        ({"game": "nosuchgame", "rules": "x"}, "unsupported"),
        ({"game": "kriegspiel", "rules": "nope"}, "unsupported"),
        ({"game": "kriegspiel", "seats": 3}, "bad_options"),
    ],
)
async def test_refusals(
    server: UmpireServer, connect: Any, message: dict[str, Any], code: str
) -> None:
    guest = await connect("ana")
    await guest.send(type="ladder", game="kriegspiel")
    await guest.error("unsupported")  # only bot accounts
    ((_, token),) = await bot_tokens(server, owners=1, per_owner=1)
    bot = await connect()
    await bot.send(type="hello", v=1, token=token, bot=True)
    await bot.expect("welcome")
    await bot.send(type="ladder", **message)
    await bot.error(code)


async def test_house_bots_are_members_unless_turned_off(make_server: ServerFactory) -> None:
    server: UmpireServer = await make_server()
    members = server.ladder.core.members
    assert any(m.entry.house == "kriegspiel-random" for m in members.values())
    assert all(m.entry.house is not None for m in members.values())
    off: UmpireServer = await make_server(ladder_house=False, db=str(server.config.db) + "2")
    assert not off.ladder.core.members


async def test_a_restart_counts_the_ladder_rooms_in_progress(
    make_server: ServerFactory, db_path: str
) -> None:
    first: UmpireServer = await make_server(ladder_house=False)
    tokens = await bot_tokens(first, owners=2, per_owner=1)
    clients = []
    for _, token in tokens:
        bot = await WsClient.open(first.port)
        await bot.send(type="hello", v=1, token=token, bot=True, bot_version="1")
        await bot.expect("welcome")
        await bot.request("ladder", "ladder_joined", game="kriegspiel", max_concurrent=1)
        clients.append(bot)
    match = await clients[1].expect("match", source="ladder")
    for bot in clients:
        await bot.close()
    await first.close()
    second: UmpireServer = await make_server(ladder_house=False, db=db_path)
    assert match["room"] in second.ladder.core.rooms
    ids = [p["id"] for p in match["players"]]
    assert [second.ladder.core.playing(i) for i in ids] == [1, 1]
    # the bots come back: they are not paired again while their game is on
    for _, token in tokens:
        bot = await WsClient.open(second.port)
        await bot.send(type="hello", v=1, token=token, bot=True, bot_version="1")
        await bot.expect("welcome")
        joined = await bot.request("ladder", "ladder_joined", game="kriegspiel", max_concurrent=1)
        assert joined["playing"] == 1
        clients.append(bot)
    assert len(second.ladder.core.games) == 1
    for bot in clients[2:]:
        await bot.close()


async def test_umpire_bot_ladder_on_the_command_line(make_server: ServerFactory) -> None:
    """``umpire bot SPEC --ladder --max-concurrent N`` as a user types it, twice."""
    import sys

    server: UmpireServer = await make_server(ladder_house=False)
    tokens = await bot_tokens(server, owners=2, per_owner=1)
    url = f"ws://127.0.0.1:{server.port}"
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "server.cli",
            "bot",
            "perudo-random",
            "--server",
            url,
            "--token",
            token,
            "--ladder",
            "--max-concurrent",
            "2",
            "--games",
            "4",
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for _, token in tokens
    ]
    outs = await asyncio.wait_for(asyncio.gather(*(p.communicate() for p in procs)), 120)
    for proc, (out, err) in zip(procs, outs, strict=True):
        assert proc.returncode == 0, err.decode()
        assert "ladder games" in out.decode() and "0 failed" in out.decode()
    rows = await server.store.games(["finished"])
    assert len(rows) >= 4 and all(row.rated for row in rows)
    assert max(server.ladder.peak.values()) <= 2


async def test_ladder_needs_a_token_on_the_command_line() -> None:
    import sys

    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server.cli",
        "bot",
        "perudo-random",
        "--ladder",
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await proc.communicate()
    assert proc.returncode == 2 and b"--token" in err


async def test_a_lone_bot_plays_the_house_bots(make_server: ServerFactory) -> None:
    server: UmpireServer = await make_server()
    ((_, token),) = await bot_tokens(server, owners=1, per_owner=1)
    player = LadderPlayer(
        f"ws://127.0.0.1:{server.port}",
        Versioned,
        token=token,
        game="perudo",
        name="lone",
        max_concurrent=1,
        games=1,
    )
    stats = await asyncio.wait_for(player.run(), 120)
    assert len(stats.results) == 1 and stats.failed == 0
    (row,) = await server.store.games(["finished"])
    assert row.rated is not None and row.rated["pools"] == ["bot", "bot"]
    house = [pid for pid in row.seats if pid != player.player_id]
    assert len(house) == 1 and house[0] is not None and house[0].startswith("bot-perudo")


async def test_the_sdk_says_why_the_ladder_was_refused(make_server: ServerFactory) -> None:
    from bots.sdk.bot import BotError

    server: UmpireServer = await make_server(ladder_house=False)
    ((_, token),) = await bot_tokens(server, owners=1, per_owner=1)
    player = LadderPlayer(
        f"ws://127.0.0.1:{server.port}", Versioned, token=token, game="perudo", rules="nope"
    )
    with pytest.raises(BotError, match="unsupported"):
        await asyncio.wait_for(player.run(), 20)


async def test_a_restarted_bot_program_plays_its_seats_in_progress(
    make_server: ServerFactory,
) -> None:
    server: UmpireServer = await make_server(ladder_house=False)
    tokens = await bot_tokens(server, owners=2, per_owner=1)
    # the first bot's program joins and is paired, then dies before attaching
    bot = await WsClient.open(server.port)
    await bot.send(type="hello", v=1, token=tokens[0][1], bot=True, bot_version="1.0")
    await bot.expect("welcome")
    await bot.request("ladder", "ladder_joined", game="perudo", max_concurrent=1)
    url = f"ws://127.0.0.1:{server.port}"
    other = LadderPlayer(url, Versioned, token=tokens[1][1], game="perudo", games=1)
    running = asyncio.create_task(other.run())
    match = await bot.expect("match", source="ladder")
    await bot.close()
    # restarted: the seat it holds is played, and no new game is asked for
    again = LadderPlayer(url, Versioned, token=tokens[0][1], game="perudo", games=1)
    again_run = asyncio.create_task(again.run())
    await eventually(lambda: len(again.stats.results) == 1, timeout=30)
    assert again.stats.results[0].final["room"] == match["room"]
    again.stop()
    await asyncio.wait_for(asyncio.gather(running, again_run), 30)


async def test_the_ladder_connection_outlives_the_idle_timeout(make_server: ServerFactory) -> None:
    """A bot waiting on the ladder sends nothing but its pings: the server's idle timeout
    (here 0.6 s) must not close it (a real timer running out is what this checks)."""
    from server.net.app import Limits

    server: UmpireServer = await make_server(
        ladder_house=False, limits=Limits(rate=1000, burst=1000, idle_timeout=0.6)
    )
    ((_, token),) = await bot_tokens(server, owners=1, per_owner=1)
    player = LadderPlayer(f"ws://127.0.0.1:{server.port}", Versioned, token=token, game="perudo")
    running = asyncio.create_task(player.run())
    await eventually(lambda: len(player.stats.joined) == 1)
    await asyncio.sleep(1.5)
    assert player._client is not None and player._client.connections == 1
    player.stop()
    await asyncio.wait_for(running, 10)


class HeldLeave(LadderPlayer):
    """A bot whose leave reaches the server late: :meth:`stop` holds the message back
    until the test lets it go (``release``), as a slow network would."""

    held: list[dict[str, Any]]

    def stop(self) -> None:
        client = self._client
        assert client is not None
        send, self.held = client.send, []
        # a stand-in that holds the message back and returns no ref (``send`` returns one)
        client.send = self.held.append  # type: ignore[method-assign, assignment]
        try:
            super().stop()
        finally:
            client.send = send  # type: ignore[method-assign]

    def release(self) -> None:
        assert self._client is not None
        for message in self.held:
            self._client.send(message)


async def test_a_bot_that_leaves_plays_the_games_paired_before_the_server_read_its_leave(
    make_server: ServerFactory,
) -> None:
    server: UmpireServer = await make_server(ladder_house=False)
    (_, first), (_, second) = await bot_tokens(server, owners=2, per_owner=1)
    url = f"ws://127.0.0.1:{server.port}"
    leaving = HeldLeave(url, Versioned, token=first, game="perudo", name="leaving")
    staying = LadderPlayer(url, Versioned, token=second, game="perudo", name="staying", games=1)
    leaving_run = asyncio.create_task(leaving.run())
    await eventually(lambda: bool(leaving.stats.joined), timeout=30)
    leaving.stop()  # (its leave is held back: the server still counts it in)
    staying_run = asyncio.create_task(staying.run())
    await eventually(lambda: staying.stats.started == 1, timeout=30)  # paired together
    leaving.release()
    stats = await asyncio.wait_for(leaving_run, 30)
    other = await asyncio.wait_for(staying_run, 30)
    # the game paired before the server read the leave was played by both, to its end
    assert len(stats.results) == 1 and len(other.results) == 1
    assert await server.store.games(["waiting", "playing"]) == []
