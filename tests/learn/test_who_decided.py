"""Who decided each move, in the exports (issue 32): the JSONL ``by`` list and the Parquet
``by`` column; a stand-in's move carries no thinking time (it was not the player's)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import polars as pl

from server.export.parquet import export_parquet
from server.export.reader import export_jsonl
from server.store import journal
from server.store.signing import Signer
from server.store.sqlite import SqliteStore
from tests.server.store_contract import chained_entries, play_random_game


async def test_the_exports_say_who_decided_and_a_stand_in_s_time_is_nobody_s(
    tmp_path: Path,
) -> None:
    store = SqliteStore(str(tmp_path / "kb.db"), synchronous="NORMAL")
    await store.open()
    try:
        signer = Signer.generate()
        await store.add_signing_key(signer.key_id, signer.public, 1.0)
        row, events, causes, history, outcome = await play_random_game("g1", b"who decided")
        for entry in chained_entries(row, events, causes, history, outcome, signer):
            await journal.commit(store, entry)  # (action 2 is a stand-in's)
        out = io.StringIO()
        assert await export_jsonl(store, out) == 1
        game = json.loads(out.getvalue())
        assert game["by"] == ["player", "standin"] + ["player"] * (len(history) - 2)
        assert game["chained"] and game["key_id"] == signer.key_id
        await export_parquet(store, tmp_path / "data")
    finally:
        await store.close()
    decisions = pl.read_parquet(tmp_path / "data" / "decisions.parquet")
    standin = decisions.filter(pl.col("by") == "standin")
    assert standin["n"].to_list() == [2] and standin["seconds"].to_list() == [None]
    own = decisions.filter(pl.col("by") == "player")
    assert len(own) == len(history) - 1 and own["seconds"].null_count() == 0
    games = pl.read_parquet(tmp_path / "data" / "games.parquet")
    assert games["final_hash"].to_list() == [game["final_hash"]]
