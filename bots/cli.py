"""The bots' subcommands of ``umpire``: ``tournament`` (and, with the store, ``selfplay``,
``export``, ``verify``, ``bot``). :func:`register` adds them to the main parser."""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from typing import Any, TextIO

from bots.arena import PlayedGame, format_table, run_local, schedule, standings
from bots.registry import builtin_names, load_bot
from bots.sdk import BotError
from server.games import engine
from server.games.base import ConfigError


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
    options = parse_options(pairs)
    if seats is not None and game == "perudo":
        options["seats"] = seats
    config = engine(game).make_config(options)
    if seats is not None and config.seats != seats:
        raise ConfigError(f"{game} has {config.seats} seats, not {seats}")
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
    p.add_argument("--game", required=True, choices=["perudo", "kriegspiel"])
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
    p.set_defaults(func=cmd_tournament)


def cmd_tournament(args: argparse.Namespace) -> int:
    """``umpire tournament``."""
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    try:
        if not names:
            raise BotError("--bots needs at least one bot")
        for name in names:
            load_bot(name)
        if args.games < 1 or args.parallel < 1:
            raise ConfigError("--games and --parallel must be at least 1")
        seats = args.seats if args.seats is not None else None
        if seats is None and args.game == "perudo":
            seats = max(2, len(names))
        options, seats = game_options(args.game, seats, args.option)
    except (BotError, ConfigError) as exc:
        print(f"umpire tournament: {exc}", file=sys.stderr)
        return 2
    if args.server:
        print("umpire tournament: --server is not available yet; use --local", file=sys.stderr)
        return 2
    if args.db:
        print("umpire tournament: --db is not available yet", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.token_hex(8)
    specs = schedule(args.game, options, names, seats, args.games, seed)
    bar = Progress(len(specs))
    started = time.monotonic()
    results = run_local(specs, args.parallel, on_result=bar.step)
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


def _result_json(played: PlayedGame) -> dict[str, Any]:
    return {
        "index": played.spec.index,
        "bots": played.spec.bots,
        "ranks": played.ranks,
        "reason": played.reason,
        "faults": {str(k): v for k, v in played.faults.items()},
    }
