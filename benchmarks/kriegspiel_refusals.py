"""Where ``kriegspiel-meta``'s refused attempts come from, classified against the real board.

Plays the same games as ``umpire tournament --bots kriegspiel-meta,kriegspiel-random``
(the arena's schedule and seeds) with a bot that, at each of its attempts, reads the real
board from the events' truths (the bot itself never sees them) and, when the umpire
will refuse the attempt, names why: a pawn capture onto an empty square, a pawn step
onto an occupied square, a piece blocked on its path, a move that leaves or puts our
king in check (not answering a check, a pinned piece, the king stepping into an
attack), an illegal castling. Each refusal is also marked with what the bot knew: the
refusal chance it estimated (``legality.illegal_chance``), whether it was a deliberate
probe, and whether the same attempt was refused before with our pieces placed alike.

    python benchmarks/kriegspiel_refusals.py [--games 50] [--seed 1] [--budget nodes=1000]
        [--parallel 1] [--first 0]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import chess

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.baseline import KriegspielRandom
from bots.kriegspiel.meta import KriegspielMeta
from bots.kriegspiel.meta.legality import capture_candidates, illegal_chance
from bots.kriegspiel.meta.search import probes, probing
from bots.sdk.bot import Decision
from bots.sdk.local import play_local
from bots.tools.arena import GameSpec, schedule
from tests.bots.kriegspiel_meta_harness import truth_sink


def attempt_type(meta: Any, move: chess.Move) -> str:
    """What sort of attempt ``move`` is, as the bot sees it (for the calibration table)."""
    kind = meta.own.piece_type_at(move.from_square)
    if kind == chess.PAWN:
        if chess.square_file(move.from_square) != chess.square_file(move.to_square):
            return "pawn capture"
        if chess.BB_SQUARES[move.to_square] & meta.blockers:
            return "pawn step onto a blocker"
        return "pawn step"
    if kind == chess.KING:
        return "king" if not meta.own.is_castling(move) else "castling"
    return "knight" if kind == chess.KNIGHT else "slider"


def classify(board: chess.Board, move: chess.Move) -> str:
    """Why the umpire refuses ``move`` on the real ``board`` (our side to move)."""
    piece = board.piece_at(move.from_square)
    enemy = board.occupied_co[not board.turn]
    target = chess.BB_SQUARES[move.to_square]
    if piece is None:
        return "no piece"
    if board.is_castling(move):
        return "castling"
    kind = piece.piece_type
    if kind == chess.PAWN:
        if chess.square_file(move.from_square) != chess.square_file(move.to_square):
            if not target & enemy and move.to_square != board.ep_square:
                return "pawn capture onto an empty square"
        elif (chess.between(move.from_square, move.to_square) | target) & board.occupied:
            return "pawn step onto an occupied square"
    elif kind != chess.KNIGHT and chess.between(move.from_square, move.to_square) & enemy:
        return "piece blocked on its path"
    if kind == chess.KING:
        return "king steps into an attack"
    if board.is_check():
        return "does not answer the check"
    return "pinned piece"


class Recording(KriegspielMeta):
    """``kriegspiel-meta`` that notes, for each refused attempt, why and what it knew."""

    def __init__(self, truth: dict[str, chess.Board], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.truth = truth
        self.refusals: list[dict[str, Any]] = []
        self.tried: list[tuple[str, float, bool]] = []  #: (type, estimate, refused)
        self.captures: list[tuple[Any, ...]] = []
        self.refused_before: set[tuple[str, str]] = set()

    async def decide(self, decision: Decision) -> str:
        meta = self.meta
        offered = [chess.Move.from_uci(t) for t in decision.legal if len(t) in (4, 5)]
        before = None
        if meta is not None:
            before = (meta.own.board_fen(), meta.tries, meta.checks_on_us, probes(meta))
        choice = await super().decide(decision)
        if meta is None or before is None or len(choice) not in (4, 5):
            return choice
        board = self.truth["board"].copy(stack=False)
        move = chess.Move.from_uci(choice)
        q = illegal_chance(meta, move, offered)
        legal = board.is_legal(move)
        kind_of = attempt_type(meta, move)
        self.tried.append((kind_of, q, not legal))
        if kind_of == "pawn capture":
            self.captures.append((meta.tries, len(capture_candidates(meta, offered)), q, not legal))
        if legal:
            return choice
        placement, tries, checks, found = before
        kind = meta.own.piece_type_at(move.from_square)
        self.refusals.append(
            {
                "why": classify(board, move),
                "q": q,
                "probe": bool(found) and probing(meta, choice, found),
                "repeat": (placement, choice) in self.refused_before,
                "tries": tries,
                "checked": bool(checks),
                "kind": chess.piece_name(kind) if kind else "?",
                "units": meta.units,
            }
        )
        self.refused_before.add((placement, choice))
        return choice


Played = tuple[list[dict[str, Any]], list[tuple[str, float, bool]], list[tuple[Any, ...]]]


def play(spec: GameSpec) -> Played:
    """One scheduled game: the hero's refusals; each attempt's type, estimated refusal
    chance and whether it was refused; each pawn capture's announced count, candidates,
    estimate and whether it was refused."""
    truth = {"board": chess.Board()}
    hero = spec.bots.index("kriegspiel-meta")
    bots: list[Any] = []
    for seat, name in enumerate(spec.bots):
        seed = spec.bot_seeds[seat]
        if seat == hero:
            bots.append(Recording(truth, seed=seed, budget=spec.budget))
        else:
            assert name == "kriegspiel-random"
            bots.append(KriegspielRandom(seed=seed))
    asyncio.run(play_local(spec.game, spec.options, bots, spec.seed, sink=truth_sink(truth)))
    recorder = bots[hero]
    return recorder.refusals, recorder.tried, recorder.captures


def _bucket(q: float) -> str:
    for edge in (0.1, 0.3, 0.5, 0.7, 0.9):
        if q < edge:
            return f"q<{edge}"
    return "q>=0.9"


def main() -> int:
    """Play the games and print the refused attempts by cause."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--budget", default="nodes=1000")
    parser.add_argument("--parallel", type=int, default=1)
    args = parser.parse_args()
    bots = ["kriegspiel-meta", "kriegspiel-random"]
    specs = schedule("kriegspiel", {}, bots, 2, args.games, args.seed, args.budget)[args.first :]
    refusals: list[dict[str, Any]] = []
    attempts: list[tuple[str, float, bool]] = []
    captures: list[tuple[Any, ...]] = []
    with ProcessPoolExecutor(args.parallel) as pool:
        for refused, legal, taken in pool.map(play, specs):
            refusals += refused
            attempts += legal
            captures += taken
    total = len(attempts)
    print(
        f"{len(specs)} games: {len(refusals)} refused of {total} attempts "
        f"({len(refusals) / max(1, total):.3f})"
    )
    causes = Counter(r["why"] for r in refusals)
    for why, n in causes.most_common():
        rows = [r for r in refusals if r["why"] == why]
        probe = sum(r["probe"] for r in rows)
        repeat = sum(r["repeat"] for r in rows)
        checked = sum(r["checked"] for r in rows)
        buckets = Counter(_bucket(r["q"]) for r in rows)
        kinds = Counter(r["kind"] for r in rows)
        print(
            f"  {why:36s} {n:5d} ({100 * n / max(1, len(refusals)):4.1f}%)  probes {probe}"
            f"  repeated {repeat}  in check {checked}"
        )
        print(f"      estimated: {dict(sorted(buckets.items()))}  pieces: {dict(kinds)}")
    tries = Counter(
        "no count" if r["tries"] is None else f"tries={r['tries']}"
        for r in refusals
        if r["why"] == "pawn capture onto an empty square"
    )
    print(f"  pawn captures onto empty squares by the announced count: {dict(tries)}")
    print("calibration: attempt type, attempts, refused, mean estimate")
    for kind in sorted({a[0] for a in attempts}):
        group = [a for a in attempts if a[0] == kind]
        hits = sum(a[2] for a in group)
        mean = sum(a[1] for a in group) / len(group)
        print(f"  {kind:26s} {len(group):6d} {hits:6d} ({hits / len(group):.3f})  {mean:.3f}")
        for bucket in sorted({_bucket(a[1]) for a in group}):
            inner = [a for a in group if _bucket(a[1]) == bucket]
            hit = sum(a[2] for a in inner)
            print(f"      {bucket:8s} {len(inner):6d} refused {hit / len(inner):.3f}")
    allowed = sum(1 for capture in captures if not capture[3])
    print(
        f"pawn captures: {len(captures)} tried, {len(captures) - allowed} refused, {allowed} legal"
    )
    print("pawn captures by announced count and candidates (8: 8 or more): n, refused, estimate")
    table: dict[tuple[str, int], list[float]] = {}
    for count, candidates, chance, denied in captures:
        row = table.setdefault((str(count), min(candidates, 8)), [0.0, 0.0, 0.0])
        row[0] += 1
        row[1] += denied
        row[2] += chance
    for (count, candidates), (seen, refusals_n, estimated) in sorted(table.items()):
        rates = f"{refusals_n / seen:.3f}  {estimated / seen:.3f}"
        print(f"  tries {count:4s} candidates {candidates}  {seen:5.0f}  {rates}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
