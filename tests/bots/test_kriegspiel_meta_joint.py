"""The joint belief over the hidden king and its one unit (``bots/kriegspiel/meta/joint.py``).

Checked against an independent filter written with python-chess's legal moves and the
umpire's own check directions (``server/games/kriegspiel_rules.py``): the same posterior,
pair by pair, after our moves, our refused attempts and the enemy's random moves; and in
longer random games the true pair never loses its mass.
"""

from __future__ import annotations

import random

import chess
import numpy as np
import pytest

from bots.kriegspiel.meta.joint import JointBelief, move_outcomes, reply
from server.games.kriegspiel_rules import check_directions
from tests.bots.kriegspiel_meta_harness import random_start

Pair = tuple[int, int]
KINDS = (chess.KNIGHT, chess.BISHOP, chess.ROOK)


def _ours(board: chess.Board, us: chess.Color) -> tuple[tuple[int, int], ...]:
    king = board.king(us)
    assert king is not None
    others = sorted(
        (board.piece_type_at(square) or 0, square)
        for square in chess.SquareSet(board.occupied_co[us] & ~board.kings)
    )
    return ((chess.KING, king), *others)


def _truth(board: chess.Board, us: chess.Color) -> Pair:
    king = board.king(not us)
    assert king is not None
    return king, chess.lsb(board.occupied_co[not us] & ~board.kings)


def _with(
    board: chess.Board, pair: Pair, kind: int, turn: chess.Color, us: chess.Color
) -> chess.Board | None:
    """Our pieces of ``board`` with the enemy king and unit on ``pair``; ``None`` if
    the squares clash or the side not to move is in check."""
    king, unit = pair
    ours = board.occupied_co[us]
    if king == unit or (ours >> king) & 1 or (ours >> unit) & 1:
        return None
    result = chess.Board(None)
    for square in chess.SquareSet(ours):
        result.set_piece_at(square, board.piece_at(square))
    result.set_piece_at(king, chess.Piece(chess.KING, not us))
    result.set_piece_at(unit, chess.Piece(kind, not us))
    result.turn = turn
    return result if result.is_valid() else None


def _attempts(
    board: chess.Board, ours: tuple[tuple[int, int], ...], us: chess.Color
) -> list[chess.Move]:
    """Our attempts on our own board: its moves and every pawn's two captures."""
    own = chess.Board(None)
    own.turn = us
    for _, square in ours:
        own.set_piece_at(square, board.piece_at(square))
    moves = list(own.generate_pseudo_legal_moves())
    for pawn in own.pieces(chess.PAWN, us):
        for target in chess.SquareSet(chess.BB_PAWN_ATTACKS[us][pawn]):
            last = chess.square_rank(target) in (0, 7)
            moves.append(chess.Move(pawn, target, chess.QUEEN if last else None))
    return moves


def _start(kind: int, seed: int, pawn: bool, us: chess.Color) -> chess.Board:
    """A random start with our queen (and a pawn), the enemy king and ``kind``; for
    ``us`` black, the same mirrored (black to move)."""
    pieces = [chess.QUEEN, chess.PAWN] if pawn else [chess.QUEEN]
    board = chess.Board(random_start(pieces, seed, [kind]))
    return board if us == chess.WHITE else board.mirror()


def _our_oracle(
    states: dict[Pair, float],
    board: chess.Board,
    kind: int,
    move: chess.Move,
    heard: object,
    us: chess.Color,
) -> dict[Pair, float]:
    """Condition ``states`` on our ``move``: ``heard`` is None (refused) or (capture,
    check directions)."""
    result = {}
    for pair, mass in states.items():
        position = _with(board, pair, kind, us, us)
        assert position is not None
        legal = move in position.legal_moves
        if heard is None:
            if not legal:
                result[pair] = mass
            continue
        if not legal:
            continue
        capture = position.is_capture(move)
        position.push(move)
        if (capture, tuple(check_directions(position))) == heard:
            result[pair] = mass
    return result


def _their_oracle(
    states: dict[Pair, float], board: chess.Board, kind: int, heard: object, us: chess.Color
) -> dict[Pair, float]:
    """The enemy's uniformly random legal move from each pair, conditioned on ``heard``
    = (the square of our piece taken or None, check directions on us): :func:`_their_triples`
    with one kind that cannot promote."""
    triples = {(kind, *pair): mass for pair, mass in states.items()}
    return {
        (king, unit): mass
        for (_, king, unit), mass in _their_triples(triples, board, heard, us).items()
    }


def _normalised(states: dict[Pair, float]) -> np.ndarray:
    array = np.zeros((64, 64))
    for (king, unit), mass in states.items():
        array[king, unit] = mass
    result: np.ndarray = array / array.sum()
    return result


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(6))
def test_the_filter_equals_an_independent_one_pair_by_pair(kind: int, seed: int) -> None:
    """From 15 pairs (the truth among them), three moves each: the same posterior. Seeds
    split between white and black, with and without a pawn of ours."""
    us = chess.WHITE if seed % 2 == 0 else chess.BLACK
    rng = random.Random(seed)
    board = _start(kind, 100 + seed, seed % 3 == 1, us)
    candidates = [
        (king, unit)
        for king in range(64)
        for unit in range(64)
        if _with(board, (king, unit), kind, us, us) is not None
    ]
    truth = _truth(board, us)
    states = {pair: 1.0 for pair in [*rng.sample(candidates, 14), truth]}
    joint = JointBelief({kind: _normalised(states)}, us)
    for _ in range(3):
        ours = _ours(board, us)
        attempts = _attempts(board, ours, us)
        rng.shuffle(attempts)
        for move in attempts:
            if move in board.legal_moves:
                before = board.copy(stack=False)
                capture = board.is_capture(move)
                board.push(move)
                heard = (capture, tuple(check_directions(board)))
                assert joint.our_move(ours, move, capture, heard[1])
                states = _our_oracle(states, before, kind, move, heard, us)
                break
            assert joint.refused(ours, move)
            states = _our_oracle(states, board, kind, move, None, us)
            assert np.allclose(joint.masses[kind], _normalised(states), atol=1e-12)
        if board.is_game_over() or capture:
            return
        assert np.allclose(joint.masses[kind], _normalised(states), atol=1e-12)
        ours = _ours(board, us)
        before = board.copy(stack=False)
        move = rng.choice(list(board.legal_moves))
        taken = move.to_square if board.is_capture(move) else None
        board.push(move)
        answer = (taken, tuple(check_directions(board)))
        assert joint.their_move(ours, taken, answer[1])
        states = _their_oracle(states, before, kind, answer, us)
        assert np.allclose(joint.masses[kind], _normalised(states), atol=1e-12)
        if board.is_game_over() or taken is not None:
            return


Triple = tuple[int, int, int]


def _their_triples(
    states: dict[Triple, float], board: chess.Board, heard: object, us: chess.Color
) -> dict[Triple, float]:
    """The enemy's uniformly random legal move from each (kind, king, unit), conditioned
    on ``heard`` = (the square of our piece taken or None, check directions on us); a
    pawn's promotion changes the unit's kind."""
    result: dict[Triple, float] = {}
    for (kind, *pair), mass in states.items():
        position = _with(board, (pair[0], pair[1]), kind, not us, us)
        assert position is not None
        moves = list(position.legal_moves)
        for move in moves:
            taken = move.to_square if position.is_capture(move) else None
            after = position.copy(stack=False)
            after.push(move)
            if (taken, tuple(check_directions(after))) != heard:
                continue
            king, unit = move.to_square, pair[1]
            if move.from_square == pair[1]:
                king, unit = pair[0], move.to_square
            key = (move.promotion or kind, king, unit)
            result[key] = result.get(key, 0.0) + mass / len(moves)
    return result


def _our_triples(
    states: dict[Triple, float],
    board: chess.Board,
    move: chess.Move,
    heard: object,
    us: chess.Color,
) -> dict[Triple, float]:
    """:func:`_our_oracle` over (kind, king, unit)."""
    result = {}
    for kind in {kind for kind, _, _ in states}:
        pairs = {(king, unit): mass for (k, king, unit), mass in states.items() if k == kind}
        for (king, unit), mass in _our_oracle(pairs, board, kind, move, heard, us).items():
            result[(kind, king, unit)] = mass
    return result


def _same(joint: JointBelief, states: dict[Triple, float]) -> None:
    total = sum(states.values())
    expected: dict[int, np.ndarray] = {}
    for (kind, king, unit), mass in states.items():
        if mass > 0.0:
            expected.setdefault(kind, np.zeros((64, 64)))[king, unit] = mass / total
    assert set(joint.masses) == set(expected)
    for kind, array in expected.items():
        assert np.allclose(joint.masses[kind], array, atol=1e-12), chess.piece_name(kind)


MIXTURES = [
    (chess.KNIGHT, chess.BISHOP, chess.QUEEN),
    (chess.BISHOP, chess.ROOK, chess.QUEEN),
    (chess.ROOK, chess.KNIGHT, chess.QUEEN),
    (chess.PAWN, chess.BISHOP),
    (chess.PAWN, chess.KNIGHT, chess.QUEEN),
    (chess.KNIGHT, chess.PAWN),
    (chess.PAWN,),
]


@pytest.mark.parametrize("kinds", MIXTURES)
@pytest.mark.parametrize("seed", range(4))
def test_a_unit_of_unknown_kind_is_filtered_as_a_mixture(kinds: tuple[int, ...], seed: int) -> None:
    """The unit may be any of ``kinds`` (the true one first): each kind's pairs follow
    the independent filter and the kinds are weighed together, a pawn's promotions
    moving its mass to the pieces, through three moves, refusals included."""
    us = chess.WHITE if seed % 2 == 0 else chess.BLACK
    rng = random.Random(seed)
    board = _start(kinds[0], 200 + seed, seed % 3 == 2, us)
    truth = (kinds[0], *_truth(board, us))
    states: dict[Triple, float] = {truth: 1.0}
    for kind in kinds:
        candidates = [
            (kind, king, unit)
            for king in range(64)
            for unit in range(64)
            if _with(board, (king, unit), kind, us, us) is not None
        ]
        states.update({triple: 1.0 for triple in rng.sample(candidates, 12)})
    total = sum(states.values())
    masses: dict[int, np.ndarray] = {}
    for (kind, king, unit), mass in states.items():
        masses.setdefault(kind, np.zeros((64, 64)))[king, unit] = mass / total
    joint = JointBelief(masses, us)
    for _ in range(3):
        ours = _ours(board, us)
        attempts = _attempts(board, ours, us)
        rng.shuffle(attempts)
        for move in attempts:
            if move in board.legal_moves:
                before = board.copy(stack=False)
                capture = board.is_capture(move)
                board.push(move)
                heard = (capture, tuple(check_directions(board)))
                assert joint.our_move(ours, move, capture, heard[1])
                states = _our_triples(states, before, move, heard, us)
                break
            assert joint.refused(ours, move)
            states = _our_triples(states, board, move, None, us)
            _same(joint, states)
        if board.is_game_over() or capture:
            return
        _same(joint, states)
        ours = _ours(board, us)
        before = board.copy(stack=False)
        move = rng.choice(list(board.legal_moves))
        taken = move.to_square if board.is_capture(move) else None
        board.push(move)
        answer = (taken, tuple(check_directions(board)))
        assert joint.their_move(ours, taken, answer[1])
        states = _their_triples(states, before, answer, us)
        _same(joint, states)
        unit = chess.lsb(board.occupied_co[not us] & ~board.kings)
        truth = (board.piece_type_at(unit) or 0, *_truth(board, us))
        assert states.get(truth, 0.0) > 0.0
        if board.is_game_over() or taken is not None:
            return


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("us", [chess.WHITE, chess.BLACK])
def test_the_true_pair_keeps_its_mass_through_random_games(kind: int, us: chess.Color) -> None:
    for seed in range(6):
        rng = random.Random(seed)
        board = _start(kind, seed, seed % 2 == 1, us)
        ours = _ours(board, us)
        everything = np.ones((64, 64))
        joint = JointBelief({kind: everything / everything.sum()}, us)
        for _ in range(30):
            if board.is_game_over():
                break
            attempts = _attempts(board, ours, us)
            rng.shuffle(attempts)
            for move in attempts:
                if move not in board.legal_moves:
                    assert joint.refused(ours, move)
                    assert joint.masses[kind][_truth(board, us)] > 0.0
                    continue
                capture = board.is_capture(move)
                board.push(move)
                assert joint.our_move(ours, move, capture, tuple(check_directions(board)))
                break
            if capture or board.is_game_over():
                break
            assert joint.masses[kind][_truth(board, us)] > 0.0
            ours = _ours(board, us)
            move = rng.choice(list(board.legal_moves))
            taken = move.to_square if board.is_capture(move) else None
            board.push(move)
            assert joint.their_move(ours, taken, tuple(check_directions(board)))
            if taken is not None or board.is_game_over():
                break
            assert joint.masses[kind][_truth(board, us)] > 0.0
            ours = _ours(board, us)


def test_a_pinned_knight_stays_and_a_mate_is_counted() -> None:
    # Ka1, Qe2 against Ke8 and a knight on e5, Black to move: the knight is pinned.
    ours = ((chess.KING, chess.A1), (chess.QUEEN, chess.E2))
    mass = np.zeros((64, 64))
    mass[chess.E8, chess.E5] = 1.0
    after, mated, stalemated = reply(chess.KNIGHT, ours, mass)
    assert after[chess.KNIGHT][:, chess.E5].sum() == pytest.approx(1.0)  # only the king moved
    assert mated.sum() == 0.0 and stalemated.sum() == 0.0
    # Kf6, Qg7 against Kh8 (mated) and a knight on a1.
    ours = ((chess.KING, chess.F6), (chess.QUEEN, chess.G7))
    mass = np.zeros((64, 64))
    mass[chess.H8, chess.A1] = 1.0
    _, mated, _ = reply(chess.KNIGHT, ours, mass)
    assert mated.sum() == pytest.approx(1.0)


def test_a_pawn_promotes_four_ways() -> None:
    # Kh4, Qh1 against Ke8 and a pawn on b2 (black): its king has 5 steps (d7, d8, e7,
    # f7, f8; the queen sees nothing of them), the pawn pushes to b1 as four pieces and
    # takes nothing: 9 moves, each promotion a ninth of the mass in its kind's array.
    ours = ((chess.KING, chess.H4), (chess.QUEEN, chess.H1))
    mass = np.zeros((64, 64))
    mass[chess.E8, chess.B2] = 1.0
    after, mated, stalemated = reply(chess.PAWN, ours, mass)
    assert set(after) == {chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN}
    for kind in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
        assert after[kind][chess.E8, chess.B1] == pytest.approx(1 / 9)
        assert after[kind].sum() == pytest.approx(1 / 9)
    assert after[chess.PAWN][:, chess.B2].sum() == pytest.approx(5 / 9)
    assert mated.sum() == 0.0 and stalemated.sum() == 0.0


def test_checks_given_are_split_by_the_unit_on_the_line() -> None:
    # Kb1, Qa1 -> a4: the king on a8 is checked along the file unless the unit stands
    # between (a5 to a7).
    ours = ((chess.KING, chess.B1), (chess.QUEEN, chess.A1))
    outcomes = move_outcomes(chess.BISHOP, ours, chess.Move(chess.A1, chess.A4))
    assert outcomes.names(int(outcomes.codes[chess.A8, chess.H1])) == ("file",)
    assert outcomes.codes[chess.A8, chess.A6] == 0
    assert not outcomes.legal[chess.H8, chess.A2]  # the unit on the path
    assert outcomes.captured[chess.H8, chess.A4]
