"""Tournaments between bots: fair seating, parallel games, standings with ratings.

The schedule is a pure function of the bot list, the seat count and the game index, and
every game's seed is derived from the tournament seed and its index, so a local tournament
with a fixed seed gives the same games and the same table however many processes play it.

Seating: game ``i`` puts ``bots[(i + j) % B]`` in seat ``j`` (every bot visits every seat
equally often), and every other cycle of ``B`` games reverses the order, so that each bot
has each other bot on its left as often as on its right. With more seats than bots, bots
fill several seats of the same game; with fewer, the bots sitting out rotate.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import math
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from bots.registry import load_bot
from bots.sdk.local import LocalGame, play_local
from server.games import engine


def seating(bots: Sequence[str], seats: int, index: int) -> list[str]:
    """The bot in each seat of game ``index``."""
    count = len(bots)
    if count == 0 or seats <= 0:
        raise ValueError("a tournament needs at least one bot and one seat")
    order = list(bots) if (index // count) % 2 == 0 else list(reversed(bots))
    return [order[(index + j) % count] for j in range(seats)]


def game_seed(tournament_seed: str, index: int) -> bytes:
    """The seed of game ``index``: SHA-256 of the tournament seed and the index."""
    return hashlib.sha256(f"umpire-tournament/{tournament_seed}/{index}".encode()).digest()


def bot_seed(tournament_seed: str, index: int, seat: int) -> int:
    """The private random stream of the bot in ``seat`` of game ``index``."""
    digest = hashlib.sha256(f"umpire-bot/{tournament_seed}/{index}/{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One tournament game to play."""

    index: int
    game: str
    options: dict[str, Any]
    bots: list[str]
    seed: bytes
    bot_seeds: list[int]
    #: each bot's search budget (``nodes=N``, ``cpu=S``), for the bots that take one
    budget: str | None = None


@dataclass(slots=True)
class PlayedGame:
    """A tournament game's result; ``local`` holds the whole game when played here.

    ``stats`` are each seat's statistics by the engine's own ``stats``, read from the
    complete record (every event's truth) of a game played here, so that what only the
    mover hears (a Kriegspiel illegal attempt under wild16) counts too; empty for a game
    played on a server."""

    spec: GameSpec
    ranks: list[int]
    reason: str
    faults: dict[int, str]
    local: LocalGame | None = None
    stats: list[dict[str, float]] = field(default_factory=list)


#: Writes one finished game somewhere (a knowledge base), given the run's settings plus the
#: game's schedule index. The composition root (``server/cli.py``) makes one from a store;
#: the arena never imports the server's store itself.
Recorder: TypeAlias = Callable[[PlayedGame, dict[str, Any]], Awaitable[None]]


def schedule(
    game: str,
    options: dict[str, Any],
    bots: Sequence[str],
    seats: int,
    games: int,
    seed: str,
    budget: str | None = None,
) -> list[GameSpec]:
    """Every game of a tournament, in order; ``budget`` goes to every bot that takes one."""
    specs = []
    for index in range(games):
        seated = seating(bots, seats, index)
        specs.append(
            GameSpec(
                index,
                game,
                dict(options),
                seated,
                game_seed(seed, index),
                [bot_seed(seed, index, s) for s in range(seats)],
                budget,
            )
        )
    return specs


def make_bot(spec_name: str, seed: int, budget: str | None = None) -> Any:
    """The bot ``spec_name`` names, seeded with ``seed`` and given ``budget`` when it
    searches (as a scheduled game makes its players)."""
    if budget is not None:
        _, factory = load_bot(spec_name, seed=seed, budget=budget)
        try:
            return factory()
        except TypeError:  # a bot with no search budget (a random player) plays as ever
            pass
    _, factory = load_bot(spec_name, seed=seed)
    try:
        return factory()
    except TypeError:  # a third-party bot that takes no seed
        _, factory = load_bot(spec_name)
        return factory()


async def play_spec(spec: GameSpec) -> PlayedGame:
    """Play one scheduled game in this process."""
    bots = [
        make_bot(name, seed, spec.budget)
        for name, seed in zip(spec.bots, spec.bot_seeds, strict=True)
    ]
    local = await play_local(spec.game, spec.options, bots, spec.seed, names=spec.bots)
    stats = engine(spec.game).stats(
        [event.truth for event in local.events], local.outcome, len(spec.bots)
    )
    return PlayedGame(
        spec, list(local.outcome.ranks), local.outcome.reason, local.faults, local, stats
    )


def _play_in_worker(spec: GameSpec) -> PlayedGame:
    return asyncio.run(play_spec(spec))


async def stream_local(specs: Sequence[GameSpec], parallel: int = 1) -> AsyncIterator[PlayedGame]:
    """Play every game in-process and yield each as it finishes (in any order).

    With ``parallel`` > 1 the games run in that many worker processes, at most twice
    that many at a time, so memory stays bounded however long the schedule is.
    """
    if parallel <= 1:
        for spec in specs:
            yield await play_spec(spec)
        return
    loop = asyncio.get_running_loop()
    with ProcessPoolExecutor(max_workers=parallel) as pool:
        queue = iter(specs)
        running: set[asyncio.Future[PlayedGame]] = set()
        while True:
            while len(running) < 2 * parallel:
                upcoming = next(queue, None)
                if upcoming is None:
                    break
                running.add(loop.run_in_executor(pool, _play_in_worker, upcoming))
            if not running:
                return
            done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            for future in done:
                yield future.result()


async def play_spec_remote(spec: GameSpec, url: str) -> PlayedGame:
    """Play one scheduled game on the server at ``url``: a private room made by a
    tournament host connection, each bot joining its seat with the room's invite."""
    import json

    from websockets.asyncio.client import ClientConnection, connect

    from bots.client.driver import ConnectionFailed, server_urls
    from bots.sdk.remote import Target, play_remote

    opened: ClientConnection | None = None
    urls = server_urls(url)
    for index, candidate in enumerate(urls):  # (a cluster's nodes: the first that answers)
        try:
            opened = await connect(candidate)
        except (OSError, TimeoutError):
            continue
        url = ",".join(urls[index:] + urls[:index])  # (the bots start there too)
        break
    if opened is None:
        raise ConnectionFailed(f"no server answers at {url}")
    async with opened as host:
        await host.send(json.dumps({"type": "hello", "v": 1, "name": "tournament", "bot": True}))
        await host.send(
            json.dumps(
                {
                    "type": "create_room",
                    "game": spec.game,
                    "options": spec.options,
                    "public": False,
                    "sit": False,
                }
            )
        )
        while True:
            frame = json.loads(await host.recv())
            if frame["type"] == "created":
                invite = frame["invite"]
                break
            if frame["type"] == "error":
                raise RuntimeError(f"the server refused the room: {frame['message']}")
        games = [
            play_remote(
                url,
                functools.partial(make_bot, name, seed, spec.budget),
                name=name,
                target=Target(invite=invite, seat=seat),
            )
            for seat, (name, seed) in enumerate(zip(spec.bots, spec.bot_seeds, strict=True))
        ]
        results = await asyncio.gather(*games)
    first = results[0][0]
    faults = {r[0].seat: r[0].reason for r in results if r and r[0].reason == "aborted"}
    return PlayedGame(spec, list(first.ranks), first.reason, faults)


async def stream_remote(
    specs: Sequence[GameSpec], url: str, parallel: int = 1
) -> AsyncIterator[PlayedGame]:
    """Play every game on a server, ``parallel`` rooms at a time; yield each as it ends."""
    queue = iter(specs)
    running: set[asyncio.Task[PlayedGame]] = set()
    while True:
        while len(running) < parallel:
            upcoming = next(queue, None)
            if upcoming is None:
                break
            running.add(asyncio.create_task(play_spec_remote(upcoming, url)))
        if not running:
            return
        done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            yield task.result()


def run_local(
    specs: Sequence[GameSpec],
    parallel: int = 1,
    on_result: Callable[[PlayedGame], None] | None = None,
) -> list[PlayedGame]:
    """Play every game in-process; return them in schedule order.

    ``on_result`` is called as each game finishes (in any order).
    """

    async def play_all() -> list[PlayedGame]:
        results = []
        async for played in stream_local(specs, parallel):
            results.append(played)
            if on_result:
                on_result(played)
        return results

    results = asyncio.run(play_all())
    results.sort(key=lambda p: p.spec.index)
    return results


# -- standings -------------------------------------------------------------------------------


def wilson_interval(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(slots=True)
class Standing:
    """One bot's line in the table."""

    bot: str
    games: int = 0
    wins: int = 0
    placings: list[int] = field(default_factory=list)
    faults: int = 0
    mu: float = 25.0
    sigma: float = 25.0 / 3
    #: the engine's statistics summed over the bot's seats (games played here only)
    totals: dict[str, float] = field(default_factory=dict)

    @property
    def illegal_rate(self) -> float | None:
        """Illegal attempts per attempt (Kriegspiel-like games: an engine whose statistics
        count ``moves`` and ``illegal_attempts``); ``None`` when not counted."""
        illegal = self.totals.get("illegal_attempts")
        moves = self.totals.get("moves")
        if illegal is None and moves is None:
            return None
        attempts = (illegal or 0.0) + (moves or 0.0)
        return (illegal or 0.0) / attempts if attempts else 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def mean_placing(self) -> float:
        return sum(self.placings) / len(self.placings) if self.placings else 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "win_rate_95ci": [round(low, 4), round(high, 4)],
            "mean_placing": round(self.mean_placing, 3),
            "faults": self.faults,
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "stats": {key: round(value, 3) for key, value in sorted(self.totals.items())},
        }


def standings(results: Sequence[PlayedGame], bots: Sequence[str]) -> list[Standing]:
    """The table: counts per seat taken, and an openskill (Plackett-Luce) rating per bot.

    A bot that fills several seats of one game counts each seat as a game; its rating
    moves by the mean of its seats' updates. Games are rated in schedule order.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    table = {name: Standing(name) for name in bots}
    for played in sorted(results, key=lambda p: p.spec.index):
        seated = played.spec.bots
        for seat, name in enumerate(seated):
            line = table[name]
            line.games += 1
            line.placings.append(played.ranks[seat])
            line.wins += played.ranks[seat] == 1 and played.ranks.count(1) == 1
            line.faults += seat in played.faults
            if seat < len(played.stats):
                for key, value in played.stats[seat].items():
                    line.totals[key] = line.totals.get(key, 0.0) + value
        teams = [[model.rating(mu=table[n].mu, sigma=table[n].sigma)] for n in seated]
        rated = model.rate(teams, ranks=[float(r) for r in played.ranks])
        updates: dict[str, list[tuple[float, float]]] = {}
        for name, team in zip(seated, rated, strict=True):
            updates.setdefault(name, []).append((team[0].mu, team[0].sigma))
        for name, values in updates.items():
            table[name].mu = sum(v[0] for v in values) / len(values)
            table[name].sigma = sum(v[1] for v in values) / len(values)
    return sorted(table.values(), key=lambda s: (-(s.mu - 3 * s.sigma), s.bot))


def format_table(lines: Sequence[Standing]) -> str:
    """The standings as a text table, best conservative rating (mu - 3 sigma) first."""
    illegal = any(s.illegal_rate is not None for s in lines)
    header = (
        f"{'bot':<28} {'games':>6} {'wins':>6} {'win rate':>9} {'95% CI':>15} "
        f"{'placing':>8} {'mu':>7} {'sigma':>6}"
    ) + (f" {'illegal/attempt':>15}" if illegal else "")
    rows = [header, "-" * len(header)]
    for s in lines:
        low, high = s.interval
        row = (
            f"{s.bot:<28} {s.games:>6} {s.wins:>6} {s.win_rate:>9.1%} "
            f"{f'{low:.1%}-{high:.1%}':>15} {s.mean_placing:>8.2f} {s.mu:>7.2f} {s.sigma:>6.2f}"
        )
        if illegal:
            rate = s.illegal_rate
            row += f" {'-' if rate is None else f'{rate:.3f}':>15}"
        rows.append(row)
    return "\n".join(rows)
