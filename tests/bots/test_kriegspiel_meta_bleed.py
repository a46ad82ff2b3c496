"""Our last queen is not put next to a pawn the presence map holds: a decision measured in
game 166 of seed 9 (wild16, nodes=1000, ``docs/kriegspiel_meta.md``), a draw by stalemate
in K+P vs K after meta, 15 points ahead at ply 243, lost its queen, rook and knight to
hidden units one by one.

At ply 245 meta (black) had Q+R+N+P+P against three units. Its a-pawn on a5 had been
refused a step by a unit on a4 (a blocker), which the presence map held with 0.87 of a
pawn. The search weighed the risk of a6b5 by the pawns' density (3 pawns over 23 squares)
and played it; the pawn on a4 took the queen (then the rook on a6), and the game drew.
The risk now reads the map (``material.attackers_expected``). Not shown here: the choice
itself. Rebuilt with the refused c4c3 and h6h5 left out, the search still plays a6b5
(63 against -1 for the next attempt, all the king-region terms against the others)."""

from __future__ import annotations

import chess
import pytest

from bots.kriegspiel.meta import Metaposition
from bots.kriegspiel.meta.evaluate import densities, piece_threat
from bots.kriegspiel.meta.legality import BLOCKER_STAYS
from bots.kriegspiel.meta.material import attackers_expected
from bots.kriegspiel.meta.presence import Presence
from tests.bots.kriegspiel_squares import bb

#: Our pieces at the decision (black to move), and the real board of the game.
OWN_166 = "8/r3k3/qn5p/p7/2p5/8/8/8 b - - 22 123"
REAL_166 = "8/r3k3/qn5p/p3K2P/P1p5/2N5/8/8 b - - 1 123"
#: The enemy sets as the bot had them (``~``: every square but those listed).
SETS_166 = {
    chess.PAWN: "a2 c2 e2 g2 a3 c3 e3 f3 g3 h3 a4 e4 f4 g4 h4 e5 f5 h5 c6 e6 c7 d7 f7",
    chess.KNIGHT: "~b3 d3 b4 c4 a5 d5 f5 g5 a6 b6 c6 g6 h6 a7 e7 c8 g8",
    chess.BISHOP: "~b3 d3 b4 c4 a5 g5 a6 b6 d6 f6 h6 a7 e7 d8 f8",
    chess.ROOK: "~b3 d3 b4 c4 a5 g5 a6 b6 e6 h6 a7 d7 e7 f7 e8",
    chess.QUEEN: "~b3 d3 b4 c4 a5 g5 a6 b6 d6 e6 f6 h6 a7 d7 e7 f7 d8 e8 f8",
    chess.KING: "~b3 d3 a4 b4 c4 a5 b5 d5 g5 a6 b6 d6 e6 f6 h6 a7 b7 d7 e7 f7 a8 c8 d8 e8 f8 g8 h8",
}
#: The presence map's pawns (2.93 of the 3 units; the rest, 0.07, knights and queens).
PAWNS_166 = {
    "a2": 0.612,
    "a3": 0.731,
    "c3": 0.045,
    "e3": 0.007,
    "a4": 0.866,
    "e4": 0.025,
    "g4": 0.013,
    "h4": 0.053,
    "e5": 0.041,
    "h5": 0.479,
    "e6": 0.044,
}


def _game_166() -> Metaposition:
    meta = Metaposition.from_start(chess.BLACK, "wild16", OWN_166, know_start=True)
    meta.start_counts = {1: 8, 2: 2, 3: 2, 4: 2, 5: 1, 6: 1}  # the usual start
    meta.units = 3
    meta.pawn_captures, meta.piece_captures, meta.promotions = 4, 8, 74
    for kind, text in SETS_166.items():
        mask = chess.BB_ALL & ~bb(*text[1:].split()) if text[0] == "~" else bb(*text.split())
        meta.may[kind] = mask & ~meta.own.occupied
    meta.blockers = bb("c3", "a4", "h5")
    meta.tries = 0
    presence = Presence.start(chess.WHITE, meta.may, {chess.PAWN: 3})
    presence.weights[chess.PAWN] = [0.0] * 64
    for name, weight in PAWNS_166.items():
        presence.weights[chess.PAWN][chess.parse_square(name)] = weight
    presence.mass[chess.PAWN] = sum(PAWNS_166.values())
    meta.presence = presence
    return meta


def test_the_queen_next_to_the_pawn_the_map_holds_is_feared() -> None:
    meta = _game_166()
    a4 = bb("a4")
    assert attackers_expected(meta, chess.PAWN, a4) == PAWNS_166["a4"]
    # Only the pawns: the risk to the queen on b5 is the pawn on a4's, by the map's 0.87
    # (at least BLOCKER_STAYS: it refused our pawn a step), not by the pawns' density
    # (3 over 23 squares: 0.13, a threat of 35 where the queen was lost).
    for kind in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
        meta.may[kind] = 0
    board = meta.own.copy(stack=False)
    board.push(chess.Move.from_uci("a6b5"))
    threat = piece_threat(meta, board, chess.B5, 0, densities(meta), gamma=0.3)
    assert threat == pytest.approx(0.3 * PAWNS_166["a4"] * 900)
    meta.blockers = 0
    assert meta.presence is not None
    meta.presence.weights[chess.PAWN][chess.A4] = 0.5
    threat = piece_threat(meta, board, chess.B5, 0, densities(meta), gamma=0.3)
    assert threat == pytest.approx(0.3 * 0.5 * 900)
    meta.blockers = a4  # a blocker's square: at least BLOCKER_STAYS
    threat = piece_threat(meta, board, chess.B5, 0, densities(meta), gamma=0.3)
    assert threat == pytest.approx(0.3 * BLOCKER_STAYS * 900)
