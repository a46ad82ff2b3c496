"""``umpire play``: the terminal client's subcommand.

:func:`register` adds it to the main ``umpire`` parser; :func:`main` runs it on its own
(``python -m client_cli.cli``).
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
from collections.abc import Sequence

from client_cli.words import LANGUAGES

DEFAULT_SERVER = "ws://localhost:8765"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand to ``umpire``'s subparsers."""
    play = sub.add_parser("play", help="play in the terminal (a client of the server)")
    play.add_argument(
        "--server",
        action="append",
        help="websocket address of the server (repeat it, or use commas, for the nodes of "
        f"a cluster: tried in turn; default {DEFAULT_SERVER})",
    )
    play.add_argument("--name", default=None, help="your display name (default: remembered)")
    play.add_argument(
        "--login",
        metavar="NAME",
        default=None,
        help="log in to the account NAME (the password is asked, without echo)",
    )
    play.add_argument(
        "--plain", action="store_true", help="line mode for scripts and screen readers"
    )
    play.add_argument(
        "--lang",
        choices=LANGUAGES,
        default="en",
        help="the language of the games' words, their options' help and the hints",
    )
    play.set_defaults(func=run)


def default_name(server: str) -> str:
    """The remembered name for ``server``, else the login name."""
    from client_cli.tokens import TokenStore

    identity = TokenStore().load(server)
    if identity is not None and identity.name:
        return identity.name
    try:
        return getpass.getuser()[:32] or "player"
    except (KeyError, OSError):
        return "player"


def run(args: argparse.Namespace) -> int:
    """Run the client as ``args`` say; return the exit status."""
    from client_cli.session import Session
    from client_cli.state import ClientState

    args.server = ",".join(args.server or [DEFAULT_SERVER])
    problem = next(filter(None, (url_problem(u.strip()) for u in args.server.split(","))), None)
    if problem is not None:
        print(f"umpire play: {problem}", file=sys.stderr)
        return 2
    password: str | None = None
    if args.login is not None:
        name = args.login.strip()
        if not name:
            print("umpire play: --login needs an account name", file=sys.stderr)
            return 2
        password = ask_password(name, args.server)
        if password is None:
            return 1
    else:
        name = args.name or default_name(args.server)
    if args.plain:
        from client_cli.plain import PlainClient, stdin_lines

        async def plain() -> int:
            state = ClientState(lang=args.lang)
            session = Session(args.server, name, state=state, password=password)
            return await PlainClient(session, sys.stdout).run(stdin_lines())

        return asyncio.run(plain())
    from client_cli.app import UmpireApp

    state = ClientState(lang=args.lang)
    app = UmpireApp(Session(args.server, name, state=state, password=password))
    app.run()
    return 0


def url_problem(url: str) -> str | None:
    """Why ``url`` is not a websocket address a client can connect to (None when it is)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        ok = parts.scheme in ("ws", "wss") and bool(parts.hostname)
        parts.port  # noqa: B018  (raises on a port that is not a number or out of range)
    except ValueError:
        ok = False
    return None if ok else f"--server must be a ws:// or wss:// address, not {url!r}"


def ask_password(name: str, server: str) -> str | None:
    """Ask ``name``'s password on the terminal without echo (None when none is typed)."""
    try:
        password = getpass.getpass(f"Password of {name} on {server}: ")
    except (EOFError, KeyboardInterrupt):
        print(file=sys.stderr)
        return None
    if not password:
        print("umpire play: no password typed", file=sys.stderr)
        return None
    return password


def main(argv: Sequence[str] | None = None) -> int:
    """``umpire play`` as a program of its own."""
    parser = argparse.ArgumentParser(prog="umpire")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["play", *(sys.argv[1:] if argv is None else argv)])
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
