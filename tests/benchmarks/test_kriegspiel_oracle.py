"""The conversion screen's oracles (benchmarks.kriegspiel_oracle): each tells the hero's
metaposition only what the real board says, and the screen plays with one."""

from __future__ import annotations

import asyncio
from pathlib import Path

import chess
import pytest

from benchmarks.kriegspiel_conversion import Collected, Position, main, play_on
from benchmarks.kriegspiel_oracle import parse_oracle
from bots.kriegspiel.meta.metaposition import Metaposition
from bots.tools.arena import schedule

#: White to move (the hero), black's king and three units hidden on a custom start.
FEN = "2r1k3/1p6/6n1/8/8/8/8/RQ2K2R w - - 0 1"


def _meta() -> tuple[Metaposition, chess.Board]:
    board = chess.Board(FEN)
    return Metaposition.from_start(chess.WHITE, "wild16", FEN), board


def test_names_parse_and_nonsense_is_refused_clearly() -> None:
    assert (parse_oracle("king").kind, parse_oracle("king").number) == ("king", 0)
    assert (parse_oracle("king2").kind, parse_oracle("king2").number) == ("king", 2)
    assert (parse_oracle("every10").kind, parse_oracle("every10").number) == ("every", 10)
    assert (parse_oracle("small9").kind, parse_oracle("small9").number) == ("small", 9)
    assert parse_oracle("kinds").kind == "kinds"
    for nonsense in ("", "queen", "every0", "every", "small", "king-1", "kings", "kinds2"):
        with pytest.raises(ValueError, match="one of king, kingR, everyN, smallN, kinds"):
            parse_oracle(nonsense)


def test_the_king_oracles_cut_the_set_to_the_truth_and_keep_it() -> None:
    meta, board = _meta()
    assert meta.may[chess.KING].bit_count() > 30  # anywhere not attacked by us
    oracle = parse_oracle("king")
    oracle.tell(meta, board)
    assert meta.may[chess.KING] == chess.BB_SQUARES[chess.E8] and oracle.told == 1
    meta, board = _meta()
    before = meta.may[chess.KING]
    parse_oracle("king1").tell(meta, board)
    box = chess.SquareSet(meta.may[chess.KING])
    assert chess.E8 in box and box.issubset(chess.SquareSet(before))
    assert all(chess.square_distance(square, chess.E8) <= 1 for square in box)
    assert len(box) == 6  # e8 and d8, f8, d7, e7, f7 (no rank above the eighth)
    # every 2: only when the hero has made a multiple of two moves (the start counts one)
    meta, board = _meta()
    every = parse_oracle("every2")
    every.tell(meta, board)
    assert meta.may[chess.KING] == before and every.told == 0
    meta.history.append("after a move")
    every.tell(meta, board)
    assert meta.may[chess.KING] == chess.BB_SQUARES[chess.E8] and every.told == 1
    # small 6: only once the set has at most six squares
    meta, board = _meta()
    small = parse_oracle("small6")
    small.tell(meta, board)
    assert meta.may[chess.KING] == before and small.told == 0
    parse_oracle("king1").tell(meta, board)  # the six squares of the box
    small.tell(meta, board)
    assert meta.may[chess.KING] == chess.BB_SQUARES[chess.E8] and small.told == 1


def test_the_kinds_oracle_sets_the_counts_and_drops_the_kinds_gone() -> None:
    meta, board = _meta()
    presence = meta.presence
    assert presence is not None
    parse_oracle("kinds").tell(meta, board)
    for kind, count in ((chess.PAWN, 1), (chess.KNIGHT, 1), (chess.ROOK, 1)):
        assert presence.mass[kind] == count
        assert sum(presence.weights[kind]) == pytest.approx(count)
        assert meta.may[kind] & board.pieces_mask(kind, chess.BLACK)  # the truth kept
    for kind in (chess.BISHOP, chess.QUEEN):
        assert meta.may[kind] == 0 and presence.mass[kind] == 0.0
        assert not any(presence.weights[kind])


def test_a_screen_with_an_oracle_plays_and_refuses_a_hero_that_is_not_meta(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A won position at the start (QRR against a lone king, no move saved): the hero
    told where the king stands mates it; the oracle told it before every decision."""
    fen = "4k3/8/8/8/8/8/8/RQ2K2R w - - 0 1"
    bots = ["kriegspiel-meta:nodes=200", "bots.baseline:KriegspielRandom"]
    (spec,) = schedule("kriegspiel", {"rules": "wild16", "fen": fen}, bots, 2, 1, "oracle")
    position = Position(0, 0, 0, fen, ((), ()), "win: checkmate")
    oracle = parse_oracle("king")
    row = asyncio.run(play_on(spec, position, 0, "oracle", oracle))
    assert row.converted and oracle.told >= (row.plies + 1) // 2  # each of its moves, at least
    random_hero = schedule(
        "kriegspiel", {"rules": "wild16", "fen": fen}, bots[::-1], 2, 1, "oracle"
    )[0]
    with pytest.raises(SystemExit, match="--oracle king: the hero must be kriegspiel-meta"):
        asyncio.run(play_on(random_hero, position, 0, "oracle", parse_oracle("king")))
    # the command line refuses a name it does not know before playing
    collected = Collected(tuple(bots), "oracle", 1, "wild16", "none", None, (position,))
    positions = tmp_path / "won.json"
    collected.save(positions)
    with pytest.raises(SystemExit) as stopped:
        main(["screen", "--positions", str(positions), "--oracle", "queen"])
    assert stopped.value.code == 2
    said = capsys.readouterr().err
    assert "--oracle: no oracle 'queen': one of king, kingR, everyN, smallN, kinds" in said
