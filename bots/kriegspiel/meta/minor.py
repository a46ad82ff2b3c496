"""KBB vs K and KBN vs K: play by the chess distance to mate over the king's belief.

With king and two minor pieces against a lone king, the heuristic search has no plan:
the region's size and the box do not know the bishops' technique (44.5% of KBB vs K
starts mated against a random king, 4.5% against one heading for the centre). Here
the chess distance to mate of :mod:`bots.kriegspiel.meta.minor_dtm` does, square by
square of the region where the hidden king may stand, weighted by how likely each
square is (:class:`~bots.kriegspiel.meta.belief.KingBelief`, a forward filter whose
support is the region):

- every attempt of ours is judged by the umpire's answers (a refused king step, silence,
  a check and its directions) and the king's reply, each with its probability;
- a risk is a probability, not a ban: the chance that the king takes a piece of ours at
  its next step (the mass next to an undefended piece times the chance it steps there,
  at least :data:`ADVERSE`: 1, so a king next to a piece it may take is taken to take
  it, since the centre-seeking king does whenever the piece is its most central step;
  in KBN vs K the weight of the belief's central hypothesis, so that against a king the
  belief takes as random an exposed piece costs its uniform-step chance)
  or is stalemated costs :data:`LOSS` plies times that chance. A set-based ban (no bishop
  next to any square of the region) left 2 safe attempts of 27 in the wide phase and
  handed the first moves to the heuristic search, which lost bishops;
- an answer's worth is the expected distance to mate over its region after the king's
  reply (plus :data:`WORST_WEIGHT` times its worst square), where each answer is followed
  by our *best next move for it*: two of our moves deep, so that a check that splits the
  region is worth its information, and the planner commits to where the king most
  likely is;
- the room the king keeps counts too: the size of its region after its reply and of
  its box (:func:`~bots.kriegspiel.meta.endgames.box`), at our first move and, by half,
  at our second;
- a placement of our pieces seen before costs more each time, and much more the third
  time (a threefold repetition draws); attempts within :data:`TOLERANCE` plies of the
  best are drawn at random, so that the wide phase is not one fixed route of probes.

:class:`MinorEndgame` answers ``None`` outside these endgames, or while its table is
being built (the caller's search plays meanwhile). The forced-mate search, which runs
before it, still finishes small regions.
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
from bots.kriegspiel.meta.dtm import UNKNOWN
from bots.kriegspiel.meta.endgames import box
from bots.kriegspiel.meta.mate import Pieces, neighbours
from bots.kriegspiel.meta.metaposition import Metaposition
from bots.kriegspiel.meta.minor_dtm import KINDS, MinorTable, index, minor_kinds, ready

__all__ = [
    "ADVERSE",
    "LOCATED_SIZE",
    "LOSS",
    "REPEAT_COST",
    "TOLERANCE",
    "WORST_WEIGHT",
    "MinorEndgame",
]

#: How much a region's worst square counts next to the expected distance over it.
WORST_WEIGHT = 0.5
#: The cost (in plies) of each square of the king's region after its reply, and of
#: each square of the room our pieces leave it (:func:`~bots.kriegspiel.meta.endgames.box`).
SIZE_WEIGHT = 0.3
BOX_WEIGHT = 0.3
#: How much the room of the region counts after our second move.
SECOND_ROOM = 0.5
#: What losing the mate costs (in plies): a piece taken or a stalemate, times its chance.
LOSS = 3000.0
#: The least chance that a king next to a piece of ours it may take takes it (the
#: uniform step model says one in its number of steps; a king that is not random may
#: prefer the capture, as the centre-seeking one does when the piece is central).
ADVERSE = 1.0
#: KBN vs K: the least chance taken that a king next to a piece it may take takes it,
#: whatever the belief says (see :meth:`MinorEndgame._adverse`).
ADVERSE_MIN = 0.0
#: The extra cost of placing our pieces a third time as before (a threefold repetition
#: if the king stands where it stood).
THIRD_TIME = 300.0
#: What a placement of our pieces costs (in plies) for each time it was seen before.
REPEAT_COST = 6.0
#: Attempts this close (in plies) to the best are drawn at random.
TOLERANCE = 0.5
#: KBN vs K: a region of at most this many squares is *located*, and the room terms
#: are dropped there (see :meth:`MinorEndgame._room`).
LOCATED = 8
#: KBN vs K once located: the cost (in plies) of each square of the king's region after
#: its reply, in place of the room terms (the box stays out).
LOCATED_SIZE = 1.0
#: The worth of a square the table calls a draw (never chosen while anything mates).
_DRAWN = 200.0
#: The worth of an answer after which we have no move at all.
_STUCK = 150.0


def _row(minor: MinorTable, pieces: Pieces, turn_white: bool) -> Floats:
    """Plies to mate for every square of the king, our pieces as in ``pieces``."""
    (_, king), (first_kind, first), (_, second) = pieces
    if first_kind != chess.BISHOP:  # a knight sorts before the bishop
        first, second = second, first
    start = index(king, first, second, 0)
    raw = (minor.white if turn_white else minor.black)[start : start + 64].astype(np.float64)
    raw[raw == UNKNOWN] = _DRAWN
    return raw


def _worth(values: Floats, mass: Floats) -> float:
    """The expected value of ``values`` under ``mass`` (any positive total), plus
    WORST_WEIGHT times its worst square; 0 for no mass."""
    total = float(mass.sum())
    if total <= 0.0:
        return 0.0
    expected = float(values @ mass) / total
    return expected + WORST_WEIGHT * float(values[mass > 0.0].max())


def _room(region: int, covered: int) -> float:
    """The cost of the king's region after its reply: its size and its box."""
    return SIZE_WEIGHT * region.bit_count() + BOX_WEIGHT * box(region, covered).bit_count()


def _moves(pieces: Pieces) -> list[tuple[int, int]]:
    """(piece index, target) of every move of our pieces on a board holding only them."""
    occupied = 0
    for _, square in pieces:
        occupied |= chess.BB_SQUARES[square]
    result = []
    for at, (kind, square) in enumerate(pieces):
        if kind == chess.KING:
            reach = chess.BB_KING_ATTACKS[square]
        elif kind == chess.KNIGHT:
            reach = chess.BB_KNIGHT_ATTACKS[square]
        else:
            reach = chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
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


class MinorEndgame:
    """Chooses attempts in KBB vs K and KBN vs K (see the module); keeps the placements
    of our pieces seen this game and the belief over the king's squares."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.seen: Counter[Pieces] = Counter()
        self.last: Pieces | None = None
        self.belief = KingBelief()
        self.knight = False  #: KBN vs K (else KBB vs K)

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

    def choose(self, meta: Metaposition, attempts: list[str]) -> str | None:
        """The attempt to make, or ``None`` (not these endgames, or no table yet)."""
        if not self.applies(meta):
            return None
        pieces = self._pieces(meta)
        mass = self.belief.track(pieces, meta.may[chess.KING])
        kinds = minor_kinds(meta.own, meta.color)
        assert kinds is not None
        self.knight = kinds[0] == 1
        minor = ready(KINDS[kinds[0]])
        if minor is None:  # its table is being built: the search plays meanwhile
            return None
        if pieces != self.last:  # a refused attempt asks again from the same placement
            self.seen[pieces] += 1
            self.last = pieces
        offered = set(attempts)
        scored: list[tuple[float, str]] = []
        for at, target in _moves(pieces):
            uci = chess.Move(pieces[at][1], target).uci()
            if uci not in offered:
                continue
            value = self._value(minor, pieces, mass, at, target)
            if value is not None:
                scored.append((value, uci))
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
        others = tuple(
            sorted(
                (own.piece_type_at(square) or 0, square)
                for square in chess.SquareSet(own.occupied_co[meta.color] & ~own.kings)
            )
        )
        return ((chess.KING, king), *others)

    def _value(
        self, minor: MinorTable, pieces: Pieces, mass: Floats, at: int, target: int
    ) -> float | None:
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
        covered = attacked
        expected = float(mass[mask(stalemated)].sum()) * LOSS
        for group in answer_groups(after, live, attacked):
            before = mass * mask(group)
            stepped = step(before, after, attacked, self.belief.central)
            expected += take_chance(before, after, attacked, self._adverse()) * LOSS
            stepped = stepped * ours
            part = _bits(stepped)
            if not part:
                continue
            value = self._reply(minor, after, part, stepped) + self._room(part, covered)
            expected += float(stepped.sum()) * value
        if refused:
            # The king is next to the target: we stay as we are and know more.
            kept = mass * mask(refused)
            value = _worth(_row(minor, pieces, True), kept)
            expected += float(kept.sum()) * value
        seen = self.seen[after]
        repeat = REPEAT_COST * seen + (THIRD_TIME if seen >= 2 else 0.0)
        return expected + repeat

    def _room(self, region: int, covered: int) -> float:
        """:func:`_room`; in KBN vs K once the king is located, :data:`LOCATED_SIZE` a
        square of the region and no box (there the box, which a knight hardly fences,
        outweighed the table: with the king known on e5, Bc6-f3 was played for its smaller
        box, 2 plies worse than Kd7-e7). With nothing at all there, a located random king
        was lost again: the table alone does not value keeping the region small, and the
        region grew a ring a move (3, 8, 22, 26, 30: a third of the 50-move draws against
        the random king)."""
        if self.knight and self.belief.region.bit_count() <= LOCATED:
            return LOCATED_SIZE * region.bit_count()
        return _room(region, covered)

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

    def _reply(self, minor: MinorTable, pieces: Pieces, region: int, mass: Floats) -> float:
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
            value = _worth(_row(minor, after, False), inside) if legal != mated else 0.0
            if SECOND_ROOM:
                live = legal & ~mated & ~stalemated
                free = chess.BB_ALL & ~attacked & ~_occupied(after)
                rooms = [
                    self._room(neighbours(group) & free, attacked)
                    for group in answer_groups(after, live, attacked)
                ]
                if rooms:
                    value += SECOND_ROOM * max(rooms)
            if refused:
                kept = mass * mask(refused)
                share = float(kept.sum()) / total
                value = (1.0 - share) * value + share * _worth(_row(minor, pieces, True), kept)
            best = min(best, value + 1.0 + LOSS * risk / total)
        return best


def _occupied(pieces: Pieces) -> int:
    result = 0
    for _, square in pieces:
        result |= chess.BB_SQUARES[square]
    return result


def _bits(mass: Floats) -> int:
    result = 0
    for square in np.flatnonzero(mass > 0.0):
        result |= 1 << int(square)
    return result
