"""The Perudo table told in sentences (no I/O).

What a viewer knows is the shared :class:`~bots.perudo.table.PerudoTable` (the bots'
model too); :func:`apply_event` updates it with one event and returns the sentence the
log shows.
"""

from __future__ import annotations

from typing import Any

from bots.perudo.table import PerudoTable
from server.games.base import IllegalAction
from server.games.perudo_actions import Bid

Json = dict[str, Any]

__all__ = ["PerudoTable", "apply_event", "bid_words", "face_name", "try_bid"]


def try_bid(text: str) -> Bid | None:
    """``"5x4"`` -> ``Bid(5, 4)`` (read by :meth:`Bid.parse`); anything else -> None."""
    try:
        return Bid.parse(text)
    except IllegalAction:
        return None


def face_name(face: int, quantity: int = 2) -> str:
    """How a face is read aloud: ``4s``, ``aces`` (``ace``/``4`` for one die)."""
    if face == 1:
        return "ace" if quantity == 1 else "aces"
    return str(face) if quantity == 1 else f"{face}s"


def bid_words(bid: str) -> str:
    """``"5x4"`` -> ``"5x4 (5 4s)"``; ``"1x1"`` -> ``"1x1 (1 ace)"``."""
    parsed = try_bid(bid)
    if parsed is None:
        return bid
    return f"{bid} ({parsed.quantity} {face_name(parsed.face, parsed.quantity)})"


def apply_event(table: PerudoTable, event: Json) -> str:
    """Apply one event to ``table``; return a sentence describing it."""
    table.observe(event)
    kind = str(event.get("type"))
    name = table.name
    if kind == "game_started":
        per = table.dice_per_player
        dice = "die" if per == 1 else "dice"
        return f"The game starts: {table.seats} players, {per} {dice} each."
    if kind == "round_started":
        text = f"Round {table.round}: {name(table.starter)} starts."
        if table.palifico is not None:
            text += f" PALIFICO for {name(table.palifico)}: aces are not wild, the face is locked."
        return text
    if kind == "bid":
        return f"{name(event['seat'])} bids {bid_words(str(event['bid']))}."
    if kind == "challenge":
        return (
            f"{name(event['seat'])} calls {str(event['kind']).upper()} on "
            f"{name(event['bidder'])}'s {event['bid']}."
        )
    if kind == "reveal":
        reveal = table.reveal
        assert reveal is not None
        cups = "; ".join(f"{name(s)} {d}" for s, d in reveal.revealed)
        verdict = "true" if event.get("bid_true") else "false"
        more = "" if reveal.complete else " (the other cups stay hidden)"
        count = event.get("count")
        return f"Reveal: {cups}. Count {count}: the bid {event['bid']} is {verdict}{more}."
    if kind == "dice_changed":
        seat = int(event["seat"])
        change = int(event.get("change", 0))
        verb = {-1: "loses a die", 1: "gains a die", 0: "keeps all dice"}.get(change, "changes")
        reason = str(event.get("reason", "")).replace("_", " ")
        text = f"{name(seat)} {verb} ({reason})."
        if event.get("out"):
            text += f" {name(seat)} is out."
        return text
    if kind == "forfeit":
        return f"{name(int(event['seat']))} forfeits ({event.get('reason')}); the round is void."
    if kind == "game_over":
        winners = ", ".join(name(s) for s in event.get("winners", []))
        return f"Game over: {winners} wins ({str(event.get('reason', '')).replace('_', ' ')})."
    if kind == "aborted":
        return f"The game was aborted: {event.get('reason')}."
    return f"({kind})"
