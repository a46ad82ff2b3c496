"""The lone king's belief (``bots/kriegspiel/meta/belief.py``): the filter's invariants."""

from __future__ import annotations

import random
from typing import Any

import chess
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.baseline import KriegspielRandom
from bots.kriegspiel.meta import Metaposition
from bots.kriegspiel.meta.belief import (
    KingBelief,
    attacked_by,
    mask,
    spread,
    spread_central,
    take_chance,
)
from bots.kriegspiel.meta.mate import Pieces
from bots.kriegspiel.meta.update import observe
from bots.sdk.bot import Bot, Decision, GameInfo
from bots.sdk.local import play_local
from tests.bots.kriegspiel_meta_harness import CentreKing, random_start, truth_sink


def _pieces(board: chess.Board) -> Pieces:
    king = board.king(chess.WHITE)
    assert king is not None
    others = sorted(
        (board.piece_type_at(square) or 0, square)
        for square in chess.SquareSet(board.occupied_co[chess.WHITE] & ~board.kings)
    )
    return ((chess.KING, king), *others)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([chess.BISHOP, chess.KNIGHT]))
def test_one_step_is_the_random_kings_exact_distribution(seed: int, second: int) -> None:
    # The king, to move, picks uniformly among its legal moves (python-chess judges them).
    fen = random_start([chess.BISHOP, second], seed)
    board = chess.Board(fen)
    board.turn = chess.BLACK
    if not board.is_valid():
        return  # White was giving check: not a position with Black to move
    king = board.king(chess.BLACK)
    assert king is not None
    board.remove_piece_at(king)
    pieces = _pieces(board)
    board.set_piece_at(king, chess.Piece(chess.KING, chess.BLACK))
    start = np.zeros(64)
    start[king] = 1.0
    after = spread(start, pieces)
    legal = [move.to_square for move in board.legal_moves]
    expected = np.zeros(64)
    for square in legal:
        expected[square] = 1.0 / len(legal)
    assert np.allclose(after, expected)
    taken = sum(1 for square in legal if board.piece_at(square) is not None)
    assert take_chance(start, pieces) == pytest.approx(taken / len(legal) if legal else 0.0)


class Tracker(Bot):
    """Random attempts of ours while a :class:`KingBelief` follows the hidden king; every
    decision checks the belief against the metaposition's region and the true king."""

    def __init__(self, seed: int, truth: dict[str, chess.Board]) -> None:
        self.rng = random.Random(seed)
        self.truth = truth
        self.meta: Metaposition | None = None
        self.belief = KingBelief()
        self.problems: list[str] = []
        self.decisions = 0

    async def start(self, info: GameInfo) -> None:
        """The metaposition of White with the start's material known."""
        await super().start(info)
        fen = info.options.get("fen")
        assert isinstance(fen, str)
        self.meta = Metaposition.from_start(chess.WHITE, "wild16", fen)

    async def observe(self, event: dict[str, Any]) -> None:
        """Fold the projection into the metaposition."""
        assert self.meta is not None
        observe(self.meta, event)

    async def decide(self, decision: Decision) -> str:
        """Check the belief, then a random attempt (often a refused king step)."""
        meta = self.meta
        assert meta is not None
        region = meta.may[chess.KING]
        mass = self.belief.track(_pieces(meta.own), region)
        self.decisions += 1
        king = self.truth["board"].king(chess.BLACK)
        if not np.array_equal(mass > 0.0, mask(region)):
            self.problems.append(f"support differs from the region at {meta.own.fen()}")
        if abs(float(mass.sum()) - 1.0) > 1e-9:
            self.problems.append(f"mass sums to {mass.sum()}")
        if king is not None and mass[king] <= 0.0:
            self.problems.append(f"the king's square {chess.square_name(king)} has no mass")
        attempts = [a for a in decision.legal if a not in {"resign", "offer_draw", "any"}]
        attempts = [a for a in attempts if a not in {"accept_draw", "decline_draw"}]
        return self.rng.choice(attempts or decision.legal)


@pytest.mark.parametrize("defender", ["random", "centre"])
@pytest.mark.parametrize("second", [chess.BISHOP, chess.KNIGHT])
async def test_the_beliefs_support_is_always_the_region(defender: str, second: int) -> None:
    decisions = 0
    central = []
    for seed in range(6):
        fen = random_start([chess.BISHOP, second], seed)
        truth = {"board": chess.Board(fen)}
        tracker = Tracker(seed, truth)
        other: Bot = CentreKing(seed=seed) if defender == "centre" else KriegspielRandom(seed)
        await play_local(
            "kriegspiel",
            {"rules": "wild16", "fen": fen},
            [tracker, other],
            seed.to_bytes(8, "big"),
            sink=truth_sink(truth),
        )
        assert tracker.problems == []
        # The one disagreement: the metaposition lets a lone king on e8 castle.
        assert tracker.belief.repaired & ~(chess.BB_C8 | chess.BB_G8) == 0
        decisions += tracker.decisions
        if tracker.decisions >= 15:
            central.append(tracker.belief.weights[1])
    assert decisions > 60  # the games were long enough to say something
    # The evidence tells the two kings apart: the posterior of the central hypothesis.
    assert central
    if defender == "centre":
        assert min(central) > 0.9, central
    else:
        assert sum(central) / len(central) < 0.15, central


def test_a_central_king_steps_to_its_most_central_legal_squares() -> None:
    # Kc3 and Bd4 against a king on e6: the bishop takes e5 and f6 away, so the king
    # that heads for the centre steps to d5, whatever else is free.
    board = chess.Board("8/8/4k3/8/3B4/2K5/8/8 w - - 0 1")
    king = board.king(chess.BLACK)
    assert king is not None
    board.remove_piece_at(king)
    pieces = _pieces(board)
    start = np.zeros(64)
    start[king] = 1.0
    after = spread_central(start, pieces)
    attacked = attacked_by(pieces)
    legal = chess.BB_KING_ATTACKS[king] & ~attacked
    assert _support(after) & ~legal == 0 and after.sum() == pytest.approx(1.0)
    distance = {
        square: abs(2 * chess.square_file(square) - 7) + abs(2 * chess.square_rank(square) - 7)
        for square in chess.SquareSet(legal)
    }
    best = min(distance.values())
    central = {chess.square_name(s) for s, d in distance.items() if d == best}
    assert central == {"d5"}
    assert {chess.square_name(s) for s in chess.SquareSet(_support(after))} == central


def _support(mass: np.ndarray[Any, Any]) -> int:
    result = 0
    for square in np.flatnonzero(mass > 0.0):
        result |= 1 << int(square)
    return result
