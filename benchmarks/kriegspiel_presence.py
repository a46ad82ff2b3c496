"""How well ``kriegspiel-meta``'s presence map knows where the enemy's units stand: the
map of every decision of a seeded tournament's games, scored against the real board.

Plays the same games as ``umpire tournament`` (the arena's schedule and seeds), or reads
games saved by an earlier run (``--load``), and replays the hero's projections (the
first of ``--bots``, in the seat the schedule gives it) into a fresh metaposition: at
the hero's first decision after each enemy move, the presence map
(``bots.kriegspiel.meta.presence``) is scored against the real enemy units.

Per kind it prints the log loss per decision (natural log, summed over the squares where
the kind's set allows a unit or a real one stands: each square a yes/no guess of the
map's weight there, clipped to 0.01..0.99): lower is better; a map that knows every
unit scores 0.2 per square. For the enemy pawns three or more ranks from their start
(those walking to promote, issue 33) the mean weight the map holds on the pawn's square
and on the advanced squares of its file, and the *lag*: how many ranks the real pawns
stand, on average, ahead of the map's pawns. The *kinds* table: by how many units the enemy
keeps (1, 2-3, 4 or more), each kind's mass in the map against the units of that kind
standing, per decision; and with one unit left, the map's share of its real
kind (the prior ``JointBelief`` starts from) as a log loss and a mean. The *promotions*
table: the map's pawns and queens against those standing, by the enemy's promotions so
far (never told). The *pushes* table: for each quiet enemy move, how often it stepped a
pawn from each rank (counted from its own side, 2 to 7) against the map's model of an
unseen move (the quiet moves equally likely while the enemy keeps more than ``FEW``
units; each unit that can move as often, its moves equally likely, with ``FEW`` or
fewer): above 1, the enemy pushes its pawns there more often than the map expects.

A saved set (``--save``) is the hero's projections and the real boards, so that a change
to the map is measured on the same games without playing them again (``--load``): the
hero's moves are the saved ones, whatever the map now says.

    python -m benchmarks.kriegspiel_presence [--bots kriegspiel-meta:nodes=1000,
        kriegspiel-meta:nodes=20] [--games 50] [--seed 9] [--budget none]
        [--parallel 2] [--rules wild16] [--save PATH] [--load PATH]
"""

from __future__ import annotations

import asyncio
import gzip
import json
import math
import os
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import chess

from benchmarks.common import arguments
from benchmarks.kriegspiel_draws import hero_seat, tournament
from bots.kriegspiel.meta.metaposition import Metaposition
from bots.kriegspiel.meta.presence import FEW, KINDS
from bots.kriegspiel.meta.update import observe
from bots.tools.arena import GameSpec, play_spec

#: A weight is clipped to this distance from 0 and 1 before its log loss is taken.
CLIP = 0.01
#: A pawn this many ranks from its start or more is *advanced*.
ADVANCED = 3
_NAMES = {chess.PAWN: "P", chess.KNIGHT: "N", chess.BISHOP: "B", chess.ROOK: "R", chess.QUEEN: "Q"}


@dataclass(frozen=True, slots=True)
class Recorded:
    """One game as the hero heard it: its seat, the rule set, and for each event the
    hero's projection (``None`` where it heard nothing) with the event's truth (its
    type, colour and, after a move, the real board)."""

    index: int
    hero: int
    rules: str
    events: list[tuple[dict[str, Any] | None, dict[str, Any]]]


@dataclass(slots=True)
class Score:
    """Sums over the decisions scored."""

    decisions: int = 0
    loss: dict[int, float] = field(default_factory=lambda: dict.fromkeys(KINDS, 0.0))
    advanced: int = 0  #: advanced enemy pawns seen, over all decisions
    on_square: float = 0.0  #: the map's weight on their squares, summed
    on_file: float = 0.0  #: the map's weight on the advanced squares of their files
    lag: float = 0.0  #: real pawns' mean advance minus the map's, summed
    lagged: int = 0  #: decisions where the lag was measured (enemy pawns left)
    #: by group of enemy units (:data:`GROUPS`): decisions, and per kind the map's mass
    #: and the units standing, summed
    grouped: dict[str, int] = field(default_factory=dict)
    held: dict[tuple[str, int], float] = field(default_factory=dict)
    real: dict[tuple[str, int], float] = field(default_factory=dict)
    #: by :func:`promotion_group` (the enemy's unseen promotions so far, and its units):
    #: decisions, and the map's pawn and queen masses and the real counts, summed
    promoted: dict[str, int] = field(default_factory=dict)
    promoted_held: dict[tuple[str, int], float] = field(default_factory=dict)
    promoted_real: dict[tuple[str, int], float] = field(default_factory=dict)
    #: by (:data:`PUSH_GROUPS` entry, relative rank 2..7): quiet enemy moves where a pawn
    #: on that rank could step, the moves that stepped one, and the map's model's
    #: expectation of them, summed
    steppable: dict[tuple[str, int], int] = field(default_factory=dict)
    pushed: dict[tuple[str, int], float] = field(default_factory=dict)
    expected: dict[tuple[str, int], float] = field(default_factory=dict)
    last: int = 0  #: decisions with one enemy unit left
    last_loss: float = 0.0  #: -log of the map's share of its real kind, summed
    last_share: float = 0.0  #: that share, summed

    def add(self, other: Score) -> None:
        self.decisions += other.decisions
        for kind in KINDS:
            self.loss[kind] += other.loss[kind]
        self.advanced += other.advanced
        self.on_square += other.on_square
        self.on_file += other.on_file
        self.lag += other.lag
        self.lagged += other.lagged
        for mine, theirs in (
            (self.grouped, other.grouped),
            (self.held, other.held),
            (self.real, other.real),
            (self.promoted, other.promoted),
            (self.promoted_held, other.promoted_held),
            (self.promoted_real, other.promoted_real),
            (self.steppable, other.steppable),
            (self.pushed, other.pushed),
            (self.expected, other.expected),
        ):
            _merge(mine, theirs)
        self.last += other.last
        self.last_loss += other.last_loss
        self.last_share += other.last_share


def _merge(into: dict[Any, Any], other: dict[Any, Any]) -> None:
    """Add each of ``other``'s sums to ``into``'s (a key missing counts as 0)."""
    for key, value in other.items():
        into[key] = into.get(key, 0) + value


#: The groups of the kinds table, by how many units the enemy keeps.
GROUPS = ("1", "2-3", "4+")


def group(units: int) -> str:
    """The kinds table's group of a decision where the enemy keeps ``units`` units."""
    return "1" if units <= 1 else "2-3" if units <= 3 else "4+"


#: The groups of the promotions table: the enemy's promotions so far (0, 1, 2 or more),
#: by its units (more than :data:`FEW`, or at most; the map moves each unit as often
#: then, ``bots.kriegspiel.meta.presence.FEW``).
PROMOTION_GROUPS = tuple(
    f"{made} promoted, {units} units" for made in ("0", "1", "2+") for units in ("4+", "1-3")
)


def promotion_group(promoted: int, units: int) -> str:
    """The promotions table's group: ``promoted`` enemy promotions so far, ``units`` units."""
    made = "0" if promoted <= 0 else "1" if promoted == 1 else "2+"
    return f"{made} promoted, {'4+' if units > FEW else '1-3'} units"


#: The groups of the pushes table: the enemy's units before its move (the map's model of
#: an unseen move changes at :data:`FEW`).
PUSH_GROUPS = ("4+", "1-3")


def score_pushes(before: chess.Board, after: chess.Board) -> Score:
    """One enemy move, from ``before`` (the enemy to move) to ``after``: if it was quiet,
    per rank of the mover's pawns that could step, whether one stepped and the map's
    model's chance that one would (:data:`PUSH_GROUPS`)."""
    score = Score()
    mover = before.turn
    legal = list(before.legal_moves)
    made = next((m for m in legal if _after(before, m) == after.board_fen()), None)
    quiet = [m for m in legal if not before.is_capture(m)]
    if made is None or before.is_capture(made) or not quiet:
        return score
    units = chess.popcount(before.occupied_co[mover] & ~before.kings)
    few = units <= FEW
    name = PUSH_GROUPS[1] if few else PUSH_GROUPS[0]
    by_unit: dict[chess.Square, int] = {}
    for move in quiet:
        by_unit[move.from_square] = by_unit.get(move.from_square, 0) + 1
    for square, count in by_unit.items():
        if before.piece_type_at(square) != chess.PAWN:
            continue
        rank = advance(square, mover) + 2  # 2..7, counted from the mover's side
        key = (name, rank)
        score.steppable[key] = score.steppable.get(key, 0) + 1
        chance = 1 / len(by_unit) if few else count / len(quiet)
        score.expected[key] = score.expected.get(key, 0.0) + chance
        if made.from_square == square:
            score.pushed[key] = score.pushed.get(key, 0.0) + 1.0
    return score


def _after(board: chess.Board, move: chess.Move) -> str:
    board.push(move)
    try:
        return board.board_fen()
    finally:
        board.pop()


def _truth(truth: dict[str, Any]) -> dict[str, Any]:
    kept: dict[str, Any] = {key: truth[key] for key in ("type", "color") if key in truth}
    if truth.get("type") == "move" and "fen" in truth:
        kept["fen"] = truth["fen"]
    return kept


def record(spec: GameSpec, bots: Sequence[str]) -> Recorded:
    """Play one scheduled game and keep what the hero heard."""
    played = asyncio.run(play_spec(spec))
    assert played.local is not None
    hero = hero_seat(bots, spec.index, len(spec.bots))
    events = [(event.view(hero), _truth(event.truth)) for event in played.local.events]
    return Recorded(spec.index, hero, str(spec.options.get("rules", "wild16")), events)


def advance(square: chess.Square, color: chess.Color) -> int:
    """How many ranks a ``color`` pawn on ``square`` stands from its start."""
    rank = chess.square_rank(square)
    return rank - 1 if color == chess.WHITE else 6 - rank


def _loss(weight: float, held: bool) -> float:
    weight = min(1.0 - CLIP, max(CLIP, weight))
    return -math.log(weight if held else 1.0 - weight)


def score_map(meta: Metaposition, board: chess.Board, promoted: int = 0) -> Score:
    """The presence map of ``meta`` against the real ``board`` (one decision), where the
    enemy has promoted ``promoted`` pawns so far (the hero was not told)."""
    score = Score(decisions=1)
    presence = meta.presence
    assert presence is not None
    enemy = not meta.color
    for kind in KINDS:
        row = presence.weights[kind]
        real = board.pieces(kind, enemy)
        squares = chess.SquareSet(meta.may[kind]) | real
        score.loss[kind] = sum(_loss(row[square], square in real) for square in squares)
    pawns = presence.weights[chess.PAWN]
    real = board.pieces(chess.PAWN, enemy)
    for square in real:
        if advance(square, enemy) < ADVANCED:
            continue
        score.advanced += 1
        score.on_square += pawns[square]
        file = chess.BB_FILES[chess.square_file(square)]
        score.on_file += min(
            1.0,
            sum(pawns[s] for s in chess.SquareSet(file) if advance(s, enemy) >= ADVANCED),
        )
    units = {kind: len(board.pieces(kind, enemy)) for kind in KINDS}
    count = sum(units.values())
    if count:
        name = group(count)
        score.grouped[name] = 1
        for kind in KINDS:
            score.held[name, kind] = presence.mass[kind]
            score.real[name, kind] = float(units[kind])
    if count:
        name = promotion_group(promoted, count)
        score.promoted[name] = 1
        for kind in (chess.PAWN, chess.QUEEN):
            score.promoted_held[name, kind] = presence.mass[kind]
            score.promoted_real[name, kind] = float(units[kind])
    if count == 1:
        kind = next(kind for kind in KINDS if units[kind])
        share = presence.mass[kind] / max(1e-9, sum(presence.mass[k] for k in KINDS))
        score.last = 1
        score.last_share = share
        score.last_loss = -math.log(min(1.0 - CLIP, max(CLIP, share)))
    mass = sum(pawns)
    if real and mass > 0.1:
        believed = sum(weight * advance(s, enemy) for s, weight in enumerate(pawns) if weight)
        score.lag = sum(advance(s, enemy) for s in real) / len(real) - believed / mass
        score.lagged = 1
    return score


def score_game(game: Recorded) -> Score:
    """Replay ``game``'s projections into a fresh metaposition; score the map at the
    hero's first decision after each enemy move."""
    color = game.hero == 0
    meta = Metaposition.from_start(color, game.rules)
    total = Score()
    board = chess.Board()
    due = False
    promoted = 0  # the enemy's promotions so far: a move that lost a pawn, no unit
    for view, truth in game.events:
        ours = truth.get("color") == ("white" if color else "black")
        if due and ours and truth.get("type") in ("move", "illegal"):
            due = False
            total.add(score_map(meta, board, promoted))
        if view is not None:
            observe(meta, view)
        if truth.get("type") == "move" and "fen" in truth:
            after = chess.Board(truth["fen"])
            if not ours:
                enemy = not color
                pawns = len(after.pieces(chess.PAWN, enemy))
                if pawns < len(board.pieces(chess.PAWN, enemy)) and chess.popcount(
                    after.occupied_co[enemy]
                ) == chess.popcount(board.occupied_co[enemy]):
                    promoted += 1
                if board.turn == enemy:
                    total.add(score_pushes(board, after))
            board = after
            due = not ours
    return total


def report(total: Score, games: int) -> list[str]:
    """The scores' table."""
    count = max(1, total.decisions)
    lines = [
        f"{games} games, {total.decisions} decisions scored",
        "| kind | log loss per decision |",
        "| --- | ---: |",
    ]
    for kind in KINDS:
        lines.append(f"| {_NAMES[kind]} | {total.loss[kind] / count:.3f} |")
    lines.append(f"| all | {sum(total.loss.values()) / count:.3f} |")
    if total.advanced:
        lines.append(
            f"advanced enemy pawns ({ADVANCED}+ ranks, {total.advanced} over the decisions): "
            f"the map's weight on the square {total.on_square / total.advanced:.3f}, "
            f"on the file's advanced squares {total.on_file / total.advanced:.3f}"
        )
    if total.lagged:
        lines.append(
            f"the real pawns stand {total.lag / total.lagged:.2f} ranks ahead of the map's"
        )
    if total.grouped:
        lines.append("kinds: the map's mass / the units standing, per decision")
        lines += _masses("enemy units", GROUPS, total.grouped, total.held, total.real, KINDS)
    if total.promoted:
        lines.append(
            "promotions: the map's pawns and queens / those standing, per decision, by the"
            " enemy's promotions so far (never told)"
        )
        lines += _masses(
            "promotions, enemy units",
            PROMOTION_GROUPS,
            total.promoted,
            total.promoted_held,
            total.promoted_real,
            (chess.PAWN, chess.QUEEN),
        )
    if total.steppable:
        lines.append(
            "pushes: quiet enemy moves that stepped a pawn from each rank (its own side's"
            " count) / the map's model's expectation"
        )
        lines.append("| enemy units | rank | pawns that could step | pushed | expected | ratio |")
        lines.append("| --- | ---: | ---: | ---: | ---: | ---: |")
        for name in PUSH_GROUPS:
            for rank in range(2, 8):
                if (name, rank) not in total.steppable:
                    continue
                pushed = total.pushed.get((name, rank), 0.0)
                expected = total.expected.get((name, rank), 0.0)
                ratio = f"{pushed / expected:.2f}" if expected else "-"
                lines.append(
                    f"| {name} | {rank} | {total.steppable[name, rank]} | {pushed:.0f} | "
                    f"{expected:.1f} | {ratio} |"
                )
    if total.last:
        lines.append(
            f"one unit left ({total.last} decisions): the map's share of its real kind "
            f"{total.last_share / total.last:.3f} on average, log loss "
            f"{total.last_loss / total.last:.3f} per decision"
        )
    return lines


def _masses(
    title: str,
    groups: Sequence[str],
    decisions: dict[str, int],
    held: dict[tuple[str, int], float],
    real: dict[tuple[str, int], float],
    kinds: Sequence[int],
) -> list[str]:
    """A table of the map's mass / the units standing per decision, a row per group."""
    lines = [
        f"| {title} | decisions | " + " | ".join(_NAMES[kind] for kind in kinds) + " |",
        "| --- | ---: |" + " --- |" * len(kinds),
    ]
    for name in groups:
        if name not in decisions:
            continue
        count = decisions[name]
        cells = [
            f"{held.get((name, kind), 0.0) / count:.2f} / {real.get((name, kind), 0.0) / count:.2f}"
            for kind in kinds
        ]
        lines.append(f"| {name} | {count} | " + " | ".join(cells) + " |")
    return lines


def save(path: str, games: Iterable[Recorded]) -> None:
    """Write ``games`` as gzipped JSON lines."""
    with gzip.open(path, "wt", encoding="utf-8") as out:
        for game in games:
            row = {"index": game.index, "hero": game.hero, "rules": game.rules}
            out.write(json.dumps(dict(row, events=game.events)) + "\n")


def load(path: str) -> list[Recorded]:
    """Read games written by :func:`save`."""
    games = []
    with gzip.open(path, "rt", encoding="utf-8") as source:
        for line in source:
            row = json.loads(line)
            events = [(view, truth) for view, truth in row["events"]]
            games.append(Recorded(row["index"], row["hero"], row["rules"], events))
    return games


def main(argv: Sequence[str] | None = None) -> int:
    """Play (or load) the games and print the map's scores."""
    parser = arguments(__doc__, games=50, seed="9")
    parser.add_argument("--bots", default="kriegspiel-meta:nodes=1000,kriegspiel-meta:nodes=20")
    parser.add_argument("--rules", default="wild16", help="the Kriegspiel rule set")
    parser.add_argument(
        "--budget",
        default="none",
        help="every searching bot's budget, over its level (none: each bot's own)",
    )
    parser.add_argument("--parallel", type=int, default=1)
    parser.add_argument("--save", help="write the games played to this file (gzipped JSON)")
    parser.add_argument("--load", help="score the games of this file instead of playing")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be 1 or more")
    if args.parallel < 1:
        parser.error("--parallel must be 1 or more")
    bots = args.bots.split(",")
    started = time.process_time()
    if args.load:
        try:
            games = load(args.load)
        except (OSError, ValueError, KeyError, TypeError) as error:
            parser.error(f"cannot read {args.load}: {error}")
    else:
        specs = tournament(bots, args.games, args.seed, args.rules, args.budget)
        with ProcessPoolExecutor(args.parallel) as pool:
            games = list(pool.map(record, specs, [bots] * len(specs)))
        if args.save:
            save(args.save, games)
    total = Score()
    for game in games:
        total.add(score_game(game))
    print("\n".join(report(total, len(games))))
    cpu = time.process_time() - started + sum(os.times()[2:4])
    print(f"CPU {cpu:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
