"""The journal: the one writer of games, events, actions and statistics.

Rooms and self-play record games through these entries, so every game in the knowledge
base has the same shape whoever played it. Each entry is plain data (a room core returns
it inside a :class:`~server.roomcore.messages.Persist` effect); :func:`commit` writes one
to a :class:`~server.store.Store` and returns once it is durable.

- :class:`SaveGame`: the game's row (created, seated, started), with its opening events;
- :class:`Append`: one accepted action record and the events it caused;
- :class:`Finish`: the end of the game: the row's result, the last events and the
  players' public statistics, in one transaction.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from server.games.base import Event
from server.store import ActionRow, EventRow, GameRow, Store


@dataclass(frozen=True, slots=True)
class SaveGame:
    """Create or update the game's row, with events logged at the same time."""

    row: GameRow
    events: tuple[EventRow, ...] = ()


@dataclass(frozen=True, slots=True)
class Append:
    """One accepted action record (``None`` for events no action caused) and its events."""

    game_id: str
    events: tuple[EventRow, ...]
    action: ActionRow | None


@dataclass(frozen=True, slots=True)
class Finish:
    """The end of a game: its final row, its last events and the statistics to add."""

    row: GameRow
    events: tuple[EventRow, ...]
    stats: Mapping[str, Mapping[str, float]]


Entry = SaveGame | Append | Finish


def event_rows(
    first: int, events: Sequence[Event], source: str = "game", action_n: int | None = None
) -> tuple[EventRow, ...]:
    """The rows of ``events``, numbered from ``first`` in the game's log."""
    return tuple(
        EventRow(first + i, source, event.truth, action_n) for i, event in enumerate(events)
    )


def snapshot(row: GameRow) -> GameRow:
    """A copy of ``row`` to hand to the store (the room goes on changing its own)."""
    return dataclasses.replace(
        row, seats=list(row.seats), options=dict(row.options), house=dict(row.house)
    )


def totals(
    players: Sequence[str | None], per_seat: Sequence[Mapping[str, float]]
) -> dict[str, dict[str, float]]:
    """Per-seat statistics summed per player (a house bot may hold several seats)."""
    out: dict[str, dict[str, float]] = {}
    for player_id, values in zip(players, per_seat, strict=True):
        if player_id is None:
            continue
        mine = out.setdefault(player_id, {})
        for key, value in values.items():
            mine[key] = mine.get(key, 0) + value
    return out


async def commit(store: Store, entry: Entry) -> None:
    """Write ``entry``; return once it is durable."""
    if isinstance(entry, SaveGame):
        await store.save_game(entry.row, entry.events)
    elif isinstance(entry, Append):
        await store.append(entry.game_id, entry.events, entry.action)
    else:
        await store.finish_game(entry.row, entry.events, entry.stats)
