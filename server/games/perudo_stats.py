"""Perudo's public statistics, computed only from what became public.

:func:`stats` reads a finished game's *spectator* projections, so a statistic can never use
a seat's hidden dice: if a spectator could not see it, it does not count.

Keys (besides every game's ``games``, ``wins``, ``draws``, ``losses``): ``bids``,
``bids_challenged`` (doubted with dudo), ``bids_true_challenged`` (doubted and true),
``dudo_calls``, ``dudo_correct``, ``calza_calls``, ``calza_correct``, ``dudo_chances``
(turns facing a bid), ``bids_revealed`` (bids whose bidder's cup was shown at the end of the
round) and ``bluffs`` (those naming a face the bidder held none of, nor a wild ace), and
``players`` (the table size, summed: ``players / games`` is the mean).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.games.base import Json, Outcome
from server.games.spec import add, result_stats


def stats(
    public_events: Sequence[dict[str, Json]], outcome: Outcome, seats: int
) -> list[dict[str, float]]:
    """Each seat's Perudo statistics for one finished game, from public events only."""
    out = result_stats(outcome, seats)
    for seat in range(seats):
        add(out[seat], "players", seats)
    challenge: dict[str, Any] | None = None
    round_bids: list[tuple[int, int, int]] = []  # (seat, quantity, face) this round
    aces_wild = True
    for event in public_events:
        kind = event.get("type")
        if kind == "bid":
            add(out[event["seat"]], "bids")
            round_bids.append((event["seat"], event["quantity"], event["face"]))
            if isinstance(event.get("next"), int):
                add(out[event["next"]], "dudo_chances")
        elif kind == "challenge":
            challenge = event
            if event["kind"] == "dudo":
                add(out[event["seat"]], "dudo_calls")
                add(out[event["bidder"]], "bids_challenged")
            else:
                add(out[event["seat"]], "calza_calls")
        elif kind == "reveal":
            shown = {cup["seat"]: cup["dice"] for cup in event.get("revealed", [])}
            wild = bool(event.get("aces_wild", aces_wild))
            for seat, _, face in round_bids:
                if seat in shown:
                    add(out[seat], "bids_revealed")
                    held = any(d == face or (wild and face != 1 and d == 1) for d in shown[seat])
                    if not held:
                        add(out[seat], "bluffs")
        if kind == "reveal" and challenge is not None:
            if challenge["kind"] == "dudo":
                if event.get("bid_true"):
                    add(out[challenge["bidder"]], "bids_true_challenged")
                else:
                    add(out[challenge["seat"]], "dudo_correct")
        elif kind == "dice_changed" and event.get("reason") == "won_calza":
            add(out[event["seat"]], "calza_correct")
        elif kind == "round_started":
            challenge = None
            round_bids = []
            aces_wild = bool(event.get("aces_wild", True))
    return out
