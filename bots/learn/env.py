"""PettingZoo AEC environments around umpire's engines: :func:`perudo_env`, :func:`kriegspiel_env`.

The environment holds one engine game (``server/games``): every rule, every die and every
refusal is the engine's; this module only turns seat snapshots into arrays and indices
into action texts (:mod:`bots.learn.perudo_obs`, :mod:`bots.learn.kriegspiel_obs`).

- Agents are ``seat_0``, ``seat_1``, ...; ``agent_selection`` is the engine's ``to_move``.
- ``observe(agent)`` is ``{"observation": float32 vector, "action_mask": int8 vector}``;
  the vector encodes ``Game.view(seat)`` and nothing else, and the mask marks the seat's
  ``legal_texts`` (all zeros when the seat may not act).
- ``infos[agent]`` holds ``"view"``, the raw snapshot the observation encodes, and
  ``"legal"``, the legal action texts; they are refreshed for the agent about to act and
  for every agent when the game ends.
- Rewards come at the end only, from the outcome's ranks: ``(N + 1 - 2 * rank) / (N - 1)``
  for ``N`` seats (a win +1, last place -1, a two-player draw 0).
- ``reset(seed=s)`` makes the game seed ``sha256("umpire-env/<s>")``, so a seeded episode
  replays exactly; without a seed the game seed comes from ``secrets``.
- ``max_actions`` truncates an episode (every agent ``truncated``) after that many actions.

:meth:`UmpireEnv.episode` returns a finished episode as the knowledge base records it
(seed, options, events with their causes, history, outcome): see
``server/store/learn_record.py`` and docs/learning.md.
"""

from __future__ import annotations

import dataclasses
import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from bots.learn.kriegspiel_obs import KriegspielEncoding
from bots.learn.perudo_obs import PerudoEncoding
from server.games import engine
from server.games.base import Event, Game, Outcome, Record

Json = Any


class Encoding(Protocol):
    """What an environment needs from a game's array encoding."""

    @property
    def shape(self) -> tuple[int, ...]:
        """The observation vector's shape."""
        ...

    @property
    def num_actions(self) -> int:
        """How many actions there are."""
        ...

    def encode(self, view: Mapping[str, Json]) -> npt.NDArray[np.float32]:
        """The observation vector of a seat's snapshot."""
        ...

    def mask(self, legal: list[str]) -> npt.NDArray[np.int8]:
        """The action mask of a seat's legal action texts."""
        ...

    def action_text(self, index: int) -> str:
        """The action text at ``index``."""
        ...


@dataclass(frozen=True, slots=True)
class Episode:
    """A finished game played in an environment: what the knowledge base records."""

    game: str
    options: dict[str, Json]
    seed: bytes
    events: list[Event]
    causes: list[int | None]
    history: list[Record]
    outcome: Outcome
    #: who decided each action (``by`` in the knowledge base, docs/data.md): an agent
    #: stepping the environment decides every move of its seat, so ``player`` throughout
    by: list[str] = dataclasses.field(default_factory=list)


def seed_bytes(seed: int | None) -> bytes:
    """The game seed for ``reset(seed=...)``: derived from ``seed``, or fresh if None."""
    if seed is None:
        return secrets.token_bytes(32)
    return hashlib.sha256(f"umpire-env/{seed}".encode()).digest()


def reward(rank: int, seats: int) -> float:
    """The final reward of a seat placed ``rank`` among ``seats``: +1 first, -1 last."""
    return (seats + 1 - 2 * rank) / (seats - 1)


class UmpireEnv(AECEnv):  # type: ignore[misc]  # pettingzoo has no type information
    """One umpire game as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "umpire_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        options: Mapping[str, Json],
        encoding: Encoding,
        *,
        max_actions: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.engine = engine(game)
        self.config = self.engine.make_config(options)
        self.encoding = encoding
        self.max_actions = max_actions
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{s}" for s in range(self.config.seats)]
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, encoding.shape, np.float32),
                "action_mask": spaces.Box(0, 1, (encoding.num_actions,), np.int8),
            }
        )
        action = spaces.Discrete(encoding.num_actions)
        self._observation_spaces = {agent: observation for agent in self.possible_agents}
        self._action_spaces = {agent: action for agent in self.possible_agents}
        self.game: Game | None = None
        self._seen_at = -1
        self._seen_cache: dict[int, tuple[dict[str, Json], list[str]]] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every call)."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent`` (the same object every call)."""
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` fixes its dice (or nothing else is random)."""
        self._game_seed = seed_bytes(seed)
        game, events = self.engine.new_game(self.config, self._game_seed)
        self.game = game
        self._seen_at = -1
        self._seen_cache = {}
        self._events: list[Event] = list(events)
        self._causes: list[int | None] = [None] * len(events)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Json]] = {agent: {} for agent in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s observation: its snapshot as a vector, and its action mask."""
        view, legal = self._seen(self._seat[agent])
        return {
            "observation": self.encoding.encode(view),
            "action_mask": self.encoding.mask(legal),
        }

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (an index); ``None`` for a finished agent."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for finished agents")
        game = self._game()
        seat = self._seat[agent]
        new = game.apply(seat, self.encoding.action_text(int(action)))
        self._events.extend(new)
        self._causes.extend([len(game.history)] * len(new))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        outcome = game.outcome
        if outcome is not None:
            for other in self.agents:
                self.rewards[other] = reward(outcome.ranks[self._seat[other]], game.num_seats)
                self.terminations[other] = True
        elif self.max_actions is not None and len(game.history) >= self.max_actions:
            self.truncations = {a: True for a in self.agents}
        self._accumulate_rewards()
        self._select()

    def _select(self) -> None:
        """Select the seat the engine waits for; when the game is over, every agent in turn."""
        game = self._game()
        to_move = game.to_move
        if to_move is not None and not self.truncations[self.possible_agents[to_move]]:
            self.agent_selection = self.possible_agents[to_move]
            self.infos[self.agent_selection] = self._info(to_move)
            return
        for agent in self.agents:
            self.infos[agent] = self._info(self._seat[agent])
        self.agent_selection = self.agents[0]

    def _info(self, seat: int) -> dict[str, Json]:
        view, legal = self._seen(seat)
        return {"view": view, "legal": legal}

    def _seen(self, seat: int) -> tuple[dict[str, Json], list[str]]:
        """The seat's snapshot and legal actions now (computed once per game state)."""
        game = self._game()
        now = len(game.history)
        if self._seen_at != now:
            self._seen_at, self._seen_cache = now, {}
        found = self._seen_cache.get(seat)
        if found is None:
            found = self._seen_cache[seat] = (game.view(seat), game.legal_texts(seat))
        return found

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def episode(self) -> Episode:
        """The finished game as the knowledge base records it (``server/store/learn_record.py``).

        Raises ``ValueError`` while the game is unfinished (a truncated game is not one).
        """
        game = self._game()
        if game.outcome is None:
            raise ValueError("the game is not over: only finished games are recorded")
        return Episode(
            game=game.name,
            options=self.config.to_options(),
            seed=self._game_seed,
            events=list(self._events),
            causes=list(self._causes),
            history=list(game.history),
            outcome=game.outcome,
            by=["player"] * len(game.history),
        )

    def render(self) -> str | None:
        """The game as the selected agent sees it (text), when ``render_mode="ansi"``."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        return repr(self.game.view(self._seat[self.agent_selection]))

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""


def perudo_env(
    *, max_actions: int | None = None, render_mode: str | None = None, **options: Json
) -> UmpireEnv:
    """A Perudo environment; ``options`` are the room options (``seats=2``,
    ``dice_per_player=1``, ``preset="classic"``, ``calza=True``, ...)."""
    config = engine("perudo").make_config(options)
    return UmpireEnv(
        "perudo",
        options,
        PerudoEncoding(config),
        max_actions=max_actions,
        render_mode=render_mode,
    )


def kriegspiel_env(
    *, max_actions: int | None = None, render_mode: str | None = None, **options: Json
) -> UmpireEnv:
    """A Kriegspiel environment; ``options`` are the room options (``rules="english"``,
    ``fen=...``)."""
    return UmpireEnv(
        "kriegspiel",
        options,
        KriegspielEncoding(),
        max_actions=max_actions,
        render_mode=render_mode,
    )
