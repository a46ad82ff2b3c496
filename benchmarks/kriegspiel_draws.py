"""Why ``kriegspiel-meta``'s games are not won: every game of a seeded tournament by its end.

Plays the same games as ``umpire tournament`` (the arena's schedule and seeds) and, for
each game that the first bot did not win, prints the end reason, the number of plies and
the material left on each side (from the umpire's real board), then a summary by reason.

    python benchmarks/kriegspiel_draws.py [--bots kriegspiel-meta,kriegspiel-random]
        [--games 200] [--seed 1] [--budget nodes=1000] [--parallel 1] [--first 0]
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import chess

from bots.tools.arena import GameSpec, play_spec, schedule
from server.games.kriegspiel import KriegspielGame


def _material(board: chess.Board, color: chess.Color) -> str:
    """``color``'s pieces besides the king, as letters (``QRRBNPPP``)."""
    letters = ""
    for kind in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN):
        count = board.pieces_mask(kind, color).bit_count()
        letters += chess.piece_symbol(kind).upper() * count
    return letters or "-"


def play(spec: GameSpec) -> tuple[int, str, int, str, str, str, float, float]:
    """One game: (index, reason, plies, the first bot's material, the other's, its result
    (win, draw, loss), its moves and illegal attempts)."""
    played = asyncio.run(play_spec(spec))
    assert played.local is not None
    game = played.local.game
    assert isinstance(game, KriegspielGame)
    board = game.board  # the real board (a property: a copy)
    hero = spec.bots.index(_HERO[0])
    color = hero == 0  # seat 0 plays white
    other = played.ranks[1 - hero]
    mine = played.ranks[hero]
    result = "win" if mine < other else "draw" if mine == other else "loss"
    stats = played.stats[hero] if played.stats else {}
    return (
        spec.index,
        played.reason,
        len(board.move_stack),
        _material(board, color),
        _material(board, not color),
        result,
        stats.get("moves", 0.0),
        stats.get("illegal_attempts", 0.0),
    )


_HERO: list[str] = ["kriegspiel-meta"]


def _init(hero: str) -> None:
    _HERO[0] = hero


def main() -> int:
    """Play the tournament and print the games the first bot did not win."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="kriegspiel-meta,kriegspiel-random")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="skip the games before this one")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--budget", default="nodes=1000")
    parser.add_argument("--parallel", type=int, default=1)
    parser.add_argument("--every", action="store_true", help="print every game, won or not")
    args = parser.parse_args()
    bots = args.bots.split(",")
    specs = schedule("kriegspiel", {}, bots, 2, args.games, args.seed, args.budget)[args.first :]
    with ProcessPoolExecutor(args.parallel, initializer=_init, initargs=(bots[0],)) as pool:
        rows = []
        for row in pool.map(play, specs):
            rows.append(row)
            index, reason, plies, mine, theirs, result, moved, refused = row
            if result != "win" or args.every:
                print(
                    f"game {index:3d} {result:4s} {reason:26s} plies {plies:3d}"
                    f"  ours {mine:9s} theirs {theirs}  moves {moved:.0f} illegal {refused:.0f}",
                    flush=True,
                )
    endings = Counter(f"{row[5]}: {row[1]}" for row in rows)
    moves = sum(row[6] for row in rows)
    illegal = sum(row[7] for row in rows)
    wins = sum(1 for row in rows if row[5] == "win")
    print(
        f"{len(rows)} games, {bots[0]} won {wins} ({100 * wins / max(1, len(rows)):.1f}%); "
        f"illegal/attempt {illegal / max(1.0, illegal + moves):.3f}"
    )
    print(", ".join(f"{why} {n}" for why, n in endings.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
