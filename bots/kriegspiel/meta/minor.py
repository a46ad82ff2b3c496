"""KBB vs K and KBN vs K: play by the chess distance to mate over the king's belief.

With king and two minor pieces against a lone king, the heuristic search has no plan:
the region's size and the box do not know the bishops' technique (44.5% of KBB vs K
starts mated against a random king, 4.5% against one heading for the centre). Here
the chess distance to mate of :mod:`bots.kriegspiel.meta.minor_dtm` does, by the table
planner of :mod:`bots.kriegspiel.meta.planner` (shared with KR vs K): every attempt
judged by the umpire's answers and the king's reply, two of our moves deep, the room the
king keeps, and risks as probabilities, not bans. A set-based ban (no bishop next to any
square of the region) left 2 safe attempts of 27 in the wide phase and handed the first
moves to the heuristic search, which lost bishops.

What is these endgames' own:

- the risk: the chance taken that a king next to a piece it may take takes it is at
  least :data:`~bots.kriegspiel.meta.planner.ADVERSE` (1) in KBB vs K; in KBN vs K the
  weight of the belief's central hypothesis, so that against a king the belief takes as
  random an exposed piece costs its uniform-step chance (:meth:`MinorEndgame._adverse`);
- the room: in KBN vs K once the king is located, the region's size alone, by
  :data:`LOCATED_SIZE` a square; before, the region's size by :data:`WIDE_SIZE` a square
  and the box (:meth:`MinorEndgame._room`).

:class:`MinorEndgame` answers ``None`` outside these endgames, or while its table is
being built (the caller's search plays meanwhile). The forced-mate search, which runs
before it, still finishes small regions.
"""

from __future__ import annotations

import random

import chess
import numpy as np

from bots.kriegspiel.meta.belief import Floats
from bots.kriegspiel.meta.dtm import UNKNOWN
from bots.kriegspiel.meta.mate import Pieces
from bots.kriegspiel.meta.metaposition import Metaposition
from bots.kriegspiel.meta.minor_dtm import KINDS, MinorTable, index, minor_kinds, ready
from bots.kriegspiel.meta.planner import (
    ADVERSE,
    DRAWN,
    LOSS,
    REPEAT_COST,
    TOLERANCE,
    WORST_WEIGHT,
    TablePlanner,
)

__all__ = [
    "ADVERSE",
    "LOCATED_SIZE",
    "LOSS",
    "REPEAT_COST",
    "TOLERANCE",
    "WIDE_SIZE",
    "WORST_WEIGHT",
    "MinorEndgame",
]

#: KBN vs K: the least chance taken that a king next to a piece it may take takes it,
#: whatever the belief says (see :meth:`MinorEndgame._adverse`).
ADVERSE_MIN = 0.0
#: KBN vs K: a region of at most this many squares is *located*, and the room terms
#: are dropped there (see :meth:`MinorEndgame._room`).
LOCATED = 8
#: KBN vs K once located: the cost (in plies) of each square of the king's region after
#: its reply, in place of the room terms (the box stays out).
LOCATED_SIZE = 1.0
#: KBN vs K before the king is located: the cost (in plies) of each square of the king's
#: region after its reply, beside the box (the planner's own is 0.3: :meth:`MinorEndgame._size`).
WIDE_SIZE = 1.0


class MinorEndgame(TablePlanner):
    """Chooses attempts in KBB vs K and KBN vs K (see the module)."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.knight = False  #: KBN vs K (else KBB vs K)
        self._minor: MinorTable | None = None  #: the table of the endgame played

    @staticmethod
    def applies(meta: Metaposition) -> bool:
        """Whether ``meta`` is one of these endgames: a lone enemy king, and our king with
        two bishops (on squares of both colours) or a bishop and a knight."""
        if meta.units != 0:
            return False
        found = minor_kinds(meta.own, meta.color)
        if found is None:
            return False
        which, first, second = found
        if which == 0:
            light = chess.BB_LIGHT_SQUARES
            return bool(light & chess.BB_SQUARES[first]) != bool(light & chess.BB_SQUARES[second])
        return True

    def _prepare(self, meta: Metaposition) -> bool:
        kinds = minor_kinds(meta.own, meta.color)
        assert kinds is not None
        self.knight = kinds[0] == 1
        self._minor = ready(KINDS[kinds[0]])
        return self._minor is not None  # its table is being built: the search plays

    def _row(self, pieces: Pieces, turn_white: bool) -> Floats:
        minor = self._minor
        assert minor is not None
        (_, king), (first_kind, first), (_, second) = pieces
        if first_kind != chess.BISHOP:  # a knight sorts before the bishop
            first, second = second, first
        start = index(king, first, second, 0)
        raw = (minor.white if turn_white else minor.black)[start : start + 64].astype(np.float64)
        raw[raw == UNKNOWN] = DRAWN
        return raw

    def _room(self, region: int, covered: int) -> float:
        """:meth:`TablePlanner._room`; in KBN vs K once the king is located, :data:`LOCATED_SIZE` a
        square of the region and no box (there the box, which a knight hardly fences,
        outweighed the table: with the king known on e5, Bc6-f3 was played for its smaller
        box, 2 plies worse than Kd7-e7). With nothing at all there, a located random king
        was lost again: the table alone does not value keeping the region small, and the
        region grew a ring a move (3, 8, 22, 26, 30: a third of the 50-move draws against
        the random king). Before it is located, the planner's room with its size at
        :meth:`_size`."""
        if self.knight and self.belief.region.bit_count() <= LOCATED:
            return LOCATED_SIZE * region.bit_count()
        return super()._room(region, covered)

    def _size(self) -> float:
        """In KBN vs K :data:`WIDE_SIZE` a square of the region, else the planner's: at
        its 0.3 a square a check that splits a wide region was worth a few plies, and
        against the random king 88 of 600 starts were not mated, 52 of them with the
        king never located or found late (at 1.0: 70 and 35)."""
        return WIDE_SIZE if self.knight else super()._size()

    def _adverse(self) -> float:
        """The chance taken that a king next to a piece it may take takes it.

        In KBB vs K :data:`ADVERSE`. In KBN vs K the weight of the belief's central
        hypothesis (at least :data:`ADVERSE_MIN`): a king heading for the centre takes a
        piece whenever it is its most central step, a random one with the chance of one
        step among its legal ones, which :func:`take_chance` gives at ``adverse`` 0.
        With :data:`ADVERSE` against every king, each piece next to a wide region cost
        3000 plies times its whole mass: the planner kept its pieces together, its king
        shuffling, and the region at some 40 squares for 25 moves and more (starts 16,
        33, 191 against the random king). Against the random king the central weight
        falls to the floor within a few moves; against the central one it passes 0.9."""
        if not self.knight:
            return ADVERSE
        return min(ADVERSE, max(ADVERSE_MIN, self.belief.weights[1]))
