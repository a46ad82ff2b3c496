"""The Perudo table's turn line offers dudo only when there is a bid to doubt: a player
who opened a round was told "YOUR TURN: bid (e.g. 1x2), dudo, or hint" (found by playing
the TUI in a terminal)."""

from __future__ import annotations

from typing import Any

from client_cli.games.perudo.text import perudo_lines
from client_cli.state import RoomState

ROOM: dict[str, Any] = {
    "type": "room",
    "room": "r1",
    "game": "perudo",
    "state": "playing",
    "options": {},
}
ROOM["seats"] = [{"seat": s, "name": n} for s, n in enumerate(["ana", "bob"])]


def frames(legal: list[str], bids: list[dict[str, Any]]) -> RoomState:
    room = RoomState(room="r1")
    room.apply(dict(ROOM))
    view = {
        "game": "perudo",
        "seats": 2,
        "round": 1,
        "starter": 0,
        "to_move": 0,
        "bids": bids,
        "seat": 0,
        "dice": [3, 5],
        "dice_left": 2,
        "aces_wild": True,
    }
    room.apply(
        {
            "type": "turn",
            "room": "r1",
            "seat": 0,
            "seq": 2,
            "legal": legal,
            "view": view,
            "time_left": None,
        }
    )
    return room


def test_the_opener_is_not_offered_dudo() -> None:
    line = perudo_lines(frames(["1x2", "1x3", "2x2"], []))[-1]
    assert line.startswith("YOUR TURN") and "dudo" not in line


def test_after_a_bid_dudo_is_offered() -> None:
    line = perudo_lines(frames(["2x2", "dudo"], [{"seat": 1, "bid": "1x2"}]))[-1]
    assert line.startswith("YOUR TURN") and "dudo" in line
