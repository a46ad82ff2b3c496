"""How many enemy units the sets' densities expect in all, against the units there are.

:meth:`Metaposition.density` reads a kind's chance per square as its material bound over
its set (``count_max / |may|``). Each kind's bound is an upper bound taken alone: after
captures announced only as "piece", and after promotions that may have made any kind,
every kind may still hold many units, but not all of them at once. Summed over the
kinds the densities then expect several times the units there are: 37 units for 10 in
a middlegame of meta at 1,000 nodes against meta at 20 (seed 9, game 9, move 100; the
presence map held 10.1). Every term built on the densities grew with that: the capture
chance of a move onto a square where a unit may stand (a piece's step "took" a unit
one time in three on squares that held none), and our pieces' exposure (``threats``:
780 centipawns a move), so the search, scoring every attempt, found its best in king
and rook shuffles beside the corner, and the weaker searcher, scoring a random twenty,
pushed its pawns and promoted (``docs/kriegspiel_meta.md``, *Meta at 1,000 nodes
against meta at 20*).

:func:`unit_scale` is the factor that brings the expected total back to the units.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bots.kriegspiel.meta.geometry import PIECE_KINDS

if TYPE_CHECKING:
    from bots.kriegspiel.meta.metaposition import Metaposition

__all__ = ["expected_units", "unit_scale"]


def expected_units(meta: Metaposition) -> int:
    """The enemy units (besides the king) the unscaled densities expect in all: each
    kind's bound, at most its set's size."""
    return sum(min(meta.may[kind].bit_count(), meta.count_max(kind)) for kind in PIECE_KINDS[:-1])


def unit_scale(meta: Metaposition) -> float:
    """The factor (at most 1) that scales every kind's density so that together they
    expect ``meta.units`` units: 1 while the bounds are tight (the start, every
    capture's kind announced, no promotion)."""
    expected = expected_units(meta)
    if expected <= meta.units or meta.units <= 0:
        return 1.0
    return meta.units / expected
