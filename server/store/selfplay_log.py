"""Self-play games into the knowledge base, through the same journal as the server's rooms.

Each finished local game becomes one ``games`` row (status ``finished``, the seed revealed,
``settings`` saying where it came from), its ``actions`` (the history records) and its
``events`` (every truth, numbered from 1, with the action that caused it), written by
:func:`server.store.journal.record_finished`. Each bot plays under the identity ``bot-<name>``,
the one the server gives its house bots, and its public statistics are added to its
profile. The bots never import this module: the composition root (``server/cli.py``)
hands the arena a recorder built on it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from server.games.base import Event, Outcome, Record, seed_commitment
from server.store import journal, stats
from server.store.contract import GameRow, PlayerRow, Store

if TYPE_CHECKING:
    from server.store.signing import Signer


def bot_player_id(name: str) -> str:
    """The identity a bot plays under, in self-play and as a house bot."""
    return "bot-" + name


def game_id(key: str | None = None) -> str:
    """The id of a self-play game (server rooms use shorter ids without the prefix): fresh
    without ``key``, else derived from it (:func:`scheduled_key`), the same on every run."""
    if key is None:
        return "sp-" + secrets.token_urlsafe(9)
    digest = hashlib.sha256(f"umpire-selfplay/{key}".encode()).digest()
    return "sp-" + base64.urlsafe_b64encode(digest[:9]).decode()


def is_selfplay(game_id: str) -> bool:
    """Whether ``game_id`` names a self-play game (:func:`game_id`): one written whole by
    ``umpire selfplay`` or ``tournament --db``, never a room a server plays; one left
    ``playing`` is a driver's half-written game, not a game to rebuild."""
    return game_id.startswith("sp-")


def scheduled_key(game: str, options: Mapping[str, Any], bots: Sequence[str], seed: bytes) -> str:
    """What a scheduled game is: its engine, options, bots in seat order and seed (which
    the arena derives from the run's seed and the game's index). Two runs with the same
    seed give their games the same keys, so the same ids, whoever plays them."""
    return json.dumps([game, dict(options), list(bots), seed.hex()], sort_keys=True)


class SelfplayLog:
    """Writes locally played games to ``store``; creates the bots' players on first use."""

    def __init__(self, store: Store, signer: Signer | None = None) -> None:
        self.store = store
        #: signs each game's final hash (server.store.signing); None: unsigned
        self.signer = signer
        self._known: set[str] = set()

    async def ensure_players(self, names: Iterable[str]) -> None:
        """Create the ``bot-<name>`` players that do not exist yet."""
        for name in dict.fromkeys(names):
            player_id = bot_player_id(name)
            if player_id in self._known:
                continue
            if await self.store.player(player_id) is None:
                # A random token nobody knows: a bot identity cannot be reclaimed by a client.
                row = PlayerRow(player_id, name, True, time.time())
                await self.store.add_player(row, secrets.token_hex(32))
            self._known.add(player_id)

    async def record(
        self,
        *,
        game: str,
        options: Mapping[str, Any],
        seed: bytes,
        bots: Sequence[str],
        events: Sequence[Event],
        causes: Sequence[int | None],
        history: Sequence[Record],
        outcome: Outcome,
        settings: Mapping[str, Any],
        key: str | None = None,
        by: Sequence[str] | None = None,
    ) -> str:
        """Write one finished game (``bots[i]`` played seat ``i``; ``by[i]`` decided
        action ``i + 1``, by default each seat's own bot, ``player``); return its id.

        With a ``key`` (:func:`scheduled_key`) the id is derived from it and the write is
        idempotent: a game already finished under that id is left as it is, so a run
        repeated or resumed with the same seed (or a game a lost worker played twice)
        is logged once."""
        row_id = game_id(key)
        if key is not None:
            existing = await self.store.game(row_id)
            if existing is not None and existing.status == "finished":
                return row_id
            if existing is not None:
                # A driver killed while it wrote this game left it unfinished (its start
                # and some steps): nothing refers to it, so it is written again whole.
                await self.store.discard_unfinished_game(row_id)
        await self.ensure_players(bots)
        now = time.time()
        seats: list[str | None] = [bot_player_id(name) for name in bots]
        row = GameRow(
            id=row_id,
            game=game,
            options=dict(options),
            settings=dict(settings),
            host=None,
            invite=None,
            public=False,
            seats=seats,
            status="finished",
            seed=seed,
            seed_sha256=seed_commitment(seed),
            created=now,
            started=now,
        )
        per_seat = stats.compute(game, events, outcome, len(seats))
        entries = journal.finished_game(
            row,
            events,
            causes,
            history,
            outcome,
            journal.seat_stats(seats, per_seat),
            self.signer,
            by,
        )
        await journal.record_finished(self.store, entries)
        return row.id
