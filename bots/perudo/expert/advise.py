"""The expert's one entry point: :func:`advise` a seat on its move.

A pure function of a :class:`~bots.perudo.expert.view.TableView` (the seat's dice, the
dice counts, this round's bids), the level, optional thresholds and what is known of the
opponents; with the same ``seed`` it always gives the same advice. The bot plays what it
advises; a hint service or the supporter mode shows the advice to a person.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass

from bots.perudo.expert.context import Context
from bots.perudo.expert.endgame import SolvedMove, solved_move
from bots.perudo.expert.explain import explain
from bots.perudo.expert.inference import InferredHands, round_distribution
from bots.perudo.expert.levels import Thresholds, level_named
from bots.perudo.expert.profiles import OpponentProfile, auto_level
from bots.perudo.expert.reading import read_bids
from bots.perudo.expert.rules import run
from bots.perudo.expert.view import TableView


@dataclass(frozen=True, slots=True)
class Advice:
    """A suggested action with its reasons.

    ``action`` is an action text (``"5x4"``, ``"dudo"``, ``"calza"``); ``probability``
    is the chance it is right (the bid is true, the last bid is false, the count is
    exact); ``rules_fired`` names the production rules in firing order.
    """

    action: str
    probability: float
    rules_fired: tuple[str, ...]
    explanation_en: str
    explanation_it: str
    level: str
    situation: str
    thresholds: Thresholds  #: after the situation rules tuned them
    dudo_probability: float | None  #: 1 - P(last bid), when there is one
    alternatives: tuple[tuple[str, float], ...]  #: the best scored bets (bid, probability)
    #: P(the last bid's count is exact) in a calza room, when it was weighed
    calza_probability: float | None = None

    def explanation(self, lang: str = "en") -> str:
        """The explanation in ``lang`` ("en" or "it")."""
        if lang == "en":
            return self.explanation_en
        if lang == "it":
            return self.explanation_it
        raise ValueError(f"explanations are in 'en' or 'it', not {lang!r}")


def situation_seed(view: TableView, salt: str = "") -> int:
    """A 64-bit seed that is a function of ``view`` (seat, dice, counts, bids, rules) and
    ``salt`` (a hint adds the game and the round): the same situation, the same seed."""
    text = repr((salt, view))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def advise(
    view: TableView,
    *,
    level: str = "normal",
    thresholds: Thresholds | None = None,
    profiles: Mapping[int, OpponentProfile] | None = None,
    seed: int | None = None,
) -> Advice:
    """Advise ``view.seat`` on its move: the action, its probability and why.

    ``level`` is easy, normal, hard or auto (auto picks one from the human profiles,
    see :func:`~bots.perudo.expert.profiles.auto_level`). ``thresholds`` set the bluff
    and reliability thresholds as a player does when asking for a hint (the level's own
    are used otherwise, and tuned by the situation rules). ``profiles`` maps seats to
    what is known of them (persistent profile plus this game's statistics); ``seed``
    makes the virtual dice of the inference reproducible. Without one the seed is drawn
    from the situation itself (:func:`situation_seed`), so the same situation always gets
    the same advice.
    """
    profiles = profiles or {}
    name = auto_level(profiles.values()) if level == "auto" else level
    lvl = level_named(name)
    if seed is None:
        seed = situation_seed(view)
    if lvl.solved_share > 0 and thresholds is None:
        share = random.Random(f"{seed}/solved-share/{len(view.bids)}").random()
        only = not lvl.solved_one_v_two
        move = (
            solved_move(view, seed, last_bet_only=only, two_v_two=lvl.solved_two_v_two)
            if share < lvl.solved_share
            else None
        )
        if move is not None:
            return _solved_advice(move, name, lvl.thresholds)
    trust = {s: p.trust * lvl.trust for s, p in profiles.items()} if lvl.use_stats else {}
    # The virtual rolls' whole distribution, not one sampled roll: every probability the
    # advice states is then the model's own (issue 33).
    dist = round_distribution(view, trust, lvl.trust) if lvl.samples > 0 else []
    hands = [h for h, _ in dist] or [InferredHands()]
    weights = [p for _, p in dist] or None
    reading = read_bids(view, profiles if lvl.use_stats else {}) if lvl.reading else None
    ctx = Context(
        view,
        lvl,
        random.Random(f"{seed}/noise/{len(view.bids)}"),
        hands,
        profiles,
        user_thresholds=thresholds is not None,
        reading=reading,
        weights=weights,
    )
    if thresholds is not None:
        ctx.bluff, ctx.reliability = thresholds.bluff, thresholds.reliability
    run(ctx)
    assert ctx.action is not None
    en, it = explain(ctx)
    return Advice(
        action=ctx.action,
        probability=ctx.probability,
        rules_fired=tuple(ctx.fired),
        explanation_en=en,
        explanation_it=it,
        level=name,
        situation=ctx.situation,
        thresholds=Thresholds(ctx.bluff, ctx.reliability),
        dudo_probability=ctx.dudo_probability,
        alternatives=tuple((str(p.bet.bid), p.bet.probability) for p in ctx.scored[:5]),
        calza_probability=ctx.calza_probability,
    )


def _solved_advice(move: SolvedMove, level: str, th: Thresholds) -> Advice:
    """The advice of a solved heads-up round (``bots.perudo.expert.endgame``)."""
    return Advice(
        action=move.action,
        probability=move.true_chance,
        rules_fired=("solved-endgame",),
        explanation_en=move.explanation_en,
        explanation_it=move.explanation_it,
        level=level,
        situation=move.situation,
        thresholds=th,
        dudo_probability=move.dudo_chance,
        alternatives=tuple(sorted(move.mix.items(), key=lambda kv: -kv[1])[:5]),
        calza_probability=move.true_chance if move.action == "calza" else None,
    )
