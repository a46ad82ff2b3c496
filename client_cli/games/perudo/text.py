"""The Perudo table as text: what ``--plain`` prints and the TUI's table panel shows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from client_cli.games.perudo.model import PerudoModel
from client_cli.render import outcome_line

if TYPE_CHECKING:
    from client_cli.state import RoomState


def model_of(room: RoomState) -> PerudoModel:
    """The room's Perudo model (a room of this game always has one)."""
    model = room.model
    assert isinstance(model, PerudoModel), type(model).__name__
    return model


def perudo_lines(room: RoomState) -> list[str]:
    """The Perudo table as this player knows it."""
    model = model_of(room)
    table, words = model.table, model.words
    header = words(
        "header", room=room.room, preset=table.options.get("preset", "piatnik"), round=table.round
    )
    lines = [header + (words("calza_allowed") if table.calza_allowed else "")]
    if table.palifico is not None:
        lines.append(words("palifico_banner", name=table.name(table.palifico)))
    lines.append(words("players"))
    for seat in range(table.seats or len(room.names)):
        marker = ">" if seat == table.to_move else " "
        you = words("you") if seat == table.seat else ""
        count = table.dice_count(seat)
        if seat in table.out:
            dice = words("out")
        else:
            dice = words("unknown_dice") if count is None else words("dice", count=count)
        lines.append(f" {marker} {seat} {table.name(seat)}{you}: {dice}")
    if table.seat is not None and table.seat not in table.out:  # (none once out)
        lines.append(words("your_dice", dice=" ".join(str(d) for d in table.dice) or "-"))
    if table.bids:
        bids = ", ".join(f"{table.name(s)} {b}" for s, b in table.bids)
        lines.append(words("bids_line", bids=bids))
    else:
        lines.append(words("no_bids"))
    reveal = table.reveal
    if reveal is not None and reveal.count is not None:
        verdict = words("true" if reveal.bid_true else "false")
        lines.append(
            words(
                "last_reveal",
                kind=reveal.kind,
                bid=reveal.bid,
                count=reveal.count,
                verdict=verdict,
                cups=model.cups(),
            )
        )
    if room.over:
        lines.append(outcome_line(room))
        lines += room.rating_lines
    elif room.offline:
        lines.append(room.OFFLINE)
    elif room.paused:
        lines.append(room.paused_text)
    elif room.turn is not None:
        calls = "".join(f", {call}" for call in ("dudo", "calza") if call in room.legal)
        lines.append(words("your_turn", example=_example_bid(room), more=calls))
    elif table.to_move is not None:
        lines.append(words("waiting_for", name=table.name(table.to_move)))
    return lines


def _example_bid(room: RoomState) -> str:
    bids = [a for a in room.legal if "x" in a]
    return bids[0] if bids else "dudo"
