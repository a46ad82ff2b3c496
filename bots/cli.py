"""The bots' subcommands of ``umpire``: ``tournament`` (and, with the store, ``selfplay``,
``export``, ``verify``, ``bot``). :func:`register` adds them to the main parser."""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
import time
from typing import Any, TextIO

from bots.arena import (
    GameSpec,
    PlayedGame,
    format_table,
    schedule,
    standings,
    stream_local,
    stream_remote,
)
from bots.registry import builtin_names, load_bot
from bots.sdk import BotError
from server.games import engine, engine_names
from server.games.base import ConfigError, GameError


class Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, total: int, stream: TextIO = sys.stderr) -> None:
        self.total = total
        self.done = 0
        self.stream = stream
        self.start = time.monotonic()
        self.enabled = stream.isatty()

    def step(self, _: object = None) -> None:
        """Count one finished game and redraw."""
        self.done += 1
        if not self.enabled:
            return
        width = 30
        filled = width * self.done // max(self.total, 1)
        rate = self.done / max(time.monotonic() - self.start, 1e-9)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} "
            f"{rate:.1f} games/s"
        )
        if self.done == self.total:
            self.stream.write("\n")
        self.stream.flush()


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """Read ``key=value`` options; values are JSON when they parse as JSON, else text."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise ConfigError(f"an option is key=value, not {pair!r}")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


def game_options(game: str, seats: int | None, pairs: list[str]) -> tuple[dict[str, Any], int]:
    """Validated options for ``game`` with ``seats`` seats; return them and the seat count."""
    eng = engine(game)
    config = eng.make_config(parse_options(pairs))
    if seats is not None:
        config = eng.with_seats(config, seats)
    return config.to_options(), config.seats


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the bots' subcommands to the ``umpire`` parser."""
    p = sub.add_parser(
        "tournament",
        help="play many games between bots and print a ratings table",
        description="Rotate bots through the seats, play games (in parallel), and print "
        "games, wins, win rate with a 95%% confidence interval, mean placing and an "
        "openskill rating per bot. Built-in bots: " + ", ".join(builtin_names()),
    )
    p.add_argument("--game", required=True, choices=engine_names())
    p.add_argument("--bots", required=True, help="comma-separated bot specs (A,B,...)")
    p.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    p.add_argument("--seats", type=int, help="seats per game (default: one per bot)")
    p.add_argument("--parallel", type=int, default=1, help="worker processes (default 1)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--local", action="store_true", help="play in-process (the default)")
    mode.add_argument("--server", metavar="URL", help="play through a server (ws://...)")
    p.add_argument("--db", help="write every game to this knowledge base (SQLite file)")
    p.add_argument("--seed", help="tournament seed: the same seed plays the same games")
    p.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. -o preset=classic -o calza=true",
    )
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.add_argument(
        "--mqtt",
        metavar="URL",
        help="publish the standings after each game to mqtt://HOST:PORT[/PREFIX]",
    )
    p.add_argument("--name", help="the tournament's name on MQTT (default: game and seed)")
    p.set_defaults(func=cmd_tournament)

    p = sub.add_parser(
        "bot",
        help="run a bot on a server: join a room (or any open room of its game) and play",
        description="Built-in bots: "
        + ", ".join(builtin_names())
        + "; or any Bot subclass as package.module:ClassName.",
    )
    p.add_argument(
        "spec", metavar="BOT", help="a built-in name (perudo-expert:hard) or module:Class"
    )
    p.add_argument("--server", default="ws://127.0.0.1:8765", help="the server's websocket URL")
    p.add_argument("--room", help="the room id to join")
    p.add_argument("--invite", help="a private room's invite code")
    p.add_argument("--seat", type=int, help="the seat to take (default: the first free one)")
    p.add_argument(
        "--game",
        choices=engine_names(),
        help="without --room: join any open room of this game, or create one",
    )
    p.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="options of a room the bot creates",
    )
    p.add_argument("--games", type=int, default=1, help="how many games to play in a row")
    p.add_argument("--name", help="display name (default: the bot's name)")
    p.add_argument("--token", help="a token from an earlier run, to keep the same identity")
    p.set_defaults(func=cmd_bot)

    p = sub.add_parser(
        "selfplay",
        help="play bot games in-process and log them to a knowledge base",
        description="The fast in-process path: games are logged in the server's format.",
    )
    p.add_argument("--game", required=True, choices=engine_names())
    p.add_argument("--bots", required=True, help="comma-separated bot specs")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seats", type=int, help="seats per game (default: one per bot)")
    p.add_argument("--parallel", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--db", required=True, help="the SQLite knowledge base to write")
    p.add_argument("--seed", help="the same seed plays the same games")
    p.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE")
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser(
        "export",
        help="export finished games as JSONL (every projection) or PGN (Kriegspiel)",
        description="Games still in progress are never exported: their seeds are secret.",
    )
    p.add_argument("--db", required=True, help="the SQLite knowledge base to read")
    p.add_argument("--format", choices=["jsonl", "pgn"], default="jsonl")
    p.add_argument("--game", action="append", metavar="ID", help="only this game (repeatable)")
    p.add_argument("--out", help="write here instead of standard output")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser(
        "verify",
        help="recompute a game from its revealed seed and log: was the dice master honest?",
    )
    p.add_argument("--db", required=True, help="the SQLite knowledge base to read")
    p.add_argument("game_id", nargs="+", metavar="GAME_ID")
    p.set_defaults(func=cmd_verify)


def lineup(args: argparse.Namespace) -> tuple[list[str], dict[str, Any], int]:
    """The bots, validated game options and seat count of a tournament or self-play run;
    raise :class:`BotError` or :class:`ConfigError` with what is wrong."""
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not names:
        raise BotError("--bots needs at least one bot")
    for name in names:
        load_bot(name)
    if args.games < 1 or args.parallel < 1:
        raise ConfigError("--games and --parallel must be at least 1")
    seats = args.seats
    if seats is None:  # one seat per bot, within the game's range
        eng = engine(args.game)
        seats = min(max(len(names), eng.min_seats), eng.max_seats)
    options, seats = game_options(args.game, seats, args.option)
    return names, options, seats


def cmd_tournament(args: argparse.Namespace) -> int:
    """``umpire tournament``."""
    try:
        names, options, seats = lineup(args)
    except (BotError, ConfigError) as exc:
        print(f"umpire tournament: {exc}", file=sys.stderr)
        return 2
    if args.server and args.db:
        print(
            "umpire tournament: with --server the server logs the games; drop --db", file=sys.stderr
        )
        return 2
    seed = args.seed if args.seed is not None else secrets.token_hex(8)
    specs = schedule(args.game, options, names, seats, args.games, seed)
    started = time.monotonic()
    settings = {"source": "tournament", "seed": seed}
    feed = None
    if args.mqtt:
        feed = (args.name or f"{args.game}-{seed}", list(dict.fromkeys(names)), args.mqtt)
    try:
        results = asyncio.run(
            play_and_record(specs, args.parallel, args.db, settings, server=args.server, feed=feed)
        )
    except (BotError, OSError) as exc:
        print(f"umpire tournament: {exc}", file=sys.stderr)
        return 1
    elapsed = time.monotonic() - started
    table = standings(results, list(dict.fromkeys(names)))
    if args.json:
        report = {
            "game": args.game,
            "options": options,
            "seed": seed,
            "games": len(results),
            "seconds": round(elapsed, 3),
            "standings": [line.to_json() for line in table],
            "results": [_result_json(r) for r in results],
        }
        print(json.dumps(report, indent=2))
    else:
        print(
            f"{args.game}: {len(results)} games, {seats} seats, seed {seed}, "
            f"{elapsed:.1f} s ({len(results) / max(elapsed, 1e-9):.1f} games/s)"
        )
        print(format_table(table))
    return 0


async def play_and_record(
    specs: list[GameSpec],
    parallel: int,
    db: str | None,
    settings: dict[str, Any],
    server: str | None = None,
    feed: tuple[str, list[str], str] | None = None,
) -> list[PlayedGame]:
    """Play ``specs`` (locally, or on ``server``) with a progress bar; log each local game
    to ``db`` if given (a server logs its own games).

    Returns the games in schedule order, without their full event lists (those are
    written to the database as each game finishes, then dropped to keep memory flat).
    """
    bar = Progress(len(specs))
    store = None
    if db:
        from bots.selfplay import ensure_bot_players
        from server.store import SqliteStore

        store = SqliteStore(db, synchronous="NORMAL")
        await store.open()
        await ensure_bot_players(store, [name for spec in specs for name in spec.bots])
    results: list[PlayedGame] = []
    bus = None
    if feed is not None:
        from server.bus import make_bus

        bus = make_bus(feed[2])
        await bus.start()
    try:
        games = stream_remote(specs, server, parallel) if server else stream_local(specs, parallel)
        async for played in games:
            if store is not None:
                from bots.selfplay import record_game

                await record_game(store, played, {**settings, "index": played.spec.index})
            played.local = None
            results.append(played)
            bar.step()
            if bus is not None and feed is not None:
                table = standings(results, feed[1])
                bus.standings(
                    feed[0],
                    {
                        "games": len(results),
                        "of": len(specs),
                        "table": [line.to_json() for line in table],
                    },
                )
    finally:
        if store is not None:
            await store.close()
        if bus is not None:
            await bus.close()
    results.sort(key=lambda p: p.spec.index)
    return results


def cmd_bot(args: argparse.Namespace) -> int:
    """``umpire bot``: play games on a server with one bot."""
    from bots.remote import Target, play_remote

    try:
        name, factory = load_bot(args.spec)
        if not (args.room or args.invite or args.game):
            games = type(factory()).games
            if len(games) != 1:
                raise BotError("say --room, --invite or --game")
            args.game = games[0]
        options = parse_options(args.option)
        if args.games < 1:
            raise ConfigError("--games must be at least 1")
    except (BotError, ConfigError) as exc:
        print(f"umpire bot: {exc}", file=sys.stderr)
        return 2
    target = Target(
        room=args.room, invite=args.invite, seat=args.seat, game=args.game, options=options
    )
    try:
        results = asyncio.run(
            play_remote(
                args.server,
                factory,
                name=args.name or name,
                target=target,
                games=args.games,
                token=args.token,
            )
        )
    except BotError as exc:
        print(f"umpire bot: {exc}", file=sys.stderr)
        return 1
    for result in results:
        print(f"seat {result.seat}: placed {result.rank} of {len(result.ranks)} ({result.reason})")
    return 0


def cmd_selfplay(args: argparse.Namespace) -> int:
    """``umpire selfplay``: a tournament whose games all go to the knowledge base."""
    try:
        names, options, seats = lineup(args)
    except (BotError, ConfigError) as exc:
        print(f"umpire selfplay: {exc}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.token_hex(8)
    specs = schedule(args.game, options, names, seats, args.games, seed)
    started = time.monotonic()
    settings = {"source": "selfplay", "seed": seed}
    results = asyncio.run(play_and_record(specs, args.parallel, args.db, settings))
    elapsed = time.monotonic() - started
    print(
        f"{len(results)} {args.game} games logged to {args.db} in {elapsed:.1f} s "
        f"({len(results) / max(elapsed, 1e-9):.1f} games/s), seed {seed}"
    )
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """``umpire export``."""
    from server.export import export_jsonl, export_pgn

    async def run(out: TextIO) -> int:
        store = await _open_existing(args.db)
        try:
            if args.format == "pgn":
                return await export_pgn(store, out, args.game)
            return await export_jsonl(store, out, args.game)
        finally:
            await store.close()

    try:
        if args.out:
            with open(args.out, "w", encoding="utf-8") as out:
                count = asyncio.run(run(out))
        else:
            count = asyncio.run(run(sys.stdout))
    except (OSError, GameError) as exc:
        print(f"umpire export: {exc}", file=sys.stderr)
        return 1
    print(f"exported {count} games", file=sys.stderr)
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """``umpire verify``: exit 0 when every game checks out, 1 otherwise."""
    from server.export import verify_game

    async def run() -> dict[str, list[str]]:
        store = await _open_existing(args.db)
        try:
            return {game_id: await verify_game(store, game_id) for game_id in args.game_id}
        finally:
            await store.close()

    try:
        reports = asyncio.run(run())
    except OSError as exc:
        print(f"umpire verify: {exc}", file=sys.stderr)
        return 1
    honest = True
    for game_id, problems in reports.items():
        if problems:
            honest = False
            print(f"{game_id}: NOT verified")
            for problem in problems:
                print(f"  - {problem}")
        else:
            print(
                f"{game_id}: verified: the seed matches its commitment and the whole game, "
                "every die included, replays from it exactly as logged"
            )
    return 0 if honest else 1


async def _open_existing(path: str) -> Any:
    """Open a knowledge base that must already exist (never create an empty one)."""
    import os

    from server.store import SqliteStore

    if not os.path.exists(path):
        raise FileNotFoundError(f"no knowledge base at {path}")
    store = SqliteStore(path)
    await store.open()
    return store


def _result_json(played: PlayedGame) -> dict[str, Any]:
    return {
        "index": played.spec.index,
        "bots": played.spec.bots,
        "ranks": played.ranks,
        "reason": played.reason,
        "faults": {str(k): v for k, v in played.faults.items()},
    }
