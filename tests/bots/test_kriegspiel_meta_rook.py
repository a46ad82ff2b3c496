"""KR vs K by the rook's cut (``bots/kriegspiel/meta/rook.py``).

The strength tests replay the benchmark's starts that the heuristic search drew by the
50-move rule (``python -m benchmarks.kriegspiel_meta endgames --endgames KR --budget
nodes=2000``, main at 0be6a4b): a node budget plays the same game on any machine.
"""

from __future__ import annotations

import random

import chess
import pytest

from bots.kriegspiel.meta import Metaposition
from bots.kriegspiel.meta.belief import attacked_by
from bots.kriegspiel.meta.rook import RookEndgame, cut, lone_rook
from tests.bots.kriegspiel_meta_harness import play_start, random_start

_WEST = chess.BB_FILE_A | chess.BB_FILE_B | chess.BB_FILE_C | chess.BB_FILE_D
_NORTH = chess.BB_RANK_6 | chess.BB_RANK_7 | chess.BB_RANK_8
#: Kriegspiel KR vs K, centre king, start 0 at our tenth decision: Ke4, Re5, the king
#: located on c6, c7 or d7, fenced by the rook's rank and file into a6-d8.
_CUT_FEN = "8/2k5/8/4R3/4K3/8/8/8 w - - 0 1"
_CUT_REGION = chess.BB_C6 | chess.BB_C7 | chess.BB_D7


def _meta(fen: str, region: int) -> Metaposition:
    meta = Metaposition.from_start(chess.WHITE, "wild16", fen)
    meta.may[chess.KING] = region
    return meta


def test_the_cut_is_the_part_of_the_board_on_the_kings_side_of_the_rook() -> None:
    pieces = ((chess.KING, chess.E4), (chess.ROOK, chess.E5))
    assert cut(_CUT_REGION, attacked_by(pieces)) == _WEST & _NORTH


def test_the_planner_never_gives_the_rooks_line_up() -> None:
    meta = _meta(_CUT_FEN, _CUT_REGION)
    assert lone_rook(meta)
    planner = RookEndgame(random.Random(1))
    legal = [move.uci() for move in meta.own.generate_pseudo_legal_moves()]
    choice = planner.choose(meta, legal)
    assert choice is not None
    # the rook keeps its rank and file (Re5-d5 and Re5-f5 stay on the rank, guarded)
    assert choice not in ("e5a5", "e5b5", "e5c5", "e5g5", "e5h5", "e5e6", "e5e7", "e5e8")
    # the rook giving up its file (Re5-h5 or Re5-a5: the king may walk east along the
    # back ranks) is worth much less than what was chosen, and a rook next to the king's
    # region, undefended (Re5-c5), is a priced risk of the rook
    best = planner.scores[choice]
    assert planner.scores["e5h5"] > best + 20.0
    assert planner.scores["e5a5"] > best + 20.0
    assert planner.scores["e5c5"] > best + 500.0


def test_the_planner_leaves_other_endgames_to_the_search() -> None:
    meta = Metaposition.from_start(chess.WHITE, "wild16", "8/8/8/3Q4/4K3/8/8/k7 w - - 0 1")
    legal = [move.uci() for move in meta.own.generate_pseudo_legal_moves()]
    assert not lone_rook(meta)
    assert RookEndgame(random.Random(1)).choose(meta, legal) is None


@pytest.mark.parametrize(
    ("defender", "start"),
    [
        ("random", 12),
        ("random", 129),
        ("centre", 0),
        ("centre", 26),
        ("centre", 64),
        ("centre", 72),
        ("centre", 91),
    ],
)
async def test_kr_vs_k_starts_drawn_by_the_search_are_mated(defender: str, start: int) -> None:
    # Drawn on main (0be6a4b) by the 50-move rule: random 12 and 129 a standstill (the
    # region at 44-49 squares, the rook beside our king), the centre king located at 1-3
    # squares again and again and never cut off. Mated here in 16 to 20 moves.
    played = await play_start([chess.ROOK], start, defender)
    assert played.outcome.reason == "checkmate" and played.outcome.ranks == (1, 2)


def _exposure(meta: Metaposition, move: chess.Move) -> int:
    """The squares of the king's region from which, after ``move``, the king steps next
    to our undefended rook (a king step's refusal squares left out: we learn of them)."""
    own = meta.own
    king, rook = own.king(chess.WHITE), next(iter(chess.SquareSet(own.rooks)))
    assert king is not None
    region = meta.may[chess.KING]
    if move.from_square == king:
        king = move.to_square
        region &= ~chess.BB_KING_ATTACKS[king]
    else:
        rook = move.to_square
    if chess.BB_KING_ATTACKS[king] & chess.BB_SQUARES[rook]:
        return 0
    return region & chess.BB_KING_ATTACKS[rook]


@pytest.mark.parametrize(("start", "least"), [(61, 4), (107, 2)])
def test_starts_61_and_107_have_no_safe_first_move(start: int, least: int) -> None:
    # The two starts main (0f3c0e8) loses to the random king, the rook taken at the
    # king's first step: 61 (Kh8, Rd4, king h3) and 107 (Kh4, Rf8, king g7). No first
    # move defends the rook or takes it away from every square of the uniform region
    # (45 and 43 squares): each leaves it next to 4 (61) or 2 (107) squares at least.
    meta = Metaposition.from_start(chess.WHITE, "wild16", random_start([chess.ROOK], start))
    moves = list(meta.own.generate_pseudo_legal_moves())
    assert min(_exposure(meta, move).bit_count() for move in moves) == least
    planner = RookEndgame(random.Random(start))
    choice = planner.choose(meta, [move.uci() for move in moves])
    assert choice is not None
    assert _exposure(meta, chess.Move.from_uci(choice)).bit_count() == least
    if start == 61:
        # Kh8 and Rd4 stand on the long diagonal: the position is its own mirror image
        # across a1-h8, and Rd4-h4 (which lost the rook to the king on h3) and Rd4-d8 (its
        # mirror, next to c8) are worth exactly the same: a coin decides between them.
        assert {choice, "d4d8", "d4h4"} == {"d4d8", "d4h4"}
        assert planner.scores["d4h4"] == pytest.approx(planner.scores["d4d8"])
