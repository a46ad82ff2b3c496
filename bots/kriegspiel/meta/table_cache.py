"""Endgame tables kept on disk: read when the file checks out, else built once and written.

The distance-to-mate tables of :mod:`bots.kriegspiel.meta.dtm` (KR vs K, KQ vs K) and
:mod:`bots.kriegspiel.meta.minor_dtm` (KBB vs K, KBN vs K) are pure functions of the
rules, slow to build (seconds to tens of seconds) and quick to read. Each lives in one
file of the cache directory (``$XDG_CACHE_HOME/umpire``, else ``~/.cache/umpire``): the
SHA-256 of the payload, then the payload, the White-to-move table followed by the
Black-to-move one. A file that is missing, short or does not match its digest is never
trusted: the table is built again and the file rewritten atomically (a reader sees the
old file or the whole new one). :func:`cached` is that load-or-build step, once per
process and key, with one loader at a time per lock.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

__all__ = ["cache_dir", "cached", "read", "write"]

K = TypeVar("K")
T = TypeVar("T")


def cache_dir() -> Path:
    """Where the tables are kept between processes."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "umpire"


def read(path: Path, size: int) -> bytes | None:
    """The payload of ``path`` (``size`` bytes), or ``None`` if the file is missing, of
    another size or does not match its digest."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    digest, payload = data[:32], data[32:]
    if len(payload) != size or hashlib.sha256(payload).digest() != digest:
        return None
    return payload


def write(path: Path, payload: bytes) -> None:
    """Write ``payload`` and its digest for the next process; a cache directory that
    cannot be written is skipped (the table is then built again next time)."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(hashlib.sha256(payload).digest() + payload)
        temporary.replace(path)  # atomic: a reader sees the old file or the whole new one
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)


def cached(
    tables: dict[K, T],
    lock: threading.Lock,
    key: K,
    path: Path,
    size: int,
    decode: Callable[[bytes], T],
    build: Callable[[], tuple[T, bytes]],
    *,
    build_missing: bool = True,
) -> T | None:
    """``tables[key]``, else the table read from ``path`` (``size`` bytes of payload,
    turned into a table by ``decode``), else (``build_missing``) the table ``build``
    returns with its payload, which is written to ``path``; ``None`` only when the file
    is not there and ``build_missing`` is false. The table is kept in ``tables``; a
    caller that arrives while another thread holds ``lock`` waits for it and reads
    what it loaded or built."""
    found = tables.get(key)
    if found is not None:
        return found
    with lock:
        found = tables.get(key)
        if found is None:
            payload = read(path, size)
            if payload is not None:
                found = decode(payload)
            elif not build_missing:
                return None
            else:
                found, payload = build()
                write(path, payload)
            tables[key] = found
    return found
