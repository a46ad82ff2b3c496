"""OpenSpiel on umpire's Perudo: exploitability of perudo-expert, of uniform play, and CFR.

Usage::

    python benchmarks/openspiel_perudo.py [--rows uniform,easy,normal,hard,cfr]
        [--samples 4] [--cfr-iterations 4] [--dice 1]

Two players with ``--dice`` dice each (the one-die game has 294,696 decision histories;
with two dice the tree is far too large for exact exploitability in Python). Each row
prints one JSON line: the policy, OpenSpiel's ``exploitability`` (NashConv / 2: what a
best response wins on average against it, in units of the game's +-1 result) and seconds.

- ``uniform``: every legal action equally likely (a sanity baseline);
- ``easy``, ``normal``, ``hard``: ``perudo-expert`` at that level as an OpenSpiel policy
  (:class:`bots.learn.openspiel_policy.BotPolicy`), each information state asked
  ``--samples`` times with different bot seeds;
- ``cfr``: OpenSpiel's C++ ``CFRSolver`` on the Python game, ``--cfr-iterations``
  iterations, then the exploitability of its average policy.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pyspiel
from open_spiel.python import policy
from open_spiel.python.algorithms import best_response, policy_utils

from bots.learn.openspiel_policy import BotPolicy, expert_factory, load


def exploitability(
    game: pyspiel.Game,
    policy_obj: policy.Policy,
    states: dict[str, pyspiel.State],
    infostates: dict[str, str],
) -> float:
    """OpenSpiel's exploitability of a policy: its table over every information state
    (``policy_to_dict``), then each player's best-response value from the C++
    ``TabularBestResponse``; (v0 + v1) / 2 in this zero-sum game. The same quantity as
    ``exploitability.exploitability``, with the game's states enumerated once for all rows."""
    table = policy_utils.policy_to_dict(policy_obj, game, states, infostates)
    root = game.new_initial_state().history_str()
    values = [pyspiel.TabularBestResponse(game, p, table).value(root) for p in range(2)]
    return float(sum(values)) / 2


def main() -> None:
    """Run the rows asked for and print one JSON line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="uniform,easy,normal,hard,cfr")
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--cfr-iterations", type=int, default=4)
    parser.add_argument("--dice", type=int, default=1)
    args = parser.parse_args()
    game = load(2, args.dice)
    start = time.perf_counter()
    states, infostates = best_response.compute_states_and_info_states_if_none(game)
    print(
        json.dumps(
            {
                "game": str(game),
                "decision_histories": len(states),
                "information_states": len(set(infostates.values())),
                "seconds": round(time.perf_counter() - start, 1),
            }
        ),
        flush=True,
    )
    for row in args.rows.split(","):
        start = time.perf_counter()
        extra: dict[str, object] = {}
        if row == "uniform":
            value = exploitability(game, policy.UniformRandomPolicy(game), states, infostates)
        elif row in ("easy", "normal", "hard"):
            bot = BotPolicy(game, expert_factory(row), samples=args.samples)
            value = exploitability(game, bot, states, infostates)
            extra = {"samples": args.samples}
            bot.close()
        elif row == "cfr":
            solver = pyspiel.CFRSolver(game)
            for _ in range(args.cfr_iterations):
                solver.evaluate_and_update_policy()
            value = pyspiel.exploitability(game, solver.average_policy())
            extra = {"iterations": args.cfr_iterations}
        else:
            raise SystemExit(f"unknown row {row!r}")
        seconds = round(time.perf_counter() - start, 1)
        line = {"game": str(game), "policy": row, "exploitability": value, "seconds": seconds}
        print(json.dumps({**line, **extra}), flush=True)


if __name__ == "__main__":
    main()
