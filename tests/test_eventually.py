"""The tests' one way to wait: :func:`tests.eventually.eventually` and its synchronous twin."""

from __future__ import annotations

import itertools

import pytest

from tests.eventually import eventually, eventually_sync


async def test_it_returns_the_first_value_that_will_do() -> None:
    counter = itertools.count()
    assert await eventually(lambda: next(counter) >= 3 and "three") == "three"

    async def later() -> int:
        return next(counter)

    assert await eventually(later, equals=10) == 10


async def test_it_fails_saying_what_it_waited_for_and_what_it_saw() -> None:
    with pytest.raises(AssertionError, match=r"the door did not hold .* last value was \[\]"):
        await eventually(lambda: [], timeout=0.05, what="the door")
    seen: list[float] = []

    async def pause(seconds: float) -> None:
        seen.append(seconds)

    with pytest.raises(AssertionError, match=r"the last value was 'closed' \(wanted 'open'\)"):
        await eventually(
            lambda: "closed", equals="open", timeout=0.05, pause=pause, what=lambda: "x"
        )
    assert seen and set(seen) == {0.02}


def test_the_synchronous_twin() -> None:
    counter = itertools.count()
    assert eventually_sync(lambda: next(counter), equals=2, interval=0) == 2
    with pytest.raises(AssertionError, match="the port did not hold"):
        eventually_sync(lambda: False, timeout=0.05, interval=0.01, what="the port")
