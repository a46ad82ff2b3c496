"""The conditions and actions of the production rules, one small function each.

They read and write a :class:`~bots.perudo.expert.context.Context`; which rule fires when
is decided by :mod:`bots.perudo.expert.rules` (salience, as in the source's Jess rules).
The phases, in the source's order:

1. thresholds and situation (last bet, final blow, normal);
2. rules for particular situations (palifico, holding one die, heads-up) that tune the
   thresholds;
3. the dudo probability, with Dudo at once when the last bid is impossible;
4. candidate bets (face, times, probability, bluff);
5. scores: the distance of each bet from the thresholds (near 0 is best);
6. pairwise elimination of the worse of two possible bets until one is left;
7. the final choice: calza, Dudo, or the best bet.
"""

from __future__ import annotations

from bots.perudo.expert.context import (
    FINAL_BLOW,
    LAST_BET,
    NORMAL,
    Bet,
    Context,
    PossibleBet,
)
from bots.perudo.expert.model import is_certain, is_impossible, known_matching
from bots.perudo.expert.profiles import BLUFF_PRIOR, DUDO_RATE_PRIOR
from server.games.perudo_actions import Bid

#: Weight of a bet's probability falling short of the reliability threshold, and of
#: exceeding it (a safer bet than wanted is a lesser fault).
UNDER_WEIGHT = 1.0
OVER_WEIGHT = 0.35
#: Weight of the distance between a bet's bluff and the bluff threshold.
BLUFF_WEIGHT = 0.25
#: Bets less likely than this are not considered (beyond each face's lowest legal bid).
PROBABILITY_FLOOR = 0.05
#: Calza only when it is at least this likely.
CALZA_FLOOR = 0.45


def _clamp(value: float) -> float:
    return max(0.0, min(1.0, value))


# -- phase 1: thresholds and situation --------------------------------------------------


def set_thresholds(ctx: Context) -> None:
    """Thresholds from the user (hint) or from the level."""
    if not ctx.user_thresholds:
        ctx.bluff = ctx.level.thresholds.bluff
        ctx.reliability = ctx.level.thresholds.reliability
    ctx.dudo_margin = ctx.level.dudo_margin
    ctx.notes["bluff_threshold"] = ctx.bluff
    ctx.notes["reliability_threshold"] = ctx.reliability


def _heads_up(ctx: Context) -> tuple[int, int] | None:
    active = ctx.view.active
    if len(active) != 2 or ctx.view.seat not in active:
        return None
    other = active[0] if active[1] == ctx.view.seat else active[1]
    return ctx.view.counts[ctx.view.seat], ctx.view.counts[other]


def is_last_bet(ctx: Context) -> bool:
    """Two players left, one die each."""
    return _heads_up(ctx) == (1, 1)


def is_final_blow(ctx: Context) -> bool:
    """Two players left: we hold more than one die, the opponent one."""
    pair = _heads_up(ctx)
    return pair is not None and pair[0] > 1 and pair[1] == 1


def is_normal(ctx: Context) -> bool:
    """Neither last bet nor final blow."""
    return not (is_last_bet(ctx) or is_final_blow(ctx))


def situation_last_bet(ctx: Context) -> None:
    """Assert the last-bet situation."""
    ctx.situation = LAST_BET


def situation_final_blow(ctx: Context) -> None:
    """Assert the final-blow situation."""
    ctx.situation = FINAL_BLOW


def situation_normal(ctx: Context) -> None:
    """Assert the normal situation."""
    ctx.situation = NORMAL


def knows_neighbours(ctx: Context) -> bool:
    """Statistics are in use and the previous bidder or the next player is known."""
    if ctx.user_thresholds or not ctx.level.use_stats:
        return False
    last = ctx.view.last
    known_bidder = last is not None and ctx.profile(last[0]) is not None
    known_next = ctx.level.next_player and ctx.profile(ctx.view.next_seat()) is not None
    return known_bidder or known_next


def adjust_for_neighbours(ctx: Context) -> None:
    """Doubt a bluffer sooner; bid safer before a player quick to challenge."""
    last = ctx.view.last
    if last is not None:
        bidder = ctx.profile(last[0])
        if bidder is not None:
            shift = (bidder.bluff_rate - BLUFF_PRIOR[0]) * 0.4
            ctx.dudo_margin -= shift
            ctx.notes["bidder_bluff_rate"] = bidder.bluff_rate
    if ctx.level.next_player:
        follower = ctx.profile(ctx.view.next_seat())
        if follower is not None:
            shift = (follower.dudo_rate - DUDO_RATE_PRIOR[0]) * 0.5
            ctx.reliability = _clamp(ctx.reliability + shift)
            ctx.notes["next_dudo_rate"] = follower.dudo_rate


# -- phase 2: particular situations -----------------------------------------------------


def opponent_palifico(ctx: Context) -> bool:
    """A palifico round declared by another player."""
    return ctx.view.palifico is not None and ctx.view.palifico != ctx.view.seat


def own_palifico(ctx: Context) -> bool:
    """Our own palifico round."""
    return ctx.view.palifico is not None and ctx.view.palifico == ctx.view.seat


def tune_palifico_opponent(ctx: Context) -> None:
    """Aces are not wild and the face is locked: bid safer, bluff less."""
    if not ctx.user_thresholds:
        ctx.reliability = _clamp(ctx.reliability + 0.05)
        ctx.bluff = _clamp(ctx.bluff - 0.1)


def tune_palifico_own(ctx: Context) -> None:
    """Our palifico: one die, the round is ours to open on the face the die shows."""
    if not ctx.user_thresholds:
        ctx.reliability = _clamp(max(ctx.reliability, 0.65))
    ctx.bluff_weight = 0.0
    if ctx.view.last is None:
        ctx.faces = frozenset(ctx.view.dice)


def holds_one_die(ctx: Context) -> bool:
    """We hold one die outside palifico (and not heads-up against one die)."""
    return len(ctx.view.dice) == 1 and ctx.view.palifico is None and ctx.situation == NORMAL


def tune_one_die(ctx: Context) -> None:
    """One die: a bid is all bluff or none, and a lost die ends our game."""
    ctx.bluff_weight = 0.0
    if not ctx.user_thresholds:
        ctx.reliability = _clamp(ctx.reliability + 0.1)


def in_last_bet(ctx: Context) -> bool:
    """The last-bet situation holds."""
    return ctx.situation == LAST_BET


def in_final_blow(ctx: Context) -> bool:
    """The final-blow situation holds."""
    return ctx.situation == FINAL_BLOW


def tune_last_bet(ctx: Context) -> None:
    """Two dice in play: take the surest bid; bluffing one die means nothing."""
    if not ctx.user_thresholds:
        ctx.reliability = 1.0
    ctx.bluff_weight = 0.0


def tune_final_blow(ctx: Context) -> None:
    """The opponent bids on one die: stay safe, and doubt a blind bid sooner."""
    if not ctx.user_thresholds:
        ctx.reliability = _clamp(ctx.reliability + 0.15)
    ctx.dudo_margin -= 0.05


# -- phase 3: the dudo probability ------------------------------------------------------


def has_bid(ctx: Context) -> bool:
    """There is a bid on the table to doubt."""
    return ctx.view.last is not None


def compute_dudo(ctx: Context) -> None:
    """How unlikely the last bid is: 1 - P(last bid), and the calza probability."""
    last = ctx.view.last
    assert last is not None
    bid = last[1]
    ctx.impossible = is_impossible(bid, ctx.view.dice, ctx.view.total, ctx.view.aces_wild)
    ctx.dudo_probability = 1.0 if ctx.impossible else 1.0 - ctx.probability_of(bid)
    if ctx.view.calza:
        ctx.calza_probability = ctx.exact_probability_of(bid)
    ctx.notes["last_bid"] = str(bid)
    ctx.notes["dudo_probability"] = ctx.dudo_probability


def last_bid_impossible(ctx: Context) -> bool:
    """The dudo probability is 1: the bid cannot be true."""
    return ctx.impossible


def dudo_at_once(ctx: Context) -> None:
    """Doubt an impossible bid without looking further."""
    ctx.halt("dudo", 1.0)


# -- phase 4: candidate bets ------------------------------------------------------------


def face_locked(ctx: Context) -> bool:
    """A palifico round where we may only raise the quantity of the current face."""
    view = ctx.view
    return view.palifico is not None and view.last is not None and len(view.dice) != 1


def _bets_by_face(ctx: Context, floor: float, per_face: int) -> list[Bet]:
    """For each face, the lowest legal bids down to ``floor`` probability."""
    first: dict[int, list[Bid]] = {}
    view = ctx.view
    for bid in view.legal_bids():
        # A bid our own dice prove false (more than our matching dice plus every die we
        # cannot see) is never a candidate, whatever the inferred hands say.
        if is_impossible(bid, view.dice, view.total, view.aces_wild):
            continue
        if ctx.faces is None or bid.face in ctx.faces:
            first.setdefault(bid.face, []).append(bid)
    bets: list[Bet] = []
    for bids in first.values():
        bids.sort(key=lambda b: b.quantity)
        for i, bid in enumerate(bids[:per_face]):
            bet = ctx.bet(bid)
            if i > 0 and bet.probability < floor:
                break
            bets.append(bet)
    return bets


def bets_normal(ctx: Context) -> None:
    """Assert bets on every face we may bid, from its lowest legal quantity upwards."""
    ctx.bets = _bets_by_face(ctx, PROBABILITY_FLOOR, 12)


def bets_heads_up(ctx: Context) -> None:
    """Heads-up: few dice, so weigh every reasonable bid, down to long shots."""
    ctx.bets = _bets_by_face(ctx, 0.01, 20)


def bets_locked_face(ctx: Context) -> None:
    """Palifico with the face locked: only more of the same face."""
    ctx.bets = _bets_by_face(ctx, PROBABILITY_FLOOR, 12)


def no_situation_bets(ctx: Context) -> bool:
    """Normal situation and the face is free."""
    return ctx.situation == NORMAL and not face_locked(ctx)


def heads_up_bets(ctx: Context) -> bool:
    """Last bet or final blow, the face free."""
    return ctx.situation != NORMAL and not face_locked(ctx)


# -- phase 5: scores --------------------------------------------------------------------


def has_bets(ctx: Context) -> bool:
    """Bets were asserted and not yet scored."""
    return bool(ctx.bets) and not ctx.possible


def score(ctx: Context, bet: Bet) -> float:
    """The distance of ``bet`` from the thresholds: 0 is a perfect fit."""
    if bet.probability < ctx.reliability:
        distance = (ctx.reliability - bet.probability) * UNDER_WEIGHT
    else:
        distance = (bet.probability - ctx.reliability) * OVER_WEIGHT
    distance += abs(bet.bluff - ctx.bluff) * BLUFF_WEIGHT * ctx.bluff_weight
    if ctx.level.noise:
        distance += ctx.rng.uniform(0.0, ctx.level.noise)
    return distance


def score_bets(ctx: Context) -> None:
    """Assert a possible bet with its score for every bet."""
    ctx.possible = [PossibleBet(bet, score(ctx, bet)) for bet in ctx.bets]
    ctx.scored = sorted(ctx.possible, key=_key)


# -- phase 6: pairwise elimination ------------------------------------------------------


def several_possible(ctx: Context) -> bool:
    """More than one possible bet is left."""
    return len(ctx.possible) > 1


def _key(p: PossibleBet) -> tuple[float, float, int, int]:
    return (p.score, -p.bet.probability, p.bet.bid.quantity, p.bet.bid.face)


def eliminate_worse(ctx: Context) -> None:
    """Compare two possible bets and retract the worse (higher score; ties: less likely)."""
    a, b = ctx.possible[0], ctx.possible[1]
    worse = b if _key(a) <= _key(b) else a
    ctx.possible.remove(worse)
    ctx.eliminations += 1


# -- phase 7: the final choice ----------------------------------------------------------


def _best(ctx: Context) -> PossibleBet | None:
    return ctx.possible[0] if len(ctx.possible) == 1 else None


def calza_cannot_win(ctx: Context) -> bool:
    """Our own dice prove the count is not exactly the last bid's quantity: we already
    hold more matching dice than it names, or it names more than could be on the table."""
    view = ctx.view
    if view.last is None:
        return True
    bid = view.last[1]
    own = known_matching(view.dice, bid, view.aces_wild)
    return own > bid.quantity or is_impossible(bid, view.dice, view.total, view.aces_wild)


def dudo_cannot_win(ctx: Context) -> bool:
    """Our own dice alone make the last bid true, so a dudo is certainly lost."""
    view = ctx.view
    return view.last is not None and is_certain(view.last[1], view.dice, view.aces_wild)


def calza_fits(ctx: Context) -> bool:
    """Calza is allowed and the exact count is likelier than doubting or raising."""
    if ctx.calza_probability is None or ctx.dudo_probability is None:
        return False
    if calza_cannot_win(ctx):
        return False
    best = _best(ctx)
    rival = max(ctx.dudo_probability, best.bet.probability if best else 0.0)
    return ctx.calza_probability >= CALZA_FLOOR and ctx.calza_probability > rival


def choose_calza(ctx: Context) -> None:
    """Call the bid exactly right."""
    assert ctx.calza_probability is not None
    ctx.halt("calza", ctx.calza_probability)


def dudo_beats_bid(ctx: Context) -> bool:
    """Doubting is likelier to be right than our best bet (or there is no bet to make)."""
    if ctx.dudo_probability is None:
        return False
    best = _best(ctx)
    if best is None:
        return True
    if dudo_cannot_win(ctx):
        return False
    return ctx.dudo_probability > best.bet.probability + ctx.dudo_margin


def choose_dudo(ctx: Context) -> None:
    """Doubt the last bid."""
    assert ctx.dudo_probability is not None
    ctx.halt("dudo", ctx.dudo_probability)


def one_possible(ctx: Context) -> bool:
    """Exactly one possible bet survived the elimination."""
    return _best(ctx) is not None


def choose_bid(ctx: Context) -> None:
    """Make the best bet."""
    best = _best(ctx)
    assert best is not None
    ctx.halt(str(best.bet.bid), best.bet.probability)
