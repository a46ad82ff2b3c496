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
    return parser


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
