"""A pawn step of ours refused where the enemy king may stand names a blocker the king
may have made (``Metaposition.doubtful``): a king moves on, so it is no wall for the
plans that let the king alone move (``search.jammed``, ``conversion.jammed_pawns``)
until the step is refused again where the king cannot be. Game 61 of seed 9 (wild16,
nodes=1000, main at 66a0f09): f3-f2 was refused by the white king on f2 (ply 115), the
king left, and with one unit left the f2 "wall" stood for it; ``PawnsStill`` planned a
mate with the h-file empty while the h-pawn ran up it, and stalemated its king
(docs/kriegspiel_meta.md, *A blocker the king may have made*). Nor is such a blocker
taken as held once the king cannot stand there (``Metaposition.held``, game 274)."""

from __future__ import annotations

import chess

from bots.kriegspiel.meta import Metaposition
from bots.kriegspiel.meta.conversion import field_of, jammed_pawns
from bots.kriegspiel.meta.legality import BLOCKER_BLOCKS, path_occupancy
from bots.kriegspiel.meta.search import jammed, probes
from bots.kriegspiel.meta.update import observe
from tests.bots.kriegspiel_squares import quiet

#: Black (us) with queen and rook, our pawn f3 in front of the white king f2; white's one
#: unit is its h-pawn.
KING_IN_FRONT = "3q4/4k3/5r2/7P/8/5p2/5K2/8 b - - 0 1"
#: The white king on h3, its pawn on f2 (a custom start tells the material only: the
#: king's region is set as located, away from f2).
KING_AWAY = "3q4/4k3/5r2/8/8/5p1K/5P2/8 b - - 0 1"


def _start(fen: str) -> Metaposition:
    meta = Metaposition.from_start(chess.BLACK, "wild16", fen)
    meta.check_known = True  # as after the first move heard: we are not in check
    return meta


def _refused(meta: Metaposition, step: str) -> None:
    observe(meta, {"type": "illegal", "color": "black", "move": step, "answer": "illegal"})


def test_a_step_the_king_may_have_refused_is_a_blocker_but_no_wall() -> None:
    meta = _start(KING_IN_FRONT)
    assert meta.may[chess.KING] & chess.BB_F2 and meta.units == 1
    _refused(meta, "f3f2")
    assert meta.blockers == chess.BB_F2  # the hint is kept (legality, the king's walk)
    assert meta.doubtful == chess.BB_F2
    assert meta.walls() == 0
    # On main the f2 "pawn" was the enemy's one unit, stuck: the king alone moved.
    assert jammed_pawns(meta, meta.own) == 0
    assert not jammed(meta, meta.own)
    assert field_of(meta) is None


def test_a_doubtful_blocker_the_king_cannot_stand_on_now_is_not_taken_as_held() -> None:
    """Game 274 of seed 9: g3-g2 once refused by the king; with the king gone, the step
    was retried as 90% refused (the floor on every blocker), went through and
    stalemated the king. Where the king cannot stand now, the square is as likely held
    as the map says; while it may, the floor stays."""
    meta = _start(KING_IN_FRONT)
    _refused(meta, "f3f2")
    assert meta.held() == chess.BB_F2
    assert path_occupancy(meta, chess.F2) >= BLOCKER_BLOCKS
    meta.may[chess.KING] = chess.BB_G4 | chess.BB_H4 | chess.BB_H3  # the king went away
    assert meta.held() == 0
    assert path_occupancy(meta, chess.F2) < 0.5
    wall = _start(KING_AWAY)
    wall.may[chess.KING] = chess.BB_H3
    _refused(wall, "f3f2")
    assert wall.held() == chess.BB_F2 and path_occupancy(wall, chess.F2) >= BLOCKER_BLOCKS


def test_the_step_refused_again_where_the_king_cannot_be_makes_it_a_wall() -> None:
    meta = _start(KING_IN_FRONT)
    _refused(meta, "f3f2")
    assert not probes(meta) & chess.BB_F2  # the king may still be there: nothing to learn
    meta.may[chess.KING] = chess.BB_G4 | chess.BB_H4 | chess.BB_H3  # the king went away
    assert probes(meta) & chess.BB_F2  # worth the step again
    _refused(meta, "f3f2")
    assert meta.doubtful == 0
    assert meta.walls() == chess.BB_F2
    assert jammed_pawns(meta, meta.own) == chess.BB_F2
    assert jammed(meta, meta.own)
    field = field_of(meta)
    assert field is not None and field.walls == chess.BB_F2


def test_a_step_refused_where_the_king_cannot_be_is_a_wall_at_once() -> None:
    meta = _start(KING_AWAY)
    meta.may[chess.KING] = chess.BB_H3
    _refused(meta, "f3f2")
    assert meta.doubtful == 0
    assert meta.walls() == meta.blockers == chess.BB_F2
    assert jammed_pawns(meta, meta.own) == chess.BB_F2
    # A wall stays a wall when the step is refused again with the king beside it.
    meta.may[chess.KING] |= chess.BB_F2
    _refused(meta, "f3f2")
    assert meta.walls() == chess.BB_F2


def test_our_move_through_the_square_forgets_the_doubt_with_the_blocker() -> None:
    meta = _start(KING_IN_FRONT)
    _refused(meta, "f3f2")
    observe(meta, quiet("black", move="f6f2"))
    assert meta.blockers == meta.doubtful == 0
    copy = _start(KING_IN_FRONT)
    _refused(copy, "f3f2")
    assert copy.copy().doubtful == chess.BB_F2
