"""Tournaments: fair seating, reproducible local runs, standings and the CLI."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from bots.tools.arena import (
    format_table,
    game_seed,
    run_local,
    schedule,
    seating,
    standings,
    wilson_interval,
)
from server.cli import main


def test_every_bot_visits_every_seat_equally() -> None:
    bots = ["a", "b", "c"]
    games = [seating(bots, 3, i) for i in range(6)]
    for seat in range(3):
        assert Counter(g[seat] for g in games) == {"a": 2, "b": 2, "c": 2}
    # each bot has each other bot on its left as often as on its right
    lefts = Counter((g[j], g[(j + 1) % 3]) for g in games for j in range(3))
    assert lefts[("a", "b")] == lefts[("b", "a")]


def test_more_seats_than_bots_and_fewer() -> None:
    assert seating(["x", "y"], 4, 0) == ["x", "y", "x", "y"]
    assert seating(["x", "y"], 4, 1) == ["y", "x", "y", "x"]
    picks = [tuple(seating(["a", "b", "c", "d"], 2, i)) for i in range(8)]
    assert Counter(b for p in picks for b in p) == {"a": 4, "b": 4, "c": 4, "d": 4}
    with pytest.raises(ValueError):
        seating([], 2, 0)


def test_seeds_differ_per_game_and_repeat_per_tournament() -> None:
    assert game_seed("s", 0) == game_seed("s", 0) != game_seed("s", 1)
    assert game_seed("s", 0) != game_seed("t", 0)


def test_wilson_interval() -> None:
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(0, 10)[0] == 0.0


def test_local_tournaments_are_reproducible_and_parallel_gives_the_same_table() -> None:
    specs = schedule("perudo", {"seats": 3}, ["perudo-simple", "perudo-random"], 3, 12, "fixed")
    serial = run_local(specs, parallel=1)
    parallel = run_local(specs, parallel=2)
    assert [p.ranks for p in serial] == [p.ranks for p in parallel]
    table = standings(serial, ["perudo-simple", "perudo-random"])
    again = standings(parallel, ["perudo-simple", "perudo-random"])
    assert [s.to_json() for s in table] == [s.to_json() for s in again]
    assert sum(s.games for s in table) == 36
    assert "perudo-simple" in format_table(table)


def test_ratings_order_the_stronger_bot_first() -> None:
    specs = schedule("perudo", {"seats": 4}, ["perudo-random", "perudo-simple"], 4, 40, "r")
    table = standings(run_local(specs), ["perudo-random", "perudo-simple"])
    assert table[0].bot == "perudo-simple"
    assert table[0].mu > table[1].mu


def test_tournament_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "tournament",
            "--game",
            "perudo",
            "--bots",
            "perudo-simple,perudo-random",
            "--games",
            "6",
            "--seed",
            "7",
            "--json",
        ]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 6 and report["seed"] == "7"
    assert {line["bot"] for line in report["standings"]} == {"perudo-simple", "perudo-random"}
    line = report["standings"][0]
    assert set(line) >= {
        "games",
        "wins",
        "win_rate",
        "win_rate_95ci",
        "mean_placing",
        "mu",
        "sigma",
    }


def test_tournament_command_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--game", "perudo", "--bots", "nobody", "--games", "1"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err
    assert (
        main(
            [
                "tournament",
                "--game",
                "perudo",
                "--bots",
                "perudo-random",
                "--seats",
                "9",
                "--games",
                "1",
            ]
        )
        == 2
    )
    assert "perudo needs 2 to 8 players, not 9" in capsys.readouterr().err
    assert (
        main(
            [
                "tournament",
                "--game",
                "perudo",
                "--bots",
                "perudo-random",
                "-o",
                "bad",
                "--games",
                "1",
            ]
        )
        == 2
    )
    assert "key=value" in capsys.readouterr().err
