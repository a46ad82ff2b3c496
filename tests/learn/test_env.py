"""The PettingZoo environments: PettingZoo's own API and seed tests, masks, rewards, and
observations that are exactly the seat's projection."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from bots.learn.env import UmpireEnv, kriegspiel_env, perudo_env, reward
from bots.learn.kriegspiel_obs import KriegspielEncoding
from bots.learn.kriegspiel_obs import action_index as ks_index
from bots.learn.kriegspiel_obs import action_text as ks_text
from bots.learn.perudo_obs import PerudoEncoding
from server.games.kriegspiel_actions import RULE_SETS
from server.games.perudo import Perudo, PerudoConfig

#: What api_test says of every env with dict observations (PettingZoo's own classic envs,
#: which use the same {"observation", "action_mask"} convention, are exempted by name).
DICT_OBSERVATION_NOTES = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}

PERUDO_OPTIONS = [
    {"seats": 2, "dice_per_player": 1},
    {"seats": 3, "dice_per_player": 2, "preset": "classic"},
    {"seats": 4, "calza": True, "palifico_aces": "wild_conversion"},
    {"seats": 8, "dice_per_player": 3, "show_dice_counts": True},
]


def _api_test(env: UmpireEnv, cycles: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=cycles)
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_NOTES


@pytest.mark.parametrize("options", PERUDO_OPTIONS, ids=lambda o: str(o))
def test_perudo_passes_pettingzoo_api_and_seed_tests(options: dict[str, Any]) -> None:
    _api_test(perudo_env(**options), 300)
    seed_test(lambda: perudo_env(**options), num_cycles=200)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_kriegspiel_passes_pettingzoo_api_and_seed_tests(rules: str) -> None:
    _api_test(kriegspiel_env(rules=rules, max_actions=400), 150)
    seed_test(lambda: kriegspiel_env(rules=rules, max_actions=400), num_cycles=100)


def _rollout(make: Callable[[], UmpireEnv], seed: int, steps: int = 100_000) -> UmpireEnv:
    env = make()
    env.reset(seed=seed)
    rng = random.Random(seed)
    for agent in env.agent_iter(steps):
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert env.observation_space(agent).contains(obs)
        legal = np.flatnonzero(obs["action_mask"])
        # The mask is exactly the engine's legal actions, and the info carries them.
        texts = sorted(env.encoding.action_text(int(i)) for i in legal)
        assert texts == sorted(info["legal"])
        assert env.game is not None
        assert info["view"] == env.game.view(env.possible_agents.index(agent))
        env.step(int(rng.choice(legal)))
    return env


@pytest.mark.parametrize("seed", range(3))
def test_perudo_rollouts_end_with_rewards_from_the_ranks(seed: int) -> None:
    rewards: dict[str, float] = {}
    env = perudo_env(seats=4, dice_per_player=2)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for agent in env.agent_iter():
        obs, rew, terminated, truncated, _ = env.last()
        if terminated or truncated:
            rewards[agent] = rew
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.game is not None and env.game.outcome is not None
    ranks = env.game.outcome.ranks
    assert rewards == {f"seat_{s}": reward(ranks[s], 4) for s in range(4)}
    assert sorted(rewards.values()) == [-1.0, -1 / 3, 1 / 3, 1.0]
    assert not env.agents


@pytest.mark.parametrize("options", PERUDO_OPTIONS, ids=lambda o: str(o))
def test_perudo_rollouts_stay_in_bounds_with_masks_from_the_engine(
    options: dict[str, Any],
) -> None:
    for seed in range(25):
        _rollout(lambda: perudo_env(**options), seed)


def test_kriegspiel_rollouts_stay_in_bounds_with_masks_from_the_engine() -> None:
    for seed, rules in enumerate(RULE_SETS):
        _rollout(lambda: kriegspiel_env(rules=rules, max_actions=300), seed)  # noqa: B023


def test_kriegspiel_truncates_after_max_actions() -> None:
    env = _rollout(lambda: kriegspiel_env(max_actions=50), 3)
    assert env.game is not None and len(env.game.history) == 50
    with pytest.raises(ValueError, match="not over"):
        env.episode()


def test_a_seeded_reset_replays_the_same_dice() -> None:
    env = perudo_env(seats=3)
    env.reset(seed=7)
    first = env.observe("seat_0")["observation"].copy()
    env.reset(seed=8)
    env.reset(seed=7)
    assert np.array_equal(env.observe("seat_0")["observation"], first)


def test_perudo_observation_depends_on_own_dice_never_on_others() -> None:
    env = perudo_env(seats=3, dice_per_player=5)
    env.reset(seed=11)
    game = env.game
    assert isinstance(game, Perudo)
    before = [env.observe(a)["observation"].copy() for a in env.possible_agents]
    # Change seat 1's hidden dice behind the environment's back (a fresh environment
    # state would cache nothing: observe encodes game.view(seat), read anew here).
    game.round.dice[1] = [1, 1, 1, 1, 1] if game.round.dice[1] != [1] * 5 else [6] * 5
    after = [env.encoding.encode(game.view(s)) for s in range(3)]
    assert np.array_equal(before[0], after[0])
    assert np.array_equal(before[2], after[2])
    assert not np.array_equal(before[1], after[1])


def test_perudo_action_indices_round_trip() -> None:
    enc = PerudoEncoding(PerudoConfig(seats=3, dice_per_player=2, calza=True))
    texts = [enc.action_text(i) for i in range(enc.num_actions)]
    assert texts[:7] == ["1x1", "1x2", "1x3", "1x4", "1x5", "1x6", "2x1"]
    assert texts[-2:] == ["dudo", "calza"]
    assert [enc.action_index(t) for t in texts] == list(range(enc.num_actions))
    with pytest.raises(ValueError):
        enc.action_index("7x3")


def test_perudo_encoding_layout() -> None:
    enc = PerudoEncoding(PerudoConfig(seats=2, dice_per_player=1))
    view = {
        "seat": 1,
        "dice": [4],
        "dice_left": 1,
        "to_move": 1,
        "aces_wild": True,
        "palifico": None,
        "out": [],
        "starter": 0,
        "bids": [{"seat": 0, "bid": "1x5"}],
    }
    obs = enc.encode(view)
    assert obs.shape == enc.shape == (11 + 2 * 2 + 2 + 12 + 2 + 14 + 1,)
    assert obs[3] == 1.0 and obs[:6].sum() == 1.0  # one die showing 4
    assert obs[6] == 1.0 and obs[7] == 1.0 and obs[8] == 1.0 and obs[9] == 0.0
    assert list(obs[11:13]) == [1.0, 1.0]  # both seats in
    assert list(obs[15:17]) == [0.0, 1.0]  # the opponent (relative seat 1) started
    assert obs[17 + enc.action_index("1x5")] == 1.0  # the standing bid
    assert list(obs[29:31]) == [0.0, 1.0]  # made by the opponent
    assert list(obs[31 + 7 : 31 + 14]) == [0.5, 0, 0, 0, 0, 1, 0]  # its bid: 1 of 2, face 5
    assert obs[-1] == pytest.approx(1 / 12)


def test_kriegspiel_action_indices_round_trip() -> None:
    for text in ["e2e4", "a7a8q", "a7a8n", "h2g1r", "any", "decline_draw"]:
        assert ks_text(ks_index(text)) == text
    assert ks_index("a1a2") == 8
    assert ks_index("any") == 20480


def test_kriegspiel_observation_is_the_seats_own_pieces() -> None:
    env = kriegspiel_env()
    env.reset(seed=1)
    white = env.observe("seat_0")["observation"]
    black = env.observe("seat_1")["observation"]
    planes_w = white[: 6 * 64].reshape(6, 64)
    planes_b = black[: 6 * 64].reshape(6, 64)
    assert planes_w.sum() == planes_b.sum() == 16
    assert planes_w[0, 8:16].sum() == 8 and planes_w[0, 48:56].sum() == 0  # own pawns only
    assert planes_b[0, 48:56].sum() == 8 and planes_b[0, 8:16].sum() == 0
    enc = KriegspielEncoding()
    assert env.game is not None
    assert np.array_equal(white, enc.encode(env.game.view(0)))
