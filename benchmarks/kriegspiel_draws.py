"""Why ``kriegspiel-meta``'s games are not won: every game of a seeded tournament, or of
a knowledge base, by its end and by its material over time.

Plays the same games as ``umpire tournament`` (the arena's schedule and seeds) or, with
``--db``, reads the finished Kriegspiel games a knowledge base holds (``umpire serve``,
``umpire tournament --db``, ``umpire selfplay``: each replayed from its seed and logged
actions) without playing. The measured bot (the *hero*) is the first of ``--bots``: in a
tournament the seat the arena's schedule gives the first bot (even when both bots have
the same name), in a knowledge base the seat whose player has its name (both seats: the
one the schedule gives the first bot, by the game's logged index).

For each game that the hero did not win it prints the end reason, the number of plies and
the material left on each side (from the umpire's real board), then a summary by reason,
a table of the non-wins by cause and by material at the end
(``benchmarks.kriegspiel_material.material_bin``), with the games' indices (the game's
seed is ``game_seed(seed, index)``: rerun one with ``--first index --games index+1``),
so each cause can become a test position.

Then the conversion of won positions (issue 33): a game reaches one when the hero was
5 or more points ahead (Q 9, R 5, B 3, N 3, P 1) after each of 20 consecutive moves of
its own (``benchmarks.kriegspiel_material.won_at``). It prints how many games reached
one and how many of those the hero won by checkmate (with a 95% Wilson interval), and a
table of those it did not convert: the cause, the move at which the won position was
reached, the material then and at the end; and where the hero's material went after it
(``benchmarks.kriegspiel_material.bleed``: its units taken, by the taker, whether it had
just moved there, whether the square was defended and taken back; the other side's
promotions). Last, the material's flow of both sides, over
all games and over the hero's losses: points lost to captures, points gained by
promotions, the shares of pawn and king moves (``benchmarks.kriegspiel_material.flows``).

    python -m benchmarks.kriegspiel_draws [--bots kriegspiel-meta:hard,kriegspiel-random]
        [--games 200] [--seed 1] [--budget nodes=1000] [--parallel 1] [--first 0]
        [--rules wild16] [--every] [--db PATH] [--previous COMMIT]

``--budget`` goes to every bot that searches and overrides its level: under the default
``nodes=1000``, ``kriegspiel-meta:easy`` plays exactly as ``kriegspiel-meta:hard``. To
give the bots different node budgets, put them in the specs and pass ``--budget none``
(``--bots kriegspiel-meta:nodes=1000,kriegspiel-meta:nodes=20``).

``--previous COMMIT`` plays every ``kriegspiel-meta`` after the first (the hero) as
committed at ``COMMIT`` (unpacked as ``benchmarks.kriegspiel_ladder`` does), at the level
its spec names. Both seats share the code of the presence map and the update rules, so
against today's ``meta:nodes=20`` a change there changes the opponent too; against a
fixed opponent only the hero moves.
"""

from __future__ import annotations

import asyncio
import functools
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.common import arguments
from benchmarks.kriegspiel_ladder import unpack
from benchmarks.kriegspiel_material import (
    Bleed,
    Ending,
    Flow,
    bleed,
    bleed_table,
    cause_table,
    conversion_summary,
    conversion_table,
    flow_summary,
    flows,
    material,
    trail,
)
from bots.kriegspiel.meta import dtm, minor_dtm
from bots.tools.arena import GameSpec, play_spec, schedule
from server.export.reader import logs
from server.games import engine
from server.games.base import Outcome
from server.games.kriegspiel import KriegspielGame
from server.store.contract import open_store


@dataclass(frozen=True, slots=True)
class Counted:
    """One game from the hero's side: its ending, its plies, the hero's moves and
    illegal attempts, each side's material flow (the hero's, the other's), and where
    the hero's material went after a won position it did not convert."""

    ending: Ending
    plies: int
    moves: float
    illegal: float
    flow: Flow
    other_flow: Flow
    bleed: Bleed | None = None


def hero_seat(bots: Sequence[str], index: int, seats: int = 2) -> int:
    """The seat of ``bots[0]`` in game ``index`` of a tournament between ``bots``, by the
    arena's seating rule (``bots.tools.arena.seating``) and by position, not by name, so
    that two bots of the same name are told apart."""
    count = len(bots)
    position = 0 if (index // count) % 2 == 0 else count - 1  # (reversed every other cycle)
    seat = (position - index) % count
    if seat >= seats:
        raise ValueError(f"{bots[0]} sits out game {index}")
    return seat


def count(
    index: int, game: KriegspielGame, hero: int, outcome: Outcome, truths: Sequence[dict[str, Any]]
) -> Counted:
    """The game ``game`` (finished with ``outcome``, its events' ``truths`` in order) from
    the side of the hero in seat ``hero`` (seat 0 plays white)."""
    board = game.board  # the real board (a property: a copy)
    color = hero == 0
    mine, other = outcome.ranks[hero], outcome.ranks[1 - hero]
    result = "win" if mine < other else "draw" if mine == other else "loss"
    stats = engine("kriegspiel").stats(list(truths), outcome, len(outcome.ranks))
    flowed = flows(board)
    ending = Ending(
        index,
        outcome.reason,
        result,
        tuple(trail(board, color)),
        material(board, color),
        material(board, not color),
    )
    won = ending.won_at
    return Counted(
        ending,
        len(board.move_stack),
        stats[hero].get("moves", 0.0),
        stats[hero].get("illegal_attempts", 0.0),
        flowed[color],
        flowed[not color],
        bleed(board, color, won) if won is not None and not ending.converted else None,
    )


def play(spec: GameSpec, bots: Sequence[str]) -> Counted:
    """Play one scheduled game of a tournament between ``bots``; count it for the first."""
    played = asyncio.run(play_spec(spec))
    assert played.local is not None
    game = played.local.game
    assert isinstance(game, KriegspielGame)
    hero = hero_seat(bots, spec.index, len(spec.bots))
    truths = [event.truth for event in played.local.events]
    return count(spec.index, game, hero, played.local.outcome, truths)


def logged_seat(
    names: Sequence[str | None], bots: Sequence[str], settings: dict[str, Any]
) -> int | None:
    """The hero's seat in a logged game whose seats' players are ``names``: the seat of
    the first of ``bots`` (when both are, the one the schedule gives it by the logged
    index), None when it did not play or the other seat is not ``bots[1]``."""
    seats = [seat for seat, name in enumerate(names) if name == bots[0]]
    if not seats or len(names) != 2:
        return None
    if len(bots) >= 2 and sorted(names, key=str) != sorted(bots[:2]):
        return None
    if len(seats) == 2:
        index = settings.get("index")
        return hero_seat(bots, index) if isinstance(index, int) else 0
    return seats[0]


async def read_logged(db: str, bots: Sequence[str], rules: str) -> list[Counted]:
    """The finished Kriegspiel games under ``rules`` in the knowledge base ``db`` between
    ``bots`` (only the first's games: with one bot), oldest first, each replayed from its
    seed and logged actions. Each one's index is its tournament index when it has one
    (``umpire tournament --db``), else its place among the games read."""
    if "://" not in db and not os.path.exists(db):
        raise FileNotFoundError(f"no knowledge base at {db}")
    store = open_store(db, read_only=True)
    await store.open()
    try:
        ids = [row.id async for row in store.iter_games(("finished",), game="kriegspiel")]
        counted: list[Counted] = []
        async for log in logs(store, ids):
            names = [None if player is None else player["name"] for player in log.players]
            hero = logged_seat(names, bots, log.row.settings)
            if hero is None:
                continue
            game, events = log.rebuild()
            if not isinstance(game, KriegspielGame) or game.config.rules != rules:
                continue
            outcome = game.outcome
            if outcome is None:
                continue
            index = log.row.settings.get("index", len(counted))
            truths = [event.truth for event in events]
            counted.append(count(index, game, hero, outcome, truths))
        return counted
    finally:
        await store.close()


#: The module of the earlier version's bots, one class per level asked for.
OPPONENTS = '''"""{package}'s bot at the levels of a kriegspiel_draws run."""

from __future__ import annotations

from typing import Any

from {package}.ladder import Previous
'''
LEVEL = '''

class Level{index}(Previous):
    """``{spec}`` as committed."""

    def __init__(self, seed: int | None = None, budget: Any = None, **kwargs: Any) -> None:
        if budget is None and {level!r}:
            kwargs.setdefault("level", {level!r})
        super().__init__(seed=seed, budget=budget, **kwargs)
'''


def previous_opponents(bots: Sequence[str], commit: str, folder: Path) -> list[str]:
    """``bots`` with every ``kriegspiel-meta`` after the first (the hero) played as
    committed at ``commit``: unpacked into ``folder`` (``benchmarks.kriegspiel_ladder``)
    and put on ``sys.path`` (the workers are forked and inherit it)."""
    package = unpack(commit, folder)
    text = OPPONENTS.format(package=package)
    specs = [bots[0]]
    for index, spec in enumerate(bots[1:]):
        name, _, level = spec.partition(":")
        if name != "kriegspiel-meta":
            specs.append(spec)
            continue
        text += LEVEL.format(index=index, spec=spec, level=level)
        specs.append(f"{package}.opponents:Level{index}")
    (folder / package / "opponents.py").write_text(text)
    sys.path.insert(0, str(folder))
    return specs


def tournament(
    bots: Sequence[str], games: int, seed: str, rules: str, budget: str
) -> list[GameSpec]:
    """The games of a tournament between ``bots`` under ``rules``, every searching bot
    given ``budget`` (``none``: each bot's own, its level's or its spec's)."""
    given = None if budget == "none" else budget
    return schedule("kriegspiel", {"rules": rules}, bots, 2, games, seed, given)


def game_line(row: Counted) -> str:
    """One game: its end, its plies, each side's material at the end, the hero's moves
    and illegal attempts, and the move at which it reached a won position."""
    ending = row.ending
    reached = "" if ending.won_at is None else f"  won position at move {ending.won_at}"
    return (
        f"game {ending.index:3d} {ending.result:4s} {ending.reason:26s} plies {row.plies:3d}"
        f"  ours {ending.mine:9s} theirs {ending.theirs}  moves {row.moves:.0f} "
        f"illegal {row.illegal:.0f}{reached}"
    )


def report(rows: Sequence[Counted], hero: str) -> list[str]:
    """The summary: the results by reason, the table of non-wins by cause and material,
    the conversion of won positions, and the material's flow (all games, the losses)."""
    endings = [row.ending for row in rows]
    reasons = Counter(f"{ending.result}: {ending.reason}" for ending in endings)
    moves = sum(row.moves for row in rows)
    illegal = sum(row.illegal for row in rows)
    wins = sum(1 for ending in endings if ending.result == "win")
    return [
        f"{len(rows)} games, {hero} won {wins} ({100 * wins / max(1, len(rows)):.1f}%); "
        f"illegal/attempt {illegal / max(1.0, illegal + moves):.3f}",
        ", ".join(f"{why} {n}" for why, n in reasons.most_common()),
        *cause_table(endings),
        "",
        conversion_summary(endings),
        *conversion_table(endings),
        *bleed_table([row.bleed for row in rows if row.bleed is not None]),
        "",
        *(
            flow_summary(
                sum((row.flow for row in chosen), Flow()),
                sum((row.other_flow for row in chosen), Flow()),
                label,
            )
            for label, chosen in (
                ("all games", rows),
                ("the hero's losses", [row for row in rows if row.ending.result == "loss"]),
            )
        ),
    ]


def warm_tables() -> None:
    """Read (or build, the first time on a machine: about a minute) every endgame table
    before the first game. A bot builds a missing table in a background thread and plays
    by its search until it is there, so without this a benchmark's games would depend on
    what the machine's cache held, not only on the code and the seeds; the workers fork
    with the tables loaded (or read them from the cache at once)."""
    dtm.warm()
    minor_dtm.warm()


def main() -> int:
    """Play the tournament (or read the knowledge base) and print the tables."""
    parser = arguments(__doc__, games=200, seed="1")
    parser.add_argument("--bots", default="kriegspiel-meta:hard,kriegspiel-random")
    parser.add_argument("--rules", default="wild16", help="the Kriegspiel rule set")
    parser.add_argument(
        "--first",
        type=int,
        default=0,
        help="skip the games before this one (--games counts from game 0: game 33 alone is "
        "--first 33 --games 34)",
    )
    parser.add_argument(
        "--budget",
        default="nodes=1000",
        help="every searching bot's budget, over its level (none: each bot's own, as "
        "kriegspiel-meta:nodes=20; a level's is wall time, not reproducible)",
    )
    parser.add_argument("--parallel", type=int, default=1)
    parser.add_argument("--every", action="store_true", help="print every game, won or not")
    parser.add_argument(
        "--previous",
        help="play every kriegspiel-meta after the first (the hero) as committed at this "
        "revision: a fixed opponent, so that a change to the code both seats share (the "
        "presence map) changes only the hero",
    )
    parser.add_argument(
        "--db",
        help="read the finished games of this knowledge base (SQLite file or postgresql:// "
        "URL) instead of playing: --games, --seed, --first, --budget do not apply",
    )
    args = parser.parse_args()
    if not args.db and not 0 <= args.first < args.games:
        parser.error(
            f"--first {args.first} leaves none of games 0-{args.games - 1} to play "
            f"(--games counts from game 0: game {max(args.first, 0)} alone is "
            f"--first {max(args.first, 0)} --games {max(args.first, 0) + 1})"
        )
    if args.db and args.previous:
        parser.error("--previous plays the games; --db reads them: give one")
    bots = args.bots.split(",")
    started = time.process_time()
    folder = tempfile.TemporaryDirectory(prefix="draws-")
    if args.previous:
        bots = previous_opponents(bots, args.previous, Path(folder.name))
    if args.db:
        rows = asyncio.run(read_logged(args.db, bots, args.rules))
        for row in rows:
            if row.ending.result != "win" or args.every:
                print(game_line(row))
    else:
        specs = tournament(bots, args.games, args.seed, args.rules, args.budget)[args.first :]
        warm_tables()
        with ProcessPoolExecutor(args.parallel) as pool:
            rows = []
            for row in pool.map(functools.partial(play, bots=bots), specs):
                rows.append(row)
                if row.ending.result != "win" or args.every:
                    print(game_line(row), flush=True)
    print("\n".join(report(rows, bots[0])))
    folder.cleanup()
    cpu = time.process_time() - started + sum(os.times()[2:4])
    print(f"CPU {cpu:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
