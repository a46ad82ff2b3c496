"""A refused king step: an enemy unit attacks the square, so the map holds one there.

The umpire refuses a step of our king onto a square that an enemy unit attacks (a unit
standing on it and defended counts: its defender attacks the square) or that the enemy
king stands next to. Against a lone king ``update`` narrows the king's set; with units
left the refusal was dropped, and the presence map, which had spread the attackers'
weight over their wide sets, kept saying the square was safe. Game 33 of seed 9 (wild16,
against ``kriegspiel-random``, main at 6a983f1): Ke8-f8 and Ke8-f7 were refused, the map
held 0.25 of a unit on the squares from which f8 is attacked, the bot moved its rook
from h8 to f8, and a pawn took it there and promoted with mate.

:func:`attackers_of` lists the (kind, square) cells from which an enemy unit would
attack the square through our pieces (in check, our king's square left open: the
checking slider attacks the squares beyond it). :func:`lift_attackers` makes the
presence map hold one unit in all on them, less the chance that the enemy king is the
one next to the square (the share of its set there): the map diffuses it on, so the
king does not try the step again soon. The map is often wrong about where the units
stand (the pawn that took on f8 had 0.002 of a pawn on g7), so half the unit goes to
the cells in proportion to the map and half evenly over them; each kind's mass is kept
by scaling its other squares. :func:`lift_proven` says, for this turn's decision, that
the squares refused are attacked (``Metaposition.attacked``) in the unit weights of
:mod:`~bots.kriegspiel.meta.safety`, which read the cells as independent.
"""

from __future__ import annotations

import chess

from bots.kriegspiel.meta.geometry import attacks
from bots.kriegspiel.meta.metaposition import Metaposition
from bots.kriegspiel.meta.presence import FLOOR, KINDS

__all__ = ["EVEN", "attackers_of", "king_near", "lift_attackers", "lift_proven"]

#: The share of the lifted unit spread evenly over the attacking cells (the rest goes by
#: the presence map's weights there).
EVEN = 0.5


def attackers_of(
    meta: Metaposition, target: chess.Square, king: chess.Square
) -> list[tuple[int, int]]:
    """The (kind, square) cells of the enemy's sets from which a unit of that kind
    attacks ``target`` through our pieces; while we are in check our king (on ``king``)
    is taken off the board (the checker's line goes on past it), else a slider beyond
    it would be checking us. Only kinds the enemy may still have (on the map)."""
    presence = meta.presence
    own = meta.own
    ours = own.occupied_co[meta.color]
    occupied = own.occupied
    if meta.checks_on_us or not meta.check_known:
        occupied &= ~chess.BB_SQUARES[king]
    cells: list[tuple[int, int]] = []
    for kind in KINDS:
        if presence is not None and presence.mass[kind] <= 0.0:
            continue
        # A unit of ``kind`` attacks ``target`` from where ours on ``target`` would.
        sources = attacks(kind, meta.color, target, occupied) & meta.may[kind] & ~ours
        cells.extend((kind, square) for square in chess.SquareSet(sources))
    return cells


def king_near(meta: Metaposition, target: chess.Square) -> float:
    """The chance that the enemy king stands next to ``target``: its set's share there."""
    king_set = meta.may[chess.KING]
    if not king_set:
        return 0.0
    return (king_set & chess.BB_KING_ATTACKS[target]).bit_count() / king_set.bit_count()


def _shares(weights: list[list[float]], cells: list[tuple[int, int]]) -> list[float]:
    """How the attacker is spread over ``cells``: :data:`EVEN` of it evenly, the rest by
    ``weights`` there (summing to 1)."""
    held = sum(weights[kind][square] for kind, square in cells)
    if held <= 0.0:
        return [1.0 / len(cells)] * len(cells)
    return [
        EVEN / len(cells) + (1.0 - EVEN) * weights[kind][square] / held for kind, square in cells
    ]


def lift_proven(meta: Metaposition, weights: list[list[float]]) -> None:
    """The squares our king was refused this turn (``meta.attacked``) are attacked now:
    scale ``weights`` (a decision's unit weights, :func:`safety.unit_weights`) up on the
    cells that attack each, so that by independent cells (as :mod:`safety` reads them)
    no attacker stands there only with the chance that the enemy king is the one next
    to it. One unit spread over 30 cells leaves none with chance 0.37 that way: the
    refused flight of game 33 counted as covered 0.5 of the time."""
    king = meta.own.king(meta.color)
    if king is None:
        return
    for target in chess.SquareSet(meta.attacked):
        cells = attackers_of(meta, target, king)
        if not cells:
            continue
        empty = min(1.0, max(FLOOR, king_near(meta, target)))
        shares = _shares(weights, cells)
        low, high = 0.0, float(len(cells))
        for _ in range(30):  # the scale at which no cell holds an attacker by ``empty``
            scale = (low + high) / 2.0
            free = 1.0
            for share in shares:
                free *= 1.0 - min(1.0 - FLOOR, scale * share)
            if free > empty:
                low = scale
            else:
                high = scale
        for (kind, square), share in zip(cells, shares, strict=True):
            weights[kind][square] = max(weights[kind][square], min(1.0 - FLOOR, high * share))


def lift_attackers(meta: Metaposition, move: chess.Move) -> None:
    """Our king's step ``move`` was refused with enemy units left: make the presence
    map hold one unit, less the enemy king's share next to the target, on the cells that
    attack the target (see the module)."""
    presence = meta.presence
    if presence is None or meta.units == 0:
        return
    target = move.to_square
    units = 1.0 - king_near(meta, target)
    cells = attackers_of(meta, target, move.from_square)
    if not cells or units <= 0.0:
        return
    weights = presence.weights
    held = sum(weights[kind][square] for kind, square in cells)
    if held >= units:
        return
    before = [sum(row) for row in weights]
    even = EVEN * units / len(cells)
    ratio = (1.0 - EVEN) * units / held if held > 0.0 else 0.0
    if held <= 0.0:
        even = units / len(cells)
    lifted: list[set[int]] = [set() for _ in range(7)]
    for kind, square in cells:
        now = weights[kind][square]
        weights[kind][square] = min(1.0 - FLOOR, max(now, now * ratio + even))
        lifted[kind].add(square)
    for kind in KINDS:
        if not lifted[kind]:
            continue
        row = weights[kind]
        inside = sum(row[square] for square in lifted[kind])
        outside = sum(row) - inside
        if outside > 0.0:
            scale = max(0.0, before[kind] - inside) / outside
            for square in range(64):
                if row[square] and square not in lifted[kind]:
                    row[square] *= scale
