"""Structured logs: every line carries the connection id and the room id it concerns.

The ids live in context variables, so they follow the asyncio task that set them: the
websocket handler binds its connection id (:func:`bind`), a room's task binds its room id.
:class:`ContextFilter` copies them onto every record as ``conn`` and ``room`` (``-`` when
unknown); :func:`configure` installs it with a text or a JSON (one object per line) format.
"""

from __future__ import annotations

import contextvars
import json
import logging
import secrets
import sys
import time
from typing import Any

_conn: contextvars.ContextVar[str | None] = contextvars.ContextVar("umpire_conn", default=None)
_room: contextvars.ContextVar[str | None] = contextvars.ContextVar("umpire_room", default=None)

_UNSET: Any = object()

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [conn=%(conn)s room=%(room)s] %(message)s"


def new_conn_id() -> str:
    """A short random id for a new connection (8 hex digits)."""
    return secrets.token_hex(4)


def bind(*, conn: str | None = _UNSET, room: str | None = _UNSET) -> None:
    """Set the connection and/or room id of the current task (``None`` clears one)."""
    if conn is not _UNSET:
        _conn.set(conn)
    if room is not _UNSET:
        _room.set(room)


def current() -> tuple[str | None, str | None]:
    """The ``(conn, room)`` ids bound in the current context."""
    return _conn.get(), _room.get()


class ContextFilter(logging.Filter):
    """Adds ``record.conn`` and ``record.room`` from the context (keeps values already set,
    e.g. by ``extra=``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "conn", None) is None:
            record.conn = _conn.get() or "-"
        if getattr(record, "room", None) is None:
            record.room = _room.get() or "-"
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ts, level, logger, conn, room, msg (and exc)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "conn": getattr(record, "conn", "-"),
            "room": getattr(record, "room", "-"),
            "msg": record.getMessage(),
        }
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


class _Stderr:
    """``sys.stderr`` as it is when a record is written, not when the handler was made
    (``umpire serve`` run in-process, by a test, may outlive the stream it started with)."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


def configure(level: str = "INFO", fmt: str = "text") -> logging.Handler:
    """Log to stderr in ``fmt`` (``text`` or ``json``) at ``level``; return the handler."""
    handler: logging.StreamHandler[Any] = logging.StreamHandler(_Stderr())
    handler.addFilter(ContextFilter())
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    elif fmt == "text":
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    else:
        raise ValueError(f"unknown log format {fmt!r}: text or json")
    root = logging.getLogger()
    for old in list(root.handlers):
        if getattr(old, "_umpire", False):
            root.removeHandler(old)
    handler._umpire = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level.upper())
    return handler
