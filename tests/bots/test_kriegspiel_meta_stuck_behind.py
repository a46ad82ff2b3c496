"""A flight of the enemy king where one of its pawns would stand stuck behind one of our
pieces counts occupied as likely as one in front of our pawns (``Searcher._hemmed_chance``,
:data:`~bots.kriegspiel.meta.evaluate.PAWN_STUCK`). Game 32 of main's 400 games against
``kriegspiel-random`` (seed 9, wild16, nodes=1000; main at bab4906), rebuilt at the
stalemating decision from the sets and the presence map the bot had
(docs/kriegspiel_meta.md, *Stalemates with a huge lead: a pawn stuck behind our
pieces*)."""

from __future__ import annotations

import random

import chess

from bots.kriegspiel.meta.search import Searcher, _stuck_behind
from tests.bots.kriegspiel_meta_harness import rebuilt
from tests.bots.kriegspiel_squares import bb

#: Game 32, our 105th move as white (QQRRBNNP against two pawns, the black king in g3,
#: g4 or h4). The king stood on g4, its pawn on g3 stuck behind our bishop g2 (the a7 pawn
#: behind our a6). The map held 0.08 of a pawn on g3: it had lost the pawn while it stood
#: unmoved on g7 for 180 plies and put the second pawn on the f-file. Kd3-e4 took the
#: king's last flights but g3: stalemate (the search said 0.025 likely). Only the map's
#: weights of at least 0.0005 are kept.
GAME_32 = {
    "own": "8/1N6/P2R3Q/8/8/N2K4/6B1/R5Q1",
    "color": chess.WHITE,
    "units": 2,
    "pawn_captures": 6, "piece_captures": 7, "promotions": 55, "quiet_moves": 15,
    "tries": 0,
    "blockers": "a7",
    "their_ep": "f6",
    "may": {
        chess.PAWN: "e2 f2 e3 f3 g3 f4 g4 e5 f5 g5 f6 a7 f7",
        chess.KNIGHT: "b1 d1 f1 h1 a2 c2 d2 e2 h2 b3 c3 e3 f3 g3 h3 a4 c4 d4 e4 g4 h4 a5 b5 d5 f5 "
                      "g5 h5 b6 c6 e6 f6 g6 a7 c7 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 h8",
        chess.BISHOP: "b1 c1 d1 e1 f1 h1 a2 b2 d2 f2 h2 b3 c3 e3 f3 g3 h3 a4 b4 d4 f4 g4 h4 a5 b5 "
                      "c5 d5 e5 f5 g5 h5 b6 c6 e6 f6 g6 a7 c7 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 "
                      "h8",
        chess.ROOK: "b1 c1 d1 e1 f1 h1 a2 b2 c2 e2 f2 h2 b3 f3 g3 h3 a4 b4 c4 e4 f4 g4 h4 a5 b5 "
                    "c5 d5 e5 f5 g5 h5 b6 c6 e6 f6 g6 a7 c7 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 "
                    "h8",
        chess.QUEEN: "b1 c1 d1 e1 f1 h1 a2 b2 f2 h2 b3 f3 g3 h3 a4 b4 f4 g4 h4 a5 b5 c5 d5 e5 f5 "
                     "g5 h5 b6 c6 e6 f6 g6 a7 c7 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 h8",
        chess.KING: "g3 g4 h4",
    },
    "mass": {
        chess.PAWN: 1.4645,
        chess.BISHOP: 0.0275,
        chess.ROOK: 0.3248,
        chess.QUEEN: 0.1832,
    },
    "weights": {
        chess.PAWN: "e2=0.0828 f2=0.0037 e3=0.0152 f3=0.0438 g3=0.0776 f4=0.2483 g4=0.0558 "
                    "e5=0.0765 f5=0.1467 g5=0.0358 a7=0.6768 f7=0.0014",
        chess.BISHOP: "b1=0.0017 d1=0.0007 f1=0.0064 a2=0.0013 b3=0.0009 f3=0.0007 h3=0.0013 "
                      "a4=0.0007 g4=0.0010 b5=0.0006 d5=0.0009 f5=0.0009 h5=0.0008 c6=0.0007 "
                      "e6=0.0011 d7=0.0010 f7=0.0009 h7=0.0008 a8=0.0015 c8=0.0013 e8=0.0008 "
                      "g8=0.0011",
        chess.ROOK: "b1=0.0075 c1=0.0060 d1=0.0058 e1=0.0058 f1=0.0064 h1=0.0081 a2=0.0063 "
                    "b2=0.0068 c2=0.0055 e2=0.0053 f2=0.0058 h2=0.0081 b3=0.0074 f3=0.0058 "
                    "g3=0.0054 h3=0.0065 a4=0.0065 b4=0.0067 c4=0.0057 e4=0.0054 f4=0.0058 "
                    "g4=0.0056 h4=0.0065 a5=0.0082 b5=0.0079 c5=0.0066 d5=0.0073 e5=0.0065 "
                    "f5=0.0067 g5=0.0068 h5=0.0079 b6=0.0083 c6=0.0062 e6=0.0043 f6=0.0049 "
                    "g6=0.0034 a7=0.0006 c7=0.0060 d7=0.0067 e7=0.0058 f7=0.0063 g7=0.0061 "
                    "h7=0.0069 a8=0.0079 b8=0.0078 c8=0.0065 d8=0.0076 e8=0.0063 f8=0.0066 "
                    "g8=0.0066 h8=0.0076",
        chess.QUEEN: "b1=0.0047 c1=0.0057 d1=0.0041 e1=0.0036 f1=0.0049 h1=0.0063 a2=0.0026 "
                     "b2=0.0006 f2=0.0060 h2=0.0053 b3=0.0030 f3=0.0037 g3=0.0040 h3=0.0044 "
                     "a4=0.0022 b4=0.0038 g4=0.0072 h4=0.0054 a5=0.0054 b5=0.0054 c5=0.0021 "
                     "d5=0.0036 e5=0.0088 g5=0.0005 h5=0.0012 b6=0.0032 c6=0.0026 e6=0.0049 "
                     "f6=0.0066 g6=0.0048 c7=0.0034 d7=0.0039 e7=0.0033 f7=0.0036 g7=0.0029 "
                     "h7=0.0044 a8=0.0063 b8=0.0060 c8=0.0035 d8=0.0046 e8=0.0044 f8=0.0049 "
                     "g8=0.0034 h8=0.0033",
    },
}  # fmt: skip


def test_the_pawn_squares_behind_our_pieces_would_hold_stuck_pawns() -> None:
    meta = rebuilt(GAME_32)
    board = meta.own.copy(stack=False)
    board.push(chess.Move.from_uci("d3e4"))
    board.turn = meta.color
    # g3 behind the bishop g2, e5 behind our king e4, neither with anything of ours to
    # take; a7 stands in front of our pawn a6 (the flights' other rule), f3 behind
    # nothing of ours, f2 behind f1, empty.
    assert _stuck_behind(meta, board) == bb("g3", "e5")  # main: no such squares


def test_the_king_step_that_stalemated_is_not_played() -> None:
    meta = rebuilt(GAME_32)
    searcher = Searcher(random.Random(1))
    played = searcher.score(meta, chess.Move.from_uci("d3e4"))
    check = searcher.score(meta, chess.Move.from_uci("h6g7"))
    assert played < check  # main: 3,270 against 3,106
