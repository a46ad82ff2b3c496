"""Forced mates against a lone king: an AND-OR search over the king's region.

Against a lone king the metaposition is exact: our pieces, and the set of squares where
the king may stand. That makes the endgame a game we can solve by search, as in
Ciancarini and Favini's Kriegspiel tablebases, only depth-limited and at the table:
:class:`MateSearch` looks for an attempt that mates **whatever the hidden king does**
within a few of our moves. The umpire's answers are the branches of an AND node:

- a king step next to a square of the region may be refused; we learn the king stands
  next to the target and try again (no move spent, the region strictly smaller);
- the move played, the king is checked on some squares and not on others, and a check is
  announced with its directions (rank, file, long or short diagonal, knight), each a
  branch of its own; where it is checked without a flight it is mated, where it is not
  checked without one it is stalemated (a failure), where it could take one of our
  undefended pieces the search fails too (no gamble with material);
- after each answer the king steps to one of its flights: the next region.

Sliders' rays pass through the king's square (it cannot hide behind itself), so every
square is judged with our attacks on a board without the king. All of it is computed on
whole bitboards at once (a region's flights are its neighbours minus our attacks), not
square by square. With king and rook or king and queen the chess distance to mate of the
region's worst square (:mod:`bots.kriegspiel.meta.dtm`) is a lower bound on the moves a
mate needs, and prunes every line that cannot mate in time. Pawns of ours are out of
scope (their moves and promotions make other answers); callers use the search only when
we have none. Results are memoised per (pieces, region): mates found with their depth,
and the largest depth shown to fail.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable

import chess

from bots.kriegspiel.meta.dtm import UNKNOWN, index, table
from bots.kriegspiel.meta.geometry import attacks
from bots.kriegspiel.meta.minor_dtm import KINDS as MINOR_KINDS
from bots.kriegspiel.meta.minor_dtm import ready as minor_ready
from bots.sdk.budget import tick

__all__ = ["Answer", "MateSearch", "Pieces", "answer", "check_groups", "neighbours"]


#: How many positions the memo keeps before it starts afresh.
MEMORY = 1_000_000
#: A bound that no depth reaches.
NEVER = 1_000


class _OutOfTime(Exception):
    pass


#: Our pieces: (kind, square) pairs, the king first; python-chess piece types.
Pieces = tuple[tuple[int, int], ...]

_NOT_A = chess.BB_ALL & ~chess.BB_FILE_A
_NOT_H = chess.BB_ALL & ~chess.BB_FILE_H


def neighbours(squares: int) -> int:
    """Every square a king step away from some square of ``squares``."""
    west = (squares >> 1) & _NOT_H
    east = (squares << 1) & _NOT_A
    row = squares | west | east
    return ((row << 8) | (row >> 8) | west | east) & chess.BB_ALL


def _diagonal(square: int, step: int) -> int:
    """The diagonal through ``square``: rising (step 9) or falling (step 7)."""
    file, rank = chess.square_file(square), chess.square_rank(square)
    rise = 1 if step == 9 else -1
    mask = 0
    for other in chess.SQUARES:
        df = chess.square_file(other) - file
        if chess.square_rank(other) - rank == rise * df:
            mask |= chess.BB_SQUARES[other]
    return mask


_RISING = tuple(_diagonal(square, 9) for square in chess.SQUARES)
_FALLING = tuple(_diagonal(square, 7) for square in chess.SQUARES)
#: Squares whose rising diagonal is the longer of their two (they never have one length).
_LONG_RISING = sum(
    chess.BB_SQUARES[square]
    for square in chess.SQUARES
    if _RISING[square].bit_count() > _FALLING[square].bit_count()
)


def _lines(kind: int, square: int, occupied: int) -> list[tuple[int, str, str]]:
    """What a piece attacks, by line: (squares, direction if the king's rising diagonal
    is the long one, direction otherwise), as the umpire names a check from there. A
    king never gives check; pawns are out of the search's scope."""
    if kind == chess.KNIGHT:
        return [(chess.BB_KNIGHT_ATTACKS[square], "knight", "knight")]
    lines: list[tuple[int, str, str]] = []
    if kind in (chess.ROOK, chess.QUEEN):
        rank = chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
        file = chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
        lines += [(rank, "rank", "rank"), (file, "file", "file")]
    if kind in (chess.BISHOP, chess.QUEEN):
        diagonal = chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
        # On the rising line the king's rising diagonal is the checking one, and so on.
        lines.append((diagonal & _RISING[square], "long_diagonal", "short_diagonal"))
        lines.append((diagonal & _FALLING[square], "short_diagonal", "long_diagonal"))
    return lines


def check_groups(pieces: Pieces, occupied: int, checked: int) -> list[int]:
    """Split ``checked`` (squares where the king would be in check) by the directions
    the umpire would announce: one bitboard per announcement."""
    parts: list[tuple[int, str]] = []
    for kind, square in pieces[1:]:
        for line, if_long, if_short in _lines(kind, square, occupied):
            line &= checked
            if line & _LONG_RISING:
                parts.append((line & _LONG_RISING, if_long))
            if line & ~_LONG_RISING:
                parts.append((line & ~_LONG_RISING, if_short))
    if len(parts) == 1:
        return [parts[0][0]]
    double = 0
    seen = 0
    for line, _ in parts:
        double |= seen & line
        seen |= line
    groups: dict[tuple[str, ...], int] = {}
    for line, name in parts:
        if line & ~double:
            groups[(name,)] = groups.get((name,), 0) | (line & ~double)
    for square in chess.SquareSet(double):
        bit = chess.BB_SQUARES[square]
        key = tuple(sorted(name for line, name in parts if line & bit))
        groups[key] = groups.get(key, 0) | bit
    return list(groups.values())


def _occupied(pieces: Pieces) -> int:
    result = 0
    for _, square in pieces:
        result |= chess.BB_SQUARES[square]
    return result


def _attacked(pieces: Pieces, occupied: int) -> int:
    """Every square our pieces attack on a board holding only them: sliders see through
    the enemy king's square, which is how its flights must be judged."""
    result = 0
    for kind, square in pieces:
        result |= attacks(kind, chess.WHITE, square, occupied)
    return result


#: What one attempt leads to: our pieces after it, the squares where it is refused (the
#: king is then there, and we move again), and the regions after the king's reply, one
#: per announcement (each check's directions, silence).
Answer = tuple[Pieces, int, list[int]]


def answer(pieces: Pieces, region: int, index_: int, target: int) -> Answer | None:
    """What moving ``pieces[index_]`` to ``target`` leads to against a lone king somewhere
    in ``region``; ``None`` when some answer surely loses the mate (a stalemate, a piece
    the king may take) or the move is surely refused."""
    kind, _ = pieces[index_]
    refused = 0
    legal = region
    if kind == chess.KING:
        refused = region & chess.BB_KING_ATTACKS[target]
        legal = region & ~refused
        if not legal:
            return None  # surely refused: it teaches nothing new
    after = (*pieces[:index_], (kind, target), *pieces[index_ + 1 :])
    occupied = _occupied(after)
    attacked = _attacked(after, occupied)
    # Where the king may step: our undefended men too (it would take them), never our king.
    free = chess.BB_ALL & ~attacked & ~chess.BB_SQUARES[after[0][1]]
    exposed = occupied & free
    if exposed and neighbours(legal) & exposed:
        return None  # it may take a piece of ours
    escapes = neighbours(free)  # squares with a flight
    if legal & ~attacked & ~escapes:
        return None  # stalemate
    free &= ~occupied
    regions = []
    quiet = legal & ~attacked
    if quiet:
        regions.append(neighbours(quiet) & free)
    checked = legal & attacked & escapes  # the rest of the checked squares are mates
    if checked:
        for group in check_groups(after, occupied, checked):
            regions.append(neighbours(group) & free)
    return after, refused, regions


def _bounded(kind: int) -> Callable[[Pieces, int], int]:
    """The chess distance to mate of the region's worst square (``NEVER`` for a draw),
    a lower bound on the moves a mate needs, for king and ``kind``."""
    moves: array[int] = table(kind)[0]

    def bound(pieces: Pieces, region: int) -> int:
        base = index(pieces[0][1], pieces[1][1], 0)
        worst = 0
        while region:
            low = region & -region
            plies = moves[base | (low.bit_length() - 1)]
            if plies == UNKNOWN:
                return NEVER
            worst = max(worst, plies)
            region ^= low
        return (worst + 1) // 2

    return bound


def _minor_bounded(kinds: tuple[int, int]) -> Callable[[Pieces, int], int] | None:
    """:func:`_bounded` for king and two minor pieces (``minor_dtm.py``): ``kinds`` is
    a bishop and a bishop or a knight; ``pieces`` are sorted, a knight first. ``None``
    while the table is being built (the search then runs without this bound)."""
    found = minor_ready(kinds)
    if found is None:
        return None
    moves = found.white

    def bound(pieces: Pieces, region: int) -> int:
        (_, king), (kind, first), (_, second) = pieces
        if kind != chess.BISHOP:
            first, second = second, first
        base = (king << 18) | (first << 12) | (second << 6)
        worst = 0
        while region:
            low = region & -region
            plies = int(moves[base | (low.bit_length() - 1)])
            if plies == UNKNOWN:
                return NEVER
            worst = max(worst, plies)
            region ^= low
        return (worst + 1) // 2

    return bound


def _same_colour(others: Pieces) -> bool:
    """Whether these are two bishops on squares of one colour (a draw in the table)."""
    light = [bool(chess.BB_LIGHT_SQUARES & chess.BB_SQUARES[square]) for _, square in others]
    return all(kind == chess.BISHOP for kind, _ in others) and light[0] == light[1]


class MateSearch:
    """Finds an attempt that forces mate on a lone king within ``depth`` of our moves.

    ``color`` is our side; the search gives up (returns ``None``) at ``deadline``
    (a value of ``clock``) or after ``max_nodes`` positions examined.
    ``prune`` uses the chess distance to mate as a lower bound where a table exists
    (off only to test that the bound never loses a mate).
    """

    def __init__(
        self,
        color: chess.Color,
        deadline: float,
        max_nodes: int = 2_000_000,
        *,
        prune: bool = True,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.color = color
        self.clock = clock
        self._tick = tick(clock)
        self.prune = prune
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.reached = 0  #: the deepest limit the last call finished or began
        self._mates: dict[tuple[Pieces, int], tuple[int, tuple[int, int]]] = {}
        self._fails: dict[tuple[Pieces, int], int] = {}
        self._bound: Callable[[Pieces, int], int] | None = None

    def find(
        self,
        board: chess.Board,
        region: int,
        depth: int,
        deadline: float | None = None,
        avoid: frozenset[chess.Move] = frozenset(),
    ) -> tuple[chess.Move, int] | None:
        """The first move of a forced mate within ``depth`` moves (and that depth), trying
        the shortest first; ``None`` if there is none or time ran out. What was learnt
        is kept for the next call (a new ``deadline`` may be given): a position's
        forced mates do not change. No mate starts with a move of ``avoid`` (the caller's:
        moves that may repeat a position a third time, a draw the search cannot see)."""
        if deadline is not None:
            self.deadline = deadline
            self.nodes = 0
        if len(self._fails) + len(self._mates) > MEMORY:
            self._fails.clear()
            self._mates.clear()
        ours = board.occupied_co[self.color]
        king = board.king(self.color)
        if board.pawns & ours or not region or king is None:
            return None
        others = tuple(
            sorted(
                (board.piece_type_at(square) or 0, square)
                for square in chess.SquareSet(ours & ~board.kings)
            )
        )
        # Without pawns the colours do not matter: attacks and tables are White's.
        pieces: Pieces = ((chess.KING, king), *others)
        self._bound = None
        if self.prune and len(others) == 1 and others[0][0] in (chess.ROOK, chess.QUEEN):
            self._bound = _bounded(others[0][0])
        kinds = tuple(sorted((kind for kind, _ in others), reverse=True))
        if self.prune and kinds in MINOR_KINDS and not _same_colour(others):
            self._bound = _minor_bounded((kinds[0], kinds[1]))
        start = max(1, self._lower(pieces, region))
        try:
            skip = frozenset((move.from_square, move.to_square) for move in avoid)
            for limit in range(start, depth + 1):
                self.reached = limit
                found = self._attack(pieces, region, limit, skip)
                if found is not None:
                    return chess.Move(*found), limit
        except _OutOfTime:
            return None
        return None

    def _lower(self, pieces: Pieces, region: int) -> int:
        return 0 if self._bound is None else self._bound(pieces, region)

    # -- OR: our attempt -------------------------------------------------------------

    def _attack(
        self,
        pieces: Pieces,
        region: int,
        depth: int,
        skip: frozenset[tuple[int, int]] = frozenset(),
    ) -> tuple[int, int] | None:
        key = (pieces, region)
        known = self._mates.get(key)
        if known is not None and known[0] <= depth and known[1] not in skip:
            return known[1]
        if self._fails.get(key, 0) >= depth:
            return None
        self.nodes += 1
        if self._tick is not None:
            self._tick(1)
        if self.nodes > self.max_nodes or (self.nodes & 63 == 1 and self.clock() > self.deadline):
            raise _OutOfTime
        if self._lower(pieces, region) > depth:
            self._fails[key] = depth
            return None
        occupied = _occupied(pieces)
        candidates = []
        for at, (kind, square) in enumerate(pieces):
            for target in chess.SquareSet(attacks(kind, chess.WHITE, square, occupied) & ~occupied):
                result = answer(pieces, region, at, target)
                if result is None:
                    continue
                after, refused, regions = result
                if depth == 1 and (refused or regions):
                    continue  # one move left: every answer must be mate now
                order = max((self._lower(after, child) for child in regions), default=0)
                if order >= depth:
                    continue  # some answer cannot be mated in the moves left
                size = refused.bit_count() + sum(child.bit_count() for child in regions)
                candidates.append((order, size, (square, target), result))
        candidates.sort(key=lambda item: item[:2])
        for _, _, move, (after, refused, regions) in candidates:
            if move in skip:
                continue
            if self._holds(pieces, after, refused, regions, depth):
                if not skip:
                    self._mates[key] = (depth, move)
                return move
        if not skip:
            self._fails[key] = depth
        return None

    # -- AND: the umpire's answers and the king's reply -------------------------------

    def _holds(
        self, pieces: Pieces, after: Pieces, refused: int, regions: list[int], depth: int
    ) -> bool:
        if depth == 1:
            return not (refused or regions)
        for region in sorted(regions, key=lambda bits: -bits.bit_count()):
            if self._attack(after, region, depth - 1) is None:
                return False
        return not refused or self._attack(pieces, refused, depth) is not None
