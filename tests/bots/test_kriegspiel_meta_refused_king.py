"""A refused king step with enemy units left: an enemy unit attacks the square
(``refusals``). Game 33 of main's 400 games against ``kriegspiel-random`` (seed 9, wild16,
nodes=1000; main at 6a983f1), the one loss: black, our 63rd move, Ke8-f8 and Ke8-f7
refused (the real board: a white rook on f7 guarded by Rf3, a pawn just come to g7), then
Rh8-f8, g7xf8=Q mate. Rebuilt from the metaposition and the presence map the bot had
before the first refusal (``docs/s8_s8-random.md``)."""

from __future__ import annotations

import chess

from bots.kriegspiel.meta import Metaposition
from bots.kriegspiel.meta.legality import king_attack_chance
from bots.kriegspiel.meta.refusals import attackers_of
from bots.kriegspiel.meta.safety import mate_chance, unit_weights
from bots.kriegspiel.meta.update import observe
from tests.bots.kriegspiel_meta_harness import rebuilt
from tests.bots.kriegspiel_squares import bb

#: Game 33 before Ke8-f8 was tried (the enemy king may be on 34 squares, g7 one of them).
GAME_33: dict[str, object] = {
    "own": "qn2k2r/1b6/2n5/p3p2p/3p4/8/8/qr6",
    "may": {
        chess.PAWN: "a2 c2 d2 e2 f2 g2 h2 a3 d3 f3 g3 h3 a4 c4 e4 f4 h4 c5 f5 g5 e6 f6 g6 e7 g7",
        chess.KNIGHT: (
            "c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 d3 f3 g3 h3 a4 c4 e4 f4 h4 b5 c5 d5 "
            "f5 g5 a6 b6 e6 g6 h6 a7 d7 e7 f7 h7 c8 d8 f8 g8"
        ),
        chess.BISHOP: (
            "c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 d3 f3 g3 h3 a4 c4 e4 f4 h4 b5 c5 d5 "
            "f5 g5 a6 b6 d6 e6 f6 g6 h6 a7 c7 e7 g7 h7 c8 d8 f8 g8"
        ),
        chess.ROOK: (
            "c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 d3 f3 g3 h3 a4 c4 e4 f4 h4 b5 c5 d5 "
            "f5 g5 a6 b6 d6 e6 f6 g6 h6 a7 c7 d7 f7 g7 h7 c8 g8"
        ),
        chess.QUEEN: (
            "c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 d3 f3 g3 h3 a4 c4 e4 f4 h4 b5 c5 d5 "
            "f5 g5 a6 b6 d6 e6 f6 g6 h6 a7 c7 g7 h7 c8 g8"
        ),
        chess.KING: (
            "d1 e1 f1 g1 h1 c2 d2 e2 f2 g2 h2 a3 b3 d3 f3 g3 h3 a4 c4 e4 h4 b5 c5 d5 f5 g5 b6 d6 "
            "e6 f6 g6 h6 c7 g7"
        ),
    },
    "weights": {
        chess.PAWN: (
            "a2=0.1441 c2=0.0804 d2=0.3433 e2=0.0257 f2=0.0261 g2=0.069 h2=0.085 a3=0.1832 "
            "d3=0.4802 f3=0.0604 g3=0.2605 h3=0.1474 a4=0.5594 c4=0.3485 e4=0.1668 f4=0.0046 "
            "h4=0.5016 c5=0.3572 f5=0.0569 g5=0.0014 e6=0.0296 f6=0.0114 g6=0.0457 e7=0.0048 "
            "g7=0.0024"
        ),
        chess.KNIGHT: (
            "c1=0.0232 d1=0.0373 e1=0.0452 f1=0.0475 g1=0.0715 h1=0.0316 a2=0.0157 b2=0.0092 "
            "c2=0.0353 d2=0.037 e2=0.0357 f2=0.04 g2=0.0494 h2=0.0357 a3=0.0236 b3=0.0076 "
            "d3=0.0078 f3=0.0503 g3=0.0347 h3=0.0621 a4=0.0006 c4=0.0235 e4=0.0245 f4=0.0264 "
            "h4=0.0129 b5=0.0023 c5=0.0173 d5=0.0124 f5=0.0235 g5=0.0412 a6=0.0009 b6=0.0058 "
            "e6=0.0161 g6=0.0175 h6=0.0237 a7=0.0022 d7=0.0076 e7=0.0098 f7=0.0206 h7=0.0134 "
            "c8=0.0017 d8=0.0124 f8=0.0111 g8=0.0082"
        ),
        chess.BISHOP: (
            "c1=0.0141 d1=0.0076 e1=0.009 f1=0.0115 g1=0.015 h1=0.0086 a2=0.004 b2=0.0021 "
            "c2=0.0069 d2=0.0132 e2=0.0097 f2=0.0145 g2=0.0091 h2=0.0071 a3=0.0055 b3=0.0033 "
            "d3=0.0017 f3=0.008 g3=0.0082 h3=0.0062 c4=0.0045 e4=0.0076 f4=0.0101 h4=0.0025 "
            "b5=0.001 c5=0.0037 d5=0.0057 f5=0.0052 g5=0.0153 a6=0.0005 b6=0.0012 d6=0.0046 "
            "e6=0.0038 f6=0.0056 g6=0.0057 h6=0.0182 a7=0.0017 c7=0.0036 e7=0.0056 g7=0.007 "
            "h7=0.0059 c8=0.0041 d8=0.0055 f8=0.0077 g8=0.0042"
        ),
        chess.ROOK: (
            "c1=0.0136 d1=0.0186 e1=0.0213 f1=0.0142 g1=0.0154 h1=0.0195 a2=0.0172 b2=0.0089 "
            "c2=0.0131 d2=0.0173 e2=0.0188 f2=0.0136 g2=0.0146 h2=0.0182 a3=0.0257 b3=0.0045 "
            "d3=0.0076 f3=0.017 g3=0.0184 h3=0.0286 a4=0.0003 c4=0.0085 e4=0.0247 f4=0.0117 "
            "h4=0.0057 b5=0.0019 c5=0.0086 d5=0.0063 f5=0.0126 g5=0.0151 a6=0.0001 b6=0.0005 "
            "d6=0.0091 e6=0.0065 f6=0.0117 g6=0.0132 h6=0.0171 a7=0.0019 c7=0.0064 d7=0.0053 "
            "f7=0.0091 g7=0.0101 h7=0.0071 c8=0.0066 g8=0.0124"
        ),
        chess.QUEEN: (
            "c1=0.0037 d1=0.0043 e1=0.004 f1=0.0039 g1=0.004 h1=0.0048 a2=0.0034 b2=0.0027 "
            "c2=0.0038 d2=0.0037 e2=0.0039 f2=0.0035 g2=0.0039 h2=0.0046 a3=0.0026 b3=0.0022 "
            "f3=0.0033 g3=0.004 h3=0.0036 c4=0.0025 e4=0.004 f4=0.0034 h4=0.0005 b5=0.0012 "
            "c5=0.0021 d5=0.0027 f5=0.003 g5=0.0033 a6=0.0003 b6=0.0008 d6=0.0023 e6=0.0026 "
            "f6=0.003 g6=0.0036 h6=0.0039 a7=0.0018 c7=0.0018 g7=0.0028 h7=0.0031 c8=0.0024 "
            "g8=0.003"
        ),
    },
}


def _rebuilt() -> Metaposition:
    """The metaposition of game 33 at our 63rd move (black), as recorded: 6 enemy units,
    4 pawns and 5 pieces taken, 17 moves that may have promoted."""
    return rebuilt(
        {
            **GAME_33,
            "color": chess.BLACK,
            "units": 6,
            "pawn_captures": 4,
            "piece_captures": 5,
            "promotions": 17,
            "their_ep": "a3 f3 g3 h3",
        }
    )


def _held(meta: Metaposition, target: chess.Square) -> float:
    """The units the presence map expects on the cells that attack ``target``."""
    assert meta.presence is not None
    cells = attackers_of(meta, target, chess.E8)
    return sum(meta.presence.weights[kind][square] for kind, square in cells)


def _refused(meta: Metaposition, *moves: str) -> None:
    for uci in moves:
        observe(meta, {"type": "illegal", "color": "black", "move": uci})


def test_a_refused_king_step_puts_an_attacker_on_the_map() -> None:
    meta = _rebuilt()
    before = _held(meta, chess.F8)
    assert before < 0.3  # the map spread the attackers over their wide sets
    _refused(meta, "e8f8")
    # One unit, less the enemy king's share next to f8 (g7: 1 of its 34 squares); the
    # queen's cells keep no more than its mass (0.12): 0.84 (main: unchanged, 0.25).
    assert _held(meta, chess.F8) > 0.8
    assert meta.presence is not None
    assert abs(sum(meta.presence.mass[1:6]) - meta.units) < 1e-6


def test_the_refused_squares_are_feared_by_the_king_and_its_safety() -> None:
    meta = _rebuilt()
    step = chess.Move.from_uci("e8f8")
    board = meta.own.copy(stack=False)
    board.push(chess.Move.from_uci("h8f8"))  # played: g7xf8=Q mated
    assert king_attack_chance(meta, step) < 0.25
    assert mate_chance(meta, board, unit_weights(meta)) < 0.05
    _refused(meta, "e8f8", "e8f7")
    assert meta.attacked == bb("f8", "f7")
    # The step's square stays feared after this turn (main: 0.246 as before).
    assert king_attack_chance(meta, step) > 0.45
    # This turn f8 and f7 are attacked: our king on e8 has no flight there, and the
    # rook on f8 is taken with check (main: 0.041 as before).
    assert mate_chance(meta, board, unit_weights(meta)) > 0.5
    quiet = meta.own.copy(stack=False)
    quiet.push(chess.Move.from_uci("e8d8"))  # the king off the f-file: no mate in sight
    assert mate_chance(meta, quiet, unit_weights(meta)) < 0.1


def test_the_refused_squares_are_forgotten_after_our_move() -> None:
    meta = _rebuilt()
    _refused(meta, "e8f8")
    observe(meta, {"type": "move", "color": "black", "move": "e8d8"})
    assert meta.attacked == 0
