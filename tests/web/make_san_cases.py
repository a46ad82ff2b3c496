"""Write tests/web/js/san_cases.mjs: random games as python-chess spells them in SAN, for
the browser client's PGN (server/web/js/games/san.js). Run it again only to change the cases."""

from __future__ import annotations

import json
import random
from pathlib import Path

import chess

STARTS = [
    "r3k2r/pppq1ppp/2n2n2/3pp3/1b1PP1b1/2N2N2/PPPQBPPP/R3K2R w KQkq - 0 1",
    "8/P5k1/4K3/8/8/8/5p2/8 w - - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "1n2k1n1/8/8/8/8/8/8/RN2K1NR w - - 0 40",
]


def main() -> None:
    rng = random.Random(7)
    games = []
    for number in range(40):
        fen = chess.STARTING_FEN if number % 4 else rng.choice(STARTS)
        board = chess.Board(fen)
        ucis, sans = [], []
        for _ in range(rng.randint(20, 140)):
            moves = list(board.legal_moves)
            if not moves:
                break
            # captures, promotions and checks half the time, to cover the notation
            special = [
                m for m in moves if board.is_capture(m) or m.promotion or board.gives_check(m)
            ]
            move = rng.choice(special if special and rng.random() < 0.5 else moves)
            sans.append(board.san(move))
            ucis.append(move.uci())
            board.push(move)
        games.append({"fen": fen, "uci": ucis, "san": sans})
    out = Path(__file__).parent / "js" / "san_cases.mjs"
    header = "// Random games spelled by python-chess (made by tests/web/make_san_cases.py).\n"
    out.write_text(header + "export default " + json.dumps(games) + ";\n")


if __name__ == "__main__":
    main()
