"""The forced-mate search against a lone king, checked on real boards.

``replay`` plays the search's plan against every square the king may stand on and every
reply it has, with python-chess judging legality, check and mate (not the search's own
rules), and narrows the region only by what the umpire would say: refused or not, check
(with its directions) or not. A plan that the search calls forced must mate in every line
within its depth.

Every search here is bounded by its node limit (``max_nodes``), never by the wall clock:
the deadlines are infinite, so a loaded machine gives the same results.
"""

from __future__ import annotations

import math
import random

import chess
import pytest

from bots.kriegspiel.meta.mate import MateSearch, Pieces, check_groups, neighbours
from server.games.kriegspiel_rules import check_directions
from tests.bots.kriegspiel_squares import bb


def _with_king(ours: chess.Board, square: chess.Square, turn: chess.Color) -> chess.Board:
    board = ours.copy(stack=False)
    board.set_piece_at(square, chess.Piece(chess.KING, chess.BLACK))
    board.turn = turn
    board.castling_rights = 0
    return board


def replay(ours: chess.Board, region: int, depth: int) -> None:
    """Every line of the search's plan mates within ``depth`` of our moves."""
    assert depth >= 1, "the plan ran out of moves"
    found = MateSearch(chess.WHITE, math.inf).find(ours, region, depth)
    assert found is not None, f"no plan for {ours.board_fen()} {chess.SquareSet(region)}"
    move, _ = found
    refused = 0
    answers: dict[tuple[str, ...], list[chess.Board]] = {}
    for square in chess.SquareSet(region):
        board = _with_king(ours, square, chess.WHITE)
        assert not board.is_check() and board.is_valid(), "the region holds a bad square"
        if not board.is_legal(move):
            refused |= chess.BB_SQUARES[square]
            continue
        board.push(move)
        if board.is_checkmate():
            continue
        assert not board.is_stalemate(), f"{move} stalemates on {chess.square_name(square)}"
        heard = tuple(check_directions(board))  # what the umpire announces
        for reply in board.legal_moves:
            assert not board.is_capture(reply), f"{move}: the king may take a piece"
            answers.setdefault(heard, []).append(_with_king_after(board, reply))
    if refused:
        replay(ours, refused, depth)
    after = ours.copy(stack=False)
    after.push(move)
    after.turn = chess.WHITE
    for boards in answers.values():
        if boards:
            where = 0
            for board in boards:
                where |= chess.BB_SQUARES[board.king(chess.BLACK) or 0]
            replay(after, where, depth - 1)


def _with_king_after(board: chess.Board, reply: chess.Move) -> chess.Board:
    result = board.copy(stack=False)
    result.push(reply)
    return result


@pytest.mark.parametrize(
    ("fen", "region", "depth"),
    [
        ("8/8/6K1/8/8/8/8/R7 w - - 0 1", bb("h8"), 1),
        ("8/8/8/8/8/1K6/7R/8 w - - 0 1", bb("a1"), 1),
        ("8/8/8/8/8/7R/2K5/8 w - - 0 1", bb("a1", "a2"), 2),
        ("8/8/1K6/8/8/8/7Q/8 w - - 0 1", bb("a8"), 1),
        ("8/8/8/8/7R/2K5/8/8 w - - 0 1", bb("a1", "a2", "b1"), 3),
    ],
)
def test_the_plans_found_mate_in_every_line(fen: str, region: int, depth: int) -> None:
    ours = chess.Board(fen)
    found = MateSearch(chess.WHITE, math.inf).find(ours, region, depth)
    assert found is not None and found[1] <= depth
    replay(ours, region, depth)


def test_random_small_regions_are_mated_as_planned() -> None:
    rng = random.Random(7)
    proven = 0
    for _ in range(600):
        ours = chess.Board(None)
        king, piece = rng.sample(range(64), 2)
        ours.set_piece_at(king, chess.Piece(chess.KING, chess.WHITE))
        ours.set_piece_at(piece, chess.Piece(rng.choice([chess.ROOK, chess.QUEEN]), chess.WHITE))
        ours.turn = chess.WHITE
        free = [
            s
            for s in chess.SQUARES
            if not ours.piece_at(s) and _with_king(ours, s, chess.WHITE).is_valid()
        ]
        if len(free) < 2:
            continue
        region = 0
        for square in rng.sample(free, rng.randint(1, 3)):
            region |= chess.BB_SQUARES[square]
        search = MateSearch(chess.WHITE, math.inf)
        found = search.find(ours, region, 2)
        if found is not None:
            proven += 1
            replay(ours, region, found[1])
    assert proven >= 8, proven  # enough plans were checked for the test to mean something


def test_no_plan_when_the_king_may_take_the_rook_or_be_stalemated() -> None:
    # Rh5 would mate on h7 and h8 but lose the rook from h6.
    ours = chess.Board("8/5K2/8/5R2/8/8/8/8 w - - 0 1")
    search = MateSearch(chess.WHITE, math.inf)
    found = search.find(ours, bb("h6", "h7", "h8"), 1)
    assert found is None
    # A king on a8 only: Qb6 would stalemate it, Qa7 is not legal, and K moves come first.
    queen = chess.Board("8/8/8/2K5/8/8/1Q6/8 w - - 0 1")
    found = MateSearch(chess.WHITE, math.inf).find(queen, bb("a8"), 2)
    assert found is not None
    assert found[0].uci() != "b2b6"
    replay(queen, bb("a8"), 2)


def test_the_search_gives_up_at_its_deadline() -> None:
    ours = chess.Board("8/8/8/8/8/6R1/4K3/8 w - - 0 1")
    search = MateSearch(chess.WHITE, -math.inf)
    assert search.find(ours, bb("a1", "b1", "c1", "a2", "b2", "c2"), 6) is None


def _random_position(
    rng: random.Random, kinds: list[int], size: int, edge: bool = False
) -> tuple[chess.Board, int]:
    """Our king and ``kinds`` (White) and a region of up to ``size`` squares where a
    lone black king may stand with White to move (on the board's edge if ``edge``)."""
    while True:
        ours = chess.Board(None)
        squares = rng.sample(range(64), 1 + len(kinds))
        ours.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        for kind, square in zip(kinds, squares[1:], strict=True):
            ours.set_piece_at(square, chess.Piece(kind, chess.WHITE))
        ours.turn = chess.WHITE
        free = [
            s
            for s in chess.SQUARES
            if not ours.piece_at(s) and _with_king(ours, s, chess.WHITE).is_valid()
        ]
        if edge:
            free = [s for s in free if chess.BB_SQUARES[s] & chess.BB_BACKRANKS]
        if len(free) >= size:
            region = 0
            for square in rng.sample(free, rng.randint(1, size)):
                region |= chess.BB_SQUARES[square]
            return ours, region


@pytest.mark.parametrize(("kinds", "depth"), [([chess.ROOK], 12), ([chess.QUEEN], 8)])
def test_deeper_plans_mate_in_every_line(kinds: list[int], depth: int) -> None:
    """Longer plans with the rook and the queen (pruned by the distance to mate),
    replayed line by line."""
    rng = random.Random(11)
    proven = 0
    for _ in range(30):
        ours, region = _random_position(rng, kinds, 3, edge=True)
        search = MateSearch(chess.WHITE, math.inf)
        found = search.find(ours, region, depth)
        if found is not None:
            proven += 1
            replay(ours, region, found[1])
    assert proven >= 4, proven


def test_the_distance_bound_never_loses_a_mate() -> None:
    """With and without the chess distance as a lower bound the search finds mates of
    the same length: the bound is admissible."""
    rng = random.Random(5)
    compared = 0
    for _ in range(150):
        ours, region = _random_position(rng, [rng.choice([chess.ROOK, chess.QUEEN])], 2, True)
        pruned = MateSearch(chess.WHITE, math.inf).find(ours, region, 3)
        full = MateSearch(chess.WHITE, math.inf, prune=False).find(ours, region, 3)
        assert (pruned is None) == (full is None), ours.board_fen()
        if pruned is not None and full is not None:
            assert pruned[1] == full[1]
            compared += 1
    assert compared >= 10, compared


@pytest.mark.parametrize(
    ("fen", "region"),
    [("8/8/7K/1B6/8/8/7B/8 w - - 0 1", bb("h8")), ("8/8/8/3B4/8/1K6/8/2B5 w - - 0 1", bb("a1"))],
)
def test_two_bishops_mate_as_planned(fen: str, region: int) -> None:
    """Without a distance table (two pieces) the search is not pruned, and still right."""
    ours = chess.Board(fen)
    found = MateSearch(chess.WHITE, math.inf).find(ours, region, 3)
    assert found is not None
    replay(ours, region, found[1])


def test_the_search_is_the_same_for_black() -> None:
    """Without pawns colours do not matter: Black's pieces get White's plan."""
    rng = random.Random(9)
    for _ in range(30):
        ours, region = _random_position(rng, [chess.ROOK], 3)
        theirs = chess.Board(None)
        for square, piece in ours.piece_map().items():
            theirs.set_piece_at(square, chess.Piece(piece.piece_type, chess.BLACK))
        theirs.turn = chess.BLACK
        white = MateSearch(chess.WHITE, math.inf).find(ours, region, 4)
        black = MateSearch(chess.BLACK, math.inf).find(theirs, region, 4)
        assert white == black


def test_a_check_is_split_by_its_directions() -> None:
    """Each group of checked squares is exactly the squares with one announcement."""
    rng = random.Random(13)
    for _ in range(200):
        ours, _ = _random_position(rng, rng.choice([[chess.QUEEN], [chess.ROOK, chess.BISHOP]]), 1)
        pieces: Pieces = (
            (chess.KING, ours.king(chess.WHITE) or 0),
            *tuple(
                (piece.piece_type, square)
                for square, piece in ours.piece_map().items()
                if piece.piece_type != chess.KING
            ),
        )
        heard: dict[tuple[str, ...], int] = {}
        for square in chess.SQUARES:
            if ours.piece_at(square) or chess.BB_KING_ATTACKS[pieces[0][1]] & (1 << square):
                continue  # no king may stand there
            board = _with_king(ours, square, chess.BLACK)
            directions = tuple(check_directions(board))
            if directions:
                heard[directions] = heard.get(directions, 0) | chess.BB_SQUARES[square]
        checked = 0
        for squares in heard.values():
            checked |= squares
        groups = check_groups(pieces, ours.occupied, checked)
        assert sorted(groups) == sorted(heard.values()), ours.board_fen()


def test_neighbours_are_the_king_steps() -> None:
    rng = random.Random(1)
    for _ in range(300):
        squares = rng.getrandbits(64) & rng.getrandbits(64)
        expected = 0
        for square in chess.SquareSet(squares):
            expected |= chess.BB_KING_ATTACKS[square]
        assert neighbours(squares) == expected
