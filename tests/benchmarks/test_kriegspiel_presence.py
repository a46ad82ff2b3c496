"""The presence map's calibration benchmark: games played, saved, loaded and scored."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import chess
import pytest

from benchmarks.kriegspiel_presence import (
    CLIP,
    Recorded,
    load,
    main,
    report,
    save,
    score_game,
    score_map,
    score_pushes,
)
from bots.kriegspiel.meta.metaposition import Metaposition
from bots.kriegspiel.meta.presence import KINDS

ARGS = ["--seed", "t1", "--budget", "nodes=30", "--bots", "kriegspiel-meta:hard,kriegspiel-random"]
ROW = re.compile(r"^\| (?P<kind>[PNBRQ]|all) \| (?P<loss>\d+\.\d{3}) \|$")


def test_a_saved_set_scores_as_the_games_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "games.jsonl.gz"
    assert main(["--games", "2", "--save", str(saved), *ARGS]) == 0
    played = capsys.readouterr().out.splitlines()
    assert re.match(r"^2 games, \d+ decisions scored$", played[0])
    rows = {match["kind"]: float(match["loss"]) for line in played if (match := ROW.match(line))}
    assert set(rows) == {"P", "N", "B", "R", "Q", "all"}
    assert abs(rows["all"] - sum(rows[k] for k in "PNBRQ")) < 0.01
    assert all(loss > 0 for loss in rows.values())
    assert main(["--load", str(saved)]) == 0
    loaded = capsys.readouterr().out.splitlines()
    assert loaded[:-1] == played[:-1]  # all but the CPU line
    games = load(str(saved))
    assert [game.index for game in games] == [0, 1]
    assert [game.hero for game in games] == [0, 1]  # the schedule's seats, by position


def test_a_map_that_knows_the_board_scores_only_the_clip() -> None:
    board = chess.Board("4k3/2p5/8/3n4/1P6/8/5PPP/4K3 w - - 0 1")
    meta = Metaposition.from_start(chess.WHITE, "wild16", board.fen())
    presence = meta.presence
    assert presence is not None
    for kind in KINDS:
        presence.weights[kind] = [0.0] * 64
        meta.may[kind] = int(board.pieces(kind, chess.BLACK))
    presence.weights[chess.PAWN][chess.C7] = 1.0
    presence.weights[chess.KNIGHT][chess.D5] = 1.0
    score = score_map(meta, board)
    assert score.decisions == 1
    assert abs(score.loss[chess.PAWN] + math.log(1 - CLIP)) < 1e-9  # one square, held
    assert abs(score.loss[chess.KNIGHT] + math.log(1 - CLIP)) < 1e-9
    assert score.loss[chess.ROOK] == 0.0  # no square allowed, none real
    assert score.advanced == 0  # c7 has not moved
    assert score.lagged == 1 and score.lag == 0.0


def test_an_advanced_pawn_the_map_holds_elsewhere_lags() -> None:
    """Black's pawn stands on c3 (four ranks advanced); the map holds it on c6 (one)."""
    board = chess.Board("4k3/8/8/8/8/2p5/8/4K3 w - - 0 1")
    meta = Metaposition.from_start(chess.WHITE, "wild16", board.fen())
    presence = meta.presence
    assert presence is not None
    presence.weights[chess.PAWN] = [0.0] * 64
    presence.weights[chess.PAWN][chess.C6] = 1.0
    meta.may[chess.PAWN] = chess.BB_C6 | chess.BB_C3
    score = score_map(meta, board)
    assert score.advanced == 1 and score.on_square == 0.0 and score.on_file == 0.0
    assert score.lag == 3.0
    assert abs(score.loss[chess.PAWN] - 2 * -math.log(CLIP)) < 1e-9


def test_the_last_units_kind_is_scored_by_the_maps_masses() -> None:
    """One black knight left; the map holds a knight 0.7 and a pawn 0.3."""
    board = chess.Board("4k3/8/8/3n4/8/8/8/4K3 w - - 0 1")
    meta = Metaposition.from_start(chess.WHITE, "wild16", board.fen())
    presence = meta.presence
    assert presence is not None
    presence.mass = [0.0, 0.3, 0.7, 0.0, 0.0, 0.0, 0.0]
    score = score_map(meta, board)
    assert score.grouped == {"1": 1}
    assert score.held["1", chess.KNIGHT] == 0.7 and score.real["1", chess.KNIGHT] == 1.0
    assert score.held["1", chess.PAWN] == 0.3 and score.real["1", chess.PAWN] == 0.0
    assert score.last == 1 and abs(score.last_share - 0.7) < 1e-9
    assert abs(score.last_loss + math.log(0.7)) < 1e-9
    lines = report(score, 1)
    none = "0.00 / 0.00"
    assert f"| 1 | 1 | 0.30 / 0.00 | 0.70 / 1.00 | {none} | {none} | {none} |" in lines
    assert lines[-1].startswith("one unit left (1 decisions): the map's share of its real kind 0.7")


def test_a_map_with_many_units_is_grouped_four_or_more() -> None:
    board = chess.Board()
    meta = Metaposition.from_start(chess.WHITE, "wild16")
    score = score_map(meta, board)
    assert score.grouped == {"4+": 1} and score.last == 0
    assert score.real["4+", chess.PAWN] == 8.0 and score.held["4+", chess.PAWN] == 8.0


def test_a_promotion_the_hero_was_not_told_of_is_counted() -> None:
    """Black's h-pawn becomes a queen on h3 (a move that loses a pawn and no unit): the
    white hero's next decision is scored in the group of one promotion; the map, never
    told, still holds eight pawns and one queen where seven and two stand."""
    start = chess.Board()
    start.push_san("e4")
    promoted = start.copy()
    promoted.remove_piece_at(chess.H7)
    promoted.set_piece_at(chess.H3, chess.Piece(chess.QUEEN, chess.BLACK))
    promoted.turn = chess.WHITE
    after = promoted.copy()
    after.push_san("d4")
    game = Recorded(
        0,
        0,
        "wild16",
        [
            (None, {"type": "move", "color": "white", "fen": start.fen()}),
            (None, {"type": "move", "color": "black", "fen": promoted.fen()}),
            (None, {"type": "move", "color": "white", "fen": after.fen()}),
        ],
    )
    score = score_game(game)
    group = "1 promoted, 4+ units"
    assert score.decisions == 1 and score.promoted == {group: 1}
    assert score.promoted_held[group, chess.PAWN] == 8.0
    assert score.promoted_real[group, chess.PAWN] == 7.0
    assert score.promoted_held[group, chess.QUEEN] == 1.0
    assert score.promoted_real[group, chess.QUEEN] == 2.0
    assert f"| {group} | 1 | 8.00 / 7.00 | 1.00 / 2.00 |" in report(score, 1)
    # a pawn we take is no promotion (the enemy lost it on our move, a unit with it)
    board = chess.Board()
    events: list[tuple[dict[str, Any] | None, dict[str, Any]]] = []
    for san in ("e4", "d5", "exd5", "Nf6", "d4"):
        board.push_san(san)
        color = "black" if board.turn == chess.WHITE else "white"
        events.append((None, {"type": "move", "color": color, "fen": board.fen()}))
    taken = score_game(Recorded(0, 0, "wild16", events))
    assert taken.promoted == {"0 promoted, 4+ units": 2}


def test_pushes_are_counted_against_the_maps_model_of_a_move() -> None:
    """With many units every quiet move is as likely; with few, every unit that can move."""
    board = chess.Board()
    board.push_san("e4")
    after = board.copy()
    after.push_san("e5")
    many = score_pushes(board, after)
    # eight pawns on black's second rank could step; 16 of the 20 quiet moves are theirs
    assert many.steppable == {("4+", 2): 8}
    assert many.pushed == {("4+", 2): 1.0}
    assert abs(many.expected["4+", 2] - 16 / 20) < 1e-9
    lone = chess.Board("4k3/p7/8/8/8/8/8/4K3 b - - 0 1")  # the king and one pawn
    pushed = lone.copy()
    pushed.push_san("a5")
    few = score_pushes(lone, pushed)
    assert few.steppable == {("1-3", 2): 1} and few.pushed == {("1-3", 2): 1.0}
    assert few.expected == {("1-3", 2): 0.5}  # the king or the pawn, as often
    walked = lone.copy()
    walked.push_san("Kd7")
    assert score_pushes(lone, walked).pushed == {}
    assert score_pushes(lone, walked).expected == {("1-3", 2): 0.5}
    # a capture is announced, not an unseen move: nothing is counted
    board = chess.Board("4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1")
    taken = board.copy()
    taken.push_san("dxe4")
    assert score_pushes(board, taken).steppable == {}
    lines = report(many, 1)
    assert "| 4+ | 2 | 8 | 1 | 0.8 | 1.25 |" in lines


def test_a_game_without_moves_scores_nothing(tmp_path: Path) -> None:
    game = Recorded(0, 0, "wild16", [])
    assert score_game(game).decisions == 0
    path = tmp_path / "one.jsonl.gz"
    save(str(path), [game])
    assert load(str(path)) == [game]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "0"], "--games must be 1 or more"),
        (["--parallel", "0"], "--parallel must be 1 or more"),
    ],
)
def test_nonsense_is_refused(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(argv)
    assert message in capsys.readouterr().err


def test_an_unreadable_set_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "garbage.gz"
    path.write_bytes(b"not gzip at all")
    with pytest.raises(SystemExit):
        main(["--load", str(path)])
    assert f"cannot read {path}" in capsys.readouterr().err
