"""The ``umpire`` command line: one console script, a subcommand per feature.

Each subcommand is registered in :func:`build_parser` and imports its implementation
lazily, so ``umpire --help`` stays fast and a missing optional dependency only affects the
subcommand that needs it.

This module is the composition root: the only place where the server's parts (store,
journal, bus) and the bots' parts (arena, registry) meet. The bots' commands get what they
need from the server as callbacks (:func:`open_recorder`, :func:`open_feed`), so ``bots``
imports nothing of the server but the engines and the wire protocol.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sqlite3
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, cast

from server import __version__
from server.games.spec import LANGS

if TYPE_CHECKING:
    from bots.tools.arena import PlayedGame, Recorder
    from bots.tools.cli import Feed
    from server.store.contract import Store


@asynccontextmanager
async def open_recorder(db: str, signing_key: str | None = None) -> AsyncIterator[Recorder]:
    """Open the knowledge base ``db`` and yield a recorder that logs each locally played
    game there through the journal (``umpire selfplay``, ``tournament --db``), signed
    with the key in ``signing_key`` (default: the file beside the database, as ``umpire
    serve``'s; server.store.signing)."""
    from server.errors import StoreError
    from server.store.contract import open_store
    from server.store.selfplay_log import SelfplayLog, scheduled_key
    from server.store.signing import key_path, open_signer

    problem = db_folder_problem(db)
    if problem:
        raise OSError(problem)
    try:
        path = key_path(db, signing_key)
    except StoreError as exc:  # (PostgreSQL and no key file: before connecting)
        raise OSError(str(exc)) from None
    store = open_store(db, synchronous="NORMAL")
    try:
        await store.open()
    except sqlite3.DatabaseError as exc:  # a file that is not a knowledge base
        raise OSError(f"--db {db} is not a knowledge base: {exc}") from None
    except StoreError as exc:  # (one line naming the file and what to do)
        raise OSError(str(exc)) from None
    try:
        try:  # (a read-only file: said now, not after the games are played)
            await store.check_writable()
        except StoreError as exc:
            raise OSError(str(exc)) from None
        try:
            signer = await open_signer(store, path)
        except StoreError as exc:  # (a key file that cannot be read or made: one line)
            raise OSError(str(exc)) from None
        book = SelfplayLog(store, signer)

        async def record(played: PlayedGame, settings: dict[str, Any]) -> None:
            local = played.local
            if local is None:
                raise ValueError("only games played in this process carry their events")
            options = local.config.to_options()
            await book.record(
                game=local.game_name,
                options=options,
                seed=local.seed,
                bots=played.spec.bots,
                events=local.events,
                causes=local.causes,
                history=local.game.history,
                outcome=local.outcome,
                settings=settings,
                key=scheduled_key(local.game_name, options, played.spec.bots, local.seed),
            )

        yield record
    finally:
        await store.close()


@asynccontextmanager
async def open_feed(url: str) -> AsyncIterator[Feed]:
    """Start the MQTT bus at ``url`` for a tournament's standings; flush it at the end."""
    from server.feed.bus import make_bus

    bus = make_bus(url)
    await bus.start()
    try:
        yield bus
    finally:
        await bus.close()


def _positive_days(text: str) -> float:
    """A number of days > 0 (``--session-idle-days``: 0 would expire every session at
    its first reconnect)."""
    try:
        days = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of days: {text!r}") from None
    if not 0 < days < float("inf"):
        raise argparse.ArgumentTypeError(f"must be more than 0 days: {text!r}")
    return days


def _port(text: str) -> int:
    """A TCP port, 0 to 65535 (0: any free port)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {port}")
    return port


def _count(text: str) -> int:
    """A whole number, 0 or more (a serve limit or count)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def _positive(text: str) -> int:
    """A whole number, 1 or more."""
    value = _count(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def _seconds(text: str) -> float:
    """A finite number, 0 or more (seconds, a rate)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number 0 or more, not {text}")
    return value


def mqtt_url(text: str) -> str:
    """``--mqtt``: a broker URL the public feed can publish to (checked, returned as is)."""
    from server.feed.bus import MqttTarget

    try:
        MqttTarget.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def db_folder_problem(db: str) -> str | None:
    """Why the knowledge base ``db`` cannot be created (its folder is missing), or None."""
    if "://" in db:
        return None
    folder = os.path.dirname(os.path.abspath(db))
    if not os.path.isdir(folder):
        return f"--db {db}: no folder {folder}; create it, or give another --db"
    return None


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr, exit status 2 (the
    full usage is a ``--help`` away); its subcommands' parsers are of this class too."""

    def error(self, message: str) -> NoReturn:
        """Print ``PROG: error: MESSAGE (PROG --help: usage)`` and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {message} ({self.prog} --help: usage)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = Parser(
        prog="umpire",
        description="A server for games of hidden information: Perudo and Kriegspiel.",
    )
    parser.add_argument("--version", action="version", version=f"umpire {__version__}")
    # (the subcommands' parsers are Parsers too; the registering functions take any kind)
    sub = cast(
        "argparse._SubParsersAction[argparse.ArgumentParser]",
        parser.add_subparsers(dest="command", metavar="COMMAND"),
    )
    rules = sub.add_parser("rules", help="list the games, their presets, options and house bots")
    rules.add_argument("game", nargs="?", help="one game's options (default: all)")
    rules.add_argument("--lang", choices=LANGS, default="en", help="the texts' language")
    rules.set_defaults(func=_cmd_rules)
    schema = sub.add_parser(
        "schema", help="print the JSON Schema of every wire message (both directions)"
    )
    schema.set_defaults(func=_cmd_schema)
    _add_serve(sub)
    from bots.tools.cli import Services
    from bots.tools.cli import register as register_bot_commands

    register_bot_commands(sub, Services(open_recorder=open_recorder, open_feed=open_feed))
    _add_data(sub)
    from bots.tools.advise_cli import register as register_advise

    register_advise(sub)
    from client_cli.cli import register as register_client

    register_client(sub)
    return parser


def _add_serve(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = sub.add_parser("serve", help="run the game server (websockets + SQLite or PostgreSQL)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=_port, default=8765, help="port (0: any free port)")
    serve.add_argument(
        "--db", default="umpire.db", help="SQLite file (created if missing) or postgresql:// URL"
    )
    serve.add_argument(
        "--signing-key",
        default="",
        metavar="PATH",
        help="the Ed25519 key file finished games are signed with (created, mode 0600, if "
        "missing; default: beside a SQLite --db, DB.key; a cluster's nodes all get the one "
        "file; docs/server.md)",
    )
    serve.add_argument(
        "--synchronous",
        default="FULL",
        choices=["FULL", "NORMAL"],
        help="SQLite durability: FULL survives power loss, NORMAL a process crash",
    )
    limits = serve.add_argument_group("limits")
    limits.add_argument("--max-frame", type=_count, default=16 * 1024, help="bytes per frame")
    limits.add_argument("--rate", type=_seconds, default=20.0, help="messages/s per connection")
    limits.add_argument("--burst", type=_seconds, default=40.0, help="message burst per connection")
    limits.add_argument(
        "--max-conn-per-ip", type=_count, default=64, help="connections per address"
    )
    limits.add_argument("--ping-interval", type=_seconds, default=20.0, help="seconds; 0: off")
    limits.add_argument("--ping-timeout", type=_seconds, default=20.0, help="seconds; 0: off")
    limits.add_argument("--idle-timeout", type=_seconds, default=600.0, help="seconds; 0: off")
    limits.add_argument("--abuse-limit", type=_seconds, default=10.0, help="bad frames before 1008")
    limits.add_argument("--max-rooms", type=_count, default=10_000, help="rooms on this server")
    limits.add_argument(
        "--max-rooms-per-player", type=_count, default=20, help="rooms a player hosts"
    )
    limits.add_argument(
        "--max-rooms-per-ip",
        type=_count,
        default=50,
        help="waiting or live rooms made from one address (IPv6: one /64)",
    )
    limits.add_argument(
        "--max-waiting-rooms", type=_count, default=2_000, help="waiting rooms on this server"
    )
    limits.add_argument(
        "--guests-per-ip",
        type=_count,
        default=30,
        help="new guests (hello without a token) from one address at once",
    )
    limits.add_argument(
        "--guest-every",
        type=_seconds,
        default=10.0,
        help="then one more new guest per address every this many seconds",
    )
    limits.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a proxy whose X-Forwarded-For names the client's address (repeatable)",
    )
    timing = serve.add_argument_group("time")
    timing.add_argument(
        "--grace", type=_seconds, default=60.0, help="seconds a seat waits for its player"
    )
    timing.add_argument(
        "--autopilot-delay", type=_seconds, default=1.0, help="seconds before it moves"
    )
    timing.add_argument(
        "--finished-ttl", type=_seconds, default=600.0, help="seconds to keep ended rooms"
    )
    timing.add_argument(
        "--empty-room-ttl",
        type=_seconds,
        default=60.0,
        help="seconds a waiting room lasts with no human seated nor its host; 0: for ever",
    )
    timing.add_argument(
        "--no-show",
        type=_seconds,
        default=60.0,
        help="seconds a match's players have to come (docs/matchmaking.md)",
    )
    timing.add_argument(
        "--seek-grace",
        type=_seconds,
        default=60.0,
        help="seconds a player's seeks outlive its last connection",
    )
    feed = serve.add_argument_group("public feed (docs/mqtt.md)")
    feed.add_argument(
        "--mqtt", type=mqtt_url, metavar="URL", help="publish to mqtt://HOST:PORT[/PREFIX]"
    )
    feed.add_argument(
        "--feed-delay-moves", type=_count, default=0, help="hold each event until N newer ones"
    )
    feed.add_argument(
        "--feed-delay-seconds", type=_seconds, default=0.0, help="hold each event T seconds"
    )
    feed.add_argument(
        "--mqtt-buffer", type=_count, default=10_000, help="messages kept while the broker is away"
    )
    serve.add_argument(
        "--house-procs", type=_positive, default=1, help="processes in which the house bots play"
    )
    serve.add_argument(
        "--leaderboard-min-games",
        type=_count,
        default=5,
        metavar="N",
        help="rated games a player needs to appear on a leaderboard (docs/ratings.md)",
    )
    accounts = serve.add_argument_group("accounts (docs/accounts.md)")
    accounts.add_argument(
        "--session-idle-days",
        type=_positive_days,
        default=30.0,
        help="days after which an unused login session expires",
    )
    ladder = serve.add_argument_group('the bot ladder (docs/bots.md, "The ladder")')
    ladder.add_argument(
        "--no-ladder-house",
        action="store_true",
        help="the house bots are not members of the ladder",
    )
    ladder.add_argument(
        "--ladder-grace",
        type=_seconds,
        default=60.0,
        metavar="SECONDS",
        help="how long a disconnected bot stays on the ladder",
    )
    ladder.add_argument(
        "--ladder-per-bot",
        type=_count,
        default=8,
        metavar="N",
        help="ladder games one bot account plays at once",
    )
    ladder.add_argument(
        "--ladder-per-owner",
        type=_count,
        default=16,
        metavar="N",
        help="ladder games the bot accounts of one account play at once",
    )
    ladder.add_argument(
        "--ladder-per-house",
        type=_count,
        default=4,
        metavar="N",
        help="ladder games each house bot plays at once",
    )
    nodes = serve.add_argument_group("several nodes on one PostgreSQL --db (docs/scale-out.md)")
    nodes.add_argument("--node-name", default="", help="this node's name (default: host name)")
    nodes.add_argument(
        "--advertise", default="", metavar="URL", help="where other nodes reach this one (ws://)"
    )
    nodes.add_argument(
        "--lease-ttl", type=_seconds, default=5.0, help="seconds before a dead node's rooms move"
    )
    serve.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a web origin (https://example.org) whose pages may connect; repeat; *: any",
    )
    serve.add_argument(
        "--log-level",
        default="INFO",
        type=str.upper,
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="DEBUG, INFO, WARNING or ERROR",
    )
    serve.add_argument(
        "--log-format", default="text", choices=["text", "json"], help="json: one object a line"
    )
    serve.add_argument(
        "--loop",
        default="asyncio",
        choices=["asyncio", "uvloop", "auto"],
        help="event loop: asyncio's own, uvloop (the uvloop extra of umpire-games), "
        "or auto (uvloop if installed)",
    )
    serve.set_defaults(func=_cmd_serve)


def _cmd_serve(args: argparse.Namespace) -> int:
    from server.errors import StoreError
    from server.store.lock import ServerLock
    from server.store.signing import key_path

    problem = db_folder_problem(args.db)
    if problem:
        print(f"umpire serve: {problem}", file=sys.stderr)
        return 1
    try:
        key_path(args.db, args.signing_key)
    except StoreError as exc:  # (PostgreSQL needs its key file, docs/server.md)
        print(f"umpire serve: {exc}", file=sys.stderr)
        return 1
    lock: ServerLock | None = None
    if "://" not in args.db:
        # (before anything opens the file: a second server on it migrates and restores
        # nothing; the lock is held until this process ends)
        try:
            lock = ServerLock.acquire(args.db, what="umpire serve", port=args.port)
        except StoreError as exc:
            print(f"umpire serve: {exc}", file=sys.stderr)
            return 1
    try:
        return _serve(args, lock)
    finally:
        if lock is not None:
            lock.release()


def _serve(args: argparse.Namespace, lock: Any) -> int:
    """``umpire serve`` once its database's lock is held (``lock``: the
    :class:`~server.store.lock.ServerLock`, ``None`` for PostgreSQL)."""
    import asyncio
    import signal

    from server.errors import StoreError
    from server.feed.bus import FeedDelay, make_bus
    from server.ladder.core import Limits as LadderLimits
    from server.net.app import Limits, ServerConfig
    from server.ops import logs
    from server.ops.event_loop import run_loop
    from server.ops.gc_policy import GcPolicy
    from server.players.throttle import Rate
    from server.rooms.room import Timing
    from server.root import build_server

    logs.configure(args.log_level, args.log_format)
    config = ServerConfig(
        host=args.host,
        port=args.port,
        db=args.db,
        signing_key=args.signing_key,
        synchronous=args.synchronous,
        limits=Limits(
            max_frame=args.max_frame,
            rate=args.rate,
            burst=args.burst,
            max_connections_per_address=args.max_conn_per_ip,
            ping_interval=args.ping_interval or None,
            ping_timeout=args.ping_timeout or None,
            idle_timeout=args.idle_timeout or None,
            abuse_limit=args.abuse_limit,
            max_rooms=args.max_rooms,
            max_rooms_per_player=args.max_rooms_per_player,
            max_rooms_per_address=args.max_rooms_per_ip,
            max_waiting_rooms=args.max_waiting_rooms,
            new_guests=Rate(burst=args.guests_per_ip, every=args.guest_every),
            trusted_proxies=tuple(args.trusted_proxy),
        ),
        timing=Timing(
            grace=args.grace,
            autopilot_delay=args.autopilot_delay,
            finished_ttl=args.finished_ttl,
            no_show=args.no_show,
            empty_room=args.empty_room_ttl,
        ),
        seek_grace=args.seek_grace,
        house_procs=args.house_procs,
        warm_hints=True,
        allow_origins=tuple(args.allow_origin),
        node_name=args.node_name,
        advertise=args.advertise,
        lease_ttl=args.lease_ttl,
        session_idle_days=args.session_idle_days,
        leaderboard_min_games=args.leaderboard_min_games,
        ladder=LadderLimits(
            grace=args.ladder_grace,
            per_bot=args.ladder_per_bot,
            per_owner=args.ladder_per_owner,
            per_house=args.ladder_per_house,
        ),
        ladder_house=not args.no_ladder_house,
    )

    async def run() -> int:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        # no young collections; a full one when the heap has grown (server.ops.gc_policy)
        GcPolicy().install(loop)
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        delay = FeedDelay(args.feed_delay_moves, args.feed_delay_seconds)
        bus = make_bus(args.mqtt, delay, max_buffer=args.mqtt_buffer)
        server = build_server(config, bus=bus)
        try:
            await server.start()
        except OSError as exc:  # the port is taken, the address is not ours, ...
            await server.close()
            reason = exc.strerror or str(exc)
            print(f"umpire: cannot listen on {args.host}:{args.port}: {reason}", file=sys.stderr)
            return 1
        except StoreError as exc:  # a database it cannot use, PostgreSQL unreachable...
            await server.close()
            print(f"umpire serve: {exc}", file=sys.stderr)
            return 1
        if lock is not None:
            lock.update(port=server.port)
        print(f"umpire listening on ws://{args.host}:{server.port}", flush=True)
        print(f"play in a browser: http://{args.host}:{server.port}/", flush=True)
        try:
            await stop.wait()
        finally:
            await server.close()
        return 0

    return run_loop(run(), args.loop)


def _cmd_schema(args: argparse.Namespace) -> int:
    import json

    from server.wire.frames import json_schema

    print(json.dumps(json_schema(), indent=2, sort_keys=True))
    return 0


def _add_data(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "export",
        help="export finished games as JSONL (every projection), PGN (Kriegspiel) or Parquet",
        description="Games still in progress are never exported: their seeds are secret. "
        "Parquet (the learn extra) writes decisions.parquet and games.parquet into --out.",
    )
    p.add_argument(
        "--db", required=True, help="the knowledge base to read: SQLite file or postgresql:// URL"
    )
    p.add_argument("--format", choices=["jsonl", "pgn", "parquet"], default="jsonl")
    p.add_argument("--game", action="append", metavar="ID", help="only this game (repeatable)")
    p.add_argument(
        "--tournament",
        action="append",
        metavar="ID",
        help="only the games of this hosted tournament, in pairing order (repeatable)",
    )
    p.add_argument(
        "--out", help="write here instead of standard output (parquet: a directory, required)"
    )
    p.set_defaults(func=_cmd_export)

    p = sub.add_parser(
        "verify",
        help="recompute a game from its revealed seed and log: was the dice master honest?",
    )
    p.add_argument(
        "--db", required=True, help="the knowledge base to read: SQLite file or postgresql:// URL"
    )
    p.add_argument(
        "game_id", nargs="*", metavar="GAME_ID", help="the games to check (default: --all)"
    )
    p.add_argument("--all", action="store_true", help="check every finished game (the default)")
    p.add_argument(
        "--trusted-key",
        action="append",
        default=[],
        metavar="KEY",
        help="a key whose signatures to trust: a key file (PEM), or a public key in hex as "
        "welcome and GET /api/signing-keys give it (repeatable; the key file beside a SQLite "
        "--db, DB.key, is trusted too). The database's own signing_keys table is not "
        "trusted: whoever can write the database can add a key there",
    )
    p.add_argument(
        "--trust-stored-keys",
        action="store_true",
        help="also trust every key in the database's signing_keys table (only for a copy "
        "you know was not written by anyone else)",
    )
    p.add_argument(
        "--allow-unchained",
        action="store_true",
        help="exit 0 even if some games were logged before the tamper-evident log (they "
        "are still listed as UNCHAINED)",
    )
    p.set_defaults(func=_cmd_verify)

    p = sub.add_parser(
        "migrate",
        help="copy a SQLite knowledge base into PostgreSQL (docs/scale-out.md)",
        description="Copies every row of the SQLite knowledge base (players and their "
        "tokens, games and their logs, chat, statistics, ratings, seeks, tournaments) into "
        "a PostgreSQL database. Stop the server first: the copy refuses a store a server "
        "uses, and a PostgreSQL database any umpire has open. Run it again after an "
        "interruption (Ctrl-C included): it copies what is missing. It writes only into an "
        "empty database or its own unfinished copy: a finished one is only compared (a "
        "run with nothing left to copy says so; a missing or different row is refused, "
        "nothing merged).",
    )
    p.add_argument("--from", dest="source", required=True, metavar="FILE", help="SQLite file")
    p.add_argument("--to", dest="target", required=True, metavar="URL", help="postgresql:// URL")
    p.add_argument(
        "--batch", type=_positive, default=500, metavar="ROWS", help="rows per transaction"
    )
    p.add_argument(
        "--progress",
        type=_positive,
        default=100_000,
        metavar="ROWS",
        help="a line each time a table's copy passes a multiple of ROWS rows (default 100000)",
    )
    p.set_defaults(func=_cmd_migrate)

    ratings = sub.add_parser("ratings", help="ratings kept from the log (docs/ratings.md)")
    ratings_sub = ratings.add_subparsers(dest="ratings_command", metavar="COMMAND")
    p = ratings_sub.add_parser(
        "rebuild",
        help="recompute every rating from the log; compare; write when they differ",
        description="Rates every rated game again, in the order it was rated, from its "
        "stored row alone, and compares the result with the stored ratings (exit status 0: "
        "identical, 1: different). Without --check, different ratings are replaced by the "
        "recomputed ones (stop the server first).",
    )
    p.add_argument(
        "--db", default="umpire.db", help="the knowledge base: SQLite file or postgresql:// URL"
    )
    p.add_argument("--check", action="store_true", help="only compare: never write")
    p.set_defaults(func=_cmd_ratings_rebuild)
    ratings.set_defaults(func=lambda args: _usage(ratings))


async def _open_existing(path: str, *, read_only: bool = False) -> Store:
    """Open a knowledge base that must already exist (never create an empty one);
    ``read_only``: only to read it (never migrated, never written)."""
    from server.store.contract import open_store

    if "://" not in path and not os.path.exists(path):
        raise FileNotFoundError(f"no knowledge base at {path}")
    store = open_store(path, read_only=read_only)
    try:
        await store.open()
    except sqlite3.DatabaseError as exc:  # a file that is not a knowledge base
        with contextlib.suppress(Exception):
            await store.close()
        raise OSError(f"{path} is not a knowledge base: {exc}") from None
    return store


async def _export_ids(store: Store, args: argparse.Namespace) -> list[str] | None:
    """The games ``--game`` and ``--tournament`` name (None: every game)."""
    if not args.tournament:
        return list(args.game) if args.game else None
    from server.tournaments.director import load_state

    ids = list(args.game or [])
    for tid in args.tournament:
        row = await store.tournament(tid)
        if row is None:
            raise OSError(f"no tournament {tid!r} in {args.db}")
        state = await load_state(store, row)
        ids.extend(g.room for g in state.games if g.room is not None)
    return ids


def _cmd_export(args: argparse.Namespace) -> int:
    """``umpire export``."""
    from server.errors import StoreError
    from server.export.reader import export_jsonl, export_pgn
    from server.games.base import GameError

    if args.format == "parquet":
        return _export_parquet(args)

    async def run(out: TextIO) -> int:
        store = await _open_existing(args.db, read_only=True)
        try:
            games = await _export_ids(store, args)
            if args.format == "pgn":
                return await export_pgn(store, out, games)
            return await export_jsonl(store, out, games)
        finally:
            await store.close()

    try:
        if args.out:
            with open(args.out, "w", encoding="utf-8") as out:
                count = asyncio.run(run(out))
        else:
            count = asyncio.run(run(sys.stdout))
    except (OSError, GameError, StoreError) as exc:
        print(f"umpire export: {exc}", file=sys.stderr)
        return 1
    print(f"exported {count} games", file=sys.stderr)
    return 0


def _export_parquet(args: argparse.Namespace) -> int:
    """``umpire export --format parquet --out DIR``, with progress on standard error."""
    import time

    from server.errors import StoreError
    from server.games.base import GameError

    if not args.out:
        print("umpire export: --format parquet needs --out DIRECTORY", file=sys.stderr)
        return 2
    try:
        from server.export.parquet import export_parquet
    except ImportError as exc:
        print(
            f"umpire export: {exc.name} is missing: the learn extra of umpire-games "
            "(pip install -e '.[learn]' in its source folder)",
            file=sys.stderr,
        )
        return 1
    shown = [time.monotonic()]
    tty = sys.stderr.isatty()

    def progress(games: int, decisions: int) -> None:  # at most once a second
        now = time.monotonic()
        if now - shown[0] >= 1.0:
            shown[0] = now
            line = f"{games} games, {decisions} decisions exported"
            print("\r" + line if tty else line, end="" if tty else "\n", file=sys.stderr)

    async def run() -> tuple[int, int]:
        store = await _open_existing(args.db, read_only=True)
        try:
            games = await _export_ids(store, args)
            return await export_parquet(store, args.out, games, progress=progress)
        finally:
            await store.close()

    try:
        games, decisions = asyncio.run(run())
    except (OSError, GameError, StoreError) as exc:
        print(f"umpire export: {exc}", file=sys.stderr)
        return 1
    end = "\r" if tty else ""
    print(f"{end}exported {games} games, {decisions} decisions to {args.out}", file=sys.stderr)
    return 0


#: What ``umpire verify`` checked, per game: the seed replays the whole game.
CHECKED = {
    "perudo": "every die included",
    "kriegspiel": "every move and every umpire announcement included",
}


def _cmd_verify(args: argparse.Namespace) -> int:
    """``umpire verify``: exit 0 when every game checks out (its replay, its hash chain,
    its signature), 1 otherwise; an unchained game (logged before the chain) fails too,
    unless ``--allow-unchained``."""
    from server.errors import StoreError
    from server.export.reader import (
        REVEALED,
        hidden_end,
        logs,
        verify_chain,
        verify_game,
        verify_log,
    )
    from server.store import signing

    if args.all and args.game_id:
        print("umpire verify: give GAME_IDs or --all, not both", file=sys.stderr)
        return 2
    try:
        trusted = dict(signing.trusted_key(spec) for spec in args.trusted_key)
        beside = signing.default_path(args.db)
        if beside is not None and os.path.exists(beside):
            key = signing.load(beside, create=False)
            trusted[key.key_id] = key.public
    except StoreError as exc:
        print(f"umpire verify: {exc}", file=sys.stderr)
        return 2

    missing: list[str] = []  # the ids with no finished game, as problems
    hidden: list[tuple[str, str, list[str], str]] = []  # ended games stored as not over
    running: list[str] = []  # games in progress (their seeds secret): not checked
    untrusted = False

    async def run() -> list[tuple[str, str, list[str], str]]:
        nonlocal untrusted
        store = await _open_existing(args.db, read_only=True)
        try:
            stored = await store.signing_keys()
            keys = {**stored, **trusted} if args.trust_stored_keys else trusted
            ids = list(dict.fromkeys(args.game_id)) or None
            found = []
            async for log in logs(store, ids):
                problems = verify_log(log, keys, stored)
                row = log.row
                untrusted = untrusted or (row.key_id is not None and row.key_id not in keys)
                if not row.chained:
                    note = ""
                else:
                    after = verify_chain(log, keys)[1]
                    note = (
                        f"; its log chains to the final hash {row.final_hash}, signed by key "
                        f"{row.key_id}"
                    )
                    if after:
                        note += f" ({after} chat lines said after the end: chained, not signed)"
                found.append((row.id, row.game, problems, note))
            known = {gid for gid, _, _, _ in found}
            for gid in ids or []:
                if gid not in known:
                    missing.extend(await verify_game(store, gid, keys))
            if ids is None:  # the games not over: in progress, or an ended one hidden
                async for row in store.iter_games():
                    if row.status in REVEALED and row.seed_revealed:
                        continue
                    if row.final_hash is not None:
                        hidden.append((row.id, row.game, [hidden_end(row)], ""))
                    else:
                        running.append(row.id)
            return found
        finally:
            await store.close()

    try:
        reports = asyncio.run(run()) + hidden
    except (OSError, StoreError) as exc:
        print(f"umpire verify: {exc}", file=sys.stderr)
        return 1
    if untrusted:
        print(
            "umpire verify: some games are signed by a key that is not trusted: give the key "
            "file or the server's public key with --trusted-key (the database's own "
            "signing_keys table is not trusted: whoever can write the database can add a key)",
            file=sys.stderr,
        )
    if args.trust_stored_keys:
        print(
            "umpire verify: --trust-stored-keys: the keys in the database's signing_keys "
            "table are trusted, and whoever can write the database can add a key there",
            file=sys.stderr,
        )
    if running:
        shown = ", ".join(running[:10]) + (", ..." if len(running) > 10 else "")
        print(
            f"umpire verify: {len(running)} games in progress were not checked: {shown}",
            file=sys.stderr,
        )
    if missing:
        print(f"umpire verify: {'; '.join(missing)}", file=sys.stderr)
    elif not reports:
        print("umpire verify: no finished games to verify", file=sys.stderr)
    honest = not missing
    unchained = 0
    for game_id, game, problems, note in reports:
        checked = CHECKED.get(game, "every step included")
        if problems:
            honest = False
            print(f"{game_id}: NOT verified")
            for problem in problems:
                print(f"  - {problem}")
        elif not note:
            unchained += 1
            print(
                f"{game_id}: UNCHAINED: logged before the tamper-evident log (schema 8), so "
                f"its rows are neither chained nor signed; its seed replays the whole {game} "
                f"game, {checked}, as logged"
            )
        else:
            print(
                f"{game_id}: verified: the seed matches its commitment and the whole {game} "
                f"game, {checked}, replays from it exactly as logged{note}"
            )
    if unchained:
        allowed = " (allowed: --allow-unchained)" if args.allow_unchained else ""
        print(
            f"umpire verify: {unchained} games are unchained: their logs could have been "
            f"edited unseen{allowed}",
            file=sys.stderr,
        )
        honest = honest and args.allow_unchained
    return 0 if honest else 1


def _cmd_migrate(args: argparse.Namespace) -> int:
    """``umpire migrate``: exit 0 once every row of the source is in the target."""
    from server.errors import StoreError

    if not args.target.startswith(("postgresql://", "postgres://")):
        print(
            f"umpire migrate: --to must be a postgresql:// URL, not {args.target!r}",
            file=sys.stderr,
        )
        return 2
    if "://" in args.source:
        print(f"umpire migrate: --from must be a SQLite file, not {args.source!r}", file=sys.stderr)
        return 2
    try:
        from server.store.migrate import copy_store
    except ImportError as exc:  # asyncpg is the optional extra "postgres"
        print(
            f"umpire migrate: {exc.name} is missing: the postgres extra of umpire-games "
            "(pip install -e '.[postgres]' in its source folder)",
            file=sys.stderr,
        )
        return 1

    def say(line: str) -> None:
        print(line, flush=True)

    try:
        report = asyncio.run(
            copy_store(args.source, args.target, batch=args.batch, progress=args.progress, say=say)
        )
    except StoreError as exc:
        print(f"umpire migrate: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(
            "umpire migrate: interrupted: what was copied stays, and the target is marked "
            "unfinished (no server opens it): run the same command again to finish the copy",
            file=sys.stderr,
        )
        return 130
    print(report.lines()[-1])
    return 0


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _cmd_ratings_rebuild(args: argparse.Namespace) -> int:
    """``umpire ratings rebuild``: exit 0 when the stored ratings are the log's (or were
    made so), 1 when they differ and were not written (``--check``), or on an error."""
    from server.errors import StoreError
    from server.ratings.rebuild import Report, rebuild

    async def run() -> Report:
        store = await _open_existing(args.db, read_only=args.check)
        try:
            return await rebuild(store, write=not args.check)
        finally:
            await store.close()

    try:
        report = asyncio.run(run())
    except (OSError, StoreError) as exc:
        print(f"umpire ratings rebuild: {exc}", file=sys.stderr)
        return 1
    for line in report.lines():
        print(line)
    return 0 if report.identical or report.written else 1


def _cmd_rules(args: argparse.Namespace) -> int:
    from server.games.base import ConfigError
    from server.root import house_catalog
    from server.rules_text import describe

    catalog = house_catalog()
    try:
        print(describe(args.game, args.lang, catalog, advisor=True))
    except ConfigError as exc:
        print(f"umpire rules: {exc}", file=sys.stderr)
        return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``umpire`` command; return its exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the last line of defence: one line, never a traceback
        command = getattr(args, "command", None) or "umpire"
        print(f"umpire {command}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
