"""Why ``kriegspiel-meta``'s games are not won: every game of a seeded tournament by its end.

Plays the same games as ``umpire tournament`` (the arena's schedule and seeds) and, for
each game that the first bot did not win, prints the end reason, the number of plies and
the material left on each side (from the umpire's real board), then a summary by reason
and a table of the non-wins by cause and by material at the end (``material_bin``), with
the games' indices (the game's seed is ``game_seed(seed, index)``: rerun one with
``--first index --games index+1``), so each cause can become a test position.

    python -m benchmarks.kriegspiel_draws [--bots kriegspiel-meta:hard,kriegspiel-random]
        [--games 200] [--seed 1] [--budget nodes=1000] [--parallel 1] [--first 0]
        [--rules wild16]
"""

from __future__ import annotations

import asyncio
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import chess

from benchmarks.common import arguments
from bots.tools.arena import GameSpec, play_spec, schedule
from server.games.kriegspiel import KriegspielGame


def _material(board: chess.Board, color: chess.Color) -> str:
    """``color``'s pieces besides the king, as letters (``QRRBNPPP``)."""
    letters = ""
    for kind in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN):
        count = board.pieces_mask(kind, color).bit_count()
        letters += chess.piece_symbol(kind).upper() * count
    return letters or "-"


_POINTS = {"Q": 9, "R": 5, "B": 3, "N": 3, "P": 1}


def points(letters: str) -> int:
    """The material value of a side's letters from ``_material`` (``-`` is 0)."""
    return sum(_POINTS.get(letter, 0) for letter in letters)


def material_bin(mine: str, theirs: str) -> str:
    """The material balance when a game ended, binned: against a lone king the pieces by
    name (``K+Q vs K``, up to three pieces), otherwise by points ahead."""
    if theirs == "-":
        if mine == "-":
            return "K vs K"
        return f"K+{mine} vs K" if len(mine) <= 3 else "K+4 or more vs K"
    ahead = points(mine) - points(theirs)
    if ahead >= 5:
        return ">=5 points ahead"
    if ahead >= 1:
        return "1-4 points ahead"
    if ahead == 0:
        return "level"
    return "behind"


def cause(reason: str, result: str) -> str:
    """A non-win's cause: the end reason, prefixed with ``loss:`` when the game was lost."""
    return f"loss: {reason}" if result == "loss" else reason


def cause_table(rows: list[tuple[int, str, str, str, str]]) -> list[str]:
    """Lines of a markdown table of (index, reason, mine, theirs, result) rows that are not
    wins: one line per cause and material bin, with the count and the game indices."""
    games: dict[tuple[str, str], list[int]] = {}
    for index, reason, mine, theirs, result in rows:
        if result == "win":
            continue
        key = (cause(reason, result), material_bin(mine, theirs))
        games.setdefault(key, []).append(index)
    lines = ["| cause | material at the end | games | indices |", "| --- | --- | ---: | --- |"]
    for (why, where), indices in sorted(
        games.items(), key=lambda item: (item[0][0], -len(item[1]))
    ):
        listed = " ".join(str(index) for index in sorted(indices))
        lines.append(f"| {why} | {where} | {len(indices)} | {listed} |")
    return lines


def play(spec: GameSpec) -> tuple[int, str, int, str, str, str, float, float]:
    """One game: (index, reason, plies, the first bot's material, the other's, its result
    (win, draw, loss), its moves and illegal attempts)."""
    played = asyncio.run(play_spec(spec))
    assert played.local is not None
    game = played.local.game
    assert isinstance(game, KriegspielGame)
    board = game.board  # the real board (a property: a copy)
    hero = next(i for i, bot in enumerate(spec.bots) if bot == _HERO[0])
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
    parser = arguments(__doc__, games=200, seed="1")
    parser.add_argument("--bots", default="kriegspiel-meta:hard,kriegspiel-random")
    parser.add_argument("--rules", default="wild16", help="the Kriegspiel rule set")
    parser.add_argument("--first", type=int, default=0, help="skip the games before this one")
    parser.add_argument("--budget", default="nodes=1000")
    parser.add_argument("--parallel", type=int, default=1)
    parser.add_argument("--every", action="store_true", help="print every game, won or not")
    args = parser.parse_args()
    bots = args.bots.split(",")
    specs = schedule(
        "kriegspiel", {"rules": args.rules}, bots, 2, args.games, args.seed, args.budget
    )[args.first :]
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
    print("\n".join(cause_table([(r[0], r[1], r[3], r[4], r[5]) for r in rows])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
