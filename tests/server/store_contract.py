"""The store contract: what every :class:`server.store.contract.Store` must do, as tests.

An implementation passes it by subclassing :class:`StoreContract` in a ``test_store_*.py``
file and providing a ``harness`` fixture that returns a :class:`StoreHarness` for a fresh,
empty database (see ``test_store_sqlite.py``; a PostgreSQL store provides one on a
throwaway cluster). The harness opens stores on that database (:meth:`StoreHarness.new`
is all an implementation writes) and offers two fault hooks, over the store's
``before_commit``:

- ``hold_commits``: hold every write transaction just before it commits (its statements
  have run) until released, to show that reads never see uncommitted rows and that a
  write does not return before its commit;
- ``fail_commits``: make every write transaction fail just before it commits (as a crash
  would), to show that nothing of it remains.

The guarantees themselves are listed in docs/data.md, "Store contract".
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import itertools
import json
import random
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import pytest

from server.errors import NameTaken, StoreError
from server.export.reader import export_jsonl, logs, verify_chain, verify_game, verify_log
from server.games import engine
from server.games.base import Event, Record, seed_commitment
from server.store import chain, journal
from server.store.contract import (
    NEW_GLICKO2,
    ActionRow,
    ChatRow,
    Credentials,
    EventRow,
    GameRow,
    PlayerRow,
    Rating,
    RatingChange,
    RatingKey,
    RatingPlan,
    RatingRow,
    SeekRow,
    SessionRow,
    Store,
    TournamentRow,
)
from server.store.signing import Signer


class CommitGate:
    """Given by :meth:`StoreHarness.hold_commits`: ``reached`` is set once a write
    transaction is waiting to commit; :meth:`release` lets it (and later ones) commit."""

    def __init__(self) -> None:
        self.reached = asyncio.Event()
        self.released = asyncio.Event()

    def release(self) -> None:
        """Let held and later transactions commit."""
        self.released.set()


class StoreHarness(ABC):
    """One test's database: the stores opened on it, and the fault hooks of the contract."""

    #: how many games the stores opened here fetch per page in ``iter_games``
    #: (keep it small, so the paging tests cross several pages)
    page_size: int = 4

    def __init__(self) -> None:
        self.opened: list[Store] = []

    @abstractmethod
    def new(self) -> Store:
        """A store (not yet open) on this test's database, paging by :attr:`page_size`."""

    async def open(self) -> Store:
        """A newly opened store on this test's database. Every call opens another store
        (other connections) on the same database, as a second process would."""
        store = self.new()
        await store.open()
        self.opened.append(store)
        return store

    @asynccontextmanager
    async def hold_commits(self, store: Store) -> AsyncIterator[CommitGate]:
        """Inside the block, ``store`` holds each write transaction before its commit
        until the gate is released (released at the latest when the block ends)."""
        gate = CommitGate()

        async def hold() -> None:
            gate.reached.set()
            await gate.released.wait()

        store.before_commit = hold
        try:
            yield gate
        finally:
            gate.release()
            store.before_commit = None

    @contextmanager
    def fail_commits(self, store: Store) -> Iterator[None]:
        """Inside the block, every write transaction of ``store`` fails just before its
        commit, as if the process died there."""

        async def fail() -> None:
            raise RuntimeError("simulated crash just before COMMIT")

        store.before_commit = fail
        try:
            yield
        finally:
            store.before_commit = None

    @abstractmethod
    async def sql(self, statement: str, *params: Any) -> list[tuple[Any, ...]]:
        """Run one statement (``?`` placeholders) straight on the database, as someone
        who can edit it would (the tamper tests); return its rows."""

    async def close_all(self) -> None:
        """Close every store opened here (teardown)."""
        for store in self.opened:
            await store.close()


def game_row(
    game_id: str,
    *,
    created: float = 1.0,
    status: str = "playing",
    game: str = "perudo",
    seats: list[str | None] | None = None,
    **fields: Any,
) -> GameRow:
    """A plausible row; ``fields`` override the rest."""
    seed = f"seed of {game_id}".encode()
    row = GameRow(
        id=game_id,
        game=game,
        options={"seats": 2},
        settings={"source": "contract"},
        host=None,
        invite=None,
        public=True,
        seats=seats if seats is not None else ["p1", "p2"],
        status=status,
        seed=seed,
        seed_sha256=seed_commitment(seed),
        created=created,
        started=None if status == "waiting" else created,
    )
    return dataclasses.replace(row, **fields)


def event(seq: int, action_n: int | None = None, **truth: Any) -> EventRow:
    """A game event numbered ``seq`` with a small truth."""
    return EventRow(seq, "game", {"type": "test", "seq": seq, **truth}, action_n)


async def play_random_game(
    game_id: str,
    seed: bytes,
    game_name: str = "perudo",
    options: dict[str, Any] | None = None,
    choices: int | None = None,
) -> tuple[GameRow, list[Event], list[int | None], list[Record], Any]:
    """A real game played to the end by random legal moves (for export and verify),
    chosen by a generator seeded with ``choices`` (default: the game's seed)."""
    eng = engine(game_name)
    config = eng.make_config(options or {"seats": 2})
    game, events = eng.new_game(config, seed)
    causes: list[int | None] = [None] * len(events)
    rng = random.Random(seed if choices is None else choices)
    while game.outcome is None:
        seat = game.to_move
        assert seat is not None
        new = game.apply(seat, rng.choice(game.legal_actions(seat)))
        events.extend(new)
        causes.extend([len(game.history)] * len(new))
    row = GameRow(
        id=game_id,
        game=game_name,
        options=config.to_options(),
        settings={"source": "contract"},
        host=None,
        invite=None,
        public=False,
        seats=["p1", "p2"],
        status="playing",
        seed=seed,
        seed_sha256=seed_commitment(seed),
        created=5.0,
        started=5.0,
    )
    return row, events, causes, list(game.history), game.outcome


def _split(
    events: list[Event], causes: list[int | None]
) -> tuple[list[Event], dict[int, list[Event]], dict[int, int]]:
    """A game's opening events, each action's events and the seq of its first."""
    opening = [e for e, c in zip(events, causes, strict=True) if c is None]
    caused: dict[int, list[Event]] = {}
    first: dict[int, int] = {}
    for seq, (e, c) in enumerate(zip(events, causes, strict=True), 1):
        if c is not None:
            caused.setdefault(c, []).append(e)
            first.setdefault(c, seq)
    return opening, caused, first


def chained_entries(
    row: GameRow,
    events: list[Event],
    causes: list[int | None],
    history: list[Record],
    outcome: Any,
    signer: Signer | None,
    chat: bool = True,
) -> list[journal.Entry]:
    """A whole game's entries as a room logs them, its chain in the room's order: a chat
    line before the start, the opening events, each action (one stand-in's, a chat line
    after the first), the end."""
    head: chain.Head | None = chain.start(row.id)
    entries: list[journal.Entry] = []
    if chat:
        said = journal.said(row.id, 1, 5.0, "players", 0, "p1", "Ana", "good luck", head)
        entries.append(said)
        head = said.head
    opening, caused, first = _split(events, causes)
    start = journal.started(row, row.seed, 5.0, opening, head)
    entries.append(start)
    head = start.head
    for n, record in enumerate(history, 1):
        by = "standin" if n == 2 else "player"
        step = journal.step(
            row.id, n, record, 5.0 + n, caused.get(n, []), first.get(n, 0), None, by, head
        )
        entries.append(step)
        head = step.head
        if chat and n == 1:
            said = journal.said(row.id, 2, 6.5, "spectators", None, "p3", "Cy", "nice", head)
            entries.append(said)
            head = said.head
    entries.append(journal.finished(row, outcome, 99.0, {}, head, signer))
    return entries


async def record_chained(store: Store, game_id: str, seed: bytes, signer: Signer) -> GameRow:
    """Play a random game and log it, chained and signed, as a room does."""
    row, events, causes, history, outcome = await play_random_game(game_id, seed)
    entries = chained_entries(row, events, causes, history, outcome, signer)
    for entry in entries:
        await journal.commit(store, entry)
    end = entries[-1]
    assert isinstance(end, journal.Finish)
    return end.row


async def forge_game(store: Store, harness: StoreHarness, game_id: str, seed: bytes) -> GameRow:
    """Rewrite a logged game as another legal game from its seed, every row and its chain
    recomputed consistently, the stored signature kept: what someone who can edit the
    database but has no key can do at best."""
    stored = await store.game(game_id)
    assert stored is not None
    row, events, causes, history, outcome = await play_random_game(game_id, seed, choices=7)
    row.created = stored.created
    entries = chained_entries(row, events, causes, history, outcome, None)
    for table in ("actions", "events", "chat"):
        await harness.sql(f"DELETE FROM {table} WHERE game_id = ?", game_id)
    end = entries[-1]
    assert isinstance(end, journal.Finish)
    for entry in entries[:-1]:
        await journal.commit(store, entry)
    forged = dataclasses.replace(end.row, signature=stored.signature, key_id=stored.key_id)
    await store.save_game(forged)
    return forged


class CountingPlan:
    """A toy rating system for the contract: the winner (rank 1) gains 10 points, every
    other seat loses 10; each game takes 1 off the deviation. It counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def plan(
        self,
        players: list[str],
        ranks: list[int],
        *,
        game: str = "kriegspiel",
        rules: str = "wild16",
        pool: str = "human",
        versions: list[str] | None = None,
    ) -> RatingPlan:
        keys = [
            RatingKey(p, versions[i] if versions else "", game, rules)
            for i, p in enumerate(players)
        ]

        def rate(current: Any) -> list[Rating]:
            self.calls += 1
            out = []
            for rank, rating in zip(ranks, current, strict=True):
                r = rating or NEW_GLICKO2
                step = 10.0 if rank == 1 else -10.0
                out.append(Rating(r.rating + step, r.deviation - 1, r.volatility, r.games + 1))
            return out

        return RatingPlan(tuple((key, pool) for key in keys), rate)


def finished(game_id: str, players: list[str], *, at: float = 10.0, **fields: Any) -> GameRow:
    """A finished game row of ``players`` (ranks in order), rated."""
    ranks = list(range(1, len(players) + 1))
    return game_row(
        game_id,
        created=at - 1,
        game=fields.pop("game", "kriegspiel"),
        seats=list(players),
        status="finished",
        result={"ranks": ranks},
        seed_revealed=True,
        finished=at,
        rated={"system": "test", "rules": "wild16"},
        **fields,
    )


class StoreContract:
    """The tests. Subclass it and define a ``harness`` fixture returning a StoreHarness."""

    @pytest.fixture
    async def store(self, harness: StoreHarness) -> AsyncIterator[Store]:
        """An opened store on the test's empty database; every store closed at the end."""
        try:
            yield await harness.open()
        finally:
            await harness.close_all()

    # -- players ---------------------------------------------------------------------------

    async def test_players_round_trip_and_tokens_identify_them(self, store: Store) -> None:
        alice = PlayerRow("p1", "Alice ñ", False, 12.5)
        bot = PlayerRow("bot-x", "x", True, 13.0, kind="house")
        await store.add_player(alice, "hash-a")
        await store.add_player(bot, "hash-b")
        assert await store.player("p1") == alice
        assert await store.player("bot-x") == bot
        assert await store.player("nobody") is None
        assert await store.player_by_token("hash-a") == alice
        assert await store.player_by_token("hash-zzz") is None
        await store.rename_player("p1", "Alicia")
        assert await store.player("p1") == dataclasses.replace(alice, name="Alicia")
        await store.set_token("p1", "hash-new")
        assert await store.player_by_token("hash-a") is None
        renamed = await store.player_by_token("hash-new")
        assert renamed is not None and renamed.name == "Alicia"

    async def test_a_taken_id_or_token_is_refused_and_the_store_goes_on(self, store: Store) -> None:
        await store.add_player(PlayerRow("p1", "A", False, 1.0), "hash-a")
        with pytest.raises(StoreError):
            await store.add_player(PlayerRow("p1", "B", False, 2.0), "hash-b")
        with pytest.raises(StoreError):
            await store.add_player(PlayerRow("p2", "C", False, 3.0), "hash-a")
        await store.add_player(PlayerRow("p2", "C", False, 3.0), "hash-c")
        assert await store.player_by_token("hash-b") is None
        found = await store.player("p1")
        assert found is not None and found.name == "A"
        assert await store.player("p2") is not None

    # -- games, events, actions ------------------------------------------------------------

    async def test_a_game_row_round_trips_and_is_replaced_by_a_later_save(
        self, store: Store
    ) -> None:
        row = game_row(
            "g1",
            seed=bytes(range(256)),
            options={"seats": 2, "preset": "classic", "nested": {"a": [1, 2.5, None]}},
            house={"1": "ticket-1"},
            host="p1",
            invite="inv",
            public=False,
        )
        await store.save_game(row)
        assert await store.game("g1") == row
        assert await store.game("g2") is None
        later = dataclasses.replace(row, status="finished", result={"ranks": [2, 1]}, reason="x")
        later = dataclasses.replace(later, seed_revealed=True, finished=9.0, house={})
        await store.save_game(later)
        assert await store.game("g1") == later
        assert await store.game_by_invite("inv") == "g1"  # ended games keep their invite
        assert await store.game_by_invite("other") is None

    async def test_chat_lines_round_trip_in_order_per_room(self, store: Store) -> None:
        await store.save_game(game_row("g1"))
        await store.save_game(game_row("g2"))
        lines = [
            ChatRow(1, 1.5, "players", 0, "p1", "Ana", "<b>hi</b> & bye"),
            ChatRow(2, 2.5, "spectators", None, "p3", "Cy", "ciao\nà tutti"),
        ]
        for line in reversed(lines):
            await store.add_chat("g1", line)
        await store.add_chat("g2", ChatRow(1, 3.0, "players", 1, "p2", "Bo", "other room"))
        assert await store.chat("g1") == lines
        assert [c.text for c in await store.chat("g2")] == ["other room"]
        assert await store.chat("nope") == []

    async def test_events_and_actions_round_trip_in_order(self, store: Store) -> None:
        row = game_row("g1")
        opening = [event(1, note="é \u2603"), event(2)]
        await store.save_game(row, opening)
        await store.append("g1", [event(3, 1, dice=[[1, 2], [6]])], ActionRow(1, 0, "2x3", 1.5))
        await store.append("g1", [], ActionRow(2, 1, "dudo", 2.5, [30.0, 29.5]))
        room = EventRow(5, "room", {"type": "paused"}, None)
        await store.append("g1", [room])
        await store.append("g1", [event(4, 3)], ActionRow(3, 0, "forfeit:abandoned", 3.5))
        assert await store.events("g1") == [
            *opening,
            event(3, 1, dice=[[1, 2], [6]]),
            event(4, 3),
            room,
        ]
        assert await store.actions("g1") == [
            ActionRow(1, 0, "2x3", 1.5),
            ActionRow(2, 1, "dudo", 2.5, [30.0, 29.5]),
            ActionRow(3, 0, "forfeit:abandoned", 3.5),
        ]
        assert await store.events("other") == [] and await store.actions("other") == []

    async def test_the_chain_and_who_decided_round_trip(self, store: Store) -> None:
        """Issue 32: each log row's place in the game's chain and its link, who decided
        each action, and the game's signed end come back as written."""
        row = game_row("g1")
        opening = [dataclasses.replace(event(1), pos=1, hash="a1")]
        await store.save_game(row, opening)
        await store.add_chat("g1", ChatRow(1, 1.2, "players", 0, "p1", "Ana", "hi", 2, "c2"))
        steps = [
            ActionRow(1, 0, "2x3", 1.5, None, "player", 3, "b3"),
            ActionRow(2, 1, "dudo", 2.5, [1.0, 2.0], "standin", 5, "b5"),
            ActionRow(3, 0, "forfeit:time", 3.5, None, "timeout", 6, "b6"),
            ActionRow(4, 1, "3x3", 4.5, None, "house", 7, "b7"),
        ]
        caused = dataclasses.replace(event(2, 1), pos=4, hash="a4")
        await store.append("g1", [caused], steps[0])
        for action in steps[1:]:
            await store.append("g1", [], action)
        assert await store.actions("g1") == steps
        assert await store.events("g1") == [*opening, caused]
        assert (await store.chat("g1"))[0].pos == 2 and (await store.chat("g1"))[0].hash == "c2"
        end = dataclasses.replace(
            row, status="finished", final_hash="f8", signature="5e", key_id="k1", chained=True
        )
        await store.finish_game(end, [], {})
        assert await store.game("g1") == end
        old = dataclasses.replace(game_row("g2"), chained=False)
        await store.save_game(old)
        assert (await store.game("g2")) == old

    async def test_signing_keys_are_kept_once_each(self, store: Store) -> None:
        assert await store.signing_keys() == {}
        await store.add_signing_key("k1", "aa" * 32, 1.0)
        await store.add_signing_key("k2", "bb" * 32, 2.0)
        await store.add_signing_key("k1", "cc" * 32, 3.0)  # (every node adds it: kept once)
        assert await store.signing_keys() == {"k1": "aa" * 32, "k2": "bb" * 32}

    async def test_a_logged_seq_or_action_is_refused_whole_and_others_still_commit(
        self, store: Store
    ) -> None:
        await store.save_game(game_row("g1"), [event(1)])
        await store.save_game(game_row("g2"), [event(1)])
        await store.append("g1", [event(2, 1)], ActionRow(1, 0, "a", 1.0))
        # Queued together: the faulty writes fail alone, leaving nothing of themselves.
        results = await asyncio.gather(
            store.append("g1", [event(3, 2)], ActionRow(2, 1, "b", 2.0)),
            store.append("g1", [event(2, 2)], ActionRow(3, 1, "c", 3.0)),  # seq 2 is taken
            store.append("g1", [event(9, 1)], ActionRow(1, 1, "d", 4.0)),  # action 1 is taken
            store.append("g2", [event(2, 1)], ActionRow(1, 0, "e", 5.0)),
            return_exceptions=True,
        )
        assert results[0] is None and results[3] is None
        assert isinstance(results[1], StoreError) and isinstance(results[2], StoreError)
        assert [e.seq for e in await store.events("g1")] == [1, 2, 3]
        assert [(a.n, a.action) for a in await store.actions("g1")] == [(1, "a"), (2, "b")]
        assert [a.action for a in await store.actions("g2")] == ["e"]

    # -- iterating over games --------------------------------------------------------------

    async def test_an_unfinished_game_is_discarded_whole_a_finished_one_never(
        self, store: Store
    ) -> None:
        """Issue 34: a self-play driver killed half-way through writing a game leaves it
        ``playing``; the next run discards it (its row, seats, actions, events and chat)
        and writes it again under the same id. A finished or aborted game is kept."""
        await store.save_game(game_row("half"), [event(1)])
        await store.append("half", [event(2, 1)], ActionRow(1, 0, "2x3", 1.5))
        await store.add_chat("half", ChatRow(1, 1.6, "players", 0, "p1", "Ana", "hi"))
        await store.save_game(game_row("other"), [event(1)])
        await store.append("other", [event(2, 1)], ActionRow(1, 0, "2x3", 1.5))
        await store.save_game(finished("done", ["p1", "p2"]), [event(1)])
        await store.save_game(game_row("gone", status="aborted"), [event(1)])
        assert await store.discard_unfinished_game("half") is True
        assert await store.game("half") is None
        assert await store.events("half") == [] and await store.actions("half") == []
        assert await store.chat("half") == []
        assert "half" not in [h["room"] for h in await store.history("p1")]  # (its seats)
        assert await store.discard_unfinished_game("half") is False  # (nothing left)
        assert await store.discard_unfinished_game("done") is False
        assert await store.discard_unfinished_game("gone") is False
        assert await store.discard_unfinished_game("nope") is False
        assert [e.seq for e in await store.events("done")] == [1]
        assert [e.seq for e in await store.events("gone")] == [1]
        assert [a.n for a in await store.actions("other")] == [1]
        # the same id is written again from its start, as a first time
        await store.save_game(game_row("half"), [event(1)])
        await store.append("half", [event(2, 1)], ActionRow(1, 0, "3x3", 1.7))
        assert [a.action for a in await store.actions("half")] == ["3x3"]

    async def test_iter_games_filters_by_status_and_game_in_created_order(
        self, store: Store
    ) -> None:
        rows = [
            game_row("c", created=3.0, status="finished"),
            game_row("a", created=1.0, status="waiting"),
            game_row("b2", created=2.0, status="playing", game="kriegspiel"),
            game_row("b1", created=2.0, status="finished", game="kriegspiel"),
            game_row("d", created=4.0, status="aborted"),
        ]
        for row in rows:
            await store.save_game(row)

        async def ids(*args: Any, **kwargs: Any) -> list[str]:
            return [row.id async for row in store.iter_games(*args, **kwargs)]

        assert await ids() == ["a", "b1", "b2", "c", "d"]  # ties broken by id
        assert await ids(["finished", "aborted"]) == ["b1", "c", "d"]
        assert await ids(iter(["finished"])) == ["b1", "c"]
        assert await ids(game="kriegspiel") == ["b1", "b2"]
        assert await ids(["playing"], game="kriegspiel") == ["b2"]
        assert await ids(["finished"], game="goofspiel") == []
        assert await ids([]) == []
        assert [row.id for row in await store.games(["waiting", "playing"])] == ["a", "b2"]
        assert [row async for row in store.iter_games(["aborted"])] == [rows[4]]
        assert await ids(created_after=3.0) == ["c", "d"]
        assert await ids(["waiting", "playing"], created_after=2.0) == ["b2"]

    async def test_iter_games_pages_through_more_rows_than_a_page(
        self, store: Store, harness: StoreHarness
    ) -> None:
        count = 3 * harness.page_size + 2
        created = [float(i // 3) for i in range(count)]  # ties across page boundaries
        order = list(range(count))
        random.Random(7).shuffle(order)
        for i in order:
            status = "finished" if i % 2 else "aborted"
            await store.save_game(game_row(f"g{i:03}", created=created[i], status=status))
        seen = []
        async for row in store.iter_games(["finished", "aborted"]):
            seen.append(row.id)
            if len(seen) == harness.page_size:
                # Writes go on while a reader is part way through: a later game appears
                # once at the end; an earlier page is not read again.
                late = game_row("late", created=float(count), status="finished")
                await store.save_game(late)
                await store.finish_game(
                    dataclasses.replace(game_row("g000", created=0.0), status="aborted"), [], {}
                )
        assert seen == [f"g{i:03}" for i in range(count)] + ["late"]
        odd = [row.id async for row in store.iter_games(["finished"])]
        assert odd == [f"g{i:03}" for i in range(1, count, 2)] + ["late"]

    # -- finishing a game ------------------------------------------------------------------

    async def test_finish_game_stores_row_events_and_stats_together(self, store: Store) -> None:
        row = game_row("g1", house={"0": "t0"})
        await store.save_game(row, [event(1)])
        await store.append("g1", [event(2, 1)], ActionRow(1, 0, "a", 1.0))
        final = dataclasses.replace(
            row,
            status="finished",
            result={"ranks": [1, 2], "winners": [0]},
            reason="won",
            seed_revealed=True,
            finished=8.0,
        )
        stats = {"p1": {"games": 1, "wins": 1}, "p2": {"games": 1, "losses": 1}}
        await store.finish_game(final, [event(3, 1, over=True)], stats)
        assert await store.game("g1") == final
        assert [e.seq for e in await store.events("g1")] == [1, 2, 3]
        assert await store.stats("p1") == {"perudo": {"games": 1, "wins": 1}}
        assert await store.stats("p2") == {"perudo": {"games": 1, "losses": 1}}

    async def test_finish_game_is_all_or_nothing_when_an_event_is_refused(
        self, store: Store
    ) -> None:
        row = game_row("g1")
        await store.save_game(row, [event(1), event(2)])
        final = dataclasses.replace(row, status="finished", seed_revealed=True, finished=2.0)
        with pytest.raises(StoreError):  # event 2 is already logged
            await store.finish_game(final, [event(3), event(2)], {"p1": {"games": 1}})
        assert await store.game("g1") == row
        assert [e.seq for e in await store.events("g1")] == [1, 2]
        assert await store.stats("p1") == {}
        await store.finish_game(final, [event(3)], {"p1": {"games": 1}})
        assert await store.game("g1") == final
        assert await store.stats("p1") == {"perudo": {"games": 1}}

    async def test_finish_game_is_all_or_nothing_when_its_commit_fails(
        self, store: Store, harness: StoreHarness
    ) -> None:
        row = game_row("g1")
        await store.save_game(row, [event(1)])
        await store.add_stats("perudo", {"p1": {"games": 3}})
        final = dataclasses.replace(row, status="finished", seed_revealed=True, finished=2.0)
        with harness.fail_commits(store), pytest.raises(StoreError):
            await store.finish_game(final, [event(2)], {"p1": {"games": 1, "wins": 1}})
        for reader in (store, await harness.open()):
            assert await reader.game("g1") == row
            assert [e.seq for e in await reader.events("g1")] == [1]
            assert await reader.stats("p1") == {"perudo": {"games": 3}}
        await store.finish_game(final, [event(2)], {"p1": {"games": 1, "wins": 1}})
        assert await store.stats("p1") == {"perudo": {"games": 4, "wins": 1}}

    # -- statistics and history ------------------------------------------------------------

    async def test_stats_add_up_per_player_and_game(self, store: Store) -> None:
        await store.add_stats("perudo", {"p1": {"games": 1, "bids": 4}, "p2": {"games": 1}})
        await store.add_stats("perudo", {"p1": {"games": 1, "bids": 2.5}})
        await store.add_stats("kriegspiel", {"p1": {"moves": 30}})
        await store.add_stats("perudo", {})
        await store.finish_game(
            game_row("g1", status="finished"), [], {"p1": {"games": 1, "wins": 1}}
        )
        assert await store.stats("p1") == {
            "kriegspiel": {"moves": 30},
            "perudo": {"bids": 6.5, "games": 3, "wins": 1},
        }
        assert await store.stats("p2") == {"perudo": {"games": 1}}
        assert await store.stats("p3") == {}

    async def test_history_lists_a_players_started_games_newest_first(self, store: Store) -> None:
        await store.save_game(game_row("w", status="waiting", created=9.0))  # not started
        await store.save_game(game_row("g1", started=1.0))
        await store.save_game(game_row("g2", started=3.0, seats=["p2", "p1"]))
        await store.finish_game(
            game_row(
                "g3",
                started=2.0,
                status="finished",
                result={"ranks": [2, 1]},
                reason="last_player_standing",
                finished=2.5,
            ),
            [],
            {},
        )
        history = await store.history("p1")
        assert [(h["room"], h["seat"], h["rank"]) for h in history] == [
            ("g2", 1, None),
            ("g3", 0, 2),
            ("g1", 0, None),
        ]
        assert history[1] == {
            "room": "g3",
            "game": "perudo",
            "status": "finished",
            "seat": 0,
            "rank": 2,
            "reason": "last_player_standing",
            "started": 2.0,
            "finished": 2.5,
        }
        assert [h["room"] for h in await store.history("p1", limit=2)] == ["g2", "g3"]
        assert await store.history("nobody") == []

    # -- durability and isolation ----------------------------------------------------------

    async def test_a_write_returns_only_once_committed(
        self, store: Store, harness: StoreHarness
    ) -> None:
        await store.save_game(game_row("g1"), [event(1)])
        async with harness.hold_commits(store) as gate:
            writing = asyncio.create_task(
                store.append("g1", [event(2, 1)], ActionRow(1, 0, "a", 1.0))
            )
            await gate.reached.wait()
            assert not writing.done()
            gate.release()
            await writing
        # Another store on the same database (the first one still open, nothing flushed
        # by a close) sees the write: it was committed when append returned.
        other = await harness.open()
        assert [e.seq for e in await other.events("g1")] == [1, 2]
        assert [a.action for a in await other.actions("g1")] == ["a"]

    async def test_reads_never_see_uncommitted_rows(
        self, store: Store, harness: StoreHarness
    ) -> None:
        row = game_row("g1")
        await store.save_game(row, [event(1)])
        other = await harness.open()
        final = dataclasses.replace(row, status="finished", seed_revealed=True, finished=3.0)
        async with harness.hold_commits(store) as gate:
            finishing = asyncio.create_task(
                store.finish_game(final, [event(2)], {"p1": {"games": 1}})
            )
            await gate.reached.wait()
            for reader in (store, other):
                assert await reader.game("g1") == row
                assert [e.seq for e in await reader.events("g1")] == [1]
                assert await reader.stats("p1") == {}
                assert [g.id async for g in reader.iter_games(["finished"])] == []
            gate.release()
            await finishing
        for reader in (store, other):
            assert await reader.game("g1") == final
            assert [e.seq for e in await reader.events("g1")] == [1, 2]

    async def test_concurrent_appends_keep_each_games_order(self, store: Store) -> None:
        games, moves = 20, 25

        async def play(index: int) -> None:
            game_id = f"g{index}"
            await store.save_game(game_row(game_id), [event(1)])
            for n in range(1, moves + 1):
                await store.append(
                    game_id, [event(n + 1, n, by=index)], ActionRow(n, n % 2, f"{index}:{n}", n)
                )

        await asyncio.gather(*(play(i) for i in range(games)))
        for index in range(games):
            events = await store.events(f"g{index}")
            assert [e.seq for e in events] == list(range(1, moves + 2))
            assert all(e.truth.get("by", index) == index for e in events)
            actions = await store.actions(f"g{index}")
            assert [a.action for a in actions] == [f"{index}:{n}" for n in range(1, moves + 1)]

    async def test_close_finishes_pending_writes_and_is_idempotent(
        self, store: Store, harness: StoreHarness
    ) -> None:
        await store.save_game(game_row("g1"), [event(1)])
        async with harness.hold_commits(store) as gate:
            writes = [
                asyncio.create_task(
                    store.append("g1", [event(n + 1, n)], ActionRow(n, 0, str(n), n))
                )
                for n in range(1, 11)
            ]
            await gate.reached.wait()
            closing = asyncio.create_task(store.close())
            gate.release()
            await closing
        assert all(w.done() and w.exception() is None for w in writes)
        await store.close()
        with pytest.raises(StoreError):
            await store.append("g1", [event(99)])
        with pytest.raises(StoreError):
            await store.game("g1")
        other = await harness.open()
        assert len(await other.events("g1")) == 11

    # -- the tamper-evident log (issue 32) ---------------------------------------------------

    async def test_every_tamper_is_caught(self, harness: StoreHarness, store: Store) -> None:
        """The tamper suite: edit one die (the seed), rewrite the actions with their
        events (legal, consistent, the chain recomputed: only the signature stops it), edit
        one chat line, delete a row, reorder two rows, swap a seed; an untouched game and
        one signed before a key rotation still verify."""
        old, key = Signer.generate(), Signer.generate()
        for signer in (old, key):
            await store.add_signing_key(signer.key_id, signer.public, 1.0)
        seed = b"tamper seed"
        ids = ("ok", "rotated", "die", "rewrite", "chat", "delete", "reorder", "swap1", "swap2")
        for gid in ids:
            other = b"another seed" if gid == "swap2" else seed
            await record_chained(store, gid, other, old if gid == "rotated" else key)
        for gid in ids:
            assert await verify_game(store, gid) == [], gid

        # one die: a die of the opening roll, with the seed and its commitment made to match
        # it (here: another seed), the chain left as it was
        forged = b"forged seed"
        await harness.sql(
            "UPDATE games SET seed = ?, seed_sha256 = ? WHERE id = ?",
            forged,
            seed_commitment(forged),
            "die",
        )
        # the actions rewritten with their events: another legal game from the same seed,
        # its chain recomputed by whoever edits the database (who has no key)
        forged_row = await forge_game(store, harness, "rewrite", seed)
        assert forged_row.final_hash != (await store.game("ok") or forged_row).final_hash
        # one chat line
        await harness.sql("UPDATE chat SET text = ? WHERE game_id = ? AND n = 2", "gg", "chat")
        # a row deleted
        await harness.sql("DELETE FROM events WHERE game_id = ? AND seq = 3", "delete")
        # two rows reordered: the chat line said after the first action and that action
        (said_at,) = (
            await harness.sql("SELECT pos FROM chat WHERE game_id = ? AND n = 2", "reorder")
        )[0]
        (acted_at,) = (
            await harness.sql("SELECT pos FROM actions WHERE game_id = ? AND n = 1", "reorder")
        )[0]
        await harness.sql(
            "UPDATE chat SET pos = ? WHERE game_id = ? AND n = 2", acted_at, "reorder"
        )
        await harness.sql(
            "UPDATE actions SET pos = ? WHERE game_id = ? AND n = 1", said_at, "reorder"
        )
        # two games' seeds swapped (with their commitments)
        one, two = await store.game("swap1"), await store.game("swap2")
        assert one is not None and two is not None
        for gid, row in (("swap1", two), ("swap2", one)):
            await harness.sql(
                "UPDATE games SET seed = ?, seed_sha256 = ? WHERE id = ?",
                row.seed,
                row.seed_sha256,
                gid,
            )

        keys = await store.signing_keys()
        for gid in ("ok", "rotated"):
            assert await verify_game(store, gid) == [], gid
        for gid in ids[2:]:
            [log] = [log async for log in logs(store, [gid])]
            assert verify_chain(log, keys)[0], f"{gid}: the chain did not catch it"
            assert await verify_game(store, gid), gid
        [log] = [log async for log in logs(store, ["rewrite"])]
        assert verify_log(log) == []  # (what passed before issue 32: the replay alone)
        assert verify_chain(log, keys)[0] == [
            f"the signature of its final hash does not match (key {key.key_id}): the log or "
            "the game's row was changed after the server signed it"
        ]

    # -- house seats -----------------------------------------------------------------------

    async def test_house_tickets_are_kept_but_never_exported(self, store: Store) -> None:
        ticket = "house-ticket-that-must-never-leave-the-server"
        row, events, causes, history, outcome = await play_random_game("h1", b"contract seed")
        row.house = {"1": ticket}
        await store.add_player(PlayerRow("p1", "One", False, 1.0), "t1")
        signer = Signer.generate()
        await store.add_signing_key(signer.key_id, signer.public, 1.0)
        stats = {"p1": {"games": 1}}
        entries = journal.finished_game(row, events, causes, history, outcome, stats, signer)
        await journal.record_finished(store, entries)
        stored = await store.game("h1")
        assert stored is not None and stored.house == {"1": ticket}
        assert stored.status == "finished" and stored.seed_revealed
        assert stored.result == outcome.to_json()
        assert [(a.seat, a.action) for a in await store.actions("h1")] == history
        assert [e.truth for e in await store.events("h1")] == [e.truth for e in events]
        assert await verify_game(store, "h1") == []
        out = io.StringIO()
        assert await export_jsonl(store, out) == 1
        assert ticket not in out.getvalue()
        exported = json.loads(out.getvalue())
        assert "house" not in exported and exported["id"] == "h1"
        assert exported["players"][0] == {"id": "p1", "name": "One", "bot": False}
        assert exported["players"][1] is None

    # -- accounts and sessions -------------------------------------------------------------

    async def test_a_new_players_token_is_its_first_session(self, store: Store) -> None:
        alice = PlayerRow("p1", "Alice", False, 5.0)
        await store.add_player(alice, "hash-a")
        assert await store.session("hash-a") == SessionRow("hash-a", "p1", "session", 5.0, 5.0)
        assert await store.session("nope") is None
        await store.touch_session("hash-a", 99.5)
        assert await store.session("hash-a") == SessionRow("hash-a", "p1", "session", 5.0, 99.5)
        await store.add_session(SessionRow("hash-b", "p1", "session", 7.0, 8.0))
        assert await store.player_by_token("hash-b") == alice
        with pytest.raises(StoreError):  # a hash is one token's
            await store.add_session(SessionRow("hash-b", "p1", "session", 9.0, 9.0))
        await store.drop_session("hash-a")
        await store.drop_session("unknown")
        assert (
            await store.session("hash-a") is None and await store.player_by_token("hash-a") is None
        )
        assert await store.player_by_token("hash-b") == alice

    async def test_drop_sessions_revokes_by_kind_and_keeps_one(self, store: Store) -> None:
        await store.add_player(PlayerRow("p1", "A", False, 1.0), "s1")
        await store.add_player(PlayerRow("p2", "B", False, 1.0), "other")
        for token, kind in (("s2", "session"), ("s3", "session"), ("k1", "api")):
            await store.add_session(SessionRow(token, "p1", kind, 2.0, 2.0))
        assert await store.drop_sessions("p1", keep="s2") == 2
        assert [await store.session(t) is not None for t in ("s1", "s2", "s3", "k1")] == [
            False,
            True,
            False,
            True,
        ]
        assert await store.drop_sessions("p1", kinds=("api",)) == 1
        assert await store.drop_sessions("p1", kinds=("session", "api")) == 1
        assert await store.drop_sessions("p1") == 0
        assert await store.drop_sessions("p1", kinds=()) == 0
        assert await store.session("other") is not None

    async def test_set_token_replaces_every_token_of_the_player(self, store: Store) -> None:
        await store.add_player(PlayerRow("bot-x", "x", True, 1.0, kind="house"), "old")
        await store.add_session(SessionRow("old2", "bot-x", "session", 2.0, 2.0))
        await store.set_token("bot-x", "new")
        assert await store.session("old") is None and await store.session("old2") is None
        found = await store.player_by_token("new")
        assert found is not None and found.kind == "house"

    async def test_a_guest_claims_its_name_and_keeps_its_id(self, store: Store) -> None:
        await store.add_player(PlayerRow("p1", "Ana", False, 1.0), "t1")
        await store.add_player(PlayerRow("p2", "Bo", False, 2.0), "t2")
        await store.save_game(game_row("g1", seats=["p1", "p2"]))
        assert await store.credentials("ana") is None
        await store.claim("p1", "Ana", "ana", "hash-of-pw")
        account = PlayerRow("p1", "Ana", False, 1.0, kind="account")
        assert await store.player("p1") == account
        assert await store.credentials("ana") == Credentials(account, "hash-of-pw")
        assert await store.player_by_name("ana") == account
        assert await store.player_by_token("t1") == account  # its session goes on
        assert [h["room"] for h in await store.history("p1")] == ["g1"]
        await store.set_password("p1", "new-hash")
        assert await store.credentials("ana") == Credentials(account, "new-hash")
        with pytest.raises(NameTaken):  # taken by another player
            await store.claim("p2", "ANA", "ana", "x")
        assert await store.player("p2") == PlayerRow("p2", "Bo", False, 2.0)
        with pytest.raises(StoreError):  # an account is no longer a guest
            await store.claim("p1", "Ana2", "ana2", "x")
        await store.claim("p2", "Bö", "bö", "h2")
        assert await store.player_by_name("bö") == PlayerRow("p2", "Bö", False, 2.0, "account")

    async def test_house_bot_names_are_taken(self, store: Store) -> None:
        house = PlayerRow("bot-perudo-random", "perudo-random", True, 1.0, kind="house")
        await store.add_player(house, "t0")
        await store.add_player(PlayerRow("p1", "x", False, 1.0), "t1")
        assert await store.player_by_name("perudo-random") == house
        assert await store.credentials("perudo-random") is None
        with pytest.raises(NameTaken):
            await store.claim("p1", "Perudo-Random", "perudo-random", "h")
        assert await store.player_by_name("nobody") is None

    async def test_bot_accounts_have_owners_and_api_tokens(self, store: Store) -> None:
        await store.add_player(PlayerRow("p1", "Ana", False, 1.0), "t1")
        await store.claim("p1", "Ana", "ana", "h")
        bots = [
            PlayerRow(f"b{i}", f"Bot{i}", True, 10.0 - i, kind="bot", owner="p1") for i in range(3)
        ]
        for i, bot in enumerate(bots):
            await store.add_bot_account(bot, f"bot{i}", f"api{i}")
        assert await store.bot_accounts("p1") == bots[::-1]  # oldest first
        assert await store.bot_accounts("p2") == []
        assert await store.credentials("bot1") == Credentials(bots[1], "")
        assert await store.player_by_token("api1") == bots[1]
        api = await store.session("api1")
        assert api is not None and api.kind == "api" and api.player == "b1"
        with pytest.raises(NameTaken):
            await store.add_bot_account(
                PlayerRow("b9", "ANA", True, 11.0, kind="bot", owner="p1"), "ana", "api9"
            )
        assert await store.player("b9") is None and await store.session("api9") is None
        # the owner's "log out everywhere" keeps its bots' API tokens
        assert await store.drop_sessions("p1") == 1
        assert await store.session("api0") is not None

    # -- ratings ---------------------------------------------------------------------------

    async def test_finish_game_rates_once_in_its_transaction(self, store: Store) -> None:
        toy = CountingPlan()
        row = finished("g1", ["p1", "p2"])
        await store.save_game(dataclasses.replace(row, status="playing", finished=None))
        assert await store.rating_changes("g1") == []
        changes = await store.finish_game(row, [event(1)], {}, toy.plan(["p1", "p2"], [1, 2]))
        assert await store.game("g1") == row
        k1 = RatingKey("p1", "", "kriegspiel", "wild16")
        k2 = RatingKey("p2", "", "kriegspiel", "wild16")
        won = Rating(1510.0, 349.0, 0.06, 1)
        lost = Rating(1490.0, 349.0, 0.06, 1)
        assert changes == [
            RatingChange("g1", 0, k1, "human", NEW_GLICKO2, won, 10.0, changes[0].n),
            RatingChange("g1", 1, k2, "human", NEW_GLICKO2, lost, 10.0, changes[0].n + 1),
        ]
        assert changes[0].n >= 1
        assert await store.rating_changes("g1") == changes
        assert await store.ratings("p1") == [RatingRow(k1, "human", won, 10.0)]
        # Again (a replay, a restart, another node): the stored changes, nothing rated twice.
        again = await store.finish_game(row, [], {}, toy.plan(["p1", "p2"], [1, 2]))
        assert again == changes and toy.calls == 1
        assert await store.ratings("p2") == [RatingRow(k2, "human", lost, 10.0)]
        # Without a plan: no rating at all.
        assert await store.finish_game(finished("g2", ["p1", "p2"]), [], {}) == []
        assert await store.rating_changes("g2") == []

    async def test_the_next_game_is_rated_from_the_current_ratings(self, store: Store) -> None:
        toy = CountingPlan()
        seen: list[Any] = []
        first = await store.finish_game(
            finished("g1", ["p1", "p2"]), [], {}, toy.plan(["p1", "p2"], [1, 2])
        )
        plan = toy.plan(["p2", "p3"], [1, 2], versions=["", ""])

        def rate(current: Sequence[Rating | None]) -> Sequence[Rating]:
            seen.append(list(current))
            return plan.rate(current)

        spy = RatingPlan(plan.seats, rate)
        second = await store.finish_game(finished("g2", ["p2", "p3"], at=20.0), [], {}, spy)
        assert seen == [[first[1].after, None]]
        assert second[0].before == first[1].after and second[1].before == NEW_GLICKO2
        assert second[0].after == Rating(1500.0, 348.0, 0.06, 2)
        assert second[0].n > first[1].n
        key = RatingKey("p2", "", "kriegspiel", "wild16")
        assert [c.game_id for c in await store.rating_history(key)] == ["g1", "g2"]
        assert [c.game_id for c in await store.rating_history(key, limit=1)] == ["g2"]
        ratings = await store.ratings("p2")
        assert [(r.rating, r.updated) for r in ratings] == [(second[0].after, 20.0)]

    async def test_a_rated_finish_is_all_or_nothing(
        self, store: Store, harness: StoreHarness
    ) -> None:
        toy = CountingPlan()
        row = finished("g1", ["p1", "p2"])
        with harness.fail_commits(store), pytest.raises(StoreError):
            await store.finish_game(row, [event(1)], {}, toy.plan(["p1", "p2"], [1, 2]))
        assert await store.game("g1") is None
        assert await store.rating_changes("g1") == [] and await store.ratings("p1") == []

        def broken(current: Any) -> list[Rating]:
            raise ValueError("a rating system that fails")

        bad = RatingPlan(toy.plan(["p1", "p2"], [1, 2]).seats, broken)
        with pytest.raises(StoreError):
            await store.finish_game(row, [event(1)], {"p1": {"games": 1}}, bad)
        assert await store.game("g1") is None and await store.stats("p1") == {}
        changes = await store.finish_game(row, [event(1)], {}, toy.plan(["p1", "p2"], [1, 2]))
        assert [c.after.games for c in changes] == [1, 1]

    async def test_concurrent_rated_finishes_count_every_game_once(
        self, store: Store, harness: StoreHarness
    ) -> None:
        # Two stores on one database (two nodes, or a restart racing the old process)
        # finish games that share players, and some games twice: every game is rated
        # exactly once and no rating update is lost.
        other = await harness.open()
        toy = CountingPlan()
        players = ["p1", "p2", "p3", "p4"]
        finishes = []
        for i in range(24):
            pair = [players[i % 4], players[(i + 1 + i // 4) % 4]]
            if pair[0] == pair[1]:
                pair[1] = players[(i + 2) % 4]
            for writer in (store, other) if i % 3 == 0 else ((store, other)[i % 2],):
                plan = toy.plan(pair, [1, 2])
                finishes.append(writer.finish_game(finished(f"g{i:02}", pair), [], {}, plan))
        results = await asyncio.gather(*finishes)
        by_game: dict[str, list[RatingChange]] = {}
        for changes in results:
            assert changes
            assert by_game.setdefault(changes[0].game_id, changes) == changes
        assert len(by_game) == 24
        games = {p: 0 for p in players}
        for changes in by_game.values():
            for change in changes:
                games[change.key.player] += 1
        for p in players:
            (rating,) = await store.ratings(p)
            assert rating.rating.games == games[p]
            history = await other.rating_history(rating.key)
            assert [c.after.games for c in history] == list(range(1, games[p] + 1))
            assert all(a.after == b.before for a, b in itertools.pairwise(history))
        assert [g.id async for g in store.iter_rated_games()] == sorted(
            by_game, key=lambda g: by_game[g][0].n
        )

    async def test_leaderboards_are_per_game_rules_and_pool_in_a_total_order(
        self, store: Store
    ) -> None:
        ratings = [  # player, rating, games, pool, version
            ("p1", 1600.0, 5, "human", ""),
            ("p2", 1700.0, 9, "human", ""),
            ("p3", 1600.0, 4, "human", ""),  # too few games
            ("p4", 1600.0, 7, "human", ""),
            ("p0", 1600.0, 5, "human", ""),
            ("b1", 1800.0, 6, "bot", "1.0"),
            ("b1", 1650.0, 6, "bot", "2.0"),
        ]
        changes = []
        for n, (player, value, games, pool, version) in enumerate(ratings, start=1):
            if await store.player(player) is None:
                bot = pool == "bot"
                await store.add_player(PlayerRow(player, player.upper(), bot, 1.0), f"t{n}")
            key = RatingKey(player, version, "kriegspiel", "wild16")
            after = Rating(value, 60.0, 0.06, games)
            changes.append(RatingChange(f"g{n}", 0, key, pool, NEW_GLICKO2, after, float(n), n))
        other = RatingKey("p3", "", "kriegspiel", "berkeley")
        changes.append(
            RatingChange("g9", 0, other, "human", NEW_GLICKO2, Rating(2000, 50, 0.06, 9), 9.0, 9)
        )
        await store.replace_ratings(changes)
        board = await store.leaderboard("kriegspiel", "wild16", "human", min_games=5)
        assert [(p.id, r.rating.rating, r.rating.games) for p, r in board] == [
            ("p2", 1700.0, 9),
            ("p0", 1600.0, 5),  # the same rating: fewer games first, then the id
            ("p1", 1600.0, 5),
            ("p4", 1600.0, 7),
        ]
        assert board[0][0] == PlayerRow("p2", "P2", False, 1.0)
        assert board[0][1] == RatingRow(
            RatingKey("p2", "", "kriegspiel", "wild16"), "human", Rating(1700.0, 60.0, 0.06, 9), 2.0
        )
        top = await store.leaderboard("kriegspiel", "wild16", "human", min_games=1, limit=2)
        assert [p.id for p, _ in top] == ["p2", "p3"]
        bots = await store.leaderboard("kriegspiel", "wild16", "bot", min_games=5)
        assert [(p.id, r.key.version) for p, r in bots] == [("b1", "1.0"), ("b1", "2.0")]
        assert await store.leaderboard("kriegspiel", "berkeley", "bot", min_games=1) == []
        assert await store.leaderboard("perudo", "classic", "human", min_games=0) == []

    async def test_replace_ratings_rebuilds_every_rating(self, store: Store) -> None:
        toy = CountingPlan()
        for i in range(3):
            row = finished(f"g{i}", ["p1", "p2"], at=float(10 + i))
            await store.finish_game(row, [], {}, toy.plan(["p1", "p2"], [1, 2]))
        await store.finish_game(
            finished("g9", ["p3", "p4"]), [], {}, toy.plan(["p3", "p4"], [2, 1])
        )
        stored = [c for g in ("g0", "g1", "g2") for c in await store.rating_changes(g)]
        rebuilt = [
            dataclasses.replace(c, after=dataclasses.replace(c.after, rating=c.after.rating + 1))
            for c in stored
        ]
        await store.replace_ratings(rebuilt)
        assert [c for g in ("g0", "g1", "g2") for c in await store.rating_changes(g)] == rebuilt
        assert await store.rating_changes("g9") == [] and await store.ratings("p3") == []
        (p1,) = await store.ratings("p1")
        assert p1.rating == rebuilt[-2].after and p1.updated == 12.0
        assert [g.id async for g in store.iter_rated_games()] == ["g0", "g1", "g2"]
        # numbering goes on after the rebuilt changes
        more = await store.finish_game(
            finished("g5", ["p1", "p3"]), [], {}, toy.plan(["p1", "p3"], [1, 2])
        )
        assert more[0].n > rebuilt[-1].n and more[0].before == rebuilt[-2].after
        await store.replace_ratings([])
        assert await store.ratings("p1") == [] and [g async for g in store.iter_rated_games()] == []

    async def test_a_games_rating_decision_round_trips(self, store: Store) -> None:
        rated = {
            "system": "glicko2",
            "rules": "wild16",
            "versions": ["", "1.2"],
            "pools": ["human", "bot"],
        }
        row = game_row("g1", game="kriegspiel", rated=rated)
        await store.save_game(row)
        assert await store.game("g1") == row
        assert [g.rated async for g in store.iter_games()] == [rated]

    # -- seeks (server.matchmaking) --------------------------------------------------------

    async def test_seeks_round_trip_and_list_by_status_game_and_player(self, store: Store) -> None:
        a = seek_row("s1", "p1", created=1.0, clock=(300.0, 2.0), range=(1400.0, 1600.0))
        b = seek_row("s2", "p2", created=2.0, game="perudo", fill_after=30.0, rating=None)
        c = seek_row("s3", "p1", created=3.0, ladder=True, max_concurrent=4)
        for row in (c, a, b):
            await store.add_seek(row)
        assert await store.seek("s1") == a and await store.seek("nope") is None
        assert [s.id for s in await store.seeks()] == ["s1", "s2", "s3"]
        assert await store.seeks(game="perudo") == [b]
        assert [s.id for s in await store.seeks(player="p1")] == ["s1", "s3"]
        with pytest.raises(StoreError):
            await store.add_seek(a)
        assert await store.cancel_seeks(["s1", "s2"], 5.0, player="p1") == ["s1"]
        assert await store.cancel_seeks(["s1"], 6.0) == []
        cancelled = await store.seek("s1")
        assert cancelled is not None and cancelled.status == "cancelled"
        assert cancelled.updated == 5.0
        assert [s.id for s in await store.seeks("cancelled")] == ["s1"]

    async def test_a_claim_takes_every_seek_or_none(self, store: Store) -> None:
        for n in range(4):
            await store.add_seek(seek_row(f"s{n}", f"p{n}", created=float(n)))
        assert await store.claim_seeks(["s0", "s1"], "room1", 7.0)
        assert not await store.claim_seeks(["s1", "s2"], "room2", 8.0)  # s1 is taken
        s2 = await store.seek("s2")
        assert s2 is not None and s2.status == "open" and s2.room is None
        assert [s.id for s in await store.seeks_of_room("room1")] == ["s0", "s1"]
        assert [s.id for s in await store.seeks()] == ["s2", "s3"]
        assert await store.reopen_seeks("room1", 9.0) == ["s0", "s1"]
        assert [s.id for s in await store.seeks()] == ["s0", "s1", "s2", "s3"]

    async def test_orphaned_claims_and_changed_seeks_in_one_query_each(self, store: Store) -> None:
        for n in range(6):
            await store.add_seek(seek_row(f"s{n}", f"p{n}", created=float(n)))
        await store.add_seek(seek_row("l1", "p9", created=1.0, ladder=True))
        assert await store.claim_seeks(["s0", "s1"], "made", 10.0)
        assert await store.claim_seeks(["s2", "s3"], "ghost", 11.0)
        assert await store.claim_seeks(["s4"], "late", 20.0)
        await store.save_game(game_row("made", created=10.0))
        assert await store.orphan_seek_rooms(15.0) == ["ghost"]
        assert await store.orphan_seek_rooms(100.0) == ["ghost", "late"]
        assert await store.orphan_seek_rooms(100.0, since=12.0) == ["late"]
        assert await store.orphan_seek_rooms(11.0) == []
        assert await store.cancel_seeks(["s5"], 21.0) == ["s5"]
        changed = await store.seeks_changed(20.0)
        assert [(s.id, s.status) for s in changed] == [("s4", "matched"), ("s5", "cancelled")]
        assert [s.id for s in await store.seeks_changed(0.0)] == [f"s{n}" for n in range(6)]

    async def test_concurrent_claims_of_one_seek_by_two_stores(self, harness: StoreHarness) -> None:
        """Two stores on one database (two nodes) claim overlapping tables at once,
        many times: every seek is claimed once at most, every claim all or nothing."""
        first = await harness.open()
        second = await harness.open()
        try:
            for n in range(30):
                await first.add_seek(seek_row(f"s{n}", f"p{n}", created=float(n)))
            claims = []
            for n in range(0, 29, 2):
                claims.append(first.claim_seeks([f"s{n}", f"s{n + 1}"], f"a{n}", 1.0))
                claims.append(second.claim_seeks([f"s{n + 1}", f"s{n + 2}"], f"b{n}", 1.0))
            won = await asyncio.gather(*claims)
            assert any(won)
            rooms: dict[str, list[str]] = {}
            for row in await first.seeks("matched"):
                assert row.room is not None
                rooms.setdefault(row.room, []).append(row.id)
            assert all(len(ids) == 2 for ids in rooms.values())  # never half a table
            assert sum(won) == len(rooms)
        finally:
            await harness.close_all()

    # -- tournaments -----------------------------------------------------------------------

    async def test_tournaments_compare_and_set(self, store: Store) -> None:
        row = TournamentRow("t1", "created", '{"a": 1}', 1, 5.0, 5.0)
        assert await store.save_tournament(row, None)
        assert not await store.save_tournament(row, None)  # the id is taken
        assert await store.tournament("t1") == row
        moved = dataclasses.replace(row, status="running", state='{"a": 2}', version=2, updated=6.0)
        assert await store.save_tournament(moved, 1)
        # a second writer that read version 1 loses
        stale = dataclasses.replace(row, state='{"a": 3}', version=2, updated=7.0)
        assert not await store.save_tournament(stale, 1)
        assert await store.tournament("t1") == moved
        await store.save_tournament(TournamentRow("t2", "finished", "{}", 1, 9.0, 9.0), None)
        assert [t.id for t in await store.tournaments()] == ["t2", "t1"]
        assert [t.id for t in await store.tournaments(["running"])] == ["t1"]
        assert await store.tournament("nope") is None

    async def test_tournament_games_are_appended_with_their_state(self, store: Store) -> None:
        row = TournamentRow("t1", "running", "{}", 1, 5.0, 5.0)
        assert await store.save_tournament(row, None, [(0, '{"g": 0}'), (1, '{"g": 1}')])
        nxt = dataclasses.replace(row, version=2)
        # a seq already stored stays as it was (append-only); new ones follow in order
        assert await store.save_tournament(nxt, 1, [(2, '{"g": 2}'), (1, '{"g": "x"}')])
        assert await store.tournament_games("t1") == ['{"g": 0}', '{"g": 1}', '{"g": 2}']
        # a refused compare-and-set appends nothing
        stale = dataclasses.replace(row, version=3)
        assert not await store.save_tournament(stale, 1, [(3, '{"g": 3}')])
        assert len(await store.tournament_games("t1")) == 3
        assert await store.tournament_games("nope") == []


def seek_row(seek_id: str, player: str, **fields: Any) -> SeekRow:
    """A seek row of ``player`` (a two-seat casual Kriegspiel by default)."""
    game = fields.pop("game", "kriegspiel")
    options = fields.pop("options", {"rules": "wild16"} if game == "kriegspiel" else {})
    return SeekRow(
        id=seek_id,
        player=player,
        game=game,
        options=options,
        rated=fields.pop("rated", False),
        seats=fields.pop("seats", 2),
        created=fields.pop("created", 1.0),
        pool=fields.pop("pool", f"pool-{game}"),
        updated=fields.pop("updated", 1.0),
        rating=fields.pop("rating", 1500.0),
        **fields,
    )
