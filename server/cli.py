"""The ``umpire`` command line: one console script, a subcommand per feature.

Each subcommand is registered in :func:`build_parser` and imports its implementation
lazily, so ``umpire --help`` stays fast and a missing optional dependency only affects the
subcommand that needs it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from server import __version__


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="umpire",
        description="A server for games of hidden information: Perudo and Kriegspiel.",
    )
    parser.add_argument("--version", action="version", version=f"umpire {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    rules = sub.add_parser("rules", help="list the games, their presets and options")
    rules.add_argument("game", nargs="?", help="one game's options (default: all)")
    rules.set_defaults(func=_cmd_rules)
    _add_serve(sub)
    from bots.cli import register as register_bot_commands

    register_bot_commands(sub)
    from bots.advise_cli import register as register_advise

    register_advise(sub)
    from client_cli.cli import register as register_client

    register_client(sub)
    return parser


def _add_serve(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = sub.add_parser("serve", help="run the game server (websockets + SQLite)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8765, help="port (0: any free port)")
    serve.add_argument("--db", default="umpire.db", help="SQLite file (created if missing)")
    serve.add_argument(
        "--synchronous",
        default="FULL",
        choices=["FULL", "NORMAL"],
        help="SQLite durability: FULL survives power loss, NORMAL a process crash",
    )
    limits = serve.add_argument_group("limits")
    limits.add_argument("--max-frame", type=int, default=16 * 1024, help="bytes per frame")
    limits.add_argument("--rate", type=float, default=20.0, help="messages/s per connection")
    limits.add_argument("--burst", type=float, default=40.0, help="message burst per connection")
    limits.add_argument("--max-conn-per-ip", type=int, default=64, help="connections per address")
    limits.add_argument("--ping-interval", type=float, default=20.0, help="seconds; 0: off")
    limits.add_argument("--ping-timeout", type=float, default=20.0, help="seconds; 0: off")
    limits.add_argument("--idle-timeout", type=float, default=600.0, help="seconds; 0: off")
    limits.add_argument("--abuse-limit", type=float, default=10.0, help="bad frames before 1008")
    limits.add_argument("--max-rooms", type=int, default=10_000, help="rooms on this server")
    limits.add_argument("--max-rooms-per-player", type=int, default=20, help="rooms a player hosts")
    timing = serve.add_argument_group("time")
    timing.add_argument(
        "--grace", type=float, default=60.0, help="seconds a seat waits for its player"
    )
    timing.add_argument(
        "--autopilot-delay", type=float, default=1.0, help="seconds before it moves"
    )
    timing.add_argument(
        "--finished-ttl", type=float, default=600.0, help="seconds to keep ended rooms"
    )
    feed = serve.add_argument_group("public feed (docs/mqtt.md)")
    feed.add_argument("--mqtt", metavar="URL", help="publish to mqtt://HOST:PORT[/PREFIX]")
    feed.add_argument(
        "--feed-delay-moves", type=int, default=0, help="hold each event until N newer ones"
    )
    feed.add_argument(
        "--feed-delay-seconds", type=float, default=0.0, help="hold each event T seconds"
    )
    feed.add_argument(
        "--mqtt-buffer", type=int, default=10_000, help="messages kept while the broker is away"
    )
    serve.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a web origin (https://example.org) whose pages may connect; repeat; *: any",
    )
    serve.add_argument("--log-level", default="INFO", help="DEBUG, INFO, WARNING or ERROR")
    serve.add_argument(
        "--log-format", default="text", choices=["text", "json"], help="json: one object a line"
    )
    serve.set_defaults(func=_cmd_serve)


def _cmd_serve(args: argparse.Namespace) -> int:
    import asyncio
    import signal

    from server import logs
    from server.app import Limits, ServerConfig, UmpireServer
    from server.bus import FeedDelay, make_bus
    from server.room import Timing

    logs.configure(args.log_level, args.log_format)
    import gc

    # A long-running server holds many small, long-lived objects (rooms' logs): collect
    # the young generation less often and freeze what start-up made, so that full
    # collections do not stall every room for a tenth of a second.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    config = ServerConfig(
        host=args.host,
        port=args.port,
        db=args.db,
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
        ),
        timing=Timing(
            grace=args.grace, autopilot_delay=args.autopilot_delay, finished_ttl=args.finished_ttl
        ),
        allow_origins=tuple(args.allow_origin),
    )

    async def run() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        delay = FeedDelay(args.feed_delay_moves, args.feed_delay_seconds)
        bus = make_bus(args.mqtt, delay, max_buffer=args.mqtt_buffer)
        server = UmpireServer(config, bus=bus)
        await server.start()
        print(f"umpire listening on ws://{args.host}:{server.port}", flush=True)
        print(f"play in a browser: http://{args.host}:{server.port}/", flush=True)
        try:
            await stop.wait()
        finally:
            await server.close()

    asyncio.run(run())
    return 0


def _cmd_rules(args: argparse.Namespace) -> int:
    from server.games import engine, engine_names

    names = [args.game] if args.game else list(engine_names())
    for name in names:
        eng = engine(name)
        doc = (eng.config_type.__doc__ or "").strip()
        print(f"{name}\n  {doc}\n  default options:")
        for key, value in eng.make_config({}).to_options().items():
            print(f"    {key} = {value!r}")
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


if __name__ == "__main__":
    sys.exit(main())
