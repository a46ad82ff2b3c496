"""The last bet with calza (two players, one die each, the room plays calza), solved.

The round is the engine's (``server.games.perudo``): after any bid a player may raise,
call dudo, or call calza. A calza whose count is exactly the bid's quantity wins: the
caller gains a die, never above the game's starting count, and opens the next round; a
wrong calza costs the caller its die, and with one die each that ends the game.

So the leaves are exact except one, whose value comes from a stated model:

- a lost die (a dudo, a wrong calza) ends the game: -1 / +1 (exact);
- a right calza with a starting count of 2 or more (``gain=True``) leaves the caller two
  dice against one, opening the next round: its value is taken from the solved 2 v 1
  round *without* calza (:data:`ROUND_2V1_VALUE` to the two-dice opener, from
  ``round_2v1.npz``). That is the approximation: in a calza room that round has calza
  too, and it has not been solved with it;
- a right calza with a starting count of 1 (``gain=False``) gains nothing: the game is
  the same last bet again, opened by the caller. Its value ``V`` to the opener is the
  fixed point of ``V = value(round with C0 = V, C1 = -V)``, found by iterating
  (:func:`fixed_point`): with this no model is needed (a stationary equilibrium).

In the no-gain round the unrestricted solution's played policy (less the moves a
player's own die proves wrong) is far from an equilibrium (0.033: certainly-false bids
are part of the mix once calza exists), so each seat is solved restricted against an
unrestricted opponent (:func:`restricted`, as ``solve.restricted`` does): 0.0105. In
the gain round the unrestricted solution's played policy measures 0.0006 and is kept.

Both solutions are shipped (``last_bet_calza.npz``, ``last_bet_calza1.npz``), checked
against today's tree when loaded, and recomputed (half a minute; the no-gain one some
three minutes) if they no longer fit.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from bots.perudo.endgame.cfr import Solution, evaluate, solve
from bots.perudo.endgame.policy import Policy, played_policy, wrong_moves
from bots.perudo.endgame.solve import (
    LAST_BET_ITERATIONS,
    LAST_BET_TREMBLE,
    SHIPPED,
    load_solution,
    save_solution,
)
from bots.perudo.endgame.tree import build

#: The two-dice opener's value of the 2 v 1 round solved without calza (docs/
#: perudo_endgame.md: +0.6093 by the CFR+ solution; the shipped file's is within 0.002,
#: a test checks it): the model's value of a right calza that gains a die.
ROUND_2V1_VALUE = 0.6093
#: Solves of the starting-count-1 fixed point (each with the previous one's own value).
FIXED_POINT_STEPS = 4
#: The shipped solutions, by whether a right calza gains a die.
SHIPPED_CALZA = {
    True: SHIPPED.with_name("last_bet_calza.npz"),
    False: SHIPPED.with_name("last_bet_calza1.npz"),
}
#: A shipped solution must be at least this close to an equilibrium (under the model)
#: to be played: the no-gain one is restricted (see the module), which costs 0.0105.
TOLERANCE = {True: 2e-3, False: 1.2e-2}


def values(gain: bool, v: float = 0.0) -> tuple[float, float, float, float]:
    """The leaves' values to the opener ``(L0, L1, C0, C1)`` (see :mod:`..cfr`): a lost
    die ends the game; a right calza leads to the 2 v 1 round the caller opens
    (``gain``), or to this round again, opened by the caller, worth ``v`` to its opener."""
    won = ROUND_2V1_VALUE if gain else v
    return (-1.0, 1.0, won, -won)


def fixed_point(iterations: int, tremble: float, steps: int = FIXED_POINT_STEPS) -> Solution:
    """The no-gain round (starting count 1) solved with its own value at its calza
    leaves, iterated ``steps`` times from the last bet's value without calza."""
    tree = build(1, 1, calza=True)
    found = solve(tree, values(False, -0.0556), iterations, tremble)
    for _ in range(steps - 1):
        found = solve(tree, values(False, own_value(found)), iterations, tremble)
    return measured(found, False)


def own_value(solution: Solution) -> float:
    """The opener's value ``v`` of ``solution`` played round after round (a right calza
    with no gain replays the round): ``v = x + y v``, with ``x + y v`` the value when a
    right calza is worth ``v``, so ``v = x / (1 - y)``."""
    tree, sigma = solution.tree, solution.sigma
    x = evaluate(tree, sigma, values(False, 0.0))[0]
    y = evaluate(tree, sigma, values(False, 1.0))[0] - x
    return x / (1.0 - y)


def measured(solution: Solution, gain: bool) -> Solution:
    """``solution`` with its value and exploitability under the model of ``gain`` (for
    ``gain=False``, its own value at the right calzas: :func:`own_value`)."""
    tree, sigma = solution.tree, solution.sigma
    value, br0, br1 = evaluate(tree, sigma, model_values(solution, gain))
    return Solution(tree, sigma, value, (br0 + br1) / 2, solution.iterations)


def restricted(solution: Solution, iterations: int, tremble: float) -> Solution:
    """``solution`` (no gain) with each seat's strategy solved again, never making a move
    its own die proves wrong, against an unrestricted opponent (one solve per seat, the
    calzas worth ``solution``'s own value)."""
    tree = solution.tree
    leaves = model_values(solution, False)
    sigma = list(solution.sigma)
    for p in (0, 1):
        none = np.zeros((tree.size, len(tree.weights[1 - p])), dtype=bool)
        forbidden = (wrong_moves(tree, 0), none) if p == 0 else (none, wrong_moves(tree, 1))
        sigma[p] = solve(tree, leaves, iterations, tremble, forbidden).sigma[p]
    return measured(Solution(tree, (sigma[0], sigma[1]), 0.0, 0.0, iterations), False)


def solved(gain: bool, iterations: int = LAST_BET_ITERATIONS) -> Solution:
    """A fresh CFR+ solution of the last bet with calza (``gain``: see the module; the
    no-gain one restricted)."""
    if gain:
        return solve(build(1, 1, calza=True), values(True), iterations, LAST_BET_TREMBLE)
    return restricted(fixed_point(iterations, LAST_BET_TREMBLE), iterations, LAST_BET_TREMBLE)


def model_values(solution: Solution, gain: bool) -> tuple[float, float, float, float]:
    """The leaf values ``solution`` is measured with: for ``gain=False`` its own value at
    the right calzas (:func:`own_value`)."""
    return values(gain, 0.0 if gain else own_value(solution))


def ship(gain: bool, iterations: int = LAST_BET_ITERATIONS) -> Path:
    """Solve and write the shipped solution for ``gain``."""
    path = SHIPPED_CALZA[gain]
    save_solution(solved(gain, iterations), path)
    return path


@cache
def last_bet_calza(gain: bool) -> Solution:
    """The solved last bet with calza: the shipped file when it solves today's tree
    (exploitability <= :data:`TOLERANCE` under the model), else computed (minutes)."""
    tree = build(1, 1, calza=True)
    found = load_solution(tree, SHIPPED_CALZA[gain], values(gain))
    if found is not None:
        found = measured(found, gain)
    if found is not None and found.exploitability <= TOLERANCE[gain]:
        return found
    return solved(gain)


@cache
def calza_policy(gain: bool) -> Policy:
    """The played policy of the last bet with calza (see :func:`last_bet_calza`)."""
    return played_policy(last_bet_calza(gain), reachable_only=False)
