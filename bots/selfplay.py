"""Self-play: bot games played in-process and logged to the knowledge base exactly as the
server logs its games, so every later tool (profiles, export, verify) works the same on both.

Each finished local game becomes one ``games`` row (status ``finished``, the seed revealed,
``settings`` saying where it came from), its ``actions`` (the history records) and its
``events`` (every truth, numbered from 1, with the action that caused it), in one
transaction. Each bot plays under the identity ``bot-<name>``, the one the server gives
its house bots, and its public statistics are added to its profile.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Sequence
from typing import Any

from bots.arena import PlayedGame
from server import stats
from server.games.base import seed_commitment
from server.store import ActionRow, EventRow, GameRow, PlayerRow, Store


def bot_player_id(name: str) -> str:
    """The identity a bot plays under, in self-play and as a house bot."""
    return "bot-" + name


async def ensure_bot_players(store: Store, names: Sequence[str]) -> None:
    """Create the ``bot-<name>`` players that do not exist yet."""
    for name in dict.fromkeys(names):
        player_id = bot_player_id(name)
        if await store.player(player_id) is None:
            # A random token nobody knows: a bot identity cannot be reclaimed by a client.
            token_hash = secrets.token_hex(32)
            await store.add_player(PlayerRow(player_id, name, True, time.time()), token_hash)


def game_id() -> str:
    """A fresh id for a self-play game (server rooms use shorter ids without the prefix)."""
    return "sp-" + secrets.token_urlsafe(9)


async def record_game(store: Store, played: PlayedGame, settings: dict[str, Any]) -> str:
    """Write one finished local game to ``store``; return its id."""
    local = played.local
    if local is None:
        raise ValueError("only games played in this process carry their events")
    now = time.time()
    seats: list[str | None] = [bot_player_id(name) for name in played.spec.bots]
    row = GameRow(
        id=game_id(),
        game=local.game_name,
        options=local.config.to_options(),
        settings=settings,
        host=None,
        invite=None,
        public=False,
        seats=seats,
        status="finished",
        seed=local.seed,
        seed_sha256=seed_commitment(local.seed),
        created=now,
        seed_revealed=True,
        result=local.outcome.to_json(),
        reason=local.outcome.reason,
        started=now,
        finished=now,
    )
    events = [
        EventRow(seq, "game", event.truth, cause)
        for seq, (event, cause) in enumerate(zip(local.events, local.causes, strict=True), 1)
    ]
    actions = [
        ActionRow(n, record.seat, record.action, now)
        for n, record in enumerate(local.game.history, 1)
    ]
    # One save and the appends queued together share the store's group commit.
    await asyncio.gather(
        store.save_game(row, events),
        *(store.append(row.id, [], action) for action in actions),
    )
    per_seat = stats.compute(local.game_name, local.events, local.outcome, len(seats))
    totals: dict[str, dict[str, float]] = {}
    for player_id, values in zip(seats, per_seat, strict=True):
        assert player_id is not None
        bucket = totals.setdefault(player_id, {})
        for key, value in values.items():
            bucket[key] = bucket.get(key, 0) + value
    await store.add_stats(local.game_name, totals)
    return row.id
