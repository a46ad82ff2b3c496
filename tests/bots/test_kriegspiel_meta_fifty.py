"""The 50-move rule far ahead: a branch that does not reset the count is drawn by it with
a share that grows from ``CLOCK_DRAWN`` of our quiet moves (``Searcher._stale``); scored
so, when the best attempts all reset the count one of them is played, else the decision
is the search's as before (``Searcher._clock_reset``).

Main's games 269 and 385 against ``kriegspiel-random`` (seed 9, wild16, nodes=1000; main
at 3dcaf65) were drawn by the rule far ahead: the king and one or two pawns blocked by
ours, every quiet move scored by the reset bonus alone while the one capture that reset
the count had a stalemate branch on a square or two of the king's region (worth a draw
by the worst case). The metapositions below are the bot's own at those decisions, as
recorded (``docs/s9_s9-many.md``)."""

from __future__ import annotations

import random
from typing import Any

import chess

from bots.kriegspiel.meta import Metaposition
from bots.kriegspiel.meta.search import (
    CLOCK_ALARM,
    CLOCK_DRAWN,
    NERVE_FLOOR,
    Searcher,
)
from bots.sdk.budget import parse_budget
from tests.bots.kriegspiel_meta_harness import rebuilt
from tests.bots.kriegspiel_squares import bb

#: Game 385, black, our 140th move (ply 279): QQRRBP against a king and the h4 pawn our h5
#: pawn blocks (h5-h4 was just refused: it stands there), our 41st move without a reset.
#: 8/8/r1r2q2/7p/7P/5q2/1k4b1/6K1 b - - 83 140 (the real board); main chose c6b6.
GAME_385: dict[str, Any] = {
    "color": chess.BLACK,
    "own": "8/8/r1r2q2/7p/8/5q2/1k4b1/8",
    "may": {
        chess.PAWN: "e2 f2 h2 e3 h3 e4 h4 e5 e6 d7 e7",
        chess.KNIGHT: (
            "a1 b1 c1 e1 f1 g1 h1 a2 c2 d2 e2 f2 h2 a3 b3 c3 e3 g3 h3 b4 d4 e4 f4 h4 a5 b5 c5 d5 "
            "e5 f5 g5 b6 d6 e6 g6 h6 a7 b7 c7 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 h8"
        ),
        chess.BISHOP: (
            "b1 d1 e1 f1 g1 h1 a2 c2 d2 e2 f2 h2 b3 d3 e3 g3 h3 a4 b4 c4 d4 e4 f4 h4 a5 b5 c5 d5 "
            "e5 f5 g5 b6 d6 e6 g6 h6 a7 b7 c7 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 h8"
        ),
        chess.ROOK: (
            "a1 c1 d1 e1 f1 g1 h1 d2 e2 f2 h2 a3 c3 d3 e3 g3 h3 a4 b4 c4 d4 e4 f4 h4 a5 b5 c5 d5 "
            "e5 f5 g5 b6 d6 e6 g6 h6 a7 b7 c7 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 h8"
        ),
        chess.QUEEN: (
            "d1 e1 f1 g1 h1 d2 e2 f2 h2 d3 e3 g3 h3 a4 b4 c4 d4 e4 f4 h4 a5 b5 c5 d5 e5 f5 g5 b6 "
            "d6 e6 g6 h6 a7 b7 c7 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 h8"
        ),
        chess.KING: "d1 e1 g1 d2 h2 d3 a4 b4 c4 d4 b5 d5 h6 b7 d7 h7 a8 b8 c8 d8 e8 f8 g8 h8",
    },
    "units": 1,
    "pawn_captures": 6,
    "piece_captures": 8,
    "promotions": 64,
    "quiet_moves": 41,
    "known": "h4",
    "blockers": "h4",
    "their_ep": "e3 h3",
    "tries": 0,
    "weights": {
        chess.PAWN: "h4=0.8039 d7=0.0011 e7=0.0008",
        chess.QUEEN: (
            "d1=0.0079 f1=0.0052 g1=0.0035 h1=0.0028 d2=0.0102 f2=0.0052 h2=0.0044 e3=0.0103 "
            "g3=0.0037 h3=0.0045 a4=0.0039 e4=0.0099 f4=0.0044 a5=0.0066 b5=0.0041 c5=0.0102 "
            "d5=0.0097 e5=0.0074 b6=0.0048 e6=0.0098 g6=0.0083 h6=0.0039 b7=0.0028 c7=0.0117 "
            "d7=0.0143 e7=0.0131 g7=0.0020 h7=0.0019 a8=0.0075 b8=0.0131 c8=0.0013 f8=0.0069 "
            "g8=0.0105 h8=0.0068"
        ),
    },
    "history": [
        "8/8/2r2q2/7p/8/1kr2q2/6b1/8",
        "8/8/2r2q2/7p/8/2r2q2/1k4b1/8",
        "8/8/2r2q2/2r4p/8/5q2/1k4b1/8",
        "8/8/2r2q2/7p/2r5/5q2/1k4b1/8",
        "8/8/2r2q2/7p/5r2/5q2/1k4b1/8",
        "8/8/5q2/7p/2r2r2/5q2/1k4b1/8",
        "8/8/5q2/7p/5r2/2r2q2/1k4b1/8",
        "8/8/5q2/7p/2r5/2r2q2/1k4b1/8",
        "8/8/5q2/2r4p/8/2r2q2/1k4b1/8",
        "8/8/2r2q2/7p/8/2r2q2/1k4b1/8",
        "8/8/2r2q2/7p/8/r4q2/1k4b1/8",
        "8/8/r1r2q2/7p/8/5q2/1k4b1/8",
    ],
    "attempts": (
        "a6a1 a6a2 a6a3 a6a4 a6a5 a6a7 a6a8 a6b6 b2a1 b2a2 b2a3 b2b1 b2b3 b2c1 b2c2 b2c3 c6b6 c6c1 "
        "c6c2 c6c3 c6c4 c6c5 c6c7 c6c8 c6d6 c6e6 f3a3 f3b3 f3c3 f3d1 f3d3 f3d5 f3e2 f3e3 f3e4 f3f1 "
        "f3f2 f3f4 f3f5 f3g3 f3g4 f3h3 f6c3 f6d4 f6d6 f6d8 f6e5 f6e6 f6e7 f6f4 f6f5 f6f7 f6f8 f6g5 "
        "f6g6 f6g7 f6h4 f6h6 f6h8 g2f1 g2h1 g2h3 h5g4"
    ),
}

#: Game 269, black, our 221st move (ply 441): RRNPP against a king and the c3 and d4 pawns
#: our c4 and d5 pawns block, our 45th move without a reset.
#: 8/8/r4r2/3p4/1KpPn3/2P5/5k2/8 b - - 91 221 (the real board); main chose a6e6.
GAME_269: dict[str, Any] = {
    "color": chess.BLACK,
    "own": "8/8/r4r2/3p4/2p1n3/8/5k2/8",
    "may": {
        chess.PAWN: "c2 c3 d4 h4 h5 h6 h7",
        chess.KNIGHT: (
            "a1 b1 c1 e1 f1 g1 a2 b2 c2 d2 e2 g2 h2 a3 c3 e3 f3 g3 a4 b4 d4 f4 h4 a5 b5 c5 e5 f5 "
            "g5 h5 b6 c6 d6 e6 g6 h6 a7 b7 c7 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 h8"
        ),
        chess.BISHOP: (
            "a1 b1 c1 d1 f1 h1 a2 b2 c2 d2 e2 g2 h2 a3 c3 f3 h3 a4 b4 d4 f4 g4 h4 a5 b5 c5 e5 f5 "
            "g5 h5 b6 c6 d6 e6 g6 h6 a7 b7 c7 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 h8"
        ),
        chess.ROOK: (
            "a1 b1 c1 d1 e1 g1 h1 a2 b2 c2 d2 h2 a3 c3 e3 g3 h3 a4 b4 d4 f4 g4 h4 a5 b5 c5 e5 f5 "
            "g5 h5 b6 c6 d6 e6 g6 h6 a7 b7 c7 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 h8"
        ),
        chess.QUEEN: (
            "a1 b1 c1 d1 h1 a2 b2 c2 d2 h2 a3 c3 h3 a4 b4 d4 f4 g4 h4 a5 b5 c5 e5 f5 g5 h5 b6 c6 "
            "d6 e6 g6 h6 a7 b7 c7 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 h8"
        ),
        chess.KING: "a1 b1 a2 b2 a3 a4 b4 b5 b7 e7 g7 a8 b8 e8 f8 g8",
    },
    "units": 2,
    "pawn_captures": 3,
    "piece_captures": 10,
    "promotions": 158,
    "quiet_moves": 45,
    "known": "",
    "blockers": "c3 d4",
    "their_ep": "",
    "tries": 0,
    "weights": {
        chess.PAWN: "c2=0.7191 c3=0.7031 d4=0.5749",
        chess.QUEEN: "f7=0.0005 g7=0.0006 b8=0.0006 c8=0.0006",
    },
    "history": [
        "r7/8/3r4/3p4/2p1n3/8/5k2/8",
        "8/8/r2r4/3p4/2p1n3/8/5k2/8",
        "8/8/r3r3/3p4/2p1n3/8/5k2/8",
        "8/8/3rr3/3p4/2p1n3/8/5k2/8",
        "8/8/1r2r3/3p4/2p1n3/8/5k2/8",
        "8/8/1r5r/3p4/2p1n3/8/5k2/8",
        "8/8/1rr5/3p4/2p1n3/8/5k2/8",
        "8/8/1r4r1/3p4/2p1n3/8/5k2/8",
        "8/8/1r1r4/3p4/2p1n3/8/5k2/8",
        "8/8/1r5r/3p4/2p1n3/8/5k2/8",
        "8/8/1r3r2/3p4/2p1n3/8/5k2/8",
        "8/8/r4r2/3p4/2p1n3/8/5k2/8",
    ],
    "attempts": (
        "a6a1 a6a2 a6a3 a6a4 a6a5 a6a7 a6a8 a6b6 a6c6 a6d6 a6e6 c4b3 c4c3 c4d3 d5d4 e4c3 e4c5 e4d2 "
        "e4d6 e4g3 e4g5 f2e1 f2e2 f2e3 f2f1 f2f3 f2g1 f2g2 f2g3 f6b6 f6c6 f6d6 f6e6 f6f3 f6f4 f6f5 "
        "f6f7 f6f8 f6g6 f6h6"
    ),
}


#: Game 13 of seed 10 against ``kriegspiel-meta:nodes=20`` (wild16; the hero at
#: nodes=1000 on round seventeen's first commits, 2388acb), black, our 96th move: QRRBBNNPPPP
#: against RBNNPPPPPP, every pawn blocked (a5-a4, b6-b5, c5-c4, h6-h5), our 46th move
#: without a reset by our count (40 by the board's: the enemy's pawn moves are unseen).
#: q1n2rn1/rb1k4/1p1b3p/pPp4P/P1P1P1P1/2N5/NR2B3/3K4 b - - 80 96 (the real board); it
#: chose a8b8, and the game was drawn by the rule on our 106th move. The map's weights
#: below 0.01 are left out.
GAME_13_LOCKED: dict[str, Any] = {
    "own": "q1n2rn1/rb1k4/1p1b3p/p1p5/8/8/8/8",
    "color": chess.BLACK,
    "units": 10,
    "pawn_captures": 2, "piece_captures": 3, "promotions": 6, "quiet_moves": 46,
    "tries": 0,
    "known": "",
    "blockers": "a4 c4 b5 h5",
    "doubtful": "a4 c4 b5",
    "their_ep": "a3 b3 c3 d3 e3 f3 g3 h3",
    "may": {
        chess.PAWN: (
            "a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 c3 d3 e3 f3 g3 h3 a4 c4 e4 f4 g4 h4 b5 d5 e5 f5 h5 f6 "
            "f7"
        ),
        chess.KNIGHT: (
            "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 c3 d3 e3 f3 g3 h3 a4 c4 e4 f4 "
            "g4 h4 b5 d5 f5 h5 a6 c6 e6 g6 c7 e7 f7 g7 h7 d8 e8 h8"
        ),
        chess.BISHOP: (
            "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 c3 d3 e3 f3 g3 h3 a4 c4 e4 f4 "
            "g4 h4 b5 d5 e5 f5 h5 a6 f6 g6 c7 e7 f7 g7 h7 b8 d8 h8"
        ),
        chess.ROOK: (
            "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 c3 d3 e3 f3 g3 h3 a4 c4 e4 f4 "
            "g4 h4 b5 d5 e5 f5 h5 c6 e6 f6 g6 f7 g7 h7 e8 h8"
        ),
        chess.QUEEN: (
            "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 c3 d3 e3 f3 g3 h3 a4 c4 e4 f4 "
            "g4 h4 b5 d5 e5 f5 h5 a6 f6 g6 f7 g7 h7 b8 h8"
        ),
        chess.KING: (
            "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 c3 d3 e3 f3 g3 h3 a4 c4 e4 f4 "
            "g4 h4 b5 d5 f5 h5 g6 g7 h7 h8"
        ),
    },
    "mass": {
        chess.PAWN: 5.9999,
        chess.KNIGHT: 1.2949,
        chess.BISHOP: 1.1872,
        chess.ROOK: 1.3240,
        chess.QUEEN: 0.1941,
    },
    "weights": {
        chess.PAWN: (
            "a2=0.4220 b2=0.0130 c2=0.1838 d2=0.0130 e2=0.0177 f2=0.0134 g2=0.0282 h2=0.0209 "
            "a3=0.5237 b3=0.1396 c3=0.5347 d3=0.1396 e3=0.0513 f3=0.1437 g3=0.0813 h3=0.1545 "
            "a4=0.7293 c4=0.6546 e4=0.2570 f4=0.2068 g4=0.3085 h4=0.3851 b5=0.0156 d5=0.1268 "
            "e5=0.1540 f5=0.1557 h5=0.4756 f6=0.0471"
        ),
        chess.KNIGHT: (
            "a1=0.0448 b1=0.1706 c1=0.0478 d1=0.0523 e1=0.0367 f1=0.0555 g1=0.0482 h1=0.0472 "
            "a2=0.0219 b2=0.0576 c2=0.0278 d2=0.0760 e2=0.0377 f2=0.0415 g2=0.0342 h2=0.0475 "
            "b3=0.0480 d3=0.0327 e3=0.0342 f3=0.0333 g3=0.0418 h3=0.0337 e4=0.0333 f4=0.0249 "
            "g4=0.0300 h4=0.0298 f5=0.0217 h5=0.0121 g6=0.0159 g7=0.0119 h8=0.0103"
        ),
        chess.BISHOP: (
            "a1=0.0513 b1=0.0551 c1=0.0172 d1=0.0568 e1=0.0101 f1=0.0562 h1=0.0447 a2=0.0375 "
            "b2=0.0446 c2=0.0542 d2=0.0104 e2=0.0559 g2=0.0458 b3=0.0659 d3=0.0534 f3=0.0469 "
            "h3=0.0455 e4=0.0467 g4=0.0472 b5=0.0226 d5=0.0392 f5=0.0469 h5=0.0193 a6=0.0114 "
            "g6=0.0454 f7=0.0348 h7=0.0521"
        ),
        chess.ROOK: (
            "a1=0.0497 b1=0.0426 c1=0.0489 d1=0.0373 e1=0.0392 f1=0.0409 g1=0.0387 h1=0.0477 "
            "a2=0.0192 b2=0.0427 c2=0.0495 d2=0.0371 e2=0.0392 f2=0.0410 g2=0.0386 h2=0.0482 "
            "b3=0.0422 d3=0.0328 e3=0.0359 f3=0.0381 g3=0.0350 h3=0.0465 e4=0.0318 f4=0.0340 "
            "g4=0.0308 h4=0.0411 b5=0.0412 d5=0.0133 e5=0.0289 f5=0.0313 h5=0.0163 e6=0.0304 "
            "f6=0.0328 g6=0.0292 g7=0.0265 h7=0.0164"
        ),
    },
    "attempts": (
        "a5b4 c5b4 c5d4 d6h2 d6g3 d6f4 d6e5 d6c7 d6e7 d6b8 h6g5 a7a6 b7h1 b7g2 b7f3 b7e4 b7d5 "
        "b7a6 b7c6 d7c6 d7e6 d7c7 d7e7 d7d8 d7e8 a8b8 c8e7 f8f1 f8f2 f8f3 f8f4 f8f5 f8f6 f8f7 "
        "f8d8 f8e8 g8f6 g8e7"
    ),
}  # fmt: skip


def _rebuilt(record: dict[str, Any]) -> Metaposition:
    """The recorded metaposition ``record`` (its presence map's weights to 4 places)."""
    return rebuilt({key: value for key, value in record.items() if key != "attempts"})


def _choice(record: dict[str, Any]) -> tuple[str, Searcher]:
    """What the bot at nodes=1000 plays there (its random tie breaks seeded)."""
    budget = parse_budget("nodes=1000")
    searcher = Searcher(random.Random(0), clock=budget.clock())
    return searcher.choose(_rebuilt(record), record["attempts"].split(), budget.amount), searcher


def _resets(record: dict[str, Any], text: str) -> bool:
    """Whether attempt ``text`` resets the count if played: a pawn move or a capture of a
    located unit (the squares known or blockers)."""
    board = chess.Board(None)
    board.set_board_fen(record["own"])
    move = chess.Move.from_uci(text)
    located = bb(*(record["known"] + " " + record["blockers"]).split())
    return board.piece_type_at(move.from_square) == chess.PAWN or bool(
        chess.BB_SQUARES[move.to_square] & located
    )


def test_game_385_takes_the_blocked_pawn_before_the_count_runs_out() -> None:
    """Main played Rc6-b6 (41 quiet moves, a draw eight moves later). Taking the h4 pawn
    with the queen (f6xh4) resets the count and leaves a lone king, but may stalemate it
    (the real king stood on g1: no flight once h2 is taken): with 41 quiet moves the
    search's own choice stands; from the stale share CLOCK_RISK (44) the capture."""
    choice, searcher = _choice(GAME_385)
    assert (
        choice != "f6h4" and max(searcher.last_stale, key=searcher.last_stale.__getitem__) == "f6h4"
    )
    choice, _ = _choice(dict(GAME_385, quiet_moves=44))
    assert choice == "f6h4"


def test_game_269_resets_the_count() -> None:
    """Main played Ra6-e6 (45 quiet moves); now a step onto a blocked pawn (refused: it
    names it again) or the knight's capture on c3 comes first, and with the quiet
    branches moved toward the draw the capture scores above every quiet piece move."""
    choice, searcher = _choice(GAME_269)
    assert _resets(GAME_269, choice)
    scores = searcher.last_stale
    quiet = [text for text in scores if not _resets(GAME_269, text)]
    assert scores["e4c3"] > max(scores[text] for text in quiet)


def test_the_stale_share_grows_from_the_alarm_to_the_fiftieth_move() -> None:
    """0 before CLOCK_DRAWN quiet moves, 1 for our fiftieth, and 0 when not ahead."""
    meta = _rebuilt(GAME_385)
    shares = []
    for moves in (CLOCK_DRAWN - 1, CLOCK_DRAWN, 45, 49):
        meta.quiet_moves = moves
        shares.append(Searcher._stale(meta, meta.own))
    assert shares[0] == 0.0 and shares[-1] == 1.0
    assert 0.0 < shares[1] < shares[2] < 1.0
    bare = meta.own.copy()
    for square in chess.SquareSet(bare.occupied_co[chess.BLACK] & ~bare.kings):
        bare.remove_piece_at(square)
    assert Searcher._stale(meta, bare) == 0.0


def test_before_the_alarm_the_decision_is_the_searchs() -> None:
    """With fewer than CLOCK_DRAWN quiet moves no branch is stale: no second scoring."""
    record = dict(GAME_385, quiet_moves=CLOCK_DRAWN - 1)
    _, searcher = _choice(record)
    assert searcher.last_stale == {}


def test_a_locked_position_brings_a_piece_onto_a_blocker_before_the_count_runs_out() -> None:
    """Game 13 of seed 10 (against meta at 20): every pawn blocked, no capture of a
    located pawn ready, every quiet move equally stale. A quiet move that brings a
    piece onto a located pawn (``Searcher._prepares``) is half as stale and counts as a
    reset: the bishop's b7-d5, onto c4, is played where a8b8 was (the knight's g8-f6,
    onto h5, prepares one too)."""
    meta = _rebuilt(GAME_13_LOCKED)
    for text, ready in (("b7d5", True), ("g8f6", True), ("a8b8", False), ("d7e8", False)):
        move = chess.Move.from_uci(text)
        after = meta.own.copy(stack=False)
        after.push(move)
        assert Searcher._prepares(meta, after, move) is ready, text
    choice, searcher = _choice(GAME_13_LOCKED)
    assert choice in searcher._prepared
    assert choice == "b7d5"
    # Scored plainly a prepared move is the best too: with 46 quiet moves the fear of
    # losing a piece counts a quarter (``Searcher._nerve``); at full fear a shuffle won.
    plain = max(searcher.last, key=lambda text: searcher.last[text])
    assert plain in searcher._prepared


def test_with_a_capture_ready_no_quiet_move_is_prepared() -> None:
    """Game 269: our knight e4 attacks the c3 pawn already. Every quiet move would keep
    that capture ready, so none counts as preparing one (the count still asks for the
    capture or a pawn's step, as before)."""
    choice, searcher = _choice(GAME_269)
    assert not searcher._prepared
    assert _resets(GAME_269, choice)


def test_the_fear_of_losing_a_piece_falls_from_the_alarm_to_the_floor() -> None:
    """1 before CLOCK_ALARM quiet moves, falling evenly to NERVE_FLOOR, and 1 when not
    ahead (a draw is no loss then)."""
    meta = _rebuilt(GAME_385)
    nerves = []
    for moves in (CLOCK_ALARM - 1, CLOCK_ALARM, 40, 49):
        meta.quiet_moves = moves
        nerves.append(Searcher._nerve(meta, meta.own))
    assert nerves[0] == 1.0 and nerves[-1] == NERVE_FLOOR
    assert 1.0 > nerves[1] > nerves[2] > NERVE_FLOOR
    bare = meta.own.copy()
    for square in chess.SquareSet(bare.occupied_co[chess.BLACK] & ~bare.kings):
        bare.remove_piece_at(square)
    assert Searcher._nerve(meta, bare) == 1.0
    # Against a lone king every piece of ours may be one the mate needs: no discount.
    meta.quiet_moves = 49
    units = meta.units
    meta.units = 0
    try:
        assert Searcher._nerve(meta, meta.own) == 1.0
    finally:
        meta.units = units
