"""Our king and pieces against a lone king, played by a distance-to-mate table over the
king's belief: the planner that KR vs K (:mod:`~bots.kriegspiel.meta.rook`), KBB vs K
and KBN vs K (:mod:`~bots.kriegspiel.meta.minor`) share.

The chess distance to mate of a table, square by square of the region where the hidden
king may stand, is weighted by how likely each square is
(:class:`~bots.kriegspiel.meta.belief.KingBelief`, a forward filter whose support is
the region):

- every attempt of ours is judged by the umpire's answers (a refused king step, silence,
  a check and its directions) and the king's reply, each with its probability;
- an answer's worth is the expected distance to mate over its region after the king's
  reply (plus :data:`WORST_WEIGHT` times its worst square), where each answer is followed
  by our *best next move for it*: two of our moves deep, so that a check that splits the
  region is worth its information, and the planner commits to where the king most
  likely is;
- the room the king keeps counts too: the size of its region after its reply and of its
  box (:func:`~bots.kriegspiel.meta.endgames.box`), at our first move and, by
  :data:`SECOND_ROOM`, at our second;
- a risk is a probability, not a ban: the chance that the king takes a piece of ours at
  its next step (:func:`~bots.kriegspiel.meta.belief.take_chance`, with the endgame's
  :meth:`TablePlanner._adverse`) or is stalemated costs :data:`LOSS` plies times that
  chance;
- with the king's square known (a region of one square), the table's distance after our
  move rules (:data:`EXACT_WEIGHT` a ply), the rest breaking its ties;
- a placement of our pieces seen before costs more each time, and much more the third
  time (a threefold repetition draws); attempts within :data:`TOLERANCE` plies of the
  best are drawn at random, so that the wide phase is not one fixed route of probes.

An endgame names what differs: which positions it plays (:meth:`TablePlanner.applies`),
its table (:meth:`TablePlanner._prepare`, :meth:`TablePlanner._row`), the weight of the
box, and, where it needs them, its own room and risk.
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
    occupied_by,
    step,
    support,
    take_chance,
)
from bots.kriegspiel.meta.dtm import UNKNOWN, table
from bots.kriegspiel.meta.endgames import box
from bots.kriegspiel.meta.geometry import attacks
from bots.kriegspiel.meta.mate import Pieces, neighbours
from bots.kriegspiel.meta.metaposition import Metaposition

__all__ = [
    "ADVERSE",
    "DRAWN",
    "EXACT_WEIGHT",
    "LOSS",
    "REPEAT_COST",
    "SECOND_ROOM",
    "SIZE_WEIGHT",
    "THIRD_TIME",
    "TOLERANCE",
    "WORST_WEIGHT",
    "TablePlanner",
    "near_best",
    "placement",
    "table_rows",
]

#: How much a region's worst square counts next to the expected distance over it.
WORST_WEIGHT = 0.5
#: The cost (in plies) of each square of the king's region after its reply.
SIZE_WEIGHT = 0.3
#: How much the room of the region counts after our second move.
SECOND_ROOM = 0.5
#: What losing the mate costs (in plies): a piece taken or a stalemate, times its chance.
LOSS = 3000.0
#: The least chance that a king next to a piece of ours it may take takes it: 1, a king
#: there is taken to take it (the centre-seeking king does whenever the piece is its most
#: central step).
ADVERSE = 1.0
#: The extra cost of placing our pieces a third time as before.
THIRD_TIME = 300.0
#: What a placement of our pieces costs (in plies) for each time it was seen before.
REPEAT_COST = 6.0
#: Attempts this close (in plies) to the best are drawn at random.
TOLERANCE = 0.5
#: The worth of a square a table calls a draw (never chosen while anything mates).
DRAWN = 200.0
#: With the king's square known (a region of one square), the cost of each ply of the
#: table's distance to mate after our move, the king to move: there the table rules.
EXACT_WEIGHT = 10.0
#: The worth of an answer after which we have no move at all.
_STUCK = 150.0


_rows: dict[tuple[int, bool], Floats] = {}


def table_rows(kind: int, turn_white: bool) -> Floats:
    """The KQ vs K or KR vs K table of :mod:`~bots.kriegspiel.meta.dtm` (plies to mate,
    indexed as ``dtm.index``) as floats, draws and illegal positions at :data:`DRAWN`."""
    found = _rows.get((kind, turn_white))
    if found is None:
        white, black = table(kind)
        raw = np.frombuffer(white if turn_white else black, dtype=np.uint8).astype(np.float64)
        raw[raw == UNKNOWN] = DRAWN
        found = _rows[(kind, turn_white)] = raw
    return found


def near_best(rng: random.Random, scored: list[tuple[float, str]]) -> str | None:
    """One of the attempts within :data:`TOLERANCE` plies of the best (lowest) value,
    drawn at random; ``None`` for none."""
    if not scored:
        return None
    best = min(value for value, _ in scored)
    return rng.choice(sorted(text for value, text in scored if value <= best + TOLERANCE))


def placement(meta: Metaposition) -> Pieces:
    """Our pieces in ``meta``: the king first, then the others sorted (kind, square),
    so that a placement has one name."""
    own = meta.own
    king = own.king(meta.color)
    assert king is not None
    others = tuple(
        sorted(
            (own.piece_type_at(square) or 0, square)
            for square in chess.SquareSet(own.occupied_co[meta.color] & ~own.kings)
        )
    )
    return ((chess.KING, king), *others)


class TablePlanner:
    """Chooses attempts by a table over the king's belief (see the module); keeps the
    placements of our pieces seen this game and the belief over the king's squares."""

    #: The cost (in plies) of each square of the box our pieces leave the king.
    BOX_WEIGHT = 0.3

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.seen: Counter[Pieces] = Counter()
        self.last: Pieces | None = None
        self.belief = KingBelief()
        self.scores: dict[str, float] = {}  #: the last decision's values (for tests)

    # -- what an endgame names --------------------------------------------------------

    @staticmethod
    def applies(meta: Metaposition) -> bool:
        """Whether ``meta`` is this planner's endgame."""
        raise NotImplementedError

    def _prepare(self, meta: Metaposition) -> bool:
        """Ready the table for ``meta`` (which :meth:`applies`): False while it is not
        there yet (the caller's search plays meanwhile)."""
        raise NotImplementedError

    def _row(self, pieces: Pieces, turn_white: bool) -> Floats:
        """Plies to mate for every square of the king, our pieces as in ``pieces``
        (:data:`DRAWN` where the table has no mate)."""
        raise NotImplementedError

    def _room(self, region: int, covered: int) -> float:
        """The cost of the king's region after its reply: its size and its box."""
        room = box(region, covered).bit_count()
        return self._size() * region.bit_count() + self.BOX_WEIGHT * room

    def _size(self) -> float:
        """The cost (in plies) of each square of the king's region in :meth:`_room`."""
        return SIZE_WEIGHT

    def _adverse(self) -> float:
        """The least chance taken that a king next to a piece it may take takes it."""
        return ADVERSE

    # -- the planner ------------------------------------------------------------------

    def choose(self, meta: Metaposition, attempts: list[str]) -> str | None:
        """The attempt to make, or ``None`` (not this endgame, or no table yet)."""
        if not self.applies(meta):
            return None
        pieces = placement(meta)
        mass = self.belief.track(pieces, meta.may[chess.KING])
        if not self._prepare(meta):
            return None
        if pieces != self.last:  # a refused attempt asks again from the same placement
            self.seen[pieces] += 1
            self.last = pieces
        offered = set(attempts)
        scored: list[tuple[float, str]] = []
        known = self._known()
        for at, target in _moves(pieces):
            uci = chess.Move(pieces[at][1], target).uci()
            if uci not in offered:
                continue
            value = self._value(pieces, mass, at, target)
            if value is not None:
                if known is not None:
                    after = _placed(pieces, at, target)
                    value += EXACT_WEIGHT * float(self._row(after, False)[known])
                scored.append((value, uci))
        self.scores = {uci: value for value, uci in scored}
        return near_best(self.rng, scored)

    def _known(self) -> int | None:
        """The king's square when its region is that one square, else ``None``.

        There the table's distance after our move rules (:data:`EXACT_WEIGHT` a ply): the
        planner's worth, merged over the squares the king's unseen reply may reach, found
        waiting moves as good as the table's, and a king located for its last 30 moves,
        mostly on one square, was not mated (KBN vs K, start 52 against the random king:
        17 to 22 moves from mate all that time, drawn by the 50-move rule)."""
        region = int(self.belief.region)
        return chess.lsb(region) if region.bit_count() == 1 else None

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
        ours = ~mask(occupied_by(after))
        expected = float(mass[mask(stalemated)].sum()) * LOSS
        for group in answer_groups(after, live, attacked):
            before = mass * mask(group)
            stepped = step(before, after, attacked, self.belief.central)
            expected += take_chance(before, after, attacked, self._adverse()) * LOSS
            stepped = stepped * ours
            part = support(stepped)
            if not part:
                continue
            value = self._reply(after, part, stepped) + self._room(part, attacked)
            expected += float(stepped.sum()) * value
        if refused:
            # The king is next to the target: we stay as we are and know more.
            kept = mass * mask(refused)
            expected += float(kept.sum()) * _worth(self._row(pieces, True), kept)
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
            risk += take_chance(
                inside * mask(~stalemated & chess.BB_ALL), after, attacked, self._adverse()
            )
            value = _worth(self._row(after, False), inside) if legal != mated else 0.0
            live = legal & ~mated & ~stalemated
            free = chess.BB_ALL & ~attacked & ~occupied_by(after)
            rooms = [
                self._room(neighbours(group) & free, attacked)
                for group in answer_groups(after, live, attacked)
            ]
            if rooms:
                value += SECOND_ROOM * max(rooms)
            if refused:
                kept = mass * mask(refused)
                share = float(kept.sum()) / total
                value = (1.0 - share) * value + share * _worth(self._row(pieces, True), kept)
            best = min(best, value + 1.0 + LOSS * risk / total)
        return best


def _worth(values: Floats, mass: Floats) -> float:
    """The expected value of ``values`` under ``mass`` (any positive total), plus
    WORST_WEIGHT times its worst square; 0 for no mass."""
    total = float(mass.sum())
    if total <= 0.0:
        return 0.0
    expected = float(values @ mass) / total
    return expected + WORST_WEIGHT * float(values[mass > 0.0].max())


def _moves(pieces: Pieces) -> list[tuple[int, int]]:
    """(piece index, target) of every move of our pieces on a board holding only them."""
    occupied = occupied_by(pieces)
    result = []
    for at, (kind, square) in enumerate(pieces):
        reach = attacks(kind, chess.WHITE, square, occupied)
        for target in chess.SquareSet(reach & ~occupied):
            result.append((at, target))
    return result


def _placed(pieces: Pieces, at: int, target: int) -> Pieces:
    """``pieces`` with ``pieces[at]`` moved to ``target``, the others kept sorted after
    the king so that a placement has one name."""
    moved = (*pieces[:at], (pieces[at][0], target), *pieces[at + 1 :])
    return (moved[0], *sorted(moved[1:]))


def _refused(pieces: Pieces, region: int, at: int, target: int) -> int:
    """Squares of ``region`` from which the king refuses our king's step to ``target``."""
    return region & chess.BB_KING_ATTACKS[target] if pieces[at][0] == chess.KING else 0


def _lost(pieces: Pieces, legal: int, attacked: int) -> tuple[int, int]:
    """(mated, stalemated): the squares of ``legal`` where the king has no step."""
    free = chess.BB_ALL & ~attacked & ~chess.BB_SQUARES[pieces[0][1]]
    stuck = legal & ~neighbours(free)
    return stuck & attacked, stuck & ~attacked
