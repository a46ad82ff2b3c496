"""Why a move of the solved last bet is played, in words (English and Italian).

The solved endgame (``bots.perudo.endgame``) gives a mixed action: each move with its
probability. These sentences say what the mix means for a player, in the voice of
:mod:`bots.perudo.expert.explain` (speaking to the player: "your 3 does not support it",
"il tuo 3 non la sostiene"): the move and its chance of being right, why the best play
mixes its moves ("so that a challenge never pays more than letting it pass"), how often
this one is played ("about one time in three", "circa una volta su tre"), and the other
moves. The words (bids, plurals, Italian articles) come from
:mod:`bots.perudo.expert.words`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bots.perudo.expert.words import (
    bid_en,
    bid_it,
    is_bluff,
    number_en,
    number_it,
    pct,
    pct_it,
)
from server.games.perudo_actions import ACE, Bid, count_matching

Pair = tuple[str, str]  #: a sentence in English and in Italian

#: a move played at least this often is played "always"
ALWAYS = 0.995
#: the most moves of the mix named besides the one played
OTHERS = 4

_SITUATION: Pair = (
    "Only two dice are left in play, one each, and this round decides the game",
    "Restano in gioco due dadi, uno a testa, e questo turno decide la partita",
)


@dataclass(frozen=True, slots=True)
class EquilibriumFacts:
    """What the explanation needs: the move, the whole mix, and what the seat knows."""

    action: str  #: the move played ("1x5", "dudo")
    mix: Mapping[str, float]  #: every move of the best play here, with its probability
    die: int  #: the seat's die
    last_bid: str | None  #: the bid on the table, if any
    #: P(the move is right): the bid true, the last bid false (dudo) or exact (calza)
    true_chance: float
    bluff: bool  #: a bid the seat's own die does not back
    hand: tuple[int, ...] = ()  #: the seat's dice, when more than one (else ``(die,)``)
    opponent_dice: int = 1  #: how many dice the opponent holds
    calza: bool = False  #: the room plays calza (a right calza does not end the game)

    @property
    def dice(self) -> tuple[int, ...]:
        """The seat's dice."""
        return self.hand or (self.die,)


def _your_die(die: int | tuple[int, ...]) -> Pair:
    """The seat's dice as the subject of a sentence: "your 3", "il tuo 3"; an ace is
    "your ace", "la tua Testa di Lama"; two dice "your 3 and ace", "il tuo 3 e la tua
    Testa di Lama"."""
    dice = (die,) if isinstance(die, int) else die
    if len(dice) > 1:
        parts = [_your_die(d) for d in sorted(dice, key=lambda d: (d == ACE, d))]
        first_en, first_it = parts[0]
        rest_en = " and ".join(en.removeprefix("your ") for en, _ in parts[1:])
        rest_it = " e ".join(it for _, it in parts[1:])
        return f"{first_en} and {rest_en}", f"{first_it} e {rest_it}"
    if dice[0] == ACE:
        return "your ace", "la tua Testa di Lama"
    return f"your {dice[0]}", f"il tuo {dice[0]}"


def _verbs(facts: EquilibriumFacts) -> dict[str, Pair]:
    """The verbs whose subject is the seat's dice, singular or plural."""
    if len(facts.dice) == 1:
        return {
            "supports": ("supports", "la sostiene"),
            "not": ("does not support", "non la sostiene"),
            "counts": ("counts", "conta"),
            "count_for": ("does not count for it", "non conta"),
        }
    return {
        "supports": ("support", "la sostengono"),
        "not": ("do not support", "non la sostengono"),
        "counts": ("count", "contano"),
        "count_for": ("do not count for it", "non contano"),
    }


def _situation(facts: EquilibriumFacts) -> Pair:
    """The round, in words: one die each, one die against two, or two dice each."""
    if len(facts.dice) == 1 and facts.opponent_dice == 1 and facts.calza:
        return (
            "Only two dice are left in play, one each, and a lost die decides the game",
            "Restano in gioco due dadi, uno a testa, e chi perde il dado perde la partita",
        )
    if len(facts.dice) == 1 and facts.opponent_dice == 1:
        return _SITUATION
    if len(facts.dice) == 2 and facts.opponent_dice == 2:
        return (
            "Four dice are left in play, two each (this play is solved over the last four "
            "bids only, not the whole round)",
            "Restano in gioco quattro dadi, due a testa (questa giocata è calcolata sulle "
            "ultime quattro scommesse, non sull'intero turno)",
        )
    if len(facts.dice) == 1:
        return (
            "Three dice are left in play, your one against your opponent's two",
            "Restano in gioco tre dadi, il tuo contro i due dell'avversario",
        )
    return (
        "Three dice are left in play, your two against your opponent's one",
        "Restano in gioco tre dadi, i tuoi due contro quello dell'avversario",
    )


def _often(p: float) -> Pair:
    """How often a move of probability ``p`` is played: "about one time in three",
    "circa una volta su tre", "80% of the time", "l'80% delle volte"."""
    if p >= ALWAYS:
        return "always", "sempre"
    n = round(1 / p) if p > 0 else 0
    if p < 0.5 and n == 2:
        return "about half the time", "circa metà delle volte"
    if p < 0.5 and 3 <= n <= 20:
        return f"about one time in {number_en(n)}", f"circa una volta su {number_it(n)}"
    return f"{pct(p)} of the time", f"{pct_it('il', p)} delle volte"


def _move(action: str) -> Pair:
    """A move of the mix as a player names it: "Dudo", "Calza", "at least 1 three"."""
    if action == "dudo":
        return "Dudo", "Dudo"
    if action == "calza":
        return "Calza", "Calza"
    bid = Bid.parse(action)
    return bid_en(bid), bid_it(bid)


def _join(parts: list[str], conjunction: str) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + f" {conjunction} " + parts[-1]


def _others(facts: EquilibriumFacts) -> Pair | None:
    """The other moves of the mix and how often each is played, likeliest first (none
    when this move is played always)."""
    if facts.mix.get(facts.action, 0.0) >= ALWAYS:
        return None
    rest = sorted(
        ((p, a) for a, p in facts.mix.items() if a != facts.action and p > 0), reverse=True
    )
    shown = [(p, a) for p, a in rest[:OTHERS] if p >= 1 - ALWAYS]
    if not shown:
        return None
    en = [f"{_move(a)[0]} ({pct(p)})" for p, a in shown]
    it = [f"{_move(a)[1]} ({pct(p)})" for p, a in shown]
    if len(rest) > len(shown):  # "a, b and, less often, others"
        en_text = ", ".join(en) + " and, less often, others"
        it_text = ", ".join(it) + " e, più di rado, altre"
    else:
        en_text, it_text = _join(en, "and"), _join(it, "e")
    return (
        f"The other moves and how often to play them: {en_text}.",
        f"Le altre mosse e quanto spesso giocarle: {it_text}.",
    )


def _certain(bid: Bid, facts: EquilibriumFacts) -> bool:
    """``bid`` is true by the seat's dice alone."""
    return count_matching(facts.dice, bid, True) >= bid.quantity


def _impossible(bid: Bid, facts: EquilibriumFacts) -> bool:
    """``bid`` is false whatever the opponent's dice show."""
    return count_matching(facts.dice, bid, True) + facts.opponent_dice < bid.quantity


def _sure(p: float) -> bool:
    """``p`` is 1 but for the rounding of the beliefs."""
    return p >= 1 - 1e-9


def _dudo(facts: EquilibriumFacts, p: float) -> list[Pair]:
    assert facts.last_bid is not None
    last = Bid.parse(facts.last_bid)
    die_en, die_it = _your_die(facts.dice)
    verbs = _verbs(facts)
    d = facts.true_chance
    if _impossible(last, facts):
        head = (
            f"Call Dudo: {bid_en(last)} is impossible, since {die_en} {verbs['count_for'][0]}.",
            f"Di' Dudo: la dichiarazione «{bid_it(last)}» è impossibile, perché {die_it} "
            f"{verbs['count_for'][1]}.",
        )
    else:
        if _sure(d):
            false_en, false_it = "is almost surely false", "è quasi di certo falsa"
        else:
            false_en = f"is false with probability {pct(d)}"
            false_it = f"è falsa con probabilità {pct_it('del', d)}"
        head = (
            f"Call Dudo: {bid_en(last)} {false_en}, given {die_en} and the bids so far, if "
            "your opponent plays well; no raise does better.",
            f"Di' Dudo: la dichiarazione «{bid_it(last)}» {false_it}, considerando {die_it} "
            "e le dichiarazioni fatte, se l'avversario gioca bene; nessun rilancio rende di "
            "più.",
        )
    because = (
        ", so that bluffing against you never pays",
        ", così che bluffare contro di te non sia mai vantaggioso",
    )
    return [head, _call_why(facts, p, "Dudo", because)]


def _calza(facts: EquilibriumFacts, p: float) -> list[Pair]:
    """Calza in a solved round with calza: the bid's chance of being exactly right, and
    what a right and a wrong calza lead to with the caller's dice."""
    assert facts.last_bid is not None
    last = Bid.parse(facts.last_bid)
    die_en, die_it = _your_die(facts.dice)
    c = facts.true_chance
    if _sure(c):
        exact_en, exact_it = "is almost surely exactly right", "è quasi di certo esatta"
    else:
        exact_en = f"is exactly right with probability {pct(c)}"
        exact_it = f"è esatta con probabilità {pct_it('del', c)}"
    n = len(facts.dice)
    more_en, more_it = ("one", "un dado") if n == 1 else (number_en(n), f"{number_it(n)} dadi")
    wrong_en, wrong_it = (
        ("loses the game", "perdi la partita")
        if n == 1
        else (
            "costs you a die",
            "perdi un dado",
        )
    )
    head = (
        f"Calza: {bid_en(last)} {exact_en}, given {die_en} and the bids so far, if your "
        "opponent plays well; a right calza lets you open the next round, with a die more "
        f"if the game started with more than {more_en} each, and a wrong one {wrong_en}.",
        f"Calza: la dichiarazione «{bid_it(last)}» {exact_it}, considerando {die_it} e le "
        "dichiarazioni fatte, se l'avversario gioca bene; con una calza giusta apri il "
        f"turno seguente, con un dado in più se la partita è iniziata con più di {more_it} "
        f"a testa, e con una sbagliata {wrong_it}.",
    )
    return [head, _call_why(facts, p, "Calza")]


def _call_why(facts: EquilibriumFacts, p: float, call: str, because: Pair = ("", "")) -> Pair:
    """Why the solution calls ``call`` (Dudo or Calza) with probability ``p`` here,
    and (``because``) what the mix is for."""
    sit_en, sit_it = _situation(facts)
    if p >= ALWAYS:
        return (
            f"{sit_en}: here the best play is always {call}.",
            f"{sit_it}: qui la mossa migliore è sempre dire {call}.",
        )
    often_en, often_it = _often(p)
    return (
        f"{sit_en}: the best play mixes its moves and calls {call} here {often_en}{because[0]}.",
        f"{sit_it}: conviene alternare più mosse e qui dire {call} {often_it}{because[1]}.",
    )


def _bid(facts: EquilibriumFacts, p: float) -> list[Pair]:
    bid = Bid.parse(facts.action)
    die_en, die_it = _your_die(facts.dice)
    verbs = _verbs(facts)
    t = facts.true_chance
    if _certain(bid, facts):
        true_en, true_it = "it is certainly true", "è di certo vera"
    elif _impossible(bid, facts):
        true_en, true_it = "it cannot be true", "non può essere vera"
    elif _sure(t):
        true_en, true_it = "it is almost surely true", "è quasi di certo vera"
    elif _sure(1 - t):
        true_en, true_it = "it is almost surely false", "è quasi di certo falsa"
    else:
        true_en = f"it is true with probability {pct(t)}"
        true_it = f"ha {pct_it('il', t)} di probabilità di essere vera"
    counting = count_matching(facts.dice, bid, True)
    theirs_en, theirs_it = ("die", "il dado") if facts.opponent_dice == 1 else ("dice", "i dadi")
    if not facts.bluff:
        head = (
            f"Bid {bid_en(bid)}: {die_en} {verbs['supports'][0]} it, so {true_en}.",
            f"Scommetti {bid_it(bid)}: {die_it} {verbs['supports'][1]}, quindi {true_it}.",
        )
    elif counting:
        # name only the dice that count ("your 5 counts for it", not "your 3 and 5")
        helping = tuple(d for d in facts.dice if count_matching((d,), bid, True))
        die_en, die_it = _your_die(helping)
        verbs = _verbs(EquilibriumFacts(facts.action, {}, helping[0], None, 0.0, True, helping))
        head = (
            f"Bid {bid_en(bid)}: {die_en} {verbs['counts'][0]} for it, but it also needs "
            f"your opponent's {theirs_en}; {true_en}.",
            f"Scommetti {bid_it(bid)}: {die_it} {verbs['counts'][1]}, ma servono anche "
            f"{theirs_it} dell'avversario; {true_it}."
            if facts.opponent_dice > 1
            else f"Scommetti {bid_it(bid)}: {die_it} {verbs['counts'][1]}, ma serve anche "
            f"{theirs_it} dell'avversario; {true_it}.",
        )
    elif is_bluff(counting, t):
        head = (
            f"Bid {bid_en(bid)}: a bluff, since {die_en} {verbs['not'][0]} it; {true_en}.",
            f"Scommetti {bid_it(bid)}: è un bluff, perché {die_it} {verbs['not'][1]}; {true_it}.",
        )
    else:  # a likely bid is never called a bluff (issue 33)
        head = (
            f"Bid {bid_en(bid)}: {die_en} {verbs['not'][0]} it, but your opponent's "
            f"{theirs_en} very likely {'does' if facts.opponent_dice == 1 else 'do'}; "
            f"{true_en}.",
            f"Scommetti {bid_it(bid)}: {die_it} {verbs['not'][1]}, ma molto probabilmente "
            f"{'la sostiene' if facts.opponent_dice == 1 else 'la sostengono'} "
            f"{theirs_it} dell'avversario; {true_it}.",
        )
    sit_en, sit_it = _situation(facts)
    often_en, often_it = _often(p)
    own_en, own_it = ("die", "il tuo dado") if len(facts.dice) == 1 else ("dice", "i tuoi dadi")
    if p >= ALWAYS:
        why = (
            f"{sit_en}: here the best play is always this bid.",
            f"{sit_it}: qui la mossa migliore è sempre questa scommessa.",
        )
    elif facts.bluff:
        why = (
            f"{sit_en}: the best play mixes its moves and makes this bid {often_en}, so that "
            "a challenge never pays more than letting it pass.",
            f"{sit_it}: conviene alternare più mosse e fare questa scommessa {often_it}, così "
            "che dubitarne non renda mai più che lasciarla passare.",
        )
    else:
        why = (
            f"{sit_en}: the best play makes this bid {often_en}, mixing honest bids with "
            f"bluffs so that your bids do not give your {own_en} away.",
            f"{sit_it}: conviene fare questa scommessa {often_it}, alternando scommesse "
            f"sincere e bluff così che le tue dichiarazioni non rivelino {own_it}.",
        )
    return [head, why]


def explain_equilibrium(facts: EquilibriumFacts) -> Pair:
    """The explanation of a move of the solved last bet: ``(english, italian)``, in the
    expert's voice ("Call Dudo: ..." or "Bid at least ...", then why and how often)."""
    p = facts.mix.get(facts.action, 0.0)
    if facts.action == "dudo":
        sentences = _dudo(facts, p)
    elif facts.action == "calza":
        sentences = _calza(facts, p)
    else:
        sentences = _bid(facts, p)
    others = _others(facts)
    if others is not None:
        sentences.append(others)
    return " ".join(s[0] for s in sentences), " ".join(s[1] for s in sentences)
