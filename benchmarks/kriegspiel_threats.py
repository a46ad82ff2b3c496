"""The threat model of ``kriegspiel-meta`` set against what happened (issue 33).

The search prices each of our pieces by the chance that the enemy takes it next move
(:func:`bots.kriegspiel.meta.evaluate.capture_chance`, the chance inside
:func:`~bots.kriegspiel.meta.evaluate.piece_threat`). This benchmark plays the won
positions of :mod:`benchmarks.kriegspiel_conversion` on, as its ``screen`` does (the same
bots, seeds and continuations), and at each of the hero's free decisions records that
chance for every piece of ours on the board after the attempt it chose. When the attempt
was the move the game records for that turn, the enemy's next move tells whether the
piece was taken. The pieces are counted by what the enemy knows of them:

- **stayed**: the piece stood where it stands before our move;
- **moved silently**: the piece moved and took nothing (the enemy heard nothing of it);
- **took**: the piece moved and took a unit (the umpire announced the square to both).

For each class: the pieces, the takes the model expected (the sum of its chances), the
takes that happened and their ratio, also by the model's chance; then the same split by
the taker: the chance from the enemy's pawns alone against the takes by a pawn, the
chance from its pieces alone against the takes by a piece (under wild16 the enemy hears
its pawn tries: a pawn that attacks ours knows it). A calibrated model has ratios near 1.

    python -m benchmarks.kriegspiel_threats --positions benchmarks/positions/vs20-seed10.json
        [more files] [--first 0] [--count 5] [--repeats 2] [--parallel 1]
"""

from __future__ import annotations

import asyncio
import itertools
import tempfile
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess

from benchmarks.common import arguments
from benchmarks.kriegspiel_conversion import (
    Collected,
    Item,
    Position,
    check_reached,
    continuations,
    forced_bots,
)
from benchmarks.kriegspiel_draws import warm_tables
from bots.kriegspiel.meta.evaluate import capture_chance, densities
from bots.sdk.bot import Decision
from bots.sdk.local import play_local
from bots.tools.arena import GameSpec

#: The classes of our pieces after a move, as the enemy knows them.
CLASSES = ("stayed", "moved silently", "took")
#: The model's chance, bucketed for the table.
BUCKETS = (0.0, 0.05, 0.2, 1.01)
#: The enemy's pawns, and its pieces that may take ours.
PAWNS = (chess.PAWN,)
PIECES = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece of ours after one of our moves: the model's chance it is taken next,
    its class (an index into :data:`CLASSES`), and whether the enemy's next move took it;
    the chances from the enemy's pawns alone and from its pieces alone, and whether a
    pawn took it."""

    chance: float
    kind: int
    taken: bool
    by_pawns: float = 0.0
    by_pieces: float = 0.0
    pawn_took: bool = False


#: A piece's chances of being taken: by any unit, by a pawn, by a piece.
Chances = tuple[float, float, float]


def chances(bot: Any, attempt: str) -> dict[chess.Square, Chances] | None:
    """The chances the hero's model gives each of its pieces of being taken after
    ``attempt`` (None for a command, or a move of no piece of ours)."""
    meta = bot.meta
    try:
        move = chess.Move.from_uci(attempt)
    except ValueError:
        return None
    if meta.own.piece_at(move.from_square) is None:
        return None
    after = meta.own.copy(stack=False)
    after.push(move)
    after.turn = meta.color
    density = densities(meta)
    gamma = bot.searcher.gamma
    found: dict[chess.Square, Chances] = {}
    for square in chess.SquareSet(after.occupied_co[meta.color] & ~after.kings):
        pawns = capture_chance(meta, after, square, density, gamma=gamma, kinds=PAWNS)[0]
        pieces = capture_chance(meta, after, square, density, gamma=gamma, kinds=PIECES)[0]
        # (the kinds' safeties multiply: the chance by any unit follows from the two)
        found[square] = (1.0 - (1.0 - pawns) * (1.0 - pieces), pawns, pieces)
    return found


async def play(spec: GameSpec, position: Position, repeat: int, seed: str) -> list[Piece]:
    """Play one continuation and return every piece of the hero's after each of its moves
    played freely."""
    forced = forced_bots(spec, position, repeat, seed)
    hero = forced.bots[position.hero]
    queue = forced.queues[position.hero]
    #: our move number (placements made so far) -> (attempt, chances): the last attempt
    #: of a turn is the one the umpire accepted
    seen: dict[int, tuple[str, dict[chess.Square, Chances]]] = {}
    inner = hero.decide

    async def decide(decision: Decision) -> str:
        free = not queue
        choice: str = await inner(decision)
        if free:
            found = chances(hero, choice)
            if found is not None:
                seen[len(hero.meta.history)] = (choice, found)
        return choice

    setattr(hero, "decide", decide)  # noqa: B010 (an instance's own method)
    local = await play_local(spec.game, spec.options, forced.bots, spec.seed, names=spec.bots)
    board = check_reached(local, position, forced)
    return list(_pieces(board, position, seen))


def _pieces(
    board: chess.Board, position: Position, seen: dict[int, tuple[str, dict[chess.Square, Chances]]]
) -> Iterable[Piece]:
    color = position.hero == 0
    moves = board.move_stack[position.cut :]
    replay = chess.Board(position.fen)
    # The hero's placements before the won position's first free move: the history's
    # length at that decision.
    number = min(seen) if seen else 0
    for index, move in enumerate(moves):
        ours = replay.turn == color
        took = replay.is_capture(move)
        replay.push(move)
        if not ours:
            continue
        record = seen.get(number)
        number += 1
        if record is None or record[0] != move.uci() or index + 1 >= len(moves):
            continue
        reply = moves[index + 1]
        taken = reply.to_square if replay.is_capture(reply) else None
        pawn = replay.piece_type_at(reply.from_square) == chess.PAWN
        for square, (chance, pawns, pieces) in record[1].items():
            kind = 0 if square != move.to_square else (2 if took else 1)
            hit = taken == square
            yield Piece(chance, kind, hit, pawns, pieces, hit and pawn)


def _worker(item: Item) -> list[Piece]:
    spec, position, repeat, seed = item
    return asyncio.run(play(spec, position, repeat, seed))


def table(pieces: Sequence[Piece]) -> list[str]:
    """The calibration table: by class, then by class and the model's chance."""
    lines = [
        "| pieces | n | expected takes | taken | taken / expected |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]

    def row(name: str, chosen: list[Piece]) -> None:
        if not chosen:
            return
        expected = sum(piece.chance for piece in chosen)
        taken = sum(piece.taken for piece in chosen)
        ratio = f"{taken / expected:.2f}" if expected else "-"
        lines.append(f"| {name} | {len(chosen):,} | {expected:,.1f} | {taken} | {ratio} |")

    row("all", list(pieces))
    for kind, name in enumerate(CLASSES):
        chosen = [piece for piece in pieces if piece.kind == kind]
        row(name, chosen)
        for low, high in itertools.pairwise(BUCKETS):
            row(
                f"... chance {low:.2f}-{min(high, 1.0):.2f}",
                [piece for piece in chosen if low <= piece.chance < high],
            )
        row("... by a pawn", [Piece(one.by_pawns, kind, one.pawn_took) for one in chosen])
        row(
            "... by a piece",
            [Piece(one.by_pieces, kind, one.taken and not one.pawn_took) for one in chosen],
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__)
    parser.add_argument("--positions", nargs="+", required=True)
    parser.add_argument("--first", type=int, default=0, help="the first position of each file")
    parser.add_argument("--count", type=int, default=None, help="positions of each file")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--parallel", type=int, default=1)
    args = parser.parse_args(argv)
    folder = tempfile.TemporaryDirectory(prefix="threats-")
    files = [Collected.load(Path(path)) for path in args.positions]
    end = None if args.count is None else args.first + args.count
    items = continuations(files, Path(folder.name), args.repeats, slice(args.first, end))
    pieces: list[Piece] = []
    warm_tables()
    with ProcessPoolExecutor(args.parallel) as pool:
        for found in pool.map(_worker, items):
            pieces.extend(found)
    folder.cleanup()
    print(f"{len(items)} continuations")
    print("\n".join(table(pieces)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
