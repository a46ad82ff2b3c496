"""The journal: the one writer of games, events, actions and statistics.

Pure builders turn what happened in a game into the rows the store keeps (DESIGN.md,
idea 3: the log is the truth), and :func:`commit` writes one entry through any
:class:`~server.store.contract.Store`. Rooms and self-play both go through here, so a game logged
by either reads back, exports and verifies the same way.

A game's life is three kinds of entry:

- :class:`Start`: the room's row as the game starts, with the opening events;
- :class:`Step`: one accepted action record and the events it caused;
- :class:`Finish`: the final row (result, revealed seed), any last events, and the
  public statistics to add, written atomically by :meth:`Store.finish_game` (an aborted
  game ends the same way, without statistics).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from server.games.base import Event, Outcome, Record
from server.store.contract import ActionRow, ChatRow, EventRow, GameRow, Store


@dataclass(frozen=True, slots=True)
class Start:
    """The game has started: store ``row`` (status ``playing``) and the opening events."""

    row: GameRow
    events: tuple[EventRow, ...] = ()


@dataclass(frozen=True, slots=True)
class Step:
    """An accepted action (or only events, when ``action`` is None) of game ``game_id``."""

    game_id: str
    events: tuple[EventRow, ...]
    action: ActionRow | None = None


@dataclass(frozen=True, slots=True)
class Finish:
    """The game has ended: the final row, the last events, and statistics to add
    (player id -> key -> amount) under ``row.game``."""

    row: GameRow
    events: tuple[EventRow, ...] = ()
    stats: Mapping[str, Mapping[str, float]] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Said:
    """A chat line of room ``game_id``."""

    game_id: str
    line: ChatRow


Entry: TypeAlias = Start | Step | Finish | Said


def event_rows(
    events: Sequence[Event], causes: Sequence[int | None], first_seq: int = 1
) -> list[EventRow]:
    """The logged form of game events: numbered from ``first_seq``, each with the
    number of the action that caused it (None for the opening events)."""
    return [
        EventRow(seq, "game", event.truth, cause)
        for seq, (event, cause) in enumerate(zip(events, causes, strict=True), first_seq)
    ]


def seat_stats(
    seats: Sequence[str | None], per_seat: Sequence[Mapping[str, float]]
) -> dict[str, dict[str, float]]:
    """Per-seat statistics summed per player (a bot may hold several seats; empty seats
    count for nobody)."""
    totals: dict[str, dict[str, float]] = {}
    for player_id, values in zip(seats, per_seat, strict=True):
        if player_id is None:
            continue
        bucket = totals.setdefault(player_id, {})
        for key, value in values.items():
            bucket[key] = bucket.get(key, 0) + value
    return totals


def started(row: GameRow, events: Sequence[EventRow] = ()) -> Start:
    """The entry of a game's start."""
    return Start(row, tuple(events))


def step(
    game_id: str,
    n: int,
    record: Record,
    at: float,
    events: Sequence[EventRow],
    clocks: list[float] | None = None,
) -> Step:
    """The entry of the ``n``-th accepted action (from 1) and the events it caused."""
    return Step(game_id, tuple(events), ActionRow(n, record.seat, record.action, at, clocks))


def finished(
    row: GameRow,
    outcome: Outcome,
    at: float,
    stats: Mapping[str, Mapping[str, float]],
    events: Sequence[EventRow] = (),
) -> Finish:
    """The entry of a game's end: a copy of ``row`` marked finished with ``outcome``,
    its seed revealed."""
    final = dataclasses.replace(
        row,
        status="finished",
        result=outcome.to_json(),
        reason=outcome.reason,
        seed_revealed=True,
        finished=at,
    )
    return Finish(final, tuple(events), stats)


def aborted(row: GameRow, reason: str, at: float, events: Sequence[EventRow] = ()) -> Finish:
    """The entry of a game that cannot go on (an engine or server fault): a copy of
    ``row`` marked aborted for ``reason``, its seed revealed; no statistics count."""
    final = dataclasses.replace(
        row, status="aborted", reason=reason, seed_revealed=True, finished=at
    )
    return Finish(final, tuple(events), {})


def finished_game(
    row: GameRow,
    events: Sequence[Event],
    causes: Sequence[int | None],
    history: Sequence[Record],
    outcome: Outcome,
    stats: Mapping[str, Mapping[str, float]],
) -> list[Entry]:
    """Every entry of a whole game played elsewhere (self-play): its start, each action
    with the events it caused, and its end, all stamped with ``row.started``.

    ``row`` is the game's row (id, game, options, seats, seed, ...); its status, result
    and finish time are set here. ``causes[i]`` is the 1-based action that caused
    ``events[i]`` (None for the opening events), as :class:`bots.sdk.local.LocalGame` keeps it.
    """
    at = row.started if row.started is not None else row.created
    opening = dataclasses.replace(
        row, status="playing", result=None, reason=None, seed_revealed=False, finished=None
    )
    logged = event_rows(events, causes)
    caused: dict[int | None, list[EventRow]] = {}
    for event in logged:
        caused.setdefault(event.action_n, []).append(event)
    unknown = [n for n in caused if n is not None and not 1 <= n <= len(history)]
    if unknown:
        raise ValueError(f"events caused by actions {unknown} that are not in the history")
    entries: list[Entry] = [started(opening, caused.get(None, []))]
    entries.extend(
        step(row.id, n, record, at, caused.get(n, [])) for n, record in enumerate(history, 1)
    )
    entries.append(finished(row, outcome, at, stats))
    return entries


async def commit(store: Store, entry: Entry) -> None:
    """Write one entry; return once it is durable."""
    if isinstance(entry, Start):
        await store.save_game(entry.row, entry.events)
    elif isinstance(entry, Step):
        await store.append(entry.game_id, entry.events, entry.action)
    elif isinstance(entry, Said):
        await store.add_chat(entry.game_id, entry.line)
    else:
        await store.finish_game(entry.row, entry.events, entry.stats)


async def record_finished(store: Store, entries: Sequence[Entry]) -> None:
    """Write a whole game's entries (from :func:`finished_game`) durably.

    They are queued together, in order, so they share the store's group commits; the
    finish goes last and is atomic, so a game is marked finished, with its seed revealed
    and its statistics counted, only when everything before it is written.
    """
    body = [entry for entry in entries if not isinstance(entry, Finish)]
    ends = [entry for entry in entries if isinstance(entry, Finish)]
    await asyncio.gather(*(commit(store, entry) for entry in body))
    for entry in ends:
        await commit(store, entry)
