"""The tied abstraction's graph (``tied_cfr.py``): the whole round folded by its last
bids, exact for strategies that depend on those bids only."""

from __future__ import annotations

import numpy as np
import pytest

from bots.perudo.endgame.cfr import evaluate
from bots.perudo.endgame.tied import TiedPolicy, behaviour, window
from bots.perudo.endgame.tied_cfr import (
    BASE,
    KeyGraph,
    build_graph,
    edge_key,
    opener_value,
    solve_graph,
    wrong_edges,
)
from bots.perudo.endgame.tree import DUDO_CODE, build, code_bid, hands, moves
from server.games.perudo_actions import count_matching


@pytest.mark.parametrize(("a", "b", "recall"), [(1, 1, 1), (1, 1, 2), (2, 2, 2), (2, 2, 3)])
def test_the_graph_is_acyclic_sorted_and_offers_the_rounds_moves(
    a: int, b: int, recall: int
) -> None:
    graph = build_graph(a, b, recall, (-1.0, 1.0))
    inner = graph.dst >= 0
    # every move leads further from the root: the passes' order is sound
    assert np.all(graph.level[graph.dst[inner]] > graph.level[graph.src[inner]])
    # keys sorted, player 0's first, one node's edges contiguous, the mover alternates
    assert np.all(np.diff(graph.key) > 0)
    assert np.all(graph.mover[graph.src[: graph.start]] == 0)
    assert np.all(graph.mover[graph.src[graph.start :]] == 1)
    runs = np.concatenate(([0], np.nonzero(np.diff(graph.src))[0] + 1))
    assert len(runs) == len(np.unique(graph.src)) == graph.nodes
    assert np.all(graph.mover[graph.dst[inner]] == 1 - graph.mover[graph.src[inner]])
    # a node's moves are the round's after its last bid (the key's digits say which)
    for start, end in zip(runs, [*runs[1:], len(graph.key)], strict=True):
        last = int(graph.key[start] // BASE % BASE) - 2
        assert tuple(graph.action[start:end]) == tuple(sorted(moves(last, a + b)))
    # a dudo ends it, and only a dudo
    assert np.all((graph.dst < 0) == (graph.action == DUDO_CODE))


def _random_tables(graph: KeyGraph, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for p in (0, 1):
        edges = graph.edges(p)
        raw = rng.random((len(graph.key[edges]), len(hands(graph.a if p == 0 else graph.b)[0])))
        src = graph.src[edges]
        bounds = np.concatenate(([0], np.nonzero(np.diff(src))[0] + 1))
        sums = np.add.reduceat(raw, bounds, axis=0)
        out.append(raw / np.repeat(sums, np.diff(np.concatenate((bounds, [len(src)]))), axis=0))
    return out[0], out[1]


@pytest.mark.parametrize("recall", [1, 2, 3])
def test_the_graph_values_a_tied_strategy_exactly_as_the_whole_tree_does(recall: int) -> None:
    # the folding is exact: the graph's value of random tied strategies equals the
    # value of the same strategies laid on every history of the round
    graph = build_graph(1, 1, recall, (-1.0, 1.0))
    tree = build(1, 1)
    for seed in (1, 2):
        tables = _random_tables(graph, seed)
        policy = TiedPolicy(1, 1, graph.key, tables, graph.start, None, recall)
        value, _, _ = evaluate(tree, behaviour(policy, tree), (-1.0, 1.0))
        assert opener_value(graph, tables) == pytest.approx(value, abs=1e-9)


def test_a_window_keeps_the_last_bids_padded_at_the_start() -> None:
    assert window([], 2) == (-1, -1)
    assert window([5], 3) == (-1, -1, 5)
    assert window([1, 2, 3, 4], 2) == (3, 4)
    assert edge_key(1, (-1, 5), DUDO_CODE) == ((1 * BASE + 1) * BASE + 7) * BASE + 1
    with pytest.raises(ValueError, match="recall"):
        build_graph(1, 1, 9, (-1.0, 1.0))


def test_wrong_edges_are_the_moves_the_hand_proves_wrong() -> None:
    graph = build_graph(2, 2, 2, (-1.0, 1.0))
    mine = hands(2)[0]
    for p in (0, 1):
        wrong = wrong_edges(graph, p)
        edges = np.arange(len(graph.key))[graph.edges(p)]
        for row in range(0, len(edges), 97):
            e = int(edges[row])
            code = int(graph.action[e])
            for h, hand in enumerate(mine):
                if code == DUDO_CODE:
                    bid = code_bid(int(graph.key[e] // BASE % BASE) - 2)
                    expected = count_matching(hand, bid, True) >= bid.quantity
                else:
                    bid = code_bid(code)
                    expected = bid.quantity - count_matching(hand, bid, True) > 2
                assert wrong[row, h] == expected


def test_cfr_on_the_graph_of_the_last_bet_finds_its_equilibrium() -> None:
    graph = build_graph(1, 1, 3, (-1.0, 1.0))
    tables = solve_graph(graph, 80)
    # the one-die round's value to the opener is about -0.0556
    assert opener_value(graph, tables) == pytest.approx(-0.0556, abs=0.005)
    # laid on the whole tree it is close to an equilibrium (0.001 after 200 iterations)
    tree = build(1, 1)
    policy = TiedPolicy(1, 1, graph.key, tables, graph.start, None, 3)
    _, br0, br1 = evaluate(tree, behaviour(policy, tree), (-1.0, 1.0))
    assert (br0 + br1) / 2 < 0.01
    # a restricted player never makes a move its die proves wrong
    restricted = solve_graph(graph, 20, restrict=(True, False))
    assert float(np.max(np.where(wrong_edges(graph, 0), restricted[0], 0.0))) == 0.0


def test_the_float32_passes_solve_as_well_as_the_float64_ones() -> None:
    # the values' float32 passes (the shipped 2 v 2 solve's, to halve what they move):
    # CFR+ amplifies rounding, so the tables differ a little (0.001 here), but they are
    # as good: the same value and, laid on the whole tree, the same exploitability
    graph = build_graph(1, 1, 3, (-1.0, 1.0))
    tree = build(1, 1)
    found = []
    for dtype in (np.float64, np.float32):
        tables = solve_graph(graph, 40, dtype=dtype)
        assert tables[0].dtype == np.float64
        policy = TiedPolicy(1, 1, graph.key, tables, graph.start, None, 3)
        _, br0, br1 = evaluate(tree, behaviour(policy, tree), (-1.0, 1.0))
        found.append((opener_value(graph, tables), (br0 + br1) / 2))
    assert found[1][0] == pytest.approx(found[0][0], abs=1e-4)
    assert found[1][1] == pytest.approx(found[0][1], abs=5e-4)
    assert found[1][1] < 0.02
