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
    # (``add`` written out below: this runs over every event of every finished game)
    challenge: dict[str, Any] | None = None
    round_bids: list[tuple[int, int, int]] = []  # (seat, quantity, face) this round
    aces_wild = True
    for event in public_events:
        kind = event.get("type")
        if kind == "bid":
            tally = out[event["seat"]]
            tally["bids"] = tally.get("bids", 0) + 1
            round_bids.append((event["seat"], event["quantity"], event["face"]))
            after = event.get("next")
            if isinstance(after, int):
                tally = out[after]
                tally["dudo_chances"] = tally.get("dudo_chances", 0) + 1
            continue
        if kind == "challenge":
            challenge = event
            tally = out[event["seat"]]
            if event["kind"] == "dudo":
                tally["dudo_calls"] = tally.get("dudo_calls", 0) + 1
                bidder = out[event["bidder"]]
                bidder["bids_challenged"] = bidder.get("bids_challenged", 0) + 1
            else:
                tally["calza_calls"] = tally.get("calza_calls", 0) + 1
            continue
        if kind == "reveal":
            shown = {cup["seat"]: cup["dice"] for cup in event.get("revealed", [])}
            wild = bool(event.get("aces_wild", aces_wild))
            for seat, _, face in round_bids:
                if seat in shown:
                    cup = shown[seat]
                    tally = out[seat]
                    tally["bids_revealed"] = tally.get("bids_revealed", 0) + 1
                    held = face in cup or (wild and face != 1 and 1 in cup)
                    if not held:
                        tally["bluffs"] = tally.get("bluffs", 0) + 1
            if challenge is not None and challenge["kind"] == "dudo":
                if event.get("bid_true"):
                    bidder = out[challenge["bidder"]]
                    bidder["bids_true_challenged"] = bidder.get("bids_true_challenged", 0) + 1
                else:
                    tally = out[challenge["seat"]]
                    tally["dudo_correct"] = tally.get("dudo_correct", 0) + 1
        elif kind == "dice_changed":
            if event.get("reason") == "won_calza":
                tally = out[event["seat"]]
                tally["calza_correct"] = tally.get("calza_correct", 0) + 1
        elif kind == "round_started":
            challenge = None
            round_bids = []
            aces_wild = bool(event.get("aces_wild", True))
    return out
