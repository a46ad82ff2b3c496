"""Converting won positions: forced mates on a king that must move, with pawns standing still.

:class:`~bots.kriegspiel.meta.mate.MateSearch` mates a lone king with our pieces only: our
pawns are out of its scope (their moves and promotions make other answers), and so is a
king whose units are all pawns blocked in front of ours (:func:`search.jammed`), which
must move as a lone one does. Both are common when a game is won: the replays of the
fifty-move draws of issue 33 (seed 9, wild16, nodes=1000) found game 121 with four
queens, two rooks, a bishop and two knights against a king shuttling between h2 and h3
(its region three squares, its pawns g4 and h5 blocked by ours on g5 and h6) for fifty
moves: the forced-mate search was never asked (pawns on the board), and the one-move
search, by the worst case over the region, found no single move that mates on every
square of it.

:class:`PawnsStill` is the same AND-OR search as ``mate.py`` (our attempts are OR nodes,
the umpire's answers AND nodes, the king's region split by check directions and widened
by its flights), over a *field* that holds what stands still in the plan: our pawns
(they occupy their squares, attack theirs, and are never moved by the plan, so no
promotion or pawn answer enters it), and the enemy's blocked pawns (*walls*: they
occupy their squares, block our lines, the king cannot step onto them, and no piece of
ours may stand where they attack). Where a piece of ours, a pawn included, stands next
to a square of the region undefended, or a square of the region would be stalemated,
the plan fails, as in ``mate.py``. A blocker is a hint (the refusal may have come from
the king), so a mate found is a plan, not a certainty; the next decision re-plans from
what the umpire said.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import chess

from bots.kriegspiel.meta.geometry import (
    PIECE_KINDS,
    SLIDERS,
    VALUES,
    attacks,
    forward,
    pawn_pushes,
    uncapturing,
)
from bots.kriegspiel.meta.mate import check_groups, neighbours
from bots.kriegspiel.meta.metaposition import Metaposition
from bots.sdk.budget import tick

__all__ = ["DEPTH", "Field", "PawnsStill", "far_ahead", "field_of", "jammed_pawns"]

#: How many of our moves the search looks ahead (iterative deepening from 1).
DEPTH = 5
#: The most positions one decision examines (besides the time or node budget).
MAX_NODES = 20_000
#: The memo is cleared beyond this many entries.
MEMORY = 200_000

#: Our pieces besides pawns: (kind, square), the king first.
Pieces = tuple[tuple[int, int], ...]


class _OutOfTime(Exception):
    pass


@dataclass(frozen=True, slots=True)
class Field:
    """What stands still in a plan: our ``pawns`` and what they ``guard`` (attack), the
    enemy's blocked pawns (``walls``) and the squares those attack (``danger``: no piece
    of ours may stand there)."""

    color: chess.Color
    pawns: int
    guard: int
    walls: int
    danger: int
    #: Whether the king may stay (some enemy unit may move instead: :func:`field_of`),
    #: and the squares such units may step onto (``reach``: a check across them may be
    #: blocked) or attack (folded into ``danger``).
    stay: bool = False
    reach: int = 0
    #: Where an enemy unit may stand besides the walls (may-stay plan): our lines count
    #: as sure only up to such a square.
    maybe: int = 0


def jammed_pawns(meta: Metaposition, board: chess.Board) -> int:
    """The squares of the enemy pawns blocked in front of our pawns on ``board``, when
    every enemy unit is one (as :func:`search.jammed` tells: a refused step of ours
    located it, or its set is exactly its square), else 0."""
    color = meta.color
    stuck = _blocked(meta, board)
    if stuck.bit_count() >= meta.units:
        return stuck
    # Located exactly (the set holds one square a unit, no pieces): each in front of a
    # pawn of ours, with nothing of ours to take (a custom start shown to both players).
    located = meta.may[chess.PAWN]
    pawns = board.pawns & board.occupied_co[color]
    if meta.pieces_max or located.bit_count() != meta.units or located & ~forward(pawns, color):
        return 0
    return located if uncapturing(located, board, color) == located else 0


def field_of(meta: Metaposition) -> Field | None:
    """The field of ``meta`` if the plan needs this search: the king is lone and we have
    pawns, or every enemy unit is a pawn blocked by ours (the king must move), or, far
    ahead (:func:`far_ahead`), a few units may move instead of the king (it may stay).
    ``None`` otherwise (a lone king and no pawns of ours is ``mate.py``'s)."""
    own = meta.own
    color = meta.color
    pawns = own.pawns & own.occupied_co[color]
    stay = False
    reach = hit = 0
    if meta.units == 0:
        if not pawns:
            return None
        walls = 0
    else:
        walls = jammed_pawns(meta, own)
        if not walls:
            if not far_ahead(meta):
                return None
            walls = _blocked(meta, own)
            stay = True
            reach, hit = _reach(meta, walls)
    guard = 0
    for square in chess.SquareSet(pawns):
        guard |= chess.BB_PAWN_ATTACKS[color][square]
    danger = hit
    for square in chess.SquareSet(walls):
        danger |= chess.BB_PAWN_ATTACKS[not color][square]
    maybe = meta.maybe_units() & ~walls if stay else 0
    return Field(color, pawns, guard, walls, danger, stay, reach, maybe)


#: The units the enemy may have besides its king for the may-stay plan, and how far
#: ahead we must be (centipawns of material).
STAY_UNITS = 3
STAY_AHEAD = VALUES[chess.QUEEN]
#: The may-stay plan waits for this many of our moves without a capture or a pawn move
#: (``Metaposition.quiet_moves``): until then the heuristic search converts, as before.
STAY_ALARM = 10
#: ... and a king's region of at most this many squares (16 kept game 127 of seed 9
#: from it: its region was 18 to 36 squares in the last 50 moves).
STAY_REGION = 32
#: The positions the may-stay plan may examine in one decision, and in one game (fixed
#: counts: ungated, game 213 of seed 9 spent 40 CPU seconds on failed plans; with sure
#: lines and a pool of 25,000, game 191 12.8 seconds, and no plan found).
STAY_NODES = 2_000
STAY_POOL = 10_000


def far_ahead(meta: Metaposition) -> bool:
    """Whether the enemy has at most STAY_UNITS units and we a queen and STAY_AHEAD of
    material more, STAY_ALARM quiet moves have passed and the king's region has at most
    STAY_REGION squares: a won position whose king may stay while a unit moves, which
    the heuristic search has not converted."""
    own = meta.own
    if meta.units > STAY_UNITS or not own.queens & own.occupied_co[meta.color]:
        return False
    if meta.pawns_max < meta.units:
        # A unit is surely a piece, which the plan does not model (its moves, its
        # captures of our checkers); a wide piece set would forbid every square.
        return False
    if meta.quiet_moves < STAY_ALARM or meta.may[chess.KING].bit_count() > STAY_REGION:
        return False
    mine = sum(VALUES[kind] * own.pieces_mask(kind, meta.color).bit_count() for kind in PIECE_KINDS)
    return mine >= meta.enemy_material() + STAY_AHEAD


def _blocked(meta: Metaposition, board: chess.Board) -> int:
    """The located enemy pawns (refused a step of ours) in front of our pawns with
    nothing of ours to take: they stand still whatever the others do."""
    color = meta.color
    ahead = forward(board.pawns & board.occupied_co[color], color)
    return uncapturing(meta.walls() & ahead & meta.may[chess.PAWN], board, color)


def _reach(meta: Metaposition, walls: int) -> tuple[int, int]:
    """Where the enemy pawns not in ``walls`` may step (``reach``) and what they may
    attack (``hit``). Pieces are left out: the bound on them counts every pawn that
    may have promoted unseen, and their sets, wide after a long game, would forbid
    every square (game 127 of seed 9: two pawns, pieces "possible", 64 squares hit)."""
    enemy = not meta.color
    pawns = meta.may[chess.PAWN] & ~walls
    reach = pawn_pushes(pawns, enemy, meta.own.occupied)
    hit = 0
    for square in chess.SquareSet(pawns):
        hit |= chess.BB_PAWN_ATTACKS[enemy][square]
    return reach | hit, hit


def _seen(meta: Metaposition, move: chess.Move) -> int:
    """How many times ``move`` places our pieces as they already stood after one of our
    moves. A plan is a plan (the walls are hints, the king may have stayed): re-planned
    at every decision, the may-stay plan of game 127 of seed 9 went round in a circle
    and drew by threefold repetition, so it never repeats a placement; and the plan for
    walls of game 121's position (seed 1), one wall a pawn already taken, shuttled a
    queen g8-a2-g8 into a threefold repetition, so no plan makes a placement a third
    time. The heuristic search weighs repetitions instead."""
    after = meta.own.copy(stack=False)
    after.push(move)
    return meta.history.count(after.board_fen())


def _occupied(pieces: Pieces) -> int:
    result = 0
    for _, square in pieces:
        result |= chess.BB_SQUARES[square]
    return result


Answer = tuple[Pieces, int, list[int]]


#: Each piece's attacks through the position's occupancy, and through it and the units
#: not located (:func:`reaches`), in the order of the pieces.
Reaches = tuple[list[int], list[int]]


def reaches(field: Field, pieces: Pieces) -> Reaches:
    """What each of ``pieces`` attacks on ``field``: through what stands (ours, our pawns,
    the walls), and through that and the units not located (``field.maybe``)."""
    occupied = _occupied(pieces) | field.pawns | field.walls
    plain = [attacks(kind, field.color, square, occupied) for kind, square in pieces]
    if not field.maybe:
        return plain, plain
    through = occupied | field.maybe
    sure = [
        attacks(kind, field.color, square, through) if kind in SLIDERS else reach
        for (kind, square), reach in zip(pieces, plain, strict=True)
    ]
    return plain, sure


def answer(
    field: Field,
    pieces: Pieces,
    region: int,
    index_: int,
    target: int,
    leaf: bool = False,
    base: Reaches | None = None,
) -> Answer | None:
    """``mate.answer`` on ``field``: what moving ``pieces[index_]`` to ``target`` leads to
    against a king that must move, somewhere in ``region``; ``None`` when some answer
    surely loses the mate (a stalemate, a piece or pawn of ours the king may take, a
    piece where a wall pawn takes it) or the move is surely refused.

    A ``leaf`` (the search's last move) takes mates only: ``None`` as soon as the move
    surely is not one (a refusal or a quiet square left), the rest not worked out.
    ``base`` is :func:`reaches` of ``pieces`` (computed when not given): a piece's
    attacks change only if the move leaves or enters one of their squares (a ray ends
    at the first square occupied; what stands beyond it does not count)."""
    kind, _ = pieces[index_]
    if chess.BB_SQUARES[target] & field.danger:
        return None
    refused = 0
    legal = region
    if kind == chess.KING:
        refused = region & chess.BB_KING_ATTACKS[target]
        legal = region & ~refused
        if not legal or (leaf and refused):
            return None
    after = (*pieces[:index_], (kind, target), *pieces[index_ + 1 :])
    mine = _occupied(after)
    occupied = mine | field.pawns | field.walls
    attacked = sure = field.guard
    maybe = field.maybe
    plain, through = base if base is not None else reaches(field, pieces)
    moved = chess.BB_SQUARES[pieces[index_][1]] | chess.BB_SQUARES[target]
    for at, (piece, square) in enumerate(after):
        if at != index_ and not plain[at] & moved:
            reach = plain[at]
        else:
            reach = attacks(piece, field.color, square, occupied)
        attacked |= reach
        if maybe:
            # only a slider's line may be cut by a unit not located
            if piece not in SLIDERS:
                sure |= reach
            elif at != index_ and not through[at] & moved:
                sure |= through[at]
            else:
                sure |= attacks(piece, field.color, square, occupied | maybe)
    if not maybe:
        sure = attacked
    if leaf and legal & ~sure:
        return None  # a square where the king is not surely attacked: no mate
    # ``attacked``: what our pieces may attack (a unit not located may block a line);
    # ``sure``: what they attack whatever stands where. A flight counts unless surely
    # attacked (for a mate), a square is stalemated unless it surely has one.
    closed = ~chess.BB_SQUARES[after[0][1]] & ~field.walls & chess.BB_ALL
    free = closed & ~attacked
    loose = closed & ~sure
    exposed = (mine | field.pawns) & loose
    if exposed and neighbours(legal) & exposed:
        return None
    escapes = neighbours(free)
    if legal & ~sure & ~escapes:
        return None  # a stalemate: the walls cannot move either, the units may not
    free &= ~(mine | field.pawns)
    loose &= ~(mine | field.pawns)
    regions = []
    quiet = legal & ~sure
    if quiet:
        regions.append(neighbours(quiet) & loose | (quiet if field.stay else 0))
    checked = legal & attacked & neighbours(loose)
    blockable = 0
    if field.stay:
        # A unit may step across the moved piece's check: the king then stays put.
        for square in chess.SquareSet(legal & attacked):
            if chess.between(target, square) & field.reach:
                blockable |= chess.BB_SQUARES[square]
        checked |= blockable
    if checked:
        for group in check_groups(after, occupied, checked):
            regions.append(neighbours(group) & loose | (group & blockable))
    return after, refused, regions


class PawnsStill:
    """Finds an attempt that forces mate within ``depth`` of our moves on a king that
    must move, our pawns and its blocked pawns standing still (:class:`Field`).

    The search gives up at ``deadline`` (a value of ``clock``) or after ``max_nodes``
    positions; a node budget's clock is ticked one node a position, as ``mate.py`` does.
    Mates and failures are memoised per (field, pieces, region) between decisions."""

    def __init__(
        self,
        color: chess.Color,
        *,
        max_nodes: int = MAX_NODES,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.color = color
        self.clock = clock
        self._tick = tick(clock)
        self.max_nodes = max_nodes
        self.deadline = 0.0
        self.nodes = 0
        self._field: Field | None = None
        self._counting = self._tick
        self._cap = max_nodes
        self.pool = STAY_POOL  #: what the may-stay plan may still examine this game
        self._mates: dict[tuple[Field, Pieces, int], tuple[int, tuple[int, int]]] = {}
        self._fails: dict[tuple[Field, Pieces, int], int] = {}

    def find(
        self, meta: Metaposition, deadline: float, depth: int = DEPTH
    ) -> tuple[chess.Move, int] | None:
        """The first move of a forced mate within ``depth`` moves and that depth, the
        shortest first; ``None`` when ``meta`` is not this search's (:func:`field_of`),
        there is none, or the budget ran out."""
        field = field_of(meta)
        own = meta.own
        king = own.king(self.color)
        region = meta.may[chess.KING]
        if field is None or king is None or not region:
            return None
        self.deadline = deadline
        self.nodes = 0
        # The may-stay plan needs more positions than a node budget's share gives (a
        # mate in 4 of game 127: 1,607); it is bounded by a fixed count instead, not
        # ticked, so the heuristic search keeps its nodes.
        self._counting = self._tick if not field.stay else None
        self._cap = self.max_nodes if not field.stay else min(STAY_NODES, self.pool)
        if self._cap <= 0:
            return None
        if len(self._mates) + len(self._fails) > MEMORY:
            self._mates.clear()
            self._fails.clear()
        others = tuple(
            sorted(
                (own.piece_type_at(square) or 0, square)
                for square in chess.SquareSet(own.occupied_co[self.color] & ~own.kings & ~own.pawns)
            )
        )
        pieces: Pieces = ((chess.KING, king), *others)
        self._field = field
        try:
            for limit in range(1, depth + 1):
                found = self._attack(pieces, region, limit)
                if found is not None:
                    move = chess.Move(*found)
                    seen = _seen(meta, move)
                    # a may-stay plan never re-places our pieces; no plan steps into a
                    # placement seen twice (the walls are hints: a wrong one loops)
                    return None if seen >= (1 if field.stay else 2) else (move, limit)
        except _OutOfTime:
            return None
        finally:
            if field.stay:
                self.pool -= self.nodes
        return None

    def _attack(self, pieces: Pieces, region: int, depth: int) -> tuple[int, int] | None:
        field = self._field
        assert field is not None
        key = (field, pieces, region)
        known = self._mates.get(key)
        if known is not None and known[0] <= depth:
            return known[1]
        if self._fails.get(key, 0) >= depth:
            return None
        self.nodes += 1
        if self._counting is not None:
            self._counting(1)
        if self.nodes > self._cap or (self.nodes & 15 == 1 and self.clock() > self.deadline):
            raise _OutOfTime
        mine = _occupied(pieces)
        occupied = mine | field.pawns | field.walls
        base = reaches(field, pieces)
        candidates = []
        for at, (_, square) in enumerate(pieces):
            for target in chess.SquareSet(base[0][at] & ~occupied):
                result = answer(field, pieces, region, at, target, depth == 1, base)
                if result is None:
                    continue
                after, refused, regions = result
                if depth == 1 and (refused or regions):
                    continue
                size = refused.bit_count() + sum(child.bit_count() for child in regions)
                candidates.append((size, (square, target), result))
        candidates.sort(key=lambda item: item[0])
        for _, move, (after, refused, regions) in candidates:
            if self._holds(pieces, after, refused, regions, depth):
                self._mates[key] = (depth, move)
                return move
        self._fails[key] = depth
        return None

    def _holds(
        self, pieces: Pieces, after: Pieces, refused: int, regions: list[int], depth: int
    ) -> bool:
        if depth == 1:
            return not (refused or regions)
        for region in sorted(regions, key=lambda bits: -bits.bit_count()):
            if self._attack(after, region, depth - 1) is None:
                return False
        return not refused or self._attack(pieces, refused, depth) is not None
