"""Shared by the solved Perudo rounds' tests: what a shipped policy plays that it must not."""

from __future__ import annotations

from bots.perudo.endgame.policy import Policy, wrong_moves


def wrong_moves_played(policy: Policy) -> int:
    """How many (node, hand) moves of ``policy`` its own dice prove wrong: a certainly-false
    bid, a dudo against a sure bid, a calza that cannot be exact."""
    tree = policy.tree
    player = (policy.key // 64) // tree.size
    hand = policy.key % 64
    count = 0
    for p in (0, 1):
        mine = player == p
        count += int(wrong_moves(tree, p)[policy.child[mine], hand[mine]].sum())
    return count
