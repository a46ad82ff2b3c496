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

from bots.kriegspiel_meta.metaposition import possible_attacks

__all__ = ["MateSearch"]


class _OutOfTime(Exception):
    pass


Key = tuple[int, int, int, int, int, int]


class MateSearch:
    """Finds an attempt that forces mate on a lone king within ``depth`` of our moves.

    ``color`` is our side; the search gives up (returns ``None``) at ``deadline``
    (a :func:`time.perf_counter` value) or after ``max_nodes`` answers examined.
    """

    def __init__(self, color: chess.Color, deadline: float, max_nodes: int = 200_000) -> None:
        self.color = color
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self._mates: dict[tuple[Key, int], tuple[int, chess.Move]] = {}
        self._fails: dict[tuple[Key, int], int] = {}

    def find(self, board: chess.Board, region: int, depth: int) -> tuple[chess.Move, int] | None:
        """The first move of a forced mate within ``depth`` moves (and that depth), trying
        the shortest first; ``None`` if there is none or time ran out."""
        board = board.copy(stack=False)
        board.turn = self.color
        board.castling_rights = 0
        board.ep_square = None
        if board.pawns & board.occupied_co[self.color] or not region:
            return None
        try:
            for limit in range(1, depth + 1):
                move = self._attack(board, region, limit)
                if move is not None:
                    return move, limit
        except _OutOfTime:
            return None
        return None

    # -- OR: our attempt -------------------------------------------------------------

    def _key(self, board: chess.Board) -> Key:
        return (
            board.occupied_co[self.color],
            board.kings,
            board.rooks,
            board.queens,
            board.bishops,
            board.knights,
        )

    def _attack(self, board: chess.Board, region: int, depth: int) -> chess.Move | None:
        key = (self._key(board), region)
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
        candidates = []
        for move in board.generate_pseudo_legal_moves():
            answer = self._answer(board, region, move)
            if answer is None:
                continue
            after, refused, checked, quiet = answer
            if depth == 1 and (refused or checked or quiet):
                continue  # one move left: every answer must be mate now
            candidates.append((checked.bit_count() + quiet.bit_count(), move, answer))
        candidates.sort(key=lambda item: item[0])
        for _, move, (after, refused, checked, quiet) in candidates:
            if self._holds(board, after, refused, checked, quiet, depth):
                self._mates[key] = (depth, move)
                return move
        self._fails[key] = depth
        return None

    # -- AND: the umpire's answers and the king's reply -------------------------------

    def _answer(
        self, board: chess.Board, region: int, move: chess.Move
    ) -> tuple[chess.Board, int, int, int] | None:
        """What ``move`` leads to: the board after it, the region where it is refused,
        and the regions after the king's reply when checked and when not. ``None`` when
        some answer surely loses the mate (a stalemate, a piece the king may take) or
        the move is surely refused."""
        refused = 0
        legal = region
        if board.piece_type_at(move.from_square) == chess.KING:
            refused = region & chess.BB_KING_ATTACKS[move.to_square]
            legal = region & ~refused
            if not legal:
                return None  # surely refused: it teaches nothing new
        after = board.copy(stack=False)
        after.push(move)
        after.turn = self.color
        attacked = possible_attacks(after, self.color)
        ours = after.occupied_co[self.color]
        exposed = ours & ~after.kings & ~attacked
        checked = quiet = 0
        for square in chess.SquareSet(legal):
            flights = chess.BB_KING_ATTACKS[square] & ~attacked
            if flights & exposed:
                return None  # it may take a piece of ours
            if attacked & chess.BB_SQUARES[square]:
                checked |= flights  # no flights: mated there
            elif not flights:
                return None  # stalemate
            else:
                quiet |= flights
        return after, refused, checked, quiet

    def _holds(
        self,
        board: chess.Board,
        after: chess.Board,
        refused: int,
        checked: int,
        quiet: int,
        depth: int,
    ) -> bool:
        if depth == 1:
            return not (refused or checked or quiet)
        if refused and self._attack(board, refused, depth) is None:
            return False
        for region in (checked, quiet):
            if region and self._attack(after, region, depth - 1) is None:
                return False
        return True
