"""What the account tests share: a cheap password hasher that counts its calls (equal
work is checked by counting, never by timing), fake clocks, and a server fixture whose
identity service uses them."""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass, field

from server.net.app import UmpireServer
from server.players.passwords import Passwords
from server.players.throttle import LoginThrottle


class CountingHasher:
    """A salted SHA-256 "password hash": cheap, and it counts every call."""

    def __init__(self) -> None:
        self.hashes = 0
        self.verifies = 0

    def hash(self, password: str) -> str:
        self.hashes += 1
        salt = secrets.token_hex(8)
        return f"test${salt}${hashlib.sha256((salt + password).encode()).hexdigest()}"

    def verify(self, hashed: str, password: str) -> bool:
        self.verifies += 1
        try:
            _, salt, digest = hashed.split("$")
        except ValueError:
            return False
        return hashlib.sha256((salt + password).encode()).hexdigest() == digest

    def needs_rehash(self, hashed: str) -> bool:
        return not hashed.startswith("test$")

    @property
    def calls(self) -> int:
        return self.hashes + self.verifies


@dataclass
class FakeClock:
    """A clock that moves only when told."""

    now: float = 1_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Rig:
    """A server with a counting hasher, a fake throttle clock and a fake wall clock."""

    server: UmpireServer
    hasher: CountingHasher = field(default_factory=CountingHasher)
    monotonic: FakeClock = field(default_factory=FakeClock)
    wall: FakeClock = field(default_factory=lambda: FakeClock(time.time()))

    def __post_init__(self) -> None:
        identities = self.server.identities
        identities.passwords = Passwords(self.hasher)
        identities.throttle = LoginThrottle(clock=self.monotonic)
        identities.clock = self.wall


DAY = 86400.0
