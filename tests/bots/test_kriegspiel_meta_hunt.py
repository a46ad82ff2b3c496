"""Converting won positions with pawns left (issue 18): hunting located enemy pawns, the
king's threat with few units left, and stalemates by flights where a unit may stand."""

from __future__ import annotations

import random

import chess

from bots.kriegspiel.meta import Metaposition
from bots.kriegspiel.meta.evaluate import (
    ESSENTIAL,
    HUNT_STEP,
    HUNT_TARGET,
    hunt_cost,
    hunt_targets,
    king_threat,
)
from bots.kriegspiel.meta.search import FEW_UNITS, Searcher, probes
from bots.kriegspiel.meta.update import observe
from bots.sdk.budget import NodeClock

#: a node budget the searches below never reach: a deterministic stand-in for the
#: seconds they were once given (wall time made the choice depend on the machine's load)
ALL_NODES = 10**7


def _blocked(fen: str, step: str) -> Metaposition:
    """A custom start whose enemy pieces may stand anywhere, after our pawn ``step``
    was refused (the square ahead of our pawn holds a unit: a blocker)."""
    meta = Metaposition.from_start(chess.WHITE, "wild16", fen)
    meta.check_known = True  # as after the first move heard: we are not in check
    observe(meta, {"type": "illegal", "color": "white", "move": step, "answer": "illegal"})
    return meta


def test_a_located_pawn_costs_until_a_piece_attacks_it_and_nothing_once_taken() -> None:
    # Our f4 pawn's step was refused: a unit (the lone black pawn, likely) is on f5.
    meta = _blocked("7k/8/8/5p2/5P2/8/1N6/K6R w - - 0 1", "f4f5")
    assert hunt_targets(meta, meta.own) == chess.BB_SQUARES[chess.F5]
    # The rook is a move from attacking f5 (h5); the knight two.
    assert hunt_cost(meta, meta.own) == HUNT_TARGET + HUNT_STEP

    def after(uci: str, meta: Metaposition = meta) -> float:
        board = meta.own.copy(stack=False)
        board.push(chess.Move.from_uci(uci))
        return hunt_cost(meta, board)

    assert after("h1h5") == HUNT_TARGET  # the rook attacks f5 along the fifth rank
    assert after("h1f1") == HUNT_TARGET + 2 * HUNT_STEP  # behind our own pawn
    board = meta.own.copy(stack=False)
    board.set_piece_at(chess.F5, chess.Piece(chess.ROOK, chess.WHITE))  # taken
    assert hunt_cost(meta, board) == 0.0
    # A pawn step onto it takes nothing (scored as taken, it was retried every move).
    stepped = meta.own.copy(stack=False)
    stepped.push(chess.Move.from_uci("f4f5"))
    assert hunt_cost(meta, stepped, chess.BB_SQUARES[chess.F5]) >= HUNT_TARGET
    knight = _blocked("7k/8/8/5p2/5P2/8/1N6/K7 w - - 0 1", "f4f5")
    assert hunt_cost(knight, knight.own) == HUNT_TARGET + 2 * HUNT_STEP
    assert after("b2c4", knight) == HUNT_TARGET + HUNT_STEP  # from c4: e3 or d6 next


def test_the_search_takes_a_blocked_pawn_next_to_its_rook() -> None:
    # Game 34 of seed 1 (colours swapped): our rook beside the last enemy pawn, which
    # refused our pawn a step, and a king that may stand almost anywhere.
    meta = _blocked("7k/8/8/8/pR6/P7/8/4K3 w - - 0 1", "a3a4")
    assert meta.units == 1
    assert meta.blockers == chess.BB_SQUARES[chess.A4]
    searcher = Searcher(random.Random(3), clock=NodeClock())
    legal = [move.uci() for move in meta.own.generate_pseudo_legal_moves()]
    assert searcher.choose(meta, legal, ALL_NODES) == "b4a4"


def test_with_few_units_a_spare_piece_is_feared_by_the_share_of_the_region() -> None:
    # A knight next to one square of a wide region: with one enemy unit left, its loss
    # counts by the region's share near it; with many units, by the worst case.
    meta = Metaposition.from_start(chess.WHITE, "wild16", "k7/8/8/8/8/8/p3N3/K3R3 w - - 0 1")
    region = chess.BB_RANK_4 | chess.BB_RANK_5 | chess.BB_RANK_6  # 24 squares
    near_knight = chess.BB_SQUARES[chess.D3] | region
    board = meta.own
    feared = king_threat(meta, board, near_knight, 0, FEW_UNITS)
    assert 0 < feared < 0.2 * 300
    assert king_threat(meta, board, near_knight, 0) == 300  # by the worst case
    # The last rook, beside nothing else strong: still essential, feared in full.
    rook = Metaposition.from_start(chess.WHITE, "wild16", "k7/8/8/8/8/8/p7/K3R3 w - - 0 1")
    near_rook = chess.BB_SQUARES[chess.D2] | region
    assert king_threat(rook, rook.own, near_rook, 0, FEW_UNITS) >= 0.3 * ESSENTIAL


def test_a_king_whose_only_flight_may_hold_its_pawn_fears_a_stalemate() -> None:
    # Game 57 of seed 1 (colours swapped): the king on h8, our king steps to f7, the only
    # flight left is h7, where one of the two pawns not located may stand (behind the h6
    # pawn that our h5 pawn blocks).
    meta = Metaposition.from_start(chess.WHITE, "wild16", "7k/4K3/8/7P/8/8/8/8 w - - 0 1")
    meta.start_counts = {**meta.start_counts, chess.PAWN: 2}
    meta.units = 2
    meta.may[chess.KING] = chess.BB_SQUARES[chess.H8] | chess.BB_SQUARES[chess.G8]
    meta.may[chess.PAWN] = chess.BB_SQUARES[chess.H7] | chess.BB_SQUARES[chess.H6]
    meta.tighten()
    searcher = Searcher(random.Random(1), clock=NodeClock())
    branches = searcher.branches(meta, chess.Move.from_uci("e7f7"))
    assert any(branch.answer == "stalemate" for branch in branches)
    safe = searcher.branches(meta, chess.Move.from_uci("e7d7"))
    assert not any(branch.answer == "stalemate" for branch in safe)


def test_the_fifty_move_count_is_heard_and_a_reset_is_worth_more_late() -> None:
    meta = Metaposition.from_start(chess.WHITE, "wild16", "7k/8/8/8/8/8/P7/K1R5 w - - 0 1")
    observe(meta, {"type": "move", "color": "white", "move": "c1c5"})
    observe(meta, {"type": "move", "color": "black"})
    observe(meta, {"type": "move", "color": "white", "move": "c5c6"})
    assert meta.quiet_moves == 2
    searcher = Searcher(random.Random(1), clock=NodeClock())
    push = chess.Move.from_uci("a2a3")
    early = searcher.score(meta, push) - searcher.score(meta, chess.Move.from_uci("c6c7"))
    meta.quiet_moves = 45
    late = searcher.score(meta, push) - searcher.score(meta, chess.Move.from_uci("c6c7"))
    assert late > early + 100
    observe(meta, {"type": "move", "color": "white", "move": "a2a3"})
    assert meta.quiet_moves == 0
    meta.quiet_moves = 7
    observe(meta, {"type": "move", "color": "black", "capture": "c6"})
    assert meta.quiet_moves == 0


def test_a_step_that_may_locate_a_blocked_pawn_is_a_probe_until_it_is_refused() -> None:
    meta = Metaposition.from_start(chess.WHITE, "wild16", "k7/8/8/8/2p5/2P5/8/K2Q4 w - - 0 1")
    meta.check_known = True
    assert probes(meta) == chess.BB_SQUARES[chess.C4]
    searcher = Searcher(random.Random(1), clock=NodeClock())
    legal = [move.uci() for move in meta.own.generate_pseudo_legal_moves()]
    searcher.choose(meta, legal, ALL_NODES)
    probing = searcher.last["c3c4"]
    observe(meta, {"type": "illegal", "color": "white", "move": "c3c4", "answer": "illegal"})
    assert meta.blockers == chess.BB_SQUARES[chess.C4]
    assert probes(meta) == 0  # located: no probe any more
    crowded = Metaposition.from_start(chess.WHITE, "wild16", "k7/pppp4/8/8/8/2P5/8/K2Q4 w")
    assert probes(crowded) == 0  # four units: not yet
    # The same position with no pawn possible on c4: the step scores as a plain move.
    blind = Searcher(random.Random(1), clock=NodeClock())
    plain = Metaposition.from_start(chess.WHITE, "wild16", "k7/8/8/8/2p5/2P5/8/K2Q4 w")
    plain.check_known = True
    plain.may[chess.PAWN] &= ~chess.BB_SQUARES[chess.C4]
    assert probes(plain) == 0
    blind.choose(plain, legal, ALL_NODES)
    assert probing > blind.last["c3c4"] + 5
