"""Solved heads-up endgames: computed once, cached on disk, looked up in play.

:func:`last_bet` is the equilibrium of the seed's "last bet" situation (two players, one
die each, one round decides the game), solved by CFR+ over the exact information sets
(:mod:`bots.perudo_endgame.cfr`). It is computed at first use (a few seconds) and cached
in ``$UMPIRE_CACHE`` (default ``~/.cache/umpire``) as a small ``.npz``; a cache that does
not match the tree it claims to solve is ignored and recomputed.

:func:`equilibrium_policy` gives a seat's mixed action in that round from its die and the
round's bids, as action texts (what the engine accepts).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

from bots.perudo_endgame.cfr import Solution, evaluate, solve
from bots.perudo_endgame.tree import DUDO_CODE, RoundTree, bid_code, build, code_bid
from server.games.perudo_actions import Bid

#: CFR+ iterations for the one-die-each round (exploitability about 6e-5, measured in
#: docs/perudo_endgame.md); the cache file's name carries it.
LAST_BET_ITERATIONS = 400
#: Mixed actions below this probability are dropped when playing (CFR+ residue).
PLAY_FLOOR = 1e-3
_VERSION = 1


def cache_dir() -> Path:
    """Where solved endgames are kept: ``$UMPIRE_CACHE`` or ``~/.cache/umpire``."""
    root = os.environ.get("UMPIRE_CACHE")
    return Path(root) if root else Path.home() / ".cache" / "umpire"


def _path(a: int, b: int, iterations: int) -> Path:
    return cache_dir() / f"perudo_endgame_v{_VERSION}_{a}v{b}_{iterations}.npz"


def _load(tree: RoundTree, path: Path, loss: tuple[float, float]) -> Solution | None:
    try:
        with np.load(path) as data:
            sigma = (np.array(data["sigma0"]), np.array(data["sigma1"]))
            iterations = int(data["iterations"])
    except (OSError, KeyError, ValueError):
        return None
    if sigma[0].shape != (tree.size, len(tree.weights[0])) or sigma[1].shape != (
        tree.size,
        len(tree.weights[1]),
    ):
        return None
    value, br0, br1 = evaluate(tree, sigma, loss)
    return Solution(tree, sigma, value, (br0 + br1) / 2, iterations)


def _save(solution: Solution, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
    np.savez_compressed(
        tmp,
        sigma0=solution.sigma[0].astype(np.float32),
        sigma1=solution.sigma[1].astype(np.float32),
        iterations=solution.iterations,
    )
    tmp.replace(path)


def solved_round(
    a: int, b: int, loss: tuple[float, float], iterations: int, *, use_cache: bool = True
) -> Solution:
    """The CFR+ solution of a round (opener ``a`` dice, responder ``b``), from the disk
    cache when present and sound, else computed (and cached)."""
    tree = build(a, b)
    path = _path(a, b, iterations)
    if use_cache:
        found = _load(tree, path, loss)
        if found is not None:
            return found
    solution = solve(tree, loss, iterations)
    if use_cache:
        with contextlib.suppress(OSError):  # a read-only home: play from memory
            _save(solution, path)
    return solution


@cache
def last_bet() -> Solution:
    """The solved one-die-each round (the whole game: the loser is out)."""
    return solved_round(1, 1, (-1.0, 1.0), LAST_BET_ITERATIONS)


def equilibrium_policy(
    die: int, bids: Sequence[Bid], *, opener: bool, solution: Solution | None = None
) -> dict[str, float] | None:
    """The equilibrium's mixed action for a player holding ``die`` after ``bids`` (this
    round's bids, in order; ``opener`` says whether this player opened the round), as
    action text -> probability, or ``None`` when the position is outside the solved tree.

    A bid naming more dice than are on the table is certainly false: the answer is then
    ``{"dudo": 1.0}``.
    """
    sol = solution if solution is not None else last_bet()
    tree = sol.tree
    total = tree.a + tree.b
    if bids and bids[-1].quantity > total:
        return {"dudo": 1.0}
    node = tree.walk([bid_code(b) for b in bids])
    if node is None:
        return None
    player = 0 if opener else 1
    if int(tree.actor[node]) != player:
        return None
    hand = tree.hands[player].index((die,))
    out: dict[str, float] = {}
    for child in tree.children(node):
        p = float(sol.sigma[player][child, hand])
        if p >= PLAY_FLOOR:
            code = int(tree.action[child])
            out["dudo" if code == DUDO_CODE else str(code_bid(code))] = p
    norm = sum(out.values())
    return {k: v / norm for k, v in out.items()}
