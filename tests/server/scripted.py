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


class SeatScript:
    """Follows one seat's frames of one room and says when and what to play."""

    def __init__(self, room: str, seat: int, max_quantity: int = 3) -> None:
        self.room = room
        self.seat = seat
        self.max_quantity = max_quantity
        self.to_move: int | None = None
        self.last_bid: str | None = None
        self.pending = False
        self.last_seq = 0
        self.acked_seq = 0
        self.over: dict[str, Any] | None = None

    def feed(self, frame: dict[str, Any]) -> str | None:
        """Take one frame; return the action to send now, if any."""
        kind = frame.get("type")
        if frame.get("room") != self.room:
            return None
        if kind == "error":
            raise AssertionError(f"seat {self.seat}: {frame}")
        if kind == "ack":
            self.pending = False
            self.acked_seq = frame["seq"]
            return None
        if kind == "snapshot":
            view = frame["view"]
            self.last_seq = frame["seq"]
            self.to_move = view["to_move"]
            self.last_bid = view["bids"][-1]["bid"] if view["bids"] else None
        elif kind == "event":
            assert frame["seq"] == self.last_seq + 1, (frame, self.last_seq)
            self.last_seq = frame["seq"]
            event = frame.get("event")
            if event is None:
                return None
            if event["type"] == "round_started":
                self.to_move, self.last_bid = event["starter"], None
            elif event["type"] == "bid":
                self.to_move, self.last_bid = event["next"], event["bid"]
            elif event["type"] in ("challenge", "forfeit"):
                self.to_move = None
            elif event["type"] == "game_over":
                self.over = event
                return None
        else:
            return None
        if self.to_move == self.seat and not self.pending and self.over is None:
            self.pending = True
            return naive_action(self.last_bid, self.max_quantity)
        return None

    def poke(self) -> str | None:
        """After a reconnect: the action to send if it is (still) this seat's turn."""
        self.pending = False
        if self.to_move == self.seat and self.over is None:
            self.pending = True
            return naive_action(self.last_bid, self.max_quantity)
        return None


async def resume_seat(client: WsClient, script: SeatScript) -> None:
    """Resume the script's room after a reconnect: catch up silently, then play on."""
    await client.send(type="resume", room=script.room, since=script.last_seq)
    script.pending = True  # do not act on a turn that the missed events may have ended
    while True:
        frame = await client.next(timeout=10)
        if frame.get("type") == "resumed":
            break
        script.feed(frame)
    action = script.poke()
    if action is not None:
        await client.send(type="act", room=script.room, action=action)


async def play_seat(
    client: WsClient, room: str, seat: int, max_quantity: int = 3, script: SeatScript | None = None
) -> dict[str, Any]:
    """Play ``seat`` until the game ends; return the game_over event."""
    script = script or SeatScript(room, seat, max_quantity)
    while script.over is None:
        action = script.feed(await client.next(timeout=10))
        if action is not None:
            await client.send(type="act", room=room, action=action)
    return script.over


async def play_steps(
    client: WsClient, script: SeatScript, actions: int, timeout: float = 10
) -> int:
    """Play until this seat has sent ``actions`` actions (or the game ends); return how many."""
    sent = 0
    while script.over is None and sent < actions:
        action = script.feed(await client.next(timeout=timeout))
        if action is not None:
            await client.send(type="act", room=script.room, action=action)
            sent += 1
    return sent
