"""Why an equilibrium move is played, in words (English and Italian).

The solved endgame (``bots.perudo_endgame``) gives a mixed action: each move with its
probability. These sentences say what the mix means for a player: how often a move is
played, whether it is a bluff, and why mixing is what makes the move safe ("you bluff
here one time in three so that a challenge never pays").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


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
    """The explanation of an equilibrium move: ``(english, italian)``."""
    p = facts.mix.get(facts.action, 0.0)
    head_en = (
        f"Last bet, solved: one die each, so I play the equilibrium. With my {facts.die} "
        f"I play {facts.action} here {_often_en(p)}."
    )
    head_it = (
        f"Ultima scommessa, risolta: un dado a testa, gioco l'equilibrio. Con il mio "
        f"{facts.die} gioco {facts.action} qui {_often_it(p)}."
    )
    chance = f"{facts.true_chance:.0%}"
    if facts.action == "dudo":
        assert facts.last_bid is not None
        en = (
            f" Against a player who bids as the equilibrium does, {facts.last_bid} is false "
            f"{chance} of the time given my die: doubting wins more than any raise."
        )
        it = (
            f" Contro chi dichiara come l'equilibrio, {facts.last_bid} è falsa nel {chance} "
            f"dei casi dato il mio dado: dubitare rende più di ogni rilancio."
        )
    elif facts.bluff:
        en = (
            f" It is a bluff (my die does not back it; true {chance} of the time): I bluff "
            f"here {_often_en(p)} so that a challenge never pays more than letting it pass."
        )
        it = (
            f" È un bluff (il mio dado non la sostiene; vera nel {chance} dei casi): bluffo "
            f"qui {_often_it(p)} perché dubitare non renda mai più che lasciarla passare."
        )
    else:
        en = (
            f" My die backs it (true {chance} of the time); I mix it with bluffs on other "
            f"faces so that my bid does not tell my die."
        )
        it = (
            f" Il mio dado la sostiene (vera nel {chance} dei casi); la alterno a bluff su "
            f"altre facce perché la dichiarazione non riveli il mio dado."
        )
    others = _others(facts.mix, facts.action)
    if others:
        en += f" The other moves of the mix: {others}."
        it += f" Le altre mosse del miscuglio: {others}."
    return head_en + en, head_it + it
