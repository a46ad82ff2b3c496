"""KBB vs K and KBN vs K: the distance-to-mate tables checked move by move with
python-chess's rules, and the endgame's own rules (safety of the pieces, mates)."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import chess
import numpy as np
import pytest

from bots.kriegspiel.meta import Metaposition, dtm, minor_dtm, table_cache
from bots.kriegspiel.meta.belief import attacked_by, take_chance, uniform
from bots.kriegspiel.meta.mate import Pieces, answer
from bots.kriegspiel.meta.minor import MinorEndgame
from bots.kriegspiel.meta.minor_dtm import KINDS, minor_kinds, table
from bots.kriegspiel.meta.planner import placement
from tests.bots.kriegspiel_meta_harness import CentreKing, checked_game, play_start, random_start

KBB, KBN = KINDS
#: On a machine without the cache files the first test to ask for a table builds it
#: (about 25 and 40 CPU seconds, once: later runs read the files).
pytestmark = pytest.mark.timeout(400)


def _board(kinds: tuple[int, int], squares: list[int], turn: chess.Color) -> chess.Board:
    wk, first, second, bk = squares
    board = chess.Board(None)
    board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(first, chess.Piece(kinds[0], chess.WHITE))
    board.set_piece_at(second, chess.Piece(kinds[1], chess.WHITE))
    board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
    board.turn = turn
    return board


def _distance(kinds: tuple[int, int], board: chess.Board) -> int | None:
    """The table's plies for ``board`` (either side to move), ``None`` for a draw."""
    found = minor_kinds(board, chess.WHITE)
    wk, bk = board.king(chess.WHITE), board.king(chess.BLACK)
    if found is None or wk is None or bk is None:
        return None  # a piece was taken: a draw
    _, first, second = found
    side = table(kinds).white if board.turn == chess.WHITE else table(kinds).black
    plies = int(side[minor_dtm.index(wk, first, second, bk)])
    return None if plies == dtm.UNKNOWN else plies


def _by_play(kinds: tuple[int, int], board: chess.Board) -> int | None:
    """One ply of best play over the table's values of the positions after it."""
    if board.is_checkmate():
        return 0
    results = []
    for move in board.legal_moves:
        board.push(move)
        results.append(_distance(kinds, board))
        board.pop()
    if not results:
        return None  # stalemate
    if board.turn == chess.WHITE:
        won = [plies for plies in results if plies is not None]
        return min(won) + 1 if won else None
    if any(plies is None for plies in results):
        return None
    return max(plies for plies in results if plies is not None) + 1


@pytest.mark.parametrize(("kinds", "plies"), [(KBB, 37), (KBN, 65)])
def test_the_longest_mates_are_the_known_ones(kinds: tuple[int, int], plies: int) -> None:
    white = table(kinds).white
    assert int(white[white != dtm.UNKNOWN].max()) == plies  # 19 and 33 moves
    e = chess.parse_square
    if kinds == KBB:  # Kg6, Be6, Bf4 against Kh8: Be5 mates
        assert table(kinds).mate_distance(e("g6"), e("e6"), e("f4"), e("h8")) == 1


@pytest.mark.parametrize("kinds", [KBB, KBN])
def test_every_distance_is_the_best_play_of_both_sides(kinds: tuple[int, int]) -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 150:
        board = _board(kinds, rng.sample(range(64), 4), rng.choice([chess.WHITE, chess.BLACK]))
        if not board.is_valid():
            continue
        assert _distance(kinds, board) == _by_play(kinds, board), board.fen()
        checked += 1


def test_same_coloured_bishops_do_not_win() -> None:
    e = chess.parse_square
    # c1 and e3 are both dark: no mate from a centralised king.
    assert table(KBB).mate_distance(e("e1"), e("c1"), e("e3"), e("e5")) is None


def test_the_cache_file_is_read_back_and_a_damaged_one_is_not(tmp_path: Path) -> None:
    kept = table(KBB)
    path = tmp_path / "umpire" / "t.bin"
    size = 2 * minor_dtm.SIZE
    table_cache.write(path, minor_dtm.encode(kept.white, kept.black))
    loaded = table_cache.read(path, size)
    assert loaded is not None
    assert np.array_equal(np.frombuffer(loaded, dtype=np.uint8)[minor_dtm.SIZE :], kept.black)
    data = bytearray(path.read_bytes())
    data[5000] ^= 1
    path.write_bytes(bytes(data))
    assert table_cache.read(path, size) is None
    assert table_cache.read(tmp_path / "missing.bin", size) is None
    with pytest.raises(ValueError, match="no table"):
        table((chess.KNIGHT, chess.KNIGHT))


def test_a_decision_never_waits_for_a_table_to_be_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a cache file, ``ready`` answers at once (``None``: the search plays) and
    the table is built once in the background; then it is there, and in the cache."""
    real = table(KBB)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(minor_dtm, "_tables", {})
    monkeypatch.setattr(minor_dtm, "_building", set())
    started, release = threading.Event(), threading.Event()
    builds: list[tuple[int, int]] = []

    def slow_build(kinds: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        builds.append(kinds)
        started.set()
        release.wait(30)
        return real.white, real.black

    monkeypatch.setattr(minor_dtm, "build", slow_build)
    assert minor_dtm.ready(KBB) is None  # the build has started, nobody waits for it
    assert started.wait(30)
    assert minor_dtm.ready(KBB) is None and builds == [KBB]  # still building: not again
    fen = "8/8/8/8/8/8/8/2B1KB2 w - - 0 1"
    meta = _meta(fen, ["a8", "b8", "a7"])
    assert MinorEndgame(random.Random(1)).choose(meta, _attempts(fen)) is None
    release.set()
    for thread in threading.enumerate():
        if thread.name == "umpire-minor-dtm":
            thread.join(30)
    assert minor_dtm.ready(KBB) is not None and builds == [KBB]
    assert MinorEndgame(random.Random(1)).choose(meta, _attempts(fen)) is not None
    assert list((tmp_path / "umpire").glob("dtm-kbbk-*.bin"))


def _meta(fen: str, region: list[str]) -> Metaposition:
    """White's metaposition with the king somewhere in ``region``."""
    meta = Metaposition.from_start(chess.WHITE, "wild16", fen)
    squares = 0
    for name in region:
        squares |= chess.BB_SQUARES[chess.parse_square(name)]
    meta.may = [0] * 6 + [squares]
    return meta


def _attempts(fen: str) -> list[str]:
    return [move.uci() for move in chess.Board(fen).pseudo_legal_moves]


def test_a_bishop_next_to_a_possible_king_square_stays_defended() -> None:
    fen = "8/8/8/8/8/8/8/K1B2B1k w - - 0 1"  # c1 dark, f1 light
    meta = _meta(fen, ["h1", "h2", "g2", "g1", "f2"])
    planner = MinorEndgame(random.Random(1))
    for _ in range(20):
        choice = planner.choose(meta, _attempts(fen))
        assert choice is not None
        board = chess.Board(fen)
        board.push(chess.Move.from_uci(choice))
        near = chess.BB_SQUARES[chess.H1] | chess.BB_SQUARES[chess.H2] | chess.BB_SQUARES[chess.G2]
        for square in chess.SquareSet(board.bishops):
            if chess.BB_KING_ATTACKS[square] & (near | chess.BB_G1 | chess.BB_F2):
                assert board.is_attacked_by(chess.WHITE, square), choice


def test_a_known_king_is_mated_by_the_table() -> None:
    # The king is known on h8: the table mates it (Be5).
    fen = "7k/8/4B1K1/8/5B2/8/8/8 w - - 0 1"
    meta = _meta(fen, ["h8"])
    planner = MinorEndgame(random.Random(2))
    choice = planner.choose(meta, _attempts(fen))
    assert choice is not None
    board = chess.Board(fen)
    before = _distance(KBB, board)
    board.push(chess.Move.from_uci(choice))
    assert before is not None and _distance(KBB, board) == before - 1


def test_other_material_is_not_its_business() -> None:
    planner = MinorEndgame(random.Random(0))
    rook = "7k/8/5K2/8/8/8/8/3R4 w - - 0 1"
    assert planner.choose(_meta(rook, ["h8"]), _attempts(rook)) is None
    assert planner.applies(_meta("7k/8/5K2/8/8/8/8/2BB4 w - - 0 1", ["h8"]))  # c1, d1
    dark = "7k/8/5K2/8/8/4B3/8/2B5 w - - 0 1"  # c1 and e3: no mate, not its business
    assert not planner.applies(_meta(dark, ["h8"]))
    assert planner.applies(_meta("7k/8/5K2/8/8/4N3/8/2B5 w - - 0 1", ["h8"]))


KBB_STARTS = [random_start([chess.BISHOP, chess.BISHOP], seed) for seed in range(3)]


@pytest.mark.parametrize("defender", ["random", "centre"])
async def test_kbb_vs_k_mates_both_defenders(defender: str) -> None:
    # A node budget plays the same games on any machine: at 200 nodes a decision 3 of 3
    # mated against each defender on 2026-11-26 (before the belief, start 0 lost a
    # bishop on move 2 against the centre king: no attempt was safe by the set rule and
    # the heuristic search played); the rates over 200 starts are in docs/bots.md.
    mates = 0
    for seed, fen in enumerate(KBB_STARTS):
        opponent = CentreKing(seed=seed) if defender == "centre" else None
        played, bot = await checked_game(
            "wild16", seed, fen=fen, opponent=opponent, budget="nodes=200"
        )
        assert bot.problems == []
        mates += played.outcome.reason == "checkmate" and played.outcome.ranks == (1, 2)
    assert mates == 3


def _placement(board: chess.Board) -> Pieces:
    king = board.king(chess.WHITE)
    assert king is not None
    bishops = sorted((chess.BISHOP, square) for square in chess.SquareSet(board.bishops))
    return ((chess.KING, king), *bishops)


def test_with_no_safe_attempt_the_least_risky_one_is_played() -> None:
    # Start 33's first move, the king anywhere it may be: every attempt leaves a bishop
    # next to the region, which the set rule banned (the planner then answered nothing
    # and the heuristic search played). The belief weighs each risk by its chance.
    fen = "B4B2/8/8/8/8/7K/8/8 w - - 0 1"
    board = chess.Board(fen)
    pieces = _placement(board)
    region = chess.BB_ALL & ~board.occupied & ~chess.BB_KING_ATTACKS[chess.H3]
    region &= ~attacked_by(pieces)
    risks = {}
    for text in _attempts(fen):
        move = chess.Move.from_uci(text)
        moved = chess.Board(fen)
        moved.push(move)
        placed = _placement(moved)
        at = (
            0
            if move.from_square == chess.H3
            else 1 + [s for _, s in pieces[1:]].index(move.from_square)
        )
        assert answer(pieces, region, at, move.to_square) is None  # the set rule: no
        near = chess.BB_KING_ATTACKS[move.to_square] if at == 0 else 0
        risks[text] = take_chance(uniform(region & ~near), placed)
    names = [chess.square_name(square) for square in chess.SquareSet(region)]
    choice = MinorEndgame(random.Random(3)).choose(_meta(fen, names), _attempts(fen))
    assert choice is not None
    assert min(risks.values()) > 0.0
    assert risks[choice] <= 1.5 * min(risks.values())


def test_a_located_kbn_king_is_driven_by_the_table() -> None:
    # The king known on e5, our Kd7, Bc6 and Ne6: Kd7-e7 is on the shortest chess mate
    # (48 plies after it). The box of the room terms, which a knight hardly fences, made
    # the planner play Bc6-f3 (50 plies) for its smaller box, again and again while the
    # king stood located: KBN vs K starts drew by the 50-move rule with the region at 1
    # to 5 squares for 40 moves.
    fen = "8/3K4/2B1N3/4k3/8/8/8/8 w - - 0 1"
    meta = _meta(fen, ["e5"])
    choice = MinorEndgame(random.Random(4)).choose(meta, _attempts(fen))
    assert choice == "d7e7"


@pytest.mark.parametrize("seed", range(6))
def test_a_kbn_king_known_on_its_square_is_driven_by_the_table(seed: int) -> None:
    # Start 52 against the random king (2000 nodes): the king known on h4 (a region of one
    # square) against Kf3, Ng3, Bg1, 34 plies from mate. The planner's worth, merged over
    # the squares the king's unseen reply may reach, found the waiting Kf3-f4 (36 plies
    # after it) as good as the table's moves, and the king stood located for 30 moves,
    # 17 to 22 moves from mate, until the 50-move rule. Known on its square, the table
    # rules: every choice shortens the chess mate by a ply.
    fen = "8/8/8/8/7k/5KN1/8/6B1 w - - 0 1"
    board = chess.Board(fen)
    before = _distance(KBN, board)
    choice = MinorEndgame(random.Random(seed)).choose(_meta(fen, ["h4"]), _attempts(fen))
    assert choice is not None
    board.push(chess.Move.from_uci(choice))
    assert before is not None and _distance(KBN, board) == before - 1, choice


@pytest.mark.parametrize(("defender", "start"), [("centre", 2), ("random", 19)])
async def test_kbn_vs_k_starts_drawn_before_are_mated(defender: str, start: int) -> None:
    # The benchmark's games (`benchmarks.kriegspiel_meta endgames --endgames KBN`, 2000
    # nodes): before the room was dropped in the located phase and the central king was
    # filtered, both drew by the 50-move rule with the king located for some 40 moves
    # (centre: mated here in 29 moves; random: in 35).
    played = await play_start([chess.BISHOP, chess.KNIGHT], start, defender)
    assert played.outcome.reason == "checkmate" and played.outcome.ranks == (1, 2)


@pytest.mark.parametrize("start", [41, 79])
async def test_a_located_random_kbn_king_is_kept_located(start: int) -> None:
    # The benchmark's starts against the random king (2000 nodes). Before the region's
    # size counted in the located phase, both drew by the 50-move rule after locating the
    # king and losing it again (start 41: 4 squares at our sixth decision, then 7, 21, 30,
    # 41; located at 4 again at the 19th and lost again; start 79: 1 square at the 27th,
    # then 3, 8, 22, 26, 30, 36, 40). Mated here in 20 and 35 moves.
    played = await play_start([chess.BISHOP, chess.KNIGHT], start)
    assert played.outcome.reason == "checkmate" and played.outcome.ranks == (1, 2)


@pytest.mark.parametrize(("start", "slack"), [(11, 1.1), (21, 1.1), (31, 1.7)])
def test_a_kbn_piece_lost_at_the_first_move_is_the_starts_doing(start: int, slack: float) -> None:
    # Starts 11, 21 and 31 against the random king lost a piece at our first move
    # (`benchmarks.kriegspiel_meta endgames --endgames KBN --failures`, 2000 nodes). The
    # belief was not wrong about which squares we defend, nor did the mean hide a safe
    # attempt: from these starts every first attempt leaves a square of the region next
    # to an undefended piece, and the planner played the least exposed one. The king
    # happened to stand there (start 11: Kb8, Ba4, Nh3, king d8; Ba4-d7 defends the
    # knight and is itself next to d8). Since the wide region's size costs WIDE_SIZE a
    # square, start 31 trades a little chance for a smaller region: Bb3-d5 (0.116 of
    # the region's mass next to an undefended piece) over Ng2-e1 (0.070).
    fen = random_start([chess.BISHOP, chess.KNIGHT], start)
    meta = Metaposition.from_start(chess.WHITE, "wild16", fen)
    region = meta.may[chess.KING]
    board = chess.Board(fen)
    pieces = placement(meta)
    risks = {}
    for text in _attempts(fen):
        move = chess.Move.from_uci(text)
        moved = board.copy()
        moved.push(move)
        placed = placement(_meta(moved.fen(), ["h8"]))
        near = chess.BB_KING_ATTACKS[move.to_square] if move.from_square == pieces[0][1] else 0
        risks[text] = take_chance(uniform(region & ~near), placed, None, 1.0)
    assert min(risks.values()) > 0.0
    names = [chess.square_name(square) for square in chess.SquareSet(region)]
    choice = MinorEndgame(random.Random(start)).choose(_meta(fen, names), _attempts(fen))
    assert choice is not None
    assert risks[choice] <= slack * min(risks.values())


def _kbn_value(central: float, move: str) -> float:
    """The planner's worth of ``move`` in Kc6, Bc5, Nf2 against a king anywhere it may
    be (41 squares), the belief giving the central hypothesis the weight ``central``."""
    fen = "8/8/2K5/2B5/8/8/5N2/8 w - - 0 1"
    board = chess.Board(fen)
    planner = MinorEndgame(random.Random(5))
    planner.belief.weights = [1.0 - central, central]
    pieces = placement(_meta(fen, ["h8"]))
    region = chess.BB_ALL & ~board.occupied & ~attacked_by(pieces)
    region &= ~chess.BB_KING_ATTACKS[chess.C6]
    names = [chess.square_name(square) for square in chess.SquareSet(region)]
    assert planner.choose(_meta(fen, names), _attempts(fen)) is not None
    return planner.scores[move]


def test_a_kbn_piece_next_to_a_random_kings_region_costs_its_chance() -> None:
    # Start 191's wide phase (Kc6, Bc5, Nf2, the region at 41 squares): every piece move
    # leaves a piece next to the region, and each cost 3000 plies times the whole mass
    # next to it (a king there taken to take it), 150 to 900 plies against a few for a
    # king step: the planner shuffled its king (c6-d6-b5) for 25 moves and the random
    # king was never located. Against a king the belief takes as random the risk is
    # the chance it steps onto the piece; against the central one it stays the mass.
    assert _kbn_value(0.02, "f2h1") < _kbn_value(0.98, "f2h1") - 100.0


@pytest.mark.parametrize("start", [16, 33, 173, 186])
async def test_a_random_kbn_king_is_found_in_time(start: int) -> None:
    # The benchmark's starts against the random king (2000 nodes), drawn by the 50-move
    # rule on main (0be6a4b): the region at 37 to 45 squares for 15 to 25 moves while
    # the planner shuffled its king beside its pieces; found, then lost or found too
    # late. With the risk weighed by the belief's central weight, mated in 47 and 30.
    # Starts 173 and 186 drew so still (main at 453f022: the region at 37 to 46 squares
    # for all 50 moves); with the wide region's size at WIDE_SIZE a square, mated.
    played = await play_start([chess.BISHOP, chess.KNIGHT], start)
    assert played.outcome.reason == "checkmate" and played.outcome.ranks == (1, 2)
