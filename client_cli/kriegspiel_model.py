"""What a Kriegspiel player knows, rebuilt from snapshots and events (no I/O).

:class:`KriegBoard` holds the player's own pieces (a ``chess.BaseBoard`` with only them),
the umpire's announcements as sentences, the last pawn tries, and the player's private
markers for where enemy pieces might be (kept only in this client, never sent).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import chess

Json = dict[str, Any]

MARKER_PIECES = "pnbrqk"


@dataclass
class KriegBoard:
    """One viewer's Kriegspiel board: own pieces, announcements, markers."""

    seat: int | None = None
    color: str | None = None
    rules: str = "wild16"
    to_move: str | None = "white"
    fullmove: int = 1
    board: chess.BaseBoard = field(default_factory=chess.BaseBoard.empty)
    markers: dict[int, str] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    pawn_tries: str = ""
    draw_offer: str | None = None
    outcome: Json | None = None
    result: str | None = None
    revealed: Json | None = None
    refused: list[str] = field(default_factory=list)
    must_try_pawn_capture: bool = False

    def apply_view(self, view: Json) -> None:
        """Take everything from a snapshot's (or turn's) ``view``."""
        self.rules = str(view.get("rules", self.rules))
        self.to_move = view.get("to_move")
        self.fullmove = int(view.get("fullmove") or self.fullmove)
        self.draw_offer = view.get("draw_offer")
        self.outcome = view.get("outcome")
        if "color" in view:
            self.color = view["color"]
        if "board" in view:
            self.board = chess.BaseBoard(str(view["board"]))
        self.refused = [str(m) for m in view.get("refused", [])]
        self.must_try_pawn_capture = bool(view.get("must_try_pawn_capture"))
        if "revealed" in view:
            self.revealed = view["revealed"]
        if not self.log and view.get("announcements"):
            scratch = KriegBoard(color=self.color)
            for event in view["announcements"]:
                scratch.apply_event(event)
            self.log = scratch.log
            self.pawn_tries = scratch.pawn_tries

    def mark(self, square: str, piece: str | None) -> None:
        """Put a marker for a suspected enemy ``piece`` (p n b r q k) on ``square``, or clear it."""
        index = chess.parse_square(square.lower())
        if piece is None or piece == "":
            self.markers.pop(index, None)
            return
        if piece.lower() not in MARKER_PIECES:
            raise ValueError(f"a marker is one of {MARKER_PIECES}, not {piece!r}")
        self.markers[index] = piece.lower()

    def apply_event(self, event: Json) -> str:
        """Apply one event; return the umpire's message as a sentence."""
        handler: Callable[[Json], str] | None = getattr(self, "_on_" + str(event.get("type")), None)
        text = f"({event.get('type')})" if handler is None else handler(event)
        self.log.append(text)
        return text

    def _who(self, color: str | None) -> str:
        if color is None:
            return "?"
        return "You" if color == self.color else color.capitalize()

    def _on_game_started(self, event: Json) -> str:
        self.rules = str(event.get("rules", self.rules))
        self.to_move = event.get("to_move", "white")
        if "color" in event:
            self.color = event["color"]
        if "board" in event:
            self.board = chess.BaseBoard(str(event["board"]))
        mine = f" You play {self.color}." if self.color else ""
        return f"The game starts under {self.rules} rules.{mine}"

    def _apply_own_move(self, uci: str) -> None:
        move = chess.Move.from_uci(uci)
        piece = self.board.remove_piece_at(move.from_square)
        if piece is None:
            return
        if piece.piece_type == chess.KING and abs(move.to_square - move.from_square) == 2:
            rank = chess.square_rank(move.from_square)
            kingside = move.to_square > move.from_square
            rook_from = chess.square(7 if kingside else 0, rank)
            rook_to = chess.square(5 if kingside else 3, rank)
            rook = self.board.remove_piece_at(rook_from)
            if rook is not None:
                self.board.set_piece_at(rook_to, rook)
        if move.promotion:
            piece = chess.Piece(move.promotion, piece.color)
        self.board.set_piece_at(move.to_square, piece)
        self.markers.pop(move.to_square, None)

    def _on_move(self, event: Json) -> str:
        color = event.get("color")
        mover = self._who(color)
        parts = []
        if "move" in event:
            self._apply_own_move(str(event["move"]))
            parts.append(f"{mover} moved {event['move']}.")
        else:
            parts.append(f"{mover} moved.")
        capture = event.get("capture")
        if capture:
            if event.get("en_passant_at"):  # English rules name the landing square
                at = event["en_passant_at"]
                parts.append(f"Capture en passant at {at} (pawn {capture} taken).")
            else:
                what = f" ({event['captured']})" if event.get("captured") else ""
                parts.append(f"Capture on {capture}{what}.")
            if color != self.color and self.color is not None:
                self.board.remove_piece_at(chess.parse_square(capture))
        checks = event.get("check") or []
        if checks:
            parts.append("Check: " + ", ".join(str(c).replace("_", " ") for c in checks) + ".")
        if event.get("promotion"):
            parts.append("A pawn was promoted.")
        self.to_move = "black" if color == "white" else "white"
        if color == "black":
            self.fullmove += 1
        self.refused = []
        self.must_try_pawn_capture = False
        if self.draw_offer is not None and self.draw_offer != color:
            self.draw_offer = None
        return " ".join(parts)

    def _on_illegal(self, event: Json) -> str:
        who = self._who(event.get("color"))
        answer = str(event.get("answer", "illegal"))
        if "move" in event:
            self.refused.append(str(event["move"]))
            return f"{who} tried {event['move']}: {answer}."
        return f"{who} tried a move: {answer}."

    def _on_pawn_tries(self, event: Json) -> str:
        who = self._who(event.get("color"))
        if "squares" in event:
            squares = ", ".join(event["squares"]) or "none"
            text = f"{who}: pawn tries from {squares}"
        elif "count" in event:
            count = event["count"]
            text = f"{who}: {count} pawn {'try' if count == 1 else 'tries'}"
        elif "pawns" in event:
            pawns = event["pawns"]
            text = f"{who}: {pawns} {'pawn' if pawns == 1 else 'pawns'} can capture"
        elif "any" in event:
            text = f"{who}: pawn tries {'yes' if event['any'] else 'no'}"
        else:
            text = f"{who}: pawn tries"
        self.pawn_tries = text
        return text + "."

    def _on_any(self, event: Json) -> str:
        who = self._who(event.get("color"))
        answer = bool(event.get("answer"))
        if answer and event.get("color") == self.color:
            self.must_try_pawn_capture = True
        self.pawn_tries = f"{who} asked: any? {'yes' if answer else 'no'}"
        return f'{who} asked "Are there any?": {"yes, try a pawn capture" if answer else "no"}.'

    def _on_draw_offered(self, event: Json) -> str:
        self.draw_offer = event.get("color")
        return f"{self._who(event.get('color'))} offered a draw."

    def _on_draw_declined(self, event: Json) -> str:
        self.draw_offer = None
        return f"{self._who(event.get('color'))} declined the draw."

    def _on_game_over(self, event: Json) -> str:
        self.to_move = None
        self.result = event.get("result")
        self.outcome = dict(event)
        reason = str(event.get("reason", "")).replace("_", " ")
        return f"Game over: {event.get('result')} ({reason})."

    def _on_aborted(self, event: Json) -> str:
        self.to_move = None
        return f"The game was aborted: {event.get('reason')}."
