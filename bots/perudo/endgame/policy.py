"""A solved round's played policy, kept sparse: only the moves a player actually plays.

A :class:`Policy` answers "what does ``player`` holding hand ``h`` play at ``node``?" with
the moves of the equilibrium at or above :data:`PLAY_FLOOR`, less any move the hand
proves wrong (a bid certainly false, a dudo against a bid certainly true), normalised.
:func:`played_policy` keeps, for each hand, only the nodes the player can reach by its
own played moves whatever the opponent does: every position the player can meet in a
game, and nothing else. Entries are sorted arrays looked up with ``searchsorted``, so a
policy of the one-die-against-two rounds fits in a few megabytes of memory and ships as
a small file (:func:`save`, :func:`load`, probabilities quantised to 1/65535).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bots.perudo.endgame.cfr import Solution, Values
from bots.perudo.endgame.tree import (
    CALZA_CODE,
    DUDO_CODE,
    FloatArray,
    IntArray,
    RoundTree,
    code_bid,
)
from server.games.perudo_actions import count_matching

#: Mixed actions below this probability are dropped when playing (CFR+ residue).
PLAY_FLOOR = 1e-3
_SCALE = 65535


@dataclass(frozen=True, slots=True)
class Policy:
    """The played moves of both players of a round, sorted by (player, node, hand)."""

    tree: RoundTree
    key: IntArray  #: (player * tree.size + node) * 64 + hand, sorted
    child: IntArray  #: the move's child node
    prob: FloatArray  #: its probability (the entries of one key sum to 1)
    value: float = 0.0  #: the opener's value under the solution it was taken from

    def mix(self, player: int, node: int, hand: int) -> list[tuple[int, float]]:
        """The (child, probability) moves of ``player`` holding hand number ``hand`` at
        ``node`` (empty when the player never gets there with that hand)."""
        k = (player * self.tree.size + node) * 64 + hand
        lo, hi = np.searchsorted(self.key, [k, k + 1])
        return [(int(self.child[i]), float(self.prob[i])) for i in range(lo, hi)]

    def move_probability(self, player: int, node: int, hand: int, child: int) -> float:
        """How often ``player`` holding ``hand`` plays ``child`` at ``node`` (0 if never)."""
        return dict(self.mix(player, node, hand)).get(child, 0.0)


def wrong_moves(tree: RoundTree, player: int) -> npt.NDArray[np.bool_]:
    """[node, hand]: the move into ``node`` is certainly wrong for ``player``'s hand (a
    bid certainly false, a dudo against a bid certainly true, a calza whose count cannot
    be exact)."""
    unseen = tree.b if player == 0 else tree.a
    hands = tree.hands[player]
    out = np.zeros((tree.size, len(hands)), dtype=bool)
    codes = tree.action
    for code in np.unique(codes[codes >= 0]):
        bid = code_bid(int(code))
        own = np.array([count_matching(h, bid, True) for h in hands])
        out[codes == code] = (bid.quantity - own > unseen)[None, :]
    dudo = np.nonzero(codes == DUDO_CODE)[0]
    for code in np.unique(tree.last[dudo]):
        bid = code_bid(int(code))
        own = np.array([count_matching(h, bid, True) >= bid.quantity for h in hands])
        rows = dudo[tree.last[dudo] == code]
        out[rows] = own[None, :]
    calza = np.nonzero(codes == CALZA_CODE)[0]
    for code in np.unique(tree.last[calza]):
        bid = code_bid(int(code))
        mine = np.array([count_matching(h, bid, True) for h in hands])
        cannot = (mine > bid.quantity) | (mine + unseen < bid.quantity)
        out[calza[tree.last[calza] == code]] = cannot[None, :]
    return out


def played_policy(solution: Solution, *, reachable_only: bool = True) -> Policy:
    """The moves ``solution`` plays (see the module), for both players; with
    ``reachable_only`` only at the nodes a player reaches by its own moves."""
    tree = solution.tree
    keys: list[IntArray] = []
    children: list[IntArray] = []
    probs: list[FloatArray] = []
    parent = tree.parent
    for p in (0, 1):
        sigma = solution.sigma[p]
        keep = (sigma >= PLAY_FLOOR) & ~wrong_moves(tree, p)
        keep[0] = False
        mine = np.zeros(tree.size, dtype=bool)
        mine[1:] = tree.actor[parent[1:]] == p
        keep &= mine[:, None]
        # a node whose every move is dropped plays dudo (or, at the opening, its mix)
        weight = np.where(keep, sigma, 0.0)
        total = np.zeros((tree.size, weight.shape[1]))
        np.add.at(total, parent[1:], weight[1:])
        reach = np.ones((tree.size, weight.shape[1]), dtype=bool)
        if reachable_only:
            for d in range(1, len(tree.depth_start) - 1):
                lv = np.arange(tree.depth_start[d], tree.depth_start[d + 1])
                par = parent[lv]
                reach[lv] = reach[par] & np.where(mine[lv, None], keep[lv], True)
        at = np.nonzero(mine[:, None] & reach[parent] & keep)
        kids, hs = at
        par = parent[kids]
        norm = total[par, hs]
        keys.append((p * tree.size + par) * 64 + hs)
        children.append(kids)
        probs.append(weight[kids, hs] / norm)
    key = np.concatenate(keys)
    order = np.argsort(key, kind="stable")
    return Policy(
        tree,
        key[order],
        np.concatenate(children)[order],
        np.concatenate(probs)[order],
        solution.value,
    )


def save(policy: Policy, path: Path, leaves: Values | None = None) -> None:
    """Write ``policy`` compactly (its tree is rebuilt from ``a``, ``b`` when loaded),
    with the leaf values it was solved under, if given (:func:`load` checks them)."""
    extra: dict[str, Any] = {} if leaves is None else {"leaves": np.array(leaves)}
    q = np.maximum(1, np.round(policy.prob * _SCALE)).astype(np.uint16)
    np.savez_compressed(
        path,
        a=policy.tree.a,
        b=policy.tree.b,
        calza=policy.tree.calza,
        key=policy.key.astype(np.int64),
        child=policy.child.astype(np.int32),
        prob=q,
        value=policy.value,
        **extra,
    )


def load(path: Path, tree: RoundTree, leaves: Values | None = None) -> Policy:
    """The policy :func:`save` wrote, on ``tree`` (a :class:`ValueError` if it does not
    fit that tree or, with ``leaves``, was not solved under those leaf values)."""
    with np.load(path) as data:
        calza = bool(data["calza"]) if "calza" in data.files else False
        if (int(data["a"]), int(data["b"]), calza) != (tree.a, tree.b, tree.calza):
            raise ValueError(f"{path} is not a policy of the {tree.a} v {tree.b} round")
        if leaves is not None and (
            "leaves" not in data.files or not np.allclose(data["leaves"], leaves, atol=1e-9)
        ):
            raise ValueError(f"{path} was not solved under the leaf values {leaves}")
        key = np.array(data["key"], dtype=np.int64)
        child = np.array(data["child"], dtype=np.int64)
        prob = np.array(data["prob"], dtype=np.float64) / _SCALE
        value = float(data["value"])
    node = (key // 64) % tree.size if len(key) else key
    if len(child) and (
        child.max() >= tree.size
        or key.max() >= 2 * tree.size * 64
        or not np.array_equal(tree.parent[child], node)
        or np.any(np.diff(key) < 0)
        or np.any(
            key % 64 >= np.where(key // 64 >= tree.size, len(tree.hands[1]), len(tree.hands[0]))
        )
    ):
        raise ValueError(f"{path} does not fit the {tree.a} v {tree.b} round")
    # renormalise what quantisation changed
    starts = np.concatenate(([0], np.nonzero(np.diff(key))[0] + 1))
    totals = np.add.reduceat(prob, starts) if len(prob) else prob
    sums = np.repeat(totals, np.diff(np.concatenate((starts, [len(key)]))))
    return Policy(tree, key, child, prob / sums, value)


def behaviour(policy: Policy) -> tuple[FloatArray, FloatArray]:
    """``policy`` laid on its whole tree as behaviour strategies (``cfr``'s ``sigma``):
    its moves where it plays, uniform where it never gets (a best response there gains
    nothing it could not gain elsewhere, since the player never reaches those nodes)."""
    tree = policy.tree
    parent_actor = tree.actor[np.maximum(tree.parent, 0)]
    out = []
    for p in (0, 1):
        sigma = np.ones((tree.size, len(tree.hands[p])))
        own = np.nonzero(parent_actor == p)[0]
        own = own[own > 0]
        mine = policy.key // 64 // tree.size == p
        node = (policy.key[mine] // 64) % tree.size
        hand = policy.key[mine] % 64
        played = np.zeros((tree.size, len(tree.hands[p])), dtype=bool)
        played[node, hand] = True
        uniform = 1.0 / tree.child_count[tree.parent[own]].astype(np.float64)
        sigma[own] = np.where(played[tree.parent[own]], 0.0, uniform[:, None])
        sigma[policy.child[mine], hand] = policy.prob[mine]
        out.append(sigma)
    return out[0], out[1]
