"""The expert's solved endgames: play the equilibrium of the small heads-up rounds.

When two players are left, outside palifico and without calza, with one die each (the
seat's "last bet") or one die against two, :func:`solved_move` looks the position up in
the solved round (``bots.perudo.endgame.solve``; in a calza room the rounds solved with
calza: the last bet, ``bots.perudo.endgame.calza``, and one die against two,
``bots.perudo.endgame.calza_rounds``), samples the mixed action with the
decision's seed, and says why (:mod:`.equilibrium_words`). With two dice each (when
asked: ``two_v_two``) it plays the round's tied abstraction
(:mod:`bots.perudo.endgame.tied`: a mix per hand and last bids). Its belief about the
opponent's dice is the solution's: the chance of each hand given the bids made, never a
certainty.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bots.perudo.endgame.calza import calza_policy
from bots.perudo.endgame.calza_rounds import calza_round_policy
from bots.perudo.endgame.policy import Policy
from bots.perudo.endgame.solve import equilibrium_policy, round_policy, tied_mix, tied_policy
from bots.perudo.endgame.tied import TiedPolicy
from bots.perudo.endgame.tree import bid_code, hands, moves
from bots.perudo.expert.context import FINAL_BLOW, LAST_BET, NORMAL
from bots.perudo.expert.equilibrium_words import EquilibriumFacts, explain_equilibrium
from bots.perudo.expert.view import TableView
from server.games.perudo_actions import Bid, count_matching

#: The solved rounds by (this seat's dice, the opponent's): the last bet, one against two.
SOLVED = ((1, 1), (1, 2), (2, 1))
#: The rounds played from a tied abstraction (two dice each).
TIED = ((2, 2),)


@dataclass(frozen=True, slots=True)
class SolvedMove:
    """An equilibrium move with its mix, its chance of being right and its explanation."""

    action: str
    mix: dict[str, float]
    true_chance: float  #: P(the move is right): the bid true, or the last bid false
    dudo_chance: float | None  #: P(the last bid is false), when there is one
    explanation_en: str
    explanation_it: str
    situation: str = LAST_BET  #: the expert's name for the situation (context.py)


def _dice(view: TableView) -> tuple[int, int] | None:
    """(this seat's dice, the opponent's) when two players are left, else ``None``."""
    opponents = view.opponents
    if len(opponents) != 1:
        return None
    return len(view.dice), view.counts[opponents[0]]


def in_solved_round(
    view: TableView, *, last_bet_only: bool = False, two_v_two: bool = False
) -> bool:
    """Two players left with one die each (or, unless ``last_bet_only``, one die against
    two; with ``two_v_two`` also two dice each), no palifico: a solved round. With calza
    the two-dice-each round is not solved (it is played by the rules)."""
    dice = _dice(view)
    rounds = SOLVED[:1] if last_bet_only else (SOLVED + TIED if two_v_two else SOLVED)
    if view.calza:
        rounds = SOLVED[:1] if last_bet_only else SOLVED
    return dice in rounds and view.palifico is None


def in_last_bet(view: TableView) -> bool:
    """Two players left with one die each, no palifico: the solved last bet (with or
    without calza)."""
    return in_solved_round(view, last_bet_only=True)


def _opener(view: TableView) -> bool:
    """Whether this seat opened the round (bids alternate between the two players)."""
    return len(view.bids) % 2 == 0


def _round(view: TableView) -> tuple[int, int]:
    """The round as (opener's dice, responder's dice)."""
    dice = _dice(view)
    assert dice is not None
    return dice if _opener(view) else (dice[1], dice[0])


def _policy(view: TableView, a: int, b: int) -> Policy | None:
    """The played policy of this round: with calza, the last bet's whose right calza
    gains a die when the game started with more than one each, or the one-die-against-two
    round's solved with calza (``None`` without its shipped file)."""
    if view.calza:
        if (a, b) == (1, 1):
            return calza_policy(view.dice_per_player > 1)
        return calza_round_policy(a, b)
    return round_policy(a, b)


def belief(view: TableView, policy: Policy | None = None) -> list[float]:
    """P(each opponent hand) given the round's bids, if both play the equilibrium (hands
    in the order of :func:`bots.perudo.endgame.tree.hands`; their prior chance if the
    opponent's bids are ones the equilibrium never makes)."""
    a, b = _round(view)
    pol = policy if policy is not None else _policy(view, a, b)
    opp = 1 if _opener(view) else 0
    _, prior = hands(b if opp == 1 else a)
    weights = [float(w) for w in prior]
    if pol is None:
        return weights
    tree = pol.tree
    node = 0
    for _, bid in view.bids:
        child = tree.child(node, bid_code(bid))
        if child is None:
            break
        if int(tree.actor[node]) == opp:
            weights = [w * pol.move_probability(opp, node, h, child) for h, w in enumerate(weights)]
        node = child
    total = sum(weights)
    return [w / total for w in weights] if total > 0 else [float(w) for w in prior]


#: In a round played from a tied abstraction (not an equilibrium), the belief lets the
#: opponent make any move with this chance, spread over its moves, besides the policy's:
#: no hand is ruled out because the abstraction's player would not have bid so.
TIED_TREMBLE = 0.03


def tied_belief(view: TableView, policy: TiedPolicy) -> list[float]:
    """As :func:`belief`, in a round played from a tied abstraction: each opponent bid
    weighs each hand by its chance under the opponent this seat's table was solved
    against (:meth:`~bots.perudo.endgame.tied.TiedPolicy.model_probability`), trembled
    (:data:`TIED_TREMBLE`)."""
    opp = 1 if _opener(view) else 0
    _, prior = hands(policy.b if opp == 1 else policy.a)
    weights = [float(w) for w in prior]
    codes: list[int] = []
    total_dice = policy.a + policy.b
    for i, (_, bid) in enumerate(view.bids):
        code = bid_code(bid)
        if i % 2 == opp:
            spread = TIED_TREMBLE / max(1, len(moves(codes[-1] if codes else -1, total_dice)))
            weights = [
                w * ((1 - TIED_TREMBLE) * policy.model_probability(opp, codes, code, h) + spread)
                for h, w in enumerate(weights)
            ]
        codes.append(code)
    total = sum(weights)
    return [w / total for w in weights] if total > 0 else [float(w) for w in prior]


def _chance_true(
    bid: Bid, mine: tuple[int, ...], theirs: int, beliefs: list[float], *, exact: bool = False
) -> float:
    """P(``bid`` is true), or with ``exact`` P(its count is exactly its quantity)."""
    total = sum(
        p
        for hand, p in zip(hands(theirs)[0], beliefs, strict=True)
        if (n := count_matching(mine + hand, bid, True)) == bid.quantity
        or (n > bid.quantity and not exact)
    )
    return min(1.0, round(total, 12))  # a sure bid is 1.0, not 1.0 less a rounding


def solved_move(
    view: TableView, seed: int, *, last_bet_only: bool = False, two_v_two: bool = False
) -> SolvedMove | None:
    """The equilibrium move for ``view`` (sampled with ``seed``), or ``None`` when the
    position is not in a solved round (only the last bet with ``last_bet_only``; two
    dice each, from the tied abstraction, with ``two_v_two``)."""
    if not in_solved_round(view, last_bet_only=last_bet_only, two_v_two=two_v_two):
        return None
    mine = tuple(sorted(view.dice))
    theirs = view.counts[view.opponents[0]]
    bids = [b for _, b in view.bids]
    a, b = _round(view)
    mix: dict[str, float] | None
    if (a, b) in TIED:
        tied = tied_policy(a, b)
        if tied is None:
            return None
        mix = tied_mix(mine, bids, opener=_opener(view), opponent_dice=theirs, policy=tied)
        beliefs = tied_belief(view, tied) if mix is not None else []
    else:
        policy = _policy(view, a, b)
        if policy is None:
            return None
        mix = equilibrium_policy(
            mine, bids, opener=_opener(view), opponent_dice=theirs, policy=policy
        )
        beliefs = belief(view, policy) if mix is not None else []
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
    last = bids[-1] if bids else None
    dudo = None if last is None else 1.0 - _chance_true(last, mine, theirs, beliefs)
    if action == "dudo":
        assert dudo is not None
        chance = dudo
        bluff = False
    elif action == "calza":
        assert last is not None
        chance = _chance_true(last, mine, theirs, beliefs, exact=True)
        bluff = False
    else:
        bid = Bid.parse(action)
        chance = _chance_true(bid, mine, theirs, beliefs)
        bluff = count_matching(mine, bid, True) < bid.quantity
    last_text = None if last is None else str(last)
    facts = EquilibriumFacts(
        action, mix, mine[0], last_text, chance, bluff, mine, theirs, view.calza
    )
    en, it = explain_equilibrium(facts)
    situation = (
        LAST_BET if (a, b) == (1, 1) else FINAL_BLOW if (len(mine), theirs) == (2, 1) else NORMAL
    )
    return SolvedMove(action, mix, chance, dudo, en, it, situation)
