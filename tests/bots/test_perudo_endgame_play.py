"""The solved last-bet round in play: the shipped solution, hard's exploitability, the
levels' order, the bot's mix and the words that explain it."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Callable

import pytest

from bots.perudo.endgame import solve as solved
from bots.perudo.endgame.cfr import solve
from bots.perudo.endgame.exploit import measure_sync
from bots.perudo.endgame.tree import build
from bots.perudo.expert import PerudoExpert, TableView, advise
from bots.perudo.expert.equilibrium_words import EquilibriumFacts, explain_equilibrium
from bots.registry import load_bot
from bots.sdk.bot import Bot, Decision, GameInfo


def _maker(spec: str) -> Callable[[int | None], Bot]:
    def make(seed: int | None) -> Bot:
        return load_bot(spec, seed=seed)[1]()

    return make


def test_the_shipped_solution_solves_todays_round() -> None:
    shipped = solved.load_solution(build(1, 1), solved.SHIPPED, (-1.0, 1.0))
    assert shipped is not None
    assert shipped.exploitability <= solved.SHIPPED_TOLERANCE
    fresh = solve(build(1, 1), (-1.0, 1.0), 100, solved.LAST_BET_TREMBLE)
    assert shipped.value == pytest.approx(fresh.value, abs=2e-3)
    assert solved.last_bet().exploitability <= solved.SHIPPED_TOLERANCE


def test_hard_is_not_exploitable_in_the_last_bet_round() -> None:
    result = measure_sync(_maker("perudo-expert:hard"))
    assert result.method == "exact"
    assert 0.0 <= result.value <= 0.01


def test_the_levels_are_ordered_by_exploitability() -> None:
    easy = measure_sync(_maker("perudo-expert:easy"), 32).value
    normal = measure_sync(_maker("perudo-expert:normal"), 32).value
    hard = measure_sync(_maker("perudo-expert:hard"), 32).value
    assert easy > normal > hard


def test_uniform_random_is_measured_exactly() -> None:
    result = measure_sync(_maker("perudo-random"))
    assert result.method == "exact"
    assert result.value == pytest.approx(0.8309, abs=1e-3)


async def _opening(seed: int, die: int) -> tuple[str, dict[str, float] | None]:
    bot = PerudoExpert("hard", seed=seed)
    options = {"seats": 2, "dice_per_player": 1, "calza": False, "palifico_aces": "ordinary"}
    await bot.start(GameInfo("perudo", 0, 2, options, {}))
    await bot.observe({"type": "round_started", "round": 1, "starter": 0, "palifico": None,
                       "aces_wild": True, "seat": 0, "dice": [die]})  # fmt: skip
    decision = Decision(0, {}, [f"{q}x{f}" for q in (1, 2) for f in range(2, 7)])
    mix = bot.decision_distribution(decision)
    return await bot.decide(decision), mix


def test_hard_plays_the_mix_it_declares() -> None:
    plays: Counter[str] = Counter()
    mix = None
    for seed in range(400):
        action, mix = asyncio.run(_opening(seed, 3))
        assert mix is not None and action in mix
        plays[action] += 1
    assert mix is not None
    for action, p in mix.items():
        assert plays[action] / 400 == pytest.approx(p, abs=0.08)


def test_the_explanation_says_how_often_and_why() -> None:
    facts = EquilibriumFacts("1x5", {"1x5": 0.33, "1x3": 0.67}, 3, None, 1 / 3, True)
    en, it = explain_equilibrium(facts)
    # the move, and why it is a bluff, spoken to the player
    assert en.startswith("Bid at least 1 five: a bluff, since your 3 does not support it;")
    assert it.startswith("Scommetti almeno 1 volta 5: è un bluff, perché il tuo 3 non la sostiene;")
    # how often, and why mixing makes it safe
    assert "makes this bid about one time in three, so that a challenge never pays" in en
    assert "circa una volta su tre, così che dubitarne non renda mai più" in it
    # the other move of the mix, in words
    assert en.endswith("The other moves and how often to play them: at least 1 three (67%).")
    assert it.endswith("Le altre mosse e quanto spesso giocarle: almeno 1 volta 3 (67%).")
    for text in (en, it):  # no jargon, no "my die", no compact bids
        assert not re.search(r"equilibri|\bthe mix\b|miscuglio|\bmy\b|\bmio\b|1x|1 volte", text)
    view = TableView.build(1, [3], [1, 1], [(0, "1x4")], dice_per_player=1)
    advice = advise(view, level="hard", seed=1)
    assert advice.rules_fired == ("solved-endgame",)
    assert advice.action == "dudo" and advice.dudo_probability == pytest.approx(0.23, abs=0.01)
    assert advice.explanation_en == (
        "Call Dudo: at least 1 four is false with probability 23%, given your 3 and the bids "
        "so far, if your opponent plays well; no raise does better. Only two dice are left in "
        "play, one each, and this round decides the game: here the best play is always Dudo."
    )
    assert advice.explanation_it == (
        "Di' Dudo: la dichiarazione «almeno 1 volta 4» è falsa con probabilità del 23%, "
        "considerando il tuo 3 e le dichiarazioni fatte, se l'avversario gioca bene; nessun "
        "rilancio rende di più. Restano in gioco due dadi, uno a testa, e questo turno decide "
        "la partita: qui la mossa migliore è sempre dire Dudo."
    )


def test_a_sure_bid_reads_certain_and_the_rest_of_the_mix_is_named() -> None:
    facts = EquilibriumFacts("1x6", {"1x6": 0.98, "1x3": 0.012, "1x2": 0.008}, 6, None, 1.0, False)
    en, it = explain_equilibrium(facts)
    assert en.startswith("Bid at least 1 six: your 6 supports it, so it is certainly true.")
    assert it.startswith(
        "Scommetti almeno 1 volta 6: il tuo 6 la sostiene, quindi è di certo vera."
    )
    assert "98% of the time, mixing honest bids with bluffs" in en
    assert "il 98% delle volte, alternando scommesse sincere e bluff" in it
    assert it.endswith("almeno 1 volta 3 (1%) e almeno 1 volta 2 (1%).")
    ace = EquilibriumFacts("1x4", {"1x4": 1.0}, 1, "1x2", 1.0, False)
    en, it = explain_equilibrium(ace)
    assert "your ace supports it" in en and "la tua Testa di Lama la sostiene" in it
    assert en.endswith("here the best play is always this bid.")
    assert it.endswith("qui la mossa migliore è sempre questa scommessa.")
