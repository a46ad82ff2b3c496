"""Material over a Kriegspiel game: points, bins, the trail of a side's material after
each of its moves, won positions (>= 5 points ahead for 20 moves of one's own) and the
tables of their conversion, and where the material went after one (the bleed)."""

from __future__ import annotations

import chess

from benchmarks.kriegspiel_material import (
    Bleed,
    Ending,
    Flow,
    Taken,
    bleed,
    bleed_table,
    cause,
    cause_table,
    conversion_summary,
    conversion_table,
    flow_summary,
    flows,
    material,
    material_bin,
    points,
    trail,
    unanswered,
    won_at,
)


def test_points_count_the_pieces_besides_the_king() -> None:
    assert points("-") == 0
    assert points("QRBNP") == 9 + 5 + 3 + 3 + 1


def test_a_lone_king_is_binned_by_the_pieces_against_it() -> None:
    assert material_bin("Q", "-") == "K+Q vs K"
    assert material_bin("RBP", "-") == "K+RBP vs K"
    assert material_bin("QRBP", "-") == "K+4 or more vs K"
    assert material_bin("-", "-") == "K vs K"


def test_other_positions_are_binned_by_points_ahead() -> None:
    assert material_bin("QR", "P") == ">=5 points ahead"
    assert material_bin("R", "B") == "1-4 points ahead"
    assert material_bin("N", "B") == "level"
    assert material_bin("P", "Q") == "behind"
    assert material_bin("-", "P") == "behind"


def test_a_loss_and_a_win_are_told_apart_from_a_draw() -> None:
    assert cause("checkmate", "loss") == "loss: checkmate"
    assert cause("fifty_moves", "draw") == "fifty_moves"
    assert cause("forfeit", "win") == "win: forfeit"


def test_a_won_position_is_reached_at_the_twentieth_move_of_a_run_five_points_ahead() -> None:
    assert won_at([5] * 20) == 20
    assert won_at([9] * 35) == 20
    assert won_at([0, 3] + [6] * 20) == 22


def test_a_shorter_run_or_a_smaller_lead_is_no_won_position() -> None:
    assert won_at([5] * 19) is None
    assert won_at([4] * 40) is None
    assert won_at([]) is None
    # a move that ends 4 ahead breaks the run: it starts again after it
    assert won_at([5] * 19 + [4] + [5] * 19) is None
    assert won_at([5] * 19 + [4] + [5] * 20) == 40


def test_the_margin_and_the_run_can_be_given() -> None:
    assert won_at([3, 3, 3], margin=3, moves=3) == 3
    assert won_at([3, 2, 3], margin=3, moves=2) is None


def test_the_trail_follows_one_side_after_each_of_its_own_moves() -> None:
    board = chess.Board("4k3/8/8/8/8/8/3q4/1Q2K2R w K - 0 1")
    for uci in ("e1d2", "e8e7", "h1h7", "e7e6", "b1b6"):
        board.push_uci(uci)
    assert material(board, chess.WHITE) == "QR"
    assert trail(board, chess.WHITE) == [("QR", "-")] * 3
    assert trail(board, chess.BLACK) == [("-", "QR")] * 2


def test_the_trail_starts_from_the_games_own_start_with_black_to_move() -> None:
    board = chess.Board("4k3/8/8/8/8/8/3q4/1Q2K2R b K - 0 1")
    for uci in ("d2b4", "e1f1", "b4b1"):
        board.push_uci(uci)
    assert trail(board, chess.BLACK) == [("Q", "QR"), ("Q", "R")]
    assert trail(board, chess.WHITE) == [("QR", "Q")]


def _ending(index: int, reason: str, result: str, leads: list[str]) -> Ending:
    """A game whose hero had ``leads[i]`` (its letters, the other's being ``P``) after
    its move ``i + 1``; its end material is the last one."""
    steps = tuple((mine, "P") for mine in leads)
    return Ending(index, reason, result, steps, steps[-1][0], "P")


def test_only_a_win_by_checkmate_converts() -> None:
    assert _ending(0, "checkmate", "win", ["Q"]).converted
    assert not _ending(0, "forfeit", "win", ["Q"]).converted
    assert not _ending(0, "checkmate", "loss", ["Q"]).converted
    assert not _ending(0, "fifty_moves", "draw", ["Q"]).converted


def test_the_conversion_tables_list_the_won_positions_not_mated() -> None:
    endings = [
        _ending(0, "checkmate", "win", ["Q"] * 30),  # reached, mated
        _ending(1, "fifty_moves", "draw", ["R"] * 5 + ["QR"] * 20 + ["R"] * 10),  # reached
        _ending(2, "checkmate", "win", ["R"] * 10),  # never reached
        _ending(3, "checkmate", "loss", ["QR"] * 21 + ["-"]),  # reached, then lost
        _ending(4, "stalemate", "draw", ["QQ"] * 19),  # never reached
    ]
    assert [ending.won_at for ending in endings] == [20, 25, None, 20, None]
    assert conversion_summary(endings) == (
        "won positions (>= 5 points ahead after 20 consecutive moves of its own): reached "
        "in 3 of 5 games; mated in 1 = 33.3% (95% 6.1-79.2%)"
    )
    assert conversion_table(endings)[2:] == [
        "| 1 | fifty_moves | 25 | 10 | QR vs P (>=5 points ahead) | R vs P (1-4 points ahead) |",
        "| 3 | loss: checkmate | 20 | 2 | QR vs P (>=5 points ahead) | - vs P (behind) |",
    ]


def test_with_no_won_position_the_share_is_nought_of_nought() -> None:
    endings = [_ending(0, "stalemate", "draw", ["Q"])]
    assert "reached in 0 of 1 games; mated in 0 = 0.0% (95% 0.0-100.0%)" in (
        conversion_summary(endings)
    )
    assert conversion_table(endings)[2:] == []


def test_the_cause_table_groups_non_wins_and_lists_their_games() -> None:
    endings = [
        Ending(0, "checkmate", "win", (), "QQ", "-"),
        Ending(1, "fifty_moves", "draw", (), "QR", "P"),
        Ending(5, "fifty_moves", "draw", (), "RRP", "-"),
        Ending(3, "fifty_moves", "draw", (), "QQ", "PP"),
        Ending(4, "checkmate", "loss", (), "P", "Q"),
    ]
    assert cause_table(endings)[2:] == [
        "| fifty_moves | >=5 points ahead | 2 | 1 3 |",
        "| fifty_moves | K+RRP vs K | 1 | 5 |",
        "| loss: checkmate | behind | 1 | 4 |",
    ]


def test_the_flow_counts_captures_en_passant_promotions_moves_and_retakes() -> None:
    board = chess.Board()
    # The e-pawn takes, queens and is taken; then black's b4 pawn takes c4 en passant.
    line = "e2e4 d7d5 e4d5 g8f6 d5d6 f6d5 d6c7 d8d6 c7b8q a8b8 g1f3 b7b5 a2a4 b5b4 c2c4 b4c3 e1e2"
    for text in line.split(" "):
        board.push_uci(text)
    found = flows(board)
    # White lost the e-pawn's queen (9) on b8 and the c-pawn (1) en passant; black its d-
    # and c-pawns (2) and the knight taken on b8 (3).
    # White could take back once (c3, after the en passant capture) and did not: a pawn
    # left. Black could three times: d5 and c7 (Qxd5, Qxc7; it moved on, two pawns left)
    # and b8 (Rxb8 took the new queen); nothing of white's could reach b8 after it.
    assert found[chess.WHITE] == Flow(10, 8, 9, 7, 1, retakable=1, retaken=0, spared=1)
    assert found[chess.BLACK] == Flow(5, 0, 8, 4, 0, retakable=3, retaken=1, spared=2)
    assert found[chess.WHITE] + found[chess.BLACK] == Flow(15, 8, 17, 11, 1, 4, 1, 3)


def test_the_captures_not_taken_back_are_listed_with_the_move_played() -> None:
    board = chess.Board()
    line = "e2e4 d7d5 e4d5 g8f6 d5d6 f6d5 d6c7 d8d6 c7b8q a8b8 g1f3 b7b5 a2a4 b5b4 c2c4 b4c3 e1e2"
    for text in line.split(" "):
        board.push_uci(text)
    # Black's view (the move it answers with): the two pawns it could take back and did
    # not, c7 by the queen or the knight on d5 (b8 it took back).
    assert unanswered(board, chess.BLACK) == [
        "move 2: PxP on d5, answers d8d5, played g8f6",
        "move 4: PxP on c7, answers d8c7 d5c7, played d8d6",
    ]
    # White's: the pawn that took en passant lands on c3, where three could take it.
    assert unanswered(board, chess.WHITE) == [
        "move 9: PxP on c3, answers b1c3 d2c3 b2c3, played e1e2",
    ]


def test_the_flow_summary_reads_both_sides() -> None:
    hero, other = Flow(10, 8, 9, 7, 1, 1, 0, 1), Flow(5, 0, 8, 4, 0, 3, 1, 2)
    line = flow_summary(hero, other, "the hero's losses")
    assert line == (
        "material's flow (the hero's losses), hero / other: lost to captures 10 / 5 points, "
        "gained by promotions 8 / 0; pawn moves 77.8% / 50.0%, king moves 11.1% / 0.0%; "
        "captures taken back at once 0/1 (0.0%) / 1/3 (33.3%), the takers' points left 1 / 2"
    )


def _played(line: str, fen: str = chess.STARTING_FEN) -> chess.Board:
    board = chess.Board(fen)
    for text in line.split(" "):
        board.push_uci(text)
    return board


def test_the_bleed_classes_each_unit_taken_after_the_won_position() -> None:
    # White's pawn d5 is taken at once (stepped, hanging), the knight b5 by the queen
    # (defended by the bishop, taken back), the bishop c6 by a pawn (hanging), and the
    # queen f7 by the king. The pawn, the bishop and the queen had each just taken a
    # unit there (exchanges white began); the knight had stepped there quietly.
    board = _played(
        "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 c3b5 a5b5 f1b5 c7c6 b5c6 b7c6 d1h5 e7e6 h5f7 e8f7"
    )
    assert bleed(board, chess.WHITE, 1) == Bleed(
        (
            Taken(1, "piece", stepped=True, defended=False, retaken=False, took=True),
            Taken(3, "piece", stepped=True, defended=True, retaken=True),
            Taken(3, "pawn", stepped=True, defended=False, retaken=False, took=True),
            Taken(9, "king", stepped=True, defended=False, retaken=False, took=True),
        ),
        0,
    )
    # Only what was taken after white's third move counts (d5 fell after its second).
    assert [taken.points for taken in bleed(board, chess.WHITE, 3).taken] == [3, 3, 9]
    assert bleed(board, chess.WHITE, 99) == Bleed()


def test_the_bleed_counts_a_unit_that_stood_there_and_the_promotions() -> None:
    # The rook h1 stood there from the start; the pawn takes it and queens.
    board = _played("g2h1q e1f2", fen="4k3/8/8/8/8/8/6p1/4K2R b - - 0 1")
    assert bleed(board, chess.WHITE, 0) == Bleed(
        (Taken(5, "pawn", stepped=False, defended=False, retaken=False),), 1
    )


def test_the_bleed_table_sums_the_classes_by_points() -> None:
    taken = Taken(9, "king", stepped=True, defended=False, retaken=False)
    lines = bleed_table(
        [
            Bleed((taken, Taken(3, "piece", False, True, True)), 2),
            Bleed((taken, Taken(5, "king", True, False, False, took=True)), 0),
        ]
    )
    assert lines == [
        "after the won positions not converted (2): the other side promoted 2 times (in 1 "
        "of them); the hero's units taken:",
        "| taken | captures | points |",
        "| --- | ---: | ---: |",
        "| by the king, stepped there, hanging, not taken back | 2 | 18 |",
        "| by the king, took there, hanging, not taken back | 1 | 5 |",
        "| by a piece, stood there, defended, taken back | 1 | 3 |",
    ]
    assert bleed_table([]) == []
