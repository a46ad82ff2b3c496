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

:class:`RookEndgame` plays so, by the planner of :mod:`bots.kriegspiel.meta.minor` made
for a rook (the forward filter of :mod:`bots.kriegspiel.meta.belief` over the king's
region, the chess distance to mate of :mod:`bots.kriegspiel.meta.dtm`):

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

import random
from collections import Counter

import chess
import numpy as np

from bots.kriegspiel.meta.belief import (
    Floats,
    KingBelief,
    answer_groups,
    attacked_by,
    mask,
    step,
    take_chance,
)
from bots.kriegspiel.meta.dtm import UNKNOWN, table
from bots.kriegspiel.meta.endgames import box
from bots.kriegspiel.meta.mate import Pieces, neighbours
from bots.kriegspiel.meta.metaposition import Metaposition

__all__ = ["CUT_WEIGHT", "LOSS", "RookEndgame", "cut", "lone_rook"]

#: How much a region's worst square counts next to the expected distance over it.
WORST_WEIGHT = 0.5
#: The cost (in plies) of each square of the king's region after its reply.
SIZE_WEIGHT = 0.3
#: The cost (in plies) of each square of the box our pieces leave the king (:func:`cut`).
CUT_WEIGHT = 0.5
#: How much the room counts after our second move.
SECOND_ROOM = 0.5
#: What losing the mate costs (in plies): the rook taken or a stalemate, times its chance.
LOSS = 3000.0
#: The least chance that a king next to our undefended rook takes it.
ADVERSE = 1.0
#: The extra cost of placing our pieces a third time as before.
THIRD_TIME = 300.0
#: What a placement of our pieces costs (in plies) for each time it was seen before.
REPEAT_COST = 6.0
#: Attempts this close (in plies) to the best are drawn at random.
TOLERANCE = 0.5
#: The worth of a square the table calls a draw (never chosen while anything mates).
_DRAWN = 200.0
#: The worth of an answer after which we have no move at all.
_STUCK = 150.0

_rows: dict[bool, np.ndarray] = {}


def lone_rook(meta: Metaposition) -> bool:
    """Whether ``meta`` is KR vs K: a lone enemy king, our king and one rook only."""
    if meta.units != 0:
        return False
    own = meta.own
    mine = own.occupied_co[meta.color] & ~own.kings
    return mine.bit_count() == 1 and bool(mine & own.rooks)


def _table(turn_white: bool) -> np.ndarray:
    """The KR vs K table (plies to mate) as floats, draws at :data:`_DRAWN`."""
    found = _rows.get(turn_white)
    if found is None:
        white, black = table(chess.ROOK)
        raw = np.frombuffer(white if turn_white else black, dtype=np.uint8).astype(np.float64)
        raw[raw == UNKNOWN] = _DRAWN
        found = _rows[turn_white] = raw
    return found


def _row(pieces: Pieces, turn_white: bool) -> Floats:
    """Plies to mate for every square of the king, our king and rook as in ``pieces``."""
    (_, king), (_, rook) = pieces
    start = (king << 12) | (rook << 6)
    return _table(turn_white)[start : start + 64]


def _worth(values: Floats, mass: Floats) -> float:
    """The expected value of ``values`` under ``mass`` plus WORST_WEIGHT times its worst
    square; 0 for no mass."""
    total = float(mass.sum())
    if total <= 0.0:
        return 0.0
    expected = float(values @ mass) / total
    return expected + WORST_WEIGHT * float(values[mass > 0.0].max())


def cut(region: int, attacked: int) -> int:
    """The box our pieces leave a king in ``region`` (:func:`endgames.box`): with a rook
    line between the kings, the part of the board on the king's side of it."""
    return box(region, attacked)


def _room(region: int, attacked: int) -> float:
    """The cost of the king's region after its reply: its size and its box."""
    return SIZE_WEIGHT * region.bit_count() + CUT_WEIGHT * cut(region, attacked).bit_count()


def _occupied(pieces: Pieces) -> int:
    result = 0
    for _, square in pieces:
        result |= chess.BB_SQUARES[square]
    return result


def _moves(pieces: Pieces) -> list[tuple[int, int]]:
    """(piece index, target) of every move of our king and rook on a board of only them."""
    occupied = _occupied(pieces)
    result = []
    for at, (kind, square) in enumerate(pieces):
        if kind == chess.KING:
            reach = chess.BB_KING_ATTACKS[square]
        else:
            reach = chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
            reach |= chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
        for target in chess.SquareSet(reach & ~occupied):
            result.append((at, target))
    return result


def _placed(pieces: Pieces, at: int, target: int) -> Pieces:
    return (*pieces[:at], (pieces[at][0], target), *pieces[at + 1 :])


def _refused(pieces: Pieces, region: int, at: int, target: int) -> int:
    """Squares of ``region`` from which the king refuses our king's step to ``target``."""
    return region & chess.BB_KING_ATTACKS[target] if pieces[at][0] == chess.KING else 0


def _lost(pieces: Pieces, legal: int, attacked: int) -> tuple[int, int]:
    """(mated, stalemated): the squares of ``legal`` where the king has no step."""
    free = chess.BB_ALL & ~attacked & ~chess.BB_SQUARES[pieces[0][1]]
    stuck = legal & ~neighbours(free)
    return stuck & attacked, stuck & ~attacked


def _bits(mass: Floats) -> int:
    result = 0
    for square in np.flatnonzero(mass > 0.0):
        result |= 1 << int(square)
    return result


class RookEndgame:
    """Chooses attempts in KR vs K (see the module); keeps the placements of our pieces
    seen this game and the belief over the king's squares."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.seen: Counter[Pieces] = Counter()
        self.last: Pieces | None = None
        self.belief = KingBelief()
        self.scores: dict[str, float] = {}  #: the last decision's values (for tests)

    def choose(self, meta: Metaposition, attempts: list[str]) -> str | None:
        """The attempt to make, or ``None`` (not KR vs K)."""
        if not lone_rook(meta):
            return None
        pieces = self._pieces(meta)
        mass = self.belief.track(pieces, meta.may[chess.KING])
        if pieces != self.last:  # a refused attempt asks again from the same placement
            self.seen[pieces] += 1
            self.last = pieces
        offered = set(attempts)
        scored: list[tuple[float, str]] = []
        for at, target in _moves(pieces):
            uci = chess.Move(pieces[at][1], target).uci()
            if uci not in offered:
                continue
            value = self._value(pieces, mass, at, target)
            if value is not None:
                scored.append((value, uci))
        self.scores = {uci: value for value, uci in scored}
        if not scored:
            return None
        best = min(value for value, _ in scored)
        near = sorted(uci for value, uci in scored if value <= best + TOLERANCE)
        return self.rng.choice(near)

    @staticmethod
    def _pieces(meta: Metaposition) -> Pieces:
        own = meta.own
        king = own.king(meta.color)
        assert king is not None
        rook = chess.lsb(own.occupied_co[meta.color] & own.rooks)
        return ((chess.KING, king), (chess.ROOK, rook))

    def _value(self, pieces: Pieces, mass: Floats, at: int, target: int) -> float | None:
        """The attempt's expected worth in plies to mate (lower is better) over the
        umpire's answers and the king's reply; ``None`` if it is surely refused."""
        region = int(self.belief.region)
        refused = _refused(pieces, region, at, target)
        legal = region & ~refused
        if not legal:
            return None  # surely refused: it teaches nothing new
        after = _placed(pieces, at, target)
        attacked = attacked_by(after)
        mated, stalemated = _lost(after, legal, attacked)
        live = legal & ~mated & ~stalemated
        if not refused and not live and not stalemated:
            return -1_000.0  # mate whatever the king does
        ours = ~mask(_occupied(after))
        expected = float(mass[mask(stalemated)].sum()) * LOSS
        for group in answer_groups(after, live, attacked):
            before = mass * mask(group)
            stepped = step(before, after, attacked, self.belief.central)
            expected += take_chance(before, after, attacked, ADVERSE) * LOSS
            stepped = stepped * ours
            part = _bits(stepped)
            if not part:
                continue
            value = self._reply(after, part, stepped) + _room(part, attacked)
            expected += float(stepped.sum()) * value
        if refused:
            kept = mass * mask(refused)
            expected += float(kept.sum()) * _worth(_row(pieces, True), kept)
        seen = self.seen[after]
        repeat = REPEAT_COST * seen + (THIRD_TIME if seen >= 2 else 0.0)
        return expected + repeat

    def _reply(self, pieces: Pieces, region: int, mass: Floats) -> float:
        """The worth of the king in ``region`` (weighted by ``mass``) with us to move: our
        best next move's expected plies to mate (Black to move after it), its room and
        its risk."""
        total = float(mass.sum())
        best = _STUCK
        for at, target in _moves(pieces):
            refused = _refused(pieces, region, at, target)
            legal = region & ~refused
            if not legal:
                continue
            after = _placed(pieces, at, target)
            attacked = attacked_by(after)
            mated, stalemated = _lost(after, legal, attacked)
            inside = mass * mask(legal)
            risk = float(mass[mask(stalemated)].sum())
            risk += take_chance(inside * mask(~stalemated & chess.BB_ALL), after, attacked, ADVERSE)
            value = _worth(_row(after, False), inside) if legal != mated else 0.0
            live = legal & ~mated & ~stalemated
            free = chess.BB_ALL & ~attacked & ~_occupied(after)
            rooms = [
                _room(neighbours(group) & free, attacked)
                for group in answer_groups(after, live, attacked)
            ]
            if rooms:
                value += SECOND_ROOM * max(rooms)
            if refused:
                kept = mass * mask(refused)
                share = float(kept.sum()) / total
                value = (1.0 - share) * value + share * _worth(_row(pieces, True), kept)
            best = min(best, value + 1.0 + LOSS * risk / total)
        return best
