"""The Kriegspiel board for ``docs/client-kriegspiel.svg`` (run by
:mod:`client_cli.screenshots`)."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from client_cli.app import UmpireApp
from client_cli.screenshots import until
from client_cli.session import Session


async def scene(app: UmpireApp, pilot: Pilot[Any], other: Session) -> None:
    """An opening against ``other`` under english rules, an "any?", and four markers."""
    state = app.session.state
    await app.run_line("create kriegspiel rules=english clock=300+5")
    await until(
        pilot, lambda: state.current_room is not None and state.current_room.game == "kriegspiel"
    )
    room_id = state.current or ""
    room = state.room(room_id)
    await other.request({"type": "join", "room": room_id})
    theirs = other.state.room(room_id)
    for mine, reply in (("e2e4", "e7e5"), ("g1f3", "b8c6"), ("f1c4", "f8c5")):
        await until(pilot, lambda: room.turn is not None)
        await app.run_line(mine)
        await other.wait_until(lambda: theirs.turn is not None, 10)
        await other.request({"type": "act", "room": room_id, "action": reply})
    await until(pilot, lambda: room.turn is not None)
    await app.run_line("f3g5")
    await other.wait_until(lambda: theirs.turn is not None, 10)
    await other.request({"type": "act", "room": room_id, "action": "g8f6"})
    await until(pilot, lambda: room.turn is not None)
    await app.run_line("any")
    for square, piece in (("e5", "p"), ("c6", "n"), ("c5", "b"), ("e8", "k")):
        await app.run_line(f"mark {square} {piece}")
