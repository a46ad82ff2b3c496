"""Why an equilibrium move is played, in words (English and Italian).

The solved endgame (``bots.perudo_endgame``) gives a mixed action: each move with its
probability. These sentences say what the mix means for a player: how often a move is
played, whether it is a bluff, and why mixing is what makes the move safe ("you bluff
here one time in three so that a challenge never pays").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bots.perudo_expert.explain import bid_en, bid_it
from server.games.perudo_actions import Bid


@dataclass(frozen=True, slots=True)
class EquilibriumFacts:
    """What the explanation needs: the move, the whole mix, and what the seat knows."""

    action: str  #: the move played ("1x5", "dudo")
    mix: Mapping[str, float]  #: every move of the equilibrium here, with its probability
    die: int  #: the seat's die
    last_bid: str | None  #: the bid on the table, if any
    true_chance: float  #: P(the move is right): the bid true, or the last bid false (dudo)
    bluff: bool  #: a bid the seat's own die does not back


def _often_en(p: float) -> str:
    if p >= 0.995:
        return "always"
    if p >= 0.5:
        return f"{p:.0%} of the time"
    n = round(1 / p) if p > 0 else 0
    return f"about one time in {n}" if 2 <= n <= 20 else f"{p:.0%} of the time"


def _often_it(p: float) -> str:
    if p >= 0.995:
        return "sempre"
    if p >= 0.5:
        return f"il {p:.0%} delle volte"
    n = round(1 / p) if p > 0 else 0
    return f"circa una volta su {n}" if 2 <= n <= 20 else f"il {p:.0%} delle volte"


def _others(mix: Mapping[str, float], action: str) -> str:
    rest = sorted(((p, a) for a, p in mix.items() if a != action), reverse=True)
    return ", ".join(f"{a} {p:.0%}" for p, a in rest[:4])


def explain_equilibrium(facts: EquilibriumFacts) -> tuple[str, str]:
    """The explanation of an equilibrium move: ``(english, italian)``, in the expert's
    voice ("Dudo: ..." or "Bid at least ...", then the situation)."""
    p = facts.mix.get(facts.action, 0.0)
    chance_en = f"{facts.true_chance:.0%}"
    chance_it = f"{facts.true_chance:.0%}"
    if facts.action == "dudo":
        assert facts.last_bid is not None
        last = Bid.parse(facts.last_bid)
        en = (
            f"Dudo: {bid_en(last)} is false with probability {chance_en} given my "
            f"{facts.die}, against a player who bids as the equilibrium does, and every "
            f"raise does worse; the equilibrium doubts here {_often_en(p)}."
        )
        it = (
            f"Dudo: {bid_it(last)} è falsa con probabilità {chance_it} dato il mio "
            f"{facts.die}, contro chi dichiara come l'equilibrio, e ogni rilancio rende "
            f"meno; l'equilibrio dubita qui {_often_it(p)}."
        )
    else:
        bid = Bid.parse(facts.action)
        if facts.bluff:
            en = (
                f"Bid {bid_en(bid)}: a bluff (my {facts.die} does not back it; true "
                f"{chance_en} of the time), played here {_often_en(p)} so that a challenge "
                "never pays more than letting it pass."
            )
            it = (
                f"Scommetti {bid_it(bid)}: un bluff (il mio {facts.die} non la sostiene; "
                f"vera nel {chance_it} dei casi), giocato qui {_often_it(p)} perché "
                "dubitare non renda mai più che lasciarla passare."
            )
        else:
            en = (
                f"Bid {bid_en(bid)}: my {facts.die} backs it (true {chance_en} of the time); "
                f"played here {_often_en(p)}, mixed with bluffs so that my bid does not "
                "tell my die."
            )
            it = (
                f"Scommetti {bid_it(bid)}: il mio {facts.die} la sostiene (vera nel "
                f"{chance_it} dei casi); giocata qui {_often_it(p)}, alternata a bluff "
                "perché la dichiarazione non riveli il mio dado."
            )
    others = _others(facts.mix, facts.action)
    if others:
        en += f" The other moves of the mix: {others}."
        it += f" Le altre mosse del miscuglio: {others}."
    en += " Situation: last bet, two players with one die each; solved, so I play the equilibrium."
    it += (
        " Situazione: ultima scommessa, due giocatori con un dado ciascuno; risolta, "
        "gioco l'equilibrio."
    )
    return en, it
