"""Forced mates against a lone king: an AND-OR search over the king's region.

Against a lone king the metaposition is exact: our pieces, and the set of squares where
the king may stand. That makes the endgame a game we can solve by search, as in
Ciancarini and Favini's Kriegspiel tablebases, only depth-limited and at the table:
:class:`MateSearch` looks for an attempt that mates **whatever the hidden king does**
within a few of our moves. The umpire's answers are the branches of an AND node:

- a king step next to a square of the region may be refused; we learn the king stands
  next to the target and try again (no move spent, the region strictly smaller);
- the move played, the king is checked on some squares and not on others; where it is
  checked without a flight it is mated, where it is not checked without one it is
  stalemated (a failure), where it could take one of our undefended pieces the search
  fails too (no gamble with material);
- after "check" or silence the king steps to one of its flights: the next region.

Sliders' rays pass through the king's square (it cannot hide behind itself), so every
square is judged with our attacks on a board without the king. Pawns of ours are out of
scope (their moves and promotions make other answers); callers use the search only when
we have none. Results are memoised per (pieces, region): mates found with their depth, and
the largest depth shown to fail.
"""

from __future__ import annotations

import time

import chess

from bots.kriegspiel_meta.geometry import attacks

__all__ = ["MateSearch"]


#: How many positions the memo keeps before it starts afresh.
MEMORY = 1_000_000


class _OutOfTime(Exception):
    pass


#: Our pieces: (kind, square) pairs, the king first; python-chess piece types.
Pieces = tuple[tuple[int, int], ...]


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


class MateSearch:
    """Finds an attempt that forces mate on a lone king within ``depth`` of our moves.

    ``color`` is our side; the search gives up (returns ``None``) at ``deadline``
    (a :func:`time.perf_counter` value) or after ``max_nodes`` positions examined.
    """

    def __init__(self, color: chess.Color, deadline: float, max_nodes: int = 400_000) -> None:
        self.color = color
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self._mates: dict[tuple[Pieces, int], tuple[int, tuple[int, int]]] = {}
        self._fails: dict[tuple[Pieces, int], int] = {}

    def find(
        self, board: chess.Board, region: int, depth: int, deadline: float | None = None
    ) -> tuple[chess.Move, int] | None:
        """The first move of a forced mate within ``depth`` moves (and that depth), trying
        the shortest first; ``None`` if there is none or time ran out. What was learnt
        is kept for the next call (a new ``deadline`` may be given): a position's
        forced mates do not change."""
        if deadline is not None:
            self.deadline = deadline
            self.nodes = 0
        if len(self._fails) + len(self._mates) > MEMORY:
            self._fails.clear()
            self._mates.clear()
        ours = board.occupied_co[self.color]
        if board.pawns & ours or not region or board.king(self.color) is None:
            return None
        king = board.king(self.color)
        assert king is not None
        others = tuple(
            sorted(
                (board.piece_type_at(square) or 0, square)
                for square in chess.SquareSet(ours & ~board.kings)
            )
        )
        pieces: Pieces = ((chess.KING, king), *others)
        try:
            for limit in range(1, depth + 1):
                found = self._attack(pieces, region, limit)
                if found is not None:
                    return chess.Move(*found), limit
        except _OutOfTime:
            return None
        return None

    # -- OR: our attempt -------------------------------------------------------------

    def _attack(self, pieces: Pieces, region: int, depth: int) -> tuple[int, int] | None:
        key = (pieces, region)
        known = self._mates.get(key)
        if known is not None and known[0] <= depth:
            return known[1]
        if self._fails.get(key, 0) >= depth:
            return None
        self.nodes += 1
        if self.nodes > self.max_nodes or (
            self.nodes % 64 == 0 and time.perf_counter() > self.deadline
        ):
            raise _OutOfTime
        occupied = _occupied(pieces)
        candidates = []
        for index, (kind, square) in enumerate(pieces):
            for target in chess.SquareSet(attacks(kind, chess.WHITE, square, occupied) & ~occupied):
                answer = self._answer(pieces, region, occupied, index, target)
                if answer is None:
                    continue
                _, refused, checked, quiet = answer
                if depth == 1 and (refused or checked or quiet):
                    continue  # one move left: every answer must be mate now
                size = checked.bit_count() + quiet.bit_count() + refused.bit_count()
                candidates.append((size, (square, target), answer))
        candidates.sort(key=lambda item: item[0])
        for _, move, (after, refused, checked, quiet) in candidates:
            if self._holds(pieces, after, refused, checked, quiet, depth):
                self._mates[key] = (depth, move)
                return move
        self._fails[key] = depth
        return None

    # -- AND: the umpire's answers and the king's reply -------------------------------

    def _answer(
        self, pieces: Pieces, region: int, occupied: int, index: int, target: int
    ) -> tuple[Pieces, int, int, int] | None:
        """What moving ``pieces[index]`` to ``target`` leads to: our pieces after it, the
        region where it is refused, and the regions after the king's reply when checked
        and when not. ``None`` when some answer surely loses the mate (a stalemate, a
        piece the king may take) or the move is surely refused."""
        kind, square = pieces[index]
        refused = 0
        legal = region
        if kind == chess.KING:
            refused = region & chess.BB_KING_ATTACKS[target]
            legal = region & ~refused
            if not legal:
                return None  # surely refused: it teaches nothing new
        after = (*pieces[:index], (kind, target), *pieces[index + 1 :])
        occupied = (occupied & ~chess.BB_SQUARES[square]) | chess.BB_SQUARES[target]
        attacked = _attacked(after, occupied)
        exposed = occupied & ~attacked & ~chess.BB_SQUARES[after[0][1]]
        checked = quiet = 0
        for king in chess.SquareSet(legal):
            flights = chess.BB_KING_ATTACKS[king] & ~attacked
            if flights & exposed:
                return None  # it may take a piece of ours
            if attacked & chess.BB_SQUARES[king]:
                checked |= flights  # no flights: mated there
            elif not flights:
                return None  # stalemate
            else:
                quiet |= flights
        return after, refused, checked, quiet

    def _holds(
        self,
        pieces: Pieces,
        after: Pieces,
        refused: int,
        checked: int,
        quiet: int,
        depth: int,
    ) -> bool:
        if depth == 1:
            return not (refused or checked or quiet)
        if refused and self._attack(pieces, refused, depth) is None:
            return False
        for region in (checked, quiet):
            if region and self._attack(after, region, depth - 1) is None:
                return False
        return True
