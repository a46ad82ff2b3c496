"""Explanations in natural language, English and Italian, from the rules that fired.

The source rebuilds its reasoning from the list of activated rules and justifies the
suggested bet to the user; :func:`explain` does the same from a finished
:class:`~bots.perudo_expert.context.Context`: one sentence for the decision, then one for
each rule that shaped it.
"""

from __future__ import annotations

from bots.perudo_expert.context import FINAL_BLOW, LAST_BET, Context
from server.games.perudo_actions import Bid

_FACES_EN = {1: ("ace", "aces"), 2: ("two", "twos"), 3: ("three", "threes")}
_FACES_EN |= {4: ("four", "fours"), 5: ("five", "fives"), 6: ("six", "sixes")}


def bid_en(bid: Bid) -> str:
    """``5x4`` as "at least 5 fours" (``1x1``: "at least 1 ace")."""
    one, many = _FACES_EN[bid.face]
    return f"at least {bid.quantity} {one if bid.quantity == 1 else many}"


def bid_it(bid: Bid) -> str:
    """``5x4`` as "almeno 5 volte 4"; aces are "Teste di Lama", as in the source."""
    if bid.is_aces:
        noun = "Testa di Lama" if bid.quantity == 1 else "Teste di Lama"
        return f"almeno {bid.quantity} {noun}"
    return f"almeno {bid.quantity} volte {bid.face}"


def _pct(value: float) -> str:
    return f"{round(value * 100)}%"


_ELIDED = {"del": "dell'", "al": "all'", "sul": "sull'", "il": "l'"}


def _it(article: str, value: float) -> str:
    """An Italian article and a percentage: "del 79%", but "dell'86%" (otto, undici)."""
    n = round(value * 100)
    vowel = n == 8 or n == 11 or 80 <= n <= 89
    return f"{_ELIDED[article]}{n}%" if vowel else f"{article} {n}%"


def _hand(dice: list[int], lang: str) -> str:
    names = ["L" if d == 1 else str(d) for d in sorted(dice)]
    return "[" + " ".join(names) + "]" if names else ("nothing" if lang == "en" else "niente")


def _decision(ctx: Context) -> tuple[str, str]:
    last = ctx.view.last
    if ctx.action == "dudo":
        assert last is not None
        if ctx.impossible:
            return (
                f"Dudo: {bid_en(last[1])} is impossible with the dice in play and yours.",
                f"Dudo: {bid_it(last[1])} è impossibile con i dadi in gioco e i tuoi.",
            )
        best = ctx.possible[0].bet if ctx.possible else None
        tail_en = tail_it = ""
        if best is not None:
            tail_en = (
                f"; the best raise, {bid_en(best.bid)}, would be true only {_pct(best.probability)}"
            )
            tail_it = (
                f"; il rilancio migliore, {bid_it(best.bid)}, sarebbe vero solo "
                f"{_it('al', best.probability)}"
            )
        return (
            f"Dudo: {bid_en(last[1])} is false with probability {_pct(ctx.probability)}{tail_en}.",
            f"Dudo: {bid_it(last[1])} è falsa con probabilità {_it('del', ctx.probability)}"
            f"{tail_it}.",
        )
    if ctx.action == "calza":
        assert last is not None
        return (
            f"Calza: {bid_en(last[1])} is exactly right with probability "
            f"{_pct(ctx.probability)}, likelier than doubting or raising.",
            f"Calza: {bid_it(last[1])} è esatta con probabilità {_it('del', ctx.probability)}, "
            "più che dubitare o rilanciare.",
        )
    assert ctx.action is not None
    bid = Bid.parse(ctx.action)
    bet = ctx.possible[0].bet
    en = (
        f"Bid {bid_en(bid)}: true with probability {_pct(bet.probability)} (reliability "
        f"threshold {_pct(ctx.reliability)}), a bluff on {_pct(bet.bluff)} of your dice "
        f"(bluff threshold {_pct(ctx.bluff)})."
    )
    it = (
        f"Scommetti {bid_it(bid)}: vera con probabilità {_it('del', bet.probability)} "
        f"(soglia di affidabilità {_pct(ctx.reliability)}), un bluff {_it('sul', bet.bluff)} "
        f"dei tuoi dadi (soglia di bluff {_pct(ctx.bluff)})."
    )
    if last is not None and ctx.dudo_probability is not None:
        en += f" Dudo on {bid_en(last[1])} would be right only {_pct(ctx.dudo_probability)}."
        it += (
            f" Un Dudo su {bid_it(last[1])} avrebbe ragione solo {_it('al', ctx.dudo_probability)}."
        )
    return en, it


def _situation(ctx: Context) -> tuple[str, str]:
    if ctx.situation == LAST_BET:
        return (
            "Situation: last bet, two players with one die each.",
            "Situazione: ultima scommessa, due giocatori con un dado ciascuno.",
        )
    if ctx.situation == FINAL_BLOW:
        return (
            "Situation: final blow, you hold more dice than your last opponent's one.",
            "Situazione: colpo di grazia, hai più dadi dell'unico dado dell'avversario.",
        )
    return ("Situation: normal.", "Situazione: normale.")


_RULE_TEXT: dict[str, tuple[str, str]] = {
    "palifico-opponent": (
        "Palifico round: aces are not wild and the face is locked, so bid safer and bluff less.",
        "Turno Palifico: le Teste di Lama non sono Jolly e il numero è bloccato, quindi "
        "scommetti più sicuro e bluffa meno.",
    ),
    "palifico-own": (
        "Your palifico: open on the face your one die shows.",
        "Sei Palifico: apri sul numero del tuo unico dado.",
    ),
    "one-die": (
        "You hold one die: losing it ends your game, so bid safer.",
        "Hai un solo dado: perderlo ti elimina, quindi scommetti più sicuro.",
    ),
    "last-bet": (
        "With two dice in play, take the surest bid.",
        "Con due dadi in gioco, scegli la scommessa più sicura.",
    ),
    "final-blow": (
        "Your opponent bids on one die: stay safe and doubt blind bids sooner.",
        "L'avversario scommette con un dado: resta sicuro e dubita prima delle scommesse "
        "alla cieca.",
    ),
}


def _profiles(ctx: Context) -> tuple[str, str] | None:
    parts_en: list[str] = []
    parts_it: list[str] = []
    if "bidder_bluff_rate" in ctx.notes:
        value = float(ctx.notes["bidder_bluff_rate"])
        parts_en.append(f"the last bidder bluffs about {_pct(value)} of the time")
        parts_it.append(f"l'ultimo a scommettere bluffa circa {_it('il', value)} delle volte")
    if "next_dudo_rate" in ctx.notes:
        value = float(ctx.notes["next_dudo_rate"])
        parts_en.append(f"the next player doubts about {_pct(value)} of the bids it faces")
        parts_it.append(f"il prossimo giocatore dubita di circa {_it('il', value)} delle scommesse")
    if not parts_en:
        return None
    return (
        "Profiles: " + "; ".join(parts_en) + ".",
        "Profili: " + "; ".join(parts_it) + ".",
    )


def _inference(ctx: Context) -> tuple[str, str] | None:
    if ctx.level.samples == 0 or not ctx.hands:
        return None
    if len(ctx.hands) > 1:
        n = len(ctx.hands)
        return (
            f"Opponents' dice inferred from their bids, averaged over {n} virtual rolls.",
            f"Dadi degli avversari inferiti dalle loro scommesse, media su {n} lanci virtuali.",
        )
    hands = {s: h for s, h in ctx.hands[0].hands.items() if h}
    if not hands:
        return None
    en = "; ".join(f"seat {s} {_hand(h, 'en')}" for s, h in sorted(hands.items()))
    it = "; ".join(f"posto {s} {_hand(h, 'it')}" for s, h in sorted(hands.items()))
    return (f"Inferred from the bids: {en}.", f"Inferito dalle scommesse: {it}.")


def explain(ctx: Context) -> tuple[str, str]:
    """The explanation of a finished decision, as (English, Italian)."""
    sentences = [_decision(ctx), _situation(ctx)]
    sentences += [_RULE_TEXT[name] for name in ctx.fired if name in _RULE_TEXT]
    for extra in (_profiles(ctx), _inference(ctx)):
        if extra is not None:
            sentences.append(extra)
    return " ".join(s[0] for s in sentences), " ".join(s[1] for s in sentences)
