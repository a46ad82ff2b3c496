"""Whether an attempt may be legal, and how likely the umpire is to refuse it.

An illegal attempt costs no move but wastes time and, under most rule sets, tells the
opponent something. What the umpire already said often shows an attempt illegal before
it is made:

- while we are in check (its directions announced), a move of any piece but the king is
  legal only if it takes the checker or steps between it and our king: its target must
  lie in the *check zone* (where the checker may stand) or between it and our king; in a
  double check only the king may move;
- "no pawn tries" (a count of 0, "any?" answered no) means no pawn capture is legal;
- a pawn steps only onto an empty square (a square where a step was refused before,
  ``Metaposition.blockers``, probably still holds its blocker: :data:`BLOCKER_BLOCKS`,
  unless the king may have refused it and cannot stand there now);
- our king steps only onto a square no enemy unit attacks: while a slider checks us, the
  square beyond our king on the checking line, away from every square where the checker
  may stand, is surely attacked (:func:`king_attack_chance`).

:func:`could_be_legal` applies the certain rules; :func:`illegal_chance` estimates the
chance of a refusal for the rest, from where the enemy's units probably stand (the
presence map, :class:`~bots.kriegspiel.meta.presence.Presence`): a unit or the enemy king
on the path (:func:`path_occupancy`), a pawn capture onto an empty square (each
candidate square's presence under the announced number of pawn tries as an exact
constraint, :func:`tries_posterior`), a king step onto a square an enemy unit may attack
(each possible attacker by its presence, :func:`king_attack_chance`).
"""

from __future__ import annotations

import chess

from bots.kriegspiel.meta.geometry import PIECE_KINDS, check_direction
from bots.kriegspiel.meta.metaposition import Metaposition
from bots.kriegspiel.meta.presence import FLOOR, exact_count_posterior

__all__ = [
    "ATTACKER_FLOOR",
    "BLOCKER_BLOCKS",
    "BLOCKER_STAYS",
    "MAYBE",
    "answer_chance",
    "block_squares",
    "capture_chance",
    "could_be_legal",
    "illegal_chance",
    "king_attack_chance",
    "path_occupancy",
    "pin_chance",
    "square_chance",
    "tries_posterior",
]

#: The chance that a unit which refused one of our pawns a step still stands there after
#: the enemy's moves (a blocking pawn cannot step forward; a piece may have left), for
#: planning: a capture onto it, a stalemate's flights.
BLOCKER_STAYS = 0.7
#: The chance that a pawn step onto such a square is refused again. Measured
#: (``benchmarks/kriegspiel_refusals.py``, 40 games of seed 1): 114 of 122 such steps
#: were refused (0.93), against the 0.7 they were estimated at, so they were retried.
BLOCKER_BLOCKS = 0.9

#: The least chance that a unit of a kind stands on a square of its set, for the king's
#: attackers (:func:`king_attack_chance`): the presence map's weights may be 0 inside a
#: set. Measured over every king step offered in 40 games of seed 1
#: (``benchmarks/kriegspiel_refusals.py``, 29,974 steps): with 0.005 the estimates are
#: calibrated (steps estimated 0.1-0.2 refused 12%, 0.2-0.3 20%, 0.3-0.4 33%, 0.4-0.5
#: 44%, 0.5-0.6 51%); with 0 they run low (0.0-0.1: 6%, 0.1-0.2: 16%), with
#: :data:`~bots.kriegspiel.meta.presence.FLOOR` far too high (a ray of 20 squares alone
#: would say 0.33).
ATTACKER_FLOOR = 0.005

#: The least chance of a capture the count seems to rule out (see :func:`capture_chance`).
MAYBE = 0.01

_ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def block_squares(meta: Metaposition) -> int:
    """Where a piece other than our king must land to answer the check on us: every
    square on the announced line from our king up to our own nearest piece (the
    checker and the squares between it and our king lie there), the knight's squares for
    a knight's check; every square when we are not in check, none in a double check."""
    if not meta.checks_on_us:
        return chess.BB_ALL
    if len(meta.checks_on_us) > 1:
        return 0
    king = meta.own.king(meta.color)
    if king is None:
        return chess.BB_ALL
    direction = meta.checks_on_us[0]
    if direction == "knight":
        return chess.BB_KNIGHT_ATTACKS[king]
    own = meta.own.occupied_co[meta.color]
    rays = (
        chess.BB_RANK_ATTACKS[king][chess.BB_RANK_MASKS[king] & own]
        | chess.BB_FILE_ATTACKS[king][chess.BB_FILE_MASKS[king] & own]
        | chess.BB_DIAG_ATTACKS[king][chess.BB_DIAG_MASKS[king] & own]
    ) & ~own
    squares = 0
    for square in chess.SquareSet(rays):
        if check_direction(king, square, False) == direction:
            squares |= chess.BB_SQUARES[square]
    return squares


def could_be_legal(
    meta: Metaposition, move: chess.Move, kind: chess.PieceType, diagonal_pawn: bool
) -> bool:
    """``False`` when what the umpire said shows ``move`` (our piece of ``kind``) illegal
    in every position the metaposition allows (see the module)."""
    if diagonal_pawn and meta.tries == 0:
        return False
    if kind == chess.KING or not meta.checks_on_us:
        return True
    target = chess.BB_SQUARES[move.to_square]
    if diagonal_pawn and target & meta.their_ep:
        return True  # an en passant capture may take a checking pawn from behind it
    return bool(target & block_squares(meta))


def square_chance(meta: Metaposition, square: chess.Square) -> float:
    """The chance, before the tries count, that our pawn capture onto ``square`` finds
    something to take: 1 where a unit is known; for a square where an enemy pawn may
    just have stepped over, the chance that it did; else the square's presence
    (:class:`~bots.kriegspiel.meta.presence.Presence`, or its occupancy without one), at
    least :data:`BLOCKER_STAYS` where a unit refused one of our pawns a step."""
    bit = chess.BB_SQUARES[square]
    if bit & meta.known:
        return 1.0
    presence = meta.presence
    if bit & meta.their_ep and not bit & meta.maybe_units():
        if presence is None:
            return 0.5
        return min(1.0 - FLOOR, max(FLOOR, presence.ep.get(square, 0.0)))
    chance = presence.at(square, meta.may) if presence is not None else meta.occupancy(square)
    if bit & meta.held():
        chance = max(chance, BLOCKER_STAYS)
    return chance


def tries_posterior(
    meta: Metaposition, offered: list[chess.Move] | None = None
) -> dict[chess.Square, float]:
    """The chance that each candidate capture square (:func:`capture_candidates`) holds
    something to take, given the announced number of our legal pawn captures: exactly
    that many of the candidate captures still ``offered`` are legal (a refused one is no
    longer offered, and was not one of them). With one try and two candidates the two
    chances sum to one; without a count, each square's own chance."""
    pairs = capture_candidates(meta, offered)
    counts: dict[chess.Square, int] = {}
    for _, square in pairs:
        counts[square] = counts.get(square, 0) + 1
    squares = sorted(counts)
    priors = [square_chance(meta, square) for square in squares]
    if not meta.tries:
        return dict(zip(squares, priors, strict=True))
    chances = exact_count_posterior(priors, [counts[s] for s in squares], meta.tries)
    return dict(zip(squares, chances, strict=True))


def capture_chance(
    meta: Metaposition, target: chess.Square, offered: list[chess.Move] | None = None
) -> float:
    """The chance that our pawn capture onto ``target`` is legal (see
    :func:`tries_posterior`)."""
    if not chess.BB_SQUARES[target] & (meta.maybe_units() | meta.their_ep):
        return 0.0
    if meta.tries == 0:
        return 0.0
    chance = tries_posterior(meta, offered).get(target)
    if chance is None:
        return square_chance(meta, target)
    # Never certain from the count alone: a pinned pawn of ours (or a check) makes a
    # capture onto an occupied square illegal, so the count can be met elsewhere.
    return max(chance, MAYBE)


def capture_candidates(
    meta: Metaposition, offered: list[chess.Move] | None = None
) -> set[tuple[chess.Square, chess.Square]]:
    """The (pawn, square) captures of ours that may find an enemy unit (or an en-passant
    pawn): among the moves still ``offered`` this turn, or all our pawns' captures."""
    maybe = meta.maybe_units() | meta.their_ep
    own = meta.own
    if offered is None:
        return {
            (pawn, square)
            for pawn in chess.SquareSet(own.pawns & own.occupied_co[meta.color])
            for square in chess.SquareSet(chess.BB_PAWN_ATTACKS[meta.color][pawn] & maybe)
        }
    return {
        (move.from_square, move.to_square)
        for move in offered
        if own.piece_type_at(move.from_square) == chess.PAWN
        and chess.square_file(move.from_square) != chess.square_file(move.to_square)
        and chess.BB_SQUARES[move.to_square] & maybe
    }


def _enemy_king_share(meta: Metaposition, bit: int) -> float:
    """The chance that the enemy king stands on the square ``bit``: its set's share."""
    king_set = meta.may[chess.KING]
    if not king_set & bit:
        return 0.0
    return 1.0 / king_set.bit_count()


def path_occupancy(meta: Metaposition, square: chess.Square) -> float:
    """The chance that an enemy unit, its king included, stands on ``square`` of a
    move's path (so that the move is refused): 1 where a unit is known; else the
    square's presence (:meth:`~bots.kriegspiel.meta.presence.Presence.at`, or the kinds'
    densities without a presence map) or the king's share of its set; at least
    :data:`BLOCKER_BLOCKS` where a unit refused one of our pawns a step (and may stand
    still: :meth:`Metaposition.held`)."""
    bit = chess.BB_SQUARES[square]
    if bit & meta.known:
        return 1.0
    presence = meta.presence
    unit = presence.at(square, meta.may) if presence is not None else meta.occupancy(square)
    chance = 1.0 - (1.0 - unit) * (1.0 - _enemy_king_share(meta, bit))
    if bit & meta.held():
        chance = max(chance, BLOCKER_BLOCKS)
    return chance


def _attacker(meta: Metaposition, kind: chess.PieceType, square: chess.Square) -> float:
    """The chance that an enemy unit of ``kind`` stands on ``square``: its presence
    weight there (at least :data:`ATTACKER_FLOOR`, at most ``1 - FLOOR``; on a square
    known to hold a unit at least an even share of the kinds that may stand there)
    inside the kind's set, its density without a presence map, 0 outside the set."""
    bit = chess.BB_SQUARES[square]
    if not meta.may[kind] & bit:
        return 0.0
    presence = meta.presence
    weight = meta.density(kind) if presence is None else presence.weights[kind][square]
    if bit & meta.known:
        # A unit is there: of this kind at least by an even share of the kinds it may be.
        kinds = sum(1 for other in PIECE_KINDS[:-1] if meta.may[other] & bit)
        weight = max(weight, 1.0 / kinds)
    return min(1.0 - FLOOR, max(ATTACKER_FLOOR, weight))


def _checkers(
    meta: Metaposition, king: chess.Square, density: list[float]
) -> list[tuple[chess.Square, float, float]]:
    """Where the one piece checking our king on ``king`` may stand: each square of
    ``check_zone`` with the weight of a slider that would check from it (the density of
    the kinds that could) and of any other checker (a pawn next to the king, a knight)."""
    may = meta.may
    knight = meta.checks_on_us[0] == "knight"
    result = []
    for square in chess.SquareSet(meta.check_zone):
        bit = chess.BB_SQUARES[square]
        if knight:
            other = density[chess.KNIGHT] if may[chess.KNIGHT] & bit else 0.0
            if bit & meta.known:
                other = max(other, 1e-3)
            result.append((square, 0.0, other))
            continue
        straight = chess.square_file(square) == chess.square_file(king) or chess.square_rank(
            square
        ) == chess.square_rank(king)
        kinds = (chess.ROOK, chess.QUEEN) if straight else (chess.BISHOP, chess.QUEEN)
        slider = sum(density[kind] for kind in kinds if may[kind] & bit)
        if bit & meta.known:
            slider = max(slider, 1e-3)
        pawn = 0.0
        if not straight and chess.square_distance(square, king) == 1 and may[chess.PAWN] & bit:
            pawn = density[chess.PAWN]
        result.append((square, slider, pawn))
    return result


def _checker_beyond(
    meta: Metaposition, king: chess.Square, target: chess.Square, density: list[float]
) -> float:
    """The chance that the piece checking our king on ``king`` still attacks ``target``
    after the king steps there: a slider does when the target lies on its line (beyond
    the king, or between it and the king), a pawn does not. The checker stands somewhere
    in ``check_zone`` (:func:`_checkers`): the chance is the share of the zone, each
    square weighted by the density of the kinds that could check from it, where a slider
    would (1 when the checker can only be a slider on the other side)."""
    if len(meta.checks_on_us) != 1 or meta.checks_on_us[0] == "knight":
        return 0.0
    total = 0.0
    hits = 0.0
    for square, slider, other in _checkers(meta, king, density):
        total += slider + other
        if target != square and chess.BB_RAYS[square][king] & chess.BB_SQUARES[target]:
            hits += slider
    return min(1.0, hits / total) if total > 0.0 else 0.0


def answer_chance(meta: Metaposition, target: chess.Square, density: list[float]) -> float:
    """The chance that a move of ours other than a king's onto ``target`` answers the one
    check on us: it takes the checker, or lands between a checking slider and our king
    (the checker stands in ``check_zone``, weighted as by :func:`_checkers`; a target on
    the announced line but beyond the checker, or on the king's other side, does not).
    1 when we are not in check, or when nothing in the zone can check (the sets missed
    it: let the other estimates speak)."""
    king = meta.own.king(meta.color)
    if len(meta.checks_on_us) != 1 or king is None:
        return 1.0
    total = 0.0
    answers = 0.0
    bit = chess.BB_SQUARES[target]
    for square, slider, other in _checkers(meta, king, density):
        total += slider + other
        if square == target:
            answers += slider + other
        elif chess.between(king, square) & bit:
            answers += slider
    return min(1.0, answers / total) if total > 0.0 else 1.0


def _along_ray(
    meta: Metaposition,
    first: tuple[int, int],
    step: tuple[int, int],
    kinds: tuple[chess.PieceType, chess.PieceType],
    own: int,
    free: float,
    clear: float = 1.0,
) -> float:
    """``free`` times the chance that no enemy slider of ``kinds`` stands on the ray from
    the square ``first`` (file, rank) on by ``step`` with nothing between: each square's
    slider (:func:`_attacker`) counts by the chance ``clear`` that the squares before it
    are free (:func:`path_occupancy`); our own pieces (``own``) and a known unit end it."""
    (f, r), (df, dr) = first, step
    while 0 <= f < 8 and 0 <= r < 8 and clear > 0.01:
        square = chess.square(f, r)
        bit = chess.BB_SQUARES[square]
        if bit & own:
            break
        there = sum(_attacker(meta, kind, square) for kind in kinds)
        free *= 1.0 - clear * min(1.0 - FLOOR, there)
        if bit & meta.known:
            break
        clear *= 1.0 - path_occupancy(meta, square)
        f, r = f + df, r + dr
    return free


def king_attack_chance(
    meta: Metaposition, move: chess.Move, density: list[float] | None = None
) -> float:
    """The chance that an enemy unit attacks the square our king steps onto with
    ``move`` (so that the umpire refuses the step): from every square where a unit that
    would attack it may stand, by the chance that one of that kind stands there
    (:func:`_attacker`: the presence map), a slider only while the squares between are
    free (:func:`path_occupancy`; our pieces block, our king's old square does not); the
    enemy king by the share of its set next to the square; and the checking slider,
    whose line the king cannot step along (:func:`_checker_beyond`). ``density``: the
    decision's densities by piece type (computed when not given), for the checker."""
    if density is None:
        density = [0.0] + [meta.density(kind) for kind in PIECE_KINDS]
    target = move.to_square
    may = meta.may
    own = meta.own.occupied & ~chess.BB_SQUARES[move.from_square]
    free = 1.0
    for kind, reach in (
        (chess.KNIGHT, chess.BB_KNIGHT_ATTACKS[target]),
        (chess.PAWN, chess.BB_PAWN_ATTACKS[meta.color][target]),
    ):
        for square in chess.SquareSet(may[kind] & reach):
            free *= 1.0 - _attacker(meta, kind, square)
    file, rank = chess.square_file(target), chess.square_rank(target)
    for steps, kinds in (
        (_ORTHOGONAL, (chess.ROOK, chess.QUEEN)),
        (_DIAGONAL, (chess.BISHOP, chess.QUEEN)),
    ):
        for df, dr in steps:
            free = _along_ray(meta, (file + df, rank + dr), (df, dr), kinds, own, free)
    king_set = may[chess.KING]
    if king_set:
        near = (king_set & chess.BB_KING_ATTACKS[target]).bit_count()
        free *= 1.0 - near / king_set.bit_count()
    free *= 1.0 - _checker_beyond(meta, move.from_square, target, density)
    return 1.0 - free


def pin_chance(meta: Metaposition, move: chess.Move) -> float:
    """The chance that our piece moving with ``move`` is pinned to our king by an unseen
    slider and leaves the line (so that the umpire refuses it): our piece may be pinned
    (:meth:`Metaposition.could_be_pinned`) and moves off the line; a slider of the line's
    kinds stands beyond it (:func:`_attacker`, the presence map), by the chance that the
    squares between it and our king are free (:func:`path_occupancy`)."""
    king = meta.own.king(meta.color)
    start = move.from_square
    if king is None or not meta.could_be_pinned(start):
        return 0.0
    if chess.BB_RAYS[king][start] & chess.BB_SQUARES[move.to_square]:
        return 0.0  # it stays on the line
    own = meta.own.occupied
    clear = 1.0
    for square in chess.SquareSet(chess.between(king, start)):
        clear *= 1.0 - path_occupancy(meta, square)
    df = (chess.square_file(start) > chess.square_file(king)) - (
        chess.square_file(start) < chess.square_file(king)
    )
    dr = (chess.square_rank(start) > chess.square_rank(king)) - (
        chess.square_rank(start) < chess.square_rank(king)
    )
    kinds = (chess.BISHOP, chess.QUEEN) if df and dr else (chess.ROOK, chess.QUEEN)
    first = (chess.square_file(start) + df, chess.square_rank(start) + dr)
    return 1.0 - _along_ray(meta, first, (df, dr), kinds, own, 1.0, clear)


def illegal_chance(
    meta: Metaposition,
    move: chess.Move,
    offered: list[chess.Move] | None = None,
    density: list[float] | None = None,
) -> float:
    """A rough chance that the umpire refuses ``move`` (1 when :func:`could_be_legal`
    says it cannot be); ``offered``: the attempts still open this turn (see
    :func:`capture_chance`); ``density``: the decision's densities by piece type."""
    own = meta.own
    kind = own.piece_type_at(move.from_square)
    if kind is None:
        return 1.0
    diagonal_pawn = kind == chess.PAWN and chess.square_file(move.from_square) != chess.square_file(
        move.to_square
    )
    if not could_be_legal(meta, move, kind, diagonal_pawn):
        return 1.0
    answers = 1.0
    if meta.checks_on_us and kind != chess.KING:
        if density is None:
            density = [0.0] + [meta.density(each) for each in PIECE_KINDS]
        en_passant = diagonal_pawn and chess.BB_SQUARES[move.to_square] & meta.their_ep
        answers = 1.0 if en_passant else answer_chance(meta, move.to_square, density)
    unpinned = 1.0 if kind == chess.KING else 1.0 - pin_chance(meta, move)
    if diagonal_pawn:
        return 1.0 - min(answers, capture_chance(meta, move.to_square, offered)) * unpinned
    free = answers * unpinned
    path = chess.between(move.from_square, move.to_square)
    if kind == chess.PAWN:
        path |= chess.BB_SQUARES[move.to_square]
    for square in chess.SquareSet(path):
        free *= 1.0 - path_occupancy(meta, square)
    if kind == chess.KING and chess.square_distance(move.from_square, move.to_square) == 1:
        free *= 1.0 - king_attack_chance(meta, move, density)
    return 1.0 - free
