"""Kriegspiel as an OpenSpiel Python game (``python_umpire_kriegspiel``), on umpire's engine.

Importing this module registers the game; ``pyspiel.load_game("python_umpire_kriegspiel",
{"rules": "english"})`` gives a two-player, zero-sum game of imperfect information with no
chance, whose every decision is the engine's (:class:`server.games.kriegspiel.KriegspielGame`):
attempts possible on the seat's own board, the umpire's answers, the commands. The game is
far too large for exact algorithms (CFR, exploitability); OpenSpiel's sampling algorithms,
MCTS-style bots and random simulation run on it.

Actions are :mod:`bots.learn.kriegspiel_obs` indices. A seat's *information state* is its
snapshot ``Game.view(seat)`` as JSON (its own pieces, the attempts refused this turn and
every announcement it heard: that is perfect recall); its *observation* is the same
snapshot without the announcements before the last one. The observation tensor is the
encoding of the snapshot. Returns: +1 win, -1 loss, 0 draw.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from bots.learn.kriegspiel_obs import NUM_ACTIONS, SHAPE, KriegspielEncoding
from server.games.kriegspiel import KriegspielConfig, KriegspielGame, new_game

SHORT_NAME = "python_umpire_kriegspiel"
_SEED = b"openspiel-kriegspiel"  # Kriegspiel draws nothing from its seed

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Kriegspiel on umpire's rules engine",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "wild16"},
)


class KriegspielOpenSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """The OpenSpiel game for one rule set."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {"rules": "wild16", **(params or {})}
        self.umpire_config = KriegspielConfig.from_options({"rules": merged["rules"]})
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            # a bound, not a typical length: the 75-move rule and fivefold repetition end
            # every game, and a turn has at most a few hundred attempts
            max_game_length=1_000_000,
        )
        super().__init__(_GAME_TYPE, info, merged)

    def __deepcopy__(self, memo: dict[int, Any]) -> KriegspielOpenSpielGame:
        """The game itself: it never changes (OpenSpiel deep-copies a state's attributes)."""
        return self

    def new_initial_state(self) -> KriegspielState:
        """The game's start."""
        return KriegspielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> KriegspielObserver:
        """The observer OpenSpiel asks for strings and tensors."""
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return KriegspielObserver(perfect_recall)


class Board:
    """The engine's game behind a state, rebuilt from the moves when first used after a
    copy (OpenSpiel clones a Python state by deep-copying its attributes)."""

    def __init__(self, game: KriegspielOpenSpielGame, moves: tuple[int, ...] = ()) -> None:
        self.game = game
        self.moves = moves
        self._engine: KriegspielGame | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Board:
        return Board(self.game, self.moves)

    @property
    def engine(self) -> KriegspielGame:
        """The engine's game after ``moves``."""
        if self._engine is None:
            engine, _ = new_game(self.game.umpire_config, _SEED)
            for move in self.moves:
                self._play(engine, move)
            self._engine = engine
        return self._engine

    def apply(self, move: int) -> None:
        """Apply an action index for the seat to move."""
        self._play(self.engine, move)
        self.moves = (*self.moves, move)

    @staticmethod
    def _play(engine: KriegspielGame, move: int) -> None:
        seat = engine.to_move
        assert seat is not None
        engine.apply(seat, KriegspielEncoding().action_text(move))


class KriegspielState(pyspiel.State):  # type: ignore[misc]
    """One Kriegspiel game, as OpenSpiel sees it."""

    def __init__(self, game: KriegspielOpenSpielGame) -> None:
        super().__init__(game)
        self.board = Board(game)

    def current_player(self) -> int:
        """The seat to move (0 white, 1 black), or TERMINAL."""
        to_move = self.board.engine.to_move
        return int(pyspiel.PlayerId.TERMINAL) if to_move is None else to_move

    def _legal_actions(self, player: int) -> list[int]:
        enc = KriegspielEncoding()
        return sorted(enc.action_index(t) for t in self.board.engine.legal_texts(player))

    def _apply_action(self, action: int) -> None:
        self.board.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return KriegspielEncoding().action_text(action)

    def is_terminal(self) -> bool:
        """True once the engine's game has an outcome."""
        return self.board.engine.outcome is not None

    def returns(self) -> list[float]:
        """+1 / -1 for a win, 0 each for a draw (and before the end)."""
        outcome = self.board.engine.outcome
        if outcome is None or outcome.is_draw:
            return [0.0, 0.0]
        return [1.0 if rank == 1 else -1.0 for rank in outcome.ranks]

    def __str__(self) -> str:
        return " ".join(r.action for r in self.board.engine.history)


class KriegspielObserver:
    """Information state (the whole snapshot) or observation (the last announcement)."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(SHAPE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: KriegspielState, player: int) -> None:
        """Fill ``tensor`` with the encoding of the seat's snapshot."""
        self.tensor[:] = KriegspielEncoding().encode(state.board.engine.view(player))

    def string_from(self, state: KriegspielState, player: int) -> str:
        """The seat's snapshot as JSON (without old announcements for an observation)."""
        view = state.board.engine.view(player)
        if not self.perfect_recall:
            view["announcements"] = view["announcements"][-1:]
        return json.dumps(view, separators=(",", ":"), sort_keys=True)


pyspiel.register_game(_GAME_TYPE, KriegspielOpenSpielGame)
