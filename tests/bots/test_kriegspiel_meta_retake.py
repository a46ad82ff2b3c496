"""A unit that has just taken one of ours is worth what the presence map says it is.

Where an enemy unit took one of our pieces, the umpire named the square: one unit stands
there (``Metaposition.known``), and the presence map has moved to it the weight of every
kind that could have made the capture (``Presence.capture``). The search used to price
taking it back as the cheapest kind that may stand there (``Metaposition.cheapest_at``),
almost always a pawn or a knight, while our piece's loss counted in full: of 145 enemy
captures that a unit of ours could answer on the spot (seed 10 against meta at 20, games
0-6 and 25-33, main at c697128) only 74 were taken back. ``Metaposition.value_at``
weighs the kinds on a known square by the map instead (docs/kriegspiel_meta.md, *Issue
33, round twenty-three*)."""

from __future__ import annotations

import random
from typing import Any

import chess

from bots.kriegspiel.meta.geometry import VALUES
from bots.kriegspiel.meta.search import Searcher
from bots.sdk.budget import NodeClock
from tests.bots.kriegspiel_meta_harness import attempts, rebuilt

#: Game 26 of seed 10 against meta at 20 (wild16, main at c697128), black, our 12th move:
#: the enemy's queen has just taken one of ours on e4 (the real board
#: rnb1kbnr/q3p1p1/2p5/5p1p/3PQP1P/2P5/6P1/1NB1KBNR). The map on e4: a queen 0.263, a
#: knight 0.213, a rook 0.149, a bishop 0.106; no pawn may stand there. Main priced
#: f5xe4 as a knight (559.0) and played Qa7-b7 (635.5), leaving the queen standing.
GAME_26: dict[str, Any] = {
    "own": "rnb1kbnr/q3p1p1/2p5/5p1p/8/8/8/8",
    "color": chess.BLACK,
    "units": 11,
    "pawn_captures": 3, "piece_captures": 1, "known": "e4",
    "may": {
        chess.PAWN: "a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 c3 e3 g3 h3 a4 b4 c4 d4 f4 h4 c5 e5 g5 e6 g6",
        chess.KNIGHT: "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 c3 d3 e3 f3 g3 h3 a4 "
                      "b4 c4 d4 e4 f4 g4 h4 a5 b5 c5 e5 g5 a6 b6 e6 g6 h6 b7 d7 f7 h7 d8",
        chess.BISHOP: "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 c3 d3 e3 f3 g3 h3 a4 "
                      "b4 c4 d4 e4 f4 g4 h4 a5 b5 c5 e5 g5 a6 b6 d6 h6 b7 c7 d8",
        chess.ROOK: "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 c3 d3 e3 f3 g3 h3 a4 "
                    "b4 c4 d4 e4 f4 g4 h4 a5 b5 c5 e5 g5 a6 b6 d6 e6 g6 h6 b7 c7 d7 f7 h7",
        chess.QUEEN: "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 c3 d3 e3 f3 g3 h3 a4 "
                     "b4 c4 d4 e4 f4 g4 h4 a5 b5 c5 e5 g5 a6 b6 d6 e6 g6 h6 b7 c7 h7",
        chess.KING: "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 c3 e3 g3 h3 b4 d4 f4 "
                    "h4 c5 e5 g5 e6 g6",
    },
    "weights": {
        chess.PAWN: "a2=0.413 b2=0.385 c2=0.385 d2=0.385 e2=0.385 f2=0.385 g2=0.385 h2=0.385 "
                    "a3=0.199 b3=0.018 c3=0.187 e3=0.187 g3=0.187 h3=0.187 a4=0.014 b4=0.096 "
                    "c4=0.038 d4=0.263 f4=0.261 h4=0.253",
        chess.KNIGHT: "b1=0.456 e1=0.024 g1=0.455 c2=0.010 e2=0.026 h2=0.005 a3=0.183 d3=0.007 "
                      "f3=0.113 h3=0.182 b4=0.008 c4=0.013 d4=0.022 e4=0.213 f4=0.027 g4=0.009 "
                      "h4=0.025 b5=0.029 e5=0.017 e6=0.009 g6=0.007 f7=0.014",
        chess.BISHOP: "c1=0.642 f1=0.642 b2=0.035 d2=0.035 e2=0.034 a3=0.039 e3=0.035 h3=0.036 "
                      "c4=0.054 e4=0.106 f4=0.037 g4=0.016 b5=0.098 g5=0.035 a6=0.018 d6=0.051 "
                      "h6=0.061",
        chess.ROOK: "a1=0.115 b1=0.014 g1=0.048 h1=1.137 a2=0.006 h2=0.051 a3=0.006 h3=0.051 "
                    "e4=0.149 d6=0.081 g6=0.007",
        chess.QUEEN: "d1=0.100 d2=0.007 b3=0.005 e4=0.263 d6=0.024",
    },
    "mass": {
        chess.PAWN: 5.0,
        chess.KNIGHT: 1.878,
        chess.BISHOP: 2.0,
        chess.ROOK: 1.699,
        chess.QUEEN: 0.423,
    },
}  # fmt: skip


def test_a_known_unit_is_worth_its_kinds_weighed_by_the_map() -> None:
    meta = rebuilt(GAME_26)
    assert meta.presence is not None
    weights = meta.presence.weights
    kinds = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
    expected = sum(weights[kind][chess.E4] * VALUES[kind] for kind in kinds) / sum(
        weights[kind][chess.E4] for kind in kinds
    )
    assert meta.value_at(chess.E4) == expected
    assert VALUES[chess.KNIGHT] == meta.cheapest_at(chess.E4) < expected < VALUES[chess.QUEEN]


def test_a_square_only_probable_is_still_priced_by_its_cheapest_kind() -> None:
    meta = rebuilt(GAME_26)
    # d4: a pawn may stand there (0.263), and a knight: not known, so a pawn's worth.
    assert meta.value_at(chess.D4) == VALUES[chess.PAWN] == meta.cheapest_at(chess.D4)
    # a8: our own rook; nothing of theirs may stand there.
    assert meta.value_at(chess.A8) == 0.0


def test_the_queen_that_took_ours_is_taken_back() -> None:
    meta = rebuilt(GAME_26)
    searcher = Searcher(random.Random(1), clock=NodeClock())
    assert searcher.choose(meta, attempts(meta), 1000) == "f5e4"  # main: Qa7-b7
    assert searcher.last["f5e4"] > searcher.last["a7b7"]
