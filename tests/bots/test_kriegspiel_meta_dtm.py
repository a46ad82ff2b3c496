"""The distance-to-mate tables (KR vs K, KQ vs K), checked move by move with
python-chess's rules, and their cache file."""

from __future__ import annotations

import random
from pathlib import Path

import chess
import pytest

from bots.kriegspiel.meta import dtm, table_cache
from bots.kriegspiel.meta.dtm import mate_distance, rook_mate_distance, table


def _board(wk: int, piece: int, bk: int, kind: int, turn: chess.Color) -> chess.Board:
    board = chess.Board(None)
    board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(piece, chess.Piece(kind, chess.WHITE))
    board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
    board.turn = turn
    return board


def _after_black(board: chess.Board, kind: int) -> int | None:
    """Black's best defence (python-chess's legal moves): the longest distance to mate
    of White's positions after it, or None when Black draws (takes the piece, stalemate)."""
    if board.is_stalemate():
        return None
    longest = 0
    for reply in board.legal_moves:
        if board.is_capture(reply):
            return None
        board.push(reply)
        wk, bk = board.king(chess.WHITE), board.king(chess.BLACK)
        piece = next(iter(board.pieces(kind, chess.WHITE)))
        assert wk is not None and bk is not None
        moves = mate_distance(kind, wk, piece, bk)
        board.pop()
        if moves is None:
            return None
        longest = max(longest, moves)
    return longest


@pytest.mark.parametrize(("kind", "plies"), [(chess.ROOK, 31), (chess.QUEEN, 19)])
def test_the_longest_mates_are_the_known_ones(kind: int, plies: int) -> None:
    white, _ = table(kind)
    assert max(v for v in white if v != dtm.UNKNOWN) == plies  # 16 and 10 moves
    e = chess.parse_square
    assert rook_mate_distance(e("g6"), e("a1"), e("h8")) == 1
    assert rook_mate_distance(e("e1"), e("a1"), e("e8")) is not None
    assert mate_distance(chess.QUEEN, e("f6"), e("g1"), e("h8")) == 1  # Qg7


@pytest.mark.parametrize("kind", [chess.ROOK, chess.QUEEN])
def test_every_distance_is_the_best_play_of_both_sides(kind: int) -> None:
    rng = random.Random(3)
    checked = 0
    while checked < 200:
        wk, piece, bk = rng.sample(range(64), 3)
        board = _board(wk, piece, bk, kind, chess.WHITE)
        if not board.is_valid():
            continue
        distance = mate_distance(kind, wk, piece, bk)
        best: int | None = None
        for move in board.legal_moves:
            board.push(move)
            if board.is_checkmate():
                result: int | None = 1
            else:
                after = _after_black(board, kind)
                result = None if after is None else after + 1
            board.pop()
            if result is not None and (best is None or result < best):
                best = result
        assert distance == best, f"{board.fen()}: table {distance}, by play {best}"
        checked += 1


def test_the_cache_file_is_read_back_and_a_damaged_one_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    payload = dtm.encode(table(chess.ROOK))
    path = dtm.cache_dir() / "test.bin"
    table_cache.write(path, payload)
    assert path.parent == tmp_path / "umpire"
    assert table_cache.read(path, len(payload)) == payload
    data = bytearray(path.read_bytes())
    data[1000] ^= 1
    path.write_bytes(bytes(data))
    assert table_cache.read(path, len(payload)) is None  # the digest no longer matches
    path.write_bytes(bytes(data[:100]))
    assert table_cache.read(path, len(payload)) is None
    assert table_cache.read(tmp_path / "missing.bin", len(payload)) is None


def test_an_unwritable_cache_is_skipped(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    table_cache.write(blocker / "umpire" / "t.bin", dtm.encode(table(chess.ROOK)))  # no error
    assert not (blocker / "umpire").exists()


def test_no_table_for_other_pieces() -> None:
    with pytest.raises(ValueError, match="no table"):
        table(chess.BISHOP)


def test_warming_builds_each_table_once_and_caches_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading
    import time

    real = {kind: table(kind) for kind in dtm.KINDS}
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(dtm, "_tables", {})
    monkeypatch.setattr(dtm, "_warming", None)
    built: list[int] = []

    def slow_build(kind: int) -> tuple[object, object]:
        built.append(kind)
        time.sleep(0.05)  # long enough for a concurrent table() to arrive meanwhile
        return real[kind]

    monkeypatch.setattr(dtm, "build", slow_build)
    dtm.warm_in_background()
    assert dtm._warming is not None
    readers = [threading.Thread(target=table, args=(chess.QUEEN,)) for _ in range(3)]
    for reader in readers:
        reader.start()
    dtm.warm_in_background()  # a second call starts nothing
    dtm._warming.join()
    for reader in readers:
        reader.join()
    assert sorted(built) == sorted(dtm.KINDS)
    assert table(chess.QUEEN) is real[chess.QUEEN]
    names = sorted(path.name for path in (tmp_path / "umpire").iterdir())
    assert names == ["dtm-kqk-v1.bin", "dtm-krk-v1.bin"]
    monkeypatch.setattr(dtm, "_tables", {})
    assert table(chess.ROOK) == real[chess.ROOK]  # read back from the file, not rebuilt
    assert sorted(built) == sorted(dtm.KINDS)
