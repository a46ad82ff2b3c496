"""Solved heads-up endgames: computed once, cached on disk, looked up in play.

:func:`last_bet` is the equilibrium of the seed's "last bet" situation (two players, one
die each, one round decides the game), solved by CFR+ over the exact information sets
(:mod:`bots.perudo_endgame.cfr`). It is shipped with the package (``last_bet.npz``,
checked against today's tree when loaded); if that file is missing or no longer solves
the tree, it is computed at first use (some seconds) and cached in ``$UMPIRE_CACHE``
(default ``~/.cache/umpire``); a cache that does not match its tree is recomputed.

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
from server.games.perudo_actions import Bid, count_matching

#: CFR+ iterations for the one-die-each round, and the tremble that keeps every position
#: reached (see :func:`~bots.perudo_endgame.cfr.solve`); the cache file's name carries them.
LAST_BET_ITERATIONS = 600
LAST_BET_TREMBLE = 1e-3
#: Mixed actions below this probability are dropped when playing (CFR+ residue).
PLAY_FLOOR = 1e-3
_VERSION = 1


def cache_dir() -> Path:
    """Where solved endgames are kept: ``$UMPIRE_CACHE`` or ``~/.cache/umpire``."""
    root = os.environ.get("UMPIRE_CACHE")
    return Path(root) if root else Path.home() / ".cache" / "umpire"


def _path(a: int, b: int, iterations: int, tremble: float) -> Path:
    name = f"perudo_endgame_v{_VERSION}_{a}v{b}_{iterations}_t{tremble:g}.npz"
    return cache_dir() / name


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
    a: int,
    b: int,
    loss: tuple[float, float],
    iterations: int,
    tremble: float = 0.0,
    *,
    use_cache: bool = True,
) -> Solution:
    """The CFR+ solution of a round (opener ``a`` dice, responder ``b``), from the disk
    cache when present and sound, else computed (and cached)."""
    tree = build(a, b)
    path = _path(a, b, iterations, tremble)
    if use_cache:
        found = _load(tree, path, loss)
        if found is not None:
            return found
    solution = solve(tree, loss, iterations, tremble)
    if use_cache:
        with contextlib.suppress(OSError):  # a read-only home: play from memory
            _save(solution, path)
    return solution


#: The solved last-bet round shipped with the package (about 100 kB), so that no game
#: waits for the solver; a test checks it is an equilibrium of today's tree.
SHIPPED = Path(__file__).with_name("last_bet.npz")
#: A shipped solution must be at least this close to an equilibrium to be played.
SHIPPED_TOLERANCE = 2e-3


@cache
def last_bet() -> Solution:
    """The solved one-die-each round (the whole game: the loser is out): the shipped
    file when it solves today's tree, else the disk cache, else computed."""
    shipped = _load(build(1, 1), SHIPPED, (-1.0, 1.0))
    if shipped is not None and shipped.exploitability <= SHIPPED_TOLERANCE:
        return shipped
    return solved_round(1, 1, (-1.0, 1.0), LAST_BET_ITERATIONS, LAST_BET_TREMBLE)


def _certainly_loses(code: int, die: int, bids: Sequence[Bid], unseen: int) -> bool:
    """Whether a move loses whatever the ``unseen`` dice show, for a player holding ``die``."""
    if code == DUDO_CODE:
        last = bids[-1]
        return count_matching((die,), last, True) >= last.quantity
    bid = code_bid(code)
    return bid.quantity - count_matching((die,), bid, True) > unseen


def equilibrium_policy(
    die: int, bids: Sequence[Bid], *, opener: bool, solution: Solution | None = None
) -> dict[str, float] | None:
    """The equilibrium's mixed action for a player holding ``die`` after ``bids`` (this
    round's bids, in order; ``opener`` says whether this player opened the round), as
    action text -> probability, or ``None`` when the position is outside the solved tree.

    A bid naming more dice than are on the table is certainly false: the answer is then
    ``{"dudo": 1.0}``. Moves the player's own die proves wrong (a bid it makes certainly
    false, a dudo against a bid it makes certainly true) are dropped: the equilibrium
    gives them almost nothing, and they are never played.
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
        code = int(tree.action[child])
        if p >= PLAY_FLOOR and not _certainly_loses(code, die, bids, total - 1):
            out["dudo" if code == DUDO_CODE else str(code_bid(code))] = p
    if not out:  # every move of the mix loses for sure: any move is as good
        return {"dudo": 1.0} if bids else None
    norm = sum(out.values())
    return {k: v / norm for k, v in out.items()}
