"""Information-set Monte Carlo: weigh each candidate action over sampled worlds.

For one decision, :func:`search` lists the candidate actions
(:func:`~bots.perudo.search.candidates.shortlist`), samples worlds (complete deals
consistent with what the seat knows, :mod:`bots.perudo.search.worlds`) and plays each
candidate out in each world with perudo-simple's policy for every seat
(:func:`~bots.perudo.search.rollout.play_out`). A candidate's value is the mean, over its
worlds, of the seat's share of the dice in play once the round is over
(:func:`~bots.perudo.search.rollout.dice_share`).

The budget is a number of rollouts (*nodes*: one candidate played out in one world),
spent by sequential halving (Karnin, Koren and Somekh, 2013): the budget is split into
``ceil(log2(candidates))`` equal rounds, each round plays every remaining candidate in
the same new worlds (common random numbers: candidates are compared on the same deals),
and the better half goes on. The search never spends more than its budget, and with the
same seed it makes the same choice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bots.perudo.expert.view import TableView
from bots.perudo.search.candidates import shortlist
from bots.perudo.search.rollout import Deal, dice_share, play_out
from bots.perudo.search.worlds import sample_deal, world_rng


@dataclass(frozen=True, slots=True)
class Evaluation:
    """One candidate's value: its mean dice share over ``rollouts`` worlds."""

    action: str
    value: float
    rollouts: int


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The action chosen, every candidate's evaluation (best first), the nodes spent."""

    action: str
    evaluations: tuple[Evaluation, ...]
    nodes: int


def _fit(candidates: list[str], nodes: int) -> list[str]:
    """Drop the last candidates until every halving round can play each one once."""
    kept = list(candidates)
    while len(kept) > 1 and nodes // max(1, math.ceil(math.log2(len(kept)))) < len(kept):
        kept.pop()
    return kept


def search(view: TableView, seed: int, nodes: int) -> SearchResult:
    """Choose ``view.seat``'s action with at most ``nodes`` rollouts, seeded by ``seed``."""
    if nodes < 1:
        raise ValueError(f"a search needs at least one node, not {nodes}")
    candidates = shortlist(view)
    if not candidates:  # cannot happen in a game (docs/perudo_search.md); be safe anyway
        legal = view.legal_actions()
        return SearchResult("dudo" if "dudo" in legal else legal[0], (), 0)
    candidates = _fit(candidates, nodes)
    if len(candidates) == 1:
        return SearchResult(candidates[0], (Evaluation(candidates[0], math.nan, 0),), 0)
    worlds: list[Deal] = []
    total = {a: 0.0 for a in candidates}
    played = {a: 0 for a in candidates}
    counts = view.counts
    remaining = list(candidates)
    rounds = math.ceil(math.log2(len(candidates)))
    spent = 0
    for r in range(rounds):
        per = (nodes - spent) // (len(remaining) * (rounds - r))
        while len(worlds) < max(played[a] for a in remaining) + per:
            worlds.append(sample_deal(view, world_rng(seed, len(worlds))))
        for action in remaining:
            start = played[action]
            for k in range(start, start + per):
                total[action] += dice_share(counts, view.seat, play_out(worlds[k], action))
            played[action] += per
            spent += per
        rank = candidates.index
        order = sorted(remaining, key=lambda a: (-total[a] / max(1, played[a]), rank(a)))
        remaining = order[: math.ceil(len(order) / 2)]
    evaluations = sorted(
        (Evaluation(a, total[a] / played[a], played[a]) for a in candidates),
        key=lambda e: (-e.rollouts, -e.value),
    )
    return SearchResult(remaining[0], tuple(evaluations), spent)
