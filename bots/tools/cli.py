"""The bots' subcommands of ``umpire``: ``tournament``, ``selfplay`` and ``bot``.

:func:`register` adds them to the main parser. What they need from the server side (a
knowledge base to record games in, a feed to publish standings on) comes in as
:class:`Services` from the composition root (``server/cli.py``): the bots import only the
engines (``server.games``) and the wire protocol (``server.wire.protocol``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import secrets
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

from bots.client.driver import ConnectionFailed
from bots.registry import builtin_names, load_bot
from bots.sdk.bot import BotError
from bots.sdk.budget import parse_budget
from bots.sdk.entrant import host_tournament
from bots.tools.arena import (
    GameSpec,
    PlayedGame,
    Recorder,
    format_table,
    schedule,
    standings,
    stream_local,
    stream_remote,
)
from server.games import engine, engine_names
from server.games.base import ConfigError

#: ``umpire bot``'s default ``--retries``: connection attempts in a row that may fail. The
#: waits double from about 0.2 s to at most 10 s (bots.client.driver.backoff), so twelve
#: of them last about 70 s: a server restart is outlasted, an unreachable server is given
#: up in about a minute. A ladder bot (``--ladder``) runs unattended: about 2.5 minutes.
BOT_RETRIES = 12
LADDER_RETRIES = 20


class Feed(Protocol):
    """Where a tournament publishes its standings after each game (the MQTT bus)."""

    def standings(self, tournament: str, table: dict[str, Any]) -> None:
        """Publish the current table (never raises, never blocks)."""


@dataclass(frozen=True, slots=True)
class Services:
    """What the bots' commands get from the composition root.

    ``open_recorder(db, signing_key)`` opens the knowledge base ``db`` and yields a
    :data:`Recorder` for the games played (``--db``), signed with the key file
    ``signing_key`` (``--signing-key``; None: the default, beside a SQLite ``db``; the
    recorder refuses, raising ``OSError``, where there is no default: PostgreSQL);
    ``open_feed(url)`` yields a :class:`Feed`
    (``--mqtt``). Either may be missing: the option then says it is unavailable.
    """

    open_recorder: Callable[[str, str | None], AbstractAsyncContextManager[Recorder]] | None = None
    open_feed: Callable[[str], AbstractAsyncContextManager[Feed]] | None = None


class Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, total: int, stream: TextIO | None = None) -> None:
        self.total = total
        self.done = 0
        # sys.stderr read now, not at import: a test's captured stream may be closed later
        stream = sys.stderr if stream is None else stream
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


def ws_url(text: str) -> str:
    """A server's websocket URL (``ws://`` or ``wss://``), or several separated by commas
    (the nodes of a cluster, tried in turn), for ``--server``."""
    for url in text.split(","):
        url = url.strip()
        if not url.startswith(("ws://", "wss://")) or len(url.split("://", 1)[1]) == 0:
            raise argparse.ArgumentTypeError(f"not a websocket URL (ws://HOST:PORT): {url!r}")
    return text


class ServerUrls(argparse.Action):
    """``--server URL``, repeatable: the URLs joined by commas, in order (the first one
    given replaces the default). A client connects to the first and moves to the next
    when one cannot be reached (:class:`bots.client.driver.Client`)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        given = f"_{self.dest}_given"
        old = getattr(namespace, self.dest) if getattr(namespace, given, False) else None
        setattr(namespace, given, True)
        setattr(namespace, self.dest, f"{old},{values}" if old else values)


def mqtt_url(text: str) -> str:
    """A broker URL, ``mqtt://HOST[:PORT][/PREFIX]`` or ``mqtts://...``, for ``--mqtt``."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(text)
        ok = parts.scheme in ("mqtt", "mqtts") and bool(parts.hostname)
        _ = parts.port  # raises on a port that is not a number or out of range
    except ValueError:
        ok = False
    if not ok:
        raise argparse.ArgumentTypeError(f"not an MQTT URL (mqtt://HOST:PORT/PREFIX): {text!r}")
    return text


def add_ray_option(group: argparse._ActionsContainer) -> None:
    """``--ray [ADDRESS]``: play the games as Ray tasks (bots/tools/ray_games.py)."""
    group.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="play the games as Ray tasks: on the Ray cluster at ADDRESS (host:port of its "
        "head, or ray://host:port), or without ADDRESS on a local Ray started for the run "
        "with --parallel CPUs; the same seed gives the same games (the ray extra)",
    )


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], services: Services | None = None
) -> None:
    """Add the bots' subcommands to the ``umpire`` parser, wired to ``services``."""
    services = services or Services()
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
    p.add_argument(
        "--parallel",
        type=int,
        default=1,
        help="worker processes (default 1; with --ray: the local Ray's CPUs)",
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--local", action="store_true", help="play in-process (the default)")
    mode.add_argument(
        "--server",
        type=ws_url,
        action=ServerUrls,
        metavar="URL",
        help="play through a server (ws://...; repeat it or use commas for a cluster's nodes)",
    )
    add_ray_option(mode)
    p.add_argument(
        "--db", help="write every game to this knowledge base (SQLite file or postgresql://...)"
    )
    add_signing_key_option(p)
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
        type=mqtt_url,
        metavar="URL",
        help="publish the standings after each game to mqtt://HOST:PORT[/PREFIX]",
    )
    p.add_argument("--name", help="the tournament's name on MQTT (default: game and seed)")
    p.add_argument(
        "--budget",
        metavar="UNIT=AMOUNT",
        help="each searching bot's budget per decision: nodes=N (counted search nodes, "
        "the same results on any machine) or cpu=SECONDS (the thread's CPU time, "
        "independent of the machine's load); bots without a search ignore it",
    )
    hosted = p.add_argument_group(
        "a hosted tournament (with --server: the server pairs, seats and scores; "
        "docs/tournaments.md)"
    )
    hosted.add_argument(
        "--format",
        choices=("swiss", "round_robin", "arena"),
        default="round_robin",
        help="the hosted tournament's format (default round_robin)",
    )
    hosted.add_argument("--rounds", type=int, help="Swiss rounds (default: ceil(log2 bots))")
    hosted.add_argument("--duration", type=float, help="an arena's length in seconds")
    hosted.add_argument("--rated", action="store_true", help="rate every game")
    hosted.add_argument(
        "--retries",
        type=int,
        default=4,
        metavar="N",
        help="connection attempts in a row that may fail before giving up (default 4: "
        "about 3 s against an unreachable server)",
    )
    p.set_defaults(func=cmd_tournament, services=services)

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
    p.add_argument(
        "--server",
        type=ws_url,
        action=ServerUrls,
        default="ws://127.0.0.1:8765",
        help="the server's websocket URL (repeat it or use commas for a cluster's nodes)",
    )
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
    p.add_argument(
        "--games",
        type=int,
        help="how many games to play in a row (default 1; with --ladder: until stopped)",
    )
    p.add_argument("--name", help="display name (default: the bot's name)")
    p.add_argument("--token", help="a token from an earlier run, to keep the same identity")
    p.add_argument(
        "--retries",
        type=int,
        metavar="N",
        help="connection attempts in a row that may fail before the bot gives up (default "
        f"{BOT_RETRIES}: waits doubling from about 0.2 s to at most 10 s, so the bot "
        "outlasts a server restart and an unreachable server ends it in about a minute; "
        f"with --ladder {LADDER_RETRIES}, about 2.5 minutes)",
    )
    ladder = p.add_argument_group('the ranked ladder (docs/bots.md, "The ladder")')
    ladder.add_argument(
        "--ladder",
        action="store_true",
        help="play rated ladder games of --game until stopped (needs a bot account's --token)",
    )
    ladder.add_argument(
        "--max-concurrent",
        type=int,
        default=1,
        metavar="N",
        help="ladder games at once, each by its own bot instance (default 1)",
    )
    ladder.add_argument("--rules", help="the ladder's rule set (default: the game's default)")
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
    p.add_argument(
        "--parallel",
        type=int,
        default=1,
        help="worker processes (default 1; with --ray: the local Ray's CPUs)",
    )
    add_ray_option(p)
    p.add_argument(
        "--db", required=True, help="the knowledge base to write (SQLite file or postgresql://...)"
    )
    add_signing_key_option(p)
    p.add_argument("--seed", help="the same seed plays the same games")
    p.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE")
    p.set_defaults(func=cmd_selfplay, services=services)


def add_signing_key_option(p: argparse.ArgumentParser) -> None:
    """``--signing-key PATH``: the key file the games written to ``--db`` are signed with."""
    p.add_argument(
        "--signing-key",
        metavar="PATH",
        help="the Ed25519 key file the games written to --db are signed with (created, mode "
        "0600, if missing; default: beside a SQLite --db, DB.key; required with PostgreSQL; "
        "docs/server.md, the signing key)",
    )


def check_bot(spec: str, game: str | None) -> Any:
    """Make one bot from ``spec`` (raise :class:`BotError` naming it if it cannot be
    made, e.g. an unknown level, or if it does not play ``game``); return it."""
    try:
        bot = load_bot(spec)[1]()
    except (ValueError, TypeError) as exc:
        raise BotError(f"bot {spec!r}: {exc}") from None
    games = list(getattr(type(bot), "games", ()) or ())
    if game is not None and games and game not in games:
        raise BotError(f"bot {spec!r} plays {', '.join(games)}, not {game}")
    return bot


def lineup(args: argparse.Namespace) -> tuple[list[str], dict[str, Any], int]:
    """The bots, validated game options and seat count of a tournament or self-play run;
    raise :class:`BotError` or :class:`ConfigError` with what is wrong."""
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not names:
        raise BotError("--bots needs at least one bot")
    for name in names:
        check_bot(name, args.game)
    budget = getattr(args, "budget", None)
    if budget is not None:
        try:
            parse_budget(budget)  # even if no bot here searches
        except ValueError as exc:
            raise ConfigError(f"--budget: {exc}") from exc
        for name in names:
            try:
                load_bot(name, budget=budget)[1]()
            except TypeError:  # a bot without a search budget
                pass
            except ValueError as exc:
                raise ConfigError(f"--budget: {exc}") from exc
    for option in ("games", "parallel", "rounds"):
        value = getattr(args, option, None)
        if value is not None and value < 1:
            raise ConfigError(f"--{option} must be at least 1, not {value}")
    retries = getattr(args, "retries", None)
    if retries is not None and retries < 0:
        raise ConfigError(f"--retries must be 0 or more, not {retries}")
    duration = getattr(args, "duration", None)
    if duration is not None and not 0 < duration < float("inf"):
        raise ConfigError(f"--duration must be a number of seconds above 0, not {duration}")
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
    if args.server:
        return hosted_tournament(args, names, options)
    seed = args.seed if args.seed is not None else secrets.token_hex(8)
    specs = schedule(args.game, options, names, seats, args.games, seed, args.budget)
    started = time.monotonic()
    settings = {"source": "tournament", "seed": seed}
    services: Services = args.services
    if (args.db and services.open_recorder is None) or (args.mqtt and services.open_feed is None):
        print("umpire tournament: --db and --mqtt need the umpire server", file=sys.stderr)
        return 2

    async def run() -> list[PlayedGame]:
        async with contextlib.AsyncExitStack() as stack:
            record = feed = None
            if args.db and services.open_recorder is not None:
                record = await stack.enter_async_context(
                    services.open_recorder(args.db, args.signing_key)
                )
            if args.mqtt and services.open_feed is not None:
                bus = await stack.enter_async_context(services.open_feed(args.mqtt))
                feed = (args.name or f"{args.game}-{seed}", list(dict.fromkeys(names)), bus)
            return await play_and_record(
                specs,
                args.parallel,
                record,
                settings,
                server=args.server,
                feed=feed,
                ray_address=args.ray,
            )

    try:
        results = asyncio.run(run())
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
            "budget": args.budget,
            "standings": [line.to_json() for line in table],
            "results": [_result_json(r) for r in results],
        }
        print(json.dumps(report, indent=2))
    else:
        budget = f", budget {args.budget}" if args.budget else ""
        print(
            f"{args.game}: {len(results)} games, {seats} seats, seed {seed}{budget}, "
            f"{elapsed:.1f} s ({len(results) / max(elapsed, 1e-9):.1f} games/s)"
        )
        print(format_table(table))
        endings = Counter(r.reason for r in results)
        print("endings: " + ", ".join(f"{why} {n}" for why, n in endings.most_common()))
    return 0


def hosted_tournament(args: argparse.Namespace, names: list[str], options: dict[str, Any]) -> int:
    """``umpire tournament --server URL``: a client of a hosted tournament. It creates the
    tournament on the server, enters one :class:`~bots.sdk.entrant.TournamentEntrant` per
    bot (a guest named after the bot and its place in ``--bots``), starts it, plays the
    games the server pairs and prints the server's standings."""
    create: dict[str, Any] = {
        "game": args.game,
        "options": {k: v for k, v in options.items() if k != "seats"},
        "format": args.format,
        "rated": args.rated,
        "name": args.name or f"umpire tournament {args.game}",
    }
    if args.rounds is not None:
        create["rounds"] = args.rounds
    if args.duration is not None:
        create["duration"] = args.duration
    entrants = [
        (f"{name.replace(':', '-')}-{i + 1}"[:32], load_bot(name)[1])
        for i, name in enumerate(names)
    ]
    started = time.monotonic()
    try:
        final = asyncio.run(host_tournament(args.server, create, entrants, retries=args.retries))
    except (BotError, OSError, ConnectionFailed) as exc:
        print(f"umpire tournament: {exc}", file=sys.stderr)
        return 1
    elapsed = time.monotonic() - started
    if args.json:
        print(json.dumps(final, indent=2))
        return 0
    games = [g for g in final["games"] if len(g["players"]) == 2]
    print(
        f"{args.game}: hosted {final['format']} {final['id']} on {args.server}, "
        f"{final['status']}, {len(games)} games, {elapsed:.1f} s"
    )
    print(f"{'#':>3} {'entrant':<32} {'points':>6} {'buchholz':>8} {'s-b':>6}  w/d/l/byes")
    for r in final["standings"]:
        print(
            f"{r['rank']:>3} {r['name']:<32} {r['points']:>6g} {r['buchholz']:>8g} "
            f"{r['sonneborn_berger']:>6g}  {r['wins']}/{r['draws']}/{r['losses']}/{r['byes']}"
        )
    return 0


async def play_and_record(
    specs: list[GameSpec],
    parallel: int,
    record: Recorder | None,
    settings: dict[str, Any],
    server: str | None = None,
    feed: tuple[str, list[str], Feed] | None = None,
    ray_address: str | None = None,
) -> list[PlayedGame]:
    """Play ``specs`` (locally, on ``server``, or as Ray tasks when ``ray_address`` is
    given: ``""`` starts a local Ray of ``parallel`` CPUs) with a progress bar; ``record``
    each local game as it finishes (a server logs its own games); publish the standings
    after each game on ``feed`` (the tournament's name, its bots, the feed) if given.

    Returns the games in schedule order, without their full event lists (those are
    recorded as each game finishes, then dropped to keep memory flat).
    """
    with contextlib.ExitStack() as stack:
        if ray_address is not None:
            from bots.tools.ray_games import batch_size, ray_session, stream_ray, worker_slots

            ray = stack.enter_context(ray_session(ray_address, parallel))
            slots = worker_slots(ray)
            batch = batch_size(len(specs), slots)
            print(
                f"Ray {'at ' + ray_address if ray_address else '(local)'}: {slots} CPUs, "
                f"{len(specs)} games in tasks of {batch}",
                file=sys.stderr,
            )
            games = stream_ray(specs, ray, batch)
        elif server:
            games = stream_remote(specs, server, parallel)
        else:
            games = stream_local(specs, parallel)
        return await record_games(specs, games, record, settings, feed)


async def record_games(
    specs: list[GameSpec],
    games: AsyncIterator[PlayedGame],
    record: Recorder | None,
    settings: dict[str, Any],
    feed: tuple[str, list[str], Feed] | None,
) -> list[PlayedGame]:
    """Consume ``games`` (the stream of ``specs`` played anywhere) as
    :func:`play_and_record` describes."""
    bar = Progress(len(specs))
    results: list[PlayedGame] = []
    async for played in games:
        if record is not None:
            await record(played, {**settings, "index": played.spec.index})
        played.local = None
        results.append(played)
        bar.step()
        if feed is not None:
            name, bots, bus = feed
            table = standings(results, bots)
            bus.standings(
                name,
                {
                    "games": len(results),
                    "of": len(specs),
                    "table": [line.to_json() for line in table],
                },
            )
    results.sort(key=lambda p: p.spec.index)
    return results


def cmd_bot(args: argparse.Namespace) -> int:
    """``umpire bot``: play games on a server with one bot."""
    from bots.sdk.remote import Target, play_remote

    try:
        name, factory = load_bot(args.spec)
        games = type(check_bot(args.spec, args.game)).games
        if not (args.room or args.invite or args.game):
            if len(games) != 1:
                raise BotError("say --room, --invite or --game")
            args.game = games[0]
        options = parse_options(args.option)
        if args.game and not (args.room or args.invite):
            game_options(args.game, None, args.option)  # refuse bad options before connecting
        if args.games is not None and args.games < 1:
            raise ConfigError(f"--games must be at least 1, not {args.games}")
        if args.seat is not None and args.seat < 0:
            raise ConfigError(f"--seat must be 0 or more, not {args.seat}")
        if args.max_concurrent < 1:
            raise ConfigError(f"--max-concurrent must be at least 1, not {args.max_concurrent}")
        if args.retries is None:
            args.retries = LADDER_RETRIES if args.ladder else BOT_RETRIES
        if args.retries < 0:
            raise ConfigError(f"--retries must be 0 or more, not {args.retries}")
    except (BotError, ConfigError) as exc:
        print(f"umpire bot: {exc}", file=sys.stderr)
        return 2
    if args.ladder:
        return _ladder(args, name, factory)
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
                games=args.games or 1,
                token=args.token,
                retries=args.retries,
            )
        )
    except BotError as exc:
        print(f"umpire bot: {exc}", file=sys.stderr)
        return 1
    for result in results:
        print(f"seat {result.seat}: placed {result.rank} of {len(result.ranks)} ({result.reason})")
    return 0


def _ladder(args: argparse.Namespace, name: str, factory: Callable[[], Any]) -> int:
    """``umpire bot SPEC --ladder``: ladder games until interrupted (Ctrl-C leaves the
    ladder and finishes the games in progress) or ``--games`` games were offered when
    given explicitly."""
    import signal

    from bots.sdk.ladder import LadderPlayer

    if not args.token:
        print("umpire bot: --ladder needs a bot account's API token (--token)", file=sys.stderr)
        return 2
    if args.max_concurrent < 1:
        print("umpire bot: --max-concurrent must be at least 1", file=sys.stderr)
        return 2
    player = LadderPlayer(
        args.server,
        factory,
        token=args.token,
        game=args.game,
        name=args.name or name,
        rules=args.rules,
        max_concurrent=args.max_concurrent,
        games=args.games,
        retries=args.retries,
    )

    async def run() -> Any:
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signal.SIGINT, player.stop)
            loop.add_signal_handler(signal.SIGTERM, player.stop)
        return await player.run()

    try:
        stats = asyncio.run(run())
    except BotError as exc:
        print(f"umpire bot: {exc}", file=sys.stderr)
        return 1
    wins = sum(1 for r in stats.results if r.rank == 1)
    print(
        f"{len(stats.results)} ladder games, {wins} won, {stats.failed} failed, "
        f"at most {stats.most_at_once} at once"
    )
    return 0


def cmd_selfplay(args: argparse.Namespace) -> int:
    """``umpire selfplay``: a tournament whose games all go to the knowledge base."""
    try:
        names, options, seats = lineup(args)
    except (BotError, ConfigError) as exc:
        print(f"umpire selfplay: {exc}", file=sys.stderr)
        return 2
    services: Services = args.services
    open_recorder = services.open_recorder
    if open_recorder is None:
        print("umpire selfplay: no knowledge base is available", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.token_hex(8)
    specs = schedule(args.game, options, names, seats, args.games, seed)
    started = time.monotonic()
    settings = {"source": "selfplay", "seed": seed}

    async def run() -> list[PlayedGame]:
        async with open_recorder(args.db, args.signing_key) as record:
            return await play_and_record(
                specs, args.parallel, record, settings, ray_address=args.ray
            )

    try:
        results = asyncio.run(run())
    except (BotError, OSError) as exc:
        print(f"umpire selfplay: {exc}", file=sys.stderr)
        return 1
    elapsed = time.monotonic() - started
    print(
        f"{len(results)} {args.game} games logged to {args.db} in {elapsed:.1f} s "
        f"({len(results) / max(elapsed, 1e-9):.1f} games/s), seed {seed}"
    )
    return 0


def _result_json(played: PlayedGame) -> dict[str, Any]:
    return {
        "index": played.spec.index,
        "bots": played.spec.bots,
        "ranks": played.ranks,
        "reason": played.reason,
        "faults": {str(k): v for k, v in played.faults.items()},
    }
