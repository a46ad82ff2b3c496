"""The replay script: one scheduled game again, the hero's beliefs beside the real board."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import chess
import pytest

from benchmarks.kriegspiel_conversion import Collected, play_on
from benchmarks.kriegspiel_conversion import main as conversion
from benchmarks.kriegspiel_replay import main
from bots.tools.arena import schedule
from tests.bots.kriegspiel_meta_harness import rebuilt

ARGS = ["--seed", "t1", "--budget", "nodes=30", "--bots", "kriegspiel-meta:hard,kriegspiel-random"]
HEADER = re.compile(
    r"^game 0 of seed t1: the hero \(white\) (won|drew|lost): [a-z_]+, (?P<count>\d+) decisions$"
)
ROW = re.compile(
    r"^ *(?P<index>\d+) (?P<choice>[a-h][1-8][a-h][1-8][qrbn]?) +region +(?P<region>\d+)"
    r"(?P<out> \(the real king outside!\))?  units (?P<units>\d+)"
    r"  believed/real (?P<kinds>.*)  clock (?P<clock>\d+)$"
)
ROW_CHOICE = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")


def test_a_replayed_game_prints_each_decision_with_the_truth(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--game", "0", "--boards", "1", "--from", "5", *ARGS]) == 0
    out = capsys.readouterr().out.splitlines()
    header = HEADER.match(out[0])
    assert header is not None, out[0]
    count = int(header["count"])
    rows = [match for text in out if (match := ROW.match(text))]
    assert count > 20 and [int(row["index"]) for row in rows] == list(range(5, count))
    for row in rows:
        assert row["out"] is None  # the bot's region always holds the real king
        pairs = re.findall(r"[PNBRQ] (\d+\.\d+)/(\d+)", row["kinds"])
        assert len(pairs) == 5
        believed = sum(float(mass) for mass, _ in pairs)
        real = sum(int(count) for _, count in pairs)
        assert int(row["units"]) == real  # the units counted are the real ones
        assert abs(believed - real) < 0.03  # the masses hold them all (printed to 0.01)
    board = out[out.index("") + 1 :]
    assert board[0].startswith(f"decision {count - 1}, before ")  # the last one's board
    assert len(board) == 9 and all(len(rank.split()) == 8 for rank in board[1:])


def test_a_bad_game_index_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--game", "-1", *ARGS])
    assert "a game's index is 0 or more" in capsys.readouterr().err


NOT_TAKEN = re.compile(
    r"^not taken back: move \d+: [PNBRQK]x[PNBRQ] on [a-h][1-8], "
    r"answers [a-h][1-8][a-h][1-8][qrbn]?( [a-h][1-8][a-h][1-8][qrbn]?)*, played \S+"
)


# Two whole games and a checkout of HEAD: 44 s alone, and it ran past the 120 s default
# on a machine busy with two benchmarks besides the suite's two workers.
@pytest.mark.timeout(300)
def test_the_other_meta_as_committed_plays_the_same_game_and_a_decision_prints(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--previous HEAD`` replays the same game as today's opponent when the bot is
    unchanged, and both list the captures the hero did not take back in one format.
    ``--at`` (the same game, so that the suite plays it once more, not twice): the
    metaposition before the decision, as ``rebuilt`` reads it (our placement is the real
    board's side of ours), and the scores the search gave."""
    if subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True).returncode != 0:
        pytest.skip("not a git checkout")
    monkeypatch.setattr(sys, "path", list(sys.path))
    pair = ["--seed", "t2", "--budget", "none", "--boards", "0", "--game", "1", "--at", "40"]
    bots = ["--bots", "kriegspiel-meta:nodes=30,kriegspiel-meta:nodes=20"]
    assert main([*pair, *bots]) == 0
    out = capsys.readouterr().out
    today = out.splitlines()
    assert main([*pair, *bots, "--previous", "HEAD"]) == 0
    committed = capsys.readouterr().out.splitlines()
    left = [text for text in today if text.startswith("not taken back")]
    assert left and all(NOT_TAKEN.match(text) for text in left), left  # (6 in this game)
    dirty = subprocess.run(
        ["git", "diff", "--quiet", "HEAD", "--", "bots/kriegspiel/meta"], capture_output=True
    ).returncode
    if not dirty:
        assert committed == today

    head = re.search(r"^decision 40 \((\S+), ([^)]+)\): the search's best scores: (.*)$", out, re.M)
    assert head is not None
    choice, fen, ranked = head.groups()
    moves = [pair.split(" ")[0] for pair in ranked.split(", ")]
    assert choice in moves and len(moves) <= 8
    text = out[out.index("RECORDED: dict[str, Any] = {") :]
    namespace: dict[str, Any] = {"Any": Any, "chess": chess}
    exec(text[: text.index("}  # fmt: skip") + 1], namespace)  # (our own output)
    meta = rebuilt(namespace["RECORDED"])
    board = chess.Board(fen)
    ours = chess.Board(None)
    for square in chess.SquareSet(board.occupied_co[meta.color]):
        ours.set_piece_at(square, board.piece_at(square))
    assert meta.own.board_fen() == ours.board_fen()
    assert meta.units == (board.occupied_co[not meta.color] & ~board.kings).bit_count()


def test_a_saved_won_position_is_replayed_as_the_screen_played_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Meta at 20 nodes against random: game 0 of seed "r" reaches a won position at ply
    # 63 (white's 32nd move, after 37 attempts).
    positions = tmp_path / "won.json"
    bots = "kriegspiel-meta:nodes=20,kriegspiel-random"
    argv = ["collect", "--out", str(positions), "--games", "1", "--seed", "r", "--bots", bots]
    assert conversion(argv) == 0
    capsys.readouterr()
    assert main(["--game", "0", "--positions", str(positions), "--repeat", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    position = Collected.load(positions).positions[0]
    assert out[0] == f"the won position of game 0, ply 63: {position.fen}"
    header = re.match(
        r"^game 0 of seed r: the hero \(white\) (\w+): (\w+), (\d+) decisions$", out[1]
    )
    assert header is not None, out[1]
    rows = [match for text in out if (match := ROW.match(text))]
    attempts = sum(1 for one in position.prefix[0] if ROW_CHOICE.fullmatch(one))
    assert [int(row["index"]) for row in rows] == list(range(attempts, int(header[3])))
    # the screen's continuation: the same end
    spec = schedule("kriegspiel", {"rules": "wild16"}, bots.split(","), 2, 1, "r")[0]
    played = asyncio.run(play_on(spec, position, 1, "r"))
    assert (header[1], header[2]) == (
        {"win": "won", "draw": "drew", "loss": "lost"}[played.result],
        played.reason,
    )
    with pytest.raises(SystemExit):
        main(["--game", "3", "--positions", str(positions)])
    assert f"--game 3: {positions} saved games 0" in capsys.readouterr().err
