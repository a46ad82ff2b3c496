"""One game of ``kriegspiel_draws`` replayed, with the real board beside the hero's beliefs.

Plays game ``--game`` of the same tournament as :mod:`benchmarks.kriegspiel_draws` (the
same bots, seed, rules and budget give the same game) and prints, for each decision of
the hero (the first of ``--bots``, a ``kriegspiel-meta``): the attempt it chose, the
enemy king's region (how many squares, and whether the real king is inside), the enemy's
units as the presence map holds them by kind (their expected counts) against the real
board's, and the half-move clock; then the real board at the last ``--boards``
decisions. Before the boards, each capture by the other side that the hero could have
taken back at once and did not (``kriegspiel_material.unanswered``), with the move it
played instead; ``--previous COMMIT`` plays the other ``kriegspiel-meta`` as committed
there, as ``kriegspiel_draws --previous`` does. This is how the replays of issue 33 were
read (docs/kriegspiel_meta.md): a draw or a loss is found in the table of
``kriegspiel_draws``, replayed here, and the decision where belief and board part is
where to look.

With ``--positions FILE`` (a positions' file of :mod:`benchmarks.kriegspiel_conversion`)
it replays continuation ``--repeat`` of the won position saved for game ``--game``
instead, as that screen played it: the tournament, the bots and ``--previous`` are the
file's (``--seed``, ``--bots``, ``--rules``, ``--budget``, ``--previous`` do not apply),
and ``--from`` defaults to the first decision after the won position.

    python -m benchmarks.kriegspiel_replay --game 265 --seed 10
        [--bots kriegspiel-meta:hard,kriegspiel-random] [--budget nodes=1000]
        [--rules wild16] [--boards 4] [--from 0] [--previous COMMIT]
    python -m benchmarks.kriegspiel_replay --game 4 --positions won9.json [--repeat 1]
"""

from __future__ import annotations

import asyncio
import re
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess

from benchmarks.common import arguments
from benchmarks.kriegspiel_conversion import Collected, Forced, forced_bots, went_through
from benchmarks.kriegspiel_draws import hero_seat, previous_opponents, tournament
from benchmarks.kriegspiel_material import unanswered
from bots.kriegspiel.meta import KriegspielMeta, Metaposition
from bots.sdk.bot import Decision
from bots.sdk.local import play_local
from bots.tools.arena import GameSpec, make_bot
from server.games.kriegspiel import KriegspielGame
from tests.bots.kriegspiel_meta_harness import truth_sink

#: The presence map's kinds, in the order printed.
KINDS = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
#: The search's scores printed at ``--at``, best first.
SCORES = 8
#: An attempt (a move in UCI), as opposed to a command (resign, a draw, "any").
_ATTEMPT = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")


@dataclass(frozen=True, slots=True)
class Seen:
    """One decision of the hero: what it chose, what it believed, what was true."""

    index: int
    choice: str
    region: int  #: squares the enemy king may stand on
    inside: bool  #: the real king is one of them
    units: int  #: the enemy's units (besides its king) as the hero counts them
    believed: tuple[float, ...]  #: the presence map's mass by kind (KINDS' order)
    real: tuple[int, ...]  #: the real board's units by kind
    clock: int  #: the half-move clock
    fen: str
    detail: str = ""  #: at ``--at``: the metaposition's literal and the search's scores


def _detail(recorded: str, bot: KriegspielMeta) -> str:
    """The literal taken before the decision and the scores the bot's search gave."""
    scores = bot.searcher.last if bot.searcher is not None else {}
    best = sorted(scores.items(), key=lambda pair: -pair[1])[:SCORES]
    ranked = ", ".join(f"{move} {value:.1f}" for move, value in best)
    return f"the search's best scores: {ranked}\n{recorded}"


def line(seen: Seen) -> str:
    """One decision on one line."""
    kinds = " ".join(
        f"{chess.piece_symbol(kind).upper()} {belief:.2f}/{real}"
        for kind, belief, real in zip(KINDS, seen.believed, seen.real, strict=True)
    )
    inside = "" if seen.inside else " (the real king outside!)"
    return (
        f"{seen.index:3d} {seen.choice:6s} region {seen.region:2d}{inside}  units {seen.units}"
        f"  believed/real {kinds}  clock {seen.clock}"
    )


#: Kinds as a test's literal names them.
_NAMES = {kind: f"chess.{chess.piece_name(kind).upper()}" for kind in chess.PIECE_TYPES}
#: Metaposition fields a literal carries when they are not their defaults (square sets
#: as square names, as ``rebuilt`` reads them).
_COUNTS = ("pawn_captures", "piece_captures", "promotions", "quiet_moves", "tries")
_SQUARES = ("known", "blockers", "doubtful", "attacked", "their_ep")


def _names(mask: int) -> str:
    return " ".join(chess.square_name(square) for square in chess.SquareSet(mask))


def _wrapped(key: str, text: str, indent: int) -> list[str]:
    """``key: "text"`` as lines of at most 100 characters, the string split at spaces."""
    lead = " " * indent + key
    parts = textwrap.wrap(text, 97 - len(lead)) or [""]
    lines = []
    for index, part in enumerate(parts):
        tail = " " if index < len(parts) - 1 else ""
        start = lead if index == 0 else " " * len(lead)
        lines.append(f'{start}"{part}{tail}"' + ("," if index == len(parts) - 1 else ""))
    return lines


def literal(meta: Metaposition, name: str = "RECORDED") -> str:
    """``meta`` as a test's literal for ``tests.bots.kriegspiel_meta_harness.rebuilt``:
    our placement, the sets, the presence map (weights under 0.0005 left out) and the
    fields that are not their defaults; not the history of our placements."""
    lines = [
        f"{name}: dict[str, Any] = {{",
        f'    "own": "{meta.own.board_fen()}",',
        f'    "color": chess.{"WHITE" if meta.color else "BLACK"},',
        f'    "units": {meta.units},',
    ]
    for field in _COUNTS:
        value = getattr(meta, field)
        if value:
            lines.append(f'    "{field}": {value},')
    for field in _SQUARES:
        mask = getattr(meta, field)
        if mask:
            lines.append(f'    "{field}": "{_names(mask)}",')
    if meta.checks_on_us:
        lines.append(f'    "checks_on_us": {tuple(meta.checks_on_us)!r},')
    if meta.check_zone:
        lines.append(f'    "check_zone": {meta.check_zone},')
    lines.append('    "may": {')
    for kind in chess.PIECE_TYPES:
        if meta.may[kind]:
            lines += _wrapped(f"{_NAMES[kind]}: ", _names(meta.may[kind]), 8)
    lines.append("    },")
    presence = meta.presence
    if presence is not None:
        lines.append('    "weights": {')
        for kind in KINDS:
            row = presence.weights[kind]
            text = " ".join(
                f"{chess.square_name(square)}={row[square]:.4f}"
                for square in range(64)
                if row[square] >= 0.0005
            )
            if text:
                lines += _wrapped(f"{_NAMES[kind]}: ", text, 8)
        lines.append("    },")
        lines.append('    "mass": {')
        lines += [f"        {_NAMES[kind]}: {presence.mass[kind]:.4f}," for kind in KINDS]
        lines.append("    },")
    lines.append("}  # fmt: skip")
    return "\n".join(lines)


async def replay(
    spec: GameSpec, hero: int, at: int | None = None, players: list[Any] | None = None
) -> tuple[list[Seen], str, chess.Board]:
    """Play ``spec`` with the hero in seat ``hero`` watched: its decisions, the end and
    the real board (with its moves); at decision ``at`` also the metaposition as a
    test's literal and the search's scores (the :class:`Seen`'s ``detail``). ``players``:
    the bots, in seat order (default: the schedule's, as the tournament seeds them)."""
    bots = players or [
        make_bot(name, seed, spec.budget)
        for name, seed in zip(spec.bots, spec.bot_seeds, strict=True)
    ]
    watched = bots[hero]
    if not isinstance(watched, KriegspielMeta):
        raise SystemExit(f"the first bot must be a kriegspiel-meta, not {spec.bots[hero]}")
    truth: dict[str, chess.Board] = {}
    seen: list[Seen] = []
    decide = watched.decide

    async def decide_watched(decision: Decision) -> str:
        meta = watched.meta
        board = truth.get("board")
        recorded = literal(meta) if meta is not None and len(seen) == at else ""
        choice = await decide(decision)
        if meta is None or board is None or not _ATTEMPT.fullmatch(choice):
            return choice  # (a command, or before the first event)
        enemy = not meta.color
        king = board.king(enemy)
        presence = meta.presence
        seen.append(
            Seen(
                len(seen),
                choice,
                meta.may[chess.KING].bit_count(),
                king is not None and bool(meta.may[chess.KING] & chess.BB_SQUARES[king]),
                meta.units,
                tuple(presence.mass[kind] if presence else 0.0 for kind in KINDS),
                tuple(board.pieces_mask(kind, enemy).bit_count() for kind in KINDS),
                board.halfmove_clock,
                board.fen(),
                _detail(recorded, watched) if recorded else "",
            )
        )
        return choice

    setattr(watched, "decide", decide_watched)  # noqa: B010 (an instance's own method)
    local = await play_local(
        spec.game, spec.options, bots, spec.seed, names=spec.bots, sink=truth_sink(truth)
    )
    ranks = local.outcome.ranks
    result = "won" if ranks[hero] < ranks[1 - hero] else "drew" if ranks[0] == ranks[1] else "lost"
    end = f"the hero ({'white' if hero == 0 else 'black'}) {result}: {local.outcome.reason}"
    game = local.game
    assert isinstance(game, KriegspielGame)
    return seen, end, game.board


def main(argv: list[str] | None = None) -> int:
    """Replay the game and print its decisions."""
    parser = arguments(__doc__, seed="1")
    parser.add_argument("--game", type=int, required=True, help="the game's index")
    parser.add_argument("--bots", default="kriegspiel-meta:hard,kriegspiel-random")
    parser.add_argument("--rules", default="wild16", help="the Kriegspiel rule set")
    parser.add_argument("--budget", default="nodes=1000", help="as kriegspiel_draws's")
    parser.add_argument("--boards", type=int, default=4, help="real boards printed at the end")
    parser.add_argument("--from", dest="start", type=int, default=0, help="the first decision")
    parser.add_argument(
        "--previous", help="the other kriegspiel-meta as committed here (as kriegspiel_draws's)"
    )
    parser.add_argument(
        "--at", type=int, help="a decision whose metaposition (a test's literal) and scores print"
    )
    parser.add_argument(
        "--positions", help="replay a won position of this file played on (kriegspiel_conversion)"
    )
    parser.add_argument("--repeat", type=int, default=0, help="with --positions: which repeat")
    args = parser.parse_args(argv)
    if args.game < 0:
        parser.error(f"--game {args.game}: a game's index is 0 or more")
    if args.repeat < 0:
        parser.error(f"--repeat {args.repeat}: a repeat is 0 or more")
    start = args.start
    forced: Forced | None = None
    if args.positions:
        collected = Collected.load(Path(args.positions))
        saved = [one for one in collected.positions if one.index == args.game]
        if not saved:
            indices = ", ".join(str(one.index) for one in collected.positions)
            parser.error(f"--game {args.game}: {args.positions} saved games {indices}")
        position = saved[0]
        args.seed, bots, args.rules = collected.seed, list(collected.bots), collected.rules
        args.budget, args.previous = collected.budget, collected.previous
    else:
        bots = args.bots.split(",")
    specs = bots
    if args.previous:
        folder = Path(tempfile.mkdtemp(prefix="kriegspiel_replay_"))
        specs = previous_opponents(bots, args.previous, folder)
    spec = tournament(specs, args.game + 1, args.seed, args.rules, args.budget)[args.game]
    hero = hero_seat(bots, args.game, len(spec.bots))
    if args.positions:
        forced = forced_bots(spec, position, args.repeat, collected.seed)
        start = start or sum(1 for one in position.prefix[hero] if _ATTEMPT.fullmatch(one))
    players = forced.bots if forced is not None else None
    seen, end, board = asyncio.run(replay(spec, hero, args.at, players))
    if forced is not None:
        went_through(board, position, forced)
        print(f"the won position of game {args.game}, ply {position.cut}: {position.fen}")
    print(f"game {args.game} of seed {args.seed}: {end}, {len(seen)} decisions")
    for one in seen[start:]:
        print(line(one))
    for text in unanswered(board, hero == 0):
        print(f"not taken back: {text}")
    for one in seen:
        if one.detail:
            print(f"decision {one.index} ({one.choice}, {one.fen}): {one.detail}")
    for one in seen[-args.boards :] if args.boards > 0 else []:
        print(f"\ndecision {one.index}, before {one.choice}: {one.fen}")
        print(chess.Board(one.fen))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
