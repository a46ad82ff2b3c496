"""Explanations in plain English and Italian of a decision, from the facts the rules left.

The source rebuilds its reasoning from the activated rules and justifies the suggested bet
to the user; :func:`explain` does the same from a finished
:class:`~bots.perudo.expert.context.Context`, in sentences a player understands: the move
and why it beats the alternatives (with their probabilities), then one sentence for each
thing that shaped it (a palifico round, one die left, what the bids so far suggest). Rule
names never appear: they are in :attr:`~bots.perudo.expert.advise.Advice.rules_fired`.
The words (bids, plurals, Italian articles) come from :mod:`bots.perudo.expert.words`.
"""

from __future__ import annotations

from bots.perudo.expert.context import Bet, Context
from bots.perudo.expert.model import is_certain, is_impossible, known_matching
from bots.perudo.expert.words import (
    bid_en,
    bid_it,
    hand_en,
    hand_it,
    own_dice_en,
    own_dice_it,
    pct,
    pct_it,
    percent,
)
from server.games.perudo_actions import Bid

Pair = tuple[str, str]  #: a sentence in English and in Italian


def _dudo_clause(ctx: Context) -> Pair | None:
    """Doubting the last bid would be right only so often."""
    last = ctx.view.last
    if last is None or ctx.dudo_probability is None:
        return None
    return (
        f"Dudo on {bid_en(last[1])} {_right_en(ctx, ctx.dudo_probability)}",
        f"dire Dudo su «{bid_it(last[1])}» {_right_it(ctx, ctx.dudo_probability)}",
    )


def _dudo_not_enough(ctx: Context, d: float) -> Pair:
    """Why not doubt a bid that is likelier false than our bid is true."""
    last = ctx.view.last
    assert last is not None
    return (
        f"Dudo on {bid_en(last[1])} would be right {pct(d)}, more often, but not by enough: "
        "a bid is lost only if someone doubts it, a Dudo is settled at once.",
        f"Dire Dudo su «{bid_it(last[1])}» sarebbe giusto {pct_it('nel', d)} dei casi, più "
        "spesso, ma non abbastanza: una scommessa si perde solo se qualcuno la contesta, "
        "mentre un Dudo si decide subito.",
    )


def _right_en(ctx: Context, p: float) -> str:
    if p > 0:
        return f"would be right only {pct(p)}"
    return "could not be right" if _certain(ctx) else "would almost surely be wrong"


def _right_it(ctx: Context, p: float) -> str:
    if p > 0:
        return f"sarebbe giusto solo {pct_it('nel', p)} dei casi"
    return "sarebbe di certo sbagliato" if _certain(ctx) else "sarebbe quasi di certo sbagliato"


def _certain(ctx: Context) -> bool:
    """The last bid is true by our own dice alone."""
    last = ctx.view.last
    return last is not None and is_certain(last[1], ctx.view.dice, ctx.view.aces_wild)


def _impossible(ctx: Context, bid: Bid) -> bool:
    return is_impossible(bid, ctx.view.dice, ctx.view.total, ctx.view.aces_wild)


def _true_en(ctx: Context, bid: Bid, p: float) -> str:
    if p > 0:
        return f"would be true only {pct(p)}"
    return "could not be true" if _impossible(ctx, bid) else "would almost surely be false"


def _true_it(ctx: Context, bid: Bid, p: float, ending: str) -> str:
    """``ending`` is "a" for a scommessa, "o" for a rilancio."""
    if p > 0:
        return f"sarebbe ver{ending} solo {pct_it('nel', p)} dei casi"
    if _impossible(ctx, bid):
        return f"non potrebbe essere ver{ending}"
    return f"sarebbe quasi di certo fals{ending}"


def _likeliest_other(ctx: Context, chosen: Bet, short: bool) -> Pair | None:
    """The likeliest other bid, and why it was not chosen (``short``: "the likeliest")."""
    others = [b for b in ctx.bets if b.bid != chosen.bid]
    if not others:
        return None
    other = max(others, key=lambda b: (b.probability, -b.bluff))
    if percent(other.probability) <= percent(chosen.probability):
        return (
            f"the likeliest{'' if short else ' other bid'}, {bid_en(other.bid)}, "
            f"{_true_en(ctx, other.bid, other.probability)}",
            f"la più probabile{'' if short else ' tra le altre scommesse'}, {bid_it(other.bid)}, "
            f"{_true_it(ctx, other.bid, other.probability, 'a')}",
        )
    if other.bluff > chosen.bluff:
        return (
            f"{bid_en(other.bid)} is likelier ({pct(other.probability)}) but fewer of your "
            "dice count for it",
            f"{bid_it(other.bid)} è più probabile ({pct(other.probability)}) ma per quella "
            "contano meno dei tuoi dadi",
        )
    return None


def _bid(ctx: Context) -> list[Pair]:
    assert ctx.action is not None
    bid = Bid.parse(ctx.action)
    bet = ctx.possible[0].bet
    p, want = bet.probability, ctx.reliability
    head_en = f"Bid {bid_en(bid)}: it is true with probability {pct(p)}"
    head_it = f"Scommetti {bid_it(bid)}: ha {pct_it('il', p)} di probabilità di essere vera"
    if p >= 1 and is_certain(bid, ctx.view.dice, ctx.view.aces_wild):
        head_en = f"Bid {bid_en(bid)}: it is certainly true"
        head_it = f"Scommetti {bid_it(bid)}: è di certo vera"
    elif p <= 0 and _impossible(ctx, bid):  # a forced bid: every move is bad
        head_en = f"Bid {bid_en(bid)}: it cannot be true"
        head_it = f"Scommetti {bid_it(bid)}: non può essere vera"
    elif p <= 0:
        head_en = f"Bid {bid_en(bid)}: it is almost surely false"
        head_it = f"Scommetti {bid_it(bid)}: è quasi di certo falsa"
    elif p >= 1:
        head_en = f"Bid {bid_en(bid)}: judging by the bids so far, it is almost surely true"
        head_it = f"Scommetti {bid_it(bid)}: a giudicare dalle dichiarazioni, è quasi di certo vera"
    out: list[Pair] = []
    dudo = _dudo_clause(ctx)
    d = ctx.dudo_probability
    if dudo is not None and d is not None and percent(d) > percent(p):
        # doubting is likelier to be right, but not by the margin the level asks for
        out_dudo = _dudo_not_enough(ctx, d)
        dudo = None
    else:
        out_dudo = None
    surest = all(percent(b.probability) <= percent(p) for b in ctx.bets)
    if percent(want) >= 100 and surest:
        out.append(
            (
                f"{head_en}, the surest bid you can make.",
                f"{head_it}, la scommessa più sicura che puoi fare.",
            )
        )
    elif percent(p) + 5 >= percent(want):
        if percent(p) > percent(want):
            near_en, near_it = "above", "più " + pct_it("del", want)
        elif percent(p) == percent(want):
            near_en, near_it = "just", "proprio " + pct_it("il", want)
        else:
            near_en, near_it = "close to", "quasi " + pct_it("il", want)
        en = f"{head_en}, {near_en} the {pct(want)} you want from a bid"
        it = f"{head_it}, {near_it} che chiedi a una scommessa"
        step = Bid(bid.quantity + 1, bid.face)
        if step.quantity <= ctx.view.total:
            q = ctx.probability_of(step)
            if percent(q) < percent(p):
                en += f"; {bid_en(step)} {_true_en(ctx, step, q)}"
                it += f"; {bid_it(step)} {_true_it(ctx, step, q, 'a')}"
        out.append((en + ".", it + "."))
    else:
        reasons = [r for r in (dudo, _likeliest_other(ctx, bet, dudo is None)) if r is not None]
        en = f"{head_en}, less than the {pct(want)} you want"
        it = f"{head_it}, meno {pct_it('del', want)} che chiedi a una scommessa"
        if reasons:
            all_en, all_it = "the alternatives are worse", "le alternative sono peggiori"
            if dudo is None:
                all_en, all_it = "no other bid is better", "nessun'altra scommessa è migliore"
            en += f", but {all_en}: " + " and ".join(r[0] for r in reasons)
            it += f", ma {all_it}: " + " e ".join(r[1] for r in reasons)
            dudo = None  # said
        out.append((en + ".", it + "."))
    if dudo is not None:
        out.append((dudo[0] + ".", dudo[1][0].upper() + dudo[1][1:] + "."))
    if out_dudo is not None:
        out.append(out_dudo)
    counting = known_matching(ctx.view.dice, bid, ctx.view.aces_wild)
    held = len(ctx.view.dice)
    if held:
        out.append((own_dice_en(counting, held, p), own_dice_it(counting, held, p)))
    return out


def _dudo(ctx: Context) -> Pair:
    last = ctx.view.last
    assert last is not None
    claim_en, claim_it = bid_en(last[1]), f"la dichiarazione «{bid_it(last[1])}»"
    if ctx.impossible:
        own = ctx.view.dice
        most = known_matching(own, last[1], ctx.view.aces_wild) + ctx.view.total - len(own)
        return (
            f"Call Dudo: {claim_en} is impossible: counting your dice, at most "
            f"{most} of the {ctx.view.total} dice in play can count for it.",
            f"Di' Dudo: {claim_it} è impossibile: contando i tuoi dadi, al massimo "
            f"{most} dei {ctx.view.total} dadi in gioco possono contare.",
        )
    en = f"Call Dudo: {claim_en} is false with probability {pct(ctx.probability)}"
    it = f"Di' Dudo: {claim_it} è falsa con probabilità {pct_it('del', ctx.probability)}"
    best = ctx.possible[0].bet if ctx.possible else None
    if best is None:
        return (en + ", and no raise is left.", it + ", e non resta alcun rilancio.")
    return (
        f"{en}, while the best raise, {bid_en(best.bid)}, "
        f"{_true_en(ctx, best.bid, best.probability)}.",
        f"{it}, mentre il rilancio migliore, {bid_it(best.bid)}, "
        f"{_true_it(ctx, best.bid, best.probability, 'o')}.",
    )


def _calza(ctx: Context) -> Pair:
    last = ctx.view.last
    assert last is not None and ctx.dudo_probability is not None
    d = ctx.dudo_probability
    en = (
        f"Calza: {bid_en(last[1])} is exactly right with probability {pct(ctx.probability)}; "
        f"a Dudo {_right_en(ctx, d)}"
    )
    it = (
        f"Calza: la dichiarazione «{bid_it(last[1])}» è esatta con probabilità "
        f"{pct_it('del', ctx.probability)}; dire Dudo {_right_it(ctx, d)}"
    )
    best = ctx.possible[0].bet if ctx.possible else None
    if best is not None:
        en += (
            f" and the best raise, {bid_en(best.bid)}, {_true_en(ctx, best.bid, best.probability)}"
        )
        it += (
            f" e il rilancio migliore, {bid_it(best.bid)}, "
            f"{_true_it(ctx, best.bid, best.probability, 'o')}"
        )
    return en + ".", it + "."


_RULE_TEXT: dict[str, Pair] = {
    "palifico-opponent": (
        "In a Palifico round aces are not wild and only a player with one die may change the "
        "face, so bid safer and bluff less.",
        "Nel turno di Palifico le Teste di Lama non sono Jolly e solo chi ha un dado può "
        "cambiare numero: scommetti più sicuro e bluffa meno.",
    ),
    "palifico-own": (
        "It is your Palifico round: aces are not wild, and you open on the face of your one die.",
        "È il tuo turno di Palifico: le Teste di Lama non sono Jolly e apri sul numero del tuo "
        "unico dado.",
    ),
    "palifico-own-raise": (
        "It is your Palifico round: aces are not wild.",
        "È il tuo turno di Palifico: le Teste di Lama non sono Jolly.",
    ),
    "one-die": (
        "You hold one die: losing it puts you out of the game, so bid safer.",
        "Hai un solo dado: se lo perdi sei eliminato, quindi scommetti più sicuro.",
    ),
    "last-bet": (
        "Only two dice are left in play, one each: this round decides the game, so take the "
        "surest move.",
        "Restano in gioco due dadi, uno a testa: questo turno decide la partita, quindi scegli "
        "la mossa più sicura.",
    ),
    "final-blow": (
        "Your last opponent has one die left and bids almost blind: bid safely and doubt sooner.",
        "All'ultimo avversario resta un solo dado e scommette quasi alla cieca: scommetti sul "
        "sicuro e dubita prima.",
    ),
}


def _profiles(ctx: Context) -> list[Pair]:
    out: list[Pair] = []
    if "bidder_bluff_rate" in ctx.notes:
        value = float(ctx.notes["bidder_bluff_rate"])
        sooner = value > 0.25
        out.append(
            (
                f"The last bidder bluffs in about {pct(value)} of their bids, so doubt them "
                f"{'sooner' if sooner else 'later'} than usual.",
                f"Chi ha scommesso per ultimo bluffa in circa {pct_it('il', value)} delle sue "
                f"scommesse: dubita di lui {'prima' if sooner else 'più tardi'} del solito.",
            )
        )
    if "next_dudo_rate" in ctx.notes:
        value = float(ctx.notes["next_dudo_rate"])
        safer = value > 0.3
        out.append(
            (
                f"The next player calls Dudo on about {pct(value)} of the bids they face, so "
                f"bid {'safer' if safer else 'bolder'}.",
                f"Il prossimo giocatore dice Dudo su circa {pct_it('il', value)} delle "
                f"scommesse a cui risponde: scommetti {'più sicuro' if safer else 'più audace'}.",
            )
        )
    return out


def _decimal_it(value: float) -> str:
    """``1.4`` as Italian writes it: "1,4"."""
    return f"{value:.1f}".replace(".", ",")


def _reading(ctx: Context) -> list[Pair]:
    """What the bids say, as the reading has it: for each bidder, its last bid and the
    dice expected to count for it in its hand (a probability with one die)."""
    reading = ctx.reading
    assert reading is not None
    last_bid = {seat: bid for seat, bid in ctx.view.bids}
    en: list[str] = []
    it: list[str] = []
    for seat in reading.informed():
        bid = last_bid[seat]
        held = ctx.view.counts[seat]
        mean = reading.expected(seat, bid.face)
        if held == 1:
            en.append(
                f"whoever bid {bid_en(bid)} holds a die counting for it with "
                f"probability {pct(mean)}"
            )
            it.append(
                f"chi ha dichiarato {bid_it(bid)} ha un dado che conta per quella "
                f"dichiarazione con probabilità {pct_it('del', mean)}"
            )
        else:
            en.append(
                f"whoever bid {bid_en(bid)} has on average {mean:.1f} of their {held} dice "
                "counting for it"
            )
            it.append(
                f"chi ha dichiarato {bid_it(bid)} ha in media {_decimal_it(mean)} dei suoi "
                f"{held} dadi che contano per quella dichiarazione"
            )
    if not en:
        return []
    return [
        (
            "Judging by how players bid, " + "; ".join(en) + ".",
            "A giudicare da come si scommette, " + "; ".join(it) + ".",
        )
    ]


def _inference(ctx: Context) -> list[Pair]:
    if ctx.impossible:
        return []
    if ctx.reading is not None:
        return _reading(ctx)
    if ctx.level.samples == 0 or not ctx.hands:
        return []
    weights = ctx.weights or [1.0 / len(ctx.hands)] * len(ctx.hands)
    out: list[Pair] = []
    last_bid = {seat: bid for seat, bid in ctx.view.bids}
    for seat in sorted(last_bid):
        # the likeliest dice inferred for this bidder, and how likely (the inference's
        # distribution, summed over the other bidders)
        chance: dict[tuple[int, ...], float] = {}
        for h, w in zip(ctx.hands, weights, strict=True):
            key = tuple(sorted(h.hand(seat)))
            chance[key] = chance.get(key, 0.0) + w
        dice, p = max(chance.items(), key=lambda kv: (kv[1], len(kv[0])))
        if dice and seat != ctx.view.seat:
            bid = last_bid[seat]
            out.append(
                (
                    f"Whoever bid {bid_en(bid)} most likely holds {hand_en(dice)} ({pct(p)}).",
                    f"Chi ha dichiarato {bid_it(bid)} ha più probabilmente {hand_it(dice)} "
                    f"({pct(p)}).",
                )
            )
    return out


def explain(ctx: Context) -> Pair:
    """The explanation of a finished decision, as (English, Italian)."""
    if ctx.action == "dudo":
        sentences = [_dudo(ctx)]
    elif ctx.action == "calza":
        sentences = [_calza(ctx)]
    else:
        sentences = _bid(ctx)
    for name in ctx.fired:
        if name == "palifico-own" and ctx.view.last is not None:
            name = "palifico-own-raise"  # the round is already open
        if name in _RULE_TEXT:
            sentences.append(_RULE_TEXT[name])
    sentences += _profiles(ctx) + _inference(ctx)
    return " ".join(s[0] for s in sentences), " ".join(s[1] for s in sentences)
