"""Per-connection limits: a token-bucket rate limiter and an abuse counter.

Both take the current time as an argument (``time.monotonic()`` in the server), so they are
plain state machines and easy to test.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class TokenBucket:
    """Allow ``rate`` messages per second on average, with bursts of up to ``burst``."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = 0.0

    def take(self, now: float) -> bool:
        """Spend one token if there is one; return whether the message may pass."""
        if self.tokens < 0:
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self, now: float) -> float:
        """Seconds from ``now`` until the next message may pass (0 if it may now)."""
        if self.tokens < 0:
            return 0.0
        tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate

    def spend(self, extra: float) -> None:
        """Charge a costly message ``extra`` tokens more than the one :meth:`take` spent
        (down to none left: the next messages wait for the refill)."""
        if self.tokens >= 0:
            self.tokens = max(0.0, self.tokens - extra)


@dataclass(slots=True)
class Strikes:
    """Count abuse (bad frames, flooding); forgive ``decay`` strikes per second.

    :meth:`hit` returns True once more than ``limit`` strikes are outstanding: the
    connection should then be closed with 1008 (policy violation).
    """

    limit: float
    decay: float
    count: float = 0.0
    stamp: float = 0.0

    def hit(self, now: float) -> bool:
        """Record one strike; return whether the limit is exceeded."""
        self.count = max(0.0, self.count - (now - self.stamp) * self.decay) + 1
        self.stamp = now
        return self.count > self.limit


@dataclass(slots=True)
class Idle:
    """When a connection that sends nothing more becomes idle: ``timeout`` seconds after
    the last message :meth:`seen`. The server checks it with one timer per timeout
    period (re-armed at :meth:`due` while messages keep coming), not one per message."""

    timeout: float
    last: float

    def seen(self, now: float) -> None:
        """A message arrived at ``now``."""
        self.last = now

    def due(self) -> float:
        """The time at which the connection is idle unless another message comes."""
        return self.last + self.timeout
