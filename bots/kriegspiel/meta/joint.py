"""Where the hidden king and its one last unit stand, together: an exact forward filter.

With one enemy unit left (a knight, bishop, rook or queen; no enemy pawn, ours may stand)
the metaposition's sets stop shrinking. A square of the king's region is cleared only by a
line on which no square may hold the unit, and an unseen knight may stand almost
anywhere, so the king's region stays near 50 squares for the whole endgame (round thirty
of issue 33, ``docs/kriegspiel_meta.md``). The sets forget what silence says jointly: after
our queen's move nobody was checked, so *either* the king is off her lines *or* the unit
stands between. :class:`JointBelief` keeps that: a probability over the pairs (the king's
square, the unit's square), a 64 x 64 array, conditioned on every answer exactly.

- **Our move** (:meth:`JointBelief.our_move`): the pairs in which it was legal (the unit
  not on its path, our king not left attacked by the unit, our king not next to theirs),
  the capture heard or not, and exactly the check directions announced.
- **Our refused attempt** (:meth:`JointBelief.refused`): the pairs in which it is illegal.
- **Their move** (:meth:`JointBelief.their_move`): each pair's mass spread uniformly over
  the enemy's legal moves there (king steps and unit moves together). That is exactly how
  ``kriegspiel-random`` plays (it retries refused attempts at random, so it plays
  uniformly among its legal moves); against another opponent the weights are a model but
  the support is still exact. Then the capture heard (or none) and the checks on our king.

The enemy's refused attempts are not used (a coarser posterior, still a true one). The
arrays are indexed ``[king, unit]``; everything is computed on numpy arrays over all
pairs at once (:func:`reply` is also the planner's model of the enemy's move, see
:mod:`~bots.kriegspiel.meta.unit`).
"""

from __future__ import annotations

import chess
import numpy as np
import numpy.typing as npt

from bots.kriegspiel.meta.geometry import SLIDERS, attacks
from bots.kriegspiel.meta.mate import Pieces
from bots.kriegspiel.meta.metaposition import Metaposition

__all__ = [
    "DIRECTIONS",
    "JointBelief",
    "Outcomes",
    "bools",
    "move_outcomes",
    "reply",
    "unit_kind",
]

Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]
#: The umpire's names of check directions, in the order of their codes.
DIRECTIONS = ("rank", "file", "long_diagonal", "short_diagonal", "knight")
_UNIT_KINDS = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)


def bools(masks: list[int]) -> Bools:
    """Bitboards as rows of 64 booleans (square 0 first)."""
    words = np.array(masks, dtype=np.uint64).reshape(-1, 1)
    bits = np.unpackbits(words.view(np.uint8), axis=1, bitorder="little")
    return bits.astype(bool)


_EYE = np.eye(64, dtype=bool)
_KING = bools([chess.BB_KING_ATTACKS[square] for square in range(64)])  #: [a, b] adjacent
_KING_F = _KING.astype(np.float64)
_KNIGHT = bools([chess.BB_KNIGHT_ATTACKS[square] for square in range(64)])
#: [a, b, c]: c lies strictly between a and b on a line (python-chess's ``between``)
_BETWEEN = bools([chess.between(a, b) for a in range(64) for b in range(64)]).reshape(64, 64, 64)


def _direction(king: int, checker: int, knight: bool) -> int:
    """The code (index in :data:`DIRECTIONS`) of a check on ``king`` from ``checker``."""
    if knight:
        return 4
    if chess.square_rank(king) == chess.square_rank(checker):
        return 0
    if chess.square_file(king) == chess.square_file(checker):
        return 1
    file, rank = chess.square_file(king), chess.square_rank(king)
    rising, falling = 8 - abs(file - rank), 8 - abs(file + rank - 7)
    on_rising = file - rank == chess.square_file(checker) - chess.square_rank(checker)
    mine, other = (rising, falling) if on_rising else (falling, rising)
    return 2 if mine > other else 3


#: [king, checker]: the direction code of a line check (knight checks are code 4)
_LINE_CODE = np.array([[_direction(k, c, False) for c in range(64)] for k in range(64)])


def unit_kind(meta: Metaposition) -> chess.PieceType | None:
    """The kind of the enemy's one unit if the filter applies: exactly one unit, not a
    pawn, and a single kind the unit may be (our pawns may stand)."""
    if meta.units != 1 or meta.may[chess.PAWN]:
        return None
    kinds = [kind for kind in _UNIT_KINDS if meta.may[kind]]
    return kinds[0] if len(kinds) == 1 else None


def _occupied(pieces: Pieces) -> int:
    result = 0
    for _, square in pieces:
        result |= chess.BB_SQUARES[square]
    return result


def _attacks_of(pieces: Pieces, occupied: int, color: chess.Color) -> int:
    result = 0
    for kind, square in pieces:
        result |= attacks(kind, color, square, occupied)
    return result


def _blocked_attacks(pieces: Pieces, color: chess.Color) -> Bools:
    """[u, s]: our pieces attack ``s`` when the unit stands on ``u`` (a blocker)."""
    occupied = _occupied(pieces)
    if not any(kind in SLIDERS for kind, _ in pieces):
        return np.repeat(bools([_attacks_of(pieces, occupied, color)]), 64, axis=0)
    return bools([_attacks_of(pieces, occupied | (1 << u), color) for u in range(64)])


def _slides(kind: chess.PieceType, pieces: Pieces) -> npt.NDArray[np.float64]:
    """[k, u, v]: 1 where a sliding unit on ``u`` may move to ``v`` with the king on
    ``k`` (through our pieces' squares it may not pass; it may land on them, not on either
    king): its moves on our board, less those past the king or onto it. A knight's moves
    do not depend on ``k``: :func:`reply` takes them from ``_KNIGHT``."""
    occupied = _occupied(pieces)
    ours_king = chess.BB_SQUARES[pieces[0][1]]
    base = bools([attacks(kind, chess.BLACK, u, occupied) & ~ours_king for u in range(64)])
    past = _BETWEEN.transpose(2, 0, 1)  # [k, u, v]: k stands between u and v
    table = base[None, :, :] & ~past & ~_EYE[:, None, :]
    result: npt.NDArray[np.float64] = table.astype(np.float64)
    return result


def _sees(kind: chess.PieceType, target: int, occupied: int) -> Bools:
    """[k, u]: a unit of ``kind`` on ``u`` attacks ``target`` through ``occupied`` and the
    king's square ``k``."""
    if kind == chess.KNIGHT:
        return np.broadcast_to(_KNIGHT[target][None, :], (64, 64))
    lines = bools([attacks(kind, chess.BLACK, target, occupied)])[0]
    result: Bools = lines[None, :] & ~_BETWEEN[:, target, :].T
    return result


class Outcomes:
    """What our attempt does in each pair (see :func:`move_outcomes`)."""

    def __init__(self, legal: Bools, captured: Bools, codes: npt.NDArray[np.int64], after: Pieces):
        self.legal = legal  #: [k, u]: the attempt is legal
        self.captured = captured  #: [k, u]: legal and takes the unit
        self.codes = codes  #: [k, u]: the checks it gives (0: none; see :meth:`names`)
        self.after = after  #: our pieces after it

    def names(self, code: int) -> tuple[str, ...]:
        """The check directions the umpire announces for ``code``, sorted."""
        found = []
        while code:
            digit = code % 6
            if digit:
                found.append(DIRECTIONS[digit - 1])
            code //= 6
        return tuple(sorted(found))


def move_outcomes(
    kind: chess.PieceType, pieces: Pieces, move: chess.Move, color: chess.Color = chess.WHITE
) -> Outcomes:
    """For each pair (king, unit): is ``move`` (of one of ``pieces``, ours, our king
    first, of ``color``) legal, does it take the unit, and which checks does it give."""
    source, target = move.from_square, move.to_square
    at = next(i for i, (_, square) in enumerate(pieces) if square == source)
    mover = pieces[at][0]
    after = tuple(
        (move.promotion or k if i == at else k, target if i == at else s)
        for i, (k, s) in enumerate(pieces)
    )
    occupied = _occupied(after)
    king_after = after[0][1]
    legal = np.ones((64, 64), dtype=bool)
    if mover in SLIDERS:
        path = _BETWEEN[source, target]
        legal &= ~path[:, None] & ~path[None, :]
    if mover == chess.KING:
        legal &= ~_KING[target][:, None]
    if mover == chess.PAWN:
        if chess.square_file(source) != chess.square_file(target):
            legal &= (np.arange(64) == target)[None, :]  # a capture needs the unit there
        else:
            cells = bools([chess.BB_SQUARES[target] | chess.between(source, target)])[0]
            legal &= ~cells[:, None] & ~cells[None, :]
    exposed = _sees(kind, king_after, occupied).copy()
    exposed[:, target] = False  # the unit taken there attacks nothing
    legal &= ~exposed
    captured = legal & (np.arange(64) == target)[None, :]
    codes = np.zeros((64, 64), dtype=np.int64)
    scale = 1
    for piece, square in after[1:]:
        reach = bools([attacks(piece, color, square, occupied)])[0]
        checks = reach[:, None] & ~_BETWEEN[square, :, :]
        code = np.full(64, 5) if piece == chess.KNIGHT else _LINE_CODE[:, square] + 1
        codes += checks * (code[:, None] * scale)
        scale *= 6
    return Outcomes(legal, captured, codes, after)


def reply(
    kind: chess.PieceType, pieces: Pieces, mass: Floats, color: chess.Color = chess.WHITE
) -> tuple[Floats, Floats, Floats]:
    """The enemy's move from ``mass`` ([king, unit] with us having just moved to
    ``pieces``), each pair's mass spread uniformly over its legal moves.

    Returns (``after``, ``mated``, ``stalemated``): ``after`` the mass over the pairs
    after the move, captures of our pieces included (the king or the unit on one of our
    squares); ``mated`` and ``stalemated`` the mass of pairs with no legal move."""
    ours = pieces[0][1]
    blocked = _blocked_attacks(pieces, color)  # [u, s]
    near = _KING[ours] | _EYE[ours]
    steps = ~blocked & ~near[None, :] & ~_EYE  # [u, k']: the king may step to k'
    step_count = _KING_F @ steps.T.astype(np.float64)  # [k, u]
    lands = ~blocked  # [v, k]: after the unit's move to v the king is safe
    occupied = _occupied(pieces)
    for _piece, square in pieces[1:]:
        others = tuple(p for p in pieces if p[1] != square)
        lands[square, :] = ~bools([_attacks_of(others, occupied, color)])[0]
    lands[ours, :] = False
    landing = (lands.T & ~_EYE).astype(np.float64)  # [k, v]: never onto its own king
    if kind == chess.KNIGHT:
        jumps = (_KNIGHT & ~_EYE[ours][None, :]).astype(np.float64)  # [u, v]
        unit_count = landing @ jumps.T
    else:
        unit = _slides(kind, pieces)  # [k, u, v]
        unit_count = np.einsum("kuv,kv->ku", unit, landing)
    count = step_count + unit_count
    live = mass > 0.0
    stuck = live & (count == 0)
    in_check = blocked.T  # [k, u]: the king on k attacked with the unit on u
    mated = np.where(stuck & in_check, mass, 0.0)
    stalemated = np.where(stuck & ~in_check, mass, 0.0)
    share = np.divide(mass, count, out=np.zeros_like(mass), where=count > 0)
    after = (_KING_F @ share) * steps.T
    if kind == chess.KNIGHT:
        after += (share @ jumps) * landing
    else:
        after += np.einsum("ku,kuv->kv", share, unit) * landing
    return after, mated, stalemated


def checks_on_us(kind: chess.PieceType, pieces: Pieces) -> npt.NDArray[np.int64]:
    """[k, u]: the direction code + 1 of the unit's check on our king (0: none), with our
    pieces as in ``pieces`` (after a capture, ``pieces`` without the piece taken)."""
    ours = pieces[0][1]
    seen = _sees(kind, ours, _occupied(pieces))
    code = np.full(64, 5) if kind == chess.KNIGHT else _LINE_CODE[ours, :] + 1
    return np.where(seen, code[None, :], 0)


class JointBelief:
    """The filter of one stretch of a game with one enemy unit (see the module)."""

    def __init__(
        self, kind: chess.PieceType, mass: Floats, color: chess.Color = chess.WHITE
    ) -> None:
        self.kind = kind
        self.mass = mass
        self.color = color  #: ours

    @classmethod
    def start(cls, meta: Metaposition, pieces: Pieces) -> JointBelief | None:
        """A filter for ``meta`` at our decision (``pieces`` ours, king first): every
        pair the sets allow and the position does not rule out, the unit weighted by the
        presence map. ``None`` if the filter does not apply."""
        kind = unit_kind(meta)
        if kind is None:
            return None
        belief = cls(kind, np.zeros((64, 64)), meta.color)
        belief.mass = belief._prior(meta, pieces)
        return belief if belief.mass.sum() > 0.0 else None

    def _prior(self, meta: Metaposition, pieces: Pieces) -> Floats:
        kings = bools([meta.may[chess.KING]])[0].astype(np.float64)
        units = bools([meta.may[self.kind]])[0].astype(np.float64)
        presence = meta.presence
        if presence is not None:
            weights = np.array([presence.at(square, meta.may) for square in range(64)])
            if float((weights * units).sum()) > 0.0:
                units = units * np.maximum(weights, 1e-3)
        mass = kings[:, None] * units[None, :]
        mass *= ~_EYE
        free = ~bools([_occupied(pieces)])[0]
        mass *= free[None, :] & free[:, None]
        attacked = _blocked_attacks(pieces, self.color).T  # [k, u]
        mass *= ~attacked  # at our turn the king is not in check
        mass *= ~_KING[pieces[0][1]][:, None]
        if meta.check_known:
            codes = checks_on_us(self.kind, pieces)
            wanted = _code(meta.checks_on_us)
            mass *= codes == wanted if wanted is not None else codes > 0
        total = float(mass.sum())
        prior: Floats = mass / total if total > 0.0 else mass
        return prior

    def king(self) -> Floats:
        """The king's marginal (64)."""
        result: Floats = self.mass.sum(axis=1)
        return result

    def unit(self) -> Floats:
        """The unit's marginal (64)."""
        result: Floats = self.mass.sum(axis=0)
        return result

    def _set(self, mass: Floats) -> bool:
        total = float(mass.sum())
        if total <= 0.0:
            return False
        self.mass = mass / total
        return True

    def our_move(
        self, pieces: Pieces, move: chess.Move, capture: bool, checks: tuple[str, ...]
    ) -> bool:
        """Our ``move`` (from ``pieces``) was accepted, with ``capture`` heard or not and
        ``checks`` announced. False if no pair agrees (the caller starts afresh)."""
        outcomes = move_outcomes(self.kind, pieces, move, self.color)
        keep = outcomes.captured if capture else outcomes.legal & ~outcomes.captured
        mass = self.mass * keep
        wanted = tuple(sorted(checks))
        agree = np.zeros((64, 64), dtype=bool)
        for code in np.unique(outcomes.codes[mass > 0.0]):
            if outcomes.names(int(code)) == wanted:
                agree |= outcomes.codes == code
        return self._set(mass * agree)

    def refused(self, pieces: Pieces, move: chess.Move) -> bool:
        """Our attempt ``move`` was refused."""
        outcomes = move_outcomes(self.kind, pieces, move, self.color)
        return self._set(self.mass * ~outcomes.legal)

    def their_move(
        self, pieces: Pieces, capture: chess.Square | None, checks: tuple[str, ...]
    ) -> bool:
        """The enemy moved (``pieces`` ours before it), taking our piece on ``capture``
        or nothing, and giving ``checks``."""
        after, _, _ = reply(self.kind, pieces, self.mass, self.color)
        ours = _occupied(pieces)
        if capture is None:
            taken = bools([ours])[0]
            after = after * ~taken[:, None] * ~taken[None, :]
            left = pieces
        else:
            spot = np.zeros((64, 64))
            spot[capture, :] = after[capture, :]
            spot[:, capture] = after[:, capture]
            after = spot
            left = tuple(piece for piece in pieces if piece[1] != capture)
        wanted = _code(checks)
        codes = checks_on_us(self.kind, left)
        after = after * (codes == wanted if wanted is not None else codes > 0)
        return self._set(after)

    def restrict(self, meta: Metaposition) -> bool:
        """Keep only pairs the metaposition's sets allow (they are sound; a disagreement
        is a model fault, and the caller starts afresh)."""
        kings = bools([meta.may[chess.KING]])[0]
        units = bools([meta.may[self.kind]])[0]
        return self._set(self.mass * kings[:, None] * units[None, :])


def _code(checks: tuple[str, ...] | list[str]) -> int | None:
    """The code of :func:`checks_on_us` for announced ``checks`` (one unit: at most one
    check); ``None`` if it cannot be one unit's (then only "some check" is kept)."""
    if not checks:
        return 0
    if len(checks) == 1 and checks[0] in DIRECTIONS:
        return DIRECTIONS.index(checks[0]) + 1
    return None
