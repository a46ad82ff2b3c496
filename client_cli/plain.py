"""``umpire play --plain``: one line in, sentences out; for scripts and screen readers.

Every command of :mod:`client_cli.commands` works here. A command waits for its reply
before the next line is read, and ``wait turn|start|end`` blocks until that happens, so a
script can play a whole game::

    create GAME seats=2
    bot autopilot
    wait turn
    legal
    act ACTION
    wait end
    quit
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any, TextIO

from client_cli import accounts, commands, games
from client_cli.controller import fetch_replay, run_account, send_command
from client_cli.help import commands_help, rules_text
from client_cli.render import outcome_line
from client_cli.session import Session, SessionError

Json = dict[str, Any]


class PlainClient:
    """Reads commands, prints what happens; the same :class:`Session` as the TUI."""

    #: seconds to wait for the server's welcome (retrying the connection) before giving up
    CONNECT_TIMEOUT = 10.0

    def __init__(
        self,
        session: Session,
        out: TextIO,
        wait_timeout: float = 600.0,
        connect_timeout: float = CONNECT_TIMEOUT,
    ) -> None:
        self.session = session
        self.out = out
        self.wait_timeout = wait_timeout
        self.connect_timeout = connect_timeout
        #: the input being run (a password is read from its next line, not its command)
        self.lines: AsyncIterator[str] | None = None
        #: ``match`` frames already waited for (``wait match`` returns at the next one)
        self.matches_waited = 0
        session.listeners.append(self._on_frame)

    def say(self, *lines: str) -> None:
        """Print lines and flush (a pipe reader sees them at once)."""
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def _on_frame(self, frame: Json, lines: list[str]) -> None:
        if frame.get("type") == "error" and isinstance(frame.get("ref"), int):
            lines = []  # the command's own error is explained by the controller
        self.say(*lines)
        room_id = frame.get("room")
        followed = self.session.state.rooms.get(room_id) if isinstance(room_id, str) else None
        told = followed is None or followed.outcome_told or followed.seat is None
        if frame.get("type") == "room" and not told and followed is not None and followed.over:
            followed.outcome_told = True  # (the final room frame may come again)
            self.say(outcome_line(followed))
        if frame.get("type") == "turn" and frame.get("room") == self.session.state.current:
            room = self.session.state.current_room
            if room is not None:
                self.say(*games.game(room.game).turn_lines(room))

    async def run(self, lines: AsyncIterator[str]) -> int:
        """Execute each line until ``quit`` or the end of input; return an exit status."""
        runner = asyncio.create_task(self.session.run())
        try:
            await asyncio.wait_for(self._connected(), self.connect_timeout)
            await asyncio.wait_for(self.session.catalogued.wait(), 30)  # the games, for create
        except TimeoutError:
            print(
                f"umpire play: cannot reach {self.session.url} (no welcome in"
                f" {self.connect_timeout:g} s: is the server running?)",
                file=sys.stderr,
            )
            await self._stop(runner)
            return 1
        except ConnectionError:  # refused (a wrong password...): the reason was said
            await self._stop(runner)
            return 1
        self.lines = lines
        try:
            async for line in lines:
                if not await self.execute(line):
                    break
        finally:
            await self._stop(runner)
        return 0

    async def _connected(self) -> None:
        """Wait for the welcome; raise ConnectionError when the connection ends first."""
        session = self.session
        ready = asyncio.ensure_future(session.ready.wait())
        stopped = asyncio.ensure_future(session.stopped.wait())
        try:
            await asyncio.wait({ready, stopped}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            ready.cancel()
            stopped.cancel()
        if not session.ready.is_set():
            raise ConnectionError("the server refused this client")

    async def _stop(self, runner: asyncio.Task[None]) -> None:
        await self.session.close()
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner

    async def execute(self, line: str) -> bool:
        """Carry out one line; False when the client should stop."""
        state = self.session.state
        command = commands.parse(line, state)
        if command.error is not None:
            self.say(f"Not sent: {command.error}")
            return True
        if command.message is not None:
            _, lines = await send_command(self.session, command)
            self.say(*lines)
            return True
        return await self._local(command)

    async def _local(self, command: commands.Command) -> bool:
        name, args = command.local, command.args
        state = self.session.state
        room = state.current_room
        if name in ("quit", "exit"):
            return False
        if name in commands.SECRET:
            await self._account(name, args[0] if args else "")
        elif name == "help":
            catalogue, lang = state.catalogue, state.lang
            self.say(commands_help(catalogue, lang), "", rules_text(catalogue, lang))
        elif name == "wait":
            await self._wait(args[0] if args else "turn")
        elif name == "legal":
            self.say("Legal now: " + (" ".join(room.legal) if room and room.legal else "nothing"))
        elif name == "show":
            self.say(*(games.game(room.game).lines(room) if room else ["Not in a room."]))
        elif name == "room" and args:
            if args[0] in state.rooms:
                state.current = args[0]
                self.say(f"Now looking at room {args[0]}.")
            else:
                self.say(f"Not following room {args[0]}: join or watch it.")
        elif name == "lobby":
            state.current = None
        elif name == "replay":
            await self._replay(args[0] if args else state.current)
        elif room is not None and name in games.game(room.game).LOCAL:
            self._game_command(name, args)
        return True

    async def _account(self, kind: str, name: str) -> None:
        """register, login or password: each password is read from the next input line
        (without echo on a terminal), then sent."""
        fields: dict[str, str] = {}
        lang = self.session.state.lang
        if kind == "register":
            player = self.session.state.player or {}
            fields["name"] = name or str(player.get("name") or self.session.name)
        elif kind == "login":
            fields["name"] = name
        prompts = {
            "login": [("password", "Password: ")],
            "register": [("password", "Password: "), ("again", "Password again: ")],
            "password": [
                ("old", "Current password: "),
                ("password", "New password: "),
                ("again", "New password again: "),
            ],
        }[kind]
        for key, prompt in prompts:
            secret = await self.read_secret(prompt)
            if secret is None:
                self.say(accounts.words(lang)("password_blank"))
                return
            fields[key] = secret
        _, lines = await run_account(self.session, kind, fields)
        fields.clear()
        self.say(*lines)

    async def read_secret(self, prompt: str) -> str | None:
        """The next input line, read without echo when the input is a terminal (None at
        the end of the input)."""
        self.out.write(prompt)
        self.out.flush()
        if self.lines is None:
            return None
        with no_echo() as hidden:
            try:
                line = await anext(self.lines)
            except StopAsyncIteration:
                return None
        self.out.write("\n")  # (the line typed was not echoed)
        self.out.flush()
        del hidden
        return line.rstrip("\r\n")

    async def _wait(self, what: str) -> None:
        state = self.session.state

        if what == "match":
            await self._wait_match()
            return

        def ready() -> bool:
            room = state.current_room
            if room is None:
                return False
            if what == "start":
                return room.state != "waiting"
            if what == "end":
                return room.over
            return room.over or room.turn is not None

        try:
            await self.session.wait_until(ready, self.wait_timeout)
        except TimeoutError:
            self.say(f"Gave up waiting for {what}.")

    async def _wait_match(self) -> None:
        """Wait for a ``match`` frame not waited for yet (a seek paired, a rematch
        accepted, a tournament's round): its room is then the current one."""
        state = self.session.state
        try:
            await self.session.wait_until(
                lambda: state.match_count > self.matches_waited, self.wait_timeout
            )
        except TimeoutError:
            self.say("Gave up waiting for match.")
            return
        self.matches_waited = state.match_count

    def _game_command(self, name: str, args: list[str]) -> None:
        """A local command of the room's game (its notes on the board, say)."""
        room = self.session.state.current_room
        assert room is not None
        try:
            self.say(*games.game(room.game).run_local(name, args, room))
        except ValueError as exc:
            self.say(f"Not done: {exc}")

    async def _replay(self, room_id: str | None) -> None:
        if room_id is None:
            self.say("replay ROOM")
            return
        try:
            result = await fetch_replay(self.session, room_id)
        except SessionError as exc:
            self.say(f"No replay: {exc}")
            return
        self.say(f"Replay of room {room_id} ({result.game}), {len(result.steps)} steps:")
        for number, step in enumerate(result.steps, 1):
            self.say(f"[{number}] {step.caption}", *("    " + line for line in step.panel))
        self.say(*result.notes)


@contextlib.contextmanager
def no_echo() -> Iterator[bool]:
    """Turn the terminal's echo off for the block (True when there was one to turn off:
    standard input is a terminal)."""
    try:
        import termios

        fd = sys.stdin.fileno()
        if not sys.stdin.isatty():
            raise OSError("not a terminal")
        before = termios.tcgetattr(fd)
    except (ImportError, OSError, ValueError, AttributeError):
        yield False
        return
    quiet = list(before)
    quiet[3] &= ~termios.ECHO
    termios.tcsetattr(fd, termios.TCSANOW, quiet)
    try:
        yield True
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, before)


async def stdin_lines() -> AsyncIterator[str]:
    """Lines of standard input, read by a daemon thread so the event loop never blocks."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def pump() -> None:
        for line in sys.stdin:
            loop.call_soon_threadsafe(queue.put_nowait, line)
        loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=pump, name="stdin", daemon=True).start()
    while (line := await queue.get()) is not None:
        yield line
