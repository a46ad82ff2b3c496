"""The server's exceptions: one root, and the client-facing error that becomes a frame.

Exceptions::

    ServerError               root of everything the server raises on purpose
    ├── ClientError           a request refused; the client gets an ``error`` frame with
    │                         ``code`` (see :data:`server.wire.protocol.ERROR_CODES`) and a
    │                         readable ``message``; the connection stays open
    └── StoreError            the knowledge base cannot do what was asked (a bug or a
        │                     broken database, never the client's fault)
        ├── NameTaken         an account name (its key) is already taken
        └── LeaseLost         a write for a room another node took over (server.cluster.lease):
                              refused whole; the room stops on this node

Engines raise their own :class:`~server.games.base.GameError`; the room turns an
``IllegalAction`` into a :class:`ClientError` with the same code, and treats anything else
an engine raises as a crash of that room's game only.
"""

from __future__ import annotations


class ServerError(Exception):
    """Root of the exceptions the server raises on purpose."""


class ClientError(ServerError):
    """A request the server refuses; sent back as ``{"type": "error", "code", "message"}``.

    ``abuse`` marks errors that only a broken or hostile client makes (bad JSON, unknown
    message types, flooding); too many of them close the connection with 1008.
    """

    def __init__(
        self, code: str, message: str, *, abuse: bool = False, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.abuse = abuse
        #: with ``rate_limited``: the seconds until the same request may pass
        self.retry_after = retry_after


class StoreError(ServerError):
    """The store failed or found data it cannot read (for example a future schema)."""


class LeaseLost(StoreError):
    """A write for a room whose lease this node no longer holds (its fencing token is
    stale, see server.cluster.lease): nothing of it was stored. The room must stop here; its
    clients reconnect and find it on the node that owns it now."""


class NameTaken(StoreError):
    """An account or bot account name whose key (NFKC, casefolded) is already taken."""
