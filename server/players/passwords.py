"""Password hashing: argon2id, off the event loop, a bounded number at once.

:class:`Passwords` is what the identity service calls. It runs a :class:`Hasher` (by
default :class:`Argon2`, ``argon2.PasswordHasher()`` with its defaults: argon2id, RFC 9106's
low-memory profile, time cost 3, memory 64 MiB, parallelism 4, 16-byte salt, 32-byte hash)
in worker threads (:func:`asyncio.to_thread`): a hash takes tens of milliseconds of CPU and
64 MiB, which must never stall the loop that serves every room. At most ``concurrency``
(2) run at once, so logins cannot take all the cores or the memory; at most ``queue``
more wait, and beyond that a request is answered ``busy`` at once.

A login for a name no account holds is verified against a dummy hash made by the same
hasher (:meth:`Passwords.verify` with ``None``), so a wrong name and a wrong password cost
the same work and take the same time. Tests inject a cheap :class:`Hasher` that counts its
calls: the suite checks equal work by counting calls, never by timing.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Protocol, TypeVar

import argon2
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from server.errors import ClientError

T = TypeVar("T")


class Hasher(Protocol):
    """A password hash function (synchronous: :class:`Passwords` runs it in a thread)."""

    def hash(self, password: str) -> str:
        """A new salted hash of ``password``."""
        ...

    def verify(self, hashed: str, password: str) -> bool:
        """Whether ``password`` matches ``hashed`` (never raises on a mismatch or a
        malformed hash: both are ``False``)."""
        ...

    def needs_rehash(self, hashed: str) -> bool:
        """Whether ``hashed`` was made with other parameters than today's."""
        ...


class Argon2:
    """argon2id with ``argon2-cffi``'s defaults (RFC 9106, low-memory profile)."""

    def __init__(self, hasher: argon2.PasswordHasher | None = None) -> None:
        self.hasher = hasher or argon2.PasswordHasher()

    def hash(self, password: str) -> str:
        """A new argon2id hash (PHC string: parameters and salt included)."""
        return self.hasher.hash(password)

    def verify(self, hashed: str, password: str) -> bool:
        """Whether ``password`` matches ``hashed``."""
        try:
            return self.hasher.verify(hashed, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, hashed: str) -> bool:
        """Whether ``hashed`` has other parameters than the hasher's."""
        try:
            return self.hasher.check_needs_rehash(hashed)
        except (InvalidHashError, ValueError):
            return True


class Passwords:
    """Hash and verify passwords in worker threads, ``concurrency`` at a time."""

    def __init__(self, hasher: Hasher | None = None, *, concurrency: int = 2, queue: int = 64):
        self.hasher: Hasher = hasher or Argon2()
        self.concurrency = concurrency
        self.queue = queue
        self._slots = asyncio.Semaphore(concurrency)
        self._waiting = 0
        self._dummy: str | None = None
        self._dummy_lock = asyncio.Lock()

    async def _run(self, fn: Callable[..., T], *args: str) -> T:
        """``fn(*args)`` in a worker thread once a slot is free; ``busy`` if too many
        already wait."""
        if self._waiting >= self.concurrency + self.queue:
            raise ClientError("busy", "too many logins at once: try again in a moment")
        self._waiting += 1
        try:
            async with self._slots:
                return await asyncio.to_thread(fn, *args)
        finally:
            self._waiting -= 1

    async def hash(self, password: str) -> str:
        """A new hash of ``password`` (made off the event loop)."""
        return await self._run(self.hasher.hash, password)

    async def _dummy_hash(self) -> str:
        """A hash nobody knows the password of, made once by this hasher (so it has the
        same parameters, and costs the same to verify, as the accounts' hashes)."""
        if self._dummy is None:
            async with self._dummy_lock:
                if self._dummy is None:
                    self._dummy = await self.hash(secrets.token_urlsafe(24))
        return self._dummy

    async def verify(self, hashed: str | None, password: str) -> bool:
        """Whether ``password`` matches ``hashed``. ``None`` (no such account, or a bot
        account, which has no password) verifies against the dummy hash and is ``False``:
        the same work as a real account's wrong password. The dummy hash is made before
        the first verification of either kind, so even the first login costs the same."""
        dummy = await self._dummy_hash()
        ok = await self._run(self.hasher.verify, hashed or dummy, password)
        return hashed is not None and ok

    def needs_rehash(self, hashed: str) -> bool:
        """Whether a stored hash should be replaced by a new one (after a good login)."""
        return self.hasher.needs_rehash(hashed)
