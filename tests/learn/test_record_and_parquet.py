"""Episodes from the environments go into the knowledge base through the journal, verify
like any game, and export to Parquet with exactly what each seat knew at each decision."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pyarrow.parquet as pq
import pytest

from bots.learn.env import Episode, UmpireEnv, kriegspiel_env, perudo_env
from bots.tools.arena import schedule
from bots.tools.cli import play_and_record
from server.cli import main, open_recorder
from server.export.parquet import export_parquet
from server.store.learn_record import save_episodes
from server.store.sqlite import SqliteStore


def play(env: UmpireEnv, seed: int) -> tuple[Episode, list[dict[str, Any]]]:
    """A random game; return its episode and, per decision, what the env showed."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    shown: list[dict[str, Any]] = []
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        shown.append(
            {
                "seat": env.possible_agents.index(agent),
                "observation": info["view"],
                "legal": info["legal"],
                "action": env.encoding.action_text(action),
            }
        )
        env.step(action)
    return env.episode(), shown


def test_episodes_are_recorded_verified_and_exported(tmp_path: Path, capsys: Any) -> None:
    db = str(tmp_path / "kb.db")
    games = [play(perudo_env(seats=3, dice_per_player=2), s) for s in range(4)]
    games += [play(kriegspiel_env(rules=r), s) for s, r in enumerate(["english", "rand"])]
    perudo_ids = save_episodes(db, [e for e, _ in games[:4]], ["learner-a", "learner-b", "x"])
    ks_ids = save_episodes(db, [e for e, _ in games[4:]], ["learner-a", "learner-b"])
    ids = perudo_ids + ks_ids
    assert main(["verify", "--db", db, *ids]) == 0
    assert capsys.readouterr().out.count(": verified") == len(ids)

    out = tmp_path / "parquet"
    assert main(["export", "--db", db, "--format", "parquet", "--out", str(out)]) == 0
    assert "exported 6 games" in capsys.readouterr().err
    decisions = pl.read_parquet(out / "decisions.parquet")
    table = pl.read_parquet(out / "games.parquet")
    assert table["game_id"].to_list() == ids
    assert table["settings"].to_list() == ['{"source":"learn"}'] * 6
    for game_id, (episode, shown) in zip(ids, games, strict=True):
        rows = decisions.filter(pl.col("game_id") == game_id).sort("n").to_dicts()
        assert [r["n"] for r in rows] == list(range(1, len(shown) + 1))
        for row, seen in zip(rows, shown, strict=True):
            assert row["seat"] == seen["seat"]
            assert json.loads(row["observation"]) == seen["observation"]
            assert row["legal"] == seen["legal"]
            assert row["action"] == seen["action"]
            assert row["rank"] == episode.outcome.ranks[row["seat"]]
            assert row["won"] == (row["rank"] == 1)
            assert row["seconds"] == 0.0  # an episode is logged with one timestamp
        game = table.filter(pl.col("game_id") == game_id).to_dicts()[0]
        assert game["ranks"] == list(episode.outcome.ranks)
        assert game["decisions"] == len(shown)
        assert game["players"][0] == "bot-learner-a"


def test_truncated_episode_is_not_recorded() -> None:
    env = kriegspiel_env(max_actions=10)
    env.reset(seed=1)
    for _ in range(10):
        mask = env.observe(env.agent_selection)["action_mask"]
        legal = [i for i in np.flatnonzero(mask) if env.encoding.action_text(int(i)) != "resign"]
        env.step(int(legal[0]))
    assert all(env.truncations.values())
    with pytest.raises(ValueError, match="not over"):
        env.episode()


async def test_parquet_export_streams_in_batches_and_reports_progress(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    specs = schedule("perudo", {"seats": 3}, ["perudo-random", "perudo-simple"], 3, 6, "pq")
    async with open_recorder(str(db)) as record:
        await play_and_record(specs, 1, record, {"source": "test"})
    store = SqliteStore(str(db))
    await store.open()
    seen: list[tuple[int, int]] = []
    try:
        small = await export_parquet(
            store, tmp_path / "small", batch_rows=7, progress=lambda g, d: seen.append((g, d))
        )
        whole = await export_parquet(store, tmp_path / "whole")
        by_size = await export_parquet(store, tmp_path / "by_size", batch_bytes=5_000)
    finally:
        await store.close()
    assert small == whole == by_size and small[0] == 6
    assert [g for g, _ in seen] == [1, 2, 3, 4, 5, 6] and seen[-1][1] == small[1]
    a = pl.read_parquet(tmp_path / "small" / "decisions.parquet")
    b = pl.read_parquet(tmp_path / "whole" / "decisions.parquet")
    assert a.height == small[1] and a.equals(b)
    assert pl.read_parquet(tmp_path / "by_size" / "decisions.parquet").equals(a)
    row_groups = pq.ParquetFile(tmp_path / "by_size" / "decisions.parquet").num_row_groups
    assert row_groups >= 6  # a game's rows hold more than 5,000 bytes of observations
    assert set(a["player"].unique()) == {"bot-perudo-random", "bot-perudo-simple"}
    # Every decision is one of its legal actions, and its observation is its own seat's.
    assert all(r["action"] in r["legal"] for r in a.iter_rows(named=True))
    assert all(json.loads(r["observation"])["seat"] == r["seat"] for r in a.iter_rows(named=True))
    assert pl.read_parquet(tmp_path / "small" / "games.parquet").height == 6


def test_parquet_needs_an_out_directory(tmp_path: Path, capsys: Any) -> None:
    db = tmp_path / "kb.db"
    save_episodes(str(db), [play(perudo_env(seats=2), 0)[0]], ["a", "b"])
    assert main(["export", "--db", str(db), "--format", "parquet"]) == 2
    assert "needs --out" in capsys.readouterr().err
