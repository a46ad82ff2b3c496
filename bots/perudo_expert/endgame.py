"""The expert's solved endgame: play the equilibrium of the last-bet round at ``hard``.

When two players are left with one die each (the seed's "last bet"), outside palifico
and without calza, :func:`solved_move` looks the position up in the solved round
(``bots.perudo_endgame.solve``), samples the mixed action with the decision's seed, and
says why (:mod:`.equilibrium_words`). Its belief about the opponent's die is the
equilibrium's: the chance of each die given the bids made, never a certainty.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bots.perudo_endgame.solve import equilibrium_policy, last_bet
from bots.perudo_endgame.tree import bid_code
from bots.perudo_expert.equilibrium_words import EquilibriumFacts, explain_equilibrium
from bots.perudo_expert.view import TableView
from server.games.perudo_actions import Bid, count_matching


@dataclass(frozen=True, slots=True)
class SolvedMove:
    """An equilibrium move with its mix, its chance of being right and its explanation."""

    action: str
    mix: dict[str, float]
    true_chance: float  #: P(the move is right): the bid true, or the last bid false
    dudo_chance: float | None  #: P(the last bid is false), when there is one
    explanation_en: str
    explanation_it: str


def in_last_bet(view: TableView) -> bool:
    """Two players left with one die each, no palifico, no calza: the solved round."""
    opponents = view.opponents
    return (
        len(opponents) == 1
        and len(view.dice) == 1
        and view.counts[opponents[0]] == 1
        and view.palifico is None
        and not view.calza
    )


def _opener(view: TableView) -> bool:
    """Whether this seat opened the round (bids alternate between the two players)."""
    return len(view.bids) % 2 == 0


def belief(view: TableView) -> list[float]:
    """P(opponent's die = 1..6) given the round's bids, if both play the equilibrium."""
    sol = last_bet()
    tree = sol.tree
    opp = 1 if _opener(view) else 0
    weights = [1.0] * 6
    node = 0
    for _, bid in view.bids:
        child = tree.child(node, bid_code(bid))
        if child is None:
            break
        if int(tree.actor[node]) == opp:
            weights = [w * float(sol.sigma[opp][child, h]) for h, w in enumerate(weights)]
        node = child
    total = sum(weights)
    return [w / total for w in weights] if total > 0 else [1 / 6] * 6


def _chance_true(bid: Bid, die: int, beliefs: list[float]) -> float:
    total = sum(
        p
        for face, p in enumerate(beliefs, start=1)
        if count_matching((die, face), bid, True) >= bid.quantity
    )
    return min(1.0, round(total, 12))  # a sure bid is 1.0, not 1.0 less a rounding


def solved_move(view: TableView, seed: int) -> SolvedMove | None:
    """The equilibrium move for ``view`` (sampled with ``seed``), or ``None`` when the
    position is not the solved last-bet round."""
    if not in_last_bet(view):
        return None
    die = view.dice[0]
    bids = [b for _, b in view.bids]
    mix = equilibrium_policy(die, bids, opener=_opener(view))
    if mix is None:
        return None
    rng = random.Random(f"{seed}/equilibrium/{len(bids)}")
    pick = rng.random()
    action = next(iter(mix))
    for text, p in mix.items():
        action = text
        pick -= p
        if pick < 0:
            break
    beliefs = belief(view)
    last = bids[-1] if bids else None
    dudo = None if last is None else 1.0 - _chance_true(last, die, beliefs)
    if action == "dudo":
        assert dudo is not None
        chance = dudo
        bluff = False
    else:
        bid = Bid.parse(action)
        chance = _chance_true(bid, die, beliefs)
        bluff = count_matching((die,), bid, True) < bid.quantity
    facts = EquilibriumFacts(action, mix, die, None if last is None else str(last), chance, bluff)
    en, it = explain_equilibrium(facts)
    return SolvedMove(action, mix, chance, dudo, en, it)
