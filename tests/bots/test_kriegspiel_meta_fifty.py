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
from bots.kriegspiel.meta.search import CLOCK_DRAWN, Searcher
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
