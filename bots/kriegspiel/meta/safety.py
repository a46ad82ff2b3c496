"""Our king's safety: the chance that the enemy can mate it next move.

Measured (issue 33, seed 9, wild16, nodes=1000): every game ``kriegspiel-meta:hard``
lost to ``kriegspiel-random`` was lost far ahead, by a mate in one the bot left open
with its king boxed in by its own pieces (a rook on h2 beside the king on h1, a queen
on a8 beside the king on b8) or walked out into the enemy's half. The enemy's units
are mostly unlocated then, so the search never saw a mate coming: no branch asks what
the enemy may do to our king.

:func:`mate_chance` does, on our pieces as they stand after a move: for every square
from which an enemy unit of some kind would check our king, the chance that such a
unit can move there (from the squares its set allows, by the presence map's weights),
times the chance that the check is mate: no piece of ours takes the checker or steps
between, and every flight of the king is covered (by the checker itself, through the
king's square, or by the other units, by their weights; the checker next to the king
must be defended).
"""

from __future__ import annotations

import chess

from bots.kriegspiel.meta.geometry import attacks, forward, last_rank, start_rank
from bots.kriegspiel.meta.metaposition import Metaposition
from bots.kriegspiel.meta.presence import KINDS
from bots.kriegspiel.meta.refusals import lift_proven

PIECES = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)

__all__ = ["HOME", "HOME_FEW", "MATED", "away_from_home", "danger", "mate_chance", "unit_weights"]

#: What being mated next move costs, in centipawns, times its chance (see :func:`danger`).
MATED = 1_500.0

#: What each rank our king stands away from its back rank costs while the enemy keeps
#: pieces (``Searcher._static``): :data:`HOME` while it likely has two pieces or more
#: (the presence map's expected count), else :data:`HOME_FEW`. It was 12 throughout,
#: and the king of game 77 (seed 9), facing a queen, a rook and two bishops, walked from
#: g8 to h4 (every other move exposed a piece a little more, the king guarded the pawn
#: on g5, a step back repeated a placement) until 23 of its 29 moves were mated at once.
HOME = 25.0
HOME_FEW = 12.0


def away_from_home(meta: Metaposition, ranks: int) -> float:
    """What our king ``ranks`` ranks away from its back rank costs (see :data:`HOME`)."""
    presence = meta.presence
    if presence is not None:
        pieces = sum(presence.mass[kind] for kind in PIECES)
    else:
        pieces = float(meta.pieces_max)
    return (HOME if pieces >= 2.0 else HOME_FEW) * ranks


def unit_weights(meta: Metaposition) -> list[list[float]]:
    """The chance that an enemy unit of each kind stands on each square (indexed by
    kind, then square): the presence map's weight inside the kind's set (the set's
    density without one), 0 outside it; a square known to hold a unit, and the squares
    where the piece checking us may stand, hold one unit in all (the presence map does
    not hear either); the squares our king was refused this turn are attacked
    (:func:`~bots.kriegspiel.meta.refusals.lift_proven`)."""
    weights = [[0.0] * 64 for _ in range(7)]
    presence = meta.presence
    may = meta.may
    caps = meta.caps()
    for square in range(64):
        bit = chess.BB_SQUARES[square]
        if may[chess.PAWN] & bit:
            weights[chess.PAWN][square] = (
                min(1.0, presence.weights[chess.PAWN][square])
                if presence is not None
                else meta.density(chess.PAWN)
            )
        kinds = [kind for kind in PIECES if may[kind] & bit and caps[kind]]
        if not kinds:
            continue
        if presence is not None:
            held = min(1.0, sum(presence.weights[kind][square] for kind in PIECES))
        else:
            held = min(1.0, sum(meta.density(kind) for kind in kinds))
        # The kinds of the pieces left are seldom known (a capture says "piece"): the
        # presence map's shares drift (a queen at 0.01 while it mated); each kind the
        # sets allow here takes its share of the material bounds instead.
        total = sum(caps[kind] for kind in kinds)
        for kind in kinds:
            weights[kind][square] = held * caps[kind] / total
    for square in chess.SquareSet(meta.known):
        _lift(weights, meta.may, chess.BB_SQUARES[square])
    if meta.check_zone:
        _lift(weights, meta.checker_sets(), meta.check_zone)
    if meta.attacked:  # our king's steps refused this turn: attacked squares
        lift_proven(meta, weights)
    return weights


def _lift(weights: list[list[float]], may: list[int], mask: int) -> None:
    """Scale the weights on ``mask`` up so that they hold at least one unit (spread
    evenly over the kinds' squares there when they hold nothing)."""
    cells = [(kind, square) for kind in KINDS for square in chess.SquareSet(may[kind] & mask)]
    if not cells:
        return
    held = sum(weights[kind][square] for kind, square in cells)
    if held >= 1.0:
        return
    for kind, square in cells:
        now = weights[kind][square]
        weights[kind][square] = min(1.0, now / held if held > 0.0 else 1.0 / len(cells))


def _none_of(mask: int, row: list[float]) -> float:
    """The chance that no unit of ``row``'s kind stands on any square of ``mask``."""
    free = 1.0
    while mask:
        low = mask & -mask
        free *= 1.0 - row[low.bit_length() - 1]
        mask ^= low
    return free


def _attacked(
    meta: Metaposition,
    weights: list[list[float]],
    square: chess.Square,
    occupied: int,
    ours: int,
    skip: int = 0,
) -> float:
    """The chance that an enemy unit (from a square not in ``ours``, of another kind
    than ``skip``) attacks ``square`` through ``occupied``."""
    color = meta.color
    may = meta.may
    free = 1.0
    for kind in KINDS:
        if not may[kind] or kind == skip:
            continue
        # An enemy unit of ``kind`` attacks ``square`` from where our unit of that kind
        # on ``square`` would attack (a pawn: from our pawn's capture squares).
        sources = attacks(kind, color, square, occupied) & may[kind] & ~ours
        if sources:
            free *= _none_of(sources, weights[kind])
    king_set = may[chess.KING]
    if king_set:
        near = (king_set & chess.BB_KING_ATTACKS[square]).bit_count()
        free *= 1.0 - near / king_set.bit_count()
    return 1.0 - free


def _pawn_sources(meta: Metaposition, target: chess.Square, ours: int, occupied: int) -> int:
    """Squares of the enemy pawn set from which a pawn moves onto ``target``: a capture
    when one of our pieces stands there, else a step (one or two squares)."""
    enemy = not meta.color
    bit = chess.BB_SQUARES[target]
    if bit & ours:
        return chess.BB_PAWN_ATTACKS[meta.color][target] & meta.may[chess.PAWN]
    one = forward(bit, meta.color)  # one square back, from the enemy's side
    sources = one
    if not one & occupied:
        two = forward(one, meta.color)
        if two & start_rank(enemy):
            sources |= two
    return sources & meta.may[chess.PAWN] & ~ours


def mate_chance(
    meta: Metaposition, board: chess.Board, weights: list[list[float]] | None = None
) -> float:
    """The chance that some enemy move mates our king on ``board`` (our pieces after a
    move of ours): see the module. ``weights``: :func:`unit_weights`, computed once per
    decision (computed here when not given)."""
    color = meta.color
    king = board.king(color)
    if king is None or meta.units == 0:
        return 0.0
    if weights is None:
        weights = unit_weights(meta)
    may = meta.may
    ours = board.occupied_co[color]
    occupied = board.occupied
    king_bit = chess.BB_SQUARES[king]
    through = occupied & ~king_bit  # the king steps off its square: lines pass it
    flights = chess.BB_KING_ATTACKS[king] & ~ours
    covered: dict[int, float] = {}
    for flight in chess.SquareSet(flights):
        covered[flight] = _attacked(meta, weights, flight, through, ours)
    # What our other pieces attack (they take a checker) and where they may step (they
    # block a distant one); a pinned piece is taken as free.
    guards = 0
    steps = 0
    others = ours & ~king_bit
    for square in chess.SquareSet(others):
        kind = board.piece_type_at(square)
        assert kind is not None
        if kind == chess.PAWN:
            guards |= chess.BB_PAWN_ATTACKS[color][square]
            push = forward(chess.BB_SQUARES[square], color) & ~occupied
            steps |= push
            if chess.BB_SQUARES[square] & start_rank(color):
                steps |= forward(push, color) & ~occupied
        else:
            reach = attacks(kind, color, square, occupied)
            guards |= reach
            steps |= reach & ~occupied
    safe = 1.0
    promoting = last_rank(not color)
    for kind in KINDS:
        checks = attacks(kind, color, king, occupied) & ~king_bit
        for target in chess.SquareSet(checks):
            if chess.BB_SQUARES[target] & guards:
                continue
            between = chess.between(king, target)
            if between & steps:
                continue
            if kind == chess.PAWN:
                arrive = 1.0 - _none_of(
                    _pawn_sources(meta, target, ours, occupied), weights[chess.PAWN]
                )
            else:
                sources = attacks(kind, color, target, occupied) & may[kind] & ~ours
                arrive = 1.0 - _none_of(sources, weights[kind])
                if kind == chess.QUEEN and chess.BB_SQUARES[target] & promoting:
                    pawns = _pawn_sources(meta, target, ours, occupied)
                    arrive = 1.0 - (1.0 - arrive) * _none_of(pawns, weights[chess.PAWN])
            if arrive <= 0.0:
                continue
            covers = attacks(kind, not color, target, through)
            mate = 1.0
            for flight, attacked in covered.items():
                if flight == target:
                    # The king takes the checker unless another unit defends it (its
                    # own kind's squares left out: they hold the checker itself).
                    skip = 0 if kind == chess.PAWN and not chess.BB_SQUARES[target] & ours else kind
                    mate *= _attacked(meta, weights, target, through, ours, skip)
                elif not chess.BB_SQUARES[flight] & covers:
                    mate *= attacked
                if mate <= 0.0:
                    break
            safe *= 1.0 - arrive * mate
    return 1.0 - safe


def danger(meta: Metaposition, board: chess.Board, weights: list[list[float]]) -> float:
    """What our king's position on ``board`` costs: :data:`MATED` times
    :func:`mate_chance`."""
    return MATED * mate_chance(meta, board, weights)
