"""A finished Kriegspiel game replayed with both sides' pieces.

The final view's ``revealed`` holds the real moves (UCI) and the start position. Each step
is one announcement of this viewer's stream; the board shows *both* sides' pieces after the
real moves made so far (each ``move`` announcement is the next real move, its SAN added to
the caption).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chess

from client_cli.games.base import Replay, Step
from client_cli.games.kriegspiel.model import KriegBoard
from client_cli.games.kriegspiel.text import board_lines, model_of

if TYPE_CHECKING:
    from client_cli.state import RoomState

Json = dict[str, Any]


def kriegspiel_replay(room: RoomState, events: list[Json]) -> Replay:
    """Each announcement as a step, over the real position after the moves so far."""
    mine = model_of(room)
    words = mine.words
    replay = Replay(room=room.room, game=room.game)
    revealed = mine.revealed or {}
    start = revealed.get("start_fen") or chess.STARTING_FEN
    moves = [chess.Move.from_uci(m) for m in revealed.get("moves", [])]
    if not revealed:
        replay.notes.append(words("not_revealed"))
    board = chess.Board(start)
    played = 0
    model = KriegBoard(color=mine.color, words=words)
    for event in events:
        text = model.apply_event(event)
        if event.get("type") == "move" and played < len(moves):
            san = board.san(moves[played])
            board.push(moves[played])
            played += 1
            text = f"{text} [{san}]"
        panel = board_lines(board, white_bottom=model.color != "black")
        replay.steps.append(Step(caption=text, panel=panel))
    if revealed and played != len(moves):
        replay.notes.append(words("unmatched", count=len(moves) - played))
    if revealed:
        replay.notes.append(words("final", fen=revealed.get("fen", board.fen())))
    return replay
