"""Converting won positions (issue 18): stalemates judged by whether the enemy units are
stuck, the last unit's capture, and keeping the material we mate with."""

from __future__ import annotations

import random

import chess
import pytest

from bots.kriegspiel.meta import Metaposition
from bots.kriegspiel.meta.evaluate import (
    ESSENTIAL,
    PAWN_STUCK,
    king_threat,
    strong_material,
    stuck_chance,
)
from bots.kriegspiel.meta.legality import BLOCKER_STAYS, illegal_chance
from bots.kriegspiel.meta.search import BLOCKER_WALK, Searcher, jammed
from bots.kriegspiel.meta.update import observe
from bots.sdk.budget import NodeClock

#: a node budget the searches below never reach: a deterministic stand-in for the
#: seconds they were once given (wall time made the choice depend on the machine's load)
ALL_NODES = 10**7


def _known(fen: str) -> Metaposition:
    return Metaposition.from_start(chess.WHITE, "wild16", fen, know_start=True)


def test_a_pawn_blocked_by_our_piece_is_stuck_and_a_free_one_is_not() -> None:
    meta = _known("k7/8/8/8/4p3/4R3/8/K7 w - - 0 1")
    assert stuck_chance(meta, meta.own, 1) == 1.0
    free = _known("k7/8/8/8/4p3/8/8/K3R3 w - - 0 1")
    assert stuck_chance(free, free.own, 1) == 0.0
    assert stuck_chance(free, free.own, 0) == 1.0  # a lone king must move


def test_a_knight_is_seldom_stuck() -> None:
    meta = _known("k7/8/8/8/8/4n3/8/K3R3 w - - 0 1")
    assert 0.0 < stuck_chance(meta, meta.own, 1) < 0.1


def test_taking_the_last_unit_into_a_stalemate_is_a_draw() -> None:
    # After Bxe3 the king on a8 has no flight (a7 by the bishop, b7 and b8 by our king)
    # and nothing else to move: stalemate. The knight, before, could always move.
    meta = _known("k7/8/8/6B1/8/4n3/2K5/7R w - - 0 1")
    meta.own.push(chess.Move.from_uci("c2c7"))  # our king to c7 (a legal own-board step)
    meta.own.turn = chess.WHITE
    searcher = Searcher(random.Random(1), clock=NodeClock())
    assert searcher.score(meta, chess.Move.from_uci("g5e3")) < -1000
    legal = [m.uci() for m in meta.own.generate_pseudo_legal_moves()]
    assert searcher.choose(meta, legal, ALL_NODES) != "g5e3"


def test_a_king_without_flight_is_no_stalemate_while_a_knight_can_move() -> None:
    # The king on a8 has no flight already; quiet moves leave it so, but the knight moves.
    meta = _known("k7/2K5/8/8/3B4/4n3/8/7R w - - 0 1")
    searcher = Searcher(random.Random(1), clock=NodeClock())
    assert searcher.score(meta, chess.Move.from_uci("h1h2")) > -1000


def test_the_last_rook_is_essential_beside_minor_pieces() -> None:
    meta = _known("8/8/8/8/4k3/8/2R5/K1BN4 w - - 0 1")
    board = meta.own
    assert strong_material(board, chess.WHITE)
    region = chess.BB_SQUARES[chess.D3]  # next to the rook, which nothing defends
    loss = king_threat(meta, board, region, 0)
    assert loss >= ESSENTIAL
    assert not strong_material(chess.Board("8/8/8/8/4k3/8/8/K1BN4 w - - 0 1"), chess.WHITE)


def test_a_refused_pawn_step_leaves_a_blocker_our_king_walks_to() -> None:
    # A black pawn and a knight are left besides the king; our e4 pawn's step is refused.
    meta = Metaposition.from_start(chess.WHITE, "wild16", "7k/8/8/4p3/4P3/8/8/K5n1 w - - 0 1")
    meta.check_known = True  # as after the first move heard: we are not in check
    observe(meta, {"type": "illegal", "color": "white", "move": "e4e5", "answer": "illegal"})
    assert meta.blockers == chess.BB_SQUARES[chess.E5]
    unknown = meta.copy()
    unknown.blockers = 0
    searcher = Searcher(random.Random(1), clock=NodeClock())

    def gap(meta: Metaposition) -> float:  # b2 is a step nearer e5 than a2
        nearer = searcher.score(meta, chess.Move.from_uci("a1b2"))
        return nearer - searcher.score(meta, chess.Move.from_uci("a1a2"))

    assert gap(meta) - gap(unknown) == pytest.approx(BLOCKER_WALK, abs=0.5)


def test_a_refused_pawn_step_is_not_retried_blindly() -> None:
    meta = Metaposition.from_start(chess.WHITE, "wild16", "7k/8/8/4p3/4P3/8/8/K7 w - - 0 1")
    meta.check_known = True
    observe(meta, {"type": "illegal", "color": "white", "move": "e4e5", "answer": "illegal"})
    meta.known = 0  # as after the enemy's next quiet move: the blocker may have left
    assert illegal_chance(meta, chess.Move.from_uci("e4e5")) >= BLOCKER_STAYS
    meta.blockers = 0  # the unit may stand anywhere the rules allow: e5 is one of many
    assert illegal_chance(meta, chess.Move.from_uci("e4e5")) < 0.5


def test_pawns_that_refused_ours_a_step_leave_only_king_moves() -> None:
    meta = Metaposition.from_start(chess.WHITE, "wild16", "7k/8/8/4p3/4P3/8/8/K7 w - - 0 1")
    meta.check_known = True
    meta.may[chess.KING] = chess.BB_H8  # located: not the king's refusal (a pawn's)
    assert not jammed(meta, meta.own)
    observe(meta, {"type": "illegal", "color": "white", "move": "e4e5", "answer": "illegal"})
    assert jammed(meta, meta.own)
    knight = Metaposition.from_start(chess.WHITE, "wild16", "7k/8/8/4p3/4P3/8/8/K5n1 w - - 0 1")
    knight.check_known = True
    knight.may[chess.KING] = chess.BB_H8
    observe(knight, {"type": "illegal", "color": "white", "move": "e4e5", "answer": "illegal"})
    assert not jammed(knight, knight.own)  # the knight may move


def test_a_pawn_not_located_may_be_stuck() -> None:
    meta = Metaposition.from_start(chess.WHITE, "wild16", "7k/8/8/8/4p3/8/8/K3R3 w - - 0 1")
    assert meta.may[chess.PAWN].bit_count() > 1  # a custom start: anywhere it may stand
    assert stuck_chance(meta, meta.own, 1) >= PAWN_STUCK
