"""Per-player public statistics, computed only from what became public.

:func:`compute` reads a finished game's events through the *spectator* projection, so a
statistic can never use a seat's hidden dice or pieces: if a spectator could not see it,
it does not count. The room adds the result to the store's ``player_stats``; ``profile``
frames show the sums, and rates are derived by the client (or by :func:`rates`).

Perudo keys: ``bids``, ``bids_challenged`` (doubted with dudo), ``bids_true_challenged``
(doubted and true), ``dudo_calls``, ``dudo_correct``, ``calza_calls``, ``calza_correct``,
``dudo_chances`` (turns facing a bid), ``bids_revealed`` (bids whose bidder's cup was shown
at the end of the round) and ``bluffs`` (those naming a face the bidder held none of, nor
a wild ace), and ``players`` (the table size, summed: ``players / games`` is the mean).
Kriegspiel keys: ``moves`` and ``illegal_attempts`` (their ratio: illegal attempts per move).
Every game: ``games``, ``wins``, ``draws``, ``losses``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.games.base import Event, Outcome


def compute(
    game: str, log: Sequence[Event], outcome: Outcome, seats: int
) -> list[dict[str, float]]:
    """Each seat's statistics for one finished game."""
    out: list[dict[str, float]] = [{} for _ in range(seats)]
    for seat, rank in enumerate(outcome.ranks):
        _add(out[seat], "games")
        if rank == 1 and outcome.is_draw:
            _add(out[seat], "draws")
        elif rank == 1:
            _add(out[seat], "wins")
        else:
            _add(out[seat], "losses")
    public = [event.spectator for event in log if event.spectator is not None]
    if game == "perudo":
        for seat in range(seats):
            _add(out[seat], "players", seats)
        _perudo(public, out)
    elif game == "kriegspiel":
        _kriegspiel(public, out)
    return out


def _add(stats: dict[str, float], key: str, amount: float = 1) -> None:
    stats[key] = stats.get(key, 0) + amount


def _perudo(public: list[dict[str, Any]], out: list[dict[str, float]]) -> None:
    challenge: dict[str, Any] | None = None
    round_bids: list[tuple[int, int, int]] = []  # (seat, quantity, face) this round
    aces_wild = True
    for event in public:
        kind = event.get("type")
        if kind == "bid":
            _add(out[event["seat"]], "bids")
            round_bids.append((event["seat"], event["quantity"], event["face"]))
            if isinstance(event.get("next"), int):
                _add(out[event["next"]], "dudo_chances")
        elif kind == "challenge":
            challenge = event
            if event["kind"] == "dudo":
                _add(out[event["seat"]], "dudo_calls")
                _add(out[event["bidder"]], "bids_challenged")
            else:
                _add(out[event["seat"]], "calza_calls")
        elif kind == "reveal":
            shown = {cup["seat"]: cup["dice"] for cup in event.get("revealed", [])}
            wild = bool(event.get("aces_wild", aces_wild))
            for seat, _, face in round_bids:
                if seat in shown:
                    _add(out[seat], "bids_revealed")
                    held = any(d == face or (wild and face != 1 and d == 1) for d in shown[seat])
                    if not held:
                        _add(out[seat], "bluffs")
        if kind == "reveal" and challenge is not None:
            if challenge["kind"] == "dudo":
                if event.get("bid_true"):
                    _add(out[challenge["bidder"]], "bids_true_challenged")
                else:
                    _add(out[challenge["seat"]], "dudo_correct")
        elif kind == "dice_changed" and event.get("reason") == "won_calza":
            _add(out[event["seat"]], "calza_correct")
        elif kind == "round_started":
            challenge = None
            round_bids = []
            aces_wild = bool(event.get("aces_wild", True))


def _kriegspiel(public: list[dict[str, Any]], out: list[dict[str, float]]) -> None:
    # Seat 0 plays white. Under wild16 nobody but the mover hears of an illegal attempt,
    # so those attempts never count: they are not public.
    seats = {"white": 0, "black": 1}
    for event in public:
        kind = event.get("type")
        seat = seats.get(str(event.get("color")))
        if seat is None or seat >= len(out):
            continue
        if kind == "move":
            _add(out[seat], "moves")
        elif kind == "illegal":
            _add(out[seat], "illegal_attempts")


def rates(stats: dict[str, float]) -> dict[str, float]:
    """Derived rates (dudo accuracy, bids true when challenged, ...) where defined."""
    pairs = {
        "dudo_accuracy": ("dudo_correct", "dudo_calls"),
        "bluff_rate": ("bluffs", "bids_revealed"),
        "mean_players": ("players", "games"),
        "bids_true_when_challenged": ("bids_true_challenged", "bids_challenged"),
        "calza_accuracy": ("calza_correct", "calza_calls"),
        "illegal_per_move": ("illegal_attempts", "moves"),
        "win_rate": ("wins", "games"),
    }
    return {
        name: round(stats.get(num, 0) / stats[den], 4)
        for name, (num, den) in pairs.items()
        if stats.get(den)
    }
