"""An abstraction of a round too big to solve exactly: strategies tied by the last bids.

The two-dice-each round has 16.8 million public histories (x 21 hands a side): beyond
:mod:`bots.perudo.endgame.cfr`. Here a player's move depends only on its hand and the
*last* ``recall`` *bids* (a window, oldest first, ``-1`` where the round has fewer), not
on the whole history: some thousands of (key, move) pairs a side. The strategies are
solved by CFR+ on the round folded by those windows (:mod:`bots.perudo.endgame.tied_cfr`:
the whole round, however long, exactly for such strategies), each key's regrets the sum
over every history that ends with its window (an imperfect-recall abstraction: no
guarantee of convergence, measured). As a key names only the last bids, the result
answers *every* history of the real round.

Each player's strategy is solved *restricted* against an unrestricted opponent (never a
bid its own dice make certainly false, never a dudo that cannot win), one solve per seat,
as :func:`bots.perudo.endgame.solve.restricted` does for the exact rounds. This is not an
equilibrium of the real round: what a best response gains against it is measured exactly
by :mod:`bots.perudo.endgame.round_exploit` (``docs/perudo_endgame.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bots.perudo.endgame.cfr import normalise as node_normalise
from bots.perudo.endgame.cfr import tree_shape
from bots.perudo.endgame.policy import PLAY_FLOOR
from bots.perudo.endgame.tied_cfr import (
    BASE,
    MAX_RECALL,
    build_graph,
    edge_key,
    opener_value,
    solve_graph,
)
from bots.perudo.endgame.tree import FloatArray, IntArray, RoundTree, hands

#: The window of the shipped files before ``recall`` was saved.
DEFAULT_RECALL = 2


def window(codes: Sequence[int], recall: int) -> tuple[int, ...]:
    """The last ``recall`` of the bid codes ``codes``, oldest first, padded with ``-1``."""
    last = tuple(codes[-recall:]) if recall else ()
    return (-1,) * (recall - len(last)) + last


@dataclass(frozen=True, slots=True)
class TiedPolicy:
    """A tied strategy of both players: ``prob[p][i, hand]`` for the move of ``key[i]``
    (player ``p``'s rows: :meth:`rows`)."""

    a: int  #: the opener's dice
    b: int  #: the responder's dice
    key: IntArray  #: sorted :func:`~bots.perudo.endgame.tied_cfr.edge_key` values
    prob: tuple[FloatArray, FloatArray]  #: per player: [its keys, its hands]
    start: int  #: the first key of player 1 (player 0's keys come first)
    #: per player, as ``prob``: the unrestricted strategy the *other* seat's table was
    #: solved against (what that seat's beliefs assume); ``None`` when not kept
    model: tuple[FloatArray, FloatArray] | None = None
    recall: int = DEFAULT_RECALL  #: how many of the last bids a key names
    iterations: int = 0  #: the CFR+ iterations per seat it was solved with (0: not kept)

    def rows(self, player: int) -> tuple[int, int]:
        """The range of ``player``'s keys."""
        return (0, self.start) if player == 0 else (self.start, len(self.key))

    def mix(self, player: int, codes: Sequence[int], hand: int) -> dict[int, float]:
        """Action code -> probability for ``player`` holding hand number ``hand`` after
        the round's bids ``codes`` (all of them; the key takes the last ones). A window
        the solved graph never gave this player gets the mean of its mixes after the
        last bid (empty if there are none)."""
        return self._mix(self.prob[player], player, codes, hand)

    def model_probability(self, player: int, codes: Sequence[int], action: int, hand: int) -> float:
        """How often the other seat's table assumes ``player`` plays ``action`` after the
        bids ``codes`` (:attr:`model`; the played table when no model was kept)."""
        table = self.prob[player] if self.model is None else self.model[player]
        return self._mix(table, player, codes, hand).get(action, 0.0)

    def probability(self, player: int, codes: Sequence[int], action: int, hand: int) -> float:
        """How often ``player`` holding ``hand`` plays ``action`` after those bids."""
        return self.mix(player, codes, hand).get(action, 0.0)

    def _mix(
        self, table: FloatArray, player: int, codes: Sequence[int], hand: int
    ) -> dict[int, float]:
        lo_all, hi_all = self.rows(player)
        keys = self.key[lo_all:hi_all]
        first = int(edge_key(player, window(codes, self.recall), -2))
        lo, hi = np.searchsorted(keys, [first, first + BASE])
        rows = np.arange(int(lo), int(hi))
        if len(rows) == 0:
            prev1 = codes[-1] if codes else -1
            rows = np.nonzero((keys // BASE) % BASE == prev1 + 2)[0]
        out: dict[int, float] = {}
        for i in rows:
            if table[i, hand] > 0:
                code = int(keys[i] % BASE) - 2
                out[code] = out.get(code, 0.0) + float(table[i, hand])
        total = sum(out.values())
        return {c: p / total for c, p in out.items()} if total > 0 else {}


@dataclass(frozen=True, slots=True)
class TiedSolution:
    """The solved tables, and the opener's value when both play them (the abstraction's
    value; what a perfect-recall best response gains is measured apart)."""

    policy: TiedPolicy
    value: float


def solve_tied(
    a: int,
    b: int,
    loss: tuple[float, float],
    iterations: int,
    *,
    recall: int = DEFAULT_RECALL,
    tremble: float = 1e-3,
    restricted: bool = True,
    dtype: type[np.floating[Any]] = np.float64,
) -> TiedSolution:
    """Solve the ``a`` v ``b`` round's tied abstraction with windows of ``recall`` bids
    (see the module). With ``restricted`` each seat is solved in its own run, restricted
    against an unrestricted opponent, and only its own table kept; moves below
    :data:`~bots.perudo.endgame.policy.PLAY_FLOOR` are dropped. ``dtype`` is the
    passes' values' (:func:`~bots.perudo.endgame.tied_cfr.solve_graph`)."""
    graph = build_graph(a, b, recall, loss)
    model: tuple[FloatArray, FloatArray] | None = None
    if restricted:
        s0, u1 = solve_graph(graph, iterations, tremble, (True, False), dtype)
        u0, s1 = solve_graph(graph, iterations, tremble, (False, True), dtype)
        model = (u0 >= PLAY_FLOOR) * u0, (u1 >= PLAY_FLOOR) * u1
    else:
        s0, s1 = solve_graph(graph, iterations, tremble, dtype=dtype)
    value = opener_value(graph, (s0, s1))
    keep = (s0 >= PLAY_FLOOR) * s0, (s1 >= PLAY_FLOOR) * s1
    policy = TiedPolicy(a, b, graph.key, keep, graph.start, model, recall, iterations)
    return TiedSolution(policy, value)


def _windows(tree: RoundTree, nodes: IntArray, recall: int) -> list[IntArray]:
    """The last ``recall`` bids on the table at ``nodes``, oldest first (``-1`` where
    there are fewer)."""
    out = []
    cur = nodes
    for _ in range(recall):
        out.append(np.where(cur >= 0, tree.last[np.maximum(cur, 0)], -1))
        cur = np.where(cur >= 0, tree.parent[np.maximum(cur, 0)], -1)
    return out[::-1]


def behaviour(policy: TiedPolicy, tree: RoundTree) -> tuple[FloatArray, FloatArray]:
    """``policy`` laid on ``tree`` as behaviour strategies (``sigma[p][child, hand]``, as
    :mod:`bots.perudo.endgame.cfr` uses them; uniform at a key it does not know), so that
    :func:`~bots.perudo.endgame.cfr.evaluate` can measure it exactly on a tree."""
    shape = tree_shape(tree)
    out = []
    for p in (0, 1):
        own = shape.owned[p]
        key = edge_key(p, _windows(tree, tree.parent[own], policy.recall), tree.action[own])
        lo, hi = policy.rows(p)
        keys = policy.key[lo:hi]
        at = np.clip(np.searchsorted(keys, key), 0, max(len(keys) - 1, 0))
        found = keys[at] == key if len(keys) else np.zeros(len(own), dtype=bool)
        weight = np.where(found[:, None], policy.prob[p][at], 0.0)
        # a node none of whose moves is known plays uniformly
        out.append(node_normalise(tree, shape, p, weight))
    return out[0], out[1]


#: Probabilities are saved as multiples of 1 / SCALE (uint16).
SCALE = 65535


def _quantised(table: FloatArray) -> npt.NDArray[np.uint16]:
    return np.round(np.clip(table, 0.0, 1.0) * SCALE).astype(np.uint16)


def save(policy: TiedPolicy, path: Path) -> None:
    """Write ``policy``: probabilities quantised to 1/65535, and only the moves some hand
    plays (in its table or its model)."""
    tables = [policy.prob[0], policy.prob[1]]
    if policy.model is not None:
        tables += [policy.model[0], policy.model[1]]
    played = np.zeros(len(policy.key), dtype=bool)
    for p in (0, 1):
        lo, hi = policy.rows(p)
        for table in tables[p::2]:
            played[lo:hi] |= np.any(_quantised(table) > 0, axis=1)
    zero = played[: policy.start]
    arrays: dict[str, npt.NDArray[np.generic]] = {
        "a": np.array(policy.a),
        "b": np.array(policy.b),
        "recall": np.array(policy.recall),
        "iterations": np.array(policy.iterations),
        "key": policy.key[played],
        "prob0": _quantised(policy.prob[0][zero]),
        "prob1": _quantised(policy.prob[1][played[policy.start :]]),
    }
    if policy.model is not None:
        arrays["model0"] = _quantised(policy.model[0][zero])
        arrays["model1"] = _quantised(policy.model[1][played[policy.start :]])
    np.savez_compressed(path, allow_pickle=False, **arrays)


def _table(array: npt.NDArray[np.generic]) -> FloatArray:
    """A saved table as probabilities (quantised, or float32 before 2026-11-26)."""
    out = np.array(array, dtype=np.float64)
    return out / SCALE if array.dtype == np.uint16 else out


def load(path: Path) -> TiedPolicy:
    """The policy :func:`save` wrote (a :class:`ValueError` if it is malformed)."""
    with np.load(path) as data:
        a, b = int(data["a"]), int(data["b"])
        recall = int(data["recall"]) if "recall" in data.files else DEFAULT_RECALL
        iterations = int(data["iterations"]) if "iterations" in data.files else 0
        key = np.array(data["key"], dtype=np.int64)
        prob = (_table(data["prob0"]), _table(data["prob1"]))
        model = (_table(data["model0"]), _table(data["model1"])) if "model0" in data.files else None
    start = len(prob[0])
    shapes_ok = (
        1 <= recall <= MAX_RECALL
        and len(prob[0]) + len(prob[1]) == len(key)
        and prob[0].shape[1:] == (len(hands(a)[0]),)
        and prob[1].shape[1:] == (len(hands(b)[0]),)
    )
    player = key // BASE ** (recall + 1)
    players_ok = bool(np.all(player[:start] == 0) and np.all(player[start:] == 1))
    if not shapes_ok or not players_ok or np.any(np.diff(key) <= 0) or np.any(prob[0] < 0):
        raise ValueError(f"{path} is not a tied policy")
    if model is not None and (model[0].shape != prob[0].shape or model[1].shape != prob[1].shape):
        raise ValueError(f"{path} is not a tied policy (its model does not fit)")
    return TiedPolicy(a, b, key, prob, start, model, recall, iterations)


class TiedOracle:
    """Asks a tied policy directly (no engine, no bot) what it plays, in the shape
    :func:`bots.perudo.endgame.round_exploit.collect` asks a bot, so that the policy's
    exploitability over its support is computed exactly in seconds; the bot that plays
    the policy states the same mix through the engine (a test checks it)."""

    def __init__(self, policy: TiedPolicy) -> None:
        self.policy = policy
        self.queries = 0

    async def ask(
        self, seed: int | None, seat: int, hand: tuple[int, ...], codes: list[int]
    ) -> dict[str, float]:
        """The policy's mix (action text -> probability) after the bids ``codes``."""
        from bots.perudo.endgame.solve import tied_mix
        from bots.perudo.endgame.tree import code_bid

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
