"""OpenSpiel's exploitability of perudo-expert, of uniform play and of CFR, on umpire's rules.

Usage::

    python -m benchmarks.openspiel_perudo [--rows uniform,easy,normal,hard,easy-mix,
        normal-mix,cfr,cfr+] [--samples 1] [--seeds 64] [--cfr-iterations 100]
        [--efg PATH] [--check 300]

The two-player, one-die-each Perudo game ``python_umpire_perudo`` is written once as an
extensive-form game (``bots/learn/perudo_efg.py``: 294,696 decision histories, 49,116
information sets) into ``--efg`` (default: the system's temporary directory; reused when
present), loaded with ``pyspiel.load_efg_game``, and checked against the Python game on
``--check`` random playouts (players, chance, legal actions, information states,
returns). Every exploitability is then OpenSpiel's own C++ ``pyspiel.exploitability``
(NashConv / 2: what a best response wins on average against the policy, in units of the
game's +1 / -1 result) on that game. Each row prints one JSON line:

- ``uniform``: every legal action equally likely;
- ``easy``, ``normal``, ``hard``: ``perudo-expert`` at that level as an OpenSpiel policy
  (``BotPolicy``): the frequency of seeds ``0 .. --samples - 1``'s answers at each
  information set, asked independently there (a bot's stated mix, as hard's in the
  solved round, is taken as it is);
- any other bot of ``bots/registry.py`` by its spec (``perudo-simple``), the same way;
- ``easy-mix``, ``normal-mix`` (any bot row with ``-mix``): the behaviour policy of
  the mixture of ``--seeds`` seeded copies (``efg_policy.mixture``): what
  ``python -m benchmarks.perudo_exploitability --seeds``
  measures with the project's own best response;
- ``cfr``, ``cfr+``: OpenSpiel's C++ ``CFRSolver`` / ``CFRPlusSolver`` on the EFG game,
  ``--cfr-iterations`` iterations, then its average policy.
"""

from __future__ import annotations

import json
import os
import random
import resource
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

import pyspiel

from benchmarks.common import arguments
from bots.learn import efg_policy
from bots.learn.efg_policy import InfoSet
from bots.learn.openspiel_perudo import PerudoGame, PerudoState
from bots.learn.openspiel_policy import BotPolicy, expert_factory, load, registry_factory
from bots.learn.perudo_efg import compare_playout, write_efg


def peak_mb() -> float:
    """This process's peak resident memory so far, in MB."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def emit(row: dict[str, object], start: float) -> None:
    """Print one JSON line with the seconds since ``start`` and the peak memory."""
    row = {**row, "seconds": round(time.perf_counter() - start, 1), "peak_mb": peak_mb()}
    print(json.dumps(row), flush=True)


def efg_file(game: PerudoGame, path: Path) -> None:
    """Write the game's EFG form to ``path`` unless it is there."""
    if path.exists():
        return
    start = time.perf_counter()
    part = path.with_suffix(".part")
    with part.open("w") as out:
        stats = write_efg(game, out)
    os.replace(part, path)
    emit(
        {
            "step": "write efg",
            "decision_nodes": stats.decision_nodes,
            "terminals": stats.terminals,
            "infosets": stats.infosets,
            "megabytes": round(path.stat().st_size / 1e6, 1),
        },
        start,
    )


def replay(game: PerudoGame, info: InfoSet) -> PerudoState:
    """The Python game's state at the history recorded for ``info``."""
    state = game.new_initial_state()
    for action in info.history:
        state.apply_action(action)
    assert isinstance(state, PerudoState)
    return state


def bot_row(
    game: PerudoGame, sets: list[InfoSet], spec: str, samples: int, seeds: int, mix: bool
) -> tuple[dict[str, Mapping[int, float]], dict[str, object]]:
    """The Python-game policy of a bot (``easy``, ``normal``, ``hard``: perudo-expert at
    that level; else a spec of ``bots/registry.py``), and what the row reports."""
    levels = ("easy", "normal", "hard")
    factory = expert_factory(spec) if spec in levels else registry_factory(spec)
    bot = BotPolicy(game, factory, samples=samples)
    try:
        if mix:
            policy, asked = efg_policy.mixture(
                sets, lambda info, seed: bot.answer(replay(game, info), info.player, seed), seeds
            )
            return dict(policy), {"seeds": seeds, "queries": asked}

        def probs(info: InfoSet) -> Mapping[int, float]:
            return bot.action_probabilities(replay(game, info), info.player)

        return dict(efg_policy.tabulate(sets, probs)), {"samples": samples}
    finally:
        bot.close()


def main() -> None:
    """Build or load the EFG game, check it, then run the rows asked for."""
    parser = arguments(__doc__)
    parser.add_argument("--rows", default="uniform,easy,normal,hard,easy-mix,normal-mix,cfr")
    parser.add_argument("--samples", type=int, default=1)
    parser.add_argument("--seeds", type=int, default=64)
    parser.add_argument("--cfr-iterations", type=int, default=100)
    parser.add_argument("--check", type=int, default=300)
    parser.add_argument(
        "--efg", type=Path, default=Path(tempfile.gettempdir()) / "umpire_perudo_2p1d.efg"
    )
    args = parser.parse_args()
    game = load(2, 1)
    efg_file(game, args.efg)
    start = time.perf_counter()
    efg = pyspiel.load_efg_game(args.efg.read_text())
    emit({"step": "load efg", "game": str(game), "path": str(args.efg)}, start)
    start = time.perf_counter()
    rng = random.Random(0)
    decisions = sum(compare_playout(game, efg, rng) for _ in range(args.check))
    emit({"step": "check", "playouts": args.check, "decisions": decisions}, start)
    start = time.perf_counter()
    sets = efg_policy.infosets(efg, game)
    emit({"step": "information sets", "count": len(sets)}, start)
    for row in args.rows.split(","):
        start = time.perf_counter()
        extra: dict[str, object] = {}
        if row == "uniform":
            policy = efg_policy.tabulate(
                sets, lambda info: {m: 1 / len(info.actions) for m in info.actions.values()}
            )
            tabular = efg_policy.to_efg(sets, policy)
        elif row in ("cfr", "cfr+"):
            solver = (pyspiel.CFRSolver if row == "cfr" else pyspiel.CFRPlusSolver)(efg)
            for _ in range(args.cfr_iterations):
                solver.evaluate_and_update_policy()
            tabular = solver.average_policy()
            extra = {"iterations": args.cfr_iterations}
        else:
            spec = row.removesuffix("-mix")
            table, extra = bot_row(game, sets, spec, args.samples, args.seeds, row != spec)
            tabular = efg_policy.to_efg(sets, table)
        value = pyspiel.exploitability(efg, tabular)
        emit({"policy": row, "exploitability": value, **extra}, start)


if __name__ == "__main__":
    main()
