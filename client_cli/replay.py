"""Replay a finished game step by step with everything revealed (no I/O).

What "everything" means, from what the server gives after the end:

- **Kriegspiel**: the final view's ``revealed`` holds the real moves (UCI) and the start
  position. Each step is one announcement of your stream; the board shows *both* sides'
  pieces after the real moves made so far (each ``move`` announcement is the next real move).
- **Perudo**: the seed is revealed at the end, and every die is drawn from it
  (``docs/perudo.md``, "Fair dice"), so the replay recomputes every cup of every round,
  including those never shown, and checks them against ``sha256(seed)`` and against every
  reveal the game made. Each step is one event; the panel shows all cups of the round.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import chess

from client_cli.kriegspiel_model import KriegBoard
from client_cli.perudo_model import PerudoTable, apply_event
from client_cli.render import board_lines
from client_cli.state import RoomState
from server.games.perudo_dice import roll_dice

Json = dict[str, Any]


@dataclass
class Step:
    """One step of a replay: what happened, and the whole position after it."""

    caption: str
    panel: list[str]


@dataclass
class Replay:
    """A finished game as a list of steps, with a note on what could be verified."""

    room: str
    game: str
    steps: list[Step] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def build(room: RoomState) -> Replay:
    """The replay of a finished room from its event history and final frames."""
    events = [room.history[seq] for seq in sorted(room.history)]
    if room.game == "kriegspiel":
        return _kriegspiel(room, events)
    return _perudo(room, events)


def _kriegspiel(room: RoomState, events: list[Json]) -> Replay:
    replay = Replay(room=room.room, game="kriegspiel")
    revealed = room.kriegspiel.revealed or {}
    start = revealed.get("start_fen") or chess.STARTING_FEN
    moves = [chess.Move.from_uci(m) for m in revealed.get("moves", [])]
    if not revealed:
        replay.notes.append("The server did not reveal the moves; showing your own view only.")
    board = chess.Board(start)
    played = 0
    model = KriegBoard(color=room.kriegspiel.color)
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
        replay.notes.append(f"{len(moves) - played} real moves were not matched by announcements.")
    if revealed:
        replay.notes.append(f"Final position: {revealed.get('fen', board.fen())}")
    return replay


def _perudo(room: RoomState, events: list[Json]) -> Replay:
    replay = Replay(room=room.room, game="perudo")
    seed_hex = room.frame.get("seed") or next(
        (e.get("seed") for e in events if e.get("type") == "game_over"), None
    )
    seed = bytes.fromhex(seed_hex) if seed_hex else None
    commitment = room.frame.get("seed_sha256")
    table = PerudoTable(seat=room.seat, names=room.names)
    if seed is None:
        replay.notes.append("The seed is not revealed yet: hidden cups stay hidden.")
    elif commitment and hashlib.sha256(seed).hexdigest() != commitment:
        replay.notes.append("WARNING: sha256(seed) does not match the commitment.")
    elif commitment:
        replay.notes.append("The seed matches its commitment (sha256).")
    counts: list[int] = []
    cups: list[list[int]] = []
    mismatches = 0
    for event in events:
        kind = event.get("type")
        text = apply_event(table, event)
        if kind == "game_started":
            per = int(table.options.get("dice_per_player", 5))
            counts = [per] * table.seats
        elif kind == "round_started" and seed is not None:
            cups = [roll_dice(seed, table.round, s, counts[s]) for s in range(table.seats)]
            if table.seat is not None and table.dice and cups[table.seat] != table.dice:
                mismatches += 1
        elif kind == "reveal" and seed is not None:
            for seat, dice in table.reveal.revealed if table.reveal else []:
                if seat < len(cups) and sorted(cups[seat]) != sorted(dice):
                    mismatches += 1
        elif kind == "dice_changed":
            seat = int(event["seat"])
            counts[seat] = max(0, counts[seat] + int(event.get("change", 0)))
        elif kind == "forfeit":
            counts[int(event["seat"])] = 0
        panel = [f"Round {table.round}" + (" (palifico)" if table.palifico is not None else "")]
        for seat in range(table.seats):
            if seat < len(counts) and counts[seat] == 0 and seat in table.out:
                panel.append(f"  {table.name(seat)}: out")
            elif seat < len(cups):
                panel.append(f"  {table.name(seat)}: {' '.join(map(str, cups[seat]))}")
        if table.bids:
            panel.append("Bids: " + ", ".join(f"{table.name(s)} {b}" for s, b in table.bids))
        replay.steps.append(Step(caption=text, panel=panel))
    if seed is not None:
        if mismatches:
            replay.notes.append(f"WARNING: {mismatches} cups differ from what the seed gives.")
        else:
            replay.notes.append("Every cup shown during the game matches the seed.")
    return replay
