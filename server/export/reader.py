"""Reading finished games back out of the knowledge base: export and fairness checks.

Only games whose seed has been revealed (finished or aborted) are ever read here: a game
in progress keeps its seed, and so its dice, secret. Every export is rebuilt by replaying
the logged actions with the revealed seed, and checked against the logged truths, so what
comes out is exactly what happened.

- :func:`export_jsonl`: one JSON object per game, with the truth and every viewer's
  projection of every event (the format of docs/data.md, for analysis and learning);
- :func:`export_records`: games in their engine's text record format (``pgn``: Kriegspiel
  games with every attempt and announcement); :func:`export_pgn` is its PGN case;
- :func:`verify_game`: recompute a game from its seed and log; list every discrepancy
  (the generic replay check here, the engine's own fairness checks from its ``verify``)
  and every break of its tamper-evident log (``server.store.chain``: the hash chain of
  its rows, the signature of its final hash).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from typing import Any, TextIO

from server.games import engine
from server.games.base import Event, Game, GameError, Record, seed_commitment
from server.store import chain, signing
from server.store.contract import (
    ActionRow,
    ChatRow,
    EventRow,
    GameRow,
    Rating,
    RatingChange,
    Store,
)

#: Statuses whose seed is public.
REVEALED = ("finished", "aborted")
FORMAT_VERSION = 1


@dataclass(slots=True)
class GameLog:
    """One stored game: its row, its action records, its logged events and its players."""

    row: GameRow
    actions: list[ActionRow]
    events: list[EventRow]
    players: list[dict[str, Any] | None]
    #: a rated game's rating changes by seat (empty: casual)
    ratings: list[RatingChange] = field(default_factory=list)
    #: its chat lines (part of its hash chain)
    chat: list[ChatRow] = field(default_factory=list)

    def rebuild(self) -> tuple[Game, list[Event]]:
        """Replay the logged actions with the seed; return the game and its events."""
        eng = engine(self.row.game)
        config = eng.stored_config(self.row.options)
        return eng.replay(config, self.row.seed, self.records())

    def records(self) -> list[Record]:
        """The logged action records, in order."""
        return [Record(a.seat, a.action) for a in self.actions]


async def logs(store: Store, game_ids: Iterable[str] | None = None) -> AsyncIterator[GameLog]:
    """The stored logs of revealed games: all of them, streamed oldest first, or those in
    ``game_ids`` in that order. One game's log is in memory at a time."""
    players: dict[str, dict[str, Any] | None] = {}

    async def player(player_id: str | None) -> dict[str, Any] | None:
        if player_id is None:
            return None
        if player_id not in players:
            if len(players) >= 10_000:  # keep memory bounded on a store with many guests
                players.clear()
            row = await store.player(player_id)
            players[player_id] = (
                None if row is None else {"id": row.id, "name": row.name, "bot": row.bot}
            )
        return players[player_id]

    async for row in _rows(store, game_ids):
        if row.status not in REVEALED or not row.seed_revealed:
            continue
        seated = [await player(player_id) for player_id in row.seats]
        rated = await store.rating_changes(row.id) if row.rated else []
        yield GameLog(
            row,
            await store.actions(row.id),
            await store.events(row.id),
            seated,
            rated,
            await store.chat(row.id),
        )


async def _rows(store: Store, game_ids: Iterable[str] | None) -> AsyncIterator[GameRow]:
    if game_ids is None:
        async for row in store.iter_games(REVEALED):
            yield row
        return
    for game_id in dict.fromkeys(game_ids):
        found = await store.game(game_id)
        if found is not None:
            yield found


def verify_chain(
    log: GameLog, keys: dict[str, str], stored: dict[str, str] | None = None
) -> tuple[list[str], int]:
    """Every break of a chained game's tamper-evident log: its rows' hash chain, and the
    signature of its final hash by one of the trusted ``keys`` (id -> public key: the key
    file's, ``--trusted-key``; the store's own ``signing_keys`` only when the caller chose
    to trust them, since whoever can write the database can add a key there, ``stored``
    being them, to say so); and how many chat lines come after its end (chained,
    unsigned). An unchained game has nothing to check here."""
    row = log.row
    if not row.chained:
        return [], 0
    problems, after = chain.check(row, log.actions, log.events, log.chat)
    if problems or row.final_hash is None:
        return problems, after
    if row.signature is None or row.key_id is None:
        return ["its final hash is not signed"], after
    public = keys.get(row.key_id)
    if public is None:
        listed = (
            " (the knowledge base lists it, but whoever can write the database can add a key there)"
            if stored is not None and row.key_id in stored
            else ""
        )
        return [f"it is signed by key {row.key_id}, which is not a trusted key{listed}"], after
    if not signing.verify(public, row.id, row.final_hash, row.signature):
        return [
            f"the signature of its final hash does not match (key {row.key_id}): the log or "
            "the game's row was changed after the server signed it"
        ], after
    return [], after


def verify_log(
    log: GameLog, keys: dict[str, str] | None = None, stored: dict[str, str] | None = None
) -> list[str]:
    """Every way the log disagrees with its seed and the rules, and (given the trusted
    signing ``keys``, :func:`verify_chain`) with its hash chain and signature (empty: all
    is well)."""
    row = log.row
    problems: list[str] = []
    if row.status not in REVEALED or not row.seed_revealed:
        return [f"game {row.id} is {row.status}: its seed is still secret"]
    if keys is not None:
        problems.extend(verify_chain(log, keys, stored)[0])
    if seed_commitment(row.seed) != row.seed_sha256:
        problems.append("the revealed seed does not match the commitment published at the start")
    try:
        game, events = log.rebuild()
    except GameError as exc:
        return [*problems, f"the logged actions do not replay: {exc}"]
    logged = [e.truth for e in log.events if e.source == "game"]
    replayed = [e.truth for e in events]
    for index, (mine, theirs) in enumerate(zip(replayed, logged, strict=False)):
        if mine != theirs:
            problems.append(
                f"event {index + 1} differs from the replay: logged {theirs}, replayed {mine}"
            )
            break
    if len(replayed) != len(logged):
        problems.append(f"{len(logged)} game events are logged, the replay gives {len(replayed)}")
    eng = engine(row.game)
    problems.extend(eng.verify(game.config, row.seed, log.records(), logged))
    if row.status == "finished":
        outcome = game.outcome
        if outcome is None:
            problems.append("the game is marked finished but the replay has not ended")
        elif row.result is not None and list(row.result.get("ranks", [])) != list(outcome.ranks):
            problems.append(
                f"the stored result {row.result} is not the replay's {outcome.to_json()}"
            )
    return problems


async def verify_game(
    store: Store, game_id: str, trusted: dict[str, str] | None = None
) -> list[str]:
    """Check one stored game (its replay, its chain and its signature by one of the
    ``trusted`` keys; default: the store's own ``signing_keys``, which whoever can write
    the store can add to: ``umpire verify`` trusts the key file); a game that is unknown
    or still secret is a problem too."""
    stored = await store.signing_keys()
    async for log in logs(store, [game_id]):
        return verify_log(log, stored if trusted is None else trusted, stored)
    row = await store.game(game_id)
    if row is not None and row.final_hash is not None:
        return [hidden_end(row)]
    return [f"no finished game {game_id!r} in this knowledge base"]


def hidden_end(row: GameRow) -> str:
    """What is wrong with a game that has an end in its chain (a final hash) but is
    stored as not over, or with its seed secret: its row was turned back."""
    seed = "revealed" if row.seed_revealed else "secret"
    return (
        f"it is stored as {row.status} with its seed {seed}, but its end is signed (final "
        f"hash {row.final_hash}): its row was changed after the game ended"
    )


def game_json(log: GameLog) -> dict[str, Any]:
    """One game as the JSONL export writes it (see docs/data.md).

    Fields are listed one by one: ``row.house`` (the house seats' login tickets) is a
    secret of the server and never leaves it."""
    _, events = log.rebuild()
    row = log.row
    seats = len(row.seats)
    stored_game_events = [e for e in log.events if e.source == "game"]
    if [e.truth for e in events] != [e.truth for e in stored_game_events]:
        raise GameError(f"game {row.id}: the log does not replay; run umpire verify")
    replayed = iter(events)
    out_events: list[dict[str, Any]] = []
    for stored in log.events:
        if stored.source == "game":
            event = next(replayed)
            views: list[Any] = [event.view(s) for s in range(seats)]
            spectator = event.view(None)
        else:  # room events (an abort, for instance) are public
            views = [stored.truth] * seats
            spectator = stored.truth
        out_events.append(
            {
                "seq": stored.seq,
                "action": stored.action_n,
                "truth": stored.truth,
                "seats": views,
                "spectator": spectator,
            }
        )
    return {
        "format": FORMAT_VERSION,
        "id": row.id,
        "game": row.game,
        "options": row.options,
        "settings": row.settings,
        "players": log.players,
        "status": row.status,
        "result": row.result,
        "reason": row.reason,
        "seed": row.seed.hex(),
        "seed_sha256": row.seed_sha256,
        "started": row.started,
        "finished": row.finished,
        "actions": [[a.seat, a.action] for a in log.actions],
        "by": [a.by for a in log.actions],
        "events": out_events,
        "rated": row.rated,
        "ratings": ratings_json(log.ratings) if log.ratings else None,
        "chained": row.chained,
        "final_hash": row.final_hash,
        "signature": row.signature,
        "key_id": row.key_id,
    }


def ratings_json(changes: list[RatingChange]) -> list[dict[str, Any]]:
    """A rated game's rating changes, one per seat, as the JSONL export writes them."""
    return [
        {
            "seat": c.seat,
            "player": c.key.player,
            "version": c.key.version,
            "rules": c.key.rules,
            "pool": c.pool,
            "before": _rating_json(c.before),
            "after": _rating_json(c.after),
        }
        for c in sorted(changes, key=lambda c: c.seat)
    ]


def _rating_json(rating: Rating) -> dict[str, Any]:
    return {
        "rating": rating.rating,
        "deviation": rating.deviation,
        "volatility": rating.volatility,
        "games": rating.games,
    }


async def export_jsonl(store: Store, out: TextIO, game_ids: Iterable[str] | None = None) -> int:
    """Write revealed games as JSON lines; return how many."""
    count = 0
    async for log in logs(store, game_ids):
        out.write(json.dumps(game_json(log), separators=(",", ":")))
        out.write("\n")
        count += 1
    return count


async def export_records(
    store: Store, out: TextIO, record_format: str, game_ids: Iterable[str] | None = None
) -> int:
    """Write revealed games whose engine writes ``record_format`` records (``"pgn"``), one
    record each, blank-line separated; return how many. Other games are skipped."""
    count = 0
    async for log in logs(store, game_ids):
        eng = engine(log.row.game)
        if eng.record_format != record_format:
            continue
        game, _ = log.rebuild()
        names = [str(p["name"]) if p else None for p in log.players]
        text = eng.record_text(game, names, log.row.started)
        if text is None:
            continue
        out.write(text)
        out.write("\n\n")
        count += 1
    return count


async def export_pgn(store: Store, out: TextIO, game_ids: Iterable[str] | None = None) -> int:
    """Write revealed games as PGN (Kriegspiel: attempts and announcements as comments);
    return how many. Games without a PGN record are skipped."""
    return await export_records(store, out, "pgn", game_ids)
