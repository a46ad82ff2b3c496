"""The endgames: the hidden king's region, and mating the random defender.

Rates are asserted conservatively over seeded games (the bot's own numbers over hundreds
of starts are in ``docs/kriegspiel_meta.md``, from ``benchmarks/kriegspiel_meta.py``).
"""

from __future__ import annotations

import chess
import pytest

from bots.kriegspiel.meta import KriegspielMeta, Metaposition
from bots.kriegspiel.meta.endgames import box, king_outcomes
from bots.kriegspiel.meta.metaposition import possible_attacks
from bots.kriegspiel.meta.search import WIN, Searcher
from bots.sdk.bot import Decision
from bots.sdk.budget import NodeClock
from tests.bots.kriegspiel_meta_harness import CentreKing, checked_game, play_start, random_start

#: a node budget the searches below never reach: a deterministic stand-in for the
#: seconds they were once given (wall time made the choice depend on the machine's load)
ALL_NODES = 10**7


def test_the_box_is_the_room_our_rook_leaves() -> None:
    board = chess.Board("8/8/8/3R4/4K3/8/8/8 w - - 0 1")
    attacked = possible_attacks(board, chess.WHITE)
    room = box(chess.BB_SQUARES[chess.A8], attacked)
    # the rook's rank and file (the rook defended) fence the king into a6-c8
    assert room == chess.SquareSet(chess.BB_RANK_8 | chess.BB_RANK_7 | chess.BB_RANK_6) & (
        chess.BB_FILE_A | chess.BB_FILE_B | chess.BB_FILE_C
    )


def test_king_outcomes_find_mate_and_stalemate_squares() -> None:
    board = chess.Board("8/8/1K6/8/8/8/8/3R4 w - - 0 1")
    after = board.copy()
    after.push(chess.Move.from_uci("d1d8"))
    attacked = possible_attacks(after, chess.WHITE)
    outcome = king_outcomes(chess.BB_SQUARES[chess.A8], attacked, attacked, lone=True)
    assert outcome.mated == chess.BB_SQUARES[chess.A8]
    quiet = chess.Board("k7/8/8/8/8/8/1Q6/4K3 w - - 0 1")
    quiet.remove_piece_at(chess.A8)
    quiet.push(chess.Move.from_uci("b2b6"))
    attacked = possible_attacks(quiet, chess.WHITE)
    outcome = king_outcomes(chess.BB_SQUARES[chess.A8], attacked, attacked, lone=True)
    assert outcome.stalemated == chess.BB_SQUARES[chess.A8]


def test_the_search_mates_a_known_king_and_avoids_stalemate() -> None:
    import random

    meta = Metaposition.from_start(
        chess.WHITE, "wild16", "k7/8/1K6/8/8/8/8/3R4 w - - 0 1", know_start=True
    )
    searcher = Searcher(random.Random(1), clock=NodeClock())
    legal = [m.uci() for m in meta.own.generate_pseudo_legal_moves()]
    assert searcher.choose(meta, legal, ALL_NODES) == "d1d8"  # found by the forced-mate search
    scores = {text: searcher.score(meta, chess.Move.from_uci(text)) for text in legal}
    assert scores["d1d8"] > max(v for m, v in scores.items() if m != "d1d8")  # and scored


def test_the_search_avoids_a_stalemate() -> None:
    import random

    meta = Metaposition.from_start(
        chess.WHITE, "wild16", "k7/8/8/8/8/8/1Q6/4K3 w - - 0 1", know_start=True
    )
    searcher = Searcher(random.Random(1), clock=NodeClock())
    legal = [m.uci() for m in meta.own.generate_pseudo_legal_moves()]
    assert searcher.choose(meta, legal, ALL_NODES) != "b2b6"
    assert searcher.score(meta, chess.Move.from_uci("b2b6")) < -1000


async def test_the_bot_plays_the_mating_move_through_the_sdk() -> None:
    bot = KriegspielMeta(seed=1, know_start=True)
    from bots.sdk.bot import GameInfo

    fen = "k7/8/1K6/8/8/8/8/3R4 w - - 0 1"
    view = {"color": "white", "board": "8/8/1K6/8/8/8/8/3R4"}
    await bot.start(GameInfo("kriegspiel", 0, 2, {"rules": "wild16", "fen": fen}, view))
    legal = [m.uci() for m in chess.Board(fen).generate_legal_moves()] + ["resign"]
    assert await bot.decide(Decision(0, view, legal)) == "d1d8"


async def _mate_rate(fen_list: list[str], defender: str) -> float:
    mates = 0
    for seed, fen in enumerate(fen_list):
        opponent = CentreKing(seed=seed) if defender == "centre" else None
        played, bot = await checked_game(
            "wild16", seed, fen=fen, opponent=opponent, budget="nodes=400"
        )
        assert bot.problems == []
        mates += played.outcome.reason == "checkmate" and played.outcome.ranks == (1, 2)
    return mates / len(fen_list)


#: (eight each until 2026-12-07, when CI ran over its 15 minutes; the benchmark plays 200)
KQ_STARTS = [random_start([chess.QUEEN], seed) for seed in range(6)]
KR_STARTS = [random_start([chess.ROOK], seed) for seed in range(6)]


# Six whole games by node budget each: seconds alone, past the suite's 120 s guard
# against hangs on a machine loaded by other work (seen in a helper's run).
@pytest.mark.timeout(600)
@pytest.mark.parametrize("defender", ["random", "centre"])
async def test_kq_vs_k_mates_most_games(defender: str) -> None:
    # A node budget plays the same games on any machine: 8 of 8 mated against either
    # defender at 400 nodes a decision (2026-11-25), the first six since.
    assert await _mate_rate(KQ_STARTS, defender) >= 0.75


@pytest.mark.timeout(600)
async def test_kr_vs_k_mates_the_random_defender_in_most_games() -> None:
    assert await _mate_rate(KR_STARTS, "random") >= 0.75  # 8 of 8 at 400 nodes (now 6)


def test_the_hunt_does_not_stake_the_rook_on_a_likely_mate() -> None:
    import random

    # The king is on h6, h7 or h8: Rh5+ mates on h7/h8, but from h6 takes the lone rook.
    meta = Metaposition.from_start(chess.WHITE, "wild16", "8/5K2/8/5R2/8/8/8/7k w - - 0 1")
    meta.may[chess.KING] = chess.BB_H6 | chess.BB_H7 | chess.BB_H8
    searcher = Searcher(random.Random(1), clock=NodeClock())
    legal = [m.uci() for m in meta.own.generate_pseudo_legal_moves()]
    choice = searcher.choose(meta, legal, ALL_NODES)
    assert choice != "f5h5"
    assert searcher.last.get("f5h5", -1e9) < max(searcher.last.values())  # or a forced mate
    # Without the cap the mean alone would take the two-in-three chance of mate.
    branches = searcher.branches(meta, chess.Move.from_uci("f5h5"))
    assert any(branch.answer == "mate" for branch in branches)
    assert any(branch.exposure == 1.0 for branch in branches)


@pytest.mark.parametrize(
    "fen", ["8/P7/7k/8/5K2/8/8/8 w - - 0 1", "8/2P5/1K6/8/8/3k4/8/8 w - - 0 1"]
)
def test_a_pawn_promotes_to_a_piece_that_can_mate(fen: str) -> None:
    import random

    # Found by the KP vs K benchmark: a bishop left no region to shrink and outscored
    # the queen, and the umpire drew the game by insufficient material at once.
    meta = Metaposition.from_start(chess.WHITE, "wild16", fen)
    searcher = Searcher(random.Random(1), clock=NodeClock())
    legal = [m.uci() for m in meta.own.generate_pseudo_legal_moves()]
    pawn = next(iter(meta.own.pieces(chess.PAWN, chess.WHITE)))
    for piece in "bn":
        promotion = chess.Move(pawn, pawn + 8, chess.Piece.from_symbol(piece).piece_type)
        assert [b.answer for b in searcher.branches(meta, promotion)] == ["draw"]
    choice = searcher.choose(meta, legal, ALL_NODES)
    assert not choice.endswith(("b", "n"))
    queen = chess.Move(pawn, pawn + 8, chess.QUEEN).uci()
    assert searcher.last[queen] > searcher.last[queen[:-1] + "b"]


def _hunt_h5(region: int) -> tuple[str, dict[str, float]]:
    """The searcher's choice (2000 nodes) with Kf7, Rf5 against a king in ``region``."""
    import random

    from bots.sdk.budget import parse_budget

    meta = Metaposition.from_start(chess.WHITE, "wild16", "8/5K2/8/5R2/8/8/8/7k w - - 0 1")
    meta.may[chess.KING] = region
    budget = parse_budget("nodes=2000")
    searcher = Searcher(random.Random(1), clock=budget.clock())
    legal = [m.uci() for m in meta.own.generate_pseudo_legal_moves()]
    return searcher.choose(meta, legal, budget.amount), searcher.last


def test_a_check_the_king_may_answer_by_taking_the_rook_is_not_a_gamble() -> None:
    # KR vs K, start 10 against the random king (2000 nodes): the king on h6 of a region
    # of 15 squares, Rf5-h5+ mates on h7 and h8 and loses the rook from h6. One square in
    # 15 is below LOSS_CHANCE, so the mean took the gamble; the king stood on h6 and took
    # the rook (a draw). A checked king must move: the rook is one of its few flights.
    west = chess.BB_FILE_A | chess.BB_FILE_B | chess.BB_FILE_C | chess.BB_FILE_D
    region = (west | chess.BB_FILE_H) & (chess.BB_RANK_6 | chess.BB_RANK_7 | chess.BB_RANK_8)
    choice, scores = _hunt_h5(region)
    assert choice != "f5h5"
    assert scores.get("f5h5", -1e9) < max(scores.values())


async def test_kr_vs_k_start_10_keeps_its_rook_and_mates() -> None:
    # The benchmark's game (`benchmarks.kriegspiel_meta endgames --endgames KR`, 2000
    # nodes, the random king): the rook was lost to the gamble above at move 11; mated
    # here in 33 moves.
    played = await play_start([chess.ROOK], 10)
    assert played.outcome.reason == "checkmate" and played.outcome.ranks == (1, 2)


#: KQ vs K start 149 (random king, 2000 nodes) at our 16th decision: Kf5, Qd4, the king
#: fenced into e1-h3; Kg4 with Qd4 had been our placement after two of our moves.
_KQ_149 = "8/8/8/5K2/3Q4/8/8/4k3 w - - 0 1"
_KQ_149_REGION = chess.BB_E1 | chess.BB_F1 | chess.BB_H1 | chess.BB_E2 | chess.BB_G2
_KQ_149_REGION |= chess.BB_H2 | chess.BB_F3 | chess.BB_G3 | chess.BB_H3


def test_the_forced_mate_does_not_place_our_pieces_a_third_time() -> None:
    import random

    meta = Metaposition.from_start(chess.WHITE, "wild16", _KQ_149)
    meta.may[chess.KING] = _KQ_149_REGION
    legal = [m.uci() for m in meta.own.generate_pseudo_legal_moves()]
    fresh = Searcher(random.Random(1), clock=NodeClock())
    assert fresh.choose(meta, legal, ALL_NODES) == "f5g4"  # the shortest mate, by g4
    meta.history = ["8/8/8/8/3Q2K1/8/8/8"] * 2  # Kg4 Qd4 twice before
    searcher = Searcher(random.Random(1), clock=NodeClock())
    choice = searcher.choose(meta, legal, ALL_NODES)
    assert choice != "f5g4" and searcher.last == {choice: WIN}  # still a forced mate


async def test_kq_vs_k_start_149_is_mated_not_drawn_by_repetition() -> None:
    # Drawn on main (0f3c0e8) by threefold repetition after 16 moves (the mate above
    # walked our king back onto Kg4 Qd4 while the king stepped e1-f1-e1); mated here in 21.
    played = await play_start([chess.QUEEN], 149)
    assert played.outcome.reason == "checkmate" and played.outcome.ranks == (1, 2)
