"""Scripted Perudo players for server tests: each reads only its own frames."""

from __future__ import annotations

from typing import Any

from tests.server.wsclient import WsClient


def naive_action(last_bid: str | None, max_quantity: int = 3) -> str:
    """Open with 1x2, raise the quantity on the same face, and call dudo past a limit."""
    if last_bid is None:
        return "1x2"
    quantity, face = (int(x) for x in last_bid.split("x"))
    if quantity >= max_quantity:
        return "dudo"
    return f"{quantity + 1}x{face}"


async def play_seat(
    client: WsClient, room: str, seat: int, max_quantity: int = 3
) -> dict[str, Any]:
    """Play ``seat`` until the game ends; return the game_over event."""
    to_move: int | None = None
    last_bid: str | None = None
    pending = False
    while True:
        frame = await client.next(timeout=10)
        kind = frame.get("type")
        if kind == "error":
            raise AssertionError(f"seat {seat}: {frame}")
        if kind == "ack":
            pending = False
            continue
        if kind == "snapshot" and frame["room"] == room:
            view = frame["view"]
            to_move = view["to_move"]
            last_bid = view["bids"][-1]["bid"] if view["bids"] else None
        elif kind == "event" and frame["room"] == room and "event" in frame:
            event = frame["event"]
            if event["type"] == "round_started":
                to_move, last_bid = event["starter"], None
            elif event["type"] == "bid":
                to_move, last_bid = event["next"], event["bid"]
            elif event["type"] == "challenge":
                to_move = None
            elif event["type"] == "game_over":
                return event
        else:
            continue
        if to_move == seat and not pending:
            pending = True
            await client.send(type="act", room=room, action=naive_action(last_bid, max_quantity))
