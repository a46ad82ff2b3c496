"""The journal: the one writer of games, events, actions, chat and statistics.

Pure builders turn what happened in a room into the entries the store keeps (DESIGN.md,
idea 3: the log is the truth), and :func:`commit` writes one entry through any
:class:`~server.store.contract.Store`. Rooms (their core) and self-play both go through
here, and nothing else makes a row of the log, so a game logged by either reads back,
exports and verifies the same way.

A room's life is five kinds of entry, each made by its builder (the entries hold their own
copy of the row: the room goes on changing its own):

- :class:`Save` (:func:`saved`): the row of a room that changed before its game (made, a
  seat taken or given up, a house bot added);
- :class:`Start` (:func:`started`): the row as the game starts (its seed, marked
  ``playing``) with the opening events;
- :class:`Step` (:func:`step`): one accepted action record and the events it caused;
- :class:`Said` (:func:`said`): a chat line;
- :class:`Finish` (:func:`finished`, :func:`aborted`): the final row (result or abort
  reason, revealed seed), any last events (an abort's own event), the public
  statistics to add and, for a rated game, its :class:`~server.store.contract.RatingPlan`
  (:func:`rated`), written atomically by :meth:`Store.finish_game`, which rates the game
  in the same transaction (once: a finish written again rates nothing again).

:func:`commit` returns what the store returned: a rated game's rating changes (the room
shows them), nothing for any other entry.

:func:`event_rows` is the one place events become rows.

The log is a hash chain (``server.store.chain``; issue 32): each builder of a log row
takes the chain's head as the room (or self-play) has it, stamps the rows it makes with
their positions and links, and keeps the head after them in the entry (``head``), which
the caller keeps for the next. The end (:func:`finished`, :func:`aborted`) puts the
final hash in the row and, given a :class:`~server.store.signing.Signer`, its signature.
A head of ``None`` is an unchained game (logged before the chain): its rows are not
stamped.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from server.games.base import Event, Outcome, Record, seed_commitment
from server.store import chain
from server.store.chain import Head
from server.store.contract import (
    DECIDERS,
    ActionRow,
    ChatRow,
    EventRow,
    GameRow,
    RatingChange,
    RatingPlan,
    Store,
)

if TYPE_CHECKING:
    from server.store.signing import Signer


@dataclass(frozen=True, slots=True)
class Save:
    """A room's row changed before its game started: store ``row`` as it is now."""

    row: GameRow


@dataclass(frozen=True, slots=True)
class Start:
    """The game has started: store ``row`` (status ``playing``) and the opening events."""

    row: GameRow
    events: tuple[EventRow, ...] = ()
    #: the chain's head after the opening events (None: unchained)
    head: Head | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """An accepted action of game ``game_id`` and the events it caused."""

    game_id: str
    events: tuple[EventRow, ...]
    action: ActionRow
    #: the chain's head after them (None: unchained)
    head: Head | None = None


@dataclass(frozen=True, slots=True)
class Finish:
    """The game has ended (finished, or aborted): the final row, the last events,
    statistics to add (player id -> key -> amount) under ``row.game`` and, for a rated
    game, how to rate it (``server.ratings.plan.plan_for(row)``)."""

    row: GameRow
    events: tuple[EventRow, ...] = ()
    stats: Mapping[str, Mapping[str, float]] = dataclasses.field(default_factory=dict)
    plan: RatingPlan | None = None
    #: the chain's last head: the end's (None: unchained)
    head: Head | None = None


@dataclass(frozen=True, slots=True)
class Said:
    """A chat line of room ``game_id``."""

    game_id: str
    line: ChatRow
    #: the chain's head after it (None: unchained)
    head: Head | None = None


Entry: TypeAlias = Save | Start | Step | Finish | Said


def event_rows(
    events: Sequence[Event], first_seq: int, cause: int | None = None, source: str = "game"
) -> tuple[EventRow, ...]:
    """The logged form of ``events``: numbered from ``first_seq`` in the game's log, each
    caused by action ``cause`` (None: the opening events, or the room's own), ``source``
    ``game`` (the engine's) or ``room`` (the server's own, an abort)."""
    return tuple(
        EventRow(seq, source, event.truth, cause) for seq, event in enumerate(events, first_seq)
    )


def snapshot(row: GameRow, **changes: Any) -> GameRow:
    """A copy of ``row`` with ``changes``, sharing no list or dict with it (a room goes
    on changing its own row while the store writes the copy)."""
    fields: dict[str, Any] = {
        "seats": list(row.seats),
        "options": dict(row.options),
        "house": dict(row.house),
        **changes,
    }
    return dataclasses.replace(row, **fields)


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


def saved(row: GameRow) -> Save:
    """The entry of a room's row as it is now (before its game starts)."""
    return Save(snapshot(row))


def started(
    row: GameRow, seed: bytes, at: float, events: Sequence[Event] = (), head: Head | None = None
) -> Start:
    """The entry of a game's start at ``at``: a copy of ``row`` marked ``playing`` with
    ``seed`` (secret until the end; its commitment public), and the opening ``events``
    (chained after ``head``)."""
    opening = snapshot(
        row,
        status="playing",
        seed=seed,
        seed_sha256=seed_commitment(seed),
        seed_revealed=False,
        started=at,
        result=None,
        reason=None,
        finished=None,
    )
    stamped, head = chain.stamp_events(head, event_rows(events, 1))
    return Start(opening, stamped, head)


def step(
    game_id: str,
    n: int,
    record: Record,
    at: float,
    events: Sequence[Event],
    first_seq: int,
    clocks: list[float] | None = None,
    by: str = "player",
    head: Head | None = None,
) -> Step:
    """The entry of the ``n``-th accepted action (from 1), decided ``by`` (one of
    ``DECIDERS``), and the ``events`` it caused, numbered from ``first_seq`` (``clocks``:
    each seat's clock after it, if timed); chained after ``head``, the action first."""
    if by not in DECIDERS:
        raise ValueError(f"an action is decided by one of {DECIDERS}, not {by!r}")
    action, head = chain.stamp_action(
        head, ActionRow(n, record.seat, record.action, at, clocks, by)
    )
    stamped, head = chain.stamp_events(head, event_rows(events, first_seq, n))
    return Step(game_id, stamped, action, head)


def said(
    game_id: str,
    n: int,
    at: float,
    channel: str,
    seat: int | None,
    player_id: str,
    name: str,
    text: str,
    head: Head | None = None,
) -> Said:
    """The entry of the ``n``-th chat line of room ``game_id`` (from 1), said at ``at`` by
    player ``player_id`` (shown as ``name``, in ``seat`` or watching) to ``channel``;
    chained after ``head``."""
    line, head = chain.stamp_chat(head, ChatRow(n, at, channel, seat, player_id, name, text))
    return Said(game_id, line, head)


def _end(row: GameRow, head: Head | None, signer: Signer | None) -> tuple[GameRow, Head | None]:
    """The end's row with its final hash (chained after ``head``) and its signature."""
    row, head = chain.stamp_end(head, row)
    if head is not None and signer is not None:
        signature = signer.sign(row.id, head.hash)
        row = dataclasses.replace(row, signature=signature, key_id=signer.key_id)
    return row, head


def finished(
    row: GameRow,
    outcome: Outcome,
    at: float,
    stats: Mapping[str, Mapping[str, float]],
    head: Head | None = None,
    signer: Signer | None = None,
) -> Finish:
    """The entry of a game's end: a copy of ``row`` marked finished with ``outcome``,
    its seed revealed; ``stats`` to add. Chained after ``head``, signed by ``signer``."""
    final = snapshot(
        row,
        status="finished",
        result=outcome.to_json(),
        reason=outcome.reason,
        seed_revealed=True,
        finished=at,
    )
    final, head = _end(final, head, signer)
    return Finish(final, (), stats, head=head)


def rated(end: Finish, plan: RatingPlan | None) -> Finish:
    """``end`` (from :func:`finished`) with the plan that rates its game (``None``: a
    casual game). The plan is made from ``end.row`` by the layer that knows the rating
    systems (``server.ratings.plan.plan_for``), above this one."""
    return dataclasses.replace(end, plan=plan)


def aborted(
    row: GameRow,
    reason: str,
    at: float,
    events: Sequence[Event] = (),
    first_seq: int = 1,
    head: Head | None = None,
    signer: Signer | None = None,
) -> Finish:
    """The entry of a game that cannot go on (an engine or server fault): a copy of
    ``row`` marked aborted for ``reason``, its seed revealed, with the room's own
    ``events`` (logged from ``first_seq``); no statistics count. Chained after ``head``
    (the events, then the end), signed by ``signer``."""
    final = snapshot(row, status="aborted", reason=reason, seed_revealed=True, finished=at)
    stamped, head = chain.stamp_events(head, event_rows(events, first_seq, source="room"))
    final, head = _end(final, head, signer)
    return Finish(final, stamped, {}, head=head)


def finished_game(
    row: GameRow,
    events: Sequence[Event],
    causes: Sequence[int | None],
    history: Sequence[Record],
    outcome: Outcome,
    stats: Mapping[str, Mapping[str, float]],
    signer: Signer | None = None,
    by: Sequence[str] | None = None,
) -> list[Entry]:
    """Every entry of a whole game played elsewhere (self-play): its start, each action
    with the events it caused, and its end, all stamped with ``row.started``, chained in
    that order (unless ``row.chained`` is false) and signed by ``signer``. ``by[i]``
    decided action ``i + 1`` (default: every one its seat's player).

    ``row`` is the game's row (id, game, options, seats, seed, ...); its status, result
    and finish time are set here. ``causes[i]`` is the 1-based action that caused
    ``events[i]`` (None for the opening events, which come first; each action's events
    follow each other), as :class:`bots.sdk.local.LocalGame` keeps it.
    """
    at = row.started if row.started is not None else row.created
    if len(causes) != len(events):
        raise ValueError(f"{len(causes)} causes for {len(events)} events")
    unknown = sorted({n for n in causes if n is not None and not 1 <= n <= len(history)})
    if unknown:
        raise ValueError(f"events caused by actions {unknown} that are not in the history")
    caused: dict[int | None, list[Event]] = {}
    first: dict[int | None, int] = {}
    for seq, (event, cause) in enumerate(zip(events, causes, strict=True), 1):
        group = caused.setdefault(cause, [])
        first.setdefault(cause, seq)
        if first[cause] + len(group) != seq:
            raise ValueError(f"the events caused by action {cause} do not follow each other")
        group.append(event)
    opening = caused.get(None, [])
    if opening and first[None] != 1:
        raise ValueError("the opening events do not come first")
    deciders = list(by) if by is not None else ["player"] * len(history)
    if len(deciders) != len(history):
        raise ValueError(f"{len(deciders)} deciders for {len(history)} actions")
    start = started(row, row.seed, at, opening, chain.start(row.id) if row.chained else None)
    entries: list[Entry] = [start]
    head = start.head
    for n, record in enumerate(history, 1):
        entry = step(
            row.id, n, record, at, caused.get(n, []), first.get(n, 0), None, deciders[n - 1], head
        )
        head = entry.head
        entries.append(entry)
    entries.append(finished(row, outcome, at, stats, head, signer))
    return entries


async def commit(store: Store, entry: Entry) -> list[RatingChange]:
    """Write one entry; return once it is durable. A rated game's :class:`Finish`
    returns its rating changes (those stored before, if the finish was written already:
    a game is rated once); every other entry returns ``[]``."""
    if isinstance(entry, Step):  # (most entries)
        await store.append(entry.game_id, entry.events, entry.action)
    elif isinstance(entry, Save):
        await store.save_game(entry.row)
    elif isinstance(entry, Start):
        await store.save_game(entry.row, entry.events)
    elif isinstance(entry, Said):
        await store.add_chat(entry.game_id, entry.line)
    else:
        return await store.finish_game(entry.row, entry.events, entry.stats, entry.plan)
    return []


async def stored(store: Store, entry: Entry) -> bool:
    """Whether ``entry`` is in the store already: a write reported failed may still have
    been committed (an I/O error after the commit reached the disk), and writing it again
    would then fail for ever on its own rows. Read only (reads work on a full disk)."""
    if isinstance(entry, Step):
        return any(a.n == entry.action.n for a in await store.actions(entry.game_id))
    if isinstance(entry, Said):
        return any(line.n == entry.line.n for line in await store.chat(entry.game_id))
    row = await store.game(entry.row.id)
    if isinstance(entry, Finish):
        return row is not None and row.status == entry.row.status
    if isinstance(entry, Start):
        return row is not None and row.status != "waiting" and row.seed == entry.row.seed
    return False  # (a Save is written again as it is: no row of its own can clash)


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
