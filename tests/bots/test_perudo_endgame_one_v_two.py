"""One die against two: the sparse played policy, its shipped files, the expert playing
it at hard (measured exactly over its support) and the words for two dice."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest

from bots.perudo.endgame import solve as solved
from bots.perudo.endgame.cfr import evaluate
from bots.perudo.endgame.exploit import BotOracle
from bots.perudo.endgame.policy import Policy, behaviour, load, played_policy, save
from bots.perudo.endgame.positions import round_start
from bots.perudo.endgame.tree import bid_code, build, hands
from bots.perudo.expert import TableView, advise
from bots.perudo.expert.endgame import belief, solved_move
from bots.perudo.expert.equilibrium_words import EquilibriumFacts, explain_equilibrium
from bots.registry import load_bot
from bots.sdk.bot import Bot
from server.games.perudo_actions import Bid


def _hard(seed: int | None) -> Bot:
    return load_bot("perudo-expert:hard", seed=seed)[1]()


def test_a_policy_is_saved_and_loaded_compactly(tmp_path: Path) -> None:
    policy = played_policy(solved.last_bet())
    path = tmp_path / "p.npz"
    save(policy, path)
    again = load(path, policy.tree)
    assert np.array_equal(again.key, policy.key) and np.array_equal(again.child, policy.child)
    assert np.allclose(again.prob, policy.prob, atol=1e-4)
    assert again.value == pytest.approx(policy.value)
    # what the last bet's policy plays is an equilibrium of it
    _, br0, br1 = evaluate(policy.tree, behaviour(again), (-1.0, 1.0))
    assert (br0 + br1) / 2 <= 0.002
    with pytest.raises(ValueError, match="not a policy of the 1 v 2 round"):
        load(path, build(1, 2))


def test_a_policy_that_does_not_fit_its_tree_is_refused(tmp_path: Path) -> None:
    policy = played_policy(solved.last_bet())
    broken = Policy(policy.tree, policy.key, policy.child[::-1].copy(), policy.prob)
    path = tmp_path / "broken.npz"
    save(broken, path)
    with pytest.raises(ValueError, match="does not fit"):
        load(path, policy.tree)


@pytest.mark.parametrize(("a", "b"), [(1, 2), (2, 1)])
def test_the_shipped_policies_are_near_an_equilibrium_of_todays_round(a: int, b: int) -> None:
    # 1 v 2: 0.0011, 2 v 1: 0.0018 (both seats solved restricted)
    path = solved.SHIPPED_ROUNDS[(a, b)]
    assert path.stat().st_size <= 2_000_000
    policy = solved.round_policy(a, b)
    assert policy is not None
    value, br0, br1 = evaluate(policy.tree, behaviour(policy), solved.continuation(a, b))
    assert value == pytest.approx(policy.value, abs=0.01)
    assert (br0 + br1) / 2 <= 0.01


@pytest.mark.parametrize(("a", "b"), [(1, 2), (2, 1)])
def test_hard_states_the_shipped_mix_in_real_engine_games(a: int, b: int) -> None:
    # hard's whole exploitability there is measured by the benchmark (some minutes:
    # docs/bots.md); here, that what it states through the engine is the policy's mix
    oracle = BotOracle(_hard, lambda: round_start(a, b))
    policy = solved.round_policy(a, b)
    assert policy is not None
    for role, hand, bids in (
        (0, 0, []),
        (1, 3, ["1x4"]),
        (0, 2, ["1x3", "2x3"]),
        (1, 20, ["1x6", "2x6", "2x1"]),
        (0, 5, ["2x5", "3x5"]),
    ):
        hand_dice = policy.tree.hands[role][min(hand, len(policy.tree.hands[role]) - 1)]
        codes = [bid_code(Bid.parse(t)) for t in bids]
        stated = asyncio.run(oracle.ask(3, role, hand_dice, codes))
        other = b if role == 0 else a
        expected = solved.equilibrium_policy(
            hand_dice, [Bid.parse(t) for t in bids], opener=role == 0, opponent_dice=other
        )
        assert expected is not None and stated.keys() == expected.keys()
        for move, p in expected.items():
            assert stated[move] == pytest.approx(p)
    assert not oracle.decided  # every answer was a stated mix


def test_hard_plays_and_explains_one_die_against_two() -> None:
    # seat 0 holds a 3 and opens against two dice
    view = TableView.build(0, [3], [1, 2], [], dice_per_player=5)
    advice = advise(view, level="hard", seed=4)
    assert advice.rules_fired == ("solved-endgame",)
    assert "Three dice are left in play, your one against your opponent's two" in (
        advice.explanation_en
    )
    assert "Restano in gioco tre dadi, il tuo contro i due dell'avversario" in (
        advice.explanation_it
    )
    # normal keeps its rules there; easy too
    assert advise(view, level="normal", seed=4).rules_fired != ("solved-endgame",)
    # after a bid, the belief about the two dice is a probability over the 21 hands
    answered = TableView.build(1, [2, 5], [1, 2], [(0, "1x4")], dice_per_player=5)
    beliefs = belief(answered)
    assert len(beliefs) == len(hands(1)[0]) and sum(beliefs) == pytest.approx(1.0)
    assert max(beliefs) < 1.0
    move = solved_move(answered, seed=1)
    assert move is not None and move.situation == "final_blow"
    assert sum(move.mix.values()) == pytest.approx(1.0)
    # a bid of more dice than the table holds is answered with dudo
    impossible = TableView.build(1, [2, 5], [1, 2], [(0, "4x4")], dice_per_player=5)
    assert advise(impossible, level="hard", seed=1).action == "dudo"


def test_the_words_name_two_dice_and_the_dice_that_count() -> None:
    facts = EquilibriumFacts("2x5", {"2x5": 0.4, "1x3": 0.6}, 3, None, 0.3, True, (3, 5), 1)
    en, it = explain_equilibrium(facts)
    assert en.startswith(
        "Bid at least 2 fives: your 5 counts for it, but it also needs your opponent's die;"
    )
    assert it.startswith("Scommetti almeno 2 volte 5: il tuo 5 conta, ma serve anche il dado")
    assert "Three dice are left in play, your two against your opponent's one" in en
    sure = EquilibriumFacts("2x5", {"2x5": 1.0}, 1, None, 1.0, False, (1, 5), 1)
    en, it = explain_equilibrium(sure)
    assert en.startswith("Bid at least 2 fives: your 5 and ace support it, so it is certainly")
    assert "il tuo 5 e la tua Testa di Lama la sostengono" in it
    dudo = EquilibriumFacts("dudo", {"dudo": 1.0}, 3, "3x4", 1.0, False, (3,), 2)
    en, it = explain_equilibrium(dudo)
    assert en.startswith("Call Dudo: at least 3 fours is impossible, since your 3 does not")
    assert "il tuo contro i due dell'avversario: qui la mossa migliore è sempre dire Dudo" in it
