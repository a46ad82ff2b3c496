"""The sets' densities expect the units there are (``bots.kriegspiel.meta.crowding``):
loose material bounds (captures of unknown kind, possible promotions) no longer make
every kind's density count every unit."""

from __future__ import annotations

import chess

from benchmarks.kriegspiel_draws import play, tournament
from bots.kriegspiel.meta import Metaposition
from bots.kriegspiel.meta.crowding import expected_units, unit_scale
from bots.kriegspiel.meta.evaluate import densities

#: Black's ten units (Q R R B B N N P P P) may stand anywhere: only the material is known.
_FEN = "qrrbbnn1/ppp5/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"


def _total(meta: Metaposition) -> float:
    """The units the occupancy expects over the whole board."""
    return sum(meta.occupancy(square) for square in chess.SQUARES)


def test_the_densities_expect_the_units_there_are() -> None:
    meta = Metaposition.from_start(chess.WHITE, "wild16", _FEN)
    meta.promotions = 3  # three pawns may have promoted, to anything: every bound loosens
    assert meta.units == 10
    assert expected_units(meta) == 22  # 3 pawns, N 5, B 5, R 5, Q 4
    # Unscaled, the occupancy summed to 22 units (the game of seed 9: 37 for 10).
    assert abs(_total(meta) - meta.units) < 0.5
    assert unit_scale(meta) == 10 / 22


def test_tight_bounds_are_left_alone() -> None:
    start = Metaposition.from_start(chess.WHITE, "wild16")
    assert unit_scale(start) == 1.0
    assert abs(_total(start) - 15) < 1e-9  # the fifteen units on their squares
    meta = Metaposition.from_start(chess.WHITE, "wild16", _FEN)
    assert unit_scale(meta) == 1.0  # every kind's count exact
    assert densities(meta)[chess.QUEEN] == 1 / 48


def test_game_20_of_seed_9_is_mated_now() -> None:
    # The reference run's game 20 (seed 9, wild16, nodes=1000, against kriegspiel-random):
    # main drew it by the fifty-move rule, far ahead (docs/kriegspiel_meta.md, *Issue 33
    # after the merge*); with the densities scaled, checkmate.
    bots = ["kriegspiel-meta:hard", "kriegspiel-random"]
    spec = tournament(bots, 21, "9", "wild16", "nodes=1000")[20]
    row = play(spec, bots)
    assert (row.ending.result, row.ending.reason) == ("win", "checkmate")
