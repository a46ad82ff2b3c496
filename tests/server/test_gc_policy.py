"""The server's garbage-collector policy (server.ops.gc_policy): no automatic collection, a
full collection once the heap has grown past the limit, everything restored after."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

from server.ops.gc_policy import GcPolicy


class Node:
    """A member of a reference cycle (only the collector frees it)."""

    def __init__(self) -> None:
        self.other: Node | None = None


def cycles(count: int) -> weakref.ref[Node]:
    """Make ``count`` two-node cycles that are garbage at once; a weak reference to one."""
    first = None
    for _ in range(count):
        a, b = Node(), Node()
        a.other, b.other = b, a
        first = first or a
    assert first is not None
    return weakref.ref(first)


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


def test_install_turns_automatic_collection_off_and_uninstall_restores_it(
    loop: asyncio.AbstractEventLoop,
) -> None:
    before = gc.get_threshold()
    policy = GcPolicy(floor=1_000)
    policy.install(loop)
    try:
        assert gc.get_threshold()[0] == 0
        assert gc.get_freeze_count() > 0  # what start-up made is never traversed again
        dead = cycles(2_000)  # (past the young threshold CPython would use)
        assert dead() is not None  # nothing collected it automatically
    finally:
        policy.uninstall()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert dead() is None


def test_a_full_collection_once_the_heap_grew_past_the_floor(
    loop: asyncio.AbstractEventLoop,
) -> None:
    policy = GcPolicy(floor=5_000)
    policy.install(loop)
    try:
        small = cycles(100)  # 200 objects: well under the floor
        assert not policy.watch()
        assert small() is not None
        large = cycles(5_000)  # 10,000 more: past it
        assert policy.grown() > 5_000
        assert policy.watch()
        assert small() is None and large() is None
        assert policy.full_collections == 1
        assert policy.limit >= 5_000
        assert policy.grown() < 5_000  # counted again from the collection
        assert not policy.watch()
    finally:
        policy.uninstall()


def test_the_installed_policy_watches_from_the_loop(loop: asyncio.AbstractEventLoop) -> None:
    policy = GcPolicy(floor=1_000, check=0.001)
    policy.install(loop)
    try:
        dead = cycles(2_000)
        collected: asyncio.Future[int] = loop.create_future()

        def heard(n: int) -> None:
            if not collected.done():
                collected.set_result(n)

        policy.on_collect = heard
        # (the loop's timer reads the growth and makes the collection)
        assert loop.run_until_complete(asyncio.wait_for(collected, 5)) >= 4_000
        assert dead() is None
        assert policy.full_collections == 1
    finally:
        policy.uninstall()


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        GcPolicy(floor=0)
    with pytest.raises(ValueError):
        GcPolicy(check=0)


async def test_a_refused_action_leaves_no_garbage_cycle(connect: Any) -> None:
    """With automatic collection off, what the server makes must die by reference
    counting: a refusal (an error handed from the room to the connection through a
    future) used to leave some 26 objects in a cycle (its traceback held the frames that
    held the future that held it)."""
    ana = await connect("ana")
    created = await ana.request("create_room", "created", game="perudo", sit=True)
    room = created["room"]
    await ana.send(type="act", room=room, action="1x2")  # the game has not started
    await ana.error("bad_state")
    gc.collect()
    gc.disable()
    try:
        for _ in range(30):
            await ana.send(type="act", room=room, action="1x2")
            await ana.error("bad_state")
        found = gc.collect()
    finally:
        gc.enable()
    assert found < 30, f"{found} objects in garbage cycles after 30 refusals"
