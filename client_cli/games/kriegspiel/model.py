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

from client_cli.games.base import GameModel
from client_cli.games.kriegspiel.words import WORDS
from client_cli.words import Words

Json = dict[str, Any]

MARKER_PIECES = "pnbrqk"


def _english_words() -> Words:
    return Words(WORDS)


@dataclass
class KriegBoard(GameModel):
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
    words: Words = field(default_factory=_english_words)

    def sit(self, seat: int | None) -> None:
        """This viewer's seat."""
        self.seat = seat

    def name_seats(self, names: list[str]) -> None:
        """Names are not used: the umpire speaks of White and Black."""

    def replay_ready(self) -> bool:
        """Whether the final view revealed the real moves."""
        return self.revealed is not None

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
            scratch = KriegBoard(color=self.color, words=self.words)
            for event in view["announcements"]:
                scratch.apply_event(event)
            self.log = scratch.log
            self.pawn_tries = scratch.pawn_tries

    def mark(self, square: str, piece: str | None) -> None:
        """Put a marker for a suspected enemy ``piece`` (p n b r q k) on ``square``, or clear it."""
        try:
            index = chess.parse_square(square.lower())
        except ValueError:
            raise ValueError(self.words("bad_square", square=square)) from None
        if piece is None or piece == "":
            self.markers.pop(index, None)
            return
        if piece.lower() not in MARKER_PIECES:
            raise ValueError(self.words("bad_marker", pieces=MARKER_PIECES, piece=piece))
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
        return self.words("you") if color == self.color else self.words(color)

    def _say(self, key: str, color: str | None, **slots: object) -> str:
        """The sentence ``key`` about ``color``'s doing (its ``_you`` form for this viewer's
        own, where the language conjugates differently)."""
        if color is not None and color == self.color and self.words.has(key + "_you"):
            key += "_you"
        return self.words(key, who=self._who(color), **slots)

    def color_name(self, color: str | None) -> str:
        """``white`` or ``black`` in the player's language (``nobody`` for None)."""
        return self.words("color_" + color) if color in ("white", "black") else self.words("nobody")

    def _on_game_started(self, event: Json) -> str:
        self.rules = str(event.get("rules", self.rules))
        self.to_move = event.get("to_move", "white")
        if "color" in event:
            self.color = event["color"]
        if "board" in event:
            self.board = chess.BaseBoard(str(event["board"]))
        text = self.words("starts", rules=self.rules)
        if self.color:
            text += self.words("you_play", color=self.color_name(self.color))
        return text

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
        words = self.words
        if "move" in event:
            self._apply_own_move(str(event["move"]))
            parts = [self._say("moved_move", color, move=event["move"])]
        else:
            parts = [self._say("moved", color)]
        capture = event.get("capture")
        if capture:
            if event.get("en_passant_at"):  # English rules name the landing square
                parts.append(words("en_passant", square=event["en_passant_at"], pawn=capture))
            else:
                captured = event.get("captured")
                what = ""
                if captured:
                    what = words("captured", what=words.get(f"captured_{captured}", captured))
                parts.append(words("capture", square=capture, what=what))
            if color != self.color and self.color is not None:
                self.board.remove_piece_at(chess.parse_square(capture))
        checks = [str(c) for c in event.get("check") or []]
        if checks:
            directions = ", ".join(words.get(f"dir_{c}", c.replace("_", " ")) for c in checks)
            parts.append(words("check", directions=directions))
        if event.get("promotion"):
            parts.append(words("promoted"))
        self.to_move = "black" if color == "white" else "white"
        if color == "black":
            self.fullmove += 1
        self.refused = []
        self.must_try_pawn_capture = False
        if self.draw_offer is not None and self.draw_offer != color:
            self.draw_offer = None
        return " ".join(parts)

    def _on_illegal(self, event: Json) -> str:
        color = event.get("color")
        raw = str(event.get("answer", "illegal"))
        answer = self.words.get(f"answer_{raw}", raw)
        if "move" in event:
            self.refused.append(str(event["move"]))
            return self._say("tried_move", color, move=event["move"], answer=answer)
        return self._say("tried", color, answer=answer)

    def _on_pawn_tries(self, event: Json) -> str:
        who, words = self._who(event.get("color")), self.words
        if "squares" in event:
            squares = ", ".join(event["squares"]) or words("none")
            text = words("tries_from", who=who, squares=squares)
        elif "count" in event:
            text = words("tries_count", who=who, count=event["count"])
        elif "pawns" in event:
            text = words("pawns_count", who=who, count=event["pawns"])
        elif "any" in event:
            text = words("tries_any", who=who, answer=words("yes" if event["any"] else "no"))
        else:
            text = words("tries", who=who)
        self.pawn_tries = text
        return text + "."

    def _on_any(self, event: Json) -> str:
        color = event.get("color")
        answer = bool(event.get("answer"))
        if answer and color == self.color:
            self.must_try_pawn_capture = True
        words = self.words
        self.pawn_tries = self._say("asked", color, answer=words("yes" if answer else "no"))
        return self._say("asked_any", color, answer=words("yes_try" if answer else "no"))

    def _on_draw_offered(self, event: Json) -> str:
        self.draw_offer = event.get("color")
        return self._say("offered", event.get("color"))

    def _on_draw_declined(self, event: Json) -> str:
        self.draw_offer = None
        return self._say("declined", event.get("color"))

    def _on_game_over(self, event: Json) -> str:
        self.to_move = None
        self.result = event.get("result")
        self.outcome = dict(event)
        return self.words("game_over", result=event.get("result"), reason=self._reason(event))

    def _on_aborted(self, event: Json) -> str:
        self.to_move = None
        return self.words("aborted", reason=self._reason(event))

    def _reason(self, event: Json) -> str:
        """A reason code in the player's words (a code without words: as its words)."""
        code = str(event.get("reason", ""))
        return self.words.get(f"reason_{code}", code.replace("_", " "))
