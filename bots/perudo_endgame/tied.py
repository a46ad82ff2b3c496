"""An abstraction of a round too big to solve exactly: strategies tied by the last two bids.

The two-dice-each round has 16.8 million public histories (x 21 hands a side): beyond
:mod:`bots.perudo_endgame.cfr`. Here a player's move depends only on its hand and the
*last two bids* (``prev2``, ``prev1``: both ``-1`` at the opening, ``prev2 = -1`` after the
first bid), not on the whole history: a few thousand (key, move) pairs a side. The
strategies are solved by CFR+ over the tree cut after ``max_bids`` bids
(:func:`~bots.perudo_endgame.tree.build`), each key's regrets summed over every history
that ends with those two bids (the imperfect-recall abstraction; the cut's forced dudos are
not tied). Because a key names only the last two bids, the result answers *every*
history of the real round, however long.

Each player's strategy is solved *restricted* against an unrestricted opponent (never a
bid its own dice make certainly false, never a dudo that cannot win), one solve per seat,
as :func:`bots.perudo_endgame.solve.restricted` does for the exact rounds. This is not an
equilibrium of the real round: what a best response gains against it is measured exactly
by :mod:`bots.perudo_endgame.round_exploit` (``docs/perudo_endgame.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bots.perudo_endgame.cfr import (
    _backward,
    _evaluate,
    _forward,
    _shape,
    _terminal_values,
    _tremble,
)
from bots.perudo_endgame.cfr import _normalise as _node_normalise
from bots.perudo_endgame.policy import PLAY_FLOOR, wrong_moves
from bots.perudo_endgame.tree import FloatArray, IntArray, RoundTree, build, hands

_BASE = 64  #: a bid code (or -1, -2) offset by 2 is one digit of a key


def edge_key(player: int, prev2: Any, prev1: Any, action: Any) -> Any:
    """The key of ``player``'s move ``action`` after the bids ``prev2``, ``prev1`` (codes
    of :func:`~bots.perudo_endgame.tree.bid_code`, ``-1`` for none or dudo; ints or
    arrays)."""
    return ((player * _BASE + prev2 + 2) * _BASE + prev1 + 2) * _BASE + action + 2


@dataclass(frozen=True, slots=True)
class TiedPolicy:
    """A tied strategy of both players: ``prob[i, hand]`` for the move of ``key[i]``."""

    a: int  #: the opener's dice
    b: int  #: the responder's dice
    key: IntArray  #: sorted :func:`edge_key` values
    prob: tuple[FloatArray, FloatArray]  #: per player: [its keys, its hands]
    start: int  #: the first key of player 1 (player 0's keys come first)
    #: per player, as ``prob``: the unrestricted strategy the *other* seat's table was
    #: solved against (what that seat's beliefs assume); ``None`` when not kept
    model: tuple[FloatArray, FloatArray] | None = None

    def _rows(self, player: int) -> tuple[int, int]:
        return (0, self.start) if player == 0 else (self.start, len(self.key))

    def mix(self, player: int, prev2: int, prev1: int, hand: int) -> dict[int, float]:
        """Action code -> probability for ``player`` holding hand number ``hand`` after
        the bids ``prev2``, ``prev1``. A pair of bids the cut tree never gave this player
        gets the mean of its mixes after ``prev1`` (empty if there are none)."""
        return self._mix(self.prob[player], player, prev2, prev1, hand)

    def model_probability(
        self, player: int, prev2: int, prev1: int, action: int, hand: int
    ) -> float:
        """How often the other seat's table assumes ``player`` plays ``action`` there
        (:attr:`model`; the played table when no model was kept)."""
        table = self.prob[player] if self.model is None else self.model[player]
        return self._mix(table, player, prev2, prev1, hand).get(action, 0.0)

    def _mix(
        self, table: FloatArray, player: int, prev2: int, prev1: int, hand: int
    ) -> dict[int, float]:
        lo_all, hi_all = self._rows(player)
        keys = self.key[lo_all:hi_all]
        first = int(edge_key(player, prev2, prev1, -2))
        lo, hi = np.searchsorted(keys, [first, first + _BASE])
        rows = np.arange(int(lo), int(hi))
        if len(rows) == 0:
            rows = np.nonzero((keys // _BASE) % _BASE == prev1 + 2)[0]
        out: dict[int, float] = {}
        for i in rows:
            if table[i, hand] > 0:
                code = int(keys[i] % _BASE) - 2
                out[code] = out.get(code, 0.0) + float(table[i, hand])
        total = sum(out.values())
        return {c: p / total for c, p in out.items()} if total > 0 else {}

    def probability(self, player: int, prev2: int, prev1: int, action: int, hand: int) -> float:
        """How often ``player`` holding ``hand`` plays ``action`` after those bids."""
        return self.mix(player, prev2, prev1, hand).get(action, 0.0)


def _previous(tree: RoundTree, nodes: IntArray) -> tuple[IntArray, IntArray]:
    """The last two bids on the table at ``nodes`` (``-1`` where there are fewer)."""
    prev1 = tree.last[nodes]
    par = tree.parent[nodes]
    prev2 = np.where(par >= 0, tree.last[np.maximum(par, 0)], -1)
    return prev2, prev1


@dataclass(slots=True)
class _Ties:
    """For one player: the tied moves of the tree, grouped by key."""

    nodes: IntArray  #: the player's tied children, sorted by key
    bounds: IntArray  #: start of each key's run in ``nodes``
    keys: IntArray  #: the distinct keys
    info: IntArray  #: start of each information set's run in ``keys``
    allowed: FloatArray  #: [key, hand] 1.0 if the move is allowed


def _ties(tree: RoundTree, owned: IntArray, player: int, restrict: bool) -> _Ties:
    par = tree.parent[owned]
    tied = owned[tree.child_count[par] > 1]  # a forced move (the cut's dudo) is not tied
    prev2, prev1 = _previous(tree, tree.parent[tied])
    key = edge_key(player, prev2, prev1, tree.action[tied])
    order = np.argsort(key, kind="stable")
    nodes, key = tied[order], key[order]
    bounds = np.concatenate(([0], np.nonzero(np.diff(key))[0] + 1))
    keys = key[bounds]
    info = np.concatenate(([0], np.nonzero(np.diff(keys // _BASE))[0] + 1))
    if restrict:
        allowed = (~wrong_moves(tree, player)[nodes[bounds]]).astype(np.float64)
    else:
        allowed = np.ones((len(keys), len(tree.weights[player])))
    return _Ties(nodes, bounds, keys, info, allowed)


def _normalise(ties: _Ties, positive: FloatArray) -> FloatArray:
    sums = np.add.reduceat(positive, ties.info, axis=0)
    counts = np.diff(np.concatenate((ties.info, [len(ties.keys)])))
    seg = np.repeat(np.arange(len(ties.info)), counts)
    n_allowed = np.add.reduceat(ties.allowed, ties.info, axis=0)[seg]
    uniform = ties.allowed / np.maximum(n_allowed, 1.0)
    total = sums[seg]
    return np.where(total > 0, positive / np.where(total > 0, total, 1.0), uniform)


def _spread(ties: _Ties, table: FloatArray, size: int) -> FloatArray:
    """A [node, hand] behaviour strategy from a [key, hand] table (1.0 elsewhere)."""
    sigma = np.ones((size, table.shape[1]))
    counts = np.diff(np.concatenate((ties.bounds, [len(ties.nodes)])))
    sigma[ties.nodes] = np.repeat(table, counts, axis=0)
    return sigma


@dataclass(frozen=True, slots=True)
class TiedSolution:
    """The solved tables and what they are worth in the cut tree."""

    policy: TiedPolicy
    value: float  #: the opener's value in the cut tree
    exploitability: float  #: in the cut tree (not the real round)


def _run(
    tree: RoundTree,
    loss: tuple[float, float],
    iterations: int,
    tremble: float,
    restrict: tuple[bool, bool],
) -> tuple[_Ties, _Ties, FloatArray, FloatArray]:
    shape = _shape(tree)
    ties = (
        _ties(tree, shape.owned[0], 0, restrict[0]),
        _ties(tree, shape.owned[1], 1, restrict[1]),
    )
    node_allowed = (
        (~wrong_moves(tree, 0)[shape.owned[0]]).astype(np.float64)
        if restrict[0]
        else np.ones((len(shape.owned[0]), len(tree.weights[0]))),
        (~wrong_moves(tree, 1)[shape.owned[1]]).astype(np.float64)
        if restrict[1]
        else np.ones((len(shape.owned[1]), len(tree.weights[1]))),
    )
    regret = [np.zeros_like(t.allowed) for t in ties]
    average = [np.zeros_like(t.allowed) for t in ties]
    table = [_normalise(t, r) for t, r in zip(ties, regret, strict=True)]
    sigma = (_spread(ties[0], table[0], tree.size), _spread(ties[1], table[1], tree.size))
    for it in range(1, iterations + 1):
        for p in (0, 1):
            t = ties[p]
            shaken = _tremble(tree, shape, sigma, tremble, node_allowed)
            reach = _forward(tree, shape, shaken)
            cfv = (np.zeros_like(reach[0]), np.zeros_like(reach[1]))
            _terminal_values(tree, shape, reach, loss, cfv)
            _backward(tree, shape, shaken, cfv)
            par = tree.parent[t.nodes]
            inst = np.add.reduceat(cfv[p][t.nodes] - cfv[p][par], t.bounds, axis=0)
            regret[p] = np.maximum(regret[p] + inst, 0.0) * t.allowed
            weight = np.add.reduceat(reach[p][par], t.bounds, axis=0)
            average[p] += it * weight * table[p]
            table[p] = _normalise(t, regret[p])
            new = _spread(t, table[p], tree.size)
            sigma = (new, sigma[1]) if p == 0 else (sigma[0], new)
    avg = [_normalise(t, a) for t, a in zip(ties, average, strict=True)]
    return ties[0], ties[1], avg[0], avg[1]


def solve_tied(
    a: int,
    b: int,
    loss: tuple[float, float],
    iterations: int,
    *,
    max_bids: int | None,
    tremble: float = 1e-3,
    restricted: bool = True,
) -> TiedSolution:
    """Solve the ``a`` v ``b`` round's tied abstraction on the tree cut after ``max_bids``
    bids (see the module). With ``restricted`` each seat is solved in its own run,
    restricted against an unrestricted opponent, and only its own table kept."""
    tree = build(a, b, max_bids)
    model: tuple[FloatArray, FloatArray] | None = None
    if restricted:
        t0, _, s0, u1 = _run(tree, loss, iterations, tremble, (True, False))
        _, t1, u0, s1 = _run(tree, loss, iterations, tremble, (False, True))
        model = (u0 >= PLAY_FLOOR) * u0, (u1 >= PLAY_FLOOR) * u1
    else:
        t0, t1, s0, s1 = _run(tree, loss, iterations, tremble, (False, False))
    sigma = (_spread(t0, s0, tree.size), _spread(t1, s1, tree.size))
    value, br0, br1 = _evaluate(tree, _shape(tree), sigma, loss)
    keep = (s0 >= PLAY_FLOOR) * s0, (s1 >= PLAY_FLOOR) * s1
    keys = np.concatenate((t0.keys, t1.keys))
    policy = TiedPolicy(a, b, keys, keep, len(t0.keys), model)
    return TiedSolution(policy, value, (br0 + br1) / 2)


def behaviour(policy: TiedPolicy, tree: RoundTree) -> tuple[FloatArray, FloatArray]:
    """``policy`` laid on ``tree`` as behaviour strategies (``sigma[p][child, hand]``, as
    :mod:`bots.perudo_endgame.cfr` uses them; uniform at a key it does not know), so that
    :func:`~bots.perudo_endgame.cfr.evaluate` can measure it exactly on a tree."""
    shape = _shape(tree)
    out = []
    for p in (0, 1):
        own = shape.owned[p]
        prev2, prev1 = _previous(tree, tree.parent[own])
        key = edge_key(p, prev2, prev1, tree.action[own])
        lo, hi = policy._rows(p)
        keys = policy.key[lo:hi]
        at = np.clip(np.searchsorted(keys, key), 0, max(len(keys) - 1, 0))
        found = keys[at] == key if len(keys) else np.zeros(len(own), dtype=bool)
        weight = np.where(found[:, None], policy.prob[p][at], 0.0)
        # a node none of whose moves is known plays uniformly
        out.append(_node_normalise(tree, shape, p, weight))
    return out[0], out[1]


def save(policy: TiedPolicy, path: Path) -> None:
    """Write ``policy`` (probabilities as float32)."""
    arrays: dict[str, npt.NDArray[np.generic]] = {
        "a": np.array(policy.a),
        "b": np.array(policy.b),
        "key": policy.key,
        "prob0": policy.prob[0].astype(np.float32),
        "prob1": policy.prob[1].astype(np.float32),
    }
    if policy.model is not None:
        arrays["model0"] = policy.model[0].astype(np.float32)
        arrays["model1"] = policy.model[1].astype(np.float32)
    np.savez_compressed(path, allow_pickle=False, **arrays)


def load(path: Path) -> TiedPolicy:
    """The policy :func:`save` wrote (a :class:`ValueError` if it is malformed)."""
    with np.load(path) as data:
        a, b = int(data["a"]), int(data["b"])
        key = np.array(data["key"], dtype=np.int64)
        prob = (
            np.array(data["prob0"], dtype=np.float64),
            np.array(data["prob1"], dtype=np.float64),
        )
        model = (
            (np.array(data["model0"], dtype=np.float64), np.array(data["model1"], np.float64))
            if "model0" in data.files
            else None
        )
    start = len(prob[0])
    shapes_ok = (
        len(prob[0]) + len(prob[1]) == len(key)
        and prob[0].shape[1:] == (len(hands(a)[0]),)
        and prob[1].shape[1:] == (len(hands(b)[0]),)
    )
    players_ok = bool(np.all(key[:start] < _BASE**3) and np.all(key[start:] >= _BASE**3))
    if not shapes_ok or not players_ok or np.any(np.diff(key) <= 0) or np.any(prob[0] < 0):
        raise ValueError(f"{path} is not a tied policy")
    if model is not None and (model[0].shape != prob[0].shape or model[1].shape != prob[1].shape):
        raise ValueError(f"{path} is not a tied policy (its model does not fit)")
    return TiedPolicy(a, b, key, prob, start, model)


class TiedOracle:
    """Asks a tied policy directly (no engine, no bot) what it plays, in the shape
    :func:`bots.perudo_endgame.round_exploit.collect` asks a bot, so that the policy's
    exploitability over its support is computed exactly in seconds; the bot that plays
    the policy states the same mix through the engine (a test checks it)."""

    def __init__(self, policy: TiedPolicy) -> None:
        self.policy = policy
        self.queries = 0

    async def ask(
        self, seed: int | None, seat: int, hand: tuple[int, ...], codes: list[int]
    ) -> dict[str, float]:
        """The policy's mix (action text -> probability) after the bids ``codes``."""
        from bots.perudo_endgame.solve import tied_mix
        from bots.perudo_endgame.tree import code_bid

        self.queries += 1
        p = self.policy
        dice = (p.a, p.b)
        mix = tied_mix(
            hand,
            [code_bid(c) for c in codes],
            opener=seat == 0,
            opponent_dice=dice[1 - seat],
            policy=p,
        )
        if mix is None:
            raise ValueError(f"the tied policy has no move after {codes} for {hand}")
        return mix
