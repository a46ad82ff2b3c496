"""Choosing an attempt: each pseudo-legal attempt's umpire answers, merged by worst case.

For every attempt the seat may make (``decision.legal``), :class:`Searcher` builds the
branches the umpire's answer may open (``docs/kriegspiel_meta.md``): *silent* (the move is
played, nothing taken), *capture* (an enemy unit was on the target), each split into
*check* and *no check* by where the enemy king may stand, then the opponent's reply (the
king's region widened by its flights, our pieces at risk from every enemy set). The
*illegal* answer costs only time (the seat tries again, knowing more), so it is not a
losing branch; it lowers the score a little by its estimated chance. Branch values are
merged by their worst case, as the source says, plus ``blend`` times the gap to their
weighted mean (pure worst case would never probe a square for a capture). Ties are broken
at random (the source's aleatory metapositions). The search stops at the time budget.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import chess

from bots.kriegspiel.meta.conversion import PawnsStill
from bots.kriegspiel.meta.dtm import rook_mate_distance, warm
from bots.kriegspiel.meta.endgames import (
    has_mating_material,
    king_outcomes,
    only_king_moves,
    region_value,
)
from bots.kriegspiel.meta.evaluate import (
    PAWN_STUCK,
    densities,
    enemy_pawn_bonus,
    exposure,
    hunt_cost,
    hunt_targets,
    material,
    pawn_progress,
    strong_material,
    stuck_chance,
    threats,
    unit_chance,
)
from bots.kriegspiel.meta.geometry import PIECE_KINDS, VALUES, attacks, forward, uncapturing
from bots.kriegspiel.meta.king_reach import reach_threat
from bots.kriegspiel.meta.legality import BLOCKER_STAYS, could_be_legal, illegal_chance
from bots.kriegspiel.meta.mate import MateSearch
from bots.kriegspiel.meta.metaposition import Metaposition, possible_attacks, surely_attacked
from bots.kriegspiel.meta.minor import MinorEndgame
from bots.kriegspiel.meta.rook import RookEndgame
from bots.kriegspiel.meta.safety import away_from_home, danger, unit_weights
from bots.kriegspiel.meta.unit import UnitEndgame
from bots.sdk.budget import tick

__all__ = ["WIN", "Branch", "Searcher", "jammed", "probes", "probing"]

#: The bonus of a branch that surely mates (a lone king), of one that likely does; the
#: value of a branch that may stalemate. Finite, so that the mean of the branches never
#: lets a small chance of mate outweigh the risk of losing the mating piece.
WIN = 2_500.0
LIKELY_MATE = 600.0
DRAW = -3_000.0
_CERTAINLY_ILLEGAL = -1_000_000.0
#: How much of a stalemate's expected cost (its chance, the king's square's weight times
#: the chance that the units left are stuck, times what the draw loses) is paid beside
#: the worst case and the mean (:meth:`Searcher.merge`) while enemy units may move.
DRAW_AVERSION = 1.0
#: What a refused attempt costs against the best attempt that cannot be refused (in
#: centipawns): it spends time and, under most rules, tells the opponent something.
#: Measured (200 games against kriegspiel-random, nodes=1000): 40 wasted fewer attempts
#: (0.32 per attempt) but won 67% and lost the ladder to the previous version; 15 won
#: 79% at 0.48 illegal attempts per attempt (docs/kriegspiel_meta.md). 25 since the
#: refusal chances of king steps and paths come from the presence map (issue 33): replayed
#: over the decisions of 40 games of seed 1, 25 with those chances gives up 0.3
#: centipawns a decision of the search's own value against 15 with the densities'
#: chances, at 0.194 refusals per attempt instead of 0.231, but takes 17% fewer pawns'
#: captures (docs/kriegspiel_meta.md, *The fifth round*). 30 since the densities' crowding
#: (``crowding.py``): fewer squares look occupied, and at 25 the refusals rose from 0.201
#: to 0.211 an attempt over 400 games of seed 9 (docs/kriegspiel_meta.md, *Issue 33, round
#: five: against kriegspiel-random*).
ILLEGAL_COST = 30.0
#: ILLEGAL_COST for a refused pawn step (into a unit we do not see). With
#: :data:`evaluate.PAWN_BONUS` doubled (issue 33, round fifteen) the pawns' attempts
#: outweighed ILLEGAL_COST, and the refusals against kriegspiel-random rose from 0.196 to
#: 0.227 an attempt; with the steps at 60, 0.222 (the captures tried rose by a sixth);
#: with every pawn attempt at 60, 0.169 but no more wins (docs/kriegspiel_meta.md).
REFUSED_PAWN_COST = 60.0
#: ILLEGAL_COST for a pawn's refused capture onto an empty square (issue 33, round
#: sixteen): between the two, since a capture tried is a pawn's advance and material
#: won at once, and a refused one at least shows the square empty. At 30 (the steps
#: priced alone) the captures tried rose by a sixth and the refusals against
#: kriegspiel-random to 0.210 an attempt; at 40, 0.192; at 50, 0.176 with fewer made
#: (100 games of seed 9, docs/kriegspiel_meta.md, *Issue 33, round sixteen*).
REFUSED_CAPTURE_COST = 40.0
#: What a refused probe (a pawn step that may locate a blocked pawn) is worth beyond the
#: best attempt that cannot be refused (see :func:`probes`).
PROBE = 300.0
#: Against a lone king: how many of our moves the forced-mate search looks ahead, and the
#: share of the time budget it may use.
#: The share is larger when the king's region is small (at most SMALL_REGION squares),
#: where mates are near and the heuristic search has little left to decide.
MATE_DEPTH = 16
#: KR vs K: the weight (in region squares) of each move of chess distance to mate from
#: the worst square of the king's region (``dtm.py``); a draw counts as _NO_MATE moves.
#: Measured against the centre king from 60 starts: 76.7% mated without it, 85% with 3,
#: 83.3% with 1, 61.7% with 8; the mean over the region instead of the worst: 80%.
DTM_WEIGHT = 3.0
_NO_MATE = 20
MATE_SHARE = (0.3, 0.8)
SMALL_REGION = 8
#: When hunting a lone king by the mean: the largest chance of losing the last mating
#: piece an attempt may take; above it the attempt counts by its worst case.
LOSS_CHANCE = 0.1
#: The cost of placing our pieces as they already stood after one or two of our moves:
#: a third time may be a threefold repetition, a draw.
_REPEAT = (0.0, 80.0, 2_000.0)
#: With at most FEW_UNITS enemy units left our king leaves home and walks to the units
#: that block our pawns (to take them, so the pawns can promote), BLOCKER_WALK for each
#: king step away from the nearest. The bound on enemy pieces counts every pawn that may
#: have promoted unseen, so after a long game it stays as high as the units: a rule on
#: pieces alone kept our king home to the end (replays of the games drawn by the 50-move
#: rule, seed 1: pawns blocked by pawns for dozens of moves, our king at home).
FEW_UNITS = 3
BLOCKER_WALK = 6.0
#: The 50-move rule: from CLOCK_ALARM of our moves without a capture or a pawn move of
#: ours (``Metaposition.quiet_moves``), while we are ahead, a pawn move or a capture
#: (which reset the count) is worth CLOCK_STEP for each move past it.
CLOCK_ALARM = 30
CLOCK_STEP = 15.0
#: From CLOCK_DRAWN of our moves without a reset, while we are ahead, each branch that
#: does not reset the count is drawn by the rule with a share that grows to 1 at our
#: fiftieth move (:meth:`Searcher._stale`); scored so (its value moved toward DRAW by
#: that share), when the best attempts all reset the count, one of them is played
#: (:meth:`Searcher._clock_reset`). Replays of games 269 and 385 of seed 9 (wild16,
#: nodes=1000): far ahead against a king and pawns blocked by ours, the one capture that
#: reset the count (a located pawn) had a stalemate branch on a square or two of a
#: region of 24 (DRAW by the worst case), while every quiet move counted the reset bonus
#: alone (CLOCK_STEP a move, 300 at most): the count ran out.
CLOCK_DRAWN = 40
#: Below this stale share a reset that may stalemate is not taken (a move or two may
#: find one that cannot): game 385 took its located pawn with 41 quiet moves, a
#: stalemate branch on 2 squares of 24, and the king stood on one (a stalemate).
CLOCK_RISK = 0.5
#: A piece's move resets the count for :meth:`Searcher._clock_reset` when a unit is
#: located on its target or stands there with at least this chance: a rook's step onto
#: a square where a unit might stand (Rc2-d2 at 40 quiet moves, game 303 of seed 9) won
#: the stale scores by its small capture branch, left main's path (a win by mate at ply
#: 377) and the game bled to a knight against the king.
CLOCK_SURE = 0.5
#: A quiet move after which a piece of ours attacks a located pawn (a capture that
#: resets the count is ready for the next move) is drawn by the rule with this share of
#: a quiet move's stale share, and counts as a reset for :meth:`Searcher._clock_reset`.
#: Game 13 of seed 10 against meta at 20 (wild16): every pawn blocked, the blockers two
#: knight moves away, and every quiet move equally stale; the count ran out.
PREPARED_STALE = 0.5
_FIFTY = 50
#: From CLOCK_ALARM of our quiet moves, while we are ahead as the count's reset needs,
#: the fear of losing a piece (the threats and the hidden king's reach) falls evenly to
#: NERVE_FLOOR at our fiftieth: a draw by the count is near, and a piece lost, or traded
#: (a capture resets the count), costs less than the won game drawn.
NERVE_FLOOR = 0.25
#: Far ahead (:meth:`Searcher._far_to_trade`) with enemy units left, a unit taken is
#: worth 1 + TRADE times its value, and a defended piece of ours taken (and taken back)
#: costs its value less 1 + TRADE times the taker's: trading down leaves fewer units to
#: hide the king, resets the 50-move count, and reaches the endgames the planners mate.
#: (Aimed at four units or more, where the search shuffled safe pieces until the 50-move
#: rule drew, QQRRBN against QRRN; there alone it mated no more than without: the gain
#: seems to be in the trades with one to three units left.) Round thirty-eight's screen
#: (seeds 9 to 18 against meta at 20): 561 of 710 continuations mated against 532 (84 to
#: 55 in the pairs that differ, p = 0.017), as many lost (32 against 33), the mates both
#: made 14% shorter; without the gate (each unit a rook) it lost twice as many, trading
#: down to nothing when unseen promotions left the rough estimate low.
TRADE = 1.0
_LATER = 20.0


@dataclass(frozen=True, slots=True)
class Branch:
    """One umpire answer to an attempt: its value and how likely it looked."""

    answer: str  #: "silent", "capture", "check", "capture+check", "mate", "stalemate",
    #: "draw" (no mating material left against a lone king)
    value: float
    weight: float
    board: chess.Board | None = None  #: our pieces after the move (open branches only)
    region: int = 0  #: where the enemy king may stand after its reply
    risk: float = 0.0  #: what the king's reply may take, and the cost of a repeated
    #: placement: both kept when the branch is valued by our next move instead
    exposure: float = 0.0  #: the share of its region from which a lone king may take
    #: our last mating piece
    stale: float = 0.0  #: the share of it drawn by the 50-move rule (:meth:`Searcher._stale`)
    drawn: float = 0.0  #: what its chance of a stalemate costs (the value it would have
    #: had without that chance, less its value), while enemy units may move


def _refusal_cost(meta: Metaposition, text: str) -> float:
    """What the umpire's refusal of the attempt ``text`` costs beyond the best attempt
    that cannot be refused: REFUSED_PAWN_COST for a pawn's step, REFUSED_CAPTURE_COST for
    a pawn's capture, ILLEGAL_COST for any other."""
    move = chess.Move.from_uci(text)
    step = chess.square_file(move.from_square) == chess.square_file(move.to_square)
    if meta.own.piece_type_at(move.from_square) == chess.PAWN:
        return REFUSED_PAWN_COST if step else REFUSED_CAPTURE_COST
    return ILLEGAL_COST


def _repeating(meta: Metaposition) -> frozenset[chess.Move]:
    """Our moves that place our pieces as they stood after two of our moves before: the
    king may stand where it stood then too, a threefold repetition and a draw. KQ vs K
    start 149 (random king, 2000 nodes) was drawn so: a mate in 8 found with the king
    fenced into e1-h3 walked our king Kf7-e6-f5-g4, onto Kg4 Qd4 a third time, while the
    king stepped e1-f1-e1."""
    counts = Counter(meta.history)
    if not counts or max(counts.values()) < 2:
        return frozenset()
    board = meta.own.copy(stack=False)
    board.turn = meta.color
    found = set()
    for move in board.generate_pseudo_legal_moves():
        placed = board.copy(stack=False)
        placed.push(move)  # (castling and promotion placed as the move places them)
        if counts[placed.board_fen()] >= 2:
            found.add(move)
    return frozenset(found)


def _late(meta: Metaposition, after: chess.Board) -> bool:
    """Whether the 50-move count calls for a capture: CLOCK_ALARM of our moves without a
    reset, a rook or more ahead. Then the located pawns are hunted whatever the units
    left (:func:`evaluate.hunt_cost`), so that a piece walks to where it can take one:
    game 13 of seed 10 against meta at 20 (wild16) was drawn by the rule with
    QRRBBNNPPPP against RBNNPPPPPP, every pawn blocked, our knights two moves from the
    blockers they could take; one reached d6 on the fiftieth move."""
    if meta.quiet_moves < CLOCK_ALARM:
        return False
    return material(after, meta.color) >= meta.enemy_material() + VALUES[chess.ROOK]


def _lone_rook(board: chess.Board, color: chess.Color) -> chess.Square | None:
    """The square of our rook when it is our only piece besides the king."""
    mine = board.occupied_co[color] & ~board.kings
    if mine.bit_count() == 1 and mine & board.rooks:
        return chess.lsb(mine)
    return None


def worst_distance(king: chess.Square, rook: chess.Square, region: int) -> int:
    """The chess distance to mate (moves, us to move) if the hidden king stands on the
    worst square of ``region``; a draw counts as more than any mate."""
    worst = 0
    for square in chess.SquareSet(region):
        moves = rook_mate_distance(king, rook, square)
        if moves is None:
            return _NO_MATE
        worst = max(worst, moves)
    return worst


def _blocker_distance(meta: Metaposition, board: chess.Board) -> int | None:
    """Our king's distance (king steps) on ``board`` to the nearest square where a unit
    refused one of our pawns a step and may still stand in front of it (None if none)."""
    color = meta.color
    pawns = board.pawns & board.occupied_co[color]
    ahead = (pawns << 8 if color == chess.WHITE else pawns >> 8) & chess.BB_ALL
    block = meta.blockers & ahead
    king = board.king(color)
    if not block or king is None:
        return None
    return min(chess.square_distance(king, square) for square in chess.SquareSet(block))


def jammed(meta: Metaposition, board: chess.Board) -> bool:
    """Whether every enemy unit is likely a pawn stuck in front of one of our pawns (on
    ``board``): as many of our pawns had a step refused by a unit that may still stand
    there (a pawn may), unable to take anything of ours. Then only its king
    moves, as against a lone king (a hint from the refusals, not a certainty; a step the
    king may have refused is no wall: :meth:`Metaposition.walls`). Seen in replays (seed
    1): without it, games with our queen and rooks against two or three blocked pawns
    ended by the 50-move rule, since the king "may stay" while a pawn moves, so its
    region never shrank."""
    if meta.units == 0 or meta.units > FEW_UNITS:
        return False
    color = meta.color
    ahead = forward(board.pawns & board.occupied_co[color], color)
    stuck = uncapturing(meta.walls() & ahead & meta.may[chess.PAWN], board, color)
    return stuck.bit_count() >= meta.units


def _stuck_behind(meta: Metaposition, board: chess.Board) -> int:
    """The squares of the pawn set where an enemy pawn would stand stuck behind one of
    our pieces (``board``): the square in front of it ours, none of ours to take. A
    pawn left late in a game is often such a one, as in front of our pawns: game 32 of
    seed 9 (nodes=1000) stalemated a king on g4 whose flight g3 held its pawn, stuck
    behind our bishop on g2; the map held 0.08 of a pawn there (it had lost the pawn
    while it stood unmoved on g7 for 180 plies) and the stalemate looked 0.025 likely."""
    ours = board.occupied_co[meta.color]
    behind = forward(ours & ~board.pawns, meta.color) & meta.may[chess.PAWN] & ~ours
    return uncapturing(behind, board, meta.color)


def probes(meta: Metaposition) -> int:
    """Squares in front of our pawns where a pawn not located may stand, worth a
    step's refusal, with at most FEW_UNITS enemy units, the pawns not all located,
    and a queen, rook or pawn of ours: a refused step locates a blocked pawn (a
    blocker), and blocked pawns leave the king alone to move (:func:`jammed`). Game
    38 of seed 2: three queens against a king and the pawn blocked by ours, never
    located: its set covered three files, the king "may stay" and was not mated in
    50 moves. A blocker the king may have made (:attr:`Metaposition.doubtful`) is worth
    the step again once the king cannot stand there: refused, it is a wall."""
    own = meta.own
    if meta.units > FEW_UNITS or not strong_material(own, meta.color):
        return 0
    pawns = meta.may[chess.PAWN]
    if pawns.bit_count() <= meta.pawns_max:
        return 0
    fronts = forward(own.pawns & own.occupied_co[meta.color], meta.color)
    retry = meta.doubtful & ~meta.may[chess.KING]
    return fronts & pawns & (~(meta.blockers | meta.known) | retry)


def _occupancy(meta: Metaposition, square: chess.Square, density: list[float]) -> float:
    """:meth:`Metaposition.occupancy` from the decision's :func:`densities` (the same
    value, without recomputing the material bounds for every square)."""
    bit = chess.BB_SQUARES[square]
    if bit & meta.known:
        return 1.0
    may = meta.may
    chance = 0.0
    for kind in PIECE_KINDS[:-1]:
        if may[kind] & bit:
            chance += density[kind]
    return min(1.0, chance)


def probing(meta: Metaposition, text: str, found: int) -> bool:
    """Whether attempt ``text`` is a pawn's step onto a square of ``found`` whose refusal
    would name a blocker (a pawn that may be pinned, or a step while in check, says
    nothing: such a probe was retried every move)."""
    move = chess.Move.from_uci(text)
    if not chess.BB_SQUARES[move.to_square] & found or text[0] != text[2]:
        return False
    if meta.own.piece_type_at(move.from_square) != chess.PAWN:
        return False
    if meta.checks_on_us or not meta.check_known:
        return False
    return not meta.could_be_pinned(move.from_square)


def _mate_gamble(branches: list[Branch]) -> bool:
    """Whether the attempt may mate and some answer is a check to a king that may take
    our last mating piece: a checked king must move, and the piece is one of its few
    flights (KR vs K, start 10 against the random king: Rf5-h5+, mate if the king stood
    on h7 or h8 and the rook lost from h6, a share of the region below LOSS_CHANCE; it
    stood on h6). A mate now is worth little over the mate later that keeping the piece
    still wins. (Every exposed check, mate or not, merged by its worst case left no
    attempt to the mean at some starts, and the least bad worst case lost the rook.)"""
    if not any(branch.answer == "mate" for branch in branches):
        return False
    return any(branch.exposure > 0.0 and "check" in branch.answer for branch in branches)


class Searcher:
    """Scores attempts on a metaposition and picks the best within a time budget.

    ``gamma`` scales how likely an enemy piece that may attack one of ours is taken to
    do so; ``blend`` mixes the weighted mean of the branches into their worst case.
    ``clock`` measures the time budget: wall time by default; tests pass the thread's
    CPU time, so that what a budget buys does not depend on the machine's load.
    """

    def __init__(
        self,
        rng: random.Random,
        *,
        gamma: float = 0.3,
        blend: float = 0.3,
        hunt_blend: float = 1.0,
        depth: int = 2,
        width: int = 8,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.rng = rng
        self.clock = clock
        self._tick = tick(clock)
        self.depth = depth
        self.width = width
        self.gamma = gamma
        self.blend = blend
        self.hunt_blend = hunt_blend
        self.last: dict[str, float] = {}  #: the scores of the last decision (for tests)
        #: ... with the quiet branches moved toward the 50-move draw (:meth:`_clock_reset`)
        self.last_stale: dict[str, float] = {}
        self._risky: set[str] = set()  #: this decision's attempts that may stalemate
        #: this decision's quiet attempts after which a located pawn can be taken
        self._prepared: set[str] = set()
        self._density: list[float] | None = None
        self._weights: list[list[float]] | None = None  #: the decision's unit weights
        self._mate: MateSearch | None = None  #: kept between moves: its memo stays true
        self._minor = MinorEndgame(rng)  #: KBB vs K and KBN vs K: rules of their own
        self._rook = RookEndgame(rng)  #: KR vs K: the rook's cut (rook.py)
        #: KQ or KR against a king and one unit: the joint belief (unit.py)
        self._unit = UnitEndgame(rng)
        self._still: PawnsStill | None = None  #: mates with pawns standing (conversion.py)

    def choose(self, meta: Metaposition, attempts: list[str], budget: float) -> str:
        """The best of ``attempts`` (UCI texts) for ``meta`` within ``budget`` seconds."""
        if meta.units == 0:
            warm()  # a no-op once the tables are loaded: never paid from the budget
        self._unit.track(meta)  # one enemy unit left: its joint belief narrows the sets
        started = self.clock()
        deadline = started + budget
        small = meta.may[chess.KING].bit_count() <= SMALL_REGION
        forced = self._forced_mate(meta, started + budget * MATE_SHARE[small])
        if forced is None:
            forced = self._pawns_still_mate(meta, started + budget * MATE_SHARE[small])
        if forced is not None and forced in attempts:
            self.last = {forced: WIN}
            return forced
        planned = self._minor.choose(meta, attempts)
        if planned is None:
            planned = self._rook.choose(meta, attempts)
        if planned is None:
            planned = self._unit.choose(meta, attempts)
        if planned is not None:
            self.last = {planned: 0.0}
            return planned
        moves = [chess.Move.from_uci(text) for text in attempts]
        order = sorted(moves, key=lambda move: -self._promise(meta, move))
        scores: dict[str, float] = {}
        staled: dict[str, float] = {}
        self._risky = set()
        self._prepared = set()
        self._density = densities(meta)
        self._weights = unit_weights(meta) if meta.units else None
        for move in order:
            scores[move.uci()], staled[move.uci()] = self._scores(meta, move)
            if self.clock() > deadline:
                break
        if meta.units == 0 and self.depth > 1:
            # A lone king: look one more of our moves ahead, best first, while time lasts.
            ranked = sorted(scores, key=lambda text: -scores[text])[: self.width]
            for text in ranked:
                if self.clock() > deadline:
                    break
                move = chess.Move.from_uci(text)
                scores[text], staled[text] = self._scores(meta, move, depth=2)
        reset = self._clock_reset(meta, scores, staled, moves)
        scores = self._refusals(meta, scores, moves)
        self.last = scores
        self._density = None
        self._weights = None
        if reset is not None:
            return reset
        best = max(scores.values())
        tied = sorted(text for text, value in scores.items() if value >= best - 0.5)
        return self.rng.choice(tied)

    def witness(self, meta: Metaposition, event: dict[str, Any]) -> None:
        """A projection, seen before ``meta`` takes it: the planners that keep their own
        belief between decisions (``unit.py``) follow it."""
        self._unit.observe(meta, event)

    def _clock_reset(
        self,
        meta: Metaposition,
        scores: dict[str, float],
        staled: dict[str, float],
        offered: list[chess.Move],
    ) -> str | None:
        """An attempt that resets the 50-move count (a pawn move, a likely capture)
        when, with the quiet branches moved toward DRAW by their stale share, the best
        attempts all reset it; else None, and the decision is the search's as before
        the count mattered. Only a reset changes a decision: moving every quiet branch
        alike re-dealt game 201 of seed 9 (BNP against a lone king, no reset worth
        making, mated at ply 384 on main), the ties among the quiet moves tighter and
        the refusals' fixed cost unscaled (a fifty-move draw at ply 390)."""
        self.last_stale = {}
        if staled == scores:
            return None
        staled = self._refusals(meta, staled, offered)
        self.last_stale = staled
        located = meta.known | meta.blockers

        def resets(text: str) -> bool:
            move = chess.Move.from_uci(text)
            if meta.own.piece_type_at(move.from_square) == chess.PAWN:
                return True
            if chess.BB_SQUARES[move.to_square] & located:
                return True
            if text in self._prepared:
                return True
            return meta.occupancy(move.to_square) >= CLOCK_SURE

        if self._stale(meta, meta.own) < CLOCK_RISK:
            staled = {
                text: value
                for text, value in staled.items()
                if text not in self._risky or not resets(text)
            }
        if not staled:
            return None
        best = max(staled.values())
        tied = sorted(text for text, value in staled.items() if value >= best - 0.5)
        if not all(resets(text) for text in tied):
            return None
        return self.rng.choice(tied)

    def _refusals(
        self, meta: Metaposition, scores: dict[str, float], offered: list[chess.Move]
    ) -> dict[str, float]:
        """Each score as the expectation over the umpire's refusal: with the chance
        ``q`` that the attempt is illegal we play the best attempt that cannot be refused
        instead, less ILLEGAL_COST (a wasted attempt tells us little and costs time), or
        a pawn's own price (:func:`_refusal_cost`). A refused *probe* (:func:`probes`) is
        worth that best attempt plus PROBE."""
        density = self._density
        chances = {
            text: illegal_chance(meta, chess.Move.from_uci(text), offered, density)
            for text in scores
        }
        safe = [v for t, v in scores.items() if chances[t] == 0.0 and v > _CERTAINLY_ILLEGAL]
        opened = [v for v in scores.values() if v > _CERTAINLY_ILLEGAL]
        if not opened:
            return scores
        best = max(safe or opened)
        found = probes(meta)
        refused = {
            text: best + PROBE
            if found and probing(meta, text, found)
            else min(best - _refusal_cost(meta, text), value)
            for text, value in scores.items()
        }
        return {
            text: value
            if value <= _CERTAINLY_ILLEGAL or chances[text] == 0.0
            else (1.0 - chances[text]) * value + chances[text] * refused[text]
            for text, value in scores.items()
        }

    def _forced_mate(self, meta: Metaposition, deadline: float) -> str | None:
        """Against a lone king (and no pawns of ours): an attempt that mates whatever
        the king does within MATE_DEPTH of our moves, if the search finds one in time."""
        own = meta.own
        if meta.units != 0 or own.pawns & own.occupied_co[meta.color]:
            return None
        if self._mate is None or self._mate.color != meta.color:
            self._mate = MateSearch(meta.color, deadline, clock=self.clock)
        avoid = _repeating(meta)
        found = self._mate.find(own, meta.may[chess.KING], MATE_DEPTH, deadline, avoid)
        return found[0].uci() if found is not None else None

    def _pawns_still_mate(self, meta: Metaposition, deadline: float) -> str | None:
        """A forced mate on a king that must move while pawns stand still: a lone king
        and pawns of ours, or every enemy unit a pawn blocked by ours (``conversion.py``)."""
        if self._still is None or self._still.color != meta.color:
            self._still = PawnsStill(meta.color, clock=self.clock)
        found = self._still.find(meta, deadline)
        return found[0].uci() if found is not None else None

    def _promise(self, meta: Metaposition, move: chess.Move) -> float:
        """A cheap guess of an attempt's worth, to search the likely best first."""
        target = chess.BB_SQUARES[move.to_square]
        promise = 0.0
        if target & meta.known:
            promise += 10.0
        if target & meta.maybe_units():
            promise += 5.0 * meta.occupancy(move.to_square)
        if move.promotion == chess.QUEEN:
            promise += 8.0
        return promise + self.rng.random()

    # -- one attempt -------------------------------------------------------------------

    def branches(self, meta: Metaposition, move: chess.Move) -> list[Branch]:
        """The branches the umpire's answer to ``move`` may open, with their values."""
        if self._tick is not None:
            self._tick(1)
        own = meta.own
        color = meta.color
        kind = own.piece_type_at(move.from_square)
        if kind is None:
            return []
        target = chess.BB_SQUARES[move.to_square]
        diagonal_pawn = kind == chess.PAWN and chess.square_file(
            move.from_square
        ) != chess.square_file(move.to_square)
        units = meta.maybe_units()
        if not could_be_legal(meta, move, kind, diagonal_pawn):
            return []
        pawn_step = kind == chess.PAWN and not diagonal_pawn
        can_take = not pawn_step and (
            bool(target & units) or (diagonal_pawn and bool(target & meta.their_ep))
        )
        can_be_quiet = not diagonal_pawn and not target & meta.known
        if not can_take and not can_be_quiet:
            return []
        after = own.copy(stack=False)
        after.push(move)
        after.turn = color
        after.ep_square = None
        passed = chess.between(move.from_square, move.to_square) | target
        king_set = meta.may[chess.KING] & ~passed
        if kind == chess.KING:
            king_set &= ~chess.BB_KING_ATTACKS[move.to_square]
            if not king_set:
                return []  # the enemy king stands next to that square: surely illegal
        lone = only_king_moves(after, color, meta.may, meta.pieces_max, meta.units)
        lone = lone or jammed(meta, after)
        # A unit surely there blocks our lines: game 191 of seed 9 (wild16, nodes=1000),
        # the last unit a knight on a3, checking us, hid a4-a6 from our queen a1; seen
        # through it the king there was mated or stalemated on every move.
        possible = possible_attacks(after, color, meta.sure_units() & ~passed)
        certain = (
            possible
            if meta.units == 0
            else surely_attacked(after, color, units & ~passed, meta.units, possible)
        )
        few = meta.units <= 4
        # A flight counts unless a unit likely stands on it (known there, or a blocker):
        # counting every square a unit may stand on made most squares look stalemated.
        crowded = (meta.known | meta.blockers) & units if few else 0
        outcome = king_outcomes(king_set, possible, certain, lone, crowded)
        hemmed = 0
        if few and not lone:
            # Squares whose only flights are squares where a unit of its own may stand.
            wide = king_outcomes(king_set, possible, certain, lone, units)
            hemmed = wide.stalemated & ~outcome.stalemated
        static = self._static(meta, after, target if pawn_step else 0)
        repeated = _REPEAT[min(meta.history.count(after.board_fen()), 2)]
        static -= repeated
        reset = self._reset_value(meta, after)
        stale = self._stale(meta, after)
        if stale and kind != chess.PAWN and self._prepares(meta, after, move):
            stale *= PREPARED_STALE
            self._prepared.add(move.uci())
        if kind == chess.PAWN:
            static += reset  # a pawn move resets the 50-move count
        chance = meta.occupancy(move.to_square) if can_take else 0.0
        if can_take and meta.units <= FEW_UNITS:
            # With few units the presence map knows better than the sets' densities:
            # game 219 of seed 9 (wild16, nodes=1000) drew with our king beside the
            # last unit, a pawn the map held 0.5 to 0.6 likely there, taken at 0.04.
            chance = max(chance, unit_chance(meta, move.to_square))
        if can_take and target & meta.blockers:
            chance = max(chance, BLOCKER_STAYS)
        if diagonal_pawn and not target & units:
            chance = 0.5
        result: list[Branch] = []
        takes: list[tuple[bool, float]] = []
        if can_be_quiet:
            takes.append((False, 1.0 - chance if can_take else 1.0))
        if can_take:
            takes.append((True, chance if can_be_quiet else 1.0))
        mating = has_mating_material(own, color)
        if mating and not has_mating_material(after, color) and meta.units == 0:
            # An under-promotion that leaves nothing to mate a lone king with: a draw.
            return [Branch("draw", DRAW, 1.0)]
        # The weight of the king's region follows the material we had before the move:
        # measured on the material after it, promoting to a bishop scored better than to
        # a queen (no region left to shrink) and drew 8 KP vs K games in 10.
        weight = self._region_weight(meta, mating, lone)
        our_king = after.king(color)
        queen = bool(after.queens & after.occupied_co[color])
        rook = _lone_rook(after, color) if meta.units == 0 else None
        density = self._density if self._density is not None else densities(meta)
        nerve = self._nerve(meta, after)
        trade = TRADE if self._far_to_trade(meta, after) else 0.0
        static -= nerve * threats(meta, after, possible, density, gamma=self.gamma, trade=trade)
        static -= self._king_danger(meta, after)
        last = None
        if meta.units == 1 and can_take and not lone:
            # Taking the last unit leaves the king alone: it must move, so a square with
            # no flight is surely a stalemate (or a mate), whatever the unit could do.
            last = king_outcomes(king_set, possible, possible, True)
        for took, share in takes:
            alone = lone or (took and last is not None)
            here = last if took and last is not None else outcome
            gain = (meta.value_at(move.to_square) or float(VALUES[chess.PAWN])) if took else 0.0
            gain *= 1.0 + trade
            if took and kind != chess.PAWN:
                gain += reset  # so does a capture
            if took and target & meta.may[chess.PAWN]:
                gain += 2.0 * enemy_pawn_bonus(move.to_square, meta.enemy)
            for checked, region, after_region in (
                (True, here.checked, here.after_checked),
                (False, here.quiet, here.after_quiet),
            ):
                if not region:
                    continue
                risk = nerve * reach_threat(meta, after, region, possible, FEW_UNITS)
                room = possible if lone else (certain if self._endgame(meta) else None)
                if checked and lone and queen:
                    # A queen's check has found the king: its region's size says it
                    # all; the box it may open by stepping over a line is closed next.
                    room = None
                value = static + gain - risk
                value += region_value(after_region, our_king, weight, room)
                if rook is not None and our_king is not None:
                    value -= weight * DTM_WEIGHT * worst_distance(our_king, rook, after_region)
                answer = ("capture+" if took else "") + ("check" if checked else "silent")
                size = region.bit_count() / max(1, king_set.bit_count())
                weight_ = share * max(size, 1e-3)
                kept = risk + repeated
                exposed = exposure(meta, after, region, possible)
                late = stale if not took and kind != chess.PAWN else 0.0
                result.append(
                    Branch(answer, value, weight_, after, after_region, kept, exposed, late)
                )
            if here.mated:
                # Surely mate when the king alone can move; else likely mate or a block.
                size = here.mated.bit_count() / max(1, king_set.bit_count())
                value = static + gain + (WIN if alone else LIKELY_MATE)
                result.append(Branch("mate", value, share * size))
            if here.stalemated and (alone or few):
                # With few enemy units they may all be stuck: a draw by the chance that
                # they are (every unit's pawn squares blocked by our pieces).
                size = here.stalemated.bit_count() / max(1, king_set.bit_count())
                stuck = 1.0
                if not alone:
                    left = meta.units - int(took)
                    stuck = stuck_chance(meta, after, left, here.stalemated)
                value = stuck * DRAW + (1.0 - stuck) * (static + gain)
                drawn = 0.0 if alone else static + gain - value
                result.append(Branch("stalemate", value, share * size, drawn=drawn))
            if hemmed and not alone:
                # A stalemate if the flights are all occupied and the units stuck: the
                # king on h1 of game 57 (seed 1) had only h2, where one of two pawns not
                # located stood (only a blocker counted as occupied): stalemate.
                chance = self._hemmed_chance(meta, hemmed, possible, after)
                chance *= stuck_chance(meta, after, meta.units - int(took), hemmed)
                size = hemmed.bit_count() / max(1, king_set.bit_count())
                value = chance * DRAW + (1.0 - chance) * (static + gain)
                drawn = static + gain - value
                result.append(Branch("stalemate", value, share * size, drawn=drawn))
        if not result:  # an empty king set (cannot happen if the invariant holds)
            result.append(Branch("silent", static, 1.0))
        return result

    def _king_danger(self, meta: Metaposition, after: chess.Board) -> float:
        """What the chance that the enemy mates our king next move costs
        (:func:`bots.kriegspiel.meta.safety.danger`)."""
        if not meta.units:
            return 0.0
        weights = self._weights if self._weights is not None else unit_weights(meta)
        return danger(meta, after, weights)

    @staticmethod
    def _reset_value(meta: Metaposition, after: chess.Board) -> float:
        """What resetting the 50-move count is worth: nothing until CLOCK_ALARM of our
        moves passed without one, or unless we are ahead with material that mates.
        Replays of the games drawn by the 50-move rule (seed 1): with our pawns free to
        move, the count ran out while the king was hunted."""
        late = meta.quiet_moves - CLOCK_ALARM + 1
        if late <= 0 or not Searcher._ahead_to_reset(meta, after):
            return 0.0
        return CLOCK_STEP * late

    @staticmethod
    def _ahead_to_reset(meta: Metaposition, after: chess.Board) -> bool:
        """Whether we (on ``after``) are ahead as the 50-move count's terms require: with
        material that mates, and a rook or more over the enemy's."""
        if not strong_material(after, meta.color):
            return False
        return material(after, meta.color) >= meta.enemy_material() + VALUES[chess.ROOK]

    @staticmethod
    def _far_to_trade(meta: Metaposition, after: chess.Board) -> bool:
        """Whether trading down pays (TRADE): enemy units left, and we (on ``after``) are
        ahead as the 50-move count's terms require, with each enemy unit counted
        as a rook at the least (an unseen promotion leaves the rough estimate low)."""
        if not meta.units or not Searcher._ahead_to_reset(meta, after):
            return False
        return material(after, meta.color) >= (meta.units + 1) * VALUES[chess.ROOK]

    @staticmethod
    def _nerve(meta: Metaposition, after: chess.Board) -> float:
        """How much of the fear of losing a piece counts: 1 until CLOCK_ALARM of our moves
        passed without a reset, then falling evenly to NERVE_FLOOR at our fiftieth, while
        we are :meth:`_ahead_to_reset`. A lone king's threat stays
        whole: every piece of ours may be one the mate needs."""
        late = meta.quiet_moves - CLOCK_ALARM + 1
        if late <= 0 or meta.units == 0 or not Searcher._ahead_to_reset(meta, after):
            return 1.0
        return max(NERVE_FLOOR, 1.0 - late / (_FIFTY - CLOCK_ALARM))

    @staticmethod
    def _prepares(meta: Metaposition, after: chess.Board, move: chess.Move) -> bool:
        """Whether ``move`` (played on ``after``) brings a piece to attack a located pawn
        it did not take, while no such capture is ready now: the capture, a reset of the
        50-move count, is then ready for the next move. (Were one ready now, every quiet
        move would keep it so: game 269 of seed 9, its knight on c3's pawn.)"""
        color = meta.color
        own = meta.own
        if hunt_targets(meta, own) & possible_attacks(own, color):
            return False
        kind = after.piece_type_at(move.to_square)
        if kind is None:
            return False
        reach = attacks(kind, color, move.to_square, after.occupied)
        return bool(hunt_targets(meta, after) & reach)

    @staticmethod
    def _stale(meta: Metaposition, after: chess.Board) -> float:
        """The share of a branch that does not reset the 50-move count (no capture, no
        pawn move) drawn by the rule: 0 before CLOCK_DRAWN of our quiet moves, then
        growing evenly to 1 when this move is our fiftieth, while we are
        :meth:`_ahead_to_reset` (a draw is no loss when we are not)."""
        left = _FIFTY - meta.quiet_moves - 1  # our moves left after this one
        share = 1.0 - left / (_FIFTY - CLOCK_DRAWN)
        if share <= 0.0 or not Searcher._ahead_to_reset(meta, after):
            return 0.0
        return min(1.0, share)

    def _hemmed_chance(
        self, meta: Metaposition, hemmed: int, possible: int, board: chess.Board
    ) -> float:
        """The largest chance, over the squares of ``hemmed``, that every flight of a
        king standing there is occupied by one of its units: by occupancy, a blocker
        with BLOCKER_STAYS, and a square in front of one of our pawns (on ``board``)
        where a pawn may stand with PAWN_STUCK: late in a game the pawns left are often
        the blocked ones (game 4 of seed 1: the king's one flight was such a square,
        held by a pawn; by occupancy alone the chance was 0.11 and the bot stalemated); at
        least the presence map's chance (game 239: the flights b4 and b5 held the pawns
        the map had there)."""
        density = self._density if self._density is not None else densities(meta)
        presence = meta.presence
        fronts = forward(board.pawns & board.occupied_co[meta.color], meta.color)
        fronts &= meta.may[chess.PAWN]
        behind = _stuck_behind(meta, board)
        share = 1.0
        if presence is not None and meta.units:
            share = min(1.0, presence.mass[chess.PAWN] / meta.units)
        seen: dict[int, float] = {}
        worst = 0.0
        for square in chess.SquareSet(hemmed):
            chance = 1.0
            for flight in chess.SquareSet(chess.BB_KING_ATTACKS[square] & ~possible):
                occupied = seen.get(flight)
                if occupied is None:
                    occupied = _occupancy(meta, flight, density)
                    if presence is not None:
                        occupied = max(occupied, presence.at(flight, meta.may))
                    bit = chess.BB_SQUARES[flight]
                    if bit & meta.blockers:
                        occupied = max(occupied, BLOCKER_STAYS)
                    if bit & fronts:
                        occupied = max(occupied, PAWN_STUCK)
                    if bit & behind:
                        occupied = max(occupied, PAWN_STUCK * share)
                    seen[flight] = occupied
                chance *= occupied
            worst = max(worst, chance)
            if worst >= 1.0:
                break
        return worst

    def score(self, meta: Metaposition, move: chess.Move, depth: int = 1) -> float:
        """The attempt's value: worst branch plus ``blend`` of the gap to their mean,
        less a small cost for the chance the umpire calls it illegal.

        With ``depth`` 2 (lone enemy king only) each open branch is worth our best next
        attempt from it instead of its static value: our move, the umpire's answer, the
        king's reply, our next move."""
        return self._scores(meta, move, depth)[0]

    def _scores(self, meta: Metaposition, move: chess.Move, depth: int = 1) -> tuple[float, float]:
        """:meth:`score`, and the same with each branch that does not reset the 50-move
        count moved toward DRAW by its stale share (the two merged from one search)."""
        branches = self.branches(meta, move)
        if not branches:
            return _CERTAINLY_ILLEGAL, _CERTAINLY_ILLEGAL
        if depth > 1:
            branches = [self._deepen(meta, branch) for branch in branches]
        hunt = self._hunting(meta)
        value = self.merge(branches, hunt)
        if any(branch.answer == "stalemate" for branch in branches):
            self._risky.add(move.uci())
        if not any(branch.stale for branch in branches):
            return value, value
        staled = [
            replace(branch, value=(1.0 - branch.stale) * branch.value + branch.stale * DRAW)
            for branch in branches
        ]
        return value, self.merge(staled, hunt)

    def _deepen(self, meta: Metaposition, branch: Branch) -> Branch:
        if branch.board is None or not branch.region:
            return branch
        child = meta.copy()
        child.own = branch.board
        child.may = [0] * 6 + [branch.region]
        child.history = [*meta.history, branch.board.board_fen()]
        best = max(
            (self.score(child, move) for move in branch.board.generate_pseudo_legal_moves()),
            default=branch.value,
        )
        # A move later is worth a little less: mate now beats mate next move.
        value = max(best, _CERTAINLY_ILLEGAL + 1) - branch.risk - _LATER
        return Branch(
            branch.answer,
            value,
            branch.weight,
            risk=branch.risk,
            exposure=branch.exposure,
            stale=branch.stale,
        )

    def merge(self, branches: list[Branch], hunt: bool = False) -> float:
        """Worst case of ``branches`` plus ``blend`` of the gap to their weighted mean.

        When ``hunt``ing a lone king with a rook the mean rules instead (``hunt_blend``),
        except that a stalemate still counts by its worst case (the risk to the rook is
        weighed inside each branch, :func:`evaluate.king_threat`)."""
        worst = min(branch.value for branch in branches)
        total = sum(branch.weight for branch in branches)
        mean = sum(branch.value * branch.weight for branch in branches) / total
        if hunt:
            lost = sum(branch.exposure * branch.weight for branch in branches) / total
            if lost > LOSS_CHANCE or _mate_gamble(branches):
                return worst  # not a gamble worth the game
            merged = worst + self.hunt_blend * (mean - worst)
            drawn = [branch.value for branch in branches if branch.answer == "stalemate"]
            return min([merged, *drawn])
        # The chance of a stalemate is paid in full on top (DRAW_AVERSION): by the worst
        # case alone a branch whose units are stuck 10% of the time, the king there one
        # time in three, cost no more than a move of the search's other terms.
        priced = sum(branch.drawn * branch.weight for branch in branches)
        return worst + self.blend * (mean - worst) - DRAW_AVERSION * priced

    # -- static terms ------------------------------------------------------------------

    def _static(self, meta: Metaposition, after: chess.Board, stepped: int = 0) -> float:
        """Material, pawn progress, our king's place, the located pawns still to take;
        ``stepped``: the square one of our pawns stepped onto (it takes nothing)."""
        color = meta.color
        value = float(material(after, color) - meta.enemy_material())
        value += pawn_progress(after, color)
        walk = _blocker_distance(meta, after) if meta.units <= FEW_UNITS else None
        if meta.pieces_max >= 2 and meta.units > FEW_UNITS:
            king = after.king(color)
            if king is not None:
                rank = chess.square_rank(king)
                # While the enemy has pieces, our king stays home, castled if it can.
                value -= away_from_home(meta, rank if color == chess.WHITE else 7 - rank)
                castled = meta.own.castling_rights and not after.castling_rights
                if castled and king in (chess.G1, chess.C1, chess.G8, chess.C8):
                    value += 25.0
        elif walk is not None:
            value -= BLOCKER_WALK * walk
        if strong_material(after, color) and (meta.units <= FEW_UNITS or _late(meta, after)):
            value -= hunt_cost(meta, after, stepped)
        return value

    @staticmethod
    def _hunting(meta: Metaposition) -> bool:
        """Whether to merge by the mean: a lone enemy king and no queen of ours. A rook
        cannot push its line forward without a hidden king possibly stepping over it;
        by the worst case it seldom tries and the 50-move rule draws (KR vs K from 30
        starts: 0% mates against a king heading for the centre; 10% by the mean with the
        rook's loss capped at LOSS_CHANCE, 91.7% against the random king). A queen's
        checks find the king, and the worst case mates more often there (90% against
        57% by the mean, the centre king).
        """
        own = meta.own
        return meta.units == 0 and not own.queens & own.occupied_co[meta.color]

    @staticmethod
    def _endgame(meta: Metaposition) -> bool:
        """Whether the enemy is down to its king and at most two units (or only pawns):
        time to hunt the king."""
        return meta.units <= 2 or meta.pieces_max == 0

    @staticmethod
    def _region_weight(meta: Metaposition, mating: bool, lone: bool) -> float:
        if not mating:
            return 0.0
        if lone or Searcher._endgame(meta):
            return 12.0
        if meta.units <= 3:
            return 4.0
        return 1.0
