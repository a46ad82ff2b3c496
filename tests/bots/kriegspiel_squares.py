"""Shared by the Kriegspiel bot's tests: squares by name as bitboards and back, and the
event of a quiet move as the umpire sends it."""

from __future__ import annotations

import chess


def bb(*names: str) -> int:
    """The bitboard of the squares ``names`` ("e4", ...)."""
    mask = 0
    for name in names:
        mask |= chess.BB_SQUARES[chess.parse_square(name)]
    return mask


def squares(mask: int) -> set[str]:
    """The names of the squares of ``mask``."""
    return {chess.square_name(s) for s in chess.SquareSet(mask)}


def quiet(color: str, **extra: object) -> dict[str, object]:
    """A ``move`` event of ``color`` with no capture and no check (``extra`` adds to it)."""
    return {"type": "move", "color": color, "capture": None, "captured": None, "check": [], **extra}
