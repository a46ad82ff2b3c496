"""The public tree of one heads-up Perudo round, as flat arrays for the solver.

A round between the *opener* (player 0, holding ``a`` dice) and the *responder* (player
1, holding ``b`` dice) is the sequence of bids each player makes in turn until one calls
dudo. Every node is a public history: the bids so far. The players' private hands are
not in the tree; the solver keeps one value per hand at each node, so an information set
is exactly (node, hand): perfect recall, nothing merged.

The actions are the engine's (``server.games.perudo_actions.raises``), outside palifico
(with two players left palifico never applies), without calza unless ``build(...,
calza=True)``: then a calza (:data:`CALZA_CODE`) ends the round after any bid, like a
dudo, and is decided by the bid's *exact* count (:attr:`RoundTree.exact`). Bids naming more dice
than the ``a + b`` on the table are left out: they are legal (the engine's cap is the
game's starting dice) but certainly false, so a dudo wins against them for sure; the
solver never needs them and a best response answers them with that dudo.

Nodes are numbered breadth first, so each depth is a contiguous range and the children
of a node are contiguous, in the order of their parents.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

import numpy as np
import numpy.typing as npt

from server.games.perudo_actions import BIDS, FACES, Bid, count_matching, raises

#: The action code of a dudo (bids are coded by :func:`bid_code`).
DUDO_CODE = -1
#: No action: the root.
ROOT_CODE = -2
#: The action code of a calza (only in a tree built with ``calza=True``).
CALZA_CODE = -3

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def bid_code(bid: Bid) -> int:
    """A bid as a small integer: ``6 * (quantity - 1) + face - 1``."""
    return 6 * (bid.quantity - 1) + bid.face - 1


def code_bid(code: int) -> Bid:
    """The bid of :func:`bid_code`."""
    return BIDS[code // 6 + 1][code % 6 + 1]


def hands(k: int) -> tuple[list[tuple[int, ...]], FloatArray]:
    """Every sorted hand of ``k`` dice and its chance (multinomial over 6**k rolls)."""
    out = list(combinations_with_replacement(FACES, k))
    weights = []
    for hand in out:
        ways = factorial(k)
        for face in FACES:
            ways //= factorial(hand.count(face))
        weights.append(ways / 6**k)
    return out, np.array(weights)


def truth_tables(a: int, b: int) -> dict[int, FloatArray]:
    """For every bid of at most ``a + b`` dice: 1.0 where it is true, by [opener's hand,
    responder's hand] (hands in the order of :func:`hands`)."""
    return _bid_tables(a, b, operator.ge)


def exact_tables(a: int, b: int) -> dict[int, FloatArray]:
    """As :func:`truth_tables`, 1.0 where the bid's count is *exactly* its quantity (a
    calza wins)."""
    return _bid_tables(a, b, operator.eq)


def _bid_tables(a: int, b: int, hit: Callable[[int, int], bool]) -> dict[int, FloatArray]:
    """For every bid of at most ``a + b`` dice: 1.0 where ``hit(count, quantity)``."""
    hands0, _ = hands(a)
    hands1, _ = hands(b)
    tables: dict[int, FloatArray] = {}
    for q in range(1, a + b + 1):
        for f in FACES:
            bid = BIDS[q][f]
            tables[bid_code(bid)] = np.array(
                [
                    [float(hit(count_matching(h0 + h1, bid, True), bid.quantity)) for h1 in hands1]
                    for h0 in hands0
                ]
            )
    return tables


@cache
def moves(last: int, total: int) -> tuple[int, ...]:
    """The moves after the bid ``last`` (-1: the opening) in a round of ``total`` dice:
    raises of at most ``total`` dice, then dudo (none at the opening); a bid of more
    dice than ``total`` is answered by dudo alone."""
    if last < 0:
        return tuple(bid_code(BIDS[q][f]) for q in range(1, total + 1) for f in range(2, 7))
    if code_bid(last).quantity > total:
        return (DUDO_CODE,)
    return (*(bid_code(r) for r in raises(code_bid(last), total)), DUDO_CODE)


@dataclass(frozen=True, slots=True)
class RoundTree:
    """The arrays of one round's public tree (see the module docstring)."""

    a: int  #: the opener's dice
    b: int  #: the responder's dice
    action: IntArray  #: the action leading to each node (bid code, DUDO_CODE, ROOT_CODE)
    parent: IntArray  #: each node's parent (-1 for the root)
    actor: IntArray  #: who acts at each node: 0, 1, or -1 at a terminal (a dudo, a calza)
    last: IntArray  #: the bid code on the table at each node (-1 at the root)
    child_start: IntArray  #: first child of each node (its number of children is below)
    child_count: IntArray
    depth_start: IntArray  #: node range of each depth: depth_start[d] .. depth_start[d+1]
    hands: tuple[list[tuple[int, ...]], list[tuple[int, ...]]]
    weights: tuple[FloatArray, FloatArray]
    truth: dict[int, FloatArray]  #: bid code -> [opener hand, responder hand] 1.0 if true
    calza: bool = False  #: a calza may end the round after any bid
    #: bid code -> [opener hand, responder hand] 1.0 if the count is exact (with calza)
    exact: dict[int, FloatArray] = field(default_factory=dict)

    @property
    def size(self) -> int:
        """The number of nodes."""
        return len(self.action)

    def child(self, node: int, code: int) -> int | None:
        """The child of ``node`` reached by action ``code``, or ``None`` if it is not there."""
        start = int(self.child_start[node])
        for c in range(start, start + int(self.child_count[node])):
            if int(self.action[c]) == code:
                return c
        return None

    def children(self, node: int) -> range:
        """The children of ``node``."""
        start = int(self.child_start[node])
        return range(start, start + int(self.child_count[node]))

    def walk(self, codes: Sequence[int]) -> int | None:
        """The node reached by these actions from the root, or ``None``."""
        node = 0
        for code in codes:
            nxt = self.child(node, code)
            if nxt is None:
                return None
            node = nxt
        return node


def build(a: int, b: int, *, calza: bool = False) -> RoundTree:
    """The public tree of a round: the opener holds ``a`` dice, the responder ``b``;
    with ``calza`` a calza (the last child of every node after a bid) may end it."""
    total = a + b
    opening = [bid_code(BIDS[q][f]) for q in range(1, total + 1) for f in range(2, 7)]
    after: dict[int, list[int]] = {}
    for q in range(1, total + 1):
        for f in FACES:
            bid = BIDS[q][f]
            after[bid_code(bid)] = [bid_code(r) for r in raises(bid, total)]
    action = [ROOT_CODE]
    parent = [-1]
    actor = [0]
    last = [-1]
    child_start = [0]
    child_count = [0]
    depth_start = [0]
    frontier = [0]
    while frontier:
        depth_start.append(len(action))
        nxt: list[int] = []
        for node in frontier:
            child_start[node] = len(action)
            mover = actor[node]
            codes = opening if last[node] < 0 else [*after[last[node]], DUDO_CODE]
            if calza and last[node] >= 0:
                codes = [*codes, CALZA_CODE]
            for code in codes:
                action.append(code)
                parent.append(node)
                child_start.append(0)
                child_count.append(0)
                if code in (DUDO_CODE, CALZA_CODE):
                    actor.append(-1)
                    last.append(last[node])
                else:
                    actor.append(1 - mover)
                    last.append(code)
                    nxt.append(len(action) - 1)
            child_count[node] = len(codes)
        frontier = nxt
    # close the deepest level (the last dudo or calza): without this end its node range
    # was open, so no pass visited it and a reach there was uninitialised memory
    depth_start.append(len(action))
    hands0, w0 = hands(a)
    hands1, w1 = hands(b)
    truth = truth_tables(a, b)
    arr = np.array
    return RoundTree(
        a,
        b,
        arr(action, dtype=np.int64),
        arr(parent, dtype=np.int64),
        arr(actor, dtype=np.int64),
        arr(last, dtype=np.int64),
        arr(child_start, dtype=np.int64),
        arr(child_count, dtype=np.int64),
        arr(depth_start, dtype=np.int64),
        (hands0, hands1),
        (w0, w1),
        truth,
        calza,
        exact_tables(a, b) if calza else {},
    )
