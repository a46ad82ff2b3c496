"""Where the hidden king and its one last unit stand, together: an exact forward filter.

With one enemy unit left (a pawn, knight, bishop, rook or queen; our pawns may stand) the
metaposition's sets stop shrinking. A square of the king's region is cleared only by a
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

When the unit's kind is not known (the sets allow more than one: a piece that took ours
unseen, say, was one of several), there is one array per kind it may be, side by side,
summing to one together: the kinds filter independently and every answer weighs them by
how well it explains it (a check on a file rules out a knight and a bishop; under the
move model a queen's many moves make each of its pairs' moves less likely than a
bishop's). A pawn's promotion is four moves, each taking its share into the array of the
piece it becomes. Not modelled: en passant captures (either side's) and castling; when
one happens the answer agrees with no pair and the caller starts afresh from the sets.

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
from bots.kriegspiel.meta.presence import FLOOR

__all__ = [
    "DIRECTIONS",
    "JointBelief",
    "Outcomes",
    "bools",
    "lone_king_stuck",
    "move_outcomes",
    "placed_after",
    "reply",
    "unit_kinds",
]

Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]
#: The umpire's names of check directions, in the order of their codes.
DIRECTIONS = ("rank", "file", "long_diagonal", "short_diagonal", "knight")
_UNIT_KINDS = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
#: What an enemy pawn may promote to (each a move of its own).
_PROMOTIONS = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)


def bools(masks: list[int]) -> Bools:
    """Bitboards as rows of 64 booleans (square 0 first)."""
    words = np.array(masks, dtype=np.uint64).reshape(-1, 1)
    bits = np.unpackbits(words.view(np.uint8), axis=1, bitorder="little")
    return bits.astype(bool)


_EYE = np.eye(64, dtype=bool)
_KING = bools([chess.BB_KING_ATTACKS[square] for square in range(64)])  #: [a, b] adjacent
_KING_F = _KING.astype(np.float64)
_KNIGHT = bools([chess.BB_KNIGHT_ATTACKS[square] for square in range(64)])
#: [color][a, b]: a pawn of ``color`` on a attacks b (indexed by the colour: False is black)
_PAWN_HITS = [
    bools([chess.BB_PAWN_ATTACKS[color][square] for square in range(64)])
    for color in (chess.BLACK, chess.WHITE)
]
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


def unit_kinds(meta: Metaposition) -> tuple[chess.PieceType, ...]:
    """The kinds the enemy's one unit may be if the filter applies (exactly one unit,
    a pawn among them; our pawns may stand), else none."""
    if meta.units != 1:
        return ()
    return tuple(kind for kind in _UNIT_KINDS if meta.may[kind])


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


def lone_king_stuck(pieces: Pieces, color: chess.Color) -> tuple[Bools, Bools]:
    """For each square of a lone king to move against ``pieces`` (all of ours, spares
    too): (stalemated, mated), each a row of 64 booleans; False where a piece of ours
    stands. A square next to our king is never a pair's, whatever it says there. The
    unit planner's tables know only our king and mating piece: a spare guarding a
    flight turns a capture of the last unit into a stalemate or a mate (seed 17 game 39
    of the conversion screen, repeat 1: Kxc3 left the king on a2 its flights all held,
    a1 and b1 by a spare rook)."""
    occupied = _occupied(pieces)
    held = bools([_attacks_of(pieces, occupied, color)])[0]
    stuck = ~(_KING & ~held[None, :]).any(axis=1)
    empty = ~bools([occupied])[0]
    return stuck & ~held & empty, stuck & held & empty


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


def _pushes(pieces: Pieces, color: chess.Color) -> tuple[Floats, Bools]:
    """[k, u, v]: 1 where the enemy's pawn on ``u`` may move to ``v`` with its king on
    ``k`` (``color``: ours): one or two steps to free squares, or a capture of one of our
    pieces but the king; and [v]: the squares where it promotes (four moves each)."""
    enemy = not color
    occupied = _occupied(pieces)
    ours_king = pieces[0][1]
    step = 8 if enemy == chess.WHITE else -8
    home = 1 if enemy == chess.WHITE else 6
    table = np.zeros((64, 64, 64))
    for u in range(8, 56):
        one = u + step
        if not occupied >> one & 1:
            table[:, u, one] = 1.0
            table[one, u, one] = 0.0
            two = one + step
            if chess.square_rank(u) == home and not occupied >> two & 1:
                table[:, u, two] = 1.0
                table[[one, two], u, two] = 0.0
        for v in chess.SquareSet(chess.BB_PAWN_ATTACKS[enemy][u] & occupied):
            if v != ours_king:
                table[:, u, v] = 1.0
    last = bools([chess.BB_RANK_8 if enemy == chess.WHITE else chess.BB_RANK_1])[0]
    return table, last


def _sees(kind: chess.PieceType, target: int, occupied: int, color: chess.Color) -> Bools:
    """[k, u]: an enemy unit of ``kind`` on ``u`` attacks ``target`` through ``occupied``
    and the king's square ``k`` (``color``: ours)."""
    if kind == chess.KNIGHT:
        return np.broadcast_to(_KNIGHT[target][None, :], (64, 64))
    if kind == chess.PAWN:  # the enemy's pawns that attack target: where ours would be hit
        return np.broadcast_to(_PAWN_HITS[color][target][None, :], (64, 64))
    lines = bools([attacks(kind, chess.BLACK, target, occupied)])[0]
    result: Bools = lines[None, :] & ~_BETWEEN[:, target, :].T
    return result


class Outcomes:
    """What our attempt does in each pair (see :func:`move_outcomes`)."""

    def __init__(self, legal: Bools, captured: Bools, codes: npt.NDArray[np.int64]):
        self.legal = legal  #: [k, u]: the attempt is legal
        self.captured = captured  #: [k, u]: legal and takes the unit
        self.codes = codes  #: [k, u]: the checks it gives (0: none; see :meth:`names`)

    def names(self, code: int) -> tuple[str, ...]:
        """The check directions the umpire announces for ``code``, sorted."""
        found = []
        while code:
            digit = code % 6
            if digit:
                found.append(DIRECTIONS[digit - 1])
            code //= 6
        return tuple(sorted(found))


def placed_after(pieces: Pieces, move: chess.Move) -> Pieces:
    """Our ``pieces`` (king first) after our ``move`` of one of them."""
    return tuple(
        (move.promotion or kind, move.to_square) if square == move.from_square else (kind, square)
        for kind, square in pieces
    )


def move_outcomes(
    kind: chess.PieceType, pieces: Pieces, move: chess.Move, color: chess.Color = chess.WHITE
) -> Outcomes:
    """For each pair (king, unit): is ``move`` (of one of ``pieces``, ours, our king
    first, of ``color``) legal, does it take the unit, and which checks does it give."""
    source, target = move.from_square, move.to_square
    mover = next(kind for kind, square in pieces if square == source)
    after = placed_after(pieces, move)
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
    exposed = _sees(kind, king_after, occupied, color).copy()
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
    return Outcomes(legal, captured, codes)


def reply(
    kind: chess.PieceType, pieces: Pieces, mass: Floats, color: chess.Color = chess.WHITE
) -> tuple[dict[chess.PieceType, Floats], Floats, Floats]:
    """The enemy's move from ``mass`` ([king, unit] of ``kind``, with us having just
    moved to ``pieces``), each pair's mass spread uniformly over its legal moves (a pawn's
    promotion is four moves, one to each piece).

    Returns (``after``, ``mated``, ``stalemated``): ``after`` the mass over the pairs
    after the move, by the unit's kind then (``kind``, or what a pawn promoted to),
    captures of our pieces included (the king or the unit on one of our squares);
    ``mated`` and ``stalemated`` the mass of pairs with no legal move."""
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
    last = np.zeros(64, dtype=bool)
    if kind == chess.KNIGHT:
        jumps = (_KNIGHT & ~_EYE[ours][None, :]).astype(np.float64)  # [u, v]
        unit_count = landing @ jumps.T
    elif kind == chess.PAWN:
        unit, last = _pushes(pieces, color)  # [k, u, v]
        weights = np.where(last, float(len(_PROMOTIONS)), 1.0)
        unit_count = np.einsum("kuv,kv->ku", unit, landing * weights[None, :])
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
        moved = (share @ jumps) * landing
    else:
        moved = np.einsum("ku,kuv->kv", share, unit) * landing
    result = {kind: after + moved * ~last[None, :]}
    promoted = moved * last[None, :]
    if promoted.any():
        result.update((piece, promoted) for piece in _PROMOTIONS)
    return result, mated, stalemated


def checks_on_us(
    kind: chess.PieceType, pieces: Pieces, color: chess.Color = chess.WHITE
) -> npt.NDArray[np.int64]:
    """[k, u]: the direction code + 1 of the unit's check on our king (0: none), with our
    pieces (of ``color``) as in ``pieces`` (after a capture, without the piece taken)."""
    ours = pieces[0][1]
    seen = _sees(kind, ours, _occupied(pieces), color)
    code = np.full(64, 5) if kind == chess.KNIGHT else _LINE_CODE[ours, :] + 1
    return np.where(seen, code[None, :], 0)


class JointBelief:
    """The filter of one stretch of a game with one enemy unit (see the module): a mass
    over (kind, king, unit) kept as one [king, unit] array per kind the unit may be, all
    of them together summing to one. The kinds filter independently (the unit's kind
    never changes: no pawn); an answer weighs each kind by how well it explains it, and a
    kind whose array empties is ruled out."""

    def __init__(
        self, masses: dict[chess.PieceType, Floats], color: chess.Color = chess.WHITE
    ) -> None:
        self.masses = masses
        self.color = color  #: ours

    @property
    def kinds(self) -> tuple[chess.PieceType, ...]:
        """The kinds the unit may still be."""
        return tuple(self.masses)

    @classmethod
    def start(cls, meta: Metaposition, pieces: Pieces) -> JointBelief | None:
        """A filter for ``meta`` at our decision (``pieces`` ours, king first): every
        triple the sets allow and the position does not rule out, the kinds and squares
        weighted by the presence map. ``None`` if the filter does not apply."""
        kinds = unit_kinds(meta)
        if not kinds:
            return None
        belief = cls({}, meta.color)
        masses = {kind: belief._prior(meta, pieces, kind) for kind in kinds}
        return belief if belief._set(masses) else None

    def _prior(self, meta: Metaposition, pieces: Pieces, kind: chess.PieceType) -> Floats:
        """The unnormalised prior of ``kind``: its presence mass spread over its pairs."""
        kings = bools([meta.may[chess.KING]])[0].astype(np.float64)
        units = bools([meta.may[kind]])[0].astype(np.float64)
        share = 1.0
        presence = meta.presence
        if presence is not None:  # as Presence.at: each square's weight kept off 0 and 1
            units = units * np.clip(np.array(presence.weights[kind]), FLOOR, 1.0 - FLOOR)
            share = max(presence.mass[kind], FLOOR)
        mass = kings[:, None] * units[None, :]
        mass *= ~_EYE
        free = ~bools([_occupied(pieces)])[0]
        mass *= free[None, :] & free[:, None]
        attacked = _blocked_attacks(pieces, self.color).T  # [k, u]
        mass *= ~attacked  # at our turn the king is not in check
        mass *= ~_KING[pieces[0][1]][:, None]
        if meta.check_known:
            codes = checks_on_us(kind, pieces, self.color)
            wanted = _code(meta.checks_on_us)
            mass *= codes == wanted if wanted is not None else codes > 0
        total = float(mass.sum())
        prior: Floats = mass * (share / total) if total > 0.0 else mass
        return prior

    def weight(self, kind: chess.PieceType) -> float:
        """The chance that the unit is a ``kind`` (0 if ruled out)."""
        mass = self.masses.get(kind)
        return float(mass.sum()) if mass is not None else 0.0

    def king(self) -> Floats:
        """The king's marginal (64)."""
        result: Floats = sum(mass.sum(axis=1) for mass in self.masses.values())
        return result

    def unit(self, kind: chess.PieceType) -> Floats:
        """The unit's marginal as a ``kind`` (64, summing to :meth:`weight`)."""
        mass = self.masses.get(kind)
        result: Floats = mass.sum(axis=0) if mass is not None else np.zeros(64)
        return result

    def _set(self, masses: dict[chess.PieceType, Floats]) -> bool:
        """Keep ``masses`` normalised, the kinds left empty dropped; False (and nothing
        kept) if all are empty."""
        totals = {kind: float(mass.sum()) for kind, mass in masses.items()}
        total = sum(totals.values())
        if total <= 0.0:
            return False
        self.masses = {kind: mass / total for kind, mass in masses.items() if totals[kind] > 0.0}
        return True

    def our_move(
        self, pieces: Pieces, move: chess.Move, capture: bool, checks: tuple[str, ...]
    ) -> bool:
        """Our ``move`` (from ``pieces``) was accepted, with ``capture`` heard or not and
        ``checks`` announced. False if no triple agrees (the caller starts afresh)."""
        wanted = tuple(sorted(checks))
        masses = {}
        for kind, mass in self.masses.items():
            outcomes = move_outcomes(kind, pieces, move, self.color)
            keep = outcomes.captured if capture else outcomes.legal & ~outcomes.captured
            kept = mass * keep
            agree = np.zeros((64, 64), dtype=bool)
            for code in np.unique(outcomes.codes[kept > 0.0]):
                if outcomes.names(int(code)) == wanted:
                    agree |= outcomes.codes == code
            masses[kind] = kept * agree
        return self._set(masses)

    def refused(self, pieces: Pieces, move: chess.Move) -> bool:
        """Our attempt ``move`` was refused."""
        return self._set(
            {
                kind: mass * ~move_outcomes(kind, pieces, move, self.color).legal
                for kind, mass in self.masses.items()
            }
        )

    def their_move(
        self, pieces: Pieces, capture: chess.Square | None, checks: tuple[str, ...]
    ) -> bool:
        """The enemy moved (``pieces`` ours before it), taking our piece on ``capture``
        or nothing, and giving ``checks``."""
        ours = _occupied(pieces)
        taken = bools([ours])[0]
        left = tuple(piece for piece in pieces if piece[1] != capture)
        wanted = _code(checks)
        moved: dict[chess.PieceType, Floats] = {}
        for kind, mass in self.masses.items():
            for piece, after in reply(kind, pieces, mass, self.color)[0].items():
                moved[piece] = moved[piece] + after if piece in moved else after
        masses = {}
        for kind, after in moved.items():
            if capture is None:
                after = after * ~taken[:, None] * ~taken[None, :]
            else:
                spot = np.zeros((64, 64))
                spot[capture, :] = after[capture, :]
                spot[:, capture] = after[:, capture]
                after = spot
            codes = checks_on_us(kind, left, self.color)
            masses[kind] = after * (codes == wanted if wanted is not None else codes > 0)
        return self._set(masses)

    def restrict(self, meta: Metaposition) -> bool:
        """Keep only triples the metaposition's sets allow (they are sound; a
        disagreement is a model fault, and the caller starts afresh)."""
        kings = bools([meta.may[chess.KING]])[0]
        return self._set(
            {
                kind: mass * kings[:, None] * bools([meta.may[kind]])[0][None, :]
                for kind, mass in self.masses.items()
            }
        )


def _code(checks: tuple[str, ...] | list[str]) -> int | None:
    """The code of :func:`checks_on_us` for announced ``checks`` (one unit: at most one
    check); ``None`` if it cannot be one unit's (then only "some check" is kept)."""
    if not checks:
        return 0
    if len(checks) == 1 and checks[0] in DIRECTIONS:
        return DIRECTIONS.index(checks[0]) + 1
    return None
