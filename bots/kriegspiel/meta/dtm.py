"""Distance to mate in ordinary chess for king and rook (or queen) against king.

Against a hidden king, the worst case over the squares where it may stand of the chess
distance to mate is a sharp measure of progress once the region is small: it knows the
whole chess technique (the box, the opposition, the rook's tempo moves) that a shallow
search with hand-made terms does not. It is also a *lower bound* on the Kriegspiel
distance: whatever the umpire tells us, the moves we play against a king on square ``s``
form a chess game, which the king can make last as long as chess best play does; the
forced-mate search (:mod:`bots.kriegspiel.meta.mate`) prunes with it.

Each table is built breadth first from the mates backwards (three to five seconds) and
kept in a cache file (:mod:`bots.kriegspiel.meta.table_cache`: ``$XDG_CACHE_HOME/umpire``,
else ``~/.cache/umpire``; a file that does not check out is rebuilt), so a process pays at
most a read of 512 KiB:

- a position with Black to move is lost when every king move of Black leads to a won
  position for White; Black taking an undefended piece is a draw and never counts;
- a position with White to move is won as soon as one move leads to a lost one.

:func:`mate_distance` answers in moves (White to move), or ``None`` for a draw (the piece
lost, stalemate) or an illegal position. Colours do not matter: the stronger side is
called White here and boards are symmetric.
"""

from __future__ import annotations

import threading
from array import array
from collections import deque
from typing import TypeAlias

import chess

from bots.kriegspiel.meta.table_cache import cache_dir, cached

__all__ = [
    "UNKNOWN",
    "build",
    "cache_dir",
    "encode",
    "index",
    "mate_distance",
    "rook_mate_distance",
    "table",
    "warm",
    "warm_in_background",
]

#: The table's entry for a draw or an illegal position.
UNKNOWN = 255
_KING = chess.BB_KING_ATTACKS
_SQUARES = chess.BB_SQUARES
#: The pieces a table exists for.
KINDS = (chess.ROOK, chess.QUEEN)


def _slides(kind: int, square: int, occupied: int) -> int:
    result = 0
    if kind in (chess.ROOK, chess.QUEEN):
        result |= chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
        result |= chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
    if kind == chess.QUEEN:
        result |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
    return result


def index(wk: int, piece: int, bk: int) -> int:
    """The position's index in a table."""
    return (wk << 12) | (piece << 6) | bk


#: Bumped whenever the tables' meaning changes, so that old cache files are not read.
_VERSION = 1
_SIZE = 1 << 18


_Tables: TypeAlias = "tuple[array[int], array[int]]"
_tables: dict[int, _Tables] = {}
#: One loader at a time: a table asked for while another thread builds it waits for it.
_loading = threading.Lock()
_warming: threading.Thread | None = None


def table(kind: int = chess.ROOK) -> _Tables:
    """Plies to mate with White to move and with Black to move, per (wk, piece, bk),
    for White's king and one piece of ``kind`` (rook or queen) against the king."""
    found = _tables.get(kind)
    if found is not None:
        return found
    if kind not in KINDS:
        raise ValueError(f"no table for {chess.piece_name(kind)}")
    path = cache_dir() / f"dtm-k{chess.piece_symbol(kind)}k-v{_VERSION}.bin"
    loaded = cached(_tables, _loading, kind, path, 2 * _SIZE, _decode, lambda: _built(kind))
    assert loaded is not None
    return loaded


def warm() -> None:
    """Load (or build, the first time on a machine) every table now, not mid-game."""
    for kind in KINDS:
        table(kind)


def warm_in_background() -> None:
    """Start :func:`warm` in a daemon thread, once per process, unless all are loaded:
    a bot calls it as a game starts, so that a decision's time budget never pays for
    building a table."""
    global _warming
    if _warming is not None or all(kind in _tables for kind in KINDS):
        return
    _warming = threading.Thread(target=warm, name="umpire-dtm", daemon=True)
    _warming.start()


def _decode(payload: bytes) -> _Tables:
    """The tables of a cache file's payload (:mod:`~bots.kriegspiel.meta.table_cache`)."""
    return array("B", payload[:_SIZE]), array("B", payload[_SIZE:])


def encode(tables: _Tables) -> bytes:
    """The payload of a cache file holding ``tables``."""
    return tables[0].tobytes() + tables[1].tobytes()


def _built(kind: int) -> tuple[_Tables, bytes]:
    tables = build(kind)  # looked up at call time: tests replace it
    return tables, encode(tables)


def build(kind: int) -> _Tables:
    """The tables of :func:`table`, computed (no cache)."""
    white = array("B", [UNKNOWN]) * _SIZE
    black = array("B", [UNKNOWN]) * _SIZE
    escapes = array("B", [0]) * _SIZE
    queue: _Queue = deque()
    for wk in range(64):
        for wp in range(64):
            if wp == wk:
                continue
            # White's attacks with the black king off the board (rays pass its square).
            attacked = _KING[wk] | _slides(kind, wp, _SQUARES[wk] | _SQUARES[wp])
            taken = _SQUARES[wk] | _SQUARES[wp]
            for bk in range(64):
                if _SQUARES[bk] & taken or _KING[wk] & _SQUARES[bk]:
                    continue
                moves = _KING[bk] & ~attacked & ~_SQUARES[wk]
                count = moves.bit_count()
                at = index(wk, wp, bk)
                escapes[at] = count
                if count == 0 and attacked & _SQUARES[bk]:
                    black[at] = 0
                    queue.append((wk, wp, bk, False))
    while queue:
        wk, wp, bk, white_to_move = queue.popleft()
        if not white_to_move:
            # Black (to move) is lost: every white move into this position wins.
            plies = black[index(wk, wp, bk)] + 1
            occupied = _SQUARES[wk] | _SQUARES[wp] | _SQUARES[bk]
            for before in chess.SquareSet(_KING[wk] & ~occupied & ~_KING[bk]):
                _won(kind, white, queue, before, wp, bk, plies)
            for before in chess.SquareSet(_slides(kind, wp, occupied) & ~occupied):
                _won(kind, white, queue, wk, before, bk, plies)
        else:
            # White (to move) wins: a black king step into this position is one lost move.
            plies = white[index(wk, wp, bk)] + 1
            taken = _SQUARES[wk] | _SQUARES[wp]
            for before in chess.SquareSet(_KING[bk] & ~taken & ~_KING[wk]):
                at = index(wk, wp, before)
                if black[at] != UNKNOWN:
                    continue
                escapes[at] -= 1
                if escapes[at] == 0:
                    black[at] = plies
                    queue.append((wk, wp, before, False))
    return white, black


_Queue = deque[tuple[int, int, int, bool]]


def _won(
    kind: int, white: array[int], queue: _Queue, wk: int, wp: int, bk: int, plies: int
) -> None:
    at = index(wk, wp, bk)
    if white[at] != UNKNOWN:
        return
    attacked = _KING[wk] | _slides(kind, wp, _SQUARES[wk] | _SQUARES[wp])
    if attacked & _SQUARES[bk]:
        return  # Black in check with White to move: not a position
    white[at] = plies
    queue.append((wk, wp, bk, True))


def mate_distance(
    kind: int, king: chess.Square, piece: chess.Square, enemy: chess.Square
) -> int | None:
    """Moves to mate with the stronger side (king and one ``kind``) to move and perfect
    play, or ``None``."""
    plies = table(kind)[0][index(king, piece, enemy)]
    return None if plies == UNKNOWN else (plies + 1) // 2


def rook_mate_distance(king: chess.Square, rook: chess.Square, enemy: chess.Square) -> int | None:
    """:func:`mate_distance` for king and rook."""
    return mate_distance(chess.ROOK, king, rook, enemy)
