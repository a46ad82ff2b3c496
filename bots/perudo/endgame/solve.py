"""Solved heads-up endgames: computed once, cached on disk, looked up in play.

:func:`last_bet` is the equilibrium of the seed's "last bet" situation (two players, one
die each, one round decides the game), solved by CFR+ over the exact information sets
(:mod:`bots.perudo.endgame.cfr`). It is shipped with the package (``last_bet.npz``,
checked against today's tree when loaded); if that file is missing or no longer solves
the tree, it is computed at first use (some seconds) and cached in ``$UMPIRE_CACHE``
(default ``~/.cache/umpire``); a cache that does not match its tree is recomputed.

:func:`round_policy` gives the played policy of the last bet or of a round of one die
against two (1 v 2, 2 v 1: solved offline, their played policies shipped as
``round_1v2.npz`` and ``round_2v1.npz``, about 1 MB each, written by :func:`ship`).
:func:`equilibrium_policy` gives a seat's mixed action in those rounds from its dice and
the round's bids, as action texts (what the engine accepts).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

from bots.perudo.endgame.cfr import Solution, Values, evaluate, solve
from bots.perudo.endgame.policy import Policy, load, played_policy, save, wrong_moves
from bots.perudo.endgame.tied import TiedPolicy, solve_tied
from bots.perudo.endgame.tied import load as load_tied
from bots.perudo.endgame.tied import save as save_tied
from bots.perudo.endgame.tree import (
    CALZA_CODE,
    DUDO_CODE,
    RoundTree,
    bid_code,
    build,
    code_bid,
    hands,
)
from server.games.perudo_actions import Bid, count_matching, raises

#: CFR+ iterations for the one-die-each round, and the tremble that keeps every position
#: reached (see :func:`~bots.perudo.endgame.cfr.solve`); the cache file's name carries them.
LAST_BET_ITERATIONS = 600
LAST_BET_TREMBLE = 1e-3
_VERSION = 1


def cache_dir() -> Path:
    """Where solved endgames are kept: ``$UMPIRE_CACHE`` or ``~/.cache/umpire``."""
    root = os.environ.get("UMPIRE_CACHE")
    return Path(root) if root else Path.home() / ".cache" / "umpire"


def _path(a: int, b: int, iterations: int, tremble: float, tag: str = "") -> Path:
    name = f"perudo_endgame_v{_VERSION}_{a}v{b}{tag}_{iterations}_t{tremble:g}.npz"
    return cache_dir() / name


def load_solution(tree: RoundTree, path: Path, loss: Values) -> Solution | None:
    """The solution saved at ``path`` for ``tree``, evaluated under the leaf values
    ``loss``; ``None`` if the file is missing, damaged or made for another tree."""
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


def save_solution(solution: Solution, path: Path) -> None:
    """Write ``solution``'s strategies to ``path`` (float32, compressed, atomically)."""
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
    loss: Values,
    iterations: int,
    tremble: float = 0.0,
    *,
    use_cache: bool = True,
    calza: bool = False,
    tag: str = "",
) -> Solution:
    """The CFR+ solution of a round (opener ``a`` dice, responder ``b``; with ``calza``
    the round with calza, whose ``loss`` then has four values), from the disk cache
    (named with ``tag``) when present and sound, else computed (and cached)."""
    tree = build(a, b, calza=calza)
    path = _path(a, b, iterations, tremble, tag)
    if use_cache:
        found = load_solution(tree, path, loss)
        if found is not None:
            return found
    solution = solve(tree, loss, iterations, tremble)
    if use_cache:
        with contextlib.suppress(OSError):  # a read-only home: play from memory
            save_solution(solution, path)
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
    shipped = load_solution(build(1, 1), SHIPPED, (-1.0, 1.0))
    if shipped is not None and shipped.exploitability <= SHIPPED_TOLERANCE:
        return shipped
    return solved_round(1, 1, (-1.0, 1.0), LAST_BET_ITERATIONS, LAST_BET_TREMBLE)


#: CFR+ iterations (and tremble) of the one-die-against-two rounds (1 v 2 and 2 v 1, 524,025
#: nodes each: some minutes per round, so their played policies are shipped).
ONE_V_TWO_ITERATIONS = 200
#: The played policies of those rounds, shipped (``python -m benchmarks.perudo_exploitability
#: --ship`` writes them); a round without its file is played by the expert's rules.
SHIPPED_ROUNDS = {
    (1, 2): SHIPPED.with_name("round_1v2.npz"),
    (2, 1): SHIPPED.with_name("round_2v1.npz"),
}


def continuation(a: int, b: int) -> tuple[float, float]:
    """What the game is worth to the opener of an ``a`` v ``b`` round (dice 1 or 2) once
    the opener (first) or the responder (second) lost a die: out with one die, else the
    solved round that follows, which the loser opens (the last bet's value ``v``)."""
    v = last_bet().value if (a, b) != (1, 1) else 0.0
    return (-1.0 if a == 1 else v, 1.0 if b == 1 else -v)


def solved_one_vs_two(a: int, b: int, iterations: int = ONE_V_TWO_ITERATIONS) -> Solution:
    """The CFR+ solution of the ``a`` v ``b`` round (1 v 2 or 2 v 1), from the disk cache
    or computed (minutes): for the benchmark and :func:`ship`, never in a game."""
    return solved_round(a, b, continuation(a, b), iterations, LAST_BET_TREMBLE)


#: The seats whose shipped policy is solved restricted (see :func:`restricted`), by
#: round: the responder's in 1 v 2 (the one-die opener's unrestricted average costs only
#: 0.0003), both in 2 v 1 (its two-dice opener's cost 0.007 unrestricted).
RESTRICTED_SEATS: dict[tuple[int, int], tuple[int, ...]] = {(1, 2): (1,), (2, 1): (0, 1)}


def restricted(
    solution: Solution, iterations: int, tremble: float, players: Sequence[int]
) -> Solution:
    """``solution`` with the strategy of each of ``players`` replaced by one that never
    makes a move its own dice prove wrong (:func:`~bots.perudo.endgame.policy.
    wrong_moves`: a certainly false bid, a dudo that cannot win), solved by CFR+ with
    those moves forbidden to that player only: against an unrestricted opponent, which
    an unrestricted best response can then gain nothing from but the restriction's cost.

    (Restricting both players in one solve does not work: each then trusts the other's
    bids not to be impossible, and an unrestricted best response bluffs them.)"""
    tree = solution.tree
    sigma = list(solution.sigma)
    for p in players:
        none = np.zeros((tree.size, len(tree.weights[1 - p])), dtype=bool)
        forbidden = (wrong_moves(tree, 0), none) if p == 0 else (none, wrong_moves(tree, 1))
        loss = continuation(tree.a, tree.b)
        sigma[p] = solve(tree, loss, iterations, tremble, forbidden).sigma[p]
    pair = (sigma[0], sigma[1])
    value, br0, br1 = evaluate(tree, pair, continuation(tree.a, tree.b))
    return Solution(tree, pair, value, (br0 + br1) / 2, iterations)


def ship(a: int, b: int, iterations: int = ONE_V_TWO_ITERATIONS) -> Path:
    """Write the played policy of the ``a`` v ``b`` round next to the package's code
    (the seats of :data:`RESTRICTED_SEATS` solved restricted, one solve each)."""
    path = SHIPPED_ROUNDS[(a, b)]
    base = solved_one_vs_two(a, b, iterations)
    seats = RESTRICTED_SEATS[(a, b)]
    save(played_policy(restricted(base, iterations, LAST_BET_TREMBLE, seats)), path)
    return path


@cache
def round_policy(a: int, b: int) -> Policy | None:
    """The played policy of the heads-up round the opener plays with ``a`` dice against
    ``b``: the last bet (1 v 1) always; 1 v 2 and 2 v 1 when their shipped file is there
    and fits today's tree; ``None`` otherwise."""
    if (a, b) == (1, 1):
        return played_policy(last_bet(), reachable_only=False)
    path = SHIPPED_ROUNDS.get((a, b))
    if path is None or not path.exists():
        return None
    try:
        return load(path, build(a, b))
    except (OSError, KeyError, ValueError):
        return None


def _code_text(code: int) -> str:
    if code == CALZA_CODE:
        return "calza"
    return "dudo" if code == DUDO_CODE else str(code_bid(code))


def equilibrium_policy(
    die: int | tuple[int, ...],
    bids: Sequence[Bid],
    *,
    opener: bool,
    opponent_dice: int = 1,
    policy: Policy | None = None,
) -> dict[str, float] | None:
    """The equilibrium's mixed action for a player holding ``die`` (or a hand of dice)
    against ``opponent_dice`` after ``bids`` (this round's bids, in order; ``opener``
    says whether this player opened the round), as action text -> probability, or
    ``None`` when the position is outside the solved rounds.

    A bid naming more dice than are on the table is certainly false: the answer is then
    ``{"dudo": 1.0}``. Moves the player's own dice prove wrong (a bid they make certainly
    false, a dudo against a bid they make certainly true) are never played.
    """
    hand = (die,) if isinstance(die, int) else tuple(sorted(die))
    a, b = (len(hand), opponent_dice) if opener else (opponent_dice, len(hand))
    pol = policy if policy is not None else round_policy(a, b)
    if pol is None:
        return None
    tree = pol.tree
    if bids and bids[-1].quantity > tree.a + tree.b:
        return {"dudo": 1.0}
    node = tree.walk([bid_code(x) for x in bids])
    if node is None:
        return None
    player = 0 if opener else 1
    if int(tree.actor[node]) != player or hand not in tree.hands[player]:
        return None
    mix = pol.mix(player, node, tree.hands[player].index(hand))
    if not mix:  # every move of the mix loses for sure (or an unreached position)
        return {"dudo": 1.0} if bids else None
    return {_code_text(int(tree.action[c])): p for c, p in mix}


#: The two-dice-each round's tied abstraction (:mod:`bots.perudo.endgame.tied`), shipped.
SHIPPED_TIED = {(2, 2): SHIPPED.with_name("round_2v2.npz")}
#: How it is solved: the window of last bids a key names (:mod:`bots.perudo.endgame.tied`),
#: CFR+ iterations per seat, and the floor below which a move of the solution is not
#: played (it bounds the support a best response must walk).
TIED_RECALL = 4
TIED_ITERATIONS = 200
TIED_FLOOR = 0.003
#: The values' type in the solve's passes (float32: half the memory, some 20% faster;
#: :func:`~bots.perudo.endgame.tied_cfr.solve_graph`).
TIED_DTYPE = np.float32


def ship_tied(
    a: int = 2, b: int = 2, iterations: int = TIED_ITERATIONS, recall: int = TIED_RECALL
) -> Path:
    """Solve the ``a`` v ``b`` round's tied abstraction (each seat restricted, in its own
    run; the round alone scored, which for 2 v 2 is the game's continuation up to a
    factor) and write it, moves below :data:`TIED_FLOOR` dropped, next to the code."""
    path = SHIPPED_TIED[(a, b)]
    save_tied(solved_tied(a, b, iterations, recall), path)
    return path


def solved_tied(
    a: int = 2, b: int = 2, iterations: int = TIED_ITERATIONS, recall: int = TIED_RECALL
) -> TiedPolicy:
    """The ``a`` v ``b`` round's tied abstraction as :func:`ship_tied` writes it (each seat
    restricted, moves below :data:`TIED_FLOOR` dropped): minutes, never in a game."""
    pol = solve_tied(
        a, b, (-1.0, 1.0), iterations, recall=recall, restricted=True, dtype=TIED_DTYPE
    ).policy
    prob = (
        np.where(pol.prob[0] >= TIED_FLOOR, pol.prob[0], 0.0),
        np.where(pol.prob[1] >= TIED_FLOOR, pol.prob[1], 0.0),
    )
    return TiedPolicy(pol.a, pol.b, pol.key, prob, pol.start, pol.model, pol.recall, pol.iterations)


@cache
def tied_policy(a: int, b: int) -> TiedPolicy | None:
    """The shipped tied policy of the ``a`` v ``b`` round (2 v 2), or ``None``."""
    path = SHIPPED_TIED.get((a, b))
    if path is None or not path.exists():
        return None
    try:
        policy = load_tied(path)
    except (OSError, KeyError, ValueError):
        return None
    return policy if (policy.a, policy.b) == (a, b) else None


def tied_mix(
    hand: tuple[int, ...],
    bids: Sequence[Bid],
    *,
    opener: bool,
    opponent_dice: int,
    policy: TiedPolicy | None = None,
) -> dict[str, float] | None:
    """The tied policy's mixed action (action text -> probability) for a player holding
    ``hand`` after this round's ``bids``, or ``None`` outside its round. As
    :func:`equilibrium_policy`: a bid of more dice than the table holds is answered by
    dudo, and no move the player's own dice prove wrong is played."""
    hand = tuple(sorted(hand))
    a, b = (len(hand), opponent_dice) if opener else (opponent_dice, len(hand))
    pol = policy if policy is not None else tied_policy(a, b)
    if pol is None:
        return None
    if bids and (bids[-1].quantity > a + b or not raises(bids[-1], a + b)):
        return {"dudo": 1.0}  # certainly false, or nothing else is left to play
    player = 0 if opener else 1
    codes = [bid_code(x) for x in bids]
    mix = pol.mix(player, codes, hands(len(hand))[0].index(hand))
    last = bids[-1] if bids else None
    kept: dict[str, float] = {}
    for code, p in mix.items():
        if code == DUDO_CODE:
            if last is not None and count_matching(hand, last, True) < last.quantity:
                kept["dudo"] = p
            continue
        bid = code_bid(code)
        if bid.quantity - count_matching(hand, bid, True) <= opponent_dice:
            kept[str(bid)] = p
    total = sum(kept.values())
    if total <= 0:  # an unknown key (or only wrong moves): the expert's rules decide
        return None
    return {t: p / total for t, p in kept.items()}
