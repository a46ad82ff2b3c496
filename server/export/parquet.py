"""The Parquet export: one row per decision, and one row per game (docs/data.md).

Each revealed game is replayed from its seed and logged actions (as every export is, and
checked against the logged truths). Before each player's action the exporter takes what
that seat knew (``Game.view(seat)``) and what it could do (``Game.legal_texts(seat)``),
so a decision row is exactly the information its player decided on, next to the choice
made, the time it took and how the game ended for that seat.

Writing streams: games are read one at a time (:func:`server.export.reader.logs`) and rows go
out through :class:`pyarrow.parquet.ParquetWriter` in batches of ``batch_rows``, so memory
stays bounded however large the knowledge base. Needs the ``learn`` extra (pyarrow).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from server.export.reader import GameLog, logs
from server.games import engine
from server.games.base import FORFEIT_PREFIX, GameError, Record
from server.store.contract import Store

#: One row per decision: an accepted action (forfeits the server imposed are not
#: decisions and have no row). ``by`` says who decided it (``player``, ``house``,
#: ``standin``: docs/data.md; None for games logged before it was recorded); a stand-in's
#: move has no ``seconds`` (the time since the last move was the absent player's, not a
#: decision's).
DECISIONS = pa.schema(
    [
        ("game_id", pa.string()),
        ("game", pa.string()),
        ("n", pa.int32()),
        ("seat", pa.int16()),
        ("player", pa.string()),
        ("observation", pa.string()),
        ("legal", pa.list_(pa.string())),
        ("action", pa.string()),
        ("seconds", pa.float64()),
        ("by", pa.string()),
        ("rank", pa.int16()),
        ("won", pa.bool_()),
        ("rating", pa.float64()),
    ]
)

#: One row per game.
GAMES = pa.schema(
    [
        ("game_id", pa.string()),
        ("game", pa.string()),
        ("options", pa.string()),
        ("settings", pa.string()),
        ("seats", pa.int16()),
        ("players", pa.list_(pa.string())),
        ("status", pa.string()),
        ("reason", pa.string()),
        ("ranks", pa.list_(pa.int16())),
        ("decisions", pa.int32()),
        ("seed", pa.string()),
        ("seed_sha256", pa.string()),
        ("started", pa.float64()),
        ("finished", pa.float64()),
        ("rated", pa.string()),
        ("rating_before", pa.list_(pa.float64())),
        ("rating_after", pa.list_(pa.float64())),
        ("deviation_before", pa.list_(pa.float64())),
        ("deviation_after", pa.list_(pa.float64())),
        ("chained", pa.bool_()),
        ("final_hash", pa.string()),
        ("signature", pa.string()),
        ("key_id", pa.string()),
    ]
)

#: ``progress(games, decisions)``: called after each exported game.
Progress = Callable[[int, int], None]


def decision_rows(log: GameLog) -> list[dict[str, Any]]:
    """The decision rows of one game, replayed from its seed and checked against its log."""
    row = log.row
    eng = engine(row.game)
    game, events = eng.new_game(eng.stored_config(row.options), row.seed)
    players = [None if p is None else str(p["id"]) for p in log.players]
    out: list[dict[str, Any]] = []
    previous = row.started if row.started is not None else row.created
    for action in log.actions:
        record = Record(action.seat, action.action)
        if not action.action.startswith(FORFEIT_PREFIX):
            out.append(
                {
                    "game_id": row.id,
                    "game": row.game,
                    "n": action.n,
                    "seat": action.seat,
                    "player": players[action.seat],
                    "observation": json.dumps(game.view(action.seat), separators=(",", ":")),
                    "legal": game.legal_texts(action.seat),
                    "action": action.action,
                    "seconds": None if action.by == "standin" else max(0.0, action.at - previous),
                    "by": action.by,
                }
            )
        previous = action.at
        events.extend(game.apply_record(record))
    logged = [e.truth for e in log.events if e.source == "game"]
    if [e.truth for e in events] != logged:
        raise GameError(f"game {row.id}: the log does not replay; run umpire verify")
    ranks = list(game.outcome.ranks) if game.outcome is not None else None
    before = {c.seat: c.before.rating for c in log.ratings}
    for decision in out:
        rank = None if ranks is None else ranks[decision["seat"]]
        decision["rank"] = rank
        decision["won"] = None if ranks is None else rank == 1
        decision["rating"] = before.get(decision["seat"])
    return out


def game_row(log: GameLog, decisions: int) -> dict[str, Any]:
    """The games-table row of one game (never ``row.house``: the house tickets are secret)."""
    row = log.row
    result = row.result or {}
    return {
        "game_id": row.id,
        "game": row.game,
        "options": json.dumps(row.options, separators=(",", ":")),
        "settings": json.dumps(row.settings, separators=(",", ":")),
        "seats": len(row.seats),
        "players": [None if p is None else str(p["id"]) for p in log.players],
        "status": row.status,
        "reason": row.reason,
        "ranks": result.get("ranks"),
        "decisions": decisions,
        "seed": row.seed.hex(),
        "seed_sha256": row.seed_sha256,
        "started": row.started,
        "finished": row.finished,
        **rating_columns(log),
        "chained": row.chained,
        "final_hash": row.final_hash,
        "signature": row.signature,
        "key_id": row.key_id,
    }


def rating_columns(log: GameLog) -> dict[str, Any]:
    """A rated game's rule set and each seat's rating and deviation before and after
    (all None for a casual game)."""
    changes = sorted(log.ratings, key=lambda c: c.seat)
    if not changes:
        return dict.fromkeys(
            ("rated", "rating_before", "rating_after", "deviation_before", "deviation_after")
        )
    return {
        "rated": changes[0].key.rules,
        "rating_before": [c.before.rating for c in changes],
        "rating_after": [c.after.rating for c in changes],
        "deviation_before": [c.before.deviation for c in changes],
        "deviation_after": [c.after.deviation for c in changes],
    }


async def export_parquet(
    store: Store,
    out_dir: str | Path,
    game_ids: Iterable[str] | None = None,
    *,
    batch_rows: int = 20_000,
    batch_bytes: int = 64 << 20,
    progress: Progress | None = None,
) -> tuple[int, int]:
    """Write ``decisions.parquet`` and ``games.parquet`` into ``out_dir`` (created if
    needed); return how many games and decisions. Rows are written whenever
    ``batch_rows`` decisions or ``batch_bytes`` of observations are waiting (Kriegspiel
    observations grow with the game), so memory stays bounded by about that much."""
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    games = decisions = waiting = 0
    pending: list[dict[str, Any]] = []
    pending_games: list[dict[str, Any]] = []
    with (
        pq.ParquetWriter(folder / "decisions.parquet", DECISIONS, compression="zstd") as dw,
        pq.ParquetWriter(folder / "games.parquet", GAMES, compression="zstd") as gw,
    ):
        async for log in logs(store, game_ids):
            rows = decision_rows(log)
            pending.extend(rows)
            pending_games.append(game_row(log, len(rows)))
            games += 1
            decisions += len(rows)
            waiting += sum(len(r["observation"]) for r in rows)
            if len(pending) >= batch_rows or waiting >= batch_bytes:
                dw.write_table(pa.Table.from_pylist(pending, DECISIONS))
                gw.write_table(pa.Table.from_pylist(pending_games, GAMES))
                pending, pending_games, waiting = [], [], 0
            if progress is not None:
                progress(games, decisions)
        dw.write_table(pa.Table.from_pylist(pending, DECISIONS))
        gw.write_table(pa.Table.from_pylist(pending_games, GAMES))
    return games, decisions
