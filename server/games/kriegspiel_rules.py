"""What the Kriegspiel umpire computes on the real board, all of it through python-chess.

These are pure functions of a :class:`chess.Board`; the engine in
:mod:`server.games.kriegspiel` turns their answers into announcements. Nothing here writes
move generation by hand: it filters what python-chess generates.

- :func:`own_board_attempts`: the attempts that are *possible* on a player's own board (its
  own pieces, every other square unknown), the set against which "impossible" is judged.
- :func:`is_legal_attempt`: whether an attempt is a legal move on the real board.
- :func:`legal_pawn_captures`: the legal pawn captures of the side to move (pawn tries).
- :func:`check_directions`: the directions of the checks on the side to move.
- :func:`automatic_ending`: the reason the game ends by itself after a move, if it does.
"""

from __future__ import annotations

import chess

#: The check directions the umpire announces.
CHECK_DIRECTIONS = ("rank", "file", "long_diagonal", "short_diagonal", "knight")


def color_name(color: chess.Color) -> str:
    """``"white"`` or ``"black"``."""
    return "white" if color == chess.WHITE else "black"


def own_board(board: chess.Board, color: chess.Color) -> chess.Board:
    """A copy of ``board`` with only ``color``'s pieces, ``color`` to move, no en passant.

    Castling rights are kept for ``color``: a player always knows whether its own king and
    rooks have moved. The result is not a valid chess position (a king is missing); it is
    only used to generate pseudo-legal moves.
    """
    own = board.occupied_co[color]
    mine = board.copy(stack=False)
    mine.pawns &= own
    mine.knights &= own
    mine.bishops &= own
    mine.rooks &= own
    mine.queens &= own
    mine.kings &= own
    mine.promoted &= own
    mine.occupied_co[not color] = chess.BB_EMPTY
    mine.occupied = own
    mine.turn = color
    mine.ep_square = None
    mine.castling_rights &= chess.BB_RANK_1 if color == chess.WHITE else chess.BB_RANK_8
    return mine


def own_placement(board: chess.Board, color: chess.Color) -> str:
    """The FEN piece placement of ``color``'s pieces alone (what that player sees).

    Equal to ``own_board(board, color).board_fen()``, without copying the board.
    """
    pieces = {
        square: piece.symbol()
        for square, piece in board.piece_map(mask=board.occupied_co[color]).items()
    }
    rows = []
    for rank in range(7, -1, -1):
        row = ""
        empty = 0
        for square in range(rank * 8, rank * 8 + 8):
            symbol = pieces.get(square)
            if symbol is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += symbol
        rows.append(row + str(empty) if empty else row)
    return "/".join(rows)


def own_board_attempts(board: chess.Board, color: chess.Color) -> frozenset[chess.Move]:
    """Every attempt ``color`` could believe legal, knowing only its own pieces.

    These are the pseudo-legal moves on the player's own board (python-chess's
    ``pseudo_legal_moves`` of :func:`own_board`: pushes and piece moves blocked only by the
    player's own pieces, castling whenever the rights and the player's own path allow it),
    plus every diagonal pawn step onto a square the player does not occupy, since an enemy
    unit (or an en passant chance) may be there. A promotion is listed once per piece.
    """
    mine = own_board(board, color)
    moves = set(mine.generate_pseudo_legal_moves())
    own = board.occupied_co[color]
    last_rank = chess.BB_RANK_8 if color == chess.WHITE else chess.BB_RANK_1
    for square in chess.SquareSet(board.pawns & own):
        for target in chess.SquareSet(chess.BB_PAWN_ATTACKS[color][square] & ~own):
            if chess.BB_SQUARES[target] & last_rank:
                for piece in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT):
                    moves.add(chess.Move(square, target, piece))
            else:
                moves.add(chess.Move(square, target))
    return frozenset(moves)


def is_castling_by_king_step(board: chess.Board, move: chess.Move) -> bool:
    """True for castling written as the king's two-square step (``e1g1``), the only spelling.

    python-chess also reads "king takes own rook" (``e1h1``) as castling; a Kriegspiel
    attempt is the king's step, so that spelling is an ordinary (impossible) king move.
    """
    return chess.square_distance(move.from_square, move.to_square) == 2


def is_legal_attempt(board: chess.Board, move: chess.Move) -> bool:
    """Whether ``move`` is legal on the real board and spelled as a player's attempt."""
    if not board.is_legal(move):
        return False
    return not board.is_castling(move) or is_castling_by_king_step(board, move)


def is_pawn_capture_attempt(board: chess.Board, move: chess.Move) -> bool:
    """Whether ``move`` is a diagonal step by one of the mover's own pawns."""
    piece = board.piece_at(move.from_square)
    return (
        piece is not None
        and piece.piece_type == chess.PAWN
        and piece.color == board.turn
        and chess.square_file(move.from_square) != chess.square_file(move.to_square)
    )


def legal_pawn_captures(board: chess.Board) -> list[chess.Move]:
    """The legal pawn captures of the side to move, a capture-promotion listed once.

    Legal means legal: a pinned pawn's capture and, in check, a capture that does not
    resolve the check are not listed. En passant captures are. The list is in python-chess
    generation order with the queen promotion standing for all four promotion pieces.
    """
    us = board.turn
    targets = board.occupied_co[not us]
    if board.ep_square is not None:
        targets |= chess.BB_SQUARES[board.ep_square]
    captures: list[chess.Move] = []
    for move in board.generate_legal_moves(board.pawns & board.occupied_co[us], targets):
        if chess.square_file(move.from_square) == chess.square_file(move.to_square):
            continue
        if move.promotion not in (None, chess.QUEEN):
            continue
        captures.append(move)
    return captures


def diagonal_lengths(square: chess.Square) -> tuple[int, int]:
    """The lengths (in squares) of the a1-h8-wise and the a8-h1-wise diagonals through it.

    The two lengths are never equal: they are ``8 - |f - r|`` and ``8 - |f + r - 7|`` for
    file ``f`` and rank ``r``, and ``f - r`` and ``f + r - 7`` always differ in parity. So
    "the long diagonal" and "the short diagonal" of a king's square are always defined.
    """
    file, rank = chess.square_file(square), chess.square_rank(square)
    return 8 - abs(file - rank), 8 - abs(file + rank - 7)


def check_direction(king: chess.Square, checker: chess.Square, is_knight: bool) -> str:
    """The direction of a check on ``king`` from ``checker``, as the umpire names it.

    ``"long_diagonal"``/``"short_diagonal"`` refer to the longer/shorter of the two
    diagonals through the *checked king's* square (see :func:`diagonal_lengths`).
    """
    if is_knight:
        return "knight"
    if chess.square_rank(king) == chess.square_rank(checker):
        return "rank"
    if chess.square_file(king) == chess.square_file(checker):
        return "file"
    rising, falling = diagonal_lengths(king)
    on_rising = chess.square_file(king) - chess.square_rank(king) == chess.square_file(
        checker
    ) - chess.square_rank(checker)
    mine, other = (rising, falling) if on_rising else (falling, rising)
    return "long_diagonal" if mine > other else "short_diagonal"


def check_directions(board: chess.Board) -> list[str]:
    """The directions of every check on the side to move (two for a double check).

    Sorted by name, so that the order says nothing about where the checking pieces stand.
    """
    checkers = board.checkers_mask()
    if not checkers:
        return []
    king = board.king(board.turn)
    assert king is not None, "a checked side has a king"
    return sorted(
        check_direction(king, square, bool(board.knights & chess.BB_SQUARES[square]))
        for square in chess.SquareSet(checkers)
    )


def automatic_ending(
    board: chess.Board,
    *,
    fifty_moves: bool,
    threefold: bool,
    seventyfive_moves: bool = True,
    fivefold: bool = True,
) -> tuple[str, chess.Color | None] | None:
    """Whether the game ends by itself in this position: ``(reason, winner)`` or ``None``.

    Checked in this order: checkmate (the winner is the side that moved), stalemate,
    insufficient material, the 50-move rule (if ``fifty_moves``) else the 75-move rule,
    threefold repetition (if ``threefold``) else fivefold repetition (if ``fivefold``). The
    75-move and fivefold rules apply by default, so that every game ends; a room may switch
    them off (then a game may go on until a player resigns, agrees a draw or forfeits).
    """
    if not any(board.generate_legal_moves()):
        if board.is_check():
            return "checkmate", not board.turn
        return "stalemate", None
    if board.is_insufficient_material():
        return "insufficient_material", None
    clock = board.halfmove_clock
    if fifty_moves and clock >= 100:
        return "fifty_moves", None
    if seventyfive_moves and clock >= 150:
        return "seventyfive_moves", None
    # A position seen n times needs 4 * (n - 1) reversible plies, so skip the costly scan.
    if threefold:
        if clock >= 8 and board.is_repetition(3):
            return "threefold_repetition", None
    elif fivefold and clock >= 16 and board.is_repetition(5):
        return "fivefold_repetition", None
    return None
