"""Benchmark: ``kriegspiel-meta`` in the endgames and against the random player.

Endgames (issue 7, section 4): KR vs K and KQ vs K (and KBB vs K, KBN vs K, KP vs K, KQR and
KRB vs K) from random legal starts, the bot to move with white, the defender either
``kriegspiel-random`` or a king that always steps toward the centre. ``KQ-N`` and the like
keep the defender a unit or more (``-N``, ``-B``, ``-R``, ``-Q``, ``-P``, letters repeated
for more): the nearly lone king that won games end in (issue 33: queen against knight
drawn by the 50-move rule or the queen lost to the knight). Prints the share mated within
the 50-move rule (draws by the rule, repetition, stalemate or a lost piece are failures),
the average
number of moves to mate, illegal attempts per move and the median time per decision.

    python -m benchmarks.kriegspiel_meta endgames [--starts 200] [--budget 0.2] [--parallel 2]
        [--endgames KR,KQ,KQ-N] [--defenders random,centre] [--first 0] [--failures]
    python -m benchmarks.kriegspiel_meta games [--games 100] [--budget 0.2] [--rules wild16]

With ``--failures`` every start that was not mated is printed too: its seed, how it
ended, and the size of the hidden king's region at each of the bot's moves (the story of
a hunt that never located the king, or located it too late).

The full-game strength is measured with the tournament command (see
``docs/kriegspiel_meta.md``); ``games`` adds attempts per move and time per decision.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import chess

from benchmarks.common import arguments, percentile
from benchmarks.kriegspiel_draws import warm_tables
from bots.kriegspiel.meta import KriegspielMeta
from bots.tools.arena import wilson_interval


class Traced(KriegspielMeta):
    """``kriegspiel-meta`` recording the size of the enemy king's region at each decision."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.regions: list[int] = []

    async def decide(self, decision: Any) -> str:
        """As the bot decides, after noting the region's size."""
        if self.meta is not None:
            self.regions.append(self.meta.may[chess.KING].bit_count())
        return await super().decide(decision)


ENDGAMES = {
    "KR": [chess.ROOK],
    "KQ": [chess.QUEEN],
    "KBB": [chess.BISHOP, chess.BISHOP],
    "KBN": [chess.BISHOP, chess.KNIGHT],
    "KP": [chess.PAWN],
    "KQR": [chess.QUEEN, chess.ROOK],
    "KRB": [chess.ROOK, chess.BISHOP],
}
#: What the defender may keep beside its king: ``KQ-N`` is KQ vs KN.
DEFENCES = {
    "N": chess.KNIGHT,
    "B": chess.BISHOP,
    "R": chess.ROOK,
    "Q": chess.QUEEN,
    "P": chess.PAWN,
}


def endgame(name: str) -> tuple[list[chess.PieceType], list[chess.PieceType]]:
    """Our pieces and the defender's for an endgame's name: ``KQ`` (against a lone king)
    or ``KQ-N`` (against a king and a knight; any letters of :data:`DEFENCES`)."""
    ours, _, theirs = name.partition("-")
    if ours not in ENDGAMES or any(letter not in DEFENCES for letter in theirs):
        known = ", ".join(ENDGAMES)
        units = ", ".join(DEFENCES)
        raise ValueError(f"unknown endgame {name!r}: ours one of {known}, '-' and {units}")
    return ENDGAMES[ours], [DEFENCES[letter] for letter in theirs]


def _play(job: tuple[str, str, int, str, str | None]) -> dict[str, Any]:
    """One game in a worker: the outcome from the bot's side and its statistics."""
    kind, defender, seed, budget, rules = job
    from bots.baseline import KriegspielRandom
    from bots.sdk.bot import Bot
    from bots.sdk.local import play_local
    from server.games.kriegspiel import KriegspielGame
    from tests.bots.kriegspiel_meta_harness import CentreKing, random_start

    bot = Traced(seed=seed, budget=budget if "=" in budget else float(budget))
    other: Bot = CentreKing(seed=seed) if defender == "centre" else KriegspielRandom(seed=seed)
    if kind == "game":
        seat = seed % 2
        bots: list[Bot] = [bot, other] if seat == 0 else [other, bot]
        options: dict[str, Any] = {"rules": rules or "wild16"}
    else:
        seat = 0
        bots = [bot, other]
        pieces, theirs = endgame(kind)
        options = {"fen": random_start(pieces, seed, theirs)}
    played = asyncio.run(play_local("kriegspiel", options, bots, seed.to_bytes(8, "big")))
    ranks = played.outcome.ranks
    game = played.game
    assert isinstance(game, KriegspielGame)
    return {
        "reason": played.outcome.reason,
        "won": ranks[seat] == 1 and ranks[1 - seat] == 2,
        "lost": ranks[seat] == 2,
        "moves": (len(game.board.move_stack) + 1) // 2,
        "attempts": bot.attempts,
        "our_moves": bot.moves,
        "times": bot.times,
        "seed": seed,
        "regions": bot.regions,
    }


def _summary(results: list[dict[str, Any]]) -> str:
    n = len(results)
    wins = [r for r in results if r["won"]]
    attempts = sum(r["attempts"] for r in results)
    moves = sum(max(1, r["our_moves"]) for r in results)
    times = [t for r in results for t in r["times"]]
    reasons = Counter(r["reason"] for r in results)
    mean_moves = statistics.mean(r["moves"] for r in wins) if wins else float("nan")
    median_moves = statistics.median(r["moves"] for r in wins) if wins else float("nan")
    low, high = wilson_interval(len(wins), n)
    return (
        f"won {len(wins)}/{n} ({len(wins) / n:.1%}, 95% CI {low:.1%}-{high:.1%}), "
        f"lost {sum(r['lost'] for r in results)}, "
        f"moves to win {mean_moves:.1f} (median {median_moves:g}), "
        f"attempts/move {attempts / moves:.2f}, "
        f"illegal/move {(attempts - moves) / moves:.2f}, "
        f"median decision {statistics.median(times) * 1000:.1f} ms, "
        f"p95 {percentile(times, 0.95) * 1000:.0f} ms; {dict(reasons)}"
    )


def _failures(results: list[dict[str, Any]]) -> str:
    """One line per start not won: seed, reason, moves, region size at each decision."""
    lines = []
    for r in results:
        if not r["won"]:
            sizes = " ".join(str(size) for size in r["regions"])
            lines.append(f"  start {r['seed']}: {r['reason']} after {r['moves']} moves; {sizes}")
    return "\n".join(lines)


def main() -> None:
    parser = arguments(__doc__, games=100)
    parser.add_argument("what", choices=("endgames", "games"))
    parser.add_argument("--starts", type=int, default=200)
    parser.add_argument(
        "--budget", default="0.2", help="seconds per decision, or nodes=N / cpu=S (see budget.py)"
    )
    parser.add_argument("--parallel", type=int, default=2)
    parser.add_argument("--rules", default="wild16")
    parser.add_argument("--endgames", default="KR,KQ")
    parser.add_argument("--defenders", default="random,centre")
    parser.add_argument("--first", type=int, default=0, help="the first start's seed")
    parser.add_argument(
        "--failures", action="store_true", help="print each start not won with its region sizes"
    )
    args = parser.parse_args()
    for kind in args.endgames.split(",") if args.what == "endgames" else ():
        try:
            endgame(kind)
        except ValueError as error:
            parser.error(str(error))
    started = time.perf_counter()
    warm_tables()  # built (or read) once here, not in every worker mid-game
    with ProcessPoolExecutor(args.parallel) as pool:
        if args.what == "games":
            jobs = [("game", "random", seed, args.budget, args.rules) for seed in range(args.games)]
            print(f"vs kriegspiel-random ({args.rules}):", _summary(list(pool.map(_play, jobs))))
        else:
            for kind in args.endgames.split(","):
                for defender in args.defenders.split(","):
                    seeds = range(args.first, args.first + args.starts)
                    jobs = [(kind, defender, seed, args.budget, None) for seed in seeds]
                    results = list(pool.map(_play, jobs))
                    versus = "K" + kind.partition("-")[2]
                    print(
                        f"{kind.partition('-')[0]} vs {versus} ({defender}):",
                        _summary(results),
                        flush=True,
                    )
                    if args.failures and any(not r["won"] for r in results):
                        print(_failures(results), flush=True)
    print(f"({time.perf_counter() - started:.0f} s, budget {args.budget} per decision)")


if __name__ == "__main__":
    main()
