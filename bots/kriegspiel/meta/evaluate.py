"""Static evaluation of a metaposition branch, in centipawns from our side.

Terms (``docs/kriegspiel_meta.md``): material; the risk that each of our pieces is taken
next move given where enemy pieces may be (worst case for the king, by the density of the
sets for the other kinds); pawn progress; our king's shelter while the enemy has pieces;
the size and placement of the region where the enemy king may be (see
:mod:`bots.kriegspiel.meta.endgames`); repeated placements.
"""

from __future__ import annotations

import chess

from bots.kriegspiel.meta.endgames import has_mating_material, king_spread
from bots.kriegspiel.meta.geometry import PIECE_KINDS, VALUES, attacks
from bots.kriegspiel.meta.legality import BLOCKER_STAYS
from bots.kriegspiel.meta.material import attackers_expected, keep_value
from bots.kriegspiel.meta.metaposition import Metaposition
from bots.kriegspiel.meta.presence import KINDS

__all__ = [
    "PAWN_BONUS",
    "capture_chance",
    "densities",
    "enemy_pawn_bonus",
    "king_threat",
    "material",
    "pawn_progress",
    "piece_threat",
    "strong_material",
    "stuck_chance",
    "threats",
    "unit_chance",
]

#: The extra loss when the enemy king may take the last piece that could mate it.
ESSENTIAL = 3_000.0
#: Against a lone king: how many times over the chance that it stands next to one of our
#: undefended pieces is feared (see :func:`king_threat`).
AVERSION = 8.0
#: The same with a few enemy units left, for a piece whose loss leaves us mating material.
FEW_AVERSION = 2.0

#: The chance that an enemy piece (not a pawn) has no legal move when its king has none.
PIECE_STUCK = 0.05

#: The least chance that an enemy pawn is stuck, wherever its set allows it to stand: late
#: in a game a pawn still on the board is often blocked (measured, seed 1, nodes=1000:
#: with only the share of blocked squares of a wide pawn set the bot still stalemated a
#: king with one or two blocked pawns in 4 of the first 60 games, queens on the board).
PAWN_STUCK = 0.5

#: How much the enemy units' being stuck goes together (the intra-class correlation of an
#: exchangeable model, :func:`_all_stuck`): late in a game the units left are the ones our
#: pieces hold, and a king boxed in by our pieces has them blocked together. Fitted on the
#: chosen moves of games 0-25 of seed 9 and main's 12 non-wins of games 51-326 (1,437
#: decisions with 1 to 4 units, the truth read off the real board): log loss 0.3288 as
#: independent units, 0.3241 at 0.1, 0.3245 at 0.15, 0.3263 at 0.2, 0.3330 at 0.3; as
#: independent units (``p ** units``) the chance that 3 or 4 units are all stuck was 0.14
#: and 0.08 where 0.20 and 0.15 were (0.18 and 0.12 at 0.15), and the bot promoted beside
#: a king with three blocked pawns (games 119 and 166 of seed 9: stalemates).
STUCK_CORRELATION = 0.15

#: Hunting located enemy pawns with few units left (see :func:`hunt_cost`): the cost of
#: each such pawn still on the board, and of each move our nearest piece needs before it
#: attacks one.
HUNT_TARGET = 60.0
HUNT_STEP = 30.0
#: A pawn the presence map holds at least this likely on one square (more likely there
#: than not) is located too: game 68 of seed 9 (wild16, nodes=1000) ended `QRRBBNN`
#: against a king and its last unit, a pawn on g6 stuck behind our knight, drawn by the
#: 50-move rule with the map holding 0.59 to 0.98 of a pawn there for the last 155
#: plies. It never refused a step of ours (we had no pawns), so it was no target, and
#: a rook next to it did not take it. (The ghosts of captured pawns held 0.16 to 0.38.)
HUNT_SURE = 0.5

#: Bonus of a pawn by how many ranks it has advanced from its start (0..5). Doubled from
#: (0, 8, 18, 32, 55, 90) in issue 33's round fifteen: the 1,000-node seat lost 36 of 100
#: games to the same code at 20 nodes, out-promoted (its pawns pushed 11% of its moves
#: against 13.7%). Merged in round sixteen, with the pawns' refused attempts priced
#: apart (``search.REFUSED_PAWN_COST``, ``REFUSED_CAPTURE_COST``) so that they do not
#: raise the refusals: docs/kriegspiel_meta.md, *Issue 33, rounds fifteen and sixteen*.
PAWN_BONUS = (0, 16, 36, 64, 110, 180)


def material(board: chess.Board, color: chess.Color) -> int:
    """The value of ``color``'s pieces on ``board``."""
    return sum(VALUES[kind] * (board.pieces_mask(kind, color)).bit_count() for kind in PIECE_KINDS)


def strong_material(board: chess.Board, color: chess.Color) -> bool:
    """Whether ``color`` has a queen, a rook or a pawn: what this bot mates a hidden king
    with in practice (two minor pieces mate in chess, but seldom a hidden king within the
    50-move rule: KBB vs K 44.5% against a random king, see ``docs/kriegspiel_meta.md``)."""
    return bool(board.occupied_co[color] & (board.queens | board.rooks | board.pawns))


def _essential(board: chess.Board, rest: chess.Board, color: chess.Color) -> bool:
    """Whether losing the pieces missing from ``rest`` loses what we mate with."""
    if not has_mating_material(rest, color):
        return True
    return strong_material(board, color) and not strong_material(rest, color)


def pawn_progress(board: chess.Board, color: chess.Color) -> int:
    """The advancement bonus of ``color``'s pawns."""
    total = 0
    for square in chess.SquareSet(board.pieces_mask(chess.PAWN, color)):
        rank = chess.square_rank(square)
        advanced = rank - 1 if color == chess.WHITE else 6 - rank
        total += PAWN_BONUS[max(0, min(5, advanced))]
    return total


def enemy_pawn_bonus(square: chess.Square, enemy: chess.Color) -> int:
    """What an enemy pawn on ``square`` is worth to the enemy by its advance (the
    :data:`PAWN_BONUS` from its side): taking an advanced one stops a promotion."""
    rank = chess.square_rank(square)
    advanced = rank - 1 if enemy == chess.WHITE else 6 - rank
    return PAWN_BONUS[max(0, min(5, advanced))]


def densities(meta: Metaposition) -> list[float]:
    """:meth:`Metaposition.density` of every kind, indexed by piece type (computed once
    per decision: the search asks for them thousands of times)."""
    return [0.0] + [meta.density(kind) for kind in PIECE_KINDS]


def piece_threat(
    meta: Metaposition,
    board: chess.Board,
    square: chess.Square,
    defended: int,
    density: list[float],
    *,
    gamma: float,
    trade: float = 0.0,
) -> float:
    """The expected loss of our piece on ``square`` (of ``board``) to an enemy pawn,
    knight, bishop, rook or queen next move.

    Each kind attacks it with a chance that grows with the number of squares of its set
    that attack it and the set's ``density``, or with the units the presence map expects
    there if more (:func:`~bots.kriegspiel.meta.material.attackers_expected`); ``gamma``
    scales that chance. A defended
    piece only loses its value minus the cheapest attacker's, taken back (``1 + trade``
    times it: far ahead, a unit traded off is worth more than its material,
    :data:`~bots.kriegspiel.meta.search.TRADE`); the last queen or rook,
    or the last piece that mates, also the win that goes with it
    (:func:`~bots.kriegspiel.meta.material.keep_value`), defended or not.
    """
    kind = board.piece_type_at(square)
    if kind is None or kind == chess.KING:
        return 0.0
    chance, cheapest = capture_chance(meta, board, square, density, gamma=gamma)
    if not chance:
        return 0.0
    value = VALUES[kind]
    taken_back = cheapest * (1.0 + trade)
    loss = max(0.0, value - taken_back) if defended & chess.BB_SQUARES[square] else value
    return chance * (loss + keep_value(board, square, meta.color))


def capture_chance(
    meta: Metaposition,
    board: chess.Board,
    square: chess.Square,
    density: list[float],
    *,
    gamma: float,
    kinds: tuple[int, ...] = PIECE_KINDS[:-1],
) -> tuple[float, int]:
    """The chance :func:`piece_threat` gives that our piece on ``square`` is taken next
    move (by a unit of one of ``kinds``), and the value of the cheapest enemy kind that
    may attack it (10,000 if none). ``benchmarks.kriegspiel_threats`` sets it against
    what happened."""
    occupied = board.occupied
    color = meta.color
    safe = 1.0
    cheapest = 10_000
    for enemy_kind in kinds:
        may = meta.may[enemy_kind]
        if not may:
            continue
        reach = attacks(enemy_kind, color, square, occupied) & may
        count = reach.bit_count()
        if count:
            expected = max(count * density[enemy_kind], attackers_expected(meta, enemy_kind, reach))
            safe *= 1.0 - gamma * min(1.0, expected)
            cheapest = min(cheapest, VALUES[enemy_kind])
    return 1.0 - safe, cheapest


def exposure(meta: Metaposition, board: chess.Board, king_set: int, defended: int) -> float:
    """Against a lone king: the share of ``king_set`` from which it may take a piece of
    ours that is not ``defended`` and whose loss leaves no mating material (else 0)."""
    if meta.units != 0 or not king_set:
        return 0.0
    mine = board.occupied_co[meta.color] & ~board.kings & ~defended
    near = 0
    for square in chess.SquareSet(mine):
        rest = board.copy(stack=False)
        rest.remove_piece_at(square)
        if _essential(board, rest, meta.color):
            near |= king_set & chess.BB_KING_ATTACKS[square]
    return near.bit_count() / king_set.bit_count()


def king_threat(
    meta: Metaposition, board: chess.Board, king_set: int, defended: int, few: int = 0
) -> float:
    """The value of our pieces the enemy king may take next move: those next to a square
    of ``king_set`` and not ``defended``; by the worst case while the enemy has more than
    ``few`` units, else by the share of the king's squares next to them (see below)."""
    reach = 0
    for square in chess.SquareSet(king_set):
        reach |= chess.BB_KING_ATTACKS[square]
    exposed = reach & board.occupied_co[meta.color] & ~board.kings & ~defended
    if not exposed:
        return 0.0
    loss = float(
        sum(VALUES[board.piece_type_at(s) or chess.PAWN] for s in chess.SquareSet(exposed))
    )
    if meta.units <= few:
        rest = board.copy(stack=False)
        for square in chess.SquareSet(exposed):
            rest.remove_piece_at(square)
        essential = _essential(board, rest, meta.color)
        if essential:
            loss += ESSENTIAL  # losing it draws the game
        # Against a lone king the loss counts by the share of its squares next to the
        # piece, feared AVERSION times over: a rook that never stands where a hidden
        # king might reach it never confines one (measured: 0% mates against a king
        # that heads for the centre).
        near = king_set & king_spread(exposed)
        share = near.bit_count() / king_set.bit_count()
        # With a few units left (pawns, mostly) the same holds, and a piece we can spare
        # is feared only FEW_AVERSION times over: the worst case over a region of 20 to
        # 30 squares (it counts every square where the king may have stayed) kept our
        # knight from the square next to a blocked pawn, our rook from taking one, for
        # 50 moves (replays of the games drawn by the 50-move rule, seed 1).
        fear = AVERSION if essential or meta.units == 0 else FEW_AVERSION
        loss *= min(1.0, fear * share)
    return loss


def hunt_targets(meta: Metaposition, board: chess.Board, stepped: int = 0) -> int:
    """Squares where an enemy pawn likely stands (known there, or it refused one of our
    pawns a step and may still stand there, or the presence map holds it there at least
    :data:`HUNT_SURE` likely) and no piece of ours stands on ``board``,
    but for ``stepped``: where a pawn of ours stepped, which takes nothing (scored as
    taken, the refused step onto a blocker was tried again every move)."""
    pawns = meta.may[chess.PAWN]
    located = (meta.known | meta.blockers) & pawns
    presence = meta.presence
    if presence is not None:
        weights = presence.weights[chess.PAWN]
        for square in chess.SquareSet(pawns & ~located):
            if weights[square] >= HUNT_SURE:
                located |= chess.BB_SQUARES[square]
    return located & (~board.occupied_co[meta.color] | stepped)


def hunt_cost(meta: Metaposition, board: chess.Board, stepped: int = 0) -> float:
    """What the located enemy pawns (:func:`hunt_targets`) still cost us on ``board``:
    :data:`HUNT_TARGET` each, plus :data:`HUNT_STEP` for each move (0, 1 or 2: more counts
    as 2) our nearest piece (not the king, not a pawn) needs before it attacks one.

    Replays of the games drawn by the 50-move rule (seed 1): queens and rooks against a
    king and one blocked pawn, whose square the bot knew, shuffled for 50 moves, since
    the search sees one of our moves ahead and a capture two moves away scored nothing;
    the king's region never shrinks while a pawn may move instead of the king."""
    targets = hunt_targets(meta, board, stepped)
    if not targets:
        return 0.0
    color = meta.color
    occupied = board.occupied
    free = ~board.occupied_co[color] & chess.BB_ALL
    hunters = board.occupied_co[color] & ~board.kings & ~board.pawns
    steps = 2
    for target in chess.SquareSet(targets):
        bit = chess.BB_SQUARES[target]
        for square in chess.SquareSet(hunters):
            kind = board.piece_type_at(square)
            assert kind is not None
            reach = attacks(kind, color, square, occupied)
            if reach & bit:
                steps = 0
                break
            if reach & free & attacks(kind, color, target, occupied):
                steps = 1
        if steps == 0:
            break
    return HUNT_TARGET * targets.bit_count() + HUNT_STEP * steps


def threats(
    meta: Metaposition,
    board: chess.Board,
    defended: int,
    density: list[float],
    *,
    gamma: float,
    trade: float = 0.0,
) -> float:
    """The summed :func:`piece_threat` of all our pieces on ``board``."""
    total = 0.0
    for square in chess.SquareSet(board.occupied_co[meta.color] & ~board.kings):
        total += piece_threat(meta, board, square, defended, density, gamma=gamma, trade=trade)
    return total


def stuck_chance(meta: Metaposition, board: chess.Board, units: int, kings: int = 0) -> float:
    """The chance that all ``units`` enemy units (besides the king) have no legal move
    with our pieces as on ``board``, so that a king with no flight is stalemated; with
    ``kings`` (squares where the king would be stalemated), the largest such chance over
    them, the king's square blocking the pawn behind it and our lines to it pinning.

    A pawn is stuck when a piece stands in front of it and it has none of ours to take,
    or, by the chance that one does (the presence map), a unit of its own. Each unit is
    a pawn by the presence map's share of pawns (the share the bounds allow without a
    map), stuck by the larger of two estimates: it stands on a square of the pawn set
    chosen at random, at least :data:`PAWN_STUCK` while the pawns are not located; and
    it is blocked or pinned by the expected pawns on such squares (:func:`_weight`: the
    presence map, a blocker's square at least ``BLOCKER_STAYS``) over the pawns
    expected. A piece is stuck with :data:`PIECE_STUCK`, or by the expected pieces
    pinned where a pin leaves them no move. The units are stuck together by
    :func:`_all_stuck` (they go together: :data:`STUCK_CORRELATION`).

    A king on a square of ``kings`` to which one of our sliders has an open line (on
    ``board``) is not in check there only if a unit of its own stands on the line,
    pinned: that unit is certain, stuck by its kind and square on the line as the map
    weighs them (:func:`_line_unit`), the other units as above; the larger chance
    counts. By the map's weights alone the pinned unit was hardly there: in game 330 of
    seed 9 (nodes=1000) the map held 0.001 of a bishop on e1, pinned by our queen d1 to
    the king on h1, and said 0.13 where the stalemate was certain (it was played); in
    game 393 the knight pinned on e4 by our queen f3 held 0.0005 (the map gave knights
    0.03 in all).

    The pawns' share by the bounds (every pawn that may have promoted unseen counted a
    pawn) put the floor at :data:`PAWN_STUCK` when the last units were pieces: a
    bishop, a knight promoted unseen roamed while the chance said 0.5 (measured on the
    decisions of :data:`STUCK_CORRELATION`: the last unit stuck 0.50 of the time where
    0.59 was said, two units 0.16 where 0.29; by the map's share 0.47 and 0.19, log loss
    0.391 to 0.329). A pawn behind a unit of its own counted free (game 166 of seed 9:
    white's a4 behind a5, a5 blocked by our rook; log loss 0.401 to 0.391).

    Replays of the stalemates of seed 1 (``docs/kriegspiel_meta.md``): with the
    tries count the bot tries fewer captures, the pawn sets stay wide (10 squares for 3
    pawns in game 189), the first estimate stayed at its floor (0.125 for 3 units) while
    the presence map held 89% of the pawns' weight on the three blocked squares; a pawn
    was blocked by its own king (game 398), and units were pinned (games 239, 337).
    With no unit the king alone must move: 1. Measured (200 games, seed 1): fearing a
    stalemate on every square where a unit might block a flight, whatever the units
    could do, made every attempt look like a draw and the bot drew 11 games of 200 by
    stalemate, often by blocking the last pawns itself.
    """
    if units <= 0:
        return 1.0
    enemy = not meta.color
    pawns = meta.may[chess.PAWN]
    ours = board.occupied_co[meta.color]
    step = 8 if enemy == chess.WHITE else -8
    blocked = 0
    weighed = 0.0  # the expected pawns on blocked squares
    free: list[tuple[int, int, float]] = []  # pawns not blocked: square, ahead, weight
    presence = meta.presence
    for square in chess.SquareSet(pawns):
        ahead = square + step
        if not 0 <= ahead < 64:
            continue
        if chess.BB_PAWN_ATTACKS[enemy][square] & ours & ~board.kings:
            continue
        if chess.BB_SQUARES[ahead] & ours:
            blocked += 1
            weighed += _weight(meta, chess.PAWN, square)
        else:
            weight = _weight(meta, chess.PAWN, square)
            if presence is not None:  # a unit of its own may stand in front of it
                own = unit_chance(meta, ahead)
                weighed += weight * own
                weight *= 1.0 - own
            free.append((square, ahead, weight))
    share = blocked / pawns.bit_count() if pawns else 0.0
    if pawns.bit_count() > units:  # the pawns are not located: maybe stuck all the same
        share = max(PAWN_STUCK, share)
    pawn = min(meta.pawns_max, units) / units
    floor = pawn * share + (1.0 - pawn) * PIECE_STUCK  # by the sets alone
    if presence is None:
        return _all_stuck(floor, units)
    pawn_mass = presence.mass[chess.PAWN]
    piece_mass = sum(presence.mass[kind] for kind in KINDS[1:])
    if pawn_mass + piece_mass <= 0.0:
        return _all_stuck(floor, units)
    pawn = pawn_mass / (pawn_mass + piece_mass)
    floor = pawn * share + (1.0 - pawn) * PIECE_STUCK  # the pawns' share by the map
    best = _all_stuck(floor, units)
    # The same sums as written out in the docstring, with what does not depend on the
    # king's square taken out of the loop (this runs for every stalemate branch): each
    # pawn has its own square ahead, and no line means nothing pinned.
    front = {ahead: weight for _, ahead, weight in free}
    sliders = _sliders(board, meta.color)
    weights: dict[tuple[chess.PieceType, chess.Square], float] = {}
    for king in chess.scan_forward(kings) if kings else [None]:
        lines = _pins(sliders, board.occupied, king) if king is not None else []
        fronts = front.get(king, 0) if king is not None else 0
        if lines:
            # (a pawn on a line is pinned off a file unless it can take the slider;
            # a piece by its kind and the line's direction alone: see _pinned)
            pinned_pawns = 0
            for between, direction, slider in lines:
                if direction != "file":
                    pinned_pawns |= between & ~chess.BB_PAWN_ATTACKS[meta.color][slider]
            extra = fronts + sum(
                weight
                for square, ahead, weight in free
                if ahead != king and chess.BB_SQUARES[square] & pinned_pawns
            )
            held = sum(
                _weight_memo(meta, kind, square, weights)
                for kind in KINDS[1:]
                for between, direction, _ in lines
                if _piece_pinned(kind, direction)
                for square in chess.scan_forward(between & meta.may[kind])
            )
        else:
            extra, held = fronts, 0
        pawns_stuck = min(1.0, (weighed + extra) / pawn_mass) if pawn_mass > 0.0 else 0.0
        pieces_stuck = max(PIECE_STUCK, min(1.0, held / piece_mass)) if piece_mass else 0.0
        each = max(floor, pawn * pawns_stuck + (1.0 - pawn) * pieces_stuck)
        best = max(best, _all_stuck(each, units))
        if lines and len(lines) <= units:
            # Not in check there: each of our lines to the king holds a unit of its own.
            chance, pawns_on, pieces_on = 1.0, 0.0, 0.0
            for line in lines:
                stuck, pawn_there = _line_unit(meta, line, weights)
                chance *= stuck
                pawns_on += pawn_there
                pieces_on += 1.0 - pawn_there
            rest_pawns = max(0.0, pawn_mass - pawns_on)
            rest_pieces = max(0.0, piece_mass - pieces_on)
            rest = rest_pawns + rest_pieces
            share_ = rest_pawns / rest if rest > 0.0 else pawn
            plain = min(1.0, (weighed + fronts) / pawn_mass) if pawn_mass > 0.0 else 0.0
            others = max(floor, share_ * plain + (1.0 - share_) * PIECE_STUCK)
            best = max(best, chance * _all_stuck(others, units - len(lines)))
    return best


def _line_unit(
    meta: Metaposition,
    line: tuple[int, str, chess.Square],
    memo: dict[tuple[chess.PieceType, chess.Square], float] | None = None,
) -> tuple[float, float]:
    """For the unit that must stand on ``line`` (between one of our sliders and a king
    that is not in check): the chance that it has no move, and that it is a pawn. Its
    kind and square by the presence map's weights on the line's squares (the sets'
    densities where the map holds none there). ``memo``: :func:`_weight_memo`'s."""
    between = line[0]
    memo = {} if memo is None else memo
    weights: list[tuple[chess.PieceType, chess.Square, float]] = []
    for kind in KINDS:
        for square in chess.scan_forward(between & meta.may[kind]):
            weights.append((kind, square, _weight_memo(meta, kind, square, memo)))
    total = sum(weight for _, _, weight in weights)
    if total <= 1e-9:
        weights = [(kind, square, meta.density(kind)) for kind, square, _ in weights]
        total = sum(weight for _, _, weight in weights)
    if total <= 0.0:
        return PIECE_STUCK, 0.0
    stuck = sum(
        weight for kind, square, weight in weights if _pinned(kind, square, line, not meta.color)
    )
    pawn = sum(weight for kind, _, weight in weights if kind == chess.PAWN)
    return stuck / total, pawn / total


def _all_stuck(each: float, units: int) -> float:
    """The chance that all ``units`` are stuck when each is with chance ``each`` and
    their being stuck goes together by :data:`STUCK_CORRELATION`: the beta-binomial
    chance of ``units`` out of ``units`` (``each ** units`` with no correlation)."""
    if units <= 1 or each <= 0.0 or each >= 1.0:
        return float(min(1.0, max(0.0, each)) ** max(0, units))
    rho = STUCK_CORRELATION
    alpha = each * (1.0 - rho) / rho
    beta = (1.0 - each) * (1.0 - rho) / rho
    chance = 1.0
    for count in range(units):
        chance *= (alpha + count) / (alpha + beta + count)
    return chance


def _sliders(board: chess.Board, color: chess.Color) -> list[tuple[chess.Square, int, int, int]]:
    """Our bishops, rooks and queens on ``board``: square, kind, file and rank."""
    return [
        (square, board.piece_type_at(square) or 0, square & 7, square >> 3)
        for square in chess.scan_forward(
            board.occupied_co[color] & (board.bishops | board.rooks | board.queens)
        )
    ]


def _pins(
    sliders: list[tuple[chess.Square, int, int, int]], occupied: int, king: chess.Square
) -> list[tuple[int, str, chess.Square]]:
    """Our lines to an enemy king on ``king``: the squares between it and one of our
    ``sliders`` (:func:`_sliders`) that moves along the line, through ``occupied`` (a
    unit alone there is pinned), the line's direction ("file", "rank" or "diagonal")
    and the slider's square."""
    lines = []
    rays = chess.BB_RAYS
    file, rank = king & 7, king >> 3
    for square, kind, slider_file, slider_rank in sliders:
        if not rays[square][king]:
            continue
        if slider_file == file:
            direction = "file"
        elif slider_rank == rank:
            direction = "rank"
        else:
            direction = "diagonal"
        if kind != chess.QUEEN and (kind == chess.BISHOP) != (direction == "diagonal"):
            continue
        between = chess.between(square, king)
        if between and not between & occupied:
            lines.append((between, direction, square))
    return lines


def _pinned(
    kind: chess.PieceType,
    square: chess.Square,
    line: tuple[int, str, chess.Square],
    enemy: chess.Color,
) -> bool:
    """Whether a unit of ``kind`` on ``square`` has no move while pinned along ``line``
    (a pawn of ``enemy`` may still step along a file or take the slider next to it on a
    diagonal, a bishop, rook or queen move along its own line)."""
    between, direction, slider = line
    if not chess.BB_SQUARES[square] & between:
        return False
    if kind == chess.PAWN:
        if chess.BB_PAWN_ATTACKS[enemy][square] & chess.BB_SQUARES[slider]:
            return False
        return direction != "file"
    return _piece_pinned(kind, direction)


def _piece_pinned(kind: chess.PieceType, direction: str) -> bool:
    """Whether a piece (not a pawn) of ``kind`` pinned along a line of ``direction`` has
    no move: a queen always has one, a knight never, a bishop off a diagonal, a rook on
    one."""
    if kind == chess.BISHOP:
        return direction != "diagonal"
    if kind == chess.ROOK:
        return direction == "diagonal"
    return kind == chess.KNIGHT


def unit_chance(meta: Metaposition, square: chess.Square) -> float:
    """The chance that an enemy unit (not the king) stands on ``square``: the presence
    map's weights of the kinds whose sets hold it (0 without a map)."""
    presence = meta.presence
    if presence is None:
        return 0.0
    bit = chess.BB_SQUARES[square]
    total = sum(presence.weights[kind][square] for kind in KINDS if meta.may[kind] & bit)
    return min(1.0, total)


def _weight_memo(
    meta: Metaposition,
    kind: chess.PieceType,
    square: chess.Square,
    memo: dict[tuple[chess.PieceType, chess.Square], float],
) -> float:
    """:func:`_weight`, kept in ``memo`` (for one metaposition)."""
    key = (kind, square)
    weight = memo.get(key)
    if weight is None:
        weight = memo[key] = _weight(meta, kind, square)
    return weight


def _weight(meta: Metaposition, kind: chess.PieceType, square: chess.Square) -> float:
    """The chance that an enemy unit of ``kind`` stands on ``square`` (of its set): the
    presence map's weight (the set's density without one), at least ``BLOCKER_STAYS``
    on a blocker's square as far as the kind holds the weight there."""
    presence = meta.presence
    if presence is None:
        return meta.density(kind)
    weight = presence.weights[kind][square]
    if chess.BB_SQUARES[square] & (meta.known | meta.blockers):
        total = sum(presence.weights[other][square] for other in KINDS)
        share = weight / total if total > 0.0 else 0.0
        weight = max(weight, BLOCKER_STAYS * share)
    return min(1.0, max(0.0, weight))
