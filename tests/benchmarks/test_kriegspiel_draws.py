"""The draws script's classification: causes and material bins of non-wins."""

from __future__ import annotations

from benchmarks.kriegspiel_draws import cause, cause_table, material_bin, points


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


def test_a_loss_is_told_apart_from_a_draw() -> None:
    assert cause("checkmate", "loss") == "loss: checkmate"
    assert cause("fifty_moves", "draw") == "fifty_moves"


def test_the_table_groups_non_wins_and_lists_their_games() -> None:
    rows = [
        (0, "checkmate", "QQ", "-", "win"),
        (1, "fifty_moves", "QR", "P", "draw"),
        (5, "fifty_moves", "RRP", "-", "draw"),
        (3, "fifty_moves", "QQ", "PP", "draw"),
        (4, "checkmate", "P", "Q", "loss"),
    ]
    lines = cause_table(rows)
    assert lines[2:] == [
        "| fifty_moves | >=5 points ahead | 2 | 1 3 |",
        "| fifty_moves | K+RRP vs K | 1 | 5 |",
        "| loss: checkmate | behind | 1 | 4 |",
    ]
