"""KR vs K: cut the board with the rook, then shrink the box, over the king's belief.

The heuristic search (``search.py``) mated 99.0% of KR vs K starts against the random
king and 95% against the centre king, and its failures were of one kind: the rook never
cut the board. Against a king known only roughly (a region of 44 to 49 squares) our
rook stood beside our king in the centre and the pair shuffled for 50 moves, since any
rook square away from our king lies next to some square of the region and the search
fears that share eight times over; against a king located at 1 to 3 squares in the
centre, the rook checked it and lost it again instead of cutting it off. A human player
does neither: once the king is roughly located the rook takes a line between the kings,
far from the hunted king or guarded by ours, and the box it leaves is shrunk with our
king's help, the cut kept while checks locate the king.

:class:`RookEndgame` plays so, by the table planner of :mod:`bots.kriegspiel.meta.planner`
(shared with KBB vs K and KBN vs K) over the KR vs K table of
:mod:`bots.kriegspiel.meta.dtm`:

- every attempt is judged over the umpire's answers (a refused king step, silence, a
  check and its directions) and the king's reply, each with its probability, and each
  answer is followed by our best next move (two of our moves deep);
- an answer's worth is the expected chess distance to mate over the region after the
  king's reply (plus half its worst square), the size of that region, and its **cut**
  (:func:`cut`): the box our pieces leave the king (the squares it could reach through
  squares we do not attack), counted by :data:`CUT_WEIGHT` a square. A rook line
  between the kings makes the box a part of the board, and shrinking it is the plan;
- a risk is a probability, not a ban: the chance that the king takes the rook at its
  next step (a king next to the undefended rook is taken to take it) or is stalemated
  costs :data:`LOSS` plies. A rook far along its line is next to few squares of the
  region, so the cut is bought at a small, priced risk instead of never;
- a placement of our pieces seen before costs more each time (a threefold repetition
  draws); attempts within :data:`TOLERANCE` plies of the best are drawn at random.

The forced-mate search, which runs before it, finishes small regions.
"""

from __future__ import annotations

import chess

from bots.kriegspiel.meta.belief import Floats
from bots.kriegspiel.meta.endgames import box
from bots.kriegspiel.meta.mate import Pieces
from bots.kriegspiel.meta.metaposition import Metaposition
from bots.kriegspiel.meta.planner import LOSS, TablePlanner, table_rows

__all__ = ["CUT_WEIGHT", "LOSS", "RookEndgame", "cut", "lone_rook"]

#: The cost (in plies) of each square of the box our pieces leave the king (:func:`cut`).
CUT_WEIGHT = 0.5


def lone_rook(meta: Metaposition) -> bool:
    """Whether ``meta`` is KR vs K: a lone enemy king, our king and one rook only."""
    if meta.units != 0:
        return False
    own = meta.own
    mine = own.occupied_co[meta.color] & ~own.kings
    return mine.bit_count() == 1 and bool(mine & own.rooks)


def cut(region: int, attacked: int) -> int:
    """The box our pieces leave a king in ``region`` (:func:`endgames.box`): with a rook
    line between the kings, the part of the board on the king's side of it."""
    return box(region, attacked)


class RookEndgame(TablePlanner):
    """Chooses attempts in KR vs K (see the module)."""

    BOX_WEIGHT = CUT_WEIGHT

    @staticmethod
    def applies(meta: Metaposition) -> bool:
        return lone_rook(meta)

    def _prepare(self, meta: Metaposition) -> bool:
        return True  # the KR vs K table is built on first use (dtm.py)

    def _row(self, pieces: Pieces, turn_white: bool) -> Floats:
        (_, king), (_, rook) = pieces
        start = (king << 12) | (rook << 6)
        return table_rows(chess.ROOK, turn_white)[start : start + 64]
