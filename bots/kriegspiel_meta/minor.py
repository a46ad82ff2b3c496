"""KBB vs K and KBN vs K: play by the chess distance to mate over the king's region.

With king and two minor pieces against a lone king, the heuristic search has no plan:
the region's size and the box do not know the bishops' technique (44.5% of KBB vs K
starts mated against a random king, 4.5% against one heading for the centre). Here
the chess distance to mate of :mod:`bots.kriegspiel_meta.minor_dtm` does, square by
square of the region where the hidden king may stand:

- every attempt of ours is judged as :func:`bots.kriegspiel_meta.mate.answer` does: an
  attempt after which the king might be stalemated or take a piece of ours (a bishop
  next to a possible king square must be defended) is never made;
- its worth is the distance to mate of each answer's region after the king's reply,
  where each answer (silence, a check and its directions) is followed by our *best
  next move for that region*: two of our moves deep, so that a check that splits the
  region is worth its information. A region's worth mixes its worst square (the chess
  distance against the king that defends best) with the mean over its squares;
- the room the king keeps counts too: the size of its region after its reply and of
  its box (:func:`~bots.kriegspiel_meta.endgames.box`), at our first move and, by half,
  at our second: without it the bot centralised and waited while a king on the rim
  kept a region of 35 squares;
- a placement of our pieces seen before costs more each time, and much more the third
  time (a threefold repetition draws, and the same probe teaches nothing new).

:class:`MinorEndgame` answers ``None`` outside these endgames, or when no attempt is
safe, which happens early on: the region is then so wide that every placement of the
bishops touches it (two bishops never defend each other), and the caller's search,
which weighs the chance of a loss, plays instead.
"""

from __future__ import annotations

import random
from collections import Counter

import chess
import numpy as np
import numpy.typing as npt

from bots.kriegspiel_meta.dtm import UNKNOWN
from bots.kriegspiel_meta.endgames import box
from bots.kriegspiel_meta.geometry import attacks
from bots.kriegspiel_meta.mate import Answer, Pieces, answer
from bots.kriegspiel_meta.metaposition import Metaposition
from bots.kriegspiel_meta.minor_dtm import KINDS, MinorTable, index, minor_kinds, ready

__all__ = ["MEAN_WEIGHT", "REPEAT_COST", "MinorEndgame"]

#: How much the mean over a region's squares counts next to its worst square.
MEAN_WEIGHT = 0.5
#: The cost (in plies) of each square of the king's region after its reply, and of
#: each square of the room our pieces leave it (:func:`~bots.kriegspiel_meta.endgames.box`).
SIZE_WEIGHT = 0.3
BOX_WEIGHT = 0.3
#: How much the room of the region counts after our second move.
SECOND_ROOM = 0.5
#: The extra cost of placing our pieces a third time as before (a threefold repetition
#: if the king stands where it stood).
THIRD_TIME = 300.0
#: What a placement of our pieces costs (in plies) for each time it was seen before.
REPEAT_COST = 6.0
#: The worth of a square the table calls a draw (never chosen while anything mates).
_DRAWN = 200.0
#: The worth of an answer after which no next move of ours is safe.
_STUCK = 150.0

_Floats = npt.NDArray[np.float64]
_BITS = np.array([1 << square for square in range(64)], dtype=np.uint64)


def _mask(region: int) -> npt.NDArray[np.bool_]:
    """The squares of ``region`` as 64 booleans."""
    mask: npt.NDArray[np.bool_] = (np.uint64(region) & _BITS) != 0
    return mask


def _row(minor: MinorTable, pieces: Pieces, turn_white: bool) -> _Floats:
    """Plies to mate for every square of the king, our pieces as in ``pieces``."""
    (_, king), (first_kind, first), (_, second) = pieces
    if first_kind != chess.BISHOP:  # a knight sorts before the bishop
        first, second = second, first
    start = index(king, first, second, 0)
    raw = (minor.white if turn_white else minor.black)[start : start + 64].astype(np.float64)
    raw[raw == UNKNOWN] = _DRAWN
    return raw


def _worth(values: _Floats, mask: npt.NDArray[np.bool_]) -> float:
    chosen = values[mask]
    if chosen.size == 0:
        return 0.0
    return float(chosen.max() + MEAN_WEIGHT * chosen.mean())


def _covered(pieces: Pieces) -> int:
    """Every square our pieces attack (sliders see through the king's square)."""
    occupied = 0
    for _, square in pieces:
        occupied |= chess.BB_SQUARES[square]
    covered = 0
    for kind, square in pieces:
        covered |= attacks(kind, chess.WHITE, square, occupied)
    return covered


def _room(region: int, covered: int) -> float:
    """The cost of the king's region after its reply: its size and its box."""
    return SIZE_WEIGHT * region.bit_count() + BOX_WEIGHT * box(region, covered).bit_count()


def _outcome(pieces: Pieces, region: int, at: int, target: int) -> Answer | None:
    """:func:`bots.kriegspiel_meta.mate.answer` (``None`` when the king may then be
    stalemated or take a piece of ours: never staked), our pieces kept sorted after the
    king so that a placement has one name."""
    result = answer(pieces, region, at, target)
    if result is None:
        return None
    after, refused, regions = result
    return (after[0], *sorted(after[1:])), refused, regions


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


class MinorEndgame:
    """Chooses attempts in KBB vs K and KBN vs K (see the module); keeps the placements
    of our pieces seen this game."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.seen: Counter[Pieces] = Counter()
        self.last: Pieces | None = None

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
        """The attempt to make, or ``None`` (not these endgames, or nothing safe)."""
        if not self.applies(meta):
            return None
        kinds = minor_kinds(meta.own, meta.color)
        assert kinds is not None
        minor = ready(KINDS[kinds[0]])
        if minor is None:  # its table is being built: the search plays meanwhile
            return None
        pieces = self._pieces(meta)
        region = meta.may[chess.KING]
        if pieces != self.last:  # a refused attempt asks again from the same placement
            self.seen[pieces] += 1
            self.last = pieces
        offered = set(attempts)
        scored: list[tuple[float, str]] = []
        for at, target in _moves(pieces):
            uci = chess.Move(pieces[at][1], target).uci()
            if uci not in offered:
                continue
            value = self._value(minor, pieces, region, at, target)
            if value is not None:
                scored.append((value, uci))
        if not scored:
            return None
        best = min(value for value, _ in scored)
        tied = sorted(uci for value, uci in scored if value <= best + 1e-9)
        return self.rng.choice(tied)

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
        self, minor: MinorTable, pieces: Pieces, region: int, at: int, target: int
    ) -> float | None:
        """The attempt's worth in plies to mate (lower is better); ``None`` if the
        king may then take a piece of ours or be stalemated."""
        result = _outcome(pieces, region, at, target)
        if result is None:
            return None
        after, refused, regions = result
        if not refused and not regions:
            return -1_000.0  # mate whatever the king does
        total = max(1, refused.bit_count() + sum(part.bit_count() for part in regions))
        worst = 0.0
        mean = 0.0
        covered = _covered(after)
        for part in regions:
            value = self._reply(minor, after, part) + _room(part, covered)
            worst = max(worst, value)
            mean += value * part.bit_count() / total
        if refused:
            # The king is next to the target: we stay as we are and know more.
            value = _worth(_row(minor, pieces, True), _mask(refused))
            worst = max(worst, value)
            mean += value * refused.bit_count() / total
        seen = self.seen[after]
        repeat = REPEAT_COST * seen + (THIRD_TIME if seen >= 2 else 0.0)
        return worst + MEAN_WEIGHT * mean + repeat

    def _reply(self, minor: MinorTable, pieces: Pieces, region: int) -> float:
        """The worth of the king somewhere in ``region`` with us to move: our best next
        move's worst case (chess plies to mate, Black to move after it)."""
        best = _STUCK
        for at, target in _moves(pieces):
            result = _outcome(pieces, region, at, target)
            if result is None:
                continue
            after, refused, parts = result
            legal = region & ~refused
            value = _worth(_row(minor, after, False), _mask(legal)) if legal else 0.0
            if parts and SECOND_ROOM:
                covered = _covered(after)
                value += SECOND_ROOM * max(_room(part, covered) for part in parts)
            if refused:
                value = max(value, _worth(_row(minor, pieces, True), _mask(refused)))
            best = min(best, value + 1.0)
        return best
