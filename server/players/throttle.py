"""Login rate limits: token buckets per address and per account key, on an injected clock.

Every login attempt (and every ``change_password``, which also checks a password) takes one
token from its address's bucket and one from its account key's bucket; when either is
empty the attempt is refused with ``rate_limited`` *before* anything is looked up, so the
answer is the same whether or not the name exists. The per-address bucket slows one
machine guessing many names; the per-account bucket slows many machines guessing one
account's password (at the cost that they can also slow its owner's logins: the bucket
refills, so the owner waits minutes, never hours). The refusal carries ``retry_after``: the
seconds until both buckets have a token again.

Memory is bounded: a bucket that has refilled is the same as no bucket and is forgotten;
past ``max_entries`` buckets per kind the least recently used ones are dropped (an
attacker who could make that many distinct keys within one refill period would already
be limited per address).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rate:
    """``burst`` attempts at once, then one every ``every`` seconds."""

    burst: float
    every: float


#: defaults: 20 attempts from one address, then one every 6 s (10 a minute); 10 attempts
#: at one account, then one every 30 s (2 a minute)
PER_ADDRESS = Rate(burst=20, every=6.0)
PER_ACCOUNT = Rate(burst=10, every=30.0)


class Buckets:
    """Token buckets by key, at most ``max_entries`` of them."""

    def __init__(self, rate: Rate, max_entries: int) -> None:
        self.rate = rate
        self.max_entries = max_entries
        #: key -> (tokens, time of that count), least recently used first
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def level(self, key: str, now: float) -> float:
        """The tokens ``key`` has at ``now``."""
        entry = self._buckets.get(key)
        if entry is None:
            return self.rate.burst
        tokens, stamp = entry
        return min(self.rate.burst, tokens + max(0.0, now - stamp) / self.rate.every)

    def wait(self, key: str, now: float) -> float:
        """The seconds until ``key`` has a token again (0 when it has one now)."""
        return max(0.0, (1 - self.level(key, now)) * self.rate.every)

    def take(self, key: str, now: float) -> None:
        """Spend one of ``key``'s tokens (the caller checked :meth:`level`)."""
        self._buckets[key] = (self.level(key, now) - 1, now)
        self._buckets.move_to_end(key)
        if len(self._buckets) > self.max_entries:
            self._prune(now)

    def _prune(self, now: float) -> None:
        """Forget full buckets; then, if still too many, the least recently used."""
        for key in [k for k in self._buckets if self.level(k, now) >= self.rate.burst]:
            del self._buckets[key]
        while len(self._buckets) > self.max_entries:
            self._buckets.popitem(last=False)


class LoginThrottle:
    """Whether a login attempt from ``address`` at account key ``key`` may go on."""

    def __init__(
        self,
        *,
        per_address: Rate = PER_ADDRESS,
        per_account: Rate = PER_ACCOUNT,
        clock: Callable[[], float] = time.monotonic,
        max_entries: int = 100_000,
    ) -> None:
        self.clock = clock
        self.addresses = Buckets(per_address, max_entries)
        self.accounts = Buckets(per_account, max_entries)

    def allow(self, address: str, key: str | None) -> bool:
        """Take a token from ``address``'s bucket and (unless ``key`` is None) from
        ``key``'s; ``False`` (and nothing taken) when either is empty."""
        return self.check(address, key) == 0

    def check(self, address: str, key: str | None) -> float:
        """Like :meth:`allow`, but the answer is the seconds to wait before the attempt
        may pass (rounded up to the millisecond; ``0``: it passed, and took its tokens)."""
        now = self.clock()
        wait = self.addresses.wait(address, now)
        if key is not None:
            wait = max(wait, self.accounts.wait(key, now))
        if wait > 0:
            return math.ceil(wait * 1000) / 1000
        self.addresses.take(address, now)
        if key is not None:
            self.accounts.take(key, now)
        return 0.0
