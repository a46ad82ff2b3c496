"""Random-policy rollouts in the PettingZoo environments: environment steps per second.

Usage::

    python -m benchmarks.learn_envs [--seconds 10]

Each row plays whole episodes for about ``--seconds``: at every step the selected agent
takes ``env.last()`` (observation vector, action mask) and plays a uniformly random legal
action; finished agents step ``None``, as PettingZoo's loop requires. A *step* is one
``env.step`` with an action (the final ``None`` steps are not counted). Kriegspiel runs
twice: uniformly over every legal action (resign and draw offers included, so games are
short), and over attempts and ``any`` only (games last until mate or a draw rule).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import numpy as np

from benchmarks.common import arguments
from bots.learn.env import UmpireEnv, kriegspiel_env, perudo_env
from bots.learn.kriegspiel_obs import NUM_ACTIONS as KS_ACTIONS

_WORDS = np.arange(KS_ACTIONS) >= KS_ACTIONS - 4  # resign and the draw words


def rollouts(
    make: Callable[[], UmpireEnv], seconds: float, no_words: bool = False
) -> dict[str, float]:
    """Play episodes for about ``seconds``; return steps/s, episodes and mean length."""
    env = make()
    rng = np.random.default_rng(0)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=episodes)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = obs["action_mask"].astype(bool)
            if no_words and (mask & ~_WORDS).any():
                mask &= ~_WORDS
            env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
        episodes += 1
    elapsed = time.perf_counter() - start
    return {
        "steps_per_s": round(steps / elapsed),
        "episodes": episodes,
        "mean_steps": round(steps / episodes, 1),
    }


def main() -> None:
    """Print one JSON line per environment."""
    parser = arguments(__doc__)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    rows: list[tuple[str, Callable[[], UmpireEnv], bool]] = [
        ("perudo 2 seats x 1 die", lambda: perudo_env(seats=2, dice_per_player=1), False),
        ("perudo 4 seats x 5 dice", lambda: perudo_env(seats=4), False),
        ("perudo 6 seats x 5 dice, calza", lambda: perudo_env(seats=6, calza=True), False),
        ("kriegspiel wild16, every action", lambda: kriegspiel_env(), False),
        ("kriegspiel wild16, no resign/draw", lambda: kriegspiel_env(), True),
        ("kriegspiel english, no resign/draw", lambda: kriegspiel_env(rules="english"), True),
    ]
    for name, make, no_words in rows:
        print(json.dumps({"env": name, **rollouts(make, args.seconds, no_words)}), flush=True)


if __name__ == "__main__":
    main()
