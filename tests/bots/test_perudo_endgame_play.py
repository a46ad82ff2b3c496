"""The solved last-bet round in play: the shipped solution, hard's exploitability, the
levels' order, the bot's mix and the words that explain it."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable

import pytest

from bots.perudo_endgame import solve as solved
from bots.perudo_endgame.cfr import solve
from bots.perudo_endgame.exploit import measure_sync
from bots.perudo_endgame.tree import build
from bots.perudo_expert import PerudoExpert, TableView, advise
from bots.perudo_expert.equilibrium_words import EquilibriumFacts, explain_equilibrium
from bots.registry import load_bot
from bots.sdk import Bot, Decision, GameInfo


def _maker(spec: str) -> Callable[[int | None], Bot]:
    def make(seed: int | None) -> Bot:
        return load_bot(spec, seed=seed)[1]()

    return make


def test_the_shipped_solution_solves_todays_round() -> None:
    shipped = solved._load(build(1, 1), solved.SHIPPED, (-1.0, 1.0))
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
    assert en.startswith("Bid at least 1 five: a bluff")
    assert "one time in 3" in en and "challenge never pays" in en
    assert it.startswith("Scommetti almeno 1 volte 5: un bluff")
    assert "una volta su 3" in it
    assert "Situation: last bet" in en and "Situazione: ultima scommessa" in it
    view = TableView.build(1, [3], [1, 1], [(0, "1x4")], dice_per_player=1)
    advice = advise(view, level="hard", seed=1)
    assert advice.rules_fired == ("solved-endgame",)
    assert advice.explanation_en.startswith(("Dudo:", "Bid at least"))
    assert "solved, so I play the equilibrium" in advice.explanation_en
    assert "risolta, gioco l'equilibrio" in advice.explanation_it
    assert advice.dudo_probability is not None and 0.0 < advice.dudo_probability < 1.0
