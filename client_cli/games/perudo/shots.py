"""The Perudo table for ``docs/client-perudo.svg`` (run by :mod:`client_cli.screenshots`)."""

from __future__ import annotations

import contextlib
from typing import Any

from textual.pilot import Pilot

from client_cli.app import UmpireApp
from client_cli.games.perudo.text import model_of
from client_cli.screenshots import add_bot, until
from client_cli.session import Session, SessionError


async def scene(app: UmpireApp, pilot: Pilot[Any], other: Session) -> None:
    """A four-player table against house bots, played up to a reveal, with a hint."""
    state = app.session.state
    await app.run_line("create perudo seats=4 dice=3 calza=true")
    await until(pilot, lambda: state.current is not None)
    room = state.room(state.current or "")
    for _ in range(3):
        await add_bot(app, ["perudo-expert", "perudo-simple", "autopilot"])
    await until(pilot, lambda: room.state == "playing")
    table = model_of(room).table
    mine = room.seat

    def my_turn_or_out() -> bool:
        return room.turn is not None or room.over or mine in table.out

    for _ in range(40):
        await until(pilot, my_turn_or_out)
        if room.turn is None or (table.reveal is not None and table.bids):
            break
        action = "dudo" if len(table.bids) >= 2 else room.legal[0]
        turn = room.turn
        if not await app.run_line(action):
            break
        await until(pilot, lambda t=turn: room.turn is not t or room.over)  # type: ignore[misc]
    with contextlib.suppress(SessionError, TimeoutError):
        await app.run_line("hint")
