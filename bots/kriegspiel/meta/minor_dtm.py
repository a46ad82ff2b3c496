"""Distance to mate in ordinary chess for king and two minor pieces against king.

The KBB vs K (two bishops) and KBN vs K (bishop and knight) tables of
:mod:`bots.kriegspiel.meta.minor`: what :mod:`bots.kriegspiel.meta.dtm` is for KR vs K,
one piece more. With four men a table has 64**4 = 16.8 million entries per side to move,
too many for the pure Python breadth-first search of ``dtm.py``; here the same retrograde
analysis runs on numpy arrays, a whole layer of positions at a time:

- the mates (Black to move, in check, no flight) are lost in 0 plies;
- a White-to-move position is won in ``n + 1`` plies when one White move (un-moved from
  the lost positions of layer ``n``: a king step, a bishop slide, a knight jump) reaches
  a lost one; Black must not stand in check in it;
- a Black-to-move position is lost in ``n + 1`` plies when its last king move that was
  not yet known to lose reaches a won one (a counter of flights per position, as in
  ``dtm.py``). Taking a piece is a flight that never loses: the rest is a draw.

Positions are indexed ``(wk, first, second, bk)`` with six bits each; ``first`` is a
bishop, ``second`` the other bishop or the knight. Same-coloured bishops are in the
table too (mostly draws). Building one table takes some 25 (KBB) and 40 (KBN) CPU
seconds here, about 1 GB of memory at its peak; it is then kept in the cache directory
of ``dtm.py`` (32 MiB a table, checked by a digest: :mod:`~bots.kriegspiel.meta.table_cache`),
so a process pays only a read. Colours do not matter: the stronger side is called White
and the tables hold for Black's pieces on the same squares.
"""

from __future__ import annotations

import threading
from pathlib import Path

import chess
import numpy as np
import numpy.typing as npt

from bots.kriegspiel.meta.dtm import UNKNOWN
from bots.kriegspiel.meta.table_cache import cache_dir, cached

__all__ = [
    "KINDS",
    "SIZE",
    "MinorTable",
    "build",
    "encode",
    "index",
    "minor_kinds",
    "table",
    "warm",
]

#: The pairs of pieces a table exists for: (first, second).
KINDS = ((chess.BISHOP, chess.BISHOP), (chess.BISHOP, chess.KNIGHT))
SIZE = 1 << 24
#: Bumped whenever the tables' meaning changes, so that old cache files are not read.
_VERSION = 1

_Bytes = npt.NDArray[np.uint8]
_Ints = npt.NDArray[np.int64]


def index(wk: int, first: int, second: int, bk: int) -> int:
    """The position's index in a table."""
    return (wk << 18) | (first << 12) | (second << 6) | bk


class MinorTable:
    """Plies to mate with White to move (``white``) and with Black to move (``black``),
    :data:`~bots.kriegspiel.meta.dtm.UNKNOWN` for a draw or an illegal position."""

    def __init__(self, kinds: tuple[int, int], white: _Bytes, black: _Bytes) -> None:
        self.kinds = kinds
        self.white = white
        self.black = black

    def squares(self, wk: int, first: int, second: int, turn_white: bool) -> _Bytes:
        """The 64 entries for every square of the lone king, the rest fixed."""
        start = index(wk, first, second, 0)
        return (self.white if turn_white else self.black)[start : start + 64]

    def mate_distance(self, wk: int, first: int, second: int, bk: int) -> int | None:
        """Moves to mate with White to move and best play, or ``None`` (a draw or an
        illegal position)."""
        plies = int(self.white[index(wk, first, second, bk)])
        return None if plies == UNKNOWN else (plies + 1) // 2


def minor_kinds(board: chess.Board, color: chess.Color) -> tuple[int, int, int] | None:
    """``(table kinds index, first square, second square)`` when ``color`` has exactly
    a bishop and a second bishop or a knight besides its king (and nothing else)."""
    mine = board.occupied_co[color] & ~board.kings
    if mine.bit_count() != 2 or mine & ~(board.bishops | board.knights):
        return None
    bishops = mine & board.bishops
    if not bishops:
        return None
    first = chess.lsb(bishops)
    second = chess.lsb(mine & ~chess.BB_SQUARES[first])
    which = 0 if board.piece_type_at(second) == chess.BISHOP else 1
    return which, first, second


_tables: dict[tuple[int, int], MinorTable] = {}
_loading = threading.Lock()
#: the tables being built in a background thread (:func:`ready`)
_building: set[tuple[int, int]] = set()


def table(kinds: tuple[int, int]) -> MinorTable:
    """The table for ``kinds`` (one of :data:`KINDS`): read from the cache, else built
    and stored there (25 to 40 CPU seconds: a game's decision uses :func:`ready`)."""
    found = _get(kinds, build_missing=True)
    assert found is not None
    return found


def warm() -> None:
    """Load (or build, the first time on a machine) every table now, not mid-game."""
    for kinds in KINDS:
        table(kinds)


def ready(kinds: tuple[int, int]) -> MinorTable | None:
    """The table for ``kinds`` if it is loaded or can be read from the cache at once (a
    read and a checksum); otherwise ``None``, and it is built in a background thread
    (once per process), so a decision never waits for a build: the bot plays on by its
    search meanwhile."""
    found = _tables.get(kinds)
    if found is not None or kinds in _building:
        return found
    found = _get(kinds, build_missing=False)
    if found is None:
        _building.add(kinds)
        threading.Thread(target=table, args=(kinds,), name="umpire-minor-dtm", daemon=True).start()
    return found


def _get(kinds: tuple[int, int], *, build_missing: bool) -> MinorTable | None:
    """The loaded table, else the cached one, else (``build_missing``) a new one."""
    found = _tables.get(kinds)
    if found is not None:
        return found
    if kinds not in KINDS:
        raise ValueError(f"no table for {kinds}")

    def decode(payload: bytes) -> MinorTable:
        both = np.frombuffer(payload, dtype=np.uint8)
        return MinorTable(kinds, both[:SIZE], both[SIZE:])

    def built() -> tuple[MinorTable, bytes]:
        white, black = build(kinds)  # looked up at call time: tests replace it
        return MinorTable(kinds, white, black), encode(white, black)

    return cached(
        _tables, _loading, kinds, _path(kinds), 2 * SIZE, decode, built, build_missing=build_missing
    )


def _path(kinds: tuple[int, int]) -> Path:
    name = "".join(chess.piece_symbol(kind) for kind in kinds)
    return cache_dir() / f"dtm-k{name}k-v{_VERSION}.bin"


def encode(white: _Bytes, black: _Bytes) -> bytes:
    """The payload of a cache file holding these tables."""
    return white.tobytes() + black.tobytes()


# -- the retrograde analysis ---------------------------------------------------------

_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
_DIAGONALS = ((1, 1), (-1, 1), (-1, -1), (1, -1))
_JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def _targets(offsets: tuple[tuple[int, int], ...], reach: int) -> _Ints:
    """``[square, offset, distance - 1]``: the square reached, or -1 off the board."""
    result = np.full((64, len(offsets), reach), -1, dtype=np.int64)
    for square in range(64):
        file, rank = chess.square_file(square), chess.square_rank(square)
        for at, (df, dr) in enumerate(offsets):
            for k in range(reach):
                f, r = file + df * (k + 1), rank + dr * (k + 1)
                if not (0 <= f < 8 and 0 <= r < 8):
                    break
                result[square, at, k] = chess.square(f, r)
    return result


_KING_STEPS = _targets(_STEPS, 1)[:, :, 0]
_RAYS = _targets(_DIAGONALS, 7)
_KNIGHT_JUMPS = _targets(_JUMPS, 1)[:, :, 0]
_NEAR = np.array(
    [[chess.square_distance(a, b) <= 1 for b in range(64)] for a in range(64)], dtype=bool
)
_POPCOUNT = np.array([bin(n).count("1") for n in range(256)], dtype=np.uint8)


def _piece_attacks(kind: int, square: int, occupied: int) -> int:
    if kind == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    return chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]


def _attacks(kinds: tuple[int, int]) -> npt.NDArray[np.uint64]:
    """White's attacks per ``(wk, first, second)`` with the black king off the board."""
    values = []
    for wk in range(64):
        king = chess.BB_KING_ATTACKS[wk]
        for first in range(64):
            for second in range(64):
                occupied = chess.BB_SQUARES[wk] | chess.BB_SQUARES[first] | chess.BB_SQUARES[second]
                values.append(
                    king
                    | _piece_attacks(kinds[0], first, occupied)
                    | _piece_attacks(kinds[1], second, occupied)
                )
    return np.array(values, dtype=np.uint64)


def _split(positions: _Ints) -> tuple[_Ints, _Ints, _Ints, _Ints]:
    return positions >> 18, (positions >> 12) & 63, (positions >> 6) & 63, positions & 63


def _join(wk: _Ints, first: _Ints, second: _Ints, bk: _Ints) -> _Ints:
    return (wk << 18) | (first << 12) | (second << 6) | bk


def _white_unmoves(kinds: tuple[int, int], lost: _Ints) -> _Ints:
    """Every position with White to move one White move before a position of ``lost``
    (the mover's old square empty; legality of Black's side is checked by the caller)."""
    wk, first, second, bk = _split(lost)
    found: list[_Ints] = []
    for at in range(8):
        before = _KING_STEPS[wk, at]
        ok = (before >= 0) & (before != first) & (before != second)
        ok &= ~_NEAR[np.maximum(before, 0), bk]
        found.append(_join(before[ok], first[ok], second[ok], bk[ok]))
    for which, kind in enumerate(kinds):
        mover, other = (first, second) if which == 0 else (second, first)
        if kind == chess.KNIGHT:
            for at in range(8):
                before = _KNIGHT_JUMPS[mover, at]
                ok = (before >= 0) & (before != wk) & (before != other) & (before != bk)
                moved = before[ok]
                pair = (moved, other[ok]) if which == 0 else (other[ok], moved)
                found.append(_join(wk[ok], pair[0], pair[1], bk[ok]))
            continue
        for at in range(4):
            open_ = np.ones(len(lost), dtype=bool)
            for k in range(7):
                before = _RAYS[mover, at, k]
                open_ &= (before >= 0) & (before != wk) & (before != other) & (before != bk)
                if not open_.any():
                    break
                moved = before[open_]
                pair = (moved, other[open_]) if which == 0 else (other[open_], moved)
                found.append(_join(wk[open_], pair[0], pair[1], bk[open_]))
    return np.concatenate(found)


def _black_unmoves(won: _Ints) -> _Ints:
    """Every position with Black to move one king step before a position of ``won``
    (legal: the king not next to White's king; duplicates are distinct moves)."""
    wk, first, second, bk = _split(won)
    found: list[_Ints] = []
    for at in range(8):
        before = _KING_STEPS[bk, at]
        ok = (before >= 0) & (before != first) & (before != second)
        ok &= ~_NEAR[np.maximum(before, 0), wk]
        found.append(_join(wk[ok], first[ok], second[ok], before[ok]))
    return np.concatenate(found)


def build(kinds: tuple[int, int]) -> tuple[_Bytes, _Bytes]:
    """The ``(white, black)`` tables of :func:`table`, computed (no cache)."""
    attacked = _attacks(kinds)  # per (wk, first, second)
    king_moves = np.array(chess.BB_KING_ATTACKS, dtype=np.uint64)
    squares = np.array(chess.BB_SQUARES, dtype=np.uint64)
    flights = np.empty(SIZE, dtype=np.int8)
    in_check = np.empty(SIZE, dtype=bool)
    legal = np.empty(SIZE, dtype=bool)
    wk_of = np.repeat(np.arange(64), 4096)
    first_of = np.tile(np.repeat(np.arange(64), 64), 64)
    second_of = np.tile(np.arange(64), 4096)
    distinct = (wk_of != first_of) & (wk_of != second_of) & (first_of != second_of)
    bks = np.arange(64)
    for wk in range(64):
        part = slice(wk << 18, (wk + 1) << 18)
        cover = attacked[wk << 12 : (wk + 1) << 12]
        free = king_moves[None, :] & ~cover[:, None]  # (4096, 64): the king's flights
        counts = _POPCOUNT[free.view(np.uint8)].reshape(4096, 64, 8).sum(axis=2)
        flights[part] = counts.reshape(-1).astype(np.int8)
        in_check[part] = ((cover[:, None] & squares[None, :]) != 0).reshape(-1)
        rows = distinct[wk << 12 : (wk + 1) << 12]
        ok = rows[:, None] & ~_NEAR[wk][None, :]
        ok &= (first_of[:4096, None] != bks[None, :]) & (second_of[:4096, None] != bks[None, :])
        legal[part] = ok.reshape(-1)
    white = np.full(SIZE, UNKNOWN, dtype=np.uint8)
    black = np.full(SIZE, UNKNOWN, dtype=np.uint8)
    lost = np.flatnonzero(legal & in_check & (flights == 0))
    black[lost] = 0
    plies = 0
    while lost.size:
        won = _white_unmoves(kinds, lost)
        won = np.unique(won[white[won] == UNKNOWN])
        won = won[~in_check[won]]  # Black in check with White to move: not a position
        white[won] = plies + 1
        before = _black_unmoves(won)
        before = before[black[before] == UNKNOWN]
        before, steps = np.unique(before, return_counts=True)
        flights[before] -= steps.astype(np.int8)
        lost = before[flights[before] == 0]
        black[lost] = plies + 2
        plies += 2
    return white, black
