"""The stalemate fear where one of our sliders has a line to a square of the enemy king's
set: if the king stands there and is not in check, a unit of its own stands on the line,
pinned (``evaluate.stuck_chance``). The two stalemates of main's 400 games against
``kriegspiel-random`` with such a pin (seed 9, wild16, nodes=1000; main at 3dcaf65),
each rebuilt at the decision from the sets and the presence map the bot had
(``docs/s9_s9-stale.md``)."""

from __future__ import annotations

import random

import chess

from bots.kriegspiel.meta import Metaposition
from bots.kriegspiel.meta.evaluate import PIECE_STUCK, _line_unit, stuck_chance
from bots.kriegspiel.meta.search import Searcher
from tests.bots.kriegspiel_meta_harness import rebuilt
from tests.bots.kriegspiel_squares import bb

#: Game 330, our 78th move as black (QQQRBBNP against a lone bishop, the white king on h1
#: after Rd3-g3+). The bishop e1 stood pinned by our queen d1 to its king; the map held
#: 0.001 of a bishop on e1 (its weight gone since ply 139) and the bot played Nh8-g6:
#: stalemate. Only the map's weights of at least 0.0005 are kept.
GAME_330 = {
    "own": "6qn/3k4/8/8/6pb/6r1/b1q5/3q4",
    "color": chess.BLACK,
    "units": 1,
    "pawn_captures": 7, "piece_captures": 7, "promotions": 34, "quiet_moves": 7,
    "start_counts": {1: 8, 2: 2, 3: 2, 4: 2, 5: 1, 6: 1},
    "tries": 0,
    "their_ep": 2228224,
    "may": {
        chess.PAWN: "b2 f2 g2 h2 b3 f3 h3 b4 e4 f4 b5 e5 f5 b6 f6 b7 f7",
        chess.KNIGHT: "a1 b1 c1 e1 f1 g1 h1 b2 d2 e2 f2 g2 h2 a3 b3 c3 d3 e3 f3 h3 a4 b4 c4 d4 "
        "e4 f4 a5 b5 d5 f5 g5 h5 a6 c6 d6 e6 g6 h6 a7 b7 c7 e7 f7 g7 h7 a8 c8 d8 "
        "e8",
        chess.BISHOP: "a1 b1 c1 e1 f1 g1 h1 b2 d2 e2 f2 g2 h2 a3 b3 c3 d3 e3 f3 h3 a4 b4 c4 d4 "
        "e4 f4 a5 b5 c5 d5 e5 f5 g5 h5 a6 b6 d6 f6 g6 h6 a7 b7 c7 e7 f7 g7 h7 a8 "
        "b8 d8 f8",
        chess.ROOK: "a1 b1 c1 e1 f1 g1 h1 b2 d2 e2 f2 g2 h2 a3 b3 c3 d3 e3 f3 h3 a4 b4 c4 d4 "
        "e4 f4 a5 b5 c5 d5 e5 f5 g5 h5 a6 b6 c6 e6 f6 g6 h6 a7 b7 f7 g7 h7 a8 b8 "
        "c8 e8 f8",
        chess.QUEEN: "a1 b1 c1 e1 f1 g1 h1 b2 d2 e2 f2 g2 h2 a3 b3 c3 d3 e3 f3 h3 a4 b4 c4 d4 "
        "e4 f4 a5 b5 c5 d5 e5 f5 g5 h5 a6 b6 f6 g6 h6 a7 b7 f7 g7 h7 a8 b8 f8",
        chess.KING: "f1 g1 h1 f2 h2 b4 c4 d4 e4 b5 c5 d5 e5 b6",
    },
    "mass": {
        chess.PAWN: 0.1793,
        chess.KNIGHT: 0.3564,
        chess.BISHOP: 0.462,
        chess.QUEEN: 0.0023,
    },
    "weights": {
        chess.PAWN: {
            "b2": 0.0085, "f2": 0.0023, "g2": 0.0063, "h2": 0.0063, "b3": 0.0021, "h3": 0.0014,
            "b4": 0.0273, "e4": 0.0401, "f4": 0.0027, "b5": 0.032, "e5": 0.0213, "f5": 0.0009,
            "b6": 0.0199, "b7": 0.0079,
        },
        chess.KNIGHT: {
            "b1": 0.0036, "c1": 0.0066, "e1": 0.0051, "f1": 0.0108, "g1": 0.033, "h1": 0.0348,
            "b2": 0.0008, "d2": 0.0064, "e2": 0.0158, "f2": 0.0339, "g2": 0.0079, "h2": 0.0092,
            "a3": 0.0012, "b3": 0.0027, "c3": 0.0063, "d3": 0.006, "e3": 0.0029, "f3": 0.0072,
            "h3": 0.0374, "a4": 0.0013, "b4": 0.0009, "c4": 0.0017, "d4": 0.0055, "e4": 0.0114,
            "f4": 0.0129, "a5": 0.0007, "b5": 0.0027, "d5": 0.0032, "f5": 0.0059, "g5": 0.0141,
            "h5": 0.0123, "c6": 0.0014, "d6": 0.0039, "e6": 0.0057, "g6": 0.005, "h6": 0.0052,
            "a7": 0.0009, "b7": 0.001, "c7": 0.0016, "e7": 0.0035, "f7": 0.004, "g7": 0.0074,
            "h7": 0.0061, "c8": 0.0015, "d8": 0.0015, "e8": 0.0027,
        },
        chess.BISHOP: {
            "a1": 0.0007, "b1": 0.0051, "c1": 0.0006, "e1": 0.0008, "f1": 0.0534, "g1": 0.0006,
            "h1": 0.0188, "b2": 0.0007, "d2": 0.0007, "e2": 0.0274, "f2": 0.0007, "g2": 0.0374,
            "h2": 0.0007, "a3": 0.0007, "b3": 0.0021, "c3": 0.0007, "d3": 0.0155, "e3": 0.0007,
            "f3": 0.0154, "h3": 0.1332, "a4": 0.0022, "b4": 0.0007, "c4": 0.0141, "d4": 0.0006,
            "e4": 0.0132, "f4": 0.0006, "a5": 0.0007, "b5": 0.0144, "c5": 0.0006, "d5": 0.0116,
            "e5": 0.0007, "f5": 0.0053, "g5": 0.0006, "h5": 0.0031, "a6": 0.0174, "b6": 0.0006,
            "d6": 0.0007, "f6": 0.0007, "g6": 0.0059, "h6": 0.0006, "a7": 0.0006, "b7": 0.0155,
            "c7": 0.0007, "e7": 0.0007, "f7": 0.0031, "g7": 0.0007, "h7": 0.0094, "a8": 0.0188,
            "b8": 0.0007, "d8": 0.0007, "f8": 0.0007,
        },
    },
}  # fmt: skip

#: Game 393, our 40th move as black (against the white king on d5, its knight e4, bishop
#: c3, pawns a6 and f4; the map: a knight's mass 0.03, the pawns mostly on the a- and
#: b-files). Qg2-f3 pinned the knight e4 to the king d5; at the next move b4xc3 took the
#: bishop, the last unit that could move: stalemate.
GAME_393 = {
    "own": "r1b1k1r1/n6p/3p4/1p3n2/1pp3pb/7p/6q1/8",
    "color": chess.BLACK,
    "units": 4,
    "pawn_captures": 6, "piece_captures": 5, "promotions": 0, "quiet_moves": 1,
    "start_counts": {1: 8, 2: 2, 3: 2, 4: 2, 5: 1, 6: 1},
    "tries": 0,
    "may": {
        chess.PAWN: "a2 b2 a4 d4 f4 a5 d5 h5 a6 h6 g7",
        chess.KNIGHT: "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 h2 e3 g3 a4 d4 e4 f4 a5 d5 g5 "
        "h5 a6 b6 c6 e6 h6 b7 d7 e7 f7 b8 d8 f8 h8",
        chess.BISHOP: "a1 b1 c1 d1 e1 f1 g1 a2 b2 c2 d2 e2 f2 h2 e3 g3 a4 d4 e4 f4 a5 d5 g5 h5 "
        "a6 b6 c6 e6 f6 h6 b7 c7 e7 g7 b8 d8 f8 h8",
        chess.ROOK: "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 h2 e3 g3 a4 d4 e4 f4 a5 d5 g5 "
        "h5 a6 b6 c6 e6 f6 h6 b7 c7 d7 f7 g7 b8",
        chess.QUEEN: "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 h2 e3 g3 a4 d4 e4 f4 a5 d5 g5 "
        "h5 a6 b6 c6 e6 f6 h6 b7 c7 g7 b8 h8",
        chess.KING: "a1 b1 c1 d1 e1 a2 b2 c2 d2 e2 e4 f4 d5 h5 e6 f6",
    },
    "mass": {
        chess.PAWN: 2.0,
        chess.KNIGHT: 0.0314,
        chess.BISHOP: 1.6751,
        chess.ROOK: 0.2862,
        chess.QUEEN: 0.0073,
    },
    "weights": {
        chess.PAWN: {
            "a2": 0.4214, "b2": 0.4677, "a4": 0.027, "d4": 0.0272, "f4": 0.4576, "a5": 0.4091,
            "d5": 0.018, "h5": 0.0259, "a6": 0.1339, "h6": 0.0123,
        },
        chess.KNIGHT: {
            "a1": 0.0006, "b1": 0.0024, "c1": 0.0008, "d1": 0.0013, "a2": 0.0012, "b2": 0.001,
            "c2": 0.0007, "d2": 0.001, "e2": 0.0008, "e3": 0.0006, "a4": 0.0103, "d4": 0.0011,
            "e4": 0.0005, "a5": 0.0008, "d5": 0.0008, "b6": 0.0022, "f7": 0.0005, "h8": 0.0015,
        },
        chess.BISHOP: {
            "a1": 0.1514, "b1": 0.0133, "c1": 0.1988, "d1": 0.0112, "e1": 0.0665, "f1": 0.0053,
            "g1": 0.0459, "a2": 0.011, "b2": 0.0379, "c2": 0.0114, "d2": 0.1207, "e2": 0.0098,
            "f2": 0.0554, "h2": 0.0421, "e3": 0.1016, "g3": 0.0552, "a4": 0.0283, "d4": 0.1118,
            "e4": 0.0041, "f4": 0.0587, "a5": 0.0084, "d5": 0.0027, "g5": 0.0134, "h5": 0.0067,
            "b6": 0.0367, "c6": 0.0007, "e6": 0.0062, "f6": 0.0321, "h6": 0.1079, "b7": 0.0007,
            "c7": 0.0086, "e7": 0.003, "g7": 0.1146, "b8": 0.0051, "d8": 0.0132, "f8": 0.0447,
            "h8": 0.1303,
        },
        chess.ROOK: {
            "a1": 0.0087, "b1": 0.001, "c1": 0.0039, "d1": 0.0083, "e1": 0.0028, "f1": 0.0035,
            "g1": 0.001, "h1": 0.001, "a2": 0.0077, "c2": 0.0052, "d2": 0.0097, "e2": 0.0032,
            "f2": 0.0044, "e3": 0.0065, "g3": 0.0102, "a4": 0.0823, "d4": 0.0607, "e4": 0.011,
            "f4": 0.0072, "a5": 0.0147, "d5": 0.0105, "a6": 0.0135, "b6": 0.0006, "c6": 0.0006,
            "e6": 0.0017, "h6": 0.0026, "g7": 0.0021,
        },
        chess.QUEEN: {
            "a4": 0.0012,
        },
    },
}  # fmt: skip


def _after(meta: Metaposition, move: str) -> chess.Board:
    board = meta.own.copy(stack=False)
    board.push(chess.Move.from_uci(move))
    board.turn = meta.color
    return board


def test_game_330_the_bishop_pinned_on_the_first_rank_is_stuck() -> None:
    meta = rebuilt(GAME_330)
    after = _after(meta, "h8g6")
    # The king on h1 not in check: the unit stands on e1, f1 or g1, pinned by the queen
    # d1 on a rank; a knight or a bishop (the map's kinds there) has no move.
    assert stuck_chance(meta, after, 1, bb("h1")) == 1.0  # main: 0.13


def test_game_330_the_move_that_keeps_the_stalemate_is_not_played() -> None:
    meta = rebuilt(GAME_330)
    searcher = Searcher(random.Random(1))
    played = searcher.score(meta, chess.Move.from_uci("h8g6"))
    release = searcher.score(meta, chess.Move.from_uci("c2g2"))
    assert played < release  # main: 3,237 against 3,190


def test_game_393_the_queen_that_pins_the_knight_to_its_king_is_feared() -> None:
    meta = rebuilt(GAME_393)
    searcher = Searcher(random.Random(1))
    pin = searcher.score(meta, chess.Move.from_uci("g2f3"))
    step = searcher.score(meta, chess.Move.from_uci("d6d5"))
    assert pin < step  # main: 2,772 against 2,741


def _one_unit(kind: chess.PieceType, weights: dict[str, float], fen: str) -> Metaposition:
    """White to move against a king and one unit of ``kind``, the map's ``weights``."""
    meta = Metaposition.from_start(chess.WHITE, "wild16", fen, know_start=True)
    assert meta.presence is not None
    for other in (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
        meta.presence.weights[other] = [0.0] * 64
        meta.presence.mass[other] = 0.0
        meta.may[other] = 0
    for name, weight in weights.items():
        square = chess.parse_square(name)
        meta.may[kind] |= chess.BB_SQUARES[square]
        meta.presence.weights[kind][square] = weight
    meta.presence.mass[kind] = sum(weights.values())
    return meta


def test_the_unit_on_the_line_stands_there_whatever_the_map_says() -> None:
    # Our queen d8 on the king h8's rank. The map holds the bishop on b2 nine times in
    # ten; a king on h8 not in check has it on f8, where it has no move.
    fen = "3Q1b1k/8/6K1/8/8/8/8/8 w - - 0 1"
    bishop = _one_unit(chess.BISHOP, {"f8": 0.1, "b2": 0.9}, fen)
    assert stuck_chance(bishop, bishop.own, 1, bb("h8")) == 1.0  # main: 0.1
    # A rook there moves along the rank: no more than without the line.
    rook = _one_unit(chess.ROOK, {"f8": 0.1, "b2": 0.9}, fen.replace("b", "r"))
    assert stuck_chance(rook, rook.own, 1, bb("h8")) == PIECE_STUCK


def test_a_pawn_on_the_line_may_take_the_slider() -> None:
    # Our bishop c4 on the diagonal to the black king f7: a pawn on d5 can take it, a
    # pawn on e6 has no move.
    fen = "8/5k2/8/3p4/2B5/8/8/K7 w - - 0 1"
    taker = _one_unit(chess.PAWN, {"d5": 1.0}, fen)
    line = (bb("d5", "e6"), "diagonal", chess.C4)
    assert _line_unit(taker, line) == (0.0, 1.0)
    pinned = _one_unit(chess.PAWN, {"e6": 0.2, "a5": 0.8}, fen.replace("3p4", "8"))
    assert _line_unit(pinned, line) == (1.0, 1.0)
    assert stuck_chance(pinned, pinned.own, 1, bb("f7")) == 1.0  # main: PAWN_STUCK
