"""The tournament core's cost: pairing a Swiss round, scoring a result and the standings,
for Swiss tournaments of 64 to 1,024 entrants, in CPU time.

Each size plays ``--rounds`` rounds with random results (seeded) through
:class:`server.tournaments.core.TournamentCore` as the director drives it: the time of the
input that completes a round (it pairs the next one, or finishes) is the pairing's cost;
the standings are timed separately (the director computes them after every change, for
the ``tournament`` frame); and the whole state's JSON encoding (what the director stores
after every change).

    python -m benchmarks.tournaments --sizes 64,256,1024 --rounds 9
"""

from __future__ import annotations

import random
import statistics
import time

import msgspec

from benchmarks.common import arguments, machine
from server.tournaments.core import RUNNING, Spec, TournamentCore


def run(size: int, rounds: int, seed: int) -> dict[str, float]:
    """One Swiss of ``size`` entrants: median CPU seconds per pairing, standings, encoding."""
    rnd = random.Random(seed)
    core = TournamentCore.create("bench", Spec(game="g", format="swiss", rounds=rounds), 0.0)
    for i in range(size):
        core.join(f"p{i:05}", f"P{i}", 1500.0 + rnd.random() * 400, float(i))
    pairings: list[float] = []
    tables: list[float] = []
    encodings: list[float] = []
    started = time.process_time()
    core.start(0.0)
    pairings.append(time.process_time() - started)
    while core.state.status == RUNNING:
        for g in core.to_open():
            core.opened(g, f"r{g.round}.{g.board}", 1.0)
        playing = core.playing()
        for g in playing[:-1]:
            core.result(g.room or "", rnd.choice([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]), False, 2.0)
        started = time.process_time()
        core.result(playing[-1].room or "", [1.0, 0.0], False, 2.0)
        if core.state.status == RUNNING:
            pairings.append(time.process_time() - started)
        started = time.process_time()
        core.table()
        tables.append(time.process_time() - started)
        started = time.process_time()
        msgspec.json.encode(core.state)
        encodings.append(time.process_time() - started)
    return {
        "pairing": statistics.median(pairings),
        "worst pairing": max(pairings),
        "standings": statistics.median(tables),
        "encoding": statistics.median(encodings),
    }


def main() -> None:
    """Run every size and print one line each."""
    parser = arguments(__doc__, seed=1)
    parser.add_argument("--sizes", default="64,256,1024", help="entrant counts, comma-separated")
    parser.add_argument("--rounds", type=int, default=9, help="Swiss rounds")
    args = parser.parse_args()
    print(machine())
    for size in (int(s) for s in args.sizes.split(",")):
        r = run(size, args.rounds, args.seed)
        print(
            f"{size:>5} entrants, {args.rounds} rounds: pairing a round "
            f"{r['pairing'] * 1000:.1f} ms median ({r['worst pairing'] * 1000:.1f} ms worst), "
            f"standings {r['standings'] * 1000:.1f} ms, state as JSON "
            f"{r['encoding'] * 1000:.2f} ms"
        )


if __name__ == "__main__":
    main()
