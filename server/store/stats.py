"""Per-player public statistics: the engines compute them, this module sums and rates them.

Each engine's ``stats`` (:class:`server.games.spec.Engine`) reads a finished game's events
as anyone may see them once it is over (:meth:`~server.games.spec.Engine.public_record`:
the spectator's projection, or what the engine reveals at the end, as Kriegspiel reveals
every attempt), so a statistic never uses a seat's hidden dice. :func:`compute` is the
thin wrapper self-play calls with the game's events (rooms call the engine directly); the
store sums the result into ``player_stats``; ``profile`` frames show the sums, and rates
are derived by the client (or by :func:`rates`). Every game has ``games``,
``wins``, ``draws``, ``losses``; the engines' modules document their own keys.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.games import engine
from server.games.base import Event, Outcome


def compute(
    game: str, log: Sequence[Event], outcome: Outcome, seats: int
) -> list[dict[str, float]]:
    """Each seat's statistics for one finished game of engine ``game``, from what anyone
    may see of ``log`` once the game is over."""
    eng = engine(game)
    return eng.stats(eng.public_record(log), outcome, seats)


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
