"""Self-play and tournaments as Ray tasks (bots/tools/ray_games.py), on a real local Ray
cluster: a head and one worker node, on loopback, with no dashboard and a small object
store, shared by the module. The games, the knowledge base's exported rows and the
standings must equal those of the same seed played without Ray, and a worker killed
mid-run must have its games played again and logged once."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: Ray must never reach past loopback, nor report usage (docs/learning.md); read when Ray
#: is imported, so set first.
LOOPBACK = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
for _key, _value in LOOPBACK.items():
    os.environ.setdefault(_key, _value)

pytest.importorskip("ray")
pyarrow_parquet = pytest.importorskip("pyarrow.parquet")

from bots.tools.arena import PlayedGame, schedule  # noqa: E402
from bots.tools.cli import play_and_record  # noqa: E402
from server.cli import main, open_recorder  # noqa: E402
from tests.bots.ray_crash_bot import MARKER  # noqa: E402

SMALL_STORE = 80 * 1024 * 1024
# wall-clock times, and the final hash and its signature, which commit to them (and to
# each action's time): the only fields that may differ
TIMED = ("started", "finished", "final_hash", "signature")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A local Ray cluster for the module: a head with no CPUs (so no task runs there)
    and one worker node of one CPU; yields its address."""
    from ray.cluster_utils import Cluster

    node = {"include_dashboard": False, "object_store_memory": SMALL_STORE}
    local = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, **node})
    try:
        local.add_node(num_cpus=1, object_store_memory=SMALL_STORE)
        yield local.address
    finally:
        local.shutdown()  # type: ignore[no-untyped-call]  # (Ray leaves it unannotated)


def export(
    db: Path | str, out: Path
) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """The knowledge base's JSONL games and Parquet rows, without wall-clock times."""
    assert main(["export", "--db", str(db), "--out", str(out / "games.jsonl")]) == 0
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    for game in games:
        for key in TIMED:
            game.pop(key)
    assert main(["export", "--db", str(db), "--format", "parquet", "--out", str(out)]) == 0
    tables = {}
    for name in ("games", "decisions"):
        table = pyarrow_parquet.read_table(out / f"{name}.parquet")
        tables[name] = table.drop_columns([c for c in TIMED if c in table.column_names]).to_pylist()
    return games, tables


def selfplay(db: Path | str, *extra: str) -> None:
    argv = ["selfplay", "--game", "perudo", "--bots", "perudo-random,perudo-simple"]
    argv += ["--seats", "3", "--games", "6", "--seed", "ray", "--db", str(db), *extra]
    assert main(argv) == 0


def test_selfplay_and_tournament_on_ray_equal_the_same_seed_without_it(
    cluster: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "local").mkdir()
    (tmp_path / "ray").mkdir()
    key = ("--signing-key", str(tmp_path / "kb.key"))  # (one key: the same signatures)
    selfplay(tmp_path / "local.db", *key)
    selfplay(tmp_path / "ray.db", "--ray", cluster, *key)
    local = export(tmp_path / "local.db", tmp_path / "local")
    on_ray = export(tmp_path / "ray.db", tmp_path / "ray")
    assert len(local[0]) == 6 and len(local[1]["decisions"]) > 6
    assert on_ray == local
    assert [g["settings"]["index"] for g in on_ray[0]] == list(range(6))

    capsys.readouterr()

    argv = ["tournament", "--game", "kriegspiel", "--bots", "kriegspiel-random"]
    argv += ["--games", "2", "--seed", "t", "--json"]
    reports = []
    for extra in ([], ["--ray", cluster]):
        assert main([*argv, *extra]) == 0
        report = json.loads(capsys.readouterr().out)
        reports.append({k: v for k, v in report.items() if k != "seconds"})
    assert reports[0] == reports[1]
    assert len(reports[0]["results"]) == 2


@pytest.mark.allow_errors  # Ray reports the lost worker
def test_a_worker_killed_mid_run_has_its_games_played_again_and_logged_once(
    cluster: str, tmp_path: Path
) -> None:
    import ray

    bots = ["tests.bots.ray_crash_bot:CrashOnce", "perudo-random"]
    specs = schedule("perudo", {"seats": 2}, bots, 2, 4, "crash")
    marker = tmp_path / "crashed"
    expected = tmp_path / "local.db"
    db = tmp_path / "ray.db"

    async def run(where: Path, ray_address: str | None) -> list[PlayedGame]:
        async with open_recorder(str(where), str(tmp_path / "kb.key")) as record:
            return await play_and_record(
                specs, 1, record, {"source": "test"}, ray_address=ray_address
            )

    asyncio.run(run(expected, None))  # no marker variable here: no crash
    ray.init(address=cluster, runtime_env={"env_vars": {MARKER: str(marker)}})
    try:
        played = asyncio.run(run(db, cluster))
    finally:
        ray.shutdown()
    assert marker.exists()  # a worker process did die mid-game
    assert [p.spec.index for p in played] == [0, 1, 2, 3]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert export(db, tmp_path / "a") == export(expected, tmp_path / "b")


def test_selfplay_on_ray_into_postgresql_equals_the_same_seed_without_ray(
    cluster: str, pg_dsn: str, tmp_path: Path
) -> None:
    (tmp_path / "local").mkdir()
    (tmp_path / "pg").mkdir()
    selfplay(tmp_path / "local.db")
    # (PostgreSQL needs its key file: the local one's, so that the signatures are equal)
    key = ("--signing-key", str(tmp_path / "local.db.key"))
    selfplay(pg_dsn, "--ray", cluster, *key)
    selfplay(pg_dsn, "--ray", cluster, *key)  # again: the games are keyed, none logged twice
    assert export(pg_dsn, tmp_path / "pg") == export(tmp_path / "local.db", tmp_path / "local")
