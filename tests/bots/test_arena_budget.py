"""Tournaments with a node budget: the same games on any machine, illegal attempts counted."""

from __future__ import annotations

import json

import pytest

from bots.sdk.budget import NodeClock, parse_budget
from bots.tools.arena import Standing, format_table, run_local, schedule, standings
from server.cli import main

BOTS = ["kriegspiel-meta", "kriegspiel-random"]
#: A small start (a rook and a pawn each), so that the games stay short: with three
#: pawns each (until 2026-11-30) a game of the four ran 20 s in the bot's plans with
#: pawns standing still, and the test 50 s.
SMALL = {"fen": "r3k3/3p4/8/8/8/8/3P4/R3K3 w - - 0 1"}


def test_budget_texts() -> None:
    assert str(parse_budget("nodes=500")) == "nodes=500"
    assert parse_budget("cpu=0.2").unit == "cpu"
    for bad in ("500", "nodes=-1", "nodes=1.5", "hours=1", "cpu=fast"):
        with pytest.raises(ValueError):
            parse_budget(bad)
    clock = NodeClock()
    clock.tick(3)
    assert clock() == 3.0


@pytest.mark.timeout(600)  # (three whole games: the default guards hangs, not load)
def test_a_node_budget_plays_the_same_games_and_counts_illegal_attempts() -> None:
    specs = schedule("kriegspiel", SMALL, BOTS, 2, 2, "nodes", budget="nodes=150")
    first = run_local(specs)
    again = run_local(specs[1:])  # (one game again is enough to see it is the same)
    assert [(p.ranks, p.reason, p.stats) for p in first[1:]] == [
        (p.ranks, p.reason, p.stats) for p in again
    ]
    table = standings(first, BOTS)
    for line in table:
        assert line.totals["moves"] > 0
        rate = line.illegal_rate
        assert rate is not None and 0.0 < rate < 1.0
    assert "illegal/attempt" in format_table(table)
    assert "illegal/attempt" not in format_table([Standing("perudo-simple", games=1)])


def test_the_tournament_command_takes_a_budget(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "--game", "kriegspiel", "--bots", ",".join(BOTS), "--games", "1"]
    args += ["-o", f"fen={SMALL['fen']}"]
    assert main([*args, "--seed", "3", "--budget", "nodes=100", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["budget"] == "nodes=100"
    assert {"moves", "illegal_attempts"} <= set(report["standings"][0]["stats"])
    assert main([*args, "--budget", "nodes=lots"]) == 2
    assert "--budget" in capsys.readouterr().err
    assert main([*args, "--seed", "3", "--budget", "nodes=100"]) == 0
    out = capsys.readouterr().out
    assert "budget nodes=100" in out and "endings: " in out
