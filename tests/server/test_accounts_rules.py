"""The account rules without a server: name keys, password bounds, the login throttle
(on a fake clock) and the password hasher's concurrency bound."""

from __future__ import annotations

import asyncio
import threading

import pytest

from server.errors import ClientError
from server.players.accounts import (
    MAX_PASSWORD,
    MIN_PASSWORD,
    account_key,
    check_password,
    usable_password,
)
from server.players.passwords import Argon2, Passwords
from server.players.throttle import Buckets, LoginThrottle, Rate
from tests.server.accounts_kit import CountingHasher, FakeClock


@pytest.mark.parametrize(
    "a, b",
    [
        ("Ａlice", "alice"),  # full-width A (NFKC)
        ("ALICE", "alice"),
        ("Straße", "STRASSE"),  # casefold: ß -> ss
        ("ﬁnn", "finn"),  # the fi ligature
        ("e\u0301mile", "\u00e9mile"),  # combining acute vs precomposed
        ("  ana   maria ", "ana maria"),
        ("ᴬlice", "alice"),  # modifier letter capital A: NFKC gives A
    ],
)
def test_names_that_look_the_same_have_one_key(a: str, b: str) -> None:
    assert account_key(a) == account_key(b)


@pytest.mark.parametrize("name", ["Ａlice", "ǅemal", "ΣΊΣΥΦΟΣ", "ﬃ", "Ⅻ", "K"])
def test_the_key_is_stable(name: str) -> None:
    key = account_key(name)
    assert account_key(key) == key


def test_different_names_have_different_keys() -> None:
    assert account_key("alice") != account_key("alicia")
    assert account_key("ana maria") != account_key("anamaria")


def test_password_bounds() -> None:
    for bad in ("", "x" * (MIN_PASSWORD - 1), "x" * (MAX_PASSWORD + 1), "x" * 100_000):
        with pytest.raises(ClientError) as refused:
            check_password(bad)
        assert refused.value.code == "bad_password"
        assert not usable_password(bad)
    for good in ("x" * MIN_PASSWORD, "😀" * MAX_PASSWORD, "correct horse battery staple"):
        assert check_password(good) == good
        assert usable_password(good)
    assert (MIN_PASSWORD, MAX_PASSWORD) == (8, 1024)


def test_the_throttle_limits_each_address_and_each_account() -> None:
    clock = FakeClock()
    throttle = LoginThrottle(
        per_address=Rate(burst=3, every=10), per_account=Rate(burst=2, every=60), clock=clock
    )
    assert [throttle.allow("1.1.1.1", f"n{i}") for i in range(4)] == [True, True, True, False]
    clock.advance(10)
    assert throttle.allow("1.1.1.1", "n9")
    assert not throttle.allow("1.1.1.1", "n10")
    # one account from many addresses
    assert [throttle.allow(f"2.2.2.{i}", "alice") for i in range(3)] == [True, True, False]
    assert throttle.allow("2.2.2.9", "bob")  # other accounts are not slowed
    clock.advance(60)
    assert throttle.allow("2.2.2.7", "alice")


def test_a_refused_attempt_takes_nothing() -> None:
    clock = FakeClock()
    throttle = LoginThrottle(
        per_address=Rate(burst=1, every=10), per_account=Rate(burst=5, every=60), clock=clock
    )
    assert throttle.allow("a", "alice")
    for _ in range(10):
        assert not throttle.allow("a", "alice")  # the address is empty
    # alice's bucket lost only the one token
    assert [throttle.allow(f"b{i}", "alice") for i in range(5)] == [True] * 4 + [False]


def test_the_throttle_memory_is_bounded() -> None:
    clock = FakeClock()
    buckets = Buckets(Rate(burst=5, every=1), max_entries=100)
    for i in range(10_000):
        buckets.take(f"k{i}", clock())
        assert len(buckets) <= 100
    # after a refill every bucket is full, and full buckets are forgotten
    clock.advance(10)
    buckets.take("fresh", clock())
    for i in range(100):
        buckets.take(f"again{i}", clock())
    assert len(buckets) <= 100
    assert buckets.level("k9999", clock()) == 5


async def test_at_most_two_hashes_run_at_once_and_a_long_queue_is_refused() -> None:
    running = 0
    most = 0
    lock = threading.Lock()
    release = threading.Event()

    class Slow(CountingHasher):
        def hash(self, password: str) -> str:
            nonlocal running, most
            with lock:
                running += 1
                most = max(most, running)
            release.wait(10)
            with lock:
                running -= 1
            return super().hash(password)

    passwords = Passwords(Slow(), concurrency=2, queue=3)
    tasks = [asyncio.create_task(passwords.hash(f"password{i}")) for i in range(5)]
    await asyncio.sleep(0.05)
    with pytest.raises(ClientError) as refused:
        await passwords.hash("one too many")
    assert refused.value.code == "busy"
    release.set()
    hashes = await asyncio.gather(*tasks)
    assert len(set(hashes)) == 5
    assert most == 2


async def test_an_unknown_name_costs_one_verification_like_a_known_one() -> None:
    hasher = CountingHasher()
    passwords = Passwords(hasher)
    stored = await passwords.hash("the right one")
    before = hasher.verifies
    assert await passwords.verify(stored, "the right one")
    assert not await passwords.verify(stored, "a wrong one!")
    assert not await passwords.verify(None, "the right one")
    assert hasher.verifies - before == 3


async def test_the_first_verification_makes_the_dummy_whichever_the_name() -> None:
    for stored in (None, "test$00$00"):
        hasher = CountingHasher()
        passwords = Passwords(hasher)
        assert not await passwords.verify(stored, "whatever1")
        assert (hasher.hashes, hasher.verifies) == (1, 1)


def test_argon2id_defaults() -> None:
    argon = Argon2()
    hashed = argon.hash("correct horse battery staple")
    assert hashed.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    assert argon.verify(hashed, "correct horse battery staple")
    assert not argon.verify(hashed, "Correct horse battery staple")
    assert not argon.verify("not a hash", "x")
    assert not argon.needs_rehash(hashed)
    assert argon.needs_rehash("test$ab$cd")
