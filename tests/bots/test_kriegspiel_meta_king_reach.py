"""The hidden king's threat once far ahead (``bots.kriegspiel.meta.king_reach``).

While the enemy has more than ``FEW_UNITS`` units, ``king_threat`` fears the whole value
of every undefended piece next to any square of the king's region. ``reach_threat``
keeps that worst case in an even game and, far ahead, weighs the loss by the share of
the region next to the piece.
"""

from __future__ import annotations

import random
from typing import Any

import chess

from bots.kriegspiel.meta.evaluate import king_threat
from bots.kriegspiel.meta.geometry import VALUES
from bots.kriegspiel.meta.king_reach import (
    AHEAD,
    KING_FEAR,
    enemy_expected,
    far_enough,
    reach_threat,
)
from bots.kriegspiel.meta.metaposition import Metaposition
from bots.kriegspiel.meta.search import FEW_UNITS, Searcher
from bots.sdk.budget import parse_budget
from tests.bots.kriegspiel_meta_harness import attempts, rebuilt

#: The black king somewhere on ranks 5 to 8 (32 squares), our knight on d4 next to
#: three of them (c5, d5, e5).
REGION = chess.BB_RANK_5 | chess.BB_RANK_6 | chess.BB_RANK_7 | chess.BB_RANK_8
NEXT_TO_KNIGHT = 3


def _meta(fen: str) -> Metaposition:
    return Metaposition.from_start(chess.WHITE, "wild16", fen)


def test_far_ahead_the_loss_is_weighed_by_the_share_of_the_region_next_to_the_piece() -> None:
    # Two queens and two rooks against four pawns: far ahead, five enemy units.
    meta = _meta("7k/pppp4/8/8/3N4/8/8/QQRRK3 w - - 0 1")
    assert meta.units > FEW_UNITS
    assert far_enough(meta, meta.own)
    worst = king_threat(meta, meta.own, REGION, 0, FEW_UNITS)
    assert worst == VALUES[chess.KNIGHT]
    weighed = reach_threat(meta, meta.own, REGION, 0, FEW_UNITS)
    share = NEXT_TO_KNIGHT / REGION.bit_count()
    assert weighed == VALUES[chess.KNIGHT] * KING_FEAR * share
    # A king next to the knight on most of its squares: the whole loss, never more.
    near = chess.BB_RANK_5 | chess.BB_SQUARES[chess.C4] | chess.BB_SQUARES[chess.E4]
    assert reach_threat(meta, meta.own, near, 0, FEW_UNITS) == worst


def test_in_an_even_game_the_worst_case_stays() -> None:
    # A queen and a rook each: not far ahead.
    meta = _meta("r6k/pppp4/6q1/8/3N4/8/8/QR2K3 w - - 0 1")
    assert not far_enough(meta, meta.own)
    assert reach_threat(meta, meta.own, REGION, 0, FEW_UNITS) == king_threat(
        meta, meta.own, REGION, 0, FEW_UNITS
    )


def test_a_defended_piece_and_a_few_units_are_king_threats_own_cases() -> None:
    meta = _meta("7k/pppp4/8/8/3N4/8/8/QQRRK3 w - - 0 1")
    defended = chess.BB_SQUARES[chess.D4]
    assert reach_threat(meta, meta.own, REGION, defended, FEW_UNITS) == 0.0
    few = _meta("7k/pp6/8/8/3N4/8/8/QQRRK3 w - - 0 1")
    assert few.units <= FEW_UNITS
    assert reach_threat(few, few.own, REGION, 0, FEW_UNITS) == king_threat(
        few, few.own, REGION, 0, FEW_UNITS
    )


def test_the_enemy_is_expected_to_hold_what_the_presence_map_weighs() -> None:
    # From a custom start the kinds are known (the options are public): a rook, a
    # bishop and two pawns.
    meta = _meta("r6k/pp6/2b5/8/3N4/8/8/QQRRK3 w - - 0 1")
    assert meta.presence is not None
    expected = enemy_expected(meta)
    held = VALUES[chess.ROOK] + VALUES[chess.BISHOP] + 2 * VALUES[chess.PAWN]
    assert abs(expected - held) < 1e-6
    # Without the map: the most the bounds allow, here the same material.
    meta.presence = None
    assert enemy_expected(meta) == held


def test_the_gate_opens_at_ahead_over_the_expected_material() -> None:
    meta = _meta("r6k/pp6/2b5/8/3N4/8/8/QQRRK3 w - - 0 1")
    ours = 2 * VALUES[chess.QUEEN] + 2 * VALUES[chess.ROOK] + VALUES[chess.KNIGHT]
    theirs = enemy_expected(meta)
    assert (ours >= theirs + AHEAD) == far_enough(meta, meta.own)
    assert far_enough(meta, meta.own)
    poorer = meta.own.copy(stack=False)
    poorer.remove_piece_at(chess.A1)
    poorer.remove_piece_at(chess.B1)
    assert not far_enough(meta, poorer)


#: Decision 85 of won position 10 of seed 10 against meta at 20
#: (``benchmarks/positions/vs20-seed10.json``, repeat 0 of the conversion screen; black,
#: two queens, two rooks, a bishop and a knight against seven units): our e3e2 was just
#: refused, so a unit stands on e2; the king is on one of nine squares of the white
#: corner, one of them (f1) next to e2. Main feared the queen's whole value there and
#: played Re8-c8; the game drew by the fifty-move rule, and with the share weighed Qd1xe2
#: took the unit and the hero mated in 80 plies.
GAME_10_BLOCKER: dict[str, Any] = {
    "own": "q3r2b/r2q1k2/2p5/5n2/8/4p3/8/3q4",
    "color": chess.BLACK,
    "units": 7,
    "pawn_captures": 5,
    "piece_captures": 3,
    "promotions": 1,
    "known": "e2",
    "blockers": "e2 c5",
    "doubtful": "c5",
    "their_ep": "a3 b3",
    "may": {
        chess.PAWN: "a2 b2 a3 b3 a4 b4 c4 f4 h4 a5 c5 e5 h5 a6 h6 h7",
        chess.KNIGHT: "a1 b1 c1 e1 f1 g1 h1 a2 b2 c2 e2 g2 h2 a3 b3 c3 d3 f3 g3 h3 a4 b4 c4 d4 e4 "
                      "f4 g4 h4 a5 c5 h5 a6 b6 e6 f6 g6 b7 c7 e7 g7 h7 b8 c8 f8 g8",
        chess.BISHOP: "a1 b1 c1 e1 f1 g1 h1 a2 b2 c2 e2 g2 h2 a3 b3 c3 d3 f3 g3 h3 a4 b4 c4 d4 e4 "
                      "f4 g4 h4 a5 c5 e5 g5 h5 a6 b6 d6 f6 h6 b7 c7 e7 g7 h7 b8 c8 d8 f8",
        chess.ROOK: "a1 b1 c1 e1 f1 g1 h1 a2 b2 c2 e2 g2 h2 a3 b3 c3 d3 f3 g3 h3 a4 b4 c4 d4 e4 f4 "
                    "g4 h4 a5 c5 e5 g5 h5 a6 b6 d6 e6 g6 h6 b7 c7 h7 b8 c8 d8 g8",
        chess.QUEEN: "a1 b1 c1 e1 f1 g1 h1 a2 b2 c2 e2 g2 h2 a3 b3 c3 d3 f3 g3 h3 a4 b4 c4 d4 e4 "
                     "f4 g4 h4 a5 c5 e5 g5 h5 a6 b6 d6 h6 b7 c7 h7 b8 c8 d8",
        chess.KING: "a1 b1 f1 g1 h1 a2 b2 g2 h2",
    },
    "weights": {
        chess.PAWN: "a2=0.2371 b2=0.0507 a3=0.7397 b3=0.2968 a4=0.7618 b4=0.1550 c4=0.0106 "
                    "f4=0.0254 h4=0.0065 a5=0.3363 c5=0.0039 e5=0.3243 h5=0.0095 a6=0.0374 "
                    "h6=0.0046",
        chess.KNIGHT: "a1=0.0368 b1=0.1231 c1=0.0031 e1=0.0028 f1=0.0404 g1=0.0240 h1=0.0232 "
                      "a2=0.0445 b2=0.0291 c2=0.0485 e2=0.0404 g2=0.0178 h2=0.0250 a3=0.0260 "
                      "b3=0.0234 c3=0.0301 d3=0.0055 f3=0.0303 g3=0.0297 h3=0.0156 a4=0.0028 "
                      "b4=0.0241 c4=0.0165 d4=0.0143 e4=0.0063 f4=0.0168 g4=0.0098 h4=0.0154 "
                      "a5=0.0086 c5=0.0097 h5=0.0157 a6=0.0039 b6=0.0093 e6=0.0069 f6=0.0086 "
                      "g6=0.0053 b7=0.0033 c7=0.0068 e7=0.0036 g7=0.0092 h7=0.0036 b8=0.0008 "
                      "c8=0.0008 f8=0.0035 g8=0.0012",
        chess.BISHOP: "a1=0.0410 b1=0.0111 c1=0.0017 e1=0.0041 f1=0.0231 g1=0.0395 h1=0.0619 "
                      "a2=0.0092 b2=0.0499 c2=0.0139 e2=0.0226 g2=0.0411 h2=0.0401 a3=0.0115 "
                      "b3=0.0107 c3=0.0270 d3=0.0043 f3=0.0392 g3=0.0382 h3=0.0354 a4=0.0011 "
                      "b4=0.0276 c4=0.0069 d4=0.0288 e4=0.0125 f4=0.0444 g4=0.0233 h4=0.0380 "
                      "a5=0.0221 c5=0.0303 e5=0.0380 g5=0.0457 h5=0.0160 a6=0.0029 b6=0.0235 "
                      "d6=0.0354 f6=0.0350 h6=0.0540 c7=0.0329 e7=0.0317 g7=0.0401 h7=0.0015 "
                      "b8=0.0382 d8=0.0256 f8=0.0329",
        chess.ROOK: "a1=0.0428 b1=0.0329 c1=0.0063 e1=0.0060 f1=0.0419 g1=0.0338 h1=0.0415 "
                    "a2=0.0454 b2=0.0364 c2=0.0820 e2=0.0937 g2=0.0377 h2=0.0452 a3=0.0065 "
                    "b3=0.0249 c3=0.0184 d3=0.0048 f3=0.0621 g3=0.0320 h3=0.0416 a4=0.0006 "
                    "b4=0.0258 c4=0.0254 d4=0.0144 e4=0.0119 f4=0.0376 g4=0.0294 h4=0.0375 "
                    "a5=0.0115 c5=0.0243 e5=0.0137 g5=0.0329 h5=0.0445 a6=0.0035 b6=0.0243 "
                    "d6=0.0142 e6=0.0118 g6=0.0248 h6=0.0326 b7=0.0222 c7=0.0044 h7=0.0396 "
                    "b8=0.0231 c8=0.0026 d8=0.0035 g8=0.0272",
        chess.QUEEN: "a1=0.0126 b1=0.0181 c1=0.0043 e1=0.0050 f1=0.0217 g1=0.0122 h1=0.0205 "
                     "a2=0.0216 b2=0.0169 c2=0.0461 e2=0.0491 g2=0.0209 h2=0.0191 a3=0.0006 "
                     "b3=0.0188 c3=0.0129 d3=0.0150 f3=0.0445 g3=0.0136 h3=0.0198 b4=0.0123 "
                     "c4=0.0195 d4=0.0121 e4=0.0167 f4=0.0157 g4=0.0179 h4=0.0126 a5=0.0139 "
                     "c5=0.0166 e5=0.0126 g5=0.0096 h5=0.0216 a6=0.0117 b6=0.0129 d6=0.0103 "
                     "h6=0.0105 b7=0.0121 c7=0.0109 h7=0.0134 b8=0.0133 c8=0.0036 d8=0.0071",
    },
    "mass": {
        chess.PAWN: 3.0000,
        chess.KNIGHT: 0.8260,
        chess.BISHOP: 1.2142,
        chess.ROOK: 1.2792,
        chess.QUEEN: 0.6806,
    },
}  # fmt: skip


def test_far_ahead_the_queen_takes_a_blocker_next_to_one_square_of_nine() -> None:
    meta = rebuilt(GAME_10_BLOCKER)
    assert meta.units > FEW_UNITS and far_enough(meta, meta.own)
    after = meta.own.copy(stack=False)
    after.push(chess.Move.from_uci("d1e2"))
    region = meta.may[chess.KING]
    assert region.bit_count() == 9
    worst = king_threat(meta, after, region, 0, FEW_UNITS)
    assert worst == VALUES[chess.QUEEN]  # e2 is next to f1
    weighed = reach_threat(meta, after, region, 0, FEW_UNITS)
    assert weighed == VALUES[chess.QUEEN] * KING_FEAR / 9
    budget = parse_budget("nodes=1000")
    tried = [text for text in attempts(meta) if text != "e3e2"]  # refused this turn
    for seed in range(3):
        searcher = Searcher(random.Random(seed), clock=budget.clock())
        assert searcher.choose(meta, tried, budget.amount) == "d1e2"
