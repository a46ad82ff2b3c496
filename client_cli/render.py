"""Plain-text pictures of a room: the Perudo table, the Kriegspiel board, the lobby.

The plain mode prints them as they are; the TUI shows the same text in its panels, so a
screen reader and a terminal user read the same words.
"""

from __future__ import annotations

from typing import Any

import chess

from client_cli.state import RoomState

Json = dict[str, Any]


def clock_text(seconds: float) -> str:
    """``287.5`` -> ``"4:47"``."""
    seconds = max(0.0, seconds)
    return f"{int(seconds // 60)}:{int(seconds % 60):02d}"


def lobby_lines(rooms: list[Json]) -> list[str]:
    """One line per public room: id, game, state, seats taken, players."""
    if not rooms:
        return ["No public rooms. Create one with: create perudo seats=3"]
    lines = []
    for room in rooms:
        seats = room.get("seats", [])
        taken = sum(1 for s in seats if s.get("player"))
        names = ", ".join(str(s.get("name")) for s in seats if s.get("player"))
        options = room.get("options", {})
        flavour = options.get("preset") or options.get("rules") or ""
        lines.append(
            f"{room['room']}  {room.get('game')} {flavour}  {room.get('state')}  "
            f"{taken}/{len(seats)} seats  {names}"
        )
    return lines


def seats_lines(room: RoomState) -> list[str]:
    """The room's seats before the start (who sits where, bots, the invite code)."""
    lines = [f"Room {room.room} · {room.game} · {room.state}"]
    if room.invite:
        lines.append(f"Invite code: {room.invite}")
    for seat in room.frame.get("seats", []):
        if seat.get("player"):
            tags = [t for t in ("bot", "house", "autopilot") if seat.get(t)]
            if not seat.get("connected") and not seat.get("house"):
                tags.append("away")
            you = " (you)" if seat["seat"] == room.seat else ""
            extra = f" [{', '.join(tags)}]" if tags else ""
            lines.append(f"  seat {seat['seat']}: {seat.get('name')}{you}{extra}")
        else:
            lines.append(f"  seat {seat['seat']}: (free)")
    return lines


def perudo_lines(room: RoomState) -> list[str]:
    """The Perudo table as this player knows it."""
    table = room.perudo
    options = table.options
    lines = [
        f"Room {room.room} · Perudo ({options.get('preset', 'piatnik')}) · round {table.round}"
        + (" · calza allowed" if table.calza_allowed else "")
    ]
    if table.palifico is not None:
        lines.append(
            f"*** PALIFICO round for {table.name(table.palifico)}: aces are not wild; "
            "the face is locked ***"
        )
    lines.append("Players (seat order):")
    for seat in range(table.seats or len(room.names)):
        marker = ">" if seat == table.to_move else " "
        you = " (you)" if seat == table.seat else ""
        count = table.dice_count(seat)
        noun = "die" if count == 1 else "dice"
        dice = "out" if seat in table.out else f"{'?' if count is None else count} {noun}"
        lines.append(f" {marker} {seat} {table.name(seat)}{you}: {dice}")
    if table.seat is not None:
        shown = " ".join(str(d) for d in table.dice) or "-"
        lines.append(f"Your dice: {shown}")
    if table.bids:
        lines.append("Bids: " + ", ".join(f"{table.name(s)} {b}" for s, b in table.bids))
    else:
        lines.append("Bids: none yet this round")
    if table.reveal is not None and table.reveal.count is not None:
        reveal = table.reveal
        verdict = "true" if reveal.bid_true else "false"
        lines.append(
            f"Last reveal: {reveal.kind} on {reveal.bid}: count {reveal.count}, bid {verdict}; "
            + "; ".join(f"{table.name(s)} {d}" for s, d in reveal.revealed)
        )
    if room.over:
        lines.append(outcome_line(room))
    elif room.turn is not None:
        lines.append(
            "YOUR TURN: bid (e.g. "
            + _example_bid(room)
            + ")"
            + (", dudo" if "dudo" in room.legal else "")
            + (", calza" if "calza" in room.legal else "")
            + ", or hint"
        )
    elif table.to_move is not None:
        lines.append(f"Waiting for {table.name(table.to_move)}.")
    return lines


def _example_bid(room: RoomState) -> str:
    bids = [a for a in room.legal if "x" in a]
    return bids[0] if bids else "dudo"


def outcome_line(room: RoomState) -> str:
    """Who won, in words."""
    outcome = room.frame.get("outcome") or {}
    if room.state == "aborted":
        return f"ABORTED: {room.frame.get('reason')}"
    winners = [room.names[w] if w < len(room.names) else str(w) for w in outcome.get("winners", [])]
    reason = str(outcome.get("reason", "")).replace("_", " ")
    if not winners:
        return f"RESULT: draw ({reason})" + _placing(room, outcome)
    return f"RESULT: {', '.join(winners)} won ({reason})" + _placing(room, outcome)


def _placing(room: RoomState, outcome: dict[str, Any]) -> str:
    """`` · you placed 2nd of 3`` for a seated player (empty for a spectator)."""
    ranks = outcome.get("ranks") or []
    if room.seat is None or not 0 <= room.seat < len(ranks):
        return ""
    place = int(ranks[room.seat])
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place if place < 20 else place % 10, "th")
    return f" · you placed {place}{suffix} of {len(ranks)}"


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


def kriegspiel_lines(room: RoomState, *, log_lines: int = 8) -> list[str]:
    """The Kriegspiel board of this player with clocks, pawn tries and the umpire's log."""
    board = room.kriegspiel
    white_bottom = board.color != "black"
    lines = [f"Room {room.room} · Kriegspiel ({board.rules}) · you play {board.color or 'nobody'}"]
    lines += board_lines(board.board, white_bottom=white_bottom, markers=board.markers)
    lines.append(clocks_line(room))
    if board.pawn_tries:
        lines.append(f"Pawn tries: {board.pawn_tries}")
    if board.must_try_pawn_capture:
        lines.append("You asked 'any?' and heard yes: your next attempt must be a pawn capture.")
    if board.draw_offer:
        lines.append(f"Draw offered by {board.draw_offer}.")
    if room.over:
        lines.append(outcome_line(room))
    elif room.turn is not None:
        refused = f" (refused: {', '.join(board.refused)})" if board.refused else ""
        lines.append(f"YOUR TURN: try a move in UCI, e.g. {_example_move(room)}{refused}")
    elif board.to_move:
        lines.append(f"{board.to_move.capitalize()} to move.")
    lines.append("Umpire:")
    lines += ["  " + line for line in board.log[-log_lines:]]
    return lines


def _example_move(room: RoomState) -> str:
    moves = [a for a in room.legal if len(a) >= 4 and a[1].isdigit()]
    return moves[0] if moves else "e2e4"


def clocks_line(room: RoomState) -> str:
    """Both clocks (``White 4:47  Black 5:00 *``, the star on the running one)."""
    remaining = room.clock_remaining()
    if remaining is None:
        return "Clocks: untimed"
    mover = room.clock.get("to_move") if room.clock else None
    parts = []
    for seat, label in enumerate(("White", "Black")):
        running = " *" if seat == mover and not room.over else ""
        parts.append(f"{label} {clock_text(remaining[seat])}{running}")
    return "Clocks: " + "   ".join(parts)


def room_lines(room: RoomState) -> list[str]:
    """The right picture for the room's game and state."""
    if room.state == "waiting" or not room.game:
        return seats_lines(room)
    if room.game == "perudo":
        return perudo_lines(room)
    return kriegspiel_lines(room)
