"""The production rules as data, and the engine that fires them by salience.

As in the source's Jess production system, each rule has a salience, a condition on the
working memory (a :class:`~bots.perudo.expert.context.Context`) and an action that
asserts facts. The engine repeatedly fires the activated rule of highest salience (ties:
the order of :data:`RULES`) until a rule decides an action or none is activated. A rule
fires at most once per decision unless it is ``repeatable`` (the pairwise elimination).
Rules of one phase share a salience, and salience falls phase by phase, so the rules
apply in their logical order; the list of rules that fired is the explanation's skeleton.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bots.perudo.expert import reasoning as r
from bots.perudo.expert.context import Context


def _always(ctx: Context) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class Rule:
    """One production rule: fires its action when its condition holds."""

    name: str
    salience: int
    phase: str
    condition: Callable[[Context], bool]
    action: Callable[[Context], None]
    repeatable: bool = False


RULES: tuple[Rule, ...] = (
    Rule("set-thresholds", 100, "thresholds", _always, r.set_thresholds),
    Rule("situation-last-bet", 95, "thresholds", r.is_last_bet, r.situation_last_bet),
    Rule("situation-final-blow", 95, "thresholds", r.is_final_blow, r.situation_final_blow),
    Rule("situation-normal", 95, "thresholds", r.is_normal, r.situation_normal),
    Rule("opponent-profiles", 90, "thresholds", r.knows_neighbours, r.adjust_for_neighbours),
    Rule("palifico-opponent", 80, "situation", r.opponent_palifico, r.tune_palifico_opponent),
    Rule("palifico-own", 80, "situation", r.own_palifico, r.tune_palifico_own),
    Rule("one-die", 80, "situation", r.holds_one_die, r.tune_one_die),
    Rule("last-bet", 78, "situation", r.in_last_bet, r.tune_last_bet),
    Rule("final-blow", 78, "situation", r.in_final_blow, r.tune_final_blow),
    Rule("dudo-probability", 60, "dudo", r.has_bid, r.compute_dudo),
    Rule("impossible-bid", 58, "dudo", r.last_bid_impossible, r.dudo_at_once),
    Rule("bets-normal", 40, "bets", r.no_situation_bets, r.bets_normal),
    Rule("bets-heads-up", 40, "bets", r.heads_up_bets, r.bets_heads_up),
    Rule("bets-palifico-face", 40, "bets", r.face_locked, r.bets_locked_face),
    Rule("score-bets", 30, "scores", r.has_bets, r.score_bets),
    Rule("eliminate-worse", 20, "selection", r.several_possible, r.eliminate_worse, True),
    Rule("calza", 12, "choice", r.calza_fits, r.choose_calza),
    Rule("choose-dudo", 10, "choice", r.dudo_beats_bid, r.choose_dudo),
    Rule("choose-bid", 9, "choice", r.one_possible, r.choose_bid),
)

RULES_BY_NAME: dict[str, Rule] = {rule.name: rule for rule in RULES}


def run(ctx: Context, rules: tuple[Rule, ...] = RULES) -> Context:
    """Fire ``rules`` on ``ctx`` by salience until one decides; return ``ctx``.

    ``ctx.fired`` lists the rules in firing order (a repeatable rule once, at its first
    firing); raises ``RuntimeError`` if no rule decides, which a complete rule set rules
    out.
    """
    ordered = sorted(rules, key=lambda rule: -rule.salience)  # stable: ties keep order
    done: set[str] = set()
    while not ctx.halted:
        for rule in ordered:
            if (rule.repeatable or rule.name not in done) and rule.condition(ctx):
                break
        else:
            raise RuntimeError(f"no rule decided; rules fired: {', '.join(ctx.fired)}")
        if rule.name not in done:
            ctx.fired.append(rule.name)
            done.add(rule.name)
        rule.action(ctx)
    return ctx
