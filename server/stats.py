"""Per-player public statistics: the engines compute them, this module sums and rates them.

Each engine's ``stats`` (:class:`server.games.spec.Engine`) reads a finished game's events
through the *spectator* projection, so a statistic can never use a seat's hidden dice or
pieces. :func:`compute` is the thin wrapper rooms and self-play call with the game's
events; the store sums the result into ``player_stats``; ``profile`` frames show the sums,
and rates are derived by the client (or by :func:`rates`). Every game has ``games``,
``wins``, ``draws``, ``losses``; the engines' modules document their own keys.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.games import engine
from server.games.base import Event, Outcome


def compute(
    game: str, log: Sequence[Event], outcome: Outcome, seats: int
) -> list[dict[str, float]]:
    """Each seat's statistics for one finished game of engine ``game``, from ``log``'s
    spectator projections."""
    public = [event.spectator for event in log if event.spectator is not None]
    return engine(game).stats(public, outcome, seats)


#: Rate name -> (numerator, denominator) statistic keys; a rate is shown where its
#: denominator is non-zero, so keys a game never counts simply give no rate.
RATES = {
    "dudo_accuracy": ("dudo_correct", "dudo_calls"),
    "bluff_rate": ("bluffs", "bids_revealed"),
    "mean_players": ("players", "games"),
    "bids_true_when_challenged": ("bids_true_challenged", "bids_challenged"),
    "calza_accuracy": ("calza_correct", "calza_calls"),
    "illegal_per_move": ("illegal_attempts", "moves"),
    "win_rate": ("wins", "games"),
}


def rates(stats: dict[str, float]) -> dict[str, float]:
    """Derived rates (dudo accuracy, bids true when challenged, ...) where defined."""
    return {
        name: round(stats.get(num, 0) / stats[den], 4)
        for name, (num, den) in RATES.items()
        if stats.get(den)
    }
