"""CFR+ on the tied abstraction's graph: the whole round, folded by its last few bids.

When every move depends only on the mover's hand and the last ``recall`` bids
(:mod:`bots.perudo.endgame.tied`), all the histories that end with the same ``recall``
bids, with the same player to move, are one node of a graph (acyclic: every bid raises
the one before). The two-dice-each round's 16.8 million public histories fold into a few
thousand nodes, *exactly* for such strategies: what follows a history depends only on its
node, so a node's counterfactual value is the sum of its histories' (the opponent's reach
summed over them times the node's value, per pair of hands), and each edge of the graph
is one key of the abstraction, its regret the sum of the tree's over every history of
the key. CFR+ here is therefore the abstraction's CFR+ on the whole, uncut round (the
idea of Neller and Hnath's fixed-strategy iteration CFR for Dudo, 2011), a few
milliseconds to a second an iteration instead of a tree cut after a few bids.

The values are the opener's, ``u[node, opener's hand, responder's hand]``, with the round
ending in a dudo worth ``loss = (L0, L1)`` to the opener when the opener / the responder
lost the die (no calza).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bots.perudo.endgame.tree import (
    DUDO_CODE,
    FloatArray,
    IntArray,
    code_bid,
    hands,
    moves,
    truth_tables,
)
from server.games.perudo_actions import count_matching

#: A bid code (or -1: none, dudo; -2: below every move) offset by 2 is one digit of a key.
BASE = 64
#: The longest window a key holds (the player, the window and the move fit in 63 bits).
MAX_RECALL = 8


def edge_key(player: Any, window: Sequence[Any], action: Any) -> Any:
    """The key of ``player``'s move ``action`` after the bids ``window`` (the last few,
    oldest first, ``-1`` where the round has fewer; codes of
    :func:`~bots.perudo.endgame.tree.bid_code`; ints or arrays)."""
    key = player
    for bid in window:
        key = key * BASE + bid + 2
    return key * BASE + action + 2


@dataclass(frozen=True, slots=True)
class KeyGraph:
    """The round folded by its last ``recall`` bids: nodes (player to move, window), and
    edges (the moves), sorted by :func:`edge_key` so that player 0's edges come first and
    each node's edges are contiguous."""

    a: int  #: the opener's dice
    b: int  #: the responder's dice
    recall: int  #: how many of the last bids a node keeps
    mover: IntArray  #: per node: who moves
    level: IntArray  #: per node: the longest path from the root (the passes' order)
    src: IntArray  #: per edge: the node it leaves
    dst: IntArray  #: per edge: the node it reaches (-1 after a dudo)
    action: IntArray  #: per edge: bid code or DUDO_CODE
    key: IntArray  #: per edge: its key (sorted)
    start: int  #: the first edge of player 1
    table: IntArray  #: per edge: its row of ``ends`` after a dudo (-1 otherwise)
    ends: FloatArray  #: [row, opener's hand, responder's hand]: a dudo's value to the opener

    @property
    def nodes(self) -> int:
        """The number of nodes."""
        return len(self.mover)

    def edges(self, player: int) -> slice:
        """``player``'s edges."""
        return slice(0, self.start) if player == 0 else slice(self.start, len(self.key))


def build_graph(a: int, b: int, recall: int, loss: tuple[float, float]) -> KeyGraph:
    """The graph of the ``a`` v ``b`` round with nodes of the last ``recall`` bids."""
    if not 1 <= recall <= MAX_RECALL:
        raise ValueError(f"recall must be 1 .. {MAX_RECALL}, not {recall}")
    total = a + b
    root = (0, (-1,) * recall)
    index = {root: 0}
    nodes = [root]
    src: list[int] = []
    dst: list[int] = []
    action: list[int] = []
    i = 0
    while i < len(nodes):
        mover, window = nodes[i]
        for code in moves(window[-1], total):
            src.append(i)
            action.append(code)
            if code == DUDO_CODE:
                dst.append(-1)
                continue
            nxt = (1 - mover, (*window[1:], code))
            j = index.setdefault(nxt, len(nodes))
            if j == len(nodes):
                nodes.append(nxt)
            dst.append(j)
        i += 1
    mover_arr = np.array([m for m, _ in nodes], dtype=np.int64)
    windows = np.array([w for _, w in nodes], dtype=np.int64).reshape(len(nodes), recall)
    s, d, act = (np.array(x, dtype=np.int64) for x in (src, dst, action))
    key = edge_key(mover_arr[s], list(windows[s].T), act)
    order = np.argsort(key, kind="stable")
    s, d, act, key = s[order], d[order], act[order], key[order]
    level = _levels(len(nodes), s, d)
    # a dudo's value to the opener: the challenger (the mover) loses a true bid
    truth = truth_tables(a, b)
    last = windows[s, -1]
    rows: dict[tuple[int, int], int] = {}
    table = np.full(len(s), -1, dtype=np.int64)
    ends: list[FloatArray] = []
    for e in np.nonzero(act == DUDO_CODE)[0]:
        pair = (int(last[e]), int(mover_arr[s[e]]))
        if pair not in rows:
            bid, challenger = pair
            t = truth.get(bid)
            true = np.zeros((len(hands(a)[0]), len(hands(b)[0]))) if t is None else t
            rows[pair] = len(ends)
            ends.append(np.where(true > 0, loss[challenger], loss[1 - challenger]))
        table[e] = rows[pair]
    start = int(np.searchsorted(mover_arr[s], 1))
    return KeyGraph(a, b, recall, mover_arr, level, s, d, act, key, start, table, np.array(ends))


def _levels(n: int, src: IntArray, dst: IntArray) -> IntArray:
    """Each node's longest path from the root (Kahn's order; the graph is acyclic)."""
    inner = dst >= 0
    indegree = np.bincount(dst[inner], minlength=n)
    out_order = np.argsort(src, kind="stable")
    first = np.searchsorted(src[out_order], np.arange(n + 1))
    level = np.zeros(n, dtype=np.int64)
    ready = [0]
    while ready:
        node = ready.pop()
        for e in out_order[first[node] : first[node + 1]]:
            child = int(dst[e])
            if child < 0:
                continue
            level[child] = max(level[child], level[node] + 1)
            indegree[child] -= 1
            if indegree[child] == 0:
                ready.append(child)
    if np.any(indegree > 0):
        raise ValueError("the round's graph has a cycle")
    return level


def wrong_edges(graph: KeyGraph, player: int) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """[edge of ``player``, hand]: the move is certainly wrong for that hand (a bid its
    own dice make certainly false, a dudo against a bid they make certainly true)."""
    mine = hands(graph.a if player == 0 else graph.b)[0]
    unseen = graph.b if player == 0 else graph.a
    edges = graph.edges(player)
    act = graph.action[edges]
    # the bid a dudo challenges: the last of the window, the key's second digit from the end
    challenged = (graph.key[edges] // BASE) % BASE - 2
    out = np.zeros((len(act), len(mine)), dtype=bool)
    for code in np.unique(act):
        rows = act == code
        if code == DUDO_CODE:
            for bid_code in np.unique(challenged[rows]):
                bid = code_bid(int(bid_code))
                sure = np.array([count_matching(h, bid, True) >= bid.quantity for h in mine])
                out[rows & (challenged == bid_code)] = sure
            continue
        bid = code_bid(int(code))
        out[rows] = np.array([bid.quantity - count_matching(h, bid, True) > unseen for h in mine])
    return out


@dataclass(frozen=True, slots=True)
class _Level:
    """The edges out of one level's nodes, for the backward pass."""

    edges: IntArray  #: ascending: player 0's edges first, a node's contiguous
    child: IntArray  #: per edge: its row of the values (a node, or a dudo's ``ends`` row)
    split: int  #: how many of ``edges`` are player 0's
    starts: IntArray  #: where each node's run starts in ``edges``
    nodes: IntArray  #: those nodes


@dataclass(frozen=True, slots=True)
class _Passes:
    """The edges each level's passes take."""

    into: list[IntArray]  #: per level: the edges into its nodes, by node (none after a dudo)
    out: list[_Level]  #: per level: the edges out of its nodes
    bounds: tuple[IntArray, IntArray]  #: per player: where each node's run of edges starts
    weights: tuple[FloatArray, FloatArray]  #: the chance of each hand, per player


def _passes(graph: KeyGraph) -> _Passes:
    inner = graph.dst >= 0
    to = np.where(inner, graph.level[np.maximum(graph.dst, 0)], -1)
    frm = graph.level[graph.src]
    top = int(graph.level.max())
    bounds = []
    for p in (0, 1):
        src = graph.src[graph.edges(p)]
        bounds.append(np.concatenate(([0], np.nonzero(np.diff(src))[0] + 1)))
    into = []
    out = []
    row = np.where(inner, graph.dst, graph.nodes + graph.table)
    for lv in range(top + 1):
        edges = np.nonzero(to == lv)[0]
        into.append(edges[np.argsort(graph.dst[edges], kind="stable")])  # by node reached
        edges = np.nonzero(frm == lv)[0]
        src = graph.src[edges]
        starts = np.concatenate(([0], np.nonzero(np.diff(src))[0] + 1))
        split = int(np.searchsorted(edges, graph.start))
        out.append(_Level(edges, row[edges], split, starts, src[starts]))
    return _Passes(
        into,
        out,
        (bounds[0], bounds[1]),
        (hands(graph.a)[1], hands(graph.b)[1]),
    )


def _normalise(positive: FloatArray, allowed: FloatArray, bounds: IntArray) -> FloatArray:
    """A node's moves in proportion to ``positive`` (uniform over the ``allowed`` ones, or
    over all where none is, when a hand's weights are all zero)."""
    counts = np.diff(np.concatenate((bounds, [len(positive)])))
    seg = np.repeat(np.arange(len(bounds)), counts)
    total = np.add.reduceat(positive, bounds, axis=0)[seg]
    n_allowed = np.add.reduceat(allowed, bounds, axis=0)[seg]
    uniform = np.where(n_allowed > 0, allowed / np.maximum(n_allowed, 1.0), 1.0 / counts[seg, None])
    return np.where(total > 0, positive / np.where(total > 0, total, 1.0), uniform)


def _full(graph: KeyGraph, tables: tuple[FloatArray, FloatArray]) -> tuple[FloatArray, FloatArray]:
    """Per player, a factor per edge and hand: its table on its own edges, 1.0 elsewhere."""
    out = []
    for p in (0, 1):
        f = np.ones((len(graph.key), tables[p].shape[1]))
        f[graph.edges(p)] = tables[p]
        out.append(f)
    return out[0], out[1]


def _forward(
    graph: KeyGraph, passes: _Passes, full: tuple[FloatArray, FloatArray]
) -> tuple[FloatArray, FloatArray]:
    """Each player's reach (with the chance of its hand), summed over a node's histories."""
    out = []
    for p in (0, 1):
        reach = np.zeros((graph.nodes, len(passes.weights[p])))
        reach[0] = passes.weights[p]
        for edges in passes.into[1:]:
            if len(edges) == 0:
                continue
            dst = graph.dst[edges]
            starts = np.concatenate(([0], np.nonzero(np.diff(dst))[0] + 1))
            contrib = reach[graph.src[edges]] * full[p][edges]
            reach[dst[starts]] = np.add.reduceat(contrib, starts, axis=0)
        out.append(reach)
    return out[0], out[1]


def _backward(
    graph: KeyGraph,
    passes: _Passes,
    full: tuple[FloatArray, FloatArray],
    reach: tuple[FloatArray, FloatArray] | None = None,
    player: int = 0,
    dtype: type[np.floating[Any]] = np.float64,
) -> tuple[FloatArray, FloatArray | None]:
    """The opener's value ``u[node, h0, h1]``; with ``reach``, also the counterfactual
    value of each of ``player``'s edges per hand (against the other's summed reach).
    ``dtype`` is the values' (float32 halves the memory the passes move)."""
    n = graph.nodes
    u = np.zeros((n + len(graph.ends), len(passes.weights[0]), len(passes.weights[1])), dtype)
    u[n:] = graph.ends  # below the nodes: the value of each kind of dudo
    edge_value = None
    if reach is not None:
        edge_value = np.zeros((len(graph.key), len(passes.weights[player])))
    for level in reversed(passes.out):
        if len(level.edges) == 0:
            continue
        edges, k = level.edges, level.split
        child = u[level.child]
        src = graph.src[edges]
        if reach is not None and edge_value is not None:
            if player == 0:  # the opener's value: plus, against the responder's reach
                edge_value[edges[:k]] = np.einsum("eij,ej->ei", child[:k], reach[1][src[:k]])
            else:
                edge_value[edges[k:]] = -np.einsum("eij,ei->ej", child[k:], reach[0][src[k:]])
        # each move weighed by its mover's
        child[:k] *= full[0][edges[:k]][:, :, None].astype(dtype, copy=False)
        child[k:] *= full[1][edges[k:]][:, None, :].astype(dtype, copy=False)
        flat = child.reshape(len(edges), -1)  # reduceat runs faster over rows
        u[level.nodes] = np.add.reduceat(flat, level.starts, axis=0).reshape(-1, *u.shape[1:])
    return u[:n], edge_value


def opener_value(graph: KeyGraph, tables: tuple[FloatArray, FloatArray]) -> float:
    """The opener's value when both play ``tables`` (per player: [own edge, hand])."""
    passes = _passes(graph)
    u, _ = _backward(graph, passes, _full(graph, tables))
    return float(passes.weights[0] @ u[0] @ passes.weights[1])


def solve_graph(
    graph: KeyGraph,
    iterations: int,
    tremble: float = 1e-3,
    restrict: tuple[bool, bool] = (False, False),
    dtype: type[np.floating[Any]] = np.float64,
) -> tuple[FloatArray, FloatArray]:
    """CFR+ (regret matching+, alternating updates, linear averaging) on ``graph``: the
    average tables, per player [own edge, hand]. A player in ``restrict`` never plays a
    move its own dice prove wrong (:func:`wrong_edges`); with ``tremble`` every allowed
    move keeps about that probability while values are computed (see
    :func:`bots.perudo.endgame.cfr.solve`). ``dtype`` is the values' in the passes
    (float32: some 20% faster and half the memory; the tables stay float64)."""
    passes = _passes(graph)
    allowed = tuple(
        (~wrong_edges(graph, p)).astype(np.float64)
        if restrict[p]
        else np.ones((len(graph.key[graph.edges(p)]), len(passes.weights[p])))
        for p in (0, 1)
    )
    regret = [np.zeros_like(allowed[0]), np.zeros_like(allowed[1])]
    average = [np.zeros_like(allowed[0]), np.zeros_like(allowed[1])]
    spread = [_normalise(np.zeros_like(m), m, passes.bounds[p]) for p, m in enumerate(allowed)]
    table = [spread[0], spread[1]]
    for it in range(1, iterations + 1):
        for p in (0, 1):
            shaken = [(1 - tremble) * table[q] + tremble * spread[q] for q in (0, 1)]
            full = _full(graph, (shaken[0], shaken[1]))
            reach = _forward(graph, passes, full)
            u, edge_value = _backward(graph, passes, full, reach, p, dtype)
            assert edge_value is not None
            mine = graph.edges(p)
            src = graph.src[mine]
            if p == 0:
                node_value = np.einsum("nij,nj->ni", u, reach[1])
            else:
                node_value = -np.einsum("nij,ni->nj", u, reach[0])
            inst = edge_value[mine] - node_value[src]
            regret[p] = np.maximum(regret[p] + inst, 0.0) * allowed[p]
            average[p] += it * reach[p][src] * table[p]
            table[p] = _normalise(regret[p], allowed[p], passes.bounds[p])
    return (
        _normalise(average[0], allowed[0], passes.bounds[0]),
        _normalise(average[1], allowed[1], passes.bounds[1]),
    )


def keyed_value(
    a: int, b: int, recall: int, key: IntArray, prob: tuple[FloatArray, FloatArray]
) -> float:
    """The opener's value (the round alone: -1 / +1 for the die) when both play the tied
    tables ``prob`` (per player: [its rows of ``key``, hand], as a shipped
    :class:`~bots.perudo.endgame.tied.TiedPolicy` keeps them: only the keys some hand
    plays), each node's moves renormalised."""
    graph = build_graph(a, b, recall, (-1.0, 1.0))
    passes = _passes(graph)
    start = int(np.searchsorted(key, graph.key[graph.start]))
    rows = ((0, start), (start, len(key)))
    tables = []
    for p in (0, 1):
        lo, hi = rows[p]
        mine = graph.key[graph.edges(p)]
        at = np.searchsorted(mine, key[lo:hi])
        if np.any(at >= len(mine)) or not np.array_equal(
            mine[np.minimum(at, len(mine) - 1)], key[lo:hi]
        ):
            raise ValueError("the tables' keys are not the round's")
        full = np.zeros((len(mine), prob[p].shape[1]))
        full[at] = prob[p]
        tables.append(_normalise(full, np.ones_like(full), passes.bounds[p]))
    return opener_value(graph, (tables[0], tables[1]))
