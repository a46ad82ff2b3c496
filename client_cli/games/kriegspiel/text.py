"""The Kriegspiel board as text: what ``--plain`` prints, the board widget and the replay."""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess

from client_cli.games.kriegspiel.model import KriegBoard
from client_cli.render import clock_text, outcome_line

if TYPE_CHECKING:
    from client_cli.state import RoomState


def model_of(room: RoomState) -> KriegBoard:
    """The room's Kriegspiel board (a room of this game always has one)."""
    model = room.model
    assert isinstance(model, KriegBoard), type(model).__name__
    return model


def board_lines(
    board: chess.BaseBoard,
    *,
    white_bottom: bool = True,
    markers: dict[int, str] | None = None,
    cursor: int | None = None,
    selected: int | None = None,
) -> list[str]:
    """An 8x8 text board: pieces as letters (white upper case), markers as ``(q)``."""
    markers = markers or {}
    files = "abcdefgh" if white_bottom else "hgfedcba"
    ranks = range(7, -1, -1) if white_bottom else range(8)
    header = "    " + "  ".join(files)
    lines = [header]
    for rank in ranks:
        cells = []
        for file_char in files:
            square = chess.square(ord(file_char) - ord("a"), rank)
            piece = board.piece_at(square)
            if piece is not None:
                cell = f" {piece.symbol()} "
            elif square in markers:
                cell = f"({markers[square]})"
            else:
                cell = " . " if (rank + ord(file_char)) % 2 else " : "
            if square == selected:
                cell = "[" + cell[1] + "]"
            elif square == cursor:
                cell = "<" + cell[1] + ">"
            cells.append(cell)
        lines.append(f" {rank + 1} " + "".join(cells) + f" {rank + 1}")
    lines.append(header)
    return lines


def piece_lines(board: KriegBoard) -> list[str]:
    """Your pieces as a list by kind (``Your pieces: king e1; rooks a1, h1; ...``) and
    your markers: what plain ``show`` prints, for screen readers, instead of a grid."""
    words = board.words
    own = chess.WHITE if board.color != "black" else chess.BLACK
    kinds = []
    for symbol in "kqrbnp":
        squares = sorted(board.board.pieces(chess.Piece.from_symbol(symbol).piece_type, own))
        if squares:
            name = words(("piece_" if len(squares) == 1 else "pieces_") + symbol)
            kinds.append(f"{name} {', '.join(chess.square_name(s) for s in squares)}")
    marks = ", ".join(f"{chess.square_name(s)}={p}" for s, p in sorted(board.markers.items()))
    return [
        words("your_pieces", pieces="; ".join(kinds) or "-"),
        words("markers", marks=marks or words("no_marks")),
    ]


def clocks_line(room: RoomState) -> str:
    """Both clocks (``White 4:47  Black 5:00 *``, the star on the running one)."""
    words = model_of(room).words
    remaining = room.clock_remaining()
    if remaining is None:
        return words("untimed")
    mover = room.clock.get("to_move") if room.clock else None
    parts = []
    for seat, color in enumerate(("white", "black")):
        running = " *" if seat == mover and not room.over else ""
        parts.append(f"{words(color)} {clock_text(remaining[seat])}{running}")
    return words("clocks", clocks="   ".join(parts))


def status_lines(room: RoomState, *, short: bool = False) -> list[str]:
    """Clocks, pawn tries, the duty to capture, the draw offer, and the turn or result.
    ``short`` for the screen's status panel beside the board."""
    board = model_of(room)
    words = board.words
    lines = [clocks_line(room)]
    if board.pawn_tries:
        lines.append(words("pawn_tries", text=board.pawn_tries))
    if board.must_try_pawn_capture:
        lines.append(words("must_capture_short" if short else "must_capture"))
    if board.draw_offer:
        lines.append(words("draw_offer", color=board.color_name(board.draw_offer)))
    if room.over:
        lines.append(outcome_line(room) + (words("replay_key") if short else ""))
        lines += room.own_rating_lines if short else room.rating_lines
    elif room.offline:
        lines.append(room.OFFLINE)
    elif room.paused:
        lines.append(room.paused_text)
    elif room.turn is not None:
        moves = ", ".join(board.refused)
        if short:
            refused = words("refused_short", moves=moves) if board.refused else ""
            lines.append(words("your_turn_short", refused=refused))
        else:
            refused = words("refused", moves=moves) if board.refused else ""
            lines.append(words("your_turn", example=_example_move(room), refused=refused))
    elif board.to_move:
        lines.append(
            words("to_move", who=words(board.to_move), color=board.color_name(board.to_move))
        )
    return lines


def kriegspiel_lines(room: RoomState, *, log_lines: int = 8) -> list[str]:
    """The Kriegspiel board of this player with clocks, pawn tries and the umpire's log."""
    board = model_of(room)
    words = board.words
    color = board.color_name(board.color)
    lines = [words("header", room=room.room, rules=board.rules, color=color)]
    lines += piece_lines(board)  # a list, not a grid: plain mode is read aloud too
    lines += status_lines(room)
    lines.append(words("umpire"))
    lines += ["  " + line for line in board.log[-log_lines:]]
    return lines


def _example_move(room: RoomState) -> str:
    moves = [a for a in room.legal if len(a) >= 4 and a[1].isdigit()]
    return moves[0] if moves else "e2e4"
