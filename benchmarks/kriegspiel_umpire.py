"""Benchmark: the Kriegspiel umpire answering random attempts, with every projection built.

Two random players play whole games under each rule set. Like real players they choose
among the attempts possible on their own board (most of which are illegal on the real
board), now and then try a move that is impossible even on their own board, and under
english ask "any?" at the start of some turns. Prints attempts/s and games/s per rule set
(``--games`` games each).

    python -m benchmarks.kriegspiel_umpire [--games 40] [--seed 1]
"""

from __future__ import annotations

import random
import time

import chess

from benchmarks.common import arguments, machine
from server.games.base import Event, IllegalAction
from server.games.kriegspiel import (
    RULE_SETS,
    Attempt,
    KriegspielConfig,
    KriegspielGame,
    new_game,
)

#: How often a player tries a move that is impossible on its own board.
IMPOSSIBLE_RATE = 0.05
#: How often an english player asks "any?" at the start of a turn.
ASK_RATE = 0.5


def random_uci(rng: random.Random) -> str:
    """Any from-to pair of squares: almost always impossible."""
    origin, target = rng.sample(chess.SQUARE_NAMES, 2)
    return origin + target


def play_game(rules: str, rng: random.Random) -> tuple[int, int]:
    """Play one random game to its end; return (attempts, events)."""
    game, events = new_game(KriegspielConfig(rules=rules), rng.randbytes(8))
    attempts = 0
    count = len(events)
    fresh_turn = True
    while (seat := game.to_move) is not None:
        if fresh_turn and rules == "english" and rng.random() < ASK_RATE:
            count += len(game.apply(seat, "any"))
        heard = _attempt(game, seat, rng)
        attempts += 1
        count += len(heard)
        fresh_turn = heard[0].type == "move"
    return attempts, count


def _attempt(game: KriegspielGame, seat: int, rng: random.Random) -> list[Event]:
    """One attempt by ``seat``: usually one possible on its own board, now and then not."""
    if rng.random() < IMPOSSIBLE_RATE:
        try:
            return game.apply(seat, random_uci(rng))
        except IllegalAction:  # repeated, or barred by the english duty
            pass
    attempts = [action for action in game.legal_actions(seat) if isinstance(action, Attempt)]
    return game.apply(seat, rng.choice(attempts))


def main() -> None:
    """Run the benchmark and print one line per rule set."""
    args = arguments(__doc__, games=40, seed=1).parse_args()
    print(f"{machine()}, python-chess {chess.__version__}")
    columns = ("games", "attempts", "events", "attempts/s", "games/s")
    print(f"{'rules':<11}" + "".join(f"{name:>12}" for name in columns))
    for rules in RULE_SETS:
        rng = random.Random(f"{args.seed}/{rules}")
        attempts = events = 0
        start = time.perf_counter()
        for _ in range(args.games):
            made, heard = play_game(rules, rng)
            attempts += made
            events += heard
        elapsed = time.perf_counter() - start
        print(
            f"{rules:<11}{args.games:>12}{attempts:>12}{events:>12}"
            f"{attempts / elapsed:>12,.0f}{args.games / elapsed:>12.1f}"
        )


if __name__ == "__main__":
    main()
