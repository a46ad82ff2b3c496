"""Test helpers for ``kriegspiel-meta``: play local games while checking the invariant.

:class:`Checked` wraps the bot and, after every projection it folds in, compares its
metaposition with the real board, which the *test* reads from the events' truths (the
bot never sees them).
"""

from __future__ import annotations

from typing import Any

import chess

from bots.baseline import KriegspielRandom
from bots.kriegspiel_meta import KriegspielMeta, Metaposition
from bots.local import LocalGame, play_local
from bots.sdk import Bot
from server.games.base import Event

KINDS = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)


def violations(meta: Metaposition, board: chess.Board) -> list[str]:
    """Every way ``meta`` fails to contain the real position ``board`` (none if sound)."""
    problems = []
    enemy = not meta.color
    for kind in KINDS:
        for square in chess.SquareSet(board.pieces_mask(kind, enemy)):
            if not meta.may[kind] & chess.BB_SQUARES[square]:
                name = chess.piece_name(kind)
                problems.append(f"enemy {name} on {chess.square_name(square)} outside its set")
    if meta.known & ~board.occupied_co[enemy]:
        problems.append(f"known squares {chess.SquareSet(meta.known)} not all occupied")
    units = (board.occupied_co[enemy] & ~board.kings).bit_count()
    if units != meta.units:
        problems.append(f"enemy units {units}, metaposition says {meta.units}")
    if units and meta.pawns_max < board.pieces_mask(chess.PAWN, enemy).bit_count():
        problems.append("pawn bound too low")
    own = chess.Board(None)
    for square in chess.SquareSet(board.occupied_co[meta.color]):
        piece = board.piece_at(square)
        assert piece is not None
        own.set_piece_at(square, piece)
    if own.board_fen() != meta.own.board_fen():
        problems.append(f"own board {meta.own.board_fen()} != {own.board_fen()}")
    return problems


class Checked(KriegspielMeta):
    """A ``kriegspiel-meta`` that checks its metaposition against the truth as it plays."""

    def __init__(self, truth: dict[str, chess.Board], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.truth = truth
        self.problems: list[str] = []

    async def observe(self, event: dict[str, Any]) -> None:
        await super().observe(event)
        if self.meta is not None and not self.problems:
            found = violations(self.meta, self.truth["board"])
            if found:
                self.problems = [f"after {event}: {p}" for p in found]


def truth_sink(truth: dict[str, chess.Board]) -> Any:
    """An event sink that keeps ``truth["board"]`` at the real position."""

    def sink(events: list[Event]) -> None:
        for event in events:
            fen = event.truth.get("fen")
            if isinstance(fen, str):
                truth["board"] = chess.Board(fen)

    return sink


async def checked_game(
    rules: str,
    seed: int,
    *,
    meta_seat: int = 0,
    fen: str | None = None,
    opponent: Bot | None = None,
    **kwargs: Any,
) -> tuple[LocalGame, Checked]:
    """One local game of ``Checked`` against ``opponent`` (default: random)."""
    truth: dict[str, chess.Board] = {"board": chess.Board(fen) if fen else chess.Board()}
    meta = Checked(truth, seed=seed, **kwargs)
    other = opponent if opponent is not None else KriegspielRandom(seed=seed + 1)
    bots: list[Bot] = [meta, other] if meta_seat == 0 else [other, meta]
    options: dict[str, Any] = {"rules": rules}
    if fen is not None:
        options["fen"] = fen
    played = await play_local(
        "kriegspiel", options, bots, seed.to_bytes(8, "big"), sink=truth_sink(truth)
    )
    return played, meta
