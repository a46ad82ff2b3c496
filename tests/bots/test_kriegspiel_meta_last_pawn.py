"""The enemy's last units, where the presence map places them: a pawn the map holds more
likely than not on one square is hunted as a located one (``evaluate.HUNT_SURE``), and
with few units a capture onto a square is as likely as the map says
(``evaluate.unit_chance`` in ``Searcher.branches``), not the sets' flat density.

Games 68 and 219 of main's 400 against ``kriegspiel-random`` (seed 9, wild16,
nodes=1000; main at 2914903) were drawn by the 50-move rule far ahead (``QRRBBNN`` and
``QQRRBBN`` against a king and its last unit, a pawn stuck behind one of our pieces).
The map held 0.5 to 0.98 of a pawn on its square for the last 60 to 100 plies, while the
search took a capture there at 0.04 to 0.07 and no located pawn cost anything: our
pieces shuffled beside it. The metapositions below are the bot's own at those
decisions, as recorded (docs/kriegspiel_meta.md, *Issue 33, round twelve*)."""

from __future__ import annotations

import random
from typing import Any

import chess

from bots.kriegspiel.meta.evaluate import HUNT_SURE, HUNT_TARGET, hunt_cost, hunt_targets
from bots.kriegspiel.meta.search import Searcher
from bots.sdk.budget import NodeClock
from tests.bots.kriegspiel_meta_harness import rebuilt
from tests.bots.kriegspiel_squares import bb

#: Game 68, white, our 165th move (ply 328): QRRBBNN against a king and its g6 pawn,
#: stuck behind our knight g5 (the real board 8/6Q1/4R1pR/6N1/2k1N3/8/1B1K4/7B, our
#: 43rd move without a reset). The map: 0.63 of a pawn on g6, 0.29 on e5 (a ghost). Main
#: played Re6-e7 (2,090), Rh6xg6 scored 2,023 and Re6xg6 less.
GAME_68: dict[str, Any] = {
    "own": "8/6Q1/4R2R/6N1/4N3/8/1B1K4/7B",
    "color": chess.WHITE,
    "units": 1,
    "pawn_captures": 5, "piece_captures": 9, "promotions": 93, "quiet_moves": 42,
    "tries": 0,
    "may": {
        chess.PAWN: "c2 f2 c4 c5 e5 g6",
        chess.KNIGHT: "a1 c1 d1 e1 g1 a2 c2 e2 f2 g2 h2 a3 c3 e3 g3 h3 a4 b4 d4 f4 g4 h4 a5 b5 c5 "
                      "d5 e5 f5 h5 a6 b6 c6 d6 f6 g6 a7 b7 c7 d7 e7 f7 h7 a8 b8 c8 d8 e8 f8 g8 h8",
        chess.BISHOP: "b1 d1 f1 g1 a2 c2 e2 f2 g2 h2 a3 b3 d3 f3 g3 h3 a4 b4 c4 d4 f4 g4 h4 a5 b5 "
                      "c5 d5 e5 f5 h5 a6 b6 c6 d6 f6 g6 a7 b7 c7 d7 e7 f7 h7 a8 b8 c8 d8 e8 f8 g8 "
                      "h8",
        chess.ROOK: "a1 b1 c1 e1 f1 g1 a2 f2 g2 h2 a3 b3 c3 e3 f3 g3 h3 a4 b4 c4 d4 f4 g4 h4 a5 "
                    "b5 c5 d5 e5 f5 h5 a6 b6 c6 d6 f6 g6 a7 b7 c7 d7 e7 f7 h7 a8 b8 c8 d8 e8 f8 "
                    "g8 h8",
        chess.QUEEN: "a1 b1 f1 g1 a2 f2 g2 h2 a3 b3 f3 g3 h3 a4 b4 c4 d4 f4 g4 h4 a5 b5 c5 d5 e5 "
                     "f5 h5 a6 b6 c6 d6 f6 g6 a7 b7 c7 d7 e7 f7 h7 a8 b8 c8 d8 e8 f8 g8 h8",
        chess.KING: "b1 a2 b3 a4 b4 c4 d4 f4 g4 h4 a5 b5 d5 f5 a6 b6 c6 a7 b7 c7 d7 a8 b8 c8 d8 e8",
    },
    "mass": {
        chess.PAWN: 0.9181,
        chess.KNIGHT: 0.0116,
        chess.QUEEN: 0.0703,
    },
    "weights": {
        chess.PAWN: "c2=0.0006 e5=0.2921 g6=0.6254",
        chess.KNIGHT: "h2=0.0006 h8=0.0013",
        chess.QUEEN: "a1=0.0019 b1=0.0006 f1=0.0050 a2=0.0030 g2=0.0019 h2=0.0036 a3=0.0022 "
                     "g3=0.0046 h3=0.0005 a4=0.0052 c4=0.0035 d4=0.0036 g4=0.0029 h4=0.0016 "
                     "c5=0.0055 d5=0.0015 e5=0.0030 h5=0.0010 b6=0.0058 c6=0.0043 d6=0.0049 "
                     "f6=0.0030 a7=0.0059 b7=0.0037 e7=0.0011 f7=0.0054 h7=0.0016 b8=0.0059 "
                     "c8=0.0047 f8=0.0063 g8=0.0017 h8=0.0022",
    },
}  # fmt: skip

#: Game 219, white, our 146th move (ply 290): QQRRBBN against a king on h3 and its f3
#: pawn, stuck behind our king f2 (the real board 8/1Q1B2B1/2Q1N3/6R1/8/5p1k/5K2/4R3, our
#: 40th move without a reset). The map: 0.51 of a pawn on f3, 0.29 on f4. Main played
#: Rg5-g1; Kf2xf3 scored some 370 less, the capture taken at 0.04.
GAME_219: dict[str, Any] = {
    "own": "8/1Q1B2B1/2Q1N3/6R1/8/8/5K2/4R3",
    "color": chess.WHITE,
    "units": 1,
    "pawn_captures": 6, "piece_captures": 8, "promotions": 102, "quiet_moves": 39,
    "tries": 0,
    "blockers": "h8",
    "doubtful": "h8",
    "may": {
        chess.PAWN: "h2 f3 h3 f4 h4 h5 g6",
        chess.KNIGHT: "a1 b1 c1 f1 g1 a2 b2 c2 d2 e2 g2 h2 a3 b3 c3 e3 f3 g3 a4 b4 c4 d4 f4 h4 a5 "
                      "b5 c5 d5 e5 f5 h5 a6 b6 d6 f6 g6 h6 a7 c7 e7 f7 h7 a8 b8 c8 d8 e8 f8 g8 h8",
        chess.BISHOP: "a1 b1 c1 d1 f1 h1 a2 b2 c2 d2 e2 g2 h2 a3 b3 c3 d3 f3 h3 a4 b4 c4 d4 e4 f4 "
                      "g4 a5 b5 c5 d5 e5 f5 h5 a6 b6 d6 f6 g6 h6 a7 c7 e7 f7 h7 a8 b8 c8 d8 e8 f8 "
                      "g8 h8",
        chess.ROOK: "a1 b1 c1 d1 g1 h1 a2 b2 c2 d2 h2 a3 b3 c3 d3 e3 g3 h3 a4 b4 c4 d4 e4 f4 g4 "
                    "h4 a5 b5 c5 d5 e5 f5 h5 a6 b6 d6 f6 g6 h6 a7 c7 e7 f7 h7 a8 b8 c8 d8 e8 f8 "
                    "g8 h8",
        chess.QUEEN: "a1 b1 c1 d1 h1 a2 b2 c2 d2 h2 a3 b3 c3 d3 h3 a4 b4 c4 d4 e4 f4 g4 h4 a5 b5 "
                     "c5 d5 e5 f5 h5 a6 b6 d6 f6 g6 h6 a7 c7 e7 f7 h7 a8 b8 c8 d8 e8 f8 g8 h8",
        chess.KING: "h1 h2 h3 h4 e7 f7 h7 g8",
    },
    "mass": {
        chess.PAWN: 0.8574,
        chess.QUEEN: 0.1426,
    },
    "weights": {
        chess.PAWN: "h2=0.0031 f3=0.5084 h3=0.0181 f4=0.2913 h4=0.0364",
        chess.QUEEN: "a1=0.0068 b1=0.0050 c1=0.0070 d1=0.0092 h1=0.0065 a2=0.0038 b2=0.0091 "
                     "c2=0.0076 d2=0.0101 h2=0.0017 a4=0.0114 b4=0.0160 c4=0.0151 d4=0.0175 "
                     "e4=0.0129 a5=0.0090 b5=0.0077 c5=0.0088 d5=0.0097 f5=0.0121 h5=0.0084 "
                     "a6=0.0043 b6=0.0044 f6=0.0081 g6=0.0028 h6=0.0063 a7=0.0035 c7=0.0065 "
                     "e7=0.0036 f7=0.0028 h7=0.0090 a8=0.0035 c8=0.0041 d8=0.0041 e8=0.0020 "
                     "f8=0.0083 g8=0.0020 h8=0.0082",
    },
}  # fmt: skip


def _best(meta: Any) -> tuple[str, dict[str, float]]:
    searcher = Searcher(random.Random(1))
    scores = {
        move.uci(): searcher.score(meta, move) for move in meta.own.generate_pseudo_legal_moves()
    }
    return max(scores, key=lambda uci: scores[uci]), scores


def test_a_pawn_the_map_holds_more_likely_than_not_is_hunted() -> None:
    meta = rebuilt(GAME_68)
    assert meta.presence is not None
    weights = meta.presence.weights[chess.PAWN]
    assert weights[chess.G6] >= HUNT_SURE > weights[chess.E5]
    # g6 (0.63) is a target, e5 (0.29, a ghost of a pawn taken long before) is not.
    assert hunt_targets(meta, meta.own) == bb("g6")
    # Our rooks on e6 and h6 attack it already: only the target's own cost is left...
    assert hunt_cost(meta, meta.own) == HUNT_TARGET
    # ...until a piece of ours stands there (taken, or not there after all).
    board = meta.own.copy(stack=False)
    board.push(chess.Move.from_uci("h6g6"))
    assert hunt_cost(meta, board) == 0.0


def test_a_capture_is_as_likely_as_the_map_says_with_few_units() -> None:
    meta = rebuilt(GAME_219)
    branches = Searcher(random.Random(1)).branches(meta, chess.Move.from_uci("f2f3"))
    took = sum(branch.weight for branch in branches if branch.answer.startswith("capture"))
    quiet = sum(branch.weight for branch in branches if branch.answer in ("silent", "check"))
    # The weights are the answer's chance times the region's share it keeps: the
    # capture's share at least the map's 0.51 of the quiet ones' (main: 0.036 to 0.96).
    assert took / (took + quiet) >= 0.45


def test_the_last_pawn_stuck_behind_our_knight_is_taken() -> None:
    best, scores = _best(rebuilt(GAME_68))
    assert chess.Move.from_uci(best).to_square == chess.G6  # main: Re6-e7, a shuffle
    assert scores[best] > scores["e6e7"]


def test_the_last_pawn_stuck_behind_our_king_is_taken() -> None:
    meta = rebuilt(GAME_219)
    searcher = Searcher(random.Random(1), clock=NodeClock())
    attempts = [move.uci() for move in meta.own.generate_pseudo_legal_moves()]
    # The decision, the umpire's refusals weighed: Kf2-g3 scores higher if legal (the
    # lines our pieces see through the unit's squares shut the king in, round
    # seventeen), but it steps next to h2, h3 and h4 of the region and is likely refused.
    assert searcher.choose(meta, attempts, 1000) == "f2f3"  # main at 2914903: Rg5-g1
    assert searcher.last["f2f3"] > searcher.last["g5g1"]
