"""Kriegspiel records: the standard PGN of the real game and the extended PGN.

The extended PGN is the same game with every attempt and every announcement written as
PGN comments (built from the events' truths): the comment before the first move holds
what happened before it, and the comment after each move holds that move's announcements
and everything up to the next move. ``chess.pgn.read_game`` reads it back into the same
mainline moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import chess
import chess.pgn

from server.games.base import Json, Outcome

_TERMINATIONS = {
    "timeout": "time forfeit",
    "time": "time forfeit",
    "time_forfeit": "time forfeit",
    "flag": "time forfeit",
    "abandoned": "abandoned",
}


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What a PGN is made of: the start, the real moves, the rule set and the result."""

    start_fen: str
    moves: Sequence[chess.Move]
    rules: str
    outcome: Outcome | None
    white: str = "?"
    black: str = "?"
    #: the PGN ``Date`` (``YYYY.MM.DD``, see :func:`pgn_date`), unknown by default
    date: str = "????.??.??"


def pgn_date(started: float | None) -> str:
    """The PGN ``Date`` of a game that started at ``started`` (seconds since the epoch,
    UTC, as the games row stores it), or ``????.??.??`` when it is not known."""
    if started is None:
        return "????.??.??"
    return datetime.fromtimestamp(started, UTC).strftime("%Y.%m.%d")


def result_string(outcome: Outcome | None) -> str:
    """The PGN result: ``1-0``, ``0-1``, ``1/2-1/2``, or ``*`` while the game goes on."""
    if outcome is None:
        return "*"
    if outcome.is_draw:
        return "1/2-1/2"
    return "1-0" if outcome.ranks[0] == 1 else "0-1"


def _game(record: GameRecord) -> chess.pgn.Game:
    board = chess.Board(record.start_fen)
    for move in record.moves:
        board.push(move)
    game = chess.pgn.Game.from_board(board)
    outcome = record.outcome
    game.headers["Event"] = f"Kriegspiel ({record.rules})"
    game.headers["Site"] = "umpire"
    game.headers["Date"] = record.date
    game.headers["White"] = record.white
    game.headers["Black"] = record.black
    game.headers["Result"] = result_string(outcome)
    game.headers["Rules"] = record.rules
    if outcome is not None:
        game.headers["Termination"] = _TERMINATIONS.get(outcome.reason, "normal")
        game.headers["EndReason"] = outcome.reason
    return game


def _render(game: chess.pgn.Game) -> str:
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=True)
    return game.accept(exporter)


def standard_pgn(record: GameRecord) -> str:
    """The PGN of the real moves."""
    return _render(_game(record))


def describe(truth: dict[str, Json]) -> str:
    """One event's truth as a short line for a PGN comment (never contains braces)."""
    kind = truth["type"]
    color = truth.get("color", "")
    if kind == "illegal":
        return f"{color} tried {truth['move']}: {truth['answer']}"
    if kind == "move":
        parts = [f"{color} played {truth['move']}"]
        if truth["capture"] is not None:
            parts.append(f"capture at {truth['capture']} ({truth['captured_unit']})")
        if truth["check"]:
            parts.append("check " + " and ".join(truth["check"]))
        if truth.get("promotion"):
            parts.append("promotion")
        return ", ".join(parts)
    if kind == "pawn_tries":
        moves = " ".join(truth["moves"]) or "none"
        return f"{color} pawn tries: {len(truth['moves'])} ({moves})"
    if kind == "any":
        return f"{color} asks any: {'yes' if truth['answer'] else 'no'}"
    if kind == "draw_offered":
        return f"{color} offers a draw"
    if kind == "draw_declined":
        return f"{color} declines the draw"
    if kind == "game_over":
        by = f" by {truth['by']}" if truth.get("by") else ""
        return f"game over: {truth['reason']}{by}, {truth['result']}"
    if kind == "game_started":
        return f"{truth['rules']} rules, {truth['to_move']} to move"
    return str(kind)


def extended_pgn(record: GameRecord, truths: Iterable[dict[str, Json]]) -> str:
    """The PGN with every attempt and announcement (from the events' ``truths``) as comments."""
    game = _game(record)
    node: chess.pgn.GameNode = game
    lines: list[str] = []
    for truth in truths:
        if truth["type"] == "move":
            node.comment = "; ".join(lines)
            node = node.next() or node
            lines = []
        lines.append(describe(truth).replace("{", "(").replace("}", ")"))
    node.comment = "; ".join(lines)
    return _render(game)
