"""Won Kriegspiel positions played on from where they were reached: a paired screen of
the conversion (issue 33).

A change to ``kriegspiel-meta``'s conversion was measured by whole games against meta
at 20 nodes (``benchmarks.kriegspiel_draws``): a variant changes the games before the
won position too, so each variant met other positions, and 100 games could not tell a
conversion rate within ten points. This screen holds the positions fixed:

- ``collect`` plays a tournament as ``kriegspiel_draws`` does (the same bots, seed,
  rules, budget and ``--previous``) and records every decision of both seats. For each
  game in which the hero (the first of ``--bots``) reached a won position
  (``kriegspiel_material.won_at``: 5 or more points ahead after 20 consecutive moves of
  its own) it saves the decisions made before that move's end, the ply and the real
  board there, and how the game went on (``--out``, JSON).
- ``screen`` plays each saved position on ``--repeats`` times with the code of the tree
  it runs from: both seats replay their saved decisions up to the won position (each
  bot folds the umpire's answers into its own beliefs, as in the game), then the bots
  play on, seeded anew for each repeat (the seeds depend on the position and the
  repeat only, not on the code). It checks that the real board at the won position is
  the saved one, then counts the continuations the hero mated, with a 95% Wilson
  interval, and their other endings. ``--compare`` reads another screen's results
  (``--out``) and pairs the continuations (same position, same repeat): both mated,
  only one, neither, and an exact two-sided sign test on the pairs that differ.
  ``--no-fifty-moves`` plays on with the 50-move rule off (the 75-move rule still ends
  a game): how many of the 50-move draws more time would mate. It also counts the
  continuations mated by the enemy's queens (a queen kept from the won position, one
  promoted on the way, neither), by whether the hero had a pawn of its own there, and
  by the 50-move count there (under 20 half-moves, or more). Of those not converted it
  tells where the hero's material went (``kriegspiel_material.bleed``: each unit taken
  after the won position, by whom, whether the hero had just moved it there or had just
  taken a unit there, whether it was defended and taken back; and the other side's
  promotions).
- ``screen --oracle NAME`` tells the hero part of the truth before each of its free
  decisions (``benchmarks.kriegspiel_oracle``: the king's square, a box around it, the
  square now and then, the kinds' counts): what knowing it would be worth.
- ``report`` prints those figures for a screen's saved results (``--results``, with the
  positions' files it played) without playing again, paired with ``--compare``.

    python -m benchmarks.kriegspiel_conversion collect --out won9.json --seed 9 --games 50
        [--bots kriegspiel-meta:nodes=1000,kriegspiel-meta:nodes=20] [--budget none]
        [--rules wild16] [--previous COMMIT] [--parallel 1]
    python -m benchmarks.kriegspiel_conversion screen --positions won9.json [won10.json ...]
        [--repeats 2] [--parallel 1] [--out results.json] [--compare base.json] [--every]
        [--no-fifty-moves] [--oracle king|kingR|everyN|smallN|kinds]
    python -m benchmarks.kriegspiel_conversion report --positions won9.json [...]
        --results results.json [--compare base.json]

The opponent's code is the one the positions were collected with (``--previous`` is
saved with them and unpacked again); only the hero runs the tree's code.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import math
import os
import statistics
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import chess

from benchmarks.common import arguments
from benchmarks.kriegspiel_draws import hero_seat, previous_opponents, tournament, warm_tables
from benchmarks.kriegspiel_material import (
    Bleed,
    Taken,
    ahead,
    bleed,
    bleed_table,
    material,
    trail,
    won_at,
)
from benchmarks.kriegspiel_oracle import Oracle, parse_oracle
from bots.sdk.bot import Decision
from bots.sdk.local import LocalGame, play_local
from bots.tools.arena import GameSpec, bot_seed, game_seed, make_bot, wilson_interval
from server.games import engine
from server.games.base import Event
from server.games.kriegspiel import KriegspielGame
from tests.bots.kriegspiel_meta_harness import truth_sink

#: The defaults of the measure this screen serves: meta at 1,000 nodes against meta at 20.
BOTS = "kriegspiel-meta:nodes=1000,kriegspiel-meta:nodes=20"
#: The format of the positions' file, saved with them.
FORMAT = 1


class Mismatch(RuntimeError):
    """A saved decision the umpire no longer offers, or the real board at the won
    position not the saved one: the positions were collected with other rules or an
    umpire that answers differently."""


@dataclass(frozen=True, slots=True)
class Position:
    """A won position reached in game ``index`` of the collected tournament."""

    index: int
    hero: int  #: the hero's seat (0 plays white)
    cut: int  #: the ply at which it was reached (the board's ``ply()``)
    fen: str  #: the real board there
    #: each seat's decisions (UCI attempts and commands) made before the cut, in order
    prefix: tuple[tuple[str, ...], ...]
    #: how the collected game ended for the hero (``win: checkmate``, ``draw: ...``)
    then: str


@dataclass(frozen=True, slots=True)
class Continuation:
    """One repeat of a position played on: the hero's result and the end's reason."""

    seed: str  #: the collected tournament's seed
    index: int
    repeat: int
    result: str  #: win, draw or loss
    reason: str
    plies: int  #: played after the won position
    mine: str  #: the hero's material at the end (``kriegspiel_material.material``)
    theirs: str
    #: not converted: where the hero's material went after the won position (its units
    #: taken, the other side's promotions: ``kriegspiel_material.bleed``); else None
    bleed: Bleed | None = None

    @property
    def converted(self) -> bool:
        """Whether the hero won by checkmate."""
        return self.result == "win" and self.reason == "checkmate"

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.seed, self.index, self.repeat)


def _ply(state: dict[str, int]) -> Any:
    """An event sink that keeps ``state["ply"]`` at the real board's ply."""

    def sink(events: list[Event]) -> None:
        for event in events:
            fen = event.truth.get("fen")
            if isinstance(fen, str):
                state["ply"] = chess.Board(fen).ply()

    return sink


def _result(ranks: Sequence[int], hero: int) -> str:
    mine, other = ranks[hero], ranks[1 - hero]
    return "win" if mine < other else "draw" if mine == other else "loss"


def cut_at(board: chess.Board, hero: int) -> int | None:
    """The ply (``Board.ply()``) right after the hero's move at which it first held a won
    position in the game ``board`` (its move stack from its root), None: never."""
    color = hero == 0
    leads = [ahead(mine, theirs) for mine, theirs in trail(board, color)]
    number = won_at(leads)
    if number is None:
        return None
    replay = board.root()
    moved = 0
    for move in board.move_stack:
        mover = replay.turn
        replay.push(move)
        if mover == color:
            moved += 1
            if moved == number:
                return replay.ply()
    raise AssertionError("won_at counted more moves than the game has")  # pragma: no cover


def at_ply(board: chess.Board, ply: int) -> chess.Board:
    """The position of ``board``'s game (its move stack from its root) at ``ply``."""
    there = board.root()
    for move in board.move_stack:
        if there.ply() == ply:
            break
        there.push(move)
    return there


async def collect_one(spec: GameSpec, hero: int) -> Position | None:
    """Play ``spec`` recording each seat's decisions; the hero's won position, if any."""
    bots = [
        make_bot(name, seed, spec.budget)
        for name, seed in zip(spec.bots, spec.bot_seeds, strict=True)
    ]
    state = {"ply": 0}
    made: list[list[tuple[int, str]]] = [[] for _ in bots]
    for seat, bot in enumerate(bots):
        decide = bot.decide

        async def recorded(
            decision: Decision, decide: Any = decide, log: list[tuple[int, str]] = made[seat]
        ) -> str:
            choice: str = await decide(decision)
            log.append((state["ply"], choice))
            return choice

        setattr(bot, "decide", recorded)  # noqa: B010 (an instance's own method)
    sink = _ply(state)
    local = await play_local(spec.game, spec.options, bots, spec.seed, names=spec.bots, sink=sink)
    game = local.game
    assert isinstance(game, KriegspielGame)
    board = game.board
    cut = cut_at(board, hero)
    if cut is None:
        return None
    there = at_ply(board, cut)
    outcome = local.outcome
    prefix = tuple(tuple(choice for ply, choice in log if ply < cut) for log in made)
    then = f"{_result(outcome.ranks, hero)}: {outcome.reason}"
    return Position(spec.index, hero, cut, there.fen(), prefix, then)


def _collect_worker(spec: GameSpec, bots: Sequence[str]) -> Position | None:
    return asyncio.run(collect_one(spec, hero_seat(bots, spec.index, len(spec.bots))))


@dataclass(frozen=True, slots=True)
class Forced:
    """The bots of a position's continuation (seat order), each replaying its saved
    decisions (``queues``: those not yet replayed) before it plays; ``problems``: the
    saved decisions the umpire did not offer."""

    bots: list[Any]
    queues: list[deque[str]]
    problems: list[str]


def forced_bots(spec: GameSpec, position: Position, repeat: int, seed: str) -> Forced:
    """The bots that play ``position`` (of game ``spec``) on: they replay their saved
    decisions, then play freely, seeded by ``seed``, the game's index, the seat and
    ``repeat``."""
    seeds = [
        bot_seed(f"{seed}/conversion/{repeat}", spec.index, seat) for seat in range(len(spec.bots))
    ]
    bots = [make_bot(name, one, spec.budget) for name, one in zip(spec.bots, seeds, strict=True)]
    forced = Forced(bots, [deque(choices) for choices in position.prefix], [])
    for bot, saved in zip(bots, forced.queues, strict=True):

        async def replayed(decision: Decision, decide: Any = bot.decide, saved: Any = saved) -> str:
            if not saved:
                free: str = await decide(decision)
                return free
            choice: str = saved.popleft()
            if choice not in decision.legal:
                forced.problems.append(
                    f"game {spec.index}: the saved decision {choice} is not offered"
                )
                raise Mismatch(forced.problems[-1])  # (the runner forfeits the seat, goes on)
            return choice

        setattr(bot, "decide", replayed)  # noqa: B010 (an instance's own method)
    return forced


def check_reached(local: LocalGame, position: Position, forced: Forced) -> chess.Board:
    """The real board at the end of ``local``, a continuation of ``position`` played by
    ``forced``'s bots; :class:`Mismatch` unless it went through the saved board."""
    if local.faults and not forced.problems:
        raise Mismatch(f"game {position.index}: faults {local.faults}")
    game = local.game
    assert isinstance(game, KriegspielGame)
    return went_through(game.board, position, forced)


def went_through(board: chess.Board, position: Position, forced: Forced) -> chess.Board:
    """``board`` (a game's end, with its moves), if the game went through ``position``'s
    saved board with every saved decision offered and replayed; else :class:`Mismatch`."""
    index = position.index
    if forced.problems:
        raise Mismatch(forced.problems[0])
    reached = at_ply(board, position.cut)
    if any(forced.queues) or reached.fen() != position.fen:
        raise Mismatch(
            f"game {index}: the board at ply {position.cut} is {reached.fen()}, "
            f"saved {position.fen}"
        )
    return board


async def play_on(
    spec: GameSpec, position: Position, repeat: int, seed: str, oracle: Oracle | None = None
) -> Continuation:
    """Play ``position`` (of game ``spec``) on with :func:`forced_bots`; an ``oracle``
    tells the hero part of the truth before each of its free decisions."""
    forced = forced_bots(spec, position, repeat, seed)
    sink = None
    if oracle is not None:
        oracle.attach(forced.bots[position.hero], forced.queues[position.hero])
        sink = truth_sink(oracle.truth)
    local = await play_local(
        spec.game, spec.options, forced.bots, spec.seed, names=spec.bots, sink=sink
    )
    board = check_reached(local, position, forced)
    color = position.hero == 0
    row = Continuation(
        seed,
        spec.index,
        repeat,
        _result(local.outcome.ranks, position.hero),
        local.outcome.reason,
        board.ply() - position.cut,
        material(board, color),
        material(board, not color),
    )
    if row.converted:
        return row
    moves = (position.cut + 1) // 2 if color else position.cut // 2  # the hero's, to the cut
    return replace(row, bleed=bleed(board, color, moves))


def without_fifty_moves(spec: GameSpec) -> GameSpec:
    """``spec`` with the 50-move rule off (the 75-move rule still ends the game): a
    screen so played says how many of the 50-move draws more time would have mated."""
    return replace(spec, options={**spec.options, "auto_fifty_moves": False})


def _screen_worker(item: Item, oracle: str | None = None) -> Continuation:
    spec, position, repeat, seed = item
    told = parse_oracle(oracle) if oracle else None
    return asyncio.run(play_on(spec, position, repeat, seed, told))


@dataclass(frozen=True, slots=True)
class Collected:
    """A positions' file: the tournament they were collected from, and the positions."""

    bots: tuple[str, ...]  #: as given (``--bots``), the hero first
    seed: str
    games: int
    rules: str
    budget: str
    previous: str | None
    positions: tuple[Position, ...]

    def save(self, path: Path) -> None:
        """Write the file (JSON), whole or not at all."""
        data = {"format": FORMAT, **asdict(self)}
        temporary = path.with_name(path.name + ".part")
        temporary.write_text(json.dumps(data, separators=(",", ":")) + "\n")
        temporary.replace(path)

    @classmethod
    def load(cls, path: Path) -> Collected:
        """Read a file :meth:`save` wrote; a clear error for anything else."""
        try:
            data = json.loads(path.read_text())
            if data.get("format") != FORMAT:
                raise ValueError(f"format {data.get('format')!r}, not {FORMAT}")
            positions = tuple(
                Position(
                    int(one["index"]),
                    int(one["hero"]),
                    int(one["cut"]),
                    str(one["fen"]),
                    tuple(tuple(str(choice) for choice in seat) for seat in one["prefix"]),
                    str(one["then"]),
                )
                for one in data["positions"]
            )
            return cls(
                tuple(str(bot) for bot in data["bots"]),
                str(data["seed"]),
                int(data["games"]),
                str(data["rules"]),
                str(data["budget"]),
                None if data["previous"] is None else str(data["previous"]),
                positions,
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            raise SystemExit(f"{path}: not a positions' file of this screen ({error})") from None


def reached(collected: Collected, position: Position) -> str:
    """The real board (FEN) that ``position``'s saved decisions alone lead to from its
    game's start, no bot playing: the saved board, or :class:`Mismatch`."""
    rules = engine("kriegspiel")
    game, _ = rules.new_game(
        rules.make_config({"rules": collected.rules}), game_seed(collected.seed, position.index)
    )
    assert isinstance(game, KriegspielGame)
    queues = [deque(choices) for choices in position.prefix]
    while game.to_move is not None and queues[game.to_move]:
        seat = game.to_move
        choice = queues[seat].popleft()
        if choice not in [str(action) for action in game.legal_actions(seat)]:
            raise Mismatch(f"game {position.index}: the saved decision {choice} is not offered")
        game.apply(seat, choice)
    fen = game.board.fen()
    if any(queues) or fen != position.fen:
        raise Mismatch(
            f"game {position.index}: the saved decisions lead to {fen}, saved {position.fen}"
        )
    return fen


def save_results(path: Path, rows: Sequence[Continuation]) -> None:
    """Write a screen's continuations (JSON), whole or not at all."""
    data = {"format": FORMAT, "continuations": [asdict(row) for row in rows]}
    temporary = path.with_name(path.name + ".part")
    temporary.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    temporary.replace(path)


def _continuation(saved: dict[str, Any]) -> Continuation:
    """A continuation as :func:`save_results` wrote it (screens saved before the bleed
    was recorded have none)."""
    lost = saved.get("bleed")
    if lost is not None:
        taken = tuple(Taken(**one) for one in lost["taken"])
        saved = {**saved, "bleed": Bleed(taken, lost["promotions"])}
    return Continuation(**saved)


def load_results(path: Path) -> list[Continuation]:
    """Read a screen's continuations (:func:`save_results`)."""
    try:
        data = json.loads(path.read_text())
        if data.get("format") != FORMAT:
            raise ValueError(f"format {data.get('format')!r}, not {FORMAT}")
        return [_continuation(one) for one in data["continuations"]]
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise SystemExit(f"{path}: not a screen's results ({error})") from None


def sign_test(only_this: int, only_that: int) -> float:
    """The exact two-sided p-value of the sign test on pairs that differ: ``only_this``
    mated here and not there, ``only_that`` the other way."""
    n = only_this + only_that
    if n == 0:
        return 1.0
    low = min(only_this, only_that)
    tail = sum(math.comb(n, k) for k in range(low + 1)) / (1 << n)
    return min(1.0, 2 * tail)


def summary(rows: Sequence[Continuation], positions: int) -> list[str]:
    """The screen's figures: the share mated, with its interval, the endings, and where
    the hero's material went in the continuations not converted (the bleed table)."""
    mated = sum(1 for row in rows if row.converted)
    low, high = wilson_interval(mated, len(rows))
    endings = Counter(f"{row.result}: {row.reason}" for row in rows)
    plies = sorted(row.plies for row in rows if row.converted)
    median = plies[len(plies) // 2] if plies else 0
    by_position: dict[tuple[str, int], list[bool]] = {}
    for row in rows:
        by_position.setdefault((row.seed, row.index), []).append(row.converted)
    every = sum(1 for mates in by_position.values() if all(mates))
    never = sum(1 for mates in by_position.values() if not any(mates))
    return [
        f"{len(rows)} continuations of {positions} won positions: mated {mated} = "
        f"{100 * mated / max(1, len(rows)):.1f}% (95% {100 * low:.1f}-{100 * high:.1f}%); "
        f"median plies to mate {median}",
        f"positions mated in every continuation {every}, in some {len(by_position) - every - never}"
        f", in none {never}",
        ", ".join(f"{why} {n}" for why, n in endings.most_common()),
        *bleed_table([row.bleed for row in rows if row.bleed is not None]),
    ]


#: The groups of :func:`queens`: the enemy's queens at the won position and at the end.
QUEEN_GROUPS = (
    "a queen at the won position",
    "none there, one at the end (promoted)",
    "none there nor at the end",
)


def queen_group(position: Position, row: Continuation) -> str:
    """Which of :data:`QUEEN_GROUPS` a continuation of ``position`` falls in (a queen
    promoted and taken before the end counts as none)."""
    board = chess.Board(position.fen)
    enemy = position.hero == 1  # the enemy plays white when the hero sits second
    if board.pieces_mask(chess.QUEEN, enemy):
        return QUEEN_GROUPS[0]
    return QUEEN_GROUPS[1] if "Q" in row.theirs else QUEEN_GROUPS[2]


#: The groups of :func:`grouped`'s pawns: whether the hero had a pawn at the won
#: position (without one, only a capture resets the 50-move count).
PAWN_GROUPS = ("pawns of its own", "no pawn of its own")
#: The groups of :func:`grouped`'s count: the 50-move count (half-moves) at the won position.
COUNT_GROUPS = ("under 20", "20 or more")


def pawn_group(position: Position, row: Continuation) -> str:
    """Which of :data:`PAWN_GROUPS` a continuation of ``position`` falls in."""
    board = chess.Board(position.fen)
    return PAWN_GROUPS[0] if board.pieces_mask(chess.PAWN, position.hero == 0) else PAWN_GROUPS[1]


def count_group(position: Position, row: Continuation) -> str:
    """Which of :data:`COUNT_GROUPS` a continuation of ``position`` falls in."""
    return COUNT_GROUPS[chess.Board(position.fen).halfmove_clock >= 20]


#: What :func:`grouped` prints: each line's title, its groups, and how a continuation
#: falls in one.
GROUPINGS: tuple[tuple[str, tuple[str, ...], Callable[[Position, Continuation], str]], ...] = (
    ("by the enemy's queens", QUEEN_GROUPS, queen_group),
    ("by the hero's pawns at the won position", PAWN_GROUPS, pawn_group),
    ("by the 50-move count at the won position", COUNT_GROUPS, count_group),
)


def grouped(rows: Sequence[Continuation], files: Sequence[Collected]) -> list[str]:
    """The continuations mated, by each of :data:`GROUPINGS`: the enemy's queens (those it
    kept from the won position, those it promoted on the way, and neither), the hero's
    pawns there, and the 50-move count there."""
    where = {(one.seed, position.index): position for one in files for position in one.positions}
    lines = []
    for title, names, group in GROUPINGS:
        mated: Counter[str] = Counter()
        played: Counter[str] = Counter()
        for row in rows:
            position = where.get((row.seed, row.index))
            if position is None:
                continue
            name = group(position, row)
            played[name] += 1
            mated[name] += row.converted
        parts = (f"{name}: mated {mated[name]} of {played[name]}" for name in names)
        lines.append(f"{title}: " + "; ".join(parts))
    return lines


def compare(rows: Sequence[Continuation], others: Sequence[Continuation], label: str) -> list[str]:
    """The continuations paired with another screen's (same position, same repeat)."""
    there = {row.key: row for row in others}
    pairs = [(row, there[row.key]) for row in rows if row.key in there]
    if not pairs:
        return [f"no continuation of {label} pairs with this screen's"]
    both = sum(1 for one, two in pairs if one.converted and two.converted)
    only_this = sum(1 for one, two in pairs if one.converted and not two.converted)
    only_that = sum(1 for one, two in pairs if two.converted and not one.converted)
    neither = len(pairs) - both - only_this - only_that
    lines = [
        f"paired with {label} ({len(pairs)} continuations): mated {both + only_this} here, "
        f"{both + only_that} there; both {both}, only here {only_this}, only there "
        f"{only_that}, neither {neither}; sign test p = {sign_test(only_this, only_that):.3f}"
    ]
    lost_here = sum(1 for one, _ in pairs if one.result == "loss")
    lost_there = sum(1 for _, two in pairs if two.result == "loss")
    line = f"  lost {lost_here} here, {lost_there} there"
    mated = [(one.plies, two.plies) for one, two in pairs if one.converted and two.converted]
    if mated:
        # The mates both made, compared move for move: a change that mates the same
        # positions faster shows here while the counts above stay even.
        here_mean = statistics.fmean(one for one, _ in mated)
        there_mean = statistics.fmean(two for _, two in mated)
        gap = statistics.median(one - two for one, two in mated)
        line += (
            f"; where both mated, plies to mate {here_mean:.1f} here against "
            f"{there_mean:.1f} there (median gap {gap:+g})"
        )
    return [*lines, line]


def _line(row: Continuation) -> str:
    return (
        f"seed {row.seed} game {row.index:3d} repeat {row.repeat}: {row.result:4s} "
        f"{row.reason:26s} plies {row.plies:3d}  ours {row.mine:9s} theirs {row.theirs}"
    )


def _specs(collected: Collected, folder: Path) -> list[GameSpec]:
    bots = list(collected.bots)
    if collected.previous:
        bots = previous_opponents(bots, collected.previous, folder)
    return tournament(bots, collected.games, collected.seed, collected.rules, collected.budget)


def collect(args: argparse.Namespace) -> int:
    """Play the tournament and save its won positions."""
    bots = args.bots.split(",")
    folder = tempfile.TemporaryDirectory(prefix="conversion-")
    empty = Collected(
        tuple(bots), args.seed, args.games, args.rules, args.budget, args.previous, ()
    )
    specs = _specs(empty, Path(folder.name))
    positions: list[Position] = []
    warm_tables()
    with ProcessPoolExecutor(args.parallel) as pool:
        worker = functools.partial(_collect_worker, bots=bots)
        for spec, position in zip(specs, pool.map(worker, specs), strict=True):
            reached = (
                "no won position"
                if position is None
                else (f"won position at ply {position.cut}, then {position.then}")
            )
            print(f"game {spec.index:3d}: {reached}", flush=True)
            if position is not None:
                positions.append(position)
    folder.cleanup()
    collected = Collected(
        tuple(bots),
        args.seed,
        args.games,
        args.rules,
        args.budget,
        args.previous,
        tuple(positions),
    )
    collected.save(Path(args.out))
    mated = sum(1 for one in positions if one.then == "win: checkmate")
    print(
        f"{len(positions)} won positions in {args.games} games, {mated} mated in the games "
        f"played; saved to {args.out}"
    )
    return 0


#: One continuation to play: the game, its won position, the repeat, the file's seed.
Item = tuple[GameSpec, Position, int, str]


def continuations(
    files: Sequence[Collected], folder: Path, repeats: int, chosen: slice = slice(None)
) -> list[Item]:
    """The continuations of the ``chosen`` positions of each of ``files`` (``repeats``
    each), every position first checked to be reached by its saved decisions; the
    previous versions' code is unpacked under ``folder``."""
    seeds = [collected.seed for collected in files]
    if len(set(seeds)) != len(seeds):
        raise SystemExit(f"two positions' files of one seed: {', '.join(seeds)}")
    items: list[Item] = []
    for number, collected in enumerate(files):
        specs = _specs(collected, folder / str(number))
        for position in collected.positions[chosen]:
            reached(collected, position)  # (before hours of play: the file still fits)
            for repeat in range(repeats):
                items.append((specs[position.index], position, repeat, collected.seed))
    return items


def screen(args: argparse.Namespace) -> int:
    """Play the saved positions on and print the conversion."""
    files = [Collected.load(Path(path)) for path in args.positions]
    folder = tempfile.TemporaryDirectory(prefix="conversion-")
    items = continuations(files, Path(folder.name), args.repeats)
    if args.no_fifty_moves:
        items = [
            (without_fifty_moves(spec), position, repeat, seed)
            for spec, position, repeat, seed in items
        ]
    positions = sum(len(collected.positions) for collected in files)
    rows: list[Continuation] = []
    warm_tables()
    with ProcessPoolExecutor(args.parallel) as pool:
        worker = functools.partial(_screen_worker, oracle=args.oracle)
        for row in pool.map(worker, items):
            rows.append(row)
            if args.every or not row.converted:
                print(_line(row), flush=True)
    folder.cleanup()
    if args.out:
        save_results(Path(args.out), rows)
    if args.oracle:
        print(f"the hero was told by the oracle {args.oracle} (benchmarks.kriegspiel_oracle)")
    print("\n".join(summary(rows, positions) + grouped(rows, files)))
    then = sum(
        1 for collected in files for one in collected.positions if one.then == "win: checkmate"
    )
    print(f"the collected games mated {then} of {positions}")
    for path in args.compare or []:
        print("\n".join(compare(rows, load_results(Path(path)), path)))
    return 0


def report(args: argparse.Namespace) -> int:
    """Print a saved screen's figures, as ``screen`` printed them, without playing."""
    files = [Collected.load(Path(path)) for path in args.positions]  # (clear errors)
    rows = load_results(Path(args.results))
    others = [(path, load_results(Path(path))) for path in args.compare or []]
    positions = sum(len(collected.positions) for collected in files)
    print("\n".join(summary(rows, positions) + grouped(rows, files)))
    for path, other in others:
        print("\n".join(compare(rows, other, path)))
    return 0


def main(argv: list[str] | None = None) -> int:
    """``collect`` or ``screen``, as the module's docstring says."""
    parser = arguments(__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    gather = commands.add_parser("collect", help="play a tournament, save its won positions")
    gather.add_argument("--out", required=True, help="the positions' file to write (JSON)")
    gather.add_argument("--games", type=int, default=50, help="games to play")
    gather.add_argument("--seed", default="9", help="the tournament's seed")
    gather.add_argument("--bots", default=BOTS, help="the hero first")
    gather.add_argument("--rules", default="wild16", help="the Kriegspiel rule set")
    gather.add_argument("--budget", default="none", help="as kriegspiel_draws's")
    gather.add_argument("--previous", help="the other kriegspiel-meta as committed here")
    gather.add_argument("--parallel", type=int, default=1)
    play = commands.add_parser("screen", help="play saved won positions on")
    play.add_argument("--positions", nargs="+", required=True, help="positions' files")
    play.add_argument("--repeats", type=int, default=2, help="continuations of each position")
    play.add_argument("--parallel", type=int, default=1)
    play.add_argument("--out", help="write the continuations here (JSON), for --compare")
    play.add_argument("--compare", nargs="*", help="other screens' results to pair with")
    play.add_argument("--every", action="store_true", help="print every continuation")
    play.add_argument(
        "--no-fifty-moves",
        action="store_true",
        help="play on without the 50-move rule (the 75-move rule still applies): what more "
        "time would mate",
    )
    play.add_argument(
        "--oracle",
        help="tell the hero part of the truth before each of its decisions "
        "(benchmarks.kriegspiel_oracle): king, kingR, everyN, smallN or kinds",
    )
    told = commands.add_parser("report", help="print a saved screen's figures")
    told.add_argument("--positions", nargs="+", required=True, help="the screen's positions")
    told.add_argument("--results", required=True, help="the screen's results (its --out)")
    told.add_argument("--compare", nargs="*", help="other screens' results to pair with")
    args = parser.parse_args(argv)
    if args.command == "collect" and args.games < 1:
        parser.error(f"--games {args.games}: play at least one game")
    if args.command == "screen" and args.repeats < 1:
        parser.error(f"--repeats {args.repeats}: play each position on at least once")
    if getattr(args, "oracle", None):
        try:
            parse_oracle(args.oracle)
        except ValueError as error:
            parser.error(f"--oracle: {error}")
    if getattr(args, "parallel", 1) < 1:
        parser.error(f"--parallel {args.parallel}: at least one process")
    started = time.process_time()
    if args.command == "report":
        return report(args)
    code = collect(args) if args.command == "collect" else screen(args)
    cpu = time.process_time() - started + sum(os.times()[2:4])
    print(f"CPU {cpu:.0f} s")
    return code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
