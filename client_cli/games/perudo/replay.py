"""A finished Perudo game replayed with every cup shown.

The seed is revealed at the end, and every die is drawn from it (``docs/perudo.md``, "Fair
dice"), so the replay recomputes every cup of every round, including those never shown, and
checks them against ``sha256(seed)`` and against every reveal the game made. Each step is
one event; the panel shows all cups of the round.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from bots.perudo.table import PerudoTable
from client_cli.games.base import Replay, Step
from client_cli.games.perudo.model import PerudoModel
from client_cli.words import Words
from server.games.perudo_dice import roll_dice

if TYPE_CHECKING:
    from client_cli.state import RoomState

Json = dict[str, Any]


def _seed(room: RoomState, events: list[Json]) -> bytes | None:
    seed_hex = room.frame.get("seed") or next(
        (e.get("seed") for e in events if e.get("type") == "game_over"), None
    )
    return bytes.fromhex(seed_hex) if seed_hex else None


def perudo_replay(room: RoomState, events: list[Json], words: Words) -> Replay:
    """Every event of ``room`` as a step, with the round's cups recomputed from the seed."""
    replay = Replay(room=room.room, game=room.game)
    seed = _seed(room, events)
    commitment = room.frame.get("seed_sha256")
    model = PerudoModel(words, PerudoTable(seat=room.seat, names=room.names))
    table = model.table
    if seed is None:
        replay.notes.append(words("seed_hidden"))
    elif commitment and hashlib.sha256(seed).hexdigest() != commitment:
        replay.notes.append(words("seed_bad"))
    elif commitment:
        replay.notes.append(words("seed_ok"))
    counts: list[int] = []
    cups: list[list[int]] = []
    mismatches = 0
    for event in events:
        kind = event.get("type")
        text = model.apply_event(event)
        if kind == "game_started":
            counts = [int(table.options.get("dice_per_player", 5))] * table.seats
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
        replay.steps.append(Step(caption=text, panel=_panel(model, counts, cups)))
    if seed is not None:
        replay.notes.append(
            words("cups_differ", count=mismatches) if mismatches else words("cups_match")
        )
    return replay


def _panel(model: PerudoModel, counts: list[int], cups: list[list[int]]) -> list[str]:
    """The round, every cup (or ``out``) and the round's bids."""
    table, words = model.table, model.words
    palifico = words("palifico_mark") if table.palifico is not None else ""
    heading = words("round", round=table.round) if table.round else words("no_round_yet")
    panel = [heading + palifico]
    for seat in range(table.seats):
        if seat < len(counts) and counts[seat] == 0 and seat in table.out:
            panel.append(words("cup_out", name=table.name(seat)))
        elif seat < len(cups):
            panel.append(f"  {table.name(seat)}: {' '.join(map(str, cups[seat]))}")
    if table.bids:
        bids = ", ".join(f"{table.name(s)} {b}" for s, b in table.bids)
        panel.append(words("bids_line", bids=bids))
    return panel
