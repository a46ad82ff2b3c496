"""The replay script: one scheduled game again, the hero's beliefs beside the real board."""

from __future__ import annotations

import re

import pytest

from benchmarks.kriegspiel_replay import main

ARGS = ["--seed", "t1", "--budget", "nodes=30", "--bots", "kriegspiel-meta:hard,kriegspiel-random"]
ROW = re.compile(
    r"^ *(?P<index>\d+) (?P<choice>\S+) +region +(?P<region>\d+)"
    r"(?P<out> \(the real king outside!\))?  units (?P<units>\d+)"
    r"  believed/real (?P<kinds>.*)  clock (?P<clock>\d+)$"
)


def test_a_replayed_game_prints_each_decision_with_the_truth(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--game", "0", "--boards", "1", *ARGS]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "game 0 of seed t1: the hero (white) won: checkmate, 119 decisions"
    rows = [match for text in out if (match := ROW.match(text))]
    assert len(rows) == 119 and [int(row["index"]) for row in rows] == list(range(119))
    assert rows[0]["choice"] == "f2f4" and rows[0]["region"] == "1"  # the king on e8
    for row in rows:
        assert row.group("out") is None  # the bot's region always holds the real king
        pairs = re.findall(r"[PNBRQ] (\d+\.\d+)/(\d+)", row["kinds"])
        believed = sum(float(mass) for mass, _ in pairs)
        real = sum(int(count) for _, count in pairs)
        assert int(row["units"]) == real  # the units counted are the real ones
        assert abs(believed - real) < 0.03  # the masses hold them all (printed to 0.01)
    board = out[out.index("") + 1 :]
    assert board[0].startswith("decision 118, before ") and len(board) == 9  # fen, 8 ranks


def test_the_first_decision_printed_and_a_bad_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "0", "--boards", "0", "--from", "117", *ARGS]) == 0
    rows = capsys.readouterr().out.splitlines()[1:]
    assert [row.split()[0] for row in rows] == ["117", "118"]
    with pytest.raises(SystemExit):
        main(["--game", "-1", *ARGS])
    assert "a game's index is 0 or more" in capsys.readouterr().err
