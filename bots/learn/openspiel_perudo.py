"""Perudo as an OpenSpiel Python game (``python_umpire_perudo``), on umpire's engine.

Importing this module registers the game with ``pyspiel.register_game``; then
``pyspiel.load_game("python_umpire_perudo(players=2,dice_per_player=1)")`` gives a game
that OpenSpiel's own algorithms (CFR, exploitability, MCTS, ...) run on. Parameters:
``players`` (2..8), ``dice_per_player`` (1..10), ``preset`` (piatnik | classic) and
``calza``.

Every decision is the engine's (:class:`server.games.perudo.Perudo`): its legal actions,
its raises, its challenges, reveals, losses, palifico and round starters. What OpenSpiel
must own is chance, so it replaces the engine's seeded draws:

- the first starter is a chance node (uniform over seats); it picks one of the fixed
  seeds whose seeded starter is that seat, so the engine starts the round there itself;
- each die of each round is a chance node (uniform over faces 1..6, seat by seat); once
  the round's dice are all drawn the engine deals them (``Perudo.redeal``) in place of
  the dice rolled from the seed, and its ``round_started`` event, with them, is what the
  seats receive.

A seat's *information state* (perfect recall) is its projection stream: every event as
that seat received it, one JSON object a line, after ``p<seat>``. Its *observation* is its
snapshot ``Game.view(seat)`` (and the tensor :class:`bots.learn.perudo_obs.PerudoEncoding`
of it). Actions are the encoding's indices: bids ``(Q - 1) * 6 + F - 1``, then dudo, calza.
Returns are ``(N + 1 - 2 * rank) / (N - 1)`` (zero-sum; +1 / -1 with two players).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from bots.learn.perudo_obs import PerudoEncoding
from server.games.base import Event
from server.games.perudo import Perudo, PerudoConfig, new_game
from server.games.perudo_dice import first_starter

SHORT_NAME = "python_umpire_perudo"
_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "dice_per_player": 1,
    "preset": "piatnik",
    "calza": False,
}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Perudo on umpire's rules engine",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def starter_seeds(seats: int) -> list[bytes]:
    """For each seat, the first seed ``b"openspiel/<n>"`` whose seeded first starter it is."""
    found: dict[int, bytes] = {}
    n = 0
    while len(found) < seats:
        seed = f"openspiel/{n}".encode()
        found.setdefault(first_starter(seed, seats), seed)
        n += 1
    return [found[s] for s in range(seats)]


def config_of(params: dict[str, Any]) -> PerudoConfig:
    """The engine config of OpenSpiel game parameters."""
    seats = int(params["players"])
    return PerudoConfig.from_options(
        {
            "seats": seats,
            "max_players": max(6, seats),
            "dice_per_player": int(params["dice_per_player"]),
            "preset": str(params["preset"]),
            "calza": bool(params["calza"]),
        }
    )


class PerudoGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """The OpenSpiel game: a config, its encoding, and the starter seeds."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_DEFAULTS, **(params or {})}
        self.umpire_config = config_of(merged)
        self.encoding = PerudoEncoding(self.umpire_config)
        self.seeds = starter_seeds(self.umpire_config.seats)
        seats = self.umpire_config.seats
        total = self.umpire_config.total_dice
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=max(6, seats),
            num_players=seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            # every round: at most one action per bid plus a challenge, and its dice
            max_game_length=1 + (total - 1) * (self.encoding.num_actions + total),
        )
        super().__init__(_GAME_TYPE, info, merged)

    def __deepcopy__(self, memo: dict[int, Any]) -> PerudoGame:
        """The game itself: it never changes. (OpenSpiel clones a Python state by
        deep-copying its attributes, among them this game.)"""
        return self

    def new_initial_state(self) -> PerudoState:
        """A game before its starter is drawn."""
        return PerudoState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> PerudoObserver:
        """The observer OpenSpiel asks for observation and information-state strings."""
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return PerudoObserver(self.encoding, perfect_recall)


class Table:
    """The engine's game behind an OpenSpiel state, rebuilt from the moves on demand.

    ``moves`` are OpenSpiel's actions so far (the starter, each die, each decision).
    OpenSpiel clones a Python state by deep-copying its attributes: a table's copy keeps
    only the moves and replays them through the engine when first used, which costs less
    than copying the engine's state.
    """

    def __init__(self, game: PerudoGame, moves: tuple[int, ...] = ()) -> None:
        self.game = game
        self.moves = moves
        self._engine: Perudo | None = None
        self.pending: list[int] = []  # the seats whose next die is still to be drawn
        self.drawn: list[list[int]] = []
        self._heard: list[list[dict[str, Any]]] = [[] for _ in range(game.umpire_config.seats)]
        self._held: list[Event] = []  # a new round's events, waiting for its dice
        #: each seat's snapshot once round 1 is dealt (a bot's ``GameInfo.view``)
        self._start_views: list[dict[str, Any] | None] = [None] * game.umpire_config.seats
        self._ready = not moves

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return Table(self.game, self.moves)

    @property
    def engine(self) -> Perudo | None:
        """The engine's game (None before the starter is drawn)."""
        self._replay()
        return self._engine

    @property
    def heard(self) -> list[list[dict[str, Any]]]:
        """Each seat's projection stream so far (a new round's, once its dice are drawn)."""
        self._replay()
        return self._heard

    @property
    def start_views(self) -> list[dict[str, Any] | None]:
        """Each seat's snapshot once round 1 is dealt (what a bot starts with)."""
        self._replay()
        return self._start_views

    def is_chance(self) -> bool:
        """True while the starter or a die is to be drawn."""
        self._replay()
        return self._engine is None or bool(self.pending)

    def apply(self, move: int) -> None:
        """Apply one OpenSpiel action: the starter, a die (face - 1) or a decision."""
        self._replay()
        self._apply(move)
        self.moves = (*self.moves, move)

    def _replay(self) -> None:
        if self._ready:
            return
        self._ready = True
        for move in self.moves:
            self._apply(move)

    def _apply(self, move: int) -> None:
        if self._engine is None:
            cfg, seeds = self.game.umpire_config, self.game.seeds
            game, events = new_game(cfg, seeds[move])
            assert isinstance(game, Perudo)
            self._engine = game
            self._deliver(events)
        elif self.pending:
            self.drawn[self.pending.pop(0)].append(move + 1)
            if not self.pending:
                self._settle_dice()
        else:
            seat = self._engine.to_move
            assert seat is not None
            self._deliver(self._engine.apply(seat, self.game.encoding.action_text(move)))

    def _deliver(self, events: list[Event]) -> None:
        """Pass events to the seats; hold a new round's events until its dice are drawn."""
        assert self._engine is not None
        for event in events:
            if self._held or event.type == "round_started":
                self._held.append(event)
            else:
                self._hear(event)
        if self._held:
            counts = self._engine.counts
            self.pending = [s for s in range(len(counts)) for _ in range(counts[s])]
            self.drawn = [[] for _ in counts]

    def _settle_dice(self) -> None:
        """Deal the drawn dice to the engine's round and pass on the held events, the
        engine's ``round_started`` now with those dice."""
        assert self._engine is not None
        dealt = self._engine.redeal(self.drawn)
        if self._engine.round.number == 1:
            self._start_views = [self._engine.view(s) for s in range(self._engine.num_seats)]
        held, self._held = self._held, []
        for event in held:
            self._hear(dealt if event.type == "round_started" else event)

    def _hear(self, event: Event) -> None:
        for seat, heard in enumerate(self._heard):
            view = event.view(seat)
            if view is not None:
                heard.append(view)


class PerudoState(pyspiel.State):  # type: ignore[misc]
    """One game of :class:`PerudoGame`: OpenSpiel's view of a :class:`Table`."""

    def __init__(self, game: PerudoGame) -> None:
        super().__init__(game)
        self.table = Table(game)

    @property
    def engine(self) -> Perudo | None:
        """The engine's game (None before the starter is drawn)."""
        return self.table.engine

    def current_player(self) -> int:
        """The seat to act, CHANCE while a starter or a die is drawn, or TERMINAL."""
        table = self.table
        if table.is_chance():
            return int(pyspiel.PlayerId.CHANCE)
        assert table.engine is not None
        to_move = table.engine.to_move
        return int(pyspiel.PlayerId.TERMINAL) if to_move is None else to_move

    def _legal_actions(self, player: int) -> list[int]:
        engine = self.table.engine
        assert engine is not None
        enc = self.table.game.encoding
        return sorted(enc.action_index(t) for t in engine.legal_texts(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The starter (one per seat) or the next die (faces 1..6 as 0..5), uniform."""
        n = self.table.game.umpire_config.seats if self.table.engine is None else 6
        return [(o, 1.0 / n) for o in range(n)]

    def _apply_action(self, action: int) -> None:
        self.table.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"starter:{action}" if self.table.engine is None else f"die:{action + 1}"
        return self.table.game.encoding.action_text(action)

    def is_terminal(self) -> bool:
        """True once the engine's game has an outcome."""
        engine = self.table.engine
        return engine is not None and engine.outcome is not None

    def returns(self) -> list[float]:
        """Each seat's return: 0 until the end, then from its rank."""
        engine = self.table.engine
        seats = self.table.game.umpire_config.seats
        if engine is None or engine.outcome is None:
            return [0.0] * seats
        return [(seats + 1 - 2 * r) / (seats - 1) for r in engine.outcome.ranks]

    def __str__(self) -> str:
        engine = self.table.engine
        if engine is None:
            return "(starter not drawn)"
        history = " ".join(f"{r.seat}:{r.action}" for r in engine.history)
        return f"round {engine.round.number} dice {engine.round.dice} | {history}"


class PerudoObserver:
    """Observation (the seat's snapshot) or information state (its projection stream)."""

    def __init__(self, encoding: PerudoEncoding, perfect_recall: bool) -> None:
        self.encoding = encoding
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(encoding.shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PerudoState, player: int) -> None:
        """Fill ``tensor`` with the encoding of the seat's snapshot."""
        self.tensor.fill(0.0)
        if not state.table.is_chance():
            assert state.engine is not None
            self.tensor[:] = self.encoding.encode(state.engine.view(player))

    def string_from(self, state: PerudoState, player: int) -> str:
        """The seat's projection stream (perfect recall) or its snapshot, as text."""
        if self.perfect_recall:
            heard = state.table.heard[player]
            return "\n".join([f"p{player}", *(_text(view) for view in heard)])
        if state.table.is_chance():
            return f"p{player} waiting for dice"
        assert state.engine is not None
        return _text(state.engine.view(player))


def _text(view: dict[str, Any]) -> str:
    return json.dumps(view, separators=(",", ":"), sort_keys=True)


pyspiel.register_game(_GAME_TYPE, PerudoGame)
