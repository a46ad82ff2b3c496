"""CFR+ and best responses over a :class:`~bots.perudo.endgame.tree.RoundTree`.

Values are zero-sum and from the opener's side: a round ends when someone loses a die,
and ``loss_values = (L0, L1)`` are what the game is then worth to the opener if the
opener (L0) or the responder (L1) lost it (``(-1, 1)`` when one die each decides the
game). In a tree with calza (``build(..., calza=True)``) the values carry two more,
``(L0, L1, C0, C1)``: what the game is worth to the opener once the opener (C0) or the
responder (C1) called a calza that was exactly right (a calza that is wrong loses the
caller a die: L0 or L1). Every pass is vectorised over the nodes of one depth and over
the hands.

*Counterfactual values* ``cfv[p][node, hand]`` are player ``p``'s expected payoff at
``node`` holding ``hand``, weighted by the chance and the opponent's reach (not ``p``'s
own). A player's strategy is a behaviour strategy: for each of their nodes, a
distribution over its children for each hand, stored on the children (``sigma[p][child,
hand]``, 1.0 on the other player's children).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bots.perudo.endgame.tree import CALZA_CODE, FloatArray, IntArray, RoundTree

#: What the game is worth to the opener at the round's end: ``(L0, L1)``, or with calza
#: ``(L0, L1, C0, C1)`` (see the module).
Values = tuple[float, ...]


@dataclass(slots=True)
class Shape:
    """Index sets the passes over one tree reuse (:func:`tree_shape` makes them)."""

    levels: list[IntArray]  #: node indices per depth
    inner: list[IntArray]  #: the non-terminal nodes of each depth
    owned: tuple[IntArray, IntArray]  #: nodes whose parent is acted by player 0 / 1
    by_bid: dict[int, tuple[IntArray, IntArray]]  #: bid -> (dudos, their challenger)
    by_calza: dict[int, tuple[IntArray, IntArray]]  #: bid -> (calzas, their caller)


def tree_shape(tree: RoundTree) -> Shape:
    """The index sets of ``tree`` that :func:`normalise` and the passes use."""
    ds = tree.depth_start
    levels = [np.arange(ds[d], ds[d + 1]) for d in range(len(ds) - 1)]
    inner = [lv[tree.actor[lv] >= 0] for lv in levels]
    par_actor = np.where(tree.parent >= 0, tree.actor[np.maximum(tree.parent, 0)], -1)
    owned = (np.nonzero(par_actor == 0)[0], np.nonzero(par_actor == 1)[0])
    term = np.nonzero(tree.actor < 0)[0]
    calza = term[tree.action[term] == CALZA_CODE]
    dudo = term[tree.action[term] != CALZA_CODE]
    groups = []
    for ends in (dudo, calza):
        by: dict[int, tuple[IntArray, IntArray]] = {}
        for code in np.unique(tree.last[ends]):
            t = ends[tree.last[ends] == code]
            by[int(code)] = (t, tree.actor[tree.parent[t]])
        groups.append(by)
    return Shape(levels, inner, owned, groups[0], groups[1])


def _terminal_values(
    tree: RoundTree,
    shape: Shape,
    reach: tuple[FloatArray, FloatArray],
    loss_values: Values,
    cfv: tuple[FloatArray, FloatArray],
) -> None:
    """Fill ``cfv`` at the terminals from the opponents' reaches."""
    l0, l1 = loss_values[0], loss_values[1]
    if shape.by_calza and len(loss_values) != 4:
        raise ValueError("a round with calza needs values (L0, L1, C0, C1)")
    ends = [(shape.by_bid, tree.truth, l1, l0, l0 - l1, l1 - l0)]
    if shape.by_calza:
        c0, c1 = loss_values[2], loss_values[3]
        # a calza: the caller loses a die, unless the count is exact (then c0 / c1)
        ends.append((shape.by_calza, tree.exact, l0, l1, c0 - l0, c1 - l1))
    for by, table, base0, base1, slope0, slope1 in ends:
        for code, (t, mover) in by.items():
            truth = table[code]
            # value to the opener = base + slope * truth (a dudo: the challenger loses a
            # true bid; a calza: the caller wins an exact one)
            base = np.where(mover == 0, base0, base1)[:, None]
            slope = np.where(mover == 0, slope0, slope1)[:, None]
            r1 = reach[1][t]
            r0 = reach[0][t]
            cfv[0][t] = base * r1.sum(axis=1, keepdims=True) + slope * (r1 @ truth.T)
            cfv[1][t] = -(base * r0.sum(axis=1, keepdims=True) + slope * (r0 @ truth))


def _forward(
    tree: RoundTree, shape: Shape, sigma: tuple[FloatArray, FloatArray]
) -> tuple[FloatArray, FloatArray]:
    """Each player's reach (with the chance of their hand) at every node."""
    out = []
    for p in (0, 1):
        reach = np.empty_like(sigma[p])
        reach[0] = tree.weights[p]
        for lv in shape.levels[1:]:
            reach[lv] = reach[tree.parent[lv]] * sigma[p][lv]
        out.append(reach)
    return out[0], out[1]


def _backward(
    tree: RoundTree,
    shape: Shape,
    sigma: tuple[FloatArray, FloatArray],
    cfv: tuple[FloatArray, FloatArray],
    best: int | None = None,
    extra: tuple[FloatArray, FloatArray] | None = None,
) -> None:
    """Fill ``cfv`` at inner nodes from the leaves up; player ``best`` (if given) takes
    the best child for each hand instead of following ``sigma``; ``extra[p][node]`` (if
    given) is added to player ``p``'s value at each inner node, for every hand."""
    for d in range(len(shape.levels) - 2, -1, -1):
        nodes = shape.inner[d]
        if len(nodes) == 0:
            continue
        lo = shape.levels[d + 1][0]
        starts = tree.child_start[nodes] - lo
        kids = shape.levels[d + 1]
        for p in (0, 1):
            values = cfv[p][kids]
            if best == p:
                mine = tree.actor[nodes] == p
                summed = np.add.reduceat(values, starts, axis=0)
                top = np.maximum.reduceat(values, starts, axis=0)
                cfv[p][nodes] = np.where(mine[:, None], top, summed)
            else:
                cfv[p][nodes] = np.add.reduceat(values * sigma[p][kids], starts, axis=0)
            if extra is not None:
                cfv[p][nodes] += extra[p][nodes][:, None]


def normalise(
    tree: RoundTree,
    shape: Shape,
    p: int,
    positive: FloatArray,
    allowed: FloatArray | None = None,
) -> FloatArray:
    """Behaviour strategy of player ``p`` from non-negative weights on their children
    (uniform over the ``allowed`` moves, 1.0/0.0 per own child and hand, where a node's
    weights are all zero); 1.0 elsewhere."""
    sigma = np.ones((tree.size, len(tree.weights[p])))
    own = shape.owned[p]
    parents = tree.parent[own]
    # children of one parent are contiguous: segment sums by parent
    boundaries = np.concatenate(([0], np.nonzero(np.diff(parents))[0] + 1))
    sums = np.add.reduceat(positive, boundaries, axis=0)
    counts = np.diff(np.concatenate((boundaries, [len(own)])))
    seg = np.repeat(np.arange(len(boundaries)), counts)
    total = sums[seg]
    if allowed is None:
        uniform = np.broadcast_to(
            (1.0 / tree.child_count[parents].astype(np.float64))[:, None], positive.shape
        )
    else:
        n_allowed = np.add.reduceat(allowed, boundaries, axis=0)[seg]
        uniform = allowed / np.maximum(n_allowed, 1.0)
    sigma[own] = np.where(total > 0, positive / np.where(total > 0, total, 1.0), uniform)
    return sigma


@dataclass(slots=True)
class Solution:
    """A solved round: the average strategies and what they are worth."""

    tree: RoundTree
    sigma: tuple[FloatArray, FloatArray]  #: behaviour strategies on children (see module)
    value: float  #: the opener's expected value under ``sigma``
    exploitability: float  #: (best response to player 1 + best response to player 0) / 2
    iterations: int


def evaluate(
    tree: RoundTree, sigma: tuple[FloatArray, FloatArray], loss_values: Values
) -> tuple[float, float, float]:
    """The opener's value under ``sigma``, and the best responses' values (opener's best
    response against ``sigma[1]``, responder's best response against ``sigma[0]``, each to
    the responding side: a Nash pair gives ``(v, v, -v)``)."""
    shape = tree_shape(tree)
    return _evaluate(tree, shape, sigma, loss_values)


def _evaluate(
    tree: RoundTree,
    shape: Shape,
    sigma: tuple[FloatArray, FloatArray],
    loss_values: Values,
) -> tuple[float, float, float]:
    reach = _forward(tree, shape, sigma)
    out = []
    for best in (None, 0, 1):
        cfv = (np.zeros_like(reach[0]), np.zeros_like(reach[1]))
        _terminal_values(tree, shape, reach, loss_values, cfv)
        _backward(tree, shape, sigma, cfv, best)
        side = 1 if best == 1 else 0
        out.append(float(tree.weights[side] @ cfv[side][0]))
    return out[0], out[1], out[2]


def best_response_values(
    tree: RoundTree,
    reach: tuple[FloatArray, FloatArray],
    loss_values: Values,
    overbids: tuple[FloatArray, FloatArray] | None = None,
) -> tuple[float, float]:
    """Best-response values against fixed *reaches* (realisation plans with chance):
    the opener's best value against ``reach[1]`` and the responder's against ``reach[0]``.

    ``overbids[p][node]`` (if given) is the mass of player ``p``'s reach (with chance)
    that bids, at ``node``, more dice than the table holds (a move not in the tree): the
    best response then calls dudo and ``p`` loses its die (worth ``loss_values[p]`` to
    the opener), whatever the hands.

    Reaches rather than behaviour strategies let a mixture of pure strategies (a bot over
    several seeds) be answered exactly: the mixture's reach is the average of the reaches.
    """
    shape = tree_shape(tree)
    ones = (np.ones_like(reach[0]), np.ones_like(reach[1]))
    extra = None
    if overbids is not None:  # to the opener: the bidder's loss; to the responder: minus
        extra = (overbids[1] * loss_values[1], -overbids[0] * loss_values[0])
    out = []
    for best in (0, 1):
        cfv = (np.zeros_like(reach[0]), np.zeros_like(reach[1]))
        _terminal_values(tree, shape, reach, loss_values, cfv)
        _backward(tree, shape, ones, cfv, best, extra)
        out.append(float(tree.weights[best] @ cfv[best][0]))
    return out[0], out[1]


def _tremble(
    tree: RoundTree,
    shape: Shape,
    sigma: tuple[FloatArray, FloatArray],
    epsilon: float,
    allowed: tuple[FloatArray, FloatArray] | None = None,
) -> tuple[FloatArray, FloatArray]:
    """``sigma`` with every (allowed) move kept at probability at least about ``epsilon``."""
    if epsilon <= 0:
        return sigma
    out = []
    for p in (0, 1):
        s = sigma[p].copy()
        own = shape.owned[p]
        spread = normalise(
            tree, shape, p, np.zeros_like(s[own]), None if allowed is None else allowed[p]
        )[own]
        s[own] = (1 - epsilon) * s[own] + epsilon * spread
        out.append(s)
    return out[0], out[1]


def solve(
    tree: RoundTree,
    loss_values: Values,
    iterations: int,
    tremble: float = 0.0,
    forbidden: tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]] | None = None,
) -> Solution:
    """Run CFR+ (regret matching+, alternating updates, linear averaging) for
    ``iterations`` iterations and return the average strategies.

    With ``tremble`` > 0 every move is played with probability at least about
    ``tremble`` while the values are computed, so every position is reached and the
    strategy is sensible even after an opponent's move the equilibrium never makes (a
    plain CFR+ average plays uniformly there, certainly-false bids included); the
    result is an equilibrium of that slightly perturbed game.

    ``forbidden[p][child, hand]`` (for player ``p``'s own moves) removes moves from a
    player's choices for some hands (say, the bids its own dice make certainly false):
    regret matching runs over the other moves only. The exploitability reported is
    still against an unrestricted best response.
    """
    shape = tree_shape(tree)
    allowed: tuple[FloatArray, FloatArray] | None = None
    if forbidden is not None:
        allowed = (
            (~forbidden[0][shape.owned[0]]).astype(np.float64),
            (~forbidden[1][shape.owned[1]]).astype(np.float64),
        )

    def mask(p: int) -> FloatArray | None:
        return None if allowed is None else allowed[p]

    regret = [np.zeros((len(shape.owned[p]), len(tree.weights[p]))) for p in (0, 1)]
    average = [np.zeros_like(regret[0]), np.zeros_like(regret[1])]
    sigma = (
        normalise(tree, shape, 0, regret[0], mask(0)),
        normalise(tree, shape, 1, regret[1], mask(1)),
    )
    for it in range(1, iterations + 1):
        for p in (0, 1):
            shaken = _tremble(tree, shape, sigma, tremble, allowed)
            reach = _forward(tree, shape, shaken)
            cfv = (np.zeros_like(reach[0]), np.zeros_like(reach[1]))
            _terminal_values(tree, shape, reach, loss_values, cfv)
            _backward(tree, shape, shaken, cfv)
            own = shape.owned[p]
            par = tree.parent[own]
            regret[p] = np.maximum(regret[p] + cfv[p][own] - cfv[p][par], 0.0)
            if allowed is not None:
                regret[p] *= allowed[p]
            average[p] += it * reach[p][par] * sigma[p][own]
            new = normalise(tree, shape, p, regret[p], mask(p))
            sigma = (new, sigma[1]) if p == 0 else (sigma[0], new)
    avg = (
        normalise(tree, shape, 0, average[0], mask(0)),
        normalise(tree, shape, 1, average[1], mask(1)),
    )
    value, br0, br1 = _evaluate(tree, shape, avg, loss_values)
    return Solution(tree, avg, value, (br0 + br1) / 2, iterations)
